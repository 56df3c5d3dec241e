//! Fetch: whole batches from each partition's leader, up to the high watermark for consumers
//! (the last stable offset for read_committed ones, with the transactions that aborted in what
//! they read; the log end for replicas), at least one batch even past the byte limits (KIP-74), an empty
//! record set (never null) where there is nothing new; KIP-320 diverging epochs when
//! `last_fetched_epoch` is given; FENCED_LEADER_EPOCH / UNKNOWN_LEADER_EPOCH on
//! `current_leader_epoch`. A fetch that found fewer than `min_bytes` waits (up to
//! `max_wait_ms`, or until a graceful shutdown begins) on its partitions' watchers and reads
//! again. NOT_LEADER_OR_FOLLOWER carries
//! the current leader (v12+) and its endpoint (v16+, KIP-951). From v7 a full fetch with epoch
//! 0 opens a fetch session ([`crate::data::fetch_session`]) and incremental fetches name only what
//! changed and get only partitions with news. Reads run off the async workers.

use crate::data::fetch_session::{Answered, Key, SessionCache, SessionError, Spec};
use crate::error::BrokerError;
use crate::replica::partition::THROTTLED_AS_LEADER;
use crate::replica::replica_manager::{Partition, ReplicaManager, Throttles};
use fjord_metadata::MetadataImage;
use fjord_protocol::codec::ZERO_COPY_MIN_BYTES;
use fjord_protocol::generated::fetch_request::FetchRequest;
use fjord_protocol::generated::fetch_response::{
    AbortedTransaction, EpochEndOffset, FetchResponse, FetchableTopicResponse, LeaderIdAndEpoch,
    NodeEndpoint, PartitionData,
};
use fjord_protocol::{ErrorCode, Records};
use fjord_util::Clock;
use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::sync::Notify;

/// The first Fetch version that names topics by id.
const TOPIC_ID_VERSION: i16 = 13;
/// The first Fetch version in which a replica says the high watermark it knows (KIP-1166).
const REPLICA_HIGH_WATERMARK_VERSION: i16 = 18;
/// The high watermark a replica sends when it does not take part in KIP-1166.
const HIGH_WATERMARK_NOT_SENT: i64 = i64::MAX;
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
    /// The hosted replica, led here or not (sessions subscribe to it).
    local: Option<Arc<Partition>>,
}

impl Wanted {
    fn copy(&self) -> Wanted {
        Wanted {
            spec: self.spec.clone(),
            index: self.index,
            fetch_offset: self.fetch_offset,
            current_leader_epoch: self.current_leader_epoch,
            last_fetched_epoch: self.last_fetched_epoch,
            max_bytes: self.max_bytes,
            partition: self.partition.clone(),
            local: self.local.clone(),
        }
    }
}

/// How the fetch relates to a session.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Mode {
    /// No session (before v7, epoch -1, or no room): every partition is answered.
    Sessionless,
    /// A full fetch that opens a session.
    Create,
    /// An incremental fetch in this session (id, epoch): only partitions that moved are read
    /// and only those with news are answered.
    Incremental(i32, i32),
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

/// The partitions of `request` that an incremental fetch forgets.
fn forgotten_of(request: &FetchRequest, version: i16) -> Vec<Key> {
    let by_id = version >= TOPIC_ID_VERSION;
    request
        .forgotten_topics_data
        .iter()
        .flat_map(|t| {
            t.partitions
                .iter()
                .map(|p| key(by_id, &t.topic, t.topic_id, *p))
        })
        .collect()
}

/// Resolves one partition of the fetch against the image and the hosted partitions.
fn resolve(replicas: &ReplicaManager, image: &MetadataImage, version: i16, spec: Spec) -> Wanted {
    let me = replicas.node_id();
    let topic = if spec.key.topic_id != fjord_protocol::Uuid::nil() {
        image.topics.by_id.get(&spec.key.topic_id)
    } else {
        image.topics.get_by_name(&spec.key.topic)
    };
    let p = spec.key.partition;
    let mut local = None;
    let partition = match topic {
        None if version >= TOPIC_ID_VERSION => Err((ErrorCode::UnknownTopicId, -1, -1)),
        None => Err((ErrorCode::UnknownTopicOrPartition, -1, -1)),
        Some(topic) => match topic.partitions.get(&p) {
            None => Err((ErrorCode::UnknownTopicOrPartition, -1, -1)),
            Some(reg) => {
                local = replicas.get(topic.id, p);
                match &local {
                    Some(h) if h.led_by(me) => Ok(h.clone()),
                    _ => Err((ErrorCode::NotLeaderOrFollower, reg.leader, reg.leader_epoch)),
                }
            }
        },
    };
    Wanted {
        index: p,
        fetch_offset: spec.fetch_offset,
        current_leader_epoch: spec.current_leader_epoch,
        last_fetched_epoch: spec.last_fetched_epoch,
        max_bytes: usize::try_from(spec.max_bytes).unwrap_or(0),
        partition,
        local,
        spec,
    }
}

