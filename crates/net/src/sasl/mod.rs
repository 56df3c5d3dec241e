//! SASL as sans-IO exchanges: bytes from the client in, bytes to send back (or a verdict)
//! out, so the listener's handling stays thin and the mechanisms are tested with the RFCs'
//! vectors: PLAIN ([`plain`]), SCRAM-SHA-256/512 ([`scram`], both sides), OAUTHBEARER
//! ([`oauthbearer`], with signed tokens checked against a provider's keys by [`jwks`]), GSSAPI
//! ([`gssapi`], RFC 4752 over a Kerberos security context the caller supplies), and a
//! connection's whole authentication on a SASL listener ([`session`]).

pub mod gssapi;
pub mod jaas;
pub mod jwks;
pub mod login;
pub mod oauthbearer;
pub mod plain;
pub mod scram;
pub mod session;

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
