//! The coordinator runtime (Kafka 4's `CoordinatorRuntime`), shared by the group and the
//! transaction coordinators: one sans-IO shard per partition of the coordinator's topic this
//! broker leads, loaded from the partition's log when it becomes the leader
//! (COORDINATOR_LOAD_IN_PROGRESS meanwhile) and dropped when it stops being the leader
//! (waiting requests then get NOT_COORDINATOR). A request locks its shard, runs the state
//! machine, appends the records it emitted and only then answers and starts the effects that
//! came with them. Each shard has a timer task that sleeps until its next deadline. The topic
//! is created, as Kafka does, the first time a client looks for a coordinator.
//!
//! What a shard type supplies is [`CoordinatorShard`]: how to fold a record or a transaction
//! marker read from the log, its deadlines, and how its output splits into log entries,
//! replies and effects.

use crate::cluster::controller_client::ControllerClient;
use crate::replica::replica_manager::{Partition, ReplicaManager};
use bytes::Bytes;
use fjord_metadata::MetadataImage;
use fjord_protocol::generated::create_topics_request::{
    CreatableTopic, CreatableTopicConfig, CreateTopicsRequest,
};
use fjord_protocol::records::{Compression, EndTxnMarker, RecordBatchBuilder, RecordBatches};
use fjord_protocol::{ErrorCode, RequestBody, ResponseBody};
use fjord_util::Clock;
use std::collections::{BTreeSet, HashMap};
use std::sync::atomic::{AtomicBool, AtomicI64, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use tokio::sync::{mpsc, oneshot, watch, Notify};

/// Identifies a request whose reply may come later.
pub type Token = u64;
/// The most records one append carries (a bigger output is split).
const MAX_RECORDS_PER_BATCH: usize = 1000;
/// How much of the log one read while loading a shard returns.
const LOAD_READ_BYTES: usize = 4 << 20;
/// The most requests waiting for a delayed answer (JoinGroup, SyncGroup) in one shard.
const MAX_WAITERS_PER_SHARD: usize = 100_000;
/// How long a shard waits for its records to be committed before it gives up on them
/// (Kafka's `offsets.commit.timeout.ms` default).
const COMMIT_TIMEOUT: std::time::Duration = std::time::Duration::from_secs(5);
/// How long a shard dropped after a failed write waits before it is loaded again from the
/// log, so that its deadlines run again (a timed-out transaction is aborted once its
/// partition takes writes) and listings stop answering COORDINATOR_LOAD_IN_PROGRESS.
const RELOAD_BACKOFF_MS: i64 = 1_000;

/// One entry a shard appends to its partition.
#[derive(Debug, Clone)]
pub enum Entry {
    /// A record, in a transaction of `producer` (id, epoch) when set.
    Record {
        /// The transactional producer whose batch holds it.
        producer: Option<(i64, i16)>,
        /// The key.
        key: Bytes,
        /// The value (None: a tombstone).
        value: Option<Bytes>,
    },
    /// A transaction marker for `producer_id` at `producer_epoch`.
    Marker {
        /// The producer.
        producer_id: i64,
        /// Its epoch.
        producer_epoch: i16,
        /// Commit or abort, and the transaction coordinator's epoch.
        marker: EndTxnMarker,
    },
}

/// What the log gives back to fold.
#[derive(Debug)]
pub enum Replayed<'a> {
    /// A record; `producer_id` is the transactional producer of its batch, or -1.
    Record {
        /// The record's offset in the partition.
        offset: i64,
        /// The transactional producer, or -1.
        producer_id: i64,
        /// The key.
        key: &'a Bytes,
        /// The value (None: a tombstone).
        value: Option<&'a Bytes>,
    },
    /// A transaction marker.
    Marker {
        /// The producer.
        producer_id: i64,
        /// Commit (true) or abort.
        commit: bool,
    },
}

/// A shard's output, split for the runtime.
#[derive(Debug)]
pub struct Split<E> {
    /// Entries to append.
    pub entries: Vec<Entry>,
    /// Replies to waiting requests, sent once the entries are committed.
    pub replies: Vec<(Token, ResponseBody)>,
    /// Effects to start once the entries are committed.
    pub effects: Vec<E>,
}

/// A coordinator's shard type.
pub trait CoordinatorShard: Send + 'static {
    /// Its settings.
    type Config: Clone + Send + Sync + std::fmt::Debug + 'static;
    /// What its calls return.
    type Output: Default + Send + 'static;
    /// What it asks the driver to do once committed (none for groups).
    type Effect: Send + 'static;
    /// The topic it lives in.
    const TOPIC: &'static str;
    /// A new, empty shard; `seed` for its randomness, `epoch` its partition's leader epoch.
    fn create(config: &Self::Config, seed: u64, epoch: i32) -> Self;
    /// Folds what the log holds; an unreadable record is an error (skipped with a warning).
    fn replay(&mut self, entry: Replayed<'_>, now: i64) -> Result<(), String>;
    /// Ends loading (timers start, unfinished work is resumed).
    fn loaded(&mut self, now: i64) -> Self::Output;
    /// The earliest deadline.
    fn next_deadline(&self) -> Option<i64>;
    /// Runs the deadlines due at `now`.
    fn tick(&mut self, now: i64) -> Self::Output;
    /// Splits an output.
    fn split(out: Self::Output) -> Split<Self::Effect>;
    /// How many keys it holds (for the load log line).
    fn size(&self) -> usize;
    /// The entries of its last output are committed at offsets `first..first + count`, in
    /// order (each entry takes one offset).
    fn committed(&mut self, _first: i64, _count: usize) {}
    /// The offset below which its partition's records are no longer needed to rebuild it
    /// (the runtime deletes them), if it ever prunes.
    fn redundant_below(&self) -> Option<i64> {
        None
    }
    /// How often the runtime prunes a shard's partition (None: never).
    fn prune_interval_ms(_config: &Self::Config) -> Option<i64> {
        None
    }
}

