//! The share persister (Kafka's `DefaultStatePersister`): how a partition leader and the
//! group coordinator reach the share coordinator that keeps a share-partition's state. The
//! share-partition's key `group:topicId:partition` names its `__share_group_state`
//! partition; the call goes to that partition's leader (this broker's own share coordinator
//! directly, another broker over the inter-broker listener).
//!
//! Calls are batched as Kafka's persister batches them: each call joins its RPC's queue, and
//! [`Persister::run`] flushes every queue as it fills, sending one request per (coordinator
//! broker, group) with every share-partition queued for it (a share-partition at most once a
//! request, at most [`MAX_PARTITIONS_PER_REQUEST`]). A share-partition whose coordinator is
//! moving or loading (NOT_COORDINATOR, COORDINATOR_NOT_AVAILABLE,
//! COORDINATOR_LOAD_IN_PROGRESS, no answer) is queued again after a backoff until
//! [`RETRY_FOR`] has passed; any other error is its answer.

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
use std::collections::{BTreeMap, HashMap, HashSet};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::sync::{oneshot, watch, Notify};
use tokio::time::Instant;

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
/// The ReadShareGroupStateSummary version sent (v1: the delivery-complete count).
const SUMMARY_VERSION: i16 = 1;
/// The most share-partitions one state request carries; the rest wait for the next flush.
pub const MAX_PARTITIONS_PER_REQUEST: usize = 1_000;

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
    /// The error of `code` (an unknown code is UNKNOWN_SERVER_ERROR), with the coordinator's
    /// message or the code's name.
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

/// Reaches share coordinators.
#[derive(Debug)]
pub struct Persister {
    node_id: i32,
    share_states: Arc<ShareCoordinator>,
    peers: Arc<Peers>,
    view: watch::Receiver<View>,
    initialize: Queue<Initialize>,
    read: Queue<Read>,
    write: Queue<WriteState>,
    summary: Queue<Summary>,
    delete: Queue<Delete>,
    /// State requests sent (or handled locally) so far.
    requests: AtomicU64,
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

/// One queued call: its share-partition, what the request carries for it, when it stops
/// retrying, and where its answer goes.
struct Pending<R: StateRpc> {
    key: SharePartitionKey,
    item: R::Item,
    deadline: Instant,
    backoff: Duration,
    reply: oneshot::Sender<Result<R::Out, StateError>>,
}

/// An RPC's calls waiting for the next flush.
struct Queue<R: StateRpc> {
    pending: Mutex<Vec<Pending<R>>>,
    wake: Notify,
}

impl<R: StateRpc> Default for Queue<R> {
    fn default() -> Self {
        Queue {
            pending: Mutex::new(Vec::new()),
            wake: Notify::new(),
        }
    }
}

impl<R: StateRpc> std::fmt::Debug for Queue<R> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Queue")
            .field(
                "pending",
                &self.pending.lock().map(|p| p.len()).unwrap_or(0),
            )
            .finish()
    }
}

impl<R: StateRpc> Queue<R> {
    /// Queues `calls` (ahead of what is queued when `first`) and wakes the flusher.
    fn push(&self, calls: Vec<Pending<R>>, first: bool) {
        if calls.is_empty() {
            return;
        }
        let mut pending = self.pending.lock().expect("persister queue");
        if first {
            pending.splice(0..0, calls);
        } else {
            pending.extend(calls);
        }
        drop(pending);
        self.wake.notify_one();
    }
}

/// Each share-partition's answer in a state response.
type Answers<T> = HashMap<(Uuid, i32), Result<T, StateError>>;

/// One of the five share-group state RPCs, as the persister batches it.
trait StateRpc: Sized + Send + 'static {
    /// What the request carries for one share-partition.
    type Item: Send + Sync + 'static;
    /// What the caller gets back for one share-partition.
    type Out: Send + 'static;
    /// The version sent.
    const VERSION: i16;
    /// Its queue in the persister.
    fn queue(p: &Persister) -> &Queue<Self>;
    /// The request of `group` for these share-partitions (each once).
    fn request(group: String, items: BTreeMap<Uuid, Vec<(i32, &Self::Item)>>) -> RequestBody;
    /// Each share-partition's answer (`None`: not this RPC's response).
    fn answers(body: ResponseBody) -> Option<Answers<Self::Out>>;
}

/// Each partition's code and message, or `ok` of it, from a state response's results.
macro_rules! answers {
    ($results:expr, |$p:ident| $ok:expr) => {
        $results
            .into_iter()
            .flat_map(|t| {
                let topic = t.topic_id;
                t.partitions.into_iter().map(move |$p| {
                    let key = (topic, $p.partition);
                    if $p.error_code != 0 {
                        (key, Err(StateError::of($p.error_code, $p.error_message)))
                    } else {
                        (key, Ok($ok))
                    }
                })
            })
            .collect()
    };
}

