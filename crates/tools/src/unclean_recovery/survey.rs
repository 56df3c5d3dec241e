//! Asking every replica's broker about its log, in rounds until each replica has a final
//! answer or the deadline passes. Each round refreshes the cluster view (a broker unfenced
//! meanwhile is asked too), sends GetReplicaLogInfo to every live broker holding a replica
//! still without a final answer (concurrently, at most 1000 partitions per request, asking
//! again for what HasMoreData left out), and keeps what came back: log information and
//! non-retriable errors are final; retriable per-partition errors (NOT_LEADER_OR_FOLLOWER or
//! UNKNOWN_TOPIC_ID while a restarted broker's metadata lags, KAFKA_STORAGE_ERROR on a
//! directory that may come back) and unreachable brokers are asked again after a backoff.
//! Replicas on fenced or unregistered brokers never hold the survey open by themselves: they
//! are looked at again each round while others are still being asked. A broker that does not
//! serve GetReplicaLogInfo (Apache Kafka) is surveyed with Kafka's own requests instead
//! ([`super::kafka_requests`]), replica by replica, and named in [`Survey::kafka_requests`].

use fjord_admin::{expect_response, Admin, AdminError, ClusterInfo};
use fjord_log::epoch::EpochEntry;
use fjord_protocol::generated::get_replica_log_info_request::{
    GetReplicaLogInfoRequest, TopicPartitions,
};
use fjord_protocol::generated::get_replica_log_info_response::PartitionLogInfo;
use fjord_protocol::{ErrorCode, RequestBody, Uuid};
use fjord_replication::recovery::{LogInfo, RemoteView, ReplicaState};
use std::collections::{BTreeMap, BTreeSet};
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
    /// Its topic's name (Kafka's own requests name topics).
    pub topic: String,
    /// Its leader epoch in the metadata.
    pub leader_epoch: i32,
    /// Its replicas.
    pub replicas: Vec<i32>,
}

/// Every replica's state, by partition then broker.
pub type Answers = BTreeMap<Key, BTreeMap<i32, ReplicaState>>;

/// What a survey learnt.
#[derive(Debug, Default)]
pub struct Survey {
    /// Every replica's state, by partition then broker.
    pub answers: Answers,
    /// The brokers that do not serve GetReplicaLogInfo, surveyed with Kafka's own requests.
    pub kafka_requests: BTreeSet<i32>,
}

/// What one round learnt of one replica.
#[derive(Debug, Clone, PartialEq)]
enum Heard {
    /// Its log, or an error that asking again will not change.
    Final(ReplicaState),
    /// A retriable error for this partition ("NAME: message").
    Retriable(String),
    /// No answer from the broker (the failure).
    Unreachable(String),
}

/// Whether a per-partition error may go away if asked again.
pub(super) fn retriable(code: i16) -> bool {
    matches!(
        ErrorCode::from_code(code),
        Some(
            ErrorCode::NotLeaderOrFollower
                | ErrorCode::UnknownTopicId
                | ErrorCode::UnknownTopicOrPartition
                | ErrorCode::KafkaStorageError
        )
    )
}

/// One partition's answer from a broker.
fn heard(p: &PartitionLogInfo) -> Heard {
    if p.error_code == 0 {
        return Heard::Final(ReplicaState::Answered(LogInfo {
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
            remote: (p.remote_log_end_offset >= 0).then(|| RemoteView {
                end_offset: p.remote_log_end_offset,
                unshared: p
                    .remote_unshared_ranges
                    .iter()
                    .map(|r| (r.start_offset, r.end_offset))
                    .collect(),
            }),
        }));
    }
    let text = crate::common::error_text(p.error_code, None);
    if retriable(p.error_code) {
        Heard::Retriable(text)
    } else {
        Heard::Final(ReplicaState::Error(format!("{text} (final)")))
    }
}

