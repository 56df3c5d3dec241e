//! Consumer groups against a release node with librdkafka, classic and KIP-848:
//! - join latency: a new group's first member, from `subscribe` to its assignment callback,
//!   with `group.initial.rebalance.delay.ms=0` (the goal: within 100 ms) and with Kafka's
//!   default 3000 (the delay applies once: about 3 s, not 6); and a tenth member joining nine
//!   (members heartbeat every 100 ms, so they learn of the rebalance at once);
//! - rebalance time with 50 members: a 51st joins a group of 50 on 64 partitions, timed
//!   until every member owns partitions again and each partition has one owner; eager
//!   (`range`) and cooperative (`cooperative-sticky`);
//! - the same with `group.protocol=consumer` (the coordinator assigns with `uniform`), with the
//!   broker's heartbeat interval at 100 ms like the classic members' (Kafka's default is
//!   5 s, which a member waits between learning of a new assignment and acting on it).
//!
//! Run: `cargo bench -p fjord-benches --bench groups` (it builds the release `fjord` first);
//! `FJORD_GROUP_ROUNDS` sets the rounds of each figure (default 5; the median is reported).

use fjord_benches::SingleNode;
use rdkafka::client::ClientContext;
use rdkafka::config::ClientConfig;
use rdkafka::consumer::{BaseConsumer, Consumer, ConsumerContext, Rebalance};
use std::collections::BTreeSet;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// The partitions of the topic the groups read.
const PARTITIONS: i32 = 64;
/// The strategy name that means the KIP-848 protocol.
const CONSUMER: &str = "consumer";
/// The broker keys of the KIP-848 runs: heartbeats every 100 ms, as the classic members'.
const FAST_HEARTBEATS: &str = "group.consumer.min.heartbeat.interval.ms=100\n\
     group.consumer.heartbeat.interval.ms=100\ngroup.initial.rebalance.delay.ms=0";
/// How long any one join or rebalance may take before the bench gives up.
const LIMIT: Duration = Duration::from_secs(60);

/// A member's assignment as its callbacks build it, and when its first assignment came.
#[derive(Clone, Default)]
struct Owned(Arc<Mutex<(BTreeSet<i32>, Option<Instant>)>>);

impl ClientContext for Owned {}

impl ConsumerContext for Owned {
    fn pre_rebalance(&self, _: &BaseConsumer<Self>, rebalance: &Rebalance<'_>) {
        let mut o = self.0.lock().unwrap();
        match rebalance {
            Rebalance::Assign(tpl) => {
                o.0.extend(tpl.elements().iter().map(|e| e.partition()));
                o.1.get_or_insert_with(Instant::now);
            }
            Rebalance::Revoke(tpl) => {
                for e in tpl.elements() {
                    o.0.remove(&e.partition());
                }
            }
            Rebalance::Error(e) => panic!("rebalance error: {e}"),
        }
    }
}

