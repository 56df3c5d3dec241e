//! The pushed metrics as the broker serves them on `/metrics`: one series per client
//! instance, metric and point attributes, labelled with who the client is (instance id,
//! client id, software name and version, principal). The store is bounded: at most
//! `max_series` series in all, and a series the bound leaves out is counted, not kept. An
//! instance's series go when it stops pushing (its expiry), so a departed client's metrics do
//! not linger.

use crate::otlp::{KeyValue, MetricsData, NumberDataPoint, DELTA};
use crate::subscription::wanted;
use std::collections::{BTreeMap, HashMap};
use uuid::Uuid;

/// The longest label value kept (longer values are cut).
pub const MAX_LABEL_VALUE_CHARS: usize = 256;
/// The most attributes of one point that become labels (the rest are left out).
pub const MAX_POINT_ATTRIBUTES: usize = 16;
/// The prefix of every pushed series' name, so none can collide with the broker's own.
pub const SERIES_PREFIX: &str = "kafka_client_";
/// The prefix of Kafka's standard client metric names, replaced by [`SERIES_PREFIX`].
const KAFKA_METRIC_PREFIX: &str = "org.apache.kafka.";

/// How a family is served.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// The last value pushed (OTLP gauges and up-down sums).
    Gauge,
    /// A running total (OTLP monotonic sums; deltas are added up).
    Counter,
}

/// A family's type and help text (the metric's description, as first pushed).
#[derive(Debug, Clone)]
struct Family {
    kind: Kind,
    help: String,
    /// How many series use it.
    users: usize,
}

/// One instance's series.
#[derive(Debug, Default)]
struct InstanceSeries {
    /// The client's own labels.
    labels: Vec<(String, String)>,
    /// (family name, point labels) to value.
    values: BTreeMap<(String, Vec<(String, String)>), f64>,
    /// When they expire unless the client pushes again.
    expires_at_ms: i64,
}

/// What one push added.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct Applied {
    /// Points stored.
    pub points: usize,
    /// Points left out: over the series bound, not subscribed, or of a kind clashing with
    /// the family's.
    pub dropped: usize,
}

/// Every pushed series, bounded.
#[derive(Debug)]
pub struct SeriesStore {
    max_series: usize,
    families: BTreeMap<String, Family>,
    instances: HashMap<Uuid, InstanceSeries>,
    count: usize,
    dropped: u64,
}

/// One series as rendered: family, kind, help, labels (the client's, then the point's),
/// value.
pub type Rendered<'a> = (&'a str, Kind, &'a str, Vec<(String, String)>, f64);

impl SeriesStore {
    /// An empty store keeping at most `max_series` series.
    pub fn new(max_series: usize) -> SeriesStore {
        SeriesStore {
            max_series,
            families: BTreeMap::new(),
            instances: HashMap::new(),
            count: 0,
            dropped: 0,
        }
    }

    /// How many series are kept.
    pub fn len(&self) -> usize {
        self.count
    }

    /// Whether no series is kept.
    pub fn is_empty(&self) -> bool {
        self.count == 0
    }

    /// Points left out since the start.
    pub fn dropped(&self) -> u64 {
        self.dropped
    }

    /// Adds `data`, pushed by `instance` labelled `labels` and subscribed to `metrics`; its
    /// series live until `expires_at_ms` unless it pushes again.
    pub fn apply(
        &mut self,
        instance: Uuid,
        labels: Vec<(String, String)>,
        metrics: &[String],
        data: &MetricsData,
        expires_at_ms: i64,
    ) -> Applied {
        let mut applied = Applied::default();
        let mut own = self.instances.remove(&instance).unwrap_or_default();
        own.labels = labels;
        own.expires_at_ms = expires_at_ms;
        let reserved: Vec<String> = own.labels.iter().map(|(k, _)| k.clone()).collect();
        for metric in data
            .resource_metrics
            .iter()
            .flat_map(|r| &r.scope_metrics)
            .flat_map(|s| &s.metrics)
        {
            if !wanted(metrics, &metric.name) {
                applied.dropped += metric_points(metric);
                continue;
            }
            let (kind, delta, points) = match (&metric.gauge, &metric.sum) {
                (Some(g), _) => (Kind::Gauge, false, &g.data_points),
                (None, Some(s)) => (
                    if s.is_monotonic {
                        Kind::Counter
                    } else {
                        Kind::Gauge
                    },
                    s.aggregation_temporality == DELTA,
                    &s.data_points,
                ),
                (None, None) => continue,
            };
            let name = series_name(&metric.name, kind);
            for point in points {
                let key = (name.clone(), point_labels(&point.attributes, &reserved));
                if self.add(&mut own, key, kind, &metric.description, delta, point) {
                    applied.points += 1;
                } else {
                    applied.dropped += 1;
                }
            }
        }
        self.dropped += applied.dropped as u64;
        self.instances.insert(instance, own);
        applied
    }

