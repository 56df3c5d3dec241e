//! GSSAPI (Kerberos V5) as a SASL mechanism, RFC 4752, both sides, as sans-IO exchanges over
//! a security context the caller supplies ([`GssContext`]; `fjord-kerberos` makes them from
//! the system's GSSAPI library, tests from a model). The security context is established
//! first (the client's tokens in, the acceptor's out); then the server offers its security
//! layers and buffer size in a wrapped 4-byte message, and the client answers with its choice
//! (and an authorization id) wrapped the same way. fjord, as Kafka, offers no security layer
//! (TLS protects a connection), so a client must choose "none".

use std::fmt;

/// The mechanism's name.
pub const GSSAPI: &str = "GSSAPI";
/// RFC 4752's bit for "no security layer", the only layer fjord offers or chooses.
pub const NO_SECURITY_LAYER: u8 = 1;
/// The largest message the server says it takes (RFC 4752's maximum buffer size, as Kafka's
/// GSSAPI server offers it; with no security layer it bounds nothing).
pub const MAX_BUFFER_SIZE: u32 = 65536;

/// Why a GSSAPI step failed (the GSSAPI library's words, or the exchange's).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{message}")]
pub struct GssFailure {
    /// What went wrong.
    pub message: String,
}

impl GssFailure {
    /// A failure saying `message`.
    pub fn new(message: impl Into<String>) -> GssFailure {
        GssFailure {
            message: message.into(),
        }
    }
}

/// One side of a GSSAPI security context.
pub trait GssContext: Send + fmt::Debug {
    /// Feeds the peer's token (empty for an initiator's first step); the token to send back,
    /// empty when there is none.
    fn step(&mut self, token: &[u8]) -> Result<Vec<u8>, GssFailure>;
    /// True once the context is established on this side.
    fn is_complete(&self) -> bool;
    /// `message` wrapped for the peer (integrity, no confidentiality).
    fn wrap(&mut self, message: &[u8]) -> Result<Vec<u8>, GssFailure>;
    /// The peer's wrapped message, checked and unwrapped.
    fn unwrap(&mut self, message: &[u8]) -> Result<Vec<u8>, GssFailure>;
    /// The initiator's principal name (on an established acceptor context).
    fn peer(&mut self) -> Result<String, GssFailure>;
}

/// What a listener that takes GSSAPI needs: a fresh acceptor context per exchange, and the
/// short name a Kerberos principal speaks as (`sasl.kerberos.principal.to.local.rules`).
pub trait GssAcceptor: Send + Sync + fmt::Debug {
    /// A new acceptor context with the listener's credentials.
    fn context(&self) -> Result<Box<dyn GssContext>, GssFailure>;
    /// The short name of an authenticated `principal`.
    fn short_name(&self, principal: &str) -> Result<String, String>;
}

/// What a client that signs in with GSSAPI needs: a fresh initiator context for a server.
pub trait GssInitiator: Send + Sync + fmt::Debug {
    /// A new initiator context for the service on `host` (`sasl.kerberos.service.name`).
    fn context(&self, host: &str) -> Result<Box<dyn GssContext>, GssFailure>;
}

/// A shared Kerberos login, compared by identity (credentials compare equal only when they
/// share it).
#[derive(Debug, Clone)]
pub struct Kerberos(pub std::sync::Arc<dyn GssInitiator>);

impl PartialEq for Kerberos {
    fn eq(&self, other: &Self) -> bool {
        std::sync::Arc::ptr_eq(&self.0, &other.0)
    }
}

impl Eq for Kerberos {}

/// Where the server side stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum ServerStage {
    /// Establishing the context.
    Context,
    /// The context is established and its last token sent: the client's empty answer is next.
    AwaitEmpty,
    /// The layers offered: the client's wrapped choice is next.
    AwaitChoice,
    /// Authenticated; nothing more is taken.
    Done,
}

/// A server step's outcome.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ServerStep {
    /// Send this to the client and wait for its next message.
    Challenge(Vec<u8>),
    /// The client is authenticated as this Kerberos principal (the exchange's last answer is
    /// empty).
    Authenticated(String),
}

/// The server side of one GSSAPI exchange.
#[derive(Debug)]
pub struct GssapiServer {
    context: Box<dyn GssContext>,
    stage: ServerStage,
}

