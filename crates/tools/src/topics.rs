//! `fjord kafka-topics` (as `kafka-topics.sh`): create, delete, list, alter and describe topics,
//! with Kafka's flags, checks, messages and line format, and the describe report filters.
//! `--at-min-isr-partitions` and `--under-min-isr-partitions` compare the ISR with the
//! effective min ISR, min(`min.insync.replicas`, replication factor), as fjord's metrics do.

use crate::common::{self, ToolError};
use clap::Args as ClapArgs;
use fjord_admin::{expect_response, Admin, AdminError, ClusterInfo, PartitionInfo, TopicInfo};
use fjord_protocol::generated::{
    create_partitions_request::{
        CreatePartitionsAssignment, CreatePartitionsRequest, CreatePartitionsTopic,
    },
    create_topics_request::{
        CreatableReplicaAssignment, CreatableTopic, CreatableTopicConfig, CreateTopicsRequest,
    },
    delete_topics_request::DeleteTopicsRequest,
    describe_configs_request::{DescribeConfigsRequest, DescribeConfigsResource},
    describe_configs_response::DescribeConfigsResult,
    incremental_alter_configs_request::{AlterConfigsResource, AlterableConfig},
};
use fjord_protocol::{ErrorCode, RequestBody};
use fjord_util::uuid_text;
use std::collections::{BTreeMap, BTreeSet};
use std::process::ExitCode;

/// ConfigResource type of a topic.
const TOPIC_RESOURCE: i8 = 2;
/// The config source DescribeConfigs gives for a value nobody set (Kafka's DEFAULT_CONFIG).
const DEFAULT_CONFIG_SOURCE: i8 = 5;

/// `kafka-topics` arguments (Kafka's flags; exactly one action).
#[derive(Debug, ClapArgs)]
pub struct Args {
    #[command(flatten)]
    connection: crate::common::BrokerConnection,
    /// List all available topics.
    #[arg(long)]
    list: bool,
    /// Create a new topic.
    #[arg(long)]
    create: bool,
    /// Delete a topic.
    #[arg(long)]
    delete: bool,
    /// Alter the number of partitions and replica assignment, or topic configs (--config).
    #[arg(long)]
    alter: bool,
    /// List details for the given topics.
    #[arg(long)]
    describe: bool,
    /// The topic to create, alter, describe or delete. It also accepts a regular expression,
    /// except for --create option.
    #[arg(long)]
    topic: Option<String>,
    /// The topic-id to describe.
    #[arg(long)]
    topic_id: Option<String>,
    /// A topic configuration override (name=value) for the topic being created or altered.
    #[arg(long = "config")]
    configs: Vec<String>,
    /// The number of partitions for the topic being created or altered.
    #[arg(long)]
    partitions: Option<i32>,
    /// The replication factor for each partition in the topic being created.
    #[arg(long)]
    replication_factor: Option<i32>,
    /// Manual partition-to-broker assignments: b1:b2,b1:b2,... (one group per partition).
    #[arg(long)]
    replica_assignment: Option<String>,
    /// If set when describing topics, only show under-replicated partitions.
    #[arg(long)]
    under_replicated_partitions: bool,
    /// If set when describing topics, only show partitions whose leader is not available.
    #[arg(long)]
    unavailable_partitions: bool,
    /// If set when describing topics, only show partitions whose isr count is less than the
    /// effective minimum: min(min.insync.replicas, replication factor).
    #[arg(long)]
    under_min_isr_partitions: bool,
    /// If set when describing topics, only show partitions whose isr count is equal to the
    /// effective minimum: min(min.insync.replicas, replication factor).
    #[arg(long)]
    at_min_isr_partitions: bool,
    /// If set when describing topics, only show topics that have overridden configs.
    #[arg(long)]
    topics_with_overrides: bool,
    /// If set when altering or deleting or describing topics, the action will only execute if
    /// the topic exists.
    #[arg(long)]
    if_exists: bool,
    /// If set when creating topics, the create request will not fail if the topic already
    /// exists.
    #[arg(long)]
    if_not_exists: bool,
    /// Exclude internal topics when listing or describing topics.
    #[arg(long)]
    exclude_internal: bool,
}

