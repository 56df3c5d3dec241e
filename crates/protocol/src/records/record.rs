//! Records inside a batch: length-prefixed, with zig-zag varint fields, key, value and
//! headers; and the control records that transaction markers and KRaft use.

use super::varint::{read_varint, read_varlong};
use crate::error::DecodeError;
use bytes::{Buf, Bytes};

/// One record header.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RecordHeader {
    /// The header key.
    pub key: String,
    /// The header value, or null.
    pub value: Option<Bytes>,
}

/// One record, its key and value sharing the batch's buffer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Record {
    /// The record attributes (unused by Kafka today).
    pub attributes: i8,
    /// The timestamp relative to the batch's base timestamp.
    pub timestamp_delta: i64,
    /// The offset relative to the batch's base offset.
    pub offset_delta: i32,
    /// The key, or null.
    pub key: Option<Bytes>,
    /// The value, or null (a tombstone).
    pub value: Option<Bytes>,
    /// The headers.
    pub headers: Vec<RecordHeader>,
}

/// The type of a control record, from its key.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ControlRecordType {
    /// A transaction abort marker.
    Abort,
    /// A transaction commit marker.
    Commit,
    /// KRaft: a leader change (value is a `LeaderChangeMessage`).
    LeaderChange,
    /// KRaft: a snapshot header (`SnapshotHeaderRecord`).
    SnapshotHeader,
    /// KRaft: a snapshot footer (`SnapshotFooterRecord`).
    SnapshotFooter,
    /// KRaft: the kraft.version (`KRaftVersionRecord`).
    KRaftVersion,
    /// KRaft: the voter set (`VotersRecord`).
    KRaftVoters,
    /// A type this build does not know.
    Unknown(i16),
}

impl ControlRecordType {
    /// The type's number.
    pub fn id(self) -> i16 {
        match self {
            ControlRecordType::Abort => 0,
            ControlRecordType::Commit => 1,
            ControlRecordType::LeaderChange => 2,
            ControlRecordType::SnapshotHeader => 3,
            ControlRecordType::SnapshotFooter => 4,
            ControlRecordType::KRaftVersion => 5,
            ControlRecordType::KRaftVoters => 6,
            ControlRecordType::Unknown(n) => n,
        }
    }

    /// The type for a number.
    pub fn from_id(id: i16) -> ControlRecordType {
        match id {
            0 => ControlRecordType::Abort,
            1 => ControlRecordType::Commit,
            2 => ControlRecordType::LeaderChange,
            3 => ControlRecordType::SnapshotHeader,
            4 => ControlRecordType::SnapshotFooter,
            5 => ControlRecordType::KRaftVersion,
            6 => ControlRecordType::KRaftVoters,
            n => ControlRecordType::Unknown(n),
        }
    }

    /// The key of a control record of this type: version 0, then the type.
    pub fn key(self) -> [u8; 4] {
        let t = self.id().to_be_bytes();
        [0, 0, t[0], t[1]]
    }

    /// Reads a control record key (version int16, type int16).
    pub fn parse_key(key: &[u8]) -> Result<ControlRecordType, DecodeError> {
        if key.len() < 4 {
            return Err(DecodeError::CorruptRecords(
                "control record key shorter than 4 bytes".into(),
            ));
        }
        Ok(ControlRecordType::from_id(i16::from_be_bytes([
            key[2], key[3],
        ])))
    }
}

/// Iterates over the records of one batch's (decompressed) records section.
#[derive(Debug, Clone)]
pub struct Records {
    rest: Bytes,
    left: i32,
}

impl Records {
    /// Records in `payload`, of which the batch header announces `count`.
    pub fn new(payload: Bytes, count: i32) -> Result<Records, DecodeError> {
        if count < 0 {
            return Err(DecodeError::CorruptRecords(format!(
                "negative record count {count}"
            )));
        }
        Ok(Records {
            rest: payload,
            left: count,
        })
    }
}

fn corrupt(msg: &str) -> DecodeError {
    DecodeError::CorruptRecords(msg.to_string())
}

fn read_nullable(buf: &mut Bytes) -> Result<Option<Bytes>, DecodeError> {
    let len = read_varint(buf)?;
    if len < 0 {
        return if len == -1 {
            Ok(None)
        } else {
            Err(corrupt("negative length in record"))
        };
    }
    let len = len as usize;
    if len > buf.remaining() {
        return Err(corrupt("record field longer than the record"));
    }
    Ok(Some(buf.split_to(len)))
}

fn parse_record(mut body: Bytes) -> Result<Record, DecodeError> {
    let buf = &mut body;
    if !buf.has_remaining() {
        return Err(corrupt("empty record"));
    }
    let attributes = buf.get_i8();
    let timestamp_delta = read_varlong(buf)?;
    let offset_delta = read_varint(buf)?;
    let key = read_nullable(buf)?;
    let value = read_nullable(buf)?;
    let count = read_varint(buf)?;
    if count < 0 || count as usize > buf.remaining() {
        return Err(corrupt("bad header count"));
    }
    let mut headers =
        Vec::with_capacity((count as usize).min(crate::codec::MAX_PREALLOCATED_ELEMENTS));
    for _ in 0..count {
        let key = read_nullable(buf)?.ok_or_else(|| corrupt("null header key"))?;
        let key =
            String::from_utf8(key.to_vec()).map_err(|_| corrupt("header key is not UTF-8"))?;
        let value = read_nullable(buf)?;
        headers.push(RecordHeader { key, value });
    }
    if buf.has_remaining() {
        return Err(corrupt("record has trailing bytes"));
    }
    Ok(Record {
        attributes,
        timestamp_delta,
        offset_delta,
        key,
        value,
        headers,
    })
}

impl Iterator for Records {
    type Item = Result<Record, DecodeError>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.left == 0 {
            if self.rest.has_remaining() {
                self.rest.clear();
                return Some(Err(corrupt("bytes after the last record")));
            }
            return None;
        }
        self.left -= 1;
        let result = (|| {
            let len = read_varint(&mut self.rest)?;
            if len < 0 || len as usize > self.rest.remaining() {
                return Err(corrupt("record length exceeds the batch"));
            }
            parse_record(self.rest.split_to(len as usize))
        })();
        if result.is_err() {
            self.left = 0;
            self.rest.clear();
        }
        Some(result)
    }
}
