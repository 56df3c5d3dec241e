//! Appending: as leader (validate, check idempotent producers and timestamps, rewrite in the
//! topic's `compression.type` when it is not `producer`, assign offsets, stamp the leader
//! epoch, optionally LogAppendTime) and as follower (keep the leader's offsets, refuse gaps and overlaps).

use super::PartitionLog;
use crate::config::{LogConfig, TimestampType};
use crate::error::{LogError, Result};
use crate::producer_state::Verdict;
use crate::segment::{PreparedBatch, Segment};
use crate::txn_index::AbortedTxn;
use bytes::{Bytes, BytesMut};
use fjord_protocol::records::{Compression, RecordBatch, RecordBatchBuilder, RecordBatches};
use std::sync::atomic::Ordering;
use std::sync::Arc;

/// Who appends as leader.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Origin {
    /// A client's Produce: every producer rule is checked.
    Client,
    /// A coordinator's own records and transaction markers (Kafka's
    /// `AppendOrigin.COORDINATOR`): sequences are not checked, markers are.
    Coordinator,
}

/// A transactional append's proof of verification (KIP-890): the producer, and how many
/// markers for it the log had taken when its coordinator was asked.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct VerificationGuard {
    /// The producer id.
    pub producer_id: i64,
    markers: u64,
}

/// What an append wrote.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct AppendInfo {
    /// The offset of the first record.
    pub first_offset: i64,
    /// The offset of the last record.
    pub last_offset: i64,
    /// The largest timestamp appended.
    pub max_timestamp: i64,
    /// The broker time stamped on the batches, or -1 for CreateTime.
    pub log_append_time: i64,
    /// The number of batches.
    pub batches: usize,
    /// The bytes appended.
    pub bytes: usize,
}

fn corrupt(e: impl std::fmt::Display) -> LogError {
    LogError::CorruptRecord(e.to_string())
}

/// Splits `records` into batches; trailing bytes that are not a whole batch are corrupt.
/// A client batch's own checks before any append: size, framing, keys on a compacted topic,
/// CreateTime timestamps in range.
fn validate_client_batch(b: &RecordBatch, config: &LogConfig, now_ms: i64) -> Result<()> {
    if b.size() > config.max_message_bytes {
        return Err(LogError::RecordTooLarge {
            size: b.size(),
            max: config.max_message_bytes,
        });
    }
    b.validate().map_err(corrupt)?;
    // validate() found the deltas strictly increasing from 0: with as many records as
    // lastOffsetDelta + 1 they are exactly 0..n-1, as a producer writes them.
    if b.record_count() != b.last_offset_delta() + 1 {
        return Err(LogError::CorruptRecord(format!(
            "batch has {} records but lastOffsetDelta {}",
            b.record_count(),
            b.last_offset_delta()
        )));
    }
    if config.cleanup_policy.compact && !b.is_control() {
        let mut refused = Vec::new();
        for (i, r) in b.records().map_err(corrupt)?.enumerate() {
            if r.map_err(corrupt)?.key.is_none() {
                refused.push((
                    i as i32,
                    "Compacted topic cannot accept message without key.".to_string(),
                ));
            }
        }
        if !refused.is_empty() {
            return Err(LogError::RecordErrors {
                code: fjord_protocol::ErrorCode::InvalidRecord,
                message: "One or more records have been rejected".into(),
                records: refused,
            });
        }
    }
    if config.timestamp_type == TimestampType::CreateTime && !b.is_control() {
        check_timestamps(b, config, now_ms)?;
    }
    Ok(())
}

fn split_batches(records: Bytes) -> Result<Vec<RecordBatch>> {
    let mut it = RecordBatches::new(records);
    let batches: Vec<RecordBatch> = it
        .by_ref()
        .collect::<std::result::Result<_, _>>()
        .map_err(corrupt)?;
    if !it.remaining().is_empty() {
        return Err(LogError::CorruptRecord(format!(
            "{} trailing bytes are not a whole batch",
            it.remaining().len()
        )));
    }
    if batches.is_empty() {
        return Err(LogError::CorruptRecord("no record batch".into()));
    }
    Ok(batches)
}

/// Re-stamps a batch with LogAppendTime: the attribute bit, the max timestamp, a new CRC.
fn with_log_append_time(batch: &RecordBatch, now_ms: i64) -> RecordBatch {
    let mut b = BytesMut::from(&batch.as_bytes()[..]);
    let attributes = i16::from_be_bytes([b[21], b[22]]) | 0x08;
    b[21..23].copy_from_slice(&attributes.to_be_bytes());
    b[35..43].copy_from_slice(&now_ms.to_be_bytes());
    let crc = crc32c::crc32c(&b[21..]);
    b[17..21].copy_from_slice(&crc.to_be_bytes());
    RecordBatch::new(b.freeze()).expect("re-stamping keeps the framing")
}

