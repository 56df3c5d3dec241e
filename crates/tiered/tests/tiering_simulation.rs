//! A seeded simulation of one tiered partition's leader: appends, rolls, a moving high
//! watermark, clean and unclean leader changes (with the former leader's manager running on
//! for a while, as a task that has not been cancelled yet), an object store that goes down and
//! leaves half-written copies, metadata writes that fail, local retention and total retention.
//!
//! The oracle is independent of the manager's rules: a model of what the log holds. After
//! every step, every offset between the log start and the high watermark reads back (from the
//! local log or, through the metadata cache and the store, from a remote segment) with the
//! payload the current log has there; with total retention off the log start never moves; and
//! once the store is healthy and the manager has run on, the store holds exactly the objects
//! of the segments whose copy finished, and no copy or deletion is left half done.
//!
//! `FJORD_SIM_SEEDS` sets how many seeds run (default 60; 300 in release take 5 s).

use fjord_tiered::manager::{PartitionManager, PartitionView, Step, TopicTiering};
use fjord_tiered::plan::{local_deletable, LocalRetention, LocalSegment};
use fjord_tiered::records::{RemoteLogMetadata, SegmentState, TopicIdPartition};
use fjord_tiered::rlmm::{Lineage, RemoteLogMetadataCache};
use fjord_tiered::store::StoredObject;
use fjord_util::sim_rng::SimRng;
use std::collections::HashMap;
use uuid::Uuid;

const RECORD_BYTES: u64 = 100;

#[derive(Clone)]
struct Log {
    /// Payload and timestamp per offset from 0 (offsets below the local start keep theirs
    /// here for the oracle; the local log no longer has them).
    recs: Vec<(u64, i64)>,
    epochs: Vec<(i32, i64)>,
    /// Local segment bases; the last is the active segment.
    bases: Vec<i64>,
    hw: i64,
    log_start: i64,
}

impl Log {
    fn leo(&self) -> i64 {
        self.recs.len() as i64
    }
    fn local_start(&self) -> i64 {
        self.bases[0]
    }
    fn segments(&self) -> Vec<LocalSegment> {
        self.bases
            .iter()
            .enumerate()
            .map(|(i, &b)| {
                let next = self.bases.get(i + 1).copied().unwrap_or(self.leo());
                // Timestamps never fall, so a segment's largest is its last record's.
                let max_ts = if next > b {
                    self.recs[next as usize - 1].1
                } else {
                    -1
                };
                LocalSegment {
                    base_offset: b,
                    next_offset: next,
                    size: (next - b) as u64 * RECORD_BYTES,
                    max_timestamp_ms: max_ts,
                    txn_index_empty: true,
                }
            })
            .collect()
    }
    fn truncate_epochs_from_start(&mut self, start: i64) {
        let keep = self
            .epochs
            .iter()
            .rposition(|(_, s)| *s <= start)
            .unwrap_or(0);
        self.epochs.drain(..keep);
        if let Some(first) = self.epochs.first_mut() {
            first.1 = first.1.max(start);
        }
    }
}

struct Obj {
    start: i64,
    complete: bool,
    payloads: Vec<u64>,
    written_ms: i64,
}

struct World {
    rng: SimRng,
    now: i64,
    log: Log,
    epoch: i32,
    cache: RemoteLogMetadataCache,
    store: HashMap<Uuid, Obj>,
    store_down: bool,
    tp: TopicIdPartition,
    topic: TopicTiering,
    local: LocalRetention,
    next_payload: u64,
    ids: u128,
    stats: Stats,
}

/// What the runs did, so a run that exercised nothing shows.
#[derive(Default, Debug, Clone, Copy)]
struct Stats {
    copies_finished: u64,
    local_deleted: u64,
    remote_deleted: u64,
    log_start_moves: u64,
    unclean: u64,
    half_written: u64,
}

struct Runner {
    mgr: PartitionManager,
    /// The log as this manager's node has it (the leader's is the live one; a former
    /// leader's is frozen at its last moment).
    log: Option<Log>,
    steps_left: u32,
}

