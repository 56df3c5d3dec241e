//! fjord-kraft: KRaft as a node runs it. The tokio driver ([`driver`]) around the sans-IO
//! core of `fjord-raft`: its event loop (timers, disk, the core's actions), Kafka's quorum
//! RPCs on the wire, the peer connections and the admin calls (DescribeQuorum, voter
//! changes); the metadata log and its snapshot and quorum-state files on disk; and the image
//! loader ([`loader`]), which folds what commits into the node's metadata image.

pub mod driver;
pub mod loader;
pub mod metadata_log;
pub mod quorum_file;
pub mod snapshot_file;
