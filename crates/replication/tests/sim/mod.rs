//! The replication simulation's world, shared by the replication and the recovery
//! simulations: one partition replicated on three brokers, the replication core on each, the
//! real controller deciding leadership, and a model log per broker. See `simulation.rs` for
//! what a history holds and what is checked after every step.
#![allow(dead_code)]

use fjord_controller::controller::METADATA_VERSION_LATEST;
use fjord_controller::{Controller, ControllerSettings, Handled};
use fjord_log::epoch::EpochEntry;
use fjord_metadata::{MetadataImage, PartitionRegistration};
use fjord_protocol::generated::*;
use fjord_protocol::{MetadataRecord, RequestBody, ResponseBody, Uuid};
use fjord_replication::follower::{diverging_epoch, UNDEFINED_EPOCH};
use fjord_replication::{truncation_offset, AckState, Leader, PartitionState, ProposedIsr, Seen};
pub use fjord_util::SimRng as Rng;
use std::collections::BTreeMap;

/// Seeds per `cargo test`.
pub const SEEDS: u64 = 1_000;
/// Steps per seed.
pub const STEPS: usize = 400;
/// `broker.session.timeout.ms`.
pub const SESSION_MS: i64 = 9_000;
/// `replica.lag.time.max.ms`.
pub const LAG_MS: i64 = 3_000;
/// The brokers, all replicas of the partition.
pub const BROKERS: [i32; 3] = [1, 2, 3];

/// Prints a line of the history when `FJORD_SIM_TRACE=2`.
pub fn trace(line: impl FnOnce() -> String) {
    if std::env::var("FJORD_SIM_TRACE").is_ok_and(|v| v == "2") {
        eprintln!("  {}", line());
    }
}

/// One broker's replica: its log (record id and epoch per offset), epoch cache and state.
pub struct Replica {
    pub id: i32,
    pub alive: bool,
    /// Record ids and the epoch each was written in, by offset.
    pub log: Vec<(u64, i32)>,
    /// The leader-epoch cache, oldest first (the log's own rules keep it).
    pub epochs: Vec<EpochEntry>,
    /// The prefix that survives a crash.
    pub flushed: usize,
    /// The high watermark this replica knows.
    pub hw: i64,
    /// The leader role, when the image makes this broker leader.
    pub leader: Option<Leader>,
    /// The leader epoch of the image this broker last acted on.
    pub seen_leader_epoch: i32,
    /// Crashes so far (a record's holders are checked against it).
    pub crashes: u32,
    /// Restarted and registering (until its old session expires).
    pub starting: bool,
    /// The broker epoch in its clean-shutdown marker (-1: crashed).
    pub clean_epoch: i64,
    /// The log start offset (retention): records below it are gone from this replica (the
    /// model keeps their ids, unreadable, so logs still compare offset by offset).
    pub start: i64,
    /// Ground truth for the oracle, kept apart from the epoch cache: the epoch of the record
    /// just below `start` in this replica's own history (`None` at start 0, when the replica
    /// never held that record, or after a cut below its start discarded its history).
    pub held_below_start: Option<i32>,
    /// When its fetch session last fetched (KIP-227); `None` after a crash or stop. A fetch
    /// that finds the follower where the leader last saw it, at the leader's log end, is at
    /// random left implicit, as a session's fetch that does not name an idle partition.
    pub session_ms: Option<i64>,
}

impl Replica {
    pub fn leo(&self) -> i64 {
        self.log.len() as i64
    }

    pub fn latest_epoch(&self) -> i32 {
        self.epochs.last().map_or(UNDEFINED_EPOCH, |e| e.epoch)
    }

    /// As OffsetForLeaderEpoch: the largest epoch at or below `epoch` and where it ends.
    pub fn end_offset_for_epoch(&self, epoch: i32) -> (i32, i64) {
        fjord_log::epoch::end_offset_for_epoch(&self.epochs, epoch, self.leo())
    }

    /// Ground truth: the epoch of the last record this replica holds, or held before
    /// retention removed it; `None` when it never held one (or discarded its history).
    pub fn held(&self) -> Option<i32> {
        if self.leo() > self.start {
            self.log.last().map(|r| r.1)
        } else {
            self.held_below_start
        }
    }

    pub fn assign_epoch(&mut self, epoch: i32, start: i64) {
        if self.latest_epoch() < epoch {
            fjord_log::epoch::assign_entry(&mut self.epochs, epoch, start);
        }
    }

