//! One group over seeded random histories in which clients of both protocols come and go, so
//! the group migrates online between classic and consumer, again and again: classic clients
//! (cooperative, as librdkafka's and Java's `cooperative-sticky` behave, the leader assigning
//! only partitions nobody owns) join, sync, heartbeat and leave; consumer-protocol clients
//! heartbeat; clients crash, answers are lost, a topic grows, deadlines fire, and the
//! coordinator fails over (a new shard loads the records written so far).
//!
//! The oracles are independent of the coordinator's code:
//! - the clients' own view: no partition is consumed by two clients at once, counting only
//!   clients that had a successful answer within their lease (the shortest of the session and
//!   rebalance timeouts);
//! - the log: a shard that replays every record holds the consumer groups the serving one
//!   holds;
//! - convergence: once the chaos stops, every subscribed partition is consumed by exactly one
//!   live client and the group is Stable, whatever kind it ended as.
//!
//! `FJORD_SIM_SEEDS` sets the seeds (default 100); `FJORD_SIM_SEED` traces one.

mod common;

use common::*;
use fjord_group::GroupConfig;
use fjord_protocol::generated::consumer_group_heartbeat_request::{
    ConsumerGroupHeartbeatRequest, TopicPartitions,
};
use fjord_protocol::{ErrorCode, ResponseBody, Uuid};
use fjord_util::SimRng;
use std::collections::{BTreeMap, BTreeSet};

const SESSION_MS: i32 = 30_000;
const REBALANCE_MS: i32 = 20_000;
/// A client's ownership counts while it had a successful answer this recently.
const LEASE_MS: i64 = 20_000;
/// A live client acts at least this often.
const FORCED_MS: i64 = 3_000;
const MAX_CLIENTS: usize = 5;

fn trace(f: impl FnOnce() -> String) {
    if std::env::var("FJORD_SIM_SEED").is_ok() {
        println!("{}", f());
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    Classic,
    Consumer,
}

/// Where a classic client is in its protocol.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Phase {
    /// It must (re)join.
    Join,
    /// It joined and must sync at this generation.
    Sync(i32),
    /// It has its assignment; it heartbeats.
    Stable,
}

#[derive(Debug, Clone)]
struct Client {
    name: String,
    kind: Kind,
    member_id: String,
    /// Classic: the generation; consumer: the member epoch.
    epoch: i32,
    phase: Phase,
    topics: Vec<String>,
    owned: Owned,
    /// The request it waits on (one at a time).
    waiting: Option<u64>,
    /// A consumer client's next heartbeat is a full one (after a lost answer).
    full: bool,
    /// The partition counts a classic client last joined with: when its metadata shows
    /// others, it rejoins (the coordinator of a classic group does not watch topics).
    joined_counts: Vec<i32>,
    last_ok: i64,
    last_sent: i64,
    alive: bool,
}

fn config() -> GroupConfig {
    GroupConfig {
        initial_rebalance_delay_ms: 0,
        ..GroupConfig::default()
    }
}

struct Sim {
    rng: SimRng,
    d: Driver,
    clients: Vec<Client>,
    now: i64,
    next: u32,
    consumer_group: bool,
    /// Answers may be lost (not once the chaos stops).
    lossy: bool,
    seen: BTreeMap<&'static str, u64>,
}

impl Sim {
    fn new(seed: u64) -> Sim {
        let mut topics = Topics::default();
        topics.by_name.insert("a".into(), (1, 4));
        topics.by_name.insert("b".into(), (2, 3));
        Sim {
            rng: SimRng::new(seed),
            d: Driver::new(fjord_group::Shard::new(config(), seed), topics),
            clients: Vec::new(),
            now: 1_000_000,
            next: 0,
            consumer_group: false,
            lossy: true,
            seen: BTreeMap::new(),
        }
    }

    fn see(&mut self, what: &'static str) {
        *self.seen.entry(what).or_default() += 1;
    }

