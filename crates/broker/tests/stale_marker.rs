//! A transaction marker of a producer epoch the producer has moved past (a marker job of a
//! transaction coordinator that moved, still retrying) is refused at a group coordinator's
//! partition with INVALID_PRODUCER_EPOCH, which its sender gives up on, and the group shard
//! stays loaded. Found by the fault tests: answered NOT_LEADER_OR_FOLLOWER, such a marker was
//! retried every 100 ms for minutes, each refusal reloading the shard and restarting every
//! member's session, so a departed static member was never expired.

mod common;

use fjord_broker::ActiveController;
use fjord_broker::ControllerClient;
use fjord_broker::ReplicaManager;
use fjord_log::LogDir;
use fjord_metadata::MetadataImage;
use fjord_protocol::records::EndTxnMarker;
use fjord_protocol::{ErrorCode, Uuid};
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::watch;

const OFFSETS: Uuid = Uuid::from_u128(7);

#[tokio::test]
async fn a_stale_marker_is_refused_as_fenced_and_the_shard_stays() {
    let image = MetadataImage::empty()
        .apply(
            &common::sole_replica_topic("__consumer_offsets", OFFSETS),
            2,
            1,
        )
        .unwrap()
        .0;
    let dir = tempfile::tempdir().unwrap();
    let logs = Arc::new(LogDir::open(dir.path(), |_| Default::default()).unwrap().0);
    let replicas = Arc::new(ReplicaManager::new(1, logs, Default::default()));
    replicas.apply(&image).unwrap();
    let (_tx, rx) = watch::channel(Some(ActiveController {
        id: 1,
        addr: "127.0.0.1:1".into(),
    }));
    let groups =
        common::group_coordinator(replicas.clone(), Arc::new(ControllerClient::new(rx)), 1);
    let commit = EndTxnMarker {
        commit: true,
        coordinator_epoch: 0,
    };
    // The shard loads on first use: a marker at epoch 5 is written once it has.
    let mut written = Err(ErrorCode::NotLeaderOrFollower);
    for _ in 0..500 {
        written = groups.write_marker(&image, 0, 1001, 5, commit).await;
        if written != Err(ErrorCode::NotLeaderOrFollower) {
            break;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    assert_eq!(written, Ok(()));
    let end = replicas.get(OFFSETS, 0).unwrap().log.log_end_offset();
    // The stale marker: refused as fenced, nothing written, and the shard still serves
    // (a refusal that dropped it would answer NOT_LEADER_OR_FOLLOWER while it reloads).
    for _ in 0..3 {
        assert_eq!(
            groups.write_marker(&image, 0, 1001, 3, commit).await,
            Err(ErrorCode::InvalidProducerEpoch)
        );
    }
    assert_eq!(replicas.get(OFFSETS, 0).unwrap().log.log_end_offset(), end);
    assert_eq!(
        groups.write_marker(&image, 0, 1001, 6, commit).await,
        Ok(())
    );
}
