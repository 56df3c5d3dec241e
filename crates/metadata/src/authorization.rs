//! What each request needs the caller to be allowed (Kafka's authorization table per API,
//! EXTENSIONS.md for the mission's RPCs), decided against the image's ACLs: a request is let
//! through, refused whole with its API's `*_AUTHORIZATION_FAILED` answer, or (the APIs Kafka
//! answers entity by entity: Produce, Fetch, Metadata, ListOffsets, the config APIs,
//! DescribeGroups, DeleteGroups, CreateTopics, DeleteTopics, CreatePartitions, DeleteRecords,
//! the topics of OffsetCommit and OffsetDelete, named DescribeTopicPartitions) let through
//! without the entities the caller may not touch, which are answered with their error. Listings (Metadata for all topics, DescribeTopicPartitions,
//! ListGroups) leave out what the caller may not DESCRIBE. Both listeners use this table, so a
//! request is judged the same on a broker and on a controller.

use crate::acls::{AclOperation as Op, AuthorizerSettings, ResourceType as Kind};
use crate::MetadataImage;
use fjord_protocol::generated::metadata_response::MetadataResponseTopic;
use fjord_protocol::generated::{
    alter_configs_response, create_partitions_response, create_topics_response,
    delete_groups_response, delete_records_response, delete_topics_response,
    describe_configs_response, describe_groups_response, describe_topic_partitions_response,
    fetch_response, incremental_alter_configs_response, list_offsets_response,
    offset_commit_response, offset_delete_response, produce_response,
};
use fjord_protocol::{ErrorCode, RequestBody, ResponseBody, Uuid};

/// The name of the cluster resource.
pub const CLUSTER: &str = "kafka-cluster";
/// ElectLeaders' DESIGNATED election type (EXTENSIONS.md).
const DESIGNATED: i8 = 2;
/// DescribeConfigs / AlterConfigs resource types: topic, broker, broker logger.
const CONFIG_TOPIC: i8 = 2;

/// Who asks, and what the image allows them.
#[derive(Debug)]
pub struct Access<'a> {
    settings: Option<&'a AuthorizerSettings>,
    image: &'a MetadataImage,
    principal: String,
    host: String,
}

/// A request's fate.
#[derive(Debug)]
pub enum Gate {
    /// Handle it as it is.
    Open(RequestBody),
    /// Answer this instead.
    Deny(ResponseBody),
    /// Handle this narrower request, then answer what it left out with its
    /// `*_AUTHORIZATION_FAILED`.
    Partial(RequestBody, Vec<Denied>),
}

/// What a narrowed request left out.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Denied {
    /// A topic, and the partitions asked of it.
    Topic(String, Vec<i32>),
    /// A config resource (type, name), refused with this error.
    Resource(i8, String, ErrorCode),
    /// A group.
    Group(String),
}

