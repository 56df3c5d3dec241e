//! A secured cluster on real processes, as `config/secured` describes one: a controller and
//! three brokers; clients and replication on SASL_SSL (SCRAM-SHA-512, the admin's credential
//! from `format --add-scram`), the controller listener on mutual TLS, the authorizer on.
//! Replication and controller traffic work; a broker whose certificate another CA signed
//! cannot join; the operator tools run with `--command-config` carrying TLS and SASL settings:
//! kafka-topics, kafka-acls, kafka-configs (SCRAM users), kafka-unclean-recovery (an offline
//! partition brought back) and kafka-cluster unregister-controller.

mod common;

use common::certs::Ca;
use common::{
    fjord, free_port, partition_zero_with, random_uuid, show, text, wait_for, Node,
    FAST_REPLICATION,
};
use fjord_net::security::{ClientSecurity, SaslCredentials};
use fjord_net::tls::{Pem, TlsSettings};
use std::path::Path;
use std::time::Duration;

/// The properties every node shares.
fn node_config(keystore: &Path, truststore: &Path) -> String {
    format!(
        "{FAST_REPLICATION}\n\
         listener.security.protocol.map=PLAINTEXT:SASL_SSL,CONTROLLER:SSL\n\
         ssl.keystore.type=PEM\nssl.keystore.location={}\nssl.truststore.location={}\n\
         listener.name.controller.ssl.client.auth=required\n\
         ssl.principal.mapping.rules=RULE:^CN=([a-z0-9-]+),.*$/$1/,DEFAULT\n\
         sasl.enabled.mechanisms=SCRAM-SHA-512,PLAIN\n\
         sasl.mechanism.inter.broker.protocol=SCRAM-SHA-512\n\
         listener.name.plaintext.scram-sha-512.sasl.jaas.config=org.apache.kafka.common.security.scram.ScramLoginModule required username=\"admin\" password=\"admin-secret\";\n\
         listener.name.plaintext.plain.sasl.jaas.config=org.apache.kafka.common.security.plain.PlainLoginModule required user_alice=\"alice-secret\";\n\
         authorizer.class.name=org.apache.kafka.metadata.authorizer.StandardAuthorizer\n\
         super.users=User:fjord-node;User:admin\n\
         offsets.topic.replication.factor=1\noffsets.topic.num.partitions=3\n",
        keystore.display(),
        truststore.display()
    )
}

/// A client properties file (as `--command-config` takes) for `user` with `mechanism`.
fn client_properties(
    dir: &Path,
    name: &str,
    mechanism: &str,
    login: &str,
    truststore: &Path,
) -> String {
    let path = dir.join(name);
    std::fs::write(
        &path,
        format!(
            "security.protocol=SASL_SSL\nsasl.mechanism={mechanism}\nsasl.jaas.config={login}\n\
             ssl.truststore.location={}\n",
            truststore.display()
        ),
    )
    .unwrap();
    path.display().to_string()
}

fn admin_security(truststore: &Path) -> ClientSecurity {
    let tls = TlsSettings {
        truststore: Some(Pem::File(truststore.into())),
        check_hostname: true,
        ..Default::default()
    };
    ClientSecurity {
        tls: Some(tls.client_config().unwrap()),
        sasl: Some(SaslCredentials {
            mechanism: "SCRAM-SHA-512".into(),
            username: "admin".into(),
            password: "admin-secret".into(),
            token: false,
            bearer: None,
            gssapi: None,
        }),
    }
}

fn wait_partition(
    rt: &tokio::runtime::Runtime,
    addr: &str,
    security: &ClientSecurity,
    what: &str,
    f: impl Fn(i32, &[i32]) -> bool,
) {
    let seen = wait_for(Duration::from_secs(60), || {
        partition_zero_with(rt, addr, security, "orders").filter(|(_, l, isr)| f(*l, isr))
    });
    assert!(
        seen.is_some(),
        "orders: {what}; now {:?}",
        partition_zero_with(rt, addr, security, "orders")
    );
}

