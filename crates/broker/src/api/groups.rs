//! The group APIs on the broker listener: FindCoordinator (one key before v4, a batch from
//! v4; groups and transactional ids) and the requests a coordinator answers (JoinGroup,
//! SyncGroup, Heartbeat, LeaveGroup, OffsetCommit, TxnOffsetCommit, OffsetFetch,
//! OffsetDelete, DescribeGroups, ListGroups, DeleteGroups), each
//! routed to the shard of its group's `__consumer_offsets` partition. Routing errors
//! (NOT_COORDINATOR, COORDINATOR_LOAD_IN_PROGRESS, COORDINATOR_NOT_AVAILABLE) come back in
//! the response's own shape.

use crate::coordinator::group_coordinator::{GroupCoordinator, OFFSETS_TOPIC};
use crate::coordinator::txn_coordinator::{TxnCoordinator, TRANSACTION_TOPIC};
use crate::share::coordinator::SHARE_STATE_TOPIC;
use fjord_group::Output;
use fjord_metadata::MetadataImage;
use fjord_protocol::generated::{
    consumer_group_describe_request::ConsumerGroupDescribeRequest,
    consumer_group_describe_response::{
        ConsumerGroupDescribeResponse, DescribedGroup as ConsumerDescribedGroup,
    },
    delete_groups_response::{DeletableGroupResult, DeleteGroupsResponse},
    describe_groups_response::{DescribeGroupsResponse, DescribedGroup},
    find_coordinator_request::FindCoordinatorRequest,
    find_coordinator_response::{Coordinator, FindCoordinatorResponse},
    list_groups_request::ListGroupsRequest,
    list_groups_response::ListGroupsResponse,
    offset_fetch_request::OffsetFetchRequest,
    offset_fetch_response::{
        OffsetFetchResponse, OffsetFetchResponseGroup, OffsetFetchResponsePartition,
        OffsetFetchResponsePartitions, OffsetFetchResponseTopic, OffsetFetchResponseTopics,
    },
    share_group_describe_request::ShareGroupDescribeRequest,
    share_group_describe_response::{
        DescribedGroup as ShareDescribedGroup, ShareGroupDescribeResponse,
    },
};
use fjord_protocol::{ErrorCode, RequestBody, ResponseBody};
use std::net::SocketAddr;
use std::sync::Arc;

/// The first FindCoordinator version with a batch of keys.
const BATCHED_FIND_VERSION: i16 = 4;

/// StreamsGroupDescribe's TopologyDescriptionStatus NOT_STORED: no description was recorded
/// for the group (always, as fjord has no topology description plugin).
const TOPOLOGY_DESCRIPTION_NOT_STORED: i8 = 1;
/// The first OffsetFetch version with a batch of groups.
const BATCHED_FETCH_VERSION: i16 = 8;
/// FindCoordinator's key type of a group.
const GROUP_KEY: i8 = 0;
/// FindCoordinator's key type of a transactional id.
const TRANSACTION_KEY: i8 = 1;
/// FindCoordinator's key type of a share-partition (`group:topicId:partition`, from v6).
const SHARE_KEY: i8 = 2;
/// The first FindCoordinator version that knows share-partition keys.
const SHARE_FIND_VERSION: i16 = 6;
/// The most groups one DescribeGroups, DeleteGroups or OffsetFetch names.
pub const MAX_GROUPS_PER_REQUEST: usize = 10_000;

/// Whether `key` is a share-partition key: a group, a topic id in Kafka's text form and a
/// partition, separated by colons (the group may itself hold colons).
fn is_share_key(key: &str) -> bool {
    let mut parts = key.rsplitn(3, ':');
    let (Some(partition), Some(topic), Some(group)) = (parts.next(), parts.next(), parts.next())
    else {
        return false;
    };
    !group.is_empty()
        && partition.parse::<i32>().is_ok_and(|p| p >= 0)
        && fjord_util::uuid_text::decode(topic).is_some()
}

