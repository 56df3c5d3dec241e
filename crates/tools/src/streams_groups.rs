//! `fjord kafka-streams-groups` (as Kafka 4.4's `kafka-streams-groups.sh`): list streams
//! groups, describe one (input offsets and lag, members and their tasks, state, or the
//! topology description), reset its input offsets, delete it (with its internal topics) or
//! its offsets of some input topics, with Kafka's flags, tables and messages.

use crate::common::{self, BrokerConnection, ToolError};
use crate::group_command::{
    delete_group, list_typed, new_offsets, offsets_file, scenario_with_shifts, topic_spec,
    typed_groups, Offsets, ResetOptions, Scenario,
};
use clap::Args as ClapArgs;
use fjord_admin::{expect_response, Admin, AdminError, EARLIEST, LATEST};
use fjord_protocol::generated::{
    delete_topics_request::DeleteTopicsRequest,
    offset_delete_request::{
        OffsetDeleteRequest, OffsetDeleteRequestPartition, OffsetDeleteRequestTopic,
    },
    offset_fetch_request::OffsetFetchRequest,
    streams_group_describe_request::StreamsGroupDescribeRequest,
    streams_group_describe_response::{Assignment, DescribedGroup, TaskIds, TopologyDescription},
};
use fjord_protocol::{ErrorCode, RequestBody};
use std::collections::{BTreeMap, BTreeSet};
use std::process::ExitCode;

/// `kafka-streams-groups` arguments.
#[derive(Debug, ClapArgs)]
pub struct Args {
    /// The cluster to reach.
    #[command(flatten)]
    connection: BrokerConnection,
    /// List all streams groups.
    #[arg(long)]
    list: bool,
    /// Describe streams group(s): input offsets and lag, members, state or topology.
    #[arg(long)]
    describe: bool,
    /// Delete streams group(s) (they must be empty).
    #[arg(long)]
    delete: bool,
    /// Delete a streams group's offsets of some input topics.
    #[arg(long)]
    delete_offsets: bool,
    /// Reset a streams group's input offsets (the instances must be stopped).
    #[arg(long)]
    reset_offsets: bool,
    /// The streams group(s) (the application id).
    #[arg(long = "group")]
    groups: Vec<String>,
    /// Apply to all streams groups.
    #[arg(long)]
    all_groups: bool,
    /// An input topic (reset-offsets and delete-offsets); `topic:0,1` for some partitions.
    #[arg(long = "input-topic")]
    input_topics: Vec<String>,
    /// All input topics of the group's topology (reset-offsets and delete-offsets).
    #[arg(long)]
    all_input_topics: bool,
    /// Describe the members and their tasks.
    #[arg(long)]
    members: bool,
    /// Describe the input offsets and lag (the default).
    #[arg(long)]
    offsets: bool,
    /// Describe the topology as the broker's topology description plugin recorded it.
    #[arg(long)]
    topology: bool,
    /// With --describe, the group's state; with --list, every group's state (or only groups in
    /// these states, comma-separated).
    #[arg(long, num_args = 0..=1, default_missing_value = "")]
    state: Option<String>,
    /// Show more columns (epochs, target assignments, current offsets).
    #[arg(long)]
    verbose: bool,
    /// How offsets are reset.
    #[command(flatten)]
    reset: ResetOptions,
    /// Reset by shifting the current offset by this many (negative: back).
    #[arg(long, allow_hyphen_values = true)]
    shift_by: Option<i64>,
    /// Reset to the offsets of this long ago, 'PnDTnHnMnS'.
    #[arg(long)]
    by_duration: Option<String>,
    /// With reset-offsets --execute: delete this internal topic of the group.
    #[arg(long = "delete-internal-topic")]
    delete_internal_topics: Vec<String>,
    /// Delete the group's internal topics (with delete, or reset-offsets --execute).
    #[arg(long)]
    delete_all_internal_topics: bool,
    /// The timeout of the tool's calls to the cluster, in ms.
    #[arg(long, default_value_t = 30_000)]
    timeout: i64,
}

/// Runs the tool.
pub fn run(args: &Args) -> ExitCode {
    common::run::<Args, _>("kafka-streams-groups", run_async(args))
}

/// The states a streams group may be in, in Kafka's order.
const STREAMS_STATES: &[&str] = &[
    "Empty",
    "NotReady",
    "Stable",
    "Assigning",
    "Reconciling",
    "Dead",
];

/// StreamsGroupDescribe's TopologyDescriptionStatus values (Kafka's names, by number).
const TOPOLOGY_STATUSES: [&str; 4] = ["NOT_REQUESTED", "NOT_STORED", "ERROR", "AVAILABLE"];

/// Kafka's prefix of a failed command, on stdout.
const FAILED: &str = "Executing streams group command failed due to";

