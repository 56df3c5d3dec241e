//! Group config resources (the `GROUP` config resource, type 32): one group's own values of
//! the group coordinator's settings, such as `consumer.session.timeout.ms`. The keys, their
//! types, Kafka 4.4's defaults and broker synonyms, and Kafka's checks (each bounded by a
//! `group.*` broker key) live here; the controller checks updates with [`refusal`], brokers
//! describe them with [`describe`], and the group coordinator reads the overrides it uses.

use fjord_configdef::{broker, Def};
use std::collections::BTreeMap;

/// The config resource type of a group.
pub const GROUP: i8 = 32;
/// DescribeConfigs' source for a group's own value (`DYNAMIC_GROUP_CONFIG`).
pub const SOURCE_GROUP: i8 = 8;

/// A consumer group's session timeout (bounded by `group.consumer.{min,max}.session.timeout.ms`).
pub const CONSUMER_SESSION_TIMEOUT_MS: &str = "consumer.session.timeout.ms";
/// A consumer group's heartbeat interval.
pub const CONSUMER_HEARTBEAT_INTERVAL_MS: &str = "consumer.heartbeat.interval.ms";

/// A key's type as Kafka's `ConfigDef` parses it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// A 32-bit integer.
    Int,
    /// A 64-bit integer.
    Long,
    /// `true` or `false`, in any case.
    Bool,
    /// Any text.
    Text,
    /// A comma-separated list.
    List,
}

impl Kind {
    /// DescribeConfigs' `ConfigType` number.
    pub fn wire(self) -> i8 {
        match self {
            Kind::Bool => 1,
            Kind::Text => 2,
            Kind::Int => 3,
            Kind::Long => 5,
            Kind::List => 7,
        }
    }

    fn name(self) -> &'static str {
        match self {
            Kind::Int => "INT",
            Kind::Long => "LONG",
            Kind::Bool => "BOOLEAN",
            Kind::Text => "STRING",
            Kind::List => "LIST",
        }
    }
}

/// One group config key as Kafka 4.4's `GroupConfig` defines it.
#[derive(Debug, Clone, Copy)]
pub struct Key {
    /// The key.
    pub name: &'static str,
    /// Its type.
    pub kind: Kind,
    /// The broker key whose value is its default (`None`: Kafka's own default below).
    pub synonym: Option<&'static str>,
    /// Kafka's default when neither the group nor the broker sets it.
    pub default: &'static str,
    /// Kafka's internal keys: accepted, described only once set.
    pub internal: bool,
    /// The `ConfigDef` validator's lower bound, if any.
    pub at_least: Option<i64>,
}

const fn key(
    name: &'static str,
    kind: Kind,
    synonym: Option<&'static str>,
    default: &'static str,
    at_least: Option<i64>,
) -> Key {
    Key {
        name,
        kind,
        synonym,
        default,
        internal: false,
        at_least,
    }
}

const fn internal(k: Key) -> Key {
    Key {
        internal: true,
        ..k
    }
}