/// `b` rewritten in `codec`: the same records (offset deltas, timestamps, keys, values,
/// headers) and producer fields, a new CRC.
fn recompress(b: &RecordBatch, codec: Compression) -> Result<RecordBatch> {
    let mut out = RecordBatchBuilder::new(codec)
        .producer(b.producer_id(), b.producer_epoch(), b.base_sequence())
        .transactional(b.is_transactional())
        .timestamp_type(b.timestamp_type());
    for r in b.records().map_err(corrupt)? {
        let r = r.map_err(corrupt)?;
        let headers: Vec<(&str, Option<&[u8]>)> = r
            .headers
            .iter()
            .map(|h| (h.key.as_str(), h.value.as_deref()))
            .collect();
        out.append_at(
            r.offset_delta,
            b.base_timestamp().saturating_add(r.timestamp_delta),
            r.key.as_deref(),
            r.value.as_deref(),
            &headers,
        );
    }
    let bytes = out.build().map_err(corrupt)?;
    RecordBatch::new(bytes).map_err(corrupt)
}

/// Refuses a CreateTime batch with records outside `message.timestamp.before.max.ms` /
/// `after.max.ms` of `now_ms`, naming each such record (Kafka's INVALID_TIMESTAMP with
/// `record_errors`). The batch header (first and max timestamps) is checked first; the records
/// are read only when it is out of range.
fn check_timestamps(b: &RecordBatch, config: &LogConfig, now_ms: i64) -> Result<()> {
    let earliest = now_ms.saturating_sub(config.timestamp_before_max_ms);
    let latest = now_ms.saturating_add(config.timestamp_after_max_ms);
    if b.base_timestamp() >= earliest && b.max_timestamp() <= latest {
        return Ok(());
    }
    let mut refused = Vec::new();
    for (i, r) in b.records().map_err(corrupt)?.enumerate() {
        let r = r.map_err(corrupt)?;
        let ts = b.base_timestamp().saturating_add(r.timestamp_delta);
        if ts < earliest || ts > latest {
            refused.push((
                i as i32,
                format!(
                    "Timestamp {ts} of message with offset {} is out of range. The timestamp should be within [{earliest}, {latest}]",
                    r.offset_delta
                ),
            ));
        }
    }
    if refused.is_empty() {
        return Ok(());
    }
    Err(LogError::RecordErrors {
        code: fjord_protocol::ErrorCode::InvalidTimestamp,
        message: "One or more records have been rejected due to invalid timestamp".into(),
        records: refused,
    })
}

impl PartitionLog {
    /// Appends records from a producer: every batch is validated (framing, magic, CRC,
    /// records, `max.message.bytes`), given the next offsets and stamped with `leader_epoch`.
    pub fn append_as_leader(
        &self,
        records: Bytes,
        leader_epoch: i32,
        now_ms: i64,
    ) -> Result<AppendInfo> {
        self.append_from(Origin::Client, records, leader_epoch, now_ms, None)
    }

    /// Whether a transactional batch from `producer_id` at `epoch` would start a transaction
    /// here (the producer has none open at that epoch: a transaction version 2 producer's
    /// next transaction has the next epoch), and so must be verified with its coordinator
    /// first (KIP-890): `Some(guard)` to pass to [`PartitionLog::append_verified`] once it is.
    pub fn needs_verification(&self, producer_id: i64, epoch: i16) -> Option<VerificationGuard> {
        let open = self
            .producers
            .lock()
            .expect("producers")
            .producers()
            .get(&producer_id)
            .is_some_and(|e| e.current_txn_first_offset.is_some() && e.epoch == epoch);
        (!open).then(|| self.guard(producer_id))
    }

    fn guard(&self, producer_id: i64) -> VerificationGuard {
        let seen = self.markers_seen.lock().expect("markers seen");
        VerificationGuard {
            producer_id,
            markers: seen.get(&producer_id).copied().unwrap_or(0),
        }
    }

