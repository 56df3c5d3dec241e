//! `fjord kafka-consumer-groups` (as `kafka-consumer-groups.sh`): list groups, describe one
//! (offsets and lag, members, or state), reset its offsets, delete it or some of its offsets,
//! with Kafka's flags, tables and messages.

use crate::common::{self, ToolError};
use crate::consumer_protocol::assignment;
use crate::group_command::{
    delete_group, listed_groups, new_offsets, offsets_file, reset_text, scenario_with_shifts,
    topic_spec, GroupOptions, Offsets, Scenario,
};
use crate::table::Table;
use clap::Args as ClapArgs;
use fjord_admin::{expect_response, Admin, AdminError, LATEST};
use fjord_protocol::generated::{
    consumer_group_describe_request::ConsumerGroupDescribeRequest,
    describe_groups_request::DescribeGroupsRequest,
    describe_groups_response::DescribedGroup,
    list_groups_request::ListGroupsRequest,
    offset_delete_request::{
        OffsetDeleteRequest, OffsetDeleteRequestPartition, OffsetDeleteRequestTopic,
    },
};
use fjord_protocol::RequestBody;
use std::collections::{BTreeMap, BTreeSet};
use std::process::ExitCode;

/// `kafka-consumer-groups` arguments.
#[derive(Debug, ClapArgs)]
pub struct Args {
    /// The options both group tools take.
    #[command(flatten)]
    g: GroupOptions,
    /// With --list: show each group's type (or only groups of these types: classic,
    /// consumer).
    #[arg(long = "type", num_args = 0..=1, default_missing_value = "")]
    group_type: Option<String>,
    /// Reset by shifting the current offset by this many (negative: back).
    #[arg(long, allow_hyphen_values = true)]
    shift_by: Option<i64>,
    /// Reset to the offsets of this long ago, 'PnDTnHnMnS'.
    #[arg(long)]
    by_duration: Option<String>,
}

/// Runs the tool.
pub fn run(args: &Args) -> ExitCode {
    common::run::<Args, _>("kafka-consumer-groups", run_async(args))
}

async fn run_async(a: &Args) -> Result<(), ToolError> {
    if a.g.actions() != 1 {
        return Err(ToolError::Usage(
            "Command must include exactly one action: --list, --describe, --delete, --reset-offsets, --delete-offsets".into(),
        ));
    }
    a.g.require_bootstrap()?;
    if (a.g.describe || a.g.delete || a.g.reset_offsets) && a.g.groups.is_empty() && !a.g.all_groups
    {
        return Err(ToolError::Usage(
            "Option [describe/delete/reset-offsets] takes one of these options: [all-groups], [group]".into(),
        ));
    }
    let admin = a.g.admin()?;
    if a.g.list && (a.group_type.is_some() || a.g.state.is_some()) {
        return list_with_columns(&admin, a).await;
    }
    if a.g.list {
        for g in list_groups(&admin).await? {
            println!("{g}");
        }
        return Ok(());
    }
    let groups = if a.g.all_groups {
        list_groups(&admin).await?
    } else {
        a.g.groups.clone()
    };
    if a.g.delete {
        return delete(&admin, &groups).await;
    }
    if a.g.delete_offsets {
        let group = groups
            .first()
            .ok_or_else(|| ToolError::Usage("--delete-offsets needs --group".into()))?;
        return delete_offsets(&admin, group, &a.g.topics).await;
    }
    if a.g.reset_offsets {
        return reset(&admin, a, &groups).await;
    }
    for g in &groups {
        describe(&admin, a, g).await?;
    }
    Ok(())
}

/// Every consumer group (classic with the consumer protocol type, or consumer-protocol) of
/// every broker's coordinator, sorted: (id, type, state).
async fn list_listed(admin: &Admin) -> Result<Vec<(String, String, String)>, ToolError> {
    let groups = listed_groups(admin, ListGroupsRequest::default(), 0..=5).await?;
    let out: BTreeSet<(String, String, String)> = groups
        .into_iter()
        .filter(|g| g.protocol_type == "consumer" || g.protocol_type.is_empty())
        .map(|g| {
            let kind = if g.group_type.is_empty() {
                "classic".to_string()
            } else {
                g.group_type
            };
            (g.group_id, kind, g.group_state)
        })
        .collect();
    Ok(out.into_iter().collect())
}

