//! Every topic key, and the broker keys that supply their defaults or that the controller acts
//! on, declared once as Kafka's `ConfigDef` declares a key: name, type (with its validator's
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
    Stored,
    /// A broker key only `server.properties` sets.
    Static,
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
        doc: "How old segments are dealt with: `delete` removes them past retention, `compact` keeps the latest record of each key; both may be listed.",
        synonyms: &[Synonym { def: &super::broker::LOG_CLEANUP_POLICY, factor: 1 }],
    };
    /// `compression.type`.
    pub const COMPRESSION_TYPE: Def = Def {
        name: "compression.type",
        ty: ConfigType::Choice(COMPRESSION_TYPES, false),
        default: Some("producer"),
        scope: Scope::Topic,
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
        doc: "How long tombstones are kept after compaction, so that consumers that read late still see the delete.",
        synonyms: &[Synonym { def: &super::broker::LOG_CLEANER_DELETE_RETENTION_MS, factor: 1 }],
    };
    /// `errors.deadletterqueue.group.enable`.
    pub const ERRORS_DEADLETTERQUEUE_GROUP_ENABLE: Def = Def {
        name: "errors.deadletterqueue.group.enable",
        ty: ConfigType::Bool,
        default: Some("false"),
        scope: Scope::Topic,
        doc: "Whether share groups may use this topic as their dead-letter queue (KIP-1191); a group naming a topic without it writes no dead letters.",
        synonyms: &[],
    };
    /// `file.delete.delay.ms`.
    pub const FILE_DELETE_DELAY_MS: Def = Def {
        name: "file.delete.delay.ms",
        ty: ConfigType::Long(0),
        default: Some("60000"),
        scope: Scope::Topic,
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
        doc: "How many records may be appended before the log is forced to disk (the default leaves it to the operating system).",
        synonyms: &[Synonym { def: &super::broker::LOG_FLUSH_INTERVAL_MESSAGES, factor: 1 }],
    };
    /// `flush.ms`.
    pub const FLUSH_MS: Def = Def {
        name: "flush.ms",
        ty: ConfigType::Long(0),
        default: Some("9223372036854775807"),
        scope: Scope::Topic,
        doc: "How long appended records may wait before the log is forced to disk (the default leaves it to the operating system).",
        synonyms: &[Synonym { def: &super::broker::LOG_FLUSH_INTERVAL_MS, factor: 1 }],
    };
    /// `follower.replication.throttled.replicas`.
    pub const FOLLOWER_REPLICATION_THROTTLED_REPLICAS: Def = Def {
        name: "follower.replication.throttled.replicas",
        ty: ConfigType::ReplicaList,
        default: Some(""),
        scope: Scope::Topic,
        doc: "The replicas (partition:broker, or `*`) whose follower fetches are held to follower.replication.throttled.rate.",
        synonyms: &[],
    };
    /// `index.interval.bytes`.
    pub const INDEX_INTERVAL_BYTES: Def = Def {
        name: "index.interval.bytes",
        ty: ConfigType::Int(0),
        default: Some("4096"),
        scope: Scope::Topic,
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
        doc: "The replicas (partition:broker, or `*`) whose fetches from the leader are held to leader.replication.throttled.rate.",
        synonyms: &[],
    };
    /// `max.compaction.lag.ms`.
    pub const MAX_COMPACTION_LAG_MS: Def = Def {
        name: "max.compaction.lag.ms",
        ty: ConfigType::Long(1),
        default: Some("9223372036854775807"),
        scope: Scope::Topic,
        doc: "The longest a record may stay uncompacted in a compacted log.",
        synonyms: &[],
    };
    /// `max.message.bytes`.
    pub const MAX_MESSAGE_BYTES: Def = Def {
        name: "max.message.bytes",
        ty: ConfigType::Int(0),
        default: Some("1048588"),
        scope: Scope::Topic,
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
        doc: "How far in the future a record's timestamp may be compared to the broker's clock before the batch is refused.",
        synonyms: &[Synonym { def: &super::broker::LOG_MESSAGE_TIMESTAMP_AFTER_MAX_MS, factor: 1 }],
    };
    /// `message.timestamp.before.max.ms`.
    pub const MESSAGE_TIMESTAMP_BEFORE_MAX_MS: Def = Def {
        name: "message.timestamp.before.max.ms",
        ty: ConfigType::Long(0),
        default: Some("9223372036854775807"),
        scope: Scope::Topic,
        doc: "How far in the past a record's timestamp may be compared to the broker's clock before the batch is refused.",
        synonyms: &[Synonym { def: &super::broker::LOG_MESSAGE_TIMESTAMP_BEFORE_MAX_MS, factor: 1 }],
    };
    /// `message.timestamp.type`.
    pub const MESSAGE_TIMESTAMP_TYPE: Def = Def {
        name: "message.timestamp.type",
        ty: ConfigType::Choice(TIMESTAMP_TYPES, false),
        default: Some("CreateTime"),
        scope: Scope::Topic,
        doc: "Whether records keep the producer's timestamp (`CreateTime`) or get the broker's append time (`LogAppendTime`).",
        synonyms: &[Synonym { def: &super::broker::LOG_MESSAGE_TIMESTAMP_TYPE, factor: 1 }],
    };
    /// `min.cleanable.dirty.ratio`.
    pub const MIN_CLEANABLE_DIRTY_RATIO: Def = Def {
        name: "min.cleanable.dirty.ratio",
        ty: ConfigType::Double,
        default: Some("0.5"),
        scope: Scope::Topic,
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
        doc: "How many in-sync replicas an acks=all write needs; fewer and the write is refused with NOT_ENOUGH_REPLICAS.",
        synonyms: &[Synonym { def: &super::broker::MIN_INSYNC_REPLICAS, factor: 1 }],
    };
    /// `preallocate`.
    pub const PREALLOCATE: Def = Def {
        name: "preallocate",
        ty: ConfigType::Bool,
        default: Some("false"),
        scope: Scope::Topic,
        doc: "Whether a new segment file is allocated at its full size when it is created.",
        synonyms: &[],
    };
    /// `retention.bytes`.
    pub const RETENTION_BYTES: Def = Def {
        name: "retention.bytes",
        ty: ConfigType::Long(-1),
        default: Some("-1"),
        scope: Scope::Topic,
        doc: "The most bytes a partition keeps before its oldest segments are deleted (-1: no limit).",
        synonyms: &[Synonym { def: &super::broker::LOG_RETENTION_BYTES, factor: 1 }],
    };
    /// `retention.ms`.
    pub const RETENTION_MS: Def = Def {
        name: "retention.ms",
        ty: ConfigType::Long(-1),
        default: Some("604800000"),
        scope: Scope::Topic,
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
        doc: "The most random time taken off segment.ms, so that many partitions do not roll at once.",
        synonyms: &[],
    };
    /// `segment.ms`.
    pub const SEGMENT_MS: Def = Def {
        name: "segment.ms",
        ty: ConfigType::Long(1),
        default: Some("604800000"),
        scope: Scope::Topic,
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
        doc: "Whether a replica outside the ISR may become leader when no in-sync replica is left, at the cost of losing records.",
        synonyms: &[Synonym { def: &super::broker::UNCLEAN_LEADER_ELECTION_ENABLE, factor: 1 }],
    };
    /// `unclean.recovery.strategy`.
    pub const UNCLEAN_RECOVERY_STRATEGY: Def = Def {
        name: "unclean.recovery.strategy",
        ty: ConfigType::Choice(&["Proactive", "Balanced", "Manual"], false),
        default: Some("Balanced"),
        scope: Scope::Topic,
        doc: "How kafka-unclean-recovery --watch treats a partition left without a leader: Proactive, Balanced or Manual (fjord's).",
        synonyms: &[],
    };
    /// `unclean.recovery.timeout.ms`.
    pub const UNCLEAN_RECOVERY_TIMEOUT_MS: Def = Def {
        name: "unclean.recovery.timeout.ms",
        ty: ConfigType::Long(1),
        default: Some("300000"),
        scope: Scope::Topic,
        doc: "How long kafka-unclean-recovery --watch waits for the ISR to come back before it acts (fjord's).",
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
        &MAX_COMPACTION_LAG_MS,
        &MAX_MESSAGE_BYTES,
        &MESSAGE_TIMESTAMP_AFTER_MAX_MS,
        &MESSAGE_TIMESTAMP_BEFORE_MAX_MS,
        &MESSAGE_TIMESTAMP_TYPE,
        &MIN_CLEANABLE_DIRTY_RATIO,
        &MIN_COMPACTION_LAG_MS,
        &MIN_INSYNC_REPLICAS,
        &PREALLOCATE,
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
        doc: "How many in-sync replicas an acks=all write needs; fewer and the write is refused with NOT_ENOUGH_REPLICAS.",
        synonyms: &[],
    };
    /// `unclean.leader.election.enable`.
    pub const UNCLEAN_LEADER_ELECTION_ENABLE: Def = Def {
        name: "unclean.leader.election.enable",
        ty: ConfigType::Bool,
        default: Some("false"),
        scope: Scope::Acted,
        doc: "Whether a replica outside the ISR may become leader when no in-sync replica is left, at the cost of losing records.",
        synonyms: &[],
    };
    /// `log.retention.ms`.
    pub const LOG_RETENTION_MS: Def = Def {
        name: "log.retention.ms",
        ty: ConfigType::Long(-1),
        default: None,
        scope: Scope::Acted,
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
        doc: "log.retention.ms in hours (used when neither it nor log.retention.minutes is set).",
        synonyms: &[],
    };
    /// `log.retention.bytes`.
    pub const LOG_RETENTION_BYTES: Def = Def {
        name: "log.retention.bytes",
        ty: ConfigType::Long(-1),
        default: Some("-1"),
        scope: Scope::Acted,
        doc: "The broker's default of retention.bytes.",
        synonyms: &[],
    };
    /// `log.segment.bytes`.
    pub const LOG_SEGMENT_BYTES: Def = Def {
        name: "log.segment.bytes",
        ty: ConfigType::Int(14),
        default: Some("1073741824"),
        scope: Scope::Acted,
        doc: "The broker's default of segment.bytes.",
        synonyms: &[],
    };
    /// `log.cleanup.policy`.
    pub const LOG_CLEANUP_POLICY: Def = Def {
        name: "log.cleanup.policy",
        ty: ConfigType::Choice(&["compact", "delete"], true),
        default: Some("delete"),
        scope: Scope::Acted,
        doc: "The broker's default of cleanup.policy.",
        synonyms: &[],
    };
    /// `message.max.bytes`.
    pub const MESSAGE_MAX_BYTES: Def = Def {
        name: "message.max.bytes",
        ty: ConfigType::Int(0),
        default: Some("1048588"),
        scope: Scope::Acted,
        doc: "The broker's default of max.message.bytes.",
        synonyms: &[],
    };
    /// `num.partitions`.
    pub const NUM_PARTITIONS: Def = Def {
        name: "num.partitions",
        ty: ConfigType::Int(1),
        default: Some("1"),
        scope: Scope::Acted,
        doc: "The partition count of a topic created without one.",
        synonyms: &[],
    };
    /// `default.replication.factor`.
    pub const DEFAULT_REPLICATION_FACTOR: Def = Def {
        name: "default.replication.factor",
        ty: ConfigType::Int(1),
        default: Some("1"),
        scope: Scope::Acted,
        doc: "The replication factor of a topic created without one.",
        synonyms: &[],
    };
    /// `leader.replication.throttled.rate`.
    pub const LEADER_REPLICATION_THROTTLED_RATE: Def = Def {
        name: "leader.replication.throttled.rate",
        ty: ConfigType::Long(0),
        default: Some("9223372036854775807"),
        scope: Scope::Acted,
        doc: "The bytes per second leaders send to throttled replicas (leader.replication.throttled.replicas).",
        synonyms: &[],
    };
    /// `follower.replication.throttled.rate`.
    pub const FOLLOWER_REPLICATION_THROTTLED_RATE: Def = Def {
        name: "follower.replication.throttled.rate",
        ty: ConfigType::Long(0),
        default: Some("9223372036854775807"),
        scope: Scope::Acted,
        doc: "The bytes per second throttled followers fetch (follower.replication.throttled.replicas).",
        synonyms: &[],
    };
    /// `replica.alter.log.dirs.io.max.bytes.per.second`.
    pub const REPLICA_ALTER_LOG_DIRS_IO_MAX_BYTES_PER_SECOND: Def = Def {
        name: "replica.alter.log.dirs.io.max.bytes.per.second",
        ty: ConfigType::Long(0),
        default: Some("9223372036854775807"),
        scope: Scope::Acted,
        doc: "The bytes per second a replica moving between log directories is copied at.",
        synonyms: &[],
    };
    /// `log.roll.ms`.
    pub const LOG_ROLL_MS: Def = Def {
        name: "log.roll.ms",
        ty: ConfigType::Long(1),
        default: None,
        scope: Scope::Stored,
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
        doc: "log.roll.ms in hours (used when that is not set).",
        synonyms: &[],
    };
    /// `log.index.size.max.bytes`.
    pub const LOG_INDEX_SIZE_MAX_BYTES: Def = Def {
        name: "log.index.size.max.bytes",
        ty: ConfigType::Int(4),
        default: Some("10485760"),
        scope: Scope::Stored,
        doc: "The broker's default of segment.index.bytes.",
        synonyms: &[],
    };
    /// `log.flush.interval.messages`.
    pub const LOG_FLUSH_INTERVAL_MESSAGES: Def = Def {
        name: "log.flush.interval.messages",
        ty: ConfigType::Long(1),
        default: Some("9223372036854775807"),
        scope: Scope::Stored,
        doc: "The broker's default of flush.messages.",
        synonyms: &[],
    };
    /// `log.flush.interval.ms`.
    pub const LOG_FLUSH_INTERVAL_MS: Def = Def {
        name: "log.flush.interval.ms",
        ty: ConfigType::Long(0),
        default: None,
        scope: Scope::Stored,
        doc: "The broker's default of flush.ms.",
        synonyms: &[],
    };
    /// `log.index.interval.bytes`.
    pub const LOG_INDEX_INTERVAL_BYTES: Def = Def {
        name: "log.index.interval.bytes",
        ty: ConfigType::Int(0),
        default: Some("4096"),
        scope: Scope::Stored,
        doc: "The broker's default of index.interval.bytes.",
        synonyms: &[],
    };
    /// `log.cleaner.delete.retention.ms`.
    pub const LOG_CLEANER_DELETE_RETENTION_MS: Def = Def {
        name: "log.cleaner.delete.retention.ms",
        ty: ConfigType::Long(0),
        default: Some("86400000"),
        scope: Scope::Stored,
        doc: "The broker's default of delete.retention.ms.",
        synonyms: &[],
    };
    /// `log.cleaner.min.compaction.lag.ms`.
    pub const LOG_CLEANER_MIN_COMPACTION_LAG_MS: Def = Def {
        name: "log.cleaner.min.compaction.lag.ms",
        ty: ConfigType::Long(0),
        default: Some("0"),
        scope: Scope::Stored,
        doc: "The broker's default of min.compaction.lag.ms.",
        synonyms: &[],
    };
    /// `log.segment.delete.delay.ms`.
    pub const LOG_SEGMENT_DELETE_DELAY_MS: Def = Def {
        name: "log.segment.delete.delay.ms",
        ty: ConfigType::Long(0),
        default: Some("60000"),
        scope: Scope::Stored,
        doc: "The broker's default of file.delete.delay.ms.",
        synonyms: &[],
    };
    /// `log.cleaner.min.cleanable.ratio`.
    pub const LOG_CLEANER_MIN_CLEANABLE_RATIO: Def = Def {
        name: "log.cleaner.min.cleanable.ratio",
        ty: ConfigType::Double,
        default: Some("0.5"),
        scope: Scope::Stored,
        doc: "The broker's default of min.cleanable.dirty.ratio.",
        synonyms: &[],
    };
    /// `compression.type`.
    pub const COMPRESSION_TYPE: Def = Def {
        name: "compression.type",
        ty: ConfigType::Choice(COMPRESSION_TYPES, false),
        default: Some("producer"),
        scope: Scope::Stored,
        doc: "The codec batches are stored with; `producer` keeps whatever the producer used.",
        synonyms: &[],
    };
    /// `log.message.timestamp.type`.
    pub const LOG_MESSAGE_TIMESTAMP_TYPE: Def = Def {
        name: "log.message.timestamp.type",
        ty: ConfigType::Choice(TIMESTAMP_TYPES, false),
        default: Some("CreateTime"),
        scope: Scope::Stored,
        doc: "The broker's default of message.timestamp.type.",
        synonyms: &[],
    };
    /// `log.message.timestamp.before.max.ms`.
    pub const LOG_MESSAGE_TIMESTAMP_BEFORE_MAX_MS: Def = Def {
        name: "log.message.timestamp.before.max.ms",
        ty: ConfigType::Long(0),
        default: Some("9223372036854775807"),
        scope: Scope::Stored,
        doc: "The broker's default of message.timestamp.before.max.ms.",
        synonyms: &[],
    };
    /// `log.message.timestamp.after.max.ms`.
    pub const LOG_MESSAGE_TIMESTAMP_AFTER_MAX_MS: Def = Def {
        name: "log.message.timestamp.after.max.ms",
        ty: ConfigType::Long(0),
        default: Some("3600000"),
        scope: Scope::Stored,
        doc: "The broker's default of message.timestamp.after.max.ms.",
        synonyms: &[],
    };
    /// Every broker key declared here, in name order.
    pub const ALL: &[&Def] = &[
        &COMPRESSION_TYPE,
        &DEFAULT_REPLICATION_FACTOR,
        &FOLLOWER_REPLICATION_THROTTLED_RATE,
        &LEADER_REPLICATION_THROTTLED_RATE,
        &LOG_CLEANER_DELETE_RETENTION_MS,
        &LOG_CLEANER_MIN_CLEANABLE_RATIO,
        &LOG_CLEANER_MIN_COMPACTION_LAG_MS,
        &LOG_CLEANUP_POLICY,
        &LOG_FLUSH_INTERVAL_MESSAGES,
        &LOG_FLUSH_INTERVAL_MS,
        &LOG_INDEX_INTERVAL_BYTES,
        &LOG_INDEX_SIZE_MAX_BYTES,
        &LOG_MESSAGE_TIMESTAMP_AFTER_MAX_MS,
        &LOG_MESSAGE_TIMESTAMP_BEFORE_MAX_MS,
        &LOG_MESSAGE_TIMESTAMP_TYPE,
        &LOG_RETENTION_BYTES,
        &LOG_RETENTION_HOURS,
        &LOG_RETENTION_MINUTES,
        &LOG_RETENTION_MS,
        &LOG_ROLL_HOURS,
        &LOG_ROLL_MS,
        &LOG_SEGMENT_BYTES,
        &LOG_SEGMENT_DELETE_DELAY_MS,
        &MESSAGE_MAX_BYTES,
        &MIN_INSYNC_REPLICAS,
        &NUM_PARTITIONS,
        &REPLICA_ALTER_LOG_DIRS_IO_MAX_BYTES_PER_SECOND,
        &UNCLEAN_LEADER_ELECTION_ENABLE,
    ];
}

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
