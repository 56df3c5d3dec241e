//! A zero-copy view over one record batch v2 and an iterator over back-to-back batches.
//!
//! Layout (big-endian): baseOffset i64 | batchLength i32 | partitionLeaderEpoch i32 |
//! magic i8 | crc u32 | attributes i16 | lastOffsetDelta i32 | baseTimestamp i64 |
//! maxTimestamp i64 | producerId i64 | producerEpoch i16 | baseSequence i32 |
//! recordCount i32 | records. The CRC-32C covers attributes through the end.

use super::compression::{decompress, Compression, MAX_DECOMPRESSED_BATCH_BYTES};
use super::record::Records;
use crate::error::DecodeError;
use bytes::Bytes;

/// The size of the batch header, up to and including the record count.
pub const BATCH_HEADER_LEN: usize = 61;
/// The bytes before `batchLength` counts: base offset and the length itself.
pub const LOG_OVERHEAD: usize = 12;
/// The only magic value fjord reads and writes.
pub const MAGIC_V2: i8 = 2;

const PLE_AT: usize = 12;
const MAGIC_AT: usize = 16;
const CRC_AT: usize = 17;
const ATTRIBUTES_AT: usize = 21;
const LAST_OFFSET_DELTA_AT: usize = 23;
const BASE_TIMESTAMP_AT: usize = 27;
const MAX_TIMESTAMP_AT: usize = 35;
const PRODUCER_ID_AT: usize = 43;
const PRODUCER_EPOCH_AT: usize = 51;
const BASE_SEQUENCE_AT: usize = 53;
const RECORD_COUNT_AT: usize = 57;

const COMPRESSION_MASK: i16 = 0x07;
const TIMESTAMP_TYPE_BIT: i16 = 0x08;
const TRANSACTIONAL_BIT: i16 = 0x10;
const CONTROL_BIT: i16 = 0x20;
const DELETE_HORIZON_BIT: i16 = 0x40;

/// Whose clock a batch's timestamps are.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TimestampType {
    /// Set by the producer.
    CreateTime,
    /// Set by the broker on append.
    LogAppendTime,
}

/// One whole record batch, sharing the buffer it came from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RecordBatch {
    bytes: Bytes,
}

fn be_i16(b: &[u8], at: usize) -> i16 {
    i16::from_be_bytes([b[at], b[at + 1]])
}

fn be_i32(b: &[u8], at: usize) -> i32 {
    i32::from_be_bytes([b[at], b[at + 1], b[at + 2], b[at + 3]])
}

fn be_i64(b: &[u8], at: usize) -> i64 {
    let mut a = [0u8; 8];
    a.copy_from_slice(&b[at..at + 8]);
    i64::from_be_bytes(a)
}

fn corrupt(msg: impl Into<String>) -> DecodeError {
    DecodeError::CorruptRecords(msg.into())
}

impl RecordBatch {
    /// Wraps exactly one batch, checking its framing (length and magic); the CRC is checked
    /// by [`RecordBatch::verify_crc`].
    pub fn new(bytes: Bytes) -> Result<RecordBatch, DecodeError> {
        if bytes.len() < BATCH_HEADER_LEN {
            return Err(corrupt(format!(
                "batch of {} bytes is shorter than its header",
                bytes.len()
            )));
        }
        let len = be_i32(&bytes, 8);
        if len < 0 || len as usize + LOG_OVERHEAD != bytes.len() {
            return Err(corrupt(format!(
                "batch length {len} does not match {} bytes",
                bytes.len()
            )));
        }
        let magic = bytes[MAGIC_AT] as i8;
        if magic != MAGIC_V2 {
            return Err(corrupt(format!("unsupported magic {magic}")));
        }
        Ok(RecordBatch { bytes })
    }

