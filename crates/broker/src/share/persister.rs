//! The share persister (Kafka's `DefaultStatePersister`): how a partition leader and the
//! group coordinator reach the share coordinator that keeps a share-partition's state. The
//! share-partition's key `group:topicId:partition` names its `__share_group_state`
//! partition; the call goes to that partition's leader (this broker's own share coordinator
//! directly, another broker over the inter-broker listener). A coordinator that is moving or
//! loading (NOT_COORDINATOR, COORDINATOR_NOT_AVAILABLE, COORDINATOR_LOAD_IN_PROGRESS, no
//! answer) is asked again with a backoff until [`RETRY_FOR`] has passed; any other error is
//! the answer.

use crate::cluster::peers::Peers;
use crate::cluster::view::View;
use crate::share::coordinator::{ShareCoordinator, SHARE_STATE_TOPIC};
use fjord_metadata::MetadataImage;
use fjord_protocol::generated::{
    delete_share_group_state_request::{self as delete_req, DeleteShareGroupStateRequest},
    initialize_share_group_state_request::{self as init_req, InitializeShareGroupStateRequest},
    read_share_group_state_request::{self as read_req, ReadShareGroupStateRequest},
    read_share_group_state_summary_request::{
        self as summary_req, ReadShareGroupStateSummaryRequest,
    },
    write_share_group_state_request::{self as write_req, WriteShareGroupStateRequest},
};
use fjord_protocol::{ErrorCode, RequestBody, ResponseBody, Uuid};
use fjord_share::partition::Write;
use fjord_share::state::{PersistedState, StateBatch};
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::watch;

/// How long a state call keeps trying a coordinator that is moving or loading.
pub const RETRY_FOR: Duration = Duration::from_secs(15);
/// The first pause before a state call is tried again (doubling up to [`MAX_BACKOFF`]).
const FIRST_BACKOFF: Duration = Duration::from_millis(50);
/// The longest pause between tries.
const MAX_BACKOFF: Duration = Duration::from_secs(1);
/// How long one call to another broker may take.
const CALL_TIMEOUT: Duration = Duration::from_secs(30);
/// The WriteShareGroupState version sent (v1: the delivery-complete count, KIP-1226).
const WRITE_VERSION: i16 = 1;

/// A refused state call: Kafka's code and the coordinator's message.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{code:?}: {message}")]
pub struct StateError {
    /// The code.
    pub code: ErrorCode,
    /// The message.
    pub message: String,
}

impl StateError {
    fn of(code: i16, message: Option<String>) -> StateError {
        let code = ErrorCode::from_code(code).unwrap_or(ErrorCode::UnknownServerError);
        StateError {
            code,
            message: message.unwrap_or_else(|| format!("{code:?}")),
        }
    }
}

/// One share-partition, as the persister names it.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct SharePartitionKey {
    /// The group.
    pub group: String,
    /// The topic.
    pub topic_id: Uuid,
    /// The partition.
    pub partition: i32,
}

impl SharePartitionKey {
    /// Its coordinator key (`group:topicId:partition`).
    pub fn coordinator_key(&self) -> String {
        fjord_share::rpc::coordinator_key(&self.group, self.topic_id, self.partition)
    }
}

/// What ReadShareGroupStateSummary says of one share-partition.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct StateSummary {
    /// The state epoch.
    pub state_epoch: i32,
    /// The newest leader epoch that read or wrote it.
    pub leader_epoch: i32,
    /// The share-partition start offset (-1: not chosen yet).
    pub start_offset: i64,
    /// Offsets at or above the start that are done with (-1: unknown).
    pub delivery_complete_count: i32,
}

/// The ReadShareGroupStateSummary version sent (v1: the delivery-complete count).
const SUMMARY_VERSION: i16 = 1;

/// Reaches share coordinators.
#[derive(Debug)]
pub struct Persister {
    node_id: i32,
    share_states: Arc<ShareCoordinator>,
    peers: Arc<Peers>,
    view: watch::Receiver<View>,
}

/// Whether a code means "the coordinator is moving or loading: ask again".
fn retriable(code: ErrorCode) -> bool {
    matches!(
        code,
        ErrorCode::NotCoordinator
            | ErrorCode::CoordinatorNotAvailable
            | ErrorCode::CoordinatorLoadInProgress
    )
}