    fn new_client(&mut self) {
        self.next += 1;
        let kind = if self.rng.percent(50) {
            Kind::Classic
        } else {
            Kind::Consumer
        };
        let topics = if self.rng.percent(50) {
            vec!["a".to_string()]
        } else {
            vec!["a".to_string(), "b".to_string()]
        };
        let name = format!("{kind:?}-{}", self.next);
        trace(|| format!("{} new {name} {topics:?}", self.now));
        self.clients.push(Client {
            member_id: match kind {
                Kind::Classic => String::new(),
                Kind::Consumer => format!("m-{}", self.next),
            },
            name,
            kind,
            epoch: 0,
            phase: Phase::Join,
            topics,
            owned: Owned::new(),
            waiting: None,
            full: true,
            joined_counts: Vec::new(),
            last_ok: self.now,
            last_sent: self.now,
            alive: true,
        });
    }

    fn by_name(&self, owned: &Owned) -> Named {
        owned
            .iter()
            .filter_map(|(t, ps)| {
                self.d
                    .topics
                    .by_name
                    .iter()
                    .find(|(_, (id, _))| id == t)
                    .map(|(n, _)| (n.clone(), ps.clone()))
            })
            .collect()
    }

    fn by_id(&self, named: &Named) -> Owned {
        named
            .iter()
            .filter_map(|(n, ps)| {
                self.d
                    .topics
                    .by_name
                    .get(n)
                    .map(|(id, _)| (*id, ps.clone()))
            })
            .collect()
    }

    /// The client sends what its state calls for.
    fn act(&mut self, i: usize) {
        let counts: Vec<i32> = self.clients[i]
            .topics
            .iter()
            .map(|t| self.d.topics.by_name.get(t).map_or(0, |(_, n)| *n))
            .collect();
        let c = &mut self.clients[i];
        if c.kind == Kind::Classic && c.phase == Phase::Stable && c.joined_counts != counts {
            c.phase = Phase::Join;
        }
        let c = self.clients[i].clone();
        if c.waiting.is_some() || !c.alive {
            return;
        }
        let request = match c.kind {
            Kind::Consumer => {
                let full = c.full || c.epoch == 0;
                Request::Consumer(ConsumerGroupHeartbeatRequest {
                    group_id: GROUP.into(),
                    member_id: c.member_id.clone(),
                    member_epoch: c.epoch,
                    rebalance_timeout_ms: if full { REBALANCE_MS } else { -1 },
                    subscribed_topic_names: full.then(|| c.topics.clone()),
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
                })
            }
            Kind::Classic => match c.phase {
                Phase::Join => {
                    self.clients[i].joined_counts = counts;
                    Request::Join(join_request(
                        &c.member_id,
                        None,
                        &c.topics,
                        &self.by_name(&c.owned),
                        SESSION_MS,
                        REBALANCE_MS,
                    ))
                }
                Phase::Sync(_) => return,
                Phase::Stable => Request::Heartbeat(heartbeat_request(&c.member_id, None, c.epoch)),
            },
        };
        trace(|| format!("{} {} sends {request:?}", self.now, c.name));
        let token = self.d.send(self.now, request);
        let c = &mut self.clients[i];
        c.waiting = Some(token);
        c.last_sent = self.now;
        self.deliver();
    }

    /// Hands every reply given so far to the client waiting on it (10% are lost).
    fn deliver(&mut self) {
        let replies = std::mem::take(&mut self.d.replies);
        for (token, body) in replies {
            let Some(i) = self.clients.iter().position(|c| c.waiting == Some(token)) else {
                continue;
            };
            self.clients[i].waiting = None;
            if !self.clients[i].alive {
                continue;
            }
            if self.lossy && self.rng.percent(10) {
                self.see("lost answer");
                trace(|| format!("{} {} loses {body:?}", self.now, self.clients[i].name));
                // It does not know where it stands: a classic client rejoins, a consumer
                // client sends a full heartbeat.
                self.clients[i].full = true;
                if self.clients[i].kind == Kind::Classic {
                    self.clients[i].phase = Phase::Join;
                }
                continue;
            }
            trace(|| format!("{} {} gets {body:?}", self.now, self.clients[i].name));
            self.receive(i, body);
        }
    }

