//! KIP-848 consumer groups on a shard: ConsumerGroupHeartbeat (join, heartbeat, leave, static
//! members), the group epoch and the target assignment (a server-side assignor), each
//! member's reconciliation towards it ([`crate::reconcile`]), session and revocation
//! deadlines, regular-expression subscriptions, and ConsumerGroupDescribe.
//!
//! Every decision is a consumer-group record ([`ConsumerRecord`]) folded into the shard's
//! state as it is emitted, so the state is always the fold of the log; the answer goes out
//! once the records are committed. Only the resolved regular expressions and the time the
//! topics were last looked at are kept beside the records: both are recomputed from the
//! metadata image.
//!
//! A group id names one group of one kind. An empty classic group (offsets only) becomes a
//! consumer group when a consumer-protocol member joins it, and an empty consumer group a
//! classic one when a classic member joins; the offsets stay. A group with members migrates
//! online: see [`crate::migration`].

use crate::assignors::{Assignor, MemberSpec, TopicId};
use crate::consumer_records::{ConsumerGroupFold, ConsumerRecord};
use crate::group::GroupState;
use crate::reconcile::{epoch_accepted, reconcile, MemberState, Partitions, Reconciled};
use crate::records::GroupRecord;
use crate::shard::{Output, RequestContext, Shard};
use crate::timers::TimerKey;
use fjord_protocol::generated::{
    consumer_group_current_member_assignment_value::{
        ConsumerGroupCurrentMemberAssignmentValue as CurrentValue, TopicPartitions as CurrentTp,
    },
    consumer_group_describe_response::{
        Assignment as DescribedAssignment, DescribedGroup, Member as DescribedMember,
        TopicPartitions as DescribedTp,
    },
    consumer_group_heartbeat_request::ConsumerGroupHeartbeatRequest,
    consumer_group_heartbeat_response::{
        Assignment as HeartbeatAssignment, ConsumerGroupHeartbeatResponse,
        TopicPartitions as HeartbeatTp,
    },
    consumer_group_member_metadata_value::ConsumerGroupMemberMetadataValue as MemberValue,
    consumer_group_metadata_value::ConsumerGroupMetadataValue as MetadataValue,
    consumer_group_partition_metadata_value::{
        ConsumerGroupPartitionMetadataValue as PartitionsValue, TopicMetadata,
    },
    consumer_group_target_assignment_member_value::{
        ConsumerGroupTargetAssignmentMemberValue as TargetMemberValue, TopicPartition as TargetTp,
    },
    consumer_group_target_assignment_metadata_value::ConsumerGroupTargetAssignmentMetadataValue as TargetValue,
    list_groups_response::ListedGroup,
};
use fjord_protocol::{ErrorCode, ResponseBody};
use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;
use uuid::Uuid;

/// The member epoch a member sends to leave the group.
pub const LEAVE_GROUP_MEMBER_EPOCH: i32 = -1;
/// The member epoch a static member sends to leave for a while (it keeps its partitions until
/// its session ends).
pub const LEAVE_GROUP_STATIC_MEMBER_EPOCH: i32 = -2;
/// The most distinct regular expressions one group resolves.
pub const MAX_REGEXES_PER_GROUP: usize = 100;
/// The longest regular expression accepted, in bytes.
pub const MAX_REGEX_BYTES: usize = 4096;
/// The most topic names one member may subscribe to (fjord's bound: the member's record
/// holds them all).
pub const MAX_SUBSCRIBED_TOPICS: usize = 10_000;
/// The group type ListGroups shows.
pub const CONSUMER: &str = "consumer";

/// The topics the coordinator can see (the metadata image, from the driver).
pub trait TopicSource: std::fmt::Debug {
    /// A topic's id and partition count, by name.
    fn topic(&self, name: &str) -> Option<(TopicId, i32)>;
    /// A topic's name, by id.
    fn name(&self, id: TopicId) -> Option<String>;
    /// The names of every topic a regular expression may match (internal ones included, as
    /// Kafka's coordinator matches them).
    fn names(&self) -> Vec<String>;
    /// A number that changes whenever topics are created, deleted or grow.
    fn stamp(&self) -> u64;
    /// A group's own value of an integer group config (the `GROUP` config resource, such as
    /// `consumer.session.timeout.ms`), if it sets one.
    fn group_int(&self, _group: &str, _key: &str) -> Option<i32> {
        None
    }
    /// A group's own value of a text group config (such as
    /// `streams.rack.aware.assignment.tags`), if it sets one.
    fn group_text(&self, _group: &str, _key: &str) -> Option<String> {
        None
    }
}

/// The group config key that overrides `group.consumer.session.timeout.ms` for one group.
pub const GROUP_SESSION_TIMEOUT_KEY: &str = "consumer.session.timeout.ms";
/// The group config key that overrides `group.consumer.heartbeat.interval.ms` for one group.
pub const GROUP_HEARTBEAT_INTERVAL_KEY: &str = "consumer.heartbeat.interval.ms";

/// No topics (a shard's source until a request brings the image).
#[derive(Debug, Default)]
pub struct NoTopics;

impl TopicSource for NoTopics {
    fn topic(&self, _: &str) -> Option<(TopicId, i32)> {
        None
    }
    fn name(&self, _: TopicId) -> Option<String> {
        None
    }
    fn names(&self) -> Vec<String> {
        Vec::new()
    }
    fn stamp(&self) -> u64 {
        0
    }
}

/// What a shard keeps beside a consumer group's records (recomputed from the image).
#[derive(Debug, Default)]
pub(crate) struct Runtime {
    /// The topic stamp the subscription was last computed at.
    stamp: Option<u64>,
    /// Each regular expression's matching topics at that stamp.
    pub(crate) regexes: BTreeMap<String, BTreeSet<String>>,
}

/// A member's new record and what it replaces (see [`Shard::apply_member`]).
pub(crate) struct MemberUpdate {
    /// The member.
    pub member_id: String,
    /// Its record before, if it was a member.
    pub existing: Option<MemberValue>,
    /// The static member it replaces: old id, state and target.
    pub replaced: Option<(String, Reconciled, Partitions)>,
    /// The record its new one is compared with (its old one, the replaced member's, or a
    /// new member's).
    pub base: MemberValue,
    /// Its new record.
    pub updated: MemberValue,
    /// The partitions it says it owns, if it said.
    pub owned: Option<Partitions>,
    /// It is (re)joining: a known member rejoining gave everything up.
    pub rejoining: bool,
}

