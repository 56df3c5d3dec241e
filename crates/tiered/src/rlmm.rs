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

    /// The epoch of the record at `offset` in this lineage, if it knows (an offset below its
    /// first entry has the first epoch only if the segment asking says so: see
    /// [`PartitionRemoteLog::segment_for`]).
    pub fn epoch_at(&self, offset: i64) -> Option<i32> {
        if offset >= self.end_offset {
            return None;
        }
        self.epochs
            .iter()
            .rev()
            .find(|(_, start)| *start <= offset)
            .map(|(e, _)| *e)
    }

    /// True when the record `seg` has at `offset` is this lineage's record there: both give
    /// it the same leader epoch (one leader writes an epoch's records, so an offset and an
    /// epoch name one record). An offset below the lineage's first entry, where the epochs
    /// were cut at the log start, matches when the segment gives it the lineage's first epoch.
    pub fn agrees_at(&self, seg: &SegmentMetadata, offset: i64) -> bool {
        let Some(theirs) = seg.epoch_at(offset) else {
            return false;
        };
        match self.epoch_at(offset) {
            Some(ours) => ours == theirs,
            None => {
                offset < self.end_offset
                    && self
                        .epochs
                        .first()
                        .is_some_and(|(e, s)| offset < *s && *e == theirs)
            }
        }
    }

    /// The last offset of the run of `seg`'s records from `from` on that are this lineage's
    /// (none when its record at `from` is not): after an unclean election, a segment the new
    /// history leaves at some offset still holds the records before it.
    pub fn shared_from(&self, seg: &SegmentMetadata, from: i64) -> Option<i64> {
        let mut last = None;
        for (i, &(_, start)) in seg.leader_epochs.iter().enumerate() {
            let end = seg
                .leader_epochs
                .get(i + 1)
                .map_or(seg.end_offset, |(_, next)| next - 1);
            let a = start.max(seg.start_offset).max(from);
            if end < a {
                continue;
            }
            if !self.agrees_at(seg, a) {
                break;
            }
            // The lineage's epoch at `a` runs to its next entry's start (or the lineage's
            // end); an offset below the first entry is in the first entry's epoch.
            let here = self.epochs.iter().rposition(|(_, s)| *s <= a).unwrap_or(0);
            let lineage_end = self
                .epochs
                .get(here + 1)
                .map_or(self.end_offset, |(_, s)| *s)
                - 1;
            last = Some(end.min(lineage_end));
            if lineage_end < end {
                break;
            }
        }
        last
    }

    /// Every run of `seg`'s records this lineage shares, as inclusive `[first, last]`: each of
    /// the segment's epoch runs judged on its own (a run below what the lineage knows may
    /// differ while the next one agrees).
    pub fn shared_runs(&self, seg: &SegmentMetadata) -> Vec<(i64, i64)> {
        let mut out = Vec::new();
        for (i, &(_, start)) in seg.leader_epochs.iter().enumerate() {
            let end = seg
                .leader_epochs
                .get(i + 1)
                .map_or(seg.end_offset, |(_, next)| next - 1);
            let a = start.max(seg.start_offset);
            if end < a {
                continue;
            }
            // Below the lineage's first offset only its first epoch can be matched: a run
            // that starts there may still agree from that offset on.
            let known = self.epochs.first().map_or(a, |(_, s)| (*s).clamp(a, end));
            let found = [a, known]
                .into_iter()
                .find_map(|from| self.shared_from(seg, from).map(|last| (from, last)));
            if let Some((from, last)) = found {
                out.push((from, last.min(end)));
            }
        }
        out
    }

    /// True when every record of `seg` has, in this lineage, the epoch `seg` gives it (Kafka's
    /// `isRemoteSegmentWithinLeaderEpochs`): the segment is part of this log's history.
    pub fn holds(&self, seg: &SegmentMetadata) -> bool {
        self.verdict(seg) == Verdict::Held
    }

    /// How `seg` stands against this lineage. Epochs wholly below the lineage's first offset
    /// are ones it cannot judge (its epochs were cut at the log start, or it has not learnt
    /// them): a segment with only such epochs is [`Verdict::Unknown`], never
    /// [`Verdict::Contradicted`], so a lineage that knows too little never condemns a segment.
    pub fn verdict(&self, seg: &SegmentMetadata) -> Verdict {
        let Some(&(first_epoch, first_offset)) = self.epochs.first() else {
            return Verdict::Unknown;
        };
        if seg.leader_epochs.is_empty() || seg.end_offset < first_offset {
            return Verdict::Unknown;
        }
        if seg.end_offset >= self.end_offset {
            return Verdict::Contradicted;
        }
        let mut judged = false;
        for (i, &(epoch, start)) in seg.leader_epochs.iter().enumerate() {
            let end = seg
                .leader_epochs
                .get(i + 1)
                .map_or(seg.end_offset, |(_, next)| next - 1);
            if end < first_offset && epoch <= first_epoch {
                // Wholly below what the lineage knows.
                continue;
            }
            let Some((first, last)) = self.range_of(epoch) else {
                return Verdict::Contradicted;
            };
            // The lineage's first epoch may have been cut at the log start: its records
            // below it may still be this history.
            let starts_inside = start >= first || epoch == first_epoch;
            if !starts_inside || end > last {
                return Verdict::Contradicted;
            }
            judged = true;
        }
        if judged {
            Verdict::Held
        } else {
            Verdict::Unknown
        }
    }
}

