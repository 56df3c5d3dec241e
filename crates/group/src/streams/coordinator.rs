//! The streams-group coordinator on a shard (KIP-1071): StreamsGroupHeartbeat joins,
//! heartbeats and leaves, and the session and revocation deadlines. Each decision is a
//! record ([`StreamsRecord`]) folded at once and written; the answer goes out once the
//! records commit (the shard's [`Output`]).
//!
//! A heartbeat: the member's record (a new member, process or topology epoch bumps the group
//! epoch); the topology configured against the topics (statuses, internal topics for the
//! driver to create; a change of the topics' partition counts bumps the epoch too); a new
//! target assignment by the sticky assignor once the group epoch moved past it; the warm-up
//! refinement; the member's reconciliation (revoke first); the answer with its tasks.

use super::assignor::{sticky, MemberSpec, TaskId, Tasks};
use super::convert::{
    current_of, current_value, from_request, grouped, specs, target_of, target_value,
    topology_value,
};
use super::reconcile::{epoch_accepted, reconcile, Current, Holders, MemberState, Owned};
use super::records::{StreamsGroupFold, StreamsRecord};
use super::topology::{configure, Configured, Status};
use crate::consumer::{fenced_member_epoch, Refusal, TopicSource};
use crate::records::GroupRecord;
use crate::shard::{Output, RequestContext, Shard};
use crate::timers::TimerKey;
use fjord_protocol::generated::{
    streams_group_heartbeat_request::StreamsGroupHeartbeatRequest as Request,
    streams_group_heartbeat_response::{self as resp, StreamsGroupHeartbeatResponse as Response},
    streams_group_member_metadata_value::{self as mv, StreamsGroupMemberMetadataValue},
    streams_group_metadata_value::StreamsGroupMetadataValue,
    streams_group_target_assignment_metadata_value::StreamsGroupTargetAssignmentMetadataValue,
};
use fjord_protocol::{ErrorCode, ResponseBody};
use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;

/// The member epoch of a member leaving the group.
pub const LEAVE_EPOCH: i32 = -1;
/// The member epoch of a static member leaving for a while (it keeps its tasks).
pub const STATIC_LEAVE_EPOCH: i32 = -2;
/// The group type ListGroups shows.
pub const STREAMS: &str = "streams";
/// The group config key overriding `group.streams.session.timeout.ms` for one group.
pub const GROUP_SESSION_TIMEOUT_KEY: &str = "streams.session.timeout.ms";
/// The group config key overriding `group.streams.heartbeat.interval.ms` for one group.
pub const GROUP_HEARTBEAT_INTERVAL_KEY: &str = "streams.heartbeat.interval.ms";
/// The group config key overriding `group.streams.num.standby.replicas` for one group.
pub const GROUP_NUM_STANDBY_KEY: &str = "streams.num.standby.replicas";
/// The group config key overriding `group.streams.num.warmup.replicas` for one group.
pub const GROUP_NUM_WARMUP_KEY: &str = "streams.num.warmup.replicas";
/// The group config key overriding `group.streams.acceptable.recovery.lag` for one group.
pub const GROUP_ACCEPTABLE_LAG_KEY: &str = "streams.acceptable.recovery.lag";
/// The group config key overriding `group.streams.task.offset.interval.ms` for one group.
pub const GROUP_TASK_OFFSET_INTERVAL_KEY: &str = "streams.task.offset.interval.ms";
/// The group config key overriding `group.streams.initial.rebalance.delay.ms` for one group.
pub const GROUP_INITIAL_DELAY_KEY: &str = "streams.initial.rebalance.delay.ms";
/// STALE_TOPOLOGY: the member's topology epoch is behind the group's.
pub const STATUS_STALE_TOPOLOGY: i8 = 0;
/// SHUTDOWN_APPLICATION: a member asked every member to shut down.
pub const STATUS_SHUTDOWN_APPLICATION: i8 = 4;
/// MISSING_CLIENT_TAGS: the member lacks a client tag the rack-aware tags name.
pub const STATUS_MISSING_CLIENT_TAGS: i8 = 6;
/// The first StreamsGroupHeartbeat version told of missing client tags.
const MISSING_CLIENT_TAGS_VERSION: i16 = 1;
/// The group config key overriding `group.streams.rack.aware.assignment.tags` for one group.
pub const GROUP_RACK_TAGS_KEY: &str = "streams.rack.aware.assignment.tags";
/// ASSIGNMENT_DELAYED: a new group's first assignment waits for the initial delay.
pub const STATUS_ASSIGNMENT_DELAYED: i8 = 5;
/// The most bytes of task ids one heartbeat may report (bounded like any client input).
pub const MAX_TASKS_PER_HEARTBEAT: usize = 100_000;

/// A member's reported changelog offsets and end offsets, by task.
pub type Reported = (BTreeMap<TaskId, i64>, BTreeMap<TaskId, i64>);

/// What a streams group keeps beside its records (rebuilt from heartbeats).
#[derive(Debug, Default)]
pub struct StreamsRuntime {
    /// The topology configured against the topics, with the topics' stamp it was made at.
    configured: Option<(i32, u64, Configured)>,
    /// Each member's reported changelog offsets and end offsets.
    offsets: BTreeMap<String, Reported>,
    /// The member that asked the application to shut down, once one has.
    shutdown: Option<String>,
    /// The refined assignment members converge to, with the assignment epoch it is for.
    refined: Option<(i32, BTreeMap<String, Tasks>)>,
    /// Until when a new group's first assignment waits for more members
    /// (`group.streams.initial.rebalance.delay.ms`).
    delayed_until: Option<i64>,
}

impl StreamsRuntime {
    /// Whether the topology as last configured is ready (None: not configured since load).
    pub fn configured_ready(&self) -> Option<bool> {
        self.configured.as_ref().map(|(_, _, c)| c.ready())
    }