/// What one fetch asks beyond its partitions.
struct Limits {
    max_bytes: usize,
    min_bytes: usize,
    wait: Duration,
    /// When the wait is over, on `clock`'s monotonic time.
    deadline: i64,
    /// Where the fetch reads time and sleeps.
    clock: Clock,
    /// Where its reads stop.
    bound: Bound,
    /// The high watermark the fetching replica knows, per partition it names (v18+,
    /// KIP-1166; -1 when it knows none): a fetch is answered at once while the leader's is
    /// ahead, so that the replica learns it without waiting out `max_wait_ms`.
    known_high_watermarks: HashMap<Key, i64>,
}

impl Limits {
    /// True when a partition's answer carries a high watermark ahead of the one the replica
    /// said it knows.
    fn replica_behind(&self, key: &Key, data: &PartitionData) -> bool {
        self.known_high_watermarks
            .get(key)
            .is_some_and(|known| data.error_code == 0 && data.high_watermark > *known)
    }
}

impl Limits {
    fn of(request: &FetchRequest, version: i16, follower: bool, clock: &Clock) -> Limits {
        let wait =
            Duration::from_millis(u64::try_from(request.max_wait_ms).unwrap_or(0)).min(MAX_WAIT);
        let by_id = version >= TOPIC_ID_VERSION;
        let known_high_watermarks = if version >= REPLICA_HIGH_WATERMARK_VERSION {
            request
                .topics
                .iter()
                .flat_map(|t| {
                    t.partitions
                        .iter()
                        .filter(|p| p.high_watermark != HIGH_WATERMARK_NOT_SENT)
                        .map(move |p| {
                            let k = key(by_id, &t.topic, t.topic_id, p.partition);
                            (k, p.high_watermark)
                        })
                })
                .collect()
        } else {
            HashMap::new()
        };
        Limits {
            known_high_watermarks,
            max_bytes: usize::try_from(request.max_bytes).unwrap_or(0),
            min_bytes: usize::try_from(request.min_bytes).unwrap_or(0),
            wait,
            deadline: clock.monotonic_ms() + wait.as_millis() as i64,
            clock: clock.clone(),
            bound: if follower {
                Bound::LogEnd
            } else if request.isolation_level == crate::api::offsets::READ_COMMITTED {
                Bound::Stable
            } else {
                Bound::HighWatermark
            },
        }
    }
}

/// Where a fetch's reads stop.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Bound {
    /// A follower reads to the log end.
    LogEnd,
    /// A read_uncommitted consumer reads to the high watermark.
    HighWatermark,
    /// A read_committed consumer reads to the last stable offset and is told which
    /// transactions aborted in what it read.
    Stable,
}

/// A Fetch request decided before any read: who asks (a follower, and whether it may join an
/// ISR), its limits, and what it does with fetch sessions.
struct FetchPlan {
    /// The replica asking (-1: a consumer).
    replica_id: i32,
    /// A follower and whether it may join an ISR (KIP-903): registered, unfenced, not shutting
    /// down, and (v15+) fetching with its current broker epoch.
    follower: Option<(i32, bool)>,
    limits: Limits,
    /// A session to close before anything else (epoch -1 closes it; epoch 0 replaces it).
    close: Option<i32>,
    /// The session mode, or the error the whole fetch is refused with.
    mode: Result<Mode, ErrorCode>,
}

impl FetchPlan {
    fn of(request: &FetchRequest, version: i16, image: &MetadataImage, clock: &Clock) -> FetchPlan {
        let replica_id = if version >= 15 {
            request.replica_state.replica_id
        } else {
            request.replica_id
        };
        // A follower's position is taken from its fetch once, on the first read. It may join
        // an ISR only if its broker is registered, unfenced, not shutting down and fetching
        // with its current broker epoch (KIP-903): a restarted broker fetching before it has
        // registered again must not rejoin on its old registration.
        let eligible = image.cluster.brokers.get(&replica_id).is_some_and(|b| {
            !b.fenced
                && !b.in_controlled_shutdown
                && (version < 15 || b.epoch == request.replica_state.replica_epoch)
        });
        let (close, mode) = if version < SESSION_VERSION {
            (None, Ok(Mode::Sessionless))
        } else {
            match (request.session_id, request.session_epoch) {
                (id, FINAL_EPOCH) => (Some(id), Ok(Mode::Sessionless)),
                (id, INITIAL_EPOCH) => (Some(id), Ok(Mode::Create)),
                (0, _) => (None, Err(ErrorCode::InvalidFetchSessionEpoch)),
                (id, epoch) => (None, Ok(Mode::Incremental(id, epoch))),
            }
        };
        FetchPlan {
            replica_id,
            follower: (replica_id >= 0).then_some((replica_id, eligible)),
            limits: Limits::of(request, version, replica_id >= 0, clock),
            close,
            mode,
        }
    }
}

