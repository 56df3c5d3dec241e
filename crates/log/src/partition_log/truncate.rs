//! Truncation, for followers after a leader change: cut the log back to an offset, or empty
//! it and restart at an offset, keeping indexes, epochs and the recovery point consistent.
//! The log start offset never moves back: a cut that would reach below it empties the log.
//! An emptied log keeps the epoch of the last record it held (docs/EXTENSIONS.md), except when
//! the cut reaches below its start: what it held there disagrees with its leader.

use super::{PartitionLog, WriterState};
use crate::error::Result;
use crate::segment::Segment;
use std::sync::atomic::Ordering;
use std::sync::Arc;

impl PartitionLog {
    /// Removes every batch at or after the one holding `offset`; returns the new log end
    /// offset (a batch boundary at or below `offset`). When `offset` is at or past the log
    /// end no record goes, but epochs starting at the log end still do (as Kafka's
    /// `truncateTo` does): a leader that recorded its epoch's start and was replaced before
    /// it appended anything holds an epoch no other replica has, and a follower that kept it
    /// would name it as its last fetched epoch forever. When the removed batch starts at or
    /// below the log start offset, the log is emptied and restarts at the log start offset;
    /// when it starts below the first local segment (a tiered log), the log is emptied and
    /// restarts at it, as Kafka's `truncateTo` does.
    pub fn truncate_to(&self, offset: i64) -> Result<i64> {
        let mut w = self.lock_writer()?;
        let log_end = self.log_end_offset();
        if offset >= log_end {
            self.epochs
                .lock()
                .expect("epochs")
                .truncate_from_end(log_end, self.log_start_offset())?;
            return Ok(log_end);
        }
        let log_start = self.log_start_offset();
        let cut_at = self
            .locate(offset)?
            .map_or(offset, |(_, b)| b.base_offset.min(offset));
        if cut_at <= log_start {
            // A cut at or above the log start keeps what lies below it (a batch holding the
            // log start goes whole); one below it finds the history there diverging.
            let epochs = if offset >= log_start {
                EpochsAfter::CutTo
            } else {
                EpochsAfter::Cleared
            };
            self.truncate_fully_locked(&mut w, log_start, epochs)?;
            return Ok(log_start);
        }
        if cut_at < self.first_base() {
            // Below what this disk holds (a tiered log's store has it): the log starts over
            // at the cut, as Kafka's truncateTo does.
            self.truncate_fully_locked(&mut w, cut_at, EpochsAfter::CutTo)?;
            return Ok(cut_at);
        }
        let doomed: Vec<Arc<Segment>> = {
            let mut segs = self.segments.write().expect("segments");
            let first = *segs.keys().next().expect("a log has a segment");
            // Every segment from the cut on goes but the first one, which is cut instead (a
            // log keeps one segment).
            let later: Vec<i64> = segs
                .range(cut_at.max(first + 1)..)
                .map(|(b, _)| *b)
                .collect();
            later.iter().filter_map(|b| segs.remove(b)).collect()
        };
        for seg in &doomed {
            seg.mark_deleted()?;
            w.pending_deletes.push((seg.clone(), 0));
        }
        let active = self.active_segment();
        active.truncate_to(cut_at)?;
        let new_end = active.read_next_offset()?;
        self.log_end_offset.store(new_end, Ordering::Release);
        self.recovery_point.fetch_min(new_end, Ordering::AcqRel);
        self.high_watermark.fetch_min(new_end, Ordering::AcqRel);
        self.first_dirty_offset.fetch_min(new_end, Ordering::AcqRel);
        self.epochs
            .lock()
            .expect("epochs")
            .truncate_from_end(new_end, self.log_start_offset())?;
        self.unlink_due(&mut w, i64::MAX)?;
        self.rebuild_producer_state()?;
        Ok(new_end)
    }

    /// Removes every segment and starts an empty log at `offset` (a follower that must skip to
    /// the leader's log start, or start over at the batch holding it). The log keeps the
    /// newest epoch at or below `offset`: the epoch of the last record it held.
    pub fn truncate_fully_and_start_at(&self, offset: i64) -> Result<()> {
        let mut w = self.lock_writer()?;
        self.truncate_fully_locked(&mut w, offset, EpochsAfter::RestartAt)
    }

    /// Tiered storage: a follower whose leader answered OFFSET_MOVED_TO_TIERED_STORAGE starts
    /// over at `local_start` (what it fetches next), with the log starting at `log_start`
    /// below it (the records between are in the store) and the leader epochs `epochs` of the
    /// history below (from the store's metadata), as Kafka's follower builds its state from
    /// the remote log, and with the producer state `producer_snapshot` (the store's snapshot
    /// of the segment that ends below `local_start`, in the snapshot file format) when given,
    /// so that idempotent and transactional producers carry on. Refused on a log that does not
    /// tier, or with a snapshot that does not decode.
    pub fn start_tiered_at(
        &self,
        local_start: i64,
        log_start: i64,
        epochs: &[(i32, i64)],
        producer_snapshot: Option<&[u8]>,
    ) -> Result<()> {
        if !self.config().remote_storage {
            return Err(crate::error::LogError::InvalidRequest(
                "starting over below the local log start needs tiered storage".into(),
            ));
        }
        let mut w = self.lock_writer()?;
        self.truncate_fully_locked(&mut w, local_start, EpochsAfter::Cleared)?;
        let start = log_start.clamp(0, local_start);
        self.log_start_offset.store(start, Ordering::Release);
        let mut cache = self.epochs.lock().expect("epochs");
        for &(epoch, offset) in epochs {
            if offset <= local_start && cache.latest_epoch().is_none_or(|e| epoch > e) {
                cache.assign(epoch, offset.max(start))?;
            }
        }
        drop(cache);
        if let Some(bytes) = producer_snapshot {
            self.adopt_producer_snapshot(local_start, bytes)?;
        }
        Ok(())
    }

    fn truncate_fully_locked(
        &self,
        w: &mut WriterState,
        offset: i64,
        epochs: EpochsAfter,
    ) -> Result<()> {
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
        self.first_dirty_offset.store(offset, Ordering::Release);
        let mut cache = self.epochs.lock().expect("epochs");
        match epochs {
            EpochsAfter::CutTo => cache.truncate_from_end(offset, offset)?,
            EpochsAfter::RestartAt => cache.restart_at(offset)?,
            EpochsAfter::Cleared => cache.clear()?,
        }
        drop(cache);
        self.unlink_due(w, i64::MAX)?;
        // Nothing of the old history's producer state stays (as Kafka's truncateFullyAndStartAt
        // forgets its snapshots): one left at `offset` would be taken for the new log's.
        self.remove_snapshots(|_| true)?;
        self.rebuild_producer_state()
    }
}

/// What a full truncation leaves of the epoch cache.
enum EpochsAfter {
    /// The log was cut back to its start: the epoch of the record below it stays.
    CutTo,
    /// The log starts over at an offset: the newest epoch at or below it stays, moved there.
    RestartAt,
    /// What the log held diverges below its start: no epoch stays.
    Cleared,
}
