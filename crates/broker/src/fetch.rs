//! Fetch: whole batches from each partition's leader, up to the high watermark for consumers
//! (the log end for replicas), at least one batch even past the byte limits (KIP-74), an empty
//! record set (never null) where there is nothing new; KIP-320 diverging epochs when
//! `last_fetched_epoch` is given; FENCED_LEADER_EPOCH / UNKNOWN_LEADER_EPOCH on
//! `current_leader_epoch`. A fetch that found fewer than `min_bytes` waits (up to
//! `max_wait_ms`, or until a graceful shutdown begins) on its partitions' watchers and reads
//! again. NOT_LEADER_OR_FOLLOWER carries
//! the current leader (v12+) and its endpoint (v16+, KIP-951). From v7 a full fetch with epoch
//! 0 opens a fetch session ([`crate::fetch_session`]) and incremental fetches name only what
//! changed and get only partitions with news. Reads run off the async workers.

use crate::fetch_session::{Answered, Key, SessionCache, SessionError, Spec};
use crate::replica_manager::{Partition, ReplicaManager};
use fjord_metadata::MetadataImage;
use fjord_protocol::codec::ZERO_COPY_MIN_BYTES;
use fjord_protocol::generated::fetch_request::FetchRequest;
use fjord_protocol::generated::fetch_response::{
    EpochEndOffset, FetchResponse, FetchableTopicResponse, LeaderIdAndEpoch, NodeEndpoint,
    PartitionData,
};
use fjord_protocol::{ErrorCode, Records};
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::sync::Notify;

/// The first Fetch version that names topics by id.
const TOPIC_ID_VERSION: i16 = 13;
/// The first Fetch version with the leaders' endpoints beside NOT_LEADER_OR_FOLLOWER (KIP-951).
const NODE_ENDPOINTS_VERSION: i16 = 16;
/// The first Fetch version with sessions (KIP-227).
const SESSION_VERSION: i16 = 7;
/// The session epoch of a full fetch that opens a session.
const INITIAL_EPOCH: i32 = 0;
/// The session epoch of a fetch that closes its session (or has none).
const FINAL_EPOCH: i32 = -1;
/// The longest a fetch waits, whatever it asks (Kafka's clients ask for 500 ms).
pub const MAX_WAIT: Duration = Duration::from_secs(30);

/// One partition of the request, resolved.
struct Wanted {
    spec: Spec,
    index: i32,
    fetch_offset: i64,
    current_leader_epoch: i32,
    last_fetched_epoch: i32,
    max_bytes: usize,
    partition: Result<Arc<Partition>, (ErrorCode, i32, i32)>,
}

/// How the fetch relates to a session.
#[derive(Debug, Clone, Copy)]
enum Mode {
    /// No session (before v7, epoch -1, or no room): every partition is answered.
    Sessionless,
    /// A full fetch that opens a session.
    Create,
    /// An incremental fetch in this session: only partitions with news are answered.
    Incremental(i32),
}

/// The request's partitions as session specs (by id from v13, else by name).
fn specs_of(request: &FetchRequest, version: i16) -> Vec<Spec> {
    let by_id = version >= TOPIC_ID_VERSION;
    let mut out = Vec::new();
    for t in &request.topics {
        for p in &t.partitions {
            out.push(Spec {
                key: key(by_id, &t.topic, t.topic_id, p.partition),
                fetch_offset: p.fetch_offset,
                max_bytes: p.partition_max_bytes,
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
            });
        }
    }
    out
}

fn key(by_id: bool, topic: &str, topic_id: fjord_protocol::Uuid, partition: i32) -> Key {
    Key {
        topic: if by_id {
            String::new()
        } else {
            topic.to_string()
        },
        topic_id: if by_id {
            topic_id
        } else {
            fjord_protocol::Uuid::nil()
        },
        partition,
    }
}

/// A fetch refused for its session: only the top-level error.
fn session_refusal(code: ErrorCode) -> FetchResponse {
    FetchResponse {
        error_code: code.code(),
        ..Default::default()
    }
}

