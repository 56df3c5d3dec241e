//! The broker listener: ApiVersions, Metadata (leaders, ISR, offline replicas; topics created
//! on first use when `auto.create.topics.enable`) and DescribeCluster answered from this node's
//! metadata image; controller-bound admin requests (CreateTopics, DeleteTopics,
//! CreatePartitions, ElectLeaders, UnregisterBroker, UnregisterController, UpdateFeatures,
//! configs, DescribeQuorum) forwarded to the active controller, so clients may send them to
//! any broker. Only the versions in [`BROKER_APIS`] are advertised and served.

use crate::controller_client::ControllerClient;
use crate::metadata_loop::View;
use fjord_controller::not_controller;
use fjord_controller::responses::error_response_for;
use fjord_metadata::MetadataImage;
use fjord_protocol::generated::{
    api_versions_response::{ApiVersion, ApiVersionsResponse},
    create_topics_request::{CreatableTopic, CreateTopicsRequest},
    describe_cluster_response::{DescribeClusterBroker, DescribeClusterResponse},
    metadata_request::MetadataRequest,
    metadata_response::{
        MetadataResponse, MetadataResponseBroker, MetadataResponsePartition, MetadataResponseTopic,
    },
};
use fjord_protocol::header::RequestFrame;
use fjord_protocol::{ApiKey, ErrorCode, RequestBody, ResponseBody, Uuid};
use fjord_raft::net::serve::{Handler, Reply};
use std::sync::Arc;
use tokio::sync::watch;

/// The APIs and versions the broker listener serves.
pub const BROKER_APIS: &[(ApiKey, i16, i16)] = &[
    (ApiKey::Metadata, 0, 12),
    (ApiKey::ApiVersions, 0, 4),
    (ApiKey::CreateTopics, 2, 7),
    (ApiKey::DeleteTopics, 1, 6),
    (ApiKey::DescribeConfigs, 1, 4),
    (ApiKey::AlterConfigs, 0, 2),
    (ApiKey::CreatePartitions, 0, 3),
    (ApiKey::ElectLeaders, 0, 3),
    (ApiKey::IncrementalAlterConfigs, 0, 1),
    (ApiKey::DescribeQuorum, 0, 2),
    (ApiKey::UpdateFeatures, 0, 1),
    (ApiKey::DescribeCluster, 0, 1),
    (ApiKey::UnregisterBroker, 0, 0),
    (ApiKey::UnregisterController, 0, 0),
];

/// Topics Kafka treats as internal.
const INTERNAL_TOPICS: &[&str] = &["__consumer_offsets", "__transaction_state"];

/// Serves the broker listener.
#[derive(Debug)]
pub struct BrokerHandler {
    /// The metadata view.
    pub view: watch::Receiver<View>,
    /// The active controller.
    pub controller: Arc<ControllerClient>,
    /// The cluster id.
    pub cluster_id: String,
    /// The listener name clients use (brokers' endpoints of this name are returned).
    pub listener_name: String,
    /// `auto.create.topics.enable`.
    pub auto_create_topics: bool,
}

fn served(api: ApiKey, version: i16) -> bool {
    BROKER_APIS
        .iter()
        .any(|(k, min, max)| *k == api && (*min..=*max).contains(&version))
}

/// ApiVersions for the broker listener.
pub fn api_versions(error: ErrorCode) -> ResponseBody {
    ResponseBody::ApiVersions(ApiVersionsResponse {
        error_code: error.code(),
        api_keys: BROKER_APIS
            .iter()
            .map(|(k, min, max)| ApiVersion {
                api_key: k.key(),
                min_version: *min,
                max_version: *max,
                ..Default::default()
            })
            .collect(),
        ..Default::default()
    })
}

/// The broker Metadata and DescribeCluster report as controller: the lowest live broker (in
/// KRaft, clients send controller-bound requests to any broker).
fn client_controller_id(image: &MetadataImage) -> i32 {
    image
        .cluster
        .brokers
        .values()
        .find(|b| !b.fenced)
        .map_or(-1, |b| b.id)
}

