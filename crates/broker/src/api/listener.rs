//! The broker listener: ApiVersions, Metadata (leaders, ISR, offline replicas; topics created
//! on first use when `auto.create.topics.enable`) and DescribeCluster answered from this node's
//! metadata image; controller-bound admin requests (CreateTopics, DeleteTopics,
//! CreatePartitions, ElectLeaders, UnregisterBroker, UnregisterController, UpdateFeatures,
//! config changes, DescribeQuorum, AddRaftVoter, RemoveRaftVoter) forwarded to the active controller, so clients may send them to
//! any broker. Admission, authorization and forwarding follow the descriptor table
//! (`fjord_net::api`), run by the shared pipeline (`fjord_net::pipeline`).

use crate::cluster::controller_client::ControllerClient;
use crate::cluster::view::View;
use fjord_metadata::authorization::ImageAcls;
use fjord_net::api::Listener;
use fjord_net::authorize::Access;
use fjord_net::pipeline::{serve_request, Service};
use fjord_net::serve::{Features, Handler, Reply};
use fjord_protocol::generated::{
    create_topics_request::{CreatableTopic, CreateTopicsRequest},
    metadata_request::MetadataRequest,
};
use fjord_protocol::header::RequestFrame;
use fjord_protocol::{RequestBody, ResponseBody};
use std::collections::HashSet;
use std::net::SocketAddr;
use std::sync::{Arc, Mutex};

/// The most topic auto-creations under way at once on one broker; unknown topics beyond it
/// are created when a later Metadata request names them again.
pub const MAX_PENDING_AUTO_CREATIONS: usize = 1000;
use tokio::sync::watch;

/// The Envelope version brokers forward with.
const ENVELOPE_VERSION: i16 = 0;
/// How long a forwarded request is held while no controller can be reached (a quorum
/// failover takes well under this).
pub const FORWARD_WAIT: std::time::Duration = std::time::Duration::from_secs(5);

/// Serves a broker listener (one handler per listener, sharing everything but its name).
#[derive(Debug, Clone)]
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
    /// Topics whose auto-creation is under way.
    pub pending_creations: Arc<Mutex<HashSet<String>>>,
    /// The partitions this broker hosts.
    pub replicas: Arc<crate::replica::replica_manager::ReplicaManager>,
    /// The group coordinator.
    pub groups: Arc<crate::coordinator::group_coordinator::GroupCoordinator>,
    /// The transaction coordinator.
    pub transactions: Arc<crate::coordinator::txn_coordinator::TxnCoordinator>,
    /// The share coordinator (share-partitions' state).
    pub share_states: Arc<crate::share::coordinator::ShareCoordinator>,
    /// Share sessions and the share-partitions this broker leads (ShareFetch,
    /// ShareAcknowledge).
    pub share_fetcher: Arc<crate::share::fetch::ShareFetcher>,
    /// The transaction coordinator's link to other brokers: markers out, and the
    /// verification of transactional Produce (KIP-890).
    pub markers: Arc<crate::coordinator::txn_coordinator::MarkerWriter>,
    /// Producer ids for idempotent producers.
    pub producer_ids: Arc<crate::coordinator::producer_ids::ProducerIds>,
    /// This broker's static configuration (DescribeConfigs).
    pub static_config: Arc<crate::api::describe_configs::StaticConfig>,
    /// Fetch sessions.
    pub fetch_sessions: Arc<std::sync::Mutex<crate::data::fetch_session::SessionCache>>,
    /// This broker's standing with the controller (its broker epoch).
    pub broker_state: Arc<tokio::sync::Mutex<crate::cluster::lifecycle::BrokerState>>,
    /// The authorizer's settings; `None` when `authorizer.class.name` is not set.
    pub authorizer: Option<Arc<fjord_metadata::acls::AuthorizerSettings>>,
    /// Where requests read time and delayed ones sleep.
    pub clock: fjord_util::Clock,
    /// Client quota sensors (shared by the broker's listeners).
    pub quotas: Arc<crate::data::quotas::BrokerQuotas>,
    /// Client telemetry (KIP-714), shared by the broker's listeners.
    pub telemetry: Arc<crate::api::telemetry::ClientTelemetry>,
}