    /// [`PartitionLog::append_as_leader`] with transaction verification (KIP-890): a
    /// transactional batch that starts a transaction is refused (INVALID_TXN_STATE) unless
    /// `verified` is the guard taken for its producer before the coordinator confirmed the
    /// partition is in its transaction, and no marker for that producer came since.
    pub fn append_verified(
        &self,
        records: Bytes,
        leader_epoch: i32,
        now_ms: i64,
        verified: Option<VerificationGuard>,
    ) -> Result<AppendInfo> {
        self.append_from(
            Origin::Client,
            records,
            leader_epoch,
            now_ms,
            Some(verified),
        )
    }

    /// As [`PartitionLog::append_as_leader`], for a coordinator (its records, transaction
    /// markers).
    pub fn append_as_coordinator(
        &self,
        records: Bytes,
        leader_epoch: i32,
        now_ms: i64,
    ) -> Result<AppendInfo> {
        self.append_from(Origin::Coordinator, records, leader_epoch, now_ms, None)
    }

    /// A leader append from `origin`; with `verification`, a transaction it starts must carry
    /// the guard of a verification.
    fn append_from(
        &self,
        origin: Origin,
        records: Bytes,
        leader_epoch: i32,
        now_ms: i64,
        verification: Option<Option<VerificationGuard>>,
    ) -> Result<AppendInfo> {
        let config = self.config();
        let batches = split_batches(records)?;
        for b in &batches {
            validate_client_batch(b, &config, now_ms)?;
        }
        let mut w = self.lock_writer()?;
        // Idempotent producers: a batch seen before is answered with its offsets and nothing
        // is appended (as Kafka does); an out-of-order or fenced one refuses the append.
        // Markers are checked against the producer's epoch and last coordinator.
        let idempotent = batches.iter().any(|b| b.producer_id() >= 0);
        if idempotent {
            if let Some(duplicate) = self.check_producers(&batches, origin, now_ms, verification)? {
                return Ok(duplicate);
            }
        }
        let first = self.log_end_offset();
        let mut next = first;
        let log_append = config.timestamp_type == TimestampType::LogAppendTime;
        let mut prepared = Vec::with_capacity(batches.len());
        let mut records = 0i64;
        for b in &batches {
            // A topic `compression.type` other than `producer` stores its own codec: a batch
            // sent in another one is rewritten (as Kafka does); otherwise it is kept as sent.
            let recompressed = match config.compression {
                Some(codec) if !b.is_control() && b.compression().map_err(corrupt)? != codec => {
                    Some(recompress(b, codec)?)
                }
                _ => None,
            };
            let b = recompressed.as_ref().unwrap_or(b);
            let b = if log_append {
                with_log_append_time(b, now_ms)
            } else {
                b.clone()
            };
            let span = i64::from(b.last_offset_delta()) + 1;
            let mut p = PreparedBatch::unchanged(&b);
            p.prefix[0..8].copy_from_slice(&next.to_be_bytes());
            p.prefix[12..16].copy_from_slice(&leader_epoch.to_be_bytes());
            p.base_offset = next;
            p.last_offset = next + span - 1;
            records += i64::from(b.record_count());
            next += span;
            prepared.push(p);
        }
        let last_offsets: Vec<i64> = prepared.iter().map(|p| p.last_offset).collect();
        let info = self.write_tracked(
            &prepared,
            &config,
            now_ms,
            idempotent.then(|| batches.iter().zip(last_offsets.iter().copied())),
        )?;
        if leader_epoch >= 0 {
            let mut epochs = self.epochs.lock().expect("epochs");
            if epochs.latest_epoch().is_none_or(|e| leader_epoch > e) {
                epochs.assign(leader_epoch, first)?;
            }
        }
        self.after_append(&mut w, &config, records, now_ms)?;
        Ok(AppendInfo {
            log_append_time: if log_append { now_ms } else { -1 },
            ..info
        })
    }

