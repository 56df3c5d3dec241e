//! The node's settings, typed once at start from the validated configuration (as Kafka's
//! `KafkaConfig`): what every node needs, and one struct per role. The start functions read
//! these fields; no key is read by its name after this (the listeners' TLS and SASL keys are
//! read into their security settings at start too, by `security`).

use super::security;
use crate::config::{Listener, ServerConfig};
use fjord_broker::{CoordinatorConfig, MaintenanceSettings, ReplicationSettings};
use fjord_configdef::{broker, Def};
use fjord_controller::ControllerSettings;
use fjord_metadata::acls::AuthorizerSettings;
use std::path::PathBuf;
use std::time::Duration;

/// A key's integer value (defaults included; validated at load), or an error naming the key.
fn int(config: &ServerConfig, def: &Def) -> Result<i64, String> {
    let key = def.name;
    let v = config
        .get(key)
        .ok_or_else(|| format!("missing required configuration {key}"))?;
    v.trim()
        .parse()
        .map_err(|_| format!("invalid value {v:?} for configuration {key}: not an integer"))
}

/// A key's value as milliseconds, at least 1 ms.
fn millis(config: &ServerConfig, def: &Def) -> Result<Duration, String> {
    Ok(Duration::from_millis(
        u64::try_from(int(config, def)?).unwrap_or(1).max(1),
    ))
}

/// A key's boolean value (false when unset).
fn flag(config: &ServerConfig, def: &Def) -> bool {
    config
        .get(def.name)
        .is_some_and(|v| v.eq_ignore_ascii_case("true"))
}

/// What every node needs, whatever its roles.
#[derive(Debug)]
pub(super) struct NodeSettings {
    /// `node.id`.
    pub node_id: i32,
    /// `metadata.log.max.record.bytes.between.snapshots`.
    pub snapshot_bytes: u64,
    /// `metrics.listener`: where the metrics endpoint listens, if anywhere.
    pub metrics_listener: Option<String>,
    /// The first of `controller.listener.names`.
    pub controller_listener_name: String,
    /// The authorizer's settings, when `authorizer.class.name` is set.
    pub authorizer: Option<AuthorizerSettings>,
    /// The listeners' shared limits.
    pub limits: LimitSettings,
    /// The quorum's timeouts.
    pub quorum: QuorumTimeouts,
    /// The controller role's settings, when the node is a controller.
    pub controller: Option<ControllerRole>,
    /// The broker role's settings, when the node is a broker.
    pub broker: Option<BrokerRole>,
}

/// The limits every listener of the node shares.
#[derive(Debug, Clone)]
pub(super) struct LimitSettings {
    /// `socket.request.max.bytes`.
    pub max_frame: usize,
    /// `max.connections`.
    pub max_connections: usize,
    /// `max.connections.per.ip`.
    pub max_connections_per_ip: usize,
    /// `connections.max.idle.ms`.
    pub idle_timeout: Duration,
    /// `queued.max.request.bytes` (none when not positive).
    pub queued_bytes: Option<usize>,
}

/// `controller.quorum.*.ms`.
#[derive(Debug, Clone, Copy)]
pub(super) struct QuorumTimeouts {
    /// `controller.quorum.election.timeout.ms`.
    pub election_ms: i64,
    /// `controller.quorum.fetch.timeout.ms`.
    pub fetch_ms: i64,
    /// `controller.quorum.request.timeout.ms`.
    pub request_ms: i64,
    /// `controller.quorum.retry.backoff.ms`.
    pub retry_backoff_ms: i64,
}

/// The controller role.
#[derive(Debug)]
pub(super) struct ControllerRole {
    /// The controller listener.
    pub listener: Listener,
    /// How the controller listener is advertised.
    pub advertised: Listener,
    /// The active controller's settings.
    pub settings: ControllerSettings,
}

/// The broker role.
#[derive(Debug)]
pub(super) struct BrokerRole {
    /// The broker listeners.
    pub listeners: Vec<Listener>,
    /// How each is advertised (same order).
    pub advertised: Vec<Listener>,
    /// `log.dirs`.
    pub log_dirs: Vec<PathBuf>,
    /// `num.recovery.threads.per.data.dir`.
    pub recovery_threads: usize,
    /// The broker-level `log.*` defaults topic configs override.
    pub log: fjord_log::LogConfig,
    /// Tiered storage (None: `remote.log.storage.system.enable` is off).
    pub tiering: Option<fjord_broker::TieringConfig>,
    /// Retention, producer expiry and checkpoint intervals.
    pub maintenance: MaintenanceSettings,
    /// `replica.lag.time.max.ms`, `min.insync.replicas`.
    pub replication: ReplicationSettings,
    /// The replica fetchers' settings (on the inter-broker listener, with its security).
    pub fetchers: fjord_broker::FetcherSettings,
    /// The group coordinator's settings.
    pub coordinator: CoordinatorConfig,
    /// The transaction coordinator's settings.
    pub transactions: fjord_broker::TxnCoordinatorConfig,
    /// The share coordinator's settings.
    pub share_states: fjord_broker::ShareCoordinatorConfig,
    /// The share-partition leaders' settings.
    pub share_leaders: fjord_broker::ShareLeaderConfig,
    /// `max.incremental.fetch.session.cache.slots`.
    pub fetch_session_slots: usize,
    /// `telemetry.max.bytes` and `metrics.client.max.series` (KIP-714).
    pub telemetry: fjord_telemetry::Settings,
    /// `min.incremental.fetch.session.eviction.ms`.
    pub fetch_session_eviction_ms: i64,
    /// `auto.create.topics.enable`.
    pub auto_create_topics: bool,
    /// `broker.rack`.
    pub rack: Option<String>,
    /// `broker.heartbeat.interval.ms` (at least 10 ms).
    pub heartbeat_interval: Duration,
}

