//! The transaction coordinator: the coordinator runtime ([`crate::coordinator::runtime`]) over
//! `__transaction_state` with one [`fjord_txn::Shard`] per led partition, and the marker
//! writer that carries out the shards' marker jobs. A job's markers go to each partition's
//! current leader (this broker's own partitions directly, the others in WriteTxnMarkers over
//! the inter-broker listener), are retried while leadership moves, and once every partition
//! has its marker the transaction completes with one more record.

use crate::cluster::controller_client::ControllerClient;
use crate::cluster::view::View;
use crate::coordinator::group_coordinator::GroupCoordinator;
use crate::coordinator::runtime::{
    CoordinatorShard, Entry, Replayed, Runtime, Split, TopicSettings,
};
use crate::replica::replica_manager::ReplicaManager;
use fjord_configdef::topic;
use fjord_metadata::MetadataImage;
use fjord_net::client::Client;
use fjord_protocol::generated::add_partitions_to_txn_request::{
    AddPartitionsToTxnRequest, AddPartitionsToTxnTopic, AddPartitionsToTxnTransaction,
};
use fjord_protocol::generated::write_txn_markers_request::{
    WritableTxnMarker, WritableTxnMarkerTopic, WriteTxnMarkersRequest,
};
use fjord_protocol::generated::write_txn_markers_response::WriteTxnMarkersResponse;
use fjord_protocol::{ErrorCode, RequestBody, ResponseBody};
use fjord_txn::{MarkerJob, Output, Shard, TxnConfig, TxnRecord};
use std::collections::{BTreeMap, HashMap};
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::{mpsc, watch};

/// The topic that holds transactional ids' state.
pub const TRANSACTION_TOPIC: &str = "__transaction_state";
/// The WriteTxnMarkers version the marker writer sends (v2 names the transaction version).
const MARKERS_VERSION: i16 = 2;
/// The AddPartitionsToTxn version brokers verify and add with (batched, with VerifyOnly, and
/// TRANSACTION_ABORTABLE; an add at v5 is for a transaction version 2 producer).
const VERIFY_VERSION: i16 = crate::api::transactions::ADD_FOR_VERSION_2;
/// How long one WriteTxnMarkers call may take.
const MARKERS_TIMEOUT: Duration = Duration::from_secs(35);
/// The pause before markers that could not be written are tried again (leadership moving).
const RETRY_BACKOFF: Duration = Duration::from_millis(100);

/// The coordinator's settings beyond the state machine's.
#[derive(Debug, Clone)]
pub struct TxnCoordinatorConfig {
    /// The state machine's.
    pub txn: TxnConfig,
    /// `transaction.state.log.num.partitions`.
    pub num_partitions: i32,
    /// `transaction.state.log.replication.factor`.
    pub replication_factor: i16,
    /// `transaction.state.log.min.isr`.
    pub min_isr: i32,
    /// `transaction.state.log.segment.bytes`.
    pub segment_bytes: i64,
    /// `transaction.partition.verification.enable` (KIP-890): a transactional Produce that
    /// starts a transaction in a partition is checked with the coordinator first.
    pub partition_verification: bool,
}

impl CoordinatorShard for Shard {
    type Config = TxnConfig;
    type Output = Output;
    type Effect = MarkerJob;
    const TOPIC: &'static str = TRANSACTION_TOPIC;

    fn create(config: &TxnConfig, _seed: u64, epoch: i32) -> Shard {
        Shard::new(config.clone(), epoch)
    }

    fn replay(&mut self, entry: Replayed<'_>, _now: i64) -> Result<(), String> {
        if let Replayed::Record { key, value, .. } = entry {
            if let Some(r) = TxnRecord::decode(key, value).map_err(|e| e.to_string())? {
                Shard::replay(self, r);
            }
        }
        Ok(())
    }

    fn loaded(&mut self, now: i64) -> Output {
        Shard::loaded(self, now)
    }

    fn next_deadline(&self) -> Option<i64> {
        Shard::next_deadline(self)
    }

    fn tick(&mut self, now: i64) -> Output {
        Shard::tick(self, now)
    }

