//! Transactions with librdkafka (the `rdkafka` crate) on real 3-node clusters: commit and
//! abort seen through both isolation levels, a consume-transform-produce loop with
//! send_offsets_to_transaction, fencing by a second producer of the same transactional id;
//! the coordinator of a transaction SIGKILLed mid-transaction (the transaction still commits
//! and nothing hangs); and the exactly-once fault test: a consume-transform-produce loop under
//! 20 SIGKILLs of random nodes, after which every input record is in the output exactly once
//! for a read_committed reader.

mod common;

use common::{combined_cluster, wait_brokers_unfenced, wait_for, Node, FAST_REPLICATION};
use fjord_protocol::generated::find_coordinator_request::FindCoordinatorRequest;
use fjord_protocol::{RequestBody, ResponseBody};
use rdkafka::config::ClientConfig;
use rdkafka::consumer::{BaseConsumer, Consumer};
use rdkafka::error::KafkaError;
use rdkafka::message::Message;
use rdkafka::producer::{BaseRecord, DefaultProducerContext, Producer, ThreadedProducer};
use rdkafka::{Offset, TopicPartitionList};
use std::collections::BTreeMap;
use std::time::{Duration, Instant};

type TxnProducer = ThreadedProducer<DefaultProducerContext>;

/// The settings of the clusters here: replication reacts in seconds, timed-out transactions
/// are looked for every second, the internal topics are replicated three times.
fn settings() -> String {
    format!(
        "{FAST_REPLICATION}\nmin.insync.replicas=2\ngroup.initial.rebalance.delay.ms=0\n\
         transaction.abort.timed.out.transaction.cleanup.interval.ms=1000\n\
         offsets.topic.num.partitions=6\ntransaction.state.log.num.partitions=6"
    )
}

fn bootstrap(nodes: &[Node]) -> String {
    nodes
        .iter()
        .map(Node::broker_addr)
        .collect::<Vec<_>>()
        .join(",")
}

/// A transactional producer, initialized (asking again while the cluster is not ready).
fn txn_producer(bootstrap: &str, id: &str, extra: &[(&str, &str)]) -> TxnProducer {
    let made = wait_for(Duration::from_secs(90), || {
        let mut c = ClientConfig::new();
        c.set("bootstrap.servers", bootstrap)
            .set("transactional.id", id)
            .set("message.timeout.ms", "60000");
        for (k, v) in extra {
            c.set(*k, *v);
        }
        let p: TxnProducer = c.create().ok()?;
        p.init_transactions(Duration::from_secs(30)).ok()?;
        Some(p)
    });
    made.expect("a transactional producer initialized")
}

/// Sends one record, waiting while the queue is full.
fn send(p: &TxnProducer, topic: &str, partition: i32, value: &str) {
    let mut record = BaseRecord::<(), str>::to(topic).payload(value).partition(partition);
    loop {
        match p.send(record) {
            Ok(()) => return,
            Err((_, r)) => {
                record = r;
                std::thread::sleep(Duration::from_millis(5));
            }
        }
    }
}

/// Every value of `topic` (its `partitions`) read from the start with `isolation`, until
/// `expected` arrived or nothing came for a while.
fn read_all(bootstrap: &str, topic: &str, partitions: i32, isolation: &str, expected: usize) -> Vec<String> {
    let consumer: BaseConsumer = ClientConfig::new()
        .set("bootstrap.servers", bootstrap)
        .set("group.id", format!("reader-{topic}-{isolation}"))
        .set("isolation.level", isolation)
        .set("enable.auto.commit", "false")
        .create()
        .unwrap();
    let mut tpl = TopicPartitionList::new();
    for p in 0..partitions {
        tpl.add_partition_offset(topic, p, Offset::Beginning).unwrap();
    }
    consumer.assign(&tpl).unwrap();
    let mut got = Vec::new();
    let deadline = Instant::now() + Duration::from_secs(60);
    let mut idle = 0;
    while got.len() < expected && Instant::now() < deadline {
        match consumer.poll(Duration::from_millis(500)) {
            Some(Ok(m)) => {
                idle = 0;
                got.push(String::from_utf8(m.payload().unwrap_or_default().to_vec()).unwrap());
            }
            _ => idle += 1,
        }
        // Enough when nothing more arrives for 5 s past what was expected.
        if got.len() >= expected && idle > 10 {
            break;
        }
    }
    // A little longer, to see anything beyond what was expected.
    let until = Instant::now() + Duration::from_secs(2);
    while Instant::now() < until {
        if let Some(Ok(m)) = consumer.poll(Duration::from_millis(200)) {
            got.push(String::from_utf8(m.payload().unwrap_or_default().to_vec()).unwrap());
        }
    }
    got
}

