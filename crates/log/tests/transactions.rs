//! Property test for transactions in one partition log, against an independent model.
//!
//! Random transactional batches from a few producers, commit and abort markers, plain batches,
//! high-watermark moves, rolls, truncations and reopenings (clean and after a crash). After
//! every step the log's aborted transactions and what a read_committed reader keeps must equal
//! what the model derives from the list of batches alone (a transaction runs from a producer's
//! first transactional batch after its last marker to its next marker), and the last stable
//! offset must lie between the model's strict bound (the high watermark, or the first offset
//! of the earliest transaction whose marker is missing or not below the high watermark) and
//! its safety bound (the high watermark, or the first offset of the earliest transaction
//! without a marker). The log is compacted (`cleanup.policy=compact`) and cleaned at random
//! points: cleaning must change none of that, and must leave no record of a transaction
//! whose abort is committed below where it cleaned.

mod common;

use common::*;
use fjord_log::{LogConfig, PartitionLog};
use fjord_protocol::records::{
    Compression, EndTxnMarker, RecordBatch, RecordBatchBuilder, RecordBatches,
};
use proptest::prelude::*;

#[derive(Debug, Clone)]
enum Op {
    /// A transactional batch of `n` records from producer `p`.
    Txn {
        p: u8,
        n: usize,
    },
    /// A marker for producer `p`.
    End {
        p: u8,
        commit: bool,
    },
    /// A plain batch.
    Plain {
        n: usize,
    },
    /// The high watermark moves to `ahead` offsets past the log start (clamped to the end).
    Hw {
        ahead: u8,
    },
    Roll,
    Truncate {
        back: u8,
    },
    Reopen {
        clean: bool,
    },
    /// Compaction runs.
    Clean,
}

fn op() -> impl Strategy<Value = Op> {
    prop_oneof![
        6 => (0u8..3, 1usize..4).prop_map(|(p, n)| Op::Txn { p, n }),
        3 => (0u8..3, any::<bool>()).prop_map(|(p, commit)| Op::End { p, commit }),
        2 => (1usize..4).prop_map(|n| Op::Plain { n }),
        3 => any::<u8>().prop_map(|ahead| Op::Hw { ahead }),
        1 => Just(Op::Roll),
        1 => any::<u8>().prop_map(|back| Op::Truncate { back }),
        1 => any::<bool>().prop_map(|clean| Op::Reopen { clean }),
        1 => Just(Op::Clean),
    ]
}

fn config() -> LogConfig {
    LogConfig {
        segment_bytes: 500,
        index_interval_bytes: 100,
        retention_ms: -1,
        file_delete_delay_ms: 0,
        cleanup_policy: fjord_log::config::CleanupPolicy {
            delete: false,
            compact: true,
        },
        min_cleanable_dirty_ratio: 0.0,
        ..LogConfig::default()
    }
}

/// What the model knows of one batch.
#[derive(Debug, Clone)]
enum Kind {
    Plain,
    Txn(i64),
    Marker(i64, bool),
}

#[derive(Debug, Clone)]
struct Batch {
    first: i64,
    last: i64,
    kind: Kind,
    values: Vec<String>,
    /// Each record's key (`k{i % 3}`, as the plain batches have).
    keys: Vec<String>,
    /// Each record removed by compaction.
    removed: Vec<bool>,
}

#[derive(Debug, Default)]
struct Model {
    batches: Vec<Batch>,
}

/// A transaction the model derived: producer, first offset, marker (offset, commit).
type Derived = (i64, i64, Option<(i64, bool)>);

impl Model {
    fn end(&self) -> i64 {
        self.batches.last().map_or(0, |b| b.last + 1)
    }

    fn transactions(&self) -> Vec<Derived> {
        self.transactions_in(None)
    }

