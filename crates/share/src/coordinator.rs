//! The share coordinator's shard of `__share_group_state` (Kafka's `ShareCoordinatorShard`),
//! sans-IO: the share-partitions keyed by group, topic id and partition, each a
//! [`ShareState`]; the records in Kafka's layout (key: the record type as an int16, 0
//! `ShareSnapshot` or 1 `ShareUpdate`, then the key at version 0; value: version 0, then the
//! value; a snapshot key with no value deletes the share-partition); and the checks Kafka's
//! shard makes before InitializeShareGroupState, ReadShareGroupState, WriteShareGroupState,
//! ReadShareGroupStateSummary and DeleteShareGroupState, with its codes and messages.
//!
//! A handler checks, builds the record, folds it into the shard and returns it: the driver
//! appends it and answers once it is committed (a failed append drops the shard, which
//! reloads from the log).

use std::collections::BTreeMap;

use bytes::{BufMut, Bytes, BytesMut};
use fjord_protocol::generated::{
    share_snapshot_key::ShareSnapshotKey, share_snapshot_value,
    share_snapshot_value::ShareSnapshotValue, share_update_key::ShareUpdateKey, share_update_value,
    share_update_value::ShareUpdateValue,
};
use fjord_protocol::DecodeError;
use uuid::Uuid;

use crate::partition::ShareError;
use crate::state::{is_terminal, PersistedState, ShareRecord, ShareState, StateBatch};

/// Record type of a `ShareSnapshot` key.
const SNAPSHOT_TYPE: i16 = 0;
/// Record type of a `ShareUpdate` key.
const UPDATE_TYPE: i16 = 1;
/// The value version written and read.
const VALUE_VERSION: i16 = 0;
/// The most share-partitions one shard keeps (a bound Kafka lacks; each costs at most one
/// in-flight window of batches).
pub const MAX_SHARE_PARTITIONS: usize = 1_000_000;

/// Which share-partition a state belongs to.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct ShareKey {
    /// The share group.
    pub group_id: String,
    /// The topic's id.
    pub topic_id: Uuid,
    /// The partition.
    pub partition: i32,
}

/// One `__share_group_state` record.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StateRecord {
    /// The share-partition.
    pub key: ShareKey,
    /// The record, or None: the share-partition's state is deleted.
    pub record: Option<ShareRecord>,
}

/// Our state batches from a generated record's (snapshot and update have a type each).
macro_rules! from_wire {
    ($batches:expr) => {
        $batches
            .iter()
            .map(|b| $crate::state::StateBatch {
                first_offset: b.first_offset,
                last_offset: b.last_offset,
                delivery_state: b.delivery_state as u8,
                delivery_count: b.delivery_count.max(0) as u16,
            })
            .collect::<Vec<$crate::state::StateBatch>>()
    };
}

/// A generated record's state batches (`$module::StateBatch`) from ours.
macro_rules! to_wire {
    ($batches:expr, $module:ident) => {
        $batches
            .iter()
            .map(|b| $module::StateBatch {
                first_offset: b.first_offset,
                last_offset: b.last_offset,
                delivery_state: b.delivery_state as i8,
                delivery_count: b.delivery_count.min(i16::MAX as u16) as i16,
                ..Default::default()
            })
            .collect()
    };
}

pub(crate) use {from_wire, to_wire};

/// How many offsets at or above the start the batches say are done with.
pub fn delivery_complete_count(state: &PersistedState) -> i32 {
    let n: i64 = state
        .batches
        .iter()
        .filter(|b| is_terminal(b.delivery_state) && b.last_offset >= state.start_offset)
        .map(|b| b.last_offset - b.first_offset.max(state.start_offset) + 1)
        .sum();
    i32::try_from(n).unwrap_or(i32::MAX)
}

