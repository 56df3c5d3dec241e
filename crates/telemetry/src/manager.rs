//! The broker's side of KIP-714 as a sans-IO state machine: client instances (assigned an id
//! on their first GetTelemetrySubscriptions, matched to the subscriptions, expired when they
//! go quiet, forgotten when their connection closes), the push-interval throttle, and a push's
//! checks in Kafka's order (terminated, too early, unknown subscription id, unknown
//! compression, too large). An accepted push is decompressed and decoded without the manager
//! ([`decode`]) and then stored in the bounded series ([`Manager::stored`]). The clock is the
//! caller's; nothing here sleeps or spawns.

use crate::otlp::{self, MetricsData, PayloadError};
use crate::series::SeriesStore;
use crate::subscription::{subscribed, ClientAttributes, Subscribed, Subscription};
use fjord_protocol::generated::get_telemetry_subscriptions_response::GetTelemetrySubscriptionsResponse;
use fjord_protocol::records::compression::{decompress, Compression};
use fjord_protocol::ErrorCode;
use std::collections::HashMap;
use uuid::Uuid;

/// The most client instances remembered at once (Kafka's cache size); the least recently
/// seen is forgotten to make room.
pub const MAX_INSTANCES: usize = 16_384;
/// The shortest time an instance is remembered after its last request (three push intervals
/// when that is longer), as Kafka's cache expiry.
pub const MIN_EXPIRY_MS: i64 = 60_000;
/// How often expired instances and series are swept, at most.
const SWEEP_INTERVAL_MS: i64 = 1_000;
/// The compression types a push may use, in the broker's order of preference (zstd, lz4,
/// gzip, snappy), as Kafka advertises them.
pub const ACCEPTED_COMPRESSION: [i8; 4] = [4, 3, 1, 2];

/// The manager's settings.
#[derive(Debug, Clone, Copy)]
pub struct Settings {
    /// `telemetry.max.bytes`: the largest payload, compressed or not.
    pub max_bytes: i32,
    /// `metrics.client.max.series`: the most pushed series kept.
    pub max_series: usize,
}

/// Who sent a request.
#[derive(Debug, Clone)]
pub struct Client {
    /// The selectors a subscription matches on (`instance_id` is filled in here).
    pub attributes: ClientAttributes,
    /// The connection's principal (`User:alice`).
    pub principal: String,
    /// The connection's number.
    pub connection: u64,
}

/// One instance's counters, served as Kafka's `client-metrics` group.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct InstanceStats {
    /// Requests refused as too early.
    pub throttled: u64,
    /// Pushes whose payload was stored.
    pub exported: u64,
    /// Pushes whose payload could not be read.
    pub errors: u64,
    /// Time spent storing payloads, in nanoseconds, in all.
    pub export_nanos: u64,
    /// The longest a payload took.
    pub export_max_nanos: u64,
}

#[derive(Debug)]
struct Instance {
    attributes: ClientAttributes,
    principal: String,
    subscription: Subscribed,
    subscription_id: i32,
    /// The subscriptions' version it was matched against.
    version: u64,
    last_get_ms: i64,
    last_push_ms: i64,
    terminating: bool,
    last_error: ErrorCode,
    last_seen_ms: i64,
    stats: InstanceStats,
}

impl Instance {
    fn expires_at(&self) -> i64 {
        self.last_seen_ms + MIN_EXPIRY_MS.max(3 * i64::from(self.subscription.interval_ms))
    }

    /// Kafka's rule: a GetTelemetrySubscriptions is early within a push interval of the last
    /// request of either kind.
    fn may_get(&mut self, now: i64) -> bool {
        let last = self.last_get_ms.max(self.last_push_ms);
        let ok = now - last >= i64::from(self.subscription.interval_ms);
        if ok {
            self.last_get_ms = now;
        }
        ok
    }

    /// A push is early within a push interval of the last push, unless a
    /// GetTelemetrySubscriptions came in between.
    fn may_push(&mut self, now: i64) -> bool {
        let ok = self.last_get_ms > self.last_push_ms
            || now - self.last_push_ms >= i64::from(self.subscription.interval_ms);
        if ok {
            self.last_push_ms = now;
        }
        ok
    }
}

