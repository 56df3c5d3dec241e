//! Who a connection speaks for: Kafka's `KafkaPrincipal` (`User:alice`), set by the listener's
//! security protocol (`User:ANONYMOUS` on PLAINTEXT, the certificate's distinguished name on
//! mutual TLS, the SASL user name), and what a request carries to its handler ([`Caller`]).
//! Forwarded requests carry it in an Envelope as Kafka's `DefaultPrincipalData`.

use bytes::{Buf, BufMut, Bytes, BytesMut};
use fjord_protocol::generated::default_principal_data::DefaultPrincipalData;
use std::net::SocketAddr;
use std::sync::Arc;

/// Kafka's principal type for users.
pub const USER_TYPE: &str = "User";
/// The principal of an unauthenticated connection.
pub const ANONYMOUS: &str = "ANONYMOUS";
/// The version of `DefaultPrincipalData` fjord writes (Kafka's current).
const PRINCIPAL_DATA_VERSION: i16 = 0;

/// A principal: type and name (`User:alice`).
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Principal {
    /// The type (`User`).
    pub kind: String,
    /// The name.
    pub name: String,
    /// True when it authenticated with a delegation token (SCRAM `tokenauth=true`): such a
    /// principal may not create, renew, expire or describe tokens.
    pub token_authenticated: bool,
}

impl Principal {
    /// `User:<name>`.
    pub fn user(name: &str) -> Principal {
        Principal {
            kind: USER_TYPE.into(),
            name: name.into(),
            token_authenticated: false,
        }
    }

    /// `User:ANONYMOUS`.
    pub fn anonymous() -> Principal {
        Principal::user(ANONYMOUS)
    }

    /// Parses `Type:name` (the form of `super.users` and ACL principals).
    pub fn parse(text: &str) -> Option<Principal> {
        let (kind, name) = text.split_once(':')?;
        (!kind.is_empty()).then(|| Principal {
            kind: kind.into(),
            name: name.into(),
            token_authenticated: false,
        })
    }

    /// Kafka's serialized form for an Envelope: a version, then `DefaultPrincipalData`.
    pub fn serialize(&self) -> Bytes {
        let data = DefaultPrincipalData {
            r#type: self.kind.clone(),
            name: self.name.clone(),
            token_authenticated: self.token_authenticated,
            ..Default::default()
        };
        let mut out = BytesMut::new();
        out.put_i16(PRINCIPAL_DATA_VERSION);
        // Encoding a plain struct into a growable buffer cannot fail.
        let _ = data.encode(&mut out, PRINCIPAL_DATA_VERSION);
        out.freeze()
    }

    /// Reads [`Principal::serialize`]'s form; `None` when it is not one.
    pub fn deserialize(mut bytes: Bytes) -> Option<Principal> {
        if bytes.remaining() < 2 {
            return None;
        }
        let version = bytes.get_i16();
        if version != PRINCIPAL_DATA_VERSION {
            return None;
        }
        let data = DefaultPrincipalData::decode(&mut bytes, version).ok()?;
        Some(Principal {
            kind: data.r#type,
            name: data.name,
            token_authenticated: data.token_authenticated,
        })
    }
}

impl std::fmt::Display for Principal {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}:{}", self.kind, self.name)
    }
}

/// Who sent a request: the client's address, the authenticated principal, and the listener
/// it arrived on.
#[derive(Debug, Clone)]
pub struct Caller {
    /// The client's address.
    pub peer: SocketAddr,
    /// The principal the connection authenticated as.
    pub principal: Arc<Principal>,
    /// The listener's name (`PLAINTEXT`, `CLIENT`, ...).
    pub listener: Arc<str>,
    /// The connection's number, unique within the process (0: not a served connection).
    pub connection: u64,
    /// The listener's security protocol (for a forwarded request, the forwarding
    /// connection's).
    pub protocol: crate::security::SecurityProtocol,
    /// The client software the connection named in its ApiVersions (v3+), if it did.
    pub software: Option<Arc<ClientSoftware>>,
}

/// A client's software name and version (KIP-511), as its ApiVersions request gave them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ClientSoftware {
    /// `client_software_name` (`apache-kafka-java`, `librdkafka`, ...).
    pub name: String,
    /// `client_software_version`.
    pub version: String,
}

impl Caller {
    /// An anonymous caller from `peer` on `listener` (a PLAINTEXT connection).
    pub fn anonymous(peer: SocketAddr, listener: &str) -> Caller {
        Caller {
            peer,
            principal: Arc::new(Principal::anonymous()),
            listener: listener.into(),
            connection: 0,
            protocol: crate::security::SecurityProtocol::Plaintext,
            software: None,
        }
    }

    /// True when it came inside an Envelope (not on a connection of its own).
    pub fn forwarded(&self) -> bool {
        self.connection == 0
    }

    /// Whether it may ask for, renew, expire or describe delegation tokens, as Kafka's
    /// `allowTokenRequests`: not when it authenticated with a token, and, on a connection of
    /// its own, not over PLAINTEXT or anonymously over one-way TLS.
    pub fn allows_token_requests(&self) -> bool {
        use crate::security::SecurityProtocol as P;
        if self.principal.token_authenticated {
            return false;
        }
        if self.forwarded() {
            return true;
        }
        match self.protocol {
            P::Plaintext => false,
            P::Ssl => *self.principal != Principal::anonymous(),
            P::SaslPlaintext | P::SaslSsl => true,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn principals_parse_print_and_survive_an_envelope() {
        let p = Principal::parse("User:CN=alice,O=fjord").unwrap();
        assert_eq!(p.name, "CN=alice,O=fjord");
        assert_eq!(p.to_string(), "User:CN=alice,O=fjord");
        assert_eq!(Principal::deserialize(p.serialize()), Some(p));
        assert_eq!(Principal::parse("nocolon"), None);
        assert_eq!(Principal::parse(":x"), None);
        assert_eq!(Principal::deserialize(Bytes::from_static(&[0, 7, 1])), None);
        assert_eq!(Principal::deserialize(Bytes::from_static(&[0])), None);
    }
}
