//! The share coordinator's view of one share-partition: the start offset, the state and leader
//! epochs, and the delivery state of the offsets above the start that are not simply
//! available (state batches). It is the fold of Kafka's `ShareSnapshot` (the whole state) and
//! `ShareUpdate` (the batches one write changed) records, and what ReadShareGroupState answers.
//! A write from a leader older than the last one seen, or for another state epoch, is fenced.

use std::collections::BTreeMap;

use crate::partition::ShareError;

/// Persisted delivery state: the record may be delivered.
pub const AVAILABLE: u8 = 0;
/// Persisted delivery state: the record was acknowledged.
pub const ACKNOWLEDGED: u8 = 2;
/// Persisted delivery state: the record was archived (rejected, a gap, or out of deliveries).
pub const ARCHIVED: u8 = 4;

/// Whether a persisted delivery state ends the record's delivery.
pub fn is_terminal(state: u8) -> bool {
    state == ACKNOWLEDGED || state == ARCHIVED
}

/// Offsets `first_offset..=last_offset` in one delivery state, as Kafka's `StateBatch`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct StateBatch {
    /// The first offset.
    pub first_offset: i64,
    /// The last offset (inclusive).
    pub last_offset: i64,
    /// [`AVAILABLE`], [`ACKNOWLEDGED`] or [`ARCHIVED`].
    pub delivery_state: u8,
    /// How often the offsets were delivered.
    pub delivery_count: u16,
}

/// One share-partition's persisted state, as ReadShareGroupState answers it.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct PersistedState {
    /// The state epoch (bumped when the state is initialised again, for example by an offset
    /// reset).
    pub state_epoch: i32,
    /// The newest leader epoch that read or wrote the state.
    pub leader_epoch: i32,
    /// The share-partition start offset: every record below it is done with.
    pub start_offset: i64,
    /// The state of offsets at or above the start, in order and not overlapping.
    pub batches: Vec<StateBatch>,
}

impl PersistedState {
    /// The same state in its one canonical form: batches sorted and merged where adjacent
    /// with the same state and count, none below the start, terminal batches at the start
    /// folded into it, and available offsets never delivered (the same as no batch) left out.
    pub fn normalized(&self) -> PersistedState {
        let mut map = RangeMap::default();
        for b in &self.batches {
            map.overwrite(*b);
        }
        map.trim_below(self.start_offset);
        let mut start = self.start_offset;
        let mut batches: Vec<StateBatch> = Vec::new();
        for b in map.batches() {
            if b.delivery_state == AVAILABLE && b.delivery_count == 0 {
                continue;
            }
            if batches.is_empty() && b.first_offset == start && is_terminal(b.delivery_state) {
                start = b.last_offset + 1;
                continue;
            }
            match batches.last_mut() {
                Some(l)
                    if l.last_offset + 1 == b.first_offset
                        && l.delivery_state == b.delivery_state
                        && l.delivery_count == b.delivery_count =>
                {
                    l.last_offset = b.last_offset
                }
                _ => batches.push(b),
            }
        }
        PersistedState {
            state_epoch: self.state_epoch,
            leader_epoch: self.leader_epoch,
            start_offset: start,
            batches,
        }
    }
}

/// Non-overlapping offset ranges, each with a delivery state and count.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
struct RangeMap {
    /// first offset -> (last offset, state, count)
    ranges: BTreeMap<i64, (i64, u8, u16)>,
}

impl RangeMap {
    /// Sets `b`'s offsets to its state, splitting the ranges it overlaps.
    fn overwrite(&mut self, b: StateBatch) {
        if b.last_offset < b.first_offset {
            return;
        }
        let overlapping: Vec<(i64, (i64, u8, u16))> = self
            .ranges
            .range(..=b.last_offset)
            .rev()
            .take_while(|(_, (last, _, _))| *last >= b.first_offset)
            .map(|(f, v)| (*f, *v))
            .collect();
        for (first, (last, state, count)) in overlapping {
            self.ranges.remove(&first);
            if first < b.first_offset {
                self.ranges
                    .insert(first, (b.first_offset - 1, state, count));
            }
            if last > b.last_offset {
                self.ranges.insert(b.last_offset + 1, (last, state, count));
            }
        }
        self.ranges.insert(
            b.first_offset,
            (b.last_offset, b.delivery_state, b.delivery_count),
        );
    }

    /// Drops every offset below `start`.
    fn trim_below(&mut self, start: i64) {
        let below: Vec<(i64, (i64, u8, u16))> =
            self.ranges.range(..start).map(|(f, v)| (*f, *v)).collect();
        for (first, (last, state, count)) in below {
            self.ranges.remove(&first);
            if last >= start {
                self.ranges.insert(start, (last, state, count));
            }
        }
    }

