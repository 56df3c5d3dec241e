//! The leader's side of one partition, as Kafka's `Partition` keeps it: each follower's log end
//! offset (what it asks to fetch next) and when it last caught up; the ISR the controller
//! committed and at most one proposed change in flight (AlterPartition), during which the
//! maximal ISR (the union of both) is what the high watermark and acks wait for; the high
//! watermark, the smallest log end offset in the maximal ISR, advanced only while the
//! committed ISR has at least the effective min ISR (KIP-966) and never moved back.
//!
//! A follower is out of sync when it has not caught up with the leader's log end for
//! `replica.lag.time.max.ms` (it caught up at a fetch that reached the leader's log end, or
//! reached what the leader's end was at its previous fetch); it rejoins once it reaches the
//! high watermark and the offset at which this leader's epoch began.

use fjord_protocol::ErrorCode;
use std::collections::BTreeMap;

/// What the metadata image says about a partition (KRaft: the image is the source of truth).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PartitionState {
    /// The leader epoch.
    pub leader_epoch: i32,
    /// The partition epoch (bumped by every change of the partition).
    pub partition_epoch: i32,
    /// Every replica.
    pub replicas: Vec<i32>,
    /// The in-sync replicas.
    pub isr: Vec<i32>,
    /// True while the leader, elected outside the ISR (unclean or designated), has not yet
    /// completed recovery (`LeaderRecoveryState` RECOVERING, KIP-704).
    pub recovering: bool,
}

/// An ISR the leader asks the controller to commit (AlterPartition).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ProposedIsr {
    /// The leader's epoch.
    pub leader_epoch: i32,
    /// The partition epoch the change applies to.
    pub partition_epoch: i32,
    /// The proposed ISR.
    pub isr: Vec<i32>,
    /// The proposed `LeaderRecoveryState`: 0 RECOVERED (a leader elected outside the ISR
    /// asks for it first, alone in its ISR), 1 RECOVERING.
    pub leader_recovery_state: i8,
}

/// What an event asks of the driver.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Effects {
    /// The high watermark advanced to this offset: publish it, wake waiters.
    pub high_watermark: Option<i64>,
    /// Send this ISR change to the controller.
    pub propose: Option<ProposedIsr>,
}

/// Where an acks=all append stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AckState {
    /// Not every in-sync replica has it yet.
    Waiting,
    /// Committed: answer success.
    Done,
    /// Committed, but the ISR shrank below min ISR meanwhile
    /// (NOT_ENOUGH_REPLICAS_AFTER_APPEND).
    NotEnoughReplicasAfterAppend,
}

/// What the leader knows of one follower.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Progress {
    /// Its log end offset (its last fetch offset); -1 until it fetches.
    log_end_offset: i64,
    /// When it last fetched.
    last_fetch_ms: i64,
    /// The leader's log end offset at its last fetch.
    last_fetch_leader_leo: i64,
    /// When it was last caught up.
    last_caught_up_ms: i64,
}

/// A follower's latest fetch through a session that holds the partition without naming it
/// (KIP-227): every fetch of the session fetches the partition again at the offset the
/// session holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Seen {
    /// When.
    pub at_ms: i64,
    /// Whether that fetch made it eligible to join the ISR (KIP-903).
    pub eligible: bool,
}

/// The leader of one partition.
#[derive(Debug, Clone)]
pub struct Leader {
    me: i32,
    committed: PartitionState,
    pending: Option<ProposedIsr>,
    min_isr: usize,
    lag_max_ms: i64,
    followers: BTreeMap<i32, Progress>,
    log_end_offset: i64,
    high_watermark: i64,
    epoch_start_offset: i64,
}

impl Leader {
    /// Broker `me` becomes the leader of a partition in `state` at time `now`, its log ending
    /// at `log_end_offset`, with the last high watermark it knew. `min_isr` is the effective
    /// min ISR (min.insync.replicas, at most the replication factor); `lag_max_ms` is
    /// `replica.lag.time.max.ms`. In-sync followers count as caught up now; the others never
    /// did.
    pub fn new(
        me: i32,
        state: PartitionState,
        min_isr: usize,
        lag_max_ms: i64,
        log_end_offset: i64,
        high_watermark: i64,
        now: i64,
    ) -> Leader {
        let mut l = Leader {
            me,
            committed: state,
            pending: None,
            min_isr: min_isr.max(1),
            lag_max_ms,
            followers: BTreeMap::new(),
            log_end_offset,
            high_watermark: high_watermark.clamp(0, log_end_offset.max(0)),
            epoch_start_offset: log_end_offset,
        };
        l.reset_followers(now);
        l
    }

