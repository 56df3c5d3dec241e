//! ShareFetch and ShareAcknowledge on a partition leader (KIP-932): the share sessions, one
//! [`SharePartition`] per (group, topic, partition) this broker leads, and the driver around
//! each: the state is read from the share coordinator when the share-partition is first
//! fetched (a start offset not yet chosen is set by the group's `share.auto.offset.reset` and
//! written at once), every change the state machine says must survive the leader is written
//! through the [`Persister`] before the acknowledgement that caused it is answered, and locks
//! that expire make their records available again (a task sleeps until the earliest lock
//! deadline).
//!
//! A fetch reads committed data from the log (the high watermark, or the last stable offset
//! under `share.isolation.level=read_committed`, where aborted transactions' batches and
//! control batches are skipped), acquires what it may for the member, and answers the batches
//! with the acquired ranges; the client delivers only the acquired offsets. With nothing to
//! acquire it waits, up to its `MaxWaitMs`, for the partitions to move or records to come
//! back. A share-partition whose leader epoch moved is dropped and read again.

use crate::cluster::view::View;
use crate::replica::replica_manager::ReplicaManager;
use crate::share::persister::{Persister, SharePartitionKey, StateError};
use bytes::Bytes;
use fjord_metadata::MetadataImage;
use fjord_protocol::generated::{
    share_acknowledge_request::ShareAcknowledgeRequest,
    share_acknowledge_response::{
        self as ack_resp, ShareAcknowledgeResponse, ShareAcknowledgeTopicResponse,
    },
    share_fetch_request::{AcknowledgementBatch, ShareFetchRequest},
    share_fetch_response::{
        AcquiredRecords, LeaderIdAndEpoch, NodeEndpoint, PartitionData, ShareFetchResponse,
        ShareFetchableTopicResponse,
    },
};
use fjord_protocol::records::RecordBatches;
use fjord_protocol::{ErrorCode, Records};
use fjord_share::partition::{
    AckBatch, AckType, Effects, LogBatch, PartitionConfig, SharePartition, Ticket, Write,
};
use fjord_share::session::{FetchContext, ShareSessionCache, TopicIdPartition};
use std::collections::{BTreeMap, HashMap};
use std::sync::{Arc, Mutex};
use tokio::sync::{oneshot, watch, Notify};

/// The longest a ShareFetch waits for records (bounds a client's `MaxWaitMs`).
pub const MAX_WAIT_MS: i32 = 30_000;
/// The most bytes one ShareFetch reads from one partition.
pub const MAX_PARTITION_READ_BYTES: usize = 8 << 20;
/// The most share-partitions one broker keeps state for; a fetch beyond it gets
/// COORDINATOR_NOT_AVAILABLE for the new ones until others are dropped.
pub const MAX_SHARE_PARTITIONS_PER_BROKER: usize = 100_000;
/// The most records one fetch acquires when the client names no limit.
const DEFAULT_MAX_RECORDS: usize = 500;
/// The group config keys the leader reads.
const LOCK_DURATION_KEY: &str = "share.record.lock.duration.ms";
const DELIVERY_LIMIT_KEY: &str = "share.delivery.count.limit";
const AUTO_RESET_KEY: &str = "share.auto.offset.reset";
const ISOLATION_KEY: &str = "share.isolation.level";
const RECORD_LOCKS_KEY: &str = "share.partition.max.record.locks";

/// The leader's share settings (broker keys, overridden per group by group configs).
#[derive(Debug, Clone)]
pub struct ShareLeaderConfig {
    /// `group.share.record.lock.duration.ms` (Kafka: 30000).
    pub lock_duration_ms: i32,
    /// `group.share.delivery.count.limit` (Kafka: 5).
    pub delivery_count_limit: i32,
    /// `group.share.partition.max.record.locks` (Kafka: 2000).
    pub max_record_locks: i32,
    /// `group.share.max.share.sessions` (Kafka: 2000).
    pub max_sessions: usize,
    /// The dead-letter queues' broker settings.
    pub dlq: crate::share::dlq::DlqConfig,
}

impl Default for ShareLeaderConfig {
    fn default() -> Self {
        ShareLeaderConfig {
            lock_duration_ms: 30_000,
            delivery_count_limit: 5,
            max_record_locks: 2_000,
            max_sessions: 2_000,
            dlq: Default::default(),
        }
    }
}

/// A group's settings as the leader applies them.
#[derive(Debug, Clone)]
struct GroupSettings {
    partition: PartitionConfig,
    read_committed: bool,
    reset_earliest: bool,
}

