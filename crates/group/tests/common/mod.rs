//! What the group tests share: topics as the image shows them, the consumer protocol's
//! payloads, and a shard driven by requests whose replies are kept by token (a classic
//! JoinGroup may be answered by a later call) and whose records are written to a log.

#![allow(dead_code)]

use bytes::Bytes;
use fjord_group::consumer::TopicSource;
use fjord_group::{GroupRecord, Output, RequestContext, Shard};
use fjord_protocol::consumer_protocol::{decode_assignment, encode_subscription};
use fjord_protocol::generated::{
    consumer_group_heartbeat_request::{ConsumerGroupHeartbeatRequest, TopicPartitions},
    consumer_protocol_subscription::{ConsumerProtocolSubscription, TopicPartition},
    heartbeat_request::HeartbeatRequest,
    join_group_request::{JoinGroupRequest, JoinGroupRequestProtocol},
    leave_group_request::{LeaveGroupRequest, MemberIdentity},
    offset_commit_request::{
        OffsetCommitRequest, OffsetCommitRequestPartition, OffsetCommitRequestTopic,
    },
    sync_group_request::{SyncGroupRequest, SyncGroupRequestAssignment},
};
use fjord_protocol::{ResponseBody, Uuid};
use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;

/// The group every test uses.
pub const GROUP: &str = "g";

/// Topics by name: id and partition count; and a stamp that changes with them.
#[derive(Debug, Clone, Default)]
pub struct Topics {
    /// By name.
    pub by_name: BTreeMap<String, (u128, i32)>,
    /// Changes whenever they do.
    pub stamp: u64,
    /// Group configs: (group, key) to an integer value.
    pub group_configs: BTreeMap<(String, String), i32>,
    /// Group configs: (group, key) to a text value.
    pub group_texts: BTreeMap<(String, String), String>,
}

impl TopicSource for Topics {
    fn topic(&self, name: &str) -> Option<(u128, i32)> {
        self.by_name.get(name).copied()
    }
    fn name(&self, id: u128) -> Option<String> {
        self.by_name
            .iter()
            .find(|(_, (i, _))| *i == id)
            .map(|(n, _)| n.clone())
    }
    fn names(&self) -> Vec<String> {
        self.by_name.keys().cloned().collect()
    }
    fn stamp(&self) -> u64 {
        self.stamp
    }
    fn group_int(&self, group: &str, key: &str) -> Option<i32> {
        self.group_configs
            .get(&(group.to_string(), key.to_string()))
            .copied()
    }
    fn group_text(&self, group: &str, key: &str) -> Option<String> {
        self.group_texts
            .get(&(group.to_string(), key.to_string()))
            .cloned()
    }
}

/// Partitions by topic id.
pub type Owned = BTreeMap<u128, BTreeSet<i32>>;

/// Every partition the owners hold, checking that none is held by two of them (`what`
/// names the moment in the panic).
pub fn held_once<'a>(
    owners: impl IntoIterator<Item = (&'a str, &'a Owned)>,
    what: &str,
) -> BTreeSet<(u128, i32)> {
    let mut owner: BTreeMap<(u128, i32), &str> = BTreeMap::new();
    for (who, owned) in owners {
        for (t, ps) in owned {
            for p in ps {
                if let Some(other) = owner.insert((*t, *p), who) {
                    panic!("{what}: partition {t}-{p} consumed by {other} and {who}");
                }
            }
        }
    }
    owner.into_keys().collect()
}

/// Partitions by topic name.
pub type Named = BTreeMap<String, BTreeSet<i32>>;

/// A consumer-protocol subscription (version 1: with owned partitions).
pub fn subscription(topics: &[String], owned: &Named) -> Bytes {
    let s = ConsumerProtocolSubscription {
        topics: topics.to_vec(),
        owned_partitions: owned
            .iter()
            .map(|(t, ps)| TopicPartition {
                topic: t.clone(),
                partitions: ps.iter().copied().collect(),
            })
            .collect(),
        ..Default::default()
    };
    encode_subscription(&s, 1).expect("a subscription")
}