    /// A classic client out of step, as Java's and librdkafka's: it loses its partitions
    /// and rejoins, under a new member id when its id is unknown (UNKNOWN_MEMBER_ID), under
    /// its id otherwise (ILLEGAL_GENERATION).
    fn reset(&mut self, i: usize, code: ErrorCode) {
        self.see(if code == ErrorCode::UnknownMemberId {
            "classic unknown"
        } else {
            "classic illegal generation"
        });
        let c = &mut self.clients[i];
        c.owned.clear();
        if code == ErrorCode::UnknownMemberId {
            c.member_id.clear();
        }
        c.epoch = 0;
        c.phase = Phase::Join;
    }

    fn receive(&mut self, i: usize, body: ResponseBody) {
        let now = self.now;
        match body {
            ResponseBody::ConsumerGroupHeartbeat(r) => {
                let c = &mut self.clients[i];
                match ErrorCode::from_code(r.error_code) {
                    Some(ErrorCode::None) => {
                        assert!(r.member_epoch >= c.epoch, "the epoch went back");
                        c.epoch = r.member_epoch;
                        c.last_ok = now;
                        c.full = false;
                        if let Some(a) = r.assignment {
                            c.owned = a
                                .topic_partitions
                                .iter()
                                .filter(|t| !t.partitions.is_empty())
                                .map(|t| {
                                    (t.topic_id.as_u128(), t.partitions.iter().copied().collect())
                                })
                                .collect();
                        }
                    }
                    Some(ErrorCode::FencedMemberEpoch) | Some(ErrorCode::UnknownMemberId) => {
                        c.owned.clear();
                        c.epoch = 0;
                    }
                    // The group is classic and may not be converted now (not its kind).
                    Some(ErrorCode::GroupIdNotFound) => {
                        c.owned.clear();
                        c.epoch = 0;
                    }
                    other => panic!("unexpected heartbeat answer {other:?}: {r:?}"),
                }
            }
            ResponseBody::JoinGroup(r) => match ErrorCode::from_code(r.error_code) {
                Some(ErrorCode::MemberIdRequired) => {
                    self.clients[i].member_id = r.member_id;
                }
                Some(ErrorCode::None) => {
                    {
                        let c = &mut self.clients[i];
                        c.member_id = r.member_id.clone();
                        c.epoch = r.generation_id;
                        c.phase = Phase::Sync(r.generation_id);
                        c.last_ok = now;
                    }
                    let assignments = if !r.members.is_empty() && r.leader == r.member_id {
                        self.see("classic leader assigns");
                        self.assign(&r.members)
                    } else {
                        Vec::new()
                    };
                    let (member, generation) = (r.member_id.clone(), r.generation_id);
                    let token = self.d.send(
                        now,
                        Request::Sync(sync_request(&member, None, generation, assignments)),
                    );
                    self.clients[i].waiting = Some(token);
                }
                Some(ErrorCode::RebalanceInProgress) => {
                    self.see("waiting join told to rejoin");
                    self.clients[i].phase = Phase::Join;
                }
                Some(code @ (ErrorCode::UnknownMemberId | ErrorCode::IllegalGeneration)) => {
                    self.reset(i, code);
                }
                // A consumer group whose members share no protocol with it, or one too
                // large: it tries again later.
                Some(ErrorCode::InconsistentGroupProtocol | ErrorCode::GroupMaxSizeReached) => {
                    self.clients[i].phase = Phase::Join;
                }
                other => panic!("unexpected join answer {other:?}: {r:?}"),
            },
            ResponseBody::SyncGroup(r) => match ErrorCode::from_code(r.error_code) {
                Some(ErrorCode::None) => {
                    let got = self.by_id(&assignment(&r.assignment));
                    let c = &mut self.clients[i];
                    let revoked = c.owned.iter().any(|(t, ps)| {
                        ps.iter()
                            .any(|p| !got.get(t).is_some_and(|g| g.contains(p)))
                    });
                    c.owned = got;
                    c.last_ok = now;
                    // Cooperative: what it gave up, it says so by rejoining.
                    c.phase = if revoked { Phase::Join } else { Phase::Stable };
                }
                Some(ErrorCode::RebalanceInProgress) => self.clients[i].phase = Phase::Join,
                Some(code @ (ErrorCode::UnknownMemberId | ErrorCode::IllegalGeneration)) => {
                    self.reset(i, code);
                }
                other => panic!("unexpected sync answer {other:?}: {r:?}"),
            },
            ResponseBody::Heartbeat(r) => match ErrorCode::from_code(r.error_code) {
                Some(ErrorCode::None) => self.clients[i].last_ok = now,
                Some(ErrorCode::RebalanceInProgress) => {
                    self.see("classic told to rejoin");
                    self.clients[i].phase = Phase::Join;
                }
                Some(code @ (ErrorCode::UnknownMemberId | ErrorCode::IllegalGeneration)) => {
                    self.reset(i, code);
                }
                other => panic!("unexpected heartbeat answer {other:?}"),
            },
            ResponseBody::LeaveGroup(_) => {}
            other => panic!("unexpected answer {other:?}"),
        }
    }

