//! The data plane's first slice against real librdkafka on a real node: a producer writes to
//! three-partition topics with acks=all, uncompressed and with gzip, snappy and zstd, and a
//! consumer reads every message back, in order per partition, to the end of each partition
//! (empty record sets, not null, at the end).

mod common;

use common::{free_port, Node};
use rdkafka::config::ClientConfig;
use rdkafka::consumer::{BaseConsumer, Consumer};
use rdkafka::message::Message;
use rdkafka::producer::{FutureProducer, FutureRecord};
use rdkafka::{Offset, TopicPartitionList};
use std::collections::BTreeMap;
use std::time::{Duration, Instant};

/// Messages produced in the test.
const MESSAGES: usize = 10_000;
/// The topic's partitions.
const PARTITIONS: i32 = 3;

#[test]
fn librdkafka_produces_and_consumes_every_message_in_order() {
    let root = tempfile::tempdir().unwrap();
    let node = Node::single(root.path(), 0, "num.partitions=3");
    let bootstrap = node.broker_addr();
    round_trip(&node, &bootstrap, "events", "none", MESSAGES);
    // Compressed batches are stored as sent and read back by the consumer.
    for codec in ["gzip", "snappy", "zstd"] {
        round_trip(
            &node,
            &bootstrap,
            &format!("events-{codec}"),
            codec,
            MESSAGES / 5,
        );
    }
}

/// Produces `messages` to `topic` (auto-created, three partitions) with `codec` and acks=all,
/// then consumes them all back, checking offsets, order and that nothing repeats.
fn round_trip(node: &Node, bootstrap: &str, topic: &str, codec: &str, messages: usize) {
    let runtime = tokio::runtime::Runtime::new().unwrap();
    let producer: FutureProducer = ClientConfig::new()
        .set("bootstrap.servers", bootstrap)
        .set("compression.codec", codec)
        .set("acks", "all")
        .set("linger.ms", "5")
        .set("message.timeout.ms", "30000")
        .create()
        .unwrap();
    // The first send creates the topic (auto-creation with num.partitions=3).
    let sent: Vec<(i32, i64)> = runtime.block_on(async {
        let mut out = Vec::with_capacity(messages);
        let mut pending = Vec::with_capacity(messages);
        for i in 0..messages {
            let key = format!("k{}", i % 97);
            let value = format!("v{i}");
            let record = FutureRecord::to(topic)
                .key(&key)
                .payload(&value)
                .partition((i % PARTITIONS as usize) as i32);
            // Enqueued (copied) at once; the future resolves on delivery.
            pending.push(producer.send_result(record).map_err(|(e, _)| e).unwrap());
        }
        for p in pending {
            let d = p
                .await
                .expect("delivery reported")
                .unwrap_or_else(|(e, _)| panic!("produce failed: {e}\n{}", node.log_tail()));
            out.push((d.partition, d.offset));
        }
        out
    });
    assert_eq!(sent.len(), messages);
    // Offsets per partition are 0..n, each acknowledged once.
    let mut per_partition: BTreeMap<i32, Vec<i64>> = BTreeMap::new();
    for (p, o) in &sent {
        per_partition.entry(*p).or_default().push(*o);
    }
    for offsets in per_partition.values_mut() {
        offsets.sort_unstable();
        let expected: Vec<i64> = (0..offsets.len() as i64).collect();
        assert_eq!(*offsets, expected);
    }
    let consumer: BaseConsumer = ClientConfig::new()
        .set("bootstrap.servers", bootstrap)
        .set("group.id", "fjord-test")
        .set("enable.auto.commit", "false")
        .set("enable.partition.eof", "true")
        .create()
        .unwrap();
    let mut tpl = TopicPartitionList::new();
    for p in 0..PARTITIONS {
        tpl.add_partition_offset(topic, p, Offset::Beginning)
            .unwrap();
    }
    consumer.assign(&tpl).unwrap();
    let mut got: BTreeMap<i32, Vec<String>> = BTreeMap::new();
    let mut at_end = std::collections::BTreeSet::new();
    let deadline = Instant::now() + Duration::from_secs(60);
    while at_end.len() < PARTITIONS as usize {
        let consumed: usize = got.values().map(Vec::len).sum();
        assert!(
            Instant::now() < deadline,
            "{topic}: consumed {consumed} of {messages}"
        );
        match consumer.poll(Duration::from_millis(500)) {
            Some(Ok(m)) => {
                let v = String::from_utf8(m.payload().unwrap().to_vec()).unwrap();
                got.entry(m.partition()).or_default().push(v);
            }
            Some(Err(rdkafka::error::KafkaError::PartitionEOF(p)))
                if got.get(&p).map_or(0, Vec::len) == per_partition[&p].len() =>
            {
                at_end.insert(p);
            }
            Some(Err(rdkafka::error::KafkaError::PartitionEOF(_))) => {}
            Some(Err(e)) => panic!("consume failed: {e}\n{}", node.log_tail()),
            None => {}
        }
    }
    // Every message exactly once, in produce order within its partition.
    for (p, values) in &got {
        let expected: Vec<String> = (0..messages)
            .filter(|i| (i % PARTITIONS as usize) as i32 == *p)
            .map(|i| format!("v{i}"))
            .collect();
        assert_eq!(values, &expected, "{topic} partition {p}");
    }
    assert_eq!(got.values().map(Vec::len).sum::<usize>(), messages);
}

