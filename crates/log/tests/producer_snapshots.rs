//! The producer snapshots a log keeps, checked against a model: whatever retention, reopens,
//! crashes and truncations happened, every closed local segment has the snapshot at its end
//! (tiered storage copies it with the segment, and a replica that starts after the store's
//! last segment takes its producers from it), that snapshot holds exactly the producers the
//! records below it wrote (the model replays them), and the files stay at most one per
//! segment plus one. A copier that lags many segments behind the writer (CI once saw a new
//! replica miss a producer when only the newest two snapshots were kept) is one of the runs.

mod common;

use fjord_log::partition_log::load::Checkpointed;
use fjord_log::producer_state::ProducerState;
use fjord_log::{LogConfig, PartitionLog};
use fjord_protocol::records::{Compression, RecordBatchBuilder};
use proptest::prelude::*;
use std::collections::BTreeMap;

/// One step of a run.
#[derive(Debug, Clone)]
enum Op {
    /// Producer `pid` (1..=3) appends `n` records in one batch.
    Append { pid: i64, n: usize },
    /// The copier takes every closed segment it has not taken yet.
    Copy,
    /// Local retention runs (the store covers what was copied).
    Retention,
    /// The log closes and opens again.
    Reopen,
    /// The log is dropped without a close and opens again (recovery).
    Crash,
    /// A follower starts over: the log is emptied and starts at its end.
    StartOver,
    /// DeleteRecords moves the log start to the second local segment's base.
    DeleteRecords,
    /// A follower cuts its log back `back` offsets (not below the log start; below the
    /// local disk, into what the store holds, too).
    TruncateTo { back: i64 },
    /// A follower cuts below its log start: the history there disagrees with its leader's.
    CutBelowStart,
}

fn op() -> impl Strategy<Value = Op> {
    prop_oneof![
        12 => (1i64..=3, 1usize..6).prop_map(|(pid, n)| Op::Append { pid, n }),
        2 => Just(Op::Copy),
        2 => Just(Op::Retention),
        1 => Just(Op::Reopen),
        1 => Just(Op::Crash),
        1 => Just(Op::StartOver),
        1 => Just(Op::DeleteRecords),
        2 => (1i64..40).prop_map(|back| Op::TruncateTo { back }),
        1 => Just(Op::CutBelowStart),
    ]
}

fn config() -> LogConfig {
    LogConfig {
        segment_bytes: 300,
        remote_storage: true,
        local_retention_bytes: 600,
        ..LogConfig::default()
    }
}

fn open(dir: &std::path::Path, start: i64, end: i64, clean: bool) -> PartitionLog {
    let checkpointed = Checkpointed {
        recovery_point: if clean { end } else { 0 },
        log_start_offset: start,
        high_watermark: end,
        first_dirty_offset: 0,
    };
    PartitionLog::open(dir, config(), checkpointed, clean)
        .unwrap()
        .0
}

fn batch(pid: i64, seq: i32, n: usize) -> bytes::Bytes {
    let mut b = RecordBatchBuilder::new(Compression::None).producer(pid, 0, seq);
    for i in 0..n {
        b.append(
            1_000,
            None,
            Some(format!("{pid}-{seq}-{i}").as_bytes()),
            &[],
        );
    }
    b.build().unwrap()
}

/// What the model knows of one producer's last batch: (last sequence, last offset).
type Last = (i32, i64);

/// The model: every batch appended since the log last started over, in order, as (pid,
/// last sequence, last offset), each producer's next sequence, every record by offset (its
/// value says which producer, sequence and place in its batch), and the log end.
#[derive(Default)]
struct Model {
    batches: Vec<(i64, i32, i64)>,
    next_seq: BTreeMap<i64, i32>,
    records: BTreeMap<i64, String>,
    end: i64,
}

impl Model {
    /// The producers the records below `offset` wrote, with their last batch.
    fn at(&self, offset: i64) -> BTreeMap<i64, Last> {
        let mut out = BTreeMap::new();
        for &(pid, seq, last) in self.batches.iter().filter(|b| b.2 < offset) {
            out.insert(pid, (seq, last));
        }
        out
    }

    /// A log that starts over, empty, at `end`.
    fn starting_at(end: i64) -> Model {
        Model {
            end,
            ..Model::default()
        }
    }

