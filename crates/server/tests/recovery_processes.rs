//! Unclean recovery on real processes (a controller-only node and three brokers): a partition
//! whose in-sync replicas all died is offline while a replica outside the ISR is alive;
//! GetReplicaLogInfo on that broker reports what its replica holds; a DESIGNATED election
//! (ElectLeaders v3) makes it leader, RECOVERING until it reports RECOVERED; the old replicas
//! come back, truncate the tail the new leader never had (KIP-320) and rejoin the ISR; the
//! three replicas end byte-identical.

mod common;

use common::{
    call, controller_and_brokers, create_replicated_topic, partition_zero, replicas_identical,
    wait_for, Node, FAST_REPLICATION,
};
use fjord_protocol::generated::elect_leaders_request::{self as elq, ElectLeadersRequest};
use fjord_protocol::generated::get_replica_log_info_request::{
    GetReplicaLogInfoRequest, TopicPartitions,
};
use fjord_protocol::{RequestBody, ResponseBody};
use std::time::Duration;

const TOPIC: &str = "recover";

fn produce(rt: &tokio::runtime::Runtime, bootstrap: &str, values: std::ops::Range<usize>) {
    common::produce_acked(rt, bootstrap, TOPIC, values);
}

#[test]
fn a_designated_leader_recovers_an_offline_partition_and_the_others_follow_it() {
    let root = tempfile::tempdir().unwrap();
    let rt = tokio::runtime::Runtime::new().unwrap();
    let (controller, mut brokers) = controller_and_brokers(root.path(), 3, FAST_REPLICATION);
    let addrs: Vec<String> = brokers.iter().map(Node::broker_addr).collect();
    let bootstrap = addrs.join(",");
    let created = create_replicated_topic(&bootstrap, TOPIC, 1, &[("min.insync.replicas", "1")]);
    assert!(created, "{}", controller.log_tail());
    let (topic_id, first_leader, _) = wait_for(Duration::from_secs(60), || {
        partition_zero(&rt, &addrs[0], TOPIC).filter(|(_, l, isr)| *l > 0 && isr.len() == 3)
    })
    .expect("three in-sync replicas");

    // 100 records everywhere; then the first replica that is not the leader dies, 50 more go
    // to the other two; then those two die too: offline, with the survivor out of the ISR.
    produce(&rt, &bootstrap, 0..100);
    let others: Vec<i32> = (1..=3).filter(|b| *b != first_leader).collect();
    let survivor = others[0];
    let keeper = others[1];
    brokers[survivor as usize - 1].kill();
    wait_for(Duration::from_secs(30), || {
        partition_zero(&rt, &addrs[first_leader as usize - 1], TOPIC)
            .filter(|(_, _, isr)| !isr.contains(&survivor))
    })
    .expect("the killed replica leaves the ISR");
    produce(
        &rt,
        &brokers[first_leader as usize - 1].broker_addr(),
        100..150,
    );
    brokers[keeper as usize - 1].kill();
    brokers[first_leader as usize - 1].kill();
    brokers[survivor as usize - 1].start();
    let offline = wait_for(Duration::from_secs(60), || {
        partition_zero(&rt, &addrs[survivor as usize - 1], TOPIC).filter(|(_, l, _)| *l == -1)
    });
    assert!(
        offline.is_some(),
        "offline: {:?}",
        partition_zero(&rt, &addrs[survivor as usize - 1], TOPIC)
    );

    // GetReplicaLogInfo on the survivor: its replica holds the first 100 records.
    let ask = RequestBody::GetReplicaLogInfo(GetReplicaLogInfoRequest {
        topic_partitions: Some(vec![TopicPartitions {
            topic_id,
            partitions: vec![0],
            ..Default::default()
        }]),
        ..Default::default()
    });
    let Some(ResponseBody::GetReplicaLogInfo(info)) =
        rt.block_on(call(&addrs[survivor as usize - 1], ask, 0))
    else {
        panic!("GetReplicaLogInfo answered")
    };
    let p = &info.topic_partition_log_info_list[0].partition_log_info[0];
    assert_eq!((p.error_code, p.log_end_offset), (0, 100));
    assert!(p.last_written_leader_epoch >= 0);

    // DESIGNATED: the survivor leads, RECOVERING, then RECOVERED; writes go on.
    let elect = RequestBody::ElectLeaders(ElectLeadersRequest {
        election_type: 2,
        topic_partitions: Some(vec![elq::TopicPartitions {
            topic: TOPIC.into(),
            partitions: vec![0],
            designated_leaders: Some(vec![survivor]),
            ..Default::default()
        }]),
        timeout_ms: 30_000,
        ..Default::default()
    });
    let Some(ResponseBody::ElectLeaders(r)) =
        rt.block_on(call(&addrs[survivor as usize - 1], elect, 3))
    else {
        panic!("ElectLeaders answered")
    };
    let result = &r.replica_election_results[0].partition_result[0];
    assert_eq!(result.error_code, 0, "{:?}", result.error_message);
    wait_for(Duration::from_secs(30), || {
        partition_zero(&rt, &addrs[survivor as usize - 1], TOPIC).filter(|(_, l, _)| *l == survivor)
    })
    .expect("the designated leader leads");
    produce(&rt, &addrs[survivor as usize - 1], 1_000..1_020);

    // The old replicas come back: they cut the 50 records the new leader never had, follow
    // it and rejoin the ISR (possible only once it is RECOVERED).
    brokers[first_leader as usize - 1].start();
    brokers[keeper as usize - 1].start();
    let rejoined = wait_for(Duration::from_secs(90), || {
        partition_zero(&rt, &addrs[survivor as usize - 1], TOPIC)
            .filter(|(_, _, isr)| isr.len() == 3)
    });
    assert!(
        rejoined.is_some(),
        "all three in sync again: {:?}\n{}",
        partition_zero(&rt, &addrs[survivor as usize - 1], TOPIC),
        brokers[first_leader as usize - 1].log_tail()
    );

    // What is left: the 100 the survivor had and the 20 written after; identical everywhere.
    let got = common::consume_values(&bootstrap, TOPIC, 120);
    let expected: Vec<String> = (0..100)
        .chain(1_000..1_020)
        .map(|i| format!("v{i}"))
        .collect();
    assert_eq!(got, expected);
    assert!(
        replicas_identical(&brokers, TOPIC, 0),
        "the three replicas are byte-identical"
    );
}