    /// A member's last reported changelog offsets and end offsets.
    pub fn reported(&self, member: &str) -> Option<&Reported> {
        self.offsets.get(member)
    }
}

/// A streams heartbeat's answer carrying an error.
fn error(code: ErrorCode, message: String) -> ResponseBody {
    ResponseBody::StreamsGroupHeartbeat(Response {
        error_code: code.code(),
        error_message: Some(message),
        ..Default::default()
    })
}

fn invalid(message: &str) -> Refusal {
    (ErrorCode::InvalidRequest, message.to_string())
}

/// Kafka 4.4's checks of a heartbeat before it touches the group, in its order and words.
fn check_request(r: &Request) -> Result<(), Refusal> {
    if r.member_id.is_empty() {
        return Err(invalid("MemberId can't be empty."));
    }
    if r.group_id.is_empty() {
        return Err(invalid("GroupId can't be empty."));
    }
    if r.member_epoch < STATIC_LEAVE_EPOCH {
        return Err(invalid(&format!(
            "MemberEpoch is {}, but must be greater than or equal to -2.",
            r.member_epoch
        )));
    }
    if r.instance_id.as_deref() == Some("") {
        return Err(invalid("InstanceId can't be empty."));
    }
    if r.rack_id.as_deref() == Some("") {
        return Err(invalid("RackId can't be empty."));
    }
    let reported = [&r.active_tasks, &r.standby_tasks, &r.warmup_tasks]
        .iter()
        .filter_map(|l| l.as_ref())
        .flatten()
        .map(|t| t.partitions.len())
        .sum::<usize>();
    if reported > MAX_TASKS_PER_HEARTBEAT {
        return Err(invalid("Too many tasks in one heartbeat."));
    }
    if r.member_epoch == 0 {
        if r.rebalance_timeout_ms == -1 {
            return Err(invalid(
                "RebalanceTimeoutMs must be provided in first request.",
            ));
        }
        for (tasks, name) in [
            (&r.active_tasks, "ActiveTasks"),
            (&r.standby_tasks, "StandbyTasks"),
            (&r.warmup_tasks, "WarmupTasks"),
        ] {
            if tasks.as_ref().is_none_or(|t| !t.is_empty()) {
                return Err(invalid(&format!("{name} must be empty when (re-)joining.")));
            }
        }
        let Some(t) = &r.topology else {
            return Err(invalid("Topology must be non-null when (re-)joining."));
        };
        if t.epoch < 0 {
            return Err(invalid("Topology epoch must be non-negative."));
        }
    } else if r.topology.is_some() {
        return Err(invalid("Topology can only be provided when (re-)joining."));
    }
    Ok(())
}

/// The other members' holdings, for one member's reconciliation.
struct Others<'a> {
    me: &'a str,
    process: &'a str,
    members: &'a BTreeMap<String, StreamsGroupMemberMetadataValue>,
    current: BTreeMap<&'a str, Current>,
}

impl Holders for Others<'_> {
    fn active_elsewhere(&self, task: &TaskId) -> bool {
        self.current.iter().any(|(m, c)| {
            *m != self.me && (c.assigned.active.contains(task) || c.revoking.active.contains(task))
        })
    }

    fn on_my_process(&self, task: &TaskId) -> bool {
        self.current.iter().any(|(m, c)| {
            *m != self.me
                && self
                    .members
                    .get(*m)
                    .is_some_and(|v| v.process_id == self.process)
                && (c.assigned.holds(task) || c.revoking.holds(task))
        })
    }
}

impl StreamsGroupFold {
    /// A member's reconciliation state (a new member's: epoch 0, nothing).
    pub fn current_of(&self, member: &str) -> Current {
        self.current.get(member).map(current_of).unwrap_or_default()
    }

    /// A member's target tasks.
    pub fn target_of(&self, member: &str) -> Tasks {
        self.target.get(member).map(target_of).unwrap_or_default()
    }

    /// The member holding `instance` (a static member), if any.
    pub fn static_member(&self, instance: &str) -> Option<&str> {
        self.members
            .iter()
            .find(|(_, m)| m.instance_id.as_deref() == Some(instance))
            .map(|(id, _)| id.as_str())
    }

    /// Its state as Kafka names a streams group's: Empty, NotReady (no topology configured
    /// yet), Assigning (a new target is due), Reconciling, Stable.
    pub fn state_name(&self, ready: bool) -> &'static str {
        if self.members.is_empty() {
            "Empty"
        } else if !ready {
            "NotReady"
        } else if self.group_epoch() > self.assignment_epoch() {
            "Assigning"
        } else if self.current.values().any(|c| {
            c.member_epoch != self.assignment_epoch()
                || MemberState::from_code(c.state) != MemberState::Stable
        }) {
            "Reconciling"
        } else {
            "Stable"
        }
    }
}

impl Shard {
    /// Applies one decision: folds it into the state and queues it to be written.
    fn decide_streams(&mut self, out: &mut Output, record: StreamsRecord) {
        self.streams_groups.replay(record.clone());
        out.records.push(GroupRecord::Streams(record));
    }

    /// The streams group `id`, if one exists.
    pub fn streams_group(&self, id: &str) -> Option<&StreamsGroupFold> {
        self.streams_groups.groups.get(id)
    }

    /// True when `id` is a streams group's.
    pub fn is_streams_group(&self, id: &str) -> bool {
        self.streams_groups.groups.contains_key(id)
    }

