package dev.fjord.compat;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.ExecutionException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.acl.AccessControlEntry;
import org.apache.kafka.common.acl.AclBinding;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.acl.AclPermissionType;
import org.apache.kafka.common.errors.TopicAuthorizationException;
import org.apache.kafka.common.resource.PatternType;
import org.apache.kafka.common.resource.ResourcePattern;
import org.apache.kafka.common.resource.ResourceType;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * GSSAPI with the Java client's Kerberos login (Krb5LoginModule with a keytab) against a real
 * MIT KDC (Debian's krb5-kdc, started on loopback by tests/kerberos/kdc.sh with keytabs it
 * makes): the node's listener accepts with the key of kafka/localhost, its nodes sign in to
 * each other with it, and ACLs apply to the principal sasl.kerberos.principal.to.local.rules
 * maps (Carol@FJORD.TEST speaks as carol). Runs against Kafka 4.4 with the same settings
 * (-Dcompat.target=kafka).
 */
class KerberosTest {
    private static final String REALM = "FJORD.TEST";
    private static final String MODULE = "com.sun.security.auth.module.Krb5LoginModule";
    private static Path kdc;

    @BeforeAll
    static void startKdc() throws Exception {
        Path tests = Path.of(FjordCluster.kafkaScript()).normalize().getParent().getParent();
        kdc = Files.createTempDirectory("fjord-kdc-");
        String conf = FjordCluster.run(tests.resolve("kerberos/kdc.sh").toString(), "start", kdc.toString(), REALM,
                "kafka/localhost@" + REALM, "admin@" + REALM, "alice@" + REALM, "Carol@" + REALM).trim();
        // The Java client's Kerberos, fjord's GSSAPI library and Kafka's nodes read this file.
        System.setProperty("java.security.krb5.conf", conf);
    }

    @AfterAll
    static void stopKdc() throws Exception {
        Path tests = Path.of(FjordCluster.kafkaScript()).normalize().getParent().getParent();
        FjordCluster.run(tests.resolve("kerberos/kdc.sh").toString(), "stop", kdc.toString());
    }

    /** A client's settings: the Kerberos login of user with its keytab. */
    private static Properties login(String user) {
        Properties p = new Properties();
        p.put("security.protocol", "SASL_PLAINTEXT");
        p.put("sasl.mechanism", "GSSAPI");
        p.put("sasl.kerberos.service.name", "kafka");
        p.put("sasl.jaas.config", MODULE + " required useKeyTab=true storeKey=true keyTab=\""
                + kdc.resolve(user + ".keytab") + "\" principal=\"" + user + "@" + REALM + "\";");
        return p;
    }

    /** The broker settings: GSSAPI with kafka/localhost's key, the rules, the authorizer. */
    private static String brokerSettings() {
        return String.join("\n",
                "listener.security.protocol.map=PLAINTEXT:SASL_PLAINTEXT,CONTROLLER:PLAINTEXT",
                "sasl.enabled.mechanisms=GSSAPI",
                "sasl.mechanism.inter.broker.protocol=GSSAPI",
                "sasl.kerberos.service.name=kafka",
                "sasl.kerberos.principal.to.local.rules=RULE:[1:$1@$0](.*@FJORD\\.TEST)s/@.*///L,DEFAULT",
                "listener.name.plaintext.gssapi.sasl.jaas.config=" + MODULE + " required useKeyTab=true storeKey=true keyTab=\""
                        + kdc.resolve("kafka-localhost.keytab") + "\" principal=\"kafka/localhost@" + REALM + "\";",
                "authorizer.class.name=org.apache.kafka.metadata.authorizer.StandardAuthorizer",
                // The broker registers over the plaintext controller listener, as ANONYMOUS.
                "super.users=User:kafka;User:admin;User:ANONYMOUS");
    }

    private static KafkaProducer<String, String> producer(FjordCluster c, String user) {
        Properties p = login(user);
        p.put("bootstrap.servers", c.bootstrap());
        p.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName());
        p.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName());
        p.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, "20000");
        return new KafkaProducer<>(p);
    }

    private static AclBinding allow(String topic, String user) {
        return new AclBinding(new ResourcePattern(ResourceType.TOPIC, topic, PatternType.LITERAL),
                new AccessControlEntry("User:" + user, "*", AclOperation.ALL, AclPermissionType.ALLOW));
    }

    @Test
    void theJavaClientSignsInAsItsMappedPrincipal() throws Exception {
        try (FjordCluster c = FjordCluster.start(1, brokerSettings(), login("admin"))) {
            c.createTopic("kerberized", 1, 1);
            c.createTopic("carols", 1, 1);
            try (Admin admin = c.admin()) {
                admin.createAcls(List.of(allow("kerberized", "alice"), allow("carols", "carol"))).all().get();
            }
            try (KafkaProducer<String, String> alice = producer(c, "alice")) {
                alice.send(new ProducerRecord<>("kerberized", 0, "k", "signed-in")).get();
            }
            Properties alice = login("alice");
            alice.put("bootstrap.servers", c.bootstrap());
            assertEquals("signed-in", FjordCluster.firstValue(alice, "kerberized"));
            // Carol@FJORD.TEST speaks as carol: her topic takes her records, alice's does not.
            try (KafkaProducer<String, String> carol = producer(c, "Carol")) {
                carol.send(new ProducerRecord<>("carols", 0, "k", "carol's")).get();
                ExecutionException refused = assertThrows(ExecutionException.class,
                        () -> carol.send(new ProducerRecord<>("kerberized", 0, "k", "not hers")).get());
                assertInstanceOf(TopicAuthorizationException.class, refused.getCause());
            }
            // A keytab whose key the KDC has replaced signs no one in.
            Path tests = Path.of(FjordCluster.kafkaScript()).normalize().getParent().getParent();
            FjordCluster.run(tests.resolve("kerberos/kdc.sh").toString(), "rekey", kdc.toString(), "Carol@" + REALM);
            assertThrows(KafkaException.class, () -> producer(c, "Carol").close());
        }
    }
}
