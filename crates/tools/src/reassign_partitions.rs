//! `fjord kafka-reassign-partitions` (as `kafka-reassign-partitions.sh`): `--generate` proposes
//! a plan moving topics' partitions onto a broker list (rack-aware unless
//! `--disable-rack-aware`), `--execute` starts a plan (AlterPartitionReassignments), with
//! `--throttle` setting the replication throttles on the moving replicas and their brokers
//! (KIP-73) and `log_dirs` moving replicas between a broker's dirs (AlterReplicaLogDirs,
//! `--replica-alter-log-dirs-throttle`); `--verify` reports each partition and clears the
//! throttles once nothing is moving; `--cancel` reverts active reassignments; `--list` shows
//! them. Flags, JSON and messages are Kafka's, with one difference: `--cancel` cancels every
//! named reassignment still under way (Kafka's skips one that only adds replicas).

use crate::common::{self, ToolError};
use clap::Args as ClapArgs;
use fjord_admin::{expect_response, Admin, AdminError, Reassignment};
use fjord_protocol::generated::{
    alter_partition_reassignments_request::{
        AlterPartitionReassignmentsRequest, ReassignablePartition, ReassignableTopic,
    },
    alter_replica_log_dirs_request::{
        AlterReplicaLogDir, AlterReplicaLogDirTopic, AlterReplicaLogDirsRequest,
    },
    describe_log_dirs_request::{DescribableLogDirTopic, DescribeLogDirsRequest},
    incremental_alter_configs_request::{AlterConfigsResource, AlterableConfig},
};
use fjord_protocol::{ErrorCode, RequestBody};
use serde_json::Value;
use std::collections::{BTreeMap, BTreeSet};
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::{Duration, Instant};

/// The `log_dirs` entry meaning "wherever the broker puts it".
const ANY_LOG_DIR: &str = "any";
/// ConfigResource type of a topic.
const TOPIC_RESOURCE: i8 = 2;
/// ConfigResource type of a broker.
const BROKER_RESOURCE: i8 = 4;
/// IncrementalAlterConfigs operations.
const SET: i8 = 0;
const DELETE: i8 = 1;
/// The broker keys `--throttle` and `--replica-alter-log-dirs-throttle` set.
const BROKER_THROTTLES: [&str; 3] = [
    fjord_quota::replication::LEADER_THROTTLED_RATE,
    fjord_quota::replication::FOLLOWER_THROTTLED_RATE,
    fjord_quota::replication::ALTER_LOG_DIRS_RATE,
];
/// The topic keys naming throttled replicas.
const TOPIC_THROTTLES: [&str; 2] = [
    fjord_quota::replication::LEADER_THROTTLED_REPLICAS,
    fjord_quota::replication::FOLLOWER_THROTTLED_REPLICAS,
];
/// How long the controller may take with a reassignment request.
const REQUEST_TIMEOUT_MS: i32 = 60_000;

const CANNOT_EXECUTE_BECAUSE_OF_EXISTING: &str = "Cannot execute because there is an existing \
     partition assignment.  Use --additional to override this and create a new partition \
     assignment in addition to the existing one. The --additional flag can also be used to \
     change the throttle by resubmitting the current reassignment.";
const RUN_VERIFY_PERIODICALLY: &str = "Warning: You must run --verify periodically, until the \
     reassignment completes, to ensure the throttle is removed.";

/// `kafka-reassign-partitions` arguments (Kafka's flags; exactly one action).
#[derive(Debug, ClapArgs)]
pub struct Args {
    #[command(flatten)]
    connection: crate::common::Connection,
    /// Generate a candidate partition reassignment configuration. Note that this only
    /// generates a candidate assignment, it does not execute it.
    #[arg(long)]
    generate: bool,
    /// Kick off the reassignment as specified by the --reassignment-json-file option.
    #[arg(long)]
    execute: bool,
    /// Verify if the reassignment completed as specified by the --reassignment-json-file
    /// option. If there is a throttle engaged for the replicas specified, and the rebalance has
    /// completed, the throttle will be removed.
    #[arg(long)]
    verify: bool,
    /// Cancel an active reassignment.
    #[arg(long)]
    cancel: bool,
    /// List all active partition reassignments.
    #[arg(long)]
    list: bool,
    /// The JSON file with the partition reassignment configuration: {"partitions":
    /// [{"topic": "foo", "partition": 1, "replicas": [1,2,3], "log_dirs": ["any","any","any"]}],
    /// "version":1}; "log_dirs" is optional.
    #[arg(long)]
    reassignment_json_file: Option<PathBuf>,
    /// Generate a reassignment configuration to move the partitions of the specified topics to
    /// the list of brokers specified by the --broker-list option: {"topics": [{"topic":
    /// "foo"},{"topic": "foo1"}], "version":1}.
    #[arg(long)]
    topics_to_move_json_file: Option<PathBuf>,
    /// The list of brokers to which the partitions need to be reassigned in the form "0,1,2".
    #[arg(long)]
    broker_list: Option<String>,
    /// Disable rack aware replica assignment.
    #[arg(long)]
    disable_rack_aware: bool,
    /// The movement of partitions between brokers will be throttled to this value
    /// (bytes/sec).
    #[arg(long, allow_negative_numbers = true)]
    throttle: Option<i64>,
    /// The movement of replicas between log directories on the same broker will be throttled
    /// to this value (bytes/sec).
    #[arg(long, allow_negative_numbers = true)]
    replica_alter_log_dirs_throttle: Option<i64>,
    /// The maximum time in ms to wait for log directory replica assignment to begin.
    #[arg(long)]
    timeout: Option<i64>,
    /// Execute this reassignment in addition to any other ongoing ones. This option can also
    /// be used to change the throttle of an ongoing reassignment.
    #[arg(long)]
    additional: bool,
    /// Do not modify broker or topic throttles.
    #[arg(long)]
    preserve_throttles: bool,
}