/// Creates a topic of `partitions` replicated on all three nodes.
fn topic(bootstrap: &str, name: &str, partitions: i32) {
    assert!(
        common::create_replicated_topic(bootstrap, name, partitions, &[]),
        "creating {name}"
    );
}

/// The node coordinating transactional id `id`, as `addr` answers FindCoordinator.
fn coordinator_of(rt: &tokio::runtime::Runtime, addr: &str, id: &str) -> Option<i32> {
    let request = RequestBody::FindCoordinator(FindCoordinatorRequest {
        key: id.into(),
        key_type: 1,
        ..Default::default()
    });
    match rt.block_on(common::call(addr, request, 3))? {
        ResponseBody::FindCoordinator(r) if r.error_code == 0 => Some(r.node_id),
        _ => None,
    }
}

fn runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap()
}

#[test]
fn commit_abort_offsets_and_fencing_on_three_nodes() {
    let root = tempfile::tempdir().unwrap();
    let nodes = combined_cluster(root.path(), 3, &settings());
    let bs = bootstrap(&nodes);
    wait_brokers_unfenced(&bs, &[1, 2, 3]);
    topic(&bs, "tx", 3);

    // Commit, abort, commit.
    let p = txn_producer(&bs, "rust-tx", &[]);
    p.begin_transaction().unwrap();
    for i in 0..90 {
        send(&p, "tx", i % 3, &format!("c{i}"));
    }
    p.commit_transaction(Duration::from_secs(30)).unwrap();
    p.begin_transaction().unwrap();
    for i in 0..30 {
        send(&p, "tx", i % 3, &format!("a{i}"));
    }
    p.flush(Duration::from_secs(30)).unwrap();
    p.abort_transaction(Duration::from_secs(30)).unwrap();
    p.begin_transaction().unwrap();
    send(&p, "tx", 0, "last");
    p.commit_transaction(Duration::from_secs(30)).unwrap();
    let committed = read_all(&bs, "tx", 3, "read_committed", 91);
    assert_eq!(committed.len(), 91, "{committed:?}");
    assert!(!committed.iter().any(|v| v.starts_with('a')));
    let everything = read_all(&bs, "tx", 3, "read_uncommitted", 121);
    assert_eq!(everything.len(), 121);

    // Consume-transform-produce: the output holds each input once and the group's offsets
    // move with the transactions.
    topic(&bs, "ctp-out", 3);
    let consumer: BaseConsumer = ClientConfig::new()
        .set("bootstrap.servers", &bs)
        .set("group.id", "rust-ctp")
        .set("isolation.level", "read_committed")
        .set("enable.auto.commit", "false")
        .set("auto.offset.reset", "earliest")
        .create()
        .unwrap();
    consumer.subscribe(&["tx"]).unwrap();
    let ctp = txn_producer(&bs, "rust-ctp", &[]);
    let mut done = 0;
    let deadline = Instant::now() + Duration::from_secs(90);
    while done < 91 && Instant::now() < deadline {
        let Some(Ok(m)) = consumer.poll(Duration::from_millis(500)) else {
            continue;
        };
        ctp.begin_transaction().unwrap();
        let v = String::from_utf8(m.payload().unwrap().to_vec()).unwrap();
        send(&ctp, "ctp-out", m.partition(), &format!("out-{v}"));
        let mut offsets = TopicPartitionList::new();
        offsets
            .add_partition_offset("tx", m.partition(), Offset::Offset(m.offset() + 1))
            .unwrap();
        ctp.send_offsets_to_transaction(
            &offsets,
            &consumer.group_metadata().unwrap(),
            Duration::from_secs(30),
        )
        .unwrap();
        ctp.commit_transaction(Duration::from_secs(30)).unwrap();
        done += 1;
    }
    assert_eq!(done, 91);
    let committed_offsets = consumer.committed(Duration::from_secs(10)).unwrap();
    let total: i64 = committed_offsets
        .elements()
        .iter()
        .filter_map(|e| match e.offset() {
            Offset::Offset(o) => Some(o),
            _ => None,
        })
        .sum();
    // Each partition's committed offset is past its last committed record (aborted records
    // and markers count as offsets too).
    assert!(total >= 91, "{committed_offsets:?}");
    let out = read_all(&bs, "ctp-out", 3, "read_committed", 91);
    let mut sorted = out.clone();
    sorted.sort();
    sorted.dedup();
    assert_eq!((out.len(), sorted.len()), (91, 91));

    // A second producer of the same id fences the first.
    let first = txn_producer(&bs, "rust-fence", &[]);
    first.begin_transaction().unwrap();
    send(&first, "tx", 1, "zombie");
    first.flush(Duration::from_secs(30)).unwrap();
    let second = txn_producer(&bs, "rust-fence", &[]);
    second.begin_transaction().unwrap();
    send(&second, "tx", 1, "winner");
    second.commit_transaction(Duration::from_secs(30)).unwrap();
    send(&first, "tx", 1, "zombie-2");
    let refused = first.commit_transaction(Duration::from_secs(30));
    assert!(refused.is_err(), "the fenced producer committed");
    let values = read_all(&bs, "tx", 3, "read_committed", 92);
    assert!(values.contains(&"winner".to_string()));
    assert!(!values.iter().any(|v| v.starts_with("zombie")), "{values:?}");
}