/// Every group config key, in Kafka's definition order (the order `ConfigDef` parses them).
pub const KEYS: [Key; 27] = [
    key(
        CONSUMER_SESSION_TIMEOUT_MS,
        Kind::Int,
        Some(broker::GROUP_CONSUMER_SESSION_TIMEOUT_MS.name),
        "45000",
        Some(1),
    ),
    key(
        CONSUMER_HEARTBEAT_INTERVAL_MS,
        Kind::Int,
        Some(broker::GROUP_CONSUMER_HEARTBEAT_INTERVAL_MS.name),
        "5000",
        Some(1),
    ),
    key(
        "consumer.assignment.interval.ms",
        Kind::Int,
        Some("group.consumer.assignment.interval.ms"),
        "1000",
        Some(0),
    ),
    internal(key(
        "consumer.assignor.offload.enable",
        Kind::Bool,
        Some("group.consumer.assignor.offload.enable"),
        "true",
        None,
    )),
    key(
        "share.session.timeout.ms",
        Kind::Int,
        Some(broker::GROUP_SHARE_SESSION_TIMEOUT_MS.name),
        "45000",
        Some(1),
    ),
    key(
        "share.heartbeat.interval.ms",
        Kind::Int,
        Some(broker::GROUP_SHARE_HEARTBEAT_INTERVAL_MS.name),
        "5000",
        Some(1),
    ),
    key(
        "share.record.lock.duration.ms",
        Kind::Int,
        Some(broker::GROUP_SHARE_RECORD_LOCK_DURATION_MS.name),
        "30000",
        Some(1000),
    ),
    key(
        "share.delivery.count.limit",
        Kind::Int,
        Some(broker::GROUP_SHARE_DELIVERY_COUNT_LIMIT.name),
        "5",
        Some(2),
    ),
    key(
        "share.partition.max.record.locks",
        Kind::Int,
        Some(broker::GROUP_SHARE_PARTITION_MAX_RECORD_LOCKS.name),
        "2000",
        Some(100),
    ),
    key(SHARE_AUTO_OFFSET_RESET, Kind::Text, None, "latest", None),
    key(
        SHARE_ISOLATION_LEVEL,
        Kind::Text,
        None,
        "read_uncommitted",
        None,
    ),
    key(
        "share.renew.acknowledge.enable",
        Kind::Bool,
        None,
        "true",
        None,
    ),
    key(
        "share.assignment.interval.ms",
        Kind::Int,
        Some("group.share.assignment.interval.ms"),
        "1000",
        Some(0),
    ),
    internal(key(
        "share.assignor.offload.enable",
        Kind::Bool,
        Some("group.share.assignor.offload.enable"),
        "true",
        None,
    )),
    key(
        "streams.session.timeout.ms",
        Kind::Int,
        Some(broker::GROUP_STREAMS_SESSION_TIMEOUT_MS.name),
        "45000",
        Some(1),
    ),
    key(
        "streams.heartbeat.interval.ms",
        Kind::Int,
        Some(broker::GROUP_STREAMS_HEARTBEAT_INTERVAL_MS.name),
        "5000",
        Some(1),
    ),
    key(
        "streams.num.standby.replicas",
        Kind::Int,
        Some(broker::GROUP_STREAMS_NUM_STANDBY_REPLICAS.name),
        "0",
        Some(0),
    ),
    key(
        "streams.initial.rebalance.delay.ms",
        Kind::Int,
        Some(broker::GROUP_STREAMS_INITIAL_REBALANCE_DELAY_MS.name),
        "3000",
        Some(0),
    ),
    key(
        "streams.assignment.interval.ms",
        Kind::Int,
        Some("group.streams.assignment.interval.ms"),
        "1000",
        Some(0),
    ),
    internal(key(
        "streams.assignor.offload.enable",
        Kind::Bool,
        Some("group.streams.assignor.offload.enable"),
        "true",
        None,
    )),
    internal(key(
        "streams.task.offset.interval.ms",
        Kind::Int,
        Some(broker::GROUP_STREAMS_TASK_OFFSET_INTERVAL_MS.name),
        "60000",
        Some(1),
    )),
    internal(key(
        "streams.num.warmup.replicas",
        Kind::Int,
        Some(broker::GROUP_STREAMS_NUM_WARMUP_REPLICAS.name),
        "0",
        Some(0),
    )),
    key(
        RACK_TAGS,
        Kind::List,
        Some(broker::GROUP_STREAMS_RACK_AWARE_ASSIGNMENT_TAGS.name),
        "",
        None,
    ),
    internal(key(
        "streams.acceptable.recovery.lag",
        Kind::Long,
        Some(broker::GROUP_STREAMS_ACCEPTABLE_RECOVERY_LAG.name),
        "10000",
        Some(0),
    )),
    key(
        STREAMS_ASSIGNOR_NAME,
        Kind::Text,
        Some(broker::GROUP_STREAMS_ASSIGNORS.name),
        "sticky",
        None,
    ),
    key(DLQ_TOPIC, Kind::Text, None, "", None),
    key(
        "errors.deadletterqueue.copy.record.enable",
        Kind::Bool,
        None,
        "false",
        None,
    ),
];

