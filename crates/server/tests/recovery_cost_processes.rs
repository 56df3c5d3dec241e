//! What `kafka-unclean-recovery` chooses and what it says the choice costs, on real processes
//! (a controller-only node and brokers 1, 2, 3), checked against what then happens:
//!
//! - a replica that never fetched (an empty log, no epoch) never beats one holding
//!   acknowledged records, whatever the partition's current epoch: the seed's own example of
//!   what must never happen, and what the first version of the tool did;
//! - a replica whose log diverged at an earlier epoch loses to the newer epoch, the table says
//!   how many records it will truncate, and after the election it truncates exactly that many.

mod common;

use common::{
    consume_values, controller_and_brokers, create, partition_log_bytes, produce_acked,
    recovery_row as row, wait_for, wait_partition, Node, FAST_REPLICATION,
};
use std::time::Duration;

/// Runs `kafka-unclean-recovery` on `topic` with `mode` (`--dry-run` or
/// `--automated-recovery`) and returns what it printed, asserting it succeeded.
fn recovery(bootstrap: &str, topic: &str, mode: &str) -> String {
    let flags: Vec<&str> = mode.split(' ').collect();
    common::unclean_recovered(bootstrap, topic, 5_000, &flags)
}

const TOPIC_CONFIGS: [&str; 2] = [
    "min.insync.replicas=1",
    "unclean.leader.election.enable=false",
];

#[test]
fn an_empty_new_replica_never_beats_one_holding_acknowledged_records() {
    let root = tempfile::tempdir().unwrap();
    let rt = tokio::runtime::Runtime::new().unwrap();
    let (_controller, mut brokers) = controller_and_brokers(root.path(), 3, FAST_REPLICATION);
    let addrs: Vec<String> = brokers.iter().map(Node::broker_addr).collect();
    let t = "empty";
    create(&addrs.join(","), t, "1:2:3", &TOPIC_CONFIGS);
    wait_partition(&rt, &addrs[0], t, "three in sync", |l, isr| {
        l == 1 && isr.len() == 3
    });
    // Broker 3 dies before any record is written: its log stays empty.
    brokers[2].kill();
    wait_partition(&rt, &addrs[0], t, "ISR 1,2", |_, isr| isr == [1, 2]);
    produce_acked(&rt, &addrs[..2].join(","), t, 0..500);
    // Broker 2, then the last ISR member, broker 1, die; brokers 2 and 3 come back.
    brokers[1].kill();
    wait_partition(&rt, &addrs[0], t, "ISR 1", |_, isr| isr == [1]);
    brokers[0].kill();
    brokers[1].start();
    brokers[2].start();
    wait_partition(&rt, &addrs[1], t, "offline", |l, _| l == -1);

    let out = recovery(&addrs[1], t, "--dry-run");
    assert_eq!(row(&out, 2)[1..5], ["answered", "1", "0", "500"], "{out}");
    assert_eq!(row(&out, 3)[1..5], ["answered", "1", "-", "0"], "{out}");
    assert!(
        out.contains("Choice: broker 2 (highest last written leader epoch (0))"),
        "{out}"
    );
    assert!(out.contains("lost: no epoch (empty log)"), "{out}");
    assert!(
        out.contains(
            "Cost: broker 2 truncates 0 records (the new leader), broker 3 truncates 0 records."
        ),
        "{out}"
    );

    let out = recovery(&addrs[1], t, "--automated-recovery");
    assert!(
        out.contains("Recovered empty-0: leader is broker 2."),
        "{out}"
    );
    // All 500 acknowledged records are there, and broker 3 follows without cutting anything.
    let expected: Vec<String> = (0..500).map(|i| format!("v{i}")).collect();
    assert_eq!(consume_values(&addrs[1..].join(","), t, 500), expected);
    wait_partition(&rt, &addrs[1], t, "ISR 2,3", |l, isr| {
        l == 2 && isr.len() == 2
    });
    assert!(
        !std::fs::read_to_string(brokers[2].dir.join("server.log"))
            .unwrap_or_default()
            .contains("truncated to the leader's epoch"),
        "broker 3 truncated nothing"
    );
}

