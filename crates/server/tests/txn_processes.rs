//! Transactions with librdkafka (the `rdkafka` crate) on real 3-node clusters: commit and
//! abort seen through both isolation levels, a consume-transform-produce loop with
//! send_offsets_to_transaction, fencing by a second producer of the same transactional id;
//! the coordinator of a transaction SIGKILLed mid-transaction (the transaction still commits
//! and nothing hangs); and the exactly-once fault test: a consume-transform-produce loop under
//! 20 SIGKILLs of random nodes while input keeps arriving, after which every acknowledged
//! input record is in the output exactly once for a read_committed reader; and hanging
//! transactions: a commit marker lost to an unclean recovery leaves a transaction open on the
//! new leader, `kafka-unclean-recovery` lists it and (with --abort-hanging-transactions)
//! aborts it, `kafka-transactions find-hanging`/`abort` do the same for another partition,
//! and read_committed consumers move on.

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
use std::path::Path;
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
    let mut record = BaseRecord::<(), str>::to(topic)
        .payload(value)
        .partition(partition);
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
fn read_all(
    bootstrap: &str,
    topic: &str,
    partitions: i32,
    isolation: &str,
    expected: usize,
) -> Vec<String> {
    let consumer: BaseConsumer = ClientConfig::new()
        .set("bootstrap.servers", bootstrap)
        .set("group.id", format!("reader-{topic}-{isolation}"))
        .set("isolation.level", isolation)
        .set("enable.auto.commit", "false")
        .create()
        .unwrap();
    let mut tpl = TopicPartitionList::new();
    for p in 0..partitions {
        tpl.add_partition_offset(topic, p, Offset::Beginning)
            .unwrap();
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

/// A consume-transform-produce loop's consumer in `group`: read_committed, offsets committed
/// only through the producer's transactions, from the start where the group has none.
fn ctp_consumer(bootstrap: &str, group: &str) -> BaseConsumer {
    ClientConfig::new()
        .set("bootstrap.servers", bootstrap)
        .set("group.id", group)
        .set("isolation.level", "read_committed")
        .set("enable.auto.commit", "false")
        .set("auto.offset.reset", "earliest")
        .create()
        .unwrap()
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
    find_coordinator(rt, addr, id, 1)
}

/// The coordinator of `key` (FindCoordinator v3, `key_type` 0 for a group, 1 for a
/// transactional id), if `addr` names one.
fn find_coordinator(
    rt: &tokio::runtime::Runtime,
    addr: &str,
    key: &str,
    key_type: i8,
) -> Option<i32> {
    let request = RequestBody::FindCoordinator(FindCoordinatorRequest {
        key: key.into(),
        key_type,
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

    commit_and_abort(&bs);
    consume_transform_produce(&bs);
    a_second_producer_fences_the_first(&bs);
    transactions_tool_lists_describes_and_terminates(&bs);
}

/// A transaction committed, one aborted, one committed: read_committed sees the committed ones.
fn commit_and_abort(bs: &str) {
    // Commit, abort, commit.
    let p = txn_producer(bs, "rust-tx", &[]);
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
    let committed = read_all(bs, "tx", 3, "read_committed", 91);
    assert_eq!(committed.len(), 91, "{committed:?}");
    assert!(!committed.iter().any(|v| v.starts_with('a')));
    let everything = read_all(bs, "tx", 3, "read_uncommitted", 121);
    assert_eq!(everything.len(), 121);
}

/// Consume-transform-produce: each input once in the output, the group's offsets moving with the transactions.
fn consume_transform_produce(bs: &str) {
    // Consume-transform-produce: the output holds each input once and the group's offsets
    // move with the transactions.
    topic(bs, "ctp-out", 3);
    let consumer = ctp_consumer(bs, "rust-ctp");
    consumer.subscribe(&["tx"]).unwrap();
    let ctp = txn_producer(bs, "rust-ctp", &[]);
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
    let out = read_all(bs, "ctp-out", 3, "read_committed", 91);
    let mut sorted = out.clone();
    sorted.sort();
    sorted.dedup();
    assert_eq!((out.len(), sorted.len()), (91, 91));
}

/// A second producer of the same transactional id fences the first; the zombie's writes never show.
fn a_second_producer_fences_the_first(bs: &str) {
    // A second producer of the same id fences the first.
    let first = txn_producer(bs, "rust-fence", &[]);
    first.begin_transaction().unwrap();
    send(&first, "tx", 1, "zombie");
    first.flush(Duration::from_secs(30)).unwrap();
    let second = txn_producer(bs, "rust-fence", &[]);
    second.begin_transaction().unwrap();
    send(&second, "tx", 1, "winner");
    second.commit_transaction(Duration::from_secs(30)).unwrap();
    send(&first, "tx", 1, "zombie-2");
    let refused = first.commit_transaction(Duration::from_secs(30));
    assert!(refused.is_err(), "the fenced producer committed");
    let values = read_all(bs, "tx", 3, "read_committed", 92);
    assert!(values.contains(&"winner".to_string()));
    assert!(
        !values.iter().any(|v| v.starts_with("zombie")),
        "{values:?}"
    );
}

/// `kafka-transactions` list, describe and force-terminate of an open transaction.
fn transactions_tool_lists_describes_and_terminates(bs: &str) {
    // kafka-transactions: list, describe, and force-terminate of an open transaction (its
    // producer is fenced and what it wrote is aborted).
    let listed = tool(&["kafka-transactions", "--bootstrap-server", bs, "list"]);
    assert!(
        listed.starts_with("TransactionalId\tCoordinator\tProducerId\tTransactionState\t"),
        "{listed}"
    );
    for id in ["rust-tx", "rust-ctp", "rust-fence"] {
        assert!(
            listed
                .lines()
                .any(|l| l.split_whitespace().next() == Some(id)),
            "{id} not listed: {listed}"
        );
    }
    let described = tool(&[
        "kafka-transactions",
        "--bootstrap-server",
        bs,
        "describe",
        "--transactional-id",
        "rust-tx",
    ]);
    let row: Vec<&str> = described
        .lines()
        .nth(1)
        .unwrap_or_default()
        .split_whitespace()
        .collect();
    assert_eq!(row.get(1), Some(&"rust-tx"), "{described}");
    assert_eq!(row.get(4), Some(&"CompleteCommit"), "{described}");
    let open = txn_producer(bs, "rust-terminated", &[]);
    open.begin_transaction().unwrap();
    send(&open, "tx", 2, "terminated");
    open.flush(Duration::from_secs(30)).unwrap();
    tool(&[
        "kafka-transactions",
        "--bootstrap-server",
        bs,
        "force-terminate",
        "--transactional-id",
        "rust-terminated",
    ]);
    let described = tool(&[
        "kafka-transactions",
        "--bootstrap-server",
        bs,
        "describe",
        "--transactional-id",
        "rust-terminated",
    ]);
    // Its open transaction was aborted and the id re-initialized at a newer epoch, as
    // InitProducerId leaves it: Empty.
    let row: Vec<&str> = described
        .lines()
        .nth(1)
        .unwrap_or_default()
        .split_whitespace()
        .collect();
    assert_eq!(row.get(4), Some(&"Empty"), "{described}");
    assert!(
        row.get(3).and_then(|e| e.parse::<i32>().ok()) > Some(0),
        "{described}"
    );
    assert!(
        open.commit_transaction(Duration::from_secs(30)).is_err(),
        "the terminated transaction's producer is fenced"
    );
    let values = read_all(bs, "tx", 3, "read_committed", 92);
    assert!(!values.iter().any(|v| v == "terminated"), "{values:?}");
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

/// Whether every partition (internal topics included) has all its replicas in sync, as a
/// running node's Metadata says.
fn all_in_sync(rt: &tokio::runtime::Runtime, nodes: &[Node]) -> Option<()> {
    use fjord_protocol::generated::metadata_request::MetadataRequest;
    let addr = nodes.iter().map(Node::broker_addr).next()?;
    let request = RequestBody::Metadata(MetadataRequest {
        topics: None,
        ..Default::default()
    });
    let ResponseBody::Metadata(m) = rt.block_on(common::call(&addr, request, 12))? else {
        return None;
    };
    let whole = m.topics.iter().all(|t| {
        t.partitions
            .iter()
            .all(|p| p.leader_id >= 0 && p.isr_nodes.len() == p.replica_nodes.len())
    });
    whole.then_some(())
}

/// The partitions whose replicas are not all in sync: (topic, partition, replicas, ISR).
fn out_of_sync(
    rt: &tokio::runtime::Runtime,
    nodes: &[Node],
) -> Vec<(String, i32, Vec<i32>, Vec<i32>)> {
    use fjord_protocol::generated::metadata_request::MetadataRequest;
    let addr = nodes[0].broker_addr();
    let request = RequestBody::Metadata(MetadataRequest {
        topics: None,
        ..Default::default()
    });
    let Some(ResponseBody::Metadata(m)) = rt.block_on(common::call(&addr, request, 12)) else {
        return Vec::new();
    };
    m.topics
        .iter()
        .flat_map(|t| {
            t.partitions
                .iter()
                .filter(|p| p.leader_id < 0 || p.isr_nodes.len() != p.replica_nodes.len())
                .map(|p| {
                    (
                        t.name.clone().unwrap_or_default(),
                        p.partition_index,
                        p.replica_nodes.clone(),
                        p.isr_nodes.clone(),
                    )
                })
        })
        .collect()
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

/// Feeds `eos-in` with `{i}` records (idempotent, acks=all), about 500 a second, until
/// `stop`; returns the inputs that were acknowledged and how many were sent.
fn feed(
    bs: String,
    stop: std::sync::Arc<std::sync::atomic::AtomicBool>,
    partitions: i32,
) -> std::thread::JoinHandle<(Vec<usize>, usize)> {
    use rdkafka::producer::{FutureProducer, FutureRecord};
    std::thread::spawn(move || {
        let rt = runtime();
        let p: FutureProducer = ClientConfig::new()
            .set("bootstrap.servers", &bs)
            .set("enable.idempotence", "true")
            .set("acks", "all")
            .set("message.timeout.ms", "300000")
            .create()
            .unwrap();
        let mut acked = Vec::new();
        let mut sent = 0;
        while !stop.load(std::sync::atomic::Ordering::SeqCst) {
            let mut pending = Vec::new();
            for _ in 0..50 {
                let v = sent.to_string();
                let r = FutureRecord::<(), str>::to("eos-in")
                    .payload(&v)
                    .partition(sent as i32 % partitions);
                if let Ok(f) = p.send_result(r) {
                    pending.push((sent, f));
                    sent += 1;
                }
            }
            for (i, f) in pending {
                if let Ok(Ok(_)) = rt.block_on(f) {
                    acked.push(i);
                }
            }
            std::thread::sleep(Duration::from_millis(100));
        }
        (acked, sent)
    })
}

/// Every acknowledged input of the exactly-once test is in the output once; an input whose
/// send was not acknowledged may be there, but never twice; nothing else is. Returns how many
/// inputs there are.
fn assert_each_input_once(
    bs: &str,
    acked: &[usize],
    sent: usize,
    recoveries: &BTreeMap<&'static str, usize>,
) -> usize {
    // Every acknowledged input is in the output once; an input whose send was not
    // acknowledged may be there, but never twice; nothing else is.
    let input = read_all(bs, "eos-in", PARTITIONS, "read_committed", acked.len());
    let out = read_all(bs, "eos-out", PARTITIONS, "read_committed", input.len());
    let mut counts: BTreeMap<&str, usize> = BTreeMap::new();
    for v in &out {
        *counts.entry(v.as_str()).or_default() += 1;
    }
    let duplicated: Vec<_> = counts.iter().filter(|(_, n)| **n > 1).take(5).collect();
    let missing: Vec<&String> = input
        .iter()
        .filter(|i| !counts.contains_key(format!("out-{i}").as_str()))
        .take(5)
        .collect();
    let lost: Vec<&usize> = acked
        .iter()
        .filter(|i| !counts.contains_key(format!("out-{i}").as_str()))
        .take(5)
        .collect();
    let foreign = out
        .iter()
        .filter(|v| {
            v.strip_prefix("out-")
                .and_then(|n| n.parse::<usize>().ok())
                .is_none_or(|n| n >= sent)
        })
        .count();
    assert!(
        duplicated.is_empty()
            && missing.is_empty()
            && lost.is_empty()
            && foreign == 0
            && out.len() == input.len(),
        "{} inputs ({} acknowledged of {sent} sent), {} outputs; duplicated {duplicated:?}; \
         missing {missing:?}; acknowledged but lost {lost:?}; {foreign} foreign; recoveries \
         {recoveries:?}",
        input.len(),
        acked.len(),
        out.len()
    );
    input.len()
}

/// The partitions of the exactly-once test's topics.
const PARTITIONS: i32 = 3;

/// The exactly-once loop: reads `eos-in` from its committed offsets, writes each record to
/// `eos-out` in a transaction with the offsets, and recovers from every error as an
/// application must (abort and rewind, or a new producer when fatal), until `stop`. Sends how
/// often each recovery happened when it ends.
fn spawn_eos_worker(
    bs: String,
    stop: std::sync::Arc<std::sync::atomic::AtomicBool>,
) -> std::sync::mpsc::Receiver<BTreeMap<&'static str, usize>> {
    let (finished, worker) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let consumer = ctp_consumer(&bs, "eos");
        let mut tpl = TopicPartitionList::new();
        for p in 0..PARTITIONS {
            tpl.add_partition("eos-in", p);
        }
        consumer.assign(&tpl).unwrap();
        while !rewind(&consumer, "eos-in", PARTITIONS) {
            std::thread::sleep(Duration::from_millis(500));
        }
        let new_producer = || {
            // The cluster may be between two SIGKILLs: asked again until it answers.
            loop {
                let made = wait_for(Duration::from_secs(60), || {
                    let p: TxnProducer = ClientConfig::new()
                        .set("bootstrap.servers", &bs)
                        .set("transactional.id", "eos-worker")
                        .set("transaction.timeout.ms", "10000")
                        .set("message.timeout.ms", "10000")
                        // librdkafka (confluentinc/librdkafka#5511, #5456) can wait
                        // forever in send_offsets_to_transaction when the cached group
                        // coordinator is a broker it dropped (a killed node leaves
                        // Metadata, as in Kafka), until some broker connection changes
                        // state; closing idle connections makes one change.
                        .set("connections.max.idle.ms", "5000")
                        .create()
                        .ok()?;
                    p.init_transactions(Duration::from_secs(30)).ok()?;
                    Some(p)
                });
                if let Some(p) = made {
                    return p;
                }
                eprintln!("the worker's producer could not initialize for 60 s; again");
            }
        };
        let mut producer = new_producer();
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
                producer.send_offsets_to_transaction(
                    &offsets,
                    &metadata,
                    Duration::from_secs(30),
                )?;
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
                producer = new_producer();
            } else {
                let aborted = wait_for(Duration::from_secs(60), || {
                    producer.abort_transaction(Duration::from_secs(10)).ok()
                });
                if aborted.is_none() {
                    drop(producer);
                    producer = new_producer();
                }
            }
            while !rewind(&consumer, "eos-in", PARTITIONS) {
                std::thread::sleep(Duration::from_millis(500));
            }
        }
        let _ = finished.send(recoveries);
    });
    worker
}

#[test]
fn exactly_once_under_twenty_sigkills() {
    let root = tempfile::tempdir().unwrap();
    let mut nodes = combined_cluster(root.path(), 3, &settings());
    let bs = bootstrap(&nodes);
    wait_brokers_unfenced(&bs, &[1, 2, 3]);
    topic(&bs, "eos-in", PARTITIONS);
    topic(&bs, "eos-out", PARTITIONS);
    // Input arrives all through the kills, so the loop works through every one of them.
    let feeding = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    let feeder = feed(bs.clone(), feeding.clone(), PARTITIONS);
    let stop = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    let worker = spawn_eos_worker(bs.clone(), stop.clone());
    // Twenty SIGKILLs of random nodes, each restarted and back in every in-sync replica set
    // before the next.
    let kills: usize = std::env::var("FJORD_EOS_KILLS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(20);
    let mut seed: u64 = 0x0005_eed0_fe05;
    let mut rand = move || {
        seed = seed
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (seed >> 33) as usize
    };
    let rt = runtime();
    for k in 0..kills {
        std::thread::sleep(Duration::from_millis(500 + (rand() % 2500) as u64));
        let i = rand() % nodes.len();
        nodes[i].kill();
        std::thread::sleep(Duration::from_millis(500));
        nodes[i].start();
        wait_brokers_unfenced(&bs, &[1, 2, 3]);
        let whole = wait_for(Duration::from_secs(90), || all_in_sync(&rt, &nodes));
        if whole.is_none() {
            let warnings: Vec<String> = nodes
                .iter()
                .flat_map(|n| {
                    let text =
                        std::fs::read_to_string(n.dir.join("server.log")).unwrap_or_default();
                    text.lines()
                        .filter(|l| {
                            l.contains("WARN")
                                || l.contains("ERROR")
                                || l.contains("eos-in")
                                || l.contains("fetcher")
                                || l.contains("epoch")
                        })
                        .map(|l| format!("node {}: {l}", n.id))
                        .collect::<Vec<_>>()
                })
                .collect();
            // The nodes' logs are kept for the post-mortem.
            let kept = std::env::temp_dir().join("fjord-eos-failure");
            let _ = std::fs::create_dir_all(&kept);
            for n in &nodes {
                let _ = std::fs::copy(
                    n.dir.join("server.log"),
                    kept.join(format!("node{}.log", n.id)),
                );
            }
            panic!(
                "after kill {k} (node {}): replicas never all back in sync: {:?}\n{}",
                nodes[i].id,
                out_of_sync(&rt, &nodes),
                warnings[warnings.len().saturating_sub(150)..].join("\n")
            );
        }
    }
    // The input stops; then the worker finishes it.
    feeding.store(true, std::sync::atomic::Ordering::SeqCst);
    let (acked, sent) = feeder.join().unwrap();
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
    let recoveries = worker
        .recv_timeout(Duration::from_secs(120))
        .expect("the worker is stuck in a client call");
    assert!(
        all_committed.is_some(),
        "the input was never all processed ({recoveries:?})"
    );
    let inputs = assert_each_input_once(&bs, &acked, sent, &recoveries);
    assert!(
        inputs >= 1000,
        "too little input to mean anything: {inputs}"
    );
    eprintln!(
        "exactly once over {inputs} records ({} acknowledged of {sent} sent) and {kills} \
         SIGKILLs; recoveries {recoveries:?}",
        acked.len()
    );
}

/// `topic`-`partition`'s last stable offset and high watermark, as a read_committed and a
/// read_uncommitted client list them through `bootstrap`.
fn stable_and_end(bootstrap: &str, topic: &str, partition: i32) -> Option<(i64, i64)> {
    let offsets = |isolation: &str| -> Option<i64> {
        let c: BaseConsumer = ClientConfig::new()
            .set("bootstrap.servers", bootstrap)
            .set("isolation.level", isolation)
            .create()
            .ok()?;
        c.fetch_watermarks(topic, partition, Duration::from_secs(5))
            .ok()
            .map(|(_, high)| high)
    };
    Some((offsets("read_committed")?, offsets("read_uncommitted")?))
}

/// Runs a `fjord` tool and returns what it printed, asserting it succeeded.
fn tool(args: &[&str]) -> String {
    let o = common::fjord(args);
    assert!(o.status.success(), "{args:?}: {}", common::show(&o));
    common::text(&o.stdout)
}

#[test]
fn hanging_transactions_left_by_an_unclean_recovery_are_found_and_aborted() {
    let root = tempfile::tempdir().unwrap();
    let rt = runtime();
    let settings = format!(
        "{FAST_REPLICATION}\ntransaction.state.log.num.partitions=1\n\
         transaction.state.log.replication.factor=3\noffsets.topic.replication.factor=3\n\
         offsets.topic.num.partitions=3"
    );
    let (controller, brokers) = leave_hanging_transactions(&rt, root.path(), &settings);
    let live = brokers[1..]
        .iter()
        .map(Node::broker_addr)
        .collect::<Vec<_>>()
        .join(",");
    recover_with_and_without_aborting(&live);
    stalled_partition_shows(&rt, &brokers, &live);
    // A broker that is registered but cannot be reached may coordinate the producer's
    // transactional id: find-hanging fails as Kafka's does rather than call it hanging.
    unreachable_broker_fails_find_hanging(root.path(), &controller, &settings, &live);
    transactions_tool_finds_and_aborts(&live);
}

/// Two partitions on brokers 1 (leader) and 2 hold a transaction whose commit marker reached
/// broker 1 alone; broker 1 dies and broker 2 comes back: both partitions are offline, and
/// broker 2 holds the records without their marker. Broker 3 keeps the coordinator's state.
fn leave_hanging_transactions(
    rt: &tokio::runtime::Runtime,
    root: &std::path::Path,
    settings: &str,
) -> (Node, Vec<Node>) {
    let (controller, mut brokers) = common::controller_and_brokers(root, 3, settings);
    let addrs: Vec<String> = brokers.iter().map(Node::broker_addr).collect();
    let configs = [
        "min.insync.replicas=1",
        "unclean.leader.election.enable=false",
    ];
    // Two partitions on brokers 1 (leader) and 2; broker 3 keeps the coordinator's state.
    for t in ["hang-a", "hang-b"] {
        common::create(&addrs.join(","), t, "1:2", &configs);
        common::wait_partition(rt, &addrs[0], t, "both in sync", |l, isr| {
            l == 1 && isr.len() == 2
        });
    }
    // A transaction writes 5 records to each while both replicas follow...
    let p = txn_producer(&addrs.join(","), "hung", &[]);
    p.begin_transaction().unwrap();
    for i in 0..5 {
        send(&p, "hang-a", 0, &format!("t{i}"));
        send(&p, "hang-b", 0, &format!("t{i}"));
    }
    p.flush(Duration::from_secs(30)).unwrap();
    // ...then broker 2 dies, and the commit's markers reach broker 1 alone.
    brokers[1].kill();
    for t in ["hang-a", "hang-b"] {
        common::wait_partition(rt, &addrs[0], t, "ISR 1", |_, isr| isr == [1]);
    }
    p.commit_transaction(Duration::from_secs(30)).unwrap();
    drop(p);
    for t in ["hang-a", "hang-b"] {
        let marked = wait_for(Duration::from_secs(30), || {
            stable_and_end(&addrs[0], t, 0).filter(|(lso, end)| lso == end && *end == 6)
        });
        assert!(
            marked.is_some(),
            "{t}: the commit marker never landed on broker 1"
        );
    }
    // Broker 1 dies; broker 2, which holds the records without their marker, comes back.
    brokers[0].kill();
    brokers[1].start();
    for t in ["hang-a", "hang-b"] {
        common::wait_partition(rt, &addrs[1], t, "offline", |l, _| l == -1);
    }
    (controller, brokers)
}

/// The dry run names the open transaction at the replica to be elected; hang-a is recovered
/// with `--abort-hanging-transactions`, hang-b without.
fn recover_with_and_without_aborting(live: &str) {
    let dry = tool(&[
        "kafka-unclean-recovery",
        "--bootstrap-server",
        live,
        "--topic",
        "hang-a",
        "--dry-run",
        "--deadline-ms",
        "5000",
        "--max-transaction-timeout-ms",
        "0",
    ]);
    assert!(dry.contains("Choice: broker 2"), "{dry}");
    assert!(dry.contains("Hanging transaction: producer"), "{dry}");
    assert!(dry.contains("open from offset 0"), "{dry}");
    assert!(
        dry.contains("read_committed consumers stop at offset 0"),
        "{dry}"
    );

    // hang-a: recovered with --abort-hanging-transactions, the tool ends the transaction.
    let out = tool(&[
        "kafka-unclean-recovery",
        "--bootstrap-server",
        live,
        "--topic",
        "hang-a",
        "--automated-recovery",
        "--abort-hanging-transactions",
        "--deadline-ms",
        "5000",
        "--max-transaction-timeout-ms",
        "0",
    ]);
    assert!(
        out.contains("Recovered hang-a-0: leader is broker 2."),
        "{out}"
    );
    assert!(
        out.contains("Aborted the hanging transaction of producer"),
        "{out}"
    );
    assert!(out.contains("from offset 0 in hang-a-0"), "{out}");

    // hang-b: recovered without it, the transaction is left open and says how to end it.
    let out = tool(&[
        "kafka-unclean-recovery",
        "--bootstrap-server",
        live,
        "--topic",
        "hang-b",
        "--automated-recovery",
        "--deadline-ms",
        "5000",
        "--max-transaction-timeout-ms",
        "0",
    ]);
    assert!(
        out.contains("Recovered hang-b-0: leader is broker 2."),
        "{out}"
    );
    assert!(
        out.contains("Left the hanging transaction of producer"),
        "{out}"
    );
    assert!(
        out.contains("abort --topic hang-b --partition 0 --start-offset 0"),
        "{out}"
    );
}

/// After the recovery, new records: hang-a moves on, hang-b's LSO sticks at the open
/// transaction, which the leader's LastStableOffsetLag shows.
fn stalled_partition_shows(rt: &tokio::runtime::Runtime, brokers: &[Node], live: &str) {
    for t in ["hang-a", "hang-b"] {
        common::produce_acked(rt, live, t, 0..3);
    }
    // hang-a moved on: read_committed sees the new records and not the aborted ones.
    let a = read_all(live, "hang-a", 1, "read_committed", 3);
    assert_eq!(a, ["v0", "v1", "v2"], "hang-a after the abort");
    // hang-b is stuck at the open transaction's first offset: read_committed sees nothing.
    let (lso, end) = stable_and_end(live, "hang-b", 0).expect("hang-b's offsets");
    assert_eq!(
        (lso, end),
        (0, 8),
        "hang-b's LSO sticks at the open transaction"
    );
    // The stall shows in the leader's LastStableOffsetLag, and the coordinator's metrics
    // count the committed transaction.
    let series = |port: u16, name: &str, labels: &str| -> Option<f64> {
        common::metrics_text(port)
            .lines()
            .find(|l| {
                // The series itself (its labels or its value follow the name).
                l.strip_prefix(name)
                    .is_some_and(|rest| rest.starts_with(['\u{7b}', ' ']))
                    && l.contains(labels)
            })
            .and_then(|l| l.rsplit(' ').next()?.parse().ok())
    };
    let lag = series(
        brokers[1].metrics_port,
        "kafka_cluster_partition_laststableoffsetlag",
        "topic=\"hang-b\"",
    );
    assert_eq!(lag, Some(8.0), "hang-b's LastStableOffsetLag on broker 2");
    let committed: f64 = brokers[1..]
        .iter()
        .filter_map(|b| {
            series(
                b.metrics_port,
                "kafka_server_transaction_coordinator_metrics_transactions",
                "state=\"CompleteCommit\"",
            )
        })
        .sum();
    assert_eq!(committed, 1.0, "one transactional id in CompleteCommit");
    assert!(series(
        brokers[2].metrics_port,
        "kafka_server_transaction_coordinator_metrics_partition_load_time_max",
        ""
    )
    .is_some());
    let everything = read_all(live, "hang-b", 1, "read_uncommitted", 8);
    assert_eq!(
        everything.len(),
        8,
        "read_uncommitted still reads it all: {everything:?}"
    );
}

/// kafka-transactions finds the transaction left open (and only it) and aborts it; the
/// consumer moves on.
fn transactions_tool_finds_and_aborts(live: &str) {
    let found = tool(&[
        "kafka-transactions",
        "--bootstrap-server",
        live,
        "find-hanging",
        "--broker-id",
        "2",
        "--max-transaction-timeout",
        "0",
    ]);
    let rows: Vec<&str> = found.lines().skip(1).collect();
    assert_eq!(rows.len(), 1, "{found}");
    let cells: Vec<&str> = rows[0].split_whitespace().collect();
    assert_eq!(
        (cells[0], cells[1], cells[5]),
        ("hang-b", "0", "0"),
        "{found}"
    );
    let described = tool(&[
        "kafka-transactions",
        "--bootstrap-server",
        live,
        "describe-producers",
        "--topic",
        "hang-b",
        "--partition",
        "0",
    ]);
    let open: Vec<&str> = described
        .lines()
        .skip(1)
        .filter(|l| l.split_whitespace().last() == Some("0"))
        .collect();
    assert_eq!(
        open.len(),
        1,
        "one producer with a transaction open at 0: {described}"
    );
    tool(&[
        "kafka-transactions",
        "--bootstrap-server",
        live,
        "abort",
        "--topic",
        "hang-b",
        "--partition",
        "0",
        "--start-offset",
        "0",
    ]);
    let b = read_all(live, "hang-b", 1, "read_committed", 3);
    assert_eq!(b, ["v0", "v1", "v2"], "hang-b after the abort");
    let none = tool(&[
        "kafka-transactions",
        "--bootstrap-server",
        live,
        "find-hanging",
        "--broker-id",
        "2",
        "--max-transaction-timeout",
        "0",
    ]);
    assert_eq!(none.lines().count(), 1, "only the header is left: {none}");
}

/// Starts broker 4, which advertises a port nothing listens on, and checks that
/// `find-hanging` and `list` then refuse to answer ("Failed to list transactions"), printing
/// no row: a transaction whose coordinator did not answer may be live. Stops broker 4 again
/// (once it is fenced, the listing is complete).
fn unreachable_broker_fails_find_hanging(
    root: &Path,
    controller: &Node,
    settings: &str,
    live: &str,
) {
    let voters = format!("controller.quorum.voters=10@127.0.0.1:{}", controller.port);
    let nowhere = common::free_port();
    let extra = format!("{settings}\nadvertised.listeners=PLAINTEXT://127.0.0.1:{nowhere}");
    let mut b4 = Node::broker(root, 4, common::free_port(), &voters, &extra);
    b4.format(&controller.cluster_id(), &[]);
    b4.start();
    common::wait_brokers_unfenced(live, &[2, 3, 4]);
    let quick = root.join("quick-admin.properties");
    std::fs::write(
        &quick,
        "default.api.timeout.ms=3000\nrequest.timeout.ms=1000\n",
    )
    .unwrap();
    let o = common::fjord(&[
        "kafka-transactions",
        "--bootstrap-server",
        live,
        "--command-config",
        quick.to_str().unwrap(),
        "find-hanging",
        "--broker-id",
        "2",
        "--max-transaction-timeout",
        "0",
    ]);
    let printed = common::text(&o.stdout);
    assert!(!o.status.success(), "{}", common::show(&o));
    assert!(
        common::text(&o.stderr).contains("Failed to list transactions for 1 producers"),
        "{}",
        common::show(&o)
    );
    assert_eq!(printed.lines().count(), 0, "no row while unsure: {printed}");
    // `list` fails too rather than print a partial table (Kafka 4.4: "Failed to list
    // transactions: Timed out waiting for a node assignment", exit 1).
    let o = common::fjord(&[
        "kafka-transactions",
        "--bootstrap-server",
        live,
        "--command-config",
        quick.to_str().unwrap(),
        "list",
    ]);
    assert!(!o.status.success(), "{}", common::show(&o));
    assert!(
        common::text(&o.stderr).contains("Failed to list transactions: broker(s) 4"),
        "{}",
        common::show(&o)
    );
    assert_eq!(common::text(&o.stdout), "", "no partial table");
    b4.kill();
}

/// One transactional batch of producer `pid` at `epoch` (sequence `seq`) for `topic`-0.
fn produce_txn(topic: &str, id: &str, pid: i64, epoch: i16, seq: i32) -> RequestBody {
    produce_value(topic, id, (pid, epoch, seq), "v")
}

/// A transactional Produce of one record, `value`, from producer (id, epoch, sequence).
fn produce_value(
    topic: &str,
    id: &str,
    (pid, epoch, seq): (i64, i16, i32),
    value: &str,
) -> RequestBody {
    use fjord_protocol::generated::produce_request::{
        PartitionProduceData, ProduceRequest, TopicProduceData,
    };
    use fjord_protocol::records::{Compression, RecordBatchBuilder};
    let mut b = RecordBatchBuilder::new(Compression::None)
        .producer(pid, epoch, seq)
        .transactional(true);
    b.append(1_000, None, Some(value.as_bytes()), &[]);
    RequestBody::Produce(ProduceRequest {
        transactional_id: Some(id.into()),
        acks: -1,
        timeout_ms: 10_000,
        topic_data: vec![TopicProduceData {
            name: topic.into(),
            partition_data: vec![PartitionProduceData {
                index: 0,
                records: Some(fjord_protocol::Records::Memory(b.build().unwrap())),
                ..Default::default()
            }],
            ..Default::default()
        }],
        ..Default::default()
    })
}

#[test]
fn a_transaction_starts_in_a_partition_only_once_its_coordinator_confirms_it() {
    use fjord_protocol::generated::add_partitions_to_txn_request::{
        AddPartitionsToTxnRequest, AddPartitionsToTxnTopic,
    };
    use fjord_protocol::generated::init_producer_id_request::InitProducerIdRequest;
    let root = tempfile::tempdir().unwrap();
    let nodes = combined_cluster(root.path(), 3, &settings());
    let bs = bootstrap(&nodes);
    wait_brokers_unfenced(&bs, &[1, 2, 3]);
    topic(&bs, "verified", 1);
    let rt = runtime();
    let coordinator = wait_for(Duration::from_secs(60), || {
        coordinator_of(&rt, &nodes[0].broker_addr(), "v-tx")
    })
    .expect("a coordinator");
    let at = |id: i32| nodes.iter().find(|n| n.id == id).unwrap().broker_addr();
    let init = RequestBody::InitProducerId(InitProducerIdRequest {
        transactional_id: Some("v-tx".into()),
        transaction_timeout_ms: 60_000,
        producer_id: -1,
        producer_epoch: -1,
        ..Default::default()
    });
    // Asked again while the coordinator loads its partition (COORDINATOR_LOAD_IN_PROGRESS,
    // retriable), as a client does.
    let p = wait_for(Duration::from_secs(30), || {
        let Some(ResponseBody::InitProducerId(p)) =
            rt.block_on(common::call(&at(coordinator), init.clone(), 4))
        else {
            panic!("InitProducerId");
        };
        (p.error_code != fjord_protocol::ErrorCode::CoordinatorLoadInProgress.code()).then_some(p)
    })
    .expect("the coordinator loads");
    assert_eq!(p.error_code, 0);
    let leader = wait_for(Duration::from_secs(30), || {
        common::partition_zero(&rt, &nodes[0].broker_addr(), "verified").map(|(_, l, _)| l)
    })
    .expect("a leader");
    let produce = |seq| {
        let r = rt.block_on(common::call(
            &at(leader),
            produce_txn("verified", "v-tx", p.producer_id, p.producer_epoch, seq),
            9,
        ));
        match r {
            Some(ResponseBody::Produce(r)) => r.responses[0].partition_responses[0].error_code,
            other => panic!("{other:?}"),
        }
    };
    // Not added to the transaction: the leader asks the coordinator and refuses it.
    assert_eq!(
        produce(0),
        fjord_protocol::ErrorCode::InvalidTxnState.code(),
        "a batch of a transaction the coordinator does not know here"
    );
    // Added (as a client does first): appended.
    let add = RequestBody::AddPartitionsToTxn(AddPartitionsToTxnRequest {
        v3_and_below_transactional_id: "v-tx".into(),
        v3_and_below_producer_id: p.producer_id,
        v3_and_below_producer_epoch: p.producer_epoch,
        v3_and_below_topics: vec![AddPartitionsToTxnTopic {
            name: "verified".into(),
            partitions: vec![0],
            ..Default::default()
        }],
        ..Default::default()
    });
    let Some(ResponseBody::AddPartitionsToTxn(a)) =
        rt.block_on(common::call(&at(coordinator), add, 3))
    else {
        panic!("AddPartitionsToTxn");
    };
    assert!(a
        .results_by_topic_v3_and_below
        .iter()
        .flat_map(|t| &t.results_by_partition)
        .all(|r| r.partition_error_code == 0));
    assert_eq!(
        produce(0),
        0,
        "verified with the coordinator, then appended"
    );
    assert_eq!(
        produce(1),
        0,
        "the transaction is open here: no new verification"
    );
}

/// InitProducerId v5 for transactional id `id` at its coordinator `addr`, retried while the
/// coordinator settles (its partition just created), as a client does.
fn init_producer(
    rt: &tokio::runtime::Runtime,
    addr: &str,
    id: &str,
) -> fjord_protocol::generated::init_producer_id_response::InitProducerIdResponse {
    use fjord_protocol::generated::init_producer_id_request::InitProducerIdRequest;
    let init = RequestBody::InitProducerId(InitProducerIdRequest {
        transactional_id: Some(id.into()),
        transaction_timeout_ms: 60_000,
        producer_id: -1,
        producer_epoch: -1,
        ..Default::default()
    });
    wait_for(Duration::from_secs(60), || {
        match rt.block_on(common::call(addr, init.clone(), 5)) {
            Some(ResponseBody::InitProducerId(p)) if p.error_code == 0 => Some(p),
            _ => None,
        }
    })
    .expect("InitProducerId")
}

/// ApiVersions finalizes `transaction.version` 2 and offers the versions that go with it
/// (EndTxn v5, TxnOffsetCommit v5+, Produce v12+); `kafka-features describe` says so.
fn transaction_version_2_is_advertised(rt: &tokio::runtime::Runtime, addr: &str, bs: &str) {
    use fjord_protocol::ApiKey;
    let Some(ResponseBody::ApiVersions(v)) =
        rt.block_on(common::call(addr, common::api_versions_request(), 3))
    else {
        panic!("ApiVersions");
    };
    let finalized: Vec<(String, i16)> = v
        .finalized_features
        .iter()
        .map(|f| (f.name.clone(), f.max_version_level))
        .collect();
    assert!(
        finalized.contains(&("transaction.version".to_string(), 2)),
        "{finalized:?}"
    );
    let max = |key: ApiKey| {
        v.api_keys
            .iter()
            .find(|k| k.api_key == key as i16)
            .map(|k| k.max_version)
    };
    assert_eq!(max(ApiKey::EndTxn), Some(5));
    // v5 and later (v6 names topics by id, KIP-1319).
    assert!(max(ApiKey::TxnOffsetCommit) >= Some(5));
    assert!(max(ApiKey::Produce) >= Some(12));
    let described = tool(&["kafka-features", "--bootstrap-server", bs, "describe"]);
    assert!(
        described.contains(&format!(
            "Feature: {:<40}  SupportedMinVersion: {:<15}  SupportedMaxVersion: {:<15}  FinalizedVersionLevel: {:<15}",
            "transaction.version", 0, 2, 2
        )),
        "{described}"
    );
}

/// The broker that coordinates `group`.
fn group_coordinator_of(rt: &tokio::runtime::Runtime, addr: &str, group: &str) -> i32 {
    wait_for(Duration::from_secs(60), || {
        find_coordinator(rt, addr, group, 0)
    })
    .expect("a group coordinator")
}

/// A TxnOffsetCommit of `offset` for `tv2-0` in the producer's transaction, with no
/// AddOffsetsToTxn before it: every partition answers with no error.
fn txn_offset_commit(
    rt: &tokio::runtime::Runtime,
    coordinator: &str,
    (id, group): (&str, &str),
    (pid, epoch): (i64, i16),
    offset: i64,
) {
    use fjord_protocol::generated::txn_offset_commit_request::{
        TxnOffsetCommitRequest, TxnOffsetCommitRequestPartition, TxnOffsetCommitRequestTopic,
    };
    let commit_offset = RequestBody::TxnOffsetCommit(TxnOffsetCommitRequest {
        transactional_id: id.into(),
        group_id: group.into(),
        producer_id: pid,
        producer_epoch: epoch,
        generation_id_or_member_epoch: -1,
        member_id: String::new(),
        topics: vec![TxnOffsetCommitRequestTopic {
            name: "tv2".into(),
            partitions: vec![TxnOffsetCommitRequestPartition {
                partition_index: 0,
                committed_offset: offset,
                committed_leader_epoch: -1,
                ..Default::default()
            }],
            ..Default::default()
        }],
        ..Default::default()
    });
    let Some(ResponseBody::TxnOffsetCommit(c)) =
        rt.block_on(common::call(coordinator, commit_offset, 5))
    else {
        panic!("TxnOffsetCommit");
    };
    assert!(
        c.topics
            .iter()
            .flat_map(|t| &t.partitions)
            .all(|p| p.error_code == 0),
        "{c:?}"
    );
}

/// The offset `group` committed for `tv2-0`, asked with `require_stable`.
fn stable_committed_offset(rt: &tokio::runtime::Runtime, coordinator: &str, group: &str) -> i64 {
    use fjord_protocol::generated::offset_fetch_request::{
        OffsetFetchRequest, OffsetFetchRequestTopic,
    };
    let fetch = RequestBody::OffsetFetch(OffsetFetchRequest {
        group_id: group.into(),
        topics: Some(vec![OffsetFetchRequestTopic {
            name: "tv2".into(),
            partition_indexes: vec![0],
            ..Default::default()
        }]),
        require_stable: true,
        ..Default::default()
    });
    let Some(ResponseBody::OffsetFetch(f)) = rt.block_on(common::call(coordinator, fetch, 7))
    else {
        panic!("OffsetFetch");
    };
    f.topics[0].partitions[0].committed_offset
}

/// Transaction version 2 (KIP-890 part 2), in raw protocol as a Kafka 4 Java producer speaks
/// it (librdkafka has no KIP-890 yet): the feature is finalized at 2 on a new cluster; a
/// Produce v12 adds its partition to the transaction and a TxnOffsetCommit v5 its group's,
/// with no AddPartitionsToTxn or AddOffsetsToTxn; each EndTxn v5 hands out the next epoch,
/// which fences the one before; a retried end gets the same answer; read_committed readers
/// see the committed transaction and not the aborted one, and the group's offset.
#[test]
fn a_version_2_producer_adds_partitions_by_writing_and_gets_a_new_epoch_at_every_end() {
    use fjord_protocol::generated::end_txn_request::EndTxnRequest;
    use fjord_protocol::ErrorCode;
    let root = tempfile::tempdir().unwrap();
    let nodes = combined_cluster(root.path(), 3, &settings());
    let bs = bootstrap(&nodes);
    wait_brokers_unfenced(&bs, &[1, 2, 3]);
    topic(&bs, "tv2", 1);
    let rt = runtime();
    let at = |id: i32| nodes.iter().find(|n| n.id == id).unwrap().broker_addr();
    transaction_version_2_is_advertised(&rt, &nodes[0].broker_addr(), &bs);

    let id = "tv2-tx";
    let coordinator = wait_for(Duration::from_secs(60), || {
        coordinator_of(&rt, &nodes[0].broker_addr(), id)
    })
    .expect("a coordinator");
    let p = init_producer(&rt, &at(coordinator), id);
    let (pid, e0) = (p.producer_id, p.producer_epoch);
    let leader = wait_for(Duration::from_secs(30), || {
        common::partition_zero(&rt, &nodes[0].broker_addr(), "tv2").map(|(_, l, _)| l)
    })
    .expect("a leader");
    let produce = |epoch: i16, seq: i32, value: &str| -> i16 {
        match rt.block_on(common::call(
            &at(leader),
            produce_value("tv2", id, (pid, epoch, seq), value),
            12,
        )) {
            Some(ResponseBody::Produce(r)) => r.responses[0].partition_responses[0].error_code,
            other => panic!("{other:?}"),
        }
    };
    // Retriable answers (the coordinator finishing the last transaction) are retried, as a
    // producer does.
    let produce_until_done = |epoch: i16, seq: i32, value: &str| -> i16 {
        wait_for(Duration::from_secs(30), || {
            let code = produce(epoch, seq, value);
            (code != ErrorCode::NotEnoughReplicas.code()).then_some(code)
        })
        .expect("an answer that is not retriable")
    };
    let end = |epoch: i16, commit: bool| -> (i16, i64, i16) {
        let r = RequestBody::EndTxn(EndTxnRequest {
            transactional_id: id.into(),
            producer_id: pid,
            producer_epoch: epoch,
            committed: commit,
            ..Default::default()
        });
        match rt.block_on(common::call(&at(coordinator), r, 5)) {
            Some(ResponseBody::EndTxn(r)) => (r.error_code, r.producer_id, r.producer_epoch),
            other => panic!("{other:?}"),
        }
    };
    // Transaction 1: written with no AddPartitionsToTxn (the leader adds the partition).
    assert_eq!(produce_until_done(e0, 0, "committed-1"), 0);
    assert_eq!(produce(e0, 1, "committed-2"), 0);
    // Its group offset, with no AddOffsetsToTxn.
    let group = "tv2-group";
    let group_coordinator = group_coordinator_of(&rt, &nodes[0].broker_addr(), group);
    txn_offset_commit(&rt, &at(group_coordinator), (id, group), (pid, e0), 42);
    let described = tool(&[
        "kafka-transactions",
        "--bootstrap-server",
        &bs,
        "describe",
        "--transactional-id",
        id,
    ]);
    assert!(described.contains("Ongoing"), "{described}");
    assert!(described.contains("tv2-0"), "{described}");
    assert!(described.contains("__consumer_offsets-"), "{described}");
    // The end hands out the next epoch.
    let (code, pid1, e1) = end(e0, true);
    assert_eq!((code, pid1, e1), (0, pid, e0 + 1));
    // Retried: the same answer (or, while the markers are written, try again).
    let retried = wait_for(Duration::from_secs(30), || {
        let r = end(e0, true);
        (r.0 != ErrorCode::ConcurrentTransactions.code()).then_some(r)
    })
    .unwrap();
    assert_eq!(retried, (0, pid, e1));
    // The old epoch is fenced.
    assert_eq!(
        produce(e0, 2, "zombie"),
        ErrorCode::InvalidProducerEpoch.code()
    );
    // Transaction 2 with the new epoch, from sequence 0; aborted.
    assert_eq!(produce_until_done(e1, 0, "aborted-1"), 0);
    let (code, _, e2) = end(e1, false);
    assert_eq!((code, e2), (0, e1 + 1));
    // An abort with nothing written still moves the epoch on.
    let e3 = wait_for(Duration::from_secs(30), || {
        let (code, _, e) = end(e2, false);
        (code != ErrorCode::ConcurrentTransactions.code()).then(|| {
            assert_eq!(code, 0);
            e
        })
    })
    .unwrap();
    assert_eq!(e3, e2 + 1);
    // Transaction 3, committed.
    assert_eq!(produce_until_done(e3, 0, "committed-3"), 0);
    assert_eq!(end(e3, true).0, 0);
    // read_committed: every committed record, and not the aborted one or the zombie's.
    wait_for(Duration::from_secs(30), || {
        stable_and_end(&bs, "tv2", 0).filter(|(lso, hw)| lso == hw)
    })
    .expect("every transaction ended");
    let committed = read_all(&bs, "tv2", 1, "read_committed", 3);
    assert_eq!(committed, ["committed-1", "committed-2", "committed-3"]);
    let all = read_all(&bs, "tv2", 1, "read_uncommitted", 4);
    assert_eq!(
        all,
        ["committed-1", "committed-2", "aborted-1", "committed-3"]
    );
    // The group's offset, committed with transaction 1.
    let offset = stable_committed_offset(&rt, &at(group_coordinator), group);
    assert_eq!(offset, 42);
}

/// `kafka-storage format --feature transaction.version=1` starts a cluster at version 1: a
/// Produce v12 that relies on the broker to add its partition is refused
/// (TRANSACTION_ABORTABLE: the producer must add it itself), until `kafka-features upgrade
/// --feature transaction.version=2`, after which the same Produce is appended. A level the
/// build does not support, or an unknown feature, fails the format.
#[test]
fn a_cluster_formatted_at_transaction_version_1_is_upgraded_to_2() {
    use fjord_protocol::ErrorCode;
    let root = tempfile::tempdir().unwrap();
    let ports = (common::free_port(), common::free_port());
    let quorum = format!("controller.quorum.bootstrap.servers=127.0.0.1:{}", ports.1);
    let single = "transaction.state.log.replication.factor=1\ntransaction.state.log.min.isr=1\n\
                  transaction.state.log.num.partitions=2";
    let mut node = Node::combined(root.path(), 1, ports, &quorum, single);
    for (bad, why) in [
        (
            "transaction.version=3",
            "not supported: this build supports 0 to 2",
        ),
        ("group.versio=1", "unknown feature group.versio"),
    ] {
        let o = common::fjord(&[
            "format",
            "--config",
            node.config.to_str().unwrap(),
            "--cluster-id",
            &common::random_uuid(),
            "--standalone",
            "--feature",
            bad,
        ]);
        assert!(!o.status.success());
        assert!(
            common::text(&o.stderr).contains(why),
            "{}",
            common::show(&o)
        );
    }
    node.format(
        &common::random_uuid(),
        &["--standalone", "--feature", "transaction.version=1"],
    );
    node.start();
    let bs = node.broker_addr();
    wait_brokers_unfenced(&bs, &[1]);
    let level = || {
        let d = tool(&["kafka-features", "--bootstrap-server", &bs, "describe"]);
        d.lines()
            .find(|l| l.starts_with("Feature: transaction.version "))
            .and_then(|l| l.rsplit("FinalizedVersionLevel: ").next())
            .and_then(|l| l.split_whitespace().next())
            .map(str::to_string)
    };
    assert_eq!(level().as_deref(), Some("1"));
    common::create(&bs, "tv1", "1", &[]);
    let rt = runtime();
    let id = "tv1-tx";
    // FindCoordinator creates the transaction topic, as a client's first call does.
    wait_for(Duration::from_secs(60), || coordinator_of(&rt, &bs, id)).expect("a coordinator");
    let p = init_producer(&rt, &bs, id);
    let produce = || -> i16 {
        wait_for(Duration::from_secs(30), || {
            match rt.block_on(common::call(
                &bs,
                produce_value("tv1", id, (p.producer_id, p.producer_epoch, 0), "x"),
                12,
            )) {
                Some(ResponseBody::Produce(r)) => {
                    let code = r.responses[0].partition_responses[0].error_code;
                    (code != ErrorCode::NotEnoughReplicas.code()
                        && code != ErrorCode::NotLeaderOrFollower.code())
                    .then_some(code)
                }
                _ => None,
            }
        })
        .expect("a produce answer")
    };
    assert_eq!(produce(), ErrorCode::TransactionAbortable.code());
    tool(&[
        "kafka-features",
        "--bootstrap-server",
        &bs,
        "upgrade",
        "--feature",
        "transaction.version=2",
    ]);
    wait_for(Duration::from_secs(30), || {
        (level().as_deref() == Some("2")).then_some(())
    })
    .expect("transaction.version 2");
    assert_eq!(produce(), 0, "the broker added the partition");
}
