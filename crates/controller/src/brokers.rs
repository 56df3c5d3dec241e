//! Brokers and controllers: registration (the broker epoch is the offset of the registration
//! record), heartbeats with sessions, fencing and unfencing (moving leaderships), controlled
//! shutdown, UnregisterBroker, ControllerRegistration, UnregisterController (docs/EXTENSIONS.md's
//! check order), UpdateFeatures (refused while a registered node cannot run the level) and
//! producer-id blocks.

use crate::controller::{
    Controller, Handled, METADATA_VERSION_UNREGISTER_CONTROLLER, PRODUCER_ID_BLOCK,
};
use crate::elections::{upkeep, Election};
use fjord_metadata::image::METADATA_VERSION;
use fjord_protocol::generated::{
    allocate_producer_ids_request::AllocateProducerIdsRequest,
    allocate_producer_ids_response::AllocateProducerIdsResponse,
    broker_heartbeat_request::BrokerHeartbeatRequest,
    broker_heartbeat_response::BrokerHeartbeatResponse,
    broker_registration_change_record::BrokerRegistrationChangeRecord,
    broker_registration_request::BrokerRegistrationRequest,
    broker_registration_response::BrokerRegistrationResponse,
    controller_registration_request::ControllerRegistrationRequest,
    controller_registration_response::ControllerRegistrationResponse,
    feature_level_record::FeatureLevelRecord,
    producer_ids_record::ProducerIdsRecord,
    register_broker_record::{self as rb, RegisterBrokerRecord},
    register_controller_record::{self as rc, RegisterControllerRecord},
    unregister_broker_record::UnregisterBrokerRecord,
    unregister_broker_request::UnregisterBrokerRequest,
    unregister_broker_response::UnregisterBrokerResponse,
    unregister_controller_record::UnregisterControllerRecord,
    unregister_controller_request::UnregisterControllerRequest,
    unregister_controller_response::UnregisterControllerResponse,
    update_features_request::UpdateFeaturesRequest,
    update_features_response::{UpdatableFeatureResult, UpdateFeaturesResponse},
};
use fjord_protocol::{ErrorCode, MetadataRecord, ResponseBody};

/// A broker registration waiting for its offset.
#[derive(Debug, Clone)]
pub struct RegistrationPlan {
    record: RegisterBrokerRecord,
    /// Partition changes that go with it (a broker that stopped uncleanly leaves the ELRs).
    changes_for_epoch: Vec<MetadataRecord>,
    session_deadline: i64,
}

impl RegistrationPlan {
    /// The broker.
    pub fn broker_id(&self) -> i32 {
        self.record.broker_id
    }

    /// The batch when it lands at `offset` (the broker epoch).
    pub fn records(&self, offset: i64) -> Vec<MetadataRecord> {
        let mut r = self.record.clone();
        r.broker_epoch = offset;
        let mut out = vec![MetadataRecord::RegisterBroker(r)];
        out.extend(self.changes_for_epoch.iter().cloned());
        out
    }

    /// The answer.
    pub fn response(&self, offset: i64) -> ResponseBody {
        ResponseBody::BrokerRegistration(BrokerRegistrationResponse {
            broker_epoch: offset,
            ..Default::default()
        })
    }
}

/// The first finalized feature (name, level) a node offering `offered` (name, min, max)
/// cannot run; a feature it does not name it supports only at level 0.
fn unsupported_feature<'a>(
    finalized: &fjord_metadata::image::FeaturesImage,
    offered: impl Iterator<Item = (&'a str, i16, i16)> + Clone,
) -> Option<(String, i16)> {
    finalized.finalized().into_iter().find(|(name, level)| {
        !offered
            .clone()
            .any(|(n, min, max)| n == name && (min..=max).contains(level))
    })
}

fn registration_error(code: ErrorCode) -> Handled {
    Handled::Reply(ResponseBody::BrokerRegistration(
        BrokerRegistrationResponse {
            error_code: code.code(),
            broker_epoch: -1,
            ..Default::default()
        },
    ))
}

/// The first UpdateFeatures version whose answer has no per-feature results: the top-level
/// error says it all.
const UPDATE_FEATURES_NO_RESULTS_VERSION: i16 = 2;