    fn split(out: Output) -> Split<MarkerJob> {
        Split {
            entries: out
                .records
                .iter()
                .map(|r| {
                    let (key, value) = r.encode();
                    Entry::Record {
                        producer: None,
                        key,
                        value,
                    }
                })
                .collect(),
            replies: Vec::new(),
            effects: out.markers,
        }
    }

    fn size(&self) -> usize {
        self.all().count()
    }
}

/// The transaction coordinator of this broker.
pub type TxnCoordinator = Runtime<Shard>;

/// A producer as a transaction request names it: transactional id, producer id and epoch.
pub type TxnProducer<'a> = (&'a str, i64, i16);

/// TRANSACTION_ABORTABLE as a client that does not know it reads it (AddPartitionsToTxn
/// before v4, Produce before v11, TxnOffsetCommit before v4): INVALID_TXN_STATE.
pub fn abortable_for(code: ErrorCode, abortable_known: bool) -> ErrorCode {
    match code {
        ErrorCode::TransactionAbortable if !abortable_known => ErrorCode::InvalidTxnState,
        code => code,
    }
}

impl Runtime<Shard> {
    /// Adds `partitions` to the producer's transaction on this broker's own shard
    /// (`client_version` 2 for a transaction version 2 producer); the one code for them all.
    pub async fn add_here(
        self: &Arc<Self>,
        image: &Arc<MetadataImage>,
        (id, pid, epoch): TxnProducer<'_>,
        partitions: &[(String, i32)],
        client_version: i16,
    ) -> ErrorCode {
        self.apply(image, id, |s, now| {
            s.add_partitions(id, pid, epoch, partitions, client_version, now)
        })
        .await
        .and_then(|r| r)
        .err()
        .unwrap_or(ErrorCode::None)
    }

    /// Whether each of `partitions` is in the producer's open transaction, asked of this
    /// broker's own shard (from committed records only: the answer lets data in).
    pub async fn verify_here(
        self: &Arc<Self>,
        image: &Arc<MetadataImage>,
        (id, pid, epoch): TxnProducer<'_>,
        partitions: &[(String, i32)],
    ) -> Vec<ErrorCode> {
        self.read_committed(image, id, |s| {
            partitions
                .iter()
                .map(|p| s.verify(id, pid, epoch, p))
                .collect::<Vec<_>>()
        })
        .await
        .unwrap_or_else(|code| vec![code; partitions.len()])
    }

    /// The transaction coordinator over this broker's partitions, and its marker jobs.
    pub fn transactions(
        config: TxnCoordinatorConfig,
        replicas: Arc<ReplicaManager>,
        controller: Arc<ControllerClient>,
        clock: fjord_util::Clock,
    ) -> (Arc<TxnCoordinator>, mpsc::UnboundedReceiver<MarkerJob>) {
        let topic = TopicSettings {
            partitions: config.num_partitions,
            replication_factor: config.replication_factor,
            configs: vec![
                (topic::CLEANUP_POLICY.name.into(), "compact".into()),
                (topic::COMPRESSION_TYPE.name.into(), "uncompressed".into()),
                (
                    topic::MIN_INSYNC_REPLICAS.name.into(),
                    config.min_isr.to_string(),
                ),
                (
                    topic::SEGMENT_BYTES.name.into(),
                    config.segment_bytes.to_string(),
                ),
                (
                    topic::UNCLEAN_LEADER_ELECTION_ENABLE.name.into(),
                    "false".into(),
                ),
            ],
        };
        Runtime::new(config.txn, topic, replicas, controller, clock)
    }
}

/// Carries out marker jobs.
pub struct MarkerWriter {
    /// The coordinator the jobs complete in.
    pub coordinator: Arc<TxnCoordinator>,
    /// This broker's partitions (markers for partitions it leads are written directly).
    pub replicas: Arc<ReplicaManager>,
    /// The group coordinator (markers for `__consumer_offsets`).
    pub groups: Arc<GroupCoordinator>,
    /// The metadata view (who leads what).
    pub view: watch::Receiver<View>,
    /// Connections to other brokers on the inter-broker listener.
    pub peers: Arc<crate::cluster::peers::Peers>,
    /// `transaction.partition.verification.enable`.
    verification: bool,
}