/// Kafka's argument checks, in its order.
fn check_args(a: &Args) -> Result<(), ToolError> {
    let usage = |m: String| Err(ToolError::Usage(m));
    if a.connection.bootstrap_server.is_none() {
        return usage("Missing required argument \"[bootstrap-server]\"".into());
    }
    let scope = a.groups.is_empty() && !a.all_groups;
    if a.describe {
        if scope {
            return usage(
                "Option [describe] takes one of these options: [all-groups], [group]".into(),
            );
        }
        let shown = [a.members, a.offsets, a.state.is_some(), a.topology];
        if shown.iter().filter(|x| **x).count() > 1 {
            return usage("Option [describe] takes at most one of these options: [members], [offsets], [state], [topology]".into());
        }
        if a.state.as_deref().is_some_and(|s| !s.is_empty()) {
            return usage("Option [describe] does not take a value for [state]".into());
        }
    }
    if a.delete {
        if scope {
            return usage(
                "Option [delete] takes one of these options: [all-groups], [group]".into(),
            );
        }
        if !a.input_topics.is_empty() || a.all_input_topics {
            return usage(
                "Kafka Streams does not support topic-specific offset deletion from a streams group."
                    .into(),
            );
        }
    }
    if a.delete_offsets {
        if (a.input_topics.is_empty() && !a.all_input_topics) || a.groups.is_empty() {
            return usage("Option [delete-offsets] takes the [group] and one of these options: [all-input-topics], [input-topic]".into());
        }
        if a.groups.len() > 1 {
            return usage(format!(
                "Option [delete-offsets] supports only one [group] at a time, but found: [{}]",
                a.groups.join(", ")
            ));
        }
    }
    if a.reset_offsets {
        let r = &a.reset;
        if r.dry_run && r.execute {
            return usage(
                "Option [reset-offsets] only accepts one of [execute] and [dry-run]".into(),
            );
        }
        if !r.dry_run && !r.execute {
            return usage("Option [reset-offsets] takes the option: [execute] or [dry-run]".into());
        }
        if scope {
            return usage(
                "Option [reset-offsets] takes one of these options: [all-groups], [group]".into(),
            );
        }
        scenario(a)?;
    }
    if a.delete_all_internal_topics {
        if !a.reset_offsets && !a.delete {
            return usage("Option [delete-all-internal-topics] takes one of these options: [delete], [reset-offsets]".into());
        }
        if a.reset_offsets && !a.reset.execute {
            return usage(
                "Option [delete-all-internal-topics] takes [execute] when [reset-offsets] is used."
                    .into(),
            );
        }
    } else if !(a.delete_internal_topics.is_empty() || a.reset_offsets && a.reset.execute) {
        return usage(
            "Option [delete-internal-topic] takes [reset-offsets] when [execute] is used.".into(),
        );
    }
    if (a.reset.dry_run || a.reset.execute) && !a.reset_offsets {
        return usage("Only Option [reset-offsets] accepts [execute] or [dry-run]".into());
    }
    if a.list && (a.members || a.offsets || a.topology) {
        return usage("Option \"[list]\" can't be used with option \"[members]\"".into());
    }
    if !a.input_topics.is_empty() && (a.list || a.describe || a.delete) {
        return usage("Option \"[input-topic]\" can't be used with option \"[describe]\"".into());
    }
    Ok(())
}

/// The one reset scenario asked for (Kafka's refusal of none or two).
fn scenario(a: &Args) -> Result<Scenario, ToolError> {
    scenario_with_shifts(&a.reset, a.shift_by, a.by_duration.as_deref())
}

async fn run_async(a: &Args) -> Result<(), ToolError> {
    check_args(a)?;
    let actions = [
        a.list,
        a.describe,
        a.reset_offsets,
        a.delete,
        a.delete_offsets,
    ];
    if actions.iter().filter(|x| **x).count() != 1 {
        return Err(ToolError::Usage(
            "Command must include exactly one action: --list, --describe, --delete, --reset-offsets, or --delete-offsets.".into(),
        ));
    }
    let admin = a.connection.admin()?;
    let mut config = admin.config().clone();
    config.api_timeout = std::time::Duration::from_millis(a.timeout.max(0) as u64);
    let admin = Admin::new(config);
    if a.list {
        return list(&admin, a).await;
    }
    let groups: Vec<String> = if a.all_groups {
        typed_groups(&admin, "streams", &[])
            .await?
            .into_iter()
            .map(|(g, _)| g)
            .collect()
    } else {
        a.groups.clone()
    };
    let outcome = if a.describe {
        describe(&admin, a, &groups).await
    } else if a.reset_offsets {
        reset(&admin, a, &groups).await
    } else if a.delete {
        delete(&admin, a, &groups).await
    } else {
        delete_offsets(&admin, a, &groups[0]).await
    };
    // As Kafka's tool: a failure on stdout after "Error: ", exit code 1.
    outcome.map_err(|e| match e {
        Failure::Usage(m) => ToolError::Usage(m),
        Failure::Admin(e) => {
            ToolError::FailedStdout(format!("\nError: {FAILED} {}", exception(&e)))
        }
        Failure::Quiet => ToolError::FailedStdout(String::new()),
    })
}

/// Why an action failed.
enum Failure {
    /// A usage error Kafka's tool finds only while running.
    Usage(String),
    /// A failed call, printed as Kafka prints its exception.
    Admin(AdminError),
    /// Already printed; exit code 1.
    Quiet,
}

impl From<AdminError> for Failure {
    fn from(e: AdminError) -> Failure {
        Failure::Admin(e)
    }
}

impl From<ToolError> for Failure {
    fn from(e: ToolError) -> Failure {
        match e {
            ToolError::Usage(m) => Failure::Usage(m),
            ToolError::Failed(m) | ToolError::FailedStdout(m) => {
                println!("\nError: {FAILED} {m}");
                Failure::Quiet
            }
        }
    }
}

/// A Kafka exception as Kafka's tools print it (`org.apache.kafka.common.errors.X: message`).
fn exception(e: &AdminError) -> String {
    let class = match e.code() {
        Some(ErrorCode::GroupIdNotFound) => "GroupIdNotFoundException",
        Some(ErrorCode::NonEmptyGroup) => "GroupNotEmptyException",
        Some(ErrorCode::GroupAuthorizationFailed) => "GroupAuthorizationException",
        Some(ErrorCode::UnknownTopicOrPartition) => "UnknownTopicOrPartitionException",
        Some(ErrorCode::TopicAuthorizationFailed) => "TopicAuthorizationException",
        Some(ErrorCode::InvalidGroupId) => "InvalidGroupIdException",
        Some(ErrorCode::GroupSubscribedToTopic) => "GroupSubscribedToTopicException",
        _ => return e.to_string(),
    };
    format!(
        "org.apache.kafka.common.errors.{class}: {}",
        e.server_message()
    )
}

async fn list(admin: &Admin, a: &Args) -> Result<(), ToolError> {
    list_typed(admin, "streams", STREAMS_STATES, a.state.as_deref()).await
}