#[test]
fn a_coordinator_killed_mid_transaction_does_not_leave_it_hanging() {
    let root = tempfile::tempdir().unwrap();
    let mut nodes = combined_cluster(root.path(), 3, &settings());
    let bs = bootstrap(&nodes);
    wait_brokers_unfenced(&bs, &[1, 2, 3]);
    topic(&bs, "mid", 3);
    let rt = runtime();
    let p = txn_producer(&bs, "mid-tx", &[("transaction.timeout.ms", "60000")]);
    p.begin_transaction().unwrap();
    for i in 0..60 {
        send(&p, "mid", i % 3, &format!("m{i}"));
    }
    p.flush(Duration::from_secs(30)).unwrap();
    let coordinator = wait_for(Duration::from_secs(30), || {
        coordinator_of(&rt, &nodes[0].broker_addr(), "mid-tx")
    })
    .expect("a coordinator");
    let victim = nodes
        .iter_mut()
        .find(|n| n.id == coordinator)
        .expect("the coordinator is a node");
    victim.kill();
    // The producer finds the new coordinator (another replica of the transaction's
    // partition) and commits.
    let committed = wait_for(Duration::from_secs(60), || {
        p.commit_transaction(Duration::from_secs(10)).ok()
    });
    assert!(committed.is_some(), "the commit never went through");
    let others: Vec<String> = nodes
        .iter()
        .filter(|n| n.id != coordinator)
        .map(Node::broker_addr)
        .collect();
    let survivors = others.join(",");
    let values = read_all(&survivors, "mid", 3, "read_committed", 60);
    assert_eq!(values.len(), 60, "{values:?}");
    // Nothing hangs: the next transaction commits and is read.
    p.begin_transaction().unwrap();
    send(&p, "mid", 0, "after");
    p.commit_transaction(Duration::from_secs(30)).unwrap();
    let values = read_all(&survivors, "mid", 3, "read_committed", 61);
    assert!(values.contains(&"after".to_string()), "{values:?}");
    // The killed node comes back and serves the same.
    nodes
        .iter_mut()
        .find(|n| n.id == coordinator)
        .unwrap()
        .start();
    wait_brokers_unfenced(&bs, &[1, 2, 3]);
    let values = read_all(&bs, "mid", 3, "read_committed", 61);
    assert_eq!(values.len(), 61);
}

