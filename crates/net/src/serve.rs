//! A Kafka listener: accepts connections within [`Limits`] (`max.connections`,
//! `max.connections.per.ip`, backing off when accept fails), reads frames ahead (rejecting
//! oversized ones before reading them, holding a share of the node-wide
//! `queued.max.request.bytes` budget for each frame until it is answered), and hands a
//! connection's requests to the [`Handler`] one at a time, in order, writing the responses in
//! request order, as Kafka guarantees per connection (idempotent producers with several
//! requests in flight and group protocols depend on it). One exception to "answered before
//! the next is handled": a Produce whose answer waits for replication ([`Reply::Later`]) lets
//! the connection handle the Produce requests behind it (their appends stay in order; up to
//! [`MAX_PIPELINED_PER_CONNECTION`] answers wait), so a producer's requests in flight are
//! appended at once and acknowledged together; any other request waits until those answers
//! are written. A malformed
//! frame closes its connection and nothing else; so does `connections.max.idle.ms` of
//! silence.

use crate::principal::{Caller, ClientSoftware, Principal};
use crate::sasl::session::{Decision, SaslSession};
use crate::security::ListenerSecurity;
use crate::tls::{principal_of, HANDSHAKE_TIMEOUT};
use crate::FrameSink;
use bytes::{Buf, BytesMut};
use fjord_protocol::frame::FrameDecoder;
use fjord_protocol::generated::api_versions_response::{
    ApiVersion, ApiVersionsResponse, FinalizedFeatureKey, SupportedFeatureKey,
};
use fjord_protocol::header::{encode_response, parse_request, RequestFrame};
use fjord_protocol::{ApiKey, ErrorCode, RequestBody, ResponseBody};
use std::collections::HashMap;
use std::future::Future;
use std::net::{IpAddr, SocketAddr};
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::io::{AsyncRead, AsyncReadExt};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::{mpsc, watch, OwnedSemaphorePermit, Semaphore};

/// The most requests of one connection read ahead of the one being handled; reading pauses
/// beyond it.
pub const MAX_QUEUED_PER_CONNECTION: usize = 64;
/// The first pause after a failed accept (out of file descriptors, say); doubled per failure.
pub const ACCEPT_BACKOFF_MIN: Duration = Duration::from_millis(10);
/// The longest pause after failed accepts.
pub const ACCEPT_BACKOFF_MAX: Duration = Duration::from_secs(1);

/// Told of every request a listener answered (the metrics endpoint counts them).
pub trait Observer: Send + Sync + std::fmt::Debug {
    /// A request of `api` was answered, carrying the non-zero error codes `errors` (top-level
    /// and per entity, as Kafka's `errorCounts`), `elapsed` after its frame was read.
    fn answered(&self, api: ApiKey, errors: &[i16], elapsed: Duration);
}

/// A listener's limits, from Kafka's socket server configuration.
#[derive(Debug, Clone)]
pub struct Limits {
    /// `socket.request.max.bytes`: a larger frame closes its connection unread.
    pub max_frame: usize,
    /// `max.connections`: accepting waits while this many connections are open.
    pub max_connections: usize,
    /// `max.connections.per.ip`: a connection over it is closed at once.
    pub max_connections_per_ip: usize,
    /// `connections.max.idle.ms`: a connection silent this long, with nothing in flight, is
    /// closed.
    pub idle_timeout: Duration,
    /// `queued.max.request.bytes`, shared by every listener of the node: bytes of requests
    /// read and not yet answered; reading waits for room. `None` when unbounded.
    pub queued_bytes: Option<ByteBudget>,
    /// Told of every answered request, if set.
    pub observer: Option<Arc<dyn Observer>>,
}

/// A node-wide budget of request bytes read and not yet answered (`queued.max.request.bytes`).
#[derive(Debug, Clone)]
pub struct ByteBudget {
    semaphore: Arc<Semaphore>,
    total: usize,
}

impl ByteBudget {
    /// A budget of `total` bytes.
    pub fn new(total: usize) -> ByteBudget {
        let total = total.clamp(1, Semaphore::MAX_PERMITS.min(u32::MAX as usize));
        ByteBudget {
            semaphore: Arc::new(Semaphore::new(total)),
            total,
        }
    }

