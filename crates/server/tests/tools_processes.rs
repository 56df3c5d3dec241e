//! The operator tools against real processes: `kafka-unclean-recovery` (the KIP's system test,
//! the longest log on a non-preferred replica, the plan file applied with
//! `kafka-leader-election --election-type designated`), `kafka-topics --describe` with each
//! report filter (RF 6, min ISR 4, two brokers down: one line at min ISR, as in Kafka's own
//! test), every tool answering with brokers down, and argument errors.

mod common;

use common::{
    consume_values, controller_and_brokers, create, fjord, metrics_text, produce_acked, show, text,
    wait_for, wait_partition, Node, FAST_REPLICATION,
};
use std::collections::BTreeSet;
use std::process::Output;
use std::time::{Duration, Instant};

#[test]
fn the_recovery_tools_bring_offline_partitions_back() {
    let root = tempfile::tempdir().unwrap();
    let rt = tokio::runtime::Runtime::new().unwrap();
    let (_controller, mut brokers) = controller_and_brokers(root.path(), 3, FAST_REPLICATION);
    let addrs: Vec<String> = brokers.iter().map(Node::broker_addr).collect();
    let bootstrap = addrs.join(",");
    let topics = ["longest", "planned"];
    for t in topics {
        create(
            &bootstrap,
            t,
            "1:2:3",
            &[
                "min.insync.replicas=1",
                "unclean.leader.election.enable=false",
            ],
        );
        wait_partition(&rt, &addrs[0], t, "three in sync", |l, isr| {
            l == 1 && isr.len() == 3
        });
        produce_acked(&rt, &bootstrap, t, 0..100);
    }
    // Broker 3 falls out of the ISR; 50 more records reach 1 and 2 only.
    brokers[2].kill();
    for t in topics {
        wait_partition(&rt, &addrs[0], t, "ISR 1,2", |_, isr| isr == [1, 2]);
        produce_acked(&rt, &addrs[..2].join(","), t, 100..150);
    }
    // Broker 2 leaves the ISR too; then the last ISR member, broker 1, is SIGKILLed.
    brokers[1].kill();
    for t in topics {
        wait_partition(&rt, &addrs[0], t, "ISR 1", |_, isr| isr == [1]);
    }
    brokers[0].kill();
    brokers[1].start();
    brokers[2].start();
    for t in topics {
        wait_partition(&rt, &addrs[1], t, "offline", |l, _| l == -1);
    }

    dry_run_shows_the_evidence(&addrs[1]);
    wait_partition(&rt, &addrs[1], "longest", "still offline", |l, _| l == -1);

    apply_an_edited_plan(&addrs[1], &root.path().join("plan.json"));
    wait_partition(&rt, &addrs[1], "planned", "led by 3", |l, _| l == 3);
    let expected: Vec<String> = (0..100).map(|i| format!("v{i}")).collect();
    assert_eq!(
        consume_values(&addrs[1..].join(","), "planned", 100),
        expected
    );

    // --automated-recovery over every offline partition (only `longest` is left), with the
    // dead broker first in the bootstrap list: broker 2 leads and all 150 acknowledged
    // records are readable: the estimated loss (0) is what the consumer finds missing.
    let auto = fjord(&[
        "kafka-unclean-recovery",
        "--bootstrap-server",
        &bootstrap,
        "--all-offline-partitions",
        "--automated-recovery",
        "--deadline-ms",
        "3000",
    ]);
    assert!(auto.status.success(), "{}", show(&auto));
    let out = text(&auto.stdout);
    assert!(
        out.contains("Recovered longest-0: leader is broker 2."),
        "{out}"
    );
    assert!(!out.contains("planned-0"), "{out}");
    let expected: Vec<String> = (0..150).map(|i| format!("v{i}")).collect();
    assert_eq!(
        consume_values(&addrs[1..].join(","), "longest", 150),
        expected
    );
}

/// `--dry-run` on `longest`: the evidence and the choice, nothing changed. Broker 2 (not the
/// preferred replica) has the longest log; nothing a surviving replica knew committed is lost.
fn dry_run_shows_the_evidence(addr: &str) {
    // --dry-run: the evidence and the choice, nothing changed. Broker 2 (not the preferred
    // replica) has the longest log; nothing a surviving replica knew committed is lost.
    let dry = fjord(&[
        "kafka-unclean-recovery",
        "--bootstrap-server",
        addr,
        "--topic",
        "longest",
        "--dry-run",
        "--deadline-ms",
        "3000",
    ]);
    let out = text(&dry.stdout);
    assert!(dry.status.success(), "{}", show(&dry));
    assert!(
        out.contains("Partition longest-0 is offline. Replicas: 1,2,3. ISR: none. ELR: 1."),
        "{out}"
    );
    let row = |broker: &str| -> Vec<String> {
        out.lines()
            .map(str::split_whitespace)
            .map(|w| w.map(String::from).collect::<Vec<_>>())
            .find(|w| w.first().map(String::as_str) == Some(broker))
            .unwrap_or_default()
    };
    assert_eq!(row("2")[1], "answered", "{out}");
    assert_eq!(row("2")[4], "150", "{out}");
    assert_eq!(row("3")[1], "answered", "{out}");
    assert_eq!(row("3")[4], "100", "{out}");
    assert!(
        ["fenced", "unreachable"].contains(&row("1")[1].as_str()),
        "{out}"
    );
    assert!(out.contains("Choice: broker 2 (longest log"), "{out}");
    assert_eq!(row("2")[7], "0", "{out}");
    assert_eq!(row("2")[8], "chosen", "{out}");
    assert_eq!(row("3")[7], "0", "a prefix of the chosen log: {out}");
    assert!(
        out.contains("lost: shorter log (100 < 150) at the same epoch"),
        "{out}"
    );
    assert!(
        out.contains(
            "Cost: broker 2 truncates 0 records (the new leader), broker 3 truncates 0 records."
        ),
        "{out}"
    );
    assert!(out.contains("Acknowledged records known lost: 0 "), "{out}");
    assert!(out.contains("what broker 1 ("), "{out}");
}

