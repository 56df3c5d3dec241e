//! Client telemetry on `/metrics` (KIP-714): the series clients pushed
//! (`kafka_client_*`, labelled with the client's instance id, client id, software name and
//! version, principal, and the point's own attributes), how many the bound left out
//! (`fjord_client_telemetry_*`), and Kafka's `client-metrics` group as the JMX exporter names
//! it (`kafka_server_client_metrics_*`: instance count, unknown subscription requests, and per
//! instance throttles, exports, export errors and export time).

use super::Sources;
use fjord_telemetry::series::Kind;
use prometheus_client::metrics::counter::Counter;
use prometheus_client::metrics::family::Family;
use prometheus_client::metrics::gauge::Gauge;
use prometheus_client::registry::Registry;
use std::sync::atomic::AtomicU64;

type Labels = Vec<(String, String)>;
type FloatGauge = Gauge<f64, AtomicU64>;
type FloatCounter = Counter<f64, AtomicU64>;
/// A per-instance series: its name, help and value.
type PerInstance = (
    &'static str,
    &'static str,
    fn(&fjord_telemetry::manager::InstanceStats) -> f64,
);

/// Registers the client telemetry series (nothing before the broker role starts).
pub(super) fn client_telemetry(r: &mut Registry, s: &Sources) {
    let Some(telemetry) = s.broker.get().map(|b| b.telemetry.clone()) else {
        return;
    };
    telemetry.read(fjord_util::monotonic_ms(), |m| {
        manager_series(r, m);
        pushed_series(r, m.series());
    });
}

/// Kafka's `client-metrics` group and fjord's bound.
fn manager_series(r: &mut Registry, m: &fjord_telemetry::Manager) {
    super::collect::gauge(
        r,
        "kafka_server_client_metrics_instance_count",
        "The current number of client metrics instances being managed by the broker",
        m.instance_count() as i64,
    );
    super::collect::gauge(
        r,
        "kafka_server_client_metrics_unknown_subscription_request_count",
        "The total number of pushes refused for an unknown subscription id",
        m.unknown_subscription_requests() as i64,
    );
    let per_instance: [PerInstance; 5] = [
        (
            "throttle_count",
            "The total number of requests refused as too early",
            |s| s.throttled as f64,
        ),
        (
            "plugin_export_count",
            "The total number of pushes whose metrics were stored",
            |s| s.exported as f64,
        ),
        (
            "plugin_error_count",
            "The total number of pushes whose metrics could not be read",
            |s| s.errors as f64,
        ),
        (
            "plugin_export_time_avg",
            "Average time the broker spent storing a push's metrics (ms)",
            |s| {
                if s.exported == 0 {
                    0.0
                } else {
                    s.export_nanos as f64 / s.exported as f64 / 1e6
                }
            },
        ),
        (
            "plugin_export_time_max",
            "Maximum time the broker spent storing a push's metrics (ms)",
            |s| s.export_max_nanos as f64 / 1e6,
        ),
    ];
    let stats = m.instance_stats();
    for (name, help, value) in per_instance {
        let family = Family::<Labels, FloatGauge>::default();
        for (id, s) in &stats {
            family
                .get_or_create(&vec![(
                    "client_instance_id".to_string(),
                    fjord_util::uuid_text::encode(id),
                )])
                .set(value(s));
        }
        r.register(format!("kafka_server_client_metrics_{name}"), help, family);
    }
    super::collect::gauge(
        r,
        "fjord_client_telemetry_series",
        "Series of clients' pushed metrics kept (at most metrics.client.max.series)",
        m.series().len() as i64,
    );
    super::collect::gauge(
        r,
        "fjord_client_telemetry_dropped_points",
        "Pushed points left out since the start: over metrics.client.max.series, not subscribed to, or of a clashing type",
        m.series().dropped() as i64,
    );
}

/// The pushed series, one family per metric name.
fn pushed_series(r: &mut Registry, store: &fjord_telemetry::series::SeriesStore) {
    let rendered = store.render();
    let mut i = 0;
    while i < rendered.len() {
        let (name, kind, help) = (rendered[i].0, rendered[i].1, rendered[i].2);
        let end = rendered[i..]
            .iter()
            .position(|x| x.0 != name)
            .map_or(rendered.len(), |n| i + n);
        match kind {
            Kind::Gauge => {
                let family = Family::<Labels, FloatGauge>::default();
                for x in &rendered[i..end] {
                    family.get_or_create(&x.3).set(x.4);
                }
                r.register(name, help, family);
            }
            Kind::Counter => {
                let family = Family::<Labels, FloatCounter>::default();
                for x in &rendered[i..end] {
                    family.get_or_create(&x.3).inc_by(x.4.max(0.0));
                }
                r.register(name, help, family);
            }
        }
        i = end;
    }
}
