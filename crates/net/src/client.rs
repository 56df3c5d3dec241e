//! A client connection: requests are written as they come (pipelined) and responses matched
//! to them by correlation id. A broken connection fails every request in flight; the caller
//! connects again.

use crate::sasl::scram::{Mechanism, ScramClient};
use crate::security::{ClientSecurity, SaslCredentials};
use bytes::BytesMut;
use fjord_protocol::frame::FrameDecoder;
use fjord_protocol::generated::request_header::RequestHeader;
use fjord_protocol::header::{encode_request, parse_response};
use fjord_protocol::{ApiKey, RequestBody, ResponseBody};
use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::io::AsyncReadExt;
use tokio::net::TcpStream;
use tokio::sync::{mpsc, oneshot};

/// Why a call failed.
#[derive(Debug, thiserror::Error)]
pub enum CallError {
    /// The connection could not be made or broke.
    #[error("connection to {addr}: {message}")]
    Connection {
        /// The peer.
        addr: String,
        /// What happened.
        message: String,
    },
    /// No answer within the timeout.
    #[error("{api:?} to {addr} timed out after {timeout_ms} ms")]
    Timeout {
        /// The request's API.
        api: ApiKey,
        /// The peer.
        addr: String,
        /// The timeout.
        timeout_ms: u64,
    },
    /// TLS or SASL authentication with the server failed.
    #[error("authentication with {addr} failed: {message}")]
    Authentication {
        /// The peer.
        addr: String,
        /// What the server (or the TLS handshake) said.
        message: String,
    },
    /// The answer could not be read.
    #[error("bad response from {addr}: {message}")]
    BadResponse {
        /// The peer.
        addr: String,
        /// What was wrong.
        message: String,
    },
}

type Waiters = Arc<
    Mutex<
        HashMap<
            i32,
            (
                ApiKey,
                i16,
                oneshot::Sender<Result<ResponseBody, CallError>>,
            ),
        >,
    >,
>;

struct Outgoing {
    body: RequestBody,
    version: i16,
    reply: Reply,
}

/// What a connection task re-authenticates with (KIP-368): the credentials and the lifetime
/// the server gave the session.
type ReauthPlan = (SaslCredentials, Duration);

/// Who hears about an outgoing request.
enum Reply {
    /// A caller waiting for the response.
    Response(oneshot::Sender<Result<ResponseBody, CallError>>),
    /// A caller waiting only until it is written (a request with no response: a produce
    /// with acks=0).
    Written(oneshot::Sender<Result<(), CallError>>),
}

/// The most requests queued to be written on one connection; callers wait beyond it (within
/// their timeout).
pub const MAX_QUEUED_REQUESTS: usize = 1024;
/// The most requests awaiting a response on one connection; more fail at once.
pub const MAX_IN_FLIGHT: usize = 4096;

/// A connection to one server.
#[derive(Debug, Clone)]
pub struct Client {
    addr: String,
    tx: mpsc::Sender<Outgoing>,
}

/// The client id fjord sends.
pub const CLIENT_ID: &str = "fjord";

impl Client {
    /// Connects to `addr` (host:port) within `timeout`.
    pub async fn connect(addr: &str, timeout: Duration) -> Result<Client, CallError> {
        Client::connect_as(addr, timeout, CLIENT_ID).await
    }

    /// Connects to `addr` within `timeout`, sending `client_id` in every request header.
    pub async fn connect_as(
        addr: &str,
        timeout: Duration,
        client_id: &str,
    ) -> Result<Client, CallError> {
        Client::connect_with(addr, timeout, client_id, &ClientSecurity::plaintext()).await
    }

