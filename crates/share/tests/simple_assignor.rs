//! Seeded property test of the share groups' `simple` assignor against the rules Kafka states
//! for it, checked from the output alone: every subscribed partition consumed; no partition
//! shared by more than ceil(members / partitions) of its pool; sizes within one of each other
//! (per pool: all topics when subscriptions agree, each topic otherwise); nothing outside a
//! member's subscription; assigning again changes nothing; and a member joining a group with
//! no sharing moves no more partitions than it receives.

use std::collections::{BTreeMap, BTreeSet};

use fjord_share::assignor::{assign, desired_sharing, Assignment, MemberSpec, TopicId};
use fjord_util::sim_rng::SimRng;

fn topic(n: u64) -> TopicId {
    uuid::Uuid::from_u128(u128::from(n) + 1)
}

/// Whether every member subscribes to the same topics.
fn homogeneous(members: &BTreeMap<String, MemberSpec>) -> bool {
    members
        .values()
        .map(|m| &m.topics)
        .collect::<BTreeSet<_>>()
        .len()
        <= 1
}

fn check(
    members: &BTreeMap<String, MemberSpec>,
    partitions: &BTreeMap<TopicId, i32>,
    out: &BTreeMap<String, Assignment>,
) {
    let homogeneous = homogeneous(members);
    for (name, a) in out {
        for (t, ps) in a {
            assert!(
                members[name].topics.contains(t),
                "{name} got unsubscribed topic"
            );
            for p in ps {
                assert!(*p >= 0 && *p < partitions[t], "{name} got {t}-{p}");
            }
        }
    }
    let pools: Vec<Vec<TopicId>> = if homogeneous {
        vec![members
            .values()
            .next()
            .map(|m| m.topics.iter().copied().collect())
            .unwrap_or_default()]
    } else {
        partitions.keys().map(|t| vec![*t]).collect()
    };
    for pool in pools {
        let subs: Vec<&String> = members
            .iter()
            .filter(|(_, m)| pool.iter().all(|t| m.topics.contains(t)) && !pool.is_empty())
            .map(|(n, _)| n)
            .collect();
        let parts: Vec<(TopicId, i32)> = pool
            .iter()
            .flat_map(|t| (0..partitions[t]).map(move |p| (*t, p)))
            .collect();
        if subs.is_empty() || parts.is_empty() {
            continue;
        }
        let sharing = desired_sharing(subs.len(), parts.len());
        for (t, p) in &parts {
            let n = subs
                .iter()
                .filter(|s| out[**s].get(t).is_some_and(|ps| ps.contains(p)))
                .count();
            assert!(n >= 1, "{t}-{p} consumed by nobody");
            assert!(n <= sharing, "{t}-{p} shared by {n} > {sharing}");
        }
        let sizes: Vec<usize> = subs
            .iter()
            .map(|s| {
                pool.iter()
                    .map(|t| out[*s].get(t).map_or(0, |ps| ps.len()))
                    .sum()
            })
            .collect();
        let (lo, hi) = (sizes.iter().min().unwrap(), sizes.iter().max().unwrap());
        assert!(hi - lo <= 1, "unbalanced: {sizes:?}");
    }
}

fn random_case(rng: &mut SimRng) -> (BTreeMap<String, MemberSpec>, BTreeMap<TopicId, i32>) {
    let topic_count = 1 + rng.below(4);
    let partitions: BTreeMap<TopicId, i32> = (0..topic_count)
        .map(|t| (topic(t), 1 + rng.below(12) as i32))
        .collect();
    let homogeneous = rng.percent(50);
    let all: BTreeSet<TopicId> = partitions.keys().copied().collect();
    let members = (0..1 + rng.below(14))
        .map(|i| {
            let topics: BTreeSet<TopicId> = if homogeneous {
                all.clone()
            } else {
                let s: BTreeSet<TopicId> =
                    all.iter().copied().filter(|_| rng.percent(60)).collect();
                if s.is_empty() {
                    [topic(0)].into()
                } else {
                    s
                }
            };
            // A current assignment with stale, foreign and out-of-range partitions.
            let mut current = Assignment::new();
            for _ in 0..rng.below(8) {
                let t = topic(rng.below(topic_count + 1));
                current.entry(t).or_default().insert(rng.below(14) as i32);
            }
            (format!("member-{i:02}"), MemberSpec { topics, current })
        })
        .collect();
    (members, partitions)
}

#[test]
fn simple_assignor_rules_hold() {
    let seeds: u64 = std::env::var("FJORD_ASSIGNOR_SEEDS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(5_000);
    for seed in 0..seeds {
        let mut rng = SimRng::new(seed);
        let (mut members, partitions) = random_case(&mut rng);
        let out = assign(&members, &partitions);
        check(&members, &partitions, &out);
        // Again from its own output: nothing moves.
        for (n, m) in members.iter_mut() {
            m.current = out[n].clone();
        }
        let again = assign(&members, &partitions);
        assert_eq!(again, out, "seed {seed}: a settled assignment moved");
        // A member joins a group whose partitions are not shared: it takes what it gets from
        // the others, and nobody else moves.
        let homogeneous = homogeneous(&members);
        let total: i32 = members
            .values()
            .next()
            .map(|m| m.topics.iter().map(|t| partitions[t]).sum())
            .unwrap_or(0);
        if homogeneous && (members.len() as i32) < total {
            let topics = members.values().next().unwrap().topics.clone();
            members.insert(
                "member-zz".into(),
                MemberSpec {
                    topics,
                    current: Assignment::new(),
                },
            );
            let joined = assign(&members, &partitions);
            check(&members, &partitions, &joined);
            let gained: usize = joined["member-zz"].values().map(|ps| ps.len()).sum();
            let lost: usize = out
                .iter()
                .map(|(n, a)| {
                    a.iter()
                        .map(|(t, ps)| {
                            ps.iter()
                                .filter(|p| !joined[n].get(t).is_some_and(|q| q.contains(p)))
                                .count()
                        })
                        .sum::<usize>()
                })
                .sum();
            assert!(
                lost <= gained,
                "seed {seed}: {lost} partitions moved for a newcomer that got {gained}"
            );
        }
    }
}
