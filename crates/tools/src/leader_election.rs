//! `fjord kafka-leader-election` (as `kafka-leader-election.sh`): preferred, unclean and
//! designated elections (ElectLeaders; DESIGNATED is v3, docs/EXTENSIONS.md) for one partition, all
//! partitions, or a JSON file, with Kafka's output lines and exit status. [`elect`] is shared
//! with `kafka-unclean-recovery`.

use crate::common::{self, ToolError};
use clap::Args as ClapArgs;
use fjord_admin::{expect_response, Admin, AdminError};
use fjord_protocol::generated::elect_leaders_request::{ElectLeadersRequest, TopicPartitions};
use fjord_protocol::{ErrorCode, RequestBody};
use std::collections::BTreeMap;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

/// The most partitions one ElectLeaders v3 request acts on (docs/EXTENSIONS.md); the tool sends no
/// more than this per request.
pub const MAX_PARTITIONS_PER_ELECTION: usize = 1000;
/// Kafka's tool timeout: the operation's, with half of it per request.
const TOOL_TIMEOUT: Duration = Duration::from_secs(30);

/// An election type, as the flag and the wire name it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum ElectionType {
    /// The first replica in the assignment, if it is in the ISR.
    Preferred,
    /// Any live replica, in sync or not (data may be lost).
    Unclean,
    /// A replica the operator names, for an offline partition (fjord; docs/EXTENSIONS.md).
    Designated,
}

impl ElectionType {
    fn wire(self) -> i8 {
        match self {
            ElectionType::Preferred => 0,
            ElectionType::Unclean => 1,
            ElectionType::Designated => 2,
        }
    }

    /// The name Kafka prints.
    pub fn name(self) -> &'static str {
        match self {
            ElectionType::Preferred => "PREFERRED",
            ElectionType::Unclean => "UNCLEAN",
            ElectionType::Designated => "DESIGNATED",
        }
    }
}

/// `kafka-leader-election` arguments.
#[derive(Debug, ClapArgs)]
pub struct Args {
    #[command(flatten)]
    connection: crate::common::BrokerConnection,
    /// (DEPRECATED) Configuration properties file to pass to the admin client. Use
    /// --command-config instead.
    #[arg(long = "admin.config")]
    admin_config: Option<PathBuf>,
    /// The JSON file with the partitions to elect: {"partitions": [{"topic": "foo",
    /// "partition": 1}]}; for designated elections each entry also has "designatedLeader".
    #[arg(long)]
    path_to_json_file: Option<PathBuf>,
    /// Name of topic for which to perform an election.
    #[arg(long)]
    topic: Option<String>,
    /// Partition id for which to perform an election. REQUIRED if --topic is specified.
    #[arg(long)]
    partition: Option<i32>,
    /// With --election-type designated and --topic: the broker to make leader.
    #[arg(long)]
    designated_leader: Option<i32>,
    /// Perform election on all of the eligible topic partitions (not for designated).
    #[arg(long)]
    all_topic_partitions: bool,
    /// Type of election to attempt: preferred, unclean, or designated (an offline partition's
    /// leader named by the operator). REQUIRED.
    #[arg(long, value_enum, ignore_case = true)]
    election_type: Option<ElectionType>,
}

/// A partition to elect, with the designated leader for DESIGNATED.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct Target {
    /// The topic.
    pub topic: String,
    /// The partition.
    pub partition: i32,
    /// The broker to make leader (designated elections only).
    pub designated_leader: Option<i32>,
}

/// Runs the tool.
pub fn run(args: &Args) -> ExitCode {
    common::run::<Args, _>("kafka-leader-election", run_async(args))
}

