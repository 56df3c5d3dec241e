//! Property test: random sequences of appends, truncations, rolls, DeleteRecords with
//! retention, and reopenings (clean and unclean) give the same reads as a simple in-memory
//! model of the log, and the epoch the log reports as its last written one is the epoch of the
//! last record it holds or held (a ledger of the epoch of every offset ever written, kept
//! apart from the log's epoch cache): none only for a log that never held a record, whatever
//! retention, DeleteRecords, cuts and restarts did.

mod common;

use common::*;
use fjord_log::partition_log::load::Checkpointed;
use fjord_log::{LogConfig, PartitionLog};
use proptest::prelude::*;

#[derive(Debug, Clone)]
enum Op {
    Append { records: usize, epoch_bump: bool },
    Truncate { back: u8 },
    Roll,
    DeleteRecords { ahead: u8 },
    Reopen { clean: bool },
}

fn op() -> impl Strategy<Value = Op> {
    prop_oneof![
        6 => (1usize..5, any::<bool>()).prop_map(|(records, epoch_bump)| Op::Append { records, epoch_bump }),
        1 => any::<u8>().prop_map(|back| Op::Truncate { back }),
        1 => Just(Op::Roll),
        1 => any::<u8>().prop_map(|ahead| Op::DeleteRecords { ahead }),
        1 => any::<bool>().prop_map(|clean| Op::Reopen { clean }),
    ]
}

fn config() -> LogConfig {
    LogConfig {
        segment_bytes: 600,
        index_interval_bytes: 100,
        retention_ms: -1,
        file_delete_delay_ms: 0,
        ..LogConfig::default()
    }
}

fn reopen(dir: &std::path::Path, log: PartitionLog, clean: bool) -> PartitionLog {
    reopen_with(dir, log, clean, config())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(common::proptest_cases(128)))]

    #[test]
    fn the_log_behaves_like_its_model(ops in proptest::collection::vec(op(), 1..40)) {
        let dir = tempfile::tempdir().unwrap();
        let mut log = open(dir.path(), config(), true);
        let mut model = Model::default();
        let mut epoch = 0;
        let mut counter = 0;
        // The epoch of every offset written and not cut, records below the log start included.
        let mut ledger: Vec<i32> = Vec::new();
        for op in ops {
            match op {
                Op::Append { records, epoch_bump } => {
                    epoch += i32::from(epoch_bump);
                    counter += 1;
                    let tag = format!("a{counter}");
                    let info = log.append_as_leader(batch(&tag, records, counter), epoch, 0).unwrap();
                    prop_assert_eq!(info.first_offset, model.end());
                    ledger.extend(std::iter::repeat_n(epoch, records));
                    model.batches.push((info.first_offset, (0..records).map(|i| format!("{tag}-{i}")).collect()));
                }
                Op::Truncate { back } => {
                    let target = (model.end() - i64::from(back % 12)).max(model.log_start);
                    let new_end = log.truncate_to(target).unwrap();
                    model.truncate_to(target);
                    prop_assert_eq!(new_end, model.end());
                    ledger.truncate(new_end as usize);
                }
                Op::Roll => log.roll().unwrap(),
                Op::DeleteRecords { ahead } => {
                    log.set_high_watermark(log.log_end_offset());
                    let target = (model.log_start + i64::from(ahead % 10)).min(model.end());
                    log.delete_records(target).unwrap();
                    model.log_start = model.log_start.max(target);
                    log.apply_retention(0).unwrap();
                }
                Op::Reopen { clean } => {
                    log = reopen(dir.path(), log, clean);
                }
            }
            prop_assert_eq!(log.log_end_offset(), model.end());
            prop_assert_eq!(log.log_start_offset(), model.log_start);
            prop_assert_eq!(read_all(&log, model.log_start), model.visible());
            let held = model.end().checked_sub(1).and_then(|o| ledger.get(o as usize).copied());
            prop_assert_eq!(log.latest_epoch(), held, "epoch cache {:?}", log.epoch_entries());
        }
    }
}

#[derive(Debug, Clone)]
enum CompactOp {
    Append { records: usize, tombstone: bool },
    Roll,
    Compact { later_ms: u16 },
    DeleteRecords { ahead: u8 },
    Reopen { clean: bool },
}

fn compact_op() -> impl Strategy<Value = CompactOp> {
    prop_oneof![
        6 => (1usize..5, proptest::bool::weighted(0.15)).prop_map(|(records, tombstone)| CompactOp::Append { records, tombstone }),
        2 => Just(CompactOp::Roll),
        2 => any::<u16>().prop_map(|later_ms| CompactOp::Compact { later_ms }),
        1 => any::<u8>().prop_map(|ahead| CompactOp::DeleteRecords { ahead }),
        1 => any::<bool>().prop_map(|clean| CompactOp::Reopen { clean }),
    ]
}

