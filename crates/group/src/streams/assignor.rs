//! The `sticky` task assignor of streams groups (KIP-1071; Kafka 4.4's default and only
//! production assignor, `group.streams.assignors=sticky`), as a pure function of the
//! topology's tasks, the members (their processes and what they hold now) and
//! `num.standby.replicas`.
//!
//! Active tasks:
//! 1. a task stays with the member that runs it now, while that member is under its quota
//!    (the active tasks divided by the members: each gets that many, rounded down, and the
//!    remainder one more each, so counts differ by one at most);
//! 2. else it goes to a member whose process holds it as a standby (its state is there);
//! 3. else to the member of the least loaded process (load: tasks per member of the process).
//!
//! Standby tasks (stateful subtopologies only), `num.standby.replicas` copies each, never on a
//! process that already holds the task (active or standby): first the process that ran it
//! actively before, then the previous standby holders with the most state (the highest
//! reported changelog offset sum first), then the least loaded process. Copies that no
//! process can take are left out (too few processes), as Kafka's assignor does.
//!
//! Deterministic: ties break by process id, then member id, so the same input always gives
//! the same output (the coordinator recomputes a target on every change).

use std::collections::{BTreeMap, BTreeSet};

/// A task: its subtopology id and partition.
pub type TaskId = (String, i32);

/// A subtopology as the assignor sees it: how many tasks it has (the most partitions of its
/// source topics) and whether it keeps state (so has standby and warm-up tasks).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Subtopology {
    /// Its number of tasks.
    pub tasks: i32,
    /// True when it has state stores (changelog topics).
    pub stateful: bool,
}

/// What the assignor knows of one member.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct MemberSpec {
    /// Its Kafka Streams process (several members, one per stream thread, share one).
    pub process: String,
    /// The active tasks it holds now.
    pub active: BTreeSet<TaskId>,
    /// The standby tasks it holds now.
    pub standby: BTreeSet<TaskId>,
    /// The changelog offset sums it last reported, by task (more is more state).
    pub offsets: BTreeMap<TaskId, i64>,
}

/// One member's tasks in an assignment.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Tasks {
    /// Its active tasks.
    pub active: BTreeSet<TaskId>,
    /// Its standby tasks.
    pub standby: BTreeSet<TaskId>,
    /// Its warm-up tasks (a standby that will take over the active task once caught up).
    pub warmup: BTreeSet<TaskId>,
}

impl Tasks {
    /// True when it holds `task` in any role.
    pub fn holds(&self, task: &TaskId) -> bool {
        self.active.contains(task) || self.standby.contains(task) || self.warmup.contains(task)
    }
}

/// Every task of a topology, in order; `stateful_only` keeps those of stateful subtopologies.
pub fn all_tasks(topology: &BTreeMap<String, Subtopology>, stateful_only: bool) -> Vec<TaskId> {
    topology
        .iter()
        .filter(|(_, s)| s.stateful || !stateful_only)
        .flat_map(|(id, s)| (0..s.tasks.max(0)).map(move |p| (id.clone(), p)))
        .collect()
}

/// The working state: each member's tasks and each process's members.
struct State<'a> {
    members: &'a BTreeMap<String, MemberSpec>,
    out: BTreeMap<String, Tasks>,
    processes: BTreeMap<&'a str, Vec<&'a str>>,
}

impl<'a> State<'a> {
    fn new(members: &'a BTreeMap<String, MemberSpec>) -> State<'a> {
        let mut processes: BTreeMap<&str, Vec<&str>> = BTreeMap::new();
        for (id, m) in members {
            processes.entry(&m.process).or_default().push(id);
        }
        State {
            members,
            out: members
                .keys()
                .map(|id| (id.clone(), Tasks::default()))
                .collect(),
            processes,
        }
    }

    fn count(&self, member: &str) -> usize {
        self.out
            .get(member)
            .map_or(0, |t| t.active.len() + t.standby.len())
    }

    fn actives(&self, member: &str) -> usize {
        self.out.get(member).map_or(0, |t| t.active.len())
    }

    /// A process's load, as a fraction compared exactly: (tasks, members).
    fn load(&self, process: &str) -> (usize, usize) {
        let members = &self.processes[process];
        let tasks = members.iter().map(|m| self.count(m)).sum();
        (tasks, members.len())
    }

    fn process_holds(&self, process: &str, task: &TaskId) -> bool {
        self.processes[process]
            .iter()
            .any(|m| self.out.get(*m).is_some_and(|t| t.holds(task)))
    }

    /// The process with the least load among `candidates` (ties: the lowest id).
    fn least_loaded<'b>(&self, candidates: impl Iterator<Item = &'b str>) -> Option<&'b str> {
        candidates.min_by(|a, b| {
            let (ta, ma) = self.load(a);
            let (tb, mb) = self.load(b);
            (ta * mb).cmp(&(tb * ma)).then_with(|| a.cmp(b))
        })
    }

    /// The member of `process` with the fewest tasks (ties: the lowest id), among those
    /// `eligible` allows.
    fn least_loaded_member(
        &self,
        process: &str,
        eligible: impl Fn(&str) -> bool,
    ) -> Option<&'a str> {
        self.processes[process]
            .iter()
            .copied()
            .filter(|m| eligible(m))
            .min_by_key(|m| (self.count(m), *m))
    }
}

