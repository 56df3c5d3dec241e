//! The coordinator's settings: Kafka's `transaction.*` broker keys with Kafka's defaults, and
//! the bound fjord adds so no client can grow a shard without limit.

/// The most transactional ids one shard keeps; new ids beyond it are refused with
/// COORDINATOR_NOT_AVAILABLE until expiry removes some.
pub const MAX_TRANSACTIONAL_IDS_PER_SHARD: usize = 200_000;

/// The coordinator's settings.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TxnConfig {
    /// `transaction.max.timeout.ms` (Kafka: 900000).
    pub max_timeout_ms: i32,
    /// `transactional.id.expiration.ms` (Kafka: 7 days).
    pub id_expiration_ms: i64,
    /// `transaction.abort.timed.out.transaction.cleanup.interval.ms` (Kafka: 10000).
    pub abort_timed_out_interval_ms: i64,
    /// `transaction.remove.expired.transaction.cleanup.interval.ms` (Kafka: 3600000).
    pub remove_expired_interval_ms: i64,
}

impl Default for TxnConfig {
    fn default() -> Self {
        TxnConfig {
            max_timeout_ms: 900_000,
            id_expiration_ms: 7 * 24 * 60 * 60 * 1000,
            abort_timed_out_interval_ms: 10_000,
            remove_expired_interval_ms: 3_600_000,
        }
    }
}
