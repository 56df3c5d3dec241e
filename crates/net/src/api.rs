//! The per-API descriptor: for every API key a node serves, the versions each listener
//! serves (a subset of the spec's `listeners`, checked by a test), how a broker routes it
//! (answered by the listener itself, by the node, or forwarded to the active controller in an
//! Envelope) and its authorization rule. Its error response is generated from the specs
//! ([`fjord_protocol::error_response`]). Both listeners admit, advertise, authorize and route
//! from this one table ([`crate::pipeline`]); adding an API is one entry here and one handler.

use crate::authorize::{rules, Access, Gate};
use fjord_protocol::acl::AclOperation as Op;
use fjord_protocol::{ApiKey, RequestBody};
use std::sync::LazyLock;

/// The kinds of listener a node serves requests on.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Listener {
    /// A client-facing broker listener (`listeners` minus the controller listener names).
    Broker,
    /// A controller listener (`controller.listener.names`).
    Controller,
}

impl Listener {
    /// The name the specs' `listeners` use for it.
    pub fn spec_name(self) -> &'static str {
        match self {
            Listener::Broker => "broker",
            Listener::Controller => "controller",
        }
    }
}

/// Where a request is answered.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Route {
    /// By the serving layer itself (ApiVersions, SASL).
    Listener,
    /// By the node that receives it.
    Node,
    /// By the active controller: a broker forwards it in an Envelope (KIP-590) with the
    /// caller's principal and address.
    Controller,
}

/// What a request needs the caller to be allowed.
#[derive(Clone, Copy)]
pub enum Rule {
    /// Nothing (what the caller sees may still be narrowed by
    /// [`Access::finish`](crate::authorize::Access::finish)).
    Open,
    /// This operation on the cluster, else the whole request is refused with
    /// CLUSTER_AUTHORIZATION_FAILED.
    Cluster(Op),
    /// Judged by this function: let through, refused whole, or narrowed entity by entity.
    By(fn(&Access<'_>, Listener, RequestBody, i16) -> Gate),
}

impl std::fmt::Debug for Rule {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Rule::Open => f.write_str("Open"),
            Rule::Cluster(op) => write!(f, "Cluster({})", op.name()),
            Rule::By(_) => f.write_str("By(..)"),
        }
    }
}

/// One API's entry.
#[derive(Debug, Clone, Copy)]
pub struct Api {
    /// The API.
    pub key: ApiKey,
    /// The versions broker listeners serve and advertise, lowest and highest.
    pub broker: Option<(i16, i16)>,
    /// The versions controller listeners serve and advertise.
    pub controller: Option<(i16, i16)>,
    /// Where a broker listener's request is answered (a controller answers what it serves).
    pub route: Route,
    /// What the caller must be allowed.
    pub rule: Rule,
}

impl Api {
    /// The versions `listener` serves.
    pub fn versions(&self, listener: Listener) -> Option<(i16, i16)> {
        match listener {
            Listener::Broker => self.broker,
            Listener::Controller => self.controller,
        }
    }

    /// Whether `listener` serves `version`.
    pub fn serves(&self, listener: Listener, version: i16) -> bool {
        self.versions(listener)
            .is_some_and(|(min, max)| (min..=max).contains(&version))
    }
}

/// Versions served on one kind of listener only.
const NONE: Option<(i16, i16)> = None;

/// An entry.
const fn api(
    key: ApiKey,
    broker: Option<(i16, i16)>,
    controller: Option<(i16, i16)>,
    route: Route,
    rule: Rule,
) -> Api {
    Api {
        key,
        broker,
        controller,
        route,
        rule,
    }
}

/// A version range.
const fn v(min: i16, max: i16) -> Option<(i16, i16)> {
    Some((min, max))
}

use Route::{Controller as Forwarded, Listener as ByListener, Node as Local};
use Rule::{By, Cluster, Open};

