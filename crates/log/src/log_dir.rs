//! One log directory: the partition logs in it, `meta.properties`, the per-dir offset
//! checkpoints (recovery points, log start offsets, high watermarks), each partition's
//! `partition.metadata` (topic id), and the clean-shutdown marker that lets the next start
//! skip recovery.

use crate::checkpoint::{
    sync_dir, write_atomically, OffsetCheckpoint, TopicPartition, CLEANER_OFFSET_CHECKPOINT,
    LOG_START_OFFSET_CHECKPOINT, RECOVERY_POINT_CHECKPOINT, REPLICATION_OFFSET_CHECKPOINT,
};
use crate::config::LogConfig;
use crate::error::{io_err, LogError, Result};
use crate::partition_log::load::Checkpointed;
use crate::partition_log::{LoadReport, PartitionLog};
use fjord_util::uuid_text;
use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use uuid::Uuid;

/// The broker epoch in a clean-shutdown marker (`{"version":0,"brokerEpoch":N}`), if it
/// can be read.
fn marker_broker_epoch(text: &str) -> Option<i64> {
    let rest = &text[text.find("\"brokerEpoch\"")? + "\"brokerEpoch\"".len()..];
    let rest = rest.trim_start().strip_prefix(':')?.trim_start();
    let end = rest
        .find(|c: char| !(c.is_ascii_digit() || c == '-'))
        .unwrap_or(rest.len());
    rest[..end].parse().ok()
}

/// The clean-shutdown marker's file name (Kafka's).
pub const CLEAN_SHUTDOWN_FILE: &str = ".kafka_cleanshutdown";
/// The storage metadata file's name.
pub const META_PROPERTIES: &str = "meta.properties";
/// A partition's topic-id file.
pub const PARTITION_METADATA: &str = "partition.metadata";
/// The suffix of a partition directory being deleted.
pub const DELETE_DIR_SUFFIX: &str = "-delete";

/// The identity of a formatted log dir (`meta.properties`, version 1).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MetaProperties {
    /// The cluster id.
    pub cluster_id: String,
    /// The node id.
    pub node_id: i32,
    /// This directory's id.
    pub directory_id: Uuid,
}

impl MetaProperties {
    /// Writes `meta.properties` into `dir` (Java properties format, as Kafka writes it).
    pub fn write(&self, dir: &Path) -> Result<()> {
        let values: BTreeMap<String, String> = [
            ("cluster.id", self.cluster_id.clone()),
            ("directory.id", uuid_text::encode(&self.directory_id)),
            ("node.id", self.node_id.to_string()),
            ("version", "1".to_string()),
        ]
        .into_iter()
        .map(|(k, v)| (k.to_string(), v))
        .collect();
        let text = fjord_util::properties::write("Written by fjord", &values);
        write_atomically(&dir.join(META_PROPERTIES), text.as_bytes())
    }

    /// Reads `meta.properties` from `dir`, or `None` when the dir is not formatted.
    pub fn read(dir: &Path) -> Result<Option<MetaProperties>> {
        let path = dir.join(META_PROPERTIES);
        let text = match std::fs::read_to_string(&path) {
            Ok(t) => t,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
            Err(e) => return Err(io_err(&path)(e)),
        };
        let bad = |reason: &str| LogError::Malformed {
            path: path.clone(),
            reason: reason.to_string(),
        };
        let props = fjord_util::properties::parse(&text).map_err(|e| bad(&e.0))?;
        if props.get("version").map(String::as_str) != Some("1") {
            return Err(bad("only version=1 is supported"));
        }
        Ok(Some(MetaProperties {
            cluster_id: props
                .get("cluster.id")
                .ok_or_else(|| bad("no cluster.id"))?
                .to_string(),
            node_id: props
                .get("node.id")
                .and_then(|v| v.parse().ok())
                .ok_or_else(|| bad("no node.id"))?,
            directory_id: props
                .get("directory.id")
                .and_then(|v| uuid_text::decode(v))
                .ok_or_else(|| bad("no directory.id"))?,
        }))
    }
}

/// Writes a partition's `partition.metadata` (its topic id).
pub fn write_partition_metadata(dir: &Path, topic_id: &Uuid) -> Result<()> {
    write_atomically(
        &dir.join(PARTITION_METADATA),
        partition_metadata_text(topic_id).as_bytes(),
    )
}

/// The text of a `partition.metadata` file.
fn partition_metadata_text(topic_id: &Uuid) -> String {
    format!("version: 0\ntopic_id: {}\n", uuid_text::encode(topic_id))
}