impl GssapiServer {
    /// An exchange over a fresh acceptor context.
    pub fn new(context: Box<dyn GssContext>) -> GssapiServer {
        GssapiServer {
            context,
            stage: ServerStage::Context,
        }
    }

    /// Takes the client's next message.
    pub fn step(&mut self, message: &[u8]) -> Result<ServerStep, GssFailure> {
        match self.stage {
            ServerStage::Context => {
                if message.is_empty() {
                    return Err(GssFailure::new(
                        "an empty GSSAPI token before the security context is established",
                    ));
                }
                let token = self.context.step(message)?;
                if !self.context.is_complete() {
                    return Ok(ServerStep::Challenge(token));
                }
                if token.is_empty() {
                    return self.offer();
                }
                self.stage = ServerStage::AwaitEmpty;
                Ok(ServerStep::Challenge(token))
            }
            ServerStage::AwaitEmpty if message.is_empty() => self.offer(),
            ServerStage::AwaitEmpty => Err(GssFailure::new(
                "a GSSAPI token after the security context was established (an empty message was due)",
            )),
            ServerStage::AwaitChoice => {
                let choice = self.context.unwrap(message)?;
                if choice.len() < 4 {
                    return Err(GssFailure::new(format!(
                        "the client's GSSAPI security layer choice is {} bytes, not at least 4",
                        choice.len()
                    )));
                }
                if choice[0] != NO_SECURITY_LAYER {
                    return Err(GssFailure::new(format!(
                        "Client selected unsupported protection: {}",
                        choice[0]
                    )));
                }
                // The authorization id (bytes 4..) is not used: as Kafka's, the connection
                // speaks for the authenticated principal.
                let peer = self.context.peer()?;
                self.stage = ServerStage::Done;
                Ok(ServerStep::Authenticated(peer))
            }
            ServerStage::Done => Err(GssFailure::new(
                "a GSSAPI message after the exchange ended",
            )),
        }
    }

    /// The wrapped offer: no security layer, and the maximum buffer size.
    fn offer(&mut self) -> Result<ServerStep, GssFailure> {
        let size = MAX_BUFFER_SIZE.to_be_bytes();
        let wrapped = self
            .context
            .wrap(&[NO_SECURITY_LAYER, size[1], size[2], size[3]])?;
        self.stage = ServerStage::AwaitChoice;
        Ok(ServerStep::Challenge(wrapped))
    }
}

/// The client side of one GSSAPI exchange.
#[derive(Debug)]
pub struct GssapiClient {
    context: Box<dyn GssContext>,
    /// True once the choice of layer is sent: the server's next answer ends the exchange.
    chosen: bool,
}

impl GssapiClient {
    /// An exchange over a fresh initiator context.
    pub fn new(context: Box<dyn GssContext>) -> GssapiClient {
        GssapiClient {
            context,
            chosen: false,
        }
    }

    /// The first message (the context's initial token).
    pub fn first(&mut self) -> Result<Vec<u8>, GssFailure> {
        self.context.step(&[])
    }

    /// True once the last message is sent: the server's answer to it ends the exchange.
    pub fn is_done(&self) -> bool {
        self.chosen
    }

    /// The next message, for the server's `challenge`.
    pub fn step(&mut self, challenge: &[u8]) -> Result<Vec<u8>, GssFailure> {
        if self.chosen {
            return Err(GssFailure::new(
                "a GSSAPI challenge after the exchange ended",
            ));
        }
        if !self.context.is_complete() {
            // The context's next token, or (once it is established) an empty message.
            return self.context.step(challenge);
        }
        let offer = self.context.unwrap(challenge)?;
        if offer.len() != 4 {
            return Err(GssFailure::new(format!(
                "the server's GSSAPI security layer offer is {} bytes, not 4",
                offer.len()
            )));
        }
        if offer[0] & NO_SECURITY_LAYER == 0 {
            return Err(GssFailure::new(format!(
                "the server requires a GSSAPI security layer (offered {:#04x}); fjord uses TLS instead",
                offer[0]
            )));
        }
        self.chosen = true;
        self.context.wrap(&[NO_SECURITY_LAYER, 0, 0, 0])
    }
}