    /// Splits the first batch off `buf`. Returns `None` when `buf` holds only part of a batch
    /// (a fetch response may end with one); a malformed length is an error.
    pub fn split_first(buf: &mut Bytes) -> Result<Option<RecordBatch>, DecodeError> {
        if buf.len() < LOG_OVERHEAD {
            return Ok(None);
        }
        let len = be_i32(buf, 8);
        if len < (BATCH_HEADER_LEN - LOG_OVERHEAD) as i32 {
            return Err(corrupt(format!(
                "batch length {len} is below the header size"
            )));
        }
        let total = LOG_OVERHEAD + len as usize;
        if buf.len() < total {
            return Ok(None);
        }
        RecordBatch::new(buf.split_to(total)).map(Some)
    }

    /// The whole batch.
    pub fn as_bytes(&self) -> &Bytes {
        &self.bytes
    }

    /// The batch, giving up the view.
    pub fn into_bytes(self) -> Bytes {
        self.bytes
    }

    /// The batch's size in bytes.
    pub fn size(&self) -> usize {
        self.bytes.len()
    }

    /// The offset of the first record.
    pub fn base_offset(&self) -> i64 {
        be_i64(&self.bytes, 0)
    }

    /// The length field (bytes after it).
    pub fn batch_length(&self) -> i32 {
        be_i32(&self.bytes, 8)
    }

    /// The leader epoch stamped by the leader that appended the batch.
    pub fn partition_leader_epoch(&self) -> i32 {
        be_i32(&self.bytes, PLE_AT)
    }

    /// The magic byte (always 2 here).
    pub fn magic(&self) -> i8 {
        self.bytes[MAGIC_AT] as i8
    }

    /// The stored CRC-32C.
    pub fn crc(&self) -> u32 {
        be_i32(&self.bytes, CRC_AT) as u32
    }

    /// The CRC-32C computed over attributes through the end.
    pub fn compute_crc(&self) -> u32 {
        crc32c::crc32c(&self.bytes[ATTRIBUTES_AT..])
    }

    /// Checks the stored CRC against the data.
    pub fn verify_crc(&self) -> Result<(), DecodeError> {
        let (stored, computed) = (self.crc(), self.compute_crc());
        if stored != computed {
            return Err(corrupt(format!(
                "CRC mismatch: stored {stored:#010x}, computed {computed:#010x}"
            )));
        }
        Ok(())
    }

    /// The attributes field.
    pub fn attributes(&self) -> i16 {
        be_i16(&self.bytes, ATTRIBUTES_AT)
    }

    /// The compression codec.
    pub fn compression(&self) -> Result<Compression, DecodeError> {
        Compression::from_id((self.attributes() & COMPRESSION_MASK) as u8)
    }

    /// The timestamp type.
    pub fn timestamp_type(&self) -> TimestampType {
        if self.attributes() & TIMESTAMP_TYPE_BIT != 0 {
            TimestampType::LogAppendTime
        } else {
            TimestampType::CreateTime
        }
    }

    /// True for a transactional batch.
    pub fn is_transactional(&self) -> bool {
        self.attributes() & TRANSACTIONAL_BIT != 0
    }

    /// True for a control batch (transaction markers, KRaft control records).
    pub fn is_control(&self) -> bool {
        self.attributes() & CONTROL_BIT != 0
    }

    /// True when the base timestamp holds the delete horizon (compacted tombstones).
    pub fn has_delete_horizon(&self) -> bool {
        self.attributes() & DELETE_HORIZON_BIT != 0
    }

    /// The offset delta of the last record.
    pub fn last_offset_delta(&self) -> i32 {
        be_i32(&self.bytes, LAST_OFFSET_DELTA_AT)
    }

    /// The offset of the last record.
    pub fn last_offset(&self) -> i64 {
        self.base_offset()
            .wrapping_add(i64::from(self.last_offset_delta()))
    }

    /// The offset after the batch.
    pub fn next_offset(&self) -> i64 {
        self.last_offset().wrapping_add(1)
    }