/// Runs the tool.
pub fn run(args: &Args) -> ExitCode {
    common::run::<Args, _>("kafka-reassign-partitions", async {
        let action = check_args(args)?;
        let admin = args.connection.admin()?;
        let result = match action {
            "generate" => generate(&admin, args).await,
            "execute" => execute(&admin, args).await,
            "verify" => verify(&admin, args).await,
            "cancel" => cancel(&admin, args).await,
            _ => list(&admin).await,
        };
        // As Kafka's tool: an expected failure prints its message, anything else "Error: ".
        result.map_err(|e| match e {
            Failure::Terse(m) => ToolError::FailedStdout(m),
            Failure::Error(m) => ToolError::FailedStdout(format!("Error: {m}")),
            Failure::Tool(e) => e,
        })
    })
}

/// How an action failed.
enum Failure {
    /// Kafka's TerseException: the message alone.
    Terse(String),
    /// Any other failure: printed after "Error: ".
    Error(String),
    /// Usage or connection errors, as every tool prints them.
    Tool(ToolError),
}

impl From<AdminError> for Failure {
    fn from(e: AdminError) -> Failure {
        Failure::Error(e.server_message())
    }
}

impl From<ToolError> for Failure {
    fn from(e: ToolError) -> Failure {
        Failure::Tool(e)
    }
}

/// Kafka's argument rules: one action, one bootstrap option, the action's required options and
/// no option it does not permit. Returns the action's name.
fn check_args(a: &Args) -> Result<&'static str, ToolError> {
    let actions = [
        (a.generate, "generate"),
        (a.execute, "execute"),
        (a.verify, "verify"),
        (a.cancel, "cancel"),
        (a.list, "list"),
    ];
    let given: Vec<&str> = actions
        .iter()
        .filter(|(g, _)| *g)
        .map(|(_, n)| *n)
        .collect();
    if given.len() != 1 {
        return Err(ToolError::Usage(
            "Command must include exactly one action: --generate, --execute, --verify, --cancel, \
             --list"
                .into(),
        ));
    }
    let action = given[0];
    let c = &a.connection;
    match (&c.bootstrap_server, &c.bootstrap_controller) {
        (Some(_), Some(_)) => {
            return Err(ToolError::Usage(
                "Please don't specify both --bootstrap-server and --bootstrap-controller".into(),
            ))
        }
        (None, None) => {
            return Err(ToolError::Usage(
                "Please specify either --bootstrap-server or --bootstrap-controller".into(),
            ))
        }
        _ => {}
    }
    let required: &[(&str, bool)] = match action {
        "generate" => &[
            (
                "topics-to-move-json-file",
                a.topics_to_move_json_file.is_some(),
            ),
            ("broker-list", a.broker_list.is_some()),
        ],
        "list" => &[],
        _ => &[("reassignment-json-file", a.reassignment_json_file.is_some())],
    };
    if let Some((name, _)) = required.iter().find(|(_, given)| !given) {
        return Err(ToolError::Usage(format!(
            "Missing required argument \"[{name}]\""
        )));
    }
    let options: [(&str, bool); 11] = [
        ("bootstrap-server", c.bootstrap_server.is_some()),
        ("bootstrap-controller", c.bootstrap_controller.is_some()),
        ("reassignment-json-file", a.reassignment_json_file.is_some()),
        (
            "topics-to-move-json-file",
            a.topics_to_move_json_file.is_some(),
        ),
        ("broker-list", a.broker_list.is_some()),
        ("disable-rack-aware", a.disable_rack_aware),
        ("throttle", a.throttle.is_some()),
        (
            "replica-alter-log-dirs-throttle",
            a.replica_alter_log_dirs_throttle.is_some(),
        ),
        ("timeout", a.timeout.is_some()),
        ("additional", a.additional),
        ("preserve-throttles", a.preserve_throttles),
    ];
    let permitted: &[&str] = match action {
        "verify" => &[
            "bootstrap-server",
            "reassignment-json-file",
            "preserve-throttles",
        ],
        "generate" => &[
            "bootstrap-server",
            "topics-to-move-json-file",
            "broker-list",
            "disable-rack-aware",
        ],
        "execute" => &[
            "bootstrap-server",
            "reassignment-json-file",
            "additional",
            "throttle",
            "replica-alter-log-dirs-throttle",
            "timeout",
        ],
        "cancel" => &[
            "bootstrap-server",
            "bootstrap-controller",
            "reassignment-json-file",
            "preserve-throttles",
            "timeout",
        ],
        _ => &["bootstrap-server", "bootstrap-controller"],
    };
    if let Some((name, _)) = options
        .iter()
        .find(|(name, given)| *given && !permitted.contains(name))
    {
        return Err(ToolError::Usage(format!(
            "Option \"[{name}]\" can't be used with action \"[{action}]\""
        )));
    }
    Ok(action)
}

/// A partition, printed as Kafka's `TopicPartition` ("topic-partition").
type Part = (String, i32);

fn part_text(p: &Part) -> String {
    format!("{}-{}", p.0, p.1)
}

/// A parsed plan: each partition's target replicas (in file order, duplicates kept for the
/// checks), and the replicas to place in a named log dir.
struct Plan {
    partitions: Vec<(Part, Vec<i32>)>,
    log_dirs: BTreeMap<(Part, i32), String>,
}

fn read(path: &PathBuf) -> Result<String, Failure> {
    std::fs::read_to_string(path)
        .map_err(|e| Failure::Error(format!("cannot read {}: {e}", path.display())))
}

fn json(text: &str) -> Result<Value, Failure> {
    serde_json::from_str(text)
        .map_err(|_| Failure::Error("The input string is not a valid JSON".into()))
}

fn version_of(v: &Value) -> Result<(), Failure> {
    match v.get("version") {
        None => Ok(()),
        Some(x) if x.as_i64() == Some(1) => Ok(()),
        Some(x) => Err(Failure::Error(format!(
            "Not supported version field value {x}"
        ))),
    }
}

