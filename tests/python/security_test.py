"""Real Python clients from PyPI over fjord's security protocols, against a real node:
kafka-python (Python's ssl module, its own SASL) and confluent-kafka (librdkafka with
OpenSSL). One node with a listener per protocol: SSL with client certificates required
(the principal is the certificate's CN, through ssl.principal.mapping.rules),
SASL_PLAINTEXT (PLAIN, SCRAM-SHA-256, SCRAM-SHA-512) and SASL_SSL (SCRAM); ACLs on.

Run by .ci/run after `cargo test`:
    python3 tests/python/security_test.py target/debug/fjord
Certificates come from config/secured/make-certs.sh at test time. Prints a one-line total.
"""

import os
import subprocess
import sys
import tempfile

from admin_test import ck_round_trip, free_port, run_checks, start_node, wait_for
from confluent_kafka import KafkaException, Producer
from confluent_kafka.admin import (
    AclBinding,
    AclBindingFilter,
    AclOperation,
    AclPermissionType,
    AdminClient,
    NewTopic,
    ResourcePatternType,
    ResourceType,
    ScramCredentialInfo,
    ScramMechanism,
    UserScramCredentialUpsertion,
)
from kafka import KafkaConsumer, KafkaProducer, TopicPartition
from kafka.admin import KafkaAdminClient, NewTopic as PyNewTopic

HERE = os.path.dirname(os.path.abspath(__file__))
MAKE_CERTS = os.path.join(HERE, "..", "..", "config", "secured", "make-certs.sh")
PLAIN_JAAS = ('org.apache.kafka.common.security.plain.PlainLoginModule required '
              'username="admin" password="admin-secret" user_admin="admin-secret" user_dave="dave-secret";')


