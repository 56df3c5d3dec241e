//! The log directory: checkpoints, the clean-shutdown marker, meta.properties,
//! partition.metadata, creating and deleting partitions.

mod common;

use common::*;
use fjord_log::checkpoint::{OffsetCheckpoint, TopicPartition};
use fjord_log::log_dir::{read_partition_metadata, CLEAN_SHUTDOWN_FILE, PARTITION_METADATA};
use fjord_log::{LogConfig, LogDir, MetaProperties};
use uuid::Uuid;

fn cfg(_: &TopicPartition) -> LogConfig {
    small_config()
}

#[test]
fn a_clean_shutdown_skips_recovery_and_restores_every_offset() {
    let dir = tempfile::tempdir().unwrap();
    let a = TopicPartition::new("orders", 0);
    let b = TopicPartition::new("orders-eu", 3);
    let id = Uuid::from_u128(42);
    {
        let (ld, reports) = LogDir::open(dir.path(), cfg).unwrap();
        assert!(reports.is_empty() && !ld.had_clean_shutdown());
        let la = ld.get_or_create(&a, small_config(), Some(id)).unwrap();
        let lb = ld.get_or_create(&b, small_config(), None).unwrap();
        for i in 0..20 {
            la.append_as_leader(batch(&format!("a{i}"), 2, i), 1, 0)
                .unwrap();
        }
        lb.append_as_leader(batch("b", 3, 0), 1, 0).unwrap();
        la.set_high_watermark(30);
        lb.set_high_watermark(3);
        la.delete_records(4).unwrap();
        ld.shutdown(77).unwrap();
    }
    assert_eq!(
        std::fs::read_to_string(dir.path().join(CLEAN_SHUTDOWN_FILE)).unwrap(),
        "{\"version\":0,\"brokerEpoch\":77}"
    );
    let hw = OffsetCheckpoint::new(dir.path().join("replication-offset-checkpoint"))
        .read()
        .unwrap();
    assert_eq!(hw.get(&a), Some(&30));
    assert_eq!(
        read_partition_metadata(&dir.path().join("orders-0")).unwrap(),
        Some(id)
    );
    assert!(dir
        .path()
        .join("orders-0")
        .join(PARTITION_METADATA)
        .exists());

    let (ld, reports) = LogDir::open(dir.path(), cfg).unwrap();
    assert!(ld.had_clean_shutdown());
    assert!(
        !dir.path().join(CLEAN_SHUTDOWN_FILE).exists(),
        "the marker is consumed at start"
    );
    assert!(reports.iter().all(|(_, r)| r.recovered_segments == 0));
    let la = ld.get(&a).unwrap();
    assert_eq!(
        (
            la.log_start_offset(),
            la.log_end_offset(),
            la.high_watermark()
        ),
        (4, 40, 30)
    );
    assert_eq!(ld.get(&b).unwrap().log_end_offset(), 3);
    assert_eq!(ld.partitions(), vec![a, b]);
}

#[test]
fn without_the_marker_every_unflushed_segment_is_recovered() {
    let dir = tempfile::tempdir().unwrap();
    let tp = TopicPartition::new("t", 0);
    {
        let (ld, _) = LogDir::open(dir.path(), cfg).unwrap();
        let log = ld.get_or_create(&tp, small_config(), None).unwrap();
        for i in 0..10 {
            log.append_as_leader(batch(&format!("v{i}"), 2, i), 0, 0)
                .unwrap();
        }
        ld.checkpoint().unwrap();
        // No shutdown: as if the process died here.
    }
    let (ld, reports) = LogDir::open(dir.path(), cfg).unwrap();
    assert!(!ld.had_clean_shutdown());
    assert!(reports[0].1.recovered_segments >= 1);
    assert_eq!(read_all(&ld.get(&tp).unwrap(), 0).len(), 20);
}

