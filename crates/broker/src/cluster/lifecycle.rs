//! A node's standing with the active controller: a broker registers (its epoch is the offset
//! of its registration), heartbeats (reporting how far it has applied the metadata log, so the
//! controller unfences it once caught up), registers again when its epoch goes stale, and on
//! shutdown asks for a controlled shutdown first. Every controller registers itself too, and
//! again whenever its registration disappears from the metadata.

use crate::cluster::controller_client::ControllerClient;
use crate::cluster::view::View;
use fjord_protocol::generated::{
    broker_heartbeat_request::BrokerHeartbeatRequest,
    broker_registration_request::{self as brr, BrokerRegistrationRequest},
    controller_registration_request::{self as crr, ControllerRegistrationRequest},
};
use fjord_protocol::{ErrorCode, RequestBody, ResponseBody, Uuid};
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::{watch, Mutex};

/// A listener to register.
#[derive(Debug, Clone)]
pub struct Advertised {
    /// Its name.
    pub name: String,
    /// The host clients reach.
    pub host: String,
    /// The port.
    pub port: u16,
}

/// What a broker registers with.
#[derive(Debug, Clone)]
pub struct BrokerIdentity {
    /// The broker epoch this broker had when it last shut down cleanly (from the log dir's
    /// clean-shutdown marker; -1 after a crash): the controller keeps it in the partitions'
    /// ELRs only if it matches (KIP-966).
    pub previous_broker_epoch: i64,
    /// `node.id`.
    pub node_id: i32,
    /// The cluster id.
    pub cluster_id: String,
    /// This process's incarnation.
    pub incarnation: Uuid,
    /// Advertised listeners.
    pub listeners: Vec<Advertised>,
    /// `broker.rack`.
    pub rack: Option<String>,
    /// The directory ids of its log dirs.
    pub log_dirs: Vec<Uuid>,
    /// Which of them are offline, reported in every heartbeat (KIP-858).
    pub dir_health: Arc<crate::replica::log_dirs::DirHealth>,
    /// `broker.heartbeat.interval.ms`.
    pub heartbeat_interval: Duration,
}

/// The broker's registration state, shared with shutdown.
#[derive(Debug, Default)]
pub struct BrokerState {
    /// The current broker epoch, once registered.
    pub epoch: Option<i64>,
    /// Whether the controller says it is fenced.
    pub fenced: bool,
    /// Set when the controlled shutdown starts: the heartbeat loop stops, so only the
    /// shutdown's heartbeats (asking to shut down) reach the controller.
    pub shutting_down: bool,
}

impl BrokerState {
    /// The state before registration: no epoch, fenced.
    pub fn unregistered() -> Arc<Mutex<BrokerState>> {
        Arc::new(Mutex::new(BrokerState {
            epoch: None,
            fenced: true,
            shutting_down: false,
        }))
    }
}

/// Runs the broker lifecycle, keeping `state` (from [`BrokerState::unregistered`]) current.
pub fn spawn_broker(
    id: BrokerIdentity,
    client: Arc<ControllerClient>,
    view: watch::Receiver<View>,
    state: Arc<Mutex<BrokerState>>,
) {
    let s = state.clone();
    tokio::spawn(async move {
        let mut previous_epoch = id.previous_broker_epoch;
        let mut failures = FailureLog::default();
        loop {
            let (epoch, stop) = {
                let st = s.lock().await;
                (st.epoch, st.shutting_down)
            };
            if stop {
                return;
            }
            let wait = match epoch {
                None => match register(&id, &client, previous_epoch).await {
                    Ok(e) => {
                        failures = FailureLog::default();
                        tracing::info!(broker_epoch = e, "registered with the controller");
                        previous_epoch = e;
                        let mut st = s.lock().await;
                        st.epoch = Some(e);
                        st.fenced = true;
                        Duration::from_millis(50)
                    }
                    Err(e) => {
                        failures.report("broker registration", &e);
                        Duration::from_millis(500)
                    }
                },
                Some(e) => {
                    let applied = view.borrow().applied_up_to - 1;
                    match heartbeat(&id, &client, e, applied, false).await {
                        Ok((fenced, _)) => {
                            // A failure said later counts from its own start, not from one
                            // before this success (found by the fault tests: a node said
                            // "failing for 163s" while heartbeating fine in between).
                            failures = FailureLog::default();
                            let mut st = s.lock().await;
                            if st.fenced && !fenced {
                                tracing::info!("unfenced by the controller");
                            }
                            st.fenced = fenced;
                            if fenced {
                                Duration::from_millis(200).min(id.heartbeat_interval)
                            } else {
                                id.heartbeat_interval
                            }
                        }
                        Err(HeartbeatError::Stale) => {
                            s.lock().await.epoch = None;
                            Duration::from_millis(50)
                        }
                        Err(HeartbeatError::Other(e)) => {
                            failures.report("broker heartbeat", &e);
                            Duration::from_millis(500)
                        }
                    }
                }
            };
            // A closed connection to the controller is replaced at once with a heartbeat:
            // the controller fences a broker whose heartbeat connection closed unless it
            // hears from it within `broker.connection.loss.fence.ms`.
            tokio::select! {
                _ = tokio::time::sleep(wait) => {}
                _ = client.connection_closed() => {
                    tracing::info!("the connection to the controller closed; heartbeating again at once");
                }
            }
        }
    });
}