/// InitializeShareGroupState: (state epoch, start offset).
struct Initialize;
impl StateRpc for Initialize {
    type Item = (i32, i64);
    type Out = ();
    const VERSION: i16 = 0;
    fn queue(p: &Persister) -> &Queue<Self> {
        &p.initialize
    }
    fn request(group_id: String, items: BTreeMap<Uuid, Vec<(i32, &(i32, i64))>>) -> RequestBody {
        RequestBody::InitializeShareGroupState(InitializeShareGroupStateRequest {
            group_id,
            topics: items
                .into_iter()
                .map(|(topic_id, ps)| init_req::InitializeStateData {
                    topic_id,
                    partitions: ps
                        .into_iter()
                        .map(
                            |(partition, &(state_epoch, start_offset))| init_req::PartitionData {
                                partition,
                                state_epoch,
                                start_offset,
                                ..Default::default()
                            },
                        )
                        .collect(),
                    ..Default::default()
                })
                .collect(),
            ..Default::default()
        })
    }
    fn answers(body: ResponseBody) -> Option<Answers<()>> {
        match body {
            ResponseBody::InitializeShareGroupState(r) => Some(answers!(r.results, |p| ())),
            _ => None,
        }
    }
}

/// ReadShareGroupState: the reading leader's epoch.
struct Read;
impl StateRpc for Read {
    type Item = i32;
    type Out = PersistedState;
    const VERSION: i16 = 0;
    fn queue(p: &Persister) -> &Queue<Self> {
        &p.read
    }
    fn request(group_id: String, items: BTreeMap<Uuid, Vec<(i32, &i32)>>) -> RequestBody {
        RequestBody::ReadShareGroupState(ReadShareGroupStateRequest {
            group_id,
            topics: items
                .into_iter()
                .map(|(topic_id, ps)| read_req::ReadStateData {
                    topic_id,
                    partitions: ps
                        .into_iter()
                        .map(|(partition, &leader_epoch)| read_req::PartitionData {
                            partition,
                            leader_epoch,
                            ..Default::default()
                        })
                        .collect(),
                    ..Default::default()
                })
                .collect(),
            ..Default::default()
        })
    }
    fn answers(body: ResponseBody) -> Option<Answers<PersistedState>> {
        match body {
            ResponseBody::ReadShareGroupState(r) => Some(answers!(r.results, |p| PersistedState {
                state_epoch: p.state_epoch,
                // The reader's epoch, filled in by `Persister::read`.
                leader_epoch: -1,
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
            })),
            _ => None,
        }
    }
}

/// WriteShareGroupState: one leader's write.
struct WriteState;
impl StateRpc for WriteState {
    type Item = Write;
    type Out = ();
    const VERSION: i16 = WRITE_VERSION;
    fn queue(p: &Persister) -> &Queue<Self> {
        &p.write
    }
    fn request(group_id: String, items: BTreeMap<Uuid, Vec<(i32, &Write)>>) -> RequestBody {
        RequestBody::WriteShareGroupState(WriteShareGroupStateRequest {
            group_id,
            topics: items
                .into_iter()
                .map(|(topic_id, ps)| write_req::WriteStateData {
                    topic_id,
                    partitions: ps
                        .into_iter()
                        .map(|(partition, w)| write_req::PartitionData {
                            partition,
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
                        })
                        .collect(),
                    ..Default::default()
                })
                .collect(),
            ..Default::default()
        })
    }
    fn answers(body: ResponseBody) -> Option<Answers<()>> {
        match body {
            ResponseBody::WriteShareGroupState(r) => Some(answers!(r.results, |p| ())),
            _ => None,
        }
    }
}

/// ReadShareGroupStateSummary.
struct Summary;
impl StateRpc for Summary {
    type Item = ();
    type Out = StateSummary;
    const VERSION: i16 = SUMMARY_VERSION;
    fn queue(p: &Persister) -> &Queue<Self> {
        &p.summary
    }
    fn request(group_id: String, items: BTreeMap<Uuid, Vec<(i32, &())>>) -> RequestBody {
        RequestBody::ReadShareGroupStateSummary(ReadShareGroupStateSummaryRequest {
            group_id,
            topics: items
                .into_iter()
                .map(|(topic_id, ps)| summary_req::ReadStateSummaryData {
                    topic_id,
                    partitions: ps
                        .into_iter()
                        .map(|(partition, _)| summary_req::PartitionData {
                            partition,
                            leader_epoch: -1,
                            ..Default::default()
                        })
                        .collect(),
                    ..Default::default()
                })
                .collect(),
            ..Default::default()
        })
    }
    fn answers(body: ResponseBody) -> Option<Answers<StateSummary>> {
        match body {
            ResponseBody::ReadShareGroupStateSummary(r) => {
                Some(answers!(r.results, |p| StateSummary {
                    state_epoch: p.state_epoch,
                    leader_epoch: p.leader_epoch,
                    start_offset: p.start_offset,
                    delivery_complete_count: p.delivery_complete_count,
                }))
            }
            _ => None,
        }
    }
}