const SHARE_AUTO_OFFSET_RESET: &str = "share.auto.offset.reset";
const SHARE_ISOLATION_LEVEL: &str = "share.isolation.level";
/// The group config key overriding `group.streams.rack.aware.assignment.tags`.
pub const RACK_TAGS: &str = "streams.rack.aware.assignment.tags";
const STREAMS_ASSIGNOR_NAME: &str = "streams.assignor.name";
const DLQ_TOPIC: &str = "errors.deadletterqueue.topic.name";

/// The broker keys that bound group configs, whose Kafka 4.4 defaults apply for the keys a
/// node's own properties do not set.
pub const BROKER_DEFAULTS: [&Def; 31] = [
    &broker::GROUP_CONSUMER_MIN_SESSION_TIMEOUT_MS,
    &broker::GROUP_CONSUMER_MAX_SESSION_TIMEOUT_MS,
    &broker::GROUP_CONSUMER_MIN_HEARTBEAT_INTERVAL_MS,
    &broker::GROUP_CONSUMER_MAX_HEARTBEAT_INTERVAL_MS,
    &broker::GROUP_CONSUMER_MIN_ASSIGNMENT_INTERVAL_MS,
    &broker::GROUP_CONSUMER_MAX_ASSIGNMENT_INTERVAL_MS,
    &broker::GROUP_SHARE_MIN_SESSION_TIMEOUT_MS,
    &broker::GROUP_SHARE_MAX_SESSION_TIMEOUT_MS,
    &broker::GROUP_SHARE_MIN_HEARTBEAT_INTERVAL_MS,
    &broker::GROUP_SHARE_MAX_HEARTBEAT_INTERVAL_MS,
    &broker::GROUP_SHARE_MIN_RECORD_LOCK_DURATION_MS,
    &broker::GROUP_SHARE_MAX_RECORD_LOCK_DURATION_MS,
    &broker::GROUP_SHARE_MIN_DELIVERY_COUNT_LIMIT,
    &broker::GROUP_SHARE_MAX_DELIVERY_COUNT_LIMIT,
    &broker::GROUP_SHARE_MIN_PARTITION_MAX_RECORD_LOCKS,
    &broker::GROUP_SHARE_MAX_PARTITION_MAX_RECORD_LOCKS,
    &broker::GROUP_SHARE_MIN_ASSIGNMENT_INTERVAL_MS,
    &broker::GROUP_SHARE_MAX_ASSIGNMENT_INTERVAL_MS,
    &broker::GROUP_STREAMS_MIN_SESSION_TIMEOUT_MS,
    &broker::GROUP_STREAMS_MAX_SESSION_TIMEOUT_MS,
    &broker::GROUP_STREAMS_MIN_HEARTBEAT_INTERVAL_MS,
    &broker::GROUP_STREAMS_MAX_HEARTBEAT_INTERVAL_MS,
    &broker::GROUP_STREAMS_MAX_STANDBY_REPLICAS,
    &broker::GROUP_STREAMS_MIN_ASSIGNMENT_INTERVAL_MS,
    &broker::GROUP_STREAMS_MAX_ASSIGNMENT_INTERVAL_MS,
    &broker::GROUP_STREAMS_MIN_TASK_OFFSET_INTERVAL_MS,
    &broker::GROUP_STREAMS_MAX_WARMUP_REPLICAS,
    &broker::GROUP_STREAMS_ASSIGNORS,
    &broker::GROUP_CONSUMER_SESSION_TIMEOUT_MS,
    &broker::GROUP_SHARE_SESSION_TIMEOUT_MS,
    &broker::GROUP_STREAMS_SESSION_TIMEOUT_MS,
];

/// The group config key named `name`, if Kafka has one.
pub fn key_named(name: &str) -> Option<&'static Key> {
    KEYS.iter().find(|k| k.name == name)
}

/// A broker key's value on this node: its own setting, else the default of the group key it
/// is a synonym of, else Kafka's default from [`BROKER_DEFAULTS`].
pub fn broker_value(node: &BTreeMap<String, String>, broker_key: &str) -> String {
    if let Some(v) = node.get(broker_key) {
        return v.clone();
    }
    KEYS.iter()
        .find(|k| k.synonym == Some(broker_key))
        .map(|k| k.default)
        .or_else(|| {
            BROKER_DEFAULTS
                .iter()
                .find(|d| d.name == broker_key)
                .and_then(|d| d.default)
        })
        .unwrap_or("")
        .to_string()
}

