//! The rules over the keys `fjord-configdef` declares: validation of a value (INVALID_CONFIG
//! with Kafka's wording otherwise), which broker keys a dynamic update may set and where
//! (per broker, per listener, cluster-wide), and each topic key's broker synonyms. Shared by
//! the controller (validation) and the broker (DescribeConfigs).

/// Kafka's ConfigResource type of a topic.
pub const TOPIC: i8 = 2;
/// Kafka's ConfigResource type of a broker (an empty name: the cluster-wide default).
pub const BROKER: i8 = 4;

/// Kafka's `ConfigSource` numbers, as DescribeConfigs reports them.
pub mod source {
    /// A topic's own value.
    pub const DYNAMIC_TOPIC: i8 = 1;
    /// A dynamic value for one broker.
    pub const DYNAMIC_BROKER: i8 = 2;
    /// A dynamic cluster-wide default.
    pub const DYNAMIC_DEFAULT_BROKER: i8 = 3;
    /// The broker's `server.properties` (or `--override`).
    pub const STATIC_BROKER: i8 = 4;
    /// Kafka's default.
    pub const DEFAULT: i8 = 5;
}

pub use fjord_configdef::{broker, topic, ConfigType, Def, Dynamic, Scope, Synonym};

/// The type and default of a topic config, if Kafka has it.
pub fn topic_config(name: &str) -> Option<(ConfigType, &'static str)> {
    fjord_configdef::topic_key(name).map(|d| (d.ty, d.default.unwrap_or("")))
}

/// The broker keys the controller accepts at runtime and fjord acts on.
pub fn acted_broker_keys() -> impl Iterator<Item = &'static Def> {
    broker::ALL
        .iter()
        .copied()
        .filter(|d| d.scope == Scope::Acted)
}

/// The key a `listener.name.<listener>.` key sets, and for SASL keys the mechanism prefix
/// dropped (`listener.name.sasl_ssl.plain.sasl.jaas.config` sets `sasl.jaas.config`).
pub fn listener_base(key: &str) -> Option<&str> {
    let rest = key.strip_prefix("listener.name.")?;
    let (_, base) = rest.split_once('.')?;
    if base.starts_with("sasl.") || base.starts_with("ssl.") || !base.contains('.') {
        return Some(base);
    }
    match base.split_once('.') {
        Some((_, sasl)) if sasl.starts_with("sasl.") => Some(sasl),
        _ => Some(base),
    }
}

/// The declared broker key `key`.
fn def(key: &str) -> Option<&'static Def> {
    fjord_configdef::broker_key(key)
}

/// True for the security keys Kafka takes per listener only.
fn listener_only(key: &str) -> bool {
    def(key).is_some_and(|d| d.scope == Scope::Stored(Dynamic::ListenerOnly))
}

/// True for the listener and security keys of Kafka's dynamic set.
fn is_listener_key(key: &str) -> bool {
    def(key).is_some_and(|d| d.scope.is_listener())
}

/// `[a, b]`: the keys as Kafka's messages list them.
fn key_list(keys: &[&str]) -> String {
    let mut keys = keys.to_vec();
    keys.sort_unstable();
    keys.dedup();
    format!("[{}]", keys.join(", "))
}

/// True for a broker key only the server properties set, as Kafka 4.4 has it (fjord's own
/// keys, which Kafka does not know, pass as custom keys do).
pub fn is_static(key: &str) -> bool {
    fjord_configdef::KAFKA_STATIC_KEYS.contains(&key)
}

/// Why Kafka refuses a dynamic broker update setting `keys`, before it looks at any value:
/// keys only the server properties set, then security keys without a listener prefix.
pub fn broker_update_refusal(keys: &[&str]) -> Option<String> {
    let fixed: Vec<&str> = keys.iter().copied().filter(|k| is_static(k)).collect();
    if !fixed.is_empty() {
        return Some(format!(
            "Cannot update these configs dynamically: {}",
            key_list(&fixed)
        ));
    }
    let bare: Vec<&str> = keys.iter().copied().filter(|k| listener_only(k)).collect();
    if !bare.is_empty() {
        return Some(format!(
            "These security configs can be dynamically updated only per-listener using the listener prefix: {}",
            key_list(&bare)
        ));
    }
    None
}

