//! The replica manager follows the image: a replica's log is created with its topic's configs,
//! a config change reaches the log, leadership moves with the image, a deleted topic's log
//! goes, and retention applies the topic's `retention.bytes`.

mod common;

use bytes::Bytes;
use fjord_broker::ReplicaManager;
use fjord_log::LogDir;
use fjord_metadata::MetadataImage;
use fjord_protocol::generated::{
    config_record::ConfigRecord, partition_change_record::PartitionChangeRecord,
    partition_record::PartitionRecord, remove_topic_record::RemoveTopicRecord,
    topic_record::TopicRecord,
};
use fjord_protocol::records::{Compression, RecordBatchBuilder};
use fjord_protocol::{MetadataRecord, Uuid};
use std::sync::Arc;

const TOPIC: Uuid = Uuid::from_u128(42);

fn apply(image: MetadataImage, records: Vec<MetadataRecord>) -> MetadataImage {
    let offset = image.provenance.last_offset + records.len() as i64;
    image.apply(&records, offset, 1).unwrap().0
}

fn config(key: &str, value: &str) -> MetadataRecord {
    MetadataRecord::Config(ConfigRecord {
        resource_type: 2,
        resource_name: "t".into(),
        name: key.into(),
        value: Some(value.into()),
        ..Default::default()
    })
}

fn batch(n: usize) -> Bytes {
    let mut b = RecordBatchBuilder::new(Compression::None);
    for i in 0..n {
        b.append(1_000, None, Some(format!("value-{i:04}").as_bytes()), &[]);
    }
    b.build().unwrap()
}

#[test]
fn the_hosted_partitions_follow_the_image() {
    let dir = tempfile::tempdir().unwrap();
    let logs = Arc::new(LogDir::open(dir.path(), |_| Default::default()).unwrap().0);
    let rm = ReplicaManager::new(1, logs, Default::default());
    let image = apply(
        MetadataImage::empty(),
        vec![
            MetadataRecord::Topic(TopicRecord {
                name: "t".into(),
                topic_id: TOPIC,
                ..Default::default()
            }),
            config("segment.bytes", "1024"),
            MetadataRecord::Partition(PartitionRecord {
                partition_id: 0,
                topic_id: TOPIC,
                replicas: vec![1, 2],
                isr: vec![1],
                leader: 1,
                ..Default::default()
            }),
            MetadataRecord::Partition(PartitionRecord {
                partition_id: 1,
                topic_id: TOPIC,
                replicas: vec![2],
                isr: vec![2],
                leader: 2,
                ..Default::default()
            }),
        ],
    );
    rm.apply(&image).unwrap();
    assert_eq!(rm.len(), 1, "only the partition with a replica here");
    let p = rm.get(TOPIC, 0).unwrap();
    assert!(dir.path().join("t-0").is_dir());
    assert_eq!(p.log.config().segment_bytes, 1024);
    assert_eq!(p.leadership().leader, 1);
    // Appends advance the high watermark while this leader is the whole ISR.
    for _ in 0..20 {
        p.log.append_as_leader(batch(10), 0, 2_000).unwrap();
        p.after_append();
    }
    assert_eq!(p.log.high_watermark(), 200);
    assert!(p.log.segment_count() > 1, "rolled at 1 KiB segments");
    // A config change reaches the log; retention by size deletes old segments.
    let image = apply(image, vec![config("retention.bytes", "2048")]);
    rm.apply(&image).unwrap();
    assert_eq!(p.log.config().retention_bytes, 2048);
    let before = p.log.segment_count();
    assert!(rm.apply_retention(3_000) > 0);
    assert!(p.log.segment_count() < before);
    assert!(p.log.log_start_offset() > 0);
    // Leadership moves with the image.
    let image = apply(
        image,
        vec![MetadataRecord::PartitionChange(PartitionChangeRecord {
            partition_id: 0,
            topic_id: TOPIC,
            leader: 2,
            isr: Some(vec![2]),
            ..Default::default()
        })],
    );
    rm.apply(&image).unwrap();
    assert_eq!(p.leadership().leader, 2);
    // The topic is deleted: its log goes.
    let image = apply(
        image,
        vec![MetadataRecord::RemoveTopic(RemoveTopicRecord {
            topic_id: TOPIC,
            ..Default::default()
        })],
    );
    rm.apply(&image).unwrap();
    assert!(rm.is_empty());
    assert!(!dir.path().join("t-0").exists());
}

