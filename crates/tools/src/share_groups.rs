//! `fjord kafka-share-groups` (as Kafka 4.4's `kafka-share-groups.sh`): list share groups,
//! describe one (start offsets and lag, members, or state), reset its start offsets, delete
//! it or its offsets for some topics, with Kafka's flags, tables and messages.

use crate::common::{self, ToolError};
use crate::group_command::{
    delete_group, list_typed, new_offsets, offsets_file, reset_text, topic_spec, typed_groups,
    GroupOptions, Scenario,
};
use crate::table::Table;
use clap::Args as ClapArgs;
use fjord_admin::{expect_response, Admin, AdminError};
use fjord_protocol::generated::{
    alter_share_group_offsets_request::{
        AlterShareGroupOffsetsRequest, AlterShareGroupOffsetsRequestPartition,
        AlterShareGroupOffsetsRequestTopic,
    },
    delete_share_group_offsets_request::{
        DeleteShareGroupOffsetsRequest, DeleteShareGroupOffsetsRequestTopic,
    },
    describe_share_group_offsets_request::{
        DescribeShareGroupOffsetsRequest, DescribeShareGroupOffsetsRequestGroup,
    },
    share_group_describe_request::ShareGroupDescribeRequest,
    share_group_describe_response::DescribedGroup,
};
use fjord_protocol::{ErrorCode, RequestBody};
use std::collections::{BTreeMap, BTreeSet};
use std::process::ExitCode;

/// `kafka-share-groups` arguments.
#[derive(Debug, ClapArgs)]
pub struct Args {
    /// The options both group tools take.
    #[command(flatten)]
    g: GroupOptions,
}

/// Runs the tool.
pub fn run(args: &Args) -> ExitCode {
    common::run::<Args, _>("kafka-share-groups", run_async(args))
}

/// The states a share group may be listed in.
const SHARE_STATES: &[&str] = &["Empty", "Dead", "Stable"];

async fn run_async(a: &Args) -> Result<(), ToolError> {
    if a.g.actions() != 1 {
        return Err(ToolError::Usage(
            "Command must include exactly one action: --list, --describe, --delete, --reset-offsets, --delete-offsets.".into(),
        ));
    }
    a.g.require_bootstrap()?;
    if (a.g.describe || a.g.delete) && a.g.groups.is_empty() && !a.g.all_groups {
        return Err(ToolError::Usage(
            "Option [describe] takes one of these options: [all-groups], [group]".into(),
        ));
    }
    if (a.g.reset_offsets || a.g.delete_offsets) && a.g.groups.len() != 1 {
        return Err(ToolError::Usage(
            "Option [reset-offsets] and [delete-offsets] take exactly one [group]".into(),
        ));
    }
    let admin = a.g.admin()?;
    if a.g.list {
        return list(&admin, a).await;
    }
    let groups = if a.g.all_groups {
        listed(&admin, &[])
            .await?
            .into_iter()
            .map(|(g, _)| g)
            .collect()
    } else {
        a.g.groups.clone()
    };
    if a.g.delete {
        return delete(&admin, &groups, a.g.all_groups).await;
    }
    if a.g.delete_offsets {
        return delete_offsets(&admin, &groups[0], &a.g.topics).await;
    }
    if a.g.reset_offsets {
        return reset(&admin, a, &groups[0]).await;
    }
    describe(&admin, a, &groups).await
}

/// Every share group in `states` (all when empty), sorted: (id, state).
async fn listed(admin: &Admin, states: &[String]) -> Result<Vec<(String, String)>, ToolError> {
    typed_groups(admin, "share", states).await
}

async fn list(admin: &Admin, a: &Args) -> Result<(), ToolError> {
    list_typed(admin, "share", SHARE_STATES, a.g.state.as_deref()).await
}

