//! Client quotas on a real node (KIP-13, KIP-124, KIP-219, KIP-546, KIP-599), set with
//! `kafka-configs` and enforced by throttling, never by refusing: a producer with client id
//! `slow` and `producer_byte_rate=1048576` is held to about 1 MiB/s while another client id is
//! not; `consumer_byte_rate` holds a consumer the same way; `request_percentage` slows a client
//! that floods Metadata requests without an error; `controller_mutation_rate` refuses the
//! topics a CreateTopics v7 client asks past its bound with THROTTLING_QUOTA_EXCEEDED and only
//! throttles a version 5 client. librdkafka (the `rdkafka` crate) runs the byte-rate cases.

mod common;

use common::{fjord, show, text, wait_for, Node};
use fjord_protocol::{RequestBody, ResponseBody};
use std::time::{Duration, Instant};

/// Runs `kafka-configs` with `args` at `bs`; its stdout (it must succeed).
fn configs(bs: &str, args: &[&str]) -> String {
    let mut all = vec!["kafka-configs", "--bootstrap-server", bs];
    all.extend_from_slice(args);
    let o = fjord(&all);
    assert!(o.status.success(), "{args:?}: {}", show(&o));
    text(&o.stdout)
}

/// Sets `key=value` on client id `client` and waits until the broker describes it.
fn set_client_quota(bs: &str, client: &str, key: &str, value: &str) {
    let out = configs(
        bs,
        &[
            "--alter",
            "--entity-type",
            "clients",
            "--entity-name",
            client,
            "--add-config",
            &format!("{key}={value}"),
        ],
    );
    assert_eq!(
        out,
        format!("Completed updating config for client {client}.\n")
    );
    let shown = wait_for(Duration::from_secs(10), || {
        let d = configs(
            bs,
            &[
                "--describe",
                "--entity-type",
                "clients",
                "--entity-name",
                client,
            ],
        );
        d.contains(&format!("{key}=")).then_some(d)
    });
    assert!(shown.is_some(), "the quota never showed");
}

/// Produces `count` records of `size` bytes to `topic` as `client_id` (acks=1); how long it
/// took until every one was acknowledged.
fn produce_timed(bs: &str, topic: &str, client_id: &str, count: usize, size: usize) -> Duration {
    common::produce_sized(
        bs,
        topic,
        &[("client.id", client_id), ("acks", "1")],
        count,
        size,
    )
}

/// Reads `bytes` of record payload from `topic` as `client_id`; how long it took.
fn consume_timed(bs: &str, topic: &str, client_id: &str, bytes: usize) -> Duration {
    use rdkafka::consumer::{BaseConsumer, Consumer};
    use rdkafka::message::Message;
    let consumer: BaseConsumer = rdkafka::config::ClientConfig::new()
        .set("bootstrap.servers", bs)
        .set("client.id", client_id)
        .set("group.id", format!("g-{client_id}"))
        .set("enable.auto.commit", "false")
        .create()
        .unwrap();
    let mut tpl = rdkafka::TopicPartitionList::new();
    tpl.add_partition_offset(topic, 0, rdkafka::Offset::Beginning)
        .unwrap();
    consumer.assign(&tpl).unwrap();
    let started = Instant::now();
    let mut got = 0;
    while got < bytes && started.elapsed() < Duration::from_secs(120) {
        match consumer.poll(Duration::from_millis(500)) {
            Some(Ok(m)) => got += m.payload().map_or(0, <[u8]>::len),
            Some(Err(e)) => panic!("consumer error: {e}"),
            None => {}
        }
    }
    assert!(got >= bytes, "read {got} of {bytes}");
    started.elapsed()
}

fn metrics_port() -> u16 {
    common::free_port()
}

