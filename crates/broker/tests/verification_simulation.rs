//! Seeded simulation of transaction verification (KIP-890 parts 1 and 2) across the two
//! pieces that must agree: a transaction coordinator shard (`fjord-txn`) and the partition
//! logs (`fjord-log`) its markers go to, driven the way the broker drives them
//! (`produce::verify`: the log's guard is taken, the coordinator is asked to verify, or to
//! add for a version 2 producer, and the append needs the guard).
//!
//! Producer instances of version 1 and 2 share transactional ids and act at random; every
//! produce is three separate steps (guard, coordinator answer, append) with anything else in
//! between: other produces, ends, fences by a new instance, timeouts, markers delivered one
//! partition at a time in any order, and the coordinator moving (its shard rebuilt from the
//! records, marker jobs resent at a new coordinator epoch while the old ones may still land).
//!
//! The oracle is what verification exists for, checked from the outside once every produce
//! has finished, every marker job has been delivered, and time has passed every
//! transaction's timeout:
//! - **no partition holds an open transaction** (its last stable offset reaches its log
//!   end): a batch that started a transaction the coordinator does not know in that
//!   partition would hang there forever;
//! - **a batch ends with its own transaction**: the marker that closes a batch of epoch `e`
//!   is the end of the transaction of epoch `e`, so it has epoch `e + 1` for a version 2
//!   producer (every end and every fence bumps it once) and `e` or `e + 1` (a fence) for a
//!   version 1 producer. A version 2 batch taken into the previous transaction (still open
//!   there, its marker not yet written) would share that transaction's fate.
//!
//! The same run with verification switched off (the append takes no guard) must break the
//! first: that shows the oracle can fail.
//!
//! `FJORD_SIM_SEEDS` sets how many seeds run (default 300).

use bytes::Bytes;
use fjord_log::partition_log::load::Checkpointed;
use fjord_log::{LogConfig, PartitionLog, VerificationGuard};
use fjord_protocol::records::{Compression, EndTxnMarker, RecordBatchBuilder};
use fjord_protocol::ErrorCode;
use fjord_txn::shard::{EndRequest, InitRequest};
use fjord_txn::{MarkerJob, Output, Shard, TxnConfig, TxnRecord};
use fjord_util::SimRng as Rng;

/// The partitions of the one topic the producers write.
const PARTITIONS: i32 = 3;
/// The longest transaction timeout a producer asks for.
const MAX_TIMEOUT_MS: i32 = 4_000;

/// A producer id and epoch.
type Producer = (i64, i16);

/// One producer instance.
#[derive(Debug, Clone)]
struct Instance {
    id: String,
    v2: bool,
    producer: Option<Producer>,
    /// The next sequence per partition, for the current epoch.
    seq: [i32; PARTITIONS as usize],
}

/// A produce under way.
#[derive(Debug)]
struct Produce {
    instance: usize,
    partition: i32,
    producer: Producer,
    seq: i32,
    /// Taken at step 1 (None: the partition has the transaction open, nothing to verify).
    guard: Option<VerificationGuard>,
    /// Whether the coordinator has answered (step 2), and with what.
    answer: Option<ErrorCode>,
}

/// A marker job being delivered.
#[derive(Debug)]
struct Delivery {
    job: MarkerJob,
    remaining: Vec<i32>,
    /// The coordinator generation that started it.
    generation: u32,
}

struct Sim {
    rng: Rng,
    verify: bool,
    shard: Shard,
    generation: u32,
    records: Vec<TxnRecord>,
    logs: Vec<PartitionLog>,
    _dirs: Vec<tempfile::TempDir>,
    instances: Vec<Instance>,
    produces: Vec<Produce>,
    deliveries: Vec<Delivery>,
    /// Every batch appended: (partition, offset, producer, version 2).
    appended: Vec<(i32, i64, Producer, bool)>,
    now: i64,
    next_pid: i64,
}

fn config() -> TxnConfig {
    TxnConfig {
        max_timeout_ms: MAX_TIMEOUT_MS,
        id_expiration_ms: 1_000_000_000,
        abort_timed_out_interval_ms: 500,
        remove_expired_interval_ms: 1_000_000_000,
    }
}

fn partition(p: i32) -> (String, i32) {
    ("t".to_string(), p)
}

