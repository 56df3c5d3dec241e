//! The controller on a real three-node cluster (combined roles, `fjord` release processes on
//! 127.0.0.1): how long CreateTopics of 10,000 partitions (100 topics of 100, replication 3)
//! takes until every partition has a leader in a broker's Metadata, and how long after a
//! SIGKILL of the active controller the next one accepts a CreateTopics (median of 20 runs).
//!
//! `cargo build --release --bin fjord && cargo bench -p fjord-benches --bench cluster`
//! (FJORD_BIN points at another binary; FJORD_FAILOVER_RUNS changes the run count).

use fjord_benches::call;
use fjord_protocol::generated::{
    create_topics_request::{CreatableTopic, CreateTopicsRequest},
    metadata_request::MetadataRequest,
};
use fjord_protocol::{RequestBody, ResponseBody};
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

fn fjord_bin() -> PathBuf {
    if let Ok(p) = std::env::var("FJORD_BIN") {
        return PathBuf::from(p);
    }
    let exe = std::env::current_exe().expect("bench path");
    // target/release/deps/cluster-… -> target/release/fjord
    let bin = exe
        .parent()
        .and_then(|d| d.parent())
        .expect("target dir")
        .join("fjord");
    assert!(
        bin.exists(),
        "build the binary first: cargo build --release --bin fjord ({bin:?})"
    );
    bin
}

struct Node {
    args: Vec<String>,
    child: Option<Child>,
    broker: String,
    controller: String,
}

impl Node {
    fn start(&mut self) {
        self.child = Some(
            Command::new(fjord_bin())
                .arg("server")
                .args(&self.args)
                .args(["--override", "metrics.listener="])
                .env("RUST_LOG", "info")
                .stdout(Stdio::null())
                .stderr(match std::env::var("FJORD_BENCH_LOGS") {
                    Ok(dir) => Stdio::from(
                        std::fs::OpenOptions::new()
                            .create(true)
                            .append(true)
                            .open(format!("{dir}/{}.log", self.broker.replace(':', "_")))
                            .expect("log file"),
                    ),
                    Err(_) => Stdio::null(),
                })
                .spawn()
                .expect("start fjord"),
        );
    }
    fn kill(&mut self) {
        if let Some(mut c) = self.child.take() {
            let _ = c.kill();
            let _ = c.wait();
        }
    }
}

impl Drop for Node {
    fn drop(&mut self) {
        self.kill();
    }
}

/// (live broker count, partitions with a leader) from one broker's Metadata.
async fn metadata(addr: &str) -> Option<(usize, usize)> {
    let r = call(
        addr,
        RequestBody::Metadata(MetadataRequest {
            topics: None,
            ..Default::default()
        }),
        12,
    )
    .await?;
    let ResponseBody::Metadata(m) = r else {
        return None;
    };
    let led = m
        .topics
        .iter()
        .flat_map(|t| &t.partitions)
        .filter(|p| p.leader_id >= 0)
        .count();
    Some((m.brokers.len(), led))
}

async fn create(addr: &str, names: &[String], partitions: i32) -> Option<bool> {
    let r = call(
        addr,
        RequestBody::CreateTopics(CreateTopicsRequest {
            topics: names
                .iter()
                .map(|n| CreatableTopic {
                    name: n.clone(),
                    num_partitions: partitions,
                    replication_factor: 3,
                    ..Default::default()
                })
                .collect(),
            timeout_ms: 30_000,
            ..Default::default()
        }),
        7,
    )
    .await?;
    let ResponseBody::CreateTopics(r) = r else {
        return None;
    };
    Some(r.topics.iter().all(|t| t.error_code == 0))
}

async fn active_controller(nodes: &[Node]) -> Option<i32> {
    let live = nodes
        .iter()
        .filter(|n| n.child.is_some())
        .map(|n| n.controller.as_str());
    fjord_benches::active_controller(live).await
}

/// True once the leader's DescribeQuorum shows voter `id` caught up after `since` (ms).
async fn rejoined(nodes: &[Node], id: i32, since: i64) -> Option<()> {
    use fjord_protocol::generated::describe_quorum_request::{self as dq, DescribeQuorumRequest};
    let leader = active_controller(nodes).await?;
    let addr = &nodes[(leader - 1) as usize].controller;
    let r = call(
        addr,
        RequestBody::DescribeQuorum(DescribeQuorumRequest {
            topics: vec![dq::TopicData {
                topic_name: "__cluster_metadata".into(),
                partitions: vec![dq::PartitionData::default()],
                ..Default::default()
            }],
            ..Default::default()
        }),
        2,
    )
    .await?;
    let ResponseBody::DescribeQuorum(r) = r else {
        return None;
    };
    let p = r.topics.first()?.partitions.first()?;
    let v = p.current_voters.iter().find(|v| v.replica_id == id)?;
    (v.last_caught_up_timestamp >= since).then_some(())
}