    /// The timestamp of the first record.
    pub fn base_timestamp(&self) -> i64 {
        be_i64(&self.bytes, BASE_TIMESTAMP_AT)
    }

    /// The largest timestamp in the batch.
    pub fn max_timestamp(&self) -> i64 {
        be_i64(&self.bytes, MAX_TIMESTAMP_AT)
    }

    /// The producer id, or -1.
    pub fn producer_id(&self) -> i64 {
        be_i64(&self.bytes, PRODUCER_ID_AT)
    }

    /// The producer epoch, or -1.
    pub fn producer_epoch(&self) -> i16 {
        be_i16(&self.bytes, PRODUCER_EPOCH_AT)
    }

    /// The sequence number of the first record, or -1.
    pub fn base_sequence(&self) -> i32 {
        be_i32(&self.bytes, BASE_SEQUENCE_AT)
    }

    /// The number of records the header announces.
    pub fn record_count(&self) -> i32 {
        be_i32(&self.bytes, RECORD_COUNT_AT)
    }

    /// The records section as stored (compressed when the batch is).
    pub fn records_payload(&self) -> Bytes {
        self.bytes.slice(BATCH_HEADER_LEN..)
    }

    /// The records. An uncompressed batch is iterated in place; a compressed one is inflated
    /// once (bounded by [`MAX_DECOMPRESSED_BATCH_BYTES`]).
    pub fn records(&self) -> Result<Records, DecodeError> {
        let payload = match self.compression()? {
            Compression::None => self.records_payload(),
            codec => Bytes::from(decompress(
                codec,
                &self.bytes[BATCH_HEADER_LEN..],
                MAX_DECOMPRESSED_BATCH_BYTES,
            )?),
        };
        Records::new(payload, self.record_count())
    }

    /// Full validation: CRC, record count, and every record well formed with offset deltas
    /// strictly increasing and within `lastOffsetDelta`. Records are walked in place (inflated
    /// once when compressed), with the same checks as [`RecordBatch::records`].
    pub fn validate(&self) -> Result<(), DecodeError> {
        self.verify_crc()?;
        if self.record_count() < 0 {
            return Err(corrupt(format!(
                "negative record count {}",
                self.record_count()
            )));
        }
        let inflated;
        let payload: &[u8] = match self.compression()? {
            Compression::None => &self.bytes[BATCH_HEADER_LEN..],
            codec => {
                inflated = decompress(
                    codec,
                    &self.bytes[BATCH_HEADER_LEN..],
                    MAX_DECOMPRESSED_BATCH_BYTES,
                )?;
                &inflated
            }
        };
        validate_records(payload, self.record_count(), self.last_offset_delta())
    }
}

/// Walks `count` records in `payload` without building them: lengths within bounds, no
/// trailing bytes, UTF-8 header keys, offset deltas strictly increasing up to `last_delta`.
fn validate_records(mut b: &[u8], count: i32, last_delta: i32) -> Result<(), DecodeError> {
    let mut previous = -1i32;
    for _ in 0..count {
        let len = take_varint(&mut b)?;
        let len = usize::try_from(len).map_err(|_| corrupt("negative record length"))?;
        if len > b.len() {
            return Err(corrupt("record length exceeds the batch"));
        }
        let (mut rec, rest) = b.split_at(len);
        b = rest;
        if rec.is_empty() {
            return Err(corrupt("empty record"));
        }
        rec = &rec[1..]; // attributes
        take_varlong(&mut rec)?; // timestamp delta
        let delta = take_varint(&mut rec)?;
        if delta <= previous {
            return Err(corrupt("record offset deltas are not increasing"));
        }
        previous = delta;
        skip_nullable(&mut rec)?; // key
        skip_nullable(&mut rec)?; // value
        let headers = take_varint(&mut rec)?;
        if headers < 0 || headers as usize > rec.len() {
            return Err(corrupt("bad header count"));
        }
        for _ in 0..headers {
            let key = skip_nullable(&mut rec)?.ok_or_else(|| corrupt("null header key"))?;
            std::str::from_utf8(key).map_err(|_| corrupt("header key is not UTF-8"))?;
            skip_nullable(&mut rec)?;
        }
        if !rec.is_empty() {
            return Err(corrupt("record has trailing bytes"));
        }
    }
    if !b.is_empty() {
        return Err(corrupt("bytes after the last record"));
    }
    if count > 0 && previous > last_delta {
        return Err(corrupt("a record's offset delta exceeds lastOffsetDelta"));
    }
    Ok(())
}

