//! A share group's offsets (KIP-932): DescribeShareGroupOffsets, AlterShareGroupOffsets and
//! DeleteShareGroupOffsets on the group's coordinator. The group's shard knows which
//! partitions have share-partition state; the state itself (start offset, leader epoch,
//! what is done with) is at the share coordinators, reached through the [`Persister`].
//!
//! - Describe: each share-partition's start offset and leader epoch from
//!   ReadShareGroupStateSummary; a partition without state answers start offset -1. The lag
//!   (v1) is the partition's high watermark (from its leader) less the start offset less the
//!   records at or above it already done with.
//! - Alter: the group must have no members (an unknown group is created empty, as Kafka does);
//!   each partition's state is initialized again at a new state epoch (the group epoch,
//!   bumped), which fences any leader still holding the old state.
//! - Delete: the group must have no members; each named topic's share-partition state is
//!   deleted and the group forgets it.

use crate::cluster::peers::Peers;
use crate::coordinator::group_coordinator::GroupCoordinator;
use crate::replica::replica_manager::ReplicaManager;
use crate::share::persister::{Persister, SharePartitionKey};
use fjord_group::share::Partitions;
use fjord_metadata::MetadataImage;
use fjord_protocol::generated::{
    alter_share_group_offsets_request::AlterShareGroupOffsetsRequest,
    alter_share_group_offsets_response::{
        AlterShareGroupOffsetsResponse, AlterShareGroupOffsetsResponsePartition,
        AlterShareGroupOffsetsResponseTopic,
    },
    delete_share_group_offsets_request::DeleteShareGroupOffsetsRequest,
    delete_share_group_offsets_response::{
        DeleteShareGroupOffsetsResponse, DeleteShareGroupOffsetsResponseTopic,
    },
    describe_share_group_offsets_request::{
        DescribeShareGroupOffsetsRequest, DescribeShareGroupOffsetsRequestGroup,
    },
    describe_share_group_offsets_response::{
        DescribeShareGroupOffsetsResponse, DescribeShareGroupOffsetsResponseGroup,
        DescribeShareGroupOffsetsResponsePartition, DescribeShareGroupOffsetsResponseTopic,
    },
    list_offsets_request::{ListOffsetsPartition, ListOffsetsRequest, ListOffsetsTopic},
};
use fjord_protocol::{ErrorCode, RequestBody, ResponseBody, Uuid};
use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::sync::Arc;

/// The most groups one DescribeShareGroupOffsets answers.
pub const MAX_GROUPS: usize = 1_000;
/// The most partitions one request names (the rest are answered with an error).
pub const MAX_PARTITIONS: usize = 100_000;
/// Kafka's message for an empty group id.
const INVALID_GROUP_ID: &str = "The group id is invalid.";
/// The ListOffsets version a coordinator asks leaders at.
const LIST_OFFSETS_VERSION: i16 = 7;
/// How long asking a leader for its end offsets may take.
const LIST_TIMEOUT: std::time::Duration = std::time::Duration::from_secs(10);

/// What the share offset requests need.
pub struct ShareOffsets<'a> {
    /// The group coordinator.
    pub groups: &'a Arc<GroupCoordinator>,
    /// The way to the share coordinators.
    pub persister: &'a Arc<Persister>,
    /// Connections to other brokers (end offsets for the lag).
    pub peers: &'a Peers,
    /// This broker's partitions.
    pub replicas: &'a Arc<ReplicaManager>,
    /// The metadata image.
    pub image: Arc<MetadataImage>,
}

fn message(code: ErrorCode) -> String {
    crate::api::groups::message(code)
}

