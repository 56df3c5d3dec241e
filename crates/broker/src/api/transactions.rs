//! The transaction APIs on the broker listener: InitProducerId with a transactional id,
//! AddPartitionsToTxn (a producer's v0-3, a broker's batched v4+ with VerifyOnly, or v5
//! adding for a transaction version 2 producer), AddOffsetsToTxn, EndTxn (v5: transaction
//! version 2), DescribeTransactions and ListTransactions, each routed to the
//! shard of its transactional id's `__transaction_state` partition. Routing errors
//! (NOT_COORDINATOR, COORDINATOR_LOAD_IN_PROGRESS, COORDINATOR_NOT_AVAILABLE) come back in the
//! response's own shape; PRODUCER_FENCED goes to clients too old to know it as
//! INVALID_PRODUCER_EPOCH, as Kafka answers them.

use crate::coordinator::group_coordinator::OFFSETS_TOPIC;
use crate::coordinator::producer_ids::ProducerIds;
use crate::coordinator::txn_coordinator::{abortable_for, TxnCoordinator};
use fjord_metadata::MetadataImage;
use fjord_protocol::generated::{
    add_offsets_to_txn_request::AddOffsetsToTxnRequest,
    add_offsets_to_txn_response::AddOffsetsToTxnResponse,
    add_partitions_to_txn_request::{AddPartitionsToTxnRequest, AddPartitionsToTxnTopic},
    add_partitions_to_txn_response::{
        AddPartitionsToTxnPartitionResult, AddPartitionsToTxnResponse, AddPartitionsToTxnResult,
        AddPartitionsToTxnTopicResult,
    },
    describe_transactions_request::DescribeTransactionsRequest,
    describe_transactions_response::{
        DescribeTransactionsResponse, TopicData, TransactionState as DescribedState,
    },
    end_txn_request::EndTxnRequest,
    end_txn_response::EndTxnResponse,
    init_producer_id_request::InitProducerIdRequest,
    init_producer_id_response::InitProducerIdResponse,
    list_transactions_request::ListTransactionsRequest,
    list_transactions_response::{ListTransactionsResponse, TransactionState as ListedState},
};
use fjord_protocol::ErrorCode;
use fjord_txn::shard::{EndRequest, InitRequest};
use fjord_txn::{TxnMetadata, TxnState};
use std::sync::Arc;

/// The first AddPartitionsToTxn version (brokers') with a batch of transactions.
const BATCHED_ADD_VERSION: i16 = 4;
/// The AddPartitionsToTxn version a broker adds partitions with for a transaction version 2
/// producer (KIP-890), and the first to know TRANSACTION_ABORTABLE.
pub const ADD_FOR_VERSION_2: i16 = 5;
/// The first EndTxn version of transaction version 2: the epoch is bumped, and the answer
/// carries the producer id and epoch.
const END_VERSION_2: i16 = 5;
/// The most transactions one AddPartitionsToTxn names.
pub const MAX_TRANSACTIONS_PER_REQUEST: usize = 10_000;
/// The most partitions one AddPartitionsToTxn names for one transaction.
pub const MAX_PARTITIONS_PER_ADD: usize = 10_000;

/// PRODUCER_FENCED as a client at `version` knows it: INVALID_PRODUCER_EPOCH before
/// `since`.
fn for_version(code: ErrorCode, version: i16, since: i16) -> ErrorCode {
    if code == ErrorCode::ProducerFenced && version < since {
        ErrorCode::InvalidProducerEpoch
    } else {
        code
    }
}

/// The transaction APIs' context.
pub struct Transactions<'a> {
    /// The transaction coordinator.
    pub coordinator: &'a Arc<TxnCoordinator>,
    /// Where new producer ids come from.
    pub producer_ids: &'a ProducerIds,
    /// The image the request is answered from.
    pub image: Arc<MetadataImage>,
    /// `offsets.topic.num.partitions` (AddOffsetsToTxn adds the group's partition).
    pub offsets_partitions: i32,
}