impl BrokerHandler {
    /// DescribeShareGroupOffsets, AlterShareGroupOffsets, DeleteShareGroupOffsets
    /// (UNSUPPORTED_VERSION while `share.version` is 0, as Kafka answers).
    async fn share_offsets(&self, body: &RequestBody, version: i16) -> ResponseBody {
        let image = self.view.borrow().image.clone();
        if !crate::api::groups::share_enabled(&image) {
            return fjord_protocol::error_response(
                body,
                version,
                fjord_protocol::ErrorCode::UnsupportedVersion,
                "The version of API is not supported.",
            );
        }
        let persister = self.share_fetcher.persister();
        let offsets = crate::share::offsets::ShareOffsets {
            groups: &self.groups,
            persister,
            peers: persister.peers(),
            replicas: &self.replicas,
            image,
        };
        match body {
            RequestBody::DescribeShareGroupOffsets(r) => {
                ResponseBody::DescribeShareGroupOffsets(offsets.describe(r, version).await)
            }
            RequestBody::AlterShareGroupOffsets(r) => {
                ResponseBody::AlterShareGroupOffsets(offsets.alter(r).await)
            }
            RequestBody::DeleteShareGroupOffsets(r) => {
                ResponseBody::DeleteShareGroupOffsets(offsets.delete(r).await)
            }
            other => fjord_protocol::error_response(
                other,
                version,
                fjord_protocol::ErrorCode::InvalidRequest,
                "not a share offsets request",
            ),
        }
    }

    fn metadata(&self, r: &MetadataRequest, version: i16) -> ResponseBody {
        let image = self.view.borrow().image.clone();
        let (mut response, to_create) = crate::api::metadata::metadata_response(
            &image,
            r,
            version,
            &self.cluster_id,
            &self.listener_name,
            self.auto_create_topics,
        );
        response.controller_id =
            crate::api::metadata::controller_id_for(&image, self.replicas.node_id());
        if !to_create.is_empty() {
            self.auto_create(to_create);
        }
        ResponseBody::Metadata(response)
    }

    /// Asks the controller, in the background, to create topics with the broker defaults
    /// (Kafka's auto-creation): each name at most once at a time, at most
    /// [`MAX_PENDING_AUTO_CREATIONS`] at once; the Metadata answer goes out at once with
    /// LEADER_NOT_AVAILABLE and the client asks again.
    fn auto_create(&self, names: Vec<String>) {
        let names: Vec<String> = {
            let mut pending = self
                .pending_creations
                .lock()
                .unwrap_or_else(|p| p.into_inner());
            names
                .into_iter()
                .filter(|n| pending.len() < MAX_PENDING_AUTO_CREATIONS && pending.insert(n.clone()))
                .collect()
        };
        if names.is_empty() {
            return;
        }
        let body = RequestBody::CreateTopics(CreateTopicsRequest {
            topics: names
                .iter()
                .map(|name| CreatableTopic {
                    name: name.clone(),
                    num_partitions: -1,
                    replication_factor: -1,
                    ..Default::default()
                })
                .collect(),
            timeout_ms: 30_000,
            ..Default::default()
        });
        let controller = self.controller.clone();
        let pending = self.pending_creations.clone();
        tokio::spawn(async move {
            if let Err(e) = controller.call(body, 7).await {
                tracing::warn!("auto-creating topics: {e}");
            }
            let mut pending = pending.lock().unwrap_or_else(|p| p.into_inner());
            for n in &names {
                pending.remove(n);
            }
        });
    }

    fn describe_cluster(
        &self,
        r: &fjord_protocol::generated::describe_cluster_request::DescribeClusterRequest,
        version: i16,
    ) -> ResponseBody {
        let image = self.view.borrow().image.clone();
        let mut response = crate::api::metadata::describe_cluster(
            &image,
            r,
            version,
            &self.cluster_id,
            &self.listener_name,
        );
        if response.error_code == 0 {
            response.controller_id =
                crate::api::metadata::controller_id_for(&image, self.replicas.node_id());
        }
        ResponseBody::DescribeCluster(response)
    }

    /// Forwards a controller-bound request in an Envelope carrying the caller's principal and
    /// address (the controller authorizes them, as Kafka's does); held for up to
    /// [`FORWARD_WAIT`] while no controller can be reached.
    async fn forward_to_controller(
        &self,
        body: RequestBody,
        frame: &RequestFrame,
        caller: &fjord_net::principal::Caller,
    ) -> ResponseBody {
        let version = frame.header.request_api_version;
        let api = body.api_key();
        let refuse =
            |code, message: &str| fjord_protocol::error_response(&body, version, code, message);
        let envelope = match fjord_net::envelope::wrap(&frame.header, &body, caller) {
            Ok(e) => e,
            Err(e) => return refuse(e.code(), &e.to_string()),
        };
        let held = self
            .controller
            .call_waiting(envelope, ENVELOPE_VERSION, FORWARD_WAIT)
            .await;
        match held {
            Ok(ResponseBody::Envelope(r)) => match fjord_net::envelope::unwrap(api, version, r) {
                Ok(response) => response,
                Err((code, message)) => refuse(code, &message),
            },
            Ok(other) => refuse(
                fjord_protocol::ErrorCode::UnknownServerError,
                &format!(
                    "the controller answered an Envelope with {:?}",
                    other.api_key()
                ),
            ),
            Err(e) => {
                tracing::debug!("forwarding {api:?}: {e}");
                refuse(e.code(), &e.to_string())
            }
        }
    }
}

