//! Request authorization, as Kafka's request layer does it: what each request needs the
//! caller to be allowed (each API's [`Rule`](crate::api::Rule) in the descriptor table,
//! docs/EXTENSIONS.md for the mission's RPCs). A request is let through, refused whole with its
//! API's `*_AUTHORIZATION_FAILED` answer, or (the APIs Kafka answers entity by entity) let
//! through without the entities the caller may not touch, which are answered with their error
//! and merged into the answer ([`Access::finish`]). Listings (Metadata for all topics,
//! DescribeTopicPartitions, ListGroups) leave out what the caller may not DESCRIBE. Both
//! listeners judge with this module, so a request is judged the same on a broker and on a
//! controller. The ACL decision itself (super users, DENY before ALLOW, patterns) is the
//! metadata image's, reached through [`Acls`].

use crate::api::{self, Listener, Rule};
use fjord_protocol::acl::{AclOperation as Op, ResourceType as Kind};
use fjord_protocol::generated::offset_delete_response;
use fjord_protocol::{ErrorCode, RequestBody, ResponseBody, Uuid};

/// The name of the cluster resource.
pub const CLUSTER: &str = "kafka-cluster";
/// ElectLeaders' DESIGNATED election type (docs/EXTENSIONS.md).
const DESIGNATED: i8 = 2;
/// DescribeConfigs / AlterConfigs resource types: topic, broker, broker logger.
const CONFIG_TOPIC: i8 = 2;
/// The config resource type of a group (KIP-848 group configs).
const CONFIG_GROUP: i8 = 32;

pub use fjord_protocol::acl::Acls;

/// Who asks, and what the ACLs allow them.
pub struct Access<'a> {
    acls: Option<&'a dyn Acls>,
    principal: String,
    host: String,
}

