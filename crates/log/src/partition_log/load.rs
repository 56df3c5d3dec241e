//! Opening a partition log: clearing leftovers of interrupted deletes and writes, loading the
//! segments, and, after an unclean shutdown, recovering every segment past the recovery point
//! (each batch's framing and CRC checked, the log cut at the first invalid byte, indexes and
//! the epoch cache tail rebuilt).

use super::clean::{CLEANED_SUFFIX, SWAP_SUFFIX};
use super::{PartitionLog, WriterState};
use crate::checkpoint::TMP_SUFFIX;
use crate::config::LogConfig;
use crate::epoch::LeaderEpochCache;
use crate::error::{io_err, Result};
use crate::segment::{Segment, DELETED_SUFFIX, INDEX_SUFFIX, LOG_SUFFIX, TIME_INDEX_SUFFIX};
use std::collections::BTreeMap;
use std::path::Path;
use std::sync::atomic::AtomicI64;
use std::sync::{Arc, Mutex, RwLock};

/// Suffixes of files left by an interrupted operation; they are removed when a log opens.
const LEFTOVER_SUFFIXES: &[&str] = &[DELETED_SUFFIX, CLEANED_SUFFIX, TMP_SUFFIX];

/// What opening a log found and did.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct LoadReport {
    /// Segments that were scanned and validated.
    pub recovered_segments: usize,
    /// Bytes cut from the end of the log because they were not valid batches.
    pub truncated_bytes: u64,
    /// Segments removed because they followed the first invalid byte.
    pub deleted_segments: usize,
    /// Why recovery cut the log, if it did.
    pub reason: Option<String>,
}

/// The offsets a log dir's checkpoints remember for a partition (all 0 when unknown: then
/// everything is recovered).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Checkpointed {
    /// The recovery point (0 when unknown: recover everything).
    pub recovery_point: i64,
    /// The log start offset (0 when unknown).
    pub log_start_offset: i64,
    /// The high watermark (0 when unknown).
    pub high_watermark: i64,
    /// The offset below which compaction has cleaned the log (0 when unknown).
    pub first_dirty_offset: i64,
}

/// Finishes compaction swaps a crash interrupted: a `<base>.log.swap` replaces `<base>.log`
/// (whose indexes are dropped, to be rebuilt).
fn complete_swaps(dir: &Path) -> Result<()> {
    let mut swapped = false;
    for entry in std::fs::read_dir(dir).map_err(io_err(dir))? {
        let entry = entry.map_err(io_err(dir))?;
        let name = entry.file_name().to_string_lossy().into_owned();
        let Some(log_name) = name.strip_suffix(SWAP_SUFFIX) else {
            continue;
        };
        let Some(base) = base_offset_of(log_name) else {
            continue;
        };
        for suffix in [INDEX_SUFFIX, TIME_INDEX_SUFFIX] {
            match std::fs::remove_file(dir.join(crate::segment::file_name(base, suffix))) {
                Ok(()) => {}
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
                Err(e) => return Err(io_err(dir)(e)),
            }
        }
        let target = dir.join(log_name);
        std::fs::rename(entry.path(), &target).map_err(io_err(&target))?;
        swapped = true;
        tracing::info!(dir = %dir.display(), segment = base, "completed an interrupted compaction swap");
    }
    // Nothing swapped (nearly always): nothing to make durable.
    if swapped {
        crate::checkpoint::sync_dir(dir)?;
    }
    Ok(())
}

fn base_offset_of(name: &str) -> Option<i64> {
    let stem = name.strip_suffix(LOG_SUFFIX)?;
    (stem.len() == 20 && stem.bytes().all(|b| b.is_ascii_digit()))
        .then(|| stem.parse().ok())
        .flatten()
}

/// Finishes interrupted compaction swaps in `dir`, removes leftover files and index files
/// whose log file is gone, and returns the base offsets of its segments, in order.
fn existing_segments(dir: &Path) -> Result<Vec<i64>> {
    complete_swaps(dir)?;
    let mut bases = Vec::new();
    for entry in std::fs::read_dir(dir).map_err(io_err(dir))? {
        let entry = entry.map_err(io_err(dir))?;
        let name = entry.file_name().to_string_lossy().into_owned();
        if LEFTOVER_SUFFIXES.iter().any(|s| name.ends_with(s)) {
            std::fs::remove_file(entry.path()).map_err(io_err(entry.path()))?;
        } else if let Some(base) = base_offset_of(&name) {
            bases.push(base);
        }
    }
    bases.sort_unstable();
    // Index files whose log file is gone are orphans.
    for entry in std::fs::read_dir(dir).map_err(io_err(dir))? {
        let entry = entry.map_err(io_err(dir))?;
        let name = entry.file_name().to_string_lossy().into_owned();
        let stem = name
            .strip_suffix(INDEX_SUFFIX)
            .or_else(|| name.strip_suffix(TIME_INDEX_SUFFIX));
        if let Some(stem) = stem {
            if stem
                .parse::<i64>()
                .map_or(true, |b| bases.binary_search(&b).is_err())
            {
                std::fs::remove_file(entry.path()).map_err(io_err(entry.path()))?;
            }
        }
    }
    Ok(bases)
}