/// Whether a fetch is answered now: enough bytes, an error to report, news a follower needs
/// (a moved high watermark or log start within a session), the wait is over, or the broker
/// is stopping; else it waits for its partitions to move.
fn complete(bytes: usize, limits: &Limits, errors: bool, news: bool, stopping: bool) -> bool {
    bytes >= limits.min_bytes
        || errors
        || news
        || limits.clock.monotonic_ms() >= limits.deadline
        || stopping
}

/// Handles a Fetch request.
pub async fn fetch(
    replicas: &Arc<ReplicaManager>,
    sessions: &Mutex<SessionCache>,
    image: Arc<MetadataImage>,
    listener: &str,
    request: FetchRequest,
    version: i16,
    clock: &Clock,
) -> Result<FetchResponse, BrokerError> {
    let FetchPlan {
        replica_id,
        follower,
        limits,
        close,
        mode,
    } = FetchPlan::of(&request, version, &image, clock);
    let from_replica = follower.is_some();
    let now = clock.monotonic_ms();
    if let Some(id) = close {
        sessions.lock().expect("fetch sessions").remove(id);
    }
    let mode = match mode {
        Ok(mode) => mode,
        Err(code) => return Ok(session_refusal(code)),
    };
    let Mode::Incremental(id, epoch) = mode else {
        let specs = specs_of(&request, version);
        return full_fetch(
            replicas, sessions, &image, listener, specs, version, follower, limits, mode, now,
        )
        .await;
    };
    let (mut specs, interest) = match start_incremental(
        replicas,
        sessions,
        &image,
        (&request, version),
        (id, epoch),
        now,
        follower,
    ) {
        Ok(started) => started,
        Err(refusal) => return Ok(refusal),
    };
    let mut stopping = replicas.stopping();
    // Every partition read during this fetch, by key: the latest read of each.
    let mut read: Vec<(Wanted, Read)> = Vec::new();
    let mut at: HashMap<Key, usize> = HashMap::new();
    loop {
        let wanted: Vec<Wanted> = specs
            .into_iter()
            .map(|spec| resolve(replicas, &image, version, spec))
            .collect();
        // Subscribed before reading: a move between the read and the wait marks it again.
        for w in &wanted {
            if let Some(p) = &w.local {
                p.watchers.subscribe(&interest, &w.spec.key);
            }
        }
        let used: usize = read.iter().map(|(_, r)| r.bytes).sum();
        let room = limits.max_bytes.saturating_sub(used);
        let wanted = Arc::new(wanted);
        let pass = wanted.clone();
        // The follower's position is recorded on every pass: a partition first read on a
        // later pass (marked by a leadership change while this fetch waited) must not be
        // missed, or a caught-up follower that names it in no fetch never rejoins its ISR.
        let tracked = follower;
        let throttle = replicas.throttles().clone();
        let tiering = replicas.tiering().cloned();
        let inline = reads_in_page_cache(&pass);
        let results = crate::data::inline_io::run(inline, move || {
            read_all(
                &pass,
                room,
                used == 0,
                limits.bound,
                tracked,
                version,
                (&throttle, tiering.as_ref()),
            )
        })
        .await
        .map_err(BrokerError::task("a fetch's reads"))?;
        let wanted =
            Arc::try_unwrap(wanted).unwrap_or_else(|w| w.iter().map(Wanted::copy).collect());
        for (w, r) in wanted.into_iter().zip(results) {
            match at.get(&w.spec.key) {
                Some(i) => read[*i] = (w, r),
                None => {
                    at.insert(w.spec.key.clone(), read.len());
                    read.push((w, r));
                }
            }
        }
        let keyed: Vec<(Key, Answered)> = read
            .iter()
            .map(|(w, r)| (w.spec.key.clone(), r.answered()))
            .collect();
        let include = sessions
            .lock()
            .expect("fetch sessions")
            .answered(id, &keyed, false);
        let bytes: usize = read.iter().map(|(_, r)| r.bytes).sum();
        let errors = read.iter().any(|(_, r)| r.error);
        // A follower's fetch also completes when it has news without records (a moved high
        // watermark or log start), as Kafka's delayed fetch does within a session.
        let behind = read
            .iter()
            .any(|(w, r)| limits.replica_behind(&w.spec.key, &r.data));
        let news = (from_replica && include.iter().any(|i| *i)) || behind;
        let done = complete(bytes, &limits, errors, news, *stopping.borrow());
        if done || limits.wait.is_zero() {
            let include = sessions
                .lock()
                .expect("fetch sessions")
                .answered(id, &keyed, true);
            // What could not be read for lack of room is read by the next fetch.
            for (w, r) in &read {
                if r.left {
                    interest.mark(&w.spec.key);
                }
            }
            let mut answer: Vec<(Wanted, PartitionData)> = read
                .into_iter()
                .zip(include)
                .filter(|(_, i)| *i)
                .map(|((w, r), _)| (w, r.data))
                .collect();
            answer.sort_by(|(a, _), (b, _)| a.spec.key.cmp(&b.spec.key));
            trace_answer(replica_id, &answer);
            return Ok(respond(&image, listener, version, from_replica, id, answer));
        }
        tokio::select! {
            _ = interest.notify.notified() => {}
            _ = limits.clock.sleep_until(limits.deadline) => {}
            _ = stopping.wait_for(|s| *s) => {}
        }
        specs = sessions
            .lock()
            .expect("fetch sessions")
            .specs(id, interest.take());
    }
}

