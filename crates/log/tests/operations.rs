//! Every partition-log operation: appends (leader and follower), reads, lookups, rolls,
//! truncation, retention, DeleteRecords, epochs, LogAppendTime, reopening.

mod common;

use bytes::Bytes;
use common::*;
use fjord_log::config::TimestampType;
use fjord_log::epoch::UNDEFINED_EPOCH;
use fjord_log::{LogConfig, LogError, OffsetLookup};
use fjord_protocol::records::{RecordBatch, TimestampType as BatchTs};
use fjord_protocol::Records;

#[test]
fn leader_appends_assign_offsets_and_stamp_the_epoch() {
    let dir = tempfile::tempdir().unwrap();
    let log = open(dir.path(), LogConfig::default(), true);
    let a = log.append_as_leader(batch("a", 3, 100), 5, 1).unwrap();
    assert_eq!((a.first_offset, a.last_offset, a.batches), (0, 2, 1));
    let b = log.append_as_leader(batch("b", 2, 200), 5, 2).unwrap();
    assert_eq!((b.first_offset, b.last_offset), (3, 4));
    assert_eq!(log.log_end_offset(), 5);
    let r = log.read(0, 1 << 20, None, true).unwrap();
    let batch = RecordBatch::split_first(&mut r.records.clone())
        .unwrap()
        .unwrap();
    assert_eq!(batch.partition_leader_epoch(), 5);
    batch.validate().unwrap();
    assert_eq!(
        read_all(&log, 0)
            .iter()
            .map(|(o, _)| *o)
            .collect::<Vec<_>>(),
        vec![0, 1, 2, 3, 4]
    );
    assert_eq!(read_all(&log, 3)[0], (3, "b-0".to_string()));
    assert_eq!(log.latest_epoch(), Some(5));
}

#[test]
fn bad_batches_are_rejected_with_kafkas_errors() {
    let dir = tempfile::tempdir().unwrap();
    let cfg = LogConfig {
        max_message_bytes: 200,
        ..LogConfig::default()
    };
    let log = open(dir.path(), cfg, true);
    let big = batch("x", 20, 0);
    let err = log.append_as_leader(big, 0, 0).unwrap_err();
    assert!(matches!(err, LogError::RecordTooLarge { .. }));
    assert_eq!(err.error_code(), fjord_protocol::ErrorCode::MessageTooLarge);
    let mut bad = batch("x", 1, 0).to_vec();
    let n = bad.len();
    bad[n - 1] ^= 0xff;
    let err = log.append_as_leader(Bytes::from(bad), 0, 0).unwrap_err();
    assert_eq!(err.error_code(), fjord_protocol::ErrorCode::CorruptMessage);
    let mut gappy = fjord_protocol::records::RecordBatchBuilder::new(
        fjord_protocol::records::Compression::None,
    );
    gappy.append_at(0, 0, Some(b"k"), Some(b"a"), &[]);
    gappy.append_at(2, 0, Some(b"k"), Some(b"b"), &[]);
    let err = log
        .append_as_leader(gappy.build().unwrap(), 0, 0)
        .unwrap_err();
    assert!(
        matches!(err, LogError::CorruptRecord(_)),
        "offset deltas must be 0..n-1: {err}"
    );
    let mut trailing = batch("x", 1, 0).to_vec();
    trailing.extend_from_slice(&[1, 2, 3]);
    assert!(log.append_as_leader(Bytes::from(trailing), 0, 0).is_err());
    assert!(log.append_as_leader(Bytes::new(), 0, 0).is_err());
    assert_eq!(log.log_end_offset(), 0, "nothing was appended");
}

