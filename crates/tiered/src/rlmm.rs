//! The remote log metadata cache: the fold of `__remote_log_metadata` values into what each
//! partition has in the store (Kafka's `RemoteLogMetadataCache`). Sans-IO: a value in, the
//! state changed or the value refused. Only segments whose copy finished are readable, and a
//! segment is used only while its leader epochs agree with the reader's own lineage (an
//! unclean election can leave the store holding records no replica's log agrees with).

use crate::records::{
    PartitionDeleteState, RemoteLogMetadata, RemoteSegmentId, SegmentMetadata, SegmentState,
    TopicIdPartition,
};
use std::collections::{BTreeMap, HashMap};
use uuid::Uuid;

/// A leader epoch lineage: each epoch with its first offset, by epoch (a log's leader epoch
/// cache), and the offset after the last record (the log end).
#[derive(Debug, Clone, Copy)]
pub struct Lineage<'a> {
    /// `(epoch, first offset)`, ascending.
    pub epochs: &'a [(i32, i64)],
    /// The offset after the lineage's last record.
    pub end_offset: i64,
}

impl Lineage<'_> {
    /// The offsets `[first, last]` the lineage gives epoch `epoch`, if it has it.
    pub fn range_of(&self, epoch: i32) -> Option<(i64, i64)> {
        let i = self.epochs.iter().position(|(e, _)| *e == epoch)?;
        let first = self.epochs[i].1;
        let next = self
            .epochs
            .get(i + 1)
            .map_or(self.end_offset, |(_, start)| *start);
        Some((first, next - 1))
    }

    /// True when every record of `seg` has, in this lineage, the epoch `seg` gives it (Kafka's
    /// `isRemoteSegmentWithinLeaderEpochs`): the segment is part of this log's history.
    pub fn holds(&self, seg: &SegmentMetadata) -> bool {
        let Some(&(first_epoch, _)) = self.epochs.first() else {
            return false;
        };
        if seg.end_offset >= self.end_offset || seg.leader_epochs.is_empty() {
            return false;
        }
        for (i, &(epoch, start)) in seg.leader_epochs.iter().enumerate() {
            let end = seg
                .leader_epochs
                .get(i + 1)
                .map_or(seg.end_offset, |(_, next)| next - 1);
            let Some((first, last)) = self.range_of(epoch) else {
                return false;
            };
            // The lineage's first epoch may have been cut at the log start: its records
            // below it are still this history.
            let starts_inside = start >= first || epoch == first_epoch;
            if !starts_inside || end > last {
                return false;
            }
        }
        true
    }
}

/// Why a value was not folded.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Refused {
    /// A state change to a segment the cache does not hold.
    #[error("unknown remote segment {0:?}")]
    UnknownSegment(Uuid),
    /// A state change Kafka's rules do not allow.
    #[error("remote segment {id:?}: {from:?} cannot become {to:?}")]
    BadTransition {
        /// The segment.
        id: Uuid,
        /// Its state.
        from: SegmentState,
        /// The state asked for.
        to: SegmentState,
    },
    /// A segment's first value that is not CopyStarted, or names a known segment.
    #[error("remote segment {0:?}: a first value must start a copy of a new segment")]
    BadFirstValue(Uuid),
}

/// What one partition has in the store.
#[derive(Debug, Clone, Default)]
pub struct PartitionRemoteLog {
    segments: BTreeMap<Uuid, SegmentMetadata>,
    delete_state: Option<PartitionDeleteState>,
}

impl PartitionRemoteLog {
    /// Folds one value about this partition.
    pub fn apply(&mut self, value: &RemoteLogMetadata) -> Result<(), Refused> {
        match value {
            RemoteLogMetadata::Segment(s) => {
                if s.state != SegmentState::CopyStarted || self.segments.contains_key(&s.id.id) {
                    return Err(Refused::BadFirstValue(s.id.id));
                }
                self.segments.insert(s.id.id, s.clone());
            }
            RemoteLogMetadata::Update(u) => {
                let seg = self
                    .segments
                    .get_mut(&u.id.id)
                    .ok_or(Refused::UnknownSegment(u.id.id))?;
                if !seg.state.may_become(u.state) {
                    return Err(Refused::BadTransition {
                        id: u.id.id,
                        from: seg.state,
                        to: u.state,
                    });
                }
                if u.state == SegmentState::DeleteFinished {
                    self.segments.remove(&u.id.id);
                } else {
                    seg.state = u.state;
                    seg.broker_id = u.broker_id;
                    seg.event_timestamp_ms = u.event_timestamp_ms;
                    seg.custom_metadata = u.custom_metadata.clone();
                }
            }
            RemoteLogMetadata::PartitionDelete(d) => self.delete_state = Some(d.state),
        }
        Ok(())
    }