/// The group as its coordinator describes it, with the coordinator as Kafka's tool prints it
/// ("host:port (id)").
async fn describe_group(
    admin: &Admin,
    group: &str,
    topology: bool,
) -> Result<(String, DescribedGroup), AdminError> {
    admin
        .retry(|| async {
            let (id, at) = admin.group_coordinator_node(group).await?;
            let r = admin
                .call_at(
                    &at,
                    RequestBody::StreamsGroupDescribe(StreamsGroupDescribeRequest {
                        group_ids: vec![group.to_string()],
                        include_topology_description: topology,
                        ..Default::default()
                    }),
                    if topology { 1..=1 } else { 0..=1 },
                )
                .await?;
            let mut r = expect_response!(r, StreamsGroupDescribe)?;
            let g = r
                .groups
                .pop()
                .ok_or_else(|| AdminError::Protocol("no group in the answer".into()))?;
            AdminError::check(g.error_code, g.error_message.as_deref())?;
            if g.topology.is_none() {
                return Err(AdminError::Protocol(
                    "Topology information is missing".into(),
                ));
            }
            Ok((format!("{at} ({id})"), g))
        })
        .await
}

/// The group's subtopologies: (source topics, repartition source topics) of each id.
fn topics_of(d: &DescribedGroup) -> BTreeMap<String, (Vec<String>, Vec<String>)> {
    let subs = d.topology.as_ref().and_then(|t| t.subtopologies.as_ref());
    subs.into_iter()
        .flatten()
        .map(|s| {
            let repartition = s.repartition_source_topics.iter().map(|t| t.name.clone());
            (
                s.subtopology_id.clone(),
                (s.source_topics.clone(), repartition.collect()),
            )
        })
        .collect()
}

/// The group's committed offsets with their leader epochs (None when not recorded), of the
/// topics `keep` accepts.
async fn committed(
    admin: &Admin,
    group: &str,
    keep: impl Fn(&str) -> bool,
) -> Result<BTreeMap<(String, i32), (i64, Option<i32>)>, AdminError> {
    let r = admin
        .retry(|| async {
            let r = admin
                .call_group(
                    group,
                    RequestBody::OffsetFetch(OffsetFetchRequest {
                        group_id: group.to_string(),
                        topics: None,
                        ..Default::default()
                    }),
                    5..=7,
                )
                .await?;
            let r = expect_response!(r, OffsetFetch)?;
            AdminError::check(r.error_code, None).map(|()| r)
        })
        .await?;
    let mut out = BTreeMap::new();
    for t in r.topics.iter().filter(|t| keep(&t.name)) {
        for p in &t.partitions {
            if p.error_code == 0 && p.committed_offset >= 0 {
                let epoch = (p.committed_leader_epoch >= 0).then_some(p.committed_leader_epoch);
                out.insert(
                    (t.name.clone(), p.partition_index),
                    (p.committed_offset, epoch),
                );
            }
        }
    }
    Ok(out)
}

/// The source topics of a group (with `repartition`, its repartition source topics too).
fn input_topics(d: &DescribedGroup, repartition: bool) -> BTreeSet<String> {
    topics_of(d)
        .into_values()
        .flat_map(|(s, r)| s.into_iter().chain(r.into_iter().filter(|_| repartition)))
        .collect()
}

/// The text of some tasks of one kind: `KIND: 0:[0,1]; 1:[2]; ` (empty when none).
fn tasks_text(kind: &str, tasks: &[TaskIds]) -> String {
    if tasks.is_empty() {
        return String::new();
    }
    let mut s = format!("{kind}: ");
    for t in tasks {
        let parts: Vec<String> = t.partitions.iter().map(|p| p.to_string()).collect();
        s.push_str(&format!("{}:[{}]; ", t.subtopology_id, parts.join(",")));
    }
    s
}

/// A member's assignment as Kafka's tool prints it (with the target after it when given).
fn assignment_text(current: &Assignment, target: Option<&Assignment>) -> String {
    let mut s = tasks_text("ACTIVE", &current.active_tasks)
        + &tasks_text("STANDBY", &current.standby_tasks)
        + &tasks_text("WARMUP", &current.warmup_tasks);
    if let Some(t) = target {
        s += &tasks_text("TARGET-ACTIVE", &t.active_tasks);
        s += &tasks_text("TARGET-STANDBY", &t.standby_tasks);
        s += &tasks_text("TARGET-WARMUP", &t.warmup_tasks);
    }
    s
}

/// Kafka's note for an empty or missing group.
fn empty_group_note(group: &str, state: &str) {
    match state {
        "Dead" => println!("\nError: Streams group '{group}' does not exist."),
        "Empty" => println!("\nError: Streams group '{group}' has no active members."),
        _ => {}
    }
}

/// `--describe --members`.
fn print_members(d: &DescribedGroup, verbose: bool) {
    if d.group_state == "Dead" || d.members.is_empty() {
        return;
    }
    empty_group_note(&d.group_id, &d.group_state);
    let g = d.group_id.len().max(15);
    let widest =
        |f: fn(&fjord_protocol::generated::streams_group_describe_response::Member) -> usize| {
            d.members.iter().map(f).max().unwrap_or(0).max(15)
        };
    let m = widest(|x| x.member_id.len());
    let h = widest(|x| x.process_id.len());
    let c = widest(|x| x.client_id.len());
    if !verbose {
        println!(
            "{:<g$} {:<m$} {:<h$} {:<c$} ASSIGNMENTS",
            "GROUP", "MEMBER", "PROCESS", "CLIENT-ID"
        );
        for x in &d.members {
            println!(
                "{:<g$} {:<m$} {:<h$} {:<c$} {}",
                d.group_id,
                x.member_id,
                x.process_id,
                x.client_id,
                assignment_text(&x.assignment, None)
            );
        }
        return;
    }
    let topology_epoch = d.topology.as_ref().map_or(-1, |t| t.epoch);
    println!(
        "{:<g$} {:<25} {:<15}{:<m$} {:<15} {:<15} {:<h$} {:<c$} ASSIGNMENTS",
        "GROUP",
        "TARGET-ASSIGNMENT-EPOCH",
        "TOPOLOGY-EPOCH",
        "MEMBER",
        "MEMBER-PROTOCOL",
        "MEMBER-EPOCH",
        "PROCESS",
        "CLIENT-ID"
    );
    for x in &d.members {
        println!(
            "{:<g$} {:<25} {:<15}{:<m$} {:<15} {:<15} {:<h$} {:<c$} {}",
            d.group_id,
            d.assignment_epoch,
            topology_epoch,
            x.member_id,
            if x.is_classic { "classic" } else { "streams" },
            x.member_epoch,
            x.process_id,
            x.client_id,
            assignment_text(&x.assignment, Some(&x.target_assignment))
        );
    }
}