/// The reply to a request whose handler ran: its response, or a closed connection (logged)
/// when the handler's task failed.
fn answer(
    result: Result<ResponseBody, crate::error::BrokerError>,
    peer: std::net::SocketAddr,
) -> Reply {
    match result {
        Ok(response) => Reply::Respond(response),
        Err(e) => {
            tracing::error!(%peer, "a request failed, closing its connection: {e}");
            Reply::Close
        }
    }
}

/// The first TxnOffsetCommit version of a transaction version 2 producer, whose group
/// partition the broker adds to the transaction (KIP-890 part 2).
const TXN_OFFSET_COMMIT_ADD_VERSION: i16 = 5;
/// The first TxnOffsetCommit version that knows TRANSACTION_ABORTABLE.
const TXN_OFFSET_COMMIT_ABORTABLE_VERSION: i16 = 4;

/// What a node advertises in ApiVersions: the features this build supports and the image's
/// finalized levels, as of the image's offset.
pub fn node_features(image: &fjord_metadata::MetadataImage) -> Features {
    Features {
        supported: fjord_metadata::version::supported_features(),
        finalized: image.features.finalized(),
        epoch: image.provenance.last_offset,
    }
}

/// The topics among `ids` the caller may not READ (an unknown id is left to the handler).
fn unreadable_topics(
    image: &fjord_metadata::MetadataImage,
    access: &Access<'_>,
    ids: impl Iterator<Item = fjord_protocol::Uuid>,
) -> std::collections::BTreeSet<fjord_protocol::Uuid> {
    ids.filter(|id| {
        image.topics.by_id.get(id).is_some_and(|t| {
            !access.allows(
                fjord_protocol::acl::AclOperation::Read,
                fjord_protocol::acl::ResourceType::Topic,
                &t.name,
            )
        })
    })
    .collect()
}

impl Handler for BrokerHandler {
    fn closed(&self, connection: u64) {
        self.quotas.forget(connection);
        self.share_fetcher.connection_closed(connection);
        self.telemetry.connection_closed(connection);
    }

    /// Serves the request; when the image has client quotas, its cost is recorded against
    /// the client's and the answer carries the throttle time it earned.
    async fn handle(&self, frame: RequestFrame, caller: fjord_net::principal::Caller) -> Reply {
        let image = self.view.borrow().image.clone();
        let Some(api) = frame.api_key.filter(|_| !image.quotas.by_entity.is_empty()) else {
            return serve_request(self, frame, caller).await;
        };
        let client = crate::data::quotas::Client {
            user: caller.principal.name.clone(),
            client_id: frame.header.client_id.clone().unwrap_or_default(),
        };
        let request_bytes = frame.body.len();
        let connection = caller.connection;
        let follower = api == fjord_protocol::ApiKey::Fetch
            && matches!(frame.decode_body(), Ok(RequestBody::Fetch(r))
                if r.replica_id >= 0 || r.replica_state.replica_id >= 0);
        let (reply, busy) = crate::data::quotas::timed(serve_request(self, frame, caller)).await;
        let response = match &reply {
            Reply::Respond(body) => Some(body),
            _ => None,
        };
        let throttle = self.quotas.throttle_ms(
            &image,
            connection,
            &client,
            api,
            request_bytes,
            response,
            follower,
            busy,
            self.clock.monotonic_ms(),
        );
        crate::data::quotas::throttled(reply, throttle)
    }
}

impl Service for BrokerHandler {
    type Acls = ImageAcls;
    const LISTENER: Listener = Listener::Broker;

    fn features(&self) -> Features {
        node_features(&self.view.borrow().image)
    }

    fn identity(&self) -> (String, i32) {
        (self.cluster_id.clone(), self.replicas.node_id())
    }

    fn acls(&self) -> Option<ImageAcls> {
        // Only with an authorizer is the image looked at: nothing is asked of it otherwise.
        let settings = self.authorizer.as_ref()?;
        Some(ImageAcls::new(
            settings.clone(),
            (*self.view.borrow().image).clone(),
        ))
    }

