//! Committed offsets: OffsetCommit (a member's in its generation, or an admin's for an empty
//! or new group), OffsetFetch, OffsetDelete, and their removal as Kafka does it: offsets of
//! deleted topics, and offsets past `offsets.retention.minutes` (counted from when an empty
//! group became empty, or from the commit for topics a consumer group no longer subscribes
//! to), after which an empty group without offsets is deleted.

use crate::group::{Committed, Group, GroupState};
use crate::records::GroupRecord;
use crate::shard::{Output, RequestContext, Shard};
use fjord_protocol::generated::{
    offset_commit_request::OffsetCommitRequest,
    offset_commit_response::{
        OffsetCommitResponse, OffsetCommitResponsePartition, OffsetCommitResponseTopic,
    },
    offset_delete_request::OffsetDeleteRequest,
    offset_delete_response::{
        OffsetDeleteResponse, OffsetDeleteResponsePartition, OffsetDeleteResponseTopic,
    },
};
use fjord_protocol::{ErrorCode, ResponseBody};
use std::collections::BTreeSet;

/// One topic's partitions and their committed offsets (None: nothing committed).
pub type TopicOffsets = (String, Vec<(i32, Option<Committed>)>);

/// The partitions a fetch asks for: None for every committed one.
pub type FetchTopics<'a> = Option<&'a [(String, Vec<i32>)]>;

fn tombstone(group: &str, topic: &str, partition: i32) -> GroupRecord {
    GroupRecord::Offset {
        group: group.to_string(),
        topic: topic.to_string(),
        partition,
        value: None,
    }
}

/// One partition's offset as a commit request gives it.
pub(crate) struct OffsetCommit<'a> {
    pub(crate) group: &'a str,
    pub(crate) topic: &'a str,
    pub(crate) partition: i32,
    pub(crate) offset: i64,
    pub(crate) leader_epoch: i32,
    pub(crate) metadata: Option<&'a str>,
    pub(crate) expire_timestamp: Option<i64>,
}

impl Shard {
    /// Why a commit is refused for the whole request, if it is. A generation below zero with
    /// no member id is an admin commit: allowed for an empty or new group.
    fn check_commit(&self, r: &OffsetCommitRequest) -> Result<(), ErrorCode> {
        self.check_member_commit(
            &r.group_id,
            &r.member_id,
            r.group_instance_id.as_deref(),
            r.generation_id_or_member_epoch,
            false,
        )
    }

    /// The member checks of a commit (OffsetCommit, TxnOffsetCommit), as Kafka's
    /// `validateOffsetCommit`. A `transactional` commit that names no member, generation or
    /// instance is accepted in a live group too: older transactional clients (and kafkajs)
    /// send none.
    pub(crate) fn check_member_commit(
        &self,
        group: &str,
        member: &str,
        instance: Option<&str>,
        generation: i32,
        transactional: bool,
    ) -> Result<(), ErrorCode> {
        let anonymous = generation < 0 && member.is_empty() && instance.is_none();
        if transactional
            && anonymous
            && (self.consumer_group(group).is_some() || self.streams_group(group).is_some())
        {
            return Ok(());
        }
        if let Some(verdict) = self.check_consumer_member(group, member, generation) {
            return verdict;
        }
        if let Some(verdict) = self.check_streams_commit(group, member, generation) {
            return verdict;
        }
        let Some(g) = self.groups.get(group) else {
            return if generation < 0 {
                Ok(())
            } else {
                Err(ErrorCode::IllegalGeneration)
            };
        };
        if g.state == GroupState::Dead {
            return Err(ErrorCode::CoordinatorNotAvailable);
        }
        if generation < 0 && member.is_empty() && g.state == GroupState::Empty {
            return Ok(());
        }
        if !(transactional && anonymous) {
            self.check_member(group, member, instance, generation)?;
        }
        if g.state == GroupState::CompletingRebalance {
            return Err(ErrorCode::RebalanceInProgress);
        }
        Ok(())
    }