/// DeleteShareGroupState.
struct Delete;
impl StateRpc for Delete {
    type Item = ();
    type Out = ();
    const VERSION: i16 = 0;
    fn queue(p: &Persister) -> &Queue<Self> {
        &p.delete
    }
    fn request(group_id: String, items: BTreeMap<Uuid, Vec<(i32, &())>>) -> RequestBody {
        RequestBody::DeleteShareGroupState(DeleteShareGroupStateRequest {
            group_id,
            topics: items
                .into_iter()
                .map(|(topic_id, ps)| delete_req::DeleteStateData {
                    topic_id,
                    partitions: ps
                        .into_iter()
                        .map(|(partition, _)| delete_req::PartitionData {
                            partition,
                            ..Default::default()
                        })
                        .collect(),
                    ..Default::default()
                })
                .collect(),
            ..Default::default()
        })
    }
    fn answers(body: ResponseBody) -> Option<Answers<()>> {
        match body {
            ResponseBody::DeleteShareGroupState(r) => Some(answers!(r.results, |p| ())),
            _ => None,
        }
    }
}

/// The calls of one flush bound for one (coordinator broker, group).
type Batches<R> = BTreeMap<(i32, String), Vec<Pending<R>>>;

impl Persister {
    /// A persister for this broker (`node_id`); its calls are answered once [`Persister::run`]
    /// runs.
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
            initialize: Queue::default(),
            read: Queue::default(),
            write: Queue::default(),
            summary: Queue::default(),
            delete: Queue::default(),
            requests: AtomicU64::new(0),
        }
    }

    /// The connections to other brokers it calls through.
    pub fn peers(&self) -> &Peers {
        &self.peers
    }

    /// State requests sent so far (to this broker's own coordinator or another's).
    pub fn requests_sent(&self) -> u64 {
        self.requests.load(Ordering::Relaxed)
    }

    fn image(&self) -> Arc<MetadataImage> {
        self.view.borrow().image.clone()
    }

    /// Flushes every RPC's queue as calls arrive; runs until the process ends.
    pub async fn run(self: Arc<Self>) -> std::convert::Infallible {
        tokio::join!(
            self.flush::<Initialize>(),
            self.flush::<Read>(),
            self.flush::<WriteState>(),
            self.flush::<Summary>(),
            self.flush::<Delete>(),
        )
        .0
    }

    /// Queues one call and waits for its answer.
    async fn call<R: StateRpc>(
        &self,
        key: &SharePartitionKey,
        item: R::Item,
    ) -> Result<R::Out, StateError> {
        let (reply, answer) = oneshot::channel();
        let call = Pending::<R> {
            key: key.clone(),
            item,
            deadline: Instant::now() + RETRY_FOR,
            backoff: FIRST_BACKOFF,
            reply,
        };
        R::queue(self).push(vec![call], false);
        answer.await.unwrap_or_else(|_| {
            Err(StateError {
                code: ErrorCode::UnknownServerError,
                message: "the share persister stopped".into(),
            })
        })
    }

    /// One RPC's flushes: what is queued is grouped by coordinator and group and sent, each
    /// request on its own task.
    async fn flush<R: StateRpc>(self: &Arc<Self>) -> std::convert::Infallible {
        let queue = R::queue(self);
        loop {
            queue.wake.notified().await;
            let taken = std::mem::take(&mut *queue.pending.lock().expect("persister queue"));
            let image = self.image();
            let (batches, later) = self.group(&image, taken);
            queue.push(later, true);
            for ((leader, group), calls) in batches {
                let (me, image) = (self.clone(), image.clone());
                tokio::spawn(async move { me.send::<R>(&image, leader, group, calls).await });
            }
        }
    }

    /// Groups calls by (coordinator broker, group): a share-partition at most once, at most
    /// [`MAX_PARTITIONS_PER_REQUEST`] each; the rest (in their order) wait for the next flush.
    /// A call whose coordinator is unknown is retried.
    fn group<R: StateRpc>(
        self: &Arc<Self>,
        image: &MetadataImage,
        calls: Vec<Pending<R>>,
    ) -> (Batches<R>, Vec<Pending<R>>) {
        let mut batches: Batches<R> = BTreeMap::new();
        let mut later = Vec::new();
        let mut seen = HashSet::new();
        for call in calls {
            let leader = match self.coordinator_of(image, &call.key) {
                Ok(leader) => leader,
                Err(code) => {
                    self.retry(call, StateError::of(code.code(), None));
                    continue;
                }
            };
            let batch = batches.entry((leader, call.key.group.clone())).or_default();
            if batch.len() >= MAX_PARTITIONS_PER_REQUEST || !seen.insert((leader, call.key.clone()))
            {
                later.push(call);
            } else {
                batch.push(call);
            }
        }
        (batches, later)
    }

    /// The broker leading the `__share_group_state` partition of `key`.
    fn coordinator_of(
        &self,
        image: &MetadataImage,
        key: &SharePartitionKey,
    ) -> Result<i32, ErrorCode> {
        let index = self.share_states.partition_for(&key.coordinator_key());
        let Some(topic) = image.topics.get_by_name(SHARE_STATE_TOPIC) else {
            self.share_states.create_topic();
            return Err(ErrorCode::CoordinatorNotAvailable);
        };
        match topic.partitions.get(&index).map_or(-1, |p| p.leader) {
            leader if leader < 0 => Err(ErrorCode::CoordinatorNotAvailable),
            leader => Ok(leader),
        }
    }

    /// Sends one request and hands each call its answer (retrying those told to ask again).
    async fn send<R: StateRpc>(
        self: Arc<Self>,
        image: &Arc<MetadataImage>,
        leader: i32,
        group: String,
        calls: Vec<Pending<R>>,
    ) {
        let mut items: BTreeMap<Uuid, Vec<(i32, &R::Item)>> = BTreeMap::new();
        for c in &calls {
            items
                .entry(c.key.topic_id)
                .or_default()
                .push((c.key.partition, &c.item));
        }
        let body = R::request(group, items);
        self.requests.fetch_add(1, Ordering::Relaxed);
        let answer = if leader == self.node_id {
            Some(self.share_states.handle(image, &body).await)
        } else {
            self.peers
                .call(image, leader, body, R::VERSION, CALL_TIMEOUT)
                .await
        };
        let mut answers = answer.map(R::answers);
        for call in calls {
            let result = match answers.as_mut() {
                // No answer: the coordinator may be moving.
                None => Err(StateError::of(
                    ErrorCode::CoordinatorNotAvailable.code(),
                    None,
                )),
                Some(None) => Err(StateError::of(ErrorCode::UnknownServerError.code(), None)),
                Some(Some(a)) => a
                    .remove(&(call.key.topic_id, call.key.partition))
                    .unwrap_or_else(|| {
                        Err(StateError::of(
                            ErrorCode::UnknownServerError.code(),
                            Some("the coordinator did not answer for the share-partition".into()),
                        ))
                    }),
            };
            match result {
                Err(e) if retriable(e.code) => self.retry(call, e),
                result => {
                    let _ = call.reply.send(result);
                }
            }
        }
    }

    /// Queues `call` again after its backoff (doubling up to [`MAX_BACKOFF`]), or answers it
    /// with `last` once [`RETRY_FOR`] would pass.
    fn retry<R: StateRpc>(self: &Arc<Self>, mut call: Pending<R>, last: StateError) {
        if Instant::now() + call.backoff > call.deadline {
            let _ = call.reply.send(Err(last));
            return;
        }
        let me = self.clone();
        tokio::spawn(async move {
            tokio::time::sleep(call.backoff).await;
            call.backoff = (call.backoff * 2).min(MAX_BACKOFF);
            R::queue(&me).push(vec![call], false);
        });
    }

    /// InitializeShareGroupState for one share-partition.
    pub async fn initialize(
        &self,
        key: &SharePartitionKey,
        state_epoch: i32,
        start_offset: i64,
    ) -> Result<(), StateError> {
        self.call::<Initialize>(key, (state_epoch, start_offset))
            .await
    }

    /// ReadShareGroupState for one share-partition by the leader at `leader_epoch`.
    pub async fn read(
        &self,
        key: &SharePartitionKey,
        leader_epoch: i32,
    ) -> Result<PersistedState, StateError> {
        let mut state = self.call::<Read>(key, leader_epoch).await?;
        state.leader_epoch = leader_epoch;
        Ok(state)
    }

    /// WriteShareGroupState of one leader's write.
    pub async fn write(&self, key: &SharePartitionKey, w: &Write) -> Result<(), StateError> {
        self.call::<WriteState>(key, w.clone()).await
    }

    /// ReadShareGroupStateSummary for one share-partition.
    pub async fn read_summary(&self, key: &SharePartitionKey) -> Result<StateSummary, StateError> {
        self.call::<Summary>(key, ()).await
    }

    /// DeleteShareGroupState for one share-partition.
    pub async fn delete(&self, key: &SharePartitionKey) -> Result<(), StateError> {
        self.call::<Delete>(key, ()).await
    }
}
