//! Moving a partition's log to another log dir of the same broker (AlterReplicaLogDirs). The
//! copy is made beside its target as `<name>-future`: a first pass copies the files without
//! the writer lock (appends go on); a final pass, under it, flushes, snapshots the producers and
//! copies what changed since (the segments from the one that was active, and every file whose
//! identity, size or time moved), fsyncs the copy and renames it into place. The caller opens
//! the new log and takes it over while appends still wait; the old log refuses every write
//! from then on ([`LogError::Moved`]), so nothing is written where no one will read it.

use super::{load::Checkpointed, PartitionLog};
use crate::checkpoint::TMP_SUFFIX;
use crate::error::{io_err, LogError, Result};
use crate::segment::{DELETED_SUFFIX, LOG_SUFFIX};
use std::collections::BTreeMap;
use std::os::unix::fs::MetadataExt;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicI64, Ordering};

/// The suffix of a partition directory being copied into a log dir.
pub const FUTURE_DIR_SUFFIX: &str = "-future";

/// Progress of a move, for DescribeLogDirs' future replica, and the throttle that paces its
/// copy (`replica.alter.log.dirs.io.max.bytes.per.second`).
#[derive(Debug, Default)]
pub struct Relocation {
    /// Bytes copied so far.
    pub bytes: AtomicI64,
    /// The offset below which every segment has been copied.
    pub copied_below: AtomicI64,
    /// The broker's log dir move throttle, if any: while it has a bound, files are copied in
    /// [`PACED_CHUNK`] pieces, each waiting until the rate is back within it.
    pub throttle: Option<std::sync::Arc<fjord_quota::ReplicationQuota>>,
}

/// The piece a throttled copy moves at a time.
pub const PACED_CHUNK: usize = 1 << 20;

impl Relocation {
    /// A move paced by `throttle`.
    pub fn throttled(throttle: std::sync::Arc<fjord_quota::ReplicationQuota>) -> Relocation {
        Relocation {
            throttle: Some(throttle),
            ..Relocation::default()
        }
    }

    /// The throttle, when it has a bound now.
    fn pacing(&self) -> Option<&fjord_quota::ReplicationQuota> {
        self.throttle
            .as_deref()
            .filter(|q| q.bound() < fjord_quota::replication::UNBOUNDED)
    }
}

/// Copies `from` to `to` in [`PACED_CHUNK`] pieces, waiting before each until `quota` allows
/// it and counting each in it; the bytes copied.
fn paced_copy(
    from: &Path,
    to: &Path,
    quota: &fjord_quota::ReplicationQuota,
) -> std::io::Result<u64> {
    use std::io::{Read, Write};
    let mut src = std::fs::File::open(from)?;
    let mut dst = std::fs::File::create(to)?;
    let mut buf = vec![0u8; PACED_CHUNK];
    let mut total = 0u64;
    loop {
        let n = src.read(&mut buf)?;
        if n == 0 {
            return Ok(total);
        }
        let wait = quota.throttle_ms(fjord_util::monotonic_ms());
        if wait > 0 {
            std::thread::sleep(std::time::Duration::from_millis(wait.unsigned_abs()));
        }
        dst.write_all(&buf[..n])?;
        quota.record(fjord_util::monotonic_ms(), n);
        total += n as u64;
    }
}

/// What identifies a file's content well enough to skip copying it again.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Stamp {
    ino: u64,
    len: u64,
    mtime_ns: i128,
}

fn stamp(m: &std::fs::Metadata) -> Stamp {
    Stamp {
        ino: m.ino(),
        len: m.len(),
        mtime_ns: i128::from(m.mtime()) * 1_000_000_000 + i128::from(m.mtime_nsec()),
    }
}

/// The base offset of a segment file's name (`<20 digits>.<ext>`), if it is one.
fn segment_base(name: &str) -> Option<i64> {
    let (stem, _) = name.split_once('.')?;
    (stem.len() == 20).then(|| stem.parse().ok()).flatten()
}

/// Files that belong to the log (not leftovers of an interrupted operation).
fn wanted(name: &str) -> bool {
    ![
        DELETED_SUFFIX,
        TMP_SUFFIX,
        super::CLEANED_SUFFIX,
        super::SWAP_SUFFIX,
    ]
    .iter()
    .any(|s| name.ends_with(s))
}

/// A copy of a log made by [`PartitionLog::begin_relocation`], to be finished by
/// [`PartitionLog::finish_relocation`].
#[derive(Debug)]
pub struct RelocationCopy {
    future: PathBuf,
    target: PathBuf,
    copied: BTreeMap<String, Stamp>,
    active_then: i64,
}

impl RelocationCopy {
    /// Drops the unfinished copy.
    pub fn abandon(self) {
        let _ = std::fs::remove_dir_all(&self.future);
    }
}

impl PartitionLog {
    /// The first pass of a move to `target_parent` (the same directory name): the files are
    /// copied beside the target as `<name>-future` while appends go on.
    pub fn begin_relocation(
        &self,
        target_parent: &Path,
        progress: &Relocation,
    ) -> Result<RelocationCopy> {
        let name = self
            .dir
            .file_name()
            .ok_or_else(|| LogError::InvalidRequest("a log dir without a name".into()))?
            .to_string_lossy()
            .into_owned();
        let target = target_parent.join(&name);
        if target.exists() {
            return Err(LogError::InvalidRequest(format!(
                "{} already exists",
                target.display()
            )));
        }
        let future = target_parent.join(format!("{name}{FUTURE_DIR_SUFFIX}"));
        if future.exists() {
            std::fs::remove_dir_all(&future).map_err(io_err(&future))?;
        }
        std::fs::create_dir_all(&future).map_err(io_err(&future))?;
        let mut copy = RelocationCopy {
            future,
            target,
            copied: BTreeMap::new(),
            active_then: self.segment_list().last().map_or(0, |s| s.base_offset()),
        };
        if let Err(e) = self.copy_pass(&copy.future, &mut copy.copied, i64::MAX, progress, true) {
            copy.abandon();
            return Err(e);
        }
        Ok(copy)
    }

