//! fjord-broker: the broker role. [`Broker::start`] is its front door: it opens the broker's
//! partitions and starts every part that keeps them, and returns the [`BrokerHandle`] the
//! server serves listeners with and stops. The modules are private and grouped by concern:
//!
//! - `api/`: the request handlers (the broker listener's dispatch, ACL check first, and one
//!   module per family of requests);
//! - `data/`: Produce, Fetch, fetch sessions, delayed operations and client quotas;
//! - `replica/`: the replica manager (following metadata deltas), partitions, log dirs,
//!   replica fetchers, ISR updates and log upkeep;
//! - `coordinator/`: the coordinator runtime and the group and transaction coordinators;
//! - `share/`: share groups (ShareFetch, the persister, the share coordinator, DLQs);
//! - `cluster/`: the metadata view, registration and heartbeats, the controller client and
//!   connections to peers.
//!
//! What is exported beyond the front door is what the server composes (the controller's
//! registration, the settings it types), what the metrics endpoint and the controller listener
//! read, and the parts the crate's own tests and benches drive directly.

mod api;
mod cluster;
mod coordinator;
mod data;
pub mod error;
mod replica;
mod share;
mod start;
mod tiered;

pub use cluster::view::View;
pub use start::{Broker, BrokerConfig, BrokerDeps, BrokerHandle, Metered};

// The settings the server types into a `BrokerConfig`.
pub use api::describe_configs::{KnownKey, StaticConfig};
pub use api::telemetry::ClientTelemetry;
pub use coordinator::group_coordinator::CoordinatorConfig;
pub use coordinator::txn_coordinator::TxnCoordinatorConfig;
pub use replica::maintenance::MaintenanceSettings;
pub use replica::replica_fetcher::FetcherSettings;
pub use replica::replica_manager::ReplicationSettings;
pub use share::coordinator::ShareCoordinatorConfig;
pub use share::dlq::DlqConfig;
pub use share::fetch::ShareLeaderConfig;
pub use tiered::{TieringConfig, REMOTE_LOG_METADATA_TOPIC};

// What every node (a controller too) uses: the active controller and its registration.
pub use cluster::controller_client::{ActiveController, ControllerClient};
pub use cluster::lifecycle::{
    spawn_controller_registration, Advertised, BrokerState, ControllerIdentity,
};

// What the controller listener answers the same way a broker does.
pub use api::delegation_tokens::refusal as delegation_token_refusal;
pub use api::listener::node_features;
pub use api::security_requests::describe_acls;

// What the metrics endpoint reads.
pub use coordinator::group_coordinator::GroupCoordinator;
pub use coordinator::txn_coordinator::TxnCoordinator;
pub use data::quotas::BrokerQuotas;
pub use replica::partition::Partition;
pub use replica::replica_manager::ReplicaManager;
pub use share::fetch::{ShareFetcher, ShareStats};

/// The parts of a broker its tests and benches drive directly, below the front door.
pub mod parts {
    pub use crate::api::groups::Groups;
    pub use crate::api::listener::BrokerHandler;
    pub use crate::cluster::peers::Peers;
    pub use crate::coordinator::producer_ids::ProducerIds;
    pub use crate::coordinator::txn_coordinator::MarkerWriter;
    pub use crate::data::fetch::fetch;
    pub use crate::data::fetch_session::SessionCache;
    pub use crate::data::produce::{append, verify};
    pub use crate::replica::replica_fetcher::ReplicaFetchers;
    pub use crate::share::coordinator::ShareCoordinator;
    pub use crate::share::persister::{Persister, SharePartitionKey};
}