#[test]
fn reads_return_whole_batches_within_limits() {
    let dir = tempfile::tempdir().unwrap();
    let log = open(dir.path(), LogConfig::default(), true);
    for i in 0..5 {
        log.append_as_leader(batch(&format!("b{i}"), 4, 0), 0, 0)
            .unwrap();
    }
    let one = batch("b0", 4, 0).len();
    let r = log.read(6, one * 2 + 10, None, false).unwrap();
    assert_eq!(r.records.len(), one * 2, "two whole batches fit");
    assert_eq!(
        r.first_batch_offset,
        Some(4),
        "the batch holding offset 6 starts at 4"
    );
    assert!(
        log.read(0, one - 1, None, false)
            .unwrap()
            .records
            .is_empty(),
        "no partial batch"
    );
    assert_eq!(
        log.read(0, one - 1, None, true).unwrap().records.len(),
        one,
        "min_one returns the first batch"
    );
    let bounded = log.read(0, 1 << 20, Some(8), false).unwrap();
    assert_eq!(
        values(&bounded.records).last().unwrap().0,
        7,
        "stops before the batch holding offset 8"
    );
    assert!(
        log.read(20, 100, None, false).unwrap().records.is_empty(),
        "at the log end"
    );
    assert!(matches!(
        log.read(21, 100, None, false),
        Err(LogError::OffsetOutOfRange { .. })
    ));
}

#[test]
fn fetch_reads_are_file_slices_of_exactly_the_bytes_a_memory_read_returns() {
    let dir = tempfile::tempdir().unwrap();
    let log = open(dir.path(), small_config(), true);
    for i in 0..60 {
        log.append_as_leader(batch(&format!("b{i}"), 1 + i % 4, 0), 0, 0)
            .unwrap();
    }
    let end = log.log_end_offset();
    let mut slices = 0;
    for offset in 0..end {
        for max in [0, 1, 90, 200, 700, 5_000, 1 << 20] {
            for min_one in [false, true] {
                for stop in [None, Some(end - 3)] {
                    let memory = log.read(offset, max, stop, min_one).unwrap();
                    let fetched = log.read_records(offset, max, stop, min_one, 256).unwrap();
                    assert_eq!(fetched.first_batch_offset, memory.first_batch_offset);
                    assert_eq!(
                        fetched.records.to_bytes().unwrap(),
                        memory.records,
                        "offset {offset}, max {max}, min_one {min_one}, stop {stop:?}"
                    );
                    match &fetched.records {
                        Records::File(_) => {
                            assert!(memory.records.len() >= 256);
                            slices += 1;
                        }
                        Records::Memory(b) => assert!(b.len() < 256, "large reads are slices"),
                    }
                }
            }
        }
    }
    assert!(
        slices > 100,
        "large reads came back as file slices ({slices})"
    );
}

#[test]
fn segments_roll_and_reads_cross_them() {
    let dir = tempfile::tempdir().unwrap();
    let log = open(dir.path(), small_config(), true);
    for i in 0..40 {
        log.append_as_leader(batch(&format!("r{i}"), 2, i), 0, 0)
            .unwrap();
    }
    assert!(log.segment_count() > 3, "segment.bytes=1024 rolls");
    let bases = log.segment_base_offsets();
    assert_eq!(bases[0], 0);
    for name in bases.iter().map(|b| format!("{b:020}.log")) {
        assert!(dir.path().join(&name).exists(), "{name}");
    }
    let all = read_all(&log, 0);
    assert_eq!(all.len(), 80);
    assert!(all.windows(2).all(|w| w[1].0 == w[0].0 + 1));
    // Every offset, including segment and index-entry boundaries, is found.
    for o in 0..80 {
        let r = log.read(o, 1 << 20, None, true).unwrap();
        let first = values(&r.records)[0].0;
        assert!(first <= o && o - first < 2, "offset {o} read from {first}");
    }
}

#[test]
fn segment_ms_rolls_by_age() {
    let dir = tempfile::tempdir().unwrap();
    let log = open(
        dir.path(),
        LogConfig {
            segment_ms: 1000,
            ..LogConfig::default()
        },
        true,
    );
    log.append_as_leader(batch("a", 1, 10_000), 0, 10_000)
        .unwrap();
    log.append_as_leader(batch("b", 1, 10_500), 0, 10_500)
        .unwrap();
    assert_eq!(log.segment_count(), 1);
    log.append_as_leader(batch("c", 1, 12_000), 0, 12_000)
        .unwrap();
    assert_eq!(log.segment_base_offsets(), vec![0, 2]);
}