/// Handles a Fetch request.
pub async fn fetch(
    replicas: &Arc<ReplicaManager>,
    sessions: &Mutex<SessionCache>,
    image: Arc<MetadataImage>,
    listener: &str,
    request: FetchRequest,
    version: i16,
) -> Result<FetchResponse, String> {
    let me = replicas.node_id();
    let replica_id = if version >= 15 {
        request.replica_state.replica_id
    } else {
        request.replica_id
    };
    let from_replica = replica_id >= 0;
    let now = fjord_log::monotonic_ms();
    let (mode, specs) = if version < SESSION_VERSION {
        (Mode::Sessionless, specs_of(&request, version))
    } else {
        let mut cache = sessions.lock().expect("fetch sessions");
        match (request.session_id, request.session_epoch) {
            (id, FINAL_EPOCH) => {
                cache.remove(id);
                (Mode::Sessionless, specs_of(&request, version))
            }
            (id, INITIAL_EPOCH) => {
                cache.remove(id);
                (Mode::Create, specs_of(&request, version))
            }
            (0, _) => return Ok(session_refusal(ErrorCode::InvalidFetchSessionEpoch)),
            (id, epoch) => {
                let by_id = version >= TOPIC_ID_VERSION;
                let forgotten: Vec<Key> = request
                    .forgotten_topics_data
                    .iter()
                    .flat_map(|t| {
                        t.partitions
                            .iter()
                            .map(|p| key(by_id, &t.topic, t.topic_id, *p))
                    })
                    .collect();
                match cache.incremental(id, epoch, now, specs_of(&request, version), &forgotten) {
                    Ok(specs) => (Mode::Incremental(id), specs),
                    Err(SessionError::NotFound) => {
                        return Ok(session_refusal(ErrorCode::FetchSessionIdNotFound))
                    }
                    Err(SessionError::InvalidEpoch) => {
                        return Ok(session_refusal(ErrorCode::InvalidFetchSessionEpoch))
                    }
                }
            }
        }
    };
    let mut wanted = Vec::with_capacity(specs.len());
    for spec in specs {
        let topic = if spec.key.topic_id != fjord_protocol::Uuid::nil() {
            image.topics.by_id.get(&spec.key.topic_id).cloned()
        } else {
            image.topics.get_by_name(&spec.key.topic).cloned()
        };
        let p = spec.key.partition;
        let partition = match &topic {
            None if version >= TOPIC_ID_VERSION => Err((ErrorCode::UnknownTopicId, -1, -1)),
            None => Err((ErrorCode::UnknownTopicOrPartition, -1, -1)),
            Some(topic) => match topic.partitions.get(&p) {
                None => Err((ErrorCode::UnknownTopicOrPartition, -1, -1)),
                Some(reg) => match replicas.get(topic.id, p) {
                    Some(h) if h.led_by(me) => Ok(h),
                    _ => Err((ErrorCode::NotLeaderOrFollower, reg.leader, reg.leader_epoch)),
                },
            },
        };
        wanted.push(Wanted {
            index: p,
            fetch_offset: spec.fetch_offset,
            current_leader_epoch: spec.current_leader_epoch,
            last_fetched_epoch: spec.last_fetched_epoch,
            max_bytes: usize::try_from(spec.max_bytes).unwrap_or(0),
            partition,
            spec,
        });
    }
    let wanted = Arc::new(wanted);
    let max_bytes = usize::try_from(request.max_bytes).unwrap_or(0);
    let min_bytes = usize::try_from(request.min_bytes).unwrap_or(0);
    let wait = Duration::from_millis(u64::try_from(request.max_wait_ms).unwrap_or(0)).min(MAX_WAIT);
    let deadline = tokio::time::Instant::now() + wait;
    let waiter = Arc::new(Notify::new());
    let mut stopping = replicas.stopping();
    // A follower's position is taken from its fetch once, on the first read. It may join an
    // ISR only if its broker is registered, unfenced, not shutting down and fetching with its
    // current broker epoch (KIP-903): a restarted broker fetching before it has registered
    // again must not rejoin on its old registration.
    let eligible = image.cluster.brokers.get(&replica_id).is_some_and(|b| {
        !b.fenced
            && !b.in_controlled_shutdown
            && (version < 15 || b.epoch == request.replica_state.replica_epoch)
    });
    let mut track = from_replica.then_some((replica_id, eligible));
    loop {
        // Registered before reading: an append between the read and the wait still wakes it.
        for w in wanted.iter() {
            if let Ok(p) = &w.partition {
                p.watchers.watch(&waiter);
            }
        }
        let pass = wanted.clone();
        let follower = track.take();
        let (results, bytes, errors) = tokio::task::spawn_blocking(move || {
            read_all(&pass, max_bytes, from_replica, follower, version)
        })
        .await
        .map_err(|e| format!("a fetch's reads failed: {e}"))?;
        let done = bytes >= min_bytes
            || errors
            || tokio::time::Instant::now() >= deadline
            || *stopping.borrow();
        if done || wait.is_zero() {
            // What is sent counts as bytes out (the last pass's reads).
            for (w, d) in wanted.iter().zip(&results) {
                if let (Ok(p), Some(r)) = (&w.partition, &d.records) {
                    let counter = if from_replica {
                        &p.replication_bytes_out
                    } else {
                        &p.bytes_out
                    };
                    counter.fetch_add(r.len() as u64, std::sync::atomic::Ordering::Relaxed);
                }
            }
            let answers: Vec<Answered> = results
                .iter()
                .map(|d| Answered {
                    high_watermark: d.high_watermark,
                    log_start_offset: d.log_start_offset,
                    eventful: d.error_code != 0
                        || d.records.as_ref().is_some_and(|r| !r.is_empty())
                        || d.diverging_epoch.epoch >= 0,
                })
                .collect();
            let (session_id, include) = match mode {
                Mode::Sessionless => (0, vec![true; answers.len()]),
                Mode::Create => {
                    let cached = wanted
                        .iter()
                        .zip(&answers)
                        .map(|(w, a)| (w.spec.clone(), *a))
                        .collect();
                    let id =
                        sessions
                            .lock()
                            .expect("fetch sessions")
                            .create(now, from_replica, cached);
                    (id, vec![true; answers.len()])
                }
                Mode::Incremental(id) => {
                    let keyed: Vec<(Key, Answered)> = wanted
                        .iter()
                        .zip(&answers)
                        .map(|(w, a)| (w.spec.key.clone(), *a))
                        .collect();
                    let include = sessions
                        .lock()
                        .expect("fetch sessions")
                        .answered(id, &keyed);
                    (id, include)
                }
            };
            let mut response = FetchResponse {
                session_id,
                ..Default::default()
            };
            let mut leaders = Vec::new();
            for ((w, data), included) in wanted.iter().zip(results).zip(include) {
                if !included {
                    continue;
                }
                if data.current_leader.leader_id >= 0 {
                    leaders.push(data.current_leader.leader_id);
                }
                let name = if w.spec.key.topic_id != fjord_protocol::Uuid::nil() {
                    image
                        .topics
                        .by_id
                        .get(&w.spec.key.topic_id)
                        .map(|t| t.name.clone())
                        .unwrap_or_default()
                } else {
                    w.spec.key.topic.clone()
                };
                match response.responses.last_mut() {
                    Some(t) if t.topic == name && t.topic_id == w.spec.key.topic_id => {
                        t.partitions.push(data)
                    }
                    _ => response.responses.push(FetchableTopicResponse {
                        topic: name,
                        topic_id: w.spec.key.topic_id,
                        partitions: vec![data],
                        ..Default::default()
                    }),
                }
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
        // Woken by an append, the deadline (one last read answers) or a graceful shutdown
        // (answered with what there is).
        tokio::select! {
            _ = tokio::time::timeout_at(deadline, waiter.notified()) => {}
            _ = stopping.wait_for(|s| *s) => {}
        }
    }
}

/// One pass over every wanted partition: (results in request order, record bytes read,
/// whether any partition has an error that ends the wait). With `follower`, each partition
/// read without error records that follower's position (its fetch offset) with the leader.
fn read_all(
    wanted: &[Wanted],
    max_bytes: usize,
    from_replica: bool,
    follower: Option<(i32, bool)>,
    version: i16,
) -> (Vec<PartitionData>, usize, bool) {
    let now = fjord_log::monotonic_ms();
    let mut out = Vec::with_capacity(wanted.len());
    let mut total = 0usize;
    let mut errors = false;
    for w in wanted {
        let mut d = PartitionData {
            partition_index: w.index,
            high_watermark: -1,
            last_stable_offset: -1,
            log_start_offset: -1,
            records: Some(Records::default()),
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
            let answer = log.end_offset_for_epoch(w.last_fetched_epoch);
            if let Some((epoch, end)) = fjord_replication::follower::diverging_epoch(
                answer,
                w.last_fetched_epoch,
                w.fetch_offset,
            ) {
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
        match log.read_records(
            w.fetch_offset,
            room,
            Some(stop),
            total == 0,
            ZERO_COPY_MIN_BYTES,
        ) {
            Ok(r) => {
                total += r.records.len();
                d.records = Some(r.records);
                if let Some((replica, eligible)) = follower {
                    p.on_follower_fetch(replica, w.fetch_offset, now, eligible);
                    // The high watermark may have moved with it.
                    d.high_watermark = log.high_watermark();
                    d.last_stable_offset = d.high_watermark;
                }
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
