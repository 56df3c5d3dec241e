//! Builds record batches v2: producers, tests, the KRaft log and control records use it.

use super::batch::{TimestampType, BATCH_HEADER_LEN, LOG_OVERHEAD, MAGIC_V2};
use super::compression::{compress, Compression};
use super::record::ControlRecordType;
use super::varint::{put_varint, put_varlong};
use crate::error::EncodeError;
use bytes::{BufMut, Bytes, BytesMut};

/// Accumulates records and writes one batch.
#[derive(Debug, Clone)]
pub struct RecordBatchBuilder {
    compression: Compression,
    base_offset: i64,
    partition_leader_epoch: i32,
    producer_id: i64,
    producer_epoch: i16,
    base_sequence: i32,
    transactional: bool,
    control: bool,
    timestamp_type: TimestampType,
    base_timestamp: Option<i64>,
    max_timestamp: i64,
    count: i32,
    next_offset_delta: i32,
    last_offset_delta: Option<i32>,
    max_timestamp_override: Option<i64>,
    delete_horizon: bool,
    body: Vec<u8>,
}

impl RecordBatchBuilder {
    /// A builder for a plain (non-idempotent) batch starting at offset 0.
    pub fn new(compression: Compression) -> RecordBatchBuilder {
        RecordBatchBuilder {
            compression,
            base_offset: 0,
            partition_leader_epoch: -1,
            producer_id: -1,
            producer_epoch: -1,
            base_sequence: -1,
            transactional: false,
            control: false,
            timestamp_type: TimestampType::CreateTime,
            base_timestamp: None,
            max_timestamp: -1,
            count: 0,
            next_offset_delta: 0,
            last_offset_delta: None,
            max_timestamp_override: None,
            delete_horizon: false,
            body: Vec::new(),
        }
    }

    /// Marks the batch with a delete horizon (KIP-534): compaction may drop its tombstones
    /// after `horizon_ms`. The base timestamp field holds the horizon and record timestamps
    /// are written relative to it. Must be set before the first record.
    pub fn delete_horizon(mut self, horizon_ms: i64) -> Self {
        self.delete_horizon = true;
        self.base_timestamp = Some(horizon_ms);
        self
    }

    /// Writes `ts` as the batch's max timestamp (a LogAppendTime batch keeps its append time).
    pub fn max_timestamp(mut self, ts: i64) -> Self {
        self.max_timestamp_override = Some(ts);
        self
    }

    /// Keeps `delta` as the batch's lastOffsetDelta even when later records were removed
    /// (compaction keeps batch boundaries and the producer's sequence range).
    pub fn last_offset_delta(mut self, delta: i32) -> Self {
        self.last_offset_delta = Some(delta);
        self
    }

    /// Sets the base offset.
    pub fn base_offset(mut self, offset: i64) -> Self {
        self.base_offset = offset;
        self
    }

    /// Sets the partition leader epoch.
    pub fn partition_leader_epoch(mut self, epoch: i32) -> Self {
        self.partition_leader_epoch = epoch;
        self
    }

    /// Sets the idempotent producer fields.
    pub fn producer(mut self, producer_id: i64, producer_epoch: i16, base_sequence: i32) -> Self {
        self.producer_id = producer_id;
        self.producer_epoch = producer_epoch;
        self.base_sequence = base_sequence;
        self
    }

    /// Marks the batch transactional.
    pub fn transactional(mut self, on: bool) -> Self {
        self.transactional = on;
        self
    }

    /// Marks the batch as a control batch.
    pub fn control(mut self, on: bool) -> Self {
        self.control = on;
        self
    }

    /// Sets the timestamp type.
    pub fn timestamp_type(mut self, t: TimestampType) -> Self {
        self.timestamp_type = t;
        self
    }

    /// The number of records appended so far.
    pub fn len(&self) -> i32 {
        self.count
    }

    /// True when no record was appended.
    pub fn is_empty(&self) -> bool {
        self.count == 0
    }

