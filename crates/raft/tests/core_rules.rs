//! The core's rules, one scenario each, with messages passed by hand.

use bytes::Bytes;
use fjord_raft::{
    Action, FetchResult, MemLog, Message, NodeId, QuorumState, RaftConfig, RaftLog, RaftNode, Role,
};
use std::collections::BTreeSet;

fn voters(n: i32) -> BTreeSet<NodeId> {
    (1..=n).collect()
}

fn node(id: NodeId, n: i32) -> RaftNode<MemLog> {
    node_at(id, n, 0)
}

fn node_at(id: NodeId, n: i32, now: i64) -> RaftNode<MemLog> {
    RaftNode::new(
        id,
        voters(n),
        RaftConfig::default(),
        MemLog::default(),
        QuorumState::default(),
        now,
        id as u64,
    )
}

/// Node 1 times out first; the others start late enough that their timers wait.
fn cluster(n: i32) -> Vec<RaftNode<MemLog>> {
    (1..=n)
        .map(|i| {
            if i == 1 {
                node(i, n)
            } else {
                node_at(i, n, 4_000)
            }
        })
        .collect()
}

fn sends(actions: &[Action]) -> Vec<(NodeId, Message)> {
    actions
        .iter()
        .filter_map(|a| match a {
            Action::Send { to, message } => Some((*to, message.clone())),
            Action::PersistQuorumState(_) => None,
        })
        .collect()
}

/// Delivers every message among `nodes` until none are left; returns how many were delivered.
fn settle(nodes: &mut [RaftNode<MemLog>]) -> usize {
    let mut delivered = 0;
    loop {
        let mut pending = Vec::new();
        for n in nodes.iter_mut() {
            let from = n.id();
            pending.extend(
                sends(&n.take_actions())
                    .into_iter()
                    .map(|(to, m)| (from, to, m)),
            );
        }
        if pending.is_empty() {
            return delivered;
        }
        for (from, to, m) in pending {
            if let Some(n) = nodes.iter_mut().find(|n| n.id() == to) {
                n.receive(from, m);
                delivered += 1;
            }
        }
    }
}

#[test]
fn a_single_voter_elects_itself_and_commits_alone() {
    let mut n = node(1, 1);
    n.tick(10_000);
    assert!(n.is_leader());
    assert_eq!(n.epoch(), 1);
    let actions = n.take_actions();
    assert!(
        matches!(
            actions[0],
            Action::PersistQuorumState(QuorumState {
                epoch: 1,
                voted_for: Some(1),
                ..
            })
        ),
        "the vote is persisted first"
    );
    let offset = n.propose(1, Bytes::from_static(b"x")).unwrap();
    assert_eq!(offset, 1, "offset 0 is the leader-change entry");
    n.tick(10_010);
    assert_eq!(n.high_watermark(), 2);
}

#[test]
fn three_voters_elect_one_leader_and_replicate() {
    let mut nodes = cluster(3);
    nodes[0].tick(5_000);
    settle(&mut nodes);
    assert!(nodes[0].is_leader());
    assert!(nodes
        .iter()
        .skip(1)
        .all(|n| matches!(n.role(), Role::Follower { leader: 1 })));
    nodes[0].propose(1, Bytes::from_static(b"a")).unwrap();
    nodes[0].propose(1, Bytes::from_static(b"b")).unwrap();
    for t in 1..5 {
        for n in nodes.iter_mut() {
            n.tick(5_000 + t * 600);
        }
        settle(&mut nodes);
    }
    for n in &nodes {
        assert_eq!(n.high_watermark(), 3, "node {}", n.id());
        assert_eq!(n.log().entries()[2].data, Bytes::from_static(b"b"));
    }
}

#[test]
fn a_pre_vote_changes_no_state_and_a_live_leader_blocks_it() {
    let mut nodes = cluster(3);
    nodes[0].tick(5_000);
    settle(&mut nodes);
    let before = nodes[1].quorum_state();
    nodes[1].receive(
        3,
        Message::VoteRequest {
            epoch: 1,
            candidate: 3,
            last_epoch: 1,
            end_offset: 1,
            pre_vote: true,
        },
    );
    let out = sends(&nodes[1].take_actions());
    assert_eq!(
        nodes[1].quorum_state(),
        before,
        "a pre-vote persists nothing"
    );
    assert!(
        matches!(
            out[0].1,
            Message::VoteResponse {
                granted: false,
                pre_vote: true,
                ..
            }
        ),
        "the leader is alive"
    );
}