/// Reads a partition's topic id, or `None` when it has no `partition.metadata`.
pub fn read_partition_metadata(dir: &Path) -> Result<Option<Uuid>> {
    let path = dir.join(PARTITION_METADATA);
    let text = match std::fs::read_to_string(&path) {
        Ok(t) => t,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(io_err(&path)(e)),
    };
    let mut lines = text.lines();
    let version = lines
        .next()
        .and_then(|l| l.strip_prefix("version:"))
        .map(str::trim);
    let id = lines
        .next()
        .and_then(|l| l.strip_prefix("topic_id:"))
        .and_then(uuid_text::decode);
    match (version, id) {
        (Some("0"), Some(id)) => Ok(Some(id)),
        _ => Err(LogError::Malformed {
            path,
            reason: "expected version 0 and a topic_id".into(),
        }),
    }
}

/// The metadata log's directory (`__cluster_metadata-0`), which the Raft driver owns: a log dir
/// opened for the broker's partitions passes over it.
pub const METADATA_PARTITION_DIR: &str = "__cluster_metadata-0";

/// The partition logs of one log directory. The map's lock is held only to look up, insert
/// or remove an entry, never across opening a log, fsyncs or checkpoint writes; a partition
/// being created is locked on its own (its slot), so others go on meanwhile.
#[derive(Debug)]
pub struct LogDir {
    path: PathBuf,
    logs: Mutex<BTreeMap<TopicPartition, Slot>>,
    had_clean_shutdown: bool,
    clean_shutdown_broker_epoch: Option<i64>,
    /// What each checkpoint file was last given (by file name; the unsynced high-watermark
    /// writes apart), so an unchanged checkpoint is not written again: an fsync that changes
    /// nothing still stalls appends on the same file system.
    written: Mutex<HashMap<&'static str, Memo>>,
    /// Partitions were created since the last [`LogDir::sync_created`]: their directories and
    /// first files are not yet known durable.
    created_unsynced: AtomicBool,
}

/// The most threads that open a log dir's partitions at start.
pub const MAX_RECOVERY_THREADS: usize = 64;

/// A checkpoint's content.
type Offsets = BTreeMap<TopicPartition, i64>;
/// What a checkpoint was last given: each log in the dir's order (held weakly, so a deleted
/// log still closes its files, and its address is not reused while remembered) with its
/// offset. Compared without naming a partition: a pass that finds nothing changed costs a
/// pointer and an offset per partition, not a name's copy (at 100,000 partitions the copies
/// took 50 to 300 ms of CPU every 5 s on every broker).
type Memo = Vec<(std::sync::Weak<PartitionLog>, i64)>;
/// The offset of a log a checkpoint records.
type Offset = fn(&PartitionLog) -> i64;
/// The key under which the unsynced high-watermark writes are remembered.
const HW_UNSYNCED: &str = "replication-offset-checkpoint (unsynced)";

/// Opens (and, after an unclean shutdown, recovers) each found partition log, on up to
/// `threads` threads; the first failure is the answer.
fn open_logs(
    found: Vec<(TopicPartition, PathBuf, Checkpointed)>,
    config_for: &(impl Fn(&TopicPartition) -> LogConfig + Sync),
    clean_shutdown: bool,
    threads: usize,
) -> Result<Vec<(TopicPartition, PartitionLog, LoadReport)>> {
    let open_one = |(tp, dir, cp): (TopicPartition, PathBuf, Checkpointed)| {
        let (log, report) = PartitionLog::open(&dir, config_for(&tp), cp, clean_shutdown)?;
        Ok((tp, log, report))
    };
    let threads = threads.clamp(1, MAX_RECOVERY_THREADS);
    if threads == 1 || found.len() < 2 {
        return found.into_iter().map(open_one).collect();
    }
    let per_thread = found.len().div_ceil(threads);
    let mut chunks: Vec<Vec<_>> = Vec::new();
    let mut rest = found.into_iter();
    loop {
        let chunk: Vec<_> = rest.by_ref().take(per_thread).collect();
        if chunk.is_empty() {
            break;
        }
        chunks.push(chunk);
    }
    std::thread::scope(|scope| {
        let running: Vec<_> = chunks
            .into_iter()
            .map(|chunk| {
                scope.spawn(move || chunk.into_iter().map(open_one).collect::<Result<Vec<_>>>())
            })
            .collect();
        let mut opened = Vec::new();
        for r in running {
            opened.extend(r.join().unwrap_or_else(|p| std::panic::resume_unwind(p))?);
        }
        Ok(opened)
    })
}

