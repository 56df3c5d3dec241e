//! fjord-group: the classic consumer-group coordinator (JoinGroup, SyncGroup, Heartbeat,
//! LeaveGroup, offsets, describe/list/delete) as a sans-IO state machine, one [`Shard`] per
//! `__consumer_offsets` partition. Requests and timer ticks go in; `__consumer_offsets`
//! records and responses come out, and a response goes to its client only once the records
//! emitted with it are committed (Kafka 4's coordinator runtime). A shard's persistent state is
//! the fold of its records ([`Shard::replay`]), so a new leader of the partition rebuilds it
//! from the log. No clocks, sockets or randomness inside: the driver passes the time and a seed.

pub mod assignors;
pub mod config;
pub mod consumer;
pub mod consumer_records;
pub mod group;
pub mod membership;
pub mod migration;
pub mod offsets;
pub mod overview;
pub mod reconcile;
pub mod records;
pub mod shard;
pub mod share;
pub mod share_records;
pub mod streams;
pub mod timers;
pub mod txn_offsets;

pub use config::GroupConfig;
pub use consumer::TopicSource;
pub use records::GroupRecord;
pub use shard::{Output, RequestContext, Shard, ShardStats, Token};

pub use fjord_protocol::coordinator::partition_for;