    fn batches(&self) -> Vec<StateBatch> {
        self.ranges
            .iter()
            .map(|(f, (l, s, c))| StateBatch {
                first_offset: *f,
                last_offset: *l,
                delivery_state: *s,
                delivery_count: *c,
            })
            .collect()
    }

    fn len(&self) -> usize {
        self.ranges.len()
    }
}

/// A record of `__share_group_state` for one share-partition, as Kafka lays them out.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ShareRecord {
    /// `ShareSnapshot`: the whole state.
    Snapshot {
        /// The snapshot epoch (how many snapshots this state has had).
        snapshot_epoch: i32,
        /// The whole state.
        state: PersistedState,
    },
    /// `ShareUpdate`: the batches one write changed, and the start offset if it moved.
    Update {
        /// The snapshot epoch the update follows.
        snapshot_epoch: i32,
        /// The writer's leader epoch.
        leader_epoch: i32,
        /// The new start offset, or -1 when it did not move.
        start_offset: i64,
        /// The changed batches.
        batches: Vec<StateBatch>,
    },
}

/// After this many updates since the last snapshot, a write is recorded as a snapshot: the
/// default of `share.coordinator.snapshot.update.records.per.snapshot`, as Kafka's.
pub const UPDATES_PER_SNAPSHOT: u32 = 500;
/// The most state batches one share-partition keeps; a write that would leave more is
/// recorded as a snapshot of the merged state (which has at most one batch per in-flight
/// record), so the state stays bounded by the leader's in-flight limit.
pub const MAX_BATCHES: usize = 20_000;

/// The share coordinator's state of one share-partition: the fold of its records.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct ShareState {
    state_epoch: i32,
    leader_epoch: i32,
    start_offset: i64,
    snapshot_epoch: i32,
    updates_since_snapshot: u32,
    ranges: RangeMap,
}

impl ShareState {
    /// The record that initialises a share-partition's state at `start_offset` with
    /// `state_epoch` (InitializeShareGroupState).
    pub fn initialize(state_epoch: i32, start_offset: i64) -> ShareRecord {
        ShareRecord::Snapshot {
            snapshot_epoch: 0,
            state: PersistedState {
                state_epoch,
                leader_epoch: -1,
                start_offset,
                batches: Vec::new(),
            },
        }
    }

    /// Folds one record into the state.
    pub fn replay(&mut self, record: &ShareRecord) {
        match record {
            ShareRecord::Snapshot {
                snapshot_epoch,
                state,
            } => {
                let mut ranges = RangeMap::default();
                for b in &state.batches {
                    ranges.overwrite(*b);
                }
                *self = ShareState {
                    state_epoch: state.state_epoch,
                    leader_epoch: state.leader_epoch,
                    start_offset: state.start_offset,
                    snapshot_epoch: *snapshot_epoch,
                    updates_since_snapshot: 0,
                    ranges,
                };
            }
            ShareRecord::Update {
                leader_epoch,
                start_offset,
                batches,
                ..
            } => {
                self.leader_epoch = self.leader_epoch.max(*leader_epoch);
                for b in batches {
                    self.ranges.overwrite(*b);
                }
                if *start_offset > self.start_offset {
                    self.start_offset = *start_offset;
                }
                self.ranges.trim_below(self.start_offset);
                self.updates_since_snapshot += 1;
            }
        }
    }

    /// Checks a write from a leader at `leader_epoch` for state epoch `state_epoch` (fenced
    /// when either is older than the state's, as Kafka's shard fences them) and gives
    /// the record that applies it: an update, or a snapshot of the result when the updates
    /// since the last snapshot reach `per_snapshot` or the batches [`MAX_BATCHES`].
    pub fn write(
        &self,
        state_epoch: i32,
        leader_epoch: i32,
        start_offset: i64,
        batches: &[StateBatch],
        per_snapshot: u32,
    ) -> Result<ShareRecord, ShareError> {
        if state_epoch < self.state_epoch {
            return Err(ShareError::FencedStateEpoch(format!(
                "state epoch {state_epoch} is older than {}",
                self.state_epoch
            )));
        }
        if leader_epoch < self.leader_epoch {
            return Err(ShareError::FencedLeaderEpoch(format!(
                "leader epoch {leader_epoch} is older than {}",
                self.leader_epoch
            )));
        }
        let update = ShareRecord::Update {
            snapshot_epoch: self.snapshot_epoch,
            leader_epoch,
            start_offset,
            batches: batches.to_vec(),
        };
        let mut after = self.clone();
        after.replay(&update);
        if after.updates_since_snapshot >= per_snapshot.max(1) || after.ranges.len() > MAX_BATCHES {
            let state = after.persisted().normalized();
            return Ok(ShareRecord::Snapshot {
                snapshot_epoch: self.snapshot_epoch + 1,
                state,
            });
        }
        Ok(update)
    }

