//! GSSAPI (Kerberos) against a real MIT KDC (Debian's krb5-kdc, started on loopback by
//! `tests/kerberos/kdc.sh` with keytabs it makes), on fjord and on Kafka 4.4 with the same
//! settings: the node's own login (its broker registers, fjord's tools sign in as `admin`),
//! librdkafka (Cyrus SASL's GSSAPI plugin) producing and consuming as `alice`, ACLs applied to
//! the principal `sasl.kerberos.principal.to.local.rules` maps (`Carol@FJORD.TEST` speaks as
//! `carol`), and the same raw GSSAPI exchanges, good and out of sequence, answered alike by
//! both. Ignored in a plain `cargo test` (it installs and starts a KDC); `.ci/run` runs it.

mod common;

use common::kafka::KafkaCluster;
use common::{fjord, free_port, random_uuid, show, Node};
use fjord_kerberos::gss::{KeySource, KeytabInitiator};
use fjord_net::client::Client;
use fjord_net::sasl::gssapi::{GssContext, GssInitiator};
use fjord_protocol::generated::sasl_authenticate_request::SaslAuthenticateRequest;
use fjord_protocol::generated::sasl_handshake_request::SaslHandshakeRequest;
use fjord_protocol::{RequestBody, ResponseBody};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

const REALM: &str = "FJORD.TEST";
/// Kafka's ports (below free_port's range; no other test uses them).
const KAFKA_BASE: u16 = 24800;
const MODULE: &str = "com.sun.security.auth.module.Krb5LoginModule";

/// The KDC's realm in a directory, stopped when dropped.
struct Kdc {
    dir: PathBuf,
    conf: PathBuf,
}

impl Kdc {
    fn start(dir: &Path, principals: &[&str]) -> Kdc {
        let script = common::repo_root().join("tests/kerberos/kdc.sh");
        let o = Command::new("bash")
            .arg(&script)
            .arg("start")
            .arg(dir)
            .arg(REALM)
            .args(principals)
            .output()
            .unwrap();
        assert!(o.status.success(), "kdc.sh: {}", show(&o));
        let conf = PathBuf::from(String::from_utf8_lossy(&o.stdout).trim());
        Kdc {
            dir: dir.to_path_buf(),
            conf,
        }
    }

    fn keytab(&self, name: &str) -> PathBuf {
        self.dir.join(format!("{name}.keytab"))
    }
}

impl Drop for Kdc {
    fn drop(&mut self) {
        let script = common::repo_root().join("tests/kerberos/kdc.sh");
        let _ = Command::new("bash")
            .arg(script)
            .arg("stop")
            .arg(&self.dir)
            .status();
    }
}

/// The broker settings both servers get: the PLAINTEXT listener takes GSSAPI with the
/// service key of kafka/localhost, the nodes sign in to each other with it, and the rules
/// map users of the realm to their lower-cased first component.
fn settings(kdc: &Kdc) -> String {
    format!(
        "listener.security.protocol.map=PLAINTEXT:SASL_PLAINTEXT,CONTROLLER:PLAINTEXT\n\
         sasl.enabled.mechanisms=GSSAPI\nsasl.mechanism.inter.broker.protocol=GSSAPI\n\
         sasl.kerberos.service.name=kafka\n\
         sasl.kerberos.principal.to.local.rules=RULE:[1:$1@$0](.*@FJORD\\.TEST)s/@.*///L,DEFAULT\n\
         listener.name.plaintext.gssapi.sasl.jaas.config={MODULE} required useKeyTab=true storeKey=true keyTab=\"{}\" principal=\"kafka/localhost@{REALM}\";\n\
         authorizer.class.name=org.apache.kafka.metadata.authorizer.StandardAuthorizer\n\
         super.users=User:kafka;User:admin;User:ANONYMOUS\n\
         offsets.topic.replication.factor=1\n",
        kdc.keytab("kafka-localhost").display()
    )
}