/// Every advertised version of Produce, Fetch and ListOffsets answers a hosted partition with
/// a response that encodes and decodes, and no error.
#[test]
fn every_data_plane_version_answers_a_hosted_partition() {
    use fjord_protocol::generated::{
        delete_records_request as drq, describe_log_dirs_request as dq, fetch_request as fq,
        list_offsets_request as lq, metadata_request as mq, offset_commit_request as ocq,
        offset_fetch_request as ofq, offset_for_leader_epoch_request as oq, produce_request as pq,
    };
    use fjord_protocol::records::{Compression, RecordBatchBuilder};
    use fjord_protocol::{ApiKey, RequestBody, ResponseBody};
    let root = tempfile::tempdir().unwrap();
    let node = Node::single(root.path(), 0, "offsets.topic.replication.factor=1");
    let addr = node.broker_addr();
    let rt = tokio::runtime::Runtime::new().unwrap();
    // Auto-create the topic and wait for its leader; learn its id.
    let topic_id = common::wait_for(Duration::from_secs(30), || {
        let request = RequestBody::Metadata(mq::MetadataRequest {
            topics: Some(vec![mq::MetadataRequestTopic {
                name: Some("versions".into()),
                ..Default::default()
            }]),
            allow_auto_topic_creation: true,
            ..Default::default()
        });
        match rt.block_on(common::call(&addr, request, 12))? {
            ResponseBody::Metadata(m) => {
                let t = m.topics.first()?;
                (t.error_code == 0 && t.partitions.first()?.leader_id == 1).then_some(t.topic_id)
            }
            _ => None,
        }
    })
    .expect("the topic gets a leader");
    let advertised = |api: ApiKey| -> (i16, i16) {
        let Some(ResponseBody::ApiVersions(r)) =
            rt.block_on(common::call(&addr, common::api_versions_request(), 3))
        else {
            panic!("ApiVersions")
        };
        let k = r.api_keys.iter().find(|k| k.api_key == api.key()).unwrap();
        (k.min_version, k.max_version)
    };
    let answer = |body: RequestBody, v: i16| {
        let api = body.api_key();
        let r = rt.block_on(common::call(&addr, body, v));
        r.unwrap_or_else(|| panic!("{api:?} v{v}: no decodable answer\n{}", node.log_tail()))
    };
    let (min, max) = advertised(ApiKey::Produce);
    for v in min..=max {
        let mut b = RecordBatchBuilder::new(Compression::None);
        b.append(1_000, None, Some(format!("v{v}").as_bytes()), &[]);
        let body = RequestBody::Produce(pq::ProduceRequest {
            acks: 1,
            timeout_ms: 5_000,
            topic_data: vec![pq::TopicProduceData {
                name: if v < 13 {
                    "versions".into()
                } else {
                    String::new()
                },
                topic_id: if v >= 13 {
                    topic_id
                } else {
                    Default::default()
                },
                partition_data: vec![pq::PartitionProduceData {
                    index: 0,
                    records: Some(b.build().unwrap().into()),
                    ..Default::default()
                }],
                ..Default::default()
            }],
            ..Default::default()
        });
        let ResponseBody::Produce(r) = answer(body, v) else {
            panic!()
        };
        let p = &r.responses[0].partition_responses[0];
        assert_eq!(
            (p.error_code, p.base_offset),
            (0, i64::from(v - min)),
            "Produce v{v}"
        );
    }
    let (min, max) = advertised(ApiKey::Fetch);
    for v in min..=max {
        let body = RequestBody::Fetch(fq::FetchRequest {
            replica_id: -1,
            max_wait_ms: 0,
            max_bytes: 1 << 20,
            topics: vec![fq::FetchTopic {
                topic: if v < 13 {
                    "versions".into()
                } else {
                    String::new()
                },
                topic_id: if v >= 13 {
                    topic_id
                } else {
                    Default::default()
                },
                partitions: vec![fq::FetchPartition {
                    partition: 0,
                    fetch_offset: 0,
                    current_leader_epoch: -1,
                    last_fetched_epoch: -1,
                    log_start_offset: -1,
                    partition_max_bytes: 1 << 20,
                    ..Default::default()
                }],
                ..Default::default()
            }],
            ..Default::default()
        });
        let ResponseBody::Fetch(r) = answer(body, v) else {
            panic!()
        };
        let p = &r.responses[0].partitions[0];
        assert_eq!(p.error_code, 0, "Fetch v{v}");
        assert!(
            p.records.as_ref().is_some_and(|b| !b.is_empty()),
            "Fetch v{v}: records"
        );
    }
    let (min, max) = advertised(ApiKey::ListOffsets);
    for v in min..=max {
        for timestamp in [-2, -1] {
            let body = RequestBody::ListOffsets(lq::ListOffsetsRequest {
                replica_id: -1,
                topics: vec![lq::ListOffsetsTopic {
                    name: "versions".into(),
                    partitions: vec![lq::ListOffsetsPartition {
                        partition_index: 0,
                        current_leader_epoch: -1,
                        timestamp,
                        ..Default::default()
                    }],
                    ..Default::default()
                }],
                ..Default::default()
            });
            let ResponseBody::ListOffsets(r) = answer(body, v) else {
                panic!()
            };
            let p = &r.topics[0].partitions[0];
            assert_eq!(p.error_code, 0, "ListOffsets v{v}");
            let expected = if timestamp == -2 { 0 } else { 11 };
            assert_eq!(p.offset, expected, "ListOffsets v{v} at {timestamp}");
        }
    }
    let (min, max) = advertised(ApiKey::OffsetForLeaderEpoch);
    for v in min..=max {
        let body = RequestBody::OffsetForLeaderEpoch(oq::OffsetForLeaderEpochRequest {
            replica_id: -1,
            topics: vec![oq::OffsetForLeaderTopic {
                topic: "versions".into(),
                partitions: vec![oq::OffsetForLeaderPartition {
                    partition: 0,
                    current_leader_epoch: -1,
                    leader_epoch: 0,
                    ..Default::default()
                }],
                ..Default::default()
            }],
            ..Default::default()
        });
        let ResponseBody::OffsetForLeaderEpoch(r) = answer(body, v) else {
            panic!()
        };
        let p = &r.topics[0].partitions[0];
        assert_eq!(
            (p.error_code, p.leader_epoch, p.end_offset),
            (0, 0, 11),
            "v{v}"
        );
    }
    let (min, max) = advertised(ApiKey::DescribeLogDirs);
    for v in min..=max {
        let body = RequestBody::DescribeLogDirs(dq::DescribeLogDirsRequest {
            topics: None,
            ..Default::default()
        });
        let ResponseBody::DescribeLogDirs(r) = answer(body, v) else {
            panic!()
        };
        let dir = &r.results[0];
        let t = dir
            .topics
            .iter()
            .find(|t| t.name == "versions")
            .expect("the topic's dir");
        assert!(t.partitions[0].partition_size > 0, "DescribeLogDirs v{v}");
        if v >= 4 {
            assert!(
                dir.total_bytes > 0 && dir.usable_bytes > 0,
                "DescribeLogDirs v{v}"
            );
        }
    }
    let (min, max) = advertised(ApiKey::DeleteRecords);
    for v in min..=max {
        let to = i64::from(v - min) + 1;
        let body = RequestBody::DeleteRecords(drq::DeleteRecordsRequest {
            topics: vec![drq::DeleteRecordsTopic {
                name: "versions".into(),
                partitions: vec![drq::DeleteRecordsPartition {
                    partition_index: 0,
                    offset: to,
                    ..Default::default()
                }],
                ..Default::default()
            }],
            timeout_ms: 5_000,
            ..Default::default()
        });
        let ResponseBody::DeleteRecords(r) = answer(body, v) else {
            panic!()
        };
        let p = &r.topics[0].partitions[0];
        assert_eq!(
            (p.error_code, p.low_watermark),
            (0, to),
            "DeleteRecords v{v}"
        );
    }
    // Offsets by name before v10 and by id from v10 (KIP-848), read back at every version;
    // an id no topic has is UNKNOWN_TOPIC_ID.
    let unknown_id = fjord_protocol::Uuid::from_u128(7);
    let by_id = |v: i16| v >= 10;
    let (min, max) = advertised(ApiKey::OffsetCommit);
    assert_eq!(max, 10, "OffsetCommit by id is advertised");
    // The group coordinator serves once __consumer_offsets is created (FindCoordinator
    // creates it) and loaded.
    let ready = common::wait_for(Duration::from_secs(30), || {
        let find = RequestBody::FindCoordinator(
            fjord_protocol::generated::find_coordinator_request::FindCoordinatorRequest {
                key: "offsets".into(),
                ..Default::default()
            },
        );
        rt.block_on(common::call(&addr, find, 1))?;
        let body = RequestBody::OffsetCommit(ocq::OffsetCommitRequest {
            group_id: "offsets".into(),
            generation_id_or_member_epoch: -1,
            retention_time_ms: -1,
            topics: vec![ocq::OffsetCommitRequestTopic {
                name: "versions".into(),
                partitions: vec![ocq::OffsetCommitRequestPartition {
                    partition_index: 0,
                    ..Default::default()
                }],
                ..Default::default()
            }],
            ..Default::default()
        });
        match rt.block_on(common::call(&addr, body, min))? {
            ResponseBody::OffsetCommit(r) => {
                (r.topics[0].partitions[0].error_code == 0).then_some(())
            }
            _ => None,
        }
    });
    assert!(ready.is_some(), "the group coordinator never served");
    for v in min..=max {
        let topic = |id: fjord_protocol::Uuid| ocq::OffsetCommitRequestTopic {
            name: if by_id(v) {
                String::new()
            } else {
                "versions".into()
            },
            topic_id: if by_id(v) { id } else { Default::default() },
            partitions: vec![ocq::OffsetCommitRequestPartition {
                partition_index: 0,
                committed_offset: i64::from(v),
                committed_leader_epoch: -1,
                ..Default::default()
            }],
            ..Default::default()
        };
        let mut topics = vec![topic(topic_id)];
        if by_id(v) {
            topics.push(topic(unknown_id));
        }
        let body = RequestBody::OffsetCommit(ocq::OffsetCommitRequest {
            group_id: "offsets".into(),
            generation_id_or_member_epoch: -1,
            retention_time_ms: -1,
            topics,
            ..Default::default()
        });
        let ResponseBody::OffsetCommit(r) = answer(body, v) else {
            panic!()
        };
        let codes: Vec<(fjord_protocol::Uuid, i16)> = r
            .topics
            .iter()
            .map(|t| (t.topic_id, t.partitions[0].error_code))
            .collect();
        if by_id(v) {
            // The unknown id first, as Kafka lists refusals before the coordinator's answer.
            assert_eq!(
                codes,
                vec![(unknown_id, 100), (topic_id, 0)],
                "OffsetCommit v{v}"
            );
        } else {
            assert_eq!(r.topics[0].partitions[0].error_code, 0, "OffsetCommit v{v}");
        }
    }
    let committed = i64::from(max);
    let (min, max) = advertised(ApiKey::OffsetFetch);
    assert_eq!(max, 10, "OffsetFetch by id is advertised");
    for v in min..=max {
        let body = if v < 8 {
            RequestBody::OffsetFetch(ofq::OffsetFetchRequest {
                group_id: "offsets".into(),
                topics: Some(vec![ofq::OffsetFetchRequestTopic {
                    name: "versions".into(),
                    partition_indexes: vec![0],
                    ..Default::default()
                }]),
                ..Default::default()
            })
        } else {
            let topic = |id: fjord_protocol::Uuid| ofq::OffsetFetchRequestTopics {
                name: if by_id(v) {
                    String::new()
                } else {
                    "versions".into()
                },
                topic_id: if by_id(v) { id } else { Default::default() },
                partition_indexes: vec![0],
                ..Default::default()
            };
            let mut topics = vec![topic(topic_id)];
            if by_id(v) {
                topics.push(topic(unknown_id));
            }
            RequestBody::OffsetFetch(ofq::OffsetFetchRequest {
                groups: vec![
                    ofq::OffsetFetchRequestGroup {
                        group_id: "offsets".into(),
                        member_epoch: -1,
                        topics: Some(topics),
                        ..Default::default()
                    },
                    // Every committed topic: by id from v10.
                    ofq::OffsetFetchRequestGroup {
                        group_id: "offsets".into(),
                        member_epoch: -1,
                        topics: None,
                        ..Default::default()
                    },
                ],
                ..Default::default()
            })
        };
        let ResponseBody::OffsetFetch(r) = answer(body, v) else {
            panic!()
        };
        if v < 8 {
            let p = &r.topics[0].partitions[0];
            assert_eq!((p.error_code, p.committed_offset), (0, committed), "v{v}");
            continue;
        }
        let got: Vec<Vec<(fjord_protocol::Uuid, i16, i64)>> = r
            .groups
            .iter()
            .map(|g| {
                g.topics
                    .iter()
                    .map(|t| {
                        let p = &t.partitions[0];
                        (t.topic_id, p.error_code, p.committed_offset)
                    })
                    .collect()
            })
            .collect();
        let nil = fjord_protocol::Uuid::nil();
        let expected = if by_id(v) {
            vec![
                vec![(unknown_id, 100, -1), (topic_id, 0, committed)],
                vec![(topic_id, 0, committed)],
            ]
        } else {
            vec![vec![(nil, 0, committed)], vec![(nil, 0, committed)]]
        };
        assert_eq!(got, expected, "OffsetFetch v{v}");
    }
    // KIP-1166 (Fetch v18): a fetch at the log end that would wait 30 s for a megabyte is
    // answered at once when the high watermark it says it knows is behind the leader's;
    // with the current one it waits (the call gives up after 2 s).
    let waiting_fetch = |known: i64| {
        RequestBody::Fetch(fq::FetchRequest {
            replica_id: -1,
            max_wait_ms: 30_000,
            min_bytes: 1 << 20,
            max_bytes: 1 << 20,
            topics: vec![fq::FetchTopic {
                topic_id,
                partitions: vec![fq::FetchPartition {
                    partition: 0,
                    fetch_offset: 11,
                    current_leader_epoch: -1,
                    last_fetched_epoch: -1,
                    log_start_offset: -1,
                    partition_max_bytes: 1 << 20,
                    high_watermark: known,
                    ..Default::default()
                }],
                ..Default::default()
            }],
            ..Default::default()
        })
    };
    let behind = rt.block_on(common::call(&addr, waiting_fetch(5), 18));
    let Some(ResponseBody::Fetch(r)) = behind else {
        panic!(
            "a fetch behind the high watermark waited\n{}",
            node.log_tail()
        )
    };
    assert_eq!(r.responses[0].partitions[0].high_watermark, 11);
    assert!(
        rt.block_on(common::call(&addr, waiting_fetch(11), 18))
            .is_none(),
        "a fetch that knows the high watermark is answered before its wait"
    );
}