/// `planned`'s plan file: written with its figures, edited (broker 3 instead of 2) and applied
/// with `kafka-leader-election --election-type designated`.
fn apply_an_edited_plan(addr: &str, plan: &std::path::Path) {
    // The plan file: written, edited (broker 3 instead of 2), applied by hand.
    let planned = fjord(&[
        "kafka-unclean-recovery",
        "--bootstrap-server",
        addr,
        "--topic",
        "planned",
        "--output-file",
        plan.to_str().unwrap(),
        "--deadline-ms",
        "3000",
    ]);
    assert!(planned.status.success(), "{}", show(&planned));
    let written = std::fs::read_to_string(plan).unwrap();
    let v: serde_json::Value = serde_json::from_str(&written).unwrap();
    let entry = &v["partitions"][0];
    assert_eq!(
        (
            &entry["topic"],
            &entry["partition"],
            &entry["designatedLeader"]
        ),
        (
            &serde_json::json!("planned"),
            &serde_json::json!(0),
            &serde_json::json!(2)
        ),
        "{written}"
    );
    // The plan carries the figures the table showed, and the same for every other replica
    // that answered, so an edit can be weighed before it is applied.
    assert_eq!(
        entry["truncatedRecords"],
        serde_json::json!({"2": 0, "3": 0}),
        "{written}"
    );
    assert_eq!(entry["acknowledgedRecordsKnownLost"], 0, "{written}");
    assert_eq!(
        entry["brokersNotAnswering"],
        serde_json::json!([1]),
        "{written}"
    );
    let three = entry["candidates"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["broker"] == 3)
        .expect("broker 3 priced");
    assert_eq!(three["logEndOffset"], 100, "{written}");
    assert_eq!(
        three["truncatedRecords"]["2"], 50,
        "electing 3 cuts broker 2's 50: {written}"
    );
    std::fs::write(
        plan,
        written.replace("\"designatedLeader\": 2", "\"designatedLeader\": 3"),
    )
    .unwrap();
    let applied = fjord(&[
        "kafka-leader-election",
        "--bootstrap-server",
        addr,
        "--election-type",
        "designated",
        "--path-to-json-file",
        plan.to_str().unwrap(),
    ]);
    assert!(applied.status.success(), "{}", show(&applied));
    assert_eq!(
        text(&applied.stdout).trim(),
        "Successfully completed leader election (DESIGNATED) for partitions planned-0"
    );
}

/// The (topic, partition) of each partition line `kafka-topics --describe` printed.
fn described(o: &Output) -> BTreeSet<(String, i32)> {
    text(&o.stdout)
        .lines()
        .filter(|l| l.starts_with("\tTopic: "))
        .map(|l| {
            let f: Vec<&str> = l.split('\t').collect();
            (
                f[1].trim_start_matches("Topic: ").to_string(),
                f[2].trim_start_matches("Partition: ").parse().unwrap(),
            )
        })
        .collect()
}

fn set(items: &[&str]) -> BTreeSet<(String, i32)> {
    items.iter().map(|t| (t.to_string(), 0)).collect()
}

/// A tool run that must end within 30 s (brokers are down; each tool has its timeout).
fn within(args: &[&str]) -> Output {
    let started = Instant::now();
    let o = fjord(args);
    assert!(
        started.elapsed() < Duration::from_secs(30),
        "{args:?} took {:?}",
        started.elapsed()
    );
    o
}

/// With brokers down, `kafka-cluster`, `kafka-metadata-quorum` and `kafka-leader-election`
/// answer through `bootstrap`, each within its timeout.
fn other_tools_answer(bootstrap: &str, cluster_id: &str) {
    let id = within(&[
        "kafka-cluster",
        "cluster-id",
        "--bootstrap-server",
        bootstrap,
    ]);
    assert!(id.status.success(), "{}", show(&id));
    assert_eq!(
        text(&id.stdout).trim(),
        format!("Cluster ID: {}", cluster_id)
    );
    let quorum = within(&[
        "kafka-metadata-quorum",
        "--bootstrap-server",
        bootstrap,
        "describe",
        "--status",
    ]);
    assert!(quorum.status.success(), "{}", show(&quorum));
    assert!(text(&quorum.stdout).contains("LeaderId:               10"));
    let preferred = within(&[
        "kafka-leader-election",
        "--bootstrap-server",
        bootstrap,
        "--election-type",
        "preferred",
        "--topic",
        "six",
        "--partition",
        "0",
    ]);
    assert!(preferred.status.success(), "{}", show(&preferred));
    assert_eq!(
        text(&preferred.stdout).trim(),
        "Valid replica already elected for partitions six-0"
    );
}