    /// Every segment the cache holds (any state but deleted), by id.
    pub fn segments(&self) -> impl Iterator<Item = &SegmentMetadata> {
        self.segments.values()
    }

    /// The readable segments (copy finished), by start offset.
    pub fn readable(&self) -> Vec<&SegmentMetadata> {
        let mut v: Vec<&SegmentMetadata> = self
            .segments
            .values()
            .filter(|s| s.state == SegmentState::CopyFinished)
            .collect();
        v.sort_by_key(|s| (s.start_offset, s.end_offset));
        v
    }

    /// The readable segments of `lineage`'s history, by start offset.
    pub fn readable_in(&self, lineage: Lineage<'_>) -> Vec<&SegmentMetadata> {
        self.readable()
            .into_iter()
            .filter(|s| lineage.holds(s))
            .collect()
    }

    /// The readable segment of `lineage`'s history that holds `offset` (the one that ends
    /// last when copies overlap).
    pub fn segment_for(&self, offset: i64, lineage: Lineage<'_>) -> Option<&SegmentMetadata> {
        self.readable_in(lineage)
            .into_iter()
            .filter(|s| s.start_offset <= offset && offset <= s.end_offset)
            .max_by_key(|s| s.end_offset)
    }

    /// The readable segment after `offset` in `lineage`'s history: the one that starts first
    /// above it (a read that finds `offset` in no segment skips ahead, as Kafka's does when
    /// retention removed what it asked for).
    pub fn next_segment_after(
        &self,
        offset: i64,
        lineage: Lineage<'_>,
    ) -> Option<&SegmentMetadata> {
        self.readable_in(lineage)
            .into_iter()
            .filter(|s| s.start_offset > offset)
            .min_by_key(|s| s.start_offset)
    }

    /// The last offset of `lineage`'s history that the store holds, if any (Kafka's highest
    /// offset in remote storage).
    pub fn highest_offset(&self, lineage: Lineage<'_>) -> Option<i64> {
        self.readable_in(lineage).iter().map(|s| s.end_offset).max()
    }

    /// The first offset of `lineage`'s history that the store holds, if any (the remote log
    /// start).
    pub fn start_offset(&self, lineage: Lineage<'_>) -> Option<i64> {
        self.readable_in(lineage)
            .iter()
            .map(|s| s.start_offset)
            .min()
    }

    /// The bytes of the readable segments.
    pub fn size_bytes(&self) -> u64 {
        self.readable()
            .iter()
            .map(|s| s.size_bytes.max(0) as u64)
            .sum()
    }

    /// Where the partition's deletion from the store stands, if it was asked for.
    pub fn delete_state(&self) -> Option<PartitionDeleteState> {
        self.delete_state
    }
}

/// Every partition's remote log, as folded from `__remote_log_metadata`.
#[derive(Debug, Clone, Default)]
pub struct RemoteLogMetadataCache {
    partitions: HashMap<TopicIdPartition, PartitionRemoteLog>,
}

impl RemoteLogMetadataCache {
    /// Folds one value.
    pub fn apply(&mut self, value: &RemoteLogMetadata) -> Result<(), Refused> {
        let tp = value.topic_id_partition();
        if let Some(p) = self.partitions.get_mut(tp) {
            return p.apply(value);
        }
        let mut p = PartitionRemoteLog::default();
        p.apply(value)?;
        self.partitions.insert(tp.clone(), p);
        Ok(())
    }

    /// A partition's remote log, if the store has had anything of it.
    pub fn partition(&self, tp: &TopicIdPartition) -> Option<&PartitionRemoteLog> {
        self.partitions.get(tp)
    }