#[test]
fn follower_appends_keep_offsets_and_refuse_gaps() {
    let dir = tempfile::tempdir().unwrap();
    let log = open(dir.path(), LogConfig::default(), true);
    log.append_as_follower(follower_batch("a", 0, 3, 1), 0)
        .unwrap();
    log.append_as_follower(follower_batch("b", 3, 2, 4), 0)
        .unwrap();
    assert_eq!(log.log_end_offset(), 5);
    assert!(matches!(
        log.append_as_follower(follower_batch("gap", 7, 1, 4), 0),
        Err(LogError::UnexpectedAppendOffset {
            got: 7,
            expected: 5
        })
    ));
    assert!(matches!(
        log.append_as_follower(follower_batch("dup", 4, 1, 4), 0),
        Err(LogError::UnexpectedAppendOffset { .. })
    ));
    assert_eq!(log.end_offset_for_epoch(1), (1, 3));
    assert_eq!(log.end_offset_for_epoch(4), (4, 5));
    assert_eq!(log.end_offset_for_epoch(9), (UNDEFINED_EPOCH, -1));
}

#[test]
fn a_truncation_at_the_log_end_drops_an_epoch_that_never_got_a_record() {
    // A leader elected at epoch 2 records where the epoch starts and is killed before it
    // appends; the next leader never had epoch 2. Its diverging-epoch answer cuts this
    // replica at its own log end: no record goes, but epoch 2 must, or the replica names
    // epoch 2 as its last fetched epoch in every fetch and never follows again.
    let dir = tempfile::tempdir().unwrap();
    let log = open(dir.path(), small_config(), true);
    log.append_as_follower(follower_batch("a", 0, 3, 1), 0)
        .unwrap();
    log.assign_leader_epoch_start(2).unwrap();
    assert_eq!(log.latest_epoch(), Some(2));
    assert_eq!(
        log.truncate_to(3).unwrap(),
        3,
        "nothing past the log end to cut"
    );
    assert_eq!(log.latest_epoch(), Some(1), "epoch 2 held no record");
    assert_eq!(log.end_offset_for_epoch(1), (1, 3));
    assert_eq!(log.truncate_to(10).unwrap(), 3);
    assert_eq!(log.latest_epoch(), Some(1), "epochs with records stay");
    assert_eq!(read_all(&log, 0).len(), 3);
    drop(log);
    let log = open(dir.path(), small_config(), true);
    assert_eq!(
        log.latest_epoch(),
        Some(1),
        "the cut epoch cache was persisted"
    );
}

#[test]
fn truncation_cuts_at_batch_boundaries_and_keeps_epochs_consistent() {
    let dir = tempfile::tempdir().unwrap();
    let log = open(dir.path(), small_config(), true);
    let mut next = 0;
    for (i, epoch) in [1, 1, 2, 2, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3]
        .iter()
        .enumerate()
    {
        log.append_as_follower(follower_batch(&format!("t{i}"), next, 3, *epoch), 0)
            .unwrap();
        next += 3;
    }
    log.set_high_watermark(next);
    assert!(log.segment_count() > 1);
    assert_eq!(
        log.truncate_to(13).unwrap(),
        12,
        "cut before the batch holding 13"
    );
    assert_eq!(log.log_end_offset(), 12);
    assert_eq!(log.high_watermark(), 12);
    assert_eq!(
        log.latest_epoch(),
        Some(2),
        "epoch 3 began at 12, where the log now ends"
    );
    assert_eq!(log.truncate_to(6).unwrap(), 6);
    assert_eq!(
        log.latest_epoch(),
        Some(1),
        "epoch 2 started at 6 and is gone"
    );
    assert_eq!(read_all(&log, 0).len(), 6);
    log.append_as_follower(follower_batch("new", 6, 2, 5), 0)
        .unwrap();
    assert_eq!(read_all(&log, 0).last().unwrap(), &(7, "new-1".to_string()));
    assert!(dir.path().read_dir().unwrap().all(|e| !e
        .unwrap()
        .file_name()
        .to_string_lossy()
        .ends_with(".deleted")));
    log.truncate_fully_and_start_at(100).unwrap();
    assert_eq!(
        (
            log.log_start_offset(),
            log.log_end_offset(),
            log.segment_count()
        ),
        (100, 100, 1)
    );
    assert_eq!(
        log.epoch_entries(),
        vec![fjord_log::epoch::EpochEntry {
            epoch: 5,
            start_offset: 100
        }],
        "the log still names the epoch of the last record it held"
    );
    log.append_as_follower(follower_batch("z", 100, 1, 6), 0)
        .unwrap();
    assert_eq!(read_all(&log, 100), vec![(100, "z-0".to_string())]);
}

