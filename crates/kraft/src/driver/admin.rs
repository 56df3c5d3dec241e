//! The quorum's admin APIs on the controller listener: DescribeQuorum (from the leader's view),
//! AddRaftVoter, RemoveRaftVoter and UpdateRaftVoter (KIP-853), with Kafka's error codes.

use super::handle::{RaftHandle, VoterChangeFailure};
use crate::metadata_log::METADATA_TOPIC;
use fjord_protocol::generated::{
    add_raft_voter_request::AddRaftVoterRequest,
    add_raft_voter_response::AddRaftVoterResponse,
    describe_quorum_request as dqr, describe_quorum_response as dq,
    remove_raft_voter_request::RemoveRaftVoterRequest,
    remove_raft_voter_response::RemoveRaftVoterResponse,
    update_raft_voter_request::UpdateRaftVoterRequest,
    update_raft_voter_response::{self as uv, UpdateRaftVoterResponse},
};
use fjord_protocol::{ErrorCode, ResponseBody};
use fjord_raft::control::{Endpoint, VoterInfo};
use fjord_raft::node::ReplicaDescription;

/// DescribeQuorum: the leader's view of every voter and observer, with voter endpoints and
/// directory ids from v2 on (what `version` cannot carry is left out). Only a request that
/// names `__cluster_metadata` partition 0 is answered with it; any other gets an empty answer,
/// as Kafka 4.4's (checked by the differential test).
pub async fn describe_quorum(
    h: &RaftHandle,
    r: &dqr::DescribeQuorumRequest,
    version: i16,
) -> ResponseBody {
    let asked = r.topics.iter().any(|t| {
        t.topic_name == METADATA_TOPIC && t.partitions.iter().any(|p| p.partition_index == 0)
    });
    if !asked {
        return ResponseBody::DescribeQuorum(dq::DescribeQuorumResponse {
            error_message: Some(String::new()),
            ..Default::default()
        });
    }
    let Some((d, voters)) = h.describe().await else {
        let info = h.quorum_info().borrow().clone();
        let message = format!(
            "node {} is not the leader of {METADATA_TOPIC} (the leader is {})",
            info.node_id,
            info.leader.map_or("unknown".to_string(), |l| l.to_string())
        );
        return ResponseBody::DescribeQuorum(dq::DescribeQuorumResponse {
            error_code: ErrorCode::NotLeaderOrFollower.code(),
            error_message: Some(message),
            ..Default::default()
        });
    };
    let replica = |r: &ReplicaDescription| dq::ReplicaState {
        replica_id: r.id,
        replica_directory_id: voters
            .get(&r.id)
            .filter(|_| version >= 2)
            .map(|v| v.directory_id)
            .unwrap_or_default(),
        log_end_offset: r.log_end_offset,
        // The core's clock is monotonic; Kafka reports these as wall-clock times.
        last_fetch_timestamp: wall(r.last_fetch_ms),
        last_caught_up_timestamp: wall(r.last_caught_up_ms),
        ..Default::default()
    };
    ResponseBody::DescribeQuorum(dq::DescribeQuorumResponse {
        error_message: Some(String::new()),
        topics: vec![dq::TopicData {
            topic_name: METADATA_TOPIC.into(),
            partitions: vec![dq::PartitionData {
                partition_index: 0,
                leader_id: d.leader,
                leader_epoch: d.epoch,
                high_watermark: d.high_watermark,
                current_voters: d.voters.iter().map(replica).collect(),
                observers: d.observers.iter().map(replica).collect(),
                ..Default::default()
            }],
            ..Default::default()
        }],
        nodes: voters
            .values()
            .filter(|_| version >= 2)
            .map(|v| dq::Node {
                node_id: v.id,
                listeners: v
                    .endpoints
                    .iter()
                    .map(|e| dq::Listener {
                        name: e.name.clone(),
                        host: e.host.clone(),
                        port: e.port,
                        ..Default::default()
                    })
                    .collect(),
                ..Default::default()
            })
            .collect(),
        ..Default::default()
    })
}

