//! Compaction: the latest record of every key survives with its offset; tombstones live until
//! their delete horizon; recent and active data is left alone; the dirty ratio gates work;
//! producer state survives; a crash at any point of a clean loses nothing.

mod common;

use bytes::Bytes;
use common::*;
use fjord_log::config::CleanupPolicy;
use fjord_log::partition_log::load::Checkpointed;
use fjord_log::{LogConfig, LogError, PartitionLog};
use fjord_protocol::records::{Compression, RecordBatch, RecordBatchBuilder, RecordBatches};
use std::collections::BTreeMap;

fn compacted() -> LogConfig {
    LogConfig {
        cleanup_policy: CleanupPolicy {
            delete: false,
            compact: true,
        },
        segment_bytes: 700,
        index_interval_bytes: 64,
        delete_retention_ms: 1_000,
        file_delete_delay_ms: 0,
        ..LogConfig::default()
    }
}

/// A batch of (key, value) records; `None` values are tombstones.
fn kv(records: &[(&str, Option<&str>)], ts: i64) -> Bytes {
    let mut b = RecordBatchBuilder::new(Compression::Lz4);
    for (k, v) in records {
        b.append(ts, Some(k.as_bytes()), v.map(str::as_bytes), &[]);
    }
    b.build().unwrap()
}

/// (offset, key, value) of every record from `from`.
fn entries(log: &PartitionLog) -> Vec<(i64, String, Option<String>)> {
    let mut out = Vec::new();
    let mut next = log.log_start_offset();
    while next < log.log_end_offset() {
        let r = log.read(next, 1 << 20, None, true).unwrap();
        if r.records.is_empty() {
            break;
        }
        for b in RecordBatches::new(r.records) {
            let b: RecordBatch = b.unwrap();
            b.validate().unwrap();
            next = b.next_offset();
            for rec in b.records().unwrap() {
                let rec = rec.unwrap();
                let key = String::from_utf8(rec.key.unwrap().to_vec()).unwrap();
                let value = rec.value.map(|v| String::from_utf8(v.to_vec()).unwrap());
                out.push((b.base_offset() + i64::from(rec.offset_delta), key, value));
            }
        }
    }
    out
}

fn latest(entries: &[(i64, String, Option<String>)]) -> BTreeMap<String, (i64, Option<String>)> {
    entries
        .iter()
        .map(|(o, k, v)| (k.clone(), (*o, v.clone())))
        .collect()
}

fn fill(log: &PartitionLog, rounds: usize) {
    for i in 0..rounds {
        let v = format!("v{i}");
        log.append_as_leader(
            kv(
                &[
                    ("a", Some(&v)),
                    ("b", Some(&v)),
                    (&format!("u{i}"), Some(&v)),
                ],
                1_000,
            ),
            0,
            1_000,
        )
        .unwrap();
    }
    log.roll().unwrap();
    log.set_high_watermark(log.log_end_offset());
}

#[test]
fn only_the_latest_record_of_each_key_survives_with_its_offset() {
    let dir = tempfile::tempdir().unwrap();
    let log = open(dir.path(), compacted(), true);
    fill(&log, 30);
    let before = entries(&log);
    let before_bases: Vec<i64> = {
        let r = log.read(0, 1 << 30, None, true).unwrap();
        RecordBatches::new(r.records)
            .map(|b| b.unwrap().base_offset())
            .collect()
    };
    let stats = log.clean(2_000, true).unwrap().expect("something to clean");
    assert!(stats.records_removed >= 56, "{stats:?}");
    assert!(stats.bytes_after < stats.bytes_before);
    let after = entries(&log);
    assert_eq!(
        latest(&after),
        latest(&before),
        "the latest value of every key, at its offset"
    );
    assert!(after.windows(2).all(|w| w[0].0 < w[1].0), "offset order");
    let keys_a = after.iter().filter(|(_, k, _)| k == "a").count();
    assert_eq!(keys_a, 1);
    let r = log
        .read(log.log_start_offset(), 1 << 30, None, true)
        .unwrap();
    for b in RecordBatches::new(r.records) {
        assert!(
            before_bases.contains(&b.unwrap().base_offset()),
            "batch boundaries are kept"
        );
    }
    assert_eq!(log.first_dirty_offset(), log.log_end_offset());
    assert!(
        log.clean(2_000, false).unwrap().is_none(),
        "nothing dirty is left"
    );
    // And it all survives a reopen.
    log.close().unwrap();
    let cp = Checkpointed {
        recovery_point: log.recovery_point(),
        high_watermark: log.high_watermark(),
        ..Checkpointed::default()
    };
    let (again, _) = PartitionLog::open(dir.path(), compacted(), cp, true).unwrap();
    assert_eq!(entries(&again), after);
}

