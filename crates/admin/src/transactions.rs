//! The admin client's transaction operations, as Kafka's Admin has them: the producers of a
//! partition (DescribeProducers, at its leader or a chosen replica), the transactions each
//! broker coordinates (ListTransactions), one transactional id's state (DescribeTransactions
//! at its coordinator), aborting a transaction at a partition's leader (WriteTxnMarkers, as
//! `Admin.abortTransaction`), and forcing a transactional id's open transaction to end
//! (InitProducerId, which fences its producer and aborts it).

use crate::{expect_response, Admin, AdminError};
use fjord_protocol::generated::{
    describe_producers_request::{DescribeProducersRequest, TopicRequest},
    describe_producers_response::ProducerState,
    describe_transactions_request::DescribeTransactionsRequest,
    describe_transactions_response::TransactionState,
    init_producer_id_request::InitProducerIdRequest,
    list_transactions_request::ListTransactionsRequest,
    write_txn_markers_request::{
        WritableTxnMarker, WritableTxnMarkerTopic, WriteTxnMarkersRequest,
    },
};
use fjord_protocol::RequestBody;

/// The transaction timeout force-terminate's InitProducerId asks for (Kafka's producer
/// default, within any broker's maximum).
const FORCE_TERMINATE_TIMEOUT_MS: i32 = 60_000;
/// FindCoordinator's key type of a transactional id.
pub const TRANSACTIONAL_ID: i8 = 1;

/// What ListTransactions found across the brokers.
#[derive(Debug, Default)]
pub struct TransactionListings {
    /// The transactions of the brokers that answered.
    pub listed: Vec<TransactionListing>,
    /// The brokers that did not answer, and why.
    pub unanswered: Vec<(i32, AdminError)>,
}

/// One transaction a broker coordinates.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TransactionListing {
    /// The coordinating broker.
    pub coordinator: i32,
    /// The transactional id.
    pub transactional_id: String,
    /// Its producer id.
    pub producer_id: i64,
    /// Its state's name.
    pub state: String,
}

impl Admin {
    /// The active producers of `topic`-`partition` at its leader (or at `broker`).
    pub async fn describe_producers(
        &self,
        topic: &str,
        partition: i32,
        broker: Option<i32>,
    ) -> Result<Vec<ProducerState>, AdminError> {
        self.retry(|| async {
            let at = match broker {
                Some(b) => b,
                None => self.leader(topic, partition).await?,
            };
            let body = RequestBody::DescribeProducers(DescribeProducersRequest {
                topics: vec![TopicRequest {
                    name: topic.to_string(),
                    partition_indexes: vec![partition],
                    ..Default::default()
                }],
                ..Default::default()
            });
            let r = self.call_broker(at, body, 0..=0).await?;
            let r = expect_response!(r, DescribeProducers)?;
            let p = r
                .topics
                .into_iter()
                .flat_map(|t| t.partitions)
                .find(|p| p.partition_index == partition)
                .ok_or_else(|| AdminError::Protocol("the partition is not in the answer".into()))?;
            AdminError::check(p.error_code, p.error_message.as_deref())?;
            Ok(p.active_producers)
        })
        .await
    }

    /// The transactions every unfenced broker coordinates (as Kafka's client asks the
    /// brokers Metadata names; a fenced broker leads no coordinator partition), filtered by
    /// state names, producer ids and (when at least 0) the time they have been running; with
    /// the brokers that did not answer and why (a broker that died is still unfenced until
    /// its session expires).
    pub async fn list_transactions(
        &self,
        states: &[String],
        producer_ids: &[i64],
        duration_ms: i64,
    ) -> Result<TransactionListings, AdminError> {
        let brokers: Vec<i32> = self
            .refresh(None)
            .await?
            .brokers
            .values()
            .filter(|b| !b.fenced)
            .map(|b| b.id)
            .collect();
        let mut out = TransactionListings::default();
        for b in brokers {
            let body = RequestBody::ListTransactions(ListTransactionsRequest {
                state_filters: states.to_vec(),
                producer_id_filters: producer_ids.to_vec(),
                duration_filter: duration_ms,
                ..Default::default()
            });
            let answered = match self.call_broker(b, body, 0..=1).await {
                Ok(r) => expect_response!(r, ListTransactions)
                    .and_then(|r| AdminError::check(r.error_code, None).map(|()| r)),
                Err(e) => Err(e),
            };
            let r = match answered {
                Ok(r) => r,
                Err(e) => {
                    out.unanswered.push((b, e));
                    continue;
                }
            };
            out.listed.extend(
                r.transaction_states
                    .into_iter()
                    .map(|t| TransactionListing {
                        coordinator: b,
                        transactional_id: t.transactional_id,
                        producer_id: t.producer_id,
                        state: t.transaction_state,
                    }),
            );
        }
        Ok(out)
    }

