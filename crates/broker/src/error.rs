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
    /// The log cleaner's thread could not be started.
    #[error("starting the log cleaner: {0}")]
    Cleaner(#[source] std::io::Error),
    /// The partitions of the image could not be created before serving.
    #[error("creating the broker's partitions: {0}")]
    Partitions(String),
    /// A start-up setting is missing or inconsistent.
    #[error("{0}")]
    Setting(&'static str),
    /// Tiered storage could not be set up (its store's settings).
    #[error("tiered storage: {0}")]
    Tiering(String),
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
            BrokerError::NoLogDir(_) | BrokerError::Partitions(_) => ErrorCode::KafkaStorageError,
            BrokerError::Cleaner(_) | BrokerError::Setting(_) | BrokerError::Tiering(_) => {
                ErrorCode::UnknownServerError
            }
        }
    }
}