/// Asks every replica's broker about `partitions` until each has a final answer or
/// `deadline` passed; `cluster` is the view to start from.
pub async fn survey(
    admin: Arc<Admin>,
    cluster: &ClusterInfo,
    partitions: &[Asked],
    deadline: Instant,
) -> Survey {
    let mut cluster = Arc::new(cluster.clone());
    let asked: Arc<BTreeMap<Key, (String, i32)>> = Arc::new(
        partitions
            .iter()
            .map(|p| (p.key, (p.topic.clone(), p.leader_epoch)))
            .collect(),
    );
    let mut kafka_requests: BTreeSet<i32> = BTreeSet::new();
    let mut done: BTreeMap<(Key, i32), ReplicaState> = BTreeMap::new();
    // The latest non-final word per replica, and how many times it was asked.
    let mut pending: BTreeMap<(Key, i32), (Heard, u32)> = BTreeMap::new();
    let mut backoff = admin.config().retry_backoff;
    loop {
        let mut per_broker: BTreeMap<i32, Vec<Key>> = BTreeMap::new();
        for p in partitions {
            for b in &p.replicas {
                if done.contains_key(&(p.key, *b)) {
                    continue;
                }
                match cluster.brokers.get(b) {
                    Some(info) if !info.fenced => per_broker.entry(*b).or_default().push(p.key),
                    _ => {}
                }
            }
        }
        if per_broker.is_empty() || Instant::now() >= deadline {
            break;
        }
        let mut tasks = tokio::task::JoinSet::new();
        for (broker, keys) in per_broker {
            let admin = admin.clone();
            let asked = asked.clone();
            tasks.spawn(async move {
                (
                    broker,
                    ask_broker(&admin, broker, keys, &asked, deadline).await,
                )
            });
        }
        while let Some(joined) = tasks.join_next().await {
            // A task panicking is a bug in this tool; let it surface.
            let (broker, (heard, legacy)) = joined.expect("a GetReplicaLogInfo task panicked");
            if legacy {
                kafka_requests.insert(broker);
            }
            for (key, h) in heard {
                match h {
                    Heard::Final(state) => {
                        pending.remove(&(key, broker));
                        done.insert((key, broker), state);
                    }
                    other => {
                        let entry = pending.entry((key, broker)).or_insert((other.clone(), 0));
                        *entry = (other, entry.1 + 1);
                    }
                }
            }
        }
        if pending.is_empty() {
            // Everything a live broker holds has a final answer; the rest is fenced or
            // unregistered, which the view just refreshed says.
            if let Ok(c) = admin.refresh(None).await {
                cluster = c;
            }
            let unfenced_left = partitions.iter().any(|p| {
                p.replicas.iter().any(|b| {
                    !done.contains_key(&(p.key, *b))
                        && cluster.brokers.get(b).is_some_and(|i| !i.fenced)
                })
            });
            if !unfenced_left {
                break;
            }
            continue;
        }
        let wake = (Instant::now() + backoff).min(deadline);
        tokio::time::sleep_until(wake).await;
        backoff = (backoff * 2).min(admin.config().retry_backoff_max);
        if let Ok(c) = admin.refresh(None).await {
            cluster = c;
        }
    }
    let mut answers: Answers = BTreeMap::new();
    for p in partitions {
        for b in &p.replicas {
            let state = match (done.remove(&(p.key, *b)), pending.remove(&(p.key, *b))) {
                (Some(s), _) => s,
                (None, Some((Heard::Retriable(m), n))) => ReplicaState::Error(format!(
                    "{m} (retriable; still the answer at the deadline after {n} attempt{})",
                    if n == 1 { "" } else { "s" }
                )),
                (None, Some((Heard::Unreachable(m), _))) => ReplicaState::Unreachable(m),
                (None, _) => match cluster.brokers.get(b) {
                    None => ReplicaState::NotRegistered,
                    Some(i) if i.fenced => ReplicaState::Fenced,
                    Some(_) => ReplicaState::Unreachable("no answer before the deadline".into()),
                },
            };
            answers.entry(p.key).or_default().insert(*b, state);
        }
    }
    Survey {
        answers,
        kafka_requests,
    }
}