impl Transactions<'_> {
    /// InitProducerId with a transactional id.
    pub async fn init_producer_id(
        &self,
        r: &InitProducerIdRequest,
        version: i16,
    ) -> InitProducerIdResponse {
        let id = r.transactional_id.clone().unwrap_or_default();
        let request = InitRequest {
            transactional_id: id.clone(),
            timeout_ms: r.transaction_timeout_ms,
            expected: (version >= 3 && r.producer_id >= 0)
                .then_some((r.producer_id, r.producer_epoch)),
        };
        // A new producer id is taken before the shard is locked (it may ask the controller);
        // one not used is simply never given out.
        let needs = self
            .coordinator
            .read(&self.image, &id, |s| s.needs_producer_id(&id))
            .await;
        let fresh = match needs {
            Ok(true) => match self.producer_ids.next(&self.image).await {
                Ok(pid) => Some(pid),
                Err(code) => return init_failed(code),
            },
            Ok(false) => None,
            Err(code) => return init_failed(code),
        };
        let answer = self
            .coordinator
            .apply(&self.image, &id, |s, now| {
                s.init_producer_id(&request, fresh, now)
            })
            .await
            .and_then(|r| r);
        match answer {
            Ok((producer_id, producer_epoch)) => InitProducerIdResponse {
                producer_id,
                producer_epoch,
                ..Default::default()
            },
            Err(code) => init_failed(for_version(code, version, 4)),
        }
    }

    /// AddPartitionsToTxn.
    pub async fn add_partitions(
        &self,
        r: &AddPartitionsToTxnRequest,
        version: i16,
    ) -> AddPartitionsToTxnResponse {
        if version < BATCHED_ADD_VERSION {
            let topics = self
                .add_one(
                    &r.v3_and_below_transactional_id,
                    r.v3_and_below_producer_id,
                    r.v3_and_below_producer_epoch,
                    &r.v3_and_below_topics,
                    false,
                    version,
                )
                .await;
            return AddPartitionsToTxnResponse {
                results_by_topic_v3_and_below: topics,
                ..Default::default()
            };
        }
        let mut out = AddPartitionsToTxnResponse::default();
        for t in r.transactions.iter().take(MAX_TRANSACTIONS_PER_REQUEST) {
            let topic_results = self
                .add_one(
                    &t.transactional_id,
                    t.producer_id,
                    t.producer_epoch,
                    &t.topics,
                    t.verify_only,
                    version,
                )
                .await;
            out.results_by_transaction.push(AddPartitionsToTxnResult {
                transactional_id: t.transactional_id.clone(),
                topic_results,
                ..Default::default()
            });
        }
        out
    }

    /// One transaction's partitions: added (or, with `verify_only`, checked to be in it).
    /// Unknown partitions fail the whole transaction's request: they get
    /// UNKNOWN_TOPIC_OR_PARTITION and the others OPERATION_NOT_ATTEMPTED.
    async fn add_one(
        &self,
        id: &str,
        pid: i64,
        epoch: i16,
        topics: &[AddPartitionsToTxnTopic],
        verify_only: bool,
        version: i16,
    ) -> Vec<AddPartitionsToTxnTopicResult> {
        let partitions: Vec<(String, i32)> = topics
            .iter()
            .flat_map(|t| t.partitions.iter().map(|p| (t.name.clone(), *p)))
            .take(MAX_PARTITIONS_PER_ADD)
            .collect();
        let known = |(t, p): &(String, i32)| {
            self.image
                .topics
                .get_by_name(t)
                .is_some_and(|t| t.partitions.contains_key(p))
        };
        let codes: Vec<ErrorCode> = if !partitions.iter().all(known) {
            partitions
                .iter()
                .map(|p| {
                    if known(p) {
                        ErrorCode::OperationNotAttempted
                    } else {
                        ErrorCode::UnknownTopicOrPartition
                    }
                })
                .collect()
        } else if verify_only {
            let abortable_known = version >= ADD_FOR_VERSION_2;
            self.coordinator
                .verify_here(&self.image, (id, pid, epoch), &partitions)
                .await
                .into_iter()
                .map(|code| abortable_for(code, abortable_known))
                .collect()
        } else {
            let client_version = if version >= ADD_FOR_VERSION_2 { 2 } else { 0 };
            let code = self
                .coordinator
                .add_here(&self.image, (id, pid, epoch), &partitions, client_version)
                .await;
            vec![for_version(code, version, 2); partitions.len()]
        };
        let mut out: Vec<AddPartitionsToTxnTopicResult> = Vec::new();
        for ((topic, index), code) in partitions.into_iter().zip(codes) {
            let result = AddPartitionsToTxnPartitionResult {
                partition_index: index,
                partition_error_code: code.code(),
                ..Default::default()
            };
            match out.last_mut() {
                Some(t) if t.name == topic => t.results_by_partition.push(result),
                _ => out.push(AddPartitionsToTxnTopicResult {
                    name: topic,
                    results_by_partition: vec![result],
                    ..Default::default()
                }),
            }
        }
        out
    }

    /// AddOffsetsToTxn: the group's `__consumer_offsets` partition joins the transaction.
    pub async fn add_offsets(
        &self,
        r: &AddOffsetsToTxnRequest,
        version: i16,
    ) -> AddOffsetsToTxnResponse {
        let partition = (
            OFFSETS_TOPIC.to_string(),
            fjord_protocol::coordinator::partition_for(&r.group_id, self.offsets_partitions),
        );
        let added = self
            .coordinator
            .apply(&self.image, &r.transactional_id, |s, now| {
                s.add_partitions(
                    &r.transactional_id,
                    r.producer_id,
                    r.producer_epoch,
                    std::slice::from_ref(&partition),
                    0,
                    now,
                )
            })
            .await
            .and_then(|r| r);
        AddOffsetsToTxnResponse {
            error_code: for_version(added.err().unwrap_or(ErrorCode::None), version, 2).code(),
            ..Default::default()
        }
    }

    /// EndTxn: answered once the decision is written; the markers follow. From v5
    /// (transaction version 2) the epoch is bumped and the answer carries the producer id and
    /// epoch to use next.
    pub async fn end_txn(&self, r: &EndTxnRequest, version: i16) -> EndTxnResponse {
        let request = EndRequest {
            transactional_id: r.transactional_id.clone(),
            producer_id: r.producer_id,
            producer_epoch: r.producer_epoch,
            commit: r.committed,
            client_version: if version >= END_VERSION_2 { 2 } else { 0 },
        };
        let id = &r.transactional_id;
        let needs = self
            .coordinator
            .read(&self.image, id, |s| s.end_needs_producer_id(&request))
            .await;
        let fresh = match needs {
            Ok(true) => match self.producer_ids.next(&self.image).await {
                Ok(pid) => Some(pid),
                Err(code) => return end_failed(code, version),
            },
            Ok(false) => None,
            Err(code) => return end_failed(code, version),
        };
        let ended = self
            .coordinator
            .apply(&self.image, id, |s, now| s.end_txn(&request, fresh, now))
            .await
            .and_then(|r| r);
        match ended {
            Ok((producer_id, producer_epoch)) if version >= END_VERSION_2 => EndTxnResponse {
                producer_id,
                producer_epoch,
                ..Default::default()
            },
            Ok(_) => end_failed(ErrorCode::None, version),
            Err(code) => end_failed(code, version),
        }
    }

    /// DescribeTransactions.
    pub async fn describe(&self, r: &DescribeTransactionsRequest) -> DescribeTransactionsResponse {
        let mut out = DescribeTransactionsResponse::default();
        for id in r
            .transactional_ids
            .iter()
            .take(MAX_TRANSACTIONS_PER_REQUEST)
        {
            let found = self
                .coordinator
                .read(&self.image, id, |s| s.get(id).cloned())
                .await;
            out.transaction_states.push(match found {
                Ok(Some(m)) => described(&m),
                Ok(None) => not_described(id, ErrorCode::TransactionalIdNotFound),
                Err(code) => not_described(id, code),
            });
        }
        out
    }

    /// ListTransactions: the transactions of every loaded shard that pass the filters and
    /// that `visible` lets the caller see (DESCRIBE on the transactional id).
    pub async fn list(
        &self,
        r: &ListTransactionsRequest,
        version: i16,
        visible: impl Fn(&str) -> bool,
    ) -> ListTransactionsResponse {
        let mut out = ListTransactionsResponse::default();
        if self.coordinator.loading_in(&self.image) {
            out.error_code = ErrorCode::CoordinatorLoadInProgress.code();
            return out;
        }
        let mut states = Vec::new();
        for name in &r.state_filters {
            match TxnState::from_name(name) {
                Some(s) => states.push(s),
                None => out.unknown_state_filters.push(name.clone()),
            }
        }
        let pattern = match r
            .transactional_id_pattern
            .as_deref()
            .filter(|_| version >= 2)
        {
            Some(p) => match regex::Regex::new(&format!("^(?:{p})$")) {
                Ok(re) => Some(re),
                Err(_) => {
                    out.error_code = ErrorCode::InvalidRegularExpression.code();
                    return out;
                }
            },
            None => None,
        };
        let duration = if version >= 1 { r.duration_filter } else { -1 };
        let now = self.coordinator.clock().wall_ms();
        let listed = self
            .coordinator
            .each_shard(|s| {
                s.all()
                    .filter(|m| {
                        (r.state_filters.is_empty() || states.contains(&m.state))
                            && (r.producer_id_filters.is_empty()
                                || r.producer_id_filters.contains(&m.producer_id))
                            && (duration < 0 || now - m.start_ms > duration)
                            && pattern
                                .as_ref()
                                .is_none_or(|re| re.is_match(&m.transactional_id))
                    })
                    .map(|m| ListedState {
                        transactional_id: m.transactional_id.clone(),
                        producer_id: m.producer_id,
                        transaction_state: m.state.name().to_string(),
                        ..Default::default()
                    })
                    .collect::<Vec<_>>()
            })
            .await;
        out.transaction_states = listed
            .into_iter()
            .flatten()
            .filter(|t| visible(&t.transactional_id))
            .collect();
        out.transaction_states
            .sort_by(|a, b| a.transactional_id.cmp(&b.transactional_id));
        out
    }
}

