//! What operators see and do to groups as a whole: DescribeGroups, ListGroups (with Kafka's
//! state and type filters) and DeleteGroups (only empty groups; their offsets go with them).

use crate::group::GroupState;
use crate::records::GroupRecord;
use crate::shard::{Output, Shard};
use fjord_protocol::generated::{
    delete_groups_response::DeletableGroupResult,
    describe_groups_response::{DescribedGroup, DescribedGroupMember},
    list_groups_response::ListedGroup,
};
use fjord_protocol::ErrorCode;

/// The first DescribeGroups version that answers an unknown group with GROUP_ID_NOT_FOUND.
const GROUP_NOT_FOUND_VERSION: i16 = 6;
/// `authorized_operations` when they were not asked for.
const OPERATIONS_NOT_REQUESTED: i32 = i32::MIN;
/// The type every group here has (ListGroups v5).
const CLASSIC: &str = "classic";

impl Shard {
    /// One group as DescribeGroups shows it: members with their metadata and assignment when
    /// Stable, without them otherwise; an unknown group is Dead (GROUP_ID_NOT_FOUND from v6).
    pub fn describe_group(&self, id: &str, version: i16) -> DescribedGroup {
        let consumer = self.consumer_group(id).is_some() || self.is_streams_group(id);
        let classic = self.groups.get(id).filter(|g| g.state != GroupState::Dead);
        let Some(g) = classic.filter(|_| !consumer) else {
            let not_found = version >= GROUP_NOT_FOUND_VERSION;
            let message = if consumer {
                format!("Group {id} is not a classic group.")
            } else {
                format!("Group {id} not found.")
            };
            return DescribedGroup {
                error_code: if not_found {
                    ErrorCode::GroupIdNotFound.code()
                } else {
                    ErrorCode::None.code()
                },
                error_message: not_found.then_some(message),
                group_id: id.to_string(),
                group_state: GroupState::Dead.name().into(),
                authorized_operations: OPERATIONS_NOT_REQUESTED,
                ..Default::default()
            };
        };
        let stable = g.state == GroupState::Stable;
        let protocol = g.protocol.clone().unwrap_or_default();
        DescribedGroup {
            group_id: id.to_string(),
            group_state: g.state.name().into(),
            protocol_type: g.protocol_type.clone().unwrap_or_default(),
            protocol_data: if stable {
                protocol.clone()
            } else {
                String::new()
            },
            members: g
                .members
                .values()
                .map(|m| DescribedGroupMember {
                    member_id: m.id.clone(),
                    group_instance_id: m.instance_id.clone(),
                    client_id: m.client_id.clone(),
                    client_host: m.client_host.clone(),
                    member_metadata: if stable {
                        m.metadata(&protocol)
                    } else {
                        Default::default()
                    },
                    member_assignment: if stable {
                        m.assignment.clone()
                    } else {
                        Default::default()
                    },
                    ..Default::default()
                })
                .collect(),
            authorized_operations: OPERATIONS_NOT_REQUESTED,
            ..Default::default()
        }
    }

    /// The groups ListGroups shows: those in one of `states` (any when empty, compared
    /// without case) and of one of `types` (only `classic` exists here).
    pub fn list_groups(&self, states: &[String], types: &[String]) -> Vec<ListedGroup> {
        let wants =
            |kind: &str| types.is_empty() || types.iter().any(|t| t.eq_ignore_ascii_case(kind));
        let mut groups: Vec<ListedGroup> = self
            .groups
            .values()
            .filter(|_| wants(CLASSIC))
            .filter(|g| g.state != GroupState::Dead)
            .filter(|g| self.consumer_group(&g.id).is_none() && !self.is_streams_group(&g.id))
            .filter(|g| {
                states.is_empty()
                    || states
                        .iter()
                        .any(|s| s.eq_ignore_ascii_case(g.state.name()))
            })
            .map(|g| ListedGroup {
                group_id: g.id.clone(),
                protocol_type: g.protocol_type.clone().unwrap_or_default(),
                group_state: g.state.name().into(),
                group_type: CLASSIC.into(),
                ..Default::default()
            })
            .collect();
        if wants(crate::consumer::CONSUMER) {
            groups.extend(self.list_consumer_groups(states));
        }
        if wants(crate::share::SHARE) {
            groups.extend(self.list_share_groups(states));
        }
        if wants(crate::streams::coordinator::STREAMS) {
            groups.extend(self.list_streams_groups(states));
        }
        groups.sort_by(|a, b| a.group_id.cmp(&b.group_id));
        groups
    }

    /// DeleteGroups: each group's result, and the tombstones of the deleted ones' offsets
    /// and metadata (GROUP_ID_NOT_FOUND, NON_EMPTY_GROUP otherwise).
    pub fn delete_groups(
        &mut self,
        ids: &[String],
    ) -> (Vec<DeletableGroupResult>, Vec<GroupRecord>) {
        let (results, out) = self.delete_groups_output(ids);
        (results, out.records)
    }

    /// DeleteGroups as [`Shard::delete_groups`], with the share-partition state work a
    /// deleted share group leaves (its records are in the output).
    pub fn delete_groups_output(&mut self, ids: &[String]) -> (Vec<DeletableGroupResult>, Output) {
        let mut results = Vec::new();
        let mut records = Vec::new();
        let mut share = Output::default();
        for id in ids {
            if let Some(code) = self.delete_share_group(id, &mut share) {
                results.push(DeletableGroupResult {
                    group_id: id.clone(),
                    error_code: code.code(),
                    ..Default::default()
                });
                continue;
            }
            if let Some(code) = self.delete_streams_group(id, &mut share) {
                results.push(DeletableGroupResult {
                    group_id: id.clone(),
                    error_code: code.code(),
                    ..Default::default()
                });
                continue;
            }
            if let Some(g) = self.consumer_group(id) {
                let code = if g.members.is_empty() {
                    let mut out = Output::default();
                    self.drop_empty_consumer_group(id, &mut out);
                    records.extend(out.records);
                    if let Some(g) = self.groups.remove(id) {
                        records.extend(offset_tombstones(&g));
                    }
                    ErrorCode::None
                } else {
                    ErrorCode::NonEmptyGroup
                };
                results.push(DeletableGroupResult {
                    group_id: id.clone(),
                    error_code: code.code(),
                    ..Default::default()
                });
                continue;
            }
            let code = match self.groups.get(id) {
                None => ErrorCode::GroupIdNotFound,
                Some(g) if g.state == GroupState::Dead => ErrorCode::GroupIdNotFound,
                Some(g) if g.state != GroupState::Empty || !g.pending_members.is_empty() => {
                    ErrorCode::NonEmptyGroup
                }
                Some(_) => {
                    let g = self.groups.remove(id).expect("group");
                    records.extend(offset_tombstones(&g));
                    records.push(GroupRecord::Group {
                        group: id.clone(),
                        value: None,
                    });
                    ErrorCode::None
                }
            };
            results.push(DeletableGroupResult {
                group_id: id.clone(),
                error_code: code.code(),
                ..Default::default()
            });
        }
        share.records.extend(records);
        (results, share)
    }
}

/// The tombstones of every offset `g` holds.
fn offset_tombstones(g: &crate::group::Group) -> impl Iterator<Item = GroupRecord> + '_ {
    g.offsets
        .keys()
        .map(|(topic, partition)| GroupRecord::Offset {
            group: g.id.clone(),
            topic: topic.clone(),
            partition: *partition,
            value: None,
        })
}
