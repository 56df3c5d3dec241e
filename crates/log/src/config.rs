//! Per-log configuration, with Kafka's topic-level names and defaults.

/// Kafka's default `segment.bytes`: 1 GiB.
pub const DEFAULT_SEGMENT_BYTES: u64 = 1024 * 1024 * 1024;
/// Kafka's default `segment.ms`: 7 days.
pub const DEFAULT_SEGMENT_MS: i64 = 7 * 24 * 60 * 60 * 1000;
/// Kafka's default `retention.ms`: 7 days.
pub const DEFAULT_RETENTION_MS: i64 = 7 * 24 * 60 * 60 * 1000;
/// Kafka's default `index.interval.bytes`: 4096.
pub const DEFAULT_INDEX_INTERVAL_BYTES: u64 = 4096;
/// Kafka's default `segment.index.bytes`: 10 MiB.
pub const DEFAULT_SEGMENT_INDEX_BYTES: u64 = 10 * 1024 * 1024;
/// Kafka's default `max.message.bytes`: 1 MiB plus the batch overhead.
pub const DEFAULT_MAX_MESSAGE_BYTES: usize = 1_048_588;
/// Kafka's default `delete.retention.ms`: 1 day.
pub const DEFAULT_DELETE_RETENTION_MS: i64 = 24 * 60 * 60 * 1000;
/// Kafka's default `file.delete.delay.ms`: 1 minute.
pub const DEFAULT_FILE_DELETE_DELAY_MS: i64 = 60_000;

/// `cleanup.policy`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CleanupPolicy {
    /// `delete`: segments older or beyond the size limit are removed.
    pub delete: bool,
    /// `compact`: only the latest record of each key is kept.
    pub compact: bool,
}

impl CleanupPolicy {
    /// Parses Kafka's list form: `delete`, `compact`, `compact,delete`.
    pub fn parse(s: &str) -> Option<CleanupPolicy> {
        let mut p = CleanupPolicy {
            delete: false,
            compact: false,
        };
        for part in s.split(',').map(str::trim) {
            match part {
                "delete" => p.delete = true,
                "compact" => p.compact = true,
                _ => return None,
            }
        }
        (p.delete || p.compact).then_some(p)
    }
}

/// `message.timestamp.type`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TimestampType {
    /// Keep the producer's timestamps.
    CreateTime,
    /// Stamp the broker's clock on append.
    LogAppendTime,
}

/// The configuration of one partition log.
#[derive(Debug, Clone, PartialEq)]
pub struct LogConfig {
    /// `segment.bytes`: roll when the active segment would grow past this.
    pub segment_bytes: u64,
    /// `segment.ms`: roll when the active segment's first batch is older than this.
    pub segment_ms: i64,
    /// `segment.index.bytes`: roll when the offset or time index would outgrow this.
    pub segment_index_bytes: u64,
    /// `index.interval.bytes`: bytes of log between offset-index entries.
    pub index_interval_bytes: u64,
    /// `retention.ms`: delete segments whose newest record is older (-1: keep forever).
    pub retention_ms: i64,
    /// `retention.bytes`: delete the oldest segments beyond this size (-1: no limit).
    pub retention_bytes: i64,
    /// `max.message.bytes`: the largest batch accepted.
    pub max_message_bytes: usize,
    /// `message.timestamp.type`.
    pub timestamp_type: TimestampType,
    /// `cleanup.policy`.
    pub cleanup_policy: CleanupPolicy,
    /// `delete.retention.ms`: how long compaction keeps tombstones.
    pub delete_retention_ms: i64,
    /// `min.cleanable.dirty.ratio`.
    pub min_cleanable_dirty_ratio: f64,
    /// `min.compaction.lag.ms`.
    pub min_compaction_lag_ms: i64,
    /// `flush.messages`: fsync after this many messages (`i64::MAX`: leave it to the OS).
    pub flush_messages: i64,
    /// `flush.ms`: fsync when the last flush is older than this (`i64::MAX`: never).
    pub flush_ms: i64,
    /// `file.delete.delay.ms`: how long deleted segments linger as `.deleted`.
    pub file_delete_delay_ms: i64,
    /// `compression.type`: the codec batches are stored in (None: `producer`, as sent).
    pub compression: Option<fjord_protocol::records::Compression>,
    /// `message.timestamp.before.max.ms`: how far in the past a CreateTime timestamp may be.
    pub timestamp_before_max_ms: i64,
    /// `message.timestamp.after.max.ms`: how far in the future a CreateTime timestamp may be.
    pub timestamp_after_max_ms: i64,
    /// Tiered storage: `remote.storage.enable` on a node with
    /// `remote.log.storage.system.enable`. The log start may then lie below the first local
    /// segment, and local retention deletes only what the store holds.
    pub remote_storage: bool,
    /// `local.retention.ms` (-2: `retention.ms`).
    pub local_retention_ms: i64,
    /// `local.retention.bytes` (-2: `retention.bytes`).
    pub local_retention_bytes: i64,
    /// `remote.log.copy.disable`: local retention follows the total limits.
    pub remote_copy_disabled: bool,
}

