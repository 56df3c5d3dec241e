//! The share coordinator's five state RPCs on one shard (InitializeShareGroupState,
//! ReadShareGroupState, WriteShareGroupState, ReadShareGroupStateSummary,
//! DeleteShareGroupState): each partition of a request is handled on its own, as Kafka's
//! coordinator splits them, and answered with its own code. The driver routes each share-partition
//! to its own shard (a share-partition whose shard is not here is answered NOT_COORDINATOR
//! there). The records returned are appended before the answer goes out.

use fjord_protocol::generated::{
    delete_share_group_state_request::DeleteShareGroupStateRequest,
    delete_share_group_state_response::{
        DeleteShareGroupStateResponse, DeleteStateResult, PartitionResult as DeleteResult,
    },
    initialize_share_group_state_request::InitializeShareGroupStateRequest,
    initialize_share_group_state_response::{
        InitializeShareGroupStateResponse, InitializeStateResult,
        PartitionResult as InitializeResult,
    },
    read_share_group_state_request::ReadShareGroupStateRequest,
    read_share_group_state_response::{
        self, PartitionResult as ReadResult, ReadShareGroupStateResponse, ReadStateResult,
    },
    read_share_group_state_summary_request::ReadShareGroupStateSummaryRequest,
    read_share_group_state_summary_response::{
        PartitionResult as SummaryResult, ReadShareGroupStateSummaryResponse,
        ReadStateSummaryResult,
    },
    write_share_group_state_request::WriteShareGroupStateRequest,
    write_share_group_state_response::{
        PartitionResult as WriteResult, WriteShareGroupStateResponse, WriteStateResult,
    },
};
use uuid::Uuid;

use crate::coordinator::{CoordinatorError, ShareKey, ShareShard, StateRecord, TopicLookup};

/// An answer and the records to append before it goes out.
#[derive(Debug, Default)]
pub struct Handled<R> {
    /// The response.
    pub response: R,
    /// The records, in order.
    pub records: Vec<StateRecord>,
}

/// Runs `$body` for every partition of every topic of a request, grouping the answers by
/// topic as the request did.
macro_rules! per_partition {
    ($req:expr, $result:ident, $presult:ident, |$key:ident, $p:ident| $body:expr) => {{
        let mut results = Vec::with_capacity($req.topics.len());
        for t in &$req.topics {
            let mut partitions = Vec::with_capacity(t.partitions.len());
            for $p in &t.partitions {
                let $key = ShareKey {
                    group_id: $req.group_id.clone(),
                    topic_id: t.topic_id,
                    partition: $p.partition,
                };
                let answer: Result<$presult, CoordinatorError> = $body;
                partitions.push(answer.unwrap_or_else(|e| $presult {
                    partition: $p.partition,
                    error_code: e.code,
                    error_message: Some(e.message),
                    ..Default::default()
                }));
            }
            results.push($result {
                topic_id: t.topic_id,
                partitions,
                ..Default::default()
            });
        }
        results
    }};
}

/// InitializeShareGroupState.
pub fn initialize(
    shard: &mut ShareShard,
    r: &InitializeShareGroupStateRequest,
    topics: &dyn TopicLookup,
) -> Handled<InitializeShareGroupStateResponse> {
    let mut records = Vec::new();
    let results = per_partition!(r, InitializeStateResult, InitializeResult, |key, p| {
        shard
            .initialize(&key, p.state_epoch, p.start_offset, topics)
            .map(|rec| {
                records.push(rec);
                InitializeResult {
                    partition: p.partition,
                    ..Default::default()
                }
            })
    });
    Handled {
        response: InitializeShareGroupStateResponse {
            results,
            ..Default::default()
        },
        records,
    }
}

/// ReadShareGroupState (a newer leader epoch is recorded).
pub fn read(
    shard: &mut ShareShard,
    r: &ReadShareGroupStateRequest,
    topics: &dyn TopicLookup,
) -> Handled<ReadShareGroupStateResponse> {
    let mut records = Vec::new();
    let results = per_partition!(r, ReadStateResult, ReadResult, |key, p| {
        shard
            .read(&key, p.leader_epoch, topics)
            .map(|(state, bump)| {
                records.extend(bump);
                ReadResult {
                    partition: p.partition,
                    state_epoch: state.state_epoch,
                    start_offset: state.start_offset,
                    state_batches: crate::coordinator::to_wire!(
                        state.batches,
                        read_share_group_state_response
                    ),
                    ..Default::default()
                }
            })
    });
    Handled {
        response: ReadShareGroupStateResponse {
            results,
            ..Default::default()
        },
        records,
    }
}

/// WriteShareGroupState.
pub fn write(
    shard: &mut ShareShard,
    r: &WriteShareGroupStateRequest,
    topics: &dyn TopicLookup,
) -> Handled<WriteShareGroupStateResponse> {
    let mut records = Vec::new();
    let results = per_partition!(r, WriteStateResult, WriteResult, |key, p| {
        let batches = crate::coordinator::from_wire!(p.state_batches);
        shard
            .write(
                &key,
                p.state_epoch,
                p.leader_epoch,
                p.start_offset,
                &batches,
                topics,
            )
            .map(|rec| {
                records.push(rec);
                WriteResult {
                    partition: p.partition,
                    ..Default::default()
                }
            })
    });
    Handled {
        response: WriteShareGroupStateResponse {
            results,
            ..Default::default()
        },
        records,
    }
}