fn validate(a: &Args) -> Result<ElectionType, ToolError> {
    let mut missing = Vec::new();
    if a.connection.bootstrap_server.is_none() {
        missing.push("bootstrap-server");
    }
    if a.election_type.is_none() {
        missing.push("election-type");
    }
    if !missing.is_empty() {
        return Err(ToolError::Usage(format!(
            "Missing required option(s): {}",
            missing.join(", ")
        )));
    }
    if a.admin_config.is_some() && a.connection.command_config.is_some() {
        return Err(ToolError::Usage(
            "Option \"[admin.config]\" can't be used with option \"[command-config]\"".into(),
        ));
    }
    common::exactly_one(&[
        (a.topic.is_some(), "topic"),
        (a.all_topic_partitions, "all-topic-partitions"),
        (a.path_to_json_file.is_some(), "path-to-json-file"),
    ])?;
    if a.topic.is_some() && a.partition.is_none() {
        return Err(ToolError::Usage(
            "Missing required option(s): partition".into(),
        ));
    }
    if a.topic.is_none() && a.partition.is_some() {
        return Err(ToolError::Usage(
            "Option partition is only allowed if topic is used".into(),
        ));
    }
    let kind = a.election_type.unwrap_or(ElectionType::Preferred);
    if kind == ElectionType::Designated {
        if a.all_topic_partitions {
            return Err(ToolError::Usage(
                "--all-topic-partitions cannot be used with --election-type designated: name each partition's leader".into(),
            ));
        }
        if a.topic.is_some() && a.designated_leader.is_none() {
            return Err(ToolError::Usage(
                "Missing required option(s): designated-leader".into(),
            ));
        }
    } else if a.designated_leader.is_some() {
        return Err(ToolError::Usage(
            "Option designated-leader is only allowed with --election-type designated".into(),
        ));
    }
    Ok(kind)
}

/// Reads Kafka's election JSON; with `designated`, every entry needs `designatedLeader`.
pub fn parse_json(
    text: &str,
    designated: bool,
) -> Result<Vec<Target>, crate::common::InvalidArgument> {
    parse_json_text(text, designated).map_err(crate::common::InvalidArgument)
}

fn parse_json_text(text: &str, designated: bool) -> Result<Vec<Target>, String> {
    let v: serde_json::Value =
        serde_json::from_str(text).map_err(|e| format!("Invalid JSON: {e}"))?;
    let list = v
        .get("partitions")
        .ok_or("Replica election data is missing \"partitions\" field")?
        .as_array()
        .ok_or("\"partitions\" is not an array")?;
    let mut out = Vec::new();
    for (i, p) in list.iter().enumerate() {
        let topic = p
            .get("topic")
            .and_then(|t| t.as_str())
            .ok_or(format!("partitions[{i}]: missing string field \"topic\""))?;
        let partition = p
            .get("partition")
            .and_then(|t| t.as_i64())
            .and_then(|n| i32::try_from(n).ok())
            .ok_or(format!(
                "partitions[{i}]: missing integer field \"partition\""
            ))?;
        let leader = match p.get("designatedLeader") {
            None | Some(serde_json::Value::Null) => None,
            Some(l) => Some(
                l.as_i64()
                    .and_then(|n| i32::try_from(n).ok())
                    .ok_or(format!(
                        "partitions[{i}]: \"designatedLeader\" is not a broker id"
                    ))?,
            ),
        };
        if designated && leader.is_none() {
            return Err(format!(
                "partitions[{i}] ({topic}-{partition}): a designated election needs \"designatedLeader\""
            ));
        }
        out.push(Target {
            topic: topic.to_string(),
            partition,
            designated_leader: if designated { leader } else { None },
        });
    }
    let mut seen = BTreeMap::new();
    let dups: Vec<String> = out
        .iter()
        .filter(|t| {
            *seen
                .entry((t.topic.clone(), t.partition))
                .and_modify(|n| *n += 1)
                .or_insert(1)
                == 2
        })
        .map(|t| format!("{}-{}", t.topic, t.partition))
        .collect();
    if !dups.is_empty() {
        return Err(format!(
            "Replica election data contains duplicate partitions: {}",
            dups.join(",")
        ));
    }
    Ok(out)
}