#[test]
fn votes_go_only_to_logs_at_least_as_up_to_date_and_once_per_epoch() {
    let mut n = node(2, 3);
    n.receive(
        1,
        Message::BeginQuorumEpoch {
            epoch: 1,
            leader: 1,
        },
    );
    n.take_actions();
    n.receive(
        1,
        Message::FetchResponse {
            epoch: 1,
            leader: Some(1),
            result: FetchResult::Entries(vec![fjord_raft::Entry {
                offset: 0,
                records: 1,
                epoch: 1,
                kind: fjord_raft::EntryKind::Data,
                data: Bytes::new(),
            }]),
            high_watermark: 0,
            request_id: 1,
        },
    );
    n.take_actions();
    // Behind: an empty log asks for epoch 2.
    n.receive(
        3,
        Message::VoteRequest {
            epoch: 2,
            candidate: 3,
            last_epoch: 0,
            end_offset: 0,
            pre_vote: false,
        },
    );
    assert!(matches!(
        sends(&n.take_actions())[0].1,
        Message::VoteResponse {
            granted: false,
            epoch: 2,
            ..
        }
    ));
    // Up to date: granted, and persisted before the answer.
    n.receive(
        1,
        Message::VoteRequest {
            epoch: 2,
            candidate: 1,
            last_epoch: 1,
            end_offset: 1,
            pre_vote: false,
        },
    );
    let actions = n.take_actions();
    assert!(matches!(
        actions[0],
        Action::PersistQuorumState(QuorumState {
            epoch: 2,
            voted_for: Some(1),
            ..
        })
    ));
    assert!(matches!(
        sends(&actions)[0].1,
        Message::VoteResponse { granted: true, .. }
    ));
    // A second candidate in the same epoch is refused.
    n.receive(
        3,
        Message::VoteRequest {
            epoch: 2,
            candidate: 3,
            last_epoch: 1,
            end_offset: 1,
            pre_vote: false,
        },
    );
    assert!(matches!(
        sends(&n.take_actions())[0].1,
        Message::VoteResponse { granted: false, .. }
    ));
}

#[test]
fn a_diverging_follower_truncates_to_the_leaders_epoch_end() {
    let mut n = node(2, 3);
    n.receive(
        1,
        Message::BeginQuorumEpoch {
            epoch: 3,
            leader: 1,
        },
    );
    n.take_actions();
    let stale = |o: i64, e: i32| fjord_raft::Entry {
        offset: o,
        records: 1,
        epoch: e,
        kind: fjord_raft::EntryKind::Data,
        data: Bytes::new(),
    };
    n.receive(
        1,
        Message::FetchResponse {
            epoch: 3,
            leader: Some(1),
            result: FetchResult::Entries(vec![stale(0, 1), stale(1, 1), stale(2, 2), stale(3, 2)]),
            high_watermark: 1,
            request_id: 1,
        },
    );
    n.take_actions();
    // The leader ends epoch 1 at offset 2 and never had epoch 2 entries: truncate there.
    n.receive(
        1,
        Message::FetchResponse {
            epoch: 3,
            leader: Some(1),
            result: FetchResult::Diverging {
                epoch: 1,
                end_offset: 2,
            },
            high_watermark: 1,
            request_id: 2,
        },
    );
    assert_eq!(n.log().entries().len(), 2);
    let next = sends(&n.take_actions());
    assert!(matches!(
        next[0].1,
        Message::FetchRequest {
            fetch_offset: 2,
            last_fetched_epoch: 1,
            ..
        }
    ));
}

#[test]
fn answers_to_older_fetches_are_ignored() {
    let mut n = node(2, 3);
    n.receive(
        1,
        Message::BeginQuorumEpoch {
            epoch: 1,
            leader: 1,
        },
    );
    let first = sends(&n.take_actions());
    assert!(matches!(
        first[0].1,
        Message::FetchRequest { request_id: 1, .. }
    ));
    n.tick(3_000);
    let _retry = n.take_actions();
    n.receive(
        1,
        Message::FetchResponse {
            epoch: 1,
            leader: Some(1),
            result: FetchResult::Diverging {
                epoch: 0,
                end_offset: 0,
            },
            high_watermark: 0,
            request_id: 0,
        },
    );
    assert!(n.take_actions().is_empty(), "a stale answer does nothing");
}

