//! Log directories that can fail (KIP-858), on real processes: a controller-only node, broker
//! 1 with two log dirs and brokers 2 and 3 with one. Broker 1's replicas are spread over its
//! dirs and assigned to them through the controller; `kafka-log-dirs --describe` shows both;
//! AlterReplicaLogDirs moves one between them while it serves (its records intact, the
//! controller told, so it follows its new dir's fate below).
//! Then one dir is replaced by a file, as Kafka's own log-dir failure tests break a dir: the
//! dir goes offline, its replicas stop on broker 1 (leadership and ISR move away) while the
//! other dir keeps serving, `kafka-log-dirs` reports the error, GetReplicaLogInfo answers
//! KAFKA_STORAGE_ERROR for the dead replicas, `kafka-unclean-recovery` passes over them and a
//! designated election refuses them.

mod common;

use common::{
    call, create, fjord, free_port, produce_acked, random_uuid, show, text, wait_for, Node,
    FAST_REPLICATION,
};
use fjord_protocol::generated::alter_replica_log_dirs_request as ar;
use fjord_protocol::generated::get_replica_log_info_request::{
    GetReplicaLogInfoRequest, TopicPartitions,
};
use fjord_protocol::{ErrorCode, RequestBody, ResponseBody, Uuid};
use std::collections::BTreeMap;
use std::time::Duration;

const TOPIC: &str = "spread";

/// (topic id, partition -> (leader, ISR)) of `TOPIC` as broker `addr` sees it.
fn partitions(rt: &tokio::runtime::Runtime, addr: &str) -> Option<(Uuid, common::Leaders)> {
    common::partitions_of(rt, addr, TOPIC)
}

/// Broker 1's log dirs from `kafka-log-dirs --describe --broker-list 1`: path -> (error,
/// partitions of `TOPIC`).
fn log_dirs(bootstrap: &str) -> BTreeMap<String, (serde_json::Value, Vec<i32>)> {
    let o = fjord(&[
        "kafka-log-dirs",
        "--bootstrap-server",
        bootstrap,
        "--describe",
        "--broker-list",
        "1",
        "--topic-list",
        TOPIC,
    ]);
    assert!(o.status.success(), "{}", show(&o));
    let out = text(&o.stdout);
    let mut lines = out.lines();
    assert_eq!(
        lines.next(),
        Some("Querying brokers for log directories information")
    );
    assert_eq!(
        lines.next(),
        Some("Received log directory information from brokers 1")
    );
    let v: serde_json::Value = serde_json::from_str(lines.next().unwrap()).unwrap();
    assert_eq!(v["version"], 1);
    assert_eq!(v["brokers"][0]["broker"], 1);
    v["brokers"][0]["logDirs"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| {
            let mut parts: Vec<i32> = d["partitions"]
                .as_array()
                .unwrap()
                .iter()
                .map(|p| {
                    let name = p["partition"].as_str().unwrap();
                    name.rsplit_once('-').unwrap().1.parse().unwrap()
                })
                .collect();
            parts.sort_unstable();
            (
                d["logDir"].as_str().unwrap().to_string(),
                (d["error"].clone(), parts),
            )
        })
        .collect()
}