impl Default for LogConfig {
    fn default() -> Self {
        LogConfig {
            segment_bytes: DEFAULT_SEGMENT_BYTES,
            segment_ms: DEFAULT_SEGMENT_MS,
            segment_index_bytes: DEFAULT_SEGMENT_INDEX_BYTES,
            index_interval_bytes: DEFAULT_INDEX_INTERVAL_BYTES,
            retention_ms: DEFAULT_RETENTION_MS,
            retention_bytes: -1,
            max_message_bytes: DEFAULT_MAX_MESSAGE_BYTES,
            timestamp_type: TimestampType::CreateTime,
            cleanup_policy: CleanupPolicy {
                delete: true,
                compact: false,
            },
            delete_retention_ms: DEFAULT_DELETE_RETENTION_MS,
            min_cleanable_dirty_ratio: 0.5,
            min_compaction_lag_ms: 0,
            flush_messages: i64::MAX,
            flush_ms: i64::MAX,
            file_delete_delay_ms: DEFAULT_FILE_DELETE_DELAY_MS,
            compression: None,
            timestamp_before_max_ms: i64::MAX,
            timestamp_after_max_ms: 3_600_000,
            remote_storage: false,
            local_retention_ms: -2,
            local_retention_bytes: -2,
            remote_copy_disabled: false,
        }
    }
}

impl LogConfig {
    /// The local retention limits in effect, `(ms, bytes)`: the `local.retention.*` keys with
    /// -2 taking the total's (and the total's when copying is off, KIP-950).
    pub fn local_retention(&self) -> (i64, i64) {
        if self.remote_copy_disabled {
            return (self.retention_ms, self.retention_bytes);
        }
        let pick = |local: i64, total: i64| if local == -2 { total } else { local };
        (
            pick(self.local_retention_ms, self.retention_ms),
            pick(self.local_retention_bytes, self.retention_bytes),
        )
    }
}

/// A `compression.type` value: `producer` (None), `uncompressed`, `gzip`, `snappy`, `lz4`,
/// `zstd`; anything else is not a codec.
pub fn parse_compression_type(v: &str) -> Option<Option<fjord_protocol::records::Compression>> {
    use fjord_protocol::records::Compression;
    Some(match v.trim() {
        "producer" => None,
        "uncompressed" | "none" => Some(Compression::None),
        "gzip" => Some(Compression::Gzip),
        "snappy" => Some(Compression::Snappy),
        "lz4" => Some(Compression::Lz4),
        "zstd" => Some(Compression::Zstd),
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cleanup_policy_parses_kafkas_forms() {
        assert_eq!(
            CleanupPolicy::parse("delete"),
            Some(CleanupPolicy {
                delete: true,
                compact: false
            })
        );
        assert_eq!(
            CleanupPolicy::parse("compact, delete"),
            Some(CleanupPolicy {
                delete: true,
                compact: true
            })
        );
        assert_eq!(CleanupPolicy::parse("bogus"), None);
        assert_eq!(CleanupPolicy::parse(""), None);
    }
}
