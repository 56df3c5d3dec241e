//! Asking every replica's broker about its log: GetReplicaLogInfo to each broker that holds a
//! replica, at most 1000 partitions per request, asking again for what HasMoreData left out,
//! retrying failures with backoff until the deadline. Brokers are asked concurrently.

use fjord_admin::{expect_response, Admin, AdminError, ClusterInfo};
use fjord_log::epoch::EpochEntry;
use fjord_protocol::generated::get_replica_log_info_request::{
    GetReplicaLogInfoRequest, TopicPartitions,
};
use fjord_protocol::{RequestBody, Uuid};
use fjord_replication::recovery::{LogInfo, ReplicaState};
use std::collections::{BTreeMap, BTreeSet, VecDeque};
use std::sync::Arc;
use tokio::time::Instant;

/// The most partitions one GetReplicaLogInfo request asks about (docs/EXTENSIONS.md).
pub const MAX_PARTITIONS_PER_REQUEST: usize = 1000;

/// A partition by topic id.
pub type Key = (Uuid, i32);

/// An offline partition to ask about.
#[derive(Debug, Clone)]
pub struct Asked {
    /// The partition.
    pub key: Key,
    /// Its replicas.
    pub replicas: Vec<i32>,
}

/// Every replica's state, by partition then broker.
pub type Answers = BTreeMap<Key, BTreeMap<i32, ReplicaState>>;

/// Asks every replica's broker about `partitions` until each answered or `deadline` passed.
pub async fn survey(
    admin: Arc<Admin>,
    cluster: &ClusterInfo,
    partitions: &[Asked],
    deadline: Instant,
) -> Answers {
    let mut answers: Answers = BTreeMap::new();
    let mut per_broker: BTreeMap<i32, Vec<Key>> = BTreeMap::new();
    for p in partitions {
        for b in &p.replicas {
            let state = match cluster.brokers.get(b) {
                None => Some(ReplicaState::NotRegistered),
                Some(info) if info.fenced => Some(ReplicaState::Fenced),
                Some(_) => None,
            };
            match state {
                Some(s) => {
                    answers.entry(p.key).or_default().insert(*b, s);
                }
                None => per_broker.entry(*b).or_default().push(p.key),
            }
        }
    }
    let mut tasks = tokio::task::JoinSet::new();
    for (broker, keys) in per_broker {
        let admin = admin.clone();
        tasks.spawn(async move { (broker, ask_broker(&admin, broker, keys, deadline).await) });
    }
    while let Some(done) = tasks.join_next().await {
        // A task panicking is a bug in this tool; let it surface.
        let (broker, states) = done.expect("a GetReplicaLogInfo task panicked");
        for (key, state) in states {
            answers.entry(key).or_default().insert(broker, state);
        }
    }
    answers
}

/// One broker's answers for `keys`.
async fn ask_broker(
    admin: &Admin,
    broker: i32,
    keys: Vec<Key>,
    deadline: Instant,
) -> BTreeMap<Key, ReplicaState> {
    let mut out = BTreeMap::new();
    let mut pending: VecDeque<Key> = keys.into();
    let mut backoff = admin.config().retry_backoff;
    let mut last = String::from("no answer before the deadline");
    while !pending.is_empty() {
        if Instant::now() >= deadline {
            break;
        }
        let batch: BTreeSet<Key> = pending
            .iter()
            .take(MAX_PARTITIONS_PER_REQUEST)
            .copied()
            .collect();
        let mut by_topic: BTreeMap<Uuid, Vec<i32>> = BTreeMap::new();
        for (t, p) in &batch {
            by_topic.entry(*t).or_default().push(*p);
        }
        let body = RequestBody::GetReplicaLogInfo(GetReplicaLogInfoRequest {
            topic_partitions: Some(
                by_topic
                    .into_iter()
                    .map(|(topic_id, partitions)| TopicPartitions {
                        topic_id,
                        partitions,
                        ..Default::default()
                    })
                    .collect(),
            ),
            ..Default::default()
        });
        let attempt = async {
            let r = admin.call_broker(broker, body, 0..=0).await?;
            expect_response!(r, GetReplicaLogInfo)
        };
        match tokio::time::timeout_at(deadline, attempt).await {
            Ok(Ok(r)) => {
                let mut answered = 0;
                for t in &r.topic_partition_log_info_list {
                    for p in &t.partition_log_info {
                        let key = (t.topic_id, p.partition);
                        if !batch.contains(&key) || out.contains_key(&key) {
                            continue;
                        }
                        answered += 1;
                        let state = if p.error_code == 0 {
                            ReplicaState::Answered(LogInfo {
                                leader_epoch: p.partition_leader_epoch,
                                last_written_epoch: p.last_written_leader_epoch,
                                log_end_offset: p.log_end_offset,
                                high_watermark: p.high_watermark,
                                log_start_offset: p.log_start_offset,
                                epochs: p
                                    .leader_epochs
                                    .iter()
                                    .map(|e| EpochEntry {
                                        epoch: e.epoch,
                                        start_offset: e.start_offset,
                                    })
                                    .collect(),
                            })
                        } else {
                            ReplicaState::Error(crate::common::error_text(p.error_code, None))
                        };
                        out.insert(key, state);
                    }
                }
                pending.retain(|k| !out.contains_key(k));
                if answered == 0 {
                    // Neither answered nor refused: asking again would loop.
                    for k in batch {
                        out.insert(
                            k,
                            ReplicaState::Error(
                                "the broker left the partition out of its answer".into(),
                            ),
                        );
                    }
                    pending.retain(|k| !out.contains_key(k));
                }
                backoff = admin.config().retry_backoff;
            }
            Ok(Err(e)) if !e.is_retriable() => {
                let text = e.to_string();
                for k in pending.drain(..) {
                    out.insert(k, ReplicaState::Error(text.clone()));
                }
            }
            Ok(Err(e)) => {
                last = short(&e);
                let wake = (Instant::now() + backoff).min(deadline);
                tokio::time::sleep_until(wake).await;
                backoff = (backoff * 2).min(admin.config().retry_backoff_max);
            }
            Err(_) => last = "no answer before the deadline".into(),
        }
    }
    for k in pending {
        out.insert(k, ReplicaState::Unreachable(last.clone()));
    }
    out
}

/// A one-line reason for the table.
fn short(e: &AdminError) -> String {
    e.to_string().lines().next().unwrap_or_default().to_string()
}
