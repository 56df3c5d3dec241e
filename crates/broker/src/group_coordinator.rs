//! The group coordinator's driver: one [`fjord_group::Shard`] per `__consumer_offsets`
//! partition this broker leads, loaded from the partition's log when it becomes the leader
//! (COORDINATOR_LOAD_IN_PROGRESS meanwhile) and dropped when it stops being the leader
//! (waiting requests then get NOT_COORDINATOR). A request locks its shard, runs the state
//! machine, appends the records it emitted and only then sends the replies. Each shard has a
//! timer task that sleeps until the shard's next deadline. The topic itself is created, as
//! Kafka does, the first time a client looks for a coordinator.

use crate::controller_client::ControllerClient;
use crate::replica_manager::{Partition, ReplicaManager};
use bytes::Bytes;
use fjord_group::{GroupConfig, GroupRecord, Output, RequestContext, Shard, Token};
use fjord_metadata::MetadataImage;
use fjord_protocol::generated::create_topics_request::{
    CreatableTopic, CreatableTopicConfig, CreateTopicsRequest,
};
use fjord_protocol::records::{Compression, RecordBatchBuilder, RecordBatches};
use fjord_protocol::{ErrorCode, RequestBody, ResponseBody};
use fjord_util::system_now_ms;
use std::collections::{BTreeSet, HashMap};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use tokio::sync::{oneshot, watch, Notify};

/// The topic that holds groups and offsets.
pub const OFFSETS_TOPIC: &str = "__consumer_offsets";
/// The most records one append to `__consumer_offsets` carries (a bigger output is split).
const MAX_RECORDS_PER_BATCH: usize = 1000;
/// How much of the log one read while loading a shard returns.
const LOAD_READ_BYTES: usize = 4 << 20;
/// The most requests waiting for a delayed answer (JoinGroup, SyncGroup) in one shard.
const MAX_WAITERS_PER_SHARD: usize = 100_000;

/// The coordinator's settings beyond the state machine's.
#[derive(Debug, Clone)]
pub struct CoordinatorConfig {
    /// The state machine's.
    pub group: GroupConfig,
    /// `offsets.topic.num.partitions`.
    pub num_partitions: i32,
    /// `offsets.topic.replication.factor`.
    pub replication_factor: i16,
    /// `offsets.topic.segment.bytes` (Kafka: 100 MiB).
    pub segment_bytes: i64,
}

/// A shard and the requests waiting on it.
struct Loaded {
    shard: Shard,
    waiters: HashMap<Token, oneshot::Sender<ResponseBody>>,
}

/// One led `__consumer_offsets` partition's coordinator.
struct Slot {
    partition: Arc<Partition>,
    leader_epoch: i32,
    loaded: AtomicBool,
    closed: AtomicBool,
    state: tokio::sync::Mutex<Option<Loaded>>,
    wake: Notify,
}

/// How long a shard waits for its records to be committed before it gives up on them
/// (Kafka's `offsets.commit.timeout.ms` default).
const COMMIT_TIMEOUT: std::time::Duration = std::time::Duration::from_secs(5);

/// The group coordinator of this broker.
pub struct GroupCoordinator {
    config: CoordinatorConfig,
    replicas: Arc<ReplicaManager>,
    controller: Arc<ControllerClient>,
    slots: Mutex<HashMap<i32, Arc<Slot>>>,
    next_token: AtomicU64,
    creating: Arc<AtomicBool>,
    /// Set by [`GroupCoordinator::shutdown`]: no shard is loaded again.
    stopped: AtomicBool,
}

impl std::fmt::Debug for GroupCoordinator {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("GroupCoordinator")
            .field("config", &self.config)
            .finish_non_exhaustive()
    }
}

/// How a request reached its shard, or why it did not.
pub type Routed<T> = Result<T, ErrorCode>;

impl GroupCoordinator {
    /// A coordinator over this broker's partitions.
    pub fn new(
        config: CoordinatorConfig,
        replicas: Arc<ReplicaManager>,
        controller: Arc<ControllerClient>,
    ) -> Arc<GroupCoordinator> {
        Arc::new(GroupCoordinator {
            config,
            replicas,
            controller,
            slots: Mutex::new(HashMap::new()),
            next_token: AtomicU64::new(1),
            creating: Arc::new(AtomicBool::new(false)),
            stopped: AtomicBool::new(false),
        })
    }

