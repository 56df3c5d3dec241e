//! What the benchmarks share: librdkafka producers and consumers driven at full speed (or a
//! set rate) that report throughput and delivery latencies. The benchmarks themselves are the
//! `[[bench]]` targets of this package.

pub mod systems;

use rdkafka::config::ClientConfig;
use rdkafka::consumer::{BaseConsumer, Consumer};
use rdkafka::producer::{BaseRecord, DeliveryResult, Producer, ProducerContext, ThreadedProducer};
use rdkafka::{ClientContext, Message, Offset, TopicPartitionList};
use std::net::TcpStream;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// Records delivery latencies (µs) of messages sent with their send time, and failures.
#[derive(Clone, Default)]
pub struct Latencies(Arc<(Mutex<Vec<u64>>, AtomicU64)>);

impl ClientContext for Latencies {}

impl ProducerContext for Latencies {
    type DeliveryOpaque = Box<Instant>;
    fn delivery(&self, r: &DeliveryResult<'_>, sent: Box<Instant>) {
        if r.is_ok() {
            self.0
                 .0
                .lock()
                .unwrap()
                .push(sent.elapsed().as_micros() as u64);
        } else {
            self.0 .1.fetch_add(1, Ordering::Relaxed);
        }
    }
}

/// Produces `size`-byte records to `topic` for `secs` seconds (at most `rate` per second when
/// given), with the client settings `client` (security ones, say); returns (records acknowledged, failures, latencies in µs).
pub fn produce(
    client: &[(&str, &str)],
    bootstrap: &str,
    topic: &str,
    partitions: i32,
    size: usize,
    acks: &str,
    secs: f64,
    rate: Option<f64>,
) -> (u64, u64, Vec<u64>) {
    let ctx = Latencies::default();
    let mut config = ClientConfig::new();
    config
        .set("bootstrap.servers", bootstrap)
        .set("acks", acks)
        .set("linger.ms", "5")
        .set("batch.size", "1000000")
        .set("queue.buffering.max.messages", "1000000")
        .set("queue.buffering.max.kbytes", "1048576");
    // The caller's settings win (security, or linger.ms=0 for latency runs).
    for (k, v) in client {
        config.set(*k, *v);
    }
    // Delivery reports are served by the producer's own polling thread, which waits for them
    // in librdkafka; this thread only paces the sends and sleeps between them. (A BaseProducer
    // polled from this loop spun: rust-rdkafka's poll loops until its deadline and librdkafka
    // counts whole milliseconds, so the generator took most of one of this machine's two
    // cores from the nodes it measures.)
    let producer: ThreadedProducer<Latencies> = config.create_with_context(ctx.clone()).unwrap();
    let payload = vec![b'x'; size];
    // One record first, acknowledged before the clock starts and not counted: the producer has
    // its metadata and its connection to the leader, so the figures are the cluster's, not
    // the client's start-up.
    let first = BaseRecord::with_opaque_to(topic, Box::new(Instant::now()))
        .payload(&payload)
        .key(&[])
        .partition(0);
    if producer.send(first).is_ok() {
        let _ = producer.flush(Duration::from_secs(30));
    }
    ctx.0 .0.lock().unwrap().clear();
    ctx.0 .1.store(0, Ordering::Relaxed);
    let start = Instant::now();
    let end = start + Duration::from_secs_f64(secs);
    let mut sent = 0u64;
    while Instant::now() < end {
        if let Some(r) = rate {
            let due = (start.elapsed().as_secs_f64() * r) as u64;
            if sent >= due {
                let next = start + Duration::from_secs_f64((sent + 1) as f64 / r);
                std::thread::sleep(next.saturating_duration_since(Instant::now()));
                continue;
            }
        }
        let record = BaseRecord::with_opaque_to(topic, Box::new(Instant::now()))
            .payload(&payload)
            .key(&[])
            .partition((sent % partitions as u64) as i32);
        match producer.send(record) {
            Ok(()) => sent += 1,
            // The queue is full: the polling thread frees it as reports arrive.
            Err(_) => std::thread::sleep(Duration::from_millis(1)),
        }
    }
    producer.flush(Duration::from_secs(60)).unwrap();
    let lat = std::mem::take(&mut *ctx.0 .0.lock().unwrap());
    (lat.len() as u64, ctx.0 .1.load(Ordering::Relaxed), lat)
}

