//! Real `fjord` processes on 127.0.0.1 for the multi-node tests: free ports, formatting,
//! starting and SIGKILLing nodes, and asking the quorum over the wire. Waits poll a condition
//! up to a bound; nothing sleeps to synchronise.

#![allow(dead_code)]

pub mod certs;
pub mod differential;
pub mod hydra;
pub mod kafka;
pub mod telemetry;
pub mod weed;

use fjord_net::client::Client;
use fjord_protocol::generated::describe_cluster_request::DescribeClusterRequest;
use fjord_protocol::generated::describe_quorum_request::{self as dqr, DescribeQuorumRequest};
use fjord_protocol::generated::describe_quorum_response::PartitionData;
use fjord_protocol::{RequestBody, ResponseBody};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::time::{Duration, Instant};

/// The repository's root.
pub fn repo_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// The files under `dir` (recursively) whose name ends in `.ext`, sorted; directories named
/// in `skip` are not entered.
pub fn files_under(dir: &Path, ext: &str, skip: &[&str]) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut dirs = vec![dir.to_path_buf()];
    while let Some(d) = dirs.pop() {
        let Ok(entries) = std::fs::read_dir(&d) else {
            continue;
        };
        for e in entries.flatten() {
            let p = e.path();
            if p.is_dir() {
                if !p.file_name().is_some_and(|n| skip.iter().any(|s| n == *s)) {
                    dirs.push(p);
                }
            } else if p.extension().is_some_and(|x| x == ext) {
                out.push(p);
            }
        }
    }
    out.sort();
    out
}

/// The binary under test.
pub fn fjord_bin() -> &'static str {
    env!("CARGO_BIN_EXE_fjord")
}

/// Runs `fjord` with `args` to completion.
pub fn fjord(args: &[&str]) -> Output {
    Command::new(fjord_bin())
        .args(args)
        .output()
        .expect("run fjord")
}

/// A new random id from `fjord random-uuid`.
pub fn random_uuid() -> String {
    String::from_utf8(fjord(&["random-uuid"]).stdout)
        .expect("utf-8")
        .trim()
        .to_string()
}

/// A port free on 127.0.0.1 right now.
pub fn free_port() -> u16 {
    use std::hash::{BuildHasher, Hasher};
    // Below Linux's ephemeral range (32768-60999): no outgoing connection (the tests' clients
    // open many) can take the port between this check and the node binding it, and a node
    // restarted on its port never meets a client connected to itself. Never twice in one run.
    static GIVEN: std::sync::Mutex<Vec<u16>> = std::sync::Mutex::new(Vec::new());
    let mut given = GIVEN.lock().unwrap_or_else(|e| e.into_inner());
    for _ in 0..10_000 {
        let mut h = std::collections::hash_map::RandomState::new().build_hasher();
        h.write_u32(std::process::id());
        let port = FREE_PORT_LOW + (h.finish() % u64::from(FREE_PORT_HIGH - FREE_PORT_LOW)) as u16;
        if given.contains(&port) {
            continue;
        }
        if std::net::TcpListener::bind(("127.0.0.1", port)).is_ok() {
            given.push(port);
            return port;
        }
    }
    panic!("no free port below the ephemeral range")
}

/// The ports tests give out: [`FREE_PORT_LOW`, `FREE_PORT_HIGH`), clear of the fixed ports of
/// `config/` (19092..19494, 29092..29494, 39092..) and of the ephemeral range.
const FREE_PORT_LOW: u16 = 20_000;
/// See [`FREE_PORT_LOW`].
const FREE_PORT_HIGH: u16 = 29_000;

/// One node: its directory, configuration and (when running) process.
pub struct Node {
    /// `node.id`.
    pub id: i32,
    /// Its data and log directory.
    pub dir: PathBuf,
    /// Its properties file.
    pub config: PathBuf,
    /// Its controller port.
    pub port: u16,
    /// Its broker (client) port; 0 on a controller-only node.
    pub broker_port: u16,
    /// Its metrics port (`GET /metrics`).
    pub metrics_port: u16,
    child: Option<Child>,
}

impl Node {
    /// A node in `root/node<id>` whose properties hold `node.id`, `roles`, `listeners`, the
    /// controller listener name, `quorum` lines, its data dir and `extra`.
    fn with_config(
        root: &Path,
        id: i32,
        roles: &str,
        listeners: &str,
        (broker_port, port): (u16, u16),
        quorum: &str,
        extra: &str,
    ) -> Node {
        let dir = root.join(format!("node{id}"));
        std::fs::create_dir_all(&dir).unwrap();
        let config = dir.join("server.properties");
        let metrics_port = free_port();
        std::fs::write(
            &config,
            format!(
                "node.id={id}\nprocess.roles={roles}\nlisteners={listeners}\n\
                 controller.listener.names=CONTROLLER\n{quorum}\nlog.dirs={}\n\
                 metrics.listener=http://127.0.0.1:{metrics_port}\n{extra}\n",
                dir.join("data").display()
            ),
        )
        .unwrap();
        Node {
            id,
            dir,
            config,
            port,
            broker_port,
            metrics_port,
            child: None,
        }
    }

