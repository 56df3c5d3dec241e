//! One `__consumer_offsets` partition's coordinator: its groups, their deadlines, and the
//! output contract. Every call returns an [`Output`]: the records to append and the replies
//! that may go out once those records are committed (at once when there are none). The state
//! already reflects the records; if the driver cannot commit them it must drop the shard and
//! load it again from the log, answering the replies with an error.

use crate::config::{GroupConfig, MAX_GROUPS_PER_SHARD};
use crate::consumer::{NoTopics, TopicSource};
use crate::group::{Committed, Group};
use crate::records::GroupRecord;
use crate::timers::{TimerKey, Timers};
use fjord_protocol::ResponseBody;
use std::collections::HashMap;
use std::sync::Arc;

/// Identifies a request whose reply may come later (a JoinGroup waiting for the join phase).
pub type Token = u64;

/// A request waiting for its reply: its token and API version.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Waiter {
    /// The request's token.
    pub token: Token,
    /// Its API version (the reply is shaped for it).
    pub version: i16,
}

/// Who sent a request and how.
#[derive(Debug, Clone)]
pub struct RequestContext {
    /// The request's token (its reply carries it).
    pub token: Token,
    /// The request's API version.
    pub version: i16,
    /// The client id from the request header.
    pub client_id: String,
    /// The client's host as Kafka shows it (`/127.0.0.1`).
    pub client_host: String,
}

impl RequestContext {
    /// The request as a waiter.
    pub fn waiter(&self) -> Waiter {
        Waiter {
            token: self.token,
            version: self.version,
        }
    }
}

/// What a call produced.
#[derive(Debug, Default)]
pub struct Output {
    /// Records to append to the shard's partition.
    pub records: Vec<GroupRecord>,
    /// Replies to send once `records` are committed.
    pub replies: Vec<(Token, ResponseBody)>,
    /// The transactional producer (id, epoch) whose batch holds `records`, if any.
    pub producer: Option<(i64, i16)>,
    /// Share-partition state work to start once `records` are committed.
    pub share_jobs: Vec<crate::share::ShareJob>,
    /// Streams groups' internal topics for the driver to create (KIP-1071).
    pub streams_topics: Vec<crate::streams::topology::TopicToCreate>,
}

impl Output {
    /// Adds a reply.
    pub fn reply(&mut self, token: Token, body: ResponseBody) {
        self.replies.push((token, body));
    }

    /// Appends another output (of the same producer).
    pub fn extend(&mut self, other: Output) {
        self.records.extend(other.records);
        self.replies.extend(other.replies);
        self.share_jobs.extend(other.share_jobs);
        self.streams_topics.extend(other.streams_topics);
    }
}

/// One partition's coordinator.
pub struct Shard {
    pub(crate) config: GroupConfig,
    pub(crate) groups: HashMap<String, Group>,
    pub(crate) timers: Timers,
    /// Offsets committed in open transactions, by producer id.
    pub(crate) pending: HashMap<i64, Vec<crate::txn_offsets::PendingOffset>>,
    /// Join phases completed with members since the shard was loaded (Kafka's
    /// `group-completed-rebalance-count`).
    pub(crate) completed_rebalances: u64,
    /// The consumer-protocol groups' records, folded (KIP-848).
    pub(crate) consumer_groups: crate::consumer_records::ConsumerGroups,
    /// What each consumer group keeps beside its records (resolved regular expressions).
    pub(crate) consumer_runtime: HashMap<String, crate::consumer::Runtime>,
    /// Consumer-group epoch bumps since the shard was loaded.
    pub(crate) consumer_rebalances: u64,
    /// The share groups' records, folded (KIP-932).
    pub(crate) share_groups: crate::share_records::ShareGroups,
    /// The streams groups (KIP-1071): the fold of their records.
    pub(crate) streams_groups: crate::streams::records::StreamsGroups,
    /// What each streams group keeps beside its records.
    pub(crate) streams_runtime: HashMap<String, crate::streams::coordinator::StreamsRuntime>,
    /// Streams-group epoch bumps since the shard was loaded.
    pub(crate) streams_rebalances: u64,
    /// What each share group keeps beside its records.
    pub(crate) share_runtime: crate::share::ShareRuntime,
    /// The topics as the last request saw them (used by deadlines).
    pub(crate) topics: Arc<dyn TopicSource + Send + Sync>,
    rng: u64,
}

impl std::fmt::Debug for Shard {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Shard")
            .field("groups", &self.groups.len())
            .field("consumer_groups", &self.consumer_groups.groups.len())
            .field("timers", &self.timers.len())
            .finish()
    }
}

