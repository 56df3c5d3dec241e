//! The broker's log directories (`log.dirs`, KIP-858): each one's id (from its
//! `meta.properties`), its partition logs, and whether it is online. A directory that fails to
//! open, or whose I/O fails later (a checkpoint, an append, a roll), goes offline for the rest
//! of the process's life, as Kafka's log-dir failure handling does: its replicas stop on this
//! broker, the other directories keep serving, and the next heartbeat reports it so the
//! controller moves leadership and ISR membership away. New replicas are placed on the online
//! directory holding the fewest (or on the one the metadata assigned them to).

use fjord_log::{LogConfig, LogDir, LogError, MetaProperties, PartitionLog, TopicPartition};
use fjord_protocol::Uuid;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, RwLock};

/// One configured log directory.
#[derive(Debug)]
pub struct Dir {
    /// Its path, as configured.
    pub path: PathBuf,
    /// Its id from `meta.properties` (nil when it could not be read).
    pub id: Uuid,
    /// Its logs, when it opened.
    log_dir: Option<Arc<LogDir>>,
    online: AtomicBool,
    /// Why it went offline.
    error: Mutex<Option<String>>,
}

impl Dir {
    /// True while it serves.
    pub fn is_online(&self) -> bool {
        self.online.load(Ordering::Acquire)
    }

    /// Why it is offline, if it is.
    pub fn error(&self) -> Option<String> {
        self.error.lock().expect("error").clone()
    }

    /// Its logs, while it is online.
    pub fn logs(&self) -> Option<&Arc<LogDir>> {
        self.log_dir.as_ref().filter(|_| self.is_online())
    }
}

/// Which of the broker's directories are offline, shared with its heartbeats.
#[derive(Debug, Default)]
pub struct DirHealth {
    offline: RwLock<Vec<Uuid>>,
}

impl DirHealth {
    /// The ids of the offline directories the controller knows.
    pub fn offline(&self) -> Vec<Uuid> {
        self.offline.read().expect("offline").clone()
    }
}

/// Every log directory of the broker.
#[derive(Debug)]
pub struct LogDirs {
    dirs: Vec<Dir>,
    health: Arc<DirHealth>,
}

/// True when `e` means the directory itself is failing (Kafka's KafkaStorageException), not
/// a bad request or a bad batch.
pub fn is_storage_error(e: &LogError) -> bool {
    matches!(e, LogError::Io { .. } | LogError::Malformed { .. })
}

impl LogDirs {
    /// Opens every directory of `paths` (recovering its logs); one that cannot be opened is
    /// offline from the start. An error when none opens.
    pub fn open(
        paths: &[PathBuf],
        config_for: impl Fn(&TopicPartition) -> LogConfig + Sync,
        recovery_threads: usize,
    ) -> Result<LogDirs, crate::error::BrokerError> {
        let mut dirs = Vec::new();
        for path in paths {
            let id = MetaProperties::read(path)
                .ok()
                .flatten()
                .map_or(Uuid::nil(), |m| m.directory_id);
            let opened = LogDir::open_with(path, &config_for, recovery_threads);
            let (log_dir, error) = match opened {
                Ok((d, _)) => (Some(Arc::new(d)), None),
                Err(e) => {
                    tracing::error!(dir = %path.display(), "log dir offline at startup: {e}");
                    (None, Some(e.to_string()))
                }
            };
            dirs.push(Dir {
                path: path.clone(),
                id,
                online: AtomicBool::new(log_dir.is_some()),
                log_dir,
                error: Mutex::new(error),
            });
        }
        if !dirs.iter().any(Dir::is_online) {
            let why: Vec<String> = dirs
                .iter()
                .map(|d| format!("{}: {}", d.path.display(), d.error().unwrap_or_default()))
                .collect();
            return Err(crate::error::BrokerError::NoLogDir(why.join("; ")));
        }
        let health = Arc::new(DirHealth::default());
        *health.offline.write().expect("offline") = dirs
            .iter()
            .filter(|d| !d.is_online() && !d.id.is_nil())
            .map(|d| d.id)
            .collect();
        Ok(LogDirs { dirs, health })
    }

