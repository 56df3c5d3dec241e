//! Client quotas enforced on a broker (KIP-13, KIP-124, KIP-219): `producer_byte_rate` on
//! Produce request bytes, `consumer_byte_rate` on the record bytes a consumer's Fetch returns,
//! `request_percentage` on the time a request's handling spends on the async workers (as
//! percent of one thread), each per (user, client id) sensor as the image resolves it. A
//! client over a bound is answered as usual, with the throttle time in the response; the
//! connection is then muted that long (`fjord_net::serve`). Nothing is ever refused. A
//! consumer's Fetch under a byte-rate quota asks for at most one second's worth, so that one
//! answer cannot overshoot the bound by much (Kafka caps it to its quota window too).
//! Follower fetches and the session and version handshakes are exempt, as in Kafka.

use fjord_metadata::quotas::{
    Resolved, CONSUMER_BYTE_RATE, PRODUCER_BYTE_RATE, REQUEST_PERCENTAGE,
};
use fjord_metadata::MetadataImage;
use fjord_net::serve::Reply;
use fjord_protocol::{ApiKey, Records, ResponseBody};
use fjord_quota::{ClientQuotaManager, QuotaKind};
use std::collections::HashMap;
use std::future::Future;
use std::sync::{Arc, Mutex};
use std::task::Context;
use std::time::{Duration, Instant};

/// A broker's client quota sensors.
#[derive(Debug)]
pub struct BrokerQuotas {
    /// `producer_byte_rate`.
    pub produce: ClientQuotaManager,
    /// `consumer_byte_rate`.
    pub fetch: ClientQuotaManager,
    /// `request_percentage`.
    pub request: ClientQuotaManager,
    /// What the image resolves for each open connection's client, kept while the image's
    /// quotas and the client stay the same (a connection's requests resolve once, not once
    /// each); an entry goes when its connection closes.
    resolved: Mutex<HashMap<u64, Resolution>>,
}

/// The quotas one connection's client gets.
#[derive(Debug)]
struct Resolution {
    /// The image's quotas they were resolved from.
    quotas: Arc<fjord_metadata::quotas::ClientQuotasImage>,
    user: String,
    client_id: String,
    /// `producer_byte_rate`, `consumer_byte_rate`, `request_percentage`.
    keys: [Option<Resolved>; 3],
}

impl Default for BrokerQuotas {
    fn default() -> BrokerQuotas {
        BrokerQuotas {
            produce: ClientQuotaManager::new(QuotaKind::Produce),
            fetch: ClientQuotaManager::new(QuotaKind::Fetch),
            request: ClientQuotaManager::new(QuotaKind::Request),
            resolved: Mutex::default(),
        }
    }
}

/// Who sent a request, for the quota resolution.
#[derive(Debug, Clone)]
pub struct Client {
    /// The principal's name (`ANONYMOUS` on an unauthenticated listener).
    pub user: String,
    /// The request header's client id.
    pub client_id: String,
}

/// APIs no request quota applies to: the handshakes a throttled client needs to talk at all.
fn exempt(api: ApiKey) -> bool {
    matches!(
        api,
        ApiKey::ApiVersions | ApiKey::SaslHandshake | ApiKey::SaslAuthenticate
    )
}

/// The record bytes a Fetch response carries.
fn fetched_bytes(r: &ResponseBody) -> usize {
    match r {
        ResponseBody::Fetch(f) => f
            .responses
            .iter()
            .flat_map(|t| &t.partitions)
            .map(|p| p.records.as_ref().map_or(0, Records::len))
            .sum(),
        _ => 0,
    }
}

impl BrokerQuotas {
    /// Runs `f` on the quotas `client` gets on `connection` under `image`, resolved again only
    /// when the image's quotas or the client changed.
    fn with_resolution<T>(
        &self,
        image: &MetadataImage,
        connection: u64,
        client: &Client,
        f: impl FnOnce(&[Option<Resolved>; 3]) -> T,
    ) -> T {
        let mut cache = self.resolved.lock().expect("quota resolutions");
        let current = cache.get(&connection).is_some_and(|r| {
            Arc::ptr_eq(&r.quotas, &image.quotas)
                && r.user == client.user
                && r.client_id == client.client_id
        });
        if !current {
            let resolve = |key| image.quotas.resolve(&client.user, &client.client_id, key);
            cache.insert(
                connection,
                Resolution {
                    quotas: image.quotas.clone(),
                    user: client.user.clone(),
                    client_id: client.client_id.clone(),
                    keys: [
                        resolve(PRODUCER_BYTE_RATE),
                        resolve(CONSUMER_BYTE_RATE),
                        resolve(REQUEST_PERCENTAGE),
                    ],
                },
            );
        }
        f(&cache[&connection].keys)
    }