impl Controller {
    /// BrokerRegistration.
    pub(crate) fn broker_registration(
        &mut self,
        r: &BrokerRegistrationRequest,
        now: i64,
    ) -> Handled {
        if r.cluster_id != self.cluster_id {
            return registration_error(ErrorCode::InconsistentClusterId);
        }
        let offered = r.features.iter().map(|f| {
            (
                f.name.as_str(),
                f.min_supported_version,
                f.max_supported_version,
            )
        });
        if unsupported_feature(&self.image.features, offered).is_some() {
            return registration_error(ErrorCode::UnsupportedVersion);
        }
        if let Some(old) = self.image.cluster.brokers.get(&r.broker_id) {
            let alive = self.sessions.get(&r.broker_id).is_some_and(|d| *d > now);
            if old.incarnation_id != r.incarnation_id && alive && !old.fenced {
                return registration_error(ErrorCode::DuplicateBrokerRegistration);
            }
        }
        // A broker that did not shut down cleanly (its previous epoch is not the registered
        // one) may have lost data: it leaves the ELRs (KIP-966), recorded as last known ELR.
        let unclean = self
            .image
            .cluster
            .brokers
            .get(&r.broker_id)
            .is_some_and(|old| r.previous_broker_epoch != old.epoch);
        let mut changes = Vec::new();
        if unclean {
            for t in self.image.topics.by_id.values() {
                for (index, p) in &t.partitions {
                    if p.elr.contains(&r.broker_id) {
                        let elr: Vec<i32> = p
                            .elr
                            .iter()
                            .copied()
                            .filter(|b| *b != r.broker_id)
                            .collect();
                        let mut last_known = p.last_known_elr.clone();
                        if !last_known.contains(&r.broker_id) {
                            last_known.push(r.broker_id);
                        }
                        changes.push(MetadataRecord::PartitionChange(
                            fjord_protocol::generated::partition_change_record::PartitionChangeRecord {
                                partition_id: *index,
                                topic_id: t.id,
                                eligible_leader_replicas: Some(elr),
                                last_known_elr: Some(last_known),
                                ..Default::default()
                            },
                        ));
                    }
                }
            }
        }
        let record = RegisterBrokerRecord {
            broker_id: r.broker_id,
            incarnation_id: r.incarnation_id,
            broker_epoch: -1,
            end_points: r
                .listeners
                .iter()
                .map(|l| rb::BrokerEndpoint {
                    name: l.name.clone(),
                    host: l.host.clone(),
                    port: l.port,
                    security_protocol: l.security_protocol,
                    ..Default::default()
                })
                .collect(),
            features: r
                .features
                .iter()
                .map(|f| rb::BrokerFeature {
                    name: f.name.clone(),
                    min_supported_version: f.min_supported_version,
                    max_supported_version: f.max_supported_version,
                    ..Default::default()
                })
                .collect(),
            rack: r.rack.clone(),
            fenced: true,
            in_controlled_shutdown: false,
            log_dirs: r.log_dirs.clone(),
            ..Default::default()
        };
        Handled::Register(RegistrationPlan {
            record,
            changes_for_epoch: changes,
            session_deadline: now + self.settings.broker_session_timeout_ms,
        })
    }

    /// Records a registration that was appended at `offset`: the working image and session.
    pub fn registered(
        &mut self,
        plan: &RegistrationPlan,
        offset: i64,
    ) -> Result<Vec<MetadataRecord>, fjord_metadata::ApplyError> {
        let records = plan.records(offset);
        self.apply(&records)?;
        self.sessions
            .insert(plan.broker_id(), plan.session_deadline);
        Ok(records)
    }

