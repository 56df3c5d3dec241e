//! DescribeConfigs, IncrementalAlterConfigs and AlterConfigs for topics and brokers: values are
//! validated against Kafka's keys and types; a topic's effective value comes from the topic,
//! else the cluster-wide broker setting (its `log.`-style synonym), else Kafka's default.

use crate::controller::{Controller, Handled};
use crate::settings::{BROKER, TOPIC};
use crate::topic_configs::{acted_broker_keys, broker_config, topic, topic_config, validate};
use fjord_metadata::client_metrics::{self, CLIENT_METRICS};
use fjord_metadata::group_configs::{self, GROUP};
use fjord_protocol::generated::{
    alter_configs_request::AlterConfigsRequest,
    alter_configs_response::{self as acr, AlterConfigsResponse},
    config_record::ConfigRecord,
    describe_configs_request::DescribeConfigsRequest,
    describe_configs_response::{
        DescribeConfigsResourceResult, DescribeConfigsResponse, DescribeConfigsResult,
    },
    incremental_alter_configs_request::IncrementalAlterConfigsRequest,
    incremental_alter_configs_response::{self as iacr, IncrementalAlterConfigsResponse},
};
use fjord_protocol::{ErrorCode, MetadataRecord, ResponseBody};
use std::collections::BTreeMap;

/// The broker setting that supplies a topic config's default at runtime, if any: the first
/// synonym in its declared chain that fjord acts on.
pub fn broker_synonym(topic_key: &str) -> Option<&'static str> {
    fjord_configdef::topic_key(topic_key)?
        .acted_synonym()
        .map(|d| d.name)
}

use fjord_metadata::config_defs::source::{
    DEFAULT as SOURCE_DEFAULT, DYNAMIC_BROKER as SOURCE_DYNAMIC_BROKER,
    DYNAMIC_DEFAULT_BROKER as SOURCE_DYNAMIC_DEFAULT_BROKER, DYNAMIC_TOPIC as SOURCE_TOPIC,
};

type Check = Result<(), (ErrorCode, String)>;

impl Controller {
    fn check_resource(&self, resource_type: i8, name: &str) -> Check {
        match resource_type {
            TOPIC => {
                if self.image.topics.by_name.contains_key(name) {
                    Ok(())
                } else {
                    Err((
                        ErrorCode::UnknownTopicOrPartition,
                        format!("Topic {name} does not exist."),
                    ))
                }
            }
            BROKER => {
                if name.is_empty() || name.parse::<i32>().is_ok() {
                    Ok(())
                } else {
                    Err((
                        ErrorCode::InvalidRequest,
                        format!("Invalid broker id {name}"),
                    ))
                }
            }
            CLIENT_METRICS if name.is_empty() => Err((
                ErrorCode::InvalidRequest,
                "Subscription name can't be empty".into(),
            )),
            CLIENT_METRICS | GROUP => Ok(()),
            other => Err((
                ErrorCode::InvalidRequest,
                format!("Config resource type {other} is not supported by the controller"),
            )),
        }
    }

    /// A topic value: a key Kafka knows for topics, with a value of its type.
    fn check_topic_value(key: &str, value: &str) -> Check {
        let Some((kind, _)) = topic_config(key) else {
            return Err((
                ErrorCode::InvalidConfig,
                format!("Unknown topic config name: {key}"),
            ));
        };
        validate(key, kind, value).map_err(|m| (m.code(), m.to_string()))
    }

    /// A client metrics subscription's key and value (None: deleted), as Kafka checks them:
    /// deleting one of Kafka's keys always passes.
    fn check_client_metrics(name: &str, key: &str, value: Option<&str>) -> Check {
        let why = match value {
            Some(v) => client_metrics::refusal(name, key, v),
            None if client_metrics::KEYS.iter().any(|k| k.0 == key) => None,
            None => client_metrics::refusal(name, key, ""),
        };
        match why {
            Some(why) => {
                let code = ErrorCode::from_code(client_metrics::refusal_code(key))
                    .unwrap_or(ErrorCode::InvalidRequest);
                Err((code, why))
            }
            None => Ok(()),
        }
    }

