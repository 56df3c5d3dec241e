//! Compaction (`cleanup.policy=compact`): keep the latest record of each key in the segments
//! below the active one. Tombstones stay until their batch's delete horizon (KIP-534: set to
//! now + `delete.retention.ms` the first time a batch with tombstones is cleaned) has passed.
//! Control batches stay, and so does the last batch of each producer (emptied if need be) so
//! that producer state survives. As Kafka's cleaner: compaction stops at the last stable offset
//! (an open transaction's records, and everything after them, wait until it ends), and the
//! records of aborted transactions (by the aborted-transaction index) are removed and never
//! count as a key's latest value, so an aborted write cannot shadow a committed one. Markers
//! are kept (Kafka drops them after `delete.retention.ms`; keeping them costs a batch each). Offsets, batch boundaries and each batch's producer fields,
//! epoch and codec are kept.
//!
//! Each segment is rewritten to `<base>.log.cleaned`, fsynced, renamed `<base>.log.swap`
//! (the point of no return), then swapped in under the writer lock; the old files become
//! `.deleted`. A crash before the rename leaves the old segment (the `.cleaned` file is
//! removed on open); after it, opening completes the swap. Nothing is lost either way.

use super::PartitionLog;
use crate::checkpoint::sync_dir;
use crate::error::{io_err, LogError, Result};
use crate::segment::{file_name, Segment, LOG_SUFFIX};
use bytes::Bytes;
use fjord_protocol::records::{RecordBatch, RecordBatchBuilder, RecordBatches, TimestampType};
use std::collections::HashMap;
use std::sync::atomic::Ordering;
use std::sync::Arc;

/// The suffix of a segment being written by the cleaner.
pub const CLEANED_SUFFIX: &str = ".cleaned";
/// The suffix of a cleaned segment that must replace the original.
pub const SWAP_SUFFIX: &str = ".swap";

/// What one cleaning pass did.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct CleanStats {
    /// Segments rewritten.
    pub segments: usize,
    /// Their bytes before.
    pub bytes_before: u64,
    /// Their bytes after.
    pub bytes_after: u64,
    /// Records removed (older values and expired tombstones).
    pub records_removed: u64,
    /// The offset up to which the log is now clean.
    pub clean_up_to: i64,
}

fn corrupt(e: impl std::fmt::Display) -> LogError {
    LogError::CorruptRecord(e.to_string())
}

impl PartitionLog {
    /// The offset below which the log has been compacted.
    pub fn first_dirty_offset(&self) -> i64 {
        self.first_dirty_offset
            .load(Ordering::Acquire)
            .max(self.log_start_offset())
    }

    /// The segments compaction may touch now and the offset where they end: below the active
    /// segment, wholly below the high watermark and the last stable offset, and older than
    /// `min.compaction.lag.ms`.
    fn cleanable(&self, now_ms: i64) -> (Vec<Arc<Segment>>, i64) {
        let config = self.config();
        let hw = self.high_watermark().min(self.last_stable_offset());
        let segs = self.segment_list();
        let mut out = Vec::new();
        for (i, seg) in segs.iter().enumerate() {
            let Some(next) = segs.get(i + 1) else { break };
            let too_new = config.min_compaction_lag_ms > 0
                && seg.max_timestamp() > now_ms - config.min_compaction_lag_ms;
            if next.base_offset() > hw || too_new {
                break;
            }
            out.push(seg.clone());
        }
        let end = segs
            .get(out.len())
            .map_or(self.log_end_offset(), |s| s.base_offset());
        (out, end)
    }

    /// The share of the cleanable bytes written since the last compaction.
    pub fn dirty_ratio(&self, now_ms: i64) -> f64 {
        let (segs, _) = self.cleanable(now_ms);
        let first_dirty = self.first_dirty_offset();
        let (mut dirty, mut total) = (0u64, 0u64);
        for (i, s) in segs.iter().enumerate() {
            let next = segs.get(i + 1).map_or(i64::MAX, |n| n.base_offset());
            total += s.size();
            if next > first_dirty {
                dirty += s.size();
            }
        }
        if total == 0 {
            0.0
        } else {
            dirty as f64 / total as f64
        }
    }

