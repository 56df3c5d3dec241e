//! Faults that would turn into outages, each reproduced on real `fjord` processes: requests
//! that would write more than one operation may are refused and no node goes down; a client
//! that connects the instant the port opens finds a ready broker; Kafka's own quickstart
//! properties start a broker; `--override listeners` is what clients are sent to; a
//! controller-bound request at a controller that is not the active one gets its own API's
//! error response.

mod common;

use common::{call, combined_cluster, free_port, wait_for, Node};
use fjord_protocol::generated::{
    create_topics_request::{CreatableTopic, CreateTopicsRequest},
    describe_configs_request::{DescribeConfigsRequest, DescribeConfigsResource},
    metadata_request::MetadataRequest,
};
use fjord_protocol::{ErrorCode, RequestBody, ResponseBody};
use std::time::{Duration, Instant};

fn create(topics: &[(&str, i32)], validate_only: bool) -> RequestBody {
    RequestBody::CreateTopics(CreateTopicsRequest {
        topics: topics
            .iter()
            .map(|(name, partitions)| CreatableTopic {
                name: name.to_string(),
                num_partitions: *partitions,
                replication_factor: 1,
                ..Default::default()
            })
            .collect(),
        timeout_ms: 30_000,
        validate_only,
        ..Default::default()
    })
}

/// The topic errors of a CreateTopics answer, asked at `addr` (a long timeout: the answer to
/// an oversized request must come, not a dead node).
async fn create_errors(addr: &str, request: RequestBody) -> Vec<(String, i16)> {
    let c = fjord_net::client::Client::connect(addr, Duration::from_secs(5))
        .await
        .expect("connect");
    match c.call(request, 7, Duration::from_secs(30)).await {
        Ok(ResponseBody::CreateTopics(r)) => r
            .topics
            .into_iter()
            .map(|t| (t.name, t.error_code))
            .collect(),
        other => panic!("CreateTopics at {addr}: {other:?}"),
    }
}