impl StateRecord {
    /// The key and value as stored.
    pub fn encode(&self, now_ms: i64) -> (Bytes, Option<Bytes>) {
        let mut key = BytesMut::new();
        let mut value = BytesMut::new();
        let k = &self.key;
        let kind = match &self.record {
            Some(ShareRecord::Update { .. }) => UPDATE_TYPE,
            _ => SNAPSHOT_TYPE,
        };
        key.put_i16(kind);
        if kind == UPDATE_TYPE {
            ShareUpdateKey {
                group_id: k.group_id.clone(),
                topic_id: k.topic_id,
                partition: k.partition,
            }
            .encode(&mut key, 0)
            .expect("a key encodes at version 0");
        } else {
            ShareSnapshotKey {
                group_id: k.group_id.clone(),
                topic_id: k.topic_id,
                partition: k.partition,
            }
            .encode(&mut key, 0)
            .expect("a key encodes at version 0");
        }
        let value = match &self.record {
            None => None,
            Some(ShareRecord::Snapshot {
                snapshot_epoch,
                state,
            }) => {
                value.put_i16(VALUE_VERSION);
                ShareSnapshotValue {
                    snapshot_epoch: *snapshot_epoch,
                    state_epoch: state.state_epoch,
                    leader_epoch: state.leader_epoch,
                    start_offset: state.start_offset,
                    delivery_complete_count: delivery_complete_count(state),
                    create_timestamp: now_ms,
                    write_timestamp: now_ms,
                    state_batches: to_wire!(state.batches, share_snapshot_value),
                    ..Default::default()
                }
                .encode(&mut value, VALUE_VERSION)
                .expect("a value encodes at version 0");
                Some(value.freeze())
            }
            Some(ShareRecord::Update {
                snapshot_epoch,
                leader_epoch,
                start_offset,
                batches,
            }) => {
                value.put_i16(VALUE_VERSION);
                ShareUpdateValue {
                    snapshot_epoch: *snapshot_epoch,
                    leader_epoch: *leader_epoch,
                    start_offset: *start_offset,
                    delivery_complete_count: -1,
                    state_batches: to_wire!(batches, share_update_value),
                    ..Default::default()
                }
                .encode(&mut value, VALUE_VERSION)
                .expect("a value encodes at version 0");
                Some(value.freeze())
            }
        };
        (key.freeze(), value)
    }

    /// Reads a stored record; None for a record type this build does not know (skipped, as
    /// Kafka skips them).
    pub fn decode(key: &Bytes, value: Option<&Bytes>) -> Result<Option<StateRecord>, DecodeError> {
        let mut k = key.clone();
        let kind = fjord_protocol::codec::read_i16(&mut k)?;
        let key = match kind {
            SNAPSHOT_TYPE => {
                let s = ShareSnapshotKey::decode(&mut k, 0)?;
                ShareKey {
                    group_id: s.group_id,
                    topic_id: s.topic_id,
                    partition: s.partition,
                }
            }
            UPDATE_TYPE => {
                let s = ShareUpdateKey::decode(&mut k, 0)?;
                ShareKey {
                    group_id: s.group_id,
                    topic_id: s.topic_id,
                    partition: s.partition,
                }
            }
            _ => return Ok(None),
        };
        let Some(v) = value else {
            return Ok(Some(StateRecord { key, record: None }));
        };
        let mut v = v.clone();
        let version = fjord_protocol::codec::read_i16(&mut v)?;
        if version != VALUE_VERSION {
            return Err(DecodeError::CorruptRecords(format!(
                "share state value version {version}"
            )));
        }
        let record = if kind == SNAPSHOT_TYPE {
            let s = ShareSnapshotValue::decode(&mut v, version)?;
            ShareRecord::Snapshot {
                snapshot_epoch: s.snapshot_epoch,
                state: PersistedState {
                    state_epoch: s.state_epoch,
                    leader_epoch: s.leader_epoch,
                    start_offset: s.start_offset,
                    batches: from_wire!(s.state_batches),
                },
            }
        } else {
            let u = ShareUpdateValue::decode(&mut v, version)?;
            ShareRecord::Update {
                snapshot_epoch: u.snapshot_epoch,
                leader_epoch: u.leader_epoch,
                start_offset: u.start_offset,
                batches: from_wire!(u.state_batches),
            }
        };
        Ok(Some(StateRecord {
            key,
            record: Some(record),
        }))
    }
}

