//! Online migration between classic and consumer groups, rule by rule, on a [`Shard`]: a
//! classic group with members becomes a consumer group when a consumer-protocol member joins
//! (its members keep their partitions until the coordinator moves them, and revoke before
//! anyone else takes them), its classic members are served JoinGroup, SyncGroup, Heartbeat
//! and LeaveGroup, and it becomes classic again when the last consumer-protocol member
//! leaves; offsets stay, the log folds to the same state, the policy is obeyed, and Kafka's
//! error codes come back for classic members that are out of step.

mod common;

use common::*;
use fjord_group::config::MigrationPolicy;
use fjord_group::GroupConfig;
use fjord_protocol::generated::{
    consumer_group_heartbeat_request::ConsumerGroupHeartbeatRequest,
    join_group_response::JoinGroupResponse, offset_commit_request::OffsetCommitRequest,
};
use fjord_protocol::{ErrorCode, ResponseBody};
use std::collections::BTreeMap;

const SESSION: i32 = 10_000;
const REBALANCE: i32 = 20_000;

fn config(policy: MigrationPolicy) -> GroupConfig {
    GroupConfig {
        initial_rebalance_delay_ms: 0,
        consumer_migration_policy: policy,
        ..GroupConfig::default()
    }
}

fn driver(policy: MigrationPolicy) -> Driver {
    let mut topics = Topics::default();
    topics.by_name.insert("t".into(), (TOPIC_T, 6));
    Driver::new(fjord_group::Shard::new(config(policy), 5), topics)
}

fn t() -> Vec<String> {
    vec!["t".to_string()]
}

fn named(ps: &[i32]) -> Named {
    if ps.is_empty() {
        return Named::new();
    }
    BTreeMap::from([("t".to_string(), ps.iter().copied().collect())])
}

fn join_answer(body: ResponseBody) -> JoinGroupResponse {
    match body {
        ResponseBody::JoinGroup(r) => r,
        other => panic!("{other:?}"),
    }
}

fn code_of(body: &ResponseBody) -> ErrorCode {
    let code = match body {
        ResponseBody::JoinGroup(r) => r.error_code,
        ResponseBody::SyncGroup(r) => r.error_code,
        ResponseBody::Heartbeat(r) => r.error_code,
        ResponseBody::LeaveGroup(r) => r.members.first().map_or(r.error_code, |m| m.error_code),
        ResponseBody::ConsumerGroupHeartbeat(r) => r.error_code,
        other => panic!("{other:?}"),
    };
    ErrorCode::from_code(code).unwrap()
}

fn sync_assignment(body: &ResponseBody) -> Vec<i32> {
    match body {
        ResponseBody::SyncGroup(r) => {
            assert_eq!(r.error_code, 0, "{r:?}");
            assignment(&r.assignment)
                .get("t")
                .map(|ps| ps.iter().copied().collect())
                .unwrap_or_default()
        }
        other => panic!("{other:?}"),
    }
}

fn consumer_join(member: &str, instance: Option<&str>) -> Request {
    Request::Consumer(heartbeat_join(member, instance, REBALANCE))
}

fn consumer_beat(member: &str, epoch: i32, owned: &[i32]) -> Request {
    Request::Consumer(heartbeat_beat(member, epoch, owned))
}

/// A classic JoinGroup of `member` owning `owned`.
fn cjoin(member: &str, instance: Option<&str>, owned: &Named) -> Request {
    Request::Join(join_request(
        member,
        instance,
        &t(),
        owned,
        SESSION,
        REBALANCE,
    ))
}

fn consumer_leave(member: &str) -> Request {
    Request::Consumer(ConsumerGroupHeartbeatRequest {
        group_id: GROUP.into(),
        member_id: member.into(),
        member_epoch: -1,
        ..Default::default()
    })
}

