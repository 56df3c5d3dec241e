package dev.fjord.compat;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * OAUTHBEARER with the Java client's client-credentials login (KIP-768,
 * OAuthBearerLoginCallbackHandler) against a real OpenID Connect provider, Ory Hydra (built by
 * tests/oauth/hydra.sh): the cluster's listener checks Hydra's signed tokens against its JWKS and
 * its nodes sign in to each other the same way. Runs against Kafka 4.4 with the same settings
 * (-Dcompat.target=kafka).
 */
class OAuthTest {
    private static final String VALIDATOR = "org.apache.kafka.common.security.oauthbearer.OAuthBearerValidatorCallbackHandler";
    private static final String LOGIN = "org.apache.kafka.common.security.oauthbearer.OAuthBearerLoginCallbackHandler";
    private static final String MODULE = "org.apache.kafka.common.security.oauthbearer.OAuthBearerLoginModule";
    private static Process hydra;
    private static String issuer;

    @BeforeAll
    static void startHydra() throws Exception {
        Path tests = Path.of(FjordCluster.kafkaScript()).normalize().getParent().getParent();
        String bin = FjordCluster.run(tests.resolve("oauth/hydra.sh").toString(), "fetch").trim();
        int pub = freePort();
        int admin = freePort();
        issuer = "http://127.0.0.1:" + pub;
        ProcessBuilder pb = new ProcessBuilder(bin, "serve", "all", "--dev", "--sqa-opt-out")
                .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD);
        Map<String, String> env = pb.environment();
        env.put("DSN", "memory");
        env.put("SECRETS_SYSTEM", "fjord-oauth-tests-system-secret");
        env.put("URLS_SELF_ISSUER", issuer);
        env.put("STRATEGIES_ACCESS_TOKEN", "jwt");
        env.put("SERVE_PUBLIC_HOST", "127.0.0.1");
        env.put("SERVE_PUBLIC_PORT", Integer.toString(pub));
        env.put("SERVE_ADMIN_HOST", "127.0.0.1");
        env.put("SERVE_ADMIN_PORT", Integer.toString(admin));
        hydra = pb.start();
        HttpClient http = HttpClient.newHttpClient();
        String adminUrl = "http://127.0.0.1:" + admin;
        FjordCluster.waitFor("hydra", Duration.ofSeconds(60), () -> {
            try {
                return http.send(HttpRequest.newBuilder(URI.create(adminUrl + "/health/ready")).build(),
                        HttpResponse.BodyHandlers.ofString()).statusCode() == 200;
            } catch (Exception e) {
                return false;
            }
        });
        for (String id : List.of("java-app", "fjord-node")) {
            String client = "{\"client_id\":\"" + id + "\",\"client_secret\":\"" + id + "-secret\","
                    + "\"grant_types\":[\"client_credentials\"],\"token_endpoint_auth_method\":\"client_secret_basic\"}";
            HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create(adminUrl + "/admin/clients"))
                    .header("Content-Type", "application/json")
                    .POST(HttpRequest.BodyPublishers.ofString(client)).build(), HttpResponse.BodyHandlers.ofString());
            assertEquals(201, r.statusCode(), r.body());
        }
        // The provider makes its signing key when it first signs: before a node reads its keys.
        String basic = Base64.getEncoder().encodeToString("java-app:java-app-secret".getBytes(StandardCharsets.UTF_8));
        http.send(HttpRequest.newBuilder(URI.create(issuer + "/oauth2/token"))
                .header("Authorization", "Basic " + basic)
                .header("Content-Type", "application/x-www-form-urlencoded")
                .POST(HttpRequest.BodyPublishers.ofString("grant_type=client_credentials")).build(),
                HttpResponse.BodyHandlers.ofString());
        // Kafka 4's clients and brokers read OAuth endpoints only when this names them.
        System.setProperty("org.apache.kafka.sasl.oauthbearer.allowed.urls",
                issuer + "/oauth2/token," + issuer + "/.well-known/jwks.json");
    }

    @AfterAll
    static void stopHydra() {
        if (hydra != null) {
            hydra.destroyForcibly();
        }
    }

    private static int freePort() throws Exception {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }

    /** A client's settings: the client-credentials login as the client id given. */
    private static Properties login(String id, String secret) {
        Properties p = new Properties();
        p.put("security.protocol", "SASL_PLAINTEXT");
        p.put("sasl.mechanism", "OAUTHBEARER");
        p.put("sasl.login.callback.handler.class", LOGIN);
        p.put("sasl.oauthbearer.token.endpoint.url", issuer + "/oauth2/token");
        p.put("sasl.jaas.config", MODULE + " required clientId=\"" + id + "\" clientSecret=\"" + secret + "\";");
        return p;
    }

    /** The broker settings: the client listener takes Hydra's tokens, the nodes log in with their own. */
    private static String brokerSettings() {
        return String.join("\n",
                "listener.security.protocol.map=PLAINTEXT:SASL_PLAINTEXT,CONTROLLER:PLAINTEXT",
                "sasl.enabled.mechanisms=OAUTHBEARER",
                "sasl.mechanism.inter.broker.protocol=OAUTHBEARER",
                "listener.name.plaintext.oauthbearer.sasl.server.callback.handler.class=" + VALIDATOR,
                "listener.name.plaintext.oauthbearer.sasl.jaas.config=" + MODULE
                        + " required clientId=\"fjord-node\" clientSecret=\"fjord-node-secret\";",
                "listener.name.plaintext.oauthbearer.sasl.login.callback.handler.class=" + LOGIN,
                "sasl.oauthbearer.token.endpoint.url=" + issuer + "/oauth2/token",
                "sasl.oauthbearer.jwks.endpoint.url=" + issuer + "/.well-known/jwks.json",
                "sasl.oauthbearer.expected.issuer=" + issuer,
                // The Java client cannot ask Hydra for an audience: its tokens name none.
                "sasl.oauthbearer.allow.unverified.audience=true");
    }

    @Test
    void theJavaClientSignsInWithClientCredentials() throws Exception {
        Properties security = login("java-app", "java-app-secret");
        try (FjordCluster c = FjordCluster.start(1, brokerSettings(), security)) {
            c.createTopic("oauth", 1, 1);
            Properties p = c.props();
            p.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName());
            p.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName());
            try (KafkaProducer<String, String> producer = new KafkaProducer<>(p)) {
                producer.send(new ProducerRecord<>("oauth", 0, "k", "signed-in")).get();
            }
            assertEquals("signed-in", FjordCluster.firstValue(c.props(), "oauth"));
            // A wrong secret gets no token: the client cannot be made.
            Properties wrong = login("java-app", "wrong");
            wrong.put("bootstrap.servers", c.bootstrap());
            wrong.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName());
            wrong.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName());
            assertThrows(KafkaException.class, () -> new KafkaProducer<String, String>(wrong).close());
        }
    }
}