/// The group APIs' context: the coordinator, the image, the listener clients use.
pub struct Groups<'a> {
    /// The coordinator.
    pub coordinator: &'a Arc<GroupCoordinator>,
    /// The transaction coordinator (FindCoordinator for transactional ids).
    pub transactions: &'a Arc<TxnCoordinator>,
    /// The share coordinator (FindCoordinator for share-partitions).
    pub share_states: &'a Arc<crate::share::coordinator::ShareCoordinator>,
    /// The image the request is answered from.
    pub image: Arc<MetadataImage>,
    /// The listener name (coordinators' endpoints on it are returned).
    pub listener: &'a str,
    /// The client's id and address.
    pub client: (&'a str, SocketAddr),
}

impl Groups<'_> {
    /// FindCoordinator.
    pub fn find_coordinator(
        &self,
        r: &FindCoordinatorRequest,
        version: i16,
    ) -> FindCoordinatorResponse {
        let keys: Vec<String> = if version >= BATCHED_FIND_VERSION {
            r.coordinator_keys.clone()
        } else {
            vec![r.key.clone()]
        };
        let found: Vec<Coordinator> = keys
            .into_iter()
            .map(|key| match self.locate(&key, r.key_type, version) {
                Ok((node_id, host, port)) => Coordinator {
                    key,
                    node_id,
                    host,
                    port,
                    ..Default::default()
                },
                Err((code, message)) => Coordinator {
                    key,
                    node_id: -1,
                    host: String::new(),
                    port: -1,
                    error_code: code.code(),
                    error_message: Some(message),
                    ..Default::default()
                },
            })
            .collect();
        if version >= BATCHED_FIND_VERSION {
            return FindCoordinatorResponse {
                coordinators: found,
                ..Default::default()
            };
        }
        let c = found.into_iter().next().unwrap_or_default();
        FindCoordinatorResponse {
            error_code: c.error_code,
            // Kafka names the error even on success ("NONE") in v1-v3.
            error_message: match (version, c.error_code) {
                (0, _) => None,
                (_, 0) => Some("NONE".into()),
                _ => c.error_message,
            },
            node_id: c.node_id,
            host: c.host,
            port: c.port,
            ..Default::default()
        }
    }

    /// The coordinator of `key`: the leader of its partition of `__consumer_offsets` (a
    /// group) or `__transaction_state` (a transactional id); the topic is created when it
    /// does not exist yet.
    fn locate(
        &self,
        key: &str,
        key_type: i8,
        version: i16,
    ) -> Result<(i32, String, i32), (ErrorCode, String)> {
        let unavailable = |m: &str| (ErrorCode::CoordinatorNotAvailable, m.to_string());
        let (topic, index) = match key_type {
            GROUP_KEY => {
                let Some(topic) = self.image.topics.get_by_name(OFFSETS_TOPIC) else {
                    self.coordinator.create_topic();
                    return Err(unavailable("The coordinator is not available."));
                };
                (topic, self.coordinator.partition_for(key))
            }
            TRANSACTION_KEY => {
                let Some(topic) = self.image.topics.get_by_name(TRANSACTION_TOPIC) else {
                    self.transactions.create_topic();
                    return Err(unavailable("The coordinator is not available."));
                };
                (topic, self.transactions.partition_for(key))
            }
            SHARE_KEY => {
                // Kafka answers both with an empty message.
                if version < SHARE_FIND_VERSION || !is_share_key(key) {
                    return Err((ErrorCode::InvalidRequest, String::new()));
                }
                let Some(topic) = self.image.topics.get_by_name(SHARE_STATE_TOPIC) else {
                    self.share_states.create_topic();
                    return Err(unavailable("The coordinator is not available."));
                };
                (topic, self.share_states.partition_for(key))
            }
            other => {
                return Err((
                    ErrorCode::InvalidRequest,
                    format!("unknown coordinator key type {other}"),
                ))
            }
        };
        let leader = topic
            .partitions
            .get(&index)
            .map(|p| p.leader)
            .filter(|l| *l >= 0)
            .ok_or_else(|| unavailable("The coordinator is not available."))?;
        let endpoint = crate::api::metadata::leader_endpoints(
            &self.image,
            vec![leader],
            self.listener,
            |id, host, port, _| (id, host, port),
        );
        endpoint
            .into_iter()
            .next()
            .ok_or_else(|| unavailable("The coordinator is not available."))
    }

    /// A request answered by the shard of `group` (JoinGroup, SyncGroup, Heartbeat,
    /// LeaveGroup, OffsetCommit, OffsetDelete).
    pub async fn one_group(&self, body: &RequestBody, version: i16, group: &str) -> ResponseBody {
        if let Some(code) = refused_before_routing(body, version, group) {
            return fjord_protocol::error_response(body, version, code, &message(code));
        }
        let image = self.image.clone();
        // Topics named by id are named before the coordinator sees them.
        let resolved = crate::api::offset_topic_ids::resolve(body, version, &image);
        let body = resolved.as_ref().map_or(body, |r| &r.body);
        let answer = self
            .coordinator
            .call_group(&image, group, version, self.client, |shard, ctx, now| {
                run(shard, ctx, body, &image, now)
            })
            .await;
        let mut answer = answer.unwrap_or_else(|code| {
            fjord_protocol::error_response(body, version, code, &message(code))
        });
        if let Some(r) = resolved {
            crate::api::offset_topic_ids::finish(&mut answer, r.unknown, &image);
        }
        answer
    }

    /// ConsumerGroupHeartbeat (KIP-848): UNSUPPORTED_VERSION unless `group.version` is at
    /// least 1 and `group.coordinator.rebalance.protocols` has `consumer`, as Kafka.
    pub async fn consumer_heartbeat(
        &self,
        body: &RequestBody,
        version: i16,
        group: &str,
    ) -> ResponseBody {
        let enabled = self.coordinator.config().consumer_enabled
            && self.image.features.group_version() >= CONSUMER_GROUP_VERSION;
        if !enabled {
            return fjord_protocol::error_response(
                body,
                version,
                ErrorCode::UnsupportedVersion,
                "The new consumer group protocol is not supported.",
            );
        }
        self.one_group(body, version, group).await
    }

    /// StreamsGroupHeartbeat (KIP-1071): UNSUPPORTED_VERSION unless `streams.version` is at
    /// least 1 and `group.coordinator.rebalance.protocols` has `streams`, as Kafka.
    pub async fn streams_heartbeat(
        &self,
        body: &RequestBody,
        version: i16,
        group: &str,
    ) -> ResponseBody {
        if !streams_enabled(&self.image, self.coordinator.config()) {
            return fjord_protocol::error_response(
                body,
                version,
                ErrorCode::UnsupportedVersion,
                "The streams group protocol is not supported.",
            );
        }
        self.one_group(body, version, group).await
    }

    /// StreamsGroupDescribe: each group from its shard.
    pub async fn streams_group_describe(
        &self,
        r: &fjord_protocol::generated::streams_group_describe_request::StreamsGroupDescribeRequest,
    ) -> fjord_protocol::generated::streams_group_describe_response::StreamsGroupDescribeResponse
    {
        use fjord_protocol::generated::streams_group_describe_response::{
            DescribedGroup, StreamsGroupDescribeResponse,
        };
        let topics = ImageTopics(self.image.clone());
        let mut out = StreamsGroupDescribeResponse::default();
        let enabled = streams_enabled(&self.image, self.coordinator.config());
        // As Kafka 4.4 orders them: the empty (invalid) ids' answers first.
        let ids = r.group_ids.iter().take(MAX_GROUPS_PER_REQUEST);
        let (empty, named): (Vec<&String>, Vec<&String>) = ids.partition(|id| id.is_empty());
        for id in empty.into_iter().chain(named) {
            let d = if !enabled {
                Err(ErrorCode::UnsupportedVersion)
            } else if id.is_empty() {
                Err(ErrorCode::InvalidGroupId)
            } else {
                self.coordinator
                    .read(&self.image, id, |s| s.describe_streams_group(id, &topics))
                    .await
                    .map(|mut d| {
                        // No topology description plugin: a description asked for is "not
                        // stored" (Kafka 4.4's status 1), as Kafka answers without one.
                        if r.include_topology_description {
                            d.topology_description_status = TOPOLOGY_DESCRIPTION_NOT_STORED;
                        }
                        d
                    })
            };
            out.groups.push(d.unwrap_or_else(|code| DescribedGroup {
                error_code: code.code(),
                // Kafka 4.4 gives an empty id's INVALID_GROUP_ID no message.
                error_message: (code != ErrorCode::InvalidGroupId).then(|| message(code)),
                group_id: id.clone(),
                authorized_operations: i32::MIN,
                ..Default::default()
            }));
        }
        out
    }

    /// StreamsGroupTopologyDescriptionUpdate: checked on the group's shard (see
    /// `Shard::streams_topology_update`).
    pub async fn streams_topology_update(
        &self,
        r: &fjord_protocol::generated::streams_group_topology_description_update_request::StreamsGroupTopologyDescriptionUpdateRequest,
    ) -> fjord_protocol::generated::streams_group_topology_description_update_response::StreamsGroupTopologyDescriptionUpdateResponse{
        use fjord_protocol::generated::streams_group_topology_description_update_response::StreamsGroupTopologyDescriptionUpdateResponse as Response;
        let (code, text) = if !streams_enabled(&self.image, self.coordinator.config()) {
            (
                ErrorCode::UnsupportedVersion,
                "The streams group protocol is not supported.".to_string(),
            )
        } else if !self.coordinator.config().streams_topology_plugin {
            // Kafka 4.4 without a plugin: refused before the group is looked at.
            (
                ErrorCode::UnsupportedVersion,
                "The broker has no streams group topology description plugin configured."
                    .to_string(),
            )
        } else if r.group_id.is_empty() {
            (ErrorCode::InvalidRequest, "GroupId can't be empty.".into())
        } else {
            self.coordinator
                .read(&self.image, &r.group_id, |s| s.streams_topology_update(r))
                .await
                .unwrap_or_else(|code| (code, message(code)))
        };
        Response {
            error_code: code.code(),
            error_message: Some(text),
            ..Default::default()
        }
    }

    /// ShareGroupHeartbeat (KIP-932): UNSUPPORTED_VERSION unless `share.version` is at
    /// least [`SHARE_GROUP_VERSION`], as Kafka answers.
    pub async fn share_heartbeat(
        &self,
        body: &RequestBody,
        version: i16,
        group: &str,
    ) -> ResponseBody {
        if !share_enabled(&self.image) {
            return fjord_protocol::error_response(
                body,
                version,
                ErrorCode::UnsupportedVersion,
                "The version of API is not supported.",
            );
        }
        if group.is_empty() {
            // As Kafka 4.4 answers an empty group id: INVALID_REQUEST, no message.
            return ResponseBody::ShareGroupHeartbeat(
                fjord_protocol::generated::share_group_heartbeat_response::ShareGroupHeartbeatResponse {
                    error_code: ErrorCode::InvalidRequest.code(),
                    ..Default::default()
                },
            );
        }
        self.one_group(body, version, group).await
    }

    /// ShareGroupDescribe: each group from its shard (GROUP_ID_NOT_FOUND for a group of
    /// another type or an unknown one).
    pub async fn share_group_describe(
        &self,
        r: &ShareGroupDescribeRequest,
    ) -> ShareGroupDescribeResponse {
        let topics = ImageTopics(self.image.clone());
        let mut out = ShareGroupDescribeResponse::default();
        for id in r.group_ids.iter().take(MAX_GROUPS_PER_REQUEST) {
            let d = if share_enabled(&self.image) {
                self.coordinator
                    .read(&self.image, id, |s| s.describe_share_group(id, &topics))
                    .await
            } else {
                Err(ErrorCode::UnsupportedVersion)
            };
            out.groups
                .push(d.unwrap_or_else(|code| ShareDescribedGroup {
                    error_code: code.code(),
                    error_message: Some(message(code)),
                    group_id: id.clone(),
                    authorized_operations: i32::MIN,
                    ..Default::default()
                }));
        }
        out
    }

    /// ConsumerGroupDescribe: each group from its shard (GROUP_ID_NOT_FOUND for a classic
    /// or unknown one).
    pub async fn consumer_group_describe(
        &self,
        r: &ConsumerGroupDescribeRequest,
    ) -> ConsumerGroupDescribeResponse {
        let topics = ImageTopics(self.image.clone());
        let mut out = ConsumerGroupDescribeResponse::default();
        for id in r.group_ids.iter().take(MAX_GROUPS_PER_REQUEST) {
            let d = self
                .coordinator
                .read(&self.image, id, |s| s.describe_consumer_group(id, &topics))
                .await;
            out.groups
                .push(d.unwrap_or_else(|code| ConsumerDescribedGroup {
                    error_code: code.code(),
                    error_message: Some(message(code)),
                    group_id: id.clone(),
                    authorized_operations: i32::MIN,
                    ..Default::default()
                }));
        }
        out
    }

    /// DescribeGroups.
    pub async fn describe_groups(&self, groups: &[String], version: i16) -> DescribeGroupsResponse {
        let mut out = DescribeGroupsResponse::default();
        for id in groups.iter().take(MAX_GROUPS_PER_REQUEST) {
            let d = self
                .coordinator
                .read(&self.image, id, |s| s.describe_group(id, version))
                .await;
            out.groups.push(d.unwrap_or_else(|code| DescribedGroup {
                error_code: code.code(),
                error_message: (version >= 6).then(|| message(code)),
                group_id: id.clone(),
                authorized_operations: i32::MIN,
                ..Default::default()
            }));
        }
        out
    }

    /// ListGroups (every loaded shard; COORDINATOR_LOAD_IN_PROGRESS while one loads).
    pub async fn list_groups(&self, r: &ListGroupsRequest) -> ListGroupsResponse {
        if self.coordinator.loading() {
            return ListGroupsResponse {
                error_code: ErrorCode::CoordinatorLoadInProgress.code(),
                ..Default::default()
            };
        }
        let groups = self
            .coordinator
            .each_shard(|s| s.list_groups(&r.states_filter, &r.types_filter))
            .await
            .into_iter()
            .flatten()
            .collect();
        ListGroupsResponse {
            groups,
            ..Default::default()
        }
    }

    /// DeleteGroups.
    pub async fn delete_groups(&self, groups: &[String], version: i16) -> DeleteGroupsResponse {
        let mut out = DeleteGroupsResponse::default();
        for id in groups.iter().take(MAX_GROUPS_PER_REQUEST) {
            let one = [id.clone()];
            let answer = self
                .coordinator
                .call_group(&self.image, id, version, self.client, |shard, ctx, _| {
                    let (results, mut o) = shard.delete_groups_output(&one);
                    o.reply(
                        ctx.token,
                        ResponseBody::DeleteGroups(DeleteGroupsResponse {
                            results,
                            ..Default::default()
                        }),
                    );
                    o
                })
                .await;
            let code = match answer {
                Ok(ResponseBody::DeleteGroups(r)) => {
                    out.results.extend(r.results);
                    continue;
                }
                Ok(_) => ErrorCode::UnknownServerError,
                Err(code) => code,
            };
            out.results.push(DeletableGroupResult {
                group_id: id.clone(),
                error_code: code.code(),
                ..Default::default()
            });
        }
        out
    }

    /// The committed offsets of one group (the partitions asked for, or all).
    /// With `require_stable` (KIP-447), a partition whose offset waits for a transaction is
    /// answered UNSTABLE_OFFSET_COMMIT with no offset, and the client asks again.
    async fn fetch_group(
        &self,
        group: &str,
        topics: Option<Vec<(String, Vec<i32>)>>,
        require_stable: bool,
        member: (Option<&str>, i32),
    ) -> Result<Vec<fjord_group::offsets::TopicOffsets>, ErrorCode> {
        self.coordinator
            .read(&self.image, group, |s| {
                s.check_offset_fetch(group, member.0, member.1)?;
                let mut found = s.fetch_offsets(group, topics.as_deref());
                if require_stable {
                    for (topic, partitions) in &mut found {
                        for (p, c) in partitions.iter_mut() {
                            if s.has_pending(group, topic, *p) {
                                *c = Some(unstable());
                            }
                        }
                    }
                }
                Ok(found)
            })
            .await
            .and_then(|r| r)
    }

    /// OffsetFetch: one group before v8, a batch from v8.
    pub async fn offset_fetch(&self, r: &OffsetFetchRequest, version: i16) -> OffsetFetchResponse {
        if version < BATCHED_FETCH_VERSION {
            let topics = r.topics.as_ref().map(|ts| {
                ts.iter()
                    .map(|t| (t.name.clone(), t.partition_indexes.clone()))
                    .collect()
            });
            return match self
                .fetch_group(&r.group_id, topics, r.require_stable, (None, -1))
                .await
            {
                Ok(found) => OffsetFetchResponse {
                    topics: shape(
                        found,
                        |name, partitions| OffsetFetchResponseTopic {
                            name,
                            partitions,
                            ..Default::default()
                        },
                        |partition_index,
                         committed_offset,
                         committed_leader_epoch,
                         metadata,
                         error_code| {
                            OffsetFetchResponsePartition {
                                partition_index,
                                committed_offset,
                                committed_leader_epoch,
                                metadata: Some(metadata),
                                error_code,
                                ..Default::default()
                            }
                        },
                    ),
                    ..Default::default()
                },
                Err(code) => match fjord_protocol::error_response(
                    &RequestBody::OffsetFetch(r.clone()),
                    version,
                    code,
                    &message(code),
                ) {
                    ResponseBody::OffsetFetch(o) => o,
                    _ => OffsetFetchResponse::default(),
                },
            };
        }
        let mut out = OffsetFetchResponse::default();
        for g in r.groups.iter().take(MAX_GROUPS_PER_REQUEST) {
            // From v10 topics are named by id: copied and named only then.
            let resolved = (version >= crate::api::offset_topic_ids::OFFSET_FETCH_TOPIC_ID_VERSION)
                .then(|| {
                    let mut named = g.clone();
                    let unknown =
                        crate::api::offset_topic_ids::resolve_fetch(&mut named, &self.image);
                    (named, unknown)
                });
            let g = resolved.as_ref().map_or(g, |(named, _)| named);
            let topics = g.topics.as_ref().map(|ts| {
                ts.iter()
                    .map(|t| (t.name.clone(), t.partition_indexes.clone()))
                    .collect()
            });
            out.groups.push(
                match self
                    .fetch_group(
                        &g.group_id,
                        topics,
                        r.require_stable,
                        (g.member_id.as_deref(), g.member_epoch),
                    )
                    .await
                {
                    Ok(found) => OffsetFetchResponseGroup {
                        group_id: g.group_id.clone(),
                        topics: shape(
                            found,
                            |name, partitions| OffsetFetchResponseTopics {
                                name,
                                partitions,
                                ..Default::default()
                            },
                            |partition_index,
                             committed_offset,
                             committed_leader_epoch,
                             metadata,
                             error_code| {
                                OffsetFetchResponsePartitions {
                                    partition_index,
                                    committed_offset,
                                    committed_leader_epoch,
                                    metadata: Some(metadata),
                                    error_code,
                                    ..Default::default()
                                }
                            },
                        ),
                        ..Default::default()
                    },
                    Err(code) => OffsetFetchResponseGroup {
                        group_id: g.group_id.clone(),
                        error_code: code.code(),
                        ..Default::default()
                    },
                },
            );
            if let (Some((_, unknown)), Some(answer)) = (resolved, out.groups.last_mut()) {
                crate::api::offset_topic_ids::finish_fetch(answer, unknown, &self.image);
            }
        }
        out
    }
}

