//! What callers of the driver hold: [`RaftHandle`] (cheap to clone) and the events it sends to
//! the Raft thread.

use super::event_loop;
use super::wire::{self, Inbound, Responder};
use super::DriverConfig;
use crate::snapshot_file;
use bytes::Bytes;
use fjord_protocol::header::RequestFrame;
use fjord_protocol::records::RecordBatch;
use fjord_protocol::{ErrorCode, RequestBody, ResponseBody};
use fjord_raft::control::VoterInfo;
use fjord_raft::node::QuorumDescription;
use fjord_raft::types::{Message, NodeId, SnapshotId};
use fjord_util::system_now_ms as now_ms;
use std::collections::BTreeSet;
use std::sync::mpsc;
use tokio::sync::{oneshot, watch};

/// The quorum as this node sees it, published after every change.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct QuorumInfo {
    /// This node.
    pub node_id: NodeId,
    /// The current epoch.
    pub epoch: i32,
    /// The leader, if known.
    pub leader: Option<NodeId>,
    /// True when this node leads.
    pub is_leader: bool,
    /// The high watermark.
    pub high_watermark: i64,
    /// The log end offset.
    pub log_end_offset: i64,
    /// The voters.
    pub voters: BTreeSet<NodeId>,
    /// The voters with their endpoints (as the log or configuration gives them).
    pub voter_set: std::sync::Arc<fjord_raft::control::VoterSet>,
    /// Set when the node stopped on a fatal error.
    pub failed: Option<String>,
}

/// One committed item, in log order.
#[derive(Debug, Clone)]
pub enum Committed {
    /// Replace the state with this snapshot's (its state machine batches).
    Snapshot {
        /// Its id.
        id: SnapshotId,
        /// Its record batches.
        state: Bytes,
    },
    /// A committed batch of the state machine's records.
    Batch {
        /// Its epoch.
        epoch: i32,
        /// The batch.
        batch: RecordBatch,
    },
    /// Everything committed below this offset has been delivered (control entries included).
    UpTo(i64),
    /// The `kraft.version` level the log now holds (1 once the voter set is in it); sent
    /// first and whenever it changes.
    KraftVersion(i16),
}

/// Why a proposal failed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ProposeError {
    /// This node does not lead, or stopped leading before the batch committed.
    #[error("not the leader (the leader is {leader:?})")]
    NotLeader {
        /// The leader it knows of.
        leader: Option<NodeId>,
    },
    /// The batch is not a valid record batch.
    #[error("invalid batch: {0}")]
    Invalid(String),
    /// The batch is larger than the metadata log takes; nothing was appended.
    #[error("a batch of {size} bytes exceeds the metadata log's maximum of {max} bytes")]
    TooLarge {
        /// The batch's size.
        size: usize,
        /// The maximum.
        max: usize,
    },
    /// The driver has stopped.
    #[error("the raft driver has stopped")]
    Stopped,
}

/// A voter change refused, with Kafka's error code and message.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{code:?}: {message}")]
pub struct VoterChangeFailure {
    /// The error code.
    pub code: ErrorCode,
    /// The message.
    pub message: String,
}

