//! GetReplicaLogInfo (apiKey 1000) on a real node, as docs/EXTENSIONS.md fixes it: 1,500
//! partitions asked -> the first 1,000 answered and HasMoreData; the rest asked again -> all
//! answered; an unknown topic id -> UNKNOWN_TOPIC_ID; a partition this broker holds no replica
//! of -> NOT_LEADER_OR_FOLLOWER; a replica with data -> its log end offset, the latest epoch it
//! wrote, its high watermark and log start, and the leader epoch the broker sees.

mod common;

use common::{call, Node};
use fjord_protocol::generated::get_replica_log_info_request::{
    GetReplicaLogInfoRequest, TopicPartitions,
};
use fjord_protocol::generated::get_replica_log_info_response::GetReplicaLogInfoResponse;
use fjord_protocol::generated::{
    create_topics_request::{CreatableTopic, CreateTopicsRequest},
    metadata_request::{MetadataRequest, MetadataRequestTopic},
    produce_request as pq,
};
use fjord_protocol::records::{Compression, RecordBatchBuilder};
use fjord_protocol::{ErrorCode, RequestBody, ResponseBody, Uuid};
use std::time::Duration;

/// The topic's partitions: more than one request may ask for.
const PARTITIONS: i32 = 1_500;
/// Records produced to the partition whose replica is checked.
const RECORDS: i64 = 25;