/// Every consumer group's id, sorted.
async fn list_groups(admin: &Admin) -> Result<Vec<String>, ToolError> {
    Ok(list_listed(admin)
        .await?
        .into_iter()
        .map(|(g, ..)| g)
        .collect())
}

/// The group types Kafka's tool accepts.
const GROUP_TYPES: &[&str] = &["classic", "consumer", "share", "streams"];
/// The group states Kafka's tool accepts.
const GROUP_STATES: &[&str] = &[
    "PreparingRebalance",
    "CompletingRebalance",
    "Stable",
    "Dead",
    "Empty",
    "Assigning",
    "Reconciling",
];

/// A comma-separated filter, each value one of `valid` (compared without case).
fn filter_values(list: &str, valid: &[&str], what: &str) -> Result<Vec<String>, ToolError> {
    let values: Vec<String> = list
        .split(',')
        .map(|v| v.trim().to_string())
        .filter(|v| !v.is_empty())
        .collect();
    for v in &values {
        if !valid.iter().any(|x| x.eq_ignore_ascii_case(v)) {
            return Err(ToolError::Usage(format!(
                "Invalid {what} list '{list}'. Valid {what}s are: {}",
                valid.join(", ")
            )));
        }
    }
    Ok(values)
}

/// `--list` with `--type` and/or `--state`: Kafka's GROUP / TYPE / STATE columns.
async fn list_with_columns(admin: &Admin, a: &Args) -> Result<(), ToolError> {
    let types = filter_values(a.group_type.as_deref().unwrap_or(""), GROUP_TYPES, "type")?;
    let states = filter_values(a.g.state.as_deref().unwrap_or(""), GROUP_STATES, "state")?;
    let keep = |value: &str, filter: &[String]| {
        filter.is_empty() || filter.iter().any(|f| f.eq_ignore_ascii_case(value))
    };
    let groups: Vec<(String, String, String)> = list_listed(admin)
        .await?
        .into_iter()
        .filter(|(_, t, s)| keep(t, &types) && keep(s, &states))
        .collect();
    let width = groups
        .iter()
        .map(|(g, ..)| g.len().max(15))
        .max()
        .unwrap_or(15)
        + 10;
    let row = |id: &str, kind: &str, state: &str| {
        let mut r = vec![id.to_string()];
        if a.group_type.is_some() {
            r.push(kind.to_string());
        }
        if a.g.state.is_some() {
            r.push(state.to_string());
        }
        r
    };
    let rows: Vec<Vec<String>> = std::iter::once(row("GROUP", "TYPE", "STATE"))
        .chain(groups.iter().map(|(id, kind, state)| row(id, kind, state)))
        .collect();
    for line in Table::fixed(&[width, 20, 20], " ").pad_last().lines(&rows) {
        println!("{line}");
    }
    Ok(())
}

/// Partitions as (topic, partition), sorted.
type PartitionList = Vec<(String, i32)>;

/// A member as the tool shows it, whichever protocol its group runs.
#[derive(Debug, Clone, Default)]
struct MemberView {
    id: String,
    instance_id: Option<String>,
    host: String,
    client_id: String,
    /// Its partitions.
    assignment: PartitionList,
    /// Consumer protocol: its epoch, its target epoch and target partitions.
    epochs: Option<(i32, i32, PartitionList)>,
}

/// A group as the tool shows it: from ConsumerGroupDescribe for a consumer-protocol group,
/// from DescribeGroups for a classic one (as Kafka's admin client does).
#[derive(Debug, Clone, Default)]
struct GroupView {
    state: String,
    assignor: String,
    members: Vec<MemberView>,
    /// Consumer protocol: the group epoch and the target assignment's epoch.
    epochs: Option<(i32, i32)>,
}