    /// Connects to `addr` within `timeout` in the server's security protocol: a TLS handshake
    /// when `security` has TLS, then SASL authentication when it has credentials (and, when the
    /// server gives the session a lifetime, re-authentication before it ends, KIP-368).
    pub async fn connect_with(
        addr: &str,
        timeout: Duration,
        client_id: &str,
        security: &ClientSecurity,
    ) -> Result<Client, CallError> {
        let conn_err = |message: String| CallError::Connection {
            addr: addr.to_string(),
            message,
        };
        let deadline = tokio::time::Instant::now() + timeout;
        let stream = tokio::time::timeout_at(deadline, TcpStream::connect(addr))
            .await
            .map_err(|_| conn_err("connect timed out".into()))?
            .map_err(|e| conn_err(e.to_string()))?;
        // A connect to a port in the ephemeral range on this machine, while nothing listens
        // there (the node restarts), can pick that very port as its own and connect to
        // itself (TCP simultaneous open): that is no server.
        if let (Ok(local), Ok(peer)) = (stream.local_addr(), stream.peer_addr()) {
            if local == peer {
                return Err(conn_err(
                    "connected to itself: nothing listens there".into(),
                ));
            }
        }
        stream
            .set_nodelay(true)
            .map_err(|e| conn_err(e.to_string()))?;
        let (tx, rx) = mpsc::channel(MAX_QUEUED_REQUESTS);
        let (plan_tx, plan) = oneshot::channel::<ReauthPlan>();
        let (addr_s, id) = (addr.to_string(), client_id.to_string());
        match &security.tls {
            None => {
                let (read, write) = stream.into_split();
                tokio::spawn(run(addr_s, id, read, write, (rx, plan)));
            }
            Some(tls) => {
                let host = addr.rsplit_once(':').map_or(addr, |(h, _)| h);
                let (connector, name) = crate::tls::connector(tls.clone(), host).map_err(|m| {
                    CallError::Authentication {
                        addr: addr.into(),
                        message: m.to_string(),
                    }
                })?;
                let tls_stream = tokio::time::timeout_at(deadline, connector.connect(name, stream))
                    .await
                    .map_err(|_| conn_err("TLS handshake timed out".into()))?
                    .map_err(|e| CallError::Authentication {
                        addr: addr.into(),
                        message: format!("TLS handshake failed: {e}"),
                    })?;
                let (read, write) = tokio::io::split(tls_stream);
                tokio::spawn(run(addr_s, id, read, write, (rx, plan)));
            }
        }
        let client = Client {
            addr: addr.to_string(),
            tx,
        };
        if let Some(creds) = &security.sasl {
            let left = deadline.saturating_duration_since(tokio::time::Instant::now());
            if let Some(lifetime) =
                sasl_login(&client.addr, creds, &mut ByCall(&client, left)).await?
            {
                plan_tx
                    .send((creds.clone(), lifetime))
                    .map_err(|_| conn_err("closed".into()))?;
            }
        }
        Ok(client)
    }

    /// The peer's address.
    pub fn addr(&self) -> &str {
        &self.addr
    }

    /// True while the connection task runs.
    pub fn is_open(&self) -> bool {
        !self.tx.is_closed()
    }

    /// Returns once the connection has closed (at once if it already has).
    pub async fn closed(&self) {
        self.tx.closed().await
    }

    /// Sends a request at `version` and waits for its response up to `timeout`.
    pub async fn call(
        &self,
        body: RequestBody,
        version: i16,
        timeout: Duration,
    ) -> Result<ResponseBody, CallError> {
        let (reply, rx) = oneshot::channel();
        // A call that times out drops its receiver; the connection prunes its waiter.
        self.submit(body, version, Reply::Response(reply), rx, timeout)
            .await?
    }

    /// Sends a request the server does not answer (a produce with acks=0) and waits until it
    /// is written to the socket, up to `timeout`.
    pub async fn send_unanswered(
        &self,
        body: RequestBody,
        version: i16,
        timeout: Duration,
    ) -> Result<(), CallError> {
        let (written, rx) = oneshot::channel();
        self.submit(body, version, Reply::Written(written), rx, timeout)
            .await?
    }

