//! The immutable metadata image: features, brokers and controllers, topics and partitions,
//! configs and producer-id blocks. Each part sits behind an `Arc`, and each topic too, so a new
//! image shares everything a batch did not touch with the one before.

use crate::partition::PartitionRegistration;
use fjord_protocol::Uuid;
use std::collections::BTreeMap;
use std::sync::Arc;

/// The ordered persistent map the image's large parts use (topics, partitions, configs):
/// cloning is O(1) and an update copies only the path to what changed, so a batch that
/// touches one partition costs O(log n) whatever the cluster's size.
pub type Map<K, V> = imbl::OrdMap<K, V>;

/// The `metadata.version` feature's name.
pub const METADATA_VERSION: &str = "metadata.version";

/// Finalized feature levels (`metadata.version` among them).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct FeaturesImage {
    /// Feature name to finalized level (a level of 0 removes the feature).
    pub levels: BTreeMap<String, i16>,
    /// The `kraft.version` level: the Raft layer's (1 once the voter set is in the log), set
    /// by the image loader, not folded from records.
    pub kraft_version: i16,
}

impl FeaturesImage {
    /// The finalized levels (a level of 0 is no feature), by name.
    pub fn finalized(&self) -> Vec<(String, i16)> {
        let kraft = (crate::version::KRAFT_VERSION, &self.kraft_version);
        let mut levels: Vec<(String, i16)> = self
            .levels
            .iter()
            .map(|(n, l)| (n.as_str(), l))
            .chain(std::iter::once(kraft))
            .filter(|(_, l)| **l > 0)
            .map(|(n, l)| (n.to_string(), *l))
            .collect();
        levels.sort();
        levels
    }

    /// True when the controller keeps eligible leader replicas (KIP-966):
    /// `eligible.leader.replicas.version` is 1 or more.
    pub fn elr_enabled(&self) -> bool {
        self.levels
            .get(crate::version::ELR_VERSION)
            .is_some_and(|l| *l >= 1)
    }

    /// The finalized `metadata.version` level, if set.
    pub fn metadata_version(&self) -> Option<i16> {
        self.levels.get(METADATA_VERSION).copied()
    }

    /// The finalized `group.version` level (0 when not finalized).
    pub fn group_version(&self) -> i16 {
        self.levels
            .get(crate::version::GROUP_VERSION)
            .copied()
            .unwrap_or(0)
    }

    /// The finalized `share.version` level (0 when not finalized).
    pub fn share_version(&self) -> i16 {
        self.levels
            .get(crate::version::SHARE_VERSION)
            .copied()
            .unwrap_or(0)
    }

    /// The finalized `transaction.version` level (0 when not finalized).
    pub fn transaction_version(&self) -> i16 {
        self.levels
            .get(crate::version::TRANSACTION_VERSION)
            .copied()
            .unwrap_or(0)
    }
}

/// A listener a broker or controller registered.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Listener {
    /// Its name.
    pub name: String,
    /// The advertised host.
    pub host: String,
    /// The advertised port.
    pub port: u16,
    /// Its security protocol (0 = PLAINTEXT).
    pub security_protocol: i16,
}

/// A broker's registration.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BrokerRegistration {
    /// The broker id.
    pub id: i32,
    /// Its broker epoch (the offset of its registration record).
    pub epoch: i64,
    /// The incarnation of the process that registered.
    pub incarnation_id: Uuid,
    /// Its listeners.
    pub listeners: Vec<Listener>,
    /// Supported feature ranges: name to (min, max).
    pub supported_features: BTreeMap<String, (i16, i16)>,
    /// Its rack.
    pub rack: Option<String>,
    /// True while fenced.
    pub fenced: bool,
    /// True during a controlled shutdown.
    pub in_controlled_shutdown: bool,
    /// Its online log directories.
    pub log_dirs: Vec<Uuid>,
}

/// A controller's registration.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ControllerRegistration {
    /// The controller id.
    pub id: i32,
    /// The incarnation of the process that registered.
    pub incarnation_id: Uuid,
    /// Whether it is ready for a ZooKeeper migration (always false in fjord).
    pub zk_migration_ready: bool,
    /// Its listeners.
    pub listeners: Vec<Listener>,
    /// Supported feature ranges: name to (min, max).
    pub supported_features: BTreeMap<String, (i16, i16)>,
}