fn consumer_assigned(body: &ResponseBody) -> (i32, Option<Vec<i32>>) {
    match body {
        ResponseBody::ConsumerGroupHeartbeat(r) => {
            assert_eq!(r.error_code, 0, "{r:?}");
            (
                r.member_epoch,
                r.assignment.as_ref().map(|a| {
                    a.topic_partitions
                        .iter()
                        .flat_map(|t| t.partitions.clone())
                        .collect()
                }),
            )
        }
        other => panic!("{other:?}"),
    }
}

/// Two classic members, a (leader) with t-0..2 and b with t-3..5, Stable at generation 1.
/// Returns their member ids.
fn classic_group(d: &mut Driver) -> (String, String) {
    let mut ids = Vec::new();
    for _ in 0..2 {
        let first = join_answer(d.call(0, cjoin("", None, &Named::new())));
        assert_eq!(first.error_code, ErrorCode::MemberIdRequired.code());
        ids.push(first.member_id);
    }
    let tokens: Vec<u64> = ids
        .iter()
        .map(|id| d.send(0, cjoin(id, None, &Named::new())))
        .collect();
    d.tick(0);
    let answers: Vec<JoinGroupResponse> = tokens
        .iter()
        .map(|tk| join_answer(d.take(*tk).expect("joined")))
        .collect();
    let leader = answers[0].leader.clone();
    let (a, b) = if leader == ids[0] {
        (ids[0].clone(), ids[1].clone())
    } else {
        (ids[1].clone(), ids[0].clone())
    };
    let plan = vec![
        (a.clone(), bytes_of(&[0, 1, 2])),
        (b.clone(), bytes_of(&[3, 4, 5])),
    ];
    let ta = d.send(0, Request::Sync(sync_request(&a, None, 1, plan)));
    let tb = d.send(0, Request::Sync(sync_request(&b, None, 1, Vec::new())));
    assert_eq!(sync_assignment(&d.take(ta).unwrap()), vec![0, 1, 2]);
    assert_eq!(sync_assignment(&d.take(tb).unwrap()), vec![3, 4, 5]);
    (a, b)
}

fn bytes_of(ps: &[i32]) -> bytes::Bytes {
    use fjord_protocol::generated::consumer_protocol_assignment::{
        ConsumerProtocolAssignment, TopicPartition,
    };
    fjord_protocol::consumer_protocol::encode_assignment(
        &ConsumerProtocolAssignment {
            assigned_partitions: vec![TopicPartition {
                topic: "t".into(),
                partitions: ps.to_vec(),
            }],
            ..Default::default()
        },
        1,
    )
    .unwrap()
}

fn commit_code(d: &mut Driver, r: OffsetCommitRequest) -> ErrorCode {
    let ctx = fjord_group::RequestContext {
        token: 10_000,
        version: 8,
        client_id: "c".into(),
        client_host: "/127.0.0.1".into(),
    };
    let out = d.shard.commit_offsets(&ctx, &r, &|_, _| false, 0);
    let body = out.replies[0].1.clone();
    d.apply(out);
    match body {
        ResponseBody::OffsetCommit(r) => {
            ErrorCode::from_code(r.topics[0].partitions[0].error_code).unwrap()
        }
        other => panic!("{other:?}"),
    }
}

/// The classic members' view and the consumer member's never overlap.
fn assert_disjoint(owners: &[(&str, &[i32])]) {
    let mut seen = BTreeMap::new();
    for (who, ps) in owners {
        for p in *ps {
            if let Some(other) = seen.insert(*p, *who) {
                panic!("t-{p} held by {other} and {who}");
            }
        }
    }
}

