package dev.fjord.compat;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;

/**
 * MirrorMaker 2 (connect-mirror 4.3.1, in a JVM of its own: Maven Central serves no 4.4.0)
 * replicating a topic and its consumer group's offsets from one fjord cluster to another.
 * The rule checked is MirrorMaker's own: a translated offset never points past the record the
 * source group had reached, so a consumer that moves to the target cluster skips nothing.
 */
class MirrorMakerTest {

    private static final int RECORDS = 1_000;
    private static final int COMMITTED = 600;

    /** The MirrorMaker 2 jars, fetched by Maven into target/mm2-4.3.1 on first use. */
    private static Path libs() throws Exception {
        Path root = Path.of(FjordCluster.kafkaScript()).normalize().getParent().getParent().getParent();
        Path libs = root.resolve("target/mm2-4.3.1/libs");
        if (!Files.exists(libs.resolve("connect-mirror-4.3.1.jar"))) {
            FjordCluster.run("mvn", "-q", "-B", "-f", root.resolve("tests/java/mm2/pom.xml").toString(),
                    "dependency:copy-dependencies", "-DoutputDirectory=" + libs, "-DincludeScope=runtime");
        }
        return libs;
    }

    @Test
    void topicAndGroupOffsetsAreMirroredWithoutSkipping() throws Exception {
        Path libs = libs();
        try (FjordCluster source = FjordCluster.start(1, "offsets.topic.replication.factor=1");
                FjordCluster target = FjordCluster.start(1, "offsets.topic.replication.factor=1")) {
            source.createTopic("orders", 1, 1);
            try (KafkaProducer<String, String> p = new KafkaProducer<>(ProducerTest.producerProps(source))) {
                for (int i = 0; i < RECORDS; i++) {
                    p.send(new ProducerRecord<>("orders", Integer.toString(i)));
                }
                p.flush();
            }
            TopicPartition tp = new TopicPartition("orders", 0);
            try (Admin admin = source.admin()) {
                admin.alterConsumerGroupOffsets("readers", Map.of(tp, new OffsetAndMetadata(COMMITTED)))
                        .all().get(30, TimeUnit.SECONDS);
            }

            Path config = Files.createTempFile("mm2", ".properties");
            Files.writeString(config, String.join("\n",
                    "clusters=src,dst",
                    "src.bootstrap.servers=" + source.bootstrap(),
                    "dst.bootstrap.servers=" + target.bootstrap(),
                    "src->dst.enabled=true",
                    "src->dst.topics=orders",
                    "src->dst.groups=readers",
                    "dst->src.enabled=false",
                    "sync.group.offsets.enabled=true",
                    "sync.group.offsets.interval.seconds=1",
                    "emit.checkpoints.interval.seconds=1",
                    "emit.heartbeats.interval.seconds=1",
                    "refresh.topics.interval.seconds=1",
                    "refresh.groups.interval.seconds=1",
                    "replication.factor=1",
                    "checkpoints.topic.replication.factor=1",
                    "heartbeats.topic.replication.factor=1",
                    "offset-syncs.topic.replication.factor=1",
                    "offset.storage.replication.factor=1",
                    "status.storage.replication.factor=1",
                    "config.storage.replication.factor=1",
                    ""));
            Process mm2 = new ProcessBuilder("java", "-Xmx512m", "-cp", libs + File.separator + "*",
                    "org.apache.kafka.connect.mirror.MirrorMaker", config.toString())
                    .redirectErrorStream(true)
                    .redirectOutput(Files.createTempFile("mm2", ".log").toFile())
                    .start();
            try {
                // The topic, mirrored as src.orders with every record in order.
                List<String> mirrored = new ArrayList<>();
                Properties read = ProducerTest.consumerProps(target, "mirror-reader", "read_uncommitted");
                try (KafkaConsumer<String, String> c = new KafkaConsumer<>(read)) {
                    FjordCluster.waitFor("src.orders on the target", Duration.ofSeconds(120), () -> {
                        if (mirrored.isEmpty()) {
                            c.subscribe(List.of("src.orders"));
                        }
                        c.poll(Duration.ofMillis(200)).forEach(r -> mirrored.add(r.value()));
                        return mirrored.size() >= RECORDS;
                    });
                }
                for (int i = 0; i < RECORDS; i++) {
                    assertEquals(Integer.toString(i), mirrored.get(i));
                }

                // The group's offset, translated and written to the target group.
                TopicPartition mirroredTp = new TopicPartition("src.orders", 0);
                long[] translated = {-1};
                try (Admin admin = target.admin()) {
                    FjordCluster.waitFor("readers' offset on the target", Duration.ofSeconds(120), () -> {
                        try {
                            OffsetAndMetadata o = admin.listConsumerGroupOffsets("readers")
                                    .partitionsToOffsetAndMetadata().get(10, TimeUnit.SECONDS).get(mirroredTp);
                            translated[0] = o == null ? -1 : o.offset();
                            return translated[0] > 0;
                        } catch (Exception e) {
                            return false;
                        }
                    });
                }
                System.out.println("MirrorMaker 2: source group at " + COMMITTED + ", translated to "
                        + translated[0] + " on the target");
                assertTrue(translated[0] <= COMMITTED,
                        "the translated offset " + translated[0] + " is past the source group's " + COMMITTED);

                // A consumer of the group on the target resumes there: nothing after the source
                // group's position is skipped.
                Properties resume = ProducerTest.consumerProps(target, "readers", "read_uncommitted");
                resume.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "none");
                List<String> resumed = new ArrayList<>();
                try (KafkaConsumer<String, String> c = new KafkaConsumer<>(resume)) {
                    c.assign(List.of(mirroredTp));
                    FjordCluster.waitFor("the target group's records", Duration.ofSeconds(60), () -> {
                        c.poll(Duration.ofMillis(200)).forEach(r -> resumed.add(r.value()));
                        return !resumed.isEmpty() && resumed.contains(Integer.toString(RECORDS - 1));
                    });
                }
                assertTrue(Integer.parseInt(resumed.get(0)) <= COMMITTED, "first resumed " + resumed.get(0));
            } finally {
                mm2.destroyForcibly().waitFor(30, TimeUnit.SECONDS);
            }
        }
    }
}