#[test]
fn describe_filters_and_every_tool_with_brokers_down() {
    let root = tempfile::tempdir().unwrap();
    let rt = tokio::runtime::Runtime::new().unwrap();
    let (controller, mut brokers) = controller_and_brokers(root.path(), 6, FAST_REPLICATION);
    let addrs: Vec<String> = brokers.iter().map(Node::broker_addr).collect();
    let bootstrap = addrs.join(",");
    let topics: [(&str, &str, &str); 4] = [
        ("six", "1:2:3:4:5:6", "min.insync.replicas=4"),
        ("three", "5:6:1", "min.insync.replicas=3"),
        ("gone", "5:6", "min.insync.replicas=2"),
        ("fine", "1:2:3", "min.insync.replicas=1"),
    ];
    for (t, replicas, config) in topics {
        create(&bootstrap, t, replicas, &[config]);
        let rf = replicas.split(':').count();
        wait_partition(&rt, &addrs[0], t, "all in sync", |l, isr| {
            l > 0 && isr.len() == rf
        });
    }
    brokers[4].kill();
    brokers[5].kill();
    wait_partition(&rt, &addrs[0], "six", "ISR 1-4", |_, isr| {
        isr == [1, 2, 3, 4]
    });
    wait_partition(&rt, &addrs[0], "three", "ISR 1", |_, isr| isr == [1]);
    wait_partition(&rt, &addrs[0], "gone", "offline", |l, _| l == -1);

    // A dead broker first in the bootstrap list: every tool goes on to a live one.
    let bootstrap = format!("{},{}", addrs[4], addrs[0]);
    let describe = |filter: &str| -> Output {
        let o = within(&[
            "kafka-topics",
            "--bootstrap-server",
            &bootstrap,
            "--describe",
            "--exclude-internal",
            filter,
        ]);
        assert!(o.status.success(), "{}", show(&o));
        o
    };
    let at_min = describe("--at-min-isr-partitions");
    assert_eq!(described(&at_min), set(&["six"]), "{}", show(&at_min));
    let line = text(&at_min.stdout);
    let fields: Vec<&str> = line.trim_end_matches('\n').split('\t').collect();
    assert_eq!(fields[0], "", "{line}");
    // Broker 1 leads unless a starved heartbeat moved leadership within the ISR meanwhile.
    let leader: i32 = fields[3]
        .strip_prefix("Leader: ")
        .and_then(|l| l.parse().ok())
        .unwrap_or(-1);
    assert!((1..=4).contains(&leader), "{line}");
    assert_eq!(fields[4], "Replicas: 1,2,3,4,5,6", "{line}");
    let mut isr: Vec<i32> = fields[5]
        .trim_start_matches("Isr: ")
        .split(',')
        .map(|b| b.parse().unwrap())
        .collect();
    isr.sort_unstable();
    assert_eq!(isr, [1, 2, 3, 4], "{line}");
    assert_eq!(&fields[6..], ["Elr: ", "LastKnownElr: "], "{line}");
    assert!(
        !line.contains("PartitionCount"),
        "a report prints no topic lines: {line}"
    );
    assert_eq!(
        described(&describe("--under-min-isr-partitions")),
        set(&["three", "gone"])
    );
    assert_eq!(
        described(&describe("--unavailable-partitions")),
        set(&["gone"])
    );
    assert_eq!(
        described(&describe("--under-replicated-partitions")),
        set(&["six", "three", "gone"])
    );
    let all = within(&[
        "kafka-topics",
        "--bootstrap-server",
        &bootstrap,
        "--describe",
        "--topic",
        "six|fine",
    ]);
    assert!(all.status.success(), "{}", show(&all));
    let out = text(&all.stdout);
    assert!(
        out.lines().any(|l| l.starts_with("Topic: fine\tTopicId: ")
            && l.ends_with(
                "\tPartitionCount: 1\tReplicationFactor: 3\tConfigs: min.insync.replicas=1"
            )),
        "{out}"
    );
    assert_eq!(described(&all), set(&["six", "fine"]));

    other_tools_answer(&bootstrap, &controller.cluster_id());
    // Both replicas of `gone` are down: nothing to choose, nothing guessed, exit 1.
    let unrecoverable = within(&[
        "kafka-unclean-recovery",
        "--bootstrap-server",
        &bootstrap,
        "--all-offline-partitions",
        "--automated-recovery",
        "--deadline-ms",
        "2000",
    ]);
    assert!(!unrecoverable.status.success(), "{}", show(&unrecoverable));
    let out = text(&unrecoverable.stdout);
    assert!(out.contains("Unrecoverable partitions: gone-0"), "{out}");
    wait_partition(&rt, &addrs[0], "gone", "still offline", |l, _| l == -1);
}