impl NodeSettings {
    /// The settings of `config` (already validated at load); an error names the key.
    pub(super) fn from_config(config: &ServerConfig) -> Result<NodeSettings, String> {
        let roles = config.process_roles().map_err(|e| e.to_string())?;
        let authorizer = security::authorizer(config);
        let controller = match roles.controller {
            true => Some(ControllerRole {
                listener: config.controller_listener().map_err(|e| e.to_string())?,
                advertised: config
                    .advertised_controller_listener()
                    .map_err(|e| e.to_string())?,
                settings: controller_settings(config, authorizer.is_some())?,
            }),
            false => None,
        };
        let broker = match roles.broker {
            true => Some(broker_role(config)?),
            false => None,
        };
        let positive = |def: &Def| -> Result<usize, String> {
            Ok(usize::try_from(int(config, def)?).unwrap_or(usize::MAX))
        };
        Ok(NodeSettings {
            node_id: config.node_id().map_err(|e| e.to_string())?,
            snapshot_bytes: u64::try_from(int(
                config,
                &broker::METADATA_LOG_MAX_RECORD_BYTES_BETWEEN_SNAPSHOTS,
            )?)
            .unwrap_or(u64::MAX),
            metrics_listener: crate::metrics::listener_address(
                config.get(broker::METRICS_LISTENER.name).unwrap_or(""),
            )?,
            controller_listener_name: config
                .get(broker::CONTROLLER_LISTENER_NAMES.name)
                .and_then(|n| n.split(',').next())
                .unwrap_or("CONTROLLER")
                .trim()
                .to_string(),
            authorizer,
            limits: LimitSettings {
                max_frame: positive(&broker::SOCKET_REQUEST_MAX_BYTES)?,
                max_connections: positive(&broker::MAX_CONNECTIONS)?,
                max_connections_per_ip: positive(&broker::MAX_CONNECTIONS_PER_IP)?,
                idle_timeout: Duration::from_millis(
                    u64::try_from(int(config, &broker::CONNECTIONS_MAX_IDLE_MS)?)
                        .unwrap_or(u64::MAX / 4),
                ),
                queued_bytes: usize::try_from(int(config, &broker::QUEUED_MAX_REQUEST_BYTES)?)
                    .ok()
                    .filter(|q| *q > 0),
            },
            quorum: QuorumTimeouts {
                election_ms: int(config, &broker::CONTROLLER_QUORUM_ELECTION_TIMEOUT_MS)?,
                fetch_ms: int(config, &broker::CONTROLLER_QUORUM_FETCH_TIMEOUT_MS)?,
                request_ms: int(config, &broker::CONTROLLER_QUORUM_REQUEST_TIMEOUT_MS)?,
                retry_backoff_ms: int(config, &broker::CONTROLLER_QUORUM_RETRY_BACKOFF_MS)?,
            },
            controller,
            broker,
        })
    }
}

/// The active controller's settings.
fn controller_settings(
    config: &ServerConfig,
    authorizer_enabled: bool,
) -> Result<ControllerSettings, String> {
    Ok(ControllerSettings {
        node_id: int(config, &broker::NODE_ID)? as i32,
        num_partitions: int(config, &broker::NUM_PARTITIONS)? as i32,
        default_replication_factor: int(config, &broker::DEFAULT_REPLICATION_FACTOR)? as i16,
        min_insync_replicas: int(config, &broker::MIN_INSYNC_REPLICAS)? as i32,
        unclean_leader_election_enable: flag(config, &broker::UNCLEAN_LEADER_ELECTION_ENABLE),
        broker_session_timeout_ms: int(config, &broker::BROKER_SESSION_TIMEOUT_MS)?,
        broker_connection_loss_fence_ms: int(config, &broker::BROKER_CONNECTION_LOSS_FENCE_MS)?,
        broker_heartbeat_interval_ms: int(config, &broker::BROKER_HEARTBEAT_INTERVAL_MS)?,
        authorizer_enabled,
        group_settings: group_settings(config),
        tokens: token_settings(config)?,
        remote_storage_system_enabled: flag(config, &broker::REMOTE_LOG_STORAGE_SYSTEM_ENABLE),
        ..ControllerSettings::default()
    })
}

