package dev.fjord.compat;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Base64;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.CreateDelegationTokenOptions;
import org.apache.kafka.clients.admin.ExpireDelegationTokenOptions;
import org.apache.kafka.clients.admin.RenewDelegationTokenOptions;
import org.apache.kafka.clients.admin.ScramCredentialInfo;
import org.apache.kafka.clients.admin.ScramMechanism;
import org.apache.kafka.clients.admin.UserScramCredentialUpsertion;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.errors.DelegationTokenOwnerMismatchException;
import org.apache.kafka.common.errors.SaslAuthenticationException;
import org.apache.kafka.common.errors.UnsupportedByAuthenticationException;
import org.apache.kafka.common.security.auth.KafkaPrincipal;
import org.apache.kafka.common.security.token.delegation.DelegationToken;
import org.apache.kafka.common.security.token.delegation.TokenInformation;
import org.apache.kafka.common.serialization.StringSerializer;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Delegation tokens (KIP-48) through the Java client, on one node whose client listener is
 * SASL_PLAINTEXT with PLAIN and SCRAM-SHA-256 and which has delegation.token.secret.key; run
 * against fjord and, with -Dcompat.target=kafka, against Kafka 4.4 alike: a SCRAM user creates
 * a token renewable by another user, a producer logs in with it, a token-authenticated client
 * may not create tokens, only the owner or a renewer renews, describe shows the token, and an
 * expired token no longer logs in.
 */
class DelegationTokenTest {
    private static final String PLAIN = "org.apache.kafka.common.security.plain.PlainLoginModule required "
            + "username=\"%s\" password=\"%s\";";
    private static final String SCRAM = "org.apache.kafka.common.security.scram.ScramLoginModule required "
            + "username=\"%s\" password=\"%s\"%s;";
    private static final long DAY_MS = 86_400_000L;
    private static FjordCluster cluster;

    static Properties security(String mechanism, String jaas) {
        Properties p = new Properties();
        p.put("security.protocol", "SASL_PLAINTEXT");
        p.put("sasl.mechanism", mechanism);
        p.put("sasl.jaas.config", jaas);
        return p;
    }

    static Properties plain(String user, String password) {
        return security("PLAIN", String.format(PLAIN, user, password));
    }

    static Properties scram(String user, String password, boolean token) {
        return security("SCRAM-SHA-256", String.format(SCRAM, user, password, token ? " tokenauth=\"true\"" : ""));
    }

    static Admin admin(Properties security) {
        Properties p = cluster.props();
        p.putAll(security);
        p.put("default.api.timeout.ms", 20_000);
        p.put("request.timeout.ms", 10_000);
        return Admin.create(p);
    }

    @BeforeAll
    static void start() throws Exception {
        String extra = String.join("\n",
                "listener.security.protocol.map=PLAINTEXT:SASL_PLAINTEXT,CONTROLLER:PLAINTEXT",
                "sasl.enabled.mechanisms=PLAIN,SCRAM-SHA-256",
                "sasl.mechanism.inter.broker.protocol=PLAIN",
                "listener.name.plaintext.plain.sasl.jaas.config=org.apache.kafka.common.security.plain.PlainLoginModule"
                        + " required username=\"admin\" password=\"admin-secret\" user_admin=\"admin-secret\""
                        + " user_bob=\"bob-secret\";",
                "listener.name.plaintext.scram-sha-256.sasl.jaas.config=org.apache.kafka.common.security.scram.ScramLoginModule required;",
                "delegation.token.secret.key=fjord-java-token-secret");
        cluster = FjordCluster.start(1, extra, plain("admin", "admin-secret"));
        try (Admin admin = cluster.admin()) {
            admin.alterUserScramCredentials(List.of(new UserScramCredentialUpsertion("alice",
                    new ScramCredentialInfo(ScramMechanism.SCRAM_SHA_256, 4096), "alice-secret")))
                    .all().get(30, TimeUnit.SECONDS);
        }
        cluster.createTopic("tokens", 1, 1);
    }

    @AfterAll
    static void stop() {
        if (cluster != null) {
            cluster.close();
        }
    }

