//! Produce: each partition's batches are validated and appended by its leader
//! (`PartitionLog::append_as_leader` checks framing, CRC, record counts, `max.message.bytes`,
//! keys on compacted topics, CreateTime timestamps within `message.timestamp.before.max.ms` /
//! `after.max.ms`, and stamps LogAppendTime), answered per partition with Kafka's error codes
//! and, from v8, the refused records in `record_errors`; NOT_LEADER_OR_FOLLOWER carries the
//! current leader (v10+). acks=0 gets no answer; acks=1 is answered once the leader appended;
//! acks=-1 is refused with NOT_ENOUGH_REPLICAS while the ISR is below the effective min ISR,
//! and answered once the high watermark passes the append (every in-sync replica has it),
//! with NOT_ENOUGH_REPLICAS_AFTER_APPEND if the ISR fell below min ISR meanwhile and
//! REQUEST_TIMED_OUT after the request's `timeout_ms`. Record data is appended as the
//! request's own `Bytes`, never copied. The appends run off the async workers. A
//! transactional Produce that starts a transaction in a partition is first verified with the
//! transaction's coordinator (KIP-890, [`verify`]).

use crate::coordinator::txn_coordinator::MarkerWriter;
use crate::error::BrokerError;
use crate::replica::partition::Partition;
use crate::replica::replica_manager::ReplicaManager;
use fjord_log::VerificationGuard;
use fjord_metadata::MetadataImage;
use fjord_protocol::generated::produce_request::ProduceRequest;
use fjord_protocol::generated::produce_response::{
    BatchIndexAndErrorMessage, LeaderIdAndEpoch, NodeEndpoint, PartitionProduceResponse,
    ProduceResponse, TopicProduceResponse,
};
use fjord_protocol::records::RecordBatches;
use fjord_protocol::{ErrorCode, Records};
use fjord_util::system_now_ms;
use fjord_util::Clock;
use std::collections::HashMap;
use std::sync::Arc;

/// The first Produce version with the leader hint on NOT_LEADER_OR_FOLLOWER (KIP-951).
const LEADER_HINT_VERSION: i16 = 10;
/// The first Produce version with per-record errors.
const RECORD_ERRORS_VERSION: i16 = 8;
/// The first Produce version that names topics by id.
const TOPIC_ID_VERSION: i16 = 13;
/// The first Produce version that knows TRANSACTION_ABORTABLE (KIP-890).
const ABORTABLE_VERSION: i16 = 11;
/// The first Produce version whose transactional producer leaves adding its partitions to
/// the broker, once transaction version 2 is finalized (KIP-890 part 2).
const ADD_PARTITIONS_VERSION: i16 = 12;
/// The `transaction.version` level of KIP-890 part 2.
pub const TRANSACTION_VERSION_2: i16 = 2;

/// A Produce request whose batches were appended: its answer, once what acks=-1 waits for
/// has committed.
pub struct Appended {
    response: ProduceResponse,
    waits: Vec<Wait>,
    /// When the acks=-1 wait times out, on `clock`'s monotonic time.
    deadline: i64,
    clock: Clock,
    acks: i16,
}

impl Appended {
    /// True when the answer waits for replication (acks=-1 appends).
    pub fn waits(&self) -> bool {
        !self.waits.is_empty()
    }

    /// The answer once every acks=-1 append committed, or failed, or the request's
    /// `timeout_ms` passed; `None` for acks=0.
    pub async fn committed(self) -> Option<ProduceResponse> {
        let Appended {
            mut response,
            waits,
            deadline,
            clock,
            acks,
        } = self;
        // One deadline for all: waiting on each in turn takes as long as the slowest.
        for w in &waits {
            let waited =
                w.on.wait_committed(w.leader_epoch, w.required, deadline, &clock)
                    .await;
            tracing::trace!(
                topic = %w.on.topic,
                partition = w.on.index,
                required = w.required,
                "acks=all wait ended: {waited:?}"
            );
            if let Err(code) = waited {
                let r = &mut response.responses[w.topic].partition_responses[w.partition];
                // Kafka's answer to a failed acks=all wait carries no message.
                r.error_code = code.code();
            }
        }
        (acks != 0).then_some(response)
    }
}

