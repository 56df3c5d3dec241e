//! Security on real processes: SASL/PLAIN and SCRAM listeners (wrong passwords, unknown users,
//! requests before authentication, re-authentication and expired sessions), TLS listeners
//! (mutual TLS with the principal from the certificate and the mapping rules, untrusted and
//! expired certificates, plaintext bytes on a TLS port, certificates reloaded without dropping
//! connections) and the authorizer (each mission RPC refused without the rights docs/EXTENSIONS.md
//! names and served with them; producers, consumers and Metadata as Kafka's table says), with
//! librdkafka as a real client.

mod common;

use common::certs::Ca;
use common::{free_port, random_uuid, wait_for, Node};
use fjord_net::client::{CallError, Client};
use fjord_net::sasl::scram::Mechanism;
use fjord_net::security::{ClientSecurity, SaslCredentials};
use fjord_net::tls::{Pem, TlsSettings};
use fjord_protocol::generated::{
    alter_user_scram_credentials_request as scram_rq, create_acls_request as acl_rq,
    create_topics_request as ct, delete_acls_request as del_rq,
    describe_acls_request::DescribeAclsRequest, elect_leaders_request as el,
    get_replica_log_info_request as grli, join_group_request as jg, metadata_request as md,
    produce_request as pq, sasl_authenticate_request::SaslAuthenticateRequest,
    sasl_handshake_request::SaslHandshakeRequest,
    unregister_controller_request::UnregisterControllerRequest,
};
use fjord_protocol::records::{Compression, RecordBatchBuilder};
use fjord_protocol::{ErrorCode, RequestBody, ResponseBody};
use std::path::Path;
use std::time::{Duration, Instant};

const TIMEOUT: Duration = Duration::from_secs(10);
const PLAIN_JAAS: &str = r#"org.apache.kafka.common.security.plain.PlainLoginModule required username="admin" password="admin-secret" user_admin="admin-secret" user_alice="alice-secret" user_bob="bob-secret";"#;

fn sasl(mechanism: &str, user: &str, password: &str) -> ClientSecurity {
    ClientSecurity {
        tls: None,
        sasl: Some(SaslCredentials {
            mechanism: mechanism.into(),
            username: user.into(),
            password: password.into(),
            token: false,
            bearer: None,
            gssapi: None,
        }),
    }
}

fn tls(truststore: &Path, keystore: Option<&Path>) -> ClientSecurity {
    let settings = TlsSettings {
        keystore: keystore.map(|k| (Pem::File(k.into()), None)),
        truststore: Some(Pem::File(truststore.into())),
        check_hostname: true,
        ..Default::default()
    };
    ClientSecurity {
        tls: Some(settings.client_config().unwrap()),
        sasl: None,
    }
}

async fn connect(addr: &str, security: &ClientSecurity) -> Result<Client, CallError> {
    Client::connect_with(addr, TIMEOUT, "security-test", security).await
}

async fn call(c: &Client, body: RequestBody, version: i16) -> Result<ResponseBody, CallError> {
    c.call(body, version, TIMEOUT).await
}

fn metadata(topics: Option<&[&str]>) -> RequestBody {
    RequestBody::Metadata(md::MetadataRequest {
        topics: topics.map(|t| {
            t.iter()
                .map(|n| md::MetadataRequestTopic {
                    name: Some(n.to_string()),
                    ..Default::default()
                })
                .collect()
        }),
        ..Default::default()
    })
}

fn produce(topic: &str, value: &str) -> RequestBody {
    let mut b = RecordBatchBuilder::new(Compression::None);
    b.append(1_000, None, Some(value.as_bytes()), &[]);
    RequestBody::Produce(pq::ProduceRequest {
        acks: 1,
        timeout_ms: 5_000,
        topic_data: vec![pq::TopicProduceData {
            name: topic.into(),
            partition_data: vec![pq::PartitionProduceData {
                index: 0,
                records: Some(b.build().unwrap().into()),
                ..Default::default()
            }],
            ..Default::default()
        }],
        ..Default::default()
    })
}

fn produce_error(r: ResponseBody) -> i16 {
    let ResponseBody::Produce(r) = r else {
        panic!("{r:?}")
    };
    r.responses[0].partition_responses[0].error_code
}

fn create_topic(name: &str) -> RequestBody {
    RequestBody::CreateTopics(ct::CreateTopicsRequest {
        topics: vec![ct::CreatableTopic {
            name: name.into(),
            num_partitions: 1,
            replication_factor: 1,
            ..Default::default()
        }],
        timeout_ms: 10_000,
        ..Default::default()
    })
}

/// A combined node whose client listener `CLIENT` uses `protocol` (and its controller
/// listener PLAINTEXT, unless `extra` maps it); `extra` adds properties.
fn secured_node(root: &Path, protocol: &str, extra: &str) -> Node {
    let ports = (free_port(), free_port());
    let quorum = format!("controller.quorum.bootstrap.servers=127.0.0.1:{}", ports.1);
    let config = format!(
        "listeners=CLIENT://127.0.0.1:{},CONTROLLER://127.0.0.1:{}\n\
         listener.security.protocol.map=CLIENT:{protocol},CONTROLLER:PLAINTEXT\n\
         inter.broker.listener.name=CLIENT\noffsets.topic.replication.factor=1\n\
         offsets.topic.num.partitions=3\n{extra}",
        ports.0, ports.1
    );
    let mut node = Node::combined(root, 1, ports, &quorum, &config);
    node.format(&random_uuid(), &["--standalone"]);
    node.start();
    node
}

