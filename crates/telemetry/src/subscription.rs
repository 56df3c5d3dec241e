//! Client-metrics subscriptions (the `CLIENT_METRICS` config resources) as the manager uses
//! them: the metric prefixes, the push interval and the client selectors, and which of them a
//! client instance matches. An instance's subscription is the union of the prefixes of every
//! subscription it matches (`*` when any asks for all) at the shortest of their intervals, as
//! Kafka's `ClientMetricsManager` computes it.

use regex::Regex;
use std::collections::{BTreeMap, BTreeSet};

/// The push interval of a client no subscription matches, and of a subscription with none.
pub const DEFAULT_INTERVAL_MS: i32 = 300_000;
/// The prefix that subscribes a client to every metric.
pub const ALL_METRICS: &str = "*";

/// What a client instance is known by: the selectors a `match` entry may name.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ClientAttributes {
    /// `client_instance_id`.
    pub instance_id: String,
    /// `client_id` (the request header's).
    pub client_id: String,
    /// `client_software_name` (from ApiVersions v3+).
    pub software_name: Option<String>,
    /// `client_software_version`.
    pub software_version: Option<String>,
    /// `client_source_address`.
    pub source_address: String,
    /// `client_source_port`.
    pub source_port: u16,
}

impl ClientAttributes {
    /// The value of selector `name`, if the client has one.
    fn get(&self, name: &str) -> Option<String> {
        match name {
            "client_instance_id" => Some(self.instance_id.clone()),
            "client_id" => Some(self.client_id.clone()),
            "client_software_name" => self.software_name.clone(),
            "client_software_version" => self.software_version.clone(),
            "client_source_address" => Some(self.source_address.clone()),
            "client_source_port" => Some(self.source_port.to_string()),
            _ => None,
        }
    }
}

/// One subscription.
#[derive(Debug, Clone)]
pub struct Subscription {
    /// Its name.
    pub name: String,
    /// The metric name prefixes it asks for.
    pub metrics: BTreeSet<String>,
    /// How often a matching client pushes.
    pub interval_ms: i32,
    /// Selector to a pattern the whole value must match; empty matches every client.
    pub patterns: Vec<(String, Regex)>,
}

impl PartialEq for Subscription {
    fn eq(&self, other: &Self) -> bool {
        self.name == other.name
            && self.metrics == other.metrics
            && self.interval_ms == other.interval_ms
            && self.patterns.len() == other.patterns.len()
            && self
                .patterns
                .iter()
                .zip(&other.patterns)
                .all(|(a, b)| a.0 == b.0 && a.1.as_str() == b.1.as_str())
    }
}

impl Subscription {
    /// A subscription from its stored configs (`metrics`, `interval.ms`, `match`); values the
    /// controller accepted always parse, anything else is left at its default.
    pub fn from_configs(name: &str, configs: &BTreeMap<String, String>) -> Subscription {
        let list = |key: &str| -> Vec<String> {
            configs
                .get(key)
                .map(|v| {
                    v.split(',')
                        .map(str::trim)
                        .filter(|s| !s.is_empty())
                        .map(str::to_string)
                        .collect()
                })
                .unwrap_or_default()
        };
        let interval_ms = configs
            .get("interval.ms")
            .and_then(|v| v.trim().parse().ok())
            .unwrap_or(DEFAULT_INTERVAL_MS);
        let patterns = list("match")
            .iter()
            .filter_map(|entry| {
                let (selector, pattern) = entry.split_once('=')?;
                // Java's Matcher.matches(): the whole value.
                let re = Regex::new(&format!("^(?:{})$", pattern.trim())).ok()?;
                Some((selector.trim().to_string(), re))
            })
            .collect();
        Subscription {
            name: name.to_string(),
            metrics: list("metrics").into_iter().collect(),
            interval_ms,
            patterns,
        }
    }

    /// Whether `client` matches every selector.
    pub fn matches(&self, client: &ClientAttributes) -> bool {
        self.patterns.iter().all(|(selector, re)| {
            client
                .get(selector)
                .is_some_and(|value| re.is_match(&value))
        })
    }
}

/// What a client instance is subscribed to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Subscribed {
    /// The metric prefixes (`["*"]` for all; empty: push nothing).
    pub metrics: Vec<String>,
    /// The push interval.
    pub interval_ms: i32,
}

/// The union of what `client` matches in `subscriptions`.
pub fn subscribed(subscriptions: &[Subscription], client: &ClientAttributes) -> Subscribed {
    let mut metrics = BTreeSet::new();
    let mut interval_ms = DEFAULT_INTERVAL_MS;
    for s in subscriptions.iter().filter(|s| s.matches(client)) {
        metrics.extend(s.metrics.iter().cloned());
        interval_ms = interval_ms.min(s.interval_ms);
    }
    if metrics.contains(ALL_METRICS) {
        metrics = [ALL_METRICS.to_string()].into();
    }
    Subscribed {
        metrics: metrics.into_iter().collect(),
        interval_ms,
    }
}

/// Whether metric `name` is one a client subscribed to `metrics` may push.
pub fn wanted(metrics: &[String], name: &str) -> bool {
    metrics
        .iter()
        .any(|p| p == ALL_METRICS || name.starts_with(p.as_str()))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sub(name: &str, pairs: &[(&str, &str)]) -> Subscription {
        let configs = pairs
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect();
        Subscription::from_configs(name, &configs)
    }

    fn client(id: &str, software: &str) -> ClientAttributes {
        ClientAttributes {
            instance_id: "i".into(),
            client_id: id.into(),
            software_name: Some(software.into()),
            software_version: Some("4.4.0".into()),
            source_address: "127.0.0.1".into(),
            source_port: 40000,
        }
    }

    #[test]
    fn the_union_of_matching_subscriptions_at_the_shortest_interval() {
        let subs = vec![
            sub(
                "producers",
                &[
                    ("metrics", "org.apache.kafka.producer."),
                    ("interval.ms", "1000"),
                    ("match", "client_id=app-.*"),
                ],
            ),
            sub(
                "java",
                &[
                    ("metrics", "org.apache.kafka.consumer."),
                    ("interval.ms", "5000"),
                    ("match", "client_software_name=apache-kafka-java"),
                ],
            ),
        ];
        let both = subscribed(&subs, &client("app-1", "apache-kafka-java"));
        assert_eq!(both.interval_ms, 1000);
        assert_eq!(
            both.metrics,
            ["org.apache.kafka.consumer.", "org.apache.kafka.producer."]
        );
        // The whole value must match: "xapp-1" does not.
        let none = subscribed(&subs, &client("xapp-1", "librdkafka"));
        assert_eq!(none.metrics, Vec::<String>::new());
        assert_eq!(none.interval_ms, DEFAULT_INTERVAL_MS);
    }

    #[test]
    fn a_star_subscribes_to_everything() {
        let subs = vec![
            sub("all", &[("metrics", "*,org.apache.kafka.producer.")]),
            sub("more", &[("metrics", "org.apache.kafka.consumer.")]),
        ];
        let s = subscribed(&subs, &client("a", "x"));
        assert_eq!(s.metrics, ["*"]);
        assert!(wanted(&s.metrics, "anything"));
        assert!(wanted(&["a.b.".to_string()], "a.b.c"));
        assert!(!wanted(&["a.b.".to_string()], "a.c"));
    }

    #[test]
    fn a_selector_the_client_lacks_never_matches() {
        let s = sub("s", &[("match", "client_software_name=.*")]);
        let mut c = client("a", "x");
        c.software_name = None;
        assert!(!s.matches(&c));
    }
}
