//! Share groups (KIP-932) on a shard: ShareGroupHeartbeat (join, heartbeat, leave), the group
//! epoch and the target assignment computed by the `simple` assignor (partitions may be
//! shared; no revocation: a member moves to the target at its next heartbeat), session
//! deadlines, ShareGroupDescribe, and which partitions have share-partition state.
//!
//! A partition is assigned only once its share-partition state exists at the share
//! coordinator, as Kafka does: a heartbeat that finds subscribed partitions without state
//! records them as initializing and asks the driver ([`ShareJob::Initialize`]) to send
//! InitializeShareGroupState; when that lands, [`Shard::share_initialized`] records them as
//! initialized and bumps the group epoch, so the next heartbeat assigns them. Every decision
//! is a share-group record ([`ShareRecord`]) folded as it is emitted.

use crate::consumer::TopicSource;
use crate::shard::{Output, RequestContext, Shard};
use crate::share_records::{ShareGroupFold, ShareKind, ShareRecord};
use crate::timers::TimerKey;
use fjord_protocol::generated::{
    list_groups_response::ListedGroup,
    share_group_current_member_assignment_value::{
        ShareGroupCurrentMemberAssignmentValue as CurrentValue, TopicPartitions as CurrentTp,
    },
    share_group_describe_response::{
        Assignment as DescribedAssignment, DescribedGroup, Member as DescribedMember,
        TopicPartitions as DescribedTp,
    },
    share_group_heartbeat_request::ShareGroupHeartbeatRequest,
    share_group_heartbeat_response::{
        Assignment as HeartbeatAssignment, ShareGroupHeartbeatResponse, TopicPartitions as HbTp,
    },
    share_group_member_metadata_value::ShareGroupMemberMetadataValue as MemberValue,
    share_group_metadata_value::ShareGroupMetadataValue as MetadataValue,
    share_group_state_partition_metadata_value::{
        ShareGroupStatePartitionMetadataValue as StateValue, TopicInfo, TopicPartitionsInfo,
    },
    share_group_target_assignment_member_value::{
        ShareGroupTargetAssignmentMemberValue as TargetMemberValue, TopicPartition as TargetTp,
    },
    share_group_target_assignment_metadata_value::ShareGroupTargetAssignmentMetadataValue as TargetValue,
};
use fjord_protocol::{ErrorCode, ResponseBody};
use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;
use uuid::Uuid;

/// The member epoch a member sends to leave the group.
pub const LEAVE_GROUP_MEMBER_EPOCH: i32 = -1;
/// The group type ListGroups shows, and the protocol type.
pub const SHARE: &str = "share";
/// The assignor share groups use (the only one Kafka 4.4 ships).
pub const SIMPLE_ASSIGNOR: &str = "simple";
/// The group config key that overrides `group.share.session.timeout.ms` for one group.
pub const GROUP_SHARE_SESSION_TIMEOUT_KEY: &str = "share.session.timeout.ms";
/// The group config key that overrides `group.share.heartbeat.interval.ms` for one group.
pub const GROUP_SHARE_HEARTBEAT_INTERVAL_KEY: &str = "share.heartbeat.interval.ms";
/// The most share-partitions one InitializeShareGroupState job names.
pub const MAX_INIT_PARTITIONS: usize = 10_000;

/// Partitions by topic id.
pub type Partitions = BTreeMap<Uuid, BTreeSet<i32>>;

/// Work a share group asks of the driver once its records are committed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ShareJob {
    /// Create share-partition state (InitializeShareGroupState at `state_epoch`, start
    /// offset -1: the leader applies `share.auto.offset.reset`), then call
    /// [`Shard::share_initialized`].
    Initialize {
        /// The group.
        group: String,
        /// The state epoch (the group epoch that asked).
        state_epoch: i32,
        /// The partitions.
        partitions: Partitions,
    },
    /// Remove share-partition state (DeleteShareGroupState): the group or its topics are
    /// gone.
    Delete {
        /// The group.
        group: String,
        /// The partitions.
        partitions: Partitions,
    },
}

/// What a shard keeps beside a share group's records.
#[derive(Debug, Default)]
pub(crate) struct ShareRuntime {
    /// Groups with an InitializeShareGroupState under way.
    pub(crate) initializing: BTreeSet<String>,
    /// Target assignments computed since the shard was loaded (Kafka's share-group
    /// rebalances).
    pub(crate) rebalances: u64,
}

fn to_parts<'a>(items: impl IntoIterator<Item = (Uuid, &'a Vec<i32>)>) -> Partitions {
    let mut out = Partitions::new();
    for (id, ps) in items {
        if !ps.is_empty() {
            out.entry(id).or_default().extend(ps.iter().copied());
        }
    }
    out
}

