//! Online migration between classic and consumer groups (KIP-848, as Kafka 4 does it), and
//! the classic protocol served to a consumer group's classic members.
//!
//! - **Upgrade.** When a consumer-protocol member joins a classic group that has members
//!   (`group.consumer.migration.policy` allows it, the group's protocol type is `consumer`,
//!   and it is not larger than `group.consumer.max.size`), the classic group becomes a
//!   consumer group: every classic member becomes a member with classic metadata (its session
//!   timeout and supported protocols), at member epoch = group epoch = the generation, with
//!   its last assignment as both its current and its target assignment. JoinGroups and
//!   SyncGroups waiting in a rebalance get REBALANCE_IN_PROGRESS and rejoin.
//! - **Classic members of a consumer group.** JoinGroup joins (or rejoins) the member and
//!   reconciles it with the partitions its subscription says it owns; the answer carries its
//!   member epoch as the generation and no member list (the coordinator assigns). SyncGroup
//!   returns its assigned partitions in the consumer protocol's format. Heartbeat says
//!   REBALANCE_IN_PROGRESS while the member is behind the group epoch or has partitions to
//!   revoke or to take; the member then has its rebalance timeout to rejoin. LeaveGroup
//!   removes members. A classic member's session is its own session timeout.
//! - **Downgrade.** When the last consumer-protocol member leaves (or is fenced, or a classic
//!   static member replaces it) and the remaining members all use the classic protocol, the
//!   group becomes a classic group again at generation = group epoch, and a rebalance starts
//!   (not after a replacement in a settled group, where the joining member takes the old
//!   one's partitions and nothing moves).
//!
//! Both directions count what a member may *hold*, so that no partition is given to one
//! member while another may still consume it: an upgraded member holds its last classic
//! assignment and the partitions its last JoinGroup said it owned (a SyncGroup answer may
//! not have reached it); a downgraded member's classic assignment is its assigned partitions
//! and those it has still to revoke. Kafka uses the classic assignment alone and the target
//! assignment; the migration simulation finds a partition consumed twice that way.
//!
//! Each conversion is records: the old kind's tombstones, then the new kind's records, so a
//! shard loading the log folds to the same group. Offsets stay in the group's classic entry.

use crate::consumer::{
    current_value, is_classic, new_member_value, target_value, MemberUpdate, Refusal, TopicSource,
    CONSUMER,
};
use crate::consumer_records::ConsumerRecord;
use crate::group::{Group, GroupState, Member};
use crate::membership::{
    join_error, leave_identities, leave_response, sync_error, MEMBER_ID_REQUIRED_VERSION,
};
use crate::reconcile::{MemberState, Partitions, Reconciled};
use crate::records::GroupRecord;
use crate::shard::{Output, RequestContext, Shard};
use crate::timers::TimerKey;
use bytes::Bytes;
use fjord_protocol::consumer_protocol::{
    decode_assignment, decode_subscription, encode_assignment, CONSUMER_PROTOCOL_VERSION,
};
use fjord_protocol::generated::{
    consumer_group_member_metadata_value::{
        ClassicMemberMetadata, ClassicProtocol, ConsumerGroupMemberMetadataValue as MemberValue,
    },
    consumer_protocol_assignment::{
        ConsumerProtocolAssignment, TopicPartition as AssignedTopicPartition,
    },
    heartbeat_request::HeartbeatRequest,
    heartbeat_response::HeartbeatResponse,
    join_group_request::JoinGroupRequest,
    join_group_response::JoinGroupResponse,
    leave_group_request::LeaveGroupRequest,
    leave_group_response::MemberResponse,
    sync_group_request::SyncGroupRequest,
    sync_group_response::SyncGroupResponse,
};
use fjord_protocol::{ErrorCode, ResponseBody};

/// A member's session timeout: a classic member's own, else its group's (`group_ms`).
pub(crate) fn session_timeout_ms(group_ms: i32, m: &MemberValue) -> i32 {
    m.classic_member_metadata
        .as_ref()
        .map_or(group_ms, |c| c.session_timeout_ms)
}

