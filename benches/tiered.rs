//! Tiered storage (KIP-405) against a release node with librdkafka, for each store (the
//! embedded default's local directory, and SeaweedFS's S3 gateway on loopback when
//! `tests/tiered/weed.sh fetch` has built it):
//! - **upload throughput**: `FJORD_TIERED_BENCH_MB` (default 1024) of 1 KiB records produced
//!   to a topic with copying off (`remote.log.copy.disable`), then copying turned on (and
//!   `local.retention.bytes=1`): the
//!   closed segments' bytes over the time until ListOffsets -5 (the last offset the store
//!   holds) reaches the active segment, with the node's CPU seconds per GB copied;
//! - **local disk held**: the partition's bytes on disk (DescribeLogDirs' size) once local
//!   retention (`local.retention.bytes=1`) ran, beside the same records in a topic that does
//!   not tier;
//! - **remote read throughput**: every record read from offset 0 by librdkafka (all but the
//!   active segment from the store, the chunk cache cold), then the first 96 MiB twice: cold
//!   (the full read pushed them out of the 128 MiB chunk cache) and cached.
//!
//! Run: `cargo bench -p fjord-benches --bench tiered` (it builds the release `fjord` first);
//! `FJORD_TIERED_BENCH_STORE=local` or `s3` runs one store.

/// The process tests' SeaweedFS launcher, shared rather than copied (it takes its ports from
/// `super::free_port`).
#[path = "../crates/server/tests/common/weed.rs"]
#[allow(dead_code)]
mod weed;

/// A free port on 127.0.0.1 (for the launcher).
fn free_port() -> u16 {
    fjord_benches::free_port()
}

use fjord_benches::SingleNode;
use std::path::Path;
use std::process::Command;
use std::time::{Duration, Instant};

/// The record size.
const RECORD: usize = 1024;
/// The segment size of the tiered topics.
const SEGMENT: u64 = 16 * 1024 * 1024;
/// The part read twice for the cached figure (below the chunk cache's 128 MiB).
const CACHED_MB: u64 = 96;

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

/// ListOffsets of `topic`-0 at `timestamp` (-1 latest, -4 earliest local, -5 latest tiered).
fn list_offset(rt: &tokio::runtime::Runtime, addr: &str, topic: &str, timestamp: i64) -> i64 {
    use fjord_protocol::generated::list_offsets_request::{
        ListOffsetsPartition, ListOffsetsRequest, ListOffsetsTopic,
    };
    use fjord_protocol::{RequestBody, ResponseBody};
    let ask = RequestBody::ListOffsets(ListOffsetsRequest {
        replica_id: -1,
        topics: vec![ListOffsetsTopic {
            name: topic.into(),
            partitions: vec![ListOffsetsPartition {
                partition_index: 0,
                timestamp,
                current_leader_epoch: -1,
                ..Default::default()
            }],
            ..Default::default()
        }],
        ..Default::default()
    });
    rt.block_on(async {
        let c = fjord_net::client::Client::connect(addr, Duration::from_secs(5))
            .await
            .ok()?;
        match c.call(ask, 9, Duration::from_secs(30)).await.ok()? {
            ResponseBody::ListOffsets(r) => {
                let p = r.topics.first()?.partitions.first()?;
                (p.error_code == 0).then_some(p.offset)
            }
            _ => None,
        }
    })
    .unwrap_or(-1)
}

/// `topic`-0's bytes on disk, from `kafka-log-dirs`.
fn local_size(bin: &Path, addr: &str, topic: &str) -> u64 {
    let out = fjord(
        bin,
        &[
            "kafka-log-dirs",
            "--bootstrap-server",
            addr,
            "--describe",
            "--topic-list",
            topic,
        ],
    );
    let at = out.find("\"size\":").expect("a size") + 7;
    out[at..out[at..].find([',', '}']).unwrap() + at]
        .parse()
        .unwrap()
}

/// Produces `mb` MiB of 1 KiB records to `topic`-0 (acks=1), as fast as the node takes them.
fn fill(addr: &str, topic: &str, mb: u64) -> u64 {
    let n = mb * 1024 * 1024 / RECORD as u64;
    let config = [("acks", "1")];
    let mut sent = 0;
    while sent < n {
        // Short rounds, until the count is reached (the last overshoots by at most one).
        let (acked, failed, _) =
            fjord_benches::produce(&config, addr, topic, 1, RECORD, "1", 0.5, None);
        assert_eq!(failed, 0);
        sent += acked;
    }
    sent
}

fn create(bin: &Path, addr: &str, topic: &str, configs: &[&str]) {
    let mut args = vec![
        "kafka-topics",
        "--bootstrap-server",
        addr,
        "--create",
        "--topic",
        topic,
        "--partitions",
        "1",
    ];
    for c in configs {
        args.extend(["--config", c]);
    }
    fjord(bin, &args);
    std::thread::sleep(Duration::from_secs(1));
}

