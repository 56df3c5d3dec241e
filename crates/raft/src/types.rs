//! The core's vocabulary: node ids, log entries, the quorum state it persists, the messages it
//! exchanges (Kafka's Vote, BeginQuorumEpoch and Fetch, in the core's terms; the driver maps
//! them to the wire) and the actions it asks its driver to carry out.

use bytes::Bytes;
use std::collections::BTreeSet;

/// A node (controller or broker) id.
pub type NodeId = i32;

/// One entry of the replicated log: a record batch, spanning one offset per record.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Entry {
    /// The offset of its first record.
    pub offset: i64,
    /// How many records (offsets) it holds; at least 1.
    pub records: u32,
    /// The leader epoch it was written in.
    pub epoch: i32,
    /// What the core must know of it.
    pub kind: EntryKind,
    /// The payload: the record batch as the log stores it (empty for a leader-change entry the
    /// core creates: the log encodes it from `kind`).
    pub data: Bytes,
}

/// What an entry means to the core.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum EntryKind {
    /// Records for the state machine.
    Data,
    /// The first entry of a leader's epoch (KRaft's LeaderChangeMessage control record).
    LeaderChange {
        /// The new leader.
        leader: NodeId,
    },
    /// A new voter set (KIP-853's VotersRecord), in force from the moment it is appended.
    Voters(BTreeSet<NodeId>),
}

/// A snapshot's identity (KIP-630): it holds every record below `end_offset`, the last of
/// which was written in `epoch`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct SnapshotId {
    /// The offset after the last record it covers.
    pub end_offset: i64,
    /// The epoch of that record.
    pub epoch: i32,
}

/// The outcome a leader gives a snapshot fetch.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SnapshotChunk {
    /// Bytes of the snapshot from `position`.
    Bytes {
        /// The snapshot's whole size.
        size: u64,
        /// Where `bytes` starts.
        position: u64,
        /// The bytes.
        bytes: Bytes,
    },
    /// The leader no longer has that snapshot (a newer one replaced it).
    NotFound,
    /// The request's epoch is not this node's (or this node is not the leader).
    Fenced,
}

impl Entry {
    /// The offset after its last record.
    pub fn next_offset(&self) -> i64 {
        self.offset + i64::from(self.records)
    }
}

/// What must survive a restart before the node acts on it (Kafka's `quorum-state` file).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct QuorumState {
    /// The current epoch.
    pub epoch: i32,
    /// The leader of the epoch, if known.
    pub leader: Option<NodeId>,
    /// The candidate this node voted for in the epoch.
    pub voted_for: Option<NodeId>,
}

/// The outcome a leader gives a fetch.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FetchResult {
    /// Entries from the fetch offset (possibly none).
    Entries(Vec<Entry>),
    /// The follower's log diverges: truncate to at most `end_offset`, the end of `epoch` on the
    /// leader, and fetch again.
    Diverging {
        /// The largest epoch at or below the follower's last fetched epoch that the leader has.
        epoch: i32,
        /// Where that epoch ends on the leader.
        end_offset: i64,
    },
    /// The fetch offset is below the leader's log start: load this snapshot first.
    Snapshot(SnapshotId),
    /// The request's epoch is not this node's (or this node is not the leader).
    Fenced,
}

/// The high watermark of a fetch that did not say which one its fetcher knows (a Fetch
/// before v18, or a fetcher that does not take part in KIP-1166).
pub const HIGH_WATERMARK_NOT_SENT: i64 = i64::MAX;

/// A message between nodes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Message {
    /// Vote (KIP-595), or a pre-vote (KIP-996) that asks without bumping any epoch.
    VoteRequest {
        /// The candidate's epoch: the one it asks to lead, or for a pre-vote its current one
        /// (it would stand in the next). Kafka's `ReplicaEpoch`.
        epoch: i32,
        /// The candidate.
        candidate: NodeId,
        /// The epoch of the candidate's last entry.
        last_epoch: i32,
        /// The candidate's log end offset.
        end_offset: i64,
        /// True for a pre-vote.
        pre_vote: bool,
    },
    /// The answer to a vote.
    VoteResponse {
        /// The voter's epoch.
        epoch: i32,
        /// Whether the vote was granted.
        granted: bool,
        /// True when answering a pre-vote.
        pre_vote: bool,
        /// The leader the voter knows of in its epoch.
        leader: Option<NodeId>,
    },
    /// A new leader announces its epoch.
    BeginQuorumEpoch {
        /// The epoch.
        epoch: i32,
        /// The leader.
        leader: NodeId,
    },
    /// A leader steps down (a graceful shutdown), naming the voters it prefers to succeed it,
    /// most caught-up first.
    EndQuorumEpoch {
        /// The epoch that ends.
        epoch: i32,
        /// The resigning leader.
        leader: NodeId,
        /// Preferred successors, best first.
        preferred_successors: Vec<NodeId>,
    },
    /// A follower or observer fetches from the leader.
    FetchRequest {
        /// The fetcher's epoch.
        epoch: i32,
        /// The fetcher.
        replica: NodeId,
        /// The fetcher's log end offset.
        fetch_offset: i64,
        /// The epoch of the fetcher's last entry.
        last_fetched_epoch: i32,
        /// The high watermark the fetcher knows (Fetch v18, KIP-1166): -1 when it knows
        /// none, [`HIGH_WATERMARK_NOT_SENT`] when its request did not say.
        high_watermark: i64,
        /// Identifies the request; the response echoes it (the driver maps it to the
        /// request's correlation id).
        request_id: u64,
    },
    /// The leader's answer.
    FetchResponse {
        /// The responder's epoch.
        epoch: i32,
        /// The leader the responder knows of.
        leader: Option<NodeId>,
        /// Entries, divergence, or fencing.
        result: FetchResult,
        /// The leader's high watermark.
        high_watermark: i64,
        /// The request this answers.
        request_id: u64,
    },
    /// A follower or observer fetches part of the leader's snapshot (KIP-630 FetchSnapshot).
    FetchSnapshotRequest {
        /// The fetcher's epoch.
        epoch: i32,
        /// The fetcher.
        replica: NodeId,
        /// The snapshot.
        snapshot: SnapshotId,
        /// The byte position to read from.
        position: u64,
        /// Identifies the request, as for Fetch.
        request_id: u64,
    },
    /// The leader's answer.
    FetchSnapshotResponse {
        /// The responder's epoch.
        epoch: i32,
        /// The leader the responder knows of.
        leader: Option<NodeId>,
        /// The snapshot it is about.
        snapshot: SnapshotId,
        /// Bytes, not found, or fencing.
        chunk: SnapshotChunk,
        /// The request this answers.
        request_id: u64,
    },
}

/// Something the driver must do, in order: persisting comes before the sends that follow it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Action {
    /// Durably store the quorum state (fsync) before going on.
    PersistQuorumState(QuorumState),
    /// Send a message.
    Send {
        /// The recipient.
        to: NodeId,
        /// The message.
        message: Message,
    },
}
