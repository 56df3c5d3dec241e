//! Partition reassignment (KIP-455) on real processes: a controller and brokers 1-4. A
//! partition written with acks=all moves from brokers {1,2} to {2,3} and then to {3,4} with
//! AlterPartitionReassignments; ListPartitionReassignments shows each move until the new
//! replicas are in sync, then nothing; every acknowledged record is read back, and a broker
//! that no longer holds a replica deletes its copy. A cancelled reassignment goes back to the
//! replicas it started from; while it is under way `kafka-topics --describe` shows its
//! Adding Replicas and Removing Replicas columns.

mod common;

use common::{controller_and_brokers, reassign, wait_for, FAST_REPLICATION};
use fjord_protocol::generated::list_partition_reassignments_request::ListPartitionReassignmentsRequest;
use fjord_protocol::{RequestBody, ResponseBody};
use std::time::Duration;

/// One reassignment under way: (topic, replicas, adding, removing).
type Listed = (String, Vec<i32>, Vec<i32>, Vec<i32>);

/// The reassignments under way, as `addr` lists them.
fn listed(rt: &tokio::runtime::Runtime, addr: &str) -> Vec<Listed> {
    let body = RequestBody::ListPartitionReassignments(ListPartitionReassignmentsRequest {
        timeout_ms: 60_000,
        topics: None,
        ..Default::default()
    });
    match rt.block_on(common::call(addr, body, 0)) {
        Some(ResponseBody::ListPartitionReassignments(r)) => r
            .topics
            .into_iter()
            .flat_map(|t| {
                let name = t.name;
                t.partitions.into_iter().map(move |p| {
                    (
                        name.clone(),
                        p.replicas,
                        p.adding_replicas,
                        p.removing_replicas,
                    )
                })
            })
            .collect(),
        other => panic!("{other:?}"),
    }
}

/// `topic`-0's replicas as `addr`'s Metadata answers them.
fn replicas(rt: &tokio::runtime::Runtime, addr: &str, topic: &str) -> Option<Vec<i32>> {
    use fjord_protocol::generated::metadata_request::{MetadataRequest, MetadataRequestTopic};
    let request = RequestBody::Metadata(MetadataRequest {
        topics: Some(vec![MetadataRequestTopic {
            name: Some(topic.into()),
            ..Default::default()
        }]),
        ..Default::default()
    });
    let ResponseBody::Metadata(m) = rt.block_on(common::call(addr, request, 12))? else {
        return None;
    };
    let p = m.topics.first()?.partitions.first()?;
    Some(p.replica_nodes.clone())
}

