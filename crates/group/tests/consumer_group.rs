//! The KIP-848 coordinator's rules one at a time, on a [`Shard`]: joining and the first
//! assignment, a second member taking half only after the first revokes, Kafka's request
//! checks and their error codes, a static member's leave and return without a new group
//! epoch, the session and revocation deadlines, offset commits checked against member epochs,
//! describe and list, and an empty group changing kind (classic to consumer and back) with its
//! offsets kept.

mod common;

use common::{commit, heartbeat_beat, heartbeat_join, TOPIC_T as T};
use fjord_group::consumer::TopicSource;
use fjord_group::{GroupConfig, RequestContext, Shard};
use fjord_protocol::generated::{
    consumer_group_heartbeat_request::ConsumerGroupHeartbeatRequest,
    consumer_group_heartbeat_response::ConsumerGroupHeartbeatResponse,
    join_group_request::{JoinGroupRequest, JoinGroupRequestProtocol},
    leave_group_request::LeaveGroupRequest,
    offset_commit_request::OffsetCommitRequest,
    sync_group_request::{SyncGroupRequest, SyncGroupRequestAssignment},
};
use fjord_protocol::{ErrorCode, ResponseBody};
use std::collections::BTreeMap;
use std::sync::Arc;

#[derive(Debug, Clone)]
struct Topics(
    BTreeMap<String, (u128, i32)>,
    u64,
    /// Group config overrides: (group, key) to value.
    BTreeMap<(String, String), i32>,
);

impl TopicSource for Topics {
    fn topic(&self, name: &str) -> Option<(u128, i32)> {
        self.0.get(name).copied()
    }
    fn name(&self, id: u128) -> Option<String> {
        self.0
            .iter()
            .find(|(_, v)| v.0 == id)
            .map(|(n, _)| n.clone())
    }
    fn names(&self) -> Vec<String> {
        self.0.keys().cloned().collect()
    }
    fn stamp(&self) -> u64 {
        self.1
    }
    fn group_int(&self, group: &str, key: &str) -> Option<i32> {
        self.2.get(&(group.to_string(), key.to_string())).copied()
    }
}

fn topics() -> Topics {
    Topics(
        BTreeMap::from([("t".to_string(), (T, 6))]),
        1,
        BTreeMap::new(),
    )
}

fn ctx(token: u64) -> RequestContext {
    RequestContext {
        token,
        version: 1,
        client_id: "client".into(),
        client_host: "/127.0.0.1".into(),
    }
}

fn join(member: &str) -> ConsumerGroupHeartbeatRequest {
    heartbeat_join(member, None, 30_000)
}

fn beat(member: &str, epoch: i32, owned: &[i32]) -> ConsumerGroupHeartbeatRequest {
    heartbeat_beat(member, epoch, owned)
}

struct Harness {
    shard: Shard,
    topics: Topics,
    token: u64,
    records: usize,
    /// Every record written, encoded.
    log: Vec<(bytes::Bytes, Option<bytes::Bytes>)>,
}

impl Harness {
    fn new() -> Harness {
        Harness {
            shard: Shard::new(
                GroupConfig {
                    initial_rebalance_delay_ms: 0,
                    ..GroupConfig::default()
                },
                1,
            ),
            topics: topics(),
            token: 0,
            records: 0,
            log: Vec::new(),
        }
    }

    fn send(
        &mut self,
        r: ConsumerGroupHeartbeatRequest,
        now: i64,
    ) -> ConsumerGroupHeartbeatResponse {
        self.token += 1;
        let out =
            self.shard
                .consumer_heartbeat(&ctx(self.token), &r, Arc::new(self.topics.clone()), now);
        self.records += out.records.len();
        self.write(&out.records);
        match out.replies.into_iter().next() {
            Some((_, ResponseBody::ConsumerGroupHeartbeat(r))) => r,
            other => panic!("{other:?}"),
        }
    }
}

