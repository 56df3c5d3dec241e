//! The coordinators that keep their state in an internal topic, over one runtime.
//!
//! - [`runtime`]: Kafka 4's coordinator runtime (one sans-IO shard per led partition of the
//!   coordinator's topic; a decision is a record, the answer goes out once it commits).
//! - [`group_coordinator`]: `__consumer_offsets` (classic, consumer and share groups).
//! - [`txn_coordinator`]: `__transaction_state` and the marker writer.
//! - [`producer_ids`]: idempotent producer ids from the controller's blocks.

pub(crate) mod group_coordinator;
pub(crate) mod producer_ids;
pub(crate) mod runtime;
pub(crate) mod txn_coordinator;