    /// The final pass: while appends wait, the log is flushed, its producers snapshotted,
    /// what changed since the first pass copied, the copy fsynced and renamed into place, and
    /// `take_over` called with the new directory and the offsets to open it with; from then on
    /// this log refuses writes. When `take_over` fails, this log stays the one and the copy
    /// goes.
    pub fn finish_relocation<T>(
        &self,
        mut copy: RelocationCopy,
        progress: &Relocation,
        take_over: impl FnOnce(&Path, Checkpointed) -> Result<T>,
    ) -> Result<T> {
        let _w = match self.lock_writer() {
            Ok(w) => w,
            Err(e) => {
                copy.abandon();
                return Err(e);
            }
        };
        let finished = (|| {
            self.flush_locked()?;
            self.snapshot_producers()?;
            let active_now = self.segment_list().last().map_or(0, |s| s.base_offset());
            let from = copy.active_then.min(active_now);
            self.copy_pass(&copy.future, &mut copy.copied, from, progress, false)?;
            // Files the log no longer has (retention, compaction) go from the copy too.
            for entry in std::fs::read_dir(&copy.future).map_err(io_err(&copy.future))? {
                let entry = entry.map_err(io_err(&copy.future))?;
                let n = entry.file_name().to_string_lossy().into_owned();
                if !self.dir.join(&n).exists() {
                    std::fs::remove_file(entry.path()).map_err(io_err(entry.path()))?;
                }
            }
            for entry in std::fs::read_dir(&copy.future).map_err(io_err(&copy.future))? {
                let path = entry.map_err(io_err(&copy.future))?.path();
                std::fs::File::open(&path)
                    .and_then(|f| f.sync_all())
                    .map_err(io_err(&path))?;
            }
            crate::checkpoint::sync_dir(&copy.future)?;
            std::fs::rename(&copy.future, &copy.target).map_err(io_err(&copy.future))?;
            if let Some(parent) = copy.target.parent() {
                crate::checkpoint::sync_dir(parent)?;
            }
            Ok(())
        })();
        if let Err(e) = finished {
            let _ = std::fs::remove_dir_all(&copy.target);
            copy.abandon();
            return Err(e);
        }
        let checkpointed = Checkpointed {
            recovery_point: self.recovery_point(),
            log_start_offset: self.log_start_offset(),
            high_watermark: self.high_watermark(),
            first_dirty_offset: self.first_dirty_offset.load(Ordering::Acquire),
        };
        match take_over(&copy.target, checkpointed) {
            Ok(t) => {
                self.moved.store(true, Ordering::Release);
                Ok(t)
            }
            Err(e) => {
                let _ = std::fs::remove_dir_all(&copy.target);
                Err(e)
            }
        }
    }

    /// Copies into `to` every file of the log not copied yet, changed since (`copied` holds
    /// what was copied), or of a segment at or above `recopy_from`; `paced`: at the pace of
    /// the move's throttle, if it has one.
    fn copy_pass(
        &self,
        to: &Path,
        copied: &mut BTreeMap<String, Stamp>,
        recopy_from: i64,
        progress: &Relocation,
        paced: bool,
    ) -> Result<()> {
        let mut names: Vec<(String, PathBuf)> = Vec::new();
        for entry in std::fs::read_dir(&self.dir).map_err(io_err(&self.dir))? {
            let entry = entry.map_err(io_err(&self.dir))?;
            if !entry.file_type().map_err(io_err(entry.path()))?.is_file() {
                continue;
            }
            let n = entry.file_name().to_string_lossy().into_owned();
            if wanted(&n) {
                names.push((n, entry.path()));
            }
        }
        names.sort();
        for (n, from) in names {
            // A file removed meanwhile (retention, compaction) is simply not copied.
            let Ok(meta) = std::fs::metadata(&from) else {
                continue;
            };
            let base = segment_base(&n);
            let fresh = stamp(&meta);
            let segment_file = base.is_some();
            let again = !segment_file
                || base.is_some_and(|b| b >= recopy_from)
                || copied.get(&n) != Some(&fresh);
            if !again {
                continue;
            }
            let dest = to.join(&n);
            // The final pass is never paced: appends wait for it.
            let copied_file = match progress.pacing().filter(|_| paced) {
                Some(q) => paced_copy(&from, &dest, q),
                None => std::fs::copy(&from, &dest),
            };
            match copied_file {
                Ok(len) => {
                    progress.bytes.fetch_add(len as i64, Ordering::Relaxed);
                    copied.insert(n.clone(), fresh);
                    if n.ends_with(LOG_SUFFIX) {
                        if let Some(b) = base {
                            progress.copied_below.fetch_max(b, Ordering::Relaxed);
                        }
                    }
                }
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                    copied.remove(&n);
                }
                Err(e) => return Err(io_err(&dest)(e)),
            }
        }
        Ok(())
    }
}