#[test]
fn a_classic_group_becomes_a_consumer_group_and_back_without_double_ownership() {
    let mut d = driver(MigrationPolicy::Bidirectional);
    let (a, b) = classic_group(&mut d);
    assert_eq!(commit_code(&mut d, commit(&a, 1)), ErrorCode::None);

    // A consumer-protocol member joins: the group converts, at group epoch 1 + 1.
    let c = consumer_assigned(&d.call(10, consumer_join("c", None)));
    assert_eq!(c.0, 2);
    assert_eq!(c.1, Some(Vec::new()), "a and b still hold everything");
    let g = d.shard.consumer_group(GROUP).expect("a consumer group now");
    assert_eq!(g.members.len(), 3);
    assert_eq!(g.reconciled(&a).member_epoch, 1, "a keeps generation 1");
    assert!(d.shard.group(GROUP).is_some_and(|g| g.members.is_empty()));
    let described = d.shard.describe_consumer_group(GROUP, &d.topics.clone());
    let types: Vec<(String, i8)> = described
        .members
        .iter()
        .map(|m| (m.member_id.clone(), m.member_type))
        .collect();
    assert!(types.contains(&(a.clone(), 0)) && types.contains(&("c".into(), 1)));
    // The offset committed under the classic group is still there, and a classic member's
    // commit is checked against its generation.
    assert_eq!(commit_code(&mut d, commit(&a, 1)), ErrorCode::None);
    assert_eq!(
        commit_code(&mut d, commit(&a, 0)),
        ErrorCode::IllegalGeneration
    );

    // a and b learn of the rebalance through their heartbeats and rejoin with what they own.
    for m in [&a, &b] {
        let hb = d.call(11, Request::Heartbeat(heartbeat_request(m, None, 1)));
        assert_eq!(code_of(&hb), ErrorCode::RebalanceInProgress);
    }
    let ja = join_answer(d.call(12, cjoin(&a, None, &named(&[0, 1, 2]))));
    assert_eq!(ja.error_code, 0);
    assert_eq!(ja.protocol_name.as_deref(), Some("cooperative-sticky"));
    assert!(
        ja.members.is_empty(),
        "the coordinator assigns, not a leader"
    );
    let a_kept = sync_assignment(&d.call(
        13,
        Request::Sync(sync_request(&a, None, ja.generation_id, Vec::new())),
    ));
    assert_eq!(a_kept.len(), 2, "a keeps two of its three");
    // c still gets nothing: a has not revoked the third yet.
    let c2 = consumer_assigned(&d.call(14, consumer_beat("c", 2, &[])));
    assert_disjoint(&[
        ("a", &[0, 1, 2]),
        ("b", &[3, 4, 5]),
        ("c", &c2.1.clone().unwrap_or_default()),
    ]);
    // a revokes and rejoins with what it kept: it reaches epoch 2.
    let ja2 = join_answer(d.call(15, cjoin(&a, None, &named(&a_kept))));
    assert_eq!(ja2.generation_id, 2);
    assert_eq!(
        sync_assignment(&d.call(16, Request::Sync(sync_request(&a, None, 2, Vec::new())))),
        a_kept
    );
    assert_eq!(
        code_of(&d.call(17, Request::Heartbeat(heartbeat_request(&a, None, 2)))),
        ErrorCode::None
    );
    // b does the same.
    let jb = join_answer(d.call(18, cjoin(&b, None, &named(&[3, 4, 5]))));
    let b_kept = sync_assignment(&d.call(
        19,
        Request::Sync(sync_request(&b, None, jb.generation_id, Vec::new())),
    ));
    join_answer(d.call(20, cjoin(&b, None, &named(&b_kept))));
    let c3 = consumer_assigned(&d.call(21, consumer_beat("c", 2, &[])));
    let c_got = c3.1.expect("c's assignment");
    assert_eq!(c_got.len(), 2);
    assert_disjoint(&[("a", &a_kept), ("b", &b_kept), ("c", &c_got)]);
    let fold = d.reload(config(MigrationPolicy::Bidirectional), 77, 21);
    assert_eq!(fold.consumer_groups(), d.shard.consumer_groups());

    // c leaves: a and b are all classic, so the group is classic again, rebalancing at
    // generation = the group epoch, with the target assignment as each member's.
    let epoch = d.shard.consumer_group(GROUP).unwrap().group_epoch();
    let left = d.call(22, consumer_leave("c"));
    assert_eq!(code_of(&left), ErrorCode::None);
    assert!(d.shard.consumer_group(GROUP).is_none());
    let g = d.shard.group(GROUP).expect("a classic group again");
    assert_eq!(g.generation, epoch);
    assert_eq!(g.state.name(), "PreparingRebalance");
    assert_eq!(g.members.len(), 2);
    assert_eq!(
        d.shard.fetch_offsets(GROUP, None)[0].1[0]
            .1
            .as_ref()
            .map(|c| c.offset),
        Some(42)
    );
    // The members rejoin (told by their heartbeats) and the leader assigns.
    assert_eq!(
        code_of(&d.call(23, Request::Heartbeat(heartbeat_request(&a, None, epoch)))),
        ErrorCode::RebalanceInProgress
    );
    let ta = d.send(24, cjoin(&a, None, &named(&a_kept)));
    let tb = d.send(24, cjoin(&b, None, &named(&b_kept)));
    let (ja, jb) = (
        join_answer(d.take(ta).expect("joined")),
        join_answer(d.take(tb).expect("joined")),
    );
    assert_eq!(ja.generation_id, epoch + 1);
    assert_eq!(jb.generation_id, epoch + 1);
    let fold = d.reload(config(MigrationPolicy::Bidirectional), 78, 25);
    assert!(fold.consumer_groups().groups.is_empty());
    assert_eq!(
        fold.fetch_offsets(GROUP, None)[0].1[0]
            .1
            .as_ref()
            .map(|c| c.offset),
        Some(42)
    );
}