/// Produces `v{i}` for `values` with librdkafka over SASL_SSL as admin, acks=all.
fn produce(
    rt: &tokio::runtime::Runtime,
    bootstrap: &str,
    truststore: &str,
    values: std::ops::Range<usize>,
) {
    use rdkafka::producer::{FutureProducer, FutureRecord};
    let producer: FutureProducer = rdkafka::config::ClientConfig::new()
        .set("bootstrap.servers", bootstrap)
        .set("security.protocol", "SASL_SSL")
        .set("sasl.mechanism", "SCRAM-SHA-512")
        .set("sasl.username", "admin")
        .set("sasl.password", "admin-secret")
        .set("ssl.ca.location", truststore)
        .set("acks", "all")
        .set("message.timeout.ms", "60000")
        .create()
        .unwrap();
    rt.block_on(async {
        let mut pending = Vec::new();
        for i in values {
            let v = format!("v{i}");
            let r = FutureRecord::to("orders").key("k").payload(&v).partition(0);
            pending.push(producer.send_result(r).map_err(|(e, _)| e).unwrap());
        }
        for p in pending {
            p.await.unwrap().map_err(|(e, _)| e).expect("acknowledged");
        }
    });
}

/// Reads `orders`-0 from the start with librdkafka over SASL_SSL as alice (PLAIN), in group
/// `read-orders`.
fn consume(bootstrap: &str, truststore: &str, expected: usize) -> Vec<String> {
    common::consume_values_with(
        bootstrap,
        "orders",
        expected,
        &[
            ("security.protocol", "SASL_SSL"),
            ("sasl.mechanism", "PLAIN"),
            ("sasl.username", "alice"),
            ("sasl.password", "alice-secret"),
            ("ssl.ca.location", truststore),
        ],
    )
}