/// A push that passed the checks, for [`decode`] and then [`Manager::stored`].
#[derive(Debug)]
pub struct Accepted {
    instance: Uuid,
    compression: i8,
    max_bytes: usize,
}

/// Why a push was refused: its error code and Kafka's message (for the broker's log).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Refused {
    /// The error code answered.
    pub code: ErrorCode,
    /// What went wrong.
    pub message: String,
}

/// The client telemetry manager of one broker.
#[derive(Debug)]
pub struct Manager {
    settings: Settings,
    subscriptions: Vec<Subscription>,
    version: u64,
    instances: HashMap<Uuid, Instance>,
    connections: HashMap<u64, Uuid>,
    series: SeriesStore,
    unknown_subscription: u64,
    next_sweep_ms: i64,
}

impl Manager {
    /// A manager with no subscriptions.
    pub fn new(settings: Settings) -> Manager {
        Manager {
            settings,
            subscriptions: Vec::new(),
            version: 0,
            instances: HashMap::new(),
            connections: HashMap::new(),
            series: SeriesStore::new(settings.max_series),
            unknown_subscription: 0,
            next_sweep_ms: i64::MIN,
        }
    }

    /// Replaces the subscriptions; when they changed, every instance is matched again at its
    /// next request (with a new subscription id and its throttle cleared), as in Kafka.
    pub fn set_subscriptions(&mut self, subscriptions: Vec<Subscription>) {
        if subscriptions != self.subscriptions {
            self.subscriptions = subscriptions;
            self.version += 1;
        }
    }

    /// Answers a GetTelemetrySubscriptions from `client` naming `instance_id` (zero: a new
    /// client, which gets `fresh_id`).
    pub fn get_subscriptions(
        &mut self,
        instance_id: Uuid,
        client: &Client,
        now_ms: i64,
        fresh_id: Uuid,
    ) -> GetTelemetrySubscriptionsResponse {
        self.sweep(now_ms);
        let id = if instance_id.is_nil() {
            fresh_id
        } else {
            instance_id
        };
        let max_bytes = self.settings.max_bytes;
        let instance = self.instance(id, client, now_ms);
        let lenient = matches!(
            instance.last_error,
            ErrorCode::UnknownSubscriptionId | ErrorCode::UnsupportedCompressionType
        );
        if !instance.may_get(now_ms) && !lenient {
            instance.stats.throttled += 1;
            return GetTelemetrySubscriptionsResponse {
                error_code: ErrorCode::ThrottlingQuotaExceeded.code(),
                ..Default::default()
            };
        }
        instance.last_error = ErrorCode::None;
        GetTelemetrySubscriptionsResponse {
            client_instance_id: id,
            subscription_id: instance.subscription_id,
            accepted_compression_types: ACCEPTED_COMPRESSION.to_vec(),
            push_interval_ms: instance.subscription.interval_ms,
            telemetry_max_bytes: max_bytes,
            delta_temporality: true,
            requested_metrics: instance.subscription.metrics.clone(),
            ..Default::default()
        }
    }

    /// Checks a PushTelemetry; an accepted push with a payload goes on to [`decode`] and
    /// [`Manager::stored`], one without is answered at once (`Ok(None)`).
    pub fn push(
        &mut self,
        request: &fjord_protocol::generated::push_telemetry_request::PushTelemetryRequest,
        client: &Client,
        now_ms: i64,
    ) -> Result<Option<Accepted>, Refused> {
        self.sweep(now_ms);
        let id = request.client_instance_id;
        // Kafka's reserved ids: zero and the metadata topic's.
        if id.is_nil() || id == Uuid::from_u128(1) {
            return Err(Refused {
                code: ErrorCode::InvalidRequest,
                message: format!(
                    "Invalid request from the client [{}], invalid client instance id",
                    fjord_util::uuid_text::encode(&id)
                ),
            });
        }
        let max_bytes = self.settings.max_bytes;
        let instance = self.instance(id, client, now_ms);
        let verdict = check_push(instance, request, now_ms, max_bytes);
        instance.terminating = request.terminating;
        if let Err(refused) = &verdict {
            instance.last_error = refused.code;
            if refused.code == ErrorCode::ThrottlingQuotaExceeded {
                instance.stats.throttled += 1;
            }
            if refused.code == ErrorCode::UnknownSubscriptionId {
                self.unknown_subscription += 1;
            }
            return verdict.map(|()| None);
        }
        if request.metrics.is_empty() {
            instance.last_error = ErrorCode::None;
            return Ok(None);
        }
        Ok(Some(Accepted {
            instance: id,
            compression: request.compression_type,
            max_bytes: usize::try_from(max_bytes).unwrap_or(0),
        }))
    }

