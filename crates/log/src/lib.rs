//! fjord-log: the partition log. Kafka's on-disk layout (segments named by base offset,
//! `.log`/`.index`/`.timeindex`, `leader-epoch-checkpoint`, per-log-dir offset checkpoints),
//! leader and follower appends, reads, truncation, retention, and crash recovery; and the log
//! directory around them (`meta.properties`, checkpoints, the clean-shutdown marker).

pub mod checkpoint;
pub mod cleaner;
pub mod config;
pub mod dump;
pub mod epoch;
pub mod error;
pub mod index;
pub mod log_dir;
pub mod open_files;
pub mod partition_log;
pub mod producer_state;
pub mod segment;
pub mod txn_index;

pub use checkpoint::TopicPartition;
pub use config::LogConfig;
pub use error::{LogError, Result};
pub use log_dir::{LogDir, MetaProperties};
pub use partition_log::{AppendInfo, OffsetLookup, PartitionLog, ReadInfo, VerificationGuard};