/// The consumer-protocol version a payload starts with (0 when unreadable; capped at the
/// newest this build writes), as Kafka's `ConsumerProtocol.deserializeVersion`.
fn payload_version(metadata: &[u8]) -> i16 {
    match metadata {
        [hi, lo, ..] => i16::from_be_bytes([*hi, *lo]).clamp(0, CONSUMER_PROTOCOL_VERSION),
        _ => 0,
    }
}

/// Partitions by topic name as partitions by topic id (topics the image lacks are dropped).
fn by_id<'a>(
    topics: &dyn TopicSource,
    named: impl IntoIterator<Item = (&'a String, &'a Vec<i32>)>,
) -> Partitions {
    let mut out = Partitions::new();
    for (name, ps) in named {
        if let Some((id, _)) = topics.topic(name) {
            if !ps.is_empty() {
                out.entry(id).or_default().extend(ps.iter().copied());
            }
        }
    }
    out
}

/// Partitions by topic id as a consumer-protocol assignment at `version`.
fn assignment_bytes(topics: &dyn TopicSource, p: &Partitions, version: i16) -> Bytes {
    let a = ConsumerProtocolAssignment {
        assigned_partitions: p
            .iter()
            .filter_map(|(t, ps)| {
                topics.name(*t).map(|topic| AssignedTopicPartition {
                    topic,
                    partitions: ps.iter().copied().collect(),
                })
            })
            .collect(),
        ..Default::default()
    };
    encode_assignment(&a, version).unwrap_or_default()
}

/// A classic member of group `id` as a consumer group member: its record (subscription,
/// rack, classic metadata) and what it may hold (its last assignment and what it said it
/// owned), or Kafka's refusal when its embedded consumer protocol is malformed.
fn converted_member(
    id: &str,
    protocol: Option<&String>,
    m: &Member,
    topics: &dyn TopicSource,
) -> Result<(String, MemberValue, Partitions), Refusal> {
    let protocol = protocol
        .cloned()
        .or_else(|| m.protocols.first().map(|(n, _)| n.clone()))
        .unwrap_or_default();
    let malformed = || {
        (
            ErrorCode::GroupIdNotFound,
            format!(
                "Cannot upgrade the classic group {id} to consumer group because the \
                 embedded consumer protocol is malformed."
            ),
        )
    };
    let subscription = decode_subscription(&m.metadata(&protocol)).map_err(|_| malformed())?;
    // What it may hold: its last assignment, and what it said it owned when it last
    // joined (a cooperative member that has not received its SyncGroup answer still
    // holds those). A partition counted here is given to no one else until the member
    // reports it revoked.
    let mut assigned = by_id(
        topics,
        subscription
            .owned_partitions
            .iter()
            .map(|t| (&t.topic, &t.partitions)),
    );
    if !m.assignment.is_empty() {
        let a = decode_assignment(&m.assignment).map_err(|_| malformed())?;
        let last = by_id(
            topics,
            a.assigned_partitions
                .iter()
                .map(|t| (&t.topic, &t.partitions)),
        );
        for (t, ps) in last {
            assigned.entry(t).or_default().extend(ps);
        }
    }
    let mut names = subscription.topics.clone();
    names.sort();
    names.dedup();
    let value = MemberValue {
        instance_id: m.instance_id.clone(),
        rack_id: subscription.rack_id.clone().filter(|r| !r.is_empty()),
        client_id: m.client_id.clone(),
        client_host: m.client_host.clone(),
        subscribed_topic_names: names,
        rebalance_timeout_ms: m.rebalance_timeout_ms,
        classic_member_metadata: Some(ClassicMemberMetadata {
            session_timeout_ms: m.session_timeout_ms,
            supported_protocols: m
                .protocols
                .iter()
                .map(|(name, metadata)| ClassicProtocol {
                    name: name.clone(),
                    metadata: metadata.clone(),
                    ..Default::default()
                })
                .collect(),
            ..Default::default()
        }),
        ..new_member_value()
    };
    Ok((m.id.clone(), value, assigned))
}

