//! Share groups (KIP-932) on fjord beside Apache Kafka 4.4, one node each, alternating: a
//! 4-partition topic of 100-byte records, read by Kafka's own `ShareConsumerPerformance`
//! (the Java `KafkaShareConsumer`, implicit acknowledgement) with 1, 4 and 16 consumers in a
//! fresh share group each; every row gives records/s and the broker's CPU seconds per million
//! records. Then the Java share consumer's acknowledgement latency (`benches/share/
//! AckLatency.java`: explicit ACCEPT of each poll, the commitSync that makes it durable timed),
//! p50 and p99. Run: `cargo bench -p fjord-benches --bench share_compare` (it builds the
//! release `fjord` and fetches the Kafka jars). `FJORD_SHARE_RECORDS` sets the record count
//! (default 400,000).

use fjord_benches::{
    cpu_seconds, kafka_sh, kafka_tool, release_fjord, root, rss_mib, start_fjord, start_kafka,
    Broker,
};
use std::process::Command;

/// The topic's partitions.
const PARTITIONS: i32 = 4;
/// The consumer counts compared.
const CONSUMERS: [usize; 3] = [1, 4, 16];

fn bootstrap_arg(b: &Broker) -> Vec<String> {
    vec!["--bootstrap-server".into(), b.bootstrap.clone()]
}

/// Creates the topic and fills it with `n` 100-byte records (Kafka's ProducerPerformance).
fn fill(b: &Broker, topic: &str, n: u64) {
    let mut args = bootstrap_arg(b);
    args.extend([
        "--create".into(),
        "--topic".into(),
        topic.into(),
        "--partitions".into(),
        PARTITIONS.to_string(),
    ]);
    kafka_tool("org.apache.kafka.tools.TopicCommand", &args);
    kafka_tool(
        "org.apache.kafka.tools.ProducerPerformance",
        &[
            "--topic".into(),
            topic.into(),
            "--num-records".into(),
            n.to_string(),
            "--record-size".into(),
            "100".into(),
            "--throughput".into(),
            "-1".into(),
            "--producer-props".into(),
            format!("bootstrap.servers={}", b.bootstrap),
            "acks=1".into(),
            "linger.ms=5".into(),
            "batch.size=262144".into(),
        ],
    );
}

/// A share group that starts at the beginning of the log.
fn earliest_group(b: &Broker, group: &str) {
    let mut args = bootstrap_arg(b);
    args.extend([
        "--alter".into(),
        "--entity-type".into(),
        "groups".into(),
        "--entity-name".into(),
        group.into(),
        "--add-config".into(),
        "share.auto.offset.reset=earliest".into(),
    ]);
    kafka_tool("org.apache.kafka.tools.ConfigCommand", &args);
}

/// One ShareConsumerPerformance run of `threads` consumers over `n` records: records/s.
fn share_perf(b: &Broker, topic: &str, group: &str, threads: usize, n: u64) -> f64 {
    let mut args = bootstrap_arg(b);
    args.extend([
        "--topic".into(),
        topic.into(),
        "--group".into(),
        group.into(),
        "--num-records".into(),
        n.to_string(),
        "--threads".into(),
        threads.to_string(),
        "--timeout".into(),
        "30000".into(),
        "--hide-header".into(),
    ]);
    let out = kafka_tool("org.apache.kafka.tools.ShareConsumerPerformance", &args);
    // start.time, end.time, data.consumed.in.MB, MB.sec, nMsg.sec, data.consumed.in.nMsg,
    // fetch.time.ms
    let f = fjord_benches::summary_line(&out, "ShareConsumerPerformance");
    f[4]
}

/// The Java share consumer's commitSync latency over `n` records: (records, p50, p99 ms).
fn ack_latency(b: &Broker, topic: &str, group: &str, n: u64) -> (u64, f64, f64) {
    let libs = root().join("target/kafka-4.4.0/libs/*");
    let out = Command::new("java")
        .arg("-cp")
        .arg(libs)
        .arg(root().join("benches/share/AckLatency.java"))
        .args([&b.bootstrap, topic, group, &n.to_string()])
        .output()
        .expect("java");
    let text = String::from_utf8_lossy(&out.stdout);
    let f: Vec<f64> = text
        .lines()
        .last()
        .unwrap_or("")
        .split_whitespace()
        .map(|x| x.parse().unwrap_or(0.0))
        .collect();
    assert!(f.len() == 3, "no answer from AckLatency: {text}");
    (f[0] as u64, f[1], f[2])
}

fn main() {
    let n: u64 = std::env::var("FJORD_SHARE_RECORDS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(400_000);
    let bin = release_fjord();
    let fetched = Command::new(kafka_sh()).arg("fetch").output().unwrap();
    assert!(fetched.status.success(), "kafka.sh fetch failed");
    println!(
        "share groups, fjord vs Kafka 4.4, one node each, {n} records of 100 B on {PARTITIONS} partitions"
    );
    println!("system | consumers | records/s | broker cpu-s per M records | broker RSS MiB");
    let mut latencies = Vec::new();
    for which in ["fjord", "kafka"] {
        let b = if which == "fjord" {
            start_fjord(&bin)
        } else {
            start_kafka(21_700)
        };
        fill(&b, "share-perf", n);
        for threads in CONSUMERS {
            let group = format!("perf-{threads}");
            earliest_group(&b, &group);
            let cpu0 = cpu_seconds(b.pid);
            let rate = share_perf(&b, "share-perf", &group, threads, n);
            let cpu = cpu_seconds(b.pid) - cpu0;
            println!(
                "{} | {threads} | {rate:.0} | {:.2} | {:.0}",
                b.name,
                cpu / (n as f64 / 1e6),
                rss_mib(b.pid)
            );
        }
        earliest_group(&b, "ack-latency");
        latencies.push((
            b.name,
            ack_latency(&b, "share-perf", "ack-latency", n.min(100_000)),
        ));
    }
    println!("system | records acknowledged | commitSync p50 ms | p99 ms");
    for (name, (records, p50, p99)) in latencies {
        println!("{name} | {records} | {p50:.2} | {p99:.2}");
    }
}