fn field<'a>(o: &'a Value, name: &str) -> Result<&'a Value, Failure> {
    o.get(name)
        .ok_or_else(|| Failure::Error(format!("No such field exists: `{name}`")))
}

fn int(v: &Value, what: &str) -> Result<i32, Failure> {
    v.as_i64()
        .and_then(|x| i32::try_from(x).ok())
        .ok_or_else(|| Failure::Error(format!("Expected an integer for {what}, found {v}")))
}

/// Parses a reassignment JSON file (version 1), as Kafka's tool does.
fn parse_plan(text: &str) -> Result<Plan, Failure> {
    let v = json(text)?;
    version_of(&v)?;
    let mut plan = Plan {
        partitions: Vec::new(),
        log_dirs: BTreeMap::new(),
    };
    let Some(list) = v.get("partitions") else {
        return Ok(plan);
    };
    for p in list.as_array().into_iter().flatten() {
        let topic = field(p, "topic")?
            .as_str()
            .ok_or_else(|| Failure::Error("Expected a string for topic".into()))?
            .to_string();
        let partition = int(field(p, "partition")?, "partition")?;
        let replicas: Vec<i32> = field(p, "replicas")?
            .as_array()
            .ok_or_else(|| Failure::Error("Expected an array for replicas".into()))?
            .iter()
            .map(|r| int(r, "replicas"))
            .collect::<Result<_, _>>()?;
        let dirs: Vec<String> = match p.get("log_dirs") {
            Some(d) => d
                .as_array()
                .ok_or_else(|| Failure::Error("Expected an array for log_dirs".into()))?
                .iter()
                .map(|x| x.as_str().map(str::to_string))
                .collect::<Option<_>>()
                .ok_or_else(|| Failure::Error("Expected strings in log_dirs".into()))?,
            None => vec![ANY_LOG_DIR.to_string(); replicas.len()],
        };
        let part = (topic, partition);
        if dirs.len() != replicas.len() {
            return Err(Failure::Error(format!(
                "Size of replicas list {} is different from size of log dirs list {} for \
                 partition {}",
                java_list(&replicas),
                java_list(&dirs),
                part_text(&part)
            )));
        }
        for (r, d) in replicas.iter().zip(&dirs) {
            if d != ANY_LOG_DIR {
                plan.log_dirs.insert((part.clone(), *r), d.clone());
            }
        }
        plan.partitions.push((part, replicas));
    }
    Ok(plan)
}

/// A list as Java prints one: `[1, 2, 3]`.
fn java_list<T: std::fmt::Display>(items: &[T]) -> String {
    let inner: Vec<String> = items.iter().map(T::to_string).collect();
    format!("[{}]", inner.join(", "))
}

fn joined(items: impl IntoIterator<Item = impl ToString>) -> String {
    items
        .into_iter()
        .map(|x| x.to_string())
        .collect::<Vec<_>>()
        .join(",")
}

/// The duplicates among `items`, in order.
fn duplicates<T: Ord + Clone>(items: &[T]) -> BTreeSet<T> {
    let mut seen = BTreeSet::new();
    items
        .iter()
        .filter(|x| !seen.insert((*x).clone()))
        .cloned()
        .collect()
}

/// A plan as Kafka's tool writes one: version 1, partitions in topic-partition order, each
/// with `log_dirs` ("any" unless `dirs` names one).
fn plan_json(parts: &BTreeMap<Part, Vec<i32>>, dirs: &BTreeMap<(Part, i32), String>) -> String {
    let partitions: Vec<String> = parts
        .iter()
        .map(|(p, replicas)| {
            let log_dirs: Vec<Value> = replicas
                .iter()
                .map(|r| {
                    Value::from(
                        dirs.get(&(p.clone(), *r))
                            .map_or(ANY_LOG_DIR, String::as_str),
                    )
                })
                .collect();
            // In Kafka's field order (serde_json would sort the names).
            format!(
                "{{\"topic\":{},\"partition\":{},\"replicas\":{},\"log_dirs\":{}}}",
                Value::from(p.0.clone()),
                p.1,
                Value::from(replicas.clone()),
                Value::from(log_dirs)
            )
        })
        .collect();
    format!(
        "{{\"version\":1,\"partitions\":[{}]}}",
        partitions.join(",")
    )
}

/// The reassignments under way, by partition.
type Ongoing = BTreeMap<Part, Reassignment>;

async fn ongoing(admin: &Admin, only: Option<&BTreeSet<Part>>) -> Result<Ongoing, Failure> {
    Ok(admin.list_partition_reassignments(only).await?)
}

/// The replicas of `topics`' partitions now; a missing topic fails as Kafka's tool does.
async fn current_of_topics(
    admin: &Admin,
    topics: &BTreeSet<String>,
) -> Result<BTreeMap<Part, Vec<i32>>, Failure> {
    let names: Vec<String> = topics.iter().cloned().collect();
    let cluster = admin.retry(|| admin.refresh(Some(&names))).await?;
    let mut out = BTreeMap::new();
    for t in topics {
        let info = cluster
            .topics
            .get(t)
            .filter(|i| i.error_code == 0 && !i.partitions.is_empty())
            .ok_or_else(|| {
                Failure::Error(format!(
                    "org.apache.kafka.common.errors.UnknownTopicOrPartitionException: Topic {t} \
                     not found."
                ))
            })?;
        for p in &info.partitions {
            out.insert((t.clone(), p.partition), p.replicas.clone());
        }
    }
    Ok(out)
}

