//! Replication latency and failover on three combined release nodes on 127.0.0.1 (replication
//! factor 3, min ISR 2, default settings), with librdkafka clients:
//! - acks=all latency (p50, p99, p99.9) of 1 KiB records to one partition at 1,000 and 10,000
//!   msg/s (`linger.ms=0`, after a 1 s warm-up) with a given number of idle RF-3 partitions on
//!   the cluster, each node's idle CPU and RSS at that count, and the highest paced rate whose
//!   producer queue stays flat (`linger.ms=5`, librdkafka's default: every record
//!   acknowledged within the run plus 5%, p99.9 under 100 ms);
//! - from SIGKILL of a broker process (not the active controller) until its partitions are
//!   led elsewhere, as a surviving broker's Metadata says;
//! - from SIGKILL of the active controller until a CreateTopics is accepted, through
//!   librdkafka's admin client and through `fjord kafka-topics`.
//!
//! `cargo build --release --bin fjord && cargo bench -p fjord-benches --bench replication`.
//! `FJORD_REPL_IDLE=50,3000` sets the idle partition counts (30,000 works within a limit of
//! 20,000 open files: a node keeps at most three quarters of it as segment files open, closing
//! idle ones); `FJORD_REPL_SECONDS` each
//! latency run's length (10); `FJORD_REPL_RUNS` the failover runs of each kind (5);
//! `FJORD_REPL_ONLY=latency|failover` one half; `FJORD_REPL_DUMP=DIR` keeps each latency
//! run's figures in completion order.

use fjord_benches::{call, cpu_seconds, percentile, root, rss_mib, Cluster};
use fjord_protocol::generated::metadata_request::MetadataRequest;
use fjord_protocol::{RequestBody, ResponseBody};
use rdkafka::admin::{AdminClient, AdminOptions, NewTopic, TopicReplication};
use rdkafka::client::DefaultClientContext;
use rdkafka::config::ClientConfig;
use std::path::Path;
use std::process::Command;
use std::time::{Duration, Instant};

