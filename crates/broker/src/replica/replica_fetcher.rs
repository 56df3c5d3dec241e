//! Replica fetchers: the follower's side of replication. Every partition this broker follows
//! is fetched from its leader by one of `num.replica.fetchers` fetchers per source broker (a
//! partition's fetcher is fixed by its topic id and index), many partitions per Fetch (v15,
//! with this broker's id and epoch), up to `replica.fetch.max.bytes` per partition and
//! `replica.fetch.response.max.bytes` in all, waiting up to `replica.fetch.wait.max.ms` for
//! `replica.fetch.min.bytes`. A fetcher appends what it gets as a follower and takes the
//! leader's high watermark (at most its own log end) and log start offset. When the leader answers with a diverging
//! epoch (KIP-320) it truncates where the replication core says and fetches again; when its
//! offset is below the leader's log start it starts over there; on NOT_LEADER_OR_FOLLOWER and
//! fencing errors it pauses the partition for `replica.fetch.backoff.ms` until a newer image
//! says who leads. A partition this broker follows out of sync and throttles as follower
//! (KIP-73) is left out of fetches while the follower throttle is above its bound. The set of
//! fetchers follows every image the replica manager applies, looking only at the partitions
//! each one changed. Log work runs off the async workers.

use crate::cluster::lifecycle::BrokerState;
use crate::cluster::view::View;
use crate::replica::partition::{Partition, THROTTLED_AS_FOLLOWER};
use crate::replica::replica_manager::ReplicaManager;
use fjord_metadata::delta::{Cursor, MetadataDelta};
use fjord_net::client::Client;
use fjord_protocol::generated::fetch_request::{
    FetchPartition, FetchRequest, FetchTopic, ForgottenTopic, ReplicaState,
};
use fjord_protocol::generated::fetch_response::PartitionData;
use fjord_protocol::{ErrorCode, Records, RequestBody, ResponseBody, Uuid};
use fjord_replication::truncation_offset;
use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::{watch, Mutex, Notify};
use tokio::time::Instant;

/// The Fetch version followers send (replica state with the broker epoch, topic ids).
const FETCH_VERSION: i16 = 15;
/// How long connecting to a leader may take.
const CONNECT_TIMEOUT: Duration = Duration::from_secs(5);
/// How long a fetch may take beyond its own wait.
const REQUEST_TIMEOUT: Duration = Duration::from_secs(30);

/// The replica fetchers' settings.
#[derive(Debug, Clone)]
pub struct FetcherSettings {
    /// `num.replica.fetchers`: fetchers per source broker.
    pub num_fetchers: usize,
    /// `replica.fetch.max.bytes`: per partition.
    pub max_bytes: i32,
    /// `replica.fetch.response.max.bytes`: per fetch.
    pub response_max_bytes: i32,
    /// `replica.fetch.wait.max.ms`.
    pub wait_max_ms: i32,
    /// `replica.fetch.min.bytes`.
    pub min_bytes: i32,
    /// `replica.fetch.backoff.ms`.
    pub backoff: Duration,
    /// The listener followers connect to on their leaders.
    pub listener: String,
    /// How followers authenticate on it.
    pub security: fjord_net::security::ClientSecurity,
}

impl Default for FetcherSettings {
    fn default() -> FetcherSettings {
        FetcherSettings {
            num_fetchers: 1,
            max_bytes: 1_048_576,
            response_max_bytes: 10_485_760,
            wait_max_ms: 500,
            min_bytes: 1,
            backoff: Duration::from_millis(1_000),
            listener: "PLAINTEXT".into(),
            security: fjord_net::security::ClientSecurity::plaintext(),
        }
    }
}

/// Partitions a fetcher takes up (with their leader epochs) or drops (`None`).
type Taken = Vec<((Uuid, i32), Option<(Arc<Partition>, i32)>)>;

/// A partition a fetcher follows.
#[derive(Debug, Clone)]
struct Followed {
    partition: Arc<Partition>,
    leader_epoch: i32,
    paused_until: Option<Instant>,
}