/// An EndTxn answer with no producer id (v0-4, or a failed end).
fn end_failed(code: ErrorCode, version: i16) -> EndTxnResponse {
    EndTxnResponse {
        error_code: for_version(code, version, 2).code(),
        producer_id: -1,
        producer_epoch: -1,
        ..Default::default()
    }
}

fn init_failed(code: ErrorCode) -> InitProducerIdResponse {
    InitProducerIdResponse {
        error_code: code.code(),
        producer_id: -1,
        producer_epoch: -1,
        ..Default::default()
    }
}

fn described(m: &TxnMetadata) -> DescribedState {
    let mut topics: Vec<TopicData> = Vec::new();
    for (topic, p) in &m.partitions {
        match topics.last_mut() {
            Some(t) if &t.topic == topic => t.partitions.push(*p),
            _ => topics.push(TopicData {
                topic: topic.clone(),
                partitions: vec![*p],
                ..Default::default()
            }),
        }
    }
    DescribedState {
        transactional_id: m.transactional_id.clone(),
        transaction_state: m.state.name().to_string(),
        transaction_timeout_ms: m.timeout_ms,
        transaction_start_time_ms: m.start_ms,
        producer_id: m.producer_id,
        producer_epoch: m.producer_epoch,
        topics,
        ..Default::default()
    }
}

fn not_described(id: &str, code: ErrorCode) -> DescribedState {
    DescribedState {
        error_code: code.code(),
        transactional_id: id.to_string(),
        transaction_state: String::new(),
        transaction_timeout_ms: -1,
        transaction_start_time_ms: -1,
        producer_id: -1,
        producer_epoch: -1,
        ..Default::default()
    }
}
