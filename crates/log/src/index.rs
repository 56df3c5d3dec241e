//! Segment index files: the offset index (`.index`, 8-byte entries: relative offset, file
//! position) and the time index (`.timeindex`, 12-byte entries: timestamp, relative offset).
//! Both are sparse, sorted, held in memory for lookups and appended to their file; new
//! entries reach the disk on `flush` (the file is opened only then, and on truncation). An index that fails its sanity check is rebuilt from the
//! log by recovery, so a lost or torn index never loses data.

use crate::error::{io_err, Result};
use std::fs::{File, OpenOptions};
use std::io::Read;
use std::os::unix::fs::FileExt;
use std::path::{Path, PathBuf};

/// One fixed-size index entry.
pub trait IndexEntry: Copy + std::fmt::Debug {
    /// Its size on disk.
    const SIZE: usize;
    /// The key entries are sorted by (relative offset, or timestamp).
    fn key(&self) -> i64;
    /// Writes the entry.
    fn write(&self, out: &mut Vec<u8>);
    /// Reads an entry from exactly `SIZE` bytes.
    fn read(b: &[u8]) -> Self;
    /// The entry as `kafka-dump-log` prints it, for a segment at `base_offset`.
    fn dump_line(&self, base_offset: i64) -> String;
}

/// An offset index entry: the offset (relative to the segment base) of a batch's last record,
/// and the file position where that batch starts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct OffsetEntry {
    /// Offset relative to the segment's base offset.
    pub relative_offset: u32,
    /// Position in the `.log` file.
    pub position: u32,
}

impl IndexEntry for OffsetEntry {
    const SIZE: usize = 8;
    fn key(&self) -> i64 {
        i64::from(self.relative_offset)
    }
    fn write(&self, out: &mut Vec<u8>) {
        out.extend_from_slice(&self.relative_offset.to_be_bytes());
        out.extend_from_slice(&self.position.to_be_bytes());
    }
    fn read(b: &[u8]) -> Self {
        OffsetEntry {
            relative_offset: u32::from_be_bytes([b[0], b[1], b[2], b[3]]),
            position: u32::from_be_bytes([b[4], b[5], b[6], b[7]]),
        }
    }
    fn dump_line(&self, base_offset: i64) -> String {
        format!(
            "offset: {} position: {}",
            base_offset + i64::from(self.relative_offset),
            self.position
        )
    }
}

/// A time index entry: the largest timestamp seen so far, and the (relative) offset of the
/// last record of the batch that carried it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TimeEntry {
    /// The timestamp.
    pub timestamp: i64,
    /// Offset relative to the segment's base offset.
    pub relative_offset: u32,
}

impl IndexEntry for TimeEntry {
    const SIZE: usize = 12;
    fn key(&self) -> i64 {
        self.timestamp
    }
    fn write(&self, out: &mut Vec<u8>) {
        out.extend_from_slice(&self.timestamp.to_be_bytes());
        out.extend_from_slice(&self.relative_offset.to_be_bytes());
    }
    fn read(b: &[u8]) -> Self {
        let mut ts = [0u8; 8];
        ts.copy_from_slice(&b[..8]);
        TimeEntry {
            timestamp: i64::from_be_bytes(ts),
            relative_offset: u32::from_be_bytes([b[8], b[9], b[10], b[11]]),
        }
    }
    fn dump_line(&self, base_offset: i64) -> String {
        format!(
            "timestamp: {} offset: {}",
            self.timestamp,
            base_offset + i64::from(self.relative_offset)
        )
    }
}

/// An index file and its entries.
#[derive(Debug)]
pub struct IndexFile<E: IndexEntry> {
    path: PathBuf,
    entries: Vec<E>,
    /// Encoded entries not yet written to the file.
    pending: Vec<u8>,
    max_entries: usize,
}

