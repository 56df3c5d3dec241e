//! The core's messages in Kafka's wire format: Vote (v2), BeginQuorumEpoch (v1),
//! EndQuorumEpoch (v1), Fetch (v17) and FetchSnapshot (v1) on the `__cluster_metadata`
//! partition. A core request becomes a Kafka request; a Kafka response becomes the core's
//! response, with what the wire leaves out (the pre-vote flag, the core's request id) taken
//! from the request it answers.

use crate::metadata_log::{METADATA_TOPIC, METADATA_TOPIC_ID};
use bytes::{Bytes, BytesMut};
use fjord_protocol::generated::{
    begin_quorum_epoch_request as bqe_req, begin_quorum_epoch_response as bqe_resp,
    end_quorum_epoch_request as eqe_req, end_quorum_epoch_response as eqe_resp,
    fetch_request as f_req, fetch_response as f_resp, fetch_snapshot_request as fs_req,
    fetch_snapshot_response as fs_resp, vote_request as v_req, vote_response as v_resp,
};
use fjord_protocol::records::RecordBatches;
use fjord_protocol::{ApiKey, ErrorCode, RequestBody, ResponseBody};
use fjord_raft::control::{self, Endpoint};
use fjord_raft::types::{Entry, FetchResult, Message, NodeId, SnapshotChunk, SnapshotId};

/// The version of each Raft API fjord sends.
pub fn version_of(api: ApiKey) -> i16 {
    match api {
        ApiKey::Vote => 2,
        ApiKey::BeginQuorumEpoch => 1,
        ApiKey::EndQuorumEpoch => 1,
        ApiKey::Fetch => 17,
        ApiKey::FetchSnapshot => 1,
        ApiKey::DescribeQuorum => 2,
        _ => api.max_version(),
    }
}

/// The most bytes of records a fetch asks for.
pub const FETCH_MAX_BYTES: i32 = 8 * 1024 * 1024;

/// What the requester must remember to turn the response into a core message.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Pending {
    /// A vote or pre-vote.
    Vote {
        /// True for a pre-vote.
        pre_vote: bool,
    },
    /// A fetch with the core's request id.
    Fetch {
        /// The core's id.
        request_id: u64,
        /// The epoch the request carried.
        epoch: i32,
    },
    /// A snapshot fetch.
    FetchSnapshot {
        /// The core's id.
        request_id: u64,
        /// The snapshot asked for.
        snapshot: SnapshotId,
    },
    /// BeginQuorumEpoch or EndQuorumEpoch: the core expects no answer.
    Notice,
    /// A request the driver sends on its own (UpdateRaftVoter); its answer is not needed.
    Unanswered,
}

/// Everything a request needs beyond the core's message.
#[derive(Debug, Clone)]
pub struct Sender {
    /// The cluster id.
    pub cluster_id: String,
    /// This node's controller endpoint (sent as the leader's endpoint).
    pub endpoint: Option<Endpoint>,
    /// How long the leader may hold a fetch with nothing new.
    pub fetch_max_wait_ms: i32,
    /// The most snapshot bytes per FetchSnapshot.
    pub snapshot_chunk: i32,
}

fn leader_id(leader: Option<NodeId>) -> i32 {
    leader.unwrap_or(-1)
}

fn leader_of(id: i32) -> Option<NodeId> {
    (id >= 0).then_some(id)
}

/// A follower's Fetch of the metadata partition at `fetch_offset`, in the leader's `epoch`,
/// after a batch of `last_fetched_epoch`.
fn fetch_body(
    s: &Sender,
    cluster_id: Option<String>,
    replica: NodeId,
    (epoch, fetch_offset, last_fetched_epoch): (i32, i64, i32),
) -> RequestBody {
    RequestBody::Fetch(f_req::FetchRequest {
        cluster_id,
        replica_state: f_req::ReplicaState {
            replica_id: replica,
            replica_epoch: -1,
            ..Default::default()
        },
        max_wait_ms: s.fetch_max_wait_ms,
        min_bytes: 0,
        max_bytes: FETCH_MAX_BYTES,
        topics: vec![f_req::FetchTopic {
            topic: METADATA_TOPIC.into(),
            topic_id: METADATA_TOPIC_ID,
            partitions: vec![f_req::FetchPartition {
                partition: 0,
                current_leader_epoch: epoch,
                fetch_offset,
                last_fetched_epoch,
                log_start_offset: -1,
                partition_max_bytes: FETCH_MAX_BYTES,
                ..Default::default()
            }],
            ..Default::default()
        }],
        ..Default::default()
    })
}