#[test]
fn a_restarted_leader_resigns_instead_of_leading_again() {
    let persisted = QuorumState {
        epoch: 4,
        leader: Some(1),
        voted_for: Some(1),
    };
    let mut n = RaftNode::new(
        1,
        voters(3),
        RaftConfig::default(),
        MemLog::default(),
        persisted,
        0,
        1,
    );
    assert_eq!(n.role(), &Role::Resigned);
    assert!(n.propose(1, Bytes::new()).is_err());
    n.tick(10_000);
    assert!(
        matches!(n.role(), Role::Prospective { .. }),
        "it stands in a new election once its timer fires"
    );
}

#[test]
fn a_leader_without_a_majority_resigns() {
    let mut nodes = cluster(3);
    nodes[0].tick(5_000);
    settle(&mut nodes);
    assert!(nodes[0].is_leader());
    // Nobody fetches for 1.5 fetch timeouts.
    nodes[0].tick(5_000 + 3_100);
    assert_eq!(nodes[0].role(), &Role::Resigned);
}

#[test]
fn a_pre_vote_from_a_higher_epoch_moves_the_voter_up() {
    // Found by the long simulation: a node stranded in a higher epoch must be able to rejoin.
    let mut nodes = cluster(3);
    nodes[0].tick(5_000);
    settle(&mut nodes);
    assert_eq!(nodes[1].epoch(), 1);
    nodes[1].receive(
        3,
        Message::VoteRequest {
            epoch: 2,
            candidate: 3,
            last_epoch: 0,
            end_offset: 0,
            pre_vote: true,
        },
    );
    assert_eq!(nodes[1].epoch(), 2, "node 3's current epoch 2 exists");
    assert_eq!(nodes[1].role(), &Role::Unattached);
    let out = sends(&nodes[1].take_actions());
    assert!(
        matches!(
            out.last().unwrap().1,
            Message::VoteResponse {
                granted: false,
                pre_vote: true,
                ..
            }
        ),
        "its log is behind"
    );
}

#[test]
fn a_resigning_leader_hands_over_to_its_most_caught_up_voter() {
    let mut nodes = cluster(3);
    nodes[0].tick(5_000);
    settle(&mut nodes);
    nodes[0].propose(1, Bytes::from_static(b"x")).unwrap();
    nodes[0].tick(5_001);
    // Only node 2 fetches the new entry.
    nodes[1].tick(5_600);
    settle(&mut nodes);
    nodes[0].resign();
    assert_eq!(nodes[0].role(), &Role::Resigned);
    let out = sends(&nodes[0].take_actions());
    assert!(out.iter().all(|(_, m)| matches!(m, Message::EndQuorumEpoch { preferred_successors, .. } if preferred_successors[0] == 2)));
    for (to, m) in out {
        nodes[(to - 1) as usize].receive(1, m);
    }
    assert!(
        matches!(
            nodes[1].role(),
            Role::Prospective { .. } | Role::Candidate { .. } | Role::Leader { .. }
        ),
        "the preferred successor stands at once"
    );
    assert!(
        matches!(nodes[2].role(), Role::Follower { .. }),
        "the others wait their turn"
    );
    settle(&mut nodes);
    assert!(nodes[1].is_leader());
    assert_eq!(nodes[1].epoch(), 2);
}