/// Committed offsets in a response's own topic and partition types: `partition(index,
/// offset, leader epoch, metadata)`, -1, -1 and "" where nothing is committed.
fn shape<T, P>(
    found: Vec<fjord_group::offsets::TopicOffsets>,
    topic: impl Fn(String, Vec<P>) -> T,
    partition: impl Fn(i32, i64, i32, String, i16) -> P,
) -> Vec<T> {
    found
        .into_iter()
        .map(|(name, partitions)| {
            let partitions = partitions
                .into_iter()
                .map(|(index, c)| {
                    let (offset, epoch, metadata, error) = committed(c);
                    partition(index, offset, epoch, metadata, error)
                })
                .collect();
            topic(name, partitions)
        })
        .collect()
}

/// The stand-in for an offset that waits for its transaction: answered
/// UNSTABLE_OFFSET_COMMIT. It must be a value no commit carries: clients commit -2 (Kafka's
/// EARLIEST sentinel; kafkajs's `resetOffsets({ earliest: true })` does), and Kafka answers
/// it back as committed.
fn unstable() -> fjord_group::group::Committed {
    fjord_group::group::Committed {
        offset: UNSTABLE_OFFSET,
        leader_epoch: -1,
        metadata: String::new(),
        commit_timestamp: -1,
        expire_timestamp: None,
    }
}

