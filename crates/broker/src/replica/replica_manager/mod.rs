//! The partitions this broker hosts: their logs (in the broker's log dirs, [`LogDirs`]),
//! created, reconfigured and deleted as the metadata image changes (a new replica on the dir
//! the metadata assigned it, else the least loaded; where it went is told to the controller
//! with AssignReplicasToDirs); the replicas of a failed dir stop and answer
//! KAFKA_STORAGE_ERROR; and each one's leadership as the image says
//! (KRaft has no LeaderAndIsr: the image is the source of truth). Appends and reads go through
//! here; each partition has [`Watchers`], woken when its log end or high watermark moves, for
//! the long polls and acks waiting on it. The broker's replication throttles ([`Throttles`])
//! take their bounds from its dynamic configs, and each partition the lists of throttled
//! replicas naming it here. Blocking log work (opening, recovery, deletion) runs
//! off the async workers.

mod apply;

use crate::cluster::view::View;
use crate::replica::log_dirs::{is_storage_error, LogDirs};
pub use crate::replica::partition::{IsrOutbox, Leadership, Partition};
pub use apply::{log_config, min_insync_replicas, Applied};
use fjord_log::{LogConfig, LogDir, TopicPartition};
use fjord_metadata::MetadataImage;
use fjord_protocol::Uuid;
use std::collections::{BTreeMap, HashMap};
use std::sync::{Arc, RwLock};
use tokio::sync::watch;

/// A partition the image places here: its topic's name, its leadership, its topic's log
/// config (computed once per topic), its effective min ISR, its assigned dir and its
/// throttle bits.
type Wanted = (String, Leadership, Arc<LogConfig>, usize, Uuid, u8);

/// The most replica moves (AlterReplicaLogDirs) waiting at once.
pub const MAX_PENDING_MOVES: usize = 10_000;

/// Replica moves between this broker's log dirs.
#[derive(Debug, Default)]
pub struct Moves {
    /// Waiting or under way, in order: replica, target dir, progress.
    queue:
        std::collections::VecDeque<((Uuid, i32), Uuid, Arc<fjord_log::partition_log::Relocation>)>,
    /// Whether the mover thread runs.
    running: bool,
}

/// Replication settings from the broker's config.
#[derive(Debug, Clone)]
pub struct ReplicationSettings {
    /// `replica.lag.time.max.ms`.
    pub lag_max_ms: i64,
    /// `min.insync.replicas` (the broker default; a topic config overrides it).
    pub min_insync_replicas: usize,
}

impl Default for ReplicationSettings {
    fn default() -> ReplicationSettings {
        ReplicationSettings {
            lag_max_ms: 30_000,
            min_insync_replicas: 1,
        }
    }
}

/// The partitions this broker hosts.
#[derive(Debug)]
pub struct ReplicaManager {
    node_id: i32,
    /// Tiered storage, when `remote.log.storage.system.enable` turned it on.
    tiering: std::sync::OnceLock<Arc<crate::tiered::Tiering>>,
    dirs: Arc<LogDirs>,
    /// The replicas whose log dir is offline, with that dir.
    offline: RwLock<HashMap<(Uuid, i32), Uuid>>,
    /// Replicas whose dir the metadata does not know yet (AssignReplicasToDirs to send).
    unassigned: std::sync::Mutex<HashMap<(Uuid, i32), Uuid>>,
    /// Replicas being moved to another log dir (AlterReplicaLogDirs), in order, with the
    /// target dir and the copy's progress; one mover thread works through them.
    moves: std::sync::Mutex<Moves>,
    defaults: LogConfig,
    /// The hosted partitions, in (topic id, index) order (a topic's are one range).
    partitions: RwLock<BTreeMap<(Uuid, i32), Arc<Partition>>>,
    /// One application of the image at a time.
    applying: std::sync::Mutex<()>,
    /// The loader's publications this manager has applied.
    following: std::sync::Mutex<fjord_metadata::delta::Cursor>,
    /// The last image the hosted partitions were made to match, published with what changed
    /// among them (see [`Applied`]); the lock orders publications.
    applied: watch::Sender<Option<View>>,
    /// The last publication of `applied`.
    publishing: std::sync::Mutex<fjord_metadata::delta::Publication>,
    /// Partitions looked at while applying images, ever (what a change costs).
    visited: std::sync::atomic::AtomicU64,
    /// Replication settings.
    settings: ReplicationSettings,
    /// ISR proposals of the partitions this broker leads, for the AlterPartition sender.
    outbox: Arc<IsrOutbox>,
    /// True once the broker begins a graceful shutdown: long polls answer at once.
    stopping: watch::Sender<bool>,
    /// Bumped whenever a partition object is added to or removed from `partitions` (fetch
    /// sessions then look their partitions up again).
    generation: std::sync::atomic::AtomicU64,
    /// This broker's replication throttles (KIP-73), bounded by its dynamic configs.
    throttles: Arc<Throttles>,
    /// The dynamic keys set for this broker that fjord stores but does not act on, as last
    /// noted in the log.
    unused_keys: std::sync::Mutex<BTreeMap<String, String>>,
}