    /// Stores one point; false when it is left out.
    fn add(
        &mut self,
        own: &mut InstanceSeries,
        key: (String, Vec<(String, String)>),
        kind: Kind,
        help: &str,
        delta: bool,
        point: &NumberDataPoint,
    ) -> bool {
        if let Some(f) = self.families.get(&key.0) {
            if f.kind != kind {
                return false;
            }
        }
        let value = point.value();
        if let Some(v) = own.values.get_mut(&key) {
            if delta {
                *v += value;
            } else {
                *v = value;
            }
            return true;
        }
        if self.count >= self.max_series {
            return false;
        }
        let family = self
            .families
            .entry(key.0.clone())
            .or_insert_with(|| Family {
                kind,
                // The help line is written as is: no control characters, no escapes.
                help: help
                    .chars()
                    .take(MAX_LABEL_VALUE_CHARS)
                    .map(|c| if c.is_control() || c == '\\' { ' ' } else { c })
                    .collect(),
                users: 0,
            });
        family.users += 1;
        self.count += 1;
        own.values.insert(key, value);
        true
    }

    /// Drops `instance`'s series.
    pub fn remove(&mut self, instance: &Uuid) {
        let Some(own) = self.instances.remove(instance) else {
            return;
        };
        for (name, _) in own.values.keys() {
            if let Some(f) = self.families.get_mut(name) {
                f.users -= 1;
                if f.users == 0 {
                    self.families.remove(name);
                }
            }
        }
        self.count -= own.values.len();
    }

    /// Drops the series of every instance that expired by `now_ms`.
    pub fn expire(&mut self, now_ms: i64) {
        let gone: Vec<Uuid> = self
            .instances
            .iter()
            .filter(|(_, s)| s.expires_at_ms <= now_ms)
            .map(|(id, _)| *id)
            .collect();
        for id in gone {
            self.remove(&id);
        }
    }

    /// Every series, by family name.
    pub fn render(&self) -> Vec<Rendered<'_>> {
        let mut out: Vec<Rendered<'_>> = Vec::with_capacity(self.count);
        for own in self.instances.values() {
            for ((name, point), value) in &own.values {
                let Some((name, family)) = self.families.get_key_value(name) else {
                    continue;
                };
                let mut labels = own.labels.clone();
                labels.extend(point.iter().cloned());
                out.push((name, family.kind, &family.help, labels, *value));
            }
        }
        out.sort_by(|a, b| a.0.cmp(b.0).then_with(|| a.3.cmp(&b.3)));
        out
    }
}

fn metric_points(metric: &crate::otlp::Metric) -> usize {
    metric.gauge.as_ref().map_or(0, |g| g.data_points.len())
        + metric.sum.as_ref().map_or(0, |s| s.data_points.len())
}

/// A metric's series name: Kafka's `org.apache.kafka.` prefix becomes `kafka_client_`
/// (anything else gets it in front), every other character outside `[a-zA-Z0-9_]` an
/// underscore; a counter's trailing `_total` is left to the encoder, which adds it.
pub fn series_name(metric: &str, kind: Kind) -> String {
    let rest = metric.strip_prefix(KAFKA_METRIC_PREFIX).unwrap_or(metric);
    let mut name = String::with_capacity(SERIES_PREFIX.len() + rest.len());
    name.push_str(SERIES_PREFIX);
    name.extend(rest.chars().take(MAX_LABEL_VALUE_CHARS).map(sanitize));
    if kind == Kind::Counter {
        if let Some(stem) = name.strip_suffix("_total") {
            name.truncate(stem.len());
        }
    }
    name
}

fn sanitize(c: char) -> char {
    if c.is_ascii_alphanumeric() || c == '_' {
        c
    } else {
        '_'
    }
}

