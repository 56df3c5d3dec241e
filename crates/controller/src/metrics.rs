//! The controller's metrics, as Kafka names them (`kafka.controller:type=KafkaController` and
//! `ControllerStats`): gauges computed from the image, counters kept by the controller, and
//! the log offsets the runtime supplies. The server's `/metrics` endpoint computes them at each
//! scrape.

use crate::controller::Counters;
use crate::elections::is_active;
use fjord_metadata::MetadataImage;

/// One snapshot of the controller's metrics.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ControllerMetrics {
    /// `ActiveControllerCount`: 1 on the active controller, else 0.
    pub active_controller_count: u64,
    /// `OfflinePartitionsCount`: partitions without a leader.
    pub offline_partitions_count: u64,
    /// `GlobalTopicCount`.
    pub global_topic_count: u64,
    /// `GlobalPartitionCount`.
    pub global_partition_count: u64,
    /// `FencedBrokerCount`.
    pub fenced_broker_count: u64,
    /// `ActiveBrokerCount`: registered and unfenced.
    pub active_broker_count: u64,
    /// `PreferredReplicaImbalanceCount`: partitions not led by their preferred replica.
    pub preferred_replica_imbalance_count: u64,
    /// `UncleanLeaderElectionsPerSec` (as a running count).
    pub unclean_leader_elections: u64,
    /// DESIGNATED elections (fjord's ElectLeaders v3; also counted as unclean).
    pub designated_leader_elections: u64,
    /// `ElectionFromEligibleLeaderReplicasPerSec` (as a running count).
    pub elections_from_elr: u64,
    /// `LastAppliedRecordOffset`.
    pub last_applied_record_offset: i64,
    /// `LastCommittedRecordOffset`.
    pub last_committed_record_offset: i64,
}

impl ControllerMetrics {
    /// The metrics of `image` on a node that is (or is not) the active controller.
    pub fn compute(
        image: &MetadataImage,
        counters: &Counters,
        active: bool,
        last_applied: i64,
        last_committed: i64,
    ) -> ControllerMetrics {
        let mut m = ControllerMetrics {
            active_controller_count: u64::from(active),
            global_topic_count: image.topics.by_id.len() as u64,
            unclean_leader_elections: counters.unclean_elections,
            designated_leader_elections: counters.designated_elections,
            elections_from_elr: counters.elr_elections,
            last_applied_record_offset: last_applied,
            last_committed_record_offset: last_committed,
            ..ControllerMetrics::default()
        };
        for b in image.cluster.brokers.values() {
            if b.fenced {
                m.fenced_broker_count += 1;
            } else if is_active(image, b.id) {
                m.active_broker_count += 1;
            }
        }
        for t in image.topics.by_id.values() {
            for p in t.partitions.values() {
                m.global_partition_count += 1;
                if !p.has_leader() {
                    m.offline_partitions_count += 1;
                }
                if p.leader != p.preferred_replica() {
                    m.preferred_replica_imbalance_count += 1;
                }
            }
        }
        m
    }
}