#[test]
fn the_policy_is_obeyed_both_ways() {
    // Upgrade refused: the consumer member is told the group is not a consumer group.
    let mut d = driver(MigrationPolicy::Downgrade);
    classic_group(&mut d);
    match d.call(10, consumer_join("c", None)) {
        ResponseBody::ConsumerGroupHeartbeat(r) => {
            assert_eq!(r.error_code, ErrorCode::GroupIdNotFound.code());
            assert_eq!(
                r.error_message.as_deref(),
                Some("Group g is not a consumer group")
            );
        }
        other => panic!("{other:?}"),
    }
    assert!(d.shard.consumer_group(GROUP).is_none());

    // Downgrade refused: the group stays a consumer group with its classic member.
    let mut d = driver(MigrationPolicy::Upgrade);
    let (a, _b) = classic_group(&mut d);
    consumer_assigned(&d.call(10, consumer_join("c", None)));
    let leave = d.call(11, Request::Leave(leave_request(&_b, None)));
    assert_eq!(code_of(&leave), ErrorCode::None);
    let r = d.call(12, consumer_leave("c"));
    assert_eq!(code_of(&r), ErrorCode::None);
    let g = d
        .shard
        .consumer_group(GROUP)
        .expect("still a consumer group");
    assert_eq!(g.members.keys().collect::<Vec<_>>(), vec![&a]);
}

