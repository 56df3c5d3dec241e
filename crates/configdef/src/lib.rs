//! Every topic key and every broker key fjord knows, declared once as Kafka's `ConfigDef` declares a key: name, type (with its validator's
//! bounds), default, dynamic scope, documentation and synonym chain. Validation, DescribeConfigs,
//! the server's properties check, `docs/reference/configuration.md` and the readers all take a
//! key from here; a test fails when one of these names is spelled as a string anywhere else.

/// A key's type; its bounds are the validator's.
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

    /// The least value a number of this type may take (None: not a bounded integer).
    pub fn min(self) -> Option<i64> {
        match self {
            ConfigType::Int(min) | ConfigType::Long(min) => Some(min),
            _ => None,
        }
    }
}

/// Where a key is set and whether fjord acts on it at runtime.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Scope {
    /// A topic's config (`kafka-configs --entity-type topics`).
    Topic,
    /// A broker key changed at runtime (per broker or cluster-wide) that fjord acts on.
    Acted,
    /// A key of Kafka's dynamic set that fjord accepts, stores and describes back only.
    Stored(Dynamic),
    /// A broker key only `server.properties` sets.
    Static,
}

/// Where a key of Kafka's dynamic set may be set (Kafka's `DynamicBrokerConfig`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Dynamic {
    /// Per broker or cluster-wide.
    Broker,
    /// A listener or security key (also `listener.name.<l>.<key>`), per broker only.
    ListenerPerBroker,
    /// A listener key that may also be set cluster-wide (the connection limits, the network
    /// threads).
    ListenerCluster,
    /// An SSL key or trust store: per listener only (`listener.name.<l>.<key>`).
    ListenerOnly,
}

impl Scope {
    /// True for a key a client may change at runtime (dynamic broker keys).
    pub fn is_dynamic(self) -> bool {
        matches!(self, Scope::Acted | Scope::Stored(_))
    }

    /// True for Kafka's listener and security keys (taken in `listener.name.<l>.` forms).
    pub fn is_listener(self) -> bool {
        matches!(
            self,
            Scope::Stored(
                Dynamic::ListenerPerBroker | Dynamic::ListenerCluster | Dynamic::ListenerOnly
            )
        )
    }
}

/// A broker key whose value supplies another key's default, and the factor that turns its
/// unit into the other's (`log.retention.hours` is hours, `retention.ms` milliseconds).
#[derive(Debug, Clone, Copy)]
pub struct Synonym {
    /// The broker key.
    pub def: &'static Def,
    /// Its value times this is the other key's value.
    pub factor: i64,
}

/// One key's definition.
#[derive(Debug, Clone, Copy)]
pub struct Def {
    /// The key.
    pub name: &'static str,
    /// Its type and the validator's bounds.
    pub ty: ConfigType,
    /// Kafka's default (None: none; the synonyms may supply one).
    pub default: Option<&'static str>,
    /// Where it is set.
    pub scope: Scope,
    /// True when the server reads it from `server.properties` at start (a key it does not
    /// read is warned about there).
    pub read: bool,
    /// One line in fjord's words.
    pub doc: &'static str,
    /// The broker keys that supply its default, in Kafka's order of precedence.
    pub synonyms: &'static [Synonym],
}

impl Def {
    /// The default in effect when neither the key nor a synonym is set: its own, else the
    /// first synonym's (times its factor).
    pub fn effective_default(&self) -> Option<String> {
        if let Some(d) = self.default {
            return Some(d.to_string());
        }
        self.synonyms.iter().find_map(|s| {
            let d = s.def.default?;
            if s.factor == 1 {
                return Some(d.to_string());
            }
            d.parse::<i64>().ok().map(|v| (v * s.factor).to_string())
        })
    }

    /// The first synonym fjord acts on at runtime (the cluster-wide broker setting that a
    /// topic without its own value takes).
    pub fn acted_synonym(&self) -> Option<&'static Def> {
        self.synonyms
            .iter()
            .map(|s| s.def)
            .find(|d| d.scope == Scope::Acted)
    }
}

/// The codecs `compression.type` names.
const COMPRESSION_TYPES: &[&str] = &["uncompressed", "zstd", "lz4", "snappy", "gzip", "producer"];
/// The timestamp types `message.timestamp.type` names.
const TIMESTAMP_TYPES: &[&str] = &["CreateTime", "LogAppendTime"];
/// Topic keys.
pub mod topic {
    use super::*;
    /// `cleanup.policy`.
    pub const CLEANUP_POLICY: Def = Def {
        name: "cleanup.policy",
        ty: ConfigType::Choice(&["compact", "delete"], true),
        default: Some("delete"),
        scope: Scope::Topic,
        read: false,
        doc: "How old segments are dealt with: `delete` removes them past retention, `compact` keeps the latest record of each key; both may be listed.",
        synonyms: &[Synonym { def: &super::broker::LOG_CLEANUP_POLICY, factor: 1 }],
    };
    /// `compression.type`.
    pub const COMPRESSION_TYPE: Def = Def {
        name: "compression.type",
        ty: ConfigType::Choice(COMPRESSION_TYPES, false),
        default: Some("producer"),
        scope: Scope::Topic,
        read: false,
        doc: "The codec batches are stored with; `producer` keeps whatever the producer used.",
        synonyms: &[Synonym {
            def: &super::broker::COMPRESSION_TYPE,
            factor: 1,
        }],
    };
    /// `delete.retention.ms`.
    pub const DELETE_RETENTION_MS: Def = Def {
        name: "delete.retention.ms",
        ty: ConfigType::Long(0),
        default: Some("86400000"),
        scope: Scope::Topic,
        read: false,
        doc: "How long tombstones are kept after compaction, so that consumers that read late still see the delete.",
        synonyms: &[Synonym { def: &super::broker::LOG_CLEANER_DELETE_RETENTION_MS, factor: 1 }],
    };
    /// `errors.deadletterqueue.group.enable`.
    pub const ERRORS_DEADLETTERQUEUE_GROUP_ENABLE: Def = Def {
        name: "errors.deadletterqueue.group.enable",
        ty: ConfigType::Bool,
        default: Some("false"),
        scope: Scope::Topic,
        read: false,
        doc: "Whether share groups may use this topic as their dead-letter queue (KIP-1191); a group naming a topic without it writes no dead letters.",
        synonyms: &[],
    };
    /// `file.delete.delay.ms`.
    pub const FILE_DELETE_DELAY_MS: Def = Def {
        name: "file.delete.delay.ms",
        ty: ConfigType::Long(0),
        default: Some("60000"),
        scope: Scope::Topic,
        read: false,
        doc: "How long a removed segment file waits on disk before it is deleted.",
        synonyms: &[Synonym {
            def: &super::broker::LOG_SEGMENT_DELETE_DELAY_MS,
            factor: 1,
        }],
    };
    /// `flush.messages`.
    pub const FLUSH_MESSAGES: Def = Def {
        name: "flush.messages",
        ty: ConfigType::Long(1),
        default: Some("9223372036854775807"),
        scope: Scope::Topic,
        read: false,
        doc: "How many records may be appended before the log is forced to disk (the default leaves it to the operating system).",
        synonyms: &[Synonym { def: &super::broker::LOG_FLUSH_INTERVAL_MESSAGES, factor: 1 }],
    };
    /// `flush.ms`.
    pub const FLUSH_MS: Def = Def {
        name: "flush.ms",
        ty: ConfigType::Long(0),
        default: Some("9223372036854775807"),
        scope: Scope::Topic,
        read: false,
        doc: "How long appended records may wait before the log is forced to disk (the default leaves it to the operating system).",
        synonyms: &[Synonym { def: &super::broker::LOG_FLUSH_INTERVAL_MS, factor: 1 }],
    };
    /// `follower.replication.throttled.replicas`.
    pub const FOLLOWER_REPLICATION_THROTTLED_REPLICAS: Def = Def {
        name: "follower.replication.throttled.replicas",
        ty: ConfigType::ReplicaList,
        default: Some(""),
        scope: Scope::Topic,
        read: false,
        doc: "The replicas (partition:broker, or `*`) whose follower fetches are held to follower.replication.throttled.rate.",
        synonyms: &[],
    };
    /// `index.interval.bytes`.
    pub const INDEX_INTERVAL_BYTES: Def = Def {
        name: "index.interval.bytes",
        ty: ConfigType::Int(0),
        default: Some("4096"),
        scope: Scope::Topic,
        read: false,
        doc: "How many bytes of records lie between two entries of the offset index.",
        synonyms: &[Synonym {
            def: &super::broker::LOG_INDEX_INTERVAL_BYTES,
            factor: 1,
        }],
    };
    /// `leader.replication.throttled.replicas`.
    pub const LEADER_REPLICATION_THROTTLED_REPLICAS: Def = Def {
        name: "leader.replication.throttled.replicas",
        ty: ConfigType::ReplicaList,
        default: Some(""),
        scope: Scope::Topic,
        read: false,
        doc: "The replicas (partition:broker, or `*`) whose fetches from the leader are held to leader.replication.throttled.rate.",
        synonyms: &[],
    };
    /// `max.compaction.lag.ms`.
    pub const MAX_COMPACTION_LAG_MS: Def = Def {
        name: "max.compaction.lag.ms",
        ty: ConfigType::Long(1),
        default: Some("9223372036854775807"),
        scope: Scope::Topic,
        read: false,
        doc: "The longest a record may stay uncompacted in a compacted log.",
        synonyms: &[],
    };
    /// `max.message.bytes`.
    pub const MAX_MESSAGE_BYTES: Def = Def {
        name: "max.message.bytes",
        ty: ConfigType::Int(0),
        default: Some("1048588"),
        scope: Scope::Topic,
        read: false,
        doc: "The largest record batch the topic accepts, after compression.",
        synonyms: &[Synonym {
            def: &super::broker::MESSAGE_MAX_BYTES,
            factor: 1,
        }],
    };
    /// `message.timestamp.after.max.ms`.
    pub const MESSAGE_TIMESTAMP_AFTER_MAX_MS: Def = Def {
        name: "message.timestamp.after.max.ms",
        ty: ConfigType::Long(0),
        default: Some("3600000"),
        scope: Scope::Topic,
        read: false,
        doc: "How far in the future a record's timestamp may be compared to the broker's clock before the batch is refused.",
        synonyms: &[Synonym { def: &super::broker::LOG_MESSAGE_TIMESTAMP_AFTER_MAX_MS, factor: 1 }],
    };
    /// `message.timestamp.before.max.ms`.
    pub const MESSAGE_TIMESTAMP_BEFORE_MAX_MS: Def = Def {
        name: "message.timestamp.before.max.ms",
        ty: ConfigType::Long(0),
        default: Some("9223372036854775807"),
        scope: Scope::Topic,
        read: false,
        doc: "How far in the past a record's timestamp may be compared to the broker's clock before the batch is refused.",
        synonyms: &[Synonym { def: &super::broker::LOG_MESSAGE_TIMESTAMP_BEFORE_MAX_MS, factor: 1 }],
    };
    /// `message.timestamp.type`.
    pub const MESSAGE_TIMESTAMP_TYPE: Def = Def {
        name: "message.timestamp.type",
        ty: ConfigType::Choice(TIMESTAMP_TYPES, false),
        default: Some("CreateTime"),
        scope: Scope::Topic,
        read: false,
        doc: "Whether records keep the producer's timestamp (`CreateTime`) or get the broker's append time (`LogAppendTime`).",
        synonyms: &[Synonym { def: &super::broker::LOG_MESSAGE_TIMESTAMP_TYPE, factor: 1 }],
    };
    /// `min.cleanable.dirty.ratio`.
    pub const MIN_CLEANABLE_DIRTY_RATIO: Def = Def {
        name: "min.cleanable.dirty.ratio",
        ty: ConfigType::Double,
        default: Some("0.5"),
        scope: Scope::Topic,
        read: false,
        doc:
            "The share of a compacted log that must be uncompacted before the cleaner works on it.",
        synonyms: &[Synonym {
            def: &super::broker::LOG_CLEANER_MIN_CLEANABLE_RATIO,
            factor: 1,
        }],
    };
    /// `min.compaction.lag.ms`.
    pub const MIN_COMPACTION_LAG_MS: Def = Def {
        name: "min.compaction.lag.ms",
        ty: ConfigType::Long(0),
        default: Some("0"),
        scope: Scope::Topic,
        read: false,
        doc: "The shortest time a record stays uncompacted.",
        synonyms: &[Synonym {
            def: &super::broker::LOG_CLEANER_MIN_COMPACTION_LAG_MS,
            factor: 1,
        }],
    };
    /// `min.insync.replicas`.
    pub const MIN_INSYNC_REPLICAS: Def = Def {
        name: "min.insync.replicas",
        ty: ConfigType::Int(1),
        default: Some("1"),
        scope: Scope::Topic,
        read: false,
        doc: "How many in-sync replicas an acks=all write needs; fewer and the write is refused with NOT_ENOUGH_REPLICAS.",
        synonyms: &[Synonym { def: &super::broker::MIN_INSYNC_REPLICAS, factor: 1 }],
    };
    /// `preallocate`.
    pub const PREALLOCATE: Def = Def {
        name: "preallocate",
        ty: ConfigType::Bool,
        default: Some("false"),
        scope: Scope::Topic,
        read: false,
        doc: "Whether a new segment file is allocated at its full size when it is created.",
        synonyms: &[],
    };
    /// `retention.bytes`.
    pub const RETENTION_BYTES: Def = Def {
        name: "retention.bytes",
        ty: ConfigType::Long(-1),
        default: Some("-1"),
        scope: Scope::Topic,
        read: false,
        doc: "The most bytes a partition keeps before its oldest segments are deleted (-1: no limit).",
        synonyms: &[Synonym { def: &super::broker::LOG_RETENTION_BYTES, factor: 1 }],
    };
    /// `retention.ms`.
    pub const RETENTION_MS: Def = Def {
        name: "retention.ms",
        ty: ConfigType::Long(-1),
        default: Some("604800000"),
        scope: Scope::Topic,
        read: false,
        doc:
            "How long a segment is kept after its newest record before it is deleted (-1: forever).",
        synonyms: &[
            Synonym {
                def: &super::broker::LOG_RETENTION_MS,
                factor: 1,
            },
            Synonym {
                def: &super::broker::LOG_RETENTION_MINUTES,
                factor: 60000,
            },
            Synonym {
                def: &super::broker::LOG_RETENTION_HOURS,
                factor: 3600000,
            },
        ],
    };
    /// `segment.bytes`.
    pub const SEGMENT_BYTES: Def = Def {
        name: "segment.bytes",
        ty: ConfigType::Int(14),
        default: Some("1073741824"),
        scope: Scope::Topic,
        read: false,
        doc: "The size at which a partition's active segment is rolled.",
        synonyms: &[Synonym {
            def: &super::broker::LOG_SEGMENT_BYTES,
            factor: 1,
        }],
    };
    /// `segment.index.bytes`.
    pub const SEGMENT_INDEX_BYTES: Def = Def {
        name: "segment.index.bytes",
        ty: ConfigType::Int(4),
        default: Some("10485760"),
        scope: Scope::Topic,
        read: false,
        doc: "The size of a segment's offset and time index files.",
        synonyms: &[Synonym {
            def: &super::broker::LOG_INDEX_SIZE_MAX_BYTES,
            factor: 1,
        }],
    };
    /// `segment.jitter.ms`.
    pub const SEGMENT_JITTER_MS: Def = Def {
        name: "segment.jitter.ms",
        ty: ConfigType::Long(0),
        default: Some("0"),
        scope: Scope::Topic,
        read: false,
        doc: "The most random time taken off segment.ms, so that many partitions do not roll at once.",
        synonyms: &[],
    };
    /// `segment.ms`.
    pub const SEGMENT_MS: Def = Def {
        name: "segment.ms",
        ty: ConfigType::Long(1),
        default: Some("604800000"),
        scope: Scope::Topic,
        read: false,
        doc: "The time after which the active segment is rolled even if it is not full.",
        synonyms: &[
            Synonym {
                def: &super::broker::LOG_ROLL_MS,
                factor: 1,
            },
            Synonym {
                def: &super::broker::LOG_ROLL_HOURS,
                factor: 3600000,
            },
        ],
    };
    /// `unclean.leader.election.enable`.
    pub const UNCLEAN_LEADER_ELECTION_ENABLE: Def = Def {
        name: "unclean.leader.election.enable",
        ty: ConfigType::Bool,
        default: Some("false"),
        scope: Scope::Topic,
        read: false,
        doc: "Whether a replica outside the ISR may become leader when no in-sync replica is left, at the cost of losing records.",
        synonyms: &[Synonym { def: &super::broker::UNCLEAN_LEADER_ELECTION_ENABLE, factor: 1 }],
    };
    /// `unclean.recovery.strategy`.
    pub const UNCLEAN_RECOVERY_STRATEGY: Def = Def {
        name: "unclean.recovery.strategy",
        ty: ConfigType::Choice(&["Proactive", "Balanced", "Manual"], false),
        default: Some("Balanced"),
        scope: Scope::Topic,
        read: false,
        doc: "How kafka-unclean-recovery --watch treats a partition left without a leader: Proactive, Balanced or Manual (fjord's).",
        synonyms: &[],
    };
    /// `unclean.recovery.timeout.ms`.
    pub const UNCLEAN_RECOVERY_TIMEOUT_MS: Def = Def {
        name: "unclean.recovery.timeout.ms",
        ty: ConfigType::Long(1),
        default: Some("300000"),
        scope: Scope::Topic,
        read: false,
        doc: "How long kafka-unclean-recovery --watch waits for the ISR to come back before it acts (fjord's).",
        synonyms: &[],
    };
    /// `local.retention.bytes`.
    pub const LOCAL_RETENTION_BYTES: Def = Def {
        name: "local.retention.bytes",
        ty: ConfigType::Long(-2),
        default: Some("-2"),
        scope: Scope::Topic,
        read: false,
        doc: "The bytes a tiered partition keeps on local disk (-2: retention.bytes).",
        synonyms: &[Synonym {
            def: &super::broker::LOG_LOCAL_RETENTION_BYTES,
            factor: 1,
        }],
    };
    /// `local.retention.ms`.
    pub const LOCAL_RETENTION_MS: Def = Def {
        name: "local.retention.ms",
        ty: ConfigType::Long(-2),
        default: Some("-2"),
        scope: Scope::Topic,
        read: false,
        doc: "How long a tiered partition keeps a segment on local disk (-2: retention.ms).",
        synonyms: &[Synonym {
            def: &super::broker::LOG_LOCAL_RETENTION_MS,
            factor: 1,
        }],
    };
    /// `remote.copy.lag.bytes`.
    pub const REMOTE_COPY_LAG_BYTES: Def = Def {
        name: "remote.copy.lag.bytes",
        ty: ConfigType::Long(-1),
        default: Some("-1"),
        scope: Scope::Topic,
        read: false,
        doc: "A closed segment is copied once this many newer bytes follow it (0: at once; -1: local.retention.bytes; unlimited: no size check).",
        synonyms: &[Synonym { def: &super::broker::LOG_REMOTE_COPY_LAG_BYTES, factor: 1 }],
    };
    /// `remote.copy.lag.ms`.
    pub const REMOTE_COPY_LAG_MS: Def = Def {
        name: "remote.copy.lag.ms",
        ty: ConfigType::Long(-1),
        default: Some("0"),
        scope: Scope::Topic,
        read: false,
        doc: "A closed segment is copied once its newest record is this old (0: at once; -1: local.retention.ms; unlimited: no time check).",
        synonyms: &[Synonym { def: &super::broker::LOG_REMOTE_COPY_LAG_MS, factor: 1 }],
    };
    /// `remote.log.copy.disable`.
    pub const REMOTE_LOG_COPY_DISABLE: Def = Def {
        name: "remote.log.copy.disable",
        ty: ConfigType::Bool,
        default: Some("false"),
        scope: Scope::Topic,
        read: false,
        doc: "Stop copying to tiered storage: what is there stays readable and expires by retention.ms/bytes.",
        synonyms: &[],
    };
    /// `remote.log.delete.on.disable`.
    pub const REMOTE_LOG_DELETE_ON_DISABLE: Def = Def {
        name: "remote.log.delete.on.disable",
        ty: ConfigType::Bool,
        default: Some("false"),
        scope: Scope::Topic,
        read: false,
        doc: "Delete the tiered copy when remote.storage.enable is turned off.",
        synonyms: &[],
    };
    /// `remote.storage.enable`.
    pub const REMOTE_STORAGE_ENABLE: Def = Def {
        name: "remote.storage.enable",
        ty: ConfigType::Bool,
        default: Some("false"),
        scope: Scope::Topic,
        read: false,
        doc: "Copy closed segments to tiered storage and serve history from it.",
        synonyms: &[],
    };
    /// Every topic key, in name order.
    pub const ALL: &[&Def] = &[
        &CLEANUP_POLICY,
        &COMPRESSION_TYPE,
        &DELETE_RETENTION_MS,
        &ERRORS_DEADLETTERQUEUE_GROUP_ENABLE,
        &FILE_DELETE_DELAY_MS,
        &FLUSH_MESSAGES,
        &FLUSH_MS,
        &FOLLOWER_REPLICATION_THROTTLED_REPLICAS,
        &INDEX_INTERVAL_BYTES,
        &LEADER_REPLICATION_THROTTLED_REPLICAS,
        &LOCAL_RETENTION_BYTES,
        &LOCAL_RETENTION_MS,
        &MAX_COMPACTION_LAG_MS,
        &MAX_MESSAGE_BYTES,
        &MESSAGE_TIMESTAMP_AFTER_MAX_MS,
        &MESSAGE_TIMESTAMP_BEFORE_MAX_MS,
        &MESSAGE_TIMESTAMP_TYPE,
        &MIN_CLEANABLE_DIRTY_RATIO,
        &MIN_COMPACTION_LAG_MS,
        &MIN_INSYNC_REPLICAS,
        &PREALLOCATE,
        &REMOTE_COPY_LAG_BYTES,
        &REMOTE_COPY_LAG_MS,
        &REMOTE_LOG_COPY_DISABLE,
        &REMOTE_LOG_DELETE_ON_DISABLE,
        &REMOTE_STORAGE_ENABLE,
        &RETENTION_BYTES,
        &RETENTION_MS,
        &SEGMENT_BYTES,
        &SEGMENT_INDEX_BYTES,
        &SEGMENT_JITTER_MS,
        &SEGMENT_MS,
        &UNCLEAN_LEADER_ELECTION_ENABLE,
        &UNCLEAN_RECOVERY_STRATEGY,
        &UNCLEAN_RECOVERY_TIMEOUT_MS,
    ];
}