/// Partitions by topic as a wire list of `$ty` (each with a topic id and its partitions).
macro_rules! share_topics {
    ($p:expr, $ty:ident) => {
        $p.iter()
            .map(|(t, ps)| $ty {
                topic_id: *t,
                partitions: ps.iter().copied().collect(),
                ..Default::default()
            })
            .collect()
    };
}

/// The assignment a member's current record holds.
fn current_parts(v: &CurrentValue) -> Partitions {
    to_parts(
        v.assigned_partitions
            .iter()
            .map(|t| (t.topic_id, &t.partitions)),
    )
}

/// A member's target assignment.
fn target_parts(v: &TargetMemberValue) -> Partitions {
    to_parts(
        v.topic_partitions
            .iter()
            .map(|t| (t.topic_id, &t.partitions)),
    )
}

/// The partitions a group's state record names as initialized, and as initializing.
fn state_parts(state: Option<&StateValue>) -> (Partitions, Partitions) {
    let Some(s) = state else {
        return Default::default();
    };
    let of = |l: &[TopicPartitionsInfo]| to_parts(l.iter().map(|t| (t.topic_id, &t.partitions)));
    (of(&s.initialized_topics), of(&s.initializing_topics))
}

/// A state record's value from its two sets (topic names from `topics`).
fn state_value(
    initialized: &Partitions,
    initializing: &Partitions,
    topics: &dyn TopicSource,
) -> StateValue {
    let list = |p: &Partitions| -> Vec<TopicPartitionsInfo> {
        p.iter()
            .map(|(t, ps)| TopicPartitionsInfo {
                topic_id: *t,
                topic_name: topics.name(t.as_u128()).unwrap_or_default(),
                partitions: ps.iter().copied().collect(),
                ..Default::default()
            })
            .collect()
    };
    StateValue {
        initializing_topics: list(initializing),
        initialized_topics: list(initialized),
        deleting_topics: Vec::<TopicInfo>::new(),
        ..Default::default()
    }
}

/// A refusal: its code and Kafka's message.
type Refusal = (ErrorCode, String);

fn invalid(message: &str) -> Refusal {
    (ErrorCode::InvalidRequest, message.to_string())
}

/// Kafka's checks of a heartbeat's fields.
fn check_request(r: &ShareGroupHeartbeatRequest) -> Result<(), Refusal> {
    if r.group_id.is_empty() {
        return Err(invalid("GroupId can't be empty."));
    }
    if r.rack_id.as_deref() == Some("") {
        return Err(invalid("RackId can't be empty."));
    }
    if r.member_id.is_empty() {
        return Err(invalid("MemberId can't be empty."));
    }
    if r.member_epoch < LEAVE_GROUP_MEMBER_EPOCH {
        return Err(invalid("MemberEpoch is invalid."));
    }
    if r.member_epoch == 0
        && r.subscribed_topic_names
            .as_ref()
            .is_none_or(|t| t.is_empty())
    {
        return Err(invalid(
            "SubscribedTopicNames must be set in first request.",
        ));
    }
    if r.subscribed_topic_names
        .as_ref()
        .is_some_and(|t| t.len() > crate::consumer::MAX_SUBSCRIBED_TOPICS)
    {
        return Err(invalid("SubscribedTopicNames has too many topics."));
    }
    Ok(())
}

impl Shard {
    /// A share group's records, folded.
    pub fn share_group(&self, id: &str) -> Option<&ShareGroupFold> {
        self.share_groups.groups.get(id)
    }

    /// The session timeout of a share group's members.
    fn share_session_ms(&self, group: &str) -> i32 {
        self.topics
            .group_int(group, GROUP_SHARE_SESSION_TIMEOUT_KEY)
            .unwrap_or(self.config.share_session_timeout_ms)
    }

    /// The heartbeat interval of a share group's members.
    fn share_heartbeat_ms(&self, group: &str) -> i32 {
        self.topics
            .group_int(group, GROUP_SHARE_HEARTBEAT_INTERVAL_KEY)
            .unwrap_or(self.config.share_heartbeat_interval_ms)
    }

    /// Emits `record` and folds it.
    fn share_emit(&mut self, record: ShareRecord, out: &mut Output) {
        self.share_groups.replay(record.clone());
        out.records.push(crate::records::GroupRecord::Share(record));
    }

    /// Bumps a share group's epoch (a member came, went or changed, or partitions gained
    /// state), so the next heartbeat recomputes the target assignment.
    fn share_bump(&mut self, group: &str, out: &mut Output) {
        let epoch = self.share_group(group).and_then(|g| g.epoch).unwrap_or(0) + 1;
        let value = MetadataValue {
            epoch,
            ..Default::default()
        };
        self.share_emit(ShareRecord::Metadata(group.into(), Some(value)), out);
    }