    fn reset_followers(&mut self, now: i64) {
        let me = self.me;
        let isr = self.committed.isr.clone();
        let mut followers = BTreeMap::new();
        for &r in self.committed.replicas.iter().filter(|r| **r != me) {
            let kept = self.followers.get(&r).copied();
            followers.insert(
                r,
                kept.unwrap_or(Progress {
                    log_end_offset: -1,
                    last_fetch_ms: 0,
                    last_fetch_leader_leo: -1,
                    last_caught_up_ms: if isr.contains(&r) { now } else { i64::MIN / 2 },
                }),
            );
        }
        self.followers = followers;
    }

    /// The committed ISR.
    pub fn isr(&self) -> &[i32] {
        &self.committed.isr
    }

    /// The ISR change in flight, if any.
    pub fn pending(&self) -> Option<&ProposedIsr> {
        self.pending.as_ref()
    }

    /// The committed ISR and the proposed one together: what must hold a record before it is
    /// committed while a change is in flight.
    pub fn maximal_isr(&self) -> Vec<i32> {
        let mut isr = self.committed.isr.clone();
        if let Some(p) = &self.pending {
            for r in &p.isr {
                if !isr.contains(r) {
                    isr.push(*r);
                }
            }
        }
        isr
    }

    /// The partition state the leader works from (leader epoch, partition epoch, ISR).
    pub fn state(&self) -> &PartitionState {
        &self.committed
    }

    /// The high watermark.
    pub fn high_watermark(&self) -> i64 {
        self.high_watermark
    }

    /// The leader's log end offset.
    pub fn log_end_offset(&self) -> i64 {
        self.log_end_offset
    }

    /// The effective min ISR.
    pub fn min_isr(&self) -> usize {
        self.min_isr
    }

    /// A follower's log end offset as the leader knows it (-1 before its first fetch).
    pub fn follower_log_end_offset(&self, replica: i32) -> Option<i64> {
        self.followers.get(&replica).map(|p| p.log_end_offset)
    }

    /// Whether an acks=all append may go ahead: the committed ISR has at least min ISR members
    /// (otherwise NOT_ENOUGH_REPLICAS).
    pub fn accepts_acks_all(&self) -> bool {
        self.committed.isr.len() >= self.min_isr
    }

    /// Where an acks=all append that needs offsets below `required_offset` stands.
    pub fn ack_state(&self, required_offset: i64) -> AckState {
        if self.high_watermark < required_offset {
            AckState::Waiting
        } else if self.maximal_isr().len() >= self.min_isr {
            AckState::Done
        } else {
            AckState::NotEnoughReplicasAfterAppend
        }
    }

    /// The min ISR changed (a topic config).
    pub fn set_min_isr(&mut self, min_isr: usize) -> Effects {
        self.min_isr = min_isr.max(1);
        self.advance()
    }

    /// The leader appended: its log now ends at `log_end_offset` (also called once when it
    /// takes over, which proposes RECOVERED after an election outside the ISR).
    pub fn on_append(&mut self, log_end_offset: i64) -> Effects {
        self.on_append_seen(log_end_offset, |_| None)
    }

    /// [`Leader::on_append`], where `seen(replica)` says when a follower last fetched
    /// this partition without naming it (KIP-227: every fetch of a session fetches all of
    /// its partitions again at the offset the session holds, which the leader sees only as
    /// the session's use). A follower that was at the leader's log end until this append was
    /// caught up as of that fetch, as Kafka records at each fetch of the session.
    pub fn on_append_seen(
        &mut self,
        log_end_offset: i64,
        seen: impl Fn(i32) -> Option<Seen>,
    ) -> Effects {
        let before = self.log_end_offset;
        if log_end_offset > before {
            for (r, p) in self.followers.iter_mut() {
                if p.log_end_offset >= before {
                    if let Some(s) = seen(*r) {
                        p.last_caught_up_ms = p.last_caught_up_ms.max(s.at_ms);
                    }
                }
            }
        }
        self.log_end_offset = log_end_offset;
        let mut fx = self.advance();
        fx.propose = self.maybe_recover();
        fx
    }

