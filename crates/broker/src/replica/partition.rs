//! One hosted partition: its log, its leadership as the image gives it, and, while this broker
//! leads it, the replication core's [`Leader`] (followers' progress, ISR proposals, the high
//! watermark, acks=all). Every effect of the core is applied here: a new high watermark is
//! set on the log and wakes the partition's [`Watchers`] (long polls, acks=all waiters); an
//! ISR proposal goes to the [`IsrOutbox`] that the AlterPartition sender drains.

use crate::data::delayed::Watchers;
use fjord_log::PartitionLog;
use fjord_protocol::Uuid;
use fjord_replication::{AckState, Effects, Leader, PartitionState, ProposedIsr};
use std::collections::HashMap;
use std::sync::{Arc, Mutex, RwLock};
use tokio::sync::Notify;

/// A partition's leadership, as the image gives it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Leadership {
    /// The leader's id (-1: none).
    pub leader: i32,
    /// The leader epoch.
    pub leader_epoch: i32,
    /// The partition epoch.
    pub partition_epoch: i32,
    /// Every replica.
    pub replicas: Vec<i32>,
    /// The in-sync replicas.
    pub isr: Vec<i32>,
    /// `LeaderRecoveryState` RECOVERING (after an election outside the ISR).
    pub recovering: bool,
}

impl Leadership {
    fn state(&self) -> PartitionState {
        PartitionState {
            leader_epoch: self.leader_epoch,
            partition_epoch: self.partition_epoch,
            replicas: self.replicas.clone(),
            isr: self.isr.clone(),
            recovering: self.recovering,
        }
    }
}

/// ISR proposals waiting to be sent to the controller, at most one per partition (a newer one
/// replaces an older): bounded by the partitions this broker leads. Counts the shrinks and
/// expansions proposed (Kafka's IsrShrinksPerSec and IsrExpandsPerSec).
#[derive(Debug, Default)]
pub struct IsrOutbox {
    waiting: Mutex<HashMap<(Uuid, i32), ProposedIsr>>,
    /// Woken when a proposal is put.
    pub ready: Notify,
    /// ISR shrinks proposed.
    pub shrinks: std::sync::atomic::AtomicU64,
    /// ISR expansions proposed.
    pub expands: std::sync::atomic::AtomicU64,
}

impl IsrOutbox {
    /// Queues `proposal` for partition `key`.
    pub fn put(&self, key: (Uuid, i32), proposal: ProposedIsr) {
        self.waiting.lock().expect("outbox").insert(key, proposal);
        self.ready.notify_one();
    }

    /// Queues `proposal` for partition `key` unless a proposal was queued for it since it was
    /// taken (that one is newer).
    pub fn put_unless_newer(&self, key: (Uuid, i32), proposal: ProposedIsr) {
        self.waiting
            .lock()
            .expect("outbox")
            .entry(key)
            .or_insert(proposal);
        self.ready.notify_one();
    }

    /// Takes every queued proposal.
    pub fn take_all(&self) -> HashMap<(Uuid, i32), ProposedIsr> {
        std::mem::take(&mut *self.waiting.lock().expect("outbox"))
    }
}

/// Why an acks=all append cannot go ahead.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct NotEnoughReplicas {
    /// The committed ISR's size.
    pub isr: usize,
    /// The effective min ISR.
    pub min_isr: usize,
}

/// One hosted partition.
#[derive(Debug)]
pub struct Partition {
    /// The topic's name.
    pub topic: String,
    /// The topic's id.
    pub topic_id: Uuid,
    /// The partition index.
    pub index: i32,
    /// Its log.
    pub log: Arc<PartitionLog>,
    state: RwLock<Leadership>,
    /// The replication core while this broker leads the partition.
    leader: Mutex<Option<Leader>>,
    /// Woken when the log end offset or the high watermark moves.
    pub watchers: Watchers,
    outbox: Arc<IsrOutbox>,
    /// Record bytes appended by producers (BytesInPerSec).
    pub bytes_in: std::sync::atomic::AtomicU64,
    /// Record bytes fetched by consumers (BytesOutPerSec).
    pub bytes_out: std::sync::atomic::AtomicU64,
    /// Record bytes fetched by followers (ReplicationBytesOutPerSec).
    pub replication_bytes_out: std::sync::atomic::AtomicU64,
    /// The id of the log dir holding it (nil when unknown).
    pub dir_id: Uuid,
    /// Which of this broker's replication throttles apply to it ([`THROTTLED_AS_LEADER`],
    /// [`THROTTLED_AS_FOLLOWER`]), from its topic's throttled-replicas lists.
    throttled: std::sync::atomic::AtomicU8,
}

/// The partition's leader-side throttle applies to its out-of-sync followers' fetches.
pub const THROTTLED_AS_LEADER: u8 = 1;
/// The follower-side throttle applies to this broker's fetches while it is out of sync.
pub const THROTTLED_AS_FOLLOWER: u8 = 2;

