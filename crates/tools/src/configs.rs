//! `fjord kafka-configs` (as `kafka-configs.sh`): describe and alter topic, broker and group
//! configs (DescribeConfigs, IncrementalAlterConfigs; every group with configs through
//! ListConfigResources), users' SCRAM credentials
//! (DescribeUserScramCredentials, AlterUserScramCredentials) and client quotas of users,
//! client ids and their combinations and defaults (DescribeClientQuotas, AlterClientQuotas),
//! with Kafka's flags and output. IP entities are refused: fjord has no connection quotas.

use crate::common::{self, ToolError};
use clap::Args as ClapArgs;
use fjord_admin::{expect_response, Admin, AdminError};
use fjord_protocol::generated::{
    describe_configs_request::{DescribeConfigsRequest, DescribeConfigsResource},
    describe_configs_response::DescribeConfigsResult,
    incremental_alter_configs_request::{AlterConfigsResource, AlterableConfig},
};
use fjord_protocol::RequestBody;
use std::path::PathBuf;
use std::process::ExitCode;

/// ConfigResource types.
const TOPIC: i8 = 2;
const BROKER: i8 = 4;
const GROUP: i8 = 32;
/// A client-metrics subscription (KIP-714).
const CLIENT_METRICS: i8 = 16;
/// IncrementalAlterConfigs operations.
const SET: i8 = 0;
const DELETE: i8 = 1;

/// `kafka-configs` arguments.
#[derive(Debug, ClapArgs)]
pub struct Args {
    #[command(flatten)]
    pub(crate) connection: crate::common::Connection,
    /// List configs for the given entity.
    #[arg(long)]
    pub(crate) describe: bool,
    /// Alter the configuration for the entity.
    #[arg(long)]
    pub(crate) alter: bool,
    /// Type of entity: topics, brokers, groups, client-metrics, users or clients (users and
    /// clients together for a (user, client id) quota).
    #[arg(long)]
    pub(crate) entity_type: Vec<String>,
    /// Name of entity (a topic name, a broker id, a group id, a client-metrics subscription, a
    /// user principal, a client id), one per --entity-type.
    #[arg(long)]
    pub(crate) entity_name: Vec<String>,
    /// Default entity name for brokers, users or clients (applies to all of them), in place
    /// of an --entity-name.
    #[arg(long, action = clap::ArgAction::Count)]
    pub(crate) entity_default: u8,
    /// The topic's name (as --entity-type topics --entity-name).
    #[arg(long)]
    pub(crate) topic: Option<String>,
    /// The broker's id (as --entity-type brokers --entity-name).
    #[arg(long)]
    pub(crate) broker: Option<String>,
    /// The group's id (as --entity-type groups --entity-name).
    #[arg(long)]
    pub(crate) group: Option<String>,
    /// The user's principal name (as --entity-type users --entity-name).
    #[arg(long)]
    pub(crate) user: Option<String>,
    /// The client id (as --entity-type clients --entity-name).
    #[arg(long)]
    pub(crate) client: Option<String>,
    /// The quota defaults for all users (as --entity-type users --entity-default).
    #[arg(long)]
    pub(crate) user_defaults: bool,
    /// The quota defaults for all clients (as --entity-type clients --entity-default).
    #[arg(long)]
    pub(crate) client_defaults: bool,
    /// The config defaults for all brokers (as --entity-type brokers --entity-default).
    #[arg(long)]
    pub(crate) broker_defaults: bool,
    /// Key value pairs of configs to add: k1=v1,k2=[v1,v2,v2],k3=v3.
    #[arg(long)]
    pub(crate) add_config: Option<String>,
    /// Path to a properties file of configs to add.
    #[arg(long)]
    pub(crate) add_config_file: Option<PathBuf>,
    /// Config keys to remove: k1,k2.
    #[arg(long)]
    pub(crate) delete_config: Option<String>,
    /// List all configs for the given entity, including defaults.
    #[arg(long)]
    pub(crate) all: bool,
}