/// ConsumerGroupDescribe's answer for one group, or None when it is not a consumer group.
fn consumer_view(
    g: fjord_protocol::generated::consumer_group_describe_response::DescribedGroup,
) -> Result<Option<GroupView>, AdminError> {
    use fjord_protocol::ErrorCode;
    match ErrorCode::from_code(g.error_code) {
        Some(ErrorCode::None) => {}
        Some(ErrorCode::GroupIdNotFound) => return Ok(None),
        _ => {
            return Err(
                AdminError::from_code(g.error_code, g.error_message.as_deref())
                    .unwrap_or_else(|| AdminError::Protocol("an unknown error".into())),
            )
        }
    }
    let parts = |a: &fjord_protocol::generated::consumer_group_describe_response::Assignment| {
        let mut v: Vec<(String, i32)> = a
            .topic_partitions
            .iter()
            .flat_map(|t| t.partitions.iter().map(|p| (t.topic_name.clone(), *p)))
            .collect();
        v.sort();
        v
    };
    Ok(Some(GroupView {
        state: g.group_state.clone(),
        assignor: g.assignor_name.clone(),
        epochs: Some((g.group_epoch, g.assignment_epoch)),
        members: g
            .members
            .iter()
            .map(|m| MemberView {
                id: m.member_id.clone(),
                instance_id: m.instance_id.clone(),
                host: m.client_host.clone(),
                client_id: m.client_id.clone(),
                assignment: parts(&m.assignment),
                epochs: Some((
                    m.member_epoch,
                    g.assignment_epoch,
                    parts(&m.target_assignment),
                )),
            })
            .collect(),
    }))
}

/// DescribeGroups' answer for one classic group.
fn classic_view(g: DescribedGroup) -> GroupView {
    GroupView {
        state: g.group_state.clone(),
        assignor: g.protocol_data.clone(),
        epochs: None,
        members: g
            .members
            .iter()
            .map(|m| MemberView {
                id: m.member_id.clone(),
                instance_id: m.group_instance_id.clone(),
                host: m.client_host.clone(),
                client_id: m.client_id.clone(),
                assignment: assignment(&m.member_assignment),
                epochs: None,
            })
            .collect(),
    }
}

/// The group as its coordinator describes it, with the coordinator as Kafka's tool prints it
/// ("host:port  (id)").
async fn describe_group(admin: &Admin, group: &str) -> Result<(String, GroupView), AdminError> {
    admin
        .retry(|| async {
            let (id, at) = admin.group_coordinator_node(group).await?;
            let coordinator = format!("{at}  ({id})");
            let consumer = admin
                .call_at(
                    &at,
                    RequestBody::ConsumerGroupDescribe(ConsumerGroupDescribeRequest {
                        group_ids: vec![group.to_string()],
                        ..Default::default()
                    }),
                    0..=1,
                )
                .await;
            // A node without the consumer protocol answers UNSUPPORTED_VERSION: classic only.
            if let Ok(r) = consumer {
                let mut r = expect_response!(r, ConsumerGroupDescribe)?;
                if let Some(g) = r.groups.pop() {
                    if let Some(view) = consumer_view(g)? {
                        return Ok((coordinator, view));
                    }
                }
            }
            let r = admin
                .call_at(
                    &at,
                    RequestBody::DescribeGroups(DescribeGroupsRequest {
                        groups: vec![group.to_string()],
                        ..Default::default()
                    }),
                    0..=5,
                )
                .await?;
            let mut r = expect_response!(r, DescribeGroups)?;
            let g = r
                .groups
                .pop()
                .ok_or_else(|| AdminError::Protocol("no group in the answer".into()))?;
            match AdminError::from_code(g.error_code, g.error_message.as_deref()) {
                Some(e) => Err(e),
                None => Ok((coordinator, classic_view(g))),
            }
        })
        .await
}

/// Partitions as Kafka's tool lists them: `topic(0,1), other(2)`, or `-`.
fn partitions_text(parts: &[(String, i32)]) -> String {
    if parts.is_empty() {
        return "-".into();
    }
    let mut by_topic: BTreeMap<&str, Vec<i32>> = BTreeMap::new();
    for (t, p) in parts {
        by_topic.entry(t).or_default().push(*p);
    }
    by_topic
        .iter()
        .map(|(t, ps)| {
            let list: Vec<String> = ps.iter().map(|p| p.to_string()).collect();
            format!("{t}({})", list.join(","))
        })
        .collect::<Vec<_>>()
        .join(", ")
}

/// A table as Kafka's tool prints it: a blank line, then each row left-aligned in columns of
/// at least 15 (10 for PARTITION).
fn table(rows: &[Vec<String>], min: &[usize]) -> String {
    Table::fit(min, " ").block(rows)
}

