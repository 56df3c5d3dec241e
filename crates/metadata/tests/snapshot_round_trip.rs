//! Image -> snapshot -> image is the identical image, checked after every one of thousands of
//! random (but valid) record batches; every batch also goes through the on-disk record format
//! before it is applied.

use fjord_metadata::snapshot::{batch_at, batch_records, image_batches, load};
use fjord_metadata::version::{MetadataVersion, METADATA_VERSION_LATEST, METADATA_VERSION_MIN};
use fjord_metadata::MetadataImage;
use fjord_protocol::generated::{
    access_control_entry_record::AccessControlEntryRecord,
    broker_registration_change_record::BrokerRegistrationChangeRecord,
    clear_elr_record::ClearElrRecord,
    config_record::ConfigRecord,
    feature_level_record::FeatureLevelRecord,
    fence_broker_record::FenceBrokerRecord,
    partition_change_record::PartitionChangeRecord,
    partition_record::PartitionRecord,
    producer_ids_record::ProducerIdsRecord,
    register_broker_record::{BrokerEndpoint, BrokerFeature, RegisterBrokerRecord},
    register_controller_record::RegisterControllerRecord,
    remove_access_control_entry_record::RemoveAccessControlEntryRecord,
    remove_topic_record::RemoveTopicRecord,
    remove_user_scram_credential_record::RemoveUserScramCredentialRecord,
    topic_record::TopicRecord,
    unfence_broker_record::UnfenceBrokerRecord,
    unregister_broker_record::UnregisterBrokerRecord,
    unregister_controller_record::UnregisterControllerRecord,
    user_scram_credential_record::UserScramCredentialRecord,
};
use fjord_protocol::records::RecordBatch;
use fjord_protocol::{MetadataRecord, Uuid};

use fjord_util::SimRng as Rng;

/// `n` of `brokers` (at least one) in a random order.
fn replicas(g: &mut Rng, brokers: &[i32], n: usize) -> Vec<i32> {
    let mut r: Vec<i32> = brokers.to_vec();
    for i in (1..r.len()).rev() {
        r.swap(i, g.below(i as u64 + 1) as usize);
    }
    r.truncate(n.max(1));
    r
}