#[test]
fn classic_members_out_of_step_get_kafkas_errors_and_deadlines() {
    let mut d = driver(MigrationPolicy::Bidirectional);
    let (a, b) = classic_group(&mut d);
    consumer_assigned(&d.call(10, consumer_join("c", None)));
    let hb = |m: &str, g: i32| Request::Heartbeat(heartbeat_request(m, None, g));
    assert_eq!(
        code_of(&d.call(11, hb(&a, 7))),
        ErrorCode::IllegalGeneration
    );
    assert_eq!(
        code_of(&d.call(11, hb("nobody", 1))),
        ErrorCode::UnknownMemberId
    );
    // A consumer-protocol member may not use the classic APIs.
    assert_eq!(code_of(&d.call(11, hb("c", 2))), ErrorCode::UnknownMemberId);
    assert_eq!(
        code_of(&d.call(11, Request::Sync(sync_request(&a, None, 9, Vec::new())))),
        ErrorCode::IllegalGeneration
    );
    // Behind the group epoch: SyncGroup says rejoin.
    assert_eq!(
        code_of(&d.call(11, Request::Sync(sync_request(&a, None, 1, Vec::new())))),
        ErrorCode::RebalanceInProgress
    );
    // Another protocol than the group's members share is refused.
    let mut other = join_request("", None, &t(), &Named::new(), SESSION, REBALANCE);
    other.protocols[0].name = "range".into();
    assert_eq!(
        code_of(&d.call(11, Request::Join(other))),
        ErrorCode::InconsistentGroupProtocol
    );
    // a was told to rejoin at 11 and keeps heartbeating without rejoining: its rebalance
    // timeout removes it.
    for at in [11 + 5_000, 11 + 10_000, 11 + 15_000] {
        assert_eq!(
            code_of(&d.call(at, hb(&a, 1))),
            ErrorCode::RebalanceInProgress
        );
        d.tick(at);
    }
    d.tick(11 + REBALANCE as i64 - 1);
    assert!(d
        .shard
        .consumer_group(GROUP)
        .unwrap()
        .members
        .contains_key(&a));
    d.tick(11 + REBALANCE as i64);
    let g = d.shard.consumer_group(GROUP).unwrap();
    assert!(!g.members.contains_key(&a), "a missed its join deadline");
    // b, which stopped heartbeating at 11, was removed by its own session long before.
    assert!(!g.members.contains_key(&b) && g.members.contains_key("c"));
}

#[test]
fn a_classic_members_session_is_its_own() {
    let mut d = driver(MigrationPolicy::Bidirectional);
    let (a, b) = classic_group(&mut d);
    consumer_assigned(&d.call(10, consumer_join("c", None)));
    // Nobody heartbeats: the classic members' 10 s sessions end, not the coordinator's 45 s.
    d.tick(10 + SESSION as i64 - 1);
    assert_eq!(d.shard.consumer_group(GROUP).unwrap().members.len(), 3);
    d.tick(10 + SESSION as i64);
    let g = d.shard.consumer_group(GROUP).unwrap();
    assert!(!g.members.contains_key(&a) && !g.members.contains_key(&b));
    assert!(g.members.contains_key("c"), "c's session is 45 s");
}

#[test]
fn waiting_classic_requests_rejoin_when_the_group_converts() {
    let mut d = driver(MigrationPolicy::Bidirectional);
    let (a, b) = classic_group(&mut d);
    // a rejoins (a rebalance starts) and waits for b.
    let ta = d.send(5, cjoin(&a, None, &named(&[0, 1, 2])));
    assert!(d.take(ta).is_none(), "a waits for b");
    consumer_assigned(&d.call(6, consumer_join("c", None)));
    assert_eq!(
        code_of(&d.take(ta).expect("answered")),
        ErrorCode::RebalanceInProgress
    );
    // Its later rejoin is served by the consumer group.
    let ja = join_answer(d.call(7, cjoin(&a, None, &named(&[0, 1, 2]))));
    assert_eq!(ja.error_code, 0);
    // A classic leave removes b and moves the group epoch on.
    let before = d.shard.consumer_group(GROUP).unwrap().group_epoch();
    assert_eq!(
        code_of(&d.call(8, Request::Leave(leave_request(&b, None)))),
        ErrorCode::None
    );
    assert_eq!(
        d.shard.consumer_group(GROUP).unwrap().group_epoch(),
        before + 1
    );
    assert_eq!(
        code_of(&d.call(8, Request::Leave(leave_request(&b, None)))),
        ErrorCode::UnknownMemberId
    );
}

