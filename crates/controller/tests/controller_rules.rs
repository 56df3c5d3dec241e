//! Table-driven controller tests over an in-memory quorum (a batch commits as soon as the
//! controller hands it over), in the manner of Kafka's ReplicationControlManagerTest: ISR and
//! ELR transitions, fencing, every ElectLeaders type and every designated-election rejection,
//! the 1000-partition limit, UnregisterController's error paths and success, a stale
//! controller registration blocking a metadata.version upgrade until it is unregistered, the
//! validations of CreateTopics and AlterPartition, and a seeded crash-and-return history
//! checked against a model of KIP-966's election rule.

use fjord_controller::controller::{
    METADATA_VERSION_LATEST, METADATA_VERSION_UNREGISTER_CONTROLLER,
};
use fjord_controller::{not_controller, Controller, ControllerSettings, Handled};
use fjord_metadata::{LeaderRecoveryState, MetadataImage, PartitionRegistration};
use fjord_protocol::generated::*;
use fjord_protocol::{ErrorCode, MetadataRecord, RequestBody, ResponseBody, Uuid};

const TIMEOUT: i64 = 9_000;

struct Harness {
    c: Controller,
    now: i64,
    offset: i64,
    /// Every batch handed over, in order.
    batches: Vec<Vec<MetadataRecord>>,
    /// The next registration says the broker shut down uncleanly.
    crashed: bool,
}

fn ok(code: i16) -> bool {
    code == 0
}

impl Harness {
    fn new() -> Harness {
        let settings = ControllerSettings {
            node_id: 1,
            broker_session_timeout_ms: TIMEOUT,
            ..ControllerSettings::default()
        };
        let mut h = Harness {
            c: Controller::new(settings, "cluster".into(), MetadataImage::empty(), 0),
            now: 0,
            offset: 100,
            batches: Vec::new(),
            crashed: false,
        };
        // As a formatted cluster starts: metadata.version and eligible.leader.replicas.version
        // (the one bootstrapped feature these rules depend on).
        let level = |name: &str, feature_level| {
            MetadataRecord::FeatureLevel(feature_level_record::FeatureLevelRecord {
                name: name.into(),
                feature_level,
                ..Default::default()
            })
        };
        h.write(vec![
            level("metadata.version", METADATA_VERSION_UNREGISTER_CONTROLLER),
            level(fjord_metadata::version::ELR_VERSION, 1),
        ]);
        h
    }

    /// Appends and commits a batch the test makes up.
    fn write(&mut self, records: Vec<MetadataRecord>) {
        self.c.apply(&records).unwrap();
        self.offset += records.len() as i64;
        self.batches.push(records);
    }

    fn req(&mut self, body: RequestBody, version: i16) -> ResponseBody {
        match self.c.handle(&body, version, self.now) {
            Handled::Reply(r) => r,
            Handled::Write { records, response } => {
                self.offset += records.len() as i64;
                self.batches.push(records);
                response
            }
            Handled::Register(plan) => {
                let at = self.offset;
                let records = self.c.registered(&plan, at).unwrap();
                self.offset += records.len() as i64;
                self.batches.push(records);
                plan.response(at)
            }
            Handled::UpgradeKraft { .. } => {
                panic!("the quorum moves kraft.version, not these rules")
            }
            Handled::Refuse { .. } => panic!("handle answers refusals with a response itself"),
        }
    }

    fn register(&mut self, id: i32, rack: Option<&str>, max_mv: i16) -> i64 {
        self.register_with_dirs(id, rack, max_mv, vec![Uuid::from_u128(id as u128 + 50)])
    }

    /// Registers `id` again after an unclean shutdown: its previous broker epoch is unknown.
    fn register_after_crash(&mut self, id: i32) -> i64 {
        self.crashed = true;
        let epoch = self.register(id, None, METADATA_VERSION_LATEST);
        self.crashed = false;
        epoch
    }

    fn register_with_dirs(
        &mut self,
        id: i32,
        rack: Option<&str>,
        max_mv: i16,
        log_dirs: Vec<Uuid>,
    ) -> i64 {
        let crashed = self.crashed;
        let r = self.req(
            RequestBody::BrokerRegistration(
                broker_registration_request::BrokerRegistrationRequest {
                    broker_id: id,
                    cluster_id: "cluster".into(),
                    incarnation_id: Uuid::from_u128(id as u128 + 1000 * self.offset as u128),
                    listeners: vec![broker_registration_request::Listener {
                        name: "PLAINTEXT".into(),
                        host: "127.0.0.1".into(),
                        port: 9000 + id as u16,
                        ..Default::default()
                    }],
                    features: vec![
                        broker_registration_request::Feature {
                            name: "metadata.version".into(),
                            min_supported_version: 7,
                            max_supported_version: max_mv,
                            ..Default::default()
                        },
                        broker_registration_request::Feature {
                            name: fjord_metadata::version::ELR_VERSION.into(),
                            min_supported_version: 0,
                            max_supported_version: 1,
                            ..Default::default()
                        },
                    ],
                    rack: rack.map(str::to_string),
                    log_dirs,
                    previous_broker_epoch: self
                        .c
                        .image()
                        .cluster
                        .brokers
                        .get(&id)
                        .filter(|_| !crashed)
                        .map_or(-1, |b| b.epoch),
                    ..Default::default()
                },
            ),
            4,
        );
        let ResponseBody::BrokerRegistration(r) = r else {
            panic!()
        };
        assert!(ok(r.error_code), "register {id}: {}", r.error_code);
        r.broker_epoch
    }

    fn heartbeat(
        &mut self,
        id: i32,
        want_shut_down: bool,
    ) -> broker_heartbeat_response::BrokerHeartbeatResponse {
        let epoch = self.c.image().cluster.brokers[&id].epoch;
        let r = self.req(
            RequestBody::BrokerHeartbeat(broker_heartbeat_request::BrokerHeartbeatRequest {
                broker_id: id,
                broker_epoch: epoch,
                current_metadata_offset: self.offset,
                want_shut_down,
                ..Default::default()
            }),
            1,
        );
        let ResponseBody::BrokerHeartbeat(r) = r else {
            panic!()
        };
        r
    }

    /// Brokers 1..=n registered and unfenced (racks a, b, c in turn).
    fn with_brokers(n: i32) -> Harness {
        let mut h = Harness::new();
        for id in 1..=n {
            let rack = ["a", "b", "c"][(id as usize - 1) % 3];
            h.register(id, Some(rack), METADATA_VERSION_LATEST);
            let hb = h.heartbeat(id, false);
            assert!(!hb.is_fenced, "broker {id} unfenced");
        }
        h
    }

    /// Fences `id` by letting its session expire while the others heartbeat.
    fn expire(&mut self, id: i32) {
        self.now += TIMEOUT + 1;
        let others: Vec<i32> = self
            .c
            .image()
            .cluster
            .brokers
            .values()
            .filter(|b| b.id != id && !b.fenced)
            .map(|b| b.id)
            .collect();
        for o in others {
            self.heartbeat(o, false);
        }
        let records = self.c.tick(self.now);
        self.offset += records.len() as i64;
        self.batches.push(records);
        assert!(
            self.c.image().cluster.brokers[&id].fenced,
            "broker {id} fenced"
        );
    }

    fn create(
        &mut self,
        name: &str,
        partitions: i32,
        rf: i16,
        configs: &[(&str, &str)],
    ) -> create_topics_response::CreatableTopicResult {
        let r = self.req(
            RequestBody::CreateTopics(create_topics_request::CreateTopicsRequest {
                topics: vec![create_topics_request::CreatableTopic {
                    name: name.into(),
                    num_partitions: partitions,
                    replication_factor: rf,
                    configs: configs
                        .iter()
                        .map(|(k, v)| create_topics_request::CreatableTopicConfig {
                            name: k.to_string(),
                            value: Some(v.to_string()),
                            ..Default::default()
                        })
                        .collect(),
                    ..Default::default()
                }],
                ..Default::default()
            }),
            7,
        );
        let ResponseBody::CreateTopics(mut r) = r else {
            panic!()
        };
        r.topics.remove(0)
    }

    fn create_assigned(&mut self, name: &str, assignment: &[&[i32]], configs: &[(&str, &str)]) {
        let r = self.req(
            RequestBody::CreateTopics(create_topics_request::CreateTopicsRequest {
                topics: vec![create_topics_request::CreatableTopic {
                    name: name.into(),
                    num_partitions: -1,
                    replication_factor: -1,
                    assignments: assignment
                        .iter()
                        .enumerate()
                        .map(|(i, b)| create_topics_request::CreatableReplicaAssignment {
                            partition_index: i as i32,
                            broker_ids: b.to_vec(),
                            ..Default::default()
                        })
                        .collect(),
                    configs: configs
                        .iter()
                        .map(|(k, v)| create_topics_request::CreatableTopicConfig {
                            name: k.to_string(),
                            value: Some(v.to_string()),
                            ..Default::default()
                        })
                        .collect(),
                    ..Default::default()
                }],
                ..Default::default()
            }),
            7,
        );
        let ResponseBody::CreateTopics(r) = r else {
            panic!()
        };
        assert!(
            ok(r.topics[0].error_code),
            "{:?}",
            r.topics[0].error_message
        );
    }

    fn partition(&self, topic: &str, p: i32) -> PartitionRegistration {
        self.c.image().topics.get_by_name(topic).unwrap().partitions[&p].clone()
    }

    fn elect(
        &mut self,
        kind: i8,
        version: i16,
        topic: &str,
        partitions: &[i32],
        designated: Option<&[i32]>,
    ) -> Vec<(i32, i16, Option<String>)> {
        let r = self.req(
            RequestBody::ElectLeaders(elect_leaders_request::ElectLeadersRequest {
                election_type: kind,
                topic_partitions: Some(vec![elect_leaders_request::TopicPartitions {
                    topic: topic.into(),
                    partitions: partitions.to_vec(),
                    designated_leaders: designated.map(<[i32]>::to_vec),
                    ..Default::default()
                }]),
                timeout_ms: 1000,
                ..Default::default()
            }),
            version,
        );
        let ResponseBody::ElectLeaders(r) = r else {
            panic!()
        };
        if r.error_code != 0 {
            return partitions
                .iter()
                .map(|p| (*p, r.error_code, None))
                .collect();
        }
        r.replica_election_results
            .into_iter()
            .flat_map(|t| t.partition_result)
            .map(|p| (p.partition_id, p.error_code, p.error_message))
            .collect()
    }

    /// ElectLeaders of `kind` with TopicPartitions null (every partition).
    fn elect_all(&mut self, kind: i8, version: i16) -> Vec<(i32, i16)> {
        let r = self.req(
            RequestBody::ElectLeaders(elect_leaders_request::ElectLeadersRequest {
                election_type: kind,
                topic_partitions: None,
                timeout_ms: 1000,
                ..Default::default()
            }),
            version,
        );
        let ResponseBody::ElectLeaders(r) = r else {
            panic!()
        };
        r.replica_election_results
            .into_iter()
            .flat_map(|t| t.partition_result)
            .map(|p| (p.partition_id, p.error_code))
            .collect()
    }
}

