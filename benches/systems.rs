//! fjord or Apache Kafka 4.4 as three combined nodes on 127.0.0.1 (replication factor 3,
//! min ISR 2), driven the same way, for the benches that compare them on a cluster: starting,
//! killing and restarting nodes, creating topics, and reading leaders from Metadata.

use crate::{call, root, Cluster};
use fjord_protocol::generated::create_topics_request::{
    CreatableTopic, CreatableTopicConfig, CreateTopicsRequest,
};
use fjord_protocol::generated::metadata_request::MetadataRequest;
use fjord_protocol::{RequestBody, ResponseBody};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

/// The Kafka cluster's base port (node i's broker on BASE+10*i, its controller on +1).
pub const KAFKA_BASE: u16 = 22_600;

/// Kafka's runner script (`tests/kafka/kafka.sh`).
pub fn kafka_sh() -> PathBuf {
    root().join("tests/kafka/kafka.sh")
}

/// A three-node cluster of either system.
pub enum System {
    /// fjord's release nodes.
    Fjord(Cluster),
    /// Kafka 4.4's nodes, in their cluster directory.
    Kafka(tempfile::TempDir),
}

impl System {
    /// Starts `name`: `fjord` from `bin`, else Kafka 4.4.
    pub fn start(name: &str, bin: &Path) -> System {
        if name == "fjord" {
            return System::Fjord(Cluster::start(bin, "offsets.topic.replication.factor=3"));
        }
        let dir = tempfile::tempdir_in(root().join("target")).unwrap();
        let out = Command::new(kafka_sh())
            .args(["start", dir.path().to_str().unwrap(), "3"])
            .arg(KAFKA_BASE.to_string())
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        System::Kafka(dir)
    }

    /// `fjord` or `kafka`.
    pub fn name(&self) -> &'static str {
        match self {
            System::Fjord(_) => "fjord",
            System::Kafka(_) => "kafka",
        }
    }

    /// Node `i`'s (0-based) broker address.
    pub fn broker(&self, i: usize) -> String {
        match self {
            System::Fjord(c) => c.brokers[i].clone(),
            System::Kafka(_) => format!("127.0.0.1:{}", KAFKA_BASE + 10 * (i as u16 + 1)),
        }
    }

    /// Node `i`'s controller address.
    pub fn controller(&self, i: usize) -> String {
        match self {
            System::Fjord(c) => c.controllers[i].clone(),
            System::Kafka(_) => format!("127.0.0.1:{}", KAFKA_BASE + 10 * (i as u16 + 1) + 1),
        }
    }

    /// Node `i`'s log directory.
    pub fn data_dir(&self, i: usize) -> PathBuf {
        match self {
            System::Fjord(c) => c.data_dir(i),
            System::Kafka(dir) => dir.path().join(format!("node-{}/data", i + 1)),
        }
    }

    /// How many partition directories of topics named `prefix…` node `i` holds.
    pub fn replicas_on_disk(&self, i: usize, prefix: &str) -> usize {
        std::fs::read_dir(self.data_dir(i)).map_or(0, |d| {
            d.filter_map(|e| e.ok())
                .filter(|e| {
                    let name = e.file_name();
                    let name = name.to_string_lossy();
                    name.starts_with(prefix) && !name.ends_with("-delete") && !name.contains(".")
                })
                .count()
        })
    }

    /// Every broker's address, comma-separated.
    pub fn bootstrap(&self) -> String {
        (0..3).map(|i| self.broker(i)).collect::<Vec<_>>().join(",")
    }

    /// Node `i`'s process id while it runs.
    pub fn pid(&self, i: usize) -> Option<u32> {
        match self {
            System::Fjord(c) => c.pid(i),
            System::Kafka(dir) => {
                std::fs::read_to_string(dir.path().join(format!("node-{}/pid", i + 1)))
                    .ok()?
                    .trim()
                    .parse()
                    .ok()
            }
        }
    }

    /// SIGKILLs node `i`.
    pub fn kill(&mut self, i: usize) {
        match self {
            System::Fjord(c) => c.kill_node(i),
            System::Kafka(dir) => {
                let _ = Command::new(kafka_sh())
                    .args(["kill", dir.path().to_str().unwrap(), &(i + 1).to_string()])
                    .output();
            }
        }
    }

    /// Starts node `i` again, its data kept.
    pub fn restart(&mut self, i: usize) {
        match self {
            System::Fjord(c) => c.start_node(i),
            System::Kafka(dir) => {
                let out = Command::new(kafka_sh())
                    .args([
                        "restart",
                        dir.path().to_str().unwrap(),
                        &(i + 1).to_string(),
                    ])
                    .output()
                    .unwrap();
                assert!(out.status.success(), "kafka restart failed");
            }
        }
    }
}

impl Drop for System {
    fn drop(&mut self) {
        if let System::Kafka(dir) = self {
            let _ = Command::new(kafka_sh())
                .args(["stop", dir.path().to_str().unwrap()])
                .status();
        }
    }
}

/// Polls `f` every 20 ms for up to `bound`.
pub fn wait<T>(bound: Duration, mut f: impl FnMut() -> Option<T>) -> Option<T> {
    let deadline = Instant::now() + bound;
    loop {
        if let Some(v) = f() {
            return Some(v);
        }
        if Instant::now() > deadline {
            return None;
        }
        std::thread::park_timeout(Duration::from_millis(20));
    }
}

/// A current-thread runtime for one blocking call.
pub fn rt() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap()
}