    /// BrokerHeartbeat: keeps the session; unfences a caught-up broker; runs a controlled
    /// shutdown.
    pub(crate) fn broker_heartbeat(&mut self, r: &BrokerHeartbeatRequest, now: i64) -> Handled {
        let reply = |code: ErrorCode, caught_up: bool, fenced: bool, shut_down: bool| {
            ResponseBody::BrokerHeartbeat(BrokerHeartbeatResponse {
                error_code: code.code(),
                is_caught_up: caught_up,
                is_fenced: fenced,
                should_shut_down: shut_down,
                ..Default::default()
            })
        };
        let Some(b) = self.image.cluster.brokers.get(&r.broker_id).cloned() else {
            return Handled::Reply(reply(ErrorCode::BrokerIdNotRegistered, false, true, false));
        };
        if b.epoch != r.broker_epoch {
            return Handled::Reply(reply(ErrorCode::StaleBrokerEpoch, false, true, false));
        }
        self.sessions
            .insert(r.broker_id, now + self.settings.broker_session_timeout_ms);
        if r.offline_log_dirs.is_empty() {
            self.offline_dirs.remove(&r.broker_id);
        } else {
            self.offline_dirs
                .insert(r.broker_id, r.offline_log_dirs.clone());
        }
        let caught_up = r.current_metadata_offset >= b.epoch;
        // KIP-858: a log dir the broker reports offline leaves its registration (a record),
        // and every replica assigned to it leaves the ISR and leadership as a fenced
        // broker's would. The rest of the heartbeat is handled at the next one.
        let lost = self.offline_dir_records(&b, &r.offline_log_dirs);
        if !lost.is_empty() {
            return Handled::Write {
                records: lost,
                response: reply(ErrorCode::None, caught_up, b.fenced, false),
            };
        }
        let mut records = Vec::new();
        let mut fenced = b.fenced;
        let mut shut_down = false;
        if r.want_shut_down {
            if !b.in_controlled_shutdown && !b.fenced {
                records.push(MetadataRecord::BrokerRegistrationChange(
                    BrokerRegistrationChangeRecord {
                        broker_id: b.id,
                        broker_epoch: b.epoch,
                        in_controlled_shutdown: 1,
                        ..Default::default()
                    },
                ));
                if self.apply(&records).is_err() {
                    return Handled::Reply(reply(
                        ErrorCode::UnknownServerError,
                        caught_up,
                        fenced,
                        false,
                    ));
                }
                let moves = self.partition_upkeep_for(b.id);
                if self.apply(&moves).is_err() {
                    return Handled::Reply(reply(
                        ErrorCode::UnknownServerError,
                        caught_up,
                        fenced,
                        false,
                    ));
                }
                records.extend(moves);
            }
            let leads_nothing = self
                .image
                .topics
                .by_id
                .values()
                .all(|t| t.partitions.values().all(|p| p.leader != b.id));
            if leads_nothing {
                shut_down = true;
                if !fenced {
                    let fence = vec![MetadataRecord::BrokerRegistrationChange(
                        BrokerRegistrationChangeRecord {
                            broker_id: b.id,
                            broker_epoch: b.epoch,
                            fenced: 1,
                            ..Default::default()
                        },
                    )];
                    if self.apply(&fence).is_ok() {
                        records.extend(fence);
                        fenced = true;
                    }
                }
            }
            // Already applied: hand the batch over without applying it again.
            let response = reply(ErrorCode::None, caught_up, fenced, shut_down);
            return if records.is_empty() {
                Handled::Reply(response)
            } else {
                Handled::Write { records, response }
            };
        }
        // A broker in controlled shutdown is never unfenced: only a new registration (a new
        // process) clears that state.
        if b.fenced && !b.in_controlled_shutdown && !r.want_fence && caught_up {
            records.push(MetadataRecord::BrokerRegistrationChange(
                BrokerRegistrationChangeRecord {
                    broker_id: b.id,
                    broker_epoch: b.epoch,
                    fenced: -1,
                    ..Default::default()
                },
            ));
            if self.apply(&records).is_err() {
                return Handled::Reply(reply(
                    ErrorCode::UnknownServerError,
                    caught_up,
                    fenced,
                    false,
                ));
            }
            let elections = self.partition_upkeep_for(b.id);
            if self.apply(&elections).is_ok() {
                records.extend(elections);
            }
            fenced = false;
            return Handled::Write {
                records,
                response: reply(ErrorCode::None, caught_up, fenced, false),
            };
        }
        if !b.fenced && r.want_fence {
            let fence = self.fence_broker(b.id);
            return self.write(fence, reply(ErrorCode::None, caught_up, true, false));
        }
        Handled::Reply(reply(ErrorCode::None, caught_up, fenced, false))
    }

