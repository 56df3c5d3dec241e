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
            ConfigType::Double => 6,
            ConfigType::Choice(_, true) | ConfigType::ReplicaList => 7,
        }
    }
}

/// Every topic config: name, type, Kafka's default.
pub const TOPIC_CONFIGS: &[(&str, ConfigType, &str)] = &[
    (
        "cleanup.policy",
        ConfigType::Choice(&["delete", "compact"], true),
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
        ConfigType::Choice(&["delete", "compact"], true),
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

/// The type of a dynamic broker config, if accepted.
pub fn broker_config(name: &str) -> Option<(ConfigType, &'static str)> {
    BROKER_DYNAMIC_CONFIGS
        .iter()
        .find(|(n, _, _)| *n == name)
        .map(|(_, t, d)| (*t, *d))
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
