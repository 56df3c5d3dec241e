//! Conversions between the wire and record forms of a streams group's tasks and topology and
//! the coordinator's own ([`Tasks`], [`Current`], [`SubtopologySpec`]).

use super::assignor::{TaskId, Tasks};
use super::reconcile::{Current, MemberState};
use super::topology::{CopartitionGroup, SubtopologySpec, TopicInfo};
use fjord_protocol::generated::{
    streams_group_current_member_assignment_value as current,
    streams_group_heartbeat_request as hb, streams_group_target_assignment_member_value as target,
    streams_group_topology_value as topo,
};
use std::collections::{BTreeMap, BTreeSet};

/// Tasks grouped by subtopology, partitions in order: (subtopology, partitions).
pub fn grouped(tasks: &BTreeSet<TaskId>) -> Vec<(String, Vec<i32>)> {
    let mut by: BTreeMap<&str, Vec<i32>> = BTreeMap::new();
    for (s, p) in tasks {
        by.entry(s).or_default().push(*p);
    }
    by.into_iter().map(|(s, ps)| (s.to_string(), ps)).collect()
}

/// Task ids from (subtopology, partitions) lists.
pub fn ungrouped<'a>(lists: impl IntoIterator<Item = (&'a str, &'a [i32])>) -> BTreeSet<TaskId> {
    lists
        .into_iter()
        .flat_map(|(s, ps)| ps.iter().map(move |p| (s.to_string(), *p)))
        .collect()
}

/// A heartbeat's task list as task ids.
pub fn from_request(list: &[hb::TaskIds]) -> BTreeSet<TaskId> {
    ungrouped(
        list.iter()
            .map(|t| (t.subtopology_id.as_str(), t.partitions.as_slice())),
    )
}

fn record_ids(tasks: &BTreeSet<TaskId>) -> Vec<current::TaskIds> {
    grouped(tasks)
        .into_iter()
        .map(|(subtopology_id, partitions)| current::TaskIds {
            subtopology_id,
            partitions,
            ..Default::default()
        })
        .collect()
}

/// Active tasks as the record lists them, each with the epoch it was given at (Kafka's
/// AssignmentEpochs, as long as Partitions).
fn active_record_ids(tasks: &BTreeSet<TaskId>, c: &Current) -> Vec<current::TaskIds> {
    let mut ids = record_ids(tasks);
    for t in &mut ids {
        let epochs = t
            .partitions
            .iter()
            .map(|p| {
                let task = (t.subtopology_id.clone(), *p);
                c.active_epoch(&task).unwrap_or(c.member_epoch)
            })
            .collect();
        t.assignment_epochs = Some(epochs);
    }
    ids
}

fn from_record(list: &[current::TaskIds]) -> BTreeSet<TaskId> {
    ungrouped(
        list.iter()
            .map(|t| (t.subtopology_id.as_str(), t.partitions.as_slice())),
    )
}

/// The epochs a record gives its active tasks (none for a list written without them).
fn epochs_of(list: &[current::TaskIds]) -> impl Iterator<Item = (TaskId, i32)> + '_ {
    list.iter().flat_map(|t| {
        let epochs = t.assignment_epochs.as_deref().unwrap_or_default();
        t.partitions
            .iter()
            .zip(epochs)
            .map(|(p, e)| ((t.subtopology_id.clone(), *p), *e))
    })
}

/// A current-assignment record's value.
pub fn current_value(c: &Current) -> current::StreamsGroupCurrentMemberAssignmentValue {
    current::StreamsGroupCurrentMemberAssignmentValue {
        member_epoch: c.member_epoch,
        previous_member_epoch: c.previous_member_epoch,
        state: c.state.code(),
        active_tasks: active_record_ids(&c.assigned.active, c),
        standby_tasks: record_ids(&c.assigned.standby),
        warmup_tasks: record_ids(&c.assigned.warmup),
        active_tasks_pending_revocation: active_record_ids(&c.revoking.active, c),
        standby_tasks_pending_revocation: record_ids(&c.revoking.standby),
        warmup_tasks_pending_revocation: record_ids(&c.revoking.warmup),
        ..Default::default()
    }
}

