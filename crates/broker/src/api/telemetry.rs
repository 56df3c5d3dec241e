//! Client telemetry (KIP-714) on a broker listener: GetTelemetrySubscriptions and
//! PushTelemetry answered by the node's [`fjord_telemetry::Manager`], its subscriptions kept
//! in step with the image's `CLIENT_METRICS` resources, and a push's payload decoded outside
//! the manager's lock. The manager is the node's only receiver: its series are served on
//! `GET /metrics`.

use fjord_metadata::client_metrics::CLIENT_METRICS;
use fjord_metadata::image::{ConfigsImage, MetadataImage};
use fjord_net::principal::Caller;
use fjord_protocol::generated::{
    get_telemetry_subscriptions_request::GetTelemetrySubscriptionsRequest,
    get_telemetry_subscriptions_response::GetTelemetrySubscriptionsResponse,
    push_telemetry_request::PushTelemetryRequest, push_telemetry_response::PushTelemetryResponse,
};
use fjord_protocol::header::RequestFrame;
use fjord_telemetry::manager::{decode, Manager, Settings};
use fjord_telemetry::subscription::{ClientAttributes, Subscription};
use fjord_telemetry::Client;
use std::sync::{Arc, Mutex, MutexGuard};

/// The node's client telemetry: the manager and the configs its subscriptions were read
/// from.
#[derive(Debug)]
pub struct ClientTelemetry {
    state: Mutex<State>,
}

#[derive(Debug)]
struct State {
    manager: Manager,
    /// The configs image the subscriptions were last read from.
    seen: Option<Arc<ConfigsImage>>,
}

impl ClientTelemetry {
    /// A manager with `settings` and no subscriptions yet.
    pub fn new(settings: Settings) -> ClientTelemetry {
        ClientTelemetry {
            state: Mutex::new(State {
                manager: Manager::new(settings),
                seen: None,
            }),
        }
    }

    /// The manager, its subscriptions read again if `image`'s configs changed.
    fn manager(&self, image: Option<&MetadataImage>) -> MutexGuard<'_, State> {
        let mut state = self.state.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(image) = image {
            if !state
                .seen
                .as_ref()
                .is_some_and(|seen| Arc::ptr_eq(seen, &image.configs))
            {
                state
                    .manager
                    .set_subscriptions(subscriptions(&image.configs));
                state.seen = Some(image.configs.clone());
            }
        }
        state
    }

    /// Reads the manager (the metrics endpoint), expired instances and series swept first.
    pub fn read<T>(&self, now_ms: i64, f: impl FnOnce(&Manager) -> T) -> T {
        let mut state = self.manager(None);
        state.manager.sweep(now_ms);
        f(&state.manager)
    }

    /// Forgets the instance of a closed connection.
    pub fn connection_closed(&self, connection: u64) {
        self.manager(None).manager.connection_closed(connection);
    }

    /// GetTelemetrySubscriptions.
    pub fn get_subscriptions(
        &self,
        image: &MetadataImage,
        r: &GetTelemetrySubscriptionsRequest,
        frame: &RequestFrame,
        caller: &Caller,
        now_ms: i64,
    ) -> GetTelemetrySubscriptionsResponse {
        let client = client(frame, caller);
        let mut state = self.manager(Some(image));
        let fresh = fresh_id(&state.manager);
        state
            .manager
            .get_subscriptions(r.client_instance_id, &client, now_ms, fresh)
    }

    /// PushTelemetry: checked under the lock, decoded outside it, stored under it again.
    pub fn push(
        &self,
        image: &MetadataImage,
        r: &PushTelemetryRequest,
        frame: &RequestFrame,
        caller: &Caller,
        now_ms: i64,
    ) -> PushTelemetryResponse {
        let client = client(frame, caller);
        let checked = self.manager(Some(image)).manager.push(r, &client, now_ms);
        let outcome = match checked {
            Ok(None) => Ok(()),
            Ok(Some(accepted)) => {
                let started = std::time::Instant::now();
                let decoded = decode(&accepted, &r.metrics);
                let nanos = u64::try_from(started.elapsed().as_nanos()).unwrap_or(u64::MAX);
                self.manager(None)
                    .manager
                    .stored(accepted, decoded, nanos, now_ms)
                    .map(|_| ())
            }
            Err(refused) => Err(refused),
        };
        match outcome {
            Ok(()) => PushTelemetryResponse::default(),
            Err(refused) => {
                tracing::debug!(peer = %caller.peer, "refused a telemetry push: {}", refused.message);
                PushTelemetryResponse {
                    error_code: refused.code.code(),
                    ..Default::default()
                }
            }
        }
    }
}

/// A new instance id no remembered instance has.
fn fresh_id(manager: &Manager) -> uuid::Uuid {
    loop {
        let id = uuid::Uuid::new_v4();
        if !manager.knows(&id) {
            return id;
        }
    }
}

/// Who sent a request, as a subscription's selectors see it.
fn client(frame: &RequestFrame, caller: &Caller) -> Client {
    Client {
        attributes: ClientAttributes {
            instance_id: String::new(),
            client_id: frame.header.client_id.clone().unwrap_or_default(),
            software_name: caller.software.as_ref().map(|s| s.name.clone()),
            software_version: caller.software.as_ref().map(|s| s.version.clone()),
            source_address: caller.peer.ip().to_string(),
            source_port: caller.peer.port(),
        },
        principal: caller.principal.to_string(),
        connection: caller.connection,
    }
}

/// The subscriptions the image's `CLIENT_METRICS` resources make.
fn subscriptions(configs: &ConfigsImage) -> Vec<Subscription> {
    configs
        .resources
        .iter()
        .filter(|((kind, _), _)| *kind == CLIENT_METRICS)
        .map(|((_, name), values)| Subscription::from_configs(name, values))
        .collect()
}