#[test]
fn registration_fencing_and_unfencing() {
    let mut h = Harness::new();
    let epoch = h.register(1, None, METADATA_VERSION_LATEST);
    assert!(
        h.c.image().cluster.brokers[&1].fenced,
        "a new broker starts fenced"
    );
    assert_eq!(
        h.c.image().cluster.brokers[&1].epoch,
        epoch,
        "its epoch is its record's offset"
    );
    // A heartbeat from a broker behind its own registration keeps it fenced.
    let behind = h.req(
        RequestBody::BrokerHeartbeat(broker_heartbeat_request::BrokerHeartbeatRequest {
            broker_id: 1,
            broker_epoch: epoch,
            current_metadata_offset: epoch - 1,
            ..Default::default()
        }),
        1,
    );
    let ResponseBody::BrokerHeartbeat(b) = behind else {
        panic!()
    };
    assert!(b.is_fenced && !b.is_caught_up);
    let hb = h.heartbeat(1, false);
    assert!(!hb.is_fenced && hb.is_caught_up);
    // Wrong epoch, unknown broker.
    let stale = h.req(
        RequestBody::BrokerHeartbeat(broker_heartbeat_request::BrokerHeartbeatRequest {
            broker_id: 1,
            broker_epoch: epoch + 7,
            ..Default::default()
        }),
        1,
    );
    let ResponseBody::BrokerHeartbeat(s) = stale else {
        panic!()
    };
    assert_eq!(s.error_code, ErrorCode::StaleBrokerEpoch.code());
    let unknown = h.req(
        RequestBody::BrokerHeartbeat(broker_heartbeat_request::BrokerHeartbeatRequest {
            broker_id: 9,
            ..Default::default()
        }),
        1,
    );
    let ResponseBody::BrokerHeartbeat(u) = unknown else {
        panic!()
    };
    assert_eq!(u.error_code, ErrorCode::BrokerIdNotRegistered.code());
    // Another process claiming a live broker's id is refused.
    let dup = h.req(
        RequestBody::BrokerRegistration(broker_registration_request::BrokerRegistrationRequest {
            broker_id: 1,
            cluster_id: "cluster".into(),
            incarnation_id: Uuid::from_u128(77),
            features: vec![
                broker_registration_request::Feature {
                    name: "metadata.version".into(),
                    min_supported_version: 7,
                    max_supported_version: METADATA_VERSION_LATEST,
                    ..Default::default()
                },
                broker_registration_request::Feature {
                    name: fjord_metadata::version::ELR_VERSION.into(),
                    min_supported_version: 0,
                    max_supported_version: 1,
                    ..Default::default()
                },
            ],
            ..Default::default()
        }),
        4,
    );
    let ResponseBody::BrokerRegistration(d) = dup else {
        panic!()
    };
    assert_eq!(d.error_code, ErrorCode::DuplicateBrokerRegistration.code());
    // The wrong cluster, and a broker that cannot run the cluster's metadata.version.
    let wrong = h.req(
        RequestBody::BrokerRegistration(broker_registration_request::BrokerRegistrationRequest {
            broker_id: 2,
            cluster_id: "other".into(),
            ..Default::default()
        }),
        4,
    );
    let ResponseBody::BrokerRegistration(w) = wrong else {
        panic!()
    };
    assert_eq!(w.error_code, ErrorCode::InconsistentClusterId.code());
    let old = h.req(
        RequestBody::BrokerRegistration(broker_registration_request::BrokerRegistrationRequest {
            broker_id: 2,
            cluster_id: "cluster".into(),
            features: vec![broker_registration_request::Feature {
                name: "metadata.version".into(),
                min_supported_version: 7,
                max_supported_version: 10,
                ..Default::default()
            }],
            ..Default::default()
        }),
        4,
    );
    let ResponseBody::BrokerRegistration(o) = old else {
        panic!()
    };
    assert_eq!(o.error_code, ErrorCode::UnsupportedVersion.code());
}

#[test]
fn registration_needs_every_finalized_feature() {
    let mut h = Harness::new();
    // Every finalized feature counts, not only metadata.version: with transaction.version 2
    // finalized, a broker that does not name it (so runs only level 0) is refused, and one
    // that runs it registers.
    h.write(vec![MetadataRecord::FeatureLevel(
        feature_level_record::FeatureLevelRecord {
            name: "transaction.version".into(),
            feature_level: 2,
            ..Default::default()
        },
    )]);
    let offering = |features: Vec<(&str, i16, i16)>| {
        RequestBody::BrokerRegistration(broker_registration_request::BrokerRegistrationRequest {
            broker_id: 3,
            cluster_id: "cluster".into(),
            incarnation_id: Uuid::from_u128(33),
            features: features
                .into_iter()
                .map(|(name, min, max)| broker_registration_request::Feature {
                    name: name.into(),
                    min_supported_version: min,
                    max_supported_version: max,
                    ..Default::default()
                })
                .collect(),
            ..Default::default()
        })
    };
    let mv = fjord_metadata::version::METADATA_VERSION_LATEST;
    for (features, code) in [
        (
            vec![("metadata.version", 7, mv)],
            ErrorCode::UnsupportedVersion,
        ),
        (
            vec![("metadata.version", 7, mv), ("transaction.version", 0, 1)],
            ErrorCode::UnsupportedVersion,
        ),
        (
            vec![("metadata.version", 7, mv), ("transaction.version", 0, 2)],
            ErrorCode::UnsupportedVersion,
        ),
        (
            vec![
                ("metadata.version", 7, mv),
                ("transaction.version", 0, 2),
                (fjord_metadata::version::ELR_VERSION, 0, 1),
            ],
            ErrorCode::None,
        ),
    ] {
        let ResponseBody::BrokerRegistration(r) = h.req(offering(features.clone()), 4) else {
            panic!()
        };
        assert_eq!(r.error_code, code.code(), "{features:?}");
    }
}

#[test]
fn a_fenced_leader_loses_its_partitions_and_the_isr_shrinks_into_the_elr() {
    // Table: (min.insync.replicas, brokers fenced in order, expected leader, ISR, ELR, online).
    type Case<'a> = (&'a str, &'a [i32], i32, &'a [i32], &'a [i32]);
    let cases: &[Case] = &[
        ("1", &[1], 2, &[2, 3], &[]),
        ("2", &[1], 2, &[2, 3], &[]),
        ("2", &[1, 2], 3, &[3], &[2]),
        ("2", &[1, 2, 3], -1, &[], &[2, 3]),
        ("3", &[1], 2, &[2, 3], &[1]),
        ("1", &[1, 2, 3], -1, &[], &[3]),
    ];
    for (min_isr, fenced, leader, isr, elr) in cases {
        let mut h = Harness::with_brokers(3);
        h.create_assigned("t", &[&[1, 2, 3]], &[("min.insync.replicas", min_isr)]);
        assert_eq!(h.partition("t", 0).leader, 1);
        for b in *fenced {
            h.expire(*b);
        }
        let p = h.partition("t", 0);
        assert_eq!(
            (p.leader, p.isr.as_slice(), p.elr.as_slice()),
            (*leader, *isr, *elr),
            "min.insync.replicas={min_isr}, fenced {fenced:?}"
        );
        assert_eq!(p.leader_recovery_state, LeaderRecoveryState::Recovered);
    }
}

#[test]
fn below_the_elr_level_the_isr_never_empties_and_no_elr_is_written() {
    let mut h = Harness::new();
    // A cluster whose finalized metadata.version predates KIP-966's ELR.
    h.write(vec![MetadataRecord::FeatureLevel(
        feature_level_record::FeatureLevelRecord {
            name: "metadata.version".into(),
            feature_level: 22,
            ..Default::default()
        },
    )]);
    for id in 1..=3 {
        h.register(id, None, METADATA_VERSION_LATEST);
        assert!(!h.heartbeat(id, false).is_fenced);
    }
    h.create_assigned("t", &[&[1, 2, 3]], &[("min.insync.replicas", "2")]);
    for b in [1, 2, 3] {
        h.expire(b);
    }
    let p = h.partition("t", 0);
    assert_eq!(p.leader, -1);
    assert_eq!(p.isr, vec![3], "the last ISR member stays");
    assert!(
        p.elr.is_empty() && p.last_known_elr.is_empty(),
        "no ELR at level 22"
    );
    // Every record written carried nothing level 22 cannot.
    let mv = fjord_metadata::version::MetadataVersion(22);
    for batch in &h.batches {
        for r in batch {
            assert_eq!(
                mv.downgrade(r).as_ref(),
                r,
                "a record level 22 cannot carry: {r:?}"
            );
        }
    }
    // The last ISR member returns and leads cleanly.
    h.register(3, None, METADATA_VERSION_LATEST);
    h.heartbeat(3, false);
    assert_eq!(h.partition("t", 0).leader, 3);
}

#[test]
fn turning_elr_off_gives_an_empty_isr_its_eligible_members_and_keeps_later_isrs_from_emptying() {
    let mut h = Harness::with_brokers(3);
    h.create_assigned("t", &[&[1, 2, 3]], &[("min.insync.replicas", "2")]);
    for b in [1, 2, 3] {
        h.expire(b);
    }
    let p = h.partition("t", 0);
    assert_eq!((p.leader, p.elr.clone()), (-1, vec![2, 3]));
    assert!(p.isr.len() < 2, "the ISR shrank below min.insync.replicas");
    // Dependencies and refusals as Kafka 4.4 words them.
    let (code, message) = update_feature(&mut h, "no.such.version", 1, 1);
    assert_eq!(code, ErrorCode::InvalidUpdateVersion.code());
    assert!(
        message
            .unwrap()
            .ends_with("Local controller 1 does not support this feature."),
        "unknown feature"
    );
    let (code, message) = update_feature(&mut h, "kraft.version", 0, 2);
    assert_eq!(code, 0, "kraft.version stays 0: {message:?}");
    // Off: the ELR is cleared and its members are the ISR again, so one leads cleanly.
    let (code, message) = update_feature(&mut h, fjord_metadata::version::ELR_VERSION, 0, 2);
    assert_eq!(code, 0, "{message:?}");
    let p = h.partition("t", 0);
    assert!(p.elr.is_empty() && p.last_known_elr.is_empty(), "{p:?}");
    assert!(p.isr.contains(&2) && p.isr.contains(&3), "{p:?}");
    h.register(2, None, METADATA_VERSION_LATEST);
    h.heartbeat(2, false);
    assert_eq!(h.partition("t", 0).leader, 2);
    // From now on the last ISR member stays, as below KIP-966's level.
    h.register(1, None, METADATA_VERSION_LATEST);
    h.heartbeat(1, false);
    h.register(3, None, METADATA_VERSION_LATEST);
    h.heartbeat(3, false);
    h.create_assigned("u", &[&[1, 2, 3]], &[("min.insync.replicas", "2")]);
    for b in [1, 2, 3] {
        h.expire(b);
    }
    let u = h.partition("u", 0);
    assert_eq!((u.leader, u.isr.len()), (-1, 1), "{u:?}");
    assert!(u.elr.is_empty());
}

#[test]
fn an_elr_member_leads_again_when_it_returns_and_unclean_needs_permission() {
    let mut h = Harness::with_brokers(3);
    h.create_assigned("t", &[&[1, 2, 3]], &[("min.insync.replicas", "2")]);
    for b in [1, 2, 3] {
        h.expire(b);
    }
    let p = h.partition("t", 0);
    assert_eq!(
        (p.leader, p.elr.clone()),
        (-1, vec![2, 3]),
        "offline, two in the ELR"
    );
    // Broker 1 (not in the ELR) returns: it may not lead without unclean election.
    h.register(1, Some("a"), METADATA_VERSION_LATEST);
    h.heartbeat(1, false);
    assert_eq!(
        h.partition("t", 0).leader,
        -1,
        "broker 1 is neither in the ISR nor the ELR"
    );
    // Broker 3 (in the ELR, clean restart) returns and is elected from the ELR.
    let before = h.partition("t", 0);
    h.register(3, Some("c"), METADATA_VERSION_LATEST);
    h.heartbeat(3, false);
    let p = h.partition("t", 0);
    assert_eq!((p.leader, p.isr.clone()), (3, vec![3]));
    assert!(p.leader_epoch > before.leader_epoch);
    assert_eq!(h.c.counters.elr_elections, 1);

    // Unclean election enabled on the topic: a replica outside ISR and ELR may lead.
    let mut h = Harness::with_brokers(2);
    h.create_assigned(
        "u",
        &[&[1, 2]],
        &[("unclean.leader.election.enable", "true")],
    );
    h.expire(1);
    h.expire(2);
    assert_eq!(h.partition("u", 0).leader, -1);
    // Broker 1 returns after an unclean shutdown (its previous epoch is unknown).
    h.register(1, Some("a"), METADATA_VERSION_LATEST);
    h.heartbeat(1, false);
    let p = h.partition("u", 0);
    assert_eq!(p.leader, 1, "elected uncleanly once it is back");
    assert_eq!(p.leader_recovery_state, LeaderRecoveryState::Recovering);
    assert!(h.c.counters.unclean_elections >= 1);
}