/// How long a failure may last before it is said at WARN, and how often it is said again.
const REPEAT_WARNING: Duration = Duration::from_secs(10);

/// Says a failure that persists at WARN (with what it was) once it has lasted
/// [`REPEAT_WARNING`], then at most once per [`REPEAT_WARNING`], so a node that cannot reach
/// its controller says why without flooding, and a start-up race says nothing.
#[derive(Debug, Default)]
struct FailureLog {
    first: Option<tokio::time::Instant>,
    last_warned: Option<tokio::time::Instant>,
}

impl FailureLog {
    fn report(&mut self, what: &str, error: &str) {
        match self.due() {
            Some(secs) => tracing::warn!("{what} failing for {}s (retrying): {error}", secs),
            None => tracing::debug!("{what} failed (retrying): {error}"),
        }
    }

    /// Whether a failure now deserves its WARN line, and for how many seconds it has lasted.
    fn due(&mut self) -> Option<u64> {
        let now = tokio::time::Instant::now();
        let first = *self.first.get_or_insert(now);
        let due = now.duration_since(first) >= REPEAT_WARNING
            && self
                .last_warned
                .is_none_or(|t| now.duration_since(t) >= REPEAT_WARNING);
        due.then(|| {
            self.last_warned = Some(now);
            now.duration_since(first).as_secs()
        })
    }
}

async fn register(
    id: &BrokerIdentity,
    client: &ControllerClient,
    previous_epoch: i64,
) -> Result<i64, String> {
    let body = RequestBody::BrokerRegistration(BrokerRegistrationRequest {
        broker_id: id.node_id,
        cluster_id: id.cluster_id.clone(),
        incarnation_id: id.incarnation,
        listeners: id
            .listeners
            .iter()
            .map(|l| brr::Listener {
                name: l.name.clone(),
                host: l.host.clone(),
                port: l.port,
                security_protocol: 0,
                ..Default::default()
            })
            .collect(),
        features: fjord_metadata::version::supported_features()
            .into_iter()
            .map(|(name, min, max)| brr::Feature {
                name,
                min_supported_version: min,
                max_supported_version: max,
                ..Default::default()
            })
            .collect(),
        rack: id.rack.clone(),
        log_dirs: id.log_dirs.clone(),
        previous_broker_epoch: previous_epoch,
        ..Default::default()
    });
    match client.call(body, 4).await.map_err(|e| e.to_string())? {
        ResponseBody::BrokerRegistration(r) if r.error_code == 0 => Ok(r.broker_epoch),
        ResponseBody::BrokerRegistration(r) => {
            Err(format!("refused: {:?}", ErrorCode::from_code(r.error_code)))
        }
        other => Err(format!("unexpected {:?}", other.api_key())),
    }
}

/// Why a heartbeat failed.
#[derive(Debug)]
pub enum HeartbeatError {
    /// The registration is gone or superseded: register again.
    Stale,
    /// Anything else (no controller, a timeout): try again.
    Other(String),
}