    /// The classic leader's cooperative assignment: each member keeps what it owns (first
    /// claim wins) and the partitions nobody owns go to the subscriber with the fewest.
    fn assign(
        &self,
        members: &[fjord_protocol::generated::join_group_response::JoinGroupResponseMember],
    ) -> Vec<(String, bytes::Bytes)> {
        let mut plan: BTreeMap<String, Named> = BTreeMap::new();
        let mut claimed: BTreeSet<(String, i32)> = BTreeSet::new();
        let mut subs: BTreeMap<String, Vec<String>> = BTreeMap::new();
        for m in members {
            let s = fjord_protocol::consumer_protocol::decode_subscription(&m.metadata)
                .expect("a subscription");
            let mine = plan.entry(m.member_id.clone()).or_default();
            for tp in &s.owned_partitions {
                for p in &tp.partitions {
                    let live = self
                        .d
                        .topics
                        .by_name
                        .get(&tp.topic)
                        .is_some_and(|(_, n)| p < n);
                    if live
                        && s.topics.contains(&tp.topic)
                        && claimed.insert((tp.topic.clone(), *p))
                    {
                        mine.entry(tp.topic.clone()).or_default().insert(*p);
                    }
                }
            }
            subs.insert(m.member_id.clone(), s.topics);
        }
        for (topic, (_, count)) in &self.d.topics.by_name {
            for p in 0..*count {
                if claimed.contains(&(topic.clone(), p)) {
                    continue;
                }
                let taker = plan
                    .iter()
                    .filter(|(m, _)| subs[*m].contains(topic))
                    .min_by_key(|(_, n)| n.values().map(BTreeSet::len).sum::<usize>())
                    .map(|(m, _)| m.clone());
                if let Some(m) = taker {
                    plan.get_mut(&m)
                        .expect("a member")
                        .entry(topic.clone())
                        .or_default()
                        .insert(p);
                }
            }
        }
        plan.into_iter()
            .map(|(m, named)| {
                use fjord_protocol::generated::consumer_protocol_assignment::{
                    ConsumerProtocolAssignment, TopicPartition,
                };
                let a = ConsumerProtocolAssignment {
                    assigned_partitions: named
                        .into_iter()
                        .map(|(topic, ps)| TopicPartition {
                            topic,
                            partitions: ps.into_iter().collect(),
                        })
                        .collect(),
                    ..Default::default()
                };
                (
                    m,
                    fjord_protocol::consumer_protocol::encode_assignment(&a, 1).expect("encoded"),
                )
            })
            .collect()
    }