/// A broker's two replication throttles: what it sends as leader to out-of-sync followers
/// of throttled replicas, and what it fetches as an out-of-sync follower of them.
#[derive(Debug, Default)]
pub struct Throttles {
    /// `leader.replication.throttled.rate`.
    pub leader: fjord_quota::ReplicationQuota,
    /// `follower.replication.throttled.rate`.
    pub follower: fjord_quota::ReplicationQuota,
    /// `replica.alter.log.dirs.io.max.bytes.per.second`: copies between this broker's dirs.
    pub alter_log_dirs: Arc<fjord_quota::ReplicationQuota>,
}

impl ReplicaManager {
    /// A manager over `dir` (opened, recovered) for broker `node_id`; `defaults` are the
    /// broker-level log settings topic configs override.
    pub fn new(node_id: i32, dir: Arc<LogDir>, defaults: LogConfig) -> ReplicaManager {
        let path = dir.path().to_path_buf();
        let dirs = LogDirs::single(&path, dir);
        ReplicaManager::with_dirs(node_id, Arc::new(dirs), defaults)
    }

    /// A manager over every log dir of `dirs` (opened, recovered) for broker `node_id`.
    pub fn with_dirs(node_id: i32, dirs: Arc<LogDirs>, defaults: LogConfig) -> ReplicaManager {
        let offline = RwLock::default();
        ReplicaManager {
            node_id,
            tiering: std::sync::OnceLock::new(),
            dirs,
            offline,
            unassigned: Default::default(),
            moves: Default::default(),
            defaults,
            partitions: RwLock::default(),
            applying: std::sync::Mutex::new(()),
            following: Default::default(),
            publishing: Default::default(),
            visited: Default::default(),
            unused_keys: std::sync::Mutex::default(),
            applied: watch::Sender::new(None),
            stopping: watch::Sender::new(false),
            settings: ReplicationSettings::default(),
            outbox: Arc::default(),
            generation: Default::default(),
            throttles: Arc::default(),
        }
    }

    /// The same manager with these replication settings.
    pub fn with_replication(mut self, settings: ReplicationSettings) -> ReplicaManager {
        self.settings = settings;
        self
    }

    /// The replication settings.
    pub fn replication(&self) -> &ReplicationSettings {
        &self.settings
    }

    /// This broker's replication throttles.
    pub fn throttles(&self) -> &Arc<Throttles> {
        &self.throttles
    }

    /// The ISR proposals waiting for the AlterPartition sender.
    pub fn outbox(&self) -> &Arc<IsrOutbox> {
        &self.outbox
    }

    /// Begins a graceful shutdown: fetches waiting for data answer with what they have.
    pub fn begin_stopping(&self) {
        self.stopping.send_replace(true);
    }

    /// Turns true when the broker begins a graceful shutdown.
    pub fn stopping(&self) -> watch::Receiver<bool> {
        self.stopping.subscribe()
    }

    /// This broker's id.
    pub fn node_id(&self) -> i32 {
        self.node_id
    }

    /// The hosted-partition generation: it changes whenever a partition object is added or
    /// removed.
    pub fn generation(&self) -> u64 {
        self.generation.load(std::sync::atomic::Ordering::SeqCst)
    }

    /// Notes that the hosted partition objects changed.
    fn bump(&self) {
        self.generation
            .fetch_add(1, std::sync::atomic::Ordering::SeqCst);
    }

    /// A hosted partition by topic id and index.
    pub fn get(&self, topic_id: Uuid, index: i32) -> Option<Arc<Partition>> {
        self.partitions
            .read()
            .expect("partitions")
            .get(&(topic_id, index))
            .cloned()
    }

