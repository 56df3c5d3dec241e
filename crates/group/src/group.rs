//! A classic group's state: its members and their protocols, the generation, the leader, the
//! chosen protocol, its committed offsets, and the rebalance state machine's current state
//! (Empty, PreparingRebalance, CompletingRebalance, Stable, Dead), as Kafka's `ClassicGroup`.

use crate::shard::Waiter;
use crate::timers::{TimerKey, Timers};
use bytes::Bytes;
use fjord_protocol::generated::group_metadata_value::{GroupMetadataValue, MemberMetadata};
use fjord_protocol::generated::offset_commit_value::OffsetCommitValue;
use std::collections::{BTreeMap, BTreeSet, HashMap};

/// A group's state.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum GroupState {
    /// No members (offsets may be kept).
    Empty,
    /// Waiting for the members to (re)join.
    PreparingRebalance,
    /// Joined: waiting for the leader's assignment.
    CompletingRebalance,
    /// Every member has its assignment.
    Stable,
    /// Being removed.
    Dead,
}

impl GroupState {
    /// Kafka's name for it (DescribeGroups, ListGroups).
    pub fn name(self) -> &'static str {
        match self {
            GroupState::Empty => "Empty",
            GroupState::PreparingRebalance => "PreparingRebalance",
            GroupState::CompletingRebalance => "CompletingRebalance",
            GroupState::Stable => "Stable",
            GroupState::Dead => "Dead",
        }
    }
}

/// One member.
#[derive(Debug, Clone)]
pub struct Member {
    /// Its id (`<client.id>-<uuid>`, or `<group.instance.id>-<uuid>` for a static member).
    pub id: String,
    /// Its `group.instance.id` (static membership).
    pub instance_id: Option<String>,
    /// Its client id.
    pub client_id: String,
    /// Its host as Kafka shows it (`/127.0.0.1`).
    pub client_host: String,
    /// Its rebalance timeout.
    pub rebalance_timeout_ms: i32,
    /// Its session timeout.
    pub session_timeout_ms: i32,
    /// The protocols it supports, in its order of preference, with their metadata.
    pub protocols: Vec<(String, Bytes)>,
    /// Its assignment in the current generation.
    pub assignment: Bytes,
    /// Its JoinGroup waiting for the join phase to end.
    pub awaiting_join: Option<Waiter>,
    /// Its SyncGroup waiting for the leader's assignment.
    pub awaiting_sync: Option<Waiter>,
    /// Joined during the current join phase (the initial delay is extended for new members).
    pub is_new: bool,
}

impl Member {
    /// Its metadata for `protocol`.
    pub fn metadata(&self, protocol: &str) -> Bytes {
        self.protocols
            .iter()
            .find(|(n, _)| n == protocol)
            .map(|(_, m)| m.clone())
            .unwrap_or_default()
    }

    /// True when it offers the same protocols with the same metadata.
    pub fn same_protocols(&self, protocols: &[(String, Bytes)]) -> bool {
        self.protocols == protocols
    }
}

/// A committed offset.
#[derive(Debug, Clone, PartialEq)]
pub struct Committed {
    /// The offset.
    pub offset: i64,
    /// The leader epoch of the last consumed record (-1: unknown).
    pub leader_epoch: i32,
    /// The client's metadata.
    pub metadata: String,
    /// When it was committed (ms).
    pub commit_timestamp: i64,
    /// When it expires, if the commit said (v2-4 retention time).
    pub expire_timestamp: Option<i64>,
}

impl Committed {
    /// Its record value.
    pub fn value(&self) -> OffsetCommitValue {
        OffsetCommitValue {
            offset: self.offset,
            leader_epoch: self.leader_epoch,
            metadata: self.metadata.clone(),
            commit_timestamp: self.commit_timestamp,
            expire_timestamp: self.expire_timestamp.unwrap_or(-1),
            ..Default::default()
        }
    }

    /// From a record value.
    pub fn from_value(v: &OffsetCommitValue) -> Committed {
        Committed {
            offset: v.offset,
            leader_epoch: v.leader_epoch,
            metadata: v.metadata.clone(),
            commit_timestamp: v.commit_timestamp,
            expire_timestamp: (v.expire_timestamp >= 0).then_some(v.expire_timestamp),
        }
    }
}

