//! The broker-level defaults and limits the controller decides with (Kafka's names and
//! defaults), and the per-topic values it reads from the image's configs.

use fjord_configdef::topic;
use fjord_metadata::MetadataImage;

pub use fjord_metadata::config_defs::{BROKER, TOPIC};

/// Controller settings.
#[derive(Debug, Clone, PartialEq)]
pub struct ControllerSettings {
    /// This controller's node id (`node.id`), as its messages name it.
    pub node_id: i32,
    /// `num.partitions`.
    pub num_partitions: i32,
    /// `default.replication.factor`.
    pub default_replication_factor: i16,
    /// `min.insync.replicas` (broker default).
    pub min_insync_replicas: i32,
    /// `unclean.leader.election.enable` (broker default).
    pub unclean_leader_election_enable: bool,
    /// `broker.session.timeout.ms`.
    pub broker_session_timeout_ms: i64,
    /// `broker.heartbeat.interval.ms` (this node's setting, taken as the brokers'): how long a
    /// new active controller waits at least for a broker's first heartbeat.
    pub broker_heartbeat_interval_ms: i64,
    /// `broker.connection.loss.fence.ms`: how long after the connection carrying a broker's
    /// heartbeats closes the broker is fenced unless it heartbeats again (0: only the session
    /// timeout fences).
    pub broker_connection_loss_fence_ms: i64,
    /// The most partitions one ElectLeaders v3 request acts on (docs/EXTENSIONS.md).
    pub max_election_partitions: usize,
    /// The `metadata.version` the first active controller of a new cluster finalizes (from
    /// `bootstrap.checkpoint`, written by `format --release-version`).
    pub bootstrap_metadata_version: i16,
    /// Whether `authorizer.class.name` turns ACLs on (the ACL APIs answer SECURITY_DISABLED
    /// otherwise).
    pub authorizer_enabled: bool,
    /// Records a new cluster starts with besides `metadata.version` (SCRAM credentials from
    /// `format --add-scram`), written by the first active controller.
    pub bootstrap_records: Vec<fjord_protocol::MetadataRecord>,
    /// This node's own `group.*` settings, which bound group config resources' values
    /// (Kafka's defaults for the keys it does not set).
    pub group_settings: std::collections::BTreeMap<String, String>,
    /// Delegation tokens' settings (`delegation.token.*`).
    pub tokens: fjord_metadata::delegation_tokens::TokenSettings,
    /// `remote.log.storage.system.enable`: topics may turn tiered storage on.
    pub remote_storage_system_enabled: bool,
}

impl Default for ControllerSettings {
    fn default() -> Self {
        ControllerSettings {
            node_id: 1,
            num_partitions: 1,
            default_replication_factor: 1,
            min_insync_replicas: 1,
            unclean_leader_election_enable: false,
            broker_session_timeout_ms: 9_000,
            broker_connection_loss_fence_ms: 1_000,
            broker_heartbeat_interval_ms: 2_000,
            max_election_partitions: 1_000,
            bootstrap_metadata_version: fjord_metadata::version::METADATA_VERSION_LATEST,
            authorizer_enabled: false,
            bootstrap_records: Vec::new(),
            group_settings: std::collections::BTreeMap::new(),
            tokens: Default::default(),
            remote_storage_system_enabled: false,
        }
    }
}

impl ControllerSettings {
    /// A topic's effective value of `key`: the topic config, else the cluster-wide broker
    /// config, else `default`.
    pub fn topic_value<'a>(
        &self,
        image: &'a MetadataImage,
        topic: &str,
        key: &str,
    ) -> Option<&'a str> {
        image.configs.get(TOPIC, topic, key).or_else(|| {
            crate::configs::broker_synonym(key).and_then(|b| image.configs.get(BROKER, "", b))
        })
    }

    /// `min.insync.replicas` for a topic.
    pub fn min_isr(&self, image: &MetadataImage, topic: &str) -> i32 {
        self.topic_value(image, topic, topic::MIN_INSYNC_REPLICAS.name)
            .and_then(|v| v.parse().ok())
            .unwrap_or(self.min_insync_replicas)
    }

    /// `unclean.leader.election.enable` for a topic.
    pub fn unclean_enabled(&self, image: &MetadataImage, topic: &str) -> bool {
        self.topic_value(image, topic, topic::UNCLEAN_LEADER_ELECTION_ENABLE.name)
            .map(|v| v.eq_ignore_ascii_case("true"))
            .unwrap_or(self.unclean_leader_election_enable)
    }
}