/// What a shard's groups amount to, for the group coordinator's metrics.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ShardStats {
    /// Classic groups by state.
    pub by_state: std::collections::BTreeMap<&'static str, usize>,
    /// Committed offsets kept.
    pub offsets: usize,
    /// Join phases completed with members since the shard was loaded.
    pub completed_rebalances: u64,
    /// Consumer-protocol groups by state.
    pub consumer_by_state: std::collections::BTreeMap<&'static str, usize>,
    /// Consumer-group epoch bumps since the shard was loaded.
    pub consumer_rebalances: u64,
    /// Share groups by state.
    pub share_by_state: std::collections::BTreeMap<&'static str, usize>,
    /// Share-group target assignments computed since the shard was loaded.
    pub share_rebalances: u64,
    /// Streams groups by state.
    pub streams_by_state: std::collections::BTreeMap<&'static str, usize>,
    /// Streams-group epoch bumps since the shard was loaded.
    pub streams_rebalances: u64,
}

impl Shard {
    /// An empty shard; `seed` makes its member ids.
    pub fn new(config: GroupConfig, seed: u64) -> Shard {
        Shard {
            config,
            groups: HashMap::new(),
            pending: HashMap::new(),
            timers: Timers::default(),
            completed_rebalances: 0,
            consumer_groups: Default::default(),
            consumer_runtime: HashMap::new(),
            consumer_rebalances: 0,
            share_groups: Default::default(),
            streams_groups: Default::default(),
            streams_runtime: Default::default(),
            streams_rebalances: 0,
            share_runtime: Default::default(),
            topics: Arc::new(NoTopics),
            rng: seed,
        }
    }

    /// Its groups by state, its offsets and its completed rebalances.
    pub fn stats(&self) -> ShardStats {
        let mut by_state = std::collections::BTreeMap::new();
        let mut offsets = 0;
        for g in self.groups.values() {
            if self.consumer_groups.groups.contains_key(&g.id)
                || self.streams_groups.groups.contains_key(&g.id)
            {
                // A consumer or streams group's offsets holder.
                offsets += g.offsets.len();
                continue;
            }
            *by_state.entry(g.state.name()).or_insert(0) += 1;
            offsets += g.offsets.len();
        }
        let mut consumer_by_state = std::collections::BTreeMap::new();
        for g in self.consumer_groups.groups.values() {
            *consumer_by_state.entry(g.state_name()).or_insert(0) += 1;
        }
        let mut share_by_state = std::collections::BTreeMap::new();
        for g in self.share_groups.groups.values() {
            *share_by_state.entry(g.state_name()).or_insert(0) += 1;
        }
        let streams_by_state = self.streams_by_state();
        ShardStats {
            by_state,
            offsets,
            completed_rebalances: self.completed_rebalances,
            consumer_by_state,
            consumer_rebalances: self.consumer_rebalances,
            share_by_state,
            share_rebalances: self.share_runtime.rebalances,
            streams_by_state,
            streams_rebalances: self.streams_rebalances,
        }
    }

    /// Its settings.
    pub fn config(&self) -> &GroupConfig {
        &self.config
    }

    /// A group by id.
    pub fn group(&self, id: &str) -> Option<&Group> {
        self.groups.get(id)
    }

    /// The ids of its groups.
    pub fn group_ids(&self) -> Vec<String> {
        let mut ids: Vec<String> = self.groups.keys().cloned().collect();
        ids.sort();
        ids
    }

    /// Folds one record read from the log into the state.
    pub fn replay(&mut self, record: GroupRecord, now: i64) {
        match record {
            GroupRecord::Offset {
                group,
                topic,
                partition,
                value,
            } => match value {
                Some(v) => {
                    self.groups
                        .entry(group.clone())
                        .or_insert_with(|| Group::new(&group, now))
                        .offsets
                        .insert((topic, partition), Committed::from_value(&v));
                }
                None => {
                    if let Some(g) = self.groups.get_mut(&group) {
                        g.offsets.remove(&(topic, partition));
                    }
                }
            },
            GroupRecord::Group { group, value } => match value {
                Some(v) => self
                    .groups
                    .entry(group.clone())
                    .or_insert_with(|| Group::new(&group, now))
                    .load(&v, now),
                None => {
                    // The classic group's metadata is gone; its offsets are their own records
                    // (a group that became a consumer group keeps them).
                    if let Some(old) = self.groups.remove(&group) {
                        if !old.offsets.is_empty() {
                            let mut fresh = Group::new(&group, now);
                            fresh.offsets = old.offsets;
                            self.groups.insert(group, fresh);
                        }
                    }
                }
            },
            GroupRecord::Consumer(r) => self.consumer_groups.replay(r),
            GroupRecord::Share(r) => self.share_groups.replay(r),
            GroupRecord::Streams(r) => self.streams_groups.replay(r),
        }
    }

    /// Takes the topics as the metadata image shows them now (the driver calls it before
    /// each request; deadlines use the last ones seen).
    pub fn see_topics(&mut self, topics: Arc<dyn TopicSource + Send + Sync>) {
        self.topics = topics;
    }

    /// The consumer-protocol groups its records hold.
    pub fn consumer_groups(&self) -> &crate::consumer_records::ConsumerGroups {
        &self.consumer_groups
    }