    /// One partition of an offset commit (OffsetCommit or TxnOffsetCommit): `refused` (the
    /// request's own refusal), an unknown partition (UNKNOWN_TOPIC_OR_PARTITION) or metadata
    /// over `offset.metadata.max.bytes` (OFFSET_METADATA_TOO_LARGE) refuse it; otherwise its
    /// record goes to `out` and the offset to keep is returned.
    pub(crate) fn write_offset(
        &self,
        out: &mut Output,
        refused: Option<ErrorCode>,
        unknown: &dyn Fn(&str, i32) -> bool,
        o: OffsetCommit<'_>,
        now: i64,
    ) -> Result<Committed, ErrorCode> {
        let metadata = o.metadata.unwrap_or_default().to_string();
        if let Some(code) = refused {
            return Err(code);
        }
        if unknown(o.topic, o.partition) {
            return Err(ErrorCode::UnknownTopicOrPartition);
        }
        if metadata.len() > self.config.offset_metadata_max_bytes {
            return Err(ErrorCode::OffsetMetadataTooLarge);
        }
        let committed = Committed {
            offset: o.offset,
            leader_epoch: o.leader_epoch,
            metadata,
            commit_timestamp: now,
            expire_timestamp: o.expire_timestamp,
        };
        out.records.push(GroupRecord::Offset {
            group: o.group.to_string(),
            topic: o.topic.to_string(),
            partition: o.partition,
            value: Some(committed.value()),
        });
        Ok(committed)
    }

    /// OffsetCommit. `unknown(topic, partition)` says which partitions do not exist (they get
    /// UNKNOWN_TOPIC_OR_PARTITION); metadata over `offset.metadata.max.bytes` gets
    /// OFFSET_METADATA_TOO_LARGE; the rest are written, and answered once written.
    pub fn commit_offsets(
        &mut self,
        ctx: &RequestContext,
        r: &OffsetCommitRequest,
        unknown: &dyn Fn(&str, i32) -> bool,
        now: i64,
    ) -> Output {
        let mut out = Output::default();
        let refused = match self.check_commit(r) {
            Err(code) => Some(code),
            Ok(()) if !self.groups.contains_key(&r.group_id) && !self.has_room() => {
                Some(ErrorCode::CoordinatorNotAvailable)
            }
            Ok(()) => None,
        };
        if refused.is_none() {
            let g = self
                .groups
                .entry(r.group_id.clone())
                .or_insert_with(|| Group::new(&r.group_id, now));
            if let Some(m) = g.members.get(&r.member_id) {
                let timeout = m.session_timeout_ms as i64;
                self.timers.schedule(
                    crate::timers::TimerKey::Session {
                        group: r.group_id.clone(),
                        member: r.member_id.clone(),
                    },
                    now + timeout,
                );
            }
        }
        let mut response = OffsetCommitResponse::default();
        for t in &r.topics {
            let mut topic = OffsetCommitResponseTopic {
                name: t.name.clone(),
                topic_id: t.topic_id,
                ..Default::default()
            };
            for p in &t.partitions {
                let offset = OffsetCommit {
                    group: &r.group_id,
                    topic: &t.name,
                    partition: p.partition_index,
                    offset: p.committed_offset,
                    leader_epoch: p.committed_leader_epoch,
                    metadata: p.committed_metadata.as_deref(),
                    expire_timestamp: (r.retention_time_ms >= 0).then(|| now + r.retention_time_ms),
                };
                let refused = refused.or_else(|| {
                    self.streams_commit_partition(
                        &r.group_id,
                        &r.member_id,
                        r.generation_id_or_member_epoch,
                        &t.name,
                        p.partition_index,
                    )
                });
                let code = match self.write_offset(&mut out, refused, unknown, offset, now) {
                    Err(code) => code,
                    Ok(committed) => {
                        if let Some(g) = self.groups.get_mut(&r.group_id) {
                            g.offsets
                                .insert((t.name.clone(), p.partition_index), committed);
                        }
                        ErrorCode::None
                    }
                };
                topic.partitions.push(OffsetCommitResponsePartition {
                    partition_index: p.partition_index,
                    error_code: code.code(),
                    ..Default::default()
                });
            }
            response.topics.push(topic);
        }
        out.reply(ctx.token, ResponseBody::OffsetCommit(response));
        out
    }

