//! Unclean recovery's rule: the best replica of an offline partition and what electing it
//! costs, by docs/EXTENSIONS.md (`kafka-unclean-recovery` prints it; the recovery simulation
//! checks it against a model). Only what each replica's own log reports is ranked: among replicas that
//! answered without error on unfenced brokers, the highest last written leader epoch (-1, an
//! empty log or one with no epoch, ranks below every real epoch), then the longest log, then a
//! member of the last known ELR or ISR, then the lowest broker id. The partition's current
//! leader epoch is shown, never ranked. The cost is worked out on paper with the follower's
//! own truncation rules ([`crate::follower::truncation_after_election`]): for every
//! other answering replica, the records it cuts when it follows the choice, and the offsets it
//! would give out a second time (a partition's offsets must never go backwards: a chosen log
//! that ends below another replica's log start or high watermark reuses offsets that replica
//! already gave out). Pure, so it is tested case by case and run by the recovery simulation.

use crate::follower::{truncation_after_election, EpochLog};
use fjord_log::epoch::EpochEntry;
use std::cmp::Ordering;

/// The most leader-epoch entries a broker reports per replica (docs/EXTENSIONS.md); a list
/// this long may have lost older entries.
pub const MAX_EPOCH_ENTRIES: usize = 100;

/// What one replica's broker said, or why it said nothing.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ReplicaState {
    /// GetReplicaLogInfo answered for this partition without error.
    Answered(LogInfo),
    /// The broker is registered but fenced: not eligible, not asked.
    Fenced,
    /// The broker is not registered.
    NotRegistered,
    /// No answer before the deadline; the last failure.
    Unreachable(String),
    /// The broker answered with an error for this partition ("NAME: message"), final.
    Error(String),
}

impl ReplicaState {
    /// The word the table shows.
    pub fn label(&self) -> &'static str {
        match self {
            ReplicaState::Answered(_) => "answered",
            ReplicaState::Fenced => "fenced",
            ReplicaState::NotRegistered => "unregistered",
            ReplicaState::Unreachable(_) => "unreachable",
            ReplicaState::Error(_) => "error",
        }
    }
}

/// A replica's log, as GetReplicaLogInfo reports it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LogInfo {
    /// The broker's view of the partition's leader epoch: shown, never ranked.
    pub leader_epoch: i32,
    /// The newest epoch in the replica's leader-epoch cache, -1 if absent (no epoch entry).
    pub last_written_epoch: i32,
    /// The log end offset.
    pub log_end_offset: i64,
    /// The last high watermark the replica knew, -1 if absent.
    pub high_watermark: i64,
    /// The log start offset, -1 if absent.
    pub log_start_offset: i64,
    /// The leader-epoch entries, oldest first (at most the newest [`MAX_EPOCH_ENTRIES`]).
    pub epochs: Vec<EpochEntry>,
    /// What tiered storage holds of the partition against this replica's history, as its
    /// broker's remote log metadata knows it; `None` without tiered storage.
    pub remote: Option<RemoteView>,
}

/// What tiered storage holds of a partition, seen against one replica's history. Everything
/// there was committed (only records below the high watermark are copied).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct RemoteView {
    /// The offset after the last record the store holds, of any history.
    pub end_offset: i64,
    /// The offsets the store holds that the replica's history does not share, as half-open
    /// ranges in order: lost from the store if it is elected.
    pub unshared: Vec<(i64, i64)>,
}

impl LogInfo {
    /// What the rule ranks, best last: (last written epoch, log end offset).
    fn rank(&self) -> (i32, i64) {
        (self.last_written_epoch.max(-1), self.log_end_offset)
    }

    fn as_epoch_log(&self) -> EpochLog<'_> {
        EpochLog {
            entries: &self.epochs,
            log_end_offset: self.log_end_offset,
        }
    }
}

/// The chosen replica and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Choice {
    /// The broker to designate.
    pub broker: i32,
    /// Its log.
    pub log: LogInfo,
    /// Why it won, for the table.
    pub reason: String,
}

