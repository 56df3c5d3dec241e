//! The follower's side: where to truncate when the leader answers a fetch with a diverging
//! epoch (KIP-320), as Kafka's fetcher does. The follower looks up its own end offset for the
//! leader's epoch and cuts at the smaller of that and the leader's end offset; when its epoch
//! there differs from the leader's, the next fetch (with the follower's new last epoch) is
//! checked again, so a tail diverging across several epochs is cut back one epoch at a time
//! until both logs agree.

pub use fjord_log::epoch::UNDEFINED_EPOCH;
use fjord_log::epoch::{assign_entry, end_offset_for_epoch, EpochEntry};

/// Where a follower truncates, and whether that settles the divergence.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Truncation {
    /// The offset to truncate to (the new log end offset).
    pub offset: i64,
    /// True when the follower's log now agrees with the leader's up to `offset`; false when
    /// the next fetch must be checked again.
    pub complete: bool,
}

/// The truncation for a diverging epoch `(leader_epoch, leader_end_offset)` from the leader,
/// given the follower's log end offset and its own `(epoch, end offset)` for `leader_epoch`
/// (its largest epoch at or below it, as OffsetForLeaderEpoch answers; epoch -1 when it has
/// none).
pub fn truncation_offset(
    leader_epoch: i32,
    leader_end_offset: i64,
    log_end_offset: i64,
    local_for_epoch: (i32, i64),
) -> Truncation {
    let (local_epoch, local_end) = local_for_epoch;
    if local_epoch == UNDEFINED_EPOCH {
        // The follower holds nothing written in that epoch or before: keep what is below the
        // leader's end offset of it.
        return Truncation {
            offset: leader_end_offset.min(log_end_offset).max(0),
            complete: true,
        };
    }
    Truncation {
        offset: leader_end_offset.min(local_end).min(log_end_offset).max(0),
        complete: local_epoch == leader_epoch,
    }
}

/// The leader's side of a follower fetch (KIP-320), as the broker's fetch handler answers:
/// `leader_end_for_last` is the leader's OffsetForLeaderEpoch answer for the follower's
/// `last_fetched_epoch`. `Some((epoch, end offset))` is the diverging epoch to send back when
/// the leader holds no such epoch or it ends before `fetch_offset`; `None` when the fetch may
/// go on (also when the follower gave no epoch).
pub fn diverging_epoch(
    leader_end_for_last: (i32, i64),
    last_fetched_epoch: i32,
    fetch_offset: i64,
) -> Option<(i32, i64)> {
    if last_fetched_epoch < 0 {
        return None;
    }
    let (epoch, end) = leader_end_for_last;
    (epoch < last_fetched_epoch || end < fetch_offset).then_some((epoch, end))
}

/// One replica's log as the truncation rules see it: its leader-epoch entries (oldest first)
/// and its log end offset.
#[derive(Debug, Clone, Copy)]
pub struct EpochLog<'a> {
    /// The leader-epoch cache, oldest first.
    pub entries: &'a [EpochEntry],
    /// The log end offset.
    pub log_end_offset: i64,
}