    /// A leader elected outside the ISR has nothing to recover from others (its log is what
    /// the partition keeps): it asks for RECOVERED with the ISR it has, before any follower
    /// may join.
    fn maybe_recover(&mut self) -> Option<ProposedIsr> {
        if !self.committed.recovering || self.pending.is_some() {
            return None;
        }
        let isr = self.committed.isr.clone();
        self.propose(isr)
    }

    /// Follower `replica` fetched from `fetch_offset` (its log end offset) at `now`.
    /// `eligible` says whether it may join the ISR (KIP-903: its broker is registered,
    /// unfenced, not shutting down, and the fetch carries its current broker epoch); an
    /// ineligible follower's position still counts for the high watermark where it is in the
    /// ISR, but it is never added.
    pub fn on_fetch(
        &mut self,
        replica: i32,
        fetch_offset: i64,
        now: i64,
        eligible: bool,
    ) -> Effects {
        let leo = self.log_end_offset;
        let Some(p) = self.followers.get_mut(&replica) else {
            return Effects::default();
        };
        let fetch_offset = fetch_offset.min(leo);
        let caught_up = if fetch_offset >= leo {
            p.last_caught_up_ms.max(now)
        } else if fetch_offset >= p.last_fetch_leader_leo && p.last_fetch_leader_leo >= 0 {
            p.last_caught_up_ms.max(p.last_fetch_ms)
        } else {
            p.last_caught_up_ms
        };
        *p = Progress {
            log_end_offset: fetch_offset,
            last_fetch_ms: now,
            last_fetch_leader_leo: leo,
            last_caught_up_ms: caught_up,
        };
        let mut fx = self.advance();
        if eligible {
            fx.propose = self.maybe_expand(replica);
        }
        fx
    }

    /// Time passed: followers out of sync for `replica.lag.time.max.ms` leave the ISR (a
    /// proposal), unless a change is in flight.
    pub fn tick(&mut self, now: i64) -> Effects {
        self.tick_seen(now, |_| None)
    }

    /// [`Leader::tick`], where `seen` is as for [`Leader::on_append_seen`]: an eligible
    /// follower that has caught up and whose session fetched within `replica.lag.time.max.ms`
    /// joins the ISR even if it has not named the partition since (at the log end of an idle
    /// partition it names it in no fetch, and the change in flight or the ineligibility that
    /// held it back when it last did may have ended since).
    pub fn tick_seen(&mut self, now: i64, seen: impl Fn(i32) -> Option<Seen>) -> Effects {
        let propose = self
            .maybe_recover()
            .or_else(|| self.maybe_shrink(now))
            .or_else(|| {
                let ready: Vec<i32> = self
                    .followers
                    .keys()
                    .copied()
                    .filter(|r| {
                        seen(*r).is_some_and(|s| {
                            s.eligible && now.saturating_sub(s.at_ms) <= self.lag_max_ms
                        })
                    })
                    .collect();
                ready.into_iter().find_map(|r| self.maybe_expand(r))
            });
        Effects {
            high_watermark: None,
            propose,
        }
    }

    /// The controller answered the proposal: `Ok` with the partition's new state, or `Err`
    /// with its error code. As in Kafka, only OPERATION_NOT_ATTEMPTED and INELIGIBLE_REPLICA
    /// say for certain that nothing was applied, so only they drop the proposal; after any
    /// other error (INVALID_UPDATE_VERSION, NEW_LEADER_ELECTED, FENCED_LEADER_EPOCH, ...) the
    /// change may have been committed after all, so the maximal ISR stays until a newer image
    /// settles it. (A lost request or answer is not an answer: the driver sends the pending
    /// proposal again.)
    pub fn on_alter_response(&mut self, result: Result<PartitionState, i16>) -> Effects {
        match result {
            Ok(state) => {
                self.pending = None;
                if state.leader_epoch == self.committed.leader_epoch
                    && state.partition_epoch >= self.committed.partition_epoch
                {
                    self.committed = state;
                }
            }
            Err(code)
                if code == ErrorCode::OperationNotAttempted.code()
                    || code == ErrorCode::IneligibleReplica.code() =>
            {
                self.pending = None;
            }
            Err(_) => {}
        }
        self.advance()
    }