/// The offset [`unstable`] carries (never a committed one: OffsetCommit's offsets are
/// int64s from a client, and no client sends this one).
const UNSTABLE_OFFSET: i64 = i64::MIN;

/// A committed offset as OffsetFetch shows it (offset, leader epoch, metadata, error): -1,
/// -1 and "" when there is none, and UNSTABLE_OFFSET_COMMIT for one awaiting its
/// transaction.
fn committed(c: Option<fjord_group::group::Committed>) -> (i64, i32, String, i16) {
    match c {
        Some(c) if c.offset == UNSTABLE_OFFSET => (
            -1,
            -1,
            String::new(),
            ErrorCode::UnstableOffsetCommit.code(),
        ),
        Some(c) => (c.offset, c.leader_epoch, c.metadata, 0),
        None => (-1, -1, String::new(), 0),
    }
}

/// Kafka's message for a routing error.
pub(crate) fn message(code: ErrorCode) -> String {
    match code {
        ErrorCode::NotCoordinator => "This is not the correct coordinator.".into(),
        ErrorCode::CoordinatorLoadInProgress => {
            "The coordinator is loading and hence can't process requests.".into()
        }
        ErrorCode::CoordinatorNotAvailable => "The coordinator is not available.".into(),
        other => format!("{other:?}"),
    }
}