#[test]
fn retention_by_time_size_and_delete_records_stays_below_the_high_watermark() {
    let dir = tempfile::tempdir().unwrap();
    let cfg = LogConfig {
        retention_ms: 10_000,
        file_delete_delay_ms: 0,
        ..small_config()
    };
    let log = open(dir.path(), cfg, true);
    for i in 0..30 {
        log.append_as_leader(batch(&format!("r{i}"), 2, i * 1000), 0, 0)
            .unwrap();
    }
    let segs = log.segment_count();
    assert_eq!(
        log.apply_retention(100_000).unwrap(),
        0,
        "high watermark 0 protects everything"
    );
    log.set_high_watermark(log.log_end_offset());
    let deleted = log.apply_retention(35_000).unwrap();
    assert!(
        deleted > 0 && deleted < segs,
        "old segments go, recent ones stay ({deleted} of {segs})"
    );
    assert_eq!(log.log_start_offset(), log.segment_base_offsets()[0]);
    assert!(matches!(
        log.read(0, 100, None, false),
        Err(LogError::OffsetOutOfRange { .. })
    ));
    let size_cfg = LogConfig {
        retention_ms: -1,
        retention_bytes: 1500,
        file_delete_delay_ms: 0,
        ..small_config()
    };
    log.set_config(size_cfg);
    log.apply_retention(35_000).unwrap();
    assert!(
        log.size_in_bytes() <= 1500 + 1024,
        "within one segment of retention.bytes"
    );
    let start = log.delete_records(55).unwrap();
    assert_eq!(start, 55);
    assert!(matches!(
        log.delete_records(log.high_watermark() + 1),
        Err(LogError::OffsetOutOfRange { .. })
    ));
    log.apply_retention(35_000).unwrap();
    assert!(log.segment_base_offsets()[0] <= 55);
    assert_eq!(read_all(&log, 55)[0].0, 55);
    let leftovers: Vec<_> = dir
        .path()
        .read_dir()
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".deleted"))
        .collect();
    assert!(leftovers.is_empty(), "{leftovers:?}");
}

#[test]
fn deleted_segments_linger_until_the_delay_passes() {
    let dir = tempfile::tempdir().unwrap();
    let cfg = LogConfig {
        retention_bytes: 0,
        retention_ms: -1,
        file_delete_delay_ms: 60_000,
        ..small_config()
    };
    let log = open(dir.path(), cfg, true);
    for i in 0..20 {
        log.append_as_leader(batch(&format!("r{i}"), 2, 0), 0, 0)
            .unwrap();
    }
    log.set_high_watermark(log.log_end_offset());
    let held = log.read(0, 1 << 20, None, true).unwrap();
    assert!(log.apply_retention(1_000).unwrap() > 0);
    let deleted = || common::count_files(dir.path(), |n| n.ends_with(".log.deleted"));
    assert!(deleted() > 0);
    assert!(
        !values(&held.records).is_empty(),
        "data read before deletion stays valid"
    );
    log.delete_expired_files(30_000).unwrap();
    assert!(deleted() > 0);
    log.delete_expired_files(61_001).unwrap();
    assert_eq!(deleted(), 0);
}

#[test]
fn log_append_time_restamps_batches() {
    let dir = tempfile::tempdir().unwrap();
    let log = open(
        dir.path(),
        LogConfig {
            timestamp_type: TimestampType::LogAppendTime,
            ..LogConfig::default()
        },
        true,
    );
    let info = log.append_as_leader(batch("a", 2, 5), 0, 777).unwrap();
    assert_eq!(info.log_append_time, 777);
    let r = log.read(0, 1 << 20, None, true).unwrap();
    let b = RecordBatch::split_first(&mut r.records.clone())
        .unwrap()
        .unwrap();
    b.validate().unwrap();
    assert_eq!(b.timestamp_type(), BatchTs::LogAppendTime);
    assert_eq!(b.max_timestamp(), 777);
}

