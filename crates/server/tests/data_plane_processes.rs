//! The data plane's first slice against real librdkafka on a real node: a producer writes to
//! three-partition topics with acks=all, uncompressed and with gzip, snappy and zstd, and a
//! consumer reads every message back, in order per partition, to the end of each partition
//! (empty record sets, not null, at the end).

mod common;

use common::{free_port, Node};
use rdkafka::config::ClientConfig;
use rdkafka::consumer::{BaseConsumer, Consumer};
use rdkafka::message::Message;
use rdkafka::producer::{FutureProducer, FutureRecord};
use rdkafka::{Offset, TopicPartitionList};
use std::collections::BTreeMap;
use std::time::{Duration, Instant};

/// Messages produced in the test.
const MESSAGES: usize = 10_000;
/// The topic's partitions.
const PARTITIONS: i32 = 3;

#[test]
fn librdkafka_produces_and_consumes_every_message_in_order() {
    let root = tempfile::tempdir().unwrap();
    let ports = (0, free_port());
    let quorum = format!("controller.quorum.bootstrap.servers=127.0.0.1:{}", ports.1);
    let mut node = Node::combined(root.path(), 1, ports, &quorum, "num.partitions=3");
    node.format(&common::random_uuid(), &["--standalone"]);
    node.start();
    let bootstrap = node.broker_addr();
    round_trip(&node, &bootstrap, "events", "none", MESSAGES);
    // Compressed batches are stored as sent and read back by the consumer.
    for codec in ["gzip", "snappy", "zstd"] {
        round_trip(
            &node,
            &bootstrap,
            &format!("events-{codec}"),
            codec,
            MESSAGES / 5,
        );
    }
}

/// Produces `messages` to `topic` (auto-created, three partitions) with `codec` and acks=all,
/// then consumes them all back, checking offsets, order and that nothing repeats.
fn round_trip(node: &Node, bootstrap: &str, topic: &str, codec: &str, messages: usize) {
    let runtime = tokio::runtime::Runtime::new().unwrap();
    let producer: FutureProducer = ClientConfig::new()
        .set("bootstrap.servers", bootstrap)
        .set("compression.codec", codec)
        .set("acks", "all")
        .set("linger.ms", "5")
        .set("message.timeout.ms", "30000")
        .create()
        .unwrap();
    // The first send creates the topic (auto-creation with num.partitions=3).
    let sent: Vec<(i32, i64)> = runtime.block_on(async {
        let mut out = Vec::with_capacity(messages);
        let mut pending = Vec::with_capacity(messages);
        for i in 0..messages {
            let key = format!("k{}", i % 97);
            let value = format!("v{i}");
            let record = FutureRecord::to(topic)
                .key(&key)
                .payload(&value)
                .partition((i % PARTITIONS as usize) as i32);
            // Enqueued (copied) at once; the future resolves on delivery.
            pending.push(producer.send_result(record).map_err(|(e, _)| e).unwrap());
        }
        for p in pending {
            let d = p
                .await
                .expect("delivery reported")
                .unwrap_or_else(|(e, _)| panic!("produce failed: {e}\n{}", node.log_tail()));
            out.push((d.partition, d.offset));
        }
        out
    });
    assert_eq!(sent.len(), messages);
    // Offsets per partition are 0..n, each acknowledged once.
    let mut per_partition: BTreeMap<i32, Vec<i64>> = BTreeMap::new();
    for (p, o) in &sent {
        per_partition.entry(*p).or_default().push(*o);
    }
    for offsets in per_partition.values_mut() {
        offsets.sort_unstable();
        let expected: Vec<i64> = (0..offsets.len() as i64).collect();
        assert_eq!(*offsets, expected);
    }
    let consumer: BaseConsumer = ClientConfig::new()
        .set("bootstrap.servers", bootstrap)
        .set("group.id", "fjord-test")
        .set("enable.auto.commit", "false")
        .set("enable.partition.eof", "true")
        .create()
        .unwrap();
    let mut tpl = TopicPartitionList::new();
    for p in 0..PARTITIONS {
        tpl.add_partition_offset(topic, p, Offset::Beginning)
            .unwrap();
    }
    consumer.assign(&tpl).unwrap();
    let mut got: BTreeMap<i32, Vec<String>> = BTreeMap::new();
    let mut at_end = std::collections::BTreeSet::new();
    let deadline = Instant::now() + Duration::from_secs(60);
    while at_end.len() < PARTITIONS as usize {
        let consumed: usize = got.values().map(Vec::len).sum();
        assert!(
            Instant::now() < deadline,
            "{topic}: consumed {consumed} of {messages}"
        );
        match consumer.poll(Duration::from_millis(500)) {
            Some(Ok(m)) => {
                let v = String::from_utf8(m.payload().unwrap().to_vec()).unwrap();
                got.entry(m.partition()).or_default().push(v);
            }
            Some(Err(rdkafka::error::KafkaError::PartitionEOF(p)))
                if got.get(&p).map_or(0, Vec::len) == per_partition[&p].len() =>
            {
                at_end.insert(p);
            }
            Some(Err(rdkafka::error::KafkaError::PartitionEOF(_))) => {}
            Some(Err(e)) => panic!("consume failed: {e}\n{}", node.log_tail()),
            None => {}
        }
    }
    // Every message exactly once, in produce order within its partition.
    for (p, values) in &got {
        let expected: Vec<String> = (0..messages)
            .filter(|i| (i % PARTITIONS as usize) as i32 == *p)
            .map(|i| format!("v{i}"))
            .collect();
        assert_eq!(values, &expected, "{topic} partition {p}");
    }
    assert_eq!(got.values().map(Vec::len).sum::<usize>(), messages);
}
