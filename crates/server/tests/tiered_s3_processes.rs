//! Tiered storage on three real nodes with a real S3 server (SeaweedFS on loopback, built by
//! `tests/tiered/weed.sh fetch`): the object store's own operations against it; a topic of
//! small segments and a short local retention fills with `FJORD_TIERED_MB` (default 1024) of
//! records while its leader is SIGKILLed half way; every record reads back from offset 0
//! through librdkafka and through Kafka 4.4's Java consumer; a replica added by reassignment
//! starts from the leader's local tail, not from offset 0, and once the partition is moved to
//! it alone it serves the whole history from the store. With the store SIGKILLed (one node):
//! produce and local reads go on, reads from the store get UNKNOWN_SERVER_ERROR, nothing the
//! store does not hold leaves the disk, and once it is back the copies resume and every
//! record reads back. Ignored in a plain `cargo test` (SeaweedFS and Kafka's jars);
//! `.ci/run` runs it with `--ignored`.

mod common;

use common::weed::{s3_properties, start_weed};
use common::{combined_cluster, create, list_offset, partition_zero, reassign, wait_for, Node};
use fjord_tiered::records::{RemoteSegmentId, TopicIdPartition};
use fjord_tiered::store::{Backend, FileKind, RemoteStore, S3Settings, SegmentFile};
use std::time::Duration;

/// The nodes' tiered storage: on `weed`, quick managers, a metadata topic on every node.
fn tiering(weed: &common::weed::Weed) -> String {
    format!(
        "remote.log.storage.system.enable=true\n{}\
         remote.log.manager.task.interval.ms=200\n\
         log.retention.check.interval.ms=500\n\
         rlmm.config.remote.log.metadata.topic.replication.factor=3\n\
         rlmm.config.remote.log.metadata.topic.num.partitions=5\n\
         replica.lag.time.max.ms=5000\n\
         broker.session.timeout.ms=4000\n\
         broker.heartbeat.interval.ms=500\n",
        s3_properties(weed)
    )
}

/// A record's value: its number, padded to `size` bytes.
fn value(i: usize, size: usize) -> String {
    let mut v = format!("{i:010}");
    v.extend(std::iter::repeat_n('.', size.saturating_sub(10)));
    v
}

/// Produces records `range` of `size` bytes to `topic`-0, acks=all and idempotent, in rounds
/// (so that segments stay small); every one must be acknowledged.
fn produce(bootstrap: &str, topic: &str, range: std::ops::Range<usize>, size: usize) {
    use rdkafka::producer::{FutureProducer, FutureRecord};
    let rt = tokio::runtime::Runtime::new().unwrap();
    let producer: FutureProducer = rdkafka::config::ClientConfig::new()
        .set("bootstrap.servers", bootstrap)
        .set("acks", "all")
        .set("enable.idempotence", "true")
        .set("linger.ms", "5")
        .set("message.timeout.ms", "180000")
        .create()
        .unwrap();
    let chunk = 20_000;
    let mut at = range.start;
    while at < range.end {
        let end = (at + chunk).min(range.end);
        rt.block_on(async {
            let mut pending = Vec::new();
            for i in at..end {
                let v = value(i, size);
                let r = FutureRecord::<(), _>::to(topic).payload(&v).partition(0);
                pending.push(producer.send_result(r).map_err(|(e, _)| e).unwrap());
            }
            for p in pending {
                p.await.unwrap().map_err(|(e, _)| e).expect("acknowledged");
            }
        });
        at = end;
    }
}

/// Every record of `topic`-0 from the beginning (its first 10 bytes), read with librdkafka
/// until `n` arrived or a deadline that grows with `n` passed.
fn read_all(bootstrap: &str, topic: &str, n: usize) -> Vec<String> {
    let deadline = Duration::from_secs(60 + (n / 2_000) as u64);
    common::read_from_start(bootstrap, topic, n, &[], deadline, 10)
}

/// Checks that `got` holds record 0 to `n - 1`, each once, in order (their first 10 bytes).
fn check_all(got: &[String], n: usize, who: &str) {
    assert_eq!(got.len(), n, "{who}: {} records of {n}", got.len());
    for (i, v) in got.iter().enumerate() {
        assert_eq!(&v[..10], &format!("{i:010}"), "{who}: record {i}");
    }
}