/// Brokers and controllers.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ClusterImage {
    /// Registered brokers by id.
    pub brokers: BTreeMap<i32, BrokerRegistration>,
    /// Registered controllers by id.
    pub controllers: BTreeMap<i32, ControllerRegistration>,
}

/// One topic.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TopicImage {
    /// Its name.
    pub name: String,
    /// Its id.
    pub id: Uuid,
    /// Its partitions by index (a persistent map: a changed partition shares the rest).
    pub partitions: Map<i32, PartitionRegistration>,
}

/// Every topic, by id and by name.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct TopicsImage {
    /// Topics by id.
    pub by_id: Map<Uuid, Arc<TopicImage>>,
    /// Topic ids by name.
    pub by_name: Map<String, Uuid>,
}

impl TopicsImage {
    /// A topic by name.
    pub fn get_by_name(&self, name: &str) -> Option<&Arc<TopicImage>> {
        self.by_name.get(name).and_then(|id| self.by_id.get(id))
    }

    /// The number of partitions of every topic together.
    pub fn partition_count(&self) -> usize {
        self.by_id.values().map(|t| t.partitions.len()).sum()
    }
}

/// A config resource: its type (Kafka's ConfigResource.Type: 2 topic, 4 broker) and name
/// (empty for the cluster-wide broker default).
pub type ConfigResource = (i8, String);

/// Dynamic configs by resource.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ConfigsImage {
    /// Resource to its non-default keys and values.
    pub resources: Map<ConfigResource, BTreeMap<String, String>>,
}

impl ConfigsImage {
    /// A resource's value for `key`, if set.
    pub fn get(&self, resource_type: i8, name: &str, key: &str) -> Option<&str> {
        self.resources
            .get(&(resource_type, name.to_string()))
            .and_then(|m| m.get(key))
            .map(String::as_str)
    }

    /// The dynamic keys set for broker `broker` ("" for the cluster-wide default only): each
    /// key's value and whether it is the broker's own (it wins over the cluster-wide one).
    pub fn broker_keys(&self, broker: &str) -> BTreeMap<&str, (&str, bool)> {
        let mut out = BTreeMap::new();
        let mut levels = vec![("", false)];
        if !broker.is_empty() {
            levels.push((broker, true));
        }
        for (name, own) in levels {
            if let Some(keys) = self
                .resources
                .get(&(crate::config_defs::BROKER, name.to_string()))
            {
                for (k, v) in keys {
                    out.insert(k.as_str(), (v.as_str(), own));
                }
            }
        }
        out
    }
}

/// Where the image stands in the log.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Provenance {
    /// The offset of the last record folded in (-1: none).
    pub last_offset: i64,
    /// The epoch of that record's batch.
    pub last_epoch: i32,
}

/// The whole image.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct MetadataImage {
    /// Where it stands in the log.
    pub provenance: Provenance,
    /// Finalized features.
    pub features: Arc<FeaturesImage>,
    /// Brokers and controllers.
    pub cluster: Arc<ClusterImage>,
    /// Topics.
    pub topics: Arc<TopicsImage>,
    /// Dynamic configs.
    pub configs: Arc<ConfigsImage>,
    /// ACLs.
    pub acls: Arc<crate::acls::AclsImage>,
    /// SCRAM credentials.
    pub scram: Arc<crate::scram::ScramImage>,
    /// Client quotas.
    pub quotas: Arc<crate::quotas::ClientQuotasImage>,
    /// Delegation tokens.
    pub tokens: Arc<crate::delegation_tokens::TokensImage>,
    /// The next producer id block starts here.
    pub next_producer_id: i64,
}

impl MetadataImage {
    /// The empty image, before any record.
    pub fn empty() -> MetadataImage {
        MetadataImage {
            provenance: Provenance {
                last_offset: -1,
                last_epoch: -1,
            },
            ..MetadataImage::default()
        }
    }
}
