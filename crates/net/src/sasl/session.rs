//! One connection's SASL authentication on a SASL listener (KIP-152 framing: SaslHandshake v1,
//! then SaslAuthenticate carrying the mechanism's messages), as a sans-IO state machine the
//! listener consults for every request: ApiVersions may come first; anything else before
//! authentication closes the connection, as Kafka does. With `connections.max.reauth.ms`
//! (KIP-368) the session has a lifetime: the client re-authenticates in band, with the same
//! mechanism and as the same principal, before it ends; a request after it ends closes the
//! connection.

use super::gssapi::{GssAcceptor, GssapiServer, ServerStep, GSSAPI};
use super::oauthbearer::{self, TokenValidator, OAUTHBEARER};
use super::scram::{Credential, Mechanism, ScramServer, Step};
use super::{plain, SaslError};
use crate::principal::Principal;
use fjord_protocol::generated::{
    sasl_authenticate_response::SaslAuthenticateResponse,
    sasl_handshake_response::SaslHandshakeResponse,
};
use fjord_protocol::{ApiKey, ErrorCode, RequestBody, ResponseBody};
use std::collections::BTreeMap;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// Where a listener finds users' SCRAM credentials (the metadata image, on a node).
pub trait CredentialStore: Send + Sync + std::fmt::Debug {
    /// `user`'s credential for `mechanism`, if it has one.
    fn credential(&self, user: &str, mechanism: Mechanism) -> Option<Credential>;
    /// Delegation token `token_id`'s credential for `mechanism`, if it exists, has not
    /// expired and tokens are enabled.
    fn token(&self, _token_id: &str, _mechanism: Mechanism) -> Option<TokenCredential> {
        None
    }
}

/// What authenticating with a delegation token needs.
#[derive(Debug, Clone)]
pub struct TokenCredential {
    /// The SCRAM credential its HMAC (in base64, the password) derives.
    pub credential: Credential,
    /// Its owner, whom the connection then speaks for.
    pub owner: Principal,
    /// How long it stays valid from now (the session ends then).
    pub remaining: Duration,
}

/// A SASL listener's settings.
#[derive(Debug, Clone)]
pub struct SaslServerConfig {
    /// `sasl.enabled.mechanisms`: PLAIN, SCRAM-SHA-256, SCRAM-SHA-512, OAUTHBEARER, GSSAPI.
    pub mechanisms: Vec<String>,
    /// PLAIN's users and passwords (`user_<name>="..."` in the listener's JAAS config).
    pub plain_users: BTreeMap<String, String>,
    /// SCRAM credentials.
    pub scram: Arc<dyn CredentialStore>,
    /// `connections.max.reauth.ms` (`None`: sessions do not expire).
    pub reauth: Option<Duration>,
    /// What validates OAUTHBEARER tokens, when the listener enables it.
    pub oauthbearer: Option<Arc<dyn TokenValidator>>,
    /// What accepts GSSAPI (Kerberos) logins, when the listener enables it.
    pub gssapi: Option<Arc<dyn GssAcceptor>>,
}

/// What the listener does with a request.
#[derive(Debug)]
pub enum Decision {
    /// Hand it to the handler, on behalf of this principal.
    Pass(Arc<Principal>),
    /// Answer with this (a step of the exchange).
    Respond(ResponseBody),
    /// Authentication failed: answer with this after `connection.failed.authentication.delay.ms`,
    /// then close.
    Fail(ResponseBody),
    /// Close the connection at once (a request out of turn); the reason is logged.
    Close(String),
}

/// The mechanism being used.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Mech {
    Plain,
    Scram(Mechanism),
    OAuthBearer,
    Gssapi,
}

impl Mech {
    fn parse(name: &str) -> Option<Mech> {
        match name {
            plain::PLAIN => Some(Mech::Plain),
            OAUTHBEARER => Some(Mech::OAuthBearer),
            GSSAPI => Some(Mech::Gssapi),
            _ => Mechanism::from_name(name).map(Mech::Scram),
        }
    }
}

