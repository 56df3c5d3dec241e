//! Operations several tools share, each one request pattern with its routing and retries:
//! a partition's leader, ListOffsets at the leader, a consumer group's committed offsets and
//! commits at its coordinator, IncrementalAlterConfigs and ListPartitionReassignments at the
//! controller.

use crate::{expect_response, Admin, AdminError};
use fjord_protocol::generated::{
    incremental_alter_configs_request::{AlterConfigsResource, IncrementalAlterConfigsRequest},
    list_offsets_request::{ListOffsetsPartition, ListOffsetsRequest, ListOffsetsTopic},
    offset_commit_request::{
        OffsetCommitRequest, OffsetCommitRequestPartition, OffsetCommitRequestTopic,
    },
    offset_fetch_request::{OffsetFetchRequest, OffsetFetchRequestTopic},
};
use fjord_protocol::{ErrorCode, RequestBody, ResponseBody};
use std::collections::BTreeMap;
use std::ops::RangeInclusive;

/// ListOffsets' timestamp for the earliest offset.
pub const EARLIEST: i64 = -2;
/// ListOffsets' timestamp for the latest offset.
pub const LATEST: i64 = -1;

/// A partition's reassignment under way, as ListPartitionReassignments tells it.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Reassignment {
    /// Its replicas now (the target and those being removed).
    pub replicas: Vec<i32>,
    /// The replicas being added.
    pub adding: Vec<i32>,
    /// The replicas being removed.
    pub removing: Vec<i32>,
}

/// Committed offsets by (topic, partition).
pub type GroupOffsets = BTreeMap<(String, i32), i64>;

impl Admin {
    /// The leader of `topic`-`partition` in the cluster view (LEADER_NOT_AVAILABLE when it has
    /// none, which a retry looks up again).
    pub async fn leader(&self, topic: &str, partition: i32) -> Result<i32, AdminError> {
        let c = self.cluster().await?;
        c.topics
            .get(topic)
            .and_then(|t| t.partitions.iter().find(|p| p.partition == partition))
            .map(|p| p.leader)
            .filter(|l| *l >= 0)
            .ok_or_else(|| AdminError::Kafka {
                code: ErrorCode::LeaderNotAvailable,
                message: format!("{topic}-{partition} has no leader"),
            })
    }

    /// The cluster view once `topic` is in it with its partitions (retried: a topic just
    /// created reaches every broker's metadata a little later).
    pub async fn topic_view(
        &self,
        topic: &str,
    ) -> Result<std::sync::Arc<crate::ClusterInfo>, AdminError> {
        let topics = [topic.to_string()];
        self.retry(|| async {
            let c = self.refresh(Some(&topics)).await?;
            match c.topics.get(topic) {
                Some(t) if !t.partitions.is_empty() => Ok(c),
                // Not retried: the topic is there, the principal may not see it.
                Some(t) if t.error_code == ErrorCode::TopicAuthorizationFailed.code() => {
                    Err(AdminError::Kafka {
                        code: ErrorCode::TopicAuthorizationFailed,
                        message: format!("Not authorized to access topics: [{topic}]"),
                    })
                }
                _ => Err(AdminError::Kafka {
                    code: ErrorCode::UnknownTopicOrPartition,
                    message: format!("Topic {topic} not present in metadata"),
                }),
            }
        })
        .await
    }

    /// The offset `timestamp` ([`EARLIEST`], [`LATEST`] or a time) names for
    /// `topic`-`partition`, asked of its leader.
    pub async fn list_offset(
        &self,
        topic: &str,
        partition: i32,
        timestamp: i64,
    ) -> Result<i64, AdminError> {
        self.retry(|| async {
            let leader = self.leader(topic, partition).await?;
            let r = self
                .call_broker(
                    leader,
                    RequestBody::ListOffsets(ListOffsetsRequest {
                        replica_id: -1,
                        topics: vec![ListOffsetsTopic {
                            name: topic.to_string(),
                            partitions: vec![ListOffsetsPartition {
                                partition_index: partition,
                                current_leader_epoch: -1,
                                timestamp,
                                ..Default::default()
                            }],
                            ..Default::default()
                        }],
                        ..Default::default()
                    }),
                    1..=8,
                )
                .await?;
            let r = expect_response!(r, ListOffsets)?;
            let p = r
                .topics
                .first()
                .and_then(|t| t.partitions.first())
                .ok_or_else(|| AdminError::Protocol("no partition in the answer".into()))?;
            AdminError::check(p.error_code, None).map(|()| p.offset)
        })
        .await
    }

    /// Sends `body` once to the coordinator of consumer group `group`.
    pub async fn call_group(
        &self,
        group: &str,
        body: RequestBody,
        versions: RangeInclusive<i16>,
    ) -> Result<ResponseBody, AdminError> {
        let at = self.group_coordinator(group).await?;
        self.call_at(&at, body, versions).await
    }

