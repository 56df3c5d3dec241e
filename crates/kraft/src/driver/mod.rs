//! The tokio driver around the core: the Raft node runs on its own thread (so fsyncs and log
//! reads never block an async worker), fed by a channel of events (requests from the
//! controller listener, responses from peers, proposals) and ticked every few milliseconds.
//! Peers are reached by per-peer tasks on the tokio runtime, in Kafka's wire format
//! ([`wire`]). Callers hold a [`RaftHandle`]: propose batches, read the committed stream, watch
//! the quorum state, manage voters, and answer the Raft APIs of the controller listener.

mod admin;
mod event_loop;
mod handle;
mod peers;
pub mod wire;

pub use event_loop::StartError;
pub use handle::{
    Committed, ProposeError, QuorumInfo, RaftHandle, SnapshotRequestError, VoterChangeFailure,
};

use fjord_protocol::Uuid;
use fjord_raft::control::{Endpoint, VoterSet};
use fjord_raft::node::RaftConfig;
use fjord_raft::types::NodeId;
use std::path::PathBuf;

/// Kafka's `controller.quorum.*` settings and defaults, plus what the node is.
#[derive(Debug, Clone)]
pub struct DriverConfig {
    /// `node.id`.
    pub node_id: NodeId,
    /// The cluster id from `meta.properties`.
    pub cluster_id: String,
    /// The metadata log directory's id (KIP-853's replica directory id).
    pub directory_id: Uuid,
    /// The `__cluster_metadata-0` directory.
    pub metadata_dir: PathBuf,
    /// `controller.quorum.voters`, with endpoints (empty for a dynamic quorum).
    pub static_voters: VoterSet,
    /// `controller.quorum.bootstrap.servers` (host, port).
    pub bootstrap_servers: Vec<(String, u16)>,
    /// This node's controller listener, if it has one.
    pub endpoint: Option<Endpoint>,
    /// `controller.quorum.election.timeout.ms` (1000).
    pub election_timeout_ms: i64,
    /// `controller.quorum.fetch.timeout.ms` (2000).
    pub fetch_timeout_ms: i64,
    /// `controller.quorum.request.timeout.ms` (2000).
    pub request_timeout_ms: i64,
    /// `controller.quorum.retry.backoff.ms` (20).
    pub retry_backoff_ms: i64,
    /// How long the leader holds a fetch with nothing new (Kafka's 500 ms).
    pub fetch_max_wait_ms: i32,
    /// The most snapshot bytes per FetchSnapshot response.
    pub snapshot_chunk_bytes: i32,
    /// How connections to the other controllers authenticate (the controller listener's
    /// security protocol).
    pub security: fjord_net::security::ClientSecurity,
}

impl DriverConfig {
    /// A configuration with Kafka's defaults for the timers.
    pub fn new(node_id: NodeId, cluster_id: String, metadata_dir: PathBuf) -> DriverConfig {
        DriverConfig {
            node_id,
            cluster_id,
            directory_id: Uuid::nil(),
            metadata_dir,
            static_voters: VoterSet::new(),
            bootstrap_servers: Vec::new(),
            endpoint: None,
            election_timeout_ms: 1_000,
            fetch_timeout_ms: 2_000,
            request_timeout_ms: 2_000,
            retry_backoff_ms: 20,
            fetch_max_wait_ms: 500,
            snapshot_chunk_bytes: 1 << 20,
            security: fjord_net::security::ClientSecurity::plaintext(),
        }
    }

    /// The core's configuration: followers fetch again at once, since the leader holds
    /// fetches until there is news.
    pub fn raft_config(&self) -> RaftConfig {
        RaftConfig {
            election_timeout_ms: self.election_timeout_ms,
            fetch_timeout_ms: self.fetch_timeout_ms,
            fetch_idle_ms: 0,
            retry_backoff_ms: self.retry_backoff_ms,
            request_timeout_ms: self.request_timeout_ms + i64::from(self.fetch_max_wait_ms),
            max_fetch_entries: 1_024,
            max_snapshot_chunk: usize::try_from(self.snapshot_chunk_bytes).unwrap_or(1 << 20),
        }
    }
}