    /// Bytes not held by any request now.
    pub fn available(&self) -> usize {
        self.semaphore.available_permits()
    }

    /// Waits for room for a frame of `size` bytes (a frame larger than the whole budget
    /// waits for all of it).
    async fn take(&self, size: usize) -> Option<OwnedSemaphorePermit> {
        let want = u32::try_from(size.min(self.total)).unwrap_or(u32::MAX);
        self.semaphore.clone().acquire_many_owned(want).await.ok()
    }
}

impl Limits {
    /// Kafka's defaults with frames up to `max_frame` bytes and no global byte budget.
    pub fn with_max_frame(max_frame: usize) -> Limits {
        Limits {
            max_frame,
            max_connections: usize::MAX >> 4,
            max_connections_per_ip: usize::MAX >> 4,
            idle_timeout: Duration::from_millis(600_000),
            queued_bytes: None,
            observer: None,
        }
    }
}

/// What to do with a request.
pub enum Reply {
    /// Send this response.
    Respond(ResponseBody),
    /// Send nothing (a produce with acks=0).
    Nothing,
    /// Close the connection (an unsupported version or an undecodable request).
    Close,
    /// Answer with what this future gives, once it does (a Produce waiting for its records
    /// to commit); the connection may handle further Produce requests meanwhile, and every
    /// answer still goes out in request order.
    Later(std::pin::Pin<Box<dyn Future<Output = Reply> + Send + 'static>>),
    /// This reply, with the connection muted from now for this long: a quota throttle known
    /// before the answer is (a Produce waiting to commit, or one with acks=0), so the
    /// requests pipelined behind it wait it out as they would behind a throttled answer.
    Muting(std::time::Duration, Box<Reply>),
}

impl std::fmt::Debug for Reply {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Reply::Respond(b) => f.debug_tuple("Respond").field(b).finish(),
            Reply::Nothing => f.write_str("Nothing"),
            Reply::Close => f.write_str("Close"),
            Reply::Later(_) => f.write_str("Later(..)"),
            Reply::Muting(d, r) => f.debug_tuple("Muting").field(d).field(r).finish(),
        }
    }
}

/// The most answers one connection keeps waiting (pipelined Produce requests) before it
/// reads its next request.
pub const MAX_PIPELINED_PER_CONNECTION: usize = 16;

/// An answer not yet written, in request order.
struct Answer {
    api: ApiKey,
    version: i16,
    corr: i32,
    reply: Waiting,
    permit: Option<OwnedSemaphorePermit>,
    read_at: std::time::Instant,
    close_after: bool,
}

/// The reply inside any `Muting`, with `muted` pushed to the end of each mute it carried.
fn unmute(mut reply: Reply, muted: &mut Option<tokio::time::Instant>) -> Reply {
    while let Reply::Muting(d, inner) = reply {
        let until = tokio::time::Instant::now() + d;
        *muted = Some(muted.map_or(until, |m| m.max(until)));
        reply = *inner;
    }
    reply
}

/// An answer's reply: known, or still being worked out on its own task.
enum Waiting {
    Ready(Reply),
    Later(tokio::task::JoinHandle<Reply>),
}

impl Answer {
    fn ready(&self) -> bool {
        match &self.reply {
            Waiting::Ready(_) => true,
            Waiting::Later(h) => h.is_finished(),
        }
    }

    /// Waits until the reply is known.
    async fn settle(&mut self) {
        if let Waiting::Later(h) = &mut self.reply {
            let reply = h.await.unwrap_or_else(|e| {
                tracing::error!("a request's answer failed: {e}");
                Reply::Close
            });
            self.reply = Waiting::Ready(reply);
        }
    }
}

/// Answers requests.
pub trait Handler: Send + Sync + 'static {
    /// Handles one request from `caller` (its address, principal and listener).
    fn handle(&self, frame: RequestFrame, caller: Caller) -> impl Future<Output = Reply> + Send;

    /// Connection `connection` (a [`Caller::connection`]) closed, whoever closed it.
    fn closed(&self, connection: u64) {
        let _ = connection;
    }
}

/// Numbers served connections ([`Caller::connection`]).
static CONNECTIONS: AtomicU64 = AtomicU64::new(1);

pub use crate::api::ServedApis;

