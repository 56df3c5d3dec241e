//! Reaching the active controller from any node: its id comes from the quorum state, its
//! address from the voter set; one connection is kept and replaced when the controller moves.

use fjord_protocol::{RequestBody, ResponseBody};
use fjord_raft::driver::QuorumInfo;
use fjord_raft::net::client::Client;
use std::time::Duration;
use tokio::sync::{watch, Mutex};

/// How long a forwarded or lifecycle request may take.
pub const CONTROLLER_REQUEST_TIMEOUT: Duration = Duration::from_secs(30);

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
        Some((leader, format!("{}:{}", e.host, e.port)))
    }

    /// Sends `body` at `version` to the active controller.
    pub async fn call(&self, body: RequestBody, version: i16) -> Result<ResponseBody, String> {
        let (id, addr) = self
            .active()
            .ok_or_else(|| "no active controller is known".to_string())?;
        let client = {
            let mut conn = self.conn.lock().await;
            match &*conn {
                Some((cid, c)) if *cid == id && c.is_open() => c.clone(),
                _ => {
                    let c = Client::connect(&addr, Duration::from_secs(5))
                        .await
                        .map_err(|e| e.to_string())?;
                    *conn = Some((id, c.clone()));
                    c
                }
            }
        };
        client
            .call(body, version, CONTROLLER_REQUEST_TIMEOUT)
            .await
            .map_err(|e| e.to_string())
    }
}