#[test]
fn a_classic_static_member_replacing_the_last_consumer_member_makes_the_group_classic() {
    let mut d = driver(MigrationPolicy::Bidirectional);
    // s (static, consumer protocol) has everything; classic a joins and the two settle 3/3.
    let s0 = consumer_assigned(&d.call(0, consumer_join("s", Some("inst"))));
    assert_eq!(s0.1, Some(vec![0, 1, 2, 3, 4, 5]));
    let first = join_answer(d.call(1, cjoin("", None, &Named::new())));
    let a = first.member_id;
    let ja = join_answer(d.call(2, cjoin(&a, None, &Named::new())));
    assert!(
        sync_assignment(&d.call(
            3,
            Request::Sync(sync_request(&a, None, ja.generation_id, Vec::new()))
        ))
        .is_empty(),
        "s has not revoked yet"
    );
    let s1 = consumer_assigned(&d.call(4, consumer_beat("s", 1, &[0, 1, 2, 3, 4, 5])));
    let kept = s1.1.expect("s is told what to keep");
    let s2 = consumer_assigned(&d.call(5, consumer_beat("s", 1, &kept)));
    assert_eq!(s2.0, 2);
    assert_eq!(
        code_of(&d.call(
            6,
            Request::Heartbeat(heartbeat_request(&a, None, ja.generation_id))
        )),
        ErrorCode::RebalanceInProgress,
        "its partitions are free now"
    );
    let ja2 = join_answer(d.call(7, cjoin(&a, None, &Named::new())));
    let a_got = sync_assignment(&d.call(
        8,
        Request::Sync(sync_request(&a, None, ja2.generation_id, Vec::new())),
    ));
    assert_eq!(a_got.len(), 3);
    assert_eq!(
        d.shard.consumer_group(GROUP).unwrap().state_name(),
        "Stable"
    );

    // The same instance comes back with the classic protocol: the group is classic again,
    // Stable, and the new instance takes the old one's partitions without a rebalance.
    let j = join_answer(d.call(12, cjoin("", Some("inst"), &Named::new())));
    assert_eq!(j.error_code, 0);
    assert!(d.shard.consumer_group(GROUP).is_none());
    let g = d.shard.group(GROUP).expect("classic again");
    assert_eq!(g.state.name(), "Stable", "no rebalance after a replacement");
    assert_eq!(g.generation, j.generation_id);
    assert!(g.members.contains_key(&a) && g.members.contains_key(&j.member_id));
    let got = sync_assignment(&d.call(
        13,
        Request::Sync(sync_request(
            &j.member_id,
            Some("inst"),
            j.generation_id,
            Vec::new(),
        )),
    ));
    assert_eq!(got, kept, "the new instance takes the old one's partitions");
}

#[test]
fn a_replacement_mid_reconciliation_rebalances_the_classic_group() {
    let mut d = driver(MigrationPolicy::Bidirectional);
    let (a, b) = classic_group(&mut d);
    consumer_assigned(&d.call(10, consumer_join("s", Some("inst"))));
    d.call(11, Request::Leave(leave_request(&b, None)));
    // s holds nothing yet (a still holds its partitions): the group is not settled, so the
    // classic group rebalances rather than keep partitions nobody consumes.
    let j = join_answer(d.call(12, cjoin("", Some("inst"), &Named::new())));
    assert_eq!(j.error_code, 0);
    let g = d.shard.group(GROUP).expect("classic again");
    assert_eq!(g.state.name(), "PreparingRebalance");
    assert!(g.members.contains_key(&a));
}

#[test]
fn a_member_id_handed_out_but_unused_does_not_keep_the_group_classic() {
    let mut d = driver(MigrationPolicy::Bidirectional);
    let first = join_answer(d.call(0, cjoin("", None, &Named::new())));
    assert_eq!(first.error_code, ErrorCode::MemberIdRequired.code());
    // The group is Empty with only a pending id: a consumer member makes it a consumer group.
    let c = consumer_assigned(&d.call(1, consumer_join("c", None)));
    assert_eq!(c.1, Some(vec![0, 1, 2, 3, 4, 5]));
    // The classic client comes back with its id and joins the consumer group.
    let j = join_answer(d.call(2, cjoin(&first.member_id, None, &Named::new())));
    assert_eq!(j.error_code, 0);
    let g = d.shard.consumer_group(GROUP).expect("a consumer group");
    assert!(g.members.contains_key(&first.member_id));
    // Its pending-id deadline is gone: nothing fires for it later.
    d.tick(1_000_000);
    assert!(d.shard.consumer_group(GROUP).is_some());
}