/// ApiVersions' answer for a listener serving `apis` (with UNSUPPORTED_VERSION, KIP-511, when
/// the request's version is unknown).
pub fn api_versions(apis: ServedApis, error: ErrorCode) -> ResponseBody {
    ResponseBody::ApiVersions(ApiVersionsResponse {
        error_code: error.code(),
        api_keys: apis
            .iter()
            .map(|(k, min, max)| ApiVersion {
                api_key: k.key(),
                min_version: *min,
                max_version: *max,
                ..Default::default()
            })
            .collect(),
        ..Default::default()
    })
}

/// The features a node puts in its ApiVersions answers (v3+): the ranges it supports, and the
/// finalized levels with their epoch (the metadata offset they are as of).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Features {
    /// Feature name, lowest and highest level this node can run.
    pub supported: Vec<(String, i16, i16)>,
    /// Feature name and its finalized level.
    pub finalized: Vec<(String, i16)>,
    /// The finalized levels' epoch; -1 when unknown.
    pub epoch: i64,
}

/// Adds the node's features to a successful ApiVersions answer at `version` 3 or later
/// (`features` is asked only then); any other reply is returned as it is.
pub fn with_features(reply: Reply, version: i16, features: impl FnOnce() -> Features) -> Reply {
    match reply {
        Reply::Respond(ResponseBody::ApiVersions(mut r)) if version >= 3 && r.error_code == 0 => {
            let features = features();
            r.supported_features = features
                .supported
                .iter()
                .map(|(name, min, max)| SupportedFeatureKey {
                    name: name.clone(),
                    min_version: *min,
                    max_version: *max,
                    ..Default::default()
                })
                .collect();
            r.finalized_features = features
                .finalized
                .iter()
                .map(|(name, level)| FinalizedFeatureKey {
                    name: name.clone(),
                    max_version_level: *level,
                    min_version_level: *level,
                    ..Default::default()
                })
                .collect();
            r.finalized_features_epoch = features.epoch;
            Reply::Respond(ResponseBody::ApiVersions(r))
        }
        other => other,
    }
}

/// What every listener does first: answers ApiVersions (at any version; `identity` is the
/// node's cluster id and node id, which a v5 request must match); closes on an API or
/// version it does not advertise, or a body that does not decode; otherwise hands back the
/// decoded request.
pub fn admit(
    frame: &RequestFrame,
    apis: ServedApis,
    peer: std::net::SocketAddr,
    identity: (&str, i32),
) -> Result<RequestBody, Box<Reply>> {
    let Some(api) = frame.api_key else {
        return Err(Box::new(Reply::Close));
    };
    let version = frame.header.request_api_version;
    let served = apis
        .iter()
        .any(|(k, min, max)| *k == api && (*min..=*max).contains(&version));
    if api == ApiKey::ApiVersions && !served {
        let versions = api_versions(apis, ErrorCode::UnsupportedVersion);
        return Err(Box::new(Reply::Respond(versions)));
    }
    if !served {
        tracing::debug!(%peer, ?api, version, "closing: not served on this listener");
        return Err(Box::new(Reply::Close));
    }
    let body = frame.decode_body().map_err(|e| {
        tracing::debug!(%peer, ?api, version, "closing on an undecodable request: {e}");
        Box::new(Reply::Close)
    })?;
    if let RequestBody::ApiVersions(r) = &body {
        let refusal = api_versions_refusal(r, version, identity.0, identity.1);
        return Err(Box::new(Reply::Respond(match refusal {
            Some(code) => ResponseBody::ApiVersions(ApiVersionsResponse {
                error_code: code.code(),
                ..Default::default()
            }),
            None => api_versions(apis, ErrorCode::None),
        })));
    }
    Ok(body)
}

/// The first ApiVersions version that names the cluster and node it is meant for (KIP-1242).
pub const API_VERSIONS_IDENTITY_VERSION: i16 = 5;
/// The first ApiVersions version with the client's software name and version (KIP-511).
pub const API_VERSIONS_SOFTWARE_VERSION: i16 = 3;

/// True for a client software name or version as KIP-511 allows it: letters and digits at
/// both ends, letters, digits, `-` and `.` between.
fn valid_software(s: &str) -> bool {
    let b = s.as_bytes();
    let (Some(first), Some(last)) = (b.first(), b.last()) else {
        return false;
    };
    first.is_ascii_alphanumeric()
        && last.is_ascii_alphanumeric()
        && b.iter()
            .all(|c| c.is_ascii_alphanumeric() || *c == b'-' || *c == b'.')
}

