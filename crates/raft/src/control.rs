//! KRaft's control records on disk and on the wire: the batch that starts a leader's epoch
//! (LeaderChangeMessage), voter sets (VotersRecord, with each voter's endpoints), the
//! kraft.version record, and snapshot headers and footers. Also reads a stored batch back into
//! the core's [`Entry`].

use crate::types::{Entry, EntryKind, NodeId};
use bytes::Bytes;
use fjord_protocol::generated::k_raft_version_record::KRaftVersionRecord;
use fjord_protocol::generated::leader_change_message::{self, LeaderChangeMessage};
use fjord_protocol::generated::snapshot_footer_record::SnapshotFooterRecord;
use fjord_protocol::generated::snapshot_header_record::SnapshotHeaderRecord;
use fjord_protocol::generated::voters_record::{self, VotersRecord};
use fjord_protocol::records::{Compression, ControlRecordType, RecordBatch, RecordBatchBuilder};
use fjord_protocol::{DecodeError, Uuid};
use std::collections::{BTreeMap, BTreeSet};

/// The highest kraft.version this build supports (1: dynamic voters, KIP-853).
pub const KRAFT_VERSION: i16 = 1;

/// Where a voter listens (its first controller listener).
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Endpoint {
    /// The listener name (e.g. `CONTROLLER`).
    pub name: String,
    /// The host.
    pub host: String,
    /// The port.
    pub port: u16,
}

/// One voter as a VotersRecord holds it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct VoterInfo {
    /// Its node id.
    pub id: NodeId,
    /// Its metadata log directory id (KIP-853's replica key).
    pub directory_id: Uuid,
    /// Its controller endpoints.
    pub endpoints: Vec<Endpoint>,
}

/// A voter set with endpoints, by id.
pub type VoterSet = BTreeMap<NodeId, VoterInfo>;

fn control_batch(
    offset: i64,
    epoch: i32,
    now_ms: i64,
    records: &[(ControlRecordType, Vec<u8>)],
) -> Bytes {
    let mut b = RecordBatchBuilder::new(Compression::None)
        .base_offset(offset)
        .partition_leader_epoch(epoch);
    for (kind, value) in records {
        b.append_control(now_ms, *kind, value);
    }
    b.build()
        .expect("a control batch of a few small records fits any limit")
}

fn encode<F: FnOnce(&mut Vec<u8>) -> Result<(), fjord_protocol::EncodeError>>(f: F) -> Vec<u8> {
    let mut v = Vec::new();
    f(&mut v).expect("control messages have no field that can overflow");
    v
}

/// The batch that opens a leader's epoch.
pub fn leader_change_batch(
    offset: i64,
    epoch: i32,
    leader: NodeId,
    voters: &BTreeSet<NodeId>,
    now_ms: i64,
) -> Bytes {
    let list: Vec<leader_change_message::Voter> = voters
        .iter()
        .map(|v| leader_change_message::Voter {
            voter_id: *v,
            ..Default::default()
        })
        .collect();
    let msg = LeaderChangeMessage {
        version: 0,
        leader_id: leader,
        voters: list.clone(),
        granting_voters: list,
        ..Default::default()
    };
    let value = encode(|w| msg.encode(w, 0));
    control_batch(
        offset,
        epoch,
        now_ms,
        &[(ControlRecordType::LeaderChange, value)],
    )
}

/// The VotersRecord value for a voter set.
pub fn voters_record(voters: &VoterSet) -> VotersRecord {
    VotersRecord {
        version: 0,
        voters: voters
            .values()
            .map(|v| voters_record::Voter {
                voter_id: v.id,
                voter_directory_id: v.directory_id,
                endpoints: v
                    .endpoints
                    .iter()
                    .map(|e| voters_record::Endpoint {
                        name: e.name.clone(),
                        host: e.host.clone(),
                        port: e.port,
                        ..Default::default()
                    })
                    .collect(),
                k_raft_version_feature: voters_record::KRaftVersionFeature {
                    min_supported_version: 0,
                    max_supported_version: KRAFT_VERSION,
                    ..Default::default()
                },
                ..Default::default()
            })
            .collect(),
        ..Default::default()
    }
}

/// A batch holding a new voter set (with the kraft.version record first when `with_version`).
pub fn voters_batch(
    offset: i64,
    epoch: i32,
    voters: &VoterSet,
    with_version: bool,
    now_ms: i64,
) -> Bytes {
    let mut records = Vec::new();
    if with_version {
        let v = KRaftVersionRecord {
            version: 0,
            k_raft_version: KRAFT_VERSION,
            ..Default::default()
        };
        records.push((ControlRecordType::KRaftVersion, encode(|w| v.encode(w, 0))));
    }
    let record = voters_record(voters);
    records.push((
        ControlRecordType::KRaftVoters,
        encode(|w| record.encode(w, 0)),
    ));
    control_batch(offset, epoch, now_ms, &records)
}