/// `--describe --state`.
fn print_state(d: &DescribedGroup, coordinator: &str, verbose: bool) {
    empty_group_note(&d.group_id, &d.group_state);
    let g = d.group_id.len().max(15);
    let c = coordinator.len().max(25);
    let assignor = d.assignor_name.clone().unwrap_or_default();
    let s = assignor.len().max(15);
    if !verbose {
        println!(
            "{:<g$} {:<c$} {:<s$} {:<25} #MEMBERS",
            "GROUP", "COORDINATOR (ID)", "ASSIGNOR", "STATE"
        );
        println!(
            "{:<g$} {:<c$} {:<s$} {:<25} {}",
            d.group_id,
            coordinator,
            assignor,
            d.group_state,
            d.members.len()
        );
        return;
    }
    println!(
        "{:<g$} {:<c$} {:<s$} {:<25} {:<15} {:<25} #MEMBERS",
        "GROUP", "COORDINATOR (ID)", "ASSIGNOR", "STATE", "GROUP-EPOCH", "TARGET-ASSIGNMENT-EPOCH"
    );
    println!(
        "{:<g$} {:<c$} {:<s$} {:<25} {:<15} {:<25} {}",
        d.group_id,
        coordinator,
        assignor,
        d.group_state,
        d.group_epoch,
        d.assignment_epoch,
        d.members.len()
    );
}

/// `--describe` (`--offsets`): each input partition of the members' active tasks with its
/// committed offset, leader epoch, log end and lag.
async fn print_offsets(admin: &Admin, d: &DescribedGroup, verbose: bool) -> Result<(), Failure> {
    let subs = topics_of(d);
    let mut partitions: BTreeSet<(String, i32)> = BTreeSet::new();
    for m in &d.members {
        for t in &m.assignment.active_tasks {
            let Some((sources, repartition)) = subs.get(&t.subtopology_id) else {
                return Err(Failure::Usage(format!(
                    "Subtopology {} not found in group description!",
                    t.subtopology_id
                )));
            };
            for topic in sources.iter().chain(repartition) {
                partitions.extend(t.partitions.iter().map(|p| (topic.clone(), *p)));
            }
        }
    }
    let inputs = input_topics(d, true);
    let commits = committed(admin, &d.group_id, |t| inputs.contains(t)).await?;
    let mut rows = Vec::new();
    for (topic, p) in &partitions {
        let earliest = admin.list_offset(topic, *p, EARLIEST).await?;
        let end = admin.list_offset(topic, *p, LATEST).await?;
        let current = commits.get(&(topic.clone(), *p));
        let lag = end - current.map_or(earliest, |c| c.0);
        rows.push((topic, p, current, end, lag));
    }
    if d.group_state == "Dead" || d.members.is_empty() {
        return Ok(());
    }
    empty_group_note(&d.group_id, &d.group_state);
    let g = d.group_id.len().max(15);
    let t = partitions
        .iter()
        .map(|(t, _)| t.len())
        .max()
        .unwrap_or(0)
        .max(15);
    if !verbose {
        println!(
            "{:<g$} {:<t$} {:<10} OFFSET-LAG",
            "GROUP", "TOPIC", "PARTITION"
        );
        for (topic, p, _, _, lag) in rows {
            println!("{:<g$} {topic:<t$} {p:<10} {lag}", d.group_id);
        }
        return Ok(());
    }
    println!(
        "{:<g$} {:<t$} {:<10} {:<15} {:<15} {:<15} {:<15}",
        "GROUP",
        "TOPIC",
        "PARTITION",
        "CURRENT-OFFSET",
        "LEADER-EPOCH",
        "LOG-END-OFFSET",
        "OFFSET-LAG"
    );
    let dash = |v: Option<String>| v.unwrap_or_else(|| "-".into());
    for (topic, p, current, end, lag) in rows {
        println!(
            "{:<g$} {topic:<t$} {p:<10} {:<15} {:<15} {end:<15} {lag:<15}",
            d.group_id,
            dash(current.map(|c| c.0.to_string())),
            dash(current.and_then(|c| c.1).map(|e| e.to_string())),
        );
    }
    Ok(())
}

/// `--describe --topology`: the description, or Kafka's note of why there is none (false).
fn print_topology(d: &DescribedGroup) -> bool {
    let status = usize::try_from(d.topology_description_status).unwrap_or(usize::MAX);
    let group = &d.group_id;
    match (TOPOLOGY_STATUSES.get(status), &d.topology_description) {
        (Some(&"AVAILABLE"), Some(t)) => {
            println!("{}", topology_text(t));
            return true;
        }
        (Some(&"NOT_STORED"), _) => {
            println!("\nError: No topology description is stored for streams group '{group}'.")
        }
        (Some(&"ERROR"), _) => println!(
            "\nError: The broker failed to fetch the topology description for streams group '{group}'. See the broker logs for details."
        ),
        (name, _) => println!(
            "\nError: No topology description is available for streams group '{group}' (status: {}).",
            name.copied().unwrap_or("UNKNOWN")
        ),
    }
    false
}