/// Why an update is refused: the group's whole set of keys after it (`config`), checked as
/// Kafka's controller checks it, in Kafka's order, with Kafka's code (INVALID_REQUEST 42 for
/// the nameless default group, INVALID_CONFIG 40 for the rest) and message. `node` is the
/// checking node's own `group.*` settings, which bound the values.
pub fn refusal(
    name: &str,
    config: &BTreeMap<String, String>,
    node: &BTreeMap<String, String>,
) -> Option<(i16, String)> {
    if name.is_empty() {
        return Some((42, "Default group resources are not allowed.".into()));
    }
    check(config, node).err().map(|why| (40, why))
}

fn check(config: &BTreeMap<String, String>, node: &BTreeMap<String, String>) -> Result<(), String> {
    let ints = check_types(config)?;
    check_bounds(config, node, &ints)
}

/// Kafka's `ConfigDef.parse` of a group's keys: each known, of its type, through its
/// validator, in definition order. Returns the numeric values.
fn check_types(config: &BTreeMap<String, String>) -> Result<BTreeMap<&'static str, i64>, String> {
    if let Some(unknown) = config.keys().find(|k| key_named(k).is_none()) {
        return Err(format!("Unknown group config name: {unknown}"));
    }
    if let Some(tags) = config.get(RACK_TAGS) {
        let items: Vec<&str> = list_items(tags);
        if items
            .iter()
            .enumerate()
            .any(|(i, t)| items[..i].contains(t))
        {
            return Err(format!("{RACK_TAGS} must not contain duplicate tag keys."));
        }
    }
    let mut ints: BTreeMap<&'static str, i64> = BTreeMap::new();
    for k in KEYS.iter() {
        let Some(value) = config.get(k.name) else {
            continue;
        };
        let invalid =
            |why: &str| format!("Invalid value {value} for configuration {}: {why}", k.name);
        let trimmed = value.trim();
        match k.kind {
            Kind::Int | Kind::Long => {
                let n = match k.kind {
                    Kind::Int => trimmed.parse::<i32>().map(i64::from).ok(),
                    _ => trimmed.parse::<i64>().ok(),
                }
                .ok_or_else(|| invalid(&format!("Not a number of type {}", k.kind.name())))?;
                if let Some(min) = k.at_least.filter(|m| n < *m) {
                    return Err(invalid(&format!("Value must be at least {min}")));
                }
                ints.insert(k.name, n);
            }
            Kind::Bool => {
                if !trimmed.eq_ignore_ascii_case("true") && !trimmed.eq_ignore_ascii_case("false") {
                    return Err(invalid("Expected value to be either true or false"));
                }
            }
            Kind::Text if k.name == SHARE_AUTO_OFFSET_RESET => {
                if !valid_auto_offset_reset(trimmed) {
                    return Err(invalid(&format!(
                        "Invalid value `{trimmed}` for configuration {SHARE_AUTO_OFFSET_RESET}. \
                         The value must be either 'earliest', 'latest' or of the format \
                         'by_duration:<PnDTnHnMn.nS>'."
                    )));
                }
            }
            Kind::Text if k.name == SHARE_ISOLATION_LEVEL => {
                if trimmed != "read_committed" && trimmed != "read_uncommitted" {
                    return Err(invalid(
                        "String must be one of: read_committed, read_uncommitted",
                    ));
                }
            }
            Kind::Text | Kind::List => {}
        }
    }
    Ok(ints)
}