    @Test
    void aTokenIsCreatedUsedRenewedAndExpired() throws Exception {
        KafkaPrincipal alice = new KafkaPrincipal("User", "alice");
        KafkaPrincipal bob = new KafkaPrincipal("User", "bob");
        DelegationToken token;
        // alice (SCRAM) gets a token that bob may renew. The user may only just exist: retry.
        DelegationToken[] made = new DelegationToken[1];
        FjordCluster.waitFor("alice to get a token", java.time.Duration.ofSeconds(30), () -> {
            try (Admin a = admin(scram("alice", "alice-secret", false))) {
                made[0] = a.createDelegationToken(new CreateDelegationTokenOptions().renewers(List.of(bob)))
                        .delegationToken().get(20, TimeUnit.SECONDS);
                return true;
            } catch (Exception e) {
                return false;
            }
        });
        token = made[0];
        TokenInformation info = token.tokenInfo();
        assertEquals(alice, info.owner());
        assertEquals(alice, info.tokenRequester());
        assertEquals(List.of(bob), List.copyOf(info.renewers()));
        assertEquals(DAY_MS, info.expiryTimestamp() - info.issueTimestamp());
        assertEquals(7 * DAY_MS, info.maxTimestamp() - info.issueTimestamp());
        String password = Base64.getEncoder().encodeToString(token.hmac());
        Properties withToken = scram(info.tokenId(), password, true);

        // The token logs in once the broker has the metadata that holds it (on Kafka too).
        FjordCluster.waitFor("the token to log in", java.time.Duration.ofSeconds(30), () -> {
            try (Admin a = admin(withToken)) {
                a.describeCluster().clusterId().get(10, TimeUnit.SECONDS);
                return true;
            } catch (Exception e) {
                return false;
            }
        });
        // A producer logs in with the token.
        Properties pp = cluster.props();
        pp.putAll(withToken);
        pp.put("key.serializer", StringSerializer.class.getName());
        pp.put("value.serializer", StringSerializer.class.getName());
        pp.put("max.block.ms", 20_000);
        try (KafkaProducer<String, String> p = new KafkaProducer<>(pp)) {
            p.send(new ProducerRecord<>("tokens", "k", "v")).get(20, TimeUnit.SECONDS);
        }
        // A client logged in with a token may not ask for one.
        try (Admin a = admin(withToken)) {
            ExecutionException e = assertThrows(ExecutionException.class,
                    () -> a.createDelegationToken().delegationToken().get(20, TimeUnit.SECONDS));
            assertInstanceOf(UnsupportedByAuthenticationException.class, e.getCause());
        }
        // bob renews; admin, neither owner nor renewer, may not.
        try (Admin a = admin(plain("bob", "bob-secret"))) {
            long before = System.currentTimeMillis();
            long expiry = a.renewDelegationToken(token.hmac(), new RenewDelegationTokenOptions().renewTimePeriodMs(60_000))
                    .expiryTimestamp().get(20, TimeUnit.SECONDS);
            assertTrue(expiry >= before + 60_000 && expiry <= System.currentTimeMillis() + 60_000, "renewed for a minute");
        }
        try (Admin a = cluster.admin()) {
            ExecutionException e = assertThrows(ExecutionException.class,
                    () -> a.renewDelegationToken(token.hmac()).expiryTimestamp().get(20, TimeUnit.SECONDS));
            assertInstanceOf(DelegationTokenOwnerMismatchException.class, e.getCause());
        }
        // alice sees it, with its HMAC.
        try (Admin a = admin(scram("alice", "alice-secret", false))) {
            List<DelegationToken> tokens = a.describeDelegationToken().delegationTokens().get(20, TimeUnit.SECONDS);
            assertEquals(1, tokens.size());
            assertEquals(info.tokenId(), tokens.get(0).tokenInfo().tokenId());
            assertEquals(Base64.getEncoder().encodeToString(token.hmac()),
                    Base64.getEncoder().encodeToString(tokens.get(0).hmac()));
            // Expired at once: it no longer logs in, and describe no longer shows it.
            a.expireDelegationToken(token.hmac(), new ExpireDelegationTokenOptions().expiryTimePeriodMs(-1))
                    .expiryTimestamp().get(20, TimeUnit.SECONDS);
            FjordCluster.waitFor("the token to be gone", java.time.Duration.ofSeconds(30), () -> {
                try {
                    return a.describeDelegationToken().delegationTokens().get(20, TimeUnit.SECONDS).isEmpty();
                } catch (Exception e) {
                    return false;
                }
            });
        }
        try (Admin a = admin(withToken)) {
            ExecutionException e = assertThrows(ExecutionException.class,
                    () -> a.describeCluster().clusterId().get(20, TimeUnit.SECONDS));
            assertInstanceOf(SaslAuthenticationException.class, e.getCause());
        }
    }