#[test]
fn a_partition_moves_twice_and_keeps_every_acknowledged_record() {
    let root = tempfile::tempdir().unwrap();
    let extra = format!("{FAST_REPLICATION}\nfile.delete.delay.ms=0");
    let (_controller, brokers) = controller_and_brokers(root.path(), 4, &extra);
    let bs = brokers[0].broker_addr();
    let rt = tokio::runtime::Runtime::new().unwrap();
    common::create(&bs, "moving", "1:2", &[]);
    common::produce_acked(&rt, &bs, "moving", 0..2_000);
    for (target, gone) in [([2, 3], 1), ([3, 4], 2)] {
        let dir = brokers[gone - 1].dir.join("data");
        assert!(
            dir.join("moving-0").is_dir(),
            "broker {gone} holds a replica"
        );
        assert_eq!(reassign(&rt, &bs, "moving", Some(&target)), 0);
        let done = wait_for(Duration::from_secs(60), || {
            let now = replicas(&rt, &bs, "moving")?;
            (now == target && listed(&rt, &bs).is_empty()).then_some(now)
        });
        assert!(done.is_some(), "{target:?}: {:?}", listed(&rt, &bs));
        // The broker that left deletes its copy.
        let deleted = wait_for(Duration::from_secs(30), || {
            let left = std::fs::read_dir(&dir)
                .map(|d| {
                    d.flatten()
                        .any(|e| e.file_name().to_string_lossy().starts_with("moving-0"))
                })
                .unwrap_or(false);
            (!left).then_some(())
        });
        assert!(deleted.is_some(), "broker {gone} still has moving-0");
        // More acknowledged writes at the new replicas.
        let from = if gone == 1 { 2_000 } else { 3_000 };
        common::produce_acked(&rt, &bs, "moving", from..from + 1_000);
    }
    let values = common::consume_values(&bs, "moving", 4_000);
    let expected: Vec<String> = (0..4_000).map(|i| format!("v{i}")).collect();
    assert_eq!(values, expected);
    // The two final replicas hold the same bytes.
    let log_bytes = |b: usize| -> Vec<u8> {
        let dir = brokers[b - 1].dir.join("data").join("moving-0");
        let mut files: Vec<_> = std::fs::read_dir(&dir)
            .unwrap()
            .flatten()
            .map(|e| e.path())
            .filter(|p| p.extension().is_some_and(|x| x == "log"))
            .collect();
        files.sort();
        files
            .iter()
            .flat_map(|f| std::fs::read(f).unwrap())
            .collect()
    };
    let same = wait_for(Duration::from_secs(30), || {
        let (a, b) = (log_bytes(3), log_bytes(4));
        (!a.is_empty() && a == b).then_some(a.len())
    });
    assert!(same.is_some(), "replicas 3 and 4 differ");
}

#[test]
fn a_cancelled_reassignment_goes_back_to_its_replicas() {
    let root = tempfile::tempdir().unwrap();
    let (_controller, mut brokers) = controller_and_brokers(root.path(), 3, FAST_REPLICATION);
    let bs = brokers[0].broker_addr();
    let rt = tokio::runtime::Runtime::new().unwrap();
    common::create(&bs, "stay", "1:2", &[]);
    common::produce_acked(&rt, &bs, "stay", 0..100);
    // Broker 3 is down: the move cannot finish.
    brokers[2].kill();
    assert_eq!(reassign(&rt, &bs, "stay", Some(&[1, 3])), 0);
    assert_eq!(
        listed(&rt, &bs),
        vec![("stay".to_string(), vec![1, 3, 2], vec![3], vec![2])]
    );
    // kafka-topics --describe shows it as Kafka's does.
    let describe = || {
        let o = common::fjord(&[
            "kafka-topics",
            "--bootstrap-server",
            &bs,
            "--describe",
            "--topic",
            "stay",
        ]);
        assert!(o.status.success(), "{}", common::show(&o));
        common::text(&o.stdout)
    };
    let shown = describe();
    assert!(
        shown.contains("\tReplicas: 1,3,2\tIsr: 1,2\tAdding Replicas: 3\tRemoving Replicas: 2\t"),
        "{shown}"
    );
    assert!(shown.contains("\tReplicationFactor: 2\t"), "{shown}");
    assert_eq!(reassign(&rt, &bs, "stay", None), 0);
    let back = wait_for(Duration::from_secs(30), || {
        (replicas(&rt, &bs, "stay")? == [1, 2]).then_some(())
    });
    assert!(back.is_some());
    assert!(listed(&rt, &bs).is_empty());
    assert!(!describe().contains("Adding Replicas"), "{}", describe());
    // Nothing to cancel now: NO_REASSIGNMENT_IN_PROGRESS.
    assert_eq!(reassign(&rt, &bs, "stay", None), 85);
    assert_eq!(common::consume_values(&bs, "stay", 100).len(), 100);
}

