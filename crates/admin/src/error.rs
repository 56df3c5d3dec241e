//! What an admin call can fail with, and which failures are worth retrying.

use fjord_net::client::CallError;
use fjord_protocol::ErrorCode;

/// Why an admin operation failed.
#[derive(Debug, thiserror::Error)]
pub enum AdminError {
    /// A client setting is invalid (from `--command-config` or a flag).
    #[error("invalid value {value:?} for configuration {key}: {reason}")]
    Config {
        /// The key.
        key: String,
        /// The value.
        value: String,
        /// Why it is invalid.
        reason: String,
    },
    /// The connection could not be made, broke, or the answer did not come in time.
    #[error(transparent)]
    Call(#[from] CallError),
    /// The server answered with a Kafka error.
    #[error("{}: {message}", code.name())]
    Kafka {
        /// The error.
        code: ErrorCode,
        /// The server's message, or the error's default one.
        message: String,
    },
    /// The server does not support the request at any version this client can send.
    #[error("{addr} does not support {api} at versions {min}-{max}")]
    UnsupportedVersion {
        /// The server.
        addr: String,
        /// The API's name.
        api: String,
        /// The lowest version the caller accepts.
        min: i16,
        /// The highest version the caller can send.
        max: i16,
    },
    /// No broker or controller could be reached, or none is known.
    #[error("no node available: {0}")]
    NoNode(String),
    /// The answer was not what the request calls for.
    #[error("unexpected answer: {0}")]
    Protocol(String),
    /// The operation's overall timeout passed; the last failure is attached.
    #[error("timed out after {timeout_ms} ms ({last})")]
    Deadline {
        /// The overall timeout.
        timeout_ms: u64,
        /// The last failure before the deadline.
        last: Box<AdminError>,
    },
}

impl AdminError {
    /// The error for a wire error code and optional message; `None` for code 0.
    pub fn from_code(code: i16, message: Option<&str>) -> Option<AdminError> {
        if code == 0 {
            return None;
        }
        let known = ErrorCode::from_code(code).unwrap_or(ErrorCode::UnknownServerError);
        let message = match message {
            Some(m) if !m.is_empty() => m.to_string(),
            _ if ErrorCode::from_code(code).is_none() => format!("error code {code}"),
            _ => known.message().to_string(),
        };
        Some(AdminError::Kafka {
            code: known,
            message,
        })
    }

    /// `Ok(())` for code 0, else the error with the server's message (or the code's own).
    pub fn check(code: i16, message: Option<&str>) -> Result<(), AdminError> {
        AdminError::from_code(code, message).map_or(Ok(()), Err)
    }

    /// The server's message for a Kafka error (what Kafka's tools print of an exception),
    /// else the whole error.
    pub fn server_message(&self) -> String {
        match self {
            AdminError::Kafka { message, .. } => message.clone(),
            AdminError::Deadline { last, .. } if last.code().is_some() => last.server_message(),
            e => e.to_string(),
        }
    }

    /// The Kafka error code this failure carries, if any.
    pub fn code(&self) -> Option<ErrorCode> {
        match self {
            AdminError::Kafka { code, .. } => Some(*code),
            AdminError::Deadline { last, .. } => last.code(),
            _ => None,
        }
    }

    /// True when trying again (after a backoff, perhaps at another node) may succeed:
    /// connection failures, timeouts and Kafka's retriable errors, including a controller or
    /// coordinator that moved.
    pub fn is_retriable(&self) -> bool {
        match self {
            AdminError::Call(CallError::BadResponse { .. })
            | AdminError::Call(CallError::Authentication { .. }) => false,
            AdminError::Call(_) | AdminError::NoNode(_) => true,
            AdminError::Kafka { code, .. } => {
                code.is_retriable()
                    || matches!(
                        code,
                        ErrorCode::NotController
                            | ErrorCode::BrokerNotAvailable
                            | ErrorCode::ConcurrentTransactions
                    )
            }
            _ => false,
        }
    }
}
