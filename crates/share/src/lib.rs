//! fjord-share: share groups (KIP-932, with KIP-1191's dead-letter queue) as sans-IO state
//! machines.
//!
//! - [`partition::SharePartition`] is a share-partition's delivery state on the partition's
//!   leader: which records are available, acquired (by whom, until when, how often), acknowledged
//!   or archived. Fetches, acknowledgements, member departures and the clock go in; acquired
//!   ranges, state writes for the share coordinator and dead-letter jobs come out. A change that
//!   must survive the leader is only final once its write is answered; a refused write rolls it
//!   back, so an acknowledgement is answered success only once it is durable.
//! - [`state::ShareState`] is the share coordinator's view of one share-partition, the fold of
//!   Kafka's `ShareSnapshot` and `ShareUpdate` records: what a new leader reads back.

pub mod assignor;
pub mod coordinator;
pub mod partition;
pub mod rpc;
pub mod session;
pub mod state;

pub use partition::{
    AckBatch, AckType, Acquired, DeadLetter, LogBatch, PartitionConfig, RecordState, ShareError,
    SharePartition, Ticket, Write,
};
pub use state::{PersistedState, ShareState, StateBatch};
