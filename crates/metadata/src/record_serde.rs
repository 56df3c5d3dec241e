//! How a metadata record is stored as a record value in `__cluster_metadata` (Kafka's
//! MetadataRecordSerde): an unsigned varint frame version (0), the record type, the record
//! version, then the record body. The record key is null.

use bytes::{Bytes, BytesMut};
use fjord_protocol::codec::{read_uvarint, write_uvarint};
use fjord_protocol::{DecodeError, EncodeError, MetadataRecord};

/// The only frame version.
pub const FRAME_VERSION: u32 = 0;

/// Encodes a record at its type's highest version.
pub fn encode(record: &MetadataRecord) -> Result<Bytes, EncodeError> {
    encode_at(
        record,
        MetadataRecord::max_version(record.record_type()).unwrap_or(0),
    )
}

/// Encodes a record value at `version` (a field the version lacks must hold its default).
pub fn encode_at(record: &MetadataRecord, version: i16) -> Result<Bytes, EncodeError> {
    let mut b = BytesMut::with_capacity(64);
    write_uvarint(&mut b, FRAME_VERSION);
    write_uvarint(&mut b, record.record_type() as u32);
    write_uvarint(&mut b, version as u32);
    record.encode(&mut b, version)?;
    Ok(b.freeze())
}

/// Decodes a record value.
pub fn decode(mut value: Bytes) -> Result<MetadataRecord, DecodeError> {
    let frame = read_uvarint(&mut value)?;
    if frame != FRAME_VERSION {
        return Err(DecodeError::CorruptRecords(format!(
            "metadata record frame version {frame}"
        )));
    }
    let record_type = i16::try_from(read_uvarint(&mut value)?)
        .map_err(|_| DecodeError::CorruptRecords("record type out of range".into()))?;
    let version = i16::try_from(read_uvarint(&mut value)?)
        .map_err(|_| DecodeError::CorruptRecords("record version out of range".into()))?;
    let max = MetadataRecord::max_version(record_type).ok_or_else(|| {
        DecodeError::CorruptRecords(format!("unknown metadata record type {record_type}"))
    })?;
    if version > max {
        return Err(DecodeError::CorruptRecords(format!(
            "metadata record type {record_type} at version {version} (this build reads up to {max})"
        )));
    }
    MetadataRecord::decode(record_type, &mut value, version)
}
