//! Tiered storage on the broker (KIP-405): the remote log metadata topic
//! (`__remote_log_metadata`, written and read over the wire like any topic, folded into one
//! cache per broker: [`metadata`]), the remote log manager of every tiered partition this
//! broker leads, which copies and expires segments, and the store coverage every hosted
//! tiered partition's local retention waits for ([`driver`]), and reads below a leader's
//! local log start served from the store ([`read`]).

pub mod driver;
pub mod metadata;
pub mod read;

use crate::cluster::controller_client::ControllerClient;
use crate::cluster::peers::Peers;
use crate::replica::replica_manager::ReplicaManager;
use crate::View;
use fjord_quota::replication::ReplicationQuota;
use fjord_tiered::rlmm::RemoteLogMetadataCache;
use fjord_tiered::store::{Backend, RemoteStore};
use std::collections::HashMap;
use std::sync::{Arc, Mutex, RwLock};
use std::time::Duration;
use tokio::sync::{watch, Semaphore};

/// The topic that holds every remote segment's metadata.
pub const REMOTE_LOG_METADATA_TOPIC: &str = "__remote_log_metadata";

/// The most ranges of store offsets a replica's history does not share that
/// GetReplicaLogInfo reports (docs/EXTENSIONS.md).
pub const MAX_UNSHARED_RANGES: usize = 100;

/// Tiered storage's settings (present only with `remote.log.storage.system.enable`).
#[derive(Debug, Clone)]
pub struct TieringConfig {
    /// Where the store is.
    pub backend: Backend,
    /// The key prefix of every object (`rsm.config.key.prefix`).
    pub prefix: String,
    /// `remote.log.manager.task.interval.ms`.
    pub task_interval: Duration,
    /// `remote.log.manager.task.retry.backoff.ms`.
    pub backoff_ms: i64,
    /// `remote.log.manager.task.retry.backoff.max.ms`.
    pub backoff_max_ms: i64,
    /// `remote.log.manager.copier.thread.pool.size`: segment copies at once.
    pub copiers: usize,
    /// `remote.log.manager.expiration.thread.pool.size`: segment deletions at once.
    pub expirers: usize,
    /// `remote.log.manager.copy.max.bytes.per.second` from the properties (a dynamic
    /// broker config, this node's or the cluster's, takes its place).
    pub copy_max_bytes_per_second: u64,
    /// `remote.log.manager.fetch.max.bytes.per.second` from the properties (likewise).
    pub fetch_max_bytes_per_second: u64,
    /// `remote.log.reader.threads`: reads from the store at once.
    pub reader_threads: usize,
    /// `remote.log.reader.max.pending.tasks`: reads that may wait for one of them.
    pub reader_max_pending: usize,
    /// `remote.fetch.max.wait.ms`: how long a fetch waits for a read from the store.
    pub fetch_max_wait: Duration,
    /// `rlmm.config.remote.log.metadata.topic.num.partitions`.
    pub metadata_partitions: i32,
    /// `rlmm.config.remote.log.metadata.topic.replication.factor`.
    pub metadata_replication_factor: i16,
    /// `rlmm.config.remote.log.metadata.topic.retention.ms`.
    pub metadata_retention_ms: i64,
}