/// Why an ApiVersions request at `version` is answered with an error and nothing else, as
/// Kafka 4.4 answers it: INVALID_REQUEST for a v5 request with a cluster id and no node id or
/// the reverse, or a v3+ software name or version KIP-511 does not allow; then
/// REBOOTSTRAP_REQUIRED for a v5 request meant for another cluster or node than
/// (`cluster_id`, `node_id`), so the client looks up the cluster again.
pub fn api_versions_refusal(
    r: &fjord_protocol::generated::api_versions_request::ApiVersionsRequest,
    version: i16,
    cluster_id: &str,
    node_id: i32,
) -> Option<ErrorCode> {
    if version >= API_VERSIONS_IDENTITY_VERSION && r.cluster_id.is_some() != (r.node_id != -1) {
        return Some(ErrorCode::InvalidRequest);
    }
    if version >= API_VERSIONS_SOFTWARE_VERSION
        && !(valid_software(&r.client_software_name) && valid_software(&r.client_software_version))
    {
        return Some(ErrorCode::InvalidRequest);
    }
    match &r.cluster_id {
        Some(c)
            if version >= API_VERSIONS_IDENTITY_VERSION
                && (c != cluster_id || r.node_id != node_id) =>
        {
            Some(ErrorCode::RebootstrapRequired)
        }
        _ => None,
    }
}

/// Serves `listener` as a PLAINTEXT listener until the task is dropped.
pub async fn serve<H: Handler>(listener: TcpListener, handler: Arc<H>, limits: Limits) {
    let (_keep, stop) = watch::channel(false);
    let security = Arc::new(ListenerSecurity::plaintext("PLAINTEXT"));
    serve_until(listener, handler, limits, security, stop).await;
}

/// Serves `listener` until `stop` turns true, then stops gracefully: no new connections, no
/// new requests read; the requests already read are handled and answered in order, then each
/// connection closes. Returns once every connection has closed (the caller bounds the wait).
pub async fn serve_until<H: Handler>(
    listener: TcpListener,
    handler: Arc<H>,
    limits: Limits,
    security: Arc<ListenerSecurity>,
    mut stop: watch::Receiver<bool>,
) {
    let open = Arc::new(Semaphore::new(
        limits.max_connections.min(Semaphore::MAX_PERMITS),
    ));
    let per_ip: Arc<Mutex<HashMap<IpAddr, usize>>> = Arc::default();
    let limits = Arc::new(limits);
    let mut connections = tokio::task::JoinSet::new();
    let connection_stop = stop.clone();
    let mut backoff = ACCEPT_BACKOFF_MIN;
    loop {
        let accepted = async {
            let slot = open.clone().acquire_owned().await;
            (slot, listener.accept().await)
        };
        tokio::select! {
            _ = stopped(&mut stop) => break,
            Some(_) = connections.join_next(), if !connections.is_empty() => continue,
            (slot, accepted) = accepted => {
                let Ok(slot) = slot else { break };
                match accepted {
                    Ok((stream, peer)) => {
                        backoff = ACCEPT_BACKOFF_MIN;
                        let Some(ip_slot) =
                            IpSlot::take(&per_ip, peer.ip(), limits.max_connections_per_ip)
                        else {
                            tracing::info!(%peer, "closing: over max.connections.per.ip ({})", limits.max_connections_per_ip);
                            continue;
                        };
                        let _ = stream.set_nodelay(true);
                        connections.spawn(connection(
                            stream,
                            peer,
                            handler.clone(),
                            limits.clone(),
                            security.clone(),
                            (slot, ip_slot),
                            connection_stop.clone(),
                        ));
                    }
                    Err(e) => {
                        tracing::warn!("accept failed, retrying in {backoff:?}: {e}");
                        tokio::time::sleep(backoff).await;
                        backoff = (backoff * 2).min(ACCEPT_BACKOFF_MAX);
                    }
                }
            }
        }
    }
    drop(listener);
    tracing::info!(
        connections = connections.len(),
        "listener stopped; answering the requests in flight"
    );
    while connections.join_next().await.is_some() {}
}