/// A classic member's new record as a consumer group member: `base` with what its JoinGroup
/// and its embedded subscription set (the classic protocols kept for a downgrade).
fn classic_updated_member(
    base: &MemberValue,
    r: &JoinGroupRequest,
    subscription: &fjord_protocol::generated::consumer_protocol_subscription::ConsumerProtocolSubscription,
    ctx: &RequestContext,
) -> MemberValue {
    let mut updated = base.clone();
    if let Some(i) = &r.group_instance_id {
        updated.instance_id = Some(i.clone());
    }
    if let Some(rack) = subscription.rack_id.clone().filter(|r| !r.is_empty()) {
        updated.rack_id = Some(rack);
    }
    if r.rebalance_timeout_ms != -1 {
        updated.rebalance_timeout_ms = r.rebalance_timeout_ms;
    }
    let mut topic_names = subscription.topics.clone();
    topic_names.sort();
    topic_names.dedup();
    updated.subscribed_topic_names = topic_names;
    updated.subscribed_topic_regex = None;
    updated.client_id = ctx.client_id.clone();
    updated.client_host = ctx.client_host.clone();
    updated.classic_member_metadata = Some(ClassicMemberMetadata {
        session_timeout_ms: r.session_timeout_ms,
        supported_protocols: r
            .protocols
            .iter()
            .map(|p| ClassicProtocol {
                name: p.name.clone(),
                metadata: p.metadata.clone(),
                ..Default::default()
            })
            .collect(),
        ..Default::default()
    });
    updated
}

impl Shard {
    /// Converts the classic group `id`, which has members, to a consumer group (see the
    /// module's note), or says why it may not.
    pub(crate) fn upgrade_classic_group(
        &mut self,
        id: &str,
        now: i64,
        out: &mut Output,
    ) -> Result<(), Refusal> {
        let not_consumer = || {
            (
                ErrorCode::GroupIdNotFound,
                format!("Group {id} is not a consumer group"),
            )
        };
        let g = &self.groups[id];
        if !self.config.consumer_migration_policy.upgrade()
            || g.protocol_type.as_deref() != Some(CONSUMER)
            || g.members.len() > self.config.consumer_max_size
        {
            return Err(not_consumer());
        }
        let topics = self.topics.clone();
        // Read every member before changing anything: a malformed one leaves the group as is.
        let mut converted = Vec::new();
        for m in g.members.values() {
            converted.push(converted_member(
                id,
                g.protocol.as_ref(),
                m,
                topics.as_ref(),
            )?);
        }
        let generation = g.generation;
        // The classic group's waiting requests rejoin; its deadlines go.
        let g = self.groups.get_mut(id).expect("the classic group");
        for m in g.members.values_mut() {
            if let Some(w) = m.awaiting_join.take() {
                out.reply(
                    w.token,
                    join_error(w, ErrorCode::RebalanceInProgress, &m.id),
                );
            }
            if let Some(w) = m.awaiting_sync.take() {
                out.reply(w.token, sync_error(ErrorCode::RebalanceInProgress));
            }
            self.timers.cancel(&TimerKey::Session {
                group: id.into(),
                member: m.id.clone(),
            });
        }
        g.drop_pending_members(&mut self.timers);
        self.timers.cancel(&TimerKey::Join(id.into()));
        self.timers.cancel(&TimerKey::Sync(id.into()));
        // The classic metadata goes (its offsets stay in the memberless entry).
        let offsets = std::mem::take(&mut g.offsets);
        let mut holder = Group::new(id, now);
        holder.offsets = offsets;
        self.groups.insert(id.into(), holder);
        out.records.push(GroupRecord::Group {
            group: id.into(),
            value: None,
        });
        // The consumer group's records, in Kafka's order.
        for (member, value, _) in &converted {
            self.decide(
                out,
                ConsumerRecord::Member {
                    group: id.into(),
                    member: member.clone(),
                    value: Some(value.clone()),
                },
            );
        }
        self.write_group_epoch(id, generation, out);
        for (member, _, assigned) in &converted {
            self.decide(
                out,
                ConsumerRecord::TargetMember {
                    group: id.into(),
                    member: member.clone(),
                    value: Some(target_value(assigned)),
                },
            );
        }
        self.write_target_epoch(id, generation, out);
        for (member, _, assigned) in &converted {
            let rec = Reconciled {
                member_epoch: generation,
                previous_member_epoch: generation,
                state: MemberState::Stable,
                assigned: assigned.clone(),
                pending_revocation: Partitions::new(),
            };
            self.decide(
                out,
                ConsumerRecord::Current {
                    group: id.into(),
                    member: member.clone(),
                    value: Some(current_value(&rec)),
                },
            );
            self.touch_member(id, member, now);
        }
        Ok(())
    }