    /// ShareGroupHeartbeat: joins, heartbeats and leaves (see the module's note). The
    /// answer waits for the records it emits.
    pub fn share_heartbeat(
        &mut self,
        ctx: &RequestContext,
        r: &ShareGroupHeartbeatRequest,
        topics: Arc<dyn TopicSource + Send + Sync>,
        now: i64,
    ) -> Output {
        self.topics = topics.clone();
        let mut out = Output::default();
        let body = match self.try_share_heartbeat(ctx, r, topics.as_ref(), now, &mut out) {
            Ok(body) => body,
            Err((code, message)) => ShareGroupHeartbeatResponse {
                error_code: code.code(),
                error_message: Some(message),
                ..Default::default()
            },
        };
        out.reply(ctx.token, ResponseBody::ShareGroupHeartbeat(body));
        out
    }

    fn try_share_heartbeat(
        &mut self,
        ctx: &RequestContext,
        r: &ShareGroupHeartbeatRequest,
        topics: &dyn TopicSource,
        now: i64,
        out: &mut Output,
    ) -> Result<ShareGroupHeartbeatResponse, Refusal> {
        check_request(r)?;
        let group = r.group_id.as_str();
        let member = r.member_id.as_str();
        let exists = self.share_group(group).is_some();
        if !exists && (self.groups.contains_key(group) || self.consumer_group(group).is_some()) {
            return Err((
                ErrorCode::GroupIdNotFound,
                format!("Group {group} is not a share group."),
            ));
        }
        let known = self
            .share_group(group)
            .and_then(|g| g.members.get(member))
            .cloned();
        if r.member_epoch == LEAVE_GROUP_MEMBER_EPOCH {
            if known.is_none() {
                return Err((
                    ErrorCode::UnknownMemberId,
                    format!("Member {member} is not a member of group {group}."),
                ));
            }
            self.share_remove_member(group, member, out);
            return Ok(ShareGroupHeartbeatResponse {
                member_id: Some(member.into()),
                member_epoch: LEAVE_GROUP_MEMBER_EPOCH,
                ..Default::default()
            });
        }
        self.share_admission(group, member, known.is_some(), exists, r.member_epoch)?;
        if !exists {
            self.share_bump(group, out);
        }
        // The member's record: a new member, or a changed subscription or rack.
        let mut updated = known.clone().unwrap_or_else(|| MemberValue {
            rack_id: None,
            ..Default::default()
        });
        updated.client_id = ctx.client_id.clone();
        updated.client_host = ctx.client_host.clone();
        if let Some(rack) = &r.rack_id {
            updated.rack_id = Some(rack.clone());
        }
        if let Some(names) = &r.subscribed_topic_names {
            let mut names = names.clone();
            names.sort();
            names.dedup();
            updated.subscribed_topic_names = names;
        }
        if known.as_ref() != Some(&updated) {
            let resubscribed = known
                .as_ref()
                .is_none_or(|k| k.subscribed_topic_names != updated.subscribed_topic_names);
            self.share_emit(
                ShareRecord::Member(group.into(), member.into(), Some(updated)),
                out,
            );
            if resubscribed {
                self.share_bump(group, out);
            }
        }
        self.share_forget_deleted_topics(group, topics, out);
        self.share_maybe_initialize(group, topics, out);
        self.share_update_target(group, topics, now, out);
        // The member moves to the target at once: share groups revoke nothing.
        let g = self.share_group(group).expect("the group has records");
        let target_epoch = g.target_epoch.unwrap_or(0);
        let target = g.target.get(member).map(target_parts).unwrap_or_default();
        let before = g.current.get(member).cloned();
        let changed = before
            .as_ref()
            .is_none_or(|c| c.member_epoch != target_epoch || current_parts(c) != target);
        if changed {
            let value = CurrentValue {
                member_epoch: target_epoch,
                previous_member_epoch: before.as_ref().map_or(0, |c| c.member_epoch),
                state: 0,
                assigned_partitions: share_topics!(target, CurrentTp),
                ..Default::default()
            };
            self.share_emit(
                ShareRecord::Current(group.into(), member.into(), Some(value)),
                out,
            );
        }
        let session = self.share_session_ms(group) as i64;
        self.timers.schedule(
            TimerKey::ShareSession {
                group: group.into(),
                member: member.into(),
            },
            now + session,
        );
        let full = r.member_epoch == 0 || r.subscribed_topic_names.is_some();
        Ok(ShareGroupHeartbeatResponse {
            member_id: Some(member.into()),
            member_epoch: target_epoch,
            heartbeat_interval_ms: self.share_heartbeat_ms(group),
            assignment: (changed || full).then(|| HeartbeatAssignment {
                topic_partitions: share_topics!(target, HbTp),
                ..Default::default()
            }),
            ..Default::default()
        })
    }