    /// A newer image for the same leader epoch (an ISR change committed, replicas
    /// reassigned). An older partition epoch is ignored.
    pub fn on_image(&mut self, state: PartitionState, now: i64) -> Effects {
        if state.leader_epoch != self.committed.leader_epoch
            || state.partition_epoch <= self.committed.partition_epoch
        {
            return Effects::default();
        }
        if self
            .pending
            .as_ref()
            .is_some_and(|p| p.partition_epoch < state.partition_epoch)
        {
            self.pending = None;
        }
        self.committed = state;
        self.reset_followers(now);
        self.advance()
    }

    fn caught_up(&self, p: &Progress, now: i64) -> bool {
        p.log_end_offset == self.log_end_offset
            || now.saturating_sub(p.last_caught_up_ms) <= self.lag_max_ms
    }

    fn maybe_expand(&mut self, replica: i32) -> Option<ProposedIsr> {
        if self.pending.is_some()
            || self.committed.recovering
            || self.committed.isr.contains(&replica)
        {
            return None;
        }
        let p = self.followers.get(&replica)?;
        if p.log_end_offset < self.high_watermark || p.log_end_offset < self.epoch_start_offset {
            return None;
        }
        let mut isr = self.committed.isr.clone();
        isr.push(replica);
        self.propose(isr)
    }

    fn maybe_shrink(&mut self, now: i64) -> Option<ProposedIsr> {
        if self.pending.is_some() {
            return None;
        }
        let out: Vec<i32> = self
            .committed
            .isr
            .iter()
            .copied()
            .filter(|r| *r != self.me)
            .filter(|r| {
                self.followers
                    .get(r)
                    .is_none_or(|p| !self.caught_up(p, now))
            })
            .collect();
        if out.is_empty() {
            return None;
        }
        let isr = self
            .committed
            .isr
            .iter()
            .copied()
            .filter(|r| !out.contains(r))
            .collect();
        self.propose(isr)
    }

    fn propose(&mut self, isr: Vec<i32>) -> Option<ProposedIsr> {
        let p = ProposedIsr {
            leader_epoch: self.committed.leader_epoch,
            partition_epoch: self.committed.partition_epoch,
            isr,
            leader_recovery_state: 0,
        };
        self.pending = Some(p.clone());
        Some(p)
    }