/// A follower's FetchSnapshot of the chunk of `snapshot` at `position`.
fn fetch_snapshot_body(
    s: &Sender,
    cluster_id: Option<String>,
    replica: NodeId,
    epoch: i32,
    (snapshot, position): (&SnapshotId, u64),
) -> RequestBody {
    RequestBody::FetchSnapshot(fs_req::FetchSnapshotRequest {
        cluster_id,
        replica_id: replica,
        max_bytes: s.snapshot_chunk,
        topics: vec![fs_req::TopicSnapshot {
            name: METADATA_TOPIC.into(),
            partitions: vec![fs_req::PartitionSnapshot {
                partition: 0,
                current_leader_epoch: epoch,
                snapshot_id: fs_req::SnapshotId {
                    end_offset: snapshot.end_offset,
                    epoch: snapshot.epoch,
                    ..Default::default()
                },
                position: i64::try_from(position).unwrap_or(i64::MAX),
                ..Default::default()
            }],
            ..Default::default()
        }],
        ..Default::default()
    })
}

/// A core request addressed to `to` as a Kafka request, or `None` for a core response (those
/// answer inbound requests, see [`response_of`]).
pub fn request_of(s: &Sender, to: NodeId, message: &Message) -> Option<(RequestBody, Pending)> {
    let cluster_id = Some(s.cluster_id.clone());
    match message {
        Message::VoteRequest {
            epoch,
            candidate,
            last_epoch,
            end_offset,
            pre_vote,
        } => Some((
            RequestBody::Vote(v_req::VoteRequest {
                cluster_id,
                voter_id: to,
                topics: vec![v_req::TopicData {
                    topic_name: METADATA_TOPIC.into(),
                    partitions: vec![v_req::PartitionData {
                        partition_index: 0,
                        replica_epoch: *epoch,
                        replica_id: *candidate,
                        last_offset_epoch: *last_epoch,
                        last_offset: *end_offset,
                        pre_vote: *pre_vote,
                        ..Default::default()
                    }],
                    ..Default::default()
                }],
                ..Default::default()
            }),
            Pending::Vote {
                pre_vote: *pre_vote,
            },
        )),
        Message::BeginQuorumEpoch { epoch, leader } => Some((
            RequestBody::BeginQuorumEpoch(bqe_req::BeginQuorumEpochRequest {
                cluster_id,
                voter_id: to,
                topics: vec![bqe_req::TopicData {
                    topic_name: METADATA_TOPIC.into(),
                    partitions: vec![bqe_req::PartitionData {
                        partition_index: 0,
                        leader_id: *leader,
                        leader_epoch: *epoch,
                        ..Default::default()
                    }],
                    ..Default::default()
                }],
                leader_endpoints: s
                    .endpoint
                    .iter()
                    .map(|e| bqe_req::LeaderEndpoint {
                        name: e.name.clone(),
                        host: e.host.clone(),
                        port: e.port,
                        ..Default::default()
                    })
                    .collect(),
                ..Default::default()
            }),
            Pending::Notice,
        )),
        Message::EndQuorumEpoch {
            epoch,
            leader,
            preferred_successors,
        } => Some((
            RequestBody::EndQuorumEpoch(eqe_req::EndQuorumEpochRequest {
                cluster_id,
                topics: vec![eqe_req::TopicData {
                    topic_name: METADATA_TOPIC.into(),
                    partitions: vec![eqe_req::PartitionData {
                        partition_index: 0,
                        leader_id: *leader,
                        leader_epoch: *epoch,
                        preferred_successors: preferred_successors.clone(),
                        preferred_candidates: preferred_successors
                            .iter()
                            .map(|id| eqe_req::ReplicaInfo {
                                candidate_id: *id,
                                ..Default::default()
                            })
                            .collect(),
                        ..Default::default()
                    }],
                    ..Default::default()
                }],
                leader_endpoints: s
                    .endpoint
                    .iter()
                    .map(|e| eqe_req::LeaderEndpoint {
                        name: e.name.clone(),
                        host: e.host.clone(),
                        port: e.port,
                        ..Default::default()
                    })
                    .collect(),
                ..Default::default()
            }),
            Pending::Notice,
        )),
        Message::FetchRequest {
            epoch,
            replica,
            fetch_offset,
            last_fetched_epoch,
            request_id,
            ..
        } => Some((
            fetch_body(
                s,
                cluster_id,
                *replica,
                (*epoch, *fetch_offset, *last_fetched_epoch),
            ),
            Pending::Fetch {
                request_id: *request_id,
                epoch: *epoch,
            },
        )),
        Message::FetchSnapshotRequest {
            epoch,
            replica,
            snapshot,
            position,
            request_id,
        } => Some((
            fetch_snapshot_body(s, cluster_id, *replica, *epoch, (snapshot, *position)),
            Pending::FetchSnapshot {
                request_id: *request_id,
                snapshot: *snapshot,
            },
        )),
        Message::VoteResponse { .. }
        | Message::FetchResponse { .. }
        | Message::FetchSnapshotResponse { .. } => None,
    }
}

