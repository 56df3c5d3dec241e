//! The differential test of tiered storage: Apache Kafka 4.4 (`tests/kafka/kafka.sh`, tiering
//! through `tests/kafka/rsm`, a RemoteStorageManager over a directory, since Maven Central
//! serves no open one for 4.4) and a fjord node (its embedded default, a directory store) are
//! given the same tiered topic and the same batches, and once both have moved the closed
//! segments to their stores their answers are compared after normalising: ListOffsets
//! EARLIEST (-2), LATEST (-1), EARLIEST_LOCAL (-4) and the latest tiered offset (-5, KIP-1005);
//! DescribeConfigs of the tiered keys; DescribeLogDirs' partition size (the local disk's on
//! both; fjord adds its tagged `RemoteSize`, checked on its own); the producer snapshot files
//! (one copied with each segment; locally, one per segment start); and the configurations Kafka
//! refuses (turning tiering off without `remote.log.delete.on.disable`, a compacted tiered
//! topic, a local retention above the total). Needs Java, so it is `#[ignore]`d in a plain
//! `cargo test`; `.ci/run` runs it with `--ignored`.

mod common;

use common::differential::{ask, normalise};
use common::kafka::KafkaCluster;
use common::{wait_for, Node};
use fjord_protocol::generated::create_topics_request::{
    CreatableTopic, CreatableTopicConfig, CreateTopicsRequest,
};
use fjord_protocol::generated::describe_configs_request::{
    DescribeConfigsRequest, DescribeConfigsResource,
};
use fjord_protocol::generated::describe_log_dirs_request::{
    DescribableLogDirTopic, DescribeLogDirsRequest,
};
use fjord_protocol::generated::list_offsets_request::{
    ListOffsetsPartition, ListOffsetsRequest, ListOffsetsTopic,
};
use fjord_protocol::{RequestBody, ResponseBody};
use std::time::Duration;

/// The tiered topic.
const TOPIC: &str = "tiered";
/// Batches produced, each one record of [`BATCH_BYTES`]: six closed 1 MiB segments and an
/// active one.
const BATCHES: usize = 70;
/// The value size of each batch's record.
const BATCH_BYTES: usize = 100_000;
/// The tiered keys compared in DescribeConfigs, with their synonyms (not `retention.ms`,
/// whose synonyms differ on purpose: docs/EXTENSIONS.md).
const KEYS: &[&str] = &[
    "remote.storage.enable",
    "local.retention.ms",
    "local.retention.bytes",
    "remote.log.copy.disable",
    "remote.log.delete.on.disable",
    "retention.bytes",
];

fn create(name: &str, configs: &[(&str, &str)]) -> RequestBody {
    RequestBody::CreateTopics(CreateTopicsRequest {
        topics: vec![CreatableTopic {
            name: name.into(),
            num_partitions: 1,
            replication_factor: 1,
            configs: configs
                .iter()
                .map(|(k, v)| CreatableTopicConfig {
                    name: (*k).into(),
                    value: Some((*v).into()),
                    ..Default::default()
                })
                .collect(),
            ..Default::default()
        }],
        timeout_ms: 10_000,
        ..Default::default()
    })
}

/// Produce (acks=1) of one record of `size` bytes to partition 0, stamped now (an old
/// timestamp would roll a segment per batch and let time retention take them).
fn produce_now(size: usize) -> RequestBody {
    use fjord_protocol::generated::produce_request::{
        PartitionProduceData, ProduceRequest, TopicProduceData,
    };
    use fjord_protocol::records::{Compression, RecordBatchBuilder};
    let mut b = RecordBatchBuilder::new(Compression::None);
    b.append(
        fjord_util::system_now_ms(),
        None,
        Some(&vec![b'x'; size]),
        &[],
    );
    RequestBody::Produce(ProduceRequest {
        acks: 1,
        timeout_ms: 10_000,
        topic_data: vec![TopicProduceData {
            name: TOPIC.into(),
            partition_data: vec![PartitionProduceData {
                index: 0,
                records: Some(b.build().unwrap().into()),
                ..Default::default()
            }],
            ..Default::default()
        }],
        ..Default::default()
    })
}

/// `body` (a CreateTopics) asked to validate only.
fn validate_only(body: RequestBody) -> RequestBody {
    match body {
        RequestBody::CreateTopics(c) => RequestBody::CreateTopics(CreateTopicsRequest {
            validate_only: true,
            ..c
        }),
        other => other,
    }
}

fn list_offsets(timestamp: i64) -> RequestBody {
    RequestBody::ListOffsets(ListOffsetsRequest {
        replica_id: -1,
        topics: vec![ListOffsetsTopic {
            name: TOPIC.into(),
            partitions: vec![ListOffsetsPartition {
                partition_index: 0,
                timestamp,
                current_leader_epoch: -1,
                ..Default::default()
            }],
            ..Default::default()
        }],
        ..Default::default()
    })
}

