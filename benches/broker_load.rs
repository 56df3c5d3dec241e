//! Load against a release `fjord server` with real librdkafka clients (the `rdkafka` crate,
//! librdkafka built from its bundled source): produce 100 B and 1 KiB records with acks=1 and
//! acks=-1 to 1 and 8 partitions from one and four producer processes, consume them back,
//! produce latency at half the measured maximum rate, the broker's CPU seconds and RSS for
//! every run, and its idle RSS with 1,000 partitions; then replication factor 3 on three nodes
//! (acks=-1 throughput and latency, a follower's catch-up of 1 GiB). The machine's own limits are measured
//! first (loopback TCP between two processes' worth of sockets, sequential page-cache writes
//! to the data dir). Run: `cargo bench -p fjord-benches --bench broker_load` (it builds the
//! release `fjord` first). `FJORD_LOAD_SECONDS` sets each run's length (default 5);
//! `FJORD_LOAD_ONLY=100/1/1/1` (size/acks/partitions/producers) runs one produce row and its
//! consume, then the latency and idle runs (`FJORD_LOAD_RF3=1` adds the replication runs). `FJORD_PEER_TANSU=/path/to/tansu` adds fjord and
//! Tansu (a peer Rust broker, `cargo install tansu`) side by side with the same client.

use fjord_benches::{percentile, root, rss_mib, Cluster, SingleNode};
use std::io::{Read, Write};
use std::net::{TcpListener, TcpStream};
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