/// The group as its coordinator describes it, with the coordinator as Kafka's tool prints it
/// ("host:port  (id)").
async fn describe_group(
    admin: &Admin,
    group: &str,
) -> Result<(String, DescribedGroup), AdminError> {
    admin
        .retry(|| async {
            let (id, at) = admin.group_coordinator_node(group).await?;
            let r = admin
                .call_at(
                    &at,
                    RequestBody::ShareGroupDescribe(ShareGroupDescribeRequest {
                        group_ids: vec![group.to_string()],
                        ..Default::default()
                    }),
                    1..=1,
                )
                .await?;
            let mut r = expect_response!(r, ShareGroupDescribe)?;
            let g = r
                .groups
                .pop()
                .ok_or_else(|| AdminError::Protocol("no group in the answer".into()))?;
            AdminError::check(g.error_code, g.error_message.as_deref())?;
            Ok((format!("{at}  ({id})"), g))
        })
        .await
}

/// A group's start offsets: (topic, partition) to (start offset, leader epoch, lag), each
/// None when unknown.
type StartOffsets = BTreeMap<(String, i32), (Option<i64>, Option<i32>, Option<i64>)>;

/// DescribeShareGroupOffsets of every partition with state.
async fn start_offsets(admin: &Admin, group: &str) -> Result<StartOffsets, AdminError> {
    let r = admin
        .retry(|| async {
            let r = admin
                .call_group(
                    group,
                    RequestBody::DescribeShareGroupOffsets(DescribeShareGroupOffsetsRequest {
                        groups: vec![DescribeShareGroupOffsetsRequestGroup {
                            group_id: group.to_string(),
                            topics: None,
                            ..Default::default()
                        }],
                        ..Default::default()
                    }),
                    0..=1,
                )
                .await?;
            let r = expect_response!(r, DescribeShareGroupOffsets)?;
            let g = r
                .groups
                .into_iter()
                .next()
                .ok_or_else(|| AdminError::Protocol("no group in the answer".into()))?;
            AdminError::check(g.error_code, g.error_message.as_deref()).map(|()| g)
        })
        .await?;
    let mut out = StartOffsets::new();
    for t in r.topics {
        for p in t.partitions.into_iter().filter(|p| p.error_code == 0) {
            let known = p.start_offset >= 0;
            out.insert(
                (t.topic_name.clone(), p.partition_index),
                (
                    known.then_some(p.start_offset),
                    (known && p.leader_epoch >= 0).then_some(p.leader_epoch),
                    (known && p.lag >= 0).then_some(p.lag),
                ),
            );
        }
    }
    Ok(out)
}

/// A Kafka exception's name as Kafka's tools print it (`org.apache.kafka.common.errors.X`).
fn exception(e: &AdminError) -> String {
    match e.code() {
        Some(ErrorCode::GroupIdNotFound) => format!(
            "org.apache.kafka.common.errors.GroupIdNotFoundException: {}",
            e.server_message()
        ),
        Some(ErrorCode::NonEmptyGroup) => format!(
            "org.apache.kafka.common.errors.GroupNotEmptyException: {}",
            e.server_message()
        ),
        Some(ErrorCode::GroupAuthorizationFailed) => format!(
            "org.apache.kafka.common.errors.GroupAuthorizationException: {}",
            e.server_message()
        ),
        _ => e.to_string(),
    }
}

/// Kafka's message for an empty or missing group; true when its rows should follow.
fn empty_group_note(group: &str, state: &str, rows: usize) -> bool {
    if state == "Dead" {
        println!("\nError: Share group '{group}' does not exist.");
    } else if state == "Empty" {
        eprintln!("\nShare group '{group}' has no active members.");
    }
    state != "Dead" && rows > 0
}

/// `%-Ns` of each cell but the last, joined by spaces, after a newline (Kafka's printf).
fn row(cells: &[String], widths: &[usize]) -> String {
    Table::fixed(widths, " ").block(&[cells.to_vec()])
}

