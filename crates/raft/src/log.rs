//! The log the core replicates, as the core sees it. The driver implements it on the partition
//! log (`__cluster_metadata`); the simulation on [`MemLog`], whose unflushed tail a crash loses.

use crate::types::Entry;

/// The replicated log.
pub trait RaftLog {
    /// The offset the next entry's first record gets.
    fn end_offset(&self) -> i64;
    /// The epoch of the last entry (0 when empty).
    fn last_epoch(&self) -> i32;
    /// The largest epoch at or below `epoch` in this log and the offset where it ends (the
    /// start of the next epoch, or the log end). `(0, 0)` when there is none.
    fn end_offset_for_epoch(&self, epoch: i32) -> (i32, i64);
    /// Appends entries whose offsets start at the log end.
    fn append(&mut self, entries: &[Entry]);
    /// Removes every entry holding `offset` or a later one (the log ends on a batch boundary
    /// at or below `offset`).
    fn truncate_to(&mut self, offset: i64);
    /// Up to `max` entries, starting with the one holding `from`.
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
        self.entries.last().map_or(0, Entry::next_offset)
    }

    fn last_epoch(&self) -> i32 {
        self.entries.last().map_or(0, |e| e.epoch)
    }

    fn end_offset_for_epoch(&self, epoch: i32) -> (i32, i64) {
        let Some(i) = self.entries.iter().rposition(|e| e.epoch <= epoch) else {
            return (0, 0);
        };
        let found = self.entries[i].epoch;
        let end = self.entries[i + 1..]
            .iter()
            .find(|e| e.epoch > found)
            .map_or(self.end_offset(), |e| e.offset);
        (found, end)
    }

    fn append(&mut self, entries: &[Entry]) {
        for e in entries {
            assert_eq!(
                e.offset,
                self.end_offset(),
                "entries are appended at the log end"
            );
            assert!(e.records > 0, "an entry holds at least one record");
            self.entries.push(e.clone());
        }
    }

    fn truncate_to(&mut self, offset: i64) {
        // An entry holding `offset` goes whole: the log ends on a batch boundary.
        let keep = self.entries.partition_point(|e| e.next_offset() <= offset);
        self.entries.truncate(keep);
        self.flushed = self.flushed.min(keep);
    }

    fn read(&self, from: i64, max: usize) -> Vec<Entry> {
        let first = self.entries.partition_point(|e| e.next_offset() <= from);
        self.entries[first..].iter().take(max).cloned().collect()
    }

    fn flush(&mut self) {
        self.flushed = self.entries.len();
    }

    fn flushed_end_offset(&self) -> i64 {
        self.flushed
            .checked_sub(1)
            .map_or(0, |i| self.entries[i].next_offset())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use bytes::Bytes;

    fn e(offset: i64, records: u32, epoch: i32) -> Entry {
        Entry {
            offset,
            records,
            epoch,
            data: Bytes::new(),
        }
    }

    #[test]
    fn entries_are_batches_spanning_their_records() {
        let mut log = MemLog::default();
        log.append(&[e(0, 3, 1), e(3, 2, 1), e(5, 4, 2)]);
        assert_eq!(log.end_offset(), 9);
        assert_eq!(log.end_offset_for_epoch(1), (1, 5));
        assert_eq!(log.end_offset_for_epoch(2), (2, 9));
        assert_eq!(log.end_offset_for_epoch(0), (0, 0));
        assert_eq!(
            log.read(4, 10)[0].offset,
            3,
            "a read starts with the batch holding the offset"
        );
        log.flush();
        log.truncate_to(7);
        assert_eq!(log.end_offset(), 5, "the batch holding 7 goes whole");
        assert_eq!(log.flushed_end_offset(), 5);
        log.append(&[e(5, 1, 3)]);
        assert_eq!(
            log.after_crash().end_offset(),
            5,
            "only the flushed prefix survives"
        );
    }
}