    /// Queues a request for the connection task and waits for what `rx` brings, all within
    /// `timeout`.
    async fn submit<T>(
        &self,
        body: RequestBody,
        version: i16,
        reply: Reply,
        rx: oneshot::Receiver<T>,
        timeout: Duration,
    ) -> Result<T, CallError> {
        let api = body.api_key();
        let closed = || CallError::Connection {
            addr: self.addr.clone(),
            message: "closed".into(),
        };
        let timed_out = || CallError::Timeout {
            api,
            addr: self.addr.clone(),
            timeout_ms: timeout.as_millis() as u64,
        };
        let deadline = tokio::time::Instant::now() + timeout;
        let send = self.tx.send(Outgoing {
            body,
            version,
            reply,
        });
        match tokio::time::timeout_at(deadline, send).await {
            Ok(Ok(())) => {}
            Ok(Err(_)) => return Err(closed()),
            Err(_) => return Err(timed_out()),
        }
        match tokio::time::timeout_at(deadline, rx).await {
            Ok(Ok(r)) => Ok(r),
            Ok(Err(_)) => Err(closed()),
            Err(_) => Err(timed_out()),
        }
    }
}

/// Sends a request and waits for its answer: a caller's path ([`Client::call`]) for the first
/// authentication, the connection task's own for re-authentication.
trait Exchange: Send {
    fn exchange(
        &mut self,
        body: RequestBody,
        version: i16,
    ) -> impl std::future::Future<Output = Result<ResponseBody, CallError>> + Send;
}

/// Authentication through [`Client::call`].
struct ByCall<'a>(&'a Client, Duration);

impl Exchange for ByCall<'_> {
    async fn exchange(
        &mut self,
        body: RequestBody,
        version: i16,
    ) -> Result<ResponseBody, CallError> {
        self.0.call(body, version, self.1).await
    }
}

/// Re-authentication written by the connection task itself, nothing else in between.
struct Inline<'a, W> {
    writer: &'a mut Writer<W>,
    timeout: Duration,
}

impl<W: crate::FrameSink> Exchange for Inline<'_, W> {
    async fn exchange(
        &mut self,
        body: RequestBody,
        version: i16,
    ) -> Result<ResponseBody, CallError> {
        let (tx, rx) = oneshot::channel();
        let addr = self.writer.addr.clone();
        self.writer
            .send(Outgoing {
                body,
                version,
                reply: Reply::Response(tx),
            })
            .await
            .map_err(|message| CallError::Connection {
                addr: addr.clone(),
                message,
            })?;
        match tokio::time::timeout(self.timeout, rx).await {
            Ok(Ok(r)) => r,
            _ => Err(CallError::Authentication {
                addr,
                message: "no answer while re-authenticating".into(),
            }),
        }
    }
}

/// An authentication failure on `addr`, saying a message.
fn auth_failed(addr: &str) -> impl Fn(String) -> CallError + '_ {
    move |message| CallError::Authentication {
        addr: addr.to_string(),
        message,
    }
}

/// One SaslAuthenticate step: the mechanism's message out, the server's answer back.
async fn sasl_step(
    ex: &mut impl Exchange,
    addr: &str,
    bytes: Vec<u8>,
) -> Result<
    fjord_protocol::generated::sasl_authenticate_response::SaslAuthenticateResponse,
    CallError,
> {
    let failed = auth_failed(addr);
    let body = RequestBody::SaslAuthenticate(
        fjord_protocol::generated::sasl_authenticate_request::SaslAuthenticateRequest {
            auth_bytes: bytes.into(),
            ..Default::default()
        },
    );
    match ex.exchange(body, SASL_AUTHENTICATE_VERSION).await? {
        ResponseBody::SaslAuthenticate(r) if r.error_code == 0 => Ok(r),
        ResponseBody::SaslAuthenticate(r) => Err(failed(
            r.error_message
                .unwrap_or_else(|| format!("error code {}", r.error_code)),
        )),
        other => Err(failed(format!("unexpected answer {:?}", other.api_key()))),
    }
}

