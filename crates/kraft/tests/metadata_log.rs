//! The metadata log on disk: entries as record batches, voter sets with endpoints, snapshots
//! that clean the log below them, and everything surviving a reopen.

use bytes::Bytes;
use fjord_kraft::metadata_log::MetadataLog;
use fjord_protocol::records::{Compression, RecordBatchBuilder};
use fjord_protocol::Uuid;
use fjord_raft::control::{self, Endpoint, VoterInfo, VoterSet};
use fjord_raft::{Entry, EntryKind, RaftLog, SnapshotId};

fn voters(ids: &[i32]) -> VoterSet {
    ids.iter()
        .map(|&id| {
            (
                id,
                VoterInfo {
                    id,
                    directory_id: Uuid::from_u128(id as u128 + 100),
                    endpoints: vec![Endpoint {
                        name: "CONTROLLER".into(),
                        host: "127.0.0.1".into(),
                        port: 9000 + id as u16,
                    }],
                },
            )
        })
        .collect()
}

fn data(records: u32) -> Bytes {
    let mut b = RecordBatchBuilder::new(Compression::None);
    for i in 0..records {
        b.append(1_000, Some(b"k"), Some(format!("v{i}").as_bytes()), &[]);
    }
    b.build().unwrap()
}

fn entry(offset: i64, records: u32, epoch: i32, kind: EntryKind, data: Bytes) -> Entry {
    Entry {
        offset,
        records,
        epoch,
        kind,
        data,
    }
}

/// A leader change, three records, voters 1-4 (with endpoints), then two records in
/// `last_epoch` at offset 6 (epoch 1 for the rest).
fn four_entries_with_a_voter_change(last_epoch: i32) -> Vec<Entry> {
    vec![
        entry(0, 1, 1, EntryKind::LeaderChange { leader: 1 }, Bytes::new()),
        entry(1, 3, 1, EntryKind::Data, data(3)),
        entry(
            4,
            2,
            1,
            EntryKind::Voters([1, 2, 3, 4].into()),
            control::voters_batch(4, 1, &voters(&[1, 2, 3, 4]), true, 0),
        ),
        entry(6, 2, last_epoch, EntryKind::Data, data(2)),
    ]
}

#[test]
fn entries_voters_and_snapshots_survive_a_reopen() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("__cluster_metadata-0");
    let mut log = MetadataLog::open(&path, voters(&[1, 2, 3])).unwrap();
    assert!(!log.has_dynamic_voters());
    let mut entries = four_entries_with_a_voter_change(2);
    entries.insert(
        3,
        entry(6, 2, 2, EntryKind::LeaderChange { leader: 2 }, Bytes::new()),
    );
    entries[4].offset = 7;
    log.append(&entries);
    assert_eq!(log.failure(), None);
    assert_eq!(log.end_offset(), 9);
    assert_eq!(log.last_epoch(), 2);
    assert_eq!(log.end_offset_for_epoch(1), (1, 6));
    assert_eq!(log.voter_set().len(), 4);
    let read = log.read(2, 10);
    assert_eq!(read.len(), 4, "from the batch holding offset 2");
    assert_eq!(read[0].offset, 1);
    assert_eq!(read[1].kind, EntryKind::Voters([1, 2, 3, 4].into()));
    assert_eq!(read[2].kind, EntryKind::LeaderChange { leader: 2 });
    log.flush();
    assert_eq!(log.flushed_end_offset(), 9);

    log.truncate_to(7);
    assert_eq!(log.end_offset(), 7);
    log.append(&[entry(7, 1, 3, EntryKind::Data, data(1))]);
    log.flush();

    let id = SnapshotId {
        end_offset: 6,
        epoch: 1,
    };
    log.set_high_watermark(8);
    log.create_snapshot(id, &[1, 2, 3, 4].into(), data(2));
    assert_eq!(log.failure(), None);
    assert_eq!(log.start_offset(), 6);
    assert_eq!(log.latest_snapshot(), Some(id));
    assert_eq!(log.snapshot_voters(), Some([1, 2, 3, 4].into()));
    assert_eq!(log.voter_set().len(), 4, "now from the snapshot");
    drop(log);

    let log = MetadataLog::open(&path, VoterSet::new()).unwrap();
    assert_eq!((log.start_offset(), log.end_offset()), (6, 8));
    assert_eq!(log.latest_snapshot(), Some(id));
    assert_eq!(log.voter_set()[&4].endpoints[0].port, 9004);
    assert_eq!(log.last_epoch(), 3);
    assert_eq!(
        log.end_offset_for_epoch(1),
        (1, 6),
        "the snapshot ends epoch 1"
    );
    let (_, state) = log.snapshot_state().unwrap().unwrap();
    assert_eq!(state.len(), data(2).len());

    // Another node downloads the snapshot in pieces and installs it.
    let mut bytes = Vec::new();
    let mut pos = 0;
    while let Some((size, chunk)) = log.read_snapshot(id, pos, 50) {
        bytes.extend_from_slice(&chunk);
        pos += chunk.len() as u64;
        if pos >= size {
            break;
        }
    }
    let other_path = dir.path().join("other");
    let mut other = MetadataLog::open(&other_path, VoterSet::new()).unwrap();
    other.append(&[entry(0, 1, 1, EntryKind::Data, data(1))]);
    assert!(other
        .install_snapshot(id, Bytes::from(bytes[..bytes.len() - 3].to_vec()))
        .is_err());
    other.install_snapshot(id, Bytes::from(bytes)).unwrap();
    assert_eq!((other.start_offset(), other.end_offset()), (6, 6));
    assert_eq!(other.last_epoch(), 1);
    assert_eq!(other.snapshot_voters(), Some([1, 2, 3, 4].into()));
    drop(other);
    let other = MetadataLog::open(&other_path, VoterSet::new()).unwrap();
    assert_eq!((other.start_offset(), other.end_offset()), (6, 6));
}

