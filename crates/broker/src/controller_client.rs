//! Reaching the active controller from any node: its id comes from the quorum state, its
//! address from the voter set; one connection is kept and replaced when the controller moves.

use fjord_net::client::{CallError, Client};
use fjord_protocol::{ErrorCode, RequestBody, ResponseBody};
use fjord_raft::driver::QuorumInfo;
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
}

impl ForwardError {
    /// The Kafka error a client gets: NOT_CONTROLLER when the request never reached a
    /// controller (retry elsewhere), REQUEST_TIMED_OUT when it may have been applied (a
    /// retry of a create could then find it done).
    pub fn code(&self) -> ErrorCode {
        match self {
            ForwardError::NoController => ErrorCode::NotController,
            ForwardError::Call(CallError::Connection { .. }) => ErrorCode::NotController,
            ForwardError::Call(CallError::Timeout { .. }) => ErrorCode::RequestTimedOut,
            ForwardError::Call(CallError::BadResponse { .. }) => ErrorCode::UnknownServerError,
        }
    }
}

/// A client of whichever controller is active.
#[derive(Debug)]
pub struct ControllerClient {
    info: watch::Receiver<QuorumInfo>,
    conn: Mutex<Option<(i32, Client)>>,
}

impl ControllerClient {
    /// A client following `info`.
    pub fn new(info: watch::Receiver<QuorumInfo>) -> ControllerClient {
        ControllerClient {
            info,
            conn: Mutex::new(None),
        }
    }

    /// The active controller's address, if known.
    pub fn active(&self) -> Option<(i32, String)> {
        let info = self.info.borrow();
        let leader = info.leader?;
        let e = info.voter_set.get(&leader)?.endpoints.first()?;
        let addr = if e.host.contains(':') {
            format!("[{}]:{}", e.host, e.port)
        } else {
            format!("{}:{}", e.host, e.port)
        };
        Some((leader, addr))
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
                    let c = Client::connect(&addr, Duration::from_secs(5)).await?;
                    *conn = Some((id, c.clone()));
                    c
                }
            }
        };
        client
            .call(body, version, CONTROLLER_REQUEST_TIMEOUT)
            .await
            .map_err(ForwardError::from)
    }
}