    /// Where a cut at `offset` ends the log: at the start of the batch holding it (a record's
    /// value ends with its place in its batch).
    fn cut_end(&self, offset: i64) -> i64 {
        let place = self.records[&offset].rsplit('-').next().unwrap();
        offset - place.parse::<i64>().unwrap()
    }

    /// The log was cut back to `end`: the batches from there on are gone, and each producer
    /// goes on after its last batch that stayed.
    fn cut(&mut self, end: i64) {
        self.batches.retain(|b| b.2 < end);
        self.records.split_off(&end);
        self.end = end;
        self.next_seq = self
            .at(end)
            .into_iter()
            .map(|(p, (s, _))| (p, s + 1))
            .collect();
    }
}

/// The log's end and the records it holds on local disk against the model's.
fn check_records(log: &PartitionLog, model: &Model) -> Result<(), TestCaseError> {
    prop_assert_eq!(log.log_end_offset(), model.end, "the log end");
    let local = log.local_log_start_offset();
    let want: Vec<(i64, String)> = model
        .records
        .range(local..)
        .map(|(o, v)| (*o, v.clone()))
        .collect();
    prop_assert_eq!(
        common::read_all(log, local),
        want,
        "the records from {}",
        local
    );
    Ok(())
}

/// Producers as the log knows them (`known`: the last batch of each) against the model's at
/// the same offset (`want`): every producer known wrote what the model says it last wrote,
/// and every producer whose last batch is at or above `kept_from` (what the log still holds)
/// is known. Producers whose records all lie below it may be known or not, as in Kafka, whose
/// reload after a truncation drops snapshots at or below the log start.
fn agree(
    known: &BTreeMap<i64, Last>,
    want: &BTreeMap<i64, Last>,
    kept_from: i64,
    at: &str,
) -> Result<(), TestCaseError> {
    for (pid, last) in known {
        prop_assert_eq!(want.get(pid), Some(last), "producer {} in {}", pid, at);
    }
    for (pid, _) in want.iter().filter(|(_, (_, last))| *last >= kept_from) {
        prop_assert!(
            known.contains_key(pid),
            "producer {} forgotten in {}",
            pid,
            at
        );
    }
    Ok(())
}

/// The log's producer state against the model's at its end.
fn check_state(log: &PartitionLog, model: &Model) -> Result<(), TestCaseError> {
    let known = last_batches(&log.producer_state());
    let want = model.at(log.log_end_offset());
    agree(&known, &want, log.log_start_offset(), "the log's state")
}

/// The producers a snapshot file holds, with their last batch.
fn held(path: &std::path::Path) -> BTreeMap<i64, Last> {
    last_batches(&ProducerState::from_snapshot(&std::fs::read(path).unwrap()).unwrap())
}

/// Each producer of `state` with its last batch.
fn last_batches(state: &ProducerState) -> BTreeMap<i64, Last> {
    state
        .producers()
        .iter()
        .map(|(pid, e)| {
            let b = e.batches.back().expect("a producer has a batch");
            (*pid, (b.last_seq, b.last_offset))
        })
        .collect()
}

fn snapshot_files(dir: &std::path::Path) -> usize {
    common::count_files(dir, |n| n.ends_with(".snapshot"))
}

