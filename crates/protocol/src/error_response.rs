//! The error response of every API at every version, as Kafka's `getErrorResponse`: the
//! top-level error code (and message, where the version has one) when the response has one,
//! and for responses that carry their errors per entity (topic, partition, resource, group,
//! ACL), one result per entity of the request with the error. A node that cannot serve a
//! request answers with this instead of closing the connection.

use crate::generated::*;
use crate::{ErrorCode, RequestBody, ResponseBody};

/// The response to `request` (read at `version`) that fails all of it with `code` and
/// `message`.
pub fn error_response(
    request: &RequestBody,
    version: i16,
    code: ErrorCode,
    message: &str,
) -> ResponseBody {
    let c = code.code();
    let m = || Some(message.to_string());
    let api = request.api_key();
    let top = ResponseBody::top_level_error(api, version, c, Some(message));
    // The config APIs answer one result per resource of the request, each carrying the error.
    macro_rules! per_resource {
        ($r:ident, $variant:ident, $response:path, $field:ident, $result:path) => {{
            use $response as Response;
            use $result as Result;
            ResponseBody::$variant(Response {
                $field: $r
                    .resources
                    .iter()
                    .map(|x| Result {
                        error_code: c,
                        error_message: m(),
                        resource_type: x.resource_type,
                        resource_name: x.resource_name.clone(),
                        ..Default::default()
                    })
                    .collect(),
                ..Default::default()
            })
        }};
    }
    match request {
        RequestBody::Produce(r) => {
            use produce_response::*;
            ResponseBody::Produce(ProduceResponse {
                responses: r
                    .topic_data
                    .iter()
                    .map(|t| TopicProduceResponse {
                        name: t.name.clone(),
                        topic_id: t.topic_id,
                        partition_responses: t
                            .partition_data
                            .iter()
                            .map(|p| PartitionProduceResponse {
                                index: p.index,
                                error_code: c,
                                base_offset: -1,
                                log_append_time_ms: -1,
                                log_start_offset: -1,
                                error_message: if version >= 8 { m() } else { None },
                                ..Default::default()
                            })
                            .collect(),
                        ..Default::default()
                    })
                    .collect(),
                ..Default::default()
            })
        }
        RequestBody::Fetch(r) => {
            use fetch_response::*;
            let mut out = FetchResponse {
                error_code: if version >= 7 { c } else { 0 },
                responses: r
                    .topics
                    .iter()
                    .map(|t| FetchableTopicResponse {
                        topic: t.topic.clone(),
                        topic_id: t.topic_id,
                        partitions: t
                            .partitions
                            .iter()
                            .map(|p| PartitionData {
                                partition_index: p.partition,
                                error_code: c,
                                high_watermark: -1,
                                last_stable_offset: -1,
                                log_start_offset: -1,
                                records: Some(crate::payload::Records::default()),
                                ..Default::default()
                            })
                            .collect(),
                        ..Default::default()
                    })
                    .collect(),
                ..Default::default()
            };
            out.session_id = 0;
            ResponseBody::Fetch(out)
        }
        RequestBody::ListOffsets(r) => {
            use list_offsets_response::*;
            ResponseBody::ListOffsets(ListOffsetsResponse {
                topics: r
                    .topics
                    .iter()
                    .map(|t| ListOffsetsTopicResponse {
                        name: t.name.clone(),
                        partitions: t
                            .partitions
                            .iter()
                            .map(|p| ListOffsetsPartitionResponse {
                                partition_index: p.partition_index,
                                error_code: c,
                                timestamp: -1,
                                offset: -1,
                                leader_epoch: -1,
                                ..Default::default()
                            })
                            .collect(),
                        ..Default::default()
                    })
                    .collect(),
                ..Default::default()
            })
        }
        RequestBody::Metadata(r) => {
            use metadata_response::*;
            let mut out = match top {
                Some(ResponseBody::Metadata(m)) => m,
                _ => MetadataResponse::default(),
            };
            out.controller_id = -1;
            out.topics = r
                .topics
                .iter()
                .flatten()
                .map(|t| MetadataResponseTopic {
                    error_code: c,
                    name: t.name.clone().or_else(|| Some(String::new())),
                    topic_id: t.topic_id,
                    ..Default::default()
                })
                .collect();
            ResponseBody::Metadata(out)
        }
        RequestBody::OffsetCommit(r) => {
            use offset_commit_response::*;
            ResponseBody::OffsetCommit(OffsetCommitResponse {
                topics: r
                    .topics
                    .iter()
                    .map(|t| OffsetCommitResponseTopic {
                        name: t.name.clone(),
                        topic_id: t.topic_id,
                        partitions: t
                            .partitions
                            .iter()
                            .map(|p| OffsetCommitResponsePartition {
                                partition_index: p.partition_index,
                                error_code: c,
                                ..Default::default()
                            })
                            .collect(),
                        ..Default::default()
                    })
                    .collect(),
                ..Default::default()
            })
        }
        RequestBody::OffsetFetch(r) => {
            use offset_fetch_response::*;
            let mut out = match top {
                Some(ResponseBody::OffsetFetch(o)) => o,
                _ => OffsetFetchResponse::default(),
            };
            if version >= 8 {
                out.groups = r
                    .groups
                    .iter()
                    .map(|g| OffsetFetchResponseGroup {
                        group_id: g.group_id.clone(),
                        error_code: c,
                        ..Default::default()
                    })
                    .collect();
            } else {
                out.topics = r
                    .topics
                    .iter()
                    .flatten()
                    .map(|t| OffsetFetchResponseTopic {
                        name: t.name.clone(),
                        partitions: t
                            .partition_indexes
                            .iter()
                            .map(|p| OffsetFetchResponsePartition {
                                partition_index: *p,
                                committed_offset: -1,
                                error_code: c,
                                ..Default::default()
                            })
                            .collect(),
                        ..Default::default()
                    })
                    .collect();
            }
            ResponseBody::OffsetFetch(out)
        }
        RequestBody::FindCoordinator(r) if version >= 4 => {
            use find_coordinator_response::*;
            ResponseBody::FindCoordinator(FindCoordinatorResponse {
                coordinators: r
                    .coordinator_keys
                    .iter()
                    .map(|k| Coordinator {
                        key: k.clone(),
                        node_id: -1,
                        port: -1,
                        error_code: c,
                        error_message: m(),
                        ..Default::default()
                    })
                    .collect(),
                ..Default::default()
            })
        }
        RequestBody::OffsetForLeaderEpoch(r) => {
            use offset_for_leader_epoch_response::*;
            ResponseBody::OffsetForLeaderEpoch(OffsetForLeaderEpochResponse {
                topics: r
                    .topics
                    .iter()
                    .map(|t| OffsetForLeaderTopicResult {
                        topic: t.topic.clone(),
                        partitions: t
                            .partitions
                            .iter()
                            .map(|p| EpochEndOffset {
                                error_code: c,
                                partition: p.partition,
                                leader_epoch: -1,
                                end_offset: -1,
                                ..Default::default()
                            })
                            .collect(),
                        ..Default::default()
                    })
                    .collect(),
                ..Default::default()
            })
        }
        RequestBody::DescribeGroups(r) => {
            use describe_groups_response::*;
            ResponseBody::DescribeGroups(DescribeGroupsResponse {
                groups: r
                    .groups
                    .iter()
                    .map(|g| DescribedGroup {
                        error_code: c,
                        error_message: if version >= 6 { m() } else { None },
                        group_id: g.clone(),
                        ..Default::default()
                    })
                    .collect(),
                ..Default::default()
            })
        }
        RequestBody::CreateTopics(r) => {
            use create_topics_response::*;
            ResponseBody::CreateTopics(CreateTopicsResponse {
                topics: r
                    .topics
                    .iter()
                    .map(|t| CreatableTopicResult {
                        name: t.name.clone(),
                        error_code: c,
                        error_message: m(),
                        num_partitions: -1,
                        replication_factor: -1,
                        configs: None,
                        ..Default::default()
                    })
                    .collect(),
                ..Default::default()
            })
        }
        RequestBody::DeleteTopics(r) => {
            use delete_topics_response::*;
            let by_name = r.topic_names.iter().map(|n| DeletableTopicResult {
                name: Some(n.clone()),
                error_code: c,
                error_message: if version >= 5 { m() } else { None },
                ..Default::default()
            });
            let by_state = r.topics.iter().map(|t| DeletableTopicResult {
                name: t.name.clone(),
                topic_id: t.topic_id,
                error_code: c,
                error_message: m(),
                ..Default::default()
            });
            ResponseBody::DeleteTopics(DeleteTopicsResponse {
                responses: by_name.chain(by_state).collect(),
                ..Default::default()
            })
        }
        RequestBody::DeleteRecords(r) => {
            use delete_records_response::*;
            ResponseBody::DeleteRecords(DeleteRecordsResponse {
                topics: r
                    .topics
                    .iter()
                    .map(|t| DeleteRecordsTopicResult {
                        name: t.name.clone(),
                        partitions: t
                            .partitions
                            .iter()
                            .map(|p| DeleteRecordsPartitionResult {
                                partition_index: p.partition_index,
                                low_watermark: -1,
                                error_code: c,
                                ..Default::default()
                            })
                            .collect(),
                        ..Default::default()
                    })
                    .collect(),
                ..Default::default()
            })
        }
        RequestBody::AlterReplicaLogDirs(r) => {
            use alter_replica_log_dirs_response::*;
            ResponseBody::AlterReplicaLogDirs(AlterReplicaLogDirsResponse {
                results: r
                    .dirs
                    .iter()
                    .flat_map(|d| &d.topics)
                    .map(|t| AlterReplicaLogDirTopicResult {
                        topic_name: t.name.clone(),
                        partitions: t
                            .partitions
                            .iter()
                            .map(|p| AlterReplicaLogDirPartitionResult {
                                partition_index: *p,
                                error_code: c,
                                ..Default::default()
                            })
                            .collect(),
                        ..Default::default()
                    })
                    .collect(),
                ..Default::default()
            })
        }
        RequestBody::DescribeProducers(r) => {
            use describe_producers_response::*;
            ResponseBody::DescribeProducers(DescribeProducersResponse {
                topics: r
                    .topics
                    .iter()
                    .map(|t| TopicResponse {
                        name: t.name.clone(),
                        partitions: t
                            .partition_indexes
                            .iter()
                            .map(|p| PartitionResponse {
                                partition_index: *p,
                                error_code: c,
                                error_message: m(),
                                ..Default::default()
                            })
                            .collect(),
                        ..Default::default()
                    })
                    .collect(),
                ..Default::default()
            })
        }
        RequestBody::CreateAcls(r) => {
            use create_acls_response::*;
            ResponseBody::CreateAcls(CreateAclsResponse {
                results: r
                    .creations
                    .iter()
                    .map(|_| AclCreationResult {
                        error_code: c,
                        error_message: m(),
                        ..Default::default()
                    })
                    .collect(),
                ..Default::default()
            })
        }
        RequestBody::DeleteAcls(r) => {
            use delete_acls_response::*;
            ResponseBody::DeleteAcls(DeleteAclsResponse {
                filter_results: r
                    .filters
                    .iter()
                    .map(|_| DeleteAclsFilterResult {
                        error_code: c,
                        error_message: m(),
                        ..Default::default()
                    })
                    .collect(),
                ..Default::default()
            })
        }
        RequestBody::AlterUserScramCredentials(r) => {
            use alter_user_scram_credentials_response::*;
            // One result per user the request names, as Kafka's getErrorResponse.
            let mut users: Vec<&str> = Vec::new();
            for u in r
                .deletions
                .iter()
                .map(|d| d.name.as_str())
                .chain(r.upsertions.iter().map(|u| u.name.as_str()))
            {
                if !users.contains(&u) {
                    users.push(u);
                }
            }
            ResponseBody::AlterUserScramCredentials(AlterUserScramCredentialsResponse {
                results: users
                    .into_iter()
                    .map(|user| AlterUserScramCredentialsResult {
                        user: user.to_string(),
                        error_code: c,
                        error_message: m(),
                        ..Default::default()
                    })
                    .collect(),
                ..Default::default()
            })
        }
        RequestBody::DescribeConfigs(r) => per_resource!(
            r,
            DescribeConfigs,
            describe_configs_response::DescribeConfigsResponse,
            results,
            describe_configs_response::DescribeConfigsResult
        ),
        RequestBody::AlterConfigs(r) => per_resource!(
            r,
            AlterConfigs,
            alter_configs_response::AlterConfigsResponse,
            responses,
            alter_configs_response::AlterConfigsResourceResponse
        ),
        RequestBody::IncrementalAlterConfigs(r) => per_resource!(
            r,
            IncrementalAlterConfigs,
            incremental_alter_configs_response::IncrementalAlterConfigsResponse,
            responses,
            incremental_alter_configs_response::AlterConfigsResourceResponse
        ),
        RequestBody::CreatePartitions(r) => {
            use create_partitions_response::*;
            ResponseBody::CreatePartitions(CreatePartitionsResponse {
                results: r
                    .topics
                    .iter()
                    .map(|t| CreatePartitionsTopicResult {
                        name: t.name.clone(),
                        error_code: c,
                        error_message: m(),
                        ..Default::default()
                    })
                    .collect(),
                ..Default::default()
            })
        }
        RequestBody::DescribeLogDirs(_) if version < 3 => {
            // No top-level error before v3: one result without a directory carries it.
            use describe_log_dirs_response::*;
            ResponseBody::DescribeLogDirs(DescribeLogDirsResponse {
                results: vec![DescribeLogDirsResult {
                    error_code: c,
                    ..Default::default()
                }],
                ..Default::default()
            })
        }
        RequestBody::DeleteGroups(r) => {
            use delete_groups_response::*;
            ResponseBody::DeleteGroups(DeleteGroupsResponse {
                results: r
                    .groups_names
                    .iter()
                    .map(|g| DeletableGroupResult {
                        group_id: g.clone(),
                        error_code: c,
                        ..Default::default()
                    })
                    .collect(),
                ..Default::default()
            })
        }
        RequestBody::ElectLeaders(r) => {
            use elect_leaders_response::*;
            ResponseBody::ElectLeaders(ElectLeadersResponse {
                error_code: if version >= 1 { c } else { 0 },
                replica_election_results: r
                    .topic_partitions
                    .iter()
                    .flatten()
                    .map(|t| ReplicaElectionResult {
                        topic: t.topic.clone(),
                        partition_result: t
                            .partitions
                            .iter()
                            .map(|p| PartitionResult {
                                partition_id: *p,
                                error_code: c,
                                error_message: m(),
                                ..Default::default()
                            })
                            .collect(),
                        ..Default::default()
                    })
                    .collect(),
                ..Default::default()
            })
        }
        RequestBody::DescribeTopicPartitions(r) => {
            use describe_topic_partitions_response::*;
            ResponseBody::DescribeTopicPartitions(DescribeTopicPartitionsResponse {
                topics: r
                    .topics
                    .iter()
                    .map(|t| DescribeTopicPartitionsResponseTopic {
                        error_code: c,
                        name: Some(t.name.clone()),
                        ..Default::default()
                    })
                    .collect(),
                ..Default::default()
            })
        }
        RequestBody::GetReplicaLogInfo(r) => {
            use get_replica_log_info_response::*;
            ResponseBody::GetReplicaLogInfo(GetReplicaLogInfoResponse {
                broker_epoch: -1,
                topic_partition_log_info_list: r
                    .topic_partitions
                    .iter()
                    .flatten()
                    .map(|t| TopicPartitionLogInfo {
                        topic_id: t.topic_id,
                        partition_log_info: t
                            .partitions
                            .iter()
                            .map(|p| PartitionLogInfo {
                                partition: *p,
                                error_code: c,
                                partition_leader_epoch: -1,
                                log_end_offset: -1,
                                last_written_leader_epoch: -1,
                                high_watermark: -1,
                                log_start_offset: -1,
                                ..Default::default()
                            })
                            .collect(),
                        ..Default::default()
                    })
                    .collect(),
                ..Default::default()
            })
        }
        _ => top.unwrap_or_else(|| ResponseBody::default_for(api)),
    }
}