/// What the share-partition leaders did, for `/metrics`.
#[derive(Debug, Clone, Default)]
pub struct ShareStats {
    /// Records acknowledged, by acknowledgement type (Kafka's lower-case names).
    pub acknowledgements: Vec<(&'static str, u64)>,
    /// Records acquired (each delivery counts).
    pub acquired: u64,
    /// Share-partition states read from share coordinators.
    pub loads: u64,
    /// Share-partitions held now.
    pub partitions: usize,
    /// Share sessions open now.
    pub sessions: usize,
    /// Records written to dead-letter queues.
    pub dlq_records: u64,
    /// Produce requests sent to dead-letter queues.
    pub dlq_produces: u64,
    /// Of those, the ones that failed.
    pub dlq_failed_produces: u64,
}

/// The acknowledgement types as `/metrics` labels them, in wire id order.
const ACK_LABELS: [&str; 5] = ["gap", "accept", "release", "reject", "renew"];

/// The counters behind [`ShareStats`].
#[derive(Debug, Default)]
struct Counters {
    acknowledgements: [std::sync::atomic::AtomicU64; 5],
    acquired: std::sync::atomic::AtomicU64,
    loads: std::sync::atomic::AtomicU64,
}

/// One loaded share-partition.
struct Held {
    sp: SharePartition,
    leader_epoch: i32,
    read_committed: bool,
    tickets: HashMap<Ticket, oneshot::Sender<bool>>,
    partition: Arc<crate::replica::partition::Partition>,
}

/// A share-partition's slot (None until loaded, and again once dropped).
type Slot = Arc<tokio::sync::Mutex<Option<Held>>>;

/// This broker's share-partitions and share sessions.
pub struct ShareFetcher {
    node_id: i32,
    config: ShareLeaderConfig,
    replicas: Arc<ReplicaManager>,
    persister: Arc<Persister>,
    view: watch::Receiver<View>,
    sessions: Mutex<ShareSessionCache>,
    slots: Mutex<HashMap<SharePartitionKey, Slot>>,
    /// Woken when a lock deadline may have come earlier.
    deadlines: Notify,
    counters: Counters,
    dlq: crate::share::dlq::DeadLetters,
    /// Where locks and delayed share fetches read time and sleep.
    clock: fjord_util::Clock,
}

impl std::fmt::Debug for ShareFetcher {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ShareFetcher")
            .field("node_id", &self.node_id)
            .finish_non_exhaustive()
    }
}

/// What one partition's acknowledgement came to: its code and message.
type AckOutcome = (ErrorCode, Option<String>);

fn ack_batches(
    batches: &[AcknowledgementBatch],
    renew_allowed: bool,
) -> Result<Vec<AckBatch>, String> {
    batches
        .iter()
        .map(|b| {
            let types = b
                .acknowledge_types
                .iter()
                .map(|t| {
                    AckType::from_id(*t)
                        .filter(|t| renew_allowed || *t != AckType::Renew)
                        .ok_or_else(|| format!("Invalid acknowledge type: {t}"))
                })
                .collect::<Result<Vec<_>, _>>()?;
            if types.is_empty() {
                return Err("Acknowledge types must not be empty.".into());
            }
            Ok(AckBatch {
                first: b.first_offset,
                last: b.last_offset,
                types,
            })
        })
        .collect()
}

/// A ShareFetch answer's partition with `code` and no records, its leader unknown (-1).
fn fetch_partition(index: i32, code: ErrorCode) -> PartitionData {
    PartitionData {
        partition_index: index,
        error_code: code.code(),
        records: Some(Records::default()),
        current_leader: LeaderIdAndEpoch {
            leader_id: -1,
            leader_epoch: -1,
            ..Default::default()
        },
        ..Default::default()
    }
}

/// A refused share request's top-level code and message.
type Refusal = (ErrorCode, Option<String>);

/// Whether a ShareFetch or ShareAcknowledge may be served: `share.version` on, and a group and
/// member named (as Kafka 4.4 answers: UNSUPPORTED_VERSION, or INVALID_REQUEST without a
/// message). The group and member ids.
fn admit(
    image: &MetadataImage,
    group: &Option<String>,
    member: &Option<String>,
) -> Result<(String, String), Refusal> {
    if !crate::api::groups::share_enabled(image) {
        return Err((
            ErrorCode::UnsupportedVersion,
            Some("The version of API is not supported.".into()),
        ));
    }
    let group = group.clone().unwrap_or_default();
    let member = member.clone().unwrap_or_default();
    if group.is_empty() || member.is_empty() {
        return Err((ErrorCode::InvalidRequest, None));
    }
    Ok((group, member))
}

/// A share session's refusal as Kafka answers it: the code alone.
fn session_refusal(e: &fjord_share::session::SessionError) -> Refusal {
    (
        ErrorCode::from_code(e.code()).unwrap_or(ErrorCode::InvalidRequest),
        None,
    )
}

