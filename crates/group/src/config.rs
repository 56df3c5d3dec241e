//! The coordinator's settings: Kafka's broker keys for groups and offsets, with Kafka's
//! defaults, and the bounds fjord adds so no client can grow a shard without limit.

/// The most members (joined or pending) one group holds when `group.max.size` is not lower.
pub const MAX_GROUP_MEMBERS: usize = 10_000;
/// The most groups one shard keeps in memory; new groups beyond it are refused with
/// COORDINATOR_NOT_AVAILABLE until expiration removes some.
pub const MAX_GROUPS_PER_SHARD: usize = 100_000;

/// The coordinator's settings.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GroupConfig {
    /// `group.min.session.timeout.ms` (Kafka: 6000).
    pub min_session_timeout_ms: i32,
    /// `group.max.session.timeout.ms` (Kafka: 1800000).
    pub max_session_timeout_ms: i32,
    /// `group.initial.rebalance.delay.ms` (Kafka: 3000).
    pub initial_rebalance_delay_ms: i32,
    /// `group.max.size` (Kafka: unbounded; here at most [`MAX_GROUP_MEMBERS`]).
    pub max_size: usize,
    /// `offset.metadata.max.bytes` (Kafka: 4096).
    pub offset_metadata_max_bytes: usize,
    /// `offsets.retention.minutes` in ms (Kafka: 7 days).
    pub offsets_retention_ms: i64,
    /// `offsets.retention.check.interval.ms` (Kafka: 600000).
    pub offsets_retention_check_interval_ms: i64,
    /// `group.consumer.session.timeout.ms` (Kafka: 45000).
    pub consumer_session_timeout_ms: i32,
    /// `group.consumer.heartbeat.interval.ms` (Kafka: 5000).
    pub consumer_heartbeat_interval_ms: i32,
    /// `group.consumer.max.size` (Kafka: unbounded; here at most [`MAX_GROUP_MEMBERS`]).
    pub consumer_max_size: usize,
    /// `group.consumer.assignors`, the first the default (Kafka: uniform, range).
    pub consumer_assignors: Vec<crate::assignors::Assignor>,
    /// Whether `group.coordinator.rebalance.protocols` has `consumer` (Kafka: yes).
    pub consumer_enabled: bool,
    /// `group.consumer.migration.policy` (Kafka: bidirectional).
    pub consumer_migration_policy: MigrationPolicy,
    /// `group.share.session.timeout.ms` (Kafka: 45000).
    pub share_session_timeout_ms: i32,
    /// `group.share.heartbeat.interval.ms` (Kafka: 5000).
    pub share_heartbeat_interval_ms: i32,
    /// `group.share.max.size` (Kafka: 200).
    pub share_max_size: usize,
    /// Whether `group.coordinator.rebalance.protocols` has `streams` (Kafka 4.4: yes).
    pub streams_enabled: bool,
    /// `group.streams.session.timeout.ms` (Kafka: 45000).
    pub streams_session_timeout_ms: i32,
    /// `group.streams.heartbeat.interval.ms` (Kafka: 5000).
    pub streams_heartbeat_interval_ms: i32,
    /// `group.streams.max.size` (Kafka: unbounded; here at most [`MAX_GROUP_MEMBERS`]).
    pub streams_max_size: usize,
    /// `group.streams.num.standby.replicas` (Kafka: 0).
    pub streams_num_standby_replicas: usize,
    /// `group.streams.num.warmup.replicas`: warm-up tasks a streams group runs at once. 0
    /// here by default: Kafka 4.4.0 declares 2 but hands out no warm-up tasks (its refiner
    /// returns the assignor's target), so 0 is what a Kafka 4.4 group sees.
    pub streams_num_warmup_replicas: usize,
    /// `group.streams.acceptable.recovery.lag` (Kafka: 10000).
    pub streams_acceptable_recovery_lag: i64,
    /// `group.streams.task.offset.interval.ms` (Kafka: 60000).
    pub streams_task_offset_interval_ms: i32,
    /// `group.streams.initial.rebalance.delay.ms` (Kafka: 3000).
    pub streams_initial_rebalance_delay_ms: i32,
    /// `group.streams.rack.aware.assignment.tags` (Kafka: none): the client tags every member
    /// must send.
    pub streams_rack_aware_assignment_tags: Vec<String>,
    /// Whether a topology description plugin takes StreamsGroupTopologyDescriptionUpdate
    /// pushes (never in fjord: Kafka's plugin class is unset by default).
    pub streams_topology_plugin: bool,
}

/// `group.consumer.migration.policy`: which online migrations between classic and consumer
/// groups with members are allowed (an empty group changes kind whatever it says).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MigrationPolicy {
    /// Neither.
    Disabled,
    /// Classic to consumer only.
    Upgrade,
    /// Consumer to classic only.
    Downgrade,
    /// Both (Kafka's default).
    Bidirectional,
}

impl MigrationPolicy {
    /// The policy a config value names (Kafka's names, without case).
    pub fn named(name: &str) -> Option<MigrationPolicy> {
        Some(match name.to_ascii_lowercase().as_str() {
            "disabled" => MigrationPolicy::Disabled,
            "upgrade" => MigrationPolicy::Upgrade,
            "downgrade" => MigrationPolicy::Downgrade,
            "bidirectional" => MigrationPolicy::Bidirectional,
            _ => return None,
        })
    }

    /// True when a classic group with members may become a consumer group.
    pub fn upgrade(self) -> bool {
        matches!(
            self,
            MigrationPolicy::Upgrade | MigrationPolicy::Bidirectional
        )
    }

    /// True when a consumer group whose members all use the classic protocol may become a
    /// classic group.
    pub fn downgrade(self) -> bool {
        matches!(
            self,
            MigrationPolicy::Downgrade | MigrationPolicy::Bidirectional
        )
    }
}

impl Default for GroupConfig {
    fn default() -> Self {
        GroupConfig {
            min_session_timeout_ms: 6_000,
            max_session_timeout_ms: 1_800_000,
            initial_rebalance_delay_ms: 3_000,
            max_size: MAX_GROUP_MEMBERS,
            offset_metadata_max_bytes: 4096,
            offsets_retention_ms: 7 * 24 * 60 * 60 * 1000,
            offsets_retention_check_interval_ms: 600_000,
            consumer_session_timeout_ms: 45_000,
            consumer_heartbeat_interval_ms: 5_000,
            consumer_max_size: MAX_GROUP_MEMBERS,
            consumer_assignors: vec![
                crate::assignors::Assignor::Uniform,
                crate::assignors::Assignor::Range,
            ],
            consumer_enabled: true,
            consumer_migration_policy: MigrationPolicy::Bidirectional,
            share_session_timeout_ms: 45_000,
            share_heartbeat_interval_ms: 5_000,
            share_max_size: 200,
            streams_enabled: true,
            streams_session_timeout_ms: 45_000,
            streams_heartbeat_interval_ms: 5_000,
            streams_max_size: MAX_GROUP_MEMBERS,
            streams_num_standby_replicas: 0,
            streams_num_warmup_replicas: 0,
            streams_acceptable_recovery_lag: 10_000,
            streams_task_offset_interval_ms: 60_000,
            streams_initial_rebalance_delay_ms: 3_000,
            streams_rack_aware_assignment_tags: Vec::new(),
            streams_topology_plugin: false,
        }
    }
}

/// A comma-separated list of tag keys, blanks around each dropped, empty ones skipped.
pub fn tag_list(text: &str) -> Vec<String> {
    text.split(',')
        .map(str::trim)
        .filter(|t| !t.is_empty())
        .map(str::to_string)
        .collect()
}