/// Asks `f` until it answers, for at most `limit`.
async fn until<T, F: std::future::Future<Output = Option<T>>>(
    limit: Duration,
    mut f: impl FnMut() -> F,
) -> Option<T> {
    let deadline = tokio::time::Instant::now() + limit;
    loop {
        if let Some(v) = f().await {
            return Some(v);
        }
        if tokio::time::Instant::now() >= deadline {
            return None;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

async fn log_info(addr: &str, topics: Vec<TopicPartitions>) -> GetReplicaLogInfoResponse {
    let c = fjord_net::client::Client::connect(addr, Duration::from_secs(5))
        .await
        .expect("connect");
    let body = RequestBody::GetReplicaLogInfo(GetReplicaLogInfoRequest {
        topic_partitions: Some(topics),
        ..Default::default()
    });
    match c.call(body, 0, Duration::from_secs(30)).await {
        Ok(ResponseBody::GetReplicaLogInfo(r)) => r,
        other => panic!("GetReplicaLogInfo: {other:?}"),
    }
}

/// The topic's id and partition 7's leader epoch, once every partition has its leader.
async fn topic_ready(addr: &str) -> Option<(Uuid, i32)> {
    let request = RequestBody::Metadata(MetadataRequest {
        topics: Some(vec![MetadataRequestTopic {
            name: Some("wide".into()),
            ..Default::default()
        }]),
        ..Default::default()
    });
    let ResponseBody::Metadata(m) = call(addr, request, 12).await? else {
        return None;
    };
    let t = m.topics.first()?;
    let led =
        t.partitions.len() == PARTITIONS as usize && t.partitions.iter().all(|p| p.leader_id == 1);
    let p7 = t.partitions.iter().find(|p| p.partition_index == 7)?;
    led.then_some((t.topic_id, p7.leader_epoch))
}

#[test]
fn answers_the_first_thousand_then_the_rest_with_each_replicas_log() {
    let rt = tokio::runtime::Runtime::new().unwrap();
    rt.block_on(answers_the_first_thousand_then_the_rest());
}

async fn answers_the_first_thousand_then_the_rest() {
    let root = tempfile::tempdir().unwrap();
    let node = Node::single(root.path(), 0, "");
    let addr = node.broker_addr();
    let create = RequestBody::CreateTopics(CreateTopicsRequest {
        topics: vec![CreatableTopic {
            name: "wide".into(),
            num_partitions: PARTITIONS,
            replication_factor: 1,
            ..Default::default()
        }],
        timeout_ms: 30_000,
        ..Default::default()
    });
    let created = until(Duration::from_secs(60), || async {
        match call(&addr, create.clone(), 7).await? {
            ResponseBody::CreateTopics(r) => Some(r.topics[0].error_code),
            _ => None,
        }
    })
    .await;
    assert_eq!(
        created,
        Some(0),
        "the topic is created\n{}",
        node.log_tail()
    );
    let (topic_id, leader_epoch) = until(Duration::from_secs(60), || topic_ready(&addr))
        .await
        .expect("every partition has its leader");

    let mut b = RecordBatchBuilder::new(Compression::None);
    for i in 0..RECORDS {
        b.append(1_000 + i, None, Some(b"recovered?"), &[]);
    }
    let produce = RequestBody::Produce(pq::ProduceRequest {
        acks: -1,
        timeout_ms: 10_000,
        topic_data: vec![pq::TopicProduceData {
            name: "wide".into(),
            partition_data: vec![pq::PartitionProduceData {
                index: 7,
                records: Some(b.build().unwrap().into()),
                ..Default::default()
            }],
            ..Default::default()
        }],
        ..Default::default()
    });
    // Metadata may name the leader before its replica manager has caught up: retried.
    let produced = until(Duration::from_secs(30), || async {
        match call(&addr, produce.clone(), 9).await? {
            ResponseBody::Produce(r) => {
                (r.responses[0].partition_responses[0].error_code == 0).then_some(())
            }
            _ => None,
        }
    })
    .await;
    assert!(produced.is_some(), "the records are written");

    // 1,500 asked: the first 1,000, in request order, and HasMoreData.
    let all: Vec<i32> = (0..PARTITIONS).collect();
    // Asked until the broker has created every replica (the image can run ahead of it).
    let request = vec![TopicPartitions {
        topic_id,
        partitions: all.clone(),
        ..Default::default()
    }];
    let first = until(Duration::from_secs(60), || async {
        let r = log_info(&addr, request.clone()).await;
        r.topic_partition_log_info_list
            .iter()
            .flat_map(|t| &t.partition_log_info)
            .all(|p| p.error_code == 0)
            .then_some(r)
    })
    .await
    .expect("every replica is hosted");
    assert!(first.has_more_data, "more were asked than one answer holds");
    assert!(
        first.broker_epoch > 0,
        "the broker's epoch: {}",
        first.broker_epoch
    );
    let answered: Vec<i32> = first
        .topic_partition_log_info_list
        .iter()
        .flat_map(|t| t.partition_log_info.iter().map(|p| p.partition))
        .collect();
    assert_eq!(answered, (0..1_000).collect::<Vec<_>>());
    let p7 = &first.topic_partition_log_info_list[0].partition_log_info[7];
    assert_eq!(p7.error_code, 0);
    assert_eq!(p7.log_end_offset, RECORDS);
    assert_eq!(p7.high_watermark, RECORDS);
    assert_eq!(p7.log_start_offset, 0);
    assert_eq!(p7.partition_leader_epoch, leader_epoch);
    assert_eq!(p7.last_written_leader_epoch, leader_epoch);
    let p8 = &first.topic_partition_log_info_list[0].partition_log_info[8];
    assert_eq!(
        (p8.error_code, p8.log_end_offset),
        (0, 0),
        "an empty replica"
    );

    // The rest, an unknown topic id and a partition the broker holds no replica of.
    // Asked again until the broker has created these replicas too: it creates them in
    // partition order, so the first thousand can be there before the rest.
    let unknown = Uuid::from_u128(0x5eed);
    let asked = vec![
        TopicPartitions {
            topic_id,
            partitions: all[1_000..].iter().copied().chain([PARTITIONS]).collect(),
            ..Default::default()
        },
        TopicPartitions {
            topic_id: unknown,
            partitions: vec![0],
            ..Default::default()
        },
    ];
    let rest = until(Duration::from_secs(60), || async {
        let r = log_info(&addr, asked.clone()).await;
        r.topic_partition_log_info_list
            .first()
            .is_some_and(|t| {
                t.partition_log_info
                    .iter()
                    .take(500)
                    .all(|p| p.error_code == 0)
            })
            .then_some(r)
    })
    .await
    .expect("every replica asked is hosted");
    assert!(!rest.has_more_data);
    let topics = &rest.topic_partition_log_info_list;
    assert_eq!(topics.len(), 2);
    assert_eq!(topics[0].partition_log_info.len(), 501);
    assert!(topics[0].partition_log_info[..500]
        .iter()
        .all(|p| p.error_code == 0 && p.log_end_offset == 0));
    let missing = &topics[0].partition_log_info[500];
    assert_eq!(
        (missing.partition, missing.error_code),
        (PARTITIONS, ErrorCode::NotLeaderOrFollower.code())
    );
    assert_eq!(topics[1].topic_id, unknown);
    assert_eq!(
        topics[1].partition_log_info[0].error_code,
        ErrorCode::UnknownTopicId.code()
    );

    // The limit counts partitions across topic entries: 600 + 600 -> 600 + 400.
    let split = log_info(
        &addr,
        vec![
            TopicPartitions {
                topic_id,
                partitions: all[..600].to_vec(),
                ..Default::default()
            },
            TopicPartitions {
                topic_id,
                partitions: all[600..1_200].to_vec(),
                ..Default::default()
            },
        ],
    )
    .await;
    assert!(split.has_more_data);
    let sizes: Vec<usize> = split
        .topic_partition_log_info_list
        .iter()
        .map(|t| t.partition_log_info.len())
        .collect();
    assert_eq!(sizes, [600, 400]);
    drop(node);
}