/// One valid record for `image`.
fn random_record(g: &mut Rng, image: &MetadataImage, serial: &mut u64) -> Option<MetadataRecord> {
    *serial += 1;
    let brokers: Vec<i32> = image.cluster.brokers.keys().copied().collect();
    let topics: Vec<Uuid> = image.topics.by_id.keys().copied().collect();
    Some(match g.below(17) {
        16 => {
            use fjord_protocol::generated::client_quota_record::{ClientQuotaRecord, EntityData};
            let name = |g: &mut Rng, names: [&str; 2]| -> Option<String> {
                match g.below(3) {
                    0 => None,
                    i => Some(names[i as usize - 1].to_string()),
                }
            };
            let mut entity = Vec::new();
            let kind = g.below(3);
            if kind != 1 {
                entity.push(EntityData {
                    entity_type: "user".into(),
                    entity_name: name(g, ["alice", "bob"]),
                    ..Default::default()
                });
            }
            if kind != 0 {
                entity.push(EntityData {
                    entity_type: "client-id".into(),
                    entity_name: name(g, ["app", "tool"]),
                    ..Default::default()
                });
            }
            MetadataRecord::ClientQuota(ClientQuotaRecord {
                entity,
                key: ["producer_byte_rate", "request_percentage"][g.below(2) as usize].into(),
                value: (1 + g.below(1 << 20)) as f64,
                remove: g.below(3) == 0,
                ..Default::default()
            })
        }
        15 => {
            let users: Vec<(String, i8)> = image.scram.by_user.keys().cloned().collect();
            if g.below(3) == 0 && !users.is_empty() {
                let (name, mechanism) = users[g.below(users.len() as u64) as usize].clone();
                MetadataRecord::RemoveUserScramCredential(RemoveUserScramCredentialRecord {
                    name,
                    mechanism,
                    ..Default::default()
                })
            } else {
                MetadataRecord::UserScramCredential(UserScramCredentialRecord {
                    name: ["alice", "bob", "carol"][g.below(3) as usize].into(),
                    mechanism: 1 + g.below(2) as i8,
                    salt: vec![g.below(256) as u8; 16].into(),
                    stored_key: vec![g.below(256) as u8; 32].into(),
                    server_key: vec![g.below(256) as u8; 32].into(),
                    iterations: 4096 + g.below(4096) as i32,
                    ..Default::default()
                })
            }
        }
        14 => {
            let ids: Vec<Uuid> = image.acls.by_id.keys().copied().collect();
            if g.below(3) == 0 && !ids.is_empty() {
                MetadataRecord::RemoveAccessControlEntry(RemoveAccessControlEntryRecord {
                    id: g.pick(&ids)?,
                    ..Default::default()
                })
            } else {
                MetadataRecord::AccessControlEntry(AccessControlEntryRecord {
                    id: Uuid::from_u128(g.next_u64() as u128 | 1),
                    resource_type: g.pick(&[2, 3, 4, 5, 6, 7])?,
                    resource_name: ["orders", "or", "*", "kafka-cluster"][g.below(4) as usize]
                        .into(),
                    pattern_type: g.pick(&[3, 4])?,
                    principal: ["User:alice", "User:*", "User:bob"][g.below(3) as usize].into(),
                    host: ["*", "10.0.0.1"][g.below(2) as usize].into(),
                    operation: 2 + g.below(14) as i8,
                    permission_type: g.pick(&[2, 3])?,
                    ..Default::default()
                })
            }
        }
        0 | 1 => {
            let id = g.below(8) as i32;
            MetadataRecord::RegisterBroker(RegisterBrokerRecord {
                broker_id: id,
                incarnation_id: Uuid::from_u128(g.next_u64() as u128),
                broker_epoch: *serial as i64,
                end_points: vec![BrokerEndpoint {
                    name: "PLAINTEXT".into(),
                    host: "127.0.0.1".into(),
                    port: 9000 + id as u16,
                    security_protocol: 0,
                    ..Default::default()
                }],
                features: vec![BrokerFeature {
                    name: "metadata.version".into(),
                    min_supported_version: 1,
                    max_supported_version: 20 + g.below(5) as i16,
                    ..Default::default()
                }],
                rack: (g.below(2) == 0).then(|| format!("rack-{}", g.below(3))),
                fenced: g.below(2) == 0,
                in_controlled_shutdown: false,
                log_dirs: vec![Uuid::from_u128(id as u128 + 7)],
                ..Default::default()
            })
        }
        2 => {
            let id = g.pick(&brokers)?;
            let epoch = image.cluster.brokers[&id].epoch;
            match g.below(4) {
                0 => MetadataRecord::FenceBroker(FenceBrokerRecord {
                    id,
                    epoch,
                    ..Default::default()
                }),
                1 => MetadataRecord::UnfenceBroker(UnfenceBrokerRecord {
                    id,
                    epoch,
                    ..Default::default()
                }),
                2 => MetadataRecord::BrokerRegistrationChange(BrokerRegistrationChangeRecord {
                    broker_id: id,
                    broker_epoch: epoch,
                    fenced: [0, 1, -1][g.below(3) as usize],
                    in_controlled_shutdown: g.below(2) as i8,
                    ..Default::default()
                }),
                _ => MetadataRecord::UnregisterBroker(UnregisterBrokerRecord {
                    broker_id: id,
                    broker_epoch: epoch,
                    ..Default::default()
                }),
            }
        }
        3 | 4 => {
            if brokers.is_empty() {
                return None;
            }
            let id = Uuid::from_u128(*serial as u128 * 7919 + 1);
            MetadataRecord::Topic(TopicRecord {
                name: format!("topic-{serial}"),
                topic_id: id,
                ..Default::default()
            })
        }
        5 | 6 => {
            let t = g.pick(&topics)?;
            let n = image.topics.by_id[&t].partitions.len() as i32;
            let rf = 1 + g.below(3) as usize;
            let replicas = replicas(g, &brokers, rf);
            MetadataRecord::Partition(PartitionRecord {
                partition_id: n,
                topic_id: t,
                isr: replicas.clone(),
                leader: *replicas.first()?,
                directories: replicas
                    .iter()
                    .map(|r| Uuid::from_u128(*r as u128 + 7))
                    .collect(),
                replicas,
                leader_epoch: 0,
                partition_epoch: 0,
                eligible_leader_replicas: (g.below(3) == 0).then(Vec::new),
                ..Default::default()
            })
        }
        7 | 8 => {
            let t = g.pick(&topics)?;
            let parts: Vec<i32> = image.topics.by_id[&t].partitions.keys().copied().collect();
            let p = g.pick(&parts)?;
            let reg = &image.topics.by_id[&t].partitions[&p];
            let isr: Vec<i32> = reg
                .replicas
                .iter()
                .copied()
                .filter(|_| g.below(3) != 0)
                .collect();
            let elr: Vec<i32> = reg
                .replicas
                .iter()
                .copied()
                .filter(|r| !isr.contains(r))
                .collect();
            MetadataRecord::PartitionChange(PartitionChangeRecord {
                partition_id: p,
                topic_id: t,
                isr: (g.below(2) == 0).then(|| isr.clone()),
                leader: if g.below(2) == 0 {
                    isr.first().copied().unwrap_or(-1)
                } else {
                    -2
                },
                leader_recovery_state: [-1, 0, 1][g.below(3) as usize],
                eligible_leader_replicas: (g.below(2) == 0).then(|| elr.clone()),
                last_known_elr: (g.below(4) == 0).then_some(elr),
                replicas: if g.below(6) == 0 {
                    Some(replicas(g, &brokers, reg.replicas.len()))
                } else {
                    None
                },
                ..Default::default()
            })
        }
        9 => MetadataRecord::RemoveTopic(RemoveTopicRecord {
            topic_id: g.pick(&topics)?,
            ..Default::default()
        }),
        10 => {
            let (kind, name) = if g.below(2) == 0 {
                let t = g.pick(&topics)?;
                (2, image.topics.by_id[&t].name.clone())
            } else {
                (4, g.pick(&brokers).map_or(String::new(), |b| b.to_string()))
            };
            let keys = ["retention.ms", "min.insync.replicas", "cleanup.policy"];
            MetadataRecord::Config(ConfigRecord {
                resource_type: kind,
                resource_name: name,
                name: keys[g.below(3) as usize].into(),
                value: (g.below(4) != 0).then(|| g.below(1000).to_string()),
                ..Default::default()
            })
        }
        11 => {
            let name = ["metadata.version", "kraft.version", "group.version"][g.below(3) as usize];
            // metadata.version only goes up, as the controller allows.
            let feature_level = if name == "metadata.version" {
                let current = image
                    .features
                    .metadata_version()
                    .unwrap_or(METADATA_VERSION_MIN);
                (current + g.below(3) as i16).min(METADATA_VERSION_LATEST)
            } else {
                g.below(25) as i16
            };
            MetadataRecord::FeatureLevel(FeatureLevelRecord {
                name: name.into(),
                feature_level,
                ..Default::default()
            })
        }
        12 => {
            if g.below(2) == 0 {
                MetadataRecord::RegisterController(RegisterControllerRecord {
                    controller_id: 100 + g.below(4) as i32,
                    incarnation_id: Uuid::from_u128(g.next_u64() as u128),
                    ..Default::default()
                })
            } else {
                let ids: Vec<i32> = image.cluster.controllers.keys().copied().collect();
                MetadataRecord::UnregisterController(UnregisterControllerRecord {
                    controller_id: g.pick(&ids)?,
                    ..Default::default()
                })
            }
        }
        _ => {
            if g.below(2) == 0 {
                MetadataRecord::ProducerIds(ProducerIdsRecord {
                    broker_id: g.pick(&brokers).unwrap_or(0),
                    broker_epoch: 0,
                    next_producer_id: image.next_producer_id + 1000,
                    ..Default::default()
                })
            } else {
                let names: Vec<String> = image.topics.by_name.keys().cloned().collect();
                MetadataRecord::ClearElr(ClearElrRecord {
                    topic_name: if g.below(2) == 0 {
                        String::new()
                    } else {
                        names.get(g.below(names.len() as u64) as usize)?.clone()
                    },
                    ..Default::default()
                })
            }
        }
    })
}