/// The batches of `bytes` as the state machine sees them: control batches, and under
/// read_committed the batches of aborted transactions, skipped.
fn log_batches(bytes: &Bytes, aborted: &[fjord_log::txn_index::AbortedTxn]) -> Vec<LogBatch> {
    RecordBatches::new(bytes.clone())
        .map_while(Result::ok)
        .map(|b| {
            let first = b.base_offset();
            let in_aborted = b.is_transactional()
                && aborted.iter().any(|a| {
                    a.producer_id == b.producer_id()
                        && a.first_offset <= first
                        && first <= a.last_offset
                });
            LogBatch {
                first,
                last: b.last_offset(),
                skip: b.is_control() || in_aborted,
            }
        })
        .collect()
}

impl ShareFetcher {
    /// The fetcher of broker `node_id`.
    pub fn new(
        node_id: i32,
        config: ShareLeaderConfig,
        replicas: Arc<ReplicaManager>,
        persister: Arc<Persister>,
        view: watch::Receiver<View>,
        controller: Option<Arc<crate::cluster::controller_client::ControllerClient>>,
        clock: fjord_util::Clock,
    ) -> Arc<ShareFetcher> {
        let dlq = crate::share::dlq::DeadLetters::new(config.dlq.clone(), controller, view.clone());
        Arc::new(ShareFetcher {
            dlq,
            node_id,
            sessions: Mutex::new(ShareSessionCache::new(config.max_sessions)),
            config,
            replicas,
            persister,
            view,
            slots: Mutex::new(HashMap::new()),
            deadlines: Notify::new(),
            counters: Counters::default(),
            clock,
        })
    }

    /// What the leaders did so far, and hold now.
    pub fn stats(&self) -> ShareStats {
        use std::sync::atomic::Ordering::Relaxed;
        let c = &self.counters;
        let partitions = self
            .slots
            .lock()
            .expect("share slots")
            .values()
            .filter(|s| s.try_lock().map_or(true, |h| h.is_some()))
            .count();
        ShareStats {
            acknowledgements: ACK_LABELS
                .iter()
                .zip(&c.acknowledgements)
                .map(|(l, n)| (*l, n.load(Relaxed)))
                .collect(),
            acquired: c.acquired.load(Relaxed),
            loads: c.loads.load(Relaxed),
            partitions,
            sessions: self.sessions.lock().expect("share sessions").len(),
            dlq_records: self.dlq.counters.records.load(Relaxed),
            dlq_produces: self.dlq.counters.produces.load(Relaxed),
            dlq_failed_produces: self.dlq.counters.failed_produces.load(Relaxed),
        }
    }

    /// The way to the share coordinators.
    pub fn persister(&self) -> &Arc<Persister> {
        &self.persister
    }

    fn image(&self) -> Arc<MetadataImage> {
        self.view.borrow().image.clone()
    }

    /// A group's settings: its own group configs, else this broker's.
    fn settings(&self, image: &MetadataImage, group: &str) -> GroupSettings {
        let own = |key: &str| {
            image
                .configs
                .get(fjord_metadata::group_configs::GROUP, group, key)
                .map(str::to_string)
        };
        let int = |key: &str, default: i32| {
            fjord_metadata::group_configs::own_int(own(key).as_deref()).unwrap_or(default)
        };
        GroupSettings {
            partition: PartitionConfig {
                max_delivery_count: int(DELIVERY_LIMIT_KEY, self.config.delivery_count_limit)
                    .clamp(1, i16::MAX as i32) as u16,
                lock_duration_ms: int(LOCK_DURATION_KEY, self.config.lock_duration_ms).max(1)
                    as u64,
                max_in_flight: int(RECORD_LOCKS_KEY, self.config.max_record_locks).max(1) as usize,
                dead_letter: crate::share::dlq::group_dlq(image, group).is_some(),
            },
            read_committed: own(ISOLATION_KEY)
                .is_some_and(|v| v.eq_ignore_ascii_case("read_committed")),
            reset_earliest: own(AUTO_RESET_KEY).is_some_and(|v| v.eq_ignore_ascii_case("earliest")),
        }
    }

    fn slot(&self, key: &SharePartitionKey) -> Option<Slot> {
        let mut slots = self.slots.lock().expect("share slots");
        if let Some(s) = slots.get(key) {
            return Some(s.clone());
        }
        if slots.len() >= MAX_SHARE_PARTITIONS_PER_BROKER {
            slots
                .retain(|_, s| Arc::strong_count(s) > 1 || s.try_lock().is_ok_and(|h| h.is_some()));
            if slots.len() >= MAX_SHARE_PARTITIONS_PER_BROKER {
                return None;
            }
        }
        Some(slots.entry(key.clone()).or_default().clone())
    }

