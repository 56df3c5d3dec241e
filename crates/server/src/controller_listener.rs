//! The controller listener: ApiVersions; the quorum's APIs (Vote, BeginQuorumEpoch,
//! EndQuorumEpoch, Fetch and FetchSnapshot of `__cluster_metadata`, DescribeQuorum,
//! AddRaftVoter, RemoveRaftVoter, UpdateRaftVoter), answered by the Raft driver; and the
//! controller's own APIs (registrations, heartbeats, topics, elections, configs, features,
//! unregistration), answered by the active controller (NOT_CONTROLLER elsewhere). What is
//! served, at which versions, and what each request needs the caller to be allowed is the
//! descriptor table's (`fjord_net::api`); anything else closes the connection, as Kafka does
//! for an API a listener does not serve. Envelopes are opened by the shared pipeline
//! (`fjord_net::pipeline`).

use fjord_kraft::driver::RaftHandle;
use fjord_metadata::authorization::ImageAcls;
use fjord_net::api::Listener;
use fjord_net::authorize::Access;
use fjord_net::pipeline::{serve_request, Service};
use fjord_net::serve::{Features, Handler, Reply};
use fjord_protocol::header::RequestFrame;
use fjord_protocol::{ErrorCode, RequestBody, ResponseBody};

/// Serves the controller listener.
#[derive(Debug)]
pub struct ControllerHandler {
    /// The Raft driver.
    pub raft: RaftHandle,
    /// This node's controller.
    pub controller: fjord_controller::active::LocalController,
    /// This node's view of the metadata (finalized features for ApiVersions, ACLs).
    pub view: tokio::sync::watch::Receiver<fjord_metadata::view::View>,
    /// The authorizer's settings; `None` when `authorizer.class.name` is not set.
    pub authorizer: Option<std::sync::Arc<fjord_metadata::acls::AuthorizerSettings>>,
    /// The broker whose heartbeats each open connection carried (bounded by the listener's
    /// connection limit): when one closes, the controller hears of it.
    pub heartbeats: std::sync::Mutex<std::collections::HashMap<u64, i32>>,
    /// The controller mutation quota's sensors (KIP-599).
    pub mutations: std::sync::Arc<fjord_controller::mutation_quota::MutationQuota>,
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
        serve_request(self, frame, caller).await
    }
}

impl Service for ControllerHandler {
    type Acls = ImageAcls;
    const LISTENER: Listener = Listener::Controller;

    fn features(&self) -> Features {
        fjord_broker::node_features(&self.view.borrow().image)
    }

    fn identity(&self) -> (String, i32) {
        (self.raft.cluster_id().to_string(), self.raft.node_id())
    }

    fn acls(&self) -> Option<ImageAcls> {
        // Only with an authorizer is the image looked at: nothing is asked of it otherwise.
        let settings = self.authorizer.as_ref()?;
        Some(ImageAcls::new(
            settings.clone(),
            (*self.view.borrow().image).clone(),
        ))
    }

    async fn handle(
        &self,
        body: RequestBody,
        frame: &RequestFrame,
        caller: &fjord_net::principal::Caller,
        access: &Access<'_>,
    ) -> Reply {
        let heartbeat = match &body {
            RequestBody::BrokerHeartbeat(r) => Some(r.broker_id),
            _ => None,
        };
        let response = self.allowed(frame, body, caller, access).await;
        // A heartbeat the active controller accepted on a connection of its own (not inside
        // an Envelope) ties its broker to that connection.
        if let (Some(id), ResponseBody::BrokerHeartbeat(r)) = (heartbeat, &response) {
            if r.error_code == 0 && caller.connection != 0 {
                self.heartbeats
                    .lock()
                    .expect("heartbeat connections")
                    .insert(caller.connection, id);
            }
        }
        Reply::Respond(response)
    }
}

impl ControllerHandler {
    /// Answers a request the caller is allowed to make.
    async fn allowed(
        &self,
        frame: &RequestFrame,
        body: RequestBody,
        caller: &fjord_net::principal::Caller,
        access: &Access<'_>,
    ) -> ResponseBody {
        let version = frame.header.request_api_version;
        if let RequestBody::DescribeAcls(r) = &body {
            let image = self.view.borrow().image.clone();
            return ResponseBody::DescribeAcls(fjord_broker::describe_acls(
                &image,
                r,
                access.enabled(),
            ));
        }
        // Unlike a broker, a controller describes the cluster only to principals allowed
        // ALTER on it (the descriptor's rule).
        if let RequestBody::DescribeCluster(r) = &body {
            return self.describe_cluster(r.endpoint_type);
        }
        if let Some(r) = self.raft.handle_request(frame, &body).await {
            return r;
        }
        // Delegation tokens: Kafka's checks, then the active controller decides on behalf of
        // the caller.
        if matches!(
            body,
            RequestBody::CreateDelegationToken(_)
                | RequestBody::RenewDelegationToken(_)
                | RequestBody::ExpireDelegationToken(_)
        ) {
            if let Some(refused) =
                fjord_broker::delegation_token_refusal(&body, version, caller, access)
            {
                return refused;
            }
            let principal = caller.principal.to_string();
            return self
                .controller
                .handle_as(body, version, Some(principal))
                .await;
        }
        // KIP-599: topic creations and deletions count against the caller's mutation quota.
        let mut body = body;
        let image = self.view.borrow().image.clone();
        let now = fjord_util::monotonic_ms();
        let admitted = self.mutations.admit(
            &image,
            &caller.principal.name,
            frame.header.client_id.as_deref().unwrap_or(""),
            &mut body,
            version,
            now,
        );
        let mut response = self.controller.handle(body, version).await;
        self.mutations
            .finish(admitted, &mut response, fjord_util::monotonic_ms());
        response
    }
}