    /// True when removing (or replacing) `leaving` leaves only classic members, so the group
    /// goes back to classic: `leaving` uses the consumer protocol, every other member the
    /// classic one, the policy allows it, and the classic group would not be too large. A
    /// member that leaves its group empty does not convert it (`replacing`: a member takes
    /// its place).
    pub(crate) fn may_downgrade(&self, group: &str, leaving: &str, replacing: bool) -> bool {
        let Some(g) = self.consumer_group(group) else {
            return false;
        };
        let Some(m) = g.members.get(leaving) else {
            return false;
        };
        let remaining = g.members.len() - 1 + usize::from(replacing);
        !is_classic(m)
            && g.members
                .iter()
                .all(|(id, m)| id == leaving || is_classic(m))
            && remaining > 0
            && self.config.consumer_migration_policy.downgrade()
            && remaining <= self.config.max_size
    }

    /// Converts the consumer group `group` to a classic group without `leaving` (and with
    /// `joining` in its place when a classic static member replaces it): see the module's
    /// note.
    pub(crate) fn downgrade(
        &mut self,
        group: &str,
        leaving: &str,
        joining: Option<(String, MemberValue)>,
        now: i64,
        out: &mut Output,
    ) {
        let topics = self.topics.clone();
        let g = &self.consumer_groups.groups[group];
        let epoch = g.group_epoch();
        let settled = g.state_name() == "Stable";
        // Each member's classic assignment is what it may hold now (assigned, and still to
        // revoke), not its target: a partition is never recorded for one member while
        // another may hold it (Kafka writes the target here).
        let holding = |id: &str| {
            let r = g.reconciled(id);
            let mut p = r.assigned;
            for (t, ps) in r.pending_revocation {
                p.entry(t).or_default().extend(ps);
            }
            p
        };
        let mut members: Vec<(String, MemberValue, Partitions)> = g
            .members
            .iter()
            .filter(|(id, _)| *id != leaving)
            .map(|(id, m)| (id.clone(), m.clone(), holding(id)))
            .collect();
        if let Some((id, m)) = joining.clone() {
            // The joining member takes the leaving one's partitions.
            members.push((id, m, holding(leaving)));
        }
        // The consumer group's tombstones.
        let ids: Vec<String> = g.members.keys().cloned().collect();
        for id in &ids {
            self.remove_member_records(group, id, out);
        }
        self.drop_consumer_group_records(group, out);
        // The classic group, Stable at generation = group epoch.
        let offsets = self
            .groups
            .remove(group)
            .map(|g| g.offsets)
            .unwrap_or_default();
        let mut classic = Group::new(group, now);
        classic.offsets = offsets;
        classic.generation = epoch;
        classic.protocol_type = Some(CONSUMER.into());
        for (id, m, _) in &members {
            let meta = m.classic_member_metadata.clone().unwrap_or_default();
            if let Some(i) = &m.instance_id {
                classic.static_members.insert(i.clone(), id.clone());
            }
            classic.members.insert(
                id.clone(),
                Member {
                    id: id.clone(),
                    instance_id: m.instance_id.clone(),
                    client_id: m.client_id.clone(),
                    client_host: m.client_host.clone(),
                    rebalance_timeout_ms: m.rebalance_timeout_ms,
                    session_timeout_ms: meta.session_timeout_ms,
                    protocols: meta
                        .supported_protocols
                        .iter()
                        .map(|p| (p.name.clone(), p.metadata.clone()))
                        .collect(),
                    assignment: Bytes::new(),
                    awaiting_join: None,
                    awaiting_sync: None,
                    is_new: false,
                },
            );
        }
        classic.protocol = classic.select_protocol();
        let protocol = classic.protocol.clone().unwrap_or_default();
        for (id, _, target) in &members {
            let m = classic.members.get_mut(id).expect("a member");
            let version = payload_version(&m.metadata(&protocol));
            m.assignment = assignment_bytes(topics.as_ref(), target, version);
        }
        classic.transition(GroupState::Stable, now);
        out.records.push(GroupRecord::Group {
            group: group.into(),
            value: Some(classic.record_value(now)),
        });
        for (id, _, _) in &members {
            let timeout = classic.members[id].session_timeout_ms;
            self.timers.schedule(
                TimerKey::Session {
                    group: group.into(),
                    member: id.clone(),
                },
                now + timeout as i64,
            );
        }
        self.groups.insert(group.into(), classic);
        // After a replacement in a settled group every partition is held as assigned, so
        // nothing moves (as Kafka); otherwise the classic members rebalance.
        if joining.is_none() || !settled {
            self.prepare_rebalance(group, now, out);
        }
    }