/// Whether an append of `request` may fsync (a hosted partition it names has a flush
/// policy), so it must not run on an async worker.
fn appends_may_fsync(
    rm: &ReplicaManager,
    image: &MetadataImage,
    request: &ProduceRequest,
    version: i16,
) -> bool {
    request.topic_data.iter().any(|t| {
        let topic = if version >= TOPIC_ID_VERSION {
            image.topics.by_id.get(&t.topic_id)
        } else {
            image.topics.get_by_name(&t.name)
        };
        topic.is_some_and(|topic| {
            t.partition_data.iter().any(|p| {
                rm.get(topic.id, p.index)
                    .is_some_and(|h| h.log.may_fsync_on_append())
            })
        })
    })
}

/// Where a partition a Produce request names stands on this broker.
pub enum Target<P> {
    /// This broker leads it.
    Led(P),
    /// It is not led here: NOT_LEADER_OR_FOLLOWER, or KAFKA_STORAGE_ERROR when its log dir is
    /// offline.
    NotServed(ErrorCode),
}

/// What the plan asks of a partition this broker leads.
pub trait Leads {
    /// The ISR size and effective min ISR when an acks=-1 write must be refused now
    /// (NOT_ENOUGH_REPLICAS), else `None`.
    fn acks_all_shortfall(&self) -> Option<(usize, usize)>;
}

impl Leads for Arc<Partition> {
    fn acks_all_shortfall(&self) -> Option<(usize, usize)> {
        self.check_acks_all().err().map(|n| (n.isr, n.min_isr))
    }
}

/// One append a Produce plan makes: where its answer sits in the response, the partition and
/// its records.
pub struct PlannedAppend<P> {
    /// Index of the topic in the response.
    pub topic: usize,
    /// Index of the partition in the topic's answers.
    pub partition: usize,
    /// The partition.
    pub target: P,
    /// The batches, as the request carried them.
    pub records: bytes::Bytes,
}

/// A Produce request decided without I/O: the response with every refused partition answered
/// (acks, unknown topics and partitions, leadership with the leader hint, no
/// records, acks=-1 below min ISR), and the appends to make.
pub struct ProducePlan<P> {
    /// The response; the appended partitions' answers are filled in by the appends.
    pub response: ProduceResponse,
    /// The appends, in request order.
    pub appends: Vec<PlannedAppend<P>>,
}

