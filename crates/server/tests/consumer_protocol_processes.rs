//! KIP-848 consumer groups on real nodes with librdkafka (the `rdkafka` crate,
//! `group.protocol=consumer`): a classic and a consumer-protocol group on three nodes keep
//! their committed offsets and go on consuming when their coordinator's node is SIGKILLed;
//! a consumer-protocol group as `kafka-consumer-groups`, ConsumerGroupDescribe and the
//! metrics show it; and the protocol is refused while `group.version` is 0, then served after
//! `kafka-features upgrade` (and a 4.0 cluster takes every 4.4 feature with
//! `--release-version 4.4`).

mod common;

use common::{call, combined_cluster, fjord, free_port, show, text, wait_for, Node};
use fjord_protocol::generated::{
    consumer_group_describe_request::ConsumerGroupDescribeRequest,
    consumer_group_heartbeat_request::ConsumerGroupHeartbeatRequest,
    find_coordinator_request::FindCoordinatorRequest,
};
use fjord_protocol::{ErrorCode, RequestBody, ResponseBody};
use rdkafka::config::ClientConfig;
use rdkafka::consumer::{BaseConsumer, CommitMode, Consumer};
use rdkafka::message::Message;
use std::collections::HashSet;
use std::time::{Duration, Instant};

/// The topic's partitions.
const PARTITIONS: i32 = 6;

fn runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap()
}

fn consumer(bootstrap: &str, group: &str, protocol: &str) -> BaseConsumer {
    let mut c = ClientConfig::new();
    c.set("bootstrap.servers", bootstrap)
        .set("group.id", group)
        .set("group.protocol", protocol)
        .set("auto.offset.reset", "earliest")
        .set("enable.auto.commit", "false");
    if protocol == "classic" {
        c.set("session.timeout.ms", "10000")
            .set("heartbeat.interval.ms", "500");
    }
    c.create().unwrap()
}

/// Polls until `values` holds `n` distinct values (every value read is kept, repeats too).
fn read(node_logs: &dyn Fn() -> String, c: &BaseConsumer, values: &mut Vec<usize>, n: usize) {
    let deadline = Instant::now() + Duration::from_secs(120);
    let mut distinct: HashSet<usize> = values.iter().copied().collect();
    while distinct.len() < n {
        assert!(
            Instant::now() < deadline,
            "{} of {n} read\n{}",
            distinct.len(),
            node_logs()
        );
        if let Some(Ok(m)) = c.poll(Duration::from_millis(100)) {
            let v: usize = std::str::from_utf8(m.payload().unwrap())
                .unwrap()
                .parse()
                .unwrap();
            values.push(v);
            distinct.insert(v);
        }
    }
}

/// The group's coordinator node id, as `addr` answers FindCoordinator.
fn coordinator(rt: &tokio::runtime::Runtime, addr: &str, group: &str) -> Option<i32> {
    let r = rt.block_on(call(
        addr,
        RequestBody::FindCoordinator(FindCoordinatorRequest {
            key_type: 0,
            coordinator_keys: vec![group.into()],
            ..Default::default()
        }),
        4,
    ))?;
    let ResponseBody::FindCoordinator(r) = r else {
        return None;
    };
    let c = r.coordinators.first()?;
    (c.error_code == 0).then_some(c.node_id)
}

/// The committed offsets of `group` on `topic`, summed over its partitions.
fn committed_total(c: &BaseConsumer) -> i64 {
    let committed = c.committed(Duration::from_secs(10)).unwrap();
    committed
        .elements()
        .iter()
        .filter_map(|e| match e.offset() {
            rdkafka::Offset::Offset(o) => Some(o),
            _ => None,
        })
        .sum()
}