/// A ReadShareGroupStateSummary answer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Summary {
    /// The state epoch.
    pub state_epoch: i32,
    /// The newest leader epoch.
    pub leader_epoch: i32,
    /// The start offset.
    pub start_offset: i64,
    /// How many offsets at or above the start are done with.
    pub delivery_complete_count: i32,
}

/// A share coordinator error: the Kafka code and the message Kafka's shard answers.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CoordinatorError {
    /// The error code.
    pub code: i16,
    /// The message.
    pub message: String,
}

/// INVALID_REQUEST.
const INVALID_REQUEST: i16 = 42;
/// UNKNOWN_TOPIC_OR_PARTITION.
const UNKNOWN_TOPIC_OR_PARTITION: i16 = 3;
/// FENCED_LEADER_EPOCH.
const FENCED_LEADER_EPOCH: i16 = 74;
/// FENCED_STATE_EPOCH.
const FENCED_STATE_EPOCH: i16 = 124;
/// POLICY_VIOLATION: a bound Kafka lacks is reached.
const POLICY_VIOLATION: i16 = 44;

fn invalid(message: &str) -> CoordinatorError {
    CoordinatorError {
        code: INVALID_REQUEST,
        message: message.to_string(),
    }
}

impl From<ShareError> for CoordinatorError {
    fn from(e: ShareError) -> Self {
        let code = e.code();
        // Kafka answers fencing with the error's own message.
        let message = match code {
            FENCED_LEADER_EPOCH => {
                "The leader epoch in the request is older than the epoch on the broker.".to_string()
            }
            FENCED_STATE_EPOCH => {
                "The share coordinator rejected the request because the share-group state epoch did not match.".to_string()
            }
            _ => e.to_string(),
        };
        CoordinatorError { code, message }
    }
}

/// One `__share_group_state` partition's share-partitions.
#[derive(Debug)]
pub struct ShareShard {
    states: BTreeMap<ShareKey, ShareState>,
    /// `share.coordinator.snapshot.update.records.per.snapshot`.
    per_snapshot: u32,
    /// The offset of each share-partition's latest snapshot record.
    snapshot_at: BTreeMap<ShareKey, i64>,
    /// Records emitted and not yet given their offsets: (key, snapshot or tombstone).
    unplaced: std::collections::VecDeque<(ShareKey, Placed)>,
    /// The offset after the last record placed.
    next_offset: i64,
}

/// What a record does to its share-partition's pruning point.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Placed {
    Snapshot,
    Update,
    Tombstone,
}

impl Placed {
    fn of(record: &Option<ShareRecord>) -> Placed {
        match record {
            None => Placed::Tombstone,
            Some(ShareRecord::Snapshot { .. }) => Placed::Snapshot,
            Some(ShareRecord::Update { .. }) => Placed::Update,
        }
    }
}

impl Default for ShareShard {
    fn default() -> Self {
        ShareShard::new(crate::state::UPDATES_PER_SNAPSHOT)
    }
}

/// Whether the topic and partition exist (the broker's metadata image answers).
pub trait TopicLookup {
    /// Whether `topic_id` has partition `partition`.
    fn has_partition(&self, topic_id: Uuid, partition: i32) -> bool;
}

fn check_key(key: &ShareKey) -> Result<(), CoordinatorError> {
    if key.topic_id.is_nil() {
        return Err(invalid("The topic id cannot be null."));
    }
    if key.partition < 0 {
        return Err(invalid("The partition id cannot be a negative number."));
    }
    Ok(())
}

fn unknown(key: &ShareKey) -> CoordinatorError {
    CoordinatorError {
        code: UNKNOWN_TOPIC_OR_PARTITION,
        message: format!(
            "Topic or partition not found: {}:{}-{}.",
            key.group_id, key.topic_id, key.partition
        ),
    }
}

