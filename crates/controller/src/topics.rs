//! CreateTopics (KIP-464 defaults for -1, validation, configs, explicit assignments,
//! `validate_only`), DeleteTopics, CreatePartitions, and replica placement that spreads
//! leaders over brokers and replicas over racks.

use crate::controller::{too_large, Controller, Handled, MAX_RECORDS_PER_USER_OP};
use crate::elections::is_active;
use crate::topic_configs::{topic_config, validate};
use fjord_metadata::MetadataImage;
use fjord_protocol::generated::{
    config_record::ConfigRecord,
    create_partitions_request::CreatePartitionsRequest,
    create_partitions_response::{CreatePartitionsResponse, CreatePartitionsTopicResult},
    create_topics_request::{CreatableTopic, CreateTopicsRequest},
    create_topics_response::{CreatableTopicConfigs, CreatableTopicResult, CreateTopicsResponse},
    delete_topics_request::DeleteTopicsRequest,
    delete_topics_response::{DeletableTopicResult, DeleteTopicsResponse},
    partition_record::PartitionRecord,
    remove_topic_record::RemoveTopicRecord,
    topic_record::TopicRecord,
};
use fjord_protocol::{ErrorCode, MetadataRecord, ResponseBody, Uuid};
use std::collections::{BTreeMap, BTreeSet};

pub use fjord_metadata::names::{validate_topic_name, MAX_TOPIC_NAME_LEN};

/// Fewer active brokers than a placement's replication factor.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "Unable to replicate the partition {replication_factor} time(s): The target replication \
     factor of {replication_factor} cannot be reached because only {active} broker(s) are \
     registered."
)]
pub struct NotEnoughBrokers {
    /// The replication factor asked for.
    pub replication_factor: usize,
    /// The brokers that can take replicas.
    pub active: usize,
}

impl NotEnoughBrokers {
    /// INVALID_REPLICATION_FACTOR.
    pub fn code(&self) -> ErrorCode {
        ErrorCode::InvalidReplicationFactor
    }
}

/// Places `partitions` partitions of `rf` replicas on the active brokers, starting at
/// partition `first` ([`fjord_metadata::placement::place`], the first leader from `seed`).
pub fn place(
    image: &MetadataImage,
    first: i32,
    partitions: i32,
    rf: usize,
    seed: u64,
) -> Result<Vec<Vec<i32>>, NotEnoughBrokers> {
    let active: Vec<(i32, Option<String>)> = image
        .cluster
        .brokers
        .values()
        .filter(|b| is_active(image, b.id))
        .map(|b| (b.id, b.rack.clone()))
        .collect();
    fjord_metadata::placement::place(&active, first, partitions, rf, seed).ok_or(NotEnoughBrokers {
        replication_factor: rf,
        active: active.len(),
    })
}

fn topic_error(t: &CreatableTopic, code: ErrorCode, message: String) -> CreatableTopicResult {
    CreatableTopicResult {
        name: t.name.clone(),
        error_code: code.code(),
        error_message: Some(message),
        num_partitions: -1,
        replication_factor: -1,
        ..Default::default()
    }
}

/// A new topic's id: unique in the image and not a reserved id (0 and 1). It mixes the
/// cluster id and the controller's random `cluster_salt` (so two clusters never give a topic
/// the same id), the name, the log position and the request's `salt`.
fn new_topic_id(image: &MetadataImage, cluster: (&str, u128), name: &str, salt: u64) -> Uuid {
    let mut h: u128 = 0x6c62_272e_07bb_0142_62b8_2175_6295_c58d;
    for b in cluster
        .0
        .bytes()
        .chain(cluster.1.to_be_bytes())
        .chain(name.bytes())
        .chain(image.provenance.last_offset.to_be_bytes())
        .chain(salt.to_be_bytes())
    {
        h ^= u128::from(b);
        h = h.wrapping_mul(0x0000_0000_0100_0000_0000_0000_0000_013b);
    }
    let mut id = h | 2;
    while image.topics.by_id.contains_key(&Uuid::from_u128(id)) {
        id = id.wrapping_add(0x9e37_79b9);
    }
    Uuid::from_u128(id)
}

