//! The PushTelemetry payload: OpenTelemetry's `MetricsData` (metrics/v1) protobuf, decoded
//! with prost from the few messages a Kafka client sends (gauges and sums of number points,
//! with attributes). Everything else a payload may carry (histograms, summaries, exemplars,
//! array and map attribute values) is skipped as unknown fields, so decoding never recurses
//! and allocates at most in proportion to the payload.

use prost::Message;

/// The top-level message of a push.
#[derive(Clone, PartialEq, Message)]
pub struct MetricsData {
    /// Metrics by the resource (the client) that produced them.
    #[prost(message, repeated, tag = "1")]
    pub resource_metrics: Vec<ResourceMetrics>,
}

/// One resource's metrics.
#[derive(Clone, PartialEq, Message)]
pub struct ResourceMetrics {
    /// The resource.
    #[prost(message, optional, tag = "1")]
    pub resource: Option<Resource>,
    /// Its metrics, by instrumentation scope.
    #[prost(message, repeated, tag = "2")]
    pub scope_metrics: Vec<ScopeMetrics>,
}

/// The entity that produced the metrics.
#[derive(Clone, PartialEq, Message)]
pub struct Resource {
    /// Its attributes.
    #[prost(message, repeated, tag = "1")]
    pub attributes: Vec<KeyValue>,
}

/// One instrumentation scope's metrics.
#[derive(Clone, PartialEq, Message)]
pub struct ScopeMetrics {
    /// The metrics.
    #[prost(message, repeated, tag = "2")]
    pub metrics: Vec<Metric>,
}

/// One metric: a name and its points.
#[derive(Clone, PartialEq, Message)]
pub struct Metric {
    /// Its name (`org.apache.kafka.producer.record.send.rate`, ...).
    #[prost(string, tag = "1")]
    pub name: String,
    /// Its description.
    #[prost(string, tag = "2")]
    pub description: String,
    /// A gauge's points (field 5).
    #[prost(message, optional, tag = "5")]
    pub gauge: Option<Gauge>,
    /// A sum's points (field 7).
    #[prost(message, optional, tag = "7")]
    pub sum: Option<Sum>,
}

/// A gauge: the last value of each point.
#[derive(Clone, PartialEq, Message)]
pub struct Gauge {
    /// Its points.
    #[prost(message, repeated, tag = "1")]
    pub data_points: Vec<NumberDataPoint>,
}

/// A sum: a counter (monotonic) or an up-down counter.
#[derive(Clone, PartialEq, Message)]
pub struct Sum {
    /// Its points.
    #[prost(message, repeated, tag = "1")]
    pub data_points: Vec<NumberDataPoint>,
    /// 1: each point is the change since the last push; 2: the total since the start.
    #[prost(int32, tag = "2")]
    pub aggregation_temporality: i32,
    /// Whether it only grows.
    #[prost(bool, tag = "3")]
    pub is_monotonic: bool,
}

/// DELTA aggregation temporality.
pub const DELTA: i32 = 1;

/// One point of a gauge or a sum.
#[derive(Clone, PartialEq, Message)]
pub struct NumberDataPoint {
    /// Its attributes (the metric's tags: `node_id`, `topic`, ...).
    #[prost(message, repeated, tag = "7")]
    pub attributes: Vec<KeyValue>,
    /// When it was measured.
    #[prost(fixed64, tag = "3")]
    pub time_unix_nano: u64,
    /// A floating-point value.
    #[prost(double, optional, tag = "4")]
    pub as_double: Option<f64>,
    /// An integer value.
    #[prost(sfixed64, optional, tag = "6")]
    pub as_int: Option<i64>,
}

impl NumberDataPoint {
    /// Its value, whichever way it was sent (0 when it carries none).
    pub fn value(&self) -> f64 {
        match (self.as_double, self.as_int) {
            (Some(d), _) => d,
            (None, Some(i)) => i as f64,
            (None, None) => 0.0,
        }
    }
}