/// After a restart without a clean shutdown, a leader that is its partition's whole ISR has
/// committed its whole log: consumers read what was acknowledged before the crash at once,
/// not after the next append (the high watermark checkpoint may lag).
#[test]
fn a_reopened_sole_replica_leader_commits_its_whole_log() {
    let dir = tempfile::tempdir().unwrap();
    let image = apply(
        MetadataImage::empty(),
        common::sole_replica_topic("t", TOPIC).to_vec(),
    );
    {
        let logs = Arc::new(LogDir::open(dir.path(), |_| Default::default()).unwrap().0);
        let rm = ReplicaManager::new(1, logs, Default::default());
        rm.apply(&image).unwrap();
        let p = rm.get(TOPIC, 0).unwrap();
        p.log.append_as_leader(batch(5), 0, 1_000).unwrap();
        p.after_append();
        assert_eq!(p.log.high_watermark(), 5);
        // No checkpoint, no clean shutdown: the process "dies" here.
    }
    let logs = Arc::new(LogDir::open(dir.path(), |_| Default::default()).unwrap().0);
    let rm = ReplicaManager::new(1, logs, Default::default());
    rm.apply(&image).unwrap();
    let p = rm.get(TOPIC, 0).unwrap();
    assert_eq!(p.log.log_end_offset(), 5);
    assert_eq!(p.log.high_watermark(), 5);
}

#[test]
fn a_replica_deleted_under_its_work_does_not_take_the_dir_offline() {
    let dir = tempfile::tempdir().unwrap();
    // A dir with an id (a formatted one): only such a dir is taken offline.
    fjord_log::MetaProperties {
        cluster_id: "c".into(),
        node_id: 1,
        directory_id: Uuid::from_u128(77),
    }
    .write(dir.path())
    .unwrap();
    let logs = Arc::new(LogDir::open(dir.path(), |_| Default::default()).unwrap().0);
    let rm = ReplicaManager::new(1, logs, Default::default());
    const OTHER: Uuid = Uuid::from_u128(43);
    let mut records = common::sole_replica_topic("t", TOPIC).to_vec();
    records.extend(common::sole_replica_topic("u", OTHER));
    let image = apply(MetadataImage::empty(), records);
    rm.apply(&image).unwrap();
    let p = rm.get(TOPIC, 0).unwrap();
    // The replica leaves this broker while work on it (a fetcher's append) still holds it:
    // its directory is deleted under the work, whose next write fails.
    let gone = apply(
        image,
        vec![MetadataRecord::RemoveTopic(RemoveTopicRecord {
            topic_id: TOPIC,
            ..Default::default()
        })],
    );
    rm.apply(&gone).unwrap();
    let write = |epoch| {
        let mut b = RecordBatchBuilder::new(Compression::None);
        b.append(1_000, None, Some(b"v"), &[]);
        // A new leader epoch writes the leader-epoch checkpoint in the deleted directory.
        p.log.append_as_leader(b.build().unwrap(), epoch, 1_000)
    };
    let err = write(7).expect_err("the directory is gone");
    assert!(rm.partition_storage_error(&p, err).is_ok());
    let online = || rm.dirs().all().iter().all(|d| d.is_online());
    assert!(online(), "a deleted replica's error failed the dir");
    // The same error from a replica still hosted is the disk's: the dir goes offline.
    let hosted = rm.get(OTHER, 0).unwrap();
    let err = write(8).expect_err("the directory is gone");
    assert!(rm.partition_storage_error(&hosted, err).is_ok());
    assert!(
        !online(),
        "a hosted replica's storage error leaves the dir online"
    );
}
