//! `fjord kafka-dump-log` on a real segment written by fjord-log.

use fjord_log::partition_log::load::Checkpointed;
use fjord_log::{LogConfig, PartitionLog};
use fjord_protocol::records::{Compression, RecordBatchBuilder};
use std::process::Command;

/// The broker's clock for the appends: the records' timestamps are within
/// `message.timestamp.after.max.ms` of it.
const NOW: i64 = 1_700_000_000_100;

#[test]
fn dumps_batches_records_and_indexes_like_kafka() {
    let dir = tempfile::tempdir().unwrap();
    let cfg = LogConfig {
        index_interval_bytes: 1,
        ..LogConfig::default()
    };
    let (log, _) = PartitionLog::open(dir.path(), cfg, Checkpointed::default(), true).unwrap();
    let mut b = RecordBatchBuilder::new(Compression::Gzip);
    b.append(
        1_700_000_000_000,
        Some(b"k1"),
        Some(b"hello"),
        &[("h", Some(b"v"))],
    );
    b.append(1_700_000_000_001, None, Some(b"world"), &[]);
    log.append_as_leader(b.build().unwrap(), 3, NOW).unwrap();
    let mut b = RecordBatchBuilder::new(Compression::None);
    b.append(1_700_000_000_002, Some(b"k2"), None, &[]);
    log.append_as_leader(b.build().unwrap(), 3, NOW).unwrap();
    log.close().unwrap();
    let seg = dir.path().join("00000000000000000000.log");
    let run = |extra: &[&str]| {
        let mut args = vec![
            "kafka-dump-log".to_string(),
            "--files".into(),
            seg.display().to_string(),
        ];
        args.extend(extra.iter().map(|s| s.to_string()));
        let out = Command::new(env!("CARGO_BIN_EXE_fjord"))
            .args(&args)
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8(out.stdout).unwrap()
    };
    let plain = run(&[]);
    assert!(plain.contains("Log starting offset: 0"));
    assert!(plain.contains("baseOffset: 0 lastOffset: 1 count: 2 baseSequence: -1 lastSequence: -1 producerId: -1 producerEpoch: -1 partitionLeaderEpoch: 3 isTransactional: false isControl: false deleteHorizonMs: OptionalLong.empty position: 0 CreateTime: 1700000000001"), "{plain}");
    assert!(plain.contains("compresscodec: gzip crcValid: true"));
    assert!(plain.contains("baseOffset: 2 lastOffset: 2 count: 1"));
    assert!(
        !plain.contains("| offset"),
        "records only with deep iteration"
    );
    let deep = run(&["--print-data-log"]);
    assert!(deep.contains("| offset: 0 CreateTime: 1700000000000 keySize: 2 valueSize: 5 sequence: -1 headerKeys: [h] key: k1 payload: hello"), "{deep}");
    assert!(deep.contains("| offset: 1 CreateTime: 1700000000001 keySize: -1 valueSize: 5 sequence: -1 headerKeys: [] payload: world"));
    assert!(deep.contains("| offset: 2 CreateTime: 1700000000002 keySize: 2 valueSize: -1 sequence: -1 headerKeys: [] key: k2 payload: null"));
    let index = Command::new(env!("CARGO_BIN_EXE_fjord"))
        .args([
            "kafka-dump-log",
            "--files",
            &dir.path()
                .join("00000000000000000000.index")
                .display()
                .to_string(),
        ])
        .output()
        .unwrap();
    let index = String::from_utf8(index.stdout).unwrap();
    assert!(index.contains("offset: 2 position: "), "{index}");
    let missing = Command::new(env!("CARGO_BIN_EXE_fjord"))
        .args(["kafka-dump-log", "--files", "/nonexistent/0.log"])
        .output()
        .unwrap();
    assert!(!missing.status.success());
}
