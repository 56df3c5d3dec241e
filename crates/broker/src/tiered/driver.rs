//! The remote log managers' driver: every `remote.log.manager.task.interval.ms`, for each
//! hosted partition of a tiered topic, the store coverage its local retention waits for is
//! brought up to date (leaders and followers alike); for each one this broker leads, its
//! [`PartitionManager`] runs until it has nothing to do, each step carried out here (a
//! metadata value published and read back, a segment's files copied, objects deleted, the
//! log start moved, the partition's objects listed).

use super::{topic_id_partition, Tiering};
use crate::replica::partition::Partition;
use fjord_protocol::Uuid;
use fjord_tiered::manager::{PartitionManager, PartitionView, Step, TopicTiering};
use fjord_tiered::plan::LocalSegment;
use fjord_tiered::rlmm::Lineage;
use fjord_tiered::store::{FileKind, SegmentFile};
use std::collections::HashMap;
use std::sync::Arc;

/// The most steps one partition runs in one round (the others' turn comes first).
const MAX_STEPS_PER_ROUND: usize = 32;

/// The longest single wait for the copy quota before it is looked at again (a lowered or
/// lifted bound takes effect within it).
const MAX_QUOTA_WAIT_MS: i64 = 1_000;

/// How long the metadata cache may take to catch up before a warning says so.
const NOT_READY_WARN: std::time::Duration = std::time::Duration::from_secs(60);
/// How often the managers look again whether the metadata cache caught up.
const NOT_READY_WAIT: std::time::Duration = std::time::Duration::from_millis(100);

/// Where a follower starts after what the store holds.
struct FollowerStart {
    /// The offset after the store's last one.
    local_start: i64,
    /// The leader epochs of the history below it.
    epochs: Vec<(i32, i64)>,
    /// The store's segment that ends below it, with its start offset.
    last: (fjord_tiered::records::RemoteSegmentId, i64),
}

/// A partition's local state as the manager sees it.
struct Snapshot {
    local: Vec<LocalSegment>,
    epochs: Vec<(i32, i64)>,
    log_end: i64,
    high_watermark: i64,
    last_stable_offset: i64,
    log_start: i64,
    topic: TopicTiering,
}

fn snapshot(p: &Partition) -> Snapshot {
    let log = &p.log;
    let config = log.config();
    Snapshot {
        local: log
            .segment_infos()
            .into_iter()
            .map(|s| LocalSegment {
                base_offset: s.base_offset,
                next_offset: s.next_offset,
                size: s.size,
                max_timestamp_ms: s.max_timestamp_ms,
                txn_index_empty: s.txn_index.is_none(),
            })
            .collect(),
        epochs: super::epochs_of(log),
        log_end: log.log_end_offset(),
        high_watermark: log.high_watermark(),
        last_stable_offset: log.last_stable_offset(),
        log_start: log.log_start_offset(),
        topic: TopicTiering {
            copy_disabled: config.remote_copy_disabled,
            retention_ms: config.retention_ms,
            retention_bytes: config.retention_bytes,
        },
    }
}

impl Tiering {
    /// Runs the remote log managers until the broker stops. The partitions run side by side
    /// (each one's steps in order); copies and deletions at once are bounded by the copier
    /// and expiration pools.
    pub async fn run_managers(self: Arc<Self>) -> String {
        use futures_util::stream::StreamExt;
        let mut managers: HashMap<(Uuid, i32), (i32, PartitionManager)> = HashMap::new();
        let mut stopping = self.replicas.stopping();
        let side_by_side = self.config.copiers.max(1) + self.config.expirers.max(1);
        let started = std::time::Instant::now();
        let mut warned = false;
        loop {
            if *stopping.borrow() {
                return "the broker stops".into();
            }
            self.refresh_quotas();
            if !self.is_ready() {
                if !warned && started.elapsed() > NOT_READY_WARN {
                    warned = true;
                    tracing::warn!(
                        "{} is not read to its end yet: tiered storage waits (no copies, no local deletions, reads from the store refused as retriable) until every partition of it has a leader and answers",
                        super::REMOTE_LOG_METADATA_TOPIC
                    );
                }
                // Nothing is decided on a cache that has not caught up.
                tokio::select! {
                    _ = tokio::time::sleep(NOT_READY_WAIT) => {}
                    _ = stopping.changed() => {}
                }
                continue;
            }
            let tiered: Vec<Arc<Partition>> = self
                .replicas
                .all()
                .into_iter()
                .filter(|p| p.log.config().remote_storage)
                .collect();
            let mut work: Vec<(Arc<Partition>, i32, PartitionManager)> = Vec::new();
            for p in &tiered {
                self.refresh_coverage(p);
                if !p.led_by(self.node_id) {
                    continue;
                }
                let epoch = p.leader_epoch();
                let mgr = match managers.remove(&(p.topic_id, p.index)) {
                    Some((e, mgr)) if e == epoch => mgr,
                    _ => {
                        self.on_becoming_leader(p);
                        PartitionManager::new(
                            topic_id_partition(p),
                            self.node_id,
                            self.config.backoff_ms,
                            self.config.backoff_max_ms,
                            fjord_util::system_now_ms(),
                        )
                    }
                };
                work.push((p.clone(), epoch, mgr));
            }
            // What is left was led in an earlier round and is not now.
            managers.clear();
            futures_util::stream::iter(work.iter_mut())
                .for_each_concurrent(side_by_side, |(p, _, mgr)| {
                    let this = &self;
                    async move {
                        this.run_partition(p, mgr).await;
                        this.refresh_coverage(p);
                    }
                })
                .await;
            for (p, epoch, mgr) in work {
                managers.insert((p.topic_id, p.index), (epoch, mgr));
            }
            self.run_deletions().await;
            tokio::select! {
                _ = tokio::time::sleep(self.config.task_interval) => {}
                _ = stopping.changed() => {}
            }
        }
    }