    /// Stops for a graceful shutdown: every shard is dropped, so the requests waiting in
    /// groups (a JoinGroup in a rebalance, say) are answered with NOT_COORDINATOR at once and
    /// their clients look for the coordinator elsewhere; nothing is loaded again.
    pub async fn shutdown(&self) {
        self.stopped.store(true, Ordering::SeqCst);
        let slots: Vec<Arc<Slot>> = self
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

    /// `offsets.topic.num.partitions`.
    pub fn num_partitions(&self) -> i32 {
        self.config.num_partitions
    }

    /// The partition coordinating `group`.
    pub fn partition_for(&self, group: &str) -> i32 {
        fjord_group::partition_for(group, self.config.num_partitions)
    }

    /// Creates `__consumer_offsets` through the controller (in the background, once at a
    /// time), as Kafka does when a coordinator is first looked for.
    pub fn create_offsets_topic(&self) {
        if self.creating.swap(true, Ordering::SeqCst) {
            return;
        }
        let c = &self.config;
        let body = RequestBody::CreateTopics(CreateTopicsRequest {
            topics: vec![CreatableTopic {
                name: OFFSETS_TOPIC.into(),
                num_partitions: c.num_partitions,
                replication_factor: c.replication_factor,
                configs: [
                    ("cleanup.policy", "compact".to_string()),
                    ("compression.type", "producer".to_string()),
                    ("segment.bytes", c.segment_bytes.to_string()),
                ]
                .into_iter()
                .map(|(name, value)| CreatableTopicConfig {
                    name: name.into(),
                    value: Some(value),
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
                                "creating {OFFSETS_TOPIC}"
                            );
                        }
                    }
                }
                Ok(other) => tracing::warn!("creating {OFFSETS_TOPIC}: answered {other:?}"),
                Err(e) => tracing::warn!("creating {OFFSETS_TOPIC}: {e}"),
            }
            creating.store(false, Ordering::SeqCst);
        });
    }

