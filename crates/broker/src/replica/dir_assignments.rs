//! The AssignReplicasToDirs sender (KIP-858): the replicas this broker placed in a log dir the
//! metadata does not name yet are told to the active controller, batched, with the broker's
//! epoch; each accepted assignment is dropped from the list, a refused or unanswered one is
//! sent again after a pause. The controller's answer (a PartitionChangeRecord with the
//! replica's dir) reaches the image, which then agrees with the disk.

use crate::cluster::controller_client::ControllerClient;
use crate::cluster::lifecycle::BrokerState;
use crate::replica::replica_manager::ReplicaManager;
use fjord_protocol::generated::assign_replicas_to_dirs_request::{
    AssignReplicasToDirsRequest, DirectoryData, PartitionData, TopicData,
};
use fjord_protocol::{RequestBody, ResponseBody, Uuid};
use std::collections::BTreeMap;
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::Mutex;

/// The most replicas one request assigns.
pub const MAX_ASSIGNMENTS_PER_REQUEST: usize = 1000;
/// How often the list is looked at.
const INTERVAL: Duration = Duration::from_millis(500);

/// Sends the replica manager's unassigned replicas until the process ends.
pub async fn send_dir_assignments(
    replicas: Arc<ReplicaManager>,
    controller: Arc<ControllerClient>,
    broker: Arc<Mutex<BrokerState>>,
) {
    loop {
        tokio::time::sleep(INTERVAL).await;
        let batch = replicas.unassigned(MAX_ASSIGNMENTS_PER_REQUEST);
        if batch.is_empty() {
            continue;
        }
        let Some(epoch) = broker.lock().await.epoch else {
            continue;
        };
        let body = RequestBody::AssignReplicasToDirs(request(replicas.node_id(), epoch, &batch));
        match controller.call(body, 0).await {
            Ok(ResponseBody::AssignReplicasToDirs(r)) if r.error_code == 0 => {
                let done: Vec<((Uuid, i32), Uuid)> = r
                    .directories
                    .iter()
                    .flat_map(|d| {
                        d.topics.iter().flat_map(move |t| {
                            t.partitions
                                .iter()
                                .filter(|p| p.error_code == 0)
                                .map(move |p| ((t.topic_id, p.partition_index), d.id))
                        })
                    })
                    .collect();
                tracing::info!(replicas = done.len(), "log dirs of replicas assigned");
                replicas.assigned(&done);
            }
            Ok(other) => tracing::warn!("AssignReplicasToDirs answered {other:?}"),
            Err(e) => tracing::warn!("AssignReplicasToDirs: {e}"),
        }
    }
}

/// The request assigning `batch` ((topic id, partition), dir).
pub fn request(
    broker_id: i32,
    epoch: i64,
    batch: &[((Uuid, i32), Uuid)],
) -> AssignReplicasToDirsRequest {
    let mut by_dir: BTreeMap<Uuid, BTreeMap<Uuid, Vec<i32>>> = BTreeMap::new();
    for ((topic, index), dir) in batch {
        by_dir
            .entry(*dir)
            .or_default()
            .entry(*topic)
            .or_default()
            .push(*index);
    }
    AssignReplicasToDirsRequest {
        broker_id,
        broker_epoch: epoch,
        directories: by_dir
            .into_iter()
            .map(|(id, topics)| DirectoryData {
                id,
                topics: topics
                    .into_iter()
                    .map(|(topic_id, partitions)| TopicData {
                        topic_id,
                        partitions: partitions
                            .into_iter()
                            .map(|partition_index| PartitionData {
                                partition_index,
                                ..Default::default()
                            })
                            .collect(),
                        ..Default::default()
                    })
                    .collect(),
                ..Default::default()
            })
            .collect(),
        ..Default::default()
    }
}