/// The partitions a consumer-protocol assignment holds.
pub fn assignment(bytes: &[u8]) -> Named {
    if bytes.is_empty() {
        return Named::new();
    }
    decode_assignment(bytes)
        .expect("an assignment")
        .assigned_partitions
        .into_iter()
        .filter(|t| !t.partitions.is_empty())
        .map(|t| (t.topic, t.partitions.into_iter().collect()))
        .collect()
}

/// A classic JoinGroup (v9) for the consumer protocol's `cooperative-sticky`.
pub fn join_request(
    member: &str,
    instance: Option<&str>,
    topics: &[String],
    owned: &Named,
    session_ms: i32,
    rebalance_ms: i32,
) -> JoinGroupRequest {
    JoinGroupRequest {
        group_id: GROUP.into(),
        session_timeout_ms: session_ms,
        rebalance_timeout_ms: rebalance_ms,
        member_id: member.into(),
        group_instance_id: instance.map(str::to_string),
        protocol_type: "consumer".into(),
        protocols: vec![JoinGroupRequestProtocol {
            name: "cooperative-sticky".into(),
            metadata: subscription(topics, owned),
            ..Default::default()
        }],
        ..Default::default()
    }
}

/// A classic SyncGroup (v5), the leader's with assignments.
pub fn sync_request(
    member: &str,
    instance: Option<&str>,
    generation: i32,
    assignments: Vec<(String, Bytes)>,
) -> SyncGroupRequest {
    SyncGroupRequest {
        group_id: GROUP.into(),
        generation_id: generation,
        member_id: member.into(),
        group_instance_id: instance.map(str::to_string),
        protocol_type: Some("consumer".into()),
        protocol_name: Some("cooperative-sticky".into()),
        assignments: assignments
            .into_iter()
            .map(|(member_id, assignment)| SyncGroupRequestAssignment {
                member_id,
                assignment,
                ..Default::default()
            })
            .collect(),
        ..Default::default()
    }
}

/// A classic Heartbeat.
pub fn heartbeat_request(
    member: &str,
    instance: Option<&str>,
    generation: i32,
) -> HeartbeatRequest {
    HeartbeatRequest {
        group_id: GROUP.into(),
        generation_id: generation,
        member_id: member.into(),
        group_instance_id: instance.map(str::to_string),
        ..Default::default()
    }
}

/// A classic LeaveGroup (v3+) of one member.
pub fn leave_request(member: &str, instance: Option<&str>) -> LeaveGroupRequest {
    LeaveGroupRequest {
        group_id: GROUP.into(),
        members: vec![MemberIdentity {
            member_id: member.into(),
            group_instance_id: instance.map(str::to_string),
            ..Default::default()
        }],
        ..Default::default()
    }
}

/// The id of topic `t`, the one the unit tests subscribe to.
pub const TOPIC_T: u128 = 7;

/// A consumer-protocol member joining (epoch 0) with a subscription to `t`.
pub fn heartbeat_join(
    member: &str,
    instance: Option<&str>,
    rebalance_ms: i32,
) -> ConsumerGroupHeartbeatRequest {
    ConsumerGroupHeartbeatRequest {
        group_id: GROUP.into(),
        member_id: member.into(),
        member_epoch: 0,
        instance_id: instance.map(str::to_string),
        rebalance_timeout_ms: rebalance_ms,
        subscribed_topic_names: Some(vec!["t".into()]),
        topic_partitions: Some(Vec::new()),
        ..Default::default()
    }
}

/// A consumer-protocol member's heartbeat at `epoch`, owning `owned` of `t`.
pub fn heartbeat_beat(member: &str, epoch: i32, owned: &[i32]) -> ConsumerGroupHeartbeatRequest {
    ConsumerGroupHeartbeatRequest {
        group_id: GROUP.into(),
        member_id: member.into(),
        member_epoch: epoch,
        rebalance_timeout_ms: -1,
        topic_partitions: Some(vec![TopicPartitions {
            topic_id: Uuid::from_u128(TOPIC_T),
            partitions: owned.to_vec(),
            ..Default::default()
        }]),
        ..Default::default()
    }
}

