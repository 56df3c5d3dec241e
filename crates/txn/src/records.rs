//! The `__transaction_state` records in Kafka's format: the key is version 0 then
//! `TransactionLogKey` (the transactional id); the value its version then
//! `TransactionLogValue`; a null value is a tombstone (the id expired). What
//! `kafka-dump-log --transaction-log-decoder` reads.

use crate::state::TxnMetadata;
use bytes::{BufMut, Bytes, BytesMut};
use fjord_protocol::generated::{
    transaction_log_key::TransactionLogKey, transaction_log_value::TransactionLogValue,
};
use fjord_protocol::DecodeError;

/// The key version written.
const KEY_VERSION: i16 = 0;
/// The newest value version, read and written: 1 is flexible, with the previous and next
/// producer ids and the client's transaction version as tagged fields.
const MAX_VALUE_VERSION: i16 = 1;

/// The value version a metadata is written at: 0 when it has nothing only version 1 carries
/// (so it reads the same in any Kafka tool), else 1.
fn value_version(m: &TxnMetadata) -> i16 {
    let plain = m.previous_producer_id == -1 && m.next_producer_id == -1 && m.client_version == 0;
    if plain {
        0
    } else {
        MAX_VALUE_VERSION
    }
}

/// One `__transaction_state` record.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TxnRecord {
    /// The transactional id.
    pub transactional_id: String,
    /// Its metadata (None: a tombstone).
    pub value: Option<TxnMetadata>,
}

impl TxnRecord {
    /// Its key and value as stored.
    pub fn encode(&self) -> (Bytes, Option<Bytes>) {
        let mut key = BytesMut::new();
        key.put_i16(KEY_VERSION);
        TransactionLogKey {
            transactional_id: self.transactional_id.clone(),
        }
        .encode(&mut key, KEY_VERSION)
        .expect("a key encodes at its version");
        let value = self.value.as_ref().map(|m| {
            let version = value_version(m);
            let mut v = BytesMut::new();
            v.put_i16(version);
            m.to_value()
                .encode(&mut v, version)
                .expect("a value encodes at its version");
            v.freeze()
        });
        (key.freeze(), value)
    }

    /// Reads a stored record; None for a key version this build does not know (skipped, as
    /// Kafka skips them).
    pub fn decode(key: &Bytes, value: Option<&Bytes>) -> Result<Option<TxnRecord>, DecodeError> {
        let mut k = key.clone();
        let version = fjord_protocol::codec::read_i16(&mut k)?;
        if version != KEY_VERSION {
            return Ok(None);
        }
        let id = TransactionLogKey::decode(&mut k, KEY_VERSION)?.transactional_id;
        let value = match value {
            None => None,
            Some(v) => {
                let mut v = v.clone();
                let version = fjord_protocol::codec::read_i16(&mut v)?;
                if !(0..=MAX_VALUE_VERSION).contains(&version) {
                    return Err(DecodeError::CorruptRecords(format!(
                        "transaction log value version {version}"
                    )));
                }
                let value = TransactionLogValue::decode(&mut v, version)?;
                Some(TxnMetadata::from_value(&id, &value).ok_or_else(|| {
                    DecodeError::CorruptRecords(format!(
                        "transaction state {}",
                        value.transaction_status
                    ))
                })?)
            }
        };
        Ok(Some(TxnRecord {
            transactional_id: id,
            value,
        }))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::state::TxnState;

    #[test]
    fn records_round_trip_in_kafkas_layout() {
        let m = TxnMetadata {
            transactional_id: "t1".into(),
            producer_id: 1000,
            previous_producer_id: -1,
            producer_epoch: 3,
            last_producer_epoch: -1,
            timeout_ms: 60_000,
            state: TxnState::Ongoing,
            partitions: [
                ("a".to_string(), 0),
                ("a".to_string(), 2),
                ("b".to_string(), 1),
            ]
            .into_iter()
            .collect(),
            start_ms: 5,
            last_update_ms: 6,
            next_producer_id: -1,
            client_version: 0,
        };
        let r = TxnRecord {
            transactional_id: "t1".into(),
            value: Some(m),
        };
        let (k, v) = r.encode();
        // Key: version 0, then the id as an int16-length string.
        assert_eq!(&k[..], &[0, 0, 0, 2, b't', b'1']);
        assert_eq!(&v.as_ref().unwrap()[..2], &[0, 0]);
        assert_eq!(TxnRecord::decode(&k, v.as_ref()).unwrap(), Some(r.clone()));
        let tomb = TxnRecord {
            transactional_id: "t1".into(),
            value: None,
        };
        let (k, v) = tomb.encode();
        assert_eq!(TxnRecord::decode(&k, v.as_ref()).unwrap(), Some(tomb));
        // A value of an unknown state is refused, not misread.
        let mut bad = BytesMut::new();
        bad.put_i16(0);
        let mut value = r.value.unwrap().to_value();
        value.transaction_status = 9;
        value.encode(&mut bad, 0).unwrap();
        assert!(TxnRecord::decode(&k, Some(&bad.freeze())).is_err());
    }

    #[test]
    fn what_only_version_1_carries_is_written_at_version_1_and_read_back() {
        let mut m = TxnMetadata::new("t2", 7, 60_000, 1);
        m.previous_producer_id = 6;
        m.next_producer_id = 8;
        m.client_version = 2;
        m.producer_epoch = i16::MAX;
        m.state = TxnState::PrepareCommit;
        let r = TxnRecord {
            transactional_id: "t2".into(),
            value: Some(m),
        };
        let (k, v) = r.encode();
        assert_eq!(&v.as_ref().unwrap()[..2], &[0, 1], "value version 1");
        assert_eq!(TxnRecord::decode(&k, v.as_ref()).unwrap(), Some(r));
    }
}
