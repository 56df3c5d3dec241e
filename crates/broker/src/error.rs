//! The broker's typed errors at its crate boundary, each with the Kafka error code a client
//! would be answered with.

use fjord_protocol::ErrorCode;

/// Why a broker request or start-up step failed.
#[derive(Debug, thiserror::Error)]
pub enum BrokerError {
    /// A request's work on the blocking pool panicked or was cancelled.
    #[error("{what} failed: {source}")]
    Task {
        /// The work (`a fetch's reads`).
        what: &'static str,
        /// Why the task ended.
        #[source]
        source: tokio::task::JoinError,
    },
    /// None of the broker's log dirs could be opened.
    #[error("no log dir could be opened ({0})")]
    NoLogDir(String),
}

impl BrokerError {
    /// A failed task of `what`.
    pub fn task(what: &'static str) -> impl FnOnce(tokio::task::JoinError) -> BrokerError {
        move |source| BrokerError::Task { what, source }
    }

    /// The Kafka error code this error answers with.
    pub fn code(&self) -> ErrorCode {
        match self {
            BrokerError::Task { .. } => ErrorCode::UnknownServerError,
            BrokerError::NoLogDir(_) => ErrorCode::KafkaStorageError,
        }
    }
}