/// A classic group.
#[derive(Debug)]
pub struct Group {
    /// Its id.
    pub id: String,
    /// Its state.
    pub state: GroupState,
    /// When it entered its state (wall-clock ms; offsets of an empty group expire from it).
    pub state_since_ms: i64,
    /// The generation.
    pub generation: i32,
    /// Its protocol type (`consumer`, `connect`, ...), set by the first member.
    pub protocol_type: Option<String>,
    /// The protocol chosen for the generation.
    pub protocol: Option<String>,
    /// The leader's member id.
    pub leader: Option<String>,
    /// The members by id.
    pub members: BTreeMap<String, Member>,
    /// Static members' ids by instance id.
    pub static_members: HashMap<String, String>,
    /// Member ids handed out with MEMBER_ID_REQUIRED, not yet joined.
    pub pending_members: BTreeSet<String>,
    /// Members that must still send SyncGroup in this generation.
    pub pending_sync: BTreeSet<String>,
    /// During the initial delay: the rebalance time left to extend it by.
    pub initial_delay_remaining: Option<i32>,
    /// A member joined since the join phase (or its last delay extension) began.
    pub new_member_added: bool,
    /// Committed offsets by topic and partition.
    pub offsets: BTreeMap<(String, i32), Committed>,
}

impl Group {
    /// A new empty group.
    pub fn new(id: &str, now: i64) -> Group {
        Group {
            id: id.to_string(),
            state: GroupState::Empty,
            state_since_ms: now,
            generation: 0,
            protocol_type: None,
            protocol: None,
            leader: None,
            members: BTreeMap::new(),
            static_members: HashMap::new(),
            pending_members: BTreeSet::new(),
            pending_sync: BTreeSet::new(),
            initial_delay_remaining: None,
            new_member_added: false,
            offsets: BTreeMap::new(),
        }
    }

    /// Moves to `state`.
    pub fn transition(&mut self, state: GroupState, now: i64) {
        self.state = state;
        self.state_since_ms = now;
    }

    /// Drops the member ids this group handed out that nobody has used yet, with their
    /// deadlines (the group is converted to a consumer group).
    pub(crate) fn drop_pending_members(&mut self, timers: &mut Timers) {
        for member in std::mem::take(&mut self.pending_members) {
            timers.cancel(&TimerKey::Pending {
                group: self.id.clone(),
                member,
            });
        }
    }

    /// Members plus pending members.
    pub fn size(&self) -> usize {
        self.members.len() + self.pending_members.len()
    }

    /// The protocols every member supports, in the order the first member prefers them.
    fn candidates(&self) -> Vec<String> {
        let mut members = self.members.values();
        let Some(first) = members.next() else {
            return Vec::new();
        };
        let rest: Vec<&Member> = members.collect();
        first
            .protocols
            .iter()
            .map(|(n, _)| n.clone())
            .filter(|n| rest.iter().all(|m| m.protocols.iter().any(|(p, _)| p == n)))
            .collect()
    }

    /// True when a member offering `protocols` of `protocol_type` can join (Kafka's
    /// `supportsProtocols`).
    pub fn supports(&self, protocol_type: &str, protocols: &[(String, Bytes)]) -> bool {
        if self.members.is_empty() {
            return !protocol_type.is_empty() && !protocols.is_empty();
        }
        self.protocol_type.as_deref() == Some(protocol_type)
            && self
                .candidates()
                .iter()
                .any(|c| protocols.iter().any(|(p, _)| p == c))
    }

    /// The protocol the members vote for: each votes for the first candidate it prefers; the
    /// most votes wins, ties go to the candidate listed first.
    pub fn select_protocol(&self) -> Option<String> {
        let candidates = self.candidates();
        let mut votes: Vec<(String, usize)> = candidates.iter().map(|c| (c.clone(), 0)).collect();
        for m in self.members.values() {
            if let Some((name, _)) = m.protocols.iter().find(|(p, _)| candidates.contains(p)) {
                if let Some(v) = votes.iter_mut().find(|(c, _)| c == name) {
                    v.1 += 1;
                }
            }
        }
        let best = votes.iter().map(|(_, n)| *n).max()?;
        votes.into_iter().find(|(_, n)| *n == best).map(|(c, _)| c)
    }