#[test]
fn the_frequent_high_watermark_checkpoint_is_a_hint_a_torn_one_is_ignored() {
    let dir = tempfile::tempdir().unwrap();
    let tp = TopicPartition::new("t", 0);
    let hw_file = dir.path().join("replication-offset-checkpoint");
    {
        let (ld, _) = LogDir::open(dir.path(), cfg).unwrap();
        let log = ld.get_or_create(&tp, small_config(), None).unwrap();
        for i in 0..5 {
            log.append_as_leader(batch(&format!("v{i}"), 2, i), 0, 0)
                .unwrap();
        }
        log.set_high_watermark(6);
        ld.checkpoint_high_watermarks().unwrap();
        assert_eq!(
            OffsetCheckpoint::new(&hw_file).read().unwrap().get(&tp),
            Some(&6)
        );
        // No shutdown: as if the process died here.
    }
    let (ld, _) = LogDir::open(dir.path(), cfg).unwrap();
    assert_eq!(ld.get(&tp).unwrap().high_watermark(), 6, "read back");
    drop(ld);
    // A crash on a file system that does not order a rename after the file's data can leave
    // a torn file: the directory still opens, every log whole, high watermarks from zero.
    std::fs::write(&hw_file, "0\n3\nt 0").unwrap();
    let (ld, _) = LogDir::open(dir.path(), cfg).unwrap();
    let log = ld.get(&tp).unwrap();
    assert_eq!(log.high_watermark(), 0);
    assert_eq!(read_all(&log, 0).len(), 10);
    // Any other malformed checkpoint still stops the directory.
    drop((log, ld));
    std::fs::write(
        dir.path().join("recovery-point-offset-checkpoint"),
        "0\n1\nbad",
    )
    .unwrap();
    assert!(LogDir::open(dir.path(), cfg).is_err());
}

#[test]
fn an_unchanged_checkpoint_is_not_written_again() {
    use std::os::unix::fs::MetadataExt;
    let dir = tempfile::tempdir().unwrap();
    let tp = TopicPartition::new("t", 0);
    let (ld, _) = LogDir::open(dir.path(), cfg).unwrap();
    let log = ld.get_or_create(&tp, small_config(), None).unwrap();
    log.append_as_leader(batch("a", 2, 0), 0, 0).unwrap();
    log.set_high_watermark(2);
    ld.checkpoint().unwrap();
    // Every write replaces the file through a rename: a new inode.
    let inode = |name: &str| std::fs::metadata(dir.path().join(name)).unwrap().ino();
    let files = [
        "recovery-point-offset-checkpoint",
        "log-start-offset-checkpoint",
        "replication-offset-checkpoint",
    ];
    let before: Vec<u64> = files.iter().map(|f| inode(f)).collect();
    ld.checkpoint().unwrap();
    ld.checkpoint_high_watermarks().unwrap();
    assert_eq!(files.iter().map(|f| inode(f)).collect::<Vec<_>>(), before);
    // A moved high watermark rewrites that checkpoint only: unsynced every few seconds, then
    // again fsynced by the full checkpoint although its content is the same.
    log.append_as_leader(batch("b", 2, 1), 0, 0).unwrap();
    log.set_high_watermark(4);
    ld.checkpoint_high_watermarks().unwrap();
    let hw_unsynced = inode(files[2]);
    assert_ne!(hw_unsynced, before[2]);
    assert_eq!(inode(files[1]), before[1]);
    ld.checkpoint().unwrap();
    assert_ne!(inode(files[2]), hw_unsynced, "made durable");
    assert_eq!(inode(files[1]), before[1], "log start unchanged");
    assert_eq!(
        OffsetCheckpoint::new(dir.path().join(files[2]))
            .read()
            .unwrap()
            .get(&tp),
        Some(&4)
    );
}

/// The unchanged-checkpoint test compares the logs themselves, not their names: a partition
/// deleted and another created in its place in the order, with the same offsets, is a change
/// (the file must name the new one), and so is one created or deleted anywhere.
#[test]
fn a_checkpoint_follows_partitions_replaced_with_the_same_offsets() {
    let dir = tempfile::tempdir().unwrap();
    let (ld, _) = LogDir::open(dir.path(), cfg).unwrap();
    let (a, b, z) = (
        TopicPartition::new("a", 0),
        TopicPartition::new("b", 0),
        TopicPartition::new("z", 0),
    );
    ld.get_or_create(&a, small_config(), None).unwrap();
    ld.get_or_create(&z, small_config(), None).unwrap();
    let hws = || {
        OffsetCheckpoint::new(dir.path().join("replication-offset-checkpoint"))
            .read()
            .unwrap()
    };
    ld.checkpoint_high_watermarks().unwrap();
    assert_eq!(
        hws().keys().cloned().collect::<Vec<_>>(),
        [a.clone(), z.clone()]
    );
    // a-0 goes, b-0 takes its place: same count, same order position, same offsets (0).
    ld.delete(&a).unwrap();
    ld.get_or_create(&b, small_config(), None).unwrap();
    ld.checkpoint_high_watermarks().unwrap();
    assert_eq!(
        hws().keys().cloned().collect::<Vec<_>>(),
        [b.clone(), z.clone()]
    );
    // a-0 again (a new log under the old name) is a change too.
    ld.get_or_create(&a, small_config(), None).unwrap();
    ld.checkpoint_high_watermarks().unwrap();
    assert_eq!(hws().len(), 3);
    ld.delete(&z).unwrap();
    ld.checkpoint().unwrap();
    assert_eq!(hws().keys().cloned().collect::<Vec<_>>(), [a, b]);
}