/// Kafka 4.4's `sticky` assignment of `topology`'s tasks to `members`, with `standbys`
/// standby copies of each stateful task. Every member is in the answer (with no tasks when
/// there are fewer tasks than members).
pub fn sticky(
    topology: &BTreeMap<String, Subtopology>,
    members: &BTreeMap<String, MemberSpec>,
    standbys: usize,
) -> BTreeMap<String, Tasks> {
    let mut st = State::new(members);
    if members.is_empty() {
        return st.out;
    }
    assign_active(&mut st, all_tasks(topology, false));
    if standbys > 0 {
        assign_standby(&mut st, all_tasks(topology, true), standbys);
    }
    st.out
}

/// How many active tasks a member may take: `floor` each, and one more for `extra` of them
/// (the remainder), so every member ends with `floor` or `floor + 1`.
#[derive(Debug, Clone, Copy)]
struct Quota {
    floor: usize,
    extra: usize,
}

impl Quota {
    fn under(&self, st: &State<'_>, member: &str) -> bool {
        let n = st.actives(member);
        n < self.floor || (n == self.floor && self.extra > 0)
    }

    /// Counts a task `member` took (after [`Quota::under`] allowed it).
    fn took(&mut self, st: &State<'_>, member: &str) {
        if st.actives(member) > self.floor {
            self.extra -= 1;
        }
    }
}

fn assign_active(st: &mut State<'_>, tasks: Vec<TaskId>) {
    let n = st.members.len();
    let mut quota = Quota {
        floor: tasks.len() / n,
        extra: tasks.len() % n,
    };
    let give = |st: &mut State<'_>, quota: &mut Quota, id: &str, task: TaskId| {
        st.out
            .get_mut(id)
            .expect("every member")
            .active
            .insert(task);
        quota.took(st, id);
    };
    let mut left = Vec::new();
    // 1. Where it runs now (the first claimant, by member id, when two claim it).
    for task in tasks {
        let owner = st
            .members
            .iter()
            .find(|(id, m)| m.active.contains(&task) && quota.under(st, id))
            .map(|(id, _)| id.clone());
        match owner {
            Some(id) => give(st, &mut quota, &id, task),
            None => left.push(task),
        }
    }
    // 2. Where its state is (a standby now), on the least loaded such process.
    let mut rest = Vec::new();
    for task in left {
        let holders: BTreeSet<&str> = st
            .members
            .iter()
            .filter(|(id, m)| m.standby.contains(&task) && quota.under(st, id))
            .map(|(_, m)| m.process.as_str())
            .collect();
        let chosen = st.least_loaded(holders.into_iter()).and_then(|p| {
            // The member of that process that had the standby.
            st.members
                .iter()
                .find(|(id, m)| m.process == p && m.standby.contains(&task) && quota.under(st, id))
                .map(|(id, _)| id.clone())
        });
        match chosen {
            Some(id) => give(st, &mut quota, &id, task),
            None => rest.push(task),
        }
    }
    // 3. The least loaded process with a member under quota.
    for task in rest {
        let processes: Vec<&str> = st
            .processes
            .iter()
            .filter(|(_, ms)| ms.iter().any(|m| quota.under(st, m)))
            .map(|(p, _)| *p)
            .collect();
        let member = st
            .least_loaded(processes.into_iter())
            .and_then(|p| st.least_loaded_member(p, |m| quota.under(st, m)))
            .map(str::to_string);
        if let Some(id) = member {
            give(st, &mut quota, &id, task);
        }
    }
}

