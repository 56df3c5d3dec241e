//! Client telemetry (KIP-714) on a real node: librdkafka (the rdkafka crate) pushes its
//! metrics under a client-metrics subscription and they appear on `/metrics` with the
//! client's labels; the series stay within `metrics.client.max.series`; and every bad push
//! gets Kafka's error code on a connection that stays open (the differential test checks the
//! same sequence against Kafka 4.4).

mod common;

use common::telemetry::{sequence, subscribe, MAX_BYTES};
use common::{call, free_port, metrics_text, wait_for, Node};
use fjord_protocol::ResponseBody;
use std::time::Duration;

/// A node with its metrics endpoint on a port of its own and `extra` settings.
fn node(root: &std::path::Path, extra: &str) -> (Node, u16) {
    let port = free_port();
    let node = Node::single(
        root,
        0,
        &format!(
            "metrics.listener=http://127.0.0.1:{port}\ntelemetry.max.bytes={MAX_BYTES}\n{extra}"
        ),
    );
    (node, port)
}

/// Subscribes every librdkafka client to `prefix` metrics every 500 ms.
fn subscribe_librdkafka(rt: &tokio::runtime::Runtime, addr: &str, prefix: &str) {
    let done = wait_for(Duration::from_secs(30), || {
        let r = rt.block_on(call(
            addr,
            subscribe(
                "rdkafka",
                &[
                    ("metrics", prefix),
                    ("interval.ms", "500"),
                    ("match", "client_software_name=librdkafka"),
                ],
            ),
            1,
        ));
        match r {
            Some(ResponseBody::IncrementalAlterConfigs(r)) => {
                r.responses.iter().all(|x| x.error_code == 0).then_some(())
            }
            _ => None,
        }
    });
    assert!(done.is_some(), "the subscription was never stored");
}

/// A librdkafka producer named `client_id` that has sent a few records to `topic`.
fn producer(
    rt: &tokio::runtime::Runtime,
    bootstrap: &str,
    client_id: &str,
) -> rdkafka::producer::FutureProducer {
    use rdkafka::producer::{FutureProducer, FutureRecord};
    let p: FutureProducer = rdkafka::config::ClientConfig::new()
        .set("bootstrap.servers", bootstrap)
        .set("client.id", client_id)
        .set("enable.metrics.push", "true")
        .create()
        .unwrap();
    rt.block_on(async {
        for i in 0..5 {
            let v = format!("v{i}");
            p.send(
                FutureRecord::<str, _>::to("telemetry").payload(&v),
                Duration::from_secs(30),
            )
            .await
            .map_err(|(e, _)| e)
            .expect("acknowledged");
        }
    });
    p
}

/// The value of the unlabelled series `name` in a scrape.
fn value(text: &str, name: &str) -> Option<f64> {
    text.lines()
        .find_map(|l| l.strip_prefix(&format!("{name} ")))
        .and_then(|v| v.trim().parse().ok())
}

#[test]
fn librdkafka_pushes_its_metrics_to_the_metrics_endpoint() {
    let rt = tokio::runtime::Runtime::new().unwrap();
    let root = tempfile::tempdir().unwrap();
    let (node, port) = node(root.path(), "auto.create.topics.enable=true");
    let addr = node.broker_addr();
    subscribe_librdkafka(&rt, &addr, "org.apache.kafka.producer.");
    let _producer = producer(&rt, &addr, "rd-telemetry");
    let labels = "client_id=\"rd-telemetry\"";
    let found = wait_for(Duration::from_secs(60), || {
        let text = metrics_text(port);
        text.lines()
            .find(|l| {
                l.starts_with("kafka_client_producer_")
                    && l.contains(labels)
                    && l.contains("client_software_name=\"librdkafka\"")
                    && l.contains("principal=\"User:ANONYMOUS\"")
                    && l.contains("client_instance_id=\"")
            })
            .map(str::to_string)
    });
    assert!(
        found.is_some(),
        "no pushed librdkafka series on /metrics:\n{}",
        node.log_tail()
    );
    // Kafka's client-metrics group: the instance, and its stored pushes.
    let text = metrics_text(port);
    assert!(value(&text, "kafka_server_client_metrics_instance_count").unwrap() >= 1.0);
    assert!(text.lines().any(|l| l
        .starts_with("kafka_server_client_metrics_plugin_export_count{")
        && !l.ends_with(" 0.0")));
    // Only subscribed metrics are kept: no consumer series from a producer's push.
    assert!(!text
        .lines()
        .any(|l| l.starts_with("kafka_client_consumer_")));
}

#[test]
fn the_series_stay_within_their_bound() {
    let rt = tokio::runtime::Runtime::new().unwrap();
    let root = tempfile::tempdir().unwrap();
    let (node, port) = node(
        root.path(),
        "auto.create.topics.enable=true\nmetrics.client.max.series=3",
    );
    let addr = node.broker_addr();
    subscribe_librdkafka(&rt, &addr, "org.apache.kafka.");
    let _producer = producer(&rt, &addr, "rd-bounded");
    let dropped = wait_for(Duration::from_secs(60), || {
        let text = metrics_text(port);
        let kept = value(&text, "fjord_client_telemetry_series")?;
        let dropped = value(&text, "fjord_client_telemetry_dropped_points")?;
        (dropped > 0.0).then_some((kept, text))
    });
    let Some((kept, text)) = dropped else {
        panic!("nothing was ever dropped:\n{}", node.log_tail())
    };
    assert_eq!(kept, 3.0);
    let pushed = text
        .lines()
        .filter(|l| l.starts_with("kafka_client_"))
        .count();
    assert_eq!(pushed, 3, "{text}");
}

#[test]
fn every_bad_push_gets_kafkas_error_on_a_connection_that_stays_open() {
    let rt = tokio::runtime::Runtime::new().unwrap();
    let root = tempfile::tempdir().unwrap();
    let (node, _) = node(root.path(), "");
    let addr = node.broker_addr();
    let up = wait_for(Duration::from_secs(30), || {
        rt.block_on(call(&addr, common::api_versions_request(), 3))
    });
    assert!(up.is_some(), "{}", node.log_tail());
    let answers = rt.block_on(sequence(&addr));
    // Kafka 4.4's codes (the differential test compares the whole answers with Kafka's).
    let expected = [
        ("a push with no payload", 0),
        ("a push of an OTLP payload", 0),
        ("a gzip push", 0),
        ("a push with an unknown subscription id", 117),
        ("a push with compression type 9", 76),
        ("a push larger than telemetry.max.bytes", 118),
        ("a push of a payload that is not OTLP", 87),
        ("a push naming the zero instance id", 42),
        ("a second GetTelemetrySubscriptions at once", 89),
        ("a terminating push", 0),
        ("a push after a terminating one", 42),
    ];
    assert_eq!(answers.len(), expected.len(), "{answers:?}");
    for ((name, answer), (want_name, code)) in answers.iter().zip(expected) {
        assert_eq!(name, want_name);
        assert!(
            answer.contains(&format!("error_code: {code},")),
            "{name}: {answer}"
        );
    }
}