/// A new member's record before the request fills it in.
pub(crate) fn new_member_value() -> MemberValue {
    MemberValue {
        // The generated default of a nullable string is "" (as Kafka's): a new member has
        // none of them.
        instance_id: None,
        rack_id: None,
        subscribed_topic_regex: None,
        server_assignor: None,
        rebalance_timeout_ms: -1,
        ..Default::default()
    }
}

/// True when the member uses the classic protocol (it has classic metadata).
pub fn is_classic(m: &MemberValue) -> bool {
    m.classic_member_metadata.is_some()
}

/// Converts `(topic id, partitions)` pairs to partitions by topic.
pub(crate) fn parts<'a>(items: impl IntoIterator<Item = (Uuid, &'a Vec<i32>)>) -> Partitions {
    let mut out = Partitions::new();
    for (id, ps) in items {
        if !ps.is_empty() {
            out.entry(id.as_u128())
                .or_default()
                .extend(ps.iter().copied());
        }
    }
    out
}

/// Partitions by topic as a wire list of `$ty` (each with a topic id and its partitions).
macro_rules! topic_list {
    ($p:expr, $ty:ident) => {
        $p.iter()
            .map(|(t, ps)| $ty {
                topic_id: Uuid::from_u128(*t),
                partitions: ps.iter().copied().collect(),
                ..Default::default()
            })
            .collect()
    };
}

/// A member's reconciliation state from its record.
fn reconciled(v: &CurrentValue) -> Reconciled {
    Reconciled {
        member_epoch: v.member_epoch,
        previous_member_epoch: v.previous_member_epoch,
        state: match v.state {
            1 => MemberState::UnrevokedPartitions,
            2 => MemberState::UnreleasedPartitions,
            _ => MemberState::Stable,
        },
        assigned: parts(
            v.assigned_partitions
                .iter()
                .map(|t| (t.topic_id, &t.partitions)),
        ),
        pending_revocation: parts(
            v.partitions_pending_revocation
                .iter()
                .map(|t| (t.topic_id, &t.partitions)),
        ),
    }
}

/// A member's record from its reconciliation state.
pub(crate) fn current_value(r: &Reconciled) -> CurrentValue {
    let list = |p: &Partitions| -> Vec<CurrentTp> { topic_list!(p, CurrentTp) };
    CurrentValue {
        member_epoch: r.member_epoch,
        previous_member_epoch: r.previous_member_epoch,
        state: match r.state {
            MemberState::Stable => 0,
            MemberState::UnrevokedPartitions => 1,
            MemberState::UnreleasedPartitions => 2,
        },
        assigned_partitions: list(&r.assigned),
        partitions_pending_revocation: list(&r.pending_revocation),
        ..Default::default()
    }
}

/// A target assignment record's value.
pub(crate) fn target_value(p: &Partitions) -> TargetMemberValue {
    TargetMemberValue {
        topic_partitions: topic_list!(p, TargetTp),
        ..Default::default()
    }
}

/// The member check of an offset commit or fetch in a group with member epochs (consumer
/// and streams groups): an admin's request (no member, epoch below zero) passes when
/// `admin_passes`; otherwise the member must be `known` (its epoch, and the error a stale
/// epoch gets), else UNKNOWN_MEMBER_ID.
pub(crate) fn member_verdict(
    epoch: i32,
    member: &str,
    admin_passes: bool,
    known: Option<(i32, ErrorCode)>,
) -> Result<(), ErrorCode> {
    if epoch < 0 && member.is_empty() {
        return if admin_passes {
            Ok(())
        } else {
            Err(ErrorCode::UnknownMemberId)
        };
    }
    match known {
        None => Err(ErrorCode::UnknownMemberId),
        Some((e, stale)) if e != epoch => Err(stale),
        Some(_) => Ok(()),
    }
}

/// A refusal: its code and Kafka's message.
pub(crate) type Refusal = (ErrorCode, String);

/// FENCED_MEMBER_EPOCH for a member of a `kind` ("consumer group", "share group") whose epoch
/// `got` is not the coordinator's `known`, in Kafka's words.
pub(crate) fn fenced_member_epoch(kind: &str, got: i32, known: i32) -> Refusal {
    let side = if got > known { "greater" } else { "smaller" };
    (
        ErrorCode::FencedMemberEpoch,
        format!(
            "The {kind} member has a {side} member epoch ({got}) than the one known by the \
             group coordinator ({known}). The member must abandon all its partitions and rejoin."
        ),
    )
}

fn invalid(message: &str) -> Refusal {
    (ErrorCode::InvalidRequest, message.to_string())
}

/// The heartbeat answer carrying an error.
fn heartbeat_error(code: ErrorCode, message: String) -> ResponseBody {
    ResponseBody::ConsumerGroupHeartbeat(ConsumerGroupHeartbeatResponse {
        error_code: code.code(),
        error_message: Some(message),
        member_epoch: 0,
        ..Default::default()
    })
}

/// Compiles a subscription's regular expression as Kafka matches it (the whole name; RE2
/// syntax, which the `regex` crate shares).
pub fn compile_regex(regex: &str) -> Result<regex::Regex, Refusal> {
    if regex.len() > MAX_REGEX_BYTES {
        return Err((
            ErrorCode::InvalidRegularExpression,
            format!("SubscribedTopicRegex is longer than {MAX_REGEX_BYTES} bytes."),
        ));
    }
    regex::RegexBuilder::new(&format!("^(?:{regex})$"))
        .size_limit(1 << 20)
        .build()
        .map_err(|e| {
            (
                ErrorCode::InvalidRegularExpression,
                format!("SubscribedTopicRegex `{regex}` is not a valid regular expression: {e}."),
            )
        })
}

