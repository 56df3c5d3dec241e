//! KIP-932's share-group records in `__consumer_offsets`, in Kafka's layout (key types 10 to
//! 15, each key at its own type as version; values at version 0; a null value is a
//! tombstone), and their fold: per share group, the group epoch, the members, the target
//! assignment, each member's current assignment and which partitions have share-partition
//! state at the share coordinator (initializing, initialized, being deleted).

use crate::consumer_records::{put, set, value};
use bytes::{BufMut, Bytes, BytesMut};
use fjord_protocol::generated::{
    share_group_current_member_assignment_key::ShareGroupCurrentMemberAssignmentKey as CurrentKey,
    share_group_current_member_assignment_value::ShareGroupCurrentMemberAssignmentValue as CurrentValue,
    share_group_member_metadata_key::ShareGroupMemberMetadataKey as MemberKey,
    share_group_member_metadata_value::ShareGroupMemberMetadataValue as MemberValue,
    share_group_metadata_key::ShareGroupMetadataKey as MetadataKey,
    share_group_metadata_value::ShareGroupMetadataValue as MetadataValue,
    share_group_state_partition_metadata_key::ShareGroupStatePartitionMetadataKey as StateKey,
    share_group_state_partition_metadata_value::ShareGroupStatePartitionMetadataValue as StateValue,
    share_group_target_assignment_member_key::ShareGroupTargetAssignmentMemberKey as TargetMemberKey,
    share_group_target_assignment_member_value::ShareGroupTargetAssignmentMemberValue as TargetMemberValue,
    share_group_target_assignment_metadata_key::ShareGroupTargetAssignmentMetadataKey as TargetKey,
    share_group_target_assignment_metadata_value::ShareGroupTargetAssignmentMetadataValue as TargetValue,
};
use fjord_protocol::DecodeError;
use std::collections::BTreeMap;

/// The version every share-group value is written at.
const VALUE_VERSION: i16 = 0;

/// Which record of a share group (its key type names it in the log).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ShareKind {
    /// A member's subscription and client (key type 10).
    Member,
    /// The group epoch (key type 11).
    Metadata,
    /// The target assignment's epoch (key type 12).
    Target,
    /// A member's target assignment (key type 13).
    TargetMember,
    /// A member's current assignment and epochs (key type 14).
    Current,
    /// The partitions with share-partition state (key type 15).
    State,
}

/// One share-group record: the group, the member for per-member kinds, and the value (None:
/// its tombstone).
#[derive(Debug, Clone, PartialEq)]
pub enum ShareRecord {
    /// Key type 10.
    Member(String, String, Option<MemberValue>),
    /// Key type 11.
    Metadata(String, Option<MetadataValue>),
    /// Key type 12.
    Target(String, Option<TargetValue>),
    /// Key type 13.
    TargetMember(String, String, Option<TargetMemberValue>),
    /// Key type 14.
    Current(String, String, Option<CurrentValue>),
    /// Key type 15.
    State(String, Option<StateValue>),
}

impl ShareRecord {
    /// The group it belongs to.
    pub fn group(&self) -> &str {
        match self {
            ShareRecord::Member(g, ..)
            | ShareRecord::Metadata(g, _)
            | ShareRecord::Target(g, _)
            | ShareRecord::TargetMember(g, ..)
            | ShareRecord::Current(g, ..)
            | ShareRecord::State(g, _) => g,
        }
    }

    /// Its kind.
    pub fn kind(&self) -> ShareKind {
        match self {
            ShareRecord::Member(..) => ShareKind::Member,
            ShareRecord::Metadata(..) => ShareKind::Metadata,
            ShareRecord::Target(..) => ShareKind::Target,
            ShareRecord::TargetMember(..) => ShareKind::TargetMember,
            ShareRecord::Current(..) => ShareKind::Current,
            ShareRecord::State(..) => ShareKind::State,
        }
    }

    /// The tombstone of a key: `member` matters for the per-member kinds only.
    pub fn tombstone(kind: ShareKind, group: &str, member: &str) -> ShareRecord {
        let (g, m) = (group.to_string(), member.to_string());
        match kind {
            ShareKind::Member => ShareRecord::Member(g, m, None),
            ShareKind::Metadata => ShareRecord::Metadata(g, None),
            ShareKind::Target => ShareRecord::Target(g, None),
            ShareKind::TargetMember => ShareRecord::TargetMember(g, m, None),
            ShareKind::Current => ShareRecord::Current(g, m, None),
            ShareKind::State => ShareRecord::State(g, None),
        }
    }

    /// Its key and value (None: a tombstone) as stored in the log.
    pub fn encode(&self) -> (Bytes, Option<Bytes>) {
        let (mut key, mut value) = (BytesMut::new(), BytesMut::new());
        let group = |g: &String| g.clone();
        let present = match self {
            ShareRecord::Member(g, m, v) => {
                let k = MemberKey {
                    group_id: group(g),
                    member_id: m.clone(),
                };
                put!(key, value, 10, k, v, 0)
            }
            ShareRecord::Metadata(g, v) => {
                put!(key, value, 11, MetadataKey { group_id: group(g) }, v, 0)
            }
            ShareRecord::Target(g, v) => {
                put!(key, value, 12, TargetKey { group_id: group(g) }, v, 0)
            }
            ShareRecord::TargetMember(g, m, v) => {
                let k = TargetMemberKey {
                    group_id: group(g),
                    member_id: m.clone(),
                };
                put!(key, value, 13, k, v, 0)
            }
            ShareRecord::Current(g, m, v) => {
                let k = CurrentKey {
                    group_id: group(g),
                    member_id: m.clone(),
                };
                put!(key, value, 14, k, v, 0)
            }
            ShareRecord::State(g, v) => put!(key, value, 15, StateKey { group_id: group(g) }, v, 0),
        };
        (key.freeze(), present.map(|()| value.freeze()))
    }