/// Opens incremental fetch `id` at `epoch` of `request`: the specs of its first pass and the
/// session's interest, with the forgotten partitions unsubscribed; or the refusal to answer.
fn start_incremental(
    replicas: &Arc<ReplicaManager>,
    sessions: &Mutex<SessionCache>,
    image: &MetadataImage,
    (request, version): (&FetchRequest, i16),
    (id, epoch): (i32, i32),
    now: i64,
    follower: Option<(i32, bool)>,
) -> Result<(Vec<Spec>, Arc<crate::data::delayed::Interest>), FetchResponse> {
    let generation = replicas.generation();
    let forgotten = forgotten_of(request, version);
    let started = sessions.lock().expect("fetch sessions").incremental(
        id,
        epoch,
        now,
        specs_of(request, version),
        &forgotten,
        generation,
        follower.is_some_and(|f| f.1),
    );
    let first = match started {
        Ok(first) => first,
        Err(SessionError::NotFound) => {
            return Err(session_refusal(ErrorCode::FetchSessionIdNotFound))
        }
        Err(SessionError::InvalidEpoch) => {
            return Err(session_refusal(ErrorCode::InvalidFetchSessionEpoch))
        }
    };
    let interest = first.interest;
    for k in &forgotten {
        let w = resolve(replicas, image, version, forgotten_spec(k));
        if let Some(p) = &w.local {
            p.watchers.unsubscribe(&interest);
        }
    }
    Ok((first.specs, interest))
}

/// Each partition of an incremental fetch's answer, at TRACE.
fn trace_answer(replica_id: i32, answer: &[(Wanted, PartitionData)]) {
    if tracing::enabled!(tracing::Level::TRACE) {
        for (w, d) in answer {
            tracing::trace!(
                replica = replica_id,
                partition = w.index,
                fetch_offset = w.fetch_offset,
                bytes = d.records.as_ref().map_or(0, |r| r.len()),
                high_watermark = d.high_watermark,
                "incremental fetch answered"
            );
        }
    }
}

/// Whether `w` names a leader epoch other than this leader's `leader_epoch`
/// (UNKNOWN_LEADER_EPOCH or FENCED_LEADER_EPOCH in `d`) or a last fetched epoch its log
/// diverges from (KIP-320: the diverging epoch in `d`): either way nothing is read.
fn epoch_mismatch(
    w: &Wanted,
    leader_epoch: i32,
    log: &fjord_log::PartitionLog,
    d: &mut PartitionData,
) -> bool {
    if w.current_leader_epoch >= 0 && w.current_leader_epoch != leader_epoch {
        d.error_code = if w.current_leader_epoch > leader_epoch {
            ErrorCode::UnknownLeaderEpoch
        } else {
            ErrorCode::FencedLeaderEpoch
        }
        .code();
        return true;
    }
    if w.last_fetched_epoch < 0 {
        return false;
    }
    let answer = log.end_offset_for_epoch(w.last_fetched_epoch);
    match fjord_replication::follower::diverging_epoch(answer, w.last_fetched_epoch, w.fetch_offset)
    {
        Some((epoch, end)) => {
            d.diverging_epoch = EpochEndOffset {
                epoch,
                end_offset: end,
                ..Default::default()
            };
            true
        }
        None => false,
    }
}

