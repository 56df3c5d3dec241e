//! DescribeConfigs answered by the broker itself, as Kafka does: only a broker knows its own
//! static configuration (`server.properties` and `--override`). A topic shows every topic
//! config with its value and source, the first of: the topic's own value, this broker's
//! dynamic value of a broker synonym, the cluster-wide dynamic default, the static value,
//! Kafka's default; a broker shows every key it knows the same way (dynamic per broker,
//! dynamic default, static, default). With `include_synonyms` each config lists that chain.
//! Sensitive keys (passwords, JAAS) show no value.

use fjord_configdef::broker;
use fjord_metadata::config_defs::source::{
    DEFAULT, DYNAMIC_BROKER, DYNAMIC_DEFAULT_BROKER, DYNAMIC_TOPIC, STATIC_BROKER,
};
use fjord_metadata::config_defs::{
    broker_config, broker_key_used, broker_synonyms, topic, Synonym, BROKER, TOPIC,
};
use fjord_metadata::MetadataImage;
use fjord_protocol::generated::{
    describe_configs_request::{DescribeConfigsRequest, DescribeConfigsResource},
    describe_configs_response::{
        DescribeConfigsResourceResult, DescribeConfigsResponse, DescribeConfigsResult,
        DescribeConfigsSynonym,
    },
};
use fjord_protocol::ErrorCode;
use std::collections::BTreeMap;

/// One broker key this node knows: its name, Kafka's `ConfigType` number, its default.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct KnownKey {
    /// The key.
    pub name: String,
    /// Kafka's `ConfigType` number (1 boolean, 2 string, 3 int, 5 long, ...).
    pub config_type: i8,
    /// Kafka's default, if the key has one.
    pub default: Option<String>,
}

/// This broker's static configuration.
#[derive(Debug, Clone, Default)]
pub struct StaticConfig {
    /// The broker's id.
    pub node_id: i32,
    /// The keys set in its properties file or overrides.
    pub values: BTreeMap<String, String>,
    /// Every broker key it knows.
    pub known: Vec<KnownKey>,
}

/// One link of the chain that sets a config: a key, its value as set, where it was set, and
/// the value it gives the config (scaled to the config's unit).
#[derive(Debug, Clone)]
struct Link {
    name: String,
    value: String,
    source: i8,
    effective: String,
}

impl Link {
    fn new(name: &str, value: &str, source: i8) -> Link {
        Link {
            name: name.to_string(),
            value: value.to_string(),
            source,
            effective: value.to_string(),
        }
    }
}

/// The end of a topic key's chain: Kafka's default, named by the broker synonym that carries
/// it. Kafka leaves `log.retention.ms` and `log.retention.minutes` unset by default and
/// defaults `log.retention.hours` (168); so the last synonym names the default, in its unit.
fn default_link(key: &str, synonyms: &[Synonym], default: &str) -> Link {
    match synonyms.last().map(|s| (s.def.name, s.factor)) {
        None => Link::new(key, default, DEFAULT),
        Some((name, 1)) => Link::new(name, default, DEFAULT),
        Some((name, factor)) => {
            let value = default
                .parse::<i64>()
                .map_or_else(|_| default.to_string(), |v| (v / factor).to_string());
            Link {
                effective: default.to_string(),
                ..Link::new(name, &value, DEFAULT)
            }
        }
    }
}

/// True for keys whose values are never shown.
pub fn sensitive(key: &str) -> bool {
    key.ends_with(".password")
        || key.ends_with(broker::SASL_JAAS_CONFIG.name)
        || key.ends_with(".key")
}

/// One config of the answer: its value and source from the first link of `chain`, the
/// chain itself as synonyms when asked.
fn entry(
    name: &str,
    config_type: i8,
    read_only: bool,
    chain: Vec<Link>,
    include_synonyms: bool,
) -> DescribeConfigsResourceResult {
    let hidden = sensitive(name);
    let (value, source) = chain
        .first()
        .map(|l| (Some(l.effective.clone()), l.source))
        .unwrap_or((None, DEFAULT));
    DescribeConfigsResourceResult {
        name: name.to_string(),
        value: if hidden { None } else { value },
        read_only,
        config_source: source,
        is_sensitive: hidden,
        synonyms: if include_synonyms {
            chain
                .into_iter()
                .map(|l| DescribeConfigsSynonym {
                    name: l.name,
                    value: if hidden { None } else { Some(l.value) },
                    source: l.source,
                    ..Default::default()
                })
                .collect()
        } else {
            Vec::new()
        },
        config_type,
        ..Default::default()
    }
}