    /// The member checks of a streams group's offset commit or fetch (None: not a streams
    /// group): the member must be known (UNKNOWN_MEMBER_ID) at `epoch` (STALE_MEMBER_EPOCH).
    /// An admin's request (no member, epoch below zero) passes when `admin_with_members` or
    /// the group has no members.
    pub(crate) fn check_streams_member(
        &self,
        group: &str,
        member: &str,
        epoch: i32,
        admin_with_members: bool,
    ) -> Option<Result<(), ErrorCode>> {
        let g = self.streams_group(group)?;
        let known = g.members.contains_key(member).then(|| {
            (
                g.current_of(member).member_epoch,
                ErrorCode::StaleMemberEpoch,
            )
        });
        Some(crate::consumer::member_verdict(
            epoch,
            member,
            admin_with_members || g.members.is_empty(),
            known,
        ))
    }

    /// The member checks of a streams group's offset commit (None: not a streams group): as
    /// [`Shard::check_streams_member`], but a known member's commit at an epoch older than
    /// its own passes here, as Kafka 4.4's does; each partition is then checked by
    /// [`Shard::streams_commit_partition`].
    pub(crate) fn check_streams_commit(
        &self,
        group: &str,
        member: &str,
        epoch: i32,
    ) -> Option<Result<(), ErrorCode>> {
        let g = self.streams_group(group)?;
        if g.members.contains_key(member) && epoch < g.current_of(member).member_epoch {
            return Some(Ok(()));
        }
        self.check_streams_member(group, member, epoch, false)
    }

    /// Kafka 4.4's check of one partition of a streams member's commit at an epoch older than
    /// its own: the topic must be one the topology reads (a source or repartition source
    /// topic), and its task assigned to (or being revoked from) the member at or before that
    /// epoch; else STALE_MEMBER_EPOCH. None when the partition passes or there is nothing to
    /// check.
    pub(crate) fn streams_commit_partition(
        &self,
        group: &str,
        member: &str,
        epoch: i32,
        topic: &str,
        partition: i32,
    ) -> Option<ErrorCode> {
        let g = self.streams_group(group)?;
        g.members.get(member)?;
        let cur = g.current_of(member);
        if epoch >= cur.member_epoch {
            return None;
        }
        let reads = |s: &&fjord_protocol::generated::streams_group_topology_value::Subtopology| {
            s.source_topics.iter().any(|t| t == topic)
                || s.repartition_source_topics.iter().any(|t| t.name == topic)
        };
        let sub = g.topology.iter().flat_map(|t| &t.subtopologies).find(reads);
        let given = sub.and_then(|s| cur.active_epoch(&(s.subtopology_id.clone(), partition)));
        match given {
            Some(e) if epoch >= e => None,
            _ => Some(ErrorCode::StaleMemberEpoch),
        }
    }

    /// StreamsGroupHeartbeat (see the module's note). The answer waits for its records.
    pub fn streams_heartbeat(
        &mut self,
        ctx: &RequestContext,
        r: &Request,
        topics: Arc<dyn TopicSource + Send + Sync>,
        now: i64,
    ) -> Output {
        self.topics = topics.clone();
        let mut out = Output::default();
        let body = match self.try_streams_heartbeat(ctx, r, topics.as_ref(), now, &mut out) {
            Ok(body) => ResponseBody::StreamsGroupHeartbeat(body),
            Err((code, message)) => error(code, message),
        };
        out.reply(ctx.token, body);
        out
    }