fn assign_standby(st: &mut State<'_>, tasks: Vec<TaskId>, standbys: usize) {
    // The standby quota per member: all the copies to place, over the members, rounded up.
    let quota = (tasks.len() * standbys).div_ceil(st.members.len());
    for task in tasks {
        for _ in 0..standbys {
            let open: Vec<&str> = st
                .processes
                .keys()
                .copied()
                .filter(|p| !st.process_holds(p, &task))
                .collect();
            if open.is_empty() {
                break;
            }
            let fits =
                |st: &State<'_>, m: &str| st.out.get(m).map_or(0, |t| t.standby.len()) < quota;
            // The member that ran it before, on an open process.
            let mut chosen = st
                .members
                .iter()
                .find(|(id, m)| {
                    m.active.contains(&task) && open.contains(&m.process.as_str()) && fits(st, id)
                })
                .map(|(id, _)| id.clone());
            // Else the previous standby with the most state.
            if chosen.is_none() {
                chosen = st
                    .members
                    .iter()
                    .filter(|(id, m)| {
                        m.standby.contains(&task)
                            && open.contains(&m.process.as_str())
                            && fits(st, id)
                    })
                    .max_by(|(a, ma), (b, mb)| {
                        let sa = ma.offsets.get(&task).copied().unwrap_or(-1);
                        let sb = mb.offsets.get(&task).copied().unwrap_or(-1);
                        sa.cmp(&sb).then_with(|| b.cmp(a))
                    })
                    .map(|(id, _)| id.clone());
            }
            // Else the least loaded open process (its least loaded member).
            if chosen.is_none() {
                let with_room: Vec<&str> = open
                    .iter()
                    .copied()
                    .filter(|p| st.processes[p].iter().any(|m| fits(st, m)))
                    .collect();
                let candidates = if with_room.is_empty() {
                    open
                } else {
                    with_room
                };
                chosen = st
                    .least_loaded(candidates.into_iter())
                    .and_then(|p| st.least_loaded_member(p, |_| true))
                    .map(str::to_string);
            }
            match chosen {
                Some(id) => {
                    st.out
                        .get_mut(&id)
                        .expect("every member")
                        .standby
                        .insert(task.clone());
                }
                None => break,
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn topology(subs: &[(&str, i32, bool)]) -> BTreeMap<String, Subtopology> {
        subs.iter()
            .map(|(id, tasks, stateful)| {
                (
                    id.to_string(),
                    Subtopology {
                        tasks: *tasks,
                        stateful: *stateful,
                    },
                )
            })
            .collect()
    }

    fn member(process: &str) -> MemberSpec {
        MemberSpec {
            process: process.into(),
            ..Default::default()
        }
    }

    #[test]
    fn a_new_group_is_balanced_and_standbys_sit_on_other_processes() {
        let t = topology(&[("0", 4, true), ("1", 2, false)]);
        let members: BTreeMap<String, MemberSpec> = [("a", "p1"), ("b", "p1"), ("c", "p2")]
            .iter()
            .map(|(m, p)| (m.to_string(), member(p)))
            .collect();
        let out = sticky(&t, &members, 1);
        let counts: Vec<usize> = out.values().map(|t| t.active.len()).collect();
        assert_eq!(counts, vec![2, 2, 2]);
        for task in all_tasks(&t, true) {
            let active = out
                .iter()
                .find(|(_, t)| t.active.contains(&task))
                .unwrap()
                .0;
            let standby: Vec<&String> = out
                .iter()
                .filter(|(_, t)| t.standby.contains(&task))
                .map(|(m, _)| m)
                .collect();
            assert_eq!(standby.len(), 1, "{task:?}");
            assert_ne!(members[active].process, members[standby[0]].process);
        }
        assert!(out
            .values()
            .all(|t| t.standby.iter().all(|(s, _)| s == "0")));
    }

    #[test]
    fn tasks_stay_where_they_run_and_a_leaver_s_tasks_go_to_their_standbys() {
        let t = topology(&[("0", 4, true)]);
        let mut members: BTreeMap<String, MemberSpec> = ["a", "b"]
            .iter()
            .map(|m| (m.to_string(), member(&format!("p-{m}"))))
            .collect();
        let first = sticky(&t, &members, 1);
        for (id, tasks) in &first {
            let m = members.get_mut(id).unwrap();
            m.active = tasks.active.clone();
            m.standby = tasks.standby.clone();
        }
        assert_eq!(
            sticky(&t, &members, 1),
            first,
            "nothing changed, nothing moves"
        );
        // b leaves: a runs everything, taking b's tasks from its own standbys.
        let b_tasks = first["b"].active.clone();
        assert!(b_tasks.is_subset(&first["a"].standby));
        members.remove("b");
        let after = sticky(&t, &members, 1);
        assert_eq!(after["a"].active.len(), 4);
        assert!(
            after["a"].standby.is_empty(),
            "no other process to hold one"
        );
    }
}