    /// The longest rebalance timeout among the members.
    pub fn rebalance_timeout_ms(&self) -> i32 {
        self.members
            .values()
            .map(|m| m.rebalance_timeout_ms)
            .max()
            .unwrap_or(0)
    }

    /// True when every member has rejoined and no member id is pending.
    pub fn all_joined(&self) -> bool {
        self.pending_members.is_empty() && self.members.values().all(|m| m.awaiting_join.is_some())
    }

    /// Its metadata record value (members with their metadata for the chosen protocol).
    pub fn record_value(&self, now: i64) -> GroupMetadataValue {
        let protocol = self.protocol.clone();
        GroupMetadataValue {
            protocol_type: self.protocol_type.clone().unwrap_or_default(),
            generation: self.generation,
            protocol: protocol.clone(),
            leader: self.leader.clone(),
            current_state_timestamp: now,
            members: self
                .members
                .values()
                .map(|m| MemberMetadata {
                    member_id: m.id.clone(),
                    group_instance_id: m.instance_id.clone(),
                    client_id: m.client_id.clone(),
                    client_host: m.client_host.clone(),
                    rebalance_timeout: m.rebalance_timeout_ms,
                    session_timeout: m.session_timeout_ms,
                    subscription: protocol
                        .as_deref()
                        .map(|p| m.metadata(p))
                        .unwrap_or_default(),
                    assignment: m.assignment.clone(),
                    ..Default::default()
                })
                .collect(),
            ..Default::default()
        }
    }

    /// Takes the membership a metadata record holds (a group loaded from the log): Stable
    /// with its members, or Empty.
    pub fn load(&mut self, v: &GroupMetadataValue, now: i64) {
        self.generation = v.generation;
        self.protocol_type = (!v.protocol_type.is_empty()).then(|| v.protocol_type.clone());
        self.protocol = v.protocol.clone();
        self.leader = v.leader.clone();
        self.members.clear();
        self.static_members.clear();
        for m in &v.members {
            if let Some(i) = &m.group_instance_id {
                self.static_members.insert(i.clone(), m.member_id.clone());
            }
            let protocols = match &v.protocol {
                Some(p) => vec![(p.clone(), m.subscription.clone())],
                None => Vec::new(),
            };
            self.members.insert(
                m.member_id.clone(),
                Member {
                    id: m.member_id.clone(),
                    instance_id: m.group_instance_id.clone(),
                    client_id: m.client_id.clone(),
                    client_host: m.client_host.clone(),
                    rebalance_timeout_ms: m.rebalance_timeout,
                    session_timeout_ms: m.session_timeout,
                    protocols,
                    assignment: m.assignment.clone(),
                    awaiting_join: None,
                    awaiting_sync: None,
                    is_new: false,
                },
            );
        }
        let state = if self.members.is_empty() {
            GroupState::Empty
        } else {
            GroupState::Stable
        };
        let since = if v.current_state_timestamp >= 0 {
            v.current_state_timestamp
        } else {
            now
        };
        self.transition(state, since);
    }

    /// The topics a `consumer` group's members subscribe to (from their subscription
    /// metadata); None when the protocol type is not `consumer` or nothing can be read.
    pub fn subscribed_topics(&self) -> Option<BTreeSet<String>> {
        if self.protocol_type.as_deref() != Some("consumer") {
            return None;
        }
        let protocol = self.protocol.as_deref()?;
        let mut topics = BTreeSet::new();
        for m in self.members.values() {
            topics.extend(subscription_topics(&m.metadata(protocol))?);
        }
        Some(topics)
    }
}

/// The topics of a `ConsumerProtocolSubscription`.
fn subscription_topics(metadata: &Bytes) -> Option<Vec<String>> {
    fjord_protocol::consumer_protocol::decode_subscription(metadata)
        .ok()
        .map(|s| s.topics)
}
