//! Retention: deleting whole segments by age (`retention.ms`), by size (`retention.bytes`) and
//! below the log start offset (`DeleteRecords`). Only segments wholly below the high watermark
//! go. A deleted segment is renamed `.deleted` at once (readers that hold it keep working) and
//! unlinked after `file.delete.delay.ms`.

use super::{PartitionLog, WriterState};
use crate::error::{LogError, Result};
use crate::segment::Segment;
use std::sync::atomic::Ordering;
use std::sync::Arc;

impl PartitionLog {
    /// DeleteRecords: moves the log start offset up to `offset` (at most the high watermark).
    /// Returns the new log start offset; whole segments below it go with the next retention.
    pub fn delete_records(&self, offset: i64) -> Result<i64> {
        let _w = self.lock_writer()?;
        let hw = self.high_watermark();
        if offset > hw || offset < 0 {
            return Err(LogError::OffsetOutOfRange {
                offset,
                log_start: self.log_start_offset(),
                log_end: hw,
            });
        }
        let new_start = self
            .log_start_offset
            .fetch_max(offset, Ordering::AcqRel)
            .max(offset);
        self.epochs
            .lock()
            .expect("epochs")
            .truncate_from_start(new_start)?;
        Ok(new_start)
    }

    /// Applies retention at time `now_ms`: returns how many segments were deleted.
    pub fn apply_retention(&self, now_ms: i64) -> Result<usize> {
        let mut w = self.lock_writer()?;
        let config = self.config();
        let hw = self.high_watermark();
        let log_start = self.log_start_offset();
        let segs = self.segment_list();
        let doomed = if config.remote_storage {
            self.doomed_tiered(&config, &segs, hw, log_start, now_ms)
        } else {
            self.doomed_local(&config, &segs, hw, log_start, now_ms)
        };
        if doomed.is_empty() {
            self.unlink_due(&mut w, now_ms)?;
            return Ok(0);
        }
        if doomed.len() == segs.len() {
            // Everything goes: start a fresh active segment at the log end first.
            self.roll_at(&config, self.log_end_offset())?;
        }
        self.remove_segments(&mut w, &doomed, now_ms + config.file_delete_delay_ms)?;
        self.prune_snapshots(None)?;
        let first_base = *self
            .segments
            .read()
            .expect("segments")
            .keys()
            .next()
            .expect("active segment");
        // With tiered storage the log start stays where it is: what local retention deleted
        // is in the store (only total retention, through the remote log manager, moves it).
        let new_start = if config.remote_storage {
            self.log_start_offset()
        } else {
            self.log_start_offset
                .fetch_max(first_base, Ordering::AcqRel)
                .max(first_base)
        };
        self.high_watermark.fetch_max(new_start, Ordering::AcqRel);
        self.recovery_point.fetch_max(new_start, Ordering::AcqRel);
        self.aborted
            .write()
            .expect("aborted")
            .retain_from(new_start);
        self.epochs
            .lock()
            .expect("epochs")
            .truncate_from_start(new_start)?;
        self.unlink_due(&mut w, now_ms)?;
        Ok(doomed.len())
    }

    /// The segments plain retention deletes: from the oldest, while each is wholly below the
    /// high watermark and below the log start, older than `retention.ms` or beyond
    /// `retention.bytes`.
    fn doomed_local(
        &self,
        config: &crate::config::LogConfig,
        segs: &[Arc<Segment>],
        hw: i64,
        log_start: i64,
        now_ms: i64,
    ) -> Vec<Arc<Segment>> {
        let total: u64 = segs.iter().map(|s| s.size()).sum();
        let mut remaining = total;
        let mut doomed = Vec::new();
        for (i, seg) in segs.iter().enumerate() {
            let next_base = segs
                .get(i + 1)
                .map_or(self.log_end_offset(), |s| s.base_offset());
            if next_base > hw || seg.size() == 0 {
                break;
            }
            let below_start = next_base <= log_start;
            let (ms, bytes) = (config.retention_ms, config.retention_bytes);
            let breached =
                config.cleanup_policy.delete && breaches(seg, remaining, (ms, bytes), now_ms);
            if !(below_start || breached) {
                break;
            }
            remaining -= seg.size();
            doomed.push(seg.clone());
        }
        doomed
    }

    /// The segments local retention deletes on a tiered log: from the oldest closed one,
    /// while each is below the log start, or is wholly in the store (at most
    /// [`PartitionLog::remote_covered`]) and below the high watermark and breaches
    /// `local.retention.*`. The active segment stays.
    fn doomed_tiered(
        &self,
        config: &crate::config::LogConfig,
        segs: &[Arc<Segment>],
        hw: i64,
        log_start: i64,
        now_ms: i64,
    ) -> Vec<Arc<Segment>> {
        let (ms, bytes) = config.local_retention();
        let covered = self.remote_covered();
        let mut remaining: u64 = segs.iter().map(|s| s.size()).sum();
        let mut doomed = Vec::new();
        for (i, seg) in segs.iter().enumerate() {
            let Some(next) = segs.get(i + 1) else {
                break;
            };
            let next_base = next.base_offset();
            let below_start = next_base <= log_start;
            let in_store = next_base - 1 <= covered && next_base <= hw;
            if !(below_start || (in_store && breaches(seg, remaining, (ms, bytes), now_ms))) {
                break;
            }
            remaining -= seg.size();
            doomed.push(seg.clone());
        }
        doomed
    }

    fn remove_segments(
        &self,
        w: &mut WriterState,
        doomed: &[Arc<Segment>],
        unlink_after: i64,
    ) -> Result<()> {
        {
            let mut segs = self.segments.write().expect("segments");
            for s in doomed {
                segs.remove(&s.base_offset());
            }
        }
        for s in doomed {
            s.mark_deleted()?;
            w.pending_deletes.push((s.clone(), unlink_after));
        }
        Ok(())
    }

    /// Unlinks deleted segments whose delay has passed by `now_ms`.
    pub(super) fn unlink_due(&self, w: &mut WriterState, now_ms: i64) -> Result<()> {
        let (due, keep): (Vec<_>, Vec<_>) =
            w.pending_deletes.drain(..).partition(|(_, t)| *t <= now_ms);
        w.pending_deletes = keep;
        for (seg, _) in due {
            seg.delete_files()?;
        }
        Ok(())
    }

    /// Unlinks deleted segments whose `file.delete.delay.ms` has passed by `now_ms`.
    pub fn delete_expired_files(&self, now_ms: i64) -> Result<()> {
        let mut w = self.lock_writer()?;
        self.unlink_due(&mut w, now_ms)
    }
}

/// True when `seg`, the oldest of `remaining` bytes, is past `retention` (`(ms, bytes)`, -1:
/// none) at `now_ms`: its newest record is older than the time, or the bytes after it still
/// reach the size.
fn breaches(seg: &Segment, remaining: u64, (ms, bytes): (i64, i64), now_ms: i64) -> bool {
    let expired = ms >= 0 && {
        let ts = seg.max_timestamp();
        ts >= 0 && now_ms - ts > ms
    };
    let over_size = bytes >= 0 && remaining - seg.size() >= bytes as u64;
    expired || over_size
}
