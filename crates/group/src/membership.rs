//! The classic rebalance protocol: JoinGroup, SyncGroup, Heartbeat and LeaveGroup, and the
//! deadlines that drive it (sessions, pending member ids, the join and sync phases), with
//! Kafka's rules: MEMBER_ID_REQUIRED for new dynamic members (JoinGroup v4+), static members
//! replaced by `group.instance.id` (FENCED_INSTANCE_ID for the old id), the initial rebalance
//! delay, one generation per completed join phase, and an assignment only for the current
//! generation, persisted before any member sees it.

use crate::group::{Group, GroupState, Member};
use crate::shard::{Output, RequestContext, Shard, Waiter};
use crate::timers::{TimerKey, Timers};
use crate::GroupConfig;
use bytes::Bytes;
use fjord_protocol::generated::{
    heartbeat_request::HeartbeatRequest,
    heartbeat_response::HeartbeatResponse,
    join_group_request::JoinGroupRequest,
    join_group_response::{JoinGroupResponse, JoinGroupResponseMember},
    leave_group_request::LeaveGroupRequest,
    leave_group_response::{LeaveGroupResponse, MemberResponse},
    sync_group_request::SyncGroupRequest,
    sync_group_response::SyncGroupResponse,
};
use fjord_protocol::{ErrorCode, ResponseBody};

/// The first JoinGroup version whose new members must rejoin with the id they are given.
pub(crate) const MEMBER_ID_REQUIRED_VERSION: i16 = 4;
/// The first JoinGroup version that lets a rejoining static leader skip the assignment.
const SKIP_ASSIGNMENT_VERSION: i16 = 9;
/// The first LeaveGroup version with a batch of members.
const BATCHED_LEAVE_VERSION: i16 = 3;

/// A JoinGroup error answer.
pub(crate) fn join_error(w: Waiter, code: ErrorCode, member_id: &str) -> ResponseBody {
    ResponseBody::JoinGroup(JoinGroupResponse {
        error_code: code.code(),
        generation_id: -1,
        protocol_name: (w.version < 7).then(String::new),
        member_id: member_id.to_string(),
        ..Default::default()
    })
}

/// A SyncGroup error answer.
pub(crate) fn sync_error(code: ErrorCode) -> ResponseBody {
    ResponseBody::SyncGroup(SyncGroupResponse {
        error_code: code.code(),
        ..Default::default()
    })
}

/// The JoinGroup answer of the current generation for `member` (the leader gets every
/// member's metadata for the chosen protocol).
fn join_answer(g: &Group, member: &str, skip_assignment: bool) -> ResponseBody {
    let protocol = g.protocol.clone().unwrap_or_default();
    let is_leader = g.leader.as_deref() == Some(member);
    ResponseBody::JoinGroup(JoinGroupResponse {
        generation_id: g.generation,
        protocol_type: g.protocol_type.clone(),
        protocol_name: Some(protocol.clone()),
        leader: g.leader.clone().unwrap_or_default(),
        skip_assignment,
        member_id: member.to_string(),
        members: if is_leader {
            g.members
                .values()
                .map(|m| JoinGroupResponseMember {
                    member_id: m.id.clone(),
                    group_instance_id: m.instance_id.clone(),
                    metadata: m.metadata(&protocol),
                    ..Default::default()
                })
                .collect()
        } else {
            Vec::new()
        },
        ..Default::default()
    })
}

/// The session deadline key of a member.
fn session(group: &str, member: &str) -> TimerKey {
    TimerKey::Session {
        group: group.to_string(),
        member: member.to_string(),
    }
}

/// Restarts a member's session.
fn touch(timers: &mut Timers, g: &Group, member: &str, now: i64) {
    if let Some(m) = g.members.get(member) {
        timers.schedule(session(&g.id, member), now + m.session_timeout_ms as i64);
    }
}

/// The rebalance machinery over one group; the shard's timers and settings beside it.
struct Rebalance<'a> {
    g: &'a mut Group,
    timers: &'a mut Timers,
    config: &'a GroupConfig,
    now: i64,
    out: &'a mut Output,
    /// The shard's count of completed join phases.
    completed: &'a mut u64,
}