    /// The slot of the partition coordinating `group`: NOT_COORDINATOR unless this broker
    /// leads it, COORDINATOR_LOAD_IN_PROGRESS while its shard loads.
    fn slot_for(self: &Arc<Self>, image: &MetadataImage, group: &str) -> Routed<Arc<Slot>> {
        if self.stopped.load(Ordering::SeqCst) {
            return Err(ErrorCode::NotCoordinator);
        }
        let index = self.partition_for(group);
        let topic = image
            .topics
            .get_by_name(OFFSETS_TOPIC)
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

    /// The slot for `partition` at its current epoch, starting its load when new.
    fn ensure_loading(self: &Arc<Self>, index: i32, partition: Arc<Partition>) -> Arc<Slot> {
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
                    "the group coordinator shard's task failed, dropping the shard: {e}"
                );
                me.unload(&s);
            }
        });
        slot
    }

    /// Loads a shard from its partition's log, then runs its deadlines until it is closed.
    async fn load_and_run(self: Arc<Self>, slot: Arc<Slot>) {
        let mut guard = slot.state.lock().await;
        let log = slot.partition.log.clone();
        let config = self.config.group.clone();
        let seed = random_seed();
        let loaded = tokio::task::spawn_blocking(move || load_shard(&log, config, seed))
            .await
            .map_err(|e| e.to_string())
            .and_then(|r| r);
        match loaded {
            Ok(shard) => {
                tracing::info!(
                    partition = slot.partition.index,
                    groups = shard.group_ids().len(),
                    "loaded group coordinator shard"
                );
                *guard = Some(Loaded {
                    shard,
                    waiters: HashMap::new(),
                });
                slot.loaded.store(true, Ordering::SeqCst);
            }
            Err(e) => {
                tracing::error!(partition = slot.partition.index, "loading groups: {e}");
                drop(guard);
                self.unload(&slot);
                return;
            }
        }
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
            let sleep = match next {
                Some(at) => (at - system_now_ms()).max(0) as u64,
                None => 60_000,
            };
            tokio::select! {
                _ = tokio::time::sleep(std::time::Duration::from_millis(sleep)) => {}
                _ = slot.wake.notified() => continue,
            }
            let mut guard = slot.state.lock().await;
            let Some(l) = guard.as_mut() else { return };
            let out = l.shard.tick(system_now_ms());
            if let Err(e) = self.commit(&slot, &mut guard, out, None).await {
                tracing::warn!(partition = slot.partition.index, "{e}");
            }
        }
    }

    /// Drops a slot: its waiting requests get NOT_COORDINATOR.
    fn unload(&self, slot: &Arc<Slot>) {
        slot.close();
        let mut slots = self.slots.lock().expect("slots");
        if slots
            .get(&slot.partition.index)
            .is_some_and(|s| Arc::ptr_eq(s, slot))
        {
            slots.remove(&slot.partition.index);
        }
    }

    /// Appends `out`'s records, then delivers its replies; returns the reply to `mine` if it
    /// is among them. When the append fails the shard is dropped (it holds state the log does
    /// not) and every waiting request gets NOT_COORDINATOR.
    async fn commit(
        &self,
        slot: &Arc<Slot>,
        guard: &mut tokio::sync::MutexGuard<'_, Option<Loaded>>,
        out: Output,
        mine: Option<Token>,
    ) -> Result<Option<ResponseBody>, String> {
        if !out.records.is_empty() {
            let partition = slot.partition.clone();
            let epoch = slot.leader_epoch;
            let records = out.records;
            let appended = tokio::task::spawn_blocking(move || {
                let mut end = -1;
                for chunk in records.chunks(MAX_RECORDS_PER_BATCH) {
                    let batch = encode_batch(chunk)?;
                    let info = partition
                        .log
                        .append_as_leader(batch, epoch, system_now_ms())
                        .map_err(|e| e.to_string())?;
                    partition.after_append();
                    end = info.last_offset + 1;
                }
                Ok::<i64, String>(end)
            })
            .await
            .map_err(|e| e.to_string())
            .and_then(|r| r);
            // The answer goes out once the records are committed (every in-sync replica has
            // them), as Kafka's coordinator runtime does.
            let committed = match appended {
                Ok(end) => slot
                    .partition
                    .wait_committed(epoch, end, tokio::time::Instant::now() + COMMIT_TIMEOUT)
                    .await
                    .map_err(|code| format!("not committed: {}", code.message())),
                Err(e) => Err(e),
            };
            if let Err(e) = committed {
                **guard = None;
                self.unload(slot);
                return Err(format!(
                    "writing to {OFFSETS_TOPIC}-{}: {e}",
                    slot.partition.index
                ));
            }
        }
        let mut reply = None;
        if let Some(l) = guard.as_mut() {
            for (token, body) in out.replies {
                if Some(token) == mine {
                    reply = Some(body);
                } else if let Some(tx) = l.waiters.remove(&token) {
                    let _ = tx.send(body);
                }
            }
        }
        Ok(reply)
    }

    /// Runs one request against the shard of `group`: `run` calls the state machine with a
    /// fresh context; the answer comes once its records are written (or, for a JoinGroup or
    /// SyncGroup that must wait, when the group gets there).
    pub async fn call(
        self: &Arc<Self>,
        image: &MetadataImage,
        group: &str,
        version: i16,
        client: (&str, std::net::SocketAddr),
        run: impl FnOnce(&mut Shard, &RequestContext, i64) -> Output,
    ) -> Routed<ResponseBody> {
        let slot = self.slot_for(image, group)?;
        let ctx = RequestContext {
            token: self.next_token.fetch_add(1, Ordering::Relaxed),
            version,
            client_id: client.0.to_string(),
            client_host: format!("/{}", client.1.ip()),
        };
        let waiting = {
            let mut guard = slot.state.lock().await;
            let Some(l) = guard.as_mut() else {
                return Err(ErrorCode::NotCoordinator);
            };
            // Checked before the state machine runs, so a refused request changes nothing.
            if l.waiters.len() >= MAX_WAITERS_PER_SHARD {
                return Err(ErrorCode::CoordinatorNotAvailable);
            }
            let out = run(&mut l.shard, &ctx, system_now_ms());
            let answered = out.replies.iter().any(|(t, _)| *t == ctx.token);
            let rx = if answered {
                None
            } else {
                let (tx, rx) = oneshot::channel();
                l.waiters.insert(ctx.token, tx);
                Some(rx)
            };
            let reply = self.commit(&slot, &mut guard, out, Some(ctx.token)).await;
            slot.wake.notify_one();
            match reply {
                Err(e) => {
                    tracing::warn!("{e}");
                    return Err(ErrorCode::NotCoordinator);
                }
                Ok(Some(body)) => return Ok(body),
                Ok(None) => rx,
            }
        };
        match waiting {
            Some(rx) => rx.await.map_err(|_| ErrorCode::NotCoordinator),
            None => Err(ErrorCode::NotCoordinator),
        }
    }

    /// Reads every loaded shard (DescribeGroups, ListGroups, OffsetFetch): `read` runs on the
    /// shard of `group`.
    pub async fn read<T>(
        self: &Arc<Self>,
        image: &MetadataImage,
        group: &str,
        read: impl FnOnce(&Shard) -> T,
    ) -> Routed<T> {
        let slot = self.slot_for(image, group)?;
        let guard = slot.state.lock().await;
        let l = guard.as_ref().ok_or(ErrorCode::NotCoordinator)?;
        Ok(read(&l.shard))
    }

    /// Every slot now.
    fn all_slots(&self) -> Vec<Arc<Slot>> {
        self.slots
            .lock()
            .expect("slots")
            .values()
            .cloned()
            .collect()
    }

    /// Runs `f` on every loaded shard (ListGroups).
    pub async fn each_shard<T>(&self, mut f: impl FnMut(&Shard) -> T) -> Vec<T> {
        let slots = self.all_slots();
        let mut out = Vec::new();
        for s in slots {
            let guard = s.state.lock().await;
            if let Some(l) = guard.as_ref() {
                out.push(f(&l.shard));
            }
        }
        out
    }

    /// True while some led partition's shard is still loading (ListGroups answers
    /// COORDINATOR_LOAD_IN_PROGRESS then).
    pub fn loading(&self) -> bool {
        self.slots
            .lock()
            .expect("slots")
            .values()
            .any(|s| !s.loaded.load(Ordering::SeqCst))
    }

    /// Follows the images the replica manager has applied: loads the shards of partitions
    /// this broker comes to lead, drops those it no longer leads, and removes the offsets of
    /// deleted topics.
    pub async fn follow(
        self: Arc<Self>,
        mut applied: watch::Receiver<Option<Arc<MetadataImage>>>,
    ) -> String {
        let mut topics: Option<BTreeSet<String>> = None;
        loop {
            let image = applied.borrow_and_update().clone();
            if let Some(image) = image {
                self.apply(&image);
                let now: BTreeSet<String> = image
                    .topics
                    .by_id
                    .values()
                    .map(|t| t.name.clone())
                    .collect();
                if let Some(before) = &topics {
                    let gone: BTreeSet<String> = before.difference(&now).cloned().collect();
                    if !gone.is_empty() {
                        self.topics_deleted(&gone).await;
                    }
                }
                topics = Some(now);
            }
            if applied.changed().await.is_err() {
                return "the replica manager stopped".into();
            }
        }
    }

    fn apply(self: &Arc<Self>, image: &MetadataImage) {
        if self.stopped.load(Ordering::SeqCst) {
            return;
        }
        let me = self.replicas.node_id();
        let Some(topic) = image.topics.get_by_name(OFFSETS_TOPIC) else {
            for s in self.slots.lock().expect("slots").drain().map(|(_, s)| s) {
                s.close();
            }
            return;
        };
        let stale: Vec<Arc<Slot>> = self
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
            if let Some(p) = self.replicas.get(topic.id, *index).filter(|p| p.led_by(me)) {
                self.ensure_loading(*index, p);
            }
        }
    }

    async fn topics_deleted(&self, topics: &BTreeSet<String>) {
        let slots = self.all_slots();
        for s in slots {
            let mut guard = s.state.lock().await;
            let Some(l) = guard.as_mut() else { continue };
            let out = l.shard.topics_deleted(topics);
            if let Err(e) = self.commit(&s, &mut guard, out, None).await {
                tracing::warn!("{e}");
            }
        }
    }
}