    /// A controller-only node in `root` with `quorum` lines (voters or bootstrap servers).
    pub fn controller(root: &Path, id: i32, port: u16, quorum: &str, extra: &str) -> Node {
        let listeners = format!("CONTROLLER://127.0.0.1:{port}");
        Node::with_config(root, id, "controller", &listeners, (0, port), quorum, extra)
    }

    /// A combined (broker and controller) node in `root` with `quorum` lines; a broker port
    /// of 0 binds a free port ([`Node::broker_addr`] finds it).
    pub fn combined(
        root: &Path,
        id: i32,
        (broker_port, port): (u16, u16),
        quorum: &str,
        extra: &str,
    ) -> Node {
        let listeners =
            format!("PLAINTEXT://127.0.0.1:{broker_port},CONTROLLER://127.0.0.1:{port}");
        let ports = (broker_port, port);
        Node::with_config(
            root,
            id,
            "broker,controller",
            &listeners,
            ports,
            quorum,
            extra,
        )
    }

    /// A started single node with the embedded default's settings (`fjord server` with no
    /// arguments: combined roles, the internal topics at one replica) on free ports.
    pub fn embedded_like(root: &Path) -> Node {
        Node::embedded_like_with(root, "")
    }

    /// [`Node::embedded_like`] with `more` properties.
    pub fn embedded_like_with(root: &Path, more: &str) -> Node {
        let (broker, controller) = (free_port(), free_port());
        let voters = format!("controller.quorum.voters=1@127.0.0.1:{controller}");
        let extra = "offsets.topic.replication.factor=1\n\
                     transaction.state.log.replication.factor=1\n\
                     transaction.state.log.min.isr=1\n\
                     share.coordinator.state.topic.replication.factor=1\n\
                     share.coordinator.state.topic.min.isr=1\n";
        let extra = format!("{extra}{more}");
        let mut node = Node::combined(root, 1, (broker, controller), &voters, &extra);
        node.format(&random_uuid(), &[]);
        node.start();
        node
    }

    /// A broker-only node in `root` with `quorum` lines.
    pub fn broker(root: &Path, id: i32, broker_port: u16, quorum: &str, extra: &str) -> Node {
        let listeners = format!("PLAINTEXT://127.0.0.1:{broker_port}");
        Node::with_config(
            root,
            id,
            "broker",
            &listeners,
            (broker_port, 0),
            quorum,
            extra,
        )
    }

    /// The cluster id its directory was formatted with.
    pub fn cluster_id(&self) -> String {
        let text = std::fs::read_to_string(self.dir.join("data").join("meta.properties")).unwrap();
        text.lines()
            .find_map(|l| l.strip_prefix("cluster.id="))
            .unwrap()
            .to_string()
    }

    /// `host:port` of its broker listener. A node configured with broker port 0 binds a
    /// free port and logs it; this waits (up to 30 s) for that line, so no other process can
    /// take the port between picking and binding it.
    pub fn broker_addr(&self) -> String {
        if self.broker_port != 0 {
            return format!("127.0.0.1:{}", self.broker_port);
        }
        wait_for(Duration::from_secs(30), || {
            let log = std::fs::read_to_string(self.dir.join("server.log")).ok()?;
            let line = log
                .lines()
                .rev()
                .find(|l| l.contains("broker listener bound"))?;
            let rest = &line[line.find("addr=")? + "addr=".len()..];
            Some(rest.split_whitespace().next()?.to_string())
        })
        .unwrap_or_else(|| {
            panic!(
                "node {} never bound its broker port:\n{}",
                self.id,
                self.log_tail()
            )
        })
    }

    /// True while its process runs (it has not exited on its own).
    pub fn alive(&mut self) -> bool {
        self.child
            .as_mut()
            .is_some_and(|c| matches!(c.try_wait(), Ok(None)))
    }

    /// `host:port` of its controller listener.
    pub fn addr(&self) -> String {
        format!("127.0.0.1:{}", self.port)
    }