/// The replicas of `parts` now; a partition not found fails as Kafka's tool does.
async fn current_of_parts(
    admin: &Admin,
    parts: &BTreeSet<Part>,
) -> Result<BTreeMap<Part, Vec<i32>>, Failure> {
    let topics: BTreeSet<String> = parts.iter().map(|(t, _)| t.clone()).collect();
    let names: Vec<String> = topics.into_iter().collect();
    let cluster = admin.retry(|| admin.refresh(Some(&names))).await?;
    let mut out = BTreeMap::new();
    let mut missing = Vec::new();
    for part in parts {
        match cluster
            .topics
            .get(&part.0)
            .and_then(|t| t.partitions.iter().find(|p| p.partition == part.1))
        {
            Some(p) => {
                out.insert(part.clone(), p.replicas.clone());
            }
            None => missing.push(part_text(part)),
        }
    }
    if !missing.is_empty() {
        return Err(Failure::Error(format!(
            "org.apache.kafka.common.errors.UnknownTopicOrPartitionException: Unable to find \
             partition: {}",
            missing.join(", ")
        )));
    }
    Ok(out)
}

/// The live brokers, with their racks.
async fn brokers(admin: &Admin) -> Result<BTreeMap<i32, Option<String>>, Failure> {
    let r = admin
        .retry(|| admin.describe_cluster(1, false))
        .await
        .map_err(Failure::from)?;
    Ok(r.brokers
        .into_iter()
        .map(|b| (b.broker_id, b.rack))
        .collect())
}

async fn generate(admin: &Admin, a: &Args) -> Result<(), Failure> {
    let text = read(a.topics_to_move_json_file.as_ref().expect("checked"))?;
    let list = a.broker_list.as_deref().expect("checked");
    let wanted: Vec<i32> = list
        .split(',')
        .map(|b| {
            b.trim()
                .parse::<i32>()
                .map_err(|_| Failure::Error(format!("For input string: \"{}\"", b.trim())))
        })
        .collect::<Result<_, _>>()?;
    let dup = duplicates(&wanted);
    if !dup.is_empty() {
        return Err(Failure::Error(format!(
            "Broker list contains duplicate entries: {}",
            java_list(&dup.into_iter().collect::<Vec<_>>())
        )));
    }
    let v = json(&text)?;
    version_of(&v)?;
    let mut topics = Vec::new();
    for t in v
        .get("topics")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
    {
        let name = field(t, "topic")?
            .as_str()
            .ok_or_else(|| Failure::Error("Expected a string for topic".into()))?;
        topics.push(name.to_string());
    }
    let dup = duplicates(&topics);
    if !dup.is_empty() {
        return Err(Failure::Error(format!(
            "List of topics to reassign contains duplicate entries: {}",
            java_list(&dup.into_iter().collect::<Vec<_>>())
        )));
    }
    let current = current_of_topics(admin, &topics.iter().cloned().collect()).await?;
    let live = brokers(admin).await?;
    let rack_aware = !a.disable_rack_aware;
    let chosen: Vec<(i32, Option<String>)> = live
        .into_iter()
        .filter(|(id, _)| wanted.contains(id))
        .map(|(id, rack)| (id, rack.filter(|_| rack_aware)))
        .collect();
    let rackless = chosen.iter().filter(|(_, r)| r.is_none()).count();
    if rack_aware && rackless != 0 && rackless != chosen.len() {
        return Err(Failure::Error(
            "Not all brokers have rack information. Add --disable-rack-aware in command line \
             to make replica assignment without rack information."
                .into(),
        ));
    }
    let seed = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos() as u64);
    let mut proposed = BTreeMap::new();
    for t in &topics {
        let parts: Vec<(&Part, &Vec<i32>)> = current.iter().filter(|(p, _)| &p.0 == t).collect();
        let rf = parts.first().map_or(0, |(_, r)| r.len());
        let n = i32::try_from(parts.len()).unwrap_or(i32::MAX);
        let placed =
            fjord_metadata::placement::place(&chosen, 0, n, rf, seed).ok_or_else(|| {
                Failure::Error(format!(
                    "Replication factor: {rf} larger than available brokers: {}.",
                    chosen.len()
                ))
            })?;
        for (i, replicas) in placed.into_iter().enumerate() {
            proposed.insert((t.clone(), i as i32), replicas);
        }
    }
    println!(
        "Current partition replica assignment\n{}\n",
        plan_json(&current, &BTreeMap::new())
    );
    println!(
        "Proposed partition reassignment configuration\n{}",
        plan_json(&proposed, &BTreeMap::new())
    );
    Ok(())
}

/// Config changes to one resource: (resource type, name, [(key, value or `None` to delete)]).
type ConfigChange<'a> = (i8, String, Vec<(&'a str, Option<String>)>);

/// The same changes to each named resource of type `kind`.
fn on_each<'a>(
    kind: i8,
    names: impl IntoIterator<Item = String>,
    ops: &[(&'a str, Option<String>)],
) -> Vec<ConfigChange<'a>> {
    names.into_iter().map(|n| (kind, n, ops.to_vec())).collect()
}

/// One `partition: why` line per failed partition.
fn error_lines(errors: &BTreeMap<Part, String>) -> String {
    errors
        .iter()
        .map(|(p, m)| format!("{}: {m}", part_text(p)))
        .collect::<Vec<_>>()
        .join("\n")
}

/// "s" unless there is one.
fn plural(n: usize) -> &'static str {
    if n == 1 {
        ""
    } else {
        "s"
    }
}

/// Sets or deletes configs with IncrementalAlterConfigs.
async fn alter_configs(admin: &Admin, changes: Vec<ConfigChange<'_>>) -> Result<(), Failure> {
    if changes.is_empty() {
        return Ok(());
    }
    let resources = changes
        .into_iter()
        .map(|(kind, name, ops)| AlterConfigsResource {
            resource_type: kind,
            resource_name: name,
            configs: ops
                .into_iter()
                .map(|(k, v)| AlterableConfig {
                    name: k.to_string(),
                    config_operation: if v.is_some() { SET } else { DELETE },
                    value: v,
                    ..Default::default()
                })
                .collect(),
            ..Default::default()
        })
        .collect();
    admin.incremental_alter_configs(resources).await?;
    Ok(())
}