/// Kafka's checks of a heartbeat's fields (`throwIfConsumerGroupHeartbeatRequestIsInvalid`).
fn check_request(
    r: &ConsumerGroupHeartbeatRequest,
    version: i16,
    assignors: &[Assignor],
) -> Result<(), Refusal> {
    // Kafka checks a v1+ member id (generated by the client) before the group id.
    if version >= 1 && r.member_id.is_empty() {
        return Err(invalid("MemberId can't be empty."));
    }
    if r.group_id.is_empty() {
        return Err(invalid("GroupId can't be empty."));
    }
    if r.instance_id.as_deref() == Some("") {
        return Err(invalid("InstanceId can't be empty."));
    }
    if r.rack_id.as_deref() == Some("") {
        return Err(invalid("RackId can't be empty."));
    }
    match r.member_epoch {
        e if e > 0 || e == LEAVE_GROUP_MEMBER_EPOCH => {
            if r.member_id.is_empty() {
                return Err(invalid("MemberId can't be empty."));
            }
        }
        0 => {
            if version >= 1 && r.member_id.is_empty() {
                return Err(invalid("MemberId can't be empty."));
            }
            if r.rebalance_timeout_ms == -1 {
                return Err(invalid(
                    "RebalanceTimeoutMs must be provided in first request.",
                ));
            }
            if r.topic_partitions.as_ref().is_none_or(|t| !t.is_empty()) {
                return Err(invalid("TopicPartitions must be empty when (re-)joining."));
            }
            let names = r.subscribed_topic_names.as_ref();
            if names.is_none_or(|n| n.is_empty()) && r.subscribed_topic_regex.is_none() {
                return Err(invalid(
                    "SubscribedTopicNames or SubscribedTopicRegex must be set in first request.",
                ));
            }
        }
        LEAVE_GROUP_STATIC_MEMBER_EPOCH => {
            if r.member_id.is_empty() {
                return Err(invalid("MemberId can't be empty."));
            }
            if r.instance_id.is_none() {
                return Err(invalid("InstanceId can't be null."));
            }
        }
        _ => return Err(invalid("MemberEpoch is invalid.")),
    }
    if r.subscribed_topic_names
        .as_ref()
        .is_some_and(|n| n.len() > MAX_SUBSCRIBED_TOPICS)
    {
        return Err(invalid(&format!(
            "SubscribedTopicNames may name at most {MAX_SUBSCRIBED_TOPICS} topics."
        )));
    }
    if let Some(regex) = &r.subscribed_topic_regex {
        if !regex.is_empty() {
            compile_regex(regex)?;
        }
    }
    if let Some(name) = &r.server_assignor {
        if !assignors.iter().any(|a| a.name() == name) {
            let names: Vec<&str> = assignors.iter().map(|a| a.name()).collect();
            return Err((
                ErrorCode::UnsupportedAssignor,
                format!(
                    "ServerAssignor {name} is not supported. Supported assignors: {}.",
                    names.join(", ")
                ),
            ));
        }
    }
    Ok(())
}

impl ConsumerGroupFold {
    /// The group epoch (0 before the first member).
    pub fn group_epoch(&self) -> i32 {
        self.epoch.unwrap_or(0)
    }

    /// The target assignment's epoch.
    pub fn assignment_epoch(&self) -> i32 {
        self.target_epoch.unwrap_or(0)
    }

    /// A member's reconciliation state (a new member's when it has no record yet).
    pub fn reconciled(&self, member: &str) -> Reconciled {
        self.current.get(member).map(reconciled).unwrap_or_default()
    }

    /// A member's target assignment.
    pub fn target_of(&self, member: &str) -> Partitions {
        self.target
            .get(member)
            .map(|v| {
                parts(
                    v.topic_partitions
                        .iter()
                        .map(|t| (t.topic_id, &t.partitions)),
                )
            })
            .unwrap_or_default()
    }

    /// The record a member's new one is compared with: its own, the static member's it
    /// replaces, or a new member's.
    pub(crate) fn base_member(
        &self,
        existing: Option<&MemberValue>,
        replaced: Option<&(String, Reconciled, Partitions)>,
    ) -> MemberValue {
        existing
            .or_else(|| replaced.and_then(|(old, ..)| self.members.get(old)))
            .cloned()
            .unwrap_or_else(new_member_value)
    }

    /// The member holding `instance` as its `group.instance.id`.
    pub fn static_member(&self, instance: &str) -> Option<&str> {
        self.members
            .iter()
            .find(|(_, m)| m.instance_id.as_deref() == Some(instance))
            .map(|(id, _)| id.as_str())
    }

    /// Kafka's state name: Empty, Assigning (a new target is due), Reconciling (a member
    /// is not at the target yet) or Stable.
    pub fn state_name(&self) -> &'static str {
        if self.members.is_empty() {
            return "Empty";
        }
        if self.group_epoch() > self.assignment_epoch() {
            return "Assigning";
        }
        let target = self.assignment_epoch();
        let reconciling = self.members.keys().any(|id| {
            let r = self.reconciled(id);
            r.member_epoch != target || r.state != MemberState::Stable
        });
        if reconciling {
            "Reconciling"
        } else {
            "Stable"
        }
    }

    /// The assignor the group uses: the one most of its members ask for, else the first
    /// configured.
    pub fn assignor(&self, configured: &[Assignor]) -> Assignor {
        let mut votes: BTreeMap<&str, usize> = BTreeMap::new();
        for m in self.members.values() {
            if let Some(a) = &m.server_assignor {
                *votes.entry(a.as_str()).or_default() += 1;
            }
        }
        let default = configured.first().copied().unwrap_or(Assignor::Uniform);
        votes
            .into_iter()
            .max_by_key(|(_, n)| *n)
            .and_then(|(name, _)| Assignor::named(name))
            .filter(|a| configured.contains(a))
            .unwrap_or(default)
    }

    /// The partitions members other than `member` hold (assigned or still to revoke), read
    /// once per reconciliation rather than once per partition asked about.
    pub(crate) fn held_by_others(&self, member: &str) -> std::collections::HashSet<(TopicId, i32)> {
        self.current
            .iter()
            .filter(|(id, _)| *id != member)
            .flat_map(|(_, v)| {
                v.assigned_partitions
                    .iter()
                    .chain(v.partitions_pending_revocation.iter())
            })
            .flat_map(|t| t.partitions.iter().map(move |p| (t.topic_id.as_u128(), *p)))
            .collect()
    }
}

impl Shard {
    /// Applies one decision: folds it into the state and queues it to be written.
    pub(crate) fn decide(&mut self, out: &mut Output, record: ConsumerRecord) {
        self.consumer_groups.replay(record.clone());
        out.records.push(GroupRecord::Consumer(record));
    }

