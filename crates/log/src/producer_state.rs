//! Idempotent producers' state in one partition (Kafka's `ProducerStateManager`): per producer
//! id its epoch and the metadata of its last five batches, checked on every leader append
//! (INVALID_PRODUCER_EPOCH for an older epoch, OUT_OF_ORDER_SEQUENCE_NUMBER for a gap or a new
//! epoch not starting at 0, and a duplicate of a cached batch answered with its original
//! offsets), rebuilt on open from the last snapshot and the batches after it, kept in Kafka's
//! `<offset>.snapshot` files, and expired after `producer.id.expiration.ms`.
//!
//! Transactions: a producer's first transactional batch opens its transaction at that batch's
//! first offset; its marker (commit or abort) closes it. The open transactions bound the last
//! stable offset; a closed one still does until the high watermark passes its marker (Kafka's
//! unreplicated transactions), so a read_committed reader never sees a transaction whose end
//! it cannot see.

use crate::error::{LogError, Result};
use fjord_protocol::records::{EndTxnMarker, RecordBatch};
use std::collections::{BTreeMap, HashMap, VecDeque};

/// How many batches per producer are remembered for duplicate detection (Kafka:
/// `NUM_BATCHES_TO_RETAIN`, the most in-flight requests an idempotent producer may have).
pub const BATCHES_RETAINED: usize = 5;
/// The snapshot file format version.
const SNAPSHOT_VERSION: i16 = 1;
/// The size of one snapshot entry.
const ENTRY_SIZE: usize = 8 + 2 + 4 + 8 + 4 + 8 + 4 + 8;
/// The snapshot file suffix.
pub const SNAPSHOT_SUFFIX: &str = ".snapshot";

/// One appended batch of a producer.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BatchMeta {
    /// Its first sequence.
    pub first_seq: i32,
    /// Its last sequence.
    pub last_seq: i32,
    /// Its last offset.
    pub last_offset: i64,
    /// How many offsets it spans minus one (last offset - first offset).
    pub offset_delta: i32,
    /// Its max timestamp.
    pub timestamp: i64,
}

impl BatchMeta {
    /// Its first offset.
    pub fn first_offset(&self) -> i64 {
        self.last_offset - i64::from(self.offset_delta)
    }
}

/// One producer's state.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ProducerEntry {
    /// Its epoch.
    pub epoch: i16,
    /// Its last batches, oldest first.
    pub batches: VecDeque<BatchMeta>,
    /// When it last appended (the batch's max timestamp, or the append time).
    pub last_timestamp: i64,
    /// The first offset of its open transaction, if one is open.
    pub current_txn_first_offset: Option<i64>,
    /// The epoch of the coordinator that wrote its last marker (-1: none yet).
    pub coordinator_epoch: i32,
}

impl Default for ProducerEntry {
    /// A producer seen for the first time: no batches, no marker yet (coordinator epoch -1,
    /// as Kafka 4.4's DescribeProducers reports an idempotent producer's).
    fn default() -> ProducerEntry {
        ProducerEntry {
            epoch: 0,
            batches: VecDeque::new(),
            last_timestamp: 0,
            current_txn_first_offset: None,
            coordinator_epoch: -1,
        }
    }
}

/// A transaction that a marker ended in this partition.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CompletedTxn {
    /// Its producer.
    pub producer_id: i64,
    /// Its first offset here.
    pub first_offset: i64,
    /// The marker's offset.
    pub last_offset: i64,
    /// True when it was aborted.
    pub aborted: bool,
    /// The last stable offset once it ended: the first offset of the earliest transaction
    /// still open, or the marker's offset + 1 (Kafka's `AbortedTxn.lastStableOffset`).
    pub last_stable_offset: i64,
}

/// What a leader append of one batch should do.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Verdict {
    /// Append it.
    Append,
    /// It was appended before: answer with these offsets, append nothing.
    Duplicate {
        /// The original first offset.
        first_offset: i64,
        /// The original last offset.
        last_offset: i64,
    },
}