/// Tiered storage's state on one broker.
pub struct Tiering {
    node_id: i32,
    config: TieringConfig,
    store: RemoteStore,
    cache: RwLock<RemoteLogMetadataCache>,
    /// Per partition of the metadata topic, the offset after the last value folded.
    folded: Mutex<HashMap<i32, i64>>,
    /// Bumped whenever values are folded.
    folded_tx: watch::Sender<u64>,
    replicas: Arc<ReplicaManager>,
    view: watch::Receiver<View>,
    /// Connections for publishing (a reader's long polls never hold a publish up).
    peers: Arc<Peers>,
    /// Connections for reading the metadata topic.
    reader_peers: Peers,
    controller: Arc<ControllerClient>,
    reads: Semaphore,
    /// Segment copies running (`remote.log.manager.copier.thread.pool.size`).
    copiers: Semaphore,
    /// Segment deletions running (`remote.log.manager.expiration.thread.pool.size`).
    expirers: Semaphore,
    /// The bytes copied to the store, against `remote.log.manager.copy.max.bytes.per.second`.
    copy_quota: ReplicationQuota,
    /// The bytes read from the store, against `remote.log.manager.fetch.max.bytes.per.second`.
    fetch_quota: ReplicationQuota,
    pending_reads: std::sync::atomic::AtomicUsize,
    indexes: Mutex<read::IndexCache>,
    txn_indexes: Mutex<read::IndexCache<fjord_log::txn_index::AbortedTxn>>,
    chunks: Mutex<read::ChunkCache>,
    /// True once the cache holds at least what the store held at start (every metadata
    /// partition read to its high watermark once): until then no manager runs (a listing
    /// would take unfolded segments for orphans) and reads below the local log start are
    /// answered REPLICA_NOT_AVAILABLE (retriable), not OFFSET_OUT_OF_RANGE.
    ready: std::sync::atomic::AtomicBool,
    /// Partitions whose follower is starting over after what the store holds.
    starting: Mutex<std::collections::HashSet<(fjord_protocol::Uuid, i32)>>,
    /// The metadata partitions read to their high watermark so far.
    caught: Mutex<std::collections::BTreeSet<i32>>,
    /// Partitions of deleted tiered topics whose store copy is still to delete.
    deletions: Mutex<Vec<fjord_tiered::records::TopicIdPartition>>,
}

impl std::fmt::Debug for Tiering {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Tiering")
            .field("node_id", &self.node_id)
            .field("store", &self.store.describe())
            .finish()
    }
}

impl Tiering {
    /// Tiered storage for broker `node_id` (no request is made yet).
    pub fn new(
        node_id: i32,
        config: TieringConfig,
        replicas: Arc<ReplicaManager>,
        view: watch::Receiver<View>,
        peers: Arc<Peers>,
        controller: Arc<ControllerClient>,
    ) -> Result<Arc<Tiering>, fjord_tiered::TieredError> {
        let store = RemoteStore::open(&config.backend, &config.prefix)?;
        tracing::info!(store = store.describe(), "tiered storage is on");
        Ok(Arc::new(Tiering {
            node_id,
            reads: Semaphore::new(config.reader_threads.max(1)),
            copiers: Semaphore::new(config.copiers.max(1)),
            expirers: Semaphore::new(config.expirers.max(1)),
            copy_quota: ReplicationQuota::default(),
            fetch_quota: ReplicationQuota::default(),
            config,
            store,
            cache: RwLock::new(RemoteLogMetadataCache::default()),
            folded: Mutex::new(HashMap::new()),
            folded_tx: watch::channel(0).0,
            replicas,
            view,
            reader_peers: Peers::new(peers.listener.clone(), peers.security.clone()),
            peers,
            controller,
            pending_reads: std::sync::atomic::AtomicUsize::new(0),
            indexes: Mutex::new(read::IndexCache::default()),
            txn_indexes: Mutex::new(read::IndexCache::default()),
            chunks: Mutex::new(read::ChunkCache::default()),
            deletions: Mutex::new(Vec::new()),
            ready: std::sync::atomic::AtomicBool::new(false),
            caught: Mutex::new(Default::default()),
            starting: Mutex::new(Default::default()),
        }))
    }

    /// The store.
    pub fn store(&self) -> &RemoteStore {
        &self.store
    }

