//! `metadata.version`: the range this build supports, the levels at which features appear,
//! and the version each metadata record is written at under a finalized level, so a node that
//! supports only an older level can read everything in the log during a rolling upgrade.
//! Levels are Kafka 4.4's, number for number (7 is 3.3-IV3, 33 is 4.4-IV2).

use fjord_protocol::generated::{
    broker_registration_change_record::BrokerRegistrationChangeRecord,
    partition_change_record::PartitionChangeRecord, partition_record::PartitionRecord,
    register_broker_record::RegisterBrokerRecord,
};
use fjord_protocol::MetadataRecord;
use std::borrow::Cow;

/// The lowest `metadata.version` level this build supports (Kafka 3.3-IV3).
pub const METADATA_VERSION_MIN: i16 = 7;
/// The newest `metadata.version` level this build supports: Kafka 4.4's newest production
/// level, 4.4-IV2.
pub const METADATA_VERSION_LATEST: i16 = 33;
/// The first `metadata.version` with UnregisterControllerRecord (KIP-1312): 4.4-IV2, where
/// Kafka gates it (`isControllerUnregistrationSupported`).
pub const METADATA_VERSION_UNREGISTER_CONTROLLER: i16 = 33;

/// Kafka's names of `metadata.version` levels (3.3-IV3 is level 7), as its tools print and
/// read them. The levels are Kafka 4.4's, number for number; a level changes what fjord
/// writes only where [`MetadataVersion`] says so (4.3-IV0's cordoned log directories and
/// 4.4-IV1's CIDR ACL hosts are features fjord does not offer, so they change nothing here).
pub const KAFKA_RELEASES: &[(i16, &str)] = &[
    (7, "3.3-IV3"),
    (8, "3.4-IV0"),
    (9, "3.5-IV0"),
    (10, "3.5-IV1"),
    (11, "3.5-IV2"),
    (12, "3.6-IV0"),
    (13, "3.6-IV1"),
    (14, "3.6-IV2"),
    (15, "3.7-IV0"),
    (16, "3.7-IV1"),
    (17, "3.7-IV2"),
    (18, "3.7-IV3"),
    (19, "3.7-IV4"),
    (20, "3.8-IV0"),
    (21, "3.9-IV0"),
    (22, "4.0-IV0"),
    (23, "4.0-IV1"),
    (24, "4.0-IV2"),
    (25, "4.0-IV3"),
    (26, "4.1-IV0"),
    (27, "4.1-IV1"),
    (28, "4.2-IV0"),
    (29, "4.2-IV1"),
    (30, "4.3-IV0"),
    (31, "4.4-IV0"),
    (32, "4.4-IV1"),
    (33, "4.4-IV2"),
];

/// A level's Kafka name ("3.9-IV0"), else its number.
pub fn release_name(level: i16) -> String {
    KAFKA_RELEASES
        .iter()
        .find(|(l, _)| *l == level)
        .map_or_else(|| level.to_string(), |(_, n)| n.to_string())
}

/// A level from a Kafka name ("3.9-IV0"), a release (its last level: "3.7" is 3.7-IV4), or a
/// number.
pub fn parse_release(s: &str) -> Option<i16> {
    if let Ok(level) = s.trim().parse::<i16>() {
        return Some(level);
    }
    KAFKA_RELEASES
        .iter()
        .rev()
        .find(|(_, n)| *n == s || n.split('-').next() == Some(s))
        .map(|(l, _)| *l)
}

/// The `transaction.version` feature's name (KIP-890): 1 writes the flexible
/// `__transaction_state` value, 2 bumps the producer epoch at every commit or abort and lets
/// Produce and TxnOffsetCommit add their partitions to the transaction.
pub const TRANSACTION_VERSION: &str = "transaction.version";
/// The newest `transaction.version` level this build supports.
pub const TRANSACTION_VERSION_LATEST: i16 = 2;
/// The `metadata.version` from which a new cluster starts with `transaction.version` at its
/// newest level (Kafka 4.0-IV2, as Kafka's `TransactionVersion` bootstraps).
pub const TRANSACTION_VERSION_BOOTSTRAP: MetadataVersion = MetadataVersion(24);

