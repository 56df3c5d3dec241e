//! Offset requests that name topics by id (OffsetCommit and OffsetFetch v10+, KIP-848;
//! TxnOffsetCommit v6+, KIP-1319): the broker resolves each id to its name from the metadata image before the group coordinator
//! sees the request, answers an id it does not know with UNKNOWN_TOPIC_ID for each of its
//! partitions (first, as Kafka's answer lists them), and gives the answer's topics their ids
//! back. The coordinator itself only ever deals in names.

use fjord_metadata::MetadataImage;
use fjord_protocol::generated::offset_commit_request::OffsetCommitRequest;
use fjord_protocol::generated::offset_commit_response::{
    OffsetCommitResponse, OffsetCommitResponsePartition, OffsetCommitResponseTopic,
};
use fjord_protocol::generated::offset_fetch_request::OffsetFetchRequestGroup;
use fjord_protocol::generated::offset_fetch_response::{
    OffsetFetchResponseGroup, OffsetFetchResponsePartitions, OffsetFetchResponseTopics,
};
use fjord_protocol::generated::txn_offset_commit_request::TxnOffsetCommitRequest;
use fjord_protocol::generated::txn_offset_commit_response::{
    TxnOffsetCommitResponse, TxnOffsetCommitResponsePartition, TxnOffsetCommitResponseTopic,
};
use fjord_protocol::{ErrorCode, RequestBody, ResponseBody, Uuid};

/// The first OffsetCommit version that names topics by id.
pub const OFFSET_COMMIT_TOPIC_ID_VERSION: i16 = 10;
/// The first OffsetFetch version that names topics by id.
pub const OFFSET_FETCH_TOPIC_ID_VERSION: i16 = 10;

/// The first TxnOffsetCommit version that names topics by id.
pub const TXN_OFFSET_COMMIT_TOPIC_ID_VERSION: i16 = 6;

/// Topics a request named by an id the image does not know: (id, partitions).
pub type UnknownTopics = Vec<(Uuid, Vec<i32>)>;

/// Names each of `topics` from its id (`id`, `name`) and takes out those whose id the image
/// does not know, with their `partitions`.
fn split_unknown<T>(
    topics: &mut Vec<T>,
    image: &MetadataImage,
    id: impl Fn(&T) -> Uuid,
    name: impl Fn(&mut T) -> &mut String,
    partitions: impl Fn(&T) -> Vec<i32>,
) -> UnknownTopics {
    let mut unknown = Vec::new();
    topics.retain_mut(|t| match name_of(image, &id(t)) {
        Some(n) => {
            *name(t) = n;
            true
        }
        None => {
            unknown.push((id(t), partitions(t)));
            false
        }
    });
    unknown
}

/// The name of topic `id`, if the image has it.
fn name_of(image: &MetadataImage, id: &Uuid) -> Option<String> {
    image.topics.by_id.get(id).map(|t| t.name.clone())
}

/// The id of topic `name`, or the zero id.
fn id_of(image: &MetadataImage, name: &str) -> Uuid {
    image.topics.by_name.get(name).copied().unwrap_or_default()
}

/// Fills in each topic's name from its id and takes out the topics whose id is unknown.
pub fn resolve_commit(r: &mut OffsetCommitRequest, image: &MetadataImage) -> UnknownTopics {
    split_unknown(
        &mut r.topics,
        image,
        |t| t.topic_id,
        |t| &mut t.name,
        |t| t.partitions.iter().map(|p| p.partition_index).collect(),
    )
}

/// Fills in each topic's name from its id and takes out the topics whose id is unknown.
pub fn resolve_txn_commit(r: &mut TxnOffsetCommitRequest, image: &MetadataImage) -> UnknownTopics {
    split_unknown(
        &mut r.topics,
        image,
        |t| t.topic_id,
        |t| &mut t.name,
        |t| t.partitions.iter().map(|p| p.partition_index).collect(),
    )
}