impl ShareShard {
    /// An empty shard that snapshots a share-partition every `per_snapshot` updates.
    pub fn new(per_snapshot: u32) -> ShareShard {
        ShareShard {
            states: BTreeMap::new(),
            per_snapshot,
            snapshot_at: BTreeMap::new(),
            unplaced: std::collections::VecDeque::new(),
            next_offset: 0,
        }
    }

    /// Folds a record read from the log at `offset`.
    pub fn replay_at(&mut self, record: &StateRecord, offset: i64) {
        self.replay(record);
        self.place(&record.key, Placed::of(&record.record), offset);
    }

    fn place(&mut self, key: &ShareKey, placed: Placed, offset: i64) {
        match placed {
            Placed::Snapshot => {
                self.snapshot_at.insert(key.clone(), offset);
            }
            Placed::Tombstone => {
                self.snapshot_at.remove(key);
            }
            Placed::Update => {}
        }
        self.next_offset = self.next_offset.max(offset + 1);
    }

    /// The records emitted since the last call are committed at `first..first + count`, in
    /// the order they were emitted.
    pub fn committed(&mut self, first: i64, count: usize) {
        for i in 0..count {
            let Some((key, placed)) = self.unplaced.pop_front() else {
                break;
            };
            self.place(&key, placed, first + i as i64);
        }
    }

    /// The offset below which no record is needed to rebuild the shard: every share-partition
    /// is rebuilt from its latest snapshot and the updates after it. None while a record's
    /// offset is unknown.
    pub fn redundant_below(&self) -> Option<i64> {
        if !self.unplaced.is_empty() {
            return None;
        }
        let mut below = self.next_offset;
        for key in self.states.keys() {
            below = below.min(*self.snapshot_at.get(key)?);
        }
        Some(below)
    }

    /// Folds one record read from the log or just emitted.
    pub fn replay(&mut self, record: &StateRecord) {
        match &record.record {
            None => {
                self.states.remove(&record.key);
            }
            Some(r) => {
                self.states.entry(record.key.clone()).or_default().replay(r);
            }
        }
    }

    /// How many share-partitions it holds.
    pub fn len(&self) -> usize {
        self.states.len()
    }

    /// Whether it holds none.
    pub fn is_empty(&self) -> bool {
        self.states.is_empty()
    }

    /// The state of `key`.
    pub fn state(&self, key: &ShareKey) -> Option<&ShareState> {
        self.states.get(key)
    }

    fn emit(&mut self, key: &ShareKey, record: Option<ShareRecord>) -> StateRecord {
        self.unplaced.push_back((key.clone(), Placed::of(&record)));
        let r = StateRecord {
            key: key.clone(),
            record,
        };
        self.replay(&r);
        r
    }

    /// InitializeShareGroupState: the share-partition starts (again) at `start_offset` with
    /// `state_epoch`, which must not be older than the one recorded.
    pub fn initialize(
        &mut self,
        key: &ShareKey,
        state_epoch: i32,
        start_offset: i64,
        topics: &dyn TopicLookup,
    ) -> Result<StateRecord, CoordinatorError> {
        check_key(key)?;
        if state_epoch < 0 {
            return Err(invalid("The state epoch cannot be a negative number."));
        }
        if let Some(s) = self.states.get(key) {
            if state_epoch < s.state_epoch() {
                return Err(ShareError::FencedStateEpoch(String::new()).into());
            }
        } else if self.states.len() >= MAX_SHARE_PARTITIONS {
            return Err(CoordinatorError {
                code: POLICY_VIOLATION,
                message: format!(
                    "This share coordinator already holds the most share-partitions it may ({MAX_SHARE_PARTITIONS})."
                ),
            });
        }
        if !topics.has_partition(key.topic_id, key.partition) {
            return Err(unknown(key));
        }
        Ok(self.emit(key, Some(ShareState::initialize(state_epoch, start_offset))))
    }