#[test]
fn a_single_replica_leads_again_after_a_crash_and_larger_sets_wait_for_recovery() {
    // One broker, replication factor 1, min.insync.replicas 1 (a single node killed with
    // SIGKILL): its fence empties the ISR into the ELR, its unclean re-registration moves it
    // to the last known ELR, and once unfenced it leads again (Kafka's last-known-leader
    // election), RECOVERING and counted as unclean. Without it the node's every partition
    // stays offline after a crash.
    let mut h = Harness::with_brokers(1);
    h.create_assigned("t", &[&[1]], &[]);
    h.expire(1);
    let p = h.partition("t", 0);
    assert_eq!(
        (p.leader, p.isr.clone(), p.elr.clone()),
        (-1, vec![], vec![1])
    );
    h.register_after_crash(1);
    let p = h.partition("t", 0);
    assert_eq!((p.elr.clone(), p.last_known_elr.clone()), (vec![], vec![1]));
    assert_eq!(p.leader, -1, "fenced until its first heartbeat");
    let unclean_before = h.c.counters.unclean_elections;
    assert!(!h.heartbeat(1, false).is_fenced);
    let p = h.partition("t", 0);
    assert_eq!((p.leader, p.isr.clone()), (1, vec![1]));
    assert!(p.elr.is_empty() && p.last_known_elr.is_empty());
    assert_eq!(p.leader_recovery_state, LeaderRecoveryState::Recovering);
    assert_eq!(h.c.counters.unclean_elections, unclean_before + 1);

    // Three replicas, min ISR 2, all killed: the ELR holds 2 and 3. Broker 2 comes back after
    // a crash (last known ELR [2]) while 3, still in the ELR, is down: the controller waits for
    // 3, a clean choice.
    let mut h = Harness::with_brokers(3);
    h.create_assigned("t", &[&[1, 2, 3]], &[("min.insync.replicas", "2")]);
    for b in [1, 2, 3] {
        h.expire(b);
    }
    h.register_after_crash(2);
    h.heartbeat(2, false);
    let p = h.partition("t", 0);
    assert_eq!(
        (p.leader, p.elr.clone(), p.last_known_elr.clone()),
        (-1, vec![3], vec![2]),
        "an ELR member may still return cleanly"
    );
    // Broker 3 crashed too: two last known ELR members, no automatic choice between them
    // (kafka-unclean-recovery compares their logs).
    h.register_after_crash(3);
    h.heartbeat(3, false);
    let p = h.partition("t", 0);
    assert_eq!((p.leader, p.elr.clone()), (-1, vec![]));
    let mut lke = p.last_known_elr.clone();
    lke.sort();
    assert_eq!(lke, vec![2, 3]);
    // Broker 1 (never eligible) does not change that.
    h.register_after_crash(1);
    h.heartbeat(1, false);
    assert_eq!(h.partition("t", 0).leader, -1);

    // Three replicas, min ISR 1: the last in-sync replica crashed alone in the last known ELR.
    // Kafka's controller elects it on its return; fjord leaves the choice to
    // kafka-unclean-recovery, since another replica may hold what it lost.
    let mut h = Harness::with_brokers(3);
    h.create_assigned("t", &[&[1, 2, 3]], &[]);
    for b in [3, 2, 1] {
        h.expire(b);
    }
    h.register_after_crash(1);
    h.heartbeat(1, false);
    let p = h.partition("t", 0);
    assert_eq!((p.leader, p.last_known_elr.clone()), (-1, vec![1]));
}

#[test]
fn controlled_shutdown_moves_leadership_away_first() {
    let mut h = Harness::with_brokers(3);
    h.create_assigned("t", &[&[1, 2, 3], &[1, 3, 2]], &[]);
    let r = h.heartbeat(1, true);
    assert!(r.should_shut_down, "it leads nothing any more");
    assert!(h.c.image().cluster.brokers[&1].fenced);
    assert_eq!(h.partition("t", 0).leader, 2);
    assert_eq!(h.partition("t", 1).leader, 3);
    assert!(!h.partition("t", 0).isr.contains(&1));
}

#[test]
fn preferred_and_unclean_elections() {
    let mut h = Harness::with_brokers(3);
    h.create_assigned("t", &[&[1, 2, 3]], &[]);
    let r = h.elect(0, 2, "t", &[0], None);
    assert_eq!(
        r[0].1,
        ErrorCode::ElectionNotNeeded.code(),
        "already the preferred leader"
    );
    h.expire(1);
    assert_eq!(h.partition("t", 0).leader, 2);
    let r = h.elect(0, 2, "t", &[0], None);
    assert_eq!(
        r[0].1,
        ErrorCode::PreferredLeaderNotAvailable.code(),
        "broker 1 is fenced"
    );
    h.register(1, Some("a"), METADATA_VERSION_LATEST);
    h.heartbeat(1, false);
    // Back, but not in the ISR until the leader adds it.
    let p = h.partition("t", 0);
    let r = h.req(
        RequestBody::AlterPartition(alter_partition_request::AlterPartitionRequest {
            broker_id: 2,
            broker_epoch: h.c.image().cluster.brokers[&2].epoch,
            topics: vec![alter_partition_request::TopicData {
                topic_id: h.c.image().topics.by_name["t"],
                partitions: vec![alter_partition_request::PartitionData {
                    partition_index: 0,
                    leader_epoch: p.leader_epoch,
                    partition_epoch: p.partition_epoch,
                    new_isr_with_epochs: [2, 3, 1]
                        .iter()
                        .map(|b| alter_partition_request::BrokerState {
                            broker_id: *b,
                            broker_epoch: h.c.image().cluster.brokers[b].epoch,
                            ..Default::default()
                        })
                        .collect(),
                    leader_recovery_state: 0,
                    ..Default::default()
                }],
                ..Default::default()
            }],
            ..Default::default()
        }),
        3,
    );
    let ResponseBody::AlterPartition(a) = r else {
        panic!()
    };
    assert!(ok(a.topics[0].partitions[0].error_code));
    assert_eq!(a.topics[0].partitions[0].isr, vec![2, 3, 1]);
    let r = h.elect(0, 2, "t", &[0], None);
    assert!(ok(r[0].1));
    assert_eq!(h.partition("t", 0).leader, 1);

    // UNCLEAN: not needed with a leader; chooses any live replica for an offline partition.
    let r = h.elect(1, 2, "t", &[0], None);
    assert_eq!(r[0].1, ErrorCode::ElectionNotNeeded.code());
    let mut h = Harness::with_brokers(2);
    h.create_assigned("t", &[&[1, 2]], &[]);
    h.expire(1);
    h.expire(2);
    h.register(1, Some("a"), METADATA_VERSION_LATEST);
    h.heartbeat(1, false);
    assert_eq!(
        h.partition("t", 0).leader,
        -1,
        "unclean election is off for the topic"
    );
    let r = h.elect(1, 2, "t", &[0], None);
    assert!(ok(r[0].1), "{:?}", r[0].2);
    let p = h.partition("t", 0);
    assert_eq!(
        (p.leader, p.isr.clone(), p.leader_recovery_state),
        (1, vec![1], LeaderRecoveryState::Recovering)
    );
    let r = h.elect(1, 2, "t", &[5], None);
    assert_eq!(r[0].1, ErrorCode::UnknownTopicOrPartition.code());
}

/// An offline partition of topic `t` on brokers 1..=3 (all fenced, then 2 and 3 back), and
/// broker 4 registered and unfenced but not a replica.
fn offline() -> Harness {
    let mut h = Harness::with_brokers(4);
    h.create_assigned("t", &[&[1, 2, 3], &[1, 2, 3]], &[]);
    for b in [1, 2, 3] {
        h.expire(b);
    }
    // Broker 2 comes back; broker 3 stays fenced; broker 1 stays fenced too.
    h.register(2, Some("b"), METADATA_VERSION_LATEST);
    h.heartbeat(2, false);
    // Broker 3, the last ISR member, went into the ELR; it is still fenced, and broker 2 is in
    // neither the ISR nor the ELR: the partition stays offline.
    assert_eq!(h.partition("t", 0).leader, -1);
    h
}

#[test]
fn designated_elections_follow_the_extension_rules() {
    // Version and shape checks.
    let mut h = offline();
    let r = h.elect(2, 2, "t", &[0], Some(&[2]));
    assert_eq!(
        r[0].1,
        ErrorCode::InvalidRequest.code(),
        "DESIGNATED needs v3"
    );
    let r = h.elect(2, 3, "t", &[0, 1], None);
    assert!(
        r.iter().all(|x| x.1 == ErrorCode::InvalidRequest.code()),
        "null DesignatedLeaders"
    );
    let r = h.elect(2, 3, "t", &[0, 1], Some(&[2]));
    assert!(
        r.iter().all(|x| x.1 == ErrorCode::InvalidRequest.code()),
        "one per partition"
    );

    // Rejections, each naming its reason; nothing changes.
    let table: &[(i32, ErrorCode, &str)] = &[
        (4, ErrorCode::IneligibleReplica, "not a replica"),
        (1, ErrorCode::IneligibleReplica, "fenced"),
        (9, ErrorCode::IneligibleReplica, "not a replica"),
    ];
    for (designated, code, why) in table {
        let before = h.partition("t", 0);
        let r = h.elect(2, 3, "t", &[0], Some(&[*designated]));
        assert_eq!(r[0].1, code.code(), "designated {designated}");
        assert!(
            r[0].2.as_deref().unwrap_or("").contains(why),
            "{:?} should say {why}",
            r[0].2
        );
        assert_eq!(h.partition("t", 0), before, "nothing changes");
    }
    // Unregistered: broker 3 unregisters, then is designated.
    h.req(
        RequestBody::UnregisterBroker(unregister_broker_request::UnregisterBrokerRequest {
            broker_id: 3,
            ..Default::default()
        }),
        0,
    );
    let r = h.elect(2, 3, "t", &[0], Some(&[3]));
    assert_eq!(r[0].1, ErrorCode::IneligibleReplica.code());
    assert!(r[0].2.as_deref().unwrap().contains("not registered"));
    // Its replica's log dir is offline: broker 2 reports other dirs.
    let mut h2 = offline();
    let topic_id = h2.c.image().topics.by_name["t"];
    h2.write(vec![MetadataRecord::PartitionChange(
        partition_change_record::PartitionChangeRecord {
            topic_id,
            partition_id: 0,
            directories: Some(vec![
                Uuid::from_u128(51),
                Uuid::from_u128(999),
                Uuid::from_u128(53),
            ]),
            ..Default::default()
        },
    )]);
    let r = h2.elect(2, 3, "t", &[0], Some(&[2]));
    assert_eq!(r[0].1, ErrorCode::IneligibleReplica.code());
    assert!(
        r[0].2.as_deref().unwrap().contains("log dir"),
        "{:?}",
        r[0].2
    );

    // Success: one PartitionChangeRecord; leader 2, ISR [2], ELR cleared, RECOVERING, epochs up.
    let mut h = offline();
    let before = h.partition("t", 0);
    let batches = h.batches.len();
    let unclean_before = h.c.counters.unclean_elections;
    let r = h.elect(2, 3, "t", &[0], Some(&[2]));
    assert!(ok(r[0].1), "{:?}", r[0].2);
    let p = h.partition("t", 0);
    assert_eq!(p.leader, 2);
    assert_eq!(p.isr, vec![2]);
    assert!(!before.elr.is_empty(), "broker 3 was in the ELR");
    assert!(
        p.elr.is_empty() && p.last_known_elr.is_empty(),
        "ELR and last known ELR cleared, as Kafka's unclean election"
    );
    assert_eq!(p.leader_recovery_state, LeaderRecoveryState::Recovering);
    assert_eq!(p.leader_epoch, before.leader_epoch + 1);
    assert_eq!(p.partition_epoch, before.partition_epoch + 1);
    assert_eq!(h.batches.len(), batches + 1);
    assert_eq!(h.batches[batches].len(), 1, "one PartitionChangeRecord");
    assert!(matches!(
        h.batches[batches][0],
        MetadataRecord::PartitionChange(_)
    ));
    assert_eq!(
        h.c.counters.unclean_elections,
        unclean_before + 1,
        "counted as unclean"
    );
    // Now it has a leader: a second designated election is not needed.
    let r = h.elect(2, 3, "t", &[0], Some(&[2]));
    assert_eq!(r[0].1, ErrorCode::ElectionNotNeeded.code());
}