    /// The tombstones of a consumer group's own records (its members' are written first).
    pub(crate) fn drop_consumer_group_records(&mut self, id: &str, out: &mut Output) {
        let Some(g) = self.consumer_groups.groups.get(id) else {
            return;
        };
        let mut records = Vec::new();
        if g.target_epoch.is_some() {
            records.push(ConsumerRecord::Target {
                group: id.into(),
                value: None,
            });
        }
        if g.partitions.is_some() {
            records.push(ConsumerRecord::Partitions {
                group: id.into(),
                value: None,
            });
        }
        records.push(ConsumerRecord::Metadata {
            group: id.into(),
            value: None,
        });
        for r in records {
            self.decide(out, r);
        }
        self.consumer_groups.groups.remove(id);
        self.consumer_runtime.remove(id);
    }

    /// The classic member a request names, by instance id for a static member (Kafka's
    /// `validateConsumerGroupMember` and `throwIfMemberDoesNotUseClassicProtocol`): its id.
    fn classic_member(
        &self,
        group: &str,
        member: &str,
        instance: Option<&str>,
    ) -> Result<String, ErrorCode> {
        let g = self
            .consumer_group(group)
            .ok_or(ErrorCode::UnknownMemberId)?;
        let id = match instance {
            None => member.to_string(),
            Some(i) => match g.static_member(i) {
                None => return Err(ErrorCode::UnknownMemberId),
                Some(id) if id != member => return Err(ErrorCode::FencedInstanceId),
                Some(id) => id.to_string(),
            },
        };
        match g.members.get(&id) {
            Some(m) if is_classic(m) => Ok(id),
            _ => Err(ErrorCode::UnknownMemberId),
        }
    }

    /// The classic member a SyncGroup or Heartbeat names, at the generation it gives (its
    /// member epoch, else ILLEGAL_GENERATION): its id and state.
    fn classic_member_at(
        &self,
        group: &str,
        member: &str,
        instance: Option<&str>,
        generation: i32,
    ) -> Result<(String, Reconciled), ErrorCode> {
        let id = self.classic_member(group, member, instance)?;
        let rec = self.consumer_groups.groups[group].reconciled(&id);
        if rec.member_epoch != generation {
            return Err(ErrorCode::IllegalGeneration);
        }
        Ok((id, rec))
    }