/// The coordinator topic's settings.
#[derive(Debug, Clone)]
pub struct TopicSettings {
    /// The partition count (`offsets.topic.num.partitions`, `transaction.state.log.num.partitions`).
    pub partitions: i32,
    /// The replication factor.
    pub replication_factor: i16,
    /// Topic configs it is created with.
    pub configs: Vec<(String, String)>,
}

/// A shard and the requests waiting on it.
struct Loaded<S> {
    shard: S,
    waiters: HashMap<Token, oneshot::Sender<ResponseBody>>,
}

/// One led partition's coordinator.
struct Slot<S> {
    partition: Arc<Partition>,
    leader_epoch: i32,
    loaded: AtomicBool,
    closed: AtomicBool,
    state: tokio::sync::Mutex<Option<Loaded<S>>>,
    wake: Notify,
    /// When the partition was last pruned (ms).
    pruned_at: AtomicI64,
}

/// How a request reached its shard, or why it did not.
pub type Routed<T> = Result<T, ErrorCode>;

/// A coordinator over this broker's partitions of `S::TOPIC`.
pub struct Runtime<S: CoordinatorShard> {
    config: S::Config,
    topic: TopicSettings,
    replicas: Arc<ReplicaManager>,
    controller: Arc<ControllerClient>,
    slots: Mutex<HashMap<i32, Arc<Slot<S>>>>,
    /// Partitions whose shard was rebuilt or dropped after a failed write, each with until
    /// when (monotonic ms) their requests get COORDINATOR_NOT_AVAILABLE rather than a
    /// rebuild each (a client retrying against a partition below min ISR).
    cooling: Mutex<HashMap<i32, i64>>,
    next_token: AtomicU64,
    creating: Arc<AtomicBool>,
    /// Set by [`Runtime::shutdown`]: no shard is loaded again.
    stopped: AtomicBool,
    effects: mpsc::UnboundedSender<S::Effect>,
    loads: LoadTimes,
    /// Partitions looked at while following the applied images, ever.
    visited: AtomicU64,
    /// Where its shards read time and its timers sleep.
    clock: Clock,
}

/// How long shards took to load from their logs, since the process started (Kafka's
/// `partition-load-time-avg` and `-max`).
#[derive(Debug, Default)]
pub struct LoadTimes {
    count: AtomicU64,
    total_ms: AtomicU64,
    max_ms: AtomicU64,
}

impl LoadTimes {
    fn record(&self, ms: u64) {
        self.count.fetch_add(1, Ordering::Relaxed);
        self.total_ms.fetch_add(ms, Ordering::Relaxed);
        self.max_ms.fetch_max(ms, Ordering::Relaxed);
    }

    /// The average and the longest load, in milliseconds (0 before the first).
    pub fn avg_and_max_ms(&self) -> (u64, u64) {
        let count = self.count.load(Ordering::Relaxed);
        let total = self.total_ms.load(Ordering::Relaxed);
        (
            total.checked_div(count).unwrap_or(0),
            self.max_ms.load(Ordering::Relaxed),
        )
    }
}

impl<S: CoordinatorShard> std::fmt::Debug for Runtime<S> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Runtime")
            .field("topic", &S::TOPIC)
            .field("config", &self.config)
            .finish_non_exhaustive()
    }
}

/// A commit whose append failed (logged; the shard rebuilt or dropped): the code its
/// request is answered with.
struct Unloaded(ErrorCode);

impl<S: CoordinatorShard> Runtime<S> {
    /// A coordinator over this broker's partitions, and the effects its shards ask for.
    pub fn new(
        config: S::Config,
        topic: TopicSettings,
        replicas: Arc<ReplicaManager>,
        controller: Arc<ControllerClient>,
        clock: Clock,
    ) -> (Arc<Self>, mpsc::UnboundedReceiver<S::Effect>) {
        let (effects, rx) = mpsc::unbounded_channel();
        let runtime = Arc::new(Runtime {
            config,
            topic,
            replicas,
            controller,
            slots: Mutex::new(HashMap::new()),
            cooling: Mutex::new(HashMap::new()),
            next_token: AtomicU64::new(1),
            creating: Arc::new(AtomicBool::new(false)),
            stopped: AtomicBool::new(false),
            visited: AtomicU64::new(0),
            clock,
            effects,
            loads: LoadTimes::default(),
        });
        (runtime, rx)
    }

    /// How long its shards took to load.
    pub fn load_times(&self) -> &LoadTimes {
        &self.loads
    }

    /// The shard settings.
    pub fn config(&self) -> &S::Config {
        &self.config
    }

    /// Stops for a graceful shutdown: every shard is dropped, so waiting requests are
    /// answered with NOT_COORDINATOR at once and their clients look for the coordinator
    /// elsewhere; nothing is loaded again.
    pub async fn shutdown(&self) {
        self.stopped.store(true, Ordering::SeqCst);
        let slots: Vec<Arc<Slot<S>>> = self
            .slots
            .lock()
            .expect("slots")
            .drain()
            .map(|(_, s)| s)
            .collect();
        for s in slots {
            s.close();
            s.state.lock().await.take();
        }
    }

    /// The topic's partition count.
    pub fn num_partitions(&self) -> i32 {
        self.topic.partitions
    }

    /// The partition coordinating `key`.
    pub fn partition_for(&self, key: &str) -> i32 {
        fjord_protocol::coordinator::partition_for(key, self.topic.partitions)
    }

