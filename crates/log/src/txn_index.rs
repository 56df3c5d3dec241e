//! The aborted-transaction index (Kafka's `TransactionIndex`, `<base offset>.txnindex` beside
//! each segment): one 34-byte entry per transaction aborted in that segment (version 0,
//! producer id, first offset, last offset (the abort marker), last stable offset), in marker
//! order. A read_committed fetch answers with the entries that overlap what it returns; the
//! consumer drops those producers' batches.

use crate::error::{io_err, Result};
use std::io::Write;
use std::path::Path;

/// The suffix of a segment's aborted-transaction index.
pub const TXN_INDEX_SUFFIX: &str = ".txnindex";
/// The size of one entry.
const ENTRY_SIZE: usize = 34;
/// The entry version written.
const ENTRY_VERSION: i16 = 0;

/// One aborted transaction.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct AbortedTxn {
    /// Its producer.
    pub producer_id: i64,
    /// Its first offset in the partition.
    pub first_offset: i64,
    /// The offset of its abort marker.
    pub last_offset: i64,
    /// The last stable offset once it ended.
    pub last_stable_offset: i64,
}

impl AbortedTxn {
    fn encode(&self) -> [u8; ENTRY_SIZE] {
        let mut b = [0u8; ENTRY_SIZE];
        b[0..2].copy_from_slice(&ENTRY_VERSION.to_be_bytes());
        b[2..10].copy_from_slice(&self.producer_id.to_be_bytes());
        b[10..18].copy_from_slice(&self.first_offset.to_be_bytes());
        b[18..26].copy_from_slice(&self.last_offset.to_be_bytes());
        b[26..34].copy_from_slice(&self.last_stable_offset.to_be_bytes());
        b
    }

    fn decode(b: &[u8]) -> Option<AbortedTxn> {
        let at = |o: usize| i64::from_be_bytes(b[o..o + 8].try_into().expect("8 bytes"));
        (i16::from_be_bytes([b[0], b[1]]) == ENTRY_VERSION).then(|| AbortedTxn {
            producer_id: at(2),
            first_offset: at(10),
            last_offset: at(18),
            last_stable_offset: at(26),
        })
    }
}

/// Reads an index file: its whole entries (a torn last entry or an unknown version ends it);
/// none when it does not exist.
pub fn read_file(path: &Path) -> Result<Vec<AbortedTxn>> {
    let bytes = match std::fs::read(path) {
        Ok(b) => b,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(e) => return Err(io_err(path)(e)),
    };
    Ok(parse(&bytes))
}

/// An index file's entries from its bytes (a torn last entry or an unknown version ends them):
/// a copy read back from tiered storage.
pub fn parse(bytes: &[u8]) -> Vec<AbortedTxn> {
    bytes
        .chunks_exact(ENTRY_SIZE)
        .map_while(AbortedTxn::decode)
        .collect()
}

/// Appends one entry to an index file (created when missing).
pub fn append_file(path: &Path, entry: &AbortedTxn) -> Result<()> {
    std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(path)
        .and_then(|mut f| f.write_all(&entry.encode()))
        .map_err(io_err(path))
}

/// Replaces an index file with `entries` (removed when there are none).
pub fn write_file(path: &Path, entries: &[AbortedTxn]) -> Result<()> {
    if entries.is_empty() {
        return match std::fs::remove_file(path) {
            Err(e) if e.kind() != std::io::ErrorKind::NotFound => Err(io_err(path)(e)),
            _ => Ok(()),
        };
    }
    let bytes: Vec<u8> = entries.iter().flat_map(|e| e.encode()).collect();
    std::fs::write(path, bytes).map_err(io_err(path))
}

/// Fsyncs an index file if it exists.
pub fn sync_file(path: &Path) -> Result<()> {
    match std::fs::File::open(path) {
        Ok(f) => f.sync_data().map_err(io_err(path)),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(()),
        Err(e) => Err(io_err(path)(e)),
    }
}

/// A partition's aborted transactions, in marker order.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct AbortedIndex {
    entries: Vec<AbortedTxn>,
}

