//! The streams-group task assignor and its warm-up refinement over seeded histories: members
//! join and leave (on new or existing processes), members adopt each refined assignment,
//! and processes restore state at random speeds. The oracle reads only the outputs:
//! - every task has exactly one active owner, in the target and in every refined assignment;
//! - a process holds a task at most once (a standby or warm-up never sits on its active's
//!   process, nor beside another copy), and only stateful tasks have standbys and warm-ups;
//! - active counts differ by one at most, and standbys are placed as far as processes allow;
//! - nothing moves without a cause: from members that stay, the target moves no more active
//!   tasks than balance forces, and a converged group's target is its current assignment;
//! - a task is held back from its target owner only while that owner's process is not caught
//!   up, and only with the member that runs it; warm-ups stay within their budget;
//! - warm-ups converge: with membership quiet, the refined assignment reaches the target.
//!
//! `FJORD_SIM_SEEDS` sets the seeds (default 300).

use fjord_group::streams::assignor::{all_tasks, sticky, MemberSpec, Subtopology, TaskId, Tasks};
use fjord_group::streams::refine::{refine, Member};
use fjord_util::SimRng;
use std::collections::{BTreeMap, BTreeSet};

/// The lag at or below which a process is caught up on a task.
const ACCEPTABLE_LAG: i64 = 100;
/// A process's lag on a task it has never held.
const FRESH_LAG: i64 = 2_000;
/// Quiet rounds within which warm-ups must converge.
const CONVERGE_ROUNDS: usize = 400;