/// ReadShareGroupStateSummary (nothing is written).
pub fn read_summary(
    shard: &ShareShard,
    r: &ReadShareGroupStateSummaryRequest,
    topics: &dyn TopicLookup,
) -> ReadShareGroupStateSummaryResponse {
    let results = per_partition!(r, ReadStateSummaryResult, SummaryResult, |key, p| {
        shard.read_summary(&key, topics).map(|s| SummaryResult {
            partition: p.partition,
            state_epoch: s.state_epoch,
            leader_epoch: s.leader_epoch,
            start_offset: s.start_offset,
            delivery_complete_count: s.delivery_complete_count,
            ..Default::default()
        })
    });
    ReadShareGroupStateSummaryResponse {
        results,
        ..Default::default()
    }
}

/// DeleteShareGroupState.
pub fn delete(
    shard: &mut ShareShard,
    r: &DeleteShareGroupStateRequest,
) -> Handled<DeleteShareGroupStateResponse> {
    let mut records = Vec::new();
    let results = per_partition!(r, DeleteStateResult, DeleteResult, |key, p| {
        shard.delete(&key).map(|rec| {
            records.extend(rec);
            DeleteResult {
                partition: p.partition,
                ..Default::default()
            }
        })
    });
    Handled {
        response: DeleteShareGroupStateResponse {
            results,
            ..Default::default()
        },
        records,
    }
}

/// The coordinator key Kafka hashes to find a share-partition's coordinator
/// (`group:topicId:partition`, the topic id in Kafka's base64 form).
pub fn coordinator_key(group_id: &str, topic_id: Uuid, partition: i32) -> String {
    format!(
        "{group_id}:{}:{partition}",
        fjord_util::uuid_text::encode(&topic_id)
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use fjord_protocol::generated::{
        initialize_share_group_state_request::{InitializeStateData, PartitionData as InitP},
        read_share_group_state_request::{PartitionData as ReadP, ReadStateData},
        write_share_group_state_request::{
            PartitionData as WriteP, StateBatch as WriteBatch, WriteStateData,
        },
    };

    struct Two;
    impl TopicLookup for Two {
        fn has_partition(&self, _: Uuid, p: i32) -> bool {
            p < 2
        }
    }

    #[test]
    fn partitions_are_answered_one_by_one() {
        let mut shard = ShareShard::default();
        let topic = Uuid::from_u128(9);
        let init = initialize(
            &mut shard,
            &InitializeShareGroupStateRequest {
                group_id: "g".into(),
                topics: vec![InitializeStateData {
                    topic_id: topic,
                    partitions: (0..3)
                        .map(|p| InitP {
                            partition: p,
                            state_epoch: 0,
                            start_offset: 10,
                            ..Default::default()
                        })
                        .collect(),
                    ..Default::default()
                }],
                ..Default::default()
            },
            &Two,
        );
        let codes: Vec<i16> = init.response.results[0]
            .partitions
            .iter()
            .map(|p| p.error_code)
            .collect();
        // 0 and 1 initialised; 2 does not exist.
        assert_eq!(codes, vec![0, 0, 3]);
        assert_eq!(init.records.len(), 2);
        let w = write(
            &mut shard,
            &WriteShareGroupStateRequest {
                group_id: "g".into(),
                topics: vec![WriteStateData {
                    topic_id: topic,
                    partitions: vec![WriteP {
                        partition: 0,
                        state_epoch: 0,
                        leader_epoch: 3,
                        start_offset: 12,
                        delivery_complete_count: -1,
                        state_batches: vec![WriteBatch {
                            first_offset: 12,
                            last_offset: 15,
                            delivery_state: 0,
                            delivery_count: 2,
                            ..Default::default()
                        }],
                        ..Default::default()
                    }],
                    ..Default::default()
                }],
                ..Default::default()
            },
            &Two,
        );
        assert_eq!(w.response.results[0].partitions[0].error_code, 0);
        let r = read(
            &mut shard,
            &ReadShareGroupStateRequest {
                group_id: "g".into(),
                topics: vec![ReadStateData {
                    topic_id: topic,
                    partitions: vec![ReadP {
                        partition: 0,
                        leader_epoch: 2,
                        ..Default::default()
                    }],
                    ..Default::default()
                }],
                ..Default::default()
            },
            &Two,
        );
        // The write recorded leader epoch 3: a read at 2 is fenced.
        assert_eq!(r.response.results[0].partitions[0].error_code, 74);
        assert!(r.records.is_empty());
    }

    #[test]
    fn coordinator_keys_name_topics_as_kafka_does() {
        // Kafka prints Uuid(0, 7) as AAAAAAAAAAAAAAAAAAAABw (seen in its own serde's output).
        assert_eq!(
            coordinator_key("g", Uuid::from_u128(7), 1),
            "g:AAAAAAAAAAAAAAAAAAAABw:1"
        );
    }
}