#[test]
fn tool_argument_errors_print_usage_and_fail() {
    let cases: &[(&[&str], &str)] = &[
        (
            &["kafka-topics", "--bootstrap-server", "127.0.0.1:1"],
            "Command must include exactly one action",
        ),
        (
            &["kafka-topics", "--list"],
            "--bootstrap-server must be specified",
        ),
        (
            &[
                "kafka-topics",
                "--bootstrap-server",
                "127.0.0.1:1",
                "--create",
            ],
            "Missing required argument \"[topic]\"",
        ),
        (
            &[
                "kafka-topics",
                "--bootstrap-server",
                "127.0.0.1:1",
                "--describe",
                "--at-min-isr-partitions",
                "--topics-with-overrides",
            ],
            "can't be used with the chosen action",
        ),
        (
            &["kafka-leader-election", "--bootstrap-server", "127.0.0.1:1"],
            "Missing required option(s): election-type",
        ),
        (
            &[
                "kafka-leader-election",
                "--bootstrap-server",
                "127.0.0.1:1",
                "--election-type",
                "designated",
                "--all-topic-partitions",
            ],
            "cannot be used with --election-type designated",
        ),
        (
            &[
                "kafka-unclean-recovery",
                "--bootstrap-server",
                "127.0.0.1:1",
                "--topic",
                "t",
            ],
            "automated-recovery, output-file, dry-run",
        ),
        (&["kafka-cluster", "unregister"], "--id"),
        (
            &["kafka-metadata-quorum", "describe", "--status"],
            "--bootstrap-server",
        ),
    ];
    for (args, expect) in cases {
        let o = fjord(args);
        assert!(!o.status.success(), "{args:?}: {}", show(&o));
        let err = text(&o.stderr);
        assert!(err.contains(expect), "{args:?}: {}", show(&o));
    }
    // Invoked through a link named as Kafka's script, the binary is that tool.
    let dir = tempfile::tempdir().unwrap();
    let link = dir.path().join("kafka-topics.sh");
    std::os::unix::fs::symlink(common::fjord_bin(), &link).unwrap();
    let o = std::process::Command::new(&link)
        .args(["--bootstrap-server", "127.0.0.1:1"])
        .output()
        .unwrap();
    assert!(!o.status.success());
    assert!(
        text(&o.stderr).contains("Command must include exactly one action"),
        "{}",
        show(&o)
    );
}

/// Each partition's (leader, sorted ISR) of `topic` as broker `addr` sees it.
fn partitions_of(
    rt: &tokio::runtime::Runtime,
    addr: &str,
    topic: &str,
) -> Option<Vec<(i32, Vec<i32>)>> {
    common::partitions_of(rt, addr, topic).map(|(_, l)| l.into_values().collect())
}

/// (partitions, of which without a leader, of which with the ISR `isr` (sorted)) of `topic` as
/// broker `addr` sees it.
fn partition_counts(
    rt: &tokio::runtime::Runtime,
    addr: &str,
    topic: &str,
    isr: &[i32],
) -> Option<(usize, usize, usize)> {
    let p = partitions_of(rt, addr, topic)?;
    Some((
        p.len(),
        p.iter().filter(|(l, _)| *l == -1).count(),
        p.iter().filter(|(_, i)| i == isr).count(),
    ))
}

