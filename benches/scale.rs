//! fjord beside Apache Kafka 4.4 at scale on this machine: three nodes with both roles,
//! replication factor 3 (min ISR 2), `SCALE_PARTITIONS` partitions (default 30,000; topics of
//! 1,000), one system after the other. For each:
//!
//! - **create**: CreateTopics of every partition (5,000 per request) until a broker's Metadata
//!   shows every one led, then until every node holds its replica of every one on disk;
//! - **idle**: each node's CPU over `SCALE_IDLE_SECONDS` (default 30) once every ISR is full,
//!   its RSS and its open files;
//! - **propagation**: a probe partition's leader is moved 200 times (a reordering
//!   AlterPartitionReassignments, then a PREFERRED ElectLeaders); each sample is the time from
//!   the election's answer until every broker's Metadata names the new leader, each asked
//!   every 5 ms (p50, p99; a sample over 50 ms is printed with when each node saw it);
//! - **broker failover**: SIGKILL of a node that is not the active controller until a surviving
//!   broker shows every partition led and none by the killed node;
//! - **restart**: that node started again until its Metadata answers, and until it is back in
//!   every ISR;
//! - **controller failover**: SIGKILL of the active controller until a CreateTopics is
//!   accepted.
//!
//! A system that cannot reach the scale (Kafka holds every segment open, and this container's
//! hard limit is 20,000 open files per process) is reported with how many partitions it led
//! and why it stopped.
//!
//! `cargo bench -p fjord-benches --bench scale` (builds the release `fjord`, fetches the Kafka
//! jars). `SCALE_SYSTEMS` (default `fjord,kafka`) picks the systems; `KAFKA_HEAP` sets Kafka's
//! heap (default here 4g); `FJORD_BIN` runs another `fjord` binary.

use fjord_benches::systems::{
    active, alive, create, kafka_fd_error, leaders, open_files, partitions, rt, wait, System,
};
use fjord_benches::{call, cpu_seconds, release_fjord, rss_mib};
use fjord_protocol::generated::alter_partition_reassignments_request::{
    AlterPartitionReassignmentsRequest, ReassignablePartition, ReassignableTopic,
};
use fjord_protocol::generated::elect_leaders_request::{ElectLeadersRequest, TopicPartitions};
use fjord_protocol::generated::metadata_request::{MetadataRequest, MetadataRequestTopic};
use fjord_protocol::{RequestBody, ResponseBody};
use std::path::PathBuf;
use std::time::{Duration, Instant};

/// Partitions per topic.
const PER_TOPIC: i32 = 1_000;
/// Topics per CreateTopics request (5,000 partitions: under the 10,000 records a user
/// operation may write).
const TOPICS_PER_REQUEST: usize = 5;
/// Leader moves of the probe partition.
const PROBES: usize = 200;

/// What one system measured.
#[derive(Default)]
struct Row {
    led_s: f64,
    on_disk_s: f64,
    idle_cpu_pct: [f64; 3],
    rss_mib: [f64; 3],
    open_files: [usize; 3],
    propagation_ms: (f64, f64),
    broker_failover_s: f64,
    restart_serving_s: f64,
    restart_isr_s: f64,
    controller_failover_s: f64,
}

/// The probe partition's leader and replicas as `addr`'s Metadata has them.
fn probe(addr: &str) -> Option<(i32, Vec<i32>)> {
    let body = RequestBody::Metadata(MetadataRequest {
        topics: Some(vec![MetadataRequestTopic {
            name: Some("probe".into()),
            ..Default::default()
        }]),
        ..Default::default()
    });
    let Some(ResponseBody::Metadata(m)) = rt().block_on(call(addr, body, 12)) else {
        return None;
    };
    let p = m.topics.first()?.partitions.first()?;
    (p.leader_id >= 0 && p.isr_nodes.len() == 3).then(|| (p.leader_id, p.replica_nodes.clone()))
}