/// Resolves once `stop` is true (or its sender is gone).
async fn stopped(stop: &mut watch::Receiver<bool>) {
    let _ = stop.wait_for(|s| *s).await;
}

/// One connection's share of `max.connections.per.ip`, given back when it closes.
struct IpSlot {
    counts: Arc<Mutex<HashMap<IpAddr, usize>>>,
    ip: IpAddr,
}

impl IpSlot {
    fn take(counts: &Arc<Mutex<HashMap<IpAddr, usize>>>, ip: IpAddr, max: usize) -> Option<IpSlot> {
        let mut c = counts.lock().unwrap_or_else(|p| p.into_inner());
        let n = c.entry(ip).or_insert(0);
        if *n >= max {
            return None;
        }
        *n += 1;
        Some(IpSlot {
            counts: counts.clone(),
            ip,
        })
    }
}

impl Drop for IpSlot {
    fn drop(&mut self) {
        let mut c = self.counts.lock().unwrap_or_else(|p| p.into_inner());
        if let Some(n) = c.get_mut(&self.ip) {
            *n -= 1;
            if *n == 0 {
                c.remove(&self.ip);
            }
        }
    }
}

/// A request read ahead, with its share of the byte budget and when it was read.
type Queued = (
    RequestFrame,
    Option<OwnedSemaphorePermit>,
    std::time::Instant,
);

async fn connection<H: Handler>(
    stream: TcpStream,
    peer: SocketAddr,
    handler: Arc<H>,
    limits: Arc<Limits>,
    security: Arc<ListenerSecurity>,
    _slots: (OwnedSemaphorePermit, IpSlot),
    stop: watch::Receiver<bool>,
) {
    let Some(tls) = security.tls.clone() else {
        let (read, write) = stream.into_split();
        let principal = Arc::new(Principal::anonymous());
        let session = Session {
            peer,
            handler,
            limits,
            security,
            principal,
            id: CONNECTIONS.fetch_add(1, Ordering::Relaxed),
        };
        return session.run(read, write, stop).await;
    };
    let accepted = tokio::time::timeout(HANDSHAKE_TIMEOUT, tls.acceptor().accept(stream)).await;
    let stream = match accepted {
        Ok(Ok(s)) => s,
        Ok(Err(e)) => {
            tracing::info!(%peer, listener = %security.name, "closing: TLS handshake failed: {e}");
            return;
        }
        Err(_) => {
            tracing::info!(%peer, listener = %security.name, "closing: no TLS handshake within {HANDSHAKE_TIMEOUT:?}");
            return;
        }
    };
    let principal = match principal_of(
        stream.get_ref().1.peer_certificates(),
        tls.principal_rules(),
    ) {
        Ok(p) => Arc::new(p),
        Err(e) => {
            tracing::info!(%peer, listener = %security.name, "closing: {e}");
            return;
        }
    };
    let (read, write) = tokio::io::split(stream);
    let session = Session {
        peer,
        handler,
        limits,
        security,
        principal,
        id: CONNECTIONS.fetch_add(1, Ordering::Relaxed),
    };
    session.run(read, write, stop).await;
}

/// One connection once its transport is up: who it is, what serves it.
struct Session<H> {
    peer: SocketAddr,
    handler: Arc<H>,
    limits: Arc<Limits>,
    security: Arc<ListenerSecurity>,
    /// The principal the transport gives (a client certificate's, else anonymous); SASL
    /// replaces it.
    principal: Arc<Principal>,
    /// The connection's number.
    id: u64,
}

impl<H: Handler> Session<H> {
    async fn run<R, W>(self, read: R, write: W, stop: watch::Receiver<bool>)
    where
        R: AsyncRead + Unpin + Send + 'static,
        W: FrameSink,
    {
        let (tx, rx) = mpsc::channel::<Queued>(MAX_QUEUED_PER_CONNECTION);
        let in_flight = Arc::new(AtomicUsize::new(0));
        // Until a SASL connection authenticates, frames are bounded by sasl.server.max.receive.size.
        let authenticated = Arc::new(AtomicBool::new(self.security.sasl.is_none()));
        let reader = tokio::spawn(read_requests(
            read,
            tx,
            self.peer,
            self.limits.clone(),
            (self.security.sasl_max_receive, authenticated.clone()),
            in_flight.clone(),
            stop,
        ));
        let handler = self.handler.clone();
        let id = self.id;
        self.respond(write, rx, in_flight, authenticated).await;
        reader.abort();
        handler.closed(id);
    }
}