/// What the Raft thread is asked to do.
pub(super) enum Event {
    /// A Raft request from a peer; the reply is the core's answer (if any) and what the
    /// response needs besides.
    Inbound {
        inbound: Inbound,
        reply: oneshot::Sender<(Option<Message>, Responder)>,
    },
    /// A peer's answer to one of our requests.
    PeerResponse { from: NodeId, message: Message },
    /// The connection to a peer closed or could not be made.
    PeerClosed { peer: NodeId },
    /// An endpoint learned from a response.
    Learned {
        id: NodeId,
        endpoint: fjord_raft::control::Endpoint,
    },
    /// A batch to replicate.
    Propose {
        records: u32,
        data: Bytes,
        reply: oneshot::Sender<Result<i64, ProposeError>>,
    },
    /// A batch built from the offset it lands at (the caller learns that offset at once).
    ProposeAt {
        build: Box<dyn FnOnce(i64) -> Bytes + Send>,
        appended: oneshot::Sender<Result<i64, ProposeError>>,
        reply: oneshot::Sender<Result<i64, ProposeError>>,
    },
    /// DescribeQuorum.
    Describe {
        reply: oneshot::Sender<Option<(QuorumDescription, fjord_raft::control::VoterSet)>>,
    },
    /// AddRaftVoter.
    AddVoter {
        voter: VoterInfo,
        reply: oneshot::Sender<Result<(), VoterChangeFailure>>,
    },
    /// RemoveRaftVoter.
    RemoveVoter {
        id: NodeId,
        directory_id: fjord_protocol::Uuid,
        reply: oneshot::Sender<Result<(), VoterChangeFailure>>,
    },
    /// UpdateRaftVoter (`kraft_versions`: the range the voter supports).
    UpdateVoter {
        voter: VoterInfo,
        kraft_versions: (i16, i16),
        reply: oneshot::Sender<Result<(), VoterChangeFailure>>,
    },
    /// UpdateFeatures of kraft.version: move a static quorum's voters into the log.
    UpgradeKraftVersion {
        level: i16,
        validate_only: bool,
        reply: oneshot::Sender<Result<(), VoterChangeFailure>>,
    },
    /// Say what a snapshot below `end_offset` would be, to be written off the Raft thread.
    PlanSnapshot {
        end_offset: i64,
        reply: oneshot::Sender<Result<SnapshotPlan, fjord_raft::SnapshotError>>,
    },
    /// Adopt a snapshot written off the Raft thread (or fail the log when writing it failed).
    AdoptSnapshot {
        id: SnapshotId,
        written: Result<snapshot_file::Staged, snapshot_file::SnapshotFileError>,
        reply: oneshot::Sender<Result<SnapshotId, fjord_raft::SnapshotError>>,
    },
    /// Resign gracefully (EndQuorumEpoch).
    Resign,
    /// Stop the thread.
    Shutdown,
}

/// What writing a snapshot off the Raft thread needs: its id, the voter set it records and
/// the directory it goes in.
#[derive(Debug)]
pub struct SnapshotPlan {
    /// Its id.
    pub id: SnapshotId,
    /// The voter set it records (none while the voters are static).
    pub voters: Option<fjord_raft::control::VoterSet>,
    /// The metadata partition's directory.
    pub dir: std::path::PathBuf,
}

/// A handle on the running driver.
#[derive(Debug, Clone)]
pub struct RaftHandle {
    events: mpsc::Sender<Event>,
    info: watch::Receiver<QuorumInfo>,
    cluster_id: String,
    node_id: NodeId,
}

impl std::fmt::Debug for Event {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Event")
    }
}

impl RaftHandle {
    /// Opens the metadata log and starts the Raft thread; peers run on `runtime`. Returns the
    /// handle and the stream of committed batches and snapshots.
    pub fn start(
        config: DriverConfig,
        runtime: tokio::runtime::Handle,
    ) -> Result<(RaftHandle, tokio::sync::mpsc::UnboundedReceiver<Committed>), event_loop::StartError>
    {
        let (events_tx, events_rx) = mpsc::channel();
        let (info_tx, info_rx) = watch::channel(QuorumInfo {
            node_id: config.node_id,
            ..QuorumInfo::default()
        });
        let (commit_tx, commit_rx) = tokio::sync::mpsc::unbounded_channel();
        let handle = RaftHandle {
            events: events_tx.clone(),
            info: info_rx,
            cluster_id: config.cluster_id.clone(),
            node_id: config.node_id,
        };
        event_loop::spawn(config, runtime, events_tx, events_rx, info_tx, commit_tx)?;
        Ok((handle, commit_rx))
    }

    /// This node's id.
    pub fn node_id(&self) -> NodeId {
        self.node_id
    }

    /// The quorum as this node sees it, updated on every change.
    pub fn quorum_info(&self) -> watch::Receiver<QuorumInfo> {
        self.info.clone()
    }

    async fn ask<T>(&self, make: impl FnOnce(oneshot::Sender<T>) -> Event) -> Option<T> {
        let (tx, rx) = oneshot::channel();
        self.events.send(make(tx)).ok()?;
        rx.await.ok()
    }

    /// Replicates one record batch (its offsets are assigned on append); resolves with the
    /// offset of its last record once committed, or fails when this node does not lead or
    /// stops leading first.
    pub async fn propose(&self, batch: Bytes) -> Result<i64, ProposeError> {
        let records = records_in(&batch)?;
        self.ask(|reply| Event::Propose {
            records,
            data: batch,
            reply,
        })
        .await
        .unwrap_or(Err(ProposeError::Stopped))
    }

