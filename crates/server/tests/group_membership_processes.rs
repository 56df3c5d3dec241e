//! Consumer groups as librdkafka uses them, on a real node: a static member (KIP-345) that
//! restarts gets its partitions back while the other member sees no revoke; six
//! cooperative-sticky members (KIP-429), and six KIP-848 members, join and leave one at a time
//! on 12 partitions while a producer runs, and every acknowledged record is consumed exactly
//! once by one member (its own client may hand it a record again at its rebalance: bounded,
//! counted); a producer to an invalid topic name fails at once with INVALID_TOPIC_EXCEPTION. The
//! group coordinator's metrics count the group and its rebalances.

mod common;

use common::{create, Node};
use rdkafka::client::ClientContext;
use rdkafka::config::ClientConfig;
use rdkafka::consumer::{BaseConsumer, CommitMode, Consumer, ConsumerContext, Rebalance};
use rdkafka::error::KafkaError;
use rdkafka::message::Message;
use rdkafka::producer::{FutureProducer, FutureRecord};
use rdkafka::types::RDKafkaErrorCode;
use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// How long a whole scenario may take before the test fails.
const DEADLINE: Duration = Duration::from_secs(180);
/// The members' `max.poll.interval.ms`: no rebalance may take longer.
const MAX_POLL_INTERVAL_MS: u64 = 20_000;

/// One rebalance callback a member saw, and when.
#[derive(Debug, Clone)]
enum Event {
    Assigned(Instant, Vec<i32>),
    Revoked(Instant, Vec<i32>),
}

/// A consumer context that records the member's rebalance callbacks and, before partitions
/// are revoked, commits what the member consumed (so their next owner starts after it).
#[derive(Clone, Default)]
struct Watch {
    events: Arc<Mutex<Vec<Event>>>,
    /// The member's number in its test.
    number: usize,
}

impl Watch {
    /// The partitions the member owns now (eager: the last assignment; cooperative: what was
    /// added minus what was revoked).
    fn owned(&self) -> BTreeSet<i32> {
        let mut owned = BTreeSet::new();
        for e in self.events.lock().unwrap().iter() {
            match e {
                Event::Assigned(_, p) => owned.extend(p.iter().copied()),
                Event::Revoked(_, p) => {
                    for x in p {
                        owned.remove(x);
                    }
                }
            }
        }
        owned
    }

    fn count(&self) -> usize {
        self.events.lock().unwrap().len()
    }
}

fn partitions(tpl: &rdkafka::TopicPartitionList) -> Vec<i32> {
    tpl.elements().iter().map(|e| e.partition()).collect()
}

impl ClientContext for Watch {
    /// The client's log lines, to the test's output (with `RDDEBUG`, its debug lines too).
    fn log(&self, _: rdkafka::config::RDKafkaLogLevel, fac: &str, log_message: &str) {
        eprintln!("member {} rdkafka {fac}: {log_message}", self.number);
    }
}

impl ConsumerContext for Watch {
    fn pre_rebalance(&self, consumer: &BaseConsumer<Self>, rebalance: &Rebalance<'_>) {
        let event = match rebalance {
            Rebalance::Assign(tpl) => Event::Assigned(Instant::now(), partitions(tpl)),
            Rebalance::Revoke(tpl) => {
                let _ = consumer.commit_consumer_state(CommitMode::Sync);
                Event::Revoked(Instant::now(), partitions(tpl))
            }
            Rebalance::Error(e) => panic!("rebalance error: {e}"),
        };
        self.events.lock().unwrap().push(event);
    }
}

/// One record a member polled.
#[derive(Debug, Clone, Copy)]
struct Read {
    partition: i32,
    offset: i64,
    /// The record's value: the producer's sequence number.
    value: u64,
    /// The member's number.
    member: usize,
    at: Instant,
}

/// The records the members polled, in the order they polled them.
type Received = Arc<Mutex<Vec<Read>>>;

/// The most records a member's own client may hand it again at one of its rebalances. When a
/// rebalance starts, librdkafka pauses the member's partitions at the position it last handed
/// out and resumes them from there; a record the application polled in that instant is
/// fetched and handed out again (librdkafka's pause/resume race, confluentinc/librdkafka#2593).
/// Such a record is read twice by the member that owns its partition throughout, never by
/// two members, and nothing the broker does causes or prevents it.
const CLIENT_REWIND_MAX: i64 = 10;

/// Numbers the members a test starts, in order (0, 1, ...), for its failure reports.
static MEMBERS: AtomicUsize = AtomicUsize::new(0);