    /// Formats its directories.
    pub fn format(&self, cluster_id: &str, extra: &[&str]) {
        let mut args = vec![
            "format",
            "--config",
            self.config.to_str().unwrap(),
            "--cluster-id",
            cluster_id,
        ];
        args.extend_from_slice(extra);
        let out = fjord(&args);
        assert!(
            out.status.success(),
            "format failed: {}",
            String::from_utf8_lossy(&out.stderr)
        );
    }

    /// Starts the process (its log goes to `server.log` in its directory).
    pub fn start(&mut self) {
        assert!(self.child.is_none(), "node {} already runs", self.id);
        let log = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(self.dir.join("server.log"))
            .unwrap();
        let child = Command::new(fjord_bin())
            .args(["server", "--config", self.config.to_str().unwrap()])
            // FJORD_TEST_LOG (a RUST_LOG filter) makes the nodes of a test say more.
            .env(
                "RUST_LOG",
                std::env::var("FJORD_TEST_LOG").unwrap_or_else(|_| "info".into()),
            )
            .stdout(Stdio::null())
            .stderr(log)
            .spawn()
            .expect("start fjord");
        self.child = Some(child);
    }

    /// A formatted, started single combined node (a standalone quorum) in `root`, its broker
    /// on `broker_port` (0: any), with `extra` properties.
    pub fn single(root: &Path, broker_port: u16, extra: &str) -> Node {
        let ports = (broker_port, free_port());
        let quorum = format!("controller.quorum.bootstrap.servers=127.0.0.1:{}", ports.1);
        let mut node = Node::combined(root, 1, ports, &quorum, extra);
        node.format(&random_uuid(), &["--standalone"]);
        node.start();
        node
    }

    /// SIGKILLs the process.
    pub fn kill(&mut self) {
        if let Some(mut c) = self.child.take() {
            let _ = c.kill();
            let _ = c.wait();
        }
    }

    /// Stops the process with SIGTERM (a graceful stop) and waits up to 30 s for it to exit;
    /// returns whether it exited successfully.
    pub fn stop(&mut self) -> bool {
        let Some(mut c) = self.child.take() else {
            return false;
        };
        let sent = Command::new("kill")
            .args(["-TERM", &c.id().to_string()])
            .status()
            .is_ok_and(|s| s.success());
        assert!(sent, "sending SIGTERM");
        let status = wait_for(Duration::from_secs(30), || c.try_wait().ok().flatten());
        match status {
            Some(s) => s.success(),
            None => {
                let _ = c.kill();
                let _ = c.wait();
                false
            }
        }
    }

    /// Sends the process a signal by name (`STOP` pauses it, `CONT` resumes it).
    pub fn signal(&self, name: &str) {
        let c = self.child.as_ref().expect("a running node");
        let sent = Command::new("kill")
            .args([format!("-{name}"), c.id().to_string()])
            .status()
            .is_ok_and(|s| s.success());
        assert!(sent, "sending SIG{name}");
    }

    /// True while it runs.
    pub fn running(&self) -> bool {
        self.child.is_some()
    }

    /// The metadata directory id from `meta.properties`.
    pub fn directory_id(&self) -> String {
        let text = std::fs::read_to_string(self.dir.join("data").join("meta.properties")).unwrap();
        text.lines()
            .find_map(|l| l.strip_prefix("directory.id="))
            .unwrap()
            .to_string()
    }

    /// The tail of its log, for failure messages.
    pub fn log_tail(&self) -> String {
        let text = std::fs::read_to_string(self.dir.join("server.log")).unwrap_or_default();
        let lines: Vec<&str> = text.lines().collect();
        lines[lines.len().saturating_sub(15)..].join("\n")
    }
}

impl Drop for Node {
    fn drop(&mut self) {
        self.kill();
    }
}

/// `controller.quorum.voters` for nodes 1, 2, ... with these (broker, controller) ports.
pub fn static_voters(ports: &[(u16, u16)]) -> String {
    ports
        .iter()
        .enumerate()
        .map(|(i, (_, c))| format!("{}@127.0.0.1:{c}", i + 1))
        .collect::<Vec<_>>()
        .join(",")
}

/// `n` combined nodes on free ports with static voters, formatted and started.
pub fn combined_cluster(root: &Path, n: i32, extra: &str) -> Vec<Node> {
    let ports: Vec<(u16, u16)> = (0..n).map(|_| (free_port(), free_port())).collect();
    let voters = static_voters(&ports);
    let cluster_id = random_uuid();
    let mut nodes: Vec<Node> = ports
        .iter()
        .enumerate()
        .map(|(i, p)| {
            Node::combined(
                root,
                i as i32 + 1,
                *p,
                &format!("controller.quorum.voters={voters}"),
                extra,
            )
        })
        .collect();
    for node in &mut nodes {
        node.format(&cluster_id, &[]);
        node.start();
    }
    nodes
}