/// The files this process holds open under `dir`.
fn open_files_under(dir: &std::path::Path) -> usize {
    std::fs::read_dir("/proc/self/fd")
        .unwrap()
        .filter_map(|e| std::fs::read_link(e.ok()?.path()).ok())
        .filter(|target| target.starts_with(dir))
        .count()
}

#[test]
fn a_segment_holds_one_open_file_however_it_was_used() {
    // Written, read back (small reads too), flushed and reopened: each segment keeps only its
    // log file open, never its indexes or extra read handles (before, three to seven), so an
    // idle single-segment partition costs its broker one open file.
    let dir = tempfile::tempdir().unwrap();
    let (ld, _) = LogDir::open(dir.path(), cfg).unwrap();
    let parts: Vec<TopicPartition> = (0..20).map(|p| TopicPartition::new("fd", p)).collect();
    for tp in &parts {
        let log = ld.get_or_create(tp, small_config(), None).unwrap();
        for i in 0..30 {
            log.append_as_leader(batch(&format!("v{i}"), 2, i), 0, 0)
                .unwrap();
        }
        assert_eq!(read_all(&log, 0).len(), 60);
        log.flush().unwrap();
    }
    ld.checkpoint().unwrap();
    let segments: usize = parts
        .iter()
        .map(|tp| {
            std::fs::read_dir(dir.path().join(format!("fd-{}", tp.partition)))
                .unwrap()
                .filter(|e| {
                    e.as_ref()
                        .unwrap()
                        .path()
                        .extension()
                        .is_some_and(|x| x == "log")
                })
                .count()
        })
        .sum();
    assert!(segments > parts.len(), "the small config rolls segments");
    assert!(
        open_files_under(dir.path()) <= segments,
        "{} open files for {segments} segments",
        open_files_under(dir.path())
    );
    drop(ld);
    let (ld, _) = LogDir::open(dir.path(), cfg).unwrap();
    for tp in &parts {
        assert_eq!(read_all(&ld.get(tp).unwrap(), 0).len(), 60);
    }
    assert!(open_files_under(dir.path()) <= segments);
}

#[test]
fn meta_properties_round_trip_in_kafkas_format() {
    let dir = tempfile::tempdir().unwrap();
    assert_eq!(MetaProperties::read(dir.path()).unwrap(), None);
    let m = MetaProperties {
        cluster_id: "MkU3OEVBNTcwNTJENDM2Qk".into(),
        node_id: 3,
        directory_id: Uuid::from_u128(9),
    };
    m.write(dir.path()).unwrap();
    let text = std::fs::read_to_string(dir.path().join("meta.properties")).unwrap();
    assert!(
        text.contains("cluster.id=MkU3OEVBNTcwNTJENDM2Qk\n")
            && text.contains("node.id=3\n")
            && text.contains("version=1\n")
    );
    assert_eq!(MetaProperties::read(dir.path()).unwrap(), Some(m));
    std::fs::write(
        dir.path().join("meta.properties"),
        "version=0\nbroker.id=1\n",
    )
    .unwrap();
    assert!(MetaProperties::read(dir.path()).is_err());
}

#[test]
fn deleting_a_partition_removes_its_directory() {
    let dir = tempfile::tempdir().unwrap();
    let tp = TopicPartition::new("gone", 1);
    let (ld, _) = LogDir::open(dir.path(), cfg).unwrap();
    ld.get_or_create(&tp, small_config(), None)
        .unwrap()
        .append_as_leader(batch("x", 1, 0), 0, 0)
        .unwrap();
    ld.delete(&tp).unwrap();
    assert!(ld.get(&tp).is_none());
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0);
    // A half-finished delete from an earlier run is finished on open.
    std::fs::create_dir_all(dir.path().join("old-0.abc-delete")).unwrap();
    let (ld, _) = LogDir::open(dir.path(), cfg).unwrap();
    assert!(ld.partitions().is_empty());
    assert!(!dir.path().join("old-0.abc-delete").exists());
}

