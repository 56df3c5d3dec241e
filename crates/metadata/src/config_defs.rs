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

/// A key's type.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ConfigType {
    /// A 32-bit integer at least `min`.
    Int(i64),
    /// A 64-bit integer at least `min`.
    Long(i64),
    /// true or false.
    Bool,
    /// A ratio between 0 and 1.
    Double,
    /// Any number at least 0 (a rate, a load factor).
    Number,
    /// One of a fixed set of words (a list when several are allowed).
    Choice(&'static [&'static str], bool),
    /// Any string.
    Text,
    /// A list of throttled replicas: `*` or `partition:broker` pairs (KIP-73).
    ReplicaList,
}

impl ConfigType {
    /// Kafka's DescribeConfigs `ConfigType` number.
    pub fn wire(self) -> i8 {
        match self {
            ConfigType::Bool => 1,
            ConfigType::Text | ConfigType::Choice(_, false) => 2,
            ConfigType::Int(_) => 3,
            ConfigType::Long(_) => 5,
            ConfigType::Double | ConfigType::Number => 6,
            ConfigType::Choice(_, true) | ConfigType::ReplicaList => 7,
        }
    }
}

/// Every topic config: name, type, Kafka's default.
pub const TOPIC_CONFIGS: &[(&str, ConfigType, &str)] = &[
    (
        "cleanup.policy",
        ConfigType::Choice(&["compact", "delete"], true),
        "delete",
    ),
    (
        "compression.type",
        ConfigType::Choice(
            &["uncompressed", "zstd", "lz4", "snappy", "gzip", "producer"],
            false,
        ),
        "producer",
    ),
    ("delete.retention.ms", ConfigType::Long(0), "86400000"),
    ("file.delete.delay.ms", ConfigType::Long(0), "60000"),
    ("flush.messages", ConfigType::Long(1), "9223372036854775807"),
    ("flush.ms", ConfigType::Long(0), "9223372036854775807"),
    (
        "follower.replication.throttled.replicas",
        ConfigType::ReplicaList,
        "",
    ),
    ("index.interval.bytes", ConfigType::Int(0), "4096"),
    (
        "leader.replication.throttled.replicas",
        ConfigType::ReplicaList,
        "",
    ),
    (
        "max.compaction.lag.ms",
        ConfigType::Long(1),
        "9223372036854775807",
    ),
    ("max.message.bytes", ConfigType::Int(0), "1048588"),
    (
        "message.timestamp.after.max.ms",
        ConfigType::Long(0),
        "3600000",
    ),
    (
        "message.timestamp.before.max.ms",
        ConfigType::Long(0),
        "9223372036854775807",
    ),
    (
        "message.timestamp.type",
        ConfigType::Choice(&["CreateTime", "LogAppendTime"], false),
        "CreateTime",
    ),
    ("min.cleanable.dirty.ratio", ConfigType::Double, "0.5"),
    ("min.compaction.lag.ms", ConfigType::Long(0), "0"),
    ("min.insync.replicas", ConfigType::Int(1), "1"),
    ("preallocate", ConfigType::Bool, "false"),
    ("retention.bytes", ConfigType::Long(-1), "-1"),
    ("retention.ms", ConfigType::Long(-1), "604800000"),
    ("segment.bytes", ConfigType::Int(14), "1073741824"),
    ("segment.index.bytes", ConfigType::Int(4), "10485760"),
    ("segment.jitter.ms", ConfigType::Long(0), "0"),
    ("segment.ms", ConfigType::Long(1), "604800000"),
    ("unclean.leader.election.enable", ConfigType::Bool, "false"),
    // fjord's (KIP-966's names): read by `kafka-unclean-recovery --watch`.
    (
        "unclean.recovery.strategy",
        ConfigType::Choice(&["Proactive", "Balanced", "Manual"], false),
        "Balanced",
    ),
    ("unclean.recovery.timeout.ms", ConfigType::Long(1), "300000"),
];

/// Broker configs the controller accepts as dynamic (cluster-wide or per broker).
pub const BROKER_DYNAMIC_CONFIGS: &[(&str, ConfigType, &str)] = &[
    ("min.insync.replicas", ConfigType::Int(1), "1"),
    ("unclean.leader.election.enable", ConfigType::Bool, "false"),
    ("log.retention.ms", ConfigType::Long(-1), "604800000"),
    ("log.retention.bytes", ConfigType::Long(-1), "-1"),
    ("log.segment.bytes", ConfigType::Int(14), "1073741824"),
    (
        "log.cleanup.policy",
        ConfigType::Choice(&["compact", "delete"], true),
        "delete",
    ),
    ("message.max.bytes", ConfigType::Int(0), "1048588"),
    ("num.partitions", ConfigType::Int(1), "1"),
    ("default.replication.factor", ConfigType::Int(1), "1"),
    (
        "leader.replication.throttled.rate",
        ConfigType::Long(0),
        "9223372036854775807",
    ),
    (
        "follower.replication.throttled.rate",
        ConfigType::Long(0),
        "9223372036854775807",
    ),
    (
        "replica.alter.log.dirs.io.max.bytes.per.second",
        ConfigType::Long(0),
        "9223372036854775807",
    ),
];

