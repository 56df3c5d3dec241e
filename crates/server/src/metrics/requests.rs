//! Requests per API, as Kafka's `kafka.network:type=RequestMetrics` (the JMX exporter's
//! `kafka_network_requestmetrics_*`, label `request`): how many were answered, how many with
//! each error code (label `error`), and the time from reading a request to writing
//! its answer (a histogram in milliseconds). Errors count every error code in an answer,
//! top-level and per partition, group or resource, as Kafka's `errorCounts` does. The listeners report every answer; each API's
//! series are created once, so an answer costs an atomic add and one short histogram update.

use fjord_protocol::ApiKey;
use prometheus_client::metrics::counter::Counter;
use prometheus_client::metrics::family::Family;
use prometheus_client::metrics::histogram::Histogram;
use prometheus_client::registry::Registry;
use std::time::Duration;

/// A series' labels.
type Labels = Vec<(String, String)>;

/// Latency buckets, in milliseconds.
const BUCKETS_MS: [f64; 14] = [
    0.5, 1.0, 2.5, 5.0, 10.0, 25.0, 50.0, 100.0, 250.0, 500.0, 1_000.0, 5_000.0, 30_000.0, 60_000.0,
];

/// Per-API request counters of every listener of the node.
#[derive(Debug)]
pub struct RequestMetrics {
    requests: Family<Labels, Counter>,
    errors: Family<Labels, Counter>,
    latency: Family<Labels, Histogram, fn() -> Histogram>,
    /// Each API's request counter and latency histogram (handles into the families), by API
    /// key.
    per_api: Vec<Option<(Counter, Histogram)>>,
}

impl Default for RequestMetrics {
    fn default() -> RequestMetrics {
        let requests = Family::<Labels, Counter>::default();
        let latency: Family<Labels, Histogram, fn() -> Histogram> =
            Family::new_with_constructor(|| Histogram::new(BUCKETS_MS));
        let top = ApiKey::ALL.iter().map(|a| a.key()).max().unwrap_or(0);
        let mut per_api = vec![None; usize::try_from(top).unwrap_or(0) + 1];
        for api in ApiKey::ALL {
            let labels = vec![("request".to_string(), api.name().to_string())];
            per_api[api.key() as usize] = Some((
                requests.get_or_create(&labels).clone(),
                latency.get_or_create(&labels).clone(),
            ));
        }
        RequestMetrics {
            requests,
            errors: Family::default(),
            latency,
            per_api,
        }
    }
}

impl RequestMetrics {
    /// Adds the families to a scrape's registry.
    pub fn register(&self, r: &mut Registry) {
        r.register(
            "kafka_network_requestmetrics_requests",
            "Requests answered, by API",
            self.requests.clone(),
        );
        r.register(
            "kafka_network_requestmetrics_errors",
            "Error codes in answers (top-level and per entity), by API and error name",
            self.errors.clone(),
        );
        r.register(
            "kafka_network_requestmetrics_totaltimems",
            "Milliseconds from reading a request to writing its answer, by API",
            self.latency.clone(),
        );
    }
}

impl fjord_net::serve::Observer for RequestMetrics {
    fn answered(&self, api: ApiKey, errors: &[i16], elapsed: Duration) {
        let slot = usize::try_from(api.key())
            .ok()
            .and_then(|k| self.per_api.get(k))
            .and_then(Option::as_ref);
        if let Some((count, latency)) = slot {
            count.inc();
            latency.observe(elapsed.as_secs_f64() * 1_000.0);
        }
        for &error in errors {
            let name = fjord_protocol::ErrorCode::from_code(error)
                .map_or_else(|| error.to_string(), |e| e.name().to_string());
            let labels = vec![
                ("request".to_string(), api.name().to_string()),
                ("error".to_string(), name),
            ];
            self.errors.get_or_create(&labels).inc();
        }
    }
}