/// Runs the tool.
pub fn run(args: &Args) -> ExitCode {
    // Kafka 4.4's ConfigCommand names the command line before a failure's message.
    common::run::<Args, _>("kafka-configs", async {
        run_async(args).await.map_err(|e| match e {
            ToolError::Failed(m) => {
                let line: Vec<String> = std::env::args().skip(2).collect();
                ToolError::Failed(format!(
                    "Error while executing config command with args '{}'\n{m}",
                    line.join(" ")
                ))
            }
            e => e,
        })
    })
}

/// One part of a quota entity: `users` or `clients`, and its name (`Some("")`: the
/// default; `None`: every one, when describing).
type QuotaPart = (String, Option<String>);

/// What the flags name.
enum Entity {
    /// A config resource: type, name, whether the brokers' default.
    Resource(i8, Option<String>, bool),
    /// Users and/or clients (quotas, and users' SCRAM credentials).
    Quota(Vec<QuotaPart>),
}

/// The order `--entity-name` and `--entity-default` were given in on the command line (Kafka
/// pairs them with the `--entity-type`s in that order): true for a default.
fn name_order(names: usize, defaults: usize) -> Vec<bool> {
    let from_args: Vec<bool> = std::env::args()
        .filter_map(|a| {
            if a == "--entity-default" {
                Some(true)
            } else if a == "--entity-name" || a.starts_with("--entity-name=") {
                Some(false)
            } else {
                None
            }
        })
        .collect();
    if from_args.iter().filter(|d| !**d).count() == names
        && from_args.iter().filter(|d| **d).count() == defaults
    {
        return from_args;
    }
    // Not from a command line (a test): names first.
    std::iter::repeat_n(false, names)
        .chain(std::iter::repeat_n(true, defaults))
        .collect()
}

/// The entity the flags name.
fn entity(a: &Args) -> Result<Entity, ToolError> {
    let usage = |m: &str| Err(ToolError::Usage(m.into()));
    if let Some(t) = &a.topic {
        return Ok(Entity::Resource(TOPIC, Some(t.clone()), false));
    }
    if let Some(b) = &a.broker {
        return Ok(Entity::Resource(BROKER, Some(b.clone()), false));
    }
    if a.broker_defaults {
        return Ok(Entity::Resource(BROKER, None, true));
    }
    if let Some(g) = &a.group {
        return Ok(Entity::Resource(GROUP, Some(g.clone()), false));
    }
    let mut quota: Vec<QuotaPart> = Vec::new();
    if let Some(u) = &a.user {
        quota.push(("users".into(), Some(u.clone())));
    } else if a.user_defaults {
        quota.push(("users".into(), Some(String::new())));
    }
    if let Some(c) = &a.client {
        quota.push(("clients".into(), Some(c.clone())));
    } else if a.client_defaults {
        quota.push(("clients".into(), Some(String::new())));
    }
    if !quota.is_empty() {
        return Ok(Entity::Quota(quota));
    }
    let types = &a.entity_type;
    let Some(first) = types.first() else {
        return usage(
            "Must specify --entity-type, --topic, --broker, --user, --client or --broker-defaults",
        );
    };
    for t in types {
        match t.as_str() {
            "topics" | "brokers" | "groups" | "users" | "clients" | "client-metrics" => {}
            "ips" => return usage("--entity-type ips is not supported: fjord has no connection quotas"),
            "broker-loggers" => {
                return usage(
                    "--entity-type broker-loggers is not supported by fjord yet: topics, brokers, groups, users, clients and client-metrics are",
                )
            }
            other => {
                return usage(&format!(
                    "Invalid entity type {other}, the entity type must be one of topics, brokers, groups, users, clients"
                ))
            }
        }
    }
    let defaults = usize::from(a.entity_default);
    let mut names = a.entity_name.iter();
    let mut named: Vec<Option<String>> = name_order(a.entity_name.len(), defaults)
        .into_iter()
        .map(|default| {
            if default {
                Some(String::new())
            } else {
                names.next().cloned()
            }
        })
        .collect();
    if named.len() > types.len() {
        return usage("More entity names specified than entity types");
    }
    let kind = match first.as_str() {
        "topics" => TOPIC,
        "brokers" => BROKER,
        "groups" => GROUP,
        "client-metrics" => CLIENT_METRICS,
        _ => {
            if types.len() > 2
                || (types.len() == 2 && types[0] == types[1])
                || types.iter().any(|t| t != "users" && t != "clients")
            {
                return usage("Only users and clients may be combined, once each");
            }
            named.resize(types.len(), None);
            return Ok(Entity::Quota(types.iter().cloned().zip(named).collect()));
        }
    };
    if types.len() > 1 {
        return usage("Exactly one --entity-type may be given for topics, brokers and groups");
    }
    match named.first().cloned().flatten() {
        Some(n) if n.is_empty() && kind == BROKER => Ok(Entity::Resource(BROKER, None, true)),
        Some(n) if n.is_empty() && kind == GROUP => {
            let action = if a.alter { "--alter" } else { "--describe" };
            usage(&format!(
                "--entity-default must not be specified with {action} of groups"
            ))
        }
        Some(n) if n.is_empty() && kind == CLIENT_METRICS => usage(if a.alter {
            "An entity name must be specified with --alter of client-metrics"
        } else {
            "--entity-default must not be specified with --describe of client-metrics"
        }),
        Some(n) if n.is_empty() => usage("--entity-default is for brokers, users and clients"),
        n => Ok(Entity::Resource(kind, n, false)),
    }
}

