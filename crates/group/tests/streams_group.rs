//! The streams-group coordinator on a shard (KIP-1071), driven with StreamsGroupHeartbeat
//! requests as Kafka Streams sends them: a word-count topology whose internal topics are
//! missing and then created, two members sharing the tasks (the second only after the first
//! revoked), a leave, a session expiry, a static member's restart, and a reload from the log.

mod common;

use common::Topics;
use fjord_group::streams::coordinator::{LEAVE_EPOCH, STATIC_LEAVE_EPOCH};
use fjord_group::{GroupConfig, RequestContext, Shard};
use fjord_protocol::generated::streams_group_heartbeat_request::{
    StreamsGroupHeartbeatRequest as Request, Subtopology, TaskIds, TopicInfo, Topology,
};
use fjord_protocol::generated::streams_group_heartbeat_response::StreamsGroupHeartbeatResponse as Response;
use fjord_protocol::{ErrorCode, ResponseBody};
use std::collections::BTreeMap;
use std::sync::Arc;

const GROUP: &str = "app";

fn word_count() -> Topology {
    Topology {
        epoch: 0,
        subtopologies: vec![
            Subtopology {
                subtopology_id: "0".into(),
                source_topics: vec!["input".into()],
                repartition_sink_topics: vec!["app-repartition".into()],
                ..Default::default()
            },
            Subtopology {
                subtopology_id: "1".into(),
                repartition_source_topics: vec![TopicInfo {
                    name: "app-repartition".into(),
                    ..Default::default()
                }],
                state_changelog_topics: vec![TopicInfo {
                    name: "app-changelog".into(),
                    ..Default::default()
                }],
                ..Default::default()
            },
        ],
        ..Default::default()
    }
}

fn join(member: &str, process: &str) -> Request {
    Request {
        group_id: GROUP.into(),
        member_id: member.into(),
        member_epoch: 0,
        rebalance_timeout_ms: 30_000,
        process_id: Some(process.into()),
        topology: Some(word_count()),
        active_tasks: Some(vec![]),
        standby_tasks: Some(vec![]),
        warmup_tasks: Some(vec![]),
        ..Default::default()
    }
}

/// A heartbeat reporting `active` as what the member runs.
fn beat(member: &str, epoch: i32, active: Vec<TaskIds>) -> Request {
    Request {
        group_id: GROUP.into(),
        member_id: member.into(),
        member_epoch: epoch,
        active_tasks: Some(active),
        standby_tasks: Some(vec![]),
        warmup_tasks: Some(vec![]),
        ..Default::default()
    }
}

fn active(r: &Response) -> Vec<TaskIds> {
    r.active_tasks
        .clone()
        .unwrap_or_default()
        .into_iter()
        .map(|t| TaskIds {
            subtopology_id: t.subtopology_id,
            partitions: t.partitions,
            ..Default::default()
        })
        .collect()
}

fn count(r: &Response) -> usize {
    r.active_tasks
        .iter()
        .flatten()
        .map(|t| t.partitions.len())
        .sum()
}

struct Harness {
    shard: Shard,
    topics: Topics,
    token: u64,
    log: Vec<(bytes::Bytes, Option<bytes::Bytes>)>,
    created: Vec<(String, i32)>,
}

impl Harness {
    fn new() -> Harness {
        Harness {
            shard: Shard::new(
                GroupConfig {
                    streams_initial_rebalance_delay_ms: 0,
                    ..GroupConfig::default()
                },
                1,
            ),
            topics: Topics {
                by_name: BTreeMap::from([("input".to_string(), (1, 4))]),
                stamp: 1,
                ..Default::default()
            },
            token: 0,
            log: Vec::new(),
            created: Vec::new(),
        }
    }