/// Kafka's `GroupConfig.validateValues`: the numeric values (`ints`) within the checking
/// node's bounds, in Kafka's order, a registered streams assignor, sessions longer than
/// heartbeats, a DLQ topic name outside `__`.
fn check_bounds(
    config: &BTreeMap<String, String>,
    node: &BTreeMap<String, String>,
    ints: &BTreeMap<&'static str, i64>,
) -> Result<(), String> {
    let bound = |k: &str| broker_value(node, k).trim().parse::<i64>().unwrap_or(0);
    let range = |key: &str, kind: &str, what: &str| -> Result<(), String> {
        let (lo, hi) = (
            bound(&format!("group.{kind}.min.{what}")),
            bound(&format!("group.{kind}.max.{what}")),
        );
        match ints.get(key) {
            Some(v) if *v < lo || *v > hi => Err(format!(
                "{key} must be in the range {lo} to {hi} inclusive."
            )),
            _ => Ok(()),
        }
    };
    range(
        CONSUMER_HEARTBEAT_INTERVAL_MS,
        "consumer",
        "heartbeat.interval.ms",
    )?;
    range(
        CONSUMER_SESSION_TIMEOUT_MS,
        "consumer",
        "session.timeout.ms",
    )?;
    range(
        "consumer.assignment.interval.ms",
        "consumer",
        "assignment.interval.ms",
    )?;
    range(
        "share.heartbeat.interval.ms",
        "share",
        "heartbeat.interval.ms",
    )?;
    range("share.session.timeout.ms", "share", "session.timeout.ms")?;
    range(
        "share.record.lock.duration.ms",
        "share",
        "record.lock.duration.ms",
    )?;
    range(
        "share.delivery.count.limit",
        "share",
        "delivery.count.limit",
    )?;
    range(
        "share.partition.max.record.locks",
        "share",
        "partition.max.record.locks",
    )?;
    range(
        "share.assignment.interval.ms",
        "share",
        "assignment.interval.ms",
    )?;
    range(
        "streams.heartbeat.interval.ms",
        "streams",
        "heartbeat.interval.ms",
    )?;
    range(
        "streams.session.timeout.ms",
        "streams",
        "session.timeout.ms",
    )?;
    let at_most = |key: &str, broker_key: &str| -> Result<(), String> {
        let max = bound(broker_key);
        match ints.get(key) {
            Some(v) if *v > max => Err(format!("{key} must be less than or equal to {max}")),
            _ => Ok(()),
        }
    };
    at_most(
        "streams.num.standby.replicas",
        broker::GROUP_STREAMS_MAX_STANDBY_REPLICAS.name,
    )?;
    range(
        "streams.assignment.interval.ms",
        "streams",
        "assignment.interval.ms",
    )?;
    let min_offset = bound(broker::GROUP_STREAMS_MIN_TASK_OFFSET_INTERVAL_MS.name);
    if ints
        .get("streams.task.offset.interval.ms")
        .is_some_and(|v| *v < min_offset)
    {
        return Err(format!(
            "streams.task.offset.interval.ms must be greater than or equal to {min_offset}"
        ));
    }
    at_most(
        "streams.num.warmup.replicas",
        broker::GROUP_STREAMS_MAX_WARMUP_REPLICAS.name,
    )?;
    if let Some(name) = config.get(STREAMS_ASSIGNOR_NAME) {
        let registered = broker_value(node, broker::GROUP_STREAMS_ASSIGNORS.name);
        let names = list_items(&registered);
        if !names.contains(&name.trim()) {
            return Err(format!(
                "{STREAMS_ASSIGNOR_NAME} '{name}' is not a registered task assignor. \
                 Registered assignors are: [{}].",
                names.join(", ")
            ));
        }
    }
    for kind in ["consumer", "share", "streams"] {
        let session = format!("{kind}.session.timeout.ms");
        let heartbeat = format!("{kind}.heartbeat.interval.ms");
        if !ints.contains_key(session.as_str()) && !ints.contains_key(heartbeat.as_str()) {
            continue;
        }
        let get = |k: &str| {
            ints.get(k)
                .copied()
                .unwrap_or_else(|| bound(&format!("group.{k}")))
        };
        if get(&session) <= get(&heartbeat) {
            return Err(format!("{session} must be greater than {heartbeat}"));
        }
    }
    if config
        .get(DLQ_TOPIC)
        .is_some_and(|t| !t.is_empty() && t.starts_with("__"))
    {
        return Err(format!(
            "{DLQ_TOPIC}: DLQ topic name must not start with '__'"
        ));
    }
    Ok(())
}

