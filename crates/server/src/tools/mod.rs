//! Operator tools named after Kafka's scripts, talking to the cluster over the wire.

pub mod metadata_quorum;

use fjord_net::client::Client;
use fjord_protocol::{RequestBody, ResponseBody};
use std::time::Duration;

/// How long a tool waits for a connection or an answer.
pub const TOOL_TIMEOUT: Duration = Duration::from_secs(30);

/// Connects and calls once at the newest version both sides know (the request's schema max
/// capped by `max_version`).
pub async fn call_once(
    addr: &str,
    body: RequestBody,
    version: i16,
) -> Result<ResponseBody, String> {
    let c = Client::connect(addr, TOOL_TIMEOUT)
        .await
        .map_err(|e| e.to_string())?;
    c.call(body, version, TOOL_TIMEOUT)
        .await
        .map_err(|e| e.to_string())
}