/// A spec naming only `key` (to look a forgotten partition up).
fn forgotten_spec(key: &Key) -> Spec {
    Spec {
        key: key.clone(),
        fetch_offset: 0,
        max_bytes: 0,
        current_leader_epoch: -1,
        last_fetched_epoch: -1,
    }
}

/// A sessionless fetch, or a full fetch that opens a session: every partition is read (again
/// after each wake-up) and answered.
#[allow(clippy::too_many_arguments)]
async fn full_fetch(
    replicas: &Arc<ReplicaManager>,
    sessions: &Mutex<SessionCache>,
    image: &MetadataImage,
    listener: &str,
    specs: Vec<Spec>,
    version: i16,
    follower: Option<(i32, bool)>,
    limits: Limits,
    mode: Mode,
    now: i64,
) -> Result<FetchResponse, BrokerError> {
    let from_replica = follower.is_some();
    let wanted: Vec<Wanted> = specs
        .into_iter()
        .map(|spec| resolve(replicas, image, version, spec))
        .collect();
    let wanted = Arc::new(wanted);
    // A session's interest is subscribed before the first read, so that nothing that moves
    // after it is missed by the session's next fetch.
    let session = matches!(mode, Mode::Create).then(|| {
        let interest = Arc::new(crate::data::delayed::Interest::new(
            follower.map_or(-1, |f| f.0),
        ));
        interest.set_eligible(follower.is_some_and(|f| f.1));
        for w in wanted.iter() {
            if let Some(p) = &w.local {
                p.watchers.subscribe(&interest, &w.spec.key);
            }
        }
        (interest, replicas.generation())
    });
    let waiter = Arc::new(Notify::new());
    let mut stopping = replicas.stopping();
    loop {
        // Registered before reading: an append between the read and the wait still wakes it.
        for w in wanted.iter() {
            if let Ok(p) = &w.partition {
                p.watchers.watch(&waiter);
            }
        }
        let pass = wanted.clone();
        // The follower's position is recorded on every pass: a partition first read on a
        // later pass (marked by a leadership change while this fetch waited) must not be
        // missed, or a caught-up follower that names it in no fetch never rejoins its ISR.
        let tracked = follower;
        let (max_bytes, bound) = (limits.max_bytes, limits.bound);
        let throttle = replicas.throttles().clone();
        let tiering = replicas.tiering().cloned();
        let inline = reads_in_page_cache(&pass);
        let results = crate::data::inline_io::run(inline, move || {
            read_all(
                &pass,
                max_bytes,
                true,
                bound,
                tracked,
                version,
                (&throttle, tiering.as_ref()),
            )
        })
        .await
        .map_err(BrokerError::task("a fetch's reads"))?;
        let bytes: usize = results.iter().map(|r| r.bytes).sum();
        let errors = results.iter().any(|r| r.error);
        let behind = wanted
            .iter()
            .zip(&results)
            .any(|(w, r)| limits.replica_behind(&w.spec.key, &r.data));
        let done = complete(bytes, &limits, errors, behind, *stopping.borrow());
        if done || limits.wait.is_zero() {
            let session_id = match session {
                Some((interest, generation)) => {
                    let cached = wanted
                        .iter()
                        .zip(&results)
                        .map(|(w, r)| (w.spec.clone(), r.answered()))
                        .collect();
                    sessions.lock().expect("fetch sessions").create(
                        now,
                        from_replica,
                        cached,
                        interest,
                        generation,
                    )
                }
                None => 0,
            };
            let answer = wanted
                .iter()
                .map(Wanted::copy)
                .zip(results.into_iter().map(|r| r.data))
                .collect();
            return Ok(respond(
                image,
                listener,
                version,
                from_replica,
                session_id,
                answer,
            ));
        }
        // Woken by an append, the deadline (one last read answers) or a graceful shutdown
        // (answered with what there is).
        tokio::select! {
            _ = waiter.notified() => {}
            _ = limits.clock.sleep_until(limits.deadline) => {}
            _ = stopping.wait_for(|s| *s) => {}
        }
    }
}