    /// The committed offsets of `group`: of the partitions asked for, or every committed one.
    pub fn fetch_offsets(&self, group: &str, topics: FetchTopics<'_>) -> Vec<TopicOffsets> {
        let g = self
            .groups
            .get(group)
            .filter(|g| g.state != GroupState::Dead);
        match topics {
            Some(topics) => topics
                .iter()
                .map(|(topic, partitions)| {
                    let found = partitions
                        .iter()
                        .map(|p| {
                            let c = g.and_then(|g| g.offsets.get(&(topic.clone(), *p)).cloned());
                            (*p, c)
                        })
                        .collect();
                    (topic.clone(), found)
                })
                .collect(),
            None => {
                let mut all: Vec<TopicOffsets> = Vec::new();
                for ((topic, p), c) in g.iter().flat_map(|g| g.offsets.iter()) {
                    match all.last_mut() {
                        Some((t, v)) if t == topic => v.push((*p, Some(c.clone()))),
                        _ => all.push((topic.clone(), vec![(*p, Some(c.clone()))])),
                    }
                }
                all
            }
        }
    }

    /// The topics a consumer group's members subscribe to (by name or by a regular expression
    /// resolved), or a streams group's with members reads (its topology's source and
    /// repartition source topics), as Kafka's `isSubscribedToTopic`; none for other groups.
    fn modern_subscriptions(&self, id: &str) -> BTreeSet<String> {
        let mut out = BTreeSet::new();
        if let Some(g) = self.consumer_groups.groups.get(id) {
            let regexes = self.consumer_runtime.get(id).map(|r| &r.regexes);
            for m in g.members.values() {
                out.extend(m.subscribed_topic_names.iter().cloned());
                let matched = m
                    .subscribed_topic_regex
                    .as_ref()
                    .and_then(|r| regexes.and_then(|x| x.get(r)));
                out.extend(matched.into_iter().flatten().cloned());
            }
        }
        if let Some(g) = self.streams_groups.groups.get(id) {
            if !g.members.is_empty() {
                for s in g.topology.iter().flat_map(|t| &t.subtopologies) {
                    out.extend(s.source_topics.iter().cloned());
                    out.extend(s.repartition_source_topics.iter().map(|t| t.name.clone()));
                }
            }
        }
        out
    }