/// A deterministic stand-in for a Kerberos context (no KDC, no keys), for the exchange's
/// tests, property tests and fuzzing: the initiator's first token is `AP-REQ`; the acceptor
/// answers `AP-REP` when mutual authentication is modelled, nothing otherwise; wrapping
/// prefixes `W:`, and unwrapping refuses a message without it.
pub mod model {
    use super::{GssContext, GssFailure};

    /// One side of a modelled context.
    #[derive(Debug)]
    pub struct Model {
        initiator: bool,
        mutual: bool,
        steps: u8,
        complete: bool,
        peer: String,
    }

    impl Model {
        /// An acceptor whose initiator is `peer`.
        pub fn acceptor(mutual: bool, peer: &str) -> Box<dyn GssContext> {
            Box::new(Model {
                initiator: false,
                mutual,
                steps: 0,
                complete: false,
                peer: peer.to_string(),
            })
        }

        /// An initiator.
        pub fn initiator(mutual: bool) -> Box<dyn GssContext> {
            Box::new(Model {
                initiator: true,
                mutual,
                steps: 0,
                complete: false,
                peer: "kafka/localhost@FJORD.TEST".into(),
            })
        }
    }

    impl GssContext for Model {
        fn step(&mut self, token: &[u8]) -> Result<Vec<u8>, GssFailure> {
            self.steps = self.steps.saturating_add(1);
            match (self.initiator, self.steps, token) {
                (true, 1, []) => {
                    self.complete = !self.mutual;
                    Ok(b"AP-REQ".to_vec())
                }
                (true, 2, b"AP-REP") if self.mutual => {
                    self.complete = true;
                    Ok(Vec::new())
                }
                (false, 1, b"AP-REQ") => {
                    self.complete = true;
                    Ok(if self.mutual {
                        b"AP-REP".to_vec()
                    } else {
                        Vec::new()
                    })
                }
                _ => Err(GssFailure::new("defective token")),
            }
        }
        fn is_complete(&self) -> bool {
            self.complete
        }
        fn wrap(&mut self, m: &[u8]) -> Result<Vec<u8>, GssFailure> {
            Ok([b"W:".as_slice(), m].concat())
        }
        fn unwrap(&mut self, m: &[u8]) -> Result<Vec<u8>, GssFailure> {
            m.strip_prefix(b"W:".as_slice())
                .map(<[u8]>::to_vec)
                .ok_or_else(|| GssFailure::new("not wrapped"))
        }
        fn peer(&mut self) -> Result<String, GssFailure> {
            Ok(self.peer.clone())
        }
    }
}

#[cfg(test)]
mod tests {
    use super::model::Model;
    use super::*;
    use proptest::prelude::*;

    fn acceptor(mutual: bool) -> Box<dyn GssContext> {
        Model::acceptor(mutual, "alice@FJORD.TEST")
    }

    /// Runs a client against a server until one fails or the server authenticates.
    fn run(mutual: bool) -> Result<String, GssFailure> {
        let mut client = GssapiClient::new(Model::initiator(mutual));
        let mut server = GssapiServer::new(acceptor(mutual));
        let mut message = client.first()?;
        loop {
            match server.step(&message)? {
                ServerStep::Authenticated(p) => return Ok(p),
                ServerStep::Challenge(c) => message = client.step(&c)?,
            }
        }
    }

    #[test]
    fn both_sides_complete_with_and_without_mutual_authentication() {
        assert_eq!(run(true).unwrap(), "alice@FJORD.TEST");
        assert_eq!(run(false).unwrap(), "alice@FJORD.TEST");
    }

    #[test]
    fn messages_out_of_sequence_fail() {
        // The choice of layer before the context exists is a defective token.
        let mut s = GssapiServer::new(acceptor(true));
        assert!(s.step(b"W:\x01\0\0\0").is_err());
        // An empty first message.
        assert!(GssapiServer::new(acceptor(true)).step(b"").is_err());
        // After the AP-REP, anything but an empty message.
        let mut s = GssapiServer::new(acceptor(true));
        assert_eq!(
            s.step(b"AP-REQ").unwrap(),
            ServerStep::Challenge(b"AP-REP".to_vec())
        );
        assert!(s.step(b"AP-REQ").is_err());
        // An unwrapped choice, a short one, and a security layer fjord did not offer.
        for bad in [
            &b"\x01\0\0\0"[..],
            b"W:\x01\0",
            b"W:\x04\0\0\0",
            b"W:\x07\0\0\0",
        ] {
            let mut s = GssapiServer::new(acceptor(false));
            assert!(matches!(
                s.step(b"AP-REQ").unwrap(),
                ServerStep::Challenge(_)
            ));
            assert!(s.step(bad).is_err(), "{bad:?}");
        }
        // Nothing after the end.
        let mut s = GssapiServer::new(acceptor(false));
        s.step(b"AP-REQ").unwrap();
        assert!(matches!(
            s.step(b"W:\x01\0\0\0alice").unwrap(),
            ServerStep::Authenticated(_)
        ));
        assert!(s.step(b"").is_err());
    }