impl Harness {
    fn write(&mut self, records: &[fjord_group::GroupRecord]) {
        self.log.extend(records.iter().map(|r| r.encode()));
    }

    /// A shard that loads the log written so far.
    fn reload(&self) -> Shard {
        let mut s = Shard::new(GroupConfig::default(), 2);
        for (k, v) in &self.log {
            if let Some(r) = fjord_group::GroupRecord::decode(k, v.as_ref()).unwrap() {
                s.replay(r, 0);
            }
        }
        s
    }
}

fn assigned(r: &ConsumerGroupHeartbeatResponse) -> Vec<i32> {
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

fn code(r: &ConsumerGroupHeartbeatResponse) -> ErrorCode {
    ErrorCode::from_code(r.error_code).unwrap()
}

#[test]
fn a_second_member_gets_half_only_after_the_first_revokes() {
    let mut h = Harness::new();
    let a = h.send(join("a"), 0);
    assert_eq!(code(&a), ErrorCode::None);
    assert_eq!(a.member_epoch, 1);
    assert_eq!(a.heartbeat_interval_ms, 5_000);
    assert_eq!(assigned(&a), vec![0, 1, 2, 3, 4, 5]);
    let b = h.send(join("b"), 10);
    assert_eq!(b.member_epoch, 2);
    assert!(assigned(&b).is_empty(), "a still holds everything");
    // a is told to give up three (its epoch stays until it confirms).
    let a2 = h.send(beat("a", 1, &[0, 1, 2, 3, 4, 5]), 20);
    assert_eq!(a2.member_epoch, 1);
    let kept = assigned(&a2);
    assert_eq!(kept.len(), 3);
    assert_eq!(
        h.shard.consumer_group("g").unwrap().state_name(),
        "Reconciling"
    );
    // b still gets nothing while a has not confirmed.
    assert!(assigned(&h.send(beat("b", 2, &[]), 30)).is_empty());
    let a3 = h.send(beat("a", 1, &kept), 40);
    assert_eq!(a3.member_epoch, 2);
    let b2 = h.send(beat("b", 2, &[]), 50);
    let mut all = assigned(&b2);
    all.extend(&kept);
    all.sort();
    assert_eq!(all, vec![0, 1, 2, 3, 4, 5]);
    assert_eq!(h.shard.consumer_group("g").unwrap().state_name(), "Stable");
}

#[test]
fn requests_are_checked_as_kafka_checks_them() {
    let mut h = Harness::new();
    let cases: Vec<(ConsumerGroupHeartbeatRequest, ErrorCode, &str)> = vec![
        (
            ConsumerGroupHeartbeatRequest {
                group_id: String::new(),
                ..join("a")
            },
            ErrorCode::InvalidRequest,
            "GroupId can't be empty.",
        ),
        (
            ConsumerGroupHeartbeatRequest {
                rebalance_timeout_ms: -1,
                ..join("a")
            },
            ErrorCode::InvalidRequest,
            "RebalanceTimeoutMs must be provided in first request.",
        ),
        (
            ConsumerGroupHeartbeatRequest {
                topic_partitions: None,
                ..join("a")
            },
            ErrorCode::InvalidRequest,
            "TopicPartitions must be empty when (re-)joining.",
        ),
        (
            ConsumerGroupHeartbeatRequest {
                member_id: String::new(),
                ..join("a")
            },
            ErrorCode::InvalidRequest,
            "MemberId can't be empty.",
        ),
        (
            ConsumerGroupHeartbeatRequest {
                member_epoch: -3,
                ..join("a")
            },
            ErrorCode::InvalidRequest,
            "MemberEpoch is invalid.",
        ),
        (
            ConsumerGroupHeartbeatRequest {
                server_assignor: Some("sticky".into()),
                ..join("a")
            },
            ErrorCode::UnsupportedAssignor,
            "ServerAssignor sticky is not supported. Supported assignors: uniform, range.",
        ),
        (
            ConsumerGroupHeartbeatRequest {
                subscribed_topic_names: None,
                subscribed_topic_regex: Some("t(".into()),
                ..join("a")
            },
            ErrorCode::InvalidRegularExpression,
            "",
        ),
        (
            ConsumerGroupHeartbeatRequest {
                subscribed_topic_names: Some(vec!["t".into(); 10_001]),
                ..join("a")
            },
            ErrorCode::InvalidRequest,
            "SubscribedTopicNames may name at most 10000 topics.",
        ),
        (
            beat("nobody", 3, &[]),
            ErrorCode::GroupIdNotFound,
            "Consumer group g not found.",
        ),
    ];
    for (r, want, message) in cases {
        let got = h.send(r, 0);
        assert_eq!(code(&got), want, "{:?}", got.error_message);
        assert!(got.error_message.as_deref().unwrap().starts_with(message));
    }
    assert_eq!(h.records, 0, "a refused request writes nothing");
    h.send(join("a"), 0);
    let unknown = h.send(beat("b", 1, &[]), 1);
    assert_eq!(code(&unknown), ErrorCode::UnknownMemberId);
    let ahead = h.send(beat("a", 5, &[]), 2);
    assert_eq!(code(&ahead), ErrorCode::FencedMemberEpoch);
}

#[test]
fn a_static_member_comes_back_to_its_partitions_without_a_new_epoch() {
    let mut h = Harness::new();
    let with_instance = |r: ConsumerGroupHeartbeatRequest, i: &str| ConsumerGroupHeartbeatRequest {
        instance_id: Some(i.into()),
        ..r
    };
    h.send(with_instance(join("a"), "ia"), 0);
    h.send(with_instance(join("b"), "ib"), 1);
    let a = h.send(with_instance(beat("a", 1, &[0, 1, 2, 3, 4, 5]), "ia"), 2);
    let kept_a = assigned(&a);
    h.send(with_instance(beat("a", 1, &kept_a), "ia"), 3);
    let b = h.send(with_instance(beat("b", 2, &[]), "ib"), 4);
    let kept_b = assigned(&b);
    assert_eq!(kept_b.len(), 3);
    let epoch = h.shard.consumer_group("g").unwrap().group_epoch();
    // b leaves for a while (-2), and a new process with its instance id comes back.
    let left = h.send(
        ConsumerGroupHeartbeatRequest {
            member_epoch: -2,
            ..with_instance(beat("b", 2, &kept_b), "ib")
        },
        5,
    );
    assert_eq!(code(&left), ErrorCode::None);
    assert_eq!(left.member_epoch, -2);
    // Another instance id is refused while the first still holds it... the new process with
    // the same instance id takes its place.
    let back = h.send(with_instance(join("b2"), "ib"), 6);
    assert_eq!(code(&back), ErrorCode::None);
    assert_eq!(assigned(&back), kept_b, "the same partitions come back");
    let g = h.shard.consumer_group("g").unwrap();
    assert_eq!(g.group_epoch(), epoch, "no new group epoch");
    assert!(g.members.contains_key("b2") && !g.members.contains_key("b"));
    // A second process with a held instance id is refused.
    let dup = h.send(with_instance(join("b3"), "ib"), 7);
    assert_eq!(code(&dup), ErrorCode::UnreleasedInstanceId);
    // The old id is fenced.
    let old = h.send(with_instance(beat("b", 2, &[]), "ib"), 8);
    assert_eq!(code(&old), ErrorCode::FencedInstanceId);
}

#[test]
fn deadlines_fence_silent_and_slow_members() {
    let mut h = Harness::new();
    h.send(join("a"), 0);
    h.send(join("b"), 0);
    // a never revokes: after its rebalance timeout (30 s) it is removed.
    let a = h.send(beat("a", 1, &[0, 1, 2, 3, 4, 5]), 1_000);
    assert_eq!(assigned(&a).len(), 3);
    let out = h.shard.tick(1_000 + 30_000);
    assert!(!out.records.is_empty());
    let g = h.shard.consumer_group("g").unwrap();
    assert!(
        !g.members.contains_key("a"),
        "fenced after the rebalance timeout"
    );
    // b then takes everything; silent for the session timeout (45 s), it goes too.
    let b = h.send(beat("b", 2, &[]), 32_000);
    assert_eq!(assigned(&b).len(), 6);
    h.shard.tick(32_000 + 44_999);
    assert!(h
        .shard
        .consumer_group("g")
        .unwrap()
        .members
        .contains_key("b"));
    h.shard.tick(32_000 + 45_000);
    let g = h.shard.consumer_group("g").unwrap();
    assert!(g.members.is_empty());
    assert_eq!(g.state_name(), "Empty");
    let again = h.send(beat("b", 4, &[]), 80_000);
    assert_eq!(code(&again), ErrorCode::UnknownMemberId);
}

/// A group's own `consumer.session.timeout.ms` and `consumer.heartbeat.interval.ms` (group
/// config resources) replace the coordinator's for that group only, from the next heartbeat.
#[test]
fn a_groups_own_session_timeout_and_heartbeat_interval_apply_to_it_alone() {
    let mut h = Harness::new();
    let first = h.send(join("a"), 0);
    assert_eq!(
        first.heartbeat_interval_ms, 5_000,
        "the coordinator's default"
    );
    let set = |k: &str, v: i32| (("g".to_string(), k.to_string()), v);
    h.topics.2 = BTreeMap::from([
        set("consumer.session.timeout.ms", 50_000),
        set("consumer.heartbeat.interval.ms", 6_000),
        // Another group's setting changes nothing here.
        (
            (
                "other".to_string(),
                "consumer.session.timeout.ms".to_string(),
            ),
            60_000,
        ),
    ]);
    let a = h.send(beat("a", 1, &[0, 1, 2, 3, 4, 5]), 1_000);
    assert_eq!(a.heartbeat_interval_ms, 6_000);
    // Silent from 1 s: still a member at 1 s + 50 s - 1 ms (past the default 45 s) ...
    h.shard.tick(1_000 + 45_000);
    h.shard.tick(1_000 + 49_999);
    assert!(h
        .shard
        .consumer_group("g")
        .unwrap()
        .members
        .contains_key("a"));
    // ... and gone at 1 s + 50 s.
    h.shard.tick(1_000 + 50_000);
    assert!(h.shard.consumer_group("g").unwrap().members.is_empty());
}

fn commit_code(h: &mut Harness, r: OffsetCommitRequest) -> ErrorCode {
    let out = h.shard.commit_offsets(&ctx(99), &r, &|_, _| false, 0);
    h.write(&out.records);
    match &out.replies[0].1 {
        ResponseBody::OffsetCommit(r) => {
            ErrorCode::from_code(r.topics[0].partitions[0].error_code).unwrap()
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn offset_commits_are_checked_against_member_epochs() {
    let mut h = Harness::new();
    h.send(join("a"), 0);
    assert_eq!(commit_code(&mut h, commit("a", 1)), ErrorCode::None);
    assert_eq!(
        commit_code(&mut h, commit("a", 0)),
        ErrorCode::StaleMemberEpoch
    );
    assert_eq!(
        commit_code(&mut h, commit("x", 1)),
        ErrorCode::UnknownMemberId
    );
    assert_eq!(
        commit_code(&mut h, commit("", -1)),
        ErrorCode::UnknownMemberId
    );
    // Once empty, an admin commit is allowed.
    h.send(
        ConsumerGroupHeartbeatRequest {
            member_epoch: -1,
            ..beat("a", 1, &[])
        },
        1,
    );
    assert_eq!(commit_code(&mut h, commit("", -1)), ErrorCode::None);
}

#[test]
fn describe_and_list_show_consumer_groups() {
    let mut h = Harness::new();
    h.send(join("a"), 0);
    let d = h.shard.describe_consumer_group("g", &h.topics);
    assert_eq!(d.error_code, 0);
    assert_eq!(d.group_state, "Stable");
    assert_eq!((d.group_epoch, d.assignment_epoch), (1, 1));
    assert_eq!(d.assignor_name, "uniform");
    assert_eq!(d.members.len(), 1);
    let m = &d.members[0];
    assert_eq!(m.member_type, 1);
    assert_eq!(m.assignment.topic_partitions[0].topic_name, "t");
    assert_eq!(
        m.assignment.topic_partitions[0].partitions,
        vec![0, 1, 2, 3, 4, 5]
    );
    let listed = h.shard.list_groups(&[], &[]);
    assert_eq!(listed.len(), 1);
    assert_eq!(
        (
            listed[0].group_type.as_str(),
            listed[0].group_state.as_str()
        ),
        ("consumer", "Stable")
    );
    assert!(h.shard.list_groups(&[], &["classic".into()]).is_empty());
    // DescribeGroups does not show it: Dead before v6, GROUP_ID_NOT_FOUND from v6.
    assert_eq!(h.shard.describe_group("g", 5).group_state, "Dead");
    let classic = h.shard.describe_group("g", 6);
    assert_eq!(classic.error_code, ErrorCode::GroupIdNotFound.code());
    assert_eq!(
        classic.error_message.as_deref(),
        Some("Group g is not a classic group.")
    );
    let missing = h.shard.describe_consumer_group("nope", &h.topics);
    assert_eq!(missing.error_code, ErrorCode::GroupIdNotFound.code());
    let stats = h.shard.stats();
    assert_eq!(stats.consumer_by_state.get("Stable"), Some(&1));
    assert!(
        stats.by_state.is_empty(),
        "the offsets holder is not a classic group"
    );
}

fn classic_join(member: &str) -> JoinGroupRequest {
    JoinGroupRequest {
        group_id: "g".into(),
        session_timeout_ms: 10_000,
        rebalance_timeout_ms: 10_000,
        member_id: member.into(),
        protocol_type: "consumer".into(),
        protocols: vec![JoinGroupRequestProtocol {
            name: "range".into(),
            metadata: Default::default(),
            ..Default::default()
        }],
        ..Default::default()
    }
}

#[test]
fn an_empty_group_changes_kind_and_keeps_its_offsets() {
    let mut h = Harness::new();
    h.send(join("a"), 0);
    assert_eq!(commit_code(&mut h, commit("a", 1)), ErrorCode::None);
    // A classic member whose metadata is not the consumer protocol's may not join while
    // consumer members are there (one that is joins it: see tests/migration.rs).
    let out = h.shard.join_group(&ctx(50), &classic_join(""), 1);
    match &out.replies[0].1 {
        ResponseBody::JoinGroup(r) => {
            assert_eq!(r.error_code, ErrorCode::InconsistentGroupProtocol.code())
        }
        other => panic!("{other:?}"),
    }
    h.send(
        ConsumerGroupHeartbeatRequest {
            member_epoch: -1,
            ..beat("a", 1, &[])
        },
        2,
    );
    // Now empty: a classic member makes it a classic group, and the offset is still there.
    let mut out = h.shard.join_group(&ctx(51), &classic_join(""), 3);
    out.replies
        .retain(|(_, r)| matches!(r, ResponseBody::JoinGroup(j) if j.error_code == 0));
    assert!(out
        .records
        .iter()
        .any(|r| matches!(r, fjord_group::GroupRecord::Consumer(_))));
    assert!(h.shard.consumer_group("g").is_none());
    let fetched = h.shard.fetch_offsets("g", None);
    assert_eq!(fetched[0].1[0].1.as_ref().map(|c| c.offset), Some(42));
    h.write(&out.records);
    // The join phase ends (no initial delay here) and the leader syncs: generation 1 written.
    let mut joined = h.shard.tick(3);
    h.write(&joined.records);
    joined.replies.extend(out.replies);
    let member = match joined.replies.pop() {
        Some((_, ResponseBody::JoinGroup(r))) => {
            assert_eq!((r.error_code, r.generation_id), (0, 1));
            r.member_id
        }
        other => panic!("{other:?}"),
    };
    let sync = SyncGroupRequest {
        group_id: "g".into(),
        generation_id: 1,
        member_id: member.clone(),
        assignments: vec![SyncGroupRequestAssignment {
            member_id: member.clone(),
            ..Default::default()
        }],
        ..Default::default()
    };
    let out = h.shard.sync_group(&ctx(52), &sync, 3);
    h.write(&out.records);
    // A consumer member cannot join the classic group while it has members.
    let refused = h.send(join("c"), 4);
    assert_eq!(code(&refused), ErrorCode::GroupIdNotFound);
    // LeaveGroup v1 names one member.
    let leave = LeaveGroupRequest {
        group_id: "g".into(),
        member_id: member,
        ..Default::default()
    };
    let out = h.shard.leave_group(&ctx(53), &leave, 5);
    h.write(&out.records);
    let out = h.shard.tick(5);
    h.write(&out.records);
    assert_eq!(h.shard.group("g").unwrap().state.name(), "Empty");
    // Empty again: a consumer member makes it a consumer group once more (the classic
    // metadata tombstoned), and a coordinator loading the log still has the offset.
    let back = h.send(join("d"), 6);
    assert_eq!(code(&back), ErrorCode::None);
    for s in [&h.shard, &h.reload()] {
        assert!(s
            .consumer_group("g")
            .is_some_and(|g| g.members.contains_key("d")));
        let fetched = s.fetch_offsets("g", None);
        assert_eq!(fetched[0].1[0].1.as_ref().map(|c| c.offset), Some(42));
        assert!(s
            .group("g")
            .is_some_and(|g| g.generation == 0 && g.members.is_empty()));
    }
}

#[test]
fn offset_fetches_of_members_are_checked_against_their_epochs() {
    let mut h = Harness::new();
    h.send(join("a"), 0);
    let s = &h.shard;
    assert_eq!(
        s.check_offset_fetch("g", None, -1),
        Ok(()),
        "an admin's fetch"
    );
    assert_eq!(s.check_offset_fetch("g", Some("a"), 1), Ok(()));
    assert_eq!(
        s.check_offset_fetch("g", Some("a"), 0),
        Err(ErrorCode::StaleMemberEpoch)
    );
    assert_eq!(
        s.check_offset_fetch("g", Some("b"), 1),
        Err(ErrorCode::UnknownMemberId)
    );
    assert_eq!(
        s.check_offset_fetch("classic-or-unknown", Some("x"), 3),
        Ok(())
    );
}

#[test]
fn offsets_of_a_topic_the_members_subscribe_to_are_not_deleted() {
    use fjord_protocol::generated::offset_delete_request::{
        OffsetDeleteRequest, OffsetDeleteRequestPartition, OffsetDeleteRequestTopic,
    };
    let mut h = Harness::new();
    h.send(join("a"), 0);
    let r = OffsetDeleteRequest {
        group_id: "g".into(),
        topics: ["t", "other"]
            .iter()
            .map(|t| OffsetDeleteRequestTopic {
                name: t.to_string(),
                partitions: vec![OffsetDeleteRequestPartition { partition_index: 0 }],
            })
            .collect(),
    };
    let codes = match h
        .shard
        .delete_offsets(&ctx(99), &r)
        .replies
        .into_iter()
        .next()
    {
        Some((_, ResponseBody::OffsetDelete(r))) => r
            .topics
            .iter()
            .map(|t| t.partitions[0].error_code)
            .collect::<Vec<_>>(),
        other => panic!("{other:?}"),
    };
    assert_eq!(
        codes,
        vec![ErrorCode::GroupSubscribedToTopic.code(), 0],
        "Kafka's isSubscribedToTopic: the members' subscribed topic, not another"
    );
}