/// What moves for one partition: the replicas it copies from and the ones it copies to.
struct Move {
    sources: BTreeSet<i32>,
    destinations: BTreeSet<i32>,
}

/// Kafka's move map: the reassignments under way (sources: replicas less those being added)
/// and the proposed ones (sources: those of a reassignment under way, else the current
/// replicas; destinations: the target less the sources).
fn move_map(
    ongoing: &Ongoing,
    proposed: &BTreeMap<Part, Vec<i32>>,
    current: &BTreeMap<Part, Vec<i32>>,
) -> BTreeMap<Part, Move> {
    let mut moves: BTreeMap<Part, Move> = ongoing
        .iter()
        .map(
            |(
                p,
                Reassignment {
                    replicas, adding, ..
                },
            )| {
                let destinations: BTreeSet<i32> = adding.iter().copied().collect();
                let sources = replicas
                    .iter()
                    .filter(|r| !destinations.contains(r))
                    .copied()
                    .collect();
                (
                    p.clone(),
                    Move {
                        sources,
                        destinations,
                    },
                )
            },
        )
        .collect();
    for (p, target) in proposed {
        let sources: BTreeSet<i32> = match moves.get(p) {
            Some(m) => m.sources.clone(),
            None => current
                .get(p)
                .map(|r| r.iter().copied().collect())
                .unwrap_or_default(),
        };
        let destinations = target
            .iter()
            .filter(|r| !sources.contains(r))
            .copied()
            .collect();
        moves.insert(
            p.clone(),
            Move {
                sources,
                destinations,
            },
        );
    }
    moves
}

/// The topic-level throttles for a move map: per topic, the leader list (every source) and the
/// follower list (every destination), as `partition:broker` lists.
fn topic_throttles(moves: &BTreeMap<Part, Move>) -> BTreeMap<String, (String, String)> {
    let mut out: BTreeMap<String, (BTreeSet<String>, BTreeSet<String>)> = BTreeMap::new();
    for ((topic, p), m) in moves {
        let e = out.entry(topic.clone()).or_default();
        e.0.extend(m.sources.iter().map(|b| format!("{p}:{b}")));
        e.1.extend(m.destinations.iter().map(|b| format!("{p}:{b}")));
    }
    out.into_iter()
        .map(|(t, (l, f))| (t, (joined(l), joined(f))))
        .collect()
}

async fn execute(admin: &Admin, a: &Args) -> Result<(), Failure> {
    let plan = parse_plan(&read(a.reassignment_json_file.as_ref().expect("checked"))?)?;
    if plan.partitions.is_empty() {
        return Err(Failure::Error(
            "Partition reassignment list cannot be empty".into(),
        ));
    }
    if plan.partitions.iter().any(|(_, r)| r.is_empty()) {
        return Err(Failure::Error(
            "Partition replica list cannot be empty".into(),
        ));
    }
    let parts: Vec<Part> = plan.partitions.iter().map(|(p, _)| p.clone()).collect();
    let dup = duplicates(&parts);
    if !dup.is_empty() {
        return Err(Failure::Error(format!(
            "Partition reassignment contains duplicate topic partitions: {}",
            joined(dup.iter().map(part_text))
        )));
    }
    let dup_replicas: Vec<String> = plan
        .partitions
        .iter()
        .filter_map(|(p, r)| {
            let d = duplicates(r);
            (!d.is_empty()).then(|| {
                format!(
                    "{} contains multiple entries for {}",
                    part_text(p),
                    joined(d)
                )
            })
        })
        .collect();
    if !dup_replicas.is_empty() {
        return Err(Failure::Error(format!(
            "Partition replica lists may not contain duplicate entries: {}",
            dup_replicas.join(". ")
        )));
    }
    let proposed: BTreeMap<Part, Vec<i32>> = plan.partitions.iter().cloned().collect();
    let under_way = ongoing(admin, None).await?;
    if !a.additional && !under_way.is_empty() {
        return Err(Failure::Terse(CANNOT_EXECUTE_BECAUSE_OF_EXISTING.into()));
    }
    let live = brokers(admin).await?;
    let named: BTreeSet<i32> = proposed.values().flatten().copied().collect();
    if let Some(unknown) = named.iter().find(|b| !live.contains_key(b)) {
        return Err(Failure::Error(format!("Unknown broker id {unknown}")));
    }
    let current = current_of_parts(admin, &proposed.keys().cloned().collect()).await?;
    println!(
        "Current partition replica assignment\n\n{}\n\nSave this to use as the \
         --reassignment-json-file option during rollback",
        plan_json(&current, &BTreeMap::new())
    );
    let throttle = a.throttle.unwrap_or(-1);
    let dir_throttle = a.replica_alter_log_dirs_throttle.unwrap_or(-1);
    if throttle >= 0 || dir_throttle >= 0 {
        println!("{RUN_VERIFY_PERIODICALLY}");
        if throttle >= 0 {
            let moves = move_map(&under_way, &proposed, &current);
            let topics = topic_throttles(&moves)
                .into_iter()
                .map(|(t, (leader, follower))| {
                    (
                        TOPIC_RESOURCE,
                        t,
                        vec![
                            (TOPIC_THROTTLES[0], Some(leader)),
                            (TOPIC_THROTTLES[1], Some(follower)),
                        ],
                    )
                })
                .collect();
            alter_configs(admin, topics).await?;
            let reassigning: BTreeSet<i32> = moves
                .values()
                .flat_map(|m| m.sources.iter().chain(&m.destinations))
                .copied()
                .collect();
            let rate = Some(throttle.to_string());
            let ops = [
                (BROKER_THROTTLES[0], rate.clone()),
                (BROKER_THROTTLES[1], rate),
            ];
            let names = reassigning.iter().map(i32::to_string);
            alter_configs(admin, on_each(BROKER_RESOURCE, names, &ops)).await?;
            println!("The inter-broker throttle limit was set to {throttle} B/s");
        }
        if dir_throttle >= 0 {
            let moving: BTreeSet<i32> = plan.log_dirs.keys().map(|(_, b)| *b).collect();
            let ops = [(BROKER_THROTTLES[2], Some(dir_throttle.to_string()))];
            let names = moving.iter().map(i32::to_string);
            alter_configs(admin, on_each(BROKER_RESOURCE, names, &ops)).await?;
            println!("The replica-alter-dir throttle limit was set to {dir_throttle} B/s");
        }
    }
    let errors = alter(
        admin,
        &proposed
            .iter()
            .map(|(p, r)| (p.clone(), Some(r.clone())))
            .collect(),
    )
    .await?;
    if !errors.is_empty() {
        return Err(Failure::Terse(format!(
            "Error reassigning partition(s):\n{}",
            error_lines(&errors)
        )));
    }
    println!(
        "Successfully started partition reassignment{} for {}",
        plural(proposed.len()),
        joined(proposed.keys().map(part_text))
    );
    if !plan.log_dirs.is_empty() {
        move_dirs(admin, plan.log_dirs, dir_timeout(a)?).await?;
    }
    Ok(())
}