/// One partition's place in the map: empty while it is being created (or if that failed).
type Slot = Arc<Mutex<Option<Arc<PartitionLog>>>>;

impl LogDir {
    /// Opens the log dir at `path`: removes the clean-shutdown marker (so a crash from now on
    /// is detected) and opens every partition log, recovering them unless the marker was there.
    pub fn open(
        path: &Path,
        config_for: impl Fn(&TopicPartition) -> LogConfig + Sync,
    ) -> Result<(LogDir, Vec<(TopicPartition, LoadReport)>)> {
        LogDir::open_with(path, config_for, 1)
    }

    /// [`LogDir::open`] with the partition logs opened and recovered by `threads` threads
    /// (Kafka's `num.recovery.threads.per.data.dir`).
    pub fn open_with(
        path: &Path,
        config_for: impl Fn(&TopicPartition) -> LogConfig + Sync,
        threads: usize,
    ) -> Result<(LogDir, Vec<(TopicPartition, LoadReport)>)> {
        std::fs::create_dir_all(path).map_err(io_err(path))?;
        let marker = path.join(CLEAN_SHUTDOWN_FILE);
        let had_clean_shutdown = marker.exists();
        let clean_shutdown_broker_epoch = if had_clean_shutdown {
            marker_broker_epoch(&std::fs::read_to_string(&marker).map_err(io_err(&marker))?)
        } else {
            None
        };
        let recovery = OffsetCheckpoint::new(path.join(RECOVERY_POINT_CHECKPOINT)).read()?;
        let starts = OffsetCheckpoint::new(path.join(LOG_START_OFFSET_CHECKPOINT)).read()?;
        // The high watermarks are a hint written without fsync: a torn file after a crash is
        // taken as missing (each leader's high watermark then starts from its followers'
        // fetches, each follower's from its leader).
        let hws_path = path.join(REPLICATION_OFFSET_CHECKPOINT);
        let hws = match OffsetCheckpoint::new(&hws_path).read() {
            Ok(h) => h,
            Err(LogError::Malformed { reason, .. }) => {
                tracing::warn!(
                    path = %hws_path.display(),
                    "ignoring a torn high-watermark checkpoint: {reason}"
                );
                BTreeMap::new()
            }
            Err(e) => return Err(e),
        };
        let cleaned = OffsetCheckpoint::new(path.join(CLEANER_OFFSET_CHECKPOINT)).read()?;
        let mut found = Vec::new();
        for entry in std::fs::read_dir(path).map_err(io_err(path))? {
            let entry = entry.map_err(io_err(path))?;
            let name = entry.file_name().to_string_lossy().into_owned();
            if !entry.path().is_dir() {
                continue;
            }
            if name == METADATA_PARTITION_DIR {
                // The KRaft metadata log: Raft's own, never a partition of the broker.
                continue;
            }
            if name.ends_with(DELETE_DIR_SUFFIX)
                || name.ends_with(crate::partition_log::FUTURE_DIR_SUFFIX)
            {
                // A deletion, or a move to this dir (AlterReplicaLogDirs), that a restart
                // interrupted: the partition lives where it was.
                std::fs::remove_dir_all(entry.path()).map_err(io_err(entry.path()))?;
                continue;
            }
            let Some(tp) = TopicPartition::parse_dir_name(&name) else {
                continue;
            };
            let cp = Checkpointed {
                recovery_point: recovery.get(&tp).copied().unwrap_or(0),
                log_start_offset: starts.get(&tp).copied().unwrap_or(0),
                high_watermark: hws.get(&tp).copied().unwrap_or(0),
                first_dirty_offset: cleaned.get(&tp).copied().unwrap_or(0),
            };
            found.push((tp, entry.path(), cp));
        }
        let mut logs = BTreeMap::new();
        let mut reports = Vec::new();
        for (tp, log, report) in open_logs(found, &config_for, had_clean_shutdown, threads)? {
            reports.push((tp.clone(), report));
            logs.insert(tp, Arc::new(Mutex::new(Some(Arc::new(log)))));
        }
        if had_clean_shutdown {
            std::fs::remove_file(&marker).map_err(io_err(&marker))?;
            sync_dir(path)?;
        }
        Ok((
            LogDir {
                path: path.to_owned(),
                logs: Mutex::new(logs),
                had_clean_shutdown,
                clean_shutdown_broker_epoch,
                written: Mutex::new(HashMap::new()),
                created_unsynced: AtomicBool::new(false),
            },
            reports,
        ))
    }

