//! A three-node cluster from `config/cluster/` (combined roles; ports and directories
//! overridden to free ones on 127.0.0.1), watched through real librdkafka (the `rdkafka`
//! crate): all brokers register and are unfenced; a topic created with the admin client gets
//! leaders on every broker; SIGKILL one node: within the session timeout (plus a controller
//! failover when it was the active one) it is fenced and its partitions get new leaders, as
//! librdkafka's Metadata shows; restarted, it is unfenced again.

mod common;

use common::{fjord, wait_for};
use rdkafka::admin::{AdminClient, AdminOptions, NewTopic, TopicReplication};
use rdkafka::client::DefaultClientContext;
use rdkafka::config::ClientConfig;
use rdkafka::consumer::{BaseConsumer, Consumer};
use std::collections::BTreeMap;
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// Kafka's default `broker.session.timeout.ms`.
const SESSION_TIMEOUT: Duration = Duration::from_secs(9);
/// A controller failover: the KRaft fetch timeout and an election, with room.
const FAILOVER: Duration = Duration::from_secs(6);

struct ClusterNode {
    id: i32,
    args: Vec<String>,
    log: std::path::PathBuf,
    child: Option<Child>,
}

impl ClusterNode {
    fn start(&mut self) {
        let log = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(&self.log)
            .unwrap();
        self.child = Some(
            Command::new(common::fjord_bin())
                .arg("server")
                .args(&self.args)
                .args(["--override", "metrics.listener="])
                .env("RUST_LOG", "info")
                .stdout(Stdio::null())
                .stderr(log)
                .spawn()
                .unwrap(),
        );
    }
    fn kill(&mut self) {
        if let Some(mut c) = self.child.take() {
            let _ = c.kill();
            let _ = c.wait();
        }
    }
}

impl Drop for ClusterNode {
    fn drop(&mut self) {
        self.kill();
    }
}

/// (broker ids, partition -> leader) as librdkafka sees the cluster.
fn metadata(consumer: &BaseConsumer, topic: &str) -> Option<(Vec<i32>, BTreeMap<i32, i32>)> {
    let m = consumer
        .fetch_metadata(Some(topic), Duration::from_secs(2))
        .ok()?;
    let mut brokers: Vec<i32> = m.brokers().iter().map(|b| b.id()).collect();
    brokers.sort_unstable();
    let t = m.topics().iter().find(|t| t.name() == topic)?;
    let leaders = t
        .partitions()
        .iter()
        .map(|p| (p.id(), p.leader()))
        .collect();
    Some((brokers, leaders))
}