#[test]
fn both_protocols_keep_their_offsets_when_the_coordinator_is_sigkilled() {
    let root = tempfile::tempdir().unwrap();
    let extra = format!(
        "{}\noffsets.topic.replication.factor=3\ngroup.initial.rebalance.delay.ms=0\n\
         num.partitions={PARTITIONS}\ndefault.replication.factor=3",
        common::FAST_REPLICATION
    );
    let mut nodes = combined_cluster(root.path(), 3, &extra);
    let all: Vec<String> = nodes.iter().map(|n| n.broker_addr()).collect();
    let bootstrap = all.join(",");
    common::create(
        &bootstrap,
        "moving",
        "1:2:3,2:3:1,3:1:2,1:2:3,2:3:1,3:1:2",
        &[],
    );
    produce(&bootstrap, "moving", 600, PARTITIONS);
    // Two groups on the same __consumer_offsets partition: one coordinator for both.
    let classic = "moving-classic";
    let shard = fjord_protocol::coordinator::partition_for(classic, 50);
    let modern = (0..)
        .map(|i| format!("moving-consumer-{i}"))
        .find(|g| fjord_protocol::coordinator::partition_for(g, 50) == shard)
        .unwrap();
    let dirs: Vec<std::path::PathBuf> = nodes.iter().map(|n| n.dir.clone()).collect();
    let logs = || logs_of(&dirs);
    let groups = [(classic, "classic"), (modern.as_str(), "consumer")];
    let consumers: Vec<BaseConsumer> = groups
        .iter()
        .map(|(g, p)| {
            let c = consumer(&bootstrap, g, p);
            c.subscribe(&["moving"]).unwrap();
            c
        })
        .collect();
    let mut values: Vec<Vec<usize>> = vec![Vec::new(), Vec::new()];
    for (i, c) in consumers.iter().enumerate() {
        read(&logs, c, &mut values[i], 300);
        c.commit_consumer_state(CommitMode::Sync).unwrap();
    }
    let committed_before: Vec<HashSet<usize>> =
        values.iter().map(|v| v.iter().copied().collect()).collect();
    let rt = runtime();
    let before = wait_for(Duration::from_secs(30), || {
        coordinator(&rt, &all[0], classic)
    })
    .expect("a coordinator");
    assert_eq!(coordinator(&rt, &all[0], &modern), Some(before));
    nodes[before as usize - 1].kill();
    let survivors: Vec<String> = all
        .iter()
        .enumerate()
        .filter(|(i, _)| *i as i32 + 1 != before)
        .map(|(_, a)| a.clone())
        .collect();
    // The group moves to another node.
    let after = wait_for(Duration::from_secs(60), || {
        coordinator(&rt, &survivors[0], classic).filter(|c| *c != before)
    })
    .expect("the group moved");
    assert_ne!(after, before);
    for (i, c) in consumers.iter().enumerate() {
        let already = values[i].len();
        read(&logs, c, &mut values[i], 600);
        // What was committed before the kill never comes again.
        for v in &values[i][already..] {
            assert!(
                !committed_before[i].contains(v),
                "{}: {v} read again though committed",
                groups[i].1
            );
        }
        c.commit_consumer_state(CommitMode::Sync).unwrap();
        assert_eq!(committed_total(c), 600, "{}", groups[i].1);
    }
    drop(consumers);
    // A new member of each group finds everything committed.
    for (g, p) in groups {
        let c = consumer(&survivors.join(","), g, p);
        c.subscribe(&["moving"]).unwrap();
        let total = wait_for(Duration::from_secs(60), || {
            c.poll(Duration::from_millis(100));
            c.committed(Duration::from_secs(5))
                .ok()
                .map(|_| committed_total(&c))
                .filter(|t| *t == 600)
        });
        assert_eq!(total, Some(600), "{p}: offsets kept after the move");
    }
}