/// A topic config's entry: the value and source from `chain` (the topic's own, else the
/// broker synonyms' by source, else Kafka's default). A key with no broker synonym lists no
/// default among its synonyms (as Kafka's `ConfigHelper`: only its own value when set); one
/// with broker synonyms lists the chain (docs/EXTENSIONS.md: Kafka lists less for keys with
/// several).
fn topic_entry(
    key: &str,
    config_type: i8,
    chain: Vec<Link>,
    synonyms: &[Synonym],
    include_synonyms: bool,
) -> DescribeConfigsResourceResult {
    let (value, source) = chain
        .first()
        .map_or((None, DEFAULT), |l| (Some(l.effective.clone()), l.source));
    let listed: Vec<Link> = if synonyms.is_empty() {
        chain.into_iter().filter(|l| l.source != DEFAULT).collect()
    } else {
        chain
    };
    let mut e = entry(key, config_type, false, listed, include_synonyms);
    if !e.is_sensitive {
        e.value = value;
    }
    e.config_source = source;
    e
}

impl StaticConfig {
    /// The chain of (name, value, source) that sets broker key `key`, most specific first.
    fn broker_chain(&self, image: &MetadataImage, key: &str, factor: i64) -> Vec<Link> {
        let scaled = |v: &str| -> String {
            if factor == 1 {
                v.to_string()
            } else {
                v.trim()
                    .parse::<i64>()
                    .map(|n| n.saturating_mul(factor).to_string())
                    .unwrap_or_else(|_| v.to_string())
            }
        };
        let mut chain = Vec::new();
        let me = self.node_id.to_string();
        let found = [
            (image.configs.get(BROKER, &me, key), DYNAMIC_BROKER),
            (image.configs.get(BROKER, "", key), DYNAMIC_DEFAULT_BROKER),
            (self.values.get(key).map(String::as_str), STATIC_BROKER),
        ];
        for (value, source) in found {
            if let Some(v) = value {
                chain.push(Link {
                    effective: scaled(v),
                    ..Link::new(key, v, source)
                });
            }
        }
        chain
    }

    /// DescribeConfigs for topics and this broker.
    pub fn describe(
        &self,
        image: &MetadataImage,
        r: &DescribeConfigsRequest,
    ) -> DescribeConfigsResponse {
        DescribeConfigsResponse {
            results: r
                .resources
                .iter()
                .map(|res| self.describe_resource(image, res, r.include_synonyms))
                .collect(),
            ..Default::default()
        }
    }

    /// One resource's configs, or its error.
    fn describe_resource(
        &self,
        image: &MetadataImage,
        res: &DescribeConfigsResource,
        synonyms: bool,
    ) -> DescribeConfigsResult {
        let mut out = DescribeConfigsResult {
            resource_type: res.resource_type,
            resource_name: res.resource_name.clone(),
            ..Default::default()
        };
        let wanted = |k: &str| {
            res.configuration_keys
                .as_ref()
                .is_none_or(|keys| keys.iter().any(|x| x == k))
        };
        let name = &res.resource_name;
        let described = match res.resource_type {
            TOPIC => self.topic_configs(image, name, &wanted, synonyms),
            BROKER => self.broker_configs(image, name, &wanted, synonyms),
            fjord_metadata::group_configs::GROUP => {
                Ok(self.group_configs(image, res, &wanted, synonyms))
            }
            fjord_metadata::client_metrics::CLIENT_METRICS => {
                let own = |k: &str| image.configs.get(res.resource_type, name, k);
                Ok(fjord_metadata::client_metrics::describe(own, wanted)
                    .into_iter()
                    .map(|(key, value, source, kind)| {
                        entry(
                            key,
                            kind,
                            false,
                            vec![Link::new(key, &value, source)],
                            synonyms,
                        )
                    })
                    .collect())
            }
            other => Err((
                ErrorCode::InvalidRequest,
                format!("Unsupported resource type {other}"),
            )),
        };
        match described {
            Ok(configs) => out.configs = configs,
            Err((code, message)) => {
                out.error_code = code.code();
                out.error_message = Some(message);
            }
        }
        out
    }