    /// The broker epoch the clean-shutdown marker held (KIP-966: sent at registration as the
    /// previous broker epoch, so the controller knows this broker lost nothing), if the dir
    /// was closed cleanly.
    pub fn clean_shutdown_broker_epoch(&self) -> Option<i64> {
        self.clean_shutdown_broker_epoch
    }

    /// The directory.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// True when the last shutdown was clean.
    pub fn had_clean_shutdown(&self) -> bool {
        self.had_clean_shutdown
    }

    /// The log of a partition, if this dir holds it.
    pub fn get(&self, tp: &TopicPartition) -> Option<Arc<PartitionLog>> {
        let slot = self.logs.lock().expect("logs").get(tp).cloned()?;
        let log = slot.lock().expect("slot").clone();
        log
    }

    /// Every log this dir holds, taken out of the map (so work on them holds no lock).
    /// The logs in the dir's order, without their names (nothing is copied but pointers).
    fn logs_in_order(&self) -> Vec<Arc<PartitionLog>> {
        let slots: Vec<Slot> = self.logs.lock().expect("logs").values().cloned().collect();
        slots
            .into_iter()
            .filter_map(|s| s.lock().expect("slot").clone())
            .collect()
    }

    fn all_logs(&self) -> Vec<(TopicPartition, Arc<PartitionLog>)> {
        let slots: Vec<(TopicPartition, Slot)> = self
            .logs
            .lock()
            .expect("logs")
            .iter()
            .map(|(tp, s)| (tp.clone(), s.clone()))
            .collect();
        slots
            .into_iter()
            .filter_map(|(tp, s)| s.lock().expect("slot").clone().map(|l| (tp, l)))
            .collect()
    }

    /// How many partitions this dir holds (or is creating).
    pub fn len(&self) -> usize {
        self.logs.lock().expect("logs").len()
    }

    /// True when it holds none.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Every partition this dir holds.
    pub fn partitions(&self) -> Vec<TopicPartition> {
        self.all_logs().into_iter().map(|(tp, _)| tp).collect()
    }

    /// The log of a partition, created (with its topic id) when missing.
    pub fn get_or_create(
        &self,
        tp: &TopicPartition,
        config: LogConfig,
        topic_id: Option<Uuid>,
    ) -> Result<Arc<PartitionLog>> {
        let slot = self
            .logs
            .lock()
            .expect("logs")
            .entry(tp.clone())
            .or_default()
            .clone();
        let mut slot = slot.lock().expect("slot");
        if let Some(log) = &*slot {
            return Ok(log.clone());
        }
        let dir = self.path.join(tp.dir_name());
        let fresh = !dir.exists();
        let (log, _) = PartitionLog::open(&dir, config, Checkpointed::default(), true)?;
        if fresh {
            // A new partition's directory and first files are made durable together with the
            // others created in the same batch (one syncfs in `sync_created`), not with five
            // fsyncs each: creating 30,000 partitions took a minute of fsyncs, and followers
            // fell out of the ISR before they had their replicas.
            if let Some(id) = topic_id {
                crate::checkpoint::write_unsynced(
                    &dir.join(PARTITION_METADATA),
                    partition_metadata_text(&id).as_bytes(),
                )?;
            }
            self.created_unsynced.store(true, Ordering::Release);
        } else {
            if let Some(id) = topic_id {
                write_partition_metadata(&dir, &id)?;
            }
            sync_dir(&self.path)?;
        }
        let log = Arc::new(log);
        *slot = Some(log.clone());
        Ok(log)
    }

    /// Makes the partitions created since the last call durable (their directories and
    /// first files): one syncfs(2) of the log dir's file system for the whole batch.
    pub fn sync_created(&self) -> Result<()> {
        if !self.created_unsynced.swap(false, Ordering::AcqRel) {
            return Ok(());
        }
        let synced = std::fs::File::open(&self.path)
            .and_then(|d| rustix::fs::syncfs(&d).map_err(std::io::Error::from));
        if let Err(e) = synced {
            self.created_unsynced.store(true, Ordering::Release);
            return Err(io_err(&self.path)(e));
        }
        Ok(())
    }

    /// Takes in a log moved here from another log dir of the broker (already in this dir).
    pub fn adopt(&self, tp: &TopicPartition, log: Arc<PartitionLog>) {
        self.logs
            .lock()
            .expect("logs")
            .insert(tp.clone(), Arc::new(Mutex::new(Some(log))));
    }

