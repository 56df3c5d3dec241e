//! fjord beside Apache Kafka 4.4 on this machine, one run, alternating, the same clients: a
//! release `fjord` single node and a Kafka 4.4 combined node (`tests/kafka/kafka.sh`, its jars
//! from Maven Central). For 100 B and 1 KiB records at acks=1 and acks=all: Kafka's own
//! `ProducerPerformance` and `ConsumerPerformance` (Java client 4.4), and the librdkafka
//! producer (the `rdkafka` crate); each row gives throughput, produce latency percentiles, the
//! broker's CPU seconds per GB moved and its RSS. Then each system's time from process start
//! to the first acknowledged produce. Run: `cargo bench -p fjord-benches --bench
//! kafka_compare` (it builds the release `fjord` and fetches the Kafka jars).
//! `FJORD_COMPARE_RECORDS` scales the record counts (default 1.0).

use fjord_benches::{
    cpu_seconds, kafka_sh, kafka_tool, release_fjord, rss_mib, start_fjord, start_kafka, Broker,
};
use std::path::Path;
use std::process::Command;
use std::time::{Duration, Instant};

/// The record counts of a 100 B and a 1 KiB run.
const RECORDS: [(usize, u64); 2] = [(100, 2_000_000), (1024, 400_000)];

/// Creates a one-partition topic with Kafka's `kafka-topics`.
fn create_topic(b: &Broker, topic: &str) {
    let _ = kafka_tool(
        "org.apache.kafka.tools.TopicCommand",
        &[
            "--bootstrap-server".into(),
            b.bootstrap.clone(),
            "--create".into(),
            "--topic".into(),
            topic.into(),
            "--partitions".into(),
            "1".into(),
        ],
    );
}

/// One `ProducerPerformance` run: (records/s, MB/s, p50, p99, p99.9 ms).
fn producer_perf(b: &Broker, topic: &str, size: usize, n: u64, acks: &str) -> [f64; 5] {
    let out = kafka_tool(
        "org.apache.kafka.tools.ProducerPerformance",
        &[
            "--topic".into(),
            topic.into(),
            "--num-records".into(),
            n.to_string(),
            "--record-size".into(),
            size.to_string(),
            "--throughput".into(),
            "-1".into(),
            "--producer-props".into(),
            format!("bootstrap.servers={}", b.bootstrap),
            format!("acks={acks}"),
            "linger.ms=5".into(),
            "batch.size=262144".into(),
        ],
    );
    let nums = fjord_benches::producer_performance_summary(&out);
    // n, rate, MB/s, avg, max, p50, 50, p95, 95, p99, 99, p999, 99.9
    [nums[1], nums[2], nums[5], nums[9], nums[11]]
}

/// One `ConsumerPerformance` run: (MB/s, records/s).
fn consumer_perf(b: &Broker, topic: &str, n: u64) -> [f64; 2] {
    let out = kafka_tool(
        "org.apache.kafka.tools.ConsumerPerformance",
        &[
            "--bootstrap-server".into(),
            b.bootstrap.clone(),
            "--topic".into(),
            topic.into(),
            "--messages".into(),
            n.to_string(),
            "--hide-header".into(),
        ],
    );
    // start.time, end.time, data.consumed.in.MB, MB.sec, data.consumed.in.nMsg, nMsg.sec, ...
    let f = fjord_benches::summary_line(&out, "ConsumerPerformance");
    [f[3], f[5]]
}

/// Seconds from spawning a fjord node or a Kafka node until a produce is acknowledged.
fn time_to_first_ack(name: &str, bin: &Path, base: u16) -> f64 {
    let start = Instant::now();
    let broker = if name == "fjord" {
        start_fjord(bin)
    } else {
        start_kafka(base)
    };
    let producer: rdkafka::producer::FutureProducer = rdkafka::ClientConfig::new()
        .set("bootstrap.servers", &broker.bootstrap)
        .set("acks", "all")
        .set("message.timeout.ms", "120000")
        .create()
        .unwrap();
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    // The topic is auto-created on the first produce, on both systems.
    let sent = rt.block_on(producer.send(
        rdkafka::producer::FutureRecord::<(), [u8]>::to("first-ack").payload(b"x"),
        Duration::from_secs(120),
    ));
    assert!(sent.is_ok(), "{name}: no acknowledged produce: {sent:?}");
    start.elapsed().as_secs_f64()
}