/// `--describe --state`: the group's coordinator, assignment strategy, state and size (with
/// `--verbose` a consumer group's epochs).
fn state_table(a: &Args, group: &str, coordinator: String, g: &GroupView) -> String {
    // Kafka 4.4: "-" for a group with no assignment strategy, states in 20 columns.
    let strategy = if g.assignor.is_empty() {
        "-".to_string()
    } else {
        g.assignor.clone()
    };
    let mut rows = vec![
        vec![
            "GROUP".to_string(),
            "COORDINATOR (ID)".into(),
            "ASSIGNMENT-STRATEGY".into(),
            "STATE".into(),
        ],
        vec![group.to_string(), coordinator, strategy, g.state.clone()],
    ];
    let mut widths = vec![15, 25, 20, 20];
    if let (true, Some((epoch, target))) = (a.g.verbose, g.epochs) {
        rows[0].extend(["GROUP-EPOCH".to_string(), "TARGET-ASSIGNMENT-EPOCH".into()]);
        rows[1].extend([epoch.to_string(), target.to_string()]);
        widths.extend([15, 25]);
    }
    rows[0].push("#MEMBERS".into());
    rows[1].push(g.members.len().to_string());
    widths.push(0);
    table(&rows, &widths)
}

/// `--describe --members`: each member's ids, host and partition count (with `--verbose` its
/// assignment, and a consumer group's epochs and target assignment).
fn members_table(a: &Args, group: &str, g: &GroupView) -> String {
    let instances = g.members.iter().any(|m| m.instance_id.is_some());
    let consumer = g.epochs.is_some();
    let mut header = vec!["GROUP".to_string(), "CONSUMER-ID".into()];
    let mut widths = vec![15, 15];
    if instances {
        header.push("GROUP-INSTANCE-ID".into());
        widths.push(17);
    }
    header.extend(["HOST".to_string(), "CLIENT-ID".into(), "#PARTITIONS".into()]);
    widths.extend([15, 15, 12]);
    if a.g.verbose {
        if consumer {
            header.extend([
                "CURRENT-EPOCH".to_string(),
                "CURRENT-ASSIGNMENT".into(),
                "TARGET-EPOCH".into(),
                "TARGET-ASSIGNMENT".into(),
            ]);
            widths.extend([15, 25, 15, 0]);
        } else {
            header.push("ASSIGNMENT".into());
            widths.push(0);
        }
    }
    let mut rows = vec![header];
    for m in &g.members {
        let mut row = vec![group.to_string(), m.id.clone()];
        if instances {
            row.push(m.instance_id.clone().unwrap_or_else(|| "-".into()));
        }
        row.extend([
            m.host.clone(),
            m.client_id.clone(),
            m.assignment.len().to_string(),
        ]);
        if a.g.verbose {
            match &m.epochs {
                Some((epoch, target_epoch, target)) => row.extend([
                    epoch.to_string(),
                    partitions_text(&m.assignment),
                    target_epoch.to_string(),
                    partitions_text(target),
                ]),
                None => row.push(partitions_text(&m.assignment)),
            }
        }
        rows.push(row);
    }
    // Kafka 4.4 prints the header for a group with no members too.
    table(&rows, &widths)
}