/// The `share.version` level from which share groups are served.
pub const SHARE_GROUP_VERSION: i16 = 1;

/// Whether share groups are served: `share.version` finalized at [`SHARE_GROUP_VERSION`] or
/// above.
pub fn share_enabled(image: &MetadataImage) -> bool {
    image.features.share_version() >= SHARE_GROUP_VERSION
}

/// The `streams.version` level from which streams groups are served.
pub const STREAMS_GROUP_VERSION: i16 = 1;

/// Whether streams groups are served: `streams.version` finalized at
/// [`STREAMS_GROUP_VERSION`] or above and `group.coordinator.rebalance.protocols` has
/// `streams`.
pub fn streams_enabled(image: &MetadataImage, config: &fjord_group::GroupConfig) -> bool {
    config.streams_enabled
        && image
            .features
            .levels
            .get(fjord_metadata::version::STREAMS_VERSION)
            .is_some_and(|l| *l >= STREAMS_GROUP_VERSION)
}

/// The `group.version` level from which ConsumerGroupHeartbeat is served.
pub const CONSUMER_GROUP_VERSION: i16 = 1;

/// The metadata image's topics as the consumer-group coordinator sees them.
#[derive(Debug)]
pub struct ImageTopics(pub Arc<MetadataImage>);

impl fjord_group::TopicSource for ImageTopics {
    fn topic(&self, name: &str) -> Option<(u128, i32)> {
        self.0
            .topics
            .get_by_name(name)
            .map(|t| (t.id.as_u128(), t.partitions.len() as i32))
    }

