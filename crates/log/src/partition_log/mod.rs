//! The log of one partition: an ordered set of segments, the offsets that bound it (log start,
//! log end, recovery point, high watermark), and its leader epoch cache.
//!
//! Concurrency: one writer at a time (appends, truncation, rolls, retention hold `writer`);
//! readers take only short locks to find segments and read with positional reads up to each
//! segment's published size, so they never see a partly written batch and never wait for a
//! write to finish.

mod append;
mod clean;
pub mod load;
mod producers;
mod read;
mod relocate;
mod retention;
mod tiered;
mod truncate;

pub use append::{AppendInfo, Origin, VerificationGuard};
pub use clean::{CleanStats, CLEANED_SUFFIX, SWAP_SUFFIX};
pub use load::LoadReport;
pub use read::{OffsetLookup, ReadInfo};
pub use relocate::{Relocation, RelocationCopy, FUTURE_DIR_SUFFIX};
pub use tiered::SegmentInfo;

use crate::config::LogConfig;
use crate::epoch::LeaderEpochCache;
use crate::error::Result;
use crate::segment::Segment;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicI64, Ordering};
use std::sync::{Arc, Mutex, RwLock};

/// State only the writer touches.
#[derive(Debug)]
struct WriterState {
    /// Records appended since the last flush (for `flush.messages`).
    unflushed_messages: i64,
    /// When the log was last flushed (for `flush.ms`).
    last_flush_ms: i64,
    /// Segments renamed `.deleted`, with the time after which their files may be unlinked.
    pending_deletes: Vec<(Arc<Segment>, i64)>,
}

/// The log of one partition.
#[derive(Debug)]
pub struct PartitionLog {
    dir: PathBuf,
    config: RwLock<LogConfig>,
    segments: RwLock<BTreeMap<i64, Arc<Segment>>>,
    writer: Mutex<WriterState>,
    log_start_offset: AtomicI64,
    log_end_offset: AtomicI64,
    recovery_point: AtomicI64,
    high_watermark: AtomicI64,
    /// Compaction has cleaned the log below this offset.
    first_dirty_offset: AtomicI64,
    epochs: Mutex<LeaderEpochCache>,
    /// Idempotent producers' state (taken with the writer lock held, after it).
    producers: Mutex<crate::producer_state::ProducerState>,
    /// The aborted transactions (read by read_committed fetches; written with the writer
    /// lock held).
    aborted: RwLock<crate::txn_index::AbortedIndex>,
    /// The producers' first unstable offset (`i64::MAX`: none), for the last stable offset.
    first_unstable: AtomicI64,
    /// An aborted-transaction entry was written since the last flush.
    txn_index_dirty: std::sync::atomic::AtomicBool,
    /// Per producer id, how many transaction markers this log has taken (in memory): the
    /// guard of a verified transactional append (KIP-890), which a marker written between
    /// the coordinator's check and the append invalidates.
    markers_seen: std::sync::Mutex<std::collections::HashMap<i64, u64>>,
    /// Set once the log moved to another dir: writes are refused from then on.
    moved: std::sync::atomic::AtomicBool,
    /// Tiered storage: the last offset from the first local segment on that the store holds
    /// without a gap, in this log's history (-1: none known). Local retention deletes no
    /// further.
    remote_covered: AtomicI64,
}