/// Consumes every record of `topic` partition `p` from the start until `count` arrived;
/// returns the seconds it took.
pub fn consume(
    client: &[(&str, &str)],
    bootstrap: &str,
    topic: &str,
    partitions: i32,
    count: u64,
) -> f64 {
    let mut config = ClientConfig::new();
    for (k, v) in client {
        config.set(*k, *v);
    }
    let consumer: BaseConsumer = config
        .set("bootstrap.servers", bootstrap)
        // assign() needs a group id; nothing joins or commits.
        .set("group.id", "broker-load")
        .set("enable.auto.commit", "false")
        // librdkafka 2.3+ pauses a partition's fetching for `fetch.queue.backoff.ms` (1 s)
        // whenever its local queue is past `queued.min.messages`: with 100 B records that
        // is most of the run. Keep fetching instead.
        .set("fetch.queue.backoff.ms", "1")
        .set("queued.min.messages", "1000000")
        .set("fetch.max.bytes", "52428800")
        .set("max.partition.fetch.bytes", "10485760")
        .set("queued.max.messages.kbytes", "1048576")
        .create()
        .unwrap();
    let mut tpl = TopicPartitionList::new();
    for p in 0..partitions {
        tpl.add_partition_offset(topic, p, Offset::Beginning)
            .unwrap();
    }
    consumer.assign(&tpl).unwrap();
    let start = Instant::now();
    let mut n = 0u64;
    let deadline = start + Duration::from_secs(300);
    while n < count && Instant::now() < deadline {
        if let Some(Ok(m)) = consumer.poll(Duration::from_millis(100)) {
            n += 1;
            std::hint::black_box(m.payload());
        }
    }
    start.elapsed().as_secs_f64()
}

/// Builds the release `fjord` (as `cargo build --release --bin fjord`) and returns its path.
pub fn release_fjord() -> PathBuf {
    let status = Command::new(env!("CARGO"))
        .args(["build", "--release", "--quiet", "--bin", "fjord"])
        .current_dir(root())
        .status()
        .unwrap();
    assert!(status.success(), "building the release fjord");
    root().join("target/release/fjord")
}

/// A free port on 127.0.0.1 (bound and released).
pub fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

/// User+system CPU seconds of process `pid` so far.
pub fn cpu_seconds(pid: u32) -> f64 {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap_or_default();
    let after = stat.rsplit_once(')').map(|(_, r)| r).unwrap_or("");
    let f: Vec<&str> = after.split_whitespace().collect();
    let ticks = |i: usize| f.get(i).and_then(|v| v.parse::<f64>().ok()).unwrap_or(0.0);
    // Fields 14 and 15 (utime, stime) are at 11 and 12 after the command name.
    (ticks(11) + ticks(12)) / 100.0
}

/// A port below Linux's ephemeral range (20000-28999, never the same twice in a run): a node
/// restarted on its old port cannot collide with a client's outgoing connection.
pub fn low_port() -> u16 {
    use std::sync::atomic::AtomicU16;
    static NEXT: AtomicU16 = AtomicU16::new(0);
    let base = 20_000 + (std::process::id() % 60) as u16 * 150;
    loop {
        let p = base + NEXT.fetch_add(1, Ordering::Relaxed) % 9_000;
        let p = 20_000 + (p - 20_000) % 9_000;
        if std::net::TcpListener::bind(("127.0.0.1", p)).is_ok() {
            return p;
        }
    }
}

/// The workspace root (this file's directory's parent).
pub fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .unwrap()
        .to_path_buf()
}

/// Resident set size in MiB.
pub fn rss_mib(pid: u32) -> f64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap_or_default();
    status
        .lines()
        .find(|l| l.starts_with("VmRSS:"))
        .and_then(|l| l.split_whitespace().nth(1))
        .and_then(|kb| kb.parse::<f64>().ok())
        .map_or(0.0, |kb| kb / 1024.0)
}

/// Three combined release nodes on loopback, for the replication runs.
pub struct Cluster {
    bin: PathBuf,
    nodes: Vec<(PathBuf, Option<Child>)>,
    /// The three brokers' addresses, comma-separated.
    pub bootstrap: String,
    /// Each node's broker address.
    pub brokers: Vec<String>,
    /// Each node's controller address.
    pub controllers: Vec<String>,
    _dir: tempfile::TempDir,
}