async fn wait<T, F: std::future::Future<Output = Option<T>>>(
    bound: Duration,
    mut f: impl FnMut() -> F,
) -> Option<T> {
    let deadline = Instant::now() + bound;
    while Instant::now() < deadline {
        if let Some(v) = f().await {
            return Some(v);
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    None
}

fn main() {
    let runs: usize = std::env::var("FJORD_FAILOVER_RUNS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(20);
    let root = tempfile::tempdir().unwrap();
    let ports: Vec<(u16, u16)> = (0..3)
        .map(|_| (fjord_benches::free_port(), fjord_benches::free_port()))
        .collect();
    let voters = fjord_benches::voters(&ports);
    let cluster_id = String::from_utf8(
        Command::new(fjord_bin())
            .arg("random-uuid")
            .output()
            .unwrap()
            .stdout,
    )
    .unwrap()
    .trim()
    .to_string();
    let mut nodes: Vec<Node> = (0..3)
        .map(|i| {
            let (p, c) = ports[i];
            let dir = root.path().join(format!("node{}", i + 1));
            let props = dir.with_extension("properties");
            std::fs::write(
                &props,
                format!(
                    "node.id={}\nprocess.roles=broker,controller\nlisteners=PLAINTEXT://127.0.0.1:{p},CONTROLLER://127.0.0.1:{c}\n\
                     controller.listener.names=CONTROLLER\ncontroller.quorum.voters={voters}\nlog.dirs={}\n",
                    i + 1,
                    dir.display()
                ),
            )
            .unwrap();
            let args = vec!["--config".to_string(), props.display().to_string()];
            let out = Command::new(fjord_bin())
                .args(["format", "--config", &props.display().to_string(), "--cluster-id", &cluster_id])
                .output()
                .unwrap();
            assert!(out.status.success());
            Node { args, child: None, broker: format!("127.0.0.1:{p}"), controller: format!("127.0.0.1:{c}") }
        })
        .collect();
    for n in &mut nodes {
        n.start();
    }
    let rt = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .unwrap();
    rt.block_on(async {
        let b0 = nodes[0].broker.clone();
        wait(Duration::from_secs(30), || async { metadata(&b0).await.filter(|(b, _)| *b == 3) })
            .await
            .expect("three brokers");

        // CreateTopics: 100 topics x 100 partitions in one request.
        let names: Vec<String> = (0..100).map(|i| format!("bench-{i}")).collect();
        let start = Instant::now();
        assert_eq!(create(&nodes[1].broker, &names, 100).await, Some(true));
        let accepted = start.elapsed();
        for n in &nodes {
            let b = n.broker.clone();
            wait(Duration::from_secs(120), || async { metadata(&b).await.filter(|(_, led)| *led >= 10_000) })
                .await
                .expect("10,000 partitions with leaders");
            if std::env::var("FJORD_BENCH_VERBOSE").is_ok() {
                eprintln!("{} sees all after {:?}", n.broker, start.elapsed());
            }
        }
        println!(
            "cluster/create_topics: 10,000 partitions (100 topics x 100, RF 3) committed in {accepted:?}, \
             all visible with leaders in Metadata after {:?}",
            start.elapsed()
        );

        // Failover: SIGKILL the active controller; time until another accepts CreateTopics.
        let mut times = Vec::new();
        for run in 0..runs {
            let active = wait(Duration::from_secs(30), || active_controller(&nodes)).await.expect("an active controller");
            let idx = (active - 1) as usize;
            nodes[idx].kill();
            let killed = Instant::now();
            if std::env::var("FJORD_BENCH_VERBOSE").is_ok() {
                eprintln!("run {run}: killed node {active} at {:?}", std::time::SystemTime::now());
            }
            let survivor = nodes.iter().find(|n| n.child.is_some()).unwrap().broker.clone();
            let elected = wait(Duration::from_secs(60), || async {
                active_controller(&nodes).await.filter(|c| *c != active)
            })
            .await
            .map(|_| killed.elapsed());
            let name = vec![format!("failover-{run}")];
            wait(Duration::from_secs(60), || {
                let s = survivor.clone();
                let n = name.clone();
                async move { create(&s, &n, 1).await.filter(|ok| *ok) }
            })
            .await
            .expect("a new controller accepts CreateTopics");
            times.push(killed.elapsed());
            if std::env::var("FJORD_BENCH_VERBOSE").is_ok() {
                eprintln!("run {run}: new controller known after {elected:?}, CreateTopics accepted after {:?}", killed.elapsed());
            }
            nodes[idx].start();
            let restarted = std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .unwrap()
                .as_millis() as i64;
            // Rejoined: the quorum's leader saw it fetch after the restart and it is caught up.
            wait(Duration::from_secs(60), || rejoined(&nodes, active, restarted))
                .await
                .expect("the node rejoins the quorum");
        }
        times.sort();
        println!(
            "cluster/controller_failover: SIGKILL of the active controller until the next accepts \
             CreateTopics, {runs} runs: median {:?}, min {:?}, max {:?}",
            times[times.len() / 2],
            times[0],
            times[times.len() - 1]
        );
    });
}