/// Where the exchange stands.
#[derive(Debug)]
enum Exchange {
    /// No exchange under way (before the handshake, or after a success).
    Idle,
    /// Handshake done; the first SaslAuthenticate is next.
    Handshaken(Mech),
    /// SCRAM's challenge sent; client-final is next (with the token it named, if any).
    Scram(Box<ScramServer>, Mechanism, Option<Box<TokenCredential>>),
    /// OAUTHBEARER's error sent (RFC 7628): the client's `%x01` is next, then the failure.
    OAuthRefused(String),
    /// A GSSAPI exchange under way.
    Gssapi(Box<GssapiServer>),
}

/// One connection's authentication.
#[derive(Debug)]
pub struct SaslSession {
    config: Arc<SaslServerConfig>,
    exchange: Exchange,
    /// Who authenticated, with which mechanism, and until when.
    authenticated: Option<(Arc<Principal>, Mech, Option<Instant>)>,
}

impl SaslSession {
    /// A connection that has not authenticated.
    pub fn new(config: Arc<SaslServerConfig>) -> SaslSession {
        SaslSession {
            config,
            exchange: Exchange::Idle,
            authenticated: None,
        }
    }

    /// True once the connection has authenticated (the first time).
    pub fn is_authenticated(&self) -> bool {
        self.authenticated.is_some()
    }

    /// Decides what to do with a request of `api` at `version`; `body` decodes it (only the
    /// SASL requests are decoded here).
    pub fn on_request(
        &mut self,
        api: ApiKey,
        version: i16,
        body: impl FnOnce() -> Option<RequestBody>,
        now: Instant,
    ) -> Decision {
        match api {
            ApiKey::SaslHandshake => match body() {
                Some(RequestBody::SaslHandshake(r)) => self.handshake(&r.mechanism, version),
                _ => Decision::Close("an undecodable SaslHandshake".into()),
            },
            ApiKey::SaslAuthenticate => match body() {
                Some(RequestBody::SaslAuthenticate(r)) => {
                    self.authenticate(&r.auth_bytes, version, now)
                }
                _ => Decision::Close("an undecodable SaslAuthenticate".into()),
            },
            ApiKey::ApiVersions if matches!(self.exchange, Exchange::Idle) => {
                Decision::Pass(self.principal())
            }
            _ => match (&self.exchange, &self.authenticated) {
                (Exchange::Idle, Some((p, _, expiry))) => match expiry {
                    Some(at) if now >= *at => Decision::Close(format!(
                        "{api:?} after the session of {p} expired (connections.max.reauth.ms)"
                    )),
                    _ => Decision::Pass(p.clone()),
                },
                (_, None) => Decision::Close(format!(
                    "unexpected Kafka request of type {api:?} during SASL handshake"
                )),
                (_, Some(_)) => Decision::Close(format!(
                    "unexpected Kafka request of type {api:?} during SASL re-authentication"
                )),
            },
        }
    }

    /// The principal requests pass as (anonymous until authenticated).
    fn principal(&self) -> Arc<Principal> {
        self.authenticated
            .as_ref()
            .map(|(p, _, _)| p.clone())
            .unwrap_or_else(|| Arc::new(Principal::anonymous()))
    }

    fn handshake(&mut self, mechanism: &str, version: i16) -> Decision {
        if !matches!(self.exchange, Exchange::Idle) {
            return Decision::Close("a SaslHandshake during an exchange".into());
        }
        let enabled = self.config.mechanisms.clone();
        let reply = |code: ErrorCode| {
            ResponseBody::SaslHandshake(SaslHandshakeResponse {
                error_code: code.code(),
                mechanisms: enabled.clone(),
            })
        };
        if self.authenticated.is_some() && (version < 1 || self.config.reauth.is_none()) {
            return Decision::Fail(reply(ErrorCode::IllegalSaslState));
        }
        let Some(mech) = Mech::parse(mechanism).filter(|_| enabled.iter().any(|m| m == mechanism))
        else {
            return Decision::Fail(reply(ErrorCode::UnsupportedSaslMechanism));
        };
        if let Some((_, used, _)) = &self.authenticated {
            if *used != mech {
                // KIP-368: re-authentication keeps the mechanism.
                return Decision::Fail(reply(ErrorCode::UnsupportedSaslMechanism));
            }
        }
        self.exchange = Exchange::Handshaken(mech);
        Decision::Respond(reply(ErrorCode::None))
    }

