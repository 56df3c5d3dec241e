//! KIP-848's server-side assignors, `uniform` and `range` (`group.consumer.assignors`), as
//! pure functions of the members' subscriptions, their current assignments and the topics'
//! partition counts: the coordinator computes a group's target assignment with one.
//!
//! - `uniform` spreads every subscribed partition so that no member could take a partition
//!   from one that owns two more than it (for identical subscriptions: counts within one),
//!   and keeps each member's current partitions wherever balance allows.
//! - `range` gives each topic's subscribers contiguous ranges in a fixed member order (static
//!   members by instance id, so a rolling restart keeps the ranges), the first ones one more:
//!   members with the same subscription get the same partition numbers of every topic of the
//!   same size (co-partitioning).
//!
//! Not served yet: the coordinator does not run the consumer protocol (issue 25).

use std::collections::{BTreeMap, BTreeSet};

/// A topic, by id (the uuid's 128 bits).
pub type TopicId = u128;

/// What the assignors know of one member.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct MemberSpec {
    /// The member id.
    pub id: String,
    /// Its `group.instance.id`, for a static member.
    pub instance_id: Option<String>,
    /// The topics it subscribes to (already resolved from a regular expression).
    pub topics: BTreeSet<TopicId>,
    /// The partitions it owns now, by topic.
    pub current: BTreeMap<TopicId, BTreeSet<i32>>,
}

/// A target assignment: each member's partitions by topic (every member listed).
pub type Assignment = BTreeMap<String, BTreeMap<TopicId, BTreeSet<i32>>>;

/// The assignors by name, as `group.consumer.assignors` lists them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Assignor {
    /// `uniform` (Kafka's default).
    Uniform,
    /// `range`.
    Range,
}

impl Assignor {
    /// The assignor called `name`, if fjord has it.
    pub fn named(name: &str) -> Option<Assignor> {
        match name {
            "uniform" => Some(Assignor::Uniform),
            "range" => Some(Assignor::Range),
            _ => None,
        }
    }

    /// Its name on the wire and in configs.
    pub fn name(self) -> &'static str {
        match self {
            Assignor::Uniform => "uniform",
            Assignor::Range => "range",
        }
    }

    /// The target assignment of `members` over topics with `partitions` (a topic missing from
    /// it does not exist: its partitions are assigned to no one).
    pub fn assign(self, members: &[MemberSpec], partitions: &BTreeMap<TopicId, i32>) -> Assignment {
        match self {
            Assignor::Uniform => uniform(members, partitions),
            Assignor::Range => range(members, partitions),
        }
    }
}

/// One partition.
type Tp = (TopicId, i32);

fn empty(members: &[MemberSpec]) -> Assignment {
    members
        .iter()
        .map(|m| (m.id.clone(), BTreeMap::new()))
        .collect()
}

fn uniform(members: &[MemberSpec], partitions: &BTreeMap<TopicId, i32>) -> Assignment {
    let exists = |(t, p): Tp| partitions.get(&t).is_some_and(|n| (0..*n).contains(&p));
    // Who may own each subscribed partition; members in id order.
    let mut order: Vec<&MemberSpec> = members.iter().collect();
    order.sort_by(|a, b| a.id.cmp(&b.id));
    let mut owner: BTreeMap<Tp, usize> = BTreeMap::new();
    let mut owned: Vec<BTreeSet<Tp>> = vec![BTreeSet::new(); order.len()];
    // 1. Every member keeps what it owns, still exists and still subscribes to (the first
    //    claimant in id order wins a partition claimed twice).
    for (i, m) in order.iter().enumerate() {
        for (t, ps) in &m.current {
            if !m.topics.contains(t) {
                continue;
            }
            for p in ps {
                let tp = (*t, *p);
                if exists(tp) && !owner.contains_key(&tp) {
                    owner.insert(tp, i);
                    owned[i].insert(tp);
                }
            }
        }
    }
    // 2. Each unowned partition goes to its least loaded subscriber, the partitions with the
    //    fewest subscribers first (they have the least choice).
    let subscribers = |t: TopicId| -> Vec<usize> {
        (0..order.len())
            .filter(|i| order[*i].topics.contains(&t))
            .collect()
    };
    let by_topic: BTreeMap<TopicId, Vec<usize>> =
        partitions.keys().map(|t| (*t, subscribers(*t))).collect();
    let mut free: Vec<Tp> = partitions
        .iter()
        .filter(|(t, _)| !by_topic[t].is_empty())
        .flat_map(|(t, n)| (0..*n).map(move |p| (*t, p)))
        .filter(|tp| !owner.contains_key(tp))
        .collect();
    free.sort_by_key(|(t, p)| (by_topic[t].len(), *t, *p));
    for tp in free {
        let best = by_topic[&tp.0]
            .iter()
            .copied()
            .min_by_key(|i| (owned[*i].len(), *i))
            .expect("a subscriber");
        owner.insert(tp, best);
        owned[best].insert(tp);
    }
    // 3. Balance: while a member owns two more than a member subscribed to one of its
    //    topics, one such partition moves (the sum of squared counts falls each time, so
    //    this ends). Kept partitions move only for balance.
    loop {
        let mut moved = false;
        let mut by_load: Vec<usize> = (0..order.len()).collect();
        by_load.sort_by_key(|i| (std::cmp::Reverse(owned[*i].len()), *i));
        'givers: for &from in &by_load {
            let mut takers: Vec<usize> = (0..order.len())
                .filter(|to| owned[*to].len() + 1 < owned[from].len())
                .collect();
            takers.sort_by_key(|i| (owned[*i].len(), *i));
            for to in takers {
                // Prefer a partition its current owner did not have before (newly given).
                let candidate = owned[from]
                    .iter()
                    .copied()
                    .filter(|(t, _)| order[to].topics.contains(t))
                    .max_by_key(|tp| {
                        let was_owned = order[from]
                            .current
                            .get(&tp.0)
                            .is_some_and(|ps| ps.contains(&tp.1));
                        (!was_owned, std::cmp::Reverse(*tp))
                    });
                if let Some(tp) = candidate {
                    owned[from].remove(&tp);
                    owned[to].insert(tp);
                    moved = true;
                    break 'givers;
                }
            }
        }
        if !moved {
            break;
        }
    }
    let mut out = empty(members);
    for (i, m) in order.iter().enumerate() {
        let entry = out.get_mut(&m.id).expect("member");
        for (t, p) in &owned[i] {
            entry.entry(*t).or_default().insert(*p);
        }
    }
    out
}

fn range(members: &[MemberSpec], partitions: &BTreeMap<TopicId, i32>) -> Assignment {
    let mut out = empty(members);
    // Static members in instance-id order, then dynamic ones by member id.
    let key = |m: &&MemberSpec| (m.instance_id.is_none(), m.instance_id.clone(), m.id.clone());
    for (t, n) in partitions {
        let mut subscribers: Vec<&MemberSpec> =
            members.iter().filter(|m| m.topics.contains(t)).collect();
        if subscribers.is_empty() {
            continue;
        }
        subscribers.sort_by_key(key);
        let count = subscribers.len() as i32;
        let (each, extra) = (n / count, n % count);
        let mut next = 0;
        for (i, m) in subscribers.iter().enumerate() {
            let take = each + i32::from((i as i32) < extra);
            if take > 0 {
                let entry = out.get_mut(&m.id).expect("member").entry(*t).or_default();
                entry.extend(next..next + take);
            }
            next += take;
        }
    }
    out
}
