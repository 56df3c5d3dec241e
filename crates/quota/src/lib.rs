//! Rates and quotas, sans-IO (every call takes the time): Kafka's windowed sampled rate
//! ([`SampledRate`]) and the throttle time a rate above its bound costs,
//! replication throttles ([`replication`]): which replicas a broker throttles and the shared
//! byte rate their fetches may use; and client quotas' sensors ([`client`]).

pub mod client;
pub mod rate;
pub mod replication;

pub use client::{ClientQuotaManager, QuotaKind};
pub use rate::SampledRate;
pub use replication::{ReplicationQuota, ThrottledReplicas};