    /// The state of transactional id `id` at its coordinator, with the coordinator's id.
    pub async fn describe_transaction(
        &self,
        id: &str,
    ) -> Result<(i32, TransactionState), AdminError> {
        self.retry(|| async {
            let (coordinator, _) = self.coordinator_node(TRANSACTIONAL_ID, id).await?;
            let body = RequestBody::DescribeTransactions(DescribeTransactionsRequest {
                transactional_ids: vec![id.to_string()],
                ..Default::default()
            });
            let r = self.call_broker(coordinator, body, 0..=0).await?;
            let r = expect_response!(r, DescribeTransactions)?;
            let t = r
                .transaction_states
                .into_iter()
                .next()
                .ok_or_else(|| AdminError::Protocol("no transaction in the answer".into()))?;
            AdminError::check(t.error_code, None)?;
            Ok((coordinator, t))
        })
        .await
    }

    /// Aborts the open transaction of producer `producer_id` at `producer_epoch` in
    /// `topic`-`partition` by writing its abort marker at the partition's leader, with
    /// `coordinator_epoch` (Kafka's `Admin.abortTransaction`).
    pub async fn abort_transaction(
        &self,
        topic: &str,
        partition: i32,
        producer_id: i64,
        producer_epoch: i16,
        coordinator_epoch: i32,
    ) -> Result<(), AdminError> {
        self.retry(|| async {
            let leader = self.leader(topic, partition).await?;
            let body = RequestBody::WriteTxnMarkers(WriteTxnMarkersRequest {
                markers: vec![WritableTxnMarker {
                    producer_id,
                    producer_epoch,
                    transaction_result: false,
                    topics: vec![WritableTxnMarkerTopic {
                        name: topic.to_string(),
                        partition_indexes: vec![partition],
                        ..Default::default()
                    }],
                    coordinator_epoch,
                    ..Default::default()
                }],
                ..Default::default()
            });
            let r = self.call_broker(leader, body, 1..=1).await?;
            let r = expect_response!(r, WriteTxnMarkers)?;
            let code = r
                .markers
                .iter()
                .flat_map(|m| &m.topics)
                .flat_map(|t| &t.partitions)
                .map(|p| p.error_code)
                .find(|c| *c != 0)
                .unwrap_or(0);
            AdminError::check(code, None)
        })
        .await
    }

    /// Ends transactional id `id`'s open transaction by force: its coordinator fences the
    /// producer (a new epoch) and aborts what is open; returns once that is done.
    pub async fn force_terminate_transaction(&self, id: &str) -> Result<(), AdminError> {
        self.retry(|| async {
            let (coordinator, _) = self.coordinator_node(TRANSACTIONAL_ID, id).await?;
            let body = RequestBody::InitProducerId(InitProducerIdRequest {
                transactional_id: Some(id.to_string()),
                transaction_timeout_ms: FORCE_TERMINATE_TIMEOUT_MS,
                producer_id: -1,
                producer_epoch: -1,
                ..Default::default()
            });
            let r = self.call_broker(coordinator, body, 0..=5).await?;
            let r = expect_response!(r, InitProducerId)?;
            // CONCURRENT_TRANSACTIONS (the open transaction is being aborted) is retried.
            AdminError::check(r.error_code, None)
        })
        .await
    }
}
