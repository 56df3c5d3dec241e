//! fjord-controller: what the active controller decides, as pure functions of the metadata
//! image: each request yields the metadata records to append (one request, one atomic batch)
//! and the response to send once they commit, or an error with Kafka's code and message. The
//! runtime around it (proposing batches through KRaft, answering after commit, timers) lives
//! in [`active`].

pub mod active;
pub mod brokers;
pub mod configs;
pub mod controller;
pub mod delegation_tokens;
pub mod elections;
pub mod error;
pub mod metrics;
pub mod mutation_quota;
pub mod partitions;
pub mod quotas;
pub mod reassignments;
pub mod security;
pub mod settings;
pub mod tiered;
/// Kafka's topic and dynamic broker config keys (shared with the broker's DescribeConfigs).
pub use fjord_metadata::config_defs as topic_configs;
pub mod topics;

pub use controller::{not_controller, Controller, Counters, Handled};
pub use error::ControllerError;
pub use metrics::ControllerMetrics;
pub use settings::ControllerSettings;