    /// Creates the topic through the controller (in the background, once at a time), as
    /// Kafka does when a coordinator is first looked for.
    pub fn create_topic(&self) {
        if self.creating.swap(true, Ordering::SeqCst) {
            return;
        }
        let t = &self.topic;
        let body = RequestBody::CreateTopics(CreateTopicsRequest {
            topics: vec![CreatableTopic {
                name: S::TOPIC.into(),
                num_partitions: t.partitions,
                replication_factor: t.replication_factor,
                configs: t
                    .configs
                    .iter()
                    .map(|(name, value)| CreatableTopicConfig {
                        name: name.clone(),
                        value: Some(value.clone()),
                        ..Default::default()
                    })
                    .collect(),
                ..Default::default()
            }],
            timeout_ms: 30_000,
            ..Default::default()
        });
        let controller = self.controller.clone();
        let creating = self.creating.clone();
        tokio::spawn(async move {
            match controller.call(body, 7).await {
                Ok(ResponseBody::CreateTopics(r)) => {
                    for t in r.topics {
                        if t.error_code != 0 && t.error_code != ErrorCode::TopicAlreadyExists.code()
                        {
                            tracing::warn!(
                                code = t.error_code,
                                message = ?t.error_message,
                                "creating {}", S::TOPIC
                            );
                        }
                    }
                }
                Ok(other) => tracing::warn!("creating {}: answered {other:?}", S::TOPIC),
                Err(e) => tracing::warn!("creating {}: {e}", S::TOPIC),
            }
            creating.store(false, Ordering::SeqCst);
        });
    }

    /// The slot of partition `index`: NOT_COORDINATOR unless this broker leads it,
    /// COORDINATOR_LOAD_IN_PROGRESS while its shard loads.
    fn slot_at(self: &Arc<Self>, image: &MetadataImage, index: i32) -> Routed<Arc<Slot<S>>> {
        if self.stopped.load(Ordering::SeqCst) {
            return Err(ErrorCode::NotCoordinator);
        }
        let topic = image
            .topics
            .get_by_name(S::TOPIC)
            .ok_or(ErrorCode::CoordinatorNotAvailable)?;
        let partition = self
            .replicas
            .get(topic.id, index)
            .filter(|p| p.led_by(self.replicas.node_id()))
            .ok_or(ErrorCode::NotCoordinator)?;
        let slot = self.ensure_loading(index, partition);
        if !slot.loaded.load(Ordering::SeqCst) {
            return Err(ErrorCode::CoordinatorLoadInProgress);
        }
        Ok(slot)
    }

    /// [`Runtime::slot_at`] for a request that may write: COORDINATOR_NOT_AVAILABLE while
    /// the partition cools down after a refused write (reads go on meanwhile).
    fn slot_for_write(self: &Arc<Self>, image: &MetadataImage, index: i32) -> Routed<Arc<Slot<S>>> {
        if self.cooling_down(index) {
            return Err(ErrorCode::CoordinatorNotAvailable);
        }
        self.slot_at(image, index)
    }

    /// The slot for `partition` at its current epoch, starting its load when new.
    fn ensure_loading(self: &Arc<Self>, index: i32, partition: Arc<Partition>) -> Arc<Slot<S>> {
        let epoch = partition.leader_epoch();
        let mut slots = self.slots.lock().expect("slots");
        if let Some(s) = slots.get(&index) {
            if s.leader_epoch == epoch && Arc::ptr_eq(&s.partition, &partition) {
                return s.clone();
            }
            s.close();
        }
        let slot = Arc::new(Slot {
            partition,
            leader_epoch: epoch,
            loaded: AtomicBool::new(false),
            closed: AtomicBool::new(false),
            state: tokio::sync::Mutex::new(None),
            wake: Notify::new(),
            pruned_at: AtomicI64::new(self.clock.wall_ms()),
        });
        slots.insert(index, slot.clone());
        let me = self.clone();
        let s = slot.clone();
        // A shard whose task dies is dropped (its requests get NOT_COORDINATOR and the next
        // one loads it again from the log), never left half alive.
        tokio::spawn(async move {
            let task = tokio::spawn({
                let (me, s) = (me.clone(), s.clone());
                async move { me.load_and_run(s).await }
            });
            if let Err(e) = task.await {
                tracing::error!(
                    partition = s.partition.index,
                    "the {} coordinator shard's task failed, dropping the shard: {e}",
                    S::TOPIC
                );
                me.unload(&s);
            }
        });
        slot
    }

    /// Loads a shard from its partition's log, then runs its deadlines until it is closed.
    async fn load_and_run(self: Arc<Self>, slot: Arc<Slot<S>>) {
        let mut guard = slot.state.lock().await;
        let started = std::time::Instant::now();
        let mut shard = match self.read_log(&slot).await {
            Ok(shard) => shard,
            Err(e) => {
                tracing::error!(
                    partition = slot.partition.index,
                    "loading {}: {e}",
                    S::TOPIC
                );
                drop(guard);
                self.unload(&slot);
                return;
            }
        };
        let ms = started.elapsed().as_millis() as u64;
        self.loads.record(ms);
        tracing::info!(
            partition = slot.partition.index,
            keys = shard.size(),
            ms,
            "loaded {} coordinator shard",
            S::TOPIC
        );
        let resumed = shard.loaded(self.clock.wall_ms());
        *guard = Some(Loaded {
            shard,
            waiters: HashMap::new(),
        });
        slot.loaded.store(true, Ordering::SeqCst);
        let _ = self.commit(&slot, &mut guard, resumed, None).await;
        drop(guard);
        // The shard's deadlines.
        loop {
            if slot.closed.load(Ordering::SeqCst) {
                return;
            }
            let next = {
                let guard = slot.state.lock().await;
                match guard.as_ref() {
                    Some(l) => l.shard.next_deadline(),
                    None => return,
                }
            };
            let wake = async {
                match next {
                    Some(at) => self.clock.sleep_until_wall(at).await,
                    None => self.clock.sleep_ms(60_000).await,
                }
            };
            tokio::select! {
                _ = wake => {}
                _ = slot.wake.notified() => continue,
            }
            let mut guard = slot.state.lock().await;
            let Some(l) = guard.as_mut() else { return };
            let out = l.shard.tick(self.clock.wall_ms());
            let _ = self.commit(&slot, &mut guard, out, None).await;
        }
    }