    fn try_streams_heartbeat(
        &mut self,
        ctx: &RequestContext,
        r: &Request,
        topics: &dyn TopicSource,
        now: i64,
        out: &mut Output,
    ) -> Result<Response, Refusal> {
        check_request(r)?;
        if let Some(t) = &r.topology {
            // Refused before anything is written: what no cluster could run.
            super::validate::topology(t).map_err(|m| (ErrorCode::StreamsInvalidTopology, m))?;
            if let Err(e) = configure(&specs(&topology_value(t)), |_| Some(1)) {
                return Err((ErrorCode::StreamsInvalidTopology, e.0));
            }
        }
        let group = r.group_id.as_str();
        if r.member_epoch == LEAVE_EPOCH || r.member_epoch == STATIC_LEAVE_EPOCH {
            return self.streams_leave(r, now, out);
        }
        let joining = r.member_epoch == 0;
        self.open_streams_group(group, joining, now, out)?;
        let member = r.member_id.clone();
        let g = &self.streams_groups.groups[group];
        let existing = g.members.get(&member).cloned();
        let owned = Owned {
            active: r.active_tasks.as_deref().map(from_request),
            standby: r.standby_tasks.as_deref().map(from_request),
            warmup: r.warmup_tasks.as_deref().map(from_request),
        };
        // A static member rejoining under a new member id takes its old one's place.
        let replaced = match (&r.instance_id, joining) {
            (Some(i), true) => g
                .static_member(i)
                .filter(|m| **m != member)
                .map(String::from),
            _ => None,
        };
        if let (Some(i), false) = (&r.instance_id, joining) {
            if g.static_member(i).is_some_and(|m| m != member) {
                return Err((
                    ErrorCode::FencedInstanceId,
                    format!("Static member {member} with instance id {i} was fenced."),
                ));
            }
        }
        if !joining {
            if existing.is_none() {
                return Err((
                    ErrorCode::UnknownMemberId,
                    format!("Member {member} is not a member of group {group}."),
                ));
            }
            let cur = g.current_of(&member);
            if !epoch_accepted(&cur, r.member_epoch, &owned) {
                return Err(fenced_member_epoch(
                    "streams group",
                    r.member_epoch,
                    cur.member_epoch,
                ));
            }
        } else if existing.is_none()
            && replaced.is_none()
            && g.members.len() >= self.config.streams_max_size
        {
            return Err((
                ErrorCode::GroupMaxSizeReached,
                format!(
                    "The streams group has reached its maximum capacity of {} members.",
                    self.config.streams_max_size
                ),
            ));
        }
        let mut statuses = Vec::new();
        let mut bump = false;
        if let Some(t) = &r.topology {
            bump |= self.take_topology(group, t, &mut statuses, out)?;
        }
        if let Some(old) = &replaced {
            self.replace_streams_static_member(group, old, &member, out);
        }
        bump |= self.update_streams_member(group, &member, existing.as_ref(), r, ctx, out);
        self.remember_offsets(group, &member, r);
        if r.shutdown_application {
            self.streams_runtime
                .entry(group.into())
                .or_default()
                .shutdown
                .get_or_insert_with(|| member.clone());
        }
        let (configured, new_hash) = self.configure_streams(group, topics);
        // A new group's first assignment waits for the initial delay; its end is a new epoch.
        let rt = self.streams_runtime.entry(group.into()).or_default();
        let delayed = match rt.delayed_until {
            Some(until) if now < until => true,
            Some(_) => {
                rt.delayed_until = None;
                bump = true;
                false
            }
            None => false,
        };
        if delayed {
            statuses.push(Status {
                code: STATUS_ASSIGNMENT_DELAYED,
                detail: "Assignment delayed due to the configured initial rebalance delay.".into(),
            });
        }
        if bump || new_hash.is_some() {
            let epoch = self.streams_groups.groups[group].group_epoch() + 1;
            self.write_streams_epoch(group, epoch, new_hash, out);
        }
        if let Some(c) = &configured {
            if let Some(s) = &c.status {
                statuses.push(s.clone());
            }
            out.streams_topics.extend(c.to_create.iter().cloned());
        }
        self.maybe_assign_streams(group, configured.as_ref().filter(|_| !delayed), out);
        self.refine_step(group, out);
        let joined_fresh = joining && replaced.is_none();
        let before = if joined_fresh && existing.is_some() {
            // A member rejoining under its id runs nothing: it gave everything up.
            Current {
                revoking: Tasks::default(),
                ..self.streams_groups.groups[group].current_of(&member)
            }
        } else {
            self.streams_groups.groups[group].current_of(&member)
        };
        let after = self.reconcile_streams_member(group, &member, &before, &owned, now, out);
        self.touch_streams_member(group, &member, now);
        if let Some(asker) = self
            .streams_runtime
            .get(group)
            .and_then(|rt| rt.shutdown.as_ref())
        {
            statuses.push(Status {
                code: STATUS_SHUTDOWN_APPLICATION,
                detail: format!(
                    "Streams group member {asker} encountered a fatal error and requested a \
                     shutdown for the entire application."
                ),
            });
        }
        if ctx.version >= MISSING_CLIENT_TAGS_VERSION {
            statuses.extend(self.missing_client_tags(group, &member));
        }
        Ok(self.streams_answer(group, &member, &after, r, statuses))
    }

    /// MISSING_CLIENT_TAGS when the group's rack-aware tags (its
    /// `streams.rack.aware.assignment.tags`, else the broker's) name a tag the member did not
    /// send, in Kafka 4.4's words.
    fn missing_client_tags(&self, group: &str, member: &str) -> Option<Status> {
        let wanted = match self.topics.group_text(group, GROUP_RACK_TAGS_KEY) {
            Some(own) => crate::config::tag_list(&own),
            None => self.config.streams_rack_aware_assignment_tags.clone(),
        };
        let sent = &self.streams_groups.groups[group]
            .members
            .get(member)?
            .client_tags;
        let missing: Vec<&str> = wanted
            .iter()
            .map(String::as_str)
            .filter(|t| !sent.iter().any(|kv| kv.key == *t))
            .collect();
        (!missing.is_empty()).then(|| Status {
            code: STATUS_MISSING_CLIENT_TAGS,
            detail: format!(
                "Missing required client tags for rack-aware standby assignment: [{}]. \
                 Configure them via 'client.tag.<tagKey>' in your Streams config.",
                missing.join(", ")
            ),
        })
    }

    /// Makes sure `id` is a streams group (created when `create`); another kind of group
    /// under the id is refused.
    fn open_streams_group(
        &mut self,
        id: &str,
        create: bool,
        now: i64,
        out: &mut Output,
    ) -> Result<(), Refusal> {
        let other_kind = self.consumer_group(id).is_some()
            || self.share_group(id).is_some()
            || self
                .groups
                .get(id)
                .is_some_and(|g| !g.members.is_empty() || g.protocol_type.is_some());
        if other_kind {
            return Err((
                ErrorCode::GroupIdNotFound,
                format!("Group {id} is not a streams group."),
            ));
        }
        if self.streams_groups.groups.contains_key(id) {
            return Ok(());
        }
        if !create {
            return Err((
                ErrorCode::GroupIdNotFound,
                format!("Streams group {id} not found."),
            ));
        }
        // The group's offsets live in its (memberless) classic entry.
        self.open_offsets_holder(id, now)?;
        self.write_streams_epoch(id, 0, Some(0), out);
        let delay = self
            .topics
            .group_int(id, GROUP_INITIAL_DELAY_KEY)
            .unwrap_or(self.config.streams_initial_rebalance_delay_ms);
        self.streams_runtime
            .entry(id.into())
            .or_default()
            .delayed_until = (delay > 0).then_some(now + i64::from(delay));
        Ok(())
    }