    fn name(&self, id: u128) -> Option<String> {
        self.0
            .topics
            .by_id
            .get(&fjord_protocol::Uuid::from_u128(id))
            .map(|t| t.name.clone())
    }

    /// Every topic, the internal ones included: Kafka 4.4's coordinator matches a
    /// subscription's regular expression against them all (`__consumer_offsets` too).
    fn names(&self) -> Vec<String> {
        self.0.topics.by_name.keys().cloned().collect()
    }

    fn stamp(&self) -> u64 {
        self.0.provenance.last_offset as u64
    }

    fn group_int(&self, group: &str, key: &str) -> Option<i32> {
        let own = self
            .0
            .configs
            .get(fjord_metadata::group_configs::GROUP, group, key);
        fjord_metadata::group_configs::own_int(own)
    }
    fn group_text(&self, group: &str, key: &str) -> Option<String> {
        self.0
            .configs
            .get(fjord_metadata::group_configs::GROUP, group, key)
            .map(str::to_string)
    }
}

/// Runs a single-group request on its shard.
fn run(
    shard: &mut fjord_group::Shard,
    ctx: &fjord_group::RequestContext,
    body: &RequestBody,
    image: &Arc<MetadataImage>,
    now: i64,
) -> Output {
    // Every group request sees the image's topics (a classic member of a consumer group is
    // answered in their terms too).
    let topics = Arc::new(ImageTopics(image.clone()));
    shard.see_topics(topics.clone());
    match body {
        RequestBody::ConsumerGroupHeartbeat(r) => shard.consumer_heartbeat(ctx, r, topics, now),
        RequestBody::ShareGroupHeartbeat(r) => shard.share_heartbeat(ctx, r, topics, now),
        RequestBody::StreamsGroupHeartbeat(r) => shard.streams_heartbeat(ctx, r, topics, now),
        RequestBody::JoinGroup(r) => shard.join_group(ctx, r, now),
        RequestBody::SyncGroup(r) => shard.sync_group(ctx, r, now),
        RequestBody::Heartbeat(r) => shard.heartbeat(ctx, r, now),
        RequestBody::LeaveGroup(r) => shard.leave_group(ctx, r, now),
        RequestBody::OffsetCommit(r) => {
            let unknown = |topic: &str, partition: i32| {
                !image
                    .topics
                    .get_by_name(topic)
                    .is_some_and(|t| t.partitions.contains_key(&partition))
            };
            shard.commit_offsets(ctx, r, &unknown, now)
        }
        RequestBody::OffsetDelete(r) => shard.delete_offsets(ctx, r),
        RequestBody::TxnOffsetCommit(r) => {
            let unknown = |topic: &str, partition: i32| {
                !image
                    .topics
                    .get_by_name(topic)
                    .is_some_and(|t| t.partitions.contains_key(&partition))
            };
            shard.txn_commit_offsets(ctx, r, &unknown, now)
        }
        other => {
            let mut o = Output::default();
            o.reply(
                ctx.token,
                fjord_protocol::error_response(
                    other,
                    ctx.version,
                    ErrorCode::InvalidRequest,
                    "not a group request",
                ),
            );
            o
        }
    }
}

