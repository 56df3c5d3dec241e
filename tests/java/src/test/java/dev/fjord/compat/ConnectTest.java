package dev.fjord.compat;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.Config;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.connect.cli.ConnectDistributed;
import org.apache.kafka.connect.runtime.Connect;
import org.junit.jupiter.api.Test;

/**
 * Kafka Connect 4.4 on fjord: a distributed worker with its three internal compacted topics
 * running a source connector of the suite's own ({@link CountingSource}: Maven Central serves
 * no 4.4 connector jars, and 4.3's do not run on 4.4's classes).
 */
class ConnectTest {

    @Test
    void distributedWorkerRunsAConnector() throws Exception {
        try (FjordCluster cluster = FjordCluster.start(3)) {
            int rest = FjordCluster.freePort();
            Map<String, String> worker = new HashMap<>();
            worker.put("bootstrap.servers", cluster.bootstrap());
            worker.put("group.id", "fjord-connect");
            worker.put("config.storage.topic", "connect-configs");
            worker.put("offset.storage.topic", "connect-offsets");
            worker.put("status.storage.topic", "connect-status");
            worker.put("config.storage.replication.factor", "3");
            worker.put("offset.storage.replication.factor", "3");
            worker.put("status.storage.replication.factor", "3");
            worker.put("key.converter", "org.apache.kafka.connect.storage.StringConverter");
            worker.put("value.converter", "org.apache.kafka.connect.storage.StringConverter");
            worker.put("listeners", "http://127.0.0.1:" + rest);
            worker.put("offset.flush.interval.ms", "500");
            Connect<?> connect = new ConnectDistributed().startConnect(worker);
            try {
                List<String> lines = new ArrayList<>();
                for (int i = 0; i < CountingSource.RECORDS; i++) {
                    lines.add("line " + i);
                }
                HttpClient http = HttpClient.newHttpClient();
                String body = "{\"connector.class\":\"" + CountingSource.class.getName() + "\","
                        + "\"tasks.max\":\"1\",\"topic\":\"connect-lines\"}";
                FjordCluster.waitFor("the connector created", Duration.ofSeconds(60), () -> {
                    try {
                        HttpResponse<String> r = http.send(HttpRequest.newBuilder(
                                URI.create("http://127.0.0.1:" + rest + "/connectors/counting-source/config"))
                                .header("Content-Type", "application/json")
                                .PUT(HttpRequest.BodyPublishers.ofString(body)).build(),
                                HttpResponse.BodyHandlers.ofString());
                        return r.statusCode() == 200 || r.statusCode() == 201;
                    } catch (Exception e) {
                        return false;
                    }
                });
                List<String> got = new ArrayList<>();
                try (KafkaConsumer<String, String> c = new KafkaConsumer<>(
                        ProducerTest.consumerProps(cluster, "connect-reader", "read_uncommitted"))) {
                    c.subscribe(List.of("connect-lines"));
                    FjordCluster.waitFor("the file's lines in the topic", Duration.ofSeconds(90), () -> {
                        c.poll(Duration.ofMillis(200)).forEach(r -> got.add(r.value()));
                        return got.size() >= lines.size();
                    });
                }
                assertEquals(lines, got);
                HttpResponse<String> status = http.send(HttpRequest.newBuilder(
                        URI.create("http://127.0.0.1:" + rest + "/connectors/counting-source/status")).build(),
                        HttpResponse.BodyHandlers.ofString());
                assertTrue(status.body().contains("\"state\":\"RUNNING\""), status.body());
            } finally {
                connect.stop();
                connect.awaitStop();
            }
            try (Admin admin = cluster.admin()) {
                for (String t : List.of("connect-configs", "connect-offsets", "connect-status")) {
                    ConfigResource r = new ConfigResource(ConfigResource.Type.TOPIC, t);
                    Config c = admin.describeConfigs(List.of(r)).all().get(30, TimeUnit.SECONDS).get(r);
                    assertEquals("compact", c.get("cleanup.policy").value(), t);
                }
            }
        }
    }
}
