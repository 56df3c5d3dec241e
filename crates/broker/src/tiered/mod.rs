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
use fjord_tiered::rlmm::RemoteLogMetadataCache;
use fjord_tiered::store::{Backend, RemoteStore};
use std::collections::HashMap;
use std::sync::{Arc, Mutex, RwLock};
use std::time::Duration;
use tokio::sync::{watch, Semaphore};

/// The topic that holds every remote segment's metadata.
pub const REMOTE_LOG_METADATA_TOPIC: &str = "__remote_log_metadata";

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
    pending_reads: std::sync::atomic::AtomicUsize,
    indexes: Mutex<read::IndexCache>,
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
            deletions: Mutex::new(Vec::new()),
        }))
    }

    /// The store.
    pub fn store(&self) -> &RemoteStore {
        &self.store
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
