//! A seeded simulation of a share-partition (its leader's [`SharePartition`]) and its share
//! coordinator ([`ShareState`] folding `__share_group_state` records), with lost and refused
//! writes, lock expiry, members leaving, failing dead-letter writes, leader moves (a new leader
//! reads the state back) and coordinator moves (the state is rebuilt from its records).
//!
//! The oracle knows nothing of the state machine: it watches what consumers were given and
//! told, and checks KIP-932's promises:
//! - a record whose acknowledgement (accept, reject, gap) was answered success is never
//!   delivered again;
//! - a record is never delivered while another live member's lock on it is unexpired (on the
//!   same leader: a new leader forgets locks);
//! - a record is archived without a consumer saying so only after it was delivered as often as
//!   the limit allows, and then it reaches the dead-letter queue when the group has one;
//! - a valid acknowledgement of a held, unexpired record is accepted;
//! - the state a new leader reads back equals what the old leader's landed writes say, and the
//!   state rebuilt from the records equals the state before;
//! - when consumers accept everything, every record is eventually done and the start offset
//!   reaches the end of the log;
//! - the records between start and end never exceed the in-flight limit.

use std::collections::{BTreeMap, BTreeSet, HashMap};

use fjord_share::partition::Effects;
use fjord_share::state::{ShareRecord, ShareState};
use fjord_share::{AckBatch, AckType, LogBatch, PartitionConfig, SharePartition, Ticket, Write};
use fjord_util::sim_rng::SimRng;

const MEMBERS: [&str; 3] = ["m0", "m1", "m2"];

/// The log: batches, some to skip (control batches, aborted transactions), some offsets
/// missing (compacted away).
fn make_log(rng: &mut SimRng, records: i64) -> Vec<LogBatch> {
    let mut out = Vec::new();
    let mut o = 0;
    while o < records {
        if rng.percent(5) {
            o += 1 + rng.below(3) as i64; // a gap
            continue;
        }
        let len = 1 + rng.below(5) as i64;
        out.push(LogBatch {
            first: o,
            last: o + len - 1,
            skip: rng.percent(8),
        });
        o += len;
    }
    out
}

struct World {
    rng: SimRng,
    cfg: PartitionConfig,
    log: Vec<LogBatch>,
    now: u64,
    epoch: i32,
    leader: SharePartition,
    coordinator: ShareState,
    /// Records since the last snapshot, to rebuild the coordinator from.
    records: Vec<ShareRecord>,
    /// Writes on their way to the coordinator: (leader epoch that sent it, write, whether an
    /// earlier attempt's answer was lost, so it may have landed).
    to_coordinator: Vec<(i32, Write, bool)>,
    /// Answers on their way to the leader: (epoch, write id, landed).
    to_leader: Vec<(i32, u64, bool)>,
    /// Dead-letter jobs the driver has to do: (epoch, job).
    dead_jobs: Vec<(i32, fjord_share::DeadLetter)>,
    /// Tickets in flight: ticket -> (member, offsets with their types).
    tickets: HashMap<Ticket, (usize, Vec<(i64, AckType)>)>,
    live: [bool; 3],
    // The oracle.
    deliveries: BTreeMap<i64, u32>,
    /// Deliveries of each offset by each leader epoch (the oracle's own count).
    epoch_deliveries: BTreeMap<(i64, i32), u32>,
    /// Offset -> (member, epoch, lock deadline).
    holder: BTreeMap<i64, (usize, i32, u64)>,
    /// Offsets whose accept/reject/gap was answered success.
    done_by_client: BTreeSet<i64>,
    /// Offsets rejected with success.
    rejected: BTreeSet<i64>,
    /// Offsets a consumer sent an accept, reject or gap for, whatever the answer (a leader
    /// that moves away never answers, yet what it wrote stands).
    sent_done: BTreeSet<i64>,
    /// Offsets written to the dead-letter queue: offset -> (delivery count, rejected, leader
    /// epoch).
    dead: BTreeMap<i64, (u16, bool, i32)>,
    faults: bool,
}