    /// Whether a heartbeat of `member` (known to the group or not) at `epoch` is let in: a
    /// new member while there is room, a known member at its current epoch; Kafka's refusal
    /// otherwise.
    fn share_admission(
        &self,
        group: &str,
        member: &str,
        known: bool,
        exists: bool,
        epoch: i32,
    ) -> Result<(), Refusal> {
        match (known, epoch) {
            (false, 0) => {
                if !exists && !self.has_room() {
                    return Err((
                        ErrorCode::CoordinatorNotAvailable,
                        "The coordinator holds too many groups.".into(),
                    ));
                }
                let size = self.share_group(group).map_or(0, |g| g.members.len());
                if size >= self.config.share_max_size {
                    return Err((
                        ErrorCode::GroupMaxSizeReached,
                        format!(
                            "The share group has reached its maximum capacity of {} members.",
                            self.config.share_max_size
                        ),
                    ));
                }
            }
            (false, _) if !exists => {
                return Err((
                    ErrorCode::GroupIdNotFound,
                    format!("Share group {group} not found."),
                ))
            }
            (false, _) => {
                return Err((
                    ErrorCode::UnknownMemberId,
                    format!("Member {member} is not a member of group {group}."),
                ))
            }
            (true, 0) => {}
            (true, epoch) => {
                let current = self
                    .share_group(group)
                    .and_then(|g| g.current.get(member))
                    .map_or(0, |c| c.member_epoch);
                if epoch != current {
                    return Err(crate::consumer::fenced_member_epoch(
                        "share group",
                        epoch,
                        current,
                    ));
                }
            }
        }
        Ok(())
    }

    /// Drops deleted topics from a group's state record (a new topic of the same name has a
    /// new id and new state), and asks for their state to be deleted.
    fn share_forget_deleted_topics(
        &mut self,
        group: &str,
        topics: &dyn TopicSource,
        out: &mut Output,
    ) {
        let Some(g) = self.share_group(group) else {
            return;
        };
        let (mut initialized, mut initializing) = state_parts(g.state.as_ref());
        let gone: Vec<Uuid> = initialized
            .keys()
            .chain(initializing.keys())
            .filter(|t| topics.name(t.as_u128()).is_none())
            .copied()
            .collect();
        if gone.is_empty() {
            return;
        }
        let mut dropped = Partitions::new();
        for t in &gone {
            if let Some(ps) = initialized.remove(t) {
                dropped.entry(*t).or_default().extend(ps);
            }
            initializing.remove(t);
        }
        let value = state_value(&initialized, &initializing, topics);
        self.share_emit(ShareRecord::State(group.into(), Some(value)), out);
        self.share_bump(group, out);
        if !dropped.is_empty() {
            out.share_jobs.push(ShareJob::Delete {
                group: group.into(),
                partitions: dropped,
            });
        }
    }

    /// Asks for state for the subscribed partitions that have none (at most
    /// [`MAX_INIT_PARTITIONS`] at a time, one job per group at a time).
    fn share_maybe_initialize(&mut self, group: &str, topics: &dyn TopicSource, out: &mut Output) {
        if self.share_runtime.initializing.contains(group) {
            return;
        }
        let Some(g) = self.share_group(group) else {
            return;
        };
        let (initialized, mut initializing) = state_parts(g.state.as_ref());
        let subscribed: BTreeSet<&String> = g
            .members
            .values()
            .flat_map(|m| m.subscribed_topic_names.iter())
            .collect();
        let mut wanted = Partitions::new();
        let mut count = initializing.values().map(|p| p.len()).sum::<usize>();
        for name in subscribed {
            let Some((id, n)) = topics.topic(name) else {
                continue;
            };
            let id = Uuid::from_u128(id);
            for p in 0..n.max(0) {
                let has = |s: &Partitions| s.get(&id).is_some_and(|ps| ps.contains(&p));
                if !has(&initialized) && !has(&initializing) && count < MAX_INIT_PARTITIONS {
                    wanted.entry(id).or_default().insert(p);
                    count += 1;
                }
            }
        }
        for (t, ps) in &wanted {
            initializing
                .entry(*t)
                .or_default()
                .extend(ps.iter().copied());
        }
        if initializing.is_empty() {
            return;
        }
        if !wanted.is_empty() {
            let value = state_value(&initialized, &initializing, topics);
            self.share_emit(ShareRecord::State(group.into(), Some(value)), out);
        }
        self.share_runtime.initializing.insert(group.into());
        let state_epoch = self.share_group(group).and_then(|g| g.epoch).unwrap_or(0);
        out.share_jobs.push(ShareJob::Initialize {
            group: group.into(),
            state_epoch,
            partitions: initializing,
        });
    }