/// The client software an ApiVersions request names (KIP-511), when it names a valid one.
fn client_software(request: &RequestFrame) -> Option<Arc<ClientSoftware>> {
    let Ok(RequestBody::ApiVersions(r)) = request.decode_body() else {
        return None;
    };
    (valid_software(&r.client_software_name) && valid_software(&r.client_software_version)).then(
        || {
            Arc::new(ClientSoftware {
                name: r.client_software_name,
                version: r.client_software_version,
            })
        },
    )
}

/// Reads frames ahead of the handler; ends on a malformed frame, the peer's close, idleness
/// or the listener's stop (the requests already queued are still answered).
async fn read_requests<R: AsyncRead + Unpin>(
    read: R,
    tx: mpsc::Sender<Queued>,
    peer: SocketAddr,
    limits: Arc<Limits>,
    before_auth: (usize, Arc<AtomicBool>),
    in_flight: Arc<AtomicUsize>,
    mut stop: watch::Receiver<bool>,
) {
    tokio::select! {
        _ = stopped(&mut stop) => {}
        _ = read_frames(read, tx, peer, limits, before_auth, in_flight) => {}
    }
}

/// The reading loop of [`read_requests`].
async fn read_frames<R: AsyncRead + Unpin>(
    mut read: R,
    tx: mpsc::Sender<Queued>,
    peer: SocketAddr,
    limits: Arc<Limits>,
    (max_before_auth, authenticated): (usize, Arc<AtomicBool>),
    in_flight: Arc<AtomicUsize>,
) {
    let after_auth = FrameDecoder::new(limits.max_frame);
    let before_auth = FrameDecoder::new(max_before_auth.min(limits.max_frame));
    let mut buf = BytesMut::with_capacity(64 * 1024);
    let mut held: Option<OwnedSemaphorePermit> = None;
    loop {
        // Take the frame's share of the byte budget before buffering its body.
        if let (Some(budget), None) = (&limits.queued_bytes, &held) {
            if buf.len() >= 4 {
                let size = (&buf[..4]).get_i32();
                if size >= 0 && (size as usize) <= limits.max_frame {
                    match budget.take(size as usize + 4).await {
                        Some(p) => held = Some(p),
                        None => return,
                    }
                }
            }
        }
        let decoder = if authenticated.load(Ordering::Acquire) {
            &after_auth
        } else {
            &before_auth
        };
        let frame = match decoder.decode(&mut buf) {
            Ok(Some(f)) => f,
            Ok(None) => {
                let read_more = tokio::time::timeout(limits.idle_timeout, read.read_buf(&mut buf));
                match read_more.await {
                    Ok(Ok(0)) | Ok(Err(_)) => return,
                    Ok(Ok(_)) => continue,
                    Err(_) if buf.is_empty() && in_flight.load(Ordering::Acquire) == 0 => {
                        tracing::debug!(%peer, "closing: idle for connections.max.idle.ms");
                        return;
                    }
                    Err(_) => continue,
                }
            }
            Err(e) => {
                tracing::debug!(%peer, "closing: {e}");
                return;
            }
        };
        let request = match parse_request(frame) {
            Ok(r) => r,
            Err(e) => {
                tracing::debug!(%peer, "closing on an unreadable request header: {e}");
                return;
            }
        };
        in_flight.fetch_add(1, Ordering::AcqRel);
        let read_at = std::time::Instant::now();
        if tx.send((request, held.take(), read_at)).await.is_err() {
            return;
        }
    }
}