/// Three controllers (ids 10-12) and brokers 1..=`brokers`, formatted and started.
fn quorum_and_brokers(
    root: &std::path::Path,
    brokers: i32,
    extra: &str,
) -> (Vec<common::Node>, Vec<common::Node>) {
    let ports: Vec<u16> = (0..3).map(|_| common::free_port()).collect();
    let voters = format!(
        "controller.quorum.voters={}",
        ports
            .iter()
            .enumerate()
            .map(|(i, p)| format!("{}@127.0.0.1:{p}", 10 + i))
            .collect::<Vec<_>>()
            .join(",")
    );
    let cluster = common::random_uuid();
    let mut controllers: Vec<common::Node> = ports
        .iter()
        .enumerate()
        .map(|(i, p)| common::Node::controller(root, 10 + i as i32, *p, &voters, extra))
        .collect();
    for c in &mut controllers {
        c.format(&cluster, &[]);
        c.start();
    }
    let mut nodes: Vec<common::Node> = (1..=brokers)
        .map(|id| common::Node::broker(root, id, common::free_port(), &voters, extra))
        .collect();
    for b in &mut nodes {
        b.format(&cluster, &[]);
        b.start();
    }
    (controllers, nodes)
}

/// Produces `v0`..`v{total}` to `topic`-0 with acks=all in chunks of 1,000 (each chunk
/// acknowledged before the next), counting what was acknowledged in `acked`.
fn produce_in_chunks(
    bs: String,
    topic: &'static str,
    total: usize,
    acked: std::sync::Arc<std::sync::atomic::AtomicUsize>,
) {
    use rdkafka::producer::{FutureProducer, FutureRecord};
    let rt = tokio::runtime::Runtime::new().unwrap();
    let producer: FutureProducer = rdkafka::config::ClientConfig::new()
        .set("bootstrap.servers", &bs)
        .set("acks", "all")
        .set("enable.idempotence", "true")
        .set("linger.ms", "5")
        .set("message.timeout.ms", "120000")
        .create()
        .unwrap();
    rt.block_on(async {
        for chunk in (0..total).collect::<Vec<_>>().chunks(1_000) {
            let mut pending = Vec::new();
            for i in chunk {
                let v = format!("v{i}");
                let r = FutureRecord::to(topic).key("k").payload(&v).partition(0);
                pending.push(producer.send_result(r).map_err(|(e, _)| e).unwrap());
            }
            for p in pending {
                p.await.unwrap().map_err(|(e, _)| e).expect("acknowledged");
                acked.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
            }
        }
    });
}

/// Reads `topic`-0 from the start until `total` records arrived (or 180 s passed); the values
/// in the order read.
fn consume_all(bs: String, topic: &'static str, total: usize) -> Vec<String> {
    use rdkafka::consumer::{BaseConsumer, Consumer};
    use rdkafka::message::Message;
    let consumer: BaseConsumer = rdkafka::config::ClientConfig::new()
        .set("bootstrap.servers", &bs)
        .set("group.id", "loaded-reader")
        .set("enable.auto.commit", "false")
        .create()
        .unwrap();
    let mut tpl = rdkafka::TopicPartitionList::new();
    tpl.add_partition_offset(topic, 0, rdkafka::Offset::Beginning)
        .unwrap();
    consumer.assign(&tpl).unwrap();
    let deadline = std::time::Instant::now() + Duration::from_secs(180);
    let mut got = Vec::with_capacity(total);
    while got.len() < total && std::time::Instant::now() < deadline {
        if let Some(Ok(m)) = consumer.poll(Duration::from_millis(500)) {
            got.push(String::from_utf8(m.payload().unwrap_or_default().to_vec()).unwrap());
        }
    }
    got
}

