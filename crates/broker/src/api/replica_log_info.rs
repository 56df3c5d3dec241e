//! GetReplicaLogInfo (apiKey 1000, fjord's extension for unclean recovery, docs/EXTENSIONS.md):
//! what this broker's replica of each asked partition holds (its log end offset, the latest
//! epoch it wrote, the last high watermark it knew, its log start) and the partition's leader
//! epoch as this broker sees it, and the replica's leader-epoch entries (the newest
//! [`MAX_EPOCH_ENTRIES`]) so the tool can work out each follower's truncation. With tiered
//! storage, also its first local offset and what the store holds against its history (the
//! offsets electing it would lose from the store). It answers
//! whatever the partition's state, offline included, from the log on disk: that is what a
//! recovery tool asks it for. At most
//! [`MAX_PARTITIONS`] partitions are answered per request, in request order; `HasMoreData`
//! says the rest were left out.

use crate::replica::replica_manager::ReplicaManager;
use fjord_metadata::MetadataImage;
use fjord_protocol::generated::get_replica_log_info_request::GetReplicaLogInfoRequest;
use fjord_protocol::generated::get_replica_log_info_response::{
    EpochEntry, GetReplicaLogInfoResponse, PartitionLogInfo, TopicPartitionLogInfo,
};
use fjord_protocol::{ErrorCode, Uuid};
use std::collections::BTreeSet;

/// The most partitions answered per request (docs/EXTENSIONS.md).
pub const MAX_PARTITIONS: usize = 1000;
/// The most leader-epoch entries reported per replica, the newest (docs/EXTENSIONS.md).
pub const MAX_EPOCH_ENTRIES: usize = 100;

/// Answers a GetReplicaLogInfo request for broker epoch `broker_epoch` (-1 before it has
/// registered); the partitions of `refused` topics (the caller lacks DESCRIBE) are answered
/// TOPIC_AUTHORIZATION_FAILED, counting toward the limit in request order like the rest.
/// Blocking: reads the logs' state.
pub fn replica_log_info(
    replicas: &ReplicaManager,
    image: &MetadataImage,
    broker_epoch: i64,
    request: GetReplicaLogInfoRequest,
    refused: &BTreeSet<Uuid>,
) -> GetReplicaLogInfoResponse {
    let mut response = GetReplicaLogInfoResponse {
        broker_epoch,
        ..Default::default()
    };
    let mut budget = MAX_PARTITIONS;
    for t in request.topic_partitions.unwrap_or_default() {
        if t.partitions.is_empty() {
            continue;
        }
        if budget == 0 {
            response.has_more_data = true;
            break;
        }
        let take = t.partitions.len().min(budget);
        if take < t.partitions.len() {
            response.has_more_data = true;
        }
        budget -= take;
        let topic = image.topics.by_id.get(&t.topic_id);
        let partitions = t.partitions[..take]
            .iter()
            .map(|&index| {
                let mut info = PartitionLogInfo {
                    partition: index,
                    partition_leader_epoch: -1,
                    log_end_offset: -1,
                    ..Default::default()
                };
                let Some(topic) = topic else {
                    info.error_code = ErrorCode::UnknownTopicId.code();
                    return info;
                };
                if refused.contains(&t.topic_id) {
                    info.error_code = ErrorCode::TopicAuthorizationFailed.code();
                    return info;
                }
                if let Some(registration) = topic.partitions.get(&index) {
                    info.partition_leader_epoch = registration.leader_epoch;
                }
                match replicas.get(t.topic_id, index) {
                    Some(p) => {
                        let log = &p.log;
                        info.log_end_offset = log.log_end_offset();
                        info.high_watermark = log.high_watermark();
                        info.log_start_offset = log.log_start_offset();
                        let entries = log.epoch_entries();
                        info.last_written_leader_epoch = entries.last().map_or(-1, |e| e.epoch);
                        let skip = entries.len().saturating_sub(MAX_EPOCH_ENTRIES);
                        info.leader_epochs = entries[skip..]
                            .iter()
                            .map(|e| EpochEntry {
                                epoch: e.epoch,
                                start_offset: e.start_offset,
                                ..Default::default()
                            })
                            .collect();
                        info.local_log_start_offset = log.local_log_start_offset();
                        if let Some(t) = replicas.tiering() {
                            t.describe_store_for(&p, &mut info);
                        }
                    }
                    None => info.error_code = replicas.not_served(t.topic_id, index).code(),
                }
                info
            })
            .collect();
        response
            .topic_partition_log_info_list
            .push(TopicPartitionLogInfo {
                topic_id: t.topic_id,
                partition_log_info: partitions,
                ..Default::default()
            });
    }
    response
}