    /// The producer checks of a leader append (Kafka's), on a scratch copy of the batches'
    /// producers: a transaction a batch starts needs its verification guard; a batch seen
    /// before is a duplicate, answered with its offsets (`Some`) and not appended; an
    /// out-of-order or fenced one refuses the append. Called with the writer lock held.
    fn check_producers(
        &self,
        batches: &[RecordBatch],
        origin: Origin,
        now_ms: i64,
        verification: Option<Option<VerificationGuard>>,
    ) -> Result<Option<AppendInfo>> {
        let producers = self.producers.lock().expect("producers");
        let mut scratch = producers.subset(batches.iter().map(RecordBatch::producer_id));
        for b in batches {
            if origin == Origin::Coordinator && !b.is_control() {
                scratch.update(b, b.last_offset(), now_ms);
                continue;
            }
            if let Some(verified) = verification {
                let starts = b.is_transactional()
                    && !b.is_control()
                    && scratch.producers().get(&b.producer_id()).is_none_or(|e| {
                        // An older epoch is fenced by the producer checks below.
                        b.producer_epoch() >= e.epoch
                            && (e.current_txn_first_offset.is_none()
                                || e.epoch != b.producer_epoch())
                    });
                match verified {
                    _ if !starts => {}
                    None => {
                        return Err(LogError::InvalidTxnState(format!(
                            "the transaction of producer {} was not verified with its \
                             coordinator before this partition's first batch",
                            b.producer_id()
                        )))
                    }
                    Some(g) if g != self.guard(b.producer_id()) => {
                        return Err(LogError::VerificationStale(format!(
                            "a transaction of producer {} ended in this partition since \
                             it was verified",
                            b.producer_id()
                        )))
                    }
                    Some(_) => {}
                }
            }
            match scratch.check(b)? {
                Verdict::Duplicate {
                    first_offset,
                    last_offset,
                } => {
                    return Ok(Some(AppendInfo {
                        first_offset,
                        last_offset,
                        max_timestamp: -1,
                        log_append_time: -1,
                        batches: 0,
                        bytes: 0,
                    }))
                }
                Verdict::Append => {
                    scratch.update(b, b.last_offset(), now_ms);
                }
            }
        }
        Ok(None)
    }

    /// Appends records replicated from the leader, keeping their offsets. The first batch must
    /// start at the log end offset and every batch must follow the previous one.
    pub fn append_as_follower(&self, records: Bytes, now_ms: i64) -> Result<AppendInfo> {
        let config = self.config();
        let batches = split_batches(records)?;
        let mut w = self.lock_writer()?;
        let mut expected = self.log_end_offset();
        let mut prepared = Vec::with_capacity(batches.len());
        let mut records = 0i64;
        for b in &batches {
            b.verify_crc().map_err(corrupt)?;
            if b.base_offset() != expected || b.last_offset() < b.base_offset() {
                return Err(LogError::UnexpectedAppendOffset {
                    got: b.base_offset(),
                    expected,
                });
            }
            expected = b.next_offset();
            records += i64::from(b.record_count());
            prepared.push(PreparedBatch::unchanged(b));
        }
        let info = self.write_tracked(
            &prepared,
            &config,
            now_ms,
            Some(batches.iter().map(|b| (b, b.last_offset()))),
        )?;
        {
            let mut epochs = self.epochs.lock().expect("epochs");
            for b in &batches {
                let e = b.partition_leader_epoch();
                if e >= 0 && epochs.latest_epoch().is_none_or(|l| e > l) {
                    epochs.assign(e, b.base_offset())?;
                }
            }
        }
        self.after_append(&mut w, &config, records, now_ms)?;
        Ok(info)
    }

    /// Records batches about to be written (each with its last offset) in the producer state,
    /// before [`PartitionLog::write_tracked`] makes them visible: once a follower can fetch a
    /// batch that opens a transaction, the high watermark may pass it, and the last stable
    /// offset must already stop there (a read_committed poll read an open transaction's record
    /// when this ran after the write, under the fault tests). A transaction aborted by one of
    /// them gets its aborted-transaction entry here, in memory, and returned for
    /// [`PartitionLog::write_tracked`] to write to the index file of the segment its marker
    /// went to. Called with the writer lock held.
    fn track_producers<'a>(
        &self,
        appended: impl Iterator<Item = (&'a RecordBatch, i64)>,
        now_ms: i64,
    ) -> Vec<AbortedTxn> {
        let mut producers = self.producers.lock().expect("producers");
        let mut entries = Vec::new();
        for (b, last_offset) in appended {
            if b.is_control() && b.producer_id() >= 0 {
                *self
                    .markers_seen
                    .lock()
                    .expect("markers seen")
                    .entry(b.producer_id())
                    .or_insert(0) += 1;
            }
            if let Some(done) = producers.update(b, last_offset, now_ms) {
                if done.aborted {
                    let entry = AbortedTxn {
                        producer_id: done.producer_id,
                        first_offset: done.first_offset,
                        last_offset: done.last_offset,
                        last_stable_offset: done.last_stable_offset,
                    };
                    self.aborted.write().expect("aborted").push(entry);
                    entries.push(entry);
                }
            }
        }
        producers.on_high_watermark(self.high_watermark());
        self.refresh_unstable(&producers);
        entries
    }