    /// Forgets what was resolved for `connection` (it closed).
    pub fn forget(&self, connection: u64) {
        self.resolved
            .lock()
            .expect("quota resolutions")
            .remove(&connection);
    }

    /// The `max_bytes` a consumer's Fetch may ask for under its byte-rate quota: one second's
    /// worth (at least one byte; KIP-74 still returns a first batch larger than that).
    pub fn fetch_cap(
        &self,
        image: &MetadataImage,
        connection: u64,
        client: &Client,
    ) -> Option<i32> {
        self.with_resolution(image, connection, client, |keys| {
            let q = keys[1].as_ref()?;
            Some(q.value.clamp(1.0, f64::from(i32::MAX)) as i32)
        })
    }

    /// The throttle time the answered request earns the client on `connection`: the largest
    /// of what its Produce bytes, its consumer Fetch bytes and its handling time (`busy`)
    /// cost against the quotas the image gives it, at `now_ms` (the broker clock's monotonic
    /// time).
    #[allow(clippy::too_many_arguments)]
    pub fn throttle_ms(
        &self,
        image: &MetadataImage,
        connection: u64,
        client: &Client,
        api: ApiKey,
        request_bytes: usize,
        response: Option<&ResponseBody>,
        follower: bool,
        busy: Duration,
        now: i64,
    ) -> i64 {
        self.with_resolution(image, connection, client, |[produce, fetch, request]| {
            let mut throttle = 0;
            let record = |m: &ClientQuotaManager, q: &Resolved, value: f64| {
                m.record(&q.user, &q.client_id, q.value, value, now)
            };
            if let (ApiKey::Produce, Some(q)) = (api, produce) {
                throttle = throttle.max(record(&self.produce, q, request_bytes as f64));
            }
            if let (ApiKey::Fetch, false, Some(q), Some(r)) = (api, follower, fetch, response) {
                throttle = throttle.max(record(&self.fetch, q, fetched_bytes(r) as f64));
            }
            if let (false, false, Some(q)) = (exempt(api), follower, request) {
                // Percent of one thread, over a second: busy seconds times 100.
                throttle = throttle.max(record(&self.request, q, busy.as_secs_f64() * 100.0));
            }
            throttle
        })
    }
}

/// Sets `throttle_ms` on the reply's response (kept if it already carries a longer one, as a
/// forwarded request's controller quota may); a reply still being worked out gets it when it
/// is ready.
pub fn throttled(reply: Reply, throttle_ms: i64) -> Reply {
    if throttle_ms <= 0 {
        return reply;
    }
    let ms = i32::try_from(throttle_ms).unwrap_or(i32::MAX);
    match reply {
        Reply::Respond(mut body) => {
            let ms = ms.max(body.throttle_time_ms());
            body.set_throttle_time_ms(ms);
            Reply::Respond(body)
        }
        // Known now, before the answer: the connection is muted from now, so the Produce
        // requests pipelined behind this one wait it out (Kafka reads nothing more from a
        // throttled channel); a produce with acks=0 is muted the same way.
        Reply::Later(f) => Reply::Muting(
            std::time::Duration::from_millis(throttle_ms.unsigned_abs()),
            Box::new(Reply::Later(Box::pin(async move {
                throttled(f.await, throttle_ms)
            }))),
        ),
        Reply::Nothing => Reply::Muting(
            std::time::Duration::from_millis(throttle_ms.unsigned_abs()),
            Box::new(Reply::Nothing),
        ),
        other => other,
    }
}

/// Runs `f` and also gives the time its polls took (the time its work held an async worker),
/// without moving it to the heap.
pub async fn timed<F: Future>(f: F) -> (F::Output, Duration) {
    let mut f = std::pin::pin!(f);
    let mut busy = Duration::ZERO;
    let out = std::future::poll_fn(|cx: &mut Context<'_>| {
        let started = Instant::now();
        let polled = f.as_mut().poll(cx);
        busy += started.elapsed();
        polled
    })
    .await;
    (out, busy)
}