/// Names sorted and joined as Kafka's topology text joins them (`none` for none).
fn names(set: &BTreeSet<&str>) -> String {
    if set.is_empty() {
        return "none".into();
    }
    set.iter().copied().collect::<Vec<_>>().join(", ")
}

/// One node of a topology description as Kafka Streams prints it.
fn node_text(
    n: &fjord_protocol::generated::streams_group_describe_response::TopologyDescriptionNode,
    predecessors: &BTreeMap<&str, BTreeSet<&str>>,
) -> String {
    let successors: BTreeSet<&str> = n.successors.iter().map(String::as_str).collect();
    let before = predecessors
        .get(n.name.as_str())
        .cloned()
        .unwrap_or_default();
    match n.node_type {
        1 => {
            let topics: BTreeSet<&str> = n.source_topics.iter().map(String::as_str).collect();
            format!(
                "Source: {} (topics: [{}])\n      --> {}",
                n.name,
                topics.into_iter().collect::<Vec<_>>().join(", "),
                names(&successors)
            )
        }
        2 => {
            let stores: BTreeSet<&str> = n.stores.iter().map(String::as_str).collect();
            format!(
                "Processor: {} (stores: [{}])\n      --> {}\n      <-- {}",
                n.name,
                stores.into_iter().collect::<Vec<_>>().join(", "),
                names(&successors),
                names(&before)
            )
        }
        _ => format!(
            "Sink: {} (topic: {})\n      <-- {}",
            n.name,
            n.sink_topic.as_deref().unwrap_or("null"),
            names(&before)
        ),
    }
}

/// A topology description as Kafka's tool prints it.
fn topology_text(t: &TopologyDescription) -> String {
    use fjord_protocol::generated::streams_group_describe_response::TopologyDescriptionNode;
    let predecessors = |nodes: &[&TopologyDescriptionNode]| {
        let mut out: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
        for n in nodes {
            for s in &n.successors {
                out.entry(s.clone()).or_default().insert(n.name.clone());
            }
        }
        out
    };
    let block = |nodes: Vec<&TopologyDescriptionNode>| {
        let owned = predecessors(&nodes);
        let borrowed: BTreeMap<&str, BTreeSet<&str>> = owned
            .iter()
            .map(|(k, v)| (k.as_str(), v.iter().map(String::as_str).collect()))
            .collect();
        nodes
            .iter()
            .map(|n| format!("    {}\n", node_text(n, &borrowed)))
            .collect::<String>()
    };
    let mut s = String::from("Topologies:\n");
    for sub in &t.subtopologies {
        s += &format!("   Sub-topology: {}\n", sub.subtopology_id);
        s += &block(sub.nodes.iter().collect());
        s.push('\n');
    }
    for (i, g) in t.global_stores.iter().enumerate() {
        let id = t.subtopologies.len() + i;
        s += &format!("   Sub-topology: {id} for global store (will not generate tasks)\n");
        s += &block(vec![&g.source, &g.processor]);
        s.push('\n');
    }
    s
}

async fn describe(admin: &Admin, a: &Args, groups: &[String]) -> Result<(), Failure> {
    let mut failed = false;
    for group in groups {
        let (coordinator, d) = describe_group(admin, group, a.topology).await?;
        if a.topology {
            failed |= !print_topology(&d);
        } else if a.members {
            print_members(&d, a.verbose);
        } else if a.state.is_some() {
            print_state(&d, &coordinator, a.verbose);
        } else {
            print_offsets(admin, &d, a.verbose).await?;
        }
    }
    match failed {
        true => Err(Failure::Quiet),
        false => Ok(()),
    }
}

/// The partitions `--input-topic` names: `t:0,1` as given, `t` with all its partitions
/// (Kafka's UnknownTopicOrPartition for a topic that does not exist).
async fn named_partitions(admin: &Admin, specs: &[String]) -> Result<Vec<(String, i32)>, Failure> {
    let cluster = admin.retry(|| admin.refresh(None)).await?;
    let mut out = Vec::new();
    for spec in specs {
        let (topic, parts) = topic_spec(spec)?;
        let known = cluster.topics.get(&topic);
        let parts = match (parts, known) {
            (Some(p), _) => p,
            (None, Some(k)) => k.partitions.iter().map(|p| p.partition).collect(),
            (None, None) => {
                // Kafka's tool prints this exception's message alone.
                let m = ErrorCode::UnknownTopicOrPartition.message();
                println!("\nError: {FAILED} {m}");
                eprintln!("org.apache.kafka.common.errors.UnknownTopicOrPartitionException: {m}");
                return Err(Failure::Quiet);
            }
        };
        for p in parts {
            if !known.is_some_and(|k| k.partitions.iter().any(|x| x.partition == p)) {
                return Err(Failure::Usage(format!(
                    "The partitions \"{topic}-{p}\" do not exist"
                )));
            }
            out.push((topic.clone(), p));
        }
    }
    Ok(out)
}

/// The group's internal topics its description names (repartition and changelog topics that
/// are not source topics), keeping only those Kafka infers as internal: named after the
/// application and ending as Kafka Streams names them.
fn internal_topics(d: &DescribedGroup) -> Vec<String> {
    let subs = d.topology.as_ref().and_then(|t| t.subtopologies.as_ref());
    let subs: Vec<_> = subs.into_iter().flatten().collect();
    let sources: BTreeSet<&String> = subs.iter().flat_map(|s| &s.source_topics).collect();
    let mut out = Vec::new();
    for s in &subs {
        let named = s
            .repartition_source_topics
            .iter()
            .chain(&s.state_changelog_topics);
        for t in named.map(|t| &t.name).filter(|t| !sources.contains(t)) {
            if is_inferred_internal(t, &d.group_id) {
                out.push(t.clone());
            } else {
                println!(
                    "\nError: The internal topic '{t}' is not inferred as internal and thus will not be deleted with the group '{}'.",
                    d.group_id
                );
            }
        }
    }
    out
}

