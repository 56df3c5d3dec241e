//! The remote log manager of one partition on its leader, sans-IO: given what the log and the
//! store hold now, it names the next step (write a metadata value, copy a segment, delete a
//! segment's objects, move the log start, list the store), and the driver reports how the step
//! went. One operation runs at a time; each is a short sequence of steps:
//!
//! - copy: CopyStarted committed, the objects written, CopyFinished committed (only then is
//!   the segment read, and only then may local retention delete the local copy);
//! - expire (total retention): the log start moved past the segment first (no read asks for
//!   it again), DeleteStarted, the objects deleted, DeleteFinished;
//! - clean up: a copy left unfinished (a failed copy, or a former leader's) or a deletion left
//!   half done is finished as a deletion; a segment of another lineage (an unclean election)
//!   is deleted; a periodic listing deletes objects no metadata names (a former leader's copy
//!   that landed after its segment was deleted).
//!
//! A failed step ends its operation; the next one starts after a backoff that doubles up to
//! its limit (Kafka's `remote.log.manager.task.retry.backoff.*`).

use crate::plan::{copy_candidates, remote_expired, LocalSegment, RemoteRetention};
use crate::records::{
    RemoteLogMetadata, RemoteSegmentId, SegmentMetadata, SegmentState, SegmentUpdate,
    TopicIdPartition,
};
use crate::rlmm::{Lineage, PartitionRemoteLog, Verdict};
use crate::store::StoredObject;
use std::collections::{HashSet, VecDeque};
use uuid::Uuid;

/// How often the store is listed for objects no metadata names.
pub const ORPHAN_SWEEP_INTERVAL_MS: i64 = 10 * 60 * 1000;
/// How old an object no metadata names must be before the sweep deletes it (a copy in flight
/// writes its objects only after its CopyStarted is committed, so a young one may be one
/// whose metadata this node has not folded yet).
pub const ORPHAN_GRACE_MS: i64 = 5 * 60 * 1000;

/// The topic's tiering settings as the manager uses them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TopicTiering {
    /// `remote.log.copy.disable`: nothing new is copied (what is there stays readable and
    /// expires as usual).
    pub copy_disabled: bool,
    /// `retention.ms`.
    pub retention_ms: i64,
    /// `retention.bytes`.
    pub retention_bytes: i64,
}

/// What the manager sees of the partition at one moment.
#[derive(Debug, Clone, Copy)]
pub struct PartitionView<'a> {
    /// The local segments in order, the active one last.
    pub local: &'a [LocalSegment],
    /// The high watermark.
    pub high_watermark: i64,
    /// The last stable offset (at most the high watermark).
    pub last_stable_offset: i64,
    /// The log start offset.
    pub log_start: i64,
    /// The leader's epochs and log end.
    pub lineage: Lineage<'a>,
    /// The topic's settings.
    pub topic: TopicTiering,
    /// What the store holds of the partition (none: nothing yet).
    pub remote: Option<&'a PartitionRemoteLog>,
    /// Now (wall clock, as record timestamps are).
    pub now_ms: i64,
}

/// One step for the driver to run.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Step {
    /// Append this value to `__remote_log_metadata` and report once it is committed and
    /// folded into the cache the views come from.
    Write(RemoteLogMetadata),
    /// Copy this local segment's files under `id`.
    Upload {
        /// The remote segment.
        id: RemoteSegmentId,
        /// The local segment.
        segment: LocalSegment,
    },
    /// Delete every object of a segment.
    DeleteObjects {
        /// The remote segment.
        id: RemoteSegmentId,
        /// Its start offset (part of its objects' names).
        start_offset: i64,
    },
    /// Raise the log start offset to this (total retention reached the remote log).
    MoveLogStart(i64),
    /// List the partition's objects and report them with [`PartitionManager::listed`].
    List,
}

/// The manager of one partition while this broker leads it.
#[derive(Debug)]
pub struct PartitionManager {
    tp: TopicIdPartition,
    broker_id: i32,
    plan: VecDeque<Step>,
    running: bool,
    own_copy: Option<Uuid>,
    failures: u32,
    retry_at_ms: i64,
    next_sweep_ms: i64,
    backoff_ms: i64,
    backoff_max_ms: i64,
}