/// The last lines of each node's log (for a failure message).
fn logs_of(dirs: &[std::path::PathBuf]) -> String {
    dirs.iter()
        .map(|d| {
            let text = std::fs::read_to_string(d.join("server.log")).unwrap_or_default();
            let lines: Vec<&str> = text.lines().collect();
            format!(
                "== {}\n{}",
                d.display(),
                lines[lines.len().saturating_sub(10)..].join("\n")
            )
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// Produces values `0..n` to `topic` with acks=all, spread round-robin over `partitions`.
fn produce(bootstrap: &str, topic: &str, n: usize, partitions: i32) {
    use rdkafka::producer::{FutureProducer, FutureRecord};
    let producer: FutureProducer = ClientConfig::new()
        .set("bootstrap.servers", bootstrap)
        .set("acks", "all")
        .set("message.timeout.ms", "60000")
        .create()
        .unwrap();
    runtime().block_on(async {
        let mut pending = Vec::new();
        for i in 0..n {
            let v = i.to_string();
            let r = FutureRecord::<(), _>::to(topic)
                .payload(&v)
                .partition(i as i32 % partitions);
            pending.push(producer.send_result(r).map_err(|(e, _)| e).unwrap());
        }
        for p in pending {
            p.await.unwrap().map_err(|(e, _)| e).expect("acknowledged");
        }
    });
}

#[test]
fn a_consumer_protocol_group_is_described_listed_and_measured() {
    let root = tempfile::tempdir().unwrap();
    let node = Node::single(
        root.path(),
        0,
        "offsets.topic.replication.factor=1\ngroup.initial.rebalance.delay.ms=0\nnum.partitions=4",
    );
    let bs = node.broker_addr();
    common::create(&bs, "shown", "1,1,1,1", &[]);
    produce(&bs, "shown", 40, 4);
    let c = ClientConfig::new()
        .set("bootstrap.servers", &bs)
        .set("group.id", "shown-group")
        .set("group.protocol", "consumer")
        .set("group.instance.id", "instance-1")
        .set("client.id", "shown-client")
        .set("auto.offset.reset", "earliest")
        .set("enable.auto.commit", "false")
        .create::<BaseConsumer>()
        .unwrap();
    c.subscribe(&["shown"]).unwrap();
    let mut values = Vec::new();
    read(&|| node.log_tail(), &c, &mut values, 40);
    c.commit_consumer_state(CommitMode::Sync).unwrap();
    let tool = |args: &[&str]| {
        let mut all = vec!["kafka-consumer-groups", "--bootstrap-server", &bs];
        all.extend_from_slice(args);
        let o = fjord(&all);
        assert!(o.status.success(), "{}", show(&o));
        text(&o.stdout)
    };
    let state = tool(&[
        "--describe",
        "--group",
        "shown-group",
        "--state",
        "--verbose",
    ]);
    let lines: Vec<&str> = state.lines().filter(|l| !l.is_empty()).collect();
    let header: Vec<&str> = lines[0].split_whitespace().collect();
    assert_eq!(
        header,
        vec![
            "GROUP",
            "COORDINATOR",
            "(ID)",
            "ASSIGNMENT-STRATEGY",
            "STATE",
            "GROUP-EPOCH",
            "TARGET-ASSIGNMENT-EPOCH",
            "#MEMBERS"
        ],
        "{state}"
    );
    let row: Vec<&str> = lines[1].split_whitespace().collect();
    assert_eq!(row[0], "shown-group");
    assert_eq!(&row[3..5], &["uniform", "Stable"], "{state}");
    assert_eq!(row[7], "1", "{state}");
    let members = tool(&[
        "--describe",
        "--group",
        "shown-group",
        "--members",
        "--verbose",
    ]);
    assert!(
        members.contains("GROUP-INSTANCE-ID")
            && members.contains("CURRENT-EPOCH")
            && members.contains("TARGET-ASSIGNMENT"),
        "{members}"
    );
    assert!(members.contains("instance-1"), "{members}");
    assert!(members.contains("shown(0,1,2,3)"), "{members}");
    let offsets = tool(&["--describe", "--group", "shown-group"]);
    assert_eq!(
        offsets
            .lines()
            .filter(|l| l.starts_with("shown-group"))
            .count(),
        4,
        "{offsets}"
    );
    assert!(
        offsets
            .lines()
            .filter(|l| l.starts_with("shown-group"))
            .all(|l| {
                let cols: Vec<&str> = l.split_whitespace().collect();
                cols[5] == "0" && cols[6] != "-"
            }),
        "no lag, and each partition's member shown: {offsets}"
    );
    let listed = tool(&["--list", "--type", "--state"]);
    assert!(
        listed.lines().any(|l| {
            let cols: Vec<&str> = l.split_whitespace().collect();
            cols == ["shown-group", "consumer", "Stable"]
        }),
        "{listed}"
    );
    let only_classic = tool(&["--list", "--type", "classic"]);
    assert!(!only_classic.contains("shown-group"), "{only_classic}");
    // ConsumerGroupDescribe, as Java's admin client asks it.
    let rt = runtime();
    let Some(ResponseBody::ConsumerGroupDescribe(d)) = rt.block_on(call(
        &bs,
        RequestBody::ConsumerGroupDescribe(ConsumerGroupDescribeRequest {
            group_ids: vec!["shown-group".into(), "nope".into()],
            ..Default::default()
        }),
        1,
    )) else {
        panic!("no answer");
    };
    assert_eq!(d.groups[0].group_state, "Stable");
    assert_eq!(d.groups[0].members[0].client_id, "shown-client");
    assert_eq!(
        d.groups[0].members[0].instance_id.as_deref(),
        Some("instance-1")
    );
    assert_eq!(d.groups[1].error_code, ErrorCode::GroupIdNotFound.code());
    let metrics = common::metrics_text(node.metrics_port);
    let value = |name: &str| {
        metrics
            .lines()
            .find(|l| l.starts_with(name))
            .and_then(|l| l.rsplit(' ').next())
            .map(str::to_string)
    };
    assert_eq!(
        value("kafka_server_group_coordinator_metrics_group_count{protocol=\"consumer\"}")
            .as_deref(),
        Some("1"),
        "{metrics}"
    );
    assert_eq!(
        value("kafka_server_group_coordinator_metrics_consumer_group_count{state=\"stable\"}")
            .as_deref(),
        Some("1")
    );
    drop(c);
}

/// One combined node in `root`, formatted standalone with `format_args` added, started and
/// unfenced; and its broker address.
fn single_node(root: &std::path::Path, format_args: &[&str]) -> (Node, String) {
    let ports = (free_port(), free_port());
    let quorum = format!("controller.quorum.bootstrap.servers=127.0.0.1:{}", ports.1);
    let mut node = Node::combined(
        root,
        1,
        ports,
        &quorum,
        "offsets.topic.replication.factor=1",
    );
    let mut args = vec!["--standalone"];
    args.extend_from_slice(format_args);
    node.format(&common::random_uuid(), &args);
    node.start();
    let bs = node.broker_addr();
    common::wait_brokers_unfenced(&bs, &[1]);
    (node, bs)
}

/// A cluster formatted at Kafka 4.0 runs without ELR and streams groups; `kafka-features
/// upgrade --release-version 4.4` (what Kafka 4.4's tool sends: every feature of the release,
/// `kraft.version` among them) finalizes them all, and `describe` shows Kafka 4.4's levels.
#[test]
fn a_4_0_cluster_takes_every_4_4_feature_with_release_version() {
    let root = tempfile::tempdir().unwrap();
    let (_node, bs) = single_node(root.path(), &["--release-version", "4.0"]);
    let describe = || {
        let o = fjord(&["kafka-features", "--bootstrap-server", &bs, "describe"]);
        assert!(o.status.success(), "{}", show(&o));
        text(&o.stdout)
            .lines()
            .map(|l| {
                let f: Vec<&str> = l.split_whitespace().collect();
                format!("{}={}", f[1], f[7])
            })
            .collect::<Vec<_>>()
            .join(" ")
    };
    assert_eq!(
        describe(),
        "eligible.leader.replicas.version=0 group.version=1 kraft.version=1 \
         metadata.version=4.0-IV3 share.version=0 streams.version=0 transaction.version=2"
    );
    let o = fjord(&[
        "kafka-features",
        "--bootstrap-server",
        &bs,
        "upgrade",
        "--release-version",
        "4.4",
    ]);
    assert!(o.status.success(), "{}", show(&o));
    assert!(
        text(&o.stdout).contains("kraft.version was upgraded to 1."),
        "{}",
        show(&o)
    );
    assert_eq!(
        describe(),
        "eligible.leader.replicas.version=1 group.version=1 kraft.version=1 \
         metadata.version=4.4-IV2 share.version=2 streams.version=1 transaction.version=2"
    );
}

#[test]
fn the_protocol_waits_for_group_version_1() {
    let root = tempfile::tempdir().unwrap();
    let (node, bs) = single_node(root.path(), &["--feature", "group.version=0"]);
    let rt = runtime();
    let heartbeat = || {
        let r = rt.block_on(call(
            &bs,
            RequestBody::ConsumerGroupHeartbeat(ConsumerGroupHeartbeatRequest {
                group_id: "gv".into(),
                member_id: "m".into(),
                member_epoch: 0,
                rebalance_timeout_ms: 30_000,
                subscribed_topic_names: Some(vec!["t".into()]),
                topic_partitions: Some(Vec::new()),
                ..Default::default()
            }),
            1,
        ));
        match r {
            Some(ResponseBody::ConsumerGroupHeartbeat(r)) => Some(r),
            _ => None,
        }
    };
    let refused = wait_for(Duration::from_secs(30), heartbeat).expect("an answer");
    assert_eq!(refused.error_code, ErrorCode::UnsupportedVersion.code());
    assert_eq!(
        refused.error_message.as_deref(),
        Some("The new consumer group protocol is not supported.")
    );
    let o = fjord(&[
        "kafka-features",
        "--bootstrap-server",
        &bs,
        "upgrade",
        "--feature",
        "group.version=1",
    ]);
    assert!(o.status.success(), "{}", show(&o));
    // FindCoordinator makes the offsets topic, as a client's first call does.
    wait_for(Duration::from_secs(60), || coordinator(&rt, &bs, "gv")).expect("a coordinator");
    let served = wait_for(Duration::from_secs(60), || {
        heartbeat().filter(|r| r.error_code == 0)
    });
    assert!(served.is_some(), "{}", node.log_tail());
    assert_eq!(served.unwrap().member_epoch, 1);
}

/// A group config resource set with `kafka-configs --group` reaches that group's members: its
/// own `consumer.heartbeat.interval.ms` is what their heartbeats are told, another group keeps
/// the coordinator's 5 s, and a value outside the broker's bounds is refused with Kafka's
/// message.
#[test]
fn a_groups_own_heartbeat_interval_reaches_its_members() {
    let root = tempfile::tempdir().unwrap();
    let (node, bs) = single_node(root.path(), &[]);
    let configs = |extra: &[&str]| {
        let mut args = vec!["kafka-configs", "--bootstrap-server", &bs];
        args.extend_from_slice(extra);
        fjord(&args)
    };
    let o = configs(&[
        "--alter",
        "--group",
        "tuned",
        "--add-config",
        "consumer.heartbeat.interval.ms=7000",
    ]);
    assert!(o.status.success(), "{}", show(&o));
    let refused = configs(&[
        "--alter",
        "--group",
        "tuned",
        "--add-config",
        "consumer.session.timeout.ms=1000",
    ]);
    assert!(!refused.status.success());
    assert!(
        show(&refused)
            .contains("consumer.session.timeout.ms must be in the range 45000 to 60000 inclusive."),
        "{}",
        show(&refused)
    );
    let rt = runtime();
    wait_for(Duration::from_secs(60), || coordinator(&rt, &bs, "tuned")).expect("a coordinator");
    let interval = |group: &str| {
        wait_for(Duration::from_secs(60), || {
            let r = rt.block_on(call(
                &bs,
                RequestBody::ConsumerGroupHeartbeat(ConsumerGroupHeartbeatRequest {
                    group_id: group.into(),
                    member_id: format!("m-{group}"),
                    member_epoch: 0,
                    rebalance_timeout_ms: 30_000,
                    subscribed_topic_names: Some(vec!["t".into()]),
                    topic_partitions: Some(Vec::new()),
                    ..Default::default()
                }),
                1,
            ));
            match r {
                Some(ResponseBody::ConsumerGroupHeartbeat(r)) if r.error_code == 0 => {
                    Some(r.heartbeat_interval_ms)
                }
                _ => None,
            }
        })
        .unwrap_or_else(|| panic!("no heartbeat answer for {group}: {}", node.log_tail()))
    };
    assert_eq!(interval("tuned"), 7_000);
    assert_eq!(interval("plain"), 5_000);
}

/// A streams group (KIP-1071) joined with StreamsGroupHeartbeat as Kafka Streams joins: the
/// group and its state on `/metrics` under Kafka 4.4's names.
#[test]
fn a_streams_group_is_measured() {
    use fjord_protocol::generated::streams_group_heartbeat_request::{
        StreamsGroupHeartbeatRequest, Subtopology, Topology,
    };
    let root = tempfile::tempdir().unwrap();
    let node = Node::single(
        root.path(),
        0,
        "offsets.topic.replication.factor=1\ngroup.streams.initial.rebalance.delay.ms=0",
    );
    let bs = node.broker_addr();
    common::create(&bs, "streams-in", "1,1", &[]);
    let rt = runtime();
    let coordinator = wait_for(Duration::from_secs(30), || {
        coordinator(&rt, &bs, "measured-app").map(|_| ())
    });
    assert!(coordinator.is_some(), "no coordinator");
    let join = StreamsGroupHeartbeatRequest {
        group_id: "measured-app".into(),
        member_epoch: 0,
        member_id: "m-1".into(),
        rebalance_timeout_ms: 30_000,
        process_id: Some("p-1".into()),
        topology: Some(Topology {
            epoch: 0,
            subtopologies: vec![Subtopology {
                subtopology_id: "0".into(),
                source_topics: vec!["streams-in".into()],
                ..Default::default()
            }],
            ..Default::default()
        }),
        active_tasks: Some(vec![]),
        standby_tasks: Some(vec![]),
        warmup_tasks: Some(vec![]),
        ..Default::default()
    };
    let joined = wait_for(Duration::from_secs(30), || {
        let r = rt.block_on(call(
            &bs,
            RequestBody::StreamsGroupHeartbeat(join.clone()),
            0,
        ));
        match r {
            Some(ResponseBody::StreamsGroupHeartbeat(r)) if r.error_code == 0 => Some(r),
            _ => None,
        }
    })
    .expect("joined");
    assert!(joined.member_epoch >= 1, "{joined:?}");
    let metrics = common::metrics_text(node.metrics_port);
    let value = |name: &str| {
        metrics
            .lines()
            .find(|l| l.starts_with(name))
            .and_then(|l| l.rsplit(' ').next())
            .map(str::to_string)
    };
    assert_eq!(
        value("kafka_server_group_coordinator_metrics_group_count{protocol=\"streams\"}")
            .as_deref(),
        Some("1"),
        "{metrics}"
    );
    let in_states: i64 = ["empty", "not_ready", "assigning", "reconciling", "stable"]
        .iter()
        .filter_map(|s| {
            value(&format!(
                "kafka_server_group_coordinator_metrics_streams_group_count{{state=\"{s}\"}}"
            ))
        })
        .map(|v| v.parse::<i64>().unwrap())
        .sum();
    assert_eq!(in_states, 1, "one streams group, in one state: {metrics}");
    let rebalances = value("kafka_server_group_coordinator_metrics_streams_group_rebalance");
    assert!(
        rebalances.is_some_and(|v| v.parse::<f64>().unwrap() >= 1.0),
        "{metrics}"
    );
}
