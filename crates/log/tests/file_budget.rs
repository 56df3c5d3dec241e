//! Property test: many logs with many segments under an open-files budget far smaller than
//! their segment count. Random appends, reads, flushes, truncations, rolls, DeleteRecords with
//! retention and reopenings spread over the logs give the reads of an in-memory model of each
//! log, and the process never holds more segment files open than the budget (plus the few a
//! single operation holds for a moment).

mod common;

use common::*;
use fjord_log::open_files::{FileBudget, MIN_SEGMENT_FILES};
use fjord_log::{LogConfig, PartitionLog};
use proptest::prelude::*;
use std::path::Path;

/// Logs per case.
const LOGS: usize = 12;
/// Files one operation may hold open beyond the budget for a moment (a recovery's second
/// handle, an index opened to be flushed).
const TRANSIENT: usize = 4;

#[derive(Debug, Clone)]
enum Op {
    Append { log: usize, records: usize },
    Read { log: usize },
    Flush { log: usize },
    Truncate { log: usize, back: u8 },
    Roll { log: usize },
    DeleteRecords { log: usize, ahead: u8 },
    Reopen { log: usize, clean: bool },
}

fn op() -> impl Strategy<Value = Op> {
    let log = 0..LOGS;
    prop_oneof![
        14 => (log.clone(), 1usize..6).prop_map(|(log, records)| Op::Append { log, records }),
        3 => log.clone().prop_map(|log| Op::Read { log }),
        1 => log.clone().prop_map(|log| Op::Flush { log }),
        1 => (log.clone(), any::<u8>()).prop_map(|(log, back)| Op::Truncate { log, back }),
        1 => log.clone().prop_map(|log| Op::Roll { log }),
        1 => (log.clone(), any::<u8>()).prop_map(|(log, ahead)| Op::DeleteRecords { log, ahead }),
        1 => (log, any::<bool>()).prop_map(|(log, clean)| Op::Reopen { log, clean }),
    ]
}

fn config() -> LogConfig {
    LogConfig {
        segment_bytes: 120,
        index_interval_bytes: 100,
        retention_ms: -1,
        file_delete_delay_ms: 0,
        ..LogConfig::default()
    }
}

/// The segment files this process holds open under `dir`.
fn open_logs_under(dir: &Path) -> usize {
    std::fs::read_dir("/proc/self/fd")
        .unwrap()
        .filter_map(|e| std::fs::read_link(e.ok()?.path()).ok())
        .filter(|t| t.starts_with(dir) && t.to_string_lossy().contains(".log"))
        .count()
}

fn reopen(dir: &Path, log: PartitionLog, clean: bool) -> PartitionLog {
    reopen_with(dir, log, clean, config())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(16))]

    #[test]
    fn logs_under_a_small_budget_behave_like_their_models(ops in proptest::collection::vec(op(), 300..500)) {
        FileBudget::global().set_limit(MIN_SEGMENT_FILES);
        let root = tempfile::tempdir().unwrap();
        let dirs: Vec<_> = (0..LOGS).map(|i| root.path().join(format!("t-{i}"))).collect();
        let mut logs: Vec<Option<PartitionLog>> = dirs.iter().map(|d| {
            std::fs::create_dir_all(d).unwrap();
            Some(open(d, config(), true))
        }).collect();
        let mut models: Vec<Model> = (0..LOGS).map(|_| Model::default()).collect();
        let mut counter = 0;
        let mut most_segments = 0;
        for op in ops {
            let i = match op {
                Op::Append { log, .. } | Op::Read { log } | Op::Flush { log }
                | Op::Truncate { log, .. } | Op::Roll { log } | Op::DeleteRecords { log, .. }
                | Op::Reopen { log, .. } => log,
            };
            let model = &mut models[i];
            match op {
                Op::Append { records, .. } => {
                    counter += 1;
                    let tag = format!("a{counter}");
                    let log = logs[i].as_ref().unwrap();
                    let info = log.append_as_leader(batch(&tag, records, counter), 0, 0).unwrap();
                    prop_assert_eq!(info.first_offset, model.end());
                    model.batches.push((info.first_offset, (0..records).map(|r| format!("{tag}-{r}")).collect()));
                }
                Op::Read { .. } => {}
                Op::Flush { .. } => logs[i].as_ref().unwrap().flush().unwrap(),
                Op::Truncate { back, .. } => {
                    let target = (model.end() - i64::from(back % 12)).max(model.log_start);
                    let new_end = logs[i].as_ref().unwrap().truncate_to(target).unwrap();
                    model.truncate_to(target);
                    prop_assert_eq!(new_end, model.end());
                }
                Op::Roll { .. } => logs[i].as_ref().unwrap().roll().unwrap(),
                Op::DeleteRecords { ahead, .. } => {
                    let log = logs[i].as_ref().unwrap();
                    log.set_high_watermark(log.log_end_offset());
                    let target = (model.log_start + i64::from(ahead % 10)).min(model.end());
                    log.delete_records(target).unwrap();
                    model.log_start = model.log_start.max(target);
                    log.apply_retention(0).unwrap();
                }
                Op::Reopen { clean, .. } => {
                    let log = logs[i].take().unwrap();
                    logs[i] = Some(reopen(&dirs[i], log, clean));
                }
            }
            let log = logs[i].as_ref().unwrap();
            prop_assert_eq!(log.log_end_offset(), model.end());
            prop_assert_eq!(read_all(log, model.log_start), model.visible());
            let open = open_logs_under(root.path());
            prop_assert!(open <= MIN_SEGMENT_FILES + TRANSIENT, "{} segment files open", open);
            let segments: usize = dirs.iter().map(|d| {
                std::fs::read_dir(d).unwrap().filter(|e| {
                    e.as_ref().unwrap().path().extension().is_some_and(|x| x == "log")
                }).count()
            }).sum();
            most_segments = most_segments.max(segments);
        }
        // Every log still reads back whole at the end, however long its files were closed.
        for (log, model) in logs.iter().zip(&models) {
            prop_assert_eq!(read_all(log.as_ref().unwrap(), model.log_start), model.visible());
        }
        prop_assert!(most_segments > 3 * MIN_SEGMENT_FILES / 2, "only {} segments", most_segments);
    }
}
