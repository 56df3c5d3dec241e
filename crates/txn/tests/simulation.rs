//! Seeded simulation of one transaction coordinator shard against an independent oracle.
//!
//! Several producer instances share a few transactional ids and act at random: InitProducerId
//! (with and without their old id and epoch), AddPartitionsToTxn, EndTxn; time passes, marker
//! jobs complete in any order, and the shard is reloaded from its records at random. The
//! oracle holds what must always be true, from the outside:
//! - zombie fencing: only the instance that last got an epoch for an id, and whose
//!   transaction was not aborted by a fence since, can add partitions or end a transaction;
//! - one decision per transaction: a retried EndTxn is accepted only if it agrees with how the
//!   transaction ended; an accepted commit is followed by commit markers (never an
//!   abort) for exactly the partitions the instance added, and a fence or timeout only aborts;
//! - epochs of a producer id only grow in the records;
//! - the state is the fold of the records: a shard rebuilt from them equals the live one;
//! - nothing stays open: a transaction past its timeout is aborted by the next check;
//! - transaction version 2 (each instance is version 1 or 2 at random): every epoch handed
//!   out (InitProducerId, or a version 2 EndTxn) goes to one instance only and is above every
//!   epoch of that producer id handed out before; a version 2 end of an open transaction
//!   hands out the next epoch (or epoch 0 of a new producer id once the epoch is exhausted:
//!   one id starts near the end of its epochs); a retried end with the epoch before gets
//!   exactly what the first one got; a fenced version 2 producer may only abort (Kafka lets
//!   it go on with the epoch its fence bumped to, until a new instance takes the id).
//!
//! `FJORD_SIM_SEEDS` sets how many seeds run (default 500).

use fjord_protocol::ErrorCode;
use fjord_txn::shard::{EndRequest, InitRequest};
use fjord_txn::state::MAX_EPOCH;
use fjord_txn::{MarkerJob, Output, Shard, TxnConfig, TxnMetadata, TxnRecord, TxnState};
use fjord_util::SimRng as Rng;
use std::collections::{BTreeMap, BTreeSet};
use std::sync::atomic::{AtomicUsize, Ordering};

/// Version 2 ends that moved to a new producer id, and retried ends answered, over all
/// seeds (the run checks both happened, so the oracle saw them).
static ROTATIONS: AtomicUsize = AtomicUsize::new(0);
static RETRIES_ANSWERED: AtomicUsize = AtomicUsize::new(0);

/// A producer id and epoch.
type Producer = (i64, i16);

/// One producer instance.
#[derive(Debug, Clone)]
struct Instance {
    id: String,
    producer: Option<(i64, i16)>,
    added: BTreeSet<(String, i32)>,
    /// Transaction version 2.
    v2: bool,
    /// The producer id and epoch it had before its last version 2 end, and the answer.
    before_end: Option<(Producer, bool, Producer)>,
}

/// What the oracle knows of one transactional id.
#[derive(Debug, Default)]
struct Truth {
    /// The instance that last got an epoch, with it.
    holder: Option<(usize, (i64, i16))>,
    /// The holder's transaction was aborted by a fence or timeout since.
    fenced: bool,
    /// A decided transaction awaiting its markers: commit?, partitions.
    decided: Option<(bool, BTreeSet<(String, i32)>)>,
    /// How the last transaction ended (a retried EndTxn must agree with it).
    last: Option<bool>,
}

fn config() -> TxnConfig {
    TxnConfig {
        max_timeout_ms: 10_000,
        id_expiration_ms: 1_000_000_000,
        abort_timed_out_interval_ms: 500,
        remove_expired_interval_ms: 1_000_000_000,
    }
}

fn comparable(s: &Shard) -> BTreeMap<String, TxnMetadata> {
    s.all()
        .map(|m| {
            let mut m = m.clone();
            m.last_producer_epoch = -1;
            (m.transactional_id.clone(), m)
        })
        .collect()
}

struct Sim {
    rng: Rng,
    shard: Shard,
    log: Vec<TxnRecord>,
    jobs: Vec<MarkerJob>,
    truth: BTreeMap<String, Truth>,
    instances: Vec<Instance>,
    now: i64,
    next_pid: i64,
    epochs: BTreeMap<i64, i16>,
    /// Every (producer id, epoch) handed out per transactional id, with its instance.
    handed: BTreeMap<String, Vec<(Producer, usize)>>,
}