/// `delegation.token.*`: tokens are enabled by a non-empty secret key.
pub(crate) fn token_settings(
    config: &ServerConfig,
) -> Result<fjord_metadata::delegation_tokens::TokenSettings, String> {
    Ok(fjord_metadata::delegation_tokens::TokenSettings {
        secret: config
            .get(broker::DELEGATION_TOKEN_SECRET_KEY.name)
            .filter(|k| !k.is_empty())
            .map(str::to_string),
        max_lifetime_ms: int(config, &broker::DELEGATION_TOKEN_MAX_LIFETIME_MS)?,
        renew_ms: int(config, &broker::DELEGATION_TOKEN_EXPIRY_TIME_MS)?,
        check_interval_ms: int(config, &broker::DELEGATION_TOKEN_EXPIRY_CHECK_INTERVAL_MS)?,
    })
}

/// The `group.*` keys this node's properties set (they bound group config resources).
fn group_settings(config: &ServerConfig) -> std::collections::BTreeMap<String, String> {
    config
        .values()
        .into_iter()
        .filter(|(k, _)| k.starts_with("group."))
        .collect()
}

/// The broker role's settings.
fn broker_role(config: &ServerConfig) -> Result<BrokerRole, String> {
    let listeners = config.broker_listeners().map_err(|e| e.to_string())?;
    let advertised = config
        .advertised_broker_listeners()
        .map_err(|e| e.to_string())?;
    let inter_broker = config
        .inter_broker_listener()
        .map_err(|e| e.to_string())?
        .ok_or("a broker needs a listener")?
        .name;
    let log_dirs = config.log_dirs();
    if log_dirs.is_empty() {
        return Err("a broker needs log.dirs".into());
    }
    let i32_of = |def: &Def| -> Result<i32, String> {
        Ok(i32::try_from(int(config, def)?).unwrap_or(i32::MAX))
    };
    Ok(BrokerRole {
        listeners,
        advertised,
        log_dirs: log_dirs.clone(),
        recovery_threads: usize::try_from(int(config, &broker::NUM_RECOVERY_THREADS_PER_DATA_DIR)?)
            .unwrap_or(2),
        log: broker_log_config(config)?,
        tiering: tiering_settings(config, &log_dirs)?,
        maintenance: MaintenanceSettings {
            retention_every: Duration::from_millis(
                u64::try_from(int(config, &broker::LOG_RETENTION_CHECK_INTERVAL_MS)?)
                    .unwrap_or(300_000),
            ),
            producer_check_every: Duration::from_millis(
                u64::try_from(int(
                    config,
                    &broker::PRODUCER_ID_EXPIRATION_CHECK_INTERVAL_MS,
                )?)
                .unwrap_or(600_000),
            ),
            producer_max_age_ms: int(config, &broker::PRODUCER_ID_EXPIRATION_MS)?,
            checkpoint_every: millis(
                config,
                &broker::REPLICA_HIGH_WATERMARK_CHECKPOINT_INTERVAL_MS,
            )?,
            full_checkpoint_every: millis(
                config,
                &broker::LOG_FLUSH_OFFSET_CHECKPOINT_INTERVAL_MS,
            )?
            .min(millis(
                config,
                &broker::LOG_FLUSH_START_OFFSET_CHECKPOINT_INTERVAL_MS,
            )?),
        },
        replication: ReplicationSettings {
            lag_max_ms: int(config, &broker::REPLICA_LAG_TIME_MAX_MS)?,
            min_insync_replicas: usize::try_from(int(config, &broker::MIN_INSYNC_REPLICAS)?)
                .unwrap_or(1),
        },
        fetchers: fjord_broker::FetcherSettings {
            security: security::client_security(
                config,
                &inter_broker,
                broker::SASL_MECHANISM_INTER_BROKER_PROTOCOL.name,
            )?,
            listener: inter_broker.clone(),
            num_fetchers: usize::try_from(int(config, &broker::NUM_REPLICA_FETCHERS)?).unwrap_or(1),
            max_bytes: i32_of(&broker::REPLICA_FETCH_MAX_BYTES)?,
            response_max_bytes: i32_of(&broker::REPLICA_FETCH_RESPONSE_MAX_BYTES)?,
            wait_max_ms: i32_of(&broker::REPLICA_FETCH_WAIT_MAX_MS)?,
            min_bytes: i32_of(&broker::REPLICA_FETCH_MIN_BYTES)?,
            backoff: Duration::from_millis(
                u64::try_from(int(config, &broker::REPLICA_FETCH_BACKOFF_MS)?).unwrap_or(1_000),
            ),
        },
        coordinator: coordinator_config(config)?,
        transactions: transaction_config(config)?,
        share_states: share_state_config(config)?,
        share_leaders: share_leader_config(config)?,
        fetch_session_slots: int(config, &broker::MAX_INCREMENTAL_FETCH_SESSION_CACHE_SLOTS)?.max(0)
            as usize,
        telemetry: fjord_telemetry::Settings {
            max_bytes: i32_of(&broker::TELEMETRY_MAX_BYTES)?,
            max_series: int(config, &broker::METRICS_CLIENT_MAX_SERIES)?.max(0) as usize,
        },
        fetch_session_eviction_ms: int(config, &broker::MIN_INCREMENTAL_FETCH_SESSION_EVICTION_MS)?,
        auto_create_topics: flag(config, &broker::AUTO_CREATE_TOPICS_ENABLE),
        rack: config.get(broker::BROKER_RACK.name).map(str::to_string),
        heartbeat_interval: Duration::from_millis(
            int(config, &broker::BROKER_HEARTBEAT_INTERVAL_MS)?.max(10) as u64,
        ),
    })
}