impl Partition {
    /// A partition over `log`, with no leadership yet.
    pub fn new(
        topic: String,
        topic_id: Uuid,
        index: i32,
        log: Arc<PartitionLog>,
        outbox: Arc<IsrOutbox>,
    ) -> Partition {
        Partition {
            topic,
            topic_id,
            index,
            log,
            state: RwLock::new(Leadership {
                leader: -1,
                leader_epoch: -1,
                partition_epoch: -1,
                replicas: Vec::new(),
                isr: Vec::new(),
                recovering: false,
            }),
            leader: Mutex::new(None),
            watchers: Watchers::default(),
            outbox,
            bytes_in: Default::default(),
            bytes_out: Default::default(),
            replication_bytes_out: Default::default(),
            dir_id: Uuid::nil(),
            throttled: Default::default(),
        }
    }

    /// The same partition, held by log dir `id`.
    pub fn in_dir(mut self, id: Uuid) -> Partition {
        self.dir_id = id;
        self
    }

    /// Stops serving it (its log dir failed): no leadership, and every waiter (acks=all,
    /// long polls) wakes to find it gone.
    pub fn stop(&self) {
        *self.leader.lock().expect("leader") = None;
        self.state.write().expect("leadership").leader = -1;
        self.watchers.wake();
    }

    /// Its leadership now.
    pub fn leadership(&self) -> Leadership {
        self.state.read().expect("leadership").clone()
    }

    /// True when broker `me` leads it.
    pub fn led_by(&self, me: i32) -> bool {
        self.state.read().expect("leadership").leader == me
    }

    /// Sets which replication throttles apply to it (`THROTTLED_AS_*` bits).
    pub fn set_throttled(&self, bits: u8) {
        self.throttled
            .store(bits, std::sync::atomic::Ordering::Relaxed);
    }

    /// Whether the replication throttle `bit` (`THROTTLED_AS_*`) applies to replica
    /// `replica`'s fetches now: the partition is named for this broker, and that replica is
    /// not in the ISR (Kafka never throttles an in-sync replica).
    pub fn throttled_for(&self, bit: u8, replica: i32) -> bool {
        self.throttled.load(std::sync::atomic::Ordering::Relaxed) & bit != 0
            && !self
                .state
                .read()
                .expect("leadership")
                .isr
                .contains(&replica)
    }

    /// Its leader epoch.
    pub fn leader_epoch(&self) -> i32 {
        self.state.read().expect("leadership").leader_epoch
    }

    /// Takes the image's leadership (`min_isr` effective, `lag_max_ms` as
    /// `replica.lag.time.max.ms`): broker `me` becomes leader in a new epoch (the core starts
    /// from the log's end and last high watermark), updates its core within the same epoch, or
    /// stops leading. A stale image (older leader or partition epoch) changes nothing.
    /// Returns whether the leadership changed.
    pub fn set_leadership(
        &self,
        me: i32,
        new: Leadership,
        min_isr: usize,
        lag_max_ms: i64,
        now: i64,
    ) -> bool {
        {
            let current = self.state.read().expect("leadership");
            if *current == new {
                drop(current);
                let fx = self
                    .leader
                    .lock()
                    .expect("leader")
                    .as_mut()
                    .filter(|l| l.min_isr() != min_isr)
                    .map(|l| l.set_min_isr(min_isr));
                if let Some(fx) = fx {
                    self.apply(fx);
                }
                return false;
            }
            if new.leader_epoch < current.leader_epoch
                || (new.leader_epoch == current.leader_epoch
                    && new.partition_epoch < current.partition_epoch)
            {
                return false;
            }
        }
        let fx = {
            let mut leader = self.leader.lock().expect("leader");
            let fx = if new.leader == me {
                match leader.as_mut() {
                    Some(l) if l.state().leader_epoch == new.leader_epoch => {
                        let mut fx = l.on_image(new.state(), now);
                        if l.min_isr() != min_isr {
                            let more = l.set_min_isr(min_isr);
                            fx.high_watermark = more.high_watermark.or(fx.high_watermark);
                        }
                        fx
                    }
                    _ => {
                        if let Err(e) = self.log.assign_leader_epoch_start(new.leader_epoch) {
                            tracing::error!(
                                topic = %self.topic,
                                partition = self.index,
                                "recording leader epoch {} in the epoch cache: {e}",
                                new.leader_epoch
                            );
                        }
                        let mut l = Leader::new(
                            me,
                            new.state(),
                            min_isr,
                            lag_max_ms,
                            self.log.log_end_offset(),
                            self.log.high_watermark(),
                            now,
                        );
                        let fx = l.on_append(self.log.log_end_offset());
                        *leader = Some(l);
                        fx
                    }
                }
            } else {
                *leader = None;
                Effects::default()
            };
            *self.state.write().expect("leadership") = new;
            fx
        };
        self.apply(fx);
        // Waiters see the new leadership (acks=all waits end with NOT_LEADER_OR_FOLLOWER).
        self.watchers.wake();
        true
    }