    pub fn truncate(&mut self, to: i64) {
        let to = to.clamp(0, self.leo());
        if to <= self.start && self.start > 0 {
            // At or below the log start: the log empties and restarts there, as the log does.
            // A cut to the start keeps the epoch of what lies below it; one below it finds the
            // history there diverging, and keeps nothing.
            self.log.truncate(self.start as usize);
            if to == self.start {
                fjord_log::epoch::truncate_entries_from_end(
                    &mut self.epochs,
                    self.start,
                    self.start,
                );
            } else {
                self.epochs.clear();
                self.held_below_start = None;
            }
            self.flushed = self.flushed.min(self.start as usize);
            self.hw = self.hw.min(self.start);
            return;
        }
        self.log.truncate(to as usize);
        fjord_log::epoch::truncate_entries_from_end(&mut self.epochs, to, self.start);
        self.flushed = self.flushed.min(to as usize);
        self.hw = self.hw.min(to);
    }

    /// A restart loads the log as the log's own loader does: epochs past the log end go (an
    /// empty log keeps the epoch below its start), and the oldest moves up to the log start.
    pub fn load(&mut self) {
        let leo = self.leo();
        fjord_log::epoch::truncate_entries_from_end(&mut self.epochs, leo, self.start);
        fjord_log::epoch::truncate_entries_from_start(&mut self.epochs, self.start);
    }

    /// Moves the log start up to `to` (retention, or the leader's log start followed), never
    /// past the high watermark or the log end; the epoch cache follows as the log's does.
    pub fn retain_from(&mut self, to: i64) {
        let to = to.min(self.hw).min(self.leo());
        if to <= self.start {
            return;
        }
        self.held_below_start = Some(self.log[to as usize - 1].1);
        self.start = to;
        fjord_log::epoch::truncate_entries_from_start(&mut self.epochs, to);
    }

    /// A follower behind the leader's log start (OFFSET_OUT_OF_RANGE): its log empties and
    /// restarts at `start`, keeping the epoch of the last record it held; the ids below it
    /// are the leader's, unreadable.
    pub fn restart_at(&mut self, start: i64, leader_log: &[(u64, i32)]) {
        self.held_below_start = self.held();
        self.log.truncate(0);
        self.log.extend_from_slice(&leader_log[..start as usize]);
        fjord_log::epoch::restart_entries_at(&mut self.epochs, start);
        self.start = start;
        self.flushed = start as usize;
        self.hw = start;
    }
}

/// An acks=-1 produce waiting on its leader.
pub struct Waiting {
    pub leader: i32,
    pub leader_epoch: i32,
    pub required: i64,
    pub records: Vec<(i64, u64)>,
}

/// A record the producer was told is written.
pub struct Acked {
    pub offset: i64,
    pub id: u64,
    /// Brokers holding it at the acknowledgement, with their crash counts then.
    pub holders: Vec<(i32, u32)>,
}

pub struct Sim {
    pub rng: Rng,
    pub seed: u64,
    pub now: i64,
    pub c: Controller,
    pub offset: i64,
    pub topic_id: Uuid,
    pub replicas: BTreeMap<i32, Replica>,
    pub waiting: Vec<Waiting>,
    pub acked: Vec<Acked>,
    /// ISR changes sent and not yet answered: (leader, proposal).
    pub alters: Vec<(i32, ProposedIsr)>,
    pub next_id: u64,
    /// The highest high watermark each (broker, leader epoch) reached.
    pub leader_hw: BTreeMap<(i32, i32), i64>,
    pub min_isr: usize,
    /// Reassignments happen too (AlterPartitionReassignments to random replica sets, and
    /// cancellations): a broker the partition leaves deletes its copy, one it joins starts
    /// empty and fetches. Off by default, so the other histories stay as they were.
    pub reassignments: bool,
    /// Reassignments the controller accepted, and those that completed.
    pub reassigned: (u32, u32),
}