impl World {
    fn new(seed: u64) -> World {
        let mut rng = SimRng::new(seed);
        let cfg = PartitionConfig {
            max_delivery_count: 2 + rng.below(4) as u16,
            lock_duration_ms: 1_000,
            max_in_flight: 8 + rng.below(40) as usize,
            dead_letter: rng.percent(50),
        };
        let records = 20 + rng.below(60) as i64;
        let log = make_log(&mut rng, records);
        let mut coordinator = ShareState::default();
        let init = ShareState::initialize(0, 0);
        coordinator.replay(&init);
        let (state, bump) = coordinator.read(0).unwrap();
        let mut recs = vec![init];
        if let Some(b) = bump {
            coordinator.replay(&b);
            recs.push(b);
        }
        World {
            leader: SharePartition::load(cfg.clone(), 0, &state),
            rng,
            cfg,
            log,
            now: 0,
            epoch: 0,
            coordinator,
            records: recs,
            to_coordinator: Vec::new(),
            to_leader: Vec::new(),
            dead_jobs: Vec::new(),
            tickets: HashMap::new(),
            live: [true; 3],
            deliveries: BTreeMap::new(),
            epoch_deliveries: BTreeMap::new(),
            holder: BTreeMap::new(),
            done_by_client: BTreeSet::new(),
            rejected: BTreeSet::new(),
            sent_done: BTreeSet::new(),
            dead: BTreeMap::new(),
            faults: true,
        }
    }

    fn log_end(&self) -> i64 {
        self.log.last().map_or(0, |b| b.last + 1)
    }

    /// Whether `o` is a record a consumer can be given (in the log, not skipped).
    fn deliverable(&self, o: i64) -> bool {
        self.log
            .iter()
            .any(|b| !b.skip && b.first <= o && o <= b.last)
    }

    fn effects(&mut self, e: Effects) {
        for w in e.writes {
            self.to_coordinator.push((self.epoch, w, false));
        }
        for d in e.dead_letters {
            self.dead_jobs.push((self.epoch, d));
        }
        for (t, ok) in e.completed {
            let (member, acks) = self.tickets.remove(&t).expect("known ticket");
            if !ok {
                // Part of it may have landed (a write did, a dead-letter job did not): the
                // consumer is told it failed and can rely on none of those locks.
                for (o, _) in acks {
                    self.holder.remove(&o);
                }
                continue;
            }
            for (o, ty) in acks {
                match ty {
                    AckType::Accept | AckType::Gap | AckType::Reject => {
                        self.done_by_client.insert(o);
                        if ty == AckType::Reject {
                            self.rejected.insert(o);
                        }
                        self.holder.remove(&o);
                    }
                    AckType::Release => {
                        self.holder.remove(&o);
                    }
                    AckType::Renew => {}
                }
                let _ = member;
            }
        }
    }

