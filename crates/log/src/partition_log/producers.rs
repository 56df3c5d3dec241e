//! The partition's idempotent-producer state ([`crate::producer_state`]) kept with the log:
//! rebuilt on open (and after a truncation) from the newest `<offset>.snapshot` at or below
//! the log end plus the batches after it, snapshotted when a segment rolls and when the log
//! closes (the newest two snapshots are kept), and expired by age.

use super::PartitionLog;
use crate::error::{io_err, Result};
use crate::producer_state::{ProducerState, SNAPSHOT_SUFFIX};
use fjord_protocol::records::RecordBatches;
use std::path::PathBuf;

/// How much of the log one read returns while rebuilding.
const REBUILD_READ_BYTES: usize = 4 << 20;
/// How many snapshot files are kept.
const SNAPSHOTS_KEPT: usize = 2;

impl PartitionLog {
    /// The snapshot files, oldest first, with their offsets.
    fn snapshot_files(&self) -> Result<Vec<(i64, PathBuf)>> {
        let mut out = Vec::new();
        for entry in std::fs::read_dir(&self.dir).map_err(io_err(&self.dir))? {
            let entry = entry.map_err(io_err(&self.dir))?;
            let name = entry.file_name().to_string_lossy().into_owned();
            if let Some(offset) = name
                .strip_suffix(SNAPSHOT_SUFFIX)
                .filter(|s| s.len() == 20)
                .and_then(|s| s.parse::<i64>().ok())
            {
                out.push((offset, entry.path()));
            }
        }
        out.sort();
        Ok(out)
    }

    /// Rebuilds the producer state: the newest readable snapshot at or below the log end (and
    /// not below the log start), then every batch after it. Snapshots above the log end (a
    /// truncation, or recovery cut the log) are removed. Blocking.
    pub(super) fn rebuild_producer_state(&self) -> Result<()> {
        let end = self.log_end_offset();
        let start = self.log_start_offset();
        let mut state = ProducerState::default();
        let mut from = start;
        for (offset, path) in self.snapshot_files()?.into_iter().rev() {
            if offset > end {
                std::fs::remove_file(&path).map_err(io_err(&path))?;
                continue;
            }
            if offset < start {
                break;
            }
            let bytes = std::fs::read(&path).map_err(io_err(&path))?;
            match ProducerState::from_snapshot(&bytes) {
                Ok(s) => {
                    state = s;
                    from = offset;
                    break;
                }
                Err(e) => {
                    tracing::warn!(path = %path.display(), "ignoring a producer snapshot: {e}")
                }
            }
        }
        while from < end {
            let read = self.read(from, REBUILD_READ_BYTES, Some(end), true)?;
            if read.records.is_empty() {
                break;
            }
            for b in RecordBatches::new(read.records) {
                let Ok(b) = b else { break };
                from = b.next_offset();
                state.update(&b, b.last_offset(), -1);
            }
        }
        *self.producers.lock().expect("producers") = state;
        Ok(())
    }

    /// Writes the producer state as `<log end>.snapshot` and keeps the newest two. Called with
    /// the writer lock held (on a roll) or at close. Blocking.
    pub(super) fn snapshot_producers(&self) -> Result<()> {
        let end = self.log_end_offset();
        let bytes = self.producers.lock().expect("producers").to_snapshot();
        let path = self.dir.join(format!("{end:020}{SNAPSHOT_SUFFIX}"));
        let tmp = self.dir.join(format!("{end:020}{SNAPSHOT_SUFFIX}.tmp"));
        fjord_util::atomic_file::write_via(&tmp, &path, &bytes).map_err(io_err(&path))?;
        let files = self.snapshot_files()?;
        let start = self.log_start_offset();
        let excess = files.len().saturating_sub(SNAPSHOTS_KEPT);
        for (i, (offset, path)) in files.iter().enumerate() {
            if i < excess || (*offset < start && *offset != end) {
                std::fs::remove_file(path).map_err(io_err(path))?;
            }
        }
        Ok(())
    }

    /// A copy of the producer state (DescribeProducers, tests).
    pub fn producer_state(&self) -> ProducerState {
        self.producers.lock().expect("producers").clone()
    }

    /// Forgets producers idle longer than `max_age_ms` (`producer.id.expiration.ms`);
    /// returns how many.
    pub fn expire_producers(&self, now_ms: i64, max_age_ms: i64) -> usize {
        self.producers
            .lock()
            .expect("producers")
            .expire(now_ms, max_age_ms)
    }
}