    fn send(&mut self, r: Request, now: i64) -> Response {
        self.token += 1;
        let ctx = RequestContext {
            token: self.token,
            version: 1,
            client_id: "streams-client".into(),
            client_host: "/127.0.0.1".into(),
        };
        let out = self
            .shard
            .streams_heartbeat(&ctx, &r, Arc::new(self.topics.clone()), now);
        self.log.extend(out.records.iter().map(|r| r.encode()));
        self.created.extend(
            out.streams_topics
                .iter()
                .map(|t| (t.name.clone(), t.partitions)),
        );
        match out.replies.into_iter().next() {
            Some((_, ResponseBody::StreamsGroupHeartbeat(r))) => r,
            other => panic!("{other:?}"),
        }
    }

    /// The driver creates what the coordinator asked for.
    fn create_internal_topics(&mut self) {
        for (i, (name, partitions)) in self.created.drain(..).enumerate() {
            self.topics
                .by_name
                .insert(name, (100 + i as u128, partitions));
        }
        self.topics.stamp += 1;
    }
}

#[test]
fn internal_topics_are_asked_for_then_two_members_share_the_tasks_revoking_first() {
    let mut h = Harness::new();
    let r = h.send(join("a", "p1"), 0);
    assert_eq!(r.error_code, 0, "{:?}", r.error_message);
    let statuses: Vec<i8> = r.status.iter().flatten().map(|s| s.status_code).collect();
    assert_eq!(statuses, vec![3], "MISSING_INTERNAL_TOPICS");
    assert_eq!(count(&r), 0, "no tasks before the topology is ready");
    assert_eq!(
        h.created,
        vec![
            ("app-changelog".to_string(), 4),
            ("app-repartition".to_string(), 4)
        ]
    );
    h.create_internal_topics();
    let r = h.send(beat("a", r.member_epoch, vec![]), 10);
    assert!(r.status.iter().flatten().next().is_none(), "{:?}", r.status);
    assert_eq!(count(&r), 8, "both subtopologies' 4 tasks");
    let epoch_a = r.member_epoch;
    let all = active(&r);
    // b joins: a must give up half before b gets them.
    let rb = h.send(join("b", "p2"), 20);
    assert_eq!(count(&rb), 0, "a still runs them");
    let ra = h.send(beat("a", epoch_a, all.clone()), 30);
    assert_eq!(count(&ra), 4, "a keeps half");
    assert_eq!(ra.member_epoch, epoch_a, "no new epoch before it revoked");
    let ra = h.send(beat("a", epoch_a, active(&ra)), 40);
    assert!(ra.member_epoch > epoch_a, "revoked: the target epoch");
    let rb = h.send(beat("b", rb.member_epoch, vec![]), 50);
    assert_eq!(count(&rb), 4, "the released half");
    assert_eq!(rb.member_epoch, ra.member_epoch);
    // The coordinator's view, from the log alone.
    let mut reloaded = Shard::new(GroupConfig::default(), 1);
    for (k, v) in &h.log {
        if let Some(r) = fjord_group::GroupRecord::decode(k, v.as_ref()).unwrap() {
            reloaded.replay(r, 0);
        }
    }
    assert_eq!(
        reloaded.streams_group(GROUP),
        h.shard.streams_group(GROUP),
        "the fold of the records is the state"
    );
    // The epochs each task was given at came back with the records: a's commit at its old
    // epoch is good for an input partition it kept, b's at an epoch before it got its tasks
    // is stale (Kafka 4.4's assignment epochs).
    // Subtopology 0 reads the input, 1 the repartition topic.
    let input_of = |t: &TaskIds| match t.subtopology_id.as_str() {
        "0" => ("input", t.partitions[0]),
        _ => ("app-repartition", t.partitions[0]),
    };
    let (topic, p) = input_of(&active(&ra)[0]);
    assert_eq!(
        commit(&mut reloaded, "a", epoch_a, topic, p),
        0,
        "a kept {topic}-{p} since epoch {epoch_a}"
    );
    let (topic, p) = input_of(&active(&rb)[0]);
    assert_eq!(
        commit(&mut reloaded, "b", rb.member_epoch - 1, topic, p),
        ErrorCode::StaleMemberEpoch.code(),
        "b got {topic}-{p} at epoch {}",
        rb.member_epoch
    );
}