    /// Handles a request the caller is allowed to make (forwarded APIs never reach it).
    async fn handle(
        &self,
        body: RequestBody,
        frame: &RequestFrame,
        caller: &fjord_net::principal::Caller,
        access: &Access<'_>,
    ) -> Reply {
        let peer = caller.peer;
        let version = frame.header.request_api_version;
        let body = self.capped(body, frame, caller);
        let body = match self.log_request(body, version, peer).await {
            Ok(reply) => return reply,
            Err(body) => body,
        };
        if let RequestBody::GetReplicaLogInfo(r) = &body {
            let refused = access.replica_log_info_refusals(r);
            return self.replica_log_info(r.clone(), refused, peer).await;
        }
        let client = (frame.header.client_id.as_deref().unwrap_or(""), peer);
        let mut response = self
            .group_request(&body, version, client, caller, access)
            .await;
        if response.is_none() {
            response = self.txn_request(&body, version, client, access).await;
        }
        if response.is_none() {
            response = self
                .describe_request(&body, version, frame, caller, access)
                .await;
        }
        if let Some(response) = response {
            return Reply::Respond(response);
        }
        Reply::Respond(match &body {
            RequestBody::Metadata(r) => self.metadata(r, version),
            RequestBody::DescribeCluster(r) => self.describe_cluster(r, version),
            RequestBody::GetTelemetrySubscriptions(r) => {
                ResponseBody::GetTelemetrySubscriptions(self.telemetry.get_subscriptions(
                    &self.view.borrow().image.clone(),
                    r,
                    frame,
                    caller,
                    self.clock.monotonic_ms(),
                ))
            }
            RequestBody::PushTelemetry(r) => ResponseBody::PushTelemetry(self.telemetry.push(
                &self.view.borrow().image.clone(),
                r,
                frame,
                caller,
                self.clock.monotonic_ms(),
            )),
            _ => fjord_protocol::error_response(
                &body,
                version,
                fjord_protocol::ErrorCode::UnknownServerError,
                "no broker handler for this request",
            ),
        })
    }

    async fn forward(
        &self,
        body: RequestBody,
        frame: &RequestFrame,
        caller: &fjord_net::principal::Caller,
    ) -> ResponseBody {
        self.forward_to_controller(body, frame, caller).await
    }
}

impl BrokerHandler {
    /// TxnOffsetCommit's check with the transaction's coordinator (KIP-890): the group's
    /// offsets partition is in the producer's open transaction, or, for a transaction
    /// version 2 producer (v5, feature finalized), is added to it. `None` to go on, else the
    /// error every partition gets, as Kafka's group coordinator turns them (coordinator
    /// trouble is COORDINATOR_NOT_AVAILABLE, which the producer retries).
    async fn check_txn_offsets(
        &self,
        r: &fjord_protocol::generated::txn_offset_commit_request::TxnOffsetCommitRequest,
        version: i16,
    ) -> Option<(fjord_protocol::ErrorCode, String)> {
        use fjord_protocol::ErrorCode;
        let image = self.view.borrow().image.clone();
        let add = version >= TXN_OFFSET_COMMIT_ADD_VERSION
            && image.features.transaction_version() >= crate::data::produce::TRANSACTION_VERSION_2;
        if !add && !self.markers.verifies() {
            return None;
        }
        let partition = (
            crate::coordinator::group_coordinator::OFFSETS_TOPIC.to_string(),
            fjord_protocol::coordinator::partition_for(&r.group_id, self.groups.num_partitions()),
        );
        let check = crate::coordinator::txn_coordinator::Check {
            transactional_id: &r.transactional_id,
            producer_id: r.producer_id,
            producer_epoch: r.producer_epoch,
            add,
            abortable_known: version >= TXN_OFFSET_COMMIT_ABORTABLE_VERSION,
        };
        let code = self
            .markers
            .verify(&image, check, std::slice::from_ref(&partition))
            .await
            .into_iter()
            .next()
            .unwrap_or(ErrorCode::UnknownServerError);
        match code {
            ErrorCode::None => None,
            ErrorCode::NotEnoughReplicas => Some((
                ErrorCode::CoordinatorNotAvailable,
                "the transaction's coordinator could not confirm the group's partition is \
                 in the transaction"
                    .into(),
            )),
            code => Some((
                code,
                format!(
                    "the transaction's coordinator refused the group's partition: {}",
                    code.name()
                ),
            )),
        }
    }

