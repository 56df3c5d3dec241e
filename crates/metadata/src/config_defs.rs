//! Topic configuration keys Kafka knows, their types and defaults, and validation of a value
//! (INVALID_CONFIG with Kafka's wording otherwise). Broker-level dynamic keys the controller
//! accepts are listed too, and the broker keys that supply each topic key's default. Shared
//! by the controller (validation) and the broker (DescribeConfigs).

/// Kafka's ConfigResource type of a topic.
pub const TOPIC: i8 = 2;
/// Kafka's ConfigResource type of a broker (an empty name: the cluster-wide default).
pub const BROKER: i8 = 4;

/// Kafka's `ConfigSource` numbers, as DescribeConfigs reports them.
pub mod source {
    /// A topic's own value.
    pub const DYNAMIC_TOPIC: i8 = 1;
    /// A dynamic value for one broker.
    pub const DYNAMIC_BROKER: i8 = 2;
    /// A dynamic cluster-wide default.
    pub const DYNAMIC_DEFAULT_BROKER: i8 = 3;
    /// The broker's `server.properties` (or `--override`).
    pub const STATIC_BROKER: i8 = 4;
    /// Kafka's default.
    pub const DEFAULT: i8 = 5;
}

pub use fjord_configdef::{broker, topic, ConfigType, Def, Scope, Synonym};

/// The type and default of a topic config, if Kafka has it.
pub fn topic_config(name: &str) -> Option<(ConfigType, &'static str)> {
    fjord_configdef::topic_key(name).map(|d| (d.ty, d.default.unwrap_or("")))
}

/// The broker keys the controller accepts at runtime and fjord acts on.
pub fn acted_broker_keys() -> impl Iterator<Item = &'static Def> {
    broker::ALL
        .iter()
        .copied()
        .filter(|d| d.scope == Scope::Acted)
}

/// The rest of Kafka's dynamically updatable broker keys (its `DynamicBrokerConfig`
/// `AllDynamicConfigs`), in three parts: accepted per broker or cluster-wide, stored and
/// described back like any other; fjord does not act on them, and a broker says so in its log
/// when one is set. First, the SSL keystores and truststores (Kafka's
/// `SslConfigs.RECONFIGURABLE_CONFIGS`), which Kafka takes per listener only
/// (`listener.name.<l>.<key>`).
pub const SSL_STORE_KEYS: &[(&str, ConfigType)] = &[
    ("ssl.keystore.type", ConfigType::Text),
    ("ssl.keystore.location", ConfigType::Text),
    ("ssl.keystore.password", ConfigType::Text),
    ("ssl.key.password", ConfigType::Text),
    ("ssl.truststore.type", ConfigType::Text),
    ("ssl.truststore.location", ConfigType::Text),
    ("ssl.truststore.password", ConfigType::Text),
    ("ssl.keystore.certificate.chain", ConfigType::Text),
    ("ssl.keystore.key", ConfigType::Text),
    ("ssl.truststore.certificates", ConfigType::Text),
];