fn run(bin: &Path, store: &str, store_props: &str, mb: u64) {
    let node = SingleNode::start(
        bin,
        &format!(
            "remote.log.storage.system.enable=true\n{store_props}\
             remote.log.manager.task.interval.ms=500\n\
             log.retention.check.interval.ms=1000\n\
             rlmm.config.remote.log.metadata.topic.replication.factor=1\n"
        ),
    );
    let addr = node.bootstrap.clone();
    let rt = tokio::runtime::Runtime::new().unwrap();
    let segment = format!("segment.bytes={SEGMENT}");
    create(
        bin,
        &addr,
        "tiered",
        &[
            "remote.storage.enable=true",
            "remote.log.copy.disable=true",
            &segment,
        ],
    );
    create(bin, &addr, "plain", &[&segment]);
    let records = fill(&addr, "tiered", mb);
    let plain_records = fill(&addr, "plain", mb);
    let end = list_offset(&rt, &addr, "tiered", -1);
    let per_segment = (SEGMENT / (RECORD as u64 + 70)) as i64;

    // Upload: copying on, timed until the store reaches the active segment.
    let cpu = fjord_benches::cpu_seconds(node.pid());
    let started = Instant::now();
    fjord(
        bin,
        &[
            "kafka-configs",
            "--bootstrap-server",
            &addr,
            "--alter",
            "--entity-type",
            "topics",
            "--entity-name",
            "tiered",
            "--add-config",
            // Kafka allows a local retention of its own only while copying is on.
            "remote.log.copy.disable=false,local.retention.bytes=1",
        ],
    );
    let deadline = Instant::now() + Duration::from_secs(1800);
    let mut tiered = -1;
    while tiered < end - per_segment - 1 {
        assert!(Instant::now() < deadline, "the copies never caught up");
        std::thread::sleep(Duration::from_millis(100));
        tiered = list_offset(&rt, &addr, "tiered", -5);
    }
    let took = started.elapsed().as_secs_f64();
    let used = fjord_benches::cpu_seconds(node.pid()) - cpu;
    let copied_gb = (tiered + 1) as f64 * (RECORD + 70) as f64 / 1e9;
    println!(
        "tiered/{store}: upload {:.1} MB/s ({copied_gb:.2} GB in {took:.1} s), broker CPU {:.1} s per GB copied",
        copied_gb * 1e3 / took,
        used / copied_gb
    );

    // Local disk held once local retention ran.
    let deadline = Instant::now() + Duration::from_secs(120);
    let mut held = local_size(bin, &addr, "tiered");
    while held > 2 * SEGMENT && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(500));
        held = local_size(bin, &addr, "tiered");
    }
    let plain = local_size(bin, &addr, "plain");
    println!(
        "tiered/{store}: local disk {:.1} MiB with tiering, {:.1} MiB without ({} and {} MiB written)",
        held as f64 / 1048576.0,
        plain as f64 / 1048576.0,
        records * RECORD as u64 / 1048576,
        plain_records * RECORD as u64 / 1048576
    );

    // Reads from offset 0: everything (cold), then the first 96 MiB cold and cached.
    let local_start = list_offset(&rt, &addr, "tiered", -4);
    // Each read: its rate, and the broker's CPU seconds per GiB served (the client, not the
    // broker, bounds the rate of 1 KiB records; the CPU shows what the cache saves).
    let read = |n: u64| {
        let cpu = fjord_benches::cpu_seconds(node.pid());
        let secs = fjord_benches::consume(&[], &addr, "tiered", 1, n);
        let gib = n as f64 * RECORD as f64 / 1073741824.0;
        let used = fjord_benches::cpu_seconds(node.pid()) - cpu;
        (gib * 1024.0 / secs, used / gib)
    };
    let all = read(records);
    let small = CACHED_MB * 1024 * 1024 / RECORD as u64;
    let cold = read(small);
    let cached = read(small);
    println!(
        "tiered/{store}: read from offset 0: all {:.0} MiB/s ({local_start} of {records} records from the store, broker CPU {:.2} s/GiB), first {CACHED_MB} MiB cold {:.0} MiB/s ({:.2} s/GiB), cached {:.0} MiB/s ({:.2} s/GiB)",
        all.0, all.1, cold.0, cold.1, cached.0, cached.1
    );
}

fn main() {
    let bin = fjord_benches::release_fjord();
    let mb: u64 = std::env::var("FJORD_TIERED_BENCH_MB")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(1024);
    let only = std::env::var("FJORD_TIERED_BENCH_STORE").ok();
    if only.as_deref().is_none_or(|s| s == "local") {
        run(&bin, "local", "", mb);
    }
    let weed_bin = fjord_benches::root().join("target/tools/weed");
    if only.as_deref().is_none_or(|s| s == "s3") {
        if !weed_bin.exists() {
            println!("tiered/s3: skipped (run tests/tiered/weed.sh fetch)");
            return;
        }
        let dir = tempfile::tempdir().unwrap();
        let weed = weed::start_weed(dir.path());
        run(&bin, "s3", &weed::s3_properties(&weed), mb);
    }
}
