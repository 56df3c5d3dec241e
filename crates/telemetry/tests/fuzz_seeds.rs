//! Writes the seed corpus of the `telemetry_payload` fuzz target (`fuzz/corpus/`): an OTLP
//! payload a client sends, under each compression type. Ignored in a plain `cargo test`;
//! `.ci/run` runs it before fuzzing.

use fjord_protocol::records::compression::{compress, Compression};
use fjord_telemetry::otlp::{
    AnyValue, Gauge, KeyValue, Metric, MetricsData, NumberDataPoint, ResourceMetrics, ScopeMetrics,
    Sum, DELTA,
};
use prost::Message;

fn payload() -> Vec<u8> {
    let point = |v: f64| NumberDataPoint {
        attributes: vec![KeyValue {
            key: "node_id".into(),
            value: Some(AnyValue {
                int_value: Some(1),
                ..Default::default()
            }),
        }],
        as_double: Some(v),
        ..Default::default()
    };
    MetricsData {
        resource_metrics: vec![ResourceMetrics {
            resource: None,
            scope_metrics: vec![ScopeMetrics {
                metrics: vec![
                    Metric {
                        name: "org.apache.kafka.producer.node.request.latency.avg".into(),
                        gauge: Some(Gauge {
                            data_points: vec![point(2.5)],
                        }),
                        ..Default::default()
                    },
                    Metric {
                        name: "org.apache.kafka.producer.record.send.total".into(),
                        sum: Some(Sum {
                            data_points: vec![point(7.0)],
                            aggregation_temporality: DELTA,
                            is_monotonic: true,
                        }),
                        ..Default::default()
                    },
                ],
            }],
        }],
    }
    .encode_to_vec()
}

#[test]
#[ignore = "writes fuzz/corpus; .ci/run runs it before fuzzing"]
fn write_fuzz_seeds() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../fuzz/corpus/telemetry_payload");
    std::fs::create_dir_all(&dir).unwrap();
    for codec in Compression::ALL {
        let mut seed = vec![codec.id()];
        seed.extend(compress(codec, &payload()).unwrap());
        std::fs::write(dir.join(codec.name()), seed).unwrap();
    }
    // The fuzzer adds inputs of its own to the directory: every seed is there.
    for codec in Compression::ALL {
        assert!(dir.join(codec.name()).is_file(), "{}", codec.name());
    }
}