/// The broker-level log settings topic configs override (Kafka's `log.*` keys).
fn broker_log_config(config: &ServerConfig) -> Result<fjord_log::LogConfig, String> {
    let mut c = fjord_log::LogConfig::default();
    if let Ok(v) = u64::try_from(int(config, &broker::LOG_SEGMENT_BYTES)?) {
        c.segment_bytes = v;
    }
    c.retention_ms = if config.get(broker::LOG_RETENTION_MS.name).is_some() {
        int(config, &broker::LOG_RETENTION_MS)?
    } else if config.get(broker::LOG_RETENTION_MINUTES.name).is_some() {
        int(config, &broker::LOG_RETENTION_MINUTES)? * 60_000
    } else {
        int(config, &broker::LOG_RETENTION_HOURS)? * 3_600_000
    };
    c.retention_bytes = int(config, &broker::LOG_RETENTION_BYTES)?;
    // The node's switch: a topic tiers only where it is on (see the broker's `log_config`).
    c.remote_storage = flag(config, &broker::REMOTE_LOG_STORAGE_SYSTEM_ENABLE);
    c.local_retention_ms = int(config, &broker::LOG_LOCAL_RETENTION_MS).unwrap_or(-2);
    c.local_retention_bytes = int(config, &broker::LOG_LOCAL_RETENTION_BYTES).unwrap_or(-2);
    if let Some(codec) = config
        .get(broker::COMPRESSION_TYPE.name)
        .and_then(fjord_log::config::parse_compression_type)
    {
        c.compression = codec;
    }
    c.timestamp_before_max_ms = int(config, &broker::LOG_MESSAGE_TIMESTAMP_BEFORE_MAX_MS)?;
    c.timestamp_after_max_ms = int(config, &broker::LOG_MESSAGE_TIMESTAMP_AFTER_MAX_MS)?;
    Ok(c)
}

/// `group.consumer.migration.policy`.
fn migration_policy(config: &ServerConfig) -> Result<fjord_group::config::MigrationPolicy, String> {
    let key = broker::GROUP_CONSUMER_MIGRATION_POLICY.name;
    let value = config.get(key).unwrap_or("bidirectional");
    fjord_group::config::MigrationPolicy::named(value.trim()).ok_or_else(|| {
        format!(
            "invalid value {value:?} for configuration {key}: String must be one of: \
             disabled, upgrade, downgrade, bidirectional"
        )
    })
}

/// `group.consumer.assignors`: short names or Kafka's class names, in order.
fn consumer_assignors(
    config: &ServerConfig,
) -> Result<Vec<fjord_group::assignors::Assignor>, String> {
    let key = broker::GROUP_CONSUMER_ASSIGNORS.name;
    let list = config.get(key).unwrap_or("uniform,range");
    let mut out = Vec::new();
    for name in list.split(',').map(str::trim).filter(|n| !n.is_empty()) {
        let short = match name {
            "org.apache.kafka.coordinator.group.assignor.UniformAssignor" => "uniform",
            "org.apache.kafka.coordinator.group.assignor.RangeAssignor" => "range",
            other => other,
        };
        let a = fjord_group::assignors::Assignor::named(short)
            .ok_or_else(|| format!("invalid value {name:?} for configuration {key}: unknown assignor (fjord has uniform and range)"))?;
        if !out.contains(&a) {
            out.push(a);
        }
    }
    if out.is_empty() {
        return Err(format!(
            "configuration {key} must name at least one assignor"
        ));
    }
    Ok(out)
}

/// `group.coordinator.rebalance.protocols`: whether `consumer` is on (`classic` must be).
fn rebalance_protocols(config: &ServerConfig) -> Result<(bool, bool), String> {
    let key = broker::GROUP_COORDINATOR_REBALANCE_PROTOCOLS.name;
    let list = config
        .get(key)
        .or(broker::GROUP_COORDINATOR_REBALANCE_PROTOCOLS.default)
        .unwrap_or("classic");
    let names: Vec<&str> = list
        .split(',')
        .map(str::trim)
        .filter(|n| !n.is_empty())
        .collect();
    for n in &names {
        if !["classic", "consumer", "streams", "share"].contains(n) {
            return Err(format!("invalid value {n:?} for configuration {key}"));
        }
    }
    if !names.contains(&"classic") {
        return Err(format!("configuration {key} must contain classic"));
    }
    Ok((names.contains(&"consumer"), names.contains(&"streams")))
}