/// What a fetcher follows, and what changed since its last request.
#[derive(Debug, Default)]
struct Followings {
    partitions: HashMap<(Uuid, i32), Followed>,
    /// Partitions whose fetch position may differ from what the leader's session holds
    /// (added, removed, re-epoched, appended to, truncated, paused or resumed).
    dirty: HashSet<(Uuid, i32)>,
    /// Paused partitions, until when.
    paused: HashMap<(Uuid, i32), Instant>,
}

impl Followings {
    /// Takes up (with its leader epoch) or drops each listed partition; true when what the
    /// fetcher follows changed.
    fn take(&mut self, list: Taken) -> bool {
        let mut changed = false;
        for (k, wanted) in list {
            match wanted {
                None => {
                    if self.partitions.remove(&k).is_some() {
                        self.dirty.insert(k);
                        self.paused.remove(&k);
                        changed = true;
                    }
                }
                // The same replica in the same epoch (a replica moved to another log dir is
                // a new partition object: followed anew).
                Some((partition, leader_epoch))
                    if self.partitions.get(&k).is_some_and(|c| {
                        c.leader_epoch == leader_epoch && Arc::ptr_eq(&c.partition, &partition)
                    }) => {}
                Some((partition, leader_epoch)) => {
                    self.paused.remove(&k);
                    self.dirty.insert(k);
                    changed = true;
                    self.partitions.insert(
                        k,
                        Followed {
                            partition,
                            leader_epoch,
                            paused_until: None,
                        },
                    );
                }
            }
        }
        changed
    }

    /// Pauses `keys` until `until`; the next request forgets them.
    fn pause(&mut self, keys: impl IntoIterator<Item = (Uuid, i32)>, until: Instant) {
        for k in keys {
            if let Some(p) = self.partitions.get_mut(&k) {
                p.paused_until = Some(until);
                self.paused.insert(k, until);
                self.dirty.insert(k);
            }
        }
    }

    /// Resumes the partitions whose pause ended by `now`; returns when the next one ends.
    fn resume(&mut self, now: Instant) -> Option<Instant> {
        let ended: Vec<(Uuid, i32)> = self
            .paused
            .iter()
            .filter(|(_, t)| **t <= now)
            .map(|(k, _)| *k)
            .collect();
        for k in ended {
            self.paused.remove(&k);
            if let Some(p) = self.partitions.get_mut(&k) {
                p.paused_until = None;
            }
            self.dirty.insert(k);
        }
        self.paused.values().min().copied()
    }
}

/// One fetcher: the partitions it fetches from one leader.
#[derive(Debug)]
struct Fetcher {
    leader: i32,
    state: std::sync::Mutex<Followings>,
    wake: Notify,
    stopped: AtomicBool,
}

/// What a partition's last fetch told the leader's session.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Sent {
    fetch_offset: i64,
    leader_epoch: i32,
    last_fetched_epoch: i32,
}

/// The follower's side of its fetch session with the leader (KIP-227).
#[derive(Debug, Default)]
struct Session {
    /// The leader's session id (0: none; the next fetch is full and opens one).
    id: i32,
    /// The epoch of the next incremental fetch.
    epoch: i32,
    /// What the session holds for each partition.
    sent: HashMap<(Uuid, i32), Sent>,
}

/// Every replica fetcher of this broker.
#[derive(Debug)]
pub struct ReplicaFetchers {
    settings: FetcherSettings,
    replicas: Arc<ReplicaManager>,
    view: watch::Receiver<View>,
    broker: Arc<Mutex<BrokerState>>,
    fetchers: std::sync::Mutex<Placement>,
    /// Partitions looked at while following the applied images, ever.
    visited: std::sync::atomic::AtomicU64,
}

/// The fetchers by (source broker, slot), and which one follows each partition.
#[derive(Debug, Default)]
struct Placement {
    by_source: HashMap<(i32, usize), Arc<Fetcher>>,
    placed: BTreeMap<(Uuid, i32), (i32, usize)>,
}