/// A heartbeat from broker `id` reporting `offline` log dirs.
fn heartbeat_with_offline_dirs(h: &mut Harness, id: i32, offline: Vec<Uuid>) {
    let epoch = h.c.image().cluster.brokers[&id].epoch;
    let offset = h.offset;
    let r = h.req(
        RequestBody::BrokerHeartbeat(broker_heartbeat_request::BrokerHeartbeatRequest {
            broker_id: id,
            broker_epoch: epoch,
            current_metadata_offset: offset,
            offline_log_dirs: offline,
            ..Default::default()
        }),
        1,
    );
    let ResponseBody::BrokerHeartbeat(r) = r else {
        panic!()
    };
    assert!(ok(r.error_code));
}

#[test]
fn a_designated_leader_needs_its_log_dir_online_and_no_controlled_shutdown() {
    // Each broker registered one dir: the replicas were created in it.
    let mut h = offline();
    let assigned = h.partition("t", 0).directories;
    assert_eq!(
        assigned,
        vec![
            Uuid::from_u128(51),
            Uuid::from_u128(52),
            Uuid::from_u128(53)
        ]
    );
    // Unassigned replica dirs: eligible until the broker's heartbeat reports an offline dir,
    // eligible again once it stops reporting it.
    let topic_id = h.c.image().topics.by_name["t"];
    h.write(vec![MetadataRecord::PartitionChange(
        partition_change_record::PartitionChangeRecord {
            topic_id,
            partition_id: 0,
            directories: Some(vec![Uuid::nil(); 3]),
            ..Default::default()
        },
    )]);
    heartbeat_with_offline_dirs(&mut h, 2, vec![Uuid::from_u128(52)]);
    let r = h.elect(2, 3, "t", &[0], Some(&[2]));
    assert_eq!(r[0].1, ErrorCode::IneligibleReplica.code());
    assert!(
        r[0].2
            .as_deref()
            .unwrap()
            .contains("reports offline log dirs"),
        "{:?}",
        r[0].2
    );
    heartbeat_with_offline_dirs(&mut h, 2, vec![]);
    let r = h.elect(2, 3, "t", &[0], Some(&[2]));
    assert!(ok(r[0].1), "{:?}", r[0].2);

    // An assigned dir the heartbeat reports offline, though the broker registered it.
    let mut h = offline();
    let topic_id = h.c.image().topics.by_name["t"];
    h.write(vec![MetadataRecord::PartitionChange(
        partition_change_record::PartitionChangeRecord {
            topic_id,
            partition_id: 1,
            directories: Some(vec![
                Uuid::from_u128(51),
                Uuid::from_u128(52),
                Uuid::from_u128(53),
            ]),
            ..Default::default()
        },
    )]);
    heartbeat_with_offline_dirs(&mut h, 2, vec![Uuid::from_u128(52)]);
    let r = h.elect(2, 3, "t", &[1], Some(&[2]));
    assert_eq!(r[0].1, ErrorCode::IneligibleReplica.code());
    assert!(
        r[0].2
            .as_deref()
            .unwrap()
            .contains("is offline (its last heartbeat"),
        "{:?}",
        r[0].2
    );
    // Another of its dirs offline: the replica's own dir is online.
    heartbeat_with_offline_dirs(&mut h, 2, vec![Uuid::from_u128(99)]);
    let r = h.elect(2, 3, "t", &[1], Some(&[2]));
    assert!(ok(r[0].1), "broker 2's dir is online: {:?}", r[0].2);

    // In controlled shutdown, before the controller fences it.
    let mut h = offline();
    let epoch = h.c.image().cluster.brokers[&2].epoch;
    h.write(vec![MetadataRecord::BrokerRegistrationChange(
        broker_registration_change_record::BrokerRegistrationChangeRecord {
            broker_id: 2,
            broker_epoch: epoch,
            in_controlled_shutdown: 1,
            ..Default::default()
        },
    )]);
    assert!(!h.c.image().cluster.brokers[&2].fenced);
    let r = h.elect(2, 3, "t", &[0], Some(&[2]));
    assert_eq!(r[0].1, ErrorCode::IneligibleReplica.code());
    assert!(
        r[0].2.as_deref().unwrap().contains("controlled shutdown"),
        "{:?}",
        r[0].2
    );
}

/// AssignReplicasToDirs from broker `id` at `epoch`: (dir, topic id, partition) each.
fn assign_dirs(
    h: &mut Harness,
    id: i32,
    epoch: i64,
    assignments: &[(Uuid, Uuid, i32)],
) -> (i16, Vec<i16>) {
    use assign_replicas_to_dirs_request as ar;
    let body = RequestBody::AssignReplicasToDirs(ar::AssignReplicasToDirsRequest {
        broker_id: id,
        broker_epoch: epoch,
        directories: assignments
            .iter()
            .map(|(dir, topic, p)| ar::DirectoryData {
                id: *dir,
                topics: vec![ar::TopicData {
                    topic_id: *topic,
                    partitions: vec![ar::PartitionData {
                        partition_index: *p,
                        ..Default::default()
                    }],
                    ..Default::default()
                }],
                ..Default::default()
            })
            .collect(),
        ..Default::default()
    });
    let ResponseBody::AssignReplicasToDirs(r) = h.req(body, 0) else {
        panic!()
    };
    let codes = r
        .directories
        .iter()
        .flat_map(|d| &d.topics)
        .flat_map(|t| &t.partitions)
        .map(|p| p.error_code)
        .collect();
    (r.error_code, codes)
}

#[test]
fn a_failed_log_dir_takes_out_only_the_replicas_assigned_to_it() {
    let (a, b) = (Uuid::from_u128(71), Uuid::from_u128(72));
    let mut h = Harness::new();
    let epoch = h.register_with_dirs(1, None, METADATA_VERSION_LATEST, vec![a, b]);
    h.heartbeat(1, false);
    for id in [2, 3] {
        h.register(id, None, METADATA_VERSION_LATEST);
        h.heartbeat(id, false);
    }
    h.create_assigned("t", &[&[1, 2, 3], &[1, 2, 3]], &[]);
    h.create_assigned("u", &[&[2, 3]], &[]);
    // Broker 1 has two dirs: its replicas wait for its assignment; the others are in their
    // brokers' only dir.
    assert_eq!(
        h.partition("t", 0).directories,
        vec![Uuid::nil(), Uuid::from_u128(52), Uuid::from_u128(53)]
    );
    let t = h.c.image().topics.by_name["t"];
    let u = h.c.image().topics.by_name["u"];
    assert_eq!(
        assign_dirs(&mut h, 1, epoch, &[(a, t, 0), (b, t, 1)]),
        (0, vec![0, 0])
    );
    assert_eq!(h.partition("t", 0).directories[0], a);
    assert_eq!(h.partition("t", 1).directories[0], b);
    // Refusals: a stale epoch, an unknown topic or partition, a partition it is no replica of.
    assert_eq!(
        assign_dirs(&mut h, 1, epoch - 1, &[(a, t, 0)]).0,
        ErrorCode::StaleBrokerEpoch.code()
    );
    let codes = assign_dirs(
        &mut h,
        1,
        epoch,
        &[(a, Uuid::from_u128(999), 0), (a, t, 7), (a, u, 0)],
    )
    .1;
    assert_eq!(
        codes,
        vec![
            ErrorCode::UnknownTopicId.code(),
            ErrorCode::UnknownTopicOrPartition.code(),
            ErrorCode::NotLeaderOrFollower.code()
        ]
    );
    // Broker 1 leads both. Dir a fails: the heartbeat's report takes it out of the
    // registration, and t-0 (on a) moves to another leader without broker 1 in its ISR; t-1
    // (on b) is untouched.
    assert_eq!(
        (h.partition("t", 0).leader, h.partition("t", 1).leader),
        (1, 1)
    );
    heartbeat_with_offline_dirs(&mut h, 1, vec![a]);
    assert_eq!(h.c.image().cluster.brokers[&1].log_dirs, vec![b]);
    let p0 = h.partition("t", 0);
    assert!(p0.leader != 1 && p0.leader > 0, "{p0:?}");
    assert!(!p0.isr.contains(&1), "{p0:?}");
    let p1 = h.partition("t", 1);
    assert_eq!((p1.leader, p1.isr.contains(&1)), (1, true));
    // Reported again: nothing more to write.
    let n = h.batches.len();
    heartbeat_with_offline_dirs(&mut h, 1, vec![a]);
    assert_eq!(h.batches.len(), n);
    // A replica on the failed dir cannot rejoin the ISR, nor lead by designation.
    assert!(!fjord_controller::elections::replica_active(
        h.c.image(),
        &p0,
        1
    ));
    assert!(fjord_controller::elections::replica_active(
        h.c.image(),
        &p1,
        1
    ));
    // A replica said to be on the failed dir is unavailable at once.
    assert_eq!(assign_dirs(&mut h, 1, epoch, &[(a, t, 1)]), (0, vec![0]));
    let p1 = h.partition("t", 1);
    assert!(p1.leader != 1 && !p1.isr.contains(&1), "{p1:?}");
    // The restarted broker registers both dirs again: the replica is online.
    h.expire(1);
    h.register_with_dirs(1, None, METADATA_VERSION_LATEST, vec![a, b]);
    let p0 = h.partition("t", 0);
    assert!(fjord_controller::elections::replica_dir_online(
        h.c.image(),
        &p0,
        1
    ));
}

#[test]
fn elect_leaders_v3_limits_designated_elections_only() {
    let mut h = Harness::with_brokers(1);
    h.create("big", 2500, 1, &[]);
    let all: Vec<i32> = (0..2500).collect();
    // DESIGNATED: the first 1000 named partitions are acted on, the rest are sent back.
    let leaders = vec![1; 2500];
    let r = h.elect(2, 3, "big", &all, Some(&leaders));
    assert_eq!(r.len(), 2500);
    assert!(r[..1000]
        .iter()
        .all(|x| x.1 == ErrorCode::ElectionNotNeeded.code()));
    assert!(r[1000..]
        .iter()
        .all(|x| x.1 == ErrorCode::RequestLimitReached.code()));
    // PREFERRED and UNCLEAN in v3 behave as in v2: every partition, named or all.
    for kind in [0, 1] {
        for version in [2, 3] {
            let r = h.elect(kind, version, "big", &all, None);
            assert_eq!(r.len(), 2500);
            assert!(
                r.iter().all(|x| x.1 == ErrorCode::ElectionNotNeeded.code()),
                "type {kind} v{version} has no limit"
            );
        }
        // TopicPartitions null: every partition is tried and, as Kafka answers, only those
        // that needed an election are listed (none here): nothing is refused for the limit.
        assert_eq!(h.elect_all(kind, 3), Vec::new());
    }
}