fn run(ops: Vec<Op>) -> Result<(), TestCaseError> {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("t-0");
    let mut log = open(&path, 0, 0, true);
    let mut model = Model::default();
    // The last offset the copier has taken (-1: none).
    let mut copied = -1i64;
    for op in ops {
        match op {
            Op::Append { pid, n } => {
                let seq = *model.next_seq.entry(pid).or_default();
                let info = log.append_as_leader(batch(pid, seq, n), 0, 2_000).unwrap();
                prop_assert_eq!(info.first_offset, model.end);
                for i in 0..n as i64 {
                    model
                        .records
                        .insert(model.end + i, format!("{pid}-{seq}-{i}"));
                }
                model.end = info.last_offset + 1;
                let last_seq = seq + n as i32 - 1;
                model.batches.push((pid, last_seq, info.last_offset));
                model.next_seq.insert(pid, last_seq + 1);
                log.set_high_watermark(log.log_end_offset());
            }
            Op::Copy => {
                let infos = log.segment_infos();
                for info in &infos[..infos.len() - 1] {
                    if info.next_offset - 1 <= copied {
                        continue;
                    }
                    let snapshot = info.producer_snapshot.as_ref().ok_or_else(|| {
                        TestCaseError::fail(format!(
                            "segment {}..{} has no producer snapshot at its end",
                            info.base_offset, info.next_offset
                        ))
                    })?;
                    agree(
                        &held(snapshot),
                        &model.at(info.next_offset),
                        log.log_start_offset(),
                        &format!("the snapshot at {}", info.next_offset),
                    )?;
                    copied = info.next_offset - 1;
                }
                log.set_remote_covered(copied);
            }
            Op::Retention => {
                log.apply_retention(10_000).unwrap();
            }
            Op::Reopen | Op::Crash => {
                let (start, end) = (log.log_start_offset(), log.log_end_offset());
                let clean = matches!(op, Op::Reopen);
                if clean {
                    log.close().unwrap();
                }
                drop(log);
                log = open(&path, start, end, clean);
                log.set_remote_covered(copied);
            }
            Op::StartOver => {
                let end = log.log_end_offset();
                log.truncate_fully_and_start_at(end).unwrap();
                // What the log held is another history now: the producers start afresh.
                prop_assert!(log.producer_state().is_empty());
                model = Model::starting_at(end);
                copied = end - 1;
                log.set_remote_covered(copied);
            }
            Op::DeleteRecords => {
                let infos = log.segment_infos();
                if let Some(second) = infos
                    .get(1)
                    .filter(|i| i.base_offset <= log.high_watermark())
                {
                    log.delete_records(second.base_offset).unwrap();
                }
            }
            Op::TruncateTo { back } => {
                let cut = (log.log_end_offset() - back).max(log.log_start_offset() + 1);
                if cut < log.log_end_offset() {
                    // A cut below the local disk (into what the store holds) starts the log
                    // over at the cut itself, as Kafka's truncateTo; one on the disk ends the
                    // log where the batch holding the cut starts.
                    let want = if cut < log.local_log_start_offset() {
                        cut
                    } else {
                        model.cut_end(cut)
                    };
                    let end = log.truncate_to(cut).unwrap();
                    prop_assert_eq!(end, want, "the end after a cut at {}", cut);
                    model.cut(end);
                    copied = copied.min(end - 1);
                    log.set_remote_covered(copied);
                }
            }
            Op::CutBelowStart => {
                let start = log.log_start_offset();
                if start > 0 {
                    log.truncate_to(start - 1).unwrap();
                    // What the log held disagrees with its leader: nothing of it is known.
                    prop_assert!(log.producer_state().is_empty());
                    model = Model::starting_at(start);
                    copied = copied.min(start - 1);
                    log.set_remote_covered(copied);
                }
            }
        }
        check_records(&log, &model)?;
        check_state(&log, &model)?;
        prop_assert!(
            snapshot_files(&path) <= log.segment_count() + 1,
            "{} snapshots for {} segments",
            snapshot_files(&path),
            log.segment_count()
        );
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(common::proptest_cases(64)))]

    #[test]
    fn every_closed_segment_keeps_the_producers_at_its_end(
        ops in proptest::collection::vec(op(), 1..120)
    ) {
        run(ops)?;
    }
}

/// The run CI's failure was: the copier takes nothing while the writer rolls ten segments.
#[test]
fn a_copier_ten_segments_behind_finds_every_snapshot() {
    let mut ops = Vec::new();
    for i in 0..200 {
        ops.push(Op::Append {
            pid: 1 + (i % 3),
            n: 3,
        });
    }
    ops.push(Op::Copy);
    run(ops).unwrap();
}

/// A tiered log whose first local segments went to the store, cut back to its first local
/// segment's start: that segment stays, empty, and the log ends there (the cut once kept the
/// last segment instead, and the log claimed offsets it no longer held).
#[test]
fn a_cut_at_the_first_local_segment_ends_the_log_there() {
    let a = |n| Op::Append { pid: 1, n };
    run(vec![
        a(1),
        a(4),
        a(5),
        Op::Copy,
        a(1),
        a(2),
        a(3),
        a(5),
        a(3),
        Op::Retention,
        Op::TruncateTo { back: 15 },
    ])
    .unwrap();
}
