//! The `__consumer_offsets` records in Kafka's format: a key and a value, each prefixed by an
//! `int16`. Key type 0 or 1 is an offset commit (`OffsetCommitKey`), 2 is a group's metadata
//! (`GroupMetadataKey`), 3 to 8 the consumer-protocol groups' records (KIP-848,
//! [`crate::consumer_records`]), 10 to 15 the share groups' (KIP-932,
//! [`crate::share_records`]), 17 and 19 to 23 the streams groups' (KIP-1071,
//! [`crate::streams::records`]); the value's prefix is its version; a null value is a
//! tombstone. Other key types are skipped when loading.

use bytes::{BufMut, Bytes, BytesMut};
use fjord_protocol::generated::{
    group_metadata_key::GroupMetadataKey, group_metadata_value::GroupMetadataValue,
    offset_commit_key::OffsetCommitKey, offset_commit_value::OffsetCommitValue,
};
use fjord_protocol::DecodeError;

/// The key type of an offset commit as Kafka writes it.
const OFFSET_KEY_TYPE: i16 = 1;
/// The key type of a group's metadata.
const GROUP_KEY_TYPE: i16 = 2;
/// The OffsetCommitValue version written (leader epoch, no expire timestamp).
const OFFSET_VALUE_VERSION: i16 = 3;
/// The OffsetCommitValue version written when an expire timestamp is kept (v2-4 commits with
/// a retention time).
const OFFSET_VALUE_EXPIRING_VERSION: i16 = 1;
/// The GroupMetadataValue version written (static members, current-state timestamp).
const GROUP_VALUE_VERSION: i16 = 3;

/// One `__consumer_offsets` record.
#[derive(Debug, Clone, PartialEq)]
pub enum GroupRecord {
    /// A committed offset (None: its tombstone).
    Offset {
        /// The group.
        group: String,
        /// The topic.
        topic: String,
        /// The partition.
        partition: i32,
        /// The value.
        value: Option<OffsetCommitValue>,
    },
    /// A group's metadata after a rebalance (None: the group was deleted).
    Group {
        /// The group.
        group: String,
        /// The value.
        value: Option<GroupMetadataValue>,
    },
    /// A consumer-protocol group's record (KIP-848).
    Consumer(crate::consumer_records::ConsumerRecord),
    /// A share group's record (KIP-932).
    Share(crate::share_records::ShareRecord),
    /// A streams group's record (KIP-1071).
    Streams(crate::streams::records::StreamsRecord),
}

impl GroupRecord {
    /// The group it belongs to.
    pub fn group(&self) -> &str {
        match self {
            GroupRecord::Offset { group, .. } | GroupRecord::Group { group, .. } => group,
            GroupRecord::Consumer(r) => r.group(),
            GroupRecord::Share(r) => r.group(),
            GroupRecord::Streams(r) => r.group(),
        }
    }

    /// Its key and value (None: a tombstone) as stored in the log.
    pub fn encode(&self) -> (Bytes, Option<Bytes>) {
        match self {
            GroupRecord::Consumer(r) => return r.encode(),
            GroupRecord::Share(r) => return r.encode(),
            GroupRecord::Streams(r) => return r.encode(),
            _ => {}
        }
        let mut key = BytesMut::new();
        let mut value = BytesMut::new();
        // Encoding the generated types at a version they support cannot fail.
        let present = match self {
            GroupRecord::Offset {
                group,
                topic,
                partition,
                value: v,
            } => {
                key.put_i16(OFFSET_KEY_TYPE);
                let k = OffsetCommitKey {
                    group: group.clone(),
                    topic: topic.clone(),
                    partition: *partition,
                };
                k.encode(&mut key, 0).expect("offset key");
                v.as_ref().map(|v| {
                    let version = if v.expire_timestamp >= 0 {
                        OFFSET_VALUE_EXPIRING_VERSION
                    } else {
                        OFFSET_VALUE_VERSION
                    };
                    value.put_i16(version);
                    v.encode(&mut value, version).expect("offset value");
                })
            }
            GroupRecord::Group { group, value: v } => {
                key.put_i16(GROUP_KEY_TYPE);
                let k = GroupMetadataKey {
                    group: group.clone(),
                };
                k.encode(&mut key, 0).expect("group key");
                v.as_ref().map(|v| {
                    value.put_i16(GROUP_VALUE_VERSION);
                    v.encode(&mut value, GROUP_VALUE_VERSION)
                        .expect("group value");
                })
            }
            GroupRecord::Consumer(_) | GroupRecord::Share(_) | GroupRecord::Streams(_) => {
                unreachable!("encoded above")
            }
        };
        (key.freeze(), present.map(|()| value.freeze()))
    }

