//! The share coordinator (KIP-932): the coordinator runtime ([`crate::coordinator::runtime`])
//! over `__share_group_state`, one [`fjord_share::coordinator::ShareShard`] per led partition.
//! A share-partition (group, topic id, partition) lives on the partition its key
//! `group:topicId:partition` hashes to, as in Kafka. A state RPC names many share-partitions;
//! each is run on its own shard and answered with its own code, and the answer goes out once
//! the records it wrote are committed.
//!
//! The topic is created as Kafka creates it: `cleanup.policy=delete` with `retention.ms=-1`
//! (a share-partition's state is a snapshot and the updates after it, which compaction would
//! lose). Instead, every `share.coordinator.state.topic.prune.interval.ms` the records below
//! the oldest snapshot a share-partition still needs are deleted, so the topic stays bounded.

use crate::cluster::controller_client::ControllerClient;
use crate::coordinator::runtime::{
    CoordinatorShard, Entry, Replayed, Routed, Runtime, Split, TopicSettings,
};
use crate::replica::replica_manager::ReplicaManager;
use fjord_configdef::topic;
use fjord_metadata::MetadataImage;
use fjord_protocol::generated::{
    delete_share_group_state_request::{DeleteShareGroupStateRequest, DeleteStateData},
    delete_share_group_state_response::{
        DeleteShareGroupStateResponse, DeleteStateResult, PartitionResult as DeleteP,
    },
    initialize_share_group_state_request::{InitializeShareGroupStateRequest, InitializeStateData},
    initialize_share_group_state_response::{
        InitializeShareGroupStateResponse, InitializeStateResult, PartitionResult as InitP,
    },
    read_share_group_state_request::{ReadShareGroupStateRequest, ReadStateData},
    read_share_group_state_response::{
        PartitionResult as ReadP, ReadShareGroupStateResponse, ReadStateResult,
    },
    read_share_group_state_summary_request::{
        ReadShareGroupStateSummaryRequest, ReadStateSummaryData,
    },
    read_share_group_state_summary_response::{
        PartitionResult as SummaryP, ReadShareGroupStateSummaryResponse, ReadStateSummaryResult,
    },
    write_share_group_state_request::{WriteShareGroupStateRequest, WriteStateData},
    write_share_group_state_response::{
        PartitionResult as WriteP, WriteShareGroupStateResponse, WriteStateResult,
    },
};
use fjord_protocol::Uuid;
use fjord_protocol::{ErrorCode, RequestBody, ResponseBody};
use fjord_share::coordinator::{ShareShard, StateRecord, TopicLookup};
use fjord_share::rpc;
use std::sync::Arc;

/// The topic that holds share-partitions' state.
pub const SHARE_STATE_TOPIC: &str = "__share_group_state";

/// The share coordinator's settings.
#[derive(Debug, Clone)]
pub struct ShareCoordinatorConfig {
    /// `share.coordinator.state.topic.num.partitions`.
    pub num_partitions: i32,
    /// `share.coordinator.state.topic.replication.factor`.
    pub replication_factor: i16,
    /// `share.coordinator.state.topic.min.isr`.
    pub min_isr: i32,
    /// `share.coordinator.state.topic.segment.bytes`.
    pub segment_bytes: i64,
    /// `share.coordinator.snapshot.update.records.per.snapshot`.
    pub per_snapshot: u32,
    /// `share.coordinator.state.topic.prune.interval.ms`: how often the records no
    /// share-partition needs any more are deleted.
    pub prune_interval_ms: i64,
}

/// One led partition's share-partitions.
#[derive(Debug)]
pub struct ShareHost {
    shard: ShareShard,
}

/// The records a call wrote, and when.
#[derive(Debug, Default)]
pub struct ShareOutput {
    records: Vec<StateRecord>,
    now: i64,
}

impl CoordinatorShard for ShareHost {
    type Config = ShareCoordinatorConfig;
    type Output = ShareOutput;
    type Effect = ();
    const TOPIC: &'static str = SHARE_STATE_TOPIC;

    fn create(config: &ShareCoordinatorConfig, _seed: u64, _epoch: i32) -> ShareHost {
        ShareHost {
            shard: ShareShard::new(config.per_snapshot),
        }
    }

    fn replay(&mut self, entry: Replayed<'_>, _now: i64) -> Result<(), String> {
        if let Replayed::Record {
            offset, key, value, ..
        } = entry
        {
            if let Some(r) = StateRecord::decode(key, value).map_err(|e| e.to_string())? {
                self.shard.replay_at(&r, offset);
            }
        }
        Ok(())
    }

    fn loaded(&mut self, _now: i64) -> ShareOutput {
        ShareOutput::default()
    }

    fn next_deadline(&self) -> Option<i64> {
        None
    }

    fn tick(&mut self, _now: i64) -> ShareOutput {
        ShareOutput::default()
    }