/// Kafka's test of a topic name made by Kafka Streams for application `app`.
fn is_inferred_internal(topic: &str, app: &str) -> bool {
    if !topic.starts_with(&format!("{app}-")) {
        return false;
    }
    // Kafka's `.+-KTABLE-FK-JOIN-SUBSCRIPTION-<KIND>-\d+-topic` over the whole name.
    let fk = |kind: &str| {
        let marker = format!("-KTABLE-FK-JOIN-SUBSCRIPTION-{kind}-");
        topic.find(&marker).is_some_and(|i| {
            let rest = &topic[i + marker.len()..];
            let digits = rest.strip_suffix("-topic").unwrap_or("");
            i > 0 && !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit())
        })
    };
    [
        "-changelog",
        "-repartition",
        "-subscription-registration-topic",
        "-subscription-response-topic",
    ]
    .iter()
    .any(|s| topic.ends_with(s))
        || fk("REGISTRATION")
        || fk("RESPONSE")
}

/// Deletes topics: on failure, the topics that were not deleted and the first error.
async fn delete_topics(admin: &Admin, names: &[String]) -> Result<(), (Vec<String>, AdminError)> {
    let timeout_ms = admin.config().request_timeout.as_millis() as i32;
    let answer = admin
        .retry(|| async {
            let r = admin
                .call_controller(
                    RequestBody::DeleteTopics(DeleteTopicsRequest {
                        topic_names: names.to_vec(),
                        timeout_ms,
                        ..Default::default()
                    }),
                    1..=5,
                )
                .await?;
            expect_response!(r, DeleteTopics)
        })
        .await
        .map_err(|e| (names.to_vec(), e))?;
    let mut failed = Vec::new();
    let mut first = None;
    for t in &answer.responses {
        if let Err(e) = AdminError::check(t.error_code, t.error_message.as_deref()) {
            failed.push(t.name.clone().unwrap_or_default());
            first.get_or_insert(e);
        }
    }
    match first {
        None => Ok(()),
        Some(e) => Err((failed, e)),
    }
}

/// The partitions an inactive group's reset applies to; `None` after Kafka's note that a
/// named topic is not the group's.
async fn reset_targets(
    admin: &Admin,
    a: &Args,
    group: &str,
    d: Option<&DescribedGroup>,
) -> Result<Vec<(String, i32)>, Failure> {
    if a.all_input_topics {
        let Some(d) = d else {
            return Ok(Vec::new());
        };
        let sources = input_topics(d, false);
        let commits = committed(admin, group, |t| sources.contains(t)).await?;
        return Ok(commits.into_keys().collect());
    }
    if !a.input_topics.is_empty() {
        let named = named_partitions(admin, &a.input_topics).await?;
        let all = committed(admin, group, |_| true).await?;
        if !named.iter().all(|tp| all.contains_key(tp)) {
            println!("\nError: One or more topics are not part of the group '{group}'.");
            return Ok(Vec::new());
        }
        return Ok(named);
    }
    if a.reset.from_file.is_none() {
        return Err(Failure::Usage(
            "One of the reset scopes should be defined: --all-input-topics, --input-topic.".into(),
        ));
    }
    Ok(Vec::new())
}

/// Resets one inactive group (`d` its description, None when it does not exist): the new
/// offsets, committed unless a dry run, and with --execute its internal topics deleted when
/// asked.
async fn reset_group(
    admin: &Admin,
    a: &Args,
    group: &str,
    d: Option<&DescribedGroup>,
) -> Result<Offsets, Failure> {
    let scenario = scenario(a)?;
    let mut targets = reset_targets(admin, a, group, d).await?;
    let file = match &scenario {
        Scenario::File(path) => offsets_file(path, group)?,
        _ => Offsets::new(),
    };
    targets.extend(file.keys().cloned());
    let current = match &scenario {
        Scenario::Current | Scenario::ShiftBy(_) => {
            let inputs = d.map(|d| input_topics(d, true)).unwrap_or_default();
            committed(admin, group, |t| inputs.contains(t)).await?
        }
        _ => BTreeMap::new(),
    };
    let at = |t: &str, p: i32| current.get(&(t.to_string(), p)).map(|c| c.0);
    let new = new_offsets(admin, &targets, &scenario, at, &file).await?;
    if a.reset.execute {
        admin.commit_group_offsets(group, &new).await?;
        let doomed = match (a.delete_all_internal_topics, d) {
            (true, Some(d)) => internal_topics(d),
            _ => a.delete_internal_topics.clone(),
        };
        if !doomed.is_empty() {
            match delete_topics(admin, &doomed).await {
                Ok(()) => {}
                Err((_, e)) if e.code() == Some(ErrorCode::UnknownTopicOrPartition) => println!(
                    "\nError: Deleting internal topics for group '{group}' failed because the topics do not exist."
                ),
                Err((_, e)) => println!(
                    "\nError: Deleting internal topics for group '{group}' failed due to {}",
                    exception(&e)
                ),
            }
        }
    }
    Ok(new)
}