/// An OffsetCommit (v9) of one partition by `member` at `epoch`: the partition's error code.
fn commit(shard: &mut Shard, member: &str, epoch: i32, topic: &str, partition: i32) -> i16 {
    use fjord_protocol::generated::offset_commit_request::{
        OffsetCommitRequest, OffsetCommitRequestPartition, OffsetCommitRequestTopic,
    };
    let r = OffsetCommitRequest {
        group_id: GROUP.into(),
        generation_id_or_member_epoch: epoch,
        member_id: member.into(),
        topics: vec![OffsetCommitRequestTopic {
            name: topic.into(),
            partitions: vec![OffsetCommitRequestPartition {
                partition_index: partition,
                committed_offset: 5,
                ..Default::default()
            }],
            ..Default::default()
        }],
        ..Default::default()
    };
    let ctx = RequestContext {
        token: 7,
        version: 9,
        client_id: "streams-client".into(),
        client_host: "/127.0.0.1".into(),
    };
    match shard
        .commit_offsets(&ctx, &r, &|_, _| false, 0)
        .replies
        .into_iter()
        .next()
    {
        Some((_, ResponseBody::OffsetCommit(r))) => r.topics[0].partitions[0].error_code,
        other => panic!("{other:?}"),
    }
}

#[test]
fn leaving_expiring_and_a_static_member_s_restart() {
    let mut h = Harness::new();
    h.send(join("a", "p1"), 0);
    h.create_internal_topics();
    let a = h.send(beat("a", 1, vec![]), 1);
    assert_eq!(count(&a), 8);
    // A static member joins, takes half, leaves for a while (-2), and its restart under a
    // new member id gets the same tasks back.
    let mut s = join("s1", "p2");
    s.instance_id = Some("instance-1".into());
    let rs = h.send(s, 2);
    let ra = h.send(beat("a", a.member_epoch, active(&a)), 3);
    let ra = h.send(beat("a", ra.member_epoch, active(&ra)), 4);
    let rs = h.send(beat("s1", rs.member_epoch, vec![]), 5);
    assert_eq!(count(&rs), 4);
    let tasks_before = active(&rs);
    let mut leave = beat("s1", STATIC_LEAVE_EPOCH, vec![]);
    leave.instance_id = Some("instance-1".into());
    assert_eq!(h.send(leave, 6).error_code, 0);
    let mut back = join("s2", "p3");
    back.instance_id = Some("instance-1".into());
    let rs2 = h.send(back, 7);
    assert_eq!(active(&rs2), tasks_before, "the static member's tasks");
    assert_eq!(
        count(&h.send(beat("a", ra.member_epoch, active(&ra)), 8)),
        4
    );
    // The old member id is gone.
    let stale = h.send(beat("s1", rs.member_epoch, vec![]), 9);
    assert_eq!(stale.error_code, ErrorCode::UnknownMemberId.code());
    // s2 leaves for good: a runs everything again; then a's session ends.
    let left = h.send(beat("s2", LEAVE_EPOCH, vec![]), 10);
    assert_eq!(left.member_epoch, LEAVE_EPOCH);
    let ra = h.send(beat("a", ra.member_epoch, active(&ra)), 11);
    assert_eq!(count(&ra), 8);
    let out = h.shard.tick(11 + 45_000);
    assert!(!out.records.is_empty(), "the session's end removes a");
    assert!(h
        .shard
        .streams_group(GROUP)
        .is_some_and(|g| g.members.is_empty()));
}