    fn split(out: ShareOutput) -> Split<()> {
        Split {
            entries: out
                .records
                .iter()
                .map(|r| {
                    let (key, value) = r.encode(out.now);
                    Entry::Record {
                        producer: None,
                        key,
                        value,
                    }
                })
                .collect(),
            replies: Vec::new(),
            effects: Vec::new(),
        }
    }

    fn size(&self) -> usize {
        self.shard.len()
    }

    fn committed(&mut self, first: i64, count: usize) {
        self.shard.committed(first, count);
    }

    fn redundant_below(&self) -> Option<i64> {
        self.shard.redundant_below()
    }

    fn prune_interval_ms(config: &ShareCoordinatorConfig) -> Option<i64> {
        Some(config.prune_interval_ms)
    }
}

/// The share coordinator of this broker.
pub type ShareCoordinator = Runtime<ShareHost>;

/// Whether a topic partition exists, from a metadata image.
struct ImageTopics<'a>(&'a MetadataImage);

impl TopicLookup for ImageTopics<'_> {
    fn has_partition(&self, topic_id: Uuid, partition: i32) -> bool {
        self.0
            .topics
            .by_id
            .get(&topic_id)
            .is_some_and(|t| t.partitions.contains_key(&partition))
    }
}

/// The code and message a partition gets when its shard could not run it, as Kafka's share
/// coordinator words them (`what` is "read share group state", and so on): a shard that is not
/// here, for whatever reason, is NOT_COORDINATOR.
fn routing_error(what: &str, code: ErrorCode) -> (ErrorCode, String) {
    let (code, why) = match code {
        ErrorCode::CoordinatorLoadInProgress => (
            code,
            "The coordinator is loading and hence can't process requests.",
        ),
        _ => (
            ErrorCode::NotCoordinator,
            "This is not the correct coordinator.",
        ),
    };
    (code, format!("Unable to {what}: {why}"))
}

/// Splits a state request into one request per share-partition, runs each on its shard with
/// `$run`, and gathers the answers by topic as the request named them.
macro_rules! each_partition {
    ($what:expr, $rt:expr, $image:expr, $r:expr, $Req:ident, $Data:ident, $Resp:ident, $Result:ident, $PResult:ident, $run:expr) => {{
        let mut results: Vec<$Result> = Vec::with_capacity($r.topics.len());
        for t in &$r.topics {
            let mut partitions = Vec::with_capacity(t.partitions.len());
            for p in &t.partitions {
                let one = $Req {
                    group_id: $r.group_id.clone(),
                    topics: vec![$Data {
                        topic_id: t.topic_id,
                        partitions: vec![p.clone()],
                        ..Default::default()
                    }],
                    ..Default::default()
                };
                let key = rpc::coordinator_key(&$r.group_id, t.topic_id, p.partition);
                let answer: Routed<$Resp> = $rt
                    .apply($image, &key, |host, now| ($run)(&mut host.shard, &one, now))
                    .await;
                let answered = answer.map(|resp| {
                    resp.results
                        .into_iter()
                        .next()
                        .and_then(|res| res.partitions.into_iter().next())
                });
                let (code, message) = match &answered {
                    Err(code) => routing_error($what, *code),
                    Ok(_) => (
                        ErrorCode::UnknownServerError,
                        format!("Unable to {}: no answer for the partition", $what),
                    ),
                };
                partitions.push(answered.ok().flatten().unwrap_or_else(|| $PResult {
                    partition: p.partition,
                    error_code: code.code(),
                    error_message: Some(message),
                    ..Default::default()
                }));
            }
            results.push($Result {
                topic_id: t.topic_id,
                partitions,
                ..Default::default()
            });
        }
        results
    }};
}

impl Runtime<ShareHost> {
    /// The share coordinator over this broker's partitions of `__share_group_state`.
    pub fn share_states(
        config: ShareCoordinatorConfig,
        replicas: Arc<ReplicaManager>,
        controller: Arc<ControllerClient>,
        clock: fjord_util::Clock,
    ) -> Arc<ShareCoordinator> {
        let topic = TopicSettings {
            partitions: config.num_partitions,
            replication_factor: config.replication_factor,
            configs: vec![
                (topic::CLEANUP_POLICY.name.into(), "delete".into()),
                (topic::COMPRESSION_TYPE.name.into(), "producer".into()),
                (
                    topic::SEGMENT_BYTES.name.into(),
                    config.segment_bytes.to_string(),
                ),
                (
                    topic::MIN_INSYNC_REPLICAS.name.into(),
                    config.min_isr.to_string(),
                ),
                (topic::RETENTION_MS.name.into(), "-1".into()),
            ],
        };
        Runtime::new(config, topic, replicas, controller, clock).0
    }