/// A member of `group` polling `topic` on its own thread until `stop`: it commits what it
/// consumed and closes (a static member does not leave the group on close).
struct Member {
    watch: Watch,
    stop: Arc<AtomicBool>,
    thread: std::thread::JoinHandle<()>,
}

impl Member {
    fn start(
        bootstrap: &str,
        group: &str,
        topic: &str,
        extra: &[(&str, &str)],
        received: Received,
    ) -> Member {
        let watch = Watch {
            number: MEMBERS.fetch_add(1, Ordering::SeqCst),
            ..Watch::default()
        };
        let mut config = ClientConfig::new();
        config
            .set("bootstrap.servers", bootstrap)
            .set("group.id", group)
            .set("auto.offset.reset", "earliest")
            .set("enable.auto.commit", "true")
            // Offsets are stored once a record is recorded: the records the client drains
            // when it closes are never stored, so never committed.
            .set("enable.auto.offset.store", "false")
            .set("auto.commit.interval.ms", "500")
            .set("max.poll.interval.ms", MAX_POLL_INTERVAL_MS.to_string());
        // A KIP-848 member's session and heartbeat are the broker's to choose.
        if !extra.contains(&("group.protocol", "consumer")) {
            config
                .set("session.timeout.ms", "15000")
                .set("heartbeat.interval.ms", "500");
        }
        for (k, v) in extra {
            config.set(*k, *v);
        }
        // The client's warnings (failed commits, offset resets and why) go to the test's
        // output; RDDEBUG=cgrp,fetch (librdkafka's debug contexts) prints its own account too.
        config.set_log_level(rdkafka::config::RDKafkaLogLevel::Warning);
        if let Ok(d) = std::env::var("RDDEBUG") {
            config.set("debug", d);
            config.set_log_level(rdkafka::config::RDKafkaLogLevel::Debug);
        }
        let consumer: BaseConsumer<Watch> = config.create_with_context(watch.clone()).unwrap();
        consumer.subscribe(&[topic]).unwrap();
        let stop = Arc::new(AtomicBool::new(false));
        let stopped = stop.clone();
        let number = watch.number;
        let thread = std::thread::spawn(move || {
            while !stopped.load(Ordering::SeqCst) {
                match consumer.poll(Duration::from_millis(100)) {
                    Some(Ok(m)) => {
                        let value = std::str::from_utf8(m.payload().unwrap_or_default())
                            .unwrap()
                            .parse()
                            .unwrap_or(u64::MAX);
                        received.lock().unwrap().push(Read {
                            partition: m.partition(),
                            offset: m.offset(),
                            value,
                            member: number,
                            at: Instant::now(),
                        });
                        consumer.store_offset_from_message(&m).unwrap();
                    }
                    Some(Err(e)) => eprintln!("consumer: {e}"),
                    None => {}
                }
            }
            let _ = consumer.commit_consumer_state(CommitMode::Sync);
        });
        Member {
            watch,
            stop,
            thread,
        }
    }

    /// Stops polling, commits and closes the consumer.
    fn close(self) -> Watch {
        self.stop.store(true, Ordering::SeqCst);
        self.thread.join().unwrap();
        self.watch
    }
}

/// Waits (up to the deadline) until `f` holds, with `what` and the node's log in the failure.
fn wait_until(node: &Node, deadline: Instant, what: &str, mut f: impl FnMut() -> bool) {
    while !f() {
        assert!(Instant::now() < deadline, "{what}\n{}", node.log_tail());
        std::thread::park_timeout(Duration::from_millis(50));
    }
}

fn node(root: &std::path::Path) -> Node {
    Node::single(
        root,
        0,
        "offsets.topic.replication.factor=1\ngroup.initial.rebalance.delay.ms=0",
    )
}