/// Reads `topic` from the beginning with Kafka 4.4's console consumer (the Java client) and
/// counts the records and checks their order.
fn java_reads(bootstrap: &str, topic: &str, n: usize) {
    let o = std::process::Command::new("bash")
        .arg(common::kafka::script())
        .args([
            "run",
            "org.apache.kafka.tools.consumer.ConsoleConsumer",
            "--bootstrap-server",
            bootstrap,
            "--topic",
            topic,
            "--from-beginning",
            "--max-messages",
            &n.to_string(),
            "--timeout-ms",
            "120000",
        ])
        .output()
        .expect("kafka.sh runs");
    let text = String::from_utf8_lossy(&o.stdout);
    let got: Vec<String> = text.lines().map(str::to_string).collect();
    check_all(&got, n, "the Java consumer");
}

fn store_of(weed: &common::weed::Weed) -> RemoteStore {
    RemoteStore::open(
        &Backend::S3(S3Settings {
            bucket: "fjord".into(),
            endpoint: Some(weed.endpoint.clone()),
            region: "us-east-1".into(),
            path_style: true,
            access_key_id: Some("fjord".into()),
            secret_access_key: Some("fjord-secret".into()),
        }),
        "store-test",
    )
    .unwrap()
}

#[test]
#[ignore = "needs SeaweedFS (tests/tiered/weed.sh fetch)"]
fn the_store_holds_copies_reads_ranges_deletes_and_fails_fast_when_down() {
    let dir = tempfile::tempdir().unwrap();
    let weed = start_weed(dir.path());
    let store = store_of(&weed);
    let seg = RemoteSegmentId {
        tp: TopicIdPartition {
            topic_id: fjord_protocol::Uuid::from_u128(5),
            topic: "orders".into(),
            partition: 2,
        },
        id: fjord_protocol::Uuid::new_v4(),
    };
    let log = dir.path().join("0.log");
    let size = fjord_tiered::store::UPLOAD_CHUNK_BYTES * 2 + 777;
    let big: Vec<u8> = (0..size).map(|i| (i % 253) as u8).collect();
    std::fs::write(&log, &big).unwrap();
    let rt = tokio::runtime::Runtime::new().unwrap();
    rt.block_on(async {
        let files = vec![
            (FileKind::Log, SegmentFile::Path(log)),
            (
                FileKind::OffsetIndex,
                SegmentFile::Bytes(bytes::Bytes::from_static(b"index")),
            ),
        ];
        let n = store.copy_segment(&seg, 42, files).await.unwrap();
        assert_eq!(n, big.len() as u64 + 5);
        let r = store
            .fetch(&seg, 42, FileKind::Log, Some(1000..3000))
            .await
            .unwrap();
        assert_eq!(&r[..], &big[1000..3000]);
        assert_eq!(store.list_partition(&seg.tp).await.unwrap().len(), 2);
        store.delete_segment(&seg, 42).await.unwrap();
        assert!(store.list_partition(&seg.tp).await.unwrap().is_empty());
    });
    drop(weed);
    let started = std::time::Instant::now();
    let down = rt.block_on(store.fetch(&seg, 42, FileKind::Log, None));
    assert!(down.is_err(), "{down:?}");
    assert!(
        started.elapsed() < Duration::from_secs(60),
        "an unreachable store fails fast"
    );
}

