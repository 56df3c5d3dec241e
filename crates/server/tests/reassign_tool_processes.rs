//! `kafka-reassign-partitions` and replication throttles (KIP-455, KIP-73) on real processes:
//! a dead broker decommissioned end to end (`--generate`, `--execute --throttle`, `--verify`
//! clearing the throttles, `kafka-cluster unregister`, and `kafka-topics --describe` with no
//! trace of it), a replica catching up 20 MB under a 1 MB/s throttle, which takes about
//! twenty seconds rather than one (its rate in both brokers' gauges), and a plan's `log_dirs`.

mod common;

use common::{controller_and_brokers, fjord, show, text, wait_for, FAST_REPLICATION};
use std::path::Path;
use std::time::{Duration, Instant};

/// Runs `kafka-reassign-partitions` with `args` at `bs`; its stdout (it must succeed).
fn reassign_tool(bs: &str, args: &[&str]) -> String {
    let mut all = vec!["kafka-reassign-partitions", "--bootstrap-server", bs];
    all.extend_from_slice(args);
    let o = fjord(&all);
    assert!(o.status.success(), "{args:?}: {}", show(&o));
    text(&o.stdout)
}

fn write(dir: &Path, name: &str, content: &str) -> String {
    let path = dir.join(name);
    std::fs::write(&path, content).unwrap();
    path.to_string_lossy().into_owned()
}

/// The dynamic configs `kafka-configs --describe` shows for topic `t`.
fn topic_configs(bs: &str, t: &str) -> String {
    let o = fjord(&[
        "kafka-configs",
        "--bootstrap-server",
        bs,
        "--describe",
        "--entity-type",
        "topics",
        "--entity-name",
        t,
    ]);
    assert!(o.status.success(), "{}", show(&o));
    text(&o.stdout)
}

/// Polls `--verify` of `plan` until every partition in it is reported completed; the last
/// output.
fn verify_until_complete(bs: &str, plan: &str, partitions: &[&str], limit: Duration) -> String {
    let mut last = String::new();
    let done = wait_for(limit, || {
        last = reassign_tool(bs, &["--verify", "--reassignment-json-file", plan]);
        partitions
            .iter()
            .all(|p| last.contains(&format!("Reassignment of partition {p} is completed.")))
            .then_some(())
    });
    assert!(done.is_some(), "not completed: {last}");
    last
}

