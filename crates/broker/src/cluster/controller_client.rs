//! Reaching the active controller from any node: a watch of its id and address (the server
//! derives it from the quorum state and the voter set); one connection is kept and replaced
//! when the controller moves.

use fjord_net::client::{CallError, Client};
use fjord_protocol::{ErrorCode, RequestBody, ResponseBody};
use std::time::Duration;
use tokio::sync::{watch, Mutex};

/// How long a forwarded or lifecycle request may take.
pub const CONTROLLER_REQUEST_TIMEOUT: Duration = Duration::from_secs(30);

/// Why a request to the active controller failed.
#[derive(Debug, thiserror::Error)]
pub enum ForwardError {
    /// No active controller is known yet.
    #[error("no active controller is known")]
    NoController,
    /// The call failed.
    #[error(transparent)]
    Call(#[from] CallError),
    /// Another controller became active (or none is) while the request was in flight to
    /// `from`: it is abandoned, as Kafka's channel to the controller drops its connection
    /// when the controller moves, rather than waiting out the request timeout on a node that
    /// may be paused. It may have been applied.
    #[error(
        "controller {from} stopped being the active controller while the request was in flight"
    )]
    Moved {
        /// The controller the request went to.
        from: i32,
    },
}

impl ForwardError {
    /// The Kafka error a client gets: NOT_CONTROLLER when the request never reached a
    /// controller (retry elsewhere), REQUEST_TIMED_OUT when it may have been applied (a
    /// retry of a create could then find it done).
    pub fn code(&self) -> ErrorCode {
        match self {
            ForwardError::NoController => ErrorCode::NotController,
            ForwardError::Call(CallError::Connection { .. }) => ErrorCode::NotController,
            ForwardError::Call(CallError::Timeout { .. }) | ForwardError::Moved { .. } => {
                ErrorCode::RequestTimedOut
            }
            ForwardError::Call(CallError::BadResponse { .. })
            | ForwardError::Call(CallError::Authentication { .. }) => ErrorCode::UnknownServerError,
        }
    }
}

/// The active controller: its node id and `host:port`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ActiveController {
    /// Its node id.
    pub id: i32,
    /// `host:port` of its controller listener (an IPv6 host in brackets).
    pub addr: String,
}

/// A client of whichever controller is active.
#[derive(Debug)]
pub struct ControllerClient {
    info: watch::Receiver<Option<ActiveController>>,
    conn: Mutex<Option<(i32, Client)>>,
    security: fjord_net::security::ClientSecurity,
}

impl ControllerClient {
    /// A client following `info`.
    pub fn new(info: watch::Receiver<Option<ActiveController>>) -> ControllerClient {
        ControllerClient::with_security(info, fjord_net::security::ClientSecurity::plaintext())
    }

    /// A client following `info` that connects in the controller listener's security
    /// protocol.
    pub fn with_security(
        info: watch::Receiver<Option<ActiveController>>,
        security: fjord_net::security::ClientSecurity,
    ) -> ControllerClient {
        ControllerClient {
            info,
            conn: Mutex::new(None),
            security,
        }
    }

    /// Returns once the connection open now closes; never while none is open (a closed one
    /// is not waited on again).
    pub async fn connection_closed(&self) {
        let open = self
            .conn
            .lock()
            .await
            .as_ref()
            .map(|(_, c)| c.clone())
            .filter(Client::is_open);
        match open {
            Some(c) => c.closed().await,
            None => std::future::pending().await,
        }
    }

    /// The active controller's id and address, if known.
    pub fn active(&self) -> Option<(i32, String)> {
        self.info.borrow().as_ref().map(|a| (a.id, a.addr.clone()))
    }

    /// Sends `body` at `version` to the active controller.
    pub async fn call(
        &self,
        body: RequestBody,
        version: i16,
    ) -> Result<ResponseBody, ForwardError> {
        let (id, addr) = self.active().ok_or(ForwardError::NoController)?;
        let client = {
            let mut conn = self.conn.lock().await;
            match &*conn {
                Some((cid, c)) if *cid == id && c.is_open() => c.clone(),
                _ => {
                    let c = Client::connect_with(
                        &addr,
                        Duration::from_secs(5),
                        fjord_net::client::CLIENT_ID,
                        &self.security,
                    )
                    .await?;
                    *conn = Some((id, c.clone()));
                    c
                }
            }
        };
        // A request in flight to a controller that is no longer active ends at once (found by
        // the fault tests: heartbeats waiting 30 s on a paused old controller let the new one
        // fence every live broker).
        let mut info = self.info.clone();
        let moved = async move {
            loop {
                if info.borrow_and_update().as_ref().map(|a| a.id) != Some(id) {
                    return;
                }
                if info.changed().await.is_err() {
                    std::future::pending::<()>().await;
                }
            }
        };
        tokio::select! {
            r = client.call(body, version, CONTROLLER_REQUEST_TIMEOUT) => r.map_err(ForwardError::from),
            () = moved => {
                // The connection to the old controller is not kept.
                let mut conn = self.conn.lock().await;
                if conn.as_ref().is_some_and(|(cid, _)| *cid == id) {
                    *conn = None;
                }
                Err(ForwardError::Moved { from: id })
            }
        }
    }
}