    /// The partition `name`/`index` when this broker leads it, checking the client's
    /// `current_leader_epoch` (-1: unchecked) as Kafka does: UNKNOWN_TOPIC_OR_PARTITION,
    /// NOT_LEADER_OR_FOLLOWER, FENCED_LEADER_EPOCH (older) or UNKNOWN_LEADER_EPOCH (newer).
    pub fn leader_of(
        &self,
        image: &MetadataImage,
        name: &str,
        index: i32,
        current_leader_epoch: i32,
    ) -> Result<Arc<Partition>, fjord_protocol::ErrorCode> {
        self.replica_of(image, name, index, current_leader_epoch, true)
    }

    /// This broker's replica of `name`-`index`, led here or not (`leader` false: Kafka's
    /// debugging replica id, which may read any local replica), with the same checks as
    /// [`ReplicaManager::leader_of`] otherwise.
    pub fn replica_of(
        &self,
        image: &MetadataImage,
        name: &str,
        index: i32,
        current_leader_epoch: i32,
        leader: bool,
    ) -> Result<Arc<Partition>, fjord_protocol::ErrorCode> {
        use fjord_protocol::ErrorCode;
        let topic = image
            .topics
            .get_by_name(name)
            .filter(|t| t.partitions.contains_key(&index))
            .ok_or(ErrorCode::UnknownTopicOrPartition)?;
        let p = self
            .get(topic.id, index)
            .filter(|p| !leader || p.led_by(self.node_id))
            .ok_or_else(|| self.not_served(topic.id, index))?;
        let epoch = p.leader_epoch();
        if current_leader_epoch >= 0 && current_leader_epoch < epoch {
            return Err(ErrorCode::FencedLeaderEpoch);
        }
        if current_leader_epoch > epoch {
            return Err(ErrorCode::UnknownLeaderEpoch);
        }
        Ok(p)
    }

    /// How many partitions this broker hosts.
    pub fn len(&self) -> usize {
        self.partitions.read().expect("partitions").len()
    }

    /// True when it hosts none.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Handles an error from the logs of dir `dir`: a storage error takes the dir offline
    /// (its replicas stop here); any other error is returned.
    pub fn storage_error(
        &self,
        dir: Uuid,
        e: fjord_log::LogError,
    ) -> Result<(), fjord_log::LogError> {
        if !is_storage_error(&e) || dir.is_nil() {
            return Err(e);
        }
        self.dir_failed(dir, &e.to_string());
        Ok(())
    }

    /// [`ReplicaManager::storage_error`] for an error met working on partition `p`, unless
    /// `p` is no longer the partition hosted under its key: removed (its log deleted under
    /// the work, as a reassignment away does) or replaced (moved to another dir) while the
    /// work ran. That error says nothing of the disk, and failing the dir for it would stop
    /// every replica it holds. Found by the fault tests: a replica reassigned away while its
    /// fetcher appended took its broker's only log dir offline (ENOENT on the checkpoint).
    pub fn partition_storage_error(
        &self,
        p: &Arc<Partition>,
        e: fjord_log::LogError,
    ) -> Result<(), fjord_log::LogError> {
        let hosted = self
            .get(p.topic_id, p.index)
            .is_some_and(|now| Arc::ptr_eq(&now, p));
        if !hosted {
            tracing::info!(
                topic = %p.topic,
                partition = p.index,
                "{e} (not a disk failure: the replica left this broker or its dir meanwhile)"
            );
            return Ok(());
        }
        self.storage_error(p.dir_id, e)
    }

    /// Log dir `dir` failed: it goes offline and every replica it holds stops on this broker
    /// (the next heartbeat tells the controller).
    pub fn dir_failed(&self, dir: Uuid, why: &str) {
        self.dirs.mark_offline(dir, why);
        let stopped: Vec<((Uuid, i32), Arc<Partition>)> = {
            let mut parts = self.partitions.write().expect("partitions");
            let keys: Vec<(Uuid, i32)> = parts
                .iter()
                .filter(|(_, p)| p.dir_id == dir)
                .map(|(k, _)| *k)
                .collect();
            keys.into_iter()
                .filter_map(|k| parts.remove(&k).map(|p| (k, p)))
                .collect()
        };
        self.bump();
        let mut offline = self.offline.write().expect("offline");
        let keys: Vec<(Uuid, i32)> = stopped.iter().map(|(k, _)| *k).collect();
        for (key, p) in stopped {
            p.stop();
            offline.insert(key, dir);
        }
        drop(offline);
        self.publish_local(keys);
    }