/// AlterPartitionReassignments (`None`: cancel); the partitions that failed, with why.
async fn alter(
    admin: &Admin,
    changes: &BTreeMap<Part, Option<Vec<i32>>>,
) -> Result<BTreeMap<Part, String>, Failure> {
    Ok(alter_reassignments(admin, changes).await?)
}

/// AlterPartitionReassignments through the controller, retried while retriable: each
/// partition's target replicas (`None`: cancel its reassignment). Returns the partitions
/// refused, with the controller's message.
pub(crate) async fn alter_reassignments(
    admin: &Admin,
    changes: &BTreeMap<(String, i32), Option<Vec<i32>>>,
) -> Result<BTreeMap<(String, i32), String>, AdminError> {
    let mut by_topic: BTreeMap<&str, Vec<ReassignablePartition>> = BTreeMap::new();
    for ((t, p), r) in changes {
        by_topic.entry(t).or_default().push(ReassignablePartition {
            partition_index: *p,
            replicas: r.clone(),
            ..Default::default()
        });
    }
    let body = RequestBody::AlterPartitionReassignments(AlterPartitionReassignmentsRequest {
        timeout_ms: REQUEST_TIMEOUT_MS,
        allow_replication_factor_change: true,
        topics: by_topic
            .into_iter()
            .map(|(t, partitions)| ReassignableTopic {
                name: t.to_string(),
                partitions,
                ..Default::default()
            })
            .collect(),
        ..Default::default()
    });
    let r = admin
        .retry(|| async {
            let r = admin.call_controller(body.clone(), 0..=1).await?;
            let r = expect_response!(r, AlterPartitionReassignments)?;
            AdminError::check(r.error_code, r.error_message.as_deref())?;
            Ok(r)
        })
        .await?;
    let mut errors = BTreeMap::new();
    for t in r.responses {
        for p in t.partitions {
            if let Some(e) = AdminError::from_code(p.error_code, p.error_message.as_deref()) {
                errors.insert((t.name.clone(), p.partition_index), e.server_message());
            }
        }
    }
    Ok(errors)
}

/// Where a replica lives on its broker: (current dir, future dir), `None` when the broker has
/// no such replica.
async fn replica_dirs(
    admin: &Admin,
    broker: i32,
    part: &Part,
) -> Result<Option<(Option<String>, Option<String>)>, Failure> {
    let body = RequestBody::DescribeLogDirs(DescribeLogDirsRequest {
        topics: Some(vec![DescribableLogDirTopic {
            topic: part.0.clone(),
            partitions: vec![part.1],
            ..Default::default()
        }]),
        ..Default::default()
    });
    let r = admin.call_broker(broker, body, 1..=4).await?;
    let r = expect_response!(r, DescribeLogDirs)?;
    let (mut current, mut future) = (None, None);
    for d in r.results.iter().filter(|d| d.error_code == 0) {
        for t in d.topics.iter().filter(|t| t.name == part.0) {
            for p in t.partitions.iter().filter(|p| p.partition_index == part.1) {
                if p.is_future_key {
                    future = Some(d.log_dir.clone());
                } else {
                    current = Some(d.log_dir.clone());
                }
            }
        }
    }
    Ok((current.is_some() || future.is_some()).then_some((current, future)))
}

/// `--timeout`: how long to wait for log directory moves to begin (Kafka's default 10 s).
fn dir_timeout(a: &Args) -> Result<u64, ToolError> {
    crate::common::non_negative("timeout", a.timeout.unwrap_or(10_000))
}

