//! Consumer groups and idempotent producers against real librdkafka on a real node: 100,000
//! messages produced idempotently with acks=all to six partitions, consumed by a group of
//! three consumers that rebalances as members join and leave (every message exactly once per
//! group, in order per partition), the same with each compression codec; committed offsets
//! that survive a SIGKILL of the node; and an idempotent producer that goes on through a
//! SIGKILL and restart of the node with every acknowledged message stored exactly once.

mod common;

use common::{free_port, Node};
use rdkafka::config::ClientConfig;
use rdkafka::consumer::{BaseConsumer, CommitMode, Consumer};
use rdkafka::message::Message;
use rdkafka::producer::{FutureProducer, FutureRecord};
use std::collections::{BTreeMap, HashMap, HashSet};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// The topic's partitions.
const PARTITIONS: i32 = 6;
/// How long the whole group run may take before the test fails.
const GROUP_DEADLINE: Duration = Duration::from_secs(240);

/// A single combined node; `broker_port` 0 lets it pick (a node restarted by the test needs a
/// fixed one).
fn node(root: &std::path::Path, broker_port: u16) -> Node {
    Node::single(
        root,
        broker_port,
        "num.partitions=6\noffsets.topic.replication.factor=1\ngroup.initial.rebalance.delay.ms=0",
    )
}

/// Produces `messages` to `topic` with acks=all and `codec`, values `0..messages`, spread
/// round-robin over the partitions.
fn produce(node: &Node, bootstrap: &str, topic: &str, codec: &str, messages: usize) {
    let runtime = tokio::runtime::Runtime::new().unwrap();
    let producer: FutureProducer = ClientConfig::new()
        .set("bootstrap.servers", bootstrap)
        .set("compression.codec", codec)
        .set("enable.idempotence", "true")
        .set("acks", "all")
        .set("linger.ms", "5")
        .set("queue.buffering.max.messages", "200000")
        .set("message.timeout.ms", "60000")
        .create()
        .unwrap();
    runtime.block_on(async {
        let mut pending = Vec::with_capacity(messages);
        for i in 0..messages {
            let value = i.to_string();
            let record = FutureRecord::<(), _>::to(topic)
                .payload(&value)
                .partition((i % PARTITIONS as usize) as i32);
            pending.push(producer.send_result(record).map_err(|(e, _)| e).unwrap());
        }
        for p in pending {
            p.await
                .expect("delivery reported")
                .unwrap_or_else(|(e, _)| panic!("produce failed: {e}\n{}", node.log_tail()));
        }
    });
}

/// What the group's consumers received: (partition, offset, value).
type Received = Arc<Mutex<Vec<(i32, i64, usize)>>>;

/// A consumer thread of `group` on `topic`, until `stop`; dropping the consumer at the end
/// commits and leaves the group.
fn spawn_consumer(
    bootstrap: &str,
    group: &str,
    topic: &str,
    received: Received,
    stop: Arc<AtomicBool>,
) -> std::thread::JoinHandle<()> {
    let consumer: BaseConsumer = ClientConfig::new()
        .set("bootstrap.servers", bootstrap)
        .set("group.id", group)
        .set("auto.offset.reset", "earliest")
        .set("enable.auto.commit", "true")
        .set("auto.commit.interval.ms", "500")
        .set("session.timeout.ms", "10000")
        .set("heartbeat.interval.ms", "500")
        .create()
        .unwrap();
    consumer.subscribe(&[topic]).unwrap();
    std::thread::spawn(move || {
        while !stop.load(Ordering::SeqCst) {
            match consumer.poll(Duration::from_millis(100)) {
                Some(Ok(m)) => {
                    let value: usize = std::str::from_utf8(m.payload().unwrap())
                        .unwrap()
                        .parse()
                        .unwrap();
                    received
                        .lock()
                        .unwrap()
                        .push((m.partition(), m.offset(), value));
                }
                Some(Err(e)) => eprintln!("consumer: {e}"),
                None => {}
            }
        }
        // Commit what was consumed before leaving, so the next owner starts after it.
        let _ = consumer.commit_consumer_state(CommitMode::Sync);
        consumer.unsubscribe();
    })
}

