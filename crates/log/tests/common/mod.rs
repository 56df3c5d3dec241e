//! Helpers shared by the log tests: batches with recognisable contents and small configs.
#![allow(dead_code)]

use bytes::Bytes;
use fjord_log::partition_log::load::Checkpointed;
use fjord_log::{LogConfig, PartitionLog};
use fjord_protocol::records::{Compression, RecordBatch, RecordBatchBuilder, RecordBatches};
use std::path::Path;

/// A batch of `n` records whose values are `"{tag}-{i}"`, timestamps `ts + i`.
pub fn batch(tag: &str, n: usize, ts: i64) -> Bytes {
    let mut b = RecordBatchBuilder::new(Compression::None);
    for i in 0..n {
        let key = format!("k{}", i % 3);
        b.append(
            ts + i as i64,
            Some(key.as_bytes()),
            Some(format!("{tag}-{i}").as_bytes()),
            &[],
        );
    }
    b.build().unwrap()
}

/// A follower batch: `n` records starting at `base`, written in `epoch`.
pub fn follower_batch(tag: &str, base: i64, n: usize, epoch: i32) -> Bytes {
    let mut b = RecordBatchBuilder::new(Compression::None)
        .base_offset(base)
        .partition_leader_epoch(epoch);
    for i in 0..n {
        b.append(
            1_000 + base + i as i64,
            Some(b"k"),
            Some(format!("{tag}-{i}").as_bytes()),
            &[],
        );
    }
    b.build().unwrap()
}

/// A config that rolls and indexes often.
pub fn small_config() -> LogConfig {
    LogConfig {
        segment_bytes: 1024,
        index_interval_bytes: 128,
        ..LogConfig::default()
    }
}

/// Opens a log with nothing checkpointed.
pub fn open(dir: &Path, config: LogConfig, clean: bool) -> PartitionLog {
    PartitionLog::open(dir, config, Checkpointed::default(), clean)
        .unwrap()
        .0
}

/// Every value in `records`, in order, with its offset.
pub fn values(records: &Bytes) -> Vec<(i64, String)> {
    let mut out = Vec::new();
    for b in RecordBatches::new(records.clone()) {
        let b: RecordBatch = b.unwrap();
        b.verify_crc().unwrap();
        for r in b.records().unwrap() {
            let r = r.unwrap();
            out.push((
                b.base_offset() + i64::from(r.offset_delta),
                String::from_utf8(r.value.unwrap().to_vec()).unwrap(),
            ));
        }
    }
    out
}

/// Reads everything from `from` to the log end.
pub fn read_all(log: &PartitionLog, from: i64) -> Vec<(i64, String)> {
    let mut out = Vec::new();
    let mut next = from;
    while next < log.log_end_offset() {
        let r = log.read(next, 1 << 20, None, true).unwrap();
        let vals = values(&r.records);
        if vals.is_empty() {
            break;
        }
        next = vals.last().unwrap().0 + 1;
        out.extend(vals.into_iter().filter(|(o, _)| *o >= from));
    }
    out
}

/// The model: batches as (base offset, values), and the log start offset.
#[derive(Debug, Default)]
pub struct Model {
    /// The batches appended and not cut, as (base offset, values).
    pub batches: Vec<(i64, Vec<String>)>,
    /// The log start offset.
    pub log_start: i64,
}

impl Model {
    /// The offset after the last record.
    pub fn end(&self) -> i64 {
        self.batches
            .last()
            .map_or(self.log_start, |(b, v)| b + v.len() as i64)
    }

    /// Every record at or after the log start, with its offset.
    pub fn visible(&self) -> Vec<(i64, String)> {
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

    /// A cut at `target`: the batch holding it goes whole, with everything after it; a cut
    /// that reaches the log start empties the log.
    pub fn truncate_to(&mut self, target: i64) {
        if target < self.end() {
            self.batches.retain(|(b, v)| b + v.len() as i64 <= target);
            if self
                .batches
                .last()
                .is_none_or(|(b, v)| b + v.len() as i64 <= self.log_start)
            {
                self.batches.clear();
            }
        }
    }
}

/// Closes `log` (cleanly or as a crash would leave it) and opens it again with `config` and
/// what its checkpoints would have held.
pub fn reopen_with(dir: &Path, log: PartitionLog, clean: bool, config: LogConfig) -> PartitionLog {
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
    PartitionLog::open(dir, config, cp, clean).unwrap().0
}

/// How many entries of `dir` have a name `wanted` accepts.
pub fn count_files(dir: &Path, wanted: impl Fn(&str) -> bool) -> usize {
    std::fs::read_dir(dir)
        .unwrap()
        .filter(|e| wanted(&e.as_ref().unwrap().file_name().to_string_lossy()))
        .count()
}

/// Cases per property test: `default`, or `PROPTEST_CASES` (to run many more by hand).
pub fn proptest_cases(default: u32) -> u32 {
    std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}