    /// The segment `id`, if held.
    pub fn segment(&self, id: &RemoteSegmentId) -> Option<&SegmentMetadata> {
        self.partitions.get(&id.tp)?.segments.get(&id.id)
    }

    /// Forgets a partition whose deletion finished.
    pub fn forget(&mut self, tp: &TopicIdPartition) {
        self.partitions.remove(tp);
    }

    /// The partitions held.
    pub fn partitions(&self) -> impl Iterator<Item = (&TopicIdPartition, &PartitionRemoteLog)> {
        self.partitions.iter()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::records::SegmentUpdate;

    fn tp() -> TopicIdPartition {
        TopicIdPartition {
            topic_id: Uuid::from_u128(1),
            topic: "t".into(),
            partition: 0,
        }
    }

    fn seg(id: u128, start: i64, end: i64, epochs: &[(i32, i64)]) -> SegmentMetadata {
        SegmentMetadata {
            id: RemoteSegmentId {
                tp: tp(),
                id: Uuid::from_u128(id),
            },
            start_offset: start,
            end_offset: end,
            broker_id: 1,
            max_timestamp_ms: 0,
            event_timestamp_ms: 0,
            leader_epochs: epochs.to_vec(),
            size_bytes: 10,
            custom_metadata: None,
            state: SegmentState::CopyStarted,
            txn_index_empty: true,
        }
    }

    fn update(id: u128, state: SegmentState) -> RemoteLogMetadata {
        RemoteLogMetadata::Update(SegmentUpdate {
            id: RemoteSegmentId {
                tp: tp(),
                id: Uuid::from_u128(id),
            },
            broker_id: 1,
            event_timestamp_ms: 0,
            custom_metadata: None,
            state,
        })
    }

    #[test]
    fn only_finished_copies_are_read_and_deletion_hides_them() {
        let mut c = RemoteLogMetadataCache::default();
        c.apply(&RemoteLogMetadata::Segment(seg(1, 0, 99, &[(0, 0)])))
            .unwrap();
        let lineage = Lineage {
            epochs: &[(0, 0)],
            end_offset: 500,
        };
        let p = c.partition(&tp()).unwrap();
        assert!(
            p.segment_for(5, lineage).is_none(),
            "a started copy is never read"
        );
        c.apply(&update(1, SegmentState::CopyFinished)).unwrap();
        let p = c.partition(&tp()).unwrap();
        assert_eq!(p.segment_for(5, lineage).unwrap().end_offset, 99);
        assert_eq!(p.highest_offset(lineage), Some(99));
        c.apply(&update(1, SegmentState::DeleteStarted)).unwrap();
        assert!(c
            .partition(&tp())
            .unwrap()
            .segment_for(5, lineage)
            .is_none());
        assert!(c.apply(&update(1, SegmentState::CopyFinished)).is_err());
        c.apply(&update(1, SegmentState::DeleteFinished)).unwrap();
        assert_eq!(c.partition(&tp()).unwrap().segments().count(), 0);
    }

    #[test]
    fn segments_of_another_history_are_not_read() {
        let mut c = RemoteLogMetadataCache::default();
        // Uploaded by a leader of epoch 1 that wrote offsets 50..=99 in epoch 1.
        c.apply(&RemoteLogMetadata::Segment(seg(
            1,
            0,
            99,
            &[(0, 0), (1, 50)],
        )))
        .unwrap();
        c.apply(&update(1, SegmentState::CopyFinished)).unwrap();
        let p = c.partition(&tp()).unwrap();
        // This log took epoch 1 at offset 60 (after an unclean election): 50..59 differ.
        let other = Lineage {
            epochs: &[(0, 0), (1, 60)],
            end_offset: 200,
        };
        assert!(p.segment_for(10, other).is_none());
        let same = Lineage {
            epochs: &[(0, 0), (1, 50), (2, 120)],
            end_offset: 200,
        };
        assert!(p.segment_for(10, same).is_some());
        // A lineage that has not reached the segment's end yet does not hold it.
        let short = Lineage {
            epochs: &[(0, 0), (1, 50)],
            end_offset: 80,
        };
        assert!(p.segment_for(10, short).is_none());
    }
}
