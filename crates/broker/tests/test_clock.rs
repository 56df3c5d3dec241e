//! The broker's timers run on the clock it is given, so a test moves time instead of waiting:
//! - a delayed fetch (`min_bytes` not reached) is answered when `max_wait_ms` has passed on
//!   the clock, not before;
//! - a consumer group member (KIP-848) that stops heartbeating is removed once
//!   `group.consumer.session.timeout.ms` (45 s) has passed on the clock, not before;
//! - records a share consumer acquired and never acknowledged are delivered again once
//!   `group.share.record.lock.duration.ms` (30 s) has passed on the clock, not before.
//!
//! Each runs in well under a second of real time.

mod common;

use fjord_broker::ControllerClient;
use fjord_broker::ReplicaManager;
use fjord_log::LogDir;
use fjord_metadata::MetadataImage;
use fjord_protocol::generated::consumer_group_describe_request::ConsumerGroupDescribeRequest;
use fjord_protocol::generated::consumer_group_heartbeat_request::ConsumerGroupHeartbeatRequest;
use fjord_protocol::generated::feature_level_record::FeatureLevelRecord;
use fjord_protocol::generated::fetch_request::{FetchPartition, FetchRequest, FetchTopic};
use fjord_protocol::{MetadataRecord, RequestBody, ResponseBody, Uuid};
use fjord_util::Clock;
use std::sync::{Arc, Mutex};
use std::time::Duration;

const TOPIC: Uuid = Uuid::from_u128(42);
const OFFSETS: Uuid = Uuid::from_u128(7);

/// A replica manager on broker 1 that leads every topic of `records`.
fn broker(
    records: &[MetadataRecord],
) -> (tempfile::TempDir, Arc<ReplicaManager>, Arc<MetadataImage>) {
    let image = Arc::new(MetadataImage::empty().apply(records, 10, 1).unwrap().0);
    let dir = tempfile::tempdir().unwrap();
    let logs = Arc::new(LogDir::open(dir.path(), |_| Default::default()).unwrap().0);
    let replicas = Arc::new(ReplicaManager::new(1, logs, Default::default()));
    replicas.apply(&image).unwrap();
    (dir, replicas, image)
}

