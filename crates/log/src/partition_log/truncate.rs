//! Truncation, for followers after a leader change: cut the log back to an offset, or empty
//! it and restart at an offset, keeping indexes, epochs and the recovery point consistent.

use super::PartitionLog;
use crate::error::Result;
use crate::segment::Segment;
use std::sync::atomic::Ordering;
use std::sync::Arc;

impl PartitionLog {
    /// Removes every batch at or after the one holding `offset`; returns the new log end
    /// offset (a batch boundary at or below `offset`; the log start offset follows it down if
    /// it was above). Nothing happens when `offset` is at or past the log end.
    pub fn truncate_to(&self, offset: i64) -> Result<i64> {
        let mut w = self.writer.lock().expect("writer");
        if offset >= self.log_end_offset() {
            return Ok(self.log_end_offset());
        }
        if offset <= self.log_start_offset() {
            drop(w);
            self.truncate_fully_and_start_at(offset.max(self.log_start_offset()))?;
            return Ok(self.log_end_offset());
        }
        let doomed: Vec<Arc<Segment>> = {
            let mut segs = self.segments.write().expect("segments");
            let later: Vec<i64> = segs.range(offset + 1..).map(|(b, _)| *b).collect();
            let mut out: Vec<Arc<Segment>> = later.iter().filter_map(|b| segs.remove(b)).collect();
            // A segment that starts exactly at `offset` goes too, unless it is the only one.
            if segs.len() > 1 {
                if let Some(s) = segs.remove(&offset) {
                    out.push(s);
                }
            }
            out
        };
        for seg in &doomed {
            seg.mark_deleted()?;
            w.pending_deletes.push((seg.clone(), 0));
        }
        let active = self.active_segment();
        active.truncate_to(offset)?;
        let new_end = active.read_next_offset()?;
        self.log_end_offset.store(new_end, Ordering::Release);
        // The cut batch may have started below a log start offset that DeleteRecords placed
        // inside it: the log is then empty, and starts where it now ends.
        self.log_start_offset.fetch_min(new_end, Ordering::AcqRel);
        self.recovery_point.fetch_min(new_end, Ordering::AcqRel);
        self.high_watermark.fetch_min(new_end, Ordering::AcqRel);
        self.epochs
            .lock()
            .expect("epochs")
            .truncate_from_end(new_end)?;
        self.unlink_due(&mut w, i64::MAX)?;
        Ok(new_end)
    }

    /// Removes every segment and starts an empty log at `offset` (a follower whose log
    /// diverged entirely, or one that must skip to the leader's log start).
    pub fn truncate_fully_and_start_at(&self, offset: i64) -> Result<()> {
        let mut w = self.writer.lock().expect("writer");
        let config = self.config();
        let old: Vec<Arc<Segment>> = std::mem::take(&mut *self.segments.write().expect("segments"))
            .into_values()
            .collect();
        for seg in &old {
            seg.mark_deleted()?;
            w.pending_deletes.push((seg.clone(), 0));
        }
        let seg = Segment::create(
            &self.dir,
            offset,
            config.segment_index_bytes,
            config.index_interval_bytes,
        )?;
        self.segments
            .write()
            .expect("segments")
            .insert(offset, Arc::new(seg));
        self.log_start_offset.store(offset, Ordering::Release);
        self.log_end_offset.store(offset, Ordering::Release);
        self.recovery_point.store(offset, Ordering::Release);
        self.high_watermark.store(offset, Ordering::Release);
        self.epochs.lock().expect("epochs").clear()?;
        self.unlink_due(&mut w, i64::MAX)?;
        Ok(())
    }
}
