//! What the broker's process-free tests share: the metadata records of a topic whose one
//! partition has a single replica on broker 1, which leads it.

use fjord_protocol::generated::{partition_record::PartitionRecord, topic_record::TopicRecord};
use fjord_protocol::{MetadataRecord, Uuid};

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