    /// The driver's answer to [`ShareJob::Initialize`]: `done` now have state (they become
    /// assignable: the group epoch is bumped); the others are asked for again at the next
    /// heartbeat.
    pub fn share_initialized(&mut self, group: &str, done: &Partitions) -> Output {
        let mut out = Output::default();
        self.share_runtime.initializing.remove(group);
        let Some(g) = self.share_group(group) else {
            return out;
        };
        let (mut initialized, mut initializing) = state_parts(g.state.as_ref());
        let mut gained = false;
        for (t, ps) in done {
            for p in ps {
                let was = initializing.get_mut(t).is_some_and(|s| s.remove(p));
                if was {
                    gained |= initialized.entry(*t).or_default().insert(*p);
                }
            }
        }
        initializing.retain(|_, ps| !ps.is_empty());
        if gained {
            let topics = self.topics.clone();
            let value = state_value(&initialized, &initializing, topics.as_ref());
            self.share_emit(ShareRecord::State(group.into(), Some(value)), &mut out);
            self.share_bump(group, &mut out);
        }
        out
    }

    /// Recomputes the target assignment when the group epoch moved past it.
    fn share_update_target(
        &mut self,
        group: &str,
        topics: &dyn TopicSource,
        now: i64,
        out: &mut Output,
    ) {
        let Some(g) = self.share_group(group) else {
            return;
        };
        let epoch = g.epoch.unwrap_or(0);
        if g.target_epoch.is_some_and(|t| t >= epoch) {
            return;
        }
        let (initialized, _) = state_parts(g.state.as_ref());
        // Only the partitions with state: a topic's first partitions up to the first without.
        let mut counts = BTreeMap::new();
        for (t, ps) in &initialized {
            let n = (0..).take_while(|p| ps.contains(p)).count() as i32;
            let live = topics
                .name(t.as_u128())
                .and_then(|name| topics.topic(&name))
                .map_or(0, |(_, n)| n);
            counts.insert(*t, n.min(live));
        }
        let members: BTreeMap<String, fjord_share::assignor::MemberSpec> = g
            .members
            .iter()
            .map(|(id, m)| {
                let spec = fjord_share::assignor::MemberSpec {
                    topics: m
                        .subscribed_topic_names
                        .iter()
                        .filter_map(|n| topics.topic(n))
                        .map(|(t, _)| Uuid::from_u128(t))
                        .collect(),
                    current: g.target.get(id).map(target_parts).unwrap_or_default(),
                };
                (id.clone(), spec)
            })
            .collect();
        let assigned = fjord_share::assignor::assign(&members, &counts);
        let old = g.target.clone();
        self.share_runtime.rebalances += 1;
        for (member, parts) in assigned {
            if old.get(&member).map(target_parts).as_ref() != Some(&parts) {
                let value = TargetMemberValue {
                    topic_partitions: share_topics!(parts, TargetTp),
                    ..Default::default()
                };
                self.share_emit(
                    ShareRecord::TargetMember(group.into(), member, Some(value)),
                    out,
                );
            }
        }
        let value = TargetValue {
            assignment_epoch: epoch,
            assignment_timestamp: now,
            ..Default::default()
        };
        self.share_emit(ShareRecord::Target(group.into(), Some(value)), out);
    }

    /// Removes a member: its records go, the group epoch moves.
    fn share_remove_member(&mut self, group: &str, member: &str, out: &mut Output) {
        self.timers.cancel(&TimerKey::ShareSession {
            group: group.into(),
            member: member.into(),
        });
        for kind in [
            ShareKind::Current,
            ShareKind::TargetMember,
            ShareKind::Member,
        ] {
            self.share_emit(ShareRecord::tombstone(kind, group, member), out);
        }
        self.share_bump(group, out);
    }

    /// A share member's session ended: it is removed.
    pub(crate) fn share_session_expired(&mut self, group: &str, member: &str, out: &mut Output) {
        if self
            .share_group(group)
            .is_some_and(|g| g.members.contains_key(member))
        {
            self.share_remove_member(group, member, out);
        }
    }

    /// Starts the sessions of loaded share members.
    pub(crate) fn share_loaded(&mut self, now: i64) {
        let sessions: Vec<(String, String, i64)> = self
            .share_groups
            .groups
            .iter()
            .flat_map(|(g, f)| f.members.keys().map(move |m| (g.clone(), m.clone())))
            .map(|(g, m)| {
                let t = self.share_session_ms(&g) as i64;
                (g, m, t)
            })
            .collect();
        for (group, member, timeout) in sessions {
            self.timers
                .schedule(TimerKey::ShareSession { group, member }, now + timeout);
        }
    }

