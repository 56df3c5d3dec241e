//! KIP-427's examples on real processes, read from `GET /metrics` (parsed with the
//! `prometheus-parse` crate): a controller-only node and three brokers; topics with
//! replication factor 3 led by broker 1 and `min.insync.replicas` 2, 1 and 5 (whose effective
//! min ISR is 3). Stopping brokers 3, then 2, moves each partition's AtMinIsr and UnderMinIsr as
//! the KIP says; stopping broker 1 too leaves every partition offline, which the controller
//! reports; a follower reports each hosted partition's series at 0, as Kafka's gauges do.

mod common;

use common::{call, controller_and_brokers, create_on_brokers_1_2_3, wait_for, FAST_REPLICATION};
use fjord_protocol::generated::produce_request as pq;
use fjord_protocol::RequestBody;
use std::collections::BTreeMap;
use std::io::{Read, Write};
use std::time::Duration;

/// Topic name and `min.insync.replicas`.
const TOPICS: [(&str, &str); 3] = [("min2", "2"), ("min1", "1"), ("min5", "5")];

/// The samples of one scrape: (name, sorted labels) -> value.
type Scrape = BTreeMap<(String, Vec<(String, String)>), f64>;

fn scrape(port: u16) -> Option<Scrape> {
    let mut s = std::net::TcpStream::connect(("127.0.0.1", port)).ok()?;
    s.set_read_timeout(Some(Duration::from_secs(5))).ok()?;
    s.write_all(b"GET /metrics HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
        .ok()?;
    let mut text = String::new();
    s.read_to_string(&mut text).ok()?;
    let (head, body) = text.split_once("\r\n\r\n")?;
    if !head.starts_with("HTTP/1.1 200") {
        return None;
    }
    let lines = body.lines().map(|l| Ok(l.to_string()));
    let parsed = prometheus_parse::Scrape::parse(lines).expect("the metrics text parses");
    Some(
        parsed
            .samples
            .into_iter()
            .map(|s| {
                let mut labels: Vec<(String, String)> = s
                    .labels
                    .iter()
                    .map(|(k, v)| (k.clone(), v.clone()))
                    .collect();
                labels.sort();
                let v = match s.value {
                    prometheus_parse::Value::Counter(v)
                    | prometheus_parse::Value::Gauge(v)
                    | prometheus_parse::Value::Untyped(v) => v,
                    _ => f64::NAN,
                };
                ((s.metric, labels), v)
            })
            .collect(),
    )
}

/// A partition series' value (`None` when the broker does not report it).
fn partition_value(s: &Scrape, name: &str, topic: &str) -> Option<f64> {
    let labels = vec![
        ("partition".to_string(), "0".to_string()),
        ("topic".to_string(), topic.to_string()),
    ];
    s.get(&(name.to_string(), labels)).copied()
}

fn value(s: &Scrape, name: &str) -> Option<f64> {
    s.get(&(name.to_string(), Vec::new())).copied()
}

/// (AtMinIsr, UnderMinIsr) of each topic's partition as broker 1 reports them.
fn at_under(s: &Scrape) -> Vec<(Option<f64>, Option<f64>)> {
    TOPICS
        .iter()
        .map(|(t, _)| {
            (
                partition_value(s, "kafka_cluster_partition_atminisr", t),
                partition_value(s, "kafka_cluster_partition_underminisr", t),
            )
        })
        .collect()
}

#[test]
fn at_min_isr_and_under_min_isr_follow_kip_427_examples() {
    let root = tempfile::tempdir().unwrap();
    let rt = tokio::runtime::Runtime::new().unwrap();
    let (controller, mut brokers) = controller_and_brokers(root.path(), 3, FAST_REPLICATION);
    let addr = brokers[0].broker_addr();
    let topics: Vec<(&str, [(&str, &str); 1])> = TOPICS
        .iter()
        .map(|(name, min)| (*name, [("min.insync.replicas", *min)]))
        .collect();
    let topics: Vec<(&str, &[(&str, &str)])> = topics.iter().map(|(n, c)| (*n, &c[..])).collect();
    let created = create_on_brokers_1_2_3(&rt, &addr, &topics);
    assert!(created, "{}", controller.log_tail());
    let leader = brokers[0].metrics_port;
    let expect = |what: &str, want: Vec<(Option<f64>, Option<f64>)>| {
        let got = wait_for(Duration::from_secs(60), || {
            scrape(leader).filter(|s| at_under(s) == want)
        });
        assert!(
            got.is_some(),
            "{what}: want {want:?}, got {:?}",
            scrape(leader).map(|s| at_under(&s))
        );
        got.unwrap()
    };
    let (on, off) = (Some(1.0), Some(0.0));
    // All three in sync: only the topic whose min ISR exceeds its replication factor is at
    // its effective min ISR (3).
    let all = expect("three in sync", vec![(off, off), (off, off), (on, off)]);
    assert_eq!(
        value(&all, "kafka_server_replicamanager_leadercount"),
        Some(3.0)
    );
    assert_eq!(
        value(&all, "kafka_server_replicamanager_atminisrpartitioncount"),
        Some(1.0)
    );
    // Requests are counted per API on the listener that answered them.
    let created = all
        .iter()
        .find(|((name, labels), _)| {
            name.starts_with("kafka_network_requestmetrics_requests")
                && labels.contains(&("request".to_string(), "CreateTopics".to_string()))
        })
        .map(|(_, v)| *v);
    assert!(
        created.is_some_and(|n| n >= 1.0),
        "CreateTopics counted: {created:?}"
    );
    // A produce sent to a follower: NOT_LEADER_OR_FOLLOWER per partition, counted by name.
    let produce = RequestBody::Produce(pq::ProduceRequest {
        acks: 1,
        timeout_ms: 5_000,
        topic_data: vec![pq::TopicProduceData {
            name: "min2".into(),
            partition_data: vec![pq::PartitionProduceData {
                index: 0,
                records: Some(Default::default()),
                ..Default::default()
            }],
            ..Default::default()
        }],
        ..Default::default()
    });
    assert!(rt
        .block_on(call(&brokers[1].broker_addr(), produce, 9))
        .is_some());
    let refused = wait_for(Duration::from_secs(10), || {
        scrape(brokers[1].metrics_port)?
            .iter()
            .find(|((name, labels), _)| {
                name.starts_with("kafka_network_requestmetrics_errors")
                    && labels.contains(&("error".to_string(), "NOT_LEADER_OR_FOLLOWER".to_string()))
                    && labels.contains(&("request".to_string(), "Produce".to_string()))
            })
            .map(|(_, v)| *v)
    });
    assert!(
        refused.is_some_and(|n| n >= 1.0),
        "per-partition errors counted: {refused:?}"
    );
    // Followers report every hosted partition's series at 0, as Kafka's gauges read on a
    // follower, even for the topic whose leader is at its min ISR.
    let follower = scrape(brokers[1].metrics_port).expect("broker 2 scrapes");
    assert_eq!(at_under(&follower), vec![(off, off); 3]);
    for (t, _) in TOPICS {
        for name in [
            "kafka_cluster_partition_underreplicated",
            "kafka_cluster_partition_insyncreplicascount",
        ] {
            assert_eq!(partition_value(&follower, name, t), off, "{name} {t}");
        }
        assert!(partition_value(&follower, "kafka_log_log_logendoffset", t).is_some());
    }
    assert_eq!(
        value(
            &follower,
            "kafka_server_replicamanager_atminisrpartitioncount"
        ),
        off
    );
    assert_eq!(
        value(&follower, "kafka_server_replicamanager_partitioncount"),
        Some(3.0)
    );

    brokers[2].kill();
    let one_down = expect("broker 3 down", vec![(on, off), (off, off), (off, on)]);
    assert_eq!(
        value(
            &one_down,
            "kafka_server_replicamanager_atminisrpartitioncount"
        ),
        Some(1.0)
    );
    assert_eq!(
        value(
            &one_down,
            "kafka_server_replicamanager_underminisrpartitioncount"
        ),
        Some(1.0)
    );
    assert_eq!(
        value(
            &one_down,
            "kafka_server_replicamanager_underreplicatedpartitions"
        ),
        Some(3.0)
    );

    brokers[1].kill();
    expect(
        "brokers 2 and 3 down",
        vec![(off, on), (on, off), (off, on)],
    );

    brokers[0].kill();
    let offline = wait_for(Duration::from_secs(60), || {
        scrape(controller.metrics_port).filter(|s| {
            value(s, "kafka_controller_kafkacontroller_offlinepartitionscount") == Some(3.0)
        })
    });
    assert!(
        offline.is_some(),
        "the controller reports three offline partitions"
    );
    let c = offline.unwrap();
    assert_eq!(
        value(&c, "kafka_controller_kafkacontroller_activecontrollercount"),
        Some(1.0)
    );
    assert_eq!(
        value(&c, "kafka_controller_kafkacontroller_fencedbrokercount"),
        Some(3.0)
    );
}
