//! Produce: each partition's batches are validated and appended by its leader
//! (`PartitionLog::append_as_leader` checks framing, CRC, record counts, `max.message.bytes`,
//! keys on compacted topics, CreateTime timestamps within `message.timestamp.before.max.ms` /
//! `after.max.ms`, and stamps LogAppendTime), answered per partition with Kafka's error codes
//! and, from v8, the refused records in `record_errors`; NOT_LEADER_OR_FOLLOWER carries the
//! current leader (v10+). acks=0 gets no answer; acks=1 is answered once the leader appended;
//! acks=-1 is refused with NOT_ENOUGH_REPLICAS while the ISR is below the effective min ISR,
//! and answered once the high watermark passes the append (every in-sync replica has it),
//! with NOT_ENOUGH_REPLICAS_AFTER_APPEND if the ISR fell below min ISR meanwhile and
//! REQUEST_TIMED_OUT after the request's `timeout_ms`. Record data is appended as the
//! request's own `Bytes`, never copied. The appends run off the async workers.

use crate::error::BrokerError;
use crate::partition::Partition;
use crate::replica_manager::ReplicaManager;
use fjord_metadata::MetadataImage;
use fjord_protocol::generated::produce_request::ProduceRequest;
use fjord_protocol::generated::produce_response::{
    BatchIndexAndErrorMessage, LeaderIdAndEpoch, NodeEndpoint, PartitionProduceResponse,
    ProduceResponse, TopicProduceResponse,
};
use fjord_protocol::{ErrorCode, Records};
use fjord_util::system_now_ms;
use std::sync::Arc;
use std::time::Duration;

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
) -> Result<Option<ProduceResponse>, BrokerError> {
    Ok(append(replicas, image, listener, request, version)
        .await?
        .committed()
        .await)
}

/// A Produce request whose batches were appended: its answer, once what acks=-1 waits for
/// has committed.
pub struct Appended {
    response: ProduceResponse,
    waits: Vec<Wait>,
    deadline: tokio::time::Instant,
    version: i16,
    acks: i16,
}

impl Appended {
    /// True when the answer waits for replication (acks=-1 appends).
    pub fn waits(&self) -> bool {
        !self.waits.is_empty()
    }

    /// The answer once every acks=-1 append committed, or failed, or the request's
    /// `timeout_ms` passed; `None` for acks=0.
    pub async fn committed(self) -> Option<ProduceResponse> {
        let Appended {
            mut response,
            waits,
            deadline,
            version,
            acks,
        } = self;
        // One deadline for all: waiting on each in turn takes as long as the slowest.
        for w in &waits {
            let waited =
                w.on.wait_committed(w.leader_epoch, w.required, deadline)
                    .await;
            tracing::trace!(
                topic = %w.on.topic,
                partition = w.on.index,
                required = w.required,
                "acks=all wait ended: {waited:?}"
            );
            if let Err(code) = waited {
                let r = &mut response.responses[w.topic].partition_responses[w.partition];
                r.error_code = code.code();
                if version >= RECORD_ERRORS_VERSION {
                    r.error_message = Some(code.message().to_string());
                }
            }
        }
        (acks != 0).then_some(response)
    }
}

/// Whether an append of `request` may fsync (a hosted partition it names has a flush
/// policy), so it must not run on an async worker.
fn appends_may_fsync(
    rm: &ReplicaManager,
    image: &MetadataImage,
    request: &ProduceRequest,
    version: i16,
) -> bool {
    request.topic_data.iter().any(|t| {
        let topic = if version >= TOPIC_ID_VERSION {
            image.topics.by_id.get(&t.topic_id)
        } else {
            image.topics.get_by_name(&t.name)
        };
        topic.is_some_and(|topic| {
            t.partition_data.iter().any(|p| {
                rm.get(topic.id, p.index)
                    .is_some_and(|h| h.log.may_fsync_on_append())
            })
        })
    })
}

/// Validates and appends a Produce request's batches (in order, before the connection's next
/// request is handled); `Err` when the appends' task failed. A small append runs on the
/// async worker (see [`crate::inline_io`]).
pub async fn append(
    replicas: &Arc<ReplicaManager>,
    image: Arc<MetadataImage>,
    listener: &str,
    request: ProduceRequest,
    version: i16,
) -> Result<Appended, BrokerError> {
    let acks = request.acks;
    let timeout_ms = request.timeout_ms;
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
    let bytes: usize = request
        .topic_data
        .iter()
        .flat_map(|t| &t.partition_data)
        .map(|p| p.records.as_ref().map_or(0, Records::len))
        .sum();
    let inline = crate::inline_io::append_inline(bytes, || {
        appends_may_fsync(&rm, &image, &request, version)
    });
    let appended = crate::inline_io::run(inline, move || {
        let mut out = ProduceResponse::default();
        let mut waits = Vec::new();
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
                    let (code, message) = match rm.not_served(topic.id, p.index) {
                        ErrorCode::KafkaStorageError => (
                            ErrorCode::KafkaStorageError,
                            "The log dir of this replica is offline on this broker.",
                        ),
                        code => (
                            code,
                            "This server is not the leader for that topic-partition.",
                        ),
                    };
                    fail(&mut r, code, message.into());
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
                if acks == -1 {
                    if let Err(n) = partition.check_acks_all() {
                        let message = format!(
                            "The size of the current ISR {} is insufficient to satisfy the \
                             min.isr requirement of {} for partition {}-{}",
                            n.isr, n.min_isr, topic.name, p.index
                        );
                        fail(&mut r, ErrorCode::NotEnoughReplicas, message);
                        result.partition_responses.push(r);
                        continue;
                    }
                }
                let epoch = partition.leader_epoch();
                match partition
                    .log
                    .append_as_leader(records, epoch, system_now_ms())
                {
                    Ok(info) => {
                        r.base_offset = info.first_offset;
                        partition
                            .bytes_in
                            .fetch_add(info.bytes as u64, std::sync::atomic::Ordering::Relaxed);
                        r.log_append_time_ms = info.log_append_time;
                        r.log_start_offset = partition.log.log_start_offset();
                        partition.after_append();
                        tracing::trace!(
                            topic = %partition.topic,
                            partition = partition.index,
                            offset = info.last_offset,
                            "produce appended by the leader"
                        );
                        if acks == -1 {
                            waits.push(Wait {
                                topic: out.responses.len(),
                                partition: result.partition_responses.len(),
                                on: partition.clone(),
                                leader_epoch: epoch,
                                required: info.last_offset + 1,
                            });
                        }
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
                        fail(&mut r, e.error_code(), e.to_string());
                        // A failing disk (KAFKA_STORAGE_ERROR) takes its log dir offline; the
                        // client finds the new leader.
                        let _ = rm.storage_error(partition.dir_id, e);
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
        (out, waits)
    })
    .await;
    let (response, waits) = appended.map_err(BrokerError::task("a produce request's appends"))?;
    Ok(Appended {
        response,
        waits,
        deadline: tokio::time::Instant::now()
            + Duration::from_millis(u64::try_from(timeout_ms).unwrap_or(0)),
        version,
        acks,
    })
}

/// An acks=-1 append waiting for the in-sync replicas: where its answer sits in the response,
/// its partition, the leader epoch it was written in and the offset the high watermark must
/// pass.
struct Wait {
    topic: usize,
    partition: usize,
    on: Arc<Partition>,
    leader_epoch: i32,
    required: i64,
}