fn register_controller(h: &mut Harness, id: i32, max_mv: i16) -> ResponseBody {
    h.req(
        RequestBody::ControllerRegistration(
            controller_registration_request::ControllerRegistrationRequest {
                controller_id: id,
                // A build with another range is another incarnation.
                incarnation_id: Uuid::from_u128(id as u128 * 1000 + max_mv as u128),
                listeners: vec![controller_registration_request::Listener {
                    name: "CONTROLLER".into(),
                    host: "127.0.0.1".into(),
                    port: 19093,
                    ..Default::default()
                }],
                features: vec![
                    controller_registration_request::Feature {
                        name: "metadata.version".into(),
                        min_supported_version: 7,
                        max_supported_version: max_mv,
                        ..Default::default()
                    },
                    controller_registration_request::Feature {
                        name: fjord_metadata::version::ELR_VERSION.into(),
                        min_supported_version: 0,
                        max_supported_version: 1,
                        ..Default::default()
                    },
                ],
                ..Default::default()
            },
        ),
        0,
    )
}

fn unregister_controller(h: &mut Harness, id: i32) -> (i16, Option<String>) {
    let r = h.req(
        RequestBody::UnregisterController(
            unregister_controller_request::UnregisterControllerRequest {
                controller_id: id,
                ..Default::default()
            },
        ),
        0,
    );
    let ResponseBody::UnregisterController(r) = r else {
        panic!()
    };
    (r.error_code, r.error_message)
}

fn upgrade(h: &mut Harness, level: i16) -> (i16, Option<String>) {
    update_feature(h, "metadata.version", level, 1)
}

/// UpdateFeatures of one feature (upgrade type 1 upgrades, 2 is a safe downgrade).
fn update_feature(
    h: &mut Harness,
    feature: &str,
    level: i16,
    upgrade_type: i8,
) -> (i16, Option<String>) {
    let r = h.req(
        RequestBody::UpdateFeatures(update_features_request::UpdateFeaturesRequest {
            feature_updates: vec![update_features_request::FeatureUpdateKey {
                feature: feature.into(),
                max_version_level: level,
                upgrade_type,
                ..Default::default()
            }],
            ..Default::default()
        }),
        1,
    );
    let ResponseBody::UpdateFeatures(r) = r else {
        panic!()
    };
    (r.error_code, r.error_message)
}

#[test]
fn unregister_controller_checks_in_order_and_a_stale_registration_blocks_upgrades() {
    // NOT_CONTROLLER: a node that is not the active controller.
    let req = RequestBody::UnregisterController(
        unregister_controller_request::UnregisterControllerRequest {
            controller_id: 4,
            ..Default::default()
        },
    );
    let ResponseBody::UnregisterController(r) = not_controller(&req, 0) else {
        panic!()
    };
    assert_eq!(r.error_code, ErrorCode::NotController.code());

    let mut h = Harness::with_brokers(1);
    h.c.set_voters([1, 2, 3].into());
    for id in [1, 2, 3] {
        register_controller(&mut h, id, METADATA_VERSION_LATEST);
    }
    // A controller that was removed from the quorum but whose registration stayed.
    register_controller(&mut h, 4, METADATA_VERSION_UNREGISTER_CONTROLLER);
    // INVALID_REQUEST: a voter.
    let (code, message) = unregister_controller(&mut h, 2);
    assert_eq!(code, ErrorCode::InvalidRequest.code());
    assert_eq!(
        message.as_deref(),
        Some("Cannot unregister controller 2 because it is part of the voter set.")
    );
    // CONTROLLER_ID_NOT_REGISTERED.
    let (code, message) = unregister_controller(&mut h, 7);
    assert_eq!(code, ErrorCode::ControllerIdNotRegistered.code());
    assert_eq!(
        message.as_deref(),
        Some("Controller ID 7 is not currently registered.")
    );
    // Unregistered: one UnregisterControllerRecord.
    let n = h.batches.len();
    assert_eq!(unregister_controller(&mut h, 4).0, 0);
    assert_eq!(
        h.batches[n],
        vec![MetadataRecord::UnregisterController(
            unregister_controller_record::UnregisterControllerRecord {
                controller_id: 4,
                ..Default::default()
            }
        )]
    );
    assert!(!h.c.image().cluster.controllers.contains_key(&4));
    // A live controller whose registration disappeared registers again.
    h.c.set_voters([1, 2].into());
    assert_eq!(unregister_controller(&mut h, 3).0, 0);
    let ResponseBody::ControllerRegistration(r) =
        register_controller(&mut h, 3, METADATA_VERSION_LATEST)
    else {
        panic!()
    };
    assert!(ok(r.error_code));
    assert!(h.c.image().cluster.controllers.contains_key(&3));

    // A cluster at 4.3-IV0 (level 30): a stale registration of an older build blocks the
    // upgrade to 4.4, and cannot be unregistered there (UNSUPPORTED_VERSION, the KIP's own
    // limit); a replacement controller registering under the same id lifts the block, and at
    // 4.4-IV2 the registration can be removed.
    let mut old = Harness::with_brokers(1);
    old.write(vec![MetadataRecord::FeatureLevel(
        feature_level_record::FeatureLevelRecord {
            name: "metadata.version".into(),
            feature_level: 30,
            ..Default::default()
        },
    )]);
    register_controller(&mut old, 4, 30);
    let (code, message) = upgrade(&mut old, METADATA_VERSION_LATEST);
    assert_eq!(code, ErrorCode::InvalidUpdateVersion.code());
    assert!(
        message
            .as_deref()
            .unwrap()
            .contains("Controller 4 only supports versions 7-30"),
        "{message:?}"
    );
    let (code, message) = unregister_controller(&mut old, 4);
    assert_eq!(code, ErrorCode::UnsupportedVersion.code());
    assert_eq!(
        message.as_deref(),
        Some(
            "The current MetadataVersion is too old to support controller unregistration \
             (4.3-IV0 is finalized; 4.4-IV2 or later is needed)."
        )
    );
    register_controller(&mut old, 4, METADATA_VERSION_LATEST);
    assert_eq!(upgrade(&mut old, METADATA_VERSION_LATEST).0, 0);
    assert_eq!(unregister_controller(&mut old, 4).0, 0);
    register_controller(&mut old, 4, 30);
    old.write(vec![MetadataRecord::FeatureLevel(
        feature_level_record::FeatureLevelRecord {
            name: "metadata.version".into(),
            feature_level: METADATA_VERSION_UNREGISTER_CONTROLLER - 1,
            ..Default::default()
        },
    )]);
    // A voter check comes before the version check.
    old.c.set_voters([4].into());
    assert_eq!(
        unregister_controller(&mut old, 4).0,
        ErrorCode::InvalidRequest.code()
    );
}

#[test]
fn a_broker_in_controlled_shutdown_is_never_unfenced_by_an_ordinary_heartbeat() {
    let mut h = Harness::with_brokers(2);
    h.create_assigned("t", &[&[1, 2]], &[]);
    assert!(h.heartbeat(1, true).should_shut_down);
    let b = &h.c.image().cluster.brokers[&1];
    assert!(b.fenced && b.in_controlled_shutdown);
    // The race: a heartbeat of the ordinary loop, sent before it saw the shutdown, arrives
    // after the controller agreed to it.
    let r = h.heartbeat(1, false);
    assert!(
        r.is_fenced,
        "an ordinary heartbeat unfenced a broker shutting down"
    );
    let b = &h.c.image().cluster.brokers[&1];
    assert!(b.fenced && b.in_controlled_shutdown);
}

#[test]
fn operations_over_the_record_cap_are_refused_whole_before_allocating() {
    use fjord_controller::controller::{MAX_RECORDS_PER_USER_OP, TOO_LARGE_MESSAGE};
    use fjord_protocol::generated::create_partitions_request as cpr;
    let mut h = Harness::with_brokers(3);
    let before = h.batches.len();
    let create = |topics: &[(&str, i32)], validate_only: bool| {
        RequestBody::CreateTopics(create_topics_request::CreateTopicsRequest {
            topics: topics
                .iter()
                .map(|(name, n)| create_topics_request::CreatableTopic {
                    name: name.to_string(),
                    num_partitions: *n,
                    replication_factor: 1,
                    ..Default::default()
                })
                .collect(),
            validate_only,
            ..Default::default()
        })
    };
    let cap = MAX_RECORDS_PER_USER_OP as i32;
    let table: &[(&[(&str, i32)], bool)] = &[
        (&[("a", 100_000), ("b", 100_000)], false),
        (&[("a", i32::MAX)], false),
        (&[("a", i32::MAX)], true),
        // One topic record per topic counts too: cap partitions plus the topic is over.
        (&[("a", cap)], false),
        (&[("a", cap / 2), ("b", cap / 2)], false),
    ];
    for (topics, validate_only) in table {
        let ResponseBody::CreateTopics(r) = h.req(create(topics, *validate_only), 7) else {
            panic!()
        };
        assert_eq!(r.topics.len(), topics.len());
        for t in &r.topics {
            assert_eq!(
                t.error_code,
                ErrorCode::PolicyViolation.code(),
                "{topics:?}"
            );
            assert_eq!(t.error_message.as_deref(), Some(TOO_LARGE_MESSAGE));
        }
    }
    assert_eq!(h.batches.len(), before, "nothing written");
    // Just under the cap is one batch.
    let ResponseBody::CreateTopics(r) = h.req(create(&[("fits", cap - 1)], false), 7) else {
        panic!()
    };
    assert!(ok(r.topics[0].error_code));
    assert_eq!(
        h.batches.last().map(Vec::len),
        Some(MAX_RECORDS_PER_USER_OP)
    );
    let grow = RequestBody::CreatePartitions(cpr::CreatePartitionsRequest {
        topics: vec![cpr::CreatePartitionsTopic {
            name: "fits".into(),
            count: i32::MAX,
            assignments: None,
            ..Default::default()
        }],
        ..Default::default()
    });
    let ResponseBody::CreatePartitions(r) = h.req(grow, 3) else {
        panic!()
    };
    assert_eq!(r.results[0].error_code, ErrorCode::PolicyViolation.code());
}

/// Two clusters (or two histories of one) that create the same topic at the same log
/// position give it different ids: Kafka's ids are random, and MirrorMaker and operators
/// tell topics apart by them.
#[test]
fn two_clusters_never_give_a_topic_the_same_id() {
    let id_in = |cluster: &str, salt: u128| {
        let mut h = Harness::with_brokers(1);
        h.c.cluster_id = cluster.into();
        h.c.topic_id_salt = salt;
        assert!(ok(h.create("same", 1, 1, &[]).error_code));
        h.c.image().topics.get_by_name("same").unwrap().id
    };
    assert_eq!(
        id_in("a", 7),
        id_in("a", 7),
        "replayable from the same inputs"
    );
    assert_ne!(id_in("a", 7), id_in("b", 7), "another cluster id");
    assert_ne!(id_in("a", 7), id_in("a", 8), "another controller's salt");
}