/// Plans `request` at `version` against `image`; `target` says where each (topic id,
/// partition) stands on this broker; leader hints name endpoints on `listener`.
pub fn plan<P: Leads>(
    request: ProduceRequest,
    version: i16,
    image: &MetadataImage,
    listener: &str,
    target: impl Fn(fjord_protocol::Uuid, i32) -> Target<P>,
) -> ProducePlan<P> {
    let acks = request.acks;
    let error_for_all = if !matches!(acks, -1..=1) {
        Some((ErrorCode::InvalidRequiredAcks, "acks must be -1, 0 or 1"))
    } else {
        None
    };
    let mut out = ProduceResponse::default();
    let mut appends = Vec::new();
    let mut leaders = Vec::new();
    for t in request.topic_data {
        let topic = if version >= TOPIC_ID_VERSION {
            image.topics.by_id.get(&t.topic_id).cloned()
        } else {
            image.topics.get_by_name(&t.name).cloned()
        };
        let mut result = TopicProduceResponse {
            name: t.name.clone(),
            topic_id: t.topic_id,
            ..Default::default()
        };
        for p in t.partition_data {
            let mut r = PartitionProduceResponse {
                index: p.index,
                base_offset: -1,
                log_append_time_ms: -1,
                log_start_offset: -1,
                ..Default::default()
            };
            let refused = (|| {
                if let Some((code, message)) = error_for_all {
                    return Err((code, message.to_string()));
                }
                let Some(topic) = &topic else {
                    if version >= TOPIC_ID_VERSION {
                        return Err((
                            ErrorCode::UnknownTopicId,
                            "This server does not host this topic.".into(),
                        ));
                    }
                    if let Err(e) = fjord_metadata::names::validate_topic_name(&t.name) {
                        return Err((ErrorCode::InvalidTopicException, e.to_string()));
                    }
                    return Err((
                        ErrorCode::UnknownTopicOrPartition,
                        "This server does not host this topic.".into(),
                    ));
                };
                let Some(registration) = topic.partitions.get(&p.index) else {
                    return Err((
                        ErrorCode::UnknownTopicOrPartition,
                        "This server does not host this topic-partition.".into(),
                    ));
                };
                let partition = match target(topic.id, p.index) {
                    Target::Led(partition) => partition,
                    Target::NotServed(code) => {
                        if version >= LEADER_HINT_VERSION {
                            r.current_leader = LeaderIdAndEpoch {
                                leader_id: registration.leader,
                                leader_epoch: registration.leader_epoch,
                                ..Default::default()
                            };
                            leaders.push(registration.leader);
                        }
                        let message = match code {
                            ErrorCode::KafkaStorageError => {
                                "The log dir of this replica is offline on this broker."
                            }
                            _ => "This server is not the leader for that topic-partition.",
                        };
                        return Err((code, message.into()));
                    }
                };
                // Decoded requests hold their records in memory.
                let Some(Records::Memory(records)) = p.records else {
                    return Err((ErrorCode::CorruptMessage, "no records".into()));
                };
                if acks == -1 {
                    if let Some((isr, min_isr)) = partition.acks_all_shortfall() {
                        return Err((
                            ErrorCode::NotEnoughReplicas,
                            format!(
                                "The size of the current ISR {isr} is insufficient to satisfy \
                                 the min.isr requirement of {min_isr} for partition {}-{}",
                                topic.name, p.index
                            ),
                        ));
                    }
                }
                Ok((partition, records))
            })();
            match refused {
                Ok((target, records)) => appends.push(PlannedAppend {
                    topic: out.responses.len(),
                    partition: result.partition_responses.len(),
                    target,
                    records,
                }),
                Err((code, message)) => fail(&mut r, version, code, message),
            }
            result.partition_responses.push(r);
        }
        out.responses.push(result);
    }
    out.node_endpoints = crate::api::metadata::leader_endpoints(
        image,
        leaders,
        listener,
        |node_id, host, port, rack| NodeEndpoint {
            node_id,
            host,
            port,
            rack,
            ..Default::default()
        },
    );
    ProducePlan {
        response: out,
        appends,
    }
}

/// Answers a partition with `code`. As Kafka's (found by the differential test), the answer
/// carries `message` only from v8 and only for a batch whose records failed validation (it
/// has record errors, KIP-467); other refusals carry the code alone, so a client shows its
/// own text for it. The reason is logged.
fn fail(r: &mut PartitionProduceResponse, version: i16, code: ErrorCode, message: String) {
    r.error_code = code.code();
    tracing::debug!(code = code.name(), "produce refused: {message}");
    if version >= RECORD_ERRORS_VERSION && !r.record_errors.is_empty() {
        r.error_message = Some(message);
    }
}

/// What a transactional Produce's verification found (KIP-890), per (topic id, partition):
/// the guards of partitions whose transaction the coordinator confirmed, and the errors of
/// those it did not. `None` from [`verify`] when the request needs no verification.
#[derive(Debug, Default)]
pub struct Verified {
    guards: HashMap<PartitionKey, VerificationGuard>,
    refused: HashMap<PartitionKey, ErrorCode>,
}

/// A partition by topic id and index.
type PartitionKey = (fjord_protocol::Uuid, i32);