impl Rebalance<'_> {
    /// Starts a join phase (Kafka's `prepareRebalance`): pending SyncGroups of an interrupted
    /// sync phase get REBALANCE_IN_PROGRESS; an empty group waits the initial delay first.
    fn prepare(&mut self) {
        if self.g.state == GroupState::CompletingRebalance {
            for m in self.g.members.values_mut() {
                m.assignment = Bytes::new();
                if let Some(w) = m.awaiting_sync.take() {
                    self.out
                        .reply(w.token, sync_error(ErrorCode::RebalanceInProgress));
                }
            }
        }
        self.g.pending_sync.clear();
        self.timers.cancel(&TimerKey::Sync(self.g.id.clone()));
        let rebalance_timeout = self.g.rebalance_timeout_ms();
        let delay = self.config.initial_rebalance_delay_ms;
        let deadline = if self.g.state == GroupState::Empty && delay > 0 {
            let first = delay.min(rebalance_timeout);
            self.g.initial_delay_remaining = Some((rebalance_timeout - delay).max(0));
            first
        } else {
            self.g.initial_delay_remaining = None;
            rebalance_timeout
        };
        self.timers.schedule(
            TimerKey::Join(self.g.id.clone()),
            self.now + deadline as i64,
        );
        self.g.transition(GroupState::PreparingRebalance, self.now);
    }

    /// Ends the join phase if every member has rejoined (not during the initial delay).
    fn maybe_complete_join(&mut self) {
        if self.g.state == GroupState::PreparingRebalance
            && self.g.initial_delay_remaining.is_none()
            && self.g.all_joined()
        {
            self.complete_join();
        }
    }

    /// Ends the join phase: dynamic members that did not rejoin are removed, the next
    /// generation starts with the chosen protocol, and every joined member gets its answer
    /// (the leader with the members' metadata). An emptied group becomes Empty and is
    /// persisted so.
    fn complete_join(&mut self) {
        let id = self.g.id.clone();
        self.timers.cancel(&TimerKey::Join(id.clone()));
        self.g.initial_delay_remaining = None;
        let gone: Vec<String> = self
            .g
            .members
            .values()
            .filter(|m| m.awaiting_join.is_none() && m.instance_id.is_none())
            .map(|m| m.id.clone())
            .collect();
        for m in gone {
            self.drop_member(&m);
        }
        if !self.g.members.is_empty() && !self.elect_joined_leader() {
            // Only static members that did not rejoin are left: wait another rebalance
            // timeout for them (or for their sessions to end).
            let timeout = self.g.rebalance_timeout_ms();
            self.timers
                .schedule(TimerKey::Join(id), self.now + timeout as i64);
            return;
        }
        self.g.generation += 1;
        if self.g.members.is_empty() {
            self.g.protocol = None;
            self.g.leader = None;
            self.g.transition(GroupState::Empty, self.now);
            self.out.records.push(crate::GroupRecord::Group {
                group: id,
                value: Some(self.g.record_value(self.now)),
            });
            return;
        }
        self.g.protocol = self.g.select_protocol();
        *self.completed += 1;
        self.g.transition(GroupState::CompletingRebalance, self.now);
        self.g.pending_sync = self.g.members.keys().cloned().collect();
        self.timers.schedule(
            TimerKey::Sync(id.clone()),
            self.now + self.g.rebalance_timeout_ms() as i64,
        );
        let joined: Vec<(String, Waiter)> = self
            .g
            .members
            .values_mut()
            .filter_map(|m| {
                m.is_new = false;
                m.awaiting_join.take().map(|w| (m.id.clone(), w))
            })
            .collect();
        for (member, w) in joined {
            self.out.reply(w.token, join_answer(self.g, &member, false));
            touch(self.timers, self.g, &member, self.now);
        }
    }

    /// Keeps the leader if it rejoined, else picks a member that did; false when none did.
    fn elect_joined_leader(&mut self) -> bool {
        let joined =
            |g: &Group, id: &str| g.members.get(id).is_some_and(|m| m.awaiting_join.is_some());
        if let Some(l) = self.g.leader.clone() {
            if joined(self.g, &l) {
                return true;
            }
        }
        let next = self
            .g
            .members
            .values()
            .find(|m| m.awaiting_join.is_some())
            .map(|m| m.id.clone());
        match next {
            Some(l) => {
                self.g.leader = Some(l);
                true
            }
            None => false,
        }
    }

    /// Removes a member without starting a rebalance; its waiting requests are answered
    /// UNKNOWN_MEMBER_ID.
    fn drop_member(&mut self, id: &str) {
        let Some(m) = self.g.members.remove(id) else {
            return;
        };
        if let Some(i) = &m.instance_id {
            if self.g.static_members.get(i).map(String::as_str) == Some(id) {
                self.g.static_members.remove(i);
            }
        }
        self.timers.cancel(&session(&self.g.id, id));
        if let Some(w) = m.awaiting_join {
            self.out
                .reply(w.token, join_error(w, ErrorCode::UnknownMemberId, id));
        }
        if let Some(w) = m.awaiting_sync {
            self.out
                .reply(w.token, sync_error(ErrorCode::UnknownMemberId));
        }
        self.g.pending_sync.remove(id);
        if self.g.leader.as_deref() == Some(id) {
            self.g.leader = self.g.members.keys().next().cloned();
        }
    }

    /// Removes a member (left, or its session ended) and rebalances what is left.
    fn remove_member(&mut self, id: &str) {
        self.drop_member(id);
        match self.g.state {
            GroupState::Stable | GroupState::CompletingRebalance => self.prepare(),
            GroupState::PreparingRebalance => self.maybe_complete_join(),
            GroupState::Empty | GroupState::Dead => {}
        }
    }

    /// Adds a member that joins now and starts (or continues) a join phase.
    fn add_member(&mut self, member: Member, protocol_type: &str) {
        let id = member.id.clone();
        if self.g.members.is_empty() {
            self.g.protocol_type = Some(protocol_type.to_string());
        }
        if self.g.leader.is_none() {
            self.g.leader = Some(id.clone());
        }
        if let Some(i) = &member.instance_id {
            self.g.static_members.insert(i.clone(), id.clone());
        }
        self.timers.schedule(
            session(&self.g.id, &id),
            self.now + member.session_timeout_ms as i64,
        );
        // Only a member joining a new group's delay already running extends it (Kafka marks
        // it before the group leaves Empty): the first member waits the delay once.
        if self.g.state == GroupState::PreparingRebalance && self.g.generation == 0 {
            self.g.new_member_added = true;
        }
        self.g.members.insert(id.clone(), member);
        if self.g.pending_members.remove(&id) {
            self.timers.cancel(&TimerKey::Pending {
                group: self.g.id.clone(),
                member: id,
            });
        }
        match self.g.state {
            GroupState::Stable | GroupState::CompletingRebalance | GroupState::Empty => {
                self.prepare()
            }
            _ => {}
        }
        self.maybe_complete_join();
    }
}