    /// Drops a slot: its waiting requests get NOT_COORDINATOR.
    fn unload(&self, slot: &Arc<Slot<S>>) {
        slot.close();
        let mut slots = self.slots.lock().expect("slots");
        if slots
            .get(&slot.partition.index)
            .is_some_and(|s| Arc::ptr_eq(s, slot))
        {
            slots.remove(&slot.partition.index);
        }
    }

    /// Drops a slot whose write failed (the shard may hold what the log does not, or the log
    /// what the shard never folded) and, after [`RELOAD_BACKOFF_MS`], loads the shard again
    /// from the log if this broker still leads the partition.
    fn drop_and_reload(self: &Arc<Self>, slot: &Arc<Slot<S>>) {
        self.unload(slot);
        let (topic_id, index) = (slot.partition.topic_id, slot.partition.index);
        let until = self.cool(index);
        let me = self.clone();
        tokio::spawn(async move {
            me.clock.sleep_until(until).await;
            {
                let mut cooling = me.cooling.lock().expect("cooling");
                if cooling.get(&index) == Some(&until) {
                    cooling.remove(&index);
                }
            }
            if me.stopped.load(Ordering::SeqCst) {
                return;
            }
            let node = me.replicas.node_id();
            if let Some(p) = me.replicas.get(topic_id, index).filter(|p| p.led_by(node)) {
                me.ensure_loading(index, p);
            }
        });
    }

    /// Refuses partition `index`'s requests with COORDINATOR_NOT_AVAILABLE for
    /// [`RELOAD_BACKOFF_MS`]; returns until when (monotonic ms).
    fn cool(&self, index: i32) -> i64 {
        let until = self.clock.monotonic_ms() + RELOAD_BACKOFF_MS;
        self.cooling.lock().expect("cooling").insert(index, until);
        until
    }

    /// Rebuilds the slot's shard from its partition's log in place, after a write that
    /// wrote nothing (the state machine had already taken it): waiting requests are answered
    /// NOT_COORDINATOR, the resumed work's effects go out. False (the caller drops the slot)
    /// when the log cannot be read or the resumed work would need a write.
    async fn rebuild(
        &self,
        slot: &Arc<Slot<S>>,
        guard: &mut tokio::sync::MutexGuard<'_, Option<Loaded<S>>>,
    ) -> bool {
        let Ok(mut shard) = self.read_log(slot).await else {
            return false;
        };
        let resumed = S::split(shard.loaded(self.clock.wall_ms()));
        if !resumed.entries.is_empty() {
            return false;
        }
        **guard = Some(Loaded {
            shard,
            waiters: HashMap::new(),
        });
        for e in resumed.effects {
            let _ = self.effects.send(e);
        }
        slot.wake.notify_one();
        true
    }

    /// A new shard folded from the slot's partition log (off the async workers).
    async fn read_log(&self, slot: &Arc<Slot<S>>) -> Result<S, String> {
        let log = slot.partition.log.clone();
        let config = self.config.clone();
        let (epoch, now) = (slot.leader_epoch, self.clock.wall_ms());
        tokio::task::spawn_blocking(move || load_shard::<S>(&log, &config, epoch, now))
            .await
            .map_err(|e| e.to_string())
            .and_then(|r| r)
    }

    /// Whether partition `index`'s requests are refused for now (its shard was rebuilt or
    /// dropped after a failed write).
    fn cooling_down(&self, index: i32) -> bool {
        let now = self.clock.monotonic_ms();
        let mut cooling = self.cooling.lock().expect("cooling");
        match cooling.get(&index) {
            Some(until) if *until > now => true,
            Some(_) => {
                cooling.remove(&index);
                false
            }
            None => false,
        }
    }

    /// Waits until every record in the slot's partition is committed, so that an answer
    /// rests only on committed records: a shard loaded again after a failed write holds what
    /// the log holds, including records that never reached the other in-sync replicas (as
    /// Kafka's runtime holds a read back until the writes before it are committed).
    /// COORDINATOR_NOT_AVAILABLE when they are not committed within [`COMMIT_TIMEOUT`].
    async fn settled(&self, slot: &Arc<Slot<S>>) -> Routed<()> {
        let end = slot.partition.log.log_end_offset();
        // The common case, every record committed, answers without a waiter.
        if slot
            .partition
            .ack_state(slot.leader_epoch, end)
            .is_some_and(|s| s != fjord_replication::leader::AckState::Waiting)
        {
            return Ok(());
        }
        let deadline = self.clock.monotonic_ms() + COMMIT_TIMEOUT.as_millis() as i64;
        match slot
            .partition
            .wait_committed(slot.leader_epoch, end, deadline, &self.clock)
            .await
        {
            // The high watermark passed the end; the ISR shrank since, which only matters
            // to the next write.
            Ok(()) | Err(ErrorCode::NotEnoughReplicasAfterAppend) => Ok(()),
            Err(code) => Err(not_committed(code)),
        }
    }

