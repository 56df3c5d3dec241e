//! Fetch: whole batches from each partition's leader, up to the high watermark for consumers
//! (the log end for replicas), at least one batch even past the byte limits (KIP-74), an empty
//! record set (never null) where there is nothing new; KIP-320 diverging epochs when
//! `last_fetched_epoch` is given; FENCED_LEADER_EPOCH / UNKNOWN_LEADER_EPOCH on
//! `current_leader_epoch`. A fetch that found fewer than `min_bytes` waits (up to
//! `max_wait_ms`) on its partitions' watchers and reads again. NOT_LEADER_OR_FOLLOWER carries
//! the current leader (v12+) and its endpoint (v16+, KIP-951). Fetch sessions are declined as
//! KIP-227 allows (session id 0: every fetch is a full one); an incremental fetch gets
//! FETCH_SESSION_ID_NOT_FOUND. Reads run off the async workers.

use crate::replica_manager::{Partition, ReplicaManager};
use bytes::Bytes;
use fjord_metadata::MetadataImage;
use fjord_protocol::generated::fetch_request::FetchRequest;
use fjord_protocol::generated::fetch_response::{
    EpochEndOffset, FetchResponse, FetchableTopicResponse, LeaderIdAndEpoch, NodeEndpoint,
    PartitionData,
};
use fjord_protocol::ErrorCode;
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::Notify;

/// The first Fetch version that names topics by id.
const TOPIC_ID_VERSION: i16 = 13;
/// The first Fetch version with the leaders' endpoints beside NOT_LEADER_OR_FOLLOWER (KIP-951).
const NODE_ENDPOINTS_VERSION: i16 = 16;
/// The first Fetch version with sessions (KIP-227).
const SESSION_VERSION: i16 = 7;
/// The longest a fetch waits, whatever it asks (Kafka's clients ask for 500 ms).
pub const MAX_WAIT: Duration = Duration::from_secs(30);

/// One partition of the request, resolved.
struct Wanted {
    topic: usize,
    index: i32,
    fetch_offset: i64,
    current_leader_epoch: i32,
    last_fetched_epoch: i32,
    max_bytes: usize,
    partition: Result<Arc<Partition>, (ErrorCode, i32, i32)>,
}

/// Handles a Fetch request.
pub async fn fetch(
    replicas: &Arc<ReplicaManager>,
    image: Arc<MetadataImage>,
    listener: &str,
    request: FetchRequest,
    version: i16,
) -> Result<FetchResponse, String> {
    if version >= SESSION_VERSION {
        let refusal = match (request.session_id, request.session_epoch) {
            (0, 0) | (0, -1) => None,
            (0, _) => Some(ErrorCode::InvalidFetchSessionEpoch),
            _ => Some(ErrorCode::FetchSessionIdNotFound),
        };
        if let Some(code) = refusal {
            return Ok(FetchResponse {
                error_code: code.code(),
                ..Default::default()
            });
        }
    }
    let me = replicas.node_id();
    let replica_id = if version >= 15 {
        request.replica_state.replica_id
    } else {
        request.replica_id
    };
    let from_replica = replica_id >= 0;
    let mut topics = Vec::new();
    let mut wanted = Vec::new();
    for t in &request.topics {
        let topic = if version >= TOPIC_ID_VERSION {
            image.topics.by_id.get(&t.topic_id).cloned()
        } else {
            image.topics.get_by_name(&t.topic).cloned()
        };
        topics.push(FetchableTopicResponse {
            topic: t.topic.clone(),
            topic_id: t.topic_id,
            ..Default::default()
        });
        for p in &t.partitions {
            let partition = match &topic {
                None if version >= TOPIC_ID_VERSION => Err((ErrorCode::UnknownTopicId, -1, -1)),
                None => Err((ErrorCode::UnknownTopicOrPartition, -1, -1)),
                Some(topic) => match topic.partitions.get(&p.partition) {
                    None => Err((ErrorCode::UnknownTopicOrPartition, -1, -1)),
                    Some(reg) => match replicas.get(topic.id, p.partition) {
                        Some(h) if h.led_by(me) => Ok(h),
                        _ => Err((ErrorCode::NotLeaderOrFollower, reg.leader, reg.leader_epoch)),
                    },
                },
            };
            wanted.push(Wanted {
                topic: topics.len() - 1,
                index: p.partition,
                fetch_offset: p.fetch_offset,
                current_leader_epoch: if version >= 9 {
                    p.current_leader_epoch
                } else {
                    -1
                },
                last_fetched_epoch: if version >= 12 {
                    p.last_fetched_epoch
                } else {
                    -1
                },
                max_bytes: usize::try_from(p.partition_max_bytes).unwrap_or(0),
                partition,
            });
        }
    }
    let wanted = Arc::new(wanted);
    let max_bytes = usize::try_from(request.max_bytes).unwrap_or(0);
    let min_bytes = usize::try_from(request.min_bytes).unwrap_or(0);
    let wait = Duration::from_millis(u64::try_from(request.max_wait_ms).unwrap_or(0)).min(MAX_WAIT);
    let deadline = tokio::time::Instant::now() + wait;
    let waiter = Arc::new(Notify::new());
    loop {
        // Registered before reading: an append between the read and the wait still wakes it.
        for w in wanted.iter() {
            if let Ok(p) = &w.partition {
                p.watchers.watch(&waiter);
            }
        }
        let pass = wanted.clone();
        let (results, bytes, errors) =
            tokio::task::spawn_blocking(move || read_all(&pass, max_bytes, from_replica, version))
                .await
                .map_err(|e| format!("a fetch's reads failed: {e}"))?;
        let done = bytes >= min_bytes || errors || tokio::time::Instant::now() >= deadline;
        if done || wait.is_zero() {
            let mut response = FetchResponse {
                session_id: 0,
                responses: topics,
                ..Default::default()
            };
            let mut leaders = Vec::new();
            for (w, data) in wanted.iter().zip(results) {
                if data.current_leader.leader_id >= 0 {
                    leaders.push(data.current_leader.leader_id);
                }
                response.responses[w.topic].partitions.push(data);
            }
            if version >= NODE_ENDPOINTS_VERSION {
                response.node_endpoints = crate::metadata::leader_endpoints(
                    &image,
                    leaders,
                    listener,
                    |node_id, host, port, rack| NodeEndpoint {
                        node_id,
                        host,
                        port,
                        rack,
                        ..Default::default()
                    },
                );
            }
            return Ok(response);
        }
        if tokio::time::timeout_at(deadline, waiter.notified())
            .await
            .is_err()
        {
            // The deadline passed: one last read answers.
            continue;
        }
    }
}