/// Kafka's listener and security keys (its `DynamicListenerConfig`): per broker only, but
/// `CLUSTER_LEVEL_LISTENER_KEYS`; also taken in their `listener.name.<l>.` forms.
pub const LISTENER_KEYS: &[(&str, ConfigType)] = &[
    ("listeners", ConfigType::Text),
    ("listener.security.protocol.map", ConfigType::Text),
    ("principal.builder.class", ConfigType::Text),
    ("ssl.protocol", ConfigType::Text),
    ("ssl.provider", ConfigType::Text),
    ("ssl.cipher.suites", ConfigType::Text),
    ("ssl.enabled.protocols", ConfigType::Text),
    ("ssl.keymanager.algorithm", ConfigType::Text),
    ("ssl.trustmanager.algorithm", ConfigType::Text),
    ("ssl.endpoint.identification.algorithm", ConfigType::Text),
    ("ssl.secure.random.implementation", ConfigType::Text),
    (
        "ssl.client.auth",
        ConfigType::Choice(&["required", "requested", "none"], false),
    ),
    ("ssl.engine.factory.class", ConfigType::Text),
    ("sasl.mechanism.inter.broker.protocol", ConfigType::Text),
    ("sasl.jaas.config", ConfigType::Text),
    ("sasl.enabled.mechanisms", ConfigType::Text),
    ("sasl.kerberos.service.name", ConfigType::Text),
    ("sasl.kerberos.kinit.cmd", ConfigType::Text),
    (
        "sasl.kerberos.ticket.renew.window.factor",
        ConfigType::Number,
    ),
    ("sasl.kerberos.ticket.renew.jitter", ConfigType::Number),
    ("sasl.kerberos.min.time.before.relogin", ConfigType::Long(0)),
    ("sasl.kerberos.principal.to.local.rules", ConfigType::Text),
    ("sasl.login.refresh.window.factor", ConfigType::Number),
    ("sasl.login.refresh.window.jitter", ConfigType::Number),
    ("sasl.login.refresh.min.period.seconds", ConfigType::Int(0)),
    ("sasl.login.refresh.buffer.seconds", ConfigType::Int(0)),
    // Connections (also per listener; cluster-wide allowed).
    ("max.connections", ConfigType::Int(0)),
    ("max.connection.creation.rate", ConfigType::Int(0)),
    ("num.network.threads", ConfigType::Int(1)),
];

/// Kafka's other dynamic broker keys.
pub const OTHER_DYNAMIC_KEYS: &[(&str, ConfigType)] = &[
    ("log.cleaner.threads", ConfigType::Int(0)),
    ("log.cleaner.dedupe.buffer.size", ConfigType::Long(0)),
    ("log.cleaner.io.buffer.load.factor", ConfigType::Number),
    ("log.cleaner.io.buffer.size", ConfigType::Int(0)),
    ("log.cleaner.io.max.bytes.per.second", ConfigType::Number),
    ("log.cleaner.backoff.ms", ConfigType::Long(0)),
    // Broker defaults of topic configs.
    ("log.roll.jitter.ms", ConfigType::Long(0)),
    ("log.cleaner.max.compaction.lag.ms", ConfigType::Long(1)),
    ("compression.gzip.level", ConfigType::Int(-1)),
    ("compression.lz4.level", ConfigType::Int(1)),
    ("compression.zstd.level", ConfigType::Int(-131072)),
    ("log.preallocate", ConfigType::Bool),
    (
        "log.message.timestamp.difference.max.ms",
        ConfigType::Long(0),
    ),
    ("log.message.downconversion.enable", ConfigType::Bool),
    ("log.local.retention.ms", ConfigType::Long(-2)),
    ("log.local.retention.bytes", ConfigType::Long(-2)),
    // Thread pools.
    ("num.io.threads", ConfigType::Int(1)),
    ("num.replica.fetchers", ConfigType::Int(1)),
    ("num.recovery.threads.per.data.dir", ConfigType::Int(1)),
    ("background.threads", ConfigType::Int(1)),
    ("metric.reporters", ConfigType::Text),
    // Connections.
    ("max.connections.per.ip", ConfigType::Int(0)),
    ("max.connections.per.ip.overrides", ConfigType::Text),
    // Producer state and transactions.
    ("producer.id.expiration.ms", ConfigType::Int(1)),
    (
        "transaction.partition.verification.enable",
        ConfigType::Bool,
    ),
    // Tiered storage.
    (
        "remote.log.index.file.cache.total.size.bytes",
        ConfigType::Long(1),
    ),
    ("remote.fetch.max.wait.ms", ConfigType::Int(1)),
    (
        "remote.log.manager.copy.max.bytes.per.second",
        ConfigType::Long(1),
    ),
    (
        "remote.log.manager.fetch.max.bytes.per.second",
        ConfigType::Long(1),
    ),
    (
        "remote.list.offsets.request.timeout.ms",
        ConfigType::Long(1),
    ),
];