/// KIP-455's scenario under load: a partition moves from brokers {1,2} to {2,3} and then to
/// {3,4} while a producer (acks=all) writes 100,000 records and a consumer reads them; the
/// second move runs under a throttle and the active controller is SIGKILLed while it is under
/// way; it completes after the failover. Every acknowledged record is read back, in order, and
/// the final replicas are byte-identical.
#[test]
fn a_partition_moves_twice_under_load_and_through_a_controller_failover() {
    use std::sync::atomic::{AtomicUsize, Ordering};
    const TOTAL: usize = 100_000;
    let root = tempfile::tempdir().unwrap();
    let extra = format!("{FAST_REPLICATION}\nfile.delete.delay.ms=0");
    let (mut controllers, brokers) = quorum_and_brokers(root.path(), 4, &extra);
    let bs = brokers[0].broker_addr();
    let rt = tokio::runtime::Runtime::new().unwrap();
    common::create(&bs, "loaded", "1:2", &[]);
    let acked = std::sync::Arc::new(AtomicUsize::new(0));
    let producer = {
        let (bs, acked) = (bs.clone(), acked.clone());
        std::thread::spawn(move || produce_in_chunks(bs, "loaded", TOTAL, acked))
    };
    let consumer = {
        let bs = bs.clone();
        std::thread::spawn(move || consume_all(bs, "loaded", TOTAL))
    };
    let reached = |n: usize| {
        wait_for(Duration::from_secs(120), || {
            (acked.load(Ordering::SeqCst) >= n).then_some(())
        })
        .is_some()
    };
    assert!(reached(10_000));
    assert_eq!(reassign(&rt, &bs, "loaded", Some(&[2, 3])), 0);
    let done = wait_for(Duration::from_secs(90), || {
        (replicas(&rt, &bs, "loaded")? == [2, 3] && listed(&rt, &bs).is_empty()).then_some(())
    });
    assert!(done.is_some(), "{:?}", listed(&rt, &bs));
    assert!(reached(40_000));
    // The second move under a 200 kB/s throttle, so that it is still under way when the
    // active controller dies.
    let plan = root.path().join("plan.json");
    std::fs::write(
        &plan,
        r#"{"version":1,"partitions":[{"topic":"loaded","partition":0,"replicas":[3,4]}]}"#,
    )
    .unwrap();
    let plan = plan.to_string_lossy().into_owned();
    let o = common::fjord(&[
        "kafka-reassign-partitions",
        "--bootstrap-server",
        &bs,
        "--execute",
        "--reassignment-json-file",
        &plan,
        "--throttle",
        "200000",
    ]);
    assert!(o.status.success(), "{}", common::show(&o));
    assert_eq!(
        listed(&rt, &bs),
        vec![("loaded".to_string(), vec![3, 4, 2], vec![4], vec![2])]
    );
    let addrs: Vec<String> = controllers.iter().map(common::Node::addr).collect();
    let leader = rt
        .block_on(common::describe(&addrs))
        .expect("a quorum leader")
        .leader_id;
    controllers[(leader - 10) as usize].kill();
    // A new controller takes over; the reassignment is in its records and completes (--verify
    // also lifts the throttle once nothing moves).
    let completed = wait_for(Duration::from_secs(120), || {
        let o = common::fjord(&[
            "kafka-reassign-partitions",
            "--bootstrap-server",
            &bs,
            "--verify",
            "--reassignment-json-file",
            &plan,
        ]);
        common::text(&o.stdout)
            .contains("Reassignment of partition loaded-0 is completed.")
            .then_some(())
    });
    assert!(completed.is_some(), "{:?}", listed(&rt, &bs));
    assert_eq!(replicas(&rt, &bs, "loaded"), Some(vec![3, 4]));
    producer.join().unwrap();
    assert_eq!(acked.load(Ordering::SeqCst), TOTAL);
    let values = consumer.join().unwrap();
    let expected: Vec<String> = (0..TOTAL).map(|i| format!("v{i}")).collect();
    assert_eq!(values.len(), TOTAL);
    assert!(
        values == expected,
        "the records read differ from those acknowledged"
    );
    assert!(common::replicas_identical(&brokers[2..4], "loaded", 0));
    for gone in [0, 1] {
        let dir = brokers[gone].dir.join("data").join("loaded-0");
        let deleted = wait_for(Duration::from_secs(30), || (!dir.exists()).then_some(()));
        assert!(deleted.is_some(), "broker {} still has loaded-0", gone + 1);
    }
}
