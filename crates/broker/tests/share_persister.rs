//! The share persister batches as Kafka's does: calls queued together go to their share
//! coordinator as one request per (coordinator broker, group), and every call still gets its
//! own share-partition's answer. The oracle is a model of what was written, read back through
//! the coordinator.

mod common;

use fjord_broker::parts::{Peers, Persister, ShareCoordinator, SharePartitionKey};
use fjord_broker::{ControllerClient, ReplicaManager, ShareCoordinatorConfig, View};
use fjord_log::LogDir;
use fjord_metadata::MetadataImage;
use fjord_protocol::generated::{
    feature_level_record::FeatureLevelRecord, partition_record::PartitionRecord,
    topic_record::TopicRecord,
};
use fjord_protocol::{MetadataRecord, Uuid};
use fjord_share::partition::Write;
use fjord_share::state::StateBatch;
use fjord_util::sim_rng::SimRng;
use std::collections::BTreeMap;
use std::sync::Arc;
use tokio::task::JoinSet;

const STATES: Uuid = Uuid::from_u128(8);
const TOPIC: Uuid = Uuid::from_u128(9);
/// Share-partitions written at once.
const KEYS: i32 = 200;

/// A broker leading `__share_group_state` (one partition) with its share coordinator loaded,
/// and a persister over it (its flusher running).
async fn persister() -> (tempfile::TempDir, Arc<Persister>) {
    let mut records = vec![MetadataRecord::FeatureLevel(FeatureLevelRecord {
        name: "share.version".into(),
        feature_level: 1,
        ..Default::default()
    })];
    records.extend(common::sole_replica_topic("__share_group_state", STATES));
    // The share-partitions' topic: KEYS + 1 partitions, on another broker (only its existence
    // matters to the coordinator).
    records.push(MetadataRecord::Topic(TopicRecord {
        name: "t".into(),
        topic_id: TOPIC,
        ..Default::default()
    }));
    records.extend((0..=KEYS).map(|p| {
        MetadataRecord::Partition(PartitionRecord {
            partition_id: p,
            topic_id: TOPIC,
            replicas: vec![2],
            isr: vec![2],
            leader: 2,
            ..Default::default()
        })
    }));
    let image = Arc::new(MetadataImage::empty().apply(&records, 10, 1).unwrap().0);
    let dir = tempfile::tempdir().unwrap();
    let logs = Arc::new(LogDir::open(dir.path(), |_| Default::default()).unwrap().0);
    let replicas = Arc::new(ReplicaManager::new(1, logs, Default::default()));
    let (_info_tx, info_rx) = tokio::sync::watch::channel(None);
    let share_states = ShareCoordinator::share_states(
        ShareCoordinatorConfig {
            num_partitions: 1,
            replication_factor: 1,
            min_isr: 1,
            segment_bytes: 100 << 20,
            per_snapshot: 500,
            prune_interval_ms: 300_000,
        },
        replicas.clone(),
        Arc::new(ControllerClient::new(info_rx)),
        fjord_util::Clock::system(),
    );
    let (view_tx, view) = tokio::sync::watch::channel(View::new(image.clone(), 11));
    std::mem::forget(view_tx);
    let peers = Arc::new(Peers::new(
        "PLAINTEXT".into(),
        fjord_net::security::ClientSecurity::plaintext(),
    ));
    let persister = Arc::new(Persister::new(1, share_states.clone(), peers, view));
    tokio::spawn(persister.clone().run());
    tokio::spawn(share_states.follow(replicas.applied(), |_| async {}));
    replicas.apply_view(&View::new(image, 11)).unwrap();
    (dir, persister)
}

fn key(partition: i32) -> SharePartitionKey {
    SharePartitionKey {
        group: "sg".into(),
        topic_id: TOPIC,
        partition,
    }
}

#[tokio::test]
async fn calls_queued_together_go_as_one_request_and_each_gets_its_own_answer() {
    let (_dir, persister) = persister().await;
    // The first call waits (retrying) until the coordinator has loaded its shard.
    persister.initialize(&key(KEYS), 0, 0).await.unwrap();

    let before = persister.requests_sent();
    let mut calls = JoinSet::new();
    for p in 0..KEYS {
        let persister = persister.clone();
        calls.spawn(async move { persister.initialize(&key(p), 0, 0).await });
    }
    while let Some(r) = calls.join_next().await {
        r.unwrap().unwrap();
    }
    let initializes = persister.requests_sent() - before;
    assert!(
        initializes <= 2,
        "{KEYS} initializes queued together took {initializes} requests"
    );

    // Each share-partition gets one random write; the model is what each must read back.
    let mut rng = SimRng::new(47);
    let mut model = BTreeMap::new();
    let before = persister.requests_sent();
    for p in 0..KEYS {
        let start = rng.below(100) as i64;
        let first = start + rng.below(10) as i64;
        let batch = StateBatch {
            first_offset: first,
            last_offset: first + rng.below(5) as i64,
            delivery_state: 0,
            delivery_count: 1 + rng.below(3) as u16,
        };
        let write = Write {
            id: p as u64,
            state_epoch: 0,
            leader_epoch: 1,
            start_offset: start,
            batches: vec![batch],
        };
        model.insert(p, (start, vec![batch]));
        let persister = persister.clone();
        calls.spawn(async move { persister.write(&key(p), &write).await });
    }
    while let Some(r) = calls.join_next().await {
        r.unwrap().unwrap();
    }
    let writes = persister.requests_sent() - before;
    assert!(
        writes <= 2,
        "{KEYS} writes queued together took {writes} requests"
    );

    let mut reads = JoinSet::new();
    for p in 0..KEYS {
        let persister = persister.clone();
        reads.spawn(async move { (p, persister.read(&key(p), 1).await) });
    }
    while let Some(r) = reads.join_next().await {
        let (p, state) = r.unwrap();
        let state = state.unwrap();
        let (start, batches) = &model[&p];
        assert_eq!(state.start_offset, *start, "share-partition {p}");
        assert_eq!(&state.batches, batches, "share-partition {p}");
        assert_eq!(state.leader_epoch, 1);
    }
    // A refusal is the refused partition's alone: a write at an old leader epoch is fenced
    // while one queued beside it lands.
    let stale = Write {
        id: 1_000,
        state_epoch: 0,
        leader_epoch: 0,
        start_offset: 150,
        batches: vec![],
    };
    let fresh = Write {
        id: 1_001,
        state_epoch: 0,
        leader_epoch: 2,
        start_offset: 150,
        batches: vec![],
    };
    let (p1, p2) = (persister.clone(), persister.clone());
    let (a, b) = tokio::join!(async move { p1.write(&key(0), &stale).await }, async move {
        p2.write(&key(1), &fresh).await
    },);
    assert_eq!(
        a.unwrap_err().code,
        fjord_protocol::ErrorCode::FencedLeaderEpoch
    );
    b.unwrap();
    assert_eq!(persister.read(&key(1), 2).await.unwrap().start_offset, 150);
}