/// Kafka 4.4's broker keys that only the server properties set (its `nonDynamicConfigs`,
/// dumped from the 4.4.0 jars), but the two fjord lets change at runtime (`num.partitions`,
/// `default.replication.factor`): a dynamic update naming one is refused.
pub const STATIC_BROKER_KEYS: &[&str] = &[
    "add.partitions.to.txn.retry.backoff.max.ms",
    "add.partitions.to.txn.retry.backoff.ms",
    "advertised.listeners",
    "alter.config.policy.class.name",
    "alter.log.dirs.replication.quota.window.num",
    "alter.log.dirs.replication.quota.window.size.seconds",
    "authorizer.class.name",
    "auto.create.topics.enable",
    "auto.leader.rebalance.enable",
    "broker.heartbeat.interval.ms",
    "broker.id",
    "broker.rack",
    "broker.session.timeout.ms",
    "client.quota.callback.class",
    "connection.failed.authentication.delay.ms",
    "connections.max.idle.ms",
    "connections.max.reauth.ms",
    "controlled.shutdown.enable",
    "controller.listener.names",
    "controller.performance.always.log.threshold.ms",
    "controller.performance.sample.period.ms",
    "controller.quorum.append.linger.ms",
    "controller.quorum.auto.join.enable",
    "controller.quorum.bootstrap.servers",
    "controller.quorum.election.backoff.max.ms",
    "controller.quorum.election.timeout.ms",
    "controller.quorum.fetch.max.bytes",
    "controller.quorum.fetch.snapshot.max.bytes",
    "controller.quorum.fetch.timeout.ms",
    "controller.quorum.request.timeout.ms",
    "controller.quorum.retry.backoff.ms",
    "controller.quorum.voters",
    "controller.quota.window.num",
    "controller.quota.window.size.seconds",
    "controller.socket.timeout.ms",
    "create.topic.policy.class.name",
    "delegation.token.expiry.check.interval.ms",
    "delegation.token.expiry.time.ms",
    "delegation.token.max.lifetime.ms",
    "delegation.token.secret.key",
    "delete.records.purgatory.purge.interval.requests",
    "delete.topic.enable",
    "early.start.listeners",
    "fetch.max.bytes",
    "fetch.purgatory.purge.interval.requests",
    "group.consumer.assignors",
    "group.consumer.heartbeat.interval.ms",
    "group.consumer.max.assignment.interval.ms",
    "group.consumer.max.heartbeat.interval.ms",
    "group.consumer.max.session.timeout.ms",
    "group.consumer.max.size",
    "group.consumer.migration.policy",
    "group.consumer.min.assignment.interval.ms",
    "group.consumer.min.heartbeat.interval.ms",
    "group.consumer.min.session.timeout.ms",
    "group.consumer.regex.refresh.interval.ms",
    "group.consumer.session.timeout.ms",
    "group.coordinator.append.linger.ms",
    "group.coordinator.background.threads",
    "group.coordinator.rebalance.protocols",
    "group.coordinator.threads",
    "group.initial.rebalance.delay.ms",
    "group.max.session.timeout.ms",
    "group.max.size",
    "group.min.session.timeout.ms",
    "group.share.assignors",
    "group.share.delivery.count.limit",
    "group.share.dlq.manager.class.name",
    "group.share.heartbeat.interval.ms",
    "group.share.initialize.retry.interval.ms",
    "group.share.max.assignment.interval.ms",
    "group.share.max.delivery.count.limit",
    "group.share.max.heartbeat.interval.ms",
    "group.share.max.partition.max.record.locks",
    "group.share.max.record.lock.duration.ms",
    "group.share.max.session.timeout.ms",
    "group.share.max.share.sessions",
    "group.share.max.size",
    "group.share.min.assignment.interval.ms",
    "group.share.min.delivery.count.limit",
    "group.share.min.heartbeat.interval.ms",
    "group.share.min.partition.max.record.locks",
    "group.share.min.record.lock.duration.ms",
    "group.share.min.session.timeout.ms",
    "group.share.partition.max.record.locks",
    "group.share.persister.class.name",
    "group.share.record.lock.duration.ms",
    "group.share.session.timeout.ms",
    "group.streams.acceptable.recovery.lag",
    "group.streams.assignors",
    "group.streams.heartbeat.interval.ms",
    "group.streams.initial.rebalance.delay.ms",
    "group.streams.max.assignment.interval.ms",
    "group.streams.max.heartbeat.interval.ms",
    "group.streams.max.session.timeout.ms",
    "group.streams.max.size",
    "group.streams.max.standby.replicas",
    "group.streams.max.warmup.replicas",
    "group.streams.min.assignment.interval.ms",
    "group.streams.min.heartbeat.interval.ms",
    "group.streams.min.session.timeout.ms",
    "group.streams.min.task.offset.interval.ms",
    "group.streams.num.standby.replicas",
    "group.streams.num.warmup.replicas",
    "group.streams.rack.aware.assignment.tags",
    "group.streams.session.timeout.ms",
    "group.streams.task.offset.interval.ms",
    "group.streams.topology.description.plugin.class",
    "initial.broker.registration.timeout.ms",
    "inter.broker.listener.name",
    "internal.metadata.delete.delay.millis",
    "internal.metadata.log.segment.bytes",
    "internal.metadata.max.batch.size.in.bytes",
    "kafka.metrics.polling.interval.secs",
    "kafka.metrics.reporters",
    "leader.imbalance.check.interval.seconds",
    "log.cleaner.enable",
    "log.dir",
    "log.dir.failure.timeout.ms",
    "log.dirs",
    "log.flush.offset.checkpoint.interval.ms",
    "log.flush.scheduler.interval.ms",
    "log.flush.start.offset.checkpoint.interval.ms",
    "log.initial.task.delay.ms",
    "log.retention.check.interval.ms",
    "log.roll.jitter.hours",
    "max.incremental.fetch.session.cache.slots",
    "max.request.partition.size.limit",
    "metadata.log.dir",
    "metadata.log.max.record.bytes.between.snapshots",
    "metadata.log.max.snapshot.interval.ms",
    "metadata.log.segment.bytes",
    "metadata.log.segment.ms",
    "metadata.max.idle.interval.ms",
    "metadata.max.retention.bytes",
    "metadata.max.retention.ms",
    "metrics.num.samples",
    "metrics.recording.level",
    "metrics.sample.window.ms",
    "node.id",
    "num.replica.alter.log.dirs.threads",
    "offset.metadata.max.bytes",
    "offsets.commit.timeout.ms",
    "offsets.load.buffer.size",
    "offsets.retention.check.interval.ms",
    "offsets.retention.minutes",
    "offsets.topic.compression.codec",
    "offsets.topic.num.partitions",
    "offsets.topic.replication.factor",
    "offsets.topic.segment.bytes",
    "process.roles",
    "producer.id.expiration.check.interval.ms",
    "producer.purgatory.purge.interval.requests",
    "queued.max.request.bytes",
    "queued.max.requests",
    "quota.window.num",
    "quota.window.size.seconds",
    "remote.log.index.file.cache.ttl.ms",
    "remote.log.manager.copy.quota.window.num",
    "remote.log.manager.copy.quota.window.size.seconds",
    "remote.log.manager.fetch.quota.window.num",
    "remote.log.manager.fetch.quota.window.size.seconds",
    "remote.log.manager.task.interval.ms",
    "remote.log.manager.task.retry.backoff.max.ms",
    "remote.log.manager.task.retry.backoff.ms",
    "remote.log.manager.task.retry.jitter",
    "remote.log.manager.thread.pool.size",
    "remote.log.metadata.custom.metadata.max.bytes",
    "remote.log.metadata.manager.class.name",
    "remote.log.metadata.manager.class.path",
    "remote.log.metadata.manager.impl.prefix",
    "remote.log.metadata.manager.listener.name",
    "remote.log.reader.max.pending.tasks",
    "remote.log.storage.manager.class.name",
    "remote.log.storage.manager.class.path",
    "remote.log.storage.manager.impl.prefix",
    "remote.log.storage.system.enable",
    "replica.fetch.backoff.ms",
    "replica.fetch.max.bytes",
    "replica.fetch.min.bytes",
    "replica.fetch.response.max.bytes",
    "replica.fetch.wait.max.ms",
    "replica.high.watermark.checkpoint.interval.ms",
    "replica.lag.time.max.ms",
    "replica.selector.class",
    "replica.socket.receive.buffer.bytes",
    "replica.socket.timeout.ms",
    "replication.quota.window.num",
    "replication.quota.window.size.seconds",
    "request.timeout.ms",
    "sasl.client.callback.handler.class",
    "sasl.login.callback.handler.class",
    "sasl.login.class",
    "sasl.login.connect.timeout.ms",
    "sasl.login.read.timeout.ms",
    "sasl.login.retry.backoff.max.ms",
    "sasl.login.retry.backoff.ms",
    "sasl.mechanism.controller.protocol",
    "sasl.oauthbearer.allow.unverified.audience",
    "sasl.oauthbearer.allow.unverified.issuer",
    "sasl.oauthbearer.assertion.algorithm",
    "sasl.oauthbearer.assertion.claim.aud",
    "sasl.oauthbearer.assertion.claim.exp.seconds",
    "sasl.oauthbearer.assertion.claim.iss",
    "sasl.oauthbearer.assertion.claim.jti.include",
    "sasl.oauthbearer.assertion.claim.nbf.seconds",
    "sasl.oauthbearer.assertion.claim.sub",
    "sasl.oauthbearer.assertion.file",
    "sasl.oauthbearer.assertion.private.key.file",
    "sasl.oauthbearer.assertion.private.key.passphrase",
    "sasl.oauthbearer.assertion.template.file",
    "sasl.oauthbearer.client.credentials.client.id",
    "sasl.oauthbearer.client.credentials.client.secret",
    "sasl.oauthbearer.clock.skew.seconds",
    "sasl.oauthbearer.expected.audience",
    "sasl.oauthbearer.expected.issuer",
    "sasl.oauthbearer.jwks.endpoint.refresh.ms",
    "sasl.oauthbearer.jwks.endpoint.retry.backoff.max.ms",
    "sasl.oauthbearer.jwks.endpoint.retry.backoff.ms",
    "sasl.oauthbearer.jwks.endpoint.url",
    "sasl.oauthbearer.jwt.retriever.class",
    "sasl.oauthbearer.jwt.validator.class",
    "sasl.oauthbearer.scope",
    "sasl.oauthbearer.scope.claim.name",
    "sasl.oauthbearer.sub.claim.name",
    "sasl.oauthbearer.token.endpoint.url",
    "sasl.server.callback.handler.class",
    "sasl.server.max.receive.size",
    "security.inter.broker.protocol",
    "security.providers",
    "server.max.startup.time.ms",
    "share.coordinator.append.linger.ms",
    "share.coordinator.cold.partition.snapshot.interval.ms",
    "share.coordinator.load.buffer.size",
    "share.coordinator.snapshot.update.records.per.snapshot",
    "share.coordinator.state.topic.compression.codec",
    "share.coordinator.state.topic.min.isr",
    "share.coordinator.state.topic.num.partitions",
    "share.coordinator.state.topic.prune.interval.ms",
    "share.coordinator.state.topic.replication.factor",
    "share.coordinator.state.topic.segment.bytes",
    "share.coordinator.threads",
    "share.coordinator.write.timeout.ms",
    "share.fetch.purgatory.purge.interval.requests",
    "socket.connection.setup.timeout.max.ms",
    "socket.connection.setup.timeout.ms",
    "socket.listen.backlog.size",
    "socket.receive.buffer.bytes",
    "socket.request.max.bytes",
    "socket.send.buffer.bytes",
    "ssl.allow.dn.changes",
    "ssl.allow.san.changes",
    "ssl.principal.mapping.rules",
    "telemetry.max.bytes",
    "transaction.abort.timed.out.transaction.cleanup.interval.ms",
    "transaction.max.timeout.ms",
    "transaction.remove.expired.transaction.cleanup.interval.ms",
    "transaction.state.log.load.buffer.size",
    "transaction.state.log.min.isr",
    "transaction.state.log.num.partitions",
    "transaction.state.log.replication.factor",
    "transaction.state.log.segment.bytes",
    "transaction.two.phase.commit.enable",
    "transactional.id.expiration.ms",
    "unclean.leader.election.interval.ms",
    "unstable.api.versions.enable",
    "unstable.feature.versions.enable",
];