#[test]
fn list_offsets_lookups() {
    let dir = tempfile::tempdir().unwrap();
    let log = open(dir.path(), small_config(), true);
    for i in 0..20i64 {
        // Timestamps rise except one late batch with the largest timestamp.
        let ts = if i == 7 { 1_000_000 } else { i * 100 };
        log.append_as_leader(batch(&format!("r{i}"), 2, ts), 0, 0)
            .unwrap();
    }
    assert_eq!(
        log.lookup_offset(OffsetLookup::Earliest).unwrap(),
        Some((-1, 0))
    );
    assert_eq!(
        log.lookup_offset(OffsetLookup::Latest).unwrap(),
        Some((-1, 40))
    );
    assert_eq!(
        log.lookup_offset(OffsetLookup::MaxTimestamp).unwrap(),
        Some((1_000_001, 15))
    );
    assert_eq!(
        log.lookup_offset(OffsetLookup::Timestamp(450)).unwrap(),
        Some((500, 10))
    );
    assert_eq!(
        log.lookup_offset(OffsetLookup::Timestamp(1_000_000))
            .unwrap(),
        Some((1_000_000, 14))
    );
    assert_eq!(
        log.lookup_offset(OffsetLookup::Timestamp(2_000_000))
            .unwrap(),
        None
    );
}

#[test]
fn reopening_after_a_clean_close_keeps_everything() {
    let dir = tempfile::tempdir().unwrap();
    {
        let log = open(dir.path(), small_config(), true);
        for i in 0..25 {
            log.append_as_leader(batch(&format!("r{i}"), 2, i), (i / 10) as i32, 0)
                .unwrap();
        }
        log.close().unwrap();
    }
    let (log, report) = fjord_log::PartitionLog::open(
        dir.path(),
        small_config(),
        fjord_log::partition_log::load::Checkpointed {
            recovery_point: 50,
            log_start_offset: 0,
            high_watermark: 50,
            first_dirty_offset: 0,
        },
        true,
    )
    .unwrap();
    assert_eq!(
        report.recovered_segments, 0,
        "a clean shutdown needs no scan"
    );
    assert_eq!(log.log_end_offset(), 50);
    assert_eq!(log.high_watermark(), 50);
    assert_eq!(read_all(&log, 0).len(), 50);
    assert_eq!(log.latest_epoch(), Some(2));
    assert_eq!(log.end_offset_for_epoch(1), (1, 40));
    log.append_as_leader(batch("after", 1, 0), 3, 0).unwrap();
    assert_eq!(read_all(&log, 50), vec![(50, "after-0".to_string())]);
}

#[test]
fn truncating_inside_a_batch_that_holds_the_log_start_empties_the_log_at_its_start() {
    // Found by the model test: DeleteRecords put the log start inside a batch, then a
    // truncation removed that batch whole. The log start never moves back.
    let dir = tempfile::tempdir().unwrap();
    let log = open(dir.path(), LogConfig::default(), true);
    log.append_as_leader(batch("a", 5, 0), 0, 0).unwrap();
    log.append_as_leader(batch("b", 5, 0), 0, 0).unwrap();
    log.set_high_watermark(10);
    log.delete_records(8).unwrap();
    assert_eq!(log.truncate_to(9).unwrap(), 8);
    assert_eq!((log.log_start_offset(), log.log_end_offset()), (8, 8));
    assert!(log.read(8, 100, None, true).unwrap().records.is_empty());
    log.append_as_leader(batch("c", 1, 0), 1, 0).unwrap();
    assert_eq!(read_all(&log, 8), vec![(8, "c-0".to_string())]);
}

#[test]
fn a_failed_segment_write_publishes_nothing_and_does_not_panic() {
    use fjord_log::segment::{PreparedBatch, Segment};
    if !std::path::Path::new("/dev/full").exists() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    // The segment's file is a device on which every write fails (ENOSPC).
    std::os::unix::fs::symlink("/dev/full", dir.path().join("00000000000000000000.log")).unwrap();
    let seg = Segment::create(dir.path(), 0, 10 * 1024 * 1024, 4096).unwrap();
    let b = RecordBatch::new(batch("x", 3, 1_000)).unwrap();
    let err = seg.append(&[PreparedBatch::unchanged(&b)]).unwrap_err();
    assert!(matches!(err, LogError::Io { .. }), "{err}");
    assert_eq!(seg.size(), 0, "nothing published");
}