    /// A topic's configs: its own value, then the broker synonyms' values by source, then
    /// Kafka's default.
    fn topic_configs(
        &self,
        image: &MetadataImage,
        topic: &str,
        wanted: &dyn Fn(&str) -> bool,
        synonyms_wanted: bool,
    ) -> Described {
        if !image.topics.by_name.contains_key(topic) {
            return Err((
                ErrorCode::UnknownTopicOrPartition,
                format!("Topic {topic} does not exist."),
            ));
        }
        let mut configs = Vec::new();
        for def in topic::ALL {
            let (key, kind, default) = (def.name, def.ty, def.default.unwrap_or_default());
            if !wanted(key) {
                continue;
            }
            let mut chain = Vec::new();
            if let Some(v) = image.configs.get(TOPIC, topic, key) {
                chain.push(Link::new(key, v, DYNAMIC_TOPIC));
            }
            let synonyms = broker_synonyms(key);
            // Per source, the synonyms in precedence order (Kafka lists dynamic values of
            // every synonym before static ones).
            let mut by_source: Vec<Link> = Vec::new();
            for s in synonyms {
                by_source.extend(self.broker_chain(image, s.def.name, s.factor));
            }
            by_source.sort_by_key(|l| l.source);
            chain.extend(by_source);
            chain.push(default_link(key, synonyms, default));
            configs.push(topic_entry(
                key,
                kind.wire(),
                chain,
                synonyms,
                synonyms_wanted,
            ));
        }
        Ok(configs)
    }

    /// This broker's configs (`name` its id), or the cluster-wide default resource (`name`
    /// empty: dynamic defaults only).
    fn broker_configs(
        &self,
        image: &MetadataImage,
        name: &str,
        wanted: &dyn Fn(&str) -> bool,
        synonyms: bool,
    ) -> Described {
        let me = self.node_id.to_string();
        if !name.is_empty() && name != me {
            return Err((
                ErrorCode::InvalidRequest,
                format!("Unexpected broker id, expected {me} or empty string, but received {name}"),
            ));
        }
        let chain_of = |key: &str| {
            if name.is_empty() {
                image
                    .configs
                    .get(BROKER, "", key)
                    .map(|v| vec![Link::new(key, v, DYNAMIC_DEFAULT_BROKER)])
                    .unwrap_or_default()
            } else {
                self.broker_chain(image, key, 1)
            }
        };
        let mut configs = Vec::new();
        for k in &self.known {
            if !wanted(&k.name) {
                continue;
            }
            let mut chain = chain_of(&k.name);
            if let Some(d) = &k.default {
                chain.push(Link::new(&k.name, d, DEFAULT));
            }
            if name.is_empty() && chain.iter().all(|l| l.source == DEFAULT) {
                continue;
            }
            let dynamic = broker_key_used(&k.name) || broker_config(&k.name).is_some();
            configs.push(entry(&k.name, k.config_type, !dynamic, chain, synonyms));
        }
        // Kafka's other dynamic keys this node has no static key for, as set.
        for key in image.configs.broker_keys(&me).into_keys() {
            if !wanted(key) || self.known.iter().any(|k| k.name == key) {
                continue;
            }
            let chain = chain_of(key);
            if chain.is_empty() {
                continue;
            }
            // A custom key is described as Kafka does: read-only, of no type.
            let kind = fjord_metadata::config_defs::broker_key_wire_type(key);
            let custom = broker_config(key).is_none();
            configs.push(entry(key, kind, custom, chain, synonyms));
        }
        Ok(configs)
    }

    /// A group's configs: its own value, then the broker key's default.
    fn group_configs(
        &self,
        image: &MetadataImage,
        res: &DescribeConfigsResource,
        wanted: &dyn Fn(&str) -> bool,
        synonyms: bool,
    ) -> Vec<DescribeConfigsResourceResult> {
        let name = &res.resource_name;
        let own = |k: &str| image.configs.get(res.resource_type, name, k);
        fjord_metadata::group_configs::describe(own, &self.values, wanted)
            .into_iter()
            .map(|d| {
                let mut chain = Vec::new();
                if let Some(v) = &d.own {
                    chain.push(Link::new(
                        d.name,
                        v,
                        fjord_metadata::group_configs::SOURCE_GROUP,
                    ));
                }
                chain.push(Link {
                    effective: d.default_effective.clone(),
                    ..Link::new(d.default_name, &d.default_value, DEFAULT)
                });
                entry(d.name, d.config_type, false, chain, synonyms)
            })
            .collect()
    }
}

/// A resource's configs, or the error code and message it is answered with.
type Described = Result<Vec<DescribeConfigsResourceResult>, (ErrorCode, String)>;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_default_is_named_by_the_synonym_that_carries_it() {
        let l = default_link("retention.ms", broker_synonyms("retention.ms"), "604800000");
        assert_eq!(
            (l.name.as_str(), l.value.as_str(), l.effective.as_str()),
            ("log.retention.hours", "168", "604800000")
        );
        let l = default_link(
            "segment.bytes",
            broker_synonyms("segment.bytes"),
            "1073741824",
        );
        assert_eq!(
            (l.name.as_str(), l.value.as_str()),
            ("log.segment.bytes", "1073741824")
        );
        let l = default_link("preallocate", &[], "false");
        assert_eq!(
            (l.name.as_str(), l.value.as_str()),
            ("preallocate", "false")
        );
    }
}
