//! Leader-append checks on a partition log. Idempotent producers: duplicates are answered with
//! their original offsets and not appended, gaps and old epochs are refused, and the state
//! survives a reopen (after a clean close from the snapshot, after a crash from the snapshot
//! written on the last roll plus the batches after it) and a truncation. CreateTime
//! timestamps out of range are refused record by record. A topic codec rewrites batches sent
//! in another. A transaction starts in a partition only once verified with its coordinator
//! (KIP-890), and a marker between the check and the append voids the check.

use fjord_log::partition_log::load::Checkpointed;
use fjord_log::{LogConfig, LogError, PartitionLog};
use fjord_protocol::records::{Compression, RecordBatchBuilder};

fn batch(pid: i64, epoch: i16, seq: i32, n: usize) -> bytes::Bytes {
    let mut b = RecordBatchBuilder::new(Compression::None).producer(pid, epoch, seq);
    for i in 0..n {
        b.append(1_000, None, Some(format!("v{i}").as_bytes()), &[]);
    }
    b.build().unwrap()
}

fn config() -> LogConfig {
    LogConfig {
        segment_bytes: 400,
        ..LogConfig::default()
    }
}

fn open(dir: &std::path::Path, clean: bool) -> PartitionLog {
    PartitionLog::open(dir, config(), Checkpointed::default(), clean)
        .unwrap()
        .0
}

#[test]
fn duplicates_gaps_and_epochs_across_reopens() {
    let dir = tempfile::tempdir().unwrap();
    let log = open(dir.path(), false);
    let mut seq = 0;
    for _ in 0..20 {
        let info = log.append_as_leader(batch(7, 0, seq, 3), 0, 2_000).unwrap();
        assert_eq!(info.first_offset, i64::from(seq));
        seq += 3;
    }
    assert!(log.segment_count() > 2, "rolled, so snapshots were written");
    assert!(std::fs::read_dir(dir.path()).unwrap().any(|e| e
        .unwrap()
        .file_name()
        .to_string_lossy()
        .ends_with(".snapshot")));
    // The last batch again: answered with its offsets, nothing appended.
    let end = log.log_end_offset();
    let dup = log
        .append_as_leader(batch(7, 0, seq - 3, 3), 0, 2_000)
        .unwrap();
    assert_eq!(
        (dup.first_offset, dup.last_offset, dup.batches),
        (end - 3, end - 1, 0)
    );
    assert_eq!(log.log_end_offset(), end);
    // A gap, and an old epoch.
    let gap = log.append_as_leader(batch(7, 0, seq + 1, 1), 0, 2_000);
    assert!(
        matches!(gap, Err(LogError::OutOfOrderSequence(_))),
        "{gap:?}"
    );
    let old = log.append_as_leader(batch(7, -1, seq, 1), 0, 2_000);
    assert!(
        matches!(old, Err(LogError::InvalidProducerEpoch(_))),
        "{old:?}"
    );
    let two = [batch(7, 0, seq, 1), batch(7, 0, seq + 1, 1)].concat();
    log.append_as_leader(two.into(), 0, 2_000)
        .expect("two batches in sequence in one request");
    seq += 2;
    let before = log.producer_state();
    drop(log);

    // A crash: the state comes back from the last roll's snapshot and the batches after it.
    let log = open(dir.path(), false);
    let last = |s: &fjord_log::producer_state::ProducerState| {
        let e = &s.producers()[&7];
        (e.epoch, *e.batches.back().unwrap())
    };
    // A snapshot keeps each producer's last batch (as Kafka's): the batches after it come back
    // from the log.
    assert_eq!(last(&log.producer_state()), last(&before));
    let dup = log
        .append_as_leader(batch(7, 0, seq - 1, 1), 0, 2_000)
        .unwrap();
    assert_eq!(dup.batches, 0, "still a duplicate after the crash");
    log.append_as_leader(batch(7, 0, seq, 1), 0, 2_000).unwrap();
    seq += 1;
    log.close().unwrap();
    let state = log.producer_state();
    drop(log);

    // A clean close: from its snapshot.
    let log = open(dir.path(), true);
    assert_eq!(last(&log.producer_state()), last(&state));
    // A truncation takes the state back with the log.
    let end = log.log_end_offset();
    log.truncate_to(end - 1).unwrap();
    let r = log
        .append_as_leader(batch(7, 0, seq - 1, 1), 0, 2_000)
        .unwrap();
    assert_eq!(
        (r.first_offset, r.batches),
        (end - 1, 1),
        "the truncated batch is new again"
    );
}