/// An OffsetCommit of offset 42 for t-0 by `member` at `epoch` (generation or member epoch).
pub fn commit(member: &str, epoch: i32) -> OffsetCommitRequest {
    OffsetCommitRequest {
        group_id: GROUP.into(),
        member_id: member.into(),
        generation_id_or_member_epoch: epoch,
        topics: vec![OffsetCommitRequestTopic {
            name: "t".into(),
            partitions: vec![OffsetCommitRequestPartition {
                partition_index: 0,
                committed_offset: 42,
                ..Default::default()
            }],
            ..Default::default()
        }],
        ..Default::default()
    }
}

/// A shard, its log, and the replies it gave by token.
pub struct Driver {
    /// The coordinator.
    pub shard: Shard,
    /// The topics it sees.
    pub topics: Topics,
    /// Every record written, encoded as Kafka lays them out.
    pub log: Vec<(Bytes, Option<Bytes>)>,
    /// Replies not yet taken.
    pub replies: BTreeMap<u64, ResponseBody>,
    token: u64,
}

impl Driver {
    /// A driver over `shard`.
    pub fn new(shard: Shard, topics: Topics) -> Driver {
        Driver {
            shard,
            topics,
            log: Vec::new(),
            replies: BTreeMap::new(),
            token: 0,
        }
    }

    fn ctx(&mut self, version: i16) -> RequestContext {
        self.token += 1;
        RequestContext {
            token: self.token,
            version,
            client_id: "client".into(),
            client_host: "/127.0.0.1".into(),
        }
    }

    /// Writes an output's records and keeps its replies.
    pub fn apply(&mut self, out: Output) {
        self.log.extend(out.records.iter().map(GroupRecord::encode));
        self.replies.extend(out.replies);
    }

    /// Takes the reply to `token`, if it was given.
    pub fn take(&mut self, token: u64) -> Option<ResponseBody> {
        self.replies.remove(&token)
    }

    /// Sends a request; returns its token.
    pub fn send(&mut self, now: i64, request: Request) -> u64 {
        self.shard.see_topics(Arc::new(self.topics.clone()));
        let out = match &request {
            Request::Join(r) => {
                let ctx = self.ctx(9);
                self.shard.join_group(&ctx, r, now)
            }
            Request::Sync(r) => {
                let ctx = self.ctx(5);
                self.shard.sync_group(&ctx, r, now)
            }
            Request::Heartbeat(r) => {
                let ctx = self.ctx(4);
                self.shard.heartbeat(&ctx, r, now)
            }
            Request::Leave(r) => {
                let ctx = self.ctx(5);
                self.shard.leave_group(&ctx, r, now)
            }
            Request::Consumer(r) => {
                let ctx = self.ctx(1);
                let topics = Arc::new(self.topics.clone());
                self.shard.consumer_heartbeat(&ctx, r, topics, now)
            }
        };
        self.apply(out);
        self.token
    }

    /// Sends a request answered at once and returns the answer.
    pub fn call(&mut self, now: i64, request: Request) -> ResponseBody {
        let token = self.send(now, request);
        self.take(token).expect("an answer at once")
    }

    /// Runs the deadlines due at `now`.
    pub fn tick(&mut self, now: i64) {
        let out = self.shard.tick(now);
        self.apply(out);
    }

    /// A new shard that loads the log (`seed` for its member ids: a coordinator's is random).
    pub fn reload(&self, config: fjord_group::GroupConfig, seed: u64, now: i64) -> Shard {
        let mut s = Shard::new(config, seed);
        for (k, v) in &self.log {
            if let Some(r) = GroupRecord::decode(k, v.as_ref()).expect("a record") {
                s.replay(r, now);
            }
        }
        s.loaded(now);
        s
    }
}

/// A request to the shard.
#[derive(Debug, Clone)]
pub enum Request {
    /// JoinGroup.
    Join(JoinGroupRequest),
    /// SyncGroup.
    Sync(SyncGroupRequest),
    /// Heartbeat.
    Heartbeat(HeartbeatRequest),
    /// LeaveGroup.
    Leave(LeaveGroupRequest),
    /// ConsumerGroupHeartbeat.
    Consumer(ConsumerGroupHeartbeatRequest),
}