impl<E: IndexEntry> IndexFile<E> {
    /// Creates (or empties) the index at `path`, allowing `max_bytes` of entries.
    /// No file handle is kept: the entries live in memory and reach the file only when the
    /// segment is flushed or truncated, which opens it then (an idle partition holds no index
    /// file open).
    pub fn create(path: &Path, max_bytes: u64) -> Result<Self> {
        OpenOptions::new()
            .write(true)
            .create(true)
            .truncate(true)
            .open(path)
            .map_err(io_err(path))?;
        Ok(IndexFile {
            path: path.to_owned(),
            entries: Vec::new(),
            pending: Vec::new(),
            max_entries: (max_bytes as usize / E::SIZE).max(1),
        })
    }

    /// Opens an existing index. Returns `None` when the file is missing or fails its sanity
    /// check (a size that is not a whole number of entries, keys out of order, or an entry that
    /// `valid` rejects, such as a position past the log); the caller then rebuilds it.
    pub fn open(path: &Path, max_bytes: u64, valid: impl Fn(&E) -> bool) -> Result<Option<Self>> {
        let mut file = match OpenOptions::new().read(true).open(path) {
            Ok(f) => f,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
            Err(e) => return Err(io_err(path)(e)),
        };
        let mut bytes = Vec::new();
        file.read_to_end(&mut bytes).map_err(io_err(path))?;
        if bytes.len() % E::SIZE != 0 {
            return Ok(None);
        }
        let entries: Vec<E> = bytes.chunks_exact(E::SIZE).map(E::read).collect();
        let sorted = entries.windows(2).all(|w| w[0].key() < w[1].key());
        if !sorted || !entries.iter().all(valid) {
            return Ok(None);
        }
        Ok(Some(IndexFile {
            path: path.to_owned(),
            entries,
            pending: Vec::new(),
            max_entries: (max_bytes as usize / E::SIZE).max(1),
        }))
    }

    /// The entries, in key order.
    pub fn entries(&self) -> &[E] {
        &self.entries
    }

    /// The last entry.
    pub fn last(&self) -> Option<E> {
        self.entries.last().copied()
    }

    /// True when no more entries fit (the segment must roll).
    pub fn is_full(&self) -> bool {
        self.entries.len() >= self.max_entries
    }

    /// Appends an entry whose key is above the last one's; others are ignored.
    pub fn append(&mut self, entry: E) {
        if self.is_full() || self.last().is_some_and(|l| l.key() >= entry.key()) {
            return;
        }
        entry.write(&mut self.pending);
        self.entries.push(entry);
    }

    /// The last entry whose key is at or below `key`.
    pub fn floor(&self, key: i64) -> Option<E> {
        let i = self.entries.partition_point(|e| e.key() <= key);
        i.checked_sub(1).map(|i| self.entries[i])
    }

    /// Drops entries whose key is at or above `key` and cuts the file to match.
    pub fn truncate_from(&mut self, key: i64) -> Result<()> {
        let keep = self.entries.partition_point(|e| e.key() < key);
        self.truncate_entries(keep)
    }

    /// Keeps the first `keep` entries and cuts the file to match.
    pub fn truncate_entries(&mut self, keep: usize) -> Result<()> {
        if keep >= self.entries.len() {
            return Ok(());
        }
        let file = self.write_pending()?;
        self.entries.truncate(keep);
        let len = (keep * E::SIZE) as u64;
        match file {
            Some(f) => f.set_len(len).map_err(io_err(&self.path)),
            None => Ok(()),
        }
    }