/// The `group.version` feature's name (KIP-848): 1 serves the consumer group protocol
/// (ConsumerGroupHeartbeat).
pub const GROUP_VERSION: &str = "group.version";
/// The newest `group.version` level this build supports.
pub const GROUP_VERSION_LATEST: i16 = 1;
/// The `metadata.version` from which a new cluster starts with `group.version` 1 (Kafka
/// 4.0-IV0, as Kafka's `GroupVersion` bootstraps).
pub const GROUP_VERSION_BOOTSTRAP: MetadataVersion = MetadataVersion(22);

/// The `share.version` feature's name (KIP-932): 1 serves share groups, 2 adds their
/// dead-letter queues (KIP-1191).
pub const SHARE_VERSION: &str = "share.version";
/// The newest `share.version` level this build supports.
pub const SHARE_VERSION_LATEST: i16 = 2;
/// The `metadata.version` from which a new cluster starts with `share.version` 1 (Kafka
/// 4.2-IV0, as Kafka's `ShareVersion` bootstraps).
pub const SHARE_VERSION_BOOTSTRAP: MetadataVersion = MetadataVersion(28);
/// The `metadata.version` from which a new cluster starts with `share.version` 2 (Kafka
/// 4.4-IV0).
pub const SHARE_VERSION_DLQ_BOOTSTRAP: MetadataVersion = MetadataVersion(31);

/// The `kraft.version` feature's name (KIP-853): 1 keeps the voter set in the metadata log
/// (dynamic quorums). Its level is the Raft layer's, not a FeatureLevelRecord's.
pub const KRAFT_VERSION: &str = "kraft.version";
/// The newest `kraft.version` level this build supports.
pub const KRAFT_VERSION_LATEST: i16 = 1;

/// The `eligible.leader.replicas.version` feature's name (KIP-966): at 1 the controller keeps
/// each partition's eligible leader replicas and elects from them.
pub const ELR_VERSION: &str = "eligible.leader.replicas.version";
/// The newest `eligible.leader.replicas.version` level this build supports.
pub const ELR_VERSION_LATEST: i16 = 1;
/// The `metadata.version` from which a new cluster starts with
/// `eligible.leader.replicas.version` 1 (Kafka 4.1-IV0, as Kafka's `EligibleLeaderReplicasVersion`
/// bootstraps).
pub const ELR_VERSION_BOOTSTRAP: MetadataVersion = MetadataVersion(26);

/// The `streams.version` feature's name (KIP-1071): 1 serves streams groups
/// (StreamsGroupHeartbeat).
pub const STREAMS_VERSION: &str = "streams.version";
/// The newest `streams.version` level this build supports.
pub const STREAMS_VERSION_LATEST: i16 = 1;
/// The `metadata.version` from which a new cluster starts with `streams.version` 1 (Kafka
/// 4.2-IV1, as Kafka's `StreamsVersion` bootstraps).
pub const STREAMS_VERSION_BOOTSTRAP: MetadataVersion = MetadataVersion(29);

/// The `metadata.version` level `feature` at `level` needs, as Kafka's feature dependencies
/// say (`kafka-features feature-dependencies`); none for the others.
pub fn feature_dependency(feature: &str, level: i16) -> Option<i16> {
    (feature == ELR_VERSION && level >= 1).then_some(MetadataVersion::ELIGIBLE_LEADER_REPLICAS.0)
}

/// The features this build can run, with the levels: what a node registers and advertises in
/// ApiVersions.
pub fn supported_features() -> Vec<(String, i16, i16)> {
    vec![
        (
            crate::image::METADATA_VERSION.to_string(),
            METADATA_VERSION_MIN,
            METADATA_VERSION_LATEST,
        ),
        (
            TRANSACTION_VERSION.to_string(),
            0,
            TRANSACTION_VERSION_LATEST,
        ),
        (GROUP_VERSION.to_string(), 0, GROUP_VERSION_LATEST),
        (SHARE_VERSION.to_string(), 0, SHARE_VERSION_LATEST),
        (KRAFT_VERSION.to_string(), 0, KRAFT_VERSION_LATEST),
        (ELR_VERSION.to_string(), 0, ELR_VERSION_LATEST),
        (STREAMS_VERSION.to_string(), 0, STREAMS_VERSION_LATEST),
    ]
}