    /// Appends `out`'s entries, then delivers its replies and starts its effects; returns
    /// the reply to `mine` if it is among them. When the append fails it is logged and the
    /// shard, which holds state the log does not, is rebuilt from the log (nothing was
    /// written) or dropped and loaded again later (something may have been); every waiting
    /// request gets NOT_COORDINATOR.
    async fn commit(
        self: &Arc<Self>,
        slot: &Arc<Slot<S>>,
        guard: &mut tokio::sync::MutexGuard<'_, Option<Loaded<S>>>,
        out: S::Output,
        mine: Option<Token>,
    ) -> Result<Option<ResponseBody>, Unloaded> {
        let split = S::split(out);
        if !split.entries.is_empty() {
            let count = split.entries.len();
            match append_committed(slot, split.entries, &self.clock).await {
                Err(e) => {
                    tracing::warn!(
                        partition = slot.partition.index,
                        "committing a coordinator write to {}: {e}",
                        S::TOPIC
                    );
                    // Nothing was written: the shard is rebuilt from the log at once and
                    // stays loaded (listings and reads go on); below min ISR its requests are
                    // refused for a while rather than each rebuilding it again.
                    if let AppendFailure::Refused(code, _) = &e {
                        if self.rebuild(slot, guard).await {
                            if *code == ErrorCode::NotEnoughReplicas {
                                self.cool(slot.partition.index);
                            }
                            return Err(Unloaded(e.client_code()));
                        }
                    }
                    **guard = None;
                    self.drop_and_reload(slot);
                    return Err(Unloaded(e.client_code()));
                }
                Ok(end) => {
                    if let Some(l) = guard.as_mut() {
                        l.shard.committed(end - count as i64, count);
                        self.maybe_prune(slot, &l.shard);
                    }
                }
            }
        }
        let mut reply = None;
        if let Some(l) = guard.as_mut() {
            for (token, body) in split.replies {
                if Some(token) == mine {
                    reply = Some(body);
                } else if let Some(tx) = l.waiters.remove(&token) {
                    let _ = tx.send(body);
                }
            }
        }
        for e in split.effects {
            let _ = self.effects.send(e);
        }
        Ok(reply)
    }

    /// Deletes the records of `slot`'s partition below what `shard` still needs, at most once
    /// per the shard type's prune interval (in the background).
    fn maybe_prune(&self, slot: &Arc<Slot<S>>, shard: &S) {
        let Some(interval) = S::prune_interval_ms(&self.config) else {
            return;
        };
        let now = self.clock.wall_ms();
        let last = slot.pruned_at.load(Ordering::Relaxed);
        if now - last < interval {
            return;
        }
        slot.pruned_at.store(now, Ordering::Relaxed);
        let Some(below) = shard.redundant_below() else {
            return;
        };
        let log = slot.partition.log.clone();
        if below <= log.log_start_offset() {
            return;
        }
        let index = slot.partition.index;
        tokio::task::spawn_blocking(move || match log.delete_records(below) {
            Ok(start) => tracing::debug!("pruned {}-{index} below {start}", S::TOPIC),
            Err(e) => tracing::warn!("pruning {}-{index} below {below}: {e}", S::TOPIC),
        });
    }

    /// Runs one request against the shard of `key`: `run` calls the state machine with a
    /// fresh token; the answer comes once its records are written (or, for a request that
    /// must wait, when the shard replies to its token).
    pub async fn call(
        self: &Arc<Self>,
        image: &MetadataImage,
        key: &str,
        run: impl FnOnce(&mut S, Token, i64) -> S::Output,
    ) -> Routed<ResponseBody> {
        let slot = self.slot_for_write(image, self.partition_for(key))?;
        let token = self.next_token.fetch_add(1, Ordering::Relaxed);
        let waiting = {
            let mut guard = slot.state.lock().await;
            let Some(l) = guard.as_mut() else {
                return Err(ErrorCode::NotCoordinator);
            };
            // Checked before the state machine runs, so a refused request changes nothing.
            if l.waiters.len() >= MAX_WAITERS_PER_SHARD {
                return Err(ErrorCode::CoordinatorNotAvailable);
            }
            self.settled(&slot).await?;
            let Some(l) = guard.as_mut() else {
                return Err(ErrorCode::NotCoordinator);
            };
            let out = run(&mut l.shard, token, self.clock.wall_ms());
            let (tx, rx) = oneshot::channel();
            l.waiters.insert(token, tx);
            let reply = self.commit(&slot, &mut guard, out, Some(token)).await;
            slot.wake.notify_one();
            match reply {
                Err(Unloaded(code)) => return Err(code),
                Ok(Some(body)) => {
                    if let Some(l) = guard.as_mut() {
                        l.waiters.remove(&token);
                    }
                    return Ok(body);
                }
                Ok(None) => rx,
            }
        };
        waiting.await.map_err(|_| ErrorCode::NotCoordinator)
    }

    /// Runs one request whose answer `run` gives at once: the answer goes out once the
    /// records emitted with it are committed.
    pub async fn apply<R>(
        self: &Arc<Self>,
        image: &MetadataImage,
        key: &str,
        run: impl FnOnce(&mut S, i64) -> (S::Output, R),
    ) -> Routed<R> {
        let slot = self.slot_for_write(image, self.partition_for(key))?;
        let mut guard = slot.state.lock().await;
        if guard.is_none() {
            return Err(ErrorCode::NotCoordinator);
        }
        self.settled(&slot).await?;
        let Some(l) = guard.as_mut() else {
            return Err(ErrorCode::NotCoordinator);
        };
        let (out, answer) = run(&mut l.shard, self.clock.wall_ms());
        let committed = self.commit(&slot, &mut guard, out, None).await;
        slot.wake.notify_one();
        match committed {
            Ok(_) => Ok(answer),
            Err(Unloaded(code)) => Err(code),
        }
    }

    /// Reads the shard of `key`.
    pub async fn read<T>(
        self: &Arc<Self>,
        image: &MetadataImage,
        key: &str,
        read: impl FnOnce(&S) -> T,
    ) -> Routed<T> {
        self.read_shard(image, key, false, read).await
    }

