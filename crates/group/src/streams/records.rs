//! KIP-1071's streams-group records in `__consumer_offsets`, in Kafka's layout (key types 17
//! and 19 to 23, each key at version 0 after its type; values at version 0; a null value is
//! a tombstone), and their fold: per streams group, the group epoch and metadata, the
//! topology, the members, the target assignment and each member's current assignment.

use crate::consumer_records::{put, set, value};
use bytes::{BufMut, Bytes, BytesMut};
use fjord_protocol::generated::{
    streams_group_current_member_assignment_key::StreamsGroupCurrentMemberAssignmentKey as CurrentKey,
    streams_group_current_member_assignment_value::StreamsGroupCurrentMemberAssignmentValue as CurrentValue,
    streams_group_member_metadata_key::StreamsGroupMemberMetadataKey as MemberKey,
    streams_group_member_metadata_value::StreamsGroupMemberMetadataValue as MemberValue,
    streams_group_metadata_key::StreamsGroupMetadataKey as MetadataKey,
    streams_group_metadata_value::StreamsGroupMetadataValue as MetadataValue,
    streams_group_target_assignment_member_key::StreamsGroupTargetAssignmentMemberKey as TargetMemberKey,
    streams_group_target_assignment_member_value::StreamsGroupTargetAssignmentMemberValue as TargetMemberValue,
    streams_group_target_assignment_metadata_key::StreamsGroupTargetAssignmentMetadataKey as TargetKey,
    streams_group_target_assignment_metadata_value::StreamsGroupTargetAssignmentMetadataValue as TargetValue,
    streams_group_topology_key::StreamsGroupTopologyKey as TopologyKey,
    streams_group_topology_value::StreamsGroupTopologyValue as TopologyValue,
};
use fjord_protocol::DecodeError;
use std::collections::BTreeMap;

/// The version every streams-group value is written at.
const VALUE_VERSION: i16 = 0;
/// The key type of a streams group's metadata (its epoch).
pub const METADATA_KEY_TYPE: i16 = 17;
/// The key type of a member's metadata.
pub const MEMBER_KEY_TYPE: i16 = 19;
/// The key type of the target assignment's epoch.
pub const TARGET_KEY_TYPE: i16 = 20;
/// The key type of a member's target assignment.
pub const TARGET_MEMBER_KEY_TYPE: i16 = 21;
/// The key type of a member's current assignment.
pub const CURRENT_KEY_TYPE: i16 = 22;
/// The key type of the group's topology.
pub const TOPOLOGY_KEY_TYPE: i16 = 23;

/// One streams-group record: the group, the member for per-member kinds, and the value
/// (None: its tombstone).
#[derive(Debug, Clone, PartialEq)]
pub enum StreamsRecord {
    /// Key type 17: the group epoch and metadata.
    Metadata(String, Option<MetadataValue>),
    /// Key type 19: a member's process, endpoint, client tags and topology epoch.
    Member(String, String, Option<MemberValue>),
    /// Key type 20: the target assignment's epoch.
    Target(String, Option<TargetValue>),
    /// Key type 21: a member's target tasks.
    TargetMember(String, String, Option<TargetMemberValue>),
    /// Key type 22: a member's current tasks and epochs.
    Current(String, String, Option<CurrentValue>),
    /// Key type 23: the group's topology.
    Topology(String, Option<TopologyValue>),
}

impl StreamsRecord {
    /// The group it belongs to.
    pub fn group(&self) -> &str {
        match self {
            StreamsRecord::Metadata(g, _)
            | StreamsRecord::Member(g, ..)
            | StreamsRecord::Target(g, _)
            | StreamsRecord::TargetMember(g, ..)
            | StreamsRecord::Current(g, ..)
            | StreamsRecord::Topology(g, _) => g,
        }
    }

    /// The same key with a null value.
    pub fn tombstone(&self) -> StreamsRecord {
        match self {
            StreamsRecord::Metadata(g, _) => StreamsRecord::Metadata(g.clone(), None),
            StreamsRecord::Member(g, m, _) => StreamsRecord::Member(g.clone(), m.clone(), None),
            StreamsRecord::Target(g, _) => StreamsRecord::Target(g.clone(), None),
            StreamsRecord::TargetMember(g, m, _) => {
                StreamsRecord::TargetMember(g.clone(), m.clone(), None)
            }
            StreamsRecord::Current(g, m, _) => StreamsRecord::Current(g.clone(), m.clone(), None),
            StreamsRecord::Topology(g, _) => StreamsRecord::Topology(g.clone(), None),
        }
    }

