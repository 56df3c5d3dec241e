//! The partition-log requests besides Produce and Fetch: OffsetForLeaderEpoch (the end offset
//! of an epoch in the leader's log, KIP-101/KIP-320), DeleteRecords (moves the log start up,
//! at most to the high watermark; -1 means the high watermark) and DescribeLogDirs (the log
//! dir, its partitions' sizes and lags, and the volume's total and usable bytes) and
//! DescribeProducers (the leader's idempotent producers). Log work runs off the async workers.

use crate::error::BrokerError;
use crate::replica::replica_manager::ReplicaManager;
use fjord_metadata::MetadataImage;
use fjord_protocol::generated::describe_producers_request::DescribeProducersRequest;
use fjord_protocol::generated::describe_producers_response::DescribeProducersResponse;
use fjord_protocol::generated::{
    delete_records_request::DeleteRecordsRequest,
    delete_records_response::{
        DeleteRecordsPartitionResult, DeleteRecordsResponse, DeleteRecordsTopicResult,
    },
    describe_log_dirs_request::DescribeLogDirsRequest,
    describe_log_dirs_response::{
        DescribeLogDirsPartition, DescribeLogDirsResponse, DescribeLogDirsResult,
        DescribeLogDirsTopic,
    },
    offset_for_leader_epoch_request::OffsetForLeaderEpochRequest,
    offset_for_leader_epoch_response::{
        EpochEndOffset, OffsetForLeaderEpochResponse, OffsetForLeaderTopicResult,
    },
};
use fjord_protocol::ErrorCode;
use std::collections::BTreeMap;
use std::sync::Arc;

/// Runs `f` off the async workers.
async fn blocking<T: Send + 'static>(
    what: &'static str,
    f: impl FnOnce() -> T + Send + 'static,
) -> Result<T, BrokerError> {
    tokio::task::spawn_blocking(f)
        .await
        .map_err(BrokerError::task(what))
}

/// OffsetForLeaderEpoch.
pub async fn offset_for_leader_epoch(
    replicas: &Arc<ReplicaManager>,
    image: Arc<MetadataImage>,
    request: OffsetForLeaderEpochRequest,
    version: i16,
) -> Result<OffsetForLeaderEpochResponse, BrokerError> {
    let rm = replicas.clone();
    blocking("a OffsetForLeaderEpoch request", move || {
        let mut out = OffsetForLeaderEpochResponse::default();
        for t in request.topics {
            let mut result = OffsetForLeaderTopicResult {
                topic: t.topic.clone(),
                ..Default::default()
            };
            for p in t.partitions {
                let current = if version >= 2 {
                    p.current_leader_epoch
                } else {
                    -1
                };
                let mut r = EpochEndOffset {
                    partition: p.partition,
                    leader_epoch: -1,
                    end_offset: -1,
                    ..Default::default()
                };
                match rm.leader_of(&image, &t.topic, p.partition, current) {
                    Ok(partition) => {
                        let (epoch, end) = partition.log.end_offset_for_epoch(p.leader_epoch);
                        r.leader_epoch = epoch;
                        r.end_offset = end;
                    }
                    Err(code) => r.error_code = code.code(),
                }
                result.partitions.push(r);
            }
            out.topics.push(result);
        }
        out
    })
    .await
}

/// DeleteRecords.
pub async fn delete_records(
    replicas: &Arc<ReplicaManager>,
    image: Arc<MetadataImage>,
    request: DeleteRecordsRequest,
) -> Result<DeleteRecordsResponse, BrokerError> {
    let rm = replicas.clone();
    blocking("a DeleteRecords request", move || {
        let mut out = DeleteRecordsResponse::default();
        for t in request.topics {
            let mut result = DeleteRecordsTopicResult {
                name: t.name.clone(),
                ..Default::default()
            };
            for p in t.partitions {
                let mut r = DeleteRecordsPartitionResult {
                    partition_index: p.partition_index,
                    low_watermark: -1,
                    ..Default::default()
                };
                match rm.leader_of(&image, &t.name, p.partition_index, -1) {
                    Ok(partition) => {
                        let hw = partition.log.high_watermark();
                        let offset = if p.offset == -1 { hw } else { p.offset };
                        if offset < 0 || offset > hw {
                            r.error_code = ErrorCode::OffsetOutOfRange.code();
                        } else {
                            match partition.log.delete_records(offset) {
                                Ok(start) => {
                                    r.low_watermark = start;
                                    // Followers' fetches (and their sessions) see the log
                                    // start move, and follow it, as Kafka's do.
                                    partition.watchers.wake();
                                }
                                Err(e) => r.error_code = e.error_code().code(),
                            }
                        }
                    }
                    Err(code) => r.error_code = code.code(),
                }
                result.partitions.push(r);
            }
            out.topics.push(result);
        }
        out
    })
    .await
}