    /// A broker resource's update, checked as Kafka's brokers check one, in Kafka's order
    /// and all with INVALID_REQUEST: keys only the server properties set, security keys
    /// without a listener prefix, each known key's value, then per-broker keys on the
    /// cluster-wide default. A key Kafka does not know is a custom key, stored as given.
    fn check_broker_changes(broker: &str, changes: &BTreeMap<String, Option<String>>) -> Check {
        let refused = |why: String| (ErrorCode::InvalidRequest, why);
        let set: Vec<&str> = changes
            .iter()
            .filter(|(_, v)| v.is_some())
            .map(|(k, _)| k.as_str())
            .collect();
        if let Some(why) = fjord_metadata::config_defs::broker_update_refusal(&set) {
            return Err(refused(why));
        }
        for (key, value) in changes {
            let (Some(value), Some((kind, _))) = (value, broker_config(key)) else {
                continue;
            };
            validate(key, kind, value).map_err(|m| refused(m.to_string()))?;
        }
        match fjord_metadata::config_defs::broker_default_refusal(&set, broker) {
            Some(why) => Err(refused(why)),
            None => Ok(()),
        }
    }

    /// A group resource's update, checked as Kafka's controller checks one: the group's
    /// whole set of keys after it, against this node's `group.*` bounds.
    fn check_group_changes(&self, name: &str, changes: &BTreeMap<String, Option<String>>) -> Check {
        let mut after = self
            .image
            .configs
            .resources
            .get(&(GROUP, name.to_string()))
            .cloned()
            .unwrap_or_default();
        for (k, v) in changes {
            match v {
                Some(v) => after.insert(k.clone(), v.clone()),
                None => after.remove(k),
            };
        }
        match group_configs::refusal(name, &after, &self.settings.group_settings) {
            Some((code, why)) => Err((
                ErrorCode::from_code(code).unwrap_or(ErrorCode::InvalidConfig),
                why,
            )),
            None => Ok(()),
        }
    }

    /// Kafka's tiered-storage rules on the configs topic `name` would have after `changes`.
    fn check_topic_tiering(&self, name: &str, changes: &BTreeMap<String, Option<String>>) -> Check {
        let current = self
            .image
            .configs
            .resources
            .get(&(TOPIC, name.to_string()))
            .cloned()
            .unwrap_or_default();
        let mut next = current.clone();
        for (k, v) in changes {
            match v {
                Some(v) => next.insert(k.clone(), v.clone()),
                None => next.remove(k),
            };
        }
        match crate::tiered::refusal(
            &next,
            Some(&current),
            self.settings.remote_storage_system_enabled,
        ) {
            Some(why) => Err((ErrorCode::InvalidConfig, why)),
            None => Ok(()),
        }
    }

    fn config_records(
        resource_type: i8,
        name: &str,
        changes: &BTreeMap<String, Option<String>>,
    ) -> Vec<MetadataRecord> {
        changes
            .iter()
            .map(|(k, v)| {
                MetadataRecord::Config(ConfigRecord {
                    resource_type,
                    resource_name: name.to_string(),
                    name: k.clone(),
                    value: v.clone(),
                    ..Default::default()
                })
            })
            .collect()
    }