    /// Compacts the cleanable segments if the log is compacted and its dirty ratio has reached
    /// `min.cleanable.dirty.ratio` (or `force`). `None` when there was nothing to do.
    pub fn clean(&self, now_ms: i64, force: bool) -> Result<Option<CleanStats>> {
        let config = self.config();
        if !config.cleanup_policy.compact {
            return Ok(None);
        }
        let (segs, end) = self.cleanable(now_ms);
        if segs.is_empty()
            || (!force && self.dirty_ratio(now_ms) < config.min_cleanable_dirty_ratio)
        {
            return Ok(None);
        }
        // Pass 1: the latest offset of every key, and each producer's last batch. Keys are
        // copied so that the map does not keep whole segments in memory; segments are read one
        // at a time, here and again in pass 2.
        let mut latest: HashMap<Bytes, i64> = HashMap::new();
        let mut producer_last: HashMap<i64, i64> = HashMap::new();
        let first = segs.first().map_or(end, |s| s.base_offset());
        // Every transaction with an abort marker, replicated or not: an abort is decided
        // before its first marker is written, so even if a marker above the high watermark
        // is truncated, the coordinator writes the abort again.
        let aborted = Aborted::new(self.aborted_transactions(first, end));
        for seg in &segs {
            for batch in RecordBatches::new(seg.read_all()?) {
                let batch = batch.map_err(corrupt)?;
                // A producer's last data batch (Kafka's `lastDataOffset`): markers stay
                // anyway, and the last sequence lives only in a data batch.
                if batch.producer_id() >= 0 && !batch.is_control() {
                    producer_last.insert(batch.producer_id(), batch.base_offset());
                }
                if batch.is_control() || aborted.holds(&batch) {
                    continue;
                }
                for r in batch.records().map_err(corrupt)? {
                    let r = r.map_err(corrupt)?;
                    if let Some(k) = r.key {
                        let offset = batch.base_offset() + i64::from(r.offset_delta);
                        match latest.get_mut(&k) {
                            Some(o) => *o = offset,
                            None => {
                                latest.insert(Bytes::copy_from_slice(&k), offset);
                            }
                        }
                    }
                }
            }
        }
        // Pass 2: rewrite each segment and swap it in.
        let mut stats = CleanStats {
            clean_up_to: end,
            ..CleanStats::default()
        };
        for seg in &segs {
            let data = seg.read_all()?;
            let mut out = Vec::with_capacity(data.len());
            for batch in RecordBatches::new(data.clone()) {
                let batch = batch.map_err(corrupt)?;
                let keep_empty = batch.producer_id() >= 0
                    && producer_last.get(&batch.producer_id()) == Some(&batch.base_offset());
                let (bytes, removed) = filter_batch(
                    &batch,
                    &latest,
                    aborted.holds(&batch),
                    keep_empty,
                    now_ms,
                    config.delete_retention_ms,
                )?;
                stats.records_removed += removed;
                out.extend_from_slice(&bytes);
            }
            stats.bytes_before += data.len() as u64;
            stats.bytes_after += out.len() as u64;
            self.swap_in(seg, &out, now_ms)?;
            stats.segments += 1;
        }
        self.first_dirty_offset.fetch_max(end, Ordering::AcqRel);
        Ok(Some(stats))
    }

    /// Writes `data` as the cleaned version of `old` and replaces it (or drops `old` when
    /// nothing is left of it).
    fn swap_in(&self, old: &Arc<Segment>, data: &[u8], now_ms: i64) -> Result<()> {
        let config = self.config();
        let base = old.base_offset();
        let log_name = self.dir.join(file_name(base, LOG_SUFFIX));
        let with = |suffix: &str| {
            let mut s = log_name.as_os_str().to_owned();
            s.push(suffix);
            std::path::PathBuf::from(s)
        };
        let (cleaned, swap) = (with(CLEANED_SUFFIX), with(SWAP_SUFFIX));
        {
            use std::io::Write;
            let mut f = std::fs::File::create(&cleaned).map_err(io_err(&cleaned))?;
            f.write_all(data).map_err(io_err(&cleaned))?;
            f.sync_all().map_err(io_err(&cleaned))?;
        }
        let mut w = self.lock_writer()?;
        let still_there = self
            .segments
            .read()
            .expect("segments")
            .get(&base)
            .is_some_and(|s| Arc::ptr_eq(s, old));
        if !still_there {
            // Truncated or deleted meanwhile: the cleaned copy is stale.
            std::fs::remove_file(&cleaned).map_err(io_err(&cleaned))?;
            return Ok(());
        }
        // The segment's aborted transactions stay indexed: the cleaner removes their records
        // but keeps their markers, and a rebuild cannot derive them from a marker alone.
        let aborted = crate::txn_index::read_file(&old.txn_index_path())?;
        std::fs::rename(&cleaned, &swap).map_err(io_err(&swap))?;
        sync_dir(&self.dir)?;
        old.mark_deleted()?;
        w.pending_deletes.push((
            old.clone(),
            now_ms.saturating_add(config.file_delete_delay_ms),
        ));
        // The first segment stays, empty if need be, as Kafka's cleaner keeps it: a reopened
        // log takes its start from the first segment, and compaction never moves the start.
        let first = self
            .segments
            .read()
            .expect("segments")
            .keys()
            .next()
            .is_some_and(|b| *b == base);
        if data.is_empty() && !first {
            self.segments.write().expect("segments").remove(&base);
            std::fs::remove_file(&swap).map_err(io_err(&swap))?;
            self.prune_snapshots(None)?;
        } else {
            std::fs::rename(&swap, &log_name).map_err(io_err(&log_name))?;
            let (seg, _) = Segment::open(
                &self.dir,
                base,
                config.segment_index_bytes,
                config.index_interval_bytes,
            )?;
            seg.recover()?;
            seg.flush()?;
            if !aborted.is_empty() {
                crate::txn_index::write_file(&seg.txn_index_path(), &aborted)?;
            }
            self.segments
                .write()
                .expect("segments")
                .insert(base, Arc::new(seg));
        }
        sync_dir(&self.dir)
    }
}

