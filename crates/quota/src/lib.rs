//! Rates and quotas, sans-IO (every call takes the time): Kafka's windowed sampled rate
//! ([`SampledRate`]), the throttle time a rate above its bound costs ([`throttle_time_ms`]),
//! and replication throttles ([`replication`]): which replicas a broker throttles and the
//! shared byte rate their fetches may use.

pub mod rate;
pub mod replication;

pub use rate::{throttle_time_ms, SampledRate};
pub use replication::{ReplicationQuota, ThrottledReplicas};