    /// ShareGroupDescribe of one group.
    pub fn describe_share_group(&self, id: &str, topics: &dyn TopicSource) -> DescribedGroup {
        let Some(g) = self.share_group(id) else {
            let message = if self.groups.contains_key(id) || self.consumer_group(id).is_some() {
                format!("Group {id} is not a share group.")
            } else {
                format!("Group {id} not found.")
            };
            return DescribedGroup {
                error_code: ErrorCode::GroupIdNotFound.code(),
                error_message: Some(message),
                group_id: id.into(),
                authorized_operations: i32::MIN,
                ..Default::default()
            };
        };
        DescribedGroup {
            group_id: id.into(),
            group_state: g.state_name().into(),
            group_epoch: g.epoch.unwrap_or(0),
            assignment_epoch: g.target_epoch.unwrap_or(0),
            assignor_name: SIMPLE_ASSIGNOR.into(),
            members: g
                .members
                .iter()
                .map(|(mid, m)| {
                    let current = g.current.get(mid);
                    let parts = current.map(current_parts).unwrap_or_default();
                    DescribedMember {
                        member_id: mid.clone(),
                        rack_id: m.rack_id.clone(),
                        member_epoch: current.map_or(0, |c| c.member_epoch),
                        client_id: m.client_id.clone(),
                        client_host: m.client_host.clone(),
                        subscribed_topic_names: m.subscribed_topic_names.clone(),
                        assignment: DescribedAssignment {
                            topic_partitions: parts
                                .iter()
                                .map(|(t, ps)| DescribedTp {
                                    topic_id: *t,
                                    topic_name: topics.name(t.as_u128()).unwrap_or_default(),
                                    partitions: ps.iter().copied().collect(),
                                    ..Default::default()
                                })
                                .collect(),
                            ..Default::default()
                        },
                        ..Default::default()
                    }
                })
                .collect(),
            authorized_operations: i32::MIN,
            ..Default::default()
        }
    }

    /// The share groups ListGroups shows.
    pub(crate) fn list_share_groups(&self, states: &[String]) -> Vec<ListedGroup> {
        self.share_groups
            .groups
            .iter()
            .filter(|(_, g)| {
                states.is_empty()
                    || states
                        .iter()
                        .any(|s| s.eq_ignore_ascii_case(g.state_name()))
            })
            .map(|(id, g)| ListedGroup {
                group_id: id.clone(),
                protocol_type: SHARE.into(),
                group_state: g.state_name().into(),
                group_type: SHARE.into(),
                ..Default::default()
            })
            .collect()
    }

    /// Deletes an empty share group: tombstones of its records, and a job removing its
    /// share-partition state. Err(NON_EMPTY_GROUP) while it has members; None when `id` is not
    /// a share group.
    pub(crate) fn delete_share_group(&mut self, id: &str, out: &mut Output) -> Option<ErrorCode> {
        let g = self.share_group(id)?;
        if !g.members.is_empty() {
            return Some(ErrorCode::NonEmptyGroup);
        }
        let (initialized, initializing) = state_parts(g.state.as_ref());
        let members: Vec<String> = g
            .target
            .keys()
            .chain(g.current.keys())
            .cloned()
            .collect::<BTreeSet<_>>()
            .into_iter()
            .collect();
        for m in members {
            for kind in [ShareKind::Current, ShareKind::TargetMember] {
                self.share_emit(ShareRecord::tombstone(kind, id, &m), out);
            }
        }
        for kind in [ShareKind::State, ShareKind::Target, ShareKind::Metadata] {
            self.share_emit(ShareRecord::tombstone(kind, id, ""), out);
        }
        let mut partitions = initialized;
        for (t, ps) in initializing {
            partitions.entry(t).or_default().extend(ps);
        }
        if !partitions.is_empty() {
            out.share_jobs.push(ShareJob::Delete {
                group: id.into(),
                partitions,
            });
        }
        Some(ErrorCode::None)
    }

    /// The partitions of a share group that have share-partition state (for its offsets).
    pub fn share_initialized_partitions(&self, id: &str) -> Partitions {
        state_parts(self.share_group(id).and_then(|g| g.state.as_ref())).0
    }

    /// Why the offsets of `id` may not be read: GROUP_ID_NOT_FOUND unless it is a share
    /// group (Kafka's messages).
    pub fn check_share_group(&self, id: &str) -> Result<(), (ErrorCode, String)> {
        if self.share_group(id).is_some() {
            return Ok(());
        }
        let message = if self.groups.contains_key(id) || self.consumer_group(id).is_some() {
            format!("Group {id} is not a share group.")
        } else {
            format!("Group {id} not found.")
        };
        Err((ErrorCode::GroupIdNotFound, message))
    }