/// `k1=v1,k2=[a,b],k3=v3`: commas inside brackets belong to the value.
pub fn parse_add_config(s: &str) -> Result<Vec<(String, String)>, crate::common::InvalidArgument> {
    parse_add_config_text(s).map_err(crate::common::InvalidArgument)
}

fn parse_add_config_text(s: &str) -> Result<Vec<(String, String)>, String> {
    let mut parts = Vec::new();
    let mut depth = 0;
    let mut cur = String::new();
    for c in s.chars() {
        match c {
            '[' => {
                depth += 1;
                cur.push(c);
            }
            ']' => {
                depth -= 1;
                cur.push(c);
            }
            ',' if depth == 0 => parts.push(std::mem::take(&mut cur)),
            c => cur.push(c),
        }
    }
    if !cur.is_empty() {
        parts.push(cur);
    }
    parts
        .into_iter()
        .filter(|p| !p.trim().is_empty())
        .map(|p| {
            let (k, v) = p.split_once('=').ok_or_else(|| {
                format!("Invalid config {p:?}: all configs to be added must be in the format \"key=val\".")
            })?;
            let v = v.trim();
            let v = v
                .strip_prefix('[')
                .and_then(|x| x.strip_suffix(']'))
                .unwrap_or(v);
            Ok((k.trim().to_string(), v.to_string()))
        })
        .collect()
}

fn source_name(source: i8) -> &'static str {
    match source {
        1 => "DYNAMIC_TOPIC_CONFIG",
        2 => "DYNAMIC_BROKER_CONFIG",
        3 => "DYNAMIC_DEFAULT_BROKER_CONFIG",
        4 => "STATIC_BROKER_CONFIG",
        5 => "DEFAULT_CONFIG",
        6 => "DYNAMIC_BROKER_LOGGER_CONFIG",
        7 => "DYNAMIC_CLIENT_METRICS_CONFIG",
        8 => "DYNAMIC_GROUP_CONFIG",
        _ => "UNKNOWN",
    }
}

/// What Kafka's tool calls the entity in its lines.
fn entity_words(kind: i8, name: &str, default: bool) -> String {
    match (kind, default) {
        (BROKER, true) => "default config for brokers in the cluster".into(),
        (BROKER, false) => format!("config for broker {name}"),
        (GROUP, _) => format!("config for group {name}"),
        (CLIENT_METRICS, _) => format!("config for client-metric {name}"),
        _ => format!("config for topic {name}"),
    }
}

