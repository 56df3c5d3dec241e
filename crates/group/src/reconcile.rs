//! KIP-848 reconciliation: how a consumer-protocol member moves from the partitions it has
//! towards the group's target assignment, one heartbeat at a time, without two members ever
//! holding a partition together. A member first gives up (revokes) what the target takes
//! from it, keeping its epoch until its client says it no longer owns those partitions; then
//! it moves to the target epoch and gets the new partitions that no other member still holds
//! (the others follow as they are released).
//!
//! Pure functions: the coordinator keeps the members and the partition owners (Kafka's
//! `CurrentAssignmentBuilder` and partition epochs). Not served yet (issue 25).

use crate::assignors::TopicId;
use std::collections::{BTreeMap, BTreeSet};

/// Partitions by topic.
pub type Partitions = BTreeMap<TopicId, BTreeSet<i32>>;

/// Where a member stands in its reconciliation.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum MemberState {
    /// It has its target assignment, at the target epoch.
    #[default]
    Stable,
    /// It was asked to revoke partitions and has not confirmed it did.
    UnrevokedPartitions,
    /// It is at the target epoch, waiting for partitions other members still hold.
    UnreleasedPartitions,
}

/// A member's reconciliation state.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Reconciled {
    /// Its epoch.
    pub member_epoch: i32,
    /// Its epoch before the last change (a heartbeat whose answer was lost still carries it).
    pub previous_member_epoch: i32,
    /// Its state.
    pub state: MemberState,
    /// The partitions it is assigned (what its client may consume).
    pub assigned: Partitions,
    /// The partitions it must give up before it gets new ones.
    pub pending_revocation: Partitions,
}

impl Reconciled {
    /// A member joining at epoch 0 with nothing.
    pub fn new() -> Reconciled {
        Reconciled::default()
    }

    /// Every partition it holds (assigned or still to revoke): no other member may get one.
    pub fn held(&self) -> impl Iterator<Item = (TopicId, i32)> + '_ {
        self.assigned
            .iter()
            .chain(self.pending_revocation.iter())
            .flat_map(|(t, ps)| ps.iter().map(move |p| (*t, *p)))
    }

    fn with_epoch(&self, epoch: i32) -> (i32, i32) {
        if epoch == self.member_epoch {
            (self.member_epoch, self.previous_member_epoch)
        } else {
            (epoch, self.member_epoch)
        }
    }
}

/// True when the client still owns one of `partitions` (unknown ownership counts as owning).
fn still_owns(owned: Option<&Partitions>, partitions: &Partitions) -> bool {
    let Some(owned) = owned else {
        return true;
    };
    partitions.iter().any(|(t, ps)| {
        owned
            .get(t)
            .is_some_and(|o| ps.iter().any(|p| o.contains(p)))
    })
}

/// The member's next state, given the group's target assignment for it at `target_epoch`,
/// the partitions its client says it owns (None: it did not say) and `held_by_other`, true
/// for a partition another member still holds.
pub fn reconcile(
    member: &Reconciled,
    target_epoch: i32,
    target: &Partitions,
    owned: Option<&Partitions>,
    held_by_other: impl Fn(TopicId, i32) -> bool,
) -> Reconciled {
    match member.state {
        MemberState::Stable if member.member_epoch == target_epoch => {
            // Nothing to do unless partitions it waited for (none when Stable) came free.
            member.clone()
        }
        MemberState::UnrevokedPartitions => {
            if still_owns(owned, &member.pending_revocation) {
                return member.clone();
            }
            // Revoked: on to the next epoch (at most the target), towards the target.
            let epoch = (member.member_epoch + 1).min(target_epoch);
            next(member, epoch, target_epoch, target, owned, &held_by_other)
        }
        _ => next(
            member,
            member.member_epoch,
            target_epoch,
            target,
            owned,
            &held_by_other,
        ),
    }
}

/// The step from `member`'s assignment towards `target` (Kafka's `computeNextAssignment`).
fn next(
    member: &Reconciled,
    epoch: i32,
    target_epoch: i32,
    target: &Partitions,
    owned: Option<&Partitions>,
    held_by_other: &impl Fn(TopicId, i32) -> bool,
) -> Reconciled {
    let mut kept = Partitions::new();
    let mut revoke = Partitions::new();
    let mut gained = Partitions::new();
    let mut unreleased = false;
    let topics: BTreeSet<TopicId> = target
        .keys()
        .chain(member.assigned.keys())
        .copied()
        .collect();
    let none = BTreeSet::new();
    for t in topics {
        let want = target.get(&t).unwrap_or(&none);
        let have = member.assigned.get(&t).unwrap_or(&none);
        let k: BTreeSet<i32> = want.intersection(have).copied().collect();
        let r: BTreeSet<i32> = have.difference(want).copied().collect();
        let mut g = BTreeSet::new();
        for p in want.difference(have) {
            if held_by_other(t, *p) {
                unreleased = true;
            } else {
                g.insert(*p);
            }
        }
        for (map, set) in [(&mut kept, k), (&mut revoke, r), (&mut gained, g)] {
            if !set.is_empty() {
                map.insert(t, set);
            }
        }
    }
    if !revoke.is_empty() && still_owns(owned, &revoke) {
        // Give up first: same epoch, only what it keeps, until the client confirms.
        let (member_epoch, previous_member_epoch) = member.with_epoch(epoch);
        return Reconciled {
            member_epoch,
            previous_member_epoch,
            state: MemberState::UnrevokedPartitions,
            assigned: kept,
            pending_revocation: revoke,
        };
    }
    let mut assigned = kept;
    for (t, ps) in gained {
        assigned.entry(t).or_default().extend(ps);
    }
    let (member_epoch, previous_member_epoch) = member.with_epoch(target_epoch);
    Reconciled {
        member_epoch,
        previous_member_epoch,
        state: if unreleased {
            MemberState::UnreleasedPartitions
        } else {
            MemberState::Stable
        },
        assigned,
        pending_revocation: Partitions::new(),
    }
}

/// Whether a heartbeat at `sent_epoch` from a client owning `owned` is the member's: its
/// epoch, or its previous one when the answer that moved it was lost and the client owns
/// nothing it was not given (Kafka's FENCED_MEMBER_EPOCH otherwise).
pub fn epoch_accepted(member: &Reconciled, sent_epoch: i32, owned: Option<&Partitions>) -> bool {
    if sent_epoch == member.member_epoch {
        return true;
    }
    sent_epoch == member.previous_member_epoch
        && owned.is_some_and(|o| {
            o.iter()
                .all(|(t, ps)| member.assigned.get(t).is_some_and(|a| ps.is_subset(a)))
        })
}