/// A point's attributes as labels: names sanitized, values cut to
/// [`MAX_LABEL_VALUE_CHARS`], at most [`MAX_POINT_ATTRIBUTES`], and none that would shadow
/// one of the client's own labels (the broker's view of who the client is wins).
fn point_labels(attributes: &[KeyValue], reserved: &[String]) -> Vec<(String, String)> {
    let mut labels: Vec<(String, String)> = Vec::new();
    for kv in attributes {
        if labels.len() == MAX_POINT_ATTRIBUTES {
            break;
        }
        let key: String = kv
            .key
            .chars()
            .take(MAX_LABEL_VALUE_CHARS)
            .map(sanitize)
            .collect();
        let key = match key.chars().next() {
            Some(c) if c.is_ascii_digit() => format!("_{key}"),
            None => continue,
            _ => key,
        };
        if reserved.contains(&key) || key.starts_with("__") || labels.iter().any(|(k, _)| *k == key)
        {
            continue;
        }
        let value = kv.value.as_ref().map(|v| v.text()).unwrap_or_default();
        labels.push((key, value.chars().take(MAX_LABEL_VALUE_CHARS).collect()));
    }
    labels.sort();
    labels
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::otlp::{AnyValue, Gauge, Metric, ResourceMetrics, ScopeMetrics, Sum};

    fn data(metrics: Vec<Metric>) -> MetricsData {
        MetricsData {
            resource_metrics: vec![ResourceMetrics {
                resource: None,
                scope_metrics: vec![ScopeMetrics { metrics }],
            }],
        }
    }

    fn point(value: f64, attrs: &[(&str, &str)]) -> NumberDataPoint {
        NumberDataPoint {
            attributes: attrs
                .iter()
                .map(|(k, v)| KeyValue {
                    key: k.to_string(),
                    value: Some(AnyValue {
                        string_value: Some(v.to_string()),
                        ..Default::default()
                    }),
                })
                .collect(),
            as_double: Some(value),
            ..Default::default()
        }
    }

    fn gauge(name: &str, points: Vec<NumberDataPoint>) -> Metric {
        Metric {
            name: name.into(),
            gauge: Some(Gauge {
                data_points: points,
            }),
            ..Default::default()
        }
    }

    fn counter(name: &str, temporality: i32, v: f64) -> Metric {
        Metric {
            name: name.into(),
            sum: Some(Sum {
                data_points: vec![point(v, &[])],
                aggregation_temporality: temporality,
                is_monotonic: true,
            }),
            ..Default::default()
        }
    }

    fn labels() -> Vec<(String, String)> {
        vec![("client_id".into(), "app".into())]
    }

    #[test]
    fn names_labels_and_delta_counters() {
        let mut s = SeriesStore::new(100);
        let id = Uuid::from_u128(1);
        let all = vec!["*".to_string()];
        let push = data(vec![
            gauge(
                "org.apache.kafka.producer.node.request.latency.avg",
                vec![point(2.5, &[("node_id", "1"), ("client_id", "forged")])],
            ),
            counter("org.apache.kafka.producer.record.send.total", DELTA, 3.0),
            counter("custom.bytes.total", 2, 10.0),
        ]);
        assert_eq!(s.apply(id, labels(), &all, &push, 100).points, 3);
        assert_eq!(s.apply(id, labels(), &all, &push, 100).points, 3);
        let r = s.render();
        let find = |n: &str| r.iter().find(|x| x.0 == n).unwrap();
        let latency = find("kafka_client_producer_node_request_latency_avg");
        assert_eq!(latency.1, Kind::Gauge);
        // The client's own client_id wins over a point attribute of that name.
        assert_eq!(
            latency.3,
            vec![
                ("client_id".to_string(), "app".to_string()),
                ("node_id".to_string(), "1".to_string())
            ]
        );
        // A delta counter adds up; a cumulative one is replaced.
        assert_eq!(find("kafka_client_producer_record_send").4, 6.0);
        assert_eq!(find("kafka_client_custom_bytes").4, 10.0);
        assert_eq!(s.len(), 3);
    }

    #[test]
    fn the_bound_holds_and_expiry_frees_room() {
        let mut s = SeriesStore::new(2);
        let all = vec!["*".to_string()];
        let points = (0..5)
            .map(|i| point(1.0, &[("n", &i.to_string())]))
            .collect();
        let push = data(vec![gauge("g", points)]);
        let a = s.apply(Uuid::from_u128(1), labels(), &all, &push, 100);
        assert_eq!((a.points, a.dropped), (2, 3));
        let b = s.apply(Uuid::from_u128(2), labels(), &all, &push, 200);
        assert_eq!((b.points, b.dropped), (0, 5));
        assert_eq!(s.len(), 2);
        s.expire(150);
        assert_eq!(s.len(), 0);
        assert!(s.render().is_empty());
        assert_eq!(
            s.apply(Uuid::from_u128(2), labels(), &all, &push, 200)
                .points,
            2
        );
        assert_eq!(s.dropped(), 11);
    }

    #[test]
    fn only_subscribed_metrics_and_one_kind_per_family() {
        let mut s = SeriesStore::new(10);
        let producer = vec!["org.apache.kafka.producer.".to_string()];
        let push = data(vec![
            gauge("org.apache.kafka.consumer.x", vec![point(1.0, &[])]),
            gauge("org.apache.kafka.producer.x", vec![point(1.0, &[])]),
        ]);
        let a = s.apply(Uuid::from_u128(1), labels(), &producer, &push, 100);
        assert_eq!((a.points, a.dropped), (1, 1));
        let clash = data(vec![counter("org.apache.kafka.producer.x", DELTA, 1.0)]);
        let b = s.apply(Uuid::from_u128(2), labels(), &producer, &clash, 100);
        assert_eq!((b.points, b.dropped), (0, 1));
    }
}
