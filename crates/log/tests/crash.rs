//! Crash test: a child process appends and flushes in a loop, reporting every flush that
//! returned; the parent kills it with SIGKILL at a random moment, reopens the log as after a
//! crash, and checks that every flushed batch is present and intact, that the log is exactly a
//! prefix of what the child wrote, and that writing continues from there. 50 rounds, seeded.

mod common;

use common::*;
use fjord_log::partition_log::load::Checkpointed;
use fjord_log::{LogConfig, PartitionLog};
use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};

const ROUNDS: u64 = 50;
const DIR_VAR: &str = "FJORD_CRASH_TEST_DIR";
const START_VAR: &str = "FJORD_CRASH_TEST_START";

fn config() -> LogConfig {
    LogConfig {
        segment_bytes: 4096,
        index_interval_bytes: 256,
        ..LogConfig::default()
    }
}

/// The value of the record at `offset`: the child writes a deterministic sequence.
fn value_at(offset: i64) -> String {
    format!("v{offset}")
}

/// The child: appends batches of 1-4 records, flushing after every few, printing the log end
/// offset after each flush returns. Runs until killed.
#[test]
#[ignore = "run only as the crash test's child process"]
fn crash_child_writer() {
    let Some(dir) = std::env::var_os(DIR_VAR) else {
        return;
    };
    let start: u64 = std::env::var(START_VAR)
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(0);
    let (log, _) = PartitionLog::open(
        std::path::Path::new(&dir),
        config(),
        Checkpointed::default(),
        false,
    )
    .unwrap();
    let mut out = std::io::stdout().lock();
    let mut rng = start.wrapping_mul(6364136223846793005).wrapping_add(1);
    loop {
        rng = rng
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        let n = 1 + (rng >> 33) % 4;
        let base = log.log_end_offset();
        let mut b = fjord_protocol::records::RecordBatchBuilder::new(
            fjord_protocol::records::Compression::None,
        );
        for i in 0..n as i64 {
            b.append(
                base + i,
                Some(b"k"),
                Some(value_at(base + i).as_bytes()),
                &[],
            );
        }
        log.append_as_leader(b.build().unwrap(), 1, 0).unwrap();
        if (rng >> 40) % 3 == 0 {
            log.flush().unwrap();
            writeln!(out, "{}", log.log_end_offset()).unwrap();
            out.flush().unwrap();
        }
    }
}

#[test]
fn sigkill_at_random_moments_never_loses_a_flushed_batch() {
    let dir = tempfile::tempdir().unwrap();
    let exe = std::env::current_exe().unwrap();
    let mut total_recovered_bytes = 0u64;
    for round in 0..ROUNDS {
        let mut child = Command::new(&exe)
            .args([
                "--exact",
                "crash_child_writer",
                "--ignored",
                "--nocapture",
                "--test-threads",
                "1",
            ])
            .env(DIR_VAR, dir.path())
            .env(START_VAR, round.to_string())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let lines = BufReader::new(child.stdout.take().unwrap());
        // Kill after a seeded number of flushes, then without waiting: mid-append or mid-flush.
        let target = 1 + (round * 7919) % 40;
        let mut flushed = -1i64;
        let mut seen = 0;
        for line in lines.lines() {
            let Ok(line) = line else { break };
            let Ok(end) = line.trim().parse::<i64>() else {
                continue;
            };
            flushed = end;
            seen += 1;
            if seen >= target {
                break;
            }
        }
        child.kill().unwrap();
        child.wait().unwrap();
        assert!(
            flushed > 0,
            "round {round}: the child flushed before it was killed"
        );

        let (log, report) =
            PartitionLog::open(dir.path(), config(), Checkpointed::default(), false).unwrap();
        total_recovered_bytes += report.truncated_bytes;
        let all = read_all(&log, log.log_start_offset());
        assert!(
            log.log_end_offset() >= flushed,
            "round {round}: flushed up to {flushed}, log ends at {}",
            log.log_end_offset()
        );
        assert_eq!(
            all.len() as i64,
            log.log_end_offset(),
            "round {round}: every offset readable"
        );
        for (offset, value) in &all {
            assert_eq!(
                value,
                &value_at(*offset),
                "round {round}: offset {offset} intact"
            );
        }
        log.close().unwrap();
    }
    eprintln!("{ROUNDS} SIGKILL rounds; recovery cut {total_recovered_bytes} torn bytes in total");
}