impl Sim {
    pub fn new(seed: u64) -> Sim {
        let mut rng = Rng::new(seed);
        let min_isr = 1 + rng.below(2) as usize;
        let settings = ControllerSettings {
            node_id: 1,
            broker_session_timeout_ms: SESSION_MS,
            ..ControllerSettings::default()
        };
        let mut s = Sim {
            rng,
            seed,
            now: 0,
            c: Controller::new(settings, "sim".into(), MetadataImage::empty(), 0),
            offset: 100,
            topic_id: Uuid::nil(),
            replicas: BROKERS
                .iter()
                .map(|&id| {
                    (
                        id,
                        Replica {
                            id,
                            alive: true,
                            log: Vec::new(),
                            epochs: Vec::new(),
                            flushed: 0,
                            hw: 0,
                            leader: None,
                            seen_leader_epoch: -1,
                            crashes: 0,
                            starting: false,
                            clean_epoch: -1,
                            start: 0,
                            held_below_start: None,
                            session_ms: None,
                        },
                    )
                })
                .collect(),
            waiting: Vec::new(),
            acked: Vec::new(),
            alters: Vec::new(),
            next_id: 1,
            leader_hw: BTreeMap::new(),
            min_isr,
            reassignments: false,
            reassigned: (0, 0),
        };
        // As a formatted cluster starts: metadata.version and eligible leader replicas.
        s.write(vec![
            MetadataRecord::FeatureLevel(feature_level_record::FeatureLevelRecord {
                name: "metadata.version".into(),
                feature_level: METADATA_VERSION_LATEST,
                ..Default::default()
            }),
            MetadataRecord::FeatureLevel(feature_level_record::FeatureLevelRecord {
                name: fjord_metadata::version::ELR_VERSION.into(),
                feature_level: 1,
                ..Default::default()
            }),
        ]);
        for id in BROKERS {
            assert!(s.register(id, -1));
            s.heartbeat(id);
        }
        let r = s.req(
            RequestBody::CreateTopics(create_topics_request::CreateTopicsRequest {
                topics: vec![create_topics_request::CreatableTopic {
                    name: "t".into(),
                    num_partitions: -1,
                    replication_factor: -1,
                    assignments: vec![create_topics_request::CreatableReplicaAssignment {
                        partition_index: 0,
                        broker_ids: BROKERS.to_vec(),
                        ..Default::default()
                    }],
                    configs: vec![create_topics_request::CreatableTopicConfig {
                        name: "min.insync.replicas".into(),
                        value: Some(min_isr.to_string()),
                        ..Default::default()
                    }],
                    ..Default::default()
                }],
                ..Default::default()
            }),
            7,
        );
        let ResponseBody::CreateTopics(r) = r else {
            panic!("CreateTopics answered {r:?}")
        };
        assert_eq!(r.topics[0].error_code, 0, "{:?}", r.topics[0].error_message);
        s.topic_id = s.c.image().topics.by_name["t"];
        s.sync_images();
        s
    }

    pub fn write(&mut self, records: Vec<MetadataRecord>) {
        self.c.apply(&records).unwrap();
        self.offset += records.len() as i64;
    }

    pub fn req(&mut self, body: RequestBody, version: i16) -> ResponseBody {
        match self.c.handle(&body, version, self.now) {
            Handled::Reply(r) => r,
            Handled::Write { records, response } => {
                self.offset += records.len() as i64;
                response
            }
            Handled::Register(plan) => {
                let at = self.offset;
                let records = self.c.registered(&plan, at).unwrap();
                self.offset += records.len() as i64;
                plan.response(at)
            }
            Handled::UpgradeKraft { .. } => panic!("the simulation does not move kraft.version"),
            Handled::Refuse { .. } => panic!("refusals come back as responses"),
        }
    }

    /// Registers broker `id`; false while its previous session is still live
    /// (DUPLICATE_BROKER_REGISTRATION: it retries, as a restarted broker does).
    pub fn register(&mut self, id: i32, previous_epoch: i64) -> bool {
        let r = self.req(
            RequestBody::BrokerRegistration(
                broker_registration_request::BrokerRegistrationRequest {
                    broker_id: id,
                    cluster_id: "sim".into(),
                    incarnation_id: Uuid::from_u128(id as u128 + 1000 * self.offset as u128),
                    listeners: vec![broker_registration_request::Listener {
                        name: "PLAINTEXT".into(),
                        host: "127.0.0.1".into(),
                        port: 9000 + id as u16,
                        ..Default::default()
                    }],
                    features: vec![
                        broker_registration_request::Feature {
                            name: "metadata.version".into(),
                            min_supported_version: 7,
                            max_supported_version: METADATA_VERSION_LATEST,
                            ..Default::default()
                        },
                        broker_registration_request::Feature {
                            name: fjord_metadata::version::ELR_VERSION.into(),
                            min_supported_version: 0,
                            max_supported_version: 1,
                            ..Default::default()
                        },
                    ],
                    log_dirs: vec![Uuid::from_u128(id as u128 + 50)],
                    previous_broker_epoch: previous_epoch,
                    ..Default::default()
                },
            ),
            4,
        );
        let ResponseBody::BrokerRegistration(r) = r else {
            panic!("registration answered {r:?}")
        };
        match r.error_code {
            0 => true,
            101 => false,
            code => panic!("broker {id} registration: error {code}"),
        }
    }