    /// Reads the record of key type `key_type` (its key after the type prefix); None for a
    /// type that is not a share-group record.
    pub fn decode(
        key_type: i16,
        key: &mut Bytes,
        value: Option<&Bytes>,
    ) -> Result<Option<ShareRecord>, DecodeError> {
        Ok(Some(match key_type {
            10 => {
                let k = MemberKey::decode(key, 0)?;
                ShareRecord::Member(k.group_id, k.member_id, value!(MemberValue, value))
            }
            11 => ShareRecord::Metadata(
                MetadataKey::decode(key, 0)?.group_id,
                value!(MetadataValue, value),
            ),
            12 => ShareRecord::Target(
                TargetKey::decode(key, 0)?.group_id,
                value!(TargetValue, value),
            ),
            13 => {
                let k = TargetMemberKey::decode(key, 0)?;
                ShareRecord::TargetMember(k.group_id, k.member_id, value!(TargetMemberValue, value))
            }
            14 => {
                let k = CurrentKey::decode(key, 0)?;
                ShareRecord::Current(k.group_id, k.member_id, value!(CurrentValue, value))
            }
            15 => ShareRecord::State(
                StateKey::decode(key, 0)?.group_id,
                value!(StateValue, value),
            ),
            _ => return Ok(None),
        }))
    }
}

/// One share group as its records leave it.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ShareGroupFold {
    /// The group epoch.
    pub epoch: Option<i32>,
    /// The members' subscriptions and clients.
    pub members: BTreeMap<String, MemberValue>,
    /// The target assignment's epoch.
    pub target_epoch: Option<i32>,
    /// Each member's target assignment.
    pub target: BTreeMap<String, TargetMemberValue>,
    /// Each member's current assignment.
    pub current: BTreeMap<String, CurrentValue>,
    /// The partitions with share-partition state.
    pub state: Option<StateValue>,
}

impl ShareGroupFold {
    /// True when no record of the group is left.
    pub fn is_empty(&self) -> bool {
        *self == ShareGroupFold::default()
    }

    /// Its state as Kafka names a share group's (`ShareGroupState`): Empty with no members,
    /// else Stable (a share group never waits for revocations).
    pub fn state_name(&self) -> &'static str {
        if self.members.is_empty() {
            "Empty"
        } else {
            "Stable"
        }
    }
}

/// The share groups of a shard: the fold of their records.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ShareGroups {
    /// By group id.
    pub groups: BTreeMap<String, ShareGroupFold>,
}

impl ShareGroups {
    /// Folds one record in (a tombstone removes what its key held; a group with nothing left
    /// is gone).
    pub fn replay(&mut self, record: ShareRecord) {
        let id = record.group().to_string();
        let g = self.groups.entry(id.clone()).or_default();
        match record {
            ShareRecord::Member(_, m, v) => set(&mut g.members, m, v),
            ShareRecord::Metadata(_, v) => g.epoch = v.map(|v| v.epoch),
            ShareRecord::Target(_, v) => g.target_epoch = v.map(|v| v.assignment_epoch),
            ShareRecord::TargetMember(_, m, v) => set(&mut g.target, m, v),
            ShareRecord::Current(_, m, v) => set(&mut g.current, m, v),
            ShareRecord::State(_, v) => g.state = v,
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
        let records = vec![
            ShareRecord::Member(
                "g".into(),
                "m".into(),
                Some(MemberValue {
                    rack_id: None,
                    client_id: "c".into(),
                    client_host: "/127.0.0.1".into(),
                    subscribed_topic_names: vec!["t".into()],
                    ..Default::default()
                }),
            ),
            ShareRecord::Metadata(
                "g".into(),
                Some(MetadataValue {
                    epoch: 3,
                    ..Default::default()
                }),
            ),
            ShareRecord::Target("g".into(), Some(TargetValue::default())),
            ShareRecord::TargetMember("g".into(), "m".into(), Some(Default::default())),
            ShareRecord::Current("g".into(), "m".into(), Some(Default::default())),
            ShareRecord::State("g".into(), Some(Default::default())),
        ];
        for (i, r) in records.into_iter().enumerate() {
            let (k, v) = GroupRecord::Share(r.clone()).encode();
            // Kafka's layout: the key type, 10 to 15, then the group id.
            assert_eq!(&k[..4], &[0, 10 + i as u8, 0, 1], "{r:?}");
            assert_eq!(&v.as_ref().unwrap()[..2], &[0, 0]);
            assert_eq!(
                GroupRecord::decode(&k, v.as_ref()).unwrap(),
                Some(GroupRecord::Share(r.clone()))
            );
            let t = ShareRecord::tombstone(r.kind(), "g", "m");
            let (k, v) = GroupRecord::Share(t.clone()).encode();
            assert!(v.is_none());
            assert_eq!(
                GroupRecord::decode(&k, None).unwrap(),
                Some(GroupRecord::Share(t))
            );
        }
    }

    #[test]
    fn tombstones_empty_a_group_away() {
        let mut f = ShareGroups::default();
        f.replay(ShareRecord::Metadata(
            "g".into(),
            Some(MetadataValue {
                epoch: 1,
                ..Default::default()
            }),
        ));
        f.replay(ShareRecord::Member(
            "g".into(),
            "m".into(),
            Some(Default::default()),
        ));
        assert_eq!(f.groups["g"].state_name(), "Stable");
        f.replay(ShareRecord::Member("g".into(), "m".into(), None));
        assert_eq!(f.groups["g"].state_name(), "Empty");
        f.replay(ShareRecord::Metadata("g".into(), None));
        assert!(f.groups.is_empty());
    }
}