    /// Takes a joining member's topology: the group's first one is stored (a new group
    /// epoch); a member behind the group's epoch gets STALE_TOPOLOGY; one ahead is refused.
    fn take_topology(
        &mut self,
        group: &str,
        t: &fjord_protocol::generated::streams_group_heartbeat_request::Topology,
        statuses: &mut Vec<Status>,
        out: &mut Output,
    ) -> Result<bool, Refusal> {
        let stored = self.streams_groups.groups[group]
            .topology
            .as_ref()
            .map(|x| x.epoch);
        match stored {
            None => {
                self.decide_streams(
                    out,
                    StreamsRecord::Topology(group.into(), Some(topology_value(t))),
                );
                Ok(true)
            }
            Some(e) if e == t.epoch => Ok(false),
            Some(e) if t.epoch < e => {
                statuses.push(Status {
                    code: STATUS_STALE_TOPOLOGY,
                    detail: format!(
                        "The member's topology epoch {} is behind the group's topology epoch {e}.",
                        t.epoch
                    ),
                });
                Ok(false)
            }
            Some(_) => Err((
                ErrorCode::StreamsInvalidTopologyEpoch,
                "Topology updates are not supported yet.".into(),
            )),
        }
    }

    /// Writes the member's record when it changed; true when the group epoch must move (a
    /// new member, or a new process, rack, client tags or topology epoch).
    fn update_streams_member(
        &mut self,
        group: &str,
        member: &str,
        existing: Option<&StreamsGroupMemberMetadataValue>,
        r: &Request,
        ctx: &RequestContext,
        out: &mut Output,
    ) -> bool {
        let base = existing.cloned().unwrap_or_default();
        let mut m = base.clone();
        m.client_id = ctx.client_id.clone();
        m.client_host = ctx.client_host.clone();
        if r.instance_id.is_some() {
            m.instance_id = r.instance_id.clone();
        }
        if r.rack_id.is_some() {
            m.rack_id = r.rack_id.clone();
        }
        if r.rebalance_timeout_ms > 0 {
            m.rebalance_timeout_ms = r.rebalance_timeout_ms;
        }
        if let Some(t) = &r.topology {
            m.topology_epoch = t.epoch;
        }
        if let Some(p) = &r.process_id {
            m.process_id = p.clone();
        }
        if let Some(e) = &r.user_endpoint {
            m.user_endpoint = Some(mv::Endpoint {
                host: e.host.clone(),
                port: e.port,
                ..Default::default()
            });
        }
        if let Some(tags) = &r.client_tags {
            m.client_tags = tags
                .iter()
                .map(|t| mv::KeyValue {
                    key: t.key.clone(),
                    value: t.value.clone(),
                    ..Default::default()
                })
                .collect();
        }
        let changed = existing != Some(&m);
        if changed {
            self.decide_streams(
                out,
                StreamsRecord::Member(group.into(), member.into(), Some(m.clone())),
            );
        }
        existing.is_none()
            || base.process_id != m.process_id
            || base.rack_id != m.rack_id
            || base.client_tags != m.client_tags
            || base.topology_epoch != m.topology_epoch
    }

    /// Keeps the changelog offsets a member reported (for standby ranking and warm-ups).
    fn remember_offsets(&mut self, group: &str, member: &str, r: &Request) {
        let rt = self.streams_runtime.entry(group.into()).or_default();
        let entry = rt.offsets.entry(member.into()).or_default();
        let read =
            |l: &[fjord_protocol::generated::streams_group_heartbeat_request::TaskOffset]| {
                l.iter()
                    .take(MAX_TASKS_PER_HEARTBEAT)
                    .map(|o| ((o.subtopology_id.clone(), o.partition), o.offset))
                    .collect::<BTreeMap<_, _>>()
            };
        if let Some(o) = &r.task_offsets {
            entry.0 = read(o);
        }
        if let Some(o) = &r.task_end_offsets {
            entry.1 = read(o);
        }
    }

    /// The group's topology configured against the topics (cached until either changes), and
    /// the new metadata hash when the task counts it gives changed (a new group epoch).
    fn configure_streams(
        &mut self,
        group: &str,
        topics: &dyn TopicSource,
    ) -> (Option<Configured>, Option<i64>) {
        let g = &self.streams_groups.groups[group];
        let Some(topology) = g.topology.as_ref() else {
            return (None, None);
        };
        let stamp = topics.stamp();
        let stored_hash = g.metadata.as_ref().map_or(0, |m| m.metadata_hash);
        let rt = self.streams_runtime.entry(group.into()).or_default();
        let configured = match &rt.configured {
            Some((epoch, at, c)) if *epoch == topology.epoch && *at == stamp => c.clone(),
            _ => {
                let partitions_of = |t: &str| topics.topic(t).map(|(_, n)| n);
                let c = match configure(&specs(topology), partitions_of) {
                    Ok(c) => c,
                    Err(e) => Configured {
                        invalid: Some(e.0),
                        ..Configured::default()
                    },
                };
                rt.configured = Some((topology.epoch, stamp, c.clone()));
                c
            }
        };
        let hash = metadata_hash(&configured);
        (Some(configured), (hash != stored_hash).then_some(hash))
    }

    /// Writes the group epoch (and the metadata hash when given).
    fn write_streams_epoch(
        &mut self,
        group: &str,
        epoch: i32,
        hash: Option<i64>,
        out: &mut Output,
    ) {
        let meta = self
            .streams_groups
            .groups
            .get(group)
            .and_then(|g| g.metadata.clone())
            .unwrap_or_default();
        let value = StreamsGroupMetadataValue {
            epoch,
            metadata_hash: hash.unwrap_or(meta.metadata_hash),
            ..meta
        };
        self.decide_streams(out, StreamsRecord::Metadata(group.into(), Some(value)));
        self.streams_rebalances += 1;
    }

