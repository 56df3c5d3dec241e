//! KIP-848's consumer-group records in `__consumer_offsets`, in Kafka's layout (the key's
//! `int16` prefix is its type, 3 to 8, and the key's version; the value's prefix its version,
//! 0; a null value is a tombstone), and their fold: per group, the group epoch, the members,
//! the target assignment and each member's current assignment, the last record of each key
//! winning. A shard folds them when it loads, so a group written by a consumer-protocol
//! coordinator is kept as it was. Not written yet: the coordinator does not serve the consumer
//! protocol (issue 25).

use bytes::{BufMut, Bytes, BytesMut};
use fjord_protocol::generated::{
    consumer_group_current_member_assignment_key::ConsumerGroupCurrentMemberAssignmentKey as CurrentKey,
    consumer_group_current_member_assignment_value::ConsumerGroupCurrentMemberAssignmentValue as CurrentValue,
    consumer_group_member_metadata_key::ConsumerGroupMemberMetadataKey as MemberKey,
    consumer_group_member_metadata_value::ConsumerGroupMemberMetadataValue as MemberValue,
    consumer_group_metadata_key::ConsumerGroupMetadataKey as MetadataKey,
    consumer_group_metadata_value::ConsumerGroupMetadataValue as MetadataValue,
    consumer_group_partition_metadata_key::ConsumerGroupPartitionMetadataKey as PartitionsKey,
    consumer_group_partition_metadata_value::ConsumerGroupPartitionMetadataValue as PartitionsValue,
    consumer_group_target_assignment_member_key::ConsumerGroupTargetAssignmentMemberKey as TargetMemberKey,
    consumer_group_target_assignment_member_value::ConsumerGroupTargetAssignmentMemberValue as TargetMemberValue,
    consumer_group_target_assignment_metadata_key::ConsumerGroupTargetAssignmentMetadataKey as TargetKey,
    consumer_group_target_assignment_metadata_value::ConsumerGroupTargetAssignmentMetadataValue as TargetValue,
};
use fjord_protocol::DecodeError;
use std::collections::BTreeMap;

/// The version every consumer-group value is written at.
const VALUE_VERSION: i16 = 0;

/// One consumer-group record (each value None: its tombstone).
#[derive(Debug, Clone, PartialEq)]
pub enum ConsumerRecord {
    /// The group's epoch (key type 3).
    Metadata {
        /// The group.
        group: String,
        /// The value.
        value: Option<MetadataValue>,
    },
    /// The subscribed topics' metadata (key type 4; Kafka 4.1 stops writing it).
    Partitions {
        /// The group.
        group: String,
        /// The value.
        value: Option<PartitionsValue>,
    },
    /// A member's subscription and settings (key type 5).
    Member {
        /// The group.
        group: String,
        /// The member.
        member: String,
        /// The value.
        value: Option<MemberValue>,
    },
    /// The target assignment's epoch (key type 6).
    Target {
        /// The group.
        group: String,
        /// The value.
        value: Option<TargetValue>,
    },
    /// A member's target assignment (key type 7).
    TargetMember {
        /// The group.
        group: String,
        /// The member.
        member: String,
        /// The value.
        value: Option<TargetMemberValue>,
    },
    /// A member's current assignment, epochs and state (key type 8).
    Current {
        /// The group.
        group: String,
        /// The member.
        member: String,
        /// The value.
        value: Option<CurrentValue>,
    },
}

/// Writes the key type, then `key` at that version (or at `$kv`, for the key specs whose only
/// version is 0); the value (if any) after its version.
macro_rules! put {
    ($key:expr, $value:expr, $kt:expr, $k:expr, $v:expr) => {
        put!($key, $value, $kt, $k, $v, $kt)
    };
    ($key:expr, $value:expr, $kt:expr, $k:expr, $v:expr, $kv:expr) => {{
        $key.put_i16($kt);
        // The generated types encode at their own versions without fail.
        $k.encode(&mut $key, $kv).expect("group record key");
        $v.as_ref().map(|v| {
            $value.put_i16(VALUE_VERSION);
            v.encode(&mut $value, VALUE_VERSION)
                .expect("group record value");
        })
    }};
}
pub(crate) use put;

/// Folds one per-member record into `map`: its value, or its removal for a tombstone.
pub(crate) fn set<V>(map: &mut BTreeMap<String, V>, member: String, value: Option<V>) {
    match value {
        Some(v) => {
            map.insert(member, v);
        }
        None => {
            map.remove(&member);
        }
    }
}

/// Reads a value after its version prefix (None: a tombstone).
macro_rules! value {
    ($ty:ty, $v:expr) => {
        match $v {
            None => None,
            Some(v) => {
                let mut v = v.clone();
                let version = fjord_protocol::codec::read_i16(&mut v)?;
                Some(<$ty>::decode(&mut v, version)?)
            }
        }
    };
}
pub(crate) use value;