/// The answering replicas, in the order given.
fn answered(replicas: &[(i32, ReplicaState)]) -> Vec<(i32, &LogInfo)> {
    replicas
        .iter()
        .filter_map(|(b, s)| match s {
            ReplicaState::Answered(l) => Some((*b, l)),
            _ => None,
        })
        .collect()
}

/// Orders two answering replicas by the rule: `Greater` when `a` is the better choice.
/// `last_known` holds the members of the last known ELR and ISR.
pub fn compare(a: (i32, &LogInfo), b: (i32, &LogInfo), last_known: &[i32]) -> Ordering {
    a.1.rank()
        .cmp(&b.1.rank())
        .then_with(|| last_known.contains(&a.0).cmp(&last_known.contains(&b.0)))
        .then_with(|| b.0.cmp(&a.0))
}

fn epoch_text(epoch: i32) -> String {
    if epoch < 0 {
        "no epoch (empty log)".into()
    } else {
        format!("last written epoch {epoch}")
    }
}

/// Why `loser` ranks below `winner`, in the table's words.
pub fn why_lost(winner: (i32, &LogInfo), loser: (i32, &LogInfo), last_known: &[i32]) -> String {
    let (w, l) = (winner.1, loser.1);
    if l.last_written_epoch.max(-1) != w.last_written_epoch.max(-1) {
        if l.last_written_epoch < 0 {
            return "lost: no epoch (empty log)".into();
        }
        return format!(
            "lost: {} < {}",
            epoch_text(l.last_written_epoch),
            w.last_written_epoch
        );
    }
    if l.log_end_offset != w.log_end_offset {
        return format!(
            "lost: shorter log ({} < {}) at the same epoch",
            l.log_end_offset, w.log_end_offset
        );
    }
    if last_known.contains(&winner.0) && !last_known.contains(&loser.0) {
        return "lost: tied, and not in the last known ELR or ISR".into();
    }
    "lost: tied, higher broker id".into()
}

/// Picks the best replica among `replicas` (broker id, state); `last_known` holds the members
/// of the last known ISR and ELR. `None` when no replica answered.
pub fn choose(replicas: &[(i32, ReplicaState)], last_known: &[i32]) -> Option<Choice> {
    let answered = answered(replicas);
    let (broker, log) = *answered
        .iter()
        .max_by(|a, b| compare(**a, **b, last_known))?;
    let others: Vec<(i32, &LogInfo)> = answered
        .iter()
        .copied()
        .filter(|(b, _)| *b != broker)
        .collect();
    let (epoch, leo) = log.rank();
    let reason = if others.is_empty() {
        format!(
            "the only replica that answered ({}, log end offset {leo})",
            epoch_text(epoch)
        )
    } else if others.iter().all(|(_, l)| l.rank().0 < epoch) {
        format!("highest last written leader epoch ({epoch})")
    } else if others.iter().all(|(_, l)| l.rank() < (epoch, leo)) {
        format!(
            "longest log (log end offset {leo}) at {}",
            epoch_text(epoch)
        )
    } else if last_known.contains(&broker)
        && others
            .iter()
            .filter(|(_, l)| l.rank() == (epoch, leo))
            .all(|(b, _)| !last_known.contains(b))
    {
        format!(
            "in the last known ELR or ISR, tied on {} and log end offset {leo}",
            epoch_text(epoch)
        )
    } else {
        format!(
            "lowest broker id, tied on {} and log end offset {leo}",
            epoch_text(epoch)
        )
    };
    Some(Choice {
        broker,
        log: log.clone(),
        reason,
    })
}

/// What one answering replica loses when it follows the choice.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Truncation {
    /// The broker.
    pub broker: i32,
    /// Where its log will end after following the new leader; `None` when it cannot be worked
    /// out (the broker reported no epoch entries for a log that has epochs).
    pub truncate_to: Option<i64>,
    /// Records cut (its log end offset minus `truncate_to`).
    pub records: Option<i64>,
    /// False when an epoch list was cut at [`MAX_EPOCH_ENTRIES`] and the divergence lies at
    /// or before its oldest entry: the figure is then a lower bound of what could be kept.
    pub exact: bool,
}

