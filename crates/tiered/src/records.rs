//! The values of `__remote_log_metadata` in Kafka's layout (its `RemoteLogMetadataSerde`): an
//! unsigned-varint record type, an unsigned-varint version, then the record as Kafka's spec
//! writes it (`schemas/remote-log-metadata/`). Keys are null. A record's partition of the
//! topic is Kafka's too ([`metadata_partition`]), so every value lands where Kafka puts it.

use crate::error::{Result, TieredError};
use bytes::{Bytes, BytesMut};
use fjord_protocol::codec::{read_uvarint, write_uvarint};
use fjord_protocol::generated::{
    remote_log_segment_metadata_record as seg_rec,
    remote_log_segment_metadata_update_record as upd_rec,
    remote_partition_delete_metadata_record as del_rec,
};
use uuid::Uuid;

/// The record type of a segment's first (copy started) metadata.
pub const SEGMENT_METADATA_TYPE: u32 = 0;
/// The record type of a segment's state change.
pub const SEGMENT_UPDATE_TYPE: u32 = 1;
/// The record type of a partition's deletion state.
pub const PARTITION_DELETE_TYPE: u32 = 2;

/// A partition named by topic id and name (Kafka's `TopicIdPartition`).
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct TopicIdPartition {
    /// The topic's id.
    pub topic_id: Uuid,
    /// The topic's name.
    pub topic: String,
    /// The partition.
    pub partition: i32,
}

/// One remote segment's identity: its partition and a random id given when its copy starts.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct RemoteSegmentId {
    /// The partition.
    pub tp: TopicIdPartition,
    /// The segment's id.
    pub id: Uuid,
}

/// A remote segment's life (Kafka's `RemoteLogSegmentState` and its ids).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum SegmentState {
    /// Its copy started: objects may be partly written; never read.
    CopyStarted,
    /// Every object is written: readable.
    CopyFinished,
    /// Its deletion started: no longer readable.
    DeleteStarted,
    /// Its objects are gone.
    DeleteFinished,
}

impl SegmentState {
    /// Kafka's id.
    pub fn id(self) -> i8 {
        match self {
            SegmentState::CopyStarted => 0,
            SegmentState::CopyFinished => 1,
            SegmentState::DeleteStarted => 2,
            SegmentState::DeleteFinished => 3,
        }
    }

    /// The state with Kafka's id `id`.
    pub fn from_id(id: i8) -> Result<Self> {
        Ok(match id {
            0 => SegmentState::CopyStarted,
            1 => SegmentState::CopyFinished,
            2 => SegmentState::DeleteStarted,
            3 => SegmentState::DeleteFinished,
            _ => return Err(TieredError::BadMetadata(format!("segment state {id}"))),
        })
    }

    /// True when a segment in this state may move to `next` (Kafka's
    /// `RemoteLogSegmentState.isValidTransition`).
    pub fn may_become(self, next: SegmentState) -> bool {
        use SegmentState::*;
        matches!(
            (self, next),
            (CopyStarted, CopyFinished)
                | (CopyStarted, DeleteStarted)
                | (CopyFinished, DeleteStarted)
                | (DeleteStarted, DeleteFinished)
                | (DeleteStarted, DeleteStarted)
        )
    }
}

/// A partition's deletion from the store (Kafka's `RemotePartitionDeleteState`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum PartitionDeleteState {
    /// The topic was deleted; its remote data is to go.
    Marked,
    /// Deleting its segments.
    Started,
    /// Every segment is gone.
    Finished,
}

impl PartitionDeleteState {
    /// Kafka's id.
    pub fn id(self) -> i8 {
        match self {
            PartitionDeleteState::Marked => 0,
            PartitionDeleteState::Started => 1,
            PartitionDeleteState::Finished => 2,
        }
    }

    /// The state with Kafka's id `id`.
    pub fn from_id(id: i8) -> Result<Self> {
        Ok(match id {
            0 => PartitionDeleteState::Marked,
            1 => PartitionDeleteState::Started,
            2 => PartitionDeleteState::Finished,
            _ => {
                return Err(TieredError::BadMetadata(format!(
                    "partition delete state {id}"
                )))
            }
        })
    }
}