/// Why Kafka refuses setting `keys` on the cluster-wide default (`broker` is ""), after the
/// values passed: listener and security keys (but the connection limits and network
/// threads) are per broker only.
pub fn broker_default_refusal(keys: &[&str], broker: &str) -> Option<String> {
    if !broker.is_empty() {
        return None;
    }
    let per_broker: Vec<&str> = keys
        .iter()
        .copied()
        .filter(|k| {
            let base = listener_base(k).unwrap_or(k);
            is_listener_key(base)
                && def(base).is_some_and(|d| d.scope != Scope::Stored(Dynamic::ListenerCluster))
        })
        .collect();
    (!per_broker.is_empty()).then(|| {
        format!(
            "Cannot update these configs at default cluster level, broker id must be specified: {}",
            key_list(&per_broker)
        )
    })
}

/// The wire type DescribeConfigs gives a dynamic broker key as set: its own, or for a custom
/// key Kafka does not know, UNKNOWN (0), as Kafka describes one.
pub fn broker_key_wire_type(key: &str) -> i8 {
    broker_config(key).map_or(0, |(t, _)| t.wire())
}

/// True when fjord acts on dynamic broker key `key` (the rest are stored and described only).
pub fn broker_key_used(key: &str) -> bool {
    fjord_configdef::broker_key(key).is_some_and(|d| d.scope == Scope::Acted)
}

/// The type of a dynamic broker config, if accepted (with Kafka's default where fjord acts
/// on it, else ""): fjord's own, Kafka's other dynamic keys, and their per-listener forms.
pub fn broker_config(name: &str) -> Option<(ConfigType, &'static str)> {
    let described = |d: &Def| match d.scope {
        Scope::Acted => Some((d.ty, d.default.unwrap_or_default())),
        Scope::Stored(_) => Some((d.ty, "")),
        Scope::Static | Scope::Topic => None,
    };
    match listener_base(name) {
        Some(base) if is_listener_key(base) => def(base).and_then(described),
        Some(_) => None,
        None => def(name).and_then(described),
    }
}

/// Checks `value` for a key of type `t`; the message names the key as Kafka's does.
pub fn validate(name: &str, t: ConfigType, value: &str) -> Result<(), crate::MetadataError> {
    let bad = |why: String| {
        Err(crate::MetadataError::InvalidConfig(format!(
            "Invalid value {value} for configuration {name}: {why}"
        )))
    };
    match t {
        ConfigType::Int(min) => match value.trim().parse::<i32>() {
            Ok(v) if i64::from(v) >= min => Ok(()),
            Ok(_) => bad(format!("Value must be at least {min}")),
            Err(_) => bad("Not a number of type INT".into()),
        },
        ConfigType::Long(min) => match value.trim().parse::<i64>() {
            Ok(v) if v >= min => Ok(()),
            Ok(_) => bad(format!("Value must be at least {min}")),
            Err(_) => bad("Not a number of type LONG".into()),
        },
        ConfigType::Bool => {
            if value.eq_ignore_ascii_case("true") || value.eq_ignore_ascii_case("false") {
                Ok(())
            } else {
                bad("Expected value to be either true or false".into())
            }
        }
        ConfigType::Double => match value.trim().parse::<f64>() {
            Ok(v) if (0.0..=1.0).contains(&v) => Ok(()),
            Ok(_) => bad("Value must be between 0 and 1".into()),
            Err(_) => bad("Not a number of type DOUBLE".into()),
        },
        ConfigType::Number => match value.trim().parse::<f64>() {
            Ok(v) if v >= 0.0 => Ok(()),
            Ok(_) => bad("Value must be at least 0".into()),
            Err(_) => bad("Not a number of type DOUBLE".into()),
        },
        ConfigType::Choice(words, list) => {
            let parts: Vec<&str> = if list {
                value.split(',').map(str::trim).collect()
            } else {
                vec![value.trim()]
            };
            if parts.iter().all(|p| words.contains(p)) && !parts.is_empty() {
                Ok(())
            } else {
                bad(format!("String must be one of: {}", words.join(", ")))
            }
        }
        ConfigType::Text => Ok(()),
        ConfigType::ReplicaList => fjord_quota::ThrottledReplicas::parse(name, value)
            .map(|_| ())
            .map_err(|why| {
                crate::MetadataError::InvalidConfig(format!(
                    "Invalid value {value} for configuration {name}: {why}"
                ))
            }),
    }
}

