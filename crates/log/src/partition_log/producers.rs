//! The partition's idempotent-producer state ([`crate::producer_state`]) kept with the log:
//! rebuilt on open (and after a truncation) from the newest `<offset>.snapshot` at or below
//! the log end plus the batches after it, snapshotted when a segment rolls and when the log
//! closes (one snapshot per local segment start is kept, as Kafka keeps a segment's snapshot
//! until the segment goes: tiered storage copies the one at each closed segment's end), and
//! expired by age; with it, the aborted
//! transactions (`.txnindex`), read back from the index files below the snapshot and found
//! again in the batches after it.

use super::PartitionLog;
use crate::error::{io_err, Result};
use crate::producer_state::{ProducerState, SNAPSHOT_SUFFIX};
use crate::txn_index::{AbortedIndex, AbortedTxn};
use fjord_protocol::records::RecordBatches;
use std::path::PathBuf;

/// How much of the log one read returns while rebuilding.
const REBUILD_READ_BYTES: usize = 4 << 20;

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

    /// Rebuilds the producer state: the newest readable snapshot at or below the high
    /// watermark (and not below the log start), then every batch after it. A snapshot does not
    /// hold the ended transactions whose marker is not yet replicated, which hold the last
    /// stable offset back; replaying from at or below the high watermark finds every one of
    /// them (a truncation that cut a commit marker above the high watermark once let the
    /// cleaner and read_committed readers pass that transaction's records). Snapshots above
    /// the log end (a truncation, or recovery cut the log) are removed. Blocking.
    pub(super) fn rebuild_producer_state(&self) -> Result<()> {
        let end = self.log_end_offset();
        // What is on local disk (a tiered log starts below it).
        let start = self.local_log_start_offset();
        let hw = self.high_watermark();
        let mut state = ProducerState::default();
        let mut from = start;
        for (offset, path) in self.snapshot_files()?.into_iter().rev() {
            if offset > end {
                std::fs::remove_file(&path).map_err(io_err(&path))?;
                continue;
            }
            if offset > hw {
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
        // The aborted transactions: those the index files hold whose marker is still in the
        // log (the log is a prefix: a marker that survived has everything before it), and
        // those the scan finds that no file has (a crash may have lost an entry). A file's
        // entry wins: the cleaner may have removed the transaction's first records, and with
        // them what a scan would take for its start.
        let scan_start = from;
        let segments = self.segment_list();
        let mut aborted: std::collections::BTreeMap<i64, AbortedTxn> = Default::default();
        for seg in &segments {
            for e in crate::txn_index::read_file(&seg.txn_index_path())? {
                if e.last_offset >= start && e.last_offset < end {
                    aborted.insert(e.last_offset, e);
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
                if let Some(done) = state.update(&b, b.last_offset(), -1) {
                    if done.aborted {
                        aborted.entry(done.last_offset).or_insert(AbortedTxn {
                            producer_id: done.producer_id,
                            first_offset: done.first_offset,
                            last_offset: done.last_offset,
                            last_stable_offset: done.last_stable_offset,
                        });
                    }
                }
            }
        }
        let index = AbortedIndex::new(aborted.into_values().collect());
        // The files of the segments the scan covered now say what the scan found (a
        // truncation removed entries, a crash may have lost some).
        for (i, seg) in segments.iter().enumerate() {
            let next_base = segments.get(i + 1).map_or(i64::MAX, |s| s.base_offset());
            if next_base <= scan_start {
                continue;
            }
            let path = seg.txn_index_path();
            let wanted = index.between(seg.base_offset(), next_base);
            if crate::txn_index::read_file(&path)? != wanted {
                crate::txn_index::write_file(&path, wanted)?;
            }
        }
        state.on_high_watermark(self.high_watermark());
        self.refresh_unstable(&state);
        *self.aborted.write().expect("aborted") = index;
        *self.producers.lock().expect("producers") = state;
        Ok(())
    }

    /// Writes the producer state as `<log end>.snapshot` (the start of the segment a roll
    /// begins, or the end of a closing log), then drops the snapshots no segment starts at.
    /// Called with the writer lock held (on a roll) or at close. Blocking.
    pub(super) fn snapshot_producers(&self) -> Result<()> {
        let end = self.log_end_offset();
        let bytes = self.producers.lock().expect("producers").to_snapshot();
        let path = self.dir.join(format!("{end:020}{SNAPSHOT_SUFFIX}"));
        let tmp = self.dir.join(format!("{end:020}{SNAPSHOT_SUFFIX}.tmp"));
        fjord_util::atomic_file::write_via(&tmp, &path, &bytes).map_err(io_err(&path))?;
        self.prune_snapshots(Some(end))
    }

    /// Removes the snapshots at which no local segment starts any more (retention, compaction
    /// or a truncation removed it), keeping `also` (the log end's): as Kafka deletes a
    /// segment's snapshot with the segment. So every closed segment keeps the snapshot at its
    /// end (the next segment's start), which tiered storage copies with it, and the files
    /// stay at most one per segment plus one. Called with the writer lock held. Blocking.
    pub(super) fn prune_snapshots(&self, also: Option<i64>) -> Result<()> {
        let bases: std::collections::BTreeSet<i64> = self
            .segments
            .read()
            .expect("segments")
            .keys()
            .copied()
            .collect();
        self.remove_snapshots(|offset| !bases.contains(&offset) && also != Some(offset))
    }

    /// Removes the snapshot files whose offset `doomed` picks. Blocking.
    pub(super) fn remove_snapshots(&self, doomed: impl Fn(i64) -> bool) -> Result<()> {
        for (offset, path) in self.snapshot_files()? {
            if doomed(offset) {
                std::fs::remove_file(&path).map_err(io_err(&path))?;
            }
        }
        Ok(())
    }

    /// Takes `bytes` (a producer snapshot from elsewhere: tiered storage) as the producer state
    /// at `offset`, the log end of a log that holds nothing yet: written as its snapshot file,
    /// then loaded as a restart would. Refused when they do not decode.
    pub(super) fn adopt_producer_snapshot(&self, offset: i64, bytes: &[u8]) -> Result<()> {
        ProducerState::from_snapshot(bytes).map_err(|e| {
            crate::error::LogError::CorruptRecord(format!(
                "a producer snapshot from the store: {e}"
            ))
        })?;
        let path = self.dir.join(format!("{offset:020}{SNAPSHOT_SUFFIX}"));
        let tmp = self.dir.join(format!("{offset:020}{SNAPSHOT_SUFFIX}.tmp"));
        fjord_util::atomic_file::write_via(&tmp, &path, bytes).map_err(io_err(&path))?;
        self.rebuild_producer_state()
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