impl ReplicaFetchers {
    /// Fetchers for the partitions `replicas` follows.
    pub fn new(
        settings: FetcherSettings,
        replicas: Arc<ReplicaManager>,
        view: watch::Receiver<View>,
        broker: Arc<Mutex<BrokerState>>,
    ) -> Arc<ReplicaFetchers> {
        Arc::new(ReplicaFetchers {
            settings,
            replicas,
            view,
            broker,
            fetchers: Default::default(),
            visited: Default::default(),
        })
    }

    /// Follows the images the replica manager applies, starting, changing and stopping
    /// fetchers to match (looking only at the partitions each one changed); returns when the
    /// replica manager stops.
    pub async fn follow(self: Arc<Self>) -> String {
        let mut applied = self.replicas.applied();
        let mut cursor = Cursor::new();
        loop {
            let delta = applied
                .borrow_and_update()
                .as_ref()
                .map(|v| v.delta(&mut cursor));
            if let Some(delta) = delta {
                self.sync(&delta);
            }
            if applied.changed().await.is_err() {
                return "the replica manager stopped".into();
            }
        }
    }

    /// How many partitions following the applied images has looked at, ever.
    pub fn partitions_visited(&self) -> u64 {
        self.visited.load(Ordering::Relaxed)
    }

    /// Makes the fetchers fetch exactly the partitions this broker follows now, among those
    /// `delta` names (all of them for a full delta).
    fn sync(self: &Arc<Self>, delta: &MetadataDelta) {
        let me = self.replicas.node_id();
        let n = self.settings.num_fetchers.max(1);
        let mut guard = self.fetchers.lock().expect("fetchers");
        let placement = &mut *guard;
        let mut keys: BTreeSet<(Uuid, i32)> = BTreeSet::new();
        if delta.full {
            keys.extend(self.replicas.all().iter().map(|p| (p.topic_id, p.index)));
            keys.extend(placement.placed.keys().copied());
        } else {
            keys.extend(delta.changes.partitions.iter().copied());
            for id in delta.changes.deleted_topics.keys() {
                let range = (*id, i32::MIN)..=(*id, i32::MAX);
                keys.extend(placement.placed.range(range).map(|(k, _)| *k));
            }
        }
        // Per fetcher: the partitions it takes up (with their leader epochs) or drops.
        let mut moves: HashMap<(i32, usize), Taken> = HashMap::new();
        for k in keys {
            self.visited.fetch_add(1, Ordering::Relaxed);
            let wanted = self.replicas.get(k.0, k.1).and_then(|p| {
                let l = p.leadership();
                (l.leader >= 0 && l.leader != me)
                    .then(|| ((l.leader, fetcher_slot(k.0, k.1, n)), p, l.leader_epoch))
            });
            let now = placement.placed.get(&k).copied();
            if let Some(from) = now.filter(|f| wanted.as_ref().map(|w| w.0) != Some(*f)) {
                moves.entry(from).or_default().push((k, None));
                placement.placed.remove(&k);
            }
            if let Some((to, p, epoch)) = wanted {
                moves.entry(to).or_default().push((k, Some((p, epoch))));
                placement.placed.insert(k, to);
            }
        }
        for (key, list) in moves {
            let f = placement.by_source.entry(key).or_insert_with(|| {
                let f = Arc::new(Fetcher {
                    leader: key.0,
                    state: std::sync::Mutex::default(),
                    wake: Notify::new(),
                    stopped: AtomicBool::new(false),
                });
                tokio::spawn(self.clone().run(f.clone()));
                f
            });
            let mut state = f.state.lock().expect("followed");
            let changed = state.take(list);
            if state.partitions.is_empty() {
                drop(state);
                f.stopped.store(true, Ordering::SeqCst);
                f.wake.notify_one();
                placement.by_source.remove(&key);
            } else if changed {
                drop(state);
                f.wake.notify_one();
            }
        }
    }

    /// The `host:port` of broker `id` on the fetchers' listener.
    fn address_of(&self, id: i32) -> Option<String> {
        let image = self.view.borrow().image.clone();
        let b = image.cluster.brokers.get(&id)?;
        let l = crate::api::metadata::endpoint_on(b, &self.settings.listener)?;
        Some(if l.host.contains(':') {
            format!("[{}]:{}", l.host, l.port)
        } else {
            format!("{}:{}", l.host, l.port)
        })
    }