    /// Reads the shard of `key` once every record of its partition is committed (for an
    /// answer that lets data in, such as whether a partition is in a transaction).
    pub async fn read_committed<T>(
        self: &Arc<Self>,
        image: &MetadataImage,
        key: &str,
        read: impl FnOnce(&S) -> T,
    ) -> Routed<T> {
        self.read_shard(image, key, true, read).await
    }

    /// Reads the shard of `key`, once its partition's records are committed if `settle`.
    async fn read_shard<T>(
        self: &Arc<Self>,
        image: &MetadataImage,
        key: &str,
        settle: bool,
        read: impl FnOnce(&S) -> T,
    ) -> Routed<T> {
        let slot = self.slot_at(image, self.partition_for(key))?;
        let guard = slot.state.lock().await;
        if settle && guard.is_some() {
            self.settled(&slot).await?;
        }
        let l = guard.as_ref().ok_or(ErrorCode::NotCoordinator)?;
        Ok(read(&l.shard))
    }

    /// Writes a transaction marker into partition `index` of the topic and folds it (the
    /// group coordinator's side of WriteTxnMarkers: offsets committed in the transaction
    /// become visible or are dropped).
    pub async fn write_marker(
        self: &Arc<Self>,
        image: &MetadataImage,
        index: i32,
        producer_id: i64,
        producer_epoch: i16,
        marker: EndTxnMarker,
    ) -> Routed<()> {
        let slot = self
            .slot_for_write(image, index)
            .map_err(|_| ErrorCode::NotLeaderOrFollower)?;
        let mut guard = slot.state.lock().await;
        if guard.is_none() {
            return Err(ErrorCode::NotLeaderOrFollower);
        }
        let entry = Entry::Marker {
            producer_id,
            producer_epoch,
            marker,
        };
        match append_committed(&slot, vec![entry], &self.clock).await {
            Ok(_) => {}
            // A marker of an epoch the producer has moved past (a stale job of a coordinator
            // that moved): refused as Kafka refuses it, so its sender drops it; the shard
            // stays (found by the fault tests: answered NOT_LEADER_OR_FOLLOWER, the marker was
            // retried every 100 ms for minutes, each refusal reloading the shard and
            // restarting every member's session).
            Err(AppendFailure::Refused(code, e)) => {
                tracing::debug!("a marker to {}-{index} refused: {e}", S::TOPIC);
                return Err(code);
            }
            Err(e) => {
                tracing::warn!("writing a marker to {}-{index}: {e}", S::TOPIC);
                *guard = None;
                self.drop_and_reload(&slot);
                return Err(ErrorCode::NotLeaderOrFollower);
            }
        }
        if let Some(l) = guard.as_mut() {
            let folded = l.shard.replay(
                Replayed::Marker {
                    producer_id,
                    commit: marker.commit,
                },
                self.clock.wall_ms(),
            );
            if let Err(e) = folded {
                tracing::warn!("folding a marker in {}-{index}: {e}", S::TOPIC);
            }
        }
        Ok(())
    }

    /// Every slot now.
    fn all_slots(&self) -> Vec<Arc<Slot<S>>> {
        self.slots
            .lock()
            .expect("slots")
            .values()
            .cloned()
            .collect()
    }

    /// Runs `f` on every loaded shard.
    pub async fn each_shard<T>(&self, mut f: impl FnMut(&S) -> T) -> Vec<T> {
        let mut out = Vec::new();
        for s in self.all_slots() {
            let guard = s.state.lock().await;
            if let Some(l) = guard.as_ref() {
                out.push(f(&l.shard));
            }
        }
        out
    }

    /// Runs `f` on every loaded shard and commits what it emits (a deleted topic's offsets).
    pub async fn each_shard_mut(self: &Arc<Self>, mut f: impl FnMut(&mut S) -> S::Output) {
        for s in self.all_slots() {
            let mut guard = s.state.lock().await;
            let Some(l) = guard.as_mut() else { continue };
            let out = f(&mut l.shard);
            let _ = self.commit(&s, &mut guard, out, None).await;
        }
    }

    /// True while some led partition's shard is still loading.
    pub fn loading(&self) -> bool {
        self.slots
            .lock()
            .expect("slots")
            .values()
            .any(|s| !s.loaded.load(Ordering::SeqCst))
    }

    /// True while a shard this broker leads in `image` is not loaded: loading, or not started
    /// yet because the replica manager has not applied the image that made this broker its
    /// leader. A listing answered then would leave that shard's state out, and a tool that
    /// finds no coordinator for a producer takes its transaction for a hanging one.
    pub fn loading_in(&self, image: &MetadataImage) -> bool {
        if self.loading() {
            return true;
        }
        let Some(topic) = image.topics.get_by_name(S::TOPIC) else {
            return false;
        };
        let me = self.replicas.node_id();
        let slots = self.slots.lock().expect("slots");
        topic.partitions.iter().any(|(index, p)| {
            p.leader == me
                && !slots
                    .get(index)
                    .is_some_and(|s| s.loaded.load(Ordering::SeqCst))
        })
    }

    /// Follows the images the replica manager has applied: loads the shards of partitions
    /// this broker comes to lead and drops those it no longer leads; `on_deleted` runs with
    /// the topics each image removed.
    pub async fn follow<F, Fut>(
        self: Arc<Self>,
        mut applied: watch::Receiver<Option<crate::replica::replica_manager::Applied>>,
        mut on_deleted: F,
    ) -> String
    where
        F: FnMut(BTreeSet<String>) -> Fut,
        Fut: std::future::Future<Output = ()>,
    {
        let mut cursor = fjord_metadata::delta::Cursor::new();
        // Every topic's name, as of the last image (to find deletions a full delta hides).
        let mut topics: Option<BTreeSet<String>> = None;
        loop {
            let next = applied
                .borrow_and_update()
                .as_ref()
                .map(|v| (v.image.clone(), v.delta(&mut cursor)));
            if let Some((image, delta)) = next {
                let gone = self.apply_delta(&image, &delta, &mut topics);
                if !gone.is_empty() {
                    on_deleted(gone).await;
                }
            }
            if applied.changed().await.is_err() {
                return "the replica manager stopped".into();
            }
        }
    }