async fn describe(admin: &Admin, a: &Args, group: &str) -> Result<(), ToolError> {
    let (coordinator, g) = match describe_group(admin, group).await {
        Ok(x) => x,
        Err(e) => return Err(ToolError::Failed(format!("Error: {e}"))),
    };
    if g.state == "Dead" {
        // As Kafka 4.4's tool: the describe fails with GroupIdNotFoundException, which it
        // prints, and exits 0.
        println!(
            "\nError: Executing consumer group command failed due to Group {group} not found."
        );
        return Ok(());
    }
    if g.members.is_empty() {
        println!("\nConsumer group '{group}' has no active members.");
    }
    if a.g.state.is_some() {
        println!("{}\n", state_table(a, group, coordinator, &g));
        return Ok(());
    }
    if a.g.members {
        // Kafka 4.4 prints the header for a group with no members too.
        println!("{}\n", members_table(a, group, &g));
        return Ok(());
    }
    // Offsets and lag: each committed or assigned partition, with its log end offset.
    let commits = admin.group_offsets(group, None).await?;
    let mut owners: BTreeMap<(String, i32), (String, String, String)> = BTreeMap::new();
    for m in &g.members {
        for tp in &m.assignment {
            owners.insert(
                tp.clone(),
                (m.id.clone(), m.host.clone(), m.client_id.clone()),
            );
        }
    }
    let partitions: BTreeSet<(String, i32)> = commits
        .keys()
        .cloned()
        .chain(owners.keys().cloned())
        .collect();
    let mut rows = vec![vec![
        "GROUP".to_string(),
        "TOPIC".into(),
        "PARTITION".into(),
        "CURRENT-OFFSET".into(),
        "LOG-END-OFFSET".into(),
        "LAG".into(),
        "CONSUMER-ID".into(),
        "HOST".into(),
        "CLIENT-ID".into(),
    ]];
    for (topic, partition) in &partitions {
        let end = admin.list_offset(topic, *partition, LATEST).await.ok();
        let current = commits.get(&(topic.clone(), *partition)).copied();
        let dash = || "-".to_string();
        let (id, host, client) = owners
            .get(&(topic.clone(), *partition))
            .cloned()
            .unwrap_or_else(|| (dash(), dash(), dash()));
        rows.push(vec![
            group.to_string(),
            topic.clone(),
            partition.to_string(),
            current.map_or_else(dash, |c| c.to_string()),
            end.map_or_else(dash, |e| e.to_string()),
            match (current, end) {
                (Some(c), Some(e)) => (e - c).max(0).to_string(),
                _ => dash(),
            },
            id,
            host,
            client,
        ]);
    }
    if partitions.is_empty() {
        println!("\nConsumer group '{group}' has no committed offsets.");
        return Ok(());
    }
    println!("{}\n", table(&rows, &[15, 15, 10, 15, 15, 15, 15, 15, 0]));
    Ok(())
}

/// The scenario of a reset: exactly one of the shared ones, `--shift-by` or `--by-duration`.
fn scenario(a: &Args) -> Result<Scenario, ToolError> {
    scenario_with_shifts(&a.g.reset, a.shift_by, a.by_duration.as_deref())
}

async fn reset(admin: &Admin, a: &Args, groups: &[String]) -> Result<(), ToolError> {
    let scenario = scenario(a)?;
    let from_file = matches!(scenario, Scenario::File(_));
    if !from_file && a.g.topics.is_empty() != a.g.all_topics {
        return Err(ToolError::Usage(
            "Option [reset-offsets] takes one of these options: [all-topics], [topic]".into(),
        ));
    }
    let r = &a.g.reset;
    if r.dry_run && r.execute {
        return Err(ToolError::Usage(
            "Option [reset-offsets] takes at most one of these options: [dry-run], [execute]"
                .into(),
        ));
    }
    if !r.dry_run && !r.execute && !r.export {
        println!("WARN: No action will be performed as the --execute option is missing. In a future major release, the default behavior of this command will be to prompt the user before executing the reset rather than doing a dry run. You should add the --dry-run option explicitly if you are scripting this command and want to keep the current default behavior without prompting.");
    }
    let cluster = admin.retry(|| admin.refresh(None)).await?;
    for group in groups {
        let (_, g) = describe_group(admin, group).await?;
        if !matches!(g.state.as_str(), "Empty" | "Dead") {
            return Err(ToolError::Failed(format!(
                "Error: Assignments can only be reset if the group '{group}' is inactive, but the current state is {}.",
                g.state
            )));
        }
        let commits = admin.group_offsets(group, None).await?;
        let file = match &scenario {
            Scenario::File(path) => offsets_file(path, group)?,
            _ => Offsets::new(),
        };
        let mut targets: Vec<(String, i32)> = Vec::new();
        if from_file {
            targets.extend(file.keys().cloned());
        } else if a.g.all_topics {
            targets.extend(commits.keys().cloned());
        } else {
            for spec in &a.g.topics {
                let (topic, parts) = topic_spec(spec)?;
                let known = cluster.topics.get(&topic).ok_or_else(|| {
                    ToolError::Failed(format!("Error: Topic '{topic}' does not exist"))
                })?;
                let parts =
                    parts.unwrap_or_else(|| known.partitions.iter().map(|p| p.partition).collect());
                targets.extend(parts.into_iter().map(|p| (topic.clone(), p)));
            }
        }
        let current = |t: &str, p: i32| commits.get(&(t.to_string(), p)).copied();
        let new = new_offsets(admin, &targets, &scenario, current, &file).await?;
        if r.execute {
            admin.commit_group_offsets(group, &new).await?;
        }
        let text = reset_text(group, &new, r.export, groups.len() > 1);
        match r.export {
            true => print!("{text}"),
            false => println!("{text}\n"),
        }
    }
    Ok(())
}

