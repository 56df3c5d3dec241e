//! Warm-up tasks: how a streams group gets from what its members run now to the assignor's
//! target without stalling a stateful task while its new owner restores the state.
//!
//! A stateful active task that the target moves to a member whose process is not caught up
//! on it (its lag above `acceptable.recovery.lag`, or unknown) stays with the member that runs
//! it now, and the new owner gets it as a warm-up task: it restores the changelog in the
//! background. Once the new owner's process reports a lag within the bound, the next
//! refinement hands the task over. `num.warmup.replicas` bounds the warm-ups the group runs
//! at once; a task beyond the budget waits with its current owner until a warm-up finishes.
//! Stateless tasks, and tasks whose new owner shares the current owner's process (the state
//! is already there), move at once.
//!
//! The refinement is a pure function, recomputed whenever members report offsets or the
//! target changes; it is never stored (the stored target and current assignments are the
//! state, as in Kafka's design).

use super::assignor::{TaskId, Tasks};
use std::collections::{BTreeMap, BTreeSet};

/// What the refinement knows of one member.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Member {
    /// Its process.
    pub process: String,
    /// The active tasks it runs now.
    pub active: BTreeSet<TaskId>,
}

/// The intermediate assignment the members converge to: the target where the state is
/// ready, warm-ups where it is not. `lag` gives a process's lag on a task (None: unknown,
/// taken as not caught up); `stateful` tells whether a task keeps state.
pub fn refine(
    target: &BTreeMap<String, Tasks>,
    members: &BTreeMap<String, Member>,
    lag: impl Fn(&str, &TaskId) -> Option<i64>,
    stateful: impl Fn(&TaskId) -> bool,
    warmups: usize,
    acceptable_lag: i64,
) -> BTreeMap<String, Tasks> {
    let mut out = target.clone();
    if warmups == 0 {
        return out;
    }
    // Who runs each task now (the first by member id if two do, mid-handover).
    let mut running: BTreeMap<&TaskId, &str> = BTreeMap::new();
    for (id, m) in members.iter().rev() {
        for t in &m.active {
            running.insert(t, id);
        }
    }
    let mut budget = warmups;
    for (new_owner, tasks) in target {
        let Some(new_process) = members.get(new_owner).map(|m| m.process.as_str()) else {
            continue;
        };
        for task in &tasks.active {
            let Some(current) = running.get(task).copied() else {
                continue;
            };
            let current_process = members[current].process.as_str();
            let ready = lag(new_process, task).is_some_and(|l| l <= acceptable_lag);
            if current == new_owner
                || current_process == new_process
                || !stateful(task)
                || ready
                || !target.contains_key(current)
            {
                continue;
            }
            // Stays with its current owner; the new owner warms up while budget lasts.
            out.get_mut(new_owner)
                .expect("a target member")
                .active
                .remove(task);
            let keeper = out.get_mut(current).expect("a target member");
            keeper.standby.remove(task);
            keeper.active.insert(task.clone());
            if budget > 0 {
                budget -= 1;
                let warm = out.get_mut(new_owner).expect("a target member");
                warm.standby.remove(task);
                warm.warmup.insert(task.clone());
            }
        }
    }
    // A process holds a task once: drop standbys that now share a process with the task's
    // active or warm-up copy.
    let process_of = |m: &str| members.get(m).map(|x| x.process.clone());
    let mut taken: BTreeSet<(TaskId, Option<String>)> = BTreeSet::new();
    for (m, t) in &out {
        for task in t.active.iter().chain(&t.warmup) {
            taken.insert((task.clone(), process_of(m)));
        }
    }
    for (m, t) in out.iter_mut() {
        let mine = process_of(m);
        t.standby
            .retain(|task| !taken.contains(&(task.clone(), mine.clone())));
    }
    out
}