/// The response carrying `answer` (partitions in order; consecutive partitions of a topic
/// share its entry); counts the records sent as bytes out.
fn respond(
    image: &MetadataImage,
    listener: &str,
    version: i16,
    from_replica: bool,
    session_id: i32,
    answer: Vec<(Wanted, PartitionData)>,
) -> FetchResponse {
    let mut response = FetchResponse {
        session_id,
        ..Default::default()
    };
    let mut leaders = Vec::new();
    for (w, data) in answer {
        if let (Ok(p), Some(r)) = (&w.partition, &data.records) {
            let counter = if from_replica {
                &p.replication_bytes_out
            } else {
                &p.bytes_out
            };
            counter.fetch_add(r.len() as u64, std::sync::atomic::Ordering::Relaxed);
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
        response.node_endpoints = crate::api::metadata::leader_endpoints(
            image,
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
    response
}

/// What reading one partition gave.
struct Read {
    data: PartitionData,
    /// Record bytes read.
    bytes: usize,
    /// An error that ends a wait (the partition's error or a diverging epoch).
    error: bool,
    /// Records were there to read but none fit (the next fetch reads them).
    left: bool,
}

impl Read {
    fn answered(&self) -> Answered {
        Answered {
            high_watermark: self.data.high_watermark,
            log_start_offset: self.data.log_start_offset,
            eventful: self.data.error_code != 0
                || self.bytes > 0
                || self.data.diverging_epoch.epoch >= 0,
        }
    }
}

/// Whether reading `wanted` can run on the async worker: few partitions, each read from its
/// active segment (just written: in the page cache). See [`crate::data::inline_io`].
fn reads_in_page_cache(wanted: &[Wanted]) -> bool {
    wanted.len() <= crate::data::inline_io::INLINE_READ_PARTITIONS
        && wanted.iter().all(|w| match &w.partition {
            Ok(p) => w.fetch_offset >= p.log.active_base_offset(),
            Err(_) => true,
        })
}

/// One pass over `wanted`, in order, with `max_bytes` of room (`first`: nothing was read
/// before it in this fetch, so at least one batch is returned even past the limits, KIP-74).
/// With `follower`, each partition read without error records that follower's position (its
/// fetch offset) with the leader. A follower's reads of replicas this broker throttles as
/// leader (KIP-73) are skipped while the leader throttle is above its bound (the position is
/// still recorded), and otherwise counted in it.
fn read_all(
    wanted: &[Wanted],
    max_bytes: usize,
    first: bool,
    bound: Bound,
    follower: Option<(i32, bool)>,
    version: i16,
    (throttles, tiering): (&Throttles, Option<&Arc<crate::tiered::Tiering>>),
) -> Vec<Read> {
    let now = fjord_util::monotonic_ms();
    let mut out = Vec::with_capacity(wanted.len());
    let mut total = 0usize;
    for w in wanted {
        let mut d = PartitionData {
            partition_index: w.index,
            high_watermark: -1,
            last_stable_offset: -1,
            log_start_offset: -1,
            records: Some(Records::default()),
            // Null unless read_committed asked for them, as Kafka answers.
            aborted_transactions: None,
            ..Default::default()
        };
        // A partition answered to a consumer with an error says nothing of its log (Kafka's
        // `createLogReadResult` of an exception: -1 for each offset), which clients such as
        // kafkajs read. A fjord follower keeps them: on OFFSET_OUT_OF_RANGE it restarts at
        // the leader's log start or truncates to its high watermark from this answer. A
        // diverging epoch is no error: its offsets stay.
        let failed = |mut d: PartitionData| {
            if follower.is_none() && d.error_code != ErrorCode::None.code() {
                d.high_watermark = -1;
                d.last_stable_offset = -1;
                d.log_start_offset = -1;
            }
            Read {
                data: d,
                bytes: 0,
                error: true,
                left: false,
            }
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
                out.push(failed(d));
                continue;
            }
        };
        let log = &p.log;
        let leader_epoch = p.leader_epoch();
        let hw = log.high_watermark();
        d.high_watermark = hw;
        d.last_stable_offset = log.last_stable_offset();
        d.log_start_offset = log.log_start_offset();
        if epoch_mismatch(w, leader_epoch, log, &mut d) {
            out.push(failed(d));
            continue;
        }
        let throttled =
            follower.is_some_and(|(replica, _)| p.throttled_for(THROTTLED_AS_LEADER, replica));
        if throttled && throttles.leader.exceeded(now) {
            if let Some((replica, eligible)) = follower {
                p.on_follower_fetch(replica, w.fetch_offset, now, eligible);
            }
            out.push(Read {
                data: d,
                bytes: 0,
                error: false,
                left: false,
            });
            continue;
        }
        let stop = match bound {
            Bound::LogEnd => log.log_end_offset(),
            Bound::HighWatermark => hw,
            Bound::Stable => d.last_stable_offset,
        };
        let room = max_bytes.saturating_sub(total).min(w.max_bytes);
        let min_one = first && total == 0;
        // Below the local log start a consumer reads from tiered storage.
        let remote = tiering.filter(|_| follower.is_none());
        let read_committed = bound == Bound::Stable;
        let read = read_local_or_remote(
            p,
            w.fetch_offset,
            (room, stop, min_one, read_committed),
            remote,
        );
        match read {
            Ok((records, remote_aborted)) => {
                let bytes = records.len();
                total += bytes;
                if throttled {
                    throttles.leader.record(now, bytes);
                }
                d.records = Some(records);
                if read_committed {
                    // The local log's; with a read below the local log start, the store's
                    // transaction indexes' too, each transaction once (only then is there
                    // anything to merge).
                    let mut aborted = log.aborted_transactions(w.fetch_offset, stop);
                    if !remote_aborted.is_empty() {
                        aborted.extend(remote_aborted);
                        aborted.sort_by_key(|a| (a.first_offset, a.producer_id));
                        aborted.dedup_by_key(|a| (a.first_offset, a.producer_id));
                    }
                    d.aborted_transactions = Some(
                        aborted
                            .into_iter()
                            .map(|a| AbortedTransaction {
                                producer_id: a.producer_id,
                                first_offset: a.first_offset,
                                ..Default::default()
                            })
                            .collect(),
                    );
                }
                if let Some((replica, eligible)) = follower {
                    p.on_follower_fetch(replica, w.fetch_offset, now, eligible);
                    // The high watermark may have moved with it.
                    d.high_watermark = log.high_watermark();
                    d.last_stable_offset = log.last_stable_offset();
                }
                out.push(Read {
                    data: d,
                    bytes,
                    error: false,
                    left: bytes == 0 && w.fetch_offset < stop,
                });
            }
            Err(code) => {
                d.error_code = code.code();
                out.push(failed(d));
            }
        }
    }
    out
}

/// Reads `p` from `offset` (`room` bytes, stopping before `stop`, at least one batch with
/// `min_one`): from the local log, or below the local log start from tiered storage when
/// `remote` is given (consumers), then with the transactions aborted there that the store's
/// indexes name when `read_committed`. A follower is told OFFSET_MOVED_TO_TIERED_STORAGE there and
/// starts at the local log start.
fn read_local_or_remote(
    p: &crate::replica::partition::Partition,
    offset: i64,
    (room, stop, min_one, read_committed): (usize, i64, bool, bool),
    remote: Option<&Arc<crate::tiered::Tiering>>,
) -> Result<(Records, Vec<fjord_log::txn_index::AbortedTxn>), ErrorCode> {
    match p
        .log
        .read_records(offset, room, Some(stop), min_one, ZERO_COPY_MIN_BYTES)
    {
        Err(fjord_log::LogError::InTieredStorage { .. }) if remote.is_some() => {
            let want = crate::tiered::read::RemoteRead {
                offset,
                max_bytes: room,
                stop,
                min_one,
                read_committed,
            };
            remote
                .expect("checked")
                .read_blocking(p, want)
                .map(|a| (Records::from(a.records), a.aborted))
        }
        other => other
            .map(|r| (r.records, Vec::new()))
            .map_err(|e| e.error_code()),
    }
}

#[cfg(test)]
mod tests {
    //! The fetch plan's rules as Kafka states them (KIP-227 sessions, KIP-903 ISR eligibility,
    //! `fetch.max.wait.ms` and `fetch.min.bytes`), with no socket, file or log.
    use super::*;
    use fjord_protocol::generated::broker_registration_change_record::BrokerRegistrationChangeRecord;
    use fjord_protocol::generated::fetch_request::ReplicaState;
    use fjord_protocol::generated::register_broker_record::RegisterBrokerRecord;
    use fjord_protocol::MetadataRecord;

    /// Brokers 1 (epoch 1), 2 (fenced) and 3 (in controlled shutdown).
    fn image() -> MetadataImage {
        let broker = |id: i32, fenced: bool| {
            MetadataRecord::RegisterBroker(RegisterBrokerRecord {
                broker_id: id,
                broker_epoch: i64::from(id),
                fenced,
                ..Default::default()
            })
        };
        let shutting_down =
            MetadataRecord::BrokerRegistrationChange(BrokerRegistrationChangeRecord {
                broker_id: 3,
                broker_epoch: 3,
                in_controlled_shutdown: 1,
                ..Default::default()
            });
        let records = [
            broker(1, false),
            broker(2, true),
            broker(3, false),
            shutting_down,
        ];
        MetadataImage::empty().apply(&records, 10, 1).unwrap().0
    }

    fn session(id: i32, epoch: i32) -> FetchRequest {
        FetchRequest {
            replica_id: -1,
            session_id: id,
            session_epoch: epoch,
            ..Default::default()
        }
    }

    #[test]
    fn session_ids_and_epochs_choose_the_mode() {
        let img = image();
        let of = |r: FetchRequest, v: i16| {
            let p = FetchPlan::of(&r, v, &img, &Clock::system());
            (p.close, p.mode)
        };
        // Before v7 there are no sessions, whatever the fields hold.
        assert_eq!(of(session(5, 3), 6), (None, Ok(Mode::Sessionless)));
        // Epoch -1 closes the session and fetches without one.
        assert_eq!(of(session(5, -1), 7), (Some(5), Ok(Mode::Sessionless)));
        assert_eq!(of(session(0, -1), 12), (Some(0), Ok(Mode::Sessionless)));
        // Epoch 0 is a full fetch that (re)opens a session.
        assert_eq!(of(session(5, 0), 12), (Some(5), Ok(Mode::Create)));
        // A later epoch without a session id is refused; with one it is incremental.
        assert_eq!(
            of(session(0, 3), 12),
            (None, Err(ErrorCode::InvalidFetchSessionEpoch))
        );
        assert_eq!(of(session(5, 3), 12), (None, Ok(Mode::Incremental(5, 3))));
    }

    #[test]
    fn a_follower_may_join_an_isr_only_as_a_live_registered_broker_at_its_epoch() {
        let img = image();
        let v15 = |id: i32, epoch: i64| {
            let r = FetchRequest {
                replica_id: -1,
                replica_state: ReplicaState {
                    replica_id: id,
                    replica_epoch: epoch,
                    ..Default::default()
                },
                ..Default::default()
            };
            FetchPlan::of(&r, 15, &img, &Clock::system()).follower
        };
        assert_eq!(v15(1, 1), Some((1, true)));
        // KIP-903: a stale broker epoch (a restarted broker not yet registered again).
        assert_eq!(v15(1, 99), Some((1, false)));
        assert_eq!(v15(2, 2), Some((2, false)), "fenced");
        assert_eq!(v15(3, 3), Some((3, false)), "in controlled shutdown");
        assert_eq!(v15(9, 9), Some((9, false)), "not registered");
        assert_eq!(v15(-1, -1), None, "a consumer");
        // Before v15 the replica id is a top-level field and carries no epoch.
        let old = FetchRequest {
            replica_id: 1,
            ..Default::default()
        };
        assert_eq!(
            FetchPlan::of(&old, 14, &img, &Clock::system()).follower,
            Some((1, true))
        );
    }

    #[test]
    fn the_wait_is_capped_and_negative_limits_mean_none() {
        let img = image();
        let limits = |max_wait_ms: i32, min_bytes: i32, max_bytes: i32| {
            let r = FetchRequest {
                replica_id: -1,
                max_wait_ms,
                min_bytes,
                max_bytes,
                ..Default::default()
            };
            let l = FetchPlan::of(&r, 12, &img, &Clock::system()).limits;
            (l.wait, l.min_bytes, l.max_bytes)
        };
        assert_eq!(
            limits(500, 1, 1 << 20),
            (Duration::from_millis(500), 1, 1 << 20)
        );
        assert_eq!(limits(600_000, 1, 1).0, MAX_WAIT);
        assert_eq!(limits(-5, -1, -1), (Duration::ZERO, 0, 0));
    }

    #[test]
    fn a_fetch_is_answered_when_it_has_enough_news_or_time_is_up() {
        let img = image();
        let waiting = FetchRequest {
            replica_id: -1,
            max_wait_ms: 10_000,
            min_bytes: 100,
            ..Default::default()
        };
        let l = FetchPlan::of(&waiting, 12, &img, &Clock::system()).limits;
        assert!(!complete(99, &l, false, false, false), "keeps waiting");
        assert!(complete(100, &l, false, false, false), "min bytes");
        assert!(complete(0, &l, true, false, false), "an error to report");
        assert!(complete(0, &l, false, true, false), "a follower's news");
        assert!(complete(0, &l, false, false, true), "stopping");
        let no_wait = FetchRequest {
            replica_id: -1,
            max_wait_ms: 0,
            min_bytes: 100,
            ..Default::default()
        };
        let l = FetchPlan::of(&no_wait, 12, &img, &Clock::system()).limits;
        assert!(complete(0, &l, false, false, false), "the wait is over");
    }
}
