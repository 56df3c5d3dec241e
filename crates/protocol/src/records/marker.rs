//! Transaction markers: the control batch a partition leader appends when a transaction ends
//! (Kafka's `EndTransactionMarker`). One control record whose key is the marker's type (commit
//! or abort) and whose value is version 0 then the coordinator epoch; the batch carries the
//! producer id and epoch and is transactional.

use super::batch::RecordBatch;
use super::builder::RecordBatchBuilder;
use super::compression::Compression;
use super::record::ControlRecordType;
use crate::error::{DecodeError, EncodeError};
use bytes::Bytes;

/// The marker value version written.
const MARKER_VALUE_VERSION: i16 = 0;

/// The end of one producer's transaction in one partition.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct EndTxnMarker {
    /// True for a commit, false for an abort.
    pub commit: bool,
    /// The epoch of the coordinator that wrote it.
    pub coordinator_epoch: i32,
}

impl EndTxnMarker {
    /// The marker as a batch of `producer_id` at `producer_epoch`, timestamped `now_ms`.
    pub fn to_batch(
        self,
        producer_id: i64,
        producer_epoch: i16,
        now_ms: i64,
    ) -> Result<Bytes, EncodeError> {
        let mut value = [0u8; 6];
        value[0..2].copy_from_slice(&MARKER_VALUE_VERSION.to_be_bytes());
        value[2..6].copy_from_slice(&self.coordinator_epoch.to_be_bytes());
        let kind = if self.commit {
            ControlRecordType::Commit
        } else {
            ControlRecordType::Abort
        };
        let mut b = RecordBatchBuilder::new(Compression::None)
            .producer(producer_id, producer_epoch, -1)
            .transactional(true);
        b.append_control(now_ms, kind, &value);
        b.build()
    }

    /// The marker a control batch holds: None for a control batch of another kind (KRaft's),
    /// an error for one that cannot be read.
    pub fn of(batch: &RecordBatch) -> Result<Option<EndTxnMarker>, DecodeError> {
        if !batch.is_control() {
            return Ok(None);
        }
        let Some(record) = batch.records()?.next() else {
            return Err(DecodeError::CorruptRecords("an empty control batch".into()));
        };
        let record = record?;
        let key = record
            .key
            .as_deref()
            .ok_or_else(|| DecodeError::CorruptRecords("a control record without a key".into()))?;
        let commit = match ControlRecordType::parse_key(key)? {
            ControlRecordType::Commit => true,
            ControlRecordType::Abort => false,
            _ => return Ok(None),
        };
        let value = record.value.as_deref().unwrap_or_default();
        if value.len() < 6 {
            return Err(DecodeError::CorruptRecords(
                "a transaction marker value shorter than 6 bytes".into(),
            ));
        }
        Ok(Some(EndTxnMarker {
            commit,
            coordinator_epoch: i32::from_be_bytes([value[2], value[3], value[4], value[5]]),
        }))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn markers_round_trip_as_kafka_lays_them_out() {
        let m = EndTxnMarker {
            commit: false,
            coordinator_epoch: 7,
        };
        let batch = RecordBatch::new(m.to_batch(42, 3, 1_000).unwrap()).unwrap();
        assert!(batch.is_control() && batch.is_transactional());
        assert_eq!((batch.producer_id(), batch.producer_epoch()), (42, 3));
        assert_eq!(EndTxnMarker::of(&batch).unwrap(), Some(m));
        let record = batch.records().unwrap().next().unwrap().unwrap();
        // Key: version 0, type 0 (abort); value: version 0, coordinator epoch.
        assert_eq!(record.key.as_deref(), Some(&[0u8, 0, 0, 0][..]));
        assert_eq!(record.value.as_deref(), Some(&[0u8, 0, 0, 0, 0, 7][..]));
        let plain = {
            let mut b = RecordBatchBuilder::new(Compression::None);
            b.append(1, None, Some(b"v"), &[]);
            RecordBatch::new(b.build().unwrap()).unwrap()
        };
        assert_eq!(EndTxnMarker::of(&plain).unwrap(), None);
    }
}