/// Settings that make replication react within seconds in tests: followers fetch every
/// 100 ms, lag out after 2 s; brokers are fenced 3 s after their last heartbeat.
pub const FAST_REPLICATION: &str = "replica.lag.time.max.ms=2000\nreplica.fetch.wait.max.ms=100\n\
     broker.session.timeout.ms=3000\nbroker.heartbeat.interval.ms=500";

/// A controller-only node (id 10) and brokers 1..=`brokers` on free ports, formatted and
/// started, each with `extra` properties.
pub fn controller_and_brokers(root: &Path, brokers: i32, extra: &str) -> (Node, Vec<Node>) {
    let cport = free_port();
    let voters = format!("controller.quorum.voters=10@127.0.0.1:{cport}");
    let cluster = random_uuid();
    let mut controller = Node::controller(root, 10, cport, &voters, extra);
    controller.format(&cluster, &[]);
    controller.start();
    let mut nodes: Vec<Node> = (1..=brokers)
        .map(|id| Node::broker(root, id, free_port(), &voters, extra))
        .collect();
    for b in &mut nodes {
        b.format(&cluster, &[]);
        b.start();
    }
    (controller, nodes)
}

/// A partition's whole log on one node: its segments, concatenated in offset order (empty
/// when the node holds no replica).
pub fn partition_log_bytes(node: &Node, topic: &str, partition: i32) -> Vec<u8> {
    let dir = node.dir.join("data").join(format!("{topic}-{partition}"));
    let mut segments: Vec<PathBuf> = std::fs::read_dir(&dir)
        .map(|d| d.filter_map(Result::ok).map(|e| e.path()).collect())
        .unwrap_or_default();
    segments.retain(|p| p.extension().is_some_and(|e| e == "log"));
    segments.sort();
    segments
        .iter()
        .flat_map(|p| std::fs::read(p).unwrap_or_default())
        .collect()
}

/// Waits (up to 30 s) until every node holds the same bytes for `topic`-`partition`.
pub fn replicas_identical(nodes: &[Node], topic: &str, partition: i32) -> bool {
    wait_for(Duration::from_secs(30), || {
        let logs: Vec<Vec<u8>> = nodes
            .iter()
            .map(|n| partition_log_bytes(n, topic, partition))
            .collect();
        (!logs[0].is_empty() && logs.iter().all(|l| *l == logs[0])).then_some(())
    })
    .is_some()
}

/// Creates `topic` (`partitions`, replication factor 3, these configs) through librdkafka's
/// admin client at `bootstrap`, asking again until the cluster takes it (up to 60 s).
pub fn create_replicated_topic(
    bootstrap: &str,
    topic: &str,
    partitions: i32,
    configs: &[(&str, &str)],
) -> bool {
    use rdkafka::admin::{AdminClient, AdminOptions, NewTopic, TopicReplication};
    let admin: AdminClient<rdkafka::client::DefaultClientContext> =
        rdkafka::config::ClientConfig::new()
            .set("bootstrap.servers", bootstrap)
            .create()
            .unwrap();
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    wait_for(Duration::from_secs(60), || {
        let mut new = NewTopic::new(topic, partitions, TopicReplication::Fixed(3));
        for (k, v) in configs {
            new = new.set(k, v);
        }
        let r = rt
            .block_on(admin.create_topics(&[new], &AdminOptions::new()))
            .ok()?;
        r[0].is_ok().then_some(())
    })
    .is_some()
}

/// Partition 0 of `topic` as broker `addr` sees it: (topic id, leader, sorted ISR).
pub fn partition_zero(
    rt: &tokio::runtime::Runtime,
    addr: &str,
    topic: &str,
) -> Option<(fjord_protocol::Uuid, i32, Vec<i32>)> {
    let plaintext = fjord_net::security::ClientSecurity::plaintext();
    partition_zero_with(rt, addr, &plaintext, topic)
}

/// [`partition_zero`] over a connection secured by `security`.
pub fn partition_zero_with(
    rt: &tokio::runtime::Runtime,
    addr: &str,
    security: &fjord_net::security::ClientSecurity,
    topic: &str,
) -> Option<(fjord_protocol::Uuid, i32, Vec<i32>)> {
    use fjord_protocol::generated::metadata_request::{MetadataRequest, MetadataRequestTopic};
    let request = RequestBody::Metadata(MetadataRequest {
        topics: Some(vec![MetadataRequestTopic {
            name: Some(topic.into()),
            ..Default::default()
        }]),
        ..Default::default()
    });
    let ResponseBody::Metadata(m) = rt.block_on(call_with(addr, security, request, 12))? else {
        return None;
    };
    let t = m.topics.first()?;
    let p = t.partitions.iter().find(|p| p.partition_index == 0)?;
    let mut isr = p.isr_nodes.clone();
    isr.sort_unstable();
    Some((t.topic_id, p.leader_id, isr))
}