/// The type of a topic config, if Kafka has it.
pub fn topic_config(name: &str) -> Option<(ConfigType, &'static str)> {
    TOPIC_CONFIGS
        .iter()
        .find(|(n, _, _)| *n == name)
        .map(|(_, t, d)| (*t, *d))
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
    ("advertised.listeners", ConfigType::Text),
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
    ("log.roll.ms", ConfigType::Long(1)),
    ("log.roll.jitter.ms", ConfigType::Long(0)),
    ("log.index.size.max.bytes", ConfigType::Int(4)),
    ("log.flush.interval.messages", ConfigType::Long(1)),
    ("log.flush.interval.ms", ConfigType::Long(0)),
    ("log.index.interval.bytes", ConfigType::Int(0)),
    ("log.cleaner.delete.retention.ms", ConfigType::Long(0)),
    ("log.cleaner.min.compaction.lag.ms", ConfigType::Long(0)),
    ("log.cleaner.max.compaction.lag.ms", ConfigType::Long(1)),
    ("log.segment.delete.delay.ms", ConfigType::Long(0)),
    ("log.cleaner.min.cleanable.ratio", ConfigType::Double),
    (
        "compression.type",
        ConfigType::Choice(
            &["uncompressed", "zstd", "lz4", "snappy", "gzip", "producer"],
            false,
        ),
    ),
    ("compression.gzip.level", ConfigType::Int(-1)),
    ("compression.lz4.level", ConfigType::Int(1)),
    ("compression.zstd.level", ConfigType::Int(-131072)),
    ("log.preallocate", ConfigType::Bool),
    (
        "log.message.timestamp.type",
        ConfigType::Choice(&["CreateTime", "LogAppendTime"], false),
    ),
    (
        "log.message.timestamp.difference.max.ms",
        ConfigType::Long(0),
    ),
    ("log.message.timestamp.before.max.ms", ConfigType::Long(0)),
    ("log.message.timestamp.after.max.ms", ConfigType::Long(0)),
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

/// Why Kafka refuses dynamic broker key `key` for the resource named `broker` ("" is the
/// cluster-wide default), if it does: security keys need a listener prefix, and listener and
/// security keys (but the connection limits and network threads) are per broker only.
pub fn broker_key_refusal(key: &str, broker: &str) -> Option<String> {
    if listener_only(key) {
        return Some(format!(
            "These security configs can be dynamically updated only per-listener using the listener prefix: Set({key})"
        ));
    }
    let base = listener_base(key).unwrap_or(key);
    if broker.is_empty() && is_listener_key(base) && !CLUSTER_LEVEL_LISTENER_KEYS.contains(&base) {
        return Some(format!(
            "Cannot update these configs at default cluster level, broker id must be specified: Set({key})"
        ));
    }
    None
}

/// True when fjord acts on dynamic broker key `key` (the rest are stored and described only).
pub fn broker_key_used(key: &str) -> bool {
    BROKER_DYNAMIC_CONFIGS.iter().any(|(n, _, _)| *n == key)
}

/// The type of a dynamic broker config, if accepted (with Kafka's default where fjord has
/// one, else ""): fjord's own, Kafka's other dynamic keys, and their per-listener forms.
pub fn broker_config(name: &str) -> Option<(ConfigType, &'static str)> {
    if let Some((_, t, d)) = BROKER_DYNAMIC_CONFIGS.iter().find(|(n, _, _)| *n == name) {
        return Some((*t, *d));
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
/// with the factor that turns its value into the topic key's unit (`log.retention.hours` is
/// hours, `retention.ms` milliseconds).
pub fn broker_synonyms(topic_key: &str) -> &'static [(&'static str, i64)] {
    match topic_key {
        "retention.ms" => &[
            ("log.retention.ms", 1),
            ("log.retention.minutes", 60_000),
            ("log.retention.hours", 3_600_000),
        ],
        "retention.bytes" => &[("log.retention.bytes", 1)],
        "segment.bytes" => &[("log.segment.bytes", 1)],
        "segment.ms" => &[("log.roll.ms", 1), ("log.roll.hours", 3_600_000)],
        "cleanup.policy" => &[("log.cleanup.policy", 1)],
        "max.message.bytes" => &[("message.max.bytes", 1)],
        "min.insync.replicas" => &[("min.insync.replicas", 1)],
        "unclean.leader.election.enable" => &[("unclean.leader.election.enable", 1)],
        "compression.type" => &[("compression.type", 1)],
        "message.timestamp.type" => &[("log.message.timestamp.type", 1)],
        "message.timestamp.before.max.ms" => &[("log.message.timestamp.before.max.ms", 1)],
        "message.timestamp.after.max.ms" => &[("log.message.timestamp.after.max.ms", 1)],
        "delete.retention.ms" => &[("log.cleaner.delete.retention.ms", 1)],
        "min.cleanable.dirty.ratio" => &[("log.cleaner.min.cleanable.ratio", 1)],
        "min.compaction.lag.ms" => &[("log.cleaner.min.compaction.lag.ms", 1)],
        "file.delete.delay.ms" => &[("log.segment.delete.delay.ms", 1)],
        "flush.messages" => &[("log.flush.interval.messages", 1)],
        "flush.ms" => &[("log.flush.interval.ms", 1)],
        "index.interval.bytes" => &[("log.index.interval.bytes", 1)],
        "segment.index.bytes" => &[("log.index.size.max.bytes", 1)],
        _ => &[],
    }
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
            broker_key_refusal("listener.name.client.max.connections", ""),
            None
        );
        assert!(broker_key_refusal("listener.name.client.ssl.protocol", "").is_some());
    }
}