    /// The consumer group `id`, if one exists.
    pub fn consumer_group(&self, id: &str) -> Option<&ConsumerGroupFold> {
        self.consumer_groups.groups.get(id)
    }

    /// True when `id` is a consumer group with members (a classic member may not join it).
    pub fn is_active_consumer_group(&self, id: &str) -> bool {
        self.consumer_group(id)
            .is_some_and(|g| !g.members.is_empty())
    }

    /// Removes the empty consumer group `id` (its records tombstoned; its offsets stay), so a
    /// classic member can make it a classic group.
    pub(crate) fn drop_empty_consumer_group(&mut self, id: &str, out: &mut Output) {
        if self
            .consumer_groups
            .groups
            .get(id)
            .is_some_and(|g| g.members.is_empty())
        {
            self.drop_consumer_group_records(id, out);
        }
    }

    /// ConsumerGroupHeartbeat: joins, heartbeats and leaves (see the module's note). The
    /// answer waits for the records it emits.
    pub fn consumer_heartbeat(
        &mut self,
        ctx: &RequestContext,
        r: &ConsumerGroupHeartbeatRequest,
        topics: Arc<dyn TopicSource + Send + Sync>,
        now: i64,
    ) -> Output {
        self.topics = topics.clone();
        let mut out = Output::default();
        let body = match self.try_heartbeat(ctx, r, topics.as_ref(), now, &mut out) {
            Ok(body) => ResponseBody::ConsumerGroupHeartbeat(body),
            Err((code, message)) => heartbeat_error(code, message),
        };
        out.reply(ctx.token, body);
        out
    }

    fn try_heartbeat(
        &mut self,
        ctx: &RequestContext,
        r: &ConsumerGroupHeartbeatRequest,
        topics: &dyn TopicSource,
        now: i64,
        out: &mut Output,
    ) -> Result<ConsumerGroupHeartbeatResponse, Refusal> {
        check_request(r, ctx.version, &self.config.consumer_assignors)?;
        let group_id = r.group_id.as_str();
        if r.member_epoch == LEAVE_GROUP_MEMBER_EPOCH
            || r.member_epoch == LEAVE_GROUP_STATIC_MEMBER_EPOCH
        {
            return self.consumer_leave(r, now, out);
        }
        let joining = r.member_epoch == 0;
        if self.share_group(group_id).is_some() {
            return Err((
                ErrorCode::GroupIdNotFound,
                format!("Group {group_id} is not a consumer group."),
            ));
        }
        self.open_consumer_group(group_id, joining, now, out)?;
        let mut member_id = r.member_id.clone();
        if member_id.is_empty() {
            member_id = self.uuid_text();
        }
        let g = &self.consumer_groups.groups[group_id];
        // Find the member, or make it: a static member's rejoin replaces its old member id.
        let existing = g.members.get(&member_id).cloned();
        let replaced = static_takeover(g, r, &member_id, joining)?;
        let owned = r
            .topic_partitions
            .as_ref()
            .map(|tps| parts(tps.iter().map(|t| (t.topic_id, &t.partitions))));
        if !joining {
            if existing.is_none() {
                return Err((
                    ErrorCode::UnknownMemberId,
                    format!("Member {member_id} is not a member of group {group_id}."),
                ));
            }
            let rec = g.reconciled(&member_id);
            if !epoch_accepted(&rec, r.member_epoch, owned.as_ref()) {
                return Err(fenced_member_epoch(
                    "consumer group",
                    r.member_epoch,
                    rec.member_epoch,
                ));
            }
        } else if existing.is_none()
            && replaced.is_none()
            && g.members.len() >= self.config.consumer_max_size
        {
            return Err((
                ErrorCode::GroupMaxSizeReached,
                format!(
                    "The consumer group has reached its maximum capacity of {} members.",
                    self.config.consumer_max_size
                ),
            ));
        }

        // 1. The member's record; a new subscription bumps the group epoch.
        let base = g.base_member(existing.as_ref(), replaced.as_ref());
        let updated = updated_member(&base, r, ctx);
        let (before, after) = self.apply_member(
            group_id,
            MemberUpdate {
                member_id: member_id.clone(),
                existing,
                replaced,
                base,
                updated,
                owned,
                // A member rejoining under its id owns nothing: it gave everything up.
                rejoining: joining,
            },
            topics,
            now,
            out,
        );
        self.touch_member(group_id, &member_id, now);
        let full = joining
            || (r.rebalance_timeout_ms != -1
                && r.subscribed_topic_names.is_some()
                && r.topic_partitions.is_some());
        let assignment = (full || after.assigned != before.assigned).then(|| HeartbeatAssignment {
            topic_partitions: topic_list!(after.assigned, HeartbeatTp),
            ..Default::default()
        });
        Ok(ConsumerGroupHeartbeatResponse {
            member_id: Some(member_id),
            member_epoch: after.member_epoch,
            heartbeat_interval_ms: self.consumer_heartbeat_ms(group_id),
            assignment,
            ..Default::default()
        })
    }

    /// Steps 1 to 3 of a heartbeat or a classic join: the member's record (replacing a static
    /// member's old id), a new group epoch when the subscription changed, a new target
    /// assignment when due, and the member's reconciliation. Returns its state before and
    /// after.
    pub(crate) fn apply_member(
        &mut self,
        group: &str,
        u: MemberUpdate,
        topics: &dyn TopicSource,
        now: i64,
        out: &mut Output,
    ) -> (Reconciled, Reconciled) {
        let MemberUpdate {
            member_id,
            existing,
            replaced,
            base,
            updated,
            owned,
            rejoining,
        } = u;
        let subscription_changed = existing.is_none() && replaced.is_none()
            || base.subscribed_topic_names != updated.subscribed_topic_names
            || base.subscribed_topic_regex != updated.subscribed_topic_regex
            || base.server_assignor != updated.server_assignor;
        if let Some((old, old_rec, old_target)) = &replaced {
            self.replace_consumer_static_member(group, old, &member_id, old_rec, old_target, out);
        }
        if existing.as_ref() != Some(&updated) {
            self.decide(
                out,
                ConsumerRecord::Member {
                    group: group.into(),
                    member: member_id.clone(),
                    value: Some(updated),
                },
            );
        }
        let mut bump = subscription_changed;
        if self.refresh_subscription(group, topics, subscription_changed, out) {
            bump = true;
        }
        if bump {
            self.bump_group_epoch(group, out);
        }
        // 2. A new target assignment when the group epoch moved past it.
        self.maybe_assign(group, out);
        // 3. The member's reconciliation towards its target.
        let before = self.consumer_groups.groups[group].reconciled(&member_id);
        let before = if rejoining && existing.is_some() {
            Reconciled {
                pending_revocation: Partitions::new(),
                ..before
            }
        } else {
            before
        };
        let after = self.reconcile_member(group, &member_id, &before, owned.as_ref(), now, out);
        (before, after)
    }