#[test]
fn snapshots_reload_to_the_identical_image_after_random_batches() {
    let mut batches = 0;
    for seed in 0..12u64 {
        let mut g = Rng::new(seed);
        // A new cluster's first record: its metadata.version, at any level this build runs.
        let bootstrap = MetadataRecord::FeatureLevel(FeatureLevelRecord {
            name: "metadata.version".into(),
            feature_level: METADATA_VERSION_MIN
                + g.below((METADATA_VERSION_LATEST - METADATA_VERSION_MIN + 1) as u64) as i16,
            ..Default::default()
        });
        let mut image = MetadataImage::empty().apply([&bootstrap], 0, 1).unwrap().0;
        let mut serial = 0;
        for b in 0..300 {
            let n = 1 + g.below(8);
            let mut records = Vec::new();
            let mut staged = image.clone();
            // Written as a controller at the image's metadata.version writes them.
            let mv = MetadataVersion::of(image.features.metadata_version());
            for _ in 0..n {
                // Each record must fit the image as the batch leaves it so far.
                if let Some(r) = random_record(&mut g, &staged, &mut serial) {
                    let r = mv.downgrade(&r).into_owned();
                    if let Ok((next, _)) = staged.apply([&r], staged.provenance.last_offset, 0) {
                        staged = next;
                        records.push(r);
                    }
                }
            }
            if records.is_empty() {
                continue;
            }
            // Through the log's format and back.
            let bytes = batch_at(&records, mv, 1_000).unwrap();
            let decoded = batch_records(&RecordBatch::new(bytes).unwrap()).unwrap();
            assert_eq!(
                decoded, records,
                "seed {seed} batch {b}: the record format round trips"
            );
            let offset = image.provenance.last_offset + records.len() as i64;
            let (next, changes) = image.apply(&decoded, offset, 1).unwrap();
            assert!(
                changes != Default::default()
                    || decoded.iter().all(|r| {
                        matches!(
                            r,
                            MetadataRecord::ProducerIds(_) | MetadataRecord::ClearElr(_)
                        )
                    }),
                "seed {seed} batch {b}: a batch reports what it changed"
            );
            image = next;
            batches += 1;
            let state = image_batches(&image, 1_000).unwrap();
            let reloaded = load(state, offset, 1).unwrap();
            assert_eq!(
                reloaded, image,
                "seed {seed} batch {b}: the snapshot reloads identically"
            );
        }
        assert!(image.topics.by_id.len() > 3, "seed {seed} grew topics");
    }
    assert!(batches >= 3_000, "{batches} batches");
}

#[test]
fn records_that_contradict_the_image_are_refused() {
    let image = MetadataImage::empty();
    let change = MetadataRecord::PartitionChange(PartitionChangeRecord {
        topic_id: Uuid::from_u128(5),
        ..Default::default()
    });
    assert!(image.apply([&change], 0, 0).is_err());
    let fence = MetadataRecord::FenceBroker(FenceBrokerRecord {
        id: 3,
        epoch: 1,
        ..Default::default()
    });
    assert!(image.apply([&fence], 0, 0).is_err());
    let topic = MetadataRecord::Topic(TopicRecord {
        name: "a".into(),
        topic_id: Uuid::from_u128(1),
        ..Default::default()
    });
    let (image, changes) = image.apply([&topic], 0, 0).unwrap();
    assert!(changes.topics.contains(&Uuid::from_u128(1)));
    let again = MetadataRecord::Topic(TopicRecord {
        name: "a".into(),
        topic_id: Uuid::from_u128(2),
        ..Default::default()
    });
    assert!(image.apply([&again], 1, 0).is_err(), "duplicate name");
}