    /// OffsetDelete: GROUP_ID_NOT_FOUND for an unknown group; NON_EMPTY_GROUP for a group with
    /// members that is not a `consumer` group; GROUP_SUBSCRIBED_TO_TOPIC for a partition of a
    /// topic the members subscribe to; the others' offsets are removed.
    pub fn delete_offsets(&mut self, ctx: &RequestContext, r: &OffsetDeleteRequest) -> Output {
        let mut out = Output::default();
        let mut response = OffsetDeleteResponse::default();
        let g = self
            .groups
            .get_mut(&r.group_id)
            .filter(|g| g.state != GroupState::Dead);
        let Some(g) = g else {
            response.error_code = ErrorCode::GroupIdNotFound.code();
            out.reply(ctx.token, ResponseBody::OffsetDelete(response));
            return out;
        };
        let subscribed: BTreeSet<String> = if g.state == GroupState::Empty {
            BTreeSet::new()
        } else {
            match g.subscribed_topics() {
                Some(t) => t,
                None => {
                    response.error_code = ErrorCode::NonEmptyGroup.code();
                    out.reply(ctx.token, ResponseBody::OffsetDelete(response));
                    return out;
                }
            }
        };
        // A consumer or streams group's members subscribe through their records.
        let subscribed: BTreeSet<String> = subscribed
            .into_iter()
            .chain(self.modern_subscriptions(&r.group_id))
            .collect();
        let Some(g) = self.groups.get_mut(&r.group_id) else {
            return out;
        };
        for t in &r.topics {
            let mut topic = OffsetDeleteResponseTopic {
                name: t.name.clone(),
                ..Default::default()
            };
            for p in &t.partitions {
                let code = if subscribed.contains(&t.name) {
                    ErrorCode::GroupSubscribedToTopic
                } else {
                    if g.offsets
                        .remove(&(t.name.clone(), p.partition_index))
                        .is_some()
                    {
                        out.records
                            .push(tombstone(&g.id, &t.name, p.partition_index));
                    }
                    ErrorCode::None
                };
                topic.partitions.push(OffsetDeleteResponsePartition {
                    partition_index: p.partition_index,
                    error_code: code.code(),
                });
            }
            response.topics.push(topic);
        }
        out.reply(ctx.token, ResponseBody::OffsetDelete(response));
        out
    }

    /// Removes every group's offsets of the deleted `topics`.
    pub fn topics_deleted(&mut self, topics: &BTreeSet<String>) -> Output {
        let mut out = Output::default();
        for g in self.groups.values_mut() {
            let gone: Vec<(String, i32)> = g
                .offsets
                .keys()
                .filter(|(t, _)| topics.contains(t))
                .cloned()
                .collect();
            for (t, p) in gone {
                g.offsets.remove(&(t.clone(), p));
                out.records.push(tombstone(&g.id, &t, p));
            }
        }
        out
    }

    /// The offsets-expiration pass (Kafka's `cleanupGroupMetadata`).
    pub(crate) fn expire_offsets(&mut self, now: i64, out: &mut Output) {
        let retention = self.config.offsets_retention_ms;
        let mut emptied = Vec::new();
        let consumer = &self.consumer_groups.groups;
        for g in self.groups.values_mut() {
            if consumer.get(&g.id).is_some_and(|c| !c.members.is_empty()) {
                // A consumer group with members keeps its offsets.
                continue;
            }
            let expired: Vec<(String, i32)> = match g.state {
                GroupState::Empty => g
                    .offsets
                    .iter()
                    .filter(|(_, c)| match c.expire_timestamp {
                        Some(at) => at <= now,
                        None => c.commit_timestamp.max(g.state_since_ms) + retention <= now,
                    })
                    .map(|(k, _)| k.clone())
                    .collect(),
                GroupState::Stable => match g.subscribed_topics() {
                    Some(subscribed) => g
                        .offsets
                        .iter()
                        .filter(|((t, _), c)| {
                            !subscribed.contains(t) && c.commit_timestamp + retention <= now
                        })
                        .map(|(k, _)| k.clone())
                        .collect(),
                    None => Vec::new(),
                },
                _ => Vec::new(),
            };
            for (t, p) in expired {
                g.offsets.remove(&(t.clone(), p));
                out.records.push(tombstone(&g.id, &t, p));
            }
            if g.state == GroupState::Empty && g.offsets.is_empty() && g.pending_members.is_empty()
            {
                emptied.push(g.id.clone());
            }
        }
        for id in emptied {
            if self.consumer_groups.groups.contains_key(&id) {
                // An empty consumer group whose offsets all expired goes too.
                self.drop_empty_consumer_group(&id, out);
                self.groups.remove(&id);
                continue;
            }
            // A group that was never persisted (no generation) needs no tombstone.
            if let Some(g) = self.groups.remove(&id) {
                if g.generation > 0 {
                    out.records.push(GroupRecord::Group {
                        group: id,
                        value: None,
                    });
                }
            }
        }
    }
}
