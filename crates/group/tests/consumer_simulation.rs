//! The KIP-848 coordinator (a whole [`Shard`] serving ConsumerGroupHeartbeat) over seeded
//! random histories: up to six clients join (some static, some by regular expression), leave,
//! leave for a while and come back, crash, and lose answers; topics are created and grow;
//! the clock moves and deadlines fire; now and then the coordinator fails over (a new shard
//! loads the records written so far).
//!
//! The oracles are independent of the coordinator's code:
//! - the clients' own view: no partition is ever consumed by two clients at once, counting
//!   only clients that heard from the coordinator within their lease (the shorter of the
//!   session and rebalance timeouts; a client that did not is expired by the coordinator
//!   and may not commit);
//! - the log: a shard that replays every record written (encoded and decoded in Kafka's
//!   layout) holds exactly the groups the serving shard holds;
//! - convergence: once the chaos stops and every live client heartbeats, every subscribed
//!   partition is consumed by exactly one client and the group is Stable.
//!
//! `FJORD_SIM_SEEDS` sets the seeds (default 100).

mod common;

use common::{held_once, Owned, Topics};
use fjord_group::records::GroupRecord;
use fjord_group::{GroupConfig, RequestContext, Shard};
use fjord_protocol::generated::consumer_group_heartbeat_request::{
    ConsumerGroupHeartbeatRequest, TopicPartitions,
};
use fjord_protocol::generated::consumer_group_heartbeat_response::ConsumerGroupHeartbeatResponse;
use fjord_protocol::{ErrorCode, ResponseBody, Uuid};
use fjord_util::SimRng;
use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;

const GROUP: &str = "sim";
const SESSION_MS: i64 = 45_000;
const REBALANCE_MS: i32 = 30_000;
/// A client's ownership counts while it heard from the coordinator this recently.
const LEASE_MS: i64 = 30_000;
/// A live client heartbeats at least this often (the chaos may still lose its answers).
const FORCED_HEARTBEAT_MS: i64 = 10_000;

fn trace(f: impl FnOnce() -> String) {
    if std::env::var("FJORD_SIM_SEED").is_ok() {
        println!("{}", f());
    }
}