/// A group member polling on its own thread until dropped.
struct Member {
    owned: Owned,
    stop: Arc<AtomicBool>,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl Member {
    /// A member of `group`: classic with the `strategy` assignor, or (strategy `consumer`)
    /// a KIP-848 member.
    fn join(bootstrap: &str, group: &str, strategy: &str) -> Member {
        let owned = Owned::default();
        let mut config = ClientConfig::new();
        config
            .set("bootstrap.servers", bootstrap)
            .set("group.id", group)
            .set("enable.auto.commit", "false");
        if strategy == CONSUMER {
            config.set("group.protocol", "consumer");
        } else {
            config
                .set("partition.assignment.strategy", strategy)
                .set("session.timeout.ms", "30000")
                .set("heartbeat.interval.ms", "100");
        }
        let consumer: BaseConsumer<Owned> = config.create_with_context(owned.clone()).unwrap();
        consumer.subscribe(&["groups"]).unwrap();
        let stop = Arc::new(AtomicBool::new(false));
        let stopped = stop.clone();
        let thread = std::thread::spawn(move || {
            while !stopped.load(Ordering::SeqCst) {
                let _ = consumer.poll(Duration::from_millis(20));
            }
        });
        Member {
            owned,
            stop,
            thread: Some(thread),
        }
    }

    fn partitions(&self) -> BTreeSet<i32> {
        self.owned.0.lock().unwrap().0.clone()
    }

    fn first_assigned(&self) -> Option<Instant> {
        self.owned.0.lock().unwrap().1
    }
}

impl Drop for Member {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::SeqCst);
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

/// Waits until `f` holds; when it began holding, measured from `from`.
fn until(from: Instant, what: &str, mut f: impl FnMut() -> bool) -> Duration {
    while !f() {
        assert!(from.elapsed() < LIMIT, "{what}: not within {LIMIT:?}");
        std::thread::sleep(Duration::from_millis(1));
    }
    from.elapsed()
}

/// True when every member owns a partition and each partition has exactly one owner.
fn settled(members: &[Member]) -> bool {
    let owned: Vec<BTreeSet<i32>> = members.iter().map(Member::partitions).collect();
    owned.iter().all(|o| !o.is_empty())
        && owned.iter().map(BTreeSet::len).sum::<usize>() == PARTITIONS as usize
        && owned.iter().flatten().collect::<BTreeSet<_>>().len() == PARTITIONS as usize
}

fn median(mut v: Vec<Duration>) -> Duration {
    v.sort();
    v[v.len() / 2]
}

fn ms(d: Duration) -> String {
    format!("{:.1} ms", d.as_secs_f64() * 1000.0)
}

/// A new group's first member: subscribe to assignment.
fn first_member(node: &SingleNode, rounds: usize, tag: &str, strategy: &str) -> Duration {
    let times = (0..rounds)
        .map(|i| {
            let started = Instant::now();
            let m = Member::join(&node.bootstrap, &format!("first-{tag}-{i}"), strategy);
            until(started, "the first member", || m.first_assigned().is_some());
            m.first_assigned().unwrap() - started
        })
        .collect();
    median(times)
}

/// The tenth member joining nine: subscribe to its assignment, and until the group settled.
fn tenth_member(node: &SingleNode, rounds: usize, strategy: &str) -> (Duration, Duration) {
    let (mut own, mut all) = (Vec::new(), Vec::new());
    for i in 0..rounds {
        let group = format!("tenth-{strategy}-{i}");
        let mut members: Vec<Member> = (0..9)
            .map(|_| Member::join(&node.bootstrap, &group, strategy))
            .collect();
        until(Instant::now(), "nine members", || settled(&members));
        let started = Instant::now();
        members.push(Member::join(&node.bootstrap, &group, strategy));
        let tenth = until(started, "the tenth member", || {
            members[9].first_assigned().is_some()
        });
        own.push(tenth);
        all.push(until(started, "ten members", || settled(&members)));
    }
    (median(own), median(all))
}

/// A 51st member joining 50: until every member owns partitions again.
fn rebalance_of_fifty(node: &SingleNode, rounds: usize, strategy: &str) -> Duration {
    let times = (0..rounds)
        .map(|i| {
            let group = format!("fifty-{strategy}-{i}");
            let mut members: Vec<Member> = (0..50)
                .map(|_| Member::join(&node.bootstrap, &group, strategy))
                .collect();
            until(Instant::now(), "fifty members", || settled(&members));
            let started = Instant::now();
            members.push(Member::join(&node.bootstrap, &group, strategy));
            until(started, "fifty-one members", || settled(&members))
        })
        .collect();
    median(times)
}

fn main() {
    let bin = fjord_benches::release_fjord();
    let rounds: usize = std::env::var("FJORD_GROUP_ROUNDS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(5);
    let node = SingleNode::start(&bin, "num.partitions=64");
    node.create_topic("groups", PARTITIONS);
    println!("classic group, one node, librdkafka, median of {rounds}");
    println!(
        "  first member, initial delay 0:      {}",
        ms(first_member(&node, rounds, "nodelay", "range"))
    );
    let (own, all) = tenth_member(&node, rounds, "range");
    println!("  tenth member assigned:               {}", ms(own));
    println!("  ten members settled:                 {}", ms(all));
    for strategy in ["range", "cooperative-sticky"] {
        println!(
            "  51st joins 50 ({strategy}): settled in {}",
            ms(rebalance_of_fifty(&node, rounds.min(3), strategy))
        );
    }
    drop(node);
    let delayed = SingleNode::start(&bin, "group.initial.rebalance.delay.ms=3000");
    delayed.create_topic("groups", PARTITIONS);
    println!(
        "  first member, initial delay 3000:   {}",
        ms(first_member(&delayed, rounds.min(3), "delay", "range"))
    );
    drop(delayed);
    let modern = SingleNode::start(&bin, FAST_HEARTBEATS);
    modern.create_topic("groups", PARTITIONS);
    println!("consumer group (KIP-848), one node, librdkafka, heartbeats every 100 ms");
    println!(
        "  first member:                        {}",
        ms(first_member(&modern, rounds, "modern", CONSUMER))
    );
    let (own, all) = tenth_member(&modern, rounds, CONSUMER);
    println!("  tenth member assigned:               {}", ms(own));
    println!("  ten members settled:                 {}", ms(all));
    println!(
        "  51st joins 50: settled in {}",
        ms(rebalance_of_fifty(&modern, rounds.min(3), CONSUMER))
    );
}