    /// The records taking the log dirs in `offline` out of broker `b`'s registration and the
    /// partition changes that follows from it, applied; empty when none of them is
    /// registered (already handled), or when they are all it has (a broker with no online
    /// dir shuts itself down).
    fn offline_dir_records(
        &mut self,
        b: &fjord_metadata::image::BrokerRegistration,
        offline: &[fjord_protocol::Uuid],
    ) -> Vec<MetadataRecord> {
        if !offline.iter().any(|d| b.log_dirs.contains(d)) {
            return Vec::new();
        }
        let online: Vec<fjord_protocol::Uuid> = b
            .log_dirs
            .iter()
            .copied()
            .filter(|d| !offline.contains(d))
            .collect();
        if online.is_empty() {
            return Vec::new();
        }
        let mut records = vec![MetadataRecord::BrokerRegistrationChange(
            BrokerRegistrationChangeRecord {
                broker_id: b.id,
                broker_epoch: b.epoch,
                log_dirs: online,
                ..Default::default()
            },
        )];
        if self.apply(&records).is_err() {
            return Vec::new();
        }
        let moves = self.partition_upkeep_for(b.id);
        if self.apply(&moves).is_ok() {
            records.extend(moves);
        }
        records
    }

    /// AssignReplicasToDirs (KIP-858): a broker says which of its log dirs holds each replica;
    /// the partitions' `directories` follow, one PartitionChangeRecord each, and a replica
    /// assigned to a dir that is not online leaves the ISR and leadership.
    pub(crate) fn assign_replicas_to_dirs(
        &mut self,
        r: &fjord_protocol::generated::assign_replicas_to_dirs_request::AssignReplicasToDirsRequest,
    ) -> Handled {
        use fjord_protocol::generated::assign_replicas_to_dirs_response as ar;
        use fjord_protocol::generated::partition_change_record::PartitionChangeRecord;
        let top = |code: ErrorCode| {
            Handled::Reply(ResponseBody::AssignReplicasToDirs(
                ar::AssignReplicasToDirsResponse {
                    error_code: code.code(),
                    ..Default::default()
                },
            ))
        };
        let online = match self.image.cluster.brokers.get(&r.broker_id) {
            None => return top(ErrorCode::BrokerIdNotRegistered),
            Some(b) if b.epoch != r.broker_epoch => return top(ErrorCode::StaleBrokerEpoch),
            Some(b) => b.log_dirs.clone(),
        };
        let mut records = Vec::new();
        let mut response = ar::AssignReplicasToDirsResponse::default();
        for d in &r.directories {
            let mut dir = ar::DirectoryData {
                id: d.id,
                ..Default::default()
            };
            for t in &d.topics {
                let mut topic = ar::TopicData {
                    topic_id: t.topic_id,
                    ..Default::default()
                };
                for p in &t.partitions {
                    let index = p.partition_index;
                    let code = match self
                        .image
                        .topics
                        .by_id
                        .get(&t.topic_id)
                        .map(|x| x.partitions.get(&index))
                    {
                        None => ErrorCode::UnknownTopicId,
                        Some(None) => ErrorCode::UnknownTopicOrPartition,
                        Some(Some(cur)) => {
                            match cur.replicas.iter().position(|x| *x == r.broker_id) {
                                None => ErrorCode::NotLeaderOrFollower,
                                Some(i) if cur.directories.get(i) == Some(&d.id) => ErrorCode::None,
                                Some(i) => {
                                    let mut directories =
                                        if cur.directories.len() == cur.replicas.len() {
                                            cur.directories.clone()
                                        } else {
                                            vec![fjord_protocol::Uuid::nil(); cur.replicas.len()]
                                        };
                                    directories[i] = d.id;
                                    let change = vec![MetadataRecord::PartitionChange(
                                        PartitionChangeRecord {
                                            topic_id: t.topic_id,
                                            partition_id: index,
                                            leader: fjord_metadata::partition::NO_LEADER_CHANGE,
                                            directories: Some(directories),
                                            ..Default::default()
                                        },
                                    )];
                                    match self.apply(&change) {
                                        Ok(()) => {
                                            records.extend(change);
                                            ErrorCode::None
                                        }
                                        Err(_) => ErrorCode::UnknownServerError,
                                    }
                                }
                            }
                        }
                    };
                    topic.partitions.push(ar::PartitionData {
                        partition_index: index,
                        error_code: code.code(),
                        ..Default::default()
                    });
                }
                dir.topics.push(topic);
            }
            response.directories.push(dir);
        }
        // A replica now on a dir that is not online is unavailable.
        let offline_dir = r.directories.iter().any(|d| !online.contains(&d.id));
        if offline_dir && !online.is_empty() {
            let moves = self.partition_upkeep_for(r.broker_id);
            if self.apply(&moves).is_ok() {
                records.extend(moves);
            }
        }
        let response = ResponseBody::AssignReplicasToDirs(response);
        if records.is_empty() {
            Handled::Reply(response)
        } else {
            Handled::Write { records, response }
        }
    }