    /// Sets how far the store holds `p`'s own history from its first local segment on.
    fn refresh_coverage(&self, p: &Partition) {
        // Only the first local offset and the epochs: no walk over the segments' files.
        let log = &p.log;
        let local_start = log.local_log_start_offset();
        let epochs = super::epochs_of(log);
        let lineage = fjord_tiered::rlmm::Lineage {
            epochs: &epochs,
            end_offset: log.log_end_offset(),
        };
        let covered = self.with_cache(|c| {
            c.partition(&topic_id_partition(p))
                .map(|r| r.covered_until(local_start, lineage))
        });
        log.set_remote_covered(covered.filter(|c| *c >= local_start).unwrap_or(-1));
    }

    /// A new leader's log starts no lower than the store's first segment of its history
    /// (Kafka's `maybeUpdateLogStartOffsetOnBecomingLeader`): a former leader's total
    /// retention may have moved it past what this replica's checkpoint says.
    fn on_becoming_leader(&self, p: &Partition) {
        let s = snapshot(p);
        let lineage = Lineage {
            epochs: &s.epochs,
            end_offset: s.log_end,
        };
        let start = self.with_cache(|c| {
            c.partition(&topic_id_partition(p))
                .and_then(|r| r.start_offset(lineage))
        });
        if let Some(start) = start.filter(|st| *st > s.log_start && *st <= s.high_watermark) {
            if let Err(e) = p.log.delete_records(start) {
                tracing::warn!(topic = %p.topic, partition = p.index, "moving the log start to the store's: {e}");
            }
        }
    }

    /// Runs `mgr`'s steps for `p` until it has nothing to do (or this round's share is used).
    async fn run_partition(&self, p: &Arc<Partition>, mgr: &mut PartitionManager) {
        for _ in 0..MAX_STEPS_PER_ROUND {
            let s = snapshot(p);
            let now = fjord_util::system_now_ms();
            let step = {
                let cache = self.cache.read().expect("remote log metadata");
                let view = PartitionView {
                    local: &s.local,
                    high_watermark: s.high_watermark,
                    last_stable_offset: s.last_stable_offset,
                    log_start: s.log_start,
                    lineage: Lineage {
                        epochs: &s.epochs,
                        end_offset: s.log_end,
                    },
                    topic: s.topic,
                    remote: cache.partition(&topic_id_partition(p)),
                    now_ms: now,
                };
                mgr.next(&view, Uuid::new_v4)
            };
            let Some(step) = step else {
                return;
            };
            if let Step::List = step {
                match self.store.list_partition(&topic_id_partition(p)).await {
                    Ok(objects) => {
                        let cache = self.cache.read().expect("remote log metadata");
                        mgr.listed(&objects, cache.partition(&topic_id_partition(p)), now);
                    }
                    Err(e) => {
                        tracing::warn!(topic = %p.topic, partition = p.index, "listing tiered storage: {e}");
                        mgr.done(false, now);
                    }
                }
                continue;
            }
            let ok = match self.run_step(p, &step).await {
                Ok(()) => true,
                Err(e) => {
                    tracing::warn!(topic = %p.topic, partition = p.index, "tiered storage: {e}; retrying after a backoff");
                    false
                }
            };
            mgr.done(ok, fjord_util::system_now_ms());
            if !ok {
                return;
            }
        }
    }