/// Every API a node serves, in key order.
pub const APIS: &[Api] = &[
    api(ApiKey::Produce, v(3, 13), NONE, Local, By(rules::produce)),
    // v18: a replica's known high watermark answers its fetch at once while the leader's is
    // ahead (KIP-1166: `fjord_broker::fetch`, and the metadata log's leader in
    // `fjord_kraft`'s event loop). The controller listener serves the metadata log's Fetch
    // (KIP-595 uses v13+).
    api(ApiKey::Fetch, v(4, 18), v(13, 18), Local, By(rules::fetch)),
    api(
        ApiKey::ListOffsets,
        v(1, ApiKey::ListOffsets.max_version()),
        NONE,
        Local,
        By(rules::list_offsets),
    ),
    api(ApiKey::Metadata, v(0, 13), NONE, Local, By(rules::metadata)),
    // v10 names topics by id (resolved by the broker: `fjord_broker::offset_topic_ids`).
    api(
        ApiKey::OffsetCommit,
        v(2, 10),
        NONE,
        Local,
        By(rules::offset_commit),
    ),
    api(
        ApiKey::OffsetFetch,
        v(1, 10),
        NONE,
        Local,
        By(rules::offset_fetch),
    ),
    api(
        ApiKey::FindCoordinator,
        v(0, 6),
        NONE,
        Local,
        By(rules::find_coordinator),
    ),
    api(
        ApiKey::JoinGroup,
        v(0, 9),
        NONE,
        Local,
        By(rules::group_member),
    ),
    api(
        ApiKey::Heartbeat,
        v(0, 4),
        NONE,
        Local,
        By(rules::group_member),
    ),
    api(
        ApiKey::LeaveGroup,
        v(0, 5),
        NONE,
        Local,
        By(rules::group_member),
    ),
    api(
        ApiKey::SyncGroup,
        v(0, 5),
        NONE,
        Local,
        By(rules::group_member),
    ),
    api(
        ApiKey::DescribeGroups,
        v(0, 6),
        NONE,
        Local,
        By(rules::describe_groups),
    ),
    api(ApiKey::ListGroups, v(0, 5), NONE, Local, Open),
    // Answered by the listener (ILLEGAL_SASL_STATE on a listener without SASL).
    api(ApiKey::SaslHandshake, v(1, 1), v(1, 1), ByListener, Open),
    api(ApiKey::ApiVersions, v(0, 5), v(0, 5), ByListener, Open),
    api(
        ApiKey::CreateTopics,
        v(2, 7),
        v(2, 7),
        Forwarded,
        By(rules::create_topics),
    ),
    api(
        ApiKey::DeleteTopics,
        v(1, 6),
        v(1, 6),
        Forwarded,
        By(rules::delete_topics),
    ),
    api(
        ApiKey::DeleteRecords,
        v(0, 2),
        NONE,
        Local,
        By(rules::delete_records),
    ),
    // v6 carries two-phase-commit transactions.
    api(
        ApiKey::InitProducerId,
        v(0, 5),
        NONE,
        Local,
        By(rules::init_producer_id),
    ),
    api(
        ApiKey::OffsetForLeaderEpoch,
        v(2, 4),
        NONE,
        Local,
        By(rules::offset_for_leader_epoch),
    ),
    // v4+ are brokers' (batched; VerifyOnly); v5 knows TRANSACTION_ABORTABLE, and an add at
    // v5 is for a transaction version 2 producer.
    api(
        ApiKey::AddPartitionsToTxn,
        v(0, 5),
        NONE,
        Local,
        By(rules::add_partitions_to_txn),
    ),
    api(
        ApiKey::AddOffsetsToTxn,
        v(0, 4),
        NONE,
        Local,
        By(rules::transaction),
    ),
    // v5 is transaction version 2: the epoch is bumped at every end, and the answer carries
    // the producer id and epoch.
    api(ApiKey::EndTxn, v(0, 5), NONE, Local, By(rules::transaction)),
    api(
        ApiKey::WriteTxnMarkers,
        v(1, 2),
        NONE,
        Local,
        Cluster(Op::ClusterAction),
    ),
    // v5 is a transaction version 2 producer's: the broker adds the group's partition.
    api(
        ApiKey::TxnOffsetCommit,
        v(0, 6),
        NONE,
        Local,
        By(rules::transaction),
    ),
    api(
        ApiKey::DescribeAcls,
        v(1, 3),
        v(1, 3),
        Local,
        Cluster(Op::Describe),
    ),
    api(
        ApiKey::CreateAcls,
        v(1, 3),
        v(1, 3),
        Forwarded,
        Cluster(Op::Alter),
    ),
    api(
        ApiKey::DeleteAcls,
        v(1, 3),
        v(1, 3),
        Forwarded,
        Cluster(Op::Alter),
    ),
    api(
        ApiKey::DescribeConfigs,
        v(1, 4),
        v(1, 4),
        Local,
        By(rules::describe_configs),
    ),
    api(
        ApiKey::AlterConfigs,
        v(0, 2),
        v(0, 2),
        Forwarded,
        By(rules::alter_configs),
    ),
    api(
        ApiKey::AlterReplicaLogDirs,
        v(1, 2),
        NONE,
        Local,
        Cluster(Op::Alter),
    ),
    api(
        ApiKey::DescribeLogDirs,
        v(1, 5),
        NONE,
        Local,
        Cluster(Op::Describe),
    ),
    api(ApiKey::SaslAuthenticate, v(0, 2), v(0, 2), ByListener, Open),
    api(
        ApiKey::CreatePartitions,
        v(0, 3),
        v(0, 3),
        Forwarded,
        By(rules::create_partitions),
    ),
    // Delegation tokens (KIP-48): the handlers check what Kafka's do (the channel, the
    // token-authenticated principal, CREATE_TOKENS and DESCRIBE_TOKENS on the owner,
    // DESCRIBE on a token) before a broker forwards create, renew and expire.
    api(ApiKey::CreateDelegationToken, v(1, 3), v(1, 3), Local, Open),
    api(ApiKey::RenewDelegationToken, v(1, 2), v(1, 2), Local, Open),
    api(ApiKey::ExpireDelegationToken, v(1, 2), v(1, 2), Local, Open),
    api(ApiKey::DescribeDelegationToken, v(1, 3), NONE, Local, Open),
    api(
        ApiKey::DeleteGroups,
        v(0, 3),
        NONE,
        Local,
        By(rules::delete_groups),
    ),
    api(
        ApiKey::ElectLeaders,
        v(0, 3),
        v(0, 3),
        Forwarded,
        By(rules::elect_leaders),
    ),
    api(
        ApiKey::IncrementalAlterConfigs,
        v(0, 1),
        v(0, 1),
        Forwarded,
        By(rules::incremental_alter_configs),
    ),
    // KIP-455: the controller records each reassignment; brokers follow the image.
    api(
        ApiKey::AlterPartitionReassignments,
        v(0, 1),
        v(0, 1),
        Forwarded,
        Cluster(Op::Alter),
    ),
    api(
        ApiKey::ListPartitionReassignments,
        v(0, 0),
        v(0, 0),
        Forwarded,
        Cluster(Op::Describe),
    ),
    api(
        ApiKey::OffsetDelete,
        v(0, 0),
        NONE,
        Local,
        By(rules::offset_delete),
    ),
    // KIP-546: quotas are read from the image on any broker, written by the controller.
    api(
        ApiKey::DescribeClientQuotas,
        v(0, 1),
        NONE,
        Local,
        Cluster(Op::DescribeConfigs),
    ),
    api(
        ApiKey::AlterClientQuotas,
        v(0, 1),
        v(0, 1),
        Forwarded,
        Cluster(Op::AlterConfigs),
    ),
    api(
        ApiKey::DescribeUserScramCredentials,
        v(0, 0),
        NONE,
        Local,
        Cluster(Op::Describe),
    ),
    api(
        ApiKey::AlterUserScramCredentials,
        v(0, 0),
        v(0, 0),
        Forwarded,
        Cluster(Op::Alter),
    ),
    // Between nodes: only principals with CLUSTER_ACTION (brokers, controllers).
    api(
        ApiKey::Vote,
        NONE,
        v(0, 2),
        Local,
        Cluster(Op::ClusterAction),
    ),
    api(
        ApiKey::BeginQuorumEpoch,
        NONE,
        v(0, 1),
        Local,
        Cluster(Op::ClusterAction),
    ),
    api(
        ApiKey::EndQuorumEpoch,
        NONE,
        v(0, 1),
        Local,
        Cluster(Op::ClusterAction),
    ),
    api(
        ApiKey::DescribeQuorum,
        v(0, 2),
        v(0, 2),
        Forwarded,
        Cluster(Op::Describe),
    ),
    api(
        ApiKey::AlterPartition,
        NONE,
        v(2, 3),
        Local,
        Cluster(Op::ClusterAction),
    ),
    api(
        ApiKey::UpdateFeatures,
        v(0, 2),
        v(0, 2),
        Forwarded,
        Cluster(Op::Alter),
    ),
    api(
        ApiKey::Envelope,
        NONE,
        v(0, 0),
        Local,
        Cluster(Op::ClusterAction),
    ),
    api(
        ApiKey::FetchSnapshot,
        NONE,
        v(0, 1),
        Local,
        Cluster(Op::ClusterAction),
    ),
    api(
        ApiKey::DescribeCluster,
        v(0, 2),
        v(1, 2),
        Local,
        By(rules::describe_cluster),
    ),
    api(
        ApiKey::DescribeProducers,
        v(0, 0),
        NONE,
        Local,
        By(rules::describe_producers),
    ),
    api(
        ApiKey::BrokerRegistration,
        NONE,
        v(0, 4),
        Local,
        Cluster(Op::ClusterAction),
    ),
    api(
        ApiKey::BrokerHeartbeat,
        NONE,
        v(0, 1),
        Local,
        Cluster(Op::ClusterAction),
    ),
    api(
        ApiKey::UnregisterBroker,
        v(0, 0),
        v(0, 0),
        Forwarded,
        Cluster(Op::Alter),
    ),
    api(
        ApiKey::DescribeTransactions,
        v(0, 0),
        NONE,
        Local,
        By(rules::describe_transactions),
    ),
    // Only the transactions the caller may describe are listed.
    api(ApiKey::ListTransactions, v(0, 2), NONE, Local, Open),
    api(
        ApiKey::AllocateProducerIds,
        NONE,
        v(0, 0),
        Local,
        Cluster(Op::ClusterAction),
    ),
    // KIP-848 consumer groups (answered UNSUPPORTED_VERSION while `group.version` is 0).
    api(
        ApiKey::ConsumerGroupHeartbeat,
        v(0, 1),
        NONE,
        Local,
        By(rules::consumer_group_heartbeat),
    ),
    api(
        ApiKey::ConsumerGroupDescribe,
        v(0, 1),
        NONE,
        Local,
        By(rules::consumer_group_describe),
    ),
    api(
        ApiKey::ControllerRegistration,
        NONE,
        v(0, 0),
        Local,
        Cluster(Op::ClusterAction),
    ),
    // Client telemetry (KIP-714): served to any client, as Kafka does.
    api(
        ApiKey::GetTelemetrySubscriptions,
        v(0, 0),
        NONE,
        Local,
        Open,
    ),
    api(ApiKey::PushTelemetry, v(0, 0), NONE, Local, Open),
    api(
        ApiKey::AssignReplicasToDirs,
        NONE,
        v(0, 0),
        Local,
        Cluster(Op::ClusterAction),
    ),
    // KIP-1142: the config resources of the cluster (v0: client metrics only).
    api(
        ApiKey::ListConfigResources,
        v(0, 1),
        NONE,
        Local,
        Cluster(Op::DescribeConfigs),
    ),
    api(
        ApiKey::DescribeTopicPartitions,
        v(0, 0),
        NONE,
        Local,
        By(rules::describe_topic_partitions),
    ),
    // Share groups (KIP-932; answered UNSUPPORTED_VERSION while `share.version` is 0).
    api(
        ApiKey::ShareGroupHeartbeat,
        v(1, 1),
        NONE,
        Local,
        By(rules::share_group_heartbeat),
    ),
    api(
        ApiKey::ShareGroupDescribe,
        v(1, 1),
        NONE,
        Local,
        By(rules::share_group_describe),
    ),
    api(
        ApiKey::ShareFetch,
        v(1, 2),
        NONE,
        Local,
        By(rules::share_member),
    ),
    api(
        ApiKey::ShareAcknowledge,
        v(1, 2),
        NONE,
        Local,
        By(rules::share_member),
    ),
    api(
        ApiKey::AddRaftVoter,
        v(0, 1),
        v(0, 1),
        Forwarded,
        Cluster(Op::Alter),
    ),
    api(
        ApiKey::RemoveRaftVoter,
        v(0, 0),
        v(0, 0),
        Forwarded,
        Cluster(Op::Alter),
    ),
    api(
        ApiKey::UpdateRaftVoter,
        NONE,
        v(0, 0),
        Local,
        Cluster(Op::ClusterAction),
    ),
    // The share coordinator's state RPCs (KIP-932), sent by share-partition leaders.
    api(
        ApiKey::InitializeShareGroupState,
        v(0, 0),
        NONE,
        Local,
        Cluster(Op::ClusterAction),
    ),
    api(
        ApiKey::ReadShareGroupState,
        v(0, 0),
        NONE,
        Local,
        Cluster(Op::ClusterAction),
    ),
    api(
        ApiKey::WriteShareGroupState,
        v(0, 1),
        NONE,
        Local,
        Cluster(Op::ClusterAction),
    ),
    api(
        ApiKey::DeleteShareGroupState,
        v(0, 0),
        NONE,
        Local,
        Cluster(Op::ClusterAction),
    ),
    api(
        ApiKey::ReadShareGroupStateSummary,
        v(0, 1),
        NONE,
        Local,
        Cluster(Op::ClusterAction),
    ),
    // Streams groups (KIP-1071; answered UNSUPPORTED_VERSION while `streams.version` is 0).
    api(
        ApiKey::StreamsGroupHeartbeat,
        v(0, 1),
        NONE,
        Local,
        By(rules::streams_group_heartbeat),
    ),
    api(
        ApiKey::StreamsGroupDescribe,
        v(0, 1),
        NONE,
        Local,
        By(rules::streams_group_describe),
    ),
    api(
        ApiKey::DescribeShareGroupOffsets,
        v(0, 1),
        NONE,
        Local,
        By(rules::describe_share_group_offsets),
    ),
    api(
        ApiKey::AlterShareGroupOffsets,
        v(0, 0),
        NONE,
        Local,
        By(rules::change_share_group_offsets),
    ),
    api(
        ApiKey::DeleteShareGroupOffsets,
        v(0, 0),
        NONE,
        Local,
        By(rules::change_share_group_offsets),
    ),
    api(
        ApiKey::StreamsGroupTopologyDescriptionUpdate,
        v(0, 0),
        NONE,
        Local,
        By(rules::streams_group_topology_update),
    ),
    api(
        ApiKey::UnregisterController,
        v(0, 0),
        v(0, 0),
        Forwarded,
        Cluster(Op::Alter),
    ),
    // GetReplicaLogInfo is judged topic by topic by its handler
    // ([`Access::replica_log_info_refusals`](crate::authorize::Access::replica_log_info_refusals)):
    // refusals count toward the 1000-partition limit in request order.
    api(ApiKey::GetReplicaLogInfo, v(0, 0), NONE, Local, Open),
];