    /// GetReplicaLogInfo, with the topics the caller may not ask about (judged per topic,
    /// since refusals count toward the per-request limit in request order).
    async fn replica_log_info(
        &self,
        r: fjord_protocol::generated::get_replica_log_info_request::GetReplicaLogInfoRequest,
        refused: std::collections::BTreeSet<fjord_protocol::Uuid>,
        peer: std::net::SocketAddr,
    ) -> Reply {
        let epoch = self.broker_state.lock().await.epoch.unwrap_or(-1);
        let (rm, image) = (self.replicas.clone(), self.view.borrow().image.clone());
        let answered = tokio::task::spawn_blocking(move || {
            crate::api::replica_log_info::replica_log_info(&rm, &image, epoch, r, &refused)
        })
        .await
        .map(ResponseBody::GetReplicaLogInfo)
        .map_err(crate::error::BrokerError::task(
            "a GetReplicaLogInfo request",
        ));
        answer(answered, peer)
    }

    /// The requests answered from this broker's logs (Produce, Fetch, ListOffsets,
    /// OffsetForLeaderEpoch, DeleteRecords, AlterReplicaLogDirs, DescribeLogDirs); any other
    /// request is given back.
    async fn log_request(
        &self,
        body: RequestBody,
        version: i16,
        peer: std::net::SocketAddr,
    ) -> Result<Reply, RequestBody> {
        let image = || self.view.borrow().image.clone();
        Ok(match body {
            RequestBody::Produce(r) => {
                let image = image();
                let verified = crate::data::produce::verify(
                    &self.replicas,
                    &self.markers,
                    &image,
                    &r,
                    version,
                )
                .await;
                let appended = crate::data::produce::append(
                    &self.replicas,
                    image,
                    &self.listener_name,
                    r,
                    version,
                    verified,
                    &self.clock,
                )
                .await;
                let answer = |a: Option<_>| match a {
                    Some(response) => Reply::Respond(ResponseBody::Produce(response)),
                    None => Reply::Nothing,
                };
                match appended {
                    // Answered once the in-sync replicas have it; the connection's next
                    // Produce requests are appended meanwhile.
                    Ok(a) if a.waits() => {
                        Reply::Later(Box::pin(async move { answer(a.committed().await) }))
                    }
                    Ok(a) => answer(a.committed().await),
                    Err(e) => {
                        tracing::error!(%peer, "a produce failed, closing its connection: {e}");
                        Reply::Close
                    }
                }
            }
            RequestBody::Fetch(r) => answer(
                crate::data::fetch::fetch(
                    &self.replicas,
                    &self.fetch_sessions,
                    image(),
                    &self.listener_name,
                    r,
                    version,
                    &self.clock,
                )
                .await
                .map(ResponseBody::Fetch),
                peer,
            ),
            RequestBody::ListOffsets(r) => answer(
                crate::api::offsets::list_offsets(&self.replicas, image(), r, version)
                    .await
                    .map(ResponseBody::ListOffsets),
                peer,
            ),
            RequestBody::OffsetForLeaderEpoch(r) => answer(
                crate::api::log_requests::offset_for_leader_epoch(
                    &self.replicas,
                    image(),
                    r,
                    version,
                )
                .await
                .map(ResponseBody::OffsetForLeaderEpoch),
                peer,
            ),
            RequestBody::DeleteRecords(r) => answer(
                crate::api::log_requests::delete_records(&self.replicas, image(), r)
                    .await
                    .map(ResponseBody::DeleteRecords),
                peer,
            ),
            RequestBody::AlterReplicaLogDirs(r) => {
                let (rm, image, r) = (self.replicas.clone(), image(), r.clone());
                let answered =
                    tokio::task::spawn_blocking(move || rm.alter_replica_log_dirs(&image, &r))
                        .await
                        .map(ResponseBody::AlterReplicaLogDirs)
                        .map_err(crate::error::BrokerError::task(
                            "an AlterReplicaLogDirs request",
                        ));
                answer(answered, peer)
            }
            RequestBody::DescribeLogDirs(r) => answer(
                crate::api::log_requests::describe_log_dirs(&self.replicas, r, version)
                    .await
                    .map(ResponseBody::DescribeLogDirs),
                peer,
            ),
            other => return Err(other),
        })
    }
}