/// Moves the probe's leadership to `to` (reordering its replicas so `to` is preferred, then
/// electing the preferred leader); true once the election was answered without error.
fn move_probe(addr: &str, replicas: &[i32], to: i32) -> bool {
    let mut order = vec![to];
    order.extend(replicas.iter().copied().filter(|r| *r != to));
    let reassign = RequestBody::AlterPartitionReassignments(AlterPartitionReassignmentsRequest {
        timeout_ms: 30_000,
        topics: vec![ReassignableTopic {
            name: "probe".into(),
            partitions: vec![ReassignablePartition {
                partition_index: 0,
                replicas: Some(order),
                ..Default::default()
            }],
            ..Default::default()
        }],
        ..Default::default()
    });
    if !matches!(rt().block_on(call(addr, reassign, 0)), Some(ResponseBody::AlterPartitionReassignments(r)) if r.error_code == 0)
    {
        return false;
    }
    let elect = RequestBody::ElectLeaders(ElectLeadersRequest {
        election_type: 0,
        topic_partitions: Some(vec![TopicPartitions {
            topic: "probe".into(),
            partitions: vec![0],
            ..Default::default()
        }]),
        timeout_ms: 30_000,
        ..Default::default()
    });
    matches!(rt().block_on(call(addr, elect, 2)), Some(ResponseBody::ElectLeaders(r)) if r.error_code == 0)
}

/// How often the propagation probe asks each broker's Metadata.
const PROPAGATION_POLL: Duration = Duration::from_millis(5);
/// A propagation sample slower than this is reported with when each broker saw the change.
const SLOW_SAMPLE_MS: f64 = 50.0;

/// The p50 and p99 of `v`, in the same unit.
fn p50_p99(mut v: Vec<f64>) -> (f64, f64) {
    v.sort_by(|a, b| a.total_cmp(b));
    let at = |q: f64| v[((v.len() as f64 - 1.0) * q).round() as usize];
    (at(0.5), at(0.99))
}

/// The probe's leader moves: each sample the time from the election's answer until every
/// broker names the new leader.
fn propagation(s: &System) -> (f64, f64) {
    assert!(create(&s.broker(0), &["probe".into()], 1));
    let (mut leader, replicas) = wait(Duration::from_secs(120), || probe(&s.broker(0)))
        .expect("the probe partition in sync");
    let mut samples = Vec::new();
    for i in 0..PROBES {
        let to = replicas[(replicas.iter().position(|r| *r == leader).unwrap() + 1) % 3];
        if !move_probe(&s.broker(i % 3), &replicas, to) {
            continue;
        }
        let answered = Instant::now();
        let answered_unix_ms = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_millis());
        // When each broker first names the new leader (polled every PROPAGATION_POLL).
        let mut first_seen: [Option<f64>; 3] = [None; 3];
        let mut slowest_call = [0f64; 3];
        let deadline = answered + Duration::from_secs(30);
        while first_seen.iter().any(Option::is_none) && Instant::now() < deadline {
            for (b, seen) in first_seen.iter_mut().enumerate() {
                if seen.is_none() {
                    let asked = Instant::now();
                    let now_leader = probe(&s.broker(b)).map(|(l, _)| l);
                    slowest_call[b] = slowest_call[b].max(asked.elapsed().as_secs_f64() * 1_000.0);
                    if now_leader == Some(to) {
                        *seen = Some(answered.elapsed().as_secs_f64() * 1_000.0);
                    }
                }
            }
            if first_seen.iter().any(Option::is_none) {
                std::thread::sleep(PROPAGATION_POLL);
            }
        }
        if first_seen.iter().all(Option::is_some) {
            let ms = answered.elapsed().as_secs_f64() * 1_000.0;
            if ms > SLOW_SAMPLE_MS {
                let each: Vec<String> = first_seen
                    .iter()
                    .enumerate()
                    .map(|(b, t)| {
                        format!(
                            "node {} {:.1} ms (slowest call {:.1} ms)",
                            b + 1,
                            t.unwrap_or_default(),
                            slowest_call[b]
                        )
                    })
                    .collect();
                eprintln!(
                    "{}: slow propagation sample {ms:.1} ms to leader {to}, answered at unix ms \
                     {answered_unix_ms} ({})",
                    s.name(),
                    each.join(", ")
                );
            }
            samples.push(ms);
            leader = to;
        } else {
            leader = probe(&s.broker(0)).map_or(leader, |p| p.0);
        }
    }
    assert!(
        samples.len() >= PROBES / 2,
        "{}: the probe's leader rarely moved",
        s.name()
    );
    p50_p99(samples)
}

