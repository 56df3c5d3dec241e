//! The admin client's view of the cluster: brokers (fenced ones included), the controller, and
//! topics with their partitions, as the last Metadata and DescribeCluster answers gave them.

use fjord_protocol::generated::{
    describe_cluster_response::DescribeClusterResponse,
    describe_topic_partitions_response::DescribeTopicPartitionsResponse,
    metadata_response::MetadataResponse,
};
use fjord_protocol::Uuid;
use std::collections::BTreeMap;

/// One broker.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BrokerInfo {
    /// Its id.
    pub id: i32,
    /// host:port of the listener the client bootstrapped on.
    pub addr: String,
    /// Its rack, if set.
    pub rack: Option<String>,
    /// Fenced by the controller (not serving).
    pub fenced: bool,
}

/// One partition.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PartitionInfo {
    /// Its index.
    pub partition: i32,
    /// The error the broker gave for it (LEADER_NOT_AVAILABLE when offline).
    pub error_code: i16,
    /// The leader's id, -1 when none.
    pub leader: i32,
    /// The leader epoch.
    pub leader_epoch: i32,
    /// The replica set, in assignment order.
    pub replicas: Vec<i32>,
    /// The in-sync replicas.
    pub isr: Vec<i32>,
    /// Replicas whose log dir is offline.
    pub offline: Vec<i32>,
    /// The eligible leader replicas (KIP-966); `None` when the broker could not say
    /// (no DescribeTopicPartitions).
    pub elr: Option<Vec<i32>>,
    /// The last known ELR members; `None` when the broker could not say.
    pub last_known_elr: Option<Vec<i32>>,
}

/// One topic.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TopicInfo {
    /// Its name.
    pub name: String,
    /// Its id.
    pub id: Uuid,
    /// An internal topic (`__consumer_offsets`).
    pub internal: bool,
    /// The topic-level error (UNKNOWN_TOPIC_OR_PARTITION for a name that does not exist).
    pub error_code: i16,
    /// Its partitions, by index.
    pub partitions: Vec<PartitionInfo>,
}

/// A snapshot of the cluster.
#[derive(Debug, Clone, Default)]
pub struct ClusterInfo {
    /// The cluster id.
    pub cluster_id: String,
    /// The controller id a broker reports (in KRaft, a broker the client may send
    /// controller-bound requests to).
    pub controller_id: i32,
    /// Brokers by id.
    pub brokers: BTreeMap<i32, BrokerInfo>,
    /// Topics by name.
    pub topics: BTreeMap<String, TopicInfo>,
}

impl ClusterInfo {
    /// The view a Metadata answer gives (only unfenced brokers are in it).
    pub fn from_metadata(r: &MetadataResponse) -> ClusterInfo {
        let brokers = r
            .brokers
            .iter()
            .map(|b| {
                (
                    b.node_id,
                    BrokerInfo {
                        id: b.node_id,
                        addr: host_port(&b.host, b.port),
                        rack: b.rack.clone(),
                        fenced: false,
                    },
                )
            })
            .collect();
        let topics = r
            .topics
            .iter()
            .filter_map(|t| {
                let name = t.name.clone()?;
                let mut partitions: Vec<PartitionInfo> = t
                    .partitions
                    .iter()
                    .map(|p| PartitionInfo {
                        partition: p.partition_index,
                        error_code: p.error_code,
                        leader: p.leader_id,
                        leader_epoch: p.leader_epoch,
                        replicas: p.replica_nodes.clone(),
                        isr: p.isr_nodes.clone(),
                        offline: p.offline_replicas.clone(),
                        elr: None,
                        last_known_elr: None,
                    })
                    .collect();
                partitions.sort_by_key(|p| p.partition);
                Some((
                    name.clone(),
                    TopicInfo {
                        name,
                        id: t.topic_id,
                        internal: t.is_internal,
                        error_code: t.error_code,
                        partitions,
                    },
                ))
            })
            .collect();
        ClusterInfo {
            cluster_id: r.cluster_id.clone().unwrap_or_default(),
            controller_id: r.controller_id,
            brokers,
            topics,
        }
    }

    /// Adds what DescribeCluster (with fenced brokers) says: fenced brokers and their addresses.
    pub fn add_described(&mut self, r: &DescribeClusterResponse) {
        for b in &r.brokers {
            self.brokers.insert(
                b.broker_id,
                BrokerInfo {
                    id: b.broker_id,
                    addr: host_port(&b.host, b.port),
                    rack: b.rack.clone(),
                    fenced: b.is_fenced,
                },
            );
        }
    }

    /// Adds the ELR and last known ELR a DescribeTopicPartitions page gives.
    pub fn add_partitions(&mut self, r: &DescribeTopicPartitionsResponse) {
        for t in &r.topics {
            let Some(topic) = t.name.as_ref().and_then(|n| self.topics.get_mut(n)) else {
                continue;
            };
            for p in &t.partitions {
                if let Some(mine) = topic
                    .partitions
                    .iter_mut()
                    .find(|x| x.partition == p.partition_index)
                {
                    mine.elr = p.eligible_leader_replicas.clone();
                    mine.last_known_elr = p.last_known_elr.clone();
                }
            }
        }
    }

    /// The topic with this id.
    pub fn topic_by_id(&self, id: Uuid) -> Option<&TopicInfo> {
        self.topics.values().find(|t| t.id == id)
    }
}

/// `host:port`, with brackets around an IPv6 host.
pub fn host_port(host: &str, port: i32) -> String {
    if host.contains(':') && !host.starts_with('[') {
        format!("[{host}]:{port}")
    } else {
        format!("{host}:{port}")
    }
}
