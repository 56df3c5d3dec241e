//! The share coordinator (KIP-932) on a real node: FindCoordinator v6 finds a share-partition's
//! coordinator (creating `__share_group_state` as Kafka does, and refusing the key type before
//! v6 or a malformed key); InitializeShareGroupState, WriteShareGroupState,
//! ReadShareGroupState, ReadShareGroupStateSummary and DeleteShareGroupState answer partition
//! by partition with Kafka's codes; a read fences older leaders; records no share-partition
//! needs any more are pruned; and after a SIGKILL the state read back is the state written
//! (the coordinator folds it again from what is left of its log).

mod common;

use common::{call, wait_for, Node};
use fjord_protocol::generated::{
    create_topics_request::{CreatableTopic, CreateTopicsRequest},
    delete_share_group_state_request as del,
    find_coordinator_request::FindCoordinatorRequest,
    initialize_share_group_state_request as init,
    metadata_request::MetadataRequest,
    metadata_request::MetadataRequestTopic,
    read_share_group_state_request as read, read_share_group_state_summary_request as summary,
    write_share_group_state_request as write,
};
use fjord_protocol::{RequestBody, ResponseBody, Uuid};
use std::time::Duration;

const SETTINGS: &str = "share.coordinator.state.topic.replication.factor=1\n\
                        share.coordinator.state.topic.min.isr=1\n\
                        share.coordinator.state.topic.num.partitions=3\n\
                        share.coordinator.snapshot.update.records.per.snapshot=3\n\
                        share.coordinator.state.topic.prune.interval.ms=0";

fn topic_id(rt: &tokio::runtime::Runtime, addr: &str, topic: &str) -> Option<Uuid> {
    let ask = RequestBody::Metadata(MetadataRequest {
        topics: Some(vec![MetadataRequestTopic {
            name: Some(topic.into()),
            ..Default::default()
        }]),
        ..Default::default()
    });
    match rt.block_on(call(addr, ask, 12))? {
        ResponseBody::Metadata(m) => {
            let t = m.topics.first()?;
            (t.error_code == 0 && t.partitions.len() == 2).then_some(t.topic_id)
        }
        _ => None,
    }
}

/// FindCoordinator for `keys` of key type 2: the codes, in order.
fn find(rt: &tokio::runtime::Runtime, addr: &str, keys: &[String], version: i16) -> Vec<i16> {
    let ask = RequestBody::FindCoordinator(FindCoordinatorRequest {
        key_type: 2,
        coordinator_keys: keys.to_vec(),
        ..Default::default()
    });
    match rt.block_on(call(addr, ask, version)) {
        Some(ResponseBody::FindCoordinator(r)) if version >= 4 => {
            r.coordinators.iter().map(|c| c.error_code).collect()
        }
        Some(ResponseBody::FindCoordinator(r)) => vec![r.error_code],
        other => panic!("FindCoordinator: {other:?}"),
    }
}

/// The (partition, code) of each partition of the first topic of a state answer.
fn codes(r: ResponseBody) -> Vec<(i32, i16)> {
    match r {
        ResponseBody::InitializeShareGroupState(r) => r.results[0]
            .partitions
            .iter()
            .map(|p| (p.partition, p.error_code))
            .collect(),
        ResponseBody::WriteShareGroupState(r) => r.results[0]
            .partitions
            .iter()
            .map(|p| (p.partition, p.error_code))
            .collect(),
        ResponseBody::DeleteShareGroupState(r) => r.results[0]
            .partitions
            .iter()
            .map(|p| (p.partition, p.error_code))
            .collect(),
        other => panic!("unexpected {other:?}"),
    }
}

/// A read's code, start offset and batches (first, last, state, count).
type ReadBack = (i16, i64, Vec<(i64, i64, i8, i16)>);

fn read_state(
    rt: &tokio::runtime::Runtime,
    addr: &str,
    topic: Uuid,
    leader_epoch: i32,
) -> Option<ReadBack> {
    let ask = RequestBody::ReadShareGroupState(read::ReadShareGroupStateRequest {
        group_id: "g".into(),
        topics: vec![read::ReadStateData {
            topic_id: topic,
            partitions: vec![read::PartitionData {
                partition: 0,
                leader_epoch,
                ..Default::default()
            }],
            ..Default::default()
        }],
        ..Default::default()
    });
    let ResponseBody::ReadShareGroupState(r) = rt.block_on(call(addr, ask, 0))? else {
        return None;
    };
    let p = &r.results[0].partitions[0];
    Some((
        p.error_code,
        p.start_offset,
        p.state_batches
            .iter()
            .map(|b| {
                (
                    b.first_offset,
                    b.last_offset,
                    b.delivery_state,
                    b.delivery_count,
                )
            })
            .collect(),
    ))
}