/// What an election costs, worked out before anything changes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Cost {
    /// Per other answering replica (the chosen one first, with 0), in broker order.
    pub truncations: Vec<Truncation>,
    /// Acknowledged records known to be lost: the committed offsets (below the high watermark
    /// a replica reported) that the replicas holding them will cut, counted once; at least the
    /// highest high watermark reported minus the chosen log end offset. A lower bound: what
    /// replicas that did not answer hold is unknown. `None` when none reported a high
    /// watermark.
    pub acknowledged_lost: Option<i64>,
    /// The highest high watermark reported, -1 if none.
    pub highest_high_watermark: i64,
    /// The replicas whose data is unknown (they did not answer), with why.
    pub unknown: Vec<(i32, &'static str)>,
    /// The offsets the election would give out again, `None` when it gives out none.
    pub offsets_reused: Option<OffsetReuse>,
    /// What tiered storage loses, when the chosen replica's broker reported the store.
    pub store: Option<StoreCost>,
}

/// What an election costs tiered storage: the offsets the store holds that the chosen
/// replica's history does not share (above its log start), deleted with the other history's
/// segments. Counted in [`Cost::acknowledged_lost`] too (the store holds committed records
/// only), once with whatever replicas lose at the same offsets.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StoreCost {
    /// The offset after the last one the store holds.
    pub end_offset: i64,
    /// The offsets lost, as half-open ranges.
    pub lost: Vec<(i64, i64)>,
}

impl StoreCost {
    /// How many offsets the store loses.
    pub fn lost_offsets(&self) -> i64 {
        self.lost.iter().map(|(a, b)| b - a).sum()
    }
}

/// Offsets an election would give out a second time: the chosen log ends below what another
/// answering replica already gave out for good (its log start or its high watermark).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OffsetReuse {
    /// How many offsets come again: from the chosen log end offset up to `above`.
    pub offsets: i64,
    /// The chosen log end offset: the next offset the new leader gives out.
    pub from: i64,
    /// The highest log start or high watermark another answering replica reported, or the
    /// end of what tiered storage holds.
    pub above: i64,
    /// The replica that reported it, or [`STORE`] for tiered storage.
    pub broker: i32,
    /// Of the reused offsets, how many another replica had already deleted (retention or
    /// DeleteRecords: below its log start). Their records are gone already, not by this
    /// election; only their offsets come back.
    pub deleted: i64,
    /// Records the chosen replica holds that another replica's retention had deleted
    /// (`[from, to)`), readable again after the election; `None` when there are none.
    pub readable_again: Option<(i64, i64)>,
}

/// The broker id [`OffsetReuse`] names when tiered storage gave the offsets out.
pub const STORE: i32 = -1;

/// What electing `leader` reuses among the other answering replicas `others` and tiered
/// storage (whose records were all committed: its end was given out for good).
fn offset_reuse(leader: &LogInfo, others: &[(i32, &LogInfo)]) -> Option<OffsetReuse> {
    let from = leader.log_end_offset;
    let store = leader.remote.as_ref().map(|r| (STORE, r.end_offset));
    let (broker, above) = others
        .iter()
        .map(|(b, l)| (*b, l.log_start_offset.max(l.high_watermark)))
        .chain(store)
        .max_by_key(|(b, above)| (*above, -b))?;
    if above <= from {
        return None;
    }
    let highest_start = others
        .iter()
        .map(|(_, l)| l.log_start_offset)
        .max()
        .unwrap_or(-1);
    let readable_again = (highest_start > leader.log_start_offset.max(0)
        && leader.log_end_offset > leader.log_start_offset.max(0))
    .then(|| {
        (
            leader.log_start_offset.max(0),
            highest_start.min(leader.log_end_offset),
        )
    });
    Some(OffsetReuse {
        offsets: above - from,
        from,
        above,
        broker,
        deleted: (highest_start - from).max(0),
        readable_again,
    })
}