    /// The records fencing broker `id` (session expired or asked): the fence, then every
    /// partition it is in re-examined without it. Not applied.
    pub(crate) fn fence_broker(&mut self, id: i32) -> Vec<MetadataRecord> {
        let Some(b) = self.image.cluster.brokers.get(&id).cloned() else {
            return Vec::new();
        };
        let fence = vec![MetadataRecord::BrokerRegistrationChange(
            BrokerRegistrationChangeRecord {
                broker_id: id,
                broker_epoch: b.epoch,
                fenced: 1,
                ..Default::default()
            },
        )];
        let saved = self.image.clone();
        if self.apply(&fence).is_err() {
            return Vec::new();
        }
        let mut records = fence;
        records.extend(self.partition_upkeep_for(id));
        self.image = saved;
        records
    }

    /// Upkeep (ISR, ELR, leader) of every partition with `broker` among its replicas, against
    /// the working image. Not applied.
    pub(crate) fn partition_upkeep_for(&mut self, broker: i32) -> Vec<MetadataRecord> {
        let mut out = Vec::new();
        for t in self.image.topics.by_id.values() {
            let unclean = self.settings.unclean_enabled(&self.image, &t.name);
            for (index, p) in &t.partitions {
                if !p.replicas.contains(&broker) {
                    continue;
                }
                if let Some((r, e)) = upkeep(
                    &self.image,
                    &self.settings,
                    &t.name,
                    t.id,
                    *index,
                    p,
                    unclean,
                ) {
                    match e {
                        e if e.is_unclean() => self.counters.unclean_elections += 1,
                        Election::FromElr => self.counters.elr_elections += 1,
                        _ => {}
                    }
                    out.push(MetadataRecord::PartitionChange(r));
                }
            }
        }
        out
    }

    /// Leaderless partitions whose topic enables unclean election get a leader (Kafka's
    /// periodic check). Not applied.
    pub(crate) fn elect_unclean_where_enabled(&mut self) -> Vec<MetadataRecord> {
        let mut out = Vec::new();
        for t in self.image.topics.by_id.values() {
            if !self.settings.unclean_enabled(&self.image, &t.name) {
                continue;
            }
            for (index, p) in &t.partitions {
                if p.has_leader() {
                    continue;
                }
                if let Some((r, e)) =
                    upkeep(&self.image, &self.settings, &t.name, t.id, *index, p, true)
                {
                    if r.leader >= 0 {
                        if e.is_unclean() {
                            self.counters.unclean_elections += 1;
                        }
                        out.push(MetadataRecord::PartitionChange(r));
                    }
                }
            }
        }
        out
    }

    /// UnregisterBroker.
    pub(crate) fn unregister_broker(&mut self, r: &UnregisterBrokerRequest) -> Handled {
        let Some(b) = self.image.cluster.brokers.get(&r.broker_id).cloned() else {
            return Handled::Reply(ResponseBody::UnregisterBroker(UnregisterBrokerResponse {
                error_code: ErrorCode::BrokerIdNotRegistered.code(),
                error_message: Some(format!(
                    "Broker ID {} is not currently registered",
                    r.broker_id
                )),
                ..Default::default()
            }));
        };
        let mut records = self.fence_broker(b.id);
        records.push(MetadataRecord::UnregisterBroker(UnregisterBrokerRecord {
            broker_id: b.id,
            broker_epoch: b.epoch,
            ..Default::default()
        }));
        self.sessions.remove(&b.id);
        self.write(
            records,
            ResponseBody::UnregisterBroker(UnregisterBrokerResponse::default()),
        )
    }