    /// Makes sure `id` is a consumer group: created (when `create`), or converted from an
    /// empty classic group; a classic group with members is refused.
    fn open_consumer_group(
        &mut self,
        id: &str,
        create: bool,
        now: i64,
        out: &mut Output,
    ) -> Result<(), Refusal> {
        if let Some(g) = self.groups.get_mut(id) {
            if g.state == GroupState::Dead {
                return Err((
                    ErrorCode::CoordinatorNotAvailable,
                    "The coordinator is not available.".into(),
                ));
            }
            // Member ids handed out and not yet used do not count (Kafka's group is Empty).
            let classic = g.state != GroupState::Empty || !g.members.is_empty();
            if classic {
                if !create {
                    return Err((
                        ErrorCode::GroupIdNotFound,
                        format!("Group {id} is not a consumer group"),
                    ));
                }
                // Online upgrade: its members become classic members of a consumer group.
                return self.upgrade_classic_group(id, now, out);
            }
            g.drop_pending_members(&mut self.timers);
            if g.generation > 0 || g.protocol_type.is_some() {
                // An empty classic group: its metadata goes, its offsets stay.
                g.generation = 0;
                g.protocol_type = None;
                g.protocol = None;
                g.leader = None;
                out.records.push(GroupRecord::Group {
                    group: id.into(),
                    value: None,
                });
            }
        }
        if self.consumer_groups.groups.contains_key(id) {
            return Ok(());
        }
        if !create {
            return Err((
                ErrorCode::GroupIdNotFound,
                format!("Consumer group {id} not found."),
            ));
        }
        self.open_offsets_holder(id, now)?;
        self.decide(
            out,
            ConsumerRecord::Metadata {
                group: id.into(),
                value: Some(MetadataValue {
                    epoch: 0,
                    ..Default::default()
                }),
            },
        );
        Ok(())
    }

    /// The memberless classic entry that holds a new consumer or streams group's offsets;
    /// COORDINATOR_NOT_AVAILABLE when the shard has no room for another group.
    pub(crate) fn open_offsets_holder(&mut self, id: &str, now: i64) -> Result<(), Refusal> {
        if !self.groups.contains_key(id) && !self.has_room() {
            return Err((
                ErrorCode::CoordinatorNotAvailable,
                "The coordinator is not available.".into(),
            ));
        }
        self.groups
            .entry(id.into())
            .or_insert_with(|| crate::group::Group::new(id, now));
        Ok(())
    }

    /// Moves a static member's records to its new member id (Kafka's `replaceMember`).
    fn replace_consumer_static_member(
        &mut self,
        group: &str,
        old: &str,
        new: &str,
        old_rec: &Reconciled,
        old_target: &Partitions,
        out: &mut Output,
    ) {
        self.remove_member_records(group, old, out);
        self.decide(
            out,
            ConsumerRecord::TargetMember {
                group: group.into(),
                member: new.into(),
                value: Some(target_value(old_target)),
            },
        );
        let rec = Reconciled {
            member_epoch: 0,
            previous_member_epoch: 0,
            state: MemberState::Stable,
            assigned: old_rec.assigned.clone(),
            pending_revocation: Partitions::new(),
        };
        self.decide(
            out,
            ConsumerRecord::Current {
                group: group.into(),
                member: new.into(),
                value: Some(current_value(&rec)),
            },
        );
    }

    /// The tombstones of a member's records, and its deadlines cancelled.
    pub(crate) fn remove_member_records(&mut self, group: &str, member: &str, out: &mut Output) {
        let g = &self.consumer_groups.groups[group];
        let mut records = Vec::new();
        if g.current.contains_key(member) {
            records.push(ConsumerRecord::Current {
                group: group.into(),
                member: member.into(),
                value: None,
            });
        }
        if g.target.contains_key(member) {
            records.push(ConsumerRecord::TargetMember {
                group: group.into(),
                member: member.into(),
                value: None,
            });
        }
        if g.members.contains_key(member) {
            records.push(ConsumerRecord::Member {
                group: group.into(),
                member: member.into(),
                value: None,
            });
        }
        for r in records {
            self.decide(out, r);
        }
        for key in [
            TimerKey::ConsumerSession {
                group: group.into(),
                member: member.into(),
            },
            TimerKey::ConsumerRevocation {
                group: group.into(),
                member: member.into(),
            },
            TimerKey::ConsumerJoin {
                group: group.into(),
                member: member.into(),
            },
            TimerKey::ConsumerSync {
                group: group.into(),
                member: member.into(),
            },
        ] {
            self.timers.cancel(&key);
        }
    }

    /// A consumer group's session timeout: the group's own `consumer.session.timeout.ms`,
    /// else the coordinator's `group.consumer.session.timeout.ms`.
    pub(crate) fn consumer_session_ms(&self, group: &str) -> i32 {
        self.topics
            .group_int(group, GROUP_SESSION_TIMEOUT_KEY)
            .unwrap_or(self.config.consumer_session_timeout_ms)
    }

    /// A consumer group's heartbeat interval: the group's own
    /// `consumer.heartbeat.interval.ms`, else the coordinator's.
    pub(crate) fn consumer_heartbeat_ms(&self, group: &str) -> i32 {
        self.topics
            .group_int(group, GROUP_HEARTBEAT_INTERVAL_KEY)
            .unwrap_or(self.config.consumer_heartbeat_interval_ms)
    }

    /// Restarts a member's session: a classic member's own timeout, else the group's
    /// ([`Shard::consumer_session_ms`]).
    pub(crate) fn touch_member(&mut self, group: &str, member: &str, now: i64) {
        let default = self.consumer_session_ms(group);
        let timeout = self
            .consumer_group(group)
            .and_then(|g| g.members.get(member))
            .map_or(0, |m| crate::migration::session_timeout_ms(default, m));
        self.timers.schedule(
            TimerKey::ConsumerSession {
                group: group.into(),
                member: member.into(),
            },
            now + timeout as i64,
        );
    }