#[test]
fn a_replica_diverged_at_an_earlier_epoch_is_cut_by_exactly_the_reported_figure() {
    let root = tempfile::tempdir().unwrap();
    let rt = tokio::runtime::Runtime::new().unwrap();
    let (_controller, mut brokers) = controller_and_brokers(root.path(), 3, FAST_REPLICATION);
    let addrs: Vec<String> = brokers.iter().map(Node::broker_addr).collect();
    let t = "diverged";
    create(&addrs.join(","), t, "1:2:3", &TOPIC_CONFIGS);
    wait_partition(&rt, &addrs[0], t, "three in sync", |l, isr| {
        l == 1 && isr.len() == 3
    });
    produce_acked(&rt, &addrs.join(","), t, 0..100);
    // Brokers 3 and 2 leave; broker 1 alone acknowledges 30 more in epoch 0, then dies.
    brokers[2].kill();
    wait_partition(&rt, &addrs[0], t, "ISR 1,2", |_, isr| isr == [1, 2]);
    brokers[1].kill();
    wait_partition(&rt, &addrs[0], t, "ISR 1", |_, isr| isr == [1]);
    produce_acked(&rt, &addrs[0], t, 100..130);
    brokers[0].kill();
    // Brokers 2 and 3 come back and are recovered (tied at 100 records: broker 2 leads);
    // 20 records are written in the new epoch, on both.
    brokers[1].start();
    brokers[2].start();
    wait_partition(&rt, &addrs[1], t, "offline", |l, _| l == -1);
    let out = recovery(&addrs[1], t, "--automated-recovery");
    assert!(
        out.contains("Recovered diverged-0: leader is broker 2."),
        "{out}"
    );
    wait_partition(&rt, &addrs[1], t, "ISR 2,3", |l, isr| {
        l == 2 && isr.len() == 2
    });
    produce_acked(&rt, &addrs[1..].join(","), t, 200..220);
    // Broker 3, then broker 2 die; brokers 1 (30 records of its own in epoch 0) and 3 (the
    // 20 of the newer epoch) come back.
    brokers[2].kill();
    wait_partition(&rt, &addrs[1], t, "ISR 2", |_, isr| isr == [2]);
    brokers[1].kill();
    brokers[0].start();
    brokers[2].start();
    wait_partition(&rt, &addrs[0], t, "offline", |l, _| l == -1);

    let out = recovery(&addrs[0], t, "--dry-run");
    let one = row(&out, 1);
    let three = row(&out, 3);
    assert_eq!(
        one[1..5],
        ["answered", one[2].as_str(), "0", "130"],
        "{out}"
    );
    assert_eq!(three[4], "120", "{out}");
    let newer: i32 = three[3].parse().expect("broker 3 wrote in an epoch");
    assert!(newer > 0, "{out}");
    assert!(
        out.contains(&format!(
            "Choice: broker 3 (highest last written leader epoch ({newer}))"
        )),
        "{out}"
    );
    assert!(
        out.contains(&format!("lost: last written epoch 0 < {newer}")),
        "{out}"
    );
    assert_eq!(one[7], "30", "{out}");
    assert!(out.contains("broker 1 truncates 30 records"), "{out}");
    // Broker 1 knew some of its 30 committed (its high watermark, as checkpointed): those are
    // the acknowledged records known lost.
    let hw1: i64 = one[5].parse().unwrap_or(0);
    let known = (hw1.min(130) - 100).max(0);
    assert!(
        out.contains(&format!("Acknowledged records known lost: {known} ")),
        "{out}"
    );

    // Broker 1 committed alone past 120 if its high watermark was checkpointed before it
    // died: the offsets beyond 120 are then given out again, and the table says so.
    if hw1 > 120 {
        assert!(
            out.contains(&format!("Offsets reused: {} (offsets 120 to", hw1 - 120)),
            "{out}"
        );
    } else {
        assert!(!out.contains("Offsets reused"), "{out}");
    }
    let out = recovery(&addrs[0], t, "--automated-recovery --allow-offset-reuse");
    assert!(
        out.contains("Recovered diverged-0: leader is broker 3."),
        "{out}"
    );
    wait_partition(&rt, &addrs[0], t, "ISR 1,3", |l, isr| {
        l == 3 && isr.len() == 2
    });
    // The real truncation is the figure shown: broker 1 cut exactly 30 records.
    let log = std::fs::read_to_string(brokers[0].dir.join("server.log")).unwrap_or_default();
    let cuts: Vec<&str> = log
        .lines()
        .filter(|l| l.contains("truncated to the leader's epoch"))
        .collect();
    assert_eq!(cuts.len(), 1, "{cuts:?}");
    assert!(cuts[0].contains("truncated=30"), "{cuts:?}");
    let expected: Vec<String> = (0..100).chain(200..220).map(|i| format!("v{i}")).collect();
    assert_eq!(consume_values(&addrs[2], t, 120), expected);
    let same = wait_for(Duration::from_secs(30), || {
        (partition_log_bytes(&brokers[0], t, 0) == partition_log_bytes(&brokers[2], t, 0))
            .then_some(())
    });
    assert!(same.is_some(), "brokers 1 and 3 hold the same log");
}