/// Config resource types ListConfigResources lists (KIP-1142), in the order Kafka lists them.
const LISTED_CONFIG_TYPES: [i8; 5] = [GROUP, CLIENT_METRICS, BROKER_LOGGER, BROKER, TOPIC];
/// Config resource types: topic, broker, broker logger, client metrics, group.
const TOPIC: i8 = 2;
const BROKER: i8 = 4;
const BROKER_LOGGER: i8 = 8;
const CLIENT_METRICS: i8 = 16;
const GROUP: i8 = 32;

/// ListConfigResources (KIP-1142): every config resource of the asked types (all types when
/// none is asked; v0, ListClientMetricsResources, asks client metrics only): the groups and
/// client-metrics subscriptions with dynamic configs, each broker with an endpoint on
/// `listener` (as a broker and as a broker logger), and every topic, each type's names sorted.
/// A type Kafka does not list fails the request with UNSUPPORTED_VERSION.
pub fn list_config_resources(
    image: &fjord_metadata::MetadataImage,
    r: &fjord_protocol::generated::list_config_resources_request::ListConfigResourcesRequest,
    version: i16,
    listener: &str,
) -> fjord_protocol::generated::list_config_resources_response::ListConfigResourcesResponse {
    use fjord_protocol::generated::list_config_resources_response::{
        ConfigResource, ListConfigResourcesResponse,
    };
    if r.resource_types
        .iter()
        .any(|t| !LISTED_CONFIG_TYPES.contains(t))
    {
        return ListConfigResourcesResponse {
            error_code: fjord_protocol::ErrorCode::UnsupportedVersion.code(),
            ..Default::default()
        };
    }
    let wanted = |t: i8| match version {
        0 => t == CLIENT_METRICS,
        _ => r.resource_types.is_empty() || r.resource_types.contains(&t),
    };
    let brokers: Vec<String> = image
        .cluster
        .brokers
        .values()
        .filter(|b| b.listeners.iter().any(|l| l.name == listener))
        .map(|b| b.id.to_string())
        .collect();
    let mut config_resources = Vec::new();
    for t in LISTED_CONFIG_TYPES.into_iter().filter(|t| wanted(*t)) {
        // Brokers in id order; names in text order.
        let mut names: Vec<String> = match t {
            BROKER | BROKER_LOGGER => brokers.clone(),
            TOPIC => image.topics.by_name.keys().cloned().collect(),
            _ => image
                .configs
                .resources
                .keys()
                .filter(|(kind, _)| *kind == t)
                .map(|(_, name)| name.clone())
                .collect(),
        };
        if t != BROKER && t != BROKER_LOGGER {
            names.sort();
        }
        config_resources.extend(names.into_iter().map(|resource_name| ConfigResource {
            resource_name,
            resource_type: t,
            ..Default::default()
        }));
    }
    ListConfigResourcesResponse {
        config_resources,
        ..Default::default()
    }
}

impl BrokerHandler {
    /// A consumer Fetch with its `max_bytes` capped by the client's fetch quota.
    fn capped(
        &self,
        mut body: RequestBody,
        frame: &RequestFrame,
        caller: &fjord_net::principal::Caller,
    ) -> RequestBody {
        if let RequestBody::Fetch(r) = &mut body {
            let consumer = r.replica_id < 0 && r.replica_state.replica_id < 0;
            let client = || crate::data::quotas::Client {
                user: caller.principal.name.clone(),
                client_id: frame.header.client_id.clone().unwrap_or_default(),
            };
            if let Some(cap) = consumer
                .then(|| {
                    let image = self.view.borrow().image.clone();
                    self.quotas.fetch_cap(&image, caller.connection, &client())
                })
                .flatten()
            {
                r.max_bytes = r.max_bytes.min(cap);
            }
        }
        body
    }