#[test]
fn requests_and_topologies_are_checked() {
    let mut h = Harness::new();
    let code = |r: &Response| r.error_code;
    let mut no_topology = join("a", "p1");
    no_topology.topology = None;
    assert_eq!(
        code(&h.send(no_topology, 0)),
        ErrorCode::InvalidRequest.code()
    );
    let mut no_member = join("", "p1");
    no_member.member_id.clear();
    assert_eq!(
        code(&h.send(no_member, 0)),
        ErrorCode::InvalidRequest.code()
    );
    let mut dup = join("a", "p1");
    let mut t = word_count();
    t.subtopologies[1].subtopology_id = "0".into();
    dup.topology = Some(t);
    assert_eq!(
        code(&h.send(dup, 0)),
        ErrorCode::StreamsInvalidTopology.code()
    );
    assert_eq!(
        code(&h.send(beat("ghost", 3, vec![]), 0)),
        ErrorCode::GroupIdNotFound.code()
    );
    let r = h.send(join("a", "p1"), 0);
    assert_eq!(code(&r), 0);
    assert_eq!(
        code(&h.send(beat("a", r.member_epoch + 5, vec![]), 0)),
        ErrorCode::FencedMemberEpoch.code()
    );
    let mut newer = join("b", "p1");
    newer.topology.as_mut().unwrap().epoch = 1;
    assert_eq!(
        code(&h.send(newer, 0)),
        ErrorCode::StreamsInvalidTopologyEpoch.code()
    );
    // Missing source topics are a status, not an error.
    let mut h = Harness::new();
    h.topics.by_name.clear();
    let r = h.send(join("a", "p1"), 0);
    let s = r.status.unwrap();
    assert_eq!(
        (s[0].status_code, s[0].status_detail.as_str()),
        (1, "Source topics input are missing.")
    );
}

#[test]
fn with_warm_ups_a_stateful_task_moves_only_once_its_new_owner_caught_up() {
    use fjord_protocol::generated::streams_group_heartbeat_request::TaskOffset;
    let mut h = Harness::new();
    h.shard = Shard::new(
        GroupConfig {
            streams_num_warmup_replicas: 4,
            streams_initial_rebalance_delay_ms: 0,
            ..GroupConfig::default()
        },
        1,
    );
    h.send(join("a", "p1"), 0);
    h.create_internal_topics();
    let a = h.send(beat("a", 1, vec![]), 1);
    assert_eq!(count(&a), 8);
    let b = h.send(join("b", "p2"), 2);
    // a gives up only stateless tasks; b warms up the stateful ones it is to run.
    let a2 = h.send(beat("a", a.member_epoch, active(&a)), 3);
    let a2 = h.send(beat("a", a2.member_epoch, active(&a2)), 4);
    let b2 = h.send(beat("b", b.member_epoch, vec![]), 5);
    let warm: Vec<(String, i32)> = b2
        .warmup_tasks
        .iter()
        .flatten()
        .flat_map(|t| t.partitions.iter().map(|p| (t.subtopology_id.clone(), *p)))
        .collect();
    assert!(!warm.is_empty(), "b warms up");
    assert!(
        warm.iter().all(|(s, _)| s == "1"),
        "only stateful tasks: {warm:?}"
    );
    assert!(count(&a2) > 4, "a still runs what b warms up");
    // b reports its warm-ups caught up: a hands them over, b runs them.
    let offsets: Vec<TaskOffset> = warm
        .iter()
        .map(|(s, p)| TaskOffset {
            subtopology_id: s.clone(),
            partition: *p,
            offset: 500,
            ..Default::default()
        })
        .collect();
    let mut report = beat("b", b2.member_epoch, active(&b2));
    report.warmup_tasks = Some(
        b2.warmup_tasks
            .clone()
            .unwrap_or_default()
            .into_iter()
            .map(|t| TaskIds {
                subtopology_id: t.subtopology_id,
                partitions: t.partitions,
                ..Default::default()
            })
            .collect(),
    );
    report.task_offsets = Some(offsets.clone());
    report.task_end_offsets = Some(offsets);
    assert_eq!(h.send(report, 6).error_code, 0);
    let a3 = h.send(beat("a", a2.member_epoch, active(&a2)), 7);
    let a3 = h.send(beat("a", a3.member_epoch, active(&a3)), 8);
    assert_eq!(count(&a3), 4, "handed over");
    let b3 = h.send(beat("b", b2.member_epoch, active(&b2)), 9);
    let b3 = h.send(beat("b", b3.member_epoch, active(&b3)), 10);
    assert_eq!(count(&b3), 4);
    assert!(b3.warmup_tasks.iter().flatten().next().is_none());
}