/// Where a follower's log ends once it has followed a new leader elected at `new_epoch`
/// (above every epoch either log holds), worked out on paper from the two logs' epoch
/// entries: the new leader records `new_epoch` at its log end, then each follower fetch is
/// answered as [`diverging_epoch`] answers and cut as [`truncation_offset`] cuts, round after
/// round, until a fetch is accepted. The follower truncates `log_end_offset - result` records.
/// These are the very functions the broker's fetch handler and replica fetcher run.
pub fn truncation_after_election(
    leader: EpochLog<'_>,
    new_epoch: i32,
    follower: EpochLog<'_>,
) -> i64 {
    let mut leader_entries = leader.entries.to_vec();
    assign_entry(&mut leader_entries, new_epoch, leader.log_end_offset);
    let mut entries = follower.entries.to_vec();
    let mut leo = follower.log_end_offset;
    // Each round cuts at least one record or settles: bounded by the follower's epochs.
    for _ in 0..=follower.entries.len() + 1 {
        let last = entries.last().map_or(UNDEFINED_EPOCH, |e| e.epoch);
        let answer = end_offset_for_epoch(&leader_entries, last, leader.log_end_offset);
        let Some((epoch, end)) = diverging_epoch(answer, last, leo) else {
            break;
        };
        if epoch < 0 {
            // The broker's fetcher ignores an undefined diverging epoch.
            break;
        }
        let local = end_offset_for_epoch(&entries, epoch, leo);
        let t = truncation_offset(epoch, end, leo, local);
        if t.offset >= leo {
            // Nothing to cut: the broker would fetch again with the same answer.
            break;
        }
        leo = t.offset;
        entries.retain(|e| e.start_offset < leo);
    }
    leo
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_follower_with_an_old_leaders_extra_records_cuts_them() {
        // Leader: epoch 1 ended at 10. Follower wrote epoch 1 up to 14.
        let t = truncation_offset(1, 10, 14, (1, 14));
        assert_eq!(
            t,
            Truncation {
                offset: 10,
                complete: true
            }
        );
    }

    #[test]
    fn a_tail_of_an_epoch_the_leader_never_saw_is_cut_to_the_earlier_epoch() {
        // Leader's epoch 2 ended at 8; the follower has no epoch 2 (its epoch 1 ends at 12).
        let t = truncation_offset(2, 8, 12, (1, 12));
        assert_eq!(
            t,
            Truncation {
                offset: 8,
                complete: false
            }
        );
        // The follower's epoch 1 ends before the leader's end: cut there, then ask again.
        let t = truncation_offset(2, 8, 12, (1, 5));
        assert_eq!(t.offset, 5);
        assert!(!t.complete);
    }

    /// The end of `epoch` in a log with `epochs` ((epoch, start) ascending) ending at `leo`,
    /// as OffsetForLeaderEpoch answers.
    fn end_for(epochs: &[(i32, i64)], leo: i64, epoch: i32) -> (i32, i64) {
        match epochs.iter().rposition(|(e, _)| *e <= epoch) {
            None => (UNDEFINED_EPOCH, -1),
            Some(i) => (epochs[i].0, epochs.get(i + 1).map_or(leo, |n| n.1)),
        }
    }

    #[test]
    fn two_leader_changes_with_divergent_tails_settle_in_two_rounds() {
        // The leader wrote epoch 0 to 5, epoch 2 to 9, epoch 4 since (log end 12). The
        // follower was in epoch 0 to 5, then took epoch 1 (to 7) and epoch 3 (to 11) from
        // leaders whose records never committed.
        let leader = [(0, 0), (2, 5), (4, 9)];
        let mut follower = vec![(0, 0), (1, 5), (3, 7)];
        let mut leo = 11;
        let mut rounds = 0;
        loop {
            rounds += 1;
            let last = follower.last().unwrap().0;
            let (epoch, end) = end_for(&leader, 12, last);
            if epoch == last && end >= leo {
                break; // no divergence: fetching goes on from `leo`
            }
            let t = truncation_offset(epoch, end, leo, end_for(&follower, leo, epoch));
            leo = t.offset;
            follower.retain(|(_, start)| *start < leo);
            assert!(rounds < 5, "truncation settles");
        }
        assert_eq!(leo, 5, "cut back to where both logs agree");
        assert_eq!(follower, vec![(0, 0)]);
        assert_eq!(rounds, 3, "two cuts, then a fetch that agrees");
    }

    #[test]
    fn nothing_at_or_below_the_epoch_keeps_what_lies_below_the_leaders_end() {
        assert_eq!(truncation_offset(3, 4, 9, (UNDEFINED_EPOCH, -1)).offset, 4);
        assert_eq!(truncation_offset(3, 40, 9, (UNDEFINED_EPOCH, -1)).offset, 9);
    }
}
