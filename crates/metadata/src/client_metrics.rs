//! Client metrics subscriptions (KIP-714): the `CLIENT_METRICS` config resource (type 16),
//! one per subscription name, with Kafka 4.4's three keys and its checks. fjord keeps them in
//! the metadata log and describes and lists them, as `kafka-client-metrics` expects; it does
//! not serve the telemetry APIs (GetTelemetrySubscriptions, PushTelemetry), which Kafka too
//! serves only with a telemetry reporter configured.

/// The config resource type of a client metrics subscription.
pub const CLIENT_METRICS: i8 = 16;
/// DescribeConfigs' source for a subscription's own value (`CLIENT_METRICS_CONFIG`).
pub const SOURCE_CLIENT_METRICS: i8 = 7;

/// The metric name prefixes a subscription asks for (a list; `*` is every metric).
pub const METRICS: &str = "metrics";
/// How often a matching client pushes, in milliseconds.
pub const INTERVAL_MS: &str = "interval.ms";
/// Which clients a subscription applies to: `selector=regex` entries.
pub const MATCH: &str = "match";

/// The shortest push interval a subscription may ask for.
pub const MIN_INTERVAL_MS: i64 = 100;
/// The longest push interval a subscription may ask for (one hour).
pub const MAX_INTERVAL_MS: i64 = 3_600_000;
/// The push interval of a subscription that sets none.
pub const DEFAULT_INTERVAL_MS: i64 = 300_000;

/// The client selectors a `match` entry may name.
pub const MATCH_SELECTORS: [&str; 6] = [
    "client_instance_id",
    "client_id",
    "client_software_name",
    "client_software_version",
    "client_source_address",
    "client_source_port",
];

/// Every key, in the order Kafka describes them: name, DescribeConfigs type (7 list, 3 int)
/// and Kafka's default.
pub const KEYS: [(&str, i8, &str); 3] =
    [(INTERVAL_MS, 3, "300000"), (MATCH, 7, ""), (METRICS, 7, "")];

/// The error code of a refusal: Kafka answers a bad `match` INVALID_CONFIG (40) and every
/// other refusal INVALID_REQUEST (42).
pub fn refusal_code(key: &str) -> i16 {
    if key == MATCH {
        40
    } else {
        42
    }
}

/// Why a subscription's update is refused, if it is: an empty name, a key Kafka does not
/// know, an interval that is not a number or is out of range, or a `match` entry that is not
/// `selector=regex` with a known selector and a valid pattern. The messages are Kafka 4.4's.
pub fn refusal(name: &str, key: &str, value: &str) -> Option<String> {
    if name.is_empty() {
        return Some("Subscription name can't be empty".into());
    }
    match key {
        METRICS => None,
        INTERVAL_MS => match value.trim().parse::<i64>() {
            Err(_) => Some(format!(
                "Invalid value {value} for configuration {INTERVAL_MS}: Not a number of type INT"
            )),
            Ok(ms) if !(MIN_INTERVAL_MS..=MAX_INTERVAL_MS).contains(&ms) => Some(format!(
                "Invalid value {ms} for {INTERVAL_MS}, interval must be between 100 and 3600000 (1 hour)"
            )),
            Ok(_) => None,
        },
        MATCH => value
            .split(',')
            .map(str::trim)
            .filter(|e| !e.is_empty())
            .find(|e| !valid_match(e))
            .map(|e| format!("Illegal client matching pattern: {e}")),
        other => Some(format!("Unknown client metrics configuration: {other}")),
    }
}

/// A subscription's configs as DescribeConfigs shows them: each key Kafka has (or only those
/// `wanted`), with its own value (`SOURCE_CLIENT_METRICS`) or Kafka's default (5,
/// DEFAULT_CONFIG): (key, value, source, type).
pub fn describe<'a>(
    own: impl Fn(&str) -> Option<&'a str>,
    wanted: impl Fn(&str) -> bool,
) -> Vec<(&'static str, String, i8, i8)> {
    KEYS.iter()
        .filter(|(key, _, _)| wanted(key))
        .map(|(key, kind, default)| match own(key) {
            Some(v) => (*key, v.to_string(), SOURCE_CLIENT_METRICS, *kind),
            None => (
                *key,
                default.to_string(),
                crate::config_defs::source::DEFAULT,
                *kind,
            ),
        })
        .collect()
}

/// True for a `selector=regex` entry with a known selector and a pattern that compiles.
fn valid_match(entry: &str) -> bool {
    let Some((selector, pattern)) = entry.split_once('=') else {
        return false;
    };
    MATCH_SELECTORS.contains(&selector.trim())
        && !pattern.trim().is_empty()
        && regex::Regex::new(pattern.trim()).is_ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kafkas_checks_of_a_subscription() {
        assert_eq!(refusal("s", METRICS, "org.apache.kafka.producer."), None);
        assert_eq!(refusal("s", INTERVAL_MS, "1000"), None);
        assert_eq!(
            refusal("s", MATCH, "client_id=app-.*,client_software_name=java"),
            None
        );
        assert!(refusal("", METRICS, "*").is_some());
        assert!(refusal("s", INTERVAL_MS, "99").is_some());
        assert!(refusal("s", INTERVAL_MS, "3600001").is_some());
        assert!(refusal("s", INTERVAL_MS, "soon").is_some());
        assert!(refusal("s", MATCH, "client_id").is_some());
        assert!(refusal("s", MATCH, "host=x").is_some());
        assert!(refusal("s", MATCH, "client_id=(").is_some());
        assert!(refusal("s", "colour", "blue").is_some());
    }
}