    /// ControllerRegistration: every controller registers (again when its registration is
    /// gone or changed).
    pub(crate) fn controller_registration(&mut self, r: &ControllerRegistrationRequest) -> Handled {
        let offered = r.features.iter().map(|f| {
            (
                f.name.as_str(),
                f.min_supported_version,
                f.max_supported_version,
            )
        });
        if let Some((name, level)) = unsupported_feature(&self.image.features, offered) {
            return Handled::Reply(ResponseBody::ControllerRegistration(
                ControllerRegistrationResponse {
                    error_code: ErrorCode::UnsupportedVersion.code(),
                    error_message: Some(format!(
                        "Controller {} does not support {name} {level}",
                        r.controller_id
                    )),
                    ..Default::default()
                },
            ));
        }
        let record = RegisterControllerRecord {
            controller_id: r.controller_id,
            incarnation_id: r.incarnation_id,
            zk_migration_ready: r.zk_migration_ready,
            end_points: r
                .listeners
                .iter()
                .map(|l| rc::ControllerEndpoint {
                    name: l.name.clone(),
                    host: l.host.clone(),
                    port: l.port,
                    security_protocol: l.security_protocol,
                    ..Default::default()
                })
                .collect(),
            features: r
                .features
                .iter()
                .map(|f| rc::ControllerFeature {
                    name: f.name.clone(),
                    min_supported_version: f.min_supported_version,
                    max_supported_version: f.max_supported_version,
                    ..Default::default()
                })
                .collect(),
            ..Default::default()
        };
        let unchanged = self
            .image
            .cluster
            .controllers
            .get(&r.controller_id)
            .is_some_and(|c| {
                c.incarnation_id == r.incarnation_id
                    && c.listeners.len() == record.end_points.len()
                    && c.supported_features.len() == record.features.len()
            });
        let response =
            ResponseBody::ControllerRegistration(ControllerRegistrationResponse::default());
        if unchanged {
            return Handled::Reply(response);
        }
        self.write(vec![MetadataRecord::RegisterController(record)], response)
    }

    /// UnregisterController, with docs/EXTENSIONS.md's checks in order (the runtime answers
    /// NOT_CONTROLLER before this is reached on a non-active controller).
    pub(crate) fn unregister_controller(&mut self, r: &UnregisterControllerRequest) -> Handled {
        let fail = |code: ErrorCode, message: String| {
            Handled::Reply(ResponseBody::UnregisterController(
                UnregisterControllerResponse {
                    error_code: code.code(),
                    error_message: Some(message),
                    ..Default::default()
                },
            ))
        };
        let id = r.controller_id;
        if self.voters.contains(&id) {
            return fail(
                ErrorCode::InvalidRequest,
                format!("Cannot unregister controller {id} because it is part of the voter set."),
            );
        }
        let mv = self.image.features.metadata_version().unwrap_or(0);
        if mv < METADATA_VERSION_UNREGISTER_CONTROLLER {
            return fail(
                ErrorCode::UnsupportedVersion,
                format!(
                    "The current MetadataVersion is too old to support controller \
                     unregistration ({} is finalized; {} or later is needed).",
                    fjord_metadata::version::release_name(mv),
                    fjord_metadata::version::release_name(METADATA_VERSION_UNREGISTER_CONTROLLER)
                ),
            );
        }
        if !self.image.cluster.controllers.contains_key(&id) {
            return fail(
                ErrorCode::ControllerIdNotRegistered,
                format!("Controller ID {id} is not currently registered."),
            );
        }
        self.write(
            vec![MetadataRecord::UnregisterController(
                UnregisterControllerRecord {
                    controller_id: id,
                    ..Default::default()
                },
            )],
            ResponseBody::UnregisterController(UnregisterControllerResponse::default()),
        )
    }