    fn fetch(&mut self, m: usize) {
        let from = self.leader.next_fetch_offset();
        let batches: Vec<LogBatch> = self
            .log
            .iter()
            .filter(|b| b.last >= from)
            .take(1 + self.rng.below(4) as usize)
            .copied()
            .collect();
        let max = 1 + self.rng.below(10) as usize;
        let strict = self.rng.percent(50);
        let (got, e) = self
            .leader
            .acquire(MEMBERS[m], self.now, &batches, max, strict);
        if strict {
            let n: i64 = got.iter().map(|a| a.last - a.first + 1).sum();
            assert!(n as usize <= max, "record-limit mode gave {n} > {max}");
        }
        for a in &got {
            // The delivery limit: never a delivery past it, whatever the leader counts, and
            // (counted here, independently) never more deliveries than it within one leader.
            assert!(
                a.delivery_count <= self.cfg.max_delivery_count,
                "offsets {}-{} delivered a {}th time, limit {}",
                a.first,
                a.last,
                a.delivery_count,
                self.cfg.max_delivery_count
            );
            for o in a.first..=a.last {
                let in_epoch = self.epoch_deliveries.entry((o, self.epoch)).or_default();
                *in_epoch += 1;
                assert!(
                    *in_epoch <= u32::from(self.cfg.max_delivery_count),
                    "offset {o} delivered {in_epoch} times by one leader, limit {}",
                    self.cfg.max_delivery_count
                );
                assert!(
                    self.deliverable(o),
                    "offset {o} is not a record but was delivered"
                );
                assert!(
                    !self.done_by_client.contains(&o),
                    "offset {o} delivered again after its acknowledgement succeeded"
                );
                // Within one leader: a new leader that never heard the archive land may deliver
                // it again (delivery counts are written with state changes, not acquisitions,
                // as in Kafka).
                assert!(
                    self.dead.get(&o).is_none_or(|d| d.2 != self.epoch),
                    "offset {o} delivered again after it went to the dead-letter queue"
                );
                if let Some(&(h, ep, deadline)) = self.holder.get(&o) {
                    assert!(
                        !(ep == self.epoch && self.live[h] && self.now < deadline),
                        "offset {o} delivered to {m} while {h} holds it until {deadline} (now {})",
                        self.now
                    );
                }
                let d = self.deliveries.entry(o).or_default();
                *d += 1;
                self.holder
                    .insert(o, (m, self.epoch, self.now + self.cfg.lock_duration_ms));
            }
        }
        self.effects(e);
    }

    fn acknowledge(&mut self, m: usize, accept_all: bool) {
        let held: Vec<i64> = self
            .holder
            .iter()
            .filter(|(_, (h, ep, d))| *h == m && *ep == self.epoch && self.now < *d)
            .map(|(o, _)| *o)
            .filter(|o| {
                // Not already in an acknowledgement in flight.
                !self
                    .tickets
                    .values()
                    .any(|(_, acks)| acks.iter().any(|(a, _)| a == o))
            })
            .collect();
        if held.is_empty() {
            return;
        }
        let mut acks = Vec::new();
        let mut typed = Vec::new();
        for o in held {
            if !accept_all && self.rng.percent(30) {
                continue;
            }
            let ty = if accept_all {
                AckType::Accept
            } else {
                match self.rng.below(20) {
                    0..=10 => AckType::Accept,
                    11..=13 => AckType::Release,
                    14..=15 => AckType::Reject,
                    16..=18 => AckType::Renew,
                    _ => AckType::Gap,
                }
            };
            acks.push(AckBatch {
                first: o,
                last: o,
                types: vec![ty],
            });
            typed.push((o, ty));
        }
        if acks.is_empty() {
            return;
        }
        // Each offset here is held by m on this leader with an unexpired lock, as far as the
        // member was told: the acknowledgement must be accepted.
        let (ticket, e) = self
            .leader
            .acknowledge(MEMBERS[m], self.now, &acks)
            .unwrap_or_else(|err| panic!("valid acknowledgement refused: {err}"));
        for (o, ty) in &typed {
            if *ty == AckType::Renew {
                self.holder
                    .insert(*o, (m, self.epoch, self.now + self.cfg.lock_duration_ms));
            }
        }
        for (o, ty) in &typed {
            if matches!(ty, AckType::Accept | AckType::Reject | AckType::Gap) {
                self.sent_done.insert(*o);
            }
            // A consumer that acknowledges a record (other than renewing) is done with it,
            // whatever the answer: its lock no longer protects anything.
            if *ty != AckType::Renew {
                self.holder.remove(o);
            }
        }
        self.tickets.insert(ticket, (m, typed));
        self.effects(e);
    }