    /// Writes the next group epoch.
    pub(crate) fn bump_group_epoch(&mut self, group: &str, out: &mut Output) {
        let epoch = self.consumer_groups.groups[group].group_epoch() + 1;
        self.write_group_epoch(group, epoch, out);
        self.consumer_rebalances += 1;
    }

    /// Recomputes the subscribed topics' metadata when a subscription changed or the topics
    /// did; writes it and returns true when it differs from the group's record.
    pub(crate) fn refresh_subscription(
        &mut self,
        group: &str,
        topics: &dyn TopicSource,
        subscription_changed: bool,
        out: &mut Output,
    ) -> bool {
        let stamp = topics.stamp();
        let runtime = self.consumer_runtime.entry(group.into()).or_default();
        if !subscription_changed && runtime.stamp == Some(stamp) {
            return false;
        }
        let g = &self.consumer_groups.groups[group];
        // Resolve each regular expression against the topics.
        let wanted: BTreeSet<String> = g
            .members
            .values()
            .filter_map(|m| m.subscribed_topic_regex.clone())
            .take(MAX_REGEXES_PER_GROUP)
            .collect();
        if runtime.stamp != Some(stamp) {
            runtime.regexes.clear();
        }
        runtime.regexes.retain(|r, _| wanted.contains(r));
        let missing: Vec<String> = wanted
            .into_iter()
            .filter(|r| !runtime.regexes.contains_key(r))
            .collect();
        if !missing.is_empty() {
            let names = topics.names();
            for regex in missing {
                let matched = match compile_regex(&regex) {
                    Ok(re) => names.iter().filter(|n| re.is_match(n)).cloned().collect(),
                    Err(_) => BTreeSet::new(),
                };
                runtime.regexes.insert(regex, matched);
            }
        }
        runtime.stamp = Some(stamp);
        let mut names: BTreeSet<&str> = BTreeSet::new();
        for m in g.members.values() {
            names.extend(m.subscribed_topic_names.iter().map(String::as_str));
            if let Some(r) = &m.subscribed_topic_regex {
                if let Some(matched) = runtime.regexes.get(r) {
                    names.extend(matched.iter().map(String::as_str));
                }
            }
        }
        let value = PartitionsValue {
            topics: names
                .into_iter()
                .filter_map(|n| {
                    topics.topic(n).map(|(id, count)| TopicMetadata {
                        topic_id: Uuid::from_u128(id),
                        topic_name: n.to_string(),
                        num_partitions: count,
                        ..Default::default()
                    })
                })
                .collect(),
            ..Default::default()
        };
        let stored = g.partitions.clone().unwrap_or_default();
        if stored == value {
            return false;
        }
        self.decide(
            out,
            ConsumerRecord::Partitions {
                group: group.into(),
                value: Some(value),
            },
        );
        true
    }

    /// Computes and writes a new target assignment when the group epoch is past the
    /// assignment's (only the members whose target changed get a record).
    pub(crate) fn maybe_assign(&mut self, group: &str, out: &mut Output) {
        let g = &self.consumer_groups.groups[group];
        let epoch = g.group_epoch();
        if epoch <= g.assignment_epoch() {
            return;
        }
        let runtime = self.consumer_runtime.get(group);
        let subscribed = g.partitions.clone().unwrap_or_default();
        let by_name: BTreeMap<&str, (TopicId, i32)> = subscribed
            .topics
            .iter()
            .map(|t| {
                (
                    t.topic_name.as_str(),
                    (t.topic_id.as_u128(), t.num_partitions),
                )
            })
            .collect();
        let partitions: BTreeMap<TopicId, i32> = by_name.values().copied().collect();
        let specs: Vec<MemberSpec> = g
            .members
            .iter()
            .map(|(id, m)| {
                let mut names: BTreeSet<&str> = m
                    .subscribed_topic_names
                    .iter()
                    .map(String::as_str)
                    .collect();
                if let (Some(r), Some(rt)) = (&m.subscribed_topic_regex, runtime) {
                    if let Some(matched) = rt.regexes.get(r) {
                        names.extend(matched.iter().map(String::as_str));
                    }
                }
                MemberSpec {
                    id: id.clone(),
                    instance_id: m.instance_id.clone(),
                    topics: names
                        .into_iter()
                        .filter_map(|n| by_name.get(n).map(|(t, _)| *t))
                        .collect(),
                    current: g.reconciled(id).assigned,
                }
            })
            .collect();
        let assignor = g.assignor(&self.config.consumer_assignors);
        let assignment = assignor.assign(&specs, &partitions);
        let changed: Vec<(String, Partitions)> = assignment
            .into_iter()
            .filter(|(id, p)| !g.target.contains_key(id) || g.target_of(id) != *p)
            .collect();
        for (member, p) in changed {
            self.decide(
                out,
                ConsumerRecord::TargetMember {
                    group: group.into(),
                    member,
                    value: Some(target_value(&p)),
                },
            );
        }
        self.write_target_epoch(group, epoch, out);
    }

    /// Writes the target assignment's epoch.
    pub(crate) fn write_target_epoch(&mut self, group: &str, epoch: i32, out: &mut Output) {
        self.decide(
            out,
            ConsumerRecord::Target {
                group: group.into(),
                value: Some(TargetValue {
                    assignment_epoch: epoch,
                    ..Default::default()
                }),
            },
        );
    }

    /// Writes the group epoch.
    pub(crate) fn write_group_epoch(&mut self, group: &str, epoch: i32, out: &mut Output) {
        self.decide(
            out,
            ConsumerRecord::Metadata {
                group: group.into(),
                value: Some(MetadataValue {
                    epoch,
                    ..Default::default()
                }),
            },
        );
    }