/// Creates `count` partitions; the seconds until all are led and until every node holds its
/// replica of every one on disk, or how far the system got and why it stopped.
fn create_all(s: &System, count: i32) -> Result<(f64, f64), String> {
    let names: Vec<String> = (0..count / PER_TOPIC)
        .map(|i| format!("scale-{i}"))
        .collect();
    let started = Instant::now();
    for chunk in names.chunks(TOPICS_PER_REQUEST) {
        wait(Duration::from_secs(300), || {
            create(&s.broker(0), chunk, PER_TOPIC).then_some(())
        })
        .ok_or_else(|| stopped(s, &format!("topic {} not created in 300 s", chunk[0])))?;
    }
    let want = count as usize;
    let mut led = 0;
    wait(Duration::from_secs(900), || {
        let p = partitions(&s.broker(1))?;
        led = p
            .iter()
            .filter(|(t, _, l, _)| t.starts_with("scale-") && *l >= 0)
            .count();
        (led >= want).then_some(())
    })
    .ok_or_else(|| stopped(s, &format!("{led} of {want} partitions led after 900 s")))?;
    let led_s = started.elapsed().as_secs_f64();
    let mut held = 0;
    wait(Duration::from_secs(900), || {
        held = (0..3).map(|i| s.replicas_on_disk(i, "scale-")).min()?;
        (held >= want).then_some(())
    })
    .ok_or_else(|| {
        stopped(
            s,
            &format!("{held} of {want} replicas on every node after 900 s"),
        )
    })?;
    let on_disk_s = started.elapsed().as_secs_f64();
    // Every ISR full before anything is measured (they start full; a node slow to create
    // its replicas may have left some).
    wait(Duration::from_secs(900), || {
        let p = partitions(&s.broker(1))?;
        p.iter().all(|(_, _, _, isr)| isr.len() == 3).then_some(())
    })
    .ok_or_else(|| stopped(s, "not every ISR full after 900 s"))?;
    Ok((led_s, on_disk_s))
}

/// Why a system stopped: `what`, the nodes still running, and a Kafka node's first
/// open-files error.
fn stopped(s: &System, what: &str) -> String {
    let running = (0..3).filter(|i| s.pid(*i).is_some_and(alive)).count();
    let fd = kafka_fd_error(s).map_or(String::new(), |e| format!("; {e}"));
    format!("{what}; {running} of 3 nodes running{fd}")
}

/// Idle cost once every ISR is full: each node's CPU over `seconds`, RSS and open files.
fn idle(s: &System, seconds: u64, row: &mut Row) {
    let pids: Vec<u32> = (0..3).map(|i| s.pid(i).expect("running")).collect();
    let before: Vec<f64> = pids.iter().map(|p| cpu_seconds(*p)).collect();
    std::thread::sleep(Duration::from_secs(seconds));
    for (i, p) in pids.iter().enumerate() {
        row.idle_cpu_pct[i] = (cpu_seconds(*p) - before[i]) / seconds as f64 * 100.0;
        row.rss_mib[i] = rss_mib(*p);
        row.open_files[i] = open_files(*p);
    }
}