    /// The coordinator handles one write.
    fn deliver_write(&mut self) {
        if self.to_coordinator.is_empty() {
            return;
        }
        let i = self.rng.below(self.to_coordinator.len() as u64) as usize;
        let (epoch, w, uncertain) = self.to_coordinator.swap_remove(i);
        if self.faults && self.rng.percent(10) {
            // Lost on the way: the driver sends it again.
            self.to_coordinator.push((epoch, w, uncertain));
            return;
        }
        if self.faults && self.rng.percent(5) {
            // Refused without being applied (the coordinator failed to append it). After a
            // lost answer the driver cannot tell this from a landed write, so it tries again
            // until the write lands or is fenced; otherwise the leader rolls the change back.
            if uncertain {
                self.to_coordinator.push((epoch, w, true));
            } else {
                self.to_leader.push((epoch, w.id, false));
            }
            return;
        }
        let landed = match self.coordinator.write(
            w.state_epoch,
            w.leader_epoch,
            w.start_offset,
            &w.batches,
            fjord_share::state::UPDATES_PER_SNAPSHOT,
        ) {
            Ok(r) => {
                if matches!(r, ShareRecord::Snapshot { .. }) {
                    self.records.clear();
                }
                self.coordinator.replay(&r);
                self.records.push(r);
                true
            }
            Err(_) => false,
        };
        if landed && self.faults && self.rng.percent(10) {
            // Applied, but the answer was lost: the driver sends it again.
            self.to_coordinator.push((epoch, w, true));
            return;
        }
        self.to_leader.push((epoch, w.id, landed));
    }

    fn deliver_answer(&mut self) {
        if self.to_leader.is_empty() {
            return;
        }
        let i = self.rng.below(self.to_leader.len() as u64) as usize;
        let (epoch, id, landed) = self.to_leader.swap_remove(i);
        if epoch != self.epoch {
            return; // the old leader is gone
        }
        let e = self.leader.write_done(id, landed);
        self.effects(e);
    }

    fn dead_letter(&mut self) {
        if self.dead_jobs.is_empty() {
            return;
        }
        let i = self.rng.below(self.dead_jobs.len() as u64) as usize;
        let (epoch, job) = self.dead_jobs.swap_remove(i);
        let written = !(self.faults && self.rng.percent(15));
        if written {
            for o in job.first..=job.last {
                if !job.rejected {
                    assert!(
                        u32::from(job.delivery_count) >= u32::from(self.cfg.max_delivery_count),
                        "offset {o} dead-lettered after {} deliveries, limit {}",
                        job.delivery_count,
                        self.cfg.max_delivery_count
                    );
                    assert!(
                        self.deliveries.get(&o).copied().unwrap_or(0)
                            >= u32::from(self.cfg.max_delivery_count),
                        "offset {o} dead-lettered but delivered only {:?} times",
                        self.deliveries.get(&o)
                    );
                }
                self.dead
                    .insert(o, (job.delivery_count, job.rejected, epoch));
            }
        }
        if epoch != self.epoch {
            return;
        }
        let e = self.leader.dead_lettered(job.id, written);
        self.effects(e);
    }

    fn tick(&mut self) {
        self.now += self.rng.below(self.cfg.lock_duration_ms / 3);
        let e = self.leader.expire(self.now);
        self.effects(e);
    }

    fn leave(&mut self, m: usize) {
        self.live[m] = false;
        let e = self.leader.release_member(MEMBERS[m]);
        self.effects(e);
        self.live[m] = true; // it rejoins as a new incarnation
        self.holder.retain(|_, (h, _, _)| *h != m);
    }

    /// A new leader: it reads the state back and starts from it. The old leader's writes in
    /// flight may still reach the coordinator, which fences them.
    fn move_leader(&mut self) {
        self.check_durable();
        self.epoch += 1;
        let (state, bump) = self.coordinator.read(self.epoch).expect("newest leader");
        if let Some(b) = bump {
            self.coordinator.replay(&b);
            self.records.push(b);
        }
        self.leader = SharePartition::load(self.cfg.clone(), self.epoch, &state);
        // The old leader's pending acknowledgements are never answered.
        self.tickets.clear();
        self.dead_jobs.retain(|(e, _)| *e == self.epoch);
    }

    /// A new coordinator rebuilds the state from the records.
    fn move_coordinator(&mut self) {
        let mut again = ShareState::default();
        for r in &self.records {
            again.replay(r);
        }
        assert_eq!(
            again.persisted().normalized(),
            self.coordinator.persisted().normalized(),
            "state rebuilt from records differs"
        );
        self.coordinator = again;
    }