fn seeds() -> u64 {
    std::env::var("FJORD_SIM_SEEDS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(100)
}

/// One client as a KIP-848 consumer behaves.
#[derive(Debug, Clone)]
struct Client {
    member_id: String,
    instance_id: Option<String>,
    names: Vec<String>,
    regex: Option<String>,
    epoch: i32,
    owned: Owned,
    /// When it last heard an answer (its lease).
    last_ok: i64,
    /// When it last sent a heartbeat.
    last_sent: i64,
    /// Its next heartbeat is a full one (joining, or after a lost answer).
    full: bool,
    /// It gave partitions up and tells the coordinator at once (as librdkafka does).
    ack: bool,
    alive: bool,
}

struct Sim {
    rng: SimRng,
    shard: Shard,
    topics: Topics,
    log: Vec<(bytes::Bytes, Option<bytes::Bytes>)>,
    clients: Vec<Client>,
    now: i64,
    token: u64,
    next_client: u32,
    /// The id of the last topic created.
    next_topic: u128,
    /// How often each interesting thing happened (the run must reach them all).
    seen: BTreeMap<&'static str, u64>,
}

fn config() -> GroupConfig {
    GroupConfig {
        consumer_session_timeout_ms: SESSION_MS as i32,
        ..GroupConfig::default()
    }
}

impl Sim {
    fn new(seed: u64) -> Sim {
        let mut topics = Topics::default();
        topics.by_name.insert("a".into(), (1, 4));
        topics.by_name.insert("b".into(), (2, 3));
        topics.by_name.insert("re-1".into(), (3, 2));
        Sim {
            rng: SimRng::new(seed),
            shard: Shard::new(config(), seed),
            topics,
            log: Vec::new(),
            clients: Vec::new(),
            now: 1_000_000,
            token: 0,
            next_client: 0,
            next_topic: 10,
            seen: BTreeMap::new(),
        }
    }

    fn write(&mut self, records: Vec<GroupRecord>) {
        for r in records {
            self.log.push(r.encode());
        }
    }

    fn new_client(&mut self) -> Client {
        self.next_client += 1;
        let n = self.next_client;
        let static_member = self.rng.percent(40);
        let (names, regex) = match self.rng.below(3) {
            0 => (vec!["a".to_string()], None),
            1 => (vec!["a".to_string(), "b".to_string()], None),
            _ => (Vec::new(), Some("re-.*".to_string())),
        };
        Client {
            member_id: format!("member-{n}"),
            instance_id: static_member.then(|| format!("instance-{n}")),
            names,
            regex,
            epoch: 0,
            owned: Owned::new(),
            last_ok: self.now,
            last_sent: self.now,
            full: true,
            ack: false,
            alive: true,
        }
    }

    fn request(&self, c: &Client, epoch: i32) -> ConsumerGroupHeartbeatRequest {
        let full = c.full || epoch == 0;
        ConsumerGroupHeartbeatRequest {
            group_id: GROUP.into(),
            member_id: c.member_id.clone(),
            member_epoch: epoch,
            instance_id: c.instance_id.clone(),
            rebalance_timeout_ms: if full { REBALANCE_MS } else { -1 },
            subscribed_topic_names: full.then(|| c.names.clone()),
            subscribed_topic_regex: if full { c.regex.clone() } else { None },
            topic_partitions: Some(
                c.owned
                    .iter()
                    .map(|(t, ps)| TopicPartitions {
                        topic_id: Uuid::from_u128(*t),
                        partitions: ps.iter().copied().collect(),
                        ..Default::default()
                    })
                    .collect(),
            ),
            ..Default::default()
        }
    }

    /// Sends one heartbeat; the answer is returned unless it is lost.
    fn send(
        &mut self,
        r: &ConsumerGroupHeartbeatRequest,
        lose: bool,
    ) -> Option<ConsumerGroupHeartbeatResponse> {
        self.token += 1;
        let ctx = RequestContext {
            token: self.token,
            version: 1,
            client_id: "sim".into(),
            client_host: "/127.0.0.1".into(),
        };
        let out = self
            .shard
            .consumer_heartbeat(&ctx, r, Arc::new(self.topics.clone()), self.now);
        self.write(out.records);
        let (_, body) = out.replies.into_iter().next().expect("a reply");
        let ResponseBody::ConsumerGroupHeartbeat(resp) = body else {
            panic!("not a heartbeat answer");
        };
        (!lose).then_some(resp)
    }

    fn heartbeat(&mut self, i: usize, lose: bool) {
        let c = self.clients[i].clone();
        let req = self.request(&c, c.epoch);
        self.clients[i].last_sent = self.now;
        let resp = self.send(&req, lose);
        trace(|| {
            format!(
                "{} hb {} e{} owned {:?} lost {lose} -> {:?}",
                self.now,
                c.member_id,
                c.epoch,
                c.owned,
                resp.as_ref().map(|r| (
                    r.error_code,
                    r.member_epoch,
                    r.assignment.as_ref().map(|a| a
                        .topic_partitions
                        .iter()
                        .map(|t| (t.topic_id.as_u128(), t.partitions.clone()))
                        .collect::<Vec<_>>())
                ))
            )
        });
        trace(|| {
            let g = self.shard.consumer_group(GROUP).unwrap();
            format!(
                "    epoch {} target {} current {:?}",
                g.group_epoch(),
                g.assignment_epoch(),
                g.members
                    .keys()
                    .map(|m| (m.clone(), g.reconciled(m), g.target_of(m)))
                    .collect::<Vec<_>>()
            )
        });
        let Some(resp) = resp else {
            *self.seen.entry("lost answer").or_default() += 1;
            self.clients[i].full = true;
            return;
        };
        let c = &mut self.clients[i];
        match ErrorCode::from_code(resp.error_code) {
            Some(ErrorCode::None) => {
                assert!(
                    resp.member_epoch >= c.epoch,
                    "the epoch went back: {} -> {}",
                    c.epoch,
                    resp.member_epoch
                );
                if resp.member_epoch > c.epoch {
                    *self.seen.entry("epoch moved").or_default() += 1;
                }
                c.epoch = resp.member_epoch;
                c.last_ok = self.now;
                c.full = false;
                if let Some(a) = resp.assignment {
                    // Revoke what is gone, then take what is new: it consumes exactly this.
                    let before = c.owned.clone();
                    c.owned = a
                        .topic_partitions
                        .iter()
                        .filter(|t| !t.partitions.is_empty())
                        .map(|t| (t.topic_id.as_u128(), t.partitions.iter().copied().collect()))
                        .collect();
                    c.ack = before.iter().any(|(t, ps)| {
                        ps.iter()
                            .any(|p| !c.owned.get(t).is_some_and(|o| o.contains(p)))
                    });
                }
            }
            Some(ErrorCode::FencedMemberEpoch) | Some(ErrorCode::UnknownMemberId) => {
                // Fenced: it gives everything up and rejoins.
                *self.seen.entry("fenced").or_default() += 1;
                c.owned.clear();
                c.epoch = 0;
                c.full = true;
            }
            Some(ErrorCode::UnreleasedInstanceId) => {
                // Its instance id is still held: it waits and tries again.
                *self.seen.entry("instance id unreleased").or_default() += 1;
                c.full = true;
            }
            other => panic!("unexpected answer {other:?}: {:?}", resp.error_message),
        }
    }

    fn leave(&mut self, i: usize, temporarily: bool) {
        let c = self.clients[i].clone();
        let epoch = if temporarily && c.instance_id.is_some() {
            -2
        } else {
            -1
        };
        let req = self.request(&c, epoch);
        // Now and then the request itself is lost: the session deadline removes the member.
        if !self.rng.percent(10) {
            let _ = self.send(&req, false);
        }
        let c = &mut self.clients[i];
        c.owned.clear();
        c.alive = false;
    }

    fn tick(&mut self) {
        let out = self.shard.tick(self.now);
        self.write(out.records);
    }

    /// The clients whose ownership counts now.
    fn leased(&self) -> impl Iterator<Item = &Client> {
        self.clients
            .iter()
            .filter(|c| c.alive && self.now - c.last_ok < LEASE_MS)
    }

    fn check_no_double_ownership(&self, seed: u64, step: usize) {
        held_once(
            self.leased().map(|c| (c.member_id.as_str(), &c.owned)),
            &format!("seed {seed} step {step}"),
        );
    }

    /// A shard that loads the log.
    fn reload(&self) -> Shard {
        let mut s = Shard::new(config(), 99);
        for (k, v) in &self.log {
            if let Some(r) = GroupRecord::decode(k, v.as_ref()).expect("a record") {
                s.replay(r, self.now);
            }
        }
        s.loaded(self.now);
        s
    }

    fn step(&mut self, seed: u64, step: usize) {
        let live: Vec<usize> = (0..self.clients.len())
            .filter(|i| self.clients[*i].alive)
            .collect();
        // A client that just gave partitions up says so now; a live client that has not sent
        // for a while heartbeats now.
        if let Some(&i) = live.iter().find(|i| {
            let c = &self.clients[**i];
            c.ack || self.now - c.last_sent >= FORCED_HEARTBEAT_MS
        }) {
            self.clients[i].ack = false;
            let lose = self.rng.percent(10);
            self.heartbeat(i, lose);
            return;
        }
        match self.rng.below(100) {
            0..=54 if !live.is_empty() => {
                let i = live[self.rng.below(live.len() as u64) as usize];
                let lose = self.rng.percent(10);
                self.heartbeat(i, lose);
            }
            55..=64 if live.len() < 6 => {
                let c = self.new_client();
                trace(|| {
                    format!(
                        "{} new {} {:?} {:?} {:?}",
                        self.now, c.member_id, c.instance_id, c.names, c.regex
                    )
                });
                self.clients.push(c);
            }
            65..=68 if !live.is_empty() => {
                let i = live[self.rng.below(live.len() as u64) as usize];
                let temporarily = self.rng.percent(50);
                trace(|| {
                    format!(
                        "{} leave {} temporarily {temporarily}",
                        self.now, self.clients[i].member_id
                    )
                });
                self.leave(i, temporarily);
                if temporarily && self.clients[i].instance_id.is_some() {
                    // It comes back later under a new member id.
                    *self.seen.entry("static member back").or_default() += 1;
                    let mut back = self.clients[i].clone();
                    back.member_id = format!("{}-back{step}", back.member_id);
                    back.epoch = 0;
                    back.full = true;
                    back.alive = true;
                    back.last_ok = self.now;
                    back.last_sent = self.now;
                    self.clients.push(back);
                }
            }
            69..=70 if !live.is_empty() => {
                // A crash: it stops consuming and says nothing.
                let i = live[self.rng.below(live.len() as u64) as usize];
                trace(|| format!("{} crash {}", self.now, self.clients[i].member_id));
                self.clients[i].alive = false;
                self.clients[i].owned.clear();
            }
            71..=72 => {
                // A topic grows, a new one matches the regular expression, or one is deleted.
                match self.rng.below(3) {
                    0 => {
                        let e = self.topics.by_name.get_mut("a").expect("a");
                        if e.1 < 8 {
                            e.1 += 1;
                        }
                    }
                    1 => {
                        if self.topics.by_name.len() < 8 {
                            self.next_topic += 1;
                            let n = self.next_topic;
                            self.topics.by_name.insert(format!("re-{n}"), (n, 2));
                        }
                    }
                    _ => {
                        let names: Vec<String> = self
                            .topics
                            .by_name
                            .keys()
                            .filter(|n| *n != "a")
                            .cloned()
                            .collect();
                        if let Some(name) =
                            names.get(self.rng.below(names.len().max(1) as u64) as usize)
                        {
                            self.topics.by_name.remove(name);
                            *self.seen.entry("topic deleted").or_default() += 1;
                        }
                    }
                }
                self.topics.stamp += 1;
                *self.seen.entry("topics changed").or_default() += 1;
                trace(|| format!("{} topics {:?}", self.now, self.topics.by_name));
            }
            73 => {
                // Fail-over: a new coordinator loads the log.
                *self.seen.entry("fail-over").or_default() += 1;
                trace(|| format!("{} fail-over", self.now));
                let reloaded = self.reload();
                assert_eq!(
                    reloaded.consumer_groups(),
                    self.shard.consumer_groups(),
                    "seed {seed} step {step}: the log's fold differs from the state"
                );
                self.shard = reloaded;
            }
            _ => {
                self.now += self.rng.below(4_000) as i64;
                self.tick();
            }
        }
    }

    /// Stops the chaos: every live client heartbeats until nothing moves.
    fn settle(&mut self, seed: u64) {
        for _ in 0..40 {
            let live: Vec<usize> = (0..self.clients.len())
                .filter(|i| self.clients[*i].alive)
                .collect();
            for i in live {
                self.heartbeat(i, false);
                self.check_no_double_ownership(seed, usize::MAX);
            }
            self.now += 1_000;
            self.tick();
        }
    }
}

fn run(seed: u64, seen: &mut BTreeMap<&'static str, u64>) {
    let mut sim = Sim::new(seed);
    let steps = 150 + sim.rng.below(150) as usize;
    for step in 0..steps {
        sim.step(seed, step);
        sim.check_no_double_ownership(seed, step);
    }
    // Members that crashed or left for a while are expired first.
    sim.now += SESSION_MS + 1;
    sim.tick();
    sim.settle(seed);
    let reloaded = sim.reload();
    assert_eq!(
        reloaded.consumer_groups(),
        sim.shard.consumer_groups(),
        "seed {seed}: the log's fold differs from the state"
    );
    for (k, v) in &sim.seen {
        *seen.entry(k).or_default() += v;
    }
    let live: Vec<&Client> = sim.clients.iter().filter(|c| c.alive).collect();
    if live.is_empty() {
        return;
    }
    // Every subscribed partition is consumed by exactly one live client.
    let mut wanted: BTreeSet<(u128, i32)> = BTreeSet::new();
    for c in &live {
        for (name, (id, count)) in &sim.topics.by_name {
            let by_regex = c.regex.as_ref().is_some_and(|r| {
                regex::Regex::new(&format!("^(?:{r})$"))
                    .unwrap()
                    .is_match(name)
            });
            if c.names.contains(name) || by_regex {
                wanted.extend((0..*count).map(|p| (*id, p)));
            }
        }
    }
    let got = held_once(
        live.iter().map(|c| (c.member_id.as_str(), &c.owned)),
        &format!("seed {seed}"),
    );
    assert_eq!(got, wanted, "seed {seed}: not every partition is consumed");
    let g = sim.shard.consumer_group(GROUP).expect("the group");
    assert_eq!(g.state_name(), "Stable", "seed {seed}");
    assert_eq!(g.members.len(), live.len(), "seed {seed}: members");
}

#[test]
fn no_partition_is_consumed_twice_and_the_group_converges() {
    let mut seen = BTreeMap::new();
    if let Some(seed) = std::env::var("FJORD_SIM_SEED")
        .ok()
        .and_then(|s| s.parse().ok())
    {
        run(seed, &mut seen);
        return;
    }
    for seed in 0..seeds() {
        run(seed, &mut seen);
    }
    for what in [
        "lost answer",
        "epoch moved",
        "fenced",
        "instance id unreleased",
        "static member back",
        "topics changed",
        "topic deleted",
        "fail-over",
    ] {
        assert!(
            seen.get(what).copied().unwrap_or(0) > 0,
            "never: {what} ({seen:?})"
        );
    }
    println!("{seen:?}");
}
