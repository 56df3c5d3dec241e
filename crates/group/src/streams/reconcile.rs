//! How a streams-group member moves from the tasks it has towards its target, one heartbeat
//! at a time (Kafka's streams `CurrentAssignmentBuilder`): it first gives up (revokes) the
//! active, standby and warm-up tasks the target takes from it, keeping its epoch until its
//! client says it no longer runs them; then it moves to the target epoch and gets the new
//! tasks that are free. An active task is free when no other member holds it as active; any
//! task is free for a member only when no other member of its process holds it (a process
//! runs a task once). Tasks not yet free follow as they are released.

use super::assignor::{TaskId, Tasks};
use std::collections::{BTreeMap, BTreeSet};

/// Where a member stands (its value in the current-assignment record).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum MemberState {
    /// At its target, at the target epoch (0).
    #[default]
    Stable,
    /// Asked to revoke tasks, not yet confirmed (1).
    UnrevokedTasks,
    /// At the target epoch, waiting for tasks others still hold (2).
    UnreleasedTasks,
}

impl MemberState {
    /// Its code in `StreamsGroupCurrentMemberAssignmentValue.State`.
    pub fn code(self) -> i8 {
        match self {
            MemberState::Stable => 0,
            MemberState::UnrevokedTasks => 1,
            MemberState::UnreleasedTasks => 2,
        }
    }

    /// The state of a stored code (an unknown one reads as Stable).
    pub fn from_code(code: i8) -> MemberState {
        match code {
            1 => MemberState::UnrevokedTasks,
            2 => MemberState::UnreleasedTasks,
            _ => MemberState::Stable,
        }
    }

    /// Its name as StreamsGroupDescribe shows it.
    pub fn name(self) -> &'static str {
        match self {
            MemberState::Stable => "STABLE",
            MemberState::UnrevokedTasks => "UNREVOKED_TASKS",
            MemberState::UnreleasedTasks => "UNRELEASED_TASKS",
        }
    }
}

/// A member's reconciliation state.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Current {
    /// Its epoch.
    pub member_epoch: i32,
    /// Its epoch before the last change (a heartbeat whose answer was lost carries it).
    pub previous_member_epoch: i32,
    /// Its state.
    pub state: MemberState,
    /// The tasks it is assigned.
    pub assigned: Tasks,
    /// The tasks it must give up before it gets new ones.
    pub revoking: Tasks,
    /// The member epoch each of its active tasks (assigned or being revoked) was given at,
    /// which a commit at an older member epoch must reach (Kafka 4.4's assignment epochs);
    /// a task missing here was given at `member_epoch`.
    pub active_epochs: BTreeMap<TaskId, i32>,
}

impl Current {
    /// The epoch an active task (assigned or being revoked) was given at; None when the
    /// member holds no such task.
    pub fn active_epoch(&self, task: &TaskId) -> Option<i32> {
        let held = self.assigned.active.contains(task) || self.revoking.active.contains(task);
        held.then(|| {
            self.active_epochs
                .get(task)
                .copied()
                .unwrap_or(self.member_epoch)
        })
    }
}

/// What a member's client says it runs (None: it did not say, so it still runs what it had).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Owned {
    /// Active tasks, if sent.
    pub active: Option<BTreeSet<TaskId>>,
    /// Standby tasks, if sent.
    pub standby: Option<BTreeSet<TaskId>>,
    /// Warm-up tasks, if sent.
    pub warmup: Option<BTreeSet<TaskId>>,
}

impl Owned {
    /// True when the client may still run one of `tasks`.
    fn still_runs(&self, tasks: &Tasks) -> bool {
        let any = |owned: &Option<BTreeSet<TaskId>>, set: &BTreeSet<TaskId>| {
            !set.is_empty() && owned.as_ref().is_none_or(|o| !o.is_disjoint(set))
        };
        any(&self.active, &tasks.active)
            || any(&self.standby, &tasks.standby)
            || any(&self.warmup, &tasks.warmup)
    }

    /// True when everything it says it runs is in `assigned`.
    fn within(&self, assigned: &Tasks) -> bool {
        let sub = |owned: &Option<BTreeSet<TaskId>>, set: &BTreeSet<TaskId>| {
            owned.as_ref().is_some_and(|o| o.is_subset(set))
        };
        sub(&self.active, &assigned.active)
            && sub(&self.standby, &assigned.standby)
            && sub(&self.warmup, &assigned.warmup)
    }
}

/// Who else holds a task: as active anywhere, or in any role on the member's process.
pub trait Holders {
    /// True when another member holds `task` as active (assigned or being revoked).
    fn active_elsewhere(&self, task: &TaskId) -> bool;
    /// True when another member of this member's process holds `task` in any role.
    fn on_my_process(&self, task: &TaskId) -> bool;
}

/// The member's next state, given its target tasks at `target_epoch` and what its client
/// says it runs.
pub fn reconcile(
    member: &Current,
    target_epoch: i32,
    target: &Tasks,
    owned: &Owned,
    holders: &impl Holders,
) -> Current {
    match member.state {
        MemberState::Stable if member.member_epoch == target_epoch => member.clone(),
        MemberState::UnrevokedTasks => {
            if owned.still_runs(&member.revoking) {
                return member.clone();
            }
            next(member, target_epoch, target, owned, holders)
        }
        _ => next(member, target_epoch, target, owned, holders),
    }
}