/// A DescribeConfigs answer with its configs by name (Kafka lists named keys in a hash set's
/// order).
async fn describe_sorted(addr: &str, body: RequestBody) -> String {
    let Ok(c) = fjord_net::client::Client::connect(addr, Duration::from_secs(5)).await else {
        return "connect failed".into();
    };
    match c.call(body, 4, Duration::from_secs(10)).await {
        Ok(ResponseBody::DescribeConfigs(mut d)) => {
            for r in &mut d.results {
                r.configs.sort_by(|a, b| a.name.cmp(&b.name));
            }
            format!("{d:?}")
        }
        other => format!("{other:?}"),
    }
}

/// The partition's local size and fjord's `RemoteSize` from DescribeLogDirs.
async fn log_dir_sizes(addr: &str) -> Option<(i64, i64)> {
    let c = fjord_net::client::Client::connect(addr, Duration::from_secs(5))
        .await
        .ok()?;
    let body = RequestBody::DescribeLogDirs(DescribeLogDirsRequest {
        topics: Some(vec![DescribableLogDirTopic {
            topic: TOPIC.into(),
            partitions: vec![0],
            ..Default::default()
        }]),
        ..Default::default()
    });
    let ResponseBody::DescribeLogDirs(r) = c.call(body, 4, Duration::from_secs(10)).await.ok()?
    else {
        return None;
    };
    let p = r
        .results
        .iter()
        .flat_map(|d| d.topics.iter())
        .flat_map(|t| t.partitions.iter())
        .next()?;
    Some((p.partition_size, p.remote_size))
}

/// What Kafka refuses of tiering, asked of both (validate only: nothing changes): (what,
/// request, version).
fn refusals() -> Vec<(&'static str, RequestBody, i16)> {
    vec![
        (
            "turning tiering off without remote.log.delete.on.disable",
            common::differential::alter_resource(2, TOPIC, &[("remote.storage.enable", "false")]),
            1,
        ),
        (
            "a compacted tiered topic",
            validate_only(create(
                "compacted",
                &[
                    ("remote.storage.enable", "true"),
                    ("cleanup.policy", "compact"),
                ],
            )),
            7,
        ),
        (
            "a local retention above the total",
            validate_only(create(
                "longer",
                &[
                    ("remote.storage.enable", "true"),
                    ("retention.bytes", "1000"),
                    ("local.retention.bytes", "2000"),
                ],
            )),
            7,
        ),
    ]
}

/// Every file below `dir` whose name ends in `.suffix`, by its name's stem.
fn files_ending(dir: &std::path::Path, suffix: &str) -> Vec<String> {
    let mut out = Vec::new();
    for entry in std::fs::read_dir(dir).into_iter().flatten().flatten() {
        let path = entry.path();
        if path.is_dir() {
            out.extend(files_ending(&path, suffix));
        } else if let Some(stem) = path
            .file_name()
            .and_then(|n| n.to_str())
            .and_then(|n| n.strip_suffix(&format!(".{suffix}")))
        {
            out.push(stem.to_string());
        }
    }
    out
}

/// How a server keeps producer snapshots: the store's segments and the snapshots copied with
/// them, and in the partition's directory `local`, the snapshots at a segment's start, those
/// elsewhere, and the segments (but the first) without one.
fn snapshot_files(store: &std::path::Path, local: &std::path::Path) -> String {
    let offsets = |suffix| -> std::collections::BTreeSet<i64> {
        files_ending(local, suffix)
            .iter()
            .filter_map(|s| s.parse().ok())
            .collect()
    };
    let (bases, snapshots) = (offsets("log"), offsets("snapshot"));
    format!(
        "store: {} segments, {} snapshots; local: {} at a segment start, {} elsewhere, {} segments without",
        files_ending(store, "log").len(),
        files_ending(store, "snapshot").len(),
        snapshots.intersection(&bases).count(),
        snapshots.difference(&bases).count(),
        bases.iter().skip(1).filter(|b| !snapshots.contains(b)).count(),
    )
}

