//! Fault injection: damaged files on disk, then reopening must give a valid log holding
//! exactly the valid prefix (truncated tails, garbage after the last batch, a corrupt CRC in
//! the unflushed tail, lost or corrupt indexes, half-written checkpoint temp files).

mod common;

use common::*;
use fjord_log::partition_log::load::Checkpointed;
use fjord_log::{LogConfig, PartitionLog};
use std::fs::OpenOptions;
use std::io::Write;
use std::path::{Path, PathBuf};

/// Writes `n` batches of 2 records each, closes the log, and returns the values written.
fn fill(dir: &Path, n: usize, config: LogConfig) -> Vec<(i64, String)> {
    let log = open(dir, config, true);
    for i in 0..n {
        log.append_as_leader(batch(&format!("v{i}"), 2, i as i64), (i / 4) as i32, 0)
            .unwrap();
    }
    log.close().unwrap();
    read_all(&log, 0)
}

fn last_log_file(dir: &Path) -> PathBuf {
    let mut logs: Vec<PathBuf> = dir
        .read_dir()
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "log"))
        .collect();
    logs.sort();
    logs.pop().unwrap()
}

/// Reopens as after a crash (no clean shutdown, nothing checkpointed).
fn reopen_unclean(
    dir: &Path,
    config: LogConfig,
) -> (PartitionLog, fjord_log::partition_log::LoadReport) {
    PartitionLog::open(dir, config, Checkpointed::default(), false).unwrap()
}

#[test]
fn a_truncated_tail_is_cut_back_to_the_last_whole_batch() {
    for cut in [1u64, 7, 30, 60] {
        let dir = tempfile::tempdir().unwrap();
        let written = fill(dir.path(), 10, LogConfig::default());
        let path = last_log_file(dir.path());
        let len = std::fs::metadata(&path).unwrap().len();
        OpenOptions::new()
            .write(true)
            .open(&path)
            .unwrap()
            .set_len(len - cut)
            .unwrap();
        let (log, report) = reopen_unclean(dir.path(), LogConfig::default());
        assert!(report.truncated_bytes > 0, "cut {cut}");
        let got = read_all(&log, 0);
        assert_eq!(
            got,
            written[..18],
            "only the torn last batch is lost (cut {cut})"
        );
        assert_eq!(log.log_end_offset(), 18);
        log.append_as_leader(batch("again", 2, 0), 9, 0).unwrap();
        assert_eq!(
            read_all(&log, 18),
            vec![(18, "again-0".to_string()), (19, "again-1".to_string())]
        );
    }
}

#[test]
fn garbage_after_the_last_batch_is_removed() {
    let dir = tempfile::tempdir().unwrap();
    let written = fill(dir.path(), 6, LogConfig::default());
    let path = last_log_file(dir.path());
    let mut f = OpenOptions::new().append(true).open(&path).unwrap();
    f.write_all(&[0xde, 0xad, 0xbe, 0xef].repeat(40)).unwrap();
    let (log, report) = reopen_unclean(dir.path(), LogConfig::default());
    assert_eq!(report.truncated_bytes, 160);
    assert_eq!(read_all(&log, 0), written);
}

#[test]
fn a_corrupt_crc_in_the_tail_cuts_the_log_there_and_drops_later_segments() {
    let dir = tempfile::tempdir().unwrap();
    let written = fill(dir.path(), 30, small_config());
    let mut logs: Vec<PathBuf> = dir
        .path()
        .read_dir()
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "log"))
        .collect();
    logs.sort();
    assert!(logs.len() >= 3);
    // Flip a byte inside the second batch of the second-to-last segment.
    let victim = &logs[logs.len() - 2];
    let mut bytes = std::fs::read(victim).unwrap();
    let first_len = 12 + i32::from_be_bytes(bytes[8..12].try_into().unwrap()) as usize;
    bytes[first_len + 70] ^= 0x40;
    std::fs::write(victim, &bytes).unwrap();
    let base: i64 = victim
        .file_stem()
        .unwrap()
        .to_string_lossy()
        .parse()
        .unwrap();
    let (log, report) = reopen_unclean(dir.path(), small_config());
    assert_eq!(report.deleted_segments, 1, "the segment after the cut goes");
    assert!(report.reason.as_deref().unwrap_or("").contains("CRC"));
    let got = read_all(&log, 0);
    assert_eq!(
        got.len() as i64,
        base + 2,
        "everything before the corrupt batch survives"
    );
    assert_eq!(got, written[..got.len()]);
    assert_eq!(log.log_end_offset(), base + 2);
}

