//! DescribeTopicPartitions (KIP-966's describe API, key 75): topics with their partitions'
//! leaders, ISR, ELR and last known ELR, paged by a cursor, as a pure function of the image.
//! Kafka's admin client uses it in place of Metadata to describe topics.

use crate::api::metadata::{offline_replicas, partition_error, INTERNAL_TOPICS};
use fjord_metadata::MetadataImage;
use fjord_protocol::generated::{
    describe_topic_partitions_request::DescribeTopicPartitionsRequest,
    describe_topic_partitions_response::{
        Cursor, DescribeTopicPartitionsResponse, DescribeTopicPartitionsResponsePartition,
        DescribeTopicPartitionsResponseTopic,
    },
};
use fjord_protocol::ErrorCode;

/// The most partitions one answer carries (Kafka's `max.request.partition.size.limit`
/// default); a request asking for more gets this many and a cursor.
pub const MAX_PARTITIONS_PER_RESPONSE: usize = 2000;

/// The answer: the requested topics (every topic when none is named) in name order, from the
/// cursor on, at most min(ResponsePartitionLimit, [`MAX_PARTITIONS_PER_RESPONSE`]) partitions,
/// with a next cursor where it stopped.
pub fn describe_topic_partitions(
    image: &MetadataImage,
    r: &DescribeTopicPartitionsRequest,
) -> DescribeTopicPartitionsResponse {
    let limit = usize::try_from(r.response_partition_limit)
        .unwrap_or(0)
        .clamp(1, MAX_PARTITIONS_PER_RESPONSE);
    let mut names: Vec<String> = if r.topics.is_empty() {
        image.topics.by_name.keys().cloned().collect()
    } else {
        r.topics.iter().map(|t| t.name.clone()).collect()
    };
    names.sort();
    names.dedup();
    let (start_topic, start_partition) = match &r.cursor {
        Some(c) => (Some(c.topic_name.as_str()), c.partition_index.max(0)),
        None => (None, 0),
    };
    let mut topics = Vec::new();
    let mut budget = limit;
    let mut next_cursor = None;
    for name in names
        .iter()
        .filter(|n| start_topic.is_none_or(|s| n.as_str() >= s))
    {
        let Some(t) = image.topics.get_by_name(name) else {
            topics.push(DescribeTopicPartitionsResponseTopic {
                error_code: ErrorCode::UnknownTopicOrPartition.code(),
                name: Some(name.clone()),
                ..Default::default()
            });
            continue;
        };
        let first = if start_topic == Some(name.as_str()) {
            start_partition
        } else {
            0
        };
        if budget == 0 {
            next_cursor = Some(Cursor {
                topic_name: name.clone(),
                partition_index: first,
                ..Default::default()
            });
            break;
        }
        let mut partitions = Vec::new();
        for (index, p) in t.partitions.range(first..) {
            if budget == 0 {
                next_cursor = Some(Cursor {
                    topic_name: name.clone(),
                    partition_index: *index,
                    ..Default::default()
                });
                break;
            }
            budget -= 1;
            partitions.push(DescribeTopicPartitionsResponsePartition {
                error_code: partition_error(p),
                partition_index: *index,
                leader_id: p.leader,
                leader_epoch: p.leader_epoch,
                replica_nodes: p.replicas.clone(),
                isr_nodes: p.isr.clone(),
                eligible_leader_replicas: Some(p.elr.clone()),
                last_known_elr: Some(p.last_known_elr.clone()),
                offline_replicas: offline_replicas(image, p),
                ..Default::default()
            });
        }
        topics.push(DescribeTopicPartitionsResponseTopic {
            name: Some(t.name.clone()),
            topic_id: t.id,
            is_internal: INTERNAL_TOPICS.contains(&t.name.as_str()),
            partitions,
            ..Default::default()
        });
        if next_cursor.is_some() {
            break;
        }
    }
    DescribeTopicPartitionsResponse {
        topics,
        next_cursor,
        ..Default::default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use fjord_protocol::generated::describe_topic_partitions_request::{
        Cursor as RequestCursor, TopicRequest,
    };
    use fjord_protocol::generated::{partition_record::PartitionRecord, topic_record::TopicRecord};
    use fjord_protocol::{MetadataRecord, Uuid};

    /// Topics "a" (3 partitions) and "b" (2), partition a-2 offline with ELR [2] and last
    /// known ELR [3].
    fn image() -> MetadataImage {
        let mut records = Vec::new();
        for (n, (name, count)) in [("a", 3), ("b", 2)].into_iter().enumerate() {
            let id = Uuid::from_u128(n as u128 + 1);
            records.push(MetadataRecord::Topic(TopicRecord {
                name: name.into(),
                topic_id: id,
                ..Default::default()
            }));
            for p in 0..count {
                let offline = name == "a" && p == 2;
                records.push(MetadataRecord::Partition(PartitionRecord {
                    partition_id: p,
                    topic_id: id,
                    replicas: vec![1, 2, 3],
                    isr: if offline { vec![] } else { vec![1, 2, 3] },
                    eligible_leader_replicas: offline.then(|| vec![2]),
                    last_known_elr: offline.then(|| vec![3]),
                    leader: if offline { -1 } else { 1 },
                    ..Default::default()
                }));
            }
        }
        MetadataImage::empty().apply(&records, 10, 1).unwrap().0
    }

    fn request(
        names: &[&str],
        limit: i32,
        cursor: Option<(&str, i32)>,
    ) -> DescribeTopicPartitionsRequest {
        DescribeTopicPartitionsRequest {
            topics: names
                .iter()
                .map(|n| TopicRequest {
                    name: n.to_string(),
                    ..Default::default()
                })
                .collect(),
            response_partition_limit: limit,
            cursor: cursor.map(|(t, p)| RequestCursor {
                topic_name: t.into(),
                partition_index: p,
                ..Default::default()
            }),
            ..Default::default()
        }
    }

    fn listed(r: &DescribeTopicPartitionsResponse) -> Vec<(String, i32)> {
        r.topics
            .iter()
            .flat_map(|t| {
                t.partitions
                    .iter()
                    .map(|p| (t.name.clone().unwrap_or_default(), p.partition_index))
            })
            .collect()
    }

    #[test]
    fn pages_through_every_topic_with_a_cursor() {
        let image = image();
        let first = describe_topic_partitions(&image, &request(&[], 2, None));
        assert_eq!(listed(&first), [("a".to_string(), 0), ("a".into(), 1)]);
        let c = first.next_cursor.clone().expect("a cursor");
        assert_eq!((c.topic_name.as_str(), c.partition_index), ("a", 2));
        let second = describe_topic_partitions(&image, &request(&[], 2, Some(("a", 2))));
        assert_eq!(listed(&second), [("a".to_string(), 2), ("b".into(), 0)]);
        let offline = &second.topics[0].partitions[0];
        assert_eq!(offline.error_code, ErrorCode::LeaderNotAvailable.code());
        assert_eq!(offline.eligible_leader_replicas, Some(vec![2]));
        assert_eq!(offline.last_known_elr, Some(vec![3]));
        let third = describe_topic_partitions(&image, &request(&[], 2, Some(("b", 1))));
        assert_eq!(listed(&third), [("b".to_string(), 1)]);
        assert_eq!(third.next_cursor, None);
    }

    #[test]
    fn unknown_names_are_reported_and_the_limit_is_capped() {
        let image = image();
        let r = describe_topic_partitions(&image, &request(&["zz", "b"], 1_000_000, None));
        assert_eq!(listed(&r).len(), 2);
        assert_eq!(r.topics[1].name.as_deref(), Some("zz"));
        assert_eq!(
            r.topics[1].error_code,
            ErrorCode::UnknownTopicOrPartition.code()
        );
        assert_eq!(r.next_cursor, None);
    }
}
