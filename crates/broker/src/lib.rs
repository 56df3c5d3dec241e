//! fjord-broker: the broker role. Its view of the cluster (the metadata image every node folds
//! from the metadata log), the broker listener (ApiVersions, Metadata and DescribeCluster
//! answered from that view; controller-bound admin requests forwarded to the active
//! controller), and its standing with the controller (registration, heartbeats, controlled
//! shutdown), the data plane (the replica manager, Produce, Fetch, offsets and log requests),
//! GetReplicaLogInfo for recovery tools, the group coordinator's driver and group APIs, and
//! every request checked against the ACLs (`fjord_metadata::authorization`) first.

pub mod client_quotas;
pub mod controller_client;
pub mod coordinator_runtime;
pub mod delayed;
pub mod delegation_tokens;
pub mod describe_configs;
pub mod describe_topic_partitions;
pub mod dir_assignments;
pub mod error;
pub mod fetch;
pub mod fetch_session;
pub mod group_coordinator;
pub mod groups;
pub mod inline_io;
pub mod isr_updates;
pub mod lifecycle;
pub mod listener;
pub mod log_dirs;
pub mod log_requests;
pub mod metadata;
pub mod offset_topic_ids;
pub mod offsets;
pub mod partition;
pub mod peers;
pub mod produce;
pub mod producer_ids;
pub mod quotas;
pub mod replica_fetcher;
pub mod replica_log_info;
pub mod replica_manager;
pub mod security_requests;
pub mod share_coordinator;
pub mod share_dlq;
pub mod share_fetch;
pub mod share_offsets;
pub mod share_persister;
pub mod transactions;
pub mod txn_coordinator;
pub mod txn_markers;
pub mod view;

pub use view::View;