#[test]
fn a_dead_broker_is_decommissioned_with_the_tools_under_a_throttle() {
    let root = tempfile::tempdir().unwrap();
    let extra = format!("{FAST_REPLICATION}\nfile.delete.delay.ms=0");
    let (_controller, mut brokers) = controller_and_brokers(root.path(), 3, &extra);
    let bs = brokers[0].broker_addr();
    let rt = tokio::runtime::Runtime::new().unwrap();
    common::create(&bs, "orders", "1:2,2:1", &[]);
    common::produce_acked(&rt, &bs, "orders", 0..1_000);
    // Broker 2 dies for good.
    brokers[1].kill();

    // --generate: a plan putting both partitions on brokers 1 and 3.
    let topics = write(
        root.path(),
        "topics.json",
        r#"{"topics":[{"topic":"orders"}],"version":1}"#,
    );
    let out = reassign_tool(
        &bs,
        &[
            "--generate",
            "--topics-to-move-json-file",
            &topics,
            "--broker-list",
            "1,3",
        ],
    );
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines[0], "Current partition replica assignment", "{out}");
    assert_eq!(
        lines[1],
        r#"{"version":1,"partitions":[{"topic":"orders","partition":0,"replicas":[1,2],"log_dirs":["any","any"]},{"topic":"orders","partition":1,"replicas":[2,1],"log_dirs":["any","any"]}]}"#
    );
    assert_eq!(lines[3], "Proposed partition reassignment configuration");
    let proposed: serde_json::Value = serde_json::from_str(lines[4]).unwrap();
    for p in proposed["partitions"].as_array().unwrap() {
        let mut r: Vec<i64> = p["replicas"]
            .as_array()
            .unwrap()
            .iter()
            .map(|x| x.as_i64().unwrap())
            .collect();
        r.sort();
        assert_eq!(r, [1, 3], "{out}");
    }
    let plan = write(root.path(), "plan.json", lines[4]);

    // --execute under a throttle: the topic and broker throttles are set, then the moves start.
    let out = reassign_tool(
        &bs,
        &[
            "--execute",
            "--reassignment-json-file",
            &plan,
            "--throttle",
            "50000000",
        ],
    );
    assert!(
        out.contains("Save this to use as the --reassignment-json-file option during rollback"),
        "{out}"
    );
    assert!(
        out.contains("Warning: You must run --verify periodically"),
        "{out}"
    );
    assert!(
        out.contains("The inter-broker throttle limit was set to 50000000 B/s"),
        "{out}"
    );
    assert!(
        out.contains("Successfully started partition reassignments for orders-0,orders-1"),
        "{out}"
    );
    // A second --execute without --additional is refused while they are under way, unless
    // they finished already.
    let listed = reassign_tool(&bs, &["--list"]);
    assert!(
        listed == "No partition reassignments found.\n"
            || listed.starts_with("Current partition reassignments:\norders-"),
        "{listed}"
    );

    // --verify until both are done: it then clears every throttle it set.
    let out = verify_until_complete(
        &bs,
        &plan,
        &["orders-0", "orders-1"],
        Duration::from_secs(90),
    );
    assert!(
        out.starts_with("Status of partition reassignment:\n"),
        "{out}"
    );
    assert!(
        out.contains("Clearing broker-level throttles on brokers 1,3"),
        "{out}"
    );
    assert!(
        out.contains("Clearing topic-level throttles on topic orders"),
        "{out}"
    );
    let configs = topic_configs(&bs, "orders");
    assert!(!configs.contains("throttled"), "{configs}");

    // Broker 2 is unregistered, and nothing names it any more.
    let o = fjord(&[
        "kafka-cluster",
        "unregister",
        "--bootstrap-server",
        &bs,
        "--id",
        "2",
    ]);
    assert!(o.status.success(), "{}", show(&o));
    let o = fjord(&[
        "kafka-topics",
        "--bootstrap-server",
        &bs,
        "--describe",
        "--topic",
        "orders",
    ]);
    assert!(o.status.success(), "{}", show(&o));
    let described = text(&o.stdout);
    for line in described.lines().filter(|l| l.contains("Partition: ")) {
        for field in line.split('\t') {
            if let Some((name, ids)) = field.split_once(": ") {
                if ["Leader", "Replicas", "Isr", "Elr", "LastKnownElr"].contains(&name.trim()) {
                    assert!(!ids.split(',').any(|i| i.trim() == "2"), "{described}");
                }
            }
        }
    }
    let o = fjord(&["kafka-cluster", "cluster-id", "--bootstrap-server", &bs]);
    assert!(o.status.success(), "{}", show(&o));
    // Every acknowledged record is still there.
    let values = common::consume_values(&bs, "orders", 1_000);
    let expected: Vec<String> = (0..1_000).map(|i| format!("v{i}")).collect();
    assert_eq!(values, expected);
}

#[test]
fn catching_up_twenty_megabytes_under_a_one_megabyte_throttle_takes_twenty_seconds() {
    let root = tempfile::tempdir().unwrap();
    let (_controller, brokers) = controller_and_brokers(root.path(), 2, FAST_REPLICATION);
    let bs = brokers[0].broker_addr();
    common::create(&bs, "big", "1", &[]);
    // 20 MiB of record payload on broker 1 alone.
    common::produce_sized(&bs, "big", &[("acks", "all")], 200, 100 * 1_048_576 / 1_000);
    let plan = write(
        root.path(),
        "plan.json",
        r#"{"version":1,"partitions":[{"topic":"big","partition":0,"replicas":[1,2]}]}"#,
    );
    let started = Instant::now();
    let out = reassign_tool(
        &bs,
        &[
            "--execute",
            "--reassignment-json-file",
            &plan,
            "--throttle",
            "1048576",
        ],
    );
    assert!(
        out.contains("The inter-broker throttle limit was set to 1048576 B/s"),
        "{out}"
    );
    let configs = topic_configs(&bs, "big");
    assert!(
        configs.contains("leader.replication.throttled.replicas=0:1 "),
        "{configs}"
    );
    assert!(
        configs.contains("follower.replication.throttled.replicas=0:2 "),
        "{configs}"
    );
    // The throttled bytes show in each side's gauge (Kafka's LeaderReplication and
    // FollowerReplication byte-rate sensors), never far above the bound.
    let gauge = |node: &common::Node, name: &str| -> f64 {
        common::metrics_text(node.metrics_port)
            .lines()
            .find(|l| l.starts_with(&format!("{name} ")))
            .and_then(|l| l.rsplit(' ').next()?.parse().ok())
            .unwrap_or(0.0)
    };
    let seen = wait_for(Duration::from_secs(30), || {
        let leader = gauge(&brokers[0], "kafka_server_leaderreplication_byte_rate");
        let follower = gauge(&brokers[1], "kafka_server_followerreplication_byte_rate");
        (leader > 0.0 && follower > 0.0).then_some((leader, follower))
    });
    let (leader, follower) = seen.expect("no throttled bytes in the gauges");
    assert!(
        leader < 2.5 * 1_048_576.0 && follower < 2.5 * 1_048_576.0,
        "{leader} and {follower} bytes a second under a 1 MiB/s throttle"
    );
    verify_until_complete(&bs, &plan, &["big-0"], Duration::from_secs(120));
    let took = started.elapsed();
    eprintln!("the throttled copy took {took:?}");
    // About 20 MiB at 1 MiB/s: never much faster (an unthrottled copy takes about a second
    // here); the upper bound only catches a throttle that stalls.
    assert!(
        took >= Duration::from_secs(15) && took <= Duration::from_secs(80),
        "the copy took {took:?}"
    );
    assert!(common::replicas_identical(&brokers, "big", 0));
}