/// A `--command-config` file that signs fjord's tools in as `user`.
fn tool_config(kdc: &Kdc, user: &str) -> PathBuf {
    let path = kdc.dir.join(format!("{user}.properties"));
    std::fs::write(
        &path,
        format!(
            "security.protocol=SASL_PLAINTEXT\nsasl.mechanism=GSSAPI\nsasl.kerberos.service.name=kafka\n\
             sasl.jaas.config={MODULE} required useKeyTab=true storeKey=true keyTab=\"{}\" principal=\"{user}@{REALM}\";\n",
            kdc.keytab(user).display()
        ),
    )
    .unwrap();
    path
}

/// librdkafka's settings for `user` (Cyrus SASL's GSSAPI, tickets from kinit with the keytab).
fn librdkafka(kdc: &Kdc, user: &str) -> Vec<(String, String)> {
    [
        ("security.protocol", "SASL_PLAINTEXT".to_string()),
        ("sasl.mechanisms", "GSSAPI".into()),
        ("sasl.kerberos.service.name", "kafka".into()),
        (
            "sasl.kerberos.keytab",
            kdc.keytab(user).display().to_string(),
        ),
        ("sasl.kerberos.principal", format!("{user}@{REALM}")),
    ]
    .into_iter()
    .map(|(k, v)| (k.to_string(), v))
    .collect()
}

/// How a raw exchange ended.
#[derive(Debug, PartialEq, Eq)]
enum Raw {
    /// Authenticated (the session lifetime).
    Authenticated(i64),
    /// Failed with this code and message, the connection then closed.
    Failed(i16, String),
    /// The connection closed with no answer.
    Closed,
    /// An answer to go on with (its bytes' length is not compared).
    Challenge,
}

/// A raw GSSAPI exchange on `addr`: SaslHandshake v1, then each message `next` makes from the
/// server's last answer (`None` ends); the outcome of each step.
async fn raw(addr: &str, mut next: impl FnMut(usize, &[u8]) -> Option<Vec<u8>>) -> Vec<Raw> {
    let timeout = Duration::from_secs(10);
    let c = Client::connect(addr, timeout).await.expect("connects");
    let hs = RequestBody::SaslHandshake(SaslHandshakeRequest {
        mechanism: "GSSAPI".into(),
    });
    match c.call(hs, 1, timeout).await {
        Ok(ResponseBody::SaslHandshake(h)) => assert_eq!(h.error_code, 0, "{h:?}"),
        other => panic!("handshake: {other:?}"),
    }
    let mut outcomes = Vec::new();
    let mut last = Vec::new();
    for step in 0.. {
        let Some(message) = next(step, &last) else {
            break;
        };
        let body = RequestBody::SaslAuthenticate(SaslAuthenticateRequest {
            auth_bytes: message.into(),
            ..Default::default()
        });
        match c.call(body, 2, timeout).await {
            Ok(ResponseBody::SaslAuthenticate(r)) if r.error_code != 0 => {
                outcomes.push(Raw::Failed(
                    r.error_code,
                    r.error_message.unwrap_or_default(),
                ));
                break;
            }
            Ok(ResponseBody::SaslAuthenticate(r)) => {
                last = r.auth_bytes.to_vec();
                outcomes.push(if last.is_empty() && step > 0 {
                    Raw::Authenticated(r.session_lifetime_ms)
                } else {
                    Raw::Challenge
                });
            }
            Ok(other) => panic!("{other:?}"),
            Err(_) => {
                outcomes.push(Raw::Closed);
                break;
            }
        }
    }
    outcomes
}

/// An initiator context of `user` for the service on localhost.
fn context(kdc: &Kdc, user: &str) -> Box<dyn GssContext> {
    KeytabInitiator::new(
        Some(&format!("{user}@{REALM}")),
        KeySource::Keytab(kdc.keytab(user)),
        "kafka",
    )
    .context("localhost")
    .expect("an initiator context")
}