    /// One fetcher's loop, until it is stopped: a full fetch opens a session with the
    /// leader; later fetches name only the partitions whose position changed (and forget
    /// those no longer fetched), and the leader answers only partitions with news.
    async fn run(self: Arc<Self>, f: Arc<Fetcher>) {
        let mut client: Option<Client> = None;
        let mut session = Session::default();
        loop {
            if f.stopped.load(Ordering::SeqCst) {
                return;
            }
            let now = Instant::now();
            let (request, next_resume) = {
                let mut state = f.state.lock().expect("followed");
                state.resume(now);
                self.hold_throttled(&mut state, now);
                let next_resume = state.resume(now);
                (self.next_request(&mut state, &mut session), next_resume)
            };
            let Some(fetch) = request else {
                let until = next_resume.unwrap_or(now + Duration::from_secs(3600));
                tokio::select! {
                    _ = f.wake.notified() => {}
                    _ = tokio::time::sleep_until(until) => {}
                }
                continue;
            };
            let c = match &client {
                Some(c) if c.is_open() => c.clone(),
                _ => {
                    let connected = match self.address_of(f.leader) {
                        Some(addr) => Client::connect_with(
                            &addr,
                            CONNECT_TIMEOUT,
                            fjord_net::client::CLIENT_ID,
                            &self.settings.security,
                        )
                        .await
                        .map_err(|e| tracing::debug!(leader = f.leader, "{e}"))
                        .ok(),
                        None => None,
                    };
                    match connected {
                        Some(c) => {
                            client = Some(c.clone());
                            c
                        }
                        None => {
                            self.pause_all(&f, &mut session);
                            continue;
                        }
                    }
                }
            };
            let epoch = self.broker.lock().await.epoch.unwrap_or(-1);
            let request = self.request(epoch, fetch);
            let timeout = REQUEST_TIMEOUT
                + Duration::from_millis(u64::try_from(self.settings.wait_max_ms).unwrap_or(0));
            let response = match c.call(request, FETCH_VERSION, timeout).await {
                Ok(ResponseBody::Fetch(r)) if r.error_code == 0 => r,
                Ok(ResponseBody::Fetch(r))
                    if r.error_code == ErrorCode::FetchSessionIdNotFound.code()
                        || r.error_code == ErrorCode::InvalidFetchSessionEpoch.code() =>
                {
                    // The leader lost the session (restarted, evicted it): start a new one.
                    tracing::debug!(leader = f.leader, "fetch session {} ended", session.id);
                    self.reset(&f, &mut session);
                    continue;
                }
                Ok(_) | Err(_) => {
                    client = None;
                    self.pause_all(&f, &mut session);
                    continue;
                }
            };
            if session.id == 0 || session.id != response.session_id {
                session.id = response.session_id;
                session.epoch = 1;
            } else {
                session.epoch = if session.epoch == i32::MAX {
                    1
                } else {
                    session.epoch + 1
                };
            }
            if session.id == 0 {
                // Served without a session: the next fetch is full again (it names every
                // active partition).
                session.sent.clear();
            }
            let mut answers = Vec::new();
            {
                let mut state = f.state.lock().expect("followed");
                for t in response.responses {
                    for p in t.partitions {
                        let key = (t.topic_id, p.partition_index);
                        if let Some(followed) = state.partitions.get(&key) {
                            if followed.paused_until.is_none() {
                                answers.push((key, followed.clone(), p));
                            }
                        }
                    }
                }
                // Whatever was answered may have moved: the next request looks again.
                state.dirty.extend(answers.iter().map(|(k, _, _)| *k));
            }
            let keys: Vec<(Uuid, i32)> = answers.iter().map(|(k, _, _)| *k).collect();
            let me = self.replicas.node_id();
            let throttled: usize = answers
                .iter()
                .filter(|(_, f, _)| f.partition.throttled_for(THROTTLED_AS_FOLLOWER, me))
                .map(|(_, _, p)| p.records.as_ref().map_or(0, Records::len))
                .sum();
            self.replicas
                .throttles()
                .follower
                .record(fjord_util::monotonic_ms(), throttled);
            let rm = self.replicas.clone();
            let bytes: usize = answers
                .iter()
                .map(|(_, _, p)| p.records.as_ref().map_or(0, Records::len))
                .sum();
            let inline = crate::data::inline_io::append_inline(bytes, || {
                answers
                    .iter()
                    .any(|(_, f, _)| f.partition.log.may_fsync_on_append())
            });
            let handled =
                crate::data::inline_io::run(inline, move || handle_answers(&rm, answers)).await;
            let pause: Vec<(Uuid, i32)> = match handled {
                Ok(p) => p,
                Err(e) => {
                    tracing::error!(leader = f.leader, "a replica fetch's appends failed: {e}");
                    keys
                }
            };
            if !pause.is_empty() {
                let until = Instant::now() + self.settings.backoff;
                f.state.lock().expect("followed").pause(pause, until);
            }
        }
    }