#[test]
fn create_topics_validates_and_applies_defaults() {
    let mut h = Harness::with_brokers(3);
    let r = h.create("defaults", -1, -1, &[]);
    assert!(ok(r.error_code));
    assert_eq!(
        (r.num_partitions, r.replication_factor),
        (1, 1),
        "KIP-464: broker defaults"
    );
    let r = h.create("spread", 6, 3, &[("retention.ms", "1000")]);
    assert!(ok(r.error_code));
    let t = h.c.image().topics.get_by_name("spread").unwrap().clone();
    let leaders: std::collections::BTreeMap<i32, usize> =
        t.partitions.values().fold(Default::default(), |mut m, p| {
            *m.entry(p.leader).or_default() += 1;
            m
        });
    assert_eq!(
        leaders.values().copied().collect::<Vec<_>>(),
        vec![2, 2, 2],
        "leaders spread"
    );
    assert!(t
        .partitions
        .values()
        .all(|p| p.replicas.len() == 3 && p.isr.len() == 3));
    assert_eq!(
        h.c.image().configs.get(2, "spread", "retention.ms"),
        Some("1000")
    );

    type Row<'a> = (&'a str, i32, i16, &'a [(&'a str, &'a str)], ErrorCode);
    let table: &[Row] = &[
        ("spread", 1, 1, &[], ErrorCode::TopicAlreadyExists),
        ("bad/name", 1, 1, &[], ErrorCode::InvalidTopicException),
        ("..", 1, 1, &[], ErrorCode::InvalidTopicException),
        ("zero", 0, 1, &[], ErrorCode::InvalidPartitions),
        ("rf0", 1, 0, &[], ErrorCode::InvalidReplicationFactor),
        ("rf4", 1, 4, &[], ErrorCode::InvalidReplicationFactor),
        (
            "cfg",
            1,
            1,
            &[("no.such.config", "1")],
            ErrorCode::InvalidConfig,
        ),
        (
            "cfg2",
            1,
            1,
            &[("retention.ms", "soon")],
            ErrorCode::InvalidConfig,
        ),
        (
            "cfg3",
            1,
            1,
            &[("cleanup.policy", "shred")],
            ErrorCode::InvalidConfig,
        ),
    ];
    for (name, partitions, rf, configs, code) in table {
        let before = h.c.image().clone();
        let r = h.create(name, *partitions, *rf, configs);
        assert_eq!(r.error_code, code.code(), "{name}: {:?}", r.error_message);
        assert!(r.error_message.is_some());
        assert_eq!(h.c.image(), &before, "{name}: nothing half-applied");
    }
    // validate_only writes nothing.
    let n = h.batches.len();
    let r = h.req(
        RequestBody::CreateTopics(create_topics_request::CreateTopicsRequest {
            topics: vec![create_topics_request::CreatableTopic {
                name: "dry".into(),
                num_partitions: 2,
                replication_factor: 2,
                ..Default::default()
            }],
            validate_only: true,
            ..Default::default()
        }),
        7,
    );
    let ResponseBody::CreateTopics(r) = r else {
        panic!()
    };
    assert!(ok(r.topics[0].error_code));
    assert_eq!(h.batches.len(), n);
    assert!(!h.c.image().topics.by_name.contains_key("dry"));
    // One request, one batch: two good topics and one bad.
    let r = h.req(
        RequestBody::CreateTopics(create_topics_request::CreateTopicsRequest {
            topics: ["x", "y", "bad name"]
                .iter()
                .map(|n| create_topics_request::CreatableTopic {
                    name: n.to_string(),
                    num_partitions: 2,
                    replication_factor: 1,
                    ..Default::default()
                })
                .collect(),
            ..Default::default()
        }),
        7,
    );
    let ResponseBody::CreateTopics(r) = r else {
        panic!()
    };
    assert_eq!(r.topics.iter().filter(|t| ok(t.error_code)).count(), 2);
    assert_eq!(h.batches.len(), n + 1);
}

#[test]
fn alter_partition_checks_epochs_and_members() {
    let mut h = Harness::with_brokers(3);
    h.create_assigned("t", &[&[1, 2, 3]], &[("min.insync.replicas", "2")]);
    let send =
        |h: &mut Harness, from: i32, leader_epoch: i32, partition_epoch: i32, isr: &[i32]| {
            h.alter_isr("t", from, (leader_epoch, partition_epoch), isr)
        };
    let p = h.partition("t", 0);
    let table: &[(i32, i32, i32, &[i32], ErrorCode)] = &[
        (
            2,
            p.leader_epoch,
            p.partition_epoch,
            &[1, 2],
            ErrorCode::NotLeaderOrFollower,
        ),
        (
            1,
            p.leader_epoch - 1,
            p.partition_epoch,
            &[1, 2],
            ErrorCode::FencedLeaderEpoch,
        ),
        (
            1,
            p.leader_epoch,
            p.partition_epoch + 1,
            &[1, 2],
            ErrorCode::InvalidUpdateVersion,
        ),
        (
            1,
            p.leader_epoch,
            p.partition_epoch,
            &[1, 4],
            ErrorCode::InvalidRequest,
        ),
        (
            1,
            p.leader_epoch,
            p.partition_epoch,
            &[2, 3],
            ErrorCode::InvalidRequest,
        ),
    ];
    for (from, le, pe, isr, code) in table {
        let r = send(&mut h, *from, *le, *pe, isr);
        assert_eq!(r.error_code, code.code(), "from {from} isr {isr:?}");
    }
    // Shrink to [1]: below min ISR 2, so 2 and 3 join the ELR.
    let r = send(&mut h, 1, p.leader_epoch, p.partition_epoch, &[1]);
    assert!(ok(r.error_code));
    assert_eq!(r.partition_epoch, p.partition_epoch + 1);
    let now = h.partition("t", 0);
    assert_eq!((now.isr.clone(), now.elr.clone()), (vec![1], vec![2, 3]));
    // Grow back to [1, 2]: at min ISR, the ELR clears.
    let r = send(&mut h, 1, now.leader_epoch, now.partition_epoch, &[1, 2]);
    assert!(ok(r.error_code));
    let now = h.partition("t", 0);
    assert_eq!((now.isr.clone(), now.elr.clone()), (vec![1, 2], vec![]));
}

/// One IncrementalAlterConfigs of one key; the resource's error code.
fn incremental_alter(
    h: &mut Harness,
    kind: i8,
    name: &str,
    key: &str,
    op: i8,
    value: Option<&str>,
) -> i16 {
    let r = h.req(
        RequestBody::IncrementalAlterConfigs(
            incremental_alter_configs_request::IncrementalAlterConfigsRequest {
                resources: vec![incremental_alter_configs_request::AlterConfigsResource {
                    resource_type: kind,
                    resource_name: name.into(),
                    configs: vec![incremental_alter_configs_request::AlterableConfig {
                        name: key.into(),
                        config_operation: op,
                        value: value.map(str::to_string),
                        ..Default::default()
                    }],
                    ..Default::default()
                }],
                ..Default::default()
            },
        ),
        1,
    );
    let ResponseBody::IncrementalAlterConfigs(r) = r else {
        panic!()
    };
    r.responses[0].error_code
}

#[test]
fn configs_are_validated_described_and_deleted_with_their_topic() {
    let mut h = Harness::with_brokers(1);
    h.create("t", 1, 1, &[]);
    let alter = incremental_alter;
    assert_eq!(
        alter(&mut h, 2, "t", "min.insync.replicas", 0, Some("2")),
        0
    );
    assert_eq!(
        alter(&mut h, 2, "t", "cleanup.policy", 2, Some("compact")),
        0
    );
    assert_eq!(
        h.c.image().configs.get(2, "t", "cleanup.policy"),
        Some("compact")
    );
    assert_eq!(
        alter(&mut h, 2, "t", "nope", 0, Some("1")),
        ErrorCode::InvalidConfig.code()
    );
    assert_eq!(
        alter(&mut h, 2, "t", "min.insync.replicas", 0, Some("0")),
        ErrorCode::InvalidConfig.code()
    );
    assert_eq!(
        alter(&mut h, 2, "missing", "retention.ms", 0, Some("1")),
        ErrorCode::UnknownTopicOrPartition.code()
    );
    assert_eq!(
        alter(
            &mut h,
            4,
            "",
            "unclean.leader.election.enable",
            0,
            Some("true")
        ),
        0
    );
    // A topic key on the brokers is a custom broker key to Kafka: stored, not refused.
    assert_eq!(alter(&mut h, 4, "", "segment.ms", 0, Some("1")), 0);
    let d =
        h.c.describe_configs(&describe_configs_request::DescribeConfigsRequest {
            resources: vec![describe_configs_request::DescribeConfigsResource {
                resource_type: 2,
                resource_name: "t".into(),
                configuration_keys: Some(vec![
                    "min.insync.replicas".into(),
                    "unclean.leader.election.enable".into(),
                    "retention.ms".into(),
                ]),
                ..Default::default()
            }],
            ..Default::default()
        });
    let ResponseBody::DescribeConfigs(d) = d else {
        panic!()
    };
    let got: Vec<(String, String, i8)> = d.results[0]
        .configs
        .iter()
        .map(|c| (c.name.clone(), c.value.clone().unwrap(), c.config_source))
        .collect();
    assert_eq!(
        got,
        vec![
            ("min.insync.replicas".into(), "2".into(), 1),
            ("retention.ms".into(), "604800000".into(), 5),
            ("unclean.leader.election.enable".into(), "true".into(), 3),
        ]
    );
    assert_eq!(alter(&mut h, 2, "t", "min.insync.replicas", 1, None), 0);
    assert_eq!(h.c.image().configs.get(2, "t", "min.insync.replicas"), None);
    h.req(
        RequestBody::DeleteTopics(delete_topics_request::DeleteTopicsRequest {
            topic_names: vec!["t".into(), "t".into(), "ghost".into()],
            ..Default::default()
        }),
        5,
    );
    assert!(h.c.image().topics.by_name.is_empty());
    assert!(
        h.c.image().configs.resources.keys().all(|(k, _)| *k != 2),
        "topic configs go with it"
    );
}

#[test]
fn metrics_follow_the_image_and_the_counters() {
    use fjord_controller::ControllerMetrics;
    let mut h = Harness::with_brokers(3);
    h.create_assigned("t", &[&[1, 2, 3], &[2, 3, 1], &[3, 1, 2]], &[]);
    h.create("u", 2, 1, &[]);
    let m = ControllerMetrics::compute(h.c.image(), &h.c.counters, true, 10, 9);
    assert_eq!(
        (
            m.active_controller_count,
            m.global_topic_count,
            m.global_partition_count
        ),
        (1, 2, 5)
    );
    assert_eq!(
        (
            m.active_broker_count,
            m.fenced_broker_count,
            m.offline_partitions_count
        ),
        (3, 0, 0)
    );
    assert_eq!(m.preferred_replica_imbalance_count, 0);
    h.expire(1);
    let m = ControllerMetrics::compute(h.c.image(), &h.c.counters, true, 10, 9);
    assert_eq!((m.active_broker_count, m.fenced_broker_count), (2, 1));
    let offline =
        h.c.image()
            .topics
            .get_by_name("u")
            .unwrap()
            .partitions
            .values()
            .filter(|p| p.replicas == vec![1])
            .count() as u64;
    assert_eq!(
        m.offline_partitions_count, offline,
        "u's partitions on broker 1 only"
    );
    assert_eq!(
        m.preferred_replica_imbalance_count,
        1 + offline,
        "t-0 moved off broker 1; offline partitions are not led by their preferred replica"
    );
    assert_eq!(
        (m.last_applied_record_offset, m.last_committed_record_offset),
        (10, 9)
    );
}

fn acl_creation(name: &str, principal: &str, op: i8) -> create_acls_request::AclCreation {
    create_acls_request::AclCreation {
        resource_type: 2,
        resource_name: name.into(),
        resource_pattern_type: 3,
        principal: principal.into(),
        host: "*".into(),
        operation: op,
        permission_type: 3,
        ..Default::default()
    }
}