/// A snapshot written off the Raft thread (`write_staged`, then `adopt_staged_snapshot`) ends
/// as one taken on it: in place under its final name, the log cleaned below it, its voters
/// recorded, readable after a reopen. A staged file a crash left behind is removed at open,
/// and one written beside a download of the same id does not touch the downloaded file.
#[test]
fn a_snapshot_written_off_the_raft_thread_is_adopted_as_one_taken_on_it() {
    use fjord_kraft::snapshot_file;
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("__cluster_metadata-0");
    let mut log = MetadataLog::open(&path, voters(&[1, 2, 3])).unwrap();
    log.append(&four_entries_with_a_voter_change(1));
    log.flush();
    log.set_high_watermark(8);
    let id = SnapshotId {
        end_offset: 8,
        epoch: 1,
    };
    let recorded = log.snapshot_voter_set(id, &[1, 2, 3, 4].into());
    assert_eq!(
        recorded.as_ref().map(|v| v[&4].endpoints[0].port),
        Some(9004)
    );
    let staged = snapshot_file::write_staged(&path, id, recorded, &data(5), 0).unwrap();
    assert!(staged.path.exists());
    // Until it is adopted, the log is as it was.
    assert_eq!(log.latest_snapshot(), None);
    assert_eq!(log.start_offset(), 0);
    let staged_path = staged.path.clone();
    log.adopt_staged_snapshot(staged);
    assert_eq!(log.failure(), None);
    assert!(!staged_path.exists());
    assert!(path.join(snapshot_file::file_name(id)).exists());
    assert_eq!(log.latest_snapshot(), Some(id));
    assert_eq!((log.start_offset(), log.end_offset()), (8, 8));
    assert_eq!(log.snapshot_voters(), Some([1, 2, 3, 4].into()));
    let (_, state) = log.snapshot_state().unwrap().unwrap();
    // The state's batch, renumbered after the voters (its first 8 bytes, the base offset).
    assert_eq!(state[8..], data(5)[8..]);
    // A crash while the next one was staged leaves its file; the reopen removes it.
    let next = SnapshotId {
        end_offset: 20,
        epoch: 2,
    };
    let left = snapshot_file::write_staged(&path, next, None, &data(1), 0).unwrap();
    drop(log);
    let log = MetadataLog::open(&path, VoterSet::new()).unwrap();
    assert!(!left.path.exists(), "the staged file of a crash is removed");
    assert_eq!(log.latest_snapshot(), Some(id));
    assert_eq!(log.voter_set()[&4].endpoints[0].port, 9004);
    // A download of the same id meanwhile: the staged file has a name of its own.
    let other_path = dir.path().join("other");
    let mut other = MetadataLog::open(&other_path, VoterSet::new()).unwrap();
    let staged = snapshot_file::write_staged(&other_path, id, None, &data(1), 0).unwrap();
    let (_, bytes) = log.read_snapshot(id, 0, 1 << 20).unwrap();
    other.install_snapshot(id, bytes.clone()).unwrap();
    assert!(staged.path.exists());
    assert_eq!(
        std::fs::read(other_path.join(snapshot_file::file_name(id))).unwrap(),
        bytes
    );
}

#[test]
fn a_read_that_fails_is_a_fatal_disk_failure_not_a_short_log() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("__cluster_metadata-0");
    let mut log = MetadataLog::open(&path, voters(&[1])).unwrap();
    log.append(&[
        entry(0, 1, 1, EntryKind::LeaderChange { leader: 1 }, Bytes::new()),
        entry(1, 3, 1, EntryKind::Data, data(3)),
    ]);
    log.flush();
    assert_eq!(log.read(0, 10).len(), 2);
    assert!(log.failure().is_none());
    // The segment loses its bytes under the log (a failing disk).
    let segment = path.join("00000000000000000000.log");
    std::fs::OpenOptions::new()
        .write(true)
        .open(&segment)
        .unwrap()
        .set_len(10)
        .unwrap();
    let read = log.read(0, 10);
    assert!(read.len() < 2, "a short read was not noticed");
    assert!(
        log.failure().is_some(),
        "a failed read must stop the node, not look like a shorter log"
    );
}