/// Runs the tool.
pub fn run(args: &Args) -> ExitCode {
    common::run::<Args, _>("kafka-topics", async {
        check_args(args)?;
        let admin = args.connection.admin()?;
        let result = if args.create {
            create(&admin, args).await
        } else if args.alter {
            alter(&admin, args).await
        } else if args.list {
            list(&admin, args).await
        } else if args.describe {
            describe(&admin, args).await
        } else {
            delete(&admin, args).await
        };
        result.map_err(|e| match e {
            ToolError::Failed(m) => {
                ToolError::FailedStdout(format!("Error while executing topic command : {m}"))
            }
            e => e,
        })
    })
}

fn usage(m: &str) -> Result<(), ToolError> {
    Err(ToolError::Usage(m.into()))
}

/// Kafka's argument checks, in its order and with its messages.
fn check_args(a: &Args) -> Result<(), ToolError> {
    let actions = [a.create, a.list, a.alter, a.describe, a.delete]
        .iter()
        .filter(|x| **x)
        .count();
    if actions != 1 {
        return usage(
            "Command must include exactly one action: --list, --describe, --create, --alter or --delete",
        );
    }
    if a.connection.bootstrap_server.is_none() {
        return usage("--bootstrap-server must be specified");
    }
    if a.describe && a.if_exists && a.topic.is_none() && a.topic_id.is_none() {
        return usage("--topic or --topic-id is required to describe a topic");
    }
    if !a.list && !a.describe && a.topic.is_none() {
        return usage("Missing required argument \"[topic]\"");
    }
    if a.alter && a.partitions.is_none() && a.configs.is_empty() {
        return usage("Missing required argument \"[partitions]\" (or --config)");
    }
    let invalid = |set: bool, name: &str, allowed: bool| -> Result<(), ToolError> {
        if set && !allowed {
            return usage(&format!(
                "Option \"[{name}]\" can't be used with the chosen action"
            ));
        }
        Ok(())
    };
    invalid(!a.configs.is_empty(), "config", a.alter || a.create)?;
    invalid(a.partitions.is_some(), "partitions", a.alter || a.create)?;
    invalid(
        a.replication_factor.is_some(),
        "replication-factor",
        a.create,
    )?;
    invalid(
        a.replica_assignment.is_some(),
        "replica-assignment",
        a.alter || a.create,
    )?;
    if a.create
        && a.replica_assignment.is_some()
        && (a.partitions.is_some() || a.replication_factor.is_some())
    {
        return usage(
            "Option \"[replica-assignment]\" can't be used with option \"[partitions]\" or \"[replication-factor]\"",
        );
    }
    let reports = [
        (a.under_replicated_partitions, "under-replicated-partitions"),
        (a.under_min_isr_partitions, "under-min-isr-partitions"),
        (a.at_min_isr_partitions, "at-min-isr-partitions"),
        (a.unavailable_partitions, "unavailable-partitions"),
    ];
    for (set, name) in reports {
        invalid(set, name, a.describe && !a.topics_with_overrides)?;
    }
    let any_report = reports.iter().any(|(s, _)| *s);
    invalid(
        a.topics_with_overrides,
        "topics-with-overrides",
        a.describe && !any_report,
    )?;
    invalid(a.if_exists, "if-exists", a.alter || a.delete || a.describe)?;
    invalid(a.if_not_exists, "if-not-exists", a.create)?;
    invalid(a.exclude_internal, "exclude-internal", a.list || a.describe)?;
    if let Some(p) = a.partitions {
        if p < 1 {
            return usage("The partitions must be greater than 0");
        }
    }
    if let Some(rf) = a.replication_factor {
        if !(1..=i16::MAX as i32).contains(&rf) {
            return usage("The replication factor must be between 1 and 32767 inclusive");
        }
    }
    Ok(())
}

/// `name=value` pairs, split as Kafka does (around `=`, trimmed).
fn parse_configs(configs: &[String]) -> Result<Vec<(String, String)>, ToolError> {
    configs
        .iter()
        .map(|c| {
            let parts: Vec<&str> = c.split('=').collect();
            if parts.len() != 2 {
                return Err(ToolError::Usage(
                    "requirement failed: Invalid topic config: all configs to be added must be in the format \"key=val\"."
                        .into(),
                ));
            }
            Ok((parts[0].trim().to_string(), parts[1].trim().to_string()))
        })
        .collect()
}

