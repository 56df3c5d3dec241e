//! The classic group coordinator's state machine driven with requests and time: Kafka's
//! rebalance rules (MEMBER_ID_REQUIRED, one generation per completed join phase, an
//! assignment only for the current generation, session and rebalance timeouts, static
//! members, the initial delay), offsets, and a coordinator move (the shard rebuilt from its
//! records). A seeded run of random clients checks the invariants over many histories.

use bytes::Bytes;
use fjord_group::{GroupConfig, GroupRecord, Output, RequestContext, Shard, Token};
use fjord_protocol::generated::{
    heartbeat_request::HeartbeatRequest,
    join_group_request::{JoinGroupRequest, JoinGroupRequestProtocol},
    leave_group_request::{LeaveGroupRequest, MemberIdentity},
    offset_commit_request::{
        OffsetCommitRequest, OffsetCommitRequestPartition, OffsetCommitRequestTopic,
    },
    sync_group_request::{SyncGroupRequest, SyncGroupRequestAssignment},
};
use fjord_protocol::{ErrorCode, ResponseBody};
use std::collections::HashMap;

const SESSION: i32 = 10_000;
const REBALANCE: i32 = 30_000;

/// A shard, its clock, the records it wrote and the replies it gave.
struct Harness {
    shard: Shard,
    now: i64,
    next_token: Token,
    log: Vec<GroupRecord>,
    replies: HashMap<Token, ResponseBody>,
}

impl Harness {
    fn new(delay: i32) -> Harness {
        let config = GroupConfig {
            initial_rebalance_delay_ms: delay,
            ..GroupConfig::default()
        };
        Harness {
            shard: Shard::new(config, 42),
            now: 1_000_000,
            next_token: 0,
            log: Vec::new(),
            replies: HashMap::new(),
        }
    }

    fn ctx(&mut self, version: i16) -> RequestContext {
        self.next_token += 1;
        RequestContext {
            token: self.next_token,
            version,
            client_id: "client".into(),
            client_host: "/127.0.0.1".into(),
        }
    }

    fn take(&mut self, out: Output) {
        self.log.extend(out.records);
        for (t, r) in out.replies {
            assert!(
                self.replies.insert(t, r).is_none(),
                "token {t} answered twice"
            );
        }
    }

    fn advance(&mut self, ms: i64) {
        let until = self.now + ms;
        while let Some(at) = self.shard.next_deadline().filter(|at| *at <= until) {
            self.now = at.max(self.now);
            let out = self.shard.tick(self.now);
            self.take(out);
        }
        self.now = until;
    }

    fn join(&mut self, member: &str, instance: Option<&str>, meta: &[u8]) -> Token {
        self.join_at(7, member, instance, meta)
    }

    /// A JoinGroup at `version`.
    fn join_at(
        &mut self,
        version: i16,
        member: &str,
        instance: Option<&str>,
        meta: &[u8],
    ) -> Token {
        let ctx = self.ctx(version);
        let r = JoinGroupRequest {
            group_id: "g".into(),
            session_timeout_ms: SESSION,
            rebalance_timeout_ms: REBALANCE,
            member_id: member.into(),
            group_instance_id: instance.map(str::to_string),
            protocol_type: "consumer".into(),
            protocols: vec![JoinGroupRequestProtocol {
                name: "range".into(),
                metadata: Bytes::copy_from_slice(meta),
                ..Default::default()
            }],
            ..Default::default()
        };
        let out = self.shard.join_group(&ctx, &r, self.now);
        self.take(out);
        ctx.token
    }

    fn join_answer(
        &self,
        t: Token,
    ) -> Option<&fjord_protocol::generated::join_group_response::JoinGroupResponse> {
        match self.replies.get(&t)? {
            ResponseBody::JoinGroup(j) => Some(j),
            other => panic!("not a join answer: {other:?}"),
        }
    }

    /// A new dynamic member's id (JoinGroup answered MEMBER_ID_REQUIRED; pending until it
    /// joins with it).
    fn member_id(&mut self) -> String {
        let t = self.join("", None, b"m");
        let j = self.join_answer(t).expect("answered at once");
        assert_eq!(j.error_code, ErrorCode::MemberIdRequired.code());
        let id = j.member_id.clone();
        assert!(id.starts_with("client-"), "{id}");
        id
    }