    /// Applies the core's effects: a new high watermark on the log (waking waiters), an ISR
    /// proposal to the outbox.
    fn apply(&self, fx: Effects) {
        if let Some(hw) = fx.high_watermark {
            self.log.set_high_watermark(hw);
            self.watchers.wake();
        }
        if let Some(p) = fx.propose {
            let before = self.state.read().expect("leadership").isr.len();
            let counter = match p.isr.len().cmp(&before) {
                std::cmp::Ordering::Less => Some(&self.outbox.shrinks),
                std::cmp::Ordering::Greater => Some(&self.outbox.expands),
                std::cmp::Ordering::Equal => None,
            };
            if let Some(c) = counter {
                c.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
            }
            self.outbox.put((self.topic_id, self.index), p);
        }
    }

    /// Runs `f` on the leader core, if this broker leads the partition, and applies its
    /// effects.
    fn with_leader(&self, f: impl FnOnce(&mut Leader) -> Effects) -> bool {
        let fx = {
            let mut leader = self.leader.lock().expect("leader");
            let Some(l) = leader.as_mut() else {
                return false;
            };
            f(l)
        };
        self.apply(fx);
        true
    }

    /// After a leader append: the high watermark may move (a sole in-sync replica commits at
    /// once); waiters wake.
    pub fn after_append(&self) {
        let leo = self.log.log_end_offset();
        self.with_leader(|l| l.on_append_seen(leo, |r| self.watchers.seen(r)));
        self.watchers.wake();
    }

    /// A follower fetched from `fetch_offset` (its log end offset); `eligible` as the core's
    /// `on_fetch` takes it (KIP-903).
    pub fn on_follower_fetch(&self, replica: i32, fetch_offset: i64, now: i64, eligible: bool) {
        self.with_leader(|l| l.on_fetch(replica, fetch_offset, now, eligible));
    }

    /// The ISR check that runs every half `replica.lag.time.max.ms`.
    pub fn tick(&self, now: i64) {
        self.with_leader(|l| l.tick_seen(now, |r| self.watchers.seen(r)));
    }

    /// The controller's answer to `proposal` (ignored when the core no longer has it
    /// pending: a newer proposal or leadership replaced it).
    pub fn on_alter_response(&self, proposal: &ProposedIsr, result: Result<PartitionState, i16>) {
        self.with_leader(|l| {
            if l.pending() == Some(proposal) {
                l.on_alter_response(result)
            } else {
                Effects::default()
            }
        });
    }

    /// The proposal in flight, if this broker leads the partition and has one.
    pub fn pending_proposal(&self) -> Option<ProposedIsr> {
        self.leader
            .lock()
            .expect("leader")
            .as_ref()
            .and_then(|l| l.pending().cloned())
    }

    /// Whether an acks=all append may go ahead (the committed ISR has at least min ISR).
    pub fn check_acks_all(&self) -> Result<(), NotEnoughReplicas> {
        let leader = self.leader.lock().expect("leader");
        match leader.as_ref() {
            Some(l) if !l.accepts_acks_all() => Err(NotEnoughReplicas {
                isr: l.isr().len(),
                min_isr: l.min_isr(),
            }),
            _ => Ok(()),
        }
    }

    /// Where an acks=all append in `leader_epoch` needing offsets below `required` stands;
    /// `None` when this broker no longer leads the partition in that epoch.
    pub fn ack_state(&self, leader_epoch: i32, required: i64) -> Option<AckState> {
        let leader = self.leader.lock().expect("leader");
        let l = leader.as_ref()?;
        (l.state().leader_epoch == leader_epoch).then(|| l.ack_state(required))
    }

    /// Waits (until `deadline`) for the high watermark to pass `required` in `leader_epoch`:
    /// every in-sync replica has the records below it. NOT_ENOUGH_REPLICAS_AFTER_APPEND when
    /// the ISR fell below min ISR meanwhile, NOT_LEADER_OR_FOLLOWER when leadership moved,
    /// REQUEST_TIMED_OUT at the deadline.
    pub async fn wait_committed(
        &self,
        leader_epoch: i32,
        required: i64,
        deadline: i64,
        clock: &fjord_util::Clock,
    ) -> Result<(), fjord_protocol::ErrorCode> {
        use fjord_protocol::ErrorCode;
        let waiter = Arc::new(Notify::new());
        loop {
            self.watchers.watch(&waiter);
            match self.ack_state(leader_epoch, required) {
                Some(AckState::Done) => return Ok(()),
                Some(AckState::NotEnoughReplicasAfterAppend) => {
                    return Err(ErrorCode::NotEnoughReplicasAfterAppend)
                }
                None => return Err(ErrorCode::NotLeaderOrFollower),
                Some(AckState::Waiting) => {}
            }
            if clock.monotonic_ms() >= deadline {
                return Err(ErrorCode::RequestTimedOut);
            }
            tokio::select! {
                _ = waiter.notified() => {}
                _ = clock.sleep_until(deadline) => {}
            }
        }
    }

    /// The committed ISR's size and the effective min ISR, while this broker leads.
    pub fn isr_and_min(&self) -> Option<(usize, usize)> {
        let leader = self.leader.lock().expect("leader");
        leader.as_ref().map(|l| (l.isr().len(), l.min_isr()))
    }
}