#[test]
fn three_thousand_offline_partitions_recovered_in_one_run() {
    const PARTITIONS: usize = 3000;
    let root = tempfile::tempdir().unwrap();
    let rt = tokio::runtime::Runtime::new().unwrap();
    let (_controller, mut brokers) = controller_and_brokers(root.path(), 2, FAST_REPLICATION);
    let addrs: Vec<String> = brokers.iter().map(Node::broker_addr).collect();
    let assignment = vec!["1:2"; PARTITIONS].join(",");
    create(
        &addrs.join(","),
        "scale",
        &assignment,
        &["min.insync.replicas=1"],
    );
    let counts = |addr: &str, isr: &[i32]| partition_counts(&rt, addr, "scale", isr);
    let all_in_sync = wait_for(Duration::from_secs(120), || {
        counts(&addrs[0], &[1, 2]).filter(|c| c.0 == PARTITIONS && c.2 == PARTITIONS)
    });
    assert!(all_in_sync.is_some(), "{:?}", counts(&addrs[0], &[1, 2]));
    // Broker 2 dies and leaves every ISR; then broker 1, the last ISR member, dies; broker 2
    // comes back: 3,000 partitions offline, each with one replica out of its ISR alive.
    brokers[1].kill();
    let shrunk = wait_for(Duration::from_secs(120), || {
        counts(&addrs[0], &[1]).filter(|c| c.2 == PARTITIONS)
    });
    assert!(shrunk.is_some(), "{:?}", counts(&addrs[0], &[1]));
    brokers[0].kill();
    brokers[1].start();
    let offline = wait_for(Duration::from_secs(120), || {
        counts(&addrs[1], &[]).filter(|c| c.1 == PARTITIONS)
    });
    assert!(offline.is_some(), "{:?}", counts(&addrs[1], &[]));

    let started = Instant::now();
    let run = fjord(&[
        "kafka-unclean-recovery",
        "--bootstrap-server",
        &addrs.join(","),
        "--all-offline-partitions",
        "--automated-recovery",
        "--deadline-ms",
        "5000",
    ]);
    let took = started.elapsed();
    assert!(run.status.success(), "{}", show(&run));
    let out = text(&run.stdout);
    let recovered = out
        .lines()
        .filter(|l| l.starts_with("Recovered scale-") && l.ends_with("leader is broker 2."))
        .count();
    assert_eq!(
        recovered,
        PARTITIONS,
        "{}",
        out.lines().last().unwrap_or("")
    );
    assert_eq!(
        counts(&addrs[1], &[2]).map(|c| (c.1, c.2)),
        Some((0, PARTITIONS))
    );
    // The 1000-partition limits of both RPCs: three requests of each reached broker 2.
    let metrics = metrics_text(brokers[1].metrics_port);
    for api in ["GetReplicaLogInfo", "ElectLeaders"] {
        let line = format!("kafka_network_requestmetrics_requests_total{{request=\"{api}\"}} 3");
        assert!(metrics.lines().any(|l| l == line), "{line} in:\n{metrics}");
    }
    println!(
        "recovered {PARTITIONS} offline partitions in {} ms",
        took.as_millis()
    );

    // Broker 1 comes back and rejoins every ISR; a PREFERRED election over every partition
    // (ElectLeaders v3, TopicPartitions null) moves all 3,000 leaderships back to it: the
    // 1000-partition limit is DESIGNATED's alone.
    brokers[0].start();
    let rejoined = wait_for(Duration::from_secs(120), || {
        counts(&addrs[1], &[1, 2]).filter(|c| c.2 == PARTITIONS)
    });
    assert!(rejoined.is_some(), "{:?}", counts(&addrs[1], &[1, 2]));
    let preferred = fjord(&[
        "kafka-leader-election",
        "--bootstrap-server",
        &addrs.join(","),
        "--election-type",
        "preferred",
        "--all-topic-partitions",
    ]);
    assert!(preferred.status.success(), "{}", show(&preferred));
    let out = text(&preferred.stdout);
    assert!(
        out.starts_with("Successfully completed leader election (PREFERRED) for partitions "),
        "{}",
        show(&preferred)
    );
    assert_eq!(out.matches("scale-").count(), PARTITIONS, "{out}");
    let led_by_one = wait_for(Duration::from_secs(60), || {
        let p = partitions_of(&rt, &addrs[1], "scale")?;
        (p.iter().filter(|(l, _)| *l == 1).count() == PARTITIONS).then_some(())
    });
    assert!(
        led_by_one.is_some(),
        "every partition is led by its preferred replica again"
    );
}

#[test]
fn configs_and_consumer_groups_on_a_node() {
    let root = tempfile::tempdir().unwrap();
    let node = Node::single(root.path(), 0, "offsets.topic.replication.factor=1");
    let b = node.broker_addr();
    create(&b, "q", "1", &[]);
    consumer_groups_on_a_node(&b, root.path());
    configs_and_quotas_on_a_node(&node, &b);
}

/// A successful tool run's standard output.
fn run(args: &[&str]) -> String {
    let o = fjord(args);
    assert!(o.status.success(), "{args:?}: {}", show(&o));
    text(&o.stdout)
}

/// The words of group g1's line in a tool's table.
fn row(out: &str) -> Vec<String> {
    out.lines()
        .find(|l| l.starts_with("g1 "))
        .map(|l| l.split_whitespace().map(String::from).collect())
        .unwrap_or_default()
}