/// A segment's metadata as its copy starts (Kafka's `RemoteLogSegmentMetadata`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SegmentMetadata {
    /// The segment.
    pub id: RemoteSegmentId,
    /// Its first offset.
    pub start_offset: i64,
    /// Its last offset (inclusive).
    pub end_offset: i64,
    /// The broker that copies it.
    pub broker_id: i32,
    /// The largest record timestamp in it.
    pub max_timestamp_ms: i64,
    /// When this event was made.
    pub event_timestamp_ms: i64,
    /// Each leader epoch in it with the epoch's first offset in it, by epoch.
    pub leader_epochs: Vec<(i32, i64)>,
    /// Its log file's size.
    pub size_bytes: i32,
    /// The storage manager's own data (none for fjord's).
    pub custom_metadata: Option<Bytes>,
    /// Its state (CopyStarted when first written).
    pub state: SegmentState,
    /// True when it holds no aborted transaction.
    pub txn_index_empty: bool,
}

impl SegmentMetadata {
    /// The epoch of the records at `offset` in this segment, if it holds `offset`.
    pub fn epoch_at(&self, offset: i64) -> Option<i32> {
        if offset < self.start_offset || offset > self.end_offset {
            return None;
        }
        self.leader_epochs
            .iter()
            .rev()
            .find(|(_, start)| *start <= offset)
            .map(|(e, _)| *e)
    }
}

/// A segment's state change (Kafka's `RemoteLogSegmentMetadataUpdate`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SegmentUpdate {
    /// The segment.
    pub id: RemoteSegmentId,
    /// The broker that made the change.
    pub broker_id: i32,
    /// When.
    pub event_timestamp_ms: i64,
    /// The storage manager's own data.
    pub custom_metadata: Option<Bytes>,
    /// The new state.
    pub state: SegmentState,
}

/// A partition's deletion state (Kafka's `RemotePartitionDeleteMetadata`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PartitionDelete {
    /// The partition.
    pub tp: TopicIdPartition,
    /// The broker that made the change.
    pub broker_id: i32,
    /// When.
    pub event_timestamp_ms: i64,
    /// The state.
    pub state: PartitionDeleteState,
}

/// One value of `__remote_log_metadata`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RemoteLogMetadata {
    /// A segment's copy started.
    Segment(SegmentMetadata),
    /// A segment's state changed.
    Update(SegmentUpdate),
    /// A partition's remote data is being deleted.
    PartitionDelete(PartitionDelete),
}

impl RemoteLogMetadata {
    /// The partition the value is about.
    pub fn topic_id_partition(&self) -> &TopicIdPartition {
        match self {
            RemoteLogMetadata::Segment(s) => &s.id.tp,
            RemoteLogMetadata::Update(u) => &u.id.tp,
            RemoteLogMetadata::PartitionDelete(d) => &d.tp,
        }
    }

    /// The value's bytes in Kafka's layout.
    pub fn encode(&self) -> Bytes {
        let mut out = BytesMut::new();
        let written = match self {
            RemoteLogMetadata::Segment(s) => {
                write_uvarint(&mut out, SEGMENT_METADATA_TYPE);
                write_uvarint(&mut out, 0);
                segment_record(s).encode(&mut out, 0)
            }
            RemoteLogMetadata::Update(u) => {
                write_uvarint(&mut out, SEGMENT_UPDATE_TYPE);
                write_uvarint(&mut out, 0);
                update_record(u).encode(&mut out, 0)
            }
            RemoteLogMetadata::PartitionDelete(d) => {
                write_uvarint(&mut out, PARTITION_DELETE_TYPE);
                write_uvarint(&mut out, 0);
                delete_record(d).encode(&mut out, 0)
            }
        };
        // Every field is within its type's bounds by construction (names are topic names).
        written.expect("a remote log metadata record encodes");
        out.freeze()
    }

    /// Decodes a value in Kafka's layout.
    pub fn decode(value: &Bytes) -> Result<Self> {
        let mut buf = value.clone();
        let bad = |e: fjord_protocol::DecodeError| TieredError::BadMetadata(e.to_string());
        let ty = read_uvarint(&mut buf).map_err(bad)?;
        let version = read_uvarint(&mut buf).map_err(bad)?;
        if version != 0 {
            return Err(TieredError::BadMetadata(format!(
                "record type {ty} version {version}"
            )));
        }
        Ok(match ty {
            SEGMENT_METADATA_TYPE => RemoteLogMetadata::Segment(from_segment_record(
                seg_rec::RemoteLogSegmentMetadataRecord::decode(&mut buf, 0).map_err(bad)?,
            )?),
            SEGMENT_UPDATE_TYPE => RemoteLogMetadata::Update(from_update_record(
                upd_rec::RemoteLogSegmentMetadataUpdateRecord::decode(&mut buf, 0).map_err(bad)?,
            )?),
            PARTITION_DELETE_TYPE => RemoteLogMetadata::PartitionDelete(from_delete_record(
                del_rec::RemotePartitionDeleteMetadataRecord::decode(&mut buf, 0).map_err(bad)?,
            )?),
            _ => return Err(TieredError::BadMetadata(format!("record type {ty}"))),
        })
    }
}