    /// Before the start offsets of `id` are set (AlterShareGroupOffsets) or its topics'
    /// state deleted (DeleteShareGroupOffsets): the group must have no members; with
    /// `create`, an unknown group is created empty (as Kafka does for an alter). Bumps the
    /// group epoch and returns it: the state epoch the new state is written at.
    pub fn prepare_share_offsets(
        &mut self,
        id: &str,
        create: bool,
        out: &mut Output,
    ) -> Result<i32, (ErrorCode, String)> {
        match self.share_group(id) {
            Some(g) if !g.members.is_empty() => {
                return Err((
                    ErrorCode::NonEmptyGroup,
                    "The group is not empty.".to_string(),
                ))
            }
            Some(_) => {}
            None if create
                && !self.groups.contains_key(id)
                && self.consumer_group(id).is_none() =>
            {
                if !self.has_room() {
                    return Err((
                        ErrorCode::CoordinatorNotAvailable,
                        "The coordinator holds too many groups.".into(),
                    ));
                }
            }
            None => return Err(self.check_share_group(id).expect_err("not a share group")),
        }
        self.share_bump(id, out);
        Ok(self.share_group(id).and_then(|g| g.epoch).unwrap_or(0))
    }

    /// The driver set the state of `done` (AlterShareGroupOffsets): they are initialized.
    pub fn share_offsets_set(&mut self, id: &str, done: &Partitions) -> Output {
        let mut out = Output::default();
        let Some(g) = self.share_group(id) else {
            return out;
        };
        let (mut initialized, mut initializing) = state_parts(g.state.as_ref());
        for (t, ps) in done {
            initialized
                .entry(*t)
                .or_default()
                .extend(ps.iter().copied());
            if let Some(s) = initializing.get_mut(t) {
                s.retain(|p| !ps.contains(p));
            }
        }
        initializing.retain(|_, ps| !ps.is_empty());
        let topics = self.topics.clone();
        let value = state_value(&initialized, &initializing, topics.as_ref());
        self.share_emit(ShareRecord::State(id.into(), Some(value)), &mut out);
        out
    }

