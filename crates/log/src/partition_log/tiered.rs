//! What tiered storage's copy reads of a log: each segment's bounds, size, newest timestamp
//! and files (with the producer snapshot at its end where the log still has it), and the
//! leader epochs up to an offset in the `leader-epoch-checkpoint` format.

use super::PartitionLog;
use crate::segment::{file_name, INDEX_SUFFIX, TIME_INDEX_SUFFIX};
use std::path::PathBuf;

/// One local segment as tiered storage's copy sees it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SegmentInfo {
    /// Its first offset.
    pub base_offset: i64,
    /// The next segment's base (the log end for the active one).
    pub next_offset: i64,
    /// Its log file's size.
    pub size: u64,
    /// Its largest record timestamp (-1: none).
    pub max_timestamp_ms: i64,
    /// The `.log` file.
    pub log: PathBuf,
    /// The `.index` file.
    pub offset_index: PathBuf,
    /// The `.timeindex` file.
    pub time_index: PathBuf,
    /// The `.txnindex` file, if a transaction aborted in the segment.
    pub txn_index: Option<PathBuf>,
    /// The producer snapshot taken at the segment's end, if the log still has it.
    pub producer_snapshot: Option<PathBuf>,
}

impl PartitionLog {
    /// Every local segment in order, the active one last.
    pub fn segment_infos(&self) -> Vec<SegmentInfo> {
        let segs = self.segment_list();
        let end = self.log_end_offset();
        segs.iter()
            .enumerate()
            .map(|(i, s)| {
                let base = s.base_offset();
                let next = segs.get(i + 1).map_or(end, |n| n.base_offset());
                let txn = s.txn_index_path();
                let snapshot = self.dir.join(format!(
                    "{next:020}{}",
                    crate::producer_state::SNAPSHOT_SUFFIX
                ));
                SegmentInfo {
                    base_offset: base,
                    next_offset: next,
                    size: s.size(),
                    max_timestamp_ms: s.max_timestamp(),
                    log: s.log_path(),
                    offset_index: self.dir.join(file_name(base, INDEX_SUFFIX)),
                    time_index: self.dir.join(file_name(base, TIME_INDEX_SUFFIX)),
                    txn_index: txn.exists().then_some(txn),
                    producer_snapshot: snapshot.exists().then_some(snapshot),
                }
            })
            .collect()
    }

    /// The leader epochs whose first offset is at most `last_offset`, in the
    /// `leader-epoch-checkpoint` file's format (version 0, the count, one `epoch offset` line
    /// each).
    pub fn epoch_checkpoint_until(&self, last_offset: i64) -> String {
        let entries: Vec<_> = self
            .epoch_entries()
            .into_iter()
            .filter(|e| e.start_offset <= last_offset)
            .collect();
        let mut out = format!("0\n{}\n", entries.len());
        for e in entries {
            out.push_str(&format!("{} {}\n", e.epoch, e.start_offset));
        }
        out
    }
}
