//! The metadata crate's typed errors at its boundary, each with the Kafka error code a client
//! is answered with.

use fjord_protocol::ErrorCode;

/// Why a name, a config value, an ACL or a snapshot was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum MetadataError {
    /// A topic name Kafka's rules refuse.
    #[error("{0}")]
    InvalidTopicName(String),
    /// A config value its key's type refuses (the message names the key).
    #[error("{0}")]
    InvalidConfig(String),
    /// An ACL or ACL filter with a value it cannot take.
    #[error("{0}")]
    InvalidAcl(String),
    /// A snapshot that does not decode or apply.
    #[error("{0}")]
    Snapshot(String),
}

impl MetadataError {
    /// The Kafka error code this error answers with.
    pub fn code(&self) -> ErrorCode {
        match self {
            MetadataError::InvalidTopicName(_) => ErrorCode::InvalidTopicException,
            MetadataError::InvalidConfig(_) => ErrorCode::InvalidConfig,
            MetadataError::InvalidAcl(_) => ErrorCode::InvalidRequest,
            MetadataError::Snapshot(_) => ErrorCode::UnknownServerError,
        }
    }
}
