//! Streams groups (KIP-1071) on fjord beside Apache Kafka 4.4, one node each: eight Kafka
//! Streams 4.4 instances (one thread each) of a 16-task counting application, and the time
//! they take to rebalance after one leaves (closed with LEAVE_GROUP) and after one joins, until
//! every instance is RUNNING and the tasks are owned once each (`benches/streams/
//! Rebalance.java`). Measured with `group.protocol=streams` (the broker assigns) and `classic`
//! (the consumer's rebalance with Streams' own assignor). Run: `cargo bench -p fjord-benches
//! --bench streams_compare` (it builds the release `fjord`, fetches the Kafka jars and asks
//! Maven for the Kafka Streams classpath). `FJORD_STREAMS_ROUNDS` sets the rounds (default 5;
//! the median is reported).

use fjord_benches::{kafka_sh, release_fjord, root, start_fjord, start_kafka, Broker};
use std::process::Command;

/// The application instances.
const INSTANCES: usize = 8;

/// The classpath of the Java suite (kafka-streams 4.4 and the clients), from Maven.
fn streams_classpath() -> String {
    let out = root().join("target/streams-bench.classpath");
    let status = Command::new("mvn")
        .args(["-q", "-B", "-f"])
        .arg(root().join("tests/java/pom.xml"))
        .arg("dependency:build-classpath")
        .arg(format!("-Dmdep.outputFile={}", out.display()))
        .status()
        .expect("mvn");
    assert!(status.success(), "mvn dependency:build-classpath failed");
    std::fs::read_to_string(out).expect("classpath")
}

/// One run of `rounds` leave/join rounds: (each round's (leave, join) ms, median leave,
/// median join).
fn rebalances(b: &Broker, cp: &str, protocol: &str, rounds: usize) -> (Vec<(u64, u64)>, u64, u64) {
    let out = Command::new("java")
        .arg(format!(
            "-Dlog4j2.configurationFile={}",
            root().join("tests/kafka/log4j2.properties").display()
        ))
        .arg("-cp")
        .arg(cp)
        .arg(root().join("benches/streams/Rebalance.java"))
        .args([
            &b.bootstrap,
            protocol,
            &INSTANCES.to_string(),
            &rounds.to_string(),
        ])
        .output()
        .expect("java");
    let text = String::from_utf8_lossy(&out.stdout);
    let numbers = |l: &str| -> Vec<u64> {
        l.split_whitespace()
            .filter_map(|x| x.parse().ok())
            .collect()
    };
    let each: Vec<(u64, u64)> = text
        .lines()
        .filter(|l| l.starts_with("leave "))
        .map(|l| {
            let n = numbers(l);
            (n[0], n[1])
        })
        .collect();
    let median = text
        .lines()
        .find(|l| l.starts_with("median "))
        .map(numbers)
        .unwrap_or_else(|| {
            panic!(
                "no result from Rebalance.java ({protocol} on {}):\n{text}\n{}",
                b.name,
                String::from_utf8_lossy(&out.stderr)
            )
        });
    (each, median[0], median[1])
}

fn main() {
    let rounds: usize = std::env::var("FJORD_STREAMS_ROUNDS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(5);
    let bin = release_fjord();
    let fetched = Command::new(kafka_sh()).arg("fetch").output().unwrap();
    assert!(fetched.status.success(), "kafka.sh fetch failed");
    let cp = streams_classpath();
    println!(
        "streams rebalances, fjord vs Kafka 4.4, one node each, {INSTANCES} instances, 16 tasks, {rounds} rounds"
    );
    println!(
        "system | group.protocol | leave: median ms | join: median ms | each round (leave/join ms)"
    );
    for which in ["fjord", "kafka"] {
        let b = if which == "fjord" {
            start_fjord(&bin)
        } else {
            start_kafka(21_800)
        };
        for protocol in ["streams", "classic"] {
            let (each, leave, join) = rebalances(&b, &cp, protocol, rounds);
            let rounds: Vec<String> = each.iter().map(|(l, j)| format!("{l}/{j}")).collect();
            println!(
                "{} | {protocol} | {leave} | {join} | {}",
                b.name,
                rounds.join(" ")
            );
        }
    }
}