    /// Stores what [`decode`] made of an accepted push (which took `nanos`): its series, or
    /// INVALID_RECORD when the payload could not be read.
    pub fn stored(
        &mut self,
        accepted: Accepted,
        decoded: Result<MetricsData, PayloadError>,
        nanos: u64,
        now_ms: i64,
    ) -> Result<crate::series::Applied, Refused> {
        let Some(instance) = self.instances.get_mut(&accepted.instance) else {
            // Forgotten meanwhile (its connection closed): nothing to store it under.
            return Ok(Default::default());
        };
        match decoded {
            Err(e) => {
                instance.stats.errors += 1;
                instance.last_error = ErrorCode::InvalidRecord;
                Err(Refused {
                    code: ErrorCode::InvalidRecord,
                    message: e.to_string(),
                })
            }
            Ok(data) => {
                instance.stats.exported += 1;
                instance.stats.export_nanos += nanos;
                instance.stats.export_max_nanos = instance.stats.export_max_nanos.max(nanos);
                instance.last_error = ErrorCode::None;
                let labels = labels(accepted.instance, instance);
                let expires =
                    now_ms + MIN_EXPIRY_MS.max(3 * i64::from(instance.subscription.interval_ms));
                let metrics = instance.subscription.metrics.clone();
                Ok(self
                    .series
                    .apply(accepted.instance, labels, &metrics, &data, expires))
            }
        }
    }

    /// Forgets the instance that used `connection` (its series stay until they expire).
    pub fn connection_closed(&mut self, connection: u64) {
        if let Some(id) = self.connections.remove(&connection) {
            self.instances.remove(&id);
        }
    }

    /// The pushed series.
    pub fn series(&self) -> &SeriesStore {
        &self.series
    }

    /// Whether instance `id` is remembered.
    pub fn knows(&self, id: &Uuid) -> bool {
        self.instances.contains_key(id)
    }

    /// How many client instances are remembered.
    pub fn instance_count(&self) -> usize {
        self.instances.len()
    }

    /// Pushes refused for an unknown subscription id, since the start.
    pub fn unknown_subscription_requests(&self) -> u64 {
        self.unknown_subscription
    }

    /// Each remembered instance's counters.
    pub fn instance_stats(&self) -> Vec<(Uuid, InstanceStats)> {
        let mut v: Vec<_> = self
            .instances
            .iter()
            .map(|(id, i)| (*id, i.stats))
            .collect();
        v.sort_by_key(|(id, _)| *id);
        v
    }

    /// Drops expired instances and series (at most once a [`SWEEP_INTERVAL_MS`]).
    pub fn sweep(&mut self, now_ms: i64) {
        if now_ms < self.next_sweep_ms {
            return;
        }
        self.next_sweep_ms = now_ms.saturating_add(SWEEP_INTERVAL_MS);
        self.instances.retain(|_, i| i.expires_at() > now_ms);
        let live = &self.instances;
        self.connections.retain(|_, id| live.contains_key(id));
        self.series.expire(now_ms);
    }

    /// The instance `id`, made (or matched again after a subscription change) for `client`.
    fn instance(&mut self, id: Uuid, client: &Client, now_ms: i64) -> &mut Instance {
        if !self.instances.contains_key(&id) && self.instances.len() >= MAX_INSTANCES {
            if let Some(oldest) = self
                .instances
                .iter()
                .min_by_key(|(_, i)| i.last_seen_ms)
                .map(|(id, _)| *id)
            {
                self.instances.remove(&oldest);
            }
        }
        let version = self.version;
        let subscriptions = &self.subscriptions;
        let instance = self.instances.entry(id).or_insert_with(|| {
            let mut attributes = client.attributes.clone();
            attributes.instance_id = fjord_util::uuid_text::encode(&id);
            matched(
                id,
                attributes,
                client.principal.clone(),
                subscriptions,
                version,
            )
        });
        if instance.version < version {
            let again = matched(
                id,
                instance.attributes.clone(),
                instance.principal.clone(),
                subscriptions,
                version,
            );
            *instance = Instance {
                stats: instance.stats,
                ..again
            };
        }
        instance.last_seen_ms = now_ms;
        self.connections.insert(client.connection, id);
        instance
    }
}