async fn delete(admin: &Admin, groups: &[String]) -> Result<(), ToolError> {
    let mut failed: Vec<(String, String)> = Vec::new();
    for g in groups {
        let result = delete_group(admin, g).await;
        if let Err(e) = result {
            failed.push((g.clone(), e.to_string()));
        }
    }
    if failed.is_empty() {
        let names: Vec<String> = groups.iter().map(|g| format!("'{g}'")).collect();
        println!(
            "Deletion of requested consumer groups ({}) was successful.",
            names.join(", ")
        );
        return Ok(());
    }
    let mut m = String::from("Deletion of some consumer groups failed:");
    for (g, e) in &failed {
        m.push_str(&format!("\n* Group '{g}' could not be deleted due to: {e}"));
    }
    Err(ToolError::Failed(m))
}

async fn delete_offsets(admin: &Admin, group: &str, topics: &[String]) -> Result<(), ToolError> {
    if topics.is_empty() {
        return Err(ToolError::Usage(
            "Option [delete-offsets] takes the option: [topic]".into(),
        ));
    }
    let cluster = admin.retry(|| admin.refresh(None)).await?;
    let mut request: Vec<OffsetDeleteRequestTopic> = Vec::new();
    for spec in topics {
        let (topic, parts) = topic_spec(spec)?;
        let parts = match parts {
            Some(p) => p,
            None => cluster
                .topics
                .get(&topic)
                .map(|t| t.partitions.iter().map(|p| p.partition).collect())
                .unwrap_or_default(),
        };
        request.push(OffsetDeleteRequestTopic {
            name: topic,
            partitions: parts
                .into_iter()
                .map(|p| OffsetDeleteRequestPartition { partition_index: p })
                .collect(),
        });
    }
    let r = admin
        .retry(|| async {
            let r = admin
                .call_group(
                    group,
                    RequestBody::OffsetDelete(OffsetDeleteRequest {
                        group_id: group.to_string(),
                        topics: request.clone(),
                    }),
                    0..=0,
                )
                .await?;
            let r = expect_response!(r, OffsetDelete)?;
            AdminError::check(r.error_code, None).map(|()| r)
        })
        .await
        .map_err(|e| ToolError::Failed(format!("Error: Encounter some unknown error: {e}")))?;
    let mut rows = vec![vec![
        "TOPIC".to_string(),
        "PARTITION".into(),
        "STATUS".into(),
    ]];
    let mut failures = 0;
    for t in &r.topics {
        for p in &t.partitions {
            let status = if p.error_code == 0 {
                "Successful".to_string()
            } else {
                failures += 1;
                format!("Error: {}", common::error_text(p.error_code, None))
            };
            rows.push(vec![t.name.clone(), p.partition_index.to_string(), status]);
        }
    }
    println!("{}\n", table(&rows, &[15, 10, 0]));
    if failures > 0 {
        return Err(ToolError::Failed(format!(
            "{failures} partition(s) could not be deleted."
        )));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tables_are_kafkas() {
        let rows = vec![
            vec![
                "GROUP".to_string(),
                "TOPIC".into(),
                "PARTITION".into(),
                "NEW-OFFSET".into(),
            ],
            vec!["g".into(), "t".into(), "0".into(), "5".into()],
        ];
        assert_eq!(
            table(&rows, &[15, 15, 10, 0]),
            "\nGROUP           TOPIC           PARTITION  NEW-OFFSET\ng               t               0          5"
        );
        assert_eq!(topic_spec("t:0,2").unwrap(), ("t".into(), Some(vec![0, 2])));
    }
}