#[test]
fn describe_quorum_reports_every_replica() {
    let mut nodes: Vec<_> = cluster(3);
    // An observer (not a voter) joins.
    nodes.push(RaftNode::new(
        9,
        voters(3),
        RaftConfig::default(),
        MemLog::default(),
        QuorumState::default(),
        4_000,
        9,
    ));
    nodes[0].tick(5_000);
    settle(&mut nodes);
    nodes[3].tick(5_100);
    settle(&mut nodes);
    nodes[3].tick(5_700);
    settle(&mut nodes);
    let d = nodes[0].describe_quorum().expect("the leader describes");
    assert_eq!((d.leader, d.epoch), (1, 1));
    assert_eq!(
        d.voters.iter().map(|r| r.id).collect::<Vec<_>>(),
        vec![1, 2, 3]
    );
    assert_eq!(d.observers.len(), 1);
    assert_eq!(d.observers[0].id, 9);
    assert_eq!(d.observers[0].log_end_offset, 1);
    assert_eq!(
        d.observers[0].last_caught_up_ms, 5_000,
        "by the leader's clock, which stayed at 5000"
    );
    assert!(nodes[1].describe_quorum().is_none());
}

/// Ticks every node every 100 ms from `from` to `to`, delivering messages after each tick.
fn run_for(nodes: &mut [RaftNode<MemLog>], from: i64, to: i64) {
    let mut now = from;
    while now <= to {
        for n in nodes.iter_mut() {
            n.tick(now);
        }
        settle(nodes);
        now += 100;
    }
}

fn observer(id: NodeId, n: i32, now: i64) -> RaftNode<MemLog> {
    RaftNode::new(
        id,
        voters(n),
        RaftConfig {
            max_snapshot_chunk: 7,
            ..RaftConfig::default()
        },
        MemLog::default(),
        QuorumState::default(),
        now,
        id as u64,
    )
}

/// Three voters whose leader (node 1) committed five two-record batches; its high watermark.
fn five_batches_committed() -> (Vec<RaftNode<MemLog>>, i64) {
    let mut nodes = cluster(3);
    run_for(&mut nodes, 5_000, 6_000);
    for i in 0..5 {
        nodes[0].propose(2, Bytes::from(format!("r{i}"))).unwrap();
    }
    run_for(&mut nodes, 6_100, 7_000);
    let hw = nodes[0].high_watermark();
    (nodes, hw)
}

#[test]
fn a_new_observer_loads_the_leaders_snapshot_then_fetches() {
    let (mut nodes, hw) = five_batches_committed();
    assert_eq!(
        hw, 11,
        "the leader-change entry and five two-record batches"
    );
    let id = nodes[0]
        .create_snapshot(hw, Bytes::from_static(b"state at 11"))
        .expect("committed, on a batch boundary");
    assert_eq!(nodes[0].log().start_offset(), 11);
    assert_eq!(
        nodes[0].create_snapshot(hw, Bytes::new()),
        Err(fjord_raft::SnapshotError::NotNewer)
    );
    nodes[0].propose(1, Bytes::from_static(b"after")).unwrap();

    nodes.push(observer(9, 3, 7_000));
    run_for(&mut nodes, 7_100, 8_000);
    let joined = &nodes[3];
    assert_eq!(joined.log().latest_snapshot(), Some(id));
    assert_eq!(
        joined.log().snapshot_state().as_deref(),
        Some(&b"state at 11"[..]),
        "downloaded in 7-byte chunks"
    );
    assert_eq!(joined.log().end_offset(), 12, "then fetched what follows");
    assert_eq!(joined.high_watermark(), 12);
    assert_eq!(joined.voters(), &voters(3));
}

/// A snapshot written off the Raft thread is named first and adopted after: adopted only when
/// it is still newer than the log's start, and not at all (the log untouched) once a newer one
/// was taken meanwhile.
#[test]
fn a_snapshot_named_then_written_elsewhere_is_adopted_only_while_it_is_newest() {
    let (mut nodes, hw) = five_batches_committed();
    assert_eq!(
        nodes[0].snapshot_id_at(hw + 1).map(|(id, _)| id),
        Err(fjord_raft::SnapshotError::NotCommitted)
    );
    assert_eq!(
        nodes[0].snapshot_id_at(hw - 1).map(|(id, _)| id),
        Err(fjord_raft::SnapshotError::NotOnBatchBoundary)
    );
    let (early, voters_then) = nodes[0].snapshot_id_at(hw - 2).unwrap();
    assert_eq!(voters_then, [1, 2, 3].into());
    let (late, _) = nodes[0].snapshot_id_at(hw).unwrap();
    // The later one is adopted first (as if written faster).
    let mut called = 0;
    let adopted = nodes[0].adopt_snapshot(late, |log, voters| {
        called += 1;
        log.create_snapshot(late, voters, Bytes::from_static(b"late"));
    });
    assert_eq!(adopted, Ok(late));
    assert_eq!(nodes[0].log().start_offset(), hw);
    // The earlier one is refused, and its adoption never touches the log.
    let refused = nodes[0].adopt_snapshot(early, |_, _| called += 1);
    assert_eq!(refused, Err(fjord_raft::SnapshotError::NotNewer));
    assert_eq!(called, 1);
    assert_eq!(nodes[0].log().latest_snapshot(), Some(late));
    assert_eq!(
        nodes[0].log().snapshot_state().as_deref(),
        Some(&b"late"[..])
    );
}