impl ShareOffsets<'_> {
    /// The high watermark of each partition, from its leader (None where it did not answer).
    async fn end_offsets(&self, wanted: &BTreeSet<(Uuid, i32)>) -> HashMap<(Uuid, i32), i64> {
        let mut out = HashMap::new();
        let mut by_leader: BTreeMap<i32, Vec<(Uuid, i32)>> = BTreeMap::new();
        for (t, p) in wanted {
            let Some(reg) = self
                .image
                .topics
                .by_id
                .get(t)
                .and_then(|x| x.partitions.get(p))
            else {
                continue;
            };
            if reg.leader == self.replicas.node_id() {
                if let Some(part) = self.replicas.get(*t, *p) {
                    out.insert((*t, *p), part.log.high_watermark());
                }
            } else if reg.leader >= 0 {
                by_leader.entry(reg.leader).or_default().push((*t, *p));
            }
        }
        for (leader, parts) in by_leader {
            let mut topics: BTreeMap<String, Vec<i32>> = BTreeMap::new();
            let mut ids: HashMap<String, Uuid> = HashMap::new();
            for (t, p) in &parts {
                if let Some(topic) = self.image.topics.by_id.get(t) {
                    topics.entry(topic.name.clone()).or_default().push(*p);
                    ids.insert(topic.name.clone(), *t);
                }
            }
            let body = RequestBody::ListOffsets(ListOffsetsRequest {
                replica_id: -1,
                topics: topics
                    .into_iter()
                    .map(|(name, ps)| ListOffsetsTopic {
                        name,
                        partitions: ps
                            .into_iter()
                            .map(|p| ListOffsetsPartition {
                                partition_index: p,
                                current_leader_epoch: -1,
                                timestamp: -1,
                                ..Default::default()
                            })
                            .collect(),
                        ..Default::default()
                    })
                    .collect(),
                ..Default::default()
            });
            let answer = self
                .peers
                .call(
                    &self.image,
                    leader,
                    body,
                    LIST_OFFSETS_VERSION,
                    LIST_TIMEOUT,
                )
                .await;
            if let Some(ResponseBody::ListOffsets(r)) = answer {
                for t in r.topics {
                    let Some(id) = ids.get(&t.name) else { continue };
                    for p in t.partitions.into_iter().filter(|p| p.error_code == 0) {
                        out.insert((*id, p.partition_index), p.offset);
                    }
                }
            }
        }
        out
    }

    /// DescribeShareGroupOffsets.
    pub async fn describe(
        &self,
        r: &DescribeShareGroupOffsetsRequest,
        version: i16,
    ) -> DescribeShareGroupOffsetsResponse {
        let mut groups = Vec::new();
        for g in r.groups.iter().take(MAX_GROUPS) {
            groups.push(self.describe_group(g, version).await);
        }
        DescribeShareGroupOffsetsResponse {
            groups,
            ..Default::default()
        }
    }

    async fn describe_group(
        &self,
        g: &DescribeShareGroupOffsetsRequestGroup,
        version: i16,
    ) -> DescribeShareGroupOffsetsResponseGroup {
        let id = g.group_id.clone();
        let fail = |code: ErrorCode, m: String| DescribeShareGroupOffsetsResponseGroup {
            group_id: id.clone(),
            error_code: code.code(),
            error_message: Some(m),
            ..Default::default()
        };
        let read = self
            .groups
            .read(&self.image, &id, |s| {
                s.check_share_group(&id)
                    .map(|()| s.share_initialized_partitions(&id))
            })
            .await;
        let initialized = match read {
            Err(code) => return fail(code, message(code)),
            // An unknown group has no offsets (Kafka answers it without an error).
            Ok(Err((ErrorCode::GroupIdNotFound, m))) if m.ends_with("not found.") => {
                Partitions::new()
            }
            Ok(Err((code, m))) => return fail(code, m),
            Ok(Ok(p)) => p,
        };
        // The partitions asked about: those named, else every one with state.
        let mut wanted: Vec<(String, Option<Uuid>, Vec<i32>)> = Vec::new();
        match &g.topics {
            Some(topics) => {
                for t in topics {
                    let id = self.image.topics.get_by_name(&t.topic_name).map(|x| x.id);
                    wanted.push((t.topic_name.clone(), id, t.partitions.clone()));
                }
            }
            None => {
                for (t, ps) in &initialized {
                    if let Some(topic) = self.image.topics.by_id.get(t) {
                        wanted.push((topic.name.clone(), Some(*t), ps.iter().copied().collect()));
                    }
                }
            }
        }
        let with_state: BTreeSet<(Uuid, i32)> = wanted
            .iter()
            .filter_map(|(_, id, ps)| id.map(|id| (id, ps)))
            .flat_map(|(id, ps)| ps.iter().map(move |p| (id, *p)))
            .filter(|(t, p)| initialized.get(t).is_some_and(|s| s.contains(p)))
            .take(MAX_PARTITIONS)
            .collect();
        let ends = if version >= 1 {
            self.end_offsets(&with_state).await
        } else {
            HashMap::new()
        };
        let mut topics = Vec::new();
        for (name, topic_id, ps) in wanted {
            let mut partitions = Vec::new();
            for p in ps {
                let mut d = DescribeShareGroupOffsetsResponsePartition {
                    partition_index: p,
                    start_offset: -1,
                    leader_epoch: -1,
                    lag: -1,
                    ..Default::default()
                };
                let exists = topic_id.is_some_and(|t| {
                    self.image
                        .topics
                        .by_id
                        .get(&t)
                        .is_some_and(|x| x.partitions.contains_key(&p))
                });
                if !exists {
                    d.error_code = ErrorCode::UnknownTopicOrPartition.code();
                    d.error_message =
                        Some("This server does not host this topic-partition.".into());
                    partitions.push(d);
                    continue;
                }
                let t = topic_id.expect("checked above");
                if with_state.contains(&(t, p)) {
                    let key = SharePartitionKey {
                        group: id.clone(),
                        topic_id: t,
                        partition: p,
                    };
                    match self.persister.read_summary(&key).await {
                        Ok(s) => {
                            d.start_offset = s.start_offset;
                            d.leader_epoch = s.leader_epoch;
                            if let (Some(end), true) = (ends.get(&(t, p)), s.start_offset >= 0) {
                                if s.delivery_complete_count >= 0 {
                                    d.lag = (end
                                        - s.start_offset
                                        - i64::from(s.delivery_complete_count))
                                    .max(0);
                                }
                            }
                        }
                        Err(e) => {
                            d.error_code = e.code.code();
                            d.error_message = Some(e.message);
                        }
                    }
                }
                partitions.push(d);
            }
            topics.push(DescribeShareGroupOffsetsResponseTopic {
                topic_name: name,
                topic_id: topic_id.unwrap_or_default(),
                partitions,
                ..Default::default()
            });
        }
        DescribeShareGroupOffsetsResponseGroup {
            group_id: id,
            topics,
            ..Default::default()
        }
    }

    /// AlterShareGroupOffsets.
    pub async fn alter(&self, r: &AlterShareGroupOffsetsRequest) -> AlterShareGroupOffsetsResponse {
        let id = r.group_id.clone();
        let fail = |code: ErrorCode, m: String| AlterShareGroupOffsetsResponse {
            error_code: code.code(),
            error_message: Some(m),
            ..Default::default()
        };
        if id.is_empty() {
            return fail(ErrorCode::InvalidGroupId, INVALID_GROUP_ID.into());
        }
        let prepared = self
            .groups
            .apply(&self.image, &id, |s, _| {
                let mut out = fjord_group::Output::default();
                let r = s.prepare_share_offsets(&id, true, &mut out);
                (out, r)
            })
            .await;
        let state_epoch = match prepared {
            Err(code) => return fail(code, message(code)),
            Ok(Err((code, m))) => return fail(code, m),
            Ok(Ok(e)) => e,
        };
        let mut done = Partitions::new();
        let mut responses = Vec::new();
        for t in r.topics.iter() {
            let topic = self.image.topics.get_by_name(&t.topic_name);
            let mut partitions = Vec::new();
            for p in &t.partitions {
                let mut d = AlterShareGroupOffsetsResponsePartition {
                    partition_index: p.partition_index,
                    ..Default::default()
                };
                match topic.filter(|x| x.partitions.contains_key(&p.partition_index)) {
                    None => {
                        d.error_code = ErrorCode::UnknownTopicOrPartition.code();
                        d.error_message =
                            Some("This server does not host this topic-partition.".into());
                    }
                    Some(x) => {
                        let key = SharePartitionKey {
                            group: id.clone(),
                            topic_id: x.id,
                            partition: p.partition_index,
                        };
                        match self
                            .persister
                            .initialize(&key, state_epoch, p.start_offset)
                            .await
                        {
                            Ok(()) => {
                                done.entry(x.id).or_default().insert(p.partition_index);
                            }
                            Err(e) => {
                                d.error_code = e.code.code();
                                d.error_message = Some(e.message);
                            }
                        }
                    }
                }
                partitions.push(d);
            }
            responses.push(AlterShareGroupOffsetsResponseTopic {
                topic_name: t.topic_name.clone(),
                topic_id: topic.map(|x| x.id).unwrap_or_default(),
                partitions,
                ..Default::default()
            });
        }
        if !done.is_empty() {
            let recorded = self
                .groups
                .apply(&self.image, &id, |s, _| {
                    (s.share_offsets_set(&id, &done), ())
                })
                .await;
            if let Err(code) = recorded {
                return fail(code, message(code));
            }
        }
        AlterShareGroupOffsetsResponse {
            responses,
            ..Default::default()
        }
    }

    /// DeleteShareGroupOffsets.
    pub async fn delete(
        &self,
        r: &DeleteShareGroupOffsetsRequest,
    ) -> DeleteShareGroupOffsetsResponse {
        let id = r.group_id.clone();
        let fail = |code: ErrorCode, m: String| DeleteShareGroupOffsetsResponse {
            error_code: code.code(),
            error_message: Some(m),
            ..Default::default()
        };
        if id.is_empty() {
            return fail(ErrorCode::InvalidGroupId, INVALID_GROUP_ID.into());
        }
        let prepared = self
            .groups
            .apply(&self.image, &id, |s, _| {
                let mut out = fjord_group::Output::default();
                let r = s
                    .prepare_share_offsets(&id, false, &mut out)
                    .map(|_| s.share_initialized_partitions(&id));
                (out, r)
            })
            .await;
        let initialized = match prepared {
            Err(code) => return fail(code, message(code)),
            Ok(Err((code, m))) => return fail(code, m),
            Ok(Ok(p)) => p,
        };
        let mut deleted = Vec::new();
        let mut responses = Vec::new();
        for t in &r.topics {
            let topic = self.image.topics.get_by_name(&t.topic_name);
            let mut d = DeleteShareGroupOffsetsResponseTopic {
                topic_name: t.topic_name.clone(),
                topic_id: topic.map(|x| x.id).unwrap_or_default(),
                ..Default::default()
            };
            match topic.and_then(|x| initialized.get(&x.id).map(|ps| (x.id, ps))) {
                None => {
                    d.error_code = ErrorCode::UnknownTopicOrPartition.code();
                    d.error_message = Some(if topic.is_none() {
                        "This server does not host this topic-partition.".into()
                    } else {
                        format!("The group has no offsets for topic {}.", t.topic_name)
                    });
                }
                Some((topic_id, ps)) => {
                    let mut failed = None;
                    for p in ps {
                        let key = SharePartitionKey {
                            group: id.clone(),
                            topic_id,
                            partition: *p,
                        };
                        if let Err(e) = self.persister.delete(&key).await {
                            failed = Some(e);
                        }
                    }
                    match failed {
                        Some(e) => {
                            d.error_code = e.code.code();
                            d.error_message = Some(e.message);
                        }
                        None => deleted.push(topic_id),
                    }
                }
            }
            responses.push(d);
        }
        if !deleted.is_empty() {
            let recorded = self
                .groups
                .apply(&self.image, &id, |s, _| {
                    (s.share_offsets_deleted(&id, &deleted), ())
                })
                .await;
            if let Err(code) = recorded {
                return fail(code, message(code));
            }
        }
        DeleteShareGroupOffsetsResponse {
            responses,
            ..Default::default()
        }
    }
}