    fn leave(&mut self, i: usize) {
        let c = self.clients[i].clone();
        trace(|| format!("{} {} leaves", self.now, c.name));
        if !self.rng.percent(10) && !c.member_id.is_empty() {
            let request = match c.kind {
                Kind::Classic => Request::Leave(leave_request(&c.member_id, None)),
                Kind::Consumer => Request::Consumer(ConsumerGroupHeartbeatRequest {
                    group_id: GROUP.into(),
                    member_id: c.member_id.clone(),
                    member_epoch: -1,
                    ..Default::default()
                }),
            };
            self.d.send(self.now, request);
        }
        let c = &mut self.clients[i];
        c.alive = false;
        c.owned.clear();
        c.waiting = None;
        self.deliver();
    }

    fn tick(&mut self) {
        self.d.tick(self.now);
        trace(|| match self.d.shard.consumer_group(GROUP) {
            Some(g) => format!(
                "{} tick: consumer group epoch {} members {:?}",
                self.now,
                g.group_epoch(),
                g.members
                    .keys()
                    .map(|m| (m.clone(), g.reconciled(m).member_epoch))
                    .collect::<Vec<_>>()
            ),
            None => format!(
                "{} tick: classic group {:?}",
                self.now,
                self.d.shard.group(GROUP).map(|g| (
                    g.state.name(),
                    g.generation,
                    g.members.keys().cloned().collect::<Vec<_>>()
                ))
            ),
        });
        self.deliver();
    }

    fn check_no_double_ownership(&self, seed: u64, step: usize) {
        held_once(
            self.clients
                .iter()
                .filter(|c| c.alive && self.now - c.last_ok < LEASE_MS)
                .map(|c| (c.name.as_str(), &c.owned)),
            &format!("seed {seed} step {step}"),
        );
    }

    /// Notes the group's kind changing.
    fn watch_kind(&mut self) {
        let now_consumer = self.d.shard.consumer_group(GROUP).is_some();
        let classic_members = self
            .d
            .shard
            .group(GROUP)
            .is_some_and(|g| !g.members.is_empty());
        if now_consumer && !self.consumer_group {
            let with_classic = self
                .d
                .shard
                .consumer_group(GROUP)
                .is_some_and(|g| g.members.values().any(fjord_group::consumer::is_classic));
            if with_classic {
                self.see("upgrade");
            }
        }
        if !now_consumer && self.consumer_group && classic_members {
            self.see("downgrade");
        }
        self.consumer_group = now_consumer;
    }

    fn step(&mut self, seed: u64, step: usize) {
        let live: Vec<usize> = (0..self.clients.len())
            .filter(|i| self.clients[*i].alive)
            .collect();
        if let Some(&i) = live.iter().find(|i| {
            let c = &self.clients[**i];
            c.waiting.is_none() && self.now - c.last_sent >= FORCED_MS
        }) {
            self.act(i);
            return;
        }
        match self.rng.below(100) {
            0..=59 if !live.is_empty() => {
                let i = live[self.rng.below(live.len() as u64) as usize];
                self.act(i);
            }
            60..=67 if live.len() < MAX_CLIENTS => self.new_client(),
            68..=72 if !live.is_empty() => {
                let i = live[self.rng.below(live.len() as u64) as usize];
                self.leave(i);
            }
            73..=74 if !live.is_empty() => {
                let i = live[self.rng.below(live.len() as u64) as usize];
                trace(|| format!("{} crash {}", self.now, self.clients[i].name));
                let c = &mut self.clients[i];
                c.alive = false;
                c.owned.clear();
                c.waiting = None;
            }
            75 => {
                let e = self.d.topics.by_name.get_mut("a").expect("a");
                if e.1 < 8 {
                    e.1 += 1;
                    self.d.topics.stamp += 1;
                    self.see("topic grew");
                }
            }
            76 => {
                self.see("fail-over");
                trace(|| format!("{} fail-over", self.now));
                let shard_seed = self.rng.below(u64::MAX);
                let reloaded = self.d.reload(config(), shard_seed, self.now);
                assert_eq!(
                    reloaded.consumer_groups(),
                    self.d.shard.consumer_groups(),
                    "seed {seed} step {step}: the log's fold differs from the state"
                );
                self.d.shard = reloaded;
                self.d.replies.clear();
                for c in &mut self.clients {
                    if c.waiting.take().is_some() {
                        c.full = true;
                        if c.kind == Kind::Classic {
                            c.phase = Phase::Join;
                        }
                    }
                }
            }
            _ => {
                self.now += self.rng.below(2_000) as i64;
                self.tick();
            }
        }
    }
}