/// Broker keys.
pub mod broker {
    use super::*;
    /// `min.insync.replicas`.
    pub const MIN_INSYNC_REPLICAS: Def = Def {
        name: "min.insync.replicas",
        ty: ConfigType::Int(1),
        default: Some("1"),
        scope: Scope::Acted,
        read: true,
        doc: "How many in-sync replicas an acks=all write needs; fewer and the write is refused with NOT_ENOUGH_REPLICAS.",
        synonyms: &[],
    };
    /// `unclean.leader.election.enable`.
    pub const UNCLEAN_LEADER_ELECTION_ENABLE: Def = Def {
        name: "unclean.leader.election.enable",
        ty: ConfigType::Bool,
        default: Some("false"),
        scope: Scope::Acted,
        read: true,
        doc: "Whether a replica outside the ISR may become leader when no in-sync replica is left, at the cost of losing records.",
        synonyms: &[],
    };
    /// `log.retention.ms`.
    pub const LOG_RETENTION_MS: Def = Def {
        name: "log.retention.ms",
        ty: ConfigType::Long(-1),
        default: None,
        scope: Scope::Acted,
        read: true,
        doc: "The broker's default of retention.ms.",
        synonyms: &[
            Synonym {
                def: &LOG_RETENTION_MINUTES,
                factor: 60000,
            },
            Synonym {
                def: &LOG_RETENTION_HOURS,
                factor: 3600000,
            },
        ],
    };
    /// `log.retention.minutes`.
    pub const LOG_RETENTION_MINUTES: Def = Def {
        name: "log.retention.minutes",
        // Kafka checks no bound.
        ty: ConfigType::Int(i32::MIN as i64),
        default: None,
        scope: Scope::Static,
        read: true,
        doc: "log.retention.ms in minutes (used when that is not set).",
        synonyms: &[],
    };
    /// `log.retention.hours`.
    pub const LOG_RETENTION_HOURS: Def = Def {
        name: "log.retention.hours",
        // Kafka checks no bound.
        ty: ConfigType::Int(i32::MIN as i64),
        default: Some("168"),
        scope: Scope::Static,
        read: true,
        doc: "log.retention.ms in hours (used when neither it nor log.retention.minutes is set).",
        synonyms: &[],
    };
    /// `log.retention.bytes`.
    pub const LOG_RETENTION_BYTES: Def = Def {
        name: "log.retention.bytes",
        ty: ConfigType::Long(-1),
        default: Some("-1"),
        scope: Scope::Acted,
        read: true,
        doc: "The broker's default of retention.bytes.",
        synonyms: &[],
    };
    /// `log.segment.bytes`.
    pub const LOG_SEGMENT_BYTES: Def = Def {
        name: "log.segment.bytes",
        ty: ConfigType::Int(14),
        default: Some("1073741824"),
        scope: Scope::Acted,
        read: true,
        doc: "The broker's default of segment.bytes.",
        synonyms: &[],
    };
    /// `log.cleanup.policy`.
    pub const LOG_CLEANUP_POLICY: Def = Def {
        name: "log.cleanup.policy",
        ty: ConfigType::Choice(&["compact", "delete"], true),
        default: Some("delete"),
        scope: Scope::Acted,
        read: false,
        doc: "The broker's default of cleanup.policy.",
        synonyms: &[],
    };
    /// `message.max.bytes`.
    pub const MESSAGE_MAX_BYTES: Def = Def {
        name: "message.max.bytes",
        ty: ConfigType::Int(0),
        default: Some("1048588"),
        scope: Scope::Acted,
        read: false,
        doc: "The broker's default of max.message.bytes.",
        synonyms: &[],
    };
    /// `num.partitions`.
    pub const NUM_PARTITIONS: Def = Def {
        name: "num.partitions",
        ty: ConfigType::Int(1),
        default: Some("1"),
        scope: Scope::Acted,
        read: true,
        doc: "The partition count of a topic created without one.",
        synonyms: &[],
    };
    /// `default.replication.factor`.
    pub const DEFAULT_REPLICATION_FACTOR: Def = Def {
        name: "default.replication.factor",
        ty: ConfigType::Int(1),
        default: Some("1"),
        scope: Scope::Acted,
        read: true,
        doc: "The replication factor of a topic created without one.",
        synonyms: &[],
    };
    /// `leader.replication.throttled.rate`.
    pub const LEADER_REPLICATION_THROTTLED_RATE: Def = Def {
        name: "leader.replication.throttled.rate",
        ty: ConfigType::Long(0),
        default: Some("9223372036854775807"),
        scope: Scope::Acted,
        read: false,
        doc: "The bytes per second leaders send to throttled replicas (leader.replication.throttled.replicas).",
        synonyms: &[],
    };
    /// `follower.replication.throttled.rate`.
    pub const FOLLOWER_REPLICATION_THROTTLED_RATE: Def = Def {
        name: "follower.replication.throttled.rate",
        ty: ConfigType::Long(0),
        default: Some("9223372036854775807"),
        scope: Scope::Acted,
        read: false,
        doc: "The bytes per second throttled followers fetch (follower.replication.throttled.replicas).",
        synonyms: &[],
    };
    /// `replica.alter.log.dirs.io.max.bytes.per.second`.
    pub const REPLICA_ALTER_LOG_DIRS_IO_MAX_BYTES_PER_SECOND: Def = Def {
        name: "replica.alter.log.dirs.io.max.bytes.per.second",
        ty: ConfigType::Long(0),
        default: Some("9223372036854775807"),
        scope: Scope::Acted,
        read: false,
        doc: "The bytes per second a replica moving between log directories is copied at.",
        synonyms: &[],
    };
    /// `log.roll.ms`.
    pub const LOG_ROLL_MS: Def = Def {
        name: "log.roll.ms",
        ty: ConfigType::Long(1),
        default: None,
        scope: Scope::Stored(Dynamic::Broker),
        read: false,
        doc: "The broker's default of segment.ms.",
        synonyms: &[Synonym {
            def: &LOG_ROLL_HOURS,
            factor: 3600000,
        }],
    };
    /// `log.roll.hours`.
    pub const LOG_ROLL_HOURS: Def = Def {
        name: "log.roll.hours",
        ty: ConfigType::Int(1),
        default: Some("168"),
        scope: Scope::Static,
        read: false,
        doc: "log.roll.ms in hours (used when that is not set).",
        synonyms: &[],
    };
    /// `log.index.size.max.bytes`.
    pub const LOG_INDEX_SIZE_MAX_BYTES: Def = Def {
        name: "log.index.size.max.bytes",
        ty: ConfigType::Int(4),
        default: Some("10485760"),
        scope: Scope::Stored(Dynamic::Broker),
        read: false,
        doc: "The broker's default of segment.index.bytes.",
        synonyms: &[],
    };
    /// `log.flush.interval.messages`.
    pub const LOG_FLUSH_INTERVAL_MESSAGES: Def = Def {
        name: "log.flush.interval.messages",
        ty: ConfigType::Long(1),
        default: Some("9223372036854775807"),
        scope: Scope::Stored(Dynamic::Broker),
        read: false,
        doc: "The broker's default of flush.messages.",
        synonyms: &[],
    };
    /// `log.flush.interval.ms`.
    pub const LOG_FLUSH_INTERVAL_MS: Def = Def {
        name: "log.flush.interval.ms",
        ty: ConfigType::Long(0),
        default: None,
        scope: Scope::Stored(Dynamic::Broker),
        read: false,
        doc: "The broker's default of flush.ms.",
        synonyms: &[],
    };
    /// `log.index.interval.bytes`.
    pub const LOG_INDEX_INTERVAL_BYTES: Def = Def {
        name: "log.index.interval.bytes",
        ty: ConfigType::Int(0),
        default: Some("4096"),
        scope: Scope::Stored(Dynamic::Broker),
        read: false,
        doc: "The broker's default of index.interval.bytes.",
        synonyms: &[],
    };
    /// `log.cleaner.delete.retention.ms`.
    pub const LOG_CLEANER_DELETE_RETENTION_MS: Def = Def {
        name: "log.cleaner.delete.retention.ms",
        ty: ConfigType::Long(0),
        default: Some("86400000"),
        scope: Scope::Stored(Dynamic::Broker),
        read: false,
        doc: "The broker's default of delete.retention.ms.",
        synonyms: &[],
    };
    /// `log.cleaner.min.compaction.lag.ms`.
    pub const LOG_CLEANER_MIN_COMPACTION_LAG_MS: Def = Def {
        name: "log.cleaner.min.compaction.lag.ms",
        ty: ConfigType::Long(0),
        default: Some("0"),
        scope: Scope::Stored(Dynamic::Broker),
        read: false,
        doc: "The broker's default of min.compaction.lag.ms.",
        synonyms: &[],
    };
    /// `log.segment.delete.delay.ms`.
    pub const LOG_SEGMENT_DELETE_DELAY_MS: Def = Def {
        name: "log.segment.delete.delay.ms",
        ty: ConfigType::Long(0),
        default: Some("60000"),
        scope: Scope::Stored(Dynamic::Broker),
        read: false,
        doc: "The broker's default of file.delete.delay.ms.",
        synonyms: &[],
    };
    /// `log.cleaner.min.cleanable.ratio`.
    pub const LOG_CLEANER_MIN_CLEANABLE_RATIO: Def = Def {
        name: "log.cleaner.min.cleanable.ratio",
        ty: ConfigType::Double,
        default: Some("0.5"),
        scope: Scope::Stored(Dynamic::Broker),
        read: false,
        doc: "The broker's default of min.cleanable.dirty.ratio.",
        synonyms: &[],
    };
    /// `compression.type`.
    pub const COMPRESSION_TYPE: Def = Def {
        name: "compression.type",
        ty: ConfigType::Choice(COMPRESSION_TYPES, false),
        default: Some("producer"),
        scope: Scope::Stored(Dynamic::Broker),
        read: true,
        doc: "The codec batches are stored with; `producer` keeps whatever the producer used.",
        synonyms: &[],
    };
    /// `log.message.timestamp.type`.
    pub const LOG_MESSAGE_TIMESTAMP_TYPE: Def = Def {
        name: "log.message.timestamp.type",
        ty: ConfigType::Choice(TIMESTAMP_TYPES, false),
        default: Some("CreateTime"),
        scope: Scope::Stored(Dynamic::Broker),
        read: false,
        doc: "The broker's default of message.timestamp.type.",
        synonyms: &[],
    };
    /// `log.message.timestamp.before.max.ms`.
    pub const LOG_MESSAGE_TIMESTAMP_BEFORE_MAX_MS: Def = Def {
        name: "log.message.timestamp.before.max.ms",
        ty: ConfigType::Long(0),
        default: Some("9223372036854775807"),
        scope: Scope::Stored(Dynamic::Broker),
        read: true,
        doc: "The broker's default of message.timestamp.before.max.ms.",
        synonyms: &[],
    };
    /// `log.message.timestamp.after.max.ms`.
    pub const LOG_MESSAGE_TIMESTAMP_AFTER_MAX_MS: Def = Def {
        name: "log.message.timestamp.after.max.ms",
        ty: ConfigType::Long(0),
        default: Some("3600000"),
        scope: Scope::Stored(Dynamic::Broker),
        read: true,
        doc: "The broker's default of message.timestamp.after.max.ms.",
        synonyms: &[],
    };
    /// `node.id`.
    pub const NODE_ID: Def = Def {
        name: "node.id",
        ty: ConfigType::Int(0),
        default: None,
        scope: Scope::Static,
        read: true,
        doc: "This node's id in the cluster.",
        synonyms: &[],
    };
    /// `process.roles`.
    pub const PROCESS_ROLES: Def = Def {
        name: "process.roles",
        ty: ConfigType::Text,
        default: None,
        scope: Scope::Static,
        read: true,
        doc: "What this node is: broker, controller, or both.",
        synonyms: &[],
    };
    /// `listeners`.
    pub const LISTENERS: Def = Def {
        name: "listeners",
        ty: ConfigType::Text,
        default: Some("PLAINTEXT://:9092"),
        scope: Scope::Stored(Dynamic::ListenerPerBroker),
        read: true,
        doc: "The addresses this node listens on, as NAME://host:port.",
        synonyms: &[],
    };
    /// `advertised.listeners`.
    pub const ADVERTISED_LISTENERS: Def = Def {
        name: "advertised.listeners",
        ty: ConfigType::Text,
        default: None,
        scope: Scope::Static,
        read: true,
        doc: "The addresses clients are told to connect to, per listener.",
        synonyms: &[],
    };
    /// `controller.listener.names`.
    pub const CONTROLLER_LISTENER_NAMES: Def = Def {
        name: "controller.listener.names",
        ty: ConfigType::Text,
        default: None,
        scope: Scope::Static,
        read: true,
        doc: "The listeners the controller serves on.",
        synonyms: &[],
    };
    /// `inter.broker.listener.name`.
    pub const INTER_BROKER_LISTENER_NAME: Def = Def {
        name: "inter.broker.listener.name",
        ty: ConfigType::Text,
        default: None,
        scope: Scope::Static,
        read: true,
        doc: "The listener brokers use to talk to each other.",
        synonyms: &[],
    };
    /// `listener.security.protocol.map`.
    pub const LISTENER_SECURITY_PROTOCOL_MAP: Def = Def {
        name: "listener.security.protocol.map",
        ty: ConfigType::Text,
        default: Some("CONTROLLER:PLAINTEXT,PLAINTEXT:PLAINTEXT,SSL:SSL,SASL_PLAINTEXT:SASL_PLAINTEXT,SASL_SSL:SASL_SSL"),
        scope: Scope::Stored(Dynamic::ListenerPerBroker),
        read: true,
        doc: "The security protocol of each listener name.",
        synonyms: &[],
    };
    /// `controller.quorum.voters`.
    pub const CONTROLLER_QUORUM_VOTERS: Def = Def {
        name: "controller.quorum.voters",
        ty: ConfigType::Text,
        default: Some(""),
        scope: Scope::Static,
        read: true,
        doc: "The controller quorum's voters, as id@host:port (a static quorum).",
        synonyms: &[],
    };
    /// `controller.quorum.bootstrap.servers`.
    pub const CONTROLLER_QUORUM_BOOTSTRAP_SERVERS: Def = Def {
        name: "controller.quorum.bootstrap.servers",
        ty: ConfigType::Text,
        default: Some(""),
        scope: Scope::Static,
        read: true,
        doc: "The controllers a node first asks to find the quorum (a dynamic quorum).",
        synonyms: &[],
    };
    /// `controller.quorum.election.timeout.ms`.
    pub const CONTROLLER_QUORUM_ELECTION_TIMEOUT_MS: Def = Def {
        name: "controller.quorum.election.timeout.ms",
        ty: ConfigType::Int(1),
        default: Some("1000"),
        scope: Scope::Static,
        read: true,
        doc: "How long a voter waits without a leader before it stands for election.",
        synonyms: &[],
    };
    /// `controller.quorum.fetch.timeout.ms`.
    pub const CONTROLLER_QUORUM_FETCH_TIMEOUT_MS: Def = Def {
        name: "controller.quorum.fetch.timeout.ms",
        ty: ConfigType::Int(1),
        default: Some("2000"),
        scope: Scope::Static,
        read: true,
        doc: "How long a follower goes without fetching from the leader before it stands for election.",
        synonyms: &[],
    };
    /// `controller.quorum.election.backoff.max.ms`.
    pub const CONTROLLER_QUORUM_ELECTION_BACKOFF_MAX_MS: Def = Def {
        name: "controller.quorum.election.backoff.max.ms",
        ty: ConfigType::Int(i32::MIN as i64),
        default: Some("1000"),
        scope: Scope::Static,
        read: true,
        doc: "The longest random wait before a new election.",
        synonyms: &[],
    };
    /// `controller.quorum.request.timeout.ms`.
    pub const CONTROLLER_QUORUM_REQUEST_TIMEOUT_MS: Def = Def {
        name: "controller.quorum.request.timeout.ms",
        ty: ConfigType::Int(1),
        default: Some("2000"),
        scope: Scope::Static,
        read: true,
        doc: "How long a quorum request may take.",
        synonyms: &[],
    };
    /// `controller.quorum.retry.backoff.ms`.
    pub const CONTROLLER_QUORUM_RETRY_BACKOFF_MS: Def = Def {
        name: "controller.quorum.retry.backoff.ms",
        ty: ConfigType::Int(i32::MIN as i64),
        default: Some("20"),
        scope: Scope::Static,
        read: true,
        doc: "How long a failed quorum request waits before it is sent again.",
        synonyms: &[],
    };
    /// `controller.quorum.append.linger.ms`.
    pub const CONTROLLER_QUORUM_APPEND_LINGER_MS: Def = Def {
        name: "controller.quorum.append.linger.ms",
        ty: ConfigType::Int(i32::MIN as i64),
        default: Some("25"),
        scope: Scope::Static,
        read: true,
        doc: "How long the leader gathers metadata records before writing them.",
        synonyms: &[],
    };
    /// `log.dirs`.
    pub const LOG_DIRS: Def = Def {
        name: "log.dirs",
        ty: ConfigType::Text,
        default: None,
        scope: Scope::Static,
        read: true,
        doc: "The directories partition logs are kept in.",
        synonyms: &[],
    };
    /// `log.dir`.
    pub const LOG_DIR: Def = Def {
        name: "log.dir",
        ty: ConfigType::Text,
        default: Some("/tmp/kafka-logs"),
        scope: Scope::Static,
        read: true,
        doc: "The directory partition logs are kept in, when log.dirs is not set.",
        synonyms: &[],
    };
    /// `metadata.log.dir`.
    pub const METADATA_LOG_DIR: Def = Def {
        name: "metadata.log.dir",
        ty: ConfigType::Text,
        default: None,
        scope: Scope::Static,
        read: true,
        doc: "The directory of the metadata log (the first log directory when not set).",
        synonyms: &[],
    };
    /// `metadata.log.max.record.bytes.between.snapshots`.
    pub const METADATA_LOG_MAX_RECORD_BYTES_BETWEEN_SNAPSHOTS: Def = Def {
        name: "metadata.log.max.record.bytes.between.snapshots",
        ty: ConfigType::Long(1),
        default: Some("20971520"),
        scope: Scope::Static,
        read: true,
        doc: "The metadata log bytes after which a new snapshot is written.",
        synonyms: &[],
    };
    /// `auto.create.topics.enable`.
    pub const AUTO_CREATE_TOPICS_ENABLE: Def = Def {
        name: "auto.create.topics.enable",
        ty: ConfigType::Bool,
        default: Some("true"),
        scope: Scope::Static,
        read: true,
        doc: "Whether Metadata and Produce create a topic they name that does not exist.",
        synonyms: &[],
    };
    /// `offsets.topic.replication.factor`.
    pub const OFFSETS_TOPIC_REPLICATION_FACTOR: Def = Def {
        name: "offsets.topic.replication.factor",
        ty: ConfigType::Int(1),
        default: Some("3"),
        scope: Scope::Static,
        read: true,
        doc: "The replication factor of __consumer_offsets.",
        synonyms: &[],
    };
    /// `offsets.topic.num.partitions`.
    pub const OFFSETS_TOPIC_NUM_PARTITIONS: Def = Def {
        name: "offsets.topic.num.partitions",
        ty: ConfigType::Int(1),
        default: Some("50"),
        scope: Scope::Static,
        read: true,
        doc: "The partitions of __consumer_offsets.",
        synonyms: &[],
    };
    /// `transaction.state.log.replication.factor`.
    pub const TRANSACTION_STATE_LOG_REPLICATION_FACTOR: Def = Def {
        name: "transaction.state.log.replication.factor",
        ty: ConfigType::Int(i32::MIN as i64),
        default: Some("3"),
        scope: Scope::Static,
        read: true,
        doc: "The replication factor of __transaction_state.",
        synonyms: &[],
    };
    /// `transaction.state.log.min.isr`.
    pub const TRANSACTION_STATE_LOG_MIN_ISR: Def = Def {
        name: "transaction.state.log.min.isr",
        ty: ConfigType::Int(1),
        default: Some("2"),
        scope: Scope::Static,
        read: true,
        doc: "The min.insync.replicas of __transaction_state.",
        synonyms: &[],
    };
    /// `transaction.state.log.num.partitions`.
    pub const TRANSACTION_STATE_LOG_NUM_PARTITIONS: Def = Def {
        name: "transaction.state.log.num.partitions",
        ty: ConfigType::Int(1),
        default: Some("50"),
        scope: Scope::Static,
        read: true,
        doc: "The partitions of __transaction_state.",
        synonyms: &[],
    };
    /// `transaction.state.log.segment.bytes`.
    pub const TRANSACTION_STATE_LOG_SEGMENT_BYTES: Def = Def {
        name: "transaction.state.log.segment.bytes",
        ty: ConfigType::Int(1),
        default: Some("104857600"),
        scope: Scope::Static,
        read: true,
        doc: "The segment size of __transaction_state.",
        synonyms: &[],
    };
    /// `transaction.max.timeout.ms`.
    pub const TRANSACTION_MAX_TIMEOUT_MS: Def = Def {
        name: "transaction.max.timeout.ms",
        ty: ConfigType::Int(1),
        default: Some("900000"),
        scope: Scope::Static,
        read: true,
        doc: "The longest transaction timeout a producer may ask for.",
        synonyms: &[],
    };
    /// `transactional.id.expiration.ms`.
    pub const TRANSACTIONAL_ID_EXPIRATION_MS: Def = Def {
        name: "transactional.id.expiration.ms",
        ty: ConfigType::Int(1),
        default: Some("604800000"),
        scope: Scope::Static,
        read: true,
        doc: "How long an idle transactional id is kept.",
        synonyms: &[],
    };
    /// `transaction.partition.verification.enable`.
    pub const TRANSACTION_PARTITION_VERIFICATION_ENABLE: Def = Def {
        name: "transaction.partition.verification.enable",
        ty: ConfigType::Bool,
        default: Some("true"),
        scope: Scope::Stored(Dynamic::Broker),
        read: true,
        doc: "Whether a transactional write is checked against the coordinator before it is appended.",
        synonyms: &[],
    };
    /// `transaction.abort.timed.out.transaction.cleanup.interval.ms`.
    pub const TRANSACTION_ABORT_TIMED_OUT_TRANSACTION_CLEANUP_INTERVAL_MS: Def = Def {
        name: "transaction.abort.timed.out.transaction.cleanup.interval.ms",
        ty: ConfigType::Int(i32::MIN as i64),
        default: Some("10000"),
        scope: Scope::Static,
        read: true,
        doc: "How often the coordinator looks for transactions past their timeout.",
        synonyms: &[],
    };
    /// `transaction.remove.expired.transaction.cleanup.interval.ms`.
    pub const TRANSACTION_REMOVE_EXPIRED_TRANSACTION_CLEANUP_INTERVAL_MS: Def = Def {
        name: "transaction.remove.expired.transaction.cleanup.interval.ms",
        ty: ConfigType::Int(i32::MIN as i64),
        default: Some("3600000"),
        scope: Scope::Static,
        read: true,
        doc: "How often the coordinator removes expired transactional ids.",
        synonyms: &[],
    };
    /// `replica.lag.time.max.ms`.
    pub const REPLICA_LAG_TIME_MAX_MS: Def = Def {
        name: "replica.lag.time.max.ms",
        ty: ConfigType::Long(1),
        default: Some("30000"),
        scope: Scope::Static,
        read: true,
        doc: "How long a follower may go without catching up before it leaves the ISR.",
        synonyms: &[],
    };
    /// `num.replica.fetchers`.
    pub const NUM_REPLICA_FETCHERS: Def = Def {
        name: "num.replica.fetchers",
        ty: ConfigType::Int(1),
        default: Some("1"),
        scope: Scope::Stored(Dynamic::Broker),
        read: true,
        doc: "The fetcher threads per source broker a follower uses.",
        synonyms: &[],
    };
    /// `num.recovery.threads.per.data.dir`.
    pub const NUM_RECOVERY_THREADS_PER_DATA_DIR: Def = Def {
        name: "num.recovery.threads.per.data.dir",
        ty: ConfigType::Int(1),
        default: Some("2"),
        scope: Scope::Stored(Dynamic::Broker),
        read: true,
        doc: "The threads per log directory that recover logs at startup.",
        synonyms: &[],
    };
    /// `replica.fetch.max.bytes`.
    pub const REPLICA_FETCH_MAX_BYTES: Def = Def {
        name: "replica.fetch.max.bytes",
        ty: ConfigType::Int(0),
        default: Some("1048576"),
        scope: Scope::Static,
        read: true,
        doc: "The most bytes a follower fetches per partition.",
        synonyms: &[],
    };
    /// `replica.fetch.response.max.bytes`.
    pub const REPLICA_FETCH_RESPONSE_MAX_BYTES: Def = Def {
        name: "replica.fetch.response.max.bytes",
        ty: ConfigType::Int(0),
        default: Some("10485760"),
        scope: Scope::Static,
        read: true,
        doc: "The most bytes of one follower fetch answer.",
        synonyms: &[],
    };
    /// `replica.fetch.wait.max.ms`.
    pub const REPLICA_FETCH_WAIT_MAX_MS: Def = Def {
        name: "replica.fetch.wait.max.ms",
        ty: ConfigType::Int(0),
        default: Some("500"),
        scope: Scope::Static,
        read: true,
        doc: "How long a follower's fetch waits at the leader for new records.",
        synonyms: &[],
    };
    /// `replica.fetch.min.bytes`.
    pub const REPLICA_FETCH_MIN_BYTES: Def = Def {
        name: "replica.fetch.min.bytes",
        ty: ConfigType::Int(0),
        default: Some("1"),
        scope: Scope::Static,
        read: true,
        doc: "The fewest bytes a follower's fetch waits for.",
        synonyms: &[],
    };
    /// `replica.fetch.backoff.ms`.
    pub const REPLICA_FETCH_BACKOFF_MS: Def = Def {
        name: "replica.fetch.backoff.ms",
        ty: ConfigType::Int(0),
        default: Some("1000"),
        scope: Scope::Static,
        read: true,
        doc: "How long a follower waits after a failed fetch.",
        synonyms: &[],
    };
    /// `broker.session.timeout.ms`.
    pub const BROKER_SESSION_TIMEOUT_MS: Def = Def {
        name: "broker.session.timeout.ms",
        ty: ConfigType::Int(1),
        default: Some("9000"),
        scope: Scope::Static,
        read: true,
        doc: "How long a broker may go without heartbeating before the controller fences it.",
        synonyms: &[],
    };
    /// `broker.connection.loss.fence.ms`.
    pub const BROKER_CONNECTION_LOSS_FENCE_MS: Def = Def {
        name: "broker.connection.loss.fence.ms",
        ty: ConfigType::Int(0),
        default: Some("1000"),
        scope: Scope::Static,
        read: true,
        doc: "How long after a broker's connection to the active controller closes the controller fences it unless it heartbeats again; 0 waits for the session timeout alone (fjord's).",
        synonyms: &[],
    };
    /// `broker.heartbeat.interval.ms`.
    pub const BROKER_HEARTBEAT_INTERVAL_MS: Def = Def {
        name: "broker.heartbeat.interval.ms",
        ty: ConfigType::Int(1),
        default: Some("2000"),
        scope: Scope::Static,
        read: true,
        doc: "How often a broker heartbeats to the controller.",
        synonyms: &[],
    };
    /// `broker.rack`.
    pub const BROKER_RACK: Def = Def {
        name: "broker.rack",
        ty: ConfigType::Text,
        default: None,
        scope: Scope::Static,
        read: true,
        doc: "The rack of this broker, for rack-aware replica placement.",
        synonyms: &[],
    };
    /// `log.retention.check.interval.ms`.
    pub const LOG_RETENTION_CHECK_INTERVAL_MS: Def = Def {
        name: "log.retention.check.interval.ms",
        ty: ConfigType::Long(i64::MIN),
        default: Some("300000"),
        scope: Scope::Static,
        read: true,
        doc: "How often segments are checked against retention.",
        synonyms: &[],
    };
    /// `replica.high.watermark.checkpoint.interval.ms`.
    pub const REPLICA_HIGH_WATERMARK_CHECKPOINT_INTERVAL_MS: Def = Def {
        name: "replica.high.watermark.checkpoint.interval.ms",
        ty: ConfigType::Long(i64::MIN),
        default: Some("5000"),
        scope: Scope::Static,
        read: true,
        doc: "How often high watermarks are written to disk.",
        synonyms: &[],
    };
    /// `log.flush.offset.checkpoint.interval.ms`.
    pub const LOG_FLUSH_OFFSET_CHECKPOINT_INTERVAL_MS: Def = Def {
        name: "log.flush.offset.checkpoint.interval.ms",
        ty: ConfigType::Int(i32::MIN as i64),
        default: Some("60000"),
        scope: Scope::Static,
        read: true,
        doc: "How often the last flushed offsets are written to disk.",
        synonyms: &[],
    };
    /// `log.flush.start.offset.checkpoint.interval.ms`.
    pub const LOG_FLUSH_START_OFFSET_CHECKPOINT_INTERVAL_MS: Def = Def {
        name: "log.flush.start.offset.checkpoint.interval.ms",
        ty: ConfigType::Int(i32::MIN as i64),
        default: Some("60000"),
        scope: Scope::Static,
        read: true,
        doc: "How often log start offsets are written to disk.",
        synonyms: &[],
    };
    /// `socket.request.max.bytes`.
    pub const SOCKET_REQUEST_MAX_BYTES: Def = Def {
        name: "socket.request.max.bytes",
        ty: ConfigType::Int(1),
        default: Some("104857600"),
        scope: Scope::Static,
        read: true,
        doc: "The largest request a client may send.",
        synonyms: &[],
    };
    /// `max.connections`.
    pub const MAX_CONNECTIONS: Def = Def {
        name: "max.connections",
        ty: ConfigType::Int(0),
        default: Some("2147483647"),
        scope: Scope::Stored(Dynamic::ListenerCluster),
        read: true,
        doc: "The most connections the broker (or one listener) accepts at once.",
        synonyms: &[],
    };
    /// `max.connections.per.ip`.
    pub const MAX_CONNECTIONS_PER_IP: Def = Def {
        name: "max.connections.per.ip",
        ty: ConfigType::Int(0),
        default: Some("2147483647"),
        scope: Scope::Stored(Dynamic::Broker),
        read: true,
        doc: "The most connections one address may hold.",
        synonyms: &[],
    };
    /// `connections.max.idle.ms`.
    pub const CONNECTIONS_MAX_IDLE_MS: Def = Def {
        name: "connections.max.idle.ms",
        ty: ConfigType::Long(i64::MIN),
        default: Some("600000"),
        scope: Scope::Static,
        read: true,
        doc: "How long an idle connection stays open.",
        synonyms: &[],
    };
    /// `queued.max.request.bytes`.
    // Kafka's default is -1 (unbounded); fjord bounds the bytes of requests read and not yet
    // answered by default, so no set of clients can exhaust the node's memory.
    pub const QUEUED_MAX_REQUEST_BYTES: Def = Def {
        name: "queued.max.request.bytes",
        ty: ConfigType::Long(-1),
        default: Some("536870912"),
        scope: Scope::Static,
        read: true,
        doc: "The most bytes of requests read and not yet answered (fjord bounds it by default).",
        synonyms: &[],
    };
    /// `group.initial.rebalance.delay.ms`.
    pub const GROUP_INITIAL_REBALANCE_DELAY_MS: Def = Def {
        name: "group.initial.rebalance.delay.ms",
        ty: ConfigType::Int(0),
        default: Some("3000"),
        scope: Scope::Static,
        read: true,
        doc: "How long a new classic group waits for more members before its first rebalance.",
        synonyms: &[],
    };
    /// `group.min.session.timeout.ms`.
    pub const GROUP_MIN_SESSION_TIMEOUT_MS: Def = Def {
        name: "group.min.session.timeout.ms",
        ty: ConfigType::Int(0),
        default: Some("6000"),
        scope: Scope::Static,
        read: true,
        doc: "The shortest session timeout a classic member may ask for.",
        synonyms: &[],
    };
    /// `group.max.session.timeout.ms`.
    pub const GROUP_MAX_SESSION_TIMEOUT_MS: Def = Def {
        name: "group.max.session.timeout.ms",
        ty: ConfigType::Int(0),
        default: Some("1800000"),
        scope: Scope::Static,
        read: true,
        doc: "The longest session timeout a classic member may ask for.",
        synonyms: &[],
    };
    /// `group.max.size`.
    pub const GROUP_MAX_SIZE: Def = Def {
        name: "group.max.size",
        ty: ConfigType::Int(1),
        default: Some("2147483647"),
        scope: Scope::Static,
        read: true,
        doc: "The most members of a classic group.",
        synonyms: &[],
    };
    /// `group.coordinator.rebalance.protocols`.
    pub const GROUP_COORDINATOR_REBALANCE_PROTOCOLS: Def = Def {
        name: "group.coordinator.rebalance.protocols",
        ty: ConfigType::Text,
        default: Some("classic,consumer,streams"),
        scope: Scope::Static,
        read: true,
        doc: "The group protocols served (classic, consumer, streams).",
        synonyms: &[],
    };
    /// `group.consumer.session.timeout.ms`.
    pub const GROUP_CONSUMER_SESSION_TIMEOUT_MS: Def = Def {
        name: "group.consumer.session.timeout.ms",
        ty: ConfigType::Int(1),
        default: Some("45000"),
        scope: Scope::Static,
        read: true,
        doc:
            "How long a consumer-protocol member may go without heartbeating before it is removed.",
        synonyms: &[],
    };
    /// `group.consumer.min.session.timeout.ms`.
    pub const GROUP_CONSUMER_MIN_SESSION_TIMEOUT_MS: Def = Def {
        name: "group.consumer.min.session.timeout.ms",
        ty: ConfigType::Int(1),
        default: Some("45000"),
        scope: Scope::Static,
        read: true,
        doc: "The shortest group.consumer.session.timeout.ms allowed.",
        synonyms: &[],
    };
    /// `group.consumer.max.session.timeout.ms`.
    pub const GROUP_CONSUMER_MAX_SESSION_TIMEOUT_MS: Def = Def {
        name: "group.consumer.max.session.timeout.ms",
        ty: ConfigType::Int(1),
        default: Some("60000"),
        scope: Scope::Static,
        read: true,
        doc: "The longest group.consumer.session.timeout.ms allowed.",
        synonyms: &[],
    };
    /// `group.consumer.heartbeat.interval.ms`.
    pub const GROUP_CONSUMER_HEARTBEAT_INTERVAL_MS: Def = Def {
        name: "group.consumer.heartbeat.interval.ms",
        ty: ConfigType::Int(1),
        default: Some("5000"),
        scope: Scope::Static,
        read: true,
        doc: "How often consumer-protocol members are told to heartbeat.",
        synonyms: &[],
    };
    /// `group.consumer.min.heartbeat.interval.ms`.
    pub const GROUP_CONSUMER_MIN_HEARTBEAT_INTERVAL_MS: Def = Def {
        name: "group.consumer.min.heartbeat.interval.ms",
        ty: ConfigType::Int(1),
        default: Some("5000"),
        scope: Scope::Static,
        read: true,
        doc: "The shortest group.consumer.heartbeat.interval.ms allowed.",
        synonyms: &[],
    };
    /// `group.consumer.max.heartbeat.interval.ms`.
    pub const GROUP_CONSUMER_MAX_HEARTBEAT_INTERVAL_MS: Def = Def {
        name: "group.consumer.max.heartbeat.interval.ms",
        ty: ConfigType::Int(1),
        default: Some("15000"),
        scope: Scope::Static,
        read: true,
        doc: "The longest group.consumer.heartbeat.interval.ms allowed.",
        synonyms: &[],
    };
    /// `group.consumer.max.size`.
    pub const GROUP_CONSUMER_MAX_SIZE: Def = Def {
        name: "group.consumer.max.size",
        ty: ConfigType::Int(1),
        default: Some("2147483647"),
        scope: Scope::Static,
        read: true,
        doc: "The most members of a consumer-protocol group.",
        synonyms: &[],
    };
    /// `group.consumer.assignors`.
    pub const GROUP_CONSUMER_ASSIGNORS: Def = Def {
        name: "group.consumer.assignors",
        ty: ConfigType::Text,
        default: Some("uniform,range"),
        scope: Scope::Static,
        read: true,
        doc: "The server-side assignors of consumer-protocol groups, the first the default (uniform, range).",
        synonyms: &[],
    };
    /// `group.consumer.migration.policy`.
    pub const GROUP_CONSUMER_MIGRATION_POLICY: Def = Def {
        name: "group.consumer.migration.policy",
        ty: ConfigType::Text,
        default: Some("bidirectional"),
        scope: Scope::Static,
        read: true,
        doc: "The online migrations allowed between classic and consumer groups with members (disabled, upgrade, downgrade, bidirectional).",
        synonyms: &[],
    };
    /// `offset.metadata.max.bytes`.
    pub const OFFSET_METADATA_MAX_BYTES: Def = Def {
        name: "offset.metadata.max.bytes",
        ty: ConfigType::Int(0),
        default: Some("4096"),
        scope: Scope::Static,
        read: true,
        doc: "The largest metadata string an offset commit may carry.",
        synonyms: &[],
    };
    /// `offsets.retention.minutes`.
    pub const OFFSETS_RETENTION_MINUTES: Def = Def {
        name: "offsets.retention.minutes",
        ty: ConfigType::Int(1),
        default: Some("10080"),
        scope: Scope::Static,
        read: true,
        doc: "How long the committed offsets of an empty group are kept.",
        synonyms: &[],
    };
    /// `offsets.retention.check.interval.ms`.
    pub const OFFSETS_RETENTION_CHECK_INTERVAL_MS: Def = Def {
        name: "offsets.retention.check.interval.ms",
        ty: ConfigType::Long(1),
        default: Some("600000"),
        scope: Scope::Static,
        read: true,
        doc: "How often committed offsets are checked for expiry.",
        synonyms: &[],
    };
    /// `offsets.topic.segment.bytes`.
    pub const OFFSETS_TOPIC_SEGMENT_BYTES: Def = Def {
        name: "offsets.topic.segment.bytes",
        ty: ConfigType::Int(1),
        default: Some("104857600"),
        scope: Scope::Static,
        read: true,
        doc: "The segment size of __consumer_offsets.",
        synonyms: &[],
    };
    /// `group.share.session.timeout.ms`.
    pub const GROUP_SHARE_SESSION_TIMEOUT_MS: Def = Def {
        name: "group.share.session.timeout.ms",
        ty: ConfigType::Int(1),
        default: Some("45000"),
        scope: Scope::Static,
        read: true,
        doc: "How long a share group member may go without a heartbeat before it is removed (a group's share.session.timeout.ms overrides it).",
        synonyms: &[],
    };
    /// `group.share.heartbeat.interval.ms`.
    pub const GROUP_SHARE_HEARTBEAT_INTERVAL_MS: Def = Def {
        name: "group.share.heartbeat.interval.ms",
        ty: ConfigType::Int(1),
        default: Some("5000"),
        scope: Scope::Static,
        read: true,
        doc: "How often share group members heartbeat (a group's share.heartbeat.interval.ms overrides it).",
        synonyms: &[],
    };
    /// `group.share.max.size`.
    pub const GROUP_SHARE_MAX_SIZE: Def = Def {
        name: "group.share.max.size",
        ty: ConfigType::Int(1),
        default: Some("200"),
        scope: Scope::Static,
        read: true,
        doc: "The most members one share group may have.",
        synonyms: &[],
    };
    /// `group.share.record.lock.duration.ms`.
    pub const GROUP_SHARE_RECORD_LOCK_DURATION_MS: Def = Def {
        name: "group.share.record.lock.duration.ms",
        ty: ConfigType::Int(1000),
        default: Some("30000"),
        scope: Scope::Static,
        read: true,
        doc: "How long a share consumer holds the records it acquired before they are delivered again (a group's share.record.lock.duration.ms overrides it).",
        synonyms: &[],
    };
    /// `group.share.delivery.count.limit`.
    pub const GROUP_SHARE_DELIVERY_COUNT_LIMIT: Def = Def {
        name: "group.share.delivery.count.limit",
        ty: ConfigType::Int(2),
        default: Some("5"),
        scope: Scope::Static,
        read: true,
        doc: "How many times a record is delivered to a share group before it is archived, or sent to the group's dead-letter queue (a group's share.delivery.count.limit overrides it).",
        synonyms: &[],
    };
    /// `group.share.partition.max.record.locks`.
    pub const GROUP_SHARE_PARTITION_MAX_RECORD_LOCKS: Def = Def {
        name: "group.share.partition.max.record.locks",
        ty: ConfigType::Int(100),
        default: Some("2000"),
        scope: Scope::Static,
        read: true,
        doc: "The most records of one share-partition that may be in flight (acquired or not yet settled) at once.",
        synonyms: &[],
    };
    /// `group.share.max.share.sessions`.
    pub const GROUP_SHARE_MAX_SHARE_SESSIONS: Def = Def {
        name: "group.share.max.share.sessions",
        ty: ConfigType::Int(1),
        default: Some("2000"),
        scope: Scope::Static,
        read: true,
        doc: "The most share sessions one broker holds.",
        synonyms: &[],
    };
    /// `errors.deadletterqueue.auto.create.topics.enable`.
    pub const ERRORS_DEADLETTERQUEUE_AUTO_CREATE_TOPICS_ENABLE: Def = Def {
        name: "errors.deadletterqueue.auto.create.topics.enable",
        ty: ConfigType::Bool,
        default: Some("false"),
        scope: Scope::Static,
        read: true,
        doc: "Whether a share group's dead-letter queue topic is created when it does not exist (KIP-1191).",
        synonyms: &[],
    };
    /// `errors.deadletterqueue.topic.name.prefix`.
    pub const ERRORS_DEADLETTERQUEUE_TOPIC_NAME_PREFIX: Def = Def {
        name: "errors.deadletterqueue.topic.name.prefix",
        ty: ConfigType::Text,
        default: Some("dlq."),
        scope: Scope::Static,
        read: true,
        doc: "The prefix every share group's dead-letter queue topic name must start with (empty: any name but __...).",
        synonyms: &[],
    };
    /// `share.coordinator.state.topic.num.partitions`.
    pub const SHARE_COORDINATOR_STATE_TOPIC_NUM_PARTITIONS: Def = Def {
        name: "share.coordinator.state.topic.num.partitions",
        ty: ConfigType::Int(1),
        default: Some("50"),
        scope: Scope::Static,
        read: true,
        doc: "The partitions of __share_group_state.",
        synonyms: &[],
    };
    /// `share.coordinator.state.topic.replication.factor`.
    pub const SHARE_COORDINATOR_STATE_TOPIC_REPLICATION_FACTOR: Def = Def {
        name: "share.coordinator.state.topic.replication.factor",
        ty: ConfigType::Int(1),
        default: Some("3"),
        scope: Scope::Static,
        read: true,
        doc: "The replication factor of __share_group_state.",
        synonyms: &[],
    };
    /// `share.coordinator.state.topic.min.isr`.
    pub const SHARE_COORDINATOR_STATE_TOPIC_MIN_ISR: Def = Def {
        name: "share.coordinator.state.topic.min.isr",
        ty: ConfigType::Int(1),
        default: Some("2"),
        scope: Scope::Static,
        read: true,
        doc: "The min.insync.replicas of __share_group_state.",
        synonyms: &[],
    };
    /// `share.coordinator.state.topic.segment.bytes`.
    pub const SHARE_COORDINATOR_STATE_TOPIC_SEGMENT_BYTES: Def = Def {
        name: "share.coordinator.state.topic.segment.bytes",
        ty: ConfigType::Int(1),
        default: Some("104857600"),
        scope: Scope::Static,
        read: true,
        doc: "The segment size of __share_group_state.",
        synonyms: &[],
    };
    /// `share.coordinator.snapshot.update.records.per.snapshot`.
    pub const SHARE_COORDINATOR_SNAPSHOT_UPDATE_RECORDS_PER_SNAPSHOT: Def = Def {
        name: "share.coordinator.snapshot.update.records.per.snapshot",
        ty: ConfigType::Int(0),
        default: Some("500"),
        scope: Scope::Static,
        read: true,
        doc: "The updates of a share-partition's state after which the next write is a snapshot.",
        synonyms: &[],
    };
    /// `share.coordinator.state.topic.prune.interval.ms`.
    pub const SHARE_COORDINATOR_STATE_TOPIC_PRUNE_INTERVAL_MS: Def = Def {
        name: "share.coordinator.state.topic.prune.interval.ms",
        ty: ConfigType::Int(0),
        default: Some("300000"),
        scope: Scope::Static,
        read: true,
        doc: "How often the records of __share_group_state no share-partition needs any more are deleted.",
        synonyms: &[],
    };
    /// `producer.id.expiration.ms`.
    pub const PRODUCER_ID_EXPIRATION_MS: Def = Def {
        name: "producer.id.expiration.ms",
        ty: ConfigType::Int(1),
        default: Some("86400000"),
        scope: Scope::Stored(Dynamic::Broker),
        read: true,
        doc: "How long an idle producer id's state is kept.",
        synonyms: &[],
    };
    /// `max.incremental.fetch.session.cache.slots`.
    pub const MAX_INCREMENTAL_FETCH_SESSION_CACHE_SLOTS: Def = Def {
        name: "max.incremental.fetch.session.cache.slots",
        ty: ConfigType::Int(0),
        default: Some("1000"),
        scope: Scope::Static,
        read: true,
        doc: "The most incremental fetch sessions kept.",
        synonyms: &[],
    };
    /// `min.incremental.fetch.session.eviction.ms`.
    pub const MIN_INCREMENTAL_FETCH_SESSION_EVICTION_MS: Def = Def {
        name: "min.incremental.fetch.session.eviction.ms",
        ty: ConfigType::Int(0),
        default: Some("120000"),
        scope: Scope::Static,
        read: true,
        doc: "The shortest time a fetch session is kept before it may be evicted.",
        synonyms: &[],
    };
    /// `producer.id.expiration.check.interval.ms`.
    pub const PRODUCER_ID_EXPIRATION_CHECK_INTERVAL_MS: Def = Def {
        name: "producer.id.expiration.check.interval.ms",
        ty: ConfigType::Int(1),
        default: Some("600000"),
        scope: Scope::Static,
        read: true,
        doc: "How often idle producer ids are looked for.",
        synonyms: &[],
    };
    /// `metrics.listener`.
    pub const METRICS_LISTENER: Def = Def {
        name: "metrics.listener",
        ty: ConfigType::Text,
        default: Some("http://127.0.0.1:9404"),
        scope: Scope::Static,
        read: true,
        doc: "The address GET /metrics is served on (fjord's).",
        synonyms: &[],
    };
    /// `sasl.login.callback.handler.class`.
    pub const SASL_LOGIN_CALLBACK_HANDLER_CLASS: Def = Def {
        name: "sasl.login.callback.handler.class",
        ty: ConfigType::Text,
        default: None,
        scope: Scope::Static,
        read: true,
        doc: "How this node obtains the OAUTHBEARER token it connects with: `org.apache.kafka.common.security.oauthbearer.OAuthBearerLoginCallbackHandler` (client credentials from the token endpoint); unset, an unsecured token.",
        synonyms: &[],
    };
    /// `sasl.oauthbearer.allow.unverified.audience`.
    pub const SASL_OAUTHBEARER_ALLOW_UNVERIFIED_AUDIENCE: Def = Def {
        name: "sasl.oauthbearer.allow.unverified.audience",
        ty: ConfigType::Bool,
        default: Some("false"),
        scope: Scope::Static,
        read: true,
        doc: "Accept bearer tokens whatever their audience, when sasl.oauthbearer.expected.audience is not set.",
        synonyms: &[],
    };
    /// `sasl.oauthbearer.allow.unverified.issuer`.
    pub const SASL_OAUTHBEARER_ALLOW_UNVERIFIED_ISSUER: Def = Def {
        name: "sasl.oauthbearer.allow.unverified.issuer",
        ty: ConfigType::Bool,
        default: Some("false"),
        scope: Scope::Static,
        read: true,
        doc: "Accept bearer tokens whatever their issuer, when sasl.oauthbearer.expected.issuer is not set.",
        synonyms: &[],
    };
    /// `sasl.oauthbearer.client.credentials.client.id`.
    pub const SASL_OAUTHBEARER_CLIENT_CREDENTIALS_CLIENT_ID: Def = Def {
        name: "sasl.oauthbearer.client.credentials.client.id",
        ty: ConfigType::Text,
        default: None,
        scope: Scope::Static,
        read: true,
        doc:
            "The client id this node asks the token endpoint with (else the JAAS entry's clientId).",
        synonyms: &[],
    };
    /// `sasl.oauthbearer.client.credentials.client.secret`.
    pub const SASL_OAUTHBEARER_CLIENT_CREDENTIALS_CLIENT_SECRET: Def = Def {
        name: "sasl.oauthbearer.client.credentials.client.secret",
        ty: ConfigType::Text,
        default: None,
        scope: Scope::Static,
        read: true,
        doc: "The client secret this node asks the token endpoint with (else the JAAS entry's clientSecret).",
        synonyms: &[],
    };
    /// `sasl.oauthbearer.clock.skew.seconds`.
    pub const SASL_OAUTHBEARER_CLOCK_SKEW_SECONDS: Def = Def {
        name: "sasl.oauthbearer.clock.skew.seconds",
        ty: ConfigType::Int(0),
        default: Some("30"),
        scope: Scope::Static,
        read: true,
        doc: "The clock difference allowed between this node and the token issuer when checking a token's times.",
        synonyms: &[],
    };
    /// `sasl.oauthbearer.expected.audience`.
    pub const SASL_OAUTHBEARER_EXPECTED_AUDIENCE: Def = Def {
        name: "sasl.oauthbearer.expected.audience",
        ty: ConfigType::Text,
        default: None,
        scope: Scope::Static,
        read: true,
        doc: "The audiences (comma separated) a bearer token's aud claim must name one of.",
        synonyms: &[],
    };
    /// `sasl.oauthbearer.expected.issuer`.
    pub const SASL_OAUTHBEARER_EXPECTED_ISSUER: Def = Def {
        name: "sasl.oauthbearer.expected.issuer",
        ty: ConfigType::Text,
        default: None,
        scope: Scope::Static,
        read: true,
        doc: "The issuer a bearer token's iss claim must be.",
        synonyms: &[],
    };
    /// `sasl.oauthbearer.jwks.endpoint.refresh.ms`.
    pub const SASL_OAUTHBEARER_JWKS_ENDPOINT_REFRESH_MS: Def = Def {
        name: "sasl.oauthbearer.jwks.endpoint.refresh.ms",
        ty: ConfigType::Long(0),
        default: Some("3600000"),
        scope: Scope::Static,
        read: true,
        doc: "How often the provider's keys are fetched again.",
        synonyms: &[],
    };
    /// `sasl.oauthbearer.jwks.endpoint.retry.backoff.max.ms`.
    pub const SASL_OAUTHBEARER_JWKS_ENDPOINT_RETRY_BACKOFF_MAX_MS: Def = Def {
        name: "sasl.oauthbearer.jwks.endpoint.retry.backoff.max.ms",
        ty: ConfigType::Long(0),
        default: Some("10000"),
        scope: Scope::Static,
        read: true,
        doc: "The longest wait between attempts to fetch the provider's keys.",
        synonyms: &[],
    };
    /// `sasl.oauthbearer.jwks.endpoint.retry.backoff.ms`.
    pub const SASL_OAUTHBEARER_JWKS_ENDPOINT_RETRY_BACKOFF_MS: Def = Def {
        name: "sasl.oauthbearer.jwks.endpoint.retry.backoff.ms",
        ty: ConfigType::Long(0),
        default: Some("100"),
        scope: Scope::Static,
        read: true,
        doc: "The first wait after a failed attempt to fetch the provider's keys (doubled each time).",
        synonyms: &[],
    };
    /// `sasl.oauthbearer.jwks.endpoint.url`.
    pub const SASL_OAUTHBEARER_JWKS_ENDPOINT_URL: Def = Def {
        name: "sasl.oauthbearer.jwks.endpoint.url",
        ty: ConfigType::Text,
        default: None,
        scope: Scope::Static,
        read: true,
        doc: "Where the provider's keys (a JWKS) are fetched from, to check bearer tokens' signatures (http, https or file).",
        synonyms: &[],
    };
    /// `sasl.oauthbearer.scope`.
    pub const SASL_OAUTHBEARER_SCOPE: Def = Def {
        name: "sasl.oauthbearer.scope",
        ty: ConfigType::Text,
        default: None,
        scope: Scope::Static,
        read: true,
        doc: "The scope this node asks the token endpoint for (else the JAAS entry's scope).",
        synonyms: &[],
    };
    /// `sasl.oauthbearer.scope.claim.name`.
    pub const SASL_OAUTHBEARER_SCOPE_CLAIM_NAME: Def = Def {
        name: "sasl.oauthbearer.scope.claim.name",
        ty: ConfigType::Text,
        default: Some("scope"),
        scope: Scope::Static,
        read: true,
        doc: "The claim holding a bearer token's scope.",
        synonyms: &[],
    };
    /// `sasl.oauthbearer.sub.claim.name`.
    pub const SASL_OAUTHBEARER_SUB_CLAIM_NAME: Def = Def {
        name: "sasl.oauthbearer.sub.claim.name",
        ty: ConfigType::Text,
        default: Some("sub"),
        scope: Scope::Static,
        read: true,
        doc: "The claim naming a bearer token's principal.",
        synonyms: &[],
    };
    /// `sasl.oauthbearer.token.endpoint.url`.
    pub const SASL_OAUTHBEARER_TOKEN_ENDPOINT_URL: Def = Def {
        name: "sasl.oauthbearer.token.endpoint.url",
        ty: ConfigType::Text,
        default: None,
        scope: Scope::Static,
        read: true,
        doc: "The provider's token endpoint this node obtains its own bearer token from (client credentials).",
        synonyms: &[],
    };
    /// `sasl.server.callback.handler.class`.
    pub const SASL_SERVER_CALLBACK_HANDLER_CLASS: Def = Def {
        name: "sasl.server.callback.handler.class",
        ty: ConfigType::Text,
        default: None,
        scope: Scope::Static,
        read: true,
        doc: "How a listener validates OAUTHBEARER tokens: `org.apache.kafka.common.security.oauthbearer.OAuthBearerValidatorCallbackHandler` (signed tokens against the JWKS); unset, Kafka's unsecured validator.",
        synonyms: &[],
    };
    /// `telemetry.max.bytes`.
    pub const TELEMETRY_MAX_BYTES: Def = Def {
        name: "telemetry.max.bytes",
        ty: ConfigType::Int(1),
        default: Some("1048576"),
        scope: Scope::Static,
        read: true,
        doc: "The largest client telemetry payload (KIP-714) a broker accepts, compressed or decompressed.",
        synonyms: &[],
    };
    /// `metrics.client.max.series`.
    pub const METRICS_CLIENT_MAX_SERIES: Def = Def {
        name: "metrics.client.max.series",
        ty: ConfigType::Int(0),
        default: Some("10000"),
        scope: Scope::Static,
        read: true,
        doc: "The most series of clients' pushed metrics (KIP-714) a broker keeps for GET /metrics; points beyond it are dropped and counted (fjord's).",
        synonyms: &[],
    };
    /// `security.inter.broker.protocol`.
    pub const SECURITY_INTER_BROKER_PROTOCOL: Def = Def {
        name: "security.inter.broker.protocol",
        ty: ConfigType::Text,
        default: Some("PLAINTEXT"),
        scope: Scope::Static,
        read: true,
        doc: "The security protocol brokers use with each other.",
        synonyms: &[],
    };
    /// `sasl.enabled.mechanisms`.
    pub const SASL_ENABLED_MECHANISMS: Def = Def {
        name: "sasl.enabled.mechanisms",
        ty: ConfigType::Text,
        default: Some("GSSAPI"),
        scope: Scope::Stored(Dynamic::ListenerPerBroker),
        read: true,
        doc: "The SASL mechanisms a listener offers.",
        synonyms: &[],
    };
    /// `sasl.mechanism.inter.broker.protocol`.
    pub const SASL_MECHANISM_INTER_BROKER_PROTOCOL: Def = Def {
        name: "sasl.mechanism.inter.broker.protocol",
        ty: ConfigType::Text,
        default: Some("GSSAPI"),
        scope: Scope::Stored(Dynamic::ListenerPerBroker),
        read: true,
        doc: "The SASL mechanism brokers use with each other.",
        synonyms: &[],
    };
    /// `sasl.mechanism.controller.protocol`.
    pub const SASL_MECHANISM_CONTROLLER_PROTOCOL: Def = Def {
        name: "sasl.mechanism.controller.protocol",
        ty: ConfigType::Text,
        default: Some("GSSAPI"),
        scope: Scope::Static,
        read: true,
        doc: "The SASL mechanism used with the controllers.",
        synonyms: &[],
    };
    /// `sasl.jaas.config`.
    pub const SASL_JAAS_CONFIG: Def = Def {
        name: "sasl.jaas.config",
        ty: ConfigType::Text,
        default: None,
        scope: Scope::Stored(Dynamic::ListenerPerBroker),
        read: true,
        doc: "The JAAS login settings of a SASL listener.",
        synonyms: &[],
    };
    /// `sasl.server.max.receive.size`.
    pub const SASL_SERVER_MAX_RECEIVE_SIZE: Def = Def {
        name: "sasl.server.max.receive.size",
        ty: ConfigType::Int(i32::MIN as i64),
        default: Some("524288"),
        scope: Scope::Static,
        read: true,
        doc: "The largest SASL message accepted before authentication.",
        synonyms: &[],
    };
    /// `connections.max.reauth.ms`.
    pub const CONNECTIONS_MAX_REAUTH_MS: Def = Def {
        name: "connections.max.reauth.ms",
        ty: ConfigType::Long(i64::MIN),
        default: Some("0"),
        scope: Scope::Static,
        read: true,
        doc: "How long an authenticated connection lasts before it must authenticate again.",
        synonyms: &[],
    };
    /// `connection.failed.authentication.delay.ms`.
    pub const CONNECTION_FAILED_AUTHENTICATION_DELAY_MS: Def = Def {
        name: "connection.failed.authentication.delay.ms",
        ty: ConfigType::Int(i32::MIN as i64),
        default: Some("100"),
        scope: Scope::Static,
        read: true,
        doc: "How long the answer to a failed authentication is held back.",
        synonyms: &[],
    };
    /// `delegation.token.secret.key`.
    pub const DELEGATION_TOKEN_SECRET_KEY: Def = Def {
        name: "delegation.token.secret.key",
        ty: ConfigType::Text,
        default: None,
        scope: Scope::Static,
        read: true,
        doc: "The key that signs and checks delegation tokens; set the same key on every broker and controller. Empty or unset turns tokens off.",
        synonyms: &[],
    };
    /// `delegation.token.max.lifetime.ms`.
    pub const DELEGATION_TOKEN_MAX_LIFETIME_MS: Def = Def {
        name: "delegation.token.max.lifetime.ms",
        ty: ConfigType::Long(i64::MIN),
        default: Some("604800000"),
        scope: Scope::Static,
        read: true,
        doc:
            "The longest a delegation token lives, however often it is renewed (7 days by default).",
        synonyms: &[],
    };
    /// `delegation.token.expiry.time.ms`.
    pub const DELEGATION_TOKEN_EXPIRY_TIME_MS: Def = Def {
        name: "delegation.token.expiry.time.ms",
        ty: ConfigType::Long(i64::MIN),
        default: Some("86400000"),
        scope: Scope::Static,
        read: true,
        doc:
            "How long a delegation token stays valid before it must be renewed (1 day by default).",
        synonyms: &[],
    };
    /// `delegation.token.expiry.check.interval.ms`.
    pub const DELEGATION_TOKEN_EXPIRY_CHECK_INTERVAL_MS: Def = Def {
        name: "delegation.token.expiry.check.interval.ms",
        ty: ConfigType::Long(i64::MIN),
        default: Some("3600000"),
        scope: Scope::Static,
        read: true,
        doc: "How often the active controller removes expired delegation tokens.",
        synonyms: &[],
    };
    /// `ssl.keystore.type`.
    pub const SSL_KEYSTORE_TYPE: Def = Def {
        name: "ssl.keystore.type",
        ty: ConfigType::Text,
        default: None,
        scope: Scope::Stored(Dynamic::ListenerOnly),
        read: true,
        doc: "The format of the key store file.",
        synonyms: &[],
    };
    /// `ssl.keystore.location`.
    pub const SSL_KEYSTORE_LOCATION: Def = Def {
        name: "ssl.keystore.location",
        ty: ConfigType::Text,
        default: None,
        scope: Scope::Stored(Dynamic::ListenerOnly),
        read: true,
        doc: "The key store file holding this listener's certificate and private key.",
        synonyms: &[],
    };
    /// `ssl.keystore.password`.
    pub const SSL_KEYSTORE_PASSWORD: Def = Def {
        name: "ssl.keystore.password",
        ty: ConfigType::Text,
        default: None,
        scope: Scope::Stored(Dynamic::ListenerOnly),
        read: true,
        doc: "The key store's password.",
        synonyms: &[],
    };
    /// `ssl.keystore.key`.
    pub const SSL_KEYSTORE_KEY: Def = Def {
        name: "ssl.keystore.key",
        ty: ConfigType::Text,
        default: None,
        scope: Scope::Stored(Dynamic::ListenerOnly),
        read: true,
        doc: "The private key in PEM, instead of a key store file.",
        synonyms: &[],
    };
    /// `ssl.keystore.certificate.chain`.
    pub const SSL_KEYSTORE_CERTIFICATE_CHAIN: Def = Def {
        name: "ssl.keystore.certificate.chain",
        ty: ConfigType::Text,
        default: None,
        scope: Scope::Stored(Dynamic::ListenerOnly),
        read: true,
        doc: "The certificate chain in PEM, instead of a key store file.",
        synonyms: &[],
    };
    /// `ssl.key.password`.
    pub const SSL_KEY_PASSWORD: Def = Def {
        name: "ssl.key.password",
        ty: ConfigType::Text,
        default: None,
        scope: Scope::Stored(Dynamic::ListenerOnly),
        read: true,
        doc: "The password of the private key in the key store.",
        synonyms: &[],
    };
    /// `ssl.truststore.type`.
    pub const SSL_TRUSTSTORE_TYPE: Def = Def {
        name: "ssl.truststore.type",
        ty: ConfigType::Text,
        default: None,
        scope: Scope::Stored(Dynamic::ListenerOnly),
        read: true,
        doc: "The format of the trust store file.",
        synonyms: &[],
    };
    /// `ssl.truststore.location`.
    pub const SSL_TRUSTSTORE_LOCATION: Def = Def {
        name: "ssl.truststore.location",
        ty: ConfigType::Text,
        default: None,
        scope: Scope::Stored(Dynamic::ListenerOnly),
        read: true,
        doc: "The trust store file holding the certificates this listener trusts.",
        synonyms: &[],
    };
    /// `ssl.truststore.password`.
    pub const SSL_TRUSTSTORE_PASSWORD: Def = Def {
        name: "ssl.truststore.password",
        ty: ConfigType::Text,
        default: None,
        scope: Scope::Stored(Dynamic::ListenerOnly),
        read: true,
        doc: "The trust store's password.",
        synonyms: &[],
    };
    /// `ssl.truststore.certificates`.
    pub const SSL_TRUSTSTORE_CERTIFICATES: Def = Def {
        name: "ssl.truststore.certificates",
        ty: ConfigType::Text,
        default: None,
        scope: Scope::Stored(Dynamic::ListenerOnly),
        read: true,
        doc: "The trusted certificates in PEM, instead of a trust store file.",
        synonyms: &[],
    };
    /// `ssl.client.auth`.
    pub const SSL_CLIENT_AUTH: Def = Def {
        name: "ssl.client.auth",
        ty: ConfigType::Choice(&["required", "requested", "none"], false),
        default: Some("none"),
        scope: Scope::Stored(Dynamic::ListenerPerBroker),
        read: true,
        doc: "Whether clients must (`required`), may (`requested`) or need not (`none`) present a certificate.",
        synonyms: &[],
    };
    /// `ssl.enabled.protocols`.
    pub const SSL_ENABLED_PROTOCOLS: Def = Def {
        name: "ssl.enabled.protocols",
        ty: ConfigType::Text,
        default: Some("TLSv1.2,TLSv1.3"),
        scope: Scope::Stored(Dynamic::ListenerPerBroker),
        read: true,
        doc: "The TLS versions allowed.",
        synonyms: &[],
    };
    /// `ssl.protocol`.
    pub const SSL_PROTOCOL: Def = Def {
        name: "ssl.protocol",
        ty: ConfigType::Text,
        default: Some("TLSv1.3"),
        scope: Scope::Stored(Dynamic::ListenerPerBroker),
        read: true,
        doc: "The TLS protocol used to build the SSL context.",
        synonyms: &[],
    };
    /// `ssl.cipher.suites`.
    pub const SSL_CIPHER_SUITES: Def = Def {
        name: "ssl.cipher.suites",
        ty: ConfigType::Text,
        default: Some(""),
        scope: Scope::Stored(Dynamic::ListenerPerBroker),
        read: true,
        doc: "The cipher suites allowed.",
        synonyms: &[],
    };
    /// `ssl.endpoint.identification.algorithm`.
    pub const SSL_ENDPOINT_IDENTIFICATION_ALGORITHM: Def = Def {
        name: "ssl.endpoint.identification.algorithm",
        ty: ConfigType::Text,
        default: Some("https"),
        scope: Scope::Stored(Dynamic::ListenerPerBroker),
        read: true,
        doc: "How a server's host name is checked against its certificate.",
        synonyms: &[],
    };
    /// `ssl.principal.mapping.rules`.
    pub const SSL_PRINCIPAL_MAPPING_RULES: Def = Def {
        name: "ssl.principal.mapping.rules",
        ty: ConfigType::Text,
        default: Some("DEFAULT"),
        scope: Scope::Static,
        read: true,
        doc: "The rules that map a client certificate's name to a principal.",
        synonyms: &[],
    };
    /// `authorizer.class.name`.
    pub const AUTHORIZER_CLASS_NAME: Def = Def {
        name: "authorizer.class.name",
        ty: ConfigType::Text,
        default: Some(""),
        scope: Scope::Static,
        read: true,
        doc: "The authorizer of requests (StandardAuthorizer turns ACLs on).",
        synonyms: &[],
    };
    /// `super.users`.
    pub const SUPER_USERS: Def = Def {
        name: "super.users",
        ty: ConfigType::Text,
        default: None,
        scope: Scope::Static,
        read: true,
        doc: "Principals allowed everything.",
        synonyms: &[],
    };
    /// `allow.everyone.if.no.acl.found`.
    pub const ALLOW_EVERYONE_IF_NO_ACL_FOUND: Def = Def {
        name: "allow.everyone.if.no.acl.found",
        ty: ConfigType::Bool,
        default: Some("false"),
        scope: Scope::Static,
        read: true,
        doc: "Whether a resource without ACLs is open to everyone.",
        synonyms: &[],
    };
    /// `principal.builder.class`.
    pub const PRINCIPAL_BUILDER_CLASS: Def = Def {
        name: "principal.builder.class",
        ty: ConfigType::Text,
        default: None,
        scope: Scope::Stored(Dynamic::ListenerPerBroker),
        read: false,
        doc: "The class that names the principal of a connection.",
        synonyms: &[],
    };
    /// `ssl.provider`.
    pub const SSL_PROVIDER: Def = Def {
        name: "ssl.provider",
        ty: ConfigType::Text,
        default: None,
        scope: Scope::Stored(Dynamic::ListenerPerBroker),
        read: false,
        doc: "The security provider of the SSL context.",
        synonyms: &[],
    };
    /// `ssl.keymanager.algorithm`.
    pub const SSL_KEYMANAGER_ALGORITHM: Def = Def {
        name: "ssl.keymanager.algorithm",
        ty: ConfigType::Text,
        default: None,
        scope: Scope::Stored(Dynamic::ListenerPerBroker),
        read: false,
        doc: "The key manager factory algorithm.",
        synonyms: &[],
    };
    /// `ssl.trustmanager.algorithm`.
    pub const SSL_TRUSTMANAGER_ALGORITHM: Def = Def {
        name: "ssl.trustmanager.algorithm",
        ty: ConfigType::Text,
        default: None,
        scope: Scope::Stored(Dynamic::ListenerPerBroker),
        read: false,
        doc: "The trust manager factory algorithm.",
        synonyms: &[],
    };
    /// `ssl.secure.random.implementation`.
    pub const SSL_SECURE_RANDOM_IMPLEMENTATION: Def = Def {
        name: "ssl.secure.random.implementation",
        ty: ConfigType::Text,
        default: None,
        scope: Scope::Stored(Dynamic::ListenerPerBroker),
        read: false,
        doc: "The random number generator used for TLS.",
        synonyms: &[],
    };
    /// `ssl.engine.factory.class`.
    pub const SSL_ENGINE_FACTORY_CLASS: Def = Def {
        name: "ssl.engine.factory.class",
        ty: ConfigType::Text,
        default: None,
        scope: Scope::Stored(Dynamic::ListenerPerBroker),
        read: false,
        doc: "The class that builds TLS engines.",
        synonyms: &[],
    };
    /// `sasl.kerberos.service.name`.
    pub const SASL_KERBEROS_SERVICE_NAME: Def = Def {
        name: "sasl.kerberos.service.name",
        ty: ConfigType::Text,
        default: None,
        scope: Scope::Stored(Dynamic::ListenerPerBroker),
        read: true,
        doc: "The Kerberos service name the nodes sign in to each other with over GSSAPI (the first component of the listeners' service principal, kafka in kafka/host@REALM).",
        synonyms: &[],
    };
    /// `sasl.kerberos.kinit.cmd`.
    pub const SASL_KERBEROS_KINIT_CMD: Def = Def {
        name: "sasl.kerberos.kinit.cmd",
        ty: ConfigType::Text,
        default: Some("/usr/bin/kinit"),
        scope: Scope::Stored(Dynamic::ListenerPerBroker),
        read: false,
        doc: "Kafka's command for renewing Kerberos tickets; fjord's GSSAPI library gets and renews tickets from the keytab by itself.",
        synonyms: &[],
    };
    /// `sasl.kerberos.ticket.renew.window.factor`.
    pub const SASL_KERBEROS_TICKET_RENEW_WINDOW_FACTOR: Def = Def {
        name: "sasl.kerberos.ticket.renew.window.factor",
        ty: ConfigType::Double,
        default: Some("0.8"),
        scope: Scope::Stored(Dynamic::ListenerPerBroker),
        read: false,
        doc: "The share of a ticket's lifetime after which Kafka renews it; fjord's GSSAPI library renews tickets from the keytab by itself.",
        synonyms: &[],
    };
    /// `sasl.kerberos.ticket.renew.jitter`.
    pub const SASL_KERBEROS_TICKET_RENEW_JITTER: Def = Def {
        name: "sasl.kerberos.ticket.renew.jitter",
        ty: ConfigType::Double,
        default: Some("0.05"),
        scope: Scope::Stored(Dynamic::ListenerPerBroker),
        read: false,
        doc: "The random share Kafka adds to the renewal time; fjord's GSSAPI library renews tickets from the keytab by itself.",
        synonyms: &[],
    };
    /// `sasl.kerberos.min.time.before.relogin`.
    pub const SASL_KERBEROS_MIN_TIME_BEFORE_RELOGIN: Def = Def {
        name: "sasl.kerberos.min.time.before.relogin",
        ty: ConfigType::Long(0),
        default: Some("60000"),
        scope: Scope::Stored(Dynamic::ListenerPerBroker),
        read: false,
        doc: "The shortest time between two Kerberos logins in Kafka, in ms; fjord's GSSAPI library logs in from the keytab when a ticket is due.",
        synonyms: &[],
    };
    /// `sasl.kerberos.principal.to.local.rules`.
    pub const SASL_KERBEROS_PRINCIPAL_TO_LOCAL_RULES: Def = Def {
        name: "sasl.kerberos.principal.to.local.rules",
        ty: ConfigType::Text,
        default: Some("DEFAULT"),
        scope: Scope::Stored(Dynamic::ListenerPerBroker),
        read: true,
        doc: "The rules that map a Kerberos principal to the short name its connections speak as (User:short-name), tried in order: DEFAULT, or RULE:[n:format] followed by an optional (match), s/from/to/g and /L or /U.",
        synonyms: &[],
    };
    /// `sasl.login.refresh.window.factor`.
    pub const SASL_LOGIN_REFRESH_WINDOW_FACTOR: Def = Def {
        name: "sasl.login.refresh.window.factor",
        ty: ConfigType::Number,
        default: None,
        scope: Scope::Stored(Dynamic::ListenerPerBroker),
        read: false,
        doc: "The share of a login credential's lifetime after which it is refreshed.",
        synonyms: &[],
    };
    /// `sasl.login.refresh.window.jitter`.
    pub const SASL_LOGIN_REFRESH_WINDOW_JITTER: Def = Def {
        name: "sasl.login.refresh.window.jitter",
        ty: ConfigType::Number,
        default: None,
        scope: Scope::Stored(Dynamic::ListenerPerBroker),
        read: false,
        doc: "The random share added to the refresh time.",
        synonyms: &[],
    };
    /// `sasl.login.refresh.min.period.seconds`.
    pub const SASL_LOGIN_REFRESH_MIN_PERIOD_SECONDS: Def = Def {
        name: "sasl.login.refresh.min.period.seconds",
        ty: ConfigType::Int(0),
        default: None,
        scope: Scope::Stored(Dynamic::ListenerPerBroker),
        read: false,
        doc: "The shortest time between two credential refreshes.",
        synonyms: &[],
    };
    /// `sasl.login.refresh.buffer.seconds`.
    pub const SASL_LOGIN_REFRESH_BUFFER_SECONDS: Def = Def {
        name: "sasl.login.refresh.buffer.seconds",
        ty: ConfigType::Int(0),
        default: None,
        scope: Scope::Stored(Dynamic::ListenerPerBroker),
        read: false,
        doc: "How long before a credential expires it is refreshed.",
        synonyms: &[],
    };
    /// `max.connection.creation.rate`.
    pub const MAX_CONNECTION_CREATION_RATE: Def = Def {
        name: "max.connection.creation.rate",
        ty: ConfigType::Int(0),
        default: None,
        scope: Scope::Stored(Dynamic::ListenerCluster),
        read: false,
        doc: "The most new connections per second the broker (or one listener) accepts.",
        synonyms: &[],
    };
    /// `num.network.threads`.
    pub const NUM_NETWORK_THREADS: Def = Def {
        name: "num.network.threads",
        ty: ConfigType::Int(1),
        default: None,
        scope: Scope::Stored(Dynamic::ListenerCluster),
        read: false,
        doc: "The threads that read requests and write responses.",
        synonyms: &[],
    };
    /// `log.cleaner.threads`.
    pub const LOG_CLEANER_THREADS: Def = Def {
        name: "log.cleaner.threads",
        ty: ConfigType::Int(0),
        default: None,
        scope: Scope::Stored(Dynamic::Broker),
        read: false,
        doc: "The threads that compact logs.",
        synonyms: &[],
    };
    /// `log.cleaner.dedupe.buffer.size`.
    pub const LOG_CLEANER_DEDUPE_BUFFER_SIZE: Def = Def {
        name: "log.cleaner.dedupe.buffer.size",
        ty: ConfigType::Long(0),
        default: None,
        scope: Scope::Stored(Dynamic::Broker),
        read: false,
        doc: "The memory the log cleaner uses to find the latest record of each key.",
        synonyms: &[],
    };
    /// `log.cleaner.io.buffer.load.factor`.
    pub const LOG_CLEANER_IO_BUFFER_LOAD_FACTOR: Def = Def {
        name: "log.cleaner.io.buffer.load.factor",
        ty: ConfigType::Number,
        default: None,
        scope: Scope::Stored(Dynamic::Broker),
        read: false,
        doc: "How full the cleaner's key map may get.",
        synonyms: &[],
    };
    /// `log.cleaner.io.buffer.size`.
    pub const LOG_CLEANER_IO_BUFFER_SIZE: Def = Def {
        name: "log.cleaner.io.buffer.size",
        ty: ConfigType::Int(0),
        default: None,
        scope: Scope::Stored(Dynamic::Broker),
        read: false,
        doc: "The memory the cleaner reads and writes through.",
        synonyms: &[],
    };
    /// `log.cleaner.io.max.bytes.per.second`.
    pub const LOG_CLEANER_IO_MAX_BYTES_PER_SECOND: Def = Def {
        name: "log.cleaner.io.max.bytes.per.second",
        ty: ConfigType::Number,
        default: None,
        scope: Scope::Stored(Dynamic::Broker),
        read: false,
        doc: "The most bytes per second the cleaner reads and writes.",
        synonyms: &[],
    };
    /// `log.cleaner.backoff.ms`.
    pub const LOG_CLEANER_BACKOFF_MS: Def = Def {
        name: "log.cleaner.backoff.ms",
        ty: ConfigType::Long(0),
        default: None,
        scope: Scope::Stored(Dynamic::Broker),
        read: false,
        doc: "How long the cleaner sleeps when no log needs cleaning.",
        synonyms: &[],
    };
    /// `log.roll.jitter.ms`.
    pub const LOG_ROLL_JITTER_MS: Def = Def {
        name: "log.roll.jitter.ms",
        ty: ConfigType::Long(0),
        default: None,
        scope: Scope::Stored(Dynamic::Broker),
        read: false,
        doc: "The broker's default of segment.jitter.ms.",
        synonyms: &[],
    };
    /// `log.cleaner.max.compaction.lag.ms`.
    pub const LOG_CLEANER_MAX_COMPACTION_LAG_MS: Def = Def {
        name: "log.cleaner.max.compaction.lag.ms",
        ty: ConfigType::Long(1),
        default: None,
        scope: Scope::Stored(Dynamic::Broker),
        read: false,
        doc: "The broker's default of max.compaction.lag.ms.",
        synonyms: &[],
    };
    /// `compression.gzip.level`.
    pub const COMPRESSION_GZIP_LEVEL: Def = Def {
        name: "compression.gzip.level",
        ty: ConfigType::Int(-1),
        default: None,
        scope: Scope::Stored(Dynamic::Broker),
        read: false,
        doc: "The gzip level of batches the broker compresses.",
        synonyms: &[],
    };
    /// `compression.lz4.level`.
    pub const COMPRESSION_LZ4_LEVEL: Def = Def {
        name: "compression.lz4.level",
        ty: ConfigType::Int(1),
        default: None,
        scope: Scope::Stored(Dynamic::Broker),
        read: false,
        doc: "The lz4 level of batches the broker compresses.",
        synonyms: &[],
    };
    /// `compression.zstd.level`.
    pub const COMPRESSION_ZSTD_LEVEL: Def = Def {
        name: "compression.zstd.level",
        ty: ConfigType::Int(-131072),
        default: None,
        scope: Scope::Stored(Dynamic::Broker),
        read: false,
        doc: "The zstd level of batches the broker compresses.",
        synonyms: &[],
    };
    /// `log.preallocate`.
    pub const LOG_PREALLOCATE: Def = Def {
        name: "log.preallocate",
        ty: ConfigType::Bool,
        default: None,
        scope: Scope::Stored(Dynamic::Broker),
        read: false,
        doc: "The broker's default of preallocate.",
        synonyms: &[],
    };
    /// `log.message.timestamp.difference.max.ms`.
    pub const LOG_MESSAGE_TIMESTAMP_DIFFERENCE_MAX_MS: Def = Def {
        name: "log.message.timestamp.difference.max.ms",
        ty: ConfigType::Long(0),
        default: None,
        scope: Scope::Stored(Dynamic::Broker),
        read: false,
        doc: "The largest difference allowed between a record's timestamp and the broker's clock (removed in Kafka 4; see the before/after keys).",
        synonyms: &[],
    };
    /// `log.message.downconversion.enable`.
    pub const LOG_MESSAGE_DOWNCONVERSION_ENABLE: Def = Def {
        name: "log.message.downconversion.enable",
        ty: ConfigType::Bool,
        default: None,
        scope: Scope::Stored(Dynamic::Broker),
        read: false,
        doc: "Whether records may be converted to older formats for old clients.",
        synonyms: &[],
    };
    /// `log.local.retention.ms`.
    pub const LOG_LOCAL_RETENTION_MS: Def = Def {
        name: "log.local.retention.ms",
        ty: ConfigType::Long(-2),
        default: Some("-2"),
        scope: Scope::Stored(Dynamic::Broker),
        read: false,
        doc: "How long segments stay on local disk when tiered storage is on.",
        synonyms: &[],
    };
    /// `log.local.retention.bytes`.
    pub const LOG_LOCAL_RETENTION_BYTES: Def = Def {
        name: "log.local.retention.bytes",
        ty: ConfigType::Long(-2),
        default: Some("-2"),
        scope: Scope::Stored(Dynamic::Broker),
        read: false,
        doc: "How many bytes stay on local disk when tiered storage is on.",
        synonyms: &[],
    };
    /// `num.io.threads`.
    pub const NUM_IO_THREADS: Def = Def {
        name: "num.io.threads",
        ty: ConfigType::Int(1),
        default: None,
        scope: Scope::Stored(Dynamic::Broker),
        read: false,
        doc: "The threads that handle requests.",
        synonyms: &[],
    };
    /// `background.threads`.
    pub const BACKGROUND_THREADS: Def = Def {
        name: "background.threads",
        ty: ConfigType::Int(1),
        default: None,
        scope: Scope::Stored(Dynamic::Broker),
        read: false,
        doc: "The threads for background work.",
        synonyms: &[],
    };
    /// `metric.reporters`.
    pub const METRIC_REPORTERS: Def = Def {
        name: "metric.reporters",
        ty: ConfigType::Text,
        default: None,
        scope: Scope::Stored(Dynamic::Broker),
        read: false,
        doc: "The classes that receive the broker's metrics.",
        synonyms: &[],
    };
    /// `max.connections.per.ip.overrides`.
    pub const MAX_CONNECTIONS_PER_IP_OVERRIDES: Def = Def {
        name: "max.connections.per.ip.overrides",
        ty: ConfigType::Text,
        default: None,
        scope: Scope::Stored(Dynamic::Broker),
        read: false,
        doc: "Per-address exceptions to max.connections.per.ip.",
        synonyms: &[],
    };
    /// `log.remote.copy.lag.ms`.
    pub const LOG_REMOTE_COPY_LAG_MS: Def = Def {
        name: "log.remote.copy.lag.ms",
        ty: ConfigType::Long(-1),
        default: Some("0"),
        scope: Scope::Stored(Dynamic::Broker),
        read: false,
        doc: "The default remote.copy.lag.ms.",
        synonyms: &[],
    };
    /// `log.remote.copy.lag.bytes`.
    pub const LOG_REMOTE_COPY_LAG_BYTES: Def = Def {
        name: "log.remote.copy.lag.bytes",
        ty: ConfigType::Long(-1),
        default: Some("-1"),
        scope: Scope::Stored(Dynamic::Broker),
        read: false,
        doc: "The default remote.copy.lag.bytes.",
        synonyms: &[],
    };
    /// `remote.log.storage.system.enable`.
    pub const REMOTE_LOG_STORAGE_SYSTEM_ENABLE: Def = Def {
        name: "remote.log.storage.system.enable",
        ty: ConfigType::Bool,
        default: Some("false"),
        scope: Scope::Static,
        read: true,
        doc:
            "Turn tiered storage on for this node (topics then choose with remote.storage.enable).",
        synonyms: &[],
    };
    /// `remote.log.manager.task.interval.ms`.
    pub const REMOTE_LOG_MANAGER_TASK_INTERVAL_MS: Def = Def {
        name: "remote.log.manager.task.interval.ms",
        ty: ConfigType::Long(1),
        default: Some("30000"),
        scope: Scope::Static,
        read: true,
        doc: "How often each tiered partition is looked at for segments to copy or expire.",
        synonyms: &[],
    };
    /// `remote.log.manager.task.retry.backoff.ms`.
    pub const REMOTE_LOG_MANAGER_TASK_RETRY_BACKOFF_MS: Def = Def {
        name: "remote.log.manager.task.retry.backoff.ms",
        ty: ConfigType::Long(1),
        default: Some("500"),
        scope: Scope::Static,
        read: true,
        doc: "The first wait after a failed tiered-storage step.",
        synonyms: &[],
    };
    /// `remote.log.manager.task.retry.backoff.max.ms`.
    pub const REMOTE_LOG_MANAGER_TASK_RETRY_BACKOFF_MAX_MS: Def = Def {
        name: "remote.log.manager.task.retry.backoff.max.ms",
        ty: ConfigType::Long(1),
        default: Some("30000"),
        scope: Scope::Static,
        read: true,
        doc: "The longest wait after failed tiered-storage steps.",
        synonyms: &[],
    };
    /// `remote.log.manager.copier.thread.pool.size`.
    pub const REMOTE_LOG_MANAGER_COPIER_THREAD_POOL_SIZE: Def = Def {
        name: "remote.log.manager.copier.thread.pool.size",
        ty: ConfigType::Int(1),
        default: Some("10"),
        scope: Scope::Static,
        read: true,
        doc: "How many segment copies to tiered storage run at once (each partition copies one segment at a time).",
        synonyms: &[],
    };
    /// `remote.log.manager.expiration.thread.pool.size`.
    pub const REMOTE_LOG_MANAGER_EXPIRATION_THREAD_POOL_SIZE: Def = Def {
        name: "remote.log.manager.expiration.thread.pool.size",
        ty: ConfigType::Int(1),
        default: Some("10"),
        scope: Scope::Static,
        read: true,
        doc: "How many deletions of expired segments from tiered storage run at once.",
        synonyms: &[],
    };
    /// `remote.log.reader.threads`.
    pub const REMOTE_LOG_READER_THREADS: Def = Def {
        name: "remote.log.reader.threads",
        ty: ConfigType::Int(1),
        default: Some("10"),
        scope: Scope::Static,
        read: true,
        doc: "How many reads from tiered storage run at once.",
        synonyms: &[],
    };
    /// `remote.log.reader.max.pending.tasks`.
    pub const REMOTE_LOG_READER_MAX_PENDING_TASKS: Def = Def {
        name: "remote.log.reader.max.pending.tasks",
        ty: ConfigType::Int(1),
        default: Some("100"),
        scope: Scope::Static,
        read: true,
        doc: "How many reads from tiered storage may wait; more are refused.",
        synonyms: &[],
    };
    /// `remote.log.storage.manager.impl.prefix`.
    pub const REMOTE_LOG_STORAGE_MANAGER_IMPL_PREFIX: Def = Def {
        name: "remote.log.storage.manager.impl.prefix",
        ty: ConfigType::Text,
        default: Some("rsm.config."),
        scope: Scope::Static,
        read: true,
        doc: "The prefix of the object store's keys.",
        synonyms: &[],
    };
    /// `remote.log.metadata.manager.impl.prefix`.
    pub const REMOTE_LOG_METADATA_MANAGER_IMPL_PREFIX: Def = Def {
        name: "remote.log.metadata.manager.impl.prefix",
        ty: ConfigType::Text,
        default: Some("rlmm.config."),
        scope: Scope::Static,
        read: true,
        doc: "The prefix of the remote log metadata topic's keys.",
        synonyms: &[],
    };
    /// `remote.log.index.file.cache.total.size.bytes`.
    pub const REMOTE_LOG_INDEX_FILE_CACHE_TOTAL_SIZE_BYTES: Def = Def {
        name: "remote.log.index.file.cache.total.size.bytes",
        ty: ConfigType::Long(1),
        default: None,
        scope: Scope::Stored(Dynamic::Broker),
        read: false,
        doc: "The disk space of the tiered storage index cache.",
        synonyms: &[],
    };
    /// `remote.fetch.max.wait.ms`.
    pub const REMOTE_FETCH_MAX_WAIT_MS: Def = Def {
        name: "remote.fetch.max.wait.ms",
        ty: ConfigType::Int(1),
        default: None,
        scope: Scope::Stored(Dynamic::Broker),
        read: false,
        doc: "How long a fetch from tiered storage may wait.",
        synonyms: &[],
    };
    /// `remote.log.manager.copy.max.bytes.per.second`.
    pub const REMOTE_LOG_MANAGER_COPY_MAX_BYTES_PER_SECOND: Def = Def {
        name: "remote.log.manager.copy.max.bytes.per.second",
        ty: ConfigType::Long(1),
        default: Some("9223372036854775807"),
        scope: Scope::Acted,
        read: true,
        doc: "The bytes per second this broker copies to tiered storage, all partitions together; unbounded by default.",
        synonyms: &[],
    };
    /// `remote.log.manager.fetch.max.bytes.per.second`.
    pub const REMOTE_LOG_MANAGER_FETCH_MAX_BYTES_PER_SECOND: Def = Def {
        name: "remote.log.manager.fetch.max.bytes.per.second",
        ty: ConfigType::Long(1),
        default: Some("9223372036854775807"),
        scope: Scope::Acted,
        read: true,
        doc: "The bytes per second this broker reads from tiered storage for fetches, all partitions together; unbounded by default.",
        synonyms: &[],
    };
    /// `remote.list.offsets.request.timeout.ms`.
    pub const REMOTE_LIST_OFFSETS_REQUEST_TIMEOUT_MS: Def = Def {
        name: "remote.list.offsets.request.timeout.ms",
        ty: ConfigType::Long(1),
        default: None,
        scope: Scope::Stored(Dynamic::Broker),
        read: false,
        doc: "How long a ListOffsets served from tiered storage may take.",
        synonyms: &[],
    };
    /// `group.consumer.min.assignment.interval.ms`.
    pub const GROUP_CONSUMER_MIN_ASSIGNMENT_INTERVAL_MS: Def = Def {
        name: "group.consumer.min.assignment.interval.ms",
        ty: ConfigType::Int(0),
        default: Some("0"),
        scope: Scope::Static,
        read: false,
        doc:
            "The least assignment interval a consumer group may set (a bound on the group config).",
        synonyms: &[],
    };
    /// `group.consumer.max.assignment.interval.ms`.
    pub const GROUP_CONSUMER_MAX_ASSIGNMENT_INTERVAL_MS: Def = Def {
        name: "group.consumer.max.assignment.interval.ms",
        ty: ConfigType::Int(0),
        default: Some("15000"),
        scope: Scope::Static,
        read: false,
        doc: "The greatest assignment interval a consumer group may set (a bound on the group config).",
        synonyms: &[],
    };
    /// `group.share.min.session.timeout.ms`.
    pub const GROUP_SHARE_MIN_SESSION_TIMEOUT_MS: Def = Def {
        name: "group.share.min.session.timeout.ms",
        ty: ConfigType::Int(0),
        default: Some("45000"),
        scope: Scope::Static,
        read: false,
        doc: "The least session timeout a share group may set (a bound on the group config).",
        synonyms: &[],
    };
    /// `group.share.max.session.timeout.ms`.
    pub const GROUP_SHARE_MAX_SESSION_TIMEOUT_MS: Def = Def {
        name: "group.share.max.session.timeout.ms",
        ty: ConfigType::Int(0),
        default: Some("60000"),
        scope: Scope::Static,
        read: false,
        doc: "The greatest session timeout a share group may set (a bound on the group config).",
        synonyms: &[],
    };
    /// `group.share.min.heartbeat.interval.ms`.
    pub const GROUP_SHARE_MIN_HEARTBEAT_INTERVAL_MS: Def = Def {
        name: "group.share.min.heartbeat.interval.ms",
        ty: ConfigType::Int(0),
        default: Some("5000"),
        scope: Scope::Static,
        read: false,
        doc: "The least heartbeat interval a share group may set (a bound on the group config).",
        synonyms: &[],
    };
    /// `group.share.max.heartbeat.interval.ms`.
    pub const GROUP_SHARE_MAX_HEARTBEAT_INTERVAL_MS: Def = Def {
        name: "group.share.max.heartbeat.interval.ms",
        ty: ConfigType::Int(0),
        default: Some("15000"),
        scope: Scope::Static,
        read: false,
        doc: "The greatest heartbeat interval a share group may set (a bound on the group config).",
        synonyms: &[],
    };
    /// `group.share.min.record.lock.duration.ms`.
    pub const GROUP_SHARE_MIN_RECORD_LOCK_DURATION_MS: Def = Def {
        name: "group.share.min.record.lock.duration.ms",
        ty: ConfigType::Int(0),
        default: Some("15000"),
        scope: Scope::Static,
        read: false,
        doc: "The least record lock duration a share group may set (a bound on the group config).",
        synonyms: &[],
    };
    /// `group.share.max.record.lock.duration.ms`.
    pub const GROUP_SHARE_MAX_RECORD_LOCK_DURATION_MS: Def = Def {
        name: "group.share.max.record.lock.duration.ms",
        ty: ConfigType::Int(0),
        default: Some("60000"),
        scope: Scope::Static,
        read: false,
        doc:
            "The greatest record lock duration a share group may set (a bound on the group config).",
        synonyms: &[],
    };
    /// `group.share.min.delivery.count.limit`.
    pub const GROUP_SHARE_MIN_DELIVERY_COUNT_LIMIT: Def = Def {
        name: "group.share.min.delivery.count.limit",
        ty: ConfigType::Int(0),
        default: Some("2"),
        scope: Scope::Static,
        read: false,
        doc: "The least delivery count limit a share group may set (a bound on the group config).",
        synonyms: &[],
    };
    /// `group.share.max.delivery.count.limit`.
    pub const GROUP_SHARE_MAX_DELIVERY_COUNT_LIMIT: Def = Def {
        name: "group.share.max.delivery.count.limit",
        ty: ConfigType::Int(0),
        default: Some("10"),
        scope: Scope::Static,
        read: false,
        doc:
            "The greatest delivery count limit a share group may set (a bound on the group config).",
        synonyms: &[],
    };
    /// `group.share.min.partition.max.record.locks`.
    pub const GROUP_SHARE_MIN_PARTITION_MAX_RECORD_LOCKS: Def = Def {
        name: "group.share.min.partition.max.record.locks",
        ty: ConfigType::Int(0),
        default: Some("100"),
        scope: Scope::Static,
        read: false,
        doc: "The least per-partition record lock limit a share group may set (a bound on the group config).",
        synonyms: &[],
    };
    /// `group.share.max.partition.max.record.locks`.
    pub const GROUP_SHARE_MAX_PARTITION_MAX_RECORD_LOCKS: Def = Def {
        name: "group.share.max.partition.max.record.locks",
        ty: ConfigType::Int(0),
        default: Some("4000"),
        scope: Scope::Static,
        read: false,
        doc: "The greatest per-partition record lock limit a share group may set (a bound on the group config).",
        synonyms: &[],
    };
    /// `group.share.min.assignment.interval.ms`.
    pub const GROUP_SHARE_MIN_ASSIGNMENT_INTERVAL_MS: Def = Def {
        name: "group.share.min.assignment.interval.ms",
        ty: ConfigType::Int(0),
        default: Some("0"),
        scope: Scope::Static,
        read: false,
        doc: "The least assignment interval a share group may set (a bound on the group config).",
        synonyms: &[],
    };
    /// `group.share.max.assignment.interval.ms`.
    pub const GROUP_SHARE_MAX_ASSIGNMENT_INTERVAL_MS: Def = Def {
        name: "group.share.max.assignment.interval.ms",
        ty: ConfigType::Int(0),
        default: Some("15000"),
        scope: Scope::Static,
        read: false,
        doc:
            "The greatest assignment interval a share group may set (a bound on the group config).",
        synonyms: &[],
    };
    /// `group.streams.min.session.timeout.ms`.
    pub const GROUP_STREAMS_MIN_SESSION_TIMEOUT_MS: Def = Def {
        name: "group.streams.min.session.timeout.ms",
        ty: ConfigType::Int(0),
        default: Some("45000"),
        scope: Scope::Static,
        read: false,
        doc: "The least session timeout a streams group may set (a bound on the group config).",
        synonyms: &[],
    };
    /// `group.streams.max.session.timeout.ms`.
    pub const GROUP_STREAMS_MAX_SESSION_TIMEOUT_MS: Def = Def {
        name: "group.streams.max.session.timeout.ms",
        ty: ConfigType::Int(0),
        default: Some("60000"),
        scope: Scope::Static,
        read: false,
        doc: "The greatest session timeout a streams group may set (a bound on the group config).",
        synonyms: &[],
    };
    /// `group.streams.min.heartbeat.interval.ms`.
    pub const GROUP_STREAMS_MIN_HEARTBEAT_INTERVAL_MS: Def = Def {
        name: "group.streams.min.heartbeat.interval.ms",
        ty: ConfigType::Int(0),
        default: Some("5000"),
        scope: Scope::Static,
        read: false,
        doc: "The least heartbeat interval a streams group may set (a bound on the group config).",
        synonyms: &[],
    };
    /// `group.streams.max.heartbeat.interval.ms`.
    pub const GROUP_STREAMS_MAX_HEARTBEAT_INTERVAL_MS: Def = Def {
        name: "group.streams.max.heartbeat.interval.ms",
        ty: ConfigType::Int(0),
        default: Some("15000"),
        scope: Scope::Static,
        read: false,
        doc:
            "The greatest heartbeat interval a streams group may set (a bound on the group config).",
        synonyms: &[],
    };
    /// `group.streams.max.standby.replicas`.
    pub const GROUP_STREAMS_MAX_STANDBY_REPLICAS: Def = Def {
        name: "group.streams.max.standby.replicas",
        ty: ConfigType::Int(0),
        default: Some("2"),
        scope: Scope::Static,
        read: true,
        doc: "The greatest number of standby replicas a streams group may set (a bound on the group config).",
        synonyms: &[],
    };
    /// `group.streams.min.assignment.interval.ms`.
    pub const GROUP_STREAMS_MIN_ASSIGNMENT_INTERVAL_MS: Def = Def {
        name: "group.streams.min.assignment.interval.ms",
        ty: ConfigType::Int(0),
        default: Some("0"),
        scope: Scope::Static,
        read: false,
        doc: "The least assignment interval a streams group may set (a bound on the group config).",
        synonyms: &[],
    };
    /// `group.streams.max.assignment.interval.ms`.
    pub const GROUP_STREAMS_MAX_ASSIGNMENT_INTERVAL_MS: Def = Def {
        name: "group.streams.max.assignment.interval.ms",
        ty: ConfigType::Int(0),
        default: Some("15000"),
        scope: Scope::Static,
        read: false,
        doc: "The greatest assignment interval a streams group may set (a bound on the group config).",
        synonyms: &[],
    };
    /// `group.streams.min.task.offset.interval.ms`.
    pub const GROUP_STREAMS_MIN_TASK_OFFSET_INTERVAL_MS: Def = Def {
        name: "group.streams.min.task.offset.interval.ms",
        ty: ConfigType::Int(0),
        default: Some("15000"),
        scope: Scope::Static,
        read: false,
        doc:
            "The least task offset interval a streams group may set (a bound on the group config).",
        synonyms: &[],
    };
    /// `group.streams.max.warmup.replicas`.
    pub const GROUP_STREAMS_MAX_WARMUP_REPLICAS: Def = Def {
        name: "group.streams.max.warmup.replicas",
        ty: ConfigType::Int(0),
        default: Some("20"),
        scope: Scope::Static,
        read: true,
        doc: "The greatest number of warm-up replicas a streams group may set (a bound on the group config).",
        synonyms: &[],
    };
    /// `group.streams.assignors`.
    pub const GROUP_STREAMS_ASSIGNORS: Def = Def {
        name: "group.streams.assignors",
        ty: ConfigType::Text,
        default: Some("sticky"),
        scope: Scope::Static,
        read: false,
        doc: "The task assignors streams groups may use; the first is the default (KIP-1071).",
        synonyms: &[],
    };
    /// `group.streams.rack.aware.assignment.tags`.
    pub const GROUP_STREAMS_RACK_AWARE_ASSIGNMENT_TAGS: Def = Def {
        name: "group.streams.rack.aware.assignment.tags",
        ty: ConfigType::Text,
        default: Some(""),
        scope: Scope::Static,
        read: true,
        doc: "Client tag keys every streams group member must send (Kafka Streams' client.tag.<key>), else its heartbeat carries MISSING_CLIENT_TAGS; standbys are placed without them (a group's streams.rack.aware.assignment.tags overrides it).",
        synonyms: &[],
    };
    /// `group.streams.session.timeout.ms`.
    pub const GROUP_STREAMS_SESSION_TIMEOUT_MS: Def = Def {
        name: "group.streams.session.timeout.ms",
        ty: ConfigType::Int(1),
        default: Some("45000"),
        scope: Scope::Static,
        read: true,
        doc: "A streams group member's session timeout when the group sets none (a group's streams.session.timeout.ms overrides it).",
        synonyms: &[],
    };
    /// `group.streams.heartbeat.interval.ms`.
    pub const GROUP_STREAMS_HEARTBEAT_INTERVAL_MS: Def = Def {
        name: "group.streams.heartbeat.interval.ms",
        ty: ConfigType::Int(1),
        default: Some("5000"),
        scope: Scope::Static,
        read: true,
        doc: "How often streams group members heartbeat (a group's streams.heartbeat.interval.ms overrides it).",
        synonyms: &[],
    };
    /// `group.streams.max.size`.
    pub const GROUP_STREAMS_MAX_SIZE: Def = Def {
        name: "group.streams.max.size",
        ty: ConfigType::Int(1),
        default: Some("2147483647"),
        scope: Scope::Static,
        read: true,
        doc: "The most members one streams group may have (fjord holds at most 10000).",
        synonyms: &[],
    };
    /// `group.streams.num.standby.replicas`.
    pub const GROUP_STREAMS_NUM_STANDBY_REPLICAS: Def = Def {
        name: "group.streams.num.standby.replicas",
        ty: ConfigType::Int(0),
        default: Some("0"),
        scope: Scope::Static,
        read: true,
        doc: "Standby copies of each stateful task, on other processes (a group's streams.num.standby.replicas overrides it).",
        synonyms: &[],
    };
    /// `group.streams.num.warmup.replicas`.
    pub const GROUP_STREAMS_NUM_WARMUP_REPLICAS: Def = Def {
        name: "group.streams.num.warmup.replicas",
        ty: ConfigType::Int(0),
        default: Some("0"),
        scope: Scope::Static,
        read: true,
        doc: "Warm-up tasks a streams group runs at once before a stateful task moves (0: none, as Kafka 4.4.0 hands out).",
        synonyms: &[],
    };
    /// `group.streams.acceptable.recovery.lag`.
    pub const GROUP_STREAMS_ACCEPTABLE_RECOVERY_LAG: Def = Def {
        name: "group.streams.acceptable.recovery.lag",
        ty: ConfigType::Long(0),
        default: Some("10000"),
        scope: Scope::Static,
        read: true,
        doc: "The changelog lag at or below which a warm-up task is caught up.",
        synonyms: &[],
    };
    /// `group.streams.initial.rebalance.delay.ms`.
    pub const GROUP_STREAMS_INITIAL_REBALANCE_DELAY_MS: Def = Def {
        name: "group.streams.initial.rebalance.delay.ms",
        ty: ConfigType::Int(0),
        default: Some("3000"),
        scope: Scope::Static,
        read: true,
        doc: "How long a new streams group waits for more members before its first assignment (a group's streams.initial.rebalance.delay.ms overrides it).",
        synonyms: &[],
    };
    /// `group.streams.task.offset.interval.ms`.
    pub const GROUP_STREAMS_TASK_OFFSET_INTERVAL_MS: Def = Def {
        name: "group.streams.task.offset.interval.ms",
        ty: ConfigType::Int(1),
        default: Some("60000"),
        scope: Scope::Static,
        read: true,
        doc: "How often streams group members report their changelog offsets.",
        synonyms: &[],
    };
    /// Every broker key declared here, in name order.
    pub const ALL: &[&Def] = &[
        &ADVERTISED_LISTENERS,
        &ALLOW_EVERYONE_IF_NO_ACL_FOUND,
        &AUTHORIZER_CLASS_NAME,
        &AUTO_CREATE_TOPICS_ENABLE,
        &BACKGROUND_THREADS,
        &BROKER_CONNECTION_LOSS_FENCE_MS,
        &BROKER_HEARTBEAT_INTERVAL_MS,
        &BROKER_RACK,
        &BROKER_SESSION_TIMEOUT_MS,
        &COMPRESSION_GZIP_LEVEL,
        &COMPRESSION_LZ4_LEVEL,
        &COMPRESSION_TYPE,
        &COMPRESSION_ZSTD_LEVEL,
        &CONNECTION_FAILED_AUTHENTICATION_DELAY_MS,
        &CONNECTIONS_MAX_IDLE_MS,
        &CONNECTIONS_MAX_REAUTH_MS,
        &CONTROLLER_LISTENER_NAMES,
        &CONTROLLER_QUORUM_APPEND_LINGER_MS,
        &CONTROLLER_QUORUM_BOOTSTRAP_SERVERS,
        &CONTROLLER_QUORUM_ELECTION_BACKOFF_MAX_MS,
        &CONTROLLER_QUORUM_ELECTION_TIMEOUT_MS,
        &CONTROLLER_QUORUM_FETCH_TIMEOUT_MS,
        &CONTROLLER_QUORUM_REQUEST_TIMEOUT_MS,
        &CONTROLLER_QUORUM_RETRY_BACKOFF_MS,
        &CONTROLLER_QUORUM_VOTERS,
        &DEFAULT_REPLICATION_FACTOR,
        &DELEGATION_TOKEN_EXPIRY_CHECK_INTERVAL_MS,
        &DELEGATION_TOKEN_EXPIRY_TIME_MS,
        &DELEGATION_TOKEN_MAX_LIFETIME_MS,
        &DELEGATION_TOKEN_SECRET_KEY,
        &ERRORS_DEADLETTERQUEUE_AUTO_CREATE_TOPICS_ENABLE,
        &ERRORS_DEADLETTERQUEUE_TOPIC_NAME_PREFIX,
        &FOLLOWER_REPLICATION_THROTTLED_RATE,
        &GROUP_CONSUMER_ASSIGNORS,
        &GROUP_CONSUMER_HEARTBEAT_INTERVAL_MS,
        &GROUP_CONSUMER_MAX_ASSIGNMENT_INTERVAL_MS,
        &GROUP_CONSUMER_MAX_HEARTBEAT_INTERVAL_MS,
        &GROUP_CONSUMER_MAX_SESSION_TIMEOUT_MS,
        &GROUP_CONSUMER_MAX_SIZE,
        &GROUP_CONSUMER_MIGRATION_POLICY,
        &GROUP_CONSUMER_MIN_ASSIGNMENT_INTERVAL_MS,
        &GROUP_CONSUMER_MIN_HEARTBEAT_INTERVAL_MS,
        &GROUP_CONSUMER_MIN_SESSION_TIMEOUT_MS,
        &GROUP_CONSUMER_SESSION_TIMEOUT_MS,
        &GROUP_COORDINATOR_REBALANCE_PROTOCOLS,
        &GROUP_INITIAL_REBALANCE_DELAY_MS,
        &GROUP_MAX_SESSION_TIMEOUT_MS,
        &GROUP_MAX_SIZE,
        &GROUP_MIN_SESSION_TIMEOUT_MS,
        &GROUP_SHARE_DELIVERY_COUNT_LIMIT,
        &GROUP_SHARE_HEARTBEAT_INTERVAL_MS,
        &GROUP_SHARE_MAX_ASSIGNMENT_INTERVAL_MS,
        &GROUP_SHARE_MAX_DELIVERY_COUNT_LIMIT,
        &GROUP_SHARE_MAX_HEARTBEAT_INTERVAL_MS,
        &GROUP_SHARE_MAX_PARTITION_MAX_RECORD_LOCKS,
        &GROUP_SHARE_MAX_RECORD_LOCK_DURATION_MS,
        &GROUP_SHARE_MAX_SESSION_TIMEOUT_MS,
        &GROUP_SHARE_MAX_SHARE_SESSIONS,
        &GROUP_SHARE_MAX_SIZE,
        &GROUP_SHARE_MIN_ASSIGNMENT_INTERVAL_MS,
        &GROUP_SHARE_MIN_DELIVERY_COUNT_LIMIT,
        &GROUP_SHARE_MIN_HEARTBEAT_INTERVAL_MS,
        &GROUP_SHARE_MIN_PARTITION_MAX_RECORD_LOCKS,
        &GROUP_SHARE_MIN_RECORD_LOCK_DURATION_MS,
        &GROUP_SHARE_MIN_SESSION_TIMEOUT_MS,
        &GROUP_SHARE_PARTITION_MAX_RECORD_LOCKS,
        &GROUP_SHARE_RECORD_LOCK_DURATION_MS,
        &GROUP_SHARE_SESSION_TIMEOUT_MS,
        &GROUP_STREAMS_ACCEPTABLE_RECOVERY_LAG,
        &GROUP_STREAMS_ASSIGNORS,
        &GROUP_STREAMS_HEARTBEAT_INTERVAL_MS,
        &GROUP_STREAMS_INITIAL_REBALANCE_DELAY_MS,
        &GROUP_STREAMS_MAX_ASSIGNMENT_INTERVAL_MS,
        &GROUP_STREAMS_MAX_HEARTBEAT_INTERVAL_MS,
        &GROUP_STREAMS_MAX_SESSION_TIMEOUT_MS,
        &GROUP_STREAMS_MAX_SIZE,
        &GROUP_STREAMS_MAX_STANDBY_REPLICAS,
        &GROUP_STREAMS_MAX_WARMUP_REPLICAS,
        &GROUP_STREAMS_MIN_ASSIGNMENT_INTERVAL_MS,
        &GROUP_STREAMS_MIN_HEARTBEAT_INTERVAL_MS,
        &GROUP_STREAMS_MIN_SESSION_TIMEOUT_MS,
        &GROUP_STREAMS_MIN_TASK_OFFSET_INTERVAL_MS,
        &GROUP_STREAMS_NUM_STANDBY_REPLICAS,
        &GROUP_STREAMS_NUM_WARMUP_REPLICAS,
        &GROUP_STREAMS_RACK_AWARE_ASSIGNMENT_TAGS,
        &GROUP_STREAMS_SESSION_TIMEOUT_MS,
        &GROUP_STREAMS_TASK_OFFSET_INTERVAL_MS,
        &INTER_BROKER_LISTENER_NAME,
        &LEADER_REPLICATION_THROTTLED_RATE,
        &LISTENER_SECURITY_PROTOCOL_MAP,
        &LISTENERS,
        &LOG_CLEANER_BACKOFF_MS,
        &LOG_CLEANER_DEDUPE_BUFFER_SIZE,
        &LOG_CLEANER_DELETE_RETENTION_MS,
        &LOG_CLEANER_IO_BUFFER_LOAD_FACTOR,
        &LOG_CLEANER_IO_BUFFER_SIZE,
        &LOG_CLEANER_IO_MAX_BYTES_PER_SECOND,
        &LOG_CLEANER_MAX_COMPACTION_LAG_MS,
        &LOG_CLEANER_MIN_CLEANABLE_RATIO,
        &LOG_CLEANER_MIN_COMPACTION_LAG_MS,
        &LOG_CLEANER_THREADS,
        &LOG_CLEANUP_POLICY,
        &LOG_DIR,
        &LOG_DIRS,
        &LOG_FLUSH_INTERVAL_MESSAGES,
        &LOG_FLUSH_INTERVAL_MS,
        &LOG_FLUSH_OFFSET_CHECKPOINT_INTERVAL_MS,
        &LOG_FLUSH_START_OFFSET_CHECKPOINT_INTERVAL_MS,
        &LOG_INDEX_INTERVAL_BYTES,
        &LOG_INDEX_SIZE_MAX_BYTES,
        &LOG_LOCAL_RETENTION_BYTES,
        &LOG_LOCAL_RETENTION_MS,
        &LOG_MESSAGE_DOWNCONVERSION_ENABLE,
        &LOG_MESSAGE_TIMESTAMP_AFTER_MAX_MS,
        &LOG_MESSAGE_TIMESTAMP_BEFORE_MAX_MS,
        &LOG_MESSAGE_TIMESTAMP_DIFFERENCE_MAX_MS,
        &LOG_MESSAGE_TIMESTAMP_TYPE,
        &LOG_PREALLOCATE,
        &LOG_REMOTE_COPY_LAG_BYTES,
        &LOG_REMOTE_COPY_LAG_MS,
        &LOG_RETENTION_BYTES,
        &LOG_RETENTION_CHECK_INTERVAL_MS,
        &LOG_RETENTION_HOURS,
        &LOG_RETENTION_MINUTES,
        &LOG_RETENTION_MS,
        &LOG_ROLL_HOURS,
        &LOG_ROLL_JITTER_MS,
        &LOG_ROLL_MS,
        &LOG_SEGMENT_BYTES,
        &LOG_SEGMENT_DELETE_DELAY_MS,
        &MAX_CONNECTION_CREATION_RATE,
        &MAX_CONNECTIONS,
        &MAX_CONNECTIONS_PER_IP,
        &MAX_CONNECTIONS_PER_IP_OVERRIDES,
        &MAX_INCREMENTAL_FETCH_SESSION_CACHE_SLOTS,
        &MESSAGE_MAX_BYTES,
        &METADATA_LOG_DIR,
        &METADATA_LOG_MAX_RECORD_BYTES_BETWEEN_SNAPSHOTS,
        &METRIC_REPORTERS,
        &METRICS_CLIENT_MAX_SERIES,
        &METRICS_LISTENER,
        &MIN_INCREMENTAL_FETCH_SESSION_EVICTION_MS,
        &MIN_INSYNC_REPLICAS,
        &NODE_ID,
        &NUM_IO_THREADS,
        &NUM_NETWORK_THREADS,
        &NUM_PARTITIONS,
        &NUM_RECOVERY_THREADS_PER_DATA_DIR,
        &NUM_REPLICA_FETCHERS,
        &OFFSET_METADATA_MAX_BYTES,
        &OFFSETS_RETENTION_CHECK_INTERVAL_MS,
        &OFFSETS_RETENTION_MINUTES,
        &OFFSETS_TOPIC_NUM_PARTITIONS,
        &OFFSETS_TOPIC_REPLICATION_FACTOR,
        &OFFSETS_TOPIC_SEGMENT_BYTES,
        &PRINCIPAL_BUILDER_CLASS,
        &PROCESS_ROLES,
        &PRODUCER_ID_EXPIRATION_CHECK_INTERVAL_MS,
        &PRODUCER_ID_EXPIRATION_MS,
        &QUEUED_MAX_REQUEST_BYTES,
        &REMOTE_FETCH_MAX_WAIT_MS,
        &REMOTE_LIST_OFFSETS_REQUEST_TIMEOUT_MS,
        &REMOTE_LOG_INDEX_FILE_CACHE_TOTAL_SIZE_BYTES,
        &REMOTE_LOG_MANAGER_COPIER_THREAD_POOL_SIZE,
        &REMOTE_LOG_MANAGER_COPY_MAX_BYTES_PER_SECOND,
        &REMOTE_LOG_MANAGER_EXPIRATION_THREAD_POOL_SIZE,
        &REMOTE_LOG_MANAGER_FETCH_MAX_BYTES_PER_SECOND,
        &REMOTE_LOG_MANAGER_TASK_INTERVAL_MS,
        &REMOTE_LOG_MANAGER_TASK_RETRY_BACKOFF_MAX_MS,
        &REMOTE_LOG_MANAGER_TASK_RETRY_BACKOFF_MS,
        &REMOTE_LOG_METADATA_MANAGER_IMPL_PREFIX,
        &REMOTE_LOG_READER_MAX_PENDING_TASKS,
        &REMOTE_LOG_READER_THREADS,
        &REMOTE_LOG_STORAGE_MANAGER_IMPL_PREFIX,
        &REMOTE_LOG_STORAGE_SYSTEM_ENABLE,
        &REPLICA_ALTER_LOG_DIRS_IO_MAX_BYTES_PER_SECOND,
        &REPLICA_FETCH_BACKOFF_MS,
        &REPLICA_FETCH_MAX_BYTES,
        &REPLICA_FETCH_MIN_BYTES,
        &REPLICA_FETCH_RESPONSE_MAX_BYTES,
        &REPLICA_FETCH_WAIT_MAX_MS,
        &REPLICA_HIGH_WATERMARK_CHECKPOINT_INTERVAL_MS,
        &REPLICA_LAG_TIME_MAX_MS,
        &SASL_ENABLED_MECHANISMS,
        &SASL_JAAS_CONFIG,
        &SASL_KERBEROS_KINIT_CMD,
        &SASL_KERBEROS_MIN_TIME_BEFORE_RELOGIN,
        &SASL_KERBEROS_PRINCIPAL_TO_LOCAL_RULES,
        &SASL_KERBEROS_SERVICE_NAME,
        &SASL_KERBEROS_TICKET_RENEW_JITTER,
        &SASL_KERBEROS_TICKET_RENEW_WINDOW_FACTOR,
        &SASL_LOGIN_CALLBACK_HANDLER_CLASS,
        &SASL_LOGIN_REFRESH_BUFFER_SECONDS,
        &SASL_LOGIN_REFRESH_MIN_PERIOD_SECONDS,
        &SASL_LOGIN_REFRESH_WINDOW_FACTOR,
        &SASL_LOGIN_REFRESH_WINDOW_JITTER,
        &SASL_MECHANISM_CONTROLLER_PROTOCOL,
        &SASL_MECHANISM_INTER_BROKER_PROTOCOL,
        &SASL_OAUTHBEARER_ALLOW_UNVERIFIED_AUDIENCE,
        &SASL_OAUTHBEARER_ALLOW_UNVERIFIED_ISSUER,
        &SASL_OAUTHBEARER_CLIENT_CREDENTIALS_CLIENT_ID,
        &SASL_OAUTHBEARER_CLIENT_CREDENTIALS_CLIENT_SECRET,
        &SASL_OAUTHBEARER_CLOCK_SKEW_SECONDS,
        &SASL_OAUTHBEARER_EXPECTED_AUDIENCE,
        &SASL_OAUTHBEARER_EXPECTED_ISSUER,
        &SASL_OAUTHBEARER_JWKS_ENDPOINT_REFRESH_MS,
        &SASL_OAUTHBEARER_JWKS_ENDPOINT_RETRY_BACKOFF_MAX_MS,
        &SASL_OAUTHBEARER_JWKS_ENDPOINT_RETRY_BACKOFF_MS,
        &SASL_OAUTHBEARER_JWKS_ENDPOINT_URL,
        &SASL_OAUTHBEARER_SCOPE,
        &SASL_OAUTHBEARER_SCOPE_CLAIM_NAME,
        &SASL_OAUTHBEARER_SUB_CLAIM_NAME,
        &SASL_OAUTHBEARER_TOKEN_ENDPOINT_URL,
        &SASL_SERVER_CALLBACK_HANDLER_CLASS,
        &SASL_SERVER_MAX_RECEIVE_SIZE,
        &SECURITY_INTER_BROKER_PROTOCOL,
        &SHARE_COORDINATOR_SNAPSHOT_UPDATE_RECORDS_PER_SNAPSHOT,
        &SHARE_COORDINATOR_STATE_TOPIC_MIN_ISR,
        &SHARE_COORDINATOR_STATE_TOPIC_NUM_PARTITIONS,
        &SHARE_COORDINATOR_STATE_TOPIC_PRUNE_INTERVAL_MS,
        &SHARE_COORDINATOR_STATE_TOPIC_REPLICATION_FACTOR,
        &SHARE_COORDINATOR_STATE_TOPIC_SEGMENT_BYTES,
        &SOCKET_REQUEST_MAX_BYTES,
        &SSL_CIPHER_SUITES,
        &SSL_CLIENT_AUTH,
        &SSL_ENABLED_PROTOCOLS,
        &SSL_ENDPOINT_IDENTIFICATION_ALGORITHM,
        &SSL_ENGINE_FACTORY_CLASS,
        &SSL_KEY_PASSWORD,
        &SSL_KEYMANAGER_ALGORITHM,
        &SSL_KEYSTORE_CERTIFICATE_CHAIN,
        &SSL_KEYSTORE_KEY,
        &SSL_KEYSTORE_LOCATION,
        &SSL_KEYSTORE_PASSWORD,
        &SSL_KEYSTORE_TYPE,
        &SSL_PRINCIPAL_MAPPING_RULES,
        &SSL_PROTOCOL,
        &SSL_PROVIDER,
        &SSL_SECURE_RANDOM_IMPLEMENTATION,
        &SSL_TRUSTMANAGER_ALGORITHM,
        &SSL_TRUSTSTORE_CERTIFICATES,
        &SSL_TRUSTSTORE_LOCATION,
        &SSL_TRUSTSTORE_PASSWORD,
        &SSL_TRUSTSTORE_TYPE,
        &SUPER_USERS,
        &TELEMETRY_MAX_BYTES,
        &TRANSACTION_ABORT_TIMED_OUT_TRANSACTION_CLEANUP_INTERVAL_MS,
        &TRANSACTION_MAX_TIMEOUT_MS,
        &TRANSACTION_PARTITION_VERIFICATION_ENABLE,
        &TRANSACTION_REMOVE_EXPIRED_TRANSACTION_CLEANUP_INTERVAL_MS,
        &TRANSACTION_STATE_LOG_MIN_ISR,
        &TRANSACTION_STATE_LOG_NUM_PARTITIONS,
        &TRANSACTION_STATE_LOG_REPLICATION_FACTOR,
        &TRANSACTION_STATE_LOG_SEGMENT_BYTES,
        &TRANSACTIONAL_ID_EXPIRATION_MS,
        &UNCLEAN_LEADER_ELECTION_ENABLE,
    ];
}