/// Creates each `(name, configs)` topic with one partition on replicas 1, 2, 3 (led by 1)
/// through broker `addr`, asking again until the cluster takes them (up to 60 s).
pub fn create_on_brokers_1_2_3(
    rt: &tokio::runtime::Runtime,
    addr: &str,
    topics: &[(&str, &[(&str, &str)])],
) -> bool {
    use fjord_protocol::generated::create_topics_request::{
        CreatableReplicaAssignment, CreatableTopic, CreatableTopicConfig, CreateTopicsRequest,
    };
    let create = RequestBody::CreateTopics(CreateTopicsRequest {
        topics: topics
            .iter()
            .map(|(name, configs)| CreatableTopic {
                name: name.to_string(),
                num_partitions: -1,
                replication_factor: -1,
                assignments: vec![CreatableReplicaAssignment {
                    partition_index: 0,
                    broker_ids: vec![1, 2, 3],
                    ..Default::default()
                }],
                configs: configs
                    .iter()
                    .map(|(k, v)| CreatableTopicConfig {
                        name: k.to_string(),
                        value: Some(v.to_string()),
                        ..Default::default()
                    })
                    .collect(),
                ..Default::default()
            })
            .collect(),
        timeout_ms: 30_000,
        ..Default::default()
    });
    wait_for(Duration::from_secs(60), || {
        match rt.block_on(call(addr, create.clone(), 7))? {
            ResponseBody::CreateTopics(r) => {
                r.topics.iter().all(|t| t.error_code == 0).then_some(())
            }
            _ => None,
        }
    })
    .is_some()
}