    /// A new dynamic member: MEMBER_ID_REQUIRED, then the join with that id.
    fn new_member(&mut self) -> (String, Token) {
        let id = self.member_id();
        let t = self.join(&id, None, b"m");
        (id, t)
    }

    fn sync(&mut self, member: &str, generation: i32, assignments: &[(&str, &[u8])]) -> Token {
        let ctx = self.ctx(5);
        let r = SyncGroupRequest {
            group_id: "g".into(),
            generation_id: generation,
            member_id: member.into(),
            protocol_type: Some("consumer".into()),
            protocol_name: Some("range".into()),
            assignments: assignments
                .iter()
                .map(|(m, a)| SyncGroupRequestAssignment {
                    member_id: m.to_string(),
                    assignment: Bytes::copy_from_slice(a),
                    ..Default::default()
                })
                .collect(),
            ..Default::default()
        };
        let out = self.shard.sync_group(&ctx, &r, self.now);
        self.take(out);
        ctx.token
    }

    fn sync_answer(&self, t: Token) -> Option<(i16, Bytes)> {
        match self.replies.get(&t)? {
            ResponseBody::SyncGroup(s) => Some((s.error_code, s.assignment.clone())),
            other => panic!("not a sync answer: {other:?}"),
        }
    }

    fn heartbeat(&mut self, member: &str, instance: Option<&str>, generation: i32) -> i16 {
        let ctx = self.ctx(4);
        let r = HeartbeatRequest {
            group_id: "g".into(),
            generation_id: generation,
            member_id: member.into(),
            group_instance_id: instance.map(str::to_string),
            ..Default::default()
        };
        let out = self.shard.heartbeat(&ctx, &r, self.now);
        self.take(out);
        match &self.replies[&ctx.token] {
            ResponseBody::Heartbeat(h) => h.error_code,
            other => panic!("{other:?}"),
        }
    }

    fn commit(&mut self, member: &str, generation: i32, offset: i64) -> i16 {
        let ctx = self.ctx(8);
        let r = OffsetCommitRequest {
            group_id: "g".into(),
            generation_id_or_member_epoch: generation,
            member_id: member.into(),
            retention_time_ms: -1,
            topics: vec![OffsetCommitRequestTopic {
                name: "t".into(),
                partitions: vec![OffsetCommitRequestPartition {
                    partition_index: 0,
                    committed_offset: offset,
                    committed_leader_epoch: 3,
                    committed_metadata: Some("meta".into()),
                    ..Default::default()
                }],
                ..Default::default()
            }],
            ..Default::default()
        };
        let out = self.shard.commit_offsets(&ctx, &r, &|_, _| false, self.now);
        self.take(out);
        match &self.replies[&ctx.token] {
            ResponseBody::OffsetCommit(c) => c.topics[0].partitions[0].error_code,
            other => panic!("{other:?}"),
        }
    }

    /// A TxnOffsetCommit v3 of partition 0 by producer 7 (the answer's error code).
    fn txn_commit(&mut self, member: &str, generation: i32, offset: i64) -> i16 {
        self.txn_commit_at(member, generation, offset, 3)
    }

    /// A TxnOffsetCommit of partition 0 by producer 7 at `version` (the answer's code).
    fn txn_commit_at(&mut self, member: &str, generation: i32, offset: i64, version: i16) -> i16 {
        use fjord_protocol::generated::txn_offset_commit_request::{
            TxnOffsetCommitRequest, TxnOffsetCommitRequestPartition, TxnOffsetCommitRequestTopic,
        };
        let ctx = self.ctx(version);
        let r = TxnOffsetCommitRequest {
            transactional_id: "tx".into(),
            group_id: "g".into(),
            producer_id: 7,
            producer_epoch: 0,
            generation_id_or_member_epoch: generation,
            member_id: member.into(),
            topics: vec![TxnOffsetCommitRequestTopic {
                name: "t".into(),
                partitions: vec![TxnOffsetCommitRequestPartition {
                    partition_index: 0,
                    committed_offset: offset,
                    committed_leader_epoch: -1,
                    ..Default::default()
                }],
                ..Default::default()
            }],
            ..Default::default()
        };
        let out = self
            .shard
            .txn_commit_offsets(&ctx, &r, &|_, _| false, self.now);
        self.take(out);
        match &self.replies[&ctx.token] {
            ResponseBody::TxnOffsetCommit(c) => c.topics[0].partitions[0].error_code,
            other => panic!("{other:?}"),
        }
    }

