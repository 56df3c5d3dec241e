//! Client telemetry (KIP-714) over the wire, for the tests that compare fjord with Kafka 4.4
//! and the ones that run real clients: a client's OTLP payload, a subscription, and the
//! sequence of requests with bad input, each answered on one connection that must stay open.

use super::differential::CALL_TIMEOUT;
use fjord_net::client::Client;
use fjord_protocol::generated::get_telemetry_subscriptions_request::GetTelemetrySubscriptionsRequest;
use fjord_protocol::generated::push_telemetry_request::PushTelemetryRequest;
use fjord_protocol::Uuid;
use fjord_protocol::{RequestBody, ResponseBody};
use fjord_telemetry::otlp::{
    AnyValue, Gauge, KeyValue, Metric, MetricsData, NumberDataPoint, ResourceMetrics, ScopeMetrics,
};
use prost::Message;

/// The `telemetry.max.bytes` both systems run with in the comparison.
pub const MAX_BYTES: usize = 4096;

/// An OTLP payload of one producer gauge with a `node_id` attribute.
pub fn payload(value: f64) -> Vec<u8> {
    MetricsData {
        resource_metrics: vec![ResourceMetrics {
            resource: None,
            scope_metrics: vec![ScopeMetrics {
                metrics: vec![Metric {
                    name: "org.apache.kafka.producer.node.request.latency.avg".into(),
                    gauge: Some(Gauge {
                        data_points: vec![NumberDataPoint {
                            attributes: vec![KeyValue {
                                key: "node_id".into(),
                                value: Some(AnyValue {
                                    string_value: Some("1".into()),
                                    ..Default::default()
                                }),
                            }],
                            as_double: Some(value),
                            ..Default::default()
                        }],
                    }),
                    ..Default::default()
                }],
            }],
        }],
    }
    .encode_to_vec()
}

/// IncrementalAlterConfigs SET of client metrics subscription `name` (applied, not validated).
pub fn subscribe(name: &str, configs: &[(&str, &str)]) -> RequestBody {
    super::differential::set_configs(16, name, configs, false)
}

/// GetTelemetrySubscriptions for `id` (nil: a new client).
pub fn get(id: Uuid) -> RequestBody {
    RequestBody::GetTelemetrySubscriptions(GetTelemetrySubscriptionsRequest {
        client_instance_id: id,
        ..Default::default()
    })
}

/// PushTelemetry.
pub fn push(id: Uuid, subscription: i32, compression: i8, metrics: Vec<u8>) -> RequestBody {
    RequestBody::PushTelemetry(PushTelemetryRequest {
        client_instance_id: id,
        subscription_id: subscription,
        compression_type: compression,
        metrics: metrics.into(),
        ..Default::default()
    })
}

/// A new instance's id and subscription id, from a GetTelemetrySubscriptions on `c`.
async fn fresh(c: &Client) -> Result<(Uuid, i32), String> {
    match c.call(get(Uuid::nil()), 0, CALL_TIMEOUT).await {
        Ok(ResponseBody::GetTelemetrySubscriptions(r)) => {
            Ok((r.client_instance_id, r.subscription_id))
        }
        other => Err(format!("{other:?}")),
    }
}

/// One push variant: (name, what to send given the fresh instance's id and subscription id).
type Variant = (&'static str, fn(Uuid, i32) -> RequestBody);

/// The sequence both systems are asked, on one connection: each variant after a
/// GetTelemetrySubscriptions of its own (so the push-interval throttle never decides it), then
/// the throttle itself and a push after a terminating one. Returns (name, answer) pairs;
/// an answer is the response's Debug text, or how the call failed.
pub async fn sequence(addr: &str) -> Vec<(String, String)> {
    let variants: [Variant; 8] = [
        ("a push with no payload", |id, sub| {
            push(id, sub, 0, Vec::new())
        }),
        ("a push of an OTLP payload", |id, sub| {
            push(id, sub, 0, payload(2.5))
        }),
        ("a gzip push", |id, sub| {
            let gz = fjord_protocol::records::compression::compress(
                fjord_protocol::records::compression::Compression::Gzip,
                &payload(1.0),
            )
            .unwrap();
            push(id, sub, 1, gz)
        }),
        ("a push with an unknown subscription id", |id, sub| {
            push(id, sub.wrapping_add(1), 0, payload(1.0))
        }),
        ("a push with compression type 9", |id, sub| {
            push(id, sub, 9, payload(1.0))
        }),
        ("a push larger than telemetry.max.bytes", |id, sub| {
            push(id, sub, 0, vec![0x0a; MAX_BYTES + 1])
        }),
        ("a push of a payload that is not OTLP", |id, sub| {
            push(id, sub, 0, vec![0xff; 16])
        }),
        ("a push naming the zero instance id", |_, sub| {
            push(Uuid::nil(), sub, 0, Vec::new())
        }),
    ];
    let mut out = Vec::new();
    let c = match Client::connect(addr, CALL_TIMEOUT).await {
        Ok(c) => c,
        Err(e) => return vec![("connect".into(), e.to_string())],
    };
    let answer = |r: Result<ResponseBody, fjord_net::client::CallError>| match r {
        Ok(r) => format!("{r:?}"),
        Err(e) => format!("no answer: {}", super::differential::kind(&e.to_string())),
    };
    for (name, make) in variants {
        let (id, sub) = match fresh(&c).await {
            Ok(x) => x,
            Err(e) => {
                out.push((name.to_string(), format!("no subscription: {e}")));
                continue;
            }
        };
        out.push((
            name.to_string(),
            answer(c.call(make(id, sub), 0, CALL_TIMEOUT).await),
        ));
    }
    // Asking again at once is throttled; a push after a terminating one is refused.
    if let Ok((id, sub)) = fresh(&c).await {
        out.push((
            "a second GetTelemetrySubscriptions at once".into(),
            answer(c.call(get(id), 0, CALL_TIMEOUT).await),
        ));
        let mut last = PushTelemetryRequest {
            client_instance_id: id,
            subscription_id: sub,
            terminating: true,
            ..Default::default()
        };
        out.push((
            "a terminating push".into(),
            answer(
                c.call(RequestBody::PushTelemetry(last.clone()), 0, CALL_TIMEOUT)
                    .await,
            ),
        ));
        last.terminating = false;
        out.push((
            "a push after a terminating one".into(),
            answer(
                c.call(RequestBody::PushTelemetry(last), 0, CALL_TIMEOUT)
                    .await,
            ),
        ));
    }
    out
}