    /// While the follower throttle is above its bound, pauses the throttled partitions this
    /// broker follows out of sync until it is back (Kafka leaves them out of its fetches).
    fn hold_throttled(&self, state: &mut Followings, now: Instant) {
        let wait = self
            .replicas
            .throttles()
            .follower
            .throttle_ms(fjord_util::monotonic_ms());
        if wait <= 0 {
            return;
        }
        let me = self.replicas.node_id();
        let held: Vec<(Uuid, i32)> = state
            .partitions
            .iter()
            .filter(|(_, f)| {
                f.paused_until.is_none() && f.partition.throttled_for(THROTTLED_AS_FOLLOWER, me)
            })
            .map(|(k, _)| *k)
            .collect();
        let until = now + Duration::from_millis(u64::try_from(wait).unwrap_or(0));
        state.pause(held, until);
    }

    /// The next fetch (partitions to name, partitions to forget); `None` when there is
    /// nothing to fetch. Without a session every active
    /// partition is named (a full fetch); in a session only those whose position differs
    /// from what the session holds, and the rest are forgotten when no longer fetched.
    fn next_request(&self, state: &mut Followings, session: &mut Session) -> Option<Fetch> {
        let mut named = Vec::new();
        let mut forgotten = Vec::new();
        if session.id == 0 {
            state.dirty.clear();
            session.sent.clear();
            for (k, p) in &state.partitions {
                if p.paused_until.is_none() {
                    let (spec, sent) = spec_of(*k, p, self.settings.max_bytes);
                    session.sent.insert(*k, sent);
                    named.push(spec);
                }
            }
            if named.is_empty() {
                return None;
            }
        } else {
            for k in std::mem::take(&mut state.dirty) {
                match state.partitions.get(&k) {
                    Some(p) if p.paused_until.is_none() => {
                        let (spec, sent) = spec_of(k, p, self.settings.max_bytes);
                        if session.sent.get(&k) != Some(&sent) {
                            session.sent.insert(k, sent);
                            named.push(spec);
                        }
                    }
                    _ => {
                        if session.sent.remove(&k).is_some() {
                            forgotten.push(k);
                        }
                    }
                }
            }
            if session.sent.is_empty() && forgotten.is_empty() {
                // Nothing left to fetch: the session is dropped with the next full fetch.
                session.id = 0;
                return None;
            }
        }
        Some(Fetch {
            session_id: session.id,
            session_epoch: if session.id == 0 { 0 } else { session.epoch },
            named,
            forgotten,
        })
    }

    /// Ends the session: the next fetch is full.
    fn reset(&self, f: &Fetcher, session: &mut Session) {
        session.id = 0;
        session.sent.clear();
        f.state.lock().expect("followed").dirty.clear();
    }

    /// Pauses every active partition of `f` for `replica.fetch.backoff.ms` (the leader could
    /// not be reached), and ends the session.
    fn pause_all(&self, f: &Fetcher, session: &mut Session) {
        self.reset(f, session);
        let until = Instant::now() + self.settings.backoff;
        let mut state = f.state.lock().expect("followed");
        let active: Vec<(Uuid, i32)> = state
            .partitions
            .iter()
            .filter(|(_, p)| p.paused_until.is_none())
            .map(|(k, _)| *k)
            .collect();
        state.pause(active, until);
        state.dirty.clear();
    }