    /// Reads a stored record; `Ok(None)` for key types this coordinator does not keep.
    pub fn decode(key: &Bytes, value: Option<&Bytes>) -> Result<Option<GroupRecord>, DecodeError> {
        let mut k = key.clone();
        let key_type = fjord_protocol::codec::read_i16(&mut k)?;
        let value_version = |v: &Bytes| -> Result<(Bytes, i16), DecodeError> {
            let mut v = v.clone();
            let version = fjord_protocol::codec::read_i16(&mut v)?;
            Ok((v, version))
        };
        Ok(match key_type {
            0 | 1 => {
                let k = OffsetCommitKey::decode(&mut k, 0)?;
                let value = match value {
                    None => None,
                    Some(v) => {
                        let (mut v, version) = value_version(v)?;
                        Some(OffsetCommitValue::decode(&mut v, version)?)
                    }
                };
                Some(GroupRecord::Offset {
                    group: k.group,
                    topic: k.topic,
                    partition: k.partition,
                    value,
                })
            }
            GROUP_KEY_TYPE => {
                let k = GroupMetadataKey::decode(&mut k, 0)?;
                let value = match value {
                    None => None,
                    Some(v) => {
                        let (mut v, version) = value_version(v)?;
                        Some(GroupMetadataValue::decode(&mut v, version)?)
                    }
                };
                Some(GroupRecord::Group {
                    group: k.group,
                    value,
                })
            }
            10..=15 => crate::share_records::ShareRecord::decode(key_type, &mut k, value)?
                .map(GroupRecord::Share),
            17..=23 => crate::streams::records::StreamsRecord::decode(key_type, &mut k, value)?
                .map(GroupRecord::Streams),
            other => crate::consumer_records::ConsumerRecord::decode(other, &mut k, value)?
                .map(GroupRecord::Consumer),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use fjord_protocol::generated::group_metadata_value::MemberMetadata;

    #[test]
    fn records_round_trip_in_kafkas_layout() {
        let offset = GroupRecord::Offset {
            group: "g".into(),
            topic: "t".into(),
            partition: 3,
            value: Some(OffsetCommitValue {
                offset: 42,
                leader_epoch: 7,
                metadata: "m".into(),
                commit_timestamp: 1000,
                ..Default::default()
            }),
        };
        let (k, v) = offset.encode();
        // Kafka's layout: type 1, then group, topic, partition as int16-length strings.
        assert_eq!(&k[..], b"\x00\x01\x00\x01g\x00\x01t\x00\x00\x00\x03");
        assert_eq!(&v.as_ref().unwrap()[..2], b"\x00\x03");
        assert_eq!(GroupRecord::decode(&k, v.as_ref()).unwrap(), Some(offset));
        let group = GroupRecord::Group {
            group: "g".into(),
            value: Some(GroupMetadataValue {
                protocol_type: "consumer".into(),
                generation: 4,
                protocol: Some("range".into()),
                leader: Some("c-1".into()),
                current_state_timestamp: 5,
                members: vec![MemberMetadata {
                    member_id: "c-1".into(),
                    group_instance_id: Some("i".into()),
                    client_id: "c".into(),
                    client_host: "/127.0.0.1".into(),
                    rebalance_timeout: 300,
                    session_timeout: 45,
                    subscription: Bytes::from_static(b"s"),
                    assignment: Bytes::from_static(b"a"),
                    ..Default::default()
                }],
                ..Default::default()
            }),
        };
        let (k, v) = group.encode();
        assert_eq!(GroupRecord::decode(&k, v.as_ref()).unwrap(), Some(group));
        let tombstone = GroupRecord::Group {
            group: "g".into(),
            value: None,
        };
        let (k, v) = tombstone.encode();
        assert!(v.is_none());
        assert_eq!(GroupRecord::decode(&k, None).unwrap(), Some(tombstone));
        // An unknown record type is skipped, a truncated key is an error.
        assert_eq!(
            GroupRecord::decode(&Bytes::from_static(b"\x00\x10\x00\x01g"), None).unwrap(),
            None
        );
        assert!(GroupRecord::decode(&Bytes::from_static(b"\x00"), None).is_err());
    }
}