    /// The transactions, counting only the transactional batches at `present` offsets when
    /// given (compaction removed the others: an abort whose marker is later truncated leaves
    /// its transaction running from its first batch still in the log).
    fn transactions_in(&self, present: Option<&std::collections::HashSet<i64>>) -> Vec<Derived> {
        let mut open: std::collections::BTreeMap<i64, i64> = Default::default();
        let mut out = Vec::new();
        for b in &self.batches {
            match b.kind {
                Kind::Txn(_) if present.is_some_and(|p| !p.contains(&b.first)) => {}
                Kind::Txn(p) => {
                    open.entry(p).or_insert(b.first);
                }
                Kind::Marker(p, commit) => {
                    if let Some(first) = open.remove(&p) {
                        out.push((p, first, Some((b.first, commit))));
                    }
                }
                Kind::Plain => {}
            }
        }
        out.extend(open.into_iter().map(|(p, f)| (p, f, None)));
        out
    }

    /// The strict (liveness) bound: the high watermark, or the first offset of the earliest
    /// transaction whose marker is missing or not below it. Counted from every batch ever
    /// written: a log that remembers where a transaction began after compaction removed its
    /// first records (its snapshot and index do) may stop there, which reads the same.
    fn lso(&self, hw: i64) -> i64 {
        self.transactions()
            .iter()
            .filter(|(_, _, m)| m.is_none_or(|(o, _)| o >= hw))
            .map(|(_, f, _)| *f)
            .min()
            .unwrap_or(i64::MAX)
            .min(hw)
    }

    fn aborted(&self) -> Vec<(i64, i64, i64)> {
        let mut v: Vec<(i64, i64, i64)> = self
            .transactions()
            .into_iter()
            .filter_map(|(p, f, m)| match m {
                Some((o, false)) => Some((p, f, o)),
                _ => None,
            })
            .collect();
        v.sort_by_key(|t| t.2);
        v
    }

    /// The values a read_committed reader keeps below `lso`.
    fn committed(&self, lso: i64) -> Vec<String> {
        let aborted = self.aborted();
        let mut out = Vec::new();
        for b in self.batches.iter().filter(|b| b.last < lso) {
            let dropped = match b.kind {
                Kind::Txn(p) => aborted
                    .iter()
                    .any(|(ap, f, o)| *ap == p && b.first >= *f && b.first < *o),
                Kind::Marker(..) => true,
                Kind::Plain => false,
            };
            if !dropped {
                let kept = b.values.iter().zip(&b.removed).filter(|(_, r)| !**r);
                out.extend(kept.map(|(v, _)| v.clone()));
            }
        }
        out
    }
}

/// What a read_committed reader keeps of the log below its stable offset, as Kafka's
/// consumers do: batches of a producer inside one of the reported aborted transactions are
/// skipped, markers are skipped.
fn read_committed(log: &PartitionLog) -> Vec<String> {
    let lso = log.last_stable_offset();
    let aborted = log.aborted_transactions(0, lso);
    let mut out = Vec::new();
    let mut next = 0;
    while next < lso {
        let r = log.read(next, 1 << 20, Some(lso), true).unwrap();
        if r.records.is_empty() {
            break;
        }
        for b in RecordBatches::new(r.records) {
            let b: RecordBatch = b.unwrap();
            next = b.next_offset();
            let skipped = b.is_control()
                || aborted.iter().any(|a| {
                    a.producer_id == b.producer_id()
                        && b.base_offset() >= a.first_offset
                        && b.base_offset() < a.last_offset
                });
            if !skipped {
                for r in b.records().unwrap() {
                    out.push(String::from_utf8(r.unwrap().value.unwrap().to_vec()).unwrap());
                }
            }
        }
    }
    out
}

/// The base offsets of the batches the log holds.
fn batch_offsets(log: &PartitionLog) -> std::collections::HashSet<i64> {
    let mut out = std::collections::HashSet::new();
    let mut next = log.log_start_offset();
    while next < log.log_end_offset() {
        let r = log.read(next, 1 << 20, None, true).unwrap();
        if r.records.is_empty() {
            break;
        }
        for b in RecordBatches::new(r.records) {
            let b: RecordBatch = b.unwrap();
            out.insert(b.base_offset());
            next = b.next_offset();
        }
    }
    out
}