fn row(cells: &[String]) {
    println!("{}", cells.join(" | "));
}

fn main() {
    let scale: f64 = std::env::var("FJORD_COMPARE_RECORDS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(1.0);
    let bin = release_fjord();
    let fetched = Command::new(kafka_sh()).arg("fetch").output().unwrap();
    assert!(fetched.status.success(), "kafka.sh fetch failed");
    let base = 21_500;
    println!("fjord vs Kafka 4.4, one node each (Kafka: G1, -Xmx768m), alternating runs");
    row(&[
        "system".into(),
        "size".into(),
        "acks".into(),
        "client".into(),
        "msg/s".into(),
        "MB/s".into(),
        "p50 ms".into(),
        "p99 ms".into(),
        "p99.9 ms".into(),
        "consume MB/s".into(),
        "broker cpu-s/GB".into(),
        "broker RSS MiB".into(),
    ]);
    for (size, records) in RECORDS {
        let n = ((records as f64) * scale) as u64;
        for acks in ["1", "all"] {
            for which in ["fjord", "kafka"] {
                let b = if which == "fjord" {
                    start_fjord(&bin)
                } else {
                    start_kafka(base)
                };
                let topic = format!("perf-{size}-{acks}");
                create_topic(&b, &topic);
                let cpu0 = cpu_seconds(b.pid);
                let p = producer_perf(&b, &topic, size, n, acks);
                let c = consumer_perf(&b, &topic, n);
                let gb = (n as f64 * size as f64) / 1e9;
                let cpu = (cpu_seconds(b.pid) - cpu0) / (2.0 * gb);
                row(&[
                    b.name.into(),
                    size.to_string(),
                    acks.into(),
                    "java 4.4".into(),
                    format!("{:.0}", p[0]),
                    format!("{:.1}", p[1]),
                    format!("{:.0}", p[2]),
                    format!("{:.0}", p[3]),
                    format!("{:.0}", p[4]),
                    format!("{:.1}", c[0]),
                    format!("{cpu:.1}"),
                    format!("{:.0}", rss_mib(b.pid)),
                ]);
                // The librdkafka producer, same node, a topic of its own.
                let topic = format!("rd-{size}-{acks}");
                create_topic(&b, &topic);
                let cpu0 = cpu_seconds(b.pid);
                let secs = 5.0;
                let (acked, _, mut lat) = fjord_benches::produce(
                    &[],
                    &b.bootstrap,
                    &topic,
                    1,
                    size,
                    if acks == "all" { "-1" } else { "1" },
                    secs,
                    None,
                );
                lat.sort_unstable();
                let gb = acked as f64 * size as f64 / 1e9;
                let t = fjord_benches::consume(&[], &b.bootstrap, &topic, 1, acked);
                let cpu = (cpu_seconds(b.pid) - cpu0) / (2.0 * gb).max(1e-9);
                let ms = |q: f64| fjord_benches::percentile(&lat, q);
                row(&[
                    b.name.into(),
                    size.to_string(),
                    acks.into(),
                    "librdkafka".into(),
                    format!("{:.0}", acked as f64 / secs),
                    format!("{:.1}", gb * 1000.0 / secs),
                    format!("{:.0}", ms(0.5)),
                    format!("{:.0}", ms(0.99)),
                    format!("{:.0}", ms(0.999)),
                    format!("{:.1}", gb * 1000.0 / t),
                    format!("{cpu:.1}"),
                    format!("{:.0}", rss_mib(b.pid)),
                ]);
            }
        }
    }
    for which in ["fjord", "kafka"] {
        println!(
            "{which}: {:.2} s from process start to the first acknowledged produce",
            time_to_first_ack(which, &bin, base)
        );
    }
}