/// Why a response could not be turned into a core message.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BadResponse(pub String);

/// An endpoint a response names for a node.
pub type LearnedEndpoint = (NodeId, Endpoint);

/// A Vote response as the core's message (`None` when refused), with the endpoints it names.
fn vote_message(
    pre_vote: bool,
    r: &v_resp::VoteResponse,
) -> Result<(Option<Message>, Vec<LearnedEndpoint>), BadResponse> {
    let bad = |m: &str| BadResponse(m.to_string());
    let learned = r
        .node_endpoints
        .iter()
        .map(|n| (n.node_id, endpoint(&n.host, n.port)))
        .collect();
    let p = r
        .topics
        .first()
        .and_then(|t| t.partitions.first())
        .ok_or_else(|| bad("vote response without a partition"))?;
    if r.error_code != 0 || p.error_code != 0 {
        return Ok((None, learned));
    }
    Ok((
        Some(Message::VoteResponse {
            epoch: p.leader_epoch,
            granted: p.vote_granted,
            pre_vote,
            leader: leader_of(p.leader_id),
        }),
        learned,
    ))
}

/// A Kafka response to a request sent as `pending` as the core's message (`None` for notices),
/// plus any endpoints it names.
pub fn message_of_response(
    pending: Pending,
    body: ResponseBody,
) -> Result<(Option<Message>, Vec<LearnedEndpoint>), BadResponse> {
    let bad = |m: &str| BadResponse(m.to_string());
    match (pending, body) {
        (Pending::Vote { pre_vote }, ResponseBody::Vote(r)) => vote_message(pre_vote, &r),
        (Pending::Notice, ResponseBody::BeginQuorumEpoch(_) | ResponseBody::EndQuorumEpoch(_))
        | (Pending::Unanswered, _) => Ok((None, Vec::new())),
        (Pending::Fetch { request_id, epoch }, ResponseBody::Fetch(r)) => {
            let learned: Vec<LearnedEndpoint> = r
                .node_endpoints
                .iter()
                .filter_map(|n| Some((n.node_id, endpoint(&n.host, u16::try_from(n.port).ok()?))))
                .collect();
            let Some(p) = r
                .responses
                .into_iter()
                .next()
                .and_then(|t| t.partitions.into_iter().next())
            else {
                return Ok((None, learned));
            };
            let leader = leader_of(p.current_leader.leader_id);
            let responder_epoch = p.current_leader.leader_epoch;
            let result = match ErrorCode::from_code(p.error_code) {
                Some(ErrorCode::None) => {
                    if p.diverging_epoch.epoch >= 0 {
                        FetchResult::Diverging {
                            epoch: p.diverging_epoch.epoch,
                            end_offset: p.diverging_epoch.end_offset,
                        }
                    } else if p.snapshot_id.end_offset >= 0 {
                        FetchResult::Snapshot(SnapshotId {
                            end_offset: p.snapshot_id.end_offset,
                            epoch: p.snapshot_id.epoch,
                        })
                    } else {
                        let records = p
                            .records
                            .unwrap_or_default()
                            .into_bytes()
                            .map_err(|e| BadResponse(format!("fetched records: {e}")))?;
                        FetchResult::Entries(
                            entries_of(records)
                                .map_err(|e| BadResponse(format!("fetched records: {e}")))?,
                        )
                    }
                }
                Some(
                    ErrorCode::FencedLeaderEpoch
                    | ErrorCode::NotLeaderOrFollower
                    | ErrorCode::UnknownLeaderEpoch,
                ) => FetchResult::Fenced,
                _ => return Ok((None, learned)),
            };
            let epoch = if responder_epoch >= 0 {
                responder_epoch
            } else {
                epoch
            };
            Ok((
                Some(Message::FetchResponse {
                    epoch,
                    leader,
                    result,
                    high_watermark: p.high_watermark,
                    request_id,
                }),
                learned,
            ))
        }
        (
            Pending::FetchSnapshot {
                request_id,
                snapshot,
            },
            ResponseBody::FetchSnapshot(r),
        ) => {
            let learned = r
                .node_endpoints
                .iter()
                .map(|n| (n.node_id, endpoint(&n.host, n.port)))
                .collect();
            let Some(p) = r
                .topics
                .into_iter()
                .next()
                .and_then(|t| t.partitions.into_iter().next())
            else {
                return Ok((None, learned));
            };
            let chunk = match ErrorCode::from_code(p.error_code) {
                Some(ErrorCode::None) => SnapshotChunk::Bytes {
                    size: u64::try_from(p.size).map_err(|_| bad("negative snapshot size"))?,
                    position: u64::try_from(p.position)
                        .map_err(|_| bad("negative snapshot position"))?,
                    bytes: p
                        .unaligned_records
                        .into_bytes()
                        .map_err(|e| bad(&format!("snapshot chunk: {e}")))?,
                },
                Some(ErrorCode::SnapshotNotFound | ErrorCode::PositionOutOfRange) => {
                    SnapshotChunk::NotFound
                }
                Some(
                    ErrorCode::FencedLeaderEpoch
                    | ErrorCode::NotLeaderOrFollower
                    | ErrorCode::UnknownLeaderEpoch,
                ) => SnapshotChunk::Fenced,
                _ => return Ok((None, learned)),
            };
            Ok((
                Some(Message::FetchSnapshotResponse {
                    epoch: p.current_leader.leader_epoch,
                    leader: leader_of(p.current_leader.leader_id),
                    snapshot,
                    chunk,
                    request_id,
                }),
                learned,
            ))
        }
        (_, other) => Err(BadResponse(format!(
            "a {:?} response to a {pending:?} request",
            other.api_key()
        ))),
    }
}

