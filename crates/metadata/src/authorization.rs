//! What each request needs the caller to be allowed (Kafka's authorization table per API,
//! docs/EXTENSIONS.md for the mission's RPCs), decided against the image's ACLs: a request is let
//! through, refused whole with its API's `*_AUTHORIZATION_FAILED` answer, or (the APIs Kafka
//! answers entity by entity: Produce, Fetch, Metadata, ListOffsets, the config APIs,
//! DescribeGroups, DeleteGroups, CreateTopics, DeleteTopics, CreatePartitions, DeleteRecords,
//! the topics of OffsetCommit and OffsetDelete, named DescribeTopicPartitions) let through
//! without the entities the caller may not touch, which are answered with their error. Listings (Metadata for all topics, DescribeTopicPartitions,
//! ListGroups) leave out what the caller may not DESCRIBE. Both listeners use this table, so a
//! request is judged the same on a broker and on a controller.

use crate::acls::{AclOperation as Op, AuthorizerSettings, ResourceType as Kind};
use crate::MetadataImage;
use fjord_protocol::generated::offset_delete_response;
use fjord_protocol::{ErrorCode, RequestBody, ResponseBody, Uuid};

/// The name of the cluster resource.
pub const CLUSTER: &str = "kafka-cluster";
/// ElectLeaders' DESIGNATED election type (docs/EXTENSIONS.md).
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

/// A part of a request that was refused: the entities left out, as a request of the same
/// API, and the error they are answered with.
#[derive(Debug, Clone, PartialEq)]
pub struct Denied {
    /// The refused entities.
    pub part: RequestBody,
    /// Their `*_AUTHORIZATION_FAILED`.
    pub code: ErrorCode,
}

impl<'a> Access<'a> {
    /// `principal` (`User:alice`) at `host`; `settings` is `None` when no authorizer is
    /// configured (everything is allowed).
    pub fn new(
        settings: Option<&'a AuthorizerSettings>,
        image: &'a MetadataImage,
        principal: &dyn std::fmt::Display,
        host: &dyn std::fmt::Display,
    ) -> Access<'a> {
        // Without an authorizer nothing is checked: no text is made on the request path.
        let (principal, host) = match settings {
            Some(_) => (principal.to_string(), host.to_string()),
            None => (String::new(), String::new()),
        };
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