/// How a remote segment stands against a lineage.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Verdict {
    /// Every record of it is this history's: it may be read.
    Held,
    /// Some record of it has another epoch here, or lies past this history's end: it belongs
    /// to another history (an unclean election) and may be deleted.
    Contradicted,
    /// Part of it lies below what the lineage knows: neither read nor condemned.
    Unknown,
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
    /// The readable segments by start offset (and id: copies may overlap).
    readable: BTreeMap<(i64, Uuid), SegmentMetadata>,
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
                let key = (seg.start_offset, seg.id.id);
                if u.state == SegmentState::DeleteFinished {
                    self.segments.remove(&u.id.id);
                } else {
                    seg.state = u.state;
                    seg.broker_id = u.broker_id;
                    seg.event_timestamp_ms = u.event_timestamp_ms;
                    seg.custom_metadata = u.custom_metadata.clone();
                }
                if u.state == SegmentState::CopyFinished {
                    self.readable.insert(key, self.segments[&u.id.id].clone());
                } else {
                    self.readable.remove(&key);
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
        self.readable.values().collect()
    }

    /// The readable segments of `lineage`'s history, by start offset.
    pub fn readable_in(&self, lineage: Lineage<'_>) -> Vec<&SegmentMetadata> {
        self.readable()
            .into_iter()
            .filter(|s| lineage.holds(s))
            .collect()
    }

    /// A readable segment whose record at `offset` is `lineage`'s record there (the one that
    /// starts last when copies overlap). A segment that another history continues past
    /// `offset` still serves the offsets the two histories share, so an unclean election
    /// loses from the store only what it must.
    pub fn segment_for(&self, offset: i64, lineage: Lineage<'_>) -> Option<&SegmentMetadata> {
        self.readable
            .range(..=(offset, Uuid::max()))
            .rev()
            .map(|(_, s)| s)
            .find(|s| offset <= s.end_offset && lineage.agrees_at(s, offset))
    }

    /// The last offset from `from` on that the store holds without a gap, in segments wholly
    /// of `lineage`'s history (`from - 1` when it does not hold `from`). Local retention may
    /// delete a local segment only up to this offset, and copying resumes after it.
    pub fn covered_until(&self, from: i64, lineage: Lineage<'_>) -> i64 {
        let mut last = from - 1;
        for seg in self.readable.values() {
            if seg.start_offset > last + 1 {
                break;
            }
            if seg.end_offset > last && lineage.holds(seg) {
                last = seg.end_offset;
            }
        }
        last
    }

    /// The readable segment after `offset` in `lineage`'s history: the one that starts first
    /// above it (a read that finds `offset` in no segment skips ahead, as Kafka's does when
    /// retention removed what it asked for).
    pub fn next_segment_after(
        &self,
        offset: i64,
        lineage: Lineage<'_>,
    ) -> Option<&SegmentMetadata> {
        self.readable
            .range((offset + 1, Uuid::nil())..)
            .map(|(_, s)| s)
            .find(|s| lineage.holds(s))
    }

    /// The last offset of `lineage`'s history that the store holds, if any (Kafka's highest
    /// offset in remote storage).
    pub fn highest_offset(&self, lineage: Lineage<'_>) -> Option<i64> {
        self.readable_in(lineage).iter().map(|s| s.end_offset).max()
    }

    /// The first offset of `lineage`'s history that the store holds, if any (the remote log
    /// start).
    pub fn start_offset(&self, lineage: Lineage<'_>) -> Option<i64> {
        self.readable
            .values()
            .find(|s| lineage.holds(s))
            .map(|s| s.start_offset)
    }

    /// The offsets the readable segments hold, as merged half-open ranges `[from, to)`.
    pub fn held(&self) -> Vec<(i64, i64)> {
        merge(
            self.readable
                .values()
                .map(|s| (s.start_offset, s.end_offset + 1)),
        )
    }

    /// The offset after the last one any readable segment holds, of any history.
    pub fn end_offset(&self) -> Option<i64> {
        self.readable.values().map(|s| s.end_offset + 1).max()
    }

    /// The offsets the store holds that `lineage`'s history does not share, as merged
    /// half-open ranges: at none of them does a readable segment hold `lineage`'s record
    /// (per offset, as reads match: [`Lineage::shared_runs`]). What the store loses when a
    /// replica of that lineage is elected and the other histories' segments are deleted.
    pub fn unshared(&self, lineage: Lineage<'_>) -> Vec<(i64, i64)> {
        let shared = merge(self.readable.values().flat_map(|s| {
            lineage
                .shared_runs(s)
                .into_iter()
                .map(|(first, last)| (first, last + 1))
        }));
        subtract(&self.held(), &shared)
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

/// Half-open ranges merged where they touch or overlap, in order.
fn merge(ranges: impl Iterator<Item = (i64, i64)>) -> Vec<(i64, i64)> {
    let mut all: Vec<(i64, i64)> = ranges.filter(|(a, b)| a < b).collect();
    all.sort_unstable();
    let mut out: Vec<(i64, i64)> = Vec::with_capacity(all.len());
    for (a, b) in all {
        match out.last_mut() {
            Some(last) if a <= last.1 => last.1 = last.1.max(b),
            _ => out.push((a, b)),
        }
    }
    out
}

/// The offsets of merged ranges `from` not in merged ranges `minus`.
fn subtract(from: &[(i64, i64)], minus: &[(i64, i64)]) -> Vec<(i64, i64)> {
    let mut out = Vec::new();
    for &(a, b) in from {
        let mut at = a;
        for &(c, d) in minus {
            if d <= at || c >= b {
                continue;
            }
            if c > at {
                out.push((at, c));
            }
            at = at.max(d);
        }
        if at < b {
            out.push((at, b));
        }
    }
    out
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
    fn the_store_offsets_a_lineage_does_not_share_are_the_diverged_and_the_longer_ones() {
        let mut c = RemoteLogMetadataCache::default();
        for (id, start, end, epochs) in [
            (1u128, 0, 99, &[(0, 0)][..]),
            (2, 100, 199, &[(0, 100), (1, 150)][..]),
            (3, 300, 399, &[(1, 300)][..]),
        ] {
            c.apply(&RemoteLogMetadata::Segment(seg(id, start, end, epochs)))
                .unwrap();
            c.apply(&update(id, SegmentState::CopyFinished)).unwrap();
        }
        let p = c.partition(&tp()).unwrap();
        assert_eq!(p.held(), vec![(0, 200), (300, 400)]);
        assert_eq!(p.end_offset(), Some(400));
        // Epoch 0 to 170 only: it shares 0..=169 and nothing past its end.
        let short = Lineage {
            epochs: &[(0, 0), (1, 150)],
            end_offset: 170,
        };
        assert_eq!(p.unshared(short), vec![(170, 200), (300, 400)]);
        // Epoch 1 never reached it: from 150 on it is another history.
        let other = Lineage {
            epochs: &[(0, 0), (2, 150)],
            end_offset: 1000,
        };
        assert_eq!(p.unshared(other), vec![(150, 200), (300, 400)]);
        let all = Lineage {
            epochs: &[(0, 0), (1, 150)],
            end_offset: 1000,
        };
        assert!(p.unshared(all).is_empty());
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
        // An unclean election made a replica that never had epoch 1 the leader of epoch 2
        // at offset 50: the segment's 50..=99 are another history.
        let other = Lineage {
            epochs: &[(0, 0), (2, 50)],
            end_offset: 200,
        };
        assert_eq!(other.verdict(p.readable()[0]), Verdict::Contradicted);
        let same = Lineage {
            epochs: &[(0, 0), (1, 50), (2, 120)],
            end_offset: 200,
        };
        assert!(p.segment_for(10, same).is_some());
        // The two histories share 0..=49: the segment still serves those.
        let seg1 = c.partition(&tp()).unwrap().readable()[0].clone();
        assert_eq!(other.shared_from(&seg1, 0), Some(49));
        assert_eq!(other.shared_from(&seg1, 50), None);
        assert!(other.agrees_at(&seg1, 49) && !other.agrees_at(&seg1, 50));
        assert_eq!(p.segment_for(45, other).unwrap().id, seg1.id);
        assert!(p.segment_for(50, other).is_none());
        assert_eq!(same.shared_from(&seg1, 10), Some(99));
        // Epochs cut at a log start inside the segment: what is below is still the first
        // epoch's (the simulation found this one, seed 602).
        let cut = Lineage {
            epochs: &[(0, 30), (1, 50), (3, 70)],
            end_offset: 200,
        };
        assert_eq!(cut.shared_from(&seg1, 0), Some(69));
        // Epochs that begin above the segment's first ones: judged from where they begin
        // (seed 1410).
        let late = Lineage {
            epochs: &[(1, 60), (4, 80)],
            end_offset: 200,
        };
        assert_eq!(late.shared_from(&seg1, 0), None);
        assert_eq!(late.shared_from(&seg1, 60), Some(79));
        // A lineage that has not reached the segment's end does not hold it, but reads
        // what they share.
        let short = Lineage {
            epochs: &[(0, 0), (1, 50)],
            end_offset: 80,
        };
        assert!(!short.holds(&seg1));
        assert!(p.segment_for(79, short).is_some() && p.segment_for(80, short).is_none());
    }
}