/// Verifies a transactional Produce before its appends (KIP-890, with
/// `transaction.partition.verification.enable`): every partition this broker leads where the
/// request's producer has no transaction open yet is checked with the transaction's
/// coordinator, in one request, and its guard taken before asking. `None` for a request
/// without a transactional id, or when verification is off.
pub async fn verify(
    replicas: &ReplicaManager,
    markers: &MarkerWriter,
    image: &Arc<MetadataImage>,
    request: &ProduceRequest,
    version: i16,
) -> Option<Verified> {
    let id = request.transactional_id.as_deref()?;
    // A transaction version 2 producer (Produce v12+ once the feature is finalized) does not
    // add its partitions itself: the broker adds them, verification setting or not.
    let add = version >= ADD_PARTITIONS_VERSION
        && image.features.transaction_version() >= TRANSACTION_VERSION_2;
    if !markers.verifies() && !add {
        return None;
    }
    let me = replicas.node_id();
    let mut asked: Vec<(PartitionKey, (String, i32), VerificationGuard)> = Vec::new();
    let mut producer = None;
    let mut unserved = Vec::new();
    for t in &request.topic_data {
        let topic = if version >= TOPIC_ID_VERSION {
            image.topics.by_id.get(&t.topic_id)
        } else {
            image.topics.get_by_name(&t.name)
        };
        let Some(topic) = topic else { continue };
        for p in &t.partition_data {
            let Some(partition) = replicas.get(topic.id, p.index).filter(|h| h.led_by(me)) else {
                // Not led here yet (the image names this broker, its replica is not made
                // yet): if it is by the append, the batch must not reach it unverified, where
                // it would be refused as INVALID_TXN_STATE, which is fatal to the producer.
                // NOT_LEADER_OR_FOLLOWER is retried, and the retry is verified.
                unserved.push((topic.id, p.index));
                continue;
            };
            let Some(Records::Memory(records)) = &p.records else {
                continue;
            };
            let Some(Ok(first)) = RecordBatches::new(records.clone()).next() else {
                continue;
            };
            if !first.is_transactional() || first.is_control() {
                continue;
            }
            producer = Some((first.producer_id(), first.producer_epoch()));
            if let Some(guard) = partition
                .log
                .needs_verification(first.producer_id(), first.producer_epoch())
            {
                asked.push(((topic.id, p.index), (topic.name.clone(), p.index), guard));
            }
        }
    }
    let mut verified = Verified::default();
    verified.refused.extend(
        unserved
            .into_iter()
            .map(|key| (key, ErrorCode::NotLeaderOrFollower)),
    );
    let Some((pid, epoch)) = producer else {
        return Some(verified);
    };
    if asked.is_empty() {
        return Some(verified);
    }
    let names: Vec<(String, i32)> = asked.iter().map(|(_, n, _)| n.clone()).collect();
    let check = crate::coordinator::txn_coordinator::Check {
        transactional_id: id,
        producer_id: pid,
        producer_epoch: epoch,
        add,
        abortable_known: version >= ABORTABLE_VERSION,
    };
    let codes = markers.verify(image, check, &names).await;
    for ((key, _, guard), code) in asked.into_iter().zip(codes) {
        if code == ErrorCode::None {
            verified.guards.insert(key, guard);
        } else {
            verified.refused.insert(key, code);
        }
    }
    Some(verified)
}