/// One pass over every wanted partition: (results in request order, record bytes read,
/// whether any partition has an error that ends the wait).
fn read_all(
    wanted: &[Wanted],
    max_bytes: usize,
    from_replica: bool,
    version: i16,
) -> (Vec<PartitionData>, usize, bool) {
    let mut out = Vec::with_capacity(wanted.len());
    let mut total = 0usize;
    let mut errors = false;
    for w in wanted {
        let mut d = PartitionData {
            partition_index: w.index,
            high_watermark: -1,
            last_stable_offset: -1,
            log_start_offset: -1,
            records: Some(Bytes::new()),
            ..Default::default()
        };
        let p = match &w.partition {
            Ok(p) => p,
            Err((code, leader, epoch)) => {
                d.error_code = code.code();
                if version >= 12 && *code == ErrorCode::NotLeaderOrFollower {
                    d.current_leader = LeaderIdAndEpoch {
                        leader_id: *leader,
                        leader_epoch: *epoch,
                        ..Default::default()
                    };
                }
                errors = true;
                out.push(d);
                continue;
            }
        };
        let log = &p.log;
        let leader_epoch = p.leader_epoch();
        let hw = log.high_watermark();
        d.high_watermark = hw;
        d.last_stable_offset = hw;
        d.log_start_offset = log.log_start_offset();
        if w.current_leader_epoch >= 0 && w.current_leader_epoch != leader_epoch {
            d.error_code = if w.current_leader_epoch > leader_epoch {
                ErrorCode::UnknownLeaderEpoch
            } else {
                ErrorCode::FencedLeaderEpoch
            }
            .code();
            errors = true;
            out.push(d);
            continue;
        }
        if w.last_fetched_epoch >= 0 {
            let (epoch, end) = log.end_offset_for_epoch(w.last_fetched_epoch);
            if epoch < w.last_fetched_epoch || end < w.fetch_offset {
                d.diverging_epoch = EpochEndOffset {
                    epoch,
                    end_offset: end,
                    ..Default::default()
                };
                errors = true;
                out.push(d);
                continue;
            }
        }
        let stop = if from_replica {
            log.log_end_offset()
        } else {
            hw
        };
        let room = max_bytes.saturating_sub(total).min(w.max_bytes);
        match log.read(w.fetch_offset, room, Some(stop), total == 0) {
            Ok(r) => {
                total += r.records.len();
                d.records = Some(r.records);
            }
            Err(e) => {
                d.error_code = e.error_code().code();
                errors = true;
            }
        }
        out.push(d);
    }
    (out, total, errors)
}