/// A snapshot's first batch.
pub fn snapshot_header_batch(last_contained_log_timestamp: i64, now_ms: i64) -> Bytes {
    let h = SnapshotHeaderRecord {
        version: 0,
        last_contained_log_timestamp,
        ..Default::default()
    };
    control_batch(
        0,
        0,
        now_ms,
        &[(
            ControlRecordType::SnapshotHeader,
            encode(|w| h.encode(w, 0)),
        )],
    )
}

/// A snapshot's last batch.
pub fn snapshot_footer_batch(offset: i64, now_ms: i64) -> Bytes {
    let f = SnapshotFooterRecord {
        version: 0,
        ..Default::default()
    };
    control_batch(
        offset,
        0,
        now_ms,
        &[(
            ControlRecordType::SnapshotFooter,
            encode(|w| f.encode(w, 0)),
        )],
    )
}

/// The control records of a batch, in order (empty for a data batch).
pub fn control_records(
    batch: &RecordBatch,
) -> Result<Vec<(ControlRecordType, Bytes)>, DecodeError> {
    if !batch.is_control() {
        return Ok(Vec::new());
    }
    let mut out = Vec::new();
    for r in batch.records()? {
        let r = r?;
        let key = r
            .key
            .ok_or_else(|| DecodeError::CorruptRecords("control record without a key".into()))?;
        let kind = ControlRecordType::parse_key(&key)?;
        out.push((kind, r.value.unwrap_or_default()));
    }
    Ok(out)
}

/// Decodes a VotersRecord value.
pub fn parse_voters(mut value: Bytes) -> Result<VoterSet, DecodeError> {
    let record = VotersRecord::decode(&mut value, 0)?;
    Ok(record
        .voters
        .into_iter()
        .map(|v| {
            let info = VoterInfo {
                id: v.voter_id,
                directory_id: v.voter_directory_id,
                endpoints: v
                    .endpoints
                    .into_iter()
                    .map(|e| Endpoint {
                        name: e.name,
                        host: e.host,
                        port: e.port,
                    })
                    .collect(),
            };
            (v.voter_id, info)
        })
        .collect())
}

/// The voter set a batch holds, if it holds one.
pub fn batch_voters(batch: &RecordBatch) -> Result<Option<VoterSet>, DecodeError> {
    for (kind, value) in control_records(batch)? {
        if kind == ControlRecordType::KRaftVoters {
            return parse_voters(value).map(Some);
        }
    }
    Ok(None)
}

/// The core's view of a stored batch.
pub fn entry_of(batch: RecordBatch) -> Result<Entry, DecodeError> {
    let mut kind = EntryKind::Data;
    for (k, mut value) in control_records(&batch)? {
        match k {
            ControlRecordType::LeaderChange => {
                let msg = LeaderChangeMessage::decode(&mut value, 0)?;
                kind = EntryKind::LeaderChange {
                    leader: msg.leader_id,
                };
            }
            ControlRecordType::KRaftVoters => {
                let voters = parse_voters(value)?;
                kind = EntryKind::Voters(voters.keys().copied().collect());
            }
            _ => {}
        }
    }
    let records = u32::try_from(i64::from(batch.last_offset_delta()) + 1)
        .map_err(|_| DecodeError::CorruptRecords("negative last offset delta".into()))?;
    Ok(Entry {
        offset: batch.base_offset(),
        records,
        epoch: batch.partition_leader_epoch(),
        kind,
        data: batch.into_bytes(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn voter(id: NodeId, port: u16) -> (NodeId, VoterInfo) {
        (
            id,
            VoterInfo {
                id,
                directory_id: Uuid::from_u128(id as u128),
                endpoints: vec![Endpoint {
                    name: "CONTROLLER".into(),
                    host: "127.0.0.1".into(),
                    port,
                }],
            },
        )
    }

    #[test]
    fn control_batches_read_back_as_entries() {
        let voters: BTreeSet<NodeId> = [1, 2, 3].into();
        let b = leader_change_batch(7, 3, 2, &voters, 1_000);
        let e = entry_of(RecordBatch::new(b).unwrap()).unwrap();
        assert_eq!(
            (e.offset, e.records, e.epoch),
            (7, 1, 3),
            "one record at offset 7 in epoch 3"
        );
        assert_eq!(e.kind, EntryKind::LeaderChange { leader: 2 });

        let set: VoterSet = [voter(1, 9093), voter(4, 9094)].into();
        let b = voters_batch(8, 3, &set, true, 1_000);
        let batch = RecordBatch::new(b).unwrap();
        batch.validate().unwrap();
        assert_eq!(batch_voters(&batch).unwrap(), Some(set));
        let e = entry_of(batch).unwrap();
        assert_eq!(e.records, 2, "kraft.version and voters");
        assert_eq!(e.kind, EntryKind::Voters([1, 4].into()));
    }
}