impl Controller {
    /// CreateTopics.
    pub(crate) fn create_topics(&mut self, r: &CreateTopicsRequest, version: i16) -> Handled {
        let mut results = Vec::new();
        let mut records = Vec::new();
        let mut seen: BTreeSet<&str> = BTreeSet::new();
        let duplicates: BTreeSet<&str> = r
            .topics
            .iter()
            .filter(|t| !seen.insert(t.name.as_str()))
            .map(|t| t.name.as_str())
            .collect();
        let mut salt = self.image.provenance.last_offset as u64;
        // Counted before anything is planned or allocated (validate_only included): the
        // request's partitions, topic records and configs must fit one user operation.
        let mut budget: usize = 0;
        for t in &r.topics {
            let partitions = if !t.assignments.is_empty() {
                t.assignments.len()
            } else if t.num_partitions == -1 {
                usize::try_from(self.settings.num_partitions).unwrap_or(0)
            } else {
                usize::try_from(t.num_partitions).unwrap_or(0)
            };
            budget = budget.saturating_add(partitions + 1 + t.configs.len());
            if budget > MAX_RECORDS_PER_USER_OP {
                return too_large();
            }
        }
        for t in &r.topics {
            salt = salt.wrapping_add(1);
            if duplicates.contains(t.name.as_str()) {
                results.push(topic_error(
                    t,
                    ErrorCode::InvalidRequest,
                    "Duplicate topic name.".into(),
                ));
                continue;
            }
            match self.plan_topic(t, salt) {
                Ok((result, topic_records)) => {
                    results.push(result);
                    if !r.validate_only {
                        records.extend(topic_records);
                    }
                }
                Err(result) => results.push(*result),
            }
        }
        if version < 5 {
            for x in &mut results {
                x.configs = None;
            }
        }
        let response = ResponseBody::CreateTopics(CreateTopicsResponse {
            topics: results,
            ..Default::default()
        });
        self.write(records, response)
    }

    fn plan_topic(
        &self,
        t: &CreatableTopic,
        salt: u64,
    ) -> Result<(CreatableTopicResult, Vec<MetadataRecord>), Box<CreatableTopicResult>> {
        let err = |code: ErrorCode, m: String| Box::new(topic_error(t, code, m));
        validate_topic_name(&t.name).map_err(|m| err(m.code(), m.to_string()))?;
        if self.image.topics.by_name.contains_key(&t.name) {
            return Err(err(
                ErrorCode::TopicAlreadyExists,
                format!("Topic '{}' already exists.", t.name),
            ));
        }
        let mut configs = BTreeMap::new();
        for c in &t.configs {
            let Some((kind, _)) = topic_config(&c.name) else {
                return Err(err(
                    ErrorCode::InvalidConfig,
                    format!("Unknown topic config name: {}", c.name),
                ));
            };
            let Some(v) = &c.value else {
                return Err(err(
                    ErrorCode::InvalidConfig,
                    format!("Null value not supported for topic configs: {}", c.name),
                ));
            };
            validate(&c.name, kind, v).map_err(|m| err(m.code(), m.to_string()))?;
            configs.insert(c.name.clone(), v.clone());
        }
        if let Some(why) =
            crate::tiered::refusal(&configs, None, self.settings.remote_storage_system_enabled)
        {
            return Err(err(ErrorCode::InvalidConfig, why));
        }
        let assignments: Vec<Vec<i32>> = if t.assignments.is_empty() {
            let partitions = if t.num_partitions == -1 {
                self.settings.num_partitions
            } else {
                t.num_partitions
            };
            let rf = if t.replication_factor == -1 {
                self.settings.default_replication_factor
            } else {
                t.replication_factor
            };
            if partitions <= 0 {
                return Err(err(
                    ErrorCode::InvalidPartitions,
                    "Number of partitions was set to an invalid non-positive value.".into(),
                ));
            }
            if rf <= 0 {
                return Err(err(
                    ErrorCode::InvalidReplicationFactor,
                    "Replication factor must be larger than 0.".into(),
                ));
            }
            place(&self.image, 0, partitions, rf as usize, salt)
                .map_err(|m| err(m.code(), m.to_string()))?
        } else {
            if t.num_partitions != -1 || t.replication_factor != -1 {
                return Err(err(
                    ErrorCode::InvalidRequest,
                    "Both numPartitions or replicationFactor and replicasAssignments were set. \
                     Both cannot be used at the same time."
                        .into(),
                ));
            }
            let mut by_index: BTreeMap<i32, Vec<i32>> = BTreeMap::new();
            for a in &t.assignments {
                if by_index
                    .insert(a.partition_index, a.broker_ids.clone())
                    .is_some()
                {
                    return Err(err(
                        ErrorCode::InvalidReplicaAssignment,
                        format!(
                            "Found multiple manual partition assignments for partition {}",
                            a.partition_index
                        ),
                    ));
                }
            }
            let expected: Vec<i32> = (0..by_index.len() as i32).collect();
            if by_index.keys().copied().collect::<Vec<_>>() != expected {
                return Err(err(
                    ErrorCode::InvalidReplicaAssignment,
                    "Partitions must be numbered consecutively from 0.".into(),
                ));
            }
            let rf = by_index.values().next().map_or(0, Vec::len);
            for (p, brokers) in &by_index {
                self.check_assignment(*p, brokers, rf)
                    .map_err(|m| err(ErrorCode::InvalidReplicaAssignment, m))?;
            }
            by_index.into_values().collect()
        };
        let cluster = (self.cluster_id.as_str(), self.topic_id_salt);
        let id = new_topic_id(&self.image, cluster, &t.name, salt);
        let mut records = vec![MetadataRecord::Topic(TopicRecord {
            name: t.name.clone(),
            topic_id: id,
            ..Default::default()
        })];
        for (k, v) in &configs {
            records.push(MetadataRecord::Config(ConfigRecord {
                resource_type: crate::settings::TOPIC,
                resource_name: t.name.clone(),
                name: k.clone(),
                value: Some(v.clone()),
                ..Default::default()
            }));
        }
        for (index, replicas) in assignments.iter().enumerate() {
            records.push(MetadataRecord::Partition(self.new_partition(
                id,
                index as i32,
                replicas,
            )));
        }
        let rf = assignments.first().map_or(0, Vec::len) as i16;
        let result = CreatableTopicResult {
            name: t.name.clone(),
            topic_id: id,
            num_partitions: assignments.len() as i32,
            replication_factor: rf,
            configs: Some(
                crate::topic_configs::topic::ALL
                    .iter()
                    .map(|def| {
                        let set = configs.get(def.name);
                        let default = def.default.unwrap_or_default();
                        CreatableTopicConfigs {
                            name: def.name.to_string(),
                            value: Some(set.cloned().unwrap_or_else(|| default.to_string())),
                            config_source: if set.is_some() { 1 } else { 5 },
                            ..Default::default()
                        }
                    })
                    .collect(),
            ),
            ..Default::default()
        };
        Ok((result, records))
    }

