//! `fjord kafka-configs` (as `kafka-configs.sh`): describe and alter topic and broker configs
//! (DescribeConfigs, IncrementalAlterConfigs) and users' SCRAM credentials
//! (DescribeUserScramCredentials, AlterUserScramCredentials), with Kafka's flags and output.
//! Quota entities (clients, ips, quotas of users) are refused by name: fjord has no quotas.

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
/// Not a ConfigResource: users' SCRAM credentials.
const USER: i8 = -1;
/// IncrementalAlterConfigs operations.
const SET: i8 = 0;
const DELETE: i8 = 1;

/// `kafka-configs` arguments.
#[derive(Debug, ClapArgs)]
pub struct Args {
    #[command(flatten)]
    connection: crate::common::Connection,
    /// List configs for the given entity.
    #[arg(long)]
    describe: bool,
    /// Alter the configuration for the entity.
    #[arg(long)]
    alter: bool,
    /// Type of entity: topics or brokers.
    #[arg(long)]
    entity_type: Option<String>,
    /// Name of entity (a topic name, a broker id).
    #[arg(long)]
    entity_name: Option<String>,
    /// Default entity name for brokers (applies to all brokers).
    #[arg(long)]
    entity_default: bool,
    /// The topic's name (as --entity-type topics --entity-name).
    #[arg(long)]
    topic: Option<String>,
    /// The broker's id (as --entity-type brokers --entity-name).
    #[arg(long)]
    broker: Option<String>,
    /// The user's principal name (as --entity-type users --entity-name).
    #[arg(long)]
    user: Option<String>,
    /// The config defaults for all brokers (as --entity-type brokers --entity-default).
    #[arg(long)]
    broker_defaults: bool,
    /// Key value pairs of configs to add: k1=v1,k2=[v1,v2,v2],k3=v3.
    #[arg(long)]
    add_config: Option<String>,
    /// Path to a properties file of configs to add.
    #[arg(long)]
    add_config_file: Option<PathBuf>,
    /// Config keys to remove: k1,k2.
    #[arg(long)]
    delete_config: Option<String>,
    /// List all configs for the given entity, including defaults.
    #[arg(long)]
    all: bool,
}

/// Runs the tool.
pub fn run(args: &Args) -> ExitCode {
    common::run::<Args, _>("kafka-configs", run_async(args))
}

/// The entity the flags name: (resource type, resource name, how Kafka's tool says it).
fn entity(a: &Args) -> Result<(i8, Option<String>, bool), ToolError> {
    let usage = |m: &str| Err(ToolError::Usage(m.into()));
    if let Some(t) = &a.topic {
        return Ok((TOPIC, Some(t.clone()), false));
    }
    if let Some(b) = &a.broker {
        return Ok((BROKER, Some(b.clone()), false));
    }
    if let Some(u) = &a.user {
        return Ok((USER, Some(u.clone()), false));
    }
    if a.broker_defaults {
        return Ok((BROKER, None, true));
    }
    let kind = match a.entity_type.as_deref() {
        Some("topics") => TOPIC,
        Some("brokers") => BROKER,
        Some("users") => USER,
        Some(t @ ("clients" | "ips" | "client-metrics" | "groups" | "broker-loggers")) => {
            return usage(&format!(
                "--entity-type {t} is not supported by fjord yet: topics, brokers and users (SCRAM credentials) are"
            ))
        }
        Some(other) => {
            return usage(&format!(
                "Invalid entity type {other}, the entity type must be one of topics, brokers, users"
            ))
        }
        None => return usage("Must specify --entity-type, --topic, --broker or --broker-defaults"),
    };
    if a.entity_default && kind != BROKER {
        return usage("--entity-default is only for brokers here");
    }
    if a.entity_default && a.entity_name.is_some() {
        return usage("--entity-name and --entity-default cannot be given together");
    }
    Ok((kind, a.entity_name.clone(), a.entity_default))
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
        7 => "CLIENT_METRICS_CONFIG",
        8 => "GROUP_CONFIG",
        _ => "UNKNOWN",
    }
}

/// What Kafka's tool calls the entity in its lines.
fn entity_words(kind: i8, name: &str, default: bool) -> String {
    match (kind, default) {
        (BROKER, true) => "default config for brokers in the cluster".into(),
        (BROKER, false) => format!("config for broker {name}"),
        _ => format!("config for topic {name}"),
    }
}

async fn run_async(a: &Args) -> Result<(), ToolError> {
    if a.describe == a.alter {
        return Err(ToolError::Usage(
            "Command must include exactly one action: --describe, --alter".into(),
        ));
    }
    let (kind, name, default) = entity(a)?;
    let admin = a.connection.admin()?;
    if kind == USER {
        return users(&admin, a, name.as_deref()).await;
    }
    if a.alter {
        let name = match (&name, default) {
            (_, true) => String::new(),
            (Some(n), false) => n.clone(),
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
    for (name, default) in names {
        let r = describe(&admin, kind, &name).await?;
        let dynamic_source = match (kind, default) {
            (TOPIC, _) => 1,
            (_, true) => 3,
            _ => 2,
        };
        let what = match (kind, default) {
            (BROKER, true) => "Default configs for brokers in the cluster are:".to_string(),
            (BROKER, false) => format!(
                "{} configs for broker {name} are:",
                if a.all { "All" } else { "Dynamic" }
            ),
            _ => format!(
                "{} configs for topic {name} are:",
                if a.all { "All" } else { "Dynamic" }
            ),
        };
        println!("{what}");
        for c in r
            .configs
            .iter()
            .filter(|c| a.all || c.config_source == dynamic_source)
        {
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

/// `--entity-type users`: SCRAM credentials, described or altered as Kafka's tool does.
async fn users(admin: &Admin, a: &Args, name: Option<&str>) -> Result<(), ToolError> {
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