#[test]
#[ignore = "needs SeaweedFS (tests/tiered/weed.sh fetch) and Kafka 4.4's jars"]
fn three_nodes_tier_to_s3_survive_a_leader_kill_and_a_new_replica_starts_from_the_tail() {
    let root = tempfile::tempdir().unwrap();
    let weed = start_weed(&root.path().join("weed").tap_mkdir());
    let rt = tokio::runtime::Runtime::new().unwrap();
    let mut nodes: Vec<Node> = combined_cluster(root.path(), 3, &tiering(&weed));
    let addrs: Vec<String> = nodes.iter().map(|n| n.broker_addr()).collect();
    let bootstrap = addrs.join(",");
    let mb: usize = std::env::var("FJORD_TIERED_MB")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(1024);
    let size = 1000;
    let n = mb * 1024 * 1024 / size;
    let tiered = [
        "remote.storage.enable=true",
        "segment.bytes=1048576",
        "local.retention.bytes=4194304",
        "min.insync.replicas=2",
    ];
    create(&addrs[0], "big", "1:2:3", &tiered);
    let clock = std::time::Instant::now();
    produce(&bootstrap, "big", 0..n / 2, size);
    // SIGKILL the leader half way; the rest is written to the new leader.
    let (_, leader, _) = partition_zero(&rt, &addrs[0], "big").expect("big-0 has a leader");
    let killed = (leader - 1) as usize;
    nodes[killed].kill();
    produce(&bootstrap, "big", n / 2..n, size);
    nodes[killed].start();
    let live = &addrs[(killed + 1) % 3];
    // The copies run one segment at a time per broker: the wait grows with the data.
    let moved = wait_for(Duration::from_secs(120 + mb as u64), || {
        let (_, l, _) = partition_zero(&rt, live, "big")?;
        let at = &addrs[(l - 1) as usize];
        list_offset(&rt, at, "big", -4).filter(|o| *o > (n / 4) as i64)
    });
    assert!(moved.is_some(), "history never left the local disks");
    eprintln!(
        "{n} records ({mb} MB) produced and a quarter tiered after {:?}",
        clock.elapsed()
    );
    let clock = std::time::Instant::now();
    let got = read_all(&bootstrap, "big", n);
    check_all(&got, n, "librdkafka");
    eprintln!("librdkafka read all from offset 0 in {:?}", clock.elapsed());
    let clock = std::time::Instant::now();
    java_reads(&bootstrap, "big", n);
    eprintln!(
        "the Java consumer read all from offset 0 in {:?}",
        clock.elapsed()
    );

    // A replica added by reassignment starts from the leader's local tail.
    create(&addrs[0], "grow", "1:2", &tiered[..3]);
    // Two idempotent producers in turn: the first one's records all end up below the
    // leader's local tail, so a replica that starts there knows it only from the store's
    // producer snapshot.
    let m = 40_000;
    produce(&bootstrap, "grow", 0..m / 2, size);
    produce(&bootstrap, "grow", m / 2..m, size);
    let tail = wait_for(Duration::from_secs(120), || {
        list_offset(&rt, &addrs[0], "grow", -4).filter(|o| *o > m as i64 / 2)
    })
    .expect("grow's history reached the store");
    assert_eq!(reassign(&rt, &addrs[0], "grow", Some(&[1, 2, 3])), 0);
    let joined = wait_for(Duration::from_secs(120), || {
        partition_zero(&rt, &addrs[0], "grow").filter(|(_, _, isr)| isr.len() == 3)
    });
    assert!(joined.is_some(), "node 3 never joined grow's ISR");
    let first_local = std::fs::read_dir(nodes[2].dir.join("data").join("grow-0"))
        .unwrap()
        .filter_map(|e| {
            let name = e.ok()?.file_name().to_string_lossy().into_owned();
            name.strip_suffix(".log")?.parse::<i64>().ok()
        })
        .min()
        .expect("node 3 holds segments of grow-0");
    assert!(
        first_local >= tail,
        "node 3 copied history: its log starts at {first_local}, the tail at {tail}"
    );
    // It knows both producers, the first from the store's producer snapshot.
    assert_eq!(
        producers_on(&addrs[0], "grow", 3),
        producers_on(&addrs[0], "grow", 1)
    );
    assert_eq!(producers_on(&addrs[0], "grow", 3).len(), 2);
    // Moved to node 3 alone: it leads and serves the whole history from the store.
    assert_eq!(reassign(&rt, &addrs[0], "grow", Some(&[3])), 0);
    let led = wait_for(Duration::from_secs(120), || {
        partition_zero(&rt, &addrs[2], "grow").filter(|(_, l, isr)| *l == 3 && isr == &[3])
    });
    assert!(led.is_some(), "node 3 never took grow-0 alone");
    let got = read_all(&addrs[2], "grow", m);
    check_all(&got, m, "librdkafka from the new replica");
}

/// The producer ids broker `broker`'s replica of `topic`-0 knows (`kafka-transactions
/// describe-producers --broker-id`).
fn producers_on(bootstrap: &str, topic: &str, broker: i32) -> std::collections::BTreeSet<String> {
    let out = common::fjord(&[
        "kafka-transactions",
        "--bootstrap-server",
        bootstrap,
        "describe-producers",
        "--topic",
        topic,
        "--partition",
        "0",
        "--broker-id",
        &broker.to_string(),
    ]);
    assert!(out.status.success(), "{}", common::show(&out));
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .skip(1)
        .filter_map(|l| l.split_whitespace().next().map(str::to_string))
        .collect()
}

/// `std::fs::create_dir_all` in passing.
trait TapMkdir {
    fn tap_mkdir(self) -> Self;
}

impl TapMkdir for std::path::PathBuf {
    fn tap_mkdir(self) -> Self {
        std::fs::create_dir_all(&self).unwrap();
        self
    }
}