/// CreateTime timestamps outside `message.timestamp.before.max.ms` / `after.max.ms` refuse
/// the batch with INVALID_TIMESTAMP, naming each record; LogAppendTime topics take any.
#[test]
fn timestamps_out_of_range_are_refused_record_by_record() {
    let dir = tempfile::tempdir().unwrap();
    let cfg = LogConfig {
        timestamp_before_max_ms: 10_000,
        timestamp_after_max_ms: 1_000,
        ..LogConfig::default()
    };
    let log = PartitionLog::open(dir.path(), cfg.clone(), Checkpointed::default(), false)
        .unwrap()
        .0;
    let now = 100_000;
    let mut b = RecordBatchBuilder::new(Compression::None);
    b.append(now, None, Some(b"ok"), &[]);
    b.append(now + 5_000, None, Some(b"future"), &[]);
    b.append(now - 50_000, None, Some(b"past"), &[]);
    let err = log
        .append_as_leader(b.build().unwrap(), 0, now)
        .unwrap_err();
    assert_eq!(
        err.error_code(),
        fjord_protocol::ErrorCode::InvalidTimestamp
    );
    let indexes: Vec<i32> = err.record_errors().iter().map(|(i, _)| *i).collect();
    assert_eq!(indexes, vec![1, 2]);
    assert_eq!(log.log_end_offset(), 0, "nothing appended");
    let mut b = RecordBatchBuilder::new(Compression::None);
    b.append(now + 500, None, Some(b"fine"), &[]);
    log.append_as_leader(b.build().unwrap(), 0, now).unwrap();
}

/// A topic `compression.type` other than `producer` stores batches in its codec: a batch sent
/// in another is rewritten with the same records, producer fields and offsets; one already in
/// it is stored as sent.
#[test]
fn a_topic_codec_rewrites_batches_sent_in_another() {
    use fjord_protocol::records::RecordBatches;
    let dir = tempfile::tempdir().unwrap();
    let cfg = LogConfig {
        compression: Some(Compression::Zstd),
        ..LogConfig::default()
    };
    let log = PartitionLog::open(dir.path(), cfg, Checkpointed::default(), false)
        .unwrap()
        .0;
    let mut b = RecordBatchBuilder::new(Compression::Gzip).producer(9, 0, 0);
    for i in 0..50 {
        b.append(
            1_000 + i,
            Some(b"k"),
            Some(format!("value-{i}").as_bytes()),
            &[("h", Some(b"x"))],
        );
    }
    log.append_as_leader(b.build().unwrap(), 0, 2_000).unwrap();
    let mut z = RecordBatchBuilder::new(Compression::Zstd);
    z.append(1_100, None, Some(b"already zstd"), &[]);
    let sent = z.build().unwrap();
    log.append_as_leader(sent.clone(), 0, 2_000).unwrap();
    let read = log.read(0, 1 << 20, None, true).unwrap();
    let batches: Vec<_> = RecordBatches::new(read.records)
        .map(|b| b.unwrap())
        .collect();
    assert_eq!(batches.len(), 2);
    let first = &batches[0];
    assert_eq!(first.compression().unwrap(), Compression::Zstd, "rewritten");
    first.verify_crc().unwrap();
    assert_eq!(
        (
            first.producer_id(),
            first.base_sequence(),
            first.last_offset()
        ),
        (9, 0, 49)
    );
    let records: Vec<_> = first.records().unwrap().map(|r| r.unwrap()).collect();
    assert_eq!(records.len(), 50);
    assert_eq!(records[7].value.as_deref(), Some(&b"value-7"[..]));
    assert_eq!(records[7].headers[0].key, "h");
    assert_eq!(first.base_timestamp() + records[7].timestamp_delta, 1_007);
    // The zstd batch is stored as sent: only its offset and leader epoch differ.
    assert_eq!(&batches[1].as_bytes()[61..], &sent[61..]);
}

fn txn_batch(pid: i64, epoch: i16, seq: i32, n: usize) -> bytes::Bytes {
    let mut b = RecordBatchBuilder::new(Compression::None)
        .producer(pid, epoch, seq)
        .transactional(true);
    for i in 0..n {
        b.append(1_000, None, Some(format!("t{i}").as_bytes()), &[]);
    }
    b.build().unwrap()
}