/// Kafka's bounds on the consumer group session and heartbeat settings.
fn check_consumer_timeouts(config: &ServerConfig) -> Result<(), String> {
    let int = |d: &Def| int(config, d);
    let (session, min_s, max_s) = (
        int(&broker::GROUP_CONSUMER_SESSION_TIMEOUT_MS)?,
        int(&broker::GROUP_CONSUMER_MIN_SESSION_TIMEOUT_MS)?,
        int(&broker::GROUP_CONSUMER_MAX_SESSION_TIMEOUT_MS)?,
    );
    let (hb, min_h, max_h) = (
        int(&broker::GROUP_CONSUMER_HEARTBEAT_INTERVAL_MS)?,
        int(&broker::GROUP_CONSUMER_MIN_HEARTBEAT_INTERVAL_MS)?,
        int(&broker::GROUP_CONSUMER_MAX_HEARTBEAT_INTERVAL_MS)?,
    );
    if session < min_s || session > max_s {
        return Err(format!(
            "group.consumer.session.timeout.ms ({session}) must be within \
             group.consumer.min.session.timeout.ms ({min_s}) and \
             group.consumer.max.session.timeout.ms ({max_s})"
        ));
    }
    if hb < min_h || hb > max_h {
        return Err(format!(
            "group.consumer.heartbeat.interval.ms ({hb}) must be within \
             group.consumer.min.heartbeat.interval.ms ({min_h}) and \
             group.consumer.max.heartbeat.interval.ms ({max_h})"
        ));
    }
    if hb >= session {
        return Err(format!(
            "group.consumer.heartbeat.interval.ms ({hb}) must be less than \
             group.consumer.session.timeout.ms ({session})"
        ));
    }
    Ok(())
}

/// The group coordinator's settings from the broker's keys.
fn coordinator_config(config: &ServerConfig) -> Result<CoordinatorConfig, String> {
    check_consumer_timeouts(config)?;
    let int = |d: &Def| int(config, d);
    let clamp_i32 = |v: i64| v.clamp(0, i64::from(i32::MAX)) as i32;
    Ok(CoordinatorConfig {
        group: fjord_group::GroupConfig {
            min_session_timeout_ms: clamp_i32(int(&broker::GROUP_MIN_SESSION_TIMEOUT_MS)?),
            max_session_timeout_ms: clamp_i32(int(&broker::GROUP_MAX_SESSION_TIMEOUT_MS)?),
            initial_rebalance_delay_ms: clamp_i32(int(&broker::GROUP_INITIAL_REBALANCE_DELAY_MS)?),
            max_size: (int(&broker::GROUP_MAX_SIZE)?.max(1) as usize)
                .min(fjord_group::config::MAX_GROUP_MEMBERS),
            offset_metadata_max_bytes: int(&broker::OFFSET_METADATA_MAX_BYTES)?.max(0) as usize,
            offsets_retention_ms: int(&broker::OFFSETS_RETENTION_MINUTES)?.max(1) * 60_000,
            offsets_retention_check_interval_ms: int(&broker::OFFSETS_RETENTION_CHECK_INTERVAL_MS)?
                .max(1),
            consumer_session_timeout_ms: clamp_i32(int(
                &broker::GROUP_CONSUMER_SESSION_TIMEOUT_MS,
            )?),
            consumer_heartbeat_interval_ms: clamp_i32(int(
                &broker::GROUP_CONSUMER_HEARTBEAT_INTERVAL_MS,
            )?),
            consumer_max_size: (int(&broker::GROUP_CONSUMER_MAX_SIZE)?.max(1) as usize)
                .min(fjord_group::config::MAX_GROUP_MEMBERS),
            consumer_assignors: consumer_assignors(config)?,
            consumer_enabled: rebalance_protocols(config)?.0,
            streams_enabled: rebalance_protocols(config)?.1,
            consumer_migration_policy: migration_policy(config)?,
            share_session_timeout_ms: clamp_i32(int(&broker::GROUP_SHARE_SESSION_TIMEOUT_MS)?),
            share_heartbeat_interval_ms: clamp_i32(int(
                &broker::GROUP_SHARE_HEARTBEAT_INTERVAL_MS,
            )?),
            share_max_size: (int(&broker::GROUP_SHARE_MAX_SIZE)?.max(1) as usize)
                .min(fjord_group::config::MAX_GROUP_MEMBERS),
            streams_session_timeout_ms: clamp_i32(int(&broker::GROUP_STREAMS_SESSION_TIMEOUT_MS)?),
            streams_heartbeat_interval_ms: clamp_i32(int(
                &broker::GROUP_STREAMS_HEARTBEAT_INTERVAL_MS,
            )?),
            streams_max_size: (int(&broker::GROUP_STREAMS_MAX_SIZE)?.max(1) as usize)
                .min(fjord_group::config::MAX_GROUP_MEMBERS),
            streams_num_standby_replicas: int(&broker::GROUP_STREAMS_NUM_STANDBY_REPLICAS)?
                .clamp(0, int(&broker::GROUP_STREAMS_MAX_STANDBY_REPLICAS)?.max(0))
                as usize,
            streams_num_warmup_replicas: int(&broker::GROUP_STREAMS_NUM_WARMUP_REPLICAS)?
                .clamp(0, int(&broker::GROUP_STREAMS_MAX_WARMUP_REPLICAS)?.max(0))
                as usize,
            streams_acceptable_recovery_lag: int(&broker::GROUP_STREAMS_ACCEPTABLE_RECOVERY_LAG)?
                .max(0),
            streams_task_offset_interval_ms: clamp_i32(int(
                &broker::GROUP_STREAMS_TASK_OFFSET_INTERVAL_MS,
            )?),
            streams_initial_rebalance_delay_ms: clamp_i32(int(
                &broker::GROUP_STREAMS_INITIAL_REBALANCE_DELAY_MS,
            )?),
            streams_rack_aware_assignment_tags: fjord_group::config::tag_list(
                config
                    .get(broker::GROUP_STREAMS_RACK_AWARE_ASSIGNMENT_TAGS.name)
                    .unwrap_or(""),
            ),
            streams_topology_plugin: false,
        },
        num_partitions: clamp_i32(int(&broker::OFFSETS_TOPIC_NUM_PARTITIONS)?).max(1),
        replication_factor: int(&broker::OFFSETS_TOPIC_REPLICATION_FACTOR)?
            .clamp(1, i64::from(i16::MAX)) as i16,
        segment_bytes: int(&broker::OFFSETS_TOPIC_SEGMENT_BYTES)?.max(1),
    })
}