/// Kafka's `--replica-assignment` format: partitions separated by `,`, brokers by `:`.
fn parse_assignment(s: &str) -> Result<Vec<Vec<i32>>, ToolError> {
    let mut out: Vec<Vec<i32>> = Vec::new();
    for (i, part) in s.split(',').enumerate() {
        let brokers: Vec<i32> = part
            .split(':')
            .map(|b| {
                b.trim().parse::<i32>().map_err(|_| {
                    ToolError::Usage(format!("Invalid broker id {:?} in --replica-assignment", b))
                })
            })
            .collect::<Result<_, _>>()?;
        let unique: BTreeSet<i32> = brokers.iter().copied().collect();
        if unique.len() != brokers.len() {
            let dups: Vec<String> = unique
                .iter()
                .filter(|b| brokers.iter().filter(|x| x == b).count() > 1)
                .map(|b| b.to_string())
                .collect();
            return Err(ToolError::Usage(format!(
                "Partition replica lists may not contain duplicate entries: {}",
                dups.join(",")
            )));
        }
        if let Some(first) = out.first() {
            if first.len() != brokers.len() {
                return Err(ToolError::Usage(format!(
                    "Partition {i} has different replication factor: {brokers:?}"
                )));
            }
        }
        out.push(brokers);
    }
    Ok(out)
}

async fn create(admin: &Admin, a: &Args) -> Result<(), ToolError> {
    let name = a.topic.clone().unwrap_or_default();
    if name.contains('.') || name.contains('_') {
        println!("WARNING: Due to limitations in metric names, topics with a period ('.') or underscore ('_') could collide. To avoid issues it is best to use either, but not both.");
    }
    let configs = parse_configs(&a.configs)?;
    let assignments = match &a.replica_assignment {
        Some(s) => parse_assignment(s)?,
        None => Vec::new(),
    };
    let topic = CreatableTopic {
        name: name.clone(),
        num_partitions: if assignments.is_empty() {
            a.partitions.unwrap_or(-1)
        } else {
            -1
        },
        replication_factor: if assignments.is_empty() {
            a.replication_factor.map_or(-1, |r| r as i16)
        } else {
            -1
        },
        assignments: assignments
            .into_iter()
            .enumerate()
            .map(|(i, broker_ids)| CreatableReplicaAssignment {
                partition_index: i as i32,
                broker_ids,
                ..Default::default()
            })
            .collect(),
        configs: configs
            .into_iter()
            .map(|(name, value)| CreatableTopicConfig {
                name,
                value: Some(value),
                ..Default::default()
            })
            .collect(),
        ..Default::default()
    };
    let timeout_ms = admin.config().request_timeout.as_millis() as i32;
    let result = admin
        .retry(|| async {
            let r = admin
                .call_controller(
                    RequestBody::CreateTopics(CreateTopicsRequest {
                        topics: vec![topic.clone()],
                        timeout_ms,
                        ..Default::default()
                    }),
                    2..=7,
                )
                .await?;
            let r = expect_response!(r, CreateTopics)?;
            match r.topics.first() {
                Some(t) => AdminError::check(t.error_code, t.error_message.as_deref()),
                None => Err(AdminError::Protocol("no result for the topic".into())),
            }
        })
        .await;
    match result {
        Ok(()) => {
            println!("Created topic {name}.");
            Ok(())
        }
        Err(e) if e.code() == Some(ErrorCode::TopicAlreadyExists) && a.if_not_exists => Ok(()),
        Err(e) => Err(ToolError::from_server(e)),
    }
}

/// Topic names matching `--topic` (a regular expression matched against the whole name, as
/// Kafka's IncludeList), sorted; internal topics left out with `--exclude-internal`.
fn matching_topics(
    cluster: &ClusterInfo,
    filter: Option<&str>,
    exclude_internal: bool,
) -> Result<Vec<String>, ToolError> {
    let pattern = match filter {
        Some(f) => {
            let f = f.trim().trim_matches(|c| c == '"' || c == '\'');
            let f = f.replace(',', "|");
            Some(
                regex::Regex::new(&format!("^(?:{f})$"))
                    .map_err(|e| ToolError::Usage(format!("Invalid topic pattern {f:?}: {e}")))?,
            )
        }
        None => None,
    };
    // Internal is what the broker says of a topic (Metadata's IsInternal).
    Ok(cluster
        .topics
        .values()
        .filter(|t| !(exclude_internal && t.internal))
        .map(|t| &t.name)
        .filter(|t| pattern.as_ref().is_none_or(|p| p.is_match(t)))
        .cloned()
        .collect())
}