/// A new instance record for `attributes`, matched against `subscriptions`.
fn matched(
    id: Uuid,
    attributes: ClientAttributes,
    principal: String,
    subscriptions: &[Subscription],
    version: u64,
) -> Instance {
    let subscription = subscribed(subscriptions, &attributes);
    Instance {
        subscription_id: subscription_id(&subscription, id),
        subscription,
        attributes,
        principal,
        version,
        last_get_ms: 0,
        last_push_ms: 0,
        terminating: false,
        last_error: ErrorCode::None,
        last_seen_ms: 0,
        stats: InstanceStats::default(),
    }
}

/// A push's checks, in Kafka's order.
fn check_push(
    instance: &mut Instance,
    request: &fjord_protocol::generated::push_telemetry_request::PushTelemetryRequest,
    now_ms: i64,
    max_bytes: i32,
) -> Result<(), Refused> {
    let id = fjord_util::uuid_text::encode(&request.client_instance_id);
    let refuse = |code, message: String| Err(Refused { code, message });
    if instance.terminating {
        return refuse(
            ErrorCode::InvalidRequest,
            format!("Client [{id}] sent the previous request with state terminating to TRUE, can not accept any requests after that"),
        );
    }
    if !instance.may_push(now_ms) && !request.terminating {
        return refuse(
            ErrorCode::ThrottlingQuotaExceeded,
            format!("Request from the client [{id}] arrived before the next push interval time"),
        );
    }
    if request.subscription_id != instance.subscription_id {
        return refuse(
            ErrorCode::UnknownSubscriptionId,
            format!("Unknown client subscription id for the client [{id}]"),
        );
    }
    if Compression::from_id(request.compression_type as u8).is_err() || request.compression_type < 0
    {
        return refuse(
            ErrorCode::UnsupportedCompressionType,
            format!(
                "Unknown compression type [{}] is received in telemetry request from [{id}]",
                request.compression_type
            ),
        );
    }
    if request.metrics.len() > usize::try_from(max_bytes).unwrap_or(0) {
        return refuse(
            ErrorCode::TelemetryTooLarge,
            format!("Telemetry request from [{id}] is larger than the maximum allowed size [{max_bytes}]"),
        );
    }
    Ok(())
}

/// Decompresses (to at most `telemetry.max.bytes`) and decodes an accepted push's payload.
pub fn decode(accepted: &Accepted, payload: &[u8]) -> Result<MetricsData, PayloadError> {
    decode_payload(accepted.compression, payload, accepted.max_bytes)
}

/// Decompresses a payload of compression type `compression` to at most `max_bytes` and
/// decodes it.
pub fn decode_payload(
    compression: i8,
    payload: &[u8],
    max_bytes: usize,
) -> Result<MetricsData, PayloadError> {
    let codec = u8::try_from(compression)
        .map_err(|_| PayloadError(format!("unknown compression type {compression}")))
        .and_then(|c| Compression::from_id(c).map_err(|e| PayloadError(e.to_string())))?;
    let raw = match codec {
        Compression::None => return otlp::decode(payload),
        c => decompress(c, payload, max_bytes).map_err(|e| PayloadError(e.to_string()))?,
    };
    otlp::decode(&raw)
}

/// The client's own labels on its series.
fn labels(id: Uuid, instance: &Instance) -> Vec<(String, String)> {
    let a = &instance.attributes;
    vec![
        ("client_id".into(), a.client_id.clone()),
        (
            "client_instance_id".into(),
            fjord_util::uuid_text::encode(&id),
        ),
        (
            "client_software_name".into(),
            a.software_name.clone().unwrap_or_default(),
        ),
        (
            "client_software_version".into(),
            a.software_version.clone().unwrap_or_default(),
        ),
        ("principal".into(), instance.principal.clone()),
    ]
}