fn sasl_extra(more: &str) -> String {
    format!(
        "sasl.enabled.mechanisms=PLAIN,SCRAM-SHA-256,SCRAM-SHA-512\n\
         sasl.mechanism.inter.broker.protocol=PLAIN\n\
         listener.name.client.plain.sasl.jaas.config={PLAIN_JAAS}\n{more}"
    )
}

/// Connects with `security` until the node's listener answers (it opens once ready).
async fn ready(addr: &str, security: &ClientSecurity, node: &Node) -> Client {
    let deadline = Instant::now() + Duration::from_secs(60);
    loop {
        if let Ok(c) = connect(addr, security).await {
            if let Ok(ResponseBody::Metadata(m)) = call(&c, metadata(None), 12).await {
                if !m.brokers.is_empty() {
                    return c;
                }
            }
        }
        assert!(
            Instant::now() < deadline,
            "the node never served an authenticated client:\n{}",
            node.log_tail()
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

/// Sets `user`'s SCRAM credential for `m` through AlterUserScramCredentials.
async fn set_scram(admin: &Client, user: &str, m: Mechanism, password: &str) {
    let salt = b"a-salt-of-16-bytes".to_vec();
    let salted = m.salted_password(password.as_bytes(), &salt, 4096);
    let body = RequestBody::AlterUserScramCredentials(scram_rq::AlterUserScramCredentialsRequest {
        upsertions: vec![scram_rq::ScramCredentialUpsertion {
            name: user.into(),
            mechanism: m.code(),
            iterations: 4096,
            salt: salt.into(),
            salted_password: salted.into(),
            ..Default::default()
        }],
        ..Default::default()
    });
    let ResponseBody::AlterUserScramCredentials(r) = call(admin, body, 0).await.unwrap() else {
        panic!()
    };
    assert_eq!(
        r.results[0].error_code, 0,
        "{:?}",
        r.results[0].error_message
    );
}

#[test]
fn sasl_plain_and_scram_authenticate_and_refuse_everything_else() {
    let root = tempfile::tempdir().unwrap();
    let node = secured_node(
        root.path(),
        "SASL_PLAINTEXT",
        &sasl_extra(
            "connections.max.reauth.ms=1500\nconnection.failed.authentication.delay.ms=300",
        ),
    );
    let addr = node.broker_addr();
    let rt = tokio::runtime::Runtime::new().unwrap();
    rt.block_on(async {
        let admin = ready(&addr, &sasl("PLAIN", "admin", "admin-secret"), &node).await;
        let ResponseBody::CreateTopics(r) = call(&admin, create_topic("secure"), 7).await.unwrap() else {
            panic!()
        };
        assert_eq!(r.topics[0].error_code, 0, "{:?}", r.topics[0].error_message);

        // Without SASL: ApiVersions is answered, anything else closes the connection.
        let anonymous = connect(&addr, &ClientSecurity::plaintext()).await.unwrap();
        let versions = RequestBody::ApiVersions(Default::default());
        assert!(matches!(call(&anonymous, versions, 3).await, Ok(ResponseBody::ApiVersions(_))));
        assert!(call(&anonymous, metadata(None), 12).await.is_err());
        assert!(!anonymous.is_open() || call(&anonymous, metadata(None), 12).await.is_err());

        // Wrong passwords and unknown users fail alike, after the failed-authentication delay.
        for (user, password) in [("alice", "wrong"), ("mallory", "alice-secret")] {
            let started = Instant::now();
            let e = connect(&addr, &sasl("PLAIN", user, password)).await.unwrap_err();
            assert!(
                e.to_string().contains("Invalid username or password"),
                "{e}"
            );
            assert!(!e.to_string().contains(password), "{e}");
            assert!(started.elapsed() >= Duration::from_millis(300), "no delay");
        }
        let e = connect(&addr, &sasl("GSSAPI", "alice", "x")).await.unwrap_err();
        assert!(e.to_string().contains("UNSUPPORTED_SASL_MECHANISM"), "{e}");

        // Before authentication a frame may be at most sasl.server.max.receive.size (512 KiB):
        // a larger one closes the connection unread; other clients go on.
        {
            use tokio::io::{AsyncReadExt, AsyncWriteExt};
            let mut raw = tokio::net::TcpStream::connect(&addr).await.unwrap();
            raw.write_all(&(1_000_000i32).to_be_bytes()).await.unwrap();
            let mut buf = [0u8; 16];
            let n = tokio::time::timeout(TIMEOUT, raw.read(&mut buf)).await.expect("closed");
            assert!(matches!(n, Ok(0) | Err(_)), "{n:?}");
        }
        assert!(call(&admin, metadata(None), 12).await.is_ok());

        // SCRAM: credentials stored through the metadata log, both mechanisms.
        set_scram(&admin, "carol", Mechanism::Sha256, "carol-256").await;
        set_scram(&admin, "carol", Mechanism::Sha512, "carol-512").await;
        let carol = wait_for_login(&addr, &sasl("SCRAM-SHA-256", "carol", "carol-256")).await;
        let r = call(&carol, produce("secure", "from carol"), 9).await.unwrap();
        assert_eq!(produce_error(r), 0);
        connect(&addr, &sasl("SCRAM-SHA-512", "carol", "carol-512")).await.unwrap();
        for bad in [
            sasl("SCRAM-SHA-256", "carol", "carol-512"),
            sasl("SCRAM-SHA-512", "nobody", "x"),
        ] {
            let e = connect(&addr, &bad).await.unwrap_err();
            assert!(e.to_string().contains("invalid credentials"), "{e}");
        }
        let body = RequestBody::DescribeUserScramCredentials(Default::default());
        let ResponseBody::DescribeUserScramCredentials(d) = call(&admin, body, 0).await.unwrap() else {
            panic!()
        };
        let carol_infos: Vec<(i8, i32)> = d.results.iter().filter(|r| r.user == "carol")
            .flat_map(|r| r.credential_infos.iter().map(|i| (i.mechanism, i.iterations))).collect();
        assert_eq!(carol_infos, vec![(1, 4096), (2, 4096)]);

        // Re-authentication: fjord's client renews its 1.5 s session in band and keeps going.
        let started = Instant::now();
        let mut answered = 0;
        while started.elapsed() < Duration::from_secs(4) {
            let r = call(&admin, metadata(Some(&["secure"])), 12).await;
            assert!(r.is_ok(), "request {answered} after {:?}: {r:?}", started.elapsed());
            answered += 1;
            tokio::time::sleep(Duration::from_millis(200)).await;
        }
        assert!(answered >= 15);

        // A client that never re-authenticates is cut off once its session ends.
        let raw = connect(&addr, &ClientSecurity::plaintext()).await.unwrap();
        let hs = RequestBody::SaslHandshake(SaslHandshakeRequest { mechanism: "PLAIN".into() });
        assert!(matches!(call(&raw, hs, 1).await, Ok(ResponseBody::SaslHandshake(h)) if h.error_code == 0));
        let auth = RequestBody::SaslAuthenticate(SaslAuthenticateRequest {
            auth_bytes: b"\0bob\0bob-secret".to_vec().into(),
            ..Default::default()
        });
        let Ok(ResponseBody::SaslAuthenticate(a)) = call(&raw, auth, 2).await else { panic!() };
        assert_eq!((a.error_code, a.session_lifetime_ms), (0, 1500));
        assert!(call(&raw, metadata(None), 12).await.is_ok());
        tokio::time::sleep(Duration::from_millis(1700)).await;
        assert!(call(&raw, metadata(None), 12).await.is_err(), "an expired session");
    });

    // Nothing the node logged reveals a password, right or wrong.
    let log = std::fs::read_to_string(node.dir.join("server.log")).unwrap();
    for secret in [
        "alice-secret",
        "admin-secret",
        "carol-256",
        "carol-512",
        "wrong",
    ] {
        assert!(!log.contains(secret), "the log shows {secret}");
    }

    // librdkafka with SASL/PLAIN and SCRAM-SHA-512 produces and consumes.
    for (mechanism, user, password) in [
        ("PLAIN", "alice", "alice-secret"),
        ("SCRAM-SHA-512", "carol", "carol-512"),
    ] {
        let config = |c: &mut rdkafka::config::ClientConfig| {
            c.set("bootstrap.servers", &addr)
                .set("security.protocol", "SASL_PLAINTEXT")
                .set("sasl.mechanism", mechanism)
                .set("sasl.username", user)
                .set("sasl.password", password);
        };
        let sent = format!("hello from {user}");
        rdkafka_round_trip(&rt, config, "secure", &sent);
    }
}

/// Connects with `security` once the image has the credentials (SCRAM users become usable
/// when their record is applied).
async fn wait_for_login(addr: &str, security: &ClientSecurity) -> Client {
    let deadline = Instant::now() + Duration::from_secs(20);
    loop {
        match connect(addr, security).await {
            Ok(c) => return c,
            Err(e) if Instant::now() > deadline => panic!("never logged in: {e}"),
            Err(_) => tokio::time::sleep(Duration::from_millis(100)).await,
        }
    }
}

/// Produces `value` to `topic` and reads it back with librdkafka configured by `config`.
fn rdkafka_round_trip(
    rt: &tokio::runtime::Runtime,
    config: impl Fn(&mut rdkafka::config::ClientConfig),
    topic: &str,
    value: &str,
) {
    use rdkafka::consumer::{BaseConsumer, Consumer};
    use rdkafka::message::Message;
    use rdkafka::producer::{FutureProducer, FutureRecord};
    let mut pc = rdkafka::config::ClientConfig::new();
    config(&mut pc);
    pc.set("message.timeout.ms", "30000");
    let producer: FutureProducer = pc.create().unwrap();
    let delivered = rt
        .block_on(producer.send(
            FutureRecord::to(topic).key("k").payload(value).partition(0),
            TIMEOUT,
        ))
        .map_err(|(e, _)| e)
        .expect("delivered");
    let mut cc = rdkafka::config::ClientConfig::new();
    config(&mut cc);
    cc.set("group.id", format!("g-{}", random_uuid()))
        .set("enable.auto.commit", "false");
    let consumer: BaseConsumer = cc.create().unwrap();
    let mut tpl = rdkafka::TopicPartitionList::new();
    tpl.add_partition_offset(topic, 0, rdkafka::Offset::Offset(delivered.offset))
        .unwrap();
    consumer.assign(&tpl).unwrap();
    let got = wait_for(Duration::from_secs(30), || {
        let m = consumer.poll(Duration::from_millis(200))?.ok()?;
        Some(String::from_utf8(m.payload()?.to_vec()).unwrap())
    });
    assert_eq!(got.as_deref(), Some(value));
}

#[test]
fn tls_listeners_authenticate_clients_by_certificate_and_reload_their_own() {
    let root = tempfile::tempdir().unwrap();
    let dir = root.path();
    let ca = Ca::new(dir, "fjord-test");
    let server = ca.keystore(dir, "node.pem", "node1", false);
    let extra = format!(
        "ssl.keystore.type=PEM\nssl.keystore.location={}\nssl.truststore.location={}\n\
         ssl.client.auth=required\n\
         ssl.principal.mapping.rules=RULE:^CN=([a-z0-9]+),O=.*$/$1/,DEFAULT\n\
         authorizer.class.name=org.apache.kafka.metadata.authorizer.StandardAuthorizer\n\
         super.users=User:node1;User:ANONYMOUS\n",
        server.display(),
        ca.truststore.display()
    );
    let node = secured_node(dir, "SSL", &extra);
    let addr = node.broker_addr();
    let alice_pem = ca.keystore(dir, "alice.pem", "alice", false);
    let bob_pem = ca.keystore(dir, "bob.pem", "bob", false);
    let rt = tokio::runtime::Runtime::new().unwrap();
    rt.block_on(async {
        // The node's own certificate is a super user (its replica fetchers and tools).
        let admin = ready(&addr, &tls(&ca.truststore, Some(&server)), &node).await;
        let ResponseBody::CreateTopics(r) = call(&admin, create_topic("tls"), 7).await.unwrap()
        else {
            panic!()
        };
        assert_eq!(r.topics[0].error_code, 0);
        acl(&admin, "TOPIC", "tls", "User:alice", "WRITE").await;

        // alice's certificate maps to User:alice (the rule), bob's to User:bob.
        let alice = connect(&addr, &tls(&ca.truststore, Some(&alice_pem)))
            .await
            .unwrap();
        assert_eq!(
            produce_error(call(&alice, produce("tls", "a"), 9).await.unwrap()),
            0
        );
        let bob = connect(&addr, &tls(&ca.truststore, Some(&bob_pem)))
            .await
            .unwrap();
        assert_eq!(
            produce_error(call(&bob, produce("tls", "b"), 9).await.unwrap()),
            ErrorCode::TopicAuthorizationFailed.code()
        );

        // No client certificate, an untrusted one, an expired one, plaintext bytes: refused.
        let no_cert = connect(&addr, &tls(&ca.truststore, None)).await;
        let refused_without_cert = match no_cert {
            Err(_) => true,
            Ok(c) => call(&c, metadata(None), 12).await.is_err(),
        };
        assert!(
            refused_without_cert,
            "a client without a certificate was served"
        );
        let other_ca = Ca::new(dir, "other");
        let stranger = other_ca.keystore(dir, "stranger.pem", "alice", false);
        let expired = ca.keystore(dir, "expired.pem", "alice", true);
        for keystore in [&stranger, &expired] {
            let refused = match connect(&addr, &tls(&ca.truststore, Some(keystore))).await {
                Err(_) => true,
                Ok(c) => call(&c, metadata(None), 12).await.is_err(),
            };
            assert!(refused, "{} was accepted", keystore.display());
        }
        // A client that connects and never starts its TLS handshake is closed after
        // HANDSHAKE_TIMEOUT (10 s); others are served meanwhile.
        let silent = async {
            use tokio::io::AsyncReadExt;
            let mut raw = tokio::net::TcpStream::connect(&addr).await.unwrap();
            let mut buf = [0u8; 16];
            raw.read(&mut buf).await
        };
        let served = async {
            assert_eq!(
                produce_error(call(&alice, produce("tls", "meanwhile"), 9).await.unwrap()),
                0
            );
        };
        let started = Instant::now();
        let (closed, ()) = tokio::join!(
            tokio::time::timeout(Duration::from_secs(30), silent),
            served
        );
        assert!(matches!(closed, Ok(Ok(0)) | Ok(Err(_))), "{closed:?}");
        assert!(
            started.elapsed() >= fjord_net::tls::HANDSHAKE_TIMEOUT - Duration::from_millis(500)
        );
        // A client that does not trust the node's CA refuses it.
        assert!(connect(&addr, &tls(&other_ca.truststore, Some(&alice_pem)))
            .await
            .is_err());
        let plaintext = connect(&addr, &ClientSecurity::plaintext()).await.unwrap();
        assert!(
            call(&plaintext, RequestBody::ApiVersions(Default::default()), 3)
                .await
                .is_err()
        );
        // The node still serves its clients.
        assert_eq!(
            produce_error(call(&alice, produce("tls", "a2"), 9).await.unwrap()),
            0
        );

        // A new certificate in the key store file is served to new connections within a few
        // seconds; open connections keep going.
        let before = served_certificate(&addr, &ca.truststore).await;
        let renewed = ca.keystore(dir, "renewed.pem", "node1", false);
        std::fs::rename(&renewed, &server).unwrap();
        let changed = async {
            loop {
                if served_certificate(&addr, &ca.truststore).await != before {
                    return;
                }
                tokio::time::sleep(Duration::from_millis(200)).await;
            }
        };
        tokio::time::timeout(Duration::from_secs(20), changed)
            .await
            .expect("the renewed certificate is served");
        assert_eq!(
            produce_error(call(&alice, produce("tls", "a3"), 9).await.unwrap()),
            0
        );
    });

    // librdkafka over TLS with its own certificate.
    let alice_pem_s = alice_pem.display().to_string();
    let trust = ca.truststore.display().to_string();
    let config = |c: &mut rdkafka::config::ClientConfig| {
        c.set("bootstrap.servers", &addr)
            .set("security.protocol", "SSL")
            .set("ssl.ca.location", &trust)
            .set("ssl.certificate.location", &alice_pem_s)
            .set("ssl.key.location", &alice_pem_s);
    };
    // alice may write but not read: the consumer half needs READ and DESCRIBE.
    rt.block_on(async {
        let admin = connect(&addr, &tls(&ca.truststore, Some(&server)))
            .await
            .unwrap();
        acl(&admin, "TOPIC", "tls", "User:alice", "READ").await;
        acl(&admin, "GROUP", "*", "User:alice", "READ").await;
    });
    rdkafka_round_trip(&rt, config, "tls", "over TLS");
}

/// The DER of the certificate the node at `addr` presents now.
async fn served_certificate(addr: &str, truststore: &Path) -> Vec<u8> {
    let config = TlsSettings {
        truststore: Some(Pem::File(truststore.into())),
        check_hostname: true,
        ..Default::default()
    }
    .client_config()
    .unwrap();
    let (connector, name) = fjord_net::tls::connector(config, "127.0.0.1").unwrap();
    let tcp = tokio::net::TcpStream::connect(addr).await.unwrap();
    // The node requires a client certificate; the handshake still shows its own.
    match connector.connect(name, tcp).await {
        Ok(s) => s.get_ref().1.peer_certificates().unwrap()[0].to_vec(),
        Err(e) => panic!("no TLS handshake: {e}"),
    }
}

/// Adds an ALLOW ACL for `principal` doing `op` on the LITERAL resource `name` of `kind`.
async fn acl(admin: &Client, kind: &str, name: &str, principal: &str, op: &str) {
    use fjord_metadata::acls::{AclOperation, PatternType, Permission, ResourceType};
    let body = RequestBody::CreateAcls(acl_rq::CreateAclsRequest {
        creations: vec![acl_rq::AclCreation {
            resource_type: ResourceType::parse(kind).unwrap().code(),
            resource_name: name.into(),
            resource_pattern_type: PatternType::Literal.code(),
            principal: principal.into(),
            host: "*".into(),
            operation: AclOperation::parse(op).unwrap().code(),
            permission_type: Permission::Allow.code(),
            ..Default::default()
        }],
        ..Default::default()
    });
    let ResponseBody::CreateAcls(r) = call(admin, body, 3).await.unwrap() else {
        panic!()
    };
    assert_eq!(
        r.results[0].error_code, 0,
        "{:?}",
        r.results[0].error_message
    );
    // The ACL is in force once the broker's image has it.
    let filter = RequestBody::DescribeAcls(DescribeAclsRequest {
        resource_type_filter: ResourceType::parse(kind).unwrap().code(),
        resource_name_filter: Some(name.into()),
        pattern_type_filter: PatternType::Literal.code(),
        principal_filter: Some(principal.into()),
        host_filter: None,
        operation: AclOperation::parse(op).unwrap().code(),
        permission_type: Permission::Allow.code(),
        ..Default::default()
    });
    let deadline = Instant::now() + Duration::from_secs(10);
    loop {
        if let Ok(ResponseBody::DescribeAcls(d)) = call(admin, filter.clone(), 3).await {
            if !d.resources.is_empty() {
                return;
            }
        }
        if Instant::now() > deadline {
            let all = RequestBody::DescribeAcls(DescribeAclsRequest {
                resource_name_filter: None,
                principal_filter: None,
                host_filter: None,
                resource_type_filter: 1,
                pattern_type_filter: 1,
                operation: 1,
                permission_type: 1,
                ..Default::default()
            });
            panic!(
                "the ACL never reached the broker: {:?}",
                call(admin, all, 3).await
            );
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

#[test]
fn the_authorizer_enforces_kafkas_table_and_the_mission_rpcs_rules() {
    let root = tempfile::tempdir().unwrap();
    // The controller listener uses SASL too: the broker registers as User:admin.
    let extra = sasl_extra(&format!(
        "authorizer.class.name=org.apache.kafka.metadata.authorizer.StandardAuthorizer\n\
         super.users=User:admin\n\
         listener.security.protocol.map=CLIENT:SASL_PLAINTEXT,CONTROLLER:SASL_PLAINTEXT\n\
         sasl.mechanism.controller.protocol=PLAIN\n\
         listener.name.controller.plain.sasl.jaas.config={PLAIN_JAAS}\n"
    ));
    let node = secured_node(root.path(), "SASL_PLAINTEXT", &extra);
    let addr = node.broker_addr();
    let rt = tokio::runtime::Runtime::new().unwrap();
    rt.block_on(async {
        let admin = ready(&addr, &sasl("PLAIN", "admin", "admin-secret"), &node).await;
        for t in ["orders", "hidden"] {
            let ResponseBody::CreateTopics(r) = call(&admin, create_topic(t), 7).await.unwrap()
            else {
                panic!()
            };
            assert_eq!(r.topics[0].error_code, 0);
        }
        let alice = connect(&addr, &sasl("PLAIN", "alice", "alice-secret"))
            .await
            .unwrap();
        let cluster_denied = ErrorCode::ClusterAuthorizationFailed.code();
        let topic_denied = ErrorCode::TopicAuthorizationFailed.code();

        // Produce and Metadata, CreateTopics topic by topic, JoinGroup: each needs its right.
        topic_and_group_rights(&admin, &alice).await;

        // ElectLeaders DESIGNATED and GetReplicaLogInfo need their rights.
        let (orders_id, hidden_id) = the_mission_rpcs_need_their_rights(&admin, &alice).await;
        get_replica_log_info_is_judged_topic_by_topic(&alice, orders_id, hidden_id).await;

        // UnregisterController needs ALTER on the cluster.
        let ResponseBody::UnregisterController(u) = call(&alice, unregister(), 0).await.unwrap()
        else {
            panic!()
        };
        assert_eq!(u.error_code, cluster_denied);
        // Creating ACLs needs ALTER on the cluster too.
        let body = RequestBody::CreateAcls(acl_rq::CreateAclsRequest {
            creations: vec![Default::default()],
            ..Default::default()
        });
        let ResponseBody::CreateAcls(c) = call(&alice, body, 3).await.unwrap() else {
            panic!()
        };
        assert_eq!(c.results[0].error_code, cluster_denied);

        // With the rights, each is served (and answers on its own terms).
        acl(
            &admin,
            "CLUSTER",
            "kafka-cluster",
            "User:alice",
            "CLUSTER_ACTION",
        )
        .await;
        acl(&admin, "CLUSTER", "kafka-cluster", "User:alice", "ALTER").await;
        let ResponseBody::ElectLeaders(e) = call(&alice, designated(), 3).await.unwrap() else {
            panic!()
        };
        assert_eq!(e.error_code, 0);
        assert_eq!(
            e.replica_election_results[0].partition_result[0].error_code,
            ErrorCode::ElectionNotNeeded.code(),
            "orders-0 has a leader"
        );
        let ResponseBody::GetReplicaLogInfo(g) =
            call(&alice, log_info(hidden_id), 0).await.unwrap()
        else {
            panic!()
        };
        assert_eq!(
            g.topic_partition_log_info_list[0].partition_log_info[0].error_code,
            0
        );
        let ResponseBody::UnregisterController(u) = call(&alice, unregister(), 0).await.unwrap()
        else {
            panic!()
        };
        assert_eq!(u.error_code, ErrorCode::ControllerIdNotRegistered.code());

        // The controller judges the original principal: bob's request, forwarded by the
        // broker in an Envelope, is refused there as well (the broker refuses it first).
        let bob = connect(&addr, &sasl("PLAIN", "bob", "bob-secret"))
            .await
            .unwrap();
        let ResponseBody::UnregisterController(u) = call(&bob, unregister(), 0).await.unwrap()
        else {
            panic!()
        };
        assert_eq!(u.error_code, cluster_denied);
        the_controller_listener_judges_the_original_principal(&node.addr()).await;

        // Deleting the WRITE ACL takes the right away again.
        let body = RequestBody::DeleteAcls(del_rq::DeleteAclsRequest {
            filters: vec![del_rq::DeleteAclsFilter {
                resource_type_filter: 2,
                resource_name_filter: Some("orders".into()),
                pattern_type_filter: 3,
                principal_filter: Some("User:alice".into()),
                host_filter: None,
                operation: 4,
                permission_type: 3,
                ..Default::default()
            }],
            ..Default::default()
        });
        let ResponseBody::DeleteAcls(d) = call(&admin, body, 3).await.unwrap() else {
            panic!()
        };
        assert_eq!(d.filter_results[0].matching_acls.len(), 1);
        let deadline = Instant::now() + Duration::from_secs(10);
        loop {
            let code = produce_error(call(&alice, produce("orders", "y"), 9).await.unwrap());
            if code == topic_denied {
                break;
            }
            assert!(Instant::now() < deadline, "WRITE was never taken away");
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    });
    // librdkafka without WRITE gets TOPIC_AUTHORIZATION_FAILED.
    librdkafka_without_write_is_refused(&rt, &addr);
}

/// Produce needs WRITE on the topic; Metadata lists only what alice may DESCRIBE;
/// CreateTopics is judged topic by topic (CREATE on a PREFIXED resource); JoinGroup needs
/// READ on the group.
async fn topic_and_group_rights(admin: &Client, alice: &Client) {
    let topic_denied = ErrorCode::TopicAuthorizationFailed.code();
    // Produce needs WRITE on the topic.
    assert_eq!(
        produce_error(call(alice, produce("orders", "x"), 9).await.unwrap()),
        topic_denied
    );
    acl(admin, "TOPIC", "orders", "User:alice", "WRITE").await;
    // Asked again while the new topic's leader is still starting (NOT_LEADER_OR_FOLLOWER:
    // the log may come up after CreateTopics answered), as a producer does.
    let deadline = Instant::now() + Duration::from_secs(30);
    let written = loop {
        let code = produce_error(call(alice, produce("orders", "x"), 9).await.unwrap());
        if code != ErrorCode::NotLeaderOrFollower.code() || Instant::now() > deadline {
            break code;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    };
    assert_eq!(written, 0);

    // Metadata lists only what alice may DESCRIBE (WRITE implies it); a named topic she
    // may not see is refused.
    let ResponseBody::Metadata(m) = call(alice, metadata(None), 12).await.unwrap() else {
        panic!()
    };
    let names: Vec<_> = m.topics.iter().filter_map(|t| t.name.clone()).collect();
    assert_eq!(names, vec!["orders".to_string()]);
    let ResponseBody::Metadata(m) = call(alice, metadata(Some(&["hidden"])), 12).await.unwrap()
    else {
        panic!()
    };
    assert_eq!(m.topics[0].error_code, topic_denied);
    assert!(m.topics[0].partitions.is_empty());

    // CreateTopics is answered topic by topic: CREATE on the PREFIXED resource `alice-`
    // lets alice create alice-1, not bob-1 (forwarded in an Envelope, judged on both ends).
    let prefixed = RequestBody::CreateAcls(acl_rq::CreateAclsRequest {
        creations: vec![acl_rq::AclCreation {
            resource_type: 2,
            resource_name: "alice-".into(),
            resource_pattern_type: 4,
            principal: "User:alice".into(),
            host: "*".into(),
            operation: 5,
            permission_type: 3,
            ..Default::default()
        }],
        ..Default::default()
    });
    let ResponseBody::CreateAcls(c) = call(admin, prefixed, 3).await.unwrap() else {
        panic!()
    };
    assert_eq!(c.results[0].error_code, 0);
    let two = RequestBody::CreateTopics(ct::CreateTopicsRequest {
        topics: ["alice-1", "bob-1"]
            .iter()
            .map(|n| ct::CreatableTopic {
                name: n.to_string(),
                num_partitions: 1,
                replication_factor: 1,
                ..Default::default()
            })
            .collect(),
        timeout_ms: 10_000,
        ..Default::default()
    });
    let deadline = Instant::now() + Duration::from_secs(10);
    let codes = loop {
        let ResponseBody::CreateTopics(r) = call(alice, two.clone(), 7).await.unwrap() else {
            panic!()
        };
        let mut codes: Vec<(String, i16)> = r
            .topics
            .iter()
            .map(|t| (t.name.clone(), t.error_code))
            .collect();
        codes.sort();
        // The broker may not have the new ACL yet.
        if codes[0].1 == 0 || Instant::now() > deadline {
            break codes;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    };
    assert_eq!(
        codes,
        vec![
            ("alice-1".to_string(), 0),
            ("bob-1".to_string(), topic_denied)
        ]
    );

    // A consumer without READ on its group.
    let join = RequestBody::JoinGroup(jg::JoinGroupRequest {
        group_id: "payments".into(),
        session_timeout_ms: 10_000,
        rebalance_timeout_ms: 10_000,
        protocol_type: "consumer".into(),
        protocols: vec![jg::JoinGroupRequestProtocol {
            name: "range".into(),
            ..Default::default()
        }],
        ..Default::default()
    });
    let ResponseBody::JoinGroup(j) = call(alice, join, 9).await.unwrap() else {
        panic!()
    };
    assert_eq!(j.error_code, ErrorCode::GroupAuthorizationFailed.code());
}

/// GetReplicaLogInfo of partition 0 of topic `topic_id`.
fn log_info(topic_id: fjord_protocol::Uuid) -> RequestBody {
    RequestBody::GetReplicaLogInfo(grli::GetReplicaLogInfoRequest {
        topic_partitions: Some(vec![grli::TopicPartitions {
            topic_id,
            partitions: vec![0],
            ..Default::default()
        }]),
        ..Default::default()
    })
}

/// UnregisterController of controller 7 (never registered).
fn unregister() -> RequestBody {
    RequestBody::UnregisterController(UnregisterControllerRequest {
        controller_id: 7,
        ..Default::default()
    })
}

/// GetReplicaLogInfo judged topic by topic in one request: the refused topic's partitions
/// get TOPIC_AUTHORIZATION_FAILED, the allowed one is answered, an unknown id gets
/// UNKNOWN_TOPIC_ID; refusals count toward the 1000-partition limit.
async fn get_replica_log_info_is_judged_topic_by_topic(
    alice: &Client,
    orders_id: fjord_protocol::Uuid,
    hidden_id: fjord_protocol::Uuid,
) {
    let topic_denied = ErrorCode::TopicAuthorizationFailed.code();
    // Judged topic by topic in one request: the refused topic's partitions get
    // TOPIC_AUTHORIZATION_FAILED, the allowed one is answered, an unknown id gets
    // UNKNOWN_TOPIC_ID; refusals count toward the 1000-partition limit.
    let mixed = RequestBody::GetReplicaLogInfo(grli::GetReplicaLogInfoRequest {
        topic_partitions: Some(vec![
            grli::TopicPartitions {
                topic_id: hidden_id,
                partitions: (0..999).collect(),
                ..Default::default()
            },
            grli::TopicPartitions {
                topic_id: orders_id,
                partitions: vec![0],
                ..Default::default()
            },
            grli::TopicPartitions {
                topic_id: fjord_protocol::Uuid::from_u128(77),
                partitions: vec![0, 1],
                ..Default::default()
            },
        ]),
        ..Default::default()
    });
    let ResponseBody::GetReplicaLogInfo(g) = call(alice, mixed, 0).await.unwrap() else {
        panic!()
    };
    let codes: Vec<(usize, Vec<i16>)> = g
        .topic_partition_log_info_list
        .iter()
        .map(|t| {
            let mut c: Vec<i16> = t.partition_log_info.iter().map(|p| p.error_code).collect();
            c.dedup();
            (t.partition_log_info.len(), c)
        })
        .collect();
    assert_eq!(
        codes,
        vec![(999, vec![topic_denied]), (1, vec![0])],
        "999 refused + 1 answered = the 1000 served"
    );
    assert!(
        g.has_more_data,
        "the unknown topic's partitions were left out"
    );
    let ResponseBody::GetReplicaLogInfo(g) =
        call(alice, log_info(fjord_protocol::Uuid::from_u128(77)), 0)
            .await
            .unwrap()
    else {
        panic!()
    };
    assert_eq!(
        g.topic_partition_log_info_list[0].partition_log_info[0].error_code,
        ErrorCode::UnknownTopicId.code()
    );
}

/// On the controller listener at `controller_addr` (SASL too): nothing before
/// authentication; bob is refused, and an Envelope from him (no CLUSTER_ACTION) is refused
/// whole, whatever principal it claims to carry.
async fn the_controller_listener_judges_the_original_principal(controller_addr: &str) {
    let cluster_denied = ErrorCode::ClusterAuthorizationFailed.code();
    // On the controller listener (SASL too): nothing before authentication; bob is
    // refused, and an Envelope from him (no CLUSTER_ACTION) is refused whole, whatever
    // principal it claims to carry.
    let anonymous = connect(controller_addr, &ClientSecurity::plaintext())
        .await
        .unwrap();
    assert!(call(&anonymous, unregister(), 0).await.is_err());
    let controller = connect(controller_addr, &sasl("PLAIN", "bob", "bob-secret"))
        .await
        .unwrap();
    let ResponseBody::UnregisterController(u) = call(&controller, unregister(), 0).await.unwrap()
    else {
        panic!()
    };
    assert_eq!(u.error_code, cluster_denied);
    let caller = fjord_net::principal::Caller {
        peer: "127.0.0.1:1".parse().unwrap(),
        principal: std::sync::Arc::new(fjord_net::principal::Principal::user("admin")),
        listener: "CLIENT".into(),
        connection: 0,
        protocol: fjord_net::security::SecurityProtocol::Plaintext,
        software: None,
    };
    let header = fjord_protocol::generated::request_header::RequestHeader {
        request_api_key: fjord_protocol::ApiKey::UnregisterController.key(),
        request_api_version: 0,
        correlation_id: 1,
        client_id: Some("forger".into()),
        ..Default::default()
    };
    let forged = fjord_net::envelope::wrap(&header, &unregister(), &caller).unwrap();
    let ResponseBody::Envelope(e) = call(&controller, forged, 0).await.unwrap() else {
        panic!()
    };
    assert_eq!(e.error_code, cluster_denied);
}

/// librdkafka as bob (no WRITE on `orders`) gets TOPIC_AUTHORIZATION_FAILED from `addr`.
fn librdkafka_without_write_is_refused(rt: &tokio::runtime::Runtime, addr: &str) {
    use rdkafka::producer::{FutureProducer, FutureRecord};
    let producer: FutureProducer = rdkafka::config::ClientConfig::new()
        .set("bootstrap.servers", addr)
        .set("security.protocol", "SASL_PLAINTEXT")
        .set("sasl.mechanism", "PLAIN")
        .set("sasl.username", "bob")
        .set("sasl.password", "bob-secret")
        .set("message.timeout.ms", "10000")
        .create()
        .unwrap();
    let e = rt
        .block_on(
            producer.send(
                FutureRecord::to("orders")
                    .key("k")
                    .payload("v")
                    .partition(0),
                TIMEOUT,
            ),
        )
        .map_err(|(e, _)| e)
        .unwrap_err();
    assert!(
        e.to_string().contains("Authorization") || e.to_string().contains("authoriz"),
        "{e}"
    );
}

/// ElectLeaders DESIGNATED (docs/EXTENSIONS.md).
fn designated() -> RequestBody {
    RequestBody::ElectLeaders(el::ElectLeadersRequest {
        election_type: 2,
        topic_partitions: Some(vec![el::TopicPartitions {
            topic: "orders".into(),
            partitions: vec![0],
            designated_leaders: Some(vec![1]),
            ..Default::default()
        }]),
        timeout_ms: 10_000,
        ..Default::default()
    })
}

/// ElectLeaders DESIGNATED needs CLUSTER_ACTION, GetReplicaLogInfo CLUSTER_ACTION or
/// DESCRIBE on the topic, both refused to alice; returns the ids of `orders` and `hidden`.
async fn the_mission_rpcs_need_their_rights(
    admin: &Client,
    alice: &Client,
) -> (fjord_protocol::Uuid, fjord_protocol::Uuid) {
    let cluster_denied = ErrorCode::ClusterAuthorizationFailed.code();
    let topic_denied = ErrorCode::TopicAuthorizationFailed.code();
    // ElectLeaders DESIGNATED needs CLUSTER_ACTION (docs/EXTENSIONS.md), forwarded in an
    // Envelope and judged as alice's on the controller.
    let orders_id = {
        let ResponseBody::Metadata(m) = call(admin, metadata(Some(&["orders"])), 12).await.unwrap()
        else {
            panic!()
        };
        m.topics[0].topic_id
    };
    let ResponseBody::ElectLeaders(e) = call(alice, designated(), 3).await.unwrap() else {
        panic!()
    };
    assert_eq!(e.error_code, cluster_denied);
    // GetReplicaLogInfo: CLUSTER_ACTION or DESCRIBE on the topic ("hidden" has neither).
    let hidden_id = {
        let ResponseBody::Metadata(m) = call(admin, metadata(Some(&["hidden"])), 12).await.unwrap()
        else {
            panic!()
        };
        m.topics[0].topic_id
    };
    let ResponseBody::GetReplicaLogInfo(g) = call(alice, log_info(hidden_id), 0).await.unwrap()
    else {
        panic!()
    };
    assert_eq!(
        g.topic_partition_log_info_list[0].partition_log_info[0].error_code,
        topic_denied
    );
    let ResponseBody::GetReplicaLogInfo(g) = call(alice, log_info(orders_id), 0).await.unwrap()
    else {
        panic!()
    };
    assert_eq!(
        g.topic_partition_log_info_list[0].partition_log_info[0].error_code, 0,
        "DESCRIBE via WRITE"
    );
    (orders_id, hidden_id)
}