/// The producers of one partition.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ProducerState {
    producers: HashMap<i64, ProducerEntry>,
    /// Open transactions: first offset -> producer id.
    ongoing: BTreeMap<i64, i64>,
    /// Ended transactions whose marker the high watermark has not passed: first offset ->
    /// marker offset.
    unreplicated: BTreeMap<i64, i64>,
}

/// The sequence before a producer's first at an epoch (Kafka's `RecordBatch.NO_SEQUENCE`).
const NO_SEQUENCE: i32 = -1;

/// True when `next` follows `last` (sequences wrap from `i32::MAX` to 0).
fn in_sequence(last: i32, next: i32) -> bool {
    next == last.wrapping_add(1) || (last == i32::MAX && next == 0)
}

impl ProducerState {
    /// The producers known.
    pub fn producers(&self) -> &HashMap<i64, ProducerEntry> {
        &self.producers
    }

    /// How many producers are known.
    pub fn len(&self) -> usize {
        self.producers.len()
    }

    /// True when none are.
    pub fn is_empty(&self) -> bool {
        self.producers.is_empty()
    }

    /// The entries of `pids` only (to check a request's batches against without touching
    /// the state).
    pub fn subset(&self, pids: impl Iterator<Item = i64>) -> ProducerState {
        let mut out = ProducerState::default();
        for pid in pids {
            if let Some(e) = self.producers.get(&pid) {
                out.producers.insert(pid, e.clone());
            }
        }
        out
    }

    /// Checks a client's batch against the state (Kafka's rules for leader appends).
    pub fn check(&self, b: &RecordBatch) -> Result<Verdict> {
        let pid = b.producer_id();
        if pid < 0 {
            return Ok(Verdict::Append);
        }
        if b.is_control() {
            self.check_marker(b)?;
            return Ok(Verdict::Append);
        }
        let (epoch, first, last) = (b.producer_epoch(), b.base_sequence(), last_seq(b));
        let Some(e) = self.producers.get(&pid) else {
            // An unknown producer (new, or expired here) may start at any sequence (KIP-360).
            return Ok(Verdict::Append);
        };
        if e.current_txn_first_offset.is_some() && !b.is_transactional() && epoch == e.epoch {
            return Err(LogError::InvalidTxnState(format!(
                "Expected transactional write from producer {pid} at offset {}",
                b.base_offset()
            )));
        }
        if epoch < e.epoch {
            return Err(LogError::InvalidProducerEpoch(format!(
                "Epoch of producer {pid} at offset {} is {epoch}, which is smaller than the last seen epoch {}",
                b.base_offset(),
                e.epoch
            )));
        }
        if epoch > e.epoch {
            if first != 0 {
                return Err(LogError::OutOfOrderSequence(format!(
                    "Invalid sequence number for new epoch of producer {pid}: {epoch} (request epoch), {first} (seq. number), {} (current producer epoch)",
                    e.epoch
                )));
            }
            return Ok(Verdict::Append);
        }
        if let Some(d) = e
            .batches
            .iter()
            .find(|m| m.first_seq == first && m.last_seq == last)
        {
            return Ok(Verdict::Duplicate {
                first_offset: d.first_offset(),
                last_offset: d.last_offset,
            });
        }
        // A known producer with no batch at this epoch (a marker moved it to the epoch, as a
        // transaction version 2 end does) starts at sequence 0, as Kafka's NO_SEQUENCE does:
        // a later batch accepted first would leave a gap its predecessor can never fill.
        let last = e.batches.back().map_or(NO_SEQUENCE, |m| m.last_seq);
        if in_sequence(last, first) {
            Ok(Verdict::Append)
        } else {
            Err(LogError::OutOfOrderSequence(format!(
                "Out of order sequence number for producer {pid} at offset {}: {first} (incoming seq. number), {last} (current end sequence number)",
                b.base_offset(),
            )))
        }
    }