fn next(
    member: &Current,
    target_epoch: i32,
    target: &Tasks,
    owned: &Owned,
    holders: &impl Holders,
) -> Current {
    let have = &member.assigned;
    let keep = |want: &BTreeSet<TaskId>, have: &BTreeSet<TaskId>| -> BTreeSet<TaskId> {
        want.intersection(have).cloned().collect()
    };
    let drop = |want: &BTreeSet<TaskId>, have: &BTreeSet<TaskId>| -> BTreeSet<TaskId> {
        have.difference(want).cloned().collect()
    };
    let revoke = Tasks {
        active: drop(&target.active, &have.active),
        standby: drop(&target.standby, &have.standby),
        warmup: drop(&target.warmup, &have.warmup),
    };
    let kept = Tasks {
        active: keep(&target.active, &have.active),
        standby: keep(&target.standby, &have.standby),
        warmup: keep(&target.warmup, &have.warmup),
    };
    // Every active task it keeps (or still has to give up) keeps the epoch it was given at.
    let held_since = |t: &TaskId| member.active_epoch(t).map(|e| (t.clone(), e));
    if revoke != Tasks::default() && owned.still_runs(&revoke) {
        let active_epochs = kept
            .active
            .iter()
            .chain(&revoke.active)
            .filter_map(held_since)
            .collect();
        return Current {
            member_epoch: member.member_epoch,
            previous_member_epoch: member.previous_member_epoch,
            state: MemberState::UnrevokedTasks,
            assigned: kept,
            revoking: revoke,
            active_epochs,
        };
    }
    let mut assigned = kept;
    let mut unreleased = false;
    for t in target.active.difference(&have.active) {
        if holders.active_elsewhere(t) || holders.on_my_process(t) {
            unreleased = true;
        } else {
            assigned.active.insert(t.clone());
        }
    }
    for (want, have, into) in [
        (&target.standby, &have.standby, &mut assigned.standby),
        (&target.warmup, &have.warmup, &mut assigned.warmup),
    ] {
        for t in want.difference(have) {
            if holders.on_my_process(t) {
                unreleased = true;
            } else {
                into.insert(t.clone());
            }
        }
    }
    let (member_epoch, previous_member_epoch) = if target_epoch == member.member_epoch {
        (member.member_epoch, member.previous_member_epoch)
    } else {
        (target_epoch, member.member_epoch)
    };
    // A task it already ran keeps its epoch; a new one is given at the new member epoch.
    let active_epochs = assigned
        .active
        .iter()
        .map(|t| held_since(t).unwrap_or_else(|| (t.clone(), member_epoch)))
        .collect();
    Current {
        member_epoch,
        previous_member_epoch,
        state: if unreleased {
            MemberState::UnreleasedTasks
        } else {
            MemberState::Stable
        },
        assigned,
        revoking: Tasks::default(),
        active_epochs,
    }
}

/// Whether a heartbeat at `sent_epoch` is the member's: its epoch, or its previous one when
/// the answer that moved it was lost and the client runs nothing it was not given.
pub fn epoch_accepted(member: &Current, sent_epoch: i32, owned: &Owned) -> bool {
    sent_epoch == member.member_epoch
        || (sent_epoch == member.previous_member_epoch && owned.within(&member.assigned))
}

#[cfg(test)]
mod tests {
    use super::*;

    struct Nobody;
    impl Holders for Nobody {
        fn active_elsewhere(&self, _: &TaskId) -> bool {
            false
        }
        fn on_my_process(&self, _: &TaskId) -> bool {
            false
        }
    }

    struct Busy(TaskId);
    impl Holders for Busy {
        fn active_elsewhere(&self, t: &TaskId) -> bool {
            *t == self.0
        }
        fn on_my_process(&self, _: &TaskId) -> bool {
            false
        }
    }

    fn tasks(active: &[i32], standby: &[i32]) -> Tasks {
        Tasks {
            active: active.iter().map(|p| ("0".to_string(), *p)).collect(),
            standby: standby.iter().map(|p| ("0".to_string(), *p)).collect(),
            warmup: BTreeSet::new(),
        }
    }

    fn owned(t: &Tasks) -> Owned {
        Owned {
            active: Some(t.active.clone()),
            standby: Some(t.standby.clone()),
            warmup: Some(t.warmup.clone()),
        }
    }

    #[test]
    fn revokes_before_it_assigns_and_waits_for_released_tasks() {
        let m = Current {
            member_epoch: 1,
            previous_member_epoch: 0,
            assigned: tasks(&[0, 1], &[2]),
            ..Default::default()
        };
        // The target takes active 1 and standby 2, gives active 3.
        let target = tasks(&[0, 3], &[]);
        let r = reconcile(&m, 2, &target, &owned(&m.assigned), &Nobody);
        assert_eq!(r.state, MemberState::UnrevokedTasks);
        assert_eq!(r.member_epoch, 1, "no new epoch before the revocation");
        assert_eq!(r.assigned, tasks(&[0], &[]));
        assert_eq!(r.revoking, tasks(&[1], &[2]));
        // Still running them: no change. Given up: the target epoch, and 3 unless held.
        assert_eq!(reconcile(&r, 2, &target, &owned(&m.assigned), &Nobody), r);
        let released = reconcile(&r, 2, &target, &owned(&r.assigned), &Busy(("0".into(), 3)));
        assert_eq!(
            (
                released.state,
                released.member_epoch,
                released.previous_member_epoch
            ),
            (MemberState::UnreleasedTasks, 2, 1)
        );
        assert_eq!(released.assigned, tasks(&[0], &[]));
        let done = reconcile(&released, 2, &target, &owned(&released.assigned), &Nobody);
        assert_eq!(
            (done.state, done.assigned.clone()),
            (MemberState::Stable, target)
        );
        // A lost answer: the previous epoch is accepted while it runs nothing new.
        assert!(epoch_accepted(&done, 1, &owned(&tasks(&[0], &[]))));
        assert!(!epoch_accepted(&done, 1, &owned(&tasks(&[1], &[]))));
        assert!(!epoch_accepted(&done, 0, &owned(&tasks(&[], &[]))));
    }
}