    fn authenticate(&mut self, message: &[u8], version: i16, now: Instant) -> Decision {
        let step = match std::mem::replace(&mut self.exchange, Exchange::Idle) {
            Exchange::Idle => {
                return Decision::Fail(auth_reply(
                    ErrorCode::IllegalSaslState,
                    "SaslAuthenticate without a SaslHandshake first",
                    Vec::new(),
                    0,
                ))
            }
            Exchange::Handshaken(Mech::Plain) => {
                plain::authenticate(message, &self.config.plain_users).map(|user| Done {
                    principal: Principal::user(&user),
                    response: Vec::new(),
                    mech: Mech::Plain,
                    remaining: None,
                })
            }
            Exchange::Handshaken(Mech::Scram(m)) => match self.scram_first(m, message) {
                Ok(challenge) => return challenge,
                Err(e) => Err(e),
            },
            Exchange::Scram(mut server, m, token) => match server.step(message, |_, _| None, "") {
                // A token authenticates as its owner, marked as token-authenticated.
                Ok(Step::Authenticated { user, response }) => Ok(Done {
                    principal: match &token {
                        Some(t) => Principal {
                            token_authenticated: true,
                            ..t.owner.clone()
                        },
                        None => Principal::user(&user),
                    },
                    response,
                    mech: Mech::Scram(m),
                    remaining: token.map(|t| t.remaining),
                }),
                Ok(Step::Challenge(_)) => Err(SaslError::OutOfTurn("client-final")),
                Err(e) => Err(e),
            },
            // RFC 7628: after the server's error the client sends %x01 and fails.
            Exchange::OAuthRefused(error) if message == [1] => {
                return Decision::Fail(auth_reply(
                    ErrorCode::SaslAuthenticationFailed,
                    &error,
                    Vec::new(),
                    0,
                ))
            }
            Exchange::Handshaken(Mech::Gssapi) => match self.gssapi_start() {
                Ok(server) => return self.gssapi(server, message, version, now),
                Err(refusal) => return *refusal,
            },
            Exchange::Gssapi(server) => return self.gssapi(server, message, version, now),
            Exchange::Handshaken(Mech::OAuthBearer) | Exchange::OAuthRefused(_) => {
                match self.oauth(message) {
                    Ok(done) => Ok(done),
                    Err(refusal) => return *refusal,
                }
            }
        };
        match step {
            Ok(done) => self.finish(done, version, now),
            Err(e) => Decision::Fail(auth_reply(
                ErrorCode::SaslAuthenticationFailed,
                &failure_message(&e),
                Vec::new(),
                0,
            )),
        }
    }

    /// SCRAM's client-first message: the challenge (a [`Decision::Respond`]).
    fn scram_first(&mut self, m: Mechanism, message: &[u8]) -> Result<Decision, SaslError> {
        let mut server = Box::new(ScramServer::new(m));
        let nonce = uuid::Uuid::new_v4().simple().to_string();
        let store = self.config.scram.clone();
        let mut token = None;
        let lookup = |u: &str, is_token: bool| {
            if is_token {
                let t = store.token(u, m)?;
                let c = t.credential.clone();
                token = Some(Box::new(t));
                Some(c)
            } else {
                store.credential(u, m)
            }
        };
        match server.step(message, lookup, &nonce)? {
            Step::Challenge(challenge) => {
                self.exchange = Exchange::Scram(server, m, token);
                Ok(Decision::Respond(auth_reply(
                    ErrorCode::None,
                    "",
                    challenge,
                    0,
                )))
            }
            Step::Authenticated { .. } => Err(SaslError::OutOfTurn("client-first")),
        }
    }