impl World {
    fn run_step(&mut self, r: &mut Runner, live: bool) {
        if !live && !r.mgr.busy() {
            return;
        }
        self.ids += 1;
        let id = Uuid::from_u128(self.ids);
        let step = {
            let l: &Log = if live {
                &self.log
            } else {
                r.log.as_ref().expect("frozen log")
            };
            let segs = l.segments();
            let view = PartitionView {
                local: &segs,
                high_watermark: l.hw,
                last_stable_offset: l.hw,
                log_start: l.log_start,
                lineage: Lineage {
                    epochs: &l.epochs,
                    end_offset: l.leo(),
                },
                topic: self.topic,
                remote: self.cache.partition(&self.tp),
                now_ms: self.now,
            };
            r.mgr.next(&view, || id)
        };
        let Some(step) = step else {
            return;
        };
        if std::env::var("FJORD_SIM_TRACE").is_ok() {
            eprintln!(
                "{} {}: {step:?}",
                self.now,
                if live { "leader" } else { "former leader" }
            );
        }
        match step {
            Step::Write(v) => {
                if self.rng.percent(5) {
                    r.mgr.done(false, self.now);
                } else {
                    if let RemoteLogMetadata::Update(u) = &v {
                        if self.cache.apply(&v).is_ok() {
                            match u.state {
                                SegmentState::CopyFinished => self.stats.copies_finished += 1,
                                SegmentState::DeleteFinished => self.stats.remote_deleted += 1,
                                _ => {}
                            }
                        }
                    } else {
                        let _ = self.cache.apply(&v);
                    }
                    r.mgr.done(true, self.now);
                }
            }
            Step::Upload { id, segment } => {
                if self.store_down {
                    r.mgr.done(false, self.now);
                    return;
                }
                let half = self.rng.percent(10);
                self.stats.half_written += u64::from(half);
                let src: &Log = if live {
                    &self.log
                } else {
                    r.log.as_ref().expect("frozen log")
                };
                let payloads = (segment.base_offset..segment.next_offset)
                    .map(|o| src.recs[o as usize].0)
                    .collect();
                self.store.insert(
                    id.id,
                    Obj {
                        start: segment.base_offset,
                        complete: !half,
                        payloads,
                        written_ms: self.now,
                    },
                );
                r.mgr.done(!half, self.now);
            }
            Step::DeleteObjects { id, .. } => {
                if self.store_down {
                    r.mgr.done(false, self.now);
                } else {
                    self.store.remove(&id.id);
                    r.mgr.done(true, self.now);
                }
            }
            Step::MoveLogStart(start) => {
                assert!(
                    live || start <= self.log.hw,
                    "a log start past the high watermark"
                );
                if start > self.log.log_start {
                    self.stats.log_start_moves += 1;
                    self.log.log_start = start;
                    self.log.truncate_epochs_from_start(start);
                    while self.log.bases.len() > 1 && self.log.bases[1] <= start {
                        self.log.bases.remove(0);
                    }
                }
                r.mgr.done(true, self.now);
            }
            Step::List => {
                if self.store_down {
                    r.mgr.done(false, self.now);
                    return;
                }
                let listed: Vec<StoredObject> = self
                    .store
                    .iter()
                    .map(|(id, o)| StoredObject {
                        name: format!("{id}"),
                        size: 1,
                        segment: Some((o.start, *id)),
                        modified_ms: o.written_ms,
                    })
                    .collect();
                r.mgr
                    .listed(&listed, self.cache.partition(&self.tp), self.now);
            }
        }
    }

    fn local_retention(&mut self) {
        let lineage = Lineage {
            epochs: &self.log.epochs,
            end_offset: self.log.leo(),
        };
        let start = self.log.local_start();
        let highest = self
            .cache
            .partition(&self.tp)
            .map(|p| p.covered_until(start, lineage))
            .filter(|h| *h >= start);
        let n = local_deletable(
            &self.log.segments(),
            self.log.hw,
            highest,
            self.local,
            self.now,
        );
        for _ in 0..n {
            self.log.bases.remove(0);
        }
        self.stats.local_deleted += n as u64;
    }

    /// What a reader gets at `offset`: the local log, else the store through the cache.
    fn read(&self, offset: i64) -> Result<u64, String> {
        if offset >= self.log.local_start() && offset < self.log.leo() {
            return Ok(self.log.recs[offset as usize].0);
        }
        let lineage = Lineage {
            epochs: &self.log.epochs,
            end_offset: self.log.leo(),
        };
        let seg = self
            .cache
            .partition(&self.tp)
            .and_then(|p| p.segment_for(offset, lineage))
            .ok_or_else(|| format!("offset {offset}: in no local or remote segment"))?;
        let obj = self
            .store
            .get(&seg.id.id)
            .ok_or_else(|| format!("offset {offset}: segment {:?} has no objects", seg.id.id))?;
        if !obj.complete {
            return Err(format!(
                "offset {offset}: segment {:?} is half written",
                seg.id.id
            ));
        }
        Ok(obj.payloads[(offset - obj.start) as usize])
    }