    /// The driver deleted the state of `topics` (DeleteShareGroupOffsets): they are no
    /// longer initialized (a member subscribing again starts them afresh).
    pub fn share_offsets_deleted(&mut self, id: &str, topics: &[Uuid]) -> Output {
        let mut out = Output::default();
        let Some(g) = self.share_group(id) else {
            return out;
        };
        let (mut initialized, mut initializing) = state_parts(g.state.as_ref());
        for t in topics {
            initialized.remove(t);
            initializing.remove(t);
        }
        let source = self.topics.clone();
        let value = state_value(&initialized, &initializing, source.as_ref());
        self.share_emit(ShareRecord::State(id.into(), Some(value)), &mut out);
        self.share_bump(id, &mut out);
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::GroupConfig;
    use crate::records::GroupRecord;

    #[derive(Debug)]
    struct Topics(Vec<(String, u128, i32)>);

    impl TopicSource for Topics {
        fn topic(&self, name: &str) -> Option<(u128, i32)> {
            self.0.iter().find(|t| t.0 == name).map(|t| (t.1, t.2))
        }
        fn name(&self, id: u128) -> Option<String> {
            self.0.iter().find(|t| t.1 == id).map(|t| t.0.clone())
        }
        fn names(&self) -> Vec<String> {
            self.0.iter().map(|t| t.0.clone()).collect()
        }
        fn stamp(&self) -> u64 {
            0
        }
    }

    fn ctx(token: u64) -> RequestContext {
        RequestContext {
            token,
            version: 1,
            client_id: "c".into(),
            client_host: "/127.0.0.1".into(),
        }
    }

    fn beat(
        shard: &mut Shard,
        topics: &Arc<Topics>,
        member: &str,
        epoch: i32,
        subscribe: bool,
    ) -> (ShareGroupHeartbeatResponse, Output) {
        let r = ShareGroupHeartbeatRequest {
            group_id: "g".into(),
            member_id: member.into(),
            member_epoch: epoch,
            rack_id: None,
            subscribed_topic_names: subscribe.then(|| vec!["t".to_string()]),
            ..Default::default()
        };
        let mut out = shard.share_heartbeat(&ctx(1), &r, topics.clone(), 0);
        let (_, body) = out.replies.pop().unwrap();
        let ResponseBody::ShareGroupHeartbeat(body) = body else {
            panic!("{body:?}")
        };
        (body, out)
    }

    fn assigned(r: &ShareGroupHeartbeatResponse) -> Vec<i32> {
        r.assignment
            .as_ref()
            .map(|a| {
                a.topic_partitions
                    .iter()
                    .flat_map(|t| t.partitions.clone())
                    .collect()
            })
            .unwrap_or_default()
    }

    /// Folds every record a shard wrote into a fresh shard: the state must be the same.
    fn reload(records: &[GroupRecord]) -> Shard {
        let mut s = Shard::new(GroupConfig::default(), 1);
        for r in records {
            let (k, v) = r.encode();
            s.replay(GroupRecord::decode(&k, v.as_ref()).unwrap().unwrap(), 0);
        }
        s
    }

    #[test]
    fn partitions_are_assigned_once_their_state_exists_and_shared_by_members() {
        let topics = Arc::new(Topics(vec![("t".into(), 7, 2)]));
        let mut s = Shard::new(GroupConfig::default(), 1);
        let mut log = Vec::new();
        let (r, out) = beat(&mut s, &topics, "m1", 0, true);
        assert_eq!(r.error_code, 0, "{r:?}");
        assert_eq!(
            assigned(&r),
            Vec::<i32>::new(),
            "no state yet: nothing assigned"
        );
        let jobs = out.share_jobs.clone();
        log.extend(out.records);
        let [ShareJob::Initialize {
            partitions,
            state_epoch,
            ..
        }] = &jobs[..]
        else {
            panic!("{jobs:?}")
        };
        assert_eq!(*state_epoch, r.member_epoch.max(1));
        assert_eq!(partitions[&Uuid::from_u128(7)], BTreeSet::from([0, 1]));
        // A second heartbeat while the job runs asks for nothing more.
        let (r, out) = beat(&mut s, &topics, "m1", r.member_epoch, false);
        assert!(out.share_jobs.is_empty());
        log.extend(out.records);
        let out = s.share_initialized("g", partitions);
        log.extend(out.records);
        let (r, out) = beat(&mut s, &topics, "m1", r.member_epoch, false);
        log.extend(out.records);
        assert_eq!(assigned(&r), vec![0, 1]);
        // A second member: two partitions, two members: one each.
        let (r2, out) = beat(&mut s, &topics, "m2", 0, true);
        log.extend(out.records);
        let (r1, out) = beat(&mut s, &topics, "m1", r.member_epoch, false);
        log.extend(out.records);
        let mut both = assigned(&r1);
        both.extend(assigned(&r2));
        both.sort();
        assert_eq!(both, vec![0, 1], "{r1:?} {r2:?}");
        // A stale epoch is fenced.
        let (stale, _) = beat(&mut s, &topics, "m1", r.member_epoch, false);
        assert_eq!(stale.error_code, ErrorCode::FencedMemberEpoch.code());
        // The log folds back to the same groups.
        assert_eq!(reload(&log).share_groups, s.share_groups);
        // Leaving: the group keeps one member, which gets both partitions.
        let (left, out) = beat(&mut s, &topics, "m2", -1, false);
        assert_eq!(left.member_epoch, -1);
        log.extend(out.records);
        let (r1, _) = beat(&mut s, &topics, "m1", r1.member_epoch, false);
        assert_eq!(assigned(&r1), vec![0, 1]);
    }

    #[test]
    fn bad_heartbeats_get_kafkas_errors() {
        let topics = Arc::new(Topics(vec![("t".into(), 7, 2)]));
        let mut s = Shard::new(GroupConfig::default(), 1);
        let (r, _) = beat(&mut s, &topics, "", 0, true);
        assert_eq!(r.error_message.as_deref(), Some("MemberId can't be empty."));
        let (r, _) = beat(&mut s, &topics, "m", 0, false);
        assert_eq!(
            r.error_message.as_deref(),
            Some("SubscribedTopicNames must be set in first request.")
        );
        let (r, _) = beat(&mut s, &topics, "m", 3, false);
        assert_eq!(r.error_code, ErrorCode::GroupIdNotFound.code());
        assert_eq!(r.error_message.as_deref(), Some("Share group g not found."));
        let (r, _) = beat(&mut s, &topics, "m", -2, false);
        assert_eq!(r.error_code, ErrorCode::InvalidRequest.code());
    }

    #[test]
    fn an_expired_session_removes_the_member_and_deletion_needs_an_empty_group() {
        let topics = Arc::new(Topics(vec![("t".into(), 7, 1)]));
        let mut s = Shard::new(GroupConfig::default(), 1);
        let (_, out) = beat(&mut s, &topics, "m", 0, true);
        let [ShareJob::Initialize { partitions, .. }] = &out.share_jobs[..] else {
            panic!()
        };
        s.share_initialized("g", &partitions.clone());
        let mut out = Output::default();
        assert_eq!(
            s.delete_share_group("g", &mut out),
            Some(ErrorCode::NonEmptyGroup)
        );
        let out = s.tick(45_000);
        assert!(!out.records.is_empty());
        assert_eq!(s.share_group("g").unwrap().state_name(), "Empty");
        let mut out = Output::default();
        assert_eq!(s.delete_share_group("g", &mut out), Some(ErrorCode::None));
        assert!(s.share_group("g").is_none());
        assert!(matches!(&out.share_jobs[..], [ShareJob::Delete { .. }]));
    }
}