    fn check_assignment(&self, partition: i32, brokers: &[i32], rf: usize) -> Result<(), String> {
        if brokers.is_empty() {
            return Err(format!("Partition {partition} has no replicas."));
        }
        if brokers.len() != rf {
            return Err(format!(
                "All partitions must have the same replication factor; partition {partition} has {} replicas, expected {rf}.",
                brokers.len()
            ));
        }
        let distinct: BTreeSet<i32> = brokers.iter().copied().collect();
        if distinct.len() != brokers.len() {
            return Err(format!(
                "Duplicate brokers {brokers:?} in the assignment of partition {partition}."
            ));
        }
        for b in brokers {
            if !self.image.cluster.brokers.contains_key(b) {
                return Err(format!(
                    "The manual partition assignment includes broker {b}, but no such broker is registered."
                ));
            }
        }
        Ok(())
    }

    /// A new partition: the first active replica leads, the active replicas are the ISR, each
    /// replica in its broker's log dir when the broker has just one.
    fn new_partition(&self, topic_id: Uuid, index: i32, replicas: &[i32]) -> PartitionRecord {
        let isr: Vec<i32> = replicas
            .iter()
            .copied()
            .filter(|r| is_active(&self.image, *r))
            .collect();
        PartitionRecord {
            partition_id: index,
            topic_id,
            replicas: replicas.to_vec(),
            leader: isr.first().copied().unwrap_or(-1),
            isr,
            leader_epoch: 0,
            partition_epoch: 0,
            // KIP-858: a broker with one log dir holds the replica there; one with several
            // says which through AssignReplicasToDirs (unassigned until then).
            directories: replicas
                .iter()
                .map(
                    |r| match self.image.cluster.brokers.get(r).map(|b| &b.log_dirs[..]) {
                        Some([only]) => *only,
                        _ => Uuid::nil(),
                    },
                )
                .collect(),
            ..Default::default()
        }
    }