/// The (code, message) of the one partition a state answer holds.
macro_rules! only_partition {
    ($r:expr) => {
        $r.results
            .first()
            .and_then(|t| t.partitions.first())
            .map(|p| (p.error_code, p.error_message.clone()))
            .unwrap_or((ErrorCode::UnknownServerError.code(), None))
    };
}

impl Persister {
    /// A persister for this broker (`node_id`).
    pub fn new(
        node_id: i32,
        share_states: Arc<ShareCoordinator>,
        peers: Arc<Peers>,
        view: watch::Receiver<View>,
    ) -> Persister {
        Persister {
            node_id,
            share_states,
            peers,
            view,
        }
    }

    /// The connections to other brokers it calls through.
    pub fn peers(&self) -> &Peers {
        &self.peers
    }

    fn image(&self) -> Arc<MetadataImage> {
        self.view.borrow().image.clone()
    }

    /// One try: the answer of the coordinator of `key`, or the code that stopped it.
    async fn once(
        &self,
        key: &str,
        body: &RequestBody,
        version: i16,
    ) -> Result<ResponseBody, ErrorCode> {
        let image = self.image();
        let index = self.share_states.partition_for(key);
        let Some(topic) = image.topics.get_by_name(SHARE_STATE_TOPIC) else {
            self.share_states.create_topic();
            return Err(ErrorCode::CoordinatorNotAvailable);
        };
        let leader = topic.partitions.get(&index).map_or(-1, |p| p.leader);
        if leader < 0 {
            return Err(ErrorCode::CoordinatorNotAvailable);
        }
        if leader == self.node_id {
            return Ok(self.share_states.handle(&image, body).await);
        }
        self.peers
            .call(&image, leader, body.clone(), version, CALL_TIMEOUT)
            .await
            .ok_or(ErrorCode::CoordinatorNotAvailable)
    }

    /// Calls until the answer's one partition has a code that is not "ask again", or
    /// [`RETRY_FOR`] has passed; `code_of` reads that code from the answer.
    async fn call(
        &self,
        key: &SharePartitionKey,
        body: RequestBody,
        version: i16,
        code_of: impl Fn(&ResponseBody) -> (i16, Option<String>),
    ) -> Result<ResponseBody, StateError> {
        let key = key.coordinator_key();
        let deadline = tokio::time::Instant::now() + RETRY_FOR;
        let mut backoff = FIRST_BACKOFF;
        loop {
            let last = match self.once(&key, &body, version).await {
                Ok(answer) => {
                    let (code, message) = code_of(&answer);
                    if code == 0 {
                        return Ok(answer);
                    }
                    let e = StateError::of(code, message);
                    if !retriable(e.code) {
                        return Err(e);
                    }
                    e
                }
                Err(code) => StateError::of(code.code(), None),
            };
            if tokio::time::Instant::now() + backoff > deadline {
                return Err(last);
            }
            tokio::time::sleep(backoff).await;
            backoff = (backoff * 2).min(MAX_BACKOFF);
        }
    }

    /// InitializeShareGroupState for one share-partition.
    pub async fn initialize(
        &self,
        key: &SharePartitionKey,
        state_epoch: i32,
        start_offset: i64,
    ) -> Result<(), StateError> {
        let body = RequestBody::InitializeShareGroupState(InitializeShareGroupStateRequest {
            group_id: key.group.clone(),
            topics: vec![init_req::InitializeStateData {
                topic_id: key.topic_id,
                partitions: vec![init_req::PartitionData {
                    partition: key.partition,
                    state_epoch,
                    start_offset,
                    ..Default::default()
                }],
                ..Default::default()
            }],
            ..Default::default()
        });
        self.call(key, body, 0, |r| match r {
            ResponseBody::InitializeShareGroupState(r) => only_partition!(r),
            _ => (ErrorCode::UnknownServerError.code(), None),
        })
        .await
        .map(|_| ())
    }