    /// A new target assignment when the group epoch moved past it (empty while the topology
    /// is not ready), only the members whose target changed written.
    fn maybe_assign_streams(
        &mut self,
        group: &str,
        configured: Option<&Configured>,
        out: &mut Output,
    ) {
        let g = &self.streams_groups.groups[group];
        let epoch = g.group_epoch();
        if epoch <= g.assignment_epoch() {
            return;
        }
        let rt = self.streams_runtime.get(group);
        let specs: BTreeMap<String, MemberSpec> = g
            .members
            .iter()
            .map(|(id, m)| {
                let c = g.current_of(id);
                let offsets = rt
                    .and_then(|rt| rt.offsets.get(id))
                    .map(|o| o.0.clone())
                    .unwrap_or_default();
                (
                    id.clone(),
                    MemberSpec {
                        process: m.process_id.clone(),
                        active: c.assigned.active,
                        standby: c.assigned.standby,
                        offsets,
                    },
                )
            })
            .collect();
        let standbys = self
            .topics
            .group_int(group, GROUP_NUM_STANDBY_KEY)
            .map_or(self.config.streams_num_standby_replicas, |n| {
                n.max(0) as usize
            });
        let assignment = match configured.filter(|c| c.ready()) {
            Some(c) => sticky(c.subtopologies.as_ref().expect("ready"), &specs, standbys),
            None => specs
                .keys()
                .map(|m| (m.clone(), Tasks::default()))
                .collect(),
        };
        let changed: Vec<(String, Tasks)> = assignment
            .into_iter()
            .filter(|(id, t)| !g.target.contains_key(id) || g.target_of(id) != *t)
            .collect();
        for (member, t) in changed {
            self.decide_streams(
                out,
                StreamsRecord::TargetMember(group.into(), member, Some(target_value(&t))),
            );
        }
        self.decide_streams(
            out,
            StreamsRecord::Target(
                group.into(),
                Some(StreamsGroupTargetAssignmentMetadataValue {
                    assignment_epoch: epoch,
                    ..Default::default()
                }),
            ),
        );
    }

    /// The member's slice of the assignment it converges to: the refined one when warm-ups
    /// are on, else its target.
    fn refined_target(&self, group: &str, member: &str) -> Tasks {
        let g = &self.streams_groups.groups[group];
        match self
            .streams_runtime
            .get(group)
            .and_then(|rt| rt.refined.as_ref())
        {
            Some((epoch, refined)) if *epoch == g.assignment_epoch() => {
                refined.get(member).cloned().unwrap_or_default()
            }
            _ => g.target_of(member),
        }
    }

    /// With warm-ups on, recomputes the refined assignment; when it changed within one
    /// target (a warm-up caught up), that is a refinement step: a new group and assignment
    /// epoch, so members move towards it.
    fn refine_step(&mut self, group: &str, out: &mut Output) {
        let Some(refined) = self.refined_assignment(group) else {
            return;
        };
        let epoch = self.streams_groups.groups[group].assignment_epoch();
        let rt = self.streams_runtime.entry(group.into()).or_default();
        match &rt.refined {
            Some((e, r)) if *r == refined && *e == epoch => {}
            Some((e, _)) if *e == epoch => {
                let next = self.streams_groups.groups[group].group_epoch() + 1;
                self.write_streams_epoch(group, next, None, out);
                self.decide_streams(
                    out,
                    StreamsRecord::Target(
                        group.into(),
                        Some(StreamsGroupTargetAssignmentMetadataValue {
                            assignment_epoch: next,
                            ..Default::default()
                        }),
                    ),
                );
                self.streams_runtime
                    .entry(group.into())
                    .or_default()
                    .refined = Some((next, refined));
            }
            _ => rt.refined = Some((epoch, refined)),
        }
    }

    /// The changelog lag at or below which a warm-up task is caught up: the group's
    /// `streams.acceptable.recovery.lag`, else the broker's.
    fn acceptable_recovery_lag(&self, group: &str) -> i64 {
        self.topics
            .group_int(group, GROUP_ACCEPTABLE_LAG_KEY)
            .map_or(self.config.streams_acceptable_recovery_lag, i64::from)
    }

    /// The whole group's refined assignment (None with warm-ups off or no ready topology).
    fn refined_assignment(&self, group: &str) -> Option<BTreeMap<String, Tasks>> {
        let g = &self.streams_groups.groups[group];
        let warmups = self
            .topics
            .group_int(group, GROUP_NUM_WARMUP_KEY)
            .map_or(self.config.streams_num_warmup_replicas, |n| {
                n.max(0) as usize
            });
        if warmups == 0 {
            return None;
        }
        let (_, _, configured) = self.streams_runtime.get(group)?.configured.as_ref()?;
        let subs = configured.subtopologies.as_ref()?;
        let target: BTreeMap<String, Tasks> = g
            .members
            .keys()
            .map(|m| (m.clone(), g.target_of(m)))
            .collect();
        let members: BTreeMap<String, super::refine::Member> = g
            .members
            .iter()
            .map(|(id, m)| {
                (
                    id.clone(),
                    super::refine::Member {
                        process: m.process_id.clone(),
                        active: g.current_of(id).assigned.active,
                    },
                )
            })
            .collect();
        let offsets = self.streams_runtime.get(group).map(|rt| &rt.offsets);
        let lag = |process: &str, task: &TaskId| -> Option<i64> {
            g.members
                .iter()
                .filter(|(_, m)| m.process_id == process)
                .filter_map(|(id, _)| {
                    let (o, e) = offsets?.get(id)?;
                    Some(e.get(task)? - o.get(task)?)
                })
                .min()
        };
        let stateful = |t: &TaskId| subs.get(&t.0).is_some_and(|s| s.stateful);
        Some(super::refine::refine(
            &target,
            &members,
            lag,
            stateful,
            warmups,
            self.acceptable_recovery_lag(group),
        ))
    }