fn txn_batch(pid: i64, seq: i32, n: usize, tag: &str) -> bytes::Bytes {
    let mut b = RecordBatchBuilder::new(Compression::None)
        .producer(pid, 0, seq)
        .transactional(true);
    for i in 0..n {
        let key = format!("k{}", i % 3);
        b.append(
            1_000,
            Some(key.as_bytes()),
            Some(format!("{tag}-{i}").as_bytes()),
            &[],
        );
    }
    b.build().unwrap()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(common::proptest_cases(256)))]

    #[test]
    fn stable_offsets_and_aborts_match_the_model(ops in proptest::collection::vec(op(), 1..60)) {
        let dir = tempfile::tempdir().unwrap();
        let mut log = open(dir.path(), config(), true);
        let mut model = Model::default();
        let mut hw = 0i64;
        let mut tag = 0;
        for op in ops {
            tag += 1;
            match op {
                Op::Txn { p, n } => {
                    let pid = 100 + i64::from(p);
                    let t = format!("t{tag}");
                    // The next sequence follows the producer's batches still in the log.
                    let seq: usize = model.batches.iter().filter(|b| matches!(b.kind, Kind::Txn(x) if x == pid)).map(|b| b.values.len()).sum();
                    let info = log.append_as_leader(txn_batch(pid, seq as i32, n, &t), 0, 1_000).unwrap();
                    model.batches.push(Batch {
                        first: info.first_offset,
                        last: info.last_offset,
                        kind: Kind::Txn(pid),
                        values: (0..n).map(|i| format!("{t}-{i}")).collect(),
                        keys: (0..n).map(|i| format!("k{}", i % 3)).collect(),
                        removed: vec![false; n],
                    });
                }
                Op::End { p, commit } => {
                    let pid = 100 + i64::from(p);
                    let marker = EndTxnMarker { commit, coordinator_epoch: 0 }.to_batch(pid, 0, 1_000).unwrap();
                    let info = log.append_as_coordinator(marker, 0, 1_000).unwrap();
                    model.batches.push(Batch { first: info.first_offset, last: info.last_offset, kind: Kind::Marker(pid, commit), values: vec![], keys: vec![], removed: vec![] });
                }
                Op::Plain { n } => {
                    let info = log.append_as_leader(batch(&format!("p{tag}"), n, 1_000), 0, 1_000).unwrap();
                    model.batches.push(Batch {
                        first: info.first_offset,
                        last: info.last_offset,
                        kind: Kind::Plain,
                        values: (0..n).map(|i| format!("p{tag}-{i}")).collect(),
                        keys: (0..n).map(|i| format!("k{}", i % 3)).collect(),
                        removed: vec![false; n],
                    });
                }
                Op::Hw { ahead } => {
                    // At a batch boundary, as followers' fetch offsets are.
                    let target = (hw + i64::from(ahead % 8)).min(model.end());
                    hw = model.batches.iter().map(|b| b.last + 1).filter(|e| *e <= target).max().unwrap_or(0).max(hw);
                    log.set_high_watermark(hw);
                }
                Op::Roll => log.roll().unwrap(),
                Op::Truncate { back } => {
                    // Only above the high watermark, as replication truncates.
                    let target = (model.end() - i64::from(back % 10)).max(hw);
                    let new_end = log.truncate_to(target).unwrap();
                    model.batches.retain(|b| b.last < new_end);
                    prop_assert_eq!(new_end, model.end());
                }
                Op::Reopen { clean } => {
                    log = reopen_with(dir.path(), log, clean, config());
                    log.set_high_watermark(hw);
                }
                Op::Clean => {
                    log.clean(1_000, true).unwrap();
                    // The model's compaction of what lies below where the cleaner went: a
                    // record goes when it belongs to an aborted transaction or a later record
                    // of its key there does not.
                    let cleaned = log.first_dirty_offset();
                    let aborted = model.aborted();
                    let is_aborted = |b: &Batch| match b.kind {
                        Kind::Txn(p) => aborted.iter().any(|(ap, f, o)| *ap == p && b.first >= *f && b.first < *o),
                        _ => false,
                    };
                    let mut latest: std::collections::HashMap<String, i64> = Default::default();
                    for b in model.batches.iter().filter(|b| b.last < cleaned && !is_aborted(b)) {
                        // A record an earlier cleaning removed is no later value of its key
                        // (an abort whose marker was truncated since leaves its transaction
                        // open again, but its records are gone).
                        for (i, k) in b.keys.iter().enumerate().filter(|(i, _)| !b.removed[*i]) {
                            latest.insert(k.clone(), b.first + i as i64);
                        }
                    }
                    for b in model.batches.iter_mut().filter(|b| b.last < cleaned) {
                        let gone = match b.kind {
                            Kind::Txn(p) => aborted.iter().any(|(ap, f, o)| *ap == p && b.first >= *f && b.first < *o),
                            _ => false,
                        };
                        for i in 0..b.keys.len() {
                            if gone || latest.get(&b.keys[i]).is_some_and(|o| *o > b.first + i as i64) {
                                b.removed[i] = true;
                            }
                        }
                    }
                    // No record of an aborted transaction is left where the cleaner went.
                    let mut next = log.log_start_offset();
                    while next < cleaned {
                        let r = log.read(next, 1 << 20, Some(cleaned), true).unwrap();
                        if r.records.is_empty() {
                            break;
                        }
                        for b in RecordBatches::new(r.records) {
                            let b: RecordBatch = b.unwrap();
                            next = b.next_offset();
                            let in_aborted = !b.is_control() && aborted.iter().any(|(p, f, o)| {
                                *p == b.producer_id() && b.base_offset() >= *f && b.base_offset() < *o
                            });
                            prop_assert!(
                                !in_aborted || b.records().unwrap().count() == 0,
                                "batch at {} of an aborted transaction kept its records after cleaning to {}",
                                b.base_offset(),
                                cleaned
                            );
                        }
                    }
                }
            }
            prop_assert_eq!(log.high_watermark(), hw);
            // Safety: never past the high watermark nor into a transaction whose marker is not
            // in the log. Liveness: never below the strict bound (every transaction's marker
            // replicated). A reopened log may be between the two: its snapshot does not keep
            // ended transactions awaiting replication, as Kafka's does not.
            let lso = log.last_stable_offset();
            let present = batch_offsets(&log);
            let open_first = model.transactions_in(Some(&present)).iter().filter(|t| t.2.is_none()).map(|t| t.1).min().unwrap_or(i64::MAX);
            prop_assert!(lso <= hw.min(open_first), "lso {} hw {} open {}", lso, hw, open_first);
            prop_assert!(lso >= model.lso(hw), "lso {} strict {}", lso, model.lso(hw));
            let aborted: Vec<(i64, i64, i64)> = log
                .aborted_transactions(0, i64::MAX)
                .iter()
                .map(|a| (a.producer_id, a.first_offset, a.last_offset))
                .collect();
            // Each aborted transaction, with its marker exactly; it starts no earlier than
            // its first batch ever written and no later than its first batch still in the log
            // (compaction removed the records of one aborted before, and a truncated marker
            // left it to be aborted again: the log may only know it from there).
            let all = model.aborted();
            let seen = model.transactions_in(Some(&present));
            prop_assert_eq!(aborted.len(), all.len(), "{:?} {:?}", aborted, all);
            for ((p, f, o), (mp, mf, mo)) in aborted.iter().zip(&all) {
                prop_assert_eq!((p, o), (mp, mo));
                let upper = seen
                    .iter()
                    .find(|(sp, _, m)| sp == p && m.is_some_and(|(so, _)| so == *o))
                    .map_or(*o, |t| t.1);
                prop_assert!(mf <= f && *f <= upper, "{:?} {:?} upper {}", aborted, all, upper);
            }
            prop_assert_eq!(read_committed(&log), model.committed(lso));
        }
    }
}