#[test]
fn a_killed_node_is_fenced_its_partitions_move_and_it_returns() {
    let root = tempfile::tempdir().unwrap();
    let ports: Vec<(u16, u16)> = (0..3)
        .map(|_| (common::free_port(), common::free_port()))
        .collect();
    let voters = common::static_voters(&ports);
    let config_dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../config/cluster");
    let cluster_id = common::random_uuid();
    let mut nodes: Vec<ClusterNode> = (0..3)
        .map(|i| {
            let (p, c) = ports[i];
            let dir = root.path().join(format!("node{}", i + 1));
            let args: Vec<String> = vec![
                "--config".into(),
                config_dir
                    .join(format!("node{}.properties", i + 1))
                    .display()
                    .to_string(),
                "--override".into(),
                format!("listeners=PLAINTEXT://127.0.0.1:{p},CONTROLLER://127.0.0.1:{c}"),
                "--override".into(),
                format!("advertised.listeners=PLAINTEXT://127.0.0.1:{p}"),
                "--override".into(),
                format!("controller.quorum.voters={voters}"),
                "--override".into(),
                format!("log.dirs={}", dir.display()),
                // Snapshot often, so the restarted node loads one.
                "--override".into(),
                "metadata.log.max.record.bytes.between.snapshots=4096".into(),
            ];
            let mut format_args: Vec<&str> = vec!["format"];
            format_args.extend(args.iter().map(String::as_str));
            format_args.extend(["--cluster-id", &cluster_id]);
            let out = fjord(&format_args);
            assert!(
                out.status.success(),
                "{}",
                String::from_utf8_lossy(&out.stderr)
            );
            ClusterNode {
                id: i as i32 + 1,
                args,
                log: root.path().join(format!("node{}.log", i + 1)),
                child: None,
            }
        })
        .collect();
    for n in &mut nodes {
        n.start();
    }
    let bootstrap = ports
        .iter()
        .map(|(p, _)| format!("127.0.0.1:{p}"))
        .collect::<Vec<_>>()
        .join(",");
    let consumer: BaseConsumer = ClientConfig::new()
        .set("bootstrap.servers", &bootstrap)
        .set("group.id", "fjord-test")
        .create()
        .unwrap();
    let all_up = wait_for(Duration::from_secs(30), || {
        let m = consumer.fetch_metadata(None, Duration::from_secs(2)).ok()?;
        let mut ids: Vec<i32> = m.brokers().iter().map(|b| b.id()).collect();
        ids.sort_unstable();
        (ids == vec![1, 2, 3]).then_some(())
    });
    assert!(
        all_up.is_some(),
        "three unfenced brokers: {}",
        std::fs::read_to_string(&nodes[0].log).unwrap_or_default()
    );

    let admin: AdminClient<DefaultClientContext> = ClientConfig::new()
        .set("bootstrap.servers", &bootstrap)
        .create()
        .unwrap();
    let rt = tokio::runtime::Runtime::new().unwrap();
    let created = rt
        .block_on(admin.create_topics(
            &[NewTopic::new("orders", 6, TopicReplication::Fixed(3))],
            &AdminOptions::new().operation_timeout(Some(Duration::from_secs(10))),
        ))
        .unwrap();
    assert!(created[0].is_ok(), "{created:?}");
    let (_, leaders) = wait_for(Duration::from_secs(20), || {
        metadata(&consumer, "orders").filter(|(_, l)| l.len() == 6 && l.values().all(|x| *x > 0))
    })
    .expect("six partitions with leaders");
    let mut per_broker = BTreeMap::new();
    for l in leaders.values() {
        *per_broker.entry(*l).or_insert(0) += 1;
    }
    assert_eq!(per_broker.len(), 3, "leaders on every broker: {leaders:?}");

    // SIGKILL broker 2.
    let victim = 2;
    nodes[1].kill();
    let killed = Instant::now();
    // Before it is fenced, each surviving node names itself as the controller clients should
    // use (it is alive and forwards): never the dead node, whatever its id.
    for (i, (p, _)) in ports.iter().enumerate().filter(|(i, _)| *i != 1) {
        let ask = fjord_protocol::RequestBody::Metadata(
            fjord_protocol::generated::metadata_request::MetadataRequest {
                topics: Some(Vec::new()),
                ..Default::default()
            },
        );
        let answered = rt.block_on(common::call(&format!("127.0.0.1:{p}"), ask, 12));
        let Some(fjord_protocol::ResponseBody::Metadata(m)) = answered else {
            panic!("node {} answers Metadata", i + 1)
        };
        assert_eq!(m.controller_id, i as i32 + 1, "node {} names itself", i + 1);
    }
    let moved = wait_for(SESSION_TIMEOUT + FAILOVER + Duration::from_secs(5), || {
        metadata(&consumer, "orders").filter(|(brokers, l)| {
            !brokers.contains(&victim) && l.len() == 6 && l.values().all(|x| *x > 0 && *x != victim)
        })
    });
    let took = killed.elapsed();
    let (brokers, leaders) = moved.unwrap_or_else(|| {
        panic!(
            "broker {victim} not fenced or partitions not moved: {:?}\n{}",
            metadata(&consumer, "orders"),
            std::fs::read_to_string(&nodes[0].log).unwrap_or_default()
        )
    });
    eprintln!("fenced and moved after {took:?}: brokers {brokers:?}, leaders {leaders:?}");
    assert!(
        took <= SESSION_TIMEOUT + FAILOVER + Duration::from_secs(2),
        "took {took:?}"
    );

    // Restart it: it registers again and is unfenced.
    nodes[1].start();
    let back = wait_for(Duration::from_secs(30), || {
        metadata(&consumer, "orders").filter(|(b, _)| b.contains(&victim))
    });
    assert!(
        back.is_some(),
        "broker {victim} did not come back: {}",
        std::fs::read_to_string(&nodes[1].log).unwrap_or_default()
    );
    assert_eq!(nodes[1].id, victim);
}

#[test]
fn a_broker_only_node_follows_a_controller_only_quorum() {
    let root = tempfile::tempdir().unwrap();
    let (cport, bport) = (common::free_port(), common::free_port());
    let voters = format!("controller.quorum.voters=1@127.0.0.1:{cport}");
    let cluster_id = common::random_uuid();
    let mut controller = common::Node::controller(root.path(), 1, cport, &voters, "");
    controller.format(&cluster_id, &[]);
    controller.start();
    let dir = root.path().join("broker");
    std::fs::create_dir_all(&dir).unwrap();
    let props = dir.join("server.properties");
    std::fs::write(
        &props,
        format!(
            "node.id=2\nprocess.roles=broker\nlisteners=PLAINTEXT://127.0.0.1:{bport}\n\
             controller.listener.names=CONTROLLER\n{voters}\nlog.dirs={}\n",
            dir.join("data").display()
        ),
    )
    .unwrap();
    let out = fjord(&[
        "format",
        "--config",
        props.to_str().unwrap(),
        "--cluster-id",
        &cluster_id,
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let mut broker = ClusterNode {
        id: 2,
        args: vec!["--config".into(), props.display().to_string()],
        log: dir.join("server.log"),
        child: None,
    };
    broker.start();
    let consumer: BaseConsumer = ClientConfig::new()
        .set("bootstrap.servers", format!("127.0.0.1:{bport}"))
        .set("group.id", "fjord-test")
        .create()
        .unwrap();
    let up = wait_for(Duration::from_secs(30), || {
        let m = consumer.fetch_metadata(None, Duration::from_secs(2)).ok()?;
        (m.brokers().iter().map(|b| b.id()).collect::<Vec<_>>() == vec![2]).then_some(())
    });
    assert!(
        up.is_some(),
        "broker 2 registered and unfenced: {}",
        std::fs::read_to_string(&broker.log).unwrap_or_default()
    );
    // The broker follows the metadata log as an observer of the quorum.
    let rt = tokio::runtime::Runtime::new().unwrap();
    let p = wait_for(Duration::from_secs(20), || {
        rt.block_on(common::describe(&[controller.addr()]))
            .filter(|p| p.observers.iter().any(|o| o.replica_id == broker.id))
    })
    .expect("broker 2 observes the quorum");
    assert_eq!(p.current_voters.len(), 1);
}