/// A partition moved to another log dir (AlterReplicaLogDirs): appends go on during the first
/// pass and land in the copy; the new log has every record, offset, epoch and the log start;
/// the old one refuses writes; the old dir is gone once deleted; a restart finds only the new.
#[test]
fn a_log_moves_to_another_dir_while_it_is_written() {
    use fjord_log::partition_log::{Relocation, FUTURE_DIR_SUFFIX};
    let (a_dir, b_dir) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    let tp = TopicPartition::new("moving", 0);
    let (a, _) = LogDir::open(a_dir.path(), cfg).unwrap();
    let (b, _) = LogDir::open(b_dir.path(), cfg).unwrap();
    let old = a
        .get_or_create(&tp, small_config(), Some(Uuid::from_u128(5)))
        .unwrap();
    for i in 0..30 {
        old.append_as_leader(batch(&format!("v{i}"), 2, i), if i < 10 { 1 } else { 2 }, 0)
            .unwrap();
    }
    old.set_high_watermark(60);
    old.delete_records(6).unwrap();
    assert!(old.segment_count() > 2, "several segments to copy");
    let progress = Relocation::default();
    let copy = old.begin_relocation(b_dir.path(), &progress).unwrap();
    assert!(b_dir
        .path()
        .join(format!("moving-0{FUTURE_DIR_SUFFIX}"))
        .exists());
    // Written after the first pass: the final pass carries it over.
    for i in 30..35 {
        old.append_as_leader(batch(&format!("v{i}"), 2, i), 3, 0)
            .unwrap();
    }
    old.set_high_watermark(70);
    let new = old
        .finish_relocation(copy, &progress, |dir, cp| {
            assert_eq!(
                (cp.log_start_offset, cp.high_watermark, cp.recovery_point),
                (6, 70, 70)
            );
            let (log, _) = fjord_log::PartitionLog::open(dir, small_config(), cp, true)?;
            Ok(std::sync::Arc::new(log))
        })
        .unwrap();
    assert!(progress.bytes.load(std::sync::atomic::Ordering::Relaxed) > 0);
    assert_eq!(new.log_end_offset(), 70);
    assert_eq!(new.log_start_offset(), 6);
    assert_eq!(new.high_watermark(), 70);
    assert_eq!(new.latest_epoch(), Some(3));
    assert_eq!(new.epoch_entries(), old.epoch_entries());
    assert_eq!(read_all(&new, 6), read_all(&old, 6));
    assert_eq!(read_all(&new, 6).len(), 64);
    // The old log takes no more writes; the new one does.
    let refused = old.append_as_leader(batch("late", 1, 99), 3, 0);
    assert!(
        matches!(refused, Err(fjord_log::LogError::Moved(_))),
        "{refused:?}"
    );
    new.append_as_leader(batch("after", 1, 99), 3, 0).unwrap();
    b.adopt(&tp, new.clone());
    a.delete(&tp).unwrap();
    assert!(!a_dir.path().join("moving-0").exists());
    assert!(!b_dir
        .path()
        .join(format!("moving-0{FUTURE_DIR_SUFFIX}"))
        .exists());
    assert_eq!(
        read_partition_metadata(&b_dir.path().join("moving-0")).unwrap(),
        Some(Uuid::from_u128(5))
    );
    b.shutdown(1).unwrap();
    drop((a, b));
    let (b, _) = LogDir::open(b_dir.path(), cfg).unwrap();
    assert_eq!(b.get(&tp).unwrap().log_end_offset(), 71);
    let (a, _) = LogDir::open(a_dir.path(), cfg).unwrap();
    assert!(a.get(&tp).is_none());
}

/// A move a restart interrupted leaves `<name>-future` behind: it is removed when the dir
/// opens, and the partition stays where it was.
#[test]
fn an_interrupted_move_is_forgotten() {
    use fjord_log::partition_log::Relocation;
    let (a_dir, b_dir) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    let tp = TopicPartition::new("moving", 1);
    {
        let (a, _) = LogDir::open(a_dir.path(), cfg).unwrap();
        let log = a.get_or_create(&tp, small_config(), None).unwrap();
        log.append_as_leader(batch("x", 3, 0), 1, 0).unwrap();
        let copy = log
            .begin_relocation(b_dir.path(), &Relocation::default())
            .unwrap();
        std::mem::forget(copy); // the process died here
        a.shutdown(1).unwrap();
    }
    let (b, _) = LogDir::open(b_dir.path(), cfg).unwrap();
    assert!(b.get(&tp).is_none());
    assert_eq!(
        common::count_files(b_dir.path(), |n| n.starts_with("moving")),
        0
    );
    let (a, _) = LogDir::open(a_dir.path(), cfg).unwrap();
    assert_eq!(a.get(&tp).unwrap().log_end_offset(), 3);
}