impl Cluster {
    /// Formats and starts three nodes with `extra` properties appended to each one's config.
    pub fn start(bin: &Path, extra: &str) -> Cluster {
        // FJORD_BENCH_CONFIG adds server settings to every node (`;` between them).
        let added = std::env::var("FJORD_BENCH_CONFIG")
            .map(|c| c.replace(';', "\n"))
            .unwrap_or_default();
        let extra = &format!("{extra}\n{added}");
        let mut dir = tempfile::tempdir_in(root().join("target")).unwrap();
        // FJORD_BENCH_KEEP=1 keeps the nodes' data and logs for a look afterwards.
        if std::env::var("FJORD_BENCH_KEEP").is_ok() {
            dir.disable_cleanup(true);
            eprintln!("cluster data and logs in {}", dir.path().display());
        }
        let ports: Vec<(u16, u16)> = (0..3).map(|_| (low_port(), low_port())).collect();
        let voters = voters(&ports);
        let id = random_uuid(bin);
        let mut nodes = Vec::new();
        for (i, (b, c)) in ports.iter().enumerate() {
            let node_dir = dir.path().join(format!("node{}", i + 1));
            std::fs::create_dir_all(&node_dir).unwrap();
            let props = node_dir.join("server.properties");
            std::fs::write(
                &props,
                format!(
                    "node.id={}\nprocess.roles=broker,controller\n\
                     listeners=PLAINTEXT://127.0.0.1:{b},CONTROLLER://127.0.0.1:{c}\n\
                     controller.listener.names=CONTROLLER\ncontroller.quorum.voters={voters}\n\
                     log.dirs={}\nmetrics.listener=\n{extra}\n",
                    i + 1,
                    node_dir.join("data").display()
                ),
            )
            .unwrap();
            format(bin, &props, &id);
            nodes.push((props, None));
        }
        let bootstrap = ports
            .iter()
            .map(|(b, _)| format!("127.0.0.1:{b}"))
            .collect::<Vec<_>>()
            .join(",");
        let brokers = ports
            .iter()
            .map(|(b, _)| format!("127.0.0.1:{b}"))
            .collect();
        let controllers = ports
            .iter()
            .map(|(_, c)| format!("127.0.0.1:{c}"))
            .collect();
        let mut c = Cluster {
            bin: bin.to_path_buf(),
            nodes,
            bootstrap,
            brokers,
            controllers,
            _dir: dir,
        };
        for i in 0..3 {
            c.start_node(i);
        }
        c
    }

    /// Starts node `i` (0-based) again.
    pub fn start_node(&mut self, i: usize) {
        let props = self.nodes[i].0.clone();
        let log = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(props.with_file_name("server.log"))
            .unwrap();
        let level = if std::env::var("FJORD_BENCH_KEEP").is_ok() {
            "info"
        } else {
            "warn"
        };
        let child = Command::new(&self.bin)
            .args(["server", "--config"])
            .arg(&props)
            .env("RUST_LOG", level)
            .stdout(log.try_clone().unwrap())
            .stderr(log)
            .spawn()
            .unwrap();
        self.nodes[i].1 = Some(child);
    }

    /// Node `i`'s (0-based) log directory.
    pub fn data_dir(&self, i: usize) -> PathBuf {
        self.nodes[i].0.with_file_name("data")
    }

    /// SIGKILLs node `i` (0-based).
    pub fn kill_node(&mut self, i: usize) {
        if let Some(mut c) = self.nodes[i].1.take() {
            let _ = c.kill();
            let _ = c.wait();
        }
    }

    /// The nodes' CPU seconds so far.
    pub fn cpu(&self) -> f64 {
        self.nodes
            .iter()
            .filter_map(|(_, c)| c.as_ref())
            .map(|c| cpu_seconds(c.id()))
            .sum()
    }

    /// Each partition's ISR size, as Metadata says.
    pub fn isr_sizes(&self, topic: &str) -> Option<Vec<usize>> {
        let consumer: BaseConsumer = ClientConfig::new()
            .set("bootstrap.servers", &self.bootstrap)
            .create()
            .ok()?;
        let md = consumer
            .fetch_metadata(Some(topic), Duration::from_secs(5))
            .ok()?;
        let t = md.topics().first()?;
        (!t.partitions().is_empty() && t.partitions().iter().all(|p| p.leader() >= 0))
            .then(|| t.partitions().iter().map(|p| p.isr().len()).collect())
    }