/// The entries by API key.
static BY_KEY: LazyLock<Vec<Option<&'static Api>>> = LazyLock::new(|| {
    let size = APIS.iter().map(|a| a.key.key()).max().unwrap_or(0) as usize + 1;
    let mut by_key = vec![None; size];
    for a in APIS {
        by_key[a.key.key() as usize] = Some(a);
    }
    by_key
});

/// The entry of `key`, if a node serves it.
pub fn describe(key: ApiKey) -> Option<&'static Api> {
    BY_KEY.get(key.key() as usize).copied().flatten()
}

/// The APIs and versions a listener serves and advertises: (api, min, max).
pub type ServedApis = &'static [(ApiKey, i16, i16)];

static BROKER_SERVED: LazyLock<Vec<(ApiKey, i16, i16)>> =
    LazyLock::new(|| served_by(Listener::Broker));
static CONTROLLER_SERVED: LazyLock<Vec<(ApiKey, i16, i16)>> =
    LazyLock::new(|| served_by(Listener::Controller));

fn served_by(listener: Listener) -> Vec<(ApiKey, i16, i16)> {
    APIS.iter()
        .filter_map(|a| a.versions(listener).map(|(min, max)| (a.key, min, max)))
        .collect()
}

/// What `listener` serves, in key order.
pub fn served(listener: Listener) -> ServedApis {
    match listener {
        Listener::Broker => &BROKER_SERVED,
        Listener::Controller => &CONTROLLER_SERVED,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_table_is_in_key_order_without_repeats() {
        for pair in APIS.windows(2) {
            assert!(
                pair[0].key < pair[1].key,
                "{:?} then {:?}",
                pair[0].key,
                pair[1].key
            );
        }
    }

    #[test]
    fn every_entry_is_served_only_where_and_as_the_spec_allows() {
        for a in APIS {
            for listener in [Listener::Broker, Listener::Controller] {
                let Some((min, max)) = a.versions(listener) else {
                    continue;
                };
                assert!(
                    a.key.listeners().contains(&listener.spec_name()),
                    "{:?} is served on the {listener:?} listener but its spec lists {:?}",
                    a.key,
                    a.key.listeners()
                );
                assert!(
                    min <= max && a.key.supports(min) && a.key.supports(max),
                    "{:?} serves {min}..={max} on {listener:?}, beyond what the codec reads",
                    a.key
                );
            }
            assert!(a.broker.is_some() || a.controller.is_some(), "{:?}", a.key);
            if a.route == Route::Controller {
                // A broker forwards what it admits: the controller must serve those versions.
                let (Some(b), Some(c)) = (a.broker, a.controller) else {
                    panic!("{:?} is forwarded, so both listeners serve it", a.key);
                };
                assert!(
                    c.0 <= b.0 && b.1 <= c.1,
                    "{:?}: {b:?} forwarded, {c:?} served",
                    a.key
                );
            }
        }
    }

    #[test]
    fn lookup_by_key_finds_every_entry() {
        for a in APIS {
            assert_eq!(describe(a.key).map(|d| d.key), Some(a.key));
        }
        for key in ApiKey::ALL {
            assert_eq!(
                describe(*key).is_some(),
                APIS.iter().any(|a| a.key == *key),
                "{key:?}"
            );
        }
        for listener in [Listener::Broker, Listener::Controller] {
            let listed = APIS.iter().filter(|a| a.versions(listener).is_some());
            assert_eq!(served(listener).len(), listed.count());
        }
    }
}