async fn run_async(a: &Args) -> Result<(), ToolError> {
    if a.describe == a.alter {
        return Err(ToolError::Usage(
            "Command must include exactly one action: --describe, --alter".into(),
        ));
    }
    let (kind, name, default) = match entity(a)? {
        Entity::Resource(kind, name, default) => (kind, name, default),
        Entity::Quota(parts) => {
            let admin = a.connection.admin()?;
            return crate::client_quotas::run(&admin, a, &parts).await;
        }
    };
    let admin = a.connection.admin()?;
    if a.alter {
        let name = match (&name, default) {
            (_, true) => String::new(),
            (Some(n), false) => n.clone(),
            (None, false) if kind == GROUP => {
                return Err(ToolError::Usage(
                    "An entity name must be specified with --alter of groups".into(),
                ))
            }
            (None, false) if kind == CLIENT_METRICS => {
                return Err(ToolError::Usage(
                    "An entity name must be specified with --alter of client-metrics".into(),
                ))
            }
            (None, false) => {
                return Err(ToolError::Usage(
                    "An entity name must be specified with --alter".into(),
                ))
            }
        };
        return alter(&admin, a, kind, &name, default).await;
    }
    let names: Vec<(String, bool)> = match (name, default) {
        (_, true) => vec![(String::new(), true)],
        (Some(n), false) => vec![(n, false)],
        (None, false) if kind == TOPIC => admin
            .retry(|| admin.refresh(None))
            .await?
            .topics
            .keys()
            .map(|t| (t.clone(), false))
            .collect(),
        (None, false) if kind == GROUP || kind == CLIENT_METRICS => resource_names(&admin, kind)
            .await?
            .into_iter()
            .map(|g| (g, false))
            .collect(),
        (None, false) => {
            let brokers = admin.retry(|| admin.refresh(None)).await?;
            let mut v: Vec<(String, bool)> = brokers
                .brokers
                .keys()
                .map(|b| (b.to_string(), false))
                .collect();
            v.push((String::new(), true));
            v
        }
    };
    // Kafka's tool names a subscription that does not exist rather than list nothing (with
    // --all it lists the defaults).
    let known = match kind {
        CLIENT_METRICS if !a.all => Some(resource_names(&admin, kind).await?),
        _ => None,
    };
    for (name, default) in names {
        if known.as_ref().is_some_and(|k| !k.contains(&name)) {
            println!("The client-metric '{name}' doesn't exist and doesn't have dynamic config.");
            continue;
        }
        let r = describe(&admin, kind, &name).await?;
        let dynamic_source = match (kind, default) {
            (TOPIC, _) => 1,
            (GROUP, _) => 8,
            (CLIENT_METRICS, _) => 7,
            (_, true) => 3,
            _ => 2,
        };
        let what = match (kind, default) {
            (BROKER, true) => "Default configs for brokers in the cluster are:".to_string(),
            (BROKER, false) => format!(
                "{} configs for broker {name} are:",
                if a.all { "All" } else { "Dynamic" }
            ),
            (GROUP, _) => format!(
                "{} configs for group {name} are:",
                if a.all { "All" } else { "Dynamic" }
            ),
            (CLIENT_METRICS, _) => format!(
                "{} configs for client-metric {name} are:",
                if a.all { "All" } else { "Dynamic" }
            ),
            _ => format!(
                "{} configs for topic {name} are:",
                if a.all { "All" } else { "Dynamic" }
            ),
        };
        println!("{what}");
        // Kafka's tool lists the entries in name order.
        let mut entries: Vec<_> = r
            .configs
            .iter()
            .filter(|c| a.all || c.config_source == dynamic_source)
            .collect();
        entries.sort_by(|x, y| x.name.cmp(&y.name));
        for c in entries {
            let synonyms: Vec<String> = c
                .synonyms
                .iter()
                .map(|s| {
                    format!(
                        "{}:{}={}",
                        source_name(s.source),
                        s.name,
                        s.value.as_deref().unwrap_or("null")
                    )
                })
                .collect();
            println!(
                "  {}={} sensitive={} synonyms={{{}}}",
                c.name,
                if c.is_sensitive {
                    "null"
                } else {
                    c.value.as_deref().unwrap_or("null")
                },
                c.is_sensitive,
                synonyms.join(", ")
            );
        }
    }
    Ok(())
}