    /// The share-partition of `key`, loaded: this broker must lead the partition; a
    /// share-partition loaded under an older leader epoch is read again.
    async fn loaded<'a>(
        &self,
        image: &MetadataImage,
        key: &SharePartitionKey,
        guard: &'a mut tokio::sync::MutexGuard<'_, Option<Held>>,
    ) -> Result<&'a mut Held, (ErrorCode, Option<String>)> {
        let partition = self
            .replicas
            .get(key.topic_id, key.partition)
            .filter(|p| p.led_by(self.node_id));
        let Some(partition) = partition else {
            **guard = None;
            let code = if image.topics.by_id.contains_key(&key.topic_id) {
                self.replicas.not_served(key.topic_id, key.partition)
            } else {
                ErrorCode::UnknownTopicId
            };
            return Err((code, None));
        };
        let epoch = partition.leader_epoch();
        if guard.as_ref().is_some_and(|h| h.leader_epoch != epoch) {
            self.fail_tickets(guard.take());
        }
        if guard.is_none() {
            let settings = self.settings(image, &key.group);
            let mut state = self
                .persister
                .read(key, epoch)
                .await
                .map_err(|e| (e.code, Some(e.message)))?;
            if state.start_offset < 0 {
                let log = &partition.log;
                state.start_offset = if settings.reset_earliest {
                    log.log_start_offset()
                } else {
                    log.high_watermark()
                };
                let first = Write {
                    id: 0,
                    state_epoch: state.state_epoch,
                    leader_epoch: epoch,
                    start_offset: state.start_offset,
                    batches: Vec::new(),
                };
                self.persister
                    .write(key, &first)
                    .await
                    .map_err(|e| (e.code, Some(e.message)))?;
            }
            self.counters
                .loads
                .fetch_add(1, std::sync::atomic::Ordering::Relaxed);
            **guard = Some(Held {
                sp: SharePartition::load(settings.partition, epoch, &state),
                leader_epoch: epoch,
                read_committed: settings.read_committed,
                tickets: HashMap::new(),
                partition,
            });
        }
        Ok(guard.as_mut().expect("loaded above"))
    }

    /// Fails every waiting acknowledgement of a dropped share-partition.
    fn fail_tickets(&self, held: Option<Held>) {
        if let Some(h) = held {
            for (_, tx) in h.tickets {
                let _ = tx.send(false);
            }
        }
    }

    /// Carries out what a change produced: writes go to the share coordinator (each
    /// reported back when it lands or is refused), completed acknowledgements are answered.
    fn settle(
        self: &Arc<Self>,
        key: &SharePartitionKey,
        slot: &Slot,
        held: &mut Held,
        effects: Effects,
    ) {
        for (ticket, ok) in effects.completed {
            if let Some(tx) = held.tickets.remove(&ticket) {
                let _ = tx.send(ok);
            }
        }
        for letter in effects.dead_letters {
            let (me, key, slot, epoch) =
                (self.clone(), key.clone(), slot.clone(), held.leader_epoch);
            let partition = held.partition.clone();
            tokio::spawn(async move {
                me.dlq
                    .write(me.persister.peers(), &key, &partition, &letter)
                    .await;
                let mut guard = slot.lock().await;
                let Some(h) = guard.as_mut().filter(|h| h.leader_epoch == epoch) else {
                    return;
                };
                // Written, or the queue proved unusable (logged): the records are archived.
                let more = h.sp.dead_lettered(letter.id, true);
                me.settle(&key, &slot, h, more);
            });
        }
        for w in effects.writes {
            let (me, key, slot, epoch) =
                (self.clone(), key.clone(), slot.clone(), held.leader_epoch);
            tokio::spawn(async move {
                let result = me.persister.write(&key, &w).await;
                let mut guard = slot.lock().await;
                let Some(h) = guard.as_mut().filter(|h| h.leader_epoch == epoch) else {
                    return;
                };
                match result {
                    Ok(()) => {
                        let more = h.sp.write_done(w.id, true);
                        me.settle(&key, &slot, h, more);
                    }
                    Err(StateError { code, message }) => {
                        tracing::warn!(
                            group = key.group,
                            topic_id = %key.topic_id,
                            partition = key.partition,
                            "writing share-partition state: {code:?}: {message}"
                        );
                        if matches!(
                            code,
                            ErrorCode::FencedLeaderEpoch | ErrorCode::FencedStateEpoch
                        ) {
                            // Another leader, or a reset, owns the state now: read it again.
                            me.fail_tickets(guard.take());
                        } else {
                            let more = h.sp.write_done(w.id, false);
                            me.settle(&key, &slot, h, more);
                        }
                    }
                }
                if let Some(h) = guard.as_ref() {
                    h.partition.watchers.wake();
                }
            });
        }
    }

    /// Applies one partition's acknowledgements and waits until they are durable.
    async fn acknowledge(
        self: &Arc<Self>,
        image: &MetadataImage,
        key: &SharePartitionKey,
        member: &str,
        batches: &[AcknowledgementBatch],
        renew_allowed: bool,
    ) -> AckOutcome {
        let acks = match ack_batches(batches, renew_allowed) {
            Ok(a) => a,
            Err(m) => return (ErrorCode::InvalidRequest, Some(m)),
        };
        let Some(slot) = self.slot(key) else {
            return (ErrorCode::CoordinatorNotAvailable, None);
        };
        let rx = {
            let mut guard = slot.lock().await;
            let held = match self.loaded(image, key, &mut guard).await {
                Ok(h) => h,
                Err((code, message)) => return (code, message),
            };
            let now = self.clock.monotonic_ms() as u64;
            match held.sp.acknowledge(member, now, &acks) {
                Err(e) => {
                    let code =
                        ErrorCode::from_code(e.code()).unwrap_or(ErrorCode::InvalidRecordState);
                    return (code, Some(e.to_string()));
                }
                Ok((ticket, effects)) => {
                    for a in &acks {
                        let n = (a.last - a.first + 1).max(0) as u64;
                        for (i, t) in a.types.iter().enumerate() {
                            // One type for the batch counts every offset; else one each.
                            let k = if a.types.len() == 1 {
                                n
                            } else {
                                u64::from(i < n as usize)
                            };
                            self.counters.acknowledgements[*t as usize]
                                .fetch_add(k, std::sync::atomic::Ordering::Relaxed);
                        }
                    }
                    let (tx, rx) = oneshot::channel();
                    held.tickets.insert(ticket, tx);
                    self.settle(key, &slot, held, effects);
                    held.partition.watchers.wake();
                    rx
                }
            }
        };
        match rx.await {
            Ok(true) => (ErrorCode::None, None),
            _ => (
                ErrorCode::CoordinatorNotAvailable,
                Some("The share-partition state could not be written.".into()),
            ),
        }
    }

    /// Releases every record `member` holds in `partitions` (its session ended).
    async fn release(self: &Arc<Self>, group: &str, member: &str, partitions: &[TopicIdPartition]) {
        for (topic_id, partition) in partitions {
            let key = SharePartitionKey {
                group: group.into(),
                topic_id: *topic_id,
                partition: *partition,
            };
            let Some(slot) = self.slots.lock().expect("share slots").get(&key).cloned() else {
                continue;
            };
            let mut guard = slot.lock().await;
            if let Some(h) = guard.as_mut() {
                let effects = h.sp.release_member(member);
                self.settle(&key, &slot, h, effects);
                h.partition.watchers.wake();
            }
        }
    }

    /// A connection closed: the share sessions on it end and their members' records are
    /// released.
    pub fn connection_closed(self: &Arc<Self>, connection: u64) {
        let ended = self
            .sessions
            .lock()
            .expect("share sessions")
            .connection_closed(connection);
        if ended.is_empty() {
            return;
        }
        let me = self.clone();
        tokio::spawn(async move {
            for (group, member) in ended {
                let partitions: Vec<TopicIdPartition> = me
                    .slots
                    .lock()
                    .expect("share slots")
                    .keys()
                    .filter(|k| k.group == group)
                    .map(|k| (k.topic_id, k.partition))
                    .collect();
                me.release(&group, &member, &partitions).await;
            }
        });
    }

    /// Acquires records of one share-partition for `member`: the answer's partition data
    /// (records, acquired ranges), and whether anything was acquired.
    async fn fetch_one(
        self: &Arc<Self>,
        image: &MetadataImage,
        key: &SharePartitionKey,
        member: &str,
        max_records: usize,
        strict: bool,
        max_bytes: usize,
    ) -> PartitionData {
        let mut data = fetch_partition(key.partition, ErrorCode::None);
        let Some(slot) = self.slot(key) else {
            data.error_code = ErrorCode::CoordinatorNotAvailable.code();
            return data;
        };
        let mut guard = slot.lock().await;
        let held = match self.loaded(image, key, &mut guard).await {
            Ok(h) => h,
            Err((code, message)) => {
                data.error_code = code.code();
                data.error_message = message;
                if let Some(p) = image
                    .topics
                    .by_id
                    .get(&key.topic_id)
                    .and_then(|t| t.partitions.get(&key.partition))
                {
                    data.current_leader.leader_id = p.leader;
                    data.current_leader.leader_epoch = p.leader_epoch;
                }
                return data;
            }
        };
        let log = held.partition.log.clone();
        let from = held.sp.next_fetch_offset().max(log.log_start_offset());
        let stop = if held.read_committed {
            log.last_stable_offset()
        } else {
            log.high_watermark()
        };
        if from >= stop {
            return data;
        }
        let read = {
            let log = log.clone();
            let bytes = max_bytes.min(MAX_PARTITION_READ_BYTES);
            tokio::task::spawn_blocking(move || log.read(from, bytes, Some(stop), true)).await
        };
        let bytes = match read {
            Ok(Ok(r)) => r.records,
            Ok(Err(e)) => {
                data.error_code = e.error_code().code();
                return data;
            }
            Err(_) => {
                data.error_code = ErrorCode::UnknownServerError.code();
                return data;
            }
        };
        let aborted = if held.read_committed {
            log.aborted_transactions(from, stop)
        } else {
            Vec::new()
        };
        let batches = log_batches(&bytes, &aborted);
        let now = self.clock.monotonic_ms() as u64;
        let (acquired, effects) = held.sp.acquire(member, now, &batches, max_records, strict);
        self.settle(key, &slot, held, effects);
        let count: i64 = acquired.iter().map(|a| a.last - a.first + 1).sum();
        self.counters
            .acquired
            .fetch_add(count.max(0) as u64, std::sync::atomic::Ordering::Relaxed);
        if !acquired.is_empty() {
            // New locks: the expiry task may have to wake earlier.
            self.deadlines.notify_one();
        }
        if let Some(last) = acquired.last().map(|a| a.last) {
            // The batches up to the one holding the last acquired offset.
            let mut end = 0usize;
            let mut rest = bytes.clone();
            while let Ok(Some(b)) = fjord_protocol::records::RecordBatch::split_first(&mut rest) {
                end += b.size();
                if b.last_offset() >= last {
                    break;
                }
            }
            data.records = Some(Records::Memory(bytes.slice(..end)));
            data.acquired_records = acquired
                .iter()
                .map(|a| AcquiredRecords {
                    first_offset: a.first,
                    last_offset: a.last,
                    delivery_count: a.delivery_count.min(i16::MAX as u16) as i16,
                    ..Default::default()
                })
                .collect();
        }
        data
    }

    /// ShareFetch's acquiring: reads its partitions for `member` of `group` into `out` until
    /// records were acquired, a partition failed, or `max_wait_ms` passed on the clock (woken
    /// by appends).
    async fn acquire(
        self: &Arc<Self>,
        image: &MetadataImage,
        r: &ShareFetchRequest,
        (group, member): (&String, &String),
        partitions: &[TopicIdPartition],
        out: &mut BTreeMap<TopicIdPartition, PartitionData>,
    ) {
        let blank = |partition: i32| fetch_partition(partition, ErrorCode::None);
        let max_records = if r.max_records > 0 {
            r.max_records as usize
        } else {
            DEFAULT_MAX_RECORDS
        };
        let strict = r.share_acquire_mode == 1;
        let wait = std::time::Duration::from_millis(r.max_wait_ms.clamp(0, MAX_WAIT_MS) as u64);
        let deadline = self.clock.monotonic_ms() + wait.as_millis() as i64;
        let waiter = Arc::new(Notify::new());
        loop {
            for (t, p) in partitions {
                if let Some(part) = self.replicas.get(*t, *p) {
                    part.watchers.watch(&waiter);
                }
            }
            let mut got = false;
            let mut room = r.max_bytes.max(1) as usize;
            let mut left = max_records;
            for (t, p) in partitions {
                if left == 0 || room == 0 {
                    break;
                }
                let key = SharePartitionKey {
                    group: group.clone(),
                    topic_id: *t,
                    partition: *p,
                };
                let d = self
                    .fetch_one(image, &key, member, left, strict, room)
                    .await;
                let n: i64 = d
                    .acquired_records
                    .iter()
                    .map(|a| a.last_offset - a.first_offset + 1)
                    .sum();
                left = left.saturating_sub(n as usize);
                room = room.saturating_sub(d.records.as_ref().map_or(0, |r| r.len()));
                got |= n > 0;
                let e = out.entry((*t, *p)).or_insert_with(|| blank(*p));
                e.error_code = d.error_code;
                e.error_message = d.error_message;
                e.current_leader = d.current_leader;
                e.records = d.records;
                e.acquired_records = d.acquired_records;
            }
            let errors = out.values().any(|d| d.error_code != 0);
            if got || errors || self.clock.monotonic_ms() >= deadline {
                break;
            }
            // Woken by an append, or one last pass at the deadline.
            tokio::select! {
                _ = waiter.notified() => {}
                _ = self.clock.sleep_until(deadline) => {}
            }
        }
    }

    /// ShareFetch: the session, then the acknowledgements it carries, then the fetch.
    pub async fn share_fetch(
        self: &Arc<Self>,
        r: &ShareFetchRequest,
        version: i16,
        connection: u64,
        listener: &str,
        denied: &std::collections::BTreeSet<fjord_protocol::Uuid>,
    ) -> ShareFetchResponse {
        let image = self.image();
        let refuse = |(code, message): Refusal| ShareFetchResponse {
            error_code: code.code(),
            error_message: message,
            ..Default::default()
        };
        let (group, member) = match admit(&image, &r.group_id, &r.member_id) {
            Ok(ids) => ids,
            Err(e) => return refuse(e),
        };
        let add: Vec<TopicIdPartition> = r
            .topics
            .iter()
            .filter(|t| !denied.contains(&t.topic_id))
            .flat_map(|t| {
                t.partitions
                    .iter()
                    .map(move |p| (t.topic_id, p.partition_index))
            })
            .collect();
        let forget: Vec<TopicIdPartition> = r
            .forgotten_topics_data
            .iter()
            .flat_map(|t| t.partitions.iter().map(move |p| (t.topic_id, *p)))
            .collect();
        let has_acks = r.topics.iter().any(|t| {
            t.partitions
                .iter()
                .any(|p| !p.acknowledgement_batches.is_empty())
        });
        let context = self.sessions.lock().expect("share sessions").fetch(
            &group,
            &member,
            r.share_session_epoch,
            &add,
            &forget,
            has_acks,
            connection,
        );
        let context: FetchContext = match context {
            Ok(c) => c,
            // Kafka answers session errors with their code alone.
            Err(e) => return refuse(session_refusal(&e)),
        };
        let mut out: BTreeMap<TopicIdPartition, PartitionData> = BTreeMap::new();
        for t in r.topics.iter().filter(|t| denied.contains(&t.topic_id)) {
            for p in &t.partitions {
                out.insert(
                    (t.topic_id, p.partition_index),
                    fetch_partition(p.partition_index, ErrorCode::TopicAuthorizationFailed),
                );
            }
        }
        let blank = |partition: i32| fetch_partition(partition, ErrorCode::None);
        for t in &r.topics {
            if denied.contains(&t.topic_id) {
                continue;
            }
            for p in t
                .partitions
                .iter()
                .filter(|p| !p.acknowledgement_batches.is_empty())
            {
                let key = SharePartitionKey {
                    group: group.clone(),
                    topic_id: t.topic_id,
                    partition: p.partition_index,
                };
                let (code, message) = self
                    .acknowledge(
                        &image,
                        &key,
                        &member,
                        &p.acknowledgement_batches,
                        version >= 2,
                    )
                    .await;
                let d = out
                    .entry((t.topic_id, p.partition_index))
                    .or_insert_with(|| blank(p.partition_index));
                d.acknowledge_error_code = code.code();
                d.acknowledge_error_message = message;
            }
        }
        let lock_ms = self.settings(&image, &group).partition.lock_duration_ms as i32;
        if context.closed {
            self.release(&group, &member, &context.partitions).await;
        } else if !r.is_renew_ack {
            self.acquire(&image, r, (&group, &member), &context.partitions, &mut out)
                .await;
        }
        // A new session hears of every partition; later fetches of what has news.
        if r.share_session_epoch == 0 {
            for (t, p) in &context.partitions {
                out.entry((*t, *p)).or_insert_with(|| blank(*p));
            }
        }
        respond(&image, listener, out, lock_ms)
    }

    /// ShareAcknowledge: the session's epoch, then each partition's acknowledgements.
    pub async fn share_acknowledge(
        self: &Arc<Self>,
        r: &ShareAcknowledgeRequest,
        version: i16,
        denied: &std::collections::BTreeSet<fjord_protocol::Uuid>,
    ) -> ShareAcknowledgeResponse {
        let image = self.image();
        let refuse = |(code, message): Refusal| ShareAcknowledgeResponse {
            error_code: code.code(),
            error_message: message,
            ..Default::default()
        };
        let (group, member) = match admit(&image, &r.group_id, &r.member_id) {
            Ok(ids) => ids,
            Err(e) => return refuse(e),
        };
        let closed = match self.sessions.lock().expect("share sessions").acknowledge(
            &group,
            &member,
            r.share_session_epoch,
        ) {
            Ok(closed) => closed,
            // Kafka answers session errors with their code alone.
            Err(e) => return refuse(session_refusal(&e)),
        };
        let mut responses = Vec::new();
        for t in &r.topics {
            let mut partitions = Vec::new();
            for p in &t.partitions {
                let key = SharePartitionKey {
                    group: group.clone(),
                    topic_id: t.topic_id,
                    partition: p.partition_index,
                };
                let batches: Vec<AcknowledgementBatch> = p
                    .acknowledgement_batches
                    .iter()
                    .map(|b| AcknowledgementBatch {
                        first_offset: b.first_offset,
                        last_offset: b.last_offset,
                        acknowledge_types: b.acknowledge_types.clone(),
                        ..Default::default()
                    })
                    .collect();
                let (code, message) = if denied.contains(&t.topic_id) {
                    (ErrorCode::TopicAuthorizationFailed, None)
                } else {
                    self.acknowledge(&image, &key, &member, &batches, version >= 2)
                        .await
                };
                partitions.push(ack_resp::PartitionData {
                    partition_index: p.partition_index,
                    error_code: code.code(),
                    error_message: message,
                    current_leader: ack_resp::LeaderIdAndEpoch {
                        leader_id: -1,
                        leader_epoch: -1,
                        ..Default::default()
                    },
                    ..Default::default()
                });
            }
            responses.push(ShareAcknowledgeTopicResponse {
                topic_id: t.topic_id,
                partitions,
                ..Default::default()
            });
        }
        if closed {
            let all: Vec<TopicIdPartition> = self
                .slots
                .lock()
                .expect("share slots")
                .keys()
                .filter(|k| k.group == group)
                .map(|k| (k.topic_id, k.partition))
                .collect();
            self.release(&group, &member, &all).await;
        }
        ShareAcknowledgeResponse {
            acquisition_lock_timeout_ms: self.settings(&image, &group).partition.lock_duration_ms
                as i32,
            responses,
            ..Default::default()
        }
    }

    /// Ends expired locks until the fetcher is dropped: sleeps until the earliest lock
    /// deadline of any share-partition (or until a new lock may come earlier).
    pub async fn run_expiry(self: Arc<Self>) -> String {
        loop {
            let slots: Vec<(SharePartitionKey, Slot)> = self
                .slots
                .lock()
                .expect("share slots")
                .iter()
                .map(|(k, s)| (k.clone(), s.clone()))
                .collect();
            let now = self.clock.monotonic_ms() as u64;
            let mut next: Option<u64> = None;
            for (key, slot) in slots {
                let mut guard = slot.lock().await;
                let Some(h) = guard.as_mut() else { continue };
                if h.sp.next_deadline().is_some_and(|d| d <= now) {
                    let effects = h.sp.expire(now);
                    self.settle(&key, &slot, h, effects);
                    h.partition.watchers.wake();
                }
                if let Some(d) = h.sp.next_deadline() {
                    next = Some(next.map_or(d, |n: u64| n.min(d)));
                }
            }
            // Until the deadline read above (a second reading of the clock would push it out
            // by whatever passed meanwhile).
            let until = next.map_or(now + 60_000, |d| d.max(now + 1));
            tokio::select! {
                _ = self.clock.sleep_until(until as i64) => {}
                _ = self.deadlines.notified() => {}
            }
        }
    }
}