    /// Why a partition is not served here: KAFKA_STORAGE_ERROR when this broker's replica is
    /// on a failed log dir, else NOT_LEADER_OR_FOLLOWER. Only asked once the partition was not
    /// found among those served, so the serving path never looks at failed dirs.
    pub fn not_served(&self, topic_id: Uuid, index: i32) -> fjord_protocol::ErrorCode {
        if self.offline_dir_of(topic_id, index).is_some() {
            fjord_protocol::ErrorCode::KafkaStorageError
        } else {
            fjord_protocol::ErrorCode::NotLeaderOrFollower
        }
    }

    /// The offline log dir holding a replica of this broker, if its dir failed.
    pub fn offline_dir_of(&self, topic_id: Uuid, index: i32) -> Option<Uuid> {
        self.offline
            .read()
            .expect("offline")
            .get(&(topic_id, index))
            .copied()
    }

    /// The broker's log dirs.
    pub fn dirs(&self) -> &Arc<LogDirs> {
        &self.dirs
    }

    /// The replicas whose dir the controller has to be told, by dir (at most `max`).
    pub fn unassigned(&self, max: usize) -> Vec<((Uuid, i32), Uuid)> {
        self.unassigned
            .lock()
            .expect("unassigned")
            .iter()
            .take(max)
            .map(|(k, v)| (*k, *v))
            .collect()
    }

    /// The controller took these assignments.
    pub fn assigned(&self, done: &[((Uuid, i32), Uuid)]) {
        let mut u = self.unassigned.lock().expect("unassigned");
        for (k, dir) in done {
            if u.get(k) == Some(dir) {
                u.remove(k);
            }
        }
    }

    /// AlterReplicaLogDirs: each named replica this broker hosts is moved, in the background,
    /// to the log dir at the given path; per partition LOG_DIR_NOT_FOUND (no such dir),
    /// KAFKA_STORAGE_ERROR (the dir or the replica's dir is offline),
    /// UNKNOWN_TOPIC_OR_PARTITION, REPLICA_NOT_AVAILABLE (not hosted here), or none (queued,
    /// or already there).
    pub fn alter_replica_log_dirs(
        self: &Arc<Self>,
        image: &MetadataImage,
        r: &fjord_protocol::generated::alter_replica_log_dirs_request::AlterReplicaLogDirsRequest,
    ) -> fjord_protocol::generated::alter_replica_log_dirs_response::AlterReplicaLogDirsResponse
    {
        use fjord_protocol::generated::alter_replica_log_dirs_response as ar;
        use fjord_protocol::ErrorCode;
        let mut results: Vec<ar::AlterReplicaLogDirTopicResult> = Vec::new();
        for d in &r.dirs {
            let dir = self
                .dirs
                .all()
                .iter()
                .find(|x| x.path == std::path::Path::new(&d.path));
            for t in &d.topics {
                let mut result = ar::AlterReplicaLogDirTopicResult {
                    topic_name: t.name.clone(),
                    ..Default::default()
                };
                for index in &t.partitions {
                    let code = match (dir, image.topics.get_by_name(&t.name)) {
                        (None, _) => ErrorCode::LogDirNotFound,
                        (Some(x), _) if !x.is_online() => ErrorCode::KafkaStorageError,
                        (_, None) => ErrorCode::UnknownTopicOrPartition,
                        (_, Some(topic)) if !topic.partitions.contains_key(index) => {
                            ErrorCode::UnknownTopicOrPartition
                        }
                        (Some(x), Some(topic)) => {
                            let key = (topic.id, *index);
                            if self.offline_dir_of(key.0, key.1).is_some() {
                                ErrorCode::KafkaStorageError
                            } else {
                                match self.get(key.0, key.1) {
                                    None => ErrorCode::ReplicaNotAvailable,
                                    Some(p) if p.dir_id == x.id => ErrorCode::None,
                                    Some(_) => self.queue_move(key, x.id),
                                }
                            }
                        }
                    };
                    result
                        .partitions
                        .push(ar::AlterReplicaLogDirPartitionResult {
                            partition_index: *index,
                            error_code: code.code(),
                            ..Default::default()
                        });
                }
                results.push(result);
            }
        }
        ar::AlterReplicaLogDirsResponse {
            results,
            ..Default::default()
        }
    }