impl PartitionLog {
    /// The writer lock, unless the log moved away (then [`LogError::Moved`]).
    fn lock_writer(&self) -> Result<std::sync::MutexGuard<'_, WriterState>> {
        let w = self.writer.lock().expect("writer");
        if self.moved.load(Ordering::Acquire) {
            return Err(crate::error::LogError::Moved(
                self.dir.display().to_string(),
            ));
        }
        Ok(w)
    }

    /// The first offset on local disk: the first segment's base (at least the log start).
    /// Below it, down to the log start, the records are in tiered storage.
    pub fn local_log_start_offset(&self) -> i64 {
        self.first_base().max(self.log_start_offset())
    }

    /// The first local segment's base offset.
    fn first_base(&self) -> i64 {
        self.segments
            .read()
            .expect("segments")
            .keys()
            .next()
            .copied()
            .unwrap_or(0)
    }

    /// Tiered storage: how far the store holds this log from its first local segment on (see
    /// [`PartitionLog::remote_covered`]); the remote log manager keeps it current.
    pub fn set_remote_covered(&self, last_offset: i64) {
        self.remote_covered.store(last_offset, Ordering::Release);
    }

    /// The last offset the store holds without a gap from the first local segment on (-1:
    /// none known).
    pub fn remote_covered(&self) -> i64 {
        self.remote_covered.load(Ordering::Acquire)
    }

    /// The partition's directory.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// The current configuration.
    pub fn config(&self) -> LogConfig {
        self.config.read().expect("config").clone()
    }

    /// Whether an append may fsync (`flush.messages` or `flush.ms` set): then it must not run
    /// on an async worker.
    pub fn may_fsync_on_append(&self) -> bool {
        let c = self.config.read().expect("config");
        c.flush_messages != i64::MAX || c.flush_ms != i64::MAX
    }

    /// Replaces the configuration (dynamic topic config changes).
    pub fn set_config(&self, config: LogConfig) {
        if !config.remote_storage {
            // A log that does not tier starts at its first local segment.
            self.log_start_offset
                .fetch_max(self.first_base(), Ordering::AcqRel);
        }
        *self.config.write().expect("config") = config;
    }

    /// The first offset that may be read.
    pub fn log_start_offset(&self) -> i64 {
        self.log_start_offset.load(Ordering::Acquire)
    }

    /// The offset the next appended record gets.
    pub fn log_end_offset(&self) -> i64 {
        self.log_end_offset.load(Ordering::Acquire)
    }

    /// Everything below this offset is known to be on disk.
    pub fn recovery_point(&self) -> i64 {
        self.recovery_point.load(Ordering::Acquire)
    }

    /// The high watermark (set by replication; bounded by the log end offset).
    pub fn high_watermark(&self) -> i64 {
        self.high_watermark.load(Ordering::Acquire)
    }

    /// Sets the high watermark, clamped to `[log start, log end]`.
    pub fn set_high_watermark(&self, hw: i64) {
        let hw = hw.clamp(self.log_start_offset(), self.log_end_offset());
        self.high_watermark.store(hw, Ordering::Release);
        // Only while a transaction holds the stable offset below it is there work to do.
        if self.first_unstable.load(Ordering::Acquire) < hw {
            let mut producers = self.producers.lock().expect("producers");
            producers.on_high_watermark(hw);
            self.refresh_unstable(&producers);
        }
    }

    /// The last stable offset: the high watermark, or the first offset of the earliest
    /// transaction not yet ended and replicated below it (read_committed reads stop there).
    pub fn last_stable_offset(&self) -> i64 {
        self.first_unstable
            .load(Ordering::Acquire)
            .min(self.high_watermark())
    }

    /// The aborted transactions a read_committed read of `[from, upper)` must report.
    pub fn aborted_transactions(&self, from: i64, upper: i64) -> Vec<crate::txn_index::AbortedTxn> {
        self.aborted
            .read()
            .expect("aborted")
            .overlapping(from, upper)
    }

    /// Publishes the producers' first unstable offset.
    fn refresh_unstable(&self, producers: &crate::producer_state::ProducerState) {
        self.first_unstable.store(
            producers.first_unstable_offset().unwrap_or(i64::MAX),
            Ordering::Release,
        );
    }

    /// The latest leader epoch this replica wrote (GetReplicaLogInfo's LastWrittenLeaderEpoch).
    pub fn latest_epoch(&self) -> Option<i32> {
        self.epochs.lock().expect("epochs").latest_epoch()
    }

    /// OffsetForLeaderEpoch: `(epoch, end offset)` for the requested epoch.
    pub fn end_offset_for_epoch(&self, epoch: i32) -> (i32, i64) {
        self.epochs
            .lock()
            .expect("epochs")
            .end_offset_for_epoch(epoch, self.log_end_offset())
    }

    /// A new leader's first step (Kafka's `maybeAssignEpochStartOffset`): `epoch` starts at the
    /// log end offset, so a follower that wrote an epoch this leader never saw is answered with
    /// a diverging epoch at once, before the leader appends anything. Blocking (writes the
    /// checkpoint when the cache changes).
    pub fn assign_leader_epoch_start(&self, epoch: i32) -> Result<()> {
        let _w = self.lock_writer()?;
        let mut epochs = self.epochs.lock().expect("epochs");
        if epochs.latest_epoch().is_none_or(|e| epoch > e) {
            epochs.assign(epoch, self.log_end_offset())?;
        }
        Ok(())
    }

    /// The epoch cache entries, oldest first.
    pub fn epoch_entries(&self) -> Vec<crate::epoch::EpochEntry> {
        self.epochs.lock().expect("epochs").entries().to_vec()
    }

    /// The base offset of the active (last) segment.
    pub fn active_base_offset(&self) -> i64 {
        self.segments
            .read()
            .expect("segments")
            .keys()
            .next_back()
            .copied()
            .unwrap_or(0)
    }

    /// The number of segments.
    pub fn segment_count(&self) -> usize {
        self.segments.read().expect("segments").len()
    }

    /// The base offsets of the segments, in order.
    pub fn segment_base_offsets(&self) -> Vec<i64> {
        self.segments
            .read()
            .expect("segments")
            .keys()
            .copied()
            .collect()
    }

    /// The total size of the segments in bytes.
    pub fn size_in_bytes(&self) -> u64 {
        self.segments
            .read()
            .expect("segments")
            .values()
            .map(|s| s.size())
            .sum()
    }

    fn segment_list(&self) -> Vec<Arc<Segment>> {
        self.segments
            .read()
            .expect("segments")
            .values()
            .cloned()
            .collect()
    }

    /// The segment holding `offset` and every later one.
    fn segments_from(&self, offset: i64) -> Vec<Arc<Segment>> {
        let segs = self.segments.read().expect("segments");
        let from = segs
            .range(..=offset)
            .next_back()
            .map_or(i64::MIN, |(b, _)| *b);
        segs.range(from..).map(|(_, s)| s.clone()).collect()
    }

    fn active_segment(&self) -> Arc<Segment> {
        let segs = self.segments.read().expect("segments");
        segs.values()
            .next_back()
            .cloned()
            .expect("a log always has an active segment")
    }

    /// Fsyncs every segment that may hold unflushed data and advances the recovery point to
    /// the log end offset as it was when the flush began; nothing when nothing is unflushed.
    pub fn flush(&self) -> Result<()> {
        let _w = self.writer.lock().expect("writer");
        self.flush_locked()
    }

    fn flush_locked(&self) -> Result<()> {
        let end = self.log_end_offset();
        let from = self.recovery_point();
        if end <= from {
            // Everything is flushed already: an fsync that writes nothing still forces a
            // journal commit that stalls appends to every log on the file system (the KRaft
            // leader flushes its log on every tick).
            return Ok(());
        }
        let segs = self.segment_list();
        let txn_index = self.txn_index_dirty.swap(false, Ordering::AcqRel);
        for (i, seg) in segs.iter().enumerate() {
            let next_base = segs.get(i + 1).map_or(i64::MAX, |s| s.base_offset());
            if next_base > from {
                seg.flush()?;
                if txn_index {
                    crate::txn_index::sync_file(&seg.txn_index_path())?;
                }
            }
        }
        self.recovery_point.fetch_max(end, Ordering::AcqRel);
        Ok(())
    }

    /// Flushes and unlinks every pending deleted segment: the log is closing.
    pub fn close(&self) -> Result<()> {
        let mut w = self.writer.lock().expect("writer");
        self.flush_locked()?;
        self.snapshot_producers()?;
        for (seg, _) in w.pending_deletes.drain(..) {
            seg.delete_files()?;
        }
        Ok(())
    }
}