/// The aborted transactions of the range being cleaned, by producer: (first, last offset).
struct Aborted(HashMap<i64, Vec<(i64, i64)>>);

impl Aborted {
    fn new(list: Vec<crate::txn_index::AbortedTxn>) -> Aborted {
        let mut by_producer: HashMap<i64, Vec<(i64, i64)>> = HashMap::new();
        for a in list {
            by_producer
                .entry(a.producer_id)
                .or_default()
                .push((a.first_offset, a.last_offset));
        }
        Aborted(by_producer)
    }

    /// Whether `batch` holds records of an aborted transaction.
    fn holds(&self, batch: &RecordBatch) -> bool {
        batch.is_transactional()
            && !batch.is_control()
            && self.0.get(&batch.producer_id()).is_some_and(|ranges| {
                ranges.iter().any(|(first, last)| {
                    *first <= batch.base_offset() && batch.base_offset() <= *last
                })
            })
    }
}

/// The batch with the records compaction keeps: returns its new bytes (the original bytes when
/// nothing changes; nothing when nothing is kept) and how many records went. Every record of
/// a batch of an aborted transaction goes.
fn filter_batch(
    batch: &RecordBatch,
    latest: &HashMap<Bytes, i64>,
    aborted: bool,
    keep_empty: bool,
    now_ms: i64,
    delete_retention_ms: i64,
) -> Result<(Bytes, u64)> {
    if batch.is_control() {
        return Ok((batch.as_bytes().clone(), 0));
    }
    let horizon = batch.has_delete_horizon().then(|| batch.base_timestamp());
    let records: Vec<_> = batch
        .records()
        .map_err(corrupt)?
        .collect::<std::result::Result<_, _>>()
        .map_err(corrupt)?;
    let mut kept = Vec::with_capacity(records.len());
    let mut tombstones = false;
    for r in &records {
        let offset = batch.base_offset() + i64::from(r.offset_delta);
        let newest = r
            .key
            .as_ref()
            .is_none_or(|k| latest.get(k).is_none_or(|&o| o <= offset));
        let expired_tombstone = r.value.is_none() && horizon.is_some_and(|h| now_ms >= h);
        if newest && !expired_tombstone && !aborted {
            tombstones |= r.value.is_none();
            kept.push(r);
        }
    }
    let removed = (records.len() - kept.len()) as u64;
    let needs_horizon = tombstones && horizon.is_none();
    if removed == 0 && !needs_horizon {
        return Ok((batch.as_bytes().clone(), 0));
    }
    if kept.is_empty() && !keep_empty {
        return Ok((Bytes::new(), removed));
    }
    let mut b = RecordBatchBuilder::new(batch.compression().map_err(corrupt)?)
        .base_offset(batch.base_offset())
        .partition_leader_epoch(batch.partition_leader_epoch())
        .producer(
            batch.producer_id(),
            batch.producer_epoch(),
            batch.base_sequence(),
        )
        .transactional(batch.is_transactional())
        .last_offset_delta(batch.last_offset_delta());
    if batch.timestamp_type() == TimestampType::LogAppendTime {
        b = b
            .timestamp_type(TimestampType::LogAppendTime)
            .max_timestamp(batch.max_timestamp());
    }
    let tombstone_horizon = horizon.unwrap_or(now_ms.saturating_add(delete_retention_ms));
    if tombstones {
        b = b.delete_horizon(tombstone_horizon);
    }
    for r in kept {
        let headers: Vec<(&str, Option<&[u8]>)> = r
            .headers
            .iter()
            .map(|h| (h.key.as_str(), h.value.as_deref()))
            .collect();
        let ts = batch.base_timestamp() + r.timestamp_delta;
        b.append_at(
            r.offset_delta,
            ts,
            r.key.as_deref(),
            r.value.as_deref(),
            &headers,
        );
    }
    let built = b
        .build()
        .map_err(|e| LogError::CorruptRecord(e.to_string()))?;
    Ok((built, removed))
}