impl Cost {
    /// Records all other answering replicas cut together (`None` when one is unknown).
    pub fn total_truncated(&self) -> Option<i64> {
        self.truncations.iter().map(|t| t.records).sum()
    }
}

/// The records `follower` cuts when it follows `leader` (elected above every epoch both hold).
pub fn truncation(leader: &LogInfo, follower: &LogInfo, new_epoch: i32) -> (Option<i64>, bool) {
    if follower.epochs.is_empty() && follower.last_written_epoch >= 0
        || leader.epochs.is_empty() && leader.last_written_epoch >= 0
    {
        return (None, false);
    }
    let to = truncation_after_election(leader.as_epoch_log(), new_epoch, follower.as_epoch_log());
    let cut_list = |l: &LogInfo| {
        l.epochs.len() >= MAX_EPOCH_ENTRIES
            && l.epochs.first().is_some_and(|e| to <= e.start_offset)
    };
    (Some(to), !(cut_list(leader) || cut_list(follower)))
}

/// The number of offsets in the union of the half-open ranges.
fn union_length(mut ranges: Vec<(i64, i64)>) -> i64 {
    ranges.sort_unstable();
    let (mut total, mut reach) = (0, i64::MIN);
    for (from, to) in ranges {
        let from = from.max(reach);
        if to > from {
            total += to - from;
            reach = to;
        }
    }
    total
}