/// Surveys `keys` on `broker` with Kafka's own requests (it does not serve GetReplicaLogInfo).
async fn ask_with_kafka_requests(
    admin: &Admin,
    broker: i32,
    keys: &[Key],
    asked: &BTreeMap<Key, (String, i32)>,
    deadline: Instant,
) -> BTreeMap<Key, Heard> {
    let mut out = BTreeMap::new();
    for key in keys {
        let Some((topic, leader_epoch)) = asked.get(key) else {
            continue;
        };
        let replica = super::kafka_requests::Replica {
            broker,
            topic,
            topic_id: key.0,
            partition: key.1,
            leader_epoch: *leader_epoch,
        };
        let h =
            match tokio::time::timeout_at(deadline, super::kafka_requests::survey(admin, &replica))
                .await
            {
                Ok(Ok(log)) => Heard::Final(ReplicaState::Answered(log)),
                Ok(Err(f)) if f.retriable => Heard::Retriable(f.text),
                Ok(Err(f)) => Heard::Final(ReplicaState::Error(format!("{} (final)", f.text))),
                Err(_) => Heard::Unreachable("no answer before the deadline".into()),
            };
        out.insert(*key, h);
    }
    out
}

/// One round's answers from `broker` for `keys`: every key gets what was heard of it; true
/// when the broker was surveyed with Kafka's own requests.
async fn ask_broker(
    admin: &Admin,
    broker: i32,
    keys: Vec<Key>,
    asked: &BTreeMap<Key, (String, i32)>,
    deadline: Instant,
) -> (BTreeMap<Key, Heard>, bool) {
    let mut out = BTreeMap::new();
    let mut rest: Vec<Key> = keys;
    while !rest.is_empty() {
        let batch: BTreeSet<Key> = rest
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
        let failed = |h: Heard, out: &mut BTreeMap<Key, Heard>, rest: &[Key]| {
            for k in rest {
                out.insert(*k, h.clone());
            }
        };
        match tokio::time::timeout_at(deadline, attempt).await {
            Ok(Err(AdminError::UnsupportedVersion { .. })) => {
                let heard = ask_with_kafka_requests(admin, broker, &rest, asked, deadline).await;
                out.extend(heard);
                return (out, true);
            }
            Ok(Ok(r)) => {
                let mut answered = 0;
                for t in &r.topic_partition_log_info_list {
                    for p in &t.partition_log_info {
                        let key = (t.topic_id, p.partition);
                        if batch.contains(&key) && !out.contains_key(&key) {
                            answered += 1;
                            out.insert(key, heard(p));
                        }
                    }
                }
                if answered == 0 {
                    // Neither answered nor refused: asking again would loop.
                    let h = Heard::Final(ReplicaState::Error(
                        "the broker left the partition out of its answer".into(),
                    ));
                    failed(h, &mut out, &rest);
                    return (out, false);
                }
                rest.retain(|k| !out.contains_key(k));
            }
            Ok(Err(e)) if !e.is_retriable() => {
                failed(
                    Heard::Final(ReplicaState::Error(format!("{} (final)", short(&e)))),
                    &mut out,
                    &rest,
                );
                return (out, false);
            }
            Ok(Err(e)) => {
                failed(Heard::Unreachable(short(&e)), &mut out, &rest);
                return (out, false);
            }
            Err(_) => {
                let h = Heard::Unreachable("no answer before the deadline".into());
                failed(h, &mut out, &rest);
                return (out, false);
            }
        }
    }
    (out, false)
}

/// A one-line reason for the table.
fn short(e: &AdminError) -> String {
    e.to_string().lines().next().unwrap_or_default().to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn info(code: ErrorCode) -> PartitionLogInfo {
        PartitionLogInfo {
            error_code: code.code(),
            ..Default::default()
        }
    }

    #[test]
    fn retriable_partition_errors_are_asked_again_and_the_rest_are_final() {
        for code in [
            ErrorCode::NotLeaderOrFollower,
            ErrorCode::UnknownTopicId,
            ErrorCode::KafkaStorageError,
        ] {
            assert!(
                matches!(heard(&info(code)), Heard::Retriable(_)),
                "{code:?}"
            );
        }
        let Heard::Final(ReplicaState::Error(m)) =
            heard(&info(ErrorCode::TopicAuthorizationFailed))
        else {
            panic!("authorization is final")
        };
        assert!(m.ends_with("(final)"), "{m}");
        let mut ok = info(ErrorCode::None);
        ok.last_written_leader_epoch = -1;
        let Heard::Final(ReplicaState::Answered(l)) = heard(&ok) else {
            panic!("answered")
        };
        assert_eq!(l.last_written_epoch, -1);
        assert!(l.epochs.is_empty());
    }
}
