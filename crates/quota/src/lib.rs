//! Rates and quotas, sans-IO (every call takes the time): Kafka's windowed sampled rate
//! ([`SampledRate`]) and the throttle time a rate above its bound costs,
//! and replication throttles ([`replication`]): which replicas a broker throttles and the
//! shared byte rate their fetches may use.

pub mod rate;
pub mod replication;

pub use rate::SampledRate;
pub use replication::{ReplicationQuota, ThrottledReplicas};
