//! The replicas this broker hosts and their replication.
//!
//! - [`replica_manager`]: the hosted partitions, created, changed and deleted as metadata
//!   deltas say; it publishes what it applied to everything below it.
//! - [`partition`]: one hosted partition (its log, leadership, leader state, ISR outbox).
//! - [`log_dirs`] and [`dir_assignments`]: `log.dirs`, their health, and AssignReplicasToDirs.
//! - [`replica_fetcher`]: the follower side of replication.
//! - [`isr_updates`]: the AlterPartition sender.
//! - [`maintenance`]: retention, producer expiry, checkpoints and the log cleaner.

pub(crate) mod dir_assignments;
pub(crate) mod isr_updates;
pub(crate) mod log_dirs;
pub(crate) mod maintenance;
pub(crate) mod partition;
pub(crate) mod replica_fetcher;
pub(crate) mod replica_manager;