/// Starts the log dir moves `dirs` names (AlterReplicaLogDirs to each broker), retrying the
/// replicas a broker does not have yet (it may be joining them) until `timeout_ms`.
async fn move_dirs(
    admin: &Admin,
    dirs: BTreeMap<(Part, i32), String>,
    timeout_ms: u64,
) -> Result<(), Failure> {
    let deadline = Instant::now() + Duration::from_millis(timeout_ms);
    let mut pending = dirs;
    loop {
        let mut by_broker: BTreeMap<i32, BTreeMap<String, BTreeMap<String, Vec<i32>>>> =
            BTreeMap::new();
        for ((part, broker), dir) in &pending {
            by_broker
                .entry(*broker)
                .or_default()
                .entry(dir.clone())
                .or_default()
                .entry(part.0.clone())
                .or_default()
                .push(part.1);
        }
        let mut started = Vec::new();
        for (broker, dirs) in by_broker {
            let body = RequestBody::AlterReplicaLogDirs(AlterReplicaLogDirsRequest {
                dirs: dirs
                    .into_iter()
                    .map(|(path, topics)| AlterReplicaLogDir {
                        path,
                        topics: topics
                            .into_iter()
                            .map(|(name, partitions)| AlterReplicaLogDirTopic {
                                name,
                                partitions,
                                ..Default::default()
                            })
                            .collect(),
                        ..Default::default()
                    })
                    .collect(),
                ..Default::default()
            });
            let r = admin.call_broker(broker, body, 1..=2).await?;
            let r = expect_response!(r, AlterReplicaLogDirs)?;
            for t in r.results {
                for p in t.partitions {
                    let key = ((t.topic_name.clone(), p.partition_index), broker);
                    match ErrorCode::from_code(p.error_code) {
                        Some(ErrorCode::None) => started.push(key),
                        Some(ErrorCode::ReplicaNotAvailable) => {}
                        _ => {
                            return Err(Failure::Error(format!(
                                "Failed to alter dir for {}-{}: {}",
                                part_text(&key.0),
                                broker,
                                common::error_text(p.error_code, None)
                            )))
                        }
                    }
                }
            }
        }
        started.sort_by_key(|(p, b)| (*b, p.clone()));
        for key in started {
            if let Some(dir) = pending.remove(&key) {
                println!(
                    "Successfully started moving log directory to {dir} for replica {}-{} with \
                     broker {} ",
                    key.0 .0, key.0 .1, key.1
                );
            }
        }
        if pending.is_empty() {
            return Ok(());
        }
        if Instant::now() >= deadline {
            return Err(Failure::Terse(format!(
                "Timed out before log directory move{} could be started for: {}",
                plural(pending.len()),
                joined(pending.keys().map(|(p, b)| format!("{}-{b}", part_text(p))))
            )));
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

/// The state of each log dir move a plan names, as Kafka's tool prints it; whether any is
/// still under way; and the current dir of each one under way (what `--cancel` moves back to).
async fn dir_moves(
    admin: &Admin,
    dirs: &BTreeMap<(Part, i32), String>,
) -> Result<(Vec<String>, bool, BTreeMap<(Part, i32), String>), Failure> {
    let mut lines = Vec::new();
    let mut active = false;
    let mut back = BTreeMap::new();
    let mut keys: Vec<&(Part, i32)> = dirs.keys().collect();
    keys.sort_by_key(|(p, b)| (*b, p.clone()));
    for key in keys {
        let (part, broker) = key;
        let target = &dirs[key];
        let name = format!("{}-{}", part.0, part.1);
        match replica_dirs(admin, *broker, part).await? {
            None => {
                active = true;
                lines.push(format!(
                    "Partition {name} cannot be found in any live log directory on broker \
                     {broker}."
                ));
            }
            Some((None, _)) => {
                active = true;
                lines.push(format!(
                    "Partition {name} is not found in any live log dir on broker {broker}. \
                     There is likely an offline log directory on the broker."
                ));
            }
            Some((Some(current), Some(future))) => {
                active = true;
                back.insert(key.clone(), current);
                if &future == target {
                    lines.push(format!(
                        "Reassignment of replica {name}-{broker} is still in progress."
                    ));
                } else {
                    lines.push(format!(
                        "Partition {name} on broker {broker} is being moved to log dir {future} \
                         instead of {target}."
                    ));
                }
            }
            Some((Some(current), None)) if &current == target => lines.push(format!(
                "Reassignment of replica {name}-{broker} completed successfully."
            )),
            Some((Some(current), None)) => lines.push(format!(
                "Partition {name} on broker {broker} is not being moved from log dir {current} \
                 to {target}."
            )),
        }
    }
    Ok((lines, active, back))
}

/// Removes every reassignment throttle from the live brokers and the plan's brokers, and from
/// the plan's topics, as Kafka's tool does once nothing moves.
async fn clear_throttles(admin: &Admin, plan: &Plan) -> Result<(), Failure> {
    let mut ids: BTreeSet<i32> = brokers(admin).await?.into_keys().collect();
    ids.extend(plan.partitions.iter().flat_map(|(_, r)| r.iter().copied()));
    println!(
        "Clearing broker-level throttles on broker{} {}",
        plural(ids.len()),
        joined(&ids)
    );
    let deletes: Vec<(&str, Option<String>)> =
        BROKER_THROTTLES.iter().map(|k| (*k, None)).collect();
    alter_configs(
        admin,
        on_each(BROKER_RESOURCE, ids.iter().map(i32::to_string), &deletes),
    )
    .await?;
    let topics: BTreeSet<&str> = plan
        .partitions
        .iter()
        .map(|((t, _), _)| t.as_str())
        .collect();
    println!(
        "Clearing topic-level throttles on topic{} {}",
        plural(topics.len()),
        joined(&topics)
    );
    let deletes: Vec<(&str, Option<String>)> = TOPIC_THROTTLES.iter().map(|k| (*k, None)).collect();
    alter_configs(
        admin,
        on_each(
            TOPIC_RESOURCE,
            topics.iter().map(|t| t.to_string()),
            &deletes,
        ),
    )
    .await
}

async fn verify(admin: &Admin, a: &Args) -> Result<(), Failure> {
    let plan = parse_plan(&read(a.reassignment_json_file.as_ref().expect("checked"))?)?;
    let under_way = ongoing(admin, None).await?;
    let settled: BTreeSet<Part> = plan
        .partitions
        .iter()
        .map(|(p, _)| p.clone())
        .filter(|p| !under_way.contains_key(p))
        .collect();
    let topics: BTreeSet<String> = settled.iter().map(|(t, _)| t.clone()).collect();
    let names: Vec<String> = topics.into_iter().collect();
    let cluster = if names.is_empty() {
        None
    } else {
        Some(admin.retry(|| admin.refresh(Some(&names))).await?)
    };
    let mut lines = vec!["Status of partition reassignment:".to_string()];
    let sorted: BTreeMap<&Part, &Vec<i32>> = plan.partitions.iter().map(|(p, r)| (p, r)).collect();
    for (part, target) in sorted {
        let name = part_text(part);
        if under_way.contains_key(part) {
            lines.push(format!(
                "Reassignment of partition {name} is still in progress."
            ));
            continue;
        }
        let current: Vec<i32> = cluster
            .as_ref()
            .and_then(|c| c.topics.get(&part.0))
            .and_then(|t| t.partitions.iter().find(|p| p.partition == part.1))
            .map(|p| p.replicas.clone())
            .unwrap_or_default();
        if &current == target {
            lines.push(format!("Reassignment of partition {name} is completed."));
        } else {
            lines.push(format!(
                "There is no active reassignment of partition {name}, but replica set is {} \
                 rather than {}.",
                joined(&current),
                joined(target)
            ));
        }
    }
    println!("{}", lines.join("\n"));
    let (moves, moving, _) = dir_moves(admin, &plan.log_dirs).await?;
    println!("{}", moves.join("\n"));
    if under_way.is_empty() && !moving && !a.preserve_throttles {
        clear_throttles(admin, &plan).await?;
    }
    Ok(())
}

async fn cancel(admin: &Admin, a: &Args) -> Result<(), Failure> {
    let plan = parse_plan(&read(a.reassignment_json_file.as_ref().expect("checked"))?)?;
    let named: BTreeSet<Part> = plan.partitions.iter().map(|(p, _)| p.clone()).collect();
    let active: BTreeSet<Part> = ongoing(admin, Some(&named)).await?.into_keys().collect();
    if active.is_empty() {
        println!("None of the specified partition reassignments are active.");
    } else {
        let errors = alter(admin, &active.iter().map(|p| (p.clone(), None)).collect()).await?;
        if !errors.is_empty() {
            return Err(Failure::Terse(format!(
                "Error cancelling partition reassignment{} for:\n{}",
                plural(errors.len()),
                error_lines(&errors)
            )));
        }
        println!(
            "Successfully cancelled partition reassignment{} for: {}",
            plural(active.len()),
            joined(active.iter().map(part_text))
        );
    }
    let (_, _, back) = dir_moves(admin, &plan.log_dirs).await?;
    if back.is_empty() {
        println!("None of the specified partition moves are active.");
    } else {
        move_dirs(admin, back, dir_timeout(a)?).await?;
    }
    if !a.preserve_throttles {
        clear_throttles(admin, &plan).await?;
    }
    Ok(())
}

async fn list(admin: &Admin) -> Result<(), Failure> {
    let under_way = ongoing(admin, None).await?;
    if under_way.is_empty() {
        println!("No partition reassignments found.");
        return Ok(());
    }
    println!("Current partition reassignments:");
    for (
        part,
        Reassignment {
            replicas,
            adding,
            removing,
        },
    ) in &under_way
    {
        let mut line = format!("{}: replicas: {}.", part_text(part), joined(replicas));
        if !adding.is_empty() {
            line.push_str(&format!(" adding: {}.", joined(adding)));
        }
        if !removing.is_empty() {
            line.push_str(&format!(" removing: {}.", joined(removing)));
        }
        println!("{line}");
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn part(t: &str, p: i32) -> Part {
        (t.to_string(), p)
    }

    #[test]
    fn plans_read_and_write_as_kafkas_tool_does() {
        let plan = parse_plan(
            r#"{"version":1,"partitions":[{"topic":"foo","partition":0,"replicas":[2,3],
               "log_dirs":["any","/data/b"]},{"topic":"bar","partition":1,"replicas":[1]}]}"#,
        )
        .unwrap_or_else(|_| panic!("parses"));
        assert_eq!(plan.partitions.len(), 2);
        assert_eq!(
            plan.log_dirs.get(&(part("foo", 0), 3)).map(String::as_str),
            Some("/data/b")
        );
        let parts: BTreeMap<Part, Vec<i32>> = plan.partitions.iter().cloned().collect();
        assert_eq!(
            plan_json(&parts, &plan.log_dirs),
            r#"{"version":1,"partitions":[{"topic":"bar","partition":1,"replicas":[1],"log_dirs":["any"]},{"topic":"foo","partition":0,"replicas":[2,3],"log_dirs":["any","/data/b"]}]}"#
        );
        let err = |text: &str| match parse_plan(text) {
            Err(Failure::Error(m)) => m,
            _ => panic!("{text} should fail"),
        };
        assert_eq!(err("{"), "The input string is not a valid JSON");
        assert_eq!(
            err(r#"{"version":2,"partitions":[]}"#),
            "Not supported version field value 2"
        );
        assert!(err(
            r#"{"partitions":[{"topic":"a","partition":0,"replicas":[1,2],"log_dirs":["any"]}]}"#
        )
        .starts_with("Size of replicas list [1, 2] is different from size of log dirs list [any]"));
    }

    #[test]
    fn throttles_name_sources_on_leaders_and_new_replicas_on_followers() {
        // foo-0 moves {1,2} -> {2,3}; foo-1 is already moving {4} -> {5} (adding 5) and is
        // resubmitted as {5,6}: its sources stay those of the move under way.
        let mut ongoing = Ongoing::new();
        ongoing.insert(
            part("foo", 1),
            Reassignment {
                replicas: vec![5, 4],
                adding: vec![5],
                removing: vec![4],
            },
        );
        let proposed: BTreeMap<Part, Vec<i32>> =
            [(part("foo", 0), vec![2, 3]), (part("foo", 1), vec![5, 6])].into();
        let current: BTreeMap<Part, Vec<i32>> =
            [(part("foo", 0), vec![1, 2]), (part("foo", 1), vec![5, 4])].into();
        let moves = move_map(&ongoing, &proposed, &current);
        let t = topic_throttles(&moves);
        assert_eq!(
            t["foo"],
            ("0:1,0:2,1:4".to_string(), "0:3,1:5,1:6".to_string())
        );
    }
}