#[test]
fn voter_changes_follow_kip_853s_rules() {
    use fjord_raft::VoterChangeError as E;
    let mut nodes = cluster(3);
    nodes[0].tick(5_000);
    // Deliver the votes only: the leader has committed nothing in its epoch yet.
    for _ in 0..2 {
        let out = sends(&nodes[0].take_actions());
        for (to, m) in out {
            nodes[(to - 1) as usize].receive(1, m);
        }
        for i in 1..3 {
            for (_, m) in sends(&nodes[i].take_actions()) {
                if matches!(m, Message::VoteResponse { .. }) {
                    nodes[0].receive(i as NodeId + 1, m);
                }
            }
        }
    }
    assert!(nodes[0].is_leader());
    assert_eq!(
        nodes[0].add_voter(9, Bytes::new()),
        Err(E::ChangeInProgress),
        "nothing committed in the leader's epoch yet"
    );
    run_for(&mut nodes, 5_100, 6_000);
    assert_eq!(nodes[0].add_voter(9, Bytes::new()), Err(E::NotCaughtUp));
    assert_eq!(nodes[0].add_voter(2, Bytes::new()), Err(E::DuplicateVoter));
    assert_eq!(
        nodes[0].remove_voter(7, Bytes::new()),
        Err(E::VoterNotFound)
    );
    assert!(matches!(
        nodes[1].add_voter(9, Bytes::new()),
        Err(E::NotLeader(_))
    ));
    nodes.push(observer(9, 3, 6_000));
    run_for(&mut nodes, 6_100, 7_000);
    let at = nodes[0].add_voter(9, Bytes::new()).expect("caught up");
    assert_eq!(nodes[0].voters(), &[1, 2, 3, 9].into(), "in force at once");
    assert_eq!(
        nodes[0].remove_voter(2, Bytes::new()),
        Err(E::ChangeInProgress),
        "one change at a time"
    );
    run_for(&mut nodes, 7_100, 8_000);
    assert!(nodes[0].high_watermark() > at);
    for n in &nodes {
        assert_eq!(n.voters(), &[1, 2, 3, 9].into(), "node {}", n.id());
    }
    nodes[0]
        .remove_voter(2, Bytes::new())
        .expect("the add is committed");
    run_for(&mut nodes, 8_100, 9_000);
    for n in &nodes {
        assert_eq!(n.voters(), &[1, 3, 9].into(), "node {}", n.id());
    }
}

#[test]
fn a_leader_that_removes_itself_resigns_once_committed() {
    let mut nodes = cluster(3);
    run_for(&mut nodes, 5_000, 6_000);
    assert!(nodes[0].is_leader());
    let at = nodes[0].remove_voter(1, Bytes::new()).expect("allowed");
    assert!(nodes[0].is_leader(), "it leads until the change commits");
    // Without node 1, a majority of {2, 3} is both of them.
    nodes[1].tick(6_050);
    settle(&mut nodes);
    assert!(
        nodes[0].is_leader(),
        "node 3 has not fetched the change yet"
    );
    assert!(nodes[0].high_watermark() <= at);
    run_for(&mut nodes, 6_100, 9_000);
    let leaders: Vec<NodeId> = nodes
        .iter()
        .filter(|n| n.is_leader())
        .map(|n| n.id())
        .collect();
    assert_eq!(leaders.len(), 1);
    assert_ne!(leaders[0], 1, "node 1 handed over");
    assert!(nodes.iter().all(|n| n.voters() == &[2, 3].into()));
    assert!(
        matches!(nodes[0].role(), Role::Follower { .. }),
        "node 1 follows as an observer"
    );
    assert_eq!(nodes[0].high_watermark(), nodes[1].high_watermark());
}