    /// WriteShareGroupState for one share-partition.
    pub fn write(
        &mut self,
        key: &ShareKey,
        state_epoch: i32,
        leader_epoch: i32,
        start_offset: i64,
        batches: &[StateBatch],
        topics: &dyn TopicLookup,
    ) -> Result<StateRecord, CoordinatorError> {
        check_key(key)?;
        if leader_epoch < 0 {
            return Err(invalid("The leader epoch cannot be a negative number."));
        }
        if state_epoch < 0 {
            return Err(invalid("The state epoch cannot be a negative number."));
        }
        let Some(s) = self.states.get(key) else {
            return Err(invalid(
                "Write operation on uninitialized share partition not allowed.",
            ));
        };
        if !topics.has_partition(key.topic_id, key.partition) {
            return Err(unknown(key));
        }
        let record = s.write(
            state_epoch,
            leader_epoch,
            start_offset,
            batches,
            self.per_snapshot,
        )?;
        Ok(self.emit(key, Some(record)))
    }

    /// ReadShareGroupState for one share-partition: its state, and a record when the read
    /// moves the leader epoch forward.
    pub fn read(
        &mut self,
        key: &ShareKey,
        leader_epoch: i32,
        topics: &dyn TopicLookup,
    ) -> Result<(PersistedState, Option<StateRecord>), CoordinatorError> {
        check_key(key)?;
        if leader_epoch < 0 {
            return Err(invalid("The leader epoch cannot be a negative number."));
        }
        let Some(s) = self.states.get(key) else {
            return Err(invalid(
                "Read operation on uninitialized share partition not allowed.",
            ));
        };
        if !topics.has_partition(key.topic_id, key.partition) {
            return Err(unknown(key));
        }
        let (state, bump) = s.read(leader_epoch)?;
        let record = bump.map(|b| self.emit(key, Some(b)));
        Ok((state, record))
    }

    /// ReadShareGroupStateSummary for one share-partition (no fencing, nothing written).
    pub fn read_summary(
        &self,
        key: &ShareKey,
        topics: &dyn TopicLookup,
    ) -> Result<Summary, CoordinatorError> {
        check_key(key)?;
        let Some(s) = self.states.get(key) else {
            return Err(invalid(
                "Read operation on uninitialized share partition not allowed.",
            ));
        };
        if !topics.has_partition(key.topic_id, key.partition) {
            return Err(unknown(key));
        }
        let p = s.persisted();
        Ok(Summary {
            state_epoch: p.state_epoch,
            leader_epoch: p.leader_epoch,
            start_offset: p.start_offset,
            delivery_complete_count: delivery_complete_count(&p),
        })
    }

