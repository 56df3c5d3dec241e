//! fjord beside Apache Kafka 4.4 on three nodes (combined broker and controller, replication
//! factor 3, min ISR 2, all on 127.0.0.1), one system after the other, the same clients:
//!
//! - acks=all produce latency (p50/p99/p99.9, Kafka's `ProducerPerformance` at a fixed rate of
//!   1,000, 10,000 and 50,000 msg/s, 100 B records, a 6-partition topic) beside 50 and then
//!   3,000 idle partitions;
//! - failover: SIGKILL of a node that is not the active controller until every partition it
//!   led has another leader; SIGKILL of the active controller until a CreateTopics is
//!   accepted (median of `FJORD_COMPARE_FAILOVERS` runs, default 3);
//! - idle cost at scale: `FJORD_COMPARE_IDLE` partitions (default 5,000) at RF 3, each node's
//!   CPU over 30 idle seconds (`FJORD_COMPARE_QUIET` seconds, default 60, after the partitions
//!   are created) and its RSS. 30,000 cannot run here: the container's hard
//!   open-files limit is 20,000 per process, below what either system holds open for 30,000
//!   replicas.
//!
//! `cargo bench -p fjord-benches --bench kafka_compare_cluster` (builds the release `fjord`,
//! fetches the Kafka jars). `FJORD_COMPARE_SECONDS` sets each latency run (default 10);
//! `FJORD_COMPARE_ONLY_IDLE=1` measures only the idle cost at scale;
//! `FJORD_COMPARE_SYSTEMS` (default `fjord,kafka`) picks the systems run.

use fjord_benches::systems::*;
use fjord_benches::{cpu_seconds, release_fjord, rss_mib};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// The fixed produce rates of the latency grid, in records per second.
const RATES: [u64; 3] = [1_000, 10_000, 50_000];
/// The idle partition counts beside the produced topic.
const IDLE: [i32; 2] = [50, 3_000];
/// Partitions per idle topic.
const PER_TOPIC: i32 = 50;

/// One fixed-rate `ProducerPerformance` run: (achieved msg/s, p50, p99, p99.9 ms).
fn fixed_rate(s: &System, topic: &str, rate: u64, seconds: u64) -> [f64; 4] {
    let out = Command::new(kafka_sh())
        .args([
            "run",
            "org.apache.kafka.tools.ProducerPerformance",
            "--topic",
            topic,
        ])
        .args(["--num-records", &(rate * seconds).to_string()])
        .args(["--record-size", "100", "--throughput", &rate.to_string()])
        .arg("--producer-props")
        .arg(format!("bootstrap.servers={}", s.bootstrap()))
        .args(["acks=all", "linger.ms=1"])
        .stderr(Stdio::null())
        .output()
        .unwrap();
    let nums = fjord_benches::producer_performance_summary(&String::from_utf8_lossy(&out.stdout));
    [nums[1], nums[5], nums[9], nums[11]]
}