    /// Creates a replicated topic (factor 3, min ISR 2) and waits for three in-sync replicas.
    pub fn create_topic(&self, topic: &str) {
        self.create_topics(&[topic.to_string()], 1);
        self.wait_full(topic, Duration::from_secs(60));
    }

    /// Creates topics of `partitions` partitions each (factor 3, min ISR 2) in one request,
    /// asking again until the cluster takes them (up to 60 s); does not wait for their ISRs.
    pub fn create_topics(&self, topics: &[String], partitions: i32) {
        use rdkafka::admin::{AdminClient, AdminOptions, NewTopic, TopicReplication};
        let admin: AdminClient<_> = ClientConfig::new()
            .set("bootstrap.servers", &self.bootstrap)
            .create()
            .unwrap();
        let rt = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .unwrap();
        let deadline = Instant::now() + Duration::from_secs(60);
        let mut left: Vec<String> = topics.to_vec();
        while !left.is_empty() {
            let new: Vec<NewTopic> = left
                .iter()
                .map(|t| {
                    NewTopic::new(t, partitions, TopicReplication::Fixed(3))
                        .set("min.insync.replicas", "2")
                })
                .collect();
            let options = AdminOptions::new().operation_timeout(Some(Duration::from_secs(30)));
            if let Ok(results) = rt.block_on(admin.create_topics(&new, &options)) {
                left = results
                    .into_iter()
                    .filter_map(|r| match r {
                        Ok(_) => None,
                        Err((_, rdkafka::types::RDKafkaErrorCode::TopicAlreadyExists)) => None,
                        Err((t, _)) => Some(t),
                    })
                    .collect();
            }
            assert!(Instant::now() < deadline, "{left:?} not created");
            if !left.is_empty() {
                std::thread::park_timeout(Duration::from_millis(200));
            }
        }
    }

    /// Waits until every partition of `topic` has three in-sync replicas; the time it took.
    pub fn wait_full(&self, topic: &str, limit: Duration) -> Duration {
        let start = Instant::now();
        loop {
            if self
                .isr_sizes(topic)
                .is_some_and(|s| s.iter().all(|n| *n == 3))
            {
                return start.elapsed();
            }
            assert!(start.elapsed() < limit, "{topic}: replicas never in sync");
            std::thread::park_timeout(Duration::from_millis(100));
        }
    }
}

impl Cluster {
    /// Node `i`'s process id, while it runs.
    pub fn pid(&self, i: usize) -> Option<u32> {
        self.nodes[i].1.as_ref().map(Child::id)
    }
}

impl Drop for Cluster {
    fn drop(&mut self) {
        for i in 0..self.nodes.len() {
            self.kill_node(i);
        }
    }
}

/// The `p` quantile of sorted µs figures, in ms.
pub fn percentile(sorted: &[u64], p: f64) -> f64 {
    if sorted.is_empty() {
        return 0.0;
    }
    let i = ((sorted.len() as f64 - 1.0) * p).round() as usize;
    sorted[i] as f64 / 1000.0
}

/// `controller.quorum.voters` for nodes 1.. on these (broker, controller) ports.
pub fn voters(ports: &[(u16, u16)]) -> String {
    ports
        .iter()
        .enumerate()
        .map(|(i, (_, c))| format!("{}@127.0.0.1:{c}", i + 1))
        .collect::<Vec<_>>()
        .join(",")
}

/// A new cluster id from `fjord random-uuid`.
pub fn random_uuid(bin: &Path) -> String {
    let out = Command::new(bin).arg("random-uuid").output().unwrap();
    String::from_utf8(out.stdout).unwrap().trim().to_string()
}

/// `fjord format --config props --cluster-id id`; panics when it fails.
pub fn format(bin: &Path, props: &Path, id: &str) {
    let ok = Command::new(bin)
        .args(["format", "--config"])
        .arg(props)
        .args(["--cluster-id", id])
        .stdout(Stdio::null())
        .status()
        .unwrap();
    assert!(ok.success(), "fjord format {}", props.display());
}

/// One request to `addr` on a new connection; `None` when it fails.
pub async fn call(
    addr: &str,
    body: fjord_protocol::RequestBody,
    version: i16,
) -> Option<fjord_protocol::ResponseBody> {
    let c = fjord_net::client::Client::connect(addr, Duration::from_secs(2))
        .await
        .ok()?;
    c.call(body, version, Duration::from_secs(30)).await.ok()
}

