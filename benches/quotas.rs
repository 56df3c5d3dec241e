//! Quotas and reassignment against release nodes with librdkafka:
//! - the cost of client quota accounting on the hot path: 1 KiB records produced (acks=1) to a
//!   single node with no quota configured, beside the same with quotas configured but never
//!   reached (a default client-id quota of every kind, so every request is resolved, timed and
//!   recorded), rounds alternating, best of each (goal: within 3%);
//! - reassignment copy throughput: a partition of 256 MiB on one node of three, reassigned
//!   (`kafka-reassign-partitions --execute`, no throttle) to two, timed until `--verify` says
//!   it completed; beside this machine's sequential disk write rate (256 MiB written and
//!   fsynced in the same directory);
//! - what a throttled reassignment costs clients: 1 KiB records produced (acks=all) to and
//!   consumed from another topic while a 256 MiB partition is copied under a 10 MB/s throttle,
//!   beside the same with nothing moving, three rounds, best of each (the goal: within 10%).
//!
//! Run: `cargo bench -p fjord-benches --bench quotas` (it builds the release `fjord` first);
//! `FJORD_LOAD_SECONDS` sets each produce round's length (default 5); `FJORD_QUOTA_BENCH`
//! (`accounting` or `reassignment`) runs one part.

use fjord_benches::{Cluster, SingleNode};
use std::io::Write;
use std::path::Path;
use std::process::Command;
use std::time::{Duration, Instant};