async fn describe(admin: &Admin, kind: i8, name: &str) -> Result<DescribeConfigsResult, ToolError> {
    let r = admin
        .retry(|| async {
            let body = RequestBody::DescribeConfigs(DescribeConfigsRequest {
                resources: vec![DescribeConfigsResource {
                    resource_type: kind,
                    resource_name: name.to_string(),
                    configuration_keys: None,
                    ..Default::default()
                }],
                include_synonyms: true,
                ..Default::default()
            });
            // Broker configs are asked of that broker, as Kafka's client does.
            let r = match name.parse::<i32>() {
                Ok(id) if kind == BROKER && !admin.via_controllers() => {
                    admin.call_broker(id, body, 1..=4).await?
                }
                _ => admin.call_controller(body, 1..=4).await?,
            };
            let mut r = expect_response!(r, DescribeConfigs)?;
            let res = r
                .results
                .pop()
                .ok_or_else(|| AdminError::Protocol("no resource in the answer".into()))?;
            AdminError::check(res.error_code, res.error_message.as_deref()).map(|()| res)
        })
        .await;
    r.map_err(ToolError::from_server)
}

/// The groups that have configs, or the client-metrics subscriptions (ListConfigResources of
/// `kind`), as Kafka's tool lists them when none is named.
async fn resource_names(admin: &Admin, kind: i8) -> Result<Vec<String>, ToolError> {
    use fjord_protocol::generated::list_config_resources_request::ListConfigResourcesRequest;
    let r = admin
        .retry(|| async {
            let body = RequestBody::ListConfigResources(ListConfigResourcesRequest {
                resource_types: vec![kind],
                ..Default::default()
            });
            let r = admin.call_any(body, 1..=1).await?;
            let r = expect_response!(r, ListConfigResources)?;
            AdminError::check(r.error_code, None).map(|()| r)
        })
        .await
        .map_err(ToolError::from_server)?;
    Ok(r.config_resources
        .into_iter()
        .filter(|c| c.resource_type == kind)
        .map(|c| c.resource_name)
        .collect())
}

/// The value broker `broker` has for config `key` (None when it cannot be read).
pub(crate) async fn broker_config(admin: &Admin, broker: i32, key: &str) -> Option<String> {
    let r = describe(admin, BROKER, &broker.to_string()).await.ok()?;
    r.configs
        .into_iter()
        .find(|c| c.name == key)
        .and_then(|c| c.value)
}

async fn alter(
    admin: &Admin,
    a: &Args,
    kind: i8,
    name: &str,
    default: bool,
) -> Result<(), ToolError> {
    let mut configs: Vec<AlterableConfig> = Vec::new();
    if let Some(s) = &a.add_config {
        for (k, v) in parse_add_config(s).map_err(|e| ToolError::Usage(e.0))? {
            configs.push(AlterableConfig {
                name: k,
                config_operation: SET,
                value: Some(v),
                ..Default::default()
            });
        }
    }
    if let Some(path) = &a.add_config_file {
        let text = std::fs::read_to_string(path)
            .map_err(|e| ToolError::Failed(format!("{}: {e}", path.display())))?;
        for (k, v) in fjord_util::properties::parse(&text).map_err(|e| ToolError::Usage(e.0))? {
            configs.push(AlterableConfig {
                name: k,
                config_operation: SET,
                value: Some(v),
                ..Default::default()
            });
        }
    }
    if let Some(s) = &a.delete_config {
        for k in s.split(',').map(str::trim).filter(|k| !k.is_empty()) {
            configs.push(AlterableConfig {
                name: k.to_string(),
                config_operation: DELETE,
                value: None,
                ..Default::default()
            });
        }
    }
    if configs.is_empty() {
        return Err(ToolError::Usage(
            "At least one of --add-config, --add-config-file, or --delete-config must be specified with --alter".into(),
        ));
    }
    let resource = AlterConfigsResource {
        resource_type: kind,
        resource_name: name.to_string(),
        configs,
        ..Default::default()
    };
    admin
        .incremental_alter_configs(vec![resource])
        .await
        .map_err(ToolError::from_server)?;
    println!("Completed updating {}.", entity_words(kind, name, default));
    Ok(())
}

