//! fjord's Kafka admin client, the house the operator tools live in: it bootstraps from brokers
//! or controllers, negotiates API versions per node (ApiVersions), keeps a view of the cluster
//! (Metadata and DescribeCluster), routes each request (any broker, a given broker, or the
//! controller), and retries retriable failures with exponential backoff within Kafka's
//! `request.timeout.ms` (per request) and `default.api.timeout.ms` (per operation).

mod cluster;
mod config;
mod error;
mod ops;
mod transactions;

pub use cluster::{host_port, BrokerInfo, ClusterInfo, PartitionInfo, TopicInfo};
pub use config::{AdminConfig, Bootstrap};
pub use error::AdminError;
pub use ops::{GroupOffsets, Reassignment, EARLIEST, LATEST};
pub use transactions::{TransactionListing, TransactionListings, TRANSACTIONAL_ID};

use fjord_net::client::{CallError, Client};
use fjord_protocol::generated::{
    api_versions_request::ApiVersionsRequest,
    describe_cluster_request::DescribeClusterRequest,
    describe_topic_partitions_request::{
        Cursor as RequestCursor, DescribeTopicPartitionsRequest, TopicRequest,
    },
    metadata_request::{MetadataRequest, MetadataRequestTopic},
};
use fjord_protocol::{ApiKey, ErrorCode, RequestBody, ResponseBody};
use std::collections::HashMap;
use std::future::Future;
use std::ops::RangeInclusive;
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::time::Instant;

/// Takes the expected variant out of a [`ResponseBody`], or fails with
/// [`AdminError::Protocol`].
#[macro_export]
macro_rules! expect_response {
    ($body:expr, $variant:ident) => {
        match $body {
            fjord_protocol::ResponseBody::$variant(r) => Ok(r),
            other => Err($crate::AdminError::Protocol(format!(
                "expected a {} response, got {:?}",
                stringify!($variant),
                other.api_key()
            ))),
        }
    };
}

/// The API versions a node supports, by API key.
type Versions = HashMap<i16, (i16, i16)>;

/// A connection and what its node supports.
#[derive(Clone)]
struct Node {
    client: Client,
    versions: Arc<Versions>,
}

/// The admin client.
pub struct Admin {
    config: AdminConfig,
    nodes: tokio::sync::Mutex<HashMap<String, Node>>,
    active_controller: Mutex<Option<String>>,
    cluster: Mutex<Option<Arc<ClusterInfo>>>,
}

impl Admin {
    /// A client with these settings; nothing is connected until the first call.
    pub fn new(config: AdminConfig) -> Admin {
        Admin {
            config,
            nodes: tokio::sync::Mutex::new(HashMap::new()),
            active_controller: Mutex::new(None),
            cluster: Mutex::new(None),
        }
    }

    /// The settings.
    pub fn config(&self) -> &AdminConfig {
        &self.config
    }

    /// True when the client bootstrapped from controllers.
    pub fn via_controllers(&self) -> bool {
        matches!(self.config.bootstrap, Bootstrap::Controllers(_))
    }

    async fn node(&self, addr: &str) -> Result<Node, AdminError> {
        let mut nodes = self.nodes.lock().await;
        if let Some(n) = nodes.get(addr) {
            if n.client.is_open() {
                return Ok(n.clone());
            }
            nodes.remove(addr);
        }
        let timeout = self.config.request_timeout;
        let client =
            Client::connect_with(addr, timeout, &self.config.client_id, &self.config.security)
                .await?;
        let r = client
            .call(
                RequestBody::ApiVersions(ApiVersionsRequest {
                    client_software_name: "fjord-admin".into(),
                    client_software_version: env!("CARGO_PKG_VERSION").into(),
                    ..Default::default()
                }),
                3,
                timeout,
            )
            .await?;
        let r = expect_response!(r, ApiVersions)?;
        if let Some(e) = AdminError::from_code(r.error_code, None) {
            return Err(e);
        }
        let versions = r
            .api_keys
            .iter()
            .map(|k| (k.api_key, (k.min_version, k.max_version)))
            .collect();
        let node = Node {
            client,
            versions: Arc::new(versions),
        };
        nodes.insert(addr.to_string(), node.clone());
        Ok(node)
    }

    /// The connection to `addr` and the version to send `api` at: the newest in `versions`
    /// the node supports.
    async fn negotiate(
        &self,
        addr: &str,
        api: ApiKey,
        versions: RangeInclusive<i16>,
    ) -> Result<(Node, i16), AdminError> {
        let node = self.node(addr).await?;
        let ours = (*versions.start(), (*versions.end()).min(api.max_version()));
        let unsupported = || AdminError::UnsupportedVersion {
            addr: addr.to_string(),
            api: format!("{api:?}"),
            min: ours.0,
            max: ours.1,
        };
        let (min, max) = *node.versions.get(&api.key()).ok_or_else(unsupported)?;
        let version = ours.1.min(max);
        if version < ours.0.max(min) {
            return Err(unsupported());
        }
        Ok((node, version))
    }