/// The active controller's node id: the KRaft leader, the one of `controllers` (controller
/// listener addresses) that answers DescribeQuorum (only the leader does; a node that just
/// restarted may still name a stale leader in other answers).
pub async fn active_controller<'a>(controllers: impl IntoIterator<Item = &'a str>) -> Option<i32> {
    use fjord_protocol::generated::describe_quorum_request::{self as dq, DescribeQuorumRequest};
    for addr in controllers {
        let r = call(
            addr,
            fjord_protocol::RequestBody::DescribeQuorum(DescribeQuorumRequest {
                topics: vec![dq::TopicData {
                    topic_name: "__cluster_metadata".into(),
                    partitions: vec![dq::PartitionData::default()],
                    ..Default::default()
                }],
                ..Default::default()
            }),
            2,
        )
        .await;
        if let Some(fjord_protocol::ResponseBody::DescribeQuorum(r)) = r {
            let p = r.topics.first().and_then(|t| t.partitions.first());
            if let Some(p) = p.filter(|p| p.error_code == 0 && r.error_code == 0 && p.leader_id > 0)
            {
                return Some(p.leader_id);
            }
        }
    }
    None
}

/// A release combined node on free ports with its data in a temp dir.
pub struct SingleNode {
    /// The node's process.
    pub child: Child,
    /// Its broker address.
    pub bootstrap: String,
    /// Its data and log.
    pub dir: tempfile::TempDir,
}

impl SingleNode {
    /// Formats and starts a combined node with `extra` properties appended to its config.
    pub fn start(bin: &Path, extra: &str) -> SingleNode {
        let dir = tempfile::tempdir().unwrap();
        let (b, c) = (free_port(), free_port());
        let props = dir.path().join("server.properties");
        std::fs::write(
            &props,
            format!(
                "node.id=1\nprocess.roles=broker,controller\n\
                 listeners=PLAINTEXT://127.0.0.1:{b},CONTROLLER://127.0.0.1:{c}\n\
                 controller.listener.names=CONTROLLER\n\
                 controller.quorum.voters=1@127.0.0.1:{c}\nlog.dirs={}\n\
                 offsets.topic.replication.factor=1\ngroup.initial.rebalance.delay.ms=0\n\
                 transaction.state.log.replication.factor=1\n\
                 share.coordinator.state.topic.replication.factor=1\n\
                 share.coordinator.state.topic.min.isr=1\n{extra}\n",
                dir.path().join("data").display()
            ),
        )
        .unwrap();
        let id = random_uuid(bin);
        format(bin, &props, &id);
        let log = std::fs::File::create(dir.path().join("server.log")).unwrap();
        let child = Command::new(bin)
            .args(["server", "--config"])
            .arg(&props)
            .args(["--override", "metrics.listener="])
            .env("RUST_LOG", "warn")
            .stdout(log.try_clone().unwrap())
            .stderr(log)
            .spawn()
            .unwrap();
        let bootstrap = format!("127.0.0.1:{b}");
        let deadline = Instant::now() + Duration::from_secs(30);
        while TcpStream::connect(&bootstrap).is_err() {
            assert!(Instant::now() < deadline, "the node never opened its port");
            std::thread::park_timeout(Duration::from_millis(50));
        }
        SingleNode {
            child,
            bootstrap,
            dir,
        }
    }

    /// Its process id.
    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// Creates `topic` with `partitions` and waits for its leaders.
    pub fn create_topic(&self, topic: &str, partitions: i32) {
        use rdkafka::admin::{AdminClient, AdminOptions, NewTopic, TopicReplication};
        let admin: AdminClient<_> = ClientConfig::new()
            .set("bootstrap.servers", &self.bootstrap)
            .create()
            .unwrap();
        let rt = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .unwrap();
        rt.block_on(admin.create_topics(
            &[NewTopic::new(topic, partitions, TopicReplication::Fixed(1))],
            &AdminOptions::new(),
        ))
        .unwrap();
        let consumer: BaseConsumer = ClientConfig::new()
            .set("bootstrap.servers", &self.bootstrap)
            .create()
            .unwrap();
        let deadline = Instant::now() + Duration::from_secs(60);
        loop {
            let md = consumer
                .fetch_metadata(Some(topic), Duration::from_secs(5))
                .unwrap();
            let ready = md.topics().first().is_some_and(|t| {
                t.partitions().len() == partitions as usize
                    && t.partitions().iter().all(|p| p.leader() >= 0)
            });
            if ready {
                return;
            }
            assert!(Instant::now() < deadline, "{topic} has no leaders");
            std::thread::park_timeout(Duration::from_millis(100));
        }
    }
}