#[test]
fn tombstones_stay_until_their_delete_horizon() {
    let dir = tempfile::tempdir().unwrap();
    let log = open(dir.path(), compacted(), true);
    log.append_as_leader(kv(&[("x", Some("1")), ("y", Some("1"))], 10), 0, 10)
        .unwrap();
    log.append_as_leader(kv(&[("x", None)], 20), 0, 20).unwrap();
    log.roll().unwrap();
    log.append_as_leader(kv(&[("z", Some("active"))], 30), 0, 30)
        .unwrap();
    log.set_high_watermark(log.log_end_offset());
    log.clean(5_000, true).unwrap();
    let first = entries(&log);
    assert!(
        first.contains(&(2, "x".into(), None)),
        "the tombstone survives the first clean: {first:?}"
    );
    assert!(!first.iter().any(|(_, k, v)| k == "x" && v.is_some()));
    let r = log.read(2, 1 << 20, None, true).unwrap();
    let b = RecordBatch::split_first(&mut r.records.clone())
        .unwrap()
        .unwrap();
    assert!(b.has_delete_horizon());
    assert_eq!(
        b.base_timestamp(),
        6_000,
        "horizon = clean time + delete.retention.ms"
    );
    log.clean(5_500, true).unwrap();
    assert!(
        entries(&log).iter().any(|(_, k, _)| k == "x"),
        "before the horizon"
    );
    log.clean(6_001, true).unwrap();
    let done = entries(&log);
    assert!(
        !done.iter().any(|(_, k, _)| k == "x"),
        "after the horizon: {done:?}"
    );
    assert!(done.contains(&(1, "y".into(), Some("1".into()))));
    assert!(
        done.contains(&(3, "z".into(), Some("active".into()))),
        "the active segment is untouched"
    );
}

#[test]
fn recent_segments_and_low_dirty_ratios_are_left_alone() {
    let dir = tempfile::tempdir().unwrap();
    let log = open(
        dir.path(),
        LogConfig {
            min_compaction_lag_ms: 10_000,
            ..compacted()
        },
        true,
    );
    fill(&log, 20);
    assert!(
        log.clean(5_000, true).unwrap().is_none(),
        "all records are younger than the lag"
    );
    assert!(log.clean(20_000, true).unwrap().is_some());
    let dir = tempfile::tempdir().unwrap();
    let log = open(
        dir.path(),
        LogConfig {
            min_cleanable_dirty_ratio: 0.9,
            ..compacted()
        },
        true,
    );
    fill(&log, 20);
    log.clean(2_000, true).unwrap();
    fill(&log, 2);
    assert!(log.dirty_ratio(2_000) < 0.9);
    assert!(
        log.clean(2_000, false).unwrap().is_none(),
        "below min.cleanable.dirty.ratio"
    );
}

#[test]
fn a_producers_last_batch_survives_even_when_emptied() {
    let dir = tempfile::tempdir().unwrap();
    let log = open(dir.path(), compacted(), true);
    let mut p = RecordBatchBuilder::new(Compression::None).producer(77, 3, 10);
    p.append(1, Some(b"k"), Some(b"old"), &[]);
    log.append_as_leader(p.build().unwrap(), 0, 0).unwrap();
    log.append_as_leader(kv(&[("k", Some("new"))], 2), 0, 0)
        .unwrap();
    log.roll().unwrap();
    log.set_high_watermark(log.log_end_offset());
    log.clean(100, true).unwrap();
    let r = log.read(0, 1 << 20, None, true).unwrap();
    let batches: Vec<RecordBatch> = RecordBatches::new(r.records).map(|b| b.unwrap()).collect();
    let empty = &batches[0];
    assert_eq!(
        (
            empty.producer_id(),
            empty.producer_epoch(),
            empty.base_sequence()
        ),
        (77, 3, 10)
    );
    assert_eq!(
        (
            empty.record_count(),
            empty.base_offset(),
            empty.last_offset()
        ),
        (0, 0, 0)
    );
    assert_eq!(entries(&log), vec![(1, "k".into(), Some("new".into()))]);
}

#[test]
fn compacted_topics_refuse_records_without_a_key() {
    let dir = tempfile::tempdir().unwrap();
    let log = open(dir.path(), compacted(), true);
    let mut b = RecordBatchBuilder::new(Compression::None);
    b.append(1, None, Some(b"v"), &[]);
    let err = log.append_as_leader(b.build().unwrap(), 0, 0).unwrap_err();
    assert!(matches!(err, LogError::RecordErrors { .. }), "{err:?}");
    assert_eq!(err.error_code(), fjord_protocol::ErrorCode::InvalidRecord);
    assert_eq!(err.record_errors().len(), 1, "the record is named");
}