    fn committed(&self, shard: &Shard) -> Option<i64> {
        let topics = [("t".to_string(), vec![0])];
        shard.fetch_offsets("g", Some(&topics))[0].1[0]
            .1
            .as_ref()
            .map(|c| c.offset)
    }

    /// The shard a new coordinator loads from the records written so far.
    fn reload(&self) -> Shard {
        let mut s = Shard::new(self.shard.config().clone(), 7);
        for r in &self.log {
            // Through the stored encoding, as a new leader reads them.
            let (k, v) = r.encode();
            let r = GroupRecord::decode(&k, v.as_ref()).unwrap().unwrap();
            s.replay(r, self.now);
        }
        s.loaded(self.now);
        s
    }
}

/// Two members join and sync: one generation, the leader assigns, both get their part.
fn stable_pair(h: &mut Harness) -> (String, String) {
    let a = h.member_id();
    let b = h.member_id();
    let ta = h.join(&a, None, b"m");
    assert!(h.join_answer(ta).is_none(), "waits for the pending member");
    let tb = h.join(&b, None, b"m");
    let ja = h.join_answer(ta).expect("join phase complete").clone();
    let jb = h.join_answer(tb).unwrap().clone();
    assert_eq!((ja.error_code, jb.error_code), (0, 0));
    assert_eq!((ja.generation_id, jb.generation_id), (1, 1));
    assert_eq!(ja.leader, a);
    assert_eq!(ja.members.len(), 2, "the leader sees every member");
    assert!(jb.members.is_empty());
    assert_eq!(ja.protocol_name.as_deref(), Some("range"));
    let tb = h.sync(&b, 1, &[]);
    assert!(
        h.sync_answer(tb).is_none(),
        "a follower waits for the leader"
    );
    let before = h.log.len();
    let ta = h.sync(&a, 1, &[(&a, b"A"), (&b, b"B")]);
    assert_eq!(h.log.len(), before + 1, "the assignment is persisted");
    assert_eq!(h.sync_answer(ta).unwrap(), (0, Bytes::from_static(b"A")));
    assert_eq!(h.sync_answer(tb).unwrap(), (0, Bytes::from_static(b"B")));
    assert_eq!(h.shard.group("g").unwrap().state.name(), "Stable");
    (a, b)
}

#[test]
fn two_members_join_sync_and_commit() {
    let mut h = Harness::new(0);
    let (a, b) = stable_pair(&mut h);
    assert_eq!(h.heartbeat(&a, None, 1), 0);
    assert_eq!(
        h.heartbeat(&b, None, 0),
        ErrorCode::IllegalGeneration.code()
    );
    assert_eq!(
        h.heartbeat("nobody", None, 1),
        ErrorCode::UnknownMemberId.code()
    );
    assert_eq!(h.commit(&a, 1, 17), 0);
    assert_eq!(h.commit(&a, 2, 18), ErrorCode::IllegalGeneration.code());
    assert_eq!(h.committed(&h.shard), Some(17));
    // An old generation's sync gets no assignment.
    let t = h.sync(&b, 0, &[]);
    assert_eq!(
        h.sync_answer(t).unwrap().0,
        ErrorCode::IllegalGeneration.code()
    );
}

/// Kafka's `validateOffsetCommit` (run on Kafka 4.4 by tests/java ConsumerTest): a
/// transactional commit naming no member and no generation is accepted while the group has
/// live members (older transactional clients and kafkajs send none); a plain one is not.
#[test]
fn an_anonymous_transactional_commit_is_accepted_in_a_live_group() {
    let mut h = Harness::new(0);
    let (a, _b) = stable_pair(&mut h);
    assert_eq!(h.commit("", -1, 5), ErrorCode::UnknownMemberId.code());
    assert_eq!(h.txn_commit("", -1, 5), 0);
    // A transactional commit that names a member is checked as any other.
    assert_eq!(
        h.txn_commit("nobody", 1, 5),
        ErrorCode::UnknownMemberId.code()
    );
    assert_eq!(h.txn_commit(&a, 2, 5), ErrorCode::IllegalGeneration.code());
    assert_eq!(h.txn_commit(&a, 1, 5), 0);
}