/// The levels a new cluster at `metadata.version` `mv` finalizes its other features at, as
/// Kafka's `kafka-storage format` chooses them for a release.
pub fn bootstrap_features(mv: i16) -> Vec<(String, i16)> {
    let tv = if MetadataVersion(mv).has(TRANSACTION_VERSION_BOOTSTRAP) {
        TRANSACTION_VERSION_LATEST
    } else {
        0
    };
    let gv = if MetadataVersion(mv).has(GROUP_VERSION_BOOTSTRAP) {
        GROUP_VERSION_LATEST
    } else {
        0
    };
    let sv = if MetadataVersion(mv).has(SHARE_VERSION_DLQ_BOOTSTRAP) {
        2
    } else if MetadataVersion(mv).has(SHARE_VERSION_BOOTSTRAP) {
        1
    } else {
        0
    };
    let at = |bootstrap: MetadataVersion| i16::from(MetadataVersion(mv).has(bootstrap));
    vec![
        (TRANSACTION_VERSION.to_string(), tv),
        (GROUP_VERSION.to_string(), gv),
        (SHARE_VERSION.to_string(), sv),
        (ELR_VERSION.to_string(), at(ELR_VERSION_BOOTSTRAP)),
        (STREAMS_VERSION.to_string(), at(STREAMS_VERSION_BOOTSTRAP)),
    ]
}

/// The `metadata.version` from which a release's features name `kraft.version` 1 (Kafka
/// 3.9-IV0, as `kafka-features version-mapping` gives it).
pub const KRAFT_VERSION_RELEASE: MetadataVersion = MetadataVersion(21);

/// Every feature a release at `metadata.version` `mv` runs at, as Kafka's
/// `kafka-features --release-version` sends them: [`bootstrap_features`] and `kraft.version`
/// (which formatting decides from the quorum, not from the release).
pub fn release_features(mv: i16) -> Vec<(String, i16)> {
    let mut features = bootstrap_features(mv);
    let kraft = i16::from(MetadataVersion(mv).has(KRAFT_VERSION_RELEASE));
    features.push((KRAFT_VERSION.to_string(), kraft));
    features
}

/// A finalized (or proposed) `metadata.version` level, with its feature gates.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub struct MetadataVersion(pub i16);

impl MetadataVersion {
    /// The newest level this build supports.
    pub const LATEST: MetadataVersion = MetadataVersion(METADATA_VERSION_LATEST);
    /// Kafka 3.4-IV0: RegisterBrokerRecord v2 (IsMigratingZkBroker).
    pub const ZK_MIGRATION: MetadataVersion = MetadataVersion(8);
    /// Kafka 3.7-IV2: directory assignment (KIP-858): partition directories, broker log dirs.
    pub const DIRECTORY_ASSIGNMENT: MetadataVersion = MetadataVersion(17);
    /// Kafka 4.0-IV1: eligible leader replicas (KIP-966) in partition records.
    pub const ELIGIBLE_LEADER_REPLICAS: MetadataVersion = MetadataVersion(23);
    /// UnregisterControllerRecord (KIP-1312).
    pub const UNREGISTER_CONTROLLER: MetadataVersion =
        MetadataVersion(METADATA_VERSION_UNREGISTER_CONTROLLER);

    /// The level of an image's `metadata.version` feature, or the latest while a new cluster
    /// has none yet.
    pub fn of(level: Option<i16>) -> MetadataVersion {
        level.map_or(MetadataVersion::LATEST, MetadataVersion)
    }

    /// True when this level has `feature`.
    pub fn has(self, feature: MetadataVersion) -> bool {
        self >= feature
    }

    /// The version `record` is written at under this level.
    pub fn record_version(self, record: &MetadataRecord) -> i16 {
        let latest = MetadataRecord::max_version(record.record_type()).unwrap_or(0);
        let gated = match record {
            MetadataRecord::Partition(_) | MetadataRecord::PartitionChange(_) => {
                if self.has(Self::ELIGIBLE_LEADER_REPLICAS) {
                    2
                } else if self.has(Self::DIRECTORY_ASSIGNMENT) {
                    1
                } else {
                    0
                }
            }
            MetadataRecord::RegisterBroker(_) => {
                if self.has(Self::DIRECTORY_ASSIGNMENT) {
                    3
                } else if self.has(Self::ZK_MIGRATION) {
                    2
                } else {
                    1
                }
            }
            MetadataRecord::BrokerRegistrationChange(_) => {
                if self.has(Self::DIRECTORY_ASSIGNMENT) {
                    2
                } else {
                    1
                }
            }
            _ => latest,
        };
        gated.min(latest)
    }