    /// DeleteTopics, by name or (v6+) by id.
    pub(crate) fn delete_topics(&mut self, r: &DeleteTopicsRequest, version: i16) -> Handled {
        let mut results = Vec::new();
        let mut records = Vec::new();
        let mut gone = BTreeSet::new();
        let wanted: Vec<(Option<String>, Uuid)> = if version >= 6 {
            r.topics
                .iter()
                .map(|t| (t.name.clone(), t.topic_id))
                .collect()
        } else {
            r.topic_names
                .iter()
                .map(|n| (Some(n.clone()), Uuid::nil()))
                .collect()
        };
        for (name, id) in wanted {
            let found = match &name {
                Some(n) => self.image.topics.get_by_name(n).cloned(),
                None => self.image.topics.by_id.get(&id).cloned(),
            };
            let mut result = DeletableTopicResult {
                name: name.clone(),
                topic_id: id,
                ..Default::default()
            };
            match found {
                Some(t) if gone.insert(t.id) => {
                    result.name = Some(t.name.clone());
                    result.topic_id = t.id;
                    records.push(MetadataRecord::RemoveTopic(RemoveTopicRecord {
                        topic_id: t.id,
                        ..Default::default()
                    }));
                }
                Some(_) => {
                    result.error_code = ErrorCode::InvalidRequest.code();
                    result.error_message = Some("Duplicate topic in the request.".into());
                }
                None if name.is_some() => {
                    result.error_code = ErrorCode::UnknownTopicOrPartition.code();
                    result.error_message =
                        Some("This server does not host this topic-partition.".into());
                }
                None => {
                    result.error_code = ErrorCode::UnknownTopicId.code();
                    result.error_message = Some("This server does not host this topic ID.".into());
                }
            }
            results.push(result);
        }
        self.write(
            records,
            ResponseBody::DeleteTopics(DeleteTopicsResponse {
                responses: results,
                ..Default::default()
            }),
        )
    }

    /// CreatePartitions.
    pub(crate) fn create_partitions(&mut self, r: &CreatePartitionsRequest) -> Handled {
        let mut results = Vec::new();
        let mut records = Vec::new();
        // New partitions counted before any placement is allocated (validate_only included).
        let mut budget: usize = 0;
        for t in &r.topics {
            let current = self
                .image
                .topics
                .get_by_name(&t.name)
                .map_or(0, |x| x.partitions.len());
            let add = usize::try_from(t.count)
                .unwrap_or(0)
                .saturating_sub(current);
            budget = budget.saturating_add(add);
            if budget > MAX_RECORDS_PER_USER_OP {
                return too_large();
            }
        }
        for t in &r.topics {
            let mut result = CreatePartitionsTopicResult {
                name: t.name.clone(),
                ..Default::default()
            };
            match self.plan_partitions(t) {
                Ok(new) => {
                    if !r.validate_only {
                        records.extend(new);
                    }
                }
                Err((code, message)) => {
                    result.error_code = code.code();
                    result.error_message = Some(message);
                }
            }
            results.push(result);
        }
        self.write(
            records,
            ResponseBody::CreatePartitions(CreatePartitionsResponse {
                results,
                ..Default::default()
            }),
        )
    }

    fn plan_partitions(
        &self,
        t: &fjord_protocol::generated::create_partitions_request::CreatePartitionsTopic,
    ) -> Result<Vec<MetadataRecord>, (ErrorCode, String)> {
        let Some(topic) = self.image.topics.get_by_name(&t.name) else {
            return Err((
                ErrorCode::UnknownTopicOrPartition,
                format!("Topic '{}' does not exist.", t.name),
            ));
        };
        let current = topic.partitions.len() as i32;
        if t.count < current {
            return Err((
                ErrorCode::InvalidPartitions,
                format!(
                    "The topic {} currently has {current} partition(s); {} would not be an increase.",
                    t.name, t.count
                ),
            ));
        }
        if t.count == current {
            return Err((
                ErrorCode::InvalidPartitions,
                format!("Topic already has {current} partition(s)."),
            ));
        }
        let rf = topic
            .partitions
            .values()
            .next()
            .map_or(1, |p| p.replicas.len());
        let add = t.count - current;
        let assignments = match &t.assignments {
            Some(a) => {
                if a.len() as i32 != add {
                    return Err((
                        ErrorCode::InvalidReplicaAssignment,
                        format!("Attempted to add {add} additional partition(s), but only {} assignment(s) were specified.", a.len()),
                    ));
                }
                for (i, x) in a.iter().enumerate() {
                    self.check_assignment(current + i as i32, &x.broker_ids, rf)
                        .map_err(|m| (ErrorCode::InvalidReplicaAssignment, m))?;
                }
                a.iter().map(|x| x.broker_ids.clone()).collect()
            }
            None => place(
                &self.image,
                current,
                add,
                rf,
                self.image.provenance.last_offset as u64,
            )
            .map_err(|m| (m.code(), m.to_string()))?,
        };
        Ok(assignments
            .iter()
            .enumerate()
            .map(|(i, replicas)| {
                MetadataRecord::Partition(self.new_partition(
                    topic.id,
                    current + i as i32,
                    replicas,
                ))
            })
            .collect())
    }
}