fn main() {
    let env = |k: &str, d: u64| {
        std::env::var(k)
            .ok()
            .and_then(|v| v.parse().ok())
            .unwrap_or(d)
    };
    let seconds = env("FJORD_COMPARE_SECONDS", 10);
    let failovers = env("FJORD_COMPARE_FAILOVERS", 3) as usize;
    let idle_at_scale = env("FJORD_COMPARE_IDLE", 5_000) as i32;
    // Only the idle cost at scale (no latency grid, no failovers).
    let only_idle = env("FJORD_COMPARE_ONLY_IDLE", 0) == 1;
    // Seconds between creating the idle partitions and measuring them.
    let quiet = env("FJORD_COMPARE_QUIET", 60);
    // Which systems to run (the idle cost at a scale one of them cannot reach, for example).
    let systems = std::env::var("FJORD_COMPARE_SYSTEMS").unwrap_or_else(|_| "fjord,kafka".into());
    let bin = release_fjord();
    let fetched = Command::new(kafka_sh()).arg("fetch").output().unwrap();
    assert!(fetched.status.success(), "kafka.sh fetch failed");
    println!("fjord vs Kafka 4.4, three combined nodes each, RF 3, min ISR 2, acks=all, 100 B");
    println!(
        "system | idle partitions | target msg/s | achieved msg/s | p50 ms | p99 ms | p99.9 ms"
    );
    let mut failover_lines = Vec::new();
    for name in ["fjord", "kafka"] {
        if !systems.split(',').any(|x| x.trim() == name) {
            continue;
        }
        let mut s = System::start(name, &bin);
        settled(&s);
        assert!(create(&s.broker(0), &["latency".into()], 6));
        settled(&s);
        let mut made = 0;
        for idle in IDLE.into_iter().filter(|_| !only_idle) {
            create_idle(&s, idle - made, made / PER_TOPIC, PER_TOPIC);
            made = idle;
            for rate in RATES {
                let r = fixed_rate(&s, "latency", rate, seconds);
                println!(
                    "{name} | {idle} | {rate} | {:.0} | {:.0} | {:.0} | {:.0}",
                    r[0], r[1], r[2], r[3]
                );
            }
        }
        settled(&s);

        // Broker failover: a node that is not the active controller.
        let mut broker_times = Vec::new();
        let mut controller_times = Vec::new();
        for run in 0..failovers * usize::from(!only_idle) {
            let victim = (active(&s) + 1) % 3;
            let survivor = s.broker((victim + 1) % 3);
            let led: Vec<(String, i32)> = leaders(&survivor)
                .unwrap()
                .into_iter()
                .filter(|(_, _, l)| *l == victim as i32 + 1)
                .map(|(t, p, _)| (t, p))
                .collect();
            s.kill(victim);
            let killed = Instant::now();
            let moved = wait(Duration::from_secs(120), || {
                let now = leaders(&survivor)?;
                led.iter()
                    .all(|(t, p)| {
                        now.iter().any(|(t2, p2, l)| {
                            t2 == t && p2 == p && *l >= 0 && *l != victim as i32 + 1
                        })
                    })
                    .then_some(())
            });
            assert!(
                moved.is_some(),
                "{name}: partitions never moved off node {victim}"
            );
            broker_times.push(killed.elapsed().as_secs_f64());
            s.restart(victim);
            settled(&s);

            // Controller failover.
            let ctl = active(&s);
            let survivor = s.broker((ctl + 1) % 3);
            s.kill(ctl);
            let killed = Instant::now();
            let topic = vec![format!("after-failover-{run}")];
            let accepted = wait(Duration::from_secs(120), || {
                create(&survivor, &topic, 1).then_some(())
            });
            assert!(
                accepted.is_some(),
                "{name}: no CreateTopics after the controller died"
            );
            controller_times.push(killed.elapsed().as_secs_f64());
            s.restart(ctl);
            settled(&s);
        }
        if !only_idle {
            failover_lines.push(format!(
                "{name}: broker SIGKILL until its partitions are led again: median {:.2} s; \
                 controller SIGKILL until CreateTopics is accepted: median {:.2} s ({failovers} runs)",
                median(broker_times),
                median(controller_times)
            ));
        }

        // Idle cost at scale.
        failover_lines.push(idle_cost(&s, name, made, idle_at_scale, quiet));
        drop(s);
    }
    for l in failover_lines {
        println!("{l}");
    }
}

/// The idle cost at scale: `idle_at_scale` partitions (`made` exist), each node's CPU over 30
/// idle seconds `quiet` seconds after creating them, its RSS and open files; or why the system
/// did not get there.
fn idle_cost(s: &System, name: &str, made: i32, idle_at_scale: i32, quiet: u64) -> String {
    let scale_start = made / PER_TOPIC;
    let pids: Vec<u32> = (0..3).filter_map(|i| s.pid(i)).collect();
    if let Err(e) = try_create_idle(s, idle_at_scale - made, scale_start, PER_TOPIC) {
        let state: Vec<String> = pids
            .iter()
            .map(|p| {
                if alive(*p) {
                    format!("{} open files", open_files(*p))
                } else {
                    "exited".into()
                }
            })
            .collect();
        return format!(
            "{name}: {idle_at_scale} partitions at RF 3 not reached: {e}; nodes: {}{}",
            state.join(" / "),
            kafka_fd_error(s).map_or(String::new(), |l| format!("; {l}"))
        );
    }
    settled(s);
    // New partitions keep a node busy for a while after they are led (logs opened,
    // fetch sessions filled, checkpoints written): measure once that is over.
    std::thread::sleep(Duration::from_secs(quiet));
    let cpu0: Vec<f64> = pids.iter().map(|p| cpu_seconds(*p)).collect();
    let idle_for = Duration::from_secs(30);
    std::thread::sleep(idle_for);
    let cpu: Vec<String> = pids
        .iter()
        .zip(&cpu0)
        .map(|(p, c)| {
            format!(
                "{:.1}%",
                (cpu_seconds(*p) - c) * 100.0 / idle_for.as_secs_f64()
            )
        })
        .collect();
    let rss: Vec<String> = pids.iter().map(|p| format!("{:.0}", rss_mib(*p))).collect();
    let fds: Vec<String> = pids.iter().map(|p| open_files(*p).to_string()).collect();
    format!(
        "{name}: {idle_at_scale} partitions at RF 3, idle 30 s ({quiet} s after creating them): CPU per node {}, RSS MiB per node {}, open files per node {}",
        cpu.join(" / "),
        rss.join(" / "),
        fds.join(" / ")
    )
}