impl Sim {
    fn hand_out(&mut self, id: &str, i: usize, p: (i64, i16)) {
        let list = self.handed.entry(id.to_string()).or_default();
        if let Some((_, who)) = list.iter().find(|(q, _)| *q == p) {
            assert_eq!(*who, i, "{p:?} of {id} handed to two instances");
            return;
        }
        if let Some(max) = list
            .iter()
            .filter(|(q, _)| q.0 == p.0)
            .map(|(q, _)| q.1)
            .max()
        {
            assert!(p.1 > max, "{p:?} of {id} handed out after epoch {max}");
        }
        list.push((p, i));
    }

    fn absorb(&mut self, out: Output) {
        for r in &out.records {
            if let Some(m) = &r.value {
                let e = self.epochs.entry(m.producer_id).or_insert(-1);
                assert!(
                    m.producer_epoch >= *e,
                    "epoch of {} went back",
                    m.producer_id
                );
                *e = m.producer_epoch;
            }
        }
        self.log.extend(out.records);
        for job in out.markers {
            let t = self.truth.entry(job.transactional_id.clone()).or_default();
            match &t.decided {
                Some((commit, parts)) if job.commit => {
                    assert!(*commit, "a commit marker for an abort decision: {job:?}");
                    let got: BTreeSet<(String, i32)> = job.partitions.iter().cloned().collect();
                    assert_eq!(&got, parts, "commit markers go to the partitions added");
                }
                _ if job.commit => panic!("commit markers without a commit decision: {job:?}"),
                // An abort: by the producer, a fence or a timeout.
                _ => {
                    if t.decided.as_ref().is_some_and(|(c, _)| *c) {
                        panic!("an abort after a commit decision: {job:?}");
                    }
                    if t.decided.is_none() {
                        t.fenced = true;
                    }
                    t.last = Some(false);
                }
            }
            self.jobs
                .retain(|j| j.transactional_id != job.transactional_id);
            self.jobs.push(job);
        }
    }

    fn step(&mut self) {
        let n = self.instances.len() as u64;
        let i = self.rng.below(n) as usize;
        match self.rng.below(10) {
            0 | 1 => self.init(i),
            2..=4 => self.add(i),
            5 | 6 => {
                if self.instances[i].v2 && self.rng.below(4) == 0 {
                    self.retry_end(i)
                } else {
                    self.end(i)
                }
            }
            7 => {
                self.now += self.rng.below(3_000) as i64;
                let out = self.shard.tick(self.now);
                trace(&format!("tick {} {:?}", self.now, out.records));
                self.absorb(out);
                // Nothing open past its timeout at a check.
                for m in self.shard.all() {
                    if m.state == TxnState::Ongoing {
                        assert!(m.start_ms + i64::from(m.timeout_ms) >= self.now - 500 - 3_000);
                    }
                }
            }
            8 => {
                if !self.jobs.is_empty() {
                    let k = self.rng.below(self.jobs.len() as u64) as usize;
                    let job = self.jobs.remove(k);
                    if let Some(t) = self.truth.get_mut(&job.transactional_id) {
                        t.decided = None;
                    }
                    let out = self.shard.markers_written(&job, self.now);
                    self.absorb(out);
                }
            }
            _ => {
                // The partition moves: a new shard folds the records.
                let mut s = Shard::new(config(), 1);
                for r in &self.log {
                    s.replay(r.clone());
                }
                assert_eq!(comparable(&s), comparable(&self.shard));
                self.jobs.clear();
                self.shard = s;
                let out = self.shard.loaded(self.now);
                // Re-sent jobs must agree with what was decided.
                self.absorb(out);
            }
        }
    }