    fn check(&mut self, full: bool, seed: u64, step: usize) {
        let (lo, hi) = (self.log.log_start, self.log.hw);
        let offsets: Vec<i64> = if full || hi - lo < 40 {
            (lo..hi).collect()
        } else {
            let mut v = vec![lo, hi - 1, self.log.local_start().clamp(lo, hi - 1)];
            v.extend((0..20).map(|_| lo + self.rng.below((hi - lo) as u64) as i64));
            v
        };
        for o in offsets {
            let want = self.log.recs[o as usize].0;
            match self.read(o) {
                Ok(got) => assert_eq!(
                    got, want,
                    "seed {seed} step {step}: offset {o} read another history"
                ),
                Err(e) => panic!(
                    "seed {seed} step {step}: {e} (log start {lo}, hw {hi}){}",
                    self.dump()
                ),
            }
        }
        if self.topic.retention_ms < 0 && self.topic.retention_bytes < 0 {
            assert_eq!(
                self.log.log_start, 0,
                "seed {seed}: the log start moved with retention off"
            );
        }
    }

    /// An unclean leader change: another replica, whose log is this one cut at some offset
    /// and whose local log starts at most one past what the store held without a gap (a
    /// follower's local retention deletes only what is in the store) or where this one's did.
    fn unclean_change(&mut self) {
        self.stats.unclean += 1;
        let lineage = Lineage {
            epochs: &self.log.epochs,
            end_offset: self.log.leo(),
        };
        let lo = self.log.log_start;
        let covered = self
            .cache
            .partition(&self.tp)
            .map_or(lo - 1, |p| p.covered_until(lo, lineage));
        let cut = lo + self.rng.below((self.log.leo() - lo + 1) as u64) as i64;
        let own = self.log.local_start().min(cut).max(lo);
        let highest_start = own.max(cut.min(covered + 1));
        let new_start = lo + self.rng.below((highest_start - lo + 1) as u64) as i64;
        self.log.recs.truncate(cut as usize);
        self.log.bases.retain(|&b| b < cut && b >= new_start);
        if self.log.bases.first() != Some(&new_start) {
            self.log.bases.insert(0, new_start);
        }
        self.log.epochs.retain(|&(_, s)| s < cut);
        self.log.hw = self.log.hw.min(cut);
    }

    /// After healing: every segment's copy finished with whole objects, and the store holds
    /// nothing else.
    fn check_converged(&self, seed: u64) {
        let segs: Vec<_> = self
            .cache
            .partition(&self.tp)
            .map(|p| p.segments().collect())
            .unwrap_or_default();
        for s in &segs {
            assert_eq!(
                s.state,
                SegmentState::CopyFinished,
                "seed {seed}: {:?} left {:?}",
                s.id.id,
                s.state
            );
            assert!(
                self.store.get(&s.id.id).is_some_and(|o| o.complete),
                "seed {seed}: finished segment without objects"
            );
        }
        for id in self.store.keys() {
            assert!(
                segs.iter().any(|s| s.id.id == *id),
                "seed {seed}: orphan objects of {id:?} in the store"
            );
        }
    }

    fn dump(&self) -> String {
        let lineage = Lineage {
            epochs: &self.log.epochs,
            end_offset: self.log.leo(),
        };
        let segs: Vec<String> = self
            .cache
            .partition(&self.tp)
            .map(|p| {
                p.segments()
                    .map(|s| {
                        format!(
                            "[{}..{} {:?} {:?} {:?}]",
                            s.start_offset,
                            s.end_offset,
                            s.leader_epochs,
                            s.state,
                            lineage.verdict(s)
                        )
                    })
                    .collect()
            })
            .unwrap_or_default();
        format!(
            "\nlocal bases {:?}, leo {}, epochs {:?}\nremote {}",
            self.log.bases,
            self.log.leo(),
            self.log.epochs,
            segs.join(" ")
        )
    }

    fn append(&mut self) {
        for _ in 0..=self.rng.below(5) {
            self.next_payload += 1;
            self.log.recs.push((self.next_payload, self.now));
        }
        if self.rng.percent(15) {
            self.log.bases.push(self.log.leo());
        }
    }
}