    /// Gives a classic member its rebalance timeout to rejoin, unless it already has it.
    fn await_rejoin(&mut self, group: &str, member: &str, now: i64) {
        let timeout = self
            .consumer_group(group)
            .and_then(|g| g.members.get(member))
            .map_or(0, |m| m.rebalance_timeout_ms.max(0));
        self.timers.schedule_if_absent(
            TimerKey::ConsumerJoin {
                group: group.into(),
                member: member.into(),
            },
            now + timeout as i64,
        );
    }

    /// JoinGroup to a consumer group with members (Kafka's
    /// `classicGroupJoinToConsumerGroup`).
    pub(crate) fn classic_join_consumer_group(
        &mut self,
        ctx: &RequestContext,
        r: &JoinGroupRequest,
        now: i64,
        out: &mut Output,
    ) {
        let answer = match self.try_classic_join(ctx, r, now, out) {
            Ok(body) => body,
            Err((code, member)) => join_error(ctx.waiter(), code, &member),
        };
        out.reply(ctx.token, answer);
    }

    fn try_classic_join(
        &mut self,
        ctx: &RequestContext,
        r: &JoinGroupRequest,
        now: i64,
        out: &mut Output,
    ) -> Result<ResponseBody, (ErrorCode, String)> {
        let group = r.group_id.as_str();
        let unknown = r.member_id.is_empty();
        let member_id = if unknown {
            self.uuid_text()
        } else {
            r.member_id.clone()
        };
        let fail = |code: ErrorCode| (code, member_id.clone());
        let g = &self.consumer_groups.groups[group];
        if !g.members.contains_key(&member_id) && g.members.len() >= self.config.consumer_max_size {
            return Err(fail(ErrorCode::GroupMaxSizeReached));
        }
        // The protocols must be the consumer protocol's and shared with every classic member.
        let names: Vec<&str> = r.protocols.iter().map(|p| p.name.as_str()).collect();
        let classic: Vec<&MemberValue> = g.members.values().filter(|m| is_classic(m)).collect();
        let supported = r.protocol_type == CONSUMER
            && !names.is_empty()
            && (classic.is_empty()
                || names.iter().any(|n| {
                    classic.iter().all(|m| {
                        m.classic_member_metadata
                            .as_ref()
                            .is_some_and(|c| c.supported_protocols.iter().any(|p| p.name == *n))
                    })
                }));
        if !supported {
            return Err(fail(ErrorCode::InconsistentGroupProtocol));
        }
        if unknown && r.group_instance_id.is_none() && ctx.version >= MEMBER_ID_REQUIRED_VERSION {
            // The member rejoins with the id it is given (nothing is kept for it until then).
            return Ok(join_error(
                ctx.waiter(),
                ErrorCode::MemberIdRequired,
                &member_id,
            ));
        }
        let Ok(subscription) = decode_subscription(&r.protocols[0].metadata) else {
            return Err(fail(ErrorCode::InconsistentGroupProtocol));
        };
        // Find the member, or make it; a static member's join replaces its old id.
        let existing = g.members.get(&member_id).cloned();
        let mut replaced: Option<(String, Reconciled, Partitions)> = None;
        if let Some(instance) = r.group_instance_id.as_deref() {
            let holder = g.static_member(instance).map(str::to_string);
            if unknown {
                if let Some(old) = holder {
                    replaced = Some((old.clone(), g.reconciled(&old), g.target_of(&old)));
                }
            } else {
                match holder {
                    None => return Err(fail(ErrorCode::UnknownMemberId)),
                    Some(old) if old != member_id => return Err(fail(ErrorCode::FencedInstanceId)),
                    Some(_) => {}
                }
            }
        }
        let base = g.base_member(existing.as_ref(), replaced.as_ref());
        let updated = classic_updated_member(&base, r, &subscription, ctx);
        let topics = self.topics.clone();
        let owned = by_id(
            topics.as_ref(),
            subscription
                .owned_partitions
                .iter()
                .map(|t| (&t.topic, &t.partitions)),
        );
        // The last consumer-protocol member replaced by a classic one: back to classic.
        let downgrade = replaced
            .as_ref()
            .is_some_and(|(old, ..)| self.may_downgrade(group, old, true));
        if downgrade {
            let (old, ..) = replaced.expect("replaced");
            self.downgrade(group, &old, Some((member_id.clone(), updated)), now, out);
            let g = &self.groups[group];
            return Ok(ResponseBody::JoinGroup(JoinGroupResponse {
                generation_id: g.generation,
                protocol_type: Some(CONSUMER.into()),
                protocol_name: Some(r.protocols[0].name.clone()),
                member_id,
                ..Default::default()
            }));
        }
        let (_, after) = self.apply_member(
            group,
            MemberUpdate {
                member_id: member_id.clone(),
                existing,
                replaced,
                base,
                updated,
                owned: Some(owned),
                rejoining: false,
            },
            topics.as_ref(),
            now,
            out,
        );
        self.timers.cancel(&TimerKey::ConsumerJoin {
            group: group.into(),
            member: member_id.clone(),
        });
        self.touch_member(group, &member_id, now);
        let sync_timeout = if r.rebalance_timeout_ms > 0 {
            r.rebalance_timeout_ms
        } else {
            r.session_timeout_ms
        };
        self.timers.schedule(
            TimerKey::ConsumerSync {
                group: group.into(),
                member: member_id.clone(),
            },
            now + sync_timeout as i64,
        );
        Ok(ResponseBody::JoinGroup(JoinGroupResponse {
            generation_id: after.member_epoch,
            protocol_type: Some(CONSUMER.into()),
            protocol_name: Some(r.protocols[0].name.clone()),
            member_id,
            ..Default::default()
        }))
    }