    /// Its key and value (None: a tombstone) as stored in the log.
    pub fn encode(&self) -> (Bytes, Option<Bytes>) {
        let (mut key, mut value) = (BytesMut::new(), BytesMut::new());
        let member_key = |g: &String, m: &String| (g.clone(), m.clone());
        let present = match self {
            StreamsRecord::Metadata(g, v) => {
                put!(
                    key,
                    value,
                    METADATA_KEY_TYPE,
                    MetadataKey {
                        group_id: g.clone()
                    },
                    v,
                    0
                )
            }
            StreamsRecord::Member(g, m, v) => {
                let (group_id, member_id) = member_key(g, m);
                let k = MemberKey {
                    group_id,
                    member_id,
                };
                put!(key, value, MEMBER_KEY_TYPE, k, v, 0)
            }
            StreamsRecord::Target(g, v) => {
                put!(
                    key,
                    value,
                    TARGET_KEY_TYPE,
                    TargetKey {
                        group_id: g.clone()
                    },
                    v,
                    0
                )
            }
            StreamsRecord::TargetMember(g, m, v) => {
                let (group_id, member_id) = member_key(g, m);
                let k = TargetMemberKey {
                    group_id,
                    member_id,
                };
                put!(key, value, TARGET_MEMBER_KEY_TYPE, k, v, 0)
            }
            StreamsRecord::Current(g, m, v) => {
                let (group_id, member_id) = member_key(g, m);
                let k = CurrentKey {
                    group_id,
                    member_id,
                };
                put!(key, value, CURRENT_KEY_TYPE, k, v, 0)
            }
            StreamsRecord::Topology(g, v) => {
                put!(
                    key,
                    value,
                    TOPOLOGY_KEY_TYPE,
                    TopologyKey {
                        group_id: g.clone()
                    },
                    v,
                    0
                )
            }
        };
        (key.freeze(), present.map(|()| value.freeze()))
    }

    /// Reads the record of key type `key_type` (its key after the type prefix); None for a
    /// type that is not a streams-group record.
    pub fn decode(
        key_type: i16,
        key: &mut Bytes,
        value: Option<&Bytes>,
    ) -> Result<Option<StreamsRecord>, DecodeError> {
        Ok(Some(match key_type {
            METADATA_KEY_TYPE => StreamsRecord::Metadata(
                MetadataKey::decode(key, 0)?.group_id,
                value!(MetadataValue, value),
            ),
            MEMBER_KEY_TYPE => {
                let k = MemberKey::decode(key, 0)?;
                StreamsRecord::Member(k.group_id, k.member_id, value!(MemberValue, value))
            }
            TARGET_KEY_TYPE => StreamsRecord::Target(
                TargetKey::decode(key, 0)?.group_id,
                value!(TargetValue, value),
            ),
            TARGET_MEMBER_KEY_TYPE => {
                let k = TargetMemberKey::decode(key, 0)?;
                StreamsRecord::TargetMember(
                    k.group_id,
                    k.member_id,
                    value!(TargetMemberValue, value),
                )
            }
            CURRENT_KEY_TYPE => {
                let k = CurrentKey::decode(key, 0)?;
                StreamsRecord::Current(k.group_id, k.member_id, value!(CurrentValue, value))
            }
            TOPOLOGY_KEY_TYPE => StreamsRecord::Topology(
                TopologyKey::decode(key, 0)?.group_id,
                value!(TopologyValue, value),
            ),
            _ => return Ok(None),
        }))
    }
}

/// One streams group as its records leave it.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct StreamsGroupFold {
    /// The group's metadata (its epoch among it).
    pub metadata: Option<MetadataValue>,
    /// The topology.
    pub topology: Option<TopologyValue>,
    /// The members.
    pub members: BTreeMap<String, MemberValue>,
    /// The target assignment's epoch.
    pub target_epoch: Option<i32>,
    /// Each member's target tasks.
    pub target: BTreeMap<String, TargetMemberValue>,
    /// Each member's current tasks and epochs.
    pub current: BTreeMap<String, CurrentValue>,
}