/// An attribute.
#[derive(Clone, PartialEq, Message)]
pub struct KeyValue {
    /// Its name.
    #[prost(string, tag = "1")]
    pub key: String,
    /// Its value.
    #[prost(message, optional, tag = "2")]
    pub value: Option<AnyValue>,
}

/// An attribute's value (the scalar kinds; arrays and maps are skipped).
#[derive(Clone, PartialEq, Message)]
pub struct AnyValue {
    /// A string.
    #[prost(string, optional, tag = "1")]
    pub string_value: Option<String>,
    /// A boolean.
    #[prost(bool, optional, tag = "2")]
    pub bool_value: Option<bool>,
    /// An integer.
    #[prost(int64, optional, tag = "3")]
    pub int_value: Option<i64>,
    /// A floating-point number.
    #[prost(double, optional, tag = "4")]
    pub double_value: Option<f64>,
}

impl AnyValue {
    /// The value as a label's text.
    pub fn text(&self) -> String {
        if let Some(s) = &self.string_value {
            return s.clone();
        }
        if let Some(b) = self.bool_value {
            return b.to_string();
        }
        if let Some(i) = self.int_value {
            return i.to_string();
        }
        self.double_value.map(|d| d.to_string()).unwrap_or_default()
    }
}

/// Why a payload is not a `MetricsData`.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("the telemetry payload is not an OTLP MetricsData message: {0}")]
pub struct PayloadError(pub String);

/// Decodes an (already decompressed) payload.
pub fn decode(payload: &[u8]) -> Result<MetricsData, PayloadError> {
    MetricsData::decode(payload).map_err(|e| PayloadError(e.to_string()))
}

/// A payload as a client builds it: one producer gauge, one producer delta counter and one
/// consumer gauge (for tests).
#[cfg(test)]
pub(crate) fn tests_payload() -> MetricsData {
    let attr = |k: &str, v: &str| KeyValue {
        key: k.into(),
        value: Some(AnyValue {
            string_value: Some(v.into()),
            ..Default::default()
        }),
    };
    MetricsData {
        resource_metrics: vec![ResourceMetrics {
            resource: Some(Resource {
                attributes: vec![attr("client_rack", "r1")],
            }),
            scope_metrics: vec![ScopeMetrics {
                metrics: vec![
                    Metric {
                        name: "org.apache.kafka.producer.node.request.latency.avg".into(),
                        gauge: Some(Gauge {
                            data_points: vec![NumberDataPoint {
                                attributes: vec![attr("node_id", "1")],
                                as_double: Some(2.5),
                                ..Default::default()
                            }],
                        }),
                        ..Default::default()
                    },
                    Metric {
                        name: "org.apache.kafka.producer.record.send.total".into(),
                        sum: Some(Sum {
                            data_points: vec![NumberDataPoint {
                                as_int: Some(7),
                                ..Default::default()
                            }],
                            aggregation_temporality: DELTA,
                            is_monotonic: true,
                        }),
                        ..Default::default()
                    },
                    Metric {
                        name: "org.apache.kafka.consumer.fetch.total".into(),
                        gauge: Some(Gauge {
                            data_points: vec![NumberDataPoint {
                                as_int: Some(1),
                                ..Default::default()
                            }],
                        }),
                        ..Default::default()
                    },
                ],
            }],
        }],
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> MetricsData {
        tests_payload()
    }

    #[test]
    fn a_clients_payload_round_trips() {
        let data = sample();
        let bytes = data.encode_to_vec();
        assert_eq!(decode(&bytes).unwrap(), data);
    }

    #[test]
    fn garbage_is_refused_not_panicked_on() {
        assert!(decode(&[0xff, 0xff, 0xff]).is_err());
        // A length prefix far beyond the payload.
        assert!(decode(&[0x0a, 0xff, 0xff, 0xff, 0x0f]).is_err());
        // Unknown fields (a histogram, field 9) are skipped.
        let mut bytes = sample().encode_to_vec();
        bytes.extend_from_slice(&[0x4a, 0x00]);
        assert!(decode(&bytes).is_ok());
    }
}