    /// SyncGroup of a consumer group's classic member (Kafka's
    /// `classicGroupSyncToConsumerGroup`): its assigned partitions, once it caught up.
    pub(crate) fn classic_sync_consumer_group(
        &mut self,
        ctx: &RequestContext,
        r: &SyncGroupRequest,
        now: i64,
        out: &mut Output,
    ) {
        let body = match self.try_classic_sync(r, now) {
            Ok(body) => body,
            Err(code) => sync_error(code),
        };
        out.reply(ctx.token, body);
    }

    fn try_classic_sync(
        &mut self,
        r: &SyncGroupRequest,
        now: i64,
    ) -> Result<ResponseBody, ErrorCode> {
        let group = r.group_id.as_str();
        let (member, rec) = self.classic_member_at(
            group,
            &r.member_id,
            r.group_instance_id.as_deref(),
            r.generation_id,
        )?;
        let g = &self.consumer_groups.groups[group];
        let m = &g.members[&member];
        let first = m
            .classic_member_metadata
            .as_ref()
            .and_then(|c| c.supported_protocols.first())
            .cloned()
            .unwrap_or_default();
        if r.protocol_type.as_deref().is_some_and(|t| t != CONSUMER)
            || r.protocol_name.as_deref().is_some_and(|n| n != first.name)
        {
            return Err(ErrorCode::InconsistentGroupProtocol);
        }
        if g.group_epoch() > rec.member_epoch && rec.state != MemberState::UnrevokedPartitions {
            self.await_rejoin(group, &member, now);
            return Err(ErrorCode::RebalanceInProgress);
        }
        let assignment = assignment_bytes(
            self.topics.as_ref(),
            &rec.assigned,
            payload_version(&first.metadata),
        );
        self.timers.cancel(&TimerKey::ConsumerSync {
            group: group.into(),
            member: member.clone(),
        });
        self.touch_member(group, &member, now);
        Ok(ResponseBody::SyncGroup(SyncGroupResponse {
            protocol_type: r.protocol_type.clone(),
            protocol_name: r.protocol_name.clone(),
            assignment,
            ..Default::default()
        }))
    }

    /// Heartbeat of a consumer group's classic member (Kafka's
    /// `classicGroupHeartbeatToConsumerGroup`): REBALANCE_IN_PROGRESS asks it to rejoin.
    pub(crate) fn classic_heartbeat_consumer_group(
        &mut self,
        ctx: &RequestContext,
        r: &HeartbeatRequest,
        now: i64,
        out: &mut Output,
    ) {
        let code = self
            .try_classic_heartbeat(r, now)
            .err()
            .unwrap_or(ErrorCode::None);
        out.reply(
            ctx.token,
            ResponseBody::Heartbeat(HeartbeatResponse {
                error_code: code.code(),
                ..Default::default()
            }),
        );
    }