/// The items of a list value, as Kafka splits one (trimmed, empty ones dropped).
fn list_items(value: &str) -> Vec<&str> {
    value
        .split(',')
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .collect()
}

/// `earliest`, `latest` or `by_duration:` and a non-negative ISO-8601 duration as Java's
/// `Duration.parse` reads one (`PnDTnHnMn.nS`).
fn valid_auto_offset_reset(value: &str) -> bool {
    match value {
        "earliest" | "latest" => true,
        _ => value
            .strip_prefix("by_duration:")
            .is_some_and(|d| !d.starts_with('-') && iso_duration(d.strip_prefix('+').unwrap_or(d))),
    }
}

/// True for `PnDTnHnMn.nS` (each part optional, at least one; a `T` needs a part after it;
/// the letters in any case; the fraction only on seconds), with no negative part.
fn iso_duration(d: &str) -> bool {
    let upper = d.to_ascii_uppercase();
    let Some(rest) = upper.strip_prefix('P') else {
        return false;
    };
    let (date, time) = match rest.split_once('T') {
        Some((date, time)) => {
            if time.is_empty() {
                return false;
            }
            (date, Some(time))
        }
        None => (rest, None),
    };
    let mut parts = 0;
    // The date part: nothing, or a number and `D`.
    if !date.is_empty() {
        match date.strip_suffix('D') {
            Some(n) if digits(n) => parts += 1,
            _ => return false,
        }
    }
    if let Some(mut time) = time {
        for unit in ['H', 'M', 'S'] {
            if let Some(at) = time.find(unit) {
                let n = &time[..at];
                let ok = if unit == 'S' {
                    match n.split_once(['.', ',']) {
                        Some((whole, frac)) => {
                            digits(whole)
                                && frac.len() <= 9
                                && frac.bytes().all(|b| b.is_ascii_digit())
                        }
                        None => digits(n),
                    }
                } else {
                    digits(n)
                };
                if !ok {
                    return false;
                }
                parts += 1;
                time = &time[at + 1..];
            }
        }
        if !time.is_empty() {
            return false;
        }
    }
    parts > 0
}

fn digits(n: &str) -> bool {
    let n = n.strip_prefix('+').unwrap_or(n);
    !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit())
}

/// One key as DescribeConfigs shows it for a group.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Described {
    /// The key.
    pub name: &'static str,
    /// Its `ConfigType` number.
    pub config_type: i8,
    /// The group's own value, if set (source [`SOURCE_GROUP`]).
    pub own: Option<String>,
    /// The default's name: the broker synonym, else the key itself.
    pub default_name: &'static str,
    /// The default's value as the synonym is set.
    pub default_value: String,
    /// The value the default gives the key.
    pub default_effective: String,
}

/// A group's configs as DescribeConfigs shows them: every key Kafka lists (the internal ones
/// only once set) that is `wanted`, with the group's own value and the default it overrides
/// (the node's setting of the broker synonym, else Kafka's default).
pub fn describe<'a>(
    own: impl Fn(&str) -> Option<&'a str>,
    node: &BTreeMap<String, String>,
    wanted: impl Fn(&str) -> bool,
) -> Vec<Described> {
    KEYS.iter()
        .filter(|k| wanted(k.name))
        .filter(|k| !k.internal || own(k.name).is_some())
        .map(|k| {
            let (default_name, default_value) = match k.synonym {
                Some(s) => (s, broker_value(node, s)),
                None => (k.name, k.default.to_string()),
            };
            // The assignor's default is the first registered one.
            let default_effective = if k.name == STREAMS_ASSIGNOR_NAME {
                list_items(&default_value)
                    .first()
                    .copied()
                    .unwrap_or("")
                    .to_string()
            } else {
                default_value.clone()
            };
            Described {
                name: k.name,
                config_type: k.kind.wire(),
                own: own(k.name).map(str::to_string),
                default_name,
                default_value,
                default_effective,
            }
        })
        .collect()
}