fn endpoint(host: &str, port: u16) -> Endpoint {
    Endpoint {
        name: String::new(),
        host: host.to_string(),
        port,
    }
}

/// Splits fetched records into the core's entries (sharing the response's buffer).
pub fn entries_of(records: Bytes) -> Result<Vec<Entry>, fjord_protocol::DecodeError> {
    let mut it = RecordBatches::new(records);
    let mut out = Vec::new();
    for b in it.by_ref() {
        let b = b?;
        b.verify_crc()?;
        out.push(control::entry_of(b)?);
    }
    // A fetch may end with a partial batch (the byte limit cut it): it is dropped.
    Ok(out)
}

/// An inbound request the core handles, with the node it came from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Inbound {
    /// The sender.
    pub from: NodeId,
    /// The core's message.
    pub message: Message,
}

/// Why an inbound request was refused before reaching the core.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Refused(pub ErrorCode);

/// An inbound Raft request as the core's message; `request_id` identifies it (its
/// correlation id) in the core's answer.
pub fn inbound_of(
    body: &RequestBody,
    request_id: u64,
    cluster_id: &str,
    my_id: NodeId,
) -> Result<Inbound, Refused> {
    let check_cluster = |c: &Option<String>| match c {
        Some(c) if c != cluster_id => Err(Refused(ErrorCode::InconsistentClusterId)),
        _ => Ok(()),
    };
    let invalid = || Refused(ErrorCode::InvalidRequest);
    match body {
        RequestBody::Vote(r) => {
            check_cluster(&r.cluster_id)?;
            if r.voter_id >= 0 && r.voter_id != my_id {
                return Err(Refused(ErrorCode::InvalidVoterKey));
            }
            let p = single(&r.topics, |t| (&t.topic_name, &t.partitions)).ok_or_else(invalid)?;
            Ok(Inbound {
                from: p.replica_id,
                message: Message::VoteRequest {
                    epoch: p.replica_epoch,
                    candidate: p.replica_id,
                    last_epoch: p.last_offset_epoch,
                    end_offset: p.last_offset,
                    pre_vote: p.pre_vote,
                },
            })
        }
        RequestBody::BeginQuorumEpoch(r) => {
            check_cluster(&r.cluster_id)?;
            let p = single(&r.topics, |t| (&t.topic_name, &t.partitions)).ok_or_else(invalid)?;
            Ok(Inbound {
                from: p.leader_id,
                message: Message::BeginQuorumEpoch {
                    epoch: p.leader_epoch,
                    leader: p.leader_id,
                },
            })
        }
        RequestBody::EndQuorumEpoch(r) => {
            check_cluster(&r.cluster_id)?;
            let p = single(&r.topics, |t| (&t.topic_name, &t.partitions)).ok_or_else(invalid)?;
            let preferred = if p.preferred_candidates.is_empty() {
                p.preferred_successors.clone()
            } else {
                p.preferred_candidates
                    .iter()
                    .map(|c| c.candidate_id)
                    .collect()
            };
            Ok(Inbound {
                from: p.leader_id,
                message: Message::EndQuorumEpoch {
                    epoch: p.leader_epoch,
                    leader: p.leader_id,
                    preferred_successors: preferred,
                },
            })
        }
        RequestBody::Fetch(r) => {
            check_cluster(&r.cluster_id)?;
            let t = match r.topics.as_slice() {
                [t] if t.topic_id == METADATA_TOPIC_ID || t.topic == METADATA_TOPIC => t,
                _ => return Err(Refused(ErrorCode::UnknownTopicOrPartition)),
            };
            let p = match t.partitions.as_slice() {
                [p] if p.partition == 0 => p,
                _ => return Err(Refused(ErrorCode::UnknownTopicOrPartition)),
            };
            let replica = if r.replica_state.replica_id >= 0 {
                r.replica_state.replica_id
            } else {
                r.replica_id
            };
            Ok(Inbound {
                from: replica,
                message: Message::FetchRequest {
                    epoch: p.current_leader_epoch,
                    replica,
                    fetch_offset: p.fetch_offset,
                    last_fetched_epoch: p.last_fetched_epoch,
                    // The schema's default (not sent) before v18.
                    high_watermark: p.high_watermark,
                    request_id,
                },
            })
        }
        RequestBody::FetchSnapshot(r) => {
            check_cluster(&r.cluster_id)?;
            let p = single(&r.topics, |t| (&t.name, &t.partitions)).ok_or_else(invalid)?;
            if p.partition != 0 {
                return Err(Refused(ErrorCode::UnknownTopicOrPartition));
            }
            Ok(Inbound {
                from: r.replica_id,
                message: Message::FetchSnapshotRequest {
                    epoch: p.current_leader_epoch,
                    replica: r.replica_id,
                    snapshot: SnapshotId {
                        end_offset: p.snapshot_id.end_offset,
                        epoch: p.snapshot_id.epoch,
                    },
                    position: u64::try_from(p.position).map_err(|_| invalid())?,
                    request_id,
                },
            })
        }
        _ => Err(invalid()),
    }
}