    /// The group's committed offsets: of `topic`'s `partitions`, or of every topic when
    /// `topic` is `None`.
    pub async fn group_offsets(
        &self,
        group: &str,
        topic: Option<(&str, &[i32])>,
    ) -> Result<GroupOffsets, AdminError> {
        let topics = topic.map(|(name, partitions)| {
            vec![OffsetFetchRequestTopic {
                name: name.to_string(),
                partition_indexes: partitions.to_vec(),
                ..Default::default()
            }]
        });
        self.retry(|| async {
            let r = self
                .call_group(
                    group,
                    RequestBody::OffsetFetch(OffsetFetchRequest {
                        group_id: group.to_string(),
                        topics: topics.clone(),
                        ..Default::default()
                    }),
                    2..=7,
                )
                .await?;
            let r = expect_response!(r, OffsetFetch)?;
            if let Some(e) = AdminError::from_code(r.error_code, None) {
                return Err(e);
            }
            Ok(r.topics
                .iter()
                .flat_map(|t| {
                    t.partitions
                        .iter()
                        .filter(|p| p.error_code == 0 && p.committed_offset >= 0)
                        .map(|p| ((t.name.clone(), p.partition_index), p.committed_offset))
                })
                .collect())
        })
        .await
    }

    /// Commits `offsets` for the group outside any generation (Kafka's simple-consumer and
    /// admin commit: the group must have no members).
    pub async fn commit_group_offsets(
        &self,
        group: &str,
        offsets: &GroupOffsets,
    ) -> Result<(), AdminError> {
        self.commit_group_offsets_as(group, -1, "", offsets).await
    }

    /// Commits `offsets` for the group as member `member_id` of `generation` (-1 and "" for a
    /// commit outside any generation).
    pub async fn commit_group_offsets_as(
        &self,
        group: &str,
        generation: i32,
        member_id: &str,
        offsets: &GroupOffsets,
    ) -> Result<(), AdminError> {
        let mut by_topic: BTreeMap<&str, Vec<OffsetCommitRequestPartition>> = BTreeMap::new();
        for ((t, p), o) in offsets {
            by_topic
                .entry(t)
                .or_default()
                .push(OffsetCommitRequestPartition {
                    partition_index: *p,
                    committed_offset: *o,
                    committed_leader_epoch: -1,
                    ..Default::default()
                });
        }
        let topics: Vec<OffsetCommitRequestTopic> = by_topic
            .into_iter()
            .map(|(name, partitions)| OffsetCommitRequestTopic {
                name: name.to_string(),
                partitions,
                ..Default::default()
            })
            .collect();
        self.retry(|| async {
            let r = self
                .call_group(
                    group,
                    RequestBody::OffsetCommit(OffsetCommitRequest {
                        group_id: group.to_string(),
                        generation_id_or_member_epoch: generation,
                        member_id: member_id.to_string(),
                        retention_time_ms: -1,
                        topics: topics.clone(),
                        ..Default::default()
                    }),
                    2..=8,
                )
                .await?;
            let r = expect_response!(r, OffsetCommit)?;
            for p in r.topics.iter().flat_map(|t| t.partitions.iter()) {
                if let Some(e) = AdminError::from_code(p.error_code, None) {
                    return Err(e);
                }
            }
            Ok(())
        })
        .await
    }

    /// IncrementalAlterConfigs for `resources` at the controller; the first resource's error
    /// fails it.
    pub async fn incremental_alter_configs(
        &self,
        resources: Vec<AlterConfigsResource>,
    ) -> Result<(), AdminError> {
        self.retry(|| async {
            let r = self
                .call_controller(
                    RequestBody::IncrementalAlterConfigs(IncrementalAlterConfigsRequest {
                        resources: resources.clone(),
                        ..Default::default()
                    }),
                    0..=1,
                )
                .await?;
            let r = expect_response!(r, IncrementalAlterConfigs)?;
            for x in &r.responses {
                if let Some(e) = AdminError::from_code(x.error_code, x.error_message.as_deref()) {
                    return Err(e);
                }
            }
            Ok(())
        })
        .await
    }

    /// The reassignments under way (of `only`'s partitions, else all), by (topic, partition):
    /// ListPartitionReassignments at the controller.
    pub async fn list_partition_reassignments(
        &self,
        only: Option<&std::collections::BTreeSet<(String, i32)>>,
    ) -> Result<BTreeMap<(String, i32), Reassignment>, AdminError> {
        use fjord_protocol::generated::list_partition_reassignments_request::{
            ListPartitionReassignmentsRequest, ListPartitionReassignmentsTopics,
        };
        let topics = only.map(|parts| {
            let mut by_topic: BTreeMap<&str, Vec<i32>> = BTreeMap::new();
            for (t, p) in parts {
                by_topic.entry(t).or_default().push(*p);
            }
            by_topic
                .into_iter()
                .map(|(t, ps)| ListPartitionReassignmentsTopics {
                    name: t.to_string(),
                    partition_indexes: ps,
                    ..Default::default()
                })
                .collect()
        });
        let body = RequestBody::ListPartitionReassignments(ListPartitionReassignmentsRequest {
            timeout_ms: 60_000,
            topics,
            ..Default::default()
        });
        let r = self
            .retry(|| async {
                let r = self.call_controller(body.clone(), 0..=0).await?;
                let r = expect_response!(r, ListPartitionReassignments)?;
                AdminError::check(r.error_code, r.error_message.as_deref())?;
                Ok(r)
            })
            .await?;
        Ok(r.topics
            .into_iter()
            .flat_map(|t| {
                let name = t.name;
                t.partitions.into_iter().map(move |p| {
                    (
                        (name.clone(), p.partition_index),
                        Reassignment {
                            replicas: p.replicas,
                            adding: p.adding_replicas,
                            removing: p.removing_replicas,
                        },
                    )
                })
            })
            .collect())
    }
}