fn txn_batch((pid, epoch): Producer, seq: i32) -> Bytes {
    let mut b = RecordBatchBuilder::new(Compression::None)
        .producer(pid, epoch, seq)
        .transactional(true);
    b.append(1_000, None, Some(b"v".as_slice()), &[]);
    b.build().unwrap()
}

impl Sim {
    fn new(seed: u64, verify: bool) -> Sim {
        let mut rng = Rng::new(seed);
        let dirs: Vec<tempfile::TempDir> = (0..PARTITIONS)
            .map(|_| tempfile::tempdir().unwrap())
            .collect();
        let logs = dirs
            .iter()
            .map(|d| {
                PartitionLog::open(
                    d.path(),
                    LogConfig::default(),
                    Checkpointed::default(),
                    true,
                )
                .unwrap()
                .0
            })
            .collect();
        let instances = (0..4)
            .map(|k| Instance {
                id: ["a", "b"][k % 2].to_string(),
                v2: rng.below(2) == 0,
                producer: None,
                seq: [0; PARTITIONS as usize],
            })
            .collect();
        let mut shard = Shard::new(config(), 0);
        let _ = shard.loaded(0);
        Sim {
            rng,
            verify,
            shard,
            generation: 0,
            records: Vec::new(),
            logs,
            _dirs: dirs,
            instances,
            produces: Vec::new(),
            deliveries: Vec::new(),
            appended: Vec::new(),
            now: 1_000,
            next_pid: 1_000,
        }
    }

    fn absorb(&mut self, out: Output) {
        self.records.extend(out.records);
        for job in out.markers {
            self.deliveries.push(Delivery {
                remaining: job.partitions.iter().map(|(_, p)| *p).collect(),
                job,
                generation: self.generation,
            });
        }
    }

    fn step(&mut self) {
        let i = self.rng.below(self.instances.len() as u64) as usize;
        match self.rng.below(16) {
            0 => self.init(i),
            1 | 2 => self.add(i),
            3..=6 => self.start_produce(i),
            7 | 8 => self.advance_produce(),
            9 => self.end(i),
            10..=12 => self.deliver(),
            13 => {
                self.now += self.rng.below(2_000) as i64;
                let out = self.shard.tick(self.now);
                self.absorb(out);
            }
            14 => self.advance_produce(),
            _ => {
                if self.rng.below(4) == 0 {
                    self.move_coordinator();
                } else {
                    self.advance_produce();
                }
            }
        }
    }

    fn init(&mut self, i: usize) {
        let inst = &self.instances[i];
        let r = InitRequest {
            transactional_id: inst.id.clone(),
            timeout_ms: 1_000 + self.rng.below(3_000) as i32,
            expected: inst.producer,
        };
        let fresh = self.shard.needs_producer_id(&inst.id).then(|| {
            self.next_pid += 1;
            self.next_pid
        });
        let (out, answer) = self.shard.init_producer_id(&r, fresh, self.now);
        self.absorb(out);
        if let Ok(p) = answer {
            self.set_producer(i, p);
        }
    }

    fn set_producer(&mut self, i: usize, p: Producer) {
        let inst = &mut self.instances[i];
        if inst.producer != Some(p) {
            inst.seq = [0; PARTITIONS as usize];
        }
        inst.producer = Some(p);
    }

    /// A version 1 producer adds partitions itself.
    fn add(&mut self, i: usize) {
        let inst = &self.instances[i];
        let Some((pid, epoch)) = inst.producer else {
            return;
        };
        if inst.v2 {
            return;
        }
        let parts: Vec<(String, i32)> = (0..1 + self.rng.below(2))
            .map(|_| partition(self.rng.below(PARTITIONS as u64) as i32))
            .collect();
        let id = inst.id.clone();
        let (out, _) = self
            .shard
            .add_partitions(&id, pid, epoch, &parts, 0, self.now);
        self.absorb(out);
    }

    /// Step 1 of a produce: the leader takes the partition's guard if the batch would start
    /// a transaction there.
    fn start_produce(&mut self, i: usize) {
        let inst = &self.instances[i];
        let Some(producer) = inst.producer else {
            return;
        };
        let p = self.rng.below(PARTITIONS as u64) as i32;
        let seq = inst.seq[p as usize];
        let guard = self.logs[p as usize].needs_verification(producer.0, producer.1);
        let answer = guard.is_none().then_some(ErrorCode::None);
        self.produces.push(Produce {
            instance: i,
            partition: p,
            producer,
            seq,
            guard,
            answer,
        });
    }