#[test]
fn acls_and_scram_credentials_are_records_with_kafkas_checks() {
    let mut h = Harness::new();
    // Without an authorizer the ACL APIs are refused.
    let create = |creations| {
        RequestBody::CreateAcls(create_acls_request::CreateAclsRequest {
            creations,
            ..Default::default()
        })
    };
    let ResponseBody::CreateAcls(r) = h.req(create(vec![acl_creation("t", "User:alice", 4)]), 3)
    else {
        panic!()
    };
    assert_eq!(r.results[0].error_code, ErrorCode::SecurityDisabled.code());
    let settings = ControllerSettings {
        node_id: 1,
        authorizer_enabled: true,
        ..ControllerSettings::default()
    };
    let image = h.c.image().clone();
    h.c = Controller::new(settings, "cluster".into(), image, 0);
    let mut bad_cluster = acl_creation("not-the-cluster", "User:alice", 7);
    bad_cluster.resource_type = 4;
    let ResponseBody::CreateAcls(r) = h.req(
        create(vec![
            acl_creation("t", "User:alice", 4),
            acl_creation("t", "User:alice", 4),
            acl_creation("t", "alice", 4),
            acl_creation("", "User:alice", 4),
            acl_creation("t", "User:alice", 1),
            bad_cluster,
        ]),
        3,
    ) else {
        panic!()
    };
    let codes: Vec<i16> = r.results.iter().map(|r| r.error_code).collect();
    assert_eq!(codes, vec![0, 0, 42, 42, 42, 42]);
    assert_eq!(
        h.c.image().acls.by_id.len(),
        1,
        "a duplicate is stored once"
    );
    let ResponseBody::CreateAcls(_) = h.req(create(vec![acl_creation("u", "User:bob", 3)]), 3)
    else {
        panic!()
    };
    assert_eq!(h.c.image().acls.by_id.len(), 2);
    let ResponseBody::DeleteAcls(d) = h.req(
        RequestBody::DeleteAcls(delete_acls_request::DeleteAclsRequest {
            filters: vec![delete_acls_request::DeleteAclsFilter {
                resource_type_filter: 1,
                pattern_type_filter: 1,
                resource_name_filter: None,
                principal_filter: Some("User:alice".into()),
                host_filter: None,
                operation: 1,
                permission_type: 1,
                ..Default::default()
            }],
            ..Default::default()
        }),
        3,
    ) else {
        panic!()
    };
    assert_eq!(d.filter_results[0].matching_acls.len(), 1);
    assert_eq!(h.c.image().acls.by_id.len(), 1);

    // SCRAM credentials: the salted password becomes the stored and server keys.
    let upsert = |name: &str, mechanism: i8, iterations: i32| {
        alter_user_scram_credentials_request::ScramCredentialUpsertion {
            name: name.into(),
            mechanism,
            iterations,
            salt: b"salt".to_vec().into(),
            salted_password: b"salted".to_vec().into(),
            ..Default::default()
        }
    };
    let ResponseBody::AlterUserScramCredentials(r) = h.req(
        RequestBody::AlterUserScramCredentials(
            alter_user_scram_credentials_request::AlterUserScramCredentialsRequest {
                upsertions: vec![
                    upsert("alice", 1, 4096),
                    upsert("bob", 1, 100),
                    upsert("carol", 9, 4096),
                    upsert("dave", 2, 8192),
                    upsert("dave", 2, 8192),
                ],
                deletions: vec![
                    alter_user_scram_credentials_request::ScramCredentialDeletion {
                        name: "erin".into(),
                        mechanism: 1,
                        ..Default::default()
                    },
                ],
                ..Default::default()
            },
        ),
        0,
    ) else {
        panic!()
    };
    let results: Vec<(String, i16)> = r
        .results
        .iter()
        .map(|r| (r.user.clone(), r.error_code))
        .collect();
    assert_eq!(
        results,
        vec![
            ("erin".into(), ErrorCode::ResourceNotFound.code()),
            ("alice".into(), 0),
            ("bob".into(), ErrorCode::UnacceptableCredential.code()),
            ("carol".into(), ErrorCode::UnsupportedSaslMechanism.code()),
            ("dave".into(), ErrorCode::DuplicateResource.code()),
        ]
    );
    let stored = h.c.image().scram.get("alice", 1).unwrap().clone();
    let expected = fjord_net::sasl::scram::Credential::from_salted_password(
        fjord_net::sasl::scram::Mechanism::Sha256,
        b"salted",
        b"salt",
        4096,
    );
    assert_eq!(stored.stored_key.to_vec(), expected.stored_key);
    assert_eq!(h.c.image().scram.by_user.len(), 1);
}

impl Harness {
    /// Runs the controller's timers at `now`, committing what they write.
    fn tick_at(&mut self, now: i64) {
        self.now = now;
        let records = self.c.tick(now);
        if !records.is_empty() {
            self.offset += records.len() as i64;
            self.batches.push(records);
        }
    }

    fn fenced(&self, id: i32) -> bool {
        self.c.image().cluster.brokers[&id].fenced
    }
}

#[test]
fn a_broker_whose_heartbeat_connection_closed_is_fenced_after_the_grace_unless_it_heartbeats() {
    let mut h = Harness::with_brokers(3);
    h.create_assigned("t", &[&[1, 2, 3]], &[]);
    // Broker 1's connection closes at 1 s (its process died): fenced once 1 s has passed,
    // long before its 9 s session would end, and its leadership moves.
    h.tick_at(1_000);
    h.c.connection_lost(1, 1_000);
    h.tick_at(1_999);
    assert!(!h.fenced(1), "within the grace");
    h.tick_at(2_000);
    assert!(h.fenced(1), "fenced when the grace ends");
    assert_eq!(h.partition("t", 0).leader, 2);
    // Broker 2's connection closes but it is alive: it heartbeats on a new connection within
    // the grace, and its session goes on.
    h.c.connection_lost(2, 2_000);
    h.now = 2_500;
    assert!(!h.heartbeat(2, false).is_fenced);
    h.tick_at(3_100);
    assert!(!h.fenced(2), "a heartbeat within the grace keeps it");
    // A machine that vanished without closing its connection (broker 3, last heartbeat at
    // 0): only its session timeout fences it.
    h.tick_at(TIMEOUT - 1);
    assert!(!h.fenced(3), "within its session");
    h.tick_at(TIMEOUT);
    assert!(h.fenced(3), "its session ended");
    // With the grace off (0), a closed connection changes nothing.
    let mut off = Harness::new();
    off.c = Controller::new(
        ControllerSettings {
            node_id: 1,
            broker_session_timeout_ms: TIMEOUT,
            broker_connection_loss_fence_ms: 0,
            ..ControllerSettings::default()
        },
        "cluster".into(),
        h.c.image().clone(),
        h.now,
    );
    off.c.connection_lost(2, h.now);
    off.tick_at(h.now + 2_000);
    assert!(!off.fenced(2), "0 turns it off");
}

#[test]
fn a_new_active_controller_fences_a_broker_that_never_heartbeats_to_it_within_the_grace() {
    let mut h = Harness::with_brokers(3);
    h.create_assigned("t", &[&[1, 2, 3]], &[]);
    // Failover at 100 s: a new controller starts from the same image. Brokers 2 and 3
    // heartbeat to it; broker 1 (it died with the old controller) never does.
    let image = h.c.image().clone();
    h.now = 100_000;
    h.c = Controller::new(
        ControllerSettings {
            node_id: 1,
            broker_session_timeout_ms: TIMEOUT,
            ..ControllerSettings::default()
        },
        "cluster".into(),
        image,
        h.now,
    );
    h.now = 100_500;
    h.heartbeat(2, false);
    h.heartbeat(3, false);
    h.tick_at(102_999);
    assert!(!h.fenced(1), "within the heartbeat interval and the grace");
    h.tick_at(103_000);
    assert!(h.fenced(1), "fenced 3 s after the failover, not 9 s");
    assert!(!h.fenced(2) && !h.fenced(3));
    assert_eq!(h.partition("t", 0).leader, 2);
}

