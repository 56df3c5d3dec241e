//! The log the core replicates, as the core sees it. The driver implements it on the partition
//! log (`__cluster_metadata`); the simulation on [`MemLog`], whose unflushed tail a crash loses.

use crate::types::{Entry, NodeId, SnapshotId};
use bytes::{Buf, BufMut, Bytes, BytesMut};
use std::collections::BTreeSet;

/// Why a downloaded snapshot could not be installed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InvalidSnapshot(pub String);

/// The replicated log, with the snapshot that replaces its cleaned prefix.
pub trait RaftLog {
    /// The first offset the log holds entries from: the latest snapshot's end once the log was
    /// cleaned below it, else 0.
    fn start_offset(&self) -> i64;
    /// The offset the next entry's first record gets.
    fn end_offset(&self) -> i64;
    /// The epoch of the last entry (the snapshot's epoch when there is none after it; 0 when
    /// empty).
    fn last_epoch(&self) -> i32;
    /// The largest epoch at or below `epoch` in this log (the snapshot counting as its last
    /// record) and the offset where it ends (the start of the next epoch, or the log end).
    /// `(0, 0)` when there is none.
    fn end_offset_for_epoch(&self, epoch: i32) -> (i32, i64);
    /// Appends entries whose offsets start at the log end.
    fn append(&mut self, entries: &[Entry]);
    /// Removes every entry holding `offset` or a later one (the log ends on a batch boundary
    /// at or below `offset`, never below its start).
    fn truncate_to(&mut self, offset: i64);
    /// Up to `max` entries, starting with the one holding `from`.
    fn read(&self, from: i64, max: usize) -> Vec<Entry>;
    /// Makes every entry durable.
    fn flush(&mut self);
    /// Entries below this offset are durable.
    fn flushed_end_offset(&self) -> i64;
    /// The latest snapshot.
    fn latest_snapshot(&self) -> Option<SnapshotId>;
    /// The voter set the latest snapshot records, if it records one.
    fn snapshot_voters(&self) -> Option<BTreeSet<NodeId>>;
    /// Up to `max` bytes of snapshot `id` from `position`, with its whole size; `None` when
    /// this log does not hold it.
    fn read_snapshot(&self, id: SnapshotId, position: u64, max: usize) -> Option<(u64, Bytes)>;
    /// Durably writes a snapshot of the state below `id.end_offset` (a batch boundary at or
    /// below the high watermark), recording `voters`, then removes the entries it covers.
    fn create_snapshot(&mut self, id: SnapshotId, voters: &BTreeSet<NodeId>, state: Bytes);
    /// Replaces the whole log with a downloaded snapshot (durably), so it starts and ends at
    /// `id.end_offset`.
    fn install_snapshot(&mut self, id: SnapshotId, bytes: Bytes) -> Result<(), InvalidSnapshot>;
}

/// A snapshot held by [`MemLog`]: its bytes are the voter set then the state.
#[derive(Debug, Clone, PartialEq, Eq)]
struct MemSnapshot {
    id: SnapshotId,
    bytes: Bytes,
}

/// An in-memory log for tests and simulation.
#[derive(Debug, Clone, Default)]
pub struct MemLog {
    entries: Vec<Entry>,
    flushed: usize,
    snapshot: Option<MemSnapshot>,
}

impl MemLog {
    /// The log a crash leaves behind: its flushed prefix (and its snapshot, written durably).
    pub fn after_crash(&self) -> MemLog {
        MemLog {
            entries: self.entries[..self.flushed].to_vec(),
            flushed: self.flushed,
            snapshot: self.snapshot.clone(),
        }
    }

    /// Every entry after the snapshot.
    pub fn entries(&self) -> &[Entry] {
        &self.entries
    }

    /// The state the latest snapshot holds, as the state machine gave it.
    pub fn snapshot_state(&self) -> Option<Bytes> {
        let s = self.snapshot.as_ref()?;
        decode_mem_snapshot(&s.bytes).map(|(_, state)| state)
    }
}

fn encode_mem_snapshot(voters: &BTreeSet<NodeId>, state: &Bytes) -> Bytes {
    let mut b = BytesMut::with_capacity(4 + 4 * voters.len() + state.len());
    b.put_u32(voters.len() as u32);
    for v in voters {
        b.put_i32(*v);
    }
    b.put_slice(state);
    b.freeze()
}

fn decode_mem_snapshot(bytes: &Bytes) -> Option<(BTreeSet<NodeId>, Bytes)> {
    let mut b = bytes.clone();
    if b.remaining() < 4 {
        return None;
    }
    let n = b.get_u32() as usize;
    if b.remaining() < n.checked_mul(4)? {
        return None;
    }
    let voters = (0..n).map(|_| b.get_i32()).collect();
    Some((voters, b))
}