/// The transaction coordinator's settings from the broker's keys.
fn transaction_config(config: &ServerConfig) -> Result<fjord_broker::TxnCoordinatorConfig, String> {
    let int = |d: &Def| int(config, d);
    let clamp_i32 = |v: i64| v.clamp(1, i64::from(i32::MAX)) as i32;
    Ok(fjord_broker::TxnCoordinatorConfig {
        txn: fjord_txn::TxnConfig {
            max_timeout_ms: clamp_i32(int(&broker::TRANSACTION_MAX_TIMEOUT_MS)?),
            id_expiration_ms: int(&broker::TRANSACTIONAL_ID_EXPIRATION_MS)?.max(1),
            abort_timed_out_interval_ms: int(
                &broker::TRANSACTION_ABORT_TIMED_OUT_TRANSACTION_CLEANUP_INTERVAL_MS,
            )?
            .max(1),
            remove_expired_interval_ms: int(
                &broker::TRANSACTION_REMOVE_EXPIRED_TRANSACTION_CLEANUP_INTERVAL_MS,
            )?
            .max(1),
        },
        num_partitions: clamp_i32(int(&broker::TRANSACTION_STATE_LOG_NUM_PARTITIONS)?),
        replication_factor: int(&broker::TRANSACTION_STATE_LOG_REPLICATION_FACTOR)?
            .clamp(1, i64::from(i16::MAX)) as i16,
        min_isr: clamp_i32(int(&broker::TRANSACTION_STATE_LOG_MIN_ISR)?),
        segment_bytes: int(&broker::TRANSACTION_STATE_LOG_SEGMENT_BYTES)?.max(1),
        partition_verification: flag(config, &broker::TRANSACTION_PARTITION_VERIFICATION_ENABLE),
    })
}

/// The share-partition leaders' settings from the `group.share.*` keys.
fn share_leader_config(config: &ServerConfig) -> Result<fjord_broker::ShareLeaderConfig, String> {
    let int = |d: &Def| int(config, d);
    let clamp_i32 = |v: i64| v.clamp(1, i64::from(i32::MAX)) as i32;
    Ok(fjord_broker::ShareLeaderConfig {
        lock_duration_ms: clamp_i32(int(&broker::GROUP_SHARE_RECORD_LOCK_DURATION_MS)?),
        delivery_count_limit: clamp_i32(int(&broker::GROUP_SHARE_DELIVERY_COUNT_LIMIT)?),
        max_record_locks: clamp_i32(int(&broker::GROUP_SHARE_PARTITION_MAX_RECORD_LOCKS)?),
        max_sessions: int(&broker::GROUP_SHARE_MAX_SHARE_SESSIONS)?.clamp(1, 1_000_000) as usize,
        dlq: fjord_broker::DlqConfig {
            prefix: config
                .get(broker::ERRORS_DEADLETTERQUEUE_TOPIC_NAME_PREFIX.name)
                .unwrap_or("dlq.")
                .to_string(),
            auto_create: flag(
                config,
                &broker::ERRORS_DEADLETTERQUEUE_AUTO_CREATE_TOPICS_ENABLE,
            ),
        },
    })
}