    /// IncrementalAlterConfigs (SET, DELETE, APPEND, SUBTRACT), each resource all or nothing.
    pub(crate) fn incremental_alter_configs(
        &mut self,
        r: &IncrementalAlterConfigsRequest,
    ) -> Handled {
        let mut responses = Vec::new();
        let mut records = Vec::new();
        for res in &r.resources {
            let outcome = (|| -> Result<Vec<MetadataRecord>, (ErrorCode, String)> {
                self.check_resource(res.resource_type, &res.resource_name)?;
                let current = self
                    .image
                    .configs
                    .resources
                    .get(&(res.resource_type, res.resource_name.clone()))
                    .cloned()
                    .unwrap_or_default();
                let mut changes: BTreeMap<String, Option<String>> = BTreeMap::new();
                for c in &res.configs {
                    let now = changes
                        .get(&c.name)
                        .cloned()
                        .unwrap_or_else(|| current.get(&c.name).cloned());
                    let next = match c.config_operation {
                        0 => Some(c.value.clone().ok_or((
                            ErrorCode::InvalidRequest,
                            format!("Null value not supported for: {}", c.name),
                        ))?),
                        1 => None,
                        2 | 3 => {
                            let mut items: Vec<String> = now
                                .unwrap_or_default()
                                .split(',')
                                .map(str::trim)
                                .filter(|s| !s.is_empty())
                                .map(str::to_string)
                                .collect();
                            for v in c
                                .value
                                .as_deref()
                                .unwrap_or("")
                                .split(',')
                                .map(str::trim)
                                .filter(|s| !s.is_empty())
                            {
                                if c.config_operation == 2 {
                                    if !items.iter().any(|x| x == v) {
                                        items.push(v.to_string());
                                    }
                                } else {
                                    items.retain(|x| x != v);
                                }
                            }
                            if items.is_empty() {
                                None
                            } else {
                                Some(items.join(","))
                            }
                        }
                        op => {
                            return Err((
                                ErrorCode::InvalidRequest,
                                format!("Unknown config operation {op}"),
                            ))
                        }
                    };
                    if res.resource_type == CLIENT_METRICS {
                        Self::check_client_metrics(&res.resource_name, &c.name, next.as_deref())?;
                    }
                    if res.resource_type == TOPIC {
                        match &next {
                            Some(v) => Self::check_topic_value(&c.name, v)?,
                            None if topic_config(&c.name).is_none() => {
                                return Err((
                                    ErrorCode::InvalidConfig,
                                    format!("Unknown config name: {}", c.name),
                                ));
                            }
                            None => {}
                        }
                    }
                    changes.insert(c.name.clone(), next);
                }
                if res.resource_type == BROKER {
                    Self::check_broker_changes(&res.resource_name, &changes)?;
                }
                if res.resource_type == GROUP {
                    self.check_group_changes(&res.resource_name, &changes)?;
                }
                if res.resource_type == TOPIC {
                    self.check_topic_tiering(&res.resource_name, &changes)?;
                }
                Ok(Self::config_records(
                    res.resource_type,
                    &res.resource_name,
                    &changes,
                ))
            })();
            let mut out = iacr::AlterConfigsResourceResponse {
                resource_type: res.resource_type,
                resource_name: res.resource_name.clone(),
                ..Default::default()
            };
            match outcome {
                Ok(recs) => {
                    if !r.validate_only {
                        records.extend(recs);
                    }
                }
                Err((code, message)) => {
                    out.error_code = code.code();
                    out.error_message = Some(message);
                }
            }
            responses.push(out);
        }
        self.write(
            records,
            ResponseBody::IncrementalAlterConfigs(IncrementalAlterConfigsResponse {
                responses,
                ..Default::default()
            }),
        )
    }

    /// AlterConfigs: replaces a resource's whole set of dynamic configs.
    pub(crate) fn alter_configs(&mut self, r: &AlterConfigsRequest) -> Handled {
        let mut responses = Vec::new();
        let mut records = Vec::new();
        for res in &r.resources {
            let outcome = (|| -> Result<Vec<MetadataRecord>, (ErrorCode, String)> {
                self.check_resource(res.resource_type, &res.resource_name)?;
                let mut changes: BTreeMap<String, Option<String>> = self
                    .image
                    .configs
                    .resources
                    .get(&(res.resource_type, res.resource_name.clone()))
                    .map(|m| m.keys().map(|k| (k.clone(), None)).collect())
                    .unwrap_or_default();
                for c in &res.configs {
                    let v = c.value.clone().ok_or((
                        ErrorCode::InvalidRequest,
                        format!("Null value not supported for: {}", c.name),
                    ))?;
                    if res.resource_type == TOPIC {
                        Self::check_topic_value(&c.name, &v)?;
                    }
                    if res.resource_type == CLIENT_METRICS {
                        Self::check_client_metrics(&res.resource_name, &c.name, Some(&v))?;
                    }
                    changes.insert(c.name.clone(), Some(v));
                }
                if res.resource_type == BROKER {
                    Self::check_broker_changes(&res.resource_name, &changes)?;
                }
                if res.resource_type == GROUP {
                    self.check_group_changes(&res.resource_name, &changes)?;
                }
                if res.resource_type == TOPIC {
                    self.check_topic_tiering(&res.resource_name, &changes)?;
                }
                Ok(Self::config_records(
                    res.resource_type,
                    &res.resource_name,
                    &changes,
                ))
            })();
            let mut out = acr::AlterConfigsResourceResponse {
                resource_type: res.resource_type,
                resource_name: res.resource_name.clone(),
                ..Default::default()
            };
            match outcome {
                Ok(recs) => {
                    if !r.validate_only {
                        records.extend(recs);
                    }
                }
                Err((code, message)) => {
                    out.error_code = code.code();
                    out.error_message = Some(message);
                }
            }
            responses.push(out);
        }
        self.write(
            records,
            ResponseBody::AlterConfigs(AlterConfigsResponse {
                responses,
                ..Default::default()
            }),
        )
    }