    fn init(&mut self, i: usize) {
        let inst = self.instances[i].clone();
        let expected = if self.rng.below(2) == 0 {
            inst.producer
        } else {
            None
        };
        let fresh = self.shard.needs_producer_id(&inst.id).then(|| {
            self.next_pid += 1;
            self.next_pid
        });
        let r = InitRequest {
            transactional_id: inst.id.clone(),
            timeout_ms: 1_000 + self.rng.below(4_000) as i32,
            expected,
        };
        let (out, answer) = self.shard.init_producer_id(&r, fresh, self.now);
        trace(&format!("init {i} {r:?} -> {answer:?} {:?}", out.records));
        self.absorb(out);
        if let Ok(p) = answer {
            self.hand_out(&inst.id, i, p);
            self.instances[i].before_end = None;
            let t = self.truth.entry(inst.id.clone()).or_default();
            t.holder = Some((i, p));
            t.fenced = false;
            self.instances[i].producer = Some(p);
            self.instances[i].added.clear();
        }
    }

    fn allowed(&self, i: usize) -> bool {
        let inst = &self.instances[i];
        self.truth.get(&inst.id).is_some_and(|t| {
            !t.fenced
                && t.holder
                    .is_some_and(|(h, p)| h == i && Some(p) == inst.producer)
        })
    }

    fn add(&mut self, i: usize) {
        let Some((pid, epoch)) = self.instances[i].producer else {
            return;
        };
        let parts: Vec<(String, i32)> = (0..1 + self.rng.below(3))
            .map(|_| (format!("t{}", self.rng.below(2)), self.rng.below(3) as i32))
            .collect();
        let id = self.instances[i].id.clone();
        let allowed = self.allowed(i);
        let version = if self.instances[i].v2 { 2 } else { 0 };
        let (out, answer) = self
            .shard
            .add_partitions(&id, pid, epoch, &parts, version, self.now);
        trace(&format!("add {i} {id} {pid}/{epoch} -> {answer:?}"));
        self.absorb(out);
        if answer.is_ok() {
            assert!(
                allowed,
                "a zombie added partitions: instance {i} {pid}/{epoch}"
            );
            self.instances[i].added.extend(parts);
        }
    }

    fn end(&mut self, i: usize) {
        let Some((pid, epoch)) = self.instances[i].producer else {
            return;
        };
        let commit = self.rng.below(2) == 0;
        let v2 = self.instances[i].v2;
        let id = self.instances[i].id.clone();
        let allowed = self.allowed(i);
        let m = self.shard.get(&id).cloned();
        let was_ongoing = m.as_ref().is_some_and(|m| m.state == TxnState::Ongoing);
        let current = m
            .as_ref()
            .is_some_and(|m| (m.producer_id, m.producer_epoch) == (pid, epoch));
        // Version 2: an abort with nothing open is a new (empty) transaction's end.
        let empty_abort = v2
            && !commit
            && allowed
            && current
            && m.as_ref().is_some_and(|m| {
                matches!(
                    m.state,
                    TxnState::Empty | TxnState::CompleteCommit | TxnState::CompleteAbort
                )
            });
        if (was_ongoing || empty_abort) && allowed {
            // The decision the markers must carry.
            let parts = if empty_abort {
                BTreeSet::new()
            } else {
                self.instances[i].added.clone()
            };
            let t = self.truth.get_mut(&id).expect("known");
            t.decided = Some((commit, parts));
            t.last = Some(commit);
        }
        let r = EndRequest {
            transactional_id: id.clone(),
            producer_id: pid,
            producer_epoch: epoch,
            commit,
            client_version: if v2 { 2 } else { 0 },
        };
        let fresh = self.shard.end_needs_producer_id(&r).then(|| {
            self.next_pid += 1;
            self.next_pid
        });
        let (out, answer) = self.shard.end_txn(&r, fresh, self.now);
        trace(&format!("end {i} {r:?} -> {answer:?} {:?}", out.records));
        self.absorb(out);
        match answer {
            Ok(p) => {
                if !allowed {
                    let holder = self.truth[&id]
                        .holder
                        .is_some_and(|(h, hp)| h == i && Some(hp) == self.instances[i].producer);
                    assert!(
                        v2 && holder && !commit,
                        "a zombie ended a transaction: instance {i}"
                    );
                }
                if !was_ongoing && !empty_abort {
                    assert_eq!(
                        self.truth[&id].last,
                        Some(commit),
                        "a retried end must agree with how the transaction ended"
                    );
                }
                if v2 {
                    if (was_ongoing || empty_abort) && allowed {
                        let rotated = p.0 != pid;
                        if rotated {
                            ROTATIONS.fetch_add(1, Ordering::Relaxed);
                        }
                        assert!(
                            if rotated {
                                p.1 == 0 && epoch >= MAX_EPOCH
                            } else {
                                p.1 == epoch + 1
                            },
                            "a version 2 end of {pid}/{epoch} handed out {p:?}"
                        );
                    }
                    self.hand_out(&id, i, p);
                    let t = self.truth.get_mut(&id).expect("known");
                    t.holder = Some((i, p));
                    t.fenced = false;
                    self.instances[i].producer = Some(p);
                    self.instances[i].before_end = Some(((pid, epoch), commit, p));
                }
                self.instances[i].added.clear();
            }
            Err(code) => {
                if (was_ongoing || empty_abort) && allowed {
                    panic!("the holder's end of an open transaction was refused: {code:?}");
                }
                assert_ne!(code, ErrorCode::None);
            }
        }
    }