/// Polls `f` every 50 ms until it returns `Some` or `timeout` passes.
pub fn wait_for<T>(timeout: Duration, mut f: impl FnMut() -> Option<T>) -> Option<T> {
    let deadline = Instant::now() + timeout;
    loop {
        if let Some(v) = f() {
            return Some(v);
        }
        if Instant::now() >= deadline {
            return None;
        }
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// One request to `addr`; `None` when it fails.
/// An ApiVersions request as a client sends it from v3 (KIP-511 software name and version).
pub fn api_versions_request() -> RequestBody {
    RequestBody::ApiVersions(
        fjord_protocol::generated::api_versions_request::ApiVersionsRequest {
            client_software_name: "fjord-tests".into(),
            client_software_version: "1".into(),
            ..Default::default()
        },
    )
}

pub async fn call(addr: &str, body: RequestBody, version: i16) -> Option<ResponseBody> {
    call_with(
        addr,
        &fjord_net::security::ClientSecurity::plaintext(),
        body,
        version,
    )
    .await
}

/// One request to `addr` over a connection secured by `security`; `None` when it fails.
pub async fn call_with(
    addr: &str,
    security: &fjord_net::security::ClientSecurity,
    body: RequestBody,
    version: i16,
) -> Option<ResponseBody> {
    let timeout = Duration::from_secs(2);
    let c = Client::connect_with(addr, timeout, "fjord-tests", security)
        .await
        .ok()?;
    c.call(body, version, timeout).await.ok()
}

/// The quorum as its leader describes it, asking through any of `addrs`.
pub async fn describe(addrs: &[String]) -> Option<PartitionData> {
    for a in addrs {
        let Some(ResponseBody::DescribeCluster(c)) = call(
            a,
            RequestBody::DescribeCluster(DescribeClusterRequest {
                endpoint_type: 2,
                ..Default::default()
            }),
            2,
        )
        .await
        else {
            continue;
        };
        let Some(leader) = c.brokers.iter().find(|b| b.broker_id == c.controller_id) else {
            continue;
        };
        let r = call(
            &format!("{}:{}", leader.host, leader.port),
            RequestBody::DescribeQuorum(DescribeQuorumRequest {
                topics: vec![dqr::TopicData {
                    topic_name: "__cluster_metadata".into(),
                    partitions: vec![dqr::PartitionData::default()],
                    ..Default::default()
                }],
                ..Default::default()
            }),
            2,
        )
        .await;
        if let Some(ResponseBody::DescribeQuorum(r)) = r {
            if r.error_code == 0 {
                return r.topics.into_iter().next()?.partitions.into_iter().next();
            }
        }
    }
    None
}

/// A leader whose epoch has committed: its high watermark reached its log end (the newest
/// entry is its own leader-change record, or later).
pub fn committed_leader(p: &PartitionData) -> bool {
    p.current_voters
        .iter()
        .find(|v| v.replica_id == p.leader_id)
        .is_some_and(|l| p.high_watermark >= l.log_end_offset && p.high_watermark > 0)
}

/// Produces `v{i}` for each `i` in `values` to partition 0 of `topic` with acks=all through
/// librdkafka, and waits until every one is acknowledged (panics otherwise).
pub fn produce_acked(
    rt: &tokio::runtime::Runtime,
    bootstrap: &str,
    topic: &str,
    values: std::ops::Range<usize>,
) {
    use rdkafka::producer::{FutureProducer, FutureRecord};
    let producer: FutureProducer = rdkafka::config::ClientConfig::new()
        .set("bootstrap.servers", bootstrap)
        .set("acks", "all")
        .set("message.timeout.ms", "60000")
        .create()
        .unwrap();
    rt.block_on(async {
        let mut pending = Vec::new();
        for i in values {
            let v = format!("v{i}");
            let r = FutureRecord::to(topic).key("k").payload(&v).partition(0);
            pending.push(producer.send_result(r).map_err(|(e, _)| e).unwrap());
        }
        for p in pending {
            p.await.unwrap().map_err(|(e, _)| e).expect("acknowledged");
        }
    });
}

/// The values of partition 0 of `topic` from the beginning, read with librdkafka until
/// `expected` arrived or 60 s passed (then a poll that finds nothing more ends it early).
pub fn consume_values(bootstrap: &str, topic: &str, expected: usize) -> Vec<String> {
    consume_values_with(bootstrap, topic, expected, &[])
}

/// [`consume_values`] with more librdkafka settings (security ones, say); the consumer's
/// group is `read-<topic>`.
pub fn consume_values_with(
    bootstrap: &str,
    topic: &str,
    expected: usize,
    settings: &[(&str, &str)],
) -> Vec<String> {
    read_from_start(
        bootstrap,
        topic,
        expected,
        settings,
        Duration::from_secs(60),
        usize::MAX,
    )
}

/// The values of partition 0 of `topic` from the beginning (each cut to its first `keep`
/// bytes), read with librdkafka until `expected` arrived or `deadline` passed.
pub fn read_from_start(
    bootstrap: &str,
    topic: &str,
    expected: usize,
    settings: &[(&str, &str)],
    deadline: Duration,
    keep: usize,
) -> Vec<String> {
    use rdkafka::consumer::{BaseConsumer, Consumer};
    use rdkafka::message::Message;
    let mut config = rdkafka::config::ClientConfig::new();
    for (k, v) in settings {
        config.set(*k, *v);
    }
    let consumer: BaseConsumer = config
        .set("bootstrap.servers", bootstrap)
        .set("group.id", format!("read-{topic}"))
        .set("enable.auto.commit", "false")
        .create()
        .unwrap();
    let mut tpl = rdkafka::TopicPartitionList::new();
    tpl.add_partition_offset(topic, 0, rdkafka::Offset::Beginning)
        .unwrap();
    consumer.assign(&tpl).unwrap();
    let mut got = Vec::new();
    let deadline = Instant::now() + deadline;
    while got.len() < expected && Instant::now() < deadline {
        if let Some(Ok(m)) = consumer.poll(Duration::from_millis(500)) {
            let v = m.payload().unwrap_or_default();
            got.push(String::from_utf8_lossy(&v[..v.len().min(keep)]).into_owned());
        }
    }
    got
}

/// ListOffsets of `topic`-0 at `timestamp` through `addr` (-2 earliest, -4 earliest local,
/// -5 latest tiered); None on an error.
pub fn list_offset(
    rt: &tokio::runtime::Runtime,
    addr: &str,
    topic: &str,
    timestamp: i64,
) -> Option<i64> {
    use fjord_protocol::generated::list_offsets_request::{
        ListOffsetsPartition, ListOffsetsRequest, ListOffsetsTopic,
    };
    let ask = RequestBody::ListOffsets(ListOffsetsRequest {
        replica_id: -1,
        topics: vec![ListOffsetsTopic {
            name: topic.into(),
            partitions: vec![ListOffsetsPartition {
                partition_index: 0,
                timestamp,
                current_leader_epoch: -1,
                ..Default::default()
            }],
            ..Default::default()
        }],
        ..Default::default()
    });
    let ResponseBody::ListOffsets(r) = rt.block_on(call(addr, ask, 9))? else {
        return None;
    };
    let p = r.topics.first()?.partitions.first()?;
    (p.error_code == 0).then_some(p.offset)
}

/// A tool's output as text.
pub fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

/// What a tool printed, for a failed assertion.
pub fn show(o: &Output) -> String {
    format!(
        "status {:?}\nstdout:\n{}\nstderr:\n{}",
        o.status.code(),
        text(&o.stdout),
        text(&o.stderr)
    )
}

/// Waits (up to 60 s) until Metadata through one of `bootstrap` (comma separated) lists every
/// broker in `ids` (Metadata names only unfenced brokers), so that a partition created on them
/// gets its preferred leader.
pub fn wait_brokers_unfenced(bootstrap: &str, ids: &[i32]) {
    use fjord_protocol::generated::metadata_request::MetadataRequest;
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    let all = wait_for(Duration::from_secs(60), || {
        bootstrap.split(',').find_map(|addr| {
            let request = RequestBody::Metadata(MetadataRequest {
                topics: Some(vec![]),
                ..Default::default()
            });
            let ResponseBody::Metadata(m) = rt.block_on(call(addr, request, 12))? else {
                return None;
            };
            ids.iter()
                .all(|id| m.brokers.iter().any(|b| b.node_id == *id))
                .then_some(())
        })
    });
    assert!(all.is_some(), "brokers {ids:?} never all unfenced");
}

/// Creates `topic` with one partition on `replicas` (b1:b2:...) and these configs through
/// `kafka-topics --create`, once every broker named is unfenced (so the first one leads),
/// asking again until the cluster takes it (up to 60 s).
pub fn create(bootstrap: &str, topic: &str, replicas: &str, configs: &[&str]) {
    let ids: Vec<i32> = replicas
        .split([',', ':'])
        .filter_map(|b| b.trim().parse().ok())
        .collect();
    wait_brokers_unfenced(bootstrap, &ids);
    let mut args = vec![
        "kafka-topics",
        "--bootstrap-server",
        bootstrap,
        "--create",
        "--if-not-exists",
        "--topic",
        topic,
        "--replica-assignment",
        replicas,
    ];
    for c in configs {
        args.extend(["--config", c]);
    }
    let created = wait_for(Duration::from_secs(60), || {
        fjord(&args).status.success().then_some(())
    });
    assert!(created.is_some(), "{}", show(&fjord(&args)));
}

/// Waits (up to 60 s) until `topic`-0 as broker `addr` sees it satisfies `f(leader, isr)`.
pub fn wait_partition(
    rt: &tokio::runtime::Runtime,
    addr: &str,
    topic: &str,
    what: &str,
    f: impl Fn(i32, &[i32]) -> bool,
) {
    let seen = wait_for(Duration::from_secs(60), || {
        partition_zero(rt, addr, topic).filter(|(_, l, isr)| f(*l, isr))
    });
    assert!(
        seen.is_some(),
        "{topic}: {what}; now {:?}",
        partition_zero(rt, addr, topic)
    );
}

/// The text of `GET /metrics` on 127.0.0.1:`port`, headers included.
pub fn metrics_text(port: u16) -> String {
    use std::io::{Read, Write};
    let mut s = std::net::TcpStream::connect(("127.0.0.1", port)).unwrap();
    s.write_all(b"GET /metrics HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
        .unwrap();
    let mut text = String::new();
    s.read_to_string(&mut text).unwrap();
    text
}

/// Each partition's (leader, sorted ISR) of a topic, by index.
pub type Leaders = std::collections::BTreeMap<i32, (i32, Vec<i32>)>;

/// `topic`'s id and each partition's (leader, sorted ISR) as broker `addr` sees it (Metadata).
pub fn partitions_of(
    rt: &tokio::runtime::Runtime,
    addr: &str,
    topic: &str,
) -> Option<(fjord_protocol::Uuid, Leaders)> {
    use fjord_protocol::generated::metadata_request::{MetadataRequest, MetadataRequestTopic};
    let request = RequestBody::Metadata(MetadataRequest {
        topics: Some(vec![MetadataRequestTopic {
            name: Some(topic.into()),
            ..Default::default()
        }]),
        ..Default::default()
    });
    let ResponseBody::Metadata(m) = rt.block_on(call(addr, request, 12))? else {
        return None;
    };
    let t = m.topics.first()?;
    let leaders = t
        .partitions
        .iter()
        .map(|p| {
            let mut isr = p.isr_nodes.clone();
            isr.sort_unstable();
            (p.partition_index, (p.leader_id, isr))
        })
        .collect();
    Some((t.topic_id, leaders))
}

/// Produces `count` records of `size` bytes to partition 0 of `topic` through librdkafka with
/// `settings` (acks, client.id, ...) on top of a 5 ms linger, and waits until every one is
/// acknowledged (panics otherwise); how long that took.
pub fn produce_sized(
    bootstrap: &str,
    topic: &str,
    settings: &[(&str, &str)],
    count: usize,
    size: usize,
) -> Duration {
    use rdkafka::producer::{FutureProducer, FutureRecord};
    let rt = tokio::runtime::Runtime::new().unwrap();
    let mut config = rdkafka::config::ClientConfig::new();
    config
        .set("bootstrap.servers", bootstrap)
        .set("linger.ms", "5")
        .set("message.timeout.ms", "120000");
    for (k, v) in settings {
        config.set(*k, *v);
    }
    let producer: FutureProducer = config.create().unwrap();
    let payload = vec![b'p'; size];
    let started = Instant::now();
    rt.block_on(async {
        let mut pending = Vec::new();
        for _ in 0..count {
            let r = FutureRecord::<(), _>::to(topic)
                .payload(&payload)
                .partition(0);
            pending.push(producer.send_result(r).map_err(|(e, _)| e).unwrap());
        }
        for p in pending {
            p.await.unwrap().map_err(|(e, _)| e).expect("acknowledged");
        }
    });
    started.elapsed()
}

/// The cells of `broker`'s row in a `kafka-unclean-recovery` table (empty when there is none).
pub fn recovery_row(out: &str, broker: i32) -> Vec<String> {
    let id = broker.to_string();
    out.lines()
        .map(|l| l.split_whitespace().map(String::from).collect::<Vec<_>>())
        .find(|w| w.first() == Some(&id))
        .unwrap_or_default()
}

/// DeleteRecords of `topic`-0 up to `to` at `addr`, asserting it is answered with that low
/// watermark.
pub fn delete_records_to(rt: &tokio::runtime::Runtime, addr: &str, topic: &str, to: i64) {
    use fjord_protocol::generated::delete_records_request::{
        DeleteRecordsPartition, DeleteRecordsRequest, DeleteRecordsTopic,
    };
    let delete = RequestBody::DeleteRecords(DeleteRecordsRequest {
        topics: vec![DeleteRecordsTopic {
            name: topic.into(),
            partitions: vec![DeleteRecordsPartition {
                partition_index: 0,
                offset: to,
                ..Default::default()
            }],
            ..Default::default()
        }],
        timeout_ms: 10_000,
        ..Default::default()
    });
    let Some(ResponseBody::DeleteRecords(d)) = rt.block_on(call(addr, delete, 2)) else {
        panic!("DeleteRecords answered")
    };
    let p = &d.topics[0].partitions[0];
    assert_eq!((p.error_code, p.low_watermark), (0, to));
}

/// Runs `fjord kafka-unclean-recovery --topic topic --deadline-ms deadline_ms` with `flags`.
pub fn unclean_recovery(bootstrap: &str, topic: &str, deadline_ms: u64, flags: &[&str]) -> Output {
    let deadline = deadline_ms.to_string();
    let mut args = vec![
        "kafka-unclean-recovery",
        "--bootstrap-server",
        bootstrap,
        "--topic",
        topic,
        "--deadline-ms",
        &deadline,
    ];
    args.extend_from_slice(flags);
    fjord(&args)
}

/// [`unclean_recovery`], asserting it succeeded; what it printed.
pub fn unclean_recovered(bootstrap: &str, topic: &str, deadline_ms: u64, flags: &[&str]) -> String {
    let o = unclean_recovery(bootstrap, topic, deadline_ms, flags);
    assert!(o.status.success(), "{}", show(&o));
    text(&o.stdout)
}

/// AlterPartitionReassignments of `topic`-0 to `replicas` (None: cancel) through `addr`; the
/// partition's error code.
pub fn reassign(
    rt: &tokio::runtime::Runtime,
    addr: &str,
    topic: &str,
    replicas: Option<&[i32]>,
) -> i16 {
    let body = RequestBody::AlterPartitionReassignments(fjord_protocol::generated::alter_partition_reassignments_request::AlterPartitionReassignmentsRequest {
        timeout_ms: 60_000,
        allow_replication_factor_change: true,
        topics: vec![fjord_protocol::generated::alter_partition_reassignments_request::ReassignableTopic {
            name: topic.into(),
            partitions: vec![fjord_protocol::generated::alter_partition_reassignments_request::ReassignablePartition {
                partition_index: 0,
                replicas: replicas.map(<[i32]>::to_vec),
                ..Default::default()
            }],
            ..Default::default()
        }],
        ..Default::default()
    });
    match rt.block_on(call(addr, body, 1)) {
        Some(ResponseBody::AlterPartitionReassignments(r)) => {
            assert_eq!(r.error_code, 0, "{r:?}");
            r.responses[0].partitions[0].error_code
        }
        other => panic!("{other:?}"),
    }
}