#[test]
fn byte_rate_quotas_hold_a_producer_and_a_consumer_to_their_rate_and_no_one_else() {
    let root = tempfile::tempdir().unwrap();
    let port = metrics_port();
    let node = Node::single(
        root.path(),
        0,
        &format!("metrics.listener=http://127.0.0.1:{port}"),
    );
    let bs = node.broker_addr();
    common::create(&bs, "quoted", "1", &[]);
    set_client_quota(&bs, "slow", "producer_byte_rate", "1048576");
    set_client_quota(&bs, "slowreader", "consumer_byte_rate", "1048576");
    let described = configs(&bs, &["--describe", "--entity-type", "clients"]);
    assert!(
        described.contains("Quota configs for client-id 'slow' are producer_byte_rate=1048576.0"),
        "{described}"
    );
    assert!(
        described
            .contains("Quota configs for client-id 'slowreader' are consumer_byte_rate=1048576.0"),
        "{described}"
    );
    // 6 MiB: about five seconds at 1 MiB/s (the first second's worth goes at once).
    let (count, size) = (60, 6 * 1_048_576 / 60);
    let slow = produce_timed(&bs, "quoted", "slow", count, size);
    let fast = produce_timed(&bs, "quoted", "fast", count, size);
    eprintln!("6 MiB produced: slow {slow:?}, fast {fast:?}");
    assert!(
        slow >= Duration::from_secs(4),
        "the quota let 6 MiB through in {slow:?}"
    );
    assert!(
        fast * 2 < slow,
        "the unquoted producer took {fast:?} (slow: {slow:?})"
    );
    let m = common::metrics_text(port);
    assert!(
        m.contains(r#"kafka_server_produce_byte_rate{user="",client_id="slow"}"#),
        "{m}"
    );
    let throttled = m
        .lines()
        .find(|l| l.starts_with(r#"kafka_server_produce_throttle_time{user="",client_id="slow"}"#))
        .and_then(|l| l.rsplit(' ').next()?.parse::<f64>().ok());
    assert!(throttled.is_some_and(|t| t > 0.0), "{m}");
    assert!(
        !m.contains(r#"client_id="fast""#),
        "no sensor for an unquoted client"
    );

    // The consumer: 12 MiB written, 6 MiB read by each.
    let slow = consume_timed(&bs, "quoted", "slowreader", 6 * 1_048_576);
    let fast = consume_timed(&bs, "quoted", "fastreader", 6 * 1_048_576);
    eprintln!("6 MiB consumed: slow {slow:?}, fast {fast:?}");
    assert!(
        slow >= Duration::from_secs(4),
        "the quota let 6 MiB be read in {slow:?}"
    );
    assert!(
        fast * 2 < slow,
        "the unquoted consumer took {fast:?} (slow: {slow:?})"
    );
    let m = common::metrics_text(port);
    assert!(
        m.contains(r#"kafka_server_fetch_byte_rate{user="",client_id="slowreader"}"#),
        "{m}"
    );
}

/// Metadata requests sent one after another on one connection as `client_id` for `span`: how
/// many were answered, how many carried a throttle time, and every error code seen.
fn flood_metadata(bs: &str, client_id: &str, span: Duration) -> (usize, usize, Vec<i16>) {
    use fjord_protocol::generated::metadata_request::MetadataRequest;
    let rt = tokio::runtime::Runtime::new().unwrap();
    rt.block_on(async {
        let c = fjord_net::client::Client::connect_with(
            bs,
            Duration::from_secs(5),
            client_id,
            &fjord_net::security::ClientSecurity::plaintext(),
        )
        .await
        .unwrap();
        let started = Instant::now();
        let (mut answered, mut throttled, mut errors) = (0, 0, Vec::new());
        while started.elapsed() < span {
            let body = RequestBody::Metadata(MetadataRequest {
                topics: None,
                ..Default::default()
            });
            match c.call(body, 12, Duration::from_secs(30)).await {
                Ok(ResponseBody::Metadata(m)) => {
                    answered += 1;
                    if m.throttle_time_ms > 0 {
                        throttled += 1;
                    }
                    errors.extend(m.topics.iter().map(|t| t.error_code).filter(|c| *c != 0));
                }
                other => panic!("{other:?}"),
            }
        }
        (answered, throttled, errors)
    })
}

#[test]
fn request_percentage_slows_a_metadata_flood_without_errors() {
    let root = tempfile::tempdir().unwrap();
    let node = Node::single(root.path(), 0, "");
    let bs = node.broker_addr();
    common::create(&bs, "some", "1", &[]);
    set_client_quota(&bs, "flood", "request_percentage", "0.5");
    let span = Duration::from_secs(3);
    let (free, free_throttled, _) = flood_metadata(&bs, "calm", span);
    let (held, throttled, errors) = flood_metadata(&bs, "flood", span);
    eprintln!("Metadata in 3 s: {free} unthrottled, {held} at 0.5% ({throttled} throttled)");
    assert_eq!(free_throttled, 0);
    assert!(throttled > 0, "no answer carried a throttle time");
    assert!(errors.is_empty(), "{errors:?}");
    assert!(
        held * 4 < free,
        "throttled {held} requests against {free} unthrottled"
    );
}

/// CreateTopics at `version` of `topics` (10 partitions each) as client `client_id`: each
/// topic's error code, and the throttle time.
fn create_topics(bs: &str, client_id: &str, topics: &[&str], version: i16) -> (Vec<i16>, i32) {
    use fjord_protocol::generated::create_topics_request::{CreatableTopic, CreateTopicsRequest};
    let rt = tokio::runtime::Runtime::new().unwrap();
    rt.block_on(async {
        let c = fjord_net::client::Client::connect_with(
            bs,
            Duration::from_secs(5),
            client_id,
            &fjord_net::security::ClientSecurity::plaintext(),
        )
        .await
        .unwrap();
        let body = RequestBody::CreateTopics(CreateTopicsRequest {
            topics: topics
                .iter()
                .map(|t| CreatableTopic {
                    name: t.to_string(),
                    num_partitions: 10,
                    replication_factor: 1,
                    ..Default::default()
                })
                .collect(),
            timeout_ms: 30_000,
            ..Default::default()
        });
        match c.call(body, version, Duration::from_secs(30)).await {
            Ok(ResponseBody::CreateTopics(r)) => {
                let mut codes: Vec<(String, i16)> = r
                    .topics
                    .iter()
                    .map(|t| (t.name.clone(), t.error_code))
                    .collect();
                codes.sort();
                (
                    codes.into_iter().map(|(_, c)| c).collect(),
                    r.throttle_time_ms,
                )
            }
            other => panic!("{other:?}"),
        }
    })
}

#[test]
fn controller_mutation_rate_refuses_strict_clients_and_throttles_old_ones() {
    let root = tempfile::tempdir().unwrap();
    let node = Node::single(root.path(), 0, "");
    let bs = node.broker_addr();
    set_client_quota(&bs, "mutator", "controller_mutation_rate", "2");
    // 10 partitions a topic at 2 a second: the first topic goes through, the others are
    // refused with THROTTLING_QUOTA_EXCEEDED (89) while the client is over its bound.
    let (codes, throttle) = create_topics(&bs, "mutator", &["m1", "m2", "m3"], 7);
    assert_eq!(codes, [0, 89, 89]);
    assert!(throttle > 0, "no throttle time");
    // A version 5 client is never refused.
    let (codes, throttle) = create_topics(&bs, "old-mutator", &["o1", "o2"], 5);
    assert_eq!(codes, [0, 0]);
    assert_eq!(throttle, 0, "old-mutator has no quota");
    set_client_quota(&bs, "old-mutator", "controller_mutation_rate", "2");
    let (codes, throttle) = create_topics(&bs, "old-mutator", &["o3", "o4"], 5);
    assert_eq!(codes, [0, 0]);
    assert!(throttle > 0, "no throttle time");
    // The quota is described back, and deleted.
    let d = configs(
        &bs,
        &[
            "--describe",
            "--entity-type",
            "clients",
            "--entity-name",
            "mutator",
        ],
    );
    assert_eq!(
        d,
        "Quota configs for client-id 'mutator' are controller_mutation_rate=2.0\n"
    );
    let out = configs(
        &bs,
        &[
            "--alter",
            "--entity-type",
            "clients",
            "--entity-name",
            "mutator",
            "--delete-config",
            "controller_mutation_rate",
        ],
    );
    assert_eq!(out, "Completed updating config for client mutator.\n");
    let gone = wait_for(Duration::from_secs(10), || {
        configs(
            &bs,
            &[
                "--describe",
                "--entity-type",
                "clients",
                "--entity-name",
                "mutator",
            ],
        )
        .is_empty()
        .then_some(())
    });
    assert!(gone.is_some());
}

#[test]
fn kafka_configs_sets_user_and_default_quotas_as_kafkas_tool_does() {
    let root = tempfile::tempdir().unwrap();
    let node = Node::single(root.path(), 0, "");
    let bs = node.broker_addr();
    let out = configs(
        &bs,
        &[
            "--alter",
            "--entity-type",
            "users",
            "--entity-name",
            "alice",
            "--entity-type",
            "clients",
            "--entity-default",
            "--add-config",
            "producer_byte_rate=2048,request_percentage=12.5",
        ],
    );
    assert_eq!(out, "Completed updating config for user alice.\n");
    let out = configs(
        &bs,
        &[
            "--alter",
            "--entity-type",
            "users",
            "--entity-default",
            "--add-config",
            "consumer_byte_rate=20000000",
        ],
    );
    assert_eq!(
        out,
        "Completed updating default config for users in the cluster.\n"
    );
    let d = wait_for(Duration::from_secs(10), || {
        let d = configs(
            &bs,
            &[
                "--describe",
                "--entity-type",
                "users",
                "--entity-type",
                "clients",
            ],
        );
        d.contains("alice").then_some(d)
    })
    .unwrap();
    assert_eq!(
        d,
        "Quota configs for user-principal 'alice', the default client-id are producer_byte_rate=2048.0, request_percentage=12.5\n"
    );
    let d = configs(
        &bs,
        &["--describe", "--entity-type", "users", "--entity-default"],
    );
    assert_eq!(
        d,
        "Quota configs for the default user-principal are consumer_byte_rate=2.0E7\n"
    );
    // Kafka's checks: a fractional byte rate, an unknown key, a key to delete that is not set.
    let refused = |args: &[&str]| {
        let mut all = vec!["kafka-configs", "--bootstrap-server", bs.as_str()];
        all.extend_from_slice(args);
        let o = fjord(&all);
        assert!(!o.status.success(), "{args:?}: {}", show(&o));
        text(&o.stderr)
    };
    let e = refused(&[
        "--alter",
        "--entity-type",
        "clients",
        "--entity-name",
        "x",
        "--add-config",
        "producer_byte_rate=1.5",
    ]);
    assert!(
        e.contains("producer_byte_rate cannot be a fractional value."),
        "{e}"
    );
    let e = refused(&[
        "--alter",
        "--entity-type",
        "clients",
        "--entity-name",
        "x",
        "--add-config",
        "bogus=1",
    ]);
    assert!(
        e.contains("Only quota configs can be added for 'clients'"),
        "{e}"
    );
    let e = refused(&[
        "--alter",
        "--entity-type",
        "clients",
        "--entity-name",
        "x",
        "--delete-config",
        "producer_byte_rate",
    ]);
    assert!(e.contains("Invalid config(s): producer_byte_rate"), "{e}");
}