/// A move under `replica.alter.log.dirs.io.max.bytes.per.second` (1 MiB/s here) copies at
/// that pace: 3.5 MiB cannot take less than 2.5 s (the last chunk goes without a wait), and
/// the bytes copied are counted in the throttle.
#[test]
fn a_throttled_move_copies_at_the_throttles_pace() {
    use fjord_log::partition_log::Relocation;
    let (a_dir, b_dir) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    let tp = TopicPartition::new("paced", 0);
    let (a, _) = LogDir::open(a_dir.path(), cfg).unwrap();
    let log = a.get_or_create(&tp, cfg(&tp), None).unwrap();
    let big = "x".repeat(131_072);
    for i in 0..28 {
        log.append_as_leader(batch(&big, 1, i), 1, 0).unwrap();
    }
    let size = log.size_in_bytes();
    assert!(size > 3 * 1_048_576 + 524_288, "{size}");
    let quota = std::sync::Arc::new(fjord_quota::ReplicationQuota::default());
    quota.set_bound(1_048_576);
    let progress = Relocation::throttled(quota.clone());
    let started = std::time::Instant::now();
    let copy = log.begin_relocation(b_dir.path(), &progress).unwrap();
    let took = started.elapsed();
    copy.abandon();
    assert!(took >= std::time::Duration::from_millis(2_400), "{took:?}");
    let copied = progress.bytes.load(std::sync::atomic::Ordering::Relaxed);
    assert!(copied >= size as i64, "{copied} of {size}");
    assert!(
        quota.rate(fjord_util::monotonic_ms()) > 0.0,
        "counted in the throttle"
    );
}

/// A copy of the directory tree at `from` in `to`.
fn copy_tree(from: &std::path::Path, to: &std::path::Path) {
    std::fs::create_dir_all(to).unwrap();
    for e in std::fs::read_dir(from).unwrap() {
        let e = e.unwrap();
        let target = to.join(e.file_name());
        if e.path().is_dir() {
            copy_tree(&e.path(), &target);
        } else {
            std::fs::copy(e.path(), target).unwrap();
        }
    }
}

#[test]
fn logs_opened_by_several_threads_are_those_one_thread_opens() {
    // After a crash (no clean shutdown), 40 partitions, one with a torn tail: recovering them
    // on 4 threads (num.recovery.threads.per.data.dir) gives the same logs and reports as one.
    let crashed = tempfile::tempdir().unwrap();
    {
        let (ld, _) = LogDir::open(crashed.path(), cfg).unwrap();
        for p in 0..40 {
            let log = ld
                .get_or_create(&TopicPartition::new("t", p), small_config(), None)
                .unwrap();
            for i in 0..(p % 7 + 1) {
                log.append_as_leader(batch(&format!("p{p}-{i}"), 2, i64::from(i)), 1, 0)
                    .unwrap();
            }
        }
    }
    let torn = crashed.path().join("t-13").join("00000000000000000000.log");
    let len = std::fs::metadata(&torn).unwrap().len();
    std::fs::OpenOptions::new()
        .write(true)
        .open(&torn)
        .unwrap()
        .set_len(len - 3)
        .unwrap();
    let copies = [1usize, 4].map(|threads| {
        let dir = tempfile::tempdir().unwrap();
        copy_tree(crashed.path(), dir.path());
        let (ld, mut reports) = LogDir::open_with(dir.path(), cfg, threads).unwrap();
        reports.sort_by(|a, b| a.0.cmp(&b.0));
        let contents: Vec<_> = (0..40)
            .map(|p| {
                let log = ld.get(&TopicPartition::new("t", p)).unwrap();
                (
                    log.log_end_offset(),
                    log.recovery_point(),
                    read_all(&log, 0),
                )
            })
            .collect();
        let reports: Vec<_> = reports
            .iter()
            .map(|(tp, r)| (tp.clone(), r.recovered_segments, r.truncated_bytes))
            .collect();
        (dir, reports, contents)
    });
    assert_eq!(copies[0].1.len(), 40);
    assert_eq!(copies[0].1, copies[1].1, "the same recovery reports");
    assert_eq!(copies[0].2, copies[1].2, "the same logs");
    let torn_end = copies[1].2[13].0;
    assert_eq!(torn_end, 2 * (13 % 7), "the torn last batch of t-13 is cut");
}
