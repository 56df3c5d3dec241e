//! Three real `fjord` controller processes (static voters, Kafka's default timeouts) on
//! 127.0.0.1: SIGKILL the leader, a new leader commits within a bound; DescribeQuorum shows
//! it; the killed node restarts and catches up. Twenty rounds; the median failover is printed.

mod common;

use common::{committed_leader, describe, wait_for, Node};
use std::time::{Duration, Instant};

/// Rounds of kill-and-rejoin.
const ROUNDS: usize = 20;
/// The bound on one failover: fetch timeout (2 s) plus up to two election timeouts, with room.
const FAILOVER_BOUND: Duration = Duration::from_secs(15);

#[test]
fn three_controllers_fail_over_and_the_killed_one_catches_up() {
    let root = tempfile::tempdir().unwrap();
    let ports: Vec<u16> = (0..3).map(|_| common::free_port()).collect();
    let voters = format!(
        "controller.quorum.voters={}",
        (0..3)
            .map(|i| format!("{}@127.0.0.1:{}", i + 1, ports[i]))
            .collect::<Vec<_>>()
            .join(",")
    );
    let cluster_id = common::random_uuid();
    let mut nodes: Vec<Node> = (0..3)
        .map(|i| Node::controller(root.path(), i as i32 + 1, ports[i], &voters, ""))
        .collect();
    for n in &mut nodes {
        n.format(&cluster_id, &[]);
        n.start();
    }
    let addrs: Vec<String> = nodes.iter().map(Node::addr).collect();
    let rt = tokio::runtime::Runtime::new().unwrap();
    let first = wait_for(Duration::from_secs(30), || {
        rt.block_on(describe(&addrs)).filter(committed_leader)
    })
    .unwrap_or_else(|| panic!("no leader committed: {}", nodes[0].log_tail()));
    assert_eq!(first.current_voters.len(), 3);

    let mut failovers = Vec::new();
    let mut leader = first;
    for round in 0..ROUNDS {
        let old = leader.leader_id;
        let old_epoch = leader.leader_epoch;
        let idx = (old - 1) as usize;
        nodes[idx].kill();
        let killed_at = Instant::now();
        let live: Vec<String> = nodes
            .iter()
            .filter(|n| n.running())
            .map(Node::addr)
            .collect();
        let next = wait_for(FAILOVER_BOUND, || {
            rt.block_on(describe(&live))
                .filter(|p| p.leader_id != old && p.leader_epoch > old_epoch && committed_leader(p))
        })
        .unwrap_or_else(|| {
            panic!(
                "round {round}: no new leader committed within {FAILOVER_BOUND:?} after killing {old}"
            )
        });
        failovers.push(killed_at.elapsed());
        // DescribeQuorum shows the new state: a new leader in a later epoch, three voters.
        assert_eq!(next.current_voters.len(), 3);
        // The killed node rejoins and catches up with the leader's log end.
        nodes[idx].start();
        let caught_up = wait_for(Duration::from_secs(20), || {
            let p = rt.block_on(describe(&addrs))?;
            let leader_end = p
                .current_voters
                .iter()
                .find(|v| v.replica_id == p.leader_id)?
                .log_end_offset;
            let mine = p.current_voters.iter().find(|v| v.replica_id == old)?;
            (mine.log_end_offset >= leader_end && mine.last_caught_up_timestamp > 0).then_some(p)
        });
        leader = caught_up.unwrap_or_else(|| {
            panic!(
                "round {round}: node {old} did not catch up: {}",
                nodes[idx].log_tail()
            )
        });
    }
    failovers.sort();
    let median = failovers[ROUNDS / 2];
    eprintln!(
        "failover over {ROUNDS} runs: median {median:?}, min {:?}, max {:?}",
        failovers[0],
        failovers[ROUNDS - 1]
    );
    assert!(median < FAILOVER_BOUND);
}