impl BrokerHandler {
    fn brokers(&self, image: &MetadataImage) -> Vec<(i32, String, i32, Option<String>)> {
        image
            .cluster
            .brokers
            .values()
            .filter(|b| !b.fenced)
            .filter_map(|b| {
                let l = b
                    .listeners
                    .iter()
                    .find(|l| l.name == self.listener_name)
                    .or(b.listeners.first())?;
                Some((b.id, l.host.clone(), i32::from(l.port), b.rack.clone()))
            })
            .collect()
    }

    async fn metadata(&self, r: &MetadataRequest, version: i16) -> ResponseBody {
        let image = self.view.borrow().image.clone();
        let live = |id: &i32| image.cluster.brokers.get(id).is_some_and(|b| !b.fenced);
        // Which topics: all (null, or an empty list before v1), else by name or (v10+) id.
        let wanted: Option<Vec<(Option<String>, Uuid)>> = match &r.topics {
            None => None,
            Some(t) if t.is_empty() && version == 0 => None,
            Some(t) => Some(t.iter().map(|x| (x.name.clone(), x.topic_id)).collect()),
        };
        let auto_create = self.auto_create_topics && (version < 4 || r.allow_auto_topic_creation);
        let describe = |name: &str| -> MetadataResponseTopic {
            let Some(t) = image.topics.get_by_name(name) else {
                return MetadataResponseTopic {
                    error_code: ErrorCode::UnknownTopicOrPartition.code(),
                    name: Some(name.to_string()),
                    ..Default::default()
                };
            };
            MetadataResponseTopic {
                name: Some(t.name.clone()),
                topic_id: t.id,
                is_internal: INTERNAL_TOPICS.contains(&t.name.as_str()),
                partitions: t
                    .partitions
                    .iter()
                    .map(|(index, p)| MetadataResponsePartition {
                        error_code: if p.has_leader() {
                            0
                        } else {
                            ErrorCode::LeaderNotAvailable.code()
                        },
                        partition_index: *index,
                        leader_id: p.leader,
                        leader_epoch: p.leader_epoch,
                        replica_nodes: p.replicas.clone(),
                        isr_nodes: p.isr.clone(),
                        offline_replicas: p.replicas.iter().copied().filter(|r| !live(r)).collect(),
                        ..Default::default()
                    })
                    .collect(),
                ..Default::default()
            }
        };
        let mut topics = Vec::new();
        let mut to_create = Vec::new();
        match wanted {
            None => {
                for name in image.topics.by_name.keys() {
                    topics.push(describe(name));
                }
            }
            Some(list) => {
                for (name, id) in list {
                    match name {
                        Some(n) => {
                            let mut t = describe(&n);
                            if t.error_code == ErrorCode::UnknownTopicOrPartition.code()
                                && auto_create
                                && crate::broker_listener::creatable(&n)
                            {
                                to_create.push(n.clone());
                                t.error_code = ErrorCode::LeaderNotAvailable.code();
                            }
                            topics.push(t);
                        }
                        None => match image.topics.by_id.get(&id) {
                            Some(t) => topics.push(describe(&t.name.clone())),
                            None => topics.push(MetadataResponseTopic {
                                error_code: ErrorCode::UnknownTopicId.code(),
                                topic_id: id,
                                ..Default::default()
                            }),
                        },
                    }
                }
            }
        }
        if !to_create.is_empty() {
            self.auto_create(to_create).await;
        }
        ResponseBody::Metadata(MetadataResponse {
            brokers: self
                .brokers(&image)
                .into_iter()
                .map(|(id, host, port, rack)| MetadataResponseBroker {
                    node_id: id,
                    host,
                    port,
                    rack,
                    ..Default::default()
                })
                .collect(),
            cluster_id: Some(self.cluster_id.clone()),
            controller_id: client_controller_id(&image),
            topics,
            ..Default::default()
        })
    }