impl StreamsGroupFold {
    /// True when no record of the group is left.
    pub fn is_empty(&self) -> bool {
        *self == StreamsGroupFold::default()
    }

    /// The group epoch (0 before any).
    pub fn group_epoch(&self) -> i32 {
        self.metadata.as_ref().map_or(0, |m| m.epoch)
    }

    /// The target assignment's epoch (0 before any).
    pub fn assignment_epoch(&self) -> i32 {
        self.target_epoch.unwrap_or(0)
    }
}

/// The streams groups of a shard: the fold of their records.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct StreamsGroups {
    /// By group id.
    pub groups: BTreeMap<String, StreamsGroupFold>,
}

impl StreamsGroups {
    /// Folds one record in (a tombstone removes what its key held; a group with nothing left
    /// is gone).
    pub fn replay(&mut self, record: StreamsRecord) {
        let id = record.group().to_string();
        let g = self.groups.entry(id.clone()).or_default();
        match record {
            StreamsRecord::Metadata(_, v) => g.metadata = v,
            StreamsRecord::Member(_, m, v) => set(&mut g.members, m, v),
            StreamsRecord::Target(_, v) => g.target_epoch = v.map(|v| v.assignment_epoch),
            StreamsRecord::TargetMember(_, m, v) => set(&mut g.target, m, v),
            StreamsRecord::Current(_, m, v) => set(&mut g.current, m, v),
            StreamsRecord::Topology(_, v) => g.topology = v,
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

    #[test]
    fn every_record_type_round_trips_in_kafkas_layout() {
        let member = MemberValue {
            client_id: "c".into(),
            client_host: "/127.0.0.1".into(),
            process_id: "p".into(),
            topology_epoch: 1,
            ..Default::default()
        };
        let records = vec![
            (
                17,
                StreamsRecord::Metadata(
                    "g".into(),
                    Some(MetadataValue {
                        epoch: 3,
                        ..Default::default()
                    }),
                ),
            ),
            (
                19,
                StreamsRecord::Member("g".into(), "m".into(), Some(member)),
            ),
            (
                20,
                StreamsRecord::Target("g".into(), Some(TargetValue::default())),
            ),
            (
                21,
                StreamsRecord::TargetMember("g".into(), "m".into(), Some(Default::default())),
            ),
            (
                22,
                StreamsRecord::Current("g".into(), "m".into(), Some(Default::default())),
            ),
            (
                23,
                StreamsRecord::Topology("g".into(), Some(Default::default())),
            ),
        ];
        for (key_type, r) in records {
            let (k, v) = GroupRecord::Streams(r.clone()).encode();
            // Kafka's layout: the key type, then the group id (key version 0).
            assert_eq!(&k[..4], &[0, key_type, 0, 1], "{r:?}");
            assert_eq!(&v.as_ref().unwrap()[..2], &[0, 0]);
            assert_eq!(
                GroupRecord::decode(&k, v.as_ref()).unwrap(),
                Some(GroupRecord::Streams(r.clone()))
            );
            let t = r.tombstone();
            let (k, v) = GroupRecord::Streams(t.clone()).encode();
            assert!(v.is_none());
            assert_eq!(
                GroupRecord::decode(&k, None).unwrap(),
                Some(GroupRecord::Streams(t))
            );
        }
    }

    #[test]
    fn tombstones_empty_a_group_away() {
        let mut f = StreamsGroups::default();
        let meta = StreamsRecord::Metadata(
            "g".into(),
            Some(MetadataValue {
                epoch: 1,
                ..Default::default()
            }),
        );
        f.replay(meta.clone());
        f.replay(StreamsRecord::Member(
            "g".into(),
            "m".into(),
            Some(Default::default()),
        ));
        assert_eq!(f.groups["g"].group_epoch(), 1);
        f.replay(StreamsRecord::Member("g".into(), "m".into(), None));
        f.replay(meta.tombstone());
        assert!(f.groups.is_empty());
    }
}