#[test]
fn a_restarted_static_member_gets_its_partitions_back_and_the_other_sees_no_revoke() {
    let root = tempfile::tempdir().unwrap();
    let node = node(root.path());
    let bootstrap = node.broker_addr();
    create(&bootstrap, "static", "1,1,1,1", &[]);
    let deadline = Instant::now() + DEADLINE;
    let received = Received::default();
    let start = |instance: &str| {
        Member::start(
            &bootstrap,
            "static-group",
            "static",
            &[("group.instance.id", instance)],
            received.clone(),
        )
    };
    let a = start("a");
    let b = start("b");
    wait_until(
        &node,
        deadline,
        "both static members own two partitions",
        || a.watch.owned().len() == 2 && b.watch.owned().len() == 2,
    );
    // Each restarts in turn (one of them leads the group): the one restarting closes (a
    // static member sends no LeaveGroup) and a new process takes its instance id.
    let (mut stays, mut restarts) = (a, b);
    for instance in ["b", "a"] {
        let owned = restarts.watch.owned();
        let seen = stays.watch.count();
        restarts.close();
        let back = start(instance);
        wait_until(
            &node,
            deadline,
            &format!("restarted {instance} is assigned"),
            || !back.watch.owned().is_empty(),
        );
        assert_eq!(
            back.watch.owned(),
            owned,
            "{instance} gets back what it had"
        );
        // A rebalance would have revoked the other's partitions before the restarted member
        // could be assigned anything.
        let after: Vec<Event> = stays.watch.events.lock().unwrap()[seen..].to_vec();
        assert!(
            after.is_empty(),
            "restarting {instance}, the other member saw {after:?}"
        );
        assert_eq!(stays.watch.owned().len(), 2);
        (stays, restarts) = (back, stays);
    }
    // The group coordinator's metrics, as Kafka names them, count the group and its
    // rebalances.
    let metrics = common::metrics_text(node.metrics_port);
    let value = |series: &str| -> f64 {
        metrics
            .lines()
            .find_map(|l| l.strip_prefix(series)?.trim().parse().ok())
            .unwrap_or_else(|| panic!("no {series} in\n{metrics}"))
    };
    assert_eq!(
        value("kafka_server_group_coordinator_metrics_group_count{protocol=\"classic\"}"),
        1.0
    );
    assert_eq!(
        value("kafka_coordinator_group_groupmetadatamanager_numgroupsstable"),
        1.0
    );
    assert!(value("kafka_server_group_coordinator_metrics_group_completed_rebalance_total") >= 1.0);
    stays.close();
    restarts.close();
}

#[test]
fn six_cooperative_members_joining_and_leaving_consume_every_record_exactly_once() {
    let root = tempfile::tempdir().unwrap();
    let node = node(root.path());
    churn(
        &node,
        &[("partition.assignment.strategy", "cooperative-sticky")],
    );
}

#[test]
fn six_consumer_protocol_members_joining_and_leaving_consume_every_record_exactly_once() {
    let root = tempfile::tempdir().unwrap();
    // The broker asks for heartbeats every 500 ms, as the classic members above send them.
    let node = Node::single(
        root.path(),
        0,
        "offsets.topic.replication.factor=1\ngroup.consumer.min.heartbeat.interval.ms=500\n\
         group.consumer.heartbeat.interval.ms=500",
    );
    churn(&node, &[("group.protocol", "consumer")]);
}