/// Kafka 4.4's broker keys that only the server properties set (its `nonDynamicConfigs`,
/// dumped from the 4.4.0 jars), but the two fjord lets change at runtime (`num.partitions`,
/// `default.replication.factor`): a dynamic update naming one is refused.
pub const KAFKA_STATIC_KEYS: &[&str] = &[
    "log.roll.hours",
    "log.retention.minutes",
    "log.retention.hours",
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

/// The topic key `name`, if it is one.
pub fn topic_key(name: &str) -> Option<&'static Def> {
    topic::ALL.iter().copied().find(|d| d.name == name)
}

/// The broker key `name`, if it is declared here.
pub fn broker_key(name: &str) -> Option<&'static Def> {
    broker::ALL.iter().copied().find(|d| d.name == name)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_unique_sorted_and_documented() {
        for all in [topic::ALL, broker::ALL] {
            for w in all.windows(2) {
                assert!(w[0].name < w[1].name, "{} then {}", w[0].name, w[1].name);
            }
            for d in all {
                assert!(!d.doc.is_empty(), "{} has no documentation", d.name);
                if let (Some(min), Some(v)) = (d.ty.min(), d.default) {
                    assert!(
                        v.parse::<i64>().is_ok_and(|v| v >= min),
                        "{}: {v} < {min}",
                        d.name
                    );
                }
            }
        }
        for d in topic::ALL {
            assert_eq!(d.scope, Scope::Topic);
        }
        for d in broker::ALL {
            assert_ne!(d.scope, Scope::Topic);
        }
    }

    #[test]
    fn defaults_follow_the_synonym_chain() {
        // log.retention.ms has no default of its own: log.retention.hours' 168 hours.
        assert_eq!(
            broker::LOG_RETENTION_MS.effective_default().as_deref(),
            Some("604800000")
        );
        assert_eq!(
            broker::LOG_ROLL_MS.effective_default().as_deref(),
            Some("604800000")
        );
        assert_eq!(
            topic::RETENTION_MS.acted_synonym().map(|d| d.name),
            Some("log.retention.ms")
        );
        assert!(topic::SEGMENT_MS.acted_synonym().is_none());
        assert_eq!(
            topic_key("segment.bytes").map(|d| d.ty),
            Some(ConfigType::Int(14))
        );
        assert!(broker_key("segment.bytes").is_none());
    }
}
