//! The controller listener: ApiVersions; the quorum's APIs (Vote, BeginQuorumEpoch,
//! EndQuorumEpoch, Fetch and FetchSnapshot of `__cluster_metadata`, DescribeQuorum,
//! AddRaftVoter, RemoveRaftVoter, UpdateRaftVoter), answered by the Raft driver; and the
//! controller's own APIs (registrations, heartbeats, topics, elections, configs, features,
//! unregistration), answered by the active controller (NOT_CONTROLLER elsewhere). Only the
//! versions listed in [`CONTROLLER_APIS`] are advertised and served; anything else closes the
//! connection, as Kafka does for an API a listener does not serve.

use fjord_metadata::authorization::{Access, Gate};
use fjord_net::serve::{admit, with_features, Handler, Reply, ServedApis};
use fjord_protocol::generated::envelope_response::EnvelopeResponse;
use fjord_protocol::header::RequestFrame;
use fjord_protocol::{ApiKey, ErrorCode, RequestBody, ResponseBody};
use fjord_raft::driver::RaftHandle;

/// The APIs and versions the controller listener serves.
pub const CONTROLLER_APIS: ServedApis = &[
    (ApiKey::Fetch, 13, 17),
    (ApiKey::ApiVersions, 0, 4),
    // Answered by the listener (ILLEGAL_SASL_STATE on a listener without SASL).
    (ApiKey::SaslHandshake, 1, 1),
    (ApiKey::SaslAuthenticate, 0, 2),
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
    (ApiKey::AssignReplicasToDirs, 0, 0),
    (ApiKey::AddRaftVoter, 0, 1),
    (ApiKey::RemoveRaftVoter, 0, 0),
    (ApiKey::UpdateRaftVoter, 0, 0),
    (ApiKey::DescribeAcls, 1, 3),
    (ApiKey::CreateAcls, 1, 3),
    (ApiKey::DeleteAcls, 1, 3),
    (ApiKey::AlterUserScramCredentials, 0, 0),
    (ApiKey::Envelope, 0, 0),
];

/// Serves the controller listener.
#[derive(Debug)]
pub struct ControllerHandler {
    /// The Raft driver.
    pub raft: RaftHandle,
    /// This node's controller.
    pub controller: fjord_controller::active::LocalController,
    /// This node's view of the metadata (finalized features for ApiVersions, ACLs).
    pub view: tokio::sync::watch::Receiver<fjord_metadata::loader::View>,
    /// The authorizer's settings; `None` when `authorizer.class.name` is not set.
    pub authorizer: Option<std::sync::Arc<fjord_metadata::acls::AuthorizerSettings>>,
    /// The broker whose heartbeats each open connection carried (bounded by the listener's
    /// connection limit): when one closes, the controller hears of it.
    pub heartbeats: std::sync::Mutex<std::collections::HashMap<u64, i32>>,
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

impl Handler for ControllerHandler {
    fn closed(&self, connection: u64) {
        let broker = self
            .heartbeats
            .lock()
            .expect("heartbeat connections")
            .remove(&connection);
        if let Some(id) = broker {
            self.controller.broker_connection_lost(id);
        }
    }