/// The listener keys that may be set cluster-wide (every other listener or security key is
/// per broker).
const CLUSTER_LEVEL_LISTENER_KEYS: [&str; 3] = [
    "max.connections",
    "max.connection.creation.rate",
    "num.network.threads",
];

/// The key a `listener.name.<listener>.` key sets, and for SASL keys the mechanism prefix
/// dropped (`listener.name.sasl_ssl.plain.sasl.jaas.config` sets `sasl.jaas.config`).
pub fn listener_base(key: &str) -> Option<&str> {
    let rest = key.strip_prefix("listener.name.")?;
    let (_, base) = rest.split_once('.')?;
    if base.starts_with("sasl.") || base.starts_with("ssl.") || !base.contains('.') {
        return Some(base);
    }
    match base.split_once('.') {
        Some((_, sasl)) if sasl.starts_with("sasl.") => Some(sasl),
        _ => Some(base),
    }
}

/// The type of `key` in `table`, if it is there.
fn find(table: &[(&str, ConfigType)], key: &str) -> Option<ConfigType> {
    table.iter().find(|(n, _)| *n == key).map(|(_, t)| *t)
}

/// True for the security keys Kafka takes per listener only.
fn listener_only(key: &str) -> bool {
    find(SSL_STORE_KEYS, key).is_some()
}