    /// The group APIs' context for a request from `client` (its id and address).
    fn groups<'a>(&'a self, client: (&'a str, SocketAddr)) -> crate::api::groups::Groups<'a> {
        crate::api::groups::Groups {
            coordinator: &self.groups,
            transactions: &self.transactions,
            share_states: &self.share_states,
            image: self.view.borrow().image.clone(),
            listener: &self.listener_name,
            client,
        }
    }

    /// The answer to a group or share-group request (classic, KIP-848 and share groups,
    /// their offsets, share fetches); `None` for any other request.
    async fn group_request(
        &self,
        body: &RequestBody,
        version: i16,
        client: (&str, SocketAddr),
        caller: &fjord_net::principal::Caller,
        access: &Access<'_>,
    ) -> Option<ResponseBody> {
        let image = || self.view.borrow().image.clone();
        let groups = || self.groups(client);
        match body {
            RequestBody::FindCoordinator(r) => Some(ResponseBody::FindCoordinator(
                groups().find_coordinator(r, version),
            )),
            RequestBody::JoinGroup(r) => Some(groups().one_group(body, version, &r.group_id).await),
            RequestBody::ConsumerGroupHeartbeat(r) => Some(
                groups()
                    .consumer_heartbeat(body, version, &r.group_id)
                    .await,
            ),
            RequestBody::ShareGroupHeartbeat(r) => {
                Some(groups().share_heartbeat(body, version, &r.group_id).await)
            }
            RequestBody::StreamsGroupHeartbeat(r) => {
                Some(groups().streams_heartbeat(body, version, &r.group_id).await)
            }
            RequestBody::StreamsGroupDescribe(r) => Some(ResponseBody::StreamsGroupDescribe(
                groups().streams_group_describe(r).await,
            )),
            RequestBody::StreamsGroupTopologyDescriptionUpdate(r) => {
                Some(ResponseBody::StreamsGroupTopologyDescriptionUpdate(
                    groups().streams_topology_update(r).await,
                ))
            }
            RequestBody::ShareFetch(r) => {
                let denied =
                    unreadable_topics(&image(), access, r.topics.iter().map(|t| t.topic_id));
                Some(ResponseBody::ShareFetch(
                    self.share_fetcher
                        .share_fetch(r, version, caller.connection, &self.listener_name, &denied)
                        .await,
                ))
            }
            RequestBody::ShareAcknowledge(r) => {
                let denied =
                    unreadable_topics(&image(), access, r.topics.iter().map(|t| t.topic_id));
                Some(ResponseBody::ShareAcknowledge(
                    self.share_fetcher
                        .share_acknowledge(r, version, &denied)
                        .await,
                ))
            }
            RequestBody::DescribeShareGroupOffsets(_)
            | RequestBody::AlterShareGroupOffsets(_)
            | RequestBody::DeleteShareGroupOffsets(_) => {
                Some(self.share_offsets(body, version).await)
            }
            RequestBody::ShareGroupDescribe(r) => Some(ResponseBody::ShareGroupDescribe(
                groups().share_group_describe(r).await,
            )),
            RequestBody::ConsumerGroupDescribe(r) => Some(ResponseBody::ConsumerGroupDescribe(
                groups().consumer_group_describe(r).await,
            )),
            RequestBody::SyncGroup(r) => Some(groups().one_group(body, version, &r.group_id).await),
            RequestBody::Heartbeat(r) => Some(groups().one_group(body, version, &r.group_id).await),
            RequestBody::LeaveGroup(r) => {
                Some(groups().one_group(body, version, &r.group_id).await)
            }
            RequestBody::OffsetCommit(r) => {
                Some(groups().one_group(body, version, &r.group_id).await)
            }
            RequestBody::OffsetDelete(r) => {
                Some(groups().one_group(body, version, &r.group_id).await)
            }
            RequestBody::OffsetFetch(r) => Some(ResponseBody::OffsetFetch(
                groups().offset_fetch(r, version).await,
            )),
            RequestBody::DescribeGroups(r) => Some(ResponseBody::DescribeGroups(
                groups().describe_groups(&r.groups, version).await,
            )),
            RequestBody::ListGroups(r) => {
                Some(ResponseBody::ListGroups(groups().list_groups(r).await))
            }
            RequestBody::DeleteGroups(r) => Some(ResponseBody::DeleteGroups(
                groups().delete_groups(&r.groups_names, version).await,
            )),
            _ => None,
        }
    }

    /// The answer to a transaction request (producer ids, the transaction coordinator's
    /// APIs, markers) or a share-state request; `None` for any other request.
    async fn txn_request(
        &self,
        body: &RequestBody,
        version: i16,
        client: (&str, SocketAddr),
        access: &Access<'_>,
    ) -> Option<ResponseBody> {
        let image = || self.view.borrow().image.clone();
        let groups = || self.groups(client);
        let txns = || crate::api::transactions::Transactions {
            coordinator: &self.transactions,
            producer_ids: &self.producer_ids,
            image: image(),
            offsets_partitions: self.groups.num_partitions(),
        };
        match body {
            RequestBody::InitProducerId(r) if r.transactional_id.is_some() => Some(
                ResponseBody::InitProducerId(txns().init_producer_id(r, version).await),
            ),
            RequestBody::InitProducerId(r) => Some(ResponseBody::InitProducerId(
                self.producer_ids.init_producer_id(&image(), r).await,
            )),
            RequestBody::AddPartitionsToTxn(r) => Some(ResponseBody::AddPartitionsToTxn(
                txns().add_partitions(r, version).await,
            )),
            RequestBody::AddOffsetsToTxn(r) => Some(ResponseBody::AddOffsetsToTxn(
                txns().add_offsets(r, version).await,
            )),
            RequestBody::EndTxn(r) => Some(ResponseBody::EndTxn(txns().end_txn(r, version).await)),
            RequestBody::TxnOffsetCommit(r) => {
                Some(match self.check_txn_offsets(r, version).await {
                    Some((code, message)) => {
                        fjord_protocol::error_response(body, version, code, &message)
                    }
                    None => groups().one_group(body, version, &r.group_id).await,
                })
            }
            RequestBody::InitializeShareGroupState(_)
            | RequestBody::ReadShareGroupState(_)
            | RequestBody::WriteShareGroupState(_)
            | RequestBody::DeleteShareGroupState(_)
            | RequestBody::ReadShareGroupStateSummary(_) => {
                Some(self.share_states.handle(&image(), body).await)
            }
            RequestBody::WriteTxnMarkers(r) => Some(ResponseBody::WriteTxnMarkers(
                crate::api::txn_markers::write_txn_markers(
                    &self.replicas,
                    &self.groups,
                    &image(),
                    r.clone(),
                )
                .await,
            )),
            RequestBody::DescribeTransactions(r) => {
                Some(ResponseBody::DescribeTransactions(txns().describe(r).await))
            }
            RequestBody::ListTransactions(r) => {
                let visible = |id: &str| {
                    access.allows(
                        fjord_protocol::acl::AclOperation::Describe,
                        fjord_protocol::acl::ResourceType::TransactionalId,
                        id,
                    )
                };
                Some(ResponseBody::ListTransactions(
                    txns().list(r, version, visible).await,
                ))
            }
            _ => None,
        }
    }

    /// The answer to a describe request answered from the image or the logs (ACLs, SCRAM
    /// users, topics, producers, configs, quotas, config resources) or a delegation-token
    /// request; `None` for any other request.
    async fn describe_request(
        &self,
        body: &RequestBody,
        version: i16,
        frame: &RequestFrame,
        caller: &fjord_net::principal::Caller,
        access: &Access<'_>,
    ) -> Option<ResponseBody> {
        let image = || self.view.borrow().image.clone();
        match body {
            RequestBody::DescribeAcls(r) => Some(ResponseBody::DescribeAcls(
                crate::api::security_requests::describe_acls(
                    &image(),
                    r,
                    self.authorizer.is_some(),
                ),
            )),
            RequestBody::DescribeUserScramCredentials(r) => {
                Some(ResponseBody::DescribeUserScramCredentials(
                    crate::api::security_requests::describe_user_scram_credentials(&image(), r),
                ))
            }
            RequestBody::DescribeTopicPartitions(r) => Some(ResponseBody::DescribeTopicPartitions(
                crate::api::describe_topic_partitions::describe_topic_partitions(&image(), r),
            )),
            RequestBody::DescribeProducers(r) => Some(ResponseBody::DescribeProducers(
                crate::api::log_requests::describe_producers(&self.replicas, &image(), r),
            )),
            RequestBody::DescribeConfigs(r) => {
                let mut d = self.static_config.describe(&image(), r);
                fjord_metadata::config_docs::document(&mut d, r.include_documentation);
                Some(ResponseBody::DescribeConfigs(d))
            }
            RequestBody::DescribeClientQuotas(r) => Some(ResponseBody::DescribeClientQuotas(
                crate::api::client_quotas::describe_client_quotas(&image(), r),
            )),
            RequestBody::ListConfigResources(r) => Some(ResponseBody::ListConfigResources(
                list_config_resources(&image(), r, version, &self.listener_name),
            )),
            RequestBody::CreateDelegationToken(_)
            | RequestBody::RenewDelegationToken(_)
            | RequestBody::ExpireDelegationToken(_) => Some(
                match crate::api::delegation_tokens::refusal(body, version, caller, access) {
                    Some(refused) => refused,
                    None => {
                        self.forward_to_controller(body.clone(), frame, caller)
                            .await
                    }
                },
            ),
            RequestBody::DescribeDelegationToken(r) => Some(ResponseBody::DescribeDelegationToken(
                crate::api::delegation_tokens::describe(
                    &image(),
                    self.static_config
                        .values
                        .get(crate::api::delegation_tokens::SECRET_KEY)
                        .map(String::as_str)
                        .filter(|k| !k.is_empty()),
                    r,
                    caller,
                    access,
                ),
            )),
            _ => None,
        }
    }
}
