//! StreamsGroupDescribe and StreamsGroupTopologyDescriptionUpdate on a shard: a streams
//! group as its records and the topics show it (state, epochs, topology with the partition
//! counts the broker decided, members with their tasks and targets), and the answer to a
//! topology description push (fjord keeps no description plugin, as Kafka 4.4 by default).

use super::assignor::TaskId;
use super::coordinator::StreamsRuntime;
use crate::consumer::TopicSource;
use crate::shard::Shard;
use fjord_protocol::generated::streams_group_describe_response::{
    Assignment, DescribedGroup, Endpoint, KeyValue, Member, Subtopology, TaskIds, TaskOffset,
    TopicInfo, Topology,
};
use fjord_protocol::generated::streams_group_topology_description_update_request::StreamsGroupTopologyDescriptionUpdateRequest as UpdateRequest;
use fjord_protocol::ErrorCode;
use std::collections::{BTreeMap, BTreeSet};

/// The assignor every streams group uses (`group.streams.assignors`).
pub const STICKY_ASSIGNOR: &str = "sticky";

fn task_ids(tasks: &BTreeSet<TaskId>) -> Vec<TaskIds> {
    super::convert::grouped(tasks)
        .into_iter()
        .map(|(subtopology_id, partitions)| TaskIds {
            subtopology_id,
            partitions,
            ..Default::default()
        })
        .collect()
}

fn assignment(t: &super::assignor::Tasks) -> Assignment {
    Assignment {
        active_tasks: task_ids(&t.active),
        standby_tasks: task_ids(&t.standby),
        warmup_tasks: task_ids(&t.warmup),
        ..Default::default()
    }
}

fn offsets(o: Option<&BTreeMap<TaskId, i64>>) -> Vec<TaskOffset> {
    o.into_iter()
        .flatten()
        .map(|((s, p), off)| TaskOffset {
            subtopology_id: s.clone(),
            partition: *p,
            offset: *off,
            ..Default::default()
        })
        .collect()
}

impl Shard {
    /// Whether the streams group's topology is ready, as last configured (else: whether it
    /// has a topology and a target, as after a reload).
    fn streams_ready(&self, id: &str) -> bool {
        let fold = self.streams_group(id);
        self.streams_runtime
            .get(id)
            .and_then(StreamsRuntime::configured_ready)
            .unwrap_or_else(|| {
                fold.is_some_and(|g| g.target_epoch.is_some() && g.topology.is_some())
            })
    }