    /// Asks the controller to create topics with the broker defaults (Kafka's auto-creation).
    async fn auto_create(&self, names: Vec<String>) {
        let body = RequestBody::CreateTopics(CreateTopicsRequest {
            topics: names
                .into_iter()
                .map(|name| CreatableTopic {
                    name,
                    num_partitions: -1,
                    replication_factor: -1,
                    ..Default::default()
                })
                .collect(),
            timeout_ms: 30_000,
            ..Default::default()
        });
        if let Err(e) = self.controller.call(body, 7).await {
            tracing::warn!("auto-creating topics: {e}");
        }
    }

    fn describe_cluster(&self, endpoint_type: i8) -> ResponseBody {
        let image = self.view.borrow().image.clone();
        if endpoint_type != 1 {
            return ResponseBody::DescribeCluster(DescribeClusterResponse {
                error_code: ErrorCode::UnsupportedEndpointType.code(),
                error_message: Some("Brokers describe brokers only (endpoint type 1)".into()),
                endpoint_type,
                ..Default::default()
            });
        }
        ResponseBody::DescribeCluster(DescribeClusterResponse {
            endpoint_type,
            cluster_id: self.cluster_id.clone(),
            controller_id: client_controller_id(&image),
            brokers: self
                .brokers(&image)
                .into_iter()
                .map(|(id, host, port, rack)| DescribeClusterBroker {
                    broker_id: id,
                    host,
                    port,
                    rack,
                    ..Default::default()
                })
                .collect(),
            ..Default::default()
        })
    }

    async fn forward(&self, body: RequestBody, version: i16) -> ResponseBody {
        match self.controller.call(body.clone(), version).await {
            Ok(r) => r,
            Err(e) => {
                tracing::debug!("forwarding {:?}: {e}", body.api_key());
                if let RequestBody::DescribeQuorum(_) = body {
                    return ResponseBody::DescribeQuorum(
                        fjord_protocol::generated::describe_quorum_response::DescribeQuorumResponse {
                            error_code: ErrorCode::NotLeaderOrFollower.code(),
                            error_message: Some(format!("no active controller reachable: {e}")),
                            ..Default::default()
                        },
                    );
                }
                let like = not_controller(&body);
                error_response_for(
                    &like,
                    ErrorCode::NotController,
                    &format!("no active controller reachable: {e}"),
                )
            }
        }
    }
}

/// Whether a name may be auto-created (a valid topic name, not internal).
pub fn creatable(name: &str) -> bool {
    fjord_controller::topics::validate_topic_name(name).is_ok() && !INTERNAL_TOPICS.contains(&name)
}

impl Handler for BrokerHandler {
    async fn handle(&self, frame: RequestFrame, peer: std::net::SocketAddr) -> Reply {
        let Some(api) = frame.api_key else {
            return Reply::Close;
        };
        let version = frame.header.request_api_version;
        if api == ApiKey::ApiVersions && !served(api, version) {
            return Reply::Respond(api_versions(ErrorCode::UnsupportedVersion));
        }
        if !served(api, version) {
            tracing::debug!(%peer, ?api, version, "closing: not served on the broker listener");
            return Reply::Close;
        }
        let body = match frame.decode_body() {
            Ok(b) => b,
            Err(e) => {
                tracing::debug!(%peer, ?api, version, "closing on an undecodable request: {e}");
                return Reply::Close;
            }
        };
        Reply::Respond(match &body {
            RequestBody::ApiVersions(_) => api_versions(ErrorCode::None),
            RequestBody::Metadata(r) => self.metadata(r, version).await,
            RequestBody::DescribeCluster(r) => {
                self.describe_cluster(if version == 0 { 1 } else { r.endpoint_type })
            }
            _ => self.forward(body, version).await,
        })
    }
}