fn take_uvarlong(b: &mut &[u8], max_bytes: usize) -> Result<u64, DecodeError> {
    let mut value = 0u64;
    for i in 0..max_bytes {
        let (&byte, rest) = b.split_first().ok_or(DecodeError::Truncated {
            needed: 1,
            remaining: 0,
        })?;
        *b = rest;
        if i == 9 && byte > 0x01 {
            return Err(DecodeError::VarintTooLong);
        }
        value |= u64::from(byte & 0x7f) << (7 * i);
        if byte & 0x80 == 0 {
            return Ok(value);
        }
    }
    Err(DecodeError::VarintTooLong)
}

fn take_varint(b: &mut &[u8]) -> Result<i32, DecodeError> {
    let raw = take_uvarlong(b, 5)?;
    let raw = u32::try_from(raw).map_err(|_| DecodeError::VarintTooLong)?;
    Ok(((raw >> 1) as i32) ^ -((raw & 1) as i32))
}

fn take_varlong(b: &mut &[u8]) -> Result<i64, DecodeError> {
    let raw = take_uvarlong(b, 10)?;
    Ok(((raw >> 1) as i64) ^ -((raw & 1) as i64))
}

/// Skips a varint-length-prefixed field (-1: null); returns its bytes.
fn skip_nullable<'a>(b: &mut &'a [u8]) -> Result<Option<&'a [u8]>, DecodeError> {
    let len = take_varint(b)?;
    if len < 0 {
        return if len == -1 {
            Ok(None)
        } else {
            Err(corrupt("negative length in record"))
        };
    }
    let len = len as usize;
    if len > b.len() {
        return Err(corrupt("record field longer than the record"));
    }
    let (field, rest) = b.split_at(len);
    *b = rest;
    Ok(Some(field))
}

/// Rewrites the base offset of the batch at the start of `batch` (not covered by the CRC).
pub fn set_base_offset(batch: &mut [u8], base_offset: i64) {
    batch[..8].copy_from_slice(&base_offset.to_be_bytes());
}

/// Rewrites the partition leader epoch of the batch at the start of `batch` (not covered by
/// the CRC).
pub fn set_partition_leader_epoch(batch: &mut [u8], epoch: i32) {
    batch[PLE_AT..PLE_AT + 4].copy_from_slice(&epoch.to_be_bytes());
}

/// Iterates over back-to-back batches in a records blob (a Produce or Fetch `records` field).
/// Iteration stops at a trailing partial batch, which [`RecordBatches::remaining`] then holds.
#[derive(Debug, Clone)]
pub struct RecordBatches {
    rest: Bytes,
    failed: bool,
}

impl RecordBatches {
    /// Batches in `records`.
    pub fn new(records: Bytes) -> RecordBatches {
        RecordBatches {
            rest: records,
            failed: false,
        }
    }

    /// The bytes not yet returned as batches.
    pub fn remaining(&self) -> &Bytes {
        &self.rest
    }
}

impl Iterator for RecordBatches {
    type Item = Result<RecordBatch, DecodeError>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.failed {
            return None;
        }
        match RecordBatch::split_first(&mut self.rest) {
            Ok(Some(b)) => Some(Ok(b)),
            Ok(None) => None,
            Err(e) => {
                self.failed = true;
                Some(Err(e))
            }
        }
    }
}