    /// Carries out one step (not a listing).
    async fn run_step(
        &self,
        p: &Arc<Partition>,
        step: &Step,
    ) -> Result<(), fjord_tiered::TieredError> {
        match step {
            Step::Write(v) => self.publish(v).await,
            Step::Upload { id, segment } => {
                let info = p
                    .log
                    .segment_infos()
                    .into_iter()
                    .find(|s| {
                        s.base_offset == segment.base_offset && s.next_offset == segment.next_offset
                    })
                    .ok_or_else(|| {
                        fjord_tiered::TieredError::Store(format!(
                            "segment {} of {}-{} is no longer on disk as it was",
                            segment.base_offset, p.topic, p.index
                        ))
                    })?;
                let mut files = vec![
                    (FileKind::Log, SegmentFile::Path(info.log.clone())),
                    (
                        FileKind::OffsetIndex,
                        SegmentFile::Path(info.offset_index.clone()),
                    ),
                    (
                        FileKind::TimeIndex,
                        SegmentFile::Path(info.time_index.clone()),
                    ),
                    (
                        FileKind::LeaderEpochs,
                        SegmentFile::Bytes(
                            p.log.epoch_checkpoint_until(segment.next_offset - 1).into(),
                        ),
                    ),
                ];
                if let Some(t) = &info.txn_index {
                    files.push((FileKind::TxnIndex, SegmentFile::Path(t.clone())));
                }
                if let Some(s) = &info.producer_snapshot {
                    files.push((FileKind::ProducerSnapshot, SegmentFile::Path(s.clone())));
                }
                let _copier = self
                    .copiers
                    .acquire()
                    .await
                    .map_err(|_| fjord_tiered::TieredError::Store("the broker stops".into()))?;
                self.wait_for_copy_quota().await;
                let started = std::time::Instant::now();
                let bytes = self
                    .store
                    .copy_segment(id, segment.base_offset, files)
                    .await?;
                self.copy_quota
                    .record(fjord_util::system_now_ms(), bytes as usize);
                tracing::debug!(
                    topic = %p.topic, partition = p.index, base = segment.base_offset, bytes,
                    ms = started.elapsed().as_millis() as u64, "copied a segment to tiered storage"
                );
                Ok(())
            }
            Step::DeleteObjects { id, start_offset } => {
                let _expirer = self
                    .expirers
                    .acquire()
                    .await
                    .map_err(|_| fjord_tiered::TieredError::Store("the broker stops".into()))?;
                self.store.delete_segment(id, *start_offset).await
            }
            Step::MoveLogStart(offset) => p.log.delete_records(*offset).map(|_| ()).map_err(|e| {
                fjord_tiered::TieredError::Store(format!("moving the log start: {e}"))
            }),
            Step::List => Ok(()),
        }
    }
}

impl Tiering {
    /// Waits while the bytes copied lately are above `remote.log.manager.copy.max.bytes.per.second`
    /// (as Kafka's copy task waits on its quota before each segment).
    async fn wait_for_copy_quota(&self) {
        loop {
            self.refresh_quotas();
            let wait = self.copy_quota.throttle_ms(fjord_util::system_now_ms());
            if wait <= 0 {
                return;
            }
            tokio::time::sleep(std::time::Duration::from_millis(
                wait.clamp(1, MAX_QUOTA_WAIT_MS) as u64,
            ))
            .await;
        }
    }

    /// Where a follower of `p` whose leader answered OFFSET_MOVED_TO_TIERED_STORAGE starts
    /// over: after the last offset the store holds (the leader's local log starts at or below
    /// it: its local retention deletes only what the store holds), with the leader epochs the
    /// store's segments name below it, and the segment that ends there (whose producer
    /// snapshot is the producer state at the start). None while the store holds nothing of
    /// `p`.
    fn follower_start(&self, p: &Partition) -> Option<FollowerStart> {
        self.with_cache(|c| {
            let remote = c.partition(&topic_id_partition(p))?;
            let segments = remote.readable();
            let last = segments.iter().max_by_key(|s| s.end_offset)?;
            let mut first: std::collections::BTreeMap<i32, i64> = Default::default();
            for s in &segments {
                for &(epoch, offset) in &s.leader_epochs {
                    let at = first.entry(epoch).or_insert(offset);
                    *at = (*at).min(offset);
                }
            }
            let mut epochs: Vec<(i32, i64)> = Vec::new();
            for (epoch, offset) in first {
                // Epochs and their first offsets rise together in one history.
                if epochs.last().is_none_or(|(_, o)| offset >= *o) {
                    epochs.push((epoch, offset));
                }
            }
            Some(FollowerStart {
                local_start: last.end_offset + 1,
                epochs,
                last: (last.id.clone(), last.start_offset),
            })
        })
    }

