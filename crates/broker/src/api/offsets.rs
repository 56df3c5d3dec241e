//! ListOffsets: the earliest offset (-2: the log start, below the local log with tiered
//! storage; -4: the earliest on local disk; -5: the last offset in tiered storage, KIP-1005),
//! the latest (-1: the high watermark for consumers, the log end for replicas), the
//! offset of the largest timestamp (-3, KIP-734), or the first offset at or after a timestamp;
//! only offsets a consumer may read are returned. Leader and leader-epoch checks as Fetch;
//! Kafka's debugging replica id (-2) reads any local replica, a follower's or an offline
//! partition's, with no isolation bound (its latest offset is the log end), as Kafka's does.
//! Lookups run off the async workers.

use crate::error::BrokerError;
use crate::replica::replica_manager::ReplicaManager;
use fjord_log::OffsetLookup;
use fjord_metadata::MetadataImage;
use fjord_protocol::generated::list_offsets_request::ListOffsetsRequest;
use fjord_protocol::generated::list_offsets_response::{
    ListOffsetsPartitionResponse, ListOffsetsResponse, ListOffsetsTopicResponse,
};
use std::sync::Arc;

/// The isolation level of a read_committed client.
pub const READ_COMMITTED: i8 = 1;
/// Kafka's debugging replica id: answered from any local replica.
pub const DEBUGGING_REPLICA_ID: i32 = -2;

/// Handles a ListOffsets request.
pub async fn list_offsets(
    replicas: &Arc<ReplicaManager>,
    image: Arc<MetadataImage>,
    request: ListOffsetsRequest,
    version: i16,
) -> Result<ListOffsetsResponse, BrokerError> {
    let rm = replicas.clone();
    tokio::task::spawn_blocking(move || {
        let from_replica = request.replica_id >= 0 || request.replica_id == DEBUGGING_REPLICA_ID;
        let debugging = request.replica_id == DEBUGGING_REPLICA_ID;
        let isolation_level = request.isolation_level;
        let mut out = ListOffsetsResponse::default();
        for t in request.topics {
            let mut result = ListOffsetsTopicResponse {
                name: t.name.clone(),
                ..Default::default()
            };
            for p in t.partitions {
                let mut r = ListOffsetsPartitionResponse {
                    partition_index: p.partition_index,
                    timestamp: -1,
                    offset: -1,
                    leader_epoch: -1,
                    ..Default::default()
                };
                let current = if version >= 4 {
                    p.current_leader_epoch
                } else {
                    -1
                };
                let partition =
                    match rm.replica_of(&image, &t.name, p.partition_index, current, !debugging) {
                        Ok(partition) => partition,
                        Err(code) => {
                            r.error_code = code.code();
                            result.partitions.push(r);
                            continue;
                        }
                    };
                let epoch = partition.leader_epoch();
                let log = &partition.log;
                // read_committed (isolation level 1, v2+) sees up to the last stable offset.
                let readable = if from_replica {
                    log.log_end_offset()
                } else if version >= 2 && isolation_level == READ_COMMITTED {
                    log.last_stable_offset()
                } else {
                    log.high_watermark()
                };
                if p.timestamp == -4 || p.timestamp == -5 {
                    let epoch = if version >= 4 { epoch } else { -1 };
                    let (offset, at) = tiered_offset(&partition, rm.tiering(), p.timestamp);
                    r.offset = offset;
                    // -4 answers as -2 does (the leader's epoch); -5 the epoch of its record.
                    r.leader_epoch = match (version >= 4, p.timestamp) {
                        (false, _) => -1,
                        (true, -4) => epoch,
                        (true, _) => at.unwrap_or(-1),
                    };
                    result.partitions.push(r);
                    continue;
                }
                let lookup = match p.timestamp {
                    -1 => None,
                    -2 => Some(OffsetLookup::Earliest),
                    -3 => Some(OffsetLookup::MaxTimestamp),
                    t if t >= 0 => Some(OffsetLookup::Timestamp(t)),
                    _ => {
                        // -6 and below: kinds of tiered-storage offsets this broker has none of.
                        result.partitions.push(r);
                        continue;
                    }
                };
                // LeaderEpoch exists from v4 on.
                let epoch = if version >= 4 { epoch } else { -1 };
                match lookup {
                    None => {
                        r.offset = readable;
                        r.leader_epoch = epoch;
                    }
                    Some(l) => match remote_first(&partition, rm.tiering(), l)
                        .unwrap_or_else(|| log.lookup_offset(l).map_err(|e| e.error_code()))
                    {
                        Ok(Some((ts, offset)))
                            if offset < readable || l == OffsetLookup::Earliest =>
                        {
                            r.timestamp = ts;
                            r.offset = offset;
                            r.leader_epoch = epoch;
                        }
                        Ok(_) => {}
                        Err(code) => r.error_code = code.code(),
                    },
                }
                result.partitions.push(r);
            }
            out.topics.push(result);
        }
        out
    })
    .await
    .map_err(BrokerError::task("a ListOffsets request's lookups"))
}

/// A lookup by timestamp on a tiered partition looks in the store first (Kafka's order):
/// `Some` with the store's answer when it has one (or failed), `None` to look locally.
fn remote_first(
    partition: &crate::replica::partition::Partition,
    tiering: Option<&Arc<crate::tiered::Tiering>>,
    lookup: OffsetLookup,
) -> Option<Result<Option<(i64, i64)>, fjord_protocol::ErrorCode>> {
    let OffsetLookup::Timestamp(ts) = lookup else {
        return None;
    };
    let t = tiering.filter(|_| partition.log.config().remote_storage)?;
    // Only what lies below the local log start is in the store alone.
    if partition.log.local_log_start_offset() <= partition.log.log_start_offset() {
        return None;
    }
    match t.offset_for_timestamp_blocking(partition, ts) {
        Ok(None) => None,
        other => Some(other),
    }
}

/// ListOffsets' tiered-storage lookups: -4, the first offset on local disk (with the epoch of
/// its record); -5, the last offset in tiered storage (-1 when it holds none, as when the
/// topic does not tier).
fn tiered_offset(
    partition: &crate::replica::partition::Partition,
    tiering: Option<&Arc<crate::tiered::Tiering>>,
    timestamp: i64,
) -> (i64, Option<i32>) {
    let log = &partition.log;
    let offset = match tiering {
        _ if timestamp == -4 => log.local_log_start_offset(),
        Some(t) if log.config().remote_storage => t.highest_offset(partition),
        _ => -1,
    };
    let epoch = log
        .epoch_entries()
        .iter()
        .rev()
        .find(|e| e.start_offset <= offset)
        .map(|e| e.epoch);
    (offset, if offset < 0 { Some(-1) } else { epoch })
}