/// A current-assignment record's value as the coordinator's state.
pub fn current_of(v: &current::StreamsGroupCurrentMemberAssignmentValue) -> Current {
    Current {
        member_epoch: v.member_epoch,
        previous_member_epoch: v.previous_member_epoch,
        state: MemberState::from_code(v.state),
        assigned: Tasks {
            active: from_record(&v.active_tasks),
            standby: from_record(&v.standby_tasks),
            warmup: from_record(&v.warmup_tasks),
        },
        revoking: Tasks {
            active: from_record(&v.active_tasks_pending_revocation),
            standby: from_record(&v.standby_tasks_pending_revocation),
            warmup: from_record(&v.warmup_tasks_pending_revocation),
        },
        active_epochs: epochs_of(&v.active_tasks)
            .chain(epochs_of(&v.active_tasks_pending_revocation))
            .collect(),
    }
}

fn target_ids(tasks: &BTreeSet<TaskId>) -> Vec<target::TaskIds> {
    grouped(tasks)
        .into_iter()
        .map(|(subtopology_id, partitions)| target::TaskIds {
            subtopology_id,
            partitions,
            ..Default::default()
        })
        .collect()
}

/// A target-assignment record's value.
pub fn target_value(t: &Tasks) -> target::StreamsGroupTargetAssignmentMemberValue {
    target::StreamsGroupTargetAssignmentMemberValue {
        active_tasks: target_ids(&t.active),
        standby_tasks: target_ids(&t.standby),
        warmup_tasks: target_ids(&t.warmup),
        ..Default::default()
    }
}

/// A target-assignment record's value as tasks.
pub fn target_of(v: &target::StreamsGroupTargetAssignmentMemberValue) -> Tasks {
    let ids = |l: &[target::TaskIds]| {
        ungrouped(
            l.iter()
                .map(|t| (t.subtopology_id.as_str(), t.partitions.as_slice())),
        )
    };
    Tasks {
        active: ids(&v.active_tasks),
        standby: ids(&v.standby_tasks),
        warmup: ids(&v.warmup_tasks),
    }
}

/// A heartbeat's topology as the topology record stores it.
pub fn topology_value(t: &hb::Topology) -> topo::StreamsGroupTopologyValue {
    let info = |i: &hb::TopicInfo| topo::TopicInfo {
        name: i.name.clone(),
        partitions: i.partitions,
        replication_factor: i.replication_factor,
        topic_configs: i
            .topic_configs
            .iter()
            .map(|c| topo::TopicConfig {
                key: c.key.clone(),
                value: c.value.clone(),
                ..Default::default()
            })
            .collect(),
        ..Default::default()
    };
    topo::StreamsGroupTopologyValue {
        epoch: t.epoch,
        subtopologies: t
            .subtopologies
            .iter()
            .map(|s| topo::Subtopology {
                subtopology_id: s.subtopology_id.clone(),
                source_topics: s.source_topics.clone(),
                source_topic_regex: s.source_topic_regex.clone(),
                state_changelog_topics: s.state_changelog_topics.iter().map(info).collect(),
                repartition_sink_topics: s.repartition_sink_topics.clone(),
                repartition_source_topics: s.repartition_source_topics.iter().map(info).collect(),
                copartition_groups: s
                    .copartition_groups
                    .iter()
                    .map(|g| topo::CopartitionGroup {
                        source_topics: g.source_topics.clone(),
                        source_topic_regex: g.source_topic_regex.clone(),
                        repartition_source_topics: g.repartition_source_topics.clone(),
                        ..Default::default()
                    })
                    .collect(),
                ..Default::default()
            })
            .collect(),
        ..Default::default()
    }
}

/// A stored topology as the topology configuration reads it.
pub fn specs(t: &topo::StreamsGroupTopologyValue) -> Vec<SubtopologySpec> {
    let info = |i: &topo::TopicInfo| TopicInfo {
        name: i.name.clone(),
        partitions: i.partitions,
        replication_factor: i.replication_factor,
        configs: i
            .topic_configs
            .iter()
            .map(|c| (c.key.clone(), c.value.clone()))
            .collect(),
    };
    t.subtopologies
        .iter()
        .map(|s| SubtopologySpec {
            id: s.subtopology_id.clone(),
            source_topics: s.source_topics.clone(),
            repartition_sink_topics: s.repartition_sink_topics.clone(),
            repartition_source_topics: s.repartition_source_topics.iter().map(info).collect(),
            state_changelog_topics: s.state_changelog_topics.iter().map(info).collect(),
            copartition_groups: s
                .copartition_groups
                .iter()
                .map(|g| CopartitionGroup {
                    source_topics: g.source_topics.clone(),
                    repartition_source_topics: g.repartition_source_topics.clone(),
                })
                .collect(),
        })
        .collect()
}
