//! fjord-raft: KRaft consensus. A sans-IO core ([`node::RaftNode`]: events in, actions out,
//! no clock, socket or disk of its own) that elects leaders with pre-vote (KIP-996) and
//! replicates by Fetch (KIP-595), with snapshots (KIP-630) and dynamic voters (KIP-853), so
//! it can be driven by a seeded simulation as well as by the tokio driver (`fjord-kraft`).
//! It depends on no runtime, socket or file system.

pub mod control;
pub mod log;
pub mod node;
pub mod types;

pub use log::{InvalidSnapshot, MemLog, RaftLog};
pub use node::{
    NotLeader, QuorumDescription, RaftConfig, RaftNode, ReplicaDescription, Role, SnapshotError,
    VoterChangeError,
};
pub use types::{
    Action, Entry, EntryKind, FetchResult, Message, NodeId, QuorumState, SnapshotChunk, SnapshotId,
};