/// Waits until `received` holds at least `n` messages.
fn wait_received(node: &Node, received: &Received, n: usize, deadline: Instant) {
    while received.lock().unwrap().len() < n {
        assert!(
            Instant::now() < deadline,
            "only {} of {n} messages consumed\n{}",
            received.lock().unwrap().len(),
            node.log_tail()
        );
        std::thread::park_timeout(Duration::from_millis(50));
    }
}

/// Consumes all `messages` of `topic` with a group whose membership changes: one consumer,
/// then a second and a third join, then the first leaves. Checks every message arrived
/// exactly once and each partition's offsets and values grow.
fn consume_with_rebalances(
    node: &Node,
    bootstrap: &str,
    topic: &str,
    group: &str,
    messages: usize,
) {
    let received: Received = Arc::default();
    let deadline = Instant::now() + GROUP_DEADLINE;
    let stops: Vec<Arc<AtomicBool>> = (0..3).map(|_| Arc::default()).collect();
    let mut threads = Vec::new();
    threads.push(spawn_consumer(
        bootstrap,
        group,
        topic,
        received.clone(),
        stops[0].clone(),
    ));
    wait_received(node, &received, messages / 5, deadline);
    threads.push(spawn_consumer(
        bootstrap,
        group,
        topic,
        received.clone(),
        stops[1].clone(),
    ));
    wait_received(node, &received, messages * 2 / 5, deadline);
    threads.push(spawn_consumer(
        bootstrap,
        group,
        topic,
        received.clone(),
        stops[2].clone(),
    ));
    wait_received(node, &received, messages * 3 / 5, deadline);
    stops[0].store(true, Ordering::SeqCst);
    wait_received(node, &received, messages, deadline);
    for s in &stops {
        s.store(true, Ordering::SeqCst);
    }
    for t in threads {
        t.join().unwrap();
    }
    let received = received.lock().unwrap();
    let distinct: HashSet<usize> = received.iter().map(|(_, _, v)| *v).collect();
    assert_eq!(distinct.len(), messages, "every message arrived");
    assert_eq!(received.len(), messages, "and none twice");
    let mut last: BTreeMap<i32, (i64, usize)> = BTreeMap::new();
    for (p, offset, value) in received.iter() {
        assert_eq!(
            *value as i32 % PARTITIONS,
            *p,
            "value {value} on its partition"
        );
        if let Some((o, v)) = last.get(p) {
            assert!(offset > o && value > v, "partition {p} in order");
        }
        last.insert(*p, (*offset, *value));
    }
}

#[test]
fn a_rebalancing_group_of_three_consumes_100k_messages_exactly_once() {
    let root = tempfile::tempdir().unwrap();
    let node = node(root.path(), 0);
    let bootstrap = node.broker_addr();
    produce(&node, &bootstrap, "events", "none", 100_000);
    consume_with_rebalances(&node, &bootstrap, "events", "g-none", 100_000);
    for codec in ["gzip", "snappy", "lz4", "zstd"] {
        let topic = format!("events-{codec}");
        produce(&node, &bootstrap, &topic, codec, 20_000);
        consume_with_rebalances(&node, &bootstrap, &topic, &format!("g-{codec}"), 20_000);
    }
}