/// SIGKILL of a node that is not the active controller until a surviving broker shows every
/// partition led and none by it; then its restart until it serves and until it is back in
/// every ISR.
fn broker_failover(s: &mut System, count: usize, row: &mut Row) {
    let controller = active(s);
    let victim = (controller + 1) % 3;
    let survivor = (victim + 1) % 3;
    let id = victim as i32 + 1;
    s.kill(victim);
    let killed = Instant::now();
    wait(Duration::from_secs(300), || {
        let p = partitions(&s.broker(survivor))?;
        (p.len() >= count && p.iter().all(|(_, _, l, _)| *l >= 0 && *l != id)).then_some(())
    })
    .expect("every partition led elsewhere");
    row.broker_failover_s = killed.elapsed().as_secs_f64();
    // From the start command: Kafka's `kafka.sh restart` returns only once the node listens.
    let restarted = Instant::now();
    s.restart(victim);
    wait(Duration::from_secs(600), || {
        partitions(&s.broker(victim)).map(|_| ())
    })
    .expect("the restarted node serves");
    row.restart_serving_s = restarted.elapsed().as_secs_f64();
    wait(Duration::from_secs(900), || {
        let p = partitions(&s.broker(survivor))?;
        (p.len() >= count && p.iter().all(|(_, _, _, isr)| isr.contains(&id))).then_some(())
    })
    .expect("the restarted node back in every ISR");
    row.restart_isr_s = restarted.elapsed().as_secs_f64();
}

/// SIGKILL of the active controller until a CreateTopics is accepted.
fn controller_failover(s: &mut System) -> f64 {
    let controller = active(s);
    let via = (controller + 1) % 3;
    s.kill(controller);
    let killed = Instant::now();
    wait(Duration::from_secs(300), || {
        create(&s.broker(via), &["after-failover".into()], 1).then_some(())
    })
    .expect("a CreateTopics accepted");
    killed.elapsed().as_secs_f64()
}

fn run(name: &str, count: i32, idle_seconds: u64) -> Result<Row, String> {
    let bin = std::env::var("FJORD_BIN").map_or_else(|_| release_fjord(), PathBuf::from);
    let mut s = System::start(name, &bin);
    wait(Duration::from_secs(120), || {
        leaders(&s.broker(0)).map(|_| ())
    })
    .ok_or_else(|| stopped(&s, "no Metadata answer in 120 s"))?;
    let mut row = Row::default();
    let (led, on_disk) = create_all(&s, count)?;
    (row.led_s, row.on_disk_s) = (led, on_disk);
    eprintln!(
        "{name}: {count} partitions led in {led:.1} s, on every node's disk in {on_disk:.1} s"
    );
    idle(&s, idle_seconds, &mut row);
    row.propagation_ms = propagation(&s);
    broker_failover(&mut s, count as usize, &mut row);
    row.controller_failover_s = controller_failover(&mut s);
    Ok(row)
}

fn main() {
    let count: i32 = std::env::var("SCALE_PARTITIONS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(30_000);
    let idle_seconds: u64 = std::env::var("SCALE_IDLE_SECONDS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(30);
    let systems = std::env::var("SCALE_SYSTEMS").unwrap_or_else(|_| "fjord,kafka".into());
    if std::env::var("KAFKA_HEAP").is_err() {
        std::env::set_var("KAFKA_HEAP", "4g");
    }
    println!("scale: 3 nodes (broker+controller), RF 3, {count} partitions");
    for name in systems.split(',') {
        match run(name, count, idle_seconds) {
            Ok(r) => {
                let pcts = r.idle_cpu_pct.map(|c| format!("{c:.1}")).join("/");
                let rss = r.rss_mib.map(|m| format!("{m:.0}")).join("/");
                let files = r.open_files.map(|f| f.to_string()).join("/");
                println!(
                    "{name:6} partitions {count}: led {:.1} s, replicas on disk {:.1} s; idle CPU % {pcts}, \
                     RSS MiB {rss}, open files {files}; propagation p50 {:.1} ms p99 {:.1} ms; \
                     broker SIGKILL to all led {:.2} s; restart to serving {:.1} s, to every ISR \
                     {:.1} s; controller SIGKILL to CreateTopics {:.2} s",
                    r.led_s,
                    r.on_disk_s,
                    r.propagation_ms.0,
                    r.propagation_ms.1,
                    r.broker_failover_s,
                    r.restart_serving_s,
                    r.restart_isr_s,
                    r.controller_failover_s
                );
            }
            Err(why) => println!("{name:6} partitions {count}: did not reach it: {why}"),
        }
    }
}