async fn reset(admin: &Admin, a: &Args, groups: &[String]) -> Result<(), Failure> {
    let mut results: BTreeMap<String, Offsets> = BTreeMap::new();
    for group in groups {
        match describe_group(admin, group, false).await {
            Ok((_, d)) if matches!(d.group_state.as_str(), "Empty" | "Dead") => {
                let new = reset_group(admin, a, group, Some(&d)).await?;
                results.insert(group.clone(), new);
            }
            Ok((_, d)) => {
                println!(
                    "\nError: Assignments can only be reset if the group '{group}' is inactive, but the current state is {}.",
                    d.group_state
                );
                results.insert(group.clone(), Offsets::new());
            }
            Err(e) if e.code() == Some(ErrorCode::GroupIdNotFound) => {
                // As Kafka's tool: a group that does not exist is reset as an inactive one,
                // but it has no input topics to take all of.
                if a.all_input_topics {
                    return Err(Failure::Admin(e));
                }
                let new = reset_group(admin, a, group, None).await?;
                results.insert(group.clone(), new);
            }
            Err(e) => return Err(e.into()),
        }
    }
    if a.reset.export {
        let one = a.groups.len() == 1;
        for (g, new) in &results {
            for ((t, p), o) in new {
                match one {
                    true => println!("{t},{p},{o}"),
                    false => println!("{g},{t},{p},{o}"),
                }
            }
        }
        println!();
        return Ok(());
    }
    let mut out = String::new();
    if !results.is_empty() {
        out += &format!(
            "\n{:<30} {:<30} {:<10} {:<15}",
            "GROUP", "TOPIC", "PARTITION", "NEW-OFFSET"
        );
    }
    for (g, new) in &results {
        for ((t, p), o) in new {
            out += &format!("\n{g:<30} {t:<30} {p:<10} {o:<15}");
        }
    }
    println!("{out}");
    Ok(())
}

async fn delete(admin: &Admin, a: &Args, groups: &[String]) -> Result<(), Failure> {
    let listing: BTreeMap<String, String> = typed_groups(admin, "streams", &[])
        .await?
        .into_iter()
        .collect();
    let mut failed: BTreeMap<String, String> = BTreeMap::new();
    let mut wanted: Vec<String> = Vec::new();
    for g in groups {
        let refusal = match listing.get(g).map(String::as_str) {
            None => format!("java.lang.IllegalArgumentException: Group '{g}' does not exist or is not a streams group."),
            Some("Dead") => {
                format!("java.lang.IllegalStateException: Streams group '{g}' group state is DEAD.")
            }
            Some("Empty") => {
                if !wanted.contains(g) {
                    wanted.push(g.clone());
                }
                continue;
            }
            Some(_) => format!("org.apache.kafka.common.errors.GroupNotEmptyException: Streams group '{g}' is not EMPTY."),
        };
        failed.insert(g.clone(), refusal);
    }
    let mut internal: BTreeMap<String, Vec<String>> = BTreeMap::new();
    if a.delete_all_internal_topics {
        for g in &wanted {
            if let Ok((_, d)) = describe_group(admin, g, false).await {
                let topics = internal_topics(&d);
                if !topics.is_empty() {
                    internal.insert(g.clone(), topics);
                }
            }
        }
    }
    let mut deleted = Vec::new();
    for g in &wanted {
        let result = delete_group(admin, g).await;
        match result {
            Ok(()) => deleted.push(g.clone()),
            Err(e) => {
                failed.insert(g.clone(), exception(&e));
            }
        }
    }
    let mut topic_failures: BTreeMap<&String, String> = BTreeMap::new();
    for g in &deleted {
        if let Some(topics) = internal.get(g) {
            if let Err((names, e)) = delete_topics(admin, topics).await {
                for t in names {
                    println!("Failed to delete internal topic: {t}");
                }
                topic_failures.insert(g, exception(&e));
            }
        }
    }
    let quoted = deleted.join("', '");
    if failed.is_empty() {
        println!("Deletion of requested streams groups ('{quoted}') was successful.");
    } else {
        println!("\nError: Deletion of some streams groups failed:");
        for (g, e) in &failed {
            println!("* Group '{g}' could not be deleted due to: {e}");
        }
        if !deleted.is_empty() {
            println!("\nThese streams groups were deleted successfully: '{quoted}'.");
        }
    }
    if !internal.is_empty() && !deleted.is_empty() {
        if topic_failures.is_empty() {
            let with: Vec<&str> = deleted
                .iter()
                .filter(|g| internal.contains_key(*g))
                .map(String::as_str)
                .collect();
            println!(
                "Deletion of associated internal topics of the streams groups ('{}') was successful.",
                with.join("', '")
            );
        } else {
            println!("Deletion of some associated internal topics failed:");
            for (g, e) in &topic_failures {
                println!(
                    "* Internal topics of the streams group '{g}' could not be deleted due to: {e}"
                );
            }
        }
    }
    Ok(())
}