    pub fn heartbeat(&mut self, id: i32) {
        let Some(epoch) = self.c.image().cluster.brokers.get(&id).map(|b| b.epoch) else {
            return;
        };
        let offset = self.offset;
        self.req(
            RequestBody::BrokerHeartbeat(broker_heartbeat_request::BrokerHeartbeatRequest {
                broker_id: id,
                broker_epoch: epoch,
                current_metadata_offset: offset,
                ..Default::default()
            }),
            1,
        );
    }

    pub fn partition(&self) -> PartitionRegistration {
        self.c.image().topics.get_by_name("t").unwrap().partitions[&0].clone()
    }

    pub fn state_of(p: &PartitionRegistration) -> PartitionState {
        PartitionState {
            leader_epoch: p.leader_epoch,
            partition_epoch: p.partition_epoch,
            replicas: p.replicas.clone(),
            isr: p.isr.clone(),
            recovering: p.leader_recovery_state == fjord_metadata::LeaderRecoveryState::Recovering,
        }
    }

    /// Every live broker acts on the controller's image (as each broker's replica manager
    /// does when its metadata catches up): a new leader epoch makes it leader or follower.
    pub fn sync_images(&mut self) {
        let p = self.partition();
        let now = self.now;
        let min_isr = self.min_isr;
        // A live broker the partition left deletes its copy (as the replica manager does);
        // for the oracle it no longer holds anything it held.
        for r in self.replicas.values_mut().filter(|r| r.alive) {
            if !p.replicas.contains(&r.id) && (r.leo() > 0 || r.leader.is_some()) {
                trace(|| format!("{} leaves the partition: its copy is deleted", r.id));
                r.log.clear();
                r.epochs.clear();
                r.held_below_start = None;
                r.flushed = 0;
                r.hw = 0;
                r.start = 0;
                r.leader = None;
                r.session_ms = None;
                r.crashes += 1;
            }
        }
        for r in self.replicas.values_mut().filter(|r| r.alive) {
            if p.leader_epoch > r.seen_leader_epoch {
                r.seen_leader_epoch = p.leader_epoch;
                if p.leader == r.id {
                    let start = r.leo();
                    r.assign_epoch(p.leader_epoch, start);
                    r.leader = Some(Leader::new(
                        r.id,
                        Self::state_of(&p),
                        min_isr,
                        LAG_MS,
                        r.leo(),
                        r.hw,
                        now,
                    ));
                } else {
                    r.leader = None;
                }
            } else if let Some(l) = r.leader.as_mut() {
                let fx = l.on_image(Self::state_of(&p), now);
                if let Some(hw) = fx.high_watermark {
                    r.hw = hw;
                }
            }
        }
    }

    /// The live broker acting as leader in the image's epoch, if any.
    pub fn acting_leader(&self) -> Option<i32> {
        let p = self.partition();
        let r = self.replicas.get(&p.leader)?;
        (r.alive
            && r.leader
                .as_ref()
                .is_some_and(|l| l.state().leader_epoch == p.leader_epoch))
        .then_some(r.id)
    }

    pub fn produce(&mut self) {
        let Some(id) = self.acting_leader() else {
            return;
        };
        let n = 1 + self.rng.below(3) as usize;
        let ids: Vec<u64> = (0..n)
            .map(|_| {
                self.next_id += 1;
                self.next_id
            })
            .collect();
        let seen = self.sessions();
        let r = self.replicas.get_mut(&id).unwrap();
        let l = r.leader.as_mut().unwrap();
        if !l.accepts_acks_all() {
            return; // NOT_ENOUGH_REPLICAS: nothing written
        }
        let epoch = l.state().leader_epoch;
        let base = r.log.len() as i64;
        let records: Vec<(i64, u64)> = ids
            .iter()
            .enumerate()
            .map(|(i, x)| (base + i as i64, *x))
            .collect();
        for x in &ids {
            r.log.push((*x, epoch));
        }
        let leo = r.log.len() as i64;
        let fx = r.leader.as_mut().unwrap().on_append_seen(leo, |f| seen[&f]);
        if let Some(hw) = fx.high_watermark {
            r.hw = hw;
        }
        self.waiting.push(Waiting {
            leader: id,
            leader_epoch: epoch,
            required: leo,
            records,
        });
    }

