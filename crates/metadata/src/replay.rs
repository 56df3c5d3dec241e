//! Folding records into the image: `MetadataImage::apply` replays a batch of records in order
//! onto a copy-on-write copy of the image and returns the new image with the [`Changes`] the
//! batch caused. A record that contradicts the image (a change to an unknown topic, a
//! duplicate topic name, a fence with the wrong broker epoch) is an error, as in Kafka: the
//! log itself is inconsistent.

use crate::image::{
    BrokerRegistration, ControllerRegistration, Listener, MetadataImage, Provenance, TopicImage,
};
use crate::partition::PartitionRegistration;
use fjord_protocol::{MetadataRecord, Uuid};
use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;

/// Kafka's config resource type for topics.
pub const TOPIC_RESOURCE: i8 = 2;

/// A record that does not fit the image.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("metadata record does not apply: {0}")]
pub struct ApplyError(pub String);

/// What a batch changed.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Changes {
    /// Topics created or whose partitions changed.
    pub topics: BTreeSet<Uuid>,
    /// Partitions created or changed.
    pub partitions: BTreeSet<(Uuid, i32)>,
    /// Topics removed, with their names.
    pub deleted_topics: BTreeMap<Uuid, String>,
    /// Brokers registered, changed or unregistered.
    pub brokers: BTreeSet<i32>,
    /// Controllers registered or unregistered.
    pub controllers: BTreeSet<i32>,
    /// Config resources changed.
    pub configs: BTreeSet<(i8, String)>,
    /// True when a feature level changed.
    pub features: bool,
    /// True when an ACL was added or removed.
    pub acls: bool,
    /// Users whose SCRAM credentials changed.
    pub scram_users: BTreeSet<String>,
    /// True when a client quota was set or removed.
    pub quotas: bool,
    /// Delegation tokens created, changed or removed.
    pub tokens: BTreeSet<String>,
}

fn listeners<E>(eps: &[E], f: impl Fn(&E) -> Listener) -> Vec<Listener> {
    eps.iter().map(f).collect()
}