    /// ReadShareGroupState for one share-partition by the leader at `leader_epoch`.
    pub async fn read(
        &self,
        key: &SharePartitionKey,
        leader_epoch: i32,
    ) -> Result<PersistedState, StateError> {
        let body = RequestBody::ReadShareGroupState(ReadShareGroupStateRequest {
            group_id: key.group.clone(),
            topics: vec![read_req::ReadStateData {
                topic_id: key.topic_id,
                partitions: vec![read_req::PartitionData {
                    partition: key.partition,
                    leader_epoch,
                    ..Default::default()
                }],
                ..Default::default()
            }],
            ..Default::default()
        });
        let answer = self
            .call(key, body, 0, |r| match r {
                ResponseBody::ReadShareGroupState(r) => only_partition!(r),
                _ => (ErrorCode::UnknownServerError.code(), None),
            })
            .await?;
        let ResponseBody::ReadShareGroupState(r) = answer else {
            unreachable!("checked by the call");
        };
        let p = &r.results[0].partitions[0];
        Ok(PersistedState {
            state_epoch: p.state_epoch,
            leader_epoch,
            start_offset: p.start_offset,
            batches: p
                .state_batches
                .iter()
                .map(|b| StateBatch {
                    first_offset: b.first_offset,
                    last_offset: b.last_offset,
                    delivery_state: b.delivery_state as u8,
                    delivery_count: b.delivery_count.max(0) as u16,
                })
                .collect(),
        })
    }

    /// WriteShareGroupState of one leader's write.
    pub async fn write(&self, key: &SharePartitionKey, w: &Write) -> Result<(), StateError> {
        let body = RequestBody::WriteShareGroupState(WriteShareGroupStateRequest {
            group_id: key.group.clone(),
            topics: vec![write_req::WriteStateData {
                topic_id: key.topic_id,
                partitions: vec![write_req::PartitionData {
                    partition: key.partition,
                    state_epoch: w.state_epoch,
                    leader_epoch: w.leader_epoch,
                    start_offset: w.start_offset,
                    delivery_complete_count: -1,
                    state_batches: w
                        .batches
                        .iter()
                        .map(|b| write_req::StateBatch {
                            first_offset: b.first_offset,
                            last_offset: b.last_offset,
                            delivery_state: b.delivery_state as i8,
                            delivery_count: b.delivery_count.min(i16::MAX as u16) as i16,
                            ..Default::default()
                        })
                        .collect(),
                    ..Default::default()
                }],
                ..Default::default()
            }],
            ..Default::default()
        });
        self.call(key, body, WRITE_VERSION, |r| match r {
            ResponseBody::WriteShareGroupState(r) => only_partition!(r),
            _ => (ErrorCode::UnknownServerError.code(), None),
        })
        .await
        .map(|_| ())
    }

    /// ReadShareGroupStateSummary for one share-partition.
    pub async fn read_summary(&self, key: &SharePartitionKey) -> Result<StateSummary, StateError> {
        let body = RequestBody::ReadShareGroupStateSummary(ReadShareGroupStateSummaryRequest {
            group_id: key.group.clone(),
            topics: vec![summary_req::ReadStateSummaryData {
                topic_id: key.topic_id,
                partitions: vec![summary_req::PartitionData {
                    partition: key.partition,
                    leader_epoch: -1,
                    ..Default::default()
                }],
                ..Default::default()
            }],
            ..Default::default()
        });
        let answer = self
            .call(key, body, SUMMARY_VERSION, |r| match r {
                ResponseBody::ReadShareGroupStateSummary(r) => only_partition!(r),
                _ => (ErrorCode::UnknownServerError.code(), None),
            })
            .await?;
        let ResponseBody::ReadShareGroupStateSummary(r) = answer else {
            unreachable!("checked by the call");
        };
        let p = &r.results[0].partitions[0];
        Ok(StateSummary {
            state_epoch: p.state_epoch,
            leader_epoch: p.leader_epoch,
            start_offset: p.start_offset,
            delivery_complete_count: p.delivery_complete_count,
        })
    }

    /// DeleteShareGroupState for one share-partition.
    pub async fn delete(&self, key: &SharePartitionKey) -> Result<(), StateError> {
        let body = RequestBody::DeleteShareGroupState(DeleteShareGroupStateRequest {
            group_id: key.group.clone(),
            topics: vec![delete_req::DeleteStateData {
                topic_id: key.topic_id,
                partitions: vec![delete_req::PartitionData {
                    partition: key.partition,
                    ..Default::default()
                }],
                ..Default::default()
            }],
            ..Default::default()
        });
        self.call(key, body, 0, |r| match r {
            ResponseBody::DeleteShareGroupState(r) => only_partition!(r),
            _ => (ErrorCode::UnknownServerError.code(), None),
        })
        .await
        .map(|_| ())
    }
}