/// Group g1 on topic `q` (ten records): describe, reset (shift, export, from a file),
/// resume, delete.
fn consumer_groups_on_a_node(b: &str, root: &std::path::Path) {
    let b = b.to_string();
    // Ten records, four read and committed by group g1.
    let mut producer = std::process::Command::new(common::fjord_bin())
        .args([
            "kafka-console-producer",
            "--bootstrap-server",
            &b,
            "--topic",
            "q",
        ])
        .stdin(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    {
        use std::io::Write;
        let mut stdin = producer.stdin.take().unwrap();
        for i in 0..10 {
            writeln!(stdin, "v{i}").unwrap();
        }
    }
    assert!(producer.wait().unwrap().success());
    let read = run(&[
        "kafka-console-consumer",
        "--bootstrap-server",
        &b,
        "--topic",
        "q",
        "--from-beginning",
        "--max-messages",
        "4",
        "--group",
        "g1",
    ]);
    assert_eq!(read, "v0\nv1\nv2\nv3\n");

    assert_eq!(
        run(&["kafka-consumer-groups", "--bootstrap-server", &b, "--list"]),
        "g1\n"
    );
    let described = run(&[
        "kafka-consumer-groups",
        "--bootstrap-server",
        &b,
        "--describe",
        "--group",
        "g1",
    ]);
    assert!(
        described.contains("Consumer group 'g1' has no active members."),
        "{described}"
    );
    assert!(described.contains(
        "GROUP           TOPIC           PARTITION  CURRENT-OFFSET  LOG-END-OFFSET  LAG             CONSUMER-ID     HOST            CLIENT-ID"
    ), "{described}");
    assert_eq!(
        row(&described),
        ["g1", "q", "0", "4", "10", "6", "-", "-", "-"]
    );
    let state = run(&[
        "kafka-consumer-groups",
        "--bootstrap-server",
        &b,
        "--describe",
        "--group",
        "g1",
        "--state",
    ]);
    assert!(row(&state).contains(&"Empty".to_string()), "{state}");
    let reset = run(&[
        "kafka-consumer-groups",
        "--bootstrap-server",
        &b,
        "--reset-offsets",
        "--group",
        "g1",
        "--topic",
        "q",
        "--shift-by",
        "-3",
        "--execute",
    ]);
    assert_eq!(row(&reset), ["g1", "q", "0", "1"]);
    let described = run(&[
        "kafka-consumer-groups",
        "--bootstrap-server",
        &b,
        "--describe",
        "--group",
        "g1",
    ]);
    assert_eq!(row(&described)[3..6], ["1", "10", "9"]);
    let again = run(&[
        "kafka-console-consumer",
        "--bootstrap-server",
        &b,
        "--topic",
        "q",
        "--group",
        "g1",
        "--max-messages",
        "1",
    ]);
    assert_eq!(again, "v1\n", "the group resumes from the reset offset");
    reset_from_an_exported_file(&b, root);
    let deleted = run(&[
        "kafka-consumer-groups",
        "--bootstrap-server",
        &b,
        "--delete",
        "--group",
        "g1",
    ]);
    assert_eq!(
        deleted.trim(),
        "Deletion of requested consumer groups ('g1') was successful."
    );
    let gone = fjord(&[
        "kafka-consumer-groups",
        "--bootstrap-server",
        &b,
        "--describe",
        "--group",
        "g1",
    ]);
    // Kafka 4.4's tool prints the failure and exits 0 (tests/java ToolsTest compares them).
    assert!(gone.status.success());
    assert!(
        text(&gone.stdout)
            .contains("Error: Executing consumer group command failed due to Group g1 not found."),
        "{}",
        show(&gone)
    );
}

/// Group g1's reset exported as CSV, edited and read back with `--from-file` (as Kafka's tool
/// round-trips it).
fn reset_from_an_exported_file(b: &str, root: &std::path::Path) {
    let b = b.to_string();
    // An exported reset, edited and read back with --from-file (as Kafka's tool round-trips).
    let exported = run(&[
        "kafka-consumer-groups",
        "--bootstrap-server",
        &b,
        "--reset-offsets",
        "--group",
        "g1",
        "--topic",
        "q",
        "--to-earliest",
        "--dry-run",
        "--export",
    ]);
    assert_eq!(exported.trim(), "q,0,0", "{exported}");
    let csv = root.join("offsets.csv");
    std::fs::write(&csv, exported.replace("q,0,0", "q,0,7")).unwrap();
    let from_file = run(&[
        "kafka-consumer-groups",
        "--bootstrap-server",
        &b,
        "--reset-offsets",
        "--group",
        "g1",
        "--from-file",
        csv.to_str().unwrap(),
        "--execute",
    ]);
    assert_eq!(row(&from_file), ["g1", "q", "0", "7"]);
    let described = run(&[
        "kafka-consumer-groups",
        "--bootstrap-server",
        &b,
        "--describe",
        "--group",
        "g1",
    ]);
    assert_eq!(row(&described)[3..6], ["7", "10", "3"]);
}

/// Topic and broker configs (set, described with Kafka's lines, deleted), a dynamic key fjord
/// does not use, and client quotas.
fn configs_and_quotas_on_a_node(node: &Node, b: &str) {
    let b = b.to_string();
    // Topic and broker configs: set, describe (Kafka's lines), delete.
    let done = run(&[
        "kafka-configs",
        "--bootstrap-server",
        &b,
        "--entity-type",
        "topics",
        "--entity-name",
        "q",
        "--alter",
        "--add-config",
        "retention.ms=86400000,cleanup.policy=[compact,delete]",
    ]);
    assert_eq!(done.trim(), "Completed updating config for topic q.");
    let described = run(&[
        "kafka-configs",
        "--bootstrap-server",
        &b,
        "--topic",
        "q",
        "--describe",
    ]);
    let lines: Vec<&str> = described.lines().collect();
    assert_eq!(lines[0], "Dynamic configs for topic q are:");
    assert!(
        lines.iter().any(|l| l
            .strip_prefix("  cleanup.policy=compact,delete sensitive=false synonyms=")
            .is_some_and(
                |rest| rest.starts_with("\u{7b}DYNAMIC_TOPIC_CONFIG:cleanup.policy=compact,delete")
            )),
        "{described}"
    );
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("  retention.ms=86400000 sensitive=false")),
        "{described}"
    );
    run(&[
        "kafka-configs",
        "--bootstrap-server",
        &b,
        "--topic",
        "q",
        "--alter",
        "--delete-config",
        "retention.ms",
    ]);
    let described = run(&[
        "kafka-configs",
        "--bootstrap-server",
        &b,
        "--topic",
        "q",
        "--describe",
    ]);
    assert!(!described.contains("retention.ms="), "{described}");
    let set_on_broker = |config: &str| {
        run(&[
            "kafka-configs",
            "--bootstrap-server",
            &b,
            "--broker",
            "1",
            "--alter",
            "--add-config",
            config,
        ])
    };
    let done = set_on_broker("log.retention.ms=1000000");
    assert_eq!(done.trim(), "Completed updating config for broker 1.");
    let described = run(&[
        "kafka-configs",
        "--bootstrap-server",
        &b,
        "--entity-type",
        "brokers",
        "--entity-name",
        "1",
        "--describe",
    ]);
    assert!(
        described.starts_with(
            "Dynamic configs for broker 1 are:\n  log.retention.ms=1000000 sensitive=false"
        ),
        "{described}"
    );
    let bad = fjord(&[
        "kafka-configs",
        "--bootstrap-server",
        &b,
        "--topic",
        "q",
        "--alter",
        "--add-config",
        "retention.ms=soon",
    ]);
    assert!(!bad.status.success(), "{}", show(&bad));
    // A key Kafka lists as dynamic that fjord does not use: accepted, described back with
    // its source, and noted in the log.
    let done = set_on_broker("sasl.kerberos.min.time.before.relogin=58000");
    assert_eq!(done.trim(), "Completed updating config for broker 1.");
    let noted = common::wait_for(std::time::Duration::from_secs(30), || {
        let log = std::fs::read_to_string(node.dir.join("server.log")).unwrap_or_default();
        log.lines()
            .any(|l| {
                l.contains("dynamic broker config stored; fjord does not use it")
                    && l.contains("sasl.kerberos.min.time.before.relogin")
            })
            .then_some(())
    });
    assert!(noted.is_some(), "{}", node.log_tail());
    let described = run(&[
        "kafka-configs",
        "--bootstrap-server",
        &b,
        "--broker",
        "1",
        "--describe",
    ]);
    assert!(
        described.contains(
            "  sasl.kerberos.min.time.before.relogin=58000 sensitive=false synonyms={DYNAMIC_BROKER_CONFIG:sasl.kerberos.min.time.before.relogin=58000}"
        ),
        "{described}"
    );
    client_quotas_described_and_ip_quotas_refused(&b);
}

