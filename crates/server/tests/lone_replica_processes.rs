//! What the controller elects by itself after crashes, on real processes (a controller-only
//! node and brokers 1, 2, 3), with the fence forced to come before the crashed broker's new
//! registration (the order a single node killed with SIGKILL usually loses the race to):
//!
//! - a single-replica partition whose replica crashed leads again when that replica returns
//!   (Kafka's last-known-leader election), its records kept, counted as unclean;
//! - a three-replica partition whose last in-sync replica crashed alone stays offline when
//!   that replica returns, and when the others return too: another replica might hold what
//!   the returning one lost, so the choice is `kafka-unclean-recovery`'s, which then elects
//!   the replica that loses least.

mod common;

use common::{
    consume_values, controller_and_brokers, create, fjord, metrics_text, partition_zero,
    produce_acked, show, wait_for, wait_partition, Node, FAST_REPLICATION,
};
use std::time::Duration;

/// The value of the metric line `name` (a gauge or a counter's `_total`) on `node`'s
/// `/metrics`, if it is there.
fn metric(node: &Node, name: &str) -> Option<f64> {
    metrics_text(node.metrics_port)
        .lines()
        .find_map(|l| l.strip_prefix(name)?.strip_prefix(' ')?.trim().parse().ok())
}

#[test]
fn a_lone_replica_leads_again_after_a_crash_and_a_larger_partition_waits_for_recovery() {
    let root = tempfile::tempdir().unwrap();
    let rt = tokio::runtime::Runtime::new().unwrap();
    let (controller, mut brokers) = controller_and_brokers(root.path(), 3, FAST_REPLICATION);
    let addrs: Vec<String> = brokers.iter().map(Node::broker_addr).collect();
    let bootstrap = addrs.join(",");
    create(&bootstrap, "solo", "1", &[]);
    create(&bootstrap, "trio", "1:2:3", &[]);
    wait_partition(&rt, &addrs[0], "trio", "three in sync", |l, isr| {
        l == 1 && isr.len() == 3
    });
    wait_partition(&rt, &addrs[0], "solo", "led by 1", |l, _| l == 1);

    // trio: 10 records everywhere, 10 more once broker 3 died, 10 more once 2 died, so
    // broker 1 holds 30, broker 2 20 and broker 3 10. solo: 10 records on broker 1.
    produce_acked(&rt, &addrs[0], "solo", 0..10);
    produce_acked(&rt, &addrs[0], "trio", 0..10);
    for (dead, isr, more) in [(3, vec![1, 2], 10..20), (2, vec![1], 20..30)] {
        brokers[dead as usize - 1].kill();
        wait_partition(
            &rt,
            &addrs[0],
            "trio",
            "the dead replica out of the ISR",
            |_, i| i == isr.as_slice(),
        );
        produce_acked(&rt, &addrs[0], "trio", more);
    }

    // Broker 1 dies; the controller fences it before it comes back (the ISRs empty into the
    // ELRs), then it returns after its crash: the unclean registration moves it to the last
    // known ELRs.
    brokers[0].kill();
    let fenced = wait_for(Duration::from_secs(60), || {
        (metric(
            &controller,
            "kafka_controller_kafkacontroller_fencedbrokercount",
        )? == 3.0
            && metric(
                &controller,
                "kafka_controller_kafkacontroller_offlinepartitionscount",
            )? == 2.0)
            .then_some(())
    });
    assert!(fenced.is_some(), "{}", controller.log_tail());
    let unclean = |c: &Node| {
        metric(
            c,
            "kafka_controller_controllerstats_uncleanleaderelections_total",
        )
        .unwrap()
    };
    let unclean_before = unclean(&controller);
    brokers[0].start();

    // solo leads again with its records, and the election counts as unclean. Its unfencing
    // and every election it allows are one batch of records: once broker 1 sees solo led,
    // trio's fate at that point is decided too, and it is still offline.
    wait_partition(
        &rt,
        &addrs[0],
        "solo",
        "led by its returning replica",
        |l, _| l == 1,
    );
    let expected = |r: std::ops::Range<usize>| r.map(|i| format!("v{i}")).collect::<Vec<_>>();
    assert_eq!(consume_values(&addrs[0], "solo", 10), expected(0..10));
    assert_eq!(unclean(&controller), unclean_before + 1.0);
    let trio = partition_zero(&rt, &addrs[0], "trio").expect("trio described");
    assert_eq!(
        trio.1, -1,
        "no automatic choice among three replicas: {trio:?}"
    );

    // Brokers 2 and 3 return (neither was eligible): still offline, still one unclean election.
    brokers[1].start();
    brokers[2].start();
    let all_back = wait_for(Duration::from_secs(60), || {
        (metric(
            &controller,
            "kafka_controller_kafkacontroller_fencedbrokercount",
        )? == 0.0)
            .then_some(())
    });
    assert!(all_back.is_some(), "{}", controller.log_tail());
    for a in &addrs {
        wait_partition(&rt, a, "solo", "broker sees the image", |l, _| l == 1);
        let trio = partition_zero(&rt, a, "trio").expect("trio described");
        assert_eq!(trio.1, -1, "{a}: {trio:?}");
    }
    assert_eq!(unclean(&controller), unclean_before + 1.0);

    // The tool asks every replica and elects broker 1, which holds all 30.
    let o = fjord(&[
        "kafka-unclean-recovery",
        "--bootstrap-server",
        &bootstrap,
        "--topic",
        "trio",
        "--automated-recovery",
        "--deadline-ms",
        "5000",
    ]);
    assert!(o.status.success(), "{}", show(&o));
    wait_partition(
        &rt,
        &addrs[1],
        "trio",
        "led by the replica losing least",
        |l, _| l == 1,
    );
    assert_eq!(consume_values(&bootstrap, "trio", 30), expected(0..30));
    assert_eq!(unclean(&controller), unclean_before + 2.0);
}