/// True for the listener and security keys of Kafka's dynamic set.
fn is_listener_key(key: &str) -> bool {
    listener_only(key) || find(LISTENER_KEYS, key).is_some()
}

/// `[a, b]`: the keys as Kafka's messages list them.
fn key_list(keys: &[&str]) -> String {
    let mut keys = keys.to_vec();
    keys.sort_unstable();
    keys.dedup();
    format!("[{}]", keys.join(", "))
}

/// True for a broker key only the server properties set (declared static, or in Kafka's
/// list of the rest).
pub fn is_static(key: &str) -> bool {
    STATIC_BROKER_KEYS.contains(&key)
        || fjord_configdef::broker_key(key).is_some_and(|d| d.scope == Scope::Static)
}

/// Why Kafka refuses a dynamic broker update setting `keys`, before it looks at any value:
/// keys only the server properties set, then security keys without a listener prefix.
pub fn broker_update_refusal(keys: &[&str]) -> Option<String> {
    let fixed: Vec<&str> = keys.iter().copied().filter(|k| is_static(k)).collect();
    if !fixed.is_empty() {
        return Some(format!(
            "Cannot update these configs dynamically: {}",
            key_list(&fixed)
        ));
    }
    let bare: Vec<&str> = keys.iter().copied().filter(|k| listener_only(k)).collect();
    if !bare.is_empty() {
        return Some(format!(
            "These security configs can be dynamically updated only per-listener using the listener prefix: {}",
            key_list(&bare)
        ));
    }
    None
}