/// Kafka's shape of subscription id: a CRC32C of the subscribed metrics and interval, mixed
/// with the instance id's hash, so it changes when either does.
fn subscription_id(s: &Subscribed, id: Uuid) -> i32 {
    let text = format!("[{}]{}", s.metrics.join(", "), s.interval_ms);
    let crc = crc32c::crc32c(text.as_bytes()) as i32;
    let (msb, lsb) = id.as_u64_pair();
    let h = msb ^ lsb;
    crc ^ ((h ^ (h >> 32)) as u32 as i32)
}

#[cfg(test)]
mod tests {
    use super::*;
    use fjord_protocol::generated::push_telemetry_request::PushTelemetryRequest;
    use prost::Message;

    const T0: i64 = 1_800_000_000_000;

    fn manager() -> Manager {
        let mut m = Manager::new(Settings {
            max_bytes: 1024,
            max_series: 100,
        });
        let configs = [
            (
                "metrics".to_string(),
                "org.apache.kafka.producer.".to_string(),
            ),
            ("interval.ms".to_string(), "1000".to_string()),
        ]
        .into();
        m.set_subscriptions(vec![Subscription::from_configs("s", &configs)]);
        m
    }

    fn client(connection: u64) -> Client {
        Client {
            attributes: ClientAttributes {
                client_id: "app".into(),
                software_name: Some("apache-kafka-java".into()),
                software_version: Some("4.4.0".into()),
                source_address: "127.0.0.1".into(),
                source_port: 50000,
                ..Default::default()
            },
            principal: "User:ANONYMOUS".into(),
            connection,
        }
    }

    fn payload() -> Vec<u8> {
        crate::otlp::tests_payload().encode_to_vec()
    }

    fn push(id: Uuid, sub: i32, compression: i8, metrics: Vec<u8>) -> PushTelemetryRequest {
        PushTelemetryRequest {
            client_instance_id: id,
            subscription_id: sub,
            compression_type: compression,
            metrics: metrics.into(),
            ..Default::default()
        }
    }

    fn code(r: &Result<Option<Accepted>, Refused>) -> ErrorCode {
        r.as_ref().err().map_or(ErrorCode::None, |e| e.code)
    }

    #[test]
    fn a_client_is_assigned_an_id_subscribed_and_throttled_as_kafka_does() {
        let mut m = manager();
        let fresh = Uuid::from_u128(77);
        let r = m.get_subscriptions(Uuid::nil(), &client(1), T0, fresh);
        assert_eq!(r.error_code, 0);
        assert_eq!(r.client_instance_id, fresh);
        assert_eq!(r.push_interval_ms, 1000);
        assert_eq!(r.requested_metrics, ["org.apache.kafka.producer."]);
        assert_eq!(r.accepted_compression_types, [4, 3, 1, 2]);
        assert!(r.delta_temporality);
        // Asking again within the interval is throttled.
        let again = m.get_subscriptions(fresh, &client(1), T0 + 10, Uuid::nil());
        assert_eq!(again.error_code, ErrorCode::ThrottlingQuotaExceeded.code());
        // The first push after a GetTelemetrySubscriptions is accepted at once, the next one
        // only after the interval.
        let sub = r.subscription_id;
        let ok = m.push(&push(fresh, sub, 0, Vec::new()), &client(1), T0 + 20);
        assert_eq!(code(&ok), ErrorCode::None);
        let early = m.push(&push(fresh, sub, 0, Vec::new()), &client(1), T0 + 30);
        assert_eq!(code(&early), ErrorCode::ThrottlingQuotaExceeded);
        let later = m.push(&push(fresh, sub, 0, Vec::new()), &client(1), T0 + 1020);
        assert_eq!(code(&later), ErrorCode::None);
        assert_eq!(m.instance_stats()[0].1.throttled, 2);
    }