    pub fn fetch(&mut self, follower: i32) {
        let p = self.partition();
        let Some(leader_id) = self.acting_leader() else {
            return;
        };
        if follower == leader_id
            || !self.replicas[&follower].alive
            || !p.replicas.contains(&follower)
        {
            return;
        }
        // A follower fetches only from the leader of the epoch it knows.
        if self.replicas[&follower].seen_leader_epoch != p.leader_epoch {
            return;
        }
        let (fetch_offset, last_epoch) = {
            let f = &self.replicas[&follower];
            (f.leo(), f.latest_epoch())
        };
        let lose_response = self.rng.percent(10);
        let now = self.now;
        let leader = self.replicas.get_mut(&leader_id).unwrap();
        // KIP-320: the leader checks the follower's last epoch first.
        let answer = leader.end_offset_for_epoch(last_epoch);
        if let Some((epoch, end)) = diverging_epoch(answer, last_epoch, fetch_offset) {
            // The broker's fetcher acts on a defined diverging epoch only.
            if lose_response || epoch < 0 {
                return;
            }
            let f = self.replicas.get_mut(&follower).unwrap();
            let local = f.end_offset_for_epoch(epoch);
            let t = truncation_offset(epoch, end, f.leo(), local);
            f.truncate(t.offset);
            return;
        }
        if fetch_offset > leader.leo() {
            return;
        }
        if fetch_offset < leader.start {
            // OFFSET_OUT_OF_RANGE below the leader's log start: start over there.
            if lose_response {
                return;
            }
            let (start, log) = (leader.start, leader.log.clone());
            self.replicas
                .get_mut(&follower)
                .unwrap()
                .restart_at(start, &log);
            return;
        }
        // The session was used; whether the fetch names this partition depends on whether
        // the follower's position changed since it last did.
        let implicit = leader
            .leader
            .as_ref()
            .unwrap()
            .follower_log_end_offset(follower)
            == Some(fetch_offset)
            && fetch_offset == leader.leo()
            && self.rng.percent(500);
        let fx = if implicit {
            Default::default()
        } else {
            leader
                .leader
                .as_mut()
                .unwrap()
                .on_fetch(follower, fetch_offset, now, true)
        };
        self.replicas.get_mut(&follower).unwrap().session_ms = Some(now);
        let leader = self.replicas.get_mut(&leader_id).unwrap();
        if let Some(hw) = fx.high_watermark {
            leader.hw = hw;
        }
        if let Some(proposal) = fx.propose {
            trace(|| format!("fetch by {follower} at {fetch_offset}: propose {proposal:?}"));
            self.alters.push((leader_id, proposal));
        }
        let leader = &self.replicas[&leader_id];
        let take = 1 + self.rng.below(16) as usize;
        let batch: Vec<(u64, i32)> = leader.log[fetch_offset as usize..]
            .iter()
            .take(take)
            .copied()
            .collect();
        let (leader_hw, leader_start) = (leader.hw, leader.start);
        if lose_response {
            return;
        }
        let f = self.replicas.get_mut(&follower).unwrap();
        for (x, e) in batch {
            let at = f.leo();
            f.assign_epoch(e, at);
            f.log.push((x, e));
        }
        f.hw = f.hw.max(leader_hw.min(f.leo()));
        // The leader's log start is followed, as far as the follower has committed.
        f.retain_from(leader_start);
    }

