//! Property test: random sequences of appends, truncations, rolls, DeleteRecords with
//! retention, and reopenings (clean and unclean) give the same reads as a simple in-memory
//! model of the log.

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

/// The model: batches as (base offset, values), and the log start offset.
#[derive(Debug, Default)]
struct Model {
    batches: Vec<(i64, Vec<String>)>,
    log_start: i64,
}

impl Model {
    fn end(&self) -> i64 {
        self.batches
            .last()
            .map_or(self.log_start, |(b, v)| b + v.len() as i64)
    }

    fn visible(&self) -> Vec<(i64, String)> {
        self.batches
            .iter()
            .flat_map(|(b, vs)| {
                vs.iter()
                    .enumerate()
                    .map(move |(i, v)| (b + i as i64, v.clone()))
            })
            .filter(|(o, _)| *o >= self.log_start)
            .collect()
    }
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
    let cp = Checkpointed {
        recovery_point: log.recovery_point(),
        log_start_offset: log.log_start_offset(),
        high_watermark: log.high_watermark(),
        first_dirty_offset: log.first_dirty_offset(),
    };
    if clean {
        log.close().unwrap();
    }
    drop(log);
    PartitionLog::open(dir, config(), cp, clean).unwrap().0
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(128))]

    #[test]
    fn the_log_behaves_like_its_model(ops in proptest::collection::vec(op(), 1..40)) {
        let dir = tempfile::tempdir().unwrap();
        let mut log = open(dir.path(), config(), true);
        let mut model = Model::default();
        let mut epoch = 0;
        let mut counter = 0;
        for op in ops {
            match op {
                Op::Append { records, epoch_bump } => {
                    epoch += i32::from(epoch_bump);
                    counter += 1;
                    let tag = format!("a{counter}");
                    let info = log.append_as_leader(batch(&tag, records, counter), epoch, 0).unwrap();
                    prop_assert_eq!(info.first_offset, model.end());
                    model.batches.push((info.first_offset, (0..records).map(|i| format!("{tag}-{i}")).collect()));
                }
                Op::Truncate { back } => {
                    let target = (model.end() - i64::from(back % 12)).max(model.log_start);
                    let new_end = log.truncate_to(target).unwrap();
                    if target < model.end() {
                        // The batch holding `target` goes whole, with everything after it; a
                        // cut that reaches the log start empties the log.
                        model.batches.retain(|(b, v)| b + v.len() as i64 <= target);
                        if model.batches.last().is_none_or(|(b, v)| b + v.len() as i64 <= model.log_start) {
                            model.batches.clear();
                        }
                    }
                    prop_assert_eq!(new_end, model.end());
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
        }
    }
}
