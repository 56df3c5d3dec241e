//! What each request needs the caller to be allowed (Kafka's authorization table per API,
//! EXTENSIONS.md for the mission's RPCs), decided against the image's ACLs: a request is let
//! through, refused whole with its API's `*_AUTHORIZATION_FAILED` answer, or (Produce, Fetch,
//! Metadata) let through without the topics the caller may not touch, which are answered with
//! TOPIC_AUTHORIZATION_FAILED. Listings (Metadata for all topics, DescribeTopicPartitions,
//! ListGroups) leave out what the caller may not DESCRIBE. Both listeners use this table, so a
//! request is judged the same on a broker and on a controller.

use crate::acls::{AclOperation as Op, AuthorizerSettings, ResourceType as Kind};
use crate::MetadataImage;
use fjord_protocol::generated::metadata_response::MetadataResponseTopic;
use fjord_protocol::generated::{fetch_response, produce_response};
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
    /// Handle this narrower request, then add TOPIC_AUTHORIZATION_FAILED for these topics
    /// and partitions.
    Partial(RequestBody, Vec<(String, Vec<i32>)>),
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
            RequestBody::Produce(_) | RequestBody::Fetch(_) | RequestBody::Metadata(_) => {
                return self.narrow(body, version)
            }
            RequestBody::ListOffsets(r) => {
                (!all_topics(Op::Describe, &mut r.topics.iter().map(|t| t.name.as_str())))
                    .then(|| (Topic, "DESCRIBE on the topics".into()))
            }
            RequestBody::OffsetForLeaderEpoch(r) => {
                let ok = if r.replica_id >= 0 {
                    self.cluster(Op::ClusterAction)
                } else {
                    all_topics(Op::Describe, &mut r.topics.iter().map(|t| t.topic.as_str()))
                };
                (!ok).then(|| (Topic, "DESCRIBE on the topics".into()))
            }
            RequestBody::DeleteRecords(r) => {
                (!all_topics(Op::Delete, &mut r.topics.iter().map(|t| t.name.as_str())))
                    .then(|| (Topic, "DELETE on the topics".into()))
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
            RequestBody::DescribeConfigs(r) => {
                let ok = r.resources.iter().all(|c| {
                    if c.resource_type == CONFIG_TOPIC {
                        self.topic(Op::DescribeConfigs, &c.resource_name)
                    } else {
                        self.cluster(Op::DescribeConfigs)
                    }
                });
                (!ok).then(|| (Topic, "DESCRIBE_CONFIGS on the resources".into()))
            }
            RequestBody::IncrementalAlterConfigs(r) => self.alter_configs(
                &mut r
                    .resources
                    .iter()
                    .map(|c| (c.resource_type, c.resource_name.as_str())),
            ),
            RequestBody::AlterConfigs(r) => self.alter_configs(
                &mut r
                    .resources
                    .iter()
                    .map(|c| (c.resource_type, c.resource_name.as_str())),
            ),
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
            RequestBody::OffsetCommit(r) => self.group_read(&r.group_id).or_else(|| {
                let names: Vec<String> = r
                    .topics
                    .iter()
                    .map(|t| {
                        if t.name.is_empty() {
                            self.topic_name(&t.topic_id)
                        } else {
                            t.name.clone()
                        }
                    })
                    .collect();
                (!names.iter().all(|n| self.topic(Op::Read, n)))
                    .then(|| (Topic, "READ on the topics".into()))
            }),
            RequestBody::OffsetFetch(r) => {
                let mut groups: Vec<&str> = r.groups.iter().map(|g| g.group_id.as_str()).collect();
                if groups.is_empty() {
                    groups.push(&r.group_id);
                }
                (!groups.iter().all(|g| self.group(Op::Describe, g)))
                    .then(|| (Group, "DESCRIBE on the group".into()))
            }
            RequestBody::OffsetDelete(r) => (!self.group(Op::Delete, &r.group_id))
                .then(|| (Group, "DELETE on the group".into()))
                .or_else(|| {
                    (!all_topics(Op::Read, &mut r.topics.iter().map(|t| t.name.as_str())))
                        .then(|| (Topic, "READ on the topics".into()))
                }),
            RequestBody::DescribeGroups(r) => {
                (!r.groups.iter().all(|g| self.group(Op::Describe, g)))
                    .then(|| (Group, "DESCRIBE on the groups".into()))
            }
            RequestBody::DeleteGroups(r) => {
                (!r.groups_names.iter().all(|g| self.group(Op::Delete, g)))
                    .then(|| (Group, "DELETE on the groups".into()))
            }
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
            RequestBody::CreateTopics(r) => {
                let ok = self.cluster(Op::Create)
                    || r.topics.iter().all(|t| self.topic(Op::Create, &t.name));
                (!ok).then(|| (Topic, "CREATE on the cluster or the topics".into()))
            }
            RequestBody::DeleteTopics(r) => {
                let names: Vec<String> = r
                    .topic_names
                    .iter()
                    .cloned()
                    .chain(r.topics.iter().map(|t| {
                        t.name
                            .clone()
                            .unwrap_or_else(|| self.topic_name(&t.topic_id))
                    }))
                    .collect();
                (!names.iter().all(|n| self.topic(Op::Delete, n)))
                    .then(|| (Topic, "DELETE on the topics".into()))
            }
            RequestBody::CreatePartitions(r) => {
                (!all_topics(Op::Alter, &mut r.topics.iter().map(|t| t.name.as_str())))
                    .then(|| (Topic, "ALTER on the topics".into()))
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

    fn alter_configs(
        &self,
        resources: &mut dyn Iterator<Item = (i8, &str)>,
    ) -> Option<(ErrorCode, String)> {
        let mut code = None;
        for (kind, name) in resources {
            if kind == CONFIG_TOPIC {
                if !self.topic(Op::AlterConfigs, name) {
                    code = Some(ErrorCode::TopicAuthorizationFailed);
                }
            } else if !self.cluster(Op::AlterConfigs) {
                code = Some(ErrorCode::ClusterAuthorizationFailed);
            }
        }
        code.map(|c| (c, "ALTER_CONFIGS on the resources".into()))
    }

    /// Produce (WRITE), Fetch (READ; CLUSTER_ACTION from followers) and Metadata (DESCRIBE)
    /// without the topics the caller may not touch.
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
                        denied.push((name, t.partition_data.iter().map(|p| p.index).collect()));
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
                        denied.push((name, t.partitions.iter().map(|p| p.partition).collect()));
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
                            denied.push((name, Vec::new()));
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
    pub fn finish(&self, response: ResponseBody, denied: &[(String, Vec<i32>)]) -> ResponseBody {
        if self.settings.is_none() {
            return response;
        }
        let code = ErrorCode::TopicAuthorizationFailed.code();
        match response {
            ResponseBody::Produce(mut r) => {
                for (name, partitions) in denied {
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
                for (name, partitions) in denied {
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
                for (name, _) in denied {
                    r.topics.push(MetadataResponseTopic {
                        error_code: code,
                        name: Some(name.clone()),
                        ..Default::default()
                    });
                }
                ResponseBody::Metadata(r)
            }
            ResponseBody::DescribeTopicPartitions(mut r) => {
                r.topics.retain(|t| {
                    t.name
                        .as_deref()
                        .is_none_or(|n| self.topic(Op::Describe, n))
                });
                ResponseBody::DescribeTopicPartitions(r)
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
