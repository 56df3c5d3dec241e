//! A transactional Produce that reaches a broker whose image already names it leader of a
//! partition, before its replica manager has made that partition, is verified with nothing
//! to verify (the partition is skipped) and then appended once the replica exists. The
//! batch must not reach the log unverified: that is refused as INVALID_TXN_STATE, which a
//! producer cannot recover from. It is answered NOT_LEADER_OR_FOLLOWER, which producers
//! retry, and the retry is verified. A client's own transactional test (franz-go's
//! TestTxnEtl, which produces to topics it has just created, on one node) met the first
//! answer once in two runs.

mod common;

use fjord_broker::parts::MarkerWriter;
use fjord_broker::parts::Peers;
use fjord_broker::ActiveController;
use fjord_broker::ControllerClient;
use fjord_broker::ReplicaManager;
use fjord_broker::View;
use fjord_log::LogDir;
use fjord_metadata::MetadataImage;
use fjord_protocol::generated::feature_level_record::FeatureLevelRecord;
use fjord_protocol::generated::produce_request::{
    PartitionProduceData, ProduceRequest, TopicProduceData,
};
use fjord_protocol::records::{Compression, RecordBatchBuilder};
use fjord_protocol::{ErrorCode, MetadataRecord, Records, Uuid};
use std::sync::Arc;
use tokio::sync::watch;

const TOPIC: Uuid = Uuid::from_u128(9);
/// Produce v12: topics by name, and a transaction version 2 producer's partitions are
/// added by the broker.
const VERSION: i16 = 12;

fn image() -> Arc<MetadataImage> {
    let [topic, partition] = common::sole_replica_topic("fresh", TOPIC);
    let records = [
        MetadataRecord::FeatureLevel(FeatureLevelRecord {
            name: "transaction.version".into(),
            feature_level: 2,
            ..Default::default()
        }),
        topic,
        partition,
    ];
    Arc::new(MetadataImage::empty().apply(&records, 3, 1).unwrap().0)
}

fn request() -> ProduceRequest {
    let mut b = RecordBatchBuilder::new(Compression::None)
        .producer(1_000, 0, 0)
        .transactional(true);
    b.append(1_000, None, Some(b"v"), &[]);
    ProduceRequest {
        transactional_id: Some("etl".into()),
        acks: 1,
        timeout_ms: 5_000,
        topic_data: vec![TopicProduceData {
            name: "fresh".into(),
            partition_data: vec![PartitionProduceData {
                index: 0,
                records: Some(Records::Memory(b.build().unwrap())),
                ..Default::default()
            }],
            ..Default::default()
        }],
        ..Default::default()
    }
}

#[tokio::test]
async fn a_partition_made_between_verification_and_append_is_retried_not_fatal() {
    let image = image();
    let dir = tempfile::tempdir().unwrap();
    let logs = Arc::new(LogDir::open(dir.path(), |_| Default::default()).unwrap().0);
    // The image names this broker leader; the replica manager has not applied it yet.
    let replicas = Arc::new(ReplicaManager::new(1, logs, Default::default()));
    let (_tx, rx) = watch::channel(Some(ActiveController {
        id: 1,
        addr: "127.0.0.1:1".into(),
    }));
    let controller = Arc::new(ControllerClient::new(rx));
    let groups = common::group_coordinator(replicas.clone(), controller.clone(), 1);
    let (coordinator, _marker_jobs) = fjord_broker::TxnCoordinator::transactions(
        common::txn_config(1),
        replicas.clone(),
        controller,
        fjord_util::Clock::system(),
    );
    let (_view_tx, view_rx) = watch::channel(View::new(image.clone(), 3));
    let peers = Arc::new(Peers::new(
        "PLAINTEXT".into(),
        fjord_net::security::ClientSecurity::plaintext(),
    ));
    let markers = MarkerWriter::new(coordinator, replicas.clone(), groups, view_rx, peers, true);

    let request = request();
    let verified =
        fjord_broker::parts::verify(&replicas, &markers, &image, &request, VERSION).await;
    assert!(verified.is_some(), "a transactional request is verified");
    // The replica is made while the request waits between its verification and its append.
    replicas.apply(&image).unwrap();
    let appended = fjord_broker::parts::append(
        &replicas,
        image.clone(),
        "PLAINTEXT",
        request,
        VERSION,
        verified,
        &fjord_util::Clock::system(),
    )
    .await
    .unwrap();
    let response = appended.committed().await.unwrap();
    let code = response.responses[0].partition_responses[0].error_code;
    assert_eq!(
        ErrorCode::from_code(code),
        Some(ErrorCode::NotLeaderOrFollower),
        "answered {code}, not a retriable NOT_LEADER_OR_FOLLOWER"
    );
    let log = &replicas.get(TOPIC, 0).unwrap().log;
    assert_eq!(log.log_end_offset(), 0, "nothing appended unverified");
}
