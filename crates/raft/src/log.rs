//! The log the core replicates, as the core sees it. The driver implements it on the partition
//! log (`__cluster_metadata`); the simulation on [`MemLog`], whose unflushed tail a crash loses.

use crate::types::Entry;

/// The replicated log.
pub trait RaftLog {
    /// The offset the next entry gets.
    fn end_offset(&self) -> i64;
    /// The epoch of the last entry (0 when empty).
    fn last_epoch(&self) -> i32;
    /// The largest epoch at or below `epoch` in this log and the offset where it ends (the
    /// start of the next epoch, or the log end). `(0, 0)` when there is none.
    fn end_offset_for_epoch(&self, epoch: i32) -> (i32, i64);
    /// Appends entries whose offsets start at the log end.
    fn append(&mut self, entries: &[Entry]);
    /// Removes every entry at or after `offset`.
    fn truncate_to(&mut self, offset: i64);
    /// Up to `max` entries from `from`.
    fn read(&self, from: i64, max: usize) -> Vec<Entry>;
    /// Makes every entry durable.
    fn flush(&mut self);
    /// Entries below this offset are durable.
    fn flushed_end_offset(&self) -> i64;
}

/// An in-memory log for tests and simulation.
#[derive(Debug, Clone, Default)]
pub struct MemLog {
    entries: Vec<Entry>,
    flushed: usize,
}

impl MemLog {
    /// The log a crash leaves behind: its flushed prefix.
    pub fn after_crash(&self) -> MemLog {
        MemLog {
            entries: self.entries[..self.flushed].to_vec(),
            flushed: self.flushed,
        }
    }

    /// Every entry.
    pub fn entries(&self) -> &[Entry] {
        &self.entries
    }
}

impl RaftLog for MemLog {
    fn end_offset(&self) -> i64 {
        self.entries.len() as i64
    }

    fn last_epoch(&self) -> i32 {
        self.entries.last().map_or(0, |e| e.epoch)
    }

    fn end_offset_for_epoch(&self, epoch: i32) -> (i32, i64) {
        let Some(i) = self.entries.iter().rposition(|e| e.epoch <= epoch) else {
            return (0, 0);
        };
        let found = self.entries[i].epoch;
        let end = self
            .entries
            .iter()
            .position(|e| e.epoch > found)
            .unwrap_or(self.entries.len());
        (found, end as i64)
    }

    fn append(&mut self, entries: &[Entry]) {
        for e in entries {
            assert_eq!(
                e.offset,
                self.end_offset(),
                "entries are appended at the log end"
            );
            self.entries.push(e.clone());
        }
    }

    fn truncate_to(&mut self, offset: i64) {
        let keep = (offset.max(0) as usize).min(self.entries.len());
        self.entries.truncate(keep);
        self.flushed = self.flushed.min(keep);
    }

    fn read(&self, from: i64, max: usize) -> Vec<Entry> {
        self.entries
            .iter()
            .skip(from.max(0) as usize)
            .take(max)
            .cloned()
            .collect()
    }

    fn flush(&mut self) {
        self.flushed = self.entries.len();
    }

    fn flushed_end_offset(&self) -> i64 {
        self.flushed as i64
    }
}