    /// UpdateFeatures: an upgrade is refused while any registered broker or controller,
    /// running or not, cannot run the new level.
    pub(crate) fn update_features(&mut self, r: &UpdateFeaturesRequest, version: i16) -> Handled {
        let mut results = Vec::new();
        let mut records = Vec::new();
        let mut kraft_upgrade = None;
        for u in &r.feature_updates {
            let kraft = u.feature == fjord_metadata::version::KRAFT_VERSION;
            let current = if kraft {
                self.image.features.kraft_version
            } else {
                self.image
                    .features
                    .levels
                    .get(&u.feature)
                    .copied()
                    .unwrap_or(0)
            };
            let target = u.max_version_level;
            let check = || self.feature_update_refusal(r, u, current, kraft);
            match check() {
                Ok(()) => {
                    results.push(UpdatableFeatureResult {
                        feature: u.feature.clone(),
                        ..Default::default()
                    });
                    if kraft && target > current {
                        kraft_upgrade = Some(target);
                    }
                    if target != current && !kraft {
                        records.push(MetadataRecord::FeatureLevel(FeatureLevelRecord {
                            name: u.feature.clone(),
                            feature_level: target,
                            ..Default::default()
                        }));
                    }
                }
                Err(message) => results.push(UpdatableFeatureResult {
                    feature: u.feature.clone(),
                    error_code: ErrorCode::InvalidUpdateVersion.code(),
                    error_message: Some(message),
                    ..Default::default()
                }),
            }
        }
        // All or nothing: one failed update fails the whole request.
        if let Some(first) = results
            .iter()
            .find(|x| x.error_code != 0)
            .and_then(|x| x.error_message.clone())
        {
            // As Kafka 4.4 at every version: the top-level error names the update that
            // failed, and no per-feature results are given.
            return Handled::Reply(ResponseBody::UpdateFeatures(UpdateFeaturesResponse {
                error_code: ErrorCode::InvalidUpdateVersion.code(),
                error_message: Some(format!(
                    "The update failed for all features since the following feature had an \
                     error: {first}"
                )),
                results: Vec::new(),
                ..Default::default()
            }));
        }
        if version >= UPDATE_FEATURES_NO_RESULTS_VERSION {
            results.clear();
        }
        let response = ResponseBody::UpdateFeatures(UpdateFeaturesResponse {
            results,
            ..Default::default()
        });
        if let Some(level) = kraft_upgrade {
            // The quorum's leader moves the voters first; the rest follows its commit.
            if r.validate_only {
                records.clear();
            } else {
                records.extend(self.elr_upkeep_for(&records));
            }
            return Handled::UpgradeKraft {
                level,
                validate_only: r.validate_only,
                records,
                response,
            };
        }
        if r.validate_only {
            return Handled::Reply(response);
        }
        records.extend(self.elr_upkeep_for(&records));
        self.write(records, response)
    }

    /// The records that go with `records` (feature levels) when they turn
    /// `eligible.leader.replicas.version` off: see [`Self::clear_elr_after`].
    fn elr_upkeep_for(&mut self, records: &[MetadataRecord]) -> Vec<MetadataRecord> {
        let elr_off = records.iter().any(|x| {
            matches!(x, MetadataRecord::FeatureLevel(f)
                if f.name == fjord_metadata::version::ELR_VERSION && f.feature_level == 0)
        });
        if elr_off && self.image.features.elr_enabled() {
            return self.clear_elr_after(records);
        }
        Vec::new()
    }

    /// With `eligible.leader.replicas.version` turned off by `features` (not applied), every
    /// partition that has eligible leader replicas gets the upkeep of a cluster without them:
    /// the ELR fields cleared, an empty ISR given back its last members. Not applied.
    fn clear_elr_after(&mut self, features: &[MetadataRecord]) -> Vec<MetadataRecord> {
        let saved = self.image.clone();
        if self.apply(features).is_err() {
            self.image = saved;
            return Vec::new();
        }
        let mut out = Vec::new();
        for t in self.image.topics.by_id.values() {
            for (index, p) in &t.partitions {
                if p.elr.is_empty() && p.last_known_elr.is_empty() {
                    continue;
                }
                if let Some((r, _)) =
                    upkeep(&self.image, &self.settings, &t.name, t.id, *index, p, false)
                {
                    out.push(MetadataRecord::PartitionChange(r));
                }
            }
        }
        self.image = saved;
        out
    }

