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
//! - nothing stays open: a transaction past its timeout is aborted by the next check.
//!
//! `FJORD_SIM_SEEDS` sets how many seeds run (default 500).

use fjord_protocol::ErrorCode;
use fjord_txn::shard::InitRequest;
use fjord_txn::{MarkerJob, Output, Shard, TxnConfig, TxnMetadata, TxnRecord, TxnState};
use std::collections::{BTreeMap, BTreeSet};

struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

/// One producer instance.
#[derive(Debug, Clone)]
struct Instance {
    id: String,
    producer: Option<(i64, i16)>,
    added: BTreeSet<(String, i32)>,
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
}

impl Sim {
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
            5 | 6 => self.end(i),
            7 => {
                self.now += self.rng.below(3_000) as i64;
                let out = self.shard.tick(self.now);
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
        self.absorb(out);
        if let Ok(p) = answer {
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
        let (out, answer) = self.shard.add_partitions(&id, pid, epoch, &parts, self.now);
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
        let id = self.instances[i].id.clone();
        let allowed = self.allowed(i);
        let was_ongoing = self
            .shard
            .get(&id)
            .is_some_and(|m| m.state == TxnState::Ongoing);
        if was_ongoing && allowed {
            // The decision the markers must carry.
            let t = self.truth.get_mut(&id).expect("known");
            t.decided = Some((commit, self.instances[i].added.clone()));
            t.last = Some(commit);
        }
        let (out, answer) = self.shard.end_txn(&id, pid, epoch, commit, self.now);
        self.absorb(out);
        match answer {
            Ok(()) => {
                assert!(allowed, "a zombie ended a transaction: instance {i}");
                if !was_ongoing {
                    assert_eq!(
                        self.truth[&id].last,
                        Some(commit),
                        "a retried end must agree with how the transaction ended"
                    );
                }
                self.instances[i].added.clear();
            }
            Err(code) => {
                if was_ongoing && allowed {
                    panic!("the holder's end of an open transaction was refused: {code:?}");
                }
                assert_ne!(code, ErrorCode::None);
            }
        }
    }
}

fn run(seed: u64) {
    let ids = ["a", "b"];
    let mut sim = Sim {
        rng: Rng(seed),
        shard: Shard::new(config(), 1),
        log: Vec::new(),
        jobs: Vec::new(),
        truth: BTreeMap::new(),
        instances: (0..4)
            .map(|k| Instance {
                id: ids[k % 2].to_string(),
                producer: None,
                added: BTreeSet::new(),
            })
            .collect(),
        now: 1_000,
        next_pid: 1000,
        epochs: BTreeMap::new(),
    };
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
    for seed in 0..seeds {
        let r = std::panic::catch_unwind(|| run(seed));
        assert!(r.is_ok(), "seed {seed} failed");
    }
}