#[test]
fn a_failed_log_dir_stops_only_its_replicas() {
    let root = tempfile::tempdir().unwrap();
    let rt = tokio::runtime::Runtime::new().unwrap();
    let cport = free_port();
    let voters = format!("controller.quorum.voters=10@127.0.0.1:{cport}");
    let cluster = random_uuid();
    let mut controller = Node::controller(root.path(), 10, cport, &voters, FAST_REPLICATION);
    controller.format(&cluster, &[]);
    controller.start();
    let (d1, d2) = (root.path().join("b1-one"), root.path().join("b1-two"));
    let mut brokers: Vec<Node> = (1..=3)
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
            Node::broker(root.path(), id, free_port(), &voters, &extra)
        })
        .collect();
    for b in &mut brokers {
        b.format(&cluster, &[]);
        b.start();
    }
    let addrs: Vec<String> = brokers.iter().map(Node::broker_addr).collect();
    let bootstrap = addrs.join(",");
    create(
        &bootstrap,
        TOPIC,
        "1:2:3,1:3:2,1:2:3,1:3:2",
        &["min.insync.replicas=1"],
    );
    let ready = wait_for(Duration::from_secs(60), || {
        partitions(&rt, &addrs[1]).filter(|(_, ps)| {
            ps.len() == 4 && ps.values().all(|(l, isr)| *l == 1 && isr.len() == 3)
        })
    });
    let (topic_id, _) = ready.expect("four partitions led by broker 1, all in sync");
    produce_acked(&rt, &bootstrap, TOPIC, 0..20);

    // Broker 1 placed two replicas in each dir.
    let before = log_dirs(&bootstrap);
    assert_eq!(before.len(), 2, "{before:?}");
    let on = |dir: &std::path::Path| before[&dir.display().to_string()].1.clone();
    let (mut on_one, mut on_two) = (on(&d1), on(&d2));
    assert_eq!((on_one.len(), on_two.len()), (2, 2), "{before:?}");
    assert!(before.values().all(|(e, _)| e.is_null()));

    // AlterReplicaLogDirs moves partition 0 (20 records) to the other dir while it serves.
    let (from_dir, to_dir) = if on_one.contains(&0) {
        (&d1, &d2)
    } else {
        (&d2, &d1)
    };
    let alter = RequestBody::AlterReplicaLogDirs(ar::AlterReplicaLogDirsRequest {
        dirs: vec![ar::AlterReplicaLogDir {
            path: to_dir.display().to_string(),
            topics: vec![ar::AlterReplicaLogDirTopic {
                name: TOPIC.into(),
                partitions: vec![0],
                ..Default::default()
            }],
            ..Default::default()
        }],
        ..Default::default()
    });
    let Some(ResponseBody::AlterReplicaLogDirs(r)) = rt.block_on(call(&addrs[0], alter, 2)) else {
        panic!("AlterReplicaLogDirs answered")
    };
    assert_eq!(r.results[0].partitions[0].error_code, 0);
    let moved = wait_for(Duration::from_secs(60), || {
        let now = log_dirs(&bootstrap);
        (now[&to_dir.display().to_string()].1.contains(&0)
            && !now[&from_dir.display().to_string()].1.contains(&0))
        .then_some(())
    });
    assert!(
        moved.is_some(),
        "{:?}\n{}",
        log_dirs(&bootstrap),
        brokers[0].log_tail()
    );
    assert!(!from_dir.join(format!("{TOPIC}-0")).exists());
    let expected: Vec<String> = (0..20).map(|i| format!("v{i}")).collect();
    assert_eq!(common::consume_values(&bootstrap, TOPIC, 20), expected);
    if on_one.contains(&0) {
        on_one.retain(|p| *p != 0);
        on_two.push(0);
    } else {
        on_two.retain(|p| *p != 0);
        on_one.push(0);
    }
    on_one.sort_unstable();
    on_two.sort_unstable();
    // An unknown dir, and a topic the broker does not know.
    let bad = RequestBody::AlterReplicaLogDirs(ar::AlterReplicaLogDirsRequest {
        dirs: vec![
            ar::AlterReplicaLogDir {
                path: "/nowhere".into(),
                topics: vec![ar::AlterReplicaLogDirTopic {
                    name: TOPIC.into(),
                    partitions: vec![1],
                    ..Default::default()
                }],
                ..Default::default()
            },
            ar::AlterReplicaLogDir {
                path: d1.display().to_string(),
                topics: vec![ar::AlterReplicaLogDirTopic {
                    name: "nothing".into(),
                    partitions: vec![0],
                    ..Default::default()
                }],
                ..Default::default()
            },
        ],
        ..Default::default()
    });
    let Some(ResponseBody::AlterReplicaLogDirs(r)) = rt.block_on(call(&addrs[0], bad, 2)) else {
        panic!("AlterReplicaLogDirs answered")
    };
    let codes: Vec<i16> = r
        .results
        .iter()
        .map(|t| t.partitions[0].error_code)
        .collect();
    assert_eq!(
        codes,
        vec![
            ErrorCode::LogDirNotFound.code(),
            ErrorCode::UnknownTopicOrPartition.code()
        ]
    );

    // Dir two is replaced by a file: its next checkpoint fails and it goes offline.
    std::fs::rename(&d2, root.path().join("b1-two.gone")).unwrap();
    std::fs::write(&d2, b"not a directory").unwrap();
    let moved = wait_for(Duration::from_secs(60), || {
        partitions(&rt, &addrs[1])
            .filter(|(_, ps)| on_two.iter().all(|p| ps[p].0 > 1 && !ps[p].1.contains(&1)))
    });
    let (_, now) = moved.unwrap_or_else(|| {
        panic!(
            "the partitions of the failed dir move off broker 1: {:?}\n{}",
            partitions(&rt, &addrs[1]),
            brokers[0].log_tail()
        )
    });
    for p in &on_one {
        assert_eq!(
            now[p],
            (1, vec![1, 2, 3]),
            "partition {p} on the healthy dir"
        );
    }
    let log = std::fs::read_to_string(brokers[0].dir.join("server.log")).unwrap();
    assert!(log.contains("log dir offline"), "{log}");
    let after = log_dirs(&bootstrap);
    assert_eq!(
        after[&d2.display().to_string()],
        (
            serde_json::json!("org.apache.kafka.common.errors.KafkaStorageException"),
            vec![]
        )
    );
    assert_eq!(after[&d1.display().to_string()].1, on_one);
    // Writes go on (to broker 1 where its dir is healthy, elsewhere for the others).
    produce_acked(&rt, &bootstrap, TOPIC, 20..30);

    // GetReplicaLogInfo on broker 1: the failed dir's replicas are a storage error.
    let ask = RequestBody::GetReplicaLogInfo(GetReplicaLogInfoRequest {
        topic_partitions: Some(vec![TopicPartitions {
            topic_id,
            partitions: (0..4).collect(),
            ..Default::default()
        }]),
        ..Default::default()
    });
    let Some(ResponseBody::GetReplicaLogInfo(info)) = rt.block_on(call(&addrs[0], ask, 0)) else {
        panic!("GetReplicaLogInfo answered")
    };
    for p in &info.topic_partition_log_info_list[0].partition_log_info {
        let want = if on_two.contains(&p.partition) {
            ErrorCode::KafkaStorageError.code()
        } else {
            0
        };
        assert_eq!(p.error_code, want, "partition {}", p.partition);
    }

    // Brokers 2 and 3 die: a partition of the failed dir is offline with broker 1's replica
    // alive but unusable; the healthy dir's partitions stay led by broker 1.
    let dead = on_two[0];
    brokers[2].kill();
    brokers[1].kill();
    let offline = wait_for(Duration::from_secs(60), || {
        partitions(&rt, &addrs[0]).filter(|(_, ps)| ps[&dead].0 == -1)
    });
    let (_, now) = offline.expect("the failed dir's partition is offline");
    for p in &on_one {
        assert_eq!(now[p].0, 1, "partition {p} still led by broker 1");
    }
    let dry = fjord(&[
        "kafka-unclean-recovery",
        "--bootstrap-server",
        &addrs[0],
        "--topic",
        TOPIC,
        "--partition",
        &dead.to_string(),
        "--dry-run",
        "--deadline-ms",
        "1500",
    ]);
    let out = text(&dry.stdout);
    assert!(!dry.status.success(), "nothing to elect: {}", show(&dry));
    let row: Vec<&str> = out
        .lines()
        .map(str::trim_start)
        .find(|l| l.starts_with("1 "))
        .unwrap_or_default()
        .split_whitespace()
        .collect();
    assert_eq!(row.get(1), Some(&"error"), "{out}");
    assert!(out.contains("KAFKA_STORAGE_ERROR"), "{out}");
    assert!(
        out.contains("(retriable; still the answer at the deadline after"),
        "a storage error is asked again until the deadline: {out}"
    );
    assert!(out.contains("Choice: none."), "{out}");
    let elect = fjord(&[
        "kafka-leader-election",
        "--bootstrap-server",
        &addrs[0],
        "--election-type",
        "designated",
        "--topic",
        TOPIC,
        "--partition",
        &dead.to_string(),
        "--designated-leader",
        "1",
    ]);
    assert!(!elect.status.success(), "{}", show(&elect));
    assert!(show(&elect).contains("log dir"), "{}", show(&elect));
}