fn seconds() -> f64 {
    std::env::var("FJORD_LOAD_SECONDS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(5.0)
}

/// A peer broker: Tansu (`tansu broker`) on a free port with its memory storage engine.
fn start_tansu(bin: &Path) -> SingleNode {
    let dir = tempfile::tempdir().unwrap();
    let port = fjord_benches::free_port();
    let url = format!("tcp://127.0.0.1:{port}");
    let log = std::fs::File::create(dir.path().join("tansu.log")).unwrap();
    let child = Command::new(bin)
        .args([
            "broker",
            "--listener-url",
            &url,
            "--advertised-listener-url",
            &url,
        ])
        .args(["--storage-engine", "memory://tansu/"])
        .current_dir(dir.path())
        .stdout(log.try_clone().unwrap())
        .stderr(log)
        .spawn()
        .unwrap();
    let bootstrap = format!("127.0.0.1:{port}");
    let deadline = Instant::now() + Duration::from_secs(30);
    while TcpStream::connect(&bootstrap).is_err() {
        assert!(Instant::now() < deadline, "tansu never opened its port");
        std::thread::park_timeout(Duration::from_millis(50));
    }
    SingleNode {
        child,
        bootstrap,
        dir,
    }
}

/// Replication factor 3 on three loopback nodes: 1 KiB records with acks=-1 (throughput and
/// p99 at half that rate) beside the single-node acks=1 figure, and how long a follower takes
/// to catch up 1 GiB.
fn replication_rows(bin: &Path, secs: f64, single_node_rate: f64) {
    println!("\nreplication factor 3, min ISR 2, three nodes on this machine (1 KiB records)");
    let mut cluster = Cluster::start(bin, "");
    cluster.create_topic("rf3");
    let cpu0 = cluster.cpu();
    let start = Instant::now();
    let (acked, failed, _) =
        fjord_benches::produce(&[], &cluster.bootstrap, "rf3", 1, 1024, "-1", secs, None);
    // Until the last acknowledgement: the producer's queue drains after the send window.
    let elapsed = start.elapsed().as_secs_f64();
    let rate = acked as f64 / elapsed;
    let mb = acked as f64 * 1024.0 / 1e6;
    println!(
        "acks=-1: {rate:.0} msg/s, {:.1} MB/s ({:.0}% of single-node acks=1 {single_node_rate:.0} msg/s), \
         nodes' CPU {:.3} s per 100 MB{}",
        mb / elapsed,
        rate / single_node_rate.max(1.0) * 100.0,
        (cluster.cpu() - cpu0) / mb.max(1e-9) * 100.0,
        if failed > 0 { format!(" ({failed} failed)") } else { String::new() }
    );
    let (_, failed, mut lat) = fjord_benches::produce(
        &[],
        &cluster.bootstrap,
        "rf3",
        1,
        1024,
        "-1",
        secs,
        Some((rate / 2.0).max(1000.0)),
    );
    lat.sort_unstable();
    println!(
        "acks=-1 at {:.0}/s: p50 {:.2} ms, p99 {:.2} ms, p99.9 {:.2} ms ({failed} failed)",
        (rate / 2.0).max(1000.0),
        percentile(&lat, 0.50),
        percentile(&lat, 0.99),
        percentile(&lat, 0.999)
    );
    // A follower's catch-up: one node down (and out of the ISR: after the broker session
    // timeout) while 1 GiB is written (acks=1), then back.
    cluster.kill_node(2);
    let shrunk = Instant::now();
    while !cluster
        .isr_sizes("rf3")
        .is_some_and(|s| s.iter().all(|n| *n == 2))
    {
        assert!(
            shrunk.elapsed() < Duration::from_secs(120),
            "the ISR never shrank"
        );
        std::thread::park_timeout(Duration::from_millis(200));
    }
    let gib = (1u64 << 30) / 1024;
    let start = Instant::now();
    let mut written = 0u64;
    while written < gib && start.elapsed() < Duration::from_secs(600) {
        let (acked, _, _) =
            fjord_benches::produce(&[], &cluster.bootstrap, "rf3", 1, 1024, "1", 2.0, None);
        written += acked;
    }
    cluster.start_node(2);
    let took = cluster.wait_full("rf3", Duration::from_secs(900));
    println!(
        "a follower back after {:.2} GiB were written without it: in sync again after {:.1} s",
        written as f64 * 1024.0 / (1u64 << 30) as f64,
        took.as_secs_f64()
    );
}

/// Prints a result row at once (the runs are long).
fn print_row(row: String) {
    println!("{row}");
    let _ = std::io::stdout().flush();
}

/// Loopback TCP throughput in MB/s (one sender, one receiver, 1 MiB writes).
fn loopback_mb_s(secs: f64) -> f64 {
    let l = TcpListener::bind("127.0.0.1:0").unwrap();
    let addr = l.local_addr().unwrap();
    let reader = std::thread::spawn(move || {
        let (mut s, _) = l.accept().unwrap();
        let mut buf = vec![0u8; 1 << 20];
        let mut total = 0u64;
        loop {
            match s.read(&mut buf) {
                Ok(0) | Err(_) => return total,
                Ok(n) => total += n as u64,
            }
        }
    });
    let mut s = TcpStream::connect(addr).unwrap();
    let buf = vec![7u8; 1 << 20];
    let start = Instant::now();
    while start.elapsed().as_secs_f64() < secs {
        s.write_all(&buf).unwrap();
    }
    drop(s);
    let total = reader.join().unwrap();
    total as f64 / start.elapsed().as_secs_f64() / 1e6
}

/// Sequential page-cache writes to a file in `dir`, MB/s (1 MiB writes, 1 GiB, no fsync).
fn disk_write_mb_s(dir: &Path) -> f64 {
    let path = dir.join("write-test");
    let mut f = std::fs::File::create(&path).unwrap();
    let buf = vec![1u8; 1 << 20];
    let start = Instant::now();
    for _ in 0..1024 {
        f.write_all(&buf).unwrap();
    }
    let mb_s = 1024.0 * 1.048576 / start.elapsed().as_secs_f64();
    drop(f);
    let _ = std::fs::remove_file(&path);
    mb_s
}

/// The child mode: one producer process; prints "acked failed".
fn child(args: &[String]) {
    let (bootstrap, topic) = (&args[2], &args[3]);
    let partitions: i32 = args[4].parse().unwrap();
    let size: usize = args[5].parse().unwrap();
    let acks = &args[6];
    let secs: f64 = args[7].parse().unwrap();
    let (acked, failed, _) =
        fjord_benches::produce(&[], bootstrap, topic, partitions, size, acks, secs, None);
    println!("{acked} {failed}");
}

/// fjord and a peer broker side by side with the same client and settings
/// (`FJORD_PEER_TANSU` names a `tansu` binary, e.g. from `cargo install tansu`): one producer,
/// acks=1, one partition, 100 B and 1 KiB records, then the consume of what it wrote.
fn peer_rows(fjord: &Path, tansu: &Path, secs: f64) {
    println!("\npeer broker, same client and settings (tansu: memory:// storage; fjord: disk)");
    println!(
        "{:>6} {:>6} {:>12} {:>9} {:>12} {:>8}",
        "broker", "size", "msg/s", "MB/s", "cpu-s/100MB", "rss MiB"
    );
    for size in [100usize, 1024] {
        for name in ["fjord", "tansu"] {
            let node = if name == "fjord" {
                SingleNode::start(fjord, "")
            } else {
                start_tansu(tansu)
            };
            node.create_topic("peer", 1);
            let cpu0 = fjord_benches::cpu_seconds(node.pid());
            let start = Instant::now();
            let out = Command::new(std::env::current_exe().unwrap())
                .args([
                    "--producer",
                    &node.bootstrap,
                    "peer",
                    "1",
                    &size.to_string(),
                    "1",
                ])
                .arg(secs.to_string())
                .output()
                .unwrap();
            let elapsed = start.elapsed().as_secs_f64();
            let text = String::from_utf8_lossy(&out.stdout);
            let acked: u64 = text
                .split_whitespace()
                .next()
                .and_then(|v| v.parse().ok())
                .unwrap_or(0);
            let cpu = fjord_benches::cpu_seconds(node.pid()) - cpu0;
            let mb = acked as f64 * size as f64 / 1e6;
            print_row(format!(
                "{:>6} {:>6} {:>12.0} {:>9.1} {:>12.3} {:>8.1}  produce",
                name,
                size,
                acked as f64 / elapsed,
                mb / elapsed,
                cpu / mb.max(1e-9) * 100.0,
                rss_mib(node.pid())
            ));
            let cpu0 = fjord_benches::cpu_seconds(node.pid());
            let t = fjord_benches::consume(&[], &node.bootstrap, "peer", 1, acked);
            let cpu = fjord_benches::cpu_seconds(node.pid()) - cpu0;
            print_row(format!(
                "{:>6} {:>6} {:>12.0} {:>9.1} {:>12.3} {:>8.1}  consume",
                name,
                size,
                acked as f64 / t,
                mb / t,
                cpu / mb.max(1e-9) * 100.0,
                rss_mib(node.pid())
            ));
        }
    }
}

/// Produce latency at half the measured maximum rate (1 KiB, one partition, one producer),
/// with acks=1 and acks=all.
fn latency_rows(bin: &Path, secs: f64, max_rate_1k: f64) {
    println!("\nproduce latency at half the max rate (1 KiB, 1 partition, one producer)");
    for acks in ["1", "-1"] {
        let node = SingleNode::start(bin, "");
        node.create_topic("lat", 1);
        let rate = (max_rate_1k / 2.0).max(1000.0);
        let (_, failed, mut lat) =
            fjord_benches::produce(&[], &node.bootstrap, "lat", 1, 1024, acks, secs, Some(rate));
        lat.sort_unstable();
        println!(
            "acks={acks:>2} rate {rate:.0}/s: p50 {:.2} ms, p99 {:.2} ms, p99.9 {:.2} ms ({} samples, {failed} failed)",
            percentile(&lat, 0.50),
            percentile(&lat, 0.99),
            percentile(&lat, 0.999),
            lat.len()
        );
    }
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    if args.get(1).map(String::as_str) == Some("--producer") {
        return child(&args);
    }
    // `cargo bench` passes `--bench`; anything else (cargo test's listing) is a no-op.
    if !args.iter().any(|a| a == "--bench") {
        return;
    }
    let secs = seconds();
    let bin = fjord_benches::release_fjord();

    println!(
        "machine: {} cores",
        std::thread::available_parallelism().map_or(0, |n| n.get())
    );
    println!("machine: loopback TCP {:.0} MB/s", loopback_mb_s(2.0));
    let probe = tempfile::tempdir_in(root().join("target")).unwrap();
    println!(
        "machine: sequential page-cache write {:.0} MB/s",
        disk_write_mb_s(probe.path())
    );

    println!("\nproduce (each run {secs} s; broker CPU s per 100 MB and RSS at the end)");
    println!(
        "{:>6} {:>5} {:>4} {:>4} {:>12} {:>9} {:>12} {:>8}",
        "size", "acks", "part", "proc", "msg/s", "MB/s", "cpu-s/100MB", "rss MiB"
    );
    let mut max_rate_1k = 0.0f64;
    for size in [100usize, 1024] {
        for acks in ["1", "-1"] {
            for partitions in [1, 8] {
                for procs in [1usize, 4] {
                    // FJORD_LOAD_ONLY=size/acks/partitions/producers runs one row.
                    let row = format!("{size}/{acks}/{partitions}/{procs}");
                    if std::env::var("FJORD_LOAD_ONLY").is_ok_and(|only| only != row) {
                        continue;
                    }
                    let node = SingleNode::start(&bin, "");
                    let topic = "load";
                    node.create_topic(topic, partitions);
                    let cpu0 = fjord_benches::cpu_seconds(node.pid());
                    let start = Instant::now();
                    let children: Vec<Child> = (0..procs)
                        .map(|_| {
                            Command::new(std::env::current_exe().unwrap())
                                .args([
                                    "--producer",
                                    &node.bootstrap,
                                    topic,
                                    &partitions.to_string(),
                                    &size.to_string(),
                                    acks,
                                    &secs.to_string(),
                                ])
                                .stdout(Stdio::piped())
                                .spawn()
                                .unwrap()
                        })
                        .collect();
                    let mut acked = 0u64;
                    let mut failed = 0u64;
                    for c in children {
                        let out = c.wait_with_output().unwrap();
                        let text = String::from_utf8_lossy(&out.stdout);
                        let mut it = text.split_whitespace();
                        acked += it.next().and_then(|v| v.parse().ok()).unwrap_or(0);
                        failed += it.next().and_then(|v| v.parse().ok()).unwrap_or(0);
                    }
                    let elapsed = start.elapsed().as_secs_f64();
                    let cpu = fjord_benches::cpu_seconds(node.pid()) - cpu0;
                    let mb = acked as f64 * size as f64 / 1e6;
                    let rate = acked as f64 / elapsed;
                    if size == 1024 && partitions == 1 && procs == 1 && acks == "1" {
                        max_rate_1k = rate;
                    }
                    print_row(format!(
                        "{:>6} {:>5} {:>4} {:>4} {:>12.0} {:>9.1} {:>12.3} {:>8.1}{}",
                        size,
                        acks,
                        partitions,
                        procs,
                        rate,
                        mb / elapsed,
                        cpu / mb * 100.0,
                        rss_mib(node.pid()),
                        if failed > 0 {
                            format!("  ({failed} failed)")
                        } else {
                            String::new()
                        }
                    ));
                    // Consume what the single-producer runs wrote, from the same node.
                    if procs == 1 && acks == "1" {
                        let cpu0 = fjord_benches::cpu_seconds(node.pid());
                        let client0 = fjord_benches::cpu_seconds(std::process::id());
                        let t =
                            fjord_benches::consume(&[], &node.bootstrap, topic, partitions, acked);
                        let cpu = fjord_benches::cpu_seconds(node.pid()) - cpu0;
                        // The consumer runs in this process: its CPU shows who is the limit.
                        let client = fjord_benches::cpu_seconds(std::process::id()) - client0;
                        print_row(format!(
                            "{:>6} {:>5} {:>4} {:>4} {:>12.0} {:>9.1} {:>12.3} {:>8.1}  consume (client {:.2} cores)",
                            size,
                            "-",
                            partitions,
                            1,
                            acked as f64 / t,
                            mb / t,
                            cpu / mb * 100.0,
                            rss_mib(node.pid()),
                            client / t
                        ));
                    }
                }
            }
        }
    }

    latency_rows(&bin, secs, max_rate_1k);

    if std::env::var("FJORD_LOAD_ONLY").is_err() || std::env::var("FJORD_LOAD_RF3").is_ok() {
        replication_rows(&bin, secs, max_rate_1k);
    }

    if let Ok(tansu) = std::env::var("FJORD_PEER_TANSU") {
        peer_rows(&bin, Path::new(&tansu), secs);
    }

    println!("\nidle RSS");
    let node = SingleNode::start(&bin, "");
    std::thread::sleep(Duration::from_secs(1));
    println!("empty node: {:.1} MiB", rss_mib(node.pid()));
    node.create_topic("many", 1000);
    std::thread::sleep(Duration::from_secs(2));
    println!("1,000 partitions: {:.1} MiB", rss_mib(node.pid()));
}