async fn delete_offsets(admin: &Admin, a: &Args, group: &str) -> Result<(), Failure> {
    // (topic, partition or -1 for a topic that could not be described) to its error.
    let mut results: BTreeMap<(String, i32), Option<String>> = BTreeMap::new();
    let mut partitions: BTreeSet<(String, i32)> = BTreeSet::new();
    if a.all_input_topics {
        let (_, d) = describe_group(admin, group, false).await?;
        let sources = input_topics(&d, false);
        partitions.extend(
            committed(admin, group, |t| sources.contains(t))
                .await?
                .into_keys(),
        );
    } else {
        let cluster = admin.retry(|| admin.refresh(None)).await?;
        for spec in &a.input_topics {
            match topic_spec(spec)? {
                (topic, Some(parts)) => {
                    partitions.extend(parts.into_iter().map(|p| (topic.clone(), p)))
                }
                (topic, None) => match cluster.topics.get(&topic) {
                    Some(k) => {
                        partitions.extend(k.partitions.iter().map(|p| (topic.clone(), p.partition)))
                    }
                    None => {
                        let m = ErrorCode::UnknownTopicOrPartition.message();
                        results.insert((topic, -1), Some(format!("org.apache.kafka.common.errors.UnknownTopicOrPartitionException: {m}")));
                    }
                },
            }
        }
    }
    let mut by_topic: BTreeMap<&str, Vec<OffsetDeleteRequestPartition>> = BTreeMap::new();
    for (t, p) in &partitions {
        by_topic
            .entry(t)
            .or_default()
            .push(OffsetDeleteRequestPartition {
                partition_index: *p,
            });
    }
    let request = OffsetDeleteRequest {
        group_id: group.to_string(),
        topics: by_topic
            .into_iter()
            .map(|(name, partitions)| OffsetDeleteRequestTopic {
                name: name.to_string(),
                partitions,
            })
            .collect(),
    };
    let answer = admin
        .retry(|| async {
            let r = admin
                .call_group(group, RequestBody::OffsetDelete(request.clone()), 0..=0)
                .await?;
            let r = expect_response!(r, OffsetDelete)?;
            match AdminError::from_code(r.error_code, None) {
                Some(e) if e.is_retriable() => Err(e),
                _ => Ok(r),
            }
        })
        .await?;
    let top = ErrorCode::from_code(answer.error_code);
    let mut partition_errors: BTreeMap<(String, i32), ErrorCode> = BTreeMap::new();
    for t in &answer.topics {
        for p in &t.partitions {
            if let Some(code) = ErrorCode::from_code(p.error_code).filter(|c| *c != ErrorCode::None)
            {
                partition_errors.insert((t.name.clone(), p.partition_index), code);
            }
        }
    }
    let first_partition_error = partition_errors.values().next().copied();
    // Kafka's admin client fails the whole call on a partition's error too.
    let overall = top
        .filter(|c| *c != ErrorCode::None)
        .or(first_partition_error);
    match overall {
        None => println!("Request succeeded for deleting offsets from group {group}."),
        Some(
            c @ (ErrorCode::InvalidGroupId
            | ErrorCode::GroupIdNotFound
            | ErrorCode::GroupAuthorizationFailed
            | ErrorCode::NonEmptyGroup),
        ) => println!("\nError: {}", c.message()),
        Some(
            ErrorCode::GroupSubscribedToTopic
            | ErrorCode::TopicAuthorizationFailed
            | ErrorCode::UnknownTopicOrPartition,
        ) => {
            println!("\nError: Encountered some partition-level error, see the follow-up details.")
        }
        Some(c) => println!("\nError: Encountered some unknown error: {}", c.name()),
    }
    for tp in partitions {
        let error = match top.filter(|c| *c != ErrorCode::None) {
            Some(c) => Some(c),
            None => partition_errors.get(&tp).copied(),
        };
        let text = error.map(|c| {
            exception(&AdminError::Kafka {
                code: c,
                message: c.message().into(),
            })
        });
        results.insert(tp, text);
    }
    let w = results
        .keys()
        .map(|(t, _)| t.len())
        .max()
        .unwrap_or(0)
        .max(15);
    let mut out = format!("\n{:<w$} {:<10} {:<15}", "TOPIC", "PARTITION", "STATUS");
    // Kafka's order: by topic and partition as one string.
    let mut rows: Vec<_> = results.into_iter().collect();
    rows.sort_by_key(|((t, p), _)| format!("{t}{p}"));
    for ((t, p), e) in rows {
        let p = if p >= 0 { p.to_string() } else { "-".into() };
        let status = e.map_or_else(|| "Successful".to_string(), |m| format!("Error: {m}"));
        out += &format!("\n{t:<w$} {p:<10} {status:<15}");
    }
    println!("{out}");
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use fjord_protocol::generated::streams_group_describe_response::{
        TopologyDescriptionNode, TopologyDescriptionSubtopology,
    };

    #[test]
    fn tasks_are_printed_as_kafka_prints_them() {
        let a = Assignment {
            active_tasks: vec![TaskIds {
                subtopology_id: "0".into(),
                partitions: vec![0, 1],
                ..Default::default()
            }],
            ..Default::default()
        };
        assert_eq!(assignment_text(&a, None), "ACTIVE: 0:[0,1]; ");
        assert_eq!(
            assignment_text(&Assignment::default(), Some(&a)),
            "TARGET-ACTIVE: 0:[0,1]; "
        );
    }

    #[test]
    fn internal_topics_are_inferred_from_their_names() {
        assert!(is_inferred_internal("app-store-changelog", "app"));
        assert!(is_inferred_internal("app-x-repartition", "app"));
        assert!(is_inferred_internal(
            "app-KTABLE-FK-JOIN-SUBSCRIPTION-REGISTRATION-0000000006-topic",
            "app"
        ));
        assert!(!is_inferred_internal("other-store-changelog", "app"));
        assert!(!is_inferred_internal("app-input", "app"));
    }

    #[test]
    fn a_topology_is_printed_with_its_predecessors() {
        let node = |name: &str, t: i8, next: &[&str]| TopologyDescriptionNode {
            name: name.into(),
            node_type: t,
            source_topics: if t == 1 { vec!["in".into()] } else { vec![] },
            sink_topic: (t == 3).then(|| "out".into()),
            stores: if t == 2 { vec!["s".into()] } else { vec![] },
            successors: next.iter().map(|s| s.to_string()).collect(),
            ..Default::default()
        };
        let t = TopologyDescription {
            subtopologies: vec![TopologyDescriptionSubtopology {
                subtopology_id: "0".into(),
                nodes: vec![
                    node("KSTREAM-SOURCE-0", 1, &["KSTREAM-MAP-1"]),
                    node("KSTREAM-MAP-1", 2, &["KSTREAM-SINK-2"]),
                    node("KSTREAM-SINK-2", 3, &[]),
                ],
                ..Default::default()
            }],
            ..Default::default()
        };
        assert_eq!(
            topology_text(&t),
            "Topologies:\n   Sub-topology: 0\n    Source: KSTREAM-SOURCE-0 (topics: [in])\n      --> KSTREAM-MAP-1\n    Processor: KSTREAM-MAP-1 (stores: [s])\n      --> KSTREAM-SINK-2\n      <-- KSTREAM-SOURCE-0\n    Sink: KSTREAM-SINK-2 (topic: out)\n      <-- KSTREAM-MAP-1\n\n"
        );
    }
}
