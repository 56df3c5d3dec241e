//! The metrics endpoint: `GET /metrics` on `metrics.listener` (default
//! `http://127.0.0.1:9404`, empty to disable), in the Prometheus/OpenMetrics text format, served
//! by hyper with prometheus-client's encoder. Every node serves it, controller-only nodes
//! included. Series are computed at each scrape from what the node already keeps (the
//! replica manager's partitions, the metadata image, the controller's counters, the quorum
//! state, `/proc/self`), off the async workers, so the request path pays nothing for them.
//! Names follow the Prometheus JMX exporter's names for Kafka's MBeans
//! (`kafka_<domain>_<type>_<name>`, lowercase), so existing dashboards and alerts apply.

mod clients;
mod collect;
mod requests;

pub use requests::RequestMetrics;

use fjord_controller::active::LocalController;
use fjord_kraft::driver::QuorumInfo;
use http_body_util::Full;
use hyper::body::Bytes;
use hyper::{Request, Response, StatusCode};
use std::convert::Infallible;
use std::sync::{Arc, OnceLock};
use std::time::Duration;
use tokio::sync::{watch, Semaphore};

/// The most scrapes served at once; more connections wait to be accepted.
const MAX_CONNECTIONS: usize = 16;
/// How long a client may take to send its request headers.
const HEADER_TIMEOUT: Duration = Duration::from_secs(10);

/// What the endpoint reads.
#[derive(Clone)]
pub struct Sources {
    /// The node's metadata view.
    pub view: watch::Receiver<fjord_metadata::view::View>,
    /// The metadata quorum's state.
    pub quorum: watch::Receiver<QuorumInfo>,
    /// This node's controller, on controller nodes.
    pub controller: Option<LocalController>,
    /// The broker's partitions and coordinators, once the broker role has started.
    pub broker: Arc<OnceLock<fjord_broker::Metered>>,
    /// Requests answered by the node's listeners.
    pub requests: Arc<RequestMetrics>,
    /// The client quotas' sensors.
    pub quotas: QuotaSensors,
}

/// Every client quota sensor of the node: the broker's (produce, fetch, request) and the
/// controller's (mutations).
#[derive(Clone, Default)]
pub struct QuotaSensors {
    /// The broker listeners' sensors.
    pub broker: Arc<fjord_broker::BrokerQuotas>,
    /// The controller listener's sensors.
    pub mutations: Arc<fjord_controller::mutation_quota::MutationQuota>,
}

/// The address of `metrics.listener` (`http://host:port`), or `None` when it is empty.
pub(crate) fn listener_address(value: &str) -> Result<Option<String>, String> {
    let value = value.trim();
    if value.is_empty() {
        return Ok(None);
    }
    let rest = value.strip_prefix("http://").ok_or_else(|| {
        format!("metrics.listener must be http://host:port or empty, not {value:?}")
    })?;
    let rest = rest.trim_end_matches('/');
    if !rest.contains(':') {
        return Err(format!("metrics.listener needs a port: {value:?}"));
    }
    Ok(Some(rest.to_string()))
}

/// Binds the metrics listener (a failure is the node's: the operator asked for it).
pub(crate) async fn bind(addr: &str) -> Result<tokio::net::TcpListener, String> {
    let listener = tokio::net::TcpListener::bind(addr)
        .await
        .map_err(|e| format!("binding metrics.listener {addr}: {e}"))?;
    tracing::info!(addr, "metrics listener ready: GET /metrics");
    Ok(listener)
}

/// Serves `GET /metrics` until the task is dropped.
pub async fn serve(listener: tokio::net::TcpListener, sources: Sources) {
    let slots = Arc::new(Semaphore::new(MAX_CONNECTIONS));
    loop {
        let Ok(slot) = slots.clone().acquire_owned().await else {
            return;
        };
        let stream = match listener.accept().await {
            Ok((s, _)) => s,
            Err(e) => {
                tracing::warn!("metrics listener: accept failed: {e}");
                tokio::time::sleep(Duration::from_millis(100)).await;
                continue;
            }
        };
        let sources = sources.clone();
        tokio::spawn(async move {
            let service = hyper::service::service_fn(move |req| {
                let sources = sources.clone();
                async move { Ok::<_, Infallible>(respond(&sources, req).await) }
            });
            let _ = hyper::server::conn::http1::Builder::new()
                .timer(hyper_util::rt::TokioTimer::new())
                .header_read_timeout(HEADER_TIMEOUT)
                .serve_connection(hyper_util::rt::TokioIo::new(stream), service)
                .await;
            drop(slot);
        });
    }
}

async fn respond(sources: &Sources, req: Request<hyper::body::Incoming>) -> Response<Full<Bytes>> {
    let plain = |status: StatusCode, text: &'static str| {
        let mut r = Response::new(Full::new(Bytes::from_static(text.as_bytes())));
        *r.status_mut() = status;
        r
    };
    if req.uri().path() != "/metrics" {
        return plain(StatusCode::NOT_FOUND, "not found: try /metrics\n");
    }
    if req.method() != hyper::Method::GET && req.method() != hyper::Method::HEAD {
        return plain(StatusCode::METHOD_NOT_ALLOWED, "GET /metrics\n");
    }
    let s = sources.clone();
    let text = match tokio::task::spawn_blocking(move || collect::render(&s)).await {
        Ok(Ok(text)) => text,
        Ok(Err(e)) => {
            tracing::warn!("rendering the metrics: {e}");
            return plain(StatusCode::INTERNAL_SERVER_ERROR, "metrics unavailable\n");
        }
        Err(e) => {
            tracing::warn!("rendering the metrics: {e}");
            return plain(StatusCode::INTERNAL_SERVER_ERROR, "metrics unavailable\n");
        }
    };
    let mut r = Response::new(Full::new(Bytes::from(text)));
    r.headers_mut().insert(
        hyper::header::CONTENT_TYPE,
        hyper::header::HeaderValue::from_static(
            "application/openmetrics-text; version=1.0.0; charset=utf-8",
        ),
    );
    r
}

#[cfg(test)]
mod tests {
    use super::listener_address;

    #[test]
    fn listener_addresses_are_http_host_port_or_empty() {
        assert_eq!(
            listener_address("http://127.0.0.1:9404").unwrap(),
            Some("127.0.0.1:9404".into())
        );
        assert_eq!(listener_address("").unwrap(), None);
        assert!(listener_address("127.0.0.1:9404").is_err());
        assert!(listener_address("http://localhost").is_err());
    }
}