    /// Checks a marker written by a coordinator (Kafka's `appendEndTxnMarker` checks): not
    /// from an older producer epoch, nor from an older coordinator.
    fn check_marker(&self, b: &RecordBatch) -> Result<()> {
        let marker = EndTxnMarker::of(b).map_err(|e| LogError::CorruptRecord(e.to_string()))?;
        let (Some(marker), Some(e)) = (marker, self.producers.get(&b.producer_id())) else {
            return Ok(());
        };
        if b.producer_epoch() < e.epoch {
            return Err(LogError::InvalidProducerEpoch(format!(
                "Epoch of producer {} at offset {} is {}, which is smaller than the last seen epoch {}",
                b.producer_id(),
                b.base_offset(),
                b.producer_epoch(),
                e.epoch
            )));
        }
        if marker.coordinator_epoch < e.coordinator_epoch {
            return Err(LogError::CoordinatorFenced(format!(
                "Invalid coordinator epoch for producer {}: {} (zombie), {} (current)",
                b.producer_id(),
                marker.coordinator_epoch,
                e.coordinator_epoch
            )));
        }
        Ok(())
    }

    /// The first offset no read_committed reader may pass: the earliest open transaction's
    /// first offset, or that of an ended one whose marker is not yet replicated.
    pub fn first_unstable_offset(&self) -> Option<i64> {
        let open = self.ongoing.keys().next().copied();
        let unreplicated = self.unreplicated.keys().next().copied();
        match (open, unreplicated) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        }
    }

    /// The high watermark moved to `hw`: ended transactions whose marker lies below it no
    /// longer hold the last stable offset back.
    pub fn on_high_watermark(&mut self, hw: i64) {
        self.unreplicated.retain(|_, marker| *marker >= hw);
    }

    /// The open transactions: (producer id, first offset), oldest first.
    pub fn ongoing(&self) -> Vec<(i64, i64)> {
        self.ongoing.iter().map(|(f, p)| (*p, *f)).collect()
    }

    /// Records an appended batch at `first_offset..=last_offset` (leader or follower); a
    /// marker returns the transaction it ended, if one was open.
    pub fn update(
        &mut self,
        b: &RecordBatch,
        last_offset: i64,
        now_ms: i64,
    ) -> Option<CompletedTxn> {
        let pid = b.producer_id();
        if pid < 0 {
            return None;
        }
        if b.is_control() {
            return self.end_txn(b, last_offset, now_ms);
        }
        let first_offset = last_offset - i64::from(b.last_offset_delta());
        let meta = BatchMeta {
            first_seq: b.base_sequence(),
            last_seq: last_seq(b),
            last_offset,
            offset_delta: b.last_offset_delta(),
            timestamp: if b.max_timestamp() >= 0 {
                b.max_timestamp()
            } else {
                now_ms
            },
        };
        self.add(pid, b.producer_epoch(), meta);
        if b.is_transactional() {
            let e = self.producers.get_mut(&pid).expect("just added");
            if e.current_txn_first_offset.is_none() {
                e.current_txn_first_offset = Some(first_offset);
                self.ongoing.insert(first_offset, pid);
            }
        }
        None
    }

    /// Applies a marker: the producer's open transaction ends.
    fn end_txn(&mut self, b: &RecordBatch, offset: i64, now_ms: i64) -> Option<CompletedTxn> {
        let marker = EndTxnMarker::of(b).ok().flatten()?;
        let pid = b.producer_id();
        let e = self.producers.entry(pid).or_default();
        if b.producer_epoch() != e.epoch {
            e.batches.clear();
            e.epoch = b.producer_epoch();
        }
        e.coordinator_epoch = marker.coordinator_epoch;
        // The last batch's timestamp, not the largest seen (as Kafka's ProducerStateEntry):
        // a marker a leader wrote with its clock stepped forward must not keep the producer
        // in the future, where no transaction timeout and no expiry ever reaches it.
        e.last_timestamp = if b.max_timestamp() >= 0 {
            b.max_timestamp()
        } else {
            now_ms
        };
        let first_offset = e.current_txn_first_offset.take()?;
        self.ongoing.remove(&first_offset);
        self.unreplicated.insert(first_offset, offset);
        Some(CompletedTxn {
            producer_id: pid,
            first_offset,
            last_offset: offset,
            aborted: !marker.commit,
            last_stable_offset: self.ongoing.keys().next().copied().unwrap_or(offset + 1),
        })
    }

    fn add(&mut self, pid: i64, epoch: i16, meta: BatchMeta) {
        let e = self.producers.entry(pid).or_default();
        if epoch != e.epoch {
            e.batches.clear();
            e.epoch = epoch;
        }
        e.batches.push_back(meta);
        while e.batches.len() > BATCHES_RETAINED {
            e.batches.pop_front();
        }
        e.last_timestamp = meta.timestamp;
    }

    /// Forgets producers whose last append is older than `max_age_ms` (Kafka's
    /// `producer.id.expiration.ms`); returns how many.
    pub fn expire(&mut self, now_ms: i64, max_age_ms: i64) -> usize {
        let before = self.producers.len();
        // A producer with an open transaction is kept, as Kafka keeps it.
        self.producers.retain(|_, e| {
            e.current_txn_first_offset.is_some()
                || now_ms.saturating_sub(e.last_timestamp) < max_age_ms
        });
        before - self.producers.len()
    }

    /// Kafka's snapshot file: version, CRC-32C of the rest, then one entry per producer
    /// (its last batch).
    pub fn to_snapshot(&self) -> Vec<u8> {
        let mut body = Vec::with_capacity(4 + self.producers.len() * ENTRY_SIZE);
        body.extend_from_slice(&(self.producers.len() as i32).to_be_bytes());
        // Every producer is written, with its open transaction (ended transactions awaiting
        // replication are not part of Kafka's format: a reopened log is bounded by its high
        // watermark).
        let mut ids: Vec<&i64> = self.producers.keys().collect();
        ids.sort();
        for pid in ids {
            let e = &self.producers[pid];
            // A producer known only from a marker has no batch: Kafka writes -1 for it.
            let (last_seq, last_offset, delta) = e.batches.back().map_or((-1, -1, 0), |last| {
                (
                    last.last_seq,
                    last.last_offset,
                    last.last_seq.wrapping_sub(last.first_seq),
                )
            });
            body.extend_from_slice(&pid.to_be_bytes());
            body.extend_from_slice(&e.epoch.to_be_bytes());
            body.extend_from_slice(&last_seq.to_be_bytes());
            body.extend_from_slice(&last_offset.to_be_bytes());
            body.extend_from_slice(&delta.to_be_bytes());
            body.extend_from_slice(&e.last_timestamp.to_be_bytes());
            body.extend_from_slice(&e.coordinator_epoch.to_be_bytes());
            body.extend_from_slice(&e.current_txn_first_offset.unwrap_or(-1).to_be_bytes());
        }
        let mut out = Vec::with_capacity(6 + body.len());
        out.extend_from_slice(&SNAPSHOT_VERSION.to_be_bytes());
        out.extend_from_slice(&crc32c::crc32c(&body).to_be_bytes());
        out.extend_from_slice(&body);
        out
    }

    /// Reads a snapshot file's bytes (checked: version, CRC, sizes).
    pub fn from_snapshot(bytes: &[u8]) -> std::result::Result<ProducerState, InvalidSnapshot> {
        Self::read_snapshot(bytes).map_err(InvalidSnapshot)
    }

    fn read_snapshot(bytes: &[u8]) -> std::result::Result<ProducerState, String> {
        if bytes.len() < 10 {
            return Err("shorter than its header".into());
        }
        let version = i16::from_be_bytes([bytes[0], bytes[1]]);
        if version != SNAPSHOT_VERSION {
            return Err(format!("unknown version {version}"));
        }
        let crc = u32::from_be_bytes(bytes[2..6].try_into().expect("4 bytes"));
        let body = &bytes[6..];
        if crc32c::crc32c(body) != crc {
            return Err("CRC mismatch".into());
        }
        let count = i32::from_be_bytes(body[0..4].try_into().expect("4 bytes"));
        let entries = &body[4..];
        if count < 0 || entries.len() != count as usize * ENTRY_SIZE {
            return Err(format!(
                "{count} entries do not fill {} bytes",
                entries.len()
            ));
        }
        let mut state = ProducerState::default();
        for e in entries.chunks_exact(ENTRY_SIZE) {
            let i64_at = |o: usize| i64::from_be_bytes(e[o..o + 8].try_into().expect("8 bytes"));
            let i32_at = |o: usize| i32::from_be_bytes(e[o..o + 4].try_into().expect("4 bytes"));
            let pid = i64_at(0);
            let epoch = i16::from_be_bytes([e[8], e[9]]);
            let last_seq = i32_at(10);
            let last_offset = i64_at(14);
            let seq_delta = i32_at(22);
            let timestamp = i64_at(26);
            let coordinator_epoch = i32_at(34);
            let txn_first_offset = i64_at(38);
            if last_offset >= 0 {
                state.add(
                    pid,
                    epoch,
                    BatchMeta {
                        first_seq: last_seq.wrapping_sub(seq_delta),
                        last_seq,
                        last_offset,
                        offset_delta: seq_delta,
                        timestamp,
                    },
                );
            }
            let e = state.producers.entry(pid).or_default();
            e.epoch = epoch;
            e.last_timestamp = timestamp;
            e.coordinator_epoch = coordinator_epoch;
            if txn_first_offset >= 0 {
                e.current_txn_first_offset = Some(txn_first_offset);
                state.ongoing.insert(txn_first_offset, pid);
            }
        }
        Ok(state)
    }
}