    /// Answers one of the five state RPCs.
    pub async fn handle(
        self: &Arc<Self>,
        image: &Arc<MetadataImage>,
        body: &RequestBody,
    ) -> ResponseBody {
        match body {
            RequestBody::ReadShareGroupState(_) | RequestBody::ReadShareGroupStateSummary(_) => {
                self.handle_read(image, body).await
            }
            _ => self.handle_write(image, body).await,
        }
    }

    /// InitializeShareGroupState, WriteShareGroupState and DeleteShareGroupState: each partition's change written by its shard.
    async fn handle_write(
        self: &Arc<Self>,
        image: &Arc<MetadataImage>,
        body: &RequestBody,
    ) -> ResponseBody {
        let topics = ImageTopics(image);
        let image: &MetadataImage = image;
        match body {
            RequestBody::InitializeShareGroupState(r) => {
                let results = each_partition!(
                    "initialize share group state",
                    self,
                    image,
                    r,
                    InitializeShareGroupStateRequest,
                    InitializeStateData,
                    InitializeShareGroupStateResponse,
                    InitializeStateResult,
                    InitP,
                    |s: &mut ShareShard, one: &InitializeShareGroupStateRequest, now| {
                        let h = rpc::initialize(s, one, &topics);
                        (
                            ShareOutput {
                                records: h.records,
                                now,
                            },
                            h.response,
                        )
                    }
                );
                ResponseBody::InitializeShareGroupState(InitializeShareGroupStateResponse {
                    results,
                    ..Default::default()
                })
            }
            RequestBody::WriteShareGroupState(r) => {
                let results = each_partition!(
                    "write share group state",
                    self,
                    image,
                    r,
                    WriteShareGroupStateRequest,
                    WriteStateData,
                    WriteShareGroupStateResponse,
                    WriteStateResult,
                    WriteP,
                    |s: &mut ShareShard, one: &WriteShareGroupStateRequest, now| {
                        let h = rpc::write(s, one, &topics);
                        (
                            ShareOutput {
                                records: h.records,
                                now,
                            },
                            h.response,
                        )
                    }
                );
                ResponseBody::WriteShareGroupState(WriteShareGroupStateResponse {
                    results,
                    ..Default::default()
                })
            }
            RequestBody::DeleteShareGroupState(r) => {
                let results = each_partition!(
                    "delete share group state",
                    self,
                    image,
                    r,
                    DeleteShareGroupStateRequest,
                    DeleteStateData,
                    DeleteShareGroupStateResponse,
                    DeleteStateResult,
                    DeleteP,
                    |s: &mut ShareShard, one: &DeleteShareGroupStateRequest, now| {
                        let h = rpc::delete(s, one);
                        (
                            ShareOutput {
                                records: h.records,
                                now,
                            },
                            h.response,
                        )
                    }
                );
                ResponseBody::DeleteShareGroupState(DeleteShareGroupStateResponse {
                    results,
                    ..Default::default()
                })
            }
            other => fjord_protocol::error_response(
                other,
                0,
                ErrorCode::InvalidRequest,
                "not a share state request",
            ),
        }
    }

    /// ReadShareGroupState and ReadShareGroupStateSummary: each partition's state from its shard.
    async fn handle_read(
        self: &Arc<Self>,
        image: &Arc<MetadataImage>,
        body: &RequestBody,
    ) -> ResponseBody {
        let topics = ImageTopics(image);
        let image: &MetadataImage = image;
        match body {
            RequestBody::ReadShareGroupState(r) => {
                let results = each_partition!(
                    "read share group state",
                    self,
                    image,
                    r,
                    ReadShareGroupStateRequest,
                    ReadStateData,
                    ReadShareGroupStateResponse,
                    ReadStateResult,
                    ReadP,
                    |s: &mut ShareShard, one: &ReadShareGroupStateRequest, now| {
                        let h = rpc::read(s, one, &topics);
                        (
                            ShareOutput {
                                records: h.records,
                                now,
                            },
                            h.response,
                        )
                    }
                );
                ResponseBody::ReadShareGroupState(ReadShareGroupStateResponse {
                    results,
                    ..Default::default()
                })
            }
            RequestBody::ReadShareGroupStateSummary(r) => {
                let results = each_partition!(
                    "read share group state summary",
                    self,
                    image,
                    r,
                    ReadShareGroupStateSummaryRequest,
                    ReadStateSummaryData,
                    ReadShareGroupStateSummaryResponse,
                    ReadStateSummaryResult,
                    SummaryP,
                    |s: &mut ShareShard, one: &ReadShareGroupStateSummaryRequest, now| {
                        let resp = rpc::read_summary(s, one, &topics);
                        (
                            ShareOutput {
                                records: Vec::new(),
                                now,
                            },
                            resp,
                        )
                    }
                );
                ResponseBody::ReadShareGroupStateSummary(ReadShareGroupStateSummaryResponse {
                    results,
                    ..Default::default()
                })
            }
            other => fjord_protocol::error_response(
                other,
                0,
                ErrorCode::InvalidRequest,
                "not a share state request",
            ),
        }
    }
}
