//! Connections from this broker to other brokers on the inter-broker listener, one kept open
//! per broker and shared by the tasks that talk to brokers (transaction markers and their
//! verification, share-partition state). A call that fails drops its connection; the next
//! call dials again.

use fjord_metadata::MetadataImage;
use fjord_net::client::Client;
use fjord_protocol::{RequestBody, ResponseBody};
use std::collections::HashMap;
use std::time::Duration;

/// How long dialling a broker may take.
const CONNECT_TIMEOUT: Duration = Duration::from_secs(10);

/// The connections to other brokers.
pub struct Peers {
    /// The listener brokers reach each other on.
    pub listener: String,
    /// How brokers authenticate on it.
    pub security: fjord_net::security::ClientSecurity,
    clients: tokio::sync::Mutex<HashMap<i32, Client>>,
}

impl std::fmt::Debug for Peers {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Peers")
            .field("listener", &self.listener)
            .finish_non_exhaustive()
    }
}

impl Peers {
    /// No connections yet.
    pub fn new(listener: String, security: fjord_net::security::ClientSecurity) -> Peers {
        Peers {
            listener,
            security,
            clients: tokio::sync::Mutex::new(HashMap::new()),
        }
    }

    /// A connection to broker `id` (None: unknown, no such listener, or unreachable).
    pub async fn client(&self, image: &MetadataImage, id: i32) -> Option<Client> {
        let mut clients = self.clients.lock().await;
        if let Some(c) = clients.get(&id).filter(|c| c.is_open()) {
            return Some(c.clone());
        }
        let b = image.cluster.brokers.get(&id)?;
        let l = crate::api::metadata::endpoint_on(b, &self.listener)?;
        let addr = if l.host.contains(':') {
            format!("[{}]:{}", l.host, l.port)
        } else {
            format!("{}:{}", l.host, l.port)
        };
        let c = Client::connect_with(
            &addr,
            CONNECT_TIMEOUT,
            fjord_net::client::CLIENT_ID,
            &self.security,
        )
        .await
        .map_err(|e| tracing::debug!(broker = id, "{e}"))
        .ok()?;
        clients.insert(id, c.clone());
        Some(c)
    }

    /// Forgets the connection to broker `id` (a call on it failed).
    pub async fn forget(&self, id: i32) {
        self.clients.lock().await.remove(&id);
    }

    /// Sends `body` at `version` to broker `id` and waits up to `timeout`: None when it
    /// cannot be reached or the call fails (the connection is then dropped).
    pub async fn call(
        &self,
        image: &MetadataImage,
        id: i32,
        body: RequestBody,
        version: i16,
        timeout: Duration,
    ) -> Option<ResponseBody> {
        let client = self.client(image, id).await?;
        match client.call(body, version, timeout).await {
            Ok(r) => Some(r),
            Err(e) => {
                tracing::debug!(broker = id, "calling a broker: {e}");
                self.forget(id).await;
                None
            }
        }
    }
}
