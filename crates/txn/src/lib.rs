//! fjord-txn: the transaction coordinator (InitProducerId with a transactional id,
//! AddPartitionsToTxn, AddOffsetsToTxn, EndTxn, timeouts, expiry, Describe/ListTransactions)
//! as a sans-IO state machine, one [`Shard`] per `__transaction_state` partition. Requests
//! and timer ticks go in; `__transaction_state` records (Kafka's TransactionLogKey/Value),
//! replies and marker jobs come out. A reply goes to its client only once the records
//! emitted with it are committed, and a shard's state is the fold of its records
//! ([`Shard::replay`]), so a new leader of the partition rebuilds it from the log. Markers are
//! written by the driver (WriteTxnMarkers to each partition's leader), which reports back with
//! [`Shard::markers_written`]; the transaction then completes with one more record.

pub mod config;
pub mod records;
pub mod shard;
pub mod state;

pub use config::TxnConfig;
pub use records::TxnRecord;
pub use shard::{MarkerJob, Output, Shard, Token};
pub use state::{TxnMetadata, TxnState};