/// Fetch sessions (KIP-227) on a real node: a full fetch opens a session; an incremental
/// fetch with nothing new answers no partitions; after a produce only that partition comes
/// back; a partition can be added and forgotten; a wrong epoch and an unknown session are
/// refused with Kafka's codes; epoch -1 closes the session.
#[test]
fn fetch_sessions_answer_only_what_changed() {
    use fjord_protocol::generated::{fetch_request as fq, produce_request as pq};
    use fjord_protocol::records::{Compression, RecordBatchBuilder};
    use fjord_protocol::{ErrorCode, RequestBody, ResponseBody};
    let root = tempfile::tempdir().unwrap();
    let node = Node::single(root.path(), 0, "num.partitions=3");
    let addr = node.broker_addr();
    let rt = tokio::runtime::Runtime::new().unwrap();
    let produce = |partition: i32| {
        let mut b = RecordBatchBuilder::new(Compression::None);
        b.append(1_000, None, Some(b"x"), &[]);
        let body = RequestBody::Produce(pq::ProduceRequest {
            acks: 1,
            timeout_ms: 5_000,
            topic_data: vec![pq::TopicProduceData {
                name: "sessions".into(),
                partition_data: vec![pq::PartitionProduceData {
                    index: partition,
                    records: Some(b.build().unwrap().into()),
                    ..Default::default()
                }],
                ..Default::default()
            }],
            ..Default::default()
        });
        rt.block_on(common::call(&addr, body, 9))
    };
    // Metadata auto-creates the topic (asked until the port opens and it exists); then wait
    // until all three partitions take writes.
    common::wait_for(Duration::from_secs(30), || {
        let request = RequestBody::Metadata(
            fjord_protocol::generated::metadata_request::MetadataRequest {
                topics: Some(vec![
                    fjord_protocol::generated::metadata_request::MetadataRequestTopic {
                        name: Some("sessions".into()),
                        ..Default::default()
                    },
                ]),
                allow_auto_topic_creation: true,
                ..Default::default()
            },
        );
        match rt.block_on(common::call(&addr, request, 12))? {
            ResponseBody::Metadata(m) => (m.topics.first()?.partitions.len() == 3).then_some(()),
            _ => None,
        }
    })
    .expect("the topic is created");
    for p in 0..3 {
        common::wait_for(Duration::from_secs(30), || match produce(p) {
            Some(ResponseBody::Produce(r)) => {
                (r.responses[0].partition_responses[0].error_code == 0).then_some(())
            }
            _ => None,
        })
        .unwrap_or_else(|| panic!("the topic takes no writes\n{}", node.log_tail()));
    }
    let partition = |p: i32, offset: i64| fq::FetchPartition {
        partition: p,
        fetch_offset: offset,
        partition_max_bytes: 1 << 20,
        current_leader_epoch: -1,
        last_fetched_epoch: -1,
        log_start_offset: -1,
        ..Default::default()
    };
    let fetch = |id: i32, epoch: i32, parts: Vec<fq::FetchPartition>, forget: Vec<i32>| {
        let body = RequestBody::Fetch(fq::FetchRequest {
            replica_id: -1,
            max_wait_ms: 0,
            min_bytes: 0,
            max_bytes: 1 << 20,
            session_id: id,
            session_epoch: epoch,
            topics: if parts.is_empty() {
                vec![]
            } else {
                vec![fq::FetchTopic {
                    topic: "sessions".into(),
                    partitions: parts,
                    ..Default::default()
                }]
            },
            forgotten_topics_data: if forget.is_empty() {
                vec![]
            } else {
                vec![fq::ForgottenTopic {
                    topic: "sessions".into(),
                    partitions: forget,
                    ..Default::default()
                }]
            },
            ..Default::default()
        });
        match rt.block_on(common::call(&addr, body, 12)) {
            Some(ResponseBody::Fetch(f)) => f,
            other => panic!("{other:?}"),
        }
    };
    let answered = |f: &fjord_protocol::generated::fetch_response::FetchResponse| -> Vec<i32> {
        f.responses
            .iter()
            .flat_map(|t| t.partitions.iter().map(|p| p.partition_index))
            .collect()
    };
    // Full fetch of partitions 0 and 1 from offset 1 (each holds one record): a session.
    let full = fetch(0, 0, vec![partition(0, 1), partition(1, 1)], vec![]);
    assert_eq!(full.error_code, 0);
    let id = full.session_id;
    assert_ne!(id, 0, "a session was opened");
    assert_eq!(answered(&full), vec![0, 1]);
    // Nothing new: no partitions.
    let f = fetch(id, 1, vec![], vec![]);
    assert_eq!((f.error_code, f.session_id), (0, id));
    assert!(answered(&f).is_empty(), "{f:?}");
    // A record on partition 1: only partition 1 comes back, with it.
    produce(1).unwrap();
    let f = fetch(id, 2, vec![], vec![]);
    assert_eq!(answered(&f), vec![1]);
    let records = f.responses[0].partitions[0].records.clone().unwrap();
    assert!(!records.is_empty());
    // Move partition 1 past it, add partition 2, forget partition 0.
    let f = fetch(id, 3, vec![partition(1, 2), partition(2, 0)], vec![0]);
    assert_eq!(
        answered(&f),
        vec![2],
        "the new partition's records; 1 has nothing new"
    );
    produce(0).unwrap();
    // The client moves partition 2 past what it read (a session keeps the offsets it is told).
    let f = fetch(id, 4, vec![partition(2, 1)], vec![]);
    assert!(answered(&f).is_empty(), "partition 0 was forgotten: {f:?}");
    // A wrong epoch, an unknown session, then the close.
    assert_eq!(
        fetch(id, 9, vec![], vec![]).error_code,
        ErrorCode::InvalidFetchSessionEpoch.code()
    );
    assert_eq!(
        fetch(id ^ 1, 1, vec![], vec![]).error_code,
        ErrorCode::FetchSessionIdNotFound.code()
    );
    let closed = fetch(id, -1, vec![partition(0, 0)], vec![]);
    assert_eq!((closed.error_code, closed.session_id), (0, 0));
    assert_eq!(
        fetch(id, 5, vec![], vec![]).error_code,
        ErrorCode::FetchSessionIdNotFound.code()
    );
}