    /// The topics of a GetReplicaLogInfo request the caller may not ask about: none with
    /// CLUSTER_ACTION on the cluster, else those (known by id) without DESCRIBE. An unknown
    /// id is never refused here: it is answered UNKNOWN_TOPIC_ID.
    pub fn replica_log_info_refusals(
        &self,
        r: &fjord_protocol::generated::get_replica_log_info_request::GetReplicaLogInfoRequest,
    ) -> std::collections::BTreeSet<Uuid> {
        if self.settings.is_none() || self.cluster(Op::ClusterAction) {
            return Default::default();
        }
        r.topic_partitions
            .iter()
            .flatten()
            .map(|t| t.topic_id)
            .filter(|id| {
                let name = self.topic_name(id);
                !name.is_empty() && !self.topic(Op::Describe, &name)
            })
            .collect()
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
            // Judged topic by topic by the handler, with [`Access::replica_log_info_refusals`]:
            // refusals count toward the 1000-partition limit in request order.
            RequestBody::GetReplicaLogInfo(_) => None,
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
            | RequestBody::AlterUserScramCredentials(_)
            | RequestBody::AlterReplicaLogDirs(_) => {
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
            | RequestBody::AssignReplicasToDirs(_)
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

    /// The requests Kafka answers entity by entity, without the entities the caller may not
    /// touch: Produce (WRITE), Fetch (READ; CLUSTER_ACTION from followers), Metadata and
    /// ListOffsets (DESCRIBE), the config APIs (DESCRIBE_CONFIGS / ALTER_CONFIGS on each
    /// resource), DescribeGroups and DeleteGroups (DESCRIBE / DELETE on each group),
    /// CreateTopics (CREATE on the cluster or the topic), DeleteTopics and DeleteRecords
    /// (DELETE), CreatePartitions (ALTER), OffsetCommit and OffsetDelete topics (READ),
    /// named DescribeTopicPartitions topics (DESCRIBE). The refused entities are kept as a
    /// request of the same API, answered by `finish` with Kafka's error response.
    fn narrow(&self, body: RequestBody, version: i16) -> Gate {
        use ErrorCode::{GroupAuthorizationFailed as Group, TopicAuthorizationFailed as Topic};
        let mut denied = Vec::new();
        // Moves the entities of `$r.$field` that `$ok` refuses into a request of their own,
        // refused with `$code`.
        macro_rules! refuse {
            ($variant:ident, $r:ident, $field:ident, $code:expr, $ok:expr) => {{
                let refused = split(&mut $r.$field, $ok);
                if !refused.is_empty() {
                    let mut part = $r.clone();
                    part.$field = refused;
                    denied.push(Denied {
                        part: RequestBody::$variant(part),
                        code: $code,
                    });
                }
            }};
        }
        let name_or = |name: &str, id: &Uuid| {
            if name.is_empty() {
                self.topic_name(id)
            } else {
                name.to_string()
            }
        };
        let body = match body {
            RequestBody::Produce(mut r) => {
                refuse!(Produce, r, topic_data, Topic, |t| {
                    self.topic(Op::Write, &name_or(&t.name, &t.topic_id))
                });
                RequestBody::Produce(r)
            }
            RequestBody::Fetch(r) if r.replica_id >= 0 || r.replica_state.replica_id >= 0 => {
                if self.cluster(Op::ClusterAction) {
                    return Gate::Open(RequestBody::Fetch(r));
                }
                let body = RequestBody::Fetch(r);
                return Gate::Deny(fjord_protocol::error_response(
                    &body,
                    version,
                    Topic,
                    "fetching as a replica needs CLUSTER_ACTION on the cluster",
                ));
            }
            RequestBody::Fetch(mut r) => {
                refuse!(Fetch, r, topics, Topic, |t| {
                    self.topic(Op::Read, &name_or(&t.topic, &t.topic_id))
                });
                RequestBody::Fetch(r)
            }
            RequestBody::Metadata(mut r) => {
                if let Some(mut topics) = r.topics.take() {
                    let refused = split(&mut topics, |t| {
                        let name = t
                            .name
                            .clone()
                            .unwrap_or_else(|| self.topic_name(&t.topic_id));
                        self.topic(Op::Describe, &name)
                    });
                    if !refused.is_empty() {
                        let mut part = r.clone();
                        part.topics = Some(refused);
                        denied.push(Denied {
                            part: RequestBody::Metadata(part),
                            code: Topic,
                        });
                    }
                    // Kafka creates a missing topic only with CREATE on it or the cluster.
                    if r.allow_auto_topic_creation
                        && !self.cluster(Op::Create)
                        && !topics
                            .iter()
                            .all(|t| t.name.as_deref().is_some_and(|n| self.topic(Op::Create, n)))
                    {
                        r.allow_auto_topic_creation = false;
                    }
                    r.topics = Some(topics);
                }
                RequestBody::Metadata(r)
            }
            RequestBody::ListOffsets(mut r) => {
                refuse!(ListOffsets, r, topics, Topic, |t| self
                    .topic(Op::Describe, &t.name));
                RequestBody::ListOffsets(r)
            }
            // A topic resource is refused with TOPIC_, a broker one with CLUSTER_AUTHORIZATION_FAILED.
            RequestBody::DescribeConfigs(mut r) => {
                refuse!(DescribeConfigs, r, resources, Topic, |c| {
                    c.resource_type != CONFIG_TOPIC
                        || self.topic(Op::DescribeConfigs, &c.resource_name)
                });
                refuse!(
                    DescribeConfigs,
                    r,
                    resources,
                    ErrorCode::ClusterAuthorizationFailed,
                    |c| { c.resource_type == CONFIG_TOPIC || self.cluster(Op::DescribeConfigs) }
                );
                RequestBody::DescribeConfigs(r)
            }
            RequestBody::IncrementalAlterConfigs(mut r) => {
                refuse!(IncrementalAlterConfigs, r, resources, Topic, |c| {
                    c.resource_type != CONFIG_TOPIC
                        || self.topic(Op::AlterConfigs, &c.resource_name)
                });
                refuse!(
                    IncrementalAlterConfigs,
                    r,
                    resources,
                    ErrorCode::ClusterAuthorizationFailed,
                    |c| { c.resource_type == CONFIG_TOPIC || self.cluster(Op::AlterConfigs) }
                );
                RequestBody::IncrementalAlterConfigs(r)
            }
            RequestBody::AlterConfigs(mut r) => {
                refuse!(AlterConfigs, r, resources, Topic, |c| {
                    c.resource_type != CONFIG_TOPIC
                        || self.topic(Op::AlterConfigs, &c.resource_name)
                });
                refuse!(
                    AlterConfigs,
                    r,
                    resources,
                    ErrorCode::ClusterAuthorizationFailed,
                    |c| { c.resource_type == CONFIG_TOPIC || self.cluster(Op::AlterConfigs) }
                );
                RequestBody::AlterConfigs(r)
            }
            RequestBody::DescribeGroups(mut r) => {
                refuse!(DescribeGroups, r, groups, Group, |g| self
                    .group(Op::Describe, g));
                RequestBody::DescribeGroups(r)
            }
            RequestBody::DeleteGroups(mut r) => {
                refuse!(DeleteGroups, r, groups_names, Group, |g| self
                    .group(Op::Delete, g));
                RequestBody::DeleteGroups(r)
            }
            RequestBody::CreateTopics(mut r) => {
                if !self.cluster(Op::Create) {
                    refuse!(CreateTopics, r, topics, Topic, |t| self
                        .topic(Op::Create, &t.name));
                }
                RequestBody::CreateTopics(r)
            }
            RequestBody::DeleteTopics(mut r) => {
                refuse!(DeleteTopics, r, topic_names, Topic, |n| self
                    .topic(Op::Delete, n));
                refuse!(DeleteTopics, r, topics, Topic, |t| {
                    // An id no topic has is left for the controller's UNKNOWN_TOPIC_ID.
                    let name = t
                        .name
                        .clone()
                        .unwrap_or_else(|| self.topic_name(&t.topic_id));
                    name.is_empty() || self.topic(Op::Delete, &name)
                });
                RequestBody::DeleteTopics(r)
            }
            RequestBody::CreatePartitions(mut r) => {
                refuse!(CreatePartitions, r, topics, Topic, |t| self
                    .topic(Op::Alter, &t.name));
                RequestBody::CreatePartitions(r)
            }
            RequestBody::DeleteRecords(mut r) => {
                refuse!(DeleteRecords, r, topics, Topic, |t| self
                    .topic(Op::Delete, &t.name));
                RequestBody::DeleteRecords(r)
            }
            RequestBody::OffsetCommit(mut r) => {
                refuse!(OffsetCommit, r, topics, Topic, |t| {
                    self.topic(Op::Read, &name_or(&t.name, &t.topic_id))
                });
                RequestBody::OffsetCommit(r)
            }
            RequestBody::OffsetDelete(mut r) => {
                refuse!(OffsetDelete, r, topics, Topic, |t| self
                    .topic(Op::Read, &t.name));
                RequestBody::OffsetDelete(r)
            }
            // Named topics the principal may not DESCRIBE are refused; a listing (no names)
            // leaves them out (`finish`).
            RequestBody::DescribeTopicPartitions(mut r) => {
                refuse!(DescribeTopicPartitions, r, topics, Topic, |t| {
                    self.topic(Op::Describe, &t.name)
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

    /// The answer to a narrowed or listing request at `version`: the refused parts answered
    /// with Kafka's error response of their API, merged in, and listings without what the
    /// caller may not DESCRIBE.
    pub fn finish(&self, response: ResponseBody, denied: &[Denied], version: i16) -> ResponseBody {
        if self.settings.is_none() {
            return response;
        }
        let mut response = match response {
            // Listed topics the caller may not see are left out.
            ResponseBody::Metadata(mut r) => {
                r.topics.retain(|t| {
                    t.name
                        .as_deref()
                        .is_none_or(|n| self.topic(Op::Describe, n))
                });
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
        };
        let message = format!("{} is not authorized", self.principal);
        for d in denied {
            let refused = fjord_protocol::error_response(&d.part, version, d.code, &message);
            merge(&mut response, refused, &d.part);
        }
        response
    }
}

/// Takes the items `ok` refuses out of `items`, in order.
fn split<T>(items: &mut Vec<T>, mut ok: impl FnMut(&T) -> bool) -> Vec<T> {
    let (kept, refused) = std::mem::take(items).into_iter().partition(|x| ok(x));
    *items = kept;
    refused
}

/// Adds the per-entity answers of `refused` (the error response to `part`) to `response`.
fn merge(response: &mut ResponseBody, refused: ResponseBody, part: &RequestBody) {
    use ResponseBody as R;
    match (response, refused) {
        (R::Produce(a), R::Produce(b)) => a.responses.extend(b.responses),
        (R::Fetch(a), R::Fetch(b)) => a.responses.extend(b.responses),
        (R::Metadata(a), R::Metadata(b)) => a.topics.extend(b.topics),
        (R::ListOffsets(a), R::ListOffsets(b)) => a.topics.extend(b.topics),
        (R::DescribeConfigs(a), R::DescribeConfigs(b)) => a.results.extend(b.results),
        (R::IncrementalAlterConfigs(a), R::IncrementalAlterConfigs(b)) => {
            a.responses.extend(b.responses)
        }
        (R::AlterConfigs(a), R::AlterConfigs(b)) => a.responses.extend(b.responses),
        (R::DescribeGroups(a), R::DescribeGroups(b)) => a.groups.extend(b.groups),
        (R::DeleteGroups(a), R::DeleteGroups(b)) => a.results.extend(b.results),
        (R::CreateTopics(a), R::CreateTopics(b)) => a.topics.extend(b.topics),
        (R::DeleteTopics(a), R::DeleteTopics(b)) => a.responses.extend(b.responses),
        (R::CreatePartitions(a), R::CreatePartitions(b)) => a.results.extend(b.results),
        (R::DeleteRecords(a), R::DeleteRecords(b)) => a.topics.extend(b.topics),
        (R::OffsetCommit(a), R::OffsetCommit(b)) => a.topics.extend(b.topics),
        (R::DescribeTopicPartitions(a), R::DescribeTopicPartitions(b)) => a.topics.extend(b.topics),
        // Kafka's OffsetDelete error response has a top-level error only; refused topics
        // are answered partition by partition.
        (R::OffsetDelete(a), R::OffsetDelete(b)) => {
            if let RequestBody::OffsetDelete(p) = part {
                a.topics.extend(p.topics.iter().map(|t| {
                    offset_delete_response::OffsetDeleteResponseTopic {
                        name: t.name.clone(),
                        partitions: t
                            .partitions
                            .iter()
                            .map(|x| offset_delete_response::OffsetDeleteResponsePartition {
                                partition_index: x.partition_index,
                                error_code: b.error_code,
                            })
                            .collect(),
                    }
                }));
            }
        }
        _ => {}
    }
}