impl PartitionLog {
    /// Opens (or creates) the log in `dir`. `clean_shutdown` says the log dir was closed
    /// cleanly: then no segment is scanned unless its index is missing or damaged.
    pub fn open(
        dir: &Path,
        config: LogConfig,
        checkpointed: Checkpointed,
        clean_shutdown: bool,
    ) -> Result<(PartitionLog, LoadReport)> {
        // A directory made just now holds nothing to look through.
        let fresh = !dir.exists();
        std::fs::create_dir_all(dir).map_err(io_err(dir))?;
        let bases = if fresh {
            Vec::new()
        } else {
            existing_segments(dir)?
        };

        let mut report = LoadReport::default();
        let mut segments: BTreeMap<i64, Arc<Segment>> = BTreeMap::new();
        let mut epoch_starts = Vec::new();
        let mut cut = false;
        for (i, &base) in bases.iter().enumerate() {
            if cut {
                std::fs::remove_file(dir.join(crate::segment::file_name(base, LOG_SUFFIX)))
                    .map_err(io_err(dir))?;
                for suffix in [INDEX_SUFFIX, TIME_INDEX_SUFFIX] {
                    let _ = std::fs::remove_file(dir.join(crate::segment::file_name(base, suffix)));
                }
                report.deleted_segments += 1;
                continue;
            }
            let (seg, index_rebuild) = Segment::open(
                dir,
                base,
                config.segment_index_bytes,
                config.index_interval_bytes,
            )?;
            let next_base = bases.get(i + 1).copied().unwrap_or(i64::MAX);
            let unflushed = !clean_shutdown && next_base > checkpointed.recovery_point;
            if unflushed || index_rebuild {
                let r = seg.recover()?;
                report.recovered_segments += 1;
                epoch_starts.extend(r.epoch_starts.iter().copied());
                if r.truncated_bytes > 0 {
                    tracing::warn!(
                        dir = %dir.display(),
                        segment = base,
                        truncated_bytes = r.truncated_bytes,
                        reason = r.reason.as_deref().unwrap_or(""),
                        "recovery truncated the log at the first invalid batch"
                    );
                    report.truncated_bytes += r.truncated_bytes;
                    report.reason = r.reason.clone();
                    cut = true;
                }
            }
            segments.insert(base, Arc::new(seg));
        }
        if segments.is_empty() {
            let base = checkpointed.log_start_offset.max(0);
            let seg = Segment::create(
                dir,
                base,
                config.segment_index_bytes,
                config.index_interval_bytes,
            )?;
            segments.insert(base, Arc::new(seg));
        }
        let first_base = *segments.keys().next().expect("at least one segment");
        let active = segments
            .values()
            .next_back()
            .expect("at least one segment")
            .clone();
        // A segment is created at the log end offset, so an empty active segment's base offset
        // is the log end offset.
        let log_end = active.read_next_offset()?;
        // With tiered storage the log may start below the first local segment: the records
        // between are in the store.
        let log_start = if config.remote_storage {
            checkpointed.log_start_offset.max(0).min(log_end)
        } else {
            checkpointed.log_start_offset.max(first_base).min(log_end)
        };

        let mut epochs = LeaderEpochCache::load(dir)?;
        epochs.truncate_from_end(log_end, log_start)?;
        for (epoch, offset) in epoch_starts {
            if epochs.latest_epoch().is_none_or(|l| epoch > l) {
                epochs.assign(epoch, offset)?;
            }
        }
        epochs.truncate_from_start(log_start)?;

        // As Kafka's LogLoader: the recovery point moves only when the log is flushed. What
        // recovery read back is not fsynced here (an fsync of every recovered segment and its
        // indexes made a restart of 30,000 partitions wait ~15 s on the disk); it stays above
        // the recovery point, so a crash before the next flush recovers it again.
        let recovery_point = if clean_shutdown {
            log_end
        } else {
            checkpointed.recovery_point.clamp(log_start, log_end)
        };
        let log = PartitionLog {
            dir: dir.to_owned(),
            config: RwLock::new(config),
            segments: RwLock::new(segments),
            writer: Mutex::new(WriterState {
                unflushed_messages: 0,
                last_flush_ms: 0,
                pending_deletes: Vec::new(),
            }),
            log_start_offset: AtomicI64::new(log_start),
            log_end_offset: AtomicI64::new(log_end),
            recovery_point: AtomicI64::new(recovery_point.max(log_start)),
            high_watermark: AtomicI64::new(checkpointed.high_watermark.clamp(log_start, log_end)),
            first_dirty_offset: AtomicI64::new(
                checkpointed.first_dirty_offset.clamp(log_start, log_end),
            ),
            epochs: Mutex::new(epochs),
            producers: Mutex::new(Default::default()),
            aborted: Default::default(),
            first_unstable: AtomicI64::new(i64::MAX),
            txn_index_dirty: Default::default(),
            markers_seen: Default::default(),
            moved: Default::default(),
            remote_covered: AtomicI64::new(-1),
        };
        log.rebuild_producer_state()?;
        Ok((log, report))
    }
}