#[test]
fn committed_offsets_survive_a_sigkill() {
    let root = tempfile::tempdir().unwrap();
    let mut node = node(root.path(), free_port());
    let bootstrap = node.broker_addr();
    produce(&node, &bootstrap, "kept", "none", 600);
    let consumer = |bootstrap: &str| -> BaseConsumer {
        let c: BaseConsumer = ClientConfig::new()
            .set("bootstrap.servers", bootstrap)
            .set("group.id", "survivor")
            .set("auto.offset.reset", "earliest")
            .set("enable.auto.commit", "false")
            .set("session.timeout.ms", "6000")
            .create()
            .unwrap();
        c.subscribe(&["kept"]).unwrap();
        c
    };
    let c = consumer(&bootstrap);
    let deadline = Instant::now() + Duration::from_secs(60);
    let mut first = HashSet::new();
    while first.len() < 300 {
        assert!(Instant::now() < deadline, "{}", node.log_tail());
        if let Some(Ok(m)) = c.poll(Duration::from_millis(100)) {
            let v: usize = std::str::from_utf8(m.payload().unwrap())
                .unwrap()
                .parse()
                .unwrap();
            assert!(first.insert(v), "{v} twice");
        }
    }
    c.commit_consumer_state(CommitMode::Sync).unwrap();
    let committed = c.committed(Duration::from_secs(10)).unwrap();
    let total: i64 = committed
        .elements()
        .iter()
        .filter_map(|e| match e.offset() {
            rdkafka::Offset::Offset(o) => Some(o),
            _ => None,
        })
        .sum();
    assert_eq!(total, 300, "300 messages committed");
    // The list holds references into the client: it goes first, or closing the client waits
    // for it forever.
    drop(committed);
    drop(c);
    node.kill();
    node.start();
    let bootstrap = node.broker_addr();
    // The restarted broker answers once it has registered again, which waits for its old
    // incarnation's session to end (about 9 s): a client that connects before then may give
    // up on ApiVersions (librdkafka's `api.version.request.timeout.ms` is 10 s) and fall back
    // to old protocol versions. The new member starts once the broker answers.
    let rt = tokio::runtime::Runtime::new().unwrap();
    let ready = common::wait_for(Duration::from_secs(60), || {
        rt.block_on(common::call(
            &bootstrap,
            fjord_protocol::RequestBody::Metadata(Default::default()),
            12,
        ))
    });
    assert!(ready.is_some(), "{}", node.log_tail());
    // A new member of the group resumes after the committed offsets: the other 300 exactly.
    let c = consumer(&bootstrap);
    let mut rest = HashSet::new();
    let deadline = Instant::now() + Duration::from_secs(60);
    while rest.len() < 300 {
        assert!(
            Instant::now() < deadline,
            "{} of 300\n{}",
            rest.len(),
            node.log_tail()
        );
        if let Some(Ok(m)) = c.poll(Duration::from_millis(100)) {
            let v: usize = std::str::from_utf8(m.payload().unwrap())
                .unwrap()
                .parse()
                .unwrap();
            assert!(rest.insert(v), "{v} twice");
        }
    }
    assert!(
        first.is_disjoint(&rest),
        "nothing consumed twice across the restart"
    );
}