/// What Kafka refuses before a group request reaches its coordinator: a SyncGroup v5+ without
/// its protocol type and name (INCONSISTENT_GROUP_PROTOCOL), then an empty group id
/// (INVALID_GROUP_ID). An empty group id never names a group.
fn refused_before_routing(body: &RequestBody, version: i16, group: &str) -> Option<ErrorCode> {
    if let RequestBody::SyncGroup(r) = body {
        if version >= 5 && (r.protocol_type.is_none() || r.protocol_name.is_none()) {
            return Some(ErrorCode::InconsistentGroupProtocol);
        }
    }
    // A KIP-848 heartbeat's fields are checked by its group's rules ("GroupId can't be
    // empty.", INVALID_REQUEST).
    let heartbeat = matches!(
        body,
        RequestBody::ConsumerGroupHeartbeat(_) | RequestBody::StreamsGroupHeartbeat(_)
    );
    (group.is_empty() && !heartbeat).then_some(ErrorCode::InvalidGroupId)
}

#[cfg(test)]
mod committed_tests {
    use super::*;

    #[test]
    fn an_earliest_sentinel_commit_is_answered_back_and_only_a_pending_one_is_unstable() {
        let at = |offset| fjord_group::group::Committed {
            offset,
            ..unstable()
        };
        assert_eq!(committed(Some(at(-2))), (-2, -1, String::new(), 0));
        assert_eq!(committed(Some(at(7))).0, 7);
        assert_eq!(
            committed(Some(unstable())).3,
            ErrorCode::UnstableOffsetCommit.code()
        );
        assert_eq!(committed(None), (-1, -1, String::new(), 0));
    }
}