/// Declares `$name`, which gives an answer's topics their ids and puts the unknown ids'
/// refusals (UNKNOWN_TOPIC_ID per partition) first.
macro_rules! finish_by_id {
    ($(#[$doc:meta])* $name:ident, $response:ty, $topic:ident, $partition:ident) => {
        $(#[$doc])*
        pub fn $name(r: &mut $response, unknown: UnknownTopics, image: &MetadataImage) {
            for t in &mut r.topics {
                t.topic_id = id_of(image, &t.name);
            }
            let refused = unknown.into_iter().map(|(topic_id, partitions)| $topic {
                topic_id,
                partitions: partitions
                    .into_iter()
                    .map(|partition_index| $partition {
                        partition_index,
                        error_code: ErrorCode::UnknownTopicId.code(),
                        ..Default::default()
                    })
                    .collect(),
                ..Default::default()
            });
            let known = std::mem::take(&mut r.topics);
            r.topics = refused.chain(known).collect();
        }
    };
}

finish_by_id!(
    /// OffsetCommit v10+: the answer's topics get their ids; unknown ids are refused first.
    finish_commit,
    OffsetCommitResponse,
    OffsetCommitResponseTopic,
    OffsetCommitResponsePartition
);
finish_by_id!(
    /// TxnOffsetCommit v6+: the answer's topics get their ids; unknown ids are refused first.
    finish_txn_commit,
    TxnOffsetCommitResponse,
    TxnOffsetCommitResponseTopic,
    TxnOffsetCommitResponsePartition
);

/// Fills in each asked topic's name from its id and takes out the topics whose id is unknown.
pub fn resolve_fetch(g: &mut OffsetFetchRequestGroup, image: &MetadataImage) -> UnknownTopics {
    match &mut g.topics {
        Some(topics) => split_unknown(
            topics,
            image,
            |t| t.topic_id,
            |t| &mut t.name,
            |t| t.partition_indexes.clone(),
        ),
        None => Vec::new(),
    }
}

/// Gives a group's answer its topics' ids, leaves out committed topics that no longer exist
/// (an id-only answer cannot name them), and puts the unknown ids' refusals first. A group
/// refused whole keeps its answer.
pub fn finish_fetch(
    g: &mut OffsetFetchResponseGroup,
    unknown: UnknownTopics,
    image: &MetadataImage,
) {
    if g.error_code != 0 {
        return;
    }
    let mut known = std::mem::take(&mut g.topics);
    known.retain_mut(|t| {
        t.topic_id = id_of(image, &t.name);
        t.topic_id != Uuid::default()
    });
    let refused = unknown
        .into_iter()
        .map(|(topic_id, partitions)| OffsetFetchResponseTopics {
            topic_id,
            partitions: partitions
                .into_iter()
                .map(|partition_index| OffsetFetchResponsePartitions {
                    partition_index,
                    committed_offset: -1,
                    committed_leader_epoch: -1,
                    metadata: Some(String::new()),
                    error_code: ErrorCode::UnknownTopicId.code(),
                    ..Default::default()
                })
                .collect(),
            ..Default::default()
        });
    g.topics = refused.chain(known).collect();
}

/// A single-group request that named topics by id, made to name them: the request the
/// coordinator sees, and the ids the image did not know.
pub struct Resolved {
    /// The request with every known topic named.
    pub body: RequestBody,
    /// The ids the image does not know, answered UNKNOWN_TOPIC_ID.
    pub unknown: UnknownTopics,
}

/// `body` with its topic ids resolved, when it names topics by id at `version`
/// (OffsetCommit v10+, TxnOffsetCommit v6+); None for any other request.
pub fn resolve(body: &RequestBody, version: i16, image: &MetadataImage) -> Option<Resolved> {
    match body {
        RequestBody::OffsetCommit(r) if version >= OFFSET_COMMIT_TOPIC_ID_VERSION => {
            let mut named = r.clone();
            let unknown = resolve_commit(&mut named, image);
            Some(Resolved {
                body: RequestBody::OffsetCommit(named),
                unknown,
            })
        }
        RequestBody::TxnOffsetCommit(r) if version >= TXN_OFFSET_COMMIT_TOPIC_ID_VERSION => {
            let mut named = r.clone();
            let unknown = resolve_txn_commit(&mut named, image);
            Some(Resolved {
                body: RequestBody::TxnOffsetCommit(named),
                unknown,
            })
        }
        _ => None,
    }
}

/// Gives the answer to a [`resolve`]d request its topic ids and the unknown ids' refusals.
pub fn finish(answer: &mut ResponseBody, unknown: UnknownTopics, image: &MetadataImage) {
    match answer {
        ResponseBody::OffsetCommit(a) => finish_commit(a, unknown, image),
        ResponseBody::TxnOffsetCommit(a) => finish_txn_commit(a, unknown, image),
        _ => {}
    }
}