/// Client quotas are described (none set: nothing printed); IP quotas are refused.
fn client_quotas_described_and_ip_quotas_refused(b: &str) {
    let quota = fjord(&[
        "kafka-configs",
        "--bootstrap-server",
        b,
        "--entity-type",
        "clients",
        "--describe",
    ]);
    assert!(quota.status.success(), "{}", show(&quota));
    assert_eq!(text(&quota.stdout), "");
    let ips = fjord(&[
        "kafka-configs",
        "--bootstrap-server",
        b,
        "--entity-type",
        "ips",
        "--describe",
    ]);
    assert!(!ips.status.success());
    assert!(
        text(&ips.stderr).contains("fjord has no connection quotas"),
        "{}",
        show(&ips)
    );
}

/// Sessions that outlive a test and no fencing on a closed heartbeat connection (as when a
/// machine vanishes without closing its sockets): a SIGKILLed broker stays registered and
/// unfenced.
const SLOW_FENCING: &str = "replica.lag.time.max.ms=2000\nreplica.fetch.wait.max.ms=100\n\
                            broker.session.timeout.ms=120000\nbroker.heartbeat.interval.ms=500\n\
                            broker.connection.loss.fence.ms=0";

#[test]
fn an_unreachable_replica_is_asked_until_the_deadline() {
    let root = tempfile::tempdir().unwrap();
    let rt = tokio::runtime::Runtime::new().unwrap();
    // Sessions outlive the test and a closed heartbeat connection fences nothing (as when a
    // machine vanishes without closing its sockets): a SIGKILLed broker stays registered and
    // unfenced, so the tool must ask it (and wait for it) until the deadline.
    let (controller, mut brokers) = controller_and_brokers(root.path(), 3, SLOW_FENCING);
    let addrs: Vec<String> = brokers.iter().map(Node::broker_addr).collect();
    let bootstrap = addrs.join(",");
    create(&bootstrap, "u", "1:2:3", &["min.insync.replicas=1"]);
    wait_partition(&rt, &addrs[0], "u", "three in sync", |l, isr| {
        l == 1 && isr.len() == 3
    });
    produce_acked(&rt, &bootstrap, "u", 0..10);
    // Broker 3 is paused (SIGSTOP): it stops fetching and leaves the ISR once the leader's log
    // moves on (an unfenced follower leaves only when it lags, as in Kafka).
    brokers[2].signal("STOP");
    produce_acked(&rt, &addrs[..2].join(","), "u", 10..20);
    wait_partition(&rt, &addrs[0], "u", "ISR 1,2", |_, isr| isr == [1, 2]);
    brokers[1].kill();
    produce_acked(&rt, &addrs[0], "u", 20..30);
    wait_partition(&rt, &addrs[0], "u", "ISR 1", |_, isr| isr == [1]);
    // Broker 1, the last ISR member, is gone for good and unregistered (through the
    // controller): the partition is offline. Broker 2 is dead but still registered and
    // unfenced. Broker 3 resumes, out of the ISR.
    brokers[0].kill();
    let unregistered = fjord(&[
        "kafka-cluster",
        "unregister",
        "--bootstrap-controller",
        &controller.addr(),
        "--id",
        "1",
    ]);
    assert!(unregistered.status.success(), "{}", show(&unregistered));
    assert_eq!(
        text(&unregistered.stdout).trim(),
        "Broker 1 is no longer registered."
    );
    brokers[2].signal("CONT");
    wait_partition(&rt, &addrs[2], "u", "offline", |l, _| l == -1);

    let started = Instant::now();
    let dry = fjord(&[
        "kafka-unclean-recovery",
        "--bootstrap-server",
        &addrs[2],
        "--topic",
        "u",
        "--dry-run",
        "--deadline-ms",
        "3000",
    ]);
    let took = started.elapsed();
    assert!(dry.status.success(), "{}", show(&dry));
    let out = text(&dry.stdout);
    let state = |broker: &str| -> String {
        out.lines()
            .map(|l| l.split_whitespace().collect::<Vec<_>>())
            .find(|w| w.first() == Some(&broker))
            .and_then(|w| w.get(1).map(|s| s.to_string()))
            .unwrap_or_default()
    };
    assert_eq!(state("1"), "unregistered", "{out}");
    assert_eq!(state("2"), "unreachable", "{out}");
    assert_eq!(state("3"), "answered", "{out}");
    assert!(out.contains("Choice: broker 3"), "{out}");
    assert!(
        took >= Duration::from_millis(2500) && took < Duration::from_secs(30),
        "the unreachable broker is retried until the 3 s deadline, no longer: {took:?}"
    );
}