    /// Checks a read from a leader at `leader_epoch`; a newer leader epoch is recorded by the
    /// update the read returns alongside the state (Kafka's read fences older leaders too).
    pub fn read(
        &self,
        leader_epoch: i32,
    ) -> Result<(PersistedState, Option<ShareRecord>), ShareError> {
        if leader_epoch < self.leader_epoch {
            return Err(ShareError::FencedLeaderEpoch(format!(
                "leader epoch {leader_epoch} is older than {}",
                self.leader_epoch
            )));
        }
        let mut state = self.persisted();
        let bump = (leader_epoch > self.leader_epoch).then(|| {
            state.leader_epoch = leader_epoch;
            ShareRecord::Update {
                snapshot_epoch: self.snapshot_epoch,
                leader_epoch,
                start_offset: -1,
                batches: Vec::new(),
            }
        });
        Ok((state, bump))
    }

    /// The state as a read answers it.
    pub fn persisted(&self) -> PersistedState {
        PersistedState {
            state_epoch: self.state_epoch,
            leader_epoch: self.leader_epoch,
            start_offset: self.start_offset,
            batches: self.ranges.batches(),
        }
    }

    /// The current state epoch.
    pub fn state_epoch(&self) -> i32 {
        self.state_epoch
    }

    /// The start offset.
    pub fn start_offset(&self) -> i64 {
        self.start_offset
    }

    /// How many state batches the state holds.
    pub fn batch_count(&self) -> usize {
        self.ranges.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn b(f: i64, l: i64, s: u8, c: u16) -> StateBatch {
        StateBatch {
            first_offset: f,
            last_offset: l,
            delivery_state: s,
            delivery_count: c,
        }
    }

    #[test]
    fn overwrite_splits_and_start_trims() {
        let mut st = ShareState::default();
        st.replay(&ShareState::initialize(0, 10));
        let w = st
            .write(0, 1, -1, &[b(10, 20, AVAILABLE, 1)], UPDATES_PER_SNAPSHOT)
            .unwrap();
        st.replay(&w);
        let w = st
            .write(
                0,
                1,
                -1,
                &[b(12, 14, ACKNOWLEDGED, 1)],
                UPDATES_PER_SNAPSHOT,
            )
            .unwrap();
        st.replay(&w);
        assert_eq!(
            st.persisted().batches,
            vec![
                b(10, 11, AVAILABLE, 1),
                b(12, 14, ACKNOWLEDGED, 1),
                b(15, 20, AVAILABLE, 1)
            ]
        );
        let w = st.write(0, 1, 13, &[], UPDATES_PER_SNAPSHOT).unwrap();
        st.replay(&w);
        assert_eq!(
            st.persisted().batches,
            vec![b(13, 14, ACKNOWLEDGED, 1), b(15, 20, AVAILABLE, 1)]
        );
        assert_eq!(st.persisted().normalized().start_offset, 15);
        // A start offset never moves back.
        let w = st.write(0, 1, 11, &[], UPDATES_PER_SNAPSHOT).unwrap();
        st.replay(&w);
        assert_eq!(st.start_offset(), 13);
    }

    #[test]
    fn fencing() {
        let mut st = ShareState::default();
        st.replay(&ShareState::initialize(3, 0));
        let (_, bump) = st.read(5).unwrap();
        st.replay(&bump.unwrap());
        assert!(matches!(
            st.write(3, 4, -1, &[], UPDATES_PER_SNAPSHOT),
            Err(ShareError::FencedLeaderEpoch(_))
        ));
        assert!(matches!(
            st.write(2, 5, -1, &[], UPDATES_PER_SNAPSHOT),
            Err(ShareError::FencedStateEpoch(_))
        ));
        // A newer state epoch is not fenced (Kafka's shard only fences older ones).
        assert!(st.write(4, 5, -1, &[], UPDATES_PER_SNAPSHOT).is_ok());
        assert!(st.write(3, 5, -1, &[], UPDATES_PER_SNAPSHOT).is_ok());
        assert!(matches!(st.read(4), Err(ShareError::FencedLeaderEpoch(_))));
    }

    #[test]
    fn snapshots_after_many_updates_hold_the_same_state() {
        let mut st = ShareState::default();
        st.replay(&ShareState::initialize(0, 0));
        let mut records = vec![ShareState::initialize(0, 0)];
        let mut snapshots = 0;
        for i in 0..1_200i64 {
            let r = st
                .write(
                    0,
                    0,
                    if i % 7 == 0 { i / 2 } else { -1 },
                    &[b(i, i, (i % 3 * 2) as u8, 1)],
                    UPDATES_PER_SNAPSHOT,
                )
                .unwrap();
            if matches!(r, ShareRecord::Snapshot { .. }) {
                snapshots += 1;
                records.clear();
            }
            st.replay(&r);
            records.push(r);
        }
        assert_eq!(snapshots, 2);
        let mut again = ShareState::default();
        for r in &records {
            again.replay(r);
        }
        assert_eq!(again.persisted().normalized(), st.persisted().normalized());
    }
}