impl std::fmt::Debug for MarkerWriter {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("MarkerWriter")
            .field("listener", &self.peers.listener)
            .finish_non_exhaustive()
    }
}

impl MarkerWriter {
    /// A writer.
    pub fn new(
        coordinator: Arc<TxnCoordinator>,
        replicas: Arc<ReplicaManager>,
        groups: Arc<GroupCoordinator>,
        view: watch::Receiver<View>,
        peers: Arc<crate::cluster::peers::Peers>,
        verification: bool,
    ) -> Arc<MarkerWriter> {
        Arc::new(MarkerWriter {
            coordinator,
            replicas,
            groups,
            view,
            peers,
            verification,
        })
    }

    /// Runs every job that comes, each in a task of its own, until the coordinator is gone.
    pub async fn run(self: Arc<Self>, mut jobs: mpsc::UnboundedReceiver<MarkerJob>) -> String {
        while let Some(job) = jobs.recv().await {
            tokio::spawn(self.clone().complete(job));
        }
        "the transaction coordinator stopped".into()
    }

    /// Writes a job's markers until every partition has one (or the job is abandoned: a
    /// newer producer epoch or coordinator already wrote past it), then completes it.
    async fn complete(self: Arc<Self>, job: MarkerJob) {
        let mut remaining = job.partitions.clone();
        loop {
            let image = self.view.borrow().image.clone();
            // A partition whose topic is gone needs no marker.
            remaining.retain(|(topic, index)| {
                image
                    .topics
                    .get_by_name(topic)
                    .is_some_and(|t| t.partitions.contains_key(index))
            });
            let mut by_leader: BTreeMap<i32, Vec<(String, i32)>> = BTreeMap::new();
            let mut leaderless = Vec::new();
            for (topic, index) in remaining.drain(..) {
                let leader = image
                    .topics
                    .get_by_name(&topic)
                    .and_then(|t| t.partitions.get(&index))
                    .map_or(-1, |p| p.leader);
                if leader >= 0 {
                    by_leader.entry(leader).or_default().push((topic, index));
                } else {
                    leaderless.push((topic, index));
                }
            }
            remaining = leaderless;
            for (leader, partitions) in by_leader {
                let request = request_for(&job, &partitions);
                let answer = self.send(&image, leader, request).await;
                match outcome(answer, &partitions) {
                    Outcome::Abandon(code) => {
                        tracing::warn!(
                            transactional_id = %job.transactional_id,
                            producer_id = job.producer_id,
                            "transaction markers abandoned: {}",
                            code.name()
                        );
                        return;
                    }
                    Outcome::Retry(again) => remaining.extend(again),
                }
            }
            if remaining.is_empty() {
                break;
            }
            tokio::time::sleep(RETRY_BACKOFF).await;
        }
        let image = self.view.borrow().image.clone();
        let done = self
            .coordinator
            .apply(&image, &job.transactional_id, |s, now| {
                (s.markers_written(&job, now), ())
            })
            .await;
        if let Err(code) = done {
            // The coordinator moved: the new one resends the markers and completes it.
            tracing::debug!(
                transactional_id = %job.transactional_id,
                "completing a transaction: {}",
                code.name()
            );
        }
    }

    /// Sends one WriteTxnMarkers to `leader` (this broker's own partitions directly).
    async fn send(
        &self,
        image: &Arc<MetadataImage>,
        leader: i32,
        request: WriteTxnMarkersRequest,
    ) -> Option<WriteTxnMarkersResponse> {
        if leader == self.replicas.node_id() {
            return Some(
                crate::api::txn_markers::write_txn_markers(
                    &self.replicas,
                    &self.groups,
                    image,
                    request,
                )
                .await,
            );
        }
        let client = self.client(image, leader).await?;
        match client
            .call(
                RequestBody::WriteTxnMarkers(request),
                MARKERS_VERSION,
                MARKERS_TIMEOUT,
            )
            .await
        {
            Ok(ResponseBody::WriteTxnMarkers(r)) => Some(r),
            Ok(_) => None,
            Err(e) => {
                tracing::debug!(leader, "sending transaction markers: {e}");
                self.peers.forget(leader).await;
                None
            }
        }
    }