    /// A follower of `p` below its leader's local log start (OFFSET_MOVED_TO_TIERED_STORAGE,
    /// the leader's log starting at `log_start`) starts over after what the store holds, with
    /// the producer snapshot of the store's last segment, read in a task of its own (the
    /// fetcher pauses the partition meanwhile). False when the store holds nothing of `p`
    /// yet; true while a start is under way.
    pub fn begin_follower_start(self: &Arc<Self>, p: &Arc<Partition>, log_start: i64) -> bool {
        let key = (p.topic_id, p.index);
        if !self.starting.lock().expect("starting").insert(key) {
            return true;
        }
        let Some(start) = self.is_ready().then(|| self.follower_start(p)).flatten() else {
            self.starting.lock().expect("starting").remove(&key);
            return false;
        };
        let (this, p) = (self.clone(), p.clone());
        tokio::spawn(async move {
            let (id, base) = &start.last;
            let snapshot = match this
                .store
                .fetch(id, *base, FileKind::ProducerSnapshot, None)
                .await
            {
                Ok(b) => Some(b),
                Err(fjord_tiered::TieredError::NotFound(_)) => None,
                Err(e) => {
                    tracing::warn!(topic = %p.topic, partition = p.index, "reading the producer snapshot from tiered storage: {e}; trying again");
                    this.starting.lock().expect("starting").remove(&key);
                    return;
                }
            };
            let log_p = p.clone();
            let done = tokio::task::spawn_blocking(move || {
                log_p.log.start_tiered_at(
                    start.local_start,
                    log_start,
                    &start.epochs,
                    snapshot.as_deref(),
                )
            })
            .await;
            match done {
                Ok(Ok(())) => tracing::info!(
                    topic = %p.topic,
                    partition = p.index,
                    local_start = start.local_start,
                    log_start,
                    "the leader's records below the local start are in tiered storage; the replica starts after them"
                ),
                Ok(Err(e)) => {
                    tracing::warn!(topic = %p.topic, partition = p.index, "starting over after tiered storage: {e}")
                }
                Err(e) => {
                    tracing::warn!(topic = %p.topic, partition = p.index, "starting over after tiered storage: {e}")
                }
            }
            this.starting.lock().expect("starting").remove(&key);
        });
        true
    }
}

impl Tiering {
    /// Deletes the store copy of a deleted tiered topic's partition (every broker that hosted
    /// a replica does it; deleting what is gone is harmless).
    pub fn delete_partition(&self, tp: fjord_tiered::records::TopicIdPartition) {
        self.deletions.lock().expect("deletions").push(tp);
    }

    /// Works through the deletions asked for: Kafka's partition deletion states around the
    /// deletion of every segment, then whatever objects are left under the partition's name.
    async fn run_deletions(&self) {
        let todo: Vec<_> = std::mem::take(&mut *self.deletions.lock().expect("deletions"));
        for tp in todo {
            if let Err(e) = self.delete_remote_partition(&tp).await {
                tracing::warn!(topic = %tp.topic, partition = tp.partition, "deleting a deleted topic's tiered storage: {e}; retrying after a backoff");
                self.deletions.lock().expect("deletions").push(tp);
            }
        }
    }

    async fn delete_remote_partition(
        &self,
        tp: &fjord_tiered::records::TopicIdPartition,
    ) -> Result<(), fjord_tiered::TieredError> {
        use fjord_tiered::records::{
            PartitionDelete, PartitionDeleteState, RemoteLogMetadata, SegmentState, SegmentUpdate,
        };
        let state = |state| {
            RemoteLogMetadata::PartitionDelete(PartitionDelete {
                tp: tp.clone(),
                broker_id: self.node_id,
                event_timestamp_ms: fjord_util::system_now_ms(),
                state,
            })
        };
        self.publish(&state(PartitionDeleteState::Started)).await?;
        let segments: Vec<_> = self.with_cache(|c| {
            c.partition(tp)
                .map(|p| p.segments().cloned().collect())
                .unwrap_or_default()
        });
        for seg in segments {
            let update = |state| {
                RemoteLogMetadata::Update(SegmentUpdate {
                    id: seg.id.clone(),
                    broker_id: self.node_id,
                    event_timestamp_ms: fjord_util::system_now_ms(),
                    custom_metadata: None,
                    state,
                })
            };
            if seg.state != SegmentState::DeleteStarted {
                self.publish(&update(SegmentState::DeleteStarted)).await?;
            }
            self.store.delete_segment(&seg.id, seg.start_offset).await?;
            self.publish(&update(SegmentState::DeleteFinished)).await?;
        }
        for o in self.store.list_partition(tp).await? {
            if let Some((start, id)) = o.segment {
                let id = fjord_tiered::records::RemoteSegmentId { tp: tp.clone(), id };
                self.store.delete_segment(&id, start).await?;
            }
        }
        self.publish(&state(PartitionDeleteState::Finished)).await?;
        tracing::info!(topic = %tp.topic, partition = tp.partition, "deleted a deleted topic's tiered storage");
        Ok(())
    }
}