#[test]
fn listed_described_and_deleted_as_a_streams_group() {
    let mut h = Harness::new();
    h.send(join("a", "p1"), 0);
    h.create_internal_topics();
    let a = h.send(beat("a", 1, vec![]), 1);
    let a = h.send(beat("a", a.member_epoch, active(&a)), 2);
    let listed = h.shard.list_groups(&[], &[]);
    assert_eq!(
        listed.len(),
        1,
        "the offsets' classic entry is not listed: {listed:?}"
    );
    assert_eq!(
        (
            listed[0].group_type.as_str(),
            listed[0].group_state.as_str()
        ),
        ("streams", "Stable")
    );
    assert!(h.shard.list_groups(&[], &["classic".into()]).is_empty());
    let stats = h.shard.stats();
    assert_eq!(stats.streams_by_state.get("Stable"), Some(&1), "{stats:?}");
    assert!(
        stats.by_state.is_empty(),
        "the offsets' holder is not a classic group"
    );
    assert!(stats.streams_rebalances >= 2);
    let d = h.shard.describe_streams_group(GROUP, &h.topics);
    assert_eq!((d.error_code, d.group_state.as_str()), (0, "Stable"));
    assert_eq!(d.members.len(), 1);
    let subs = d.topology.unwrap().subtopologies.unwrap();
    assert_eq!(
        subs[1].state_changelog_topics[0].partitions, 4,
        "the decided count"
    );
    assert_eq!(
        h.shard.describe_group(GROUP, 6).error_message.as_deref(),
        Some("Group app is not a classic group.")
    );
    let (results, _) = h.shard.delete_groups(&[GROUP.to_string()]);
    assert_eq!(results[0].error_code, ErrorCode::NonEmptyGroup.code());
    h.send(beat("a", LEAVE_EPOCH, active(&a)), 3);
    let (results, records) = h.shard.delete_groups(&[GROUP.to_string()]);
    assert_eq!(results[0].error_code, 0);
    assert!(!records.is_empty());
    assert!(h.shard.streams_group(GROUP).is_none());
    assert!(h.shard.list_groups(&[], &[]).is_empty());
}

