//! KIP-848 reconciliation over seeded random histories: members heartbeat in any order while
//! the target assignment keeps changing (subscriptions change, the uniform assignor runs
//! again), and answers are lost now and then. The oracle is the clients' own view: no
//! partition is ever consumed by two clients at once, every heartbeat of a client that missed
//! no answer is accepted (one that missed an answer may be fenced under Kafka's previous-epoch
//! rule: it gives up its partitions and rejoins), and once the target stops
//! changing every member reaches it, stable at the target epoch. `FJORD_SIM_SEEDS` sets the
//! seeds (default 1,000).

use fjord_group::assignors::{Assignor, MemberSpec, TopicId};
use fjord_group::reconcile::{epoch_accepted, reconcile, MemberState, Partitions, Reconciled};
use fjord_util::SimRng;
use std::collections::{BTreeMap, BTreeSet};

fn seeds() -> u64 {
    std::env::var("FJORD_SIM_SEEDS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(1_000)
}

/// One member: the coordinator's state of it, and its client's.
struct Member {
    server: Reconciled,
    /// What the client consumes now.
    owned: Partitions,
    /// The epoch the client last heard.
    epoch: i32,
    /// Answers lost in a row (after one, its next heartbeat is a full one).
    lost: u32,
    /// The owned partitions it last reported (it reports them again when they change, as
    /// KIP-848's clients do, and sometimes anyway).
    reported: Option<Partitions>,
    topics: BTreeSet<TopicId>,
}

/// The group's target: its epoch and each member's partitions.
struct Target {
    epoch: i32,
    by_member: Vec<Partitions>,
}

fn assign(members: &[Member], topics: &BTreeMap<TopicId, i32>, epoch: i32) -> Target {
    let specs: Vec<MemberSpec> = members
        .iter()
        .enumerate()
        .map(|(i, m)| MemberSpec {
            id: format!("m{i:02}"),
            topics: m.topics.clone(),
            current: m.server.assigned.clone(),
            ..Default::default()
        })
        .collect();
    let a = Assignor::Uniform.assign(&specs, topics);
    Target {
        epoch,
        by_member: specs.iter().map(|s| a[&s.id].clone()).collect(),
    }
}

fn subscription(rng: &mut SimRng, topics: &BTreeMap<TopicId, i32>) -> BTreeSet<TopicId> {
    let mut s: BTreeSet<TopicId> = topics.keys().copied().filter(|_| rng.percent(70)).collect();
    if s.is_empty() {
        s.insert(*topics.keys().next().unwrap());
    }
    s
}

/// One heartbeat of member `i` (its answer lost with probability `lose` percent).
fn heartbeat(members: &mut [Member], i: usize, target: &Target, rng: &mut SimRng, lose: u64) {
    let changed = members[i].reported.as_ref() != Some(&members[i].owned);
    let full = members[i].lost > 0 || changed || rng.percent(50);
    let owned = full.then(|| members[i].owned.clone());
    if full {
        members[i].reported = owned.clone();
    }
    let sent = members[i].epoch;
    if !epoch_accepted(&members[i].server, sent, owned.as_ref()) {
        // FENCED_MEMBER_EPOCH: only a client that missed an answer can be (Kafka's rule: the
        // previous epoch is accepted only while the client owns nothing beyond what it is
        // assigned). It gives up everything it consumes and rejoins at epoch 0, which starts
        // its member afresh.
        assert!(
            members[i].lost >= 1,
            "a client was fenced: sent {sent}, member {:?}, client owns {:?} (missed {})",
            members[i].server,
            members[i].owned,
            members[i].lost
        );
        let m = &mut members[i];
        m.owned.clear();
        m.epoch = 0;
        m.lost = 0;
        m.reported = None;
        m.server = Reconciled::new();
        return;
    }
    let held_by_other = |t: TopicId, p: i32| {
        members
            .iter()
            .enumerate()
            .any(|(j, m)| j != i && m.server.held().any(|x| x == (t, p)))
    };
    let next = reconcile(
        &members[i].server,
        target.epoch,
        &target.by_member[i],
        owned.as_ref(),
        held_by_other,
    );
    members[i].server = next;
    if rng.percent(lose) {
        members[i].lost += 1;
        return;
    }
    // The answer: the client consumes what it is assigned (it revokes the rest at once).
    let m = &mut members[i];
    m.lost = 0;
    m.owned = m.server.assigned.clone();
    m.epoch = m.server.member_epoch;
}

/// No partition is consumed by two clients.
fn check_disjoint(members: &[Member], seed: u64, step: usize) {
    let mut seen: BTreeMap<(TopicId, i32), usize> = BTreeMap::new();
    for (i, m) in members.iter().enumerate() {
        for (t, ps) in &m.owned {
            for p in ps {
                if let Some(j) = seen.insert((*t, *p), i) {
                    panic!("seed {seed} step {step}: {t}-{p} consumed by m{j} and m{i}");
                }
            }
        }
    }
}

#[test]
fn no_partition_is_consumed_twice_and_every_member_reaches_the_target() {
    for seed in 0..seeds() {
        let mut rng = SimRng::new(seed);
        let topics: BTreeMap<TopicId, i32> = (1..=1 + rng.below(3))
            .map(|t| (u128::from(t), 1 + rng.below(10) as i32))
            .collect();
        let mut members: Vec<Member> = (0..1 + rng.below(6))
            .map(|_| Member {
                server: Reconciled::new(),
                owned: Partitions::new(),
                epoch: 0,
                lost: 0,
                reported: None,
                topics: subscription(&mut rng, &topics),
            })
            .collect();
        let mut target = assign(&members, &topics, 1);
        let lose = rng.below(20);
        for step in 0..300 {
            if rng.percent(5) {
                // A subscription changes: a new group epoch and target.
                let i = rng.below(members.len() as u64) as usize;
                members[i].topics = subscription(&mut rng, &topics);
                target = assign(&members, &topics, target.epoch + 1);
            }
            let i = rng.below(members.len() as u64) as usize;
            heartbeat(&mut members, i, &target, &mut rng, lose);
            check_disjoint(&members, seed, step);
        }
        // The target holds still: answers arrive, and every member gets there.
        for _round in 0..(2 * members.len() + 4) {
            for i in 0..members.len() {
                heartbeat(&mut members, i, &target, &mut rng, 0);
                check_disjoint(&members, seed, usize::MAX);
            }
        }
        for (i, m) in members.iter().enumerate() {
            assert_eq!(
                (m.server.state, m.server.member_epoch),
                (MemberState::Stable, target.epoch),
                "seed {seed}: m{i}; members {:#?}; targets {:?}",
                members.iter().map(|m| &m.server).collect::<Vec<_>>(),
                target.by_member
            );
            assert_eq!(m.owned, target.by_member[i], "seed {seed}: m{i}");
        }
    }
}