    /// OAUTHBEARER's initial response: the token validated, or the answer to give (RFC
    /// 7628's error for a refused token, a failure for a malformed message).
    fn oauth(&mut self, message: &[u8]) -> Result<Done, Box<Decision>> {
        let fail = |message: &str| {
            Decision::Fail(auth_reply(
                ErrorCode::SaslAuthenticationFailed,
                message,
                Vec::new(),
                0,
            ))
        };
        let Some(validator) = self.config.oauthbearer.clone() else {
            return Err(Box::new(fail(
                "OAUTHBEARER is not configured on this listener",
            )));
        };
        let initial = oauthbearer::parse_initial(message).map_err(|e| {
            tracing::info!("OAUTHBEARER: {e}");
            Box::new(fail("Authentication failed during authentication due to invalid credentials with SASL mechanism OAUTHBEARER"))
        })?;
        let now_ms = fjord_util::system_now_ms();
        match validator.validate(&initial.token, now_ms) {
            Err(invalid) => {
                tracing::info!("OAUTHBEARER token refused: {}", invalid.reason);
                let error = invalid.json();
                self.exchange = Exchange::OAuthRefused(error.clone());
                Err(Box::new(Decision::Respond(auth_reply(
                    ErrorCode::None,
                    "",
                    error.into_bytes(),
                    0,
                ))))
            }
            Ok(token) if !initial.authzid.is_empty() && initial.authzid != token.principal => {
                Err(Box::new(fail(&format!(
                    "Authentication failed: Client requested an authorization id ({}) that is different from the token's principal name ({})",
                    initial.authzid, token.principal
                ))))
            }
            Ok(token) => Ok(Done {
                principal: Principal::user(&token.principal),
                response: Vec::new(),
                mech: Mech::OAuthBearer,
                remaining: Some(Duration::from_millis(
                    u64::try_from(token.expiry_ms - now_ms).unwrap_or(0),
                )),
            }),
        }
    }

    /// A new GSSAPI exchange with the listener's acceptor.
    fn gssapi_start(&self) -> Result<Box<GssapiServer>, Box<Decision>> {
        let context = self
            .config
            .gssapi
            .as_ref()
            .ok_or_else(|| "GSSAPI is not configured on this listener".to_string())
            .and_then(|a| a.context().map_err(|e| e.message));
        match context {
            Ok(context) => Ok(Box::new(GssapiServer::new(context))),
            Err(reason) => {
                tracing::warn!("GSSAPI: no acceptor context for a login: {reason}");
                Err(Box::new(gssapi_failed()))
            }
        }
    }

    /// A GSSAPI message: the next challenge, or the session (as the principal's short name),
    /// or the failure (a replayed authenticator too, as Kafka's).
    fn gssapi(
        &mut self,
        mut server: Box<GssapiServer>,
        message: &[u8],
        version: i16,
        now: Instant,
    ) -> Decision {
        let peer = match server.step(message) {
            Ok(ServerStep::Challenge(challenge)) => {
                self.exchange = Exchange::Gssapi(server);
                return Decision::Respond(auth_reply(ErrorCode::None, "", challenge, 0));
            }
            Ok(ServerStep::Authenticated(peer)) => peer,
            Err(e) => {
                tracing::info!("GSSAPI authentication failed: {e}");
                return gssapi_failed();
            }
        };
        let short = self
            .config
            .gssapi
            .as_ref()
            .map(|a| a.short_name(&peer))
            .unwrap_or_else(|| Err("GSSAPI is not configured".into()));
        match short {
            Ok(short) => self.finish(
                Done {
                    principal: Principal::user(&short),
                    response: Vec::new(),
                    mech: Mech::Gssapi,
                    remaining: None,
                },
                version,
                now,
            ),
            Err(reason) => {
                tracing::info!("GSSAPI: {peer} has no short name: {reason}");
                Decision::Fail(auth_reply(
                    ErrorCode::SaslAuthenticationFailed,
                    &format!(
                        "Failed to set name for '{peer}' based on Kerberos authentication rules."
                    ),
                    Vec::new(),
                    0,
                ))
            }
        }
    }