fn seeds() -> u64 {
    std::env::var("FJORD_SIM_SEEDS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(300)
}

/// One simulated group.
struct Group {
    topology: BTreeMap<String, Subtopology>,
    standbys: usize,
    warmups: usize,
    /// Member id to process.
    members: BTreeMap<String, String>,
    /// What each member runs now.
    current: BTreeMap<String, Tasks>,
    /// A process's lag on a task (absent: no state).
    lag: BTreeMap<(String, TaskId), i64>,
    next_member: u32,
    next_process: u32,
}

impl Group {
    fn specs(&self) -> BTreeMap<String, MemberSpec> {
        self.members
            .iter()
            .map(|(id, p)| {
                let t = self.current.get(id).cloned().unwrap_or_default();
                let offsets = t
                    .standby
                    .iter()
                    .map(|task| {
                        let lag = self.lag.get(&(p.clone(), task.clone())).copied();
                        (task.clone(), FRESH_LAG - lag.unwrap_or(FRESH_LAG))
                    })
                    .collect();
                (
                    id.clone(),
                    MemberSpec {
                        process: p.clone(),
                        active: t.active,
                        standby: t.standby,
                        offsets,
                    },
                )
            })
            .collect()
    }

    fn refine_members(&self) -> BTreeMap<String, Member> {
        self.members
            .iter()
            .map(|(id, p)| {
                (
                    id.clone(),
                    Member {
                        process: p.clone(),
                        active: self
                            .current
                            .get(id)
                            .map(|t| t.active.clone())
                            .unwrap_or_default(),
                    },
                )
            })
            .collect()
    }

    fn stateful(&self, task: &TaskId) -> bool {
        self.topology[&task.0].stateful
    }

    fn processes(&self) -> BTreeSet<&String> {
        self.members.values().collect()
    }

    /// One round: the target, its refinement, both judged; the members adopt the
    /// refinement and state is restored. Returns (target, refined).
    fn round(
        &mut self,
        rng: &mut SimRng,
        seed: u64,
    ) -> (BTreeMap<String, Tasks>, BTreeMap<String, Tasks>) {
        let target = sticky(&self.topology, &self.specs(), self.standbys);
        self.judge_target(&target, seed);
        let refined = refine(
            &target,
            &self.refine_members(),
            |p, t| self.lag.get(&(p.to_string(), t.clone())).copied(),
            |t| self.stateful(t),
            self.warmups,
            ACCEPTABLE_LAG,
        );
        self.judge_refined(&target, &refined, seed);
        self.current = refined.clone();
        self.restore(rng);
        (target, refined)
    }

    /// Processes holding a task catch up (the active's at once); others fall behind.
    fn restore(&mut self, rng: &mut SimRng) {
        let mut held: BTreeMap<(String, TaskId), bool> = BTreeMap::new();
        for (m, t) in &self.current {
            let p = self.members[m].clone();
            for task in &t.active {
                held.insert((p.clone(), task.clone()), true);
            }
            for task in t.standby.iter().chain(&t.warmup) {
                held.entry((p.clone(), task.clone())).or_insert(false);
            }
        }
        for (key, lag) in self.lag.iter_mut() {
            if !held.contains_key(key) {
                *lag += 50;
            }
        }
        for (key, active) in held {
            let speed = 100 + rng.below(400) as i64;
            let lag = self.lag.entry(key).or_insert(FRESH_LAG);
            *lag = if active { 0 } else { (*lag - speed).max(0) };
        }
    }

    fn process_of(&self, member: &str) -> &str {
        &self.members[member]
    }

    /// Each task's active owners, and each (process, task)'s copies, in an assignment.
    fn check_placement(&self, a: &BTreeMap<String, Tasks>, what: &str, seed: u64) {
        let all = all_tasks(&self.topology, false);
        for task in &all {
            let owners: Vec<&String> = a
                .iter()
                .filter(|(_, t)| t.active.contains(task))
                .map(|(m, _)| m)
                .collect();
            assert_eq!(
                owners.len(),
                1,
                "seed {seed}: {what}: {task:?} has owners {owners:?}"
            );
            let mut seen = BTreeSet::new();
            for (m, t) in a {
                if t.holds(task) {
                    let copies = t.active.contains(task) as u8
                        + t.standby.contains(task) as u8
                        + t.warmup.contains(task) as u8;
                    assert_eq!(copies, 1, "seed {seed}: {what}: {m} holds {task:?} twice");
                    assert!(
                        seen.insert(self.process_of(m)),
                        "seed {seed}: {what}: process {} holds {task:?} twice",
                        self.process_of(m)
                    );
                }
            }
            if !self.stateful(task) {
                assert!(
                    a.values()
                        .all(|t| !t.standby.contains(task) && !t.warmup.contains(task)),
                    "seed {seed}: {what}: stateless {task:?} has a copy"
                );
            }
        }
        assert!(
            a.keys().eq(self.members.keys()),
            "seed {seed}: {what}: members differ"
        );
    }

    fn judge_target(&self, target: &BTreeMap<String, Tasks>, seed: u64) {
        self.check_placement(target, "target", seed);
        assert!(target.values().all(|t| t.warmup.is_empty()));
        // Balance.
        let counts: Vec<usize> = target.values().map(|t| t.active.len()).collect();
        let (min, max) = (counts.iter().min().unwrap(), counts.iter().max().unwrap());
        assert!(max - min <= 1, "seed {seed}: active counts {counts:?}");
        // Standbys as far as processes allow.
        let processes = self.processes().len();
        for task in all_tasks(&self.topology, true) {
            let n = target
                .values()
                .filter(|t| t.standby.contains(&task))
                .count();
            assert_eq!(
                n,
                self.standbys.min(processes - 1),
                "seed {seed}: {task:?} has {n} standbys"
            );
        }
        // Nothing moves without a cause: from members that stay, no more moves than
        // balance forces (each may keep floor, and the remainder of them one more).
        let total = all_tasks(&self.topology, false).len();
        let n = self.members.len();
        let (floor, extra) = (total / n, total % n);
        let prev: BTreeMap<&String, usize> = self
            .members
            .keys()
            .map(|m| (m, self.current.get(m).map_or(0, |t| t.active.len())))
            .collect();
        let kept_at_most: usize = prev.values().map(|p| (*p).min(floor)).sum::<usize>()
            + extra.min(prev.values().filter(|p| **p > floor).count());
        let moved = self
            .members
            .keys()
            .map(|m| {
                let before = self.current.get(m).map(|t| &t.active);
                before.map_or(0, |b| b.difference(&target[m].active).count())
            })
            .sum::<usize>();
        let forced = prev.values().sum::<usize>() - kept_at_most;
        assert!(
            moved <= forced,
            "seed {seed}: {moved} active tasks moved away from staying members, balance forces {forced}"
        );
    }

    fn judge_refined(
        &self,
        target: &BTreeMap<String, Tasks>,
        refined: &BTreeMap<String, Tasks>,
        seed: u64,
    ) {
        self.check_placement(refined, "refined", seed);
        let warm: usize = refined.values().map(|t| t.warmup.len()).sum();
        assert!(
            warm <= self.warmups,
            "seed {seed}: {warm} warm-ups, budget {}",
            self.warmups
        );
        for (m, t) in refined {
            for task in t.active.difference(&target[m].active) {
                // Held back: with the member that runs it, for a target owner not caught up.
                assert!(
                    self.current.get(m).is_some_and(|c| c.active.contains(task)),
                    "seed {seed}: {task:?} held by {m}, which did not run it"
                );
                assert!(
                    self.stateful(task),
                    "seed {seed}: stateless {task:?} held back"
                );
                let owner = target
                    .iter()
                    .find(|(_, x)| x.active.contains(task))
                    .unwrap()
                    .0;
                let p = self.process_of(owner).to_string();
                let lag = self.lag.get(&(p.clone(), task.clone()));
                assert!(
                    lag.is_none_or(|l| *l > ACCEPTABLE_LAG),
                    "seed {seed}: {task:?} held back from {owner} on {p}, caught up at {lag:?}"
                );
                assert_ne!(p, self.process_of(m), "seed {seed}: same process held back");
            }
        }
    }

    fn join(&mut self, rng: &mut SimRng) {
        let processes: Vec<String> = self.processes().into_iter().cloned().collect();
        let process = if processes.is_empty() || rng.percent(50) {
            self.next_process += 1;
            format!("p{}", self.next_process)
        } else {
            processes[rng.below(processes.len() as u64) as usize].clone()
        };
        self.next_member += 1;
        self.members
            .insert(format!("m{:03}", self.next_member), process);
    }

    fn leave(&mut self, rng: &mut SimRng) {
        if self.members.len() <= 1 {
            return;
        }
        let ids: Vec<String> = self.members.keys().cloned().collect();
        let gone = &ids[rng.below(ids.len() as u64) as usize];
        self.members.remove(gone);
        self.current.remove(gone);
    }
}

fn topology(rng: &mut SimRng) -> BTreeMap<String, Subtopology> {
    (0..1 + rng.below(4))
        .map(|i| {
            (
                i.to_string(),
                Subtopology {
                    tasks: 1 + rng.below(12) as i32,
                    stateful: rng.percent(60),
                },
            )
        })
        .collect()
}

#[test]
fn seeded_histories_keep_the_assignor_s_rules_and_warm_ups_converge() {
    let (mut rounds, mut held_back, mut warm_total, mut slowest) = (0u64, 0u64, 0u64, 0usize);
    for seed in 0..seeds() {
        let mut rng = SimRng::new(seed);
        let mut g = Group {
            topology: topology(&mut rng),
            standbys: rng.below(3) as usize,
            warmups: rng.below(4) as usize,
            members: BTreeMap::new(),
            current: BTreeMap::new(),
            lag: BTreeMap::new(),
            next_member: 0,
            next_process: 0,
        };
        for _ in 0..1 + rng.below(4) {
            g.join(&mut rng);
        }
        for _ in 0..30 {
            match rng.below(10) {
                0..=1 => g.join(&mut rng),
                2 => g.leave(&mut rng),
                _ => {}
            }
            let (target, refined) = g.round(&mut rng, seed);
            rounds += 1;
            warm_total += refined.values().map(|t| t.warmup.len() as u64).sum::<u64>();
            held_back += (target != refined) as u64;
        }
        // Quiet: the refinement reaches the target, and then nothing moves.
        let mut converged = None;
        for quiet in 0..CONVERGE_ROUNDS {
            let (target, refined) = g.round(&mut rng, seed);
            if target == refined {
                converged = Some(quiet);
                break;
            }
        }
        let at = converged.unwrap_or_else(|| {
            panic!("seed {seed}: warm-ups did not converge in {CONVERGE_ROUNDS} quiet rounds")
        });
        slowest = slowest.max(at);
        let settled = g.current.clone();
        let (target, refined) = g.round(&mut rng, seed);
        assert_eq!(
            target, settled,
            "seed {seed}: a converged group's target moved"
        );
        assert_eq!(
            refined, settled,
            "seed {seed}: a converged group's refinement moved"
        );
    }
    println!(
        "streams assignor: {} seeds, {rounds} rounds, {held_back} with tasks held back for warm-ups, \
         {warm_total} warm-up tasks, slowest convergence {slowest} quiet rounds",
        seeds()
    );
}