/// The survey looks at the cluster anew each round: a replica's broker that comes back while
/// another replica still holds the survey open (dead but not yet fenced: asked until the
/// deadline) is asked too, and chosen.
#[test]
fn a_broker_back_during_the_survey_is_asked_too() {
    let root = tempfile::tempdir().unwrap();
    let rt = tokio::runtime::Runtime::new().unwrap();
    // Sessions outlive the test and a closed heartbeat connection fences nothing: a
    // SIGKILLed broker stays registered and unfenced.
    // Broker 4 holds no replica: it answers the tool's metadata requests.
    let (controller, mut brokers) = controller_and_brokers(root.path(), 4, SLOW_FENCING);
    let addrs: Vec<String> = brokers.iter().map(Node::broker_addr).collect();
    create(
        &addrs.join(","),
        "back",
        "1:2:3",
        &["min.insync.replicas=1"],
    );
    wait_partition(&rt, &addrs[3], "back", "three in sync", |l, isr| {
        l == 1 && isr.len() == 3
    });
    produce_acked(&rt, &addrs.join(","), "back", 0..10);
    // Broker 3 dies (unfenced for the rest of the test), then broker 2, then broker 1, the
    // last ISR member; brokers 1 and 2 are unregistered: offline.
    brokers[2].kill();
    produce_acked(&rt, &addrs[..2].join(","), "back", 10..20);
    wait_partition(&rt, &addrs[3], "back", "ISR 1,2", |_, isr| isr == [1, 2]);
    brokers[1].kill();
    produce_acked(&rt, &addrs[0], "back", 20..30);
    wait_partition(&rt, &addrs[3], "back", "ISR 1", |_, isr| isr == [1]);
    brokers[0].kill();
    for id in ["1", "2"] {
        let out = fjord(&[
            "kafka-cluster",
            "unregister",
            "--bootstrap-controller",
            &controller.addr(),
            "--id",
            id,
        ]);
        assert!(out.status.success(), "{}", show(&out));
    }
    wait_partition(&rt, &addrs[3], "back", "offline", |l, _| l == -1);

    // The survey starts with broker 2 unregistered and broker 3 silent; broker 2 comes back
    // (it registers anew) while broker 3 keeps the survey open until its deadline.
    let out_file = root.path().join("survey.out");
    let mut tool = std::process::Command::new(common::fjord_bin())
        .args([
            "kafka-unclean-recovery",
            "--bootstrap-server",
            &addrs[3],
            "--topic",
            "back",
            "--dry-run",
            "--deadline-ms",
            "40000",
        ])
        .stdout(std::process::Stdio::from(
            std::fs::File::create(&out_file).unwrap(),
        ))
        .spawn()
        .unwrap();
    brokers[1].start();
    let status = wait_for(Duration::from_secs(120), || tool.try_wait().ok().flatten());
    let out = std::fs::read_to_string(&out_file).unwrap_or_default();
    assert!(status.is_some_and(|s| s.success()), "{status:?}\n{out}");
    let state = |broker: &str| -> String {
        out.lines()
            .map(|l| l.split_whitespace().collect::<Vec<_>>())
            .find(|w| w.first() == Some(&broker))
            .and_then(|w| w.get(1).map(|s| s.to_string()))
            .unwrap_or_default()
    };
    assert_eq!(state("1"), "unregistered", "{out}");
    assert_eq!(state("2"), "answered", "asked once it was back: {out}");
    assert_eq!(state("3"), "unreachable", "{out}");
    assert!(out.contains("Choice: broker 2"), "{out}");
}