/// Why Kafka refuses setting `keys` on the cluster-wide default (`broker` is ""), after the
/// values passed: listener and security keys (but the connection limits and network
/// threads) are per broker only.
pub fn broker_default_refusal(keys: &[&str], broker: &str) -> Option<String> {
    if !broker.is_empty() {
        return None;
    }
    let per_broker: Vec<&str> = keys
        .iter()
        .copied()
        .filter(|k| {
            let base = listener_base(k).unwrap_or(k);
            is_listener_key(base) && !CLUSTER_LEVEL_LISTENER_KEYS.contains(&base)
        })
        .collect();
    (!per_broker.is_empty()).then(|| {
        format!(
            "Cannot update these configs at default cluster level, broker id must be specified: {}",
            key_list(&per_broker)
        )
    })
}

/// The wire type DescribeConfigs gives a dynamic broker key as set: its own, or for a custom
/// key Kafka does not know, UNKNOWN (0), as Kafka describes one.
pub fn broker_key_wire_type(key: &str) -> i8 {
    broker_config(key).map_or(0, |(t, _)| t.wire())
}

/// True when fjord acts on dynamic broker key `key` (the rest are stored and described only).
pub fn broker_key_used(key: &str) -> bool {
    fjord_configdef::broker_key(key).is_some_and(|d| d.scope == Scope::Acted)
}