    /// Sends a batch for replication at once, in call order, without waiting: the receiver
    /// resolves with its last offset once committed (or fails as [`RaftHandle::propose`]).
    pub fn propose_nowait(
        &self,
        batch: Bytes,
    ) -> Result<oneshot::Receiver<Result<i64, ProposeError>>, ProposeError> {
        let records = records_in(&batch)?;
        let (reply, rx) = oneshot::channel();
        self.events
            .send(Event::Propose {
                records,
                data: batch,
                reply,
            })
            .map_err(|_| ProposeError::Stopped)?;
        Ok(rx)
    }

    /// Appends the batch `build` makes from the offset it lands at (a broker registration
    /// carries that offset as the broker epoch). Resolves once appended with that offset and a
    /// receiver for the commit.
    pub async fn propose_at(
        &self,
        build: Box<dyn FnOnce(i64) -> Bytes + Send>,
    ) -> Result<(i64, oneshot::Receiver<Result<i64, ProposeError>>), ProposeError> {
        let (appended, appended_rx) = oneshot::channel();
        let (reply, rx) = oneshot::channel();
        self.events
            .send(Event::ProposeAt {
                build,
                appended,
                reply,
            })
            .map_err(|_| ProposeError::Stopped)?;
        let base = appended_rx.await.map_err(|_| ProposeError::Stopped)??;
        Ok((base, rx))
    }

    /// Takes a snapshot of `state` (record batches) covering the log below `end_offset`. The
    /// Raft thread names it; the file (megabytes at 100,000 partitions) is built and fsynced
    /// on a blocking thread, so the Raft thread keeps fetching and answering meanwhile; the
    /// Raft thread then renames it into place and cleans the log below it.
    pub async fn create_snapshot(
        &self,
        end_offset: i64,
        state: Bytes,
    ) -> Result<SnapshotId, SnapshotRequestError> {
        let plan = self
            .ask(|reply| Event::PlanSnapshot { end_offset, reply })
            .await
            .ok_or(SnapshotRequestError::Stopped)?
            .map_err(SnapshotRequestError::Refused)?;
        let id = plan.id;
        let written = tokio::task::spawn_blocking(move || {
            snapshot_file::write_staged(&plan.dir, plan.id, plan.voters, &state, now_ms())
        })
        .await
        .map_err(|_| SnapshotRequestError::Stopped)?;
        self.ask(|reply| Event::AdoptSnapshot { id, written, reply })
            .await
            .ok_or(SnapshotRequestError::Stopped)?
            .map_err(SnapshotRequestError::Refused)
    }

    /// Steps down gracefully if leading (EndQuorumEpoch to the other voters).
    pub fn resign(&self) {
        let _ = self.events.send(Event::Resign);
    }

    /// Stops the Raft thread.
    pub fn shutdown(&self) {
        let _ = self.events.send(Event::Shutdown);
    }

    /// DescribeQuorum's data, from the leader; `None` elsewhere.
    pub async fn describe(&self) -> Option<(QuorumDescription, fjord_raft::control::VoterSet)> {
        self.ask(|reply| Event::Describe { reply }).await.flatten()
    }

    /// Adds a voter (AddRaftVoter), resolving when the change is committed.
    pub async fn add_voter(&self, voter: VoterInfo) -> Result<(), VoterChangeFailure> {
        self.ask(|reply| Event::AddVoter { voter, reply })
            .await
            .unwrap_or_else(|| Err(stopped()))
    }

    /// Removes a voter (RemoveRaftVoter), resolving when the change is committed.
    pub async fn remove_voter(
        &self,
        id: NodeId,
        directory_id: fjord_protocol::Uuid,
    ) -> Result<(), VoterChangeFailure> {
        self.ask(|reply| Event::RemoveVoter {
            id,
            directory_id,
            reply,
        })
        .await
        .unwrap_or_else(|| Err(stopped()))
    }

    /// Updates a voter's endpoints (UpdateRaftVoter; `kraft_versions` the range it
    /// supports). While the voters are static, the leader only notes the voter for an
    /// upgrade to kraft.version 1.
    pub async fn update_voter(
        &self,
        voter: VoterInfo,
        kraft_versions: (i16, i16),
    ) -> Result<(), VoterChangeFailure> {
        self.ask(|reply| Event::UpdateVoter {
            voter,
            kraft_versions,
            reply,
        })
        .await
        .unwrap_or_else(|| Err(stopped()))
    }

    /// Finalizes kraft.version at `level` (UpdateFeatures): on a static quorum, the leader
    /// moves the voters into the log once every voter has announced its directory id,
    /// resolving when that commits. Nothing to do at the current level; a downgrade is
    /// refused.
    pub async fn upgrade_kraft_version(
        &self,
        level: i16,
        validate_only: bool,
    ) -> Result<(), VoterChangeFailure> {
        self.ask(|reply| Event::UpgradeKraftVersion {
            level,
            validate_only,
            reply,
        })
        .await
        .unwrap_or_else(|| Err(stopped()))
    }

