//! WriteTxnMarkers on a partition leader: each marker is appended to its partitions as a
//! control batch (as a coordinator append: the producer's epoch and the coordinator's epoch
//! are checked, sequences are not) and answered once every in-sync replica has it. A marker
//! for `__consumer_offsets` goes through the group coordinator, which makes the offsets
//! committed in the transaction visible (or drops them) as it folds the marker.

use crate::coordinator::group_coordinator::{GroupCoordinator, OFFSETS_TOPIC};
use crate::replica::replica_manager::{Partition, ReplicaManager};
use fjord_metadata::MetadataImage;
use fjord_protocol::generated::write_txn_markers_request::WriteTxnMarkersRequest;
use fjord_protocol::generated::write_txn_markers_response::{
    WritableTxnMarkerPartitionResult, WritableTxnMarkerResult, WritableTxnMarkerTopicResult,
    WriteTxnMarkersResponse,
};
use fjord_protocol::records::EndTxnMarker;
use fjord_protocol::ErrorCode;
use std::sync::Arc;

/// How long a marker waits for the in-sync replicas (Kafka's `request.timeout.ms` default).
const MARKER_COMMIT_TIMEOUT: std::time::Duration = std::time::Duration::from_secs(30);
/// The most partitions one WriteTxnMarkers request may name.
pub const MAX_MARKER_PARTITIONS: usize = 10_000;

/// One marker appended to one led partition, waiting for its replicas.
struct Pending {
    marker: usize,
    topic: usize,
    partition: usize,
    on: Arc<Partition>,
    leader_epoch: i32,
    end: i64,
}

/// Writes the markers of `request` into the partitions this broker leads.
pub async fn write_txn_markers(
    replicas: &Arc<ReplicaManager>,
    groups: &Arc<GroupCoordinator>,
    image: &Arc<MetadataImage>,
    request: WriteTxnMarkersRequest,
) -> WriteTxnMarkersResponse {
    let mut response = WriteTxnMarkersResponse::default();
    let mut pending = Vec::new();
    let mut named = 0usize;
    for (mi, m) in request.markers.iter().enumerate() {
        let marker = EndTxnMarker {
            commit: m.transaction_result,
            coordinator_epoch: m.coordinator_epoch,
        };
        let mut result = WritableTxnMarkerResult {
            producer_id: m.producer_id,
            ..Default::default()
        };
        for (ti, t) in m.topics.iter().enumerate() {
            let mut topic = WritableTxnMarkerTopicResult {
                name: t.name.clone(),
                ..Default::default()
            };
            for (pi, index) in t.partition_indexes.iter().enumerate() {
                named += 1;
                let code = if named > MAX_MARKER_PARTITIONS {
                    ErrorCode::InvalidRequest
                } else if t.name == OFFSETS_TOPIC {
                    let written = groups
                        .write_marker(image, *index, m.producer_id, m.producer_epoch, marker)
                        .await;
                    written.err().unwrap_or(ErrorCode::None)
                } else {
                    match append(
                        replicas,
                        image,
                        &t.name,
                        *index,
                        m.producer_id,
                        m.producer_epoch,
                        marker,
                    )
                    .await
                    {
                        Ok((on, leader_epoch, end)) => {
                            pending.push(Pending {
                                marker: mi,
                                topic: ti,
                                partition: pi,
                                on,
                                leader_epoch,
                                end,
                            });
                            ErrorCode::None
                        }
                        Err(code) => code,
                    }
                };
                topic.partitions.push(WritableTxnMarkerPartitionResult {
                    partition_index: *index,
                    error_code: code.code(),
                    ..Default::default()
                });
            }
            result.topics.push(topic);
        }
        response.markers.push(result);
    }
    let clock = groups.clock();
    let deadline = clock.monotonic_ms() + MARKER_COMMIT_TIMEOUT.as_millis() as i64;
    for p in pending {
        if let Err(code) =
            p.on.wait_committed(p.leader_epoch, p.end, deadline, clock)
                .await
        {
            response.markers[p.marker].topics[p.topic].partitions[p.partition].error_code =
                code.code();
        }
    }
    response
}

/// Appends one marker to a partition this broker leads: the partition, its leader epoch and
/// the offset past the marker.
async fn append(
    replicas: &Arc<ReplicaManager>,
    image: &MetadataImage,
    topic: &str,
    index: i32,
    producer_id: i64,
    producer_epoch: i16,
    marker: EndTxnMarker,
) -> Result<(Arc<Partition>, i32, i64), ErrorCode> {
    let partition = replicas.leader_of(image, topic, index, -1)?;
    let leader_epoch = partition.leader_epoch();
    let now = fjord_util::system_now_ms();
    let batch = marker
        .to_batch(producer_id, producer_epoch, now)
        .map_err(|_| ErrorCode::UnknownServerError)?;
    let on = partition.clone();
    let appended = tokio::task::spawn_blocking(move || {
        let info = on.log.append_as_coordinator(batch, leader_epoch, now);
        if info.is_ok() {
            on.after_append();
        }
        info
    })
    .await
    .map_err(|_| ErrorCode::UnknownServerError)?;
    match appended {
        Ok(info) => Ok((partition, leader_epoch, info.last_offset + 1)),
        Err(e) => Err(e.error_code()),
    }
}