    async fn handle(&self, frame: RequestFrame, caller: fjord_net::principal::Caller) -> Reply {
        let peer = caller.peer;
        let body = match admit(&frame, CONTROLLER_APIS, peer) {
            Ok(b) => b,
            Err(reply) => {
                let version = frame.header.request_api_version;
                return with_features(*reply, version, || {
                    fjord_broker::listener::node_features(&self.view.borrow().image)
                });
            }
        };
        let image = self.view.borrow().image.clone();
        let who = (caller.principal.to_string(), peer.ip());
        let RequestBody::Envelope(envelope) = body else {
            let heartbeat = match &body {
                RequestBody::BrokerHeartbeat(r) => Some(r.broker_id),
                _ => None,
            };
            let response = self.authorized(&frame, body, who, &image).await;
            // A heartbeat the active controller accepted ties its broker to this connection.
            if let (Some(id), ResponseBody::BrokerHeartbeat(r)) = (heartbeat, &response) {
                if r.error_code == 0 {
                    self.heartbeats
                        .lock()
                        .expect("heartbeat connections")
                        .insert(caller.connection, id);
                }
            }
            return Reply::Respond(response);
        };
        // The broker forwarding it must be allowed CLUSTER_ACTION; the request inside is
        // judged as its original principal's.
        if let Gate::Deny(refused) = self
            .access(&image, &who)
            .gate(RequestBody::Envelope(envelope.clone()), 0)
        {
            return Reply::Respond(refused);
        }
        match fjord_net::envelope::open(&envelope) {
            Ok((inner, inner_body, principal, address)) => {
                if !CONTROLLER_APIS.iter().any(|(k, min, max)| {
                    Some(*k) == inner.api_key
                        && (*min..=*max).contains(&inner.header.request_api_version)
                }) {
                    return Reply::Respond(envelope_error(
                        ErrorCode::InvalidRequest,
                        "the forwarded request is not served by the controller",
                    ));
                }
                let response = self
                    .authorized(&inner, inner_body, (principal.to_string(), address), &image)
                    .await;
                Reply::Respond(fjord_net::envelope::answer(&inner, &response))
            }
            Err((code, message)) => {
                tracing::debug!(%peer, "refusing an Envelope: {message}");
                Reply::Respond(envelope_error(code, &message))
            }
        }
    }
}

/// An Envelope refused as a whole.
fn envelope_error(code: ErrorCode, message: &str) -> ResponseBody {
    tracing::debug!("Envelope refused: {message}");
    ResponseBody::Envelope(EnvelopeResponse {
        error_code: code.code(),
        ..Default::default()
    })
}

impl ControllerHandler {
    fn access<'a>(
        &'a self,
        image: &'a fjord_metadata::MetadataImage,
        (principal, address): &(String, std::net::IpAddr),
    ) -> Access<'a> {
        Access::new(self.authorizer.as_deref(), image, principal, address)
    }

    /// Answers a request (direct, or opened from an Envelope) made by `who` as far as the ACLs
    /// allow it: whole, without the entities it may not touch (answered with their error), or
    /// refused.
    async fn authorized(
        &self,
        frame: &RequestFrame,
        body: RequestBody,
        who: (String, std::net::IpAddr),
        image: &fjord_metadata::MetadataImage,
    ) -> ResponseBody {
        let version = frame.header.request_api_version;
        let access = self.access(image, &who);
        let (body, denied) = match access.gate(body, version) {
            Gate::Open(b) => (b, Vec::new()),
            Gate::Partial(b, denied) => (b, denied),
            Gate::Deny(response) => return response,
        };
        let response = self.allowed(frame, body, &access, image).await;
        access.finish(response, &denied, version)
    }

    /// Answers a request the caller is allowed to make.
    async fn allowed(
        &self,
        frame: &RequestFrame,
        body: RequestBody,
        access: &Access<'_>,
        image: &fjord_metadata::MetadataImage,
    ) -> ResponseBody {
        let version = frame.header.request_api_version;
        if let RequestBody::DescribeAcls(r) = &body {
            return ResponseBody::DescribeAcls(fjord_broker::security_requests::describe_acls(
                image,
                r,
                access.enabled(),
            ));
        }
        if let RequestBody::DescribeCluster(r) = &body {
            // Unlike a broker, a controller describes the cluster only to principals allowed
            // ALTER on it (as Kafka's controller).
            if !access.cluster(fjord_metadata::acls::AclOperation::Alter) {
                return fjord_protocol::error_response(
                    &body,
                    version,
                    ErrorCode::ClusterAuthorizationFailed,
                    "DescribeCluster on a controller needs ALTER on the cluster",
                );
            }
            return self.describe_cluster(r.endpoint_type);
        }
        if let Some(r) = self.raft.handle_request(frame, &body).await {
            return r;
        }
        self.controller.handle(body, version).await
    }
}