/// Kafka's check that a named topic was found.
fn ensure_exists(found: &[String], a: &Args) -> Result<(), ToolError> {
    match &a.topic {
        // Kafka 4.4 fails the command here, printing "Error while executing topic command".
        Some(t) if !t.is_empty() && !a.if_exists && found.is_empty() => Err(ToolError::Failed(
            format!("Topic '{t}' does not exist as expected"),
        )),
        _ => Ok(()),
    }
}

async fn list(admin: &Admin, a: &Args) -> Result<(), ToolError> {
    let cluster = admin
        .retry(|| admin.refresh(None))
        .await
        .map_err(ToolError::from_server)?;
    let names = matching_topics(&cluster, a.topic.as_deref(), a.exclude_internal)?;
    println!("{}", names.join("\n"));
    Ok(())
}

async fn delete(admin: &Admin, a: &Args) -> Result<(), ToolError> {
    let cluster = admin
        .retry(|| admin.refresh(None))
        .await
        .map_err(ToolError::from_server)?;
    let names = matching_topics(&cluster, a.topic.as_deref(), a.exclude_internal)?;
    ensure_exists(&names, a)?;
    if names.is_empty() {
        return Ok(());
    }
    let timeout_ms = admin.config().request_timeout.as_millis() as i32;
    admin
        .retry(|| async {
            let r = admin
                .call_controller(
                    RequestBody::DeleteTopics(DeleteTopicsRequest {
                        topic_names: names.clone(),
                        timeout_ms,
                        ..Default::default()
                    }),
                    1..=5,
                )
                .await?;
            let r = expect_response!(r, DeleteTopics)?;
            for t in &r.responses {
                // A retried delete finds the topic already gone.
                if t.error_code != ErrorCode::UnknownTopicOrPartition.code() {
                    AdminError::check(t.error_code, t.error_message.as_deref())?;
                }
            }
            Ok(())
        })
        .await
        .map_err(ToolError::from_server)
}

async fn alter(admin: &Admin, a: &Args) -> Result<(), ToolError> {
    let cluster = admin
        .retry(|| admin.refresh(None))
        .await
        .map_err(ToolError::from_server)?;
    let names = matching_topics(&cluster, a.topic.as_deref(), a.exclude_internal)?;
    ensure_exists(&names, a)?;
    let timeout_ms = admin.config().request_timeout.as_millis() as i32;
    if let Some(count) = a.partitions {
        let assignment = match &a.replica_assignment {
            Some(s) => Some(parse_assignment(s)?),
            None => None,
        };
        let topics: Vec<CreatePartitionsTopic> = names
            .iter()
            .map(|n| {
                let existing = cluster.topics.get(n).map_or(0, |t| t.partitions.len());
                CreatePartitionsTopic {
                    name: n.clone(),
                    count,
                    assignments: assignment.as_ref().map(|all| {
                        all.iter()
                            .skip(existing)
                            .map(|b| CreatePartitionsAssignment {
                                broker_ids: b.clone(),
                                ..Default::default()
                            })
                            .collect()
                    }),
                    ..Default::default()
                }
            })
            .collect();
        admin
            .retry(|| async {
                let r = admin
                    .call_controller(
                        RequestBody::CreatePartitions(CreatePartitionsRequest {
                            topics: topics.clone(),
                            timeout_ms,
                            ..Default::default()
                        }),
                        0..=3,
                    )
                    .await?;
                let r = expect_response!(r, CreatePartitions)?;
                for t in &r.results {
                    AdminError::check(t.error_code, t.error_message.as_deref())?;
                }
                Ok(())
            })
            .await
            .map_err(ToolError::from_server)?;
    }
    if !a.configs.is_empty() {
        let configs = parse_configs(&a.configs)?;
        let resources: Vec<AlterConfigsResource> = names
            .iter()
            .map(|n| AlterConfigsResource {
                resource_type: TOPIC_RESOURCE,
                resource_name: n.clone(),
                configs: configs
                    .iter()
                    .map(|(k, v)| AlterableConfig {
                        name: k.clone(),
                        config_operation: 0,
                        value: Some(v.clone()),
                        ..Default::default()
                    })
                    .collect(),
                ..Default::default()
            })
            .collect();
        admin
            .incremental_alter_configs(resources)
            .await
            .map_err(ToolError::from_server)?;
    }
    Ok(())
}