impl AbortedIndex {
    /// An index of `entries` (sorted here by marker offset, duplicates dropped).
    pub fn new(mut entries: Vec<AbortedTxn>) -> AbortedIndex {
        entries.sort_by_key(|e| (e.last_offset, e.producer_id));
        entries.dedup_by_key(|e| (e.last_offset, e.producer_id));
        AbortedIndex { entries }
    }

    /// Every entry.
    pub fn entries(&self) -> &[AbortedTxn] {
        &self.entries
    }

    /// Adds an entry whose marker follows every other.
    pub fn push(&mut self, entry: AbortedTxn) {
        if self
            .entries
            .last()
            .is_none_or(|l| l.last_offset < entry.last_offset)
        {
            self.entries.push(entry);
        }
    }

    /// The aborted transactions a read of `[from, upper)` must report: those whose marker is
    /// at or after `from` and that began before `upper` (Kafka's `collectAbortedTxns`).
    pub fn overlapping(&self, from: i64, upper: i64) -> Vec<AbortedTxn> {
        let start = self.entries.partition_point(|e| e.last_offset < from);
        let mut out = Vec::new();
        for e in &self.entries[start..] {
            if e.first_offset < upper {
                out.push(*e);
            }
            // As Kafka's TransactionIndex stops: every later transaction was open at this one's
            // abort (and so starts at or after its last stable offset) or began after it.
            if e.last_stable_offset >= upper {
                break;
            }
        }
        out
    }

    /// Forgets the entries whose marker is below `log_start` (their segments are gone).
    pub fn retain_from(&mut self, log_start: i64) {
        let cut = self.entries.partition_point(|e| e.last_offset < log_start);
        self.entries.drain(..cut);
    }

    /// The entries whose marker lies in `[from, to)`.
    pub fn between(&self, from: i64, to: i64) -> &[AbortedTxn] {
        let a = self.entries.partition_point(|e| e.last_offset < from);
        let b = self.entries.partition_point(|e| e.last_offset < to);
        &self.entries[a..b]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn txn(pid: i64, first: i64, last: i64) -> AbortedTxn {
        AbortedTxn {
            producer_id: pid,
            first_offset: first,
            last_offset: last,
            last_stable_offset: last + 1,
        }
    }

    #[test]
    fn files_round_trip_and_torn_tails_are_dropped() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("00000000000000000000.txnindex");
        assert!(read_file(&path).unwrap().is_empty());
        append_file(&path, &txn(1, 0, 5)).unwrap();
        append_file(&path, &txn(2, 3, 9)).unwrap();
        assert_eq!(read_file(&path).unwrap(), vec![txn(1, 0, 5), txn(2, 3, 9)]);
        assert_eq!(std::fs::metadata(&path).unwrap().len(), 68);
        let mut bytes = std::fs::read(&path).unwrap();
        bytes.truncate(50);
        std::fs::write(&path, &bytes).unwrap();
        assert_eq!(read_file(&path).unwrap(), vec![txn(1, 0, 5)]);
        write_file(&path, &[]).unwrap();
        assert!(!path.exists());
    }

    #[test]
    fn a_read_reports_the_aborts_that_overlap_it() {
        let idx = AbortedIndex::new(vec![txn(2, 10, 20), txn(1, 0, 5), txn(3, 30, 40)]);
        let pids = |v: Vec<AbortedTxn>| v.iter().map(|e| e.producer_id).collect::<Vec<_>>();
        assert_eq!(pids(idx.overlapping(0, 100)), vec![1, 2, 3]);
        // A marker before the read: not reported.
        assert_eq!(pids(idx.overlapping(6, 100)), vec![2, 3]);
        // A transaction starting at or after the read's end: not reported.
        assert_eq!(pids(idx.overlapping(6, 30)), vec![2]);
        // A read inside a transaction reports it.
        assert_eq!(pids(idx.overlapping(15, 16)), vec![2]);
        let mut idx = idx;
        idx.retain_from(6);
        assert_eq!(idx.entries().len(), 2);
    }
}
