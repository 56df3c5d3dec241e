//! The flush policy (`flush.messages`, `flush.ms`, explicit flush) moves the recovery point;
//! readers running during appends and rolls only ever see whole, valid batches.

mod common;

use common::*;
use fjord_log::LogConfig;
use fjord_protocol::records::RecordBatches;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

#[test]
fn flush_messages_and_flush_ms_advance_the_recovery_point() {
    let dir = tempfile::tempdir().unwrap();
    let log = open(
        dir.path(),
        LogConfig {
            flush_messages: 5,
            ..LogConfig::default()
        },
        true,
    );
    log.append_as_leader(batch("a", 3, 0), 0, 1).unwrap();
    assert_eq!(log.recovery_point(), 0, "3 messages: no flush yet");
    log.append_as_leader(batch("b", 3, 0), 0, 2).unwrap();
    assert_eq!(log.recovery_point(), 6, "6 >= flush.messages");

    let dir = tempfile::tempdir().unwrap();
    let log = open(
        dir.path(),
        LogConfig {
            flush_ms: 1_000,
            ..LogConfig::default()
        },
        true,
    );
    log.append_as_leader(batch("a", 1, 0), 0, 10_000).unwrap();
    log.append_as_leader(batch("b", 1, 0), 0, 10_500).unwrap();
    assert_eq!(log.recovery_point(), 0);
    log.append_as_leader(batch("c", 1, 0), 0, 11_000).unwrap();
    assert_eq!(log.recovery_point(), 3, "flush.ms elapsed");

    let dir = tempfile::tempdir().unwrap();
    let log = open(dir.path(), LogConfig::default(), true);
    log.append_as_leader(batch("a", 4, 0), 0, 0).unwrap();
    assert_eq!(
        log.recovery_point(),
        0,
        "by default flushing is left to the OS and replication"
    );
    log.flush().unwrap();
    assert_eq!(log.recovery_point(), 4);
}

#[test]
fn concurrent_readers_never_see_a_partial_batch() {
    let dir = tempfile::tempdir().unwrap();
    let log = Arc::new(open(
        dir.path(),
        LogConfig {
            segment_bytes: 4096,
            index_interval_bytes: 256,
            ..LogConfig::default()
        },
        true,
    ));
    let done = Arc::new(AtomicBool::new(false));
    let readers: Vec<_> = (0..2)
        .map(|_| {
            let (log, done) = (log.clone(), done.clone());
            std::thread::spawn(move || {
                let mut reads = 0u64;
                while !done.load(Ordering::Acquire) {
                    let end = log.log_end_offset();
                    let from = (reads as i64 * 7) % end.max(1);
                    let r = log.read(from, 8192, None, true).unwrap();
                    let mut expected = None;
                    for b in RecordBatches::new(r.records.clone()) {
                        let b = b.expect("whole batches only");
                        b.validate().expect("valid batches only");
                        if let Some(e) = expected {
                            assert_eq!(b.base_offset(), e, "batches follow each other");
                        }
                        expected = Some(b.next_offset());
                    }
                    for (o, v) in values(&r.records) {
                        assert!(
                            v.starts_with(&format!("w{}-", o / 3)),
                            "offset {o} holds {v}"
                        );
                    }
                    reads += 1;
                }
                reads
            })
        })
        .collect();
    for i in 0..600 {
        // Each batch holds offsets 3i..3i+2, tagged with its index.
        log.append_as_leader(batch(&format!("w{i}"), 3, i), 0, 0)
            .unwrap();
    }
    done.store(true, Ordering::Release);
    let reads: u64 = readers.into_iter().map(|r| r.join().unwrap()).sum();
    assert!(reads > 0);
    assert!(log.segment_count() > 5, "reads crossed rolls");
}