    /// Moves `member` one step towards its target (from `before`), writing its record when
    /// it changed, and keeps its revocation deadline.
    fn reconcile_member(
        &mut self,
        group: &str,
        member: &str,
        before: &Reconciled,
        owned: Option<&Partitions>,
        now: i64,
        out: &mut Output,
    ) -> Reconciled {
        let g = &self.consumer_groups.groups[group];
        let target_epoch = g.assignment_epoch();
        let target = g.target_of(member);
        // Built on first use: a member already at its target asks nothing.
        let held = std::cell::OnceCell::new();
        let after = reconcile(before, target_epoch, &target, owned, |t, p| {
            held.get_or_init(|| g.held_by_others(member))
                .contains(&(t, p))
        });
        let stored = g.current.get(member).map(reconciled);
        let timeout = g
            .members
            .get(member)
            .map_or(0, |m| m.rebalance_timeout_ms.max(0));
        if stored.as_ref() == Some(&after) {
            return after;
        }
        self.decide(
            out,
            ConsumerRecord::Current {
                group: group.into(),
                member: member.into(),
                value: Some(current_value(&after)),
            },
        );
        // As Kafka: every change while partitions are to be revoked gives the member its
        // rebalance timeout again; any other state cancels the deadline.
        let key = TimerKey::ConsumerRevocation {
            group: group.into(),
            member: member.into(),
        };
        if after.state == MemberState::UnrevokedPartitions {
            self.timers.schedule(key, now + timeout as i64);
        } else {
            self.timers.cancel(&key);
        }
        after
    }

    /// A member leaving (epoch -1), or a static member leaving for a while (-2).
    fn consumer_leave(
        &mut self,
        r: &ConsumerGroupHeartbeatRequest,
        now: i64,
        out: &mut Output,
    ) -> Result<ConsumerGroupHeartbeatResponse, Refusal> {
        let group = r.group_id.as_str();
        let Some(g) = self.consumer_groups.groups.get(group) else {
            return Err((
                ErrorCode::GroupIdNotFound,
                format!("Group {group} not found."),
            ));
        };
        let member = match r.instance_id.as_deref() {
            None => r.member_id.clone(),
            Some(instance) => match g.static_member(instance) {
                None => {
                    return Err((
                        ErrorCode::UnknownMemberId,
                        format!("Instance id {instance} is unknown."),
                    ))
                }
                Some(id) if id != r.member_id => {
                    return Err((
                        ErrorCode::FencedInstanceId,
                        format!(
                            "Static member {} with instance id {instance} is fenced by existing \
                             member {id}.",
                            r.member_id
                        ),
                    ))
                }
                Some(id) => id.to_string(),
            },
        };
        if !g.members.contains_key(&member) {
            return Err((
                ErrorCode::UnknownMemberId,
                format!("Member {member} is not a member of group {group}."),
            ));
        }
        if r.member_epoch == LEAVE_GROUP_STATIC_MEMBER_EPOCH {
            // It keeps its partitions until its session ends or it comes back.
            let mut rec = g.reconciled(&member);
            rec.previous_member_epoch = rec.member_epoch;
            rec.member_epoch = LEAVE_GROUP_STATIC_MEMBER_EPOCH;
            rec.pending_revocation = Partitions::new();
            self.decide(
                out,
                ConsumerRecord::Current {
                    group: group.into(),
                    member: member.clone(),
                    value: Some(current_value(&rec)),
                },
            );
            self.timers.cancel(&TimerKey::ConsumerRevocation {
                group: group.into(),
                member: member.clone(),
            });
        } else {
            self.fence_consumer_member(group, &member, now, out);
        }
        Ok(ConsumerGroupHeartbeatResponse {
            member_id: Some(member),
            member_epoch: r.member_epoch,
            ..Default::default()
        })
    }

    /// Removes a member (it left, or its session or revocation deadline passed): its
    /// records go and the group epoch moves on.
    pub(crate) fn fence_consumer_member(
        &mut self,
        group: &str,
        member: &str,
        now: i64,
        out: &mut Output,
    ) {
        if self.may_downgrade(group, member, false) {
            // The last consumer-protocol member leaves: the group goes back to classic.
            self.downgrade(group, member, None, now, out);
            return;
        }
        let topics = self.topics.clone();
        self.remove_member_records(group, member, out);
        self.refresh_subscription(group, topics.as_ref(), true, out);
        self.bump_group_epoch(group, out);
    }

    /// A consumer member's session ended.
    pub(crate) fn consumer_session_expired(
        &mut self,
        group: &str,
        member: &str,
        now: i64,
        out: &mut Output,
    ) {
        if self
            .consumer_group(group)
            .is_some_and(|g| g.members.contains_key(member))
        {
            self.fence_consumer_member(group, member, now, out);
        }
    }

    /// A consumer member did not revoke its partitions within its rebalance timeout.
    pub(crate) fn consumer_revocation_expired(
        &mut self,
        group: &str,
        member: &str,
        now: i64,
        out: &mut Output,
    ) {
        let late = self.consumer_group(group).is_some_and(|g| {
            g.members.contains_key(member)
                && g.reconciled(member).state == MemberState::UnrevokedPartitions
        });
        if late {
            self.fence_consumer_member(group, member, now, out);
        }
    }

    /// ConsumerGroupDescribe of one group.
    pub fn describe_consumer_group(&self, id: &str, topics: &dyn TopicSource) -> DescribedGroup {
        let Some(g) = self.consumer_group(id) else {
            let message = if self.groups.get(id).is_some_and(|g| {
                g.state != GroupState::Empty || g.generation > 0 || !g.members.is_empty()
            }) {
                format!("Group {id} is not a consumer group")
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
        let described = |p: &Partitions| DescribedAssignment {
            topic_partitions: p
                .iter()
                .map(|(t, ps)| DescribedTp {
                    topic_id: Uuid::from_u128(*t),
                    topic_name: topics.name(*t).unwrap_or_default(),
                    partitions: ps.iter().copied().collect(),
                    ..Default::default()
                })
                .collect(),
            ..Default::default()
        };
        DescribedGroup {
            group_id: id.into(),
            group_state: g.state_name().into(),
            group_epoch: g.group_epoch(),
            assignment_epoch: g.assignment_epoch(),
            assignor_name: g.assignor(&self.config.consumer_assignors).name().into(),
            members: g
                .members
                .iter()
                .map(|(mid, m)| {
                    let rec = g.reconciled(mid);
                    DescribedMember {
                        member_id: mid.clone(),
                        instance_id: m.instance_id.clone(),
                        rack_id: m.rack_id.clone(),
                        member_epoch: rec.member_epoch,
                        client_id: m.client_id.clone(),
                        client_host: m.client_host.clone(),
                        subscribed_topic_names: m.subscribed_topic_names.clone(),
                        subscribed_topic_regex: m.subscribed_topic_regex.clone(),
                        assignment: described(&rec.assigned),
                        target_assignment: described(&g.target_of(mid)),
                        member_type: if is_classic(m) { 0 } else { 1 },
                        ..Default::default()
                    }
                })
                .collect(),
            authorized_operations: i32::MIN,
            ..Default::default()
        }
    }

    /// The consumer groups ListGroups shows, filtered as [`Shard::list_groups`] does.
    pub(crate) fn list_consumer_groups(&self, states: &[String]) -> Vec<ListedGroup> {
        self.consumer_groups
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
                protocol_type: CONSUMER.into(),
                group_state: g.state_name().into(),
                group_type: CONSUMER.into(),
                ..Default::default()
            })
            .collect()
    }