    fn try_classic_heartbeat(&mut self, r: &HeartbeatRequest, now: i64) -> Result<(), ErrorCode> {
        let group = r.group_id.as_str();
        let (member, rec) = self.classic_member_at(
            group,
            &r.member_id,
            r.group_instance_id.as_deref(),
            r.generation_id,
        )?;
        let g = &self.consumer_groups.groups[group];
        let rejoin = rec.member_epoch < g.group_epoch()
            || rec.state == MemberState::UnrevokedPartitions
            || (rec.state == MemberState::UnreleasedPartitions
                && !self.waits_on_unreleased(group, &member));
        self.touch_member(group, &member, now);
        if rejoin {
            self.await_rejoin(group, &member, now);
            return Err(ErrorCode::RebalanceInProgress);
        }
        Ok(())
    }

    /// True when some partition of the member's target is still held by another member.
    fn waits_on_unreleased(&self, group: &str, member: &str) -> bool {
        let g = &self.consumer_groups.groups[group];
        let rec = g.reconciled(member);
        let held = g.held_by_others(member);
        g.target_of(member).iter().any(|(t, ps)| {
            ps.iter().any(|p| {
                !rec.assigned.get(t).is_some_and(|a| a.contains(p)) && held.contains(&(*t, *p))
            })
        })
    }

    /// LeaveGroup to a consumer group (Kafka's `classicGroupLeaveToConsumerGroup`): each
    /// classic member named leaves; the group epoch moves on once for all of them.
    pub(crate) fn classic_leave_consumer_group(
        &mut self,
        ctx: &RequestContext,
        r: &LeaveGroupRequest,
        out: &mut Output,
    ) {
        let group = r.group_id.as_str();
        let identities = leave_identities(ctx.version, r);
        let mut members = Vec::new();
        let mut removed = false;
        for (member_id, instance) in identities {
            // An admin removes a static member by instance id alone.
            let lookup = match (&instance, member_id.is_empty()) {
                (Some(i), true) => self
                    .consumer_group(group)
                    .and_then(|g| g.static_member(i))
                    .map(str::to_string)
                    .unwrap_or_default(),
                _ => member_id.clone(),
            };
            let found = self.classic_member(group, &lookup, instance.as_deref());
            let code = match found {
                Ok(id) => {
                    self.remove_member_records(group, &id, out);
                    removed = true;
                    ErrorCode::None
                }
                Err(code) => code,
            };
            members.push(MemberResponse {
                member_id: if lookup.is_empty() { member_id } else { lookup },
                group_instance_id: instance,
                error_code: code.code(),
                ..Default::default()
            });
        }
        if removed {
            let topics = self.topics.clone();
            self.refresh_subscription(group, topics.as_ref(), true, out);
            self.bump_group_epoch(group, out);
        }
        out.reply(
            ctx.token,
            ResponseBody::LeaveGroup(leave_response(ctx.version, members)),
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn payload_versions_are_read_as_kafka_reads_them() {
        assert_eq!(payload_version(&[0, 1, 9]), 1);
        assert_eq!(payload_version(&[0, 9]), CONSUMER_PROTOCOL_VERSION);
        assert_eq!(payload_version(&[0xff, 0xff]), 0);
        assert_eq!(payload_version(&[]), 0);
    }

    #[test]
    fn unknown_topics_are_dropped_from_assignments() {
        let p: Partitions = [(7u128, [0, 1].into_iter().collect())]
            .into_iter()
            .collect();
        let bytes = assignment_bytes(&crate::consumer::NoTopics, &p, 1);
        assert!(decode_assignment(&bytes)
            .unwrap()
            .assigned_partitions
            .is_empty());
    }
}
