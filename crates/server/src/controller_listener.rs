//! The controller listener: ApiVersions; the quorum's APIs (Vote, BeginQuorumEpoch,
//! EndQuorumEpoch, Fetch and FetchSnapshot of `__cluster_metadata`, DescribeQuorum,
//! AddRaftVoter, RemoveRaftVoter, UpdateRaftVoter), answered by the Raft driver; and the
//! controller's own APIs (registrations, heartbeats, topics, elections, configs, features,
//! unregistration), answered by the active controller (NOT_CONTROLLER elsewhere). Only the
//! versions listed in [`CONTROLLER_APIS`] are advertised and served; anything else closes the
//! connection, as Kafka does for an API a listener does not serve.

use fjord_protocol::generated::api_versions_response::{ApiVersion, ApiVersionsResponse};
use fjord_protocol::header::RequestFrame;
use fjord_protocol::{ApiKey, ErrorCode, ResponseBody};
use fjord_raft::driver::RaftHandle;
use fjord_raft::net::serve::{Handler, Reply};

/// The APIs and versions the controller listener serves.
pub const CONTROLLER_APIS: &[(ApiKey, i16, i16)] = &[
    (ApiKey::Fetch, 13, 17),
    (ApiKey::ApiVersions, 0, 4),
    (ApiKey::Vote, 0, 2),
    (ApiKey::BeginQuorumEpoch, 0, 1),
    (ApiKey::EndQuorumEpoch, 0, 1),
    (ApiKey::DescribeQuorum, 0, 2),
    (ApiKey::FetchSnapshot, 0, 1),
    (ApiKey::DescribeCluster, 1, 2),
    (ApiKey::BrokerRegistration, 0, 4),
    (ApiKey::BrokerHeartbeat, 0, 1),
    (ApiKey::ControllerRegistration, 0, 0),
    (ApiKey::CreateTopics, 2, 7),
    (ApiKey::DeleteTopics, 1, 6),
    (ApiKey::CreatePartitions, 0, 3),
    (ApiKey::ElectLeaders, 0, 3),
    (ApiKey::UnregisterBroker, 0, 0),
    (ApiKey::UnregisterController, 0, 0),
    (ApiKey::UpdateFeatures, 0, 1),
    (ApiKey::IncrementalAlterConfigs, 0, 1),
    (ApiKey::AlterConfigs, 0, 2),
    (ApiKey::DescribeConfigs, 1, 4),
    (ApiKey::AlterPartition, 2, 3),
    (ApiKey::AllocateProducerIds, 0, 0),
    (ApiKey::AddRaftVoter, 0, 1),
    (ApiKey::RemoveRaftVoter, 0, 0),
    (ApiKey::UpdateRaftVoter, 0, 0),
];

/// ApiVersions' answer: the served APIs, or UNSUPPORTED_VERSION with them (KIP-511).
pub fn api_versions(error: ErrorCode) -> ResponseBody {
    ResponseBody::ApiVersions(ApiVersionsResponse {
        error_code: error.code(),
        api_keys: CONTROLLER_APIS
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

/// Serves the controller listener.
#[derive(Debug)]
pub struct ControllerHandler {
    /// The Raft driver.
    pub raft: RaftHandle,
    /// This node's controller.
    pub controller: crate::metadata_loop::LocalController,
}

/// DescribeCluster's endpoint type for controllers (KIP-919).
const CONTROLLER_ENDPOINTS: i8 = 2;

impl ControllerHandler {
    /// DescribeCluster on a controller (KIP-919): the controllers, with the active one.
    fn describe_cluster(&self, endpoint_type: i8) -> ResponseBody {
        use fjord_protocol::generated::describe_cluster_response::{
            DescribeClusterBroker, DescribeClusterResponse,
        };
        let info = self.raft.quorum_info().borrow().clone();
        if endpoint_type != CONTROLLER_ENDPOINTS {
            return ResponseBody::DescribeCluster(DescribeClusterResponse {
                error_code: ErrorCode::UnsupportedEndpointType.code(),
                error_message: Some(
                    "The controller listener only describes controllers (endpoint type 2)".into(),
                ),
                endpoint_type,
                ..Default::default()
            });
        }
        ResponseBody::DescribeCluster(DescribeClusterResponse {
            endpoint_type,
            cluster_id: self.raft.cluster_id().to_string(),
            controller_id: info.leader.unwrap_or(-1),
            brokers: info
                .voter_set
                .values()
                .filter_map(|v| {
                    let e = v.endpoints.first()?;
                    Some(DescribeClusterBroker {
                        broker_id: v.id,
                        host: e.host.clone(),
                        port: i32::from(e.port),
                        ..Default::default()
                    })
                })
                .collect(),
            ..Default::default()
        })
    }
}

fn served(api: ApiKey, version: i16) -> bool {
    CONTROLLER_APIS
        .iter()
        .any(|(k, min, max)| *k == api && (*min..=*max).contains(&version))
}

impl Handler for ControllerHandler {
    async fn handle(&self, frame: RequestFrame, peer: std::net::SocketAddr) -> Reply {
        let Some(api) = frame.api_key else {
            return Reply::Close;
        };
        let version = frame.header.request_api_version;
        if api == ApiKey::ApiVersions && !served(api, version) {
            return Reply::Respond(api_versions(ErrorCode::UnsupportedVersion));
        }
        if !served(api, version) {
            tracing::debug!(%peer, ?api, version, "closing: not served on the controller listener");
            return Reply::Close;
        }
        let body = match frame.decode_body() {
            Ok(b) => b,
            Err(e) => {
                tracing::debug!(%peer, ?api, version, "closing on an undecodable request: {e}");
                return Reply::Close;
            }
        };
        if api == ApiKey::ApiVersions {
            return Reply::Respond(api_versions(ErrorCode::None));
        }
        if let fjord_protocol::RequestBody::DescribeCluster(r) = &body {
            return Reply::Respond(self.describe_cluster(r.endpoint_type));
        }
        if let Some(r) = self.raft.handle_request(&frame, &body).await {
            return Reply::Respond(r);
        }
        Reply::Respond(self.controller.handle(body, version).await)
    }
}