impl ControllerClient {
    /// [`ControllerClient::call`] for a client's forwarded request: while no controller can
    /// be reached (none known, the connection refused or closed, or the node answers
    /// NOT_CONTROLLER because it no longer leads), the request is held and sent again to
    /// the next active controller, for up to `wait`, as Kafka's forwarding manager holds it
    /// until a controller is available. A quorum failover then costs the client tens of
    /// milliseconds instead of its own retries' backoff.
    pub async fn call_waiting(
        &self,
        body: RequestBody,
        version: i16,
        wait: Duration,
    ) -> Result<ResponseBody, ForwardError> {
        let deadline = tokio::time::Instant::now() + wait;
        let mut info = self.info.clone();
        loop {
            let tried = self.active().map(|(id, _)| id);
            let result = self.call(body.clone(), version).await;
            let unreachable = match &result {
                Err(ForwardError::NoController)
                | Err(ForwardError::Call(CallError::Connection { .. })) => true,
                Ok(ResponseBody::Envelope(r)) => r.error_code == ErrorCode::NotController.code(),
                _ => false,
            };
            let now = tokio::time::Instant::now();
            if !unreachable || now >= deadline {
                return result;
            }
            // Until another controller is known, or a short while (it may be the same one,
            // not yet active).
            let moved = async {
                while info.changed().await.is_ok() {
                    if info.borrow().as_ref().map(|a| a.id) != tried {
                        return;
                    }
                }
                std::future::pending::<()>().await;
            };
            let _ = tokio::time::timeout_at(deadline.min(now + FORWARD_RETRY), moved).await;
        }
    }
}

/// The longest a held forwarded request waits before it is tried again.
const FORWARD_RETRY: Duration = Duration::from_millis(100);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_forwarded_request_that_may_have_been_applied_is_a_timeout_not_not_controller() {
        let timeout = ForwardError::Call(CallError::Timeout {
            api: fjord_protocol::ApiKey::CreateTopics,
            addr: "c:9093".into(),
            timeout_ms: 30_000,
        });
        assert_eq!(timeout.code(), ErrorCode::RequestTimedOut);
        assert_eq!(ForwardError::NoController.code(), ErrorCode::NotController);
        let refused = ForwardError::Call(CallError::Connection {
            addr: "c:9093".into(),
            message: "connection refused".into(),
        });
        assert_eq!(refused.code(), ErrorCode::NotController);
        assert_eq!(
            ForwardError::Moved { from: 1 }.code(),
            ErrorCode::RequestTimedOut,
            "a request abandoned in flight may have been applied"
        );
    }

    /// A controller that accepts connections and never answers (a paused process): a
    /// request in flight to it ends as soon as another controller is active, not after the
    /// request timeout, and the next call goes to the new one.
    #[tokio::test]
    async fn a_request_in_flight_to_a_controller_that_stopped_leading_ends_at_once() {
        let paused = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = paused.local_addr().unwrap().to_string();
        let held = tokio::spawn(async move {
            let mut conns = Vec::new();
            loop {
                let (c, _) = paused.accept().await.unwrap();
                conns.push(c);
            }
        });
        let (tx, rx) = watch::channel(Some(ActiveController { id: 1, addr }));
        let client = std::sync::Arc::new(ControllerClient::new(rx));
        let c = client.clone();
        let call = tokio::spawn(async move {
            c.call(
                RequestBody::ApiVersions(Default::default()),
                fjord_protocol::ApiKey::ApiVersions.max_version(),
            )
            .await
        });
        // Once the call is in flight, another controller becomes active.
        tokio::time::sleep(Duration::from_millis(200)).await;
        assert!(!call.is_finished(), "the paused controller never answers");
        let started = tokio::time::Instant::now();
        tx.send_replace(Some(ActiveController {
            id: 2,
            addr: "127.0.0.1:1".into(),
        }));
        let r = tokio::time::timeout(Duration::from_secs(5), call)
            .await
            .expect("ended well before the 30 s request timeout")
            .unwrap();
        assert!(matches!(r, Err(ForwardError::Moved { from: 1 })), "{r:?}");
        assert!(started.elapsed() < Duration::from_secs(1));
        held.abort();
    }
}