#[tokio::test]
async fn a_delayed_fetch_is_answered_at_max_wait_on_the_clock() {
    let (_dir, replicas, image) = broker(&common::sole_replica_topic("t", TOPIC));
    let (clock, hand) = Clock::manual(fjord_util::system_now_ms());
    let sessions = Arc::new(Mutex::new(fjord_broker::parts::SessionCache::new(
        10, 120_000, 1,
    )));
    let request = FetchRequest {
        replica_id: -1,
        max_wait_ms: 10_000,
        min_bytes: 1,
        max_bytes: 1 << 20,
        session_id: 0,
        session_epoch: -1,
        topics: vec![FetchTopic {
            topic: "t".into(),
            partitions: vec![FetchPartition {
                partition: 0,
                fetch_offset: 0,
                partition_max_bytes: 1 << 20,
                current_leader_epoch: -1,
                last_fetched_epoch: -1,
                log_start_offset: -1,
                ..Default::default()
            }],
            ..Default::default()
        }],
        ..Default::default()
    };
    let started = std::time::Instant::now();
    let mut fetch = tokio::spawn({
        let (replicas, clock) = (replicas.clone(), clock.clone());
        async move {
            fjord_broker::parts::fetch(
                &replicas,
                &sessions,
                image,
                "PLAINTEXT",
                request,
                12,
                &clock,
            )
            .await
        }
    });
    // The fetch waits on its partition (nothing to read yet).
    let p = replicas.get(TOPIC, 0).unwrap();
    common::wait_until(|| !p.watchers.is_empty()).await;
    hand.advance(9_999);
    assert!(
        tokio::time::timeout(Duration::from_millis(200), &mut fetch)
            .await
            .is_err(),
        "answered before max_wait_ms"
    );
    hand.advance(1);
    let answer = tokio::time::timeout(Duration::from_secs(5), fetch)
        .await
        .expect("answered at max_wait_ms")
        .unwrap()
        .unwrap();
    let data = &answer.responses[0].partitions[0];
    assert_eq!(data.error_code, 0);
    assert_eq!(data.records.as_ref().map_or(0, |r| r.len()), 0);
    assert!(started.elapsed() < Duration::from_secs(5));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_silent_consumer_group_member_expires_after_its_session_timeout_on_the_clock() {
    let mut records = vec![MetadataRecord::FeatureLevel(FeatureLevelRecord {
        name: "group.version".into(),
        feature_level: 1,
        ..Default::default()
    })];
    records.extend(common::sole_replica_topic("__consumer_offsets", OFFSETS));
    records.extend(common::sole_replica_topic("t", TOPIC));
    let (_dir, replicas, image) = broker(&records);
    let (clock, hand) = Clock::manual(fjord_util::system_now_ms());
    let c = common::coordinators(&replicas, &clock);
    let api = fjord_broker::parts::Groups {
        coordinator: &c.groups,
        transactions: &c.transactions,
        share_states: &c.shares,
        image: image.clone(),
        listener: "PLAINTEXT",
        client: ("test", "127.0.0.1:1".parse().unwrap()),
    };
    let started = std::time::Instant::now();
    let heartbeat = RequestBody::ConsumerGroupHeartbeat(ConsumerGroupHeartbeatRequest {
        group_id: "g".into(),
        member_id: Uuid::from_u128(99).to_string(),
        member_epoch: 0,
        rebalance_timeout_ms: 60_000,
        subscribed_topic_names: Some(vec!["t".into()]),
        topic_partitions: Some(Vec::new()),
        ..Default::default()
    });
    // The shard loads on first use.
    let deadline = std::time::Instant::now() + Duration::from_secs(10);
    loop {
        let ResponseBody::ConsumerGroupHeartbeat(r) =
            api.consumer_heartbeat(&heartbeat, 1, "g").await
        else {
            panic!("not a heartbeat response")
        };
        if r.error_code == 0 {
            assert_eq!(r.member_epoch, 1);
            break;
        }
        assert!(std::time::Instant::now() < deadline, "no answer: {r:?}");
        tokio::task::yield_now().await;
    }
    let members = || async {
        let d = api
            .consumer_group_describe(&ConsumerGroupDescribeRequest {
                group_ids: vec!["g".into()],
                ..Default::default()
            })
            .await;
        d.groups[0].members.len()
    };
    assert_eq!(members().await, 1);
    hand.advance(44_000);
    assert_eq!(members().await, 1, "alive 44 s into a 45 s session");
    hand.advance(1_001);
    let deadline = std::time::Instant::now() + Duration::from_secs(5);
    while members().await != 0 {
        assert!(
            std::time::Instant::now() < deadline,
            "not expired after its session timeout"
        );
        tokio::task::yield_now().await;
    }
    assert!(started.elapsed() < Duration::from_secs(10));
}

/// One ShareFetch of partition 0 of `t` by a member of share group `sg` at session `epoch`,
/// waiting for nothing.
async fn share_fetch_raw(
    fetcher: &Arc<fjord_broker::ShareFetcher>,
    epoch: i32,
) -> fjord_protocol::generated::share_fetch_response::ShareFetchResponse {
    use fjord_protocol::generated::share_fetch_request::{
        FetchPartition as SharePartition, FetchTopic as ShareTopic, ShareFetchRequest,
    };
    let r = ShareFetchRequest {
        group_id: Some("sg".into()),
        member_id: Some(Uuid::from_u128(5).to_string()),
        share_session_epoch: epoch,
        max_wait_ms: 0,
        min_bytes: 1,
        max_bytes: 1 << 20,
        max_records: 500,
        batch_size: 500,
        topics: vec![ShareTopic {
            topic_id: TOPIC,
            partitions: vec![SharePartition {
                partition_index: 0,
                partition_max_bytes: 1 << 20,
                ..Default::default()
            }],
            ..Default::default()
        }],
        ..Default::default()
    };
    fetcher
        .share_fetch(&r, 1, 1, "PLAINTEXT", &Default::default())
        .await
}

/// [`share_fetch_raw`], which must succeed: the records it acquired, as (first, last,
/// delivery count).
async fn share_fetch(
    fetcher: &Arc<fjord_broker::ShareFetcher>,
    epoch: i32,
) -> Vec<(i64, i64, i16)> {
    let answer = share_fetch_raw(fetcher, epoch).await;
    assert_eq!(answer.error_code, 0, "{answer:?}");
    answer
        .responses
        .iter()
        .flat_map(|t| &t.partitions)
        .inspect(|p| assert_eq!(p.error_code, 0, "{p:?}"))
        .flat_map(|p| &p.acquired_records)
        .map(|a| (a.first_offset, a.last_offset, a.delivery_count))
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn unacknowledged_share_records_are_delivered_again_after_the_lock_duration_on_the_clock() {
    const STATES: Uuid = Uuid::from_u128(8);
    let mut records = vec![MetadataRecord::FeatureLevel(FeatureLevelRecord {
        name: "share.version".into(),
        feature_level: 1,
        ..Default::default()
    })];
    records.extend(common::sole_replica_topic("__share_group_state", STATES));
    records.extend(common::sole_replica_topic("t", TOPIC));
    let (_dir, replicas, image) = broker(&records);
    let (clock, hand) = Clock::manual(fjord_util::system_now_ms());
    let (_info_tx, info_rx) = tokio::sync::watch::channel(None);
    let controller = Arc::new(ControllerClient::new(info_rx));
    let share_states = fjord_broker::parts::ShareCoordinator::share_states(
        common::share_config(1),
        replicas.clone(),
        controller.clone(),
        clock.clone(),
    );
    let (_view_tx, view) = tokio::sync::watch::channel(fjord_broker::View::new(image.clone(), 11));
    let peers = Arc::new(fjord_broker::parts::Peers::new(
        "PLAINTEXT".into(),
        fjord_net::security::ClientSecurity::plaintext(),
    ));
    let persister = Arc::new(fjord_broker::parts::Persister::new(
        1,
        share_states.clone(),
        peers,
        view.clone(),
    ));
    tokio::spawn(persister.clone().run());
    let fetcher = fjord_broker::ShareFetcher::new(
        1,
        Default::default(),
        replicas.clone(),
        persister.clone(),
        view,
        Some(controller),
        clock.clone(),
    );
    tokio::spawn(
        share_states
            .clone()
            .follow(replicas.applied(), |_| async {}),
    );
    tokio::spawn(fetcher.clone().run_expiry());
    replicas
        .apply_view(&fjord_broker::View::new(image.clone(), 11))
        .unwrap();
    let started = std::time::Instant::now();
    // The share-partition starts at offset 0, as the group coordinator initializes it for a
    // member's first assignment (the persister retries while the share coordinator loads).
    let key = fjord_broker::parts::SharePartitionKey {
        group: "sg".into(),
        topic_id: TOPIC,
        partition: 0,
    };
    persister.initialize(&key, 0, 0).await.unwrap();
    // The first fetch loads the share-partition (empty so far).
    let deadline = std::time::Instant::now() + Duration::from_secs(10);
    let mut epoch = 0;
    loop {
        let answer = share_fetch_raw(&fetcher, epoch).await;
        epoch += 1;
        let failed = answer.error_code != 0
            || answer
                .responses
                .iter()
                .flat_map(|t| &t.partitions)
                .any(|p| p.error_code != 0);
        if !failed {
            break;
        }
        assert!(
            std::time::Instant::now() < deadline,
            "never loaded: {answer:?}"
        );
        tokio::task::yield_now().await;
    }
    let p = replicas.get(TOPIC, 0).unwrap();
    let mut b = fjord_protocol::records::RecordBatchBuilder::new(
        fjord_protocol::records::Compression::None,
    );
    for i in 0..3 {
        b.append(1_000, None, Some(format!("v{i}").as_bytes()), &[]);
    }
    p.log
        .append_as_leader(b.build().unwrap(), 0, 2_000)
        .unwrap();
    p.after_append();
    assert_eq!(share_fetch(&fetcher, epoch).await, vec![(0, 2, 1)]);
    epoch += 1;
    assert_eq!(share_fetch(&fetcher, epoch).await, vec![], "locked");
    epoch += 1;
    hand.advance(29_000);
    assert_eq!(
        share_fetch(&fetcher, epoch).await,
        vec![],
        "still locked 29 s into a 30 s lock"
    );
    epoch += 1;
    hand.advance(1_001);
    let deadline = std::time::Instant::now() + Duration::from_secs(5);
    loop {
        let got = share_fetch(&fetcher, epoch).await;
        epoch += 1;
        if !got.is_empty() {
            assert_eq!(got, vec![(0, 2, 2)], "delivered again, a second time");
            break;
        }
        assert!(
            std::time::Instant::now() < deadline,
            "the lock did not expire"
        );
        tokio::task::yield_now().await;
    }
    assert!(started.elapsed() < Duration::from_secs(10));
}