#[test]
fn an_idempotent_producer_goes_on_through_a_sigkill_without_duplicates() {
    const MESSAGES: usize = 20_000;
    let root = tempfile::tempdir().unwrap();
    let mut node = node(root.path(), free_port());
    let bootstrap = node.broker_addr();
    let acked: Arc<Mutex<Vec<usize>>> = Arc::default();
    let failed: Arc<Mutex<Vec<String>>> = Arc::default();
    let producer_thread = {
        let (acked, failed, bootstrap) = (acked.clone(), failed.clone(), bootstrap.clone());
        std::thread::spawn(move || {
            let runtime = tokio::runtime::Runtime::new().unwrap();
            let producer: FutureProducer = ClientConfig::new()
                .set("bootstrap.servers", &bootstrap)
                .set("enable.idempotence", "true")
                .set("acks", "all")
                .set("linger.ms", "2")
                .set("message.timeout.ms", "120000")
                .create()
                .unwrap();
            runtime.block_on(async {
                // In windows, so the kill lands while batches are in flight.
                for window in (0..MESSAGES).collect::<Vec<_>>().chunks(500) {
                    let mut pending = Vec::new();
                    for &i in window {
                        let value = i.to_string();
                        let record = FutureRecord::<(), _>::to("safe")
                            .payload(&value)
                            .partition((i % 3) as i32);
                        pending
                            .push((i, producer.send_result(record).map_err(|(e, _)| e).unwrap()));
                    }
                    for (i, p) in pending {
                        match p.await {
                            Ok(Ok(_)) => acked.lock().unwrap().push(i),
                            Ok(Err((e, _))) => failed.lock().unwrap().push(format!("{i}: {e}")),
                            Err(e) => failed.lock().unwrap().push(format!("{i}: {e}")),
                        }
                    }
                }
            });
        })
    };
    let deadline = Instant::now() + Duration::from_secs(60);
    while acked.lock().unwrap().len() < MESSAGES / 4 {
        assert!(Instant::now() < deadline, "{}", node.log_tail());
        std::thread::park_timeout(Duration::from_millis(20));
    }
    node.kill();
    node.start();
    producer_thread.join().unwrap();
    let failed = failed.lock().unwrap().clone();
    assert!(
        failed.is_empty(),
        "deliveries failed: {:?}",
        &failed[..failed.len().min(5)]
    );
    let acked: HashSet<usize> = acked.lock().unwrap().iter().copied().collect();
    assert_eq!(acked.len(), MESSAGES, "every message acknowledged once");
    // Read everything back: each acknowledged message exactly once, nothing else.
    let consumer: BaseConsumer = ClientConfig::new()
        .set("bootstrap.servers", &bootstrap)
        .set("group.id", "safe-reader")
        .set("auto.offset.reset", "earliest")
        .set("enable.partition.eof", "false")
        .create()
        .unwrap();
    consumer.subscribe(&["safe"]).unwrap();
    let mut seen: HashMap<usize, usize> = HashMap::new();
    let mut total = 0;
    let deadline = Instant::now() + Duration::from_secs(120);
    while total < MESSAGES {
        assert!(
            Instant::now() < deadline,
            "read {total} of {MESSAGES}\n{}",
            node.log_tail()
        );
        if let Some(Ok(m)) = consumer.poll(Duration::from_millis(100)) {
            let v: usize = std::str::from_utf8(m.payload().unwrap())
                .unwrap()
                .parse()
                .unwrap();
            *seen.entry(v).or_default() += 1;
            total += 1;
        }
    }
    // The partitions hold exactly that many records: nothing was stored twice.
    let stored: i64 = (0..PARTITIONS)
        .map(|p| {
            consumer
                .fetch_watermarks("safe", p, Duration::from_secs(10))
                .unwrap()
                .1
        })
        .sum();
    assert_eq!(stored, MESSAGES as i64, "records stored");
    // DescribeProducers: the leader of each partition knows the producer and its sequence.
    let rt = tokio::runtime::Runtime::new().unwrap();
    let described = rt.block_on(common::call(
        &bootstrap,
        fjord_protocol::RequestBody::DescribeProducers(
            fjord_protocol::generated::describe_producers_request::DescribeProducersRequest {
                topics: vec![
                    fjord_protocol::generated::describe_producers_request::TopicRequest {
                        name: "safe".into(),
                        partition_indexes: vec![0, 1, 2],
                        ..Default::default()
                    },
                ],
                ..Default::default()
            },
        ),
        0,
    ));
    let Some(fjord_protocol::ResponseBody::DescribeProducers(d)) = described else {
        panic!("DescribeProducers: {described:?}")
    };
    for p in &d.topics[0].partitions {
        assert_eq!(p.error_code, 0, "{p:?}");
        let latest = p
            .active_producers
            .iter()
            .max_by_key(|s| s.last_timestamp)
            .unwrap_or_else(|| panic!("partition {} has no producer", p.partition_index));
        assert!(
            latest.producer_id >= 0 && latest.last_sequence >= 0,
            "{latest:?}"
        );
    }
    let twice: Vec<usize> = seen
        .iter()
        .filter(|(_, n)| **n > 1)
        .map(|(v, _)| *v)
        .collect();
    assert!(
        twice.is_empty(),
        "stored more than once: {:?}",
        &twice[..twice.len().min(10)]
    );
    assert_eq!(seen.len(), MESSAGES, "every acknowledged message is stored");
}