fn seconds() -> f64 {
    std::env::var("FJORD_LOAD_SECONDS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(5.0)
}

/// Runs `fjord` with `args`; its stdout (it must succeed).
fn fjord(bin: &Path, args: &[&str]) -> String {
    let o = Command::new(bin).args(args).output().unwrap();
    assert!(
        o.status.success(),
        "{args:?}: {}{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    );
    String::from_utf8_lossy(&o.stdout).into_owned()
}

/// 1 KiB records produced for `secs` to the node `pid` serves: (records a second, the node's
/// CPU time per 1,000 records in ms). The CPU time is the steadier figure on a shared
/// machine: the client takes what the node leaves of the cores.
fn produce_rate(bootstrap: &str, pid: u32, topic: &str, secs: f64) -> (f64, f64) {
    let cpu = fjord_benches::cpu_seconds(pid);
    let (acked, failed, _) =
        fjord_benches::produce(&[], bootstrap, topic, 1, 1024, "1", secs, None);
    let used = fjord_benches::cpu_seconds(pid) - cpu;
    assert_eq!(failed, 0);
    (acked as f64 / secs, used * 1e6 / acked.max(1) as f64)
}

fn quota_accounting(bin: &Path, secs: f64) {
    // Each round writes gigabytes: retention keeps the log (and the page cache) the same size
    // for every round, so that neither setting runs on a fuller disk than the other.
    let node = SingleNode::start(bin, "log.retention.check.interval.ms=1000");
    fjord(
        bin,
        &[
            "kafka-topics",
            "--bootstrap-server",
            &node.bootstrap,
            "--create",
            "--topic",
            "q",
            "--config",
            "retention.bytes=1073741824",
            "--config",
            "segment.bytes=268435456",
        ],
    );
    std::thread::sleep(Duration::from_secs(1));
    let set = |add: &str| {
        fjord(
            bin,
            &[
                "kafka-configs",
                "--bootstrap-server",
                &node.bootstrap,
                "--alter",
                "--entity-type",
                "clients",
                "--entity-default",
                "--add-config",
                add,
            ],
        )
    };
    let unset = || {
        fjord(
            bin,
            &[
                "kafka-configs",
                "--bootstrap-server",
                &node.bootstrap,
                "--alter",
                "--entity-type",
                "clients",
                "--entity-default",
                "--delete-config",
                "producer_byte_rate,consumer_byte_rate,request_percentage,controller_mutation_rate",
            ],
        )
    };
    // Best throughput and least CPU per 1,000 records of each setting.
    let (mut none, mut quoted) = ((0f64, f64::MAX), (0f64, f64::MAX));
    let best = |b: &mut (f64, f64), (rate, cpu): (f64, f64)| {
        *b = (b.0.max(rate), b.1.min(cpu));
    };
    // Rounds alternate which setting goes first.
    for round in 0..5 {
        for with_quotas in [round % 2 == 1, round % 2 == 0] {
            if with_quotas {
                set(
                    "producer_byte_rate=1000000000000,consumer_byte_rate=1000000000000,\
                     request_percentage=1000000,controller_mutation_rate=1000000",
                );
                // The node has the quotas a moment after the controller wrote them.
                std::thread::sleep(Duration::from_millis(500));
                best(
                    &mut quoted,
                    produce_rate(&node.bootstrap, node.pid(), "q", secs),
                );
                unset();
                std::thread::sleep(Duration::from_millis(500));
            } else {
                best(
                    &mut none,
                    produce_rate(&node.bootstrap, node.pid(), "q", secs),
                );
            }
        }
    }
    println!(
        "produce 1 KiB, acks=1: {:.0} msg/s and {:.1} ms of node CPU per 1,000 records without \
         quotas; {:.0} msg/s ({:+.1}%) and {:.1} ms ({:+.1}%) with quotas configured but not \
         reached",
        none.0,
        none.1,
        quoted.0,
        (quoted.0 / none.0 - 1.0) * 100.0,
        quoted.1,
        (quoted.1 / none.1 - 1.0) * 100.0
    );
}

/// This machine's sequential write rate in `dir` (MiB/s): 256 MiB written and fsynced.
fn disk_write_rate(dir: &Path) -> f64 {
    let path = dir.join("disk-rate.tmp");
    let chunk = vec![0x5au8; 1 << 20];
    let started = Instant::now();
    let mut f = std::fs::File::create(&path).unwrap();
    for _ in 0..256 {
        f.write_all(&chunk).unwrap();
    }
    f.sync_all().unwrap();
    let took = started.elapsed().as_secs_f64();
    drop(f);
    let _ = std::fs::remove_file(&path);
    256.0 / took
}

/// Creates `topic` with one partition on broker 1 and writes about 256 MiB to it (900 kB
/// records, acks=1, at whatever pace the node takes them); the bytes written.
fn fill_on_broker_1(bin: &Path, bs: &str, topic: &str) -> usize {
    fjord(
        bin,
        &[
            "kafka-topics",
            "--bootstrap-server",
            bs,
            "--create",
            "--topic",
            topic,
            "--replica-assignment",
            "1",
        ],
    );
    use rdkafka::producer::{BaseProducer, BaseRecord, Producer};
    // 900 kB records: librdkafka's message.max.bytes (1,000,000) counts the overhead too.
    let (records, size) = (298usize, 900_000usize);
    let p: BaseProducer = rdkafka::config::ClientConfig::new()
        .set("bootstrap.servers", bs)
        .set("acks", "1")
        .create()
        .unwrap();
    let record = vec![b'm'; size];
    let mut sent = 0;
    while sent < records {
        let r = BaseRecord::<[u8], [u8]>::to(topic)
            .payload(&record)
            .partition(0);
        match p.send(r) {
            Ok(()) => sent += 1,
            Err((
                rdkafka::error::KafkaError::MessageProduction(
                    rdkafka::types::RDKafkaErrorCode::QueueFull,
                ),
                _,
            )) => {
                p.poll(Duration::from_millis(10));
            }
            Err((e, _)) => panic!("producing to {topic}: {e}"),
        }
        p.poll(Duration::ZERO);
    }
    p.flush(Duration::from_secs(120)).unwrap();
    records * size
}

/// Starts moving `topic`-0 to brokers 1 and 2 (`throttle` bytes a second, if any); the plan.
fn start_move(bin: &Path, bs: &str, dir: &Path, topic: &str, throttle: Option<&str>) -> String {
    let plan = dir.join(format!("{topic}.json"));
    std::fs::write(
        &plan,
        format!(
            r#"{{"version":1,"partitions":[{{"topic":"{topic}","partition":0,"replicas":[1,2]}}]}}"#
        ),
    )
    .unwrap();
    let plan = plan.to_string_lossy().into_owned();
    let mut args = vec![
        "kafka-reassign-partitions",
        "--bootstrap-server",
        bs,
        "--execute",
        "--reassignment-json-file",
        &plan,
    ];
    if let Some(t) = throttle {
        args.extend(["--throttle", t]);
    }
    fjord(bin, &args);
    plan
}

/// Polls `--verify` of `plan` until it completes; whether it did within `limit`.
fn wait_moved(bin: &Path, bs: &str, plan: &str, limit: Duration) -> bool {
    let started = Instant::now();
    loop {
        let out = fjord(
            bin,
            &[
                "kafka-reassign-partitions",
                "--bootstrap-server",
                bs,
                "--verify",
                "--reassignment-json-file",
                plan,
            ],
        );
        if out.contains("is completed") {
            return true;
        }
        if started.elapsed() >= limit {
            return false;
        }
        std::thread::sleep(Duration::from_millis(200));
    }
}

/// 1 KiB records produced (acks=all) to `topic` for `secs`, then read back: (records a
/// second produced, records a second consumed).
fn client_rates(bs: &str, topic: &str, secs: f64) -> (f64, f64) {
    let (acked, failed, _) = fjord_benches::produce(&[], bs, topic, 1, 1024, "all", secs, None);
    assert_eq!(failed, 0);
    let took = fjord_benches::consume(&[], bs, topic, 1, acked);
    (acked as f64 / secs, acked as f64 / took)
}

fn reassignment_copy(bin: &Path, secs: f64) {
    let cluster = Cluster::start(bin, "");
    let bs = cluster.bootstrap.clone();
    let dir = tempfile::tempdir_in(fjord_benches::root().join("target")).unwrap();
    let bytes = fill_on_broker_1(bin, &bs, "moving");
    let started = Instant::now();
    let plan = start_move(bin, &bs, dir.path(), "moving", None);
    assert!(wait_moved(bin, &bs, &plan, Duration::from_secs(600)));
    let took = started.elapsed().as_secs_f64();
    let disk = disk_write_rate(dir.path());
    println!(
        "reassignment copy, 256 MiB to a new replica, no throttle: {:.1} MiB/s ({took:.1} s); \
         the disk writes {disk:.0} MiB/s sequentially (fsynced)",
        bytes as f64 / took / (1 << 20) as f64
    );

    // Clients on another topic, with nothing moving and then beside a throttled copy, three
    // rounds (a fresh 256 MiB partition copied in each), best of each setting.
    for t in ["calm", "busy"] {
        fjord(
            bin,
            &[
                "kafka-topics",
                "--bootstrap-server",
                &bs,
                "--create",
                "--topic",
                t,
                "--replica-assignment",
                "2:3",
            ],
        );
    }
    let (mut calm, mut busy) = ((0f64, 0f64), (0f64, 0f64));
    let mut overlapped = true;
    for round in 0..3 {
        let (p, c) = client_rates(&bs, "calm", secs);
        calm = (calm.0.max(p), calm.1.max(c));
        let topic = format!("moving{}", round + 2);
        fill_on_broker_1(bin, &bs, &topic);
        let plan = start_move(bin, &bs, dir.path(), &topic, Some("10000000"));
        let (p, c) = client_rates(&bs, "busy", secs);
        busy = (busy.0.max(p), busy.1.max(c));
        overlapped &= !wait_moved(bin, &bs, &plan, Duration::ZERO);
        assert!(wait_moved(bin, &bs, &plan, Duration::from_secs(600)));
    }
    println!(
        "clients on another topic (1 KiB, acks=all, best of 3): produce {:.0} msg/s and consume \
         {:.0} msg/s with nothing moving; {:.0} msg/s ({:+.1}%) and {:.0} msg/s ({:+.1}%) beside \
         a 256 MiB copy throttled to 10 MB/s{}",
        calm.0,
        calm.1,
        busy.0,
        (busy.0 / calm.0 - 1.0) * 100.0,
        busy.1,
        (busy.1 / calm.1 - 1.0) * 100.0,
        if overlapped {
            ""
        } else {
            " (a copy ended before its clients did)"
        }
    );
}

fn main() {
    // `cargo bench` passes `--bench`; anything else (cargo test's listing) is a no-op.
    if !std::env::args().any(|a| a == "--bench") {
        return;
    }
    let bin = fjord_benches::release_fjord();
    // FJORD_QUOTA_BENCH=accounting or =reassignment runs one part only.
    let part = std::env::var("FJORD_QUOTA_BENCH").unwrap_or_default();
    if part != "reassignment" {
        quota_accounting(&bin, seconds());
    }
    if part != "accounting" {
        reassignment_copy(&bin, seconds());
    }
}