fn env_or<T: std::str::FromStr>(key: &str, default: T) -> T {
    std::env::var(key)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

fn main() {
    let bin = root().join("target/release/fjord");
    assert!(
        bin.exists(),
        "build the binary first: cargo build --release --bin fjord"
    );
    let only = std::env::var("FJORD_REPL_ONLY").unwrap_or_default();
    if only != "failover" {
        latency(&bin);
    }
    if only != "latency" {
        failover(&bin);
    }
}

/// One paced acks=all run to partition 0 of `topic` with `linger.ms` as given: (acknowledged,
/// failed, sorted latencies in µs, seconds until the last acknowledgement).
fn paced(
    bootstrap: &str,
    topic: &str,
    rate: f64,
    secs: f64,
    linger: &str,
) -> (u64, u64, Vec<u64>, f64) {
    let client = [("linger.ms", linger)];
    let start = Instant::now();
    let (acked, failed, mut lat) =
        fjord_benches::produce(&client, bootstrap, topic, 1, 1024, "all", secs, Some(rate));
    let took = start.elapsed().as_secs_f64();
    // FJORD_REPL_DUMP=DIR keeps each run's latencies in completion order (one µs figure a
    // line), to see when the slow ones happen.
    if let Ok(dir) = std::env::var("FJORD_REPL_DUMP") {
        let name = format!("{dir}/{topic}-{rate}-{linger}.txt");
        let text: String = lat.iter().map(|l| format!("{l}\n")).collect();
        let _ = std::fs::write(name, text);
    }
    lat.sort_unstable();
    (acked, failed, lat, took)
}

/// Every partition of the `idle-*` topics: (how many, how many with three in-sync replicas).
async fn idle_state(addr: &str) -> Option<(usize, usize)> {
    let ResponseBody::Metadata(m) = call(
        addr,
        RequestBody::Metadata(MetadataRequest {
            topics: None,
            ..Default::default()
        }),
        12,
    )
    .await?
    else {
        return None;
    };
    let parts: Vec<_> = m
        .topics
        .iter()
        .filter(|t| t.name.as_deref().is_some_and(|n| n.starts_with("idle-")))
        .flat_map(|t| &t.partitions)
        .collect();
    let full = parts
        .iter()
        .filter(|p| p.leader_id >= 0 && p.isr_nodes.len() == 3)
        .count();
    Some((parts.len(), full))
}

/// Length of one idle CPU measurement.
const IDLE_WINDOW: Duration = Duration::from_secs(5);
/// The most idle windows measured before the last one is reported anyway.
const IDLE_WINDOWS_MAX: usize = 24;

/// Each node's idle CPU (% of a core) once it has settled (the work of creating partitions
/// and catching up done): 5-s windows until two running totals agree within 0.5 points or
/// 20%; also how long that took.
fn idle_cpu(cluster: &Cluster) -> (Duration, Vec<f64>) {
    let start = Instant::now();
    let mut previous: Option<Vec<f64>> = None;
    for _ in 0..IDLE_WINDOWS_MAX {
        let cpu0: Vec<f64> = (0..3)
            .map(|i| cluster.pid(i).map_or(0.0, cpu_seconds))
            .collect();
        std::thread::sleep(IDLE_WINDOW);
        let now: Vec<f64> = (0..3)
            .map(|i| {
                let used = cluster.pid(i).map_or(0.0, cpu_seconds) - cpu0[i];
                used / IDLE_WINDOW.as_secs_f64() * 100.0
            })
            .collect();
        let total = |v: &[f64]| v.iter().sum::<f64>();
        if let Some(p) = &previous {
            let (a, b) = (total(p), total(&now));
            if (a - b).abs() <= 0.5_f64.max(0.2 * a.max(b)) {
                return (start.elapsed(), now);
            }
        }
        previous = Some(now);
    }
    (start.elapsed(), previous.unwrap_or_default())
}

fn latency(bin: &Path) {
    let secs: f64 = env_or("FJORD_REPL_SECONDS", 10.0);
    let mut counts: Vec<usize> = std::env::var("FJORD_REPL_IDLE")
        .unwrap_or_else(|_| "50,3000".into())
        .split(',')
        .filter_map(|c| c.trim().parse().ok())
        .collect();
    counts.sort_unstable();
    let rt = tokio::runtime::Runtime::new().unwrap();
    let cluster = Cluster::start(bin, "");
    cluster.create_topic("lat");
    println!("acks=all, 1 KiB records to one RF-3 partition, three nodes on this machine");
    let mut created = 0usize;
    let mut topic_no = 0usize;
    for target in counts {
        // Idle RF-3 topics of up to 100 partitions each, ten topics per request.
        let mut batch = Vec::new();
        while created < target {
            let n = (target - created).min(100);
            batch.push((format!("idle-{topic_no}"), n as i32));
            topic_no += 1;
            created += n;
            if batch.len() == 10 || created == target {
                for (t, n) in std::mem::take(&mut batch) {
                    cluster.create_topics(&[t], n);
                }
            }
        }
        let start = Instant::now();
        loop {
            let s = rt.block_on(idle_state(&cluster.brokers[0]));
            if s.is_some_and(|(all, full)| all == created && full == created) {
                break;
            }
            assert!(
                start.elapsed() < Duration::from_secs(600),
                "idle partitions never in sync: {s:?}"
            );
            std::thread::sleep(Duration::from_millis(200));
        }
        let (settled, busy) = idle_cpu(&cluster);
        let idle: Vec<String> = (0..3)
            .map(|i| {
                let pid = cluster.pid(i).expect("running");
                format!(
                    "node {}: {:.2}% of a core, {:.1} MiB",
                    i + 1,
                    busy[i],
                    rss_mib(pid)
                )
            })
            .collect();
        println!(
            "\n{created} idle partitions (RF 3), idle (settled {:.0} s after the last was in sync): {}",
            settled.as_secs_f64(),
            idle.join("; ")
        );
        for rate in [1_000.0, 10_000.0] {
            paced(&cluster.bootstrap, "lat", rate, 1.0, "0");
            let (acked, failed, lat, _) = paced(&cluster.bootstrap, "lat", rate, secs, "0");
            println!(
                "  {rate:>6.0} msg/s: p50 {:.2} ms, p99 {:.2} ms, p99.9 {:.2} ms ({acked} acknowledged, {failed} failed)",
                percentile(&lat, 0.50),
                percentile(&lat, 0.99),
                percentile(&lat, 0.999),
            );
        }
        let mut best = 0.0;
        for rate in [20_000.0, 35_000.0, 50_000.0, 70_000.0, 100_000.0] {
            let (acked, failed, lat, took) = paced(&cluster.bootstrap, "lat", rate, secs, "5");
            let flat = failed == 0
                && acked as f64 >= rate * secs * 0.99
                && took <= secs * 1.05
                && percentile(&lat, 0.999) < 100.0;
            println!(
                "  paced {rate:>6.0} msg/s (linger.ms=5): {} ({:.0} msg/s acknowledged over {took:.1} s, p99 {:.2} ms, p99.9 {:.2} ms)",
                if flat { "flat" } else { "falls behind" },
                acked as f64 / took,
                percentile(&lat, 0.99),
                percentile(&lat, 0.999),
            );
            if !flat {
                break;
            }
            best = rate;
        }
        println!("  highest paced rate with a flat queue: {best:.0} msg/s");
    }
}

/// The active controller's node id, as the live nodes' controllers say.
async fn active_controller(cluster: &Cluster) -> Option<i32> {
    let live = (0..3)
        .filter(|i| cluster.pid(*i).is_some())
        .map(|i| cluster.controllers[i].as_str());
    fjord_benches::active_controller(live).await
}

/// Each partition's leader of `topic`, as broker `addr` sees it (empty when it cannot say).
async fn leaders_of(addr: &str, topic: &str) -> Vec<i32> {
    use fjord_protocol::generated::metadata_request::MetadataRequestTopic;
    let Some(ResponseBody::Metadata(m)) = call(
        addr,
        RequestBody::Metadata(MetadataRequest {
            topics: Some(vec![MetadataRequestTopic {
                name: Some(topic.into()),
                ..Default::default()
            }]),
            ..Default::default()
        }),
        12,
    )
    .await
    else {
        return Vec::new();
    };
    m.topics
        .first()
        .map(|t| t.partitions.iter().map(|p| p.leader_id).collect())
        .unwrap_or_default()
}

/// Whether every partition of `topic`, as broker `addr` sees it, is led by a node other than
/// `dead` (and led at all).
async fn led_without(addr: &str, topic: &str, dead: i32) -> bool {
    let leaders = leaders_of(addr, topic).await;
    !leaders.is_empty() && leaders.iter().all(|l| *l >= 0 && *l != dead)
}

fn summary(name: &str, mut times: Vec<Duration>) {
    times.sort();
    if times.is_empty() {
        return;
    }
    println!(
        "{name}: median {:?}, min {:?}, max {:?} ({} runs)",
        times[times.len() / 2],
        times[0],
        times[times.len() - 1],
        times.len()
    );
}

fn failover(bin: &Path) {
    let runs: usize = env_or("FJORD_REPL_RUNS", 5);
    let rt = tokio::runtime::Runtime::new().unwrap();
    let mut cluster = Cluster::start(bin, "");
    cluster.create_topics(&["fo".into()], 30);
    cluster.wait_full("fo", Duration::from_secs(120));
    println!("\nfailover, three combined nodes, 30 RF-3 partitions");
    let active = |c: &Cluster| {
        let deadline = Instant::now() + Duration::from_secs(60);
        loop {
            if let Some(id) = rt.block_on(active_controller(c)) {
                return id;
            }
            assert!(Instant::now() < deadline, "no active controller");
            std::thread::sleep(Duration::from_millis(20));
        }
    };
    // Back: its broker listener opens only once it is registered, unfenced and caught up
    // (until then the ISRs may still name it: it is fenced only after the grace), then every
    // partition has it in sync again.
    let rejoin = |c: &mut Cluster, i: usize| {
        c.start_node(i);
        let deadline = Instant::now() + Duration::from_secs(120);
        while std::net::TcpStream::connect(&c.brokers[i]).is_err() {
            assert!(
                Instant::now() < deadline,
                "node {} never became ready",
                i + 1
            );
            std::thread::sleep(Duration::from_millis(50));
        }
        c.wait_full("fo", Duration::from_secs(120));
        std::thread::sleep(Duration::from_secs(2));
    };

    // Leadership back to the preferred replicas (a restarted node leads nothing until then).
    let preferred = |c: &Cluster| {
        let ok = Command::new(bin)
            .args(["kafka-leader-election", "--bootstrap-server", &c.bootstrap])
            .args(["--election-type", "PREFERRED", "--all-topic-partitions"])
            .output()
            .unwrap();
        assert!(
            ok.status.success(),
            "{}",
            String::from_utf8_lossy(&ok.stderr)
        );
    };
    // A broker process crash: its partitions led elsewhere.
    let mut broker_crash = Vec::new();
    for _ in 0..runs {
        preferred(&cluster);
        let controller = active(&cluster);
        let victim = (1..=3).find(|id| *id != controller).unwrap();
        let i = (victim - 1) as usize;
        let leads = rt
            .block_on(leaders_of(&cluster.brokers[i], "fo"))
            .iter()
            .filter(|l| **l == victim)
            .count();
        assert!(leads > 0, "broker {victim} leads no partition of fo");
        let survivor = cluster.brokers[(i + 1) % 3].clone();
        cluster.kill_node(i);
        let killed = Instant::now();
        while !rt.block_on(led_without(&survivor, "fo", victim)) {
            assert!(killed.elapsed() < Duration::from_secs(60), "never moved");
            std::thread::sleep(Duration::from_millis(5));
        }
        broker_crash.push(killed.elapsed());
        rejoin(&mut cluster, i);
    }
    summary(
        "SIGKILL of a broker process until its partitions are led elsewhere",
        broker_crash,
    );

    // The active controller's crash, through librdkafka's admin client.
    let admin: AdminClient<DefaultClientContext> = ClientConfig::new()
        .set("bootstrap.servers", &cluster.bootstrap)
        .create()
        .unwrap();
    let mut through_librdkafka = Vec::new();
    for run in 0..runs {
        let controller = active(&cluster);
        let i = (controller - 1) as usize;
        cluster.kill_node(i);
        let killed = Instant::now();
        let topic = format!("admin-{run}");
        loop {
            let new = NewTopic::new(&topic, 1, TopicReplication::Fixed(2));
            let options = AdminOptions::new()
                .operation_timeout(Some(Duration::from_secs(5)))
                .request_timeout(Some(Duration::from_secs(5)));
            let r = rt.block_on(admin.create_topics(&[new], &options));
            if r.is_ok_and(|r| r.iter().all(|t| t.is_ok())) {
                break;
            }
            assert!(
                killed.elapsed() < Duration::from_secs(120),
                "never accepted"
            );
        }
        through_librdkafka.push(killed.elapsed());
        rejoin(&mut cluster, i);
    }
    summary(
        "SIGKILL of the active controller until CreateTopics is accepted (librdkafka admin)",
        through_librdkafka,
    );

    // The same through fjord's tool.
    let mut through_tool = Vec::new();
    for run in 0..runs {
        let controller = active(&cluster);
        let i = (controller - 1) as usize;
        let survivors: Vec<String> = (0..3)
            .filter(|j| *j != i)
            .map(|j| cluster.brokers[j].clone())
            .collect();
        cluster.kill_node(i);
        let killed = Instant::now();
        let topic = format!("tool-{run}");
        loop {
            let out = Command::new(bin)
                .args(["kafka-topics", "--bootstrap-server"])
                .arg(survivors.join(","))
                .args(["--create", "--topic", &topic, "--partitions", "1"])
                .args(["--replication-factor", "2"])
                .output()
                .unwrap();
            if out.status.success() {
                break;
            }
            assert!(
                killed.elapsed() < Duration::from_secs(120),
                "never accepted"
            );
        }
        through_tool.push(killed.elapsed());
        rejoin(&mut cluster, i);
    }
    summary(
        "SIGKILL of the active controller until CreateTopics is accepted (fjord kafka-topics)",
        through_tool,
    );
}