/// The configs of `topics`, by topic (DescribeConfigs at any broker).
async fn topic_configs(
    admin: &Admin,
    topics: &[String],
) -> Result<BTreeMap<String, DescribeConfigsResult>, AdminError> {
    if topics.is_empty() {
        return Ok(BTreeMap::new());
    }
    admin
        .retry(|| async {
            let r = admin
                .call_any(
                    RequestBody::DescribeConfigs(DescribeConfigsRequest {
                        resources: topics
                            .iter()
                            .map(|t| DescribeConfigsResource {
                                resource_type: TOPIC_RESOURCE,
                                resource_name: t.clone(),
                                configuration_keys: None,
                                ..Default::default()
                            })
                            .collect(),
                        ..Default::default()
                    }),
                    1..=4,
                )
                .await?;
            let r = expect_response!(r, DescribeConfigs)?;
            let mut out = BTreeMap::new();
            for res in r.results {
                AdminError::check(res.error_code, res.error_message.as_deref())?;
                out.insert(res.resource_name.clone(), res);
            }
            Ok(out)
        })
        .await
}

/// A partition's reassignment under way, as ListPartitionReassignments tells it.
pub type Moving = fjord_admin::Reassignment;

/// The reassignments under way, by (topic, partition). Empty when the caller may not see them
/// (CLUSTER_AUTHORIZATION_FAILED) or the cluster does not serve the API, as Kafka's tool
/// does.
async fn reassignments(admin: &Admin) -> Result<BTreeMap<(String, i32), Moving>, AdminError> {
    match admin.list_partition_reassignments(None).await {
        Err(AdminError::UnsupportedVersion { .. }) => Ok(BTreeMap::new()),
        Err(e) if e.code() == Some(ErrorCode::ClusterAuthorizationFailed) => Ok(BTreeMap::new()),
        r => r,
    }
}

/// What the describe filters see of one partition.
pub struct PartitionView<'a> {
    /// The partition.
    pub info: &'a PartitionInfo,
    /// The topic's `min.insync.replicas`.
    pub min_isr: i32,
    /// Its reassignment under way, if any.
    pub moving: Option<&'a Moving>,
}

impl PartitionView<'_> {
    /// The replication factor: the replicas less those a reassignment is adding, as Kafka
    /// counts it.
    pub fn replication_factor(&self) -> usize {
        let adding = self.moving.map_or(0, |m| m.adding.len());
        self.info.replicas.len().saturating_sub(adding)
    }

    /// min(`min.insync.replicas`, replication factor) (docs/EXTENSIONS.md).
    pub fn effective_min_isr(&self) -> usize {
        (self.min_isr.max(1) as usize).min(self.replication_factor())
    }

    fn has_leader(&self) -> bool {
        self.info.leader >= 0
    }

    /// Fewer in-sync replicas than the replication factor.
    pub fn under_replicated(&self) -> bool {
        self.replication_factor() > self.info.isr.len()
    }

    /// No leader, or fewer in-sync replicas than the effective min ISR.
    pub fn under_min_isr(&self) -> bool {
        !self.has_leader() || self.info.isr.len() < self.effective_min_isr()
    }

    /// Exactly the effective min ISR in sync.
    pub fn at_min_isr(&self) -> bool {
        self.info.isr.len() == self.effective_min_isr()
    }

    /// No leader, or a leader that is not a live broker.
    pub fn unavailable(&self, live: &BTreeSet<i32>) -> bool {
        !self.has_leader() || !live.contains(&self.info.leader)
    }
}

fn joined(ids: &[i32]) -> String {
    ids.iter()
        .map(|i| i.to_string())
        .collect::<Vec<_>>()
        .join(",")
}

/// One partition line of `--describe`, as Kafka prints it: the reassignment columns when one
/// is under way, and the ELR columns (N/A when the broker could not tell them).
pub fn partition_line(topic: &str, p: &PartitionInfo, moving: Option<&Moving>) -> String {
    let elr = |v: &Option<Vec<i32>>| v.as_deref().map_or("N/A".to_string(), joined);
    let reassignment = moving.map_or(String::new(), |m| {
        format!(
            "\tAdding Replicas: {}\tRemoving Replicas: {}",
            joined(&m.adding),
            joined(&m.removing)
        )
    });
    format!(
        "\tTopic: {topic}\tPartition: {}\tLeader: {}\tReplicas: {}\tIsr: {}{reassignment}\tElr: {}\tLastKnownElr: {}",
        p.partition,
        if p.leader >= 0 {
            p.leader.to_string()
        } else {
            "none".into()
        },
        joined(&p.replicas),
        joined(&p.isr),
        elr(&p.elr),
        elr(&p.last_known_elr)
    )
}

