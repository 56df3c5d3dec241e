//! Partition reassignment (KIP-455) on real processes: a controller and brokers 1-4. A
//! partition written with acks=all moves from brokers {1,2} to {2,3} and then to {3,4} with
//! AlterPartitionReassignments; ListPartitionReassignments shows each move until the new
//! replicas are in sync, then nothing; every acknowledged record is read back, and a broker
//! that no longer holds a replica deletes its copy. A cancelled reassignment goes back to the
//! replicas it started from; while it is under way `kafka-topics --describe` shows its
//! Adding Replicas and Removing Replicas columns.

mod common;

use common::{controller_and_brokers, wait_for, FAST_REPLICATION};
use fjord_protocol::generated::alter_partition_reassignments_request::{
    AlterPartitionReassignmentsRequest, ReassignablePartition, ReassignableTopic,
};
use fjord_protocol::generated::list_partition_reassignments_request::ListPartitionReassignmentsRequest;
use fjord_protocol::{RequestBody, ResponseBody};
use std::time::Duration;

/// AlterPartitionReassignments of `topic`-0 to `replicas` (None: cancel) through `addr`; the
/// partition's error code.
fn reassign(
    rt: &tokio::runtime::Runtime,
    addr: &str,
    topic: &str,
    replicas: Option<&[i32]>,
) -> i16 {
    let body = RequestBody::AlterPartitionReassignments(AlterPartitionReassignmentsRequest {
        timeout_ms: 60_000,
        allow_replication_factor_change: true,
        topics: vec![ReassignableTopic {
            name: topic.into(),
            partitions: vec![ReassignablePartition {
                partition_index: 0,
                replicas: replicas.map(<[i32]>::to_vec),
                ..Default::default()
            }],
            ..Default::default()
        }],
        ..Default::default()
    });
    match rt.block_on(common::call(addr, body, 1)) {
        Some(ResponseBody::AlterPartitionReassignments(r)) => {
            assert_eq!(r.error_code, 0, "{r:?}");
            r.responses[0].partitions[0].error_code
        }
        other => panic!("{other:?}"),
    }
}

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