fn segment_record(s: &SegmentMetadata) -> seg_rec::RemoteLogSegmentMetadataRecord {
    seg_rec::RemoteLogSegmentMetadataRecord {
        remote_log_segment_id: seg_rec::RemoteLogSegmentIdEntry {
            topic_id_partition: seg_rec::TopicIdPartitionEntry {
                name: s.id.tp.topic.clone(),
                id: s.id.tp.topic_id,
                partition: s.id.tp.partition,
                ..Default::default()
            },
            id: s.id.id,
            ..Default::default()
        },
        start_offset: s.start_offset,
        end_offset: s.end_offset,
        broker_id: s.broker_id,
        max_timestamp_ms: s.max_timestamp_ms,
        event_timestamp_ms: s.event_timestamp_ms,
        segment_leader_epochs: s
            .leader_epochs
            .iter()
            .map(|&(leader_epoch, offset)| seg_rec::SegmentLeaderEpochEntry {
                leader_epoch,
                offset,
                ..Default::default()
            })
            .collect(),
        segment_size_in_bytes: s.size_bytes,
        custom_metadata: s.custom_metadata.clone(),
        remote_log_segment_state: s.state.id(),
        txn_index_empty: s.txn_index_empty,
        ..Default::default()
    }
}

fn from_segment_record(r: seg_rec::RemoteLogSegmentMetadataRecord) -> Result<SegmentMetadata> {
    let tp = r.remote_log_segment_id.topic_id_partition;
    let mut leader_epochs: Vec<(i32, i64)> = r
        .segment_leader_epochs
        .iter()
        .map(|e| (e.leader_epoch, e.offset))
        .collect();
    leader_epochs.sort_unstable();
    Ok(SegmentMetadata {
        id: RemoteSegmentId {
            tp: TopicIdPartition {
                topic_id: tp.id,
                topic: tp.name,
                partition: tp.partition,
            },
            id: r.remote_log_segment_id.id,
        },
        start_offset: r.start_offset,
        end_offset: r.end_offset,
        broker_id: r.broker_id,
        max_timestamp_ms: r.max_timestamp_ms,
        event_timestamp_ms: r.event_timestamp_ms,
        leader_epochs,
        size_bytes: r.segment_size_in_bytes,
        custom_metadata: r.custom_metadata,
        state: SegmentState::from_id(r.remote_log_segment_state)?,
        txn_index_empty: r.txn_index_empty,
    })
}

fn update_record(u: &SegmentUpdate) -> upd_rec::RemoteLogSegmentMetadataUpdateRecord {
    upd_rec::RemoteLogSegmentMetadataUpdateRecord {
        remote_log_segment_id: upd_rec::RemoteLogSegmentIdEntry {
            topic_id_partition: upd_rec::TopicIdPartitionEntry {
                name: u.id.tp.topic.clone(),
                id: u.id.tp.topic_id,
                partition: u.id.tp.partition,
                ..Default::default()
            },
            id: u.id.id,
            ..Default::default()
        },
        broker_id: u.broker_id,
        event_timestamp_ms: u.event_timestamp_ms,
        custom_metadata: u.custom_metadata.clone(),
        remote_log_segment_state: u.state.id(),
        ..Default::default()
    }
}

fn from_update_record(r: upd_rec::RemoteLogSegmentMetadataUpdateRecord) -> Result<SegmentUpdate> {
    let tp = r.remote_log_segment_id.topic_id_partition;
    Ok(SegmentUpdate {
        id: RemoteSegmentId {
            tp: TopicIdPartition {
                topic_id: tp.id,
                topic: tp.name,
                partition: tp.partition,
            },
            id: r.remote_log_segment_id.id,
        },
        broker_id: r.broker_id,
        event_timestamp_ms: r.event_timestamp_ms,
        custom_metadata: r.custom_metadata,
        state: SegmentState::from_id(r.remote_log_segment_state)?,
    })
}