    /// Queues the move of `key` to dir `target` and makes sure the mover runs.
    fn queue_move(self: &Arc<Self>, key: (Uuid, i32), target: Uuid) -> fjord_protocol::ErrorCode {
        let mut m = self.moves.lock().expect("moves");
        if m.queue.iter().any(|(k, _, _)| *k == key) {
            return fjord_protocol::ErrorCode::None; // already moving
        }
        if m.queue.len() >= MAX_PENDING_MOVES {
            return fjord_protocol::ErrorCode::PolicyViolation;
        }
        let progress =
            fjord_log::partition_log::Relocation::throttled(self.throttles.alter_log_dirs.clone());
        m.queue.push_back((key, target, Arc::new(progress)));
        if !m.running {
            m.running = true;
            let me = self.clone();
            let spawned = std::thread::Builder::new()
                .name("log-dir-mover".into())
                .spawn(move || me.run_moves());
            if spawned.is_err() {
                m.running = false;
                m.queue.pop_back();
                return fjord_protocol::ErrorCode::UnknownServerError;
            }
        }
        fjord_protocol::ErrorCode::None
    }

    /// The replicas being moved: (replica, target dir, progress).
    pub fn moving(&self) -> Vec<((Uuid, i32), Uuid, Arc<fjord_log::partition_log::Relocation>)> {
        self.moves
            .lock()
            .expect("moves")
            .queue
            .iter()
            .map(|(k, d, p)| (*k, *d, p.clone()))
            .collect()
    }

    /// The mover thread: one move at a time, until the queue is empty.
    fn run_moves(self: Arc<Self>) {
        loop {
            let next = {
                let mut m = self.moves.lock().expect("moves");
                match m.queue.front() {
                    Some((k, d, p)) => (*k, *d, p.clone()),
                    None => {
                        m.running = false;
                        return;
                    }
                }
            };
            let (key, target, progress) = next;
            if let Err(e) = self.move_replica(key, target, &progress) {
                tracing::error!(partition = ?key, "moving the replica to another log dir: {e}");
            }
            self.moves.lock().expect("moves").queue.pop_front();
        }
    }

    /// Moves replica `key` to dir `target` (AlterReplicaLogDirs): the log is copied there,
    /// then, while its appends wait, the copy is opened, the old directory deleted and the
    /// partition served from the new one; the controller is then told (AssignReplicasToDirs).
    fn move_replica(
        &self,
        key: (Uuid, i32),
        target: Uuid,
        progress: &fjord_log::partition_log::Relocation,
    ) -> Result<(), fjord_log::LogError> {
        let Some(old) = self.get(key.0, key.1) else {
            return Ok(()); // gone meanwhile
        };
        let (Some(to), Some(from)) = (
            self.dirs.by_id(target).and_then(|d| d.logs().cloned()),
            self.dirs.by_id(old.dir_id).and_then(|d| d.logs().cloned()),
        ) else {
            return Ok(()); // a dir went offline meanwhile
        };
        let tp = TopicPartition {
            topic: old.topic.clone(),
            partition: old.index,
        };
        // The long copy runs while everything goes on; the hand-over, with the images held
        // back (so the partition's leadership cannot change under it) and its appends waiting.
        let copy = old.log.begin_relocation(to.path(), progress)?;
        let _one_at_a_time = self.applying.lock().expect("applying");
        let current = self.get(key.0, key.1);
        if !current.as_ref().is_some_and(|c| Arc::ptr_eq(c, &old)) {
            copy.abandon();
            return Ok(()); // deleted or taken offline meanwhile
        }
        let image = self.applied.borrow().as_ref().map(|v| v.image.clone());
        let min_isr = image
            .as_ref()
            .map_or(1, |i| min_insync_replicas(&self.settings, i, &old.topic));
        let moved = old
            .log
            .finish_relocation(copy, progress, |dir, checkpointed| {
                let (log, _) =
                    fjord_log::PartitionLog::open(dir, old.log.config(), checkpointed, true)?;
                let log = Arc::new(log);
                // The old directory goes first: a restart from here on finds only the new one.
                from.delete(&tp)?;
                to.adopt(&tp, log.clone());
                let new = Arc::new(
                    Partition::new(
                        old.topic.clone(),
                        old.topic_id,
                        old.index,
                        log,
                        self.outbox.clone(),
                    )
                    .in_dir(target),
                );
                let leadership = old.leadership();
                let effective = min_isr.min(leadership.replicas.len()).max(1);
                new.set_leadership(
                    self.node_id,
                    leadership,
                    effective,
                    self.settings.lag_max_ms,
                    fjord_util::monotonic_ms(),
                );
                self.partitions
                    .write()
                    .expect("partitions")
                    .insert(key, new);
                self.bump();
                Ok(())
            });
        // On failure the replica stays where it was; a failed disk is found by the next
        // checkpoint of its dir.
        moved?;
        old.stop();
        self.publish_local([key]);
        self.unassigned
            .lock()
            .expect("unassigned")
            .insert(key, target);
        tracing::info!(
            topic = %tp.topic,
            partition = tp.partition,
            to = %to.path().display(),
            "replica moved to another log dir"
        );
        Ok(())
    }