/// OffsetDelete's answer for each of `topics` (partition 0), as the shard gives it.
fn delete_offsets(h: &mut Harness, topics: &[&str]) -> Vec<(String, i16)> {
    use fjord_protocol::generated::offset_delete_request::{
        OffsetDeleteRequest, OffsetDeleteRequestPartition, OffsetDeleteRequestTopic,
    };
    let r = OffsetDeleteRequest {
        group_id: GROUP.into(),
        topics: topics
            .iter()
            .map(|t| OffsetDeleteRequestTopic {
                name: t.to_string(),
                partitions: vec![OffsetDeleteRequestPartition { partition_index: 0 }],
            })
            .collect(),
    };
    let ctx = RequestContext {
        token: 99,
        version: 0,
        client_id: "admin".into(),
        client_host: "/127.0.0.1".into(),
    };
    match h.shard.delete_offsets(&ctx, &r).replies.into_iter().next() {
        Some((_, ResponseBody::OffsetDelete(r))) => {
            assert_eq!(r.error_code, 0);
            r.topics
                .iter()
                .map(|t| (t.name.clone(), t.partitions[0].error_code))
                .collect()
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn offsets_of_the_topics_a_live_streams_group_reads_are_not_deleted() {
    let mut h = Harness::new();
    h.send(join("a", "p1"), 0);
    h.create_internal_topics();
    let a = h.send(beat("a", 1, vec![]), 1);
    let a = h.send(beat("a", a.member_epoch, active(&a)), 2);
    let subscribed = ErrorCode::GroupSubscribedToTopic.code();
    assert_eq!(
        delete_offsets(&mut h, &["input", "app-repartition", "other"]),
        vec![
            ("input".into(), subscribed),
            ("app-repartition".into(), subscribed),
            ("other".into(), 0)
        ],
        "a source or repartition source topic of a group with members is refused"
    );
    h.send(beat("a", LEAVE_EPOCH, active(&a)), 3);
    assert_eq!(
        delete_offsets(&mut h, &["input"]),
        vec![("input".into(), 0)],
        "an empty group's offsets may go"
    );
}

#[test]
fn a_group_s_own_configs_override_the_broker_s() {
    let mut h = Harness::new();
    let own = [
        ("streams.heartbeat.interval.ms", 7_000),
        ("streams.task.offset.interval.ms", 9_000),
        ("streams.acceptable.recovery.lag", 123),
    ];
    for (key, value) in own {
        h.topics
            .group_configs
            .insert((GROUP.to_string(), key.to_string()), value);
    }
    let r = h.send(join("a", "p1"), 0);
    assert_eq!(
        (
            r.heartbeat_interval_ms,
            r.task_offset_interval_ms,
            r.acceptable_recovery_lag
        ),
        (7_000, 9_000, 123),
        "the group's streams.* keys, not group.streams.*"
    );
    let other = Request {
        group_id: "other".into(),
        ..join("b", "p2")
    };
    let r = h.send(other, 1);
    assert_eq!(
        (r.heartbeat_interval_ms, r.task_offset_interval_ms),
        (5_000, 60_000),
        "another group keeps the broker's"
    );
    // A group's own initial delay holds its first assignment back.
    h.topics.group_configs.insert(
        (
            "slow".to_string(),
            "streams.initial.rebalance.delay.ms".to_string(),
        ),
        5_000,
    );
    let slow = Request {
        group_id: "slow".into(),
        ..join("c", "p3")
    };
    let r = h.send(slow, 2);
    let delayed = r
        .status
        .iter()
        .flatten()
        .any(|s| s.status_code == fjord_group::streams::coordinator::STATUS_ASSIGNMENT_DELAYED);
    assert!(delayed && count(&r) == 0, "{r:?}");
}

#[test]
fn a_member_without_the_rack_aware_tags_is_told_which_are_missing() {
    use fjord_group::streams::coordinator::STATUS_MISSING_CLIENT_TAGS;
    use fjord_protocol::generated::streams_group_heartbeat_request::KeyValue;
    let mut h = Harness::new();
    h.topics.group_texts.insert(
        (
            GROUP.to_string(),
            "streams.rack.aware.assignment.tags".to_string(),
        ),
        "zone, rack".to_string(),
    );
    let tagged = Request {
        client_tags: Some(vec![KeyValue {
            key: "zone".into(),
            value: "a".into(),
            ..Default::default()
        }]),
        ..join("a", "p1")
    };
    let r = h.send(tagged, 0);
    let missing: Vec<_> = r
        .status
        .iter()
        .flatten()
        .filter(|s| s.status_code == STATUS_MISSING_CLIENT_TAGS)
        .map(|s| s.status_detail.clone())
        .collect();
    assert_eq!(
        missing,
        vec![
            "Missing required client tags for rack-aware standby assignment: [rack]. \
              Configure them via 'client.tag.<tagKey>' in your Streams config."
                .to_string()
        ],
        "Kafka 4.4's status and words"
    );
    let r = h.send(
        Request {
            client_tags: Some(vec![
                KeyValue {
                    key: "zone".into(),
                    value: "a".into(),
                    ..Default::default()
                },
                KeyValue {
                    key: "rack".into(),
                    value: "r1".into(),
                    ..Default::default()
                },
            ]),
            ..beat("a", r.member_epoch, vec![])
        },
        1,
    );
    assert!(
        !r.status
            .iter()
            .flatten()
            .any(|s| s.status_code == STATUS_MISSING_CLIENT_TAGS),
        "both tags sent: {r:?}"
    );
}