impl ConsumerRecord {
    /// The same key with a null value (its tombstone).
    pub fn tombstone(self) -> ConsumerRecord {
        match self {
            ConsumerRecord::Metadata { group, .. } => {
                ConsumerRecord::Metadata { group, value: None }
            }
            ConsumerRecord::Partitions { group, .. } => {
                ConsumerRecord::Partitions { group, value: None }
            }
            ConsumerRecord::Member { group, member, .. } => ConsumerRecord::Member {
                group,
                member,
                value: None,
            },
            ConsumerRecord::Target { group, .. } => ConsumerRecord::Target { group, value: None },
            ConsumerRecord::TargetMember { group, member, .. } => ConsumerRecord::TargetMember {
                group,
                member,
                value: None,
            },
            ConsumerRecord::Current { group, member, .. } => ConsumerRecord::Current {
                group,
                member,
                value: None,
            },
        }
    }

    /// The group it belongs to.
    pub fn group(&self) -> &str {
        match self {
            ConsumerRecord::Metadata { group, .. }
            | ConsumerRecord::Partitions { group, .. }
            | ConsumerRecord::Member { group, .. }
            | ConsumerRecord::Target { group, .. }
            | ConsumerRecord::TargetMember { group, .. }
            | ConsumerRecord::Current { group, .. } => group,
        }
    }

    /// Its key and value (None: a tombstone) as stored in the log.
    pub fn encode(&self) -> (Bytes, Option<Bytes>) {
        let (mut key, mut value) = (BytesMut::new(), BytesMut::new());
        let g = |group: &String| group.clone();
        let present = match self {
            ConsumerRecord::Metadata { group, value: v } => {
                put!(key, value, 3, MetadataKey { group_id: g(group) }, v)
            }
            ConsumerRecord::Partitions { group, value: v } => {
                put!(key, value, 4, PartitionsKey { group_id: g(group) }, v)
            }
            ConsumerRecord::Member {
                group,
                member,
                value: v,
            } => {
                let k = MemberKey {
                    group_id: g(group),
                    member_id: member.clone(),
                };
                put!(key, value, 5, k, v)
            }
            ConsumerRecord::Target { group, value: v } => {
                put!(key, value, 6, TargetKey { group_id: g(group) }, v)
            }
            ConsumerRecord::TargetMember {
                group,
                member,
                value: v,
            } => {
                let k = TargetMemberKey {
                    group_id: g(group),
                    member_id: member.clone(),
                };
                put!(key, value, 7, k, v)
            }
            ConsumerRecord::Current {
                group,
                member,
                value: v,
            } => {
                let k = CurrentKey {
                    group_id: g(group),
                    member_id: member.clone(),
                };
                put!(key, value, 8, k, v)
            }
        };
        (key.freeze(), present.map(|()| value.freeze()))
    }

    /// Reads the record of key type `key_type` (its key after the type prefix); None for a
    /// type that is not a consumer-group record.
    pub fn decode(
        key_type: i16,
        key: &mut Bytes,
        value: Option<&Bytes>,
    ) -> Result<Option<ConsumerRecord>, DecodeError> {
        Ok(Some(match key_type {
            3 => ConsumerRecord::Metadata {
                group: MetadataKey::decode(key, 3)?.group_id,
                value: value!(MetadataValue, value),
            },
            4 => ConsumerRecord::Partitions {
                group: PartitionsKey::decode(key, 4)?.group_id,
                value: value!(PartitionsValue, value),
            },
            5 => {
                let k = MemberKey::decode(key, 5)?;
                ConsumerRecord::Member {
                    group: k.group_id,
                    member: k.member_id,
                    value: value!(MemberValue, value),
                }
            }
            6 => ConsumerRecord::Target {
                group: TargetKey::decode(key, 6)?.group_id,
                value: value!(TargetValue, value),
            },
            7 => {
                let k = TargetMemberKey::decode(key, 7)?;
                ConsumerRecord::TargetMember {
                    group: k.group_id,
                    member: k.member_id,
                    value: value!(TargetMemberValue, value),
                }
            }
            8 => {
                let k = CurrentKey::decode(key, 8)?;
                ConsumerRecord::Current {
                    group: k.group_id,
                    member: k.member_id,
                    value: value!(CurrentValue, value),
                }
            }
            _ => return Ok(None),
        }))
    }
}

/// One consumer-protocol group as its records leave it.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ConsumerGroupFold {
    /// The group epoch.
    pub epoch: Option<i32>,
    /// The subscribed topics' metadata, if a coordinator wrote it.
    pub partitions: Option<PartitionsValue>,
    /// The members' subscriptions and settings.
    pub members: BTreeMap<String, MemberValue>,
    /// The target assignment's epoch.
    pub target_epoch: Option<i32>,
    /// Each member's target assignment.
    pub target: BTreeMap<String, TargetMemberValue>,
    /// Each member's current assignment.
    pub current: BTreeMap<String, CurrentValue>,
}

impl ConsumerGroupFold {
    /// True when no record of the group is left.
    pub fn is_empty(&self) -> bool {
        *self == ConsumerGroupFold::default()
    }
}

/// The consumer-protocol groups of a shard: the fold of their records.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ConsumerGroups {
    /// By group id.
    pub groups: BTreeMap<String, ConsumerGroupFold>,
}

