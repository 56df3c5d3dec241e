//! A listener's and a client's security: the four Kafka security protocols, what a listener
//! needs for its protocol (TLS, SASL, the failed-authentication delay, the pre-authentication
//! frame bound) and what a client brings (a TLS configuration, SASL credentials).

use crate::sasl::session::SaslServerConfig;
use crate::tls::ServerTls;
use std::sync::Arc;
use std::time::Duration;

/// Kafka's security protocols.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum SecurityProtocol {
    /// No TLS, no SASL.
    Plaintext,
    /// TLS.
    Ssl,
    /// SASL without TLS.
    SaslPlaintext,
    /// SASL over TLS.
    SaslSsl,
}

impl SecurityProtocol {
    /// Parses Kafka's name (case-insensitive).
    pub fn parse(name: &str) -> Option<SecurityProtocol> {
        match name.to_ascii_uppercase().as_str() {
            "PLAINTEXT" => Some(SecurityProtocol::Plaintext),
            "SSL" => Some(SecurityProtocol::Ssl),
            "SASL_PLAINTEXT" => Some(SecurityProtocol::SaslPlaintext),
            "SASL_SSL" => Some(SecurityProtocol::SaslSsl),
            _ => None,
        }
    }

    /// Kafka's name.
    pub fn name(self) -> &'static str {
        match self {
            SecurityProtocol::Plaintext => "PLAINTEXT",
            SecurityProtocol::Ssl => "SSL",
            SecurityProtocol::SaslPlaintext => "SASL_PLAINTEXT",
            SecurityProtocol::SaslSsl => "SASL_SSL",
        }
    }

    /// True for SSL and SASL_SSL.
    pub fn uses_tls(self) -> bool {
        matches!(self, SecurityProtocol::Ssl | SecurityProtocol::SaslSsl)
    }

    /// True for SASL_PLAINTEXT and SASL_SSL.
    pub fn uses_sasl(self) -> bool {
        matches!(
            self,
            SecurityProtocol::SaslPlaintext | SecurityProtocol::SaslSsl
        )
    }
}

/// Kafka's default `connection.failed.authentication.delay.ms`.
pub const DEFAULT_FAILED_AUTHENTICATION_DELAY: Duration = Duration::from_millis(100);
/// Kafka's default `sasl.server.max.receive.size`: the largest frame before authentication.
pub const DEFAULT_SASL_MAX_RECEIVE: usize = 524_288;

/// What a listener needs for its security protocol.
#[derive(Debug, Clone)]
pub struct ListenerSecurity {
    /// The listener's name.
    pub name: Arc<str>,
    /// Its security protocol.
    pub protocol: SecurityProtocol,
    /// TLS, for SSL and SASL_SSL.
    pub tls: Option<Arc<ServerTls>>,
    /// SASL, for SASL_PLAINTEXT and SASL_SSL.
    pub sasl: Option<Arc<SaslServerConfig>>,
    /// `connection.failed.authentication.delay.ms`: a failed authentication is answered (and
    /// its connection closed) this much later.
    pub failed_auth_delay: Duration,
    /// `sasl.server.max.receive.size`: frames before authentication are at most this large.
    pub sasl_max_receive: usize,
}

impl ListenerSecurity {
    /// A PLAINTEXT listener named `name`.
    pub fn plaintext(name: &str) -> ListenerSecurity {
        ListenerSecurity {
            name: name.into(),
            protocol: SecurityProtocol::Plaintext,
            tls: None,
            sasl: None,
            failed_auth_delay: DEFAULT_FAILED_AUTHENTICATION_DELAY,
            sasl_max_receive: DEFAULT_SASL_MAX_RECEIVE,
        }
    }
}

/// A client's SASL credentials.
#[derive(Clone, PartialEq, Eq)]
pub struct SaslCredentials {
    /// PLAIN, SCRAM-SHA-256, SCRAM-SHA-512, OAUTHBEARER or GSSAPI.
    pub mechanism: String,
    /// The user name.
    pub username: String,
    /// The password.
    pub password: String,
    /// True for a delegation token (SCRAM with `tokenauth=true`): the user name is the
    /// token's id and the password its HMAC in base64.
    pub token: bool,
    /// For OAUTHBEARER, where the bearer token comes from.
    pub bearer: Option<crate::sasl::login::Bearer>,
    /// For GSSAPI, the Kerberos login that makes initiator contexts.
    pub gssapi: Option<crate::sasl::gssapi::Kerberos>,
}

impl SaslCredentials {
    /// GSSAPI credentials: the Kerberos login that makes initiator contexts.
    pub fn kerberos(
        login: std::sync::Arc<dyn crate::sasl::gssapi::GssInitiator>,
    ) -> SaslCredentials {
        SaslCredentials {
            mechanism: crate::sasl::gssapi::GSSAPI.into(),
            username: String::new(),
            password: String::new(),
            token: false,
            bearer: None,
            gssapi: Some(crate::sasl::gssapi::Kerberos(login)),
        }
    }
}

impl std::fmt::Debug for SaslCredentials {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SaslCredentials")
            .field("mechanism", &self.mechanism)
            .field("username", &self.username)
            .field("password", &"[hidden]")
            .finish()
    }
}

/// What a client connection brings for the server's security protocol.
#[derive(Debug, Clone, Default)]
pub struct ClientSecurity {
    /// TLS, for SSL and SASL_SSL.
    pub tls: Option<Arc<rustls::ClientConfig>>,
    /// SASL credentials, for SASL_PLAINTEXT and SASL_SSL.
    pub sasl: Option<SaslCredentials>,
}

impl ClientSecurity {
    /// No TLS, no SASL (PLAINTEXT).
    pub fn plaintext() -> ClientSecurity {
        ClientSecurity::default()
    }
}