/// Creates topics of `partitions` partitions each, RF 3 and min ISR 2, through `addr`; true
/// when every one was created (or already existed).
pub fn create(addr: &str, names: &[String], partitions: i32) -> bool {
    let body = RequestBody::CreateTopics(CreateTopicsRequest {
        topics: names
            .iter()
            .map(|n| CreatableTopic {
                name: n.clone(),
                num_partitions: partitions,
                replication_factor: 3,
                configs: vec![CreatableTopicConfig {
                    name: "min.insync.replicas".into(),
                    value: Some("2".into()),
                    ..Default::default()
                }],
                ..Default::default()
            })
            .collect(),
        timeout_ms: 60_000,
        ..Default::default()
    });
    match rt().block_on(call(addr, body, 7)) {
        Some(ResponseBody::CreateTopics(r)) => r
            .topics
            .iter()
            .all(|t| t.error_code == 0 || t.error_code == 36),
        _ => false,
    }
}

/// A partition as Metadata has it: (topic, index, leader, ISR).
pub type Shown = (String, i32, i32, Vec<i32>);

/// Every partition as `addr`'s Metadata has it.
pub fn partitions(addr: &str) -> Option<Vec<Shown>> {
    let body = RequestBody::Metadata(MetadataRequest {
        topics: None,
        ..Default::default()
    });
    let Some(ResponseBody::Metadata(m)) = rt().block_on(call(addr, body, 12)) else {
        return None;
    };
    Some(
        m.topics
            .into_iter()
            .flat_map(|t| {
                let name = t.name.unwrap_or_default();
                t.partitions
                    .into_iter()
                    .map(move |p| (name.clone(), p.partition_index, p.leader_id, p.isr_nodes))
            })
            .collect(),
    )
}

/// Each partition's (topic, index, leader) as `addr`'s Metadata has it.
pub fn leaders(addr: &str) -> Option<Vec<(String, i32, i32)>> {
    Some(
        partitions(addr)?
            .into_iter()
            .map(|(t, i, l, _)| (t, i, l))
            .collect(),
    )
}

/// Creates `count` idle partitions (topics of `per_topic`) and waits until all are led.
pub fn create_idle(s: &System, count: i32, first: i32, per_topic: i32) {
    if let Err(e) = try_create_idle(s, count, first, per_topic) {
        panic!("{}: {e}", s.name());
    }
}

/// Creates `count` idle partitions in topics (`idle-N`) numbered from `first`, and waits
/// until all are led; says why not when the system cannot.
pub fn try_create_idle(s: &System, count: i32, first: i32, per_topic: i32) -> Result<(), String> {
    let names: Vec<String> = (first..first + count / per_topic)
        .map(|i| format!("idle-{i}"))
        .collect();
    for chunk in names.chunks(20) {
        wait(Duration::from_secs(120), || {
            create(&s.broker(0), chunk, per_topic).then_some(())
        })
        .ok_or_else(|| format!("topic {} not created within 120 s", chunk[0]))?;
    }
    let want = names.len() * per_topic as usize;
    let mut seen = 0;
    wait(Duration::from_secs(300), || {
        let l = leaders(&s.broker(1))?;
        seen = l
            .iter()
            .filter(|(t, _, leader)| names.contains(t) && *leader >= 0)
            .count();
        (seen >= want).then_some(())
    })
    .ok_or_else(|| format!("{seen} of {want} partitions led after 300 s"))
}

/// How many files process `pid` has open.
pub fn open_files(pid: u32) -> usize {
    std::fs::read_dir(format!("/proc/{pid}/fd")).map_or(0, |d| d.count())
}

/// Whether process `pid` is still running (not gone, not a zombie).
pub fn alive(pid: u32) -> bool {
    std::fs::read_to_string(format!("/proc/{pid}/stat"))
        .map(|s| {
            !s.rsplit(')')
                .next()
                .unwrap_or("")
                .trim_start()
                .starts_with('Z')
        })
        .unwrap_or(false)
}

/// The first line of a Kafka node's server log that mentions a failure to open files.
pub fn kafka_fd_error(s: &System) -> Option<String> {
    let System::Kafka(dir) = s else { return None };
    (1..=3).find_map(|i| {
        let log =
            std::fs::read_to_string(dir.path().join(format!("node-{i}/logs/server.log"))).ok()?;
        log.lines()
            .find(|l| l.contains("Too many open files"))
            .map(|l| format!("node {i}: {}", l.chars().take(240).collect::<String>()))
    })
}

/// The active controller's node index (0-based).
pub fn active(s: &System) -> usize {
    let addrs: Vec<String> = (0..3)
        .filter(|i| s.pid(*i).is_some())
        .map(|i| s.controller(i))
        .collect();
    let id = wait(Duration::from_secs(60), || {
        rt().block_on(crate::active_controller(addrs.iter().map(String::as_str)))
    })
    .expect("an active controller");
    (id - 1) as usize
}

/// Waits until every broker is registered again and every partition led, after a restart.
pub fn settled(s: &System) {
    let ok = wait(Duration::from_secs(120), || {
        let body = RequestBody::Metadata(MetadataRequest {
            topics: None,
            ..Default::default()
        });
        let Some(ResponseBody::Metadata(m)) = rt().block_on(call(&s.broker(0), body, 12)) else {
            return None;
        };
        let all_led = m
            .topics
            .iter()
            .flat_map(|t| &t.partitions)
            .all(|p| p.leader_id >= 0 && p.isr_nodes.len() == 3);
        (m.brokers.len() == 3 && all_led).then_some(())
    });
    assert!(ok.is_some(), "{}: the cluster never settled", s.name());
}

/// The median of `v` (not empty).
pub fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(|a, b| a.total_cmp(b));
    v[v.len() / 2]
}