/// Fetch (v12, as a consumer) of `topic`-0 at `offset`: its error code, and how many bytes of
/// records came back.
fn fetch_at(rt: &tokio::runtime::Runtime, addr: &str, topic: &str, offset: i64) -> (i16, usize) {
    use fjord_protocol::generated::fetch_request::{FetchPartition, FetchRequest, FetchTopic};
    use fjord_protocol::{RequestBody, ResponseBody};
    let body = RequestBody::Fetch(FetchRequest {
        replica_id: -1,
        max_wait_ms: 100,
        min_bytes: 1,
        max_bytes: 1 << 20,
        session_epoch: -1,
        topics: vec![FetchTopic {
            topic: topic.into(),
            partitions: vec![FetchPartition {
                partition: 0,
                fetch_offset: offset,
                partition_max_bytes: 1 << 20,
                current_leader_epoch: -1,
                last_fetched_epoch: -1,
                log_start_offset: -1,
                ..Default::default()
            }],
            ..Default::default()
        }],
        ..Default::default()
    });
    match rt.block_on(common::call(addr, body, 12)) {
        Some(ResponseBody::Fetch(r)) => {
            let p = &r.responses[0].partitions[0];
            let bytes = p.records.as_ref().map_or(0, |r| r.len());
            (p.error_code, bytes)
        }
        other => panic!("Fetch answered {other:?}"),
    }
}

#[test]
#[ignore = "needs SeaweedFS (tests/tiered/weed.sh fetch)"]
fn with_the_store_down_produce_and_local_reads_go_on_and_nothing_uncopied_leaves_the_disk() {
    let root = tempfile::tempdir().unwrap();
    let mut weed = start_weed(&root.path().join("weed").tap_mkdir());
    let rt = tokio::runtime::Runtime::new().unwrap();
    let node = Node::embedded_like_with(
        &root.path().join("node").tap_mkdir(),
        &format!(
            "remote.log.storage.system.enable=true\n{}\
             remote.log.manager.task.interval.ms=200\n\
             remote.log.manager.task.retry.backoff.max.ms=1000\n\
             log.retention.check.interval.ms=300\n\
             rlmm.config.remote.log.metadata.topic.replication.factor=1\n\
             rlmm.config.remote.log.metadata.topic.num.partitions=5\n",
            s3_properties(&weed)
        ),
    );
    let addr = node.broker_addr();
    let topic = "outage";
    create(
        &addr,
        topic,
        "1",
        &[
            "remote.storage.enable=true",
            "segment.bytes=4096",
            "local.retention.bytes=4096",
        ],
    );
    for round in 0..20 {
        common::produce_acked(&rt, &addr, topic, round * 100..(round + 1) * 100);
    }
    let tiered = wait_for(Duration::from_secs(90), || {
        list_offset(&rt, &addr, topic, -4).filter(|o| *o > 1000)
    });
    assert!(
        tiered.is_some(),
        "history never reached the store: {}",
        node.log_tail()
    );

    // The store goes away: produce goes on, every record acknowledged.
    weed.stop();
    for round in 20..40 {
        common::produce_acked(&rt, &addr, topic, round * 100..(round + 1) * 100);
    }
    assert_eq!(list_offset(&rt, &addr, topic, -1), Some(4000));
    // Over the next retention passes, the disk keeps everything the store does not hold:
    // the local log never starts past the store's last offset plus one.
    let store_end = list_offset(&rt, &addr, topic, -5).unwrap();
    for _ in 0..10 {
        let local = list_offset(&rt, &addr, topic, -4).unwrap();
        assert!(
            local <= store_end + 1,
            "the local log starts at {local} while the store ends at {store_end}"
        );
        // A local read goes on; a read from the store gets Kafka's error.
        let (code, bytes) = fetch_at(&rt, &addr, topic, local);
        assert_eq!((code, bytes > 0), (0, true), "a local read from {local}");
        let (code, _) = fetch_at(&rt, &addr, topic, 0);
        assert_eq!(
            code, -1,
            "a read from the store while it is down: UNKNOWN_SERVER_ERROR"
        );
    }
    assert!(list_offset(&rt, &addr, topic, -4).unwrap() < 3000);

    // Back: the copies resume (after their backoff), local retention follows, and every
    // record reads back from offset 0.
    weed.start_again();
    let resumed = wait_for(Duration::from_secs(120), || {
        list_offset(&rt, &addr, topic, -4).filter(|o| *o > 3000)
    });
    assert!(
        resumed.is_some(),
        "the copies never resumed: {}",
        node.log_tail()
    );
    let expected: Vec<String> = (0..4000).map(|i| format!("v{i}")).collect();
    assert_eq!(common::consume_values(&addr, topic, 4000), expected);
}
