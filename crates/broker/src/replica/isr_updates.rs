//! The AlterPartition sender: ISR changes proposed by the partitions this broker leads (the
//! [`IsrOutbox`](crate::replica::partition::IsrOutbox)) go to the active controller in one request at a
//! time, batched, each member with its broker epoch (AlterPartition v3). Each answer is handed
//! back to its partition's replication core; a request that fails as a whole (no controller,
//! a lost connection, NOT_CONTROLLER, STALE_BROKER_EPOCH) is sent again after a pause, for the
//! proposals still pending: a proposal is never forgotten for want of an answer.

use crate::cluster::controller_client::ControllerClient;
use crate::cluster::lifecycle::BrokerState;
use crate::cluster::view::View;
use crate::replica::replica_manager::ReplicaManager;
use fjord_protocol::generated::alter_partition_request::{
    AlterPartitionRequest, BrokerState as MemberState, PartitionData, TopicData,
};
use fjord_protocol::{RequestBody, ResponseBody, Uuid};
use fjord_replication::{PartitionState, ProposedIsr};
use std::collections::BTreeMap;
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::{watch, Mutex};

/// The AlterPartition version sent (member broker epochs, topic ids).
const ALTER_PARTITION_VERSION: i16 = 3;
/// The pause before a failed request is sent again.
const RETRY_BACKOFF: Duration = Duration::from_millis(200);
/// The most partitions one AlterPartition request carries (the rest follow in the next one).
/// Each accepted change is a metadata record, and the controller refuses an operation of
/// more than 10,000 records as a whole: one request for every partition a broker leads
/// (30,000 followers rejoining after a restart) was refused again and again, and the
/// restarted broker never rejoined those ISRs (found by the scale bench).
pub const MAX_PARTITIONS_PER_REQUEST: usize = 2_000;

/// Sends the outbox's proposals until the process ends.
pub async fn send_isr_updates(
    replicas: Arc<ReplicaManager>,
    controller: Arc<ControllerClient>,
    view: watch::Receiver<View>,
    broker: Arc<Mutex<BrokerState>>,
) {
    let outbox = replicas.outbox().clone();
    loop {
        let taken = outbox.take_all();
        // Only what its partition still has pending (a newer image may have settled it).
        let mut batch: Vec<((Uuid, i32), ProposedIsr)> = taken
            .into_iter()
            .filter(|((topic, index), proposal)| {
                replicas
                    .get(*topic, *index)
                    .and_then(|p| p.pending_proposal())
                    .is_some_and(|p| p == *proposal)
            })
            .collect();
        // At most one request's worth now; the rest go next (unless replaced meanwhile).
        if batch.len() > MAX_PARTITIONS_PER_REQUEST {
            for (key, proposal) in batch.split_off(MAX_PARTITIONS_PER_REQUEST) {
                outbox.put_unless_newer(key, proposal);
            }
        }
        if batch.is_empty() {
            outbox.ready.notified().await;
            continue;
        }
        let my_epoch = broker.lock().await.epoch;
        let answered = match my_epoch {
            Some(epoch) => send(&controller, &view, replicas.node_id(), epoch, &batch).await,
            None => Err("not registered".to_string()),
        };
        match answered {
            Ok(results) => {
                for (key, proposal) in &batch {
                    let Some(p) = replicas.get(key.0, key.1) else {
                        continue;
                    };
                    match results.get(key) {
                        Some(result) => {
                            match result {
                                Ok(state) => tracing::info!(
                                    topic = %p.topic,
                                    partition = p.index,
                                    isr = ?state.isr,
                                    partition_epoch = state.partition_epoch,
                                    "ISR changed"
                                ),
                                Err(code) => tracing::warn!(
                                    topic = %p.topic,
                                    partition = p.index,
                                    proposed = ?proposal.isr,
                                    "AlterPartition refused: error {code}"
                                ),
                            }
                            p.on_alter_response(proposal, result.clone())
                        }
                        // Left out of the answer: asked again.
                        None => outbox.put(*key, proposal.clone()),
                    }
                }
            }
            Err(e) => {
                tracing::debug!(
                    "AlterPartition for {} partitions: {e}; retrying",
                    batch.len()
                );
                tokio::time::sleep(RETRY_BACKOFF).await;
                for (key, proposal) in batch {
                    outbox.put(key, proposal);
                }
            }
        }
    }
}

/// One AlterPartition request for `batch`; each partition's answer: its new state or its error
/// code.
async fn send(
    controller: &ControllerClient,
    view: &watch::Receiver<View>,
    me: i32,
    my_epoch: i64,
    batch: &[((Uuid, i32), ProposedIsr)],
) -> Result<BTreeMap<(Uuid, i32), Result<PartitionState, i16>>, String> {
    let image = view.borrow().image.clone();
    let epoch_of = |b: i32| image.cluster.brokers.get(&b).map_or(-1, |r| r.epoch);
    let mut topics: BTreeMap<Uuid, Vec<PartitionData>> = BTreeMap::new();
    for ((topic, index), proposal) in batch {
        topics.entry(*topic).or_default().push(PartitionData {
            partition_index: *index,
            leader_epoch: proposal.leader_epoch,
            partition_epoch: proposal.partition_epoch,
            leader_recovery_state: proposal.leader_recovery_state,
            new_isr_with_epochs: proposal
                .isr
                .iter()
                .map(|b| MemberState {
                    broker_id: *b,
                    broker_epoch: epoch_of(*b),
                    ..Default::default()
                })
                .collect(),
            ..Default::default()
        });
    }
    let body = RequestBody::AlterPartition(AlterPartitionRequest {
        broker_id: me,
        broker_epoch: my_epoch,
        topics: topics
            .into_iter()
            .map(|(topic_id, partitions)| TopicData {
                topic_id,
                partitions,
                ..Default::default()
            })
            .collect(),
        ..Default::default()
    });
    let response = controller
        .call(body, ALTER_PARTITION_VERSION)
        .await
        .map_err(|e| e.to_string())?;
    let ResponseBody::AlterPartition(r) = response else {
        return Err("AlterPartition answered with another API".into());
    };
    if r.error_code != 0 {
        return Err(format!("error {}", r.error_code));
    }
    let mut out = BTreeMap::new();
    for t in r.topics {
        for p in t.partitions {
            let result = if p.error_code != 0 {
                Err(p.error_code)
            } else {
                let replicas = image
                    .topics
                    .by_id
                    .get(&t.topic_id)
                    .and_then(|topic| topic.partitions.get(&p.partition_index))
                    .map(|r| r.replicas.clone())
                    .unwrap_or_default();
                Ok(PartitionState {
                    leader_epoch: p.leader_epoch,
                    partition_epoch: p.partition_epoch,
                    replicas,
                    isr: p.isr,
                    recovering: p.leader_recovery_state == 1,
                })
            };
            out.insert((t.topic_id, p.partition_index), result);
        }
    }
    Ok(out)
}