/// A single node stopped with SIGTERM (as Ctrl-C or systemd stop it) comes back with every
/// partition online and every acknowledged message there: the clean-shutdown marker's broker
/// epoch is sent at registration, so the controller elects the returning broker from the ELR
/// (KIP-966) instead of treating it as a replica that lost data. (It did not: every partition
/// stayed offline after a clean restart.)
#[test]
fn a_clean_stop_and_restart_keeps_every_partition_online() {
    let root = tempfile::tempdir().unwrap();
    let mut node = Node::single(root.path(), free_port(), "num.partitions=3");
    let bootstrap = node.broker_addr();
    round_trip(&node, &bootstrap, "kept", "none", 300);
    // A long poll in flight when SIGTERM arrives: it wants more bytes than there are, for
    // longer than the stop may take; the graceful stop answers it with what there is. It is
    // pipelined behind a short poll on the same connection, so once the short one is answered
    // the long one has been read by the broker.
    let (parked_tx, parked) = std::sync::mpsc::channel();
    let poll = {
        use fjord_protocol::generated::fetch_request as fq;
        use fjord_protocol::{RequestBody, ResponseBody};
        let addr = bootstrap.clone();
        let fetch = |max_wait_ms| {
            RequestBody::Fetch(fq::FetchRequest {
                replica_id: -1,
                max_wait_ms,
                min_bytes: 100 << 20,
                max_bytes: 50 << 20,
                session_epoch: -1,
                topics: vec![fq::FetchTopic {
                    topic: "kept".into(),
                    partitions: (0..PARTITIONS)
                        .map(|p| fq::FetchPartition {
                            partition: p,
                            current_leader_epoch: -1,
                            last_fetched_epoch: -1,
                            partition_max_bytes: 1 << 20,
                            ..Default::default()
                        })
                        .collect(),
                    ..Default::default()
                }],
                ..Default::default()
            })
        };
        std::thread::spawn(move || {
            let rt = tokio::runtime::Runtime::new().unwrap();
            rt.block_on(async {
                let c = fjord_net::client::Client::connect(&addr, Duration::from_secs(5))
                    .await
                    .unwrap();
                let limit = Duration::from_secs(120);
                let short = async {
                    let r = c.call(fetch(1_000), 12, limit).await;
                    parked_tx.send(()).unwrap();
                    r
                };
                let long = async {
                    let r = c.call(fetch(90_000), 12, limit).await;
                    (r, Instant::now())
                };
                let (short, (long, answered)) = tokio::join!(short, long);
                assert!(short.is_ok(), "the short poll is answered: {short:?}");
                let Ok(ResponseBody::Fetch(f)) = long else {
                    panic!("the fetch in flight is answered: {long:?}")
                };
                let bytes: usize = f
                    .responses
                    .iter()
                    .flat_map(|t| &t.partitions)
                    .map(|p| p.records.as_ref().map_or(0, |r| r.len()))
                    .sum();
                (answered, f.error_code, bytes)
            })
        })
    };
    parked
        .recv_timeout(Duration::from_secs(30))
        .expect("the short poll is answered");
    let stopping = Instant::now();
    assert!(node.stop(), "a graceful stop exits 0\n{}", node.log_tail());
    let (answered, code, bytes) = poll.join().expect("the long poll is answered");
    assert_eq!(code, 0);
    assert!(bytes > 0, "answered with the records there are");
    let waited = answered.saturating_duration_since(stopping);
    assert!(
        waited < Duration::from_secs(20),
        "answered at the stop, not after its wait (capped at 30 s) ({waited:?})"
    );
    let marker = root.path().join("node1/data/.kafka_cleanshutdown");
    assert!(marker.exists(), "the clean-shutdown marker is written");
    node.start();
    let consumer: BaseConsumer = ClientConfig::new()
        .set("bootstrap.servers", &bootstrap)
        .create()
        .unwrap();
    let online = common::wait_for(Duration::from_secs(60), || {
        let md = consumer
            .fetch_metadata(Some("kept"), Duration::from_secs(5))
            .ok()?;
        let t = md.topics().first()?;
        (t.partitions().len() == 3 && t.partitions().iter().all(|p| p.leader() == 1)).then_some(())
    });
    assert!(
        online.is_some(),
        "every partition has its leader back\n{}",
        node.log_tail()
    );
    let mut total = 0;
    for p in 0..PARTITIONS {
        let (low, high) = consumer
            .fetch_watermarks("kept", p, Duration::from_secs(10))
            .unwrap();
        total += high - low;
    }
    assert_eq!(total, 300, "every acknowledged message is there");
}
