//! Replication between real `fjord` processes: three combined nodes, a topic with
//! replication factor 3 and `min.insync.replicas=2`, an idempotent acks=all librdkafka
//! producer. Every acknowledged message is consumed exactly once and in order per partition
//! while a broker is SIGKILLed and comes back; the ISR shrinks without it and takes it back
//! once it has caught up; in the end the three replicas of every partition hold byte-identical
//! logs.

mod common;

use common::{combined_cluster, create_replicated_topic, replicas_identical, wait_for, Node};
use rdkafka::config::ClientConfig;
use rdkafka::consumer::{BaseConsumer, Consumer};
use rdkafka::message::Message;
use rdkafka::producer::{FutureProducer, FutureRecord};
use rdkafka::{Offset, TopicPartitionList};
use std::collections::BTreeMap;
use std::time::{Duration, Instant};

const TOPIC: &str = "replicated";
const PARTITIONS: i32 = 3;

/// Each partition's ISR, as Metadata at `consumer` reports it.
fn isrs(consumer: &BaseConsumer) -> Option<BTreeMap<i32, (i32, Vec<i32>)>> {
    let md = consumer
        .fetch_metadata(Some(TOPIC), Duration::from_secs(5))
        .ok()?;
    let t = md.topics().first()?;
    (t.partitions().len() == PARTITIONS as usize).then(|| {
        t.partitions()
            .iter()
            .map(|p| {
                let mut isr = p.isr().to_vec();
                isr.sort_unstable();
                (p.id(), (p.leader(), isr))
            })
            .collect()
    })
}

/// Produces `values` (message i to partition i % 3) with acks=all and idempotence; panics on
/// any failed delivery.
fn produce(
    producer: &FutureProducer,
    rt: &tokio::runtime::Runtime,
    values: std::ops::Range<usize>,
    nodes: &[Node],
) {
    rt.block_on(async {
        let mut pending = Vec::new();
        for i in values {
            let value = format!("v{i}");
            let record = FutureRecord::to(TOPIC)
                .key("k")
                .payload(&value)
                .partition((i % PARTITIONS as usize) as i32);
            pending.push(producer.send_result(record).map_err(|(e, _)| e).unwrap());
        }
        for p in pending {
            if let Err((e, _)) = p.await.expect("delivery reported") {
                let logs: Vec<String> = nodes.iter().map(Node::log_tail).collect();
                panic!("produce failed: {e}\n{}", logs.join("\n---\n"));
            }
        }
    });
}

#[test]
fn acks_all_survives_a_killed_broker_and_replicas_end_byte_identical() {
    let root = tempfile::tempdir().unwrap();
    let mut nodes = combined_cluster(
        root.path(),
        3,
        "replica.lag.time.max.ms=2000\nreplica.fetch.wait.max.ms=100\nbroker.session.timeout.ms=6000",
    );
    let bootstrap = nodes
        .iter()
        .map(Node::broker_addr)
        .collect::<Vec<_>>()
        .join(",");
    let consumer: BaseConsumer = ClientConfig::new()
        .set("bootstrap.servers", &bootstrap)
        .set("group.id", "replication-test")
        .set("enable.auto.commit", "false")
        .set("enable.partition.eof", "true")
        .create()
        .unwrap();
    let rt = tokio::runtime::Runtime::new().unwrap();
    let created = create_replicated_topic(
        &bootstrap,
        TOPIC,
        PARTITIONS,
        &[("min.insync.replicas", "2")],
    );
    assert!(created, "the topic is created\n{}", nodes[0].log_tail());
    let full = wait_for(Duration::from_secs(60), || {
        isrs(&consumer).filter(|m| m.values().all(|(l, isr)| *l > 0 && isr == &[1, 2, 3]))
    });
    assert!(full.is_some(), "every partition has three in-sync replicas");

    let producer: FutureProducer = ClientConfig::new()
        .set("bootstrap.servers", &bootstrap)
        .set("acks", "all")
        .set("enable.idempotence", "true")
        .set("linger.ms", "5")
        .set("message.timeout.ms", "120000")
        .create()
        .unwrap();
    produce(&producer, &rt, 0..3_000, &nodes);

    // SIGKILL node 3: writes go on with two in-sync replicas (min ISR 2).
    nodes[2].kill();
    produce(&producer, &rt, 3_000..6_000, &nodes);
    let shrunk = isrs(&consumer).expect("metadata");
    assert!(
        shrunk.values().all(|(_, isr)| !isr.contains(&3)),
        "node 3 left every ISR: {shrunk:?}"
    );

    // It comes back, catches up and rejoins every ISR.
    nodes[2].start();
    let rejoined = wait_for(Duration::from_secs(90), || {
        isrs(&consumer).filter(|m| m.values().all(|(_, isr)| isr == &[1, 2, 3]))
    });
    assert!(
        rejoined.is_some(),
        "node 3 is back in every ISR: {:?}\n{}",
        isrs(&consumer),
        nodes[2].log_tail()
    );
    produce(&producer, &rt, 6_000..7_000, &nodes);

    // Every acknowledged message exactly once, in order per partition.
    let total = 7_000usize;
    let mut tpl = TopicPartitionList::new();
    for p in 0..PARTITIONS {
        tpl.add_partition_offset(TOPIC, p, Offset::Beginning)
            .unwrap();
    }
    consumer.assign(&tpl).unwrap();
    let mut got: BTreeMap<i32, Vec<String>> = BTreeMap::new();
    let deadline = Instant::now() + Duration::from_secs(60);
    while got.values().map(Vec::len).sum::<usize>() < total {
        assert!(
            Instant::now() < deadline,
            "consumed {:?}",
            got.values().map(Vec::len).collect::<Vec<_>>()
        );
        match consumer.poll(Duration::from_millis(500)) {
            Some(Ok(m)) => {
                let v = String::from_utf8(m.payload().unwrap().to_vec()).unwrap();
                got.entry(m.partition()).or_default().push(v);
            }
            // Transient (a connection to the restarted node that broke): librdkafka retries.
            Some(Err(e)) => eprintln!("consumer: {e}"),
            None => {}
        }
    }
    for (p, values) in &got {
        let expected: Vec<String> = (0..total)
            .filter(|i| (i % PARTITIONS as usize) as i32 == *p)
            .map(|i| format!("v{i}"))
            .collect();
        assert_eq!(values, &expected, "partition {p}");
    }

    // The three replicas of every partition hold the same bytes.
    for p in 0..PARTITIONS {
        assert!(
            replicas_identical(&nodes, TOPIC, p),
            "partition {p}: replicas differ"
        );
    }
}