#[test]
fn a_secured_cluster_replicates_refuses_strangers_and_recovers_with_the_tools() {
    let root = tempfile::tempdir().unwrap();
    let dir = root.path();
    let ca = Ca::new(dir, "cluster");
    let node_pem = ca.keystore(dir, "node.pem", "fjord-node", false);
    let config = node_config(&node_pem, &ca.truststore);
    let cport = free_port();
    let voters = format!("controller.quorum.voters=10@127.0.0.1:{cport}");
    let cluster = random_uuid();
    let mut controller = Node::controller(dir, 10, cport, &voters, &config);
    controller.format(
        &cluster,
        &[
            "--add-scram",
            "SCRAM-SHA-512=[name=admin,password=admin-secret]",
        ],
    );
    controller.start();
    let mut brokers: Vec<Node> = (1..=3)
        .map(|id| Node::broker(dir, id, free_port(), &voters, &config))
        .collect();
    for b in &mut brokers {
        b.format(&cluster, &[]);
        b.start();
    }
    let addrs: Vec<String> = brokers.iter().map(Node::broker_addr).collect();
    let bootstrap = addrs.join(",");
    let trust = ca.truststore.display().to_string();
    let admin_props = client_properties(
        dir,
        "admin.properties",
        "SCRAM-SHA-512",
        r#"org.apache.kafka.common.security.scram.ScramLoginModule required username="admin" password="admin-secret";"#,
        &ca.truststore,
    );
    let alice_props = client_properties(
        dir,
        "alice.properties",
        "PLAIN",
        r#"org.apache.kafka.common.security.plain.PlainLoginModule required username="alice" password="alice-secret";"#,
        &ca.truststore,
    );
    let rt = tokio::runtime::Runtime::new().unwrap();
    let admin = admin_security(&ca.truststore);

    // kafka-topics over SASL_SSL; the brokers replicate over SASL_SSL (SCRAM) and register
    // over mutual TLS.
    let create = [
        "kafka-topics",
        "--bootstrap-server",
        &bootstrap,
        "--command-config",
        &admin_props,
        "--create",
        "--if-not-exists",
        "--topic",
        "orders",
        "--replica-assignment",
        "1:2:3",
        "--config",
        "min.insync.replicas=1",
        "--config",
        "unclean.leader.election.enable=false",
    ];
    let created = wait_for(Duration::from_secs(60), || {
        fjord(&create).status.success().then_some(())
    });
    assert!(
        created.is_some(),
        "{}\n{}",
        show(&fjord(&create)),
        brokers[0].log_tail()
    );
    // Any leader will do (a broker slow to heartbeat on a loaded machine may have lost it).
    wait_partition(&rt, &addrs[0], &admin, "three in sync", |l, isr| {
        l > 0 && isr == [1, 2, 3]
    });
    produce(&rt, &bootstrap, &trust, 0..100);

    // alice may not create topics; kafka-acls gives her READ on orders and her group.
    the_tools_grant_acls(&bootstrap, &admin_props, &alice_props);
    // kafka-configs: a SCRAM user added and described.
    the_tools_add_a_scram_user(&bootstrap, &admin_props);

    // A broker whose certificate another CA signed never joins.
    a_stranger_never_joins(dir, &ca, (&cluster, &voters), &rt, (&addrs[0], &admin));

    // The recovery: broker 3 falls behind, then 2; the last ISR member dies; 2 and 3 return.
    brokers[2].kill();
    wait_partition(&rt, &addrs[0], &admin, "ISR 1,2", |_, isr| isr == [1, 2]);
    produce(&rt, &addrs[..2].join(","), &trust, 100..150);
    brokers[1].kill();
    wait_partition(&rt, &addrs[0], &admin, "ISR 1", |_, isr| isr == [1]);
    brokers[0].kill();
    brokers[1].start();
    brokers[2].start();
    wait_partition(&rt, &addrs[1], &admin, "offline", |l, _| l == -1);
    let denied = fjord(&[
        "kafka-unclean-recovery",
        "--bootstrap-server",
        &addrs[1..].join(","),
        "--command-config",
        &alice_props,
        "--topic",
        "orders",
        "--automated-recovery",
        "--deadline-ms",
        "3000",
    ]);
    assert!(
        !denied.status.success(),
        "alice has no CLUSTER_ACTION: {}",
        show(&denied)
    );
    let recovered = fjord(&[
        "kafka-unclean-recovery",
        "--bootstrap-server",
        &addrs[1..].join(","),
        "--command-config",
        &admin_props,
        "--topic",
        "orders",
        "--automated-recovery",
        "--deadline-ms",
        "3000",
    ]);
    assert!(recovered.status.success(), "{}", show(&recovered));
    assert!(
        text(&recovered.stdout).contains("Recovered orders-0: leader is broker 2."),
        "{}",
        show(&recovered)
    );
    let expected: Vec<String> = (0..150).map(|i| format!("v{i}")).collect();
    assert_eq!(consume(&addrs[1..].join(","), &trust, 150), expected);

    // kafka-cluster unregister-controller with SASL credentials.
    unregister_is_judged_by_the_controller(&addrs[1], &admin_props, &alice_props);
    drop(controller);
}

/// A broker whose certificate another CA signed never joins: the controller's TLS refuses
/// it, and the cluster (`cluster` id, `voters`) still has brokers 1, 2 and 3, as broker
/// `addr` tells the admin.
fn a_stranger_never_joins(
    dir: &Path,
    ca: &Ca,
    (cluster, voters): (&str, &str),
    rt: &tokio::runtime::Runtime,
    (addr, admin): (&str, &ClientSecurity),
) {
    let other = Ca::new(dir, "elsewhere");
    let stranger_pem = other.keystore(dir, "stranger.pem", "fjord-node", false);
    let mut stranger = Node::broker(
        dir,
        4,
        free_port(),
        voters,
        &node_config(&stranger_pem, &ca.truststore),
    );
    stranger.format(cluster, &[]);
    stranger.start();
    let refused = wait_for(Duration::from_secs(60), || {
        stranger
            .log_tail()
            .contains("registration failing")
            .then_some(())
    });
    assert!(refused.is_some(), "{}", stranger.log_tail());
    let cluster_brokers = rt.block_on(async {
        use fjord_protocol::{RequestBody, ResponseBody};
        let body = RequestBody::DescribeCluster(Default::default());
        match common::call_with(addr, admin, body, 1).await {
            Some(ResponseBody::DescribeCluster(d)) => {
                d.brokers.iter().map(|b| b.broker_id).collect::<Vec<_>>()
            }
            other => panic!("{other:?}"),
        }
    });
    assert_eq!(cluster_brokers, vec![1, 2, 3]);
    stranger.kill();
}