    /// A completed exchange: the session starts (or goes on, on re-authentication as the same
    /// principal), with its lifetime.
    fn finish(&mut self, done: Done, version: i16, now: Instant) -> Decision {
        let principal = Arc::new(done.principal);
        if let Some((before, _, _)) = &self.authenticated {
            if **before != *principal {
                return Decision::Fail(auth_reply(
                    ErrorCode::SaslAuthenticationFailed,
                    &format!("Cannot change principals during re-authentication from {before}: {principal}"),
                    Vec::new(),
                    0,
                ));
            }
        }
        // Version 0 cannot tell the client a lifetime, so its session does not expire. A
        // credential with a lifetime (a delegation token, a bearer token) ends the session
        // when it expires at the latest, as Kafka's.
        let lifetime = match done.remaining {
            Some(left) => Some(self.config.reauth.map_or(left, |r| r.min(left))),
            None => self.config.reauth,
        }
        .filter(|_| version >= 1);
        self.authenticated = Some((principal, done.mech, lifetime.map(|d| now + d)));
        let lifetime_ms = lifetime.map_or(0, |d| i64::try_from(d.as_millis()).unwrap_or(i64::MAX));
        Decision::Respond(auth_reply(ErrorCode::None, "", done.response, lifetime_ms))
    }
}

/// A completed exchange.
struct Done {
    principal: Principal,
    /// The last message to the client.
    response: Vec<u8>,
    mech: Mech,
    /// How long its credential stays valid, if it expires.
    remaining: Option<Duration>,
}

/// A failed GSSAPI login's answer, in Kafka's words.
fn gssapi_failed() -> Decision {
    Decision::Fail(auth_reply(
        ErrorCode::SaslAuthenticationFailed,
        &SaslError::InvalidCredentials(GSSAPI).to_string(),
        Vec::new(),
        0,
    ))
}

/// What a failed client is told: Kafka's wording, never a password.
fn failure_message(e: &SaslError) -> String {
    match e {
        SaslError::InvalidCredentials(m) if *m == plain::PLAIN => {
            "Authentication failed: Invalid username or password".into()
        }
        other => other.to_string(),
    }
}