/// A batch's last sequence.
fn last_seq(b: &RecordBatch) -> i32 {
    b.base_sequence().wrapping_add(b.last_offset_delta())
}

fjord_util::message_error! {
    /// A producer snapshot file that cannot be read: why (it is ignored, and the state rebuilt
    /// from the log).
    pub struct InvalidSnapshot;
}

#[cfg(test)]
mod tests {
    use super::*;
    use fjord_protocol::records::{Compression, RecordBatchBuilder};

    fn batch(pid: i64, epoch: i16, seq: i32, n: usize) -> RecordBatch {
        let mut b = RecordBatchBuilder::new(Compression::None).producer(pid, epoch, seq);
        for _ in 0..n {
            b.append(1_000, None, Some(b"v"), &[]);
        }
        RecordBatch::new(b.build().unwrap()).unwrap()
    }

    #[test]
    fn kafkas_sequence_rules() {
        let mut s = ProducerState::default();
        let b = batch(7, 0, 0, 3);
        assert_eq!(s.check(&b).unwrap(), Verdict::Append);
        s.update(&b, 12, 0);
        // The same batch again: a duplicate, answered with its offsets.
        assert_eq!(
            s.check(&b).unwrap(),
            Verdict::Duplicate {
                first_offset: 10,
                last_offset: 12
            }
        );
        assert!(matches!(
            s.check(&batch(7, 0, 5, 1)),
            Err(LogError::OutOfOrderSequence(_))
        ));
        assert_eq!(s.check(&batch(7, 0, 3, 1)).unwrap(), Verdict::Append);
        assert!(matches!(
            s.check(&batch(7, -1, 3, 1)),
            Err(LogError::InvalidProducerEpoch(_))
        ));
        // A new epoch starts at 0.
        assert!(matches!(
            s.check(&batch(7, 1, 3, 1)),
            Err(LogError::OutOfOrderSequence(_))
        ));
        assert_eq!(s.check(&batch(7, 1, 0, 1)).unwrap(), Verdict::Append);
        // Only the last five batches are remembered.
        for i in 0..6 {
            s.update(&batch(7, 0, 3 + i, 1), 13 + i as i64, 0);
        }
        assert_eq!(s.producers()[&7].batches.len(), BATCHES_RETAINED);
        assert!(matches!(
            s.check(&batch(7, 0, 3, 1)),
            Err(LogError::OutOfOrderSequence(_))
        ));
        // Sequences wrap.
        let mut w = ProducerState::default();
        w.update(&batch(9, 0, i32::MAX, 1), 0, 0);
        assert_eq!(w.check(&batch(9, 0, 0, 1)).unwrap(), Verdict::Append);
    }