async fn run_async(a: &Args) -> Result<(), ToolError> {
    let kind = validate(a)?;
    let targets = match (&a.path_to_json_file, &a.topic) {
        (Some(path), _) => {
            let text = std::fs::read_to_string(path)
                .map_err(|e| ToolError::Failed(format!("{}: {e}", path.display())))?;
            Some(
                parse_json(&text, kind == ElectionType::Designated)
                    .map_err(|e| ToolError::Failed(e.0))?,
            )
        }
        (None, Some(topic)) => Some(vec![Target {
            topic: topic.clone(),
            partition: a.partition.unwrap_or_default(),
            designated_leader: a.designated_leader,
        }]),
        (None, None) => None,
    };
    let config_path = a
        .connection
        .command_config
        .as_deref()
        .or(a.admin_config.as_deref());
    if a.admin_config.is_some() {
        println!("Option --admin.config has been deprecated and will be removed in a future version. Use --command-config instead.");
    }
    let (mut config, warnings) = fjord_admin::AdminConfig::from_args(
        a.connection.bootstrap_server.as_deref(),
        None,
        config_path,
    )?;
    warnings.iter().for_each(|w| eprintln!("WARN {w}"));
    // Kafka's tool: 30 s in all and 15 s per request unless the file says otherwise.
    if !config.explicit.contains("default.api.timeout.ms") {
        config.api_timeout = TOOL_TIMEOUT;
    }
    if !config.explicit.contains("request.timeout.ms") {
        config.request_timeout = TOOL_TIMEOUT / 2;
    }
    let admin = Admin::new(config);
    let outcome = match (kind, targets.as_deref()) {
        // A designated plan (kafka-unclean-recovery's) is applied on an Apache Kafka cluster
        // too, by Kafka's own steps (reorder, UNCLEAN, check, put back).
        (ElectionType::Designated, Some(plan)) => {
            crate::unclean_recovery::elect::elect(&admin, plan)
                .await
                .map(|e| {
                    for l in e.lines {
                        println!("{l}");
                    }
                    e.results
                })
        }
        _ => elect(&admin, kind, targets.as_deref()).await,
    };
    let results = match outcome {
        Ok(r) => r,
        Err(e) if matches!(e, AdminError::Deadline { .. } | AdminError::Call(_)) => {
            println!("Timeout waiting for election results");
            return Err(ToolError::Failed(format!(
                "Timeout waiting for election results: {e}"
            )));
        }
        Err(e) if e.code() == Some(ErrorCode::ClusterAuthorizationFailed) => {
            println!("Not authorized to perform leader election");
            return Err(ToolError::Failed(
                "Not authorized to perform leader election".into(),
            ));
        }
        Err(e) => return Err(ToolError::Failed(e.to_string())),
    };
    let failed = print_results(kind, &results);
    if failed > 0 {
        return Err(ToolError::Failed(format!(
            "{failed} replica(s) could not be elected"
        )));
    }
    Ok(())
}

/// Prints Kafka's three lines (succeeded, already elected, one per failure); returns how many
/// failed.
pub fn print_results(
    kind: ElectionType,
    results: &BTreeMap<(String, i32), ElectionOutcome>,
) -> usize {
    let names = |want: fn(&ElectionOutcome) -> bool| -> Vec<String> {
        results
            .iter()
            .filter(|(_, r)| want(r))
            .map(|((t, p), _)| format!("{t}-{p}"))
            .collect()
    };
    let ok = names(|r| matches!(r, ElectionOutcome::Elected));
    if !ok.is_empty() {
        println!(
            "Successfully completed leader election ({}) for partitions {}",
            kind.name(),
            ok.join(", ")
        );
    }
    let noop = names(|r| matches!(r, ElectionOutcome::NotNeeded));
    if !noop.is_empty() {
        println!(
            "Valid replica already elected for partitions {}",
            noop.join(", ")
        );
    }
    let mut failed = 0;
    for ((t, p), r) in results {
        if let ElectionOutcome::Failed(e) = r {
            failed += 1;
            println!(
                "Error completing leader election ({}) for partition: {t}-{p}: {e}",
                kind.name()
            );
        }
    }
    failed
}

/// What an election did for one partition.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ElectionOutcome {
    /// A leader was elected.
    Elected,
    /// ELECTION_NOT_NEEDED: a valid leader was already there.
    NotNeeded,
    /// Any other error, as "NAME: message".
    Failed(String),
}