fn run(seed: u64, seen: &mut BTreeMap<&'static str, u64>) {
    let mut sim = Sim::new(seed);
    let steps = 200 + sim.rng.below(200) as usize;
    for step in 0..steps {
        sim.step(seed, step);
        sim.check_no_double_ownership(seed, step);
        sim.watch_kind();
    }
    // The chaos stops: every live client acts until nothing moves.
    sim.lossy = false;
    for round in 0..120 {
        let live: Vec<usize> = (0..sim.clients.len())
            .filter(|i| sim.clients[*i].alive)
            .collect();
        for i in live {
            sim.act(i);
            sim.check_no_double_ownership(seed, 100_000 + round);
        }
        sim.now += 1_000;
        sim.tick();
        sim.watch_kind();
    }
    let reloaded = sim.d.reload(config(), 1, sim.now);
    assert_eq!(
        reloaded.consumer_groups(),
        sim.d.shard.consumer_groups(),
        "seed {seed}: the log's fold differs from the state"
    );
    for (k, v) in &sim.seen {
        *seen.entry(k).or_default() += v;
    }
    let live: Vec<&Client> = sim.clients.iter().filter(|c| c.alive).collect();
    if live.is_empty() {
        return;
    }
    let mut wanted: BTreeSet<(u128, i32)> = BTreeSet::new();
    for c in &live {
        for name in &c.topics {
            let (id, count) = sim.d.topics.by_name[name];
            wanted.extend((0..count).map(|p| (id, p)));
        }
    }
    let got = held_once(
        live.iter().map(|c| (c.name.as_str(), &c.owned)),
        &format!("seed {seed}"),
    );
    assert_eq!(got, wanted, "seed {seed}: not every partition is consumed");
    let state = match sim.d.shard.consumer_group(GROUP) {
        Some(g) => g.state_name().to_string(),
        None => sim
            .d
            .shard
            .group(GROUP)
            .map_or("none".into(), |g| g.state.name().to_string()),
    };
    assert_eq!(state, "Stable", "seed {seed}");
}

#[test]
fn groups_migrate_both_ways_without_consuming_a_partition_twice() {
    let mut seen = BTreeMap::new();
    if let Some(seed) = std::env::var("FJORD_SIM_SEED")
        .ok()
        .and_then(|s| s.parse().ok())
    {
        run(seed, &mut seen);
        println!("{seen:?}");
        return;
    }
    let seeds = std::env::var("FJORD_SIM_SEEDS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(100);
    for seed in 0..seeds {
        run(seed, &mut seen);
    }
    for what in [
        "upgrade",
        "downgrade",
        "classic leader assigns",
        "classic told to rejoin",
        "lost answer",
        "fail-over",
        "topic grew",
    ] {
        assert!(
            seen.get(what).copied().unwrap_or(0) > 0,
            "never: {what} ({seen:?})"
        );
    }
    println!("{seen:?}");
}