    /// Writes prepared batches (rolling first when they would not fit) and publishes the new
    /// log end offset; `appended` (each batch with its last offset) goes into the producer
    /// state after the roll (whose snapshot is the state before them) and before the write
    /// ([`PartitionLog::track_producers`]), and the aborted transactions their markers end go
    /// into the index of the segment they were written to. A failed write leaves the producer
    /// state ahead of the log: it is rebuilt from the log.
    fn write_tracked<'a>(
        &self,
        prepared: &[PreparedBatch],
        config: &LogConfig,
        now_ms: i64,
        appended: Option<impl Iterator<Item = (&'a RecordBatch, i64)>>,
    ) -> Result<AppendInfo> {
        let bytes: usize = prepared.iter().map(PreparedBatch::size).sum();
        let first = prepared.first().expect("at least one batch");
        let last = prepared.last().expect("at least one batch");
        let segment = self.maybe_roll(config, bytes as u64, first.base_offset, now_ms)?;
        let aborted = appended.map_or_else(Vec::new, |a| self.track_producers(a, now_ms));
        if let Err(e) = segment.append(prepared) {
            if let Err(again) = self.rebuild_producer_state() {
                tracing::error!("rebuilding the producer state after a failed write: {again}");
            }
            return Err(e);
        }
        self.log_end_offset
            .store(last.last_offset + 1, Ordering::Release);
        if !aborted.is_empty() {
            for entry in &aborted {
                crate::txn_index::append_file(&segment.txn_index_path(), entry)?;
            }
            self.txn_index_dirty.store(true, Ordering::Release);
        }
        Ok(AppendInfo {
            first_offset: first.base_offset,
            last_offset: last.last_offset,
            max_timestamp: prepared.iter().map(|p| p.max_timestamp).max().unwrap_or(-1),
            log_append_time: -1,
            batches: prepared.len(),
            bytes,
        })
    }

    /// The segment to append `bytes` at `next_offset` to: the active one, or a new one when
    /// `segment.bytes`, `segment.ms` or a full index say so.
    fn maybe_roll(
        &self,
        config: &LogConfig,
        bytes: u64,
        next_offset: i64,
        now_ms: i64,
    ) -> Result<Arc<Segment>> {
        let active = self.active_segment();
        if active.size() == 0 {
            return Ok(active);
        }
        let too_big = active.size() + bytes > config.segment_bytes;
        let too_old = active
            .first_batch_timestamp()
            .is_some_and(|t| now_ms - t > config.segment_ms);
        let relative_overflow =
            next_offset - active.base_offset() > i64::from(u32::MAX) - 1_000_000;
        if too_big || too_old || active.indexes_full() || relative_overflow {
            return self.roll_at(config, next_offset);
        }
        Ok(active)
    }

    /// Starts a new active segment at `base_offset` (the log end offset). The old one is not
    /// fsynced here: it stays above the recovery point until the next flush.
    pub(super) fn roll_at(&self, config: &LogConfig, base_offset: i64) -> Result<Arc<Segment>> {
        let old = self.active_segment();
        if old.base_offset() == base_offset {
            return Ok(old);
        }
        // The producer state as of the new segment's start, so opening later scans only
        // from here; the aborted transactions below it must be on disk before it is.
        if self.txn_index_dirty.load(Ordering::Acquire) {
            crate::txn_index::sync_file(&old.txn_index_path())?;
        }
        self.snapshot_producers()?;
        let seg = Arc::new(Segment::create(
            &self.dir,
            base_offset,
            config.segment_index_bytes,
            config.index_interval_bytes,
        )?);
        self.segments
            .write()
            .expect("segments")
            .insert(base_offset, seg.clone());
        Ok(seg)
    }

    /// Rolls a new active segment now, unless the active one is empty.
    pub fn roll(&self) -> Result<()> {
        let _w = self.lock_writer()?;
        if self.active_segment().size() > 0 {
            self.roll_at(&self.config(), self.log_end_offset())?;
        }
        Ok(())
    }

    fn after_append(
        &self,
        w: &mut super::WriterState,
        config: &LogConfig,
        records: i64,
        now_ms: i64,
    ) -> Result<()> {
        w.unflushed_messages += records;
        if w.last_flush_ms == 0 {
            w.last_flush_ms = now_ms;
        }
        if w.unflushed_messages >= config.flush_messages
            || now_ms - w.last_flush_ms >= config.flush_ms
        {
            self.flush_locked()?;
            w.unflushed_messages = 0;
            w.last_flush_ms = now_ms;
        }
        Ok(())
    }
}