/// True when a rejoining member's metadata for the group's protocol asks for what it asked
/// before: for `consumer` groups the same topics (what else a restarted client sends, such as
/// the partitions it owned, differs by nature), else the same bytes.
fn same_subscription(protocol_type: Option<&str>, old: &Bytes, new: &Bytes) -> bool {
    use fjord_protocol::consumer_protocol::decode_subscription;
    if protocol_type == Some("consumer") {
        if let (Ok(a), Ok(b)) = (decode_subscription(old), decode_subscription(new)) {
            let (mut a, mut b) = (a.topics, b.topics);
            a.sort();
            b.sort();
            return a == b;
        }
    }
    old == new
}

/// The member a JoinGroup describes.
fn member_of(ctx: &RequestContext, r: &JoinGroupRequest, id: String) -> Member {
    Member {
        id,
        instance_id: r.group_instance_id.clone(),
        client_id: ctx.client_id.clone(),
        client_host: ctx.client_host.clone(),
        // v0 has no rebalance timeout: it is the session timeout.
        rebalance_timeout_ms: if r.rebalance_timeout_ms > 0 {
            r.rebalance_timeout_ms
        } else {
            r.session_timeout_ms
        },
        session_timeout_ms: r.session_timeout_ms,
        protocols: protocols_of(r),
        assignment: Bytes::new(),
        awaiting_join: Some(ctx.waiter()),
        awaiting_sync: None,
        is_new: true,
    }
}

fn protocols_of(r: &JoinGroupRequest) -> Vec<(String, Bytes)> {
    r.protocols
        .iter()
        .map(|p| (p.name.clone(), p.metadata.clone()))
        .collect()
}