    /// When the leader has nothing outstanding, what its landed writes say equals what the
    /// coordinator holds.
    fn check_durable(&self) {
        if self.leader.outstanding() > 0
            || self.to_coordinator.iter().any(|(e, _, _)| *e == self.epoch)
        {
            return;
        }
        let mut ours = self.leader.durable_view();
        let mut theirs = self.coordinator.persisted().normalized();
        ours.leader_epoch = 0;
        theirs.leader_epoch = 0;
        assert_eq!(
            ours, theirs,
            "the leader's landed writes and the coordinator disagree"
        );
    }

    fn step(&mut self) {
        let m = self.rng.below(3) as usize;
        match self.rng.below(100) {
            0..=24 => self.fetch(m),
            25..=44 => self.acknowledge(m, false),
            45..=59 => self.deliver_write(),
            60..=71 => self.deliver_answer(),
            72..=79 => self.dead_letter(),
            80..=91 => self.tick(),
            92..=94 => self.leave(m),
            95..=96 => self.move_leader(),
            97 => self.move_coordinator(),
            _ => self.check_durable(),
        }
        // Bounded: never more records between start and end than may be in flight.
        let window = self.leader.end() - self.leader.start_offset();
        assert!(
            window <= self.cfg.max_in_flight as i64,
            "{window} records in flight, limit {}",
            self.cfg.max_in_flight
        );
    }

    /// No more faults: everything outstanding settles, and consumers accept all they get.
    fn drain(&mut self) {
        self.faults = false;
        for _ in 0..20_000 {
            while !self.to_coordinator.is_empty() {
                self.deliver_write();
            }
            while !self.to_leader.is_empty() {
                self.deliver_answer();
            }
            while !self.dead_jobs.is_empty() {
                self.dead_letter();
            }
            if self.leader.start_offset() >= self.log_end() && self.leader.outstanding() == 0 {
                break;
            }
            for m in 0..3 {
                self.fetch(m);
                self.acknowledge(m, true);
            }
            self.now += self.cfg.lock_duration_ms;
            let e = self.leader.expire(self.now);
            self.effects(e);
        }
        self.check_durable();
        assert!(
            self.leader.start_offset() >= self.log_end(),
            "start offset {} never reached the log end {} (its state {:?}, next fetch {}, {} outstanding, epoch {})",
            self.leader.start_offset(),
            self.log_end(),
            self.leader.state_of(self.leader.start_offset()),
            self.leader.next_fetch_offset(),
            self.leader.outstanding(),
            self.epoch
        );
        // Every record is accounted for.
        for o in 0..self.log_end() {
            if !self.deliverable(o) {
                continue;
            }
            if self.done_by_client.contains(&o) {
                if self.rejected.contains(&o) && self.cfg.dead_letter {
                    assert!(
                        self.dead.contains_key(&o),
                        "rejected offset {o} not dead-lettered"
                    );
                }
                continue;
            }
            if self.sent_done.contains(&o) {
                continue;
            }
            let delivered = self.deliveries.get(&o).copied().unwrap_or(0);
            assert!(
                delivered >= u32::from(self.cfg.max_delivery_count),
                "offset {o} finished without an acknowledgement after {delivered} deliveries"
            );
            if self.cfg.dead_letter {
                assert!(
                    self.dead.contains_key(&o),
                    "offset {o} archived at the delivery limit but not dead-lettered"
                );
            }
        }
    }
}

fn run(seed: u64) {
    let mut w = World::new(seed);
    let steps = 300 + w.rng.below(700);
    for _ in 0..steps {
        w.step();
    }
    w.drain();
    w.move_coordinator();
}

#[test]
fn share_partition_simulation() {
    let seeds: u64 = std::env::var("FJORD_SHARE_SEEDS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(1_000);
    for seed in 0..seeds {
        let r = std::panic::catch_unwind(|| run(seed));
        if let Err(e) = r {
            eprintln!("seed {seed} failed");
            std::panic::resume_unwind(e);
        }
    }
}
