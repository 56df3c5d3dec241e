//! A restarted follower rejoins the ISR of every partition, even when its leader leads more
//! partitions than one controller operation may change (10,000 records): broker 1 leads
//! 11,100 partitions that broker 2 follows; broker 2 is SIGKILLed (fenced, out of every ISR)
//! and started again, and every ISR is [1, 2] again. The bug behind it was found by the scale
//! bench (`benches/scale.rs`, 30,000 partitions): a leader sent every expansion in one
//! AlterPartition, the controller refused it as too large each time, and 28,116 ISRs stayed
//! shrunk. Here the debug build's proposals reach the sender in smaller bursts, so this test
//! passes without that fix too (checked): it guards rejoining at this scale, and the bench's
//! "restart to every ISR" guards the burst.

mod common;

use common::{call, controller_and_brokers, wait_for, FAST_REPLICATION};
use fjord_protocol::generated::create_topics_request::{
    CreatableReplicaAssignment, CreatableTopic, CreateTopicsRequest,
};
use fjord_protocol::generated::metadata_request::MetadataRequest;
use fjord_protocol::{RequestBody, ResponseBody};
use std::time::Duration;

/// Topics, each with this many partitions on brokers [1, 2] (one CreateTopics each, under the
/// 10,000 records an operation may write).
const TOPICS: usize = 3;
const PARTITIONS: i32 = 3_700;

/// Every partition's ISR as broker `addr`'s Metadata has it.
fn isrs(rt: &tokio::runtime::Runtime, addr: &str) -> Option<Vec<Vec<i32>>> {
    let body = RequestBody::Metadata(MetadataRequest {
        topics: None,
        ..Default::default()
    });
    let Some(ResponseBody::Metadata(m)) = rt.block_on(call(addr, body, 12)) else {
        return None;
    };
    Some(
        m.topics
            .iter()
            .filter(|t| t.name.as_deref().is_some_and(|n| n.starts_with("many-")))
            .flat_map(|t| t.partitions.iter().map(|p| p.isr_nodes.clone()))
            .collect(),
    )
}

#[test]
fn a_restarted_follower_rejoins_more_isrs_than_one_controller_operation_changes() {
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    let dir = tempfile::tempdir().unwrap();
    let (_controller, mut brokers) = controller_and_brokers(dir.path(), 2, FAST_REPLICATION);
    let addr = brokers[0].broker_addr();
    for t in 0..TOPICS {
        let create = RequestBody::CreateTopics(CreateTopicsRequest {
            topics: vec![CreatableTopic {
                name: format!("many-{t}"),
                num_partitions: -1,
                replication_factor: -1,
                assignments: (0..PARTITIONS)
                    .map(|p| CreatableReplicaAssignment {
                        partition_index: p,
                        broker_ids: vec![1, 2],
                        ..Default::default()
                    })
                    .collect(),
                ..Default::default()
            }],
            timeout_ms: 60_000,
            ..Default::default()
        });
        let created = wait_for(Duration::from_secs(120), || {
            match rt.block_on(call(&addr, create.clone(), 7))? {
                ResponseBody::CreateTopics(r) => r
                    .topics
                    .iter()
                    .all(|t| t.error_code == 0 || t.error_code == 36)
                    .then_some(()),
                _ => None,
            }
        });
        assert!(created.is_some(), "topic many-{t} not created");
    }
    let total = TOPICS * PARTITIONS as usize;
    let full = |want: &[i32]| {
        let want = want.to_vec();
        let rt = &rt;
        let addr = addr.clone();
        move || {
            let i = isrs(rt, &addr)?;
            (i.len() == total && i.iter().all(|isr| *isr == want)).then_some(())
        }
    };
    assert!(
        wait_for(Duration::from_secs(180), full(&[1, 2])).is_some(),
        "the {total} partitions never had the ISR [1, 2]"
    );
    brokers[1].kill();
    assert!(
        wait_for(Duration::from_secs(120), full(&[1])).is_some(),
        "broker 2 never left the ISRs"
    );
    brokers[1].start();
    let rejoined = wait_for(Duration::from_secs(180), full(&[1, 2]));
    let left = isrs(&rt, &addr)
        .map(|i| i.iter().filter(|isr| isr.len() < 2).count())
        .unwrap_or(total);
    assert!(
        rejoined.is_some(),
        "{left} of {total} ISRs still without the restarted broker 2 after 180 s"
    );
}