#[cfg(test)]
mod tests {
    use super::*;
    use fjord_protocol::generated::client_quota_record::{ClientQuotaRecord, EntityData};
    use fjord_protocol::MetadataRecord;

    /// The monotonic time the tests' requests are answered at.
    const NOW: i64 = 1 << 32;

    fn image_with(key: &str, value: f64) -> MetadataImage {
        let record = MetadataRecord::ClientQuota(ClientQuotaRecord {
            entity: vec![EntityData {
                entity_type: "client-id".into(),
                entity_name: Some("slow".into()),
                ..Default::default()
            }],
            key: key.into(),
            value,
            ..Default::default()
        });
        MetadataImage::empty().apply([&record], 0, 1).unwrap().0
    }

    fn client(id: &str) -> Client {
        Client {
            user: "ANONYMOUS".into(),
            client_id: id.into(),
        }
    }

    #[test]
    fn produce_bytes_past_the_bound_earn_a_throttle_only_for_that_client() {
        let q = BrokerQuotas::default();
        let image = image_with(PRODUCER_BYTE_RATE, 1_000.0);
        let t = |c: &str, bytes| {
            q.throttle_ms(
                &image,
                1,
                &client(c),
                ApiKey::Produce,
                bytes,
                None,
                false,
                Duration::ZERO,
                NOW,
            )
        };
        assert_eq!(t("slow", 1_000), 0);
        assert!(t("slow", 1_000) > 0);
        assert_eq!(t("other", 1_000_000), 0);
        // A Metadata request costs nothing against a byte rate.
        let m = q.throttle_ms(
            &image,
            1,
            &client("slow"),
            ApiKey::Metadata,
            10,
            None,
            false,
            Duration::ZERO,
            NOW,
        );
        assert_eq!(m, 0);
    }

    #[test]
    fn request_time_counts_against_request_percentage_except_for_handshakes() {
        let q = BrokerQuotas::default();
        let image = image_with(REQUEST_PERCENTAGE, 1.0);
        let busy = Duration::from_millis(50);
        let t = |api| q.throttle_ms(&image, 1, &client("slow"), api, 0, None, false, busy, NOW);
        // 1% of a thread is 10 ms a second: 50 ms earns a wait.
        assert!(t(ApiKey::Metadata) > 0);
        assert_eq!(t(ApiKey::ApiVersions), 0);
        let follower = q.throttle_ms(
            &image,
            1,
            &client("slow"),
            ApiKey::Fetch,
            0,
            None,
            true,
            busy,
            NOW,
        );
        assert_eq!(follower, 0);
    }

    #[test]
    fn a_throttle_is_set_on_the_response_and_a_longer_one_kept() {
        use fjord_protocol::generated::metadata_response::MetadataResponse;
        let reply = throttled(
            Reply::Respond(ResponseBody::Metadata(MetadataResponse::default())),
            40,
        );
        let Reply::Respond(body) = reply else {
            panic!()
        };
        assert_eq!(body.throttle_time_ms(), 40);
        let Reply::Respond(body) = throttled(Reply::Respond(body), 10) else {
            panic!()
        };
        assert_eq!(body.throttle_time_ms(), 40);
    }

    #[tokio::test]
    async fn a_reply_still_committing_mutes_the_connection_now_and_carries_the_throttle() {
        use fjord_protocol::generated::produce_response::ProduceResponse;
        let later = Reply::Later(Box::pin(async {
            Reply::Respond(ResponseBody::Produce(ProduceResponse::default()))
        }));
        let Reply::Muting(mute, inner) = throttled(later, 70) else {
            panic!("a committing Produce's throttle must mute the connection at once")
        };
        assert_eq!(mute, std::time::Duration::from_millis(70));
        let Reply::Later(answer) = *inner else {
            panic!()
        };
        let Reply::Respond(body) = answer.await else {
            panic!()
        };
        assert_eq!(body.throttle_time_ms(), 70);
        let Reply::Muting(mute, inner) = throttled(Reply::Nothing, 5) else {
            panic!("an acks=0 Produce over its quota is muted too")
        };
        assert_eq!(mute, std::time::Duration::from_millis(5));
        assert!(matches!(*inner, Reply::Nothing));
    }
}