impl ConsumerGroups {
    /// Folds one record in (a tombstone removes what its key held; a group with nothing left
    /// is gone).
    pub fn replay(&mut self, record: ConsumerRecord) {
        let id = record.group().to_string();
        let g = self.groups.entry(id.clone()).or_default();
        match record {
            ConsumerRecord::Metadata { value, .. } => g.epoch = value.map(|v| v.epoch),
            ConsumerRecord::Partitions { value, .. } => g.partitions = value,
            ConsumerRecord::Member { member, value, .. } => set(&mut g.members, member, value),
            ConsumerRecord::Target { value, .. } => {
                g.target_epoch = value.map(|v| v.assignment_epoch)
            }
            ConsumerRecord::TargetMember { member, value, .. } => set(&mut g.target, member, value),
            ConsumerRecord::Current { member, value, .. } => set(&mut g.current, member, value),
        }
        if g.is_empty() {
            self.groups.remove(&id);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::records::GroupRecord;
    use fjord_protocol::generated::consumer_group_current_member_assignment_value::TopicPartitions;

    fn member(group: &str, id: &str, topics: &[&str]) -> ConsumerRecord {
        ConsumerRecord::Member {
            group: group.into(),
            member: id.into(),
            value: Some(MemberValue {
                client_id: "c".into(),
                client_host: "/127.0.0.1".into(),
                subscribed_topic_names: topics.iter().map(|t| t.to_string()).collect(),
                rebalance_timeout_ms: 300_000,
                server_assignor: Some("uniform".into()),
                ..Default::default()
            }),
        }
    }

    fn current(group: &str, id: &str, epoch: i32) -> ConsumerRecord {
        ConsumerRecord::Current {
            group: group.into(),
            member: id.into(),
            value: Some(CurrentValue {
                member_epoch: epoch,
                previous_member_epoch: epoch - 1,
                assigned_partitions: vec![TopicPartitions {
                    partitions: vec![0, 1],
                    ..Default::default()
                }],
                ..Default::default()
            }),
        }
    }

    #[test]
    fn every_record_type_round_trips_in_kafkas_layout() {
        let records = vec![
            ConsumerRecord::Metadata {
                group: "g".into(),
                value: Some(MetadataValue {
                    epoch: 4,
                    ..Default::default()
                }),
            },
            ConsumerRecord::Partitions {
                group: "g".into(),
                value: Some(PartitionsValue::default()),
            },
            member("g", "m", &["t"]),
            ConsumerRecord::Target {
                group: "g".into(),
                value: Some(TargetValue {
                    assignment_epoch: 4,
                    ..Default::default()
                }),
            },
            ConsumerRecord::TargetMember {
                group: "g".into(),
                member: "m".into(),
                value: Some(TargetMemberValue::default()),
            },
            current("g", "m", 4),
            current("g", "m", 4).tombstone(),
        ];
        for r in records {
            let (k, v) = GroupRecord::Consumer(r.clone()).encode();
            assert_eq!(
                GroupRecord::decode(&k, v.as_ref()).unwrap(),
                Some(GroupRecord::Consumer(r))
            );
        }
        // Kafka's layout: type (and key version) 5, group and member as int16-length strings;
        // the value's version 0.
        let (k, v) = member("g", "m", &["t"]).encode();
        assert_eq!(&k[..], b"\x00\x05\x00\x01g\x00\x01m");
        assert_eq!(&v.unwrap()[..2], b"\x00\x00");
    }

    #[test]
    fn the_groups_are_the_fold_of_their_records() {
        let mut groups = ConsumerGroups::default();
        for r in [
            member("g", "a", &["t"]),
            member("g", "b", &["t"]),
            member("g", "a", &["t", "u"]),
            current("g", "a", 3),
            ConsumerRecord::Metadata {
                group: "g".into(),
                value: Some(MetadataValue {
                    epoch: 3,
                    ..Default::default()
                }),
            },
            member("g", "b", &[]).tombstone(),
        ] {
            groups.replay(r);
        }
        let g = &groups.groups["g"];
        assert_eq!(g.epoch, Some(3));
        assert_eq!(g.members.keys().collect::<Vec<_>>(), vec!["a"]);
        assert_eq!(g.members["a"].subscribed_topic_names, vec!["t", "u"]);
        assert_eq!(g.current["a"].member_epoch, 3);
        // Every key deleted: the group is gone.
        for r in [
            member("g", "a", &[]).tombstone(),
            current("g", "a", 3).tombstone(),
            ConsumerRecord::Metadata {
                group: "g".into(),
                value: None,
            },
        ] {
            groups.replay(r);
        }
        assert!(groups.groups.is_empty());
    }

    #[test]
    fn a_shard_loading_the_log_keeps_the_consumer_groups() {
        let mut shard = crate::Shard::new(crate::GroupConfig::default(), 1);
        let (k, v) = member("g", "a", &["t"]).encode();
        let record = GroupRecord::decode(&k, v.as_ref()).unwrap().unwrap();
        shard.replay(record, 0);
        assert_eq!(shard.consumer_groups().groups["g"].members.len(), 1);
        assert!(shard.group("g").is_none(), "not a classic group");
    }
}