/// A member's partitions as Kafka's tool lists them: `topic:0,1;other:2`.
fn assignment_text(m: &fjord_protocol::generated::share_group_describe_response::Member) -> String {
    let mut by_topic: BTreeMap<&str, Vec<i32>> = BTreeMap::new();
    for t in &m.assignment.topic_partitions {
        by_topic
            .entry(t.topic_name.as_str())
            .or_default()
            .extend(t.partitions.iter().copied());
    }
    by_topic
        .into_iter()
        .map(|(t, mut ps)| {
            ps.sort();
            let list: Vec<String> = ps.iter().map(|p| p.to_string()).collect();
            format!("{t}:{}", list.join(","))
        })
        .collect::<Vec<_>>()
        .join(";")
}

/// `--describe --members`: each member's ids, host, partition count and assignment (with
/// `--verbose` its epoch); `None` when the group has no members to show (its note printed).
fn members_text(
    a: &Args,
    group: &str,
    glen: usize,
    d: &fjord_protocol::generated::share_group_describe_response::DescribedGroup,
) -> Option<String> {
    let mut members: Vec<_> = d.members.iter().collect();
    members.sort_by(|x, y| x.member_id.cmp(&y.member_id));
    if !empty_group_note(group, &d.group_state, members.len()) {
        return None;
    }
    let w = |f: fn(&fjord_protocol::generated::share_group_describe_response::Member) -> usize| {
        members.iter().map(|m| f(m)).max().unwrap_or(0).max(15)
    };
    let (idw, hw, cw) = (
        w(|m| m.member_id.len()),
        w(|m| m.client_host.len()),
        w(|m| m.client_id.len()),
    );
    // Kafka's columns; --verbose adds MEMBER-EPOCH before ASSIGNMENT.
    let mut widths = vec![glen, idw, hw, cw, 12];
    let mut header: Vec<String> = ["GROUP", "CONSUMER-ID", "HOST", "CLIENT-ID", "#PARTITIONS"]
        .map(String::from)
        .to_vec();
    if a.g.verbose {
        widths.push(13);
        header.push("MEMBER-EPOCH".into());
    }
    header.push("ASSIGNMENT".into());
    let mut out = row(&header, &widths);
    for m in &members {
        let n: usize = m
            .assignment
            .topic_partitions
            .iter()
            .map(|t| t.partitions.len())
            .sum();
        let mut cells = vec![
            group.to_string(),
            m.member_id.clone(),
            m.client_host.clone(),
            m.client_id.clone(),
            n.to_string(),
        ];
        if a.g.verbose {
            cells.push(m.member_epoch.to_string());
        }
        cells.push(assignment_text(m));
        out.push_str(&row(&cells, &widths));
    }
    Some(out)
}

/// `--describe --state`: the group's coordinator, state and size (with `--verbose` its
/// epochs).
fn state_text(
    a: &Args,
    group: &str,
    glen: usize,
    coordinator: &str,
    d: &fjord_protocol::generated::share_group_describe_response::DescribedGroup,
) -> String {
    empty_group_note(group, &d.group_state, 1);
    let clen = coordinator.len().max(25);
    if a.g.verbose {
        let widths = [glen, clen, 15, 12, 17];
        let mut s = row(
            &[
                "GROUP",
                "COORDINATOR (ID)",
                "STATE",
                "GROUP-EPOCH",
                "ASSIGNMENT-EPOCH",
                "#MEMBERS",
            ]
            .map(String::from),
            &widths,
        );
        s.push_str(&row(
            &[
                group.to_string(),
                coordinator.to_string(),
                d.group_state.clone(),
                d.group_epoch.to_string(),
                d.assignment_epoch.to_string(),
                d.members.len().to_string(),
            ],
            &widths,
        ));
        s
    } else {
        let widths = [glen, clen, 15];
        let mut s = row(
            &["GROUP", "COORDINATOR (ID)", "STATE", "#MEMBERS"].map(String::from),
            &widths,
        );
        s.push_str(&row(
            &[
                group.to_string(),
                coordinator.to_string(),
                d.group_state.clone(),
                d.members.len().to_string(),
            ],
            &widths,
        ));
        s
    }
}

