package dev.fjord.compat;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.Config;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;

/**
 * Client telemetry (KIP-714) with the Java client: Kafka 4.4's kafka-client-metrics makes the
 * subscription, the producer learns its client instance id from the broker and pushes its
 * metrics, and the broker holds them: on fjord as series on GET /metrics labelled with that
 * instance id; on Kafka 4.4 (-Dcompat.target=kafka) in the file tests/kafka/telemetry's
 * receiver writes.
 */
class TelemetryTest {

    @Test
    void theJavaProducerPushesUnderASubscriptionKafkasToolMade() throws Exception {
        Path received = Files.createTempFile("telemetry-", ".txt");
        String extra = "";
        if (FjordCluster.targetIsKafka()) {
            FjordCluster.run(FjordCluster.kafkaScript(), "telemetry");
            extra = "metric.reporters=dev.fjord.telemetry.Receiver\nfjord.telemetry.out=" + received;
        }
        try (FjordCluster c = FjordCluster.start(1, extra); Admin admin = c.admin()) {
            ToolsTest.Run alter = ToolsTest.kafkaTool("org.apache.kafka.tools.ClientMetricsCommand",
                    List.of("--bootstrap-server", c.bootstrap(), "--alter", "--name", "java-producers",
                            "--metrics", "org.apache.kafka.producer.", "--interval", "500",
                            "--match", "client_id=telemetry-.*"), null);
            assertEquals(0, alter.exit(), alter.out());
            // The broker the producer asks holds the subscription before the producer starts.
            ConfigResource sub = new ConfigResource(ConfigResource.Type.CLIENT_METRICS, "java-producers");
            FjordCluster.waitFor("the subscription on the broker", Duration.ofSeconds(30), () -> {
                try {
                    Config config = admin.describeConfigs(List.of(sub)).all().get().get(sub);
                    return "500".equals(config.get("interval.ms").value());
                } catch (Exception e) {
                    return false;
                }
            });
            Properties p = c.props();
            p.put(ProducerConfig.CLIENT_ID_CONFIG, "telemetry-java");
            p.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName());
            p.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName());
            try (KafkaProducer<String, String> producer = new KafkaProducer<>(p)) {
                producer.send(new ProducerRecord<>("telemetry", "k", "v")).get();
                Uuid id = producer.clientInstanceId(Duration.ofSeconds(30));
                assertNotNull(id);
                FjordCluster.waitFor("the producer's pushed metrics on the broker", Duration.ofSeconds(60),
                        () -> holds(c, received, id));
            }
        } finally {
            Files.deleteIfExists(received);
        }
    }

    /** Whether the broker holds producer metrics pushed by instance id. */
    private static boolean holds(FjordCluster c, Path received, Uuid id) {
        try {
            if (c.isKafka()) {
                return Files.readString(received).lines()
                        .anyMatch(l -> l.startsWith(id + " org.apache.kafka.producer."));
            }
            String text = HttpClient.newHttpClient().send(
                    HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + c.node(1).metricsPort + "/metrics")).build(),
                    HttpResponse.BodyHandlers.ofString()).body();
            return text.lines().anyMatch(l -> l.startsWith("kafka_client_producer_")
                    && l.contains("client_instance_id=\"" + id + "\"")
                    && l.contains("client_id=\"telemetry-java\"")
                    && l.contains("client_software_name=\"apache-kafka-java\""));
        } catch (IOException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }
}
