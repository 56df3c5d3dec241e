//! SASL mechanisms as sans-IO exchanges: bytes from the client in, bytes to send back (or a
//! verdict) out, so the listener's SaslAuthenticate handling stays thin and the mechanisms are
//! tested with the RFCs' vectors. Only SCRAM exists yet (issue 13 brings PLAIN, the
//! handshake on the listeners, and the credentials in the metadata log).

pub mod scram;

/// Why an authentication failed. Messages never carry a password or proof.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SaslError {
    /// The client's message does not follow the mechanism's grammar.
    #[error("invalid SASL message: {0}")]
    Malformed(String),
    /// Unknown user or wrong password (indistinguishable to the client, as in Kafka).
    #[error("Authentication failed during authentication due to invalid credentials with SASL mechanism {0}")]
    InvalidCredentials(&'static str),
    /// A message after the exchange ended, or out of turn.
    #[error("unexpected SASL message in state {0}")]
    OutOfTurn(&'static str),
}