    /// Moves `member` one step towards its (refined) target, writing its record when it
    /// changed, and keeps its revocation deadline.
    fn reconcile_streams_member(
        &mut self,
        group: &str,
        member: &str,
        before: &Current,
        owned: &Owned,
        now: i64,
        out: &mut Output,
    ) -> Current {
        let target = self.refined_target(group, member);
        let g = &self.streams_groups.groups[group];
        let process = g.members.get(member).map_or("", |m| m.process_id.as_str());
        let others = Others {
            me: member,
            process,
            members: &g.members,
            current: g
                .current
                .iter()
                .map(|(m, v)| (m.as_str(), current_of(v)))
                .collect(),
        };
        let after = reconcile(before, g.assignment_epoch(), &target, owned, &others);
        let stored = g.current.get(member).map(current_of);
        let timeout = g
            .members
            .get(member)
            .map_or(0, |m| m.rebalance_timeout_ms.max(0));
        if stored.as_ref() == Some(&after) {
            return after;
        }
        self.decide_streams(
            out,
            StreamsRecord::Current(group.into(), member.into(), Some(current_value(&after))),
        );
        let key = TimerKey::StreamsRevocation {
            group: group.into(),
            member: member.into(),
        };
        if after.state == MemberState::UnrevokedTasks {
            self.timers.schedule(key, now + i64::from(timeout));
        } else {
            self.timers.cancel(&key);
        }
        after
    }

    /// The heartbeat's answer: the member's epoch and tasks, intervals, statuses and the
    /// interactive-query endpoints when the member's view of them is out of date.
    fn streams_answer(
        &self,
        group: &str,
        member: &str,
        after: &Current,
        r: &Request,
        statuses: Vec<Status>,
    ) -> Response {
        let g = &self.streams_groups.groups[group];
        let ids = |tasks: &BTreeSet<TaskId>| {
            Some(
                grouped(tasks)
                    .into_iter()
                    .map(|(subtopology_id, partitions)| resp::TaskIds {
                        subtopology_id,
                        partitions,
                        ..Default::default()
                    })
                    .collect(),
            )
        };
        let with_endpoints = g.members.values().any(|m| m.user_endpoint.is_some());
        let endpoint_epoch = if with_endpoints {
            g.assignment_epoch()
        } else {
            0
        };
        let endpoints = (r.endpoint_information_epoch != endpoint_epoch)
            .then(|| self.endpoints(group))
            .flatten();
        Response {
            member_id: member.to_string(),
            member_epoch: after.member_epoch,
            heartbeat_interval_ms: self
                .topics
                .group_int(group, GROUP_HEARTBEAT_INTERVAL_KEY)
                .unwrap_or(self.config.streams_heartbeat_interval_ms),
            // Kafka 4.4 leaves the v0 field at 0.
            acceptable_recovery_lag_legacy: 0,
            acceptable_recovery_lag: self.acceptable_recovery_lag(group),
            task_offset_interval_ms: self
                .topics
                .group_int(group, GROUP_TASK_OFFSET_INTERVAL_KEY)
                .unwrap_or(self.config.streams_task_offset_interval_ms),
            status: Some(
                statuses
                    .into_iter()
                    .map(|s| resp::Status {
                        status_code: s.code,
                        status_detail: s.detail,
                        ..Default::default()
                    })
                    .collect(),
            ),
            active_tasks: ids(&after.assigned.active),
            standby_tasks: ids(&after.assigned.standby),
            warmup_tasks: ids(&after.assigned.warmup),
            endpoint_information_epoch: endpoint_epoch,
            partitions_by_user_endpoint: endpoints,
            ..Default::default()
        }
    }

    /// Each member with an interactive-query endpoint and the source partitions of its
    /// tasks (actives; standbys and warm-ups); None when no member has an endpoint.
    fn endpoints(&self, group: &str) -> Option<Vec<resp::EndpointToPartitions>> {
        let g = &self.streams_groups.groups[group];
        let topology = g.topology.as_ref()?;
        let sources: BTreeMap<&str, Vec<&str>> = topology
            .subtopologies
            .iter()
            .map(|s| {
                let mut topics: Vec<&str> = s.source_topics.iter().map(String::as_str).collect();
                topics.extend(s.repartition_source_topics.iter().map(|t| t.name.as_str()));
                (s.subtopology_id.as_str(), topics)
            })
            .collect();
        let partitions = |tasks: &BTreeSet<TaskId>| -> Vec<resp::TopicPartition> {
            let mut by: BTreeMap<&str, Vec<i32>> = BTreeMap::new();
            for (s, p) in tasks {
                for t in sources.get(s.as_str()).into_iter().flatten() {
                    let fits = self.topics.topic(t).is_none_or(|(_, n)| *p < n);
                    if fits {
                        by.entry(t).or_default().push(*p);
                    }
                }
            }
            by.into_iter()
                .map(|(t, ps)| resp::TopicPartition {
                    topic: t.to_string(),
                    partitions: ps,
                    ..Default::default()
                })
                .collect()
        };
        let list: Vec<resp::EndpointToPartitions> = g
            .members
            .iter()
            .filter_map(|(id, m)| {
                let e = m.user_endpoint.as_ref()?;
                let c = g.current_of(id).assigned;
                let standby: BTreeSet<TaskId> = c.standby.union(&c.warmup).cloned().collect();
                Some(resp::EndpointToPartitions {
                    user_endpoint: resp::Endpoint {
                        host: e.host.clone(),
                        port: e.port,
                        ..Default::default()
                    },
                    active_partitions: partitions(&c.active),
                    standby_partitions: partitions(&standby),
                    ..Default::default()
                })
            })
            .collect();
        (!list.is_empty()).then_some(list)
    }