impl RaftLog for MemLog {
    fn start_offset(&self) -> i64 {
        self.snapshot.as_ref().map_or(0, |s| s.id.end_offset)
    }

    fn end_offset(&self) -> i64 {
        self.entries
            .last()
            .map_or(self.start_offset(), Entry::next_offset)
    }

    fn last_epoch(&self) -> i32 {
        self.entries
            .last()
            .map(|e| e.epoch)
            .or(self.snapshot.as_ref().map(|s| s.id.epoch))
            .unwrap_or(0)
    }

    fn end_offset_for_epoch(&self, epoch: i32) -> (i32, i64) {
        let Some(i) = self.entries.iter().rposition(|e| e.epoch <= epoch) else {
            return match &self.snapshot {
                Some(s) if s.id.epoch <= epoch => (s.id.epoch, s.id.end_offset),
                _ => (0, 0),
            };
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
            .map_or(self.start_offset(), |i| self.entries[i].next_offset())
    }

    fn latest_snapshot(&self) -> Option<SnapshotId> {
        self.snapshot.as_ref().map(|s| s.id)
    }

    fn snapshot_voters(&self) -> Option<BTreeSet<NodeId>> {
        let s = self.snapshot.as_ref()?;
        decode_mem_snapshot(&s.bytes).map(|(voters, _)| voters)
    }

    fn read_snapshot(&self, id: SnapshotId, position: u64, max: usize) -> Option<(u64, Bytes)> {
        let s = self.snapshot.as_ref().filter(|s| s.id == id)?;
        let size = s.bytes.len() as u64;
        let from = position.min(size) as usize;
        let to = (from + max).min(s.bytes.len());
        Some((size, s.bytes.slice(from..to)))
    }

    fn create_snapshot(&mut self, id: SnapshotId, voters: &BTreeSet<NodeId>, state: Bytes) {
        let drop = self
            .entries
            .partition_point(|e| e.next_offset() <= id.end_offset);
        self.entries.drain(..drop);
        self.flushed = self.flushed.saturating_sub(drop);
        self.snapshot = Some(MemSnapshot {
            id,
            bytes: encode_mem_snapshot(voters, &state),
        });
    }

    fn install_snapshot(&mut self, id: SnapshotId, bytes: Bytes) -> Result<(), InvalidSnapshot> {
        if decode_mem_snapshot(&bytes).is_none() {
            return Err(InvalidSnapshot("truncated voter set".into()));
        }
        self.entries.clear();
        self.flushed = 0;
        self.snapshot = Some(MemSnapshot { id, bytes });
        Ok(())
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
            kind: crate::types::EntryKind::Data,
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

    #[test]
    fn a_snapshot_replaces_the_prefix_it_covers() {
        let mut log = MemLog::default();
        log.append(&[e(0, 3, 1), e(3, 2, 1), e(5, 4, 2)]);
        log.flush();
        let id = SnapshotId {
            end_offset: 5,
            epoch: 1,
        };
        let voters: BTreeSet<NodeId> = [1, 2, 3].into();
        log.create_snapshot(id, &voters, Bytes::from_static(b"state"));
        assert_eq!(log.start_offset(), 5);
        assert_eq!(log.end_offset(), 9);
        assert_eq!(log.entries().len(), 1);
        assert_eq!(
            log.end_offset_for_epoch(1),
            (1, 5),
            "the snapshot ends epoch 1"
        );
        assert_eq!(log.end_offset_for_epoch(0), (0, 0));
        assert_eq!(log.snapshot_voters(), Some(voters.clone()));
        assert_eq!(log.snapshot_state().as_deref(), Some(&b"state"[..]));
        let (size, head) = log.read_snapshot(id, 0, 4).expect("held");
        let (_, tail) = log.read_snapshot(id, 4, 1_000).expect("held");
        assert_eq!(size as usize, head.len() + tail.len());
        let mut whole = head.to_vec();
        whole.extend_from_slice(&tail);

        let mut other = MemLog::default();
        other.append(&[e(0, 1, 1)]);
        other
            .install_snapshot(id, Bytes::from(whole))
            .expect("valid");
        assert_eq!((other.start_offset(), other.end_offset()), (5, 5));
        assert_eq!(other.last_epoch(), 1);
        assert_eq!(
            other.flushed_end_offset(),
            5,
            "an installed snapshot is durable"
        );
        assert_eq!(other.snapshot_voters(), Some(voters));
        assert!(other
            .install_snapshot(id, Bytes::from_static(b"\0\0"))
            .is_err());
    }
}
