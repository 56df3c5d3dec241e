//! Replication under faults on real processes: three combined nodes, a topic with
//! replication factor 3 and `min.insync.replicas=2`, an idempotent acks=all librdkafka producer
//! writing the whole time while nodes are SIGKILLed and restarted, one at a time, chosen at
//! random (a fixed seed, printed), 30 times. Afterwards every acknowledged message is consumed
//! exactly once, in order per partition, and the three replicas of every partition hold
//! byte-identical logs.

mod common;

use common::{combined_cluster, create_replicated_topic, replicas_identical, wait_for, Node};
use rdkafka::config::ClientConfig;
use rdkafka::consumer::{BaseConsumer, Consumer};
use rdkafka::message::Message;
use rdkafka::producer::{FutureProducer, FutureRecord};
use rdkafka::{Offset, TopicPartitionList};
use std::collections::BTreeMap;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

const TOPIC: &str = "faults";
const PARTITIONS: i32 = 3;
/// SIGKILLs in the run.
const KILLS: usize = 30;
/// The seed of the kill order.
const SEED: u64 = 0x5eed_0030;

fn isr_sizes(consumer: &BaseConsumer) -> Option<Vec<usize>> {
    let md = consumer
        .fetch_metadata(Some(TOPIC), Duration::from_secs(3))
        .ok()?;
    let t = md.topics().first()?;
    (t.partitions().len() == PARTITIONS as usize)
        .then(|| t.partitions().iter().map(|p| p.isr().len()).collect())
}

#[test]
fn thirty_sigkills_lose_no_acknowledged_message() {
    let root = tempfile::tempdir().unwrap();
    let mut nodes = combined_cluster(
        root.path(),
        3,
        "replica.lag.time.max.ms=2000\nreplica.fetch.wait.max.ms=100\n\
         broker.session.timeout.ms=3000\nbroker.heartbeat.interval.ms=500",
    );
    let bootstrap = nodes
        .iter()
        .map(Node::broker_addr)
        .collect::<Vec<_>>()
        .join(",");
    let created = create_replicated_topic(
        &bootstrap,
        TOPIC,
        PARTITIONS,
        &[("min.insync.replicas", "2")],
    );
    assert!(created, "{}", nodes[0].log_tail());
    let consumer: BaseConsumer = ClientConfig::new()
        .set("bootstrap.servers", &bootstrap)
        .set("group.id", "faults-test")
        .set("enable.auto.commit", "false")
        .create()
        .unwrap();
    let full = || isr_sizes(&consumer).filter(|s| s.iter().all(|n| *n == 3));
    assert!(wait_for(Duration::from_secs(60), full).is_some());

    // The producer runs the whole time; acknowledged values are kept per partition.
    let stop = Arc::new(AtomicBool::new(false));
    let acked_count = Arc::new(AtomicUsize::new(0));
    let acked: Arc<Mutex<BTreeMap<i32, Vec<usize>>>> = Arc::default();
    let writer = {
        let (stop, acked_count, acked, bootstrap) = (
            stop.clone(),
            acked_count.clone(),
            acked.clone(),
            bootstrap.clone(),
        );
        std::thread::spawn(move || {
            let rt = tokio::runtime::Runtime::new().unwrap();
            let producer: FutureProducer = ClientConfig::new()
                .set("bootstrap.servers", &bootstrap)
                .set("acks", "all")
                .set("enable.idempotence", "true")
                .set("linger.ms", "5")
                .set("message.timeout.ms", "600000")
                .create()
                .unwrap();
            rt.block_on(async {
                let mut i = 0usize;
                let mut failed = 0usize;
                while !stop.load(Ordering::SeqCst) {
                    let mut pending = Vec::new();
                    for _ in 0..100 {
                        let value = format!("{i}");
                        let p = (i % PARTITIONS as usize) as i32;
                        let record = FutureRecord::to(TOPIC)
                            .key("k")
                            .payload(&value)
                            .partition(p);
                        pending.push((
                            i,
                            p,
                            producer.send_result(record).map_err(|(e, _)| e).unwrap(),
                        ));
                        i += 1;
                    }
                    for (value, p, f) in pending {
                        match f.await {
                            Ok(Ok(_)) => {
                                acked.lock().unwrap().entry(p).or_default().push(value);
                                acked_count.fetch_add(1, Ordering::SeqCst);
                            }
                            _ => failed += 1,
                        }
                    }
                }
                failed
            })
        })
    };

    let mut rng = SEED;
    let started = Instant::now();
    for kill in 0..KILLS {
        rng = rng
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        let victim = (rng >> 33) as usize % 3;
        nodes[victim].kill();
        // Writes go on with two in-sync replicas.
        let before = acked_count.load(Ordering::SeqCst);
        let progressed = wait_for(Duration::from_secs(90), || {
            (acked_count.load(Ordering::SeqCst) >= before + 300).then_some(())
        });
        assert!(
            progressed.is_some(),
            "kill {kill} (node {}): no progress with two nodes; ISR sizes {:?}\n{}",
            victim + 1,
            isr_sizes(&consumer),
            nodes
                .iter()
                .map(|n| format!("--- node {}\n{}", n.id, n.log_tail()))
                .collect::<Vec<_>>()
                .join("\n")
        );
        nodes[victim].start();
        let back = wait_for(Duration::from_secs(90), full);
        assert!(
            back.is_some(),
            "kill {kill} (node {}): not back in every ISR: {:?}\n{}",
            victim + 1,
            isr_sizes(&consumer),
            nodes[victim].log_tail()
        );
    }
    eprintln!("{KILLS} kills in {:?} (seed {SEED:#x})", started.elapsed());
    stop.store(true, Ordering::SeqCst);
    let failed = writer.join().expect("the producer thread");
    assert_eq!(failed, 0, "deliveries failed");

    // Every acknowledged message exactly once, in order per partition.
    let acked = acked.lock().unwrap().clone();
    let total: usize = acked.values().map(Vec::len).sum();
    let mut tpl = TopicPartitionList::new();
    for p in 0..PARTITIONS {
        tpl.add_partition_offset(TOPIC, p, Offset::Beginning)
            .unwrap();
    }
    consumer.assign(&tpl).unwrap();
    let mut got: BTreeMap<i32, Vec<usize>> = BTreeMap::new();
    let deadline = Instant::now() + Duration::from_secs(120);
    while got.values().map(Vec::len).sum::<usize>() < total && Instant::now() < deadline {
        if let Some(Ok(m)) = consumer.poll(Duration::from_millis(500)) {
            let v: usize = std::str::from_utf8(m.payload().unwrap())
                .unwrap()
                .parse()
                .unwrap();
            got.entry(m.partition()).or_default().push(v);
        }
    }
    for (p, values) in &acked {
        let mut sorted = values.clone();
        sorted.sort_unstable();
        assert_eq!(
            got.get(p),
            Some(&sorted),
            "partition {p}: acknowledged vs consumed"
        );
    }

    // The replicas of every partition hold the same bytes.
    for p in 0..PARTITIONS {
        assert!(
            replicas_identical(&nodes, TOPIC, p),
            "partition {p}: replicas differ"
        );
    }
}
