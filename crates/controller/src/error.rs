//! The controller's errors: Kafka's code and a message for the operator.

use fjord_protocol::ErrorCode;

/// A refused request or partition, with Kafka's error code.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{code:?}: {message}")]
pub struct ControllerError {
    /// The code.
    pub code: ErrorCode,
    /// What went wrong.
    pub message: String,
}

impl ControllerError {
    /// An error with `code` and `message`.
    pub fn new(code: ErrorCode, message: impl Into<String>) -> ControllerError {
        ControllerError {
            code,
            message: message.into(),
        }
    }
}