    /// Sends `body` once to `addr` at the newest version in `versions` that the node supports,
    /// waiting up to `request.timeout.ms`.
    pub async fn call_at(
        &self,
        addr: &str,
        body: RequestBody,
        versions: RangeInclusive<i16>,
    ) -> Result<ResponseBody, AdminError> {
        let (node, version) = self.negotiate(addr, body.api_key(), versions).await?;
        let r = node
            .client
            .call(body, version, self.config.request_timeout)
            .await;
        if let Err(CallError::Connection { .. }) = &r {
            self.nodes.lock().await.remove(addr);
        }
        Ok(r?)
    }

    /// Sends `body`, which the server does not answer (a produce with acks=0), once to broker
    /// `id`, and waits until it is written.
    pub async fn send_unanswered_to_broker(
        &self,
        id: i32,
        body: RequestBody,
        versions: RangeInclusive<i16>,
    ) -> Result<(), AdminError> {
        let addr = self.broker_addr(id).await?;
        let (node, version) = self.negotiate(&addr, body.api_key(), versions).await?;
        let r = node
            .client
            .send_unanswered(body, version, self.config.request_timeout)
            .await;
        if let Err(CallError::Connection { .. }) = &r {
            self.nodes.lock().await.remove(&addr);
        }
        Ok(r?)
    }

    /// The addresses to try for "any broker": the bootstrap list first, then the unfenced
    /// brokers last seen.
    fn broker_addrs(&self) -> Vec<String> {
        let mut addrs = match &self.config.bootstrap {
            Bootstrap::Servers(l) | Bootstrap::Controllers(l) => l.clone(),
        };
        if let Some(c) = self.cluster.lock().expect("cluster").as_ref() {
            for b in c.brokers.values().filter(|b| !b.fenced) {
                if !addrs.contains(&b.addr) {
                    addrs.push(b.addr.clone());
                }
            }
        }
        addrs
    }

    /// Sends `body` to the first bootstrap node (or known broker) that answers. A node that
    /// cannot be reached is skipped; any answer, error or not, is returned.
    pub async fn call_any(
        &self,
        body: RequestBody,
        versions: RangeInclusive<i16>,
    ) -> Result<ResponseBody, AdminError> {
        let mut last = AdminError::NoNode("no bootstrap address".into());
        for addr in self.broker_addrs() {
            match self.call_at(&addr, body.clone(), versions.clone()).await {
                Err(e @ AdminError::Call(_)) => last = e,
                r => return r,
            }
        }
        Err(last)
    }

    /// Broker `id`'s address from the last cluster view, refreshed once when unknown.
    async fn broker_addr(&self, id: i32) -> Result<String, AdminError> {
        let known = self
            .cluster
            .lock()
            .expect("cluster")
            .as_ref()
            .and_then(|c| c.brokers.get(&id).map(|b| b.addr.clone()));
        match known {
            Some(a) => Ok(a),
            None => self
                .refresh(None)
                .await?
                .brokers
                .get(&id)
                .map(|b| b.addr.clone())
                .ok_or_else(|| AdminError::NoNode(format!("broker {id} is not registered"))),
        }
    }

    /// Sends `body` to broker `id` (its address from the last cluster view, refreshed once
    /// when unknown).
    pub async fn call_broker(
        &self,
        id: i32,
        body: RequestBody,
        versions: RangeInclusive<i16>,
    ) -> Result<ResponseBody, AdminError> {
        let addr = self.broker_addr(id).await?;
        self.call_at(&addr, body, versions).await
    }

    /// Sends a controller-bound request: through any broker (which forwards it to the active
    /// controller) or, when bootstrapped from controllers, to the active controller itself.
    pub async fn call_controller(
        &self,
        body: RequestBody,
        versions: RangeInclusive<i16>,
    ) -> Result<ResponseBody, AdminError> {
        if !self.via_controllers() {
            return self.call_any(body, versions).await;
        }
        let addr = self.active_controller().await?;
        let r = self.call_at(&addr, body, versions).await;
        if r.is_err() {
            *self.active_controller.lock().expect("controller") = None;
        }
        r
    }

