//! The consumer protocol payloads the tools write and read (the codec is generated from
//! Kafka's specs, `fjord_protocol::consumer_protocol`): a member's subscription (JoinGroup
//! metadata) and its assignment (SyncGroup, DescribeGroups), written at version 0. One topic
//! per subscription is all the tools write; reading takes any number and any version. A
//! payload that does not parse reads as empty.

use fjord_protocol::consumer_protocol::{
    decode_assignment, decode_subscription, encode_assignment, encode_subscription,
};
use fjord_protocol::generated::consumer_protocol_assignment::{
    ConsumerProtocolAssignment, TopicPartition,
};
use fjord_protocol::generated::consumer_protocol_subscription::ConsumerProtocolSubscription;

/// ConsumerProtocolSubscription v0 for one topic.
pub fn subscription(topic: &str) -> bytes::Bytes {
    let s = ConsumerProtocolSubscription {
        topics: vec![topic.to_string()],
        ..Default::default()
    };
    encode_subscription(&s, 0).unwrap_or_default()
}

/// The topics of a ConsumerProtocolSubscription.
pub fn subscribed_topics(bytes: &[u8]) -> Vec<String> {
    decode_subscription(bytes)
        .map(|s| s.topics)
        .unwrap_or_default()
}

/// ConsumerProtocolAssignment v0 of one topic's partitions.
pub fn assignment_bytes(topic: &str, partitions: &[i32]) -> bytes::Bytes {
    let a = ConsumerProtocolAssignment {
        assigned_partitions: vec![TopicPartition {
            topic: topic.to_string(),
            partitions: partitions.to_vec(),
        }],
        ..Default::default()
    };
    encode_assignment(&a, 0).unwrap_or_default()
}

/// The (topic, partition) pairs of a ConsumerProtocolAssignment.
pub fn assignment(bytes: &[u8]) -> Vec<(String, i32)> {
    let Ok(a) = decode_assignment(bytes) else {
        return Vec::new();
    };
    a.assigned_partitions
        .into_iter()
        .flat_map(|t| {
            let topic = t.topic;
            t.partitions.into_iter().map(move |p| (topic.clone(), p))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_a_consumer_protocol_assignment() {
        // Version 0; one topic "t" with partitions 0 and 2; no user data.
        let mut b = vec![
            0, 0, 0, 0, 0, 1, 0, 1, b't', 0, 0, 0, 2, 0, 0, 0, 0, 0, 0, 0, 2,
        ];
        b.extend_from_slice(&[0xff, 0xff, 0xff, 0xff]);
        assert_eq!(assignment(&b), vec![("t".to_string(), 0), ("t".into(), 2)]);
        assert_eq!(assignment_bytes("t", &[0, 2]), b);
        assert!(assignment(&[0, 0, 0]).is_empty());
    }

    #[test]
    fn subscriptions_round_trip() {
        assert_eq!(subscribed_topics(&subscription("orders")), vec!["orders"]);
        assert!(subscribed_topics(&[0]).is_empty());
    }
}