async fn describe(admin: &Admin, a: &Args, groups: &[String]) -> Result<(), ToolError> {
    let mut described = BTreeMap::new();
    for g in groups {
        match describe_group(admin, g).await {
            Ok(d) => {
                described.insert(g.clone(), d);
            }
            Err(e) => {
                // As Kafka 4.4's tool: the failure is printed, and the exit code is 0.
                println!(
                    "\nError: Executing share group command failed due to {}",
                    exception(&e)
                );
                return Ok(());
            }
        }
    }
    for (group, (coordinator, d)) in &described {
        let glen = group.len().max(15);
        if a.g.members {
            if let Some(out) = members_text(a, group, glen, d) {
                println!("{out}");
            }
        } else if a.g.state.is_some() {
            println!("{}", state_text(a, group, glen, coordinator, d));
        } else {
            let offsets = start_offsets(admin, group).await.map_err(|e| {
                ToolError::FailedStdout(format!(
                    "\nError: Executing share group command failed due to {}",
                    exception(&e)
                ))
            })?;
            if offsets.is_empty() {
                println!("\nShare group '{group}' has no offset information.");
                continue;
            }
            let tlen = offsets
                .keys()
                .map(|(t, _)| t.len())
                .max()
                .unwrap_or(0)
                .max(15);
            let dash = || "-".to_string();
            let text = |v: Option<i64>| v.map_or_else(dash, |v| v.to_string());
            // Kafka's columns; --verbose adds LEADER-EPOCH after PARTITION.
            let mut widths = vec![glen, tlen, 10];
            let mut header: Vec<String> =
                ["GROUP", "TOPIC", "PARTITION"].map(String::from).to_vec();
            if a.g.verbose {
                widths.push(13);
                header.push("LEADER-EPOCH".into());
            }
            widths.push(13);
            header.extend(["START-OFFSET".to_string(), "LAG".into()]);
            let mut out = row(&header, &widths);
            for ((t, p), (start, epoch, lag)) in &offsets {
                let mut cells = vec![group.clone(), t.clone(), p.to_string()];
                if a.g.verbose {
                    cells.push(text(epoch.map(i64::from)));
                }
                cells.extend([text(*start), text(*lag)]);
                out.push_str(&row(&cells, &widths));
            }
            println!("{out}");
        }
    }
    Ok(())
}

async fn delete(admin: &Admin, groups: &[String], all: bool) -> Result<(), ToolError> {
    let listing: BTreeMap<String, String> = listed(admin, &[]).await?.into_iter().collect();
    let mut failed: BTreeMap<String, String> = BTreeMap::new();
    let mut wanted: Vec<String> = Vec::new();
    for g in groups {
        if wanted.contains(g) {
            continue;
        }
        match listing.get(g) {
            None if !all => {
                failed.insert(
                    g.clone(),
                    format!("org.apache.kafka.common.errors.GroupIdNotFoundException: Group '{g}' is not a share group."),
                );
            }
            Some(s) if s == "Dead" => {
                failed.insert(
                    g.clone(),
                    format!(
                        "java.lang.IllegalStateException: Share group '{g}' group state is DEAD."
                    ),
                );
            }
            Some(s) if s != "Empty" => {
                failed.insert(
                    g.clone(),
                    format!("org.apache.kafka.common.errors.GroupNotEmptyException: Share group '{g}' is not EMPTY."),
                );
            }
            _ => wanted.push(g.clone()),
        }
    }
    let mut deleted = Vec::new();
    for g in &wanted {
        let result = delete_group(admin, g).await;
        match result {
            Ok(()) => deleted.push(format!("'{g}'")),
            Err(e) => {
                failed.insert(g.clone(), exception(&e));
            }
        }
    }
    if failed.is_empty() {
        println!(
            "Deletion of requested share groups ({}) was successful.",
            deleted.join(", ")
        );
        return Ok(());
    }
    println!("\nError: Deletion of some share groups failed:");
    for (g, e) in &failed {
        println!("* Group '{g}' could not be deleted due to: {e}");
    }
    if !deleted.is_empty() {
        println!(
            "\nThese share groups were deleted successfully: {}",
            deleted.join(", ")
        );
    }
    Ok(())
}