impl PartitionManager {
    /// A manager for `tp` on broker `broker_id`, with the copy task's retry backoff.
    pub fn new(
        tp: TopicIdPartition,
        broker_id: i32,
        backoff_ms: i64,
        backoff_max_ms: i64,
        now_ms: i64,
    ) -> Self {
        PartitionManager {
            tp,
            broker_id,
            plan: VecDeque::new(),
            running: false,
            own_copy: None,
            failures: 0,
            retry_at_ms: i64::MIN,
            next_sweep_ms: now_ms + ORPHAN_GRACE_MS,
            backoff_ms: backoff_ms.max(1),
            backoff_max_ms: backoff_max_ms.max(backoff_ms.max(1)),
        }
    }

    /// The partition.
    pub fn tp(&self) -> &TopicIdPartition {
        &self.tp
    }

    /// True while an operation has steps left.
    pub fn busy(&self) -> bool {
        !self.plan.is_empty()
    }

    /// The step to run now, if any (none while a step runs, while backing off after a
    /// failure, or when there is nothing to do). `new_id` names a new remote segment.
    pub fn next(&mut self, v: &PartitionView<'_>, new_id: impl FnOnce() -> Uuid) -> Option<Step> {
        if self.running {
            return None;
        }
        if self.plan.is_empty() {
            if v.now_ms < self.retry_at_ms {
                return None;
            }
            self.plan = self.plan_next(v, new_id);
        }
        let step = self.plan.front()?.clone();
        self.running = true;
        Some(step)
    }

    /// How the step [`next`](Self::next) gave went.
    pub fn done(&mut self, ok: bool, now_ms: i64) {
        self.running = false;
        if ok {
            let step = self.plan.pop_front();
            if self.plan.is_empty() {
                self.failures = 0;
                if let Some(Step::Write(RemoteLogMetadata::Update(u))) = step {
                    if Some(u.id.id) == self.own_copy {
                        self.own_copy = None;
                    }
                }
            }
            return;
        }
        // The operation ends; a copy left unfinished is cleaned up as a dangling one.
        self.plan.clear();
        self.own_copy = None;
        self.failures = self.failures.saturating_add(1);
        let shift = self.failures.saturating_sub(1).min(20);
        let wait = self
            .backoff_ms
            .saturating_mul(1 << shift)
            .min(self.backoff_max_ms);
        self.retry_at_ms = now_ms + wait;
    }

    /// The listing a [`Step::List`] asked for: objects no metadata names, older than the
    /// grace, become deletions.
    pub fn listed(
        &mut self,
        objects: &[StoredObject],
        remote: Option<&PartitionRemoteLog>,
        now_ms: i64,
    ) {
        self.running = false;
        self.plan.pop_front();
        let known: HashSet<Uuid> = remote
            .map(|r| r.segments().map(|s| s.id.id).collect())
            .unwrap_or_default();
        let mut orphans: Vec<(i64, Uuid)> = objects
            .iter()
            .filter(|o| now_ms - o.modified_ms > ORPHAN_GRACE_MS)
            .filter_map(|o| o.segment)
            .filter(|(_, id)| !known.contains(id) && Some(*id) != self.own_copy)
            .collect();
        orphans.sort_unstable();
        orphans.dedup();
        for (start_offset, id) in orphans {
            self.plan.push_back(Step::DeleteObjects {
                id: RemoteSegmentId {
                    tp: self.tp.clone(),
                    id,
                },
                start_offset,
            });
        }
    }

    fn update(&self, seg: &SegmentMetadata, state: SegmentState, now_ms: i64) -> Step {
        Step::Write(RemoteLogMetadata::Update(SegmentUpdate {
            id: seg.id.clone(),
            broker_id: self.broker_id,
            event_timestamp_ms: now_ms,
            custom_metadata: None,
            state,
        }))
    }

    fn deletion(&self, seg: &SegmentMetadata, now_ms: i64) -> VecDeque<Step> {
        let mut plan = VecDeque::new();
        if seg.state != SegmentState::DeleteStarted {
            plan.push_back(self.update(seg, SegmentState::DeleteStarted, now_ms));
        }
        plan.push_back(Step::DeleteObjects {
            id: seg.id.clone(),
            start_offset: seg.start_offset,
        });
        plan.push_back(self.update(seg, SegmentState::DeleteFinished, now_ms));
        plan
    }