/// The raw exchanges both servers must answer alike.
fn raw_exchanges(kdc: &Kdc, addr: &str) -> Vec<Vec<Raw>> {
    let rt = tokio::runtime::Runtime::new().unwrap();
    let mut results = Vec::new();
    // A whole exchange, done by hand: the context, the empty message after the server's last
    // token, the wrapped choice of no security layer.
    let mut ctx = context(kdc, "alice");
    results.push(rt.block_on(raw(addr, |step, last| match step {
        0 => Some(ctx.step(&[]).unwrap()),
        1 => Some(ctx.step(last).unwrap()),
        2 => {
            assert!(ctx.is_complete());
            let offer = ctx.unwrap(last).unwrap();
            assert_eq!(offer, [1, 1, 0, 0], "no security layer, a 64 KiB buffer");
            Some(ctx.wrap(&[1, 0, 0, 0]).unwrap())
        }
        _ => None,
    })));
    // Out of sequence: a token that is no GSSAPI token, an empty first token.
    results.push(rt.block_on(raw(addr, |s, _| (s == 0).then(|| b"not a token".to_vec()))));
    results.push(rt.block_on(raw(addr, |s, _| (s == 0).then(Vec::new))));
    // A token again where the empty message is due.
    let mut ctx = context(kdc, "alice");
    let mut first = Vec::new();
    results.push(rt.block_on(raw(addr, |step, _| match step {
        0 => {
            first = ctx.step(&[]).unwrap();
            Some(first.clone())
        }
        1 => Some(first.clone()),
        _ => None,
    })));
    // The same authenticator on a second connection: a replay.
    results.push(rt.block_on(raw(addr, |s, _| (s == 0).then(|| first.clone()))));
    // A choice the server never offered (a confidentiality layer), and an unwrapped choice.
    for choice in [None, Some(vec![4u8, 1, 0, 0])] {
        let mut ctx = context(kdc, "alice");
        results.push(rt.block_on(raw(addr, |step, last| match step {
            0 => Some(ctx.step(&[]).unwrap()),
            1 => Some(ctx.step(last).unwrap()),
            2 => Some(match &choice {
                Some(layer) => ctx.wrap(layer).unwrap(),
                None => vec![1, 0, 0, 0],
            }),
            _ => None,
        })));
    }
    results
}

/// Grants `alice` the topic `kerberized` and the group librdkafka reads it in, and `carol`
/// only the topic `carols`, with fjord's tools signed in as `admin`.
fn grant(kdc: &Kdc, bootstrap: &str) {
    let admin = tool_config(kdc, "admin");
    let admin = admin.to_str().unwrap();
    for topic in ["kerberized", "carols"] {
        let o = fjord(&[
            "kafka-topics",
            "--bootstrap-server",
            bootstrap,
            "--command-config",
            admin,
            "--create",
            "--topic",
            topic,
            "--partitions",
            "1",
            "--replication-factor",
            "1",
        ]);
        assert!(o.status.success(), "{}", show(&o));
    }
    for (user, resource) in [
        ("alice", ["--topic", "kerberized"]),
        ("alice", ["--group", "read-kerberized"]),
        ("carol", ["--topic", "carols"]),
    ] {
        let principal = format!("User:{user}");
        let mut args = vec![
            "kafka-acls",
            "--bootstrap-server",
            bootstrap,
            "--command-config",
            admin,
            "--add",
            "--allow-principal",
            &principal,
            "--operation",
            "All",
        ];
        args.extend(resource);
        let o = fjord(&args);
        assert!(o.status.success(), "{}", show(&o));
    }
}

/// What the clients saw on one server.
#[derive(Debug, PartialEq, Eq)]
struct Seen {
    alice_read: Vec<String>,
    carol_topics: String,
    raw: Vec<Vec<Raw>>,
}

/// The clients' run against one server at `bootstrap`.
fn clients(kdc: &Kdc, bootstrap: &str) -> Seen {
    grant(kdc, bootstrap);
    let alice = librdkafka(kdc, "alice");
    let settings: Vec<(&str, &str)> = alice
        .iter()
        .map(|(k, v)| (k.as_str(), v.as_str()))
        .collect();
    produce(bootstrap, &settings);
    let alice_read = common::consume_values_with(bootstrap, "kerberized", 3, &settings);
    // Carol@FJORD.TEST speaks as carol: she sees the topic granted to carol, no other.
    let carol = tool_config(kdc, "Carol");
    let o = fjord(&[
        "kafka-topics",
        "--bootstrap-server",
        bootstrap,
        "--command-config",
        carol.to_str().unwrap(),
        "--list",
    ]);
    assert!(o.status.success(), "{}", show(&o));
    Seen {
        alice_read,
        carol_topics: String::from_utf8_lossy(&o.stdout).trim().to_string(),
        raw: raw_exchanges(kdc, bootstrap),
    }
}