/// The one partition of the metadata topic a request names.
fn single<'a, T, P>(
    topics: &'a [T],
    parts: impl Fn(&'a T) -> (&'a String, &'a Vec<P>),
) -> Option<&'a P> {
    match topics {
        [t] => {
            let (name, partitions) = parts(t);
            match partitions.as_slice() {
                [p] if name == METADATA_TOPIC => Some(p),
                _ => None,
            }
        }
        _ => None,
    }
}

/// What a response needs beyond the core's answer.
#[derive(Debug, Clone, Default)]
pub struct Responder {
    /// This node's current epoch.
    pub epoch: i32,
    /// The leader it knows, with its endpoint if known.
    pub leader: Option<(NodeId, Option<Endpoint>)>,
}

/// The leader's answer to a follower's Fetch: entries, a diverging epoch, a snapshot to fetch,
/// or fenced; with the leader and its endpoint.
fn fetch_response(
    req: &f_req::FetchRequest,
    (epoch, leader, result, high_watermark): (i32, Option<NodeId>, &FetchResult, i64),
    leader_endpoint: Option<&(NodeId, Endpoint)>,
) -> ResponseBody {
    let request_epoch = req
        .topics
        .first()
        .and_then(|t| t.partitions.first())
        .map_or(-1, |p| p.current_leader_epoch);
    let mut p = f_resp::PartitionData {
        partition_index: 0,
        high_watermark,
        current_leader: f_resp::LeaderIdAndEpoch {
            leader_id: leader_id_of(leader),
            leader_epoch: epoch,
            ..Default::default()
        },
        ..Default::default()
    };
    match result {
        FetchResult::Entries(entries) => p.records = Some(concat(entries).into()),
        FetchResult::Diverging { epoch, end_offset } => {
            p.diverging_epoch = f_resp::EpochEndOffset {
                epoch: *epoch,
                end_offset: *end_offset,
                ..Default::default()
            };
        }
        FetchResult::Snapshot(id) => {
            p.snapshot_id = f_resp::SnapshotId {
                end_offset: id.end_offset,
                epoch: id.epoch,
                ..Default::default()
            };
        }
        FetchResult::Fenced => p.error_code = fenced_code(request_epoch, epoch).code(),
    }
    ResponseBody::Fetch(f_resp::FetchResponse {
        responses: vec![f_resp::FetchableTopicResponse {
            topic: METADATA_TOPIC.into(),
            topic_id: METADATA_TOPIC_ID,
            partitions: vec![p],
            ..Default::default()
        }],
        node_endpoints: leader_endpoint
            .iter()
            .map(|(id, e)| f_resp::NodeEndpoint {
                node_id: *id,
                host: e.host.clone(),
                port: i32::from(e.port),
                ..Default::default()
            })
            .collect(),
        ..Default::default()
    })
}