    /// DescribeConfigs for topics (every topic config with its source) and brokers (the
    /// dynamic configs the controller keeps).
    pub fn describe_configs(&self, r: &DescribeConfigsRequest) -> ResponseBody {
        let mut results = Vec::new();
        for res in &r.resources {
            let mut out = DescribeConfigsResult {
                resource_type: res.resource_type,
                resource_name: res.resource_name.clone(),
                ..Default::default()
            };
            if let Err((code, message)) = self.check_resource(res.resource_type, &res.resource_name)
            {
                out.error_code = code.code();
                out.error_message = Some(message);
                results.push(out);
                continue;
            }
            let wanted = |k: &str| {
                res.configuration_keys
                    .as_ref()
                    .is_none_or(|keys| keys.iter().any(|x| x == k))
            };
            let configs = &self.image.configs;
            if res.resource_type == GROUP {
                let name = &res.resource_name;
                let own = |k: &str| configs.get(GROUP, name, k);
                for d in group_configs::describe(own, &self.settings.group_settings, wanted) {
                    let (value, source) = match d.own {
                        Some(v) => (v, group_configs::SOURCE_GROUP),
                        None => (d.default_effective, SOURCE_DEFAULT),
                    };
                    out.configs.push(DescribeConfigsResourceResult {
                        name: d.name.to_string(),
                        value: Some(value),
                        config_source: source,
                        config_type: d.config_type,
                        ..Default::default()
                    });
                }
            } else if res.resource_type == CLIENT_METRICS {
                let name = &res.resource_name;
                let own = |k: &str| configs.get(CLIENT_METRICS, name, k);
                for (key, value, source, kind) in client_metrics::describe(own, wanted) {
                    out.configs.push(DescribeConfigsResourceResult {
                        name: key.to_string(),
                        value: Some(value),
                        config_source: source,
                        config_type: kind,
                        ..Default::default()
                    });
                }
            } else if res.resource_type == TOPIC {
                for def in topic::ALL {
                    let (key, kind, default) = (def.name, def.ty, def.default.unwrap_or_default());
                    if !wanted(key) {
                        continue;
                    }
                    let (value, source) =
                        if let Some(v) = configs.get(TOPIC, &res.resource_name, key) {
                            (v.to_string(), SOURCE_TOPIC)
                        } else if let Some(v) =
                            broker_synonym(key).and_then(|s| configs.get(BROKER, "", s))
                        {
                            (v.to_string(), SOURCE_DYNAMIC_DEFAULT_BROKER)
                        } else {
                            (default.to_string(), SOURCE_DEFAULT)
                        };
                    out.configs.push(DescribeConfigsResourceResult {
                        name: key.to_string(),
                        value: Some(value),
                        config_source: source,
                        config_type: kind.wire(),
                        ..Default::default()
                    });
                }
            } else {
                for def in acted_broker_keys() {
                    let (key, kind) = (def.name, def.ty);
                    let default = def.effective_default().unwrap_or_default();
                    if !wanted(key) {
                        continue;
                    }
                    let (value, source) = if let Some(v) = configs
                        .get(BROKER, &res.resource_name, key)
                        .filter(|_| !res.resource_name.is_empty())
                    {
                        (v.to_string(), SOURCE_DYNAMIC_BROKER)
                    } else if let Some(v) = configs.get(BROKER, "", key) {
                        (v.to_string(), SOURCE_DYNAMIC_DEFAULT_BROKER)
                    } else {
                        (default.to_string(), SOURCE_DEFAULT)
                    };
                    out.configs.push(DescribeConfigsResourceResult {
                        name: key.to_string(),
                        value: Some(value),
                        config_source: source,
                        config_type: kind.wire(),
                        ..Default::default()
                    });
                }
                // Kafka's other dynamic keys, as set (no default to show otherwise).
                let set = configs.broker_keys(&res.resource_name);
                for (key, (value, own)) in set {
                    if fjord_metadata::config_defs::broker_key_used(key) || !wanted(key) {
                        continue;
                    }
                    out.configs.push(DescribeConfigsResourceResult {
                        name: key.to_string(),
                        value: Some(value.to_string()),
                        config_source: if own {
                            SOURCE_DYNAMIC_BROKER
                        } else {
                            SOURCE_DYNAMIC_DEFAULT_BROKER
                        },
                        config_type: fjord_metadata::config_defs::broker_key_wire_type(key),
                        read_only: broker_config(key).is_none(),
                        ..Default::default()
                    });
                }
            }
            results.push(out);
        }
        ResponseBody::DescribeConfigs(DescribeConfigsResponse {
            results,
            ..Default::default()
        })
    }
}