/// The highest log start offset among `__share_group_state`'s partitions (ListOffsets
/// earliest).
fn state_log_start(rt: &tokio::runtime::Runtime, addr: &str) -> i64 {
    use fjord_protocol::generated::list_offsets_request::{
        ListOffsetsPartition, ListOffsetsRequest, ListOffsetsTopic,
    };
    let ask = RequestBody::ListOffsets(ListOffsetsRequest {
        replica_id: -1,
        topics: vec![ListOffsetsTopic {
            name: "__share_group_state".into(),
            partitions: (0..3)
                .map(|p| ListOffsetsPartition {
                    partition_index: p,
                    timestamp: -2,
                    ..Default::default()
                })
                .collect(),
            ..Default::default()
        }],
        ..Default::default()
    });
    match rt.block_on(call(addr, ask, 7)) {
        Some(ResponseBody::ListOffsets(r)) => r.topics[0]
            .partitions
            .iter()
            .map(|p| p.offset)
            .max()
            .unwrap_or(0),
        _ => 0,
    }
}

#[test]
fn share_state_survives_a_sigkill_and_fences_old_leaders() {
    let root = tempfile::tempdir().unwrap();
    let rt = tokio::runtime::Runtime::new().unwrap();
    // A port below the ephemeral range: the node comes back on it.
    let port = 20_000 + (std::process::id() % 5_000) as u16;
    let mut node = Node::single(root.path(), port, SETTINGS);
    let addr = node.broker_addr();
    let created = wait_for(Duration::from_secs(60), || {
        let ask = RequestBody::CreateTopics(CreateTopicsRequest {
            topics: vec![CreatableTopic {
                name: "orders".into(),
                num_partitions: 2,
                replication_factor: 1,
                ..Default::default()
            }],
            timeout_ms: 10_000,
            ..Default::default()
        });
        rt.block_on(call(&addr, ask, 7))?;
        topic_id(&rt, &addr, "orders")
    });
    let topic = created.expect("topic created");
    let key = |p: i32| format!("g:{}:{p}", fjord_util::uuid_text::encode(&topic));

    // The key type is v6's; a malformed key is refused; the topic is made on first lookup.
    assert_eq!(find(&rt, &addr, &[key(0)], 5), vec![42]);
    assert_eq!(find(&rt, &addr, &["no-colons".to_string()], 6), vec![42]);
    let found = wait_for(Duration::from_secs(60), || {
        (find(&rt, &addr, &[key(0), key(1)], 6) == vec![0, 0]).then_some(())
    });
    assert!(found.is_some(), "{}", node.log_tail());

    // Initialize partitions 0 and 1 (and 7, which does not exist).
    let initialized = wait_for(Duration::from_secs(30), || {
        let ask = RequestBody::InitializeShareGroupState(init::InitializeShareGroupStateRequest {
            group_id: "g".into(),
            topics: vec![init::InitializeStateData {
                topic_id: topic,
                partitions: [0, 1, 7]
                    .iter()
                    .map(|p| init::PartitionData {
                        partition: *p,
                        state_epoch: 0,
                        start_offset: 0,
                        ..Default::default()
                    })
                    .collect(),
                ..Default::default()
            }],
            ..Default::default()
        });
        let c = codes(rt.block_on(call(&addr, ask, 0))?);
        // The coordinator may still be loading its partitions.
        (c.iter()
            .all(|(_, code)| *code != 14 && *code != 15 && *code != 16))
        .then_some(c)
    })
    .expect("initialized");
    assert_eq!(initialized, vec![(0, 0), (1, 0), (7, 3)]);

    // A leader at epoch 2 writes: offsets 0-4 acknowledged (start moves to 5), 5-6 available
    // after two deliveries, 7 archived.
    let batch = |f: i64, l: i64, s: i8, c: i16| write::StateBatch {
        first_offset: f,
        last_offset: l,
        delivery_state: s,
        delivery_count: c,
        ..Default::default()
    };
    let written = RequestBody::WriteShareGroupState(write::WriteShareGroupStateRequest {
        group_id: "g".into(),
        topics: vec![write::WriteStateData {
            topic_id: topic,
            partitions: vec![write::PartitionData {
                partition: 0,
                state_epoch: 0,
                leader_epoch: 2,
                start_offset: 5,
                delivery_complete_count: -1,
                state_batches: vec![batch(0, 4, 2, 1), batch(5, 6, 0, 2), batch(7, 7, 4, 5)],
                ..Default::default()
            }],
            ..Default::default()
        }],
        ..Default::default()
    });
    assert_eq!(
        codes(rt.block_on(call(&addr, written, 1)).unwrap()),
        vec![(0, 0)]
    );
    let expected = (0, 5, vec![(5, 6, 0, 2), (7, 7, 4, 5)]);
    assert_eq!(read_state(&rt, &addr, topic, 2), Some(expected));
    // A leader older than the writer is fenced.
    assert_eq!(read_state(&rt, &addr, topic, 1).map(|r| r.0), Some(74));
    let ask = RequestBody::ReadShareGroupStateSummary(summary::ReadShareGroupStateSummaryRequest {
        group_id: "g".into(),
        topics: vec![summary::ReadStateSummaryData {
            topic_id: topic,
            partitions: vec![summary::PartitionData {
                partition: 0,
                leader_epoch: 2,
                ..Default::default()
            }],
            ..Default::default()
        }],
        ..Default::default()
    });
    let Some(ResponseBody::ReadShareGroupStateSummary(s)) = rt.block_on(call(&addr, ask, 1)) else {
        panic!("summary")
    };
    let p = &s.results[0].partitions[0];
    assert_eq!((p.error_code, p.start_offset, p.leader_epoch), (0, 5, 2));
    assert_eq!(p.delivery_complete_count, 1, "offset 7 is done with");

    // Twenty more writes: a snapshot every third, and the records before the oldest snapshot
    // still needed are pruned (every commit, with a prune interval of 0).
    for i in 0..20i64 {
        let more = RequestBody::WriteShareGroupState(write::WriteShareGroupStateRequest {
            group_id: "g".into(),
            topics: vec![write::WriteStateData {
                topic_id: topic,
                partitions: vec![write::PartitionData {
                    partition: 0,
                    state_epoch: 0,
                    leader_epoch: 2,
                    start_offset: -1,
                    delivery_complete_count: -1,
                    state_batches: vec![batch(8 + i, 8 + i, 2, 1)],
                    ..Default::default()
                }],
                ..Default::default()
            }],
            ..Default::default()
        });
        assert_eq!(
            codes(rt.block_on(call(&addr, more, 1)).unwrap()),
            vec![(0, 0)]
        );
    }
    let before = read_state(&rt, &addr, topic, 2).expect("read");
    assert_eq!(before.0, 0);
    assert_eq!(
        before.2.len(),
        3,
        "5-6 available, 7 archived, 8-27 acknowledged: {before:?}"
    );
    let pruned = wait_for(Duration::from_secs(30), || {
        (state_log_start(&rt, &addr) > 0).then_some(())
    });
    assert!(pruned.is_some(), "__share_group_state never pruned");

    // SIGKILL: the state comes back from what is left of __share_group_state.
    node.kill();
    node.start();
    let back = wait_for(Duration::from_secs(60), || {
        read_state(&rt, &addr, topic, 3).filter(|r| r.0 == 0)
    });
    assert_eq!(back.as_ref(), Some(&before), "{}", node.log_tail());
    // A graceful restart keeps the log start (its checkpoint is written at shutdown), so the
    // coordinator rebuilds the state from the pruned log alone.
    assert!(node.stop(), "graceful stop");
    node.start();
    let again = wait_for(Duration::from_secs(60), || {
        read_state(&rt, &addr, topic, 3).filter(|r| r.0 == 0)
    });
    assert_eq!(again, Some(before), "{}", node.log_tail());
    assert!(
        state_log_start(&rt, &addr) > 0,
        "the pruned records came back"
    );

    // Deleted: a read is refused as for a share-partition never initialized.
    let ask = RequestBody::DeleteShareGroupState(del::DeleteShareGroupStateRequest {
        group_id: "g".into(),
        topics: vec![del::DeleteStateData {
            topic_id: topic,
            partitions: vec![del::PartitionData {
                partition: 0,
                ..Default::default()
            }],
            ..Default::default()
        }],
        ..Default::default()
    });
    assert_eq!(
        codes(rt.block_on(call(&addr, ask, 0)).unwrap()),
        vec![(0, 0)]
    );
    assert_eq!(read_state(&rt, &addr, topic, 3).map(|r| r.0), Some(42));
}