/// SASL authentication (SaslHandshake v1, then SaslAuthenticate) through `ex`; returns the
/// session's lifetime when the server gives one.
async fn sasl_login(
    addr: &str,
    creds: &SaslCredentials,
    ex: &mut impl Exchange,
) -> Result<Option<Duration>, CallError> {
    use fjord_protocol::generated::sasl_handshake_request::SaslHandshakeRequest;
    let failed = auth_failed(addr);
    let handshake = RequestBody::SaslHandshake(SaslHandshakeRequest {
        mechanism: creds.mechanism.clone(),
    });
    match ex.exchange(handshake, 1).await? {
        ResponseBody::SaslHandshake(r) if r.error_code == 0 => {}
        ResponseBody::SaslHandshake(r) => {
            return Err(failed(format!(
                "the server does not take SASL mechanism {} (it enables {}): {}",
                creds.mechanism,
                r.mechanisms.join(", "),
                fjord_protocol::ErrorCode::from_code(r.error_code).map_or("UNKNOWN", |c| c.name())
            )))
        }
        other => return Err(failed(format!("unexpected answer {:?}", other.api_key()))),
    }
    let last = if creds.mechanism == crate::sasl::oauthbearer::OAUTHBEARER {
        let login = creds
            .bearer
            .as_ref()
            .ok_or_else(|| failed("OAUTHBEARER without a login".into()))?;
        let token = login.0.token().await.map_err(&failed)?;
        let answer =
            sasl_step(ex, addr, crate::sasl::oauthbearer::initial_response(&token)).await?;
        if !answer.auth_bytes.is_empty() {
            // RFC 7628: the server's error; %x01 ends the exchange (and fails it).
            let error = String::from_utf8_lossy(&answer.auth_bytes).into_owned();
            let _ = sasl_step(ex, addr, vec![1]).await;
            return Err(failed(error));
        }
        answer
    } else if creds.mechanism == crate::sasl::gssapi::GSSAPI {
        gssapi_login(addr, creds, ex).await?
    } else if creds.mechanism == crate::sasl::plain::PLAIN {
        let message = crate::sasl::plain::client_message(&creds.username, &creds.password);
        sasl_step(ex, addr, message).await?
    } else {
        let m = Mechanism::from_name(&creds.mechanism)
            .ok_or_else(|| failed(format!("unknown SASL mechanism {}", creds.mechanism)))?;
        let nonce = uuid::Uuid::new_v4().simple().to_string();
        let mut scram = ScramClient::new(m, &creds.username, &creds.password, &nonce);
        if creds.token {
            scram = scram.for_token();
        }
        let first = sasl_step(ex, addr, scram.first()).await?;
        let client_final = scram
            .last(&first.auth_bytes)
            .map_err(|e| failed(e.to_string()))?;
        let last = sasl_step(ex, addr, client_final).await?;
        scram
            .verify(&last.auth_bytes)
            .map_err(|e| failed(e.to_string()))?;
        last
    };
    Ok((last.session_lifetime_ms > 0)
        .then(|| Duration::from_millis(last.session_lifetime_ms as u64)))
}

/// GSSAPI's exchange (RFC 4752) with a fresh initiator context for the server's host; the
/// library's calls (which may ask the KDC for a ticket) run off the async workers.
async fn gssapi_login(
    addr: &str,
    creds: &SaslCredentials,
    ex: &mut impl Exchange,
) -> Result<
    fjord_protocol::generated::sasl_authenticate_response::SaslAuthenticateResponse,
    CallError,