    pub fn deliver_alter(&mut self) {
        if self.alters.is_empty() {
            return;
        }
        let (from, proposal) = self.alters.remove(0);
        trace(|| format!("deliver alter from {from}: {proposal:?}"));
        if !self.replicas[&from].alive {
            return;
        }
        if self.rng.percent(10) {
            // Lost: the leader's driver sends the pending proposal again later.
            self.alters.push((from, proposal));
            return;
        }
        let image = self.c.image();
        let epoch = |b: &i32| image.cluster.brokers.get(b).map_or(-1, |r| r.epoch);
        let body = RequestBody::AlterPartition(alter_partition_request::AlterPartitionRequest {
            broker_id: from,
            broker_epoch: epoch(&from),
            topics: vec![alter_partition_request::TopicData {
                topic_id: self.topic_id,
                partitions: vec![alter_partition_request::PartitionData {
                    partition_index: 0,
                    leader_epoch: proposal.leader_epoch,
                    partition_epoch: proposal.partition_epoch,
                    leader_recovery_state: proposal.leader_recovery_state,
                    new_isr_with_epochs: proposal
                        .isr
                        .iter()
                        .map(|b| alter_partition_request::BrokerState {
                            broker_id: *b,
                            broker_epoch: epoch(b),
                            ..Default::default()
                        })
                        .collect(),
                    ..Default::default()
                }],
                ..Default::default()
            }],
            ..Default::default()
        });
        let moving = !self.partition().adding_replicas.is_empty()
            || !self.partition().removing_replicas.is_empty();
        let ResponseBody::AlterPartition(a) = self.req(body, 3) else {
            panic!("AlterPartition answered otherwise")
        };
        if moving
            && self.partition().adding_replicas.is_empty()
            && self.partition().removing_replicas.is_empty()
        {
            self.reassigned.1 += 1;
        }
        let answer = if a.error_code != 0 {
            Err(a.error_code)
        } else {
            let p = &a.topics[0].partitions[0];
            if p.error_code != 0 {
                Err(p.error_code)
            } else {
                Ok(PartitionState {
                    leader_epoch: p.leader_epoch,
                    partition_epoch: p.partition_epoch,
                    replicas: self.partition().replicas,
                    isr: p.isr.clone(),
                    recovering: p.leader_recovery_state == 1,
                })
            }
        };
        let lost_answer = self.rng.percent(10);
        trace(|| format!("alter answer {answer:?} lost {lost_answer}"));
        let r = self.replicas.get_mut(&from).unwrap();
        if let Some(l) = r.leader.as_mut() {
            if lost_answer {
                // No answer: sent again (the controller sees the same change twice).
                if let Some(p) = l.pending().cloned() {
                    self.alters.push((from, p));
                }
            } else if let Some(hw) = l.on_alter_response(answer).high_watermark {
                r.hw = hw;
            }
        }
        self.sync_images();
    }

    pub fn tick(&mut self) {
        self.now += 100 + self.rng.below(1_500) as i64;
        let alive: Vec<i32> = self
            .replicas
            .values()
            .filter(|r| r.alive)
            .map(|r| r.id)
            .collect();
        for id in alive {
            if !self.rng.percent(15) {
                self.heartbeat(id);
            }
        }
        let records = self.c.tick(self.now);
        self.offset += records.len() as i64;
        let starting: Vec<i32> = self
            .replicas
            .values()
            .filter(|r| r.starting)
            .map(|r| r.id)
            .collect();
        for id in starting {
            self.try_start(id);
        }
        self.sync_images();
        let now = self.now;
        let mut proposals = Vec::new();
        let seen = self.sessions();
        for r in self.replicas.values_mut().filter(|r| r.alive) {
            if let Some(l) = r.leader.as_mut() {
                if let Some(p) = l.tick_seen(now, |f| seen[&f]).propose {
                    proposals.push((r.id, p));
                }
            }
        }
        self.alters.extend(proposals);
    }

    /// Each broker's latest session fetch, as the leader core takes it.
    fn sessions(&self) -> BTreeMap<i32, Option<Seen>> {
        self.replicas
            .iter()
            .map(|(id, r)| {
                let seen = r.session_ms.filter(|_| r.alive).map(|at_ms| Seen {
                    at_ms,
                    eligible: true,
                });
                (*id, seen)
            })
            .collect()
    }

    pub fn crash(&mut self, id: i32) {
        trace(|| format!("crash {id}"));
        let r = self.replicas.get_mut(&id).unwrap();
        if !r.alive {
            return;
        }
        r.alive = false;
        r.starting = false;
        r.clean_epoch = -1;
        r.crashes += 1;
        r.session_ms = None;
        let keep = r.flushed as i64;
        r.truncate(keep);
        r.leader = None;
        self.alters.retain(|(from, _)| *from != id);
    }

    /// A clean stop: everything flushed, the clean-shutdown marker keeps the broker epoch.
    pub fn stop_cleanly(&mut self, id: i32) {
        trace(|| format!("clean stop {id}"));
        if !self.replicas[&id].alive {
            return;
        }
        let epoch = self
            .c
            .image()
            .cluster
            .brokers
            .get(&id)
            .map_or(-1, |b| b.epoch);
        let r = self.replicas.get_mut(&id).unwrap();
        r.flushed = r.log.len();
        r.alive = false;
        r.leader = None;
        r.clean_epoch = epoch;
        r.session_ms = None;
        self.alters.retain(|(from, _)| *from != id);
    }

    /// Restarts a stopped broker: it registers (with the broker epoch of its clean-shutdown
    /// marker, or -1 after a crash, KIP-966), retrying while its old session lives.
    pub fn restart(&mut self, id: i32) {
        let r = self.replicas.get_mut(&id).unwrap();
        if r.alive {
            return;
        }
        r.starting = true;
        self.try_start(id);
    }