    #[test]
    fn a_push_is_checked_in_kafkas_order() {
        let mut m = manager();
        let id = Uuid::from_u128(5);
        let sub = m.get_subscriptions(id, &client(1), T0, id).subscription_id;
        let refused =
            |m: &mut Manager, req: PushTelemetryRequest, at| code(&m.push(&req, &client(1), at));
        assert_eq!(
            refused(&mut m, push(Uuid::nil(), sub, 0, vec![]), T0),
            ErrorCode::InvalidRequest
        );
        assert_eq!(
            refused(&mut m, push(id, sub + 1, 0, vec![]), T0 + 1),
            ErrorCode::UnknownSubscriptionId
        );
        assert_eq!(m.unknown_subscription_requests(), 1);
        // After UNKNOWN_SUBSCRIPTION_ID the client may ask for its subscription at once
        // (the request does not count as one, as in Kafka: the next push still waits).
        let r = m.get_subscriptions(id, &client(1), T0 + 2, Uuid::nil());
        assert_eq!(r.error_code, 0);
        assert_eq!(
            refused(&mut m, push(id, sub, 0, vec![]), T0 + 3),
            ErrorCode::ThrottlingQuotaExceeded
        );
        assert_eq!(
            refused(&mut m, push(id, sub, 9, vec![]), T0 + 1003),
            ErrorCode::UnsupportedCompressionType
        );
        let r = m.get_subscriptions(id, &client(1), T0 + 1004, Uuid::nil());
        assert_eq!(r.error_code, 0);
        assert_eq!(
            refused(&mut m, push(id, sub, 0, vec![0; 1025]), T0 + 2005),
            ErrorCode::TelemetryTooLarge
        );
        // A terminating push is let through early; nothing after it is.
        let mut last = push(id, sub, 0, vec![]);
        last.terminating = true;
        assert_eq!(refused(&mut m, last, T0 + 2006), ErrorCode::None);
        assert_eq!(
            refused(&mut m, push(id, sub, 0, vec![]), T0 + 9000),
            ErrorCode::InvalidRequest
        );
    }

    #[test]
    fn payloads_are_decoded_in_every_codec_and_garbage_is_an_invalid_record() {
        let mut m = manager();
        let id = Uuid::from_u128(9);
        let sub = m.get_subscriptions(id, &client(1), T0, id).subscription_id;
        let mut at = T0;
        for codec in Compression::ALL {
            at += 1000;
            let body = fjord_protocol::records::compression::compress(codec, &payload()).unwrap();
            let accepted = m
                .push(
                    &push(id, sub, codec.id() as i8, body.clone()),
                    &client(1),
                    at,
                )
                .unwrap()
                .unwrap();
            let decoded = decode(&accepted, &body);
            let applied = m.stored(accepted, decoded, 1000, at).unwrap();
            // The consumer metric is not subscribed to: left out.
            assert_eq!((applied.points, applied.dropped), (2, 1), "{codec:?}");
        }
        assert_eq!(m.series().len(), 2);
        at += 1000;
        let accepted = m
            .push(&push(id, sub, 0, vec![0xff; 8]), &client(1), at)
            .unwrap()
            .unwrap();
        let decoded = decode(&accepted, &[0xff; 8]);
        let refused = m.stored(accepted, decoded, 10, at).unwrap_err();
        assert_eq!(refused.code, ErrorCode::InvalidRecord);
        let stats = m.instance_stats()[0].1;
        assert_eq!((stats.exported, stats.errors), (5, 1));
    }

    #[test]
    fn a_changed_subscription_rematches_and_a_closed_connection_forgets() {
        let mut m = manager();
        let id = Uuid::from_u128(3);
        let first = m.get_subscriptions(id, &client(7), T0, id);
        m.set_subscriptions(vec![]);
        // Matched again: the throttle is cleared and the subscription id changes.
        let second = m.get_subscriptions(id, &client(7), T0 + 1, id);
        assert_eq!(second.error_code, 0);
        assert_ne!(first.subscription_id, second.subscription_id);
        assert!(second.requested_metrics.is_empty());
        assert_eq!(second.push_interval_ms, 300_000);
        assert_eq!(m.instance_count(), 1);
        m.connection_closed(7);
        assert_eq!(m.instance_count(), 0);
        // Quiet instances expire.
        m.get_subscriptions(id, &client(8), T0 + 2, id);
        m.sweep(T0 + 2 + 3 * 300_000);
        assert_eq!(m.instance_count(), 0);
    }
}