/// Six members of one protocol join one at a time on 12 partitions, then leave one at a time,
/// while an idempotent producer runs: every acknowledged record is consumed exactly once, in
/// order per partition (but for [`CLIENT_REWIND_MAX`]), and no member waits a rebalance longer than `max.poll.interval.ms`.
fn churn(node: &Node, protocol: &[(&str, &str)]) {
    let bootstrap = node.broker_addr();
    let topic = "churn";
    create(&bootstrap, topic, &["1"; 12].join(","), &[]);
    let deadline = Instant::now() + DEADLINE;
    // A producer (acks=all) runs through the whole churn; `acked` counts what it was told.
    let acked = Arc::new(AtomicUsize::new(0));
    let producing = Arc::new(AtomicBool::new(true));
    let producer_thread = {
        let (bootstrap, acked, producing) = (bootstrap.clone(), acked.clone(), producing.clone());
        std::thread::spawn(move || {
            let rt = tokio::runtime::Runtime::new().unwrap();
            let producer: FutureProducer = ClientConfig::new()
                .set("bootstrap.servers", &bootstrap)
                .set("enable.idempotence", "true")
                .set("acks", "all")
                .set("linger.ms", "5")
                .create()
                .unwrap();
            rt.block_on(async {
                let mut next = 0u64;
                while producing.load(Ordering::SeqCst) {
                    let mut batch = Vec::new();
                    for _ in 0..200 {
                        let value = next.to_string();
                        let record = FutureRecord::<(), _>::to("churn")
                            .payload(&value)
                            .partition((next % 12) as i32);
                        batch.push(producer.send_result(record).map_err(|(e, _)| e).unwrap());
                        next += 1;
                    }
                    for p in batch {
                        p.await.unwrap().map_err(|(e, _)| e).expect("acknowledged");
                        acked.fetch_add(1, Ordering::SeqCst);
                    }
                    tokio::time::sleep(Duration::from_millis(20)).await;
                }
            });
        })
    };
    let received = Received::default();
    let mut members: Vec<Member> = Vec::new();
    let mut closed: Vec<Watch> = Vec::new();
    let consumed_more = |received: &Received, node: &Node| {
        let seen = received.lock().unwrap().len();
        wait_until(node, deadline, "the group goes on consuming", || {
            received.lock().unwrap().len() > seen + 500
        });
    };
    for n in 1..=6 {
        let joined = Instant::now();
        members.push(Member::start(
            &bootstrap,
            "churn-group",
            topic,
            protocol,
            received.clone(),
        ));
        wait_until(node, deadline, &format!("member {n} is assigned"), || {
            !members.last().unwrap().watch.owned().is_empty()
        });
        assert!(
            joined.elapsed() < Duration::from_millis(MAX_POLL_INTERVAL_MS),
            "member {n} waited {:?} for its partitions",
            joined.elapsed()
        );
        // Every partition is owned by exactly one member once the rebalance settles.
        wait_until(
            node,
            deadline,
            &format!("{n} members share the 12 partitions"),
            || {
                let owned: Vec<BTreeSet<i32>> = members.iter().map(|m| m.watch.owned()).collect();
                owned.iter().map(BTreeSet::len).sum::<usize>() == 12
                    && owned.iter().flatten().collect::<BTreeSet<_>>().len() == 12
            },
        );
        consumed_more(&received, node);
        eprintln!("{n} members after {:?}", (deadline - DEADLINE).elapsed());
    }
    while members.len() > 1 {
        closed.push(members.remove(0).close());
        let left = members.len();
        wait_until(
            node,
            deadline,
            &format!("{left} members take over the 12 partitions"),
            || members.iter().map(|m| m.watch.owned().len()).sum::<usize>() == 12,
        );
        consumed_more(&received, node);
        eprintln!("{left} members after {:?}", (deadline - DEADLINE).elapsed());
    }
    producing.store(false, Ordering::SeqCst);
    producer_thread.join().unwrap();
    let total = acked.load(Ordering::SeqCst);
    // Until the last member has read as many records as were acknowledged (what is missing is
    // then reported below, by partition).
    while received.lock().unwrap().len() < total && Instant::now() < deadline {
        std::thread::park_timeout(Duration::from_millis(50));
    }
    closed.push(members.remove(0).close());
    // Under KIP-429 and KIP-848 a member keeps its other partitions through a rebalance, and
    // no member waited longer than max.poll.interval.ms between a revoke and its next assign.
    for (i, w) in closed.iter().enumerate() {
        let events = w.events.lock().unwrap();
        let mut revoked_at = None;
        for e in events.iter() {
            match e {
                Event::Revoked(at, _) => revoked_at = Some(*at),
                Event::Assigned(at, _) => {
                    if let Some(r) = revoked_at.take() {
                        let took = at.duration_since(r);
                        assert!(
                            took < Duration::from_millis(MAX_POLL_INTERVAL_MS),
                            "member {i}: a rebalance took {took:?}"
                        );
                    }
                }
            }
        }
    }
    let received = received.lock().unwrap();
    let seen = read_once_in_order(&received, &closed, deadline - DEADLINE, node);
    let missing: Vec<u64> = (0..total as u64).filter(|v| !seen.contains(v)).collect();
    let mut by_partition: BTreeMap<u64, Vec<u64>> = BTreeMap::new();
    for v in &missing {
        by_partition.entry(v % 12).or_default().push(*v);
    }
    let in_log = if missing.is_empty() {
        0
    } else {
        let c: BaseConsumer = ClientConfig::new()
            .set("bootstrap.servers", &bootstrap)
            .set("group.id", "reader")
            .set("enable.auto.commit", "false")
            .create()
            .unwrap();
        let mut tpl = rdkafka::TopicPartitionList::new();
        for p in 0..12 {
            tpl.add_partition_offset(topic, p, rdkafka::Offset::Beginning)
                .unwrap();
        }
        c.assign(&tpl).unwrap();
        let mut all = std::collections::HashSet::new();
        let until = Instant::now() + Duration::from_secs(20);
        while Instant::now() < until && all.len() < total {
            if let Some(Ok(m)) = c.poll(Duration::from_millis(100)) {
                all.insert(
                    std::str::from_utf8(m.payload().unwrap())
                        .unwrap()
                        .parse::<u64>()
                        .unwrap(),
                );
            }
        }
        missing.iter().filter(|v| all.contains(v)).count()
    };
    assert!(
        missing.is_empty(),
        "{} of {total} acknowledged records never consumed ({in_log} of them in the log): {:?}\n{}",
        missing.len(),
        by_partition
            .iter()
            .map(|(p, v)| (p, v.len(), v[0], v[v.len() - 1]))
            .collect::<Vec<_>>(),
        node.log_tail()
    );
}

