//! Quotas and reassignment against release nodes with librdkafka:
//! - the cost of client quota accounting on the hot path: 1 KiB records produced (acks=1) to a
//!   single node with no quota configured, beside the same with quotas configured but never
//!   reached (a default client-id quota of every kind, so every request is resolved, timed and
//!   recorded), rounds alternating, best of each (goal: within 3%);
//! - reassignment copy throughput: a partition of 256 MiB on one node of three, reassigned
//!   (`kafka-reassign-partitions --execute`, no throttle) to two, timed until `--verify` says
//!   it completed; beside this machine's sequential disk write rate (256 MiB written and
//!   fsynced in the same directory).
//!
//! Run: `cargo bench -p fjord-benches --bench quotas` (it builds the release `fjord` first);
//! `FJORD_LOAD_SECONDS` sets each produce round's length (default 5).

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

/// 1 KiB records produced for `secs`: records a second.
fn produce_rate(bootstrap: &str, topic: &str, secs: f64) -> f64 {
    let (acked, failed, _) =
        fjord_benches::produce(&[], bootstrap, topic, 1, 1024, "1", secs, None);
    assert_eq!(failed, 0);
    acked as f64 / secs
}

fn quota_accounting(bin: &Path, secs: f64) {
    let node = SingleNode::start(bin, "");
    node.create_topic("q", 1);
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
    let (mut none, mut quoted) = (0f64, 0f64);
    for _ in 0..3 {
        none = none.max(produce_rate(&node.bootstrap, "q", secs));
        set(
            "producer_byte_rate=1000000000000,consumer_byte_rate=1000000000000,\
             request_percentage=1000000,controller_mutation_rate=1000000",
        );
        // The node has the quotas once it describes them.
        std::thread::sleep(Duration::from_millis(500));
        quoted = quoted.max(produce_rate(&node.bootstrap, "q", secs));
        unset();
        std::thread::sleep(Duration::from_millis(500));
    }
    println!(
        "produce 1 KiB, acks=1: {none:.0} msg/s without quotas, {quoted:.0} msg/s with quotas \
         configured but not reached ({:+.1}%)",
        (quoted / none - 1.0) * 100.0
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

fn reassignment_copy(bin: &Path) {
    let cluster = Cluster::start(bin, "");
    let bs = cluster.bootstrap.clone();
    fjord(
        bin,
        &[
            "kafka-topics",
            "--bootstrap-server",
            &bs,
            "--create",
            "--topic",
            "moving",
            "--replica-assignment",
            "1",
        ],
    );
    // About 256 MiB of 1 MB records (within message.max.bytes), acks=1, at whatever pace
    // the node takes them.
    let (records, size) = (268usize, 1_000_000usize);
    {
        use rdkafka::producer::{BaseProducer, BaseRecord, Producer};
        let p: BaseProducer = rdkafka::config::ClientConfig::new()
            .set("bootstrap.servers", &bs)
            .set("acks", "1")
            .create()
            .unwrap();
        let record = vec![b'm'; size];
        let mut sent = 0;
        while sent < records {
            match p.send(
                BaseRecord::<[u8], [u8]>::to("moving")
                    .payload(&record)
                    .partition(0),
            ) {
                Ok(()) => sent += 1,
                Err(_) => {
                    p.poll(Duration::from_millis(10));
                }
            }
        }
        p.flush(Duration::from_secs(120)).unwrap();
    }
    let dir = tempfile::tempdir_in(fjord_benches::root().join("target")).unwrap();
    let plan = dir.path().join("plan.json");
    std::fs::write(
        &plan,
        r#"{"version":1,"partitions":[{"topic":"moving","partition":0,"replicas":[1,2]}]}"#,
    )
    .unwrap();
    let plan = plan.to_string_lossy().into_owned();
    let started = Instant::now();
    fjord(
        bin,
        &[
            "kafka-reassign-partitions",
            "--bootstrap-server",
            &bs,
            "--execute",
            "--reassignment-json-file",
            &plan,
        ],
    );
    loop {
        let out = fjord(
            bin,
            &[
                "kafka-reassign-partitions",
                "--bootstrap-server",
                &bs,
                "--verify",
                "--reassignment-json-file",
                &plan,
            ],
        );
        if out.contains("is completed") {
            break;
        }
        assert!(started.elapsed() < Duration::from_secs(600), "{out}");
        std::thread::sleep(Duration::from_millis(200));
    }
    let took = started.elapsed().as_secs_f64();
    let disk = disk_write_rate(dir.path());
    println!(
        "reassignment copy, 256 MiB to a new replica, no throttle: {:.1} MiB/s ({took:.1} s); \
         the disk writes {disk:.0} MiB/s sequentially (fsynced)",
        (records * size) as f64 / took / (1 << 20) as f64
    );
}

fn main() {
    // `cargo bench` passes `--bench`; anything else (cargo test's listing) is a no-op.
    if !std::env::args().any(|a| a == "--bench") {
        return;
    }
    let bin = fjord_benches::release_fjord();
    quota_accounting(&bin, seconds());
    reassignment_copy(&bin);
}