impl<'a> Access<'a> {
    /// `principal` (`User:alice`) at `host`; `settings` is `None` when no authorizer is
    /// configured (everything is allowed).
    pub fn new(
        settings: Option<&'a AuthorizerSettings>,
        image: &'a MetadataImage,
        principal: String,
        host: String,
    ) -> Access<'a> {
        Access {
            settings,
            image,
            principal,
            host,
        }
    }

    /// Whether an authorizer is configured.
    pub fn enabled(&self) -> bool {
        self.settings.is_some()
    }

    /// Whether the caller may do `op` on the resource `name` of `kind`.
    pub fn allows(&self, op: Op, kind: Kind, name: &str) -> bool {
        match self.settings {
            None => true,
            Some(s) => self
                .image
                .acls
                .authorize(s, &self.principal, &self.host, op, kind, name)
                .allowed(),
        }
    }

    /// `op` on the cluster.
    pub fn cluster(&self, op: Op) -> bool {
        self.allows(op, Kind::Cluster, CLUSTER)
    }

    /// `op` on topic `name`.
    pub fn topic(&self, op: Op, name: &str) -> bool {
        self.allows(op, Kind::Topic, name)
    }

    /// `op` on group `name`.
    pub fn group(&self, op: Op, name: &str) -> bool {
        self.allows(op, Kind::Group, name)
    }

    /// Whether some topic allows the caller `op` (Kafka's authorizeByResourceType, used for
    /// idempotent producers without IDEMPOTENT_WRITE).
    fn any_topic(&self, op: Op) -> bool {
        match self.settings {
            None => true,
            Some(s) => self
                .image
                .acls
                .any_allowed(s, &self.principal, &self.host, op, Kind::Topic),
        }
    }

    fn topic_id(&self, name: &str) -> Uuid {
        self.image
            .topics
            .by_name
            .get(name)
            .copied()
            .unwrap_or_default()
    }

    fn topic_name(&self, id: &Uuid) -> String {
        self.image
            .topics
            .by_id
            .get(id)
            .map(|t| t.name.clone())
            .unwrap_or_default()
    }

    /// Decides `body` at `version`.
    pub fn gate(&self, body: RequestBody, version: i16) -> Gate {
        if self.settings.is_none() {
            return Gate::Open(body);
        }
        use ErrorCode::{
            ClusterAuthorizationFailed as Cluster, GroupAuthorizationFailed as Group,
            TopicAuthorizationFailed as Topic,
        };
        let all_topics = |op: Op, names: &mut dyn Iterator<Item = &str>| {
            let mut ok = true;
            for n in names {
                ok &= self.topic(op, n);
            }
            ok
        };
        let verdict: Option<(ErrorCode, String)> = match &body {
            RequestBody::Produce(_)
            | RequestBody::Fetch(_)
            | RequestBody::Metadata(_)
            | RequestBody::ListOffsets(_)
            | RequestBody::DescribeConfigs(_)
            | RequestBody::IncrementalAlterConfigs(_)
            | RequestBody::AlterConfigs(_)
            | RequestBody::DescribeGroups(_)
            | RequestBody::DeleteGroups(_)
            | RequestBody::CreateTopics(_)
            | RequestBody::DeleteTopics(_)
            | RequestBody::CreatePartitions(_)
            | RequestBody::DeleteRecords(_)
            | RequestBody::DescribeTopicPartitions(_) => return self.narrow(body, version),
            RequestBody::OffsetForLeaderEpoch(r) => {
                let ok = if r.replica_id >= 0 {
                    self.cluster(Op::ClusterAction)
                } else {
                    all_topics(Op::Describe, &mut r.topics.iter().map(|t| t.topic.as_str()))
                };
                (!ok).then(|| (Topic, "DESCRIBE on the topics".into()))
            }
            RequestBody::DescribeProducers(r) => {
                (!all_topics(Op::Read, &mut r.topics.iter().map(|t| t.name.as_str())))
                    .then(|| (Topic, "READ on the topics".into()))
            }
            // DescribeCluster needs nothing on a broker (as Metadata); the controller listener
            // asks ALTER on the cluster itself (Kafka's ControllerApis).
            RequestBody::DescribeLogDirs(_) => {
                (!self.cluster(Op::Describe)).then(|| (Cluster, "DESCRIBE on the cluster".into()))
            }
            RequestBody::DescribeUserScramCredentials(_) | RequestBody::DescribeAcls(_) => {
                (!self.cluster(Op::Describe)).then(|| (Cluster, "DESCRIBE on the cluster".into()))
            }
            RequestBody::FindCoordinator(r) => {
                let mut keys: Vec<&str> = r.coordinator_keys.iter().map(String::as_str).collect();
                if keys.is_empty() {
                    keys.push(&r.key);
                }
                let (kind, code) = if r.key_type == 1 {
                    (
                        Kind::TransactionalId,
                        ErrorCode::TransactionalIdAuthorizationFailed,
                    )
                } else {
                    (Kind::Group, Group)
                };
                (!keys.iter().all(|k| self.allows(Op::Describe, kind, k)))
                    .then(|| (code, "DESCRIBE on the coordinator key".into()))
            }
            RequestBody::JoinGroup(r) => self.group_read(&r.group_id),
            RequestBody::SyncGroup(r) => self.group_read(&r.group_id),
            RequestBody::Heartbeat(r) => self.group_read(&r.group_id),
            RequestBody::LeaveGroup(r) => self.group_read(&r.group_id),
            // The group first (refused whole), then each topic (narrowed).
            RequestBody::OffsetCommit(r) => match self.group_read(&r.group_id) {
                None => return self.narrow(body, version),
                refused => refused,
            },
            RequestBody::OffsetFetch(r) => {
                let mut groups: Vec<&str> = r.groups.iter().map(|g| g.group_id.as_str()).collect();
                if groups.is_empty() {
                    groups.push(&r.group_id);
                }
                (!groups.iter().all(|g| self.group(Op::Describe, g)))
                    .then(|| (Group, "DESCRIBE on the group".into()))
            }
            RequestBody::OffsetDelete(r) => match self.group(Op::Delete, &r.group_id) {
                true => return self.narrow(body, version),
                false => Some((Group, "DELETE on the group".into())),
            },
            RequestBody::InitProducerId(r) => match &r.transactional_id {
                Some(id) => (!self.allows(Op::Write, Kind::TransactionalId, id)).then(|| {
                    (
                        ErrorCode::TransactionalIdAuthorizationFailed,
                        "WRITE on the transactional id".into(),
                    )
                }),
                None => {
                    (!(self.cluster(Op::IdempotentWrite) || self.any_topic(Op::Write))).then(|| {
                        (
                            Cluster,
                            "IDEMPOTENT_WRITE on the cluster or WRITE on a topic".into(),
                        )
                    })
                }
            },
            RequestBody::GetReplicaLogInfo(r) => {
                let ok = self.cluster(Op::ClusterAction)
                    || r.topic_partitions
                        .iter()
                        .flatten()
                        .all(|t| self.topic(Op::Describe, &self.topic_name(&t.topic_id)));
                (!ok).then(|| {
                    (
                        Topic,
                        "CLUSTER_ACTION on the cluster or DESCRIBE on the topics".into(),
                    )
                })
            }
            RequestBody::ElectLeaders(r) => {
                let (op, what) = if r.election_type == DESIGNATED {
                    (Op::ClusterAction, "CLUSTER_ACTION on the cluster")
                } else {
                    (Op::Alter, "ALTER on the cluster")
                };
                (!self.cluster(op)).then(|| (Cluster, what.into()))
            }
            RequestBody::UpdateFeatures(_)
            | RequestBody::UnregisterBroker(_)
            | RequestBody::UnregisterController(_)
            | RequestBody::AddRaftVoter(_)
            | RequestBody::RemoveRaftVoter(_)
            | RequestBody::CreateAcls(_)
            | RequestBody::DeleteAcls(_)
            | RequestBody::AlterUserScramCredentials(_) => {
                (!self.cluster(Op::Alter)).then(|| (Cluster, "ALTER on the cluster".into()))
            }
            RequestBody::DescribeQuorum(_) => {
                (!self.cluster(Op::Describe)).then(|| (Cluster, "DESCRIBE on the cluster".into()))
            }
            // Between nodes: only principals with CLUSTER_ACTION (brokers, controllers).
            RequestBody::BrokerRegistration(_)
            | RequestBody::BrokerHeartbeat(_)
            | RequestBody::ControllerRegistration(_)
            | RequestBody::AlterPartition(_)
            | RequestBody::AllocateProducerIds(_)
            | RequestBody::Vote(_)
            | RequestBody::BeginQuorumEpoch(_)
            | RequestBody::EndQuorumEpoch(_)
            | RequestBody::FetchSnapshot(_)
            | RequestBody::UpdateRaftVoter(_)
            | RequestBody::Envelope(_) => (!self.cluster(Op::ClusterAction))
                .then(|| (Cluster, "CLUSTER_ACTION on the cluster".into())),
            _ => None,
        };
        match verdict {
            None => Gate::Open(body),
            Some((code, needs)) => Gate::Deny(fjord_protocol::error_response(
                &body,
                version,
                code,
                &format!("{} is not authorized: it needs {needs}", self.principal),
            )),
        }
    }

    fn group_read(&self, group: &str) -> Option<(ErrorCode, String)> {
        (!self.group(Op::Read, group)).then(|| {
            (
                ErrorCode::GroupAuthorizationFailed,
                "READ on the group".into(),
            )
        })
    }

    /// A config resource's verdict for `op`: topics by name, the rest (brokers) on the
    /// cluster.
    fn resource(&self, op: Op, kind: i8, name: &str) -> Option<Denied> {
        let (ok, code) = if kind == CONFIG_TOPIC {
            (self.topic(op, name), ErrorCode::TopicAuthorizationFailed)
        } else {
            (self.cluster(op), ErrorCode::ClusterAuthorizationFailed)
        };
        (!ok).then(|| Denied::Resource(kind, name.to_string(), code))
    }

    /// The requests Kafka answers entity by entity, without the entities the caller may not
    /// touch: Produce (WRITE), Fetch (READ; CLUSTER_ACTION from followers), Metadata and
    /// ListOffsets (DESCRIBE), the config APIs (DESCRIBE_CONFIGS / ALTER_CONFIGS on each
    /// resource), DescribeGroups and DeleteGroups (DESCRIBE / DELETE on each group),
    /// CreateTopics (CREATE on the cluster or the topic), DeleteTopics (DELETE),
    /// CreatePartitions (ALTER).
    fn narrow(&self, body: RequestBody, version: i16) -> Gate {
        let mut denied = Vec::new();
        let body = match body {
            RequestBody::Produce(mut r) => {
                r.topic_data.retain(|t| {
                    let name = if t.name.is_empty() {
                        self.topic_name(&t.topic_id)
                    } else {
                        t.name.clone()
                    };
                    let ok = self.topic(Op::Write, &name);
                    if !ok {
                        let partitions = t.partition_data.iter().map(|p| p.index).collect();
                        denied.push(Denied::Topic(name, partitions));
                    }
                    ok
                });
                RequestBody::Produce(r)
            }
            RequestBody::Fetch(mut r) => {
                let follower = r.replica_id >= 0 || r.replica_state.replica_id >= 0;
                if follower {
                    if self.cluster(Op::ClusterAction) {
                        return Gate::Open(RequestBody::Fetch(r));
                    }
                    let body = RequestBody::Fetch(r);
                    return Gate::Deny(fjord_protocol::error_response(
                        &body,
                        version,
                        ErrorCode::TopicAuthorizationFailed,
                        "fetching as a replica needs CLUSTER_ACTION on the cluster",
                    ));
                }
                r.topics.retain(|t| {
                    let name = if t.topic.is_empty() {
                        self.topic_name(&t.topic_id)
                    } else {
                        t.topic.clone()
                    };
                    let ok = self.topic(Op::Read, &name);
                    if !ok {
                        let partitions = t.partitions.iter().map(|p| p.partition).collect();
                        denied.push(Denied::Topic(name, partitions));
                    }
                    ok
                });
                RequestBody::Fetch(r)
            }
            RequestBody::Metadata(mut r) => {
                if let Some(topics) = &mut r.topics {
                    topics.retain(|t| {
                        let name = t
                            .name
                            .clone()
                            .unwrap_or_else(|| self.topic_name(&t.topic_id));
                        let ok = self.topic(Op::Describe, &name);
                        if !ok {
                            denied.push(Denied::Topic(name, Vec::new()));
                        }
                        ok
                    });
                    // Kafka creates a missing topic only with CREATE on it or the cluster.
                    if r.allow_auto_topic_creation
                        && !self.cluster(Op::Create)
                        && !topics
                            .iter()
                            .all(|t| t.name.as_deref().is_some_and(|n| self.topic(Op::Create, n)))
                    {
                        r.allow_auto_topic_creation = false;
                    }
                }
                RequestBody::Metadata(r)
            }
            RequestBody::ListOffsets(mut r) => {
                r.topics.retain(|t| {
                    let ok = self.topic(Op::Describe, &t.name);
                    if !ok {
                        let partitions = t.partitions.iter().map(|p| p.partition_index).collect();
                        denied.push(Denied::Topic(t.name.clone(), partitions));
                    }
                    ok
                });
                RequestBody::ListOffsets(r)
            }
            RequestBody::DescribeConfigs(mut r) => {
                r.resources.retain(|c| {
                    let d = self.resource(Op::DescribeConfigs, c.resource_type, &c.resource_name);
                    d.map(|d| denied.push(d)).is_none()
                });
                RequestBody::DescribeConfigs(r)
            }
            RequestBody::IncrementalAlterConfigs(mut r) => {
                r.resources.retain(|c| {
                    let d = self.resource(Op::AlterConfigs, c.resource_type, &c.resource_name);
                    d.map(|d| denied.push(d)).is_none()
                });
                RequestBody::IncrementalAlterConfigs(r)
            }
            RequestBody::AlterConfigs(mut r) => {
                r.resources.retain(|c| {
                    let d = self.resource(Op::AlterConfigs, c.resource_type, &c.resource_name);
                    d.map(|d| denied.push(d)).is_none()
                });
                RequestBody::AlterConfigs(r)
            }
            RequestBody::DescribeGroups(mut r) => {
                r.groups.retain(|g| {
                    let ok = self.group(Op::Describe, g);
                    if !ok {
                        denied.push(Denied::Group(g.clone()));
                    }
                    ok
                });
                RequestBody::DescribeGroups(r)
            }
            RequestBody::DeleteGroups(mut r) => {
                r.groups_names.retain(|g| {
                    let ok = self.group(Op::Delete, g);
                    if !ok {
                        denied.push(Denied::Group(g.clone()));
                    }
                    ok
                });
                RequestBody::DeleteGroups(r)
            }
            RequestBody::CreateTopics(mut r) => {
                if !self.cluster(Op::Create) {
                    r.topics.retain(|t| {
                        let ok = self.topic(Op::Create, &t.name);
                        if !ok {
                            denied.push(Denied::Topic(t.name.clone(), Vec::new()));
                        }
                        ok
                    });
                }
                RequestBody::CreateTopics(r)
            }
            RequestBody::DeleteTopics(mut r) => {
                r.topic_names.retain(|n| {
                    let ok = self.topic(Op::Delete, n);
                    if !ok {
                        denied.push(Denied::Topic(n.clone(), Vec::new()));
                    }
                    ok
                });
                r.topics.retain(|t| {
                    // An id no topic has is left for the controller's UNKNOWN_TOPIC_ID.
                    let name = t
                        .name
                        .clone()
                        .unwrap_or_else(|| self.topic_name(&t.topic_id));
                    let ok = name.is_empty() || self.topic(Op::Delete, &name);
                    if !ok {
                        denied.push(Denied::Topic(name, Vec::new()));
                    }
                    ok
                });
                RequestBody::DeleteTopics(r)
            }
            RequestBody::CreatePartitions(mut r) => {
                r.topics.retain(|t| {
                    let ok = self.topic(Op::Alter, &t.name);
                    if !ok {
                        denied.push(Denied::Topic(t.name.clone(), Vec::new()));
                    }
                    ok
                });
                RequestBody::CreatePartitions(r)
            }
            RequestBody::DeleteRecords(mut r) => {
                r.topics.retain(|t| {
                    let ok = self.topic(Op::Delete, &t.name);
                    if !ok {
                        let partitions = t.partitions.iter().map(|p| p.partition_index).collect();
                        denied.push(Denied::Topic(t.name.clone(), partitions));
                    }
                    ok
                });
                RequestBody::DeleteRecords(r)
            }
            RequestBody::OffsetCommit(mut r) => {
                r.topics.retain(|t| {
                    let name = if t.name.is_empty() {
                        self.topic_name(&t.topic_id)
                    } else {
                        t.name.clone()
                    };
                    let ok = self.topic(Op::Read, &name);
                    if !ok {
                        let partitions = t.partitions.iter().map(|p| p.partition_index).collect();
                        denied.push(Denied::Topic(name, partitions));
                    }
                    ok
                });
                RequestBody::OffsetCommit(r)
            }
            RequestBody::OffsetDelete(mut r) => {
                r.topics.retain(|t| {
                    let ok = self.topic(Op::Read, &t.name);
                    if !ok {
                        let partitions = t.partitions.iter().map(|p| p.partition_index).collect();
                        denied.push(Denied::Topic(t.name.clone(), partitions));
                    }
                    ok
                });
                RequestBody::OffsetDelete(r)
            }
            RequestBody::DescribeTopicPartitions(mut r) => {
                // Named topics the principal may not DESCRIBE are refused; a listing (no
                // names) leaves them out (`finish`).
                r.topics.retain(|t| {
                    let ok = self.topic(Op::Describe, &t.name);
                    if !ok {
                        denied.push(Denied::Topic(t.name.clone(), Vec::new()));
                    }
                    ok
                });
                RequestBody::DescribeTopicPartitions(r)
            }
            other => other,
        };
        if denied.is_empty() {
            Gate::Open(body)
        } else {
            Gate::Partial(body, denied)
        }
    }

    /// The answer to a narrowed or listing request: the denied topics answered with
    /// TOPIC_AUTHORIZATION_FAILED, and listings without what the caller may not DESCRIBE.
    pub fn finish(&self, response: ResponseBody, denied: &[Denied]) -> ResponseBody {
        if self.settings.is_none() {
            return response;
        }
        let code = ErrorCode::TopicAuthorizationFailed.code();
        let group_code = ErrorCode::GroupAuthorizationFailed.code();
        let message = || Some(format!("{} is not authorized", self.principal));
        let topics = || {
            denied.iter().filter_map(|d| match d {
                Denied::Topic(name, partitions) => Some((name, partitions)),
                _ => None,
            })
        };
        let groups = || {
            denied.iter().filter_map(|d| match d {
                Denied::Group(g) => Some(g),
                _ => None,
            })
        };
        let resources = || {
            denied.iter().filter_map(|d| match d {
                Denied::Resource(kind, name, code) => Some((*kind, name, code.code())),
                _ => None,
            })
        };
        match response {
            ResponseBody::Produce(mut r) => {
                for (name, partitions) in topics() {
                    r.responses.push(produce_response::TopicProduceResponse {
                        name: name.clone(),
                        topic_id: self.topic_id(name),
                        partition_responses: partitions
                            .iter()
                            .map(|p| produce_response::PartitionProduceResponse {
                                index: *p,
                                error_code: code,
                                ..Default::default()
                            })
                            .collect(),
                        ..Default::default()
                    });
                }
                ResponseBody::Produce(r)
            }
            ResponseBody::Fetch(mut r) => {
                for (name, partitions) in topics() {
                    r.responses.push(fetch_response::FetchableTopicResponse {
                        topic: name.clone(),
                        topic_id: self.topic_id(name),
                        partitions: partitions
                            .iter()
                            .map(|p| fetch_response::PartitionData {
                                partition_index: *p,
                                error_code: code,
                                high_watermark: -1,
                                last_stable_offset: -1,
                                log_start_offset: -1,
                                ..Default::default()
                            })
                            .collect(),
                        ..Default::default()
                    });
                }
                ResponseBody::Fetch(r)
            }
            ResponseBody::Metadata(mut r) => {
                // Listed topics the caller may not see are left out; named ones are refused.
                r.topics.retain(|t| {
                    t.name
                        .as_deref()
                        .is_none_or(|n| self.topic(Op::Describe, n))
                });
                for (name, _) in topics() {
                    r.topics.push(MetadataResponseTopic {
                        error_code: code,
                        name: Some(name.clone()),
                        ..Default::default()
                    });
                }
                ResponseBody::Metadata(r)
            }
            ResponseBody::ListOffsets(mut r) => {
                for (name, partitions) in topics() {
                    r.topics
                        .push(list_offsets_response::ListOffsetsTopicResponse {
                            name: name.clone(),
                            partitions: partitions
                                .iter()
                                .map(|p| list_offsets_response::ListOffsetsPartitionResponse {
                                    partition_index: *p,
                                    error_code: code,
                                    timestamp: -1,
                                    offset: -1,
                                    leader_epoch: -1,
                                    ..Default::default()
                                })
                                .collect(),
                            ..Default::default()
                        });
                }
                ResponseBody::ListOffsets(r)
            }
            ResponseBody::DescribeConfigs(mut r) => {
                for (kind, name, code) in resources() {
                    r.results
                        .push(describe_configs_response::DescribeConfigsResult {
                            error_code: code,
                            error_message: message(),
                            resource_type: kind,
                            resource_name: name.clone(),
                            ..Default::default()
                        });
                }
                ResponseBody::DescribeConfigs(r)
            }
            ResponseBody::IncrementalAlterConfigs(mut r) => {
                for (kind, name, code) in resources() {
                    r.responses.push(
                        incremental_alter_configs_response::AlterConfigsResourceResponse {
                            error_code: code,
                            error_message: message(),
                            resource_type: kind,
                            resource_name: name.clone(),
                            ..Default::default()
                        },
                    );
                }
                ResponseBody::IncrementalAlterConfigs(r)
            }
            ResponseBody::AlterConfigs(mut r) => {
                for (kind, name, code) in resources() {
                    r.responses
                        .push(alter_configs_response::AlterConfigsResourceResponse {
                            error_code: code,
                            error_message: message(),
                            resource_type: kind,
                            resource_name: name.clone(),
                            ..Default::default()
                        });
                }
                ResponseBody::AlterConfigs(r)
            }
            ResponseBody::DescribeGroups(mut r) => {
                for g in groups() {
                    r.groups.push(describe_groups_response::DescribedGroup {
                        error_code: group_code,
                        error_message: message(),
                        group_id: g.clone(),
                        ..Default::default()
                    });
                }
                ResponseBody::DescribeGroups(r)
            }
            ResponseBody::DeleteGroups(mut r) => {
                for g in groups() {
                    r.results
                        .push(delete_groups_response::DeletableGroupResult {
                            group_id: g.clone(),
                            error_code: group_code,
                            ..Default::default()
                        });
                }
                ResponseBody::DeleteGroups(r)
            }
            ResponseBody::CreateTopics(mut r) => {
                for (name, _) in topics() {
                    r.topics.push(create_topics_response::CreatableTopicResult {
                        name: name.clone(),
                        error_code: code,
                        error_message: message(),
                        num_partitions: -1,
                        replication_factor: -1,
                        configs: None,
                        ..Default::default()
                    });
                }
                ResponseBody::CreateTopics(r)
            }
            ResponseBody::DeleteTopics(mut r) => {
                for (name, _) in topics() {
                    r.responses
                        .push(delete_topics_response::DeletableTopicResult {
                            name: Some(name.clone()),
                            topic_id: self.topic_id(name),
                            error_code: code,
                            error_message: message(),
                            ..Default::default()
                        });
                }
                ResponseBody::DeleteTopics(r)
            }
            ResponseBody::CreatePartitions(mut r) => {
                for (name, _) in topics() {
                    r.results
                        .push(create_partitions_response::CreatePartitionsTopicResult {
                            name: name.clone(),
                            error_code: code,
                            error_message: message(),
                            ..Default::default()
                        });
                }
                ResponseBody::CreatePartitions(r)
            }
            ResponseBody::DescribeTopicPartitions(mut r) => {
                r.topics.retain(|t| {
                    t.name
                        .as_deref()
                        .is_none_or(|n| self.topic(Op::Describe, n))
                });
                for (name, _) in topics() {
                    r.topics.push(
                        describe_topic_partitions_response::DescribeTopicPartitionsResponseTopic {
                            error_code: code,
                            name: Some(name.clone()),
                            topic_authorized_operations: i32::MIN,
                            ..Default::default()
                        },
                    );
                }
                ResponseBody::DescribeTopicPartitions(r)
            }
            ResponseBody::DeleteRecords(mut r) => {
                for (name, partitions) in topics() {
                    r.topics
                        .push(delete_records_response::DeleteRecordsTopicResult {
                            name: name.clone(),
                            partitions: partitions
                                .iter()
                                .map(|p| delete_records_response::DeleteRecordsPartitionResult {
                                    partition_index: *p,
                                    low_watermark: -1,
                                    error_code: code,
                                    ..Default::default()
                                })
                                .collect(),
                            ..Default::default()
                        });
                }
                ResponseBody::DeleteRecords(r)
            }
            ResponseBody::OffsetCommit(mut r) => {
                for (name, partitions) in topics() {
                    r.topics
                        .push(offset_commit_response::OffsetCommitResponseTopic {
                            name: name.clone(),
                            topic_id: self.topic_id(name),
                            partitions: partitions
                                .iter()
                                .map(|p| offset_commit_response::OffsetCommitResponsePartition {
                                    partition_index: *p,
                                    error_code: code,
                                    ..Default::default()
                                })
                                .collect(),
                            ..Default::default()
                        });
                }
                ResponseBody::OffsetCommit(r)
            }
            ResponseBody::OffsetDelete(mut r) => {
                for (name, partitions) in topics() {
                    r.topics
                        .push(offset_delete_response::OffsetDeleteResponseTopic {
                            name: name.clone(),
                            partitions: partitions
                                .iter()
                                .map(|p| offset_delete_response::OffsetDeleteResponsePartition {
                                    partition_index: *p,
                                    error_code: code,
                                })
                                .collect(),
                        });
                }
                ResponseBody::OffsetDelete(r)
            }
            ResponseBody::ListGroups(mut r) => {
                if !self.cluster(Op::Describe) {
                    r.groups.retain(|g| self.group(Op::Describe, &g.group_id));
                }
                ResponseBody::ListGroups(r)
            }
            other => other,
        }
    }
}