    /// The Fetch request for `fetch`.
    fn request(&self, broker_epoch: i64, fetch: Fetch) -> RequestBody {
        let mut topics: HashMap<Uuid, Vec<FetchPartition>> = HashMap::new();
        for (topic, p) in fetch.named {
            topics.entry(topic).or_default().push(p);
        }
        let mut forgotten: HashMap<Uuid, Vec<i32>> = HashMap::new();
        for (topic, index) in fetch.forgotten {
            forgotten.entry(topic).or_default().push(index);
        }
        RequestBody::Fetch(FetchRequest {
            replica_id: -1,
            replica_state: ReplicaState {
                replica_id: self.replicas.node_id(),
                replica_epoch: broker_epoch,
                ..Default::default()
            },
            max_wait_ms: self.settings.wait_max_ms,
            min_bytes: self.settings.min_bytes,
            max_bytes: self.settings.response_max_bytes,
            session_id: fetch.session_id,
            session_epoch: fetch.session_epoch,
            topics: topics
                .into_iter()
                .map(|(topic_id, partitions)| FetchTopic {
                    topic_id,
                    partitions,
                    ..Default::default()
                })
                .collect(),
            forgotten_topics_data: forgotten
                .into_iter()
                .map(|(topic_id, partitions)| ForgottenTopic {
                    topic_id,
                    partitions,
                    ..Default::default()
                })
                .collect(),
            ..Default::default()
        })
    }
}

/// One fetch to send: its session id and epoch, the partitions it names and those it forgets.
#[derive(Debug)]
struct Fetch {
    session_id: i32,
    session_epoch: i32,
    named: Vec<(Uuid, FetchPartition)>,
    forgotten: Vec<(Uuid, i32)>,
}

/// A followed partition's fetch from its log end, and what that tells the session.
fn spec_of(key: (Uuid, i32), f: &Followed, max_bytes: i32) -> ((Uuid, FetchPartition), Sent) {
    let log = &f.partition.log;
    let sent = Sent {
        fetch_offset: log.log_end_offset(),
        leader_epoch: f.leader_epoch,
        last_fetched_epoch: log.latest_epoch().unwrap_or(-1),
    };
    let p = FetchPartition {
        partition: key.1,
        current_leader_epoch: sent.leader_epoch,
        fetch_offset: sent.fetch_offset,
        last_fetched_epoch: sent.last_fetched_epoch,
        log_start_offset: log.log_start_offset(),
        partition_max_bytes: max_bytes,
        ..Default::default()
    };
    ((key.0, p), sent)
}

/// Which of `n` fetchers of a source broker fetches a partition.
fn fetcher_slot(topic: Uuid, index: i32, n: usize) -> usize {
    let h = topic.as_u128() as u64 ^ (topic.as_u128() >> 64) as u64;
    (h.wrapping_mul(31).wrapping_add(index as u64) % n as u64) as usize
}

/// Appends fetched batches to a follower's log. When the log is empty (after starting over at
/// the leader's log start) and the first batch begins before that offset but holds it (the
/// leader's log start fell inside a batch, by DeleteRecords), the log starts over at the
/// batch's base offset instead, as Kafka's follower does.
fn append_as_follower(
    log: &fjord_log::PartitionLog,
    records: bytes::Bytes,
    now: i64,
) -> Result<(), fjord_log::LogError> {
    let first = fjord_protocol::records::RecordBatches::new(records.clone())
        .next()
        .and_then(Result::ok)
        .map(|b| (b.base_offset(), b.last_offset()));
    match log.append_as_follower(records.clone(), now) {
        Err(fjord_log::LogError::UnexpectedAppendOffset { .. })
            if first.is_some_and(|(base, last)| {
                let leo = log.log_end_offset();
                leo == log.log_start_offset() && base < leo && last >= leo
            }) =>
        {
            let (base, _) = first.expect("checked");
            tracing::info!(
                "the leader's log start is inside the first batch fetched; the log starts over at {base}"
            );
            log.truncate_fully_and_start_at(base)?;
            log.append_as_follower(records, now).map(|_| ())
        }
        other => other.map(|_| ()),
    }
}