    /// A version 2 instance sends its last end again, with the epoch it had (its answer was
    /// lost): it gets what the first got, or an error, and never a new decision.
    fn retry_end(&mut self, i: usize) {
        let Some(((pid, epoch), commit, got)) = self.instances[i].before_end else {
            return;
        };
        let id = self.instances[i].id.clone();
        let r = EndRequest {
            transactional_id: id,
            producer_id: pid,
            producer_epoch: epoch,
            commit,
            client_version: 2,
        };
        let fresh = self.shard.end_needs_producer_id(&r).then(|| {
            self.next_pid += 1;
            self.next_pid
        });
        let (out, answer) = self.shard.end_txn(&r, fresh, self.now);
        assert!(
            out.records.is_empty() && out.markers.is_empty(),
            "a retried end decided again: {r:?}"
        );
        if let Ok(p) = answer {
            assert_eq!(p, got, "a retried end got another answer");
            RETRIES_ANSWERED.fetch_add(1, Ordering::Relaxed);
        }
    }
}

fn trace(s: &str) {
    if std::env::var("FJORD_SIM_TRACE").is_ok() {
        eprintln!("{s}");
    }
}

fn run(seed: u64) {
    let ids = ["a", "b", "c"];
    let mut sim = Sim {
        rng: Rng::new(seed),
        shard: Shard::new(config(), 1),
        log: Vec::new(),
        jobs: Vec::new(),
        truth: BTreeMap::new(),
        instances: (0..6)
            .map(|k| Instance {
                id: ids[k % 3].to_string(),
                producer: None,
                added: BTreeSet::new(),
                v2: false,
                before_end: None,
            })
            .collect(),
        now: 1_000,
        next_pid: 1000,
        epochs: BTreeMap::new(),
        handed: BTreeMap::new(),
    };
    for inst in &mut sim.instances {
        inst.v2 = sim.rng.below(3) != 0;
    }
    // "c" is an old producer near the end of its epochs (its record as the log holds it).
    let mut old = TxnMetadata::new("c", 500, 5_000, 0);
    old.producer_epoch = MAX_EPOCH - 3;
    let record = TxnRecord {
        transactional_id: "c".into(),
        value: Some(old),
    };
    sim.shard.replay(record.clone());
    sim.log.push(record);
    let out = sim.shard.loaded(sim.now);
    sim.absorb(out);
    for _ in 0..300 {
        sim.step();
    }
}

#[test]
fn fencing_decisions_and_replay_hold_for_many_seeds() {
    let seeds: u64 = std::env::var("FJORD_SIM_SEEDS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(500);
    let first: u64 = std::env::var("FJORD_SIM_FIRST_SEED")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(0);
    for seed in first..first + seeds {
        let r = std::panic::catch_unwind(|| run(seed));
        assert!(r.is_ok(), "seed {seed} failed");
    }
    if seeds >= 100 {
        assert!(ROTATIONS.load(Ordering::Relaxed) > 0, "no epoch ran out");
        assert!(
            RETRIES_ANSWERED.load(Ordering::Relaxed) > 0,
            "no retry answered"
        );
    }
    eprintln!(
        "{seeds} seeds: {} producer id rotations, {} retried ends answered",
        ROTATIONS.load(Ordering::Relaxed),
        RETRIES_ANSWERED.load(Ordering::Relaxed)
    );
}