/// Validates and appends a Produce request's batches (in order, before the connection's next
/// request is handled); `Err` when the appends' task failed. A small append runs on the
/// async worker (see [`crate::data::inline_io`]). With `verified` (a transactional request,
/// verification on), a transaction starts in a partition only with its guard.
pub async fn append(
    replicas: &Arc<ReplicaManager>,
    image: Arc<MetadataImage>,
    listener: &str,
    request: ProduceRequest,
    version: i16,
    verified: Option<Verified>,
    clock: &Clock,
) -> Result<Appended, BrokerError> {
    let acks = request.acks;
    let timeout_ms = request.timeout_ms;
    let rm = replicas.clone();
    let me = rm.node_id();
    let listener = listener.to_string();
    let bytes: usize = request
        .topic_data
        .iter()
        .flat_map(|t| &t.partition_data)
        .map(|p| p.records.as_ref().map_or(0, Records::len))
        .sum();
    let inline = crate::data::inline_io::append_inline(bytes, || {
        appends_may_fsync(&rm, &image, &request, version)
    });
    let appended = crate::data::inline_io::run(inline, move || {
        let ProducePlan {
            mut response,
            appends,
        } = plan(request, version, &image, &listener, |topic, index| match rm
            .get(topic, index)
            .filter(|h| h.led_by(me))
        {
            Some(p) => Target::Led(p),
            None => Target::NotServed(rm.not_served(topic, index)),
        });
        let mut waits = Vec::new();
        for a in appends {
            let r = &mut response.responses[a.topic].partition_responses[a.partition];
            let partition = a.target;
            let epoch = partition.leader_epoch();
            let key = (partition.topic_id, partition.index);
            let appended = match &verified {
                None => partition
                    .log
                    .append_as_leader(a.records, epoch, system_now_ms()),
                Some(v) => match v.refused.get(&key) {
                    Some(code) => {
                        fail(
                            r,
                            version,
                            *code,
                            format!(
                                "the transaction's coordinator did not confirm this partition: {}",
                                code.name()
                            ),
                        );
                        continue;
                    }
                    None => partition.log.append_verified(
                        a.records,
                        epoch,
                        system_now_ms(),
                        v.guards.get(&key).copied(),
                    ),
                },
            };
            match appended {
                Ok(info) => {
                    r.base_offset = info.first_offset;
                    partition
                        .bytes_in
                        .fetch_add(info.bytes as u64, std::sync::atomic::Ordering::Relaxed);
                    r.log_append_time_ms = info.log_append_time;
                    r.log_start_offset = partition.log.log_start_offset();
                    partition.after_append();
                    tracing::trace!(
                        topic = %partition.topic,
                        partition = partition.index,
                        offset = info.last_offset,
                        "produce appended by the leader"
                    );
                    if acks == -1 {
                        waits.push(Wait {
                            topic: a.topic,
                            partition: a.partition,
                            on: partition.clone(),
                            leader_epoch: epoch,
                            required: info.last_offset + 1,
                        });
                    }
                }
                Err(e) => {
                    if version >= RECORD_ERRORS_VERSION {
                        r.record_errors = e
                            .record_errors()
                            .iter()
                            .map(|(i, why)| BatchIndexAndErrorMessage {
                                batch_index: *i,
                                batch_index_error_message: Some(why.clone()),
                                ..Default::default()
                            })
                            .collect();
                    }
                    fail(r, version, e.error_code(), e.to_string());
                    // A failing disk (KAFKA_STORAGE_ERROR) takes its log dir offline; the
                    // client finds the new leader.
                    let _ = rm.partition_storage_error(&partition, e);
                }
            }
        }
        (response, waits)
    })
    .await;
    let (response, waits) = appended.map_err(BrokerError::task("a produce request's appends"))?;
    Ok(Appended {
        response,
        waits,
        deadline: clock.monotonic_ms() + i64::from(timeout_ms.max(0)),
        clock: clock.clone(),
        acks,
    })
}

/// An acks=-1 append waiting for the in-sync replicas: where its answer sits in the response,
/// its partition, the leader epoch it was written in and the offset the high watermark must
/// pass.
struct Wait {
    topic: usize,
    partition: usize,
    on: Arc<Partition>,
    leader_epoch: i32,
    required: i64,
}

#[cfg(test)]
mod tests {
    //! The plan's rules, case by case as Kafka states them (KafkaApis.handleProduceRequest,
    //! ReplicaManager.appendRecords, KIP-951's leader hint), with no socket, file or log.
    use super::*;
    use bytes::Bytes;
    use fjord_protocol::generated::produce_request::{PartitionProduceData, TopicProduceData};
    use fjord_protocol::generated::{
        partition_record::PartitionRecord,
        register_broker_record::{BrokerEndpoint, RegisterBrokerRecord},
        topic_record::TopicRecord,
    };
    use fjord_protocol::{MetadataRecord, Uuid};

    const TOPIC: Uuid = Uuid::from_u128(9);

    /// Topic `t` (partition 0 led by broker 1 in epoch 4, partition 1 by broker 2 in epoch
    /// 7), brokers 1 and 2 on PLAINTEXT.
    fn image() -> MetadataImage {
        let broker = |id: i32| {
            MetadataRecord::RegisterBroker(RegisterBrokerRecord {
                broker_id: id,
                broker_epoch: i64::from(id),
                end_points: vec![BrokerEndpoint {
                    name: "PLAINTEXT".into(),
                    host: "127.0.0.1".into(),
                    port: 9000 + id as u16,
                    ..Default::default()
                }],
                ..Default::default()
            })
        };
        let partition = |index: i32, leader: i32, leader_epoch: i32| {
            MetadataRecord::Partition(PartitionRecord {
                partition_id: index,
                topic_id: TOPIC,
                replicas: vec![1, 2],
                isr: vec![1, 2],
                leader,
                leader_epoch,
                ..Default::default()
            })
        };
        let records = vec![
            broker(1),
            broker(2),
            MetadataRecord::Topic(TopicRecord {
                name: "t".into(),
                topic_id: TOPIC,
                ..Default::default()
            }),
            partition(0, 1, 4),
            partition(1, 2, 7),
        ];
        MetadataImage::empty().apply(&records, 10, 1).unwrap().0
    }

