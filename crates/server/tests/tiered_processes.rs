//! Tiered storage on real processes with the embedded default's store, a local directory:
//! a topic with `remote.storage.enable` and a tiny local retention copies its closed segments
//! to the store, local retention deletes them from disk (ListOffsets -4 moves up while -2
//! stays at 0, and a lookup by timestamp still finds offset 0 in the store), and librdkafka reads every record back from offset 0, through the store,
//! before and after the node is SIGKILLed and restarted on its old ports; deleting the topic
//! empties the store. Aborted transactions stay hidden from read_committed consumers when
//! their records come from the store, after a restart too (the store's transaction indexes).

mod common;

use common::{consume_values, create, list_offset, produce_acked, wait_for, Node};
use std::path::Path;
use std::time::Duration;

const TOPIC: &str = "tiered";
const RECORDS: usize = 3000;

/// The node's tiered-storage settings: the store under `root`, quick managers.
fn tiering(root: &Path) -> String {
    format!(
        "remote.log.storage.system.enable=true\n\
         rsm.config.storage.root={}\n\
         remote.log.manager.task.interval.ms=200\n\
         log.retention.check.interval.ms=300\n\
         rlmm.config.remote.log.metadata.topic.replication.factor=1\n\
         rlmm.config.remote.log.metadata.topic.num.partitions=5\n",
        root.join("store").display()
    )
}

fn files_of(dir: &Path) -> usize {
    walk(dir).len()
}

fn walk(dir: &Path) -> Vec<std::path::PathBuf> {
    let mut out = Vec::new();
    if let Ok(entries) = std::fs::read_dir(dir) {
        for e in entries.flatten() {
            let p = e.path();
            if p.is_dir() {
                out.extend(walk(&p));
            } else {
                out.push(p);
            }
        }
    }
    out
}

#[test]
fn history_moves_to_the_store_and_reads_back_from_offset_zero_across_a_restart() {
    let root = tempfile::tempdir().unwrap();
    let rt = tokio::runtime::Runtime::new().unwrap();
    // free_port gives ports below 32768: the node restarts on them.
    let port = common::free_port();
    let mut node = Node::single(root.path(), port, &tiering(root.path()));
    let addr = node.broker_addr();
    create(
        &addr,
        TOPIC,
        "1",
        &[
            "remote.storage.enable=true",
            "segment.bytes=8192",
            "local.retention.bytes=16384",
        ],
    );
    // In rounds, so that the log has many small segments.
    for round in 0..RECORDS / 100 {
        produce_acked(&rt, &addr, TOPIC, round * 100..(round + 1) * 100);
    }
    // Local retention deletes what the store holds: the local log start moves up, the log
    // start stays at 0.
    let local = wait_for(Duration::from_secs(90), || {
        list_offset(&rt, &addr, TOPIC, -4).filter(|o| *o > RECORDS as i64 / 2)
    });
    if local.is_none() {
        let _ = std::fs::copy(node.dir.join("server.log"), "/tmp/tiered-server.log");
    }
    assert!(
        local.is_some(),
        "the local log start never moved: {}",
        node.log_tail()
    );
    assert_eq!(
        list_offset(&rt, &addr, TOPIC, -2),
        Some(0),
        "the log start stays at 0"
    );
    // A lookup by timestamp finds the first record at or after it in the store.
    assert_eq!(
        list_offset(&rt, &addr, TOPIC, 0),
        Some(0),
        "ListOffsets by timestamp looks in the store first"
    );
    let tiered = list_offset(&rt, &addr, TOPIC, -5).unwrap();
    assert!(
        tiered >= local.unwrap() - 1,
        "-5 {tiered} below the local start {local:?}"
    );
    assert!(
        files_of(&root.path().join("store")) > 10,
        "objects in the store"
    );
    remote_sizes_and_log_info_name_the_store(&rt, &addr, local.unwrap());
    let expected: Vec<String> = (0..RECORDS).map(|i| format!("v{i}")).collect();
    assert_eq!(
        consume_values(&addr, TOPIC, RECORDS),
        expected,
        "read back through the store"
    );
    node.kill();
    node.start();
    let back = wait_for(Duration::from_secs(60), || {
        list_offset(&rt, &addr, TOPIC, -2)
    });
    if back != Some(0) {
        let _ = std::fs::copy(node.dir.join("server.log"), "/tmp/tiered-server.log");
    }
    assert_eq!(
        back,
        Some(0),
        "after a restart the log still starts at 0 (local start {:?}): {}",
        list_offset(&rt, &addr, TOPIC, -4),
        node.log_tail()
    );
    assert_eq!(
        consume_values(&addr, TOPIC, RECORDS),
        expected,
        "read back through the store after a restart"
    );
    let deleted = common::fjord(&[
        "kafka-topics",
        "--bootstrap-server",
        &addr,
        "--delete",
        "--topic",
        TOPIC,
    ]);
    assert!(deleted.status.success(), "{}", common::show(&deleted));
    let emptied = wait_for(Duration::from_secs(60), || {
        (files_of(&root.path().join("store")) == 0).then_some(())
    });
    assert!(
        emptied.is_some(),
        "the deleted topic's objects stay: {}",
        node.log_tail()
    );
}