> {
    use crate::sasl::gssapi::GssapiClient;
    let failed = auth_failed(addr);
    let initiator = creds
        .gssapi
        .as_ref()
        .map(|k| k.0.clone())
        .ok_or_else(|| failed("GSSAPI without a Kerberos login".into()))?;
    let host = addr
        .rsplit_once(':')
        .map_or(addr, |(h, _)| h)
        .trim_matches(['[', ']'])
        .to_string();
    let gss_failed = |e: crate::sasl::gssapi::GssFailure| failed(format!("GSSAPI: {e}"));
    let (mut client, mut message) = off_workers(move || {
        let mut client = GssapiClient::new(initiator.context(&host)?);
        let first = client.first()?;
        Ok((client, first))
    })
    .await
    .map_err(gss_failed)?;
    loop {
        let answer = sasl_step(ex, addr, message).await?;
        if client.is_done() {
            return Ok(answer);
        }
        let challenge = answer.auth_bytes.to_vec();
        (client, message) = off_workers(move || {
            let next = client.step(&challenge)?;
            Ok((client, next))
        })
        .await
        .map_err(gss_failed)?;
    }
}

/// Runs a GSSAPI library call (which may ask the KDC for a ticket) on the blocking pool.
async fn off_workers<T: Send + 'static>(
    f: impl FnOnce() -> Result<T, crate::sasl::gssapi::GssFailure> + Send + 'static,
) -> Result<T, crate::sasl::gssapi::GssFailure> {
    tokio::task::spawn_blocking(f)
        .await
        .unwrap_or_else(|e| Err(crate::sasl::gssapi::GssFailure::new(e.to_string())))
}

/// The SaslAuthenticate version fjord's clients use (v1+ carries the session lifetime).
const SASL_AUTHENTICATE_VERSION: i16 = 2;

/// When to re-authenticate a session of `lifetime`: at 85% of it.
fn reauth_at(lifetime: Duration) -> tokio::time::Instant {
    tokio::time::Instant::now() + lifetime.mul_f64(0.85)
}

/// The writing side of a connection: correlation ids, waiters, the socket.
struct Writer<W> {
    addr: String,
    client_id: String,
    write: W,
    waiters: Waiters,
    next_corr: i32,
}

impl<W: crate::FrameSink> Writer<W> {
    /// Writes one request (registering its waiter); an error is the connection's end.
    async fn send(&mut self, out: Outgoing) -> Result<(), String> {
        let addr = &self.addr;
        self.next_corr = self.next_corr.wrapping_add(1);
        let header = RequestHeader {
            request_api_key: out.body.api_key().key(),
            request_api_version: out.version,
            correlation_id: self.next_corr,
            client_id: Some(self.client_id.clone()),
            ..Default::default()
        };
        let chunks = match encode_request(&header, &out.body) {
            Ok(c) => c,
            Err(e) => {
                let error = CallError::BadResponse {
                    addr: addr.clone(),
                    message: format!("could not encode the request: {e}"),
                };
                match out.reply {
                    Reply::Response(r) => drop(r.send(Err(error))),
                    Reply::Written(w) => drop(w.send(Err(error))),
                }
                return Ok(());
            }
        };
        let written = match out.reply {
            Reply::Written(w) => Some(w),
            Reply::Response(reply) => {
                let mut w = self.waiters.lock().expect("waiters");
                if w.len() >= MAX_IN_FLIGHT / 2 {
                    w.retain(|_, (_, _, reply)| !reply.is_closed());
                }
                if w.len() >= MAX_IN_FLIGHT {
                    let _ = reply.send(Err(CallError::Connection {
                        addr: addr.clone(),
                        message: format!("{MAX_IN_FLIGHT} requests already in flight"),
                    }));
                    return Ok(());
                }
                w.insert(self.next_corr, (out.body.api_key(), out.version, reply));
                None
            }
        };
        if let Err(e) = crate::write_chunks(&mut self.write, &chunks).await {
            if let Some(w) = written {
                let _ = w.send(Err(CallError::Connection {
                    addr: addr.clone(),
                    message: e.to_string(),
                }));
            }
            return Err(e.to_string());
        }
        if let Some(w) = written {
            let _ = w.send(Ok(()));
        }
        Ok(())
    }
}