/// Applies a fetch's answers to the follower logs; returns the partitions to pause. A storage
/// error takes the replica's log dir offline. Blocking.
fn handle_answers(
    rm: &ReplicaManager,
    answers: Vec<((Uuid, i32), Followed, PartitionData)>,
) -> Vec<(Uuid, i32)> {
    let me = rm.node_id();
    let mut pause = Vec::new();
    let now = fjord_util::system_now_ms();
    for (key, f, d) in answers {
        let p = &f.partition;
        // The image moved on (this broker leads it now, or another epoch): ignore the answer.
        let l = p.leadership();
        if l.leader == me || l.leader_epoch != f.leader_epoch {
            continue;
        }
        let log = &p.log;
        match ErrorCode::from_code(d.error_code) {
            Some(ErrorCode::None) => {}
            Some(ErrorCode::OffsetOutOfRange) => {
                let leo = log.log_end_offset();
                let result = if leo < d.log_start_offset {
                    // Behind the leader's log start: start over there.
                    log.truncate_fully_and_start_at(d.log_start_offset)
                } else {
                    // Ahead of the leader: keep what it has committed.
                    log.truncate_to(d.high_watermark.max(0)).map(|_| ())
                };
                if let Err(e) = result {
                    tracing::error!(
                        topic = %p.topic,
                        partition = p.index,
                        "truncating to the leader's log start or high watermark: {e}"
                    );
                    let _ = rm.partition_storage_error(p, e);
                    pause.push(key);
                }
                continue;
            }
            Some(ErrorCode::OffsetMovedToTieredStorage) => {
                // Below the leader's local log: start after what the store holds, with its
                // producer state (read from the store while the partition waits).
                if let Some(t) = rm.tiering() {
                    t.begin_follower_start(p, d.log_start_offset);
                }
                pause.push(key);
                continue;
            }
            _ => {
                pause.push(key);
                continue;
            }
        }
        if d.diverging_epoch.epoch >= 0 {
            let leo = log.log_end_offset();
            let local = log.end_offset_for_epoch(d.diverging_epoch.epoch);
            let t = truncation_offset(
                d.diverging_epoch.epoch,
                d.diverging_epoch.end_offset,
                leo,
                local,
            );
            match log.truncate_to(t.offset) {
                Ok(to) => tracing::info!(
                    topic = %p.topic,
                    partition = p.index,
                    from = leo,
                    to,
                    truncated = leo - to,
                    "truncated to the leader's epoch {}",
                    d.diverging_epoch.epoch
                ),
                Err(e) => {
                    tracing::error!(topic = %p.topic, partition = p.index, "truncating: {e}");
                    let _ = rm.partition_storage_error(p, e);
                    pause.push(key);
                }
            }
            continue;
        }
        if let Some(records) = d.records.and_then(|r| r.into_bytes().ok()) {
            if !records.is_empty() {
                if let Err(e) = append_as_follower(log, records, now) {
                    tracing::error!(topic = %p.topic, partition = p.index, "follower append: {e}");
                    let _ = rm.partition_storage_error(p, e);
                    pause.push(key);
                    continue;
                }
            }
        }
        tracing::trace!(
            topic = %p.topic,
            partition = p.index,
            log_end = log.log_end_offset(),
            leader_high_watermark = d.high_watermark,
            "follower appended"
        );
        let hw = d.high_watermark.min(log.log_end_offset());
        if hw > log.high_watermark() {
            log.set_high_watermark(hw);
        }
        // The leader's log start (retention, DeleteRecords) moves the follower's up too, as
        // far as what the follower has committed.
        let start = d.log_start_offset.min(log.high_watermark());
        if start > log.log_start_offset() {
            if let Err(e) = log.delete_records(start) {
                tracing::warn!(topic = %p.topic, partition = p.index, "following the log start: {e}");
            }
        }
        p.watchers.wake();
    }
    pause
}