#[test]
fn a_crash_at_any_point_of_a_clean_loses_nothing() {
    // Reference: the same data, cleaned without interruption.
    let done_dir = tempfile::tempdir().unwrap();
    let done = open(done_dir.path(), compacted(), true);
    fill(&done, 30);
    let original = entries(&done);
    let crashed_dir = tempfile::tempdir().unwrap();
    for e in std::fs::read_dir(done_dir.path()).unwrap() {
        let e = e.unwrap();
        std::fs::copy(e.path(), crashed_dir.path().join(e.file_name())).unwrap();
    }
    done.clean(2_000, true).unwrap();
    let cleaned = entries(&done);
    let first_seg = crashed_dir.path().join("00000000000000000000.log");

    // Crash before the swap: a half-written .cleaned file is dropped, the original stays.
    std::fs::write(
        crashed_dir.path().join("00000000000000000000.log.cleaned"),
        b"half",
    )
    .unwrap();
    let (log, _) = PartitionLog::open(
        crashed_dir.path(),
        compacted(),
        Checkpointed::default(),
        false,
    )
    .unwrap();
    assert_eq!(entries(&log), original);
    drop(log);
    assert!(!crashed_dir
        .path()
        .join("00000000000000000000.log.cleaned")
        .exists());

    // Crash after the swap was decided: opening completes it.
    let cleaned_first = std::fs::read(done_dir.path().join("00000000000000000000.log")).unwrap();
    std::fs::write(
        crashed_dir.path().join("00000000000000000000.log.swap"),
        &cleaned_first,
    )
    .unwrap();
    let (log, _) = PartitionLog::open(
        crashed_dir.path(),
        compacted(),
        Checkpointed::default(),
        false,
    )
    .unwrap();
    assert_eq!(std::fs::read(&first_seg).unwrap(), cleaned_first);
    let got = entries(&log);
    assert_eq!(
        latest(&got),
        latest(&original),
        "every key keeps its latest value"
    );
    assert!(got.len() >= cleaned.len());
}

#[test]
fn the_background_cleaner_compacts_a_log_dir() {
    use fjord_log::checkpoint::TopicPartition;
    use fjord_log::cleaner::LogCleaner;
    use std::sync::Arc;
    use std::time::{Duration, Instant};
    let dir = tempfile::tempdir().unwrap();
    let (ld, _) = fjord_log::LogDir::open(dir.path(), |_| compacted()).unwrap();
    let ld = Arc::new(ld);
    let tp = TopicPartition::new("compacted", 0);
    let log = ld.get_or_create(&tp, compacted(), None).unwrap();
    fill(&log, 30);
    let size_before = log.size_in_bytes();
    let cleaner = LogCleaner::start(ld.clone(), Duration::from_millis(5), || 10_000).unwrap();
    let deadline = Instant::now() + Duration::from_secs(30);
    while cleaner.segments_cleaned() == 0 || cleaner.passes() < 2 {
        assert!(
            Instant::now() < deadline,
            "the cleaner did not run within 30 s"
        );
        std::thread::yield_now();
    }
    cleaner.shutdown();
    assert!(log.size_in_bytes() < size_before);
    assert_eq!(entries(&log).iter().filter(|(_, k, _)| k == "a").count(), 1);
}

#[test]
fn compact_and_delete_together_compacts_and_expires_old_segments() {
    let dir = tempfile::tempdir().unwrap();
    let cfg = LogConfig {
        cleanup_policy: CleanupPolicy {
            delete: true,
            compact: true,
        },
        retention_ms: 5_000,
        ..compacted()
    };
    let log = open(dir.path(), cfg.clone(), true);
    for i in 0..20 {
        let v = format!("old{i}");
        log.append_as_leader(
            kv(&[("a", Some(&v)), (&format!("o{i}"), Some(&v))], 1_000),
            0,
            1_000,
        )
        .unwrap();
    }
    log.roll().unwrap();
    for i in 0..20 {
        let v = format!("new{i}");
        log.append_as_leader(
            kv(&[("a", Some(&v)), (&format!("n{i}"), Some(&v))], 9_000),
            0,
            9_000,
        )
        .unwrap();
    }
    log.roll().unwrap();
    log.set_high_watermark(log.log_end_offset());
    assert!(log.clean(10_000, true).unwrap().is_some());
    assert_eq!(entries(&log).iter().filter(|(_, k, _)| k == "a").count(), 1);
    let deleted = log.apply_retention(10_000).unwrap();
    assert!(
        deleted > 0,
        "segments whose records are older than retention.ms go"
    );
    let left = entries(&log);
    assert!(left.iter().all(|(_, k, _)| !k.starts_with('o')), "{left:?}");
    assert!(left
        .iter()
        .any(|(_, k, v)| k == "a" && v.as_deref() == Some("new19")));
    assert_eq!(
        left.iter().filter(|(_, k, _)| k.starts_with('n')).count(),
        20
    );
}