/// Sends ElectLeaders for `targets` (all partitions when `None`) to the controller: at most
/// [`MAX_PARTITIONS_PER_ELECTION`] per request, resending what got REQUEST_LIMIT_REACHED, each
/// request retried while its failure is retriable. DESIGNATED needs v3.
pub async fn elect(
    admin: &Admin,
    kind: ElectionType,
    targets: Option<&[Target]>,
) -> Result<BTreeMap<(String, i32), ElectionOutcome>, AdminError> {
    let timeout_ms = admin.config().request_timeout.as_millis() as i32;
    let min_version = if kind == ElectionType::Designated {
        3
    } else {
        0
    };
    let mut results = BTreeMap::new();
    let Some(targets) = targets else {
        let r = send_election(admin, kind, None, timeout_ms, min_version).await?;
        collect(&r, &mut results, &mut Vec::new(), &[]);
        return Ok(results);
    };
    let mut queue: Vec<Target> = targets.to_vec();
    while !queue.is_empty() {
        let rest = queue.split_off(queue.len().min(MAX_PARTITIONS_PER_ELECTION));
        let batch = std::mem::replace(&mut queue, rest);
        let mut by_topic: BTreeMap<&str, (Vec<i32>, Vec<i32>)> = BTreeMap::new();
        for t in &batch {
            let e = by_topic.entry(&t.topic).or_default();
            e.0.push(t.partition);
            e.1.push(t.designated_leader.unwrap_or(-1));
        }
        let topic_partitions: Vec<TopicPartitions> = by_topic
            .into_iter()
            .map(|(topic, (partitions, leaders))| TopicPartitions {
                topic: topic.to_string(),
                partitions,
                // The spec's default (an empty list) for other elections: a null list cannot
                // be written below v3, so a v2 server (Apache Kafka) could not be asked.
                designated_leaders: Some(if kind == ElectionType::Designated {
                    leaders
                } else {
                    Vec::new()
                }),
                ..Default::default()
            })
            .collect();
        let r = send_election(admin, kind, Some(topic_partitions), timeout_ms, min_version).await?;
        let mut resend = Vec::new();
        collect(&r, &mut results, &mut resend, &batch);
        if resend.len() == batch.len() {
            return Err(AdminError::Protocol(
                "the controller acted on none of the partitions sent (REQUEST_LIMIT_REACHED for all)".into(),
            ));
        }
        queue.extend(resend);
    }
    Ok(results)
}

async fn send_election(
    admin: &Admin,
    kind: ElectionType,
    topic_partitions: Option<Vec<TopicPartitions>>,
    timeout_ms: i32,
    min_version: i16,
) -> Result<fjord_protocol::generated::elect_leaders_response::ElectLeadersResponse, AdminError> {
    admin
        .retry(|| async {
            let r = admin
                .call_controller(
                    RequestBody::ElectLeaders(ElectLeadersRequest {
                        election_type: kind.wire(),
                        topic_partitions: topic_partitions.clone(),
                        timeout_ms,
                        ..Default::default()
                    }),
                    min_version.max(if kind == ElectionType::Preferred {
                        0
                    } else {
                        1
                    })..=3,
                )
                .await?;
            let r = expect_response!(r, ElectLeaders)?;
            AdminError::check(r.error_code, None).map(|()| r)
        })
        .await
}

/// Folds one answer into `results`; partitions refused with REQUEST_LIMIT_REACHED go to
/// `resend` (found in `sent`, to keep their designated leader).
fn collect(
    r: &fjord_protocol::generated::elect_leaders_response::ElectLeadersResponse,
    results: &mut BTreeMap<(String, i32), ElectionOutcome>,
    resend: &mut Vec<Target>,
    sent: &[Target],
) {
    for t in &r.replica_election_results {
        for p in &t.partition_result {
            let outcome = match ErrorCode::from_code(p.error_code) {
                Some(ErrorCode::None) => ElectionOutcome::Elected,
                Some(ErrorCode::ElectionNotNeeded) => ElectionOutcome::NotNeeded,
                Some(ErrorCode::RequestLimitReached) => {
                    if let Some(s) = sent
                        .iter()
                        .find(|s| s.topic == t.topic && s.partition == p.partition_id)
                    {
                        resend.push(s.clone());
                        continue;
                    }
                    ElectionOutcome::Failed(common::error_text(
                        p.error_code,
                        p.error_message.as_deref(),
                    ))
                }
                _ => ElectionOutcome::Failed(common::error_text(
                    p.error_code,
                    p.error_message.as_deref(),
                )),
            };
            results.insert((t.topic.clone(), p.partition_id), outcome);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn json_files_are_read_as_kafka_writes_them() {
        let t = parse_json(
            r#"{"partitions":[{"topic":"a","partition":1},{"topic":"b","partition":0}]}"#,
            false,
        )
        .unwrap();
        assert_eq!(t.len(), 2);
        assert!(parse_json(r#"{"partitions":[{"topic":"a","partition":1}]}"#, true).is_err());
        let d = parse_json(
            r#"{"partitions":[{"topic":"a","partition":1,"designatedLeader":3}]}"#,
            true,
        )
        .unwrap();
        assert_eq!(d[0].designated_leader, Some(3));
        let e = parse_json(
            r#"{"partitions":[{"topic":"a","partition":1},{"topic":"a","partition":1}]}"#,
            false,
        )
        .unwrap_err();
        assert!(e.contains("duplicate partitions: a-1"), "{e}");
        assert!(parse_json(r#"{"x":[]}"#, false).is_err());
    }
}