#[test]
fn tiered_local_retention_deletes_only_what_the_store_holds_and_keeps_the_log_start() {
    let dir = tempfile::tempdir().unwrap();
    let cfg = LogConfig {
        remote_storage: true,
        local_retention_ms: 0,
        file_delete_delay_ms: 0,
        ..small_config()
    };
    let log = open(dir.path(), cfg.clone(), true);
    for i in 0..120 {
        log.append_as_leader(batch(&format!("r{i}"), 2, i * 1000), 0, 0)
            .unwrap();
    }
    log.set_high_watermark(log.log_end_offset());
    let bases = log.segment_base_offsets();
    assert!(bases.len() > 4);
    assert_eq!(
        log.apply_retention(1_000_000).unwrap(),
        0,
        "the store holds nothing yet"
    );
    // The store holds the first two segments whole and part of the third.
    log.set_remote_covered(bases[2] + 1);
    assert_eq!(log.apply_retention(1_000_000).unwrap(), 2);
    assert_eq!(
        log.log_start_offset(),
        0,
        "the log still starts at 0, in the store"
    );
    assert_eq!(log.local_log_start_offset(), bases[2]);
    assert!(matches!(
        log.read(bases[1], 100, None, false),
        Err(LogError::InTieredStorage { local_start, .. }) if local_start == bases[2]
    ));
    assert_eq!(read_all(&log, bases[2])[0].0, bases[2]);
    // Everything in the store: the active segment still stays.
    log.set_remote_covered(log.log_end_offset() - 1);
    log.apply_retention(1_000_000).unwrap();
    assert_eq!(log.segment_count(), 1);
    // A restart keeps the log start below the first local segment, clean or not (the
    // producer state is rebuilt from what is on local disk).
    let log = reopen_with(dir.path(), log, false, cfg.clone());
    assert_eq!(log.log_start_offset(), 0);
    let log = reopen_with(dir.path(), log, true, cfg);
    assert_eq!(log.log_start_offset(), 0);
    assert!(log.local_log_start_offset() > 0);
    assert_eq!(
        log.lookup_offset(OffsetLookup::Earliest)
            .unwrap()
            .map(|(_, o)| o),
        Some(0)
    );
}

#[test]
fn a_follower_starting_after_the_store_takes_its_producer_snapshot() {
    use fjord_protocol::records::{Compression, RecordBatchBuilder};
    let cfg = LogConfig {
        remote_storage: true,
        ..small_config()
    };
    // The leader: two idempotent producers, five batches each.
    let leader_dir = tempfile::tempdir().unwrap();
    let leader = open(leader_dir.path(), cfg.clone(), true);
    for seq in 0..5 {
        for pid in [7, 9] {
            let mut b = RecordBatchBuilder::new(Compression::None).producer(pid, 0, seq);
            b.append(1000, None, Some(b"v"), &[]);
            leader.append_as_leader(b.build().unwrap(), 0, 0).unwrap();
        }
    }
    let end = leader.log_end_offset();
    let snapshot = leader.producer_state().to_snapshot();
    // A new replica starts after the store at `end`, with the store's snapshot.
    let dir = tempfile::tempdir().unwrap();
    let follower = open(dir.path(), cfg.clone(), true);
    follower
        .start_tiered_at(end, 0, &[(0, 0)], Some(&snapshot))
        .unwrap();
    assert_eq!(follower.local_log_start_offset(), end);
    assert_eq!(follower.log_start_offset(), 0);
    // What a snapshot keeps: each producer's epoch and last batch.
    let last = |log: &fjord_log::PartitionLog| {
        let state = log.producer_state();
        let mut out: Vec<(i64, i16, Option<i32>)> = state
            .producers()
            .iter()
            .map(|(id, e)| (*id, e.epoch, e.batches.back().map(|b| b.last_seq)))
            .collect();
        out.sort_unstable();
        out
    };
    assert_eq!(last(&follower), vec![(7, 0, Some(4)), (9, 0, Some(4))]);
    assert_eq!(last(&follower), last(&leader));
    // And keeps it across a restart.
    let follower = reopen_with(dir.path(), follower, true, cfg.clone());
    assert_eq!(follower.producer_state().len(), 2);
    // A snapshot that does not decode is refused.
    let other = tempfile::tempdir().unwrap();
    let log = open(other.path(), cfg, true);
    assert!(log
        .start_tiered_at(end, 0, &[(0, 0)], Some(b"junk"))
        .is_err());
}