/// One client sends 12,000 JoinGroups for new members of one group, 500 in flight at a time:
/// the first `group.max.size` (at most 10,000) get MEMBER_ID_REQUIRED with a member id, the
/// rest GROUP_MAX_SIZE_REACHED; meanwhile a librdkafka group on the same node consumes every
/// message, and nothing the storm did stops it.
#[test]
fn a_join_group_storm_is_bounded_and_a_healthy_group_goes_on() {
    use fjord_protocol::generated::join_group_request::{
        JoinGroupRequest, JoinGroupRequestProtocol,
    };
    use fjord_protocol::{ErrorCode, RequestBody, ResponseBody};
    const STORM: usize = 12_000;
    let root = tempfile::tempdir().unwrap();
    let node = node(root.path(), 0);
    let bootstrap = node.broker_addr();
    produce(&node, &bootstrap, "calm", "none", 3_000);
    let storm = {
        let bootstrap = bootstrap.clone();
        std::thread::spawn(move || {
            let rt = tokio::runtime::Runtime::new().unwrap();
            rt.block_on(async {
                let timeout = Duration::from_secs(30);
                let c = Arc::new(
                    fjord_net::client::Client::connect(&bootstrap, timeout)
                        .await
                        .unwrap(),
                );
                let join = |session_timeout_ms: i32| {
                    RequestBody::JoinGroup(JoinGroupRequest {
                        group_id: "storm".into(),
                        session_timeout_ms,
                        rebalance_timeout_ms: 30_000,
                        protocol_type: "consumer".into(),
                        protocols: vec![JoinGroupRequestProtocol {
                            name: "range".into(),
                            ..Default::default()
                        }],
                        ..Default::default()
                    })
                };
                // First the coordinator must exist and be loaded (a client finds it first):
                // a JoinGroup with a session timeout below the minimum is then refused for
                // that reason alone.
                let ready = Instant::now() + Duration::from_secs(60);
                loop {
                    assert!(Instant::now() < ready, "the coordinator never loaded");
                    if let Ok(ResponseBody::JoinGroup(j)) = c.call(join(1), 5, timeout).await {
                        if j.error_code == ErrorCode::InvalidSessionTimeout.code() {
                            break;
                        }
                    }
                    std::thread::park_timeout(Duration::from_millis(50));
                }
                let mut codes: BTreeMap<i16, usize> = BTreeMap::new();
                let mut ids = HashSet::new();
                for _ in 0..STORM / 500 {
                    let mut calls = tokio::task::JoinSet::new();
                    for _ in 0..500 {
                        let (c, body) = (c.clone(), join(30_000));
                        calls.spawn(async move { c.call(body, 5, timeout).await });
                    }
                    while let Some(r) = calls.join_next().await {
                        match r.unwrap() {
                            Ok(ResponseBody::JoinGroup(j)) => {
                                *codes.entry(j.error_code).or_default() += 1;
                                if j.error_code == ErrorCode::MemberIdRequired.code() {
                                    assert!(ids.insert(j.member_id), "a member id given twice");
                                }
                            }
                            other => panic!("{other:?}"),
                        }
                    }
                }
                codes
            })
        })
    };
    // The healthy group, while the storm runs.
    let received: Received = Arc::default();
    let stop = Arc::new(AtomicBool::new(false));
    let t = spawn_consumer(&bootstrap, "calm-g", "calm", received.clone(), stop.clone());
    wait_received(
        &node,
        &received,
        3_000,
        Instant::now() + Duration::from_secs(120),
    );
    stop.store(true, Ordering::SeqCst);
    t.join().unwrap();
    let codes = storm.join().unwrap();
    assert_eq!(
        codes.get(&ErrorCode::MemberIdRequired.code()),
        Some(&10_000),
        "{codes:?}"
    );
    assert_eq!(
        codes.get(&ErrorCode::GroupMaxSizeReached.code()),
        Some(&2_000),
        "{codes:?}"
    );
    let distinct: HashSet<usize> = received
        .lock()
        .unwrap()
        .iter()
        .map(|(_, _, v)| *v)
        .collect();
    assert_eq!(distinct.len(), 3_000);
}