/// `kafka-log-dirs` shows the partition's bytes on disk and in the store; GetReplicaLogInfo
/// reports the replica's first local offset, the store's share of its history, and nothing
/// in the store its history does not share.
fn remote_sizes_and_log_info_name_the_store(
    rt: &tokio::runtime::Runtime,
    addr: &str,
    local_start: i64,
) {
    use fjord_protocol::generated::get_replica_log_info_request::{
        GetReplicaLogInfoRequest, TopicPartitions,
    };
    use fjord_protocol::{RequestBody, ResponseBody};
    let out = common::fjord(&[
        "kafka-log-dirs",
        "--bootstrap-server",
        addr,
        "--describe",
        "--topic-list",
        TOPIC,
    ]);
    assert!(out.status.success(), "{}", common::show(&out));
    let text = String::from_utf8_lossy(&out.stdout);
    let json = text
        .lines()
        .find(|l| l.starts_with('{'))
        .unwrap_or_else(|| panic!("no JSON: {text}"));
    let v: serde_json::Value = serde_json::from_str(json).unwrap();
    let p = &v["brokers"][0]["logDirs"][0]["partitions"][0];
    let (local, remote) = (
        p["size"].as_i64().unwrap(),
        p["remoteSize"].as_i64().unwrap(),
    );
    assert!(
        remote > local && local > 0,
        "on disk {local} bytes, in the store {remote}: {json}"
    );

    let (topic_id, _, _) = common::partition_zero(rt, addr, TOPIC).unwrap();
    let body = RequestBody::GetReplicaLogInfo(GetReplicaLogInfoRequest {
        topic_partitions: Some(vec![TopicPartitions {
            topic_id,
            partitions: vec![0],
            ..Default::default()
        }]),
        ..Default::default()
    });
    let Some(ResponseBody::GetReplicaLogInfo(r)) = rt.block_on(common::call(addr, body, 0)) else {
        panic!("GetReplicaLogInfo answered otherwise");
    };
    let info = &r.topic_partition_log_info_list[0].partition_log_info[0];
    assert_eq!(info.error_code, 0);
    assert_eq!(info.log_start_offset, 0, "the log start counts the store");
    assert!(info.local_log_start_offset >= local_start, "{info:?}");
    assert_eq!(info.remote_log_start_offset, 0, "{info:?}");
    assert!(
        info.remote_log_end_offset >= info.local_log_start_offset,
        "the store reaches the local log: {info:?}"
    );
    assert!(info.remote_unshared_ranges.is_empty(), "{info:?}");
}

#[test]
fn read_committed_skips_aborted_transactions_read_from_the_store_after_a_restart() {
    use rdkafka::producer::{BaseRecord, DefaultProducerContext, Producer, ThreadedProducer};
    let root = tempfile::tempdir().unwrap();
    let rt = tokio::runtime::Runtime::new().unwrap();
    let mut node = Node::embedded_like_with(root.path(), &tiering(root.path()));
    let addr = node.broker_addr();
    let topic = "tiered-txn";
    create(
        &addr,
        topic,
        "1",
        &[
            "remote.storage.enable=true",
            "segment.bytes=4096",
            "local.retention.bytes=8192",
        ],
    );
    let producer: ThreadedProducer<DefaultProducerContext> = rdkafka::config::ClientConfig::new()
        .set("bootstrap.servers", &addr)
        .set("transactional.id", "tiered-txn")
        .create()
        .unwrap();
    let t = Duration::from_secs(30);
    producer.init_transactions(t).unwrap();
    let rounds = 40;
    let mut expected = Vec::new();
    for r in 0..rounds {
        for (kind, commit) in [("c", true), ("a", false)] {
            producer.begin_transaction().unwrap();
            for i in 0..10 {
                let v = format!("{kind}{r:03}-{i}");
                producer
                    .send(BaseRecord::<(), _>::to(topic).payload(&v).partition(0))
                    .unwrap();
                if commit {
                    expected.push(v);
                }
            }
            producer.flush(t).unwrap();
            if commit {
                producer.commit_transaction(t).unwrap();
            } else {
                producer.abort_transaction(t).unwrap();
            }
        }
    }
    // The first half of the history leaves the local disk.
    let moved = wait_for(Duration::from_secs(90), || {
        list_offset(&rt, &addr, topic, -4).filter(|o| *o > 400)
    });
    assert!(moved.is_some(), "history stayed local: {}", node.log_tail());
    node.kill();
    node.start();
    let read = |isolation: &str, n: usize| {
        common::read_from_start(
            &addr,
            topic,
            n,
            &[("isolation.level", isolation)],
            Duration::from_secs(60),
            20,
        )
    };
    let got = read("read_committed", expected.len());
    if got != expected {
        let _ = std::fs::copy(node.dir.join("server.log"), "/tmp/tiered-txn-server.log");
    }
    assert_eq!(
        got,
        expected,
        "read_committed from offset 0 through the store: {}",
        node.log_tail()
    );
    let all = read("read_uncommitted", rounds * 20);
    assert_eq!(all.len(), rounds * 20, "every record, aborted ones too");
    assert!(all.iter().any(|v| v.starts_with('a')));
}