    /// One directory opened at `path` (tests and single-dir callers).
    pub fn single(path: &Path, dir: Arc<LogDir>) -> LogDirs {
        let id = MetaProperties::read(path)
            .ok()
            .flatten()
            .map_or(Uuid::nil(), |m| m.directory_id);
        LogDirs {
            dirs: vec![Dir {
                path: path.to_owned(),
                id,
                log_dir: Some(dir),
                online: AtomicBool::new(true),
                error: Mutex::new(None),
            }],
            health: Arc::new(DirHealth::default()),
        }
    }

    /// The shared offline set, for heartbeats.
    pub fn health(&self) -> Arc<DirHealth> {
        self.health.clone()
    }

    /// Every configured directory.
    pub fn all(&self) -> &[Dir] {
        &self.dirs
    }

    /// The ids of the directories that have one.
    pub fn ids(&self) -> Vec<Uuid> {
        self.dirs
            .iter()
            .map(|d| d.id)
            .filter(|id| !id.is_nil())
            .collect()
    }

    /// The directory with id `id`.
    pub fn by_id(&self, id: Uuid) -> Option<&Dir> {
        self.dirs.iter().find(|d| d.id == id)
    }

    /// The broker epoch of the clean-shutdown markers, when every online directory closed
    /// cleanly with the same one (KIP-966).
    pub fn clean_shutdown_broker_epoch(&self) -> Option<i64> {
        let mut epochs = self
            .dirs
            .iter()
            .filter_map(Dir::logs)
            .map(|l| l.clean_shutdown_broker_epoch());
        let first = epochs.next()??;
        epochs.all(|e| e == Some(first)).then_some(first)
    }

    /// Takes directory `id` offline because of `why`; true the first time.
    pub fn mark_offline(&self, id: Uuid, why: &str) -> bool {
        let Some(d) = self.by_id(id) else {
            return false;
        };
        if !d.online.swap(false, Ordering::AcqRel) {
            return false;
        }
        *d.error.lock().expect("error") = Some(why.to_string());
        tracing::error!(
            dir = %d.path.display(),
            id = %id,
            "log dir offline: {why}; its replicas stop on this broker and the controller is told"
        );
        let mut offline = self.health.offline.write().expect("offline");
        if !offline.contains(&id) {
            offline.push(id);
        }
        true
    }

    /// The online directory holding `tp`, with its log.
    pub fn locate(&self, tp: &TopicPartition) -> Option<(Uuid, Arc<PartitionLog>)> {
        self.dirs
            .iter()
            .filter_map(|d| d.logs().map(|l| (d.id, l)))
            .find_map(|(id, l)| l.get(tp).map(|log| (id, log)))
    }

    /// Whether an offline directory held `tp` when it went offline (or failed to open).
    pub fn held_offline(&self, tp: &TopicPartition) -> Option<Uuid> {
        self.dirs
            .iter()
            .filter(|d| !d.is_online())
            .find(|d| {
                d.log_dir.as_ref().is_some_and(|l| l.get(tp).is_some())
                    || d.path.join(tp.dir_name()).exists()
            })
            .map(|d| d.id)
    }

    /// Where a new replica goes: `assigned` when it is one of these and online, else the
    /// online directory holding the fewest partitions.
    pub fn place(&self, assigned: Uuid) -> Option<&Dir> {
        if let Some(d) = self
            .by_id(assigned)
            .filter(|d| d.is_online() && !assigned.is_nil())
        {
            return Some(d);
        }
        self.dirs
            .iter()
            .filter(|d| d.is_online())
            .min_by_key(|d| d.logs().map_or(usize::MAX, |l| l.len()))
    }