    /// Loads and drops shards for what `delta` changed (only when it touches the
    /// coordinator's topic); returns the names of the topics it deleted.
    fn apply_delta(
        self: &Arc<Self>,
        image: &MetadataImage,
        delta: &fjord_metadata::MetadataDelta,
        topics: &mut Option<BTreeSet<String>>,
    ) -> BTreeSet<String> {
        if delta.full {
            self.apply_image(image);
            let now: BTreeSet<String> = image.topics.by_name.keys().cloned().collect();
            let gone = match topics {
                Some(before) => before.difference(&now).cloned().collect(),
                None => BTreeSet::new(),
            };
            *topics = Some(now);
            return gone;
        }
        let c = &delta.changes;
        let mine = image.topics.by_name.get(S::TOPIC).copied();
        let touched = c.deleted_topics.values().any(|n| n == S::TOPIC)
            || mine.is_some_and(|id| c.topics.contains(&id) || c.deleted_topics.contains_key(&id));
        if touched {
            self.apply_image(image);
        }
        let gone: BTreeSet<String> = c.deleted_topics.values().cloned().collect();
        if let Some(known) = topics {
            for name in &gone {
                known.remove(name);
            }
            known.extend(
                c.topics
                    .iter()
                    .filter_map(|id| image.topics.by_id.get(id).map(|t| t.name.clone())),
            );
        }
        gone
    }

    /// Where its shards read time and its timers sleep.
    pub fn clock(&self) -> &Clock {
        &self.clock
    }

    /// How many partitions following the applied images has looked at, ever.
    pub fn partitions_visited(&self) -> u64 {
        self.visited.load(Ordering::Relaxed)
    }

    fn apply_image(self: &Arc<Self>, image: &MetadataImage) {
        if self.stopped.load(Ordering::SeqCst) {
            return;
        }
        let me = self.replicas.node_id();
        let Some(topic) = image.topics.get_by_name(S::TOPIC) else {
            for s in self.slots.lock().expect("slots").drain().map(|(_, s)| s) {
                s.close();
            }
            return;
        };
        let stale: Vec<Arc<Slot<S>>> = self
            .slots
            .lock()
            .expect("slots")
            .values()
            .filter(|s| {
                let current = self.replicas.get(topic.id, s.partition.index);
                !current.is_some_and(|p| {
                    Arc::ptr_eq(&p, &s.partition)
                        && p.led_by(me)
                        && p.leader_epoch() == s.leader_epoch
                })
            })
            .cloned()
            .collect();
        for s in stale {
            self.unload(&s);
        }
        for index in topic.partitions.keys() {
            self.visited.fetch_add(1, Ordering::Relaxed);
            if let Some(p) = self.replicas.get(topic.id, *index).filter(|p| p.led_by(me)) {
                self.ensure_loading(*index, p);
            }
        }
    }
}

impl<S> Slot<S> {
    /// Marks it closed and wakes its timer task; dropping its state answers waiters.
    fn close(&self) {
        self.closed.store(true, Ordering::SeqCst);
        self.wake.notify_one();
        if let Ok(mut g) = self.state.try_lock() {
            *g = None;
        }
    }
}

/// Why a coordinator append failed.
#[derive(Debug, thiserror::Error)]
enum AppendFailure {
    /// The log refused the batch before writing anything (a marker of a fenced producer
    /// epoch): the log and the shard still agree.
    #[error("{1}")]
    Refused(ErrorCode, String),
    /// Anything else: the append or its commit failed, the log may hold what the shard does
    /// not. With the code the coordinator's clients get.
    #[error("{1}")]
    Failed(ErrorCode, String),
}

impl AppendFailure {
    /// What a coordinator's client is answered, as Kafka's coordinators turn a failed write:
    /// COORDINATOR_NOT_AVAILABLE for too few in-sync replicas or a write not committed in
    /// time (retried with the same coordinator), NOT_COORDINATOR when leadership moved.
    fn client_code(&self) -> ErrorCode {
        match self {
            AppendFailure::Refused(ErrorCode::NotEnoughReplicas, _) => {
                ErrorCode::CoordinatorNotAvailable
            }
            AppendFailure::Refused(code, _) | AppendFailure::Failed(code, _) => *code,
        }
    }
}

/// The code a coordinator's client gets when its records were not committed: `code` is the
/// wait's (REQUEST_TIMED_OUT, NOT_ENOUGH_REPLICAS_AFTER_APPEND, NOT_LEADER_OR_FOLLOWER).
fn not_committed(code: ErrorCode) -> ErrorCode {
    match code {
        ErrorCode::NotLeaderOrFollower => ErrorCode::NotCoordinator,
        _ => ErrorCode::CoordinatorNotAvailable,
    }
}

