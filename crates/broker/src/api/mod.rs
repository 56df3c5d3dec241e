//! The request handlers: the broker listener ([`listener`], one `match` from API key to
//! handler) and, one module per family, the answers it gives. Each handler reads the image it
//! is answered from and calls into `data`, `replica`, `coordinator` or `share` for the work.
//!
//! - [`listener`]: the `Handler` of every broker listener (ACL check first, then dispatch).
//! - [`metadata`], [`describe_topic_partitions`], [`client_quotas`], [`security_requests`],
//!   [`describe_configs`]: answers that are pure functions of the image (and the static config).
//! - [`log_requests`], [`offsets`], [`replica_log_info`], [`txn_markers`]: partition-log
//!   requests besides Produce and Fetch.
//! - [`groups`], [`offset_topic_ids`], [`transactions`], [`delegation_tokens`]: the
//!   coordinator-bound requests.
//! - [`telemetry`]: client telemetry (KIP-714), GetTelemetrySubscriptions and PushTelemetry.

pub(crate) mod client_quotas;
pub(crate) mod delegation_tokens;
pub(crate) mod describe_configs;
pub(crate) mod describe_topic_partitions;
pub(crate) mod groups;
pub(crate) mod listener;
pub(crate) mod log_requests;
pub(crate) mod metadata;
pub(crate) mod offset_topic_ids;
pub(crate) mod offsets;
pub(crate) mod replica_log_info;
pub(crate) mod security_requests;
pub mod telemetry;
pub(crate) mod transactions;
pub(crate) mod txn_markers;