#[test]
fn a_transaction_starts_in_a_partition_only_once_verified_and_not_after_a_marker() {
    use fjord_protocol::records::EndTxnMarker;
    let dir = tempfile::tempdir().unwrap();
    let log = open(dir.path(), true);
    // Unverified: refused, nothing appended.
    let refused = log.append_verified(txn_batch(7, 0, 0, 2), 0, 1_000, None);
    assert!(
        matches!(refused, Err(LogError::InvalidTxnState(_))),
        "{refused:?}"
    );
    assert_eq!(log.log_end_offset(), 0);
    // Verified: the transaction starts; later batches of it need no verification.
    let guard = log
        .needs_verification(7, 0)
        .expect("no transaction open yet");
    log.append_verified(txn_batch(7, 0, 0, 2), 0, 1_000, Some(guard))
        .unwrap();
    assert_eq!(
        log.needs_verification(7, 0),
        None,
        "its transaction is open"
    );
    log.append_verified(txn_batch(7, 0, 2, 1), 0, 1_000, None)
        .unwrap();
    // A guard is one producer's: it does not verify another.
    let other = log.needs_verification(8, 0).unwrap();
    assert!(log
        .append_verified(txn_batch(9, 0, 0, 1), 0, 1_000, Some(other))
        .is_err());
    // The race KIP-890 closes: verified, then the transaction ends (its marker lands here)
    // before the append; the append would start a transaction no coordinator knows.
    let marker = |commit| {
        EndTxnMarker {
            commit,
            coordinator_epoch: 0,
        }
        .to_batch(7, 0, 1_000)
        .unwrap()
    };
    log.append_as_coordinator(marker(true), 0, 1_000).unwrap();
    let stale = log.needs_verification(7, 0).unwrap();
    log.append_as_coordinator(marker(false), 0, 1_000).unwrap();
    let late = log.append_verified(txn_batch(7, 0, 3, 1), 0, 1_000, Some(stale));
    // Refused, and retriable: the retry asks the coordinator again.
    assert!(
        matches!(late, Err(LogError::VerificationStale(_))),
        "{late:?}"
    );
    assert_eq!(
        late.unwrap_err().error_code(),
        fjord_protocol::ErrorCode::NotEnoughReplicas
    );
    let fresh = log.needs_verification(7, 0).unwrap();
    log.append_verified(txn_batch(7, 0, 3, 1), 0, 1_000, Some(fresh))
        .unwrap();
    // Plain and idempotent batches are not transactions: nothing to verify.
    log.append_verified(batch(11, 0, 0, 1), 0, 1_000, None)
        .unwrap();
}

#[test]
fn a_version_2_producers_next_epoch_starts_a_new_transaction_that_needs_verifying() {
    use fjord_protocol::records::EndTxnMarker;
    let dir = tempfile::tempdir().unwrap();
    let log = open(dir.path(), true);
    let guard = log.needs_verification(7, 0).unwrap();
    log.append_verified(txn_batch(7, 0, 0, 2), 0, 1_000, Some(guard))
        .unwrap();
    // The same producer at the next epoch, its transaction at epoch 0 still open (the
    // coordinator has not written the marker yet): that is a new transaction.
    assert!(log.needs_verification(7, 1).is_some());
    assert!(matches!(
        log.append_verified(txn_batch(7, 1, 0, 1), 0, 1_000, None),
        Err(LogError::InvalidTxnState(_))
    ));
    // The end's marker carries the bumped epoch; then epoch 1 starts at sequence 0.
    let commit = EndTxnMarker {
        commit: true,
        coordinator_epoch: 0,
    }
    .to_batch(7, 1, 1_000)
    .unwrap();
    log.append_as_coordinator(commit, 0, 1_000).unwrap();
    // Not at a later sequence: had the batch before it been refused (its verification
    // answered while the marker was still on its way), the gap could never be filled.
    let guard = log.needs_verification(7, 1).unwrap();
    assert!(matches!(
        log.append_verified(txn_batch(7, 1, 2, 1), 0, 1_000, Some(guard)),
        Err(LogError::OutOfOrderSequence(_))
    ));
    let guard = log.needs_verification(7, 1).unwrap();
    let info = log
        .append_verified(txn_batch(7, 1, 0, 2), 0, 1_000, Some(guard))
        .unwrap();
    assert_eq!(info.first_offset, 3);
    assert_eq!(log.needs_verification(7, 1), None);
    // A zombie batch at the old epoch is fenced.
    assert!(matches!(
        log.append_verified(txn_batch(7, 0, 2, 1), 0, 1_000, None),
        Err(LogError::InvalidProducerEpoch(_))
    ));
}