/// Checks that each record was read once, in order per partition, with one exception: a member
/// may be handed again up to [`CLIENT_REWIND_MAX`] records it read just before one of its own
/// rebalance callbacks, of a partition it owned throughout (its client's pause race). Returns
/// the values read, each once; prints how many records the clients handed out again.
fn read_once_in_order(
    received: &[Read],
    members: &[Watch],
    started: Instant,
    node: &Node,
) -> HashSet<u64> {
    let events: HashMap<usize, Vec<Event>> = members
        .iter()
        .map(|w| (w.number, w.events.lock().unwrap().clone()))
        .collect();
    // A callback of `member` after `from` and before `to`, and none revoking `partition`.
    let paused_between = |member: usize, partition: i32, from: Instant, to: Instant| {
        let between: Vec<&Event> = events[&member]
            .iter()
            .filter(|e| {
                let at = match e {
                    Event::Assigned(at, _) | Event::Revoked(at, _) => *at,
                };
                from < at && at < to
            })
            .collect();
        !between.is_empty()
            && !between
                .iter()
                .any(|e| matches!(e, Event::Revoked(_, ps) if ps.contains(&partition)))
    };
    let mut first: HashMap<u64, Read> = HashMap::new();
    let mut last: HashMap<i32, Read> = HashMap::new();
    let mut again = 0;
    for r in received {
        let prior = last.get(&r.partition).copied();
        match (first.get(&r.value), prior) {
            (None, Some(l)) if r.offset <= l.offset => {
                panic!("partition {} went back from {l:?} to {r:?}", r.partition)
            }
            (None, _) => {
                first.insert(r.value, *r);
                last.insert(r.partition, *r);
            }
            (Some(f), Some(l))
                if f.member == r.member
                    && l.member == r.member
                    && (f.partition, f.offset) == (r.partition, r.offset)
                    && l.offset - r.offset < CLIENT_REWIND_MAX
                    && paused_between(r.member, r.partition, f.at, r.at) =>
            {
                again += 1;
            }
            (Some(f), _) => {
                let moves: Vec<String> = members
                    .iter()
                    .flat_map(|w| {
                        events[&w.number].iter().filter_map(move |e| {
                            let (what, at, ps) = match e {
                                Event::Assigned(at, ps) => ("assigned", at, ps),
                                Event::Revoked(at, ps) => ("revoked", at, ps),
                            };
                            ps.contains(&r.partition)
                                .then(|| format!("{:?} member {} {what}", *at - started, w.number))
                        })
                    })
                    .collect();
                // What each member read of the partition: (member, first offset, last
                // offset, records).
                let mut spans: BTreeMap<usize, (i64, i64, usize)> = BTreeMap::new();
                for x in received.iter().filter(|x| x.partition == r.partition) {
                    let s = spans.entry(x.member).or_insert((x.offset, x.offset, 0));
                    s.1 = x.offset;
                    s.2 += 1;
                }
                panic!(
                    "value {} read twice: first {f:?}, then {r:?} (started {started:?}); \
                     partition {}: {moves:?}; read (member: first, last, count): {spans:?}\n{}",
                    r.value,
                    r.partition,
                    node.log_tail()
                );
            }
        }
    }
    eprintln!("{again} records handed again to the member that read them, at its rebalance");
    first.into_keys().collect()
}

#[test]
fn producing_to_an_invalid_topic_name_fails_at_once() {
    let root = tempfile::tempdir().unwrap();
    let node = Node::single(root.path(), 0, "auto.create.topics.enable=true");
    let bootstrap = node.broker_addr();
    let rt = tokio::runtime::Runtime::new().unwrap();
    let producer: FutureProducer = ClientConfig::new()
        .set("bootstrap.servers", &bootstrap)
        .set("message.timeout.ms", "120000")
        .create()
        .unwrap();
    let started = Instant::now();
    let result = rt.block_on(async {
        producer
            .send_result(FutureRecord::<(), _>::to("bad$#!").payload("x"))
            .map_err(|(e, _)| e)
            .unwrap()
            .await
            .unwrap()
    });
    match result {
        Err((KafkaError::MessageProduction(code), _)) => {
            assert_eq!(code, RDKafkaErrorCode::InvalidTopic, "{code:?}")
        }
        other => panic!("{other:?} after {:?}", started.elapsed()),
    }
}