impl Shard {
    fn rebalance<'a>(
        &'a mut self,
        group: &str,
        now: i64,
        out: &'a mut Output,
    ) -> Option<Rebalance<'a>> {
        let g = self.groups.get_mut(group)?;
        Some(Rebalance {
            g,
            timers: &mut self.timers,
            config: &self.config,
            now,
            out,
            completed: &mut self.completed_rebalances,
        })
    }

    /// JoinGroup.
    pub fn join_group(&mut self, ctx: &RequestContext, r: &JoinGroupRequest, now: i64) -> Output {
        let mut out = Output::default();
        let w = ctx.waiter();
        let fail = |out: &mut Output, code: ErrorCode| {
            out.reply(w.token, join_error(w, code, &r.member_id));
        };
        if r.group_id.is_empty() {
            fail(&mut out, ErrorCode::InvalidGroupId);
            return out;
        }
        if r.session_timeout_ms < self.config.min_session_timeout_ms
            || r.session_timeout_ms > self.config.max_session_timeout_ms
        {
            fail(&mut out, ErrorCode::InvalidSessionTimeout);
            return out;
        }
        if self.share_group(&r.group_id).is_some() {
            fail(&mut out, ErrorCode::GroupIdNotFound);
            return out;
        }
        if self.is_active_consumer_group(&r.group_id) {
            // A classic member of a consumer group (online migration).
            self.classic_join_consumer_group(ctx, r, now, &mut out);
            return out;
        }
        // An empty consumer group becomes a classic one (its offsets stay).
        self.drop_empty_consumer_group(&r.group_id, &mut out);
        let new_member = r.member_id.is_empty();
        if !self.groups.contains_key(&r.group_id) {
            if !new_member {
                fail(&mut out, ErrorCode::UnknownMemberId);
                return out;
            }
            if !self.has_room() {
                fail(&mut out, ErrorCode::CoordinatorNotAvailable);
                return out;
            }
            self.groups
                .insert(r.group_id.clone(), Group::new(&r.group_id, now));
        }
        let protocols = protocols_of(r);
        let max_size = self.config.max_size;
        {
            let g = &self.groups[&r.group_id];
            if g.state == GroupState::Dead {
                fail(&mut out, ErrorCode::CoordinatorNotAvailable);
                return out;
            }
            let known =
                g.members.contains_key(&r.member_id) || g.pending_members.contains(&r.member_id);
            if !known && g.size() >= max_size {
                fail(&mut out, ErrorCode::GroupMaxSizeReached);
                return out;
            }
            if !g.supports(&r.protocol_type, &protocols) {
                fail(&mut out, ErrorCode::InconsistentGroupProtocol);
                return out;
            }
        }
        if new_member {
            self.join_new_member(ctx, r, now, &mut out);
        } else {
            self.join_known_member(ctx, r, now, &mut out);
        }
        out
    }

    fn join_new_member(
        &mut self,
        ctx: &RequestContext,
        r: &JoinGroupRequest,
        now: i64,
        out: &mut Output,
    ) {
        let w = ctx.waiter();
        if let Some(instance) = &r.group_instance_id {
            let new_id = self.member_id(instance);
            let old = self.groups[&r.group_id]
                .static_members
                .get(instance)
                .cloned();
            if let Some(old_id) = old {
                self.replace_static_member(ctx, r, &old_id, &new_id, now, out);
                return;
            }
            let member = member_of(ctx, r, new_id);
            let Some(mut rb) = self.rebalance(&r.group_id, now, out) else {
                return;
            };
            rb.add_member(member, &r.protocol_type);
            return;
        }
        let id = self.member_id(&ctx.client_id);
        if ctx.version >= MEMBER_ID_REQUIRED_VERSION {
            let g = self.groups.get_mut(&r.group_id).expect("group");
            g.pending_members.insert(id.clone());
            self.timers.schedule(
                TimerKey::Pending {
                    group: r.group_id.clone(),
                    member: id.clone(),
                },
                now + r.session_timeout_ms as i64,
            );
            out.reply(w.token, join_error(w, ErrorCode::MemberIdRequired, &id));
            return;
        }
        let member = member_of(ctx, r, id);
        let Some(mut rb) = self.rebalance(&r.group_id, now, out) else {
            return;
        };
        rb.add_member(member, &r.protocol_type);
    }

    /// A static member rejoining under a new member id: the old id is fenced (its waiting
    /// requests get FENCED_INSTANCE_ID), the member keeps its place. In a Stable group with
    /// unchanged protocols no rebalance happens: the new id is persisted and the member gets
    /// the current generation (a rejoining leader skips the assignment from v9, and
    /// rebalances before it).
    fn replace_static_member(
        &mut self,
        ctx: &RequestContext,
        r: &JoinGroupRequest,
        old_id: &str,
        new_id: &str,
        now: i64,
        out: &mut Output,
    ) {
        let w = ctx.waiter();
        let Some(mut rb) = self.rebalance(&r.group_id, now, out) else {
            return;
        };
        let Some(mut old) = rb.g.members.remove(old_id) else {
            return;
        };
        rb.timers.cancel(&session(&rb.g.id, old_id));
        if let Some(x) = old.awaiting_join.take() {
            rb.out
                .reply(x.token, join_error(x, ErrorCode::FencedInstanceId, old_id));
        }
        if let Some(x) = old.awaiting_sync.take() {
            rb.out
                .reply(x.token, sync_error(ErrorCode::FencedInstanceId));
        }
        if rb.g.pending_sync.remove(old_id) {
            rb.g.pending_sync.insert(new_id.to_string());
        }
        let previous_leader = rb.g.leader.clone();
        let mut member = member_of(ctx, r, new_id.to_string());
        let unchanged = rb.g.protocol.as_deref().is_some_and(|p| {
            same_subscription(
                rb.g.protocol_type.as_deref(),
                &old.metadata(p),
                &member.metadata(p),
            )
        });
        member.assignment = old.assignment;
        member.is_new = false;
        if rb.g.leader.as_deref() == Some(old_id) {
            rb.g.leader = Some(new_id.to_string());
        }
        let instance = r.group_instance_id.clone().unwrap_or_default();
        rb.g.static_members.insert(instance, new_id.to_string());
        let is_leader = rb.g.leader.as_deref() == Some(new_id);
        rb.g.members.insert(new_id.to_string(), member);
        // Kafka's rule: no rebalance while the protocol the group would choose is the one it
        // runs; fjord also keeps the subscription (a changed one needs a new assignment).
        let same = unchanged && rb.g.select_protocol() == rb.g.protocol;
        match rb.g.state {
            GroupState::Stable if same => {
                if let Some(m) = rb.g.members.get_mut(new_id) {
                    m.awaiting_join = None;
                }
                touch(rb.timers, rb.g, new_id, now);
                rb.out.records.push(crate::GroupRecord::Group {
                    group: rb.g.id.clone(),
                    value: Some(rb.g.record_value(now)),
                });
                let answer = if w.version >= SKIP_ASSIGNMENT_VERSION {
                    join_answer(rb.g, new_id, is_leader)
                } else {
                    // An older client told it leads would assign anew, and a Stable group
                    // would not pass that on: it is told the leader it knew of, and syncs as
                    // a follower for the assignment it had.
                    let mut a = join_answer(rb.g, new_id, false);
                    if let ResponseBody::JoinGroup(j) = &mut a {
                        j.leader = previous_leader.unwrap_or_default();
                        j.members.clear();
                    }
                    a
                };
                rb.out.reply(w.token, answer);
            }
            GroupState::PreparingRebalance => {
                touch(rb.timers, rb.g, new_id, now);
                rb.maybe_complete_join();
            }
            _ => {
                touch(rb.timers, rb.g, new_id, now);
                rb.prepare();
                rb.maybe_complete_join();
            }
        }
    }

    fn join_known_member(
        &mut self,
        ctx: &RequestContext,
        r: &JoinGroupRequest,
        now: i64,
        out: &mut Output,
    ) {
        let w = ctx.waiter();
        let protocols = protocols_of(r);
        let Some(mut rb) = self.rebalance(&r.group_id, now, out) else {
            return;
        };
        if rb.g.pending_members.contains(&r.member_id) {
            let member = member_of(ctx, r, r.member_id.clone());
            rb.add_member(member, &r.protocol_type);
            return;
        }
        if let Some(i) = &r.group_instance_id {
            if rb
                .g
                .static_members
                .get(i)
                .is_some_and(|m| *m != r.member_id)
            {
                rb.out.reply(
                    w.token,
                    join_error(w, ErrorCode::FencedInstanceId, &r.member_id),
                );
                return;
            }
        }
        let Some(m) = rb.g.members.get(&r.member_id) else {
            rb.out.reply(
                w.token,
                join_error(w, ErrorCode::UnknownMemberId, &r.member_id),
            );
            return;
        };
        let same = m.same_protocols(&protocols);
        let is_leader = rb.g.leader.as_deref() == Some(r.member_id.as_str());
        let update = |g: &mut Group, out: &mut Output| {
            let m = g.members.get_mut(&r.member_id).expect("member");
            m.protocols = protocols.clone();
            m.session_timeout_ms = r.session_timeout_ms;
            if r.rebalance_timeout_ms > 0 {
                m.rebalance_timeout_ms = r.rebalance_timeout_ms;
            }
            if let Some(old) = m.awaiting_join.replace(w) {
                out.reply(
                    old.token,
                    join_error(old, ErrorCode::RebalanceInProgress, &m.id),
                );
            }
        };
        match rb.g.state {
            GroupState::PreparingRebalance => {
                update(rb.g, rb.out);
                rb.maybe_complete_join();
            }
            GroupState::CompletingRebalance if same => {
                rb.out
                    .reply(w.token, join_answer(rb.g, &r.member_id, false));
                touch(rb.timers, rb.g, &r.member_id, now);
            }
            GroupState::Stable if same && !is_leader => {
                rb.out
                    .reply(w.token, join_answer(rb.g, &r.member_id, false));
                touch(rb.timers, rb.g, &r.member_id, now);
            }
            GroupState::CompletingRebalance | GroupState::Stable => {
                update(rb.g, rb.out);
                rb.prepare();
                rb.maybe_complete_join();
            }
            GroupState::Empty | GroupState::Dead => {
                rb.out.reply(
                    w.token,
                    join_error(w, ErrorCode::UnknownMemberId, &r.member_id),
                );
            }
        }
    }

    /// Checks a member's identity for SyncGroup, Heartbeat and OffsetCommit: the group must
    /// exist and not be dead, a static member's instance must map to this member id, the
    /// member must be known and in `generation`.
    pub(crate) fn check_member(
        &self,
        group: &str,
        member: &str,
        instance: Option<&str>,
        generation: i32,
    ) -> Result<(), ErrorCode> {
        let g = self.groups.get(group).ok_or(ErrorCode::UnknownMemberId)?;
        if g.state == GroupState::Dead {
            return Err(ErrorCode::CoordinatorNotAvailable);
        }
        if let Some(i) = instance {
            if g.static_members.get(i).is_some_and(|m| m != member) {
                return Err(ErrorCode::FencedInstanceId);
            }
        }
        if !g.members.contains_key(member) {
            return Err(ErrorCode::UnknownMemberId);
        }
        if generation != g.generation {
            return Err(ErrorCode::IllegalGeneration);
        }
        Ok(())
    }

    /// SyncGroup.
    pub fn sync_group(&mut self, ctx: &RequestContext, r: &SyncGroupRequest, now: i64) -> Output {
        let mut out = Output::default();
        let w = ctx.waiter();
        if self.consumer_group(&r.group_id).is_some() {
            self.classic_sync_consumer_group(ctx, r, now, &mut out);
            return out;
        }
        if let Err(code) = self.check_member(
            &r.group_id,
            &r.member_id,
            r.group_instance_id.as_deref(),
            r.generation_id,
        ) {
            out.reply(w.token, sync_error(code));
            return out;
        }
        let Some(rb) = self.rebalance(&r.group_id, now, &mut out) else {
            return out;
        };
        let mismatch = |given: &Option<String>, ours: &Option<String>| {
            given.as_ref().is_some_and(|x| Some(x) != ours.as_ref())
        };
        if mismatch(&r.protocol_type, &rb.g.protocol_type)
            || mismatch(&r.protocol_name, &rb.g.protocol)
        {
            rb.out
                .reply(w.token, sync_error(ErrorCode::InconsistentGroupProtocol));
            return out;
        }
        match rb.g.state {
            GroupState::Empty => rb
                .out
                .reply(w.token, sync_error(ErrorCode::UnknownMemberId)),
            GroupState::Dead => rb
                .out
                .reply(w.token, sync_error(ErrorCode::CoordinatorNotAvailable)),
            GroupState::PreparingRebalance => rb
                .out
                .reply(w.token, sync_error(ErrorCode::RebalanceInProgress)),
            GroupState::Stable => {
                rb.g.pending_sync.remove(&r.member_id);
                touch(rb.timers, rb.g, &r.member_id, now);
                let assignment = rb.g.members[&r.member_id].assignment.clone();
                let answer = sync_answer(rb.g, assignment);
                rb.out.reply(w.token, answer);
            }
            GroupState::CompletingRebalance => {
                rb.g.pending_sync.remove(&r.member_id);
                touch(rb.timers, rb.g, &r.member_id, now);
                if let Some(m) = rb.g.members.get_mut(&r.member_id) {
                    if let Some(old) = m.awaiting_sync.replace(w) {
                        rb.out
                            .reply(old.token, sync_error(ErrorCode::RebalanceInProgress));
                    }
                }
                if rb.g.leader.as_deref() == Some(r.member_id.as_str()) {
                    for m in rb.g.members.values_mut() {
                        m.assignment = r
                            .assignments
                            .iter()
                            .find(|a| a.member_id == m.id)
                            .map(|a| a.assignment.clone())
                            .unwrap_or_default();
                    }
                    rb.timers.cancel(&TimerKey::Sync(rb.g.id.clone()));
                    rb.g.pending_sync.clear();
                    rb.g.transition(GroupState::Stable, now);
                    rb.out.records.push(crate::GroupRecord::Group {
                        group: rb.g.id.clone(),
                        value: Some(rb.g.record_value(now)),
                    });
                    let waiting: Vec<(Waiter, Bytes)> = rb
                        .g
                        .members
                        .values_mut()
                        .filter_map(|m| m.awaiting_sync.take().map(|w| (w, m.assignment.clone())))
                        .collect();
                    for (w, assignment) in waiting {
                        let answer = sync_answer(rb.g, assignment);
                        rb.out.reply(w.token, answer);
                    }
                }
            }
        }
        out
    }

    /// Heartbeat.
    pub fn heartbeat(&mut self, ctx: &RequestContext, r: &HeartbeatRequest, now: i64) -> Output {
        let mut out = Output::default();
        if self.consumer_group(&r.group_id).is_some() {
            self.classic_heartbeat_consumer_group(ctx, r, now, &mut out);
            return out;
        }
        let code = match self.check_member(
            &r.group_id,
            &r.member_id,
            r.group_instance_id.as_deref(),
            r.generation_id,
        ) {
            Err(code) => code,
            Ok(()) => {
                let g = &self.groups[&r.group_id];
                let code = match g.state {
                    GroupState::Empty => ErrorCode::UnknownMemberId,
                    GroupState::Dead => ErrorCode::CoordinatorNotAvailable,
                    GroupState::PreparingRebalance => ErrorCode::RebalanceInProgress,
                    GroupState::CompletingRebalance | GroupState::Stable => ErrorCode::None,
                };
                if code != ErrorCode::UnknownMemberId {
                    touch(&mut self.timers, g, &r.member_id, now);
                }
                code
            }
        };
        out.reply(
            ctx.token,
            ResponseBody::Heartbeat(HeartbeatResponse {
                error_code: code.code(),
                ..Default::default()
            }),
        );
        out
    }

    /// LeaveGroup (one member before v3, a batch from v3; static members by instance id).
    pub fn leave_group(&mut self, ctx: &RequestContext, r: &LeaveGroupRequest, now: i64) -> Output {
        let mut out = Output::default();
        if self.consumer_group(&r.group_id).is_some() {
            self.classic_leave_consumer_group(ctx, r, &mut out);
            return out;
        }
        let identities = leave_identities(ctx.version, r);
        let top = |code: ErrorCode| LeaveGroupResponse {
            error_code: code.code(),
            ..Default::default()
        };
        let response = match self.rebalance(&r.group_id, now, &mut out) {
            None => top(ErrorCode::UnknownMemberId),
            Some(rb) if rb.g.state == GroupState::Dead => top(ErrorCode::CoordinatorNotAvailable),
            Some(mut rb) => {
                let mut members = Vec::new();
                for (member_id, instance) in identities {
                    let code = rb.leave(&member_id, instance.as_deref());
                    members.push(MemberResponse {
                        member_id,
                        group_instance_id: instance,
                        error_code: code.code(),
                        ..Default::default()
                    });
                }
                leave_response(ctx.version, members)
            }
        };
        out.reply(ctx.token, ResponseBody::LeaveGroup(response));
        out
    }

    /// Starts a join phase in the classic group `group` (a group converted back from a
    /// consumer group: its members rejoin).
    pub(crate) fn prepare_rebalance(&mut self, group: &str, now: i64, out: &mut Output) {
        if let Some(mut rb) = self.rebalance(group, now, out) {
            rb.prepare();
        }
    }

    /// A member's session ended: it is removed unless it waits in a join or sync phase.
    pub(crate) fn session_expired(
        &mut self,
        group: &str,
        member: &str,
        now: i64,
        out: &mut Output,
    ) {
        let Some(mut rb) = self.rebalance(group, now, out) else {
            return;
        };
        let Some(m) = rb.g.members.get(member) else {
            return;
        };
        if m.awaiting_join.is_some() || m.awaiting_sync.is_some() {
            touch(rb.timers, rb.g, member, now);
            return;
        }
        rb.remove_member(member);
    }

    /// A member id handed out with MEMBER_ID_REQUIRED was never used.
    pub(crate) fn pending_expired(
        &mut self,
        group: &str,
        member: &str,
        now: i64,
        out: &mut Output,
    ) {
        let Some(mut rb) = self.rebalance(group, now, out) else {
            return;
        };
        if rb.g.pending_members.remove(member) {
            rb.maybe_complete_join();
        }
    }

    /// The join phase's deadline: the initial delay is extended while new members keep
    /// arriving (up to the rebalance timeout), else the phase ends with whoever joined.
    pub(crate) fn join_phase_ended(&mut self, group: &str, now: i64, out: &mut Output) {
        let Some(mut rb) = self.rebalance(group, now, out) else {
            return;
        };
        if rb.g.state != GroupState::PreparingRebalance {
            return;
        }
        if let Some(remaining) = rb.g.initial_delay_remaining {
            if rb.g.new_member_added && remaining > 0 {
                rb.g.new_member_added = false;
                let delay = rb.config.initial_rebalance_delay_ms.min(remaining);
                rb.g.initial_delay_remaining = Some(remaining - delay);
                rb.timers
                    .schedule(TimerKey::Join(group.to_string()), now + delay as i64);
                return;
            }
        }
        rb.complete_join();
    }

    /// The sync phase's deadline: members that never sent SyncGroup are removed and the group
    /// rebalances.
    pub(crate) fn sync_phase_ended(&mut self, group: &str, now: i64, out: &mut Output) {
        let Some(mut rb) = self.rebalance(group, now, out) else {
            return;
        };
        if rb.g.state != GroupState::CompletingRebalance {
            return;
        }
        let late: Vec<String> = rb.g.pending_sync.iter().cloned().collect();
        for m in late {
            rb.remove_member(&m);
        }
    }
}