    /// Asks the coordinator of transactional id `id` whether each of `partitions` is in the
    /// open transaction of producer `pid` at `epoch` (AddPartitionsToTxn with VerifyOnly,
    /// KIP-890; this broker's own shard directly), or with `check.add` (a transaction
    /// version 2 producer) to add them. The answer per partition is what the request
    /// writing to it gets: NONE to append; as Kafka's AddPartitionsToTxnManager maps them,
    /// coordinator trouble (moving, loading, unreachable, a transaction completing) becomes
    /// NOT_ENOUGH_REPLICAS, which producers retry, a producer fenced there gets
    /// INVALID_PRODUCER_EPOCH, and a partition not in the transaction TRANSACTION_ABORTABLE,
    /// or INVALID_TXN_STATE for a client too old to know it.
    pub async fn verify(
        &self,
        image: &Arc<MetadataImage>,
        check: Check<'_>,
        partitions: &[(String, i32)],
    ) -> Vec<ErrorCode> {
        let codes = self.ask_coordinator(image, check, partitions).await;
        codes
            .into_iter()
            .map(|code| match code {
                ErrorCode::None | ErrorCode::InvalidTxnState => code,
                ErrorCode::TransactionAbortable => abortable_for(code, check.abortable_known),
                ErrorCode::ProducerFenced | ErrorCode::InvalidProducerEpoch => {
                    ErrorCode::InvalidProducerEpoch
                }
                ErrorCode::InvalidProducerIdMapping
                | ErrorCode::TransactionalIdAuthorizationFailed
                | ErrorCode::UnknownTopicOrPartition => code,
                _ => ErrorCode::NotEnoughReplicas,
            })
            .collect()
    }

    /// The coordinator's own answer for each partition ([`MarkerWriter::verify`]).
    async fn ask_coordinator(
        &self,
        image: &Arc<MetadataImage>,
        check: Check<'_>,
        partitions: &[(String, i32)],
    ) -> Vec<ErrorCode> {
        let Check {
            transactional_id: id,
            producer_id: pid,
            producer_epoch: epoch,
            add,
            ..
        } = check;
        let index = self.coordinator.partition_for(id);
        let coordinator = image
            .topics
            .get_by_name(TRANSACTION_TOPIC)
            .and_then(|t| t.partitions.get(&index))
            .map_or(-1, |p| p.leader);
        if coordinator < 0 {
            return vec![ErrorCode::CoordinatorNotAvailable; partitions.len()];
        }
        if coordinator == self.replicas.node_id() && add {
            let code = self
                .coordinator
                .add_here(image, (id, pid, epoch), partitions, 2)
                .await;
            return vec![code; partitions.len()];
        }
        if coordinator == self.replicas.node_id() {
            return self
                .coordinator
                .verify_here(image, (id, pid, epoch), partitions)
                .await;
        }
        let topics: Vec<AddPartitionsToTxnTopic> = by_topic(partitions)
            .into_iter()
            .map(|(name, partitions)| AddPartitionsToTxnTopic {
                name,
                partitions,
                ..Default::default()
            })
            .collect();
        let request = AddPartitionsToTxnRequest {
            transactions: vec![AddPartitionsToTxnTransaction {
                transactional_id: id.to_string(),
                producer_id: pid,
                producer_epoch: epoch,
                verify_only: !add,
                topics,
                ..Default::default()
            }],
            ..Default::default()
        };
        let unreachable = || vec![ErrorCode::CoordinatorNotAvailable; partitions.len()];
        let Some(client) = self.client(image, coordinator).await else {
            return unreachable();
        };
        let answer = client
            .call(
                RequestBody::AddPartitionsToTxn(request),
                VERIFY_VERSION,
                MARKERS_TIMEOUT,
            )
            .await;
        let r = match answer {
            Ok(ResponseBody::AddPartitionsToTxn(r)) => r,
            Ok(_) => return unreachable(),
            Err(e) => {
                tracing::debug!(coordinator, "verifying a transaction: {e}");
                self.peers.forget(coordinator).await;
                return unreachable();
            }
        };
        if r.error_code != 0 {
            let code = ErrorCode::from_code(r.error_code).unwrap_or(ErrorCode::UnknownServerError);
            return vec![code; partitions.len()];
        }
        let results: HashMap<(String, i32), i16> = r
            .results_by_transaction
            .into_iter()
            .flat_map(|t| t.topic_results)
            .flat_map(|t| {
                let name = t.name;
                t.results_by_partition
                    .into_iter()
                    .map(move |p| ((name.clone(), p.partition_index), p.partition_error_code))
            })
            .collect();
        partitions
            .iter()
            .map(|p| {
                results
                    .get(p)
                    .and_then(|c| ErrorCode::from_code(*c))
                    .unwrap_or(ErrorCode::UnknownServerError)
            })
            .collect()
    }