    #[test]
    fn the_offer_is_no_layer_and_kafkas_buffer_size() {
        let mut s = GssapiServer::new(acceptor(false));
        assert_eq!(
            s.step(b"AP-REQ").unwrap(),
            ServerStep::Challenge(b"W:\x01\x01\x00\x00".to_vec())
        );
        let mut c = GssapiClient::new(Model::initiator(false));
        c.first().unwrap();
        assert!(
            c.step(b"W:\x04\x01\x00\x00").is_err(),
            "a server that requires a layer"
        );
    }

    /// The messages a client may send, right or wrong.
    fn message() -> impl Strategy<Value = Vec<u8>> {
        prop_oneof![
            Just(b"AP-REQ".to_vec()),
            Just(b"AP-REP".to_vec()),
            Just(Vec::new()),
            Just(b"W:\x01\x00\x00\x00".to_vec()),
            Just(b"W:\x01\x00\x00\x00alice".to_vec()),
            Just(b"W:\x02\x00\x00\x00".to_vec()),
            Just(b"\x01\x00\x00\x00".to_vec()),
            proptest::collection::vec(any::<u8>(), 0..8),
        ]
    }

    /// The oracle, written from RFC 4752 rather than from the server: a client is
    /// authenticated exactly when its messages so far are the context token, (with mutual
    /// authentication) an empty message, then a wrapped choice of no security layer of at
    /// least 4 bytes.
    fn rfc_authenticates(mutual: bool, sent: &[Vec<u8>]) -> bool {
        let choice_ok = |m: &[u8]| m.len() >= 6 && m.starts_with(b"W:") && m[2] == 1;
        match (mutual, sent) {
            (true, [a, b, c]) => a == b"AP-REQ" && b.is_empty() && choice_ok(c),
            (false, [a, c]) => a == b"AP-REQ" && choice_ok(c),
            _ => false,
        }
    }

    proptest! {
        /// Whatever the order of messages, the server authenticates exactly when the RFC
        /// says, never after a failure, and never twice.
        #[test]
        fn out_of_sequence_messages_never_authenticate(
            mutual: bool,
            right in 0usize..4,
            rest in proptest::collection::vec(message(), 1..6),
        ) {
            // The first `right` messages of a correct exchange, then anything.
            let correct: Vec<Vec<u8>> = if mutual {
                vec![b"AP-REQ".to_vec(), Vec::new(), b"W:\x01\x00\x01\x00".to_vec()]
            } else {
                vec![b"AP-REQ".to_vec(), b"W:\x01\x00\x01\x00".to_vec()]
            };
            let mut messages: Vec<Vec<u8>> = correct.into_iter().take(right).collect();
            messages.extend(rest);
            let mut server = GssapiServer::new(acceptor(mutual));
            let mut sent = Vec::new();
            for m in messages {
                sent.push(m.clone());
                match server.step(&m) {
                    Ok(ServerStep::Authenticated(p)) => {
                        prop_assert!(rfc_authenticates(mutual, &sent), "{sent:?}");
                        prop_assert_eq!(p, "alice@FJORD.TEST");
                        prop_assert!(server.step(b"").is_err());
                        break;
                    }
                    Ok(ServerStep::Challenge(_)) => {
                        prop_assert!(!rfc_authenticates(mutual, &sent), "{sent:?}");
                    }
                    // A failed exchange ends the connection's attempt.
                    Err(_) => {
                        prop_assert!(!rfc_authenticates(mutual, &sent), "{sent:?}");
                        break;
                    }
                }
            }
        }
    }
}
