//! Offset commits (plain and transactional) of a streams group's members over seeded
//! histories, against the shard:
//! members join, leave and heartbeat, some slow to give up revoked tasks; between steps every
//! member (and every one that left) commits each task at each epoch it was ever told. The
//! oracle reads only the heartbeat answers the clients got:
//! - zombies are fenced: a task's commits at epochs older than the member's own are accepted
//!   from one member at most at any time, and never from a member that left (at its own
//!   epoch a member's commit is not checked per task, as in Kafka);
//! - Kafka 4.4's assignment epochs: a commit at an epoch older than the member's own is
//!   accepted for a task the member was told at or before that epoch and has been told in
//!   every answer since, and refused for a task it was first told later.
//!
//! `FJORD_SIM_SEEDS` sets the seeds (default 300).

mod common;

use common::Topics;
use fjord_group::{GroupConfig, RequestContext, Shard};
use fjord_protocol::generated::offset_commit_request::{
    OffsetCommitRequest, OffsetCommitRequestPartition, OffsetCommitRequestTopic,
};
use fjord_protocol::generated::streams_group_heartbeat_request::{
    StreamsGroupHeartbeatRequest as Request, Subtopology, TaskIds, Topology,
};
use fjord_protocol::{ErrorCode, ResponseBody};
use fjord_util::SimRng;
use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;

const GROUP: &str = "app";
/// The input topic's partitions: one task each.
const TASKS: i32 = 6;
/// Steps per seed.
const STEPS: usize = 120;
/// Members at most.
const MEMBERS: usize = 4;