/// DescribeLogDirs: every log dir of this broker with the replicas it holds (size, lag 0), and
/// the future replicas of moves under way (bytes copied, the offsets not copied yet); a failed
/// dir answers KAFKA_STORAGE_ERROR and no replicas, as Kafka's does.
pub async fn describe_log_dirs(
    replicas: &Arc<ReplicaManager>,
    request: DescribeLogDirsRequest,
    version: i16,
) -> Result<DescribeLogDirsResponse, BrokerError> {
    let rm = replicas.clone();
    blocking("a DescribeLogDirs request", move || {
        let wanted: Option<BTreeMap<String, Vec<i32>>> = request
            .topics
            .map(|ts| ts.into_iter().map(|t| (t.topic, t.partitions)).collect());
        let mut by_dir: BTreeMap<
            fjord_protocol::Uuid,
            BTreeMap<String, Vec<DescribeLogDirsPartition>>,
        > = BTreeMap::new();
        for p in rm.all() {
            let included = wanted
                .as_ref()
                .is_none_or(|w| w.get(&p.topic).is_some_and(|ps| ps.contains(&p.index)));
            if !included {
                continue;
            }
            by_dir
                .entry(p.dir_id)
                .or_default()
                .entry(p.topic.clone())
                .or_default()
                .push(DescribeLogDirsPartition {
                    partition_index: p.index,
                    partition_size: i64::try_from(p.log.size_in_bytes()).unwrap_or(i64::MAX),
                    offset_lag: 0,
                    is_future_key: false,
                    remote_size: rm
                        .tiering()
                        .filter(|_| p.log.config().remote_storage)
                        .map_or(-1, |t| t.remote_size(&p)),
                    ..Default::default()
                });
        }
        // Replicas on their way to another dir: a future replica there, with what is copied.
        for (key, target, progress) in rm.moving() {
            let Some(p) = rm.get(key.0, key.1) else {
                continue;
            };
            let included = wanted
                .as_ref()
                .is_none_or(|w| w.get(&p.topic).is_some_and(|ps| ps.contains(&p.index)));
            if !included || p.dir_id == target {
                continue;
            }
            let copied_below = progress
                .copied_below
                .load(std::sync::atomic::Ordering::Relaxed);
            by_dir
                .entry(target)
                .or_default()
                .entry(p.topic.clone())
                .or_default()
                .push(DescribeLogDirsPartition {
                    partition_index: p.index,
                    partition_size: progress.bytes.load(std::sync::atomic::Ordering::Relaxed),
                    offset_lag: (p.log.log_end_offset() - copied_below).max(0),
                    is_future_key: true,
                    ..Default::default()
                });
        }
        let mut results = Vec::new();
        for d in rm.dirs().all() {
            let topics = by_dir.remove(&d.id).unwrap_or_default();
            let mut result = DescribeLogDirsResult {
                log_dir: d.path.display().to_string(),
                total_bytes: -1,
                usable_bytes: -1,
                ..Default::default()
            };
            if !d.is_online() {
                result.error_code = ErrorCode::KafkaStorageError.code();
                results.push(result);
                continue;
            }
            result.topics = topics
                .into_iter()
                .map(|(name, mut partitions)| {
                    partitions.sort_by_key(|p| p.partition_index);
                    DescribeLogDirsTopic {
                        name,
                        partitions,
                        ..Default::default()
                    }
                })
                .collect();
            if version >= 4 {
                match rustix::fs::statvfs(&d.path) {
                    Ok(s) => {
                        let block = s.f_frsize;
                        result.total_bytes = i64::try_from(s.f_blocks * block).unwrap_or(i64::MAX);
                        result.usable_bytes = i64::try_from(s.f_bavail * block).unwrap_or(i64::MAX);
                    }
                    Err(e) => {
                        tracing::warn!(dir = %d.path.display(), "statvfs: {e}");
                    }
                }
            }
            results.push(result);
        }
        DescribeLogDirsResponse {
            results,
            ..Default::default()
        }
    })
    .await
}

/// DescribeProducers: the producers a replica of each partition knows (id, epoch, last
/// sequence, last timestamp, the coordinator epoch of its last marker and the first offset of
/// its open transaction). As in Kafka, any broker hosting a replica answers (leader or not:
/// `kafka-transactions describe-producers --broker-id` asks a follower, and the recovery tool
/// asks the replica it is about to elect); a broker hosting none answers as Kafka does.
pub fn describe_producers(
    replicas: &Arc<ReplicaManager>,
    image: &MetadataImage,
    request: &DescribeProducersRequest,
) -> DescribeProducersResponse {
    use fjord_protocol::generated::describe_producers_response::{
        PartitionResponse, ProducerState, TopicResponse,
    };
    let mut out = DescribeProducersResponse::default();
    for t in &request.topics {
        let mut topic = TopicResponse {
            name: t.name.clone(),
            ..Default::default()
        };
        for index in &t.partition_indexes {
            let mut r = PartitionResponse {
                partition_index: *index,
                ..Default::default()
            };
            let hosted = image
                .topics
                .get_by_name(&t.name)
                .filter(|x| x.partitions.contains_key(index))
                .ok_or(fjord_protocol::ErrorCode::UnknownTopicOrPartition)
                .and_then(|x| {
                    replicas
                        .get(x.id, *index)
                        .ok_or_else(|| replicas.not_served(x.id, *index))
                });
            match hosted {
                Ok(p) => {
                    let state = p.log.producer_state();
                    let mut ids: Vec<&i64> = state.producers().keys().collect();
                    ids.sort();
                    for id in ids {
                        let e = &state.producers()[id];
                        r.active_producers.push(ProducerState {
                            producer_id: *id,
                            producer_epoch: i32::from(e.epoch),
                            last_sequence: e.batches.back().map_or(-1, |b| b.last_seq),
                            last_timestamp: e.last_timestamp,
                            coordinator_epoch: e.coordinator_epoch,
                            current_txn_start_offset: e.current_txn_first_offset.unwrap_or(-1),
                            ..Default::default()
                        });
                    }
                }
                Err(code) => r.error_code = code.code(),
            }
            topic.partitions.push(r);
        }
        out.topics.push(topic);
    }
    out
}