/// The type of a dynamic broker config, if accepted (with Kafka's default where fjord acts
/// on it, else ""): fjord's own, Kafka's other dynamic keys, and their per-listener forms.
pub fn broker_config(name: &str) -> Option<(ConfigType, &'static str)> {
    match fjord_configdef::broker_key(name) {
        Some(d) if d.scope == Scope::Acted => {
            return Some((d.ty, d.default.unwrap_or_default()));
        }
        Some(d) if d.scope == Scope::Stored => return Some((d.ty, "")),
        Some(_) => return None,
        None => {}
    }
    let kafka = |key: &str| {
        find(SSL_STORE_KEYS, key)
            .or_else(|| find(LISTENER_KEYS, key))
            .or_else(|| find(OTHER_DYNAMIC_KEYS, key))
            .map(|t| (t, ""))
    };
    match listener_base(name) {
        Some(base) if is_listener_key(base) => kafka(base),
        Some(_) => None,
        None => kafka(name),
    }
}

/// Checks `value` for a key of type `t`; the message names the key as Kafka's does.
pub fn validate(name: &str, t: ConfigType, value: &str) -> Result<(), crate::MetadataError> {
    let bad = |why: String| {
        Err(crate::MetadataError::InvalidConfig(format!(
            "Invalid value {value} for configuration {name}: {why}"
        )))
    };
    match t {
        ConfigType::Int(min) => match value.trim().parse::<i32>() {
            Ok(v) if i64::from(v) >= min => Ok(()),
            Ok(_) => bad(format!("Value must be at least {min}")),
            Err(_) => bad("Not a number of type INT".into()),
        },
        ConfigType::Long(min) => match value.trim().parse::<i64>() {
            Ok(v) if v >= min => Ok(()),
            Ok(_) => bad(format!("Value must be at least {min}")),
            Err(_) => bad("Not a number of type LONG".into()),
        },
        ConfigType::Bool => {
            if value.eq_ignore_ascii_case("true") || value.eq_ignore_ascii_case("false") {
                Ok(())
            } else {
                bad("Expected value to be either true or false".into())
            }
        }
        ConfigType::Double => match value.trim().parse::<f64>() {
            Ok(v) if (0.0..=1.0).contains(&v) => Ok(()),
            Ok(_) => bad("Value must be between 0 and 1".into()),
            Err(_) => bad("Not a number of type DOUBLE".into()),
        },
        ConfigType::Number => match value.trim().parse::<f64>() {
            Ok(v) if v >= 0.0 => Ok(()),
            Ok(_) => bad("Value must be at least 0".into()),
            Err(_) => bad("Not a number of type DOUBLE".into()),
        },
        ConfigType::Choice(words, list) => {
            let parts: Vec<&str> = if list {
                value.split(',').map(str::trim).collect()
            } else {
                vec![value.trim()]
            };
            if parts.iter().all(|p| words.contains(p)) && !parts.is_empty() {
                Ok(())
            } else {
                bad(format!("String must be one of: {}", words.join(", ")))
            }
        }
        ConfigType::Text => Ok(()),
        ConfigType::ReplicaList => fjord_quota::ThrottledReplicas::parse(name, value)
            .map(|_| ())
            .map_err(|why| {
                crate::MetadataError::InvalidConfig(format!(
                    "Invalid value {value} for configuration {name}: {why}"
                ))
            }),
    }
}