    /// Moves the high watermark up to the smallest log end offset in the maximal ISR, if the
    /// committed ISR has at least min ISR members.
    fn advance(&mut self) -> Effects {
        if self.committed.isr.len() < self.min_isr {
            return Effects::default();
        }
        let mut hw = self.log_end_offset;
        for r in self.maximal_isr() {
            if r == self.me {
                continue;
            }
            let leo = self.followers.get(&r).map_or(-1, |p| p.log_end_offset);
            hw = hw.min(leo);
        }
        if hw > self.high_watermark {
            self.high_watermark = hw;
            return Effects {
                high_watermark: Some(hw),
                propose: None,
            };
        }
        Effects::default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const LAG: i64 = 30_000;

    fn state(isr: &[i32]) -> PartitionState {
        PartitionState {
            leader_epoch: 3,
            partition_epoch: 7,
            replicas: vec![1, 2, 3],
            isr: isr.to_vec(),
            recovering: false,
        }
    }

    #[test]
    fn the_high_watermark_follows_the_slowest_in_sync_replica() {
        let mut l = Leader::new(1, state(&[1, 2, 3]), 2, LAG, 10, 0, 0);
        assert_eq!(l.on_append(15).high_watermark, None, "followers unknown");
        assert_eq!(
            l.on_fetch(2, 12, 1, true).high_watermark,
            None,
            "3 is still unknown"
        );
        assert_eq!(l.on_fetch(3, 11, 1, true).high_watermark, Some(11));
        assert_eq!(
            l.on_fetch(2, 15, 2, true).high_watermark,
            None,
            "3 holds it at 11"
        );
        assert_eq!(l.on_fetch(3, 15, 2, true).high_watermark, Some(15));
        assert_eq!(l.ack_state(15), AckState::Done);
        assert_eq!(l.ack_state(16), AckState::Waiting);
    }

    #[test]
    fn an_idle_partition_s_followers_stay_in_sync_while_their_sessions_fetch() {
        // Both followers reached the log end at 1 s, then only fetched through their
        // sessions (which do not name an idle partition). Follower 2's session was used at
        // 100 s; follower 3's last at 1 s (its broker stopped fetching).
        let mut l = Leader::new(1, state(&[1, 2, 3]), 2, LAG, 10, 10, 0);
        l.on_fetch(2, 10, 1_000, true);
        l.on_fetch(3, 10, 1_000, true);
        let seen = |r: i32| {
            let at_ms = match r {
                2 => 100_000,
                3 => 1_000,
                _ => return None,
            };
            Some(Seen {
                at_ms,
                eligible: true,
            })
        };
        l.on_append_seen(11, seen);
        // At 100.5 s neither has fetched offset 11 yet: 2 was caught up at 100 s, 3 at 1 s.
        let p = l.tick(100_500).propose.expect("3 lags");
        assert_eq!(p.isr, vec![1, 2]);
        // Without the sessions' fetches, 2 would have been out as well.
        let mut plain = Leader::new(1, state(&[1, 2, 3]), 2, LAG, 10, 10, 0);
        plain.on_fetch(2, 10, 1_000, true);
        plain.on_fetch(3, 10, 1_000, true);
        plain.on_append(11);
        assert_eq!(plain.tick(100_500).propose.expect("both lag").isr, vec![1]);
    }

    #[test]
    fn a_caught_up_follower_whose_session_fetches_rejoins_at_a_tick() {
        // 3 reached the log end while ineligible (its broker had not registered again), then
        // fetched only through its session.
        let mut l = Leader::new(1, state(&[1, 2]), 1, LAG, 10, 10, 0);
        l.on_fetch(2, 10, 1_000, true);
        assert_eq!(l.on_fetch(3, 10, 1_000, false).propose, None);
        let seen =
            |eligible: bool, at_ms: i64| move |r: i32| (r == 3).then_some(Seen { at_ms, eligible });
        assert_eq!(
            l.tick_seen(2_000, seen(false, 2_000)).propose,
            None,
            "ineligible"
        );
        assert_eq!(
            l.tick_seen(2_000 + LAG + 1, seen(true, 1_500)).propose,
            None,
            "its session has not fetched for longer than the lag time"
        );
        let p = l
            .tick_seen(3_000, seen(true, 2_900))
            .propose
            .expect("3 joins");
        assert_eq!(p.isr, vec![1, 2, 3]);
    }

    #[test]
    fn a_lagging_follower_leaves_the_isr_and_rejoins_at_the_high_watermark() {
        let mut l = Leader::new(1, state(&[1, 2, 3]), 2, LAG, 10, 10, 0);
        l.on_fetch(2, 10, 1_000, true);
        l.on_fetch(3, 10, 1_000, true);
        l.on_append(20);
        l.on_fetch(2, 20, 2_000, true);
        assert_eq!(l.tick(LAG).propose, None, "3 caught up at 1 s");
        let p = l.tick(LAG + 1_001).propose.expect("3 lags");
        assert_eq!(p.isr, vec![1, 2]);
        assert_eq!(
            l.maximal_isr(),
            vec![1, 2, 3],
            "the larger set until committed"
        );
        assert_eq!(l.tick(LAG + 5_000).propose, None, "one change in flight");
        let mut committed = state(&[1, 2]);
        committed.partition_epoch = 8;
        assert_eq!(l.on_alter_response(Ok(committed)).high_watermark, Some(20));
        // 3 fetches again below the high watermark: not yet; at it: proposed back.
        assert_eq!(l.on_fetch(3, 15, LAG + 6_000, true).propose, None);
        let p = l
            .on_fetch(3, 20, LAG + 7_000, true)
            .propose
            .expect("3 rejoins");
        assert_eq!((p.isr, p.partition_epoch), (vec![1, 2, 3], 8));
    }

    #[test]
    fn below_min_isr_the_high_watermark_stays_and_acks_all_is_refused() {
        let mut l = Leader::new(1, state(&[1]), 2, LAG, 10, 4, 0);
        assert!(!l.accepts_acks_all());
        assert_eq!(l.on_append(12).high_watermark, None, "KIP-966");
        assert_eq!(l.high_watermark(), 4);
        let p = l.on_fetch(2, 12, 1, true).propose.expect("2 catches up");
        assert_eq!(p.isr, vec![1, 2]);
        assert_eq!(
            l.on_fetch(2, 12, 2, true).high_watermark,
            None,
            "not committed yet"
        );
        let mut committed = state(&[1, 2]);
        committed.partition_epoch = 8;
        assert_eq!(l.on_alter_response(Ok(committed)).high_watermark, Some(12));
        assert!(l.accepts_acks_all());
    }

    #[test]
    fn a_shrink_below_min_isr_while_waiting_answers_not_enough_replicas_after_append() {
        let mut l = Leader::new(1, state(&[1, 2]), 2, LAG, 10, 10, 0);
        l.on_fetch(2, 10, 1, true);
        l.on_append(11);
        assert_eq!(l.ack_state(11), AckState::Waiting);
        let p = l.tick(LAG + 10).propose.expect("2 lags");
        assert_eq!(p.isr, vec![1]);
        l.on_fetch(2, 11, LAG + 20, true);
        assert_eq!(l.high_watermark(), 11, "maximal ISR still has 2");
        let mut shrunk = state(&[1]);
        shrunk.partition_epoch = 8;
        l.on_alter_response(Ok(shrunk));
        assert_eq!(l.ack_state(11), AckState::NotEnoughReplicasAfterAppend);
    }

    #[test]
    fn the_high_watermark_never_moves_back_and_stale_images_are_ignored() {
        let mut l = Leader::new(1, state(&[1, 2]), 1, LAG, 10, 10, 0);
        l.on_fetch(2, 10, 1, true);
        let mut newer = state(&[1, 2, 3]);
        newer.partition_epoch = 9;
        assert_eq!(l.on_image(newer.clone(), 2), Effects::default());
        assert_eq!(
            l.high_watermark(),
            10,
            "3 joined but the high watermark stays"
        );
        assert_eq!(l.isr(), &[1, 2, 3]);
        let mut older = state(&[1]);
        older.partition_epoch = 8;
        l.on_image(older, 3);
        assert_eq!(
            l.isr(),
            &[1, 2, 3],
            "an older partition epoch changes nothing"
        );
    }

    #[test]
    fn a_leader_elected_outside_the_isr_asks_for_recovered_before_anyone_joins() {
        let mut s = state(&[2]);
        s.recovering = true;
        let mut l = Leader::new(2, s, 1, LAG, 10, 0, 0);
        let p = l.on_append(10).propose.expect("RECOVERED proposed");
        assert_eq!((p.isr.clone(), p.leader_recovery_state), (vec![2], 0));
        assert_eq!(
            l.on_fetch(1, 10, 1, true).propose,
            None,
            "nobody joins while recovering"
        );
        let mut done = state(&[2]);
        done.partition_epoch = 8;
        l.on_alter_response(Ok(done));
        assert!(
            l.on_fetch(1, 10, 2, true).propose.is_some(),
            "1 joins once recovered"
        );
    }

    #[test]
    fn an_ineligible_follower_is_never_added() {
        let mut l = Leader::new(1, state(&[1, 2]), 1, LAG, 10, 10, 0);
        assert_eq!(l.on_fetch(3, 10, 1, false).propose, None, "KIP-903");
        assert!(l.on_fetch(3, 10, 2, true).propose.is_some());
    }

    #[test]
    fn a_rejoining_follower_must_reach_the_leaders_epoch_start() {
        // Became leader with a log ending at 50 but a high watermark of 30.
        let mut l = Leader::new(1, state(&[1, 2]), 1, LAG, 50, 30, 0);
        assert_eq!(
            l.on_fetch(3, 40, 1, true).propose,
            None,
            "past the hw, not the epoch start"
        );
        assert!(l.on_fetch(3, 50, 2, true).propose.is_some());
    }
}
