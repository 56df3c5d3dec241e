//! Outbound traffic: one task per peer on the tokio runtime, holding a client connection
//! (reconnecting with backoff), turning the core's requests into Kafka requests and the
//! answers back into events for the Raft thread. A request that cannot be sent is dropped:
//! the core's timers send it again. A connection that closes under a request, or cannot be
//! made, is reported to the core (a follower of that peer asks for pre-votes at once).

use super::handle::Event;
use super::wire::{self, Pending};
use fjord_net::client::Client;
use fjord_net::security::ClientSecurity;
use fjord_protocol::RequestBody;
use fjord_raft::control::Endpoint;
use fjord_raft::types::{Message, NodeId};
use std::collections::HashMap;
use std::sync::mpsc;
use std::sync::Arc;
use std::time::{Duration, Instant};
use tokio::sync::mpsc as tmpsc;

/// The first reconnect backoff (Kafka's `reconnect.backoff.ms`).
const RECONNECT_BACKOFF: Duration = Duration::from_millis(50);
/// The longest reconnect backoff (Kafka's `reconnect.backoff.max.ms`).
const RECONNECT_BACKOFF_MAX: Duration = Duration::from_millis(1_000);

struct Peer {
    addr: String,
    tx: tmpsc::UnboundedSender<(RequestBody, Pending)>,
}

/// The peers this node talks to.
pub(super) struct Peers {
    runtime: tokio::runtime::Handle,
    events: mpsc::Sender<Event>,
    sender: wire::Sender,
    timeout: Duration,
    peers: HashMap<NodeId, Peer>,
    security: Arc<ClientSecurity>,
}

impl Peers {
    /// Peers whose tasks run on `runtime` and report to `events`.
    pub(super) fn new(
        runtime: tokio::runtime::Handle,
        events: mpsc::Sender<Event>,
        sender: wire::Sender,
        timeout: Duration,
        security: ClientSecurity,
    ) -> Peers {
        Peers {
            runtime,
            events,
            sender,
            timeout,
            peers: HashMap::new(),
            security: Arc::new(security),
        }
    }

    /// Sends a request of the driver's own (no answer expected) to `to` at `endpoint`.
    pub(super) fn send_unanswered(
        &mut self,
        to: NodeId,
        endpoint: Option<&Endpoint>,
        body: RequestBody,
    ) -> bool {
        let Some(endpoint) = endpoint else {
            return false;
        };
        self.enqueue(to, endpoint, body, Pending::Unanswered)
    }

    /// Sends a core request to `to` at `endpoint`; returns false when it was dropped.
    pub(super) fn send(
        &mut self,
        to: NodeId,
        endpoint: Option<&Endpoint>,
        message: &Message,
    ) -> bool {
        let Some(endpoint) = endpoint else {
            tracing::trace!(to, "no endpoint known; dropping {message:?}");
            return false;
        };
        let Some((body, pending)) = wire::request_of(&self.sender, to, message) else {
            return false;
        };
        self.enqueue(to, endpoint, body, pending)
    }

    fn enqueue(
        &mut self,
        to: NodeId,
        endpoint: &Endpoint,
        body: RequestBody,
        pending: Pending,
    ) -> bool {
        let addr = format!("{}:{}", endpoint.host, endpoint.port);
        let stale = self
            .peers
            .get(&to)
            .is_none_or(|p| p.addr != addr || p.tx.is_closed());
        if stale {
            let (tx, rx) = tmpsc::unbounded_channel();
            self.runtime.spawn(run(
                to,
                addr.clone(),
                rx,
                self.events.clone(),
                (self.timeout, self.security.clone()),
            ));
            self.peers.insert(to, Peer { addr, tx });
        }
        self.peers
            .get(&to)
            .is_some_and(|p| p.tx.send((body, pending)).is_ok())
    }
}

async fn run(
    id: NodeId,
    addr: String,
    mut rx: tmpsc::UnboundedReceiver<(RequestBody, Pending)>,
    events: mpsc::Sender<Event>,
    (timeout, security): (Duration, Arc<ClientSecurity>),
) {
    let mut client: Option<Client> = None;
    let mut backoff = RECONNECT_BACKOFF;
    let mut retry_at: Option<Instant> = None;
    while let Some((body, pending)) = rx.recv().await {
        if !client.as_ref().is_some_and(Client::is_open) {
            if retry_at.is_some_and(|t| Instant::now() < t) {
                continue;
            }
            match Client::connect_with(&addr, timeout, fjord_net::client::CLIENT_ID, &security)
                .await
            {
                Ok(c) => {
                    client = Some(c);
                    backoff = RECONNECT_BACKOFF;
                    retry_at = None;
                }
                Err(e) => {
                    tracing::debug!(peer = id, "{e}");
                    let _ = events.send(Event::PeerClosed { peer: id });
                    retry_at = Some(Instant::now() + backoff);
                    backoff = (backoff * 2).min(RECONNECT_BACKOFF_MAX);
                    continue;
                }
            }
        }
        let Some(c) = client.clone() else { continue };
        let events = events.clone();
        tokio::spawn(async move {
            let api = body.api_key();
            match c.call(body, wire::version_of(api), timeout).await {
                Ok(response) => match wire::message_of_response(pending, response) {
                    Ok((message, learned)) => {
                        for (node, endpoint) in learned {
                            let _ = events.send(Event::Learned { id: node, endpoint });
                        }
                        if let Some(message) = message {
                            let _ = events.send(Event::PeerResponse { from: id, message });
                        }
                    }
                    Err(e) => tracing::debug!(peer = id, "{e:?}"),
                },
                Err(e) => {
                    tracing::debug!(peer = id, "{e}");
                    // The connection closed under the request (the peer's process died, and
                    // its kernel closed the socket): the core may start an election at once.
                    if matches!(e, fjord_net::client::CallError::Connection { .. }) {
                        let _ = events.send(Event::PeerClosed { peer: id });
                    }
                }
            }
        });
    }
}