    /// Opens the file and writes the pending entries at its end (where the entries not
    /// pending end). `None` when the file is gone: its segment was deleted, and the entries
    /// with it.
    fn write_pending(&mut self) -> Result<Option<File>> {
        let file = match OpenOptions::new().write(true).open(&self.path) {
            Ok(f) => f,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                self.pending.clear();
                return Ok(None);
            }
            Err(e) => return Err(io_err(&self.path)(e)),
        };
        if !self.pending.is_empty() {
            let at = (self.entries.len() * E::SIZE - self.pending.len()) as u64;
            file.write_all_at(&self.pending, at)
                .map_err(io_err(&self.path))?;
            self.pending.clear();
        }
        Ok(Some(file))
    }

    /// Writes pending entries and fsyncs the file.
    pub fn flush(&mut self) -> Result<()> {
        match self.write_pending()? {
            Some(f) => f.sync_data().map_err(io_err(&self.path)),
            None => Ok(()),
        }
    }

    /// The file's path.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Points the index at a new path after its file was renamed.
    pub fn set_path(&mut self, path: PathBuf) {
        self.path = path;
    }
}

/// The offset index of a segment.
pub type OffsetIndex = IndexFile<OffsetEntry>;
/// The time index of a segment.
pub type TimeIndex = IndexFile<TimeEntry>;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn floor_lookups_and_truncation() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("0.index");
        let mut idx = OffsetIndex::create(&path, 1024).unwrap();
        assert_eq!(idx.floor(5), None);
        for (o, p) in [(3u32, 0u32), (7, 100), (12, 250)] {
            idx.append(OffsetEntry {
                relative_offset: o,
                position: p,
            });
        }
        idx.append(OffsetEntry {
            relative_offset: 12,
            position: 300,
        });
        assert_eq!(idx.entries().len(), 3, "keys must increase");
        assert_eq!(idx.floor(2), None);
        assert_eq!(idx.floor(3).unwrap().position, 0);
        assert_eq!(idx.floor(11).unwrap().position, 100);
        assert_eq!(idx.floor(99).unwrap().position, 250);
        idx.flush().unwrap();
        assert_eq!(std::fs::metadata(&path).unwrap().len(), 24);
        idx.truncate_from(7).unwrap();
        assert_eq!(idx.entries().len(), 1);
        assert_eq!(std::fs::metadata(&path).unwrap().len(), 8);
        idx.append(OffsetEntry {
            relative_offset: 9,
            position: 80,
        });
        idx.flush().unwrap();
        let again = OffsetIndex::open(&path, 1024, |_| true).unwrap().unwrap();
        assert_eq!(again.entries(), idx.entries());
    }

    #[test]
    fn bad_files_fail_the_sanity_check() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("0.timeindex");
        assert!(
            TimeIndex::open(&path, 1024, |_| true).unwrap().is_none(),
            "missing"
        );
        std::fs::write(&path, [0u8; 13]).unwrap();
        assert!(
            TimeIndex::open(&path, 1024, |_| true).unwrap().is_none(),
            "torn entry"
        );
        let mut b = Vec::new();
        TimeEntry {
            timestamp: 9,
            relative_offset: 1,
        }
        .write(&mut b);
        TimeEntry {
            timestamp: 5,
            relative_offset: 2,
        }
        .write(&mut b);
        std::fs::write(&path, &b).unwrap();
        assert!(
            TimeIndex::open(&path, 1024, |_| true).unwrap().is_none(),
            "out of order"
        );
        std::fs::write(&path, &b[..12]).unwrap();
        assert!(
            TimeIndex::open(&path, 1024, |e| e.relative_offset < 1)
                .unwrap()
                .is_none(),
            "past the log"
        );
        assert!(TimeIndex::open(&path, 1024, |_| true).unwrap().is_some());
    }

    #[test]
    fn a_full_index_reports_it() {
        let dir = tempfile::tempdir().unwrap();
        let mut idx = OffsetIndex::create(&dir.path().join("i"), 16).unwrap();
        idx.append(OffsetEntry {
            relative_offset: 1,
            position: 1,
        });
        assert!(!idx.is_full());
        idx.append(OffsetEntry {
            relative_offset: 2,
            position: 2,
        });
        assert!(idx.is_full());
        idx.append(OffsetEntry {
            relative_offset: 3,
            position: 3,
        });
        assert_eq!(idx.entries().len(), 2);
    }
}