    /// Step 2 or 3 of a random produce under way.
    fn advance_produce(&mut self) {
        if self.produces.is_empty() {
            return;
        }
        let k = self.rng.below(self.produces.len() as u64) as usize;
        if self.produces[k].answer.is_none() {
            let pr = &self.produces[k];
            let inst = &self.instances[pr.instance];
            let id = inst.id.clone();
            let part = partition(pr.partition);
            let (pid, epoch) = pr.producer;
            let code = if inst.v2 {
                let (out, r) = self
                    .shard
                    .add_partitions(&id, pid, epoch, &[part], 2, self.now);
                self.absorb(out);
                r.err().unwrap_or(ErrorCode::None)
            } else {
                self.shard.verify(&id, pid, epoch, &part)
            };
            self.produces[k].answer = Some(code);
            return;
        }
        let pr = self.produces.remove(k);
        if pr.answer != Some(ErrorCode::None) {
            return;
        }
        let log = &self.logs[pr.partition as usize];
        let batch = txn_batch(pr.producer, pr.seq);
        let appended = if self.verify {
            log.append_verified(batch, 0, self.now, pr.guard)
        } else {
            log.append_as_leader(batch, 0, self.now)
        };
        if let Ok(info) = &appended {
            if info.batches > 0 {
                let v2 = self.instances[pr.instance].v2;
                self.appended
                    .push((pr.partition, info.first_offset, pr.producer, v2));
            }
            let inst = &mut self.instances[pr.instance];
            if inst.producer == Some(pr.producer) {
                let s = &mut inst.seq[pr.partition as usize];
                *s = (*s).max(pr.seq + 1);
            }
        }
    }

    fn end(&mut self, i: usize) {
        let inst = &self.instances[i];
        let Some((pid, epoch)) = inst.producer else {
            return;
        };
        let r = EndRequest {
            transactional_id: inst.id.clone(),
            producer_id: pid,
            producer_epoch: epoch,
            commit: self.rng.below(2) == 0,
            client_version: if inst.v2 { 2 } else { 0 },
        };
        let fresh = self.shard.end_needs_producer_id(&r).then(|| {
            self.next_pid += 1;
            self.next_pid
        });
        let (out, answer) = self.shard.end_txn(&r, fresh, self.now);
        self.absorb(out);
        if let (Ok(p), true) = (answer, self.instances[i].v2) {
            self.set_producer(i, p);
        }
    }

    /// One partition of a random marker job gets its marker (as WriteTxnMarkers writes
    /// it); a job done everywhere completes in the shard that started it.
    fn deliver(&mut self) {
        if self.deliveries.is_empty() {
            return;
        }
        let k = self.rng.below(self.deliveries.len() as u64) as usize;
        let d = &mut self.deliveries[k];
        if let Some(j) =
            (!d.remaining.is_empty()).then(|| self.rng.below(d.remaining.len() as u64) as usize)
        {
            let p = d.remaining[j];
            let marker = EndTxnMarker {
                commit: d.job.commit,
                coordinator_epoch: d.job.coordinator_epoch,
            }
            .to_batch(d.job.producer_id, d.job.producer_epoch, self.now)
            .unwrap();
            match self.logs[p as usize].append_as_coordinator(marker, 0, self.now) {
                Ok(_) => {
                    d.remaining.swap_remove(j);
                }
                // A newer epoch or coordinator owns the partition: the marker writer
                // abandons the job (a newer decision will be written).
                Err(_) => {
                    self.deliveries.swap_remove(k);
                    return;
                }
            }
            return;
        }
        let d = self.deliveries.swap_remove(k);
        if d.generation == self.generation {
            let out = self.shard.markers_written(&d.job, self.now);
            self.absorb(out);
        }
    }