async fn run<R, W>(
    addr: String,
    client_id: String,
    mut read: R,
    write: W,
    (mut rx, plan): (mpsc::Receiver<Outgoing>, oneshot::Receiver<ReauthPlan>),
) where
    R: tokio::io::AsyncRead + Unpin + Send + 'static,
    W: crate::FrameSink,
{
    let waiters: Waiters = Arc::default();
    let reader_waiters = waiters.clone();
    let reader_addr = addr.clone();
    let mut reader = tokio::spawn(async move {
        let decoder = FrameDecoder::default();
        let mut buf = BytesMut::with_capacity(64 * 1024);
        loop {
            match decoder.decode(&mut buf) {
                Ok(Some(frame)) => {
                    if frame.len() < 4 {
                        return format!("a {}-byte response frame", frame.len());
                    }
                    let corr = i32::from_be_bytes([frame[0], frame[1], frame[2], frame[3]]);
                    let waiter = reader_waiters.lock().expect("waiters").remove(&corr);
                    let Some((api, version, reply)) = waiter else {
                        // The answer to a call that timed out and was pruned.
                        tracing::debug!(addr = %reader_addr, corr, "dropping an answer nobody waits for");
                        continue;
                    };
                    let result = parse_response(api, version, frame)
                        .map(|(_, body)| body)
                        .map_err(|e| CallError::BadResponse {
                            addr: reader_addr.clone(),
                            message: e.to_string(),
                        });
                    let _ = reply.send(result);
                    continue;
                }
                Ok(None) => {}
                Err(e) => return e.to_string(),
            }
            match read.read_buf(&mut buf).await {
                Ok(0) => return "closed by the peer".to_string(),
                Ok(_) => {}
                Err(e) => return e.to_string(),
            }
        }
    });
    let mut writer = Writer {
        addr: addr.clone(),
        client_id,
        write,
        waiters: waiters.clone(),
        next_corr: 0,
    };
    let mut reauth: Option<(tokio::time::Instant, SaslCredentials, Duration)> = None;
    let mut plan = Some(plan);
    let why = loop {
        let due = reauth.as_ref().map(|(at, _, _)| *at);
        tokio::select! {
            // Once the first login gave the session a lifetime (never, without SASL).
            given = async {
                match plan.as_mut() {
                    Some(p) => p.await,
                    None => std::future::pending().await,
                }
            }, if plan.is_some() => {
                plan = None;
                if let Ok((creds, lifetime)) = given {
                    reauth = Some((reauth_at(lifetime), creds, lifetime));
                }
            }
            out = rx.recv() => {
                let Some(out) = out else { break "closed".to_string() };
                if let Err(e) = writer.send(out).await {
                    break e;
                }
            }
            _ = tokio::time::sleep_until(due.unwrap_or_else(tokio::time::Instant::now)), if due.is_some() => {
                // KIP-368: nothing else is written until the exchange ends, so the server
                // sees only the handshake and its messages meanwhile.
                let Some((_, creds, lifetime)) = reauth.take() else { continue };
                let timeout = lifetime.mul_f64(0.15).max(Duration::from_secs(1));
                let mut inline = Inline { writer: &mut writer, timeout };
                match sasl_login(&addr, &creds, &mut inline).await {
                    Ok(Some(next)) => reauth = Some((reauth_at(next), creds, next)),
                    Ok(None) => {}
                    Err(e) => break format!("re-authentication failed: {e}"),
                }
            }
            why = &mut reader => break why.unwrap_or_else(|e| e.to_string()),
        }
    };
    reader.abort();
    rx.close();
    for (_, (_, _, reply)) in waiters.lock().expect("waiters").drain() {
        let _ = reply.send(Err(CallError::Connection {
            addr: addr.clone(),
            message: why.clone(),
        }));
    }
}