def main(binary):
    tmp = tempfile.mkdtemp(prefix="fjord-security-")
    certs = os.path.join(tmp, "certs")
    subprocess.check_call([MAKE_CERTS, certs, "node", "alice", "bob"], stdout=subprocess.DEVNULL)
    ca = os.path.join(certs, "ca.pem")
    ssl_port, sasl_port, sasl_ssl_port = free_port(), free_port(), free_port()
    extra = (
        f"ssl.keystore.location={certs}/node.pem\nssl.truststore.location={ca}\n"
        "listener.name.ssl.ssl.client.auth=required\n"
        "ssl.principal.mapping.rules=RULE:^CN=([a-z]+),O=fjord$/$1/,DEFAULT\n"
        "listener.name.sasl_plaintext.sasl.enabled.mechanisms=PLAIN,SCRAM-SHA-256,SCRAM-SHA-512\n"
        f"listener.name.sasl_plaintext.plain.sasl.jaas.config={PLAIN_JAAS}\n"
        "listener.name.sasl_ssl.sasl.enabled.mechanisms=SCRAM-SHA-256,SCRAM-SHA-512\n"
        "authorizer.class.name=org.apache.kafka.metadata.authorizer.StandardAuthorizer\n"
        "super.users=User:admin;User:ANONYMOUS\n"
        "offsets.topic.replication.factor=1\noffsets.topic.num.partitions=3\n"
        "group.initial.rebalance.delay.ms=0\n"
    )
    listeners = (f",SSL://127.0.0.1:{ssl_port},SASL_PLAINTEXT://127.0.0.1:{sasl_port}"
                 f",SASL_SSL://127.0.0.1:{sasl_ssl_port}")
    node, _, _ = start_node(binary, "fjord-security-", extra, listeners,
                            ["--add-scram", "SCRAM-SHA-512=[name=admin,password=admin-secret]"], tmp)
    ssl_bs, sasl_bs, sasl_ssl_bs = (f"127.0.0.1:{p}" for p in (ssl_port, sasl_port, sasl_ssl_port))

    def ck_ssl(name):
        return {"bootstrap.servers": ssl_bs, "security.protocol": "SSL", "ssl.ca.location": ca,
                "ssl.certificate.location": f"{certs}/{name}.pem", "ssl.key.location": f"{certs}/{name}.pem"}

    def ck_sasl(mechanism, user, password, tls):
        c = {"bootstrap.servers": sasl_ssl_bs if tls else sasl_bs,
             "security.protocol": "SASL_SSL" if tls else "SASL_PLAINTEXT",
             "sasl.mechanism": mechanism, "sasl.username": user, "sasl.password": password}
        if tls:
            c["ssl.ca.location"] = ca
        return c

    def kp_ssl(name):
        return dict(bootstrap_servers=ssl_bs, security_protocol="SSL", ssl_cafile=ca,
                    ssl_certfile=f"{certs}/{name}.pem", ssl_keyfile=f"{certs}/{name}.pem")

    def kp_sasl(mechanism, user, password, tls):
        c = dict(bootstrap_servers=sasl_ssl_bs if tls else sasl_bs,
                 security_protocol="SASL_SSL" if tls else "SASL_PLAINTEXT",
                 sasl_mechanism=mechanism, sasl_plain_username=user, sasl_plain_password=password)
        if tls:
            c["ssl_cafile"] = ca
        return c

    def kp_round_trip(config, topic, value):
        p = KafkaProducer(acks="all", **config)
        p.send(topic, value.encode(), partition=0).get(timeout=20)
        p.close()
        c = KafkaConsumer(auto_offset_reset="earliest", consumer_timeout_ms=5000, **config)
        c.assign([TopicPartition(topic, 0)])
        got = [m.value.decode() for m in c]
        c.close()
        assert value in got, got

    admin = wait_for("the SASL_PLAINTEXT admin client",
                     lambda: AdminClient(ck_sasl("PLAIN", "admin", "admin-secret", False)), timeout=60)

    def admin_over_sasl_plain_creates_topics_acls_and_scram_users():
        for f in admin.create_topics([NewTopic("secure", 1, 1)]).values():
            f.result(timeout=20)
        bindings = [AclBinding(ResourceType.TOPIC, "secure", ResourcePatternType.LITERAL, "User:alice", "*",
                               op, AclPermissionType.ALLOW) for op in (AclOperation.WRITE, AclOperation.READ)]
        bindings.append(AclBinding(ResourceType.GROUP, "*", ResourcePatternType.LITERAL, "User:alice", "*",
                                   AclOperation.READ, AclPermissionType.ALLOW))
        for f in admin.create_acls(bindings).values():
            f.result(timeout=20)
        alices = AclBindingFilter(ResourceType.ANY, None, ResourcePatternType.ANY, "User:alice", None,
                                  AclOperation.ANY, AclPermissionType.ANY)
        wait_for("alice's 3 ACLs", lambda: len(admin.describe_acls(alices).result(timeout=20)) == 3)
        for mechanism in (ScramMechanism.SCRAM_SHA_256, ScramMechanism.SCRAM_SHA_512):
            up = UserScramCredentialUpsertion("carol", ScramCredentialInfo(mechanism, 4096), b"carol-secret")
            for f in admin.alter_user_scram_credentials([up]).values():
                f.result(timeout=20)
        # The controller answers once the credential is committed; this node's image applies it
        # a moment later (as on Kafka, whose brokers describe from their metadata cache too).
        both = sorted([ScramMechanism.SCRAM_SHA_256, ScramMechanism.SCRAM_SHA_512])

        def carols_mechanisms():
            described = admin.describe_user_scram_credentials(["carol"])["carol"].result(timeout=20)
            return sorted(i.mechanism for i in described.scram_credential_infos)
        wait_for(f"carol's credentials {both}", lambda: carols_mechanisms() == both)
        # alice and carol need no more: carol reads with ALLOW on every topic and group.
        carol = [AclBinding(t, "*", ResourcePatternType.LITERAL, "User:carol", "*", AclOperation.ALL,
                            AclPermissionType.ALLOW) for t in (ResourceType.TOPIC, ResourceType.GROUP)]
        for f in admin.create_acls(carol).values():
            f.result(timeout=20)
        carols = AclBindingFilter(ResourceType.ANY, None, ResourcePatternType.ANY, "User:carol", None,
                                  AclOperation.ANY, AclPermissionType.ANY)
        wait_for("carol's 2 ACLs", lambda: len(admin.describe_acls(carols).result(timeout=20)) == 2)

    def confluent_kafka_over_every_protocol():
        ck_round_trip(ck_ssl("alice"), "secure", "ck over mutual TLS", "ck-ssl")
        ck_round_trip(ck_sasl("PLAIN", "admin", "admin-secret", False), "secure", "ck over PLAIN", "ck-plain")
        for m in ("SCRAM-SHA-256", "SCRAM-SHA-512"):
            ck_round_trip(ck_sasl(m, "carol", "carol-secret", True), "secure", f"ck over SASL_SSL {m}", f"ck-{m}")

    def kafka_python_over_every_protocol():
        kp_round_trip(kp_ssl("alice"), "secure", "kp over mutual TLS")
        kp_round_trip(kp_sasl("PLAIN", "admin", "admin-secret", False), "secure", "kp over PLAIN")
        for m in ("SCRAM-SHA-256", "SCRAM-SHA-512"):
            kp_round_trip(kp_sasl(m, "carol", "carol-secret", True), "secure", f"kp over SASL_SSL {m}")
        a = KafkaAdminClient(**kp_sasl("SCRAM-SHA-512", "admin", "admin-secret", True))
        a.create_topics([PyNewTopic("kp-secure", 1, 1)])
        assert "kp-secure" in wait_for("the new topic", lambda: "kp-secure" in a.list_topics() and a.list_topics())
        a.close()

    def the_certificate_is_the_principal_and_bad_credentials_are_refused():
        # bob's certificate is trusted but bob has no ACLs: his writes are refused.
        p = Producer(dict(ck_ssl("bob"), **{"message.timeout.ms": 10000}))
        errors = []
        p.produce("secure", b"from bob", partition=0, on_delivery=lambda e, m: errors.append(e))
        p.flush(20)
        assert errors and errors[0] is not None and errors[0].code() == 29, errors  # TOPIC_AUTHORIZATION_FAILED
        # A wrong SCRAM password fails authentication.
        bad = AdminClient(dict(ck_sasl("SCRAM-SHA-512", "carol", "wrong", True), **{"socket.timeout.ms": 5000}))
        try:
            bad.list_topics(timeout=5)
            raise AssertionError("a wrong password was accepted")
        except KafkaException:
            pass

    try:
        return run_checks("python", [
            ("admin_over_sasl_plain_creates_topics_acls_and_scram_users",
             admin_over_sasl_plain_creates_topics_acls_and_scram_users),
            ("confluent_kafka_over_every_protocol", confluent_kafka_over_every_protocol),
            ("kafka_python_over_every_protocol", kafka_python_over_every_protocol),
            ("the_certificate_is_the_principal_and_bad_credentials_are_refused",
             the_certificate_is_the_principal_and_bad_credentials_are_refused),
        ])
    finally:
        node.kill()
        node.wait()


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
