//! What the broker's process-free tests share: the metadata records of a topic whose one
//! partition has a single replica on broker 1, which leads it.

use fjord_protocol::generated::{partition_record::PartitionRecord, topic_record::TopicRecord};
use fjord_protocol::{MetadataRecord, Uuid};

#[allow(dead_code)] // not every test binary uses it
/// Topic `name` (`id`) with partition 0 on broker 1 alone, led by it at leader epoch 0.
pub fn sole_replica_topic(name: &str, id: Uuid) -> [MetadataRecord; 2] {
    [
        MetadataRecord::Topic(TopicRecord {
            name: name.into(),
            topic_id: id,
            ..Default::default()
        }),
        MetadataRecord::Partition(PartitionRecord {
            partition_id: 0,
            topic_id: id,
            replicas: vec![1],
            isr: vec![1],
            leader: 1,
            leader_epoch: 0,
            ..Default::default()
        }),
    ]
}

/// The group coordinator's settings with `partitions` partitions of its topic (RF 1).
#[allow(dead_code)] // not every test binary uses it
pub fn group_config(partitions: i32) -> fjord_broker::CoordinatorConfig {
    fjord_broker::CoordinatorConfig {
        group: Default::default(),
        num_partitions: partitions,
        replication_factor: 1,
        segment_bytes: 100 << 20,
    }
}

/// The transaction coordinator's settings with `partitions` partitions of its topic (RF 1,
/// partition verification on).
#[allow(dead_code)] // not every test binary uses it
pub fn txn_config(partitions: i32) -> fjord_broker::TxnCoordinatorConfig {
    fjord_broker::TxnCoordinatorConfig {
        txn: Default::default(),
        num_partitions: partitions,
        replication_factor: 1,
        min_isr: 1,
        segment_bytes: 100 << 20,
        partition_verification: true,
    }
}

/// A group coordinator over `replicas` whose topic has `partitions` partitions (RF 1), on the
/// system clock.
#[allow(dead_code)] // not every test binary uses it
pub fn group_coordinator(
    replicas: std::sync::Arc<fjord_broker::ReplicaManager>,
    controller: std::sync::Arc<fjord_broker::ControllerClient>,
    partitions: i32,
) -> std::sync::Arc<fjord_broker::GroupCoordinator> {
    fjord_broker::GroupCoordinator::groups(
        group_config(partitions),
        replicas,
        controller,
        fjord_util::Clock::system(),
    )
    .0
}

/// Waits (up to 10 s of real time) until `done` holds.
#[allow(dead_code)] // not every test binary uses it
pub async fn wait_until(done: impl Fn() -> bool) {
    let deadline = tokio::time::Instant::now() + std::time::Duration::from_secs(10);
    while !done() {
        assert!(
            tokio::time::Instant::now() < deadline,
            "not reached in 10 s"
        );
        tokio::time::sleep(std::time::Duration::from_millis(5)).await;
    }
}

/// The share coordinator's settings with `partitions` partitions of its topic (RF 1).
#[allow(dead_code)] // not every test binary uses it
pub fn share_config(partitions: i32) -> fjord_broker::ShareCoordinatorConfig {
    fjord_broker::ShareCoordinatorConfig {
        num_partitions: partitions,
        replication_factor: 1,
        min_isr: 1,
        segment_bytes: 100 << 20,
        per_snapshot: 500,
        prune_interval_ms: 300_000,
    }
}

/// A broker's three coordinators, one partition each.
#[allow(dead_code)] // not every test binary uses it
pub struct Coordinators {
    /// The group coordinator.
    pub groups: std::sync::Arc<fjord_broker::GroupCoordinator>,
    /// The transaction coordinator.
    pub transactions: std::sync::Arc<fjord_broker::TxnCoordinator>,
    /// The share coordinator.
    pub shares: std::sync::Arc<fjord_broker::parts::ShareCoordinator>,
    /// Kept so the controller client's view (no controller) stays open.
    _controller_info: tokio::sync::watch::Sender<Option<fjord_broker::ActiveController>>,
}

/// The group, transaction and share coordinators over `replicas` (one partition each, RF
/// 1), with no controller to reach, on `clock`.
#[allow(dead_code)] // not every test binary uses it
pub fn coordinators(
    replicas: &std::sync::Arc<fjord_broker::ReplicaManager>,
    clock: &fjord_util::Clock,
) -> Coordinators {
    let (info_tx, info_rx) = tokio::sync::watch::channel(None);
    let controller = std::sync::Arc::new(fjord_broker::ControllerClient::new(info_rx));
    let groups = fjord_broker::GroupCoordinator::groups(
        group_config(1),
        replicas.clone(),
        controller.clone(),
        clock.clone(),
    )
    .0;
    let (transactions, _) = fjord_broker::TxnCoordinator::transactions(
        txn_config(1),
        replicas.clone(),
        controller.clone(),
        clock.clone(),
    );
    let shares = fjord_broker::parts::ShareCoordinator::share_states(
        share_config(1),
        replicas.clone(),
        controller,
        clock.clone(),
    );
    Coordinators {
        groups,
        transactions,
        shares,
        _controller_info: info_tx,
    }
}