    /// The streams groups by state (Kafka's state names).
    pub(crate) fn streams_by_state(&self) -> std::collections::BTreeMap<&'static str, usize> {
        let mut by = std::collections::BTreeMap::new();
        for (id, g) in &self.streams_groups.groups {
            *by.entry(g.state_name(self.streams_ready(id))).or_insert(0) += 1;
        }
        by
    }

    /// The streams groups ListGroups shows: those in one of `states` (any when empty).
    pub(crate) fn list_streams_groups(
        &self,
        states: &[String],
    ) -> Vec<fjord_protocol::generated::list_groups_response::ListedGroup> {
        self.streams_groups
            .groups
            .iter()
            .map(|(id, g)| (id, g.state_name(self.streams_ready(id))))
            .filter(|(_, state)| {
                states.is_empty() || states.iter().any(|s| s.eq_ignore_ascii_case(state))
            })
            .map(
                |(id, state)| fjord_protocol::generated::list_groups_response::ListedGroup {
                    group_id: id.clone(),
                    protocol_type: super::coordinator::STREAMS.into(),
                    group_state: state.into(),
                    group_type: super::coordinator::STREAMS.into(),
                    ..Default::default()
                },
            )
            .collect()
    }

    /// Deletes an empty streams group: the tombstones of its records and offsets.
    /// Err(NON_EMPTY_GROUP) while it has members; None when `id` is not a streams group.
    pub(crate) fn delete_streams_group(
        &mut self,
        id: &str,
        out: &mut crate::shard::Output,
    ) -> Option<ErrorCode> {
        let g = self.streams_group(id)?;
        if !g.members.is_empty() {
            return Some(ErrorCode::NonEmptyGroup);
        }
        use super::records::StreamsRecord as R;
        let mut records: Vec<R> = Vec::new();
        for m in g.target.keys() {
            records.push(R::TargetMember(id.into(), m.clone(), None));
        }
        for m in g.current.keys() {
            records.push(R::Current(id.into(), m.clone(), None));
        }
        if g.target_epoch.is_some() {
            records.push(R::Target(id.into(), None));
        }
        if g.topology.is_some() {
            records.push(R::Topology(id.into(), None));
        }
        records.push(R::Metadata(id.into(), None));
        for r in records {
            self.streams_groups.replay(r.clone());
            out.records.push(crate::records::GroupRecord::Streams(r));
        }
        self.streams_runtime.remove(id);
        if let Some(classic) = self.groups.remove(id) {
            for (topic, partition) in classic.offsets.keys() {
                out.records.push(crate::records::GroupRecord::Offset {
                    group: id.into(),
                    topic: topic.clone(),
                    partition: *partition,
                    value: None,
                });
            }
        }
        Some(ErrorCode::None)
    }

    /// StreamsGroupDescribe of one group (GROUP_ID_NOT_FOUND for an unknown group or one of
    /// another kind).
    pub fn describe_streams_group(&self, id: &str, topics: &dyn TopicSource) -> DescribedGroup {
        let Some(g) = self.streams_group(id) else {
            let message = if self
                .groups
                .get(id)
                .is_some_and(|g| g.protocol_type.is_some())
                || self.consumer_group(id).is_some()
                || self.share_group(id).is_some()
            {
                format!("Group {id} is not a streams group.")
            } else {
                format!("Group {id} not found.")
            };
            return DescribedGroup {
                error_code: ErrorCode::GroupIdNotFound.code(),
                error_message: Some(message),
                group_id: id.into(),
                authorized_operations: i32::MIN,
                ..Default::default()
            };
        };
        let runtime: Option<&StreamsRuntime> = self.streams_runtime.get(id);
        let decided = |name: &str, declared: i32| {
            if declared > 0 {
                declared
            } else {
                topics.topic(name).map_or(0, |(_, n)| n)
            }
        };
        let topology = g.topology.as_ref().map(|t| Topology {
            epoch: t.epoch,
            subtopologies: Some(
                t.subtopologies
                    .iter()
                    .map(|s| {
                        let info = |i: &fjord_protocol::generated::streams_group_topology_value::TopicInfo| TopicInfo {
                            name: i.name.clone(),
                            partitions: decided(&i.name, i.partitions),
                            replication_factor: i.replication_factor,
                            topic_configs: i
                                .topic_configs
                                .iter()
                                .map(|c| KeyValue {
                                    key: c.key.clone(),
                                    value: c.value.clone(),
                                    ..Default::default()
                                })
                                .collect(),
                            ..Default::default()
                        };
                        Subtopology {
                            subtopology_id: s.subtopology_id.clone(),
                            source_topics: s.source_topics.clone(),
                            repartition_sink_topics: s.repartition_sink_topics.clone(),
                            state_changelog_topics: s
                                .state_changelog_topics
                                .iter()
                                .map(info)
                                .collect(),
                            repartition_source_topics: s
                                .repartition_source_topics
                                .iter()
                                .map(info)
                                .collect(),
                            ..Default::default()
                        }
                    })
                    .collect(),
            ),
            ..Default::default()
        });
        let ready = self.streams_ready(id);
        DescribedGroup {
            group_id: id.into(),
            group_state: g.state_name(ready).into(),
            group_epoch: g.group_epoch(),
            assignment_epoch: g.assignment_epoch(),
            topology,
            members: g
                .members
                .iter()
                .map(|(mid, m)| {
                    let c = g.current_of(mid);
                    let reported = runtime.and_then(|rt| rt.reported(mid));
                    Member {
                        member_id: mid.clone(),
                        member_epoch: c.member_epoch,
                        instance_id: m.instance_id.clone(),
                        rack_id: m.rack_id.clone(),
                        client_id: m.client_id.clone(),
                        client_host: m.client_host.clone(),
                        topology_epoch: m.topology_epoch,
                        process_id: m.process_id.clone(),
                        user_endpoint: m.user_endpoint.as_ref().map(|e| Endpoint {
                            host: e.host.clone(),
                            port: e.port,
                            ..Default::default()
                        }),
                        client_tags: m
                            .client_tags
                            .iter()
                            .map(|t| KeyValue {
                                key: t.key.clone(),
                                value: t.value.clone(),
                                ..Default::default()
                            })
                            .collect(),
                        task_offsets: offsets(reported.map(|r| &r.0)),
                        task_end_offsets: offsets(reported.map(|r| &r.1)),
                        assignment: assignment(&c.assigned),
                        target_assignment: assignment(&g.target_of(mid)),
                        is_classic: false,
                        ..Default::default()
                    }
                })
                .collect(),
            authorized_operations: i32::MIN,
            assignor_name: Some(STICKY_ASSIGNOR.into()),
            ..Default::default()
        }
    }

    /// StreamsGroupTopologyDescriptionUpdate: fjord has no topology description plugin
    /// (Kafka's `group.streams.topology.description.plugin.class`, unset by default), so a
    /// push is refused as Kafka 4.4 refuses it then: UNSUPPORTED_VERSION, whatever the group.
    pub fn streams_topology_update(&self, r: &UpdateRequest) -> (ErrorCode, String) {
        if !self.config.streams_topology_plugin {
            // Kafka 4.4 answers this before looking at the group.
            return (
                ErrorCode::UnsupportedVersion,
                "The broker has no streams group topology description plugin configured.".into(),
            );
        }
        let Some(g) = self.streams_group(&r.group_id) else {
            return (
                ErrorCode::GroupIdNotFound,
                format!("Streams group {} not found.", r.group_id),
            );
        };
        if !g.members.contains_key(&r.member_id) {
            return (
                ErrorCode::UnknownMemberId,
                format!(
                    "Member {} is not a member of group {}.",
                    r.member_id, r.group_id
                ),
            );
        }
        (
            ErrorCode::StreamsTopologyDescriptionUpdateFailed,
            "The broker has no streams group topology description plugin configured.".into(),
        )
    }
}