fn seeds() -> u64 {
    std::env::var("FJORD_SIM_SEEDS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(300)
}

/// Every answer a client got: (epoch, active tasks).
type Told = Vec<(i32, BTreeSet<i32>)>;

/// A client as it knows itself: only what the answers told it.
#[derive(Default)]
struct Client {
    epoch: i32,
    /// The tasks it runs (it may still run tasks it was told to give up).
    running: BTreeSet<i32>,
    /// Every answer it got.
    told: Told,
}

impl Client {
    /// The epoch from which `task` has been in every answer up to the last (None: not in
    /// the last one).
    fn held_since(&self, task: i32) -> Option<i32> {
        let mut since = None;
        for (epoch, tasks) in self.told.iter().rev() {
            if !tasks.contains(&task) {
                break;
            }
            since = Some(*epoch);
        }
        since
    }
}

struct Sim {
    shard: Shard,
    topics: Arc<Topics>,
    rng: SimRng,
    token: u64,
    now: i64,
    clients: BTreeMap<String, Client>,
    /// Members that left, with every answer they got.
    gone: Vec<(String, Client)>,
    next: u32,
}

impl Sim {
    fn new(seed: u64) -> Sim {
        Sim {
            shard: Shard::new(
                GroupConfig {
                    streams_initial_rebalance_delay_ms: 0,
                    ..GroupConfig::default()
                },
                1,
            ),
            topics: Arc::new(Topics {
                by_name: BTreeMap::from([("input".to_string(), (1, TASKS))]),
                stamp: 1,
                ..Default::default()
            }),
            rng: SimRng::new(seed),
            token: 0,
            now: 0,
            clients: BTreeMap::new(),
            gone: Vec::new(),
            next: 0,
        }
    }

    fn ctx(&mut self, version: i16) -> RequestContext {
        self.token += 1;
        RequestContext {
            token: self.token,
            version,
            client_id: "sim".into(),
            client_host: "/127.0.0.1".into(),
        }
    }

    /// A heartbeat of `member` reporting what it runs; the answer updates the client.
    fn beat(&mut self, member: &str, join: bool) {
        let c = self.clients.get(member).expect("a client");
        let running: Vec<TaskIds> = (!c.running.is_empty())
            .then(|| TaskIds {
                subtopology_id: "0".into(),
                partitions: c.running.iter().copied().collect(),
                ..Default::default()
            })
            .into_iter()
            .collect();
        let r = Request {
            group_id: GROUP.into(),
            member_id: member.into(),
            member_epoch: if join { 0 } else { c.epoch },
            rebalance_timeout_ms: 60_000,
            process_id: join.then(|| format!("p-{member}")),
            topology: join.then(|| Topology {
                subtopologies: vec![Subtopology {
                    subtopology_id: "0".into(),
                    source_topics: vec!["input".into()],
                    ..Default::default()
                }],
                ..Default::default()
            }),
            active_tasks: Some(running),
            standby_tasks: Some(vec![]),
            warmup_tasks: Some(vec![]),
            ..Default::default()
        };
        let ctx = self.ctx(1);
        let out = self
            .shard
            .streams_heartbeat(&ctx, &r, self.topics.clone(), self.now);
        let Some((_, ResponseBody::StreamsGroupHeartbeat(a))) = out.replies.into_iter().next()
        else {
            panic!("no heartbeat answer")
        };
        assert_eq!(a.error_code, 0, "{a:?}");
        let c = self.clients.get_mut(member).expect("a client");
        c.epoch = a.member_epoch;
        if let Some(active) = a.active_tasks {
            let told: BTreeSet<i32> = active.iter().flat_map(|t| t.partitions.clone()).collect();
            // New tasks start at once; a revoked one stops now or at a later heartbeat.
            c.running.extend(told.iter().copied());
            if self.rng.percent(50) {
                c.running.retain(|t| told.contains(t));
            }
            c.told.push((a.member_epoch, told));
        } else if let Some((_, last)) = c.told.last().cloned() {
            c.told.push((a.member_epoch, last.clone()));
            if self.rng.percent(50) {
                c.running.retain(|t| last.contains(t));
            }
        }
    }

    fn step(&mut self) {
        self.now += 100;
        let members: Vec<String> = self.clients.keys().cloned().collect();
        match self.rng.below(10) {
            0 | 1 if members.len() < MEMBERS => {
                let id = format!("m{}", self.next);
                self.next += 1;
                self.clients.insert(id.clone(), Client::default());
                self.beat(&id, true);
            }
            2 if members.len() > 1 => {
                let id = members[self.rng.below(members.len() as u64) as usize].clone();
                let c = self.clients.remove(&id).expect("a client");
                let r = Request {
                    group_id: GROUP.into(),
                    member_id: id.clone(),
                    member_epoch: -1,
                    ..Default::default()
                };
                let ctx = self.ctx(1);
                self.shard
                    .streams_heartbeat(&ctx, &r, self.topics.clone(), self.now);
                self.gone.push((id, c));
            }
            _ if !members.is_empty() => {
                let id = members[self.rng.below(members.len() as u64) as usize].clone();
                self.beat(&id, false);
            }
            _ => {}
        }
    }

    /// Whether a commit of `task` by `member` at `epoch` is accepted: an OffsetCommit, or
    /// (half the time) a TxnOffsetCommit, which Kafka checks the same way.
    fn commit(&mut self, member: &str, epoch: i32, task: i32) -> bool {
        let code = if self.rng.percent(50) {
            self.txn_commit(member, epoch, task)
        } else {
            self.plain_commit(member, epoch, task)
        };
        let known = [
            0,
            ErrorCode::StaleMemberEpoch.code(),
            ErrorCode::UnknownMemberId.code(),
        ];
        assert!(known.contains(&code), "unexpected commit answer {code}");
        code == 0
    }

    fn plain_commit(&mut self, member: &str, epoch: i32, task: i32) -> i16 {
        let r = OffsetCommitRequest {
            group_id: GROUP.into(),
            generation_id_or_member_epoch: epoch,
            member_id: member.into(),
            topics: vec![OffsetCommitRequestTopic {
                name: "input".into(),
                partitions: vec![OffsetCommitRequestPartition {
                    partition_index: task,
                    committed_offset: 1,
                    ..Default::default()
                }],
                ..Default::default()
            }],
            ..Default::default()
        };
        let ctx = self.ctx(9);
        let out = self.shard.commit_offsets(&ctx, &r, &|_, _| false, self.now);
        match out.replies.into_iter().next() {
            Some((_, ResponseBody::OffsetCommit(a))) => a.topics[0].partitions[0].error_code,
            other => panic!("no commit answer: {other:?}"),
        }
    }

    fn txn_commit(&mut self, member: &str, epoch: i32, task: i32) -> i16 {
        use fjord_protocol::generated::txn_offset_commit_request::{
            TxnOffsetCommitRequest, TxnOffsetCommitRequestPartition, TxnOffsetCommitRequestTopic,
        };
        let r = TxnOffsetCommitRequest {
            transactional_id: "sim-txn".into(),
            group_id: GROUP.into(),
            producer_id: 7,
            producer_epoch: 0,
            generation_id_or_member_epoch: epoch,
            member_id: member.into(),
            topics: vec![TxnOffsetCommitRequestTopic {
                name: "input".into(),
                partitions: vec![TxnOffsetCommitRequestPartition {
                    partition_index: task,
                    committed_offset: 1,
                    ..Default::default()
                }],
                ..Default::default()
            }],
            ..Default::default()
        };
        let ctx = self.ctx(fjord_group::txn_offsets::TXN_COMMIT_NEW_ERRORS_VERSION);
        let out = self
            .shard
            .txn_commit_offsets(&ctx, &r, &|_, _| false, self.now);
        match out.replies.into_iter().next() {
            Some((_, ResponseBody::TxnOffsetCommit(a))) => a.topics[0].partitions[0].error_code,
            other => panic!("no transactional commit answer: {other:?}"),
        }
    }

    /// The oracle, after a step.
    fn judge(&mut self, seed: u64, step: usize) {
        let mut accepted: BTreeMap<i32, BTreeSet<String>> = BTreeMap::new();
        let clients: Vec<(String, i32, Told)> = self
            .clients
            .iter()
            .map(|(id, c)| (id.clone(), c.epoch, c.told.clone()))
            .collect();
        for (id, epoch, told) in &clients {
            let client = &self.clients[id];
            let since: BTreeMap<i32, Option<i32>> =
                (0..TASKS).map(|t| (t, client.held_since(t))).collect();
            let epochs: BTreeSet<i32> = told.iter().map(|(e, _)| *e).collect();
            for e in epochs.into_iter().filter(|e| *e < *epoch) {
                for t in 0..TASKS {
                    let ok = self.commit(id, e, t);
                    if ok {
                        accepted.entry(t).or_default().insert(id.clone());
                    }
                    match since[&t] {
                        Some(first) if e >= first => assert!(
                            ok,
                            "seed {seed} step {step}: {id} held task {t} since epoch {first}, \
                             its commit at {e} was refused"
                        ),
                        _ => {}
                    }
                    let first_ever = told.iter().find(|(_, ts)| ts.contains(&t)).map(|(e, _)| *e);
                    if first_ever.is_none_or(|f| f > e) {
                        assert!(
                            !ok,
                            "seed {seed} step {step}: {id} was first told task {t} after epoch \
                             {e}, yet its commit at {e} was accepted"
                        );
                    }
                }
            }
            // At its own epoch a member's commit is not checked per task (as in Kafka).
            for t in 0..TASKS {
                assert!(
                    self.commit(id, *epoch, t),
                    "seed {seed} step {step}: {id}'s commit at its own epoch {epoch} refused"
                );
            }
        }
        let gone: Vec<(String, Vec<i32>)> = self
            .gone
            .iter()
            .map(|(id, c)| (id.clone(), c.told.iter().map(|(e, _)| *e).collect()))
            .collect();
        for (id, epochs) in gone {
            for e in epochs {
                for t in 0..TASKS {
                    assert!(
                        !self.commit(&id, e, t),
                        "seed {seed} step {step}: {id} left, yet its commit of task {t} at {e} \
                         was accepted"
                    );
                }
            }
        }
        for (t, members) in accepted {
            assert!(
                members.len() <= 1,
                "seed {seed} step {step}: task {t}'s commits accepted from {members:?}"
            );
        }
    }
}

#[test]
fn commits_are_fenced_by_the_epoch_each_task_was_given_at() {
    for seed in 0..seeds() {
        let mut sim = Sim::new(seed);
        for step in 0..STEPS {
            sim.step();
            if step % 4 == 3 {
                sim.judge(seed, step);
            }
        }
    }
}