    /// The ISR check every half `replica.lag.time.max.ms` (as Kafka's isr-expiration task):
    /// each led partition proposes dropping the followers that fell behind. The pass visits
    /// every hosted partition (tens of milliseconds at 100,000), so it runs off the async
    /// workers.
    pub async fn check_isr(self: Arc<Self>) {
        let period = std::time::Duration::from_millis(
            u64::try_from(self.settings.lag_max_ms / 2)
                .unwrap_or(1)
                .max(1),
        );
        loop {
            tokio::time::sleep(period).await;
            let me = self.clone();
            let _ = tokio::task::spawn_blocking(move || {
                let now = fjord_util::monotonic_ms();
                for p in me.all() {
                    p.tick(now);
                }
            })
            .await;
        }
    }

    /// Tiered storage, if it is on.
    pub fn tiering(&self) -> Option<&Arc<crate::tiered::Tiering>> {
        self.tiering.get()
    }

    /// Turns tiered storage on (once, at start).
    pub fn set_tiering(&self, tiering: Arc<crate::tiered::Tiering>) {
        let _ = self.tiering.set(tiering);
    }

    /// True when a hosted partition's topic keeps its history in tiered storage.
    pub fn has_tiered_partitions(&self) -> bool {
        self.partitions
            .read()
            .expect("partitions")
            .values()
            .any(|p| p.log.config().remote_storage)
    }

    /// Every hosted partition.
    pub fn all(&self) -> Vec<Arc<Partition>> {
        self.partitions
            .read()
            .expect("partitions")
            .values()
            .cloned()
            .collect()
    }

    /// One retention pass (`log.retention.check.interval.ms`): segments past `retention.ms` or
    /// `retention.bytes` (or below a DeleteRecords start) are deleted, and files whose
    /// `file.delete.delay.ms` passed are unlinked. Blocking: run it off the async workers.
    /// Returns the segments deleted.
    pub fn apply_retention(&self, now_ms: i64) -> usize {
        let mut deleted = 0;
        for p in self.all() {
            let start = p.log.log_start_offset();
            match p.log.apply_retention(now_ms) {
                Ok(n) => {
                    deleted += n;
                    // Followers' fetches see a moved log start and follow it.
                    if p.log.log_start_offset() != start {
                        p.watchers.wake();
                    }
                }
                Err(e) => {
                    tracing::error!(topic = %p.topic, partition = p.index, "retention: {e}");
                    let _ = self.partition_storage_error(&p, e);
                }
            }
            if let Err(e) = p.log.delete_expired_files(now_ms) {
                tracing::error!(topic = %p.topic, partition = p.index, "deleting files: {e}");
                let _ = self.partition_storage_error(&p, e);
            }
        }
        deleted
    }

    /// Writes the recovery-point, log-start, high-watermark and cleaner checkpoints.
    /// Blocking: run it off the async workers.
    /// A dir whose checkpoint cannot be written goes offline (as Kafka's checkpoint failure
    /// does).
    pub fn checkpoint(&self) -> Result<(), fjord_log::LogError> {
        self.checkpoint_some(false)
    }

    /// Writes the high-watermark checkpoints only (Kafka's
    /// `replica.high.watermark.checkpoint.interval.ms` work).
    pub fn checkpoint_high_watermarks(&self) -> Result<(), fjord_log::LogError> {
        self.checkpoint_some(true)
    }

    fn checkpoint_some(&self, high_watermarks_only: bool) -> Result<(), fjord_log::LogError> {
        for dir in self.dirs.checkpoint(high_watermarks_only) {
            self.dir_failed(dir, "writing checkpoints failed");
        }
        Ok(())
    }

    /// Flushes every log and writes the checkpoints and the clean-shutdown marker.
    pub fn shutdown(&self, broker_epoch: i64) -> Result<(), fjord_log::LogError> {
        self.dirs.shutdown(broker_epoch)
    }
}