    /// Appends a record with the next offset delta.
    pub fn append(
        &mut self,
        timestamp: i64,
        key: Option<&[u8]>,
        value: Option<&[u8]>,
        headers: &[(&str, Option<&[u8]>)],
    ) {
        let delta = self.next_offset_delta;
        self.append_at(delta, timestamp, key, value, headers);
    }

    /// Appends a record at a given offset delta (above every earlier one): compaction rewrites
    /// the records it keeps without changing their offsets.
    pub fn append_at(
        &mut self,
        offset_delta: i32,
        timestamp: i64,
        key: Option<&[u8]>,
        value: Option<&[u8]>,
        headers: &[(&str, Option<&[u8]>)],
    ) {
        let base_ts = *self.base_timestamp.get_or_insert(timestamp);
        self.max_timestamp = self.max_timestamp.max(timestamp);
        let mut rec =
            Vec::with_capacity(16 + key.map_or(0, <[u8]>::len) + value.map_or(0, <[u8]>::len));
        rec.push(0); // attributes
        put_varlong(&mut rec, timestamp.wrapping_sub(base_ts));
        put_varint(&mut rec, offset_delta);
        put_nullable(&mut rec, key);
        put_nullable(&mut rec, value);
        put_varint(&mut rec, headers.len() as i32);
        for (k, v) in headers {
            put_nullable(&mut rec, Some(k.as_bytes()));
            put_nullable(&mut rec, *v);
        }
        put_varint(&mut self.body, rec.len() as i32);
        self.body.extend_from_slice(&rec);
        self.count += 1;
        self.next_offset_delta = offset_delta + 1;
    }

    /// Appends a control record of `kind` with `value` (a generated KRaft message, or an end
    /// transaction marker), and marks the batch as control.
    pub fn append_control(&mut self, timestamp: i64, kind: ControlRecordType, value: &[u8]) {
        self.control = true;
        let key = kind.key();
        self.append(timestamp, Some(&key), Some(value), &[]);
    }

    /// Writes the batch.
    pub fn build(self) -> Result<Bytes, EncodeError> {
        let records = match self.compression {
            Compression::None => self.body,
            codec => compress(codec, &self.body)?,
        };
        let total = BATCH_HEADER_LEN + records.len();
        let batch_length =
            i32::try_from(total - LOG_OVERHEAD).map_err(|_| EncodeError::TooLong { len: total })?;
        let mut attributes = i16::from(self.compression.id());
        if self.timestamp_type == TimestampType::LogAppendTime {
            attributes |= 0x08;
        }
        if self.transactional {
            attributes |= 0x10;
        }
        if self.control {
            attributes |= 0x20;
        }
        if self.delete_horizon {
            attributes |= 0x40;
        }
        let mut b = BytesMut::with_capacity(total);
        b.put_i64(self.base_offset);
        b.put_i32(batch_length);
        b.put_i32(self.partition_leader_epoch);
        b.put_i8(MAGIC_V2);
        b.put_u32(0); // CRC, patched below
        b.put_i16(attributes);
        b.put_i32(
            self.last_offset_delta
                .unwrap_or((self.next_offset_delta - 1).max(0)),
        );
        b.put_i64(self.base_timestamp.unwrap_or(-1));
        b.put_i64(self.max_timestamp_override.unwrap_or(self.max_timestamp));
        b.put_i64(self.producer_id);
        b.put_i16(self.producer_epoch);
        b.put_i32(self.base_sequence);
        b.put_i32(self.count);
        b.extend_from_slice(&records);
        let crc = crc32c::crc32c(&b[21..]);
        b[17..21].copy_from_slice(&crc.to_be_bytes());
        Ok(b.freeze())
    }
}

fn put_nullable(out: &mut Vec<u8>, v: Option<&[u8]>) {
    match v {
        Some(v) => {
            put_varint(out, v.len() as i32);
            out.extend_from_slice(v);
        }
        None => put_varint(out, -1),
    }
}