/// The share coordinator's settings from the `share.coordinator.*` keys.
fn share_state_config(
    config: &ServerConfig,
) -> Result<fjord_broker::ShareCoordinatorConfig, String> {
    let int = |d: &Def| int(config, d);
    let clamp_i32 = |v: i64| v.clamp(1, i64::from(i32::MAX)) as i32;
    Ok(fjord_broker::ShareCoordinatorConfig {
        num_partitions: clamp_i32(int(&broker::SHARE_COORDINATOR_STATE_TOPIC_NUM_PARTITIONS)?),
        replication_factor: int(&broker::SHARE_COORDINATOR_STATE_TOPIC_REPLICATION_FACTOR)?
            .clamp(1, i64::from(i16::MAX)) as i16,
        min_isr: clamp_i32(int(&broker::SHARE_COORDINATOR_STATE_TOPIC_MIN_ISR)?),
        segment_bytes: int(&broker::SHARE_COORDINATOR_STATE_TOPIC_SEGMENT_BYTES)?.max(1),
        per_snapshot: int(&broker::SHARE_COORDINATOR_SNAPSHOT_UPDATE_RECORDS_PER_SNAPSHOT)?
            .clamp(1, i64::from(u32::MAX)) as u32,
        prune_interval_ms: int(&broker::SHARE_COORDINATOR_STATE_TOPIC_PRUNE_INTERVAL_MS)?.max(0),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn config(extra: &str) -> ServerConfig {
        let text = format!(
            "node.id=1\nprocess.roles=broker,controller\n\
             listeners=PLAINTEXT://127.0.0.1:9092,CONTROLLER://127.0.0.1:9093\n\
             controller.listener.names=CONTROLLER\ncontroller.quorum.voters=1@127.0.0.1:9093\n\
             log.dirs=/tmp/fjord-settings-test\n{extra}"
        );
        ServerConfig::from_properties(fjord_config::parse_properties(&text).unwrap(), &[]).unwrap()
    }

    #[test]
    fn roles_get_their_settings_with_kafka_defaults() {
        let s = NodeSettings::from_config(&config("log.retention.minutes=5\n")).unwrap();
        let b = s.broker.expect("a broker");
        assert_eq!(b.log.retention_ms, 5 * 60_000);
        assert_eq!(b.fetchers.listener, "PLAINTEXT");
        assert_eq!(b.replication.lag_max_ms, 30_000);
        assert_eq!(b.heartbeat_interval, Duration::from_millis(2_000));
        let c = s.controller.expect("a controller");
        assert_eq!(c.listener.name, "CONTROLLER");
        assert_eq!(s.controller_listener_name, "CONTROLLER");
        assert_eq!(s.quorum.election_ms, 1_000);
    }

    #[test]
    fn a_missing_value_names_its_key() {
        // log.retention.ms has no default of its own.
        let e = int(&config(""), &broker::LOG_RETENTION_MS).unwrap_err();
        assert!(
            e.contains("missing required configuration log.retention.ms"),
            "{e}"
        );
    }
}

/// The names of the object store's keys below `remote.log.storage.manager.impl.prefix` (those
/// of Aiven's tiered storage plugin, so an operator's settings carry over).
pub(super) mod rsm {
    /// `filesystem` (the default) or `s3` (Aiven's class names are taken too).
    pub const BACKEND: &str = "storage.backend.class";
    /// The local directory of the `filesystem` backend.
    pub const ROOT: &str = "storage.root";
    /// The S3 bucket.
    pub const S3_BUCKET: &str = "storage.s3.bucket.name";
    /// The S3 endpoint URL (unset: AWS's).
    pub const S3_ENDPOINT: &str = "storage.s3.endpoint.url";
    /// The S3 region.
    pub const S3_REGION: &str = "storage.s3.region";
    /// Path-style addressing (most S3-compatible servers need it).
    pub const S3_PATH_STYLE: &str = "storage.s3.path.style.access.enabled";
    /// The access key id (unset: `AWS_ACCESS_KEY_ID`).
    pub const AWS_ACCESS_KEY_ID: &str = "storage.aws.access.key.id";
    /// The secret key (unset: `AWS_SECRET_ACCESS_KEY`).
    pub const AWS_SECRET_ACCESS_KEY: &str = "storage.aws.secret.access.key";
    /// A prefix for every object's name.
    pub const KEY_PREFIX: &str = "key.prefix";
}

/// The remote log metadata topic's keys below `remote.log.metadata.manager.impl.prefix`, with
/// Kafka's defaults.
pub(super) const RLMM_TOPIC_KEYS: [(&str, &str); 3] = [
    ("remote.log.metadata.topic.num.partitions", "50"),
    ("remote.log.metadata.topic.replication.factor", "3"),
    ("remote.log.metadata.topic.retention.ms", "-1"),
];

/// Tiered storage's settings, when `remote.log.storage.system.enable` is on.
fn tiering_settings(
    config: &ServerConfig,
    log_dirs: &[PathBuf],
) -> Result<Option<fjord_broker::TieringConfig>, String> {
    use fjord_tiered::store::{Backend, S3Settings};
    if !flag(config, &broker::REMOTE_LOG_STORAGE_SYSTEM_ENABLE) {
        return Ok(None);
    }
    let rsm_prefix = config
        .get(broker::REMOTE_LOG_STORAGE_MANAGER_IMPL_PREFIX.name)
        .unwrap_or("rsm.config.")
        .to_string();
    let rlmm_prefix = config
        .get(broker::REMOTE_LOG_METADATA_MANAGER_IMPL_PREFIX.name)
        .unwrap_or("rlmm.config.")
        .to_string();
    let rsm = |k: &str| config.get(&format!("{rsm_prefix}{k}")).map(str::to_string);
    let backend = match rsm(rsm::BACKEND).as_deref().map(str::trim) {
        None
        | Some("filesystem")
        | Some("io.aiven.kafka.tieredstorage.storage.filesystem.FileSystemStorage") => {
            let root = match rsm(rsm::ROOT) {
                Some(r) => PathBuf::from(r),
                None => {
                    let first = log_dirs.first().ok_or("a broker needs log.dirs")?;
                    let mut name = first.as_os_str().to_owned();
                    name.push("-tiered");
                    PathBuf::from(name)
                }
            };
            Backend::Local { root }
        }
        Some("s3") | Some("io.aiven.kafka.tieredstorage.storage.s3.S3Storage") => {
            Backend::S3(S3Settings {
                bucket: rsm(rsm::S3_BUCKET).ok_or_else(|| {
                    format!(
                        "{rsm_prefix}{} is required with the s3 backend",
                        rsm::S3_BUCKET
                    )
                })?,
                endpoint: rsm(rsm::S3_ENDPOINT),
                region: rsm(rsm::S3_REGION).unwrap_or_else(|| "us-east-1".into()),
                path_style: rsm(rsm::S3_PATH_STYLE).is_some_and(|v| v.eq_ignore_ascii_case("true")),
                access_key_id: rsm(rsm::AWS_ACCESS_KEY_ID),
                secret_access_key: rsm(rsm::AWS_SECRET_ACCESS_KEY),
            })
        }
        Some(other) => {
            return Err(format!(
                "invalid value {other} for configuration {rsm_prefix}{}: filesystem or s3",
                rsm::BACKEND
            ))
        }
    };
    let rlmm = |k: &str, default: &str| -> Result<i64, String> {
        let key = format!("{rlmm_prefix}{k}");
        let v = config.get(&key).unwrap_or(default);
        v.trim()
            .parse()
            .map_err(|_| format!("invalid value {v:?} for configuration {key}: not an integer"))
    };
    let [(parts, parts_d), (rf, rf_d), (ret, ret_d)] = RLMM_TOPIC_KEYS;
    Ok(Some(fjord_broker::TieringConfig {
        backend,
        prefix: rsm(rsm::KEY_PREFIX).unwrap_or_default(),
        task_interval: millis(config, &broker::REMOTE_LOG_MANAGER_TASK_INTERVAL_MS)?,
        backoff_ms: int(config, &broker::REMOTE_LOG_MANAGER_TASK_RETRY_BACKOFF_MS)?,
        backoff_max_ms: int(
            config,
            &broker::REMOTE_LOG_MANAGER_TASK_RETRY_BACKOFF_MAX_MS,
        )?,
        copiers: usize::try_from(int(
            config,
            &broker::REMOTE_LOG_MANAGER_COPIER_THREAD_POOL_SIZE,
        )?)
        .unwrap_or(10),
        expirers: usize::try_from(int(
            config,
            &broker::REMOTE_LOG_MANAGER_EXPIRATION_THREAD_POOL_SIZE,
        )?)
        .unwrap_or(10),
        copy_max_bytes_per_second: u64::try_from(int(
            config,
            &broker::REMOTE_LOG_MANAGER_COPY_MAX_BYTES_PER_SECOND,
        )?)
        .unwrap_or(u64::MAX),
        fetch_max_bytes_per_second: u64::try_from(int(
            config,
            &broker::REMOTE_LOG_MANAGER_FETCH_MAX_BYTES_PER_SECOND,
        )?)
        .unwrap_or(u64::MAX),
        reader_threads: usize::try_from(int(config, &broker::REMOTE_LOG_READER_THREADS)?)
            .unwrap_or(10),
        reader_max_pending: usize::try_from(int(
            config,
            &broker::REMOTE_LOG_READER_MAX_PENDING_TASKS,
        )?)
        .unwrap_or(100),
        fetch_max_wait: millis(config, &broker::REMOTE_FETCH_MAX_WAIT_MS)
            .unwrap_or(Duration::from_millis(500)),
        metadata_partitions: i32::try_from(rlmm(parts, parts_d)?).unwrap_or(50).max(1),
        metadata_replication_factor: i16::try_from(rlmm(rf, rf_d)?).unwrap_or(3).max(1),
        metadata_retention_ms: rlmm(ret, ret_d)?,
    }))
}