    /// `record` as this level can carry it: fields of record versions above
    /// [`Self::record_version`] are reset to their defaults. The controller folds and writes
    /// this form, so its working image and every node's committed image agree.
    /// Borrowed (no copy) when the level writes the record at its newest version.
    pub fn downgrade(self, record: &MetadataRecord) -> Cow<'_, MetadataRecord> {
        let version = self.record_version(record);
        if Some(version) == MetadataRecord::max_version(record.record_type()) {
            return Cow::Borrowed(record);
        }
        let mut r = record.clone();
        match &mut r {
            MetadataRecord::Partition(p) => {
                let d = PartitionRecord::default();
                if version < 2 {
                    p.eligible_leader_replicas = d.eligible_leader_replicas;
                    p.last_known_elr = d.last_known_elr;
                }
                if version < 1 {
                    p.directories = d.directories;
                }
            }
            MetadataRecord::PartitionChange(p) => {
                let d = PartitionChangeRecord::default();
                if version < 2 {
                    p.eligible_leader_replicas = d.eligible_leader_replicas;
                    p.last_known_elr = d.last_known_elr;
                }
                if version < 1 {
                    p.directories = d.directories;
                }
            }
            MetadataRecord::RegisterBroker(b) => {
                let d = RegisterBrokerRecord::default();
                if version < 3 {
                    b.log_dirs = d.log_dirs;
                }
                if version < 2 {
                    b.is_migrating_zk_broker = d.is_migrating_zk_broker;
                }
            }
            MetadataRecord::BrokerRegistrationChange(b) if version < 2 => {
                b.log_dirs = BrokerRegistrationChangeRecord::default().log_dirs;
            }
            _ => {}
        }
        Cow::Owned(r)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::record_serde;
    use fjord_protocol::Uuid;

    fn partition() -> MetadataRecord {
        MetadataRecord::Partition(PartitionRecord {
            partition_id: 0,
            topic_id: Uuid::from_u128(7),
            replicas: vec![1, 2],
            isr: vec![1],
            leader: 1,
            directories: vec![Uuid::from_u128(9), Uuid::from_u128(10)],
            eligible_leader_replicas: Some(vec![2]),
            last_known_elr: Some(vec![]),
            ..Default::default()
        })
    }

    /// The version a record value was written at (its frame's third varint).
    fn written_version(value: &bytes::Bytes) -> u8 {
        value[2]
    }

    #[test]
    fn records_are_written_at_the_version_the_level_allows() {
        let table: &[(i16, i16, i16, i16)] = &[
            // level, PartitionRecord, RegisterBrokerRecord, BrokerRegistrationChangeRecord
            (7, 0, 1, 1),
            (8, 0, 2, 1),
            (17, 1, 3, 2),
            (23, 2, 3, 2),
            (METADATA_VERSION_LATEST, 2, 3, 2),
        ];
        for &(level, partition_v, register_v, change_v) in table {
            let mv = MetadataVersion(level);
            let register = MetadataRecord::RegisterBroker(Default::default());
            let change = MetadataRecord::BrokerRegistrationChange(Default::default());
            assert_eq!(
                mv.record_version(&partition()),
                partition_v,
                "level {level}"
            );
            assert_eq!(mv.record_version(&register), register_v, "level {level}");
            assert_eq!(mv.record_version(&change), change_v, "level {level}");
            // What a level writes encodes at its version and reads back as the downgrade.
            let down = mv.downgrade(&partition()).into_owned();
            let value = record_serde::encode_at(&down, partition_v).unwrap();
            assert_eq!(i16::from(written_version(&value)), partition_v);
            assert_eq!(record_serde::decode(value).unwrap(), down, "level {level}");
        }
    }

    #[test]
    fn an_old_level_drops_what_its_record_versions_cannot_carry() {
        let MetadataRecord::Partition(p) = MetadataVersion(7).downgrade(&partition()).into_owned()
        else {
            panic!()
        };
        let d = PartitionRecord::default();
        assert_eq!(p.directories, d.directories);
        assert_eq!(p.eligible_leader_replicas, d.eligible_leader_replicas);
        assert_eq!((p.replicas, p.isr, p.leader), (vec![1, 2], vec![1], 1));
        let latest = partition();
        assert!(matches!(
            MetadataVersion::LATEST.downgrade(&latest),
            Cow::Borrowed(_)
        ));
    }
}