/// kafka-cluster unregister-controller through broker `addr`: the controller judges the
/// admin allowed (the answer is about the id), alice not.
fn unregister_is_judged_by_the_controller(addr: &str, admin_props: &str, alice_props: &str) {
    let unregister = |props: &str| {
        fjord(&[
            "kafka-cluster",
            "unregister-controller",
            "--bootstrap-server",
            addr,
            "--command-config",
            props,
            "--controller-id",
            "77",
        ])
    };
    let as_admin = unregister(admin_props);
    assert!(
        show(&as_admin).contains("Controller ID 77 is not currently registered"),
        "{}",
        show(&as_admin)
    );
    let as_alice = unregister(alice_props);
    assert!(!as_alice.status.success());
    assert!(show(&as_alice).contains("uthoriz"), "{}", show(&as_alice));
}

/// kafka-topics refuses alice a topic; kafka-acls gives her READ on `orders` and her group
/// and lists them (through `bootstrap`, as the admin).
fn the_tools_grant_acls(bootstrap: &str, admin_props: &str, alice_props: &str) {
    let denied = fjord(&[
        "kafka-topics",
        "--bootstrap-server",
        bootstrap,
        "--command-config",
        alice_props,
        "--create",
        "--topic",
        "alices",
        "--partitions",
        "1",
        "--replication-factor",
        "1",
    ]);
    assert!(!denied.status.success(), "{}", show(&denied));
    assert!(show(&denied).contains("uthoriz"), "{}", show(&denied));
    for (flag, name) in [("--topic", "orders"), ("--group", "read-orders")] {
        let added = fjord(&[
            "kafka-acls",
            "--bootstrap-server",
            bootstrap,
            "--command-config",
            admin_props,
            "--add",
            "--allow-principal",
            "User:alice",
            "--operation",
            "Read",
            flag,
            name,
        ]);
        assert!(added.status.success(), "{}", show(&added));
        let out = text(&added.stdout);
        assert!(
            out.contains("(principal=User:alice, host=*, operation=READ, permissionType=ALLOW)"),
            "{out}"
        );
        assert!(
            out.contains("Current ACLs for resource `ResourcePattern(resourceType="),
            "{out}"
        );
    }
    let listed = fjord(&[
        "kafka-acls",
        "--bootstrap-server",
        bootstrap,
        "--command-config",
        admin_props,
        "--list",
        "--topic",
        "orders",
    ]);
    assert!(text(&listed.stdout).contains(
        "Current ACLs for resource `ResourcePattern(resourceType=TOPIC, name=orders, patternType=LITERAL)`:"
    ), "{}", show(&listed));
}

/// kafka-configs adds SCRAM user carol and describes her.
fn the_tools_add_a_scram_user(bootstrap: &str, admin_props: &str) {
    let scram = fjord(&[
        "kafka-configs",
        "--bootstrap-server",
        bootstrap,
        "--command-config",
        admin_props,
        "--alter",
        "--entity-type",
        "users",
        "--entity-name",
        "carol",
        "--add-config",
        "SCRAM-SHA-512=[iterations=8192,password=carol-secret]",
    ]);
    assert_eq!(
        text(&scram.stdout).trim(),
        "Completed updating config for user carol.",
        "{}",
        show(&scram)
    );
    let described = fjord(&[
        "kafka-configs",
        "--bootstrap-server",
        bootstrap,
        "--command-config",
        admin_props,
        "--describe",
        "--entity-type",
        "users",
        "--entity-name",
        "carol",
    ]);
    assert_eq!(
        text(&described.stdout).trim(),
        "SCRAM credential configs for user-principal 'carol' are SCRAM-SHA-512=iterations=8192",
        "{}",
        show(&described)
    );
}