    pub fn try_start(&mut self, id: i32) {
        let previous = self.replicas[&id].clean_epoch;
        if !self.register(id, previous) {
            return;
        }
        trace(|| {
            format!(
                "started {id} (previous epoch {previous}): {:?}",
                self.partition()
            )
        });
        {
            let r = self.replicas.get_mut(&id).unwrap();
            r.alive = true;
            r.starting = false;
            r.load();
            r.seen_leader_epoch = -1;
            r.clean_epoch = -1;
        }
        self.heartbeat(id);
        self.sync_images();
    }

    /// Answers the acks=-1 produces whose fate is known.
    pub fn settle(&mut self) {
        let p = self.partition();
        let mut still = Vec::new();
        for w in std::mem::take(&mut self.waiting) {
            let r = &self.replicas[&w.leader];
            let leading = r.alive
                && r.leader
                    .as_ref()
                    .is_some_and(|l| l.state().leader_epoch == w.leader_epoch)
                && p.leader_epoch == w.leader_epoch;
            if !leading {
                continue; // NOT_LEADER_OR_FOLLOWER: never acknowledged
            }
            match r.leader.as_ref().unwrap().ack_state(w.required) {
                AckState::Waiting => still.push(w),
                AckState::NotEnoughReplicasAfterAppend => {}
                AckState::Done => {
                    for (offset, id) in w.records {
                        let holders = self
                            .replicas
                            .values()
                            .filter(|h| {
                                h.alive && h.log.get(offset as usize).is_some_and(|e| e.0 == id)
                            })
                            .map(|h| (h.id, h.crashes))
                            .collect();
                        self.acked.push(Acked {
                            offset,
                            id,
                            holders,
                        });
                    }
                }
            }
        }
        self.waiting = still;
    }

    pub fn check(&mut self, step: usize) {
        let ctx = |what: String| format!("seed {} step {step}: {what}", self.seed);
        let p = self.partition();
        // A leader's high watermark never goes back in its epoch.
        for r in self.replicas.values().filter(|r| r.alive) {
            if let Some(l) = &r.leader {
                let key = (r.id, l.state().leader_epoch);
                let hw = l.high_watermark();
                let before = self.leader_hw.get(&key).copied().unwrap_or(i64::MIN);
                assert!(
                    hw >= before,
                    "{}",
                    ctx(format!("leader {} hw went back {before} -> {hw}", r.id))
                );
                self.leader_hw.insert(key, hw);
                assert_eq!(r.hw, hw, "{}", ctx("the leader publishes its hw".into()));
            }
        }
        // The rest holds for clean histories: after an unclean (or designated) election a
        // replica may know a high watermark over records the new leader never had, until it
        // follows the new leader (the recovery simulation checks what happens then).
        if self.c.counters.unclean_elections > 0 {
            return;
        }
        // Replicas agree below their high watermarks.
        let live: Vec<&Replica> = self.replicas.values().filter(|r| r.alive).collect();
        for a in &live {
            for b in &live {
                let upto = a.hw.min(b.hw).min(a.leo()).min(b.leo()).max(0) as usize;
                let from = (a.start.max(b.start) as usize).min(upto);
                assert_eq!(
                    a.log[from..upto],
                    b.log[from..upto],
                    "{}",
                    ctx(format!(
                        "brokers {} and {} disagree below {upto}",
                        a.id, b.id
                    ))
                );
            }
        }
        // Acknowledged records survive while a holder that never crashed since is in the
        // ISR or ELR: the leader has them.
        if p.leader < 0 {
            return;
        }
        let Some(leader) = self.replicas.get(&p.leader).filter(|r| r.alive) else {
            return;
        };
        for a in &self.acked {
            if a.offset < leader.start {
                continue; // retention removed it: not a loss
            }
            let survivor = a.holders.iter().any(|(h, crashes)| {
                self.replicas[h].crashes == *crashes
                    && self.replicas[h].alive
                    && (p.isr.contains(h) || p.elr.contains(h))
            });
            if survivor {
                assert_eq!(
                    leader.log.get(a.offset as usize).map(|e| e.0),
                    Some(a.id),
                    "{}",
                    ctx(format!(
                        "acknowledged record {} at {} is not on leader {} (isr {:?}, elr {:?})",
                        a.id, a.offset, p.leader, p.isr, p.elr
                    ))
                );
            }
        }
    }

