//! Produce: each partition's batches are validated and appended by its leader
//! (`PartitionLog::append_as_leader` checks framing, CRC, record counts, `max.message.bytes`,
//! keys on compacted topics, CreateTime timestamps within `message.timestamp.before.max.ms` /
//! `after.max.ms`, and stamps LogAppendTime), answered per partition with Kafka's error codes
//! and, from v8, the refused records in `record_errors`; NOT_LEADER_OR_FOLLOWER carries the current leader (v10+). acks=0 gets no
//! answer; acks=1 and acks=-1 are answered once the leader appended (until replication
//! exists, the leader alone is the ISR it waits on). Record data is appended as the request's
//! own `Bytes`, never copied. The appends run off the async workers.

use crate::replica_manager::ReplicaManager;
use fjord_log::system_now_ms;
use fjord_metadata::MetadataImage;
use fjord_protocol::generated::produce_request::ProduceRequest;
use fjord_protocol::generated::produce_response::{
    BatchIndexAndErrorMessage, LeaderIdAndEpoch, NodeEndpoint, PartitionProduceResponse,
    ProduceResponse, TopicProduceResponse,
};
use fjord_protocol::{ErrorCode, Records};
use std::sync::Arc;

/// The first Produce version with the leader hint on NOT_LEADER_OR_FOLLOWER (KIP-951).
const LEADER_HINT_VERSION: i16 = 10;
/// The first Produce version with per-record errors.
const RECORD_ERRORS_VERSION: i16 = 8;
/// The first Produce version that names topics by id.
const TOPIC_ID_VERSION: i16 = 13;

/// Handles a Produce request: `Ok(None)` for acks=0 (no answer is sent); `Err` when the
/// appends' task failed (the connection is closed, as for any request that cannot be
/// answered).
pub async fn produce(
    replicas: &Arc<ReplicaManager>,
    image: Arc<MetadataImage>,
    listener: &str,
    request: ProduceRequest,
    version: i16,
) -> Result<Option<ProduceResponse>, String> {
    let acks = request.acks;
    let error_for_all = if !matches!(acks, -1..=1) {
        Some((ErrorCode::InvalidRequiredAcks, "acks must be -1, 0 or 1"))
    } else if request.transactional_id.is_some() {
        Some((
            ErrorCode::TransactionalIdAuthorizationFailed,
            "transactions are not supported yet",
        ))
    } else {
        None
    };
    let rm = replicas.clone();
    let me = rm.node_id();
    let listener = listener.to_string();
    let response = tokio::task::spawn_blocking(move || {
        let mut out = ProduceResponse::default();
        let mut leaders = Vec::new();
        for t in request.topic_data {
            let topic = if version >= TOPIC_ID_VERSION {
                image.topics.by_id.get(&t.topic_id).cloned()
            } else {
                image.topics.get_by_name(&t.name).cloned()
            };
            let mut result = TopicProduceResponse {
                name: t.name.clone(),
                topic_id: t.topic_id,
                ..Default::default()
            };
            for p in t.partition_data {
                let mut r = PartitionProduceResponse {
                    index: p.index,
                    base_offset: -1,
                    log_append_time_ms: -1,
                    log_start_offset: -1,
                    ..Default::default()
                };
                let fail = |r: &mut PartitionProduceResponse, code: ErrorCode, m: String| {
                    r.error_code = code.code();
                    if version >= 8 {
                        r.error_message = Some(m);
                    }
                };
                if let Some((code, message)) = error_for_all {
                    fail(&mut r, code, message.into());
                    result.partition_responses.push(r);
                    continue;
                }
                let Some(topic) = &topic else {
                    let code = if version >= TOPIC_ID_VERSION {
                        ErrorCode::UnknownTopicId
                    } else {
                        ErrorCode::UnknownTopicOrPartition
                    };
                    fail(&mut r, code, "This server does not host this topic.".into());
                    result.partition_responses.push(r);
                    continue;
                };
                let Some(registration) = topic.partitions.get(&p.index) else {
                    fail(
                        &mut r,
                        ErrorCode::UnknownTopicOrPartition,
                        "This server does not host this topic-partition.".into(),
                    );
                    result.partition_responses.push(r);
                    continue;
                };
                let Some(partition) = rm.get(topic.id, p.index).filter(|h| h.led_by(me)) else {
                    fail(
                        &mut r,
                        ErrorCode::NotLeaderOrFollower,
                        "This server is not the leader for that topic-partition.".into(),
                    );
                    if version >= LEADER_HINT_VERSION {
                        r.current_leader = LeaderIdAndEpoch {
                            leader_id: registration.leader,
                            leader_epoch: registration.leader_epoch,
                            ..Default::default()
                        };
                        leaders.push(registration.leader);
                    }
                    result.partition_responses.push(r);
                    continue;
                };
                // Decoded requests hold their records in memory.
                let Some(Records::Memory(records)) = p.records else {
                    fail(&mut r, ErrorCode::CorruptMessage, "no records".into());
                    result.partition_responses.push(r);
                    continue;
                };
                let epoch = partition.leader_epoch();
                match partition
                    .log
                    .append_as_leader(records, epoch, system_now_ms())
                {
                    Ok(info) => {
                        r.base_offset = info.first_offset;
                        r.log_append_time_ms = info.log_append_time;
                        r.log_start_offset = partition.log.log_start_offset();
                        partition.after_append(me);
                    }
                    Err(e) => {
                        if version >= RECORD_ERRORS_VERSION {
                            r.record_errors = e
                                .record_errors()
                                .iter()
                                .map(|(i, why)| BatchIndexAndErrorMessage {
                                    batch_index: *i,
                                    batch_index_error_message: Some(why.clone()),
                                    ..Default::default()
                                })
                                .collect();
                        }
                        fail(&mut r, e.error_code(), e.to_string())
                    }
                }
                result.partition_responses.push(r);
            }
            out.responses.push(result);
        }
        out.node_endpoints = crate::metadata::leader_endpoints(
            &image,
            leaders,
            &listener,
            |node_id, host, port, rack| NodeEndpoint {
                node_id,
                host,
                port,
                rack,
                ..Default::default()
            },
        );
        out
    })
    .await;
    let response = response.map_err(|e| format!("a produce request's appends failed: {e}"))?;
    Ok((acks != 0).then_some(response))
}