/// One heartbeat: (fenced, should shut down).
pub async fn heartbeat(
    id: &BrokerIdentity,
    client: &ControllerClient,
    epoch: i64,
    applied: i64,
    want_shut_down: bool,
) -> Result<(bool, bool), HeartbeatError> {
    let body = RequestBody::BrokerHeartbeat(BrokerHeartbeatRequest {
        broker_id: id.node_id,
        broker_epoch: epoch,
        current_metadata_offset: applied,
        want_shut_down,
        offline_log_dirs: id.dir_health.offline(),
        ..Default::default()
    });
    match client
        .call(body, 1)
        .await
        .map_err(|e| HeartbeatError::Other(e.to_string()))?
    {
        ResponseBody::BrokerHeartbeat(r) => match ErrorCode::from_code(r.error_code) {
            Some(ErrorCode::None) => Ok((r.is_fenced, r.should_shut_down)),
            Some(ErrorCode::StaleBrokerEpoch | ErrorCode::BrokerIdNotRegistered) => {
                Err(HeartbeatError::Stale)
            }
            other => Err(HeartbeatError::Other(format!("{other:?}"))),
        },
        other => Err(HeartbeatError::Other(format!(
            "unexpected {:?}",
            other.api_key()
        ))),
    }
}

/// Controlled shutdown: heartbeats asking to shut down until the controller agrees (it moved
/// this broker's leaderships away) or `timeout` passes.
pub async fn controlled_shutdown(
    id: &BrokerIdentity,
    client: &ControllerClient,
    state: &Mutex<BrokerState>,
    view: &watch::Receiver<View>,
    timeout: Duration,
) {
    let epoch = {
        let mut st = state.lock().await;
        st.shutting_down = true;
        st.epoch
    };
    let Some(epoch) = epoch else {
        return;
    };
    let deadline = tokio::time::Instant::now() + timeout;
    while tokio::time::Instant::now() < deadline {
        let applied = view.borrow().applied_up_to - 1;
        match heartbeat(id, client, epoch, applied, true).await {
            Ok((_, true)) => {
                tracing::info!("controlled shutdown complete");
                return;
            }
            Ok(_) | Err(_) => tokio::time::sleep(Duration::from_millis(100)).await,
        }
    }
    tracing::warn!("controlled shutdown did not complete in {timeout:?}");
}

/// What a controller registers with.
#[derive(Debug, Clone)]
pub struct ControllerIdentity {
    /// `node.id`.
    pub node_id: i32,
    /// This process's incarnation.
    pub incarnation: Uuid,
    /// Its controller listener.
    pub listener: Advertised,
}

/// Keeps this controller registered: registers whenever the metadata has no registration of
/// this incarnation.
pub fn spawn_controller_registration(
    id: ControllerIdentity,
    client: Arc<ControllerClient>,
    mut view: watch::Receiver<View>,
) {
    tokio::spawn(async move {
        loop {
            let registered = view
                .borrow()
                .image
                .cluster
                .controllers
                .get(&id.node_id)
                .is_some_and(|c| c.incarnation_id == id.incarnation);
            if registered {
                if view.changed().await.is_err() {
                    return;
                }
                continue;
            }
            let body = RequestBody::ControllerRegistration(ControllerRegistrationRequest {
                controller_id: id.node_id,
                incarnation_id: id.incarnation,
                listeners: vec![crr::Listener {
                    name: id.listener.name.clone(),
                    host: id.listener.host.clone(),
                    port: id.listener.port,
                    security_protocol: 0,
                    ..Default::default()
                }],
                features: fjord_metadata::version::supported_features()
                    .into_iter()
                    .map(|(name, min, max)| crr::Feature {
                        name,
                        min_supported_version: min,
                        max_supported_version: max,
                        ..Default::default()
                    })
                    .collect(),
                ..Default::default()
            });
            match client.call(body, 0).await {
                Ok(ResponseBody::ControllerRegistration(r)) if r.error_code == 0 => {
                    tracing::info!("registered as a controller");
                    // Wait for it to show in the metadata before checking again.
                    let _ = tokio::time::timeout(Duration::from_secs(5), view.changed()).await;
                }
                Ok(_) | Err(_) => tokio::time::sleep(Duration::from_millis(500)).await,
            }
        }
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    /// What the heartbeat loop does: `report` on a failure, a fresh log on a success.
    #[tokio::test(start_paused = true)]
    async fn a_failure_is_said_once_it_lasts_and_counts_from_its_own_start() {
        let step = |s| tokio::time::advance(Duration::from_secs(s));
        let mut log = FailureLog::default();
        assert_eq!(log.due(), None, "a start-up race says nothing");
        step(5).await;
        assert_eq!(log.due(), None);
        step(6).await;
        assert_eq!(log.due(), Some(11));
        step(2).await;
        assert_eq!(log.due(), None, "not again within 10 s");
        // A success in between: the next failure is a new one.
        log = FailureLog::default();
        step(100).await;
        assert_eq!(log.due(), None);
        step(10).await;
        assert_eq!(log.due(), Some(10));
    }
}