/// A plan's `log_dirs` is honoured: both partitions of a topic move to broker 1 and into the
/// log dir the plan names (the tool retries AlterReplicaLogDirs until broker 1 hosts each
/// replica), and `--verify` reports each replica's move.
#[test]
fn a_plan_places_new_replicas_in_the_log_dirs_it_names() {
    let root = tempfile::tempdir().unwrap();
    let cport = common::free_port();
    let voters = format!("controller.quorum.voters=10@127.0.0.1:{cport}");
    let cluster = common::random_uuid();
    let mut controller =
        common::Node::controller(root.path(), 10, cport, &voters, FAST_REPLICATION);
    controller.format(&cluster, &[]);
    controller.start();
    let (d1, d2) = (root.path().join("b1-one"), root.path().join("b1-two"));
    let mut brokers: Vec<common::Node> = (1..=2)
        .map(|id| {
            let extra = if id == 1 {
                format!(
                    "{FAST_REPLICATION}\nlog.dirs={},{}",
                    d1.display(),
                    d2.display()
                )
            } else {
                FAST_REPLICATION.to_string()
            };
            common::Node::broker(root.path(), id, common::free_port(), &voters, &extra)
        })
        .collect();
    for b in &mut brokers {
        b.format(&cluster, &[]);
        b.start();
    }
    let bs = brokers[1].broker_addr();
    common::wait_brokers_unfenced(&bs, &[1, 2]);
    common::create(&bs, "dirs", "2,2", &[]);
    let rt = tokio::runtime::Runtime::new().unwrap();
    common::produce_acked(&rt, &bs, "dirs", 0..100);
    let target = d2.display().to_string();
    let plan = write(
        root.path(),
        "plan.json",
        &format!(
            r#"{{"version":1,"partitions":[{{"topic":"dirs","partition":0,"replicas":[2,1],"log_dirs":["any","{target}"]}},{{"topic":"dirs","partition":1,"replicas":[2,1],"log_dirs":["any","{target}"]}}]}}"#
        ),
    );
    let out = reassign_tool(&bs, &["--execute", "--reassignment-json-file", &plan]);
    assert!(
        out.contains("Successfully started partition reassignments for dirs-0,dirs-1"),
        "{out}"
    );
    for p in 0..2 {
        assert!(
            out.contains(&format!(
                "Successfully started moving log directory to {target} for replica dirs-{p} with broker 1 "
            )),
            "{out}"
        );
    }
    let mut last = String::new();
    let done = wait_for(Duration::from_secs(90), || {
        last = reassign_tool(&bs, &["--verify", "--reassignment-json-file", &plan]);
        // The replica moves and the reassignments end in either order.
        [
            "Reassignment of replica dirs-0-1 completed successfully.",
            "Reassignment of replica dirs-1-1 completed successfully.",
            "Reassignment of partition dirs-0 is completed.",
            "Reassignment of partition dirs-1 is completed.",
        ]
        .iter()
        .all(|l| last.contains(l))
        .then_some(())
    });
    assert!(done.is_some(), "{last}");
    // Both replicas live in the named dir, none in the other.
    for p in 0..2 {
        assert!(
            d2.join(format!("dirs-{p}")).is_dir(),
            "dirs-{p} not in {target}"
        );
        assert!(
            !d1.join(format!("dirs-{p}")).exists(),
            "dirs-{p} left in {}",
            d1.display()
        );
    }
}