#[test]
fn missing_or_corrupt_indexes_are_rebuilt_even_after_a_clean_shutdown() {
    let dir = tempfile::tempdir().unwrap();
    let written = fill(dir.path(), 30, small_config());
    let mut removed = 0;
    let mut corrupted = 0;
    for e in dir.path().read_dir().unwrap() {
        let p = e.unwrap().path();
        match p.extension().and_then(|x| x.to_str()) {
            Some("index") if removed == 0 => {
                std::fs::remove_file(&p).unwrap();
                removed += 1;
            }
            Some("timeindex") if corrupted == 0 => {
                std::fs::write(&p, [7u8; 13]).unwrap();
                corrupted += 1;
            }
            Some("index") if corrupted == 1 => {
                std::fs::write(&p, [0xffu8; 16]).unwrap();
                corrupted += 1;
            }
            _ => {}
        }
    }
    assert_eq!((removed, corrupted), (1, 2));
    let (log, report) = PartitionLog::open(
        dir.path(),
        small_config(),
        Checkpointed {
            recovery_point: 60,
            log_start_offset: 0,
            high_watermark: 0,
            first_dirty_offset: 0,
        },
        true,
    )
    .unwrap();
    assert!(report.recovered_segments >= 2 && report.recovered_segments <= 3);
    assert_eq!(report.truncated_bytes, 0);
    assert_eq!(read_all(&log, 0), written);
    for o in 0..60 {
        let r = log.read(o, 1 << 20, None, true).unwrap();
        assert!(values(&r.records)[0].0 <= o);
    }
}

#[test]
fn a_half_written_checkpoint_temp_file_is_ignored() {
    let dir = tempfile::tempdir().unwrap();
    fill(dir.path(), 8, LogConfig::default());
    std::fs::write(dir.path().join("leader-epoch-checkpoint.tmp"), "0\n9\n1 ").unwrap();
    let (log, _) = reopen_unclean(dir.path(), LogConfig::default());
    assert_eq!(log.latest_epoch(), Some(1));
    assert_eq!(log.end_offset_for_epoch(0), (0, 8));
    assert!(!dir.path().join("leader-epoch-checkpoint.tmp").exists());
}

#[test]
fn recovery_rebuilds_the_epoch_cache_tail() {
    let dir = tempfile::tempdir().unwrap();
    fill(dir.path(), 12, LogConfig::default());
    std::fs::remove_file(dir.path().join("leader-epoch-checkpoint")).unwrap();
    let (log, _) = reopen_unclean(dir.path(), LogConfig::default());
    assert_eq!(
        log.epoch_entries()
            .iter()
            .map(|e| (e.epoch, e.start_offset))
            .collect::<Vec<_>>(),
        vec![(0, 0), (1, 8), (2, 16)]
    );
}

#[test]
fn leftover_deleted_files_are_removed_on_open() {
    let dir = tempfile::tempdir().unwrap();
    let written = fill(dir.path(), 4, LogConfig::default());
    std::fs::write(dir.path().join("00000000000000000099.log.deleted"), b"old").unwrap();
    std::fs::write(dir.path().join("00000000000000000099.index"), b"orphan").unwrap();
    let (log, _) = reopen_unclean(dir.path(), LogConfig::default());
    assert_eq!(read_all(&log, 0), written);
    assert!(!dir.path().join("00000000000000000099.log.deleted").exists());
    assert!(!dir.path().join("00000000000000000099.index").exists());
}

#[test]
fn what_recovery_reads_back_stays_above_the_recovery_point_until_a_flush() {
    // As Kafka's LogLoader: recovery does not fsync, so it must not claim a flush. A log cut
    // by a crash is recovered, crashes again before any flush, and is recovered again from
    // the same recovery point; only a flush moves it.
    let dir = tempfile::tempdir().unwrap();
    let written = fill(dir.path(), 10, LogConfig::default());
    let path = last_log_file(dir.path());
    let len = std::fs::metadata(&path).unwrap().len();
    OpenOptions::new()
        .write(true)
        .open(&path)
        .unwrap()
        .set_len(len - 5)
        .unwrap();
    let checkpointed = Checkpointed {
        recovery_point: 4,
        ..Checkpointed::default()
    };
    let (log, report) =
        PartitionLog::open(dir.path(), LogConfig::default(), checkpointed, false).unwrap();
    assert!(report.truncated_bytes > 0);
    let end = log.log_end_offset();
    assert_eq!(end, 18, "the torn last batch is cut");
    assert_eq!(log.recovery_point(), 4, "recovery claims no flush");
    assert_eq!(read_all(&log, 0), written[..18]);
    drop(log);
    // A second crash before any flush: the same recovery point, the same valid prefix.
    let (log, report) =
        PartitionLog::open(dir.path(), LogConfig::default(), checkpointed, false).unwrap();
    assert_eq!(report.truncated_bytes, 0, "nothing torn is left");
    assert_eq!(log.recovery_point(), 4);
    assert_eq!(read_all(&log, 0), written[..18]);
    log.flush().unwrap();
    assert_eq!(log.recovery_point(), end, "a flush moves it to the log end");
}