    /// A batch of producer `pid` at `epoch` timestamped `ts`.
    fn batch_at(pid: i64, epoch: i16, seq: i32, ts: i64, transactional: bool) -> RecordBatch {
        let mut b = RecordBatchBuilder::new(Compression::None)
            .producer(pid, epoch, seq)
            .transactional(transactional);
        b.append(ts, None, Some(b"v"), &[]);
        RecordBatch::new(b.build().unwrap()).unwrap()
    }

    /// Kafka's rule (ProducerStateEntry): a producer's last timestamp is its last batch's or
    /// marker's, even when it goes back. A marker written by a leader whose clock was stepped
    /// an hour ahead must not leave the producer an hour in the future: `find-hanging` and
    /// producer expiry measure from it (the fault run's hanging transaction was never found).
    #[test]
    fn the_last_timestamp_is_the_last_batchs_even_when_it_goes_back() {
        let (now, ahead) = (1_000_000, 1_000_000 + 3_600_000);
        let mut s = ProducerState::default();
        s.update(&batch_at(5, 0, 0, now, true), 0, now);
        let marker = EndTxnMarker {
            commit: true,
            coordinator_epoch: 0,
        }
        .to_batch(5, 0, ahead)
        .unwrap();
        s.update(&RecordBatch::new(marker).unwrap(), 1, ahead);
        assert_eq!(s.producers()[&5].last_timestamp, ahead);
        s.update(&batch_at(5, 0, 1, now + 10, true), 2, now + 10);
        assert_eq!(s.producers()[&5].last_timestamp, now + 10);
        assert_eq!(s.producers()[&5].current_txn_first_offset, Some(2));
        let back = ProducerState::from_snapshot(&s.to_snapshot()).unwrap();
        assert_eq!(back.producers()[&5].last_timestamp, now + 10);
        // A producer no marker has reached has coordinator epoch -1, as Kafka 4.4 answers
        // DescribeProducers for one (run side by side: -1 there, 0 here before).
        let mut plain = ProducerState::default();
        plain.update(&batch_at(8, 0, 0, now, false), 0, now);
        assert_eq!(plain.producers()[&8].coordinator_epoch, -1);
        let back = ProducerState::from_snapshot(&plain.to_snapshot()).unwrap();
        assert_eq!(back.producers()[&8].coordinator_epoch, -1);
        // Expiry measures from it too.
        let mut idle = ProducerState::default();
        idle.update(&batch_at(6, 0, 0, ahead, false), 0, ahead);
        idle.update(&batch_at(6, 0, 1, now, false), 1, now);
        assert_eq!(idle.expire(now + 86_400_000, 86_400_000), 1);
    }