/// The broker keys that supply a topic key's default, in Kafka's order of precedence, each
/// with the factor that turns its value into the topic key's unit (the key's declared chain).
pub fn broker_synonyms(topic_key: &str) -> &'static [fjord_configdef::Synonym] {
    fjord_configdef::topic_key(topic_key).map_or(&[], |d| d.synonyms)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_per_listener_keys_are_kafkas_ssl_stores() {
        // Kafka's SslConfigs.RECONFIGURABLE_CONFIGS.
        let stores: Vec<&str> = broker::ALL
            .iter()
            .filter(|d| d.scope == Scope::Stored(Dynamic::ListenerOnly))
            .map(|d| d.name)
            .collect();
        assert_eq!(stores.len(), 10);
        assert!(stores.iter().all(|k| k.starts_with("ssl.")
            && (k.contains("keystore") || k.contains("truststore") || *k == "ssl.key.password")));
        assert!(!listener_only("ssl.protocol"));
        assert_eq!(
            listener_base("listener.name.sasl_ssl.scram-sha-256.sasl.jaas.config"),
            Some("sasl.jaas.config")
        );
        assert_eq!(
            listener_base("listener.name.client.max.connections"),
            Some("max.connections")
        );
        assert_eq!(listener_base("max.connections"), None);
        // Kafka's listener connection limits: per listener, and cluster-wide too.
        assert!(broker_config("listener.name.client.max.connections").is_some());
        assert_eq!(
            broker_default_refusal(&["listener.name.client.max.connections"], ""),
            None
        );
        assert!(broker_default_refusal(&["listener.name.client.ssl.protocol"], "").is_some());
        assert_eq!(
            broker_default_refusal(&["listener.name.client.ssl.protocol"], "1"),
            None
        );
    }

    #[test]
    fn static_keys_and_bare_security_keys_are_refused_in_kafkas_order() {
        // Kafka 4.4 lists keys as a Java set prints: "[a, b]".
        assert_eq!(
            broker_update_refusal(&["log.dirs", "node.id", "ssl.keystore.location"]).as_deref(),
            Some("Cannot update these configs dynamically: [log.dirs, node.id]")
        );
        assert_eq!(
            broker_update_refusal(&["ssl.keystore.location"]).as_deref(),
            Some("These security configs can be dynamically updated only per-listener using the listener prefix: [ssl.keystore.location]")
        );
        // Custom keys and the keys fjord changes at runtime pass.
        assert_eq!(
            broker_update_refusal(&[
                "my.key",
                "num.partitions",
                "listener.name.x.ssl.keystore.location"
            ]),
            None
        );
        // No key is both static and dynamic.
        let declared = broker::ALL.iter().filter(|d| d.scope == Scope::Static);
        for key in fjord_configdef::KAFKA_STATIC_KEYS
            .iter()
            .copied()
            .chain(declared.map(|d| d.name))
        {
            assert!(broker_config(key).is_none(), "{key} is static and dynamic");
        }
        assert_eq!(broker_key_wire_type("my.key"), 0);
    }
}