    /// AlterPartitionReassignments to a random set of one to three brokers in a random
    /// order, or (one time in four) a cancellation.
    pub fn reassign(&mut self) {
        let replicas = if self.rng.percent(25) {
            None
        } else {
            let mut ids = BROKERS.to_vec();
            for i in (1..ids.len()).rev() {
                ids.swap(i, self.rng.below(i as u64 + 1) as usize);
            }
            ids.truncate(1 + self.rng.below(BROKERS.len() as u64) as usize);
            Some(ids)
        };
        let before = self.partition();
        let r = self.req(
            RequestBody::AlterPartitionReassignments(
                alter_partition_reassignments_request::AlterPartitionReassignmentsRequest {
                    topics: vec![alter_partition_reassignments_request::ReassignableTopic {
                        name: "t".into(),
                        partitions: vec![
                            alter_partition_reassignments_request::ReassignablePartition {
                                partition_index: 0,
                                replicas: replicas.clone(),
                                ..Default::default()
                            },
                        ],
                        ..Default::default()
                    }],
                    ..Default::default()
                },
            ),
            1,
        );
        let ResponseBody::AlterPartitionReassignments(r) = r else {
            panic!("AlterPartitionReassignments answered {r:?}")
        };
        let code = r.responses[0].partitions[0].error_code;
        let after = self.partition();
        trace(|| format!("reassign to {replicas:?}: {code}: {after:?}"));
        if code == 0 && after != before {
            self.reassigned.0 += 1;
            if after.adding_replicas.is_empty() && after.removing_replicas.is_empty() {
                // Done at once (a target already in sync), or cancelled.
                self.reassigned.1 += 1;
            }
        }
        self.sync_images();
    }

    pub fn step(&mut self, step: usize) {
        if self.reassignments && self.rng.percent(3) {
            self.reassign();
            self.settle();
            self.check(step);
            return;
        }
        let roll = self.rng.below(100);
        if std::env::var("FJORD_SIM_TRACE").is_ok_and(|v| v == "2") {
            let p = self.partition();
            eprintln!(
                "step {step} roll {roll}: leader {} epoch {} isr {:?} elr {:?} fenced {:?} alive {:?}",
                p.leader,
                p.leader_epoch,
                p.isr,
                p.elr,
                self.c.image().cluster.brokers.values().map(|b| (b.id, b.fenced, b.epoch)).collect::<Vec<_>>(),
                self.replicas.values().map(|r| (r.id, r.alive, r.leo(), r.hw)).collect::<Vec<_>>()
            );
        }
        match roll {
            0..=24 => self.produce(),
            25..=59 => {
                let f = BROKERS[self.rng.below(3) as usize];
                self.fetch(f);
            }
            60..=71 => self.tick(),
            72..=81 => self.deliver_alter(),
            82..=88 => {
                let id = BROKERS[self.rng.below(3) as usize];
                let r = self.replicas.get_mut(&id).unwrap();
                r.flushed = r.log.len();
            }
            89 => {
                // Retention or DeleteRecords on the leader: its log start moves up (within what
                // it flushed and committed), at times as far as that goes, emptying the log when
                // everything was flushed and committed.
                if let Some(id) = self.acting_leader() {
                    let n = 1 + self.rng.below(8) as i64;
                    let all = self.rng.percent(40);
                    let r = self.replicas.get_mut(&id).unwrap();
                    let to = if all {
                        r.flushed as i64
                    } else {
                        (r.start + n).min(r.flushed as i64)
                    };
                    r.retain_from(to);
                }
            }
            90 => {
                let id = BROKERS[self.rng.below(3) as usize];
                self.crash(id);
            }
            91..=92 => {
                let id = BROKERS[self.rng.below(3) as usize];
                self.stop_cleanly(id);
            }
            _ => {
                let id = BROKERS[self.rng.below(3) as usize];
                self.restart(id);
            }
        }
        self.settle();
        self.check(step);
    }
}

/// Runs one seed's history `f`, turning a failure into a panic that says how to replay it.
pub fn run_seed<T>(seed: u64, f: impl FnOnce() -> T + std::panic::UnwindSafe) -> T {
    match std::panic::catch_unwind(f) {
        Ok(t) => t,
        Err(e) => {
            let msg = e
                .downcast_ref::<String>()
                .cloned()
                .or_else(|| e.downcast_ref::<&str>().map(|s| s.to_string()))
                .unwrap_or_default();
            panic!("seed {seed} failed (replay with FJORD_SIM_SEED={seed}): {msg}");
        }
    }
}
