//! A follower behind its leader's log start, on real processes (a controller and three
//! brokers): while broker 3 is down, records are written and DeleteRecords moves the log
//! start past everything broker 3 holds. Back, it cannot fetch from its own log end
//! (OFFSET_OUT_OF_RANGE), so it starts over at the leader's log start, catches up and rejoins
//! the ISR; GetReplicaLogInfo on each broker then reports the same log start and log end.

mod common;

use common::{
    call, controller_and_brokers, create_on_brokers_1_2_3, partition_zero, wait_for,
    FAST_REPLICATION,
};
use fjord_protocol::generated::delete_records_request::{
    DeleteRecordsPartition, DeleteRecordsRequest, DeleteRecordsTopic,
};
use fjord_protocol::generated::get_replica_log_info_request::{
    GetReplicaLogInfoRequest, TopicPartitions,
};
use fjord_protocol::generated::get_replica_log_info_response::PartitionLogInfo;
use fjord_protocol::{RequestBody, ResponseBody, Uuid};
use rdkafka::config::ClientConfig;
use rdkafka::producer::{FutureProducer, FutureRecord};
use std::time::Duration;

const TOPIC: &str = "behind";

fn produce(rt: &tokio::runtime::Runtime, bootstrap: &str, n: usize) {
    let producer: FutureProducer = ClientConfig::new()
        .set("bootstrap.servers", bootstrap)
        .set("acks", "all")
        .create()
        .unwrap();
    rt.block_on(async {
        let mut pending = Vec::new();
        for i in 0..n {
            let v = format!("r{i}");
            let r = FutureRecord::to(TOPIC).key("k").payload(&v).partition(0);
            pending.push(producer.send_result(r).map_err(|(e, _)| e).unwrap());
        }
        for p in pending {
            p.await.unwrap().map_err(|(e, _)| e).expect("acknowledged");
        }
    });
}

fn log_info(rt: &tokio::runtime::Runtime, addr: &str, topic_id: Uuid) -> Option<PartitionLogInfo> {
    let ask = RequestBody::GetReplicaLogInfo(GetReplicaLogInfoRequest {
        topic_partitions: Some(vec![TopicPartitions {
            topic_id,
            partitions: vec![0],
            ..Default::default()
        }]),
        ..Default::default()
    });
    let ResponseBody::GetReplicaLogInfo(r) = rt.block_on(call(addr, ask, 0))? else {
        return None;
    };
    r.topic_partition_log_info_list
        .first()?
        .partition_log_info
        .first()
        .cloned()
}

#[test]
fn a_follower_behind_the_log_start_starts_over_there_and_rejoins() {
    let root = tempfile::tempdir().unwrap();
    let rt = tokio::runtime::Runtime::new().unwrap();
    let (controller, mut brokers) = controller_and_brokers(root.path(), 3, FAST_REPLICATION);
    let addrs: Vec<String> = brokers.iter().map(|b| b.broker_addr()).collect();
    let bootstrap = addrs.join(",");
    // Led by broker 1 (the first replica), small segments so the log start can pass some.
    let created = create_on_brokers_1_2_3(&rt, &addrs[0], &[(TOPIC, &[("segment.bytes", "4096")])]);
    assert!(created, "{}", controller.log_tail());
    let (topic_id, _, _) = wait_for(Duration::from_secs(60), || {
        partition_zero(&rt, &addrs[0], TOPIC).filter(|(_, l, isr)| *l == 1 && isr.len() == 3)
    })
    .expect("three in-sync replicas");
    produce(&rt, &bootstrap, 100);

    brokers[2].kill();
    wait_for(Duration::from_secs(30), || {
        partition_zero(&rt, &addrs[0], TOPIC).filter(|(_, l, isr)| *l == 1 && isr.len() == 2)
    })
    .expect("broker 3 leaves the ISR");
    produce(&rt, &bootstrap, 900);
    let delete = RequestBody::DeleteRecords(DeleteRecordsRequest {
        topics: vec![DeleteRecordsTopic {
            name: TOPIC.into(),
            partitions: vec![DeleteRecordsPartition {
                partition_index: 0,
                offset: 800,
                ..Default::default()
            }],
            ..Default::default()
        }],
        timeout_ms: 10_000,
        ..Default::default()
    });
    let Some(ResponseBody::DeleteRecords(d)) = rt.block_on(call(&addrs[0], delete, 2)) else {
        panic!("DeleteRecords answered")
    };
    let low = &d.topics[0].partitions[0];
    assert_eq!((low.error_code, low.low_watermark), (0, 800));

    brokers[2].start();
    let back = wait_for(Duration::from_secs(90), || {
        partition_zero(&rt, &addrs[0], TOPIC).filter(|(_, l, isr)| *l == 1 && isr.len() == 3)
    });
    assert!(
        back.is_some(),
        "broker 3 rejoins\n{}",
        brokers[2].log_tail()
    );
    let same = wait_for(Duration::from_secs(30), || {
        let infos: Vec<PartitionLogInfo> = addrs
            .iter()
            .map(|a| log_info(&rt, a, topic_id))
            .collect::<Option<_>>()?;
        let ends: Vec<(i64, i64)> = infos
            .iter()
            .map(|i| (i.log_start_offset, i.log_end_offset))
            .collect();
        ends.iter().all(|e| *e == (800, 1_000)).then_some(())
    });
    assert!(
        same.is_some(),
        "every replica starts at 800 and ends at 1000: {:?}",
        addrs
            .iter()
            .map(|a| log_info(&rt, a, topic_id).map(|i| (i.log_start_offset, i.log_end_offset)))
            .collect::<Vec<_>>()
    );
}