    /// The active controller's address, asked of the bootstrap controllers (DescribeCluster
    /// with the controller endpoint type, KIP-919).
    pub async fn active_controller(&self) -> Result<String, AdminError> {
        if let Some(a) = self.active_controller.lock().expect("controller").clone() {
            return Ok(a);
        }
        let r = self.describe_cluster(2, false).await?;
        let addr = r
            .brokers
            .iter()
            .find(|b| b.broker_id == r.controller_id)
            .map(|b| host_port(&b.host, b.port))
            .ok_or_else(|| AdminError::Kafka {
                code: ErrorCode::NotController,
                message: "the metadata quorum has no leader at the moment".into(),
            })?;
        *self.active_controller.lock().expect("controller") = Some(addr.clone());
        Ok(addr)
    }

    /// DescribeCluster at any bootstrap node: `endpoint_type` 1 for brokers, 2 for
    /// controllers.
    pub async fn describe_cluster(
        &self,
        endpoint_type: i8,
        include_fenced: bool,
    ) -> Result<
        fjord_protocol::generated::describe_cluster_response::DescribeClusterResponse,
        AdminError,
    > {
        let r = self
            .call_any(
                RequestBody::DescribeCluster(DescribeClusterRequest {
                    endpoint_type,
                    include_fenced_brokers: include_fenced,
                    ..Default::default()
                }),
                if endpoint_type == 1 && !include_fenced {
                    0
                } else {
                    1
                }..=2,
            )
            .await?;
        let r = expect_response!(r, DescribeCluster)?;
        if let Some(e) = AdminError::from_code(r.error_code, r.error_message.as_deref()) {
            return Err(e);
        }
        Ok(r)
    }

    /// ApiVersions (v3, with features) from any bootstrap node, or the active controller when
    /// bootstrapped from controllers: what `describeFeatures` reads.
    pub async fn describe_features(
        &self,
    ) -> Result<fjord_protocol::generated::api_versions_response::ApiVersionsResponse, AdminError>
    {
        let body = RequestBody::ApiVersions(ApiVersionsRequest {
            client_software_name: "fjord-admin".into(),
            client_software_version: env!("CARGO_PKG_VERSION").into(),
            ..Default::default()
        });
        let r = self.call_controller(body, 3..=4).await?;
        let r = expect_response!(r, ApiVersions)?;
        AdminError::check(r.error_code, None).map(|()| r)
    }

    /// The address of the coordinator of consumer group `group` (FindCoordinator v4+,
    /// KIP-699's coordinator keys, which every KRaft-era broker serves).
    pub async fn group_coordinator(&self, group: &str) -> Result<String, AdminError> {
        Ok(self.group_coordinator_node(group).await?.1)
    }

    /// The coordinator of consumer group `group`: its broker id and address.
    pub async fn group_coordinator_node(&self, group: &str) -> Result<(i32, String), AdminError> {
        self.coordinator_node(0, group).await
    }

    /// The coordinator of `key` of `key_type` (0: a group, 1: a transactional id): its broker
    /// id and address.
    pub async fn coordinator_node(
        &self,
        key_type: i8,
        key: &str,
    ) -> Result<(i32, String), AdminError> {
        let r = self
            .call_any(
                RequestBody::FindCoordinator(
                    fjord_protocol::generated::find_coordinator_request::FindCoordinatorRequest {
                        key_type,
                        coordinator_keys: vec![key.to_string()],
                        ..Default::default()
                    },
                ),
                4..=6,
            )
            .await?;
        let r = expect_response!(r, FindCoordinator)?;
        let c = r
            .coordinators
            .first()
            .ok_or_else(|| AdminError::Protocol("no coordinator in the answer".into()))?;
        if let Some(e) = AdminError::from_code(c.error_code, c.error_message.as_deref()) {
            return Err(e);
        }
        Ok((c.node_id, host_port(&c.host, c.port)))
    }

    /// The last cluster view, fetched if there is none.
    pub async fn cluster(&self) -> Result<Arc<ClusterInfo>, AdminError> {
        if let Some(c) = self.cluster.lock().expect("cluster").clone() {
            return Ok(c);
        }
        self.refresh(None).await
    }

    /// Fetches a new cluster view: Metadata (all topics, or `topics`) and DescribeCluster with
    /// fenced brokers, from any broker. Needs `--bootstrap-server`.
    pub async fn refresh(&self, topics: Option<&[String]>) -> Result<Arc<ClusterInfo>, AdminError> {
        if self.via_controllers() {
            return Err(AdminError::Config {
                key: "--bootstrap-controller".into(),
                value: String::new(),
                reason: "this operation needs topic metadata: use --bootstrap-server".into(),
            });
        }
        let r = self
            .call_any(
                RequestBody::Metadata(MetadataRequest {
                    topics: topics.map(|ts| {
                        ts.iter()
                            .map(|t| MetadataRequestTopic {
                                name: Some(t.clone()),
                                ..Default::default()
                            })
                            .collect()
                    }),
                    allow_auto_topic_creation: false,
                    ..Default::default()
                }),
                10..=12,
            )
            .await?;
        let r = expect_response!(r, Metadata)?;
        let mut info = ClusterInfo::from_metadata(&r);
        info.add_described(&self.describe_cluster(1, true).await?);
        self.add_elr(&mut info).await?;
        let info = Arc::new(info);
        *self.cluster.lock().expect("cluster") = Some(info.clone());
        Ok(info)
    }