    /// A partition this broker leads, short of in-sync replicas or not.
    struct Fake(Option<(usize, usize)>);

    impl Leads for Fake {
        fn acks_all_shortfall(&self) -> Option<(usize, usize)> {
            self.0
        }
    }

    fn request(acks: i16, topics: &[(&str, Uuid, &[i32])]) -> ProduceRequest {
        ProduceRequest {
            acks,
            timeout_ms: 1_000,
            topic_data: topics
                .iter()
                .map(|(name, id, partitions)| TopicProduceData {
                    name: name.to_string(),
                    topic_id: *id,
                    partition_data: partitions
                        .iter()
                        .map(|i| PartitionProduceData {
                            index: *i,
                            records: Some(Records::Memory(Bytes::from_static(b"batch"))),
                            ..Default::default()
                        })
                        .collect(),
                    ..Default::default()
                })
                .collect(),
            ..Default::default()
        }
    }

    /// This broker (1) leads partition 0 with `shortfall`; partition 1 is led elsewhere.
    fn on_broker_1(shortfall: Option<(usize, usize)>) -> impl Fn(Uuid, i32) -> Target<Fake> {
        move |_, index| match index {
            0 => Target::Led(Fake(shortfall)),
            _ => Target::NotServed(ErrorCode::NotLeaderOrFollower),
        }
    }

    fn codes(p: &ProducePlan<Fake>) -> Vec<i16> {
        p.response
            .responses
            .iter()
            .flat_map(|t| t.partition_responses.iter().map(|r| r.error_code))
            .collect()
    }

    #[test]
    fn acks_other_than_minus_one_zero_or_one_refuse_every_partition() {
        let p = plan(
            request(2, &[("t", TOPIC, &[0, 1])]),
            9,
            &image(),
            "PLAINTEXT",
            on_broker_1(None),
        );
        assert_eq!(codes(&p), [ErrorCode::InvalidRequiredAcks.code(); 2]);
        assert!(p.appends.is_empty());
    }

    #[test]
    fn a_transactional_produce_is_planned_like_any_other() {
        // Its producer rules (open transaction, epochs) are the log's.
        let mut r = request(-1, &[("t", TOPIC, &[0])]);
        r.transactional_id = Some("tx".into());
        let p = plan(r, 9, &image(), "PLAINTEXT", on_broker_1(None));
        assert_eq!((codes(&p), p.appends.len()), (vec![0], 1));
    }

    #[test]
    fn unknown_topics_and_partitions_are_answered_by_name_or_by_id() {
        let by_name = request(1, &[("nope", Uuid::nil(), &[0]), ("t", Uuid::nil(), &[5])]);
        let p = plan(by_name, 12, &image(), "PLAINTEXT", on_broker_1(None));
        assert_eq!(codes(&p), [ErrorCode::UnknownTopicOrPartition.code(); 2]);
        let invalid = request(1, &[("bad$#!", Uuid::nil(), &[0])]);
        let p = plan(invalid, 12, &image(), "PLAINTEXT", on_broker_1(None));
        assert_eq!(codes(&p), [ErrorCode::InvalidTopicException.code()]);
        let by_id = request(1, &[("", Uuid::from_u128(77), &[0])]);
        let p = plan(by_id, 13, &image(), "PLAINTEXT", on_broker_1(None));
        assert_eq!(codes(&p), [ErrorCode::UnknownTopicId.code()]);
        let known_id = request(1, &[("", TOPIC, &[0])]);
        let p = plan(known_id, 13, &image(), "PLAINTEXT", on_broker_1(None));
        assert_eq!((codes(&p), p.appends.len()), (vec![0], 1));
    }

