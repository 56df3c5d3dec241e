//! Replication throttles (KIP-73), as Kafka's `ReplicationQuotaManager` applies them. A topic
//! names its throttled replicas in `leader.replication.throttled.replicas` and
//! `follower.replication.throttled.replicas` (`*`, or `partition:broker` pairs); a broker
//! throttles a replica it leads (or follows) when its own id is named for that partition.
//! The broker's `leader.replication.throttled.rate` (`follower.…`) bounds the bytes a second
//! all its throttled replicas may move together; a replica in the ISR is never throttled.

use crate::rate::SampledRate;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;

/// Kafka's topic key naming the replicas throttled on their leader.
pub const LEADER_THROTTLED_REPLICAS: &str =
    fjord_configdef::topic::LEADER_REPLICATION_THROTTLED_REPLICAS.name;
/// Kafka's topic key naming the replicas throttled on their follower.
pub const FOLLOWER_THROTTLED_REPLICAS: &str =
    fjord_configdef::topic::FOLLOWER_REPLICATION_THROTTLED_REPLICAS.name;
/// Kafka's broker key bounding throttled leader replication (bytes a second).
pub const LEADER_THROTTLED_RATE: &str =
    fjord_configdef::broker::LEADER_REPLICATION_THROTTLED_RATE.name;
/// Kafka's broker key bounding throttled follower replication (bytes a second).
pub const FOLLOWER_THROTTLED_RATE: &str =
    fjord_configdef::broker::FOLLOWER_REPLICATION_THROTTLED_RATE.name;
/// Kafka's broker key bounding copies between one broker's log dirs (bytes a second).
pub const ALTER_LOG_DIRS_RATE: &str =
    fjord_configdef::broker::REPLICA_ALTER_LOG_DIRS_IO_MAX_BYTES_PER_SECOND.name;
/// No bound: Kafka's default for the throttled rates (`Long.MAX_VALUE`).
pub const UNBOUNDED: u64 = i64::MAX as u64;

fjord_util::message_error! {
    /// A throttled-replicas value that is neither `*` nor a list of `partition:broker` pairs:
    /// Kafka's message for its key.
    pub struct BadReplicaList;
}

/// A topic's list of throttled replicas.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub enum ThrottledReplicas {
    /// None (the key is unset or empty).
    #[default]
    None,
    /// `*`: every replica of the topic.
    All,
    /// The listed (partition, broker) pairs.
    Listed(Vec<(i32, i32)>),
}

impl ThrottledReplicas {
    /// Parses a key's value; the error is Kafka's message for `key`.
    pub fn parse(key: &str, value: &str) -> Result<ThrottledReplicas, BadReplicaList> {
        let bad = || {
            BadReplicaList(format!(
                "{key} must be the literal '*' or a list of replicas in the following \
                 format: [partitionId]:[brokerId],[partitionId]:[brokerId],..."
            ))
        };
        let value = value.trim();
        if value == "*" {
            return Ok(ThrottledReplicas::All);
        }
        let mut pairs = Vec::new();
        for item in value.split(',').map(str::trim).filter(|s| !s.is_empty()) {
            let (p, b) = item.split_once(':').ok_or_else(bad)?;
            let digits = |s: &str| !s.is_empty() && s.bytes().all(|c| c.is_ascii_digit());
            if !digits(p) || !digits(b) {
                return Err(bad());
            }
            let p = p.parse::<i32>().map_err(|_| bad())?;
            let b = b.parse::<i32>().map_err(|_| bad())?;
            pairs.push((p, b));
        }
        Ok(if pairs.is_empty() {
            ThrottledReplicas::None
        } else {
            ThrottledReplicas::Listed(pairs)
        })
    }

    /// Whether broker `broker` throttles its replica of `partition`.
    pub fn covers(&self, partition: i32, broker: i32) -> bool {
        match self {
            ThrottledReplicas::None => false,
            ThrottledReplicas::All => true,
            ThrottledReplicas::Listed(pairs) => pairs.contains(&(partition, broker)),
        }
    }
}

/// One direction's throttle on a broker (leader or follower): the bound, and the rate every
/// throttled replica's bytes are recorded in. Shared by every fetch; cheap when unbounded.
#[derive(Debug)]
pub struct ReplicationQuota {
    /// Bytes a second; [`UNBOUNDED`] for none.
    bound: AtomicU64,
    rate: Mutex<SampledRate>,
}

impl Default for ReplicationQuota {
    fn default() -> ReplicationQuota {
        ReplicationQuota::new(SampledRate::kafka_default())
    }
}

impl ReplicationQuota {
    /// An unbounded quota measured with `rate`'s windows.
    pub fn new(rate: SampledRate) -> ReplicationQuota {
        ReplicationQuota {
            bound: AtomicU64::new(UNBOUNDED),
            rate: Mutex::new(rate),
        }
    }

    /// Sets the bound (bytes a second; [`UNBOUNDED`] for none).
    pub fn set_bound(&self, bytes_per_second: u64) {
        self.bound.store(bytes_per_second, Ordering::Relaxed);
    }

    /// The bound (bytes a second; [`UNBOUNDED`] for none).
    pub fn bound(&self) -> u64 {
        self.bound.load(Ordering::Relaxed)
    }

    /// Records `bytes` moved by throttled replicas at `now_ms`.
    pub fn record(&self, now_ms: i64, bytes: usize) {
        if bytes > 0 {
            self.rate.lock().expect("rate").record(now_ms, bytes as f64);
        }
    }

    /// Whether throttled replicas must wait at `now_ms` (the rate is above a bound).
    pub fn exceeded(&self, now_ms: i64) -> bool {
        self.throttle_ms(now_ms) > 0
    }

    /// How long throttled replicas must wait at `now_ms` for the rate to come back to the
    /// bound (0: they may move bytes now).
    pub fn throttle_ms(&self, now_ms: i64) -> i64 {
        let bound = self.bound();
        if bound >= UNBOUNDED {
            return 0;
        }
        self.rate
            .lock()
            .expect("rate")
            .throttle_ms(now_ms, bound as f64)
    }

    /// The measured rate at `now_ms` (bytes a second), for metrics.
    pub fn rate(&self, now_ms: i64) -> f64 {
        self.rate.lock().expect("rate").rate(now_ms)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lists_parse_as_kafka_validates_them() {
        let k = LEADER_THROTTLED_REPLICAS;
        assert_eq!(
            ThrottledReplicas::parse(k, " * ").unwrap(),
            ThrottledReplicas::All
        );
        assert_eq!(
            ThrottledReplicas::parse(k, "").unwrap(),
            ThrottledReplicas::None
        );
        let l = ThrottledReplicas::parse(k, "0:1, 0:2,1:3").unwrap();
        assert!(l.covers(0, 2) && l.covers(1, 3) && !l.covers(1, 1) && !l.covers(2, 1));
        for bad in ["0", "a:1", "0:1,*", "-1:2", "0:1:2"] {
            let e = ThrottledReplicas::parse(k, bad).unwrap_err();
            assert!(
                e.starts_with(k) && e.contains("[partitionId]:[brokerId]"),
                "{bad}: {e}"
            );
        }
    }

    #[test]
    fn an_unbounded_quota_never_throttles_and_a_bound_one_does_once_passed() {
        let q = ReplicationQuota::default();
        q.record(0, 10_000_000);
        assert!(!q.exceeded(0));
        q.set_bound(1_000_000);
        assert!(q.exceeded(0));
        // 10 MB at 1 MB/s: back within the bound ten seconds after it started.
        assert_eq!(q.throttle_ms(0), 10_000);
        assert!(!q.exceeded(10_000));
    }
}