/// Users' SCRAM credentials, described (every user when `name` is `None`) or altered as
/// Kafka's tool does.
pub(crate) async fn users(admin: &Admin, a: &Args, name: Option<&str>) -> Result<(), ToolError> {
    use fjord_net::sasl::scram::Mechanism;
    use fjord_protocol::generated::{
        alter_user_scram_credentials_request::{
            AlterUserScramCredentialsRequest, ScramCredentialDeletion, ScramCredentialUpsertion,
        },
        describe_user_scram_credentials_request::{DescribeUserScramCredentialsRequest, UserName},
    };
    if a.describe {
        let body = RequestBody::DescribeUserScramCredentials(DescribeUserScramCredentialsRequest {
            users: name.map(|n| {
                vec![UserName {
                    name: n.to_string(),
                    ..Default::default()
                }]
            }),
            ..Default::default()
        });
        let r = admin
            .retry(|| async {
                let r = admin.call_any(body.clone(), 0..=0).await?;
                let r = expect_response!(r, DescribeUserScramCredentials)?;
                AdminError::check(r.error_code, r.error_message.as_deref()).map(|()| r)
            })
            .await
            .map_err(ToolError::from_server)?;
        for u in r.results {
            if u.error_code == fjord_protocol::ErrorCode::ResourceNotFound.code() {
                continue;
            }
            AdminError::check(u.error_code, u.error_message.as_deref())
                .map_err(ToolError::from_server)?;
            let creds: Vec<String> = u
                .credential_infos
                .iter()
                .map(|c| {
                    let m = Mechanism::from_code(c.mechanism).map_or("UNKNOWN", |m| m.name());
                    format!("{m}=iterations={}", c.iterations)
                })
                .collect();
            println!(
                "SCRAM credential configs for user-principal '{}' are {}",
                u.user,
                creds.join(", ")
            );
        }
        return Ok(());
    }
    let name = name.ok_or_else(|| {
        ToolError::Usage("An entity name must be specified with --alter of users".into())
    })?;
    let mut upsertions = Vec::new();
    if let Some(s) = &a.add_config {
        for (k, v) in parse_add_config(s).map_err(|e| ToolError::Usage(e.0))? {
            let spec =
                crate::scram::parse(&k, &v, Some(name)).map_err(|e| ToolError::Usage(e.0))?;
            upsertions.push(ScramCredentialUpsertion {
                name: spec.user,
                mechanism: spec.mechanism.code(),
                iterations: spec.iterations as i32,
                salt: spec.salt.into(),
                salted_password: spec.salted_password.into(),
                ..Default::default()
            });
        }
    }
    let mut deletions = Vec::new();
    if let Some(s) = &a.delete_config {
        for k in s.split(',').map(str::trim).filter(|k| !k.is_empty()) {
            let m = Mechanism::from_name(k).ok_or_else(|| {
                ToolError::Usage(format!(
                    "{k} is not a SCRAM mechanism (SCRAM-SHA-256, SCRAM-SHA-512)"
                ))
            })?;
            deletions.push(ScramCredentialDeletion {
                name: name.to_string(),
                mechanism: m.code(),
                ..Default::default()
            });
        }
    }
    if upsertions.is_empty() && deletions.is_empty() {
        return Err(ToolError::Usage(
            "At least one of --add-config or --delete-config must be specified with --alter".into(),
        ));
    }
    let body = RequestBody::AlterUserScramCredentials(AlterUserScramCredentialsRequest {
        deletions,
        upsertions,
        ..Default::default()
    });
    let r = admin
        .retry(|| async {
            let r = admin.call_controller(body.clone(), 0..=0).await?;
            expect_response!(r, AlterUserScramCredentials)
        })
        .await
        .map_err(ToolError::from_server)?;
    for u in &r.results {
        AdminError::check(u.error_code, u.error_message.as_deref())
            .map_err(ToolError::from_server)?;
    }
    println!("Completed updating config for user {name}.");
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn add_config_keeps_bracketed_lists_whole() {
        assert_eq!(
            parse_add_config("a=1,b=[x,y],c=z").unwrap(),
            vec![
                ("a".to_string(), "1".to_string()),
                ("b".into(), "x,y".into()),
                ("c".into(), "z".into())
            ]
        );
        assert!(parse_add_config("a").is_err());
    }
}