/// A seeded random history of broker deaths and returns (clean or after a crash) over
/// partitions of one, two and three replicas, with unclean election off, checked after every
/// step against a model of KIP-966's rule that does not read the controller's ELR
/// bookkeeping: a broker that came back from a crash is "tainted" for each partition it was not
/// in the ISR of, until it is in that ISR again; a tainted replica never becomes leader of a
/// partition with more than one replica. Also: a leader is always an active broker, and a
/// single-replica partition whose replica is active always has a leader (the last-known-leader
/// election), RECOVERING when it came back that way.
#[test]
fn random_crashes_never_elect_a_tainted_replica_and_a_lone_replica_always_returns() {
    let seeds: u64 = std::env::var("FJORD_SIM_SEEDS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(300);
    let topics: [(&str, &[&[i32]]); 3] = [
        ("one", &[&[1], &[2], &[3]]),
        ("two", &[&[1, 2], &[2, 3], &[3, 1]]),
        ("three", &[&[1, 2, 3], &[2, 3, 1]]),
    ];
    let mut lone_returns = 0;
    for seed in 0..seeds {
        let mut rng = seed
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        let mut next = move |n: u64| {
            rng ^= rng << 13;
            rng ^= rng >> 7;
            rng ^= rng << 17;
            rng % n
        };
        let mut h = Harness::with_brokers(3);
        for (t, parts) in topics {
            h.create_assigned(t, parts, &[]);
        }
        let mut alive = [true; 3];
        let mut registered_fenced = [false; 3];
        // (topic, partition) -> brokers tainted for it.
        let mut tainted: std::collections::BTreeMap<(&str, i32), Vec<i32>> = Default::default();
        for step in 0..40 {
            let b = next(3) as usize;
            let id = b as i32 + 1;
            let before: Vec<((&str, i32), PartitionRegistration)> = topics
                .iter()
                .flat_map(|(t, parts)| (0..parts.len() as i32).map(move |p| (*t, p)))
                .map(|k| (k, h.partition(k.0, k.1)))
                .collect();
            let what;
            if alive[b] {
                h.expire(id);
                alive[b] = false;
                what = "dies";
            } else if !registered_fenced[b] {
                if next(2) == 0 {
                    h.register_after_crash(id);
                    for ((t, p), part) in &before {
                        if part.replicas.contains(&id) && !part.isr.contains(&id) {
                            tainted.entry((*t, *p)).or_default().push(id);
                        }
                    }
                    what = "registers after a crash";
                } else {
                    h.register(id, None, METADATA_VERSION_LATEST);
                    what = "registers after a clean stop";
                }
                registered_fenced[b] = true;
            } else {
                assert!(!h.heartbeat(id, false).is_fenced);
                registered_fenced[b] = false;
                alive[b] = true;
                what = "is unfenced";
            }
            let ctx =
                |t: &str, p: i32| format!("seed {seed} step {step}: broker {id} {what}; {t}-{p}");
            for ((t, p), old) in &before {
                let now = h.partition(t, *p);
                let active = |r: i32| {
                    h.c.image()
                        .cluster
                        .brokers
                        .get(&r)
                        .is_some_and(|x| !x.fenced && !x.in_controlled_shutdown)
                };
                if now.leader >= 0 {
                    assert!(
                        active(now.leader),
                        "{}: leader {} is not active",
                        ctx(t, *p),
                        now.leader
                    );
                }
                let taint = tainted.entry((*t, *p)).or_default();
                if now.leader >= 0 && now.leader != old.leader {
                    if now.replicas.len() > 1 {
                        assert!(
                            !taint.contains(&now.leader),
                            "{}: tainted {} elected ({old:?} -> {now:?})",
                            ctx(t, *p),
                            now.leader
                        );
                    } else if taint.contains(&now.leader) {
                        assert_eq!(now.leader_recovery_state, LeaderRecoveryState::Recovering);
                        lone_returns += 1;
                    }
                }
                if now.replicas.len() == 1 && active(now.replicas[0]) {
                    assert_eq!(
                        now.leader,
                        now.replicas[0],
                        "{}: a lone replica is back",
                        ctx(t, *p)
                    );
                }
                taint.retain(|r| !now.isr.contains(r));
            }
        }
    }
    assert!(
        lone_returns > seeds as usize / 4,
        "the lone-replica election ran {lone_returns} times"
    );
}

/// One listed reassignment: (topic, partition, replicas, adding, removing).
type Ongoing = (String, i32, Vec<i32>, Vec<i32>, Vec<i32>);

impl Harness {
    /// AlterPartitionReassignments of `t`-0 to `replicas` (None: cancel) at `version`; the
    /// partition's answer (code, message).
    fn reassign(
        &mut self,
        t: &str,
        replicas: Option<&[i32]>,
        version: i16,
        allow_rf_change: bool,
    ) -> (ErrorCode, Option<String>) {
        use alter_partition_reassignments_request as apr;
        let body =
            RequestBody::AlterPartitionReassignments(apr::AlterPartitionReassignmentsRequest {
                allow_replication_factor_change: allow_rf_change,
                topics: vec![apr::ReassignableTopic {
                    name: t.into(),
                    partitions: vec![apr::ReassignablePartition {
                        partition_index: 0,
                        replicas: replicas.map(<[i32]>::to_vec),
                        ..Default::default()
                    }],
                    ..Default::default()
                }],
                ..Default::default()
            });
        let ResponseBody::AlterPartitionReassignments(r) = self.req(body, version) else {
            panic!()
        };
        let p = &r.responses[0].partitions[0];
        (
            ErrorCode::from_code(p.error_code).unwrap(),
            p.error_message.clone(),
        )
    }

    /// ListPartitionReassignments of every topic.
    fn reassignments(&mut self) -> Vec<Ongoing> {
        let body = RequestBody::ListPartitionReassignments(
            list_partition_reassignments_request::ListPartitionReassignmentsRequest::default(),
        );
        let ResponseBody::ListPartitionReassignments(r) = self.req(body, 0) else {
            panic!()
        };
        assert_eq!(r.error_code, 0);
        r.topics
            .iter()
            .flat_map(|t| {
                t.partitions.iter().map(|p| {
                    (
                        t.name.clone(),
                        p.partition_index,
                        p.replicas.clone(),
                        p.adding_replicas.clone(),
                        p.removing_replicas.clone(),
                    )
                })
            })
            .collect()
    }

    /// AlterPartition of `t`-0 from its leader with `isr`; the answer's error code.
    fn set_isr(&mut self, t: &str, isr: &[i32]) -> i16 {
        let p = self.partition(t, 0);
        self.alter_isr(t, p.leader, (p.leader_epoch, p.partition_epoch), isr)
            .error_code
    }

    /// AlterPartition v3 of `t`-0 from broker `from` at (leader epoch, partition epoch)
    /// with `isr` (each at its registered broker epoch); the partition's answer.
    fn alter_isr(
        &mut self,
        t: &str,
        from: i32,
        (leader_epoch, partition_epoch): (i32, i32),
        isr: &[i32],
    ) -> alter_partition_response::PartitionData {
        let id = self.c.image().topics.by_name[t];
        let epoch =
            |h: &Harness, b: i32| h.c.image().cluster.brokers.get(&b).map_or(-1, |x| x.epoch);
        let body = RequestBody::AlterPartition(alter_partition_request::AlterPartitionRequest {
            broker_id: from,
            broker_epoch: epoch(self, from),
            topics: vec![alter_partition_request::TopicData {
                topic_id: id,
                partitions: vec![alter_partition_request::PartitionData {
                    partition_index: 0,
                    leader_epoch,
                    partition_epoch,
                    new_isr_with_epochs: isr
                        .iter()
                        .map(|b| alter_partition_request::BrokerState {
                            broker_id: *b,
                            broker_epoch: epoch(self, *b),
                            ..Default::default()
                        })
                        .collect(),
                    ..Default::default()
                }],
                ..Default::default()
            }],
            ..Default::default()
        });
        let ResponseBody::AlterPartition(r) = self.req(body, 3) else {
            panic!()
        };
        r.topics[0].partitions[0].clone()
    }
}

#[test]
fn a_reassignment_adds_its_replicas_and_completes_once_they_are_in_sync() {
    let mut h = Harness::with_brokers(4);
    h.create_assigned("t", &[&[1, 2]], &[]);
    assert_eq!(h.reassign("t", Some(&[2, 3]), 1, true).0, ErrorCode::None);
    // Under way: the target first, then what is being removed; the ISR and leader stay.
    let p = h.partition("t", 0);
    assert_eq!(
        (
            p.replicas.clone(),
            p.adding_replicas.clone(),
            p.removing_replicas.clone()
        ),
        (vec![2, 3, 1], vec![3], vec![1])
    );
    assert_eq!((p.isr.clone(), p.leader), (vec![1, 2], 1));
    assert_eq!(
        h.reassignments(),
        vec![("t".to_string(), 0, vec![2, 3, 1], vec![3], vec![1])]
    );
    // Broker 3 is in sync: the reassignment completes, leadership moves into the target.
    assert_eq!(h.set_isr("t", &[1, 2, 3]), 0);
    let p = h.partition("t", 0);
    assert_eq!(
        (p.replicas.clone(), p.isr.clone(), p.leader),
        (vec![2, 3], vec![2, 3], 2)
    );
    assert!(p.adding_replicas.is_empty() && p.removing_replicas.is_empty());
    assert!(h.reassignments().is_empty());
    // Nothing to cancel now.
    assert_eq!(
        h.reassign("t", None, 1, true).0,
        ErrorCode::NoReassignmentInProgress
    );
}

#[test]
fn a_cancelled_or_replaced_reassignment_keeps_the_replicas_that_hold_the_data() {
    let mut h = Harness::with_brokers(4);
    h.create_assigned("t", &[&[1, 2]], &[]);
    assert_eq!(h.reassign("t", Some(&[2, 3]), 1, true).0, ErrorCode::None);
    // Replaced before it finished: 3 (being added) is removed again, 1 still.
    assert_eq!(h.reassign("t", Some(&[2, 4]), 1, true).0, ErrorCode::None);
    let p = h.partition("t", 0);
    assert_eq!(
        (
            p.replicas.clone(),
            p.adding_replicas.clone(),
            p.removing_replicas.clone()
        ),
        (vec![2, 4, 3, 1], vec![4], vec![3, 1])
    );
    // Cancelled: back to the replicas the replaced one had reached (as Kafka reverts), the
    // ISR and leader untouched: nothing that holds the data leaves.
    assert_eq!(h.reassign("t", None, 1, true).0, ErrorCode::None);
    let p = h.partition("t", 0);
    assert_eq!(
        (p.replicas.clone(), p.isr.clone(), p.leader),
        (vec![2, 3, 1], vec![1, 2], 1)
    );
    assert!(p.adding_replicas.is_empty() && p.removing_replicas.is_empty());
    // A shrink whose target is in sync completes at once.
    h.create_assigned("s", &[&[1, 2, 3]], &[]);
    assert_eq!(h.reassign("s", Some(&[3, 1]), 0, true).0, ErrorCode::None);
    let p = h.partition("s", 0);
    assert_eq!(
        (p.replicas.clone(), p.isr.clone(), p.leader),
        (vec![3, 1], vec![1, 3], 1)
    );
    assert!(h.reassignments().is_empty());
}

#[test]
fn a_reassignment_is_refused_for_bad_targets() {
    let mut h = Harness::with_brokers(3);
    h.create_assigned("t", &[&[1, 2]], &[]);
    let table: &[(&[i32], i16, bool, ErrorCode, &str)] = &[
        (
            &[],
            1,
            true,
            ErrorCode::InvalidReplicaAssignment,
            "empty replica list",
        ),
        (
            &[1, 1],
            1,
            true,
            ErrorCode::InvalidReplicaAssignment,
            "duplicate replicas",
        ),
        (
            &[1, 9],
            1,
            true,
            ErrorCode::InvalidReplicaAssignment,
            "broker 9",
        ),
        (
            &[1, 2, 3],
            1,
            false,
            ErrorCode::InvalidReplicationFactor,
            "changed from 2 to 3",
        ),
    ];
    for (target, version, allow, code, why) in table {
        let (got, message) = h.reassign("t", Some(target), *version, *allow);
        assert_eq!(got, *code, "{target:?}");
        assert!(
            message.as_deref().unwrap_or("").contains(why),
            "{message:?}"
        );
    }
    // v0 has no AllowReplicationFactorChange: the factor may change.
    assert_eq!(
        h.reassign("t", Some(&[1, 2, 3]), 0, false).0,
        ErrorCode::None
    );
    assert_eq!(
        h.reassign("nope", Some(&[1]), 1, true).0,
        ErrorCode::UnknownTopicOrPartition
    );
    assert!(h.batches.iter().flatten().all(|r| match r {
        MetadataRecord::PartitionChange(c) => c.replicas.as_ref().is_none_or(|r| !r.contains(&9)),
        _ => true,
    }));
}

#[test]
fn kafkas_dynamic_broker_keys_are_accepted_with_its_per_broker_and_listener_rules() {
    let mut h = Harness::with_brokers(1);
    let ok = ErrorCode::None.code();
    // Kafka's brokers refuse a broker update with INVALID_REQUEST.
    let refused = ErrorCode::InvalidRequest.code();
    let key = "sasl.kerberos.min.time.before.relogin";
    // Every key Kafka lists as dynamic, per broker and (where Kafka allows) cluster-wide.
    assert_eq!(incremental_alter(&mut h, 4, "1", key, 0, Some("58000")), ok);
    assert_eq!(h.c.image().configs.get(4, "1", key), Some("58000"));
    for (k, v) in [
        ("log.cleaner.threads", "2"),
        ("num.io.threads", "16"),
        ("log.cleaner.io.max.bytes.per.second", "1.0E7"),
        ("max.connections", "1000"),
        ("num.network.threads", "4"),
        ("producer.id.expiration.ms", "86400000"),
        ("compression.type", "zstd"),
    ] {
        assert_eq!(incremental_alter(&mut h, 4, "", k, 0, Some(v)), ok, "{k}");
        assert_eq!(incremental_alter(&mut h, 4, "1", k, 0, Some(v)), ok, "{k}");
    }
    // Kafka's types are checked.
    assert_eq!(
        incremental_alter(&mut h, 4, "1", "num.io.threads", 0, Some("many")),
        refused
    );
    // SSL stores only per listener; listener and security keys only per broker.
    assert_eq!(
        incremental_alter(&mut h, 4, "1", "ssl.keystore.location", 0, Some("/k")),
        refused
    );
    let prefixed = "listener.name.external.ssl.keystore.location";
    assert_eq!(
        incremental_alter(&mut h, 4, "1", prefixed, 0, Some("/k")),
        ok
    );
    assert_eq!(
        incremental_alter(&mut h, 4, "", prefixed, 0, Some("/k")),
        refused
    );
    assert_eq!(incremental_alter(&mut h, 4, "", key, 0, Some("1")), refused);
    let jaas = "listener.name.sasl_ssl.plain.sasl.jaas.config";
    assert_eq!(incremental_alter(&mut h, 4, "1", jaas, 0, Some("x")), ok);
    // Keys only the server properties set stay refused; a key Kafka does not know is a
    // custom key, stored; a set key can be deleted.
    assert_eq!(
        incremental_alter(&mut h, 4, "1", "log.dirs", 0, Some("/x")),
        refused
    );
    assert_eq!(
        incremental_alter(&mut h, 4, "1", "my.custom.key", 0, Some("v")),
        ok
    );
    assert_eq!(h.c.image().configs.get(4, "1", "my.custom.key"), Some("v"));
    assert_eq!(incremental_alter(&mut h, 4, "1", key, 1, None), ok);
    assert_eq!(h.c.image().configs.get(4, "1", key), None);
    // The controller describes them back with their source (2: DYNAMIC_BROKER_CONFIG).
    let d =
        h.c.describe_configs(&describe_configs_request::DescribeConfigsRequest {
            resources: vec![describe_configs_request::DescribeConfigsResource {
                resource_type: 4,
                resource_name: "1".into(),
                configuration_keys: Some(vec![
                    "num.io.threads".into(),
                    prefixed.into(),
                    "my.custom.key".into(),
                ]),
                ..Default::default()
            }],
            ..Default::default()
        });
    let ResponseBody::DescribeConfigs(d) = d else {
        panic!()
    };
    let got: Vec<(String, Option<String>, i8, bool, i8)> = d.results[0]
        .configs
        .iter()
        .map(|c| {
            (
                c.name.clone(),
                c.value.clone(),
                c.config_source,
                c.read_only,
                c.config_type,
            )
        })
        .collect();
    // A custom key is read-only and of no type (0), as Kafka describes one.
    assert_eq!(
        got,
        vec![
            (prefixed.to_string(), Some("/k".to_string()), 2, false, 2),
            (
                "my.custom.key".to_string(),
                Some("v".to_string()),
                2,
                true,
                0
            ),
            (
                "num.io.threads".to_string(),
                Some("16".to_string()),
                2,
                false,
                3
            ),
        ]
    );
}