/// The broker keys that supply a topic key's default, in Kafka's order of precedence, each
/// with the factor that turns its value into the topic key's unit (the key's declared chain).
pub fn broker_synonyms(topic_key: &str) -> &'static [fjord_configdef::Synonym] {
    fjord_configdef::topic_key(topic_key).map_or(&[], |d| d.synonyms)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_per_listener_keys_are_kafkas_ssl_stores() {
        // Kafka's SslConfigs.RECONFIGURABLE_CONFIGS.
        let stores: Vec<&str> = SSL_STORE_KEYS.iter().map(|(n, _)| *n).collect();
        assert_eq!(stores.len(), 10);
        assert!(stores.iter().all(|k| k.starts_with("ssl.")
            && (k.contains("keystore") || k.contains("truststore") || *k == "ssl.key.password")));
        assert!(!listener_only("ssl.protocol"));
        assert_eq!(
            listener_base("listener.name.sasl_ssl.scram-sha-256.sasl.jaas.config"),
            Some("sasl.jaas.config")
        );
        assert_eq!(
            listener_base("listener.name.client.max.connections"),
            Some("max.connections")
        );
        assert_eq!(listener_base("max.connections"), None);
        // Kafka's listener connection limits: per listener, and cluster-wide too.
        assert!(broker_config("listener.name.client.max.connections").is_some());
        assert_eq!(
            broker_default_refusal(&["listener.name.client.max.connections"], ""),
            None
        );
        assert!(broker_default_refusal(&["listener.name.client.ssl.protocol"], "").is_some());
        assert_eq!(
            broker_default_refusal(&["listener.name.client.ssl.protocol"], "1"),
            None
        );
    }

    #[test]
    fn static_keys_and_bare_security_keys_are_refused_in_kafkas_order() {
        // Kafka 4.4 lists keys as a Java set prints: "[a, b]".
        assert_eq!(
            broker_update_refusal(&["log.dirs", "node.id", "ssl.keystore.location"]).as_deref(),
            Some("Cannot update these configs dynamically: [log.dirs, node.id]")
        );
        assert_eq!(
            broker_update_refusal(&["ssl.keystore.location"]).as_deref(),
            Some("These security configs can be dynamically updated only per-listener using the listener prefix: [ssl.keystore.location]")
        );
        // Custom keys and the keys fjord changes at runtime pass.
        assert_eq!(
            broker_update_refusal(&[
                "my.key",
                "num.partitions",
                "listener.name.x.ssl.keystore.location"
            ]),
            None
        );
        // No key is both static and dynamic.
        let declared = broker::ALL.iter().filter(|d| d.scope == Scope::Static);
        for key in STATIC_BROKER_KEYS
            .iter()
            .copied()
            .chain(declared.map(|d| d.name))
        {
            assert!(broker_config(key).is_none(), "{key} is static and dynamic");
        }
        assert_eq!(broker_key_wire_type("my.key"), 0);
    }
}