impl Slot {
    /// Marks it closed and wakes its timer task; dropping its state answers waiters.
    fn close(&self) {
        self.closed.store(true, Ordering::SeqCst);
        self.wake.notify_one();
        if let Ok(mut g) = self.state.try_lock() {
            *g = None;
        }
    }
}

/// Reads a partition's whole log into a new shard. Blocking.
fn load_shard(
    log: &fjord_log::PartitionLog,
    config: GroupConfig,
    seed: u64,
) -> Result<Shard, String> {
    let mut shard = Shard::new(config, seed);
    let now = system_now_ms();
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
                continue;
            }
            for record in batch.records().map_err(|e| e.to_string())? {
                let record = record.map_err(|e| e.to_string())?;
                let Some(key) = record.key else { continue };
                match GroupRecord::decode(&key, record.value.as_ref()) {
                    Ok(Some(r)) => shard.replay(r, now),
                    Ok(None) => {}
                    Err(e) => tracing::warn!("skipping an unreadable {OFFSETS_TOPIC} record: {e}"),
                }
            }
        }
    }
    shard.loaded(now);
    Ok(shard)
}

/// One batch of records, uncompressed, in the producer's format.
fn encode_batch(records: &[GroupRecord]) -> Result<Bytes, String> {
    let now = system_now_ms();
    let mut b = RecordBatchBuilder::new(Compression::None);
    for r in records {
        let (k, v) = r.encode();
        b.append(now, Some(&k), v.as_deref(), &[]);
    }
    b.build().map_err(|e| e.to_string())
}

/// A seed for member ids.
fn random_seed() -> u64 {
    let u = fjord_protocol::Uuid::new_v4();
    let (hi, lo) = u.as_u64_pair();
    hi ^ lo
}