/// A group's own value of an integer key, if it sets one that parses.
pub fn own_int(own: Option<&str>) -> Option<i32> {
    own.and_then(|v| v.trim().parse().ok())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn refused(pairs: &[(&str, &str)]) -> Option<String> {
        let config = pairs
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect();
        refusal("g", &config, &BTreeMap::new()).map(|(_, why)| why)
    }

    /// Each message is the one Kafka 4.4 answered for the same update, run here with
    /// `kafka-configs --alter --entity-type groups`.
    #[test]
    fn kafkas_checks_and_messages() {
        let cases: &[(&str, &str, Option<&str>)] = &[
            ("consumer.session.timeout.ms", "1000", Some("consumer.session.timeout.ms must be in the range 45000 to 60000 inclusive.")),
            ("consumer.session.timeout.ms", "50000", None),
            ("consumer.session.timeout.ms", " 50000", None),
            ("consumer.session.timeout.ms", "abc", Some("Invalid value abc for configuration consumer.session.timeout.ms: Not a number of type INT")),
            ("consumer.session.timeout.ms", "99999999999", Some("Invalid value 99999999999 for configuration consumer.session.timeout.ms: Not a number of type INT")),
            ("consumer.heartbeat.interval.ms", "1000", Some("consumer.heartbeat.interval.ms must be in the range 5000 to 15000 inclusive.")),
            ("consumer.heartbeat.interval.ms", "6000", None),
            ("consumer.assignment.interval.ms", "5", None),
            ("consumer.assignment.interval.ms", "20000", Some("consumer.assignment.interval.ms must be in the range 0 to 15000 inclusive.")),
            ("consumer.assignor.offload.enable", "true", None),
            ("foo.bar", "1", Some("Unknown group config name: foo.bar")),
            ("share.auto.offset.reset", "foo", Some("Invalid value foo for configuration share.auto.offset.reset: Invalid value `foo` for configuration share.auto.offset.reset. The value must be either 'earliest', 'latest' or of the format 'by_duration:<PnDTnHnMn.nS>'.")),
            ("share.auto.offset.reset", "EARLIEST", Some("Invalid value EARLIEST for configuration share.auto.offset.reset: Invalid value `EARLIEST` for configuration share.auto.offset.reset. The value must be either 'earliest', 'latest' or of the format 'by_duration:<PnDTnHnMn.nS>'.")),
            ("share.auto.offset.reset", "by_duration:PT1H", None),
            ("share.auto.offset.reset", "by_duration:-PT1H", Some("Invalid value by_duration:-PT1H for configuration share.auto.offset.reset: Invalid value `by_duration:-PT1H` for configuration share.auto.offset.reset. The value must be either 'earliest', 'latest' or of the format 'by_duration:<PnDTnHnMn.nS>'.")),
            ("share.auto.offset.reset", "by_duration:xx", Some("Invalid value by_duration:xx for configuration share.auto.offset.reset: Invalid value `by_duration:xx` for configuration share.auto.offset.reset. The value must be either 'earliest', 'latest' or of the format 'by_duration:<PnDTnHnMn.nS>'.")),
            ("share.isolation.level", "foo", Some("Invalid value foo for configuration share.isolation.level: String must be one of: read_committed, read_uncommitted")),
            ("share.isolation.level", "READ_COMMITTED", Some("Invalid value READ_COMMITTED for configuration share.isolation.level: String must be one of: read_committed, read_uncommitted")),
            ("share.delivery.count.limit", "1", Some("Invalid value 1 for configuration share.delivery.count.limit: Value must be at least 2")),
            ("share.delivery.count.limit", "11", Some("share.delivery.count.limit must be in the range 2 to 10 inclusive.")),
            ("share.record.lock.duration.ms", "1", Some("Invalid value 1 for configuration share.record.lock.duration.ms: Value must be at least 1000")),
            ("share.partition.max.record.locks", "1", Some("Invalid value 1 for configuration share.partition.max.record.locks: Value must be at least 100")),
            ("share.session.timeout.ms", "10", Some("share.session.timeout.ms must be in the range 45000 to 60000 inclusive.")),
            ("streams.num.standby.replicas", "3", Some("streams.num.standby.replicas must be less than or equal to 2")),
            ("streams.assignor.name", "foo", Some("streams.assignor.name 'foo' is not a registered task assignor. Registered assignors are: [sticky].")),
            ("streams.assignor.name", "sticky", None),
            ("streams.rack.aware.assignment.tags", "a,a", Some("streams.rack.aware.assignment.tags must not contain duplicate tag keys.")),
            ("streams.rack.aware.assignment.tags", "a,b", None),
            ("streams.initial.rebalance.delay.ms", "-1", Some("Invalid value -1 for configuration streams.initial.rebalance.delay.ms: Value must be at least 0")),
            ("streams.task.offset.interval.ms", "1", Some("streams.task.offset.interval.ms must be greater than or equal to 15000")),
            ("streams.num.warmup.replicas", "21", Some("streams.num.warmup.replicas must be less than or equal to 20")),
            ("streams.acceptable.recovery.lag", "-1", Some("Invalid value -1 for configuration streams.acceptable.recovery.lag: Value must be at least 0")),
            ("errors.deadletterqueue.topic.name", "dlq.x", None),
            ("errors.deadletterqueue.topic.name", "__x", Some("errors.deadletterqueue.topic.name: DLQ topic name must not start with '__'")),
            ("errors.deadletterqueue.copy.record.enable", "yes", Some("Invalid value yes for configuration errors.deadletterqueue.copy.record.enable: Expected value to be either true or false")),
            ("errors.deadletterqueue.copy.record.enable", "TRUE", None),
        ];
        for (k, v, want) in cases {
            assert_eq!(refused(&[(k, v)]).as_deref(), *want, "{k}={v}");
        }
    }

    #[test]
    fn the_default_group_and_the_session_beside_the_heartbeat() {
        let config = BTreeMap::from([(
            "consumer.session.timeout.ms".to_string(),
            "50000".to_string(),
        )]);
        assert_eq!(
            refusal("", &config, &BTreeMap::new()),
            Some((42, "Default group resources are not allowed.".into()))
        );
        // With bounds that let them meet, the session must exceed the heartbeat.
        let node = BTreeMap::from([
            (
                "group.consumer.min.session.timeout.ms".to_string(),
                "1000".to_string(),
            ),
            (
                "group.consumer.max.heartbeat.interval.ms".to_string(),
                "60000".to_string(),
            ),
        ]);
        let config = BTreeMap::from([
            (
                "consumer.session.timeout.ms".to_string(),
                "10000".to_string(),
            ),
            (
                "consumer.heartbeat.interval.ms".to_string(),
                "10000".to_string(),
            ),
        ]);
        assert_eq!(
            refusal("g", &config, &node),
            Some((
                40,
                "consumer.session.timeout.ms must be greater than consumer.heartbeat.interval.ms"
                    .into()
            ))
        );
        // Only the heartbeat set: it is compared with the broker's session timeout.
        let config = BTreeMap::from([(
            "consumer.heartbeat.interval.ms".to_string(),
            "50000".to_string(),
        )]);
        assert!(refusal("g", &config, &node).is_some());
    }

    #[test]
    fn durations_as_java_reads_them() {
        for ok in ["P1D", "PT1H", "PT0.5S", "P1DT2H3M4.5S", "pt10m", "PT1H30M"] {
            assert!(iso_duration(ok), "{ok}");
        }
        for bad in ["P", "PT", "1H", "PT1", "P1H", "PT1S2M", "PT1.5M", "xx"] {
            assert!(!iso_duration(bad), "{bad}");
        }
    }

    #[test]
    fn internal_keys_are_described_once_set() {
        let none = describe(|_| None, &BTreeMap::new(), |_| true);
        assert_eq!(
            none.len(),
            21,
            "the keys kafka-configs --all lists on Kafka 4.4"
        );
        assert!(none.iter().all(|d| d.own.is_none()));
        let set = describe(
            |k| (k == "consumer.assignor.offload.enable").then_some("false"),
            &BTreeMap::new(),
            |_| true,
        );
        assert_eq!(set.len(), 22);
        let assignor = none
            .iter()
            .find(|d| d.name == "streams.assignor.name")
            .unwrap();
        assert_eq!(
            (assignor.default_name, assignor.default_effective.as_str()),
            ("group.streams.assignors", "sticky")
        );
    }
}