    /// Fills in each partition's ELR and last known ELR with DescribeTopicPartitions, page by
    /// page, as Kafka's admin client describes topics; a broker without the API leaves them
    /// unknown (`None`), as Kafka's client then does.
    async fn add_elr(&self, info: &mut ClusterInfo) -> Result<(), AdminError> {
        if info.topics.is_empty() {
            return Ok(());
        }
        let topics: Vec<TopicRequest> = info
            .topics
            .keys()
            .map(|name| TopicRequest {
                name: name.clone(),
                ..Default::default()
            })
            .collect();
        let mut cursor = None;
        for _ in 0..=info
            .topics
            .values()
            .map(|t| t.partitions.len())
            .sum::<usize>()
        {
            let r = self
                .call_any(
                    RequestBody::DescribeTopicPartitions(DescribeTopicPartitionsRequest {
                        topics: topics.clone(),
                        response_partition_limit: DESCRIBE_PARTITIONS_PAGE,
                        cursor: cursor.take(),
                        ..Default::default()
                    }),
                    0..=0,
                )
                .await;
            let r = match r {
                Err(AdminError::UnsupportedVersion { .. }) => return Ok(()),
                r => expect_response!(r?, DescribeTopicPartitions)?,
            };
            info.add_partitions(&r);
            match r.next_cursor {
                Some(c) => {
                    cursor = Some(RequestCursor {
                        topic_name: c.topic_name,
                        partition_index: c.partition_index,
                        ..Default::default()
                    })
                }
                None => return Ok(()),
            }
        }
        Err(AdminError::Protocol(
            "DescribeTopicPartitions kept answering with a cursor".into(),
        ))
    }

    /// Runs `attempt` until it succeeds, fails with an error that is not retriable, or
    /// `default.api.timeout.ms` passes; waits `retry.backoff.ms`, doubling up to
    /// `retry.backoff.max.ms`, between attempts.
    pub async fn retry<T, F, Fut>(&self, attempt: F) -> Result<T, AdminError>
    where
        F: FnMut() -> Fut,
        Fut: Future<Output = Result<T, AdminError>>,
    {
        self.retry_until(Instant::now() + self.config.api_timeout, attempt)
            .await
    }

    /// [`Admin::retry`] with an explicit deadline.
    pub async fn retry_until<T, F, Fut>(
        &self,
        deadline: Instant,
        mut attempt: F,
    ) -> Result<T, AdminError>
    where
        F: FnMut() -> Fut,
        Fut: Future<Output = Result<T, AdminError>>,
    {
        let mut backoff = self.config.retry_backoff;
        let timeout_ms = deadline
            .saturating_duration_since(Instant::now())
            .as_millis() as u64;
        let expired = |last: AdminError| AdminError::Deadline {
            timeout_ms,
            last: Box::new(last),
        };
        loop {
            match tokio::time::timeout_at(deadline, attempt()).await {
                Ok(Ok(v)) => return Ok(v),
                Ok(Err(e)) if !e.is_retriable() => return Err(e),
                Ok(Err(e)) => {
                    if Instant::now() + backoff >= deadline {
                        return Err(expired(e));
                    }
                    tokio::time::sleep(backoff).await;
                    backoff = (backoff * 2).min(self.config.retry_backoff_max);
                    // A moved controller or leader: look again next time.
                    *self.cluster.lock().expect("cluster") = None;
                    *self.active_controller.lock().expect("controller") = None;
                }
                Err(_) => {
                    return Err(expired(AdminError::NoNode(
                        "the last attempt was still waiting for an answer".into(),
                    )))
                }
            }
        }
    }

    /// The request's schema range, for callers that accept any version this build knows.
    pub fn all_versions(api: ApiKey) -> RangeInclusive<i16> {
        api.min_version()..=api.max_version()
    }
}

/// Partitions asked per DescribeTopicPartitions page (Kafka's tool default).
pub const DESCRIBE_PARTITIONS_PAGE: i32 = 2000;

/// How long to wait before the next poll of a condition (used by tools that wait for the
/// cluster to reach a state).
pub const POLL_INTERVAL: Duration = Duration::from_millis(200);