    /// Writes every online directory's checkpoints (only the high watermarks' with
    /// `high_watermarks_only`); a directory whose write fails goes offline. Returns the ids
    /// that went offline now.
    pub fn checkpoint(&self, high_watermarks_only: bool) -> Vec<Uuid> {
        let mut failed = Vec::new();
        for d in &self.dirs {
            let Some(l) = d.logs() else { continue };
            let written = if high_watermarks_only {
                l.checkpoint_high_watermarks()
            } else {
                l.checkpoint()
            };
            if let Err(e) = written {
                if self.mark_offline(d.id, &format!("writing checkpoints: {e}")) {
                    failed.push(d.id);
                }
            }
        }
        failed
    }

    /// Closes every online directory cleanly (flush, checkpoints, the clean-shutdown marker).
    pub fn shutdown(&self, broker_epoch: i64) -> Result<(), LogError> {
        let mut first = Ok(());
        for l in self.dirs.iter().filter_map(Dir::logs) {
            if let Err(e) = l.shutdown(broker_epoch) {
                tracing::error!(dir = %l.path().display(), "closing the log dir: {e}");
                if first.is_ok() {
                    first = Err(e);
                }
            }
        }
        first
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn formatted(root: &Path, name: &str, id: u128) -> PathBuf {
        let p = root.join(name);
        std::fs::create_dir_all(&p).unwrap();
        MetaProperties {
            cluster_id: "c".into(),
            node_id: 1,
            directory_id: Uuid::from_u128(id),
        }
        .write(&p)
        .unwrap();
        p
    }

    #[test]
    fn placement_checkpoints_and_failure() {
        let root = tempfile::tempdir().unwrap();
        let a = formatted(root.path(), "a", 1);
        let b = formatted(root.path(), "b", 2);
        let dirs = LogDirs::open(&[a.clone(), b.clone()], |_| LogConfig::default(), 2).unwrap();
        assert_eq!(dirs.ids(), vec![Uuid::from_u128(1), Uuid::from_u128(2)]);
        // The fewest partitions first; an assignment wins.
        let tp = |p| TopicPartition {
            topic: "t".into(),
            partition: p,
        };
        for p in 0..4 {
            let d = dirs.place(Uuid::nil()).unwrap();
            d.logs()
                .unwrap()
                .get_or_create(&tp(p), LogConfig::default(), None)
                .unwrap();
        }
        let counts: Vec<usize> = dirs
            .all()
            .iter()
            .map(|d| d.logs().unwrap().partitions().len())
            .collect();
        assert_eq!(counts, vec![2, 2]);
        assert_eq!(
            dirs.place(Uuid::from_u128(2)).unwrap().id,
            Uuid::from_u128(2)
        );
        // Dir b is replaced by a file: its checkpoint fails and it goes offline, once.
        std::fs::rename(&b, root.path().join("b.gone")).unwrap();
        std::fs::write(&b, b"not a directory").unwrap();
        assert_eq!(dirs.checkpoint(false), vec![Uuid::from_u128(2)]);
        assert!(dirs.checkpoint(false).is_empty());
        assert_eq!(dirs.health().offline(), vec![Uuid::from_u128(2)]);
        let held = (0..4).filter(|p| dirs.locate(&tp(*p)).is_some()).count();
        assert_eq!(held, 2, "the partitions of dir a are still found");
        assert!((0..4).any(|p| dirs.held_offline(&tp(p)) == Some(Uuid::from_u128(2))));
        assert_eq!(
            dirs.place(Uuid::from_u128(2)).unwrap().id,
            Uuid::from_u128(1)
        );
        // Reopened, a dir that is a file is offline from the start; the other serves.
        let again = LogDirs::open(&[a, b], |_| LogConfig::default(), 1).unwrap();
        assert!(!again.all()[1].is_online());
        assert!(again.all()[0].is_online());
    }
}
