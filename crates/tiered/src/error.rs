//! Typed tiered-storage errors, each carrying the Kafka error code a broker answers with.

use fjord_protocol::ErrorCode;

/// Why a tiered-storage operation failed.
#[derive(Debug, thiserror::Error)]
pub enum TieredError {
    /// The object store refused or could not be reached (Kafka answers a remote read that
    /// fails this way with UNKNOWN_SERVER_ERROR, and the copy task retries).
    #[error("remote storage: {0}")]
    Store(String),
    /// An object the metadata names is not in the store.
    #[error("remote object {0} not found")]
    NotFound(String),
    /// A `__remote_log_metadata` value that does not decode.
    #[error("bad remote log metadata: {0}")]
    BadMetadata(String),
    /// A local file of a segment could not be read for upload.
    #[error("reading {path}: {source}")]
    Io {
        /// The file.
        path: String,
        /// The cause.
        source: std::io::Error,
    },
    /// The store's settings are incomplete or contradictory.
    #[error("tiered storage configuration: {0}")]
    Config(String),
}

impl TieredError {
    /// The Kafka error code a broker answers with.
    pub fn code(&self) -> ErrorCode {
        match self {
            TieredError::Config(_) => ErrorCode::InvalidConfig,
            TieredError::Io { .. } => ErrorCode::KafkaStorageError,
            _ => ErrorCode::UnknownServerError,
        }
    }
}

/// Results of tiered-storage operations.
pub type Result<T> = std::result::Result<T, TieredError>;