impl<H: Handler> Session<H> {
    /// Handles a connection's requests one at a time, in order, each answered before the
    /// next; on a SASL listener the connection's [`SaslSession`] decides first.
    async fn respond<W: FrameSink>(
        self,
        mut write: W,
        mut rx: mpsc::Receiver<Queued>,
        in_flight: Arc<AtomicUsize>,
        authenticated: Arc<AtomicBool>,
    ) {
        let peer = self.peer;
        let observer = self.limits.observer.clone();
        let mut sasl = self.security.sasl.clone().map(SaslSession::new);
        let mut waiting: std::collections::VecDeque<Answer> = std::collections::VecDeque::new();
        // Until when the connection is muted (a throttled answer); nothing is handled before.
        let mut muted: Option<tokio::time::Instant> = None;
        // The client software its ApiVersions named (KIP-511), for client telemetry.
        let mut software: Option<Arc<ClientSoftware>> = None;
        loop {
            // Write every answer at the front that is known, in order.
            while waiting.front().is_some_and(Answer::ready) {
                let mut a = waiting.pop_front().expect("front");
                a.settle().await;
                if !self
                    .write_answer(&mut write, a, &in_flight, &observer, &mut muted)
                    .await
                {
                    return;
                }
            }
            if let Some(until) = muted.take() {
                let writing = (&mut write, &*in_flight, &observer, &mut muted);
                if !self.while_muted(until, &mut waiting, writing).await {
                    return;
                }
                continue;
            }
            let room = waiting.len() < MAX_PIPELINED_PER_CONNECTION;
            let next = match waiting.front_mut() {
                None => rx.recv().await,
                Some(front) => {
                    tokio::select! {
                        biased;
                        _ = front.settle() => continue,
                        r = rx.recv(), if room => r,
                    }
                }
            };
            let Some((request, permit, read_at)) = next else {
                // The peer stopped sending: finish what was asked.
                let _ = self
                    .flush(&mut write, &mut waiting, &in_flight, &observer, &mut muted)
                    .await;
                return;
            };
            let corr = request.header.correlation_id;
            let mut version = request.header.request_api_version;
            let Some(api) = request.api_key else {
                tracing::debug!(%peer, key = request.header.request_api_key, "closing on an unknown api key");
                return;
            };
            // Only Produce requests are handled while earlier answers wait.
            if api != ApiKey::Produce
                && !self
                    .flush(&mut write, &mut waiting, &in_flight, &observer, &mut muted)
                    .await
            {
                return;
            }
            // An answer just flushed may have muted the connection: this request waits.
            if let Some(until) = muted.take() {
                tokio::time::sleep_until(until).await;
            }
            if api == ApiKey::ApiVersions && !api.supports(version) {
                // KIP-511: a version this build cannot read is answered at version 0.
                version = 0;
            }
            tracing::trace!(%peer, ?api, version, corr, "request");
            if api == ApiKey::ApiVersions && version >= API_VERSIONS_SOFTWARE_VERSION {
                software = client_software(&request).or(software);
            }
            let mut close_after = false;
            let reply = match sasl.as_mut() {
                Some(session) => {
                    let decision = session.on_request(
                        api,
                        version,
                        || request.decode_body().ok(),
                        std::time::Instant::now(),
                    );
                    match decision {
                        Decision::Pass(principal) => {
                            authenticated.store(session.is_authenticated(), Ordering::Release);
                            self.handler
                                .handle(request, self.caller(principal, &software))
                                .await
                        }
                        Decision::Respond(body) => {
                            authenticated.store(session.is_authenticated(), Ordering::Release);
                            Reply::Respond(body)
                        }
                        Decision::Fail(body) => {
                            tracing::info!(%peer, listener = %self.security.name, "failed authentication");
                            tokio::time::sleep(self.security.failed_auth_delay).await;
                            close_after = true;
                            Reply::Respond(body)
                        }
                        Decision::Close(why) => {
                            tracing::info!(%peer, listener = %self.security.name, "closing: {why}");
                            return;
                        }
                    }
                }
                None if matches!(api, ApiKey::SaslHandshake | ApiKey::SaslAuthenticate) => {
                    match request.decode_body() {
                        Ok(body) => Reply::Respond(fjord_protocol::error_response(
                            &body,
                            version,
                            ErrorCode::IllegalSaslState,
                            // Kafka's words: a listener without SASL counts as authenticated.
                            "SaslAuthenticate request received after successful authentication",
                        )),
                        Err(_) => return,
                    }
                }
                None => {
                    self.handler
                        .handle(request, self.caller(self.principal.clone(), &software))
                        .await
                }
            };
            tracing::trace!(%peer, ?api, version, corr, "handled");
            let reply = unmute(reply, &mut muted);
            let reply = match reply {
                Reply::Later(f) => Waiting::Later(tokio::spawn(f)),
                other => Waiting::Ready(other),
            };
            waiting.push_back(Answer {
                api,
                version,
                corr,
                reply,
                permit,
                read_at,
                close_after,
            });
        }
    }