fn auth_reply(code: ErrorCode, message: &str, bytes: Vec<u8>, lifetime_ms: i64) -> ResponseBody {
    ResponseBody::SaslAuthenticate(SaslAuthenticateResponse {
        error_code: code.code(),
        error_message: (!message.is_empty()).then(|| message.to_string()),
        auth_bytes: bytes.into(),
        session_lifetime_ms: lifetime_ms,
        ..Default::default()
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sasl::scram::ScramClient;
    use fjord_protocol::generated::{
        sasl_authenticate_request::SaslAuthenticateRequest,
        sasl_handshake_request::SaslHandshakeRequest,
    };

    #[derive(Debug)]
    struct Store(Credential);
    impl CredentialStore for Store {
        fn credential(&self, user: &str, m: Mechanism) -> Option<Credential> {
            (user == "carol" && m == Mechanism::Sha512).then(|| self.0.clone())
        }
    }

    fn session(reauth: Option<Duration>) -> SaslSession {
        SaslSession::new(Arc::new(SaslServerConfig {
            oauthbearer: Some(Arc::new(
                oauthbearer::UnsecuredValidator::from_options(&Default::default()).unwrap(),
            )),
            mechanisms: vec!["PLAIN".into(), "SCRAM-SHA-512".into(), "OAUTHBEARER".into()],
            plain_users: [("alice".to_string(), "alice-pw".to_string())].into(),
            scram: Arc::new(Store(Credential::derive(
                Mechanism::Sha512,
                "carol-pw",
                b"salt-of-carol",
                4096,
            ))),
            reauth,
            gssapi: None,
        }))
    }

    fn handshake(s: &mut SaslSession, m: &str, now: Instant) -> Decision {
        let body = RequestBody::SaslHandshake(SaslHandshakeRequest {
            mechanism: m.into(),
        });
        s.on_request(ApiKey::SaslHandshake, 1, || Some(body), now)
    }

    fn auth(s: &mut SaslSession, bytes: Vec<u8>, now: Instant) -> Decision {
        let body = RequestBody::SaslAuthenticate(SaslAuthenticateRequest {
            auth_bytes: bytes.into(),
            ..Default::default()
        });
        s.on_request(ApiKey::SaslAuthenticate, 2, || Some(body), now)
    }

    fn code(d: &Decision) -> i16 {
        match d {
            Decision::Respond(ResponseBody::SaslAuthenticate(r))
            | Decision::Fail(ResponseBody::SaslAuthenticate(r)) => r.error_code,
            Decision::Respond(ResponseBody::SaslHandshake(r))
            | Decision::Fail(ResponseBody::SaslHandshake(r)) => r.error_code,
            other => panic!("not an answer: {other:?}"),
        }
    }

    fn passes(s: &mut SaslSession, api: ApiKey, now: Instant) -> Option<String> {
        match s.on_request(api, 12, || None, now) {
            Decision::Pass(p) => Some(p.to_string()),
            _ => None,
        }
    }

    fn auth_bytes(d: &Decision) -> Vec<u8> {
        match d {
            Decision::Respond(ResponseBody::SaslAuthenticate(r)) => r.auth_bytes.to_vec(),
            other => panic!("not a step: {other:?}"),
        }
    }

    #[test]
    fn oauthbearer_signs_in_until_the_token_expires_and_refuses_as_rfc_7628_says() {
        let now = Instant::now();
        let wall = fjord_util::system_now_ms();
        let mut s = session(None);
        assert_eq!(code(&handshake(&mut s, "OAUTHBEARER", now)), 0);
        let token = oauthbearer::unsecured_token("dave", wall, 60);
        let ok = auth(&mut s, oauthbearer::initial_response(&token), now);
        let Decision::Respond(ResponseBody::SaslAuthenticate(r)) = &ok else {
            panic!("{ok:?}")
        };
        // Without connections.max.reauth.ms the session still ends with the token.
        assert!((50_000..=60_000).contains(&r.session_lifetime_ms), "{r:?}");
        assert_eq!(
            passes(&mut s, ApiKey::Metadata, now),
            Some("User:dave".into())
        );
        assert_eq!(
            passes(&mut s, ApiKey::Metadata, now + Duration::from_secs(61)),
            None
        );

        // An expired token: the error JSON, then the client's %x01, then the failure.
        let mut s = session(None);
        handshake(&mut s, "OAUTHBEARER", now);
        let expired = oauthbearer::unsecured_token("dave", wall - 120_000, 60);
        let step = auth(&mut s, oauthbearer::initial_response(&expired), now);
        assert_eq!(code(&step), 0);
        assert_eq!(auth_bytes(&step), b"{\"status\":\"invalid_token\"}");
        let last = auth(&mut s, vec![1], now);
        assert!(matches!(last, Decision::Fail(_)));
        assert_eq!(code(&last), ErrorCode::SaslAuthenticationFailed.code());
        assert_eq!(passes(&mut s, ApiKey::Metadata, now), None);

        // A malformed message fails at once, with Kafka's words.
        let mut s = session(None);
        handshake(&mut s, "OAUTHBEARER", now);
        let bad = auth(&mut s, b"n,,auth=Bearer x".to_vec(), now);
        assert!(matches!(bad, Decision::Fail(_)));
        // A different principal on re-authentication is refused.
        let mut s = session(Some(Duration::from_secs(30)));
        handshake(&mut s, "OAUTHBEARER", now);
        auth(&mut s, oauthbearer::initial_response(&token), now);
        handshake(&mut s, "OAUTHBEARER", now);
        let other = oauthbearer::unsecured_token("eve", wall, 60);
        let changed = auth(&mut s, oauthbearer::initial_response(&other), now);
        assert_eq!(code(&changed), ErrorCode::SaslAuthenticationFailed.code());
    }

    /// A listener's acceptor over modelled contexts whose client is `peer`; only names of
    /// FJORD.TEST have a short name (their first component, lower-cased).
    #[derive(Debug)]
    struct ModelAcceptor(&'static str);

    impl GssAcceptor for ModelAcceptor {
        fn context(
            &self,
        ) -> Result<Box<dyn super::super::gssapi::GssContext>, super::super::gssapi::GssFailure>
        {
            Ok(super::super::gssapi::model::Model::acceptor(true, self.0))
        }
        fn short_name(&self, principal: &str) -> Result<String, String> {
            principal
                .strip_suffix("@FJORD.TEST")
                .map(str::to_lowercase)
                .ok_or_else(|| format!("No rules apply to {principal}"))
        }
    }

    fn kerberos_session(peer: &'static str, reauth: Option<Duration>) -> SaslSession {
        let mut config = (*session(reauth).config).clone();
        config.mechanisms.push(GSSAPI.into());
        config.gssapi = Some(Arc::new(ModelAcceptor(peer)));
        SaslSession::new(Arc::new(config))
    }

    /// The three client messages of a mutual exchange, with the session's answers.
    fn gssapi_login(s: &mut SaslSession, now: Instant) -> Decision {
        assert_eq!(code(&handshake(s, GSSAPI, now)), 0);
        assert_eq!(auth_bytes(&auth(s, b"AP-REQ".to_vec(), now)), b"AP-REP");
        assert_eq!(auth_bytes(&auth(s, Vec::new(), now)), b"W:\x01\x01\x00\x00");
        auth(s, b"W:\x01\x00\x00\x00".to_vec(), now)
    }

    #[test]
    fn gssapi_signs_in_as_the_mapped_short_name_and_keeps_it() {
        let now = Instant::now();
        let mut s = kerberos_session("Alice@FJORD.TEST", Some(Duration::from_secs(30)));
        let done = gssapi_login(&mut s, now);
        assert_eq!(code(&done), 0);
        assert!(auth_bytes(&done).is_empty());
        assert_eq!(
            passes(&mut s, ApiKey::Metadata, now),
            Some("User:alice".into())
        );
        // Re-authentication as the same principal keeps the session going.
        let again = gssapi_login(&mut s, now + Duration::from_secs(20));
        assert_eq!(code(&again), 0);
        assert_eq!(
            passes(&mut s, ApiKey::Metadata, now + Duration::from_secs(40)),
            Some("User:alice".into())
        );
        // A principal no rule maps fails, in Kafka's words.
        let mut s = kerberos_session("mallory@ELSEWHERE", None);
        let refused = gssapi_login(&mut s, now);
        assert!(matches!(refused, Decision::Fail(_)));
        let Decision::Fail(ResponseBody::SaslAuthenticate(r)) = refused else {
            unreachable!()
        };
        assert_eq!(
            r.error_message.as_deref(),
            Some("Failed to set name for 'mallory@ELSEWHERE' based on Kerberos authentication rules.")
        );
        // Out of sequence: the failure, then nothing passes.
        let mut s = kerberos_session("alice@FJORD.TEST", None);
        handshake(&mut s, GSSAPI, now);
        let bad = auth(&mut s, b"W:\x01\x00\x00\x00".to_vec(), now);
        assert_eq!(code(&bad), ErrorCode::SaslAuthenticationFailed.code());
        assert_eq!(passes(&mut s, ApiKey::Metadata, now), None);
        // A listener that does not enable it refuses the handshake.
        let mut s = session(None);
        assert_eq!(
            code(&handshake(&mut s, GSSAPI, now)),
            ErrorCode::UnsupportedSaslMechanism.code()
        );
    }

    #[test]
    fn plain_authenticates_and_only_then_requests_pass() {
        let now = Instant::now();
        let mut s = session(None);
        assert_eq!(
            passes(&mut s, ApiKey::ApiVersions, now),
            Some("User:ANONYMOUS".into())
        );
        assert_eq!(passes(&mut s, ApiKey::Metadata, now), None);
        assert!(matches!(
            handshake(&mut s, "PLAIN", now),
            Decision::Respond(_)
        ));
        assert_eq!(passes(&mut s, ApiKey::Metadata, now), None, "mid-exchange");
        let mut s = session(None);
        handshake(&mut s, "PLAIN", now);
        let d = auth(&mut s, plain::client_message("alice", "alice-pw"), now);
        assert_eq!(code(&d), 0);
        assert_eq!(
            passes(&mut s, ApiKey::Produce, now),
            Some("User:alice".into())
        );
        // Without re-authentication configured, a second handshake is refused.
        assert_eq!(code(&handshake(&mut s, "PLAIN", now)), 34);
    }

    #[test]
    fn wrong_passwords_unknown_users_and_mechanisms_fail() {
        let now = Instant::now();
        for (mech, bytes) in [
            ("PLAIN", plain::client_message("alice", "nope")),
            ("PLAIN", plain::client_message("eve", "alice-pw")),
            ("PLAIN", b"garbage".to_vec()),
        ] {
            let mut s = session(None);
            handshake(&mut s, mech, now);
            let d = auth(&mut s, bytes, now);
            assert!(matches!(d, Decision::Fail(_)), "{d:?}");
            assert_eq!(code(&d), ErrorCode::SaslAuthenticationFailed.code());
            if let Decision::Fail(ResponseBody::SaslAuthenticate(r)) = d {
                assert!(!r.error_message.unwrap_or_default().contains("nope"));
            }
        }
        let mut s = session(None);
        let d = handshake(&mut s, "GSSAPI", now);
        assert!(matches!(d, Decision::Fail(_)));
        assert_eq!(code(&d), ErrorCode::UnsupportedSaslMechanism.code());
        // SCRAM-SHA-256 is a mechanism fjord knows but this listener does not enable.
        let mut s = session(None);
        assert_eq!(code(&handshake(&mut s, "SCRAM-SHA-256", now)), 33);
        let mut s = session(None);
        assert_eq!(
            code(&auth(&mut s, Vec::new(), now)),
            34,
            "no handshake first"
        );
    }

    fn scram_login(s: &mut SaslSession, password: &str, now: Instant) -> Decision {
        handshake(s, "SCRAM-SHA-512", now);
        let mut c = ScramClient::new(Mechanism::Sha512, "carol", password, "n0nce");
        let Decision::Respond(ResponseBody::SaslAuthenticate(first)) = auth(s, c.first(), now)
        else {
            panic!("a challenge")
        };
        let last = c.last(&first.auth_bytes).unwrap();
        let d = auth(s, last, now);
        if let Decision::Respond(ResponseBody::SaslAuthenticate(r)) = &d {
            c.verify(&r.auth_bytes).unwrap();
        }
        d
    }

    #[test]
    fn scram_sessions_expire_and_re_authenticate_as_the_same_principal() {
        let now = Instant::now();
        let mut s = session(Some(Duration::from_secs(60)));
        let d = scram_login(&mut s, "carol-pw", now);
        let Decision::Respond(ResponseBody::SaslAuthenticate(r)) = &d else {
            panic!("{d:?}")
        };
        assert_eq!(r.session_lifetime_ms, 60_000);
        assert_eq!(
            passes(&mut s, ApiKey::Fetch, now),
            Some("User:carol".into())
        );
        let later = now + Duration::from_secs(61);
        assert_eq!(passes(&mut s, ApiKey::Fetch, later), None, "expired");
        // Re-authenticating in band renews the session.
        assert_eq!(code(&scram_login(&mut s, "carol-pw", later)), 0);
        assert_eq!(
            passes(&mut s, ApiKey::Fetch, later),
            Some("User:carol".into())
        );
        // Another mechanism on re-authentication is refused.
        assert_eq!(code(&handshake(&mut s, "PLAIN", later)), 33);
        let mut s = session(None);
        assert!(matches!(
            scram_login(&mut s, "wrong", now),
            Decision::Fail(_)
        ));
    }
}
