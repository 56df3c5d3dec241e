//! One transactional id's metadata and the states of its transaction, with the numbers Kafka
//! stores in `TransactionLogValue.TransactionStatus` and the names its tools show.

use fjord_protocol::generated::transaction_log_value::{PartitionsSchema, TransactionLogValue};
use std::collections::BTreeSet;

/// The epoch after which a producer id is exhausted (Kafka: `Short.MaxValue - 1`).
pub const MAX_EPOCH: i16 = i16::MAX - 1;

/// A transaction's state.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum TxnState {
    /// No transaction open.
    Empty,
    /// Partitions were added; not yet ended.
    Ongoing,
    /// A commit was decided; markers are being written.
    PrepareCommit,
    /// An abort was decided; markers are being written.
    PrepareAbort,
    /// Committed: every marker written.
    CompleteCommit,
    /// Aborted: every marker written.
    CompleteAbort,
    /// Expired: about to be removed.
    Dead,
    /// The producer's epoch is being fenced (an open transaction aborted by a new producer).
    PrepareEpochFence,
}

impl TxnState {
    /// Every state, in Kafka's number order.
    pub const ALL: [TxnState; 8] = [
        TxnState::Empty,
        TxnState::Ongoing,
        TxnState::PrepareCommit,
        TxnState::PrepareAbort,
        TxnState::CompleteCommit,
        TxnState::CompleteAbort,
        TxnState::Dead,
        TxnState::PrepareEpochFence,
    ];

    /// Kafka's number for it.
    pub fn id(self) -> i8 {
        TxnState::ALL
            .iter()
            .position(|s| *s == self)
            .expect("listed") as i8
    }

    /// The state of a number.
    pub fn from_id(id: i8) -> Option<TxnState> {
        usize::try_from(id)
            .ok()
            .and_then(|i| TxnState::ALL.get(i).copied())
    }

    /// The name Kafka's tools and ListTransactions use.
    pub fn name(self) -> &'static str {
        match self {
            TxnState::Empty => "Empty",
            TxnState::Ongoing => "Ongoing",
            TxnState::PrepareCommit => "PrepareCommit",
            TxnState::PrepareAbort => "PrepareAbort",
            TxnState::CompleteCommit => "CompleteCommit",
            TxnState::CompleteAbort => "CompleteAbort",
            TxnState::Dead => "Dead",
            TxnState::PrepareEpochFence => "PrepareEpochFence",
        }
    }

    /// The state of a name.
    pub fn from_name(name: &str) -> Option<TxnState> {
        TxnState::ALL.into_iter().find(|s| s.name() == name)
    }
}

/// One transactional id's metadata.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TxnMetadata {
    /// The transactional id.
    pub transactional_id: String,
    /// Its producer id.
    pub producer_id: i64,
    /// The producer id it had before a rotation (-1: none).
    pub previous_producer_id: i64,
    /// Its producer epoch (-1 before the first InitProducerId completes).
    pub producer_epoch: i16,
    /// The epoch before the last bump an InitProducerId asked for (KIP-360 retries; kept in
    /// memory only, as Kafka does: -1 after a load or a fence).
    pub last_producer_epoch: i16,
    /// `transaction.timeout.ms` as the producer asked.
    pub timeout_ms: i32,
    /// The state.
    pub state: TxnState,
    /// The partitions in the transaction.
    pub partitions: BTreeSet<(String, i32)>,
    /// When the transaction started (-1: none open).
    pub start_ms: i64,
    /// When the metadata last changed.
    pub last_update_ms: i64,
    /// The producer id the transaction being ended moves to once its markers are written
    /// (-1: none; set when a transaction version 2 end exhausts the epoch).
    pub next_producer_id: i64,
    /// The transaction version the producer ended or extended the transaction with (2: its
    /// epoch is bumped at every end, KIP-890).
    pub client_version: i16,
}

impl TxnMetadata {
    /// The record value for this metadata.
    pub fn to_value(&self) -> TransactionLogValue {
        let mut topics: Vec<PartitionsSchema> = Vec::new();
        for (topic, p) in &self.partitions {
            match topics.last_mut() {
                Some(t) if &t.topic == topic => t.partition_ids.push(*p),
                _ => topics.push(PartitionsSchema {
                    topic: topic.clone(),
                    partition_ids: vec![*p],
                    ..Default::default()
                }),
            }
        }
        TransactionLogValue {
            producer_id: self.producer_id,
            previous_producer_id: self.previous_producer_id,
            next_producer_id: self.next_producer_id,
            producer_epoch: self.producer_epoch,
            transaction_timeout_ms: self.timeout_ms,
            transaction_status: self.state.id(),
            transaction_partitions: Some(topics),
            transaction_last_update_timestamp_ms: self.last_update_ms,
            transaction_start_timestamp_ms: self.start_ms,
            client_transaction_version: self.client_version,
            ..Default::default()
        }
    }

    /// The metadata a record value holds (None: an unknown state).
    pub fn from_value(id: &str, v: &TransactionLogValue) -> Option<TxnMetadata> {
        Some(TxnMetadata {
            transactional_id: id.to_string(),
            producer_id: v.producer_id,
            previous_producer_id: v.previous_producer_id,
            producer_epoch: v.producer_epoch,
            last_producer_epoch: -1,
            timeout_ms: v.transaction_timeout_ms,
            state: TxnState::from_id(v.transaction_status)?,
            partitions: v
                .transaction_partitions
                .iter()
                .flatten()
                .flat_map(|t| t.partition_ids.iter().map(|p| (t.topic.clone(), *p)))
                .collect(),
            start_ms: v.transaction_start_timestamp_ms,
            last_update_ms: v.transaction_last_update_timestamp_ms,
            next_producer_id: v.next_producer_id,
            client_version: v.client_transaction_version,
        })
    }

    /// True when the producer id has no epoch left to bump to.
    pub fn epoch_exhausted(&self) -> bool {
        self.producer_epoch >= MAX_EPOCH
    }

    /// True when the producer uses transaction version 2 (an epoch bump at every end).
    pub fn bumps_on_end(&self) -> bool {
        self.client_version >= 2
    }

    /// A new metadata for `id`: producer `pid`, no epoch yet, no transaction.
    pub fn new(id: &str, pid: i64, timeout_ms: i32, now: i64) -> TxnMetadata {
        TxnMetadata {
            transactional_id: id.to_string(),
            producer_id: pid,
            previous_producer_id: -1,
            producer_epoch: -1,
            last_producer_epoch: -1,
            timeout_ms,
            state: TxnState::Empty,
            partitions: BTreeSet::new(),
            start_ms: -1,
            last_update_ms: now,
            next_producer_id: -1,
            client_version: 0,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn states_keep_kafkas_numbers_and_names() {
        assert_eq!(TxnState::Empty.id(), 0);
        assert_eq!(TxnState::CompleteAbort.id(), 5);
        assert_eq!(TxnState::PrepareEpochFence.id(), 7);
        for s in TxnState::ALL {
            assert_eq!(TxnState::from_id(s.id()), Some(s));
            assert_eq!(TxnState::from_name(s.name()), Some(s));
        }
        assert_eq!(TxnState::from_id(8), None);
        assert_eq!(TxnState::from_id(-1), None);
    }
}