    /// Deletes a partition: its directory is renamed `<tp>-<uuid>-delete` at once and removed.
    pub fn delete(&self, tp: &TopicPartition) -> Result<()> {
        let Some(slot) = self.logs.lock().expect("logs").remove(tp) else {
            return Ok(());
        };
        let Some(log) = slot.lock().expect("slot").take() else {
            return Ok(());
        };
        let doomed = self.path.join(format!(
            "{}.{}{DELETE_DIR_SUFFIX}",
            tp.dir_name(),
            Uuid::new_v4().simple()
        ));
        std::fs::rename(log.dir(), &doomed).map_err(io_err(log.dir()))?;
        sync_dir(&self.path)?;
        std::fs::remove_dir_all(&doomed).map_err(io_err(&doomed))
    }

    /// Writes only the high-watermark checkpoint (`replication-offset-checkpoint`), which
    /// Kafka writes more often than the others, without fsync: an fsync every few seconds stalls appends on the same file
    /// system (seen as p99.9 spikes of acks=all produces), and a stale or missing high
    /// watermark is safe (truncation goes by leader epochs, never by it).
    pub fn checkpoint_high_watermarks(&self) -> Result<()> {
        self.checkpoint_one(HW_UNSYNCED, PartitionLog::high_watermark, |o| {
            OffsetCheckpoint::new(self.path.join(REPLICATION_OFFSET_CHECKPOINT)).write_unsynced(o)
        })
    }

    /// Writes the recovery-point, log-start-offset and high-watermark checkpoints (each
    /// fsynced), skipping any whose content has not changed since it was last written.
    pub fn checkpoint(&self) -> Result<()> {
        self.sync_created()?;
        let kinds: [(&'static str, Offset); 3] = [
            (RECOVERY_POINT_CHECKPOINT, PartitionLog::recovery_point),
            (LOG_START_OFFSET_CHECKPOINT, PartitionLog::log_start_offset),
            (REPLICATION_OFFSET_CHECKPOINT, PartitionLog::high_watermark),
        ];
        for (name, value) in kinds {
            self.checkpoint_one(name, value, |o| {
                OffsetCheckpoint::new(self.path.join(name)).write(o)
            })?;
        }
        // The file now holds the high watermarks: the next unsynced write need not repeat them.
        let mut written = self.written.lock().expect("written");
        if let Some(memo) = written.get(REPLICATION_OFFSET_CHECKPOINT).cloned() {
            written.insert(HW_UNSYNCED, memo);
        }
        Ok(())
    }

    /// Runs `write` with each log's `value` unless `key` was last given the same logs with the
    /// same values; remembers them once written.
    fn checkpoint_one(
        &self,
        key: &'static str,
        value: Offset,
        write: impl FnOnce(&Offsets) -> Result<()>,
    ) -> Result<()> {
        if self.unchanged(key, &self.logs_in_order(), value) {
            return Ok(());
        }
        let mut offsets = Offsets::new();
        let mut memo = Memo::new();
        for (tp, log) in self.all_logs() {
            let v = value(&log);
            memo.push((Arc::downgrade(&log), v));
            offsets.insert(tp, v);
        }
        write(&offsets)?;
        self.written.lock().expect("written").insert(key, memo);
        Ok(())
    }

    /// Whether `key` was last given exactly `logs`, in this order, with these values.
    fn unchanged(&self, key: &'static str, logs: &[Arc<PartitionLog>], value: Offset) -> bool {
        let written = self.written.lock().expect("written");
        written.get(key).is_some_and(|memo| {
            memo.len() == logs.len()
                && memo.iter().zip(logs).all(|((was, v), log)| {
                    std::ptr::eq(was.as_ptr(), Arc::as_ptr(log)) && *v == value(log)
                })
        })
    }

    /// Flushes and closes every log, writes the checkpoints, then the clean-shutdown marker
    /// (KIP-966: it records the broker epoch).
    pub fn shutdown(&self, broker_epoch: i64) -> Result<()> {
        for (_, log) in self.all_logs() {
            log.close()?;
        }
        self.checkpoint()?;
        let marker = format!("{{\"version\":0,\"brokerEpoch\":{broker_epoch}}}");
        write_atomically(&self.path.join(CLEAN_SHUTDOWN_FILE), marker.as_bytes())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_markers_broker_epoch_is_read() {
        assert_eq!(
            marker_broker_epoch("{\"version\":0,\"brokerEpoch\":42}"),
            Some(42)
        );
        assert_eq!(
            marker_broker_epoch("{\"brokerEpoch\" : -1, \"version\":0}"),
            Some(-1)
        );
        assert_eq!(marker_broker_epoch("{}"), None);
    }
}
