//! Typed log errors, each carrying the Kafka error code a broker answers with.

use fjord_protocol::ErrorCode;
use std::path::PathBuf;

/// Why a log operation failed.
#[derive(Debug, thiserror::Error)]
pub enum LogError {
    /// A disk operation failed; the log dir is suspect.
    #[error("I/O error on {path}: {source}")]
    Io {
        /// The file or directory.
        path: PathBuf,
        /// The cause.
        source: std::io::Error,
    },
    /// A batch failed validation (framing, magic, CRC, records).
    #[error("corrupt record batch: {0}")]
    CorruptRecord(String),
    /// A batch larger than `max.message.bytes`.
    #[error("batch of {size} bytes exceeds max.message.bytes {max}")]
    RecordTooLarge {
        /// The batch size.
        size: usize,
        /// The limit.
        max: usize,
    },
    /// An offset outside `[log start, log end]`.
    #[error("offset {offset} is out of range [{log_start}, {log_end}]")]
    OffsetOutOfRange {
        /// The offset asked for.
        offset: i64,
        /// The log start offset.
        log_start: i64,
        /// The log end offset.
        log_end: i64,
    },
    /// An offset between the log start and the first local segment: its records are in
    /// tiered storage (a consumer reads them from there; a follower starts at the local start).
    #[error("offset {offset} is in tiered storage (the local log starts at {local_start})")]
    InTieredStorage {
        /// The offset asked for.
        offset: i64,
        /// The first offset on local disk.
        local_start: i64,
    },
    /// A follower append whose first offset is not the log end offset, or whose batches are
    /// not contiguous.
    #[error("unexpected append offset {got}, expected {expected}")]
    UnexpectedAppendOffset {
        /// The offset the batch carried.
        got: i64,
        /// The offset the log expected.
        expected: i64,
    },
    /// A request that cannot be valid (a DeleteRecords offset past the high watermark, ...).
    #[error("invalid request: {0}")]
    InvalidRequest(String),
    /// Records refused one by one (Produce's `record_errors`): timestamps outside
    /// `message.timestamp.before.max.ms`/`after.max.ms` (INVALID_TIMESTAMP), a null key on a
    /// compacted topic (INVALID_RECORD).
    #[error("{message}")]
    RecordErrors {
        /// The Kafka error.
        code: ErrorCode,
        /// The partition-level message.
        message: String,
        /// Each refused record's index in its batch, with why.
        records: Vec<(i32, String)>,
    },
    /// An idempotent producer's batch whose sequence does not follow its last one.
    #[error("{0}")]
    OutOfOrderSequence(String),
    /// An idempotent producer's batch from an older epoch than the last seen.
    #[error("{0}")]
    InvalidProducerEpoch(String),
    /// A transactional write that does not fit the producer's transaction state (a plain
    /// batch while its transaction is open).
    #[error("{0}")]
    InvalidTxnState(String),
    /// A verified transactional write whose transaction ended here between its
    /// verification and its append: refused, and retriable (the retry asks the coordinator
    /// again, which says whether the producer may still write).
    #[error("{0}")]
    VerificationStale(String),
    /// A transaction marker from a coordinator older than the last one seen.
    #[error("{0}")]
    CoordinatorFenced(String),
    /// The log moved to another log dir (AlterReplicaLogDirs): this copy takes no more writes.
    #[error("the log of {0} moved to another log dir")]
    Moved(String),
    /// A file on disk that cannot be parsed (checkpoint, partition metadata).
    #[error("malformed {path}: {reason}")]
    Malformed {
        /// The file.
        path: PathBuf,
        /// What is wrong.
        reason: String,
    },
}

impl LogError {
    /// The Kafka error code for this failure.
    pub fn error_code(&self) -> ErrorCode {
        match self {
            LogError::Io { .. } | LogError::Malformed { .. } => ErrorCode::KafkaStorageError,
            LogError::CorruptRecord(_) => ErrorCode::CorruptMessage,
            LogError::RecordTooLarge { .. } => ErrorCode::MessageTooLarge,
            LogError::OffsetOutOfRange { .. } => ErrorCode::OffsetOutOfRange,
            LogError::InTieredStorage { .. } => ErrorCode::OffsetMovedToTieredStorage,
            LogError::UnexpectedAppendOffset { .. } => ErrorCode::InvalidRecord,
            LogError::InvalidRequest(_) => ErrorCode::InvalidRequest,
            LogError::OutOfOrderSequence(_) => ErrorCode::OutOfOrderSequenceNumber,
            LogError::RecordErrors { code, .. } => *code,
            LogError::InvalidProducerEpoch(_) => ErrorCode::InvalidProducerEpoch,
            LogError::InvalidTxnState(_) => ErrorCode::InvalidTxnState,
            LogError::VerificationStale(_) => ErrorCode::NotEnoughReplicas,
            LogError::CoordinatorFenced(_) => ErrorCode::TransactionCoordinatorFenced,
            LogError::Moved(_) => ErrorCode::NotLeaderOrFollower,
        }
    }
}

impl LogError {
    /// The records refused one by one, if any: (index in its batch, why).
    pub fn record_errors(&self) -> &[(i32, String)] {
        match self {
            LogError::RecordErrors { records, .. } => records,
            _ => &[],
        }
    }
}

/// Builds a closure that wraps an I/O error with the path it happened on.
pub fn io_err(path: impl Into<PathBuf>) -> impl FnOnce(std::io::Error) -> LogError {
    let path = path.into();
    move |source| LogError::Io { path, source }
}

/// Results of log operations.
pub type Result<T> = std::result::Result<T, LogError>;