    /// Why an offset commit of a consumer group's member is refused (Kafka's
    /// `validateOffsetCommit`): None when `group` is not a consumer group. An admin's commit
    /// (no member, epoch below zero) is allowed while the group has no members.
    pub(crate) fn check_consumer_member(
        &self,
        group: &str,
        member: &str,
        epoch: i32,
    ) -> Option<Result<(), ErrorCode>> {
        self.check_member_epoch(group, member, epoch, false)
    }

    /// Why an OffsetFetch (v9+, with a member id and epoch) of a consumer group is refused
    /// (Kafka's `validateOffsetFetch`): an admin's fetch (no member, epoch below zero) is
    /// allowed. Any fetch of a classic group is allowed here.
    pub fn check_offset_fetch(
        &self,
        group: &str,
        member: Option<&str>,
        epoch: i32,
    ) -> Result<(), ErrorCode> {
        self.check_member_epoch(group, member.unwrap_or(""), epoch, true)
            .or_else(|| self.check_streams_member(group, member.unwrap_or(""), epoch, true))
            .unwrap_or(Ok(()))
    }

    /// The member checks of a consumer group (None: not one): the member must be known
    /// (UNKNOWN_MEMBER_ID) at `epoch` (STALE_MEMBER_EPOCH). An admin's request (no member,
    /// epoch below zero) passes when `admin_with_members` or the group has no members.
    fn check_member_epoch(
        &self,
        group: &str,
        member: &str,
        epoch: i32,
        admin_with_members: bool,
    ) -> Option<Result<(), ErrorCode>> {
        let g = self.consumer_group(group)?;
        let known = g
            .members
            .get(member)
            .map(|m| (g.reconciled(member).member_epoch, m));
        Some(member_verdict(
            epoch,
            member,
            admin_with_members || g.members.is_empty(),
            known.map(|(e, m)| {
                // A classic member sends its generation: the member epoch.
                let stale = if is_classic(m) {
                    ErrorCode::IllegalGeneration
                } else {
                    ErrorCode::StaleMemberEpoch
                };
                (e, stale)
            }),
        ))
    }

    /// A new member id: a random UUID in Kafka's text form.
    pub(crate) fn uuid_text(&mut self) -> String {
        let hi = self.next_random();
        let lo = self.next_random();
        fjord_util::uuid_text::encode(&Uuid::from_u64_pair(hi, lo))
    }
}

/// A static member's (re)join: the member whose `group.instance.id` this one takes over (its
/// id, reconciliation and target), or Kafka's refusal (UNRELEASED_INSTANCE_ID,
/// UNKNOWN_MEMBER_ID, FENCED_INSTANCE_ID).
fn static_takeover(
    g: &ConsumerGroupFold,
    r: &ConsumerGroupHeartbeatRequest,
    member_id: &str,
    joining: bool,
) -> Result<Option<(String, Reconciled, Partitions)>, Refusal> {
    let mut replaced: Option<(String, Reconciled, Partitions)> = None;
    if let Some(instance) = r.instance_id.as_deref() {
        let holder = g.static_member(instance).map(str::to_string);
        if joining {
            if let Some(old) = holder.filter(|old| *old != member_id) {
                let old_rec = g.reconciled(&old);
                // A classic member's instance is taken over at once (as Kafka does).
                let classic = g.members.get(&old).is_some_and(is_classic);
                if old_rec.member_epoch != LEAVE_GROUP_STATIC_MEMBER_EPOCH && !classic {
                    return Err((
                        ErrorCode::UnreleasedInstanceId,
                        format!(
                            "Static member {member_id} with instance id {instance} cannot join \
                             the group because the instance id is owned by {old} member."
                        ),
                    ));
                }
                replaced = Some((old.clone(), old_rec, g.target_of(&old)));
            }
        } else {
            match holder {
                None => {
                    return Err((
                        ErrorCode::UnknownMemberId,
                        format!("Instance id {instance} is unknown."),
                    ))
                }
                Some(old) if old != member_id => {
                    return Err((
                        ErrorCode::FencedInstanceId,
                        format!(
                            "Static member {member_id} with instance id {instance} is fenced \
                             by existing member {old}."
                        ),
                    ))
                }
                Some(_) => {}
            }
        }
    }
    Ok(replaced)
}

/// The member's new record: `base` with what the heartbeat sets.
fn updated_member(
    base: &MemberValue,
    r: &ConsumerGroupHeartbeatRequest,
    ctx: &RequestContext,
) -> MemberValue {
    let mut updated = base.clone();
    if let Some(i) = &r.instance_id {
        updated.instance_id = Some(i.clone());
    }
    if let Some(rack) = &r.rack_id {
        updated.rack_id = Some(rack.clone());
    }
    if r.rebalance_timeout_ms != -1 {
        updated.rebalance_timeout_ms = r.rebalance_timeout_ms;
    }
    if let Some(a) = &r.server_assignor {
        updated.server_assignor = Some(a.clone());
    }
    if let Some(names) = &r.subscribed_topic_names {
        let mut names = names.clone();
        names.sort();
        names.dedup();
        updated.subscribed_topic_names = names;
    }
    if let Some(regex) = &r.subscribed_topic_regex {
        updated.subscribed_topic_regex = (!regex.is_empty()).then(|| regex.clone());
    }
    updated.client_id = ctx.client_id.clone();
    updated.client_host = ctx.client_host.clone();
    // A member of this protocol (a classic static member it replaces had metadata).
    updated.classic_member_metadata = None;
    updated
}