#[test]
fn a_transactional_commit_to_a_missing_group_is_refused_in_each_versions_words() {
    // KIP-1319: v6 says GROUP_ID_NOT_FOUND where older versions say ILLEGAL_GENERATION
    // (Kafka 4.4's OffsetMetadataManager); without a generation the group is created.
    let mut h = Harness::new(0);
    assert_eq!(
        h.txn_commit_at("m", 3, 5, 5),
        ErrorCode::IllegalGeneration.code()
    );
    assert_eq!(
        h.txn_commit_at("m", 3, 5, 6),
        ErrorCode::GroupIdNotFound.code()
    );
    assert_eq!(h.txn_commit_at("", -1, 5, 6), 0);
}

/// Seeded: random offset commits, plain and transactional, named and anonymous, against a
/// stable group of two. The oracle is the fencing rule the anonymous exception must not
/// weaken, stated apart from the code: a commit that names a member is accepted only from a
/// current member at the current generation; no commit changes the group (its members still
/// heartbeat at generation 1). Each transactional commit is sent at TxnOffsetCommit v5 and
/// v6: acceptance must not depend on the version, and v5 never gets v6's error codes.
/// `FJORD_SIM_SEEDS` runs more seeds (default 200).
#[test]
fn commits_never_let_a_fenced_member_through_seeded() {
    let seeds: u64 = std::env::var("FJORD_SIM_SEEDS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(200);
    for seed in 0..seeds {
        // splitmix64: the same seed, the same run.
        let mut state = seed;
        let mut next = move || {
            state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
            let mut z = state;
            z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
            z ^ (z >> 31)
        };
        let mut h = Harness::new(0);
        let (a, b) = stable_pair(&mut h);
        for _ in 0..20 {
            let member = match next() % 4 {
                0 => a.clone(),
                1 => b.clone(),
                2 => String::new(),
                _ => "ghost".to_string(),
            };
            let generation = (next() % 4) as i32 - 1;
            let txn = next() & 1 == 1;
            let code = if txn {
                // The same commit before and from KIP-1319's v6: accepted alike, and the
                // words only v6 knows never reach an older client.
                let old = h.txn_commit_at(&member, generation, 5, 5);
                let new = h.txn_commit_at(&member, generation, 5, 6);
                assert_eq!(old == 0, new == 0, "seed {seed}: v5 {old}, v6 {new}");
                assert!(
                    old != ErrorCode::StaleMemberEpoch.code()
                        && old != ErrorCode::GroupIdNotFound.code(),
                    "seed {seed}: v5 answered {old}"
                );
                new
            } else {
                h.commit(&member, generation, 5)
            };
            let named = !member.is_empty();
            let current = member == a || member == b;
            if named && code == 0 {
                assert!(
                    current && generation == 1,
                    "seed {seed}: {member} at generation {generation} (txn {txn}) was accepted"
                );
            }
            if !named && !txn {
                assert_ne!(
                    code, 0,
                    "seed {seed}: an anonymous plain commit in a live group"
                );
            }
        }
        assert_eq!(h.heartbeat(&a, None, 1), 0, "seed {seed}");
        assert_eq!(h.heartbeat(&b, None, 1), 0, "seed {seed}");
    }
}

#[test]
fn a_member_whose_session_ends_is_removed_and_the_rest_rebalance() {
    let mut h = Harness::new(0);
    let (a, b) = stable_pair(&mut h);
    // Only a heartbeats; b's session ends.
    for _ in 0..4 {
        h.advance(SESSION as i64 / 3);
        if h.shard.group("g").unwrap().state.name() == "Stable" {
            assert_eq!(h.heartbeat(&a, None, 1), 0);
        }
    }
    assert_eq!(
        h.heartbeat(&a, None, 1),
        ErrorCode::RebalanceInProgress.code()
    );
    assert!(!h.shard.group("g").unwrap().members.contains_key(&b));
    let t = h.join(&a, None, b"m");
    let j = h
        .join_answer(t)
        .expect("the only member rejoined: phase complete");
    assert_eq!((j.generation_id, j.members.len()), (2, 1));
    assert_eq!(h.heartbeat(&b, None, 2), ErrorCode::UnknownMemberId.code());
}

#[test]
fn members_that_do_not_rejoin_in_the_rebalance_timeout_are_removed() {
    let mut h = Harness::new(0);
    let (a, b) = stable_pair(&mut h);
    // A new member starts a rebalance; a rejoins, b keeps heartbeating but never rejoins.
    let (_, tc) = h.new_member();
    let ta = h.join(&a, None, b"m");
    for _ in 0..(REBALANCE / 2_000) {
        h.advance(2_000);
        let _ = h.heartbeat(&b, None, 1);
    }
    h.advance(2_000);
    let (ja, jc) = (
        h.join_answer(ta).unwrap().clone(),
        h.join_answer(tc).unwrap().clone(),
    );
    assert_eq!((ja.generation_id, jc.generation_id), (2, 2));
    assert_eq!(ja.members.len(), 2, "b was removed at the deadline");
    assert_eq!(h.heartbeat(&b, None, 2), ErrorCode::UnknownMemberId.code());
}

#[test]
fn a_leader_that_never_syncs_is_removed_after_the_rebalance_timeout() {
    let mut h = Harness::new(0);
    let a = h.member_id();
    let b = h.member_id();
    let ta = h.join(&a, None, b"m");
    let _ = h.join(&b, None, b"m");
    assert_eq!(h.join_answer(ta).unwrap().generation_id, 1);
    let tb = h.sync(&b, 1, &[]);
    // a heartbeats (its session lives on) but never sends its assignment.
    for _ in 0..(REBALANCE / 5_000 - 1) {
        h.advance(5_000);
        assert_eq!(h.heartbeat(&a, None, 1), 0);
    }
    h.advance(4_999);
    assert!(h.sync_answer(tb).is_none());
    h.advance(2);
    assert_eq!(
        h.sync_answer(tb).unwrap().0,
        ErrorCode::RebalanceInProgress.code(),
        "the follower is told to rejoin"
    );
    let g = h.shard.group("g").unwrap();
    assert!(!g.members.contains_key(&a), "the silent leader is gone");
    assert_eq!(g.state.name(), "PreparingRebalance");
    let t = h.join(&b, None, b"m");
    let j = h.join_answer(t).unwrap();
    assert_eq!((j.generation_id, j.leader.as_str()), (2, b.as_str()));
}

#[test]
fn a_static_member_rejoining_keeps_its_place_and_fences_its_old_id() {
    let mut h = Harness::new(3_000);
    let t1 = h.join("", Some("i1"), b"m");
    let t2 = h.join("", Some("i2"), b"m");
    h.advance(6_001);
    let j1 = h
        .join_answer(t1)
        .expect("joined after the initial delay")
        .clone();
    let j2 = h.join_answer(t2).unwrap().clone();
    assert!(j1.member_id.starts_with("i1-"));
    assert_eq!(j1.generation_id, 1);
    let t = h.sync(
        &j1.member_id,
        1,
        &[(&j1.member_id, b"A"), (&j2.member_id, b"B")],
    );
    assert_eq!(h.sync_answer(t).unwrap().0, 0);
    // i2 restarts: a new member id, same generation, no rebalance.
    let t = h.join("", Some("i2"), b"m");
    let j = h.join_answer(t).unwrap().clone();
    assert_eq!(j.error_code, 0);
    assert_eq!(j.generation_id, 1);
    assert_ne!(j.member_id, j2.member_id);
    assert_eq!(h.shard.group("g").unwrap().state.name(), "Stable");
    assert_eq!(
        h.heartbeat(&j2.member_id, Some("i2"), 1),
        ErrorCode::FencedInstanceId.code()
    );
    assert_eq!(h.heartbeat(&j.member_id, Some("i2"), 1), 0);
    let t = h.sync(&j.member_id, 1, &[]);
    assert_eq!(
        h.sync_answer(t).unwrap(),
        (0, Bytes::from_static(b"B")),
        "the assignment is kept"
    );
    // A static member leaves by instance id.
    let ctx = h.ctx(4);
    let out = h.shard.leave_group(
        &ctx,
        &LeaveGroupRequest {
            group_id: "g".into(),
            members: vec![MemberIdentity {
                member_id: String::new(),
                group_instance_id: Some("i2".into()),
                ..Default::default()
            }],
            ..Default::default()
        },
        h.now,
    );
    h.take(out);
    match &h.replies[&ctx.token] {
        ResponseBody::LeaveGroup(l) => assert_eq!(l.members[0].error_code, 0),
        other => panic!("{other:?}"),
    }
    assert_eq!(
        h.shard.group("g").unwrap().state.name(),
        "PreparingRebalance"
    );
}

#[test]
fn the_first_member_of_a_new_group_waits_the_initial_delay_once() {
    let mut h = Harness::new(3_000);
    // MEMBER_ID_REQUIRED, then the join with that id: the delay starts at the join.
    let (_, t) = h.new_member();
    h.advance(2_999);
    assert!(
        h.join_answer(t).is_none(),
        "answered before the delay ended"
    );
    h.advance(1);
    let j = h
        .join_answer(t)
        .expect("assigned once the delay ended, not twice it");
    assert_eq!((j.error_code, j.generation_id), (0, 1));
    let stats = h.shard.stats();
    assert_eq!(stats.completed_rebalances, 1);
    assert_eq!(stats.by_state.get("CompletingRebalance"), Some(&1));
}

/// A `ConsumerProtocolSubscription` (v1) to `topics`, owning `owned` partitions of the first.
fn subscription(topics: &[&str], owned: &[i32]) -> Vec<u8> {
    use fjord_protocol::generated::consumer_protocol_subscription::{
        ConsumerProtocolSubscription, TopicPartition,
    };
    let s = ConsumerProtocolSubscription {
        topics: topics.iter().map(|t| t.to_string()).collect(),
        owned_partitions: if owned.is_empty() {
            Vec::new()
        } else {
            vec![TopicPartition {
                topic: topics[0].to_string(),
                partitions: owned.to_vec(),
            }]
        },
        ..Default::default()
    };
    fjord_protocol::consumer_protocol::encode_subscription(&s, 1)
        .unwrap()
        .to_vec()
}

/// Two static members in a Stable generation 1 (i1 leads): their join answers.
fn static_pair(h: &mut Harness) -> (String, String) {
    let t1 = h.join_at(5, "", Some("i1"), &subscription(&["t"], &[]));
    let t2 = h.join_at(5, "", Some("i2"), &subscription(&["t"], &[]));
    h.advance(6_001);
    let m1 = h.join_answer(t1).unwrap().member_id.clone();
    let m2 = h.join_answer(t2).unwrap().member_id.clone();
    assert_eq!(h.join_answer(t1).unwrap().leader, m1);
    let t = h.sync(&m1, 1, &[(&m1, b"A"), (&m2, b"B")]);
    assert_eq!(h.sync_answer(t).unwrap().0, 0);
    let t = h.sync(&m2, 1, &[]);
    assert_eq!(h.sync_answer(t).unwrap().0, 0);
    (m1, m2)
}

#[test]
fn a_restarted_static_leader_on_an_old_client_gets_its_assignment_without_a_rebalance() {
    let mut h = Harness::new(3_000);
    let (m1, m2) = static_pair(&mut h);
    // i1 (the leader) restarts: JoinGroup v5 (no skip-assignment), owning nothing now.
    let t = h.join_at(5, "", Some("i1"), &subscription(&["t"], &[]));
    let j = h.join_answer(t).expect("answered at once").clone();
    assert_eq!((j.error_code, j.generation_id), (0, 1));
    assert_ne!(j.member_id, m1);
    assert_eq!(
        j.leader, m1,
        "told of the leader it knew, so it does not assign anew"
    );
    assert!(j.members.is_empty());
    assert_eq!(h.shard.group("g").unwrap().state.name(), "Stable");
    assert_eq!(
        h.heartbeat(&m2, Some("i2"), 1),
        0,
        "the other member sees no rebalance"
    );
    let t = h.sync(&j.member_id, 1, &[]);
    assert_eq!(h.sync_answer(t).unwrap(), (0, Bytes::from_static(b"A")));
    // i2 restarts owning the partitions it had: still no rebalance.
    let t = h.join_at(5, "", Some("i2"), &subscription(&["t"], &[0, 1]));
    assert_eq!(h.join_answer(t).unwrap().error_code, 0);
    assert_eq!(h.shard.group("g").unwrap().state.name(), "Stable");
}

#[test]
fn a_static_member_rejoining_with_other_topics_rebalances() {
    let mut h = Harness::new(3_000);
    let (_, m2) = static_pair(&mut h);
    let t = h.join_at(5, "", Some("i1"), &subscription(&["t", "u"], &[]));
    assert!(h.join_answer(t).is_none(), "waits for the rebalance");
    assert_eq!(
        h.shard.group("g").unwrap().state.name(),
        "PreparingRebalance"
    );
    assert_eq!(
        h.heartbeat(&m2, Some("i2"), 1),
        ErrorCode::RebalanceInProgress.code()
    );
}

#[test]
fn the_initial_delay_waits_for_more_members_then_completes() {
    let mut h = Harness::new(3_000);
    let (_, ta) = h.new_member();
    h.advance(2_000);
    let (_, tb) = h.new_member();
    h.advance(2_000);
    assert!(
        h.join_answer(ta).is_none(),
        "a member arrived: the delay is extended"
    );
    h.advance(3_000);
    let j = h.join_answer(ta).unwrap();
    assert_eq!((j.generation_id, j.members.len()), (1, 2));
    assert!(h.join_answer(tb).is_some());
}

#[test]
fn a_coordinator_move_keeps_groups_and_offsets() {
    let mut h = Harness::new(0);
    let (a, b) = stable_pair(&mut h);
    assert_eq!(h.commit(&a, 1, 99), 0);
    let moved = h.reload();
    let g = moved.group("g").unwrap();
    assert_eq!(g.state.name(), "Stable");
    assert_eq!(g.generation, 1);
    assert_eq!(g.members.len(), 2);
    assert_eq!(g.members[&b].assignment, Bytes::from_static(b"B"));
    assert_eq!(h.committed(&moved), Some(99));
    // The members go on with the new coordinator, and their sessions run there.
    h.shard = moved;
    assert_eq!(h.heartbeat(&b, None, 1), 0);
    h.advance(SESSION as i64 + 1);
    assert_eq!(h.heartbeat(&b, None, 1), ErrorCode::UnknownMemberId.code());
    // Everyone left: the empty group keeps its offsets until they expire.
    let (_, _) = (a, b);
    let g = h.shard.group("g").unwrap();
    assert_eq!(g.state.name(), "Empty");
    assert_eq!(h.committed(&h.shard), Some(99));
    h.advance(8 * 24 * 3600 * 1000);
    assert!(
        h.shard.group("g").is_none(),
        "offsets expired and the group with them"
    );
    assert!(h.reload().group("g").is_none(), "and so after a move");
}

#[test]
fn admin_commits_and_deleting_groups() {
    let mut h = Harness::new(0);
    assert_eq!(
        h.commit("", -1, 5),
        0,
        "an admin commit creates a simple group"
    );
    assert_eq!(h.commit("x", 3, 5), ErrorCode::UnknownMemberId.code());
    let (results, records) = h.shard.delete_groups(&["g".into(), "nope".into()]);
    assert_eq!(results[0].error_code, 0);
    assert_eq!(results[1].error_code, ErrorCode::GroupIdNotFound.code());
    assert_eq!(records.len(), 2, "one offset tombstone and the group's");
    let mut h = Harness::new(0);
    let _ = stable_pair(&mut h);
    let (results, _) = h.shard.delete_groups(&["g".into()]);
    assert_eq!(results[0].error_code, ErrorCode::NonEmptyGroup.code());
}

/// Random clients join, sync, heartbeat, commit, leave and go silent, with time passing; the
/// coordinator sometimes moves (reloaded from its records). Checked: a completed join phase
/// gives every joined member the same, new generation; SyncGroup gives an assignment only
/// for the current generation; no request is answered twice; a committed offset survives
/// moves.
#[test]
fn seeded_histories_keep_kafkas_rules() {
    let (mut assignments, mut generations) = (0, 0);
    for seed in 0..60u64 {
        let (a, g) = run_history(seed);
        assignments += a;
        generations += g;
    }
    // The histories reach the states the checks are about.
    assert!(assignments > 100, "{assignments} assignments handed out");
    assert!(generations > 100, "{generations} generations completed");
}

/// Runs one history; returns the assignments handed out and generations completed.
fn run_history(seed: u64) -> (usize, usize) {
    let mut handed_out = 0;
    let mut completed = 0;
    let mut rng = seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1;
    let mut next = move |n: u64| {
        rng ^= rng << 13;
        rng ^= rng >> 7;
        rng ^= rng << 17;
        rng % n
    };
    let mut h = Harness::new(if seed % 2 == 0 { 0 } else { 3_000 });
    // Each client: its member id, its generation, an unanswered join or sync.
    let mut clients: Vec<(String, i32, Option<Token>, Option<Token>)> =
        vec![(String::new(), -1, None, None); 5];
    let mut last_generation = 0;
    let mut last_commit: Option<i64> = None;
    for step in 0..400 {
        let c = next(5) as usize;
        match next(10) {
            0..=2 if clients[c].2.is_none() => {
                let id = clients[c].0.clone();
                let t = h.join(&id, None, b"m");
                clients[c].2 = Some(t);
            }
            3 | 4 => {
                if let Some((id, generation, None, _)) = clients.get(c).cloned() {
                    if !id.is_empty() && generation > 0 {
                        let assign: Vec<(String, Vec<u8>)> = h
                            .shard
                            .group("g")
                            .map(|g| {
                                g.members
                                    .keys()
                                    .map(|m| (m.clone(), m.as_bytes().to_vec()))
                                    .collect()
                            })
                            .unwrap_or_default();
                        let refs: Vec<(&str, &[u8])> = assign
                            .iter()
                            .map(|(m, a)| (m.as_str(), a.as_slice()))
                            .collect();
                        let t = h.sync(&id, generation, &refs);
                        clients[c].3 = Some(t);
                    }
                }
            }
            5 | 6 => {
                let (id, generation, _, _) = clients[c].clone();
                if !id.is_empty() && clients[c].2.is_none() {
                    let _ = h.heartbeat(&id, None, generation);
                }
            }
            7 => {
                let (id, generation, _, _) = clients[c].clone();
                let offset = step as i64;
                if h.commit(&id, generation, offset) == 0 {
                    last_commit = Some(offset);
                }
            }
            8 => h.advance(next(15_000) as i64),
            _ => {
                if next(4) == 0 {
                    // The coordinator moves: waiting requests are lost (the driver answers
                    // them NOT_COORDINATOR) and clients rejoin.
                    h.shard = h.reload();
                    for cl in clients.iter_mut() {
                        cl.2 = None;
                        cl.3 = None;
                    }
                    assert_eq!(
                        h.committed(&h.shard),
                        last_commit,
                        "seed {seed}: offsets survive a move"
                    );
                    // A generation whose assignment was never persisted is forgotten with
                    // the move, as in Kafka: count from the persisted one.
                    last_generation = h.shard.group("g").map_or(0, |g| g.generation);
                }
            }
        }
        // Collect answers.
        let mut generations = Vec::new();
        for cl in clients.iter_mut() {
            if let Some(t) = cl.2 {
                if let Some(j) = h.join_answer(t).cloned() {
                    cl.2 = None;
                    if j.error_code == 0 {
                        cl.0 = j.member_id.clone();
                        cl.1 = j.generation_id;
                        generations.push(j.generation_id);
                    } else if j.error_code == ErrorCode::MemberIdRequired.code() {
                        cl.0 = j.member_id.clone();
                    } else {
                        cl.0 = String::new();
                        cl.1 = -1;
                    }
                }
            }
            if let Some(t) = cl.3 {
                if let Some((code, assignment)) = h.sync_answer(t) {
                    cl.3 = None;
                    if code == 0 {
                        let g = h.shard.group("g").unwrap();
                        assert_eq!(
                            cl.1, g.generation,
                            "seed {seed}: an assignment only for the current generation"
                        );
                        assert_eq!(
                            assignment,
                            Bytes::from(cl.0.clone().into_bytes()),
                            "seed {seed}"
                        );
                        handed_out += 1;
                    }
                }
            }
        }
        generations.sort();
        generations.dedup();
        assert!(
            generations.len() <= 1,
            "seed {seed}: one generation per completed join phase: {generations:?}"
        );
        if let Some(g) = generations.first() {
            assert!(*g >= last_generation, "seed {seed}: generations only grow");
            if *g > last_generation {
                completed += 1;
            }
            last_generation = *g;
        }
    }
    (handed_out, completed)
}

#[test]
fn offsets_of_a_deleted_topic_are_removed_and_stay_removed_after_a_move() {
    let mut h = Harness::new(0);
    assert_eq!(h.commit("", -1, 5), 0);
    let out = h
        .shard
        .topics_deleted(&["t".to_string()].into_iter().collect());
    assert_eq!(out.records.len(), 1, "one tombstone");
    h.take(out);
    assert_eq!(h.committed(&h.shard), None);
    assert_eq!(h.committed(&h.reload()), None);
    // Other topics' offsets are untouched.
    assert_eq!(h.commit("", -1, 6), 0);
    let out = h
        .shard
        .topics_deleted(&["other".to_string()].into_iter().collect());
    assert!(out.records.is_empty());
    assert_eq!(h.committed(&h.shard), Some(6));
}