/// A monotonic reading of the core as wall-clock time; -1 (never) stays -1.
fn wall(monotonic: i64) -> i64 {
    if monotonic < 0 {
        -1
    } else {
        fjord_util::clock::wall_of_monotonic(monotonic)
    }
}

fn split(result: Result<(), VoterChangeFailure>) -> (i16, Option<String>) {
    match result {
        Ok(()) => (0, None),
        Err(f) => (f.code.code(), Some(f.message)),
    }
}

fn cluster_mismatch(h: &RaftHandle, cluster_id: &Option<String>) -> Option<VoterChangeFailure> {
    match cluster_id {
        Some(c) if c != h.cluster_id() => Some(VoterChangeFailure {
            code: ErrorCode::InconsistentClusterId,
            // Kafka 4.4's words.
            message: format!(
                "The given id \"{c}\" doesn't match the cluster id \"{}\"",
                h.cluster_id()
            ),
        }),
        _ => None,
    }
}

/// AddRaftVoter.
pub async fn add_raft_voter(h: &RaftHandle, r: &AddRaftVoterRequest) -> ResponseBody {
    let result = match cluster_mismatch(h, &r.cluster_id) {
        Some(f) => Err(f),
        None => {
            let voter = VoterInfo {
                id: r.voter_id,
                directory_id: r.voter_directory_id,
                endpoints: r
                    .listeners
                    .iter()
                    .map(|l| Endpoint {
                        name: l.name.clone(),
                        host: l.host.clone(),
                        port: l.port,
                    })
                    .collect(),
            };
            let timeout =
                std::time::Duration::from_millis(u64::try_from(r.timeout_ms).unwrap_or(0).max(1));
            match tokio::time::timeout(timeout, h.add_voter(voter)).await {
                Ok(res) => res,
                Err(_) => Err(VoterChangeFailure {
                    code: ErrorCode::RequestTimedOut,
                    message: format!(
                        "adding voter {} did not commit within {} ms",
                        r.voter_id, r.timeout_ms
                    ),
                }),
            }
        }
    };
    let (error_code, error_message) = split(result);
    ResponseBody::AddRaftVoter(AddRaftVoterResponse {
        error_code,
        error_message,
        ..Default::default()
    })
}

/// RemoveRaftVoter.
pub async fn remove_raft_voter(h: &RaftHandle, r: &RemoveRaftVoterRequest) -> ResponseBody {
    let result = match cluster_mismatch(h, &r.cluster_id) {
        Some(f) => Err(f),
        None => h.remove_voter(r.voter_id, r.voter_directory_id).await,
    };
    let (error_code, error_message) = split(result);
    ResponseBody::RemoveRaftVoter(RemoveRaftVoterResponse {
        error_code,
        error_message,
        ..Default::default()
    })
}

/// UpdateRaftVoter.
pub async fn update_raft_voter(h: &RaftHandle, r: &UpdateRaftVoterRequest) -> ResponseBody {
    let result = match cluster_mismatch(h, &r.cluster_id) {
        Some(f) => Err(f),
        None => {
            let voter = VoterInfo {
                id: r.voter_id,
                directory_id: r.voter_directory_id,
                endpoints: r
                    .listeners
                    .iter()
                    .map(|l| Endpoint {
                        name: l.name.clone(),
                        host: l.host.clone(),
                        port: l.port,
                    })
                    .collect(),
            };
            let f = &r.k_raft_version_feature;
            h.update_voter(voter, (f.min_supported_version, f.max_supported_version))
                .await
        }
    };
    let info = h.quorum_info().borrow().clone();
    ResponseBody::UpdateRaftVoter(UpdateRaftVoterResponse {
        error_code: split(result).0,
        current_leader: uv::CurrentLeader {
            leader_id: info.leader.unwrap_or(-1),
            leader_epoch: info.epoch,
            ..Default::default()
        },
        ..Default::default()
    })
}