/// Appends `entries` to the slot's partition as its coordinator and waits until every
/// in-sync replica has them (timestamped `now`); returns the offset after them.
async fn append_committed<S>(
    slot: &Arc<Slot<S>>,
    entries: Vec<Entry>,
    clock: &Clock,
) -> Result<i64, AppendFailure> {
    let now = clock.wall_ms();
    let partition = slot.partition.clone();
    let epoch = slot.leader_epoch;
    // As an acks=all produce: nothing is written while the ISR is below min ISR (Kafka's
    // coordinators answer NOT_ENOUGH_REPLICAS as COORDINATOR_NOT_AVAILABLE). A record written
    // then would never be committed, yet the shard loaded again from the log would hold it.
    if let Err(short) = partition.check_acks_all() {
        return Err(AppendFailure::Refused(
            ErrorCode::NotEnoughReplicas,
            format!(
                "the ISR ({}) is below min.insync.replicas ({}); nothing written",
                short.isr, short.min_isr
            ),
        ));
    }
    let appended = tokio::task::spawn_blocking(move || {
        let mut end = -1;
        for (i, batch) in encode_batches(&entries, now)
            .map_err(|e| AppendFailure::Failed(ErrorCode::NotCoordinator, e))?
            .into_iter()
            .enumerate()
        {
            let info = partition
                .log
                .append_as_coordinator(batch, epoch, now)
                .map_err(|e| match e.error_code() {
                    // The first batch refused by the producer checks: nothing was written.
                    code @ (ErrorCode::InvalidProducerEpoch
                    | ErrorCode::TransactionCoordinatorFenced)
                        if i == 0 =>
                    {
                        AppendFailure::Refused(code, e.to_string())
                    }
                    _ => AppendFailure::Failed(ErrorCode::NotCoordinator, e.to_string()),
                })?;
            partition.after_append();
            end = info.last_offset + 1;
        }
        Ok::<i64, AppendFailure>(end)
    })
    .await
    .map_err(|e| AppendFailure::Failed(ErrorCode::NotCoordinator, e.to_string()))
    .and_then(|r| r)?;
    // The answer goes out once the records are committed (every in-sync replica has them),
    // as Kafka's coordinator runtime does.
    slot.partition
        .wait_committed(
            epoch,
            appended,
            clock.monotonic_ms() + COMMIT_TIMEOUT.as_millis() as i64,
            clock,
        )
        .await
        .map_err(|code| {
            AppendFailure::Failed(
                not_committed(code),
                format!("not committed: {}", code.message()),
            )
        })?;
    Ok(appended)
}

/// Reads a partition's whole log into a new shard. Blocking.
fn load_shard<S: CoordinatorShard>(
    log: &fjord_log::PartitionLog,
    config: &S::Config,
    epoch: i32,
    now: i64,
) -> Result<S, String> {
    let mut shard = S::create(config, random_seed(), epoch);
    let mut offset = log.log_start_offset();
    let end = log.log_end_offset();
    while offset < end {
        let read = log
            .read(offset, LOAD_READ_BYTES, Some(end), true)
            .map_err(|e| e.to_string())?;
        if read.records.is_empty() {
            break;
        }
        for batch in RecordBatches::new(read.records) {
            let batch = batch.map_err(|e| e.to_string())?;
            offset = batch.next_offset();
            if batch.is_control() {
                if let Ok(Some(m)) = EndTxnMarker::of(&batch) {
                    let replayed = Replayed::Marker {
                        producer_id: batch.producer_id(),
                        commit: m.commit,
                    };
                    if let Err(e) = shard.replay(replayed, now) {
                        tracing::warn!("skipping a marker in {}: {e}", S::TOPIC);
                    }
                }
                continue;
            }
            let producer_id = if batch.is_transactional() {
                batch.producer_id()
            } else {
                -1
            };
            let base = batch.base_offset();
            for record in batch.records().map_err(|e| e.to_string())? {
                let record = record.map_err(|e| e.to_string())?;
                let Some(key) = record.key.as_ref() else {
                    continue;
                };
                let replayed = Replayed::Record {
                    offset: base + i64::from(record.offset_delta),
                    producer_id,
                    key,
                    value: record.value.as_ref(),
                };
                if let Err(e) = shard.replay(replayed, now) {
                    tracing::warn!("skipping an unreadable {} record: {e}", S::TOPIC);
                }
            }
        }
    }
    Ok(shard)
}

/// The entries as batches: consecutive records of one producer (or of none) share a batch of
/// at most [`MAX_RECORDS_PER_BATCH`], uncompressed; each marker is a batch of its own.
fn encode_batches(entries: &[Entry], now: i64) -> Result<Vec<Bytes>, String> {
    let mut out = Vec::new();
    let mut current: Option<(Option<(i64, i16)>, RecordBatchBuilder)> = None;
    let flush = |c: &mut Option<(Option<(i64, i16)>, RecordBatchBuilder)>,
                 out: &mut Vec<Bytes>|
     -> Result<(), String> {
        if let Some((_, b)) = c.take() {
            out.push(b.build().map_err(|e| e.to_string())?);
        }
        Ok(())
    };
    for e in entries {
        match e {
            Entry::Record {
                producer,
                key,
                value,
            } => {
                let full = current.as_ref().is_some_and(|(p, b)| {
                    p != producer || b.len() as usize >= MAX_RECORDS_PER_BATCH
                });
                if full {
                    flush(&mut current, &mut out)?;
                }
                let (_, b) = current.get_or_insert_with(|| {
                    let b = RecordBatchBuilder::new(Compression::None);
                    let b = match producer {
                        Some((id, epoch)) => b.producer(*id, *epoch, -1).transactional(true),
                        None => b,
                    };
                    (*producer, b)
                });
                b.append(now, Some(key), value.as_deref(), &[]);
            }
            Entry::Marker {
                producer_id,
                producer_epoch,
                marker,
            } => {
                flush(&mut current, &mut out)?;
                out.push(
                    marker
                        .to_batch(*producer_id, *producer_epoch, now)
                        .map_err(|e| e.to_string())?,
                );
            }
        }
    }
    flush(&mut current, &mut out)?;
    Ok(out)
}

/// A seed for a shard's randomness.
fn random_seed() -> u64 {
    let (hi, lo) = fjord_protocol::Uuid::new_v4().as_u64_pair();
    hi ^ lo
}