/// The topic line of `--describe` (the replication factor of its first partition, less what
/// a reassignment is adding).
fn topic_line(
    t: &TopicInfo,
    config: Option<&DescribeConfigsResult>,
    moving: &BTreeMap<(String, i32), Moving>,
) -> String {
    let configs = config
        .map(|c| {
            c.configs
                .iter()
                .filter(|e| e.config_source != DEFAULT_CONFIG_SOURCE)
                .map(|e| format!("{}={}", e.name, e.value.clone().unwrap_or_default()))
                .collect::<Vec<_>>()
                .join(",")
        })
        .unwrap_or_default();
    let mut line = format!("Topic: {}", t.name);
    if !t.id.is_nil() {
        line.push_str(&format!("\tTopicId: {}", uuid_text::encode(&t.id)));
    }
    line.push_str(&format!(
        "\tPartitionCount: {}\tReplicationFactor: {}\tConfigs: {configs}",
        t.partitions.len(),
        t.partitions.first().map_or(0, |p| PartitionView {
            info: p,
            min_isr: 1,
            moving: moving.get(&(t.name.clone(), p.partition)),
        }
        .replication_factor())
    ));
    line
}

async fn describe(admin: &Admin, a: &Args) -> Result<(), ToolError> {
    let cluster = admin
        .retry(|| admin.refresh(None))
        .await
        .map_err(ToolError::from_server)?;
    let names: Vec<String> = match &a.topic_id {
        Some(id) if uuid_text::decode(id).is_some_and(|u| !u.is_nil()) => {
            let id = uuid_text::decode(id).unwrap_or_default();
            let found: Vec<String> = cluster
                .topic_by_id(id)
                .filter(|t| !(a.exclude_internal && t.internal))
                .map(|t| vec![t.name.clone()])
                .unwrap_or_default();
            if found.is_empty() && !a.if_exists {
                return Err(ToolError::Failed(format!(
                    "TopicId '{}' does not exist as expected",
                    a.topic_id.as_deref().unwrap_or_default()
                )));
            }
            found
        }
        Some(id) if uuid_text::decode(id).is_none() => {
            return Err(ToolError::Usage(format!("Invalid topic id {id:?}")))
        }
        _ => {
            let names = matching_topics(&cluster, a.topic.as_deref(), a.exclude_internal)?;
            ensure_exists(&names, a)?;
            names
        }
    };
    let configs = topic_configs(admin, &names)
        .await
        .map_err(ToolError::from_server)?;
    let moving = reassignments(admin).await.map_err(ToolError::from_server)?;
    let live: BTreeSet<i32> = cluster
        .brokers
        .values()
        .filter(|b| !b.fenced)
        .map(|b| b.id)
        .collect();
    let reports = a.under_replicated_partitions
        || a.under_min_isr_partitions
        || a.at_min_isr_partitions
        || a.unavailable_partitions;
    for name in &names {
        let Some(t) = cluster.topics.get(name) else {
            continue;
        };
        let config = configs.get(name);
        let min_isr = config
            .and_then(|c| {
                c.configs
                    .iter()
                    .find(|e| e.name == fjord_configdef::topic::MIN_INSYNC_REPLICAS.name)
            })
            .and_then(|e| e.value.as_deref())
            .and_then(|v| v.parse::<i32>().ok())
            .unwrap_or(1);
        if !reports {
            let overridden = config.is_some_and(|c| {
                c.configs
                    .iter()
                    .any(|e| e.config_source != DEFAULT_CONFIG_SOURCE)
            });
            if !a.topics_with_overrides || overridden {
                println!("{}", topic_line(t, config, &moving));
            }
        }
        if a.topics_with_overrides {
            continue;
        }
        for p in &t.partitions {
            let m = moving.get(&(name.clone(), p.partition));
            let v = PartitionView {
                info: p,
                min_isr,
                moving: m,
            };
            let show = !reports
                || (a.under_replicated_partitions && v.under_replicated())
                || (a.unavailable_partitions && v.unavailable(&live))
                || (a.under_min_isr_partitions && v.under_min_isr())
                || (a.at_min_isr_partitions && v.at_min_isr());
            if show {
                println!("{}", partition_line(name, p, m));
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn partition(leader: i32, replicas: &[i32], isr: &[i32]) -> PartitionInfo {
        PartitionInfo {
            partition: 0,
            error_code: 0,
            leader,
            leader_epoch: 0,
            replicas: replicas.to_vec(),
            isr: isr.to_vec(),
            offline: vec![],
            elr: None,
            last_known_elr: None,
        }
    }

    #[test]
    fn filters_use_the_effective_min_isr() {
        // RF 6, min ISR 4, two of six down: at min ISR, not under.
        let p = partition(1, &[1, 2, 3, 4, 5, 6], &[1, 2, 3, 4]);
        let v = PartitionView {
            info: &p,
            min_isr: 4,
            moving: None,
        };
        assert!(v.at_min_isr() && !v.under_min_isr() && v.under_replicated());
        // min.insync.replicas 3 on RF 2: the effective min is 2.
        let p = partition(1, &[1, 2], &[1, 2]);
        let v = PartitionView {
            info: &p,
            min_isr: 3,
            moving: None,
        };
        assert!(v.at_min_isr() && !v.under_min_isr());
        // Offline: under min ISR and unavailable whatever the ISR says.
        let p = partition(-1, &[1, 2, 3], &[1]);
        let v = PartitionView {
            info: &p,
            min_isr: 1,
            moving: None,
        };
        assert!(v.under_min_isr() && v.unavailable(&BTreeSet::from([2, 3])));
        // Moving from 1,2 to 2,3 with 3 not yet in sync: RF 2, fully replicated, as Kafka
        // counts it (the replicas being added are not missing).
        let p = partition(1, &[2, 3, 1], &[1, 2]);
        let m = Moving {
            adding: vec![3],
            removing: vec![1],
            ..Default::default()
        };
        let v = PartitionView {
            info: &p,
            min_isr: 2,
            moving: Some(&m),
        };
        assert_eq!(v.replication_factor(), 2);
        assert!(!v.under_replicated() && v.at_min_isr());
    }

    #[test]
    fn lines_are_kafkas() {
        let mut p = partition(-1, &[1, 2, 3], &[1]);
        assert_eq!(
            partition_line("t", &p, None),
            "\tTopic: t\tPartition: 0\tLeader: none\tReplicas: 1,2,3\tIsr: 1\tElr: N/A\tLastKnownElr: N/A"
        );
        p.elr = Some(vec![2, 3]);
        p.last_known_elr = Some(vec![]);
        assert!(partition_line("t", &p, None).ends_with("\tElr: 2,3\tLastKnownElr: "));
        let m = Moving {
            adding: vec![4],
            removing: vec![1],
            ..Default::default()
        };
        assert!(partition_line("t", &p, Some(&m))
            .contains("\tIsr: 1\tAdding Replicas: 4\tRemoving Replicas: 1\tElr: 2,3"));
    }

    #[test]
    fn replica_assignment_is_checked() {
        assert_eq!(
            parse_assignment("1:2,2:3").unwrap(),
            vec![vec![1, 2], vec![2, 3]]
        );
        assert!(parse_assignment("1:1").is_err());
        assert!(parse_assignment("1:2,3").is_err());
        assert!(parse_configs(&["a=b".into(), "c".into()]).is_err());
    }

    #[test]
    fn topic_patterns_match_whole_names() {
        let mut c = ClusterInfo::default();
        for n in ["orders", "orders-eu", "__consumer_offsets"] {
            c.topics.insert(
                n.into(),
                TopicInfo {
                    name: n.into(),
                    id: Default::default(),
                    internal: n.starts_with("__"),
                    error_code: 0,
                    partitions: vec![],
                },
            );
        }
        assert_eq!(
            matching_topics(&c, Some("orders"), false).unwrap(),
            vec!["orders"]
        );
        assert_eq!(
            matching_topics(&c, Some("orders.*"), false).unwrap(),
            vec!["orders", "orders-eu"]
        );
        assert_eq!(matching_topics(&c, None, true).unwrap().len(), 2);
    }
}
