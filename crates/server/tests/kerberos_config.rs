//! A GSSAPI listener's settings that cannot work stop the node at start, each with a message
//! naming the key to fix: no JAAS entry, a ticket cache where a keytab is needed, a keytab
//! that does not hold the service key, no service name, a rule that does not parse. None of
//! these needs a KDC.

mod common;

use common::{fjord, free_port, random_uuid, show};

const JAAS: &str = "listener.name.plaintext.gssapi.sasl.jaas.config";
const MODULE: &str = "com.sun.security.auth.module.Krb5LoginModule";

#[test]
fn unusable_kerberos_settings_stop_the_node_at_start() {
    let root = tempfile::tempdir().unwrap();
    let (broker, controller) = (free_port(), free_port());
    let props = root.path().join("server.properties");
    std::fs::write(
        &props,
        format!(
            "node.id=1\nprocess.roles=broker,controller\n\
             listeners=PLAINTEXT://127.0.0.1:{broker},CONTROLLER://127.0.0.1:{controller}\n\
             controller.listener.names=CONTROLLER\ncontroller.quorum.voters=1@127.0.0.1:{controller}\n\
             listener.security.protocol.map=PLAINTEXT:SASL_PLAINTEXT,CONTROLLER:PLAINTEXT\n\
             sasl.enabled.mechanisms=GSSAPI\nmetrics.listener=\nlog.dirs={}\n",
            root.path().join("data").display()
        ),
    )
    .unwrap();
    let config = props.to_str().unwrap();
    let formatted = fjord(&["format", "--config", config, "--cluster-id", &random_uuid()]);
    assert!(formatted.status.success(), "{}", show(&formatted));
    let missing = root.path().join("missing.keytab");
    let keytab = format!(
        "{JAAS}={MODULE} required useKeyTab=true storeKey=true keyTab=\"{}\" principal=\"kafka/localhost@FJORD.TEST\";",
        missing.display()
    );
    let cases: [(&[&str], &str); 5] = [
        (
            &[],
            "missing listener.name.plaintext.gssapi.sasl.jaas.config",
        ),
        (
            &[
                &format!("{JAAS}={MODULE} required useTicketCache=true;"),
                "sasl.kerberos.service.name=kafka",
            ],
            "a listener accepts logins with its service key",
        ),
        (
            &[&keytab],
            "No serviceName defined in either JAAS or Kafka config",
        ),
        (
            &[&keytab, "sasl.kerberos.service.name=kafka"],
            "the keytab gives no credential for kafka/localhost@FJORD.TEST",
        ),
        (
            &[
                &keytab,
                "sasl.kerberos.service.name=kafka",
                "sasl.kerberos.principal.to.local.rules=RULE:[1:$1]/X",
            ],
            "invalid sasl.kerberos.principal.to.local.rules: Invalid rule: `RULE:[1:$1]/X`",
        ),
    ];
    for (overrides, expected) in cases {
        let mut args = vec!["server", "--config", config];
        for o in overrides {
            args.extend(["--override", o]);
        }
        let o = fjord(&args);
        assert!(!o.status.success(), "{overrides:?} started");
        let said = String::from_utf8_lossy(&o.stderr);
        assert!(said.contains(expected), "{overrides:?}: {said}");
    }
}