/// The Kafka response to an inbound request: from the core's answer when it gave one (vote,
/// fetch, snapshot fetch), else an acknowledgement (BeginQuorumEpoch, EndQuorumEpoch).
pub fn response_of(request: &RequestBody, answer: Option<&Message>, r: &Responder) -> ResponseBody {
    let leader_id = leader_id(r.leader.as_ref().map(|l| l.0));
    let leader_endpoint = r
        .leader
        .as_ref()
        .and_then(|(id, e)| e.clone().map(|e| (*id, e)));
    match (request, answer) {
        (
            RequestBody::Vote(_),
            Some(Message::VoteResponse {
                epoch,
                granted,
                leader,
                ..
            }),
        ) => ResponseBody::Vote(v_resp::VoteResponse {
            topics: vec![v_resp::TopicData {
                topic_name: METADATA_TOPIC.into(),
                partitions: vec![v_resp::PartitionData {
                    partition_index: 0,
                    leader_id: leader_id_of(*leader),
                    leader_epoch: *epoch,
                    vote_granted: *granted,
                    ..Default::default()
                }],
                ..Default::default()
            }],
            node_endpoints: leader_endpoint
                .iter()
                .map(|(id, e)| v_resp::NodeEndpoint {
                    node_id: *id,
                    host: e.host.clone(),
                    port: e.port,
                    ..Default::default()
                })
                .collect(),
            ..Default::default()
        }),
        (
            RequestBody::Fetch(req),
            Some(Message::FetchResponse {
                epoch,
                leader,
                result,
                high_watermark,
                ..
            }),
        ) => fetch_response(
            req,
            (*epoch, *leader, result, *high_watermark),
            leader_endpoint.as_ref(),
        ),
        (
            RequestBody::FetchSnapshot(req),
            Some(Message::FetchSnapshotResponse {
                epoch,
                leader,
                snapshot,
                chunk,
                ..
            }),
        ) => {
            let request_epoch = req
                .topics
                .first()
                .and_then(|t| t.partitions.first())
                .map_or(-1, |p| p.current_leader_epoch);
            let mut p = fs_resp::PartitionSnapshot {
                index: 0,
                snapshot_id: fs_resp::SnapshotId {
                    end_offset: snapshot.end_offset,
                    epoch: snapshot.epoch,
                    ..Default::default()
                },
                current_leader: fs_resp::LeaderIdAndEpoch {
                    leader_id: leader_id_of(*leader),
                    leader_epoch: *epoch,
                    ..Default::default()
                },
                ..Default::default()
            };
            match chunk {
                SnapshotChunk::Bytes {
                    size,
                    position,
                    bytes,
                } => {
                    p.size = i64::try_from(*size).unwrap_or(i64::MAX);
                    p.position = i64::try_from(*position).unwrap_or(i64::MAX);
                    p.unaligned_records = bytes.clone().into();
                }
                SnapshotChunk::NotFound => p.error_code = ErrorCode::SnapshotNotFound.code(),
                SnapshotChunk::Fenced => p.error_code = fenced_code(request_epoch, *epoch).code(),
            }
            ResponseBody::FetchSnapshot(fs_resp::FetchSnapshotResponse {
                topics: vec![fs_resp::TopicSnapshot {
                    name: METADATA_TOPIC.into(),
                    partitions: vec![p],
                    ..Default::default()
                }],
                node_endpoints: leader_endpoint
                    .iter()
                    .map(|(id, e)| fs_resp::NodeEndpoint {
                        node_id: *id,
                        host: e.host.clone(),
                        port: e.port,
                        ..Default::default()
                    })
                    .collect(),
                ..Default::default()
            })
        }
        (RequestBody::BeginQuorumEpoch(_), _) => {
            ResponseBody::BeginQuorumEpoch(bqe_resp::BeginQuorumEpochResponse {
                topics: vec![bqe_resp::TopicData {
                    topic_name: METADATA_TOPIC.into(),
                    partitions: vec![bqe_resp::PartitionData {
                        partition_index: 0,
                        leader_id,
                        leader_epoch: r.epoch,
                        ..Default::default()
                    }],
                    ..Default::default()
                }],
                ..Default::default()
            })
        }
        (RequestBody::EndQuorumEpoch(_), _) => {
            ResponseBody::EndQuorumEpoch(eqe_resp::EndQuorumEpochResponse {
                topics: vec![eqe_resp::TopicData {
                    topic_name: METADATA_TOPIC.into(),
                    partitions: vec![eqe_resp::PartitionData {
                        partition_index: 0,
                        leader_id,
                        leader_epoch: r.epoch,
                        ..Default::default()
                    }],
                    ..Default::default()
                }],
                ..Default::default()
            })
        }
        (req, _) => error_response(req, ErrorCode::UnknownServerError),
    }
}