impl Rebalance<'_> {
    /// One LeaveGroup member: by instance id for static members (FENCED_INSTANCE_ID when the
    /// member id given is another's), else by member id (a pending id too).
    fn leave(&mut self, member_id: &str, instance: Option<&str>) -> ErrorCode {
        let id = match instance {
            Some(i) => match self.g.static_members.get(i) {
                None => return ErrorCode::UnknownMemberId,
                Some(m) if !member_id.is_empty() && m != member_id => {
                    return ErrorCode::FencedInstanceId
                }
                Some(m) => m.clone(),
            },
            None => member_id.to_string(),
        };
        if self.g.pending_members.remove(&id) {
            self.timers.cancel(&TimerKey::Pending {
                group: self.g.id.clone(),
                member: id,
            });
            self.maybe_complete_join();
            return ErrorCode::None;
        }
        if !self.g.members.contains_key(&id) {
            return ErrorCode::UnknownMemberId;
        }
        self.remove_member(&id);
        ErrorCode::None
    }
}

/// The members a LeaveGroup names (member id, instance id): one before v3, a batch from v3.
pub(crate) fn leave_identities(
    version: i16,
    r: &LeaveGroupRequest,
) -> Vec<(String, Option<String>)> {
    if version >= BATCHED_LEAVE_VERSION {
        r.members
            .iter()
            .map(|m| (m.member_id.clone(), m.group_instance_id.clone()))
            .collect()
    } else {
        vec![(r.member_id.clone(), None)]
    }
}

/// A LeaveGroup answer: per member from v3, the one member's code before.
pub(crate) fn leave_response(version: i16, members: Vec<MemberResponse>) -> LeaveGroupResponse {
    if version >= BATCHED_LEAVE_VERSION {
        LeaveGroupResponse {
            members,
            ..Default::default()
        }
    } else {
        LeaveGroupResponse {
            error_code: members.first().map_or(0, |m| m.error_code),
            ..Default::default()
        }
    }
}

/// A SyncGroup answer carrying `assignment`.
fn sync_answer(g: &Group, assignment: Bytes) -> ResponseBody {
    ResponseBody::SyncGroup(SyncGroupResponse {
        protocol_type: g.protocol_type.clone(),
        protocol_name: g.protocol.clone(),
        assignment,
        ..Default::default()
    })
}