impl std::fmt::Debug for Access<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Access")
            .field("enabled", &self.acls.is_some())
            .field("principal", &self.principal)
            .field("host", &self.host)
            .finish()
    }
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
    /// `principal` (`User:alice`) at `host`; `acls` is `None` when no authorizer is
    /// configured (everything is allowed).
    pub fn new(
        acls: Option<&'a dyn Acls>,
        principal: &dyn std::fmt::Display,
        host: &dyn std::fmt::Display,
    ) -> Access<'a> {
        // Without an authorizer nothing is checked: no text is made on the request path.
        let (principal, host) = match acls {
            Some(_) => (principal.to_string(), host.to_string()),
            None => (String::new(), String::new()),
        };
        Access {
            acls,
            principal,
            host,
        }
    }

    /// Whether an authorizer is configured.
    pub fn enabled(&self) -> bool {
        self.acls.is_some()
    }

    /// Whether the caller may do `op` on the resource `name` of `kind`.
    pub fn allows(&self, op: Op, kind: Kind, name: &str) -> bool {
        match self.acls {
            None => true,
            Some(a) => a.allows(&self.principal, &self.host, op, kind, name),
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
        match self.acls {
            None => true,
            Some(a) => a.any_allowed(&self.principal, &self.host, op, Kind::Topic),
        }
    }

    /// The topics of a GetReplicaLogInfo request the caller may not ask about: none with
    /// CLUSTER_ACTION on the cluster, else those (known by id) without DESCRIBE. An unknown
    /// id is never refused here: it is answered UNKNOWN_TOPIC_ID.
    pub fn replica_log_info_refusals(
        &self,
        r: &fjord_protocol::generated::get_replica_log_info_request::GetReplicaLogInfoRequest,
    ) -> std::collections::BTreeSet<Uuid> {
        if self.acls.is_none() || self.cluster(Op::ClusterAction) {
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
        self.acls.and_then(|a| a.topic_name(id)).unwrap_or_default()
    }

    /// The topic's name: `name`, or the name of the topic with id `id` when `name` is empty.
    fn name_or(&self, name: &str, id: &Uuid) -> String {
        if name.is_empty() {
            self.topic_name(id)
        } else {
            name.to_string()
        }
    }

    /// Decides `body` at `version` as a broker listener does.
    pub fn gate(&self, body: RequestBody, version: i16) -> Gate {
        self.gate_on(Listener::Broker, body, version)
    }

    /// Decides `body` at `version` on `listener`, by its API's rule in the descriptor table.
    pub fn gate_on(&self, listener: Listener, body: RequestBody, version: i16) -> Gate {
        if self.acls.is_none() {
            return Gate::Open(body);
        }
        let rule = api::describe(body.api_key()).map_or(Rule::Open, |a| a.rule);
        match rule {
            Rule::Open => Gate::Open(body),
            Rule::Cluster(op) => match self.cluster(op) {
                true => Gate::Open(body),
                false => self.deny(
                    body,
                    version,
                    ErrorCode::ClusterAuthorizationFailed,
                    &format!("{} on the cluster", op.name()),
                ),
            },
            Rule::By(rule) => rule(self, listener, body, version),
        }
    }

    /// Refuses all of `body` with `code`, saying what it needs.
    fn deny(&self, body: RequestBody, version: i16, code: ErrorCode, needs: &str) -> Gate {
        Gate::Deny(fjord_protocol::error_response(
            &body,
            version,
            code,
            &format!("{} is not authorized: it needs {needs}", self.principal),
        ))
    }

    /// Lets `body` through when `ok`, else refuses it whole with `code`.
    fn unless(
        &self,
        ok: bool,
        body: RequestBody,
        version: i16,
        code: ErrorCode,
        needs: &str,
    ) -> Gate {
        match ok {
            true => Gate::Open(body),
            false => self.deny(body, version, code, needs),
        }
    }

    /// The answer to a narrowed or listing request at `version`: the refused parts answered
    /// with Kafka's error response of their API, merged in, and listings without what the
    /// caller may not DESCRIBE.
    pub fn finish(&self, response: ResponseBody, denied: &[Denied], version: i16) -> ResponseBody {
        if self.acls.is_none() {
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

/// The rules of the APIs that are not judged by one cluster operation, named in the
/// descriptor table ([`crate::api::APIS`]).
pub(crate) mod rules {
    use super::*;
    use ErrorCode::{
        ClusterAuthorizationFailed as ClusterCode, GroupAuthorizationFailed as GroupCode,
        TopicAuthorizationFailed as TopicCode,
    };

    /// Moves the entities of `$r.$field` that `$ok` refuses into a request of their own,
    /// refused with `$code`.
    macro_rules! refuse {
        ($denied:ident, $variant:ident, $r:ident, $field:ident, $code:expr, $ok:expr) => {{
            let refused = split(&mut $r.$field, $ok);
            if !refused.is_empty() {
                let mut part = $r.clone();
                part.$field = refused;
                $denied.push(Denied {
                    part: RequestBody::$variant(part),
                    code: $code,
                });
            }
        }};
    }

    /// Narrows one collection of a request: the entities `ok` refuses are answered with
    /// `code`.
    macro_rules! narrow_rule {
        ($(#[$doc:meta])* $name:ident, $variant:ident, $field:ident, $code:expr, |$a:ident, $x:ident| $ok:expr) => {
            $(#[$doc])*
            pub(crate) fn $name(a: &Access<'_>, _: Listener, body: RequestBody, _: i16) -> Gate {
                let RequestBody::$variant(mut r) = body else {
                    return Gate::Open(body);
                };
                let mut denied = Vec::new();
                let $a = a;
                refuse!(denied, $variant, r, $field, $code, |$x| $ok);
                partial(RequestBody::$variant(r), denied)
            }
        };
    }

    /// The answer of a narrowing rule: open when nothing was refused.
    fn partial(body: RequestBody, denied: Vec<Denied>) -> Gate {
        if denied.is_empty() {
            Gate::Open(body)
        } else {
            Gate::Partial(body, denied)
        }
    }

    /// Produce: WRITE on the transactional id if it has one (refused whole), then WRITE on
    /// each topic.
    pub(crate) fn produce(a: &Access<'_>, _: Listener, body: RequestBody, v: i16) -> Gate {
        let RequestBody::Produce(mut r) = body else {
            return Gate::Open(body);
        };
        if let Some(id) = &r.transactional_id {
            if !a.allows(Op::Write, Kind::TransactionalId, id) {
                return a.deny(
                    RequestBody::Produce(r),
                    v,
                    ErrorCode::TransactionalIdAuthorizationFailed,
                    "WRITE on the transactional id",
                );
            }
        }
        let mut denied = Vec::new();
        refuse!(denied, Produce, r, topic_data, TopicCode, |t| a
            .topic(Op::Write, &a.name_or(&t.name, &t.topic_id)));
        partial(RequestBody::Produce(r), denied)
    }

    /// AddPartitionsToTxn: from a broker (v4+), CLUSTER_ACTION; from a producer, WRITE on
    /// the transactional id and on every topic (refused whole, as Kafka answers it).
    pub(crate) fn add_partitions_to_txn(
        a: &Access<'_>,
        _: Listener,
        body: RequestBody,
        v: i16,
    ) -> Gate {
        let RequestBody::AddPartitionsToTxn(r) = &body else {
            return Gate::Open(body);
        };
        if v >= 4 {
            let ok = a.cluster(Op::ClusterAction);
            return a.unless(ok, body, v, ClusterCode, "CLUSTER_ACTION on the cluster");
        }
        if !a.allows(
            Op::Write,
            Kind::TransactionalId,
            &r.v3_and_below_transactional_id,
        ) {
            return a.deny(
                body,
                v,
                ErrorCode::TransactionalIdAuthorizationFailed,
                "WRITE on the transactional id",
            );
        }
        let ok = r
            .v3_and_below_topics
            .iter()
            .all(|t| a.topic(Op::Write, &t.name));
        a.unless(ok, body, v, TopicCode, "WRITE on the topics")
    }

    /// AddOffsetsToTxn, EndTxn, TxnOffsetCommit: WRITE on the transactional id; READ on the
    /// group for the two that name one; for TxnOffsetCommit, READ on each topic (by name, or
    /// by id from v6), the others refused partition by partition.
    pub(crate) fn transaction(a: &Access<'_>, _: Listener, body: RequestBody, v: i16) -> Gate {
        let (id, group) = match &body {
            RequestBody::AddOffsetsToTxn(r) => (&r.transactional_id, Some(&r.group_id)),
            RequestBody::EndTxn(r) => (&r.transactional_id, None),
            RequestBody::TxnOffsetCommit(r) => (&r.transactional_id, Some(&r.group_id)),
            _ => return Gate::Open(body),
        };
        if !a.allows(Op::Write, Kind::TransactionalId, id) {
            return a.deny(
                body,
                v,
                ErrorCode::TransactionalIdAuthorizationFailed,
                "WRITE on the transactional id",
            );
        }
        let ok = group.is_none_or(|g| a.group(Op::Read, g));
        let RequestBody::TxnOffsetCommit(mut r) = body else {
            return a.unless(ok, body, v, GroupCode, "READ on the group");
        };
        if !ok {
            return a.deny(
                RequestBody::TxnOffsetCommit(r),
                v,
                GroupCode,
                "READ on the group",
            );
        }
        let mut denied = Vec::new();
        refuse!(denied, TxnOffsetCommit, r, topics, TopicCode, |t| {
            a.topic(Op::Read, &a.name_or(&t.name, &t.topic_id))
        });
        partial(RequestBody::TxnOffsetCommit(r), denied)
    }

    /// DescribeTransactions: DESCRIBE on each transactional id.
    pub(crate) fn describe_transactions(
        a: &Access<'_>,
        _: Listener,
        body: RequestBody,
        v: i16,
    ) -> Gate {
        let RequestBody::DescribeTransactions(r) = &body else {
            return Gate::Open(body);
        };
        let ok = r
            .transactional_ids
            .iter()
            .all(|id| a.allows(Op::Describe, Kind::TransactionalId, id));
        a.unless(
            ok,
            body,
            v,
            ErrorCode::TransactionalIdAuthorizationFailed,
            "DESCRIBE on the transactional ids",
        )
    }
    narrow_rule!(
        /// ListOffsets: DESCRIBE on each topic.
        list_offsets, ListOffsets, topics, TopicCode,
        |a, t| a.topic(Op::Describe, &t.name)
    );
    narrow_rule!(
        /// DescribeGroups: DESCRIBE on each group.
        describe_groups, DescribeGroups, groups, GroupCode,
        |a, g| a.group(Op::Describe, g)
    );
    narrow_rule!(
        /// ConsumerGroupDescribe: DESCRIBE on each group.
        consumer_group_describe, ConsumerGroupDescribe, group_ids, GroupCode,
        |a, g| a.group(Op::Describe, g)
    );
    narrow_rule!(
        /// ShareGroupDescribe: DESCRIBE on each group.
        share_group_describe, ShareGroupDescribe, group_ids, GroupCode,
        |a, g| a.group(Op::Describe, g)
    );
    narrow_rule!(
        /// StreamsGroupDescribe: DESCRIBE on each group.
        streams_group_describe, StreamsGroupDescribe, group_ids, GroupCode,
        |a, g| a.group(Op::Describe, g)
    );
    narrow_rule!(
        /// DeleteGroups: DELETE on each group.
        delete_groups, DeleteGroups, groups_names, GroupCode,
        |a, g| a.group(Op::Delete, g)
    );
    narrow_rule!(
        /// CreatePartitions: ALTER on each topic.
        create_partitions, CreatePartitions, topics, TopicCode,
        |a, t| a.topic(Op::Alter, &t.name)
    );
    narrow_rule!(
        /// DeleteRecords: DELETE on each topic.
        delete_records, DeleteRecords, topics, TopicCode,
        |a, t| a.topic(Op::Delete, &t.name)
    );
    narrow_rule!(
        /// DescribeTopicPartitions: DESCRIBE on each named topic (a listing, with no names,
        /// leaves out what the caller may not see in [`Access::finish`]).
        describe_topic_partitions, DescribeTopicPartitions, topics, TopicCode,
        |a, t| a.topic(Op::Describe, &t.name)
    );

    /// Fetch: CLUSTER_ACTION from a replica (refused whole), READ on each topic from a
    /// consumer.
    pub(crate) fn fetch(a: &Access<'_>, _: Listener, body: RequestBody, version: i16) -> Gate {
        let RequestBody::Fetch(mut r) = body else {
            return Gate::Open(body);
        };
        if r.replica_id >= 0 || r.replica_state.replica_id >= 0 {
            if a.cluster(Op::ClusterAction) {
                return Gate::Open(RequestBody::Fetch(r));
            }
            return Gate::Deny(fjord_protocol::error_response(
                &RequestBody::Fetch(r),
                version,
                TopicCode,
                "fetching as a replica needs CLUSTER_ACTION on the cluster",
            ));
        }
        let mut denied = Vec::new();
        refuse!(denied, Fetch, r, topics, TopicCode, |t| {
            a.topic(Op::Read, &a.name_or(&t.topic, &t.topic_id))
        });
        partial(RequestBody::Fetch(r), denied)
    }

    /// Metadata: DESCRIBE on each named topic; auto-creation only with CREATE on the
    /// cluster or on every named topic.
    pub(crate) fn metadata(a: &Access<'_>, _: Listener, body: RequestBody, _: i16) -> Gate {
        let RequestBody::Metadata(mut r) = body else {
            return Gate::Open(body);
        };
        let mut denied = Vec::new();
        if let Some(mut topics) = r.topics.take() {
            let refused = split(&mut topics, |t| {
                let name = t.name.clone().unwrap_or_else(|| a.topic_name(&t.topic_id));
                a.topic(Op::Describe, &name)
            });
            if !refused.is_empty() {
                let mut part = r.clone();
                part.topics = Some(refused);
                denied.push(Denied {
                    part: RequestBody::Metadata(part),
                    code: TopicCode,
                });
            }
            // Kafka creates a missing topic only with CREATE on it or the cluster.
            if r.allow_auto_topic_creation
                && !a.cluster(Op::Create)
                && !topics
                    .iter()
                    .all(|t| t.name.as_deref().is_some_and(|n| a.topic(Op::Create, n)))
            {
                r.allow_auto_topic_creation = false;
            }
            r.topics = Some(topics);
        }
        partial(RequestBody::Metadata(r), denied)
    }

    /// The config APIs: `op` on each topic resource (TOPIC_AUTHORIZATION_FAILED), on each
    /// group resource (GROUP_AUTHORIZATION_FAILED) and on the cluster for the other types
    /// (CLUSTER_AUTHORIZATION_FAILED), as Kafka's `configsAuthorizationApiError`.
    macro_rules! config_rule {
        ($(#[$doc:meta])* $name:ident, $variant:ident, $op:expr) => {
            $(#[$doc])*
            pub(crate) fn $name(a: &Access<'_>, _: Listener, body: RequestBody, _: i16) -> Gate {
                let RequestBody::$variant(mut r) = body else {
                    return Gate::Open(body);
                };
                let mut denied = Vec::new();
                refuse!(denied, $variant, r, resources, TopicCode, |c| {
                    c.resource_type != CONFIG_TOPIC || a.topic($op, &c.resource_name)
                });
                refuse!(denied, $variant, r, resources, GroupCode, |c| {
                    c.resource_type != CONFIG_GROUP || a.group($op, &c.resource_name)
                });
                refuse!(denied, $variant, r, resources, ClusterCode, |c| {
                    c.resource_type == CONFIG_TOPIC
                        || c.resource_type == CONFIG_GROUP
                        || a.cluster($op)
                });
                partial(RequestBody::$variant(r), denied)
            }
        };
    }

    config_rule!(
        /// DescribeConfigs: DESCRIBE_CONFIGS.
        describe_configs, DescribeConfigs, Op::DescribeConfigs
    );
    config_rule!(
        /// IncrementalAlterConfigs: ALTER_CONFIGS.
        incremental_alter_configs, IncrementalAlterConfigs, Op::AlterConfigs
    );
    config_rule!(
        /// AlterConfigs: ALTER_CONFIGS.
        alter_configs, AlterConfigs, Op::AlterConfigs
    );

    /// CreateTopics: CREATE on the cluster, or else on each topic.
    pub(crate) fn create_topics(a: &Access<'_>, _: Listener, body: RequestBody, _: i16) -> Gate {
        let RequestBody::CreateTopics(mut r) = body else {
            return Gate::Open(body);
        };
        let mut denied = Vec::new();
        if !a.cluster(Op::Create) {
            refuse!(denied, CreateTopics, r, topics, TopicCode, |t| a
                .topic(Op::Create, &t.name));
        }
        partial(RequestBody::CreateTopics(r), denied)
    }

    /// DeleteTopics: DELETE on each topic, named or by id (an id no topic has is left for
    /// the controller's UNKNOWN_TOPIC_ID).
    pub(crate) fn delete_topics(a: &Access<'_>, _: Listener, body: RequestBody, _: i16) -> Gate {
        let RequestBody::DeleteTopics(mut r) = body else {
            return Gate::Open(body);
        };
        let mut denied = Vec::new();
        refuse!(denied, DeleteTopics, r, topic_names, TopicCode, |n| a
            .topic(Op::Delete, n));
        refuse!(denied, DeleteTopics, r, topics, TopicCode, |t| {
            let name = t.name.clone().unwrap_or_else(|| a.topic_name(&t.topic_id));
            name.is_empty() || a.topic(Op::Delete, &name)
        });
        partial(RequestBody::DeleteTopics(r), denied)
    }

    /// OffsetCommit: READ on the group (refused whole), then READ on each topic.
    pub(crate) fn offset_commit(a: &Access<'_>, _: Listener, body: RequestBody, v: i16) -> Gate {
        let RequestBody::OffsetCommit(mut r) = body else {
            return Gate::Open(body);
        };
        if !a.group(Op::Read, &r.group_id) {
            return a.deny(
                RequestBody::OffsetCommit(r),
                v,
                GroupCode,
                "READ on the group",
            );
        }
        let mut denied = Vec::new();
        refuse!(denied, OffsetCommit, r, topics, TopicCode, |t| {
            a.topic(Op::Read, &a.name_or(&t.name, &t.topic_id))
        });
        partial(RequestBody::OffsetCommit(r), denied)
    }

    /// OffsetDelete: DELETE on the group (refused whole), then READ on each topic.
    pub(crate) fn offset_delete(a: &Access<'_>, _: Listener, body: RequestBody, v: i16) -> Gate {
        let RequestBody::OffsetDelete(mut r) = body else {
            return Gate::Open(body);
        };
        if !a.group(Op::Delete, &r.group_id) {
            return a.deny(
                RequestBody::OffsetDelete(r),
                v,
                GroupCode,
                "DELETE on the group",
            );
        }
        let mut denied = Vec::new();
        refuse!(denied, OffsetDelete, r, topics, TopicCode, |t| a
            .topic(Op::Read, &t.name));
        partial(RequestBody::OffsetDelete(r), denied)
    }

    /// JoinGroup, SyncGroup, Heartbeat, LeaveGroup: READ on the group.
    pub(crate) fn group_member(a: &Access<'_>, _: Listener, body: RequestBody, v: i16) -> Gate {
        let group = match &body {
            RequestBody::JoinGroup(r) => &r.group_id,
            RequestBody::SyncGroup(r) => &r.group_id,
            RequestBody::Heartbeat(r) => &r.group_id,
            RequestBody::LeaveGroup(r) => &r.group_id,
            _ => return Gate::Open(body),
        };
        let ok = a.group(Op::Read, group);
        a.unless(ok, body, v, GroupCode, "READ on the group")
    }

    /// ConsumerGroupHeartbeat: READ on the group, then DESCRIBE on every subscribed topic
    /// named (Kafka's `handleConsumerGroupHeartbeat`).
    pub(crate) fn consumer_group_heartbeat(
        a: &Access<'_>,
        _: Listener,
        body: RequestBody,
        v: i16,
    ) -> Gate {
        let RequestBody::ConsumerGroupHeartbeat(r) = &body else {
            return Gate::Open(body);
        };
        if !a.group(Op::Read, &r.group_id) {
            return a.deny(body, v, GroupCode, "READ on the group");
        }
        let ok = r
            .subscribed_topic_names
            .iter()
            .flatten()
            .all(|t| a.topic(Op::Describe, t));
        a.unless(ok, body, v, TopicCode, "DESCRIBE on the subscribed topics")
    }

    /// ShareGroupHeartbeat: READ on the group, then DESCRIBE on every subscribed topic named
    /// (Kafka's `handleShareGroupHeartbeatRequest`).
    pub(crate) fn share_group_heartbeat(
        a: &Access<'_>,
        _: Listener,
        body: RequestBody,
        v: i16,
    ) -> Gate {
        let RequestBody::ShareGroupHeartbeat(r) = &body else {
            return Gate::Open(body);
        };
        if !a.group(Op::Read, &r.group_id) {
            return a.deny(body, v, GroupCode, "READ on the group");
        }
        let ok = r
            .subscribed_topic_names
            .iter()
            .flatten()
            .all(|t| a.topic(Op::Describe, t));
        a.unless(ok, body, v, TopicCode, "DESCRIBE on the subscribed topics")
    }

    /// StreamsGroupHeartbeat: READ on the group, then DESCRIBE on every topic a joining
    /// member's topology names (sources, repartition and changelog topics; Kafka's
    /// `handleStreamsGroupHeartbeatRequest`).
    pub(crate) fn streams_group_heartbeat(
        a: &Access<'_>,
        _: Listener,
        body: RequestBody,
        v: i16,
    ) -> Gate {
        let RequestBody::StreamsGroupHeartbeat(r) = &body else {
            return Gate::Open(body);
        };
        if !a.group(Op::Read, &r.group_id) {
            return a.deny(body, v, GroupCode, "READ on the group");
        }
        let ok = r.topology.iter().flat_map(|t| &t.subtopologies).all(|s| {
            s.source_topics
                .iter()
                .chain(&s.repartition_sink_topics)
                .chain(s.repartition_source_topics.iter().map(|t| &t.name))
                .chain(s.state_changelog_topics.iter().map(|t| &t.name))
                .all(|t| a.topic(Op::Describe, t))
        });
        a.unless(ok, body, v, TopicCode, "DESCRIBE on the topology's topics")
    }

    /// StreamsGroupTopologyDescriptionUpdate: READ on the group.
    pub(crate) fn streams_group_topology_update(
        a: &Access<'_>,
        _: Listener,
        body: RequestBody,
        v: i16,
    ) -> Gate {
        let RequestBody::StreamsGroupTopologyDescriptionUpdate(r) = &body else {
            return Gate::Open(body);
        };
        let ok = a.group(Op::Read, &r.group_id);
        a.unless(ok, body, v, GroupCode, "READ on the group")
    }

    /// ShareFetch and ShareAcknowledge: READ on the group (READ on each topic is judged by
    /// the handler, which knows the topics' names).
    pub(crate) fn share_member(a: &Access<'_>, _: Listener, body: RequestBody, v: i16) -> Gate {
        let group = match &body {
            RequestBody::ShareFetch(r) => r.group_id.as_deref(),
            RequestBody::ShareAcknowledge(r) => r.group_id.as_deref(),
            _ => return Gate::Open(body),
        };
        let ok = a.group(Op::Read, group.unwrap_or(""));
        a.unless(ok, body, v, GroupCode, "READ on the group")
    }

    /// DescribeShareGroupOffsets: DESCRIBE on every group, and on every topic named.
    pub(crate) fn describe_share_group_offsets(
        a: &Access<'_>,
        _: Listener,
        body: RequestBody,
        v: i16,
    ) -> Gate {
        let RequestBody::DescribeShareGroupOffsets(r) = &body else {
            return Gate::Open(body);
        };
        if !r.groups.iter().all(|g| a.group(Op::Describe, &g.group_id)) {
            return a.deny(body, v, GroupCode, "DESCRIBE on the group");
        }
        let ok = r
            .groups
            .iter()
            .flat_map(|g| g.topics.iter().flatten())
            .all(|t| a.topic(Op::Describe, &t.topic_name));
        a.unless(ok, body, v, TopicCode, "DESCRIBE on the topics")
    }

    /// AlterShareGroupOffsets (READ on the group) and DeleteShareGroupOffsets (DELETE on the
    /// group), each with READ on every topic named.
    pub(crate) fn change_share_group_offsets(
        a: &Access<'_>,
        _: Listener,
        body: RequestBody,
        v: i16,
    ) -> Gate {
        let (group_ok, topics): (bool, Vec<&str>) = match &body {
            RequestBody::AlterShareGroupOffsets(r) => (
                a.group(Op::Read, &r.group_id),
                r.topics.iter().map(|t| t.topic_name.as_str()).collect(),
            ),
            RequestBody::DeleteShareGroupOffsets(r) => (
                a.group(Op::Delete, &r.group_id),
                r.topics.iter().map(|t| t.topic_name.as_str()).collect(),
            ),
            _ => return Gate::Open(body),
        };
        if !group_ok {
            return a.deny(body, v, GroupCode, "access to the group");
        }
        let ok = topics.iter().all(|t| a.topic(Op::Read, t));
        a.unless(ok, body, v, TopicCode, "READ on the topics")
    }

    /// OffsetFetch: DESCRIBE on every group asked about.
    pub(crate) fn offset_fetch(a: &Access<'_>, _: Listener, body: RequestBody, v: i16) -> Gate {
        let RequestBody::OffsetFetch(r) = &body else {
            return Gate::Open(body);
        };
        let mut groups: Vec<&str> = r.groups.iter().map(|g| g.group_id.as_str()).collect();
        if groups.is_empty() {
            groups.push(&r.group_id);
        }
        let ok = groups.iter().all(|g| a.group(Op::Describe, g));
        a.unless(ok, body, v, GroupCode, "DESCRIBE on the group")
    }

    /// FindCoordinator: DESCRIBE on every key (a group, or a transactional id).
    pub(crate) fn find_coordinator(a: &Access<'_>, _: Listener, body: RequestBody, v: i16) -> Gate {
        let RequestBody::FindCoordinator(r) = &body else {
            return Gate::Open(body);
        };
        let mut keys: Vec<&str> = r.coordinator_keys.iter().map(String::as_str).collect();
        if keys.is_empty() {
            keys.push(&r.key);
        }
        // A share-partition's coordinator is looked for by brokers only (KIP-932).
        if r.key_type == 2 {
            let ok = a.cluster(Op::ClusterAction);
            return a.unless(
                ok,
                body,
                v,
                ErrorCode::ClusterAuthorizationFailed,
                "CLUSTER_ACTION on the cluster",
            );
        }
        let (kind, code) = if r.key_type == 1 {
            (
                Kind::TransactionalId,
                ErrorCode::TransactionalIdAuthorizationFailed,
            )
        } else {
            (Kind::Group, GroupCode)
        };
        let ok = keys.iter().all(|k| a.allows(Op::Describe, kind, k));
        a.unless(ok, body, v, code, "DESCRIBE on the coordinator key")
    }

    /// OffsetForLeaderEpoch: CLUSTER_ACTION from a replica, DESCRIBE on every topic from a
    /// client.
    pub(crate) fn offset_for_leader_epoch(
        a: &Access<'_>,
        _: Listener,
        body: RequestBody,
        v: i16,
    ) -> Gate {
        let RequestBody::OffsetForLeaderEpoch(r) = &body else {
            return Gate::Open(body);
        };
        let ok = if r.replica_id >= 0 {
            a.cluster(Op::ClusterAction)
        } else {
            r.topics.iter().all(|t| a.topic(Op::Describe, &t.topic))
        };
        a.unless(ok, body, v, TopicCode, "DESCRIBE on the topics")
    }

    /// DescribeProducers: READ on every topic.
    pub(crate) fn describe_producers(
        a: &Access<'_>,
        _: Listener,
        body: RequestBody,
        v: i16,
    ) -> Gate {
        let RequestBody::DescribeProducers(r) = &body else {
            return Gate::Open(body);
        };
        let ok = r.topics.iter().all(|t| a.topic(Op::Read, &t.name));
        a.unless(ok, body, v, TopicCode, "READ on the topics")
    }

    /// InitProducerId: WRITE on the transactional id; without one, IDEMPOTENT_WRITE on the
    /// cluster or WRITE on some topic.
    pub(crate) fn init_producer_id(a: &Access<'_>, _: Listener, body: RequestBody, v: i16) -> Gate {
        let RequestBody::InitProducerId(r) = &body else {
            return Gate::Open(body);
        };
        match &r.transactional_id {
            Some(id) => {
                let ok = a.allows(Op::Write, Kind::TransactionalId, id);
                a.unless(
                    ok,
                    body,
                    v,
                    ErrorCode::TransactionalIdAuthorizationFailed,
                    "WRITE on the transactional id",
                )
            }
            None => {
                let ok = a.cluster(Op::IdempotentWrite) || a.any_topic(Op::Write);
                a.unless(
                    ok,
                    body,
                    v,
                    ClusterCode,
                    "IDEMPOTENT_WRITE on the cluster or WRITE on a topic",
                )
            }
        }
    }

    /// ElectLeaders: CLUSTER_ACTION on the cluster for a DESIGNATED election, else ALTER.
    pub(crate) fn elect_leaders(a: &Access<'_>, _: Listener, body: RequestBody, v: i16) -> Gate {
        let RequestBody::ElectLeaders(r) = &body else {
            return Gate::Open(body);
        };
        let (op, needs) = if r.election_type == DESIGNATED {
            (Op::ClusterAction, "CLUSTER_ACTION on the cluster")
        } else {
            (Op::Alter, "ALTER on the cluster")
        };
        let ok = a.cluster(op);
        a.unless(ok, body, v, ClusterCode, needs)
    }

    /// DescribeCluster: nothing on a broker (as Metadata); ALTER on the cluster on a
    /// controller (Kafka's ControllerApis).
    pub(crate) fn describe_cluster(
        a: &Access<'_>,
        listener: Listener,
        body: RequestBody,
        version: i16,
    ) -> Gate {
        if listener == Listener::Broker || a.cluster(Op::Alter) {
            return Gate::Open(body);
        }
        Gate::Deny(fjord_protocol::error_response(
            &body,
            version,
            ClusterCode,
            "DescribeCluster on a controller needs ALTER on the cluster",
        ))
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
        (R::ShareGroupDescribe(a), R::ShareGroupDescribe(b)) => a.groups.extend(b.groups),
        (R::DeleteGroups(a), R::DeleteGroups(b)) => a.results.extend(b.results),
        (R::CreateTopics(a), R::CreateTopics(b)) => a.topics.extend(b.topics),
        (R::DeleteTopics(a), R::DeleteTopics(b)) => a.responses.extend(b.responses),
        (R::CreatePartitions(a), R::CreatePartitions(b)) => a.results.extend(b.results),
        (R::DeleteRecords(a), R::DeleteRecords(b)) => a.topics.extend(b.topics),
        (R::OffsetCommit(a), R::OffsetCommit(b)) => a.topics.extend(b.topics),
        (R::TxnOffsetCommit(a), R::TxnOffsetCommit(b)) => a.topics.extend(b.topics),
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