    /**
     * Kafka 4.4's kafka-delegation-tokens beside fjord's, with the same flags and a
     * --command-config: create, describe by owner (the same table), describe with no owner
     * (Kafka's tool then asks for none), renew and expire of an unknown HMAC (the same
     * failure), expire.
     */
    @Test
    void kafkasToolAndFjordsAgree() throws Exception {
        Assumptions.assumeFalse(FjordCluster.targetIsKafka(), "compares Kafka's tool with fjord's on fjord");
        Path config = Files.createTempFile("token-admin", ".properties");
        Files.writeString(config, String.join("\n",
                "security.protocol=SASL_PLAINTEXT",
                "sasl.mechanism=PLAIN",
                "sasl.jaas.config=" + String.format(PLAIN, "bob", "bob-secret"), ""));
        String cls = "org.apache.kafka.tools.DelegationTokenCommand";
        String tool = "kafka-delegation-tokens";
        List<String> base = List.of("--bootstrap-server", cluster.bootstrap().split(",")[0],
                "--command-config", config.toString());
        java.util.function.Function<List<String>, List<String>> with = extra -> {
            List<String> all = new java.util.ArrayList<>(base);
            all.addAll(extra);
            return all;
        };
        ToolsTest.Run made = ToolsTest.fjordTool(tool, with.apply(List.of("--create", "--max-life-time-period", "-1",
                "--renewer-principal", "User:admin")), null);
        assertEquals(0, made.exit(), made.out());
        assertTrue(made.out().contains("Created delegation token with tokenId : "), made.out());
        String hmac = made.out().lines().filter(l -> l.contains("User:bob")).findFirst().orElseThrow().split(" ")[1];
        for (List<String> args : List.of(
                List.of("--describe", "--owner-principal", "User:bob"),
                List.of("--describe"),
                List.of("--renew", "--hmac", "AAAA", "--renew-time-period", "1000"),
                List.of("--expire", "--hmac", "AAAA", "--expiry-time-period", "1000"),
                List.of("--describe", "--create"))) {
            ToolsTest.Run k = ToolsTest.kafkaTool(cls, with.apply(args), null);
            ToolsTest.Run f = ToolsTest.fjordTool(tool, with.apply(args), null);
            assertEquals(k.exit(), f.exit(), args + ": exit codes\nkafka:\n" + k.out() + "\nfjord:\n" + f.out());
            List<String> kOut = ToolsTest.normalise(k.out(), null, null);
            List<String> fOut = ToolsTest.normalise(f.out(), null, null);
            if (k.exit() == 0) {
                assertEquals(String.join("\n", kOut), String.join("\n", fOut), args + ": output");
            } else {
                // Every line Kafka's prints but its usage table, fjord's prints too.
                List<String> missing = kOut.stream().filter(l -> !l.startsWith(" ") && !l.startsWith("--") && !l.startsWith("<id>")
                        && !l.startsWith("Option") && !l.startsWith("------") && !fOut.contains(l)).toList();
                assertEquals(List.of(), missing, args + ": output\nkafka:\n" + k.out() + "\nfjord:\n" + f.out());
            }
        }
        ToolsTest.Run expired = ToolsTest.fjordTool(tool, with.apply(List.of("--expire", "--hmac", hmac,
                "--expiry-time-period", "-1")), null);
        assertEquals(0, expired.exit(), expired.out());
        assertTrue(expired.out().contains("Completed expire operation. New expiry date : "), expired.out());
    }
}