    /// Ends loading: every loaded member's session starts now, and the offsets-expiration
    /// pass is scheduled.
    pub fn loaded(&mut self, now: i64) {
        let mut sessions = Vec::new();
        for g in self.groups.values() {
            for m in g.members.values() {
                sessions.push((g.id.clone(), m.id.clone(), m.session_timeout_ms));
            }
        }
        for (group, member, timeout) in sessions {
            self.timers
                .schedule(TimerKey::Session { group, member }, now + timeout as i64);
        }
        let mut consumer = Vec::new();
        for (id, g) in &self.consumer_groups.groups {
            for (member, m) in &g.members {
                let revoking = g.reconciled(member).state
                    == crate::reconcile::MemberState::UnrevokedPartitions;
                let session =
                    crate::migration::session_timeout_ms(self.consumer_session_ms(id), m) as i64;
                consumer.push((
                    id.clone(),
                    member.clone(),
                    revoking,
                    m.rebalance_timeout_ms,
                    session,
                ));
            }
        }
        for (group, member, revoking, rebalance_timeout, session) in consumer {
            if revoking {
                self.timers.schedule(
                    TimerKey::ConsumerRevocation {
                        group: group.clone(),
                        member: member.clone(),
                    },
                    now + rebalance_timeout.max(0) as i64,
                );
            }
            self.timers
                .schedule(TimerKey::ConsumerSession { group, member }, now + session);
        }
        self.share_loaded(now);
        self.timers.schedule(
            TimerKey::ExpireOffsets,
            now + self.config.offsets_retention_check_interval_ms,
        );
    }

    /// The earliest deadline; call [`Shard::tick`] then.
    pub fn next_deadline(&self) -> Option<i64> {
        self.timers.next()
    }

    /// Runs every deadline at or before `now`.
    pub fn tick(&mut self, now: i64) -> Output {
        let mut out = Output::default();
        while let Some(key) = self.timers.pop_expired(now) {
            match key {
                TimerKey::Session { group, member } => {
                    self.session_expired(&group, &member, now, &mut out)
                }
                TimerKey::Pending { group, member } => {
                    self.pending_expired(&group, &member, now, &mut out)
                }
                TimerKey::ConsumerSession { group, member } => {
                    self.consumer_session_expired(&group, &member, now, &mut out)
                }
                TimerKey::ConsumerRevocation { group, member } => {
                    self.consumer_revocation_expired(&group, &member, now, &mut out)
                }
                TimerKey::ConsumerJoin { group, member }
                | TimerKey::ConsumerSync { group, member } => {
                    self.consumer_session_expired(&group, &member, now, &mut out)
                }
                TimerKey::ShareSession { group, member } => {
                    self.share_session_expired(&group, &member, &mut out)
                }
                TimerKey::StreamsSession { group, member }
                | TimerKey::StreamsRevocation { group, member } => {
                    self.streams_deadline(&group, &member, &mut out)
                }
                TimerKey::Join(group) => self.join_phase_ended(&group, now, &mut out),
                TimerKey::Sync(group) => self.sync_phase_ended(&group, now, &mut out),
                TimerKey::ExpireOffsets => {
                    self.expire_offsets(now, &mut out);
                    self.timers.schedule(
                        TimerKey::ExpireOffsets,
                        now + self.config.offsets_retention_check_interval_ms,
                    );
                }
            }
        }
        out
    }

    /// True when one more group may be created.
    pub(crate) fn has_room(&self) -> bool {
        self.groups.len() < MAX_GROUPS_PER_SHARD
    }

    /// A new member id: `<prefix>-<uuid>` as Kafka makes them (a random, version-4 UUID).
    pub(crate) fn member_id(&mut self, prefix: &str) -> String {
        let hi = self.next_random();
        let lo = self.next_random();
        let hi = (hi & !0xf000) | 0x4000;
        let lo = (lo & !(0xc << 60)) | (0x8 << 60);
        format!(
            "{prefix}-{:08x}-{:04x}-{:04x}-{:04x}-{:012x}",
            hi >> 32,
            (hi >> 16) & 0xffff,
            hi & 0xffff,
            lo >> 48,
            lo & 0xffff_ffff_ffff
        )
    }

    /// splitmix64.
    pub(crate) fn next_random(&mut self) -> u64 {
        self.rng = self.rng.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.rng;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn member_ids_look_like_kafkas() {
        let mut s = Shard::new(GroupConfig::default(), 7);
        let id = s.member_id("rdkafka");
        let uuid = id.strip_prefix("rdkafka-").unwrap();
        let parts: Vec<&str> = uuid.split('-').collect();
        assert_eq!(
            parts.iter().map(|p| p.len()).collect::<Vec<_>>(),
            vec![8, 4, 4, 4, 12]
        );
        assert!(parts[2].starts_with('4'));
        assert_ne!(s.member_id("rdkafka"), id);
    }
}