impl MetadataImage {
    /// Folds `records` (one batch, at `last_offset` in `epoch`) into a new image.
    pub fn apply<'a>(
        &self,
        records: impl IntoIterator<Item = &'a MetadataRecord>,
        last_offset: i64,
        epoch: i32,
    ) -> Result<(MetadataImage, Changes), ApplyError> {
        let mut next = self.clone();
        let mut changes = Changes::default();
        for r in records {
            next.replay(r, &mut changes)?;
        }
        next.provenance = Provenance {
            last_offset,
            last_epoch: epoch,
        };
        Ok((next, changes))
    }

    /// One record, by the part of the image it changes (the match names every record type,
    /// so a new one does not compile until it has a place; the parts ignore the others).
    fn replay(&mut self, r: &MetadataRecord, c: &mut Changes) -> Result<(), ApplyError> {
        use MetadataRecord as R;
        match r {
            R::RegisterBroker(_)
            | R::UnregisterBroker(_)
            | R::FenceBroker(_)
            | R::UnfenceBroker(_)
            | R::BrokerRegistrationChange(_)
            | R::RegisterController(_)
            | R::UnregisterController(_) => self.replay_cluster(r, c),
            R::Topic(_)
            | R::Partition(_)
            | R::PartitionChange(_)
            | R::RemoveTopic(_)
            | R::ClearElr(_) => self.replay_topics(r, c),
            R::AccessControlEntry(_)
            | R::RemoveAccessControlEntry(_)
            | R::UserScramCredential(_)
            | R::DelegationToken(_)
            | R::RemoveDelegationToken(_)
            | R::RemoveUserScramCredential(_) => self.replay_security(r, c),
            R::FeatureLevel(_)
            | R::Config(_)
            | R::ProducerIds(_)
            | R::ClientQuota(_)
            | R::NoOp(_) => self.replay_settings(r, c),
        }
    }

    /// Brokers' and controllers' registrations and fencing.
    fn replay_cluster(&mut self, r: &MetadataRecord, c: &mut Changes) -> Result<(), ApplyError> {
        let err = |m: String| Err(ApplyError(m));
        match r {
            MetadataRecord::RegisterBroker(b) => {
                let reg = BrokerRegistration {
                    id: b.broker_id,
                    epoch: b.broker_epoch,
                    incarnation_id: b.incarnation_id,
                    listeners: listeners(&b.end_points, |e| Listener {
                        name: e.name.clone(),
                        host: e.host.clone(),
                        port: e.port,
                        security_protocol: e.security_protocol,
                    }),
                    supported_features: b
                        .features
                        .iter()
                        .map(|f| {
                            (
                                f.name.clone(),
                                (f.min_supported_version, f.max_supported_version),
                            )
                        })
                        .collect(),
                    rack: b.rack.clone(),
                    fenced: b.fenced,
                    in_controlled_shutdown: b.in_controlled_shutdown,
                    log_dirs: b.log_dirs.clone(),
                };
                Arc::make_mut(&mut self.cluster)
                    .brokers
                    .insert(b.broker_id, reg);
                c.brokers.insert(b.broker_id);
            }
            MetadataRecord::UnregisterBroker(u) => {
                let cluster = Arc::make_mut(&mut self.cluster);
                match cluster.brokers.get(&u.broker_id) {
                    Some(b) if b.epoch == u.broker_epoch => {
                        cluster.brokers.remove(&u.broker_id);
                    }
                    Some(b) => {
                        return err(format!(
                            "unregister broker {} epoch {} but its epoch is {}",
                            u.broker_id, u.broker_epoch, b.epoch
                        ))
                    }
                    None => return err(format!("unregister unknown broker {}", u.broker_id)),
                }
                c.brokers.insert(u.broker_id);
            }
            MetadataRecord::FenceBroker(f) => {
                self.set_fencing(f.id, f.epoch, Some(true), None, c)?
            }
            MetadataRecord::UnfenceBroker(f) => {
                self.set_fencing(f.id, f.epoch, Some(false), None, c)?
            }
            MetadataRecord::BrokerRegistrationChange(b) => {
                let fenced = match b.fenced {
                    0 => None,
                    1 => Some(true),
                    -1 => Some(false),
                    v => return err(format!("broker registration change with fenced={v}")),
                };
                let shutdown = match b.in_controlled_shutdown {
                    0 => None,
                    1 => Some(true),
                    v => {
                        return err(format!(
                            "broker registration change with in_controlled_shutdown={v}"
                        ))
                    }
                };
                self.set_fencing(b.broker_id, b.broker_epoch, fenced, shutdown, c)?;
                if !b.log_dirs.is_empty() {
                    if let Some(reg) = Arc::make_mut(&mut self.cluster)
                        .brokers
                        .get_mut(&b.broker_id)
                    {
                        reg.log_dirs = b.log_dirs.clone();
                    }
                }
            }
            MetadataRecord::RegisterController(r) => {
                let reg = ControllerRegistration {
                    id: r.controller_id,
                    incarnation_id: r.incarnation_id,
                    zk_migration_ready: r.zk_migration_ready,
                    listeners: listeners(&r.end_points, |e| Listener {
                        name: e.name.clone(),
                        host: e.host.clone(),
                        port: e.port,
                        security_protocol: e.security_protocol,
                    }),
                    supported_features: r
                        .features
                        .iter()
                        .map(|f| {
                            (
                                f.name.clone(),
                                (f.min_supported_version, f.max_supported_version),
                            )
                        })
                        .collect(),
                };
                Arc::make_mut(&mut self.cluster)
                    .controllers
                    .insert(r.controller_id, reg);
                c.controllers.insert(r.controller_id);
            }
            MetadataRecord::UnregisterController(u) => {
                if Arc::make_mut(&mut self.cluster)
                    .controllers
                    .remove(&u.controller_id)
                    .is_none()
                {
                    return err(format!("unregister unknown controller {}", u.controller_id));
                }
                c.controllers.insert(u.controller_id);
            }
            _ => {}
        }
        Ok(())
    }

    /// Topics and their partitions.
    fn replay_topics(&mut self, r: &MetadataRecord, c: &mut Changes) -> Result<(), ApplyError> {
        let err = |m: String| Err(ApplyError(m));
        match r {
            MetadataRecord::Topic(t) => {
                if self.topics.by_name.contains_key(&t.name) {
                    return err(format!("topic {} already exists", t.name));
                }
                if self.topics.by_id.contains_key(&t.topic_id) {
                    return err(format!("topic id {} already exists", t.topic_id));
                }
                let topics = Arc::make_mut(&mut self.topics);
                topics.by_name.insert(t.name.clone(), t.topic_id);
                topics.by_id.insert(
                    t.topic_id,
                    Arc::new(TopicImage {
                        name: t.name.clone(),
                        id: t.topic_id,
                        partitions: Default::default(),
                    }),
                );
                c.topics.insert(t.topic_id);
            }
            MetadataRecord::Partition(p) => {
                let topic = self.topic_mut(p.topic_id)?;
                topic
                    .partitions
                    .insert(p.partition_id, PartitionRegistration::from_record(p));
                c.topics.insert(p.topic_id);
                c.partitions.insert((p.topic_id, p.partition_id));
            }
            MetadataRecord::PartitionChange(p) => {
                let topic = self.topic_mut(p.topic_id)?;
                let Some(old) = topic.partitions.get(&p.partition_id) else {
                    return err(format!(
                        "change to unknown partition {} of topic {}",
                        p.partition_id, p.topic_id
                    ));
                };
                let merged = old.merge(p);
                topic.partitions.insert(p.partition_id, merged);
                c.topics.insert(p.topic_id);
                c.partitions.insert((p.topic_id, p.partition_id));
            }
            MetadataRecord::RemoveTopic(r) => {
                let topics = Arc::make_mut(&mut self.topics);
                let Some(t) = topics.by_id.remove(&r.topic_id) else {
                    return err(format!("remove unknown topic {}", r.topic_id));
                };
                topics.by_name.remove(&t.name);
                let key = (TOPIC_RESOURCE, t.name.clone());
                if Arc::make_mut(&mut self.configs)
                    .resources
                    .remove(&key)
                    .is_some()
                {
                    c.configs.insert(key);
                }
                c.topics.remove(&r.topic_id);
                c.partitions.retain(|(id, _)| *id != r.topic_id);
                c.deleted_topics.insert(r.topic_id, t.name.clone());
            }
            MetadataRecord::ClearElr(r) => {
                let ids: Vec<Uuid> = if r.topic_name.is_empty() {
                    self.topics.by_id.keys().copied().collect()
                } else {
                    match self.topics.by_name.get(&r.topic_name) {
                        Some(id) => vec![*id],
                        None => return err(format!("clear ELR of unknown topic {}", r.topic_name)),
                    }
                };
                for id in ids {
                    let topic = self.topic_mut(id)?;
                    let with_elr: Vec<i32> = topic
                        .partitions
                        .iter()
                        .filter(|(_, p)| !p.elr.is_empty() || !p.last_known_elr.is_empty())
                        .map(|(index, _)| *index)
                        .collect();
                    for index in with_elr {
                        if let Some(p) = topic.partitions.get_mut(&index) {
                            p.elr.clear();
                            p.last_known_elr.clear();
                            p.partition_epoch += 1;
                        }
                        c.partitions.insert((id, index));
                        c.topics.insert(id);
                    }
                }
            }
            _ => {}
        }
        Ok(())
    }

    /// ACLs, SCRAM credentials and delegation tokens.
    fn replay_security(&mut self, r: &MetadataRecord, c: &mut Changes) -> Result<(), ApplyError> {
        let err = |m: String| Err(ApplyError(m));
        match r {
            MetadataRecord::AccessControlEntry(r) => {
                let acl = crate::acls::StandardAcl::from_record(r)
                    .map_err(|e| ApplyError(format!("ACL {}: {e}", r.id)))?;
                let acls = Arc::make_mut(&mut self.acls);
                if acls.by_id.contains_key(&r.id) {
                    return err(format!("an ACL with id {} already exists", r.id));
                }
                acls.by_id.insert(r.id, acl);
                c.acls = true;
            }
            MetadataRecord::RemoveAccessControlEntry(r) => {
                let acls = Arc::make_mut(&mut self.acls);
                if acls.by_id.remove(&r.id).is_none() {
                    return err(format!("no ACL with id {} to remove", r.id));
                }
                c.acls = true;
            }
            MetadataRecord::UserScramCredential(r) => {
                if !matches!(
                    r.mechanism,
                    crate::scram::SCRAM_SHA_256 | crate::scram::SCRAM_SHA_512
                ) {
                    return err(format!("unknown SCRAM mechanism {}", r.mechanism));
                }
                Arc::make_mut(&mut self.scram).by_user.insert(
                    (r.name.clone(), r.mechanism),
                    crate::scram::ScramCredential {
                        salt: r.salt.clone(),
                        stored_key: r.stored_key.clone(),
                        server_key: r.server_key.clone(),
                        iterations: r.iterations,
                    },
                );
                c.scram_users.insert(r.name.clone());
            }
            MetadataRecord::DelegationToken(r) => {
                let token = crate::delegation_tokens::TokenInfo::from_record(r);
                c.tokens.insert(token.id.clone());
                Arc::make_mut(&mut self.tokens)
                    .by_id
                    .insert(token.id.clone(), token);
            }
            MetadataRecord::RemoveDelegationToken(r) => {
                // Removing a token already gone is harmless, as in Kafka.
                Arc::make_mut(&mut self.tokens).by_id.remove(&r.token_id);
                c.tokens.insert(r.token_id.clone());
            }
            MetadataRecord::RemoveUserScramCredential(r) => {
                let scram = Arc::make_mut(&mut self.scram);
                if scram
                    .by_user
                    .remove(&(r.name.clone(), r.mechanism))
                    .is_none()
                {
                    return err(format!(
                        "no SCRAM credential of {} for mechanism {} to remove",
                        r.name, r.mechanism
                    ));
                }
                c.scram_users.insert(r.name.clone());
            }
            _ => {}
        }
        Ok(())
    }

    /// Features, dynamic configs, producer id blocks and client quotas.
    fn replay_settings(&mut self, r: &MetadataRecord, c: &mut Changes) -> Result<(), ApplyError> {
        let err = |m: String| Err(ApplyError(m));
        match r {
            MetadataRecord::FeatureLevel(f) => {
                let features = Arc::make_mut(&mut self.features);
                if f.feature_level == 0 {
                    features.levels.remove(&f.name);
                } else {
                    features.levels.insert(f.name.clone(), f.feature_level);
                }
                c.features = true;
            }
            MetadataRecord::Config(cfg) => {
                let key = (cfg.resource_type, cfg.resource_name.clone());
                let configs = Arc::make_mut(&mut self.configs);
                match &cfg.value {
                    Some(v) => {
                        configs
                            .resources
                            .entry(key.clone())
                            .or_default()
                            .insert(cfg.name.clone(), v.clone());
                    }
                    None => {
                        if let Some(m) = configs.resources.get_mut(&key) {
                            m.remove(&cfg.name);
                            if m.is_empty() {
                                configs.resources.remove(&key);
                            }
                        }
                    }
                }
                c.configs.insert(key);
            }
            MetadataRecord::ProducerIds(p) => {
                if p.next_producer_id < self.next_producer_id {
                    return err(format!(
                        "producer id block moves back from {} to {}",
                        self.next_producer_id, p.next_producer_id
                    ));
                }
                self.next_producer_id = p.next_producer_id;
            }
            MetadataRecord::ClientQuota(r) => {
                Arc::make_mut(&mut self.quotas).replay(r);
                c.quotas = true;
            }
            MetadataRecord::NoOp(_) => {}
            _ => {}
        }
        Ok(())
    }

    fn topic_mut(&mut self, id: Uuid) -> Result<&mut TopicImage, ApplyError> {
        let topics = Arc::make_mut(&mut self.topics);
        let t = topics
            .by_id
            .get_mut(&id)
            .ok_or_else(|| ApplyError(format!("unknown topic id {id}")))?;
        Ok(Arc::make_mut(t))
    }

    fn set_fencing(
        &mut self,
        id: i32,
        epoch: i64,
        fenced: Option<bool>,
        shutdown: Option<bool>,
        c: &mut Changes,
    ) -> Result<(), ApplyError> {
        let cluster = Arc::make_mut(&mut self.cluster);
        let Some(b) = cluster.brokers.get_mut(&id) else {
            return Err(ApplyError(format!(
                "fencing change for unknown broker {id}"
            )));
        };
        if b.epoch != epoch {
            return Err(ApplyError(format!(
                "fencing change for broker {id} epoch {epoch} but its epoch is {}",
                b.epoch
            )));
        }
        if let Some(f) = fenced {
            b.fenced = f;
        }
        if let Some(s) = shutdown {
            b.in_controlled_shutdown = s;
        }
        c.brokers.insert(id);
        Ok(())
    }
}