fn leader_id_of(leader: Option<NodeId>) -> i32 {
    leader_id(leader)
}

/// Kafka's code for a fetch the core refused: an older epoch is fenced, a newer one unknown,
/// and the right epoch on a non-leader is not the leader.
fn fenced_code(request_epoch: i32, epoch: i32) -> ErrorCode {
    if request_epoch < epoch {
        ErrorCode::FencedLeaderEpoch
    } else if request_epoch > epoch {
        ErrorCode::UnknownLeaderEpoch
    } else {
        ErrorCode::NotLeaderOrFollower
    }
}

fn concat(entries: &[Entry]) -> Bytes {
    match entries {
        [] => Bytes::new(),
        [one] => one.data.clone(),
        many => {
            let mut b = BytesMut::with_capacity(many.iter().map(|e| e.data.len()).sum());
            for e in many {
                b.extend_from_slice(&e.data);
            }
            b.freeze()
        }
    }
}

/// A response to a Raft request carrying only a top-level error.
pub fn error_response(request: &RequestBody, code: ErrorCode) -> ResponseBody {
    let code = code.code();
    match request {
        RequestBody::Vote(_) => ResponseBody::Vote(v_resp::VoteResponse {
            error_code: code,
            ..Default::default()
        }),
        RequestBody::BeginQuorumEpoch(_) => {
            ResponseBody::BeginQuorumEpoch(bqe_resp::BeginQuorumEpochResponse {
                error_code: code,
                ..Default::default()
            })
        }
        RequestBody::EndQuorumEpoch(_) => {
            ResponseBody::EndQuorumEpoch(eqe_resp::EndQuorumEpochResponse {
                error_code: code,
                ..Default::default()
            })
        }
        RequestBody::FetchSnapshot(_) => {
            ResponseBody::FetchSnapshot(fs_resp::FetchSnapshotResponse {
                error_code: code,
                ..Default::default()
            })
        }
        _ => ResponseBody::Fetch(f_resp::FetchResponse {
            error_code: code,
            ..Default::default()
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use bytes::Bytes;

    /// A metadata-log Fetch from observer 9 at offset 5, epoch 2, sent at `version` with
    /// `high_watermark` and read back as the leader's core sees it.
    fn fetch_as_received(version: i16, high_watermark: i64) -> Message {
        let body = f_req::FetchRequest {
            cluster_id: Some("c".into()),
            replica_state: f_req::ReplicaState {
                replica_id: 9,
                replica_epoch: -1,
                ..Default::default()
            },
            topics: vec![f_req::FetchTopic {
                topic_id: METADATA_TOPIC_ID,
                partitions: vec![f_req::FetchPartition {
                    partition: 0,
                    current_leader_epoch: 2,
                    fetch_offset: 5,
                    last_fetched_epoch: 2,
                    high_watermark,
                    ..Default::default()
                }],
                ..Default::default()
            }],
            ..Default::default()
        };
        let mut buf = Vec::new();
        body.encode(&mut buf, version).unwrap();
        let decoded = f_req::FetchRequest::decode(&mut Bytes::from(buf), version).unwrap();
        inbound_of(&RequestBody::Fetch(decoded), 1, "c", 1)
            .unwrap()
            .message
    }

    #[test]
    fn a_v18_fetch_carries_the_high_watermark_its_fetcher_knows() {
        let hw = |m: Message| match m {
            Message::FetchRequest { high_watermark, .. } => high_watermark,
            other => panic!("{other:?}"),
        };
        assert_eq!(hw(fetch_as_received(18, 4)), 4);
        assert_eq!(hw(fetch_as_received(18, -1)), -1);
        // Before v18 the field is not on the wire: the fetch says nothing.
        assert_eq!(
            hw(fetch_as_received(17, 4)),
            fjord_raft::types::HIGH_WATERMARK_NOT_SENT
        );
    }
}