    #[test]
    fn snapshots_round_trip_and_reject_damage() {
        let mut s = ProducerState::default();
        s.update(&batch(1, 2, 0, 4), 3, 5_000);
        s.update(&batch(2, 0, 10, 1), 4, 6_000);
        let bytes = s.to_snapshot();
        let back = ProducerState::from_snapshot(&bytes).unwrap();
        // The snapshot keeps each producer's last batch, enough to go on and to detect the
        // most recent duplicate.
        assert_eq!(
            back.producers()[&1].batches.back(),
            s.producers()[&1].batches.back()
        );
        assert_eq!(back.producers()[&2].epoch, 0);
        assert_eq!(
            back.check(&batch(1, 2, 0, 4)).unwrap(),
            Verdict::Duplicate {
                first_offset: 0,
                last_offset: 3
            }
        );
        let mut bad = bytes.clone();
        *bad.last_mut().unwrap() ^= 1;
        assert!(ProducerState::from_snapshot(&bad).is_err());
        assert!(ProducerState::from_snapshot(&bytes[..bytes.len() - 1]).is_err());
        // Both batches carry timestamp 1,000: idle since then.
        assert_eq!(s.clone().expire(1_500, 1_000), 0);
        assert_eq!(s.clone().expire(2_000, 1_000), 2);
    }
}