impl Drop for SingleNode {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The figures of Kafka's `ProducerPerformance` summary line in `out` ("N records sent, R
/// records/sec (M MB/sec), A ms avg latency, X ms max latency, P50 ms 50th, P95 ms 95th, P99
/// ms 99th, P999 ms 99.9th."): n, rate, MB/s, avg, max, p50, 50, p95, 95, p99, 99, p999, 99.9.
pub fn producer_performance_summary(out: &str) -> Vec<f64> {
    let last = out
        .lines()
        .rfind(|l| l.contains("records sent") && l.contains("99.9th"))
        .unwrap_or_else(|| panic!("no summary from ProducerPerformance:\n{out}"));
    last.split(|c: char| !(c.is_ascii_digit() || c == '.'))
        .filter(|x| !x.is_empty() && *x != ".")
        .filter_map(|x| x.parse().ok())
        .collect()
}

/// tests/kafka/kafka.sh, which runs Apache Kafka 4.4 from its jars.
pub fn kafka_sh() -> PathBuf {
    root().join("tests/kafka/kafka.sh")
}

/// A broker under test: its bootstrap address and process id.
pub struct Broker {
    /// "fjord" or "kafka".
    pub name: &'static str,
    /// Its bootstrap address.
    pub bootstrap: String,
    /// Its process id.
    pub pid: u32,
    /// What keeps it running (fjord's process, or Kafka's dir).
    pub _keep: Keep,
}

/// What keeps a broker under test running.
pub enum Keep {
    /// fjord's node.
    Fjord(#[allow(dead_code)] SingleNode),
    /// Kafka's directory (kafka.sh stops it).
    Kafka(tempfile::TempDir),
}

impl Drop for Broker {
    fn drop(&mut self) {
        if let Keep::Kafka(dir) = &self._keep {
            let _ = Command::new(kafka_sh())
                .args(["stop", dir.path().to_str().unwrap()])
                .status();
        }
    }
}

/// A release fjord single node (extra properties appended).
pub fn start_fjord_with(bin: &Path, extra: &str) -> Broker {
    let node = SingleNode::start(bin, extra);
    Broker {
        name: "fjord",
        bootstrap: node.bootstrap.clone(),
        pid: node.pid(),
        _keep: Keep::Fjord(node),
    }
}

/// A Kafka 4.4 combined single node on ports from `base`.
pub fn start_kafka(base: u16) -> Broker {
    let dir = tempfile::tempdir().unwrap();
    let out = Command::new(kafka_sh())
        .args([
            "start",
            dir.path().to_str().unwrap(),
            "1",
            &base.to_string(),
        ])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let pid: u32 = std::fs::read_to_string(dir.path().join("node-1/pid"))
        .unwrap()
        .trim()
        .parse()
        .unwrap();
    Broker {
        name: "kafka",
        bootstrap: format!("127.0.0.1:{}", base + 10),
        pid,
        _keep: Keep::Kafka(dir),
    }
}

/// Runs a Kafka 4.4 tool class with the jars; returns its standard output.
pub fn kafka_tool(class: &str, args: &[String]) -> String {
    let out = Command::new(kafka_sh())
        .arg("run")
        .arg(class)
        .args(args)
        .stderr(Stdio::null())
        .output()
        .unwrap();
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// A release fjord single node.
pub fn start_fjord(bin: &Path) -> Broker {
    start_fjord_with(bin, "")
}

/// The numbers of the last comma-separated summary line a Kafka perf tool printed (6 or more
/// fields; a field that is not a number reads 0).
pub fn summary_line(out: &str, tool: &str) -> Vec<f64> {
    let line = out
        .lines()
        .rfind(|l| l.matches(',').count() >= 5)
        .unwrap_or_else(|| panic!("no summary from {tool}:\n{out}"));
    line.split(',')
        .map(|x| x.trim().parse().unwrap_or(0.0))
        .collect()
}