    /// Answers a Raft API request that arrived on the controller listener (Vote,
    /// BeginQuorumEpoch, EndQuorumEpoch, Fetch, FetchSnapshot, DescribeQuorum, AddRaftVoter,
    /// RemoveRaftVoter, UpdateRaftVoter); `None` for any other API.
    pub async fn handle_request(
        &self,
        frame: &RequestFrame,
        body: &RequestBody,
    ) -> Option<ResponseBody> {
        match body {
            RequestBody::Vote(_)
            | RequestBody::BeginQuorumEpoch(_)
            | RequestBody::EndQuorumEpoch(_)
            | RequestBody::Fetch(_)
            | RequestBody::FetchSnapshot(_) => {
                let corr = frame.header.correlation_id as u32 as u64;
                let inbound = match wire::inbound_of(body, corr, &self.cluster_id, self.node_id) {
                    Ok(i) => i,
                    Err(wire::Refused(code)) => return Some(wire::error_response(body, code)),
                };
                let answer = self.ask(|reply| Event::Inbound { inbound, reply }).await;
                Some(match answer {
                    Some((message, responder)) => {
                        wire::response_of(body, message.as_ref(), &responder)
                    }
                    None => wire::error_response(body, ErrorCode::UnknownServerError),
                })
            }
            RequestBody::DescribeQuorum(r) => {
                Some(super::admin::describe_quorum(self, r, frame.header.request_api_version).await)
            }
            RequestBody::AddRaftVoter(r) => Some(super::admin::add_raft_voter(self, r).await),
            RequestBody::RemoveRaftVoter(r) => Some(super::admin::remove_raft_voter(self, r).await),
            RequestBody::UpdateRaftVoter(r) => Some(super::admin::update_raft_voter(self, r).await),
            _ => None,
        }
    }

    /// The cluster id.
    pub fn cluster_id(&self) -> &str {
        &self.cluster_id
    }
}

/// How many offsets a valid batch spans; a batch over the metadata log's maximum is refused
/// here, to its proposer, before it reaches the log.
pub(super) fn records_in(batch: &Bytes) -> Result<u32, ProposeError> {
    if batch.len() > crate::metadata_log::MAX_BATCH_BYTES {
        return Err(ProposeError::TooLarge {
            size: batch.len(),
            max: crate::metadata_log::MAX_BATCH_BYTES,
        });
    }
    let b = RecordBatch::new(batch.clone()).map_err(|e| ProposeError::Invalid(e.to_string()))?;
    b.validate()
        .map_err(|e| ProposeError::Invalid(e.to_string()))?;
    u32::try_from(i64::from(b.last_offset_delta()) + 1)
        .map_err(|_| ProposeError::Invalid("negative last offset delta".into()))
}

fn stopped() -> VoterChangeFailure {
    VoterChangeFailure {
        code: ErrorCode::UnknownServerError,
        message: "the raft driver has stopped".into(),
    }
}

/// Why a snapshot the loader asked for was not taken.
#[derive(Debug, thiserror::Error)]
pub enum SnapshotRequestError {
    /// The core refused it (not committed, not newer, or inside a batch).
    #[error("the snapshot was refused: {0:?}")]
    Refused(fjord_raft::SnapshotError),
    /// The Raft driver has stopped.
    #[error("the raft driver has stopped")]
    Stopped,
}

#[cfg(test)]
mod tests {
    use super::*;
    use fjord_protocol::records::{Compression, RecordBatchBuilder};

    fn batch(value_bytes: usize) -> Bytes {
        let mut b = RecordBatchBuilder::new(Compression::None);
        b.append(0, None, Some(&vec![7u8; value_bytes]), &[]);
        b.build().unwrap()
    }

    #[test]
    fn a_batch_over_the_metadata_log_maximum_is_refused_before_the_log() {
        let big = batch(crate::metadata_log::MAX_BATCH_BYTES);
        match records_in(&big) {
            Err(ProposeError::TooLarge { size, max }) => {
                assert_eq!(size, big.len());
                assert_eq!(max, crate::metadata_log::MAX_BATCH_BYTES);
            }
            other => panic!("expected TooLarge, got {other:?}"),
        }
        assert_eq!(records_in(&batch(1024)), Ok(1));
    }
}
