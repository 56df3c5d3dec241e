//! The share groups' server-side assignor, `simple` (KIP-932), as Kafka 4.4's builders state
//! its rules: partitions may be shared, each by at most `ceil(members / partitions)` members;
//! balance first (the numbers of partitions two members get differ by at most one), then
//! stickiness (a member keeps what it had where balance allows). When every member subscribes
//! to the same topics, all their partitions are balanced together; otherwise each topic is
//! balanced among its own subscribers and the results combined, as Kafka does.

use std::collections::{BTreeMap, BTreeSet};

/// A topic, as the assignor names it.
pub type TopicId = uuid::Uuid;
/// A member's assignment: partitions by topic.
pub type Assignment = BTreeMap<TopicId, BTreeSet<i32>>;

/// One member as the assignor sees it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct MemberSpec {
    /// The topics it subscribes to (those that exist).
    pub topics: BTreeSet<TopicId>,
    /// What it is assigned now.
    pub current: Assignment,
}

/// Computes the target assignment of `members` over `partitions` (partition counts by topic).
pub fn assign(
    members: &BTreeMap<String, MemberSpec>,
    partitions: &BTreeMap<TopicId, i32>,
) -> BTreeMap<String, Assignment> {
    let mut out: BTreeMap<String, Assignment> = members
        .keys()
        .map(|m| (m.clone(), Assignment::new()))
        .collect();
    let subscribed: BTreeSet<TopicId> = members
        .values()
        .flat_map(|m| m.topics.iter().copied())
        .filter(|t| partitions.contains_key(t))
        .collect();
    let homogeneous = members
        .values()
        .map(|m| &m.topics)
        .collect::<BTreeSet<_>>()
        .len()
        <= 1;
    let groups: Vec<Vec<TopicId>> = if homogeneous {
        vec![subscribed.iter().copied().collect()]
    } else {
        subscribed.iter().map(|t| vec![*t]).collect()
    };
    for topics in groups {
        let names: Vec<&String> = members
            .iter()
            .filter(|(_, m)| topics.iter().all(|t| m.topics.contains(t)))
            .map(|(n, _)| n)
            .collect();
        let targets: Vec<(TopicId, i32)> = topics
            .iter()
            .flat_map(|t| (0..partitions[t].max(0)).map(move |p| (*t, p)))
            .collect();
        let current: Vec<BTreeSet<(TopicId, i32)>> = names
            .iter()
            .map(|n| {
                members[*n]
                    .current
                    .iter()
                    .filter(|(t, _)| topics.contains(t))
                    .flat_map(|(t, ps)| ps.iter().map(move |p| (*t, *p)))
                    .filter(|(t, p)| *p >= 0 && *p < partitions[t])
                    .collect()
            })
            .collect();
        for (i, owned) in balance(&targets, &current).into_iter().enumerate() {
            let a = out.get_mut(names[i]).expect("a member");
            for (t, p) in owned {
                a.entry(t).or_default().insert(p);
            }
        }
    }
    out
}

/// How many members share each partition: `ceil(members / partitions)`.
pub fn desired_sharing(members: usize, partitions: usize) -> usize {
    if partitions == 0 {
        0
    } else {
        members.div_ceil(partitions)
    }
}

/// How many partitions member `i` of `members` gets when `partitions` are each shared by
/// `sharing` members: the `sharing * partitions` assignments spread as evenly as they go.
fn quota(i: usize, members: usize, partitions: usize, sharing: usize) -> usize {
    let total = sharing * partitions;
    // ceil(total * (i + 1) / members) - ceil(total * i / members), in integers.
    (total * (i + 1)).div_ceil(members) - (total * i).div_ceil(members)
}