    /// Whether transactional Produce is verified (`transaction.partition.verification.enable`).
    pub fn verifies(&self) -> bool {
        self.verification
    }

    /// A connection to broker `id` on the inter-broker listener.
    async fn client(&self, image: &MetadataImage, id: i32) -> Option<Client> {
        self.peers.client(image, id).await
    }
}

/// What a broker asks a transaction's coordinator before it writes for it
/// ([`MarkerWriter::verify`]).
#[derive(Debug, Clone, Copy)]
pub struct Check<'a> {
    /// The transactional id.
    pub transactional_id: &'a str,
    /// The producer id.
    pub producer_id: i64,
    /// The producer epoch.
    pub producer_epoch: i16,
    /// Add the partitions (a transaction version 2 producer), not only verify them.
    pub add: bool,
    /// The client knows TRANSACTION_ABORTABLE (Produce v11+, TxnOffsetCommit v4+).
    pub abortable_known: bool,
}

/// `partitions` as runs of one topic each, in order: (topic, its partition indexes).
fn by_topic(partitions: &[(String, i32)]) -> Vec<(String, Vec<i32>)> {
    let mut out: Vec<(String, Vec<i32>)> = Vec::new();
    for (topic, index) in partitions {
        match out.last_mut() {
            Some((t, indexes)) if t == topic => indexes.push(*index),
            _ => out.push((topic.clone(), vec![*index])),
        }
    }
    out
}

/// The WriteTxnMarkers request for a job's `partitions`.
fn request_for(job: &MarkerJob, partitions: &[(String, i32)]) -> WriteTxnMarkersRequest {
    let topics: Vec<WritableTxnMarkerTopic> = by_topic(partitions)
        .into_iter()
        .map(|(name, partition_indexes)| WritableTxnMarkerTopic {
            name,
            partition_indexes,
            ..Default::default()
        })
        .collect();
    WriteTxnMarkersRequest {
        markers: vec![WritableTxnMarker {
            producer_id: job.producer_id,
            producer_epoch: job.producer_epoch,
            transaction_result: job.commit,
            topics,
            coordinator_epoch: job.coordinator_epoch,
            transaction_version: job.transaction_version,
            ..Default::default()
        }],
        ..Default::default()
    }
}

/// What to do after one WriteTxnMarkers.
enum Outcome {
    /// These partitions need their marker again.
    Retry(Vec<(String, i32)>),
    /// Stop: a newer producer epoch or coordinator is in charge (Kafka's handling of
    /// INVALID_PRODUCER_EPOCH and TRANSACTION_COORDINATOR_FENCED).
    Abandon(ErrorCode),
}

fn outcome(answer: Option<WriteTxnMarkersResponse>, sent: &[(String, i32)]) -> Outcome {
    let Some(r) = answer else {
        return Outcome::Retry(sent.to_vec());
    };
    let mut again = Vec::new();
    let mut answered = 0;
    for t in r.markers.iter().flat_map(|m| &m.topics) {
        for p in &t.partitions {
            answered += 1;
            match ErrorCode::from_code(p.error_code) {
                Some(ErrorCode::None) => {}
                Some(
                    code @ (ErrorCode::InvalidProducerEpoch
                    | ErrorCode::TransactionCoordinatorFenced),
                ) => return Outcome::Abandon(code),
                _ => again.push((t.name.clone(), p.partition_index)),
            }
        }
    }
    if answered < sent.len() {
        return Outcome::Retry(sent.to_vec());
    }
    Outcome::Retry(again)
}