    #[test]
    fn a_partition_led_elsewhere_names_its_leader_from_v10() {
        let p = plan(
            request(1, &[("t", TOPIC, &[1])]),
            10,
            &image(),
            "PLAINTEXT",
            on_broker_1(None),
        );
        let r = &p.response.responses[0].partition_responses[0];
        assert_eq!(r.error_code, ErrorCode::NotLeaderOrFollower.code());
        assert_eq!(
            (r.current_leader.leader_id, r.current_leader.leader_epoch),
            (2, 7)
        );
        let hinted: Vec<(i32, i32)> = p
            .response
            .node_endpoints
            .iter()
            .map(|e| (e.node_id, e.port))
            .collect();
        assert_eq!(hinted, [(2, 9002)]);
        let old = plan(
            request(1, &[("t", TOPIC, &[1])]),
            9,
            &image(),
            "PLAINTEXT",
            on_broker_1(None),
        );
        let r = &old.response.responses[0].partition_responses[0];
        assert_eq!(
            r.current_leader.leader_id,
            LeaderIdAndEpoch::default().leader_id
        );
        assert!(old.response.node_endpoints.is_empty());
    }

    #[test]
    fn an_offline_log_dir_is_a_storage_error() {
        let offline = |_: Uuid, _: i32| Target::<Fake>::NotServed(ErrorCode::KafkaStorageError);
        let p = plan(
            request(1, &[("t", TOPIC, &[0])]),
            9,
            &image(),
            "PLAINTEXT",
            offline,
        );
        let r = &p.response.responses[0].partition_responses[0];
        assert_eq!(r.error_code, ErrorCode::KafkaStorageError.code());
        assert_eq!(r.error_message, None, "as Kafka: the code alone");
    }

    #[test]
    fn acks_all_below_min_isr_is_refused_before_appending_but_acks_one_is_not() {
        let short = Some((1, 2));
        let p = plan(
            request(-1, &[("t", TOPIC, &[0])]),
            9,
            &image(),
            "PLAINTEXT",
            on_broker_1(short),
        );
        let r = &p.response.responses[0].partition_responses[0];
        assert_eq!(r.error_code, ErrorCode::NotEnoughReplicas.code());
        assert_eq!(r.error_message, None, "as Kafka: the code alone");
        assert!(p.appends.is_empty());
        let p = plan(
            request(1, &[("t", TOPIC, &[0])]),
            9,
            &image(),
            "PLAINTEXT",
            on_broker_1(short),
        );
        assert_eq!((codes(&p), p.appends.len()), (vec![0], 1));
    }

    #[test]
    fn refusals_carry_no_message_and_keep_offsets_unknown() {
        for (version, has_message) in [(7, false), (8, false)] {
            let p = plan(
                request(1, &[("t", TOPIC, &[1])]),
                version,
                &image(),
                "PLAINTEXT",
                on_broker_1(None),
            );
            let r = &p.response.responses[0].partition_responses[0];
            assert_eq!(r.error_message.is_some(), has_message, "v{version}");
            assert_eq!(
                (r.base_offset, r.log_append_time_ms, r.log_start_offset),
                (-1, -1, -1)
            );
        }
    }

    #[test]
    fn each_append_knows_where_its_answer_goes() {
        let r = request(
            1,
            &[("nope", Uuid::nil(), &[0]), ("t", Uuid::nil(), &[1, 0, 0])],
        );
        let p = plan(r, 9, &image(), "PLAINTEXT", on_broker_1(None));
        let at: Vec<(usize, usize)> = p.appends.iter().map(|a| (a.topic, a.partition)).collect();
        assert_eq!(at, [(1, 1), (1, 2)]);
        assert!(p.appends.iter().all(|a| &a.records[..] == b"batch"));
        let no_records = ProduceRequest {
            acks: 1,
            topic_data: vec![TopicProduceData {
                name: "t".into(),
                partition_data: vec![PartitionProduceData::default()],
                ..Default::default()
            }],
            ..Default::default()
        };
        let p = plan(no_records, 9, &image(), "PLAINTEXT", on_broker_1(None));
        assert_eq!(codes(&p), [ErrorCode::CorruptMessage.code()]);
    }
}