/// Balances `targets` among members who now hold `current` (by index).
fn balance(
    targets: &[(TopicId, i32)],
    current: &[BTreeSet<(TopicId, i32)>],
) -> Vec<BTreeSet<(TopicId, i32)>> {
    let m = current.len();
    let p = targets.len();
    if m == 0 || p == 0 {
        return vec![BTreeSet::new(); m];
    }
    let sharing = desired_sharing(m, p);
    let target_set: BTreeSet<(TopicId, i32)> = targets.iter().copied().collect();
    let mut held: Vec<BTreeSet<(TopicId, i32)>> = current
        .iter()
        .map(|c| c.intersection(&target_set).copied().collect())
        .collect();
    // The larger quotas go to the members holding the most already, so that a member joining
    // or leaving moves no partition between two members that stay.
    let mut sizes: Vec<usize> = (0..m).map(|i| quota(i, m, p, sharing)).collect();
    sizes.sort_unstable_by(|a, b| b.cmp(a));
    let mut by_held: Vec<usize> = (0..m).collect();
    by_held.sort_by_key(|i| (std::cmp::Reverse(held[*i].len()), *i));
    let mut quotas = vec![0; m];
    for (rank, i) in by_held.into_iter().enumerate() {
        quotas[i] = sizes[rank];
    }
    let mut owners: BTreeMap<(TopicId, i32), BTreeSet<usize>> =
        targets.iter().map(|t| (*t, BTreeSet::new())).collect();
    for (i, h) in held.iter().enumerate() {
        for t in h {
            owners.get_mut(t).expect("a target").insert(i);
        }
    }
    // Partitions shared by more members than desired: drop the members over quota first.
    for (t, os) in owners.iter_mut() {
        while os.len() > sharing {
            let over = os.iter().copied().find(|i| held[*i].len() > quotas[*i]);
            let i = over.unwrap_or_else(|| *os.iter().next_back().expect("an owner"));
            os.remove(&i);
            held[i].remove(t);
        }
    }
    // Members over quota: drop the partitions shared by the most members first.
    for i in 0..m {
        while held[i].len() > quotas[i] {
            let t = *held[i]
                .iter()
                .max_by_key(|t| (owners[t].len(), std::cmp::Reverse(**t)))
                .expect("a partition");
            held[i].remove(&t);
            owners.get_mut(&t).expect("a target").remove(&i);
        }
    }
    // Partitions short of sharers, fewest owners first: to the member with the most room.
    let mut order: Vec<(TopicId, i32)> = targets.to_vec();
    order.sort_by_key(|t| owners[t].len());
    for t in order {
        while owners[&t].len() < sharing {
            let pick = (0..m)
                .filter(|i| held[*i].len() < quotas[*i] && !owners[&t].contains(i))
                .max_by_key(|i| (quotas[*i] - held[*i].len(), std::cmp::Reverse(*i)));
            let Some(i) = pick else { break };
            held[i].insert(t);
            owners.get_mut(&t).expect("a target").insert(i);
        }
    }
    // Where the only members with room already share a partition short of sharers, one
    // step of exchange: a member without room moves from a partition the roomy one lacks to
    // the short one, and the roomy one takes its place.
    let mut progress = true;
    while progress {
        progress = false;
        for t in targets {
            if owners[t].len() >= sharing {
                continue;
            }
            let roomy: Vec<usize> = (0..m).filter(|i| held[*i].len() < quotas[*i]).collect();
            'find: for i in roomy {
                for j in 0..m {
                    if j == i || held[j].contains(t) {
                        continue;
                    }
                    let u = held[j].iter().copied().find(|u| !held[i].contains(u));
                    if let Some(u) = u {
                        held[j].remove(&u);
                        held[j].insert(*t);
                        held[i].insert(u);
                        let ou = owners.get_mut(&u).expect("a target");
                        ou.remove(&j);
                        ou.insert(i);
                        owners.get_mut(t).expect("a target").insert(j);
                        progress = true;
                        break 'find;
                    }
                }
            }
        }
    }
    // Every partition is consumed: one still without a member goes to the least loaded.
    for t in targets {
        if owners[t].is_empty() {
            let i = (0..m)
                .min_by_key(|i| (held[*i].len(), *i))
                .expect("a member");
            held[i].insert(*t);
            owners.get_mut(t).expect("a target").insert(i);
        }
    }
    held
}

#[cfg(test)]
mod tests {
    use super::*;

    fn t(n: u128) -> TopicId {
        uuid::Uuid::from_u128(n)
    }

    #[test]
    fn quotas_spread_every_assignment() {
        for m in 1..40 {
            for p in 1..40 {
                let s = desired_sharing(m, p);
                let q: Vec<usize> = (0..m).map(|i| quota(i, m, p, s)).collect();
                assert_eq!(q.iter().sum::<usize>(), s * p);
                assert!(q.iter().max().unwrap() - q.iter().min().unwrap() <= 1);
            }
        }
    }

    #[test]
    fn more_members_than_partitions_share_them() {
        let members: BTreeMap<String, MemberSpec> = (0..5)
            .map(|i| {
                (
                    format!("m{i}"),
                    MemberSpec {
                        topics: [t(1)].into(),
                        current: Assignment::new(),
                    },
                )
            })
            .collect();
        let a = assign(&members, &[(t(1), 2)].into());
        // Each partition is shared by ceil(5 / 2) = 3 members: six assignments, so one member
        // gets both partitions and the others one each.
        let mut sharers = [0; 2];
        let mut sizes: Vec<usize> = a.values().map(|m| m[&t(1)].len()).collect();
        for m in a.values() {
            for p in &m[&t(1)] {
                sharers[*p as usize] += 1;
            }
        }
        sizes.sort();
        assert_eq!(sizes, vec![1, 1, 1, 1, 2]);
        assert_eq!(sharers, [3, 3]);
    }
}