#[test]
fn a_leader_tracks_a_bounded_number_of_observers_and_forgets_silent_ones() {
    use fjord_raft::node::{MAX_TRACKED_OBSERVERS, OBSERVER_SESSION_TIMEOUT_MS};
    let mut n = node(1, 1);
    n.tick(10_000);
    assert!(n.is_leader());
    // Fetches from many made-up replica ids.
    for (i, id) in (1_000..1_000 + 3 * MAX_TRACKED_OBSERVERS as i32).enumerate() {
        n.tick(10_000 + i as i64);
        n.receive(
            id,
            Message::FetchRequest {
                epoch: 1,
                replica: id,
                fetch_offset: 0,
                last_fetched_epoch: 0,
                high_watermark: fjord_raft::types::HIGH_WATERMARK_NOT_SENT,
                request_id: i as u64,
            },
        );
        n.take_actions();
    }
    let d = n.describe_quorum().unwrap();
    assert_eq!(d.observers.len(), MAX_TRACKED_OBSERVERS);
    let newest = 1_000 + 3 * MAX_TRACKED_OBSERVERS as i32 - 1;
    assert!(
        d.observers.iter().any(|o| o.id == newest),
        "the newest is kept"
    );
    // Silent past the observer session: forgotten.
    n.tick(20_000 + OBSERVER_SESSION_TIMEOUT_MS);
    assert!(n.describe_quorum().unwrap().observers.is_empty());
}

#[test]
fn a_leader_whose_connection_closes_twice_is_replaced_at_once_but_one_blip_changes_nothing() {
    let mut nodes = cluster(3);
    nodes[0].tick(5_000);
    settle(&mut nodes);
    assert!(nodes[0].is_leader());
    let epoch = nodes[0].epoch();
    // One blip on node 2: it fetches again at once, the leader answers, nothing changes.
    nodes[1].peer_connection_closed(1);
    let refetch = sends(&nodes[1].take_actions());
    assert!(
        refetch
            .iter()
            .any(|(to, m)| *to == 1 && matches!(m, Message::FetchRequest { .. })),
        "a fetch to the leader at once: {refetch:?}"
    );
    for (to, m) in refetch {
        nodes[(to - 1) as usize].receive(2, m);
    }
    settle(&mut nodes);
    assert!(matches!(nodes[1].role(), Role::Follower { leader: 1 }));
    // Another single blip later is again only a refetch (the answer ended the suspicion).
    nodes[1].peer_connection_closed(1);
    assert!(matches!(nodes[1].role(), Role::Follower { leader: 1 }));
    settle(&mut nodes);
    // Node 1 dies: nodes 2 and 3 lose their connections and their reconnects are refused.
    // Within tens of milliseconds (not the 2 s fetch timeout), one of them leads
    // a new epoch.
    let mut live: Vec<RaftNode<MemLog>> = nodes.drain(1..).collect();
    let now = 5_600;
    for n in live.iter_mut() {
        n.tick(now);
        n.peer_connection_closed(1);
        let _ = n.take_actions();
        n.peer_connection_closed(1);
        assert!(
            matches!(n.role(), Role::Follower { leader: 1 }),
            "{:?}",
            n.role()
        );
    }
    for t in (now + 1..now + 200).step_by(5) {
        for n in live.iter_mut() {
            n.tick(t);
        }
        for _ in 0..4 {
            let mut pending = Vec::new();
            for n in live.iter_mut() {
                let from = n.id();
                pending.extend(
                    sends(&n.take_actions())
                        .into_iter()
                        .filter(|(to, _)| *to != 1)
                        .map(|(to, m)| (from, to, m)),
                );
            }
            for (from, to, m) in pending {
                live[(to - 2) as usize].receive(from, m);
            }
        }
    }
    let leaders: Vec<_> = live.iter().filter(|n| n.is_leader()).collect();
    assert_eq!(
        leaders.len(),
        1,
        "{:?}",
        live.iter().map(|n| n.role().clone()).collect::<Vec<_>>()
    );
    assert!(leaders[0].epoch() > epoch);
}