    /// The coordinator moves: a new shard folds the records at the next coordinator epoch
    /// and resends the markers of every decided transaction; the old jobs may still land.
    fn move_coordinator(&mut self) {
        self.generation += 1;
        let mut s = Shard::new(config(), self.generation as i32);
        for r in &self.records {
            s.replay(r.clone());
        }
        self.shard = s;
        let out = self.shard.loaded(self.now);
        self.absorb(out);
    }

    /// Finishes everything: every produce under way, every marker job, then time past
    /// every timeout, until nothing is left to do.
    fn quiesce(&mut self) {
        for _ in 0..100 {
            while !self.produces.is_empty() {
                self.advance_produce();
            }
            while !self.deliveries.is_empty() {
                self.deliver();
            }
            self.now += i64::from(MAX_TIMEOUT_MS) + 1_000;
            let out = self.shard.tick(self.now);
            self.absorb(out);
            if self.deliveries.is_empty() {
                return;
            }
        }
        panic!("still delivering markers after 100 rounds");
    }

    /// Partitions with a transaction left open: (partition, last stable offset, log end).
    fn hanging(&self) -> Vec<(i32, i64, i64)> {
        self.logs
            .iter()
            .enumerate()
            .filter_map(|(p, log)| {
                let end = log.log_end_offset();
                log.set_high_watermark(end);
                let lso = log.last_stable_offset();
                (lso < end).then_some((p as i32, lso, end))
            })
            .collect()
    }

    /// Batches closed by a marker of another transaction: (partition, offset, producer,
    /// version 2, the closing marker's epoch).
    fn misclosed(&self) -> Vec<(i32, i64, Producer, bool, i16)> {
        let mut out = Vec::new();
        for (p, log) in self.logs.iter().enumerate() {
            let mut markers: Vec<(i64, i64, i16)> = Vec::new();
            let mut next = log.log_start_offset();
            while next < log.log_end_offset() {
                let r = log.read(next, 1 << 20, None, true).unwrap();
                if r.records.is_empty() {
                    break;
                }
                for b in fjord_protocol::records::RecordBatches::new(r.records) {
                    let b = b.unwrap();
                    next = b.next_offset();
                    if b.is_control() {
                        markers.push((b.base_offset(), b.producer_id(), b.producer_epoch()));
                    }
                }
            }
            for &(part, offset, (pid, epoch), v2) in &self.appended {
                if part != p as i32 {
                    continue;
                }
                let closing = markers
                    .iter()
                    .find(|(o, mp, _)| *o > offset && *mp == pid)
                    .map(|m| m.2)
                    .expect("no transaction is left open");
                let own = if v2 {
                    closing == epoch + 1
                } else {
                    closing == epoch || closing == epoch + 1
                };
                if !own {
                    out.push((part, offset, (pid, epoch), v2, closing));
                }
            }
        }
        out
    }
}

/// What one run left wrong: partitions with a transaction open, batches closed by another
/// transaction's marker.
type Wrong = (Vec<(i32, i64, i64)>, Vec<(i32, i64, Producer, bool, i16)>);

fn run(seed: u64, verify: bool) -> Wrong {
    let mut sim = Sim::new(seed, verify);
    for _ in 0..400 {
        sim.step();
    }
    sim.quiesce();
    let hanging = sim.hanging();
    let misclosed = if hanging.is_empty() {
        sim.misclosed()
    } else {
        Vec::new()
    };
    (hanging, misclosed)
}

fn seeds() -> u64 {
    std::env::var("FJORD_SIM_SEEDS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(300)
}

#[test]
fn with_verification_no_transaction_is_left_open_once_every_marker_is_written() {
    for seed in 0..seeds() {
        let (hanging, misclosed) = run(seed, true);
        assert!(
            hanging.is_empty(),
            "seed {seed}: transactions left open (partition, LSO, log end): {hanging:?}"
        );
        assert!(
            misclosed.is_empty(),
            "seed {seed}: batches closed by another transaction (partition, offset, \
             producer, version 2, marker epoch): {misclosed:?}"
        );
    }
}

#[test]
fn without_verification_the_oracle_finds_hanging_transactions() {
    let n = seeds().min(100);
    let hung = (0..n)
        .filter(|seed| !run(*seed, false).0.is_empty())
        .count();
    assert!(
        hung > 0,
        "no seed of {n} hung a transaction without verification"
    );
    eprintln!("without verification, {hung} of {n} seeds left a transaction open");
}