async fn delete_offsets(admin: &Admin, group: &str, topics: &[String]) -> Result<(), ToolError> {
    let names: BTreeSet<&String> = topics.iter().collect();
    let r = admin
        .retry(|| async {
            let r = admin
                .call_group(
                    group,
                    RequestBody::DeleteShareGroupOffsets(DeleteShareGroupOffsetsRequest {
                        group_id: group.to_string(),
                        topics: names
                            .iter()
                            .map(|t| DeleteShareGroupOffsetsRequestTopic {
                                topic_name: t.to_string(),
                                ..Default::default()
                            })
                            .collect(),
                        ..Default::default()
                    }),
                    0..=0,
                )
                .await?;
            let r = expect_response!(r, DeleteShareGroupOffsets)?;
            // A coordinator that moved is asked again; other top-level errors are answers.
            match AdminError::from_code(r.error_code, r.error_message.as_deref()) {
                Some(e) if e.is_retriable() => Err(e),
                _ => Ok(r),
            }
        })
        .await?;
    let top = AdminError::from_code(r.error_code, r.error_message.as_deref());
    let mut results: BTreeMap<String, Option<String>> = BTreeMap::new();
    if let Some(e) = &top {
        match e.code() {
            Some(
                ErrorCode::InvalidGroupId
                | ErrorCode::GroupIdNotFound
                | ErrorCode::GroupAuthorizationFailed
                | ErrorCode::NonEmptyGroup,
            ) => println!("\nError: {}", e.server_message()),
            Some(ErrorCode::TopicAuthorizationFailed | ErrorCode::UnknownTopicOrPartition) => {}
            _ => println!("\nError: Encounter some unknown error: {}", exception(e)),
        }
        // Every topic shares the group's error.
        for t in &names {
            results.insert(t.to_string(), Some(e.server_message()));
        }
    } else {
        for t in &r.responses {
            let error = AdminError::from_code(t.error_code, t.error_message.as_deref())
                .map(|e| e.server_message());
            results.insert(t.topic_name.clone(), error);
        }
    }
    let width = results.keys().map(String::len).max().unwrap_or(0).max(15);
    let mut rows = vec![vec!["TOPIC".to_string(), "STATUS".into()]];
    for (t, e) in &results {
        let status = e
            .as_ref()
            .map_or_else(|| "Successful".to_string(), |m| format!("Error: {m}"));
        rows.push(vec![t.clone(), status]);
    }
    println!("{}", Table::fixed(&[width], " ").block(&rows));
    Ok(())
}