/// What the consume-transform-produce worker of the fault test does with an error.
fn recover(e: &KafkaError) -> &'static str {
    match e {
        KafkaError::Transaction(t) if t.is_fatal() => "fatal",
        KafkaError::Transaction(t) if t.txn_requires_abort() => "abort",
        KafkaError::Transaction(t) if t.is_retriable() => "retry",
        _ => "abort",
    }
}

/// Rewinds the consumer to its group's committed offsets (the start where none).
fn rewind(consumer: &BaseConsumer, topic: &str, partitions: i32) -> bool {
    let Ok(committed) = consumer.committed(Duration::from_secs(10)) else {
        return false;
    };
    for p in 0..partitions {
        let at = committed
            .find_partition(topic, p)
            .map(|e| e.offset())
            .and_then(|o| match o {
                Offset::Offset(o) => Some(o),
                _ => None,
            })
            .unwrap_or(0);
        if consumer
            .seek(topic, p, Offset::Offset(at), Duration::from_secs(10))
            .is_err()
        {
            return false;
        }
    }
    true
}

#[test]
fn exactly_once_under_twenty_sigkills() {
    const INPUTS: usize = 3000;
    const PARTITIONS: i32 = 3;
    let root = tempfile::tempdir().unwrap();
    let mut nodes = combined_cluster(root.path(), 3, &settings());
    let bs = bootstrap(&nodes);
    wait_brokers_unfenced(&bs, &[1, 2, 3]);
    topic(&bs, "eos-in", PARTITIONS);
    topic(&bs, "eos-out", PARTITIONS);
    {
        let p: ThreadedProducer<DefaultProducerContext> = ClientConfig::new()
            .set("bootstrap.servers", &bs)
            .set("enable.idempotence", "true")
            .set("acks", "all")
            .create()
            .unwrap();
        for i in 0..INPUTS {
            send(&p, "eos-in", i as i32 % PARTITIONS, &format!("{i}"));
        }
        p.flush(Duration::from_secs(60)).unwrap();
    }
    let stop = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    let worker = {
        let (bs, stop) = (bs.clone(), stop.clone());
        std::thread::spawn(move || {
            let consumer: BaseConsumer = ClientConfig::new()
                .set("bootstrap.servers", &bs)
                .set("group.id", "eos")
                .set("isolation.level", "read_committed")
                .set("enable.auto.commit", "false")
                .set("auto.offset.reset", "earliest")
                .create()
                .unwrap();
            let mut tpl = TopicPartitionList::new();
            for p in 0..PARTITIONS {
                tpl.add_partition(&"eos-in", p);
            }
            consumer.assign(&tpl).unwrap();
            while !rewind(&consumer, "eos-in", PARTITIONS) {
                std::thread::sleep(Duration::from_millis(500));
            }
            let mut producer = txn_producer(&bs, "eos-worker", &[("transaction.timeout.ms", "10000")]);
            let mut recoveries = BTreeMap::new();
            while !stop.load(std::sync::atomic::Ordering::SeqCst) {
                let mut batch = Vec::new();
                let until = Instant::now() + Duration::from_millis(300);
                while batch.len() < 100 && Instant::now() < until {
                    if let Some(Ok(m)) = consumer.poll(Duration::from_millis(50)) {
                        let v = String::from_utf8(m.payload().unwrap().to_vec()).unwrap();
                        batch.push((m.partition(), m.offset(), v));
                    }
                }
                if batch.is_empty() {
                    continue;
                }
                let attempt = (|| {
                    producer.begin_transaction()?;
                    let mut offsets = TopicPartitionList::new();
                    for (p, o, v) in &batch {
                        send(&producer, "eos-out", *p, &format!("out-{v}"));
                        offsets.add_partition_offset("eos-in", *p, Offset::Offset(o + 1))?;
                    }
                    let metadata = consumer
                        .group_metadata()
                        .ok_or(KafkaError::NoMessageReceived)?;
                    producer.send_offsets_to_transaction(&offsets, &metadata, Duration::from_secs(30))?;
                    loop {
                        match producer.commit_transaction(Duration::from_secs(30)) {
                            Err(e) if recover(&e) == "retry" => continue,
                            other => return other,
                        }
                    }
                })();
                let Err(e) = attempt else { continue };
                let what = recover(&e);
                *recoveries.entry(what).or_insert(0) += 1;
                if what == "fatal" {
                    drop(producer);
                    producer = txn_producer(&bs, "eos-worker", &[("transaction.timeout.ms", "10000")]);
                } else {
                    let aborted = wait_for(Duration::from_secs(60), || {
                        producer.abort_transaction(Duration::from_secs(10)).ok()
                    });
                    if aborted.is_none() {
                        drop(producer);
                        producer = txn_producer(&bs, "eos-worker", &[("transaction.timeout.ms", "10000")]);
                    }
                }
                while !rewind(&consumer, "eos-in", PARTITIONS) {
                    std::thread::sleep(Duration::from_millis(500));
                }
            }
            recoveries
        })
    };
    // Twenty SIGKILLs of random nodes, each restarted before the next.
    let mut seed: u64 = 0x5eed_0f_e05;
    let mut rand = move || {
        seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        (seed >> 33) as usize
    };
    for _ in 0..20 {
        std::thread::sleep(Duration::from_millis(500 + (rand() % 2500) as u64));
        let i = rand() % nodes.len();
        nodes[i].kill();
        std::thread::sleep(Duration::from_millis(500));
        nodes[i].start();
        wait_brokers_unfenced(&bs, &[1, 2, 3]);
    }
    // Then the worker finishes the input.
    let all_committed = wait_for(Duration::from_secs(180), || {
        let c: BaseConsumer = ClientConfig::new()
            .set("bootstrap.servers", &bs)
            .set("group.id", "eos")
            .create()
            .ok()?;
        let mut tpl = TopicPartitionList::new();
        for p in 0..PARTITIONS {
            tpl.add_partition("eos-in", p);
        }
        let committed = c.committed_offsets(tpl, Duration::from_secs(10)).ok()?;
        let ends: i64 = (0..PARTITIONS)
            .map(|p| {
                c.fetch_watermarks("eos-in", p, Duration::from_secs(10))
                    .map_or(i64::MAX, |(_, high)| high)
            })
            .sum();
        let at: i64 = committed
            .elements()
            .iter()
            .map(|e| match e.offset() {
                Offset::Offset(o) => o,
                _ => 0,
            })
            .sum();
        (at == ends).then_some(())
    });
    stop.store(true, std::sync::atomic::Ordering::SeqCst);
    let recoveries = worker.join().unwrap();
    assert!(all_committed.is_some(), "the input was never all processed ({recoveries:?})");
    let out = read_all(&bs, "eos-out", PARTITIONS, "read_committed", INPUTS);
    let mut counts: BTreeMap<&str, usize> = BTreeMap::new();
    for v in &out {
        *counts.entry(v.as_str()).or_default() += 1;
    }
    let duplicated: Vec<_> = counts.iter().filter(|(_, n)| **n > 1).take(5).collect();
    let missing: Vec<usize> = (0..INPUTS)
        .filter(|i| !counts.contains_key(format!("out-{i}").as_str()))
        .take(5)
        .collect();
    assert!(
        duplicated.is_empty() && missing.is_empty() && out.len() == INPUTS,
        "{} outputs; duplicated {duplicated:?}; missing {missing:?}; recoveries {recoveries:?}",
        out.len()
    );
    eprintln!("exactly once over {INPUTS} records and 20 SIGKILLs; recoveries {recoveries:?}");
}
