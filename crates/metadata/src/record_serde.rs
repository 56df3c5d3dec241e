//! How a metadata record is stored as a record value in `__cluster_metadata` (Kafka's
//! MetadataRecordSerde): an unsigned varint frame version (1), the record type, the record
//! version, then the record body. The record key is null.

use bytes::{Bytes, BytesMut};
use fjord_protocol::codec::{read_uvarint, write_uvarint};
use fjord_protocol::{DecodeError, EncodeError, MetadataRecord};

/// The frame version written: Kafka's `AbstractApiMessageSerde.DEFAULT_FRAME_VERSION`, the
/// only one Kafka reads (its tools and nodes refuse anything else).
pub const FRAME_VERSION: u32 = 1;

/// The frame version fjord wrote before it wrote Kafka's; read so that a data dir written
/// then still loads. Otherwise the same layout.
pub const FJORD_LEGACY_FRAME_VERSION: u32 = 0;

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
    if frame != FRAME_VERSION && frame != FJORD_LEGACY_FRAME_VERSION {
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

#[cfg(test)]
mod tests {
    use super::*;
    use fjord_protocol::generated::feature_level_record::FeatureLevelRecord;

    fn record() -> MetadataRecord {
        MetadataRecord::FeatureLevel(FeatureLevelRecord {
            name: "metadata.version".into(),
            feature_level: 27,
            ..Default::default()
        })
    }

    /// Kafka's framing, byte for byte: frame version 1, type 12, version 0, then the body.
    #[test]
    fn records_are_framed_as_kafka_frames_them() {
        let value = encode_at(&record(), 0).unwrap();
        assert_eq!(&value[..3], &[1, 12, 0]);
        assert_eq!(decode(value).unwrap(), record());
    }

    /// A data dir fjord wrote with frame version 0 still loads.
    #[test]
    fn records_fjord_framed_with_version_0_still_decode() {
        let mut value = encode_at(&record(), 0).unwrap().to_vec();
        value[0] = 0;
        assert_eq!(decode(Bytes::from(value)).unwrap(), record());
        let mut value = encode_at(&record(), 0).unwrap().to_vec();
        value[0] = 2;
        assert!(decode(Bytes::from(value)).is_err());
    }
}