/// The cost of electing `broker` among `replicas` (it must have answered).
pub fn cost(replicas: &[(i32, ReplicaState)], broker: i32) -> Cost {
    let answered = answered(replicas);
    let leader = answered
        .iter()
        .find(|(b, _)| *b == broker)
        .map(|(_, l)| *l)
        .expect("the chosen replica answered");
    // The election bumps the leader epoch above every epoch any replica knows.
    let new_epoch = answered
        .iter()
        .map(|(_, l)| l.leader_epoch.max(l.last_written_epoch))
        .max()
        .unwrap_or(0)
        .max(0)
        + 1;
    let truncations: Vec<Truncation> = answered
        .iter()
        .map(|(b, l)| {
            let (to, exact) = if *b == broker {
                (Some(l.log_end_offset), true)
            } else {
                truncation(leader, l, new_epoch)
            };
            // A cut below the log start empties the log there (records below it are gone
            // already, by retention, and are not counted).
            let to = to.map(|t| t.max(l.log_start_offset));
            Truncation {
                broker: *b,
                truncate_to: to,
                records: to.map(|t| l.log_end_offset - t),
                exact,
            }
        })
        .collect();
    let highest_high_watermark = answered
        .iter()
        .map(|(_, l)| l.high_watermark)
        .max()
        .unwrap_or(-1);
    // A record below a replica's high watermark was committed when that replica learnt it;
    // it is lost when the replica cuts it (it lies past where its log will agree with the new
    // leader's) and it is not below the new leader's log start (retention's, not the
    // election's). Offsets of committed records are counted once however many replicas held
    // them; what a replica keeps lies within the new leader's log.
    let mut lost: Vec<(i64, i64)> = truncations
        .iter()
        .filter_map(|t: &Truncation| {
            let l = answered.iter().find(|(b, _)| *b == t.broker)?.1;
            // Below the new leader's log start, retention removed them already: not a loss
            // of this election.
            let kept = t
                .truncate_to?
                .min(leader.log_end_offset)
                .max(leader.log_start_offset)
                .max(l.log_start_offset);
            let committed = l.high_watermark.min(l.log_end_offset);
            (committed > kept).then_some((kept, committed))
        })
        .collect();
    // Tiered storage holds committed records only; those the chosen history does not share
    // are deleted with their segments (below its log start, retention's, not counted).
    let store = leader.remote.as_ref().map(|r| StoreCost {
        end_offset: r.end_offset,
        lost: r
            .unshared
            .iter()
            .map(|&(a, b)| (a.max(leader.log_start_offset.max(0)), b))
            .filter(|(a, b)| a < b)
            .collect(),
    });
    let store_lost = store.as_ref().is_some_and(|s| !s.lost.is_empty());
    lost.extend(store.iter().flat_map(|s| s.lost.iter().copied()));
    let acknowledged_lost = (highest_high_watermark >= 0 || store_lost).then(|| union_length(lost));
    let unknown = replicas
        .iter()
        .filter(|(_, s)| !matches!(s, ReplicaState::Answered(_)))
        .map(|(b, s)| (*b, s.label()))
        .collect();
    let others: Vec<(i32, &LogInfo)> = answered
        .iter()
        .copied()
        .filter(|(b, _)| *b != broker)
        .collect();
    Cost {
        truncations,
        acknowledged_lost,
        highest_high_watermark,
        unknown,
        offsets_reused: offset_reuse(leader, &others),
        store,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entries(list: &[(i32, i64)]) -> Vec<EpochEntry> {
        list.iter()
            .map(|&(epoch, start_offset)| EpochEntry {
                epoch,
                start_offset,
            })
            .collect()
    }

    /// A replica whose log holds `epochs` ((epoch, start)) up to `end`, high watermark `hw`.
    fn log(epochs: &[(i32, i64)], end: i64, hw: i64) -> ReplicaState {
        ReplicaState::Answered(LogInfo {
            leader_epoch: 9,
            last_written_epoch: epochs.last().map_or(-1, |e| e.0),
            log_end_offset: end,
            high_watermark: hw,
            log_start_offset: 0,
            epochs: entries(epochs),
            remote: None,
        })
    }

    fn records(c: &Cost, broker: i32) -> Option<i64> {
        c.truncations
            .iter()
            .find(|t| t.broker == broker)
            .and_then(|t| t.records)
    }

    /// The scenario: broker 4 never fetched (empty log, no epoch), broker 3 holds 500
    /// acknowledged records written in epoch 0, both report current epoch 1. The empty log
    /// must lose, whatever the current epoch says.
    #[test]
    fn an_empty_log_never_beats_one_holding_data() {
        let r = vec![
            (2, ReplicaState::Fenced),
            (3, log(&[(0, 0)], 500, 0)),
            (4, log(&[], 0, 0)),
        ];
        let c = choose(&r, &[2]).unwrap();
        assert_eq!(c.broker, 3);
        assert_eq!(c.reason, "highest last written leader epoch (0)");
        let (three, four) = match (&r[1].1, &r[2].1) {
            (ReplicaState::Answered(a), ReplicaState::Answered(b)) => (a, b),
            _ => unreachable!(),
        };
        assert_eq!(
            why_lost((3, three), (4, four), &[2]),
            "lost: no epoch (empty log)"
        );
        let cost = cost(&r, 3);
        assert_eq!(records(&cost, 3), Some(0));
        assert_eq!(records(&cost, 4), Some(0), "an empty log cuts nothing");
        assert_eq!(cost.acknowledged_lost, Some(0));
        assert_eq!(cost.unknown, vec![(2, "fenced")]);
    }

    #[test]
    fn the_current_epoch_is_never_ranked() {
        let mut high_current = LogInfo {
            leader_epoch: 50,
            last_written_epoch: 1,
            log_end_offset: 10,
            high_watermark: -1,
            log_start_offset: 0,
            epochs: entries(&[(1, 0)]),
            remote: None,
        };
        let r = vec![
            (1, log(&[(0, 0), (2, 5)], 8, -1)),
            (2, ReplicaState::Answered(high_current.clone())),
        ];
        assert_eq!(choose(&r, &[]).unwrap().broker, 1);
        high_current.last_written_epoch = 3;
        high_current.epochs = entries(&[(3, 0)]);
        let r = vec![
            (1, log(&[(0, 0), (2, 5)], 8, -1)),
            (2, ReplicaState::Answered(high_current)),
        ];
        assert_eq!(choose(&r, &[]).unwrap().broker, 2);
    }

    #[test]
    fn epoch_beats_length_and_the_longer_log_pays_its_divergent_tail() {
        // Both wrote epoch 0 to offset 100. Broker 1 then led epoch 3 (to 500, never
        // acknowledged beyond 400); broker 2 led epoch 4 and wrote 100..150.
        let r = vec![
            (1, log(&[(0, 0), (3, 100)], 500, 400)),
            (2, log(&[(0, 0), (4, 100)], 150, 100)),
        ];
        let c = choose(&r, &[]).unwrap();
        assert_eq!(c.broker, 2);
        assert!(c.reason.contains("epoch"), "{}", c.reason);
        let cost = cost(&r, 2);
        assert_eq!(records(&cost, 1), Some(400), "broker 1 keeps 0..100 only");
        assert_eq!(
            cost.acknowledged_lost,
            Some(300),
            "broker 1 knew 100..400 committed and cuts them"
        );
        assert_eq!(cost.highest_high_watermark, 400);
    }

    #[test]
    fn length_then_last_known_then_lowest_id() {
        let r = vec![
            (1, log(&[(4, 0)], 100, 90)),
            (2, log(&[(4, 0)], 120, 90)),
            (3, log(&[(4, 0)], 90, 90)),
        ];
        let c = choose(&r, &[]).unwrap();
        assert_eq!(c.broker, 2);
        assert!(c.reason.starts_with("longest log"), "{}", c.reason);
        assert_eq!(
            records(&cost(&r, 2), 1),
            Some(0),
            "a prefix of the leader is kept"
        );
        let r = vec![
            (1, log(&[(4, 0)], 100, 90)),
            (2, log(&[(4, 0)], 100, 90)),
            (3, log(&[(4, 0)], 100, 90)),
        ];
        assert_eq!(choose(&r, &[3]).unwrap().broker, 3);
        let c = choose(&r, &[]).unwrap();
        assert_eq!(c.broker, 1);
        assert!(c.reason.contains("lowest broker id"), "{}", c.reason);
    }

    /// The scenario: broker 4 died holding 0..500 (epoch 0); brokers 2 and 3 went on
    /// to 1000, then retention emptied them (log start 1000, still epoch 0). Broker 3 must be
    /// chosen; electing broker 4 instead reuses offsets 500..1000, of which all 500 were
    /// deleted by retention already, and makes 0..500 readable again.
    #[test]
    fn a_log_emptied_by_retention_is_chosen_and_reuse_is_priced() {
        let mut emptied = LogInfo {
            leader_epoch: 1,
            last_written_epoch: 0,
            log_end_offset: 1000,
            high_watermark: 1000,
            log_start_offset: 1000,
            epochs: entries(&[(0, 1000)]),
            remote: None,
        };
        let r = vec![
            (2, ReplicaState::Fenced),
            (3, ReplicaState::Answered(emptied.clone())),
            (4, log(&[(0, 0)], 500, 400)),
        ];
        let c = choose(&r, &[2]).unwrap();
        assert_eq!(c.broker, 3, "{}", c.reason);
        assert!(c.reason.contains("longest log"), "{}", c.reason);
        let chosen = cost(&r, 3);
        assert_eq!(chosen.offsets_reused, None);
        // Broker 4 starts over at 1000: its 0..500 lie below the new leader's log start,
        // deleted there by retention already, and are not counted as the election's cut.
        assert_eq!(records(&chosen, 4), Some(0));
        assert_eq!(
            chosen.acknowledged_lost,
            Some(0),
            "retention's, not the election's"
        );
        let other = cost(&r, 4);
        assert_eq!(
            other.offsets_reused,
            Some(OffsetReuse {
                offsets: 500,
                from: 500,
                above: 1000,
                broker: 3,
                deleted: 500,
                readable_again: Some((0, 500)),
            })
        );
        assert_eq!(other.acknowledged_lost, Some(0));
        // A high watermark above the chosen end is reuse too, with nothing deleted.
        emptied.log_start_offset = 0;
        emptied.epochs = entries(&[(0, 0)]);
        emptied.log_end_offset = 1000;
        let r = vec![
            (3, ReplicaState::Answered(emptied)),
            (4, log(&[(0, 0)], 500, 400)),
        ];
        let reuse = cost(&r, 4).offsets_reused.unwrap();
        assert_eq!(
            (reuse.offsets, reuse.deleted, reuse.readable_again),
            (500, 0, None)
        );
    }

    #[test]
    fn committed_offsets_are_counted_once() {
        assert_eq!(union_length(vec![(5, 10), (0, 3), (2, 6), (20, 20)]), 10);
        assert_eq!(union_length(Vec::new()), 0);
    }

    #[test]
    fn nothing_is_guessed() {
        let r = vec![
            (1, ReplicaState::Fenced),
            (2, ReplicaState::Unreachable("refused".into())),
            (
                3,
                ReplicaState::Error("KAFKA_STORAGE_ERROR: dir offline".into()),
            ),
        ];
        assert_eq!(choose(&r, &[1]), None);
    }

    #[test]
    fn a_replica_without_epoch_entries_has_an_unknown_figure() {
        let mut old = LogInfo {
            leader_epoch: 2,
            last_written_epoch: 2,
            log_end_offset: 10,
            high_watermark: -1,
            log_start_offset: 0,
            epochs: Vec::new(),
            remote: None,
        };
        let r = vec![
            (1, log(&[(2, 0)], 12, -1)),
            (2, ReplicaState::Answered(old.clone())),
        ];
        let cost = cost(&r, 1);
        assert_eq!(records(&cost, 2), None);
        assert_eq!(cost.total_truncated(), None);
        old.epochs = entries(&[(2, 0)]);
        let r = vec![
            (1, log(&[(2, 0)], 12, -1)),
            (2, ReplicaState::Answered(old)),
        ];
        assert_eq!(super::cost(&r, 1).total_truncated(), Some(0));
    }

    #[test]
    fn what_tiered_storage_holds_past_the_chosen_history_is_lost_and_its_offsets_reused() {
        // Broker 1 reached offset 500 in epoch 3; the store holds 0..800, of which 500..800
        // (uploaded by a dead leader) broker 1's history does not share.
        let with_store = |end: i64, unshared: Vec<(i64, i64)>| {
            let ReplicaState::Answered(mut l) = log(&[(1, 0), (3, 400)], end, -1) else {
                unreachable!()
            };
            l.remote = Some(RemoteView {
                end_offset: 800,
                unshared,
            });
            ReplicaState::Answered(l)
        };
        let r = [(1, with_store(500, vec![(500, 800)]))];
        let c = super::cost(&r, 1);
        let store = c.store.clone().unwrap();
        assert_eq!(store.lost_offsets(), 300);
        assert_eq!(
            c.acknowledged_lost,
            Some(300),
            "counted though no replica reported a high watermark"
        );
        let reuse = c.offsets_reused.unwrap();
        assert_eq!((reuse.from, reuse.above, reuse.broker), (500, 800, STORE));
        // A history that shares all of it loses nothing from the store.
        let r = [(1, with_store(900, Vec::new()))];
        let c = super::cost(&r, 1);
        assert_eq!(c.store.unwrap().lost_offsets(), 0);
        assert_eq!(c.acknowledged_lost, None);
        assert!(c.offsets_reused.is_none());
        // Store offsets below the chosen log start are retention's, not the election's.
        let ReplicaState::Answered(mut l) = with_store(500, vec![(100, 200), (500, 800)]) else {
            unreachable!()
        };
        l.log_start_offset = 150;
        let c = super::cost(&[(1, ReplicaState::Answered(l))], 1);
        assert_eq!(c.store.unwrap().lost, vec![(150, 200), (500, 800)]);
        assert_eq!(c.acknowledged_lost, Some(350));
    }
}