fn compacted_config() -> LogConfig {
    LogConfig {
        cleanup_policy: fjord_log::config::CleanupPolicy {
            delete: false,
            compact: true,
        },
        delete_retention_ms: 10_000,
        ..config()
    }
}

/// Keys and values of what a read returns: (offset, key, value or tombstone).
fn keyed(log: &PartitionLog) -> Vec<(i64, String, Option<String>)> {
    let mut out = Vec::new();
    let mut next = log.log_start_offset();
    while next < log.log_end_offset() {
        let r = log.read(next, 1 << 20, None, true).unwrap();
        if r.records.is_empty() {
            break;
        }
        for b in fjord_protocol::records::RecordBatches::new(r.records) {
            let b = b.unwrap();
            next = b.next_offset();
            for rec in b.records().unwrap() {
                let rec = rec.unwrap();
                let o = b.base_offset() + i64::from(rec.offset_delta);
                if o >= log.log_start_offset() {
                    let k = String::from_utf8(rec.key.unwrap().to_vec()).unwrap();
                    out.push((
                        o,
                        k,
                        rec.value.map(|v| String::from_utf8(v.to_vec()).unwrap()),
                    ));
                }
            }
        }
    }
    out
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(common::proptest_cases(96)))]

    #[test]
    fn a_compacted_log_keeps_the_latest_value_of_every_key(ops in proptest::collection::vec(compact_op(), 1..50)) {
        let dir = tempfile::tempdir().unwrap();
        let mut log = PartitionLog::open(dir.path(), compacted_config(), Checkpointed::default(), true).unwrap().0;
        // Every record ever written: (offset, key, value).
        let mut history: Vec<(i64, String, Option<String>)> = Vec::new();
        let mut log_start = 0i64;
        let mut now = 0i64;
        let mut counter = 0;
        for op in ops {
            match op {
                CompactOp::Append { records, tombstone } => {
                    counter += 1;
                    let mut b = fjord_protocol::records::RecordBatchBuilder::new(fjord_protocol::records::Compression::Snappy);
                    let mut written = Vec::new();
                    for i in 0..records {
                        let key = format!("k{}", (counter * 7 + i) % 5);
                        let value = (!(tombstone && i == 0)).then(|| format!("v{counter}-{i}"));
                        b.append(now, Some(key.as_bytes()), value.as_deref().map(str::as_bytes), &[]);
                        written.push((key, value));
                    }
                    let info = log.append_as_leader(b.build().unwrap(), 0, now).unwrap();
                    for (i, (k, v)) in written.into_iter().enumerate() {
                        history.push((info.first_offset + i as i64, k, v));
                    }
                }
                CompactOp::Roll => log.roll().unwrap(),
                CompactOp::Compact { later_ms } => {
                    now += i64::from(later_ms);
                    log.set_high_watermark(log.log_end_offset());
                    log.clean(now, true).unwrap();
                }
                CompactOp::DeleteRecords { ahead } => {
                    log.set_high_watermark(log.log_end_offset());
                    let target = (log_start + i64::from(ahead % 6)).min(log.log_end_offset());
                    log.delete_records(target).unwrap();
                    log_start = log_start.max(target);
                }
                CompactOp::Reopen { clean } => {
                    log = reopen_with(dir.path(), log, clean, compacted_config());
                }
            }
            let got = keyed(&log);
            prop_assert!(got.windows(2).all(|w| w[0].0 < w[1].0), "offset order");
            for rec in &got {
                prop_assert!(history.contains(rec), "{:?} was written", rec);
            }
            // The latest record of each key (from the log start) is present, unless it is a
            // tombstone past its horizon, which compaction may drop.
            let mut expected: std::collections::BTreeMap<&str, &(i64, String, Option<String>)> = Default::default();
            for rec in history.iter().filter(|(o, _, _)| *o >= log_start) {
                expected.insert(&rec.1, rec);
            }
            for (key, rec) in expected {
                let present = got.contains(rec);
                prop_assert!(present || rec.2.is_none(), "latest value of {} missing: {:?}", key, rec);
                let newer = got.iter().any(|(o, k, _)| k == key && *o > rec.0);
                prop_assert!(!newer);
            }
            prop_assert_eq!(log.log_end_offset(), history.len() as i64);
        }
    }
}