#[test]
#[ignore = "needs Java (tests/kafka/kafka.sh); .ci/run runs it"]
fn tiering_answers_as_kafka_4_4_does() {
    let rt = tokio::runtime::Runtime::new().unwrap();
    let root = tempfile::tempdir().unwrap();
    let quick = "remote.log.manager.task.interval.ms=500\n\
                 log.retention.check.interval.ms=500\n\
                 rlmm.config.remote.log.metadata.topic.replication.factor=1\n\
                 rlmm.config.remote.log.metadata.topic.num.partitions=5\n\
                 remote.log.storage.system.enable=true\n";
    let fjord = Node::single(
        root.path(),
        0,
        &format!(
            "{quick}rsm.config.storage.root={}\n",
            root.path().join("fjord-store").display()
        ),
    );
    let f = fjord.broker_addr();
    let rsm = std::process::Command::new("bash")
        .arg(common::kafka::script())
        .arg("rsm")
        .output()
        .expect("kafka.sh rsm");
    assert!(rsm.status.success(), "{}", common::show(&rsm));
    let kafka = KafkaCluster::start(
        1,
        24700,
        &format!(
            "{quick}remote.log.storage.manager.class.name=dev.fjord.tiered.DirectoryStorageManager\n\
             rsm.config.dir={}\n\
             remote.log.metadata.manager.listener.name=PLAINTEXT",
            root.path().join("kafka-store").display()
        ),
    );
    let k = kafka.addr(1);
    let tiered = [
        ("remote.storage.enable", "true"),
        ("segment.bytes", "1048576"),
        ("local.retention.bytes", "1"),
    ];
    let mut compared = 0;
    let mut differences = Vec::new();
    let mut compare = |what: &str, fa: String, ka: String| {
        compared += 1;
        let (fa, ka) = (normalise(&fa), normalise(&ka));
        if fa != ka {
            differences.push(format!("{what}:\n  fjord: {fa}\n  kafka: {ka}"));
        }
    };
    for addr in [&f, &k] {
        let made = wait_for(Duration::from_secs(60), || {
            let out = rt.block_on(ask(addr, create(TOPIC, &tiered), 7));
            (out.contains("error_code: 0") || out.contains("error_code: 36")).then_some(())
        });
        assert!(made.is_some(), "{addr} never created {TOPIC}");
        for i in 0..BATCHES {
            // The first waits for the new topic's leader.
            let limit = Duration::from_secs(if i == 0 { 60 } else { 10 });
            let done = wait_for(limit, || {
                let body = produce_now(BATCH_BYTES);
                let out = rt.block_on(ask(addr, body, 9));
                out.contains("error_code: 0").then_some(())
            });
            assert!(done.is_some(), "{addr} refused batch {i}");
        }
    }
    // Both settle: the closed segments in the store, the disk holding the active one.
    for (addr, who) in [(&f, "fjord"), (&k, "kafka")] {
        let settled = wait_for(Duration::from_secs(120), || {
            let local = common::list_offset(&rt, addr, TOPIC, -4).unwrap_or(-1);
            let last = common::list_offset(&rt, addr, TOPIC, -5).unwrap_or(-1);
            (local > 0 && last == local - 1).then_some(local)
        });
        assert!(
            settled.is_some(),
            "{who} never moved its closed segments to the store"
        );
    }
    for t in [-2, -1, -4, -5] {
        compare(
            &format!("ListOffsets {t}"),
            rt.block_on(ask(&f, list_offsets(t), 9)),
            rt.block_on(ask(&k, list_offsets(t), 9)),
        );
    }
    let describe = RequestBody::DescribeConfigs(DescribeConfigsRequest {
        resources: vec![DescribeConfigsResource {
            resource_type: 2,
            resource_name: TOPIC.into(),
            configuration_keys: Some(KEYS.iter().map(|k| (*k).to_string()).collect()),
            ..Default::default()
        }],
        include_synonyms: true,
        ..Default::default()
    });
    compare(
        "DescribeConfigs of the tiered keys",
        rt.block_on(describe_sorted(&f, describe.clone())),
        rt.block_on(describe_sorted(&k, describe)),
    );
    let (fs, fr) = rt.block_on(log_dir_sizes(&f)).expect("fjord's log dirs");
    let (ks, kr) = rt.block_on(log_dir_sizes(&k)).expect("kafka's log dirs");
    compare(
        "DescribeLogDirs partition size",
        fs.to_string(),
        ks.to_string(),
    );
    assert_eq!(kr, -1, "Kafka has no RemoteSize");
    assert!(fr > 5 * 1_048_576 / 2, "fjord's RemoteSize {fr}");
    // Producer snapshots as files: each copy carries one, and the partition's directory keeps
    // one per local segment start, as Kafka's does.
    compare(
        "producer snapshots",
        snapshot_files(
            &root.path().join("fjord-store"),
            &fjord.dir.join("data/tiered-0"),
        ),
        snapshot_files(
            &root.path().join("kafka-store"),
            &kafka.log_dir(1, 1).join("tiered-0"),
        ),
    );
    for (what, body, version) in refusals() {
        compare(
            what,
            rt.block_on(ask(&f, body.clone(), version)),
            rt.block_on(ask(&k, body, version)),
        );
    }
    eprintln!(
        "tiered differential: compared {compared}, different {}",
        differences.len()
    );
    assert!(differences.is_empty(), "{}", differences.join("\n"));
}