    /// DeleteShareGroupState for one share-partition: a tombstone, or nothing when there is
    /// no state.
    pub fn delete(&mut self, key: &ShareKey) -> Result<Option<StateRecord>, CoordinatorError> {
        check_key(key)?;
        if !self.states.contains_key(key) {
            return Ok(None);
        }
        Ok(Some(self.emit(key, None)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::state::{ACKNOWLEDGED, ARCHIVED, AVAILABLE};

    struct All;
    impl TopicLookup for All {
        fn has_partition(&self, _: Uuid, p: i32) -> bool {
            p < 3
        }
    }

    fn key(p: i32) -> ShareKey {
        ShareKey {
            group_id: "g".into(),
            topic_id: Uuid::from_u128(7),
            partition: p,
        }
    }

    fn b(f: i64, l: i64, s: u8, c: u16) -> StateBatch {
        StateBatch {
            first_offset: f,
            last_offset: l,
            delivery_state: s,
            delivery_count: c,
        }
    }

    #[test]
    fn records_round_trip_in_kafkas_layout() {
        let mut shard = ShareShard::default();
        let init = shard.initialize(&key(0), 0, 5, &All).unwrap();
        let (k, v) = init.encode(1);
        // Key: record type 0 (ShareSnapshot), then the group id as an int16-length string.
        assert_eq!(&k[..5], &[0, 0, 0, 1, b'g']);
        assert_eq!(&v.as_ref().unwrap()[..2], &[0, 0]);
        assert_eq!(StateRecord::decode(&k, v.as_ref()).unwrap(), Some(init));
        let w = shard
            .write(
                &key(0),
                0,
                1,
                7,
                &[b(7, 9, ACKNOWLEDGED, 1), b(10, 10, AVAILABLE, 2)],
                &All,
            )
            .unwrap();
        let (k, v) = w.encode(1);
        assert_eq!(&k[..2], &[0, 1], "an update is record type 1");
        assert_eq!(StateRecord::decode(&k, v.as_ref()).unwrap(), Some(w));
        let tomb = shard.delete(&key(0)).unwrap().unwrap();
        let (k, v) = tomb.encode(1);
        assert!(v.is_none());
        assert_eq!(StateRecord::decode(&k, None).unwrap(), Some(tomb));
        assert!(shard.is_empty());
        // An unknown record type is skipped, not misread.
        let mut other = BytesMut::new();
        other.put_i16(9);
        assert_eq!(StateRecord::decode(&other.freeze(), None).unwrap(), None);
    }

    #[test]
    fn checks_answer_as_kafkas_shard() {
        let mut shard = ShareShard::default();
        let code = |r: Result<StateRecord, CoordinatorError>| r.unwrap_err().code;
        assert_eq!(
            shard
                .write(&key(0), 0, 0, -1, &[], &All)
                .unwrap_err()
                .message,
            "Write operation on uninitialized share partition not allowed."
        );
        assert_eq!(
            shard.read(&key(0), 0, &All).unwrap_err().message,
            "Read operation on uninitialized share partition not allowed."
        );
        let mut nil = key(0);
        nil.topic_id = Uuid::nil();
        assert_eq!(
            shard.initialize(&nil, 0, 0, &All).unwrap_err().message,
            "The topic id cannot be null."
        );
        assert_eq!(code(shard.initialize(&key(-1), 0, 0, &All)), 42);
        assert_eq!(code(shard.initialize(&key(5), 0, 0, &All)), 3);
        shard.initialize(&key(0), 2, 0, &All).unwrap();
        assert_eq!(code(shard.initialize(&key(0), 1, 0, &All)), 124);
        assert_eq!(code(shard.write(&key(0), 2, -1, -1, &[], &All)), 42);
        // A read at a newer leader epoch records it, and fences older writers.
        let (state, bump) = shard.read(&key(0), 4, &All).unwrap();
        assert_eq!(state.state_epoch, 2);
        assert!(bump.is_some());
        assert!(shard.read(&key(0), 4, &All).unwrap().1.is_none());
        assert_eq!(code(shard.write(&key(0), 2, 3, -1, &[], &All)), 74);
        assert_eq!(code(shard.write(&key(0), 1, 4, -1, &[], &All)), 124);
        shard
            .write(
                &key(0),
                2,
                4,
                3,
                &[b(3, 4, ARCHIVED, 5), b(6, 8, ACKNOWLEDGED, 1)],
                &All,
            )
            .unwrap();
        let s = shard.read_summary(&key(0), &All).unwrap();
        assert_eq!(
            s,
            Summary {
                state_epoch: 2,
                leader_epoch: 4,
                start_offset: 3,
                delivery_complete_count: 5
            }
        );
        assert!(shard.delete(&key(1)).unwrap().is_none());
    }

    #[test]
    fn the_pruning_point_is_the_oldest_latest_snapshot() {
        let mut shard = ShareShard::new(2);
        assert_eq!(shard.redundant_below(), Some(0));
        shard.initialize(&key(0), 0, 0, &All).unwrap(); // offset 0: a snapshot
        shard.initialize(&key(1), 0, 0, &All).unwrap(); // 1
                                                        // Unplaced records hold pruning back.
        assert_eq!(shard.redundant_below(), None);
        shard.committed(0, 2);
        assert_eq!(shard.redundant_below(), Some(0));
        // Two updates of key 0 (2, 3); its second write after a snapshot is a snapshot.
        shard
            .write(&key(0), 0, 0, -1, &[b(0, 0, ACKNOWLEDGED, 1)], &All)
            .unwrap();
        let r = shard
            .write(&key(0), 0, 0, -1, &[b(1, 1, ACKNOWLEDGED, 1)], &All)
            .unwrap();
        assert!(matches!(r.record, Some(ShareRecord::Snapshot { .. })));
        shard.committed(2, 2);
        // Key 1's snapshot at 1 is the oldest still needed.
        assert_eq!(shard.redundant_below(), Some(1));
        shard.delete(&key(1)).unwrap();
        shard.committed(4, 1);
        assert_eq!(shard.redundant_below(), Some(3));
        shard.delete(&key(0)).unwrap();
        shard.committed(5, 1);
        assert_eq!(
            shard.redundant_below(),
            Some(6),
            "nothing is needed any more"
        );
        // A shard loaded from the log places records at their offsets.
        let mut again = ShareShard::new(2);
        again.replay_at(
            &ShareShard::new(2).initialize(&key(0), 0, 0, &All).unwrap(),
            40,
        );
        assert_eq!(again.redundant_below(), Some(40));
    }

    #[test]
    fn replaying_emitted_records_rebuilds_the_shard() {
        let mut shard = ShareShard::default();
        let mut log = Vec::new();
        for p in 0..3 {
            log.push(shard.initialize(&key(p), 0, 0, &All).unwrap());
        }
        for i in 0..1_500i64 {
            let p = (i % 3) as i32;
            let o = i / 3;
            log.push(
                shard
                    .write(
                        &key(p),
                        0,
                        0,
                        if o % 10 == 9 { o - 4 } else { -1 },
                        &[b(o, o, ACKNOWLEDGED, 1)],
                        &All,
                    )
                    .unwrap(),
            );
        }
        log.push(shard.delete(&key(2)).unwrap().unwrap());
        let mut again = ShareShard::default();
        for r in &log {
            let (k, v) = r.encode(0);
            again.replay(&StateRecord::decode(&k, v.as_ref()).unwrap().unwrap());
        }
        assert_eq!(again.len(), 2);
        for p in 0..2 {
            assert_eq!(
                again.state(&key(p)).unwrap().persisted().normalized(),
                shard.state(&key(p)).unwrap().persisted().normalized()
            );
        }
    }
}

#[cfg(test)]
mod golden {
    use super::*;

    /// Bytes that Kafka 4.4's own `ShareCoordinatorRecordSerde` decoded to the same records
    /// and re-encoded byte for byte (checked with the 4.4.0 jars).
    #[test]
    fn records_are_the_bytes_kafka_reads() {
        struct All;
        impl TopicLookup for All {
            fn has_partition(&self, _: Uuid, _: i32) -> bool {
                true
            }
        }
        let mut shard = ShareShard::default();
        let k = ShareKey {
            group_id: "g".into(),
            topic_id: Uuid::from_u128(7),
            partition: 1,
        };
        let batch = StateBatch {
            first_offset: 7,
            last_offset: 9,
            delivery_state: 2,
            delivery_count: 1,
        };
        let records = [
            shard.initialize(&k, 0, 5, &All).unwrap(),
            shard.write(&k, 0, 1, 7, &[batch], &All).unwrap(),
            shard.delete(&k).unwrap().unwrap(),
        ];
        let hex = |b: &[u8]| b.iter().map(|x| format!("{x:02x}")).collect::<String>();
        let got: Vec<(String, String)> = records
            .iter()
            .map(|r| {
                let (k, v) = r.encode(1234);
                (hex(&k), v.map_or("-".into(), |v| hex(&v)))
            })
            .collect();
        let key = "670000000000000000000000000000000700000001";
        assert_eq!(
            got,
            vec![
                (
                    format!("00000001{key}"),
                    "00000000000000000000ffffffff000000000000000500000000000004d200000000000004d20101000400000000".to_string()
                ),
                (
                    format!("00010001{key}"),
                    "00000000000000000001000000000000000702000000000000000700000000000000090200010000".to_string()
                ),
                (format!("00000001{key}"), "-".to_string()),
            ]
        );
    }
}