fn simulate(seed: u64) -> Stats {
    let mut rng = SimRng::new(seed);
    let tp = TopicIdPartition {
        topic_id: Uuid::from_u128(77),
        topic: "t".into(),
        partition: 0,
    };
    let infinite = rng.percent(40);
    let topic = TopicTiering {
        copy_disabled: false,
        retention_ms: if infinite || rng.percent(50) {
            -1
        } else {
            600_000 + rng.below(600_000) as i64
        },
        retention_bytes: if infinite || rng.percent(50) {
            -1
        } else {
            20_000 + rng.below(30_000) as i64
        },
    };
    let local = LocalRetention::resolve(
        if rng.percent(50) {
            -2
        } else {
            rng.below(60_000) as i64
        },
        if rng.percent(50) {
            -2
        } else {
            1_000 + rng.below(3_000) as i64
        },
        if rng.percent(30) {
            0
        } else {
            topic.retention_ms
        },
        topic.retention_bytes,
    );
    let mut w = World {
        rng,
        now: 1_000_000,
        log: Log {
            recs: Vec::new(),
            epochs: vec![(0, 0)],
            bases: vec![0],
            hw: 0,
            log_start: 0,
        },
        epoch: 0,
        cache: RemoteLogMetadataCache::default(),
        store: HashMap::new(),
        store_down: false,
        tp: tp.clone(),
        topic,
        local,
        next_payload: 0,
        ids: 0,
        stats: Stats::default(),
    };
    let new_mgr = |now| PartitionManager::new(tp.clone(), 1, 500, 30_000, now);
    let mut leader = Runner {
        mgr: new_mgr(w.now),
        log: None,
        steps_left: 0,
    };
    let mut zombies: Vec<Runner> = Vec::new();
    let steps = 3_000;
    for step in 0..steps {
        w.now += w.rng.below(3_000) as i64;
        match w.rng.below(100) {
            0..=39 => w.append(),
            40..=54 => w.log.hw = (w.log.hw + w.rng.below(20) as i64).min(w.log.leo()),
            55..=56 => w.store_down = !w.store_down,
            57 if w.rng.percent(30) => {
                // A leader change: clean (the new leader has the whole log) or unclean (it
                // lacks a tail, maybe committed records, and writes its own from there).
                let frozen = w.log.clone();
                zombies.push(Runner {
                    mgr: std::mem::replace(&mut leader.mgr, new_mgr(w.now)),
                    log: Some(frozen),
                    steps_left: w.rng.below(6) as u32,
                });
                w.epoch += 1;
                if w.rng.percent(40) {
                    w.unclean_change();
                }
                let leo = w.log.leo();
                w.log.epochs.push((w.epoch, leo));
            }
            _ => {}
        }
        w.run_step(&mut leader, true);
        for z in zombies.iter_mut() {
            if z.steps_left > 0 {
                z.steps_left -= 1;
                w.run_step(z, false);
            }
        }
        zombies.retain(|z| z.steps_left > 0);
        w.local_retention();
        w.check(step % 200 == 0, seed, step);
    }
    // Heal and run on: the store converges to the finished segments.
    w.store_down = false;
    zombies.clear();
    for step in 0..4_000 {
        w.now += 1_000;
        w.run_step(&mut leader, true);
        w.local_retention();
        w.check(false, seed, steps + step);
    }
    w.check(true, seed, steps + 4_000);
    w.check_converged(seed);
    w.stats
}

#[test]
fn every_offset_below_the_high_watermark_stays_readable() {
    let seeds: u64 = std::env::var("FJORD_SIM_SEEDS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(60);
    let mut total = Stats::default();
    let only: Option<u64> = std::env::var("FJORD_SIM_SEED")
        .ok()
        .and_then(|s| s.parse().ok());
    for seed in only.map_or(0..seeds, |s| s..s + 1) {
        let s = simulate(seed);
        total.copies_finished += s.copies_finished;
        total.local_deleted += s.local_deleted;
        total.remote_deleted += s.remote_deleted;
        total.log_start_moves += s.log_start_moves;
        total.unclean += s.unclean;
        total.half_written += s.half_written;
    }
    eprintln!("{seeds} seeds: {total:?}");
    // A run that exercised none of the rules checks nothing.
    assert!(total.copies_finished > 0 && total.local_deleted > 0 && total.remote_deleted > 0);
    assert!(total.log_start_moves > 0 && total.unclean > 0 && total.half_written > 0);
}