    /// Sets the copy and fetch quotas' bounds from the image's dynamic broker configs (this
    /// node's, else the cluster's), else the properties'.
    fn refresh_quotas(&self) {
        use fjord_configdef::broker;
        let image = self.view.borrow().image.clone();
        let me = self.node_id.to_string();
        let bound = |key: &str, fallback: u64| {
            image
                .configs
                .get(fjord_metadata::config_defs::BROKER, &me, key)
                .or_else(|| {
                    image
                        .configs
                        .get(fjord_metadata::config_defs::BROKER, "", key)
                })
                .and_then(|v| v.trim().parse::<u64>().ok())
                .unwrap_or(fallback)
        };
        self.copy_quota.set_bound(bound(
            broker::REMOTE_LOG_MANAGER_COPY_MAX_BYTES_PER_SECOND.name,
            self.config.copy_max_bytes_per_second,
        ));
        self.fetch_quota.set_bound(bound(
            broker::REMOTE_LOG_MANAGER_FETCH_MAX_BYTES_PER_SECOND.name,
            self.config.fetch_max_bytes_per_second,
        ));
    }

    /// Fills in what the store holds of `p` against this replica's history (GetReplicaLogInfo's
    /// remote fields): the first offset of its history there, the store's end, and the
    /// ranges the store holds that its history does not share (the first
    /// [`MAX_UNSHARED_RANGES`]).
    pub fn describe_store_for(
        &self,
        p: &crate::replica::partition::Partition,
        info: &mut fjord_protocol::generated::get_replica_log_info_response::PartitionLogInfo,
    ) {
        use fjord_protocol::generated::get_replica_log_info_response::OffsetRange;
        let epochs = epochs_of(&p.log);
        let lineage = fjord_tiered::rlmm::Lineage {
            epochs: &epochs,
            end_offset: p.log.log_end_offset(),
        };
        self.with_cache(|c| {
            let Some(r) = c.partition(&topic_id_partition(p)) else {
                return;
            };
            info.remote_log_start_offset = r.start_offset(lineage).unwrap_or(-1);
            info.remote_log_end_offset = r.end_offset().unwrap_or(-1);
            info.remote_unshared_ranges = r
                .unshared(lineage)
                .into_iter()
                .take(MAX_UNSHARED_RANGES)
                .map(|(start_offset, end_offset)| OffsetRange {
                    start_offset,
                    end_offset,
                    ..Default::default()
                })
                .collect();
        });
    }

    /// The last offset of `p`'s history the store holds, -1 when none (ListOffsets -5,
    /// Kafka's highest offset in remote storage).
    pub fn highest_offset(&self, p: &crate::replica::partition::Partition) -> i64 {
        let epochs = epochs_of(&p.log);
        let lineage = fjord_tiered::rlmm::Lineage {
            epochs: &epochs,
            end_offset: p.log.log_end_offset(),
        };
        self.with_cache(|c| {
            c.partition(&topic_id_partition(p))
                .and_then(|r| r.highest_offset(lineage))
                .unwrap_or(-1)
        })
    }

    /// The bytes of `p`'s readable segments in the store (DescribeLogDirs' `RemoteSize`).
    pub fn remote_size(&self, p: &crate::replica::partition::Partition) -> i64 {
        self.with_cache(|c| {
            c.partition(&topic_id_partition(p))
                .map_or(0, |r| i64::try_from(r.size_bytes()).unwrap_or(i64::MAX))
        })
    }

    /// Whether the metadata cache caught up with the topic since the broker started.
    pub fn is_ready(&self) -> bool {
        self.ready.load(std::sync::atomic::Ordering::Acquire)
    }

    /// Reads the metadata cache.
    pub fn with_cache<T>(&self, f: impl FnOnce(&RemoteLogMetadataCache) -> T) -> T {
        f(&self.cache.read().expect("remote log metadata"))
    }
}

/// The topic-and-partition of `p` as tiered storage names it.
pub fn topic_id_partition(
    p: &crate::replica::partition::Partition,
) -> fjord_tiered::records::TopicIdPartition {
    fjord_tiered::records::TopicIdPartition {
        topic_id: p.topic_id,
        topic: p.topic.clone(),
        partition: p.index,
    }
}

/// A log's leader epochs as `(epoch, first offset)`, as a [`fjord_tiered::rlmm::Lineage`]
/// takes them.
pub fn epochs_of(log: &fjord_log::PartitionLog) -> Vec<(i32, i64)> {
    log.epoch_entries()
        .into_iter()
        .map(|e| (e.epoch, e.start_offset))
        .collect()
}