    /// Moves a static member's records to its new member id: the new member starts where
    /// the old one was (its target and tasks), at epoch 0.
    fn replace_streams_static_member(
        &mut self,
        group: &str,
        old: &str,
        new: &str,
        out: &mut Output,
    ) {
        let g = &self.streams_groups.groups[group];
        let target = g.target_of(old);
        let cur = g.current_of(old);
        self.remove_streams_member_records(group, old, out);
        self.decide_streams(
            out,
            StreamsRecord::TargetMember(group.into(), new.into(), Some(target_value(&target))),
        );
        // Its tasks count as given at epoch 0, as the new member's epoch starts there.
        let active_epochs = cur.assigned.active.iter().map(|t| (t.clone(), 0)).collect();
        let rec = Current {
            member_epoch: 0,
            previous_member_epoch: 0,
            state: MemberState::Stable,
            assigned: cur.assigned,
            revoking: Tasks::default(),
            active_epochs,
        };
        self.decide_streams(
            out,
            StreamsRecord::Current(group.into(), new.into(), Some(current_value(&rec))),
        );
    }

    /// The tombstones of a member's records, and its deadlines cancelled.
    fn remove_streams_member_records(&mut self, group: &str, member: &str, out: &mut Output) {
        let g = &self.streams_groups.groups[group];
        let mut records = Vec::new();
        if g.current.contains_key(member) {
            records.push(StreamsRecord::Current(group.into(), member.into(), None));
        }
        if g.target.contains_key(member) {
            records.push(StreamsRecord::TargetMember(
                group.into(),
                member.into(),
                None,
            ));
        }
        if g.members.contains_key(member) {
            records.push(StreamsRecord::Member(group.into(), member.into(), None));
        }
        for r in records {
            self.decide_streams(out, r);
        }
        if let Some(rt) = self.streams_runtime.get_mut(group) {
            rt.offsets.remove(member);
        }
        for key in [
            TimerKey::StreamsSession {
                group: group.into(),
                member: member.into(),
            },
            TimerKey::StreamsRevocation {
                group: group.into(),
                member: member.into(),
            },
        ] {
            self.timers.cancel(&key);
        }
    }

    /// A streams group's session timeout: the group's own, else the coordinator's.
    fn streams_session_ms(&self, group: &str) -> i32 {
        self.topics
            .group_int(group, GROUP_SESSION_TIMEOUT_KEY)
            .unwrap_or(self.config.streams_session_timeout_ms)
    }

    /// Restarts a member's session.
    fn touch_streams_member(&mut self, group: &str, member: &str, now: i64) {
        let timeout = self.streams_session_ms(group);
        self.timers.schedule(
            TimerKey::StreamsSession {
                group: group.into(),
                member: member.into(),
            },
            now + i64::from(timeout),
        );
    }

    /// A member leaving (epoch -1: its records go and the group rebalances), or a static
    /// member leaving for a while (-2: it keeps its tasks until its session ends).
    fn streams_leave(
        &mut self,
        r: &Request,
        now: i64,
        out: &mut Output,
    ) -> Result<Response, Refusal> {
        let group = r.group_id.as_str();
        let Some(g) = self.streams_groups.groups.get(group) else {
            return Err((
                ErrorCode::GroupIdNotFound,
                format!("Streams group {group} not found."),
            ));
        };
        let member = match (&r.instance_id, r.member_epoch) {
            (Some(i), STATIC_LEAVE_EPOCH) => g.static_member(i).map(String::from),
            _ => g
                .members
                .contains_key(&r.member_id)
                .then(|| r.member_id.clone()),
        };
        let Some(member) = member else {
            return Err((
                ErrorCode::UnknownMemberId,
                format!("Member {} is not a member of group {group}.", r.member_id),
            ));
        };
        if r.member_epoch == STATIC_LEAVE_EPOCH {
            // Kept for its session: a rejoin with the same instance id takes its place.
            let cur = Current {
                member_epoch: STATIC_LEAVE_EPOCH,
                ..g.current_of(&member)
            };
            self.decide_streams(
                out,
                StreamsRecord::Current(group.into(), member.clone(), Some(current_value(&cur))),
            );
            self.touch_streams_member(group, &member, now);
        } else {
            self.remove_streams_member(group, &member, out);
        }
        Ok(Response {
            member_id: r.member_id.clone(),
            member_epoch: r.member_epoch,
            ..Default::default()
        })
    }

    /// Removes a member (left, or fenced by a deadline) and moves the group epoch.
    pub(crate) fn remove_streams_member(&mut self, group: &str, member: &str, out: &mut Output) {
        if !self
            .streams_groups
            .groups
            .get(group)
            .is_some_and(|g| g.members.contains_key(member))
        {
            return;
        }
        self.remove_streams_member_records(group, member, out);
        let epoch = self.streams_groups.groups[group].group_epoch() + 1;
        self.write_streams_epoch(group, epoch, None, out);
        let configured = self
            .streams_runtime
            .get(group)
            .and_then(|rt| rt.configured.as_ref().map(|c| c.2.clone()));
        self.maybe_assign_streams(group, configured.as_ref(), out);
        if self.streams_groups.groups[group].members.is_empty() {
            if let Some(rt) = self.streams_runtime.get_mut(group) {
                rt.shutdown = None;
            }
        }
    }

    /// A session or revocation deadline passed: the member is fenced.
    pub(crate) fn streams_deadline(&mut self, group: &str, member: &str, out: &mut Output) {
        self.remove_streams_member(group, member, out);
    }
}

/// A hash of what the target assignment takes from the topics: whether the topology is
/// ready, and each subtopology's task count (Kafka's metadata hash plays this part).
fn metadata_hash(c: &Configured) -> i64 {
    let Some(subs) = &c.subtopologies else {
        return 0;
    };
    // FNV-1a over readiness, then the ids and counts.
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    let mut feed = |b: u8| {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0100_0000_01b3);
    };
    feed(u8::from(c.ready()));
    for (id, s) in subs {
        for b in id
            .bytes()
            .chain(s.tasks.to_be_bytes())
            .chain([u8::from(s.stateful)])
        {
            feed(b);
        }
    }
    h as i64
}