/// ShareFetch's answer: the partitions of `out` by topic, with the endpoints of the leaders
/// they name on `listener`.
fn respond(
    image: &MetadataImage,
    listener: &str,
    out: BTreeMap<TopicIdPartition, PartitionData>,
    lock_ms: i32,
) -> ShareFetchResponse {
    let mut endpoints = BTreeMap::new();
    let mut responses: Vec<ShareFetchableTopicResponse> = Vec::new();
    for ((t, _), d) in out {
        if d.current_leader.leader_id >= 0 {
            if let Some(b) = image.cluster.brokers.get(&d.current_leader.leader_id) {
                if let Some(l) = crate::api::metadata::endpoint_on(b, listener) {
                    endpoints.insert(
                        b.id,
                        NodeEndpoint {
                            node_id: b.id,
                            host: l.host.clone(),
                            port: l.port as i32,
                            rack: b.rack.clone(),
                            ..Default::default()
                        },
                    );
                }
            }
        }
        match responses.last_mut() {
            Some(last) if last.topic_id == t => last.partitions.push(d),
            _ => responses.push(ShareFetchableTopicResponse {
                topic_id: t,
                partitions: vec![d],
                ..Default::default()
            }),
        }
    }
    ShareFetchResponse {
        acquisition_lock_timeout_ms: lock_ms,
        responses,
        node_endpoints: endpoints.into_values().collect(),
        ..Default::default()
    }
}