async fn reset(admin: &Admin, a: &Args, group: &str) -> Result<(), ToolError> {
    let scenario = a.g.reset.scenario(
        Vec::new(),
        &[
            "to-offset",
            "to-datetime",
            "to-earliest",
            "to-latest",
            "to-current",
            "from-file",
        ],
    )?;
    if !a.g.reset.dry_run && !a.g.reset.execute {
        return Err(ToolError::Usage(
            "Option [reset-offsets] takes the option: [execute] or [dry-run]".into(),
        ));
    }
    let file = match &scenario {
        Scenario::File(path) => Some(offsets_file(path, group)?),
        _ => None,
    };
    if file.is_none() && a.g.topics.is_empty() != a.g.all_topics {
        return Err(ToolError::Usage(
            "Option [reset-offsets] takes one of these options: [all-topics], [topic]".into(),
        ));
    }
    match describe_group(admin, group).await {
        Ok((_, d)) if !matches!(d.group_state.as_str(), "Empty" | "Dead") => {
            return Err(ToolError::Failed(format!(
                "Share group '{group}' is not empty."
            )));
        }
        Ok(_) => {}
        Err(e) if e.code() == Some(ErrorCode::GroupIdNotFound) => {}
        Err(e) => return Err(e.into()),
    }
    let cluster = admin.retry(|| admin.refresh(None)).await?;
    let mut targets: Vec<(String, i32)> = Vec::new();
    if let Some(file) = &file {
        targets.extend(file.keys().cloned());
    } else if a.g.all_topics {
        let current = start_offsets(admin, group).await.unwrap_or_default();
        targets.extend(current.into_keys());
    } else {
        for spec in &a.g.topics {
            let (topic, parts) = topic_spec(spec)?;
            let parts = match (parts, cluster.topics.get(&topic)) {
                (Some(p), _) => p,
                (None, Some(k)) => k.partitions.iter().map(|p| p.partition).collect(),
                (None, None) => {
                    // As Kafka 4.4's tool: the failure on stdout, the exception on stderr,
                    // exit code 0.
                    let m = ErrorCode::UnknownTopicOrPartition.message();
                    println!("\nError: Executing share group command failed due to {m}");
                    eprintln!(
                        "org.apache.kafka.common.errors.UnknownTopicOrPartitionException: {m}"
                    );
                    return Ok(());
                }
            };
            targets.extend(parts.into_iter().map(|p| (topic.clone(), p)));
        }
    }
    // Every partition must exist (Kafka's checkAllTopicPartitionsValid).
    let missing: Vec<String> = targets
        .iter()
        .filter(|(t, p)| {
            !cluster
                .topics
                .get(t)
                .is_some_and(|k| k.partitions.iter().any(|x| x.partition == *p))
        })
        .map(|(t, p)| format!("{t}-{p}"))
        .collect();
    if !missing.is_empty() {
        return Err(ToolError::Failed(format!(
            "Error: Executing share group command failed due to The partitions \"{}\" do not exist",
            missing.join(",")
        )));
    }
    let current = if scenario == Scenario::Current {
        start_offsets(admin, group).await.unwrap_or_default()
    } else {
        StartOffsets::new()
    };
    let start_of = |t: &str, p: i32| current.get(&(t.to_string(), p)).and_then(|(s, ..)| *s);
    let new = new_offsets(
        admin,
        &targets,
        &scenario,
        start_of,
        &file.unwrap_or_default(),
    )
    .await?;
    if a.g.reset.execute && !a.g.reset.dry_run {
        let mut by_topic: BTreeMap<&str, Vec<AlterShareGroupOffsetsRequestPartition>> =
            BTreeMap::new();
        for ((t, p), o) in &new {
            by_topic
                .entry(t)
                .or_default()
                .push(AlterShareGroupOffsetsRequestPartition {
                    partition_index: *p,
                    start_offset: *o,
                    ..Default::default()
                });
        }
        let request = AlterShareGroupOffsetsRequest {
            group_id: group.to_string(),
            topics: by_topic
                .into_iter()
                .map(|(t, partitions)| AlterShareGroupOffsetsRequestTopic {
                    topic_name: t.to_string(),
                    partitions,
                    ..Default::default()
                })
                .collect(),
            ..Default::default()
        };
        admin
            .retry(|| async {
                let r = admin
                    .call_group(
                        group,
                        RequestBody::AlterShareGroupOffsets(request.clone()),
                        0..=0,
                    )
                    .await?;
                let r = expect_response!(r, AlterShareGroupOffsets)?;
                AdminError::check(r.error_code, r.error_message.as_deref())?;
                for t in &r.responses {
                    for p in &t.partitions {
                        AdminError::check(p.error_code, p.error_message.as_deref())?;
                    }
                }
                Ok(())
            })
            .await
            .map_err(|e| {
                ToolError::FailedStdout(format!(
                    "\nError: Executing share group command failed due to {}",
                    exception(&e)
                ))
            })?;
    }
    println!("{}", reset_text(group, &new, a.g.reset.export, false));
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rows_are_kafkas_printf() {
        let widths = [15, 15, 10, 13];
        assert_eq!(
            row(
                &["GROUP", "TOPIC", "PARTITION", "START-OFFSET", "LAG"].map(String::from),
                &widths
            ),
            "\nGROUP           TOPIC           PARTITION  START-OFFSET  LAG"
        );
    }
}
