//! The server-side assignors against an independent account of what a target assignment must
//! be, over seeded random groups (members, subscriptions, current assignments, topic sizes):
//! every partition of a subscribed topic goes to exactly one member subscribed to it and no
//! other partition to anyone; `uniform` leaves no member able to take a partition from one
//! that owns two more (identical subscriptions: counts within one), keeps a balanced
//! assignment as it is, and when a member joins moves no partition between the members that
//! stay; `range` gives members with the same subscription the same partition numbers of
//! equally sized topics. `FJORD_SIM_SEEDS` sets the seeds (default 2,000).

use fjord_group::assignors::{Assignment, Assignor, MemberSpec, TopicId};
use fjord_util::SimRng;
use std::collections::{BTreeMap, BTreeSet};

fn seeds() -> u64 {
    std::env::var("FJORD_SIM_SEEDS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(2_000)
}

/// A random group: up to 5 topics of up to 12 partitions, up to 8 members, each subscribed
/// to a random non-empty subset (or all the same one when `homogeneous`), owning a random
/// (possibly stale or conflicting) set of partitions.
fn group(rng: &mut SimRng, homogeneous: bool) -> (Vec<MemberSpec>, BTreeMap<TopicId, i32>) {
    let topics: BTreeMap<TopicId, i32> = (0..1 + rng.below(5))
        .map(|t| (u128::from(t) + 1, rng.below(13) as i32))
        .collect();
    let ids: Vec<TopicId> = topics.keys().copied().collect();
    let subset = |rng: &mut SimRng| -> BTreeSet<TopicId> {
        let mut s: BTreeSet<TopicId> = ids.iter().copied().filter(|_| rng.percent(60)).collect();
        if s.is_empty() {
            s.insert(ids[rng.below(ids.len() as u64) as usize]);
        }
        // Now and then a topic that does not exist.
        if rng.percent(10) {
            s.insert(99);
        }
        s
    };
    let shared = subset(rng);
    let members = (0..1 + rng.below(8))
        .map(|i| {
            let topics = if homogeneous {
                shared.clone()
            } else {
                subset(rng)
            };
            let mut current: BTreeMap<TopicId, BTreeSet<i32>> = BTreeMap::new();
            for t in &ids {
                for p in 0..14 {
                    if rng.percent(15) {
                        current.entry(*t).or_default().insert(p);
                    }
                }
            }
            MemberSpec {
                id: format!("m{}", rng.below(1000) * 10 + i),
                instance_id: rng.percent(30).then(|| format!("i{i}")),
                topics,
                current,
            }
        })
        .collect();
    (members, topics)
}

/// The partitions a member owns, as (topic, partition) pairs.
fn owned(a: &Assignment, member: &str) -> BTreeSet<(TopicId, i32)> {
    a[member]
        .iter()
        .flat_map(|(t, ps)| ps.iter().map(move |p| (*t, *p)))
        .collect()
}

/// Every partition of a subscribed, existing topic has exactly one owner, subscribed to it;
/// nothing else is assigned; every member is listed.
fn check_valid(members: &[MemberSpec], topics: &BTreeMap<TopicId, i32>, a: &Assignment) {
    assert_eq!(a.len(), members.len(), "every member is listed");
    let mut seen: BTreeMap<(TopicId, i32), &str> = BTreeMap::new();
    for m in members {
        for (t, p) in owned(a, &m.id) {
            assert!(
                m.topics.contains(&t),
                "{} got topic {t} it does not read",
                m.id
            );
            assert!(
                topics.get(&t).is_some_and(|n| (0..*n).contains(&p)),
                "{} got {t}-{p}, which does not exist",
                m.id
            );
            if let Some(other) = seen.insert((t, p), &m.id) {
                panic!("{t}-{p} given to {other} and {}", m.id);
            }
        }
    }
    for (t, n) in topics {
        if members.iter().any(|m| m.topics.contains(t)) {
            for p in 0..*n {
                assert!(seen.contains_key(&(*t, p)), "{t}-{p} given to no one");
            }
        }
    }
}

/// No member could take, from a member owning two more than it, a partition of a topic it
/// reads.
fn check_balanced(members: &[MemberSpec], a: &Assignment) {
    for from in members {
        for to in members {
            let (f, t) = (owned(a, &from.id), owned(a, &to.id));
            if f.len() > t.len() + 1 {
                assert!(
                    !f.iter().any(|(topic, _)| to.topics.contains(topic)),
                    "{} ({}) could take from {} ({})",
                    to.id,
                    t.len(),
                    from.id,
                    f.len()
                );
            }
        }
    }
}

fn as_current(members: &[MemberSpec], a: &Assignment) -> Vec<MemberSpec> {
    members
        .iter()
        .map(|m| MemberSpec {
            current: a[&m.id].clone(),
            ..m.clone()
        })
        .collect()
}

#[test]
fn uniform_is_valid_balanced_and_sticky() {
    for seed in 0..seeds() {
        let mut rng = SimRng::new(seed);
        let homogeneous = rng.percent(50);
        let (members, topics) = group(&mut rng, homogeneous);
        let a = Assignor::Uniform.assign(&members, &topics);
        check_valid(&members, &topics, &a);
        check_balanced(&members, &a);
        if homogeneous {
            let counts: Vec<usize> = members.iter().map(|m| owned(&a, &m.id).len()).collect();
            let (lo, hi) = (counts.iter().min().unwrap(), counts.iter().max().unwrap());
            assert!(hi - lo <= 1, "seed {seed}: counts {counts:?}");
        }
        // Run again on its own result: nothing moves.
        let settled = as_current(&members, &a);
        assert_eq!(
            Assignor::Uniform.assign(&settled, &topics),
            a,
            "seed {seed}"
        );
        // A member joins a homogeneous group: partitions only go to it.
        if homogeneous {
            let mut joined = settled.clone();
            joined.push(MemberSpec {
                id: "new".into(),
                topics: members[0].topics.clone(),
                ..Default::default()
            });
            let b = Assignor::Uniform.assign(&joined, &topics);
            check_valid(&joined, &topics, &b);
            for m in &members {
                let (before, after) = (owned(&a, &m.id), owned(&b, &m.id));
                assert!(
                    after.is_subset(&before),
                    "seed {seed}: {} gained {:?} from another old member",
                    m.id,
                    after.difference(&before).collect::<Vec<_>>()
                );
            }
        }
    }
}

#[test]
fn range_is_valid_and_co_partitions_equal_subscriptions() {
    for seed in 0..seeds() {
        let mut rng = SimRng::new(seed);
        let homogeneous = rng.percent(50);
        let (members, topics) = group(&mut rng, homogeneous);
        let a = Assignor::Range.assign(&members, &topics);
        check_valid(&members, &topics, &a);
        // Members reading the same topics get the same partition numbers of topics of the
        // same size.
        for m in &members {
            let mine = &a[&m.id];
            for (t1, n1) in &topics {
                for (t2, n2) in &topics {
                    if n1 == n2 && m.topics.contains(t1) && m.topics.contains(t2) {
                        let same_readers = members
                            .iter()
                            .all(|x| x.topics.contains(t1) == x.topics.contains(t2));
                        if same_readers {
                            assert_eq!(mine.get(t1), mine.get(t2), "seed {seed}: {}", m.id);
                        }
                    }
                }
            }
        }
        // Each subscriber of a topic gets a contiguous range, sizes within one.
        for (t, n) in &topics {
            let sizes: Vec<usize> = members
                .iter()
                .filter(|m| m.topics.contains(t))
                .map(|m| a[&m.id].get(t).map_or(0, BTreeSet::len))
                .collect();
            if let (Some(lo), Some(hi)) = (sizes.iter().min(), sizes.iter().max()) {
                assert!(hi - lo <= 1, "seed {seed}: topic {t} ({n}) sizes {sizes:?}");
            }
            for m in &members {
                if let Some(ps) = a[&m.id].get(t) {
                    let (first, last) = (ps.first().unwrap(), ps.last().unwrap());
                    assert_eq!((last - first + 1) as usize, ps.len(), "contiguous");
                }
            }
        }
    }
}

#[test]
fn assignors_by_name() {
    assert_eq!(Assignor::named("uniform"), Some(Assignor::Uniform));
    assert_eq!(Assignor::named("range").map(Assignor::name), Some("range"));
    assert_eq!(Assignor::named("sticky"), None);
}