fn delete_record(d: &PartitionDelete) -> del_rec::RemotePartitionDeleteMetadataRecord {
    del_rec::RemotePartitionDeleteMetadataRecord {
        topic_id_partition: del_rec::TopicIdPartitionEntry {
            name: d.tp.topic.clone(),
            id: d.tp.topic_id,
            partition: d.tp.partition,
            ..Default::default()
        },
        broker_id: d.broker_id,
        event_timestamp_ms: d.event_timestamp_ms,
        remote_partition_delete_state: d.state.id(),
        ..Default::default()
    }
}

fn from_delete_record(r: del_rec::RemotePartitionDeleteMetadataRecord) -> Result<PartitionDelete> {
    Ok(PartitionDelete {
        tp: TopicIdPartition {
            topic_id: r.topic_id_partition.id,
            topic: r.topic_id_partition.name,
            partition: r.topic_id_partition.partition,
        },
        broker_id: r.broker_id,
        event_timestamp_ms: r.event_timestamp_ms,
        state: PartitionDeleteState::from_id(r.remote_partition_delete_state)?,
    })
}

/// The partition of `__remote_log_metadata` (of `partitions`) that holds `tp`'s values:
/// Kafka's `RemoteLogMetadataTopicPartitioner` (murmur2 of Java's `Objects.hash` of the topic
/// id's two halves and the partition, as four big-endian bytes).
pub fn metadata_partition(topic_id: Uuid, partition: i32, partitions: i32) -> i32 {
    let (msb, lsb) = topic_id.as_u64_pair();
    let long_hash = |v: u64| (v ^ (v >> 32)) as u32 as i32;
    let mut h: i32 = 1;
    for part in [long_hash(lsb), long_hash(msb), partition] {
        h = h.wrapping_mul(31).wrapping_add(part);
    }
    let hash = fjord_util::murmur2::murmur2(&h.to_be_bytes());
    fjord_util::murmur2::to_positive(hash) % partitions.max(1)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tp() -> TopicIdPartition {
        TopicIdPartition {
            topic_id: Uuid::from_u64_pair(0x0123_4567_89ab_cdef, 0xfedc_ba98_7654_3210),
            topic: "orders".into(),
            partition: 3,
        }
    }

    #[test]
    fn values_round_trip_in_kafkas_layout() {
        let seg = SegmentMetadata {
            id: RemoteSegmentId {
                tp: tp(),
                id: Uuid::from_u128(7),
            },
            start_offset: 100,
            end_offset: 199,
            broker_id: 2,
            max_timestamp_ms: 1_700_000_000_000,
            event_timestamp_ms: 1_700_000_000_500,
            leader_epochs: vec![(4, 100), (6, 150)],
            size_bytes: 4096,
            custom_metadata: None,
            state: SegmentState::CopyStarted,
            txn_index_empty: true,
        };
        let values = [
            RemoteLogMetadata::Segment(seg.clone()),
            RemoteLogMetadata::Update(SegmentUpdate {
                id: seg.id.clone(),
                broker_id: 2,
                event_timestamp_ms: 5,
                custom_metadata: Some(Bytes::from_static(b"x")),
                state: SegmentState::CopyFinished,
            }),
            RemoteLogMetadata::PartitionDelete(PartitionDelete {
                tp: tp(),
                broker_id: 1,
                event_timestamp_ms: 9,
                state: PartitionDeleteState::Marked,
            }),
        ];
        for (ty, v) in values.iter().enumerate() {
            let bytes = v.encode();
            // The header: the record type, then version 0, as unsigned varints.
            assert_eq!(&bytes[..2], &[ty as u8, 0]);
            assert_eq!(&RemoteLogMetadata::decode(&bytes).unwrap(), v);
        }
        assert_eq!(seg.epoch_at(149), Some(4));
        assert_eq!(seg.epoch_at(150), Some(6));
        assert_eq!(seg.epoch_at(200), None);
    }

    #[test]
    fn bad_values_are_errors_not_panics() {
        for bad in [&b""[..], &[9, 0], &[0, 1], &[0, 0, 1, 2]] {
            assert!(RemoteLogMetadata::decode(&Bytes::copy_from_slice(bad)).is_err());
        }
    }

    #[test]
    fn transitions_follow_kafkas_rules() {
        use SegmentState::*;
        assert!(CopyStarted.may_become(CopyFinished));
        assert!(CopyFinished.may_become(DeleteStarted));
        assert!(!CopyFinished.may_become(CopyStarted));
        assert!(!DeleteFinished.may_become(DeleteStarted));
        assert!(!CopyStarted.may_become(DeleteFinished));
    }
}