    fn plan_next(
        &mut self,
        v: &PartitionView<'_>,
        new_id: impl FnOnce() -> Uuid,
    ) -> VecDeque<Step> {
        if let Some(remote) = v.remote {
            // Unfinished copies (not this manager's) and unfinished deletions.
            let dangling = remote.segments().find(|s| {
                s.state == SegmentState::DeleteStarted
                    || (s.state == SegmentState::CopyStarted && Some(s.id.id) != self.own_copy)
            });
            if let Some(seg) = dangling {
                return self.deletion(seg, v.now_ms);
            }
            // Segments of another history, once nothing this history still needs is only
            // there.
            let local_start = v.local.first().map_or(v.log_start, |s| s.base_offset);
            if let Some(seg) = remote.readable().into_iter().find(|s| {
                v.lineage.verdict(s) == Verdict::Contradicted
                    && !still_needed(remote, v.lineage, s, v.log_start, local_start)
            }) {
                return self.deletion(seg, v.now_ms);
            }
            // Total retention, one segment at a time, the log start first.
            let ours = remote.readable_in(v.lineage);
            let highest = ours.iter().map(|s| s.end_offset).max();
            let local_only: u64 = v
                .local
                .iter()
                .filter(|s| highest.is_none_or(|h| s.next_offset - 1 > h))
                .map(|s| s.size)
                .sum();
            let expiry = remote_expired(
                &ours,
                RemoteRetention {
                    ms: v.topic.retention_ms,
                    bytes: v.topic.retention_bytes,
                    log_start: v.log_start,
                    local_only_bytes: local_only,
                    now_ms: v.now_ms,
                },
            );
            if let Some(first) = expiry.delete.first() {
                let seg = ours.iter().find(|s| &s.id == first).expect("from ours");
                let mut plan = self.deletion(seg, v.now_ms);
                let start = (seg.end_offset + 1).max(v.log_start);
                if start > v.log_start {
                    plan.push_front(Step::MoveLogStart(start));
                }
                return plan;
            }
        }
        if v.now_ms >= self.next_sweep_ms {
            self.next_sweep_ms = v.now_ms + ORPHAN_SWEEP_INTERVAL_MS;
            return VecDeque::from([Step::List]);
        }
        if v.topic.copy_disabled {
            return VecDeque::new();
        }
        let local_start = v.local.first().map_or(v.log_start, |s| s.base_offset);
        let highest = v
            .remote
            .map(|r| r.covered_until(local_start, v.lineage))
            .filter(|h| *h >= local_start);
        let limit = v.last_stable_offset.min(v.high_watermark);
        let Some(seg) = copy_candidates(v.local, highest, limit).into_iter().next() else {
            return VecDeque::new();
        };
        let id = RemoteSegmentId {
            tp: self.tp.clone(),
            id: new_id(),
        };
        let meta = SegmentMetadata {
            id: id.clone(),
            start_offset: seg.base_offset,
            end_offset: seg.next_offset - 1,
            broker_id: self.broker_id,
            max_timestamp_ms: seg.max_timestamp_ms,
            event_timestamp_ms: v.now_ms,
            leader_epochs: epochs_within(v.lineage, seg.base_offset, seg.next_offset - 1),
            size_bytes: i32::try_from(seg.size).unwrap_or(i32::MAX),
            custom_metadata: None,
            state: SegmentState::CopyStarted,
            txn_index_empty: seg.txn_index_empty,
        };
        self.own_copy = Some(id.id);
        let finished = self.update(&meta, SegmentState::CopyFinished, v.now_ms);
        VecDeque::from([
            Step::Write(RemoteLogMetadata::Segment(meta)),
            Step::Upload { id, segment: seg },
            finished,
        ])
    }
}

/// True when `seg`, of another history, holds records of `lineage`'s that neither the local
/// log (from `local_start`) nor a segment wholly of `lineage` holds, at or above the log start.
fn still_needed(
    remote: &PartitionRemoteLog,
    lineage: Lineage<'_>,
    seg: &SegmentMetadata,
    log_start: i64,
    local_start: i64,
) -> bool {
    let from = seg.start_offset.max(log_start);
    let Some(shared_end) = lineage.shared_from(seg, from) else {
        return false;
    };
    let needed_end = shared_end.min(local_start - 1);
    from <= needed_end && remote.covered_until(from, lineage) < needed_end
}

/// The epochs of `lineage` that have records in `[first, last]`, each with its first offset
/// in that range.
pub fn epochs_within(lineage: Lineage<'_>, first: i64, last: i64) -> Vec<(i32, i64)> {
    let mut out = Vec::new();
    for (i, &(epoch, start)) in lineage.epochs.iter().enumerate() {
        let end = lineage
            .epochs
            .get(i + 1)
            .map_or(lineage.end_offset, |(_, next)| *next)
            - 1;
        if end < first || start > last || end < start {
            continue;
        }
        out.push((epoch, start.max(first)));
    }
    out
}