    /// Until `until` (a throttled answer muted the connection): answers still being worked
    /// out are written when they are ready, in order, and no further request is handled.
    /// False when the connection must close.
    async fn while_muted<W: FrameSink>(
        &self,
        until: tokio::time::Instant,
        waiting: &mut std::collections::VecDeque<Answer>,
        (write, in_flight, observer, muted): (
            &mut W,
            &AtomicUsize,
            &Option<Arc<dyn Observer>>,
            &mut Option<tokio::time::Instant>,
        ),
    ) -> bool {
        while tokio::time::Instant::now() < until {
            match waiting.front_mut() {
                Some(front) if !front.ready() => {
                    tokio::select! {
                        _ = front.settle() => {}
                        _ = tokio::time::sleep_until(until) => {}
                    }
                }
                Some(_) => {
                    let mut a = waiting.pop_front().expect("front");
                    a.settle().await;
                    if !self
                        .write_answer(write, a, in_flight, observer, muted)
                        .await
                    {
                        return false;
                    }
                }
                None => tokio::time::sleep_until(until).await,
            }
        }
        true
    }

    /// Waits for and writes every waiting answer, in order; false when the connection must
    /// close.
    async fn flush<W: FrameSink>(
        &self,
        write: &mut W,
        waiting: &mut std::collections::VecDeque<Answer>,
        in_flight: &AtomicUsize,
        observer: &Option<Arc<dyn Observer>>,
        muted: &mut Option<tokio::time::Instant>,
    ) -> bool {
        while let Some(mut a) = waiting.pop_front() {
            a.settle().await;
            if !self
                .write_answer(write, a, in_flight, observer, muted)
                .await
            {
                return false;
            }
        }
        true
    }

    /// Writes one settled answer; false when the connection must close. An answer carrying a
    /// throttle time (a quota violation, KIP-219) mutes the connection that long: `muted` is
    /// when its next request may be handled.
    async fn write_answer<W: FrameSink>(
        &self,
        write: &mut W,
        a: Answer,
        in_flight: &AtomicUsize,
        observer: &Option<Arc<dyn Observer>>,
        muted: &mut Option<tokio::time::Instant>,
    ) -> bool {
        let peer = self.peer;
        let Waiting::Ready(reply) = a.reply else {
            return false;
        };
        let mut reply = unmute(reply, muted);
        if let Reply::Respond(body) = &mut reply {
            // Produce and Fetch answers are built with null messages; the walk stays off
            // the hot path.
            if !matches!(a.api, ApiKey::Produce | ApiKey::Fetch) {
                fjord_protocol::nulls::null_empty_messages(body, a.version);
            }
            let throttle = body.throttle_time_ms();
            if throttle > 0 {
                let until = tokio::time::Instant::now()
                    + std::time::Duration::from_millis(throttle.unsigned_abs().into());
                *muted = Some(muted.map_or(until, |m| m.max(until)));
            }
        }
        let mut errors = Vec::new();
        if let (Some(_), Reply::Respond(body)) = (observer, &reply) {
            body.each_error_code(&mut |c| {
                if c != 0 {
                    errors.push(c);
                }
            });
        }
        match reply {
            Reply::Respond(body) => {
                let chunks = match encode_response(a.corr, a.version, &body) {
                    Ok(c) => c,
                    Err(e) => {
                        tracing::warn!(%peer, api = ?a.api, version = a.version, "could not encode a response: {e}");
                        return false;
                    }
                };
                if crate::write_chunks(write, &chunks).await.is_err() {
                    return false;
                }
            }
            Reply::Nothing => {}
            Reply::Close | Reply::Later(_) | Reply::Muting(..) => return false,
        }
        if let Some(o) = observer {
            o.answered(a.api, &errors, a.read_at.elapsed());
        }
        drop(a.permit);
        in_flight.fetch_sub(1, Ordering::AcqRel);
        !a.close_after
    }

    fn caller(&self, principal: Arc<Principal>, software: &Option<Arc<ClientSoftware>>) -> Caller {
        Caller {
            peer: self.peer,
            principal,
            listener: self.security.name.clone(),
            connection: self.id,
            protocol: self.security.protocol,
            software: software.clone(),
        }
    }
}