    /// Why one feature update of an UpdateFeatures request is refused, in Kafka 4.4's words
    /// (`current`: the feature's finalized level; `kraft`: it is `kraft.version`).
    fn feature_update_refusal(
        &self,
        r: &UpdateFeaturesRequest,
        u: &fjord_protocol::generated::update_features_request::FeatureUpdateKey,
        current: i16,
        kraft: bool,
    ) -> Result<(), String> {
        let target = u.max_version_level;
        let downgrade = target < current;
        let allow_downgrade = u.allow_downgrade || u.upgrade_type >= 2;
        if downgrade && !allow_downgrade {
            return Err(format!(
                "Invalid update version {target} for feature {}. Can't downgrade the \
                 version of this feature without setting the upgrade type to either \
                 safe or unsafe downgrade.",
                u.feature
            ));
        }
        if downgrade && u.feature == METADATA_VERSION {
            // Kafka 4.4's words for a safe, then an unsafe, downgrade.
            let why = if u.upgrade_type == 3 {
                "Unsafe metadata downgrade is not supported in this version."
            } else {
                "Refusing to perform the requested downgrade because it might delete \
                 metadata information."
            };
            return Err(format!(
                "Unsupported metadata.version downgrade from {current} to {target}. {why}"
            ));
        }
        if downgrade && kraft {
            return Err(format!(
                "Invalid update version {target} for feature {}. Can't downgrade the \
                 version of this feature.",
                u.feature
            ));
        }
        if target == 0 || (kraft && target == current) {
            return Ok(());
        }
        if kraft {
            // The quorum's leader checks the rest (every voter's directory id and support)
            // as it moves the voters into the log.
            return match target {
                1 => Ok(()),
                _ => Err(format!(
                    "Invalid update version {target} for feature {0}. Controller {1} \
                     does not support this feature.",
                    u.feature, self.settings.node_id
                )),
            };
        }
        if let Some(needed) = fjord_metadata::version::feature_dependency(&u.feature, target) {
            let mv = r
                .feature_updates
                .iter()
                .find(|x| x.feature == METADATA_VERSION)
                .map(|x| x.max_version_level)
                .or(self.image.features.metadata_version())
                .unwrap_or(0);
            if mv < needed {
                return Err(format!(
                    "Invalid update version {target} for feature {0}. {0} could not be \
                     set to {target} because it depends on metadata.version level \
                     {needed}",
                    u.feature
                ));
            }
        }
        // Each node's supported range, as Kafka names it: this controller, the other
        // registered controllers, then every broker.
        let range_of = |features: &std::collections::BTreeMap<String, (i16, i16)>| {
            features.get(&u.feature).copied()
        };
        let nodes = std::iter::once((
            format!("Local controller {}", self.settings.node_id),
            range_of(&self.supported_features),
        ))
        .chain(self.image.cluster.controllers.values().map(|c| {
            (
                format!("Controller {}", c.id),
                range_of(&c.supported_features),
            )
        }))
        .chain(
            self.image
                .cluster
                .brokers
                .values()
                .map(|b| (format!("Broker {}", b.id), range_of(&b.supported_features))),
        );
        for (node, range) in nodes {
            let Some((min, max)) = range else {
                return Err(format!(
                    "Invalid update version {target} for feature {}. {node} does not \
                     support this feature.",
                    u.feature
                ));
            };
            if !(min..=max).contains(&target) {
                return Err(format!(
                    "Invalid update version {target} for feature {}. {node} only \
                     supports versions {min}-{max}",
                    u.feature
                ));
            }
        }
        Ok(())
    }

    /// AllocateProducerIds: the next block of 1000.
    pub(crate) fn allocate_producer_ids(&mut self, r: &AllocateProducerIdsRequest) -> Handled {
        let fail = |code: ErrorCode| {
            Handled::Reply(ResponseBody::AllocateProducerIds(
                AllocateProducerIdsResponse {
                    error_code: code.code(),
                    ..Default::default()
                },
            ))
        };
        match self.image.cluster.brokers.get(&r.broker_id) {
            None => return fail(ErrorCode::BrokerIdNotRegistered),
            Some(b) if b.epoch != r.broker_epoch => return fail(ErrorCode::StaleBrokerEpoch),
            _ => {}
        }
        let start = self.image.next_producer_id;
        self.write(
            vec![MetadataRecord::ProducerIds(ProducerIdsRecord {
                broker_id: r.broker_id,
                broker_epoch: r.broker_epoch,
                next_producer_id: start + PRODUCER_ID_BLOCK,
                ..Default::default()
            })],
            ResponseBody::AllocateProducerIds(AllocateProducerIdsResponse {
                producer_id_start: start,
                producer_id_len: PRODUCER_ID_BLOCK as i32,
                ..Default::default()
            }),
        )
    }
}