/// Three records to `kerberized` with librdkafka's `settings`, each acknowledged.
fn produce(bootstrap: &str, settings: &[(&str, &str)]) {
    use rdkafka::producer::{FutureProducer, FutureRecord};
    let mut config = rdkafka::config::ClientConfig::new();
    config
        .set("bootstrap.servers", bootstrap)
        .set("message.timeout.ms", "60000");
    for (k, v) in settings {
        config.set(*k, *v);
    }
    let producer: FutureProducer = config.create().unwrap();
    let rt = tokio::runtime::Runtime::new().unwrap();
    rt.block_on(async {
        for i in 0..3 {
            let v = format!("kerberos-{i}");
            let r = FutureRecord::to("kerberized")
                .key("k")
                .payload(&v)
                .partition(0);
            producer
                .send(r, Duration::from_secs(60))
                .await
                .map_err(|(e, _)| e)
                .expect("acknowledged");
        }
    });
}

/// A fjord node with the settings; ready once its broker registered over GSSAPI.
fn fjord_node(root: &Path, kdc: &Kdc) -> Node {
    let (client, controller) = (free_port(), free_port());
    let voters = format!("controller.quorum.voters=1@127.0.0.1:{controller}");
    let mut node = Node::combined(root, 1, (client, controller), &voters, &settings(kdc));
    node.format(&random_uuid(), &[]);
    node.start();
    node
}

#[test]
#[ignore = "installs and starts an MIT KDC (tests/kerberos/kdc.sh); .ci/run runs it"]
fn kerberos_on_fjord_and_on_kafka() {
    let root = tempfile::tempdir().unwrap();
    let kdc_dir = root.path().join("kdc");
    std::fs::create_dir_all(&kdc_dir).unwrap();
    let kdc = Kdc::start(
        &kdc_dir,
        &[
            "kafka/localhost@FJORD.TEST",
            "admin@FJORD.TEST",
            "alice@FJORD.TEST",
            "Carol@FJORD.TEST",
        ],
    );
    // This binary holds this one test: the environment is set before any client runs. The
    // GSSAPI library (in fjord, librdkafka and Java) reads the realm from the KDC's krb5.conf;
    // librdkafka's kinit keeps its tickets in a cache of the test's own.
    std::env::set_var("KRB5_CONFIG", &kdc.conf);
    std::env::set_var(
        "KRB5CCNAME",
        format!("FILE:{}", kdc_dir.join("librdkafka.cc").display()),
    );
    std::env::set_var(
        "KAFKA_JVM_OPTS",
        format!("-Djava.security.krb5.conf={}", kdc.conf.display()),
    );

    let node = fjord_node(root.path(), &kdc);
    let bootstrap = node.broker_addr();
    let on_fjord = clients(&kdc, &bootstrap);
    assert_eq!(
        on_fjord.alice_read,
        ["kerberos-0", "kerberos-1", "kerberos-2"]
    );
    assert_eq!(on_fjord.carol_topics, "carols");
    let expected_raw = vec![
        vec![Raw::Challenge, Raw::Challenge, Raw::Authenticated(0)],
        vec![Raw::Failed(58, gssapi_failed())],
        vec![Raw::Failed(58, gssapi_failed())],
        vec![Raw::Challenge, Raw::Failed(58, gssapi_failed())],
        vec![Raw::Failed(58, gssapi_failed())],
        vec![
            Raw::Challenge,
            Raw::Challenge,
            Raw::Failed(58, gssapi_failed()),
        ],
        vec![
            Raw::Challenge,
            Raw::Challenge,
            Raw::Failed(58, gssapi_failed()),
        ],
    ];
    assert_eq!(on_fjord.raw, expected_raw, "{}", node.log_tail());
    drop(node);

    let kafka = KafkaCluster::start(1, KAFKA_BASE, &settings(&kdc));
    let on_kafka = clients(&kdc, &kafka.bootstrap);
    assert_eq!(on_kafka, on_fjord, "Kafka 4.4 and fjord differ");
}

/// Kafka's answer to a failed GSSAPI login.
fn gssapi_failed() -> String {
    "Authentication failed during authentication due to invalid credentials with SASL mechanism GSSAPI".into()
}