/// Brokers listed by Metadata at `addr`.
async fn brokers_at(addr: &str) -> Option<usize> {
    match call(addr, RequestBody::Metadata(MetadataRequest::default()), 12).await? {
        ResponseBody::Metadata(m) => Some(m.brokers.len()),
        _ => None,
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn oversized_operations_are_refused_and_every_node_stays_up() {
    let root = tempfile::tempdir().unwrap();
    let mut nodes = combined_cluster(root.path(), 3, "");
    let addrs: Vec<String> = nodes.iter().map(Node::broker_addr).collect();
    let deadline = Instant::now() + Duration::from_secs(30);
    for a in &addrs {
        while brokers_at(a).await != Some(3) {
            assert!(Instant::now() < deadline, "{a} never listed 3 brokers");
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    }
    let policy = ErrorCode::PolicyViolation.code();
    // Two topics of 100,000 partitions in one request (confluent-kafka's reproduction), sent
    // to every broker in turn as a client's retries would be.
    for a in &addrs {
        let errors =
            create_errors(a, create(&[("big-a", 100_000), ("big-b", 100_000)], false)).await;
        assert_eq!(
            errors,
            vec![("big-a".to_string(), policy), ("big-b".to_string(), policy)],
            "at {a}"
        );
    }
    // numPartitions = i32::MAX, with and without validate_only: refused before allocating.
    for validate_only in [true, false] {
        let errors = create_errors(&addrs[0], create(&[("huge", i32::MAX)], validate_only)).await;
        assert_eq!(errors, vec![("huge".to_string(), policy)]);
    }
    for n in &mut nodes {
        assert!(n.alive(), "node {} went down:\n{}", n.id, n.log_tail());
    }
    // Nothing was written, and the cluster still creates ordinary topics.
    let errors = create_errors(&addrs[1], create(&[("fine", 6)], false)).await;
    assert_eq!(errors, vec![("fine".to_string(), 0)]);
    let errors = create_errors(&addrs[2], create(&[("big-a", 1)], false)).await;
    assert_eq!(
        errors,
        vec![("big-a".to_string(), 0)],
        "big-a was never created"
    );

    // A controller-bound request at a controller that is not the active one: its own API's
    // error response (NOT_CONTROLLER per resource), not a closed connection.
    let mut answered = 0;
    for n in &nodes {
        let request = RequestBody::DescribeConfigs(DescribeConfigsRequest {
            resources: vec![DescribeConfigsResource {
                resource_type: 2,
                resource_name: "fine".into(),
                configuration_keys: None,
                ..Default::default()
            }],
            ..Default::default()
        });
        match call(&n.addr(), request, 4).await {
            Some(ResponseBody::DescribeConfigs(r)) => {
                assert_eq!(r.results.len(), 1);
                let code = r.results[0].error_code;
                assert!(
                    code == 0 || code == ErrorCode::NotController.code(),
                    "unexpected error {code}"
                );
                answered += 1;
            }
            other => panic!("DescribeConfigs at controller {}: {other:?}", n.id),
        }
    }
    assert_eq!(answered, 3);
}

/// librdkafka's admin client creates a topic the instant the port accepts connections.
fn create_with_librdkafka(bootstrap: &str, topic: &str) -> Result<(), String> {
    use rdkafka::admin::{AdminClient, AdminOptions, NewTopic, TopicReplication};
    use rdkafka::client::DefaultClientContext;
    use rdkafka::config::ClientConfig;
    let admin: AdminClient<DefaultClientContext> = ClientConfig::new()
        .set("bootstrap.servers", bootstrap)
        .create()
        .map_err(|e| e.to_string())?;
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    let options = AdminOptions::new().request_timeout(Some(Duration::from_secs(10)));
    let results = runtime
        .block_on(admin.create_topics(
            &[NewTopic::new(topic, 1, TopicReplication::Fixed(1))],
            &options,
        ))
        .map_err(|e| e.to_string())?;
    match results.into_iter().next() {
        Some(Ok(_)) => Ok(()),
        other => Err(format!("{other:?}")),
    }
}

/// A new single node (broker and controller, its own quorum) in `root`, formatted and
/// started; its broker port is 0, so the node picks a free one and logs it.
fn standalone_node(root: &std::path::Path) -> Node {
    let ports = (0, free_port());
    let quorum = format!("controller.quorum.bootstrap.servers=127.0.0.1:{}", ports.1);
    let mut node = Node::combined(root, 1, ports, &quorum, "");
    node.format(&common::random_uuid(), &["--standalone"]);
    node.start();
    node
}

#[test]
fn a_client_that_starts_with_the_node_finds_it_ready_50_times() {
    let mut waits = Vec::new();
    for round in 0..50 {
        // A new node each round, as a script or CI job starts one and uses it at once; its
        // broker port is 0 (a free port the node binds and logs).
        let root = tempfile::tempdir().unwrap();
        let mut node = standalone_node(root.path());
        let addr = node.broker_addr();
        let open = wait_for(Duration::from_secs(30), || {
            std::net::TcpStream::connect(&addr).ok()
        });
        assert!(
            open.is_some(),
            "round {round}: the port never opened:\n{}",
            node.log_tail()
        );
        let started = Instant::now();
        create_with_librdkafka(&addr, &format!("t{round}"))
            .unwrap_or_else(|e| panic!("round {round}: {e}\n{}", node.log_tail()));
        waits.push(started.elapsed());
        node.kill();
    }
    waits.sort();
    // librdkafka gave up after its timeout when the node answered before it was ready.
    assert!(
        waits[49] < Duration::from_secs(10),
        "slowest create: {:?}",
        waits[49]
    );
    eprintln!(
        "create after the port opened: median {:?}, max {:?}",
        waits[25], waits[49]
    );
}

/// The keys and values of Kafka 4's stock `config/server.properties` (ports made free).
fn quickstart_properties(dir: &std::path::Path, broker: u16, controller: u16) -> String {
    format!(
        "process.roles=broker,controller\n\
         node.id=1\n\
         controller.quorum.bootstrap.servers=localhost:{controller}\n\
         listeners=PLAINTEXT://:{broker},CONTROLLER://:{controller}\n\
         inter.broker.listener.name=PLAINTEXT\n\
         advertised.listeners=PLAINTEXT://localhost:{broker},CONTROLLER://localhost:{controller}\n\
         controller.listener.names=CONTROLLER\n\
         listener.security.protocol.map=CONTROLLER:PLAINTEXT,PLAINTEXT:PLAINTEXT,SSL:SSL,SASL_PLAINTEXT:SASL_PLAINTEXT,SASL_SSL:SASL_SSL\n\
         num.network.threads=3\n\
         num.io.threads=8\n\
         socket.send.buffer.bytes=102400\n\
         socket.receive.buffer.bytes=102400\n\
         socket.request.max.bytes=104857600\n\
         log.dirs={}\n\
         num.partitions=1\n\
         num.recovery.threads.per.data.dir=1\n\
         offsets.topic.replication.factor=1\n\
         share.coordinator.state.topic.replication.factor=1\n\
         share.coordinator.state.topic.min.isr=1\n\
         transaction.state.log.replication.factor=1\n\
         transaction.state.log.min.isr=1\n\
         log.retention.hours=168\n\
         log.segment.bytes=1073741824\n\
         log.retention.check.interval.ms=300000\n",
        dir.join("kraft-combined-logs").display()
    )
}

#[test]
fn kafkas_quickstart_properties_start_a_broker_clients_reach() {
    let root = tempfile::tempdir().unwrap();
    let (broker, controller) = (free_port(), free_port());
    let config = root.path().join("server.properties");
    std::fs::write(
        &config,
        quickstart_properties(root.path(), broker, controller),
    )
    .unwrap();
    let id = common::random_uuid();
    let cfg = config.to_str().unwrap();
    let out = common::fjord(&["format", "--standalone", "-t", &id, "-c", cfg]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let log = std::fs::File::create(root.path().join("server.log")).unwrap();
    let mut child = std::process::Command::new(common::fjord_bin())
        .args(["server", "--config", cfg])
        .args(["--override", "metrics.listener="])
        .env("RUST_LOG", "info")
        .stderr(log)
        .stdout(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let bootstrap = format!("localhost:{broker}");
    let result = create_with_librdkafka(&bootstrap, "quickstart-events");
    let log = std::fs::read_to_string(root.path().join("server.log")).unwrap_or_default();
    let _ = child.kill();
    let _ = child.wait();
    result.unwrap_or_else(|e| panic!("{e}\n{log}"));
    assert!(!log.contains(":{controller} "), "dialled an empty host");
}

#[test]
fn an_override_of_listeners_is_what_clients_are_sent_to() {
    let root = tempfile::tempdir().unwrap();
    let (broker, controller) = (free_port(), free_port());
    let log = std::fs::File::create(root.path().join("server.log")).unwrap();
    let mut child = std::process::Command::new(common::fjord_bin())
        .current_dir(root.path())
        .args([
            "server",
            "--override",
            "metrics.listener=",
            "--override",
            &format!(
                "listeners=PLAINTEXT://127.0.0.1:{broker},CONTROLLER://127.0.0.1:{controller}"
            ),
            "--override",
            &format!("controller.quorum.bootstrap.servers=127.0.0.1:{controller}"),
        ])
        .stderr(log)
        .stdout(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let addr = format!("127.0.0.1:{broker}");
    let runtime = tokio::runtime::Runtime::new().unwrap();
    let advertised = wait_for(Duration::from_secs(30), || {
        runtime.block_on(async {
            match call(&addr, RequestBody::Metadata(MetadataRequest::default()), 12).await? {
                ResponseBody::Metadata(m) => m.brokers.first().map(|b| b.port),
                _ => None,
            }
        })
    });
    let _ = child.kill();
    let _ = child.wait();
    let log = std::fs::read_to_string(root.path().join("server.log")).unwrap_or_default();
    assert_eq!(advertised, Some(i32::from(broker)), "{log}");
}

/// The (api, min, max) versions `addr` advertises.
async fn advertised(addr: &str) -> Vec<(fjord_protocol::ApiKey, i16, i16)> {
    let request = common::api_versions_request();
    let Some(ResponseBody::ApiVersions(r)) = call(addr, request, 3).await else {
        panic!("ApiVersions at {addr}");
    };
    r.api_keys
        .iter()
        .filter_map(|k| {
            fjord_protocol::ApiKey::from_key(k.api_key).map(|a| (a, k.min_version, k.max_version))
        })
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_storm_of_random_valid_requests_gets_decodable_answers_on_both_listeners() {
    use fjord_protocol::sample::SampleRng;
    /// Seeded random bodies per advertised (api, version).
    const SEEDS: u64 = 24;
    let root = tempfile::tempdir().unwrap();
    let mut node = standalone_node(root.path());
    let broker = node.broker_addr();
    let controller = node.addr();
    let deadline = Instant::now() + Duration::from_secs(30);
    while brokers_at(&broker).await != Some(1) {
        assert!(
            Instant::now() < deadline,
            "never ready:\n{}",
            node.log_tail()
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    let mut sent = 0;
    let mut failures = Vec::new();
    for addr in [&broker, &controller] {
        let mut client = fjord_net::client::Client::connect(addr, Duration::from_secs(5))
            .await
            .unwrap();
        for (api, min, max) in advertised(addr).await {
            for version in min..=max {
                for seed in 0..SEEDS {
                    let mut g =
                        SampleRng::new(seed * 7919 + api.key() as u64 * 31 + version as u64);
                    let mut body = RequestBody::sample(api, &mut g, version);
                    if let RequestBody::Fetch(f) = &mut body {
                        // A long poll would wait its random max_wait_ms (up to 30 s) for data.
                        f.max_wait_ms = f.max_wait_ms.clamp(0, 100);
                    }
                    sent += 1;
                    match client.call(body, version, Duration::from_secs(15)).await {
                        Ok(r) if r.api_key() == api => {}
                        Ok(r) => {
                            failures.push(format!("{api:?} v{version} answered {:?}", r.api_key()))
                        }
                        Err(e) => {
                            failures.push(format!("{addr} {api:?} v{version} seed {seed}: {e}"));
                            client =
                                fjord_net::client::Client::connect(addr, Duration::from_secs(5))
                                    .await
                                    .unwrap();
                        }
                    }
                }
            }
        }
    }
    assert!(node.alive(), "the node went down:\n{}", node.log_tail());
    assert!(
        failures.is_empty(),
        "{} of {sent} failed:\n{}",
        failures.len(),
        failures.join("\n")
    );
    assert!(sent > 500, "only {sent} requests");
    // And it still serves.
    assert_eq!(brokers_at(&broker).await.map(|n| n >= 1), Some(true));
}
