package dev.fjord.compat;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.RecordTooLargeException;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The Java producer (kafka-clients 4.4.0) against three fjord nodes. */
class ProducerTest {
    private static FjordCluster cluster;

    @BeforeAll
    static void start() {
        cluster = FjordCluster.start(3);
    }

    @AfterAll
    static void stop() {
        cluster.close();
    }

    static Properties producerProps(FjordCluster c) {
        Properties p = c.props();
        p.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName());
        p.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName());
        p.put(ProducerConfig.ACKS_CONFIG, "all");
        p.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
        p.put(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, 120_000);
        return p;
    }

    static Properties consumerProps(FjordCluster c, String group, String isolation) {
        Properties p = c.props();
        p.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class.getName());
        p.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class.getName());
        p.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        p.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, isolation);
        if (group != null) {
            p.put(ConsumerConfig.GROUP_ID_CONFIG, group);
        }
        return p;
    }

    /** Reads every record of the topic from the beginning up to its end offsets (assigned, no group). */
    static List<ConsumerRecord<String, String>> readAll(FjordCluster c, String topic, String isolation) {
        try (KafkaConsumer<String, String> consumer = new KafkaConsumer<>(consumerProps(c, null, isolation))) {
            List<TopicPartition> tps = consumer.partitionsFor(topic).stream()
                    .map(p -> new TopicPartition(topic, p.partition())).toList();
            consumer.assign(tps);
            consumer.seekToBeginning(tps);
            Map<TopicPartition, Long> end = consumer.endOffsets(tps);
            List<ConsumerRecord<String, String>> out = new ArrayList<>();
            FjordCluster.waitFor("reading " + topic + " to " + end, Duration.ofSeconds(60), () -> {
                for (ConsumerRecord<String, String> r : consumer.poll(Duration.ofMillis(200))) {
                    out.add(r);
                }
                return tps.stream().allMatch(tp -> consumer.position(tp) >= end.get(tp));
            });
            return out;
        }
    }

    @Test
    void idempotentProducerKeepsOrderWithoutDuplicates() throws Exception {
        cluster.createTopic("idem", 3, 3);
        try (KafkaProducer<String, String> producer = new KafkaProducer<>(producerProps(cluster))) {
            for (int i = 0; i < 3000; i++) {
                producer.send(new ProducerRecord<>("idem", "k" + (i % 7), Integer.toString(i)));
            }
            producer.flush();
        }
        List<ConsumerRecord<String, String>> got = readAll(cluster, "idem", "read_uncommitted");
        assertEquals(3000, got.size());
        Map<String, Integer> lastPerKey = new HashMap<>();
        for (ConsumerRecord<String, String> r : got) {
            int v = Integer.parseInt(r.value());
            Integer prev = lastPerKey.put(r.key(), v);
            assertTrue(prev == null || prev < v, "order within key " + r.key() + ": " + prev + " then " + v);
        }
    }

    @Test
    void transactionsCommitAndAbort() throws Exception {
        cluster.createTopic("txn-out", 2, 3);
        Properties p = producerProps(cluster);
        p.put(ProducerConfig.TRANSACTIONAL_ID_CONFIG, "java-txn");
        try (KafkaProducer<String, String> producer = new KafkaProducer<>(p)) {
            producer.initTransactions();
            for (int t = 0; t < 10; t++) {
                producer.beginTransaction();
                for (int i = 0; i < 50; i++) {
                    producer.send(new ProducerRecord<>("txn-out", Integer.toString(i), t + "-" + i));
                }
                // abortTransaction drops what is still unsent: flush so the aborted records
                // reach the log, and read_uncommitted sees them.
                producer.flush();
                if (t % 2 == 0) {
                    producer.commitTransaction();
                } else {
                    producer.abortTransaction();
                }
            }
        }
        List<ConsumerRecord<String, String>> committed = readAll(cluster, "txn-out", "read_committed");
        assertEquals(250, committed.size());
        for (ConsumerRecord<String, String> r : committed) {
            int t = Integer.parseInt(r.value().split("-")[0]);
            assertEquals(0, t % 2, "an aborted record was read committed: " + r.value());
        }
        assertEquals(500, readAll(cluster, "txn-out", "read_uncommitted").size());
    }

    @Test
    void transactionVersionTwoIsFinalized() throws Exception {
        try (Admin admin = cluster.admin()) {
            var features = admin.describeFeatures().featureMetadata().get(30, TimeUnit.SECONDS);
            var tv = features.finalizedFeatures().get("transaction.version");
            assertTrue(tv != null && tv.maxVersionLevel() >= 2, "transaction.version finalized: " + tv);
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"none", "gzip", "snappy", "lz4", "zstd"})
    void everyCompressionTypeWithHeaders(String compression) throws Exception {
        String topic = "compressed-" + compression;
        cluster.createTopic(topic, 1, 3);
        Properties p = producerProps(cluster);
        p.put(ProducerConfig.COMPRESSION_TYPE_CONFIG, compression);
        p.put(ProducerConfig.LINGER_MS_CONFIG, 20);
        try (KafkaProducer<String, String> producer = new KafkaProducer<>(p)) {
            for (int i = 0; i < 500; i++) {
                RecordHeaders h = new RecordHeaders();
                h.add("n", Integer.toString(i).getBytes(StandardCharsets.UTF_8));
                h.add("c", compression.getBytes(StandardCharsets.UTF_8));
                producer.send(new ProducerRecord<>(topic, 0, "k" + i, "value " + i + " ".repeat(i % 50), h));
            }
            producer.flush();
        }
        List<ConsumerRecord<String, String>> got = readAll(cluster, topic, "read_uncommitted");
        assertEquals(500, got.size());
        for (int i = 0; i < 500; i++) {
            ConsumerRecord<String, String> r = got.get(i);
            assertEquals(i, r.offset());
            assertEquals("k" + i, r.key());
            assertEquals("value " + i + " ".repeat(i % 50), r.value());
            assertEquals(Integer.toString(i), new String(r.headers().lastHeader("n").value(), StandardCharsets.UTF_8));
            assertEquals(compression, new String(r.headers().lastHeader("c").value(), StandardCharsets.UTF_8));
        }
    }

    @Test
    void batchesNearMessageMaxBytes() throws Exception {
        cluster.createTopic("big", 1, 3);
        Properties p = producerProps(cluster);
        p.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName());
        p.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName());
        p.put(ProducerConfig.MAX_REQUEST_SIZE_CONFIG, 4 * 1024 * 1024);
        p.put(ProducerConfig.BATCH_SIZE_CONFIG, 2 * 1024 * 1024);
        // message.max.bytes is 1048588 by default: a 1,048,000-byte value fits in one batch,
        // a 1,100,000-byte one does not.
        byte[] fits = new byte[1_048_000];
        byte[] tooBig = new byte[1_100_000];
        fits[0] = 1;
        try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(p)) {
            RecordMetadata m = producer.send(new ProducerRecord<>("big", fits)).get(60, TimeUnit.SECONDS);
            assertEquals(0, m.offset());
            ExecutionException e = assertThrows(ExecutionException.class,
                    () -> producer.send(new ProducerRecord<>("big", tooBig)).get(60, TimeUnit.SECONDS));
            assertInstanceOf(RecordTooLargeException.class, e.getCause());
        }
        Properties cp = consumerProps(cluster, null, "read_uncommitted");
        cp.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName());
        cp.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName());
        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(cp)) {
            TopicPartition tp = new TopicPartition("big", 0);
            consumer.assign(List.of(tp));
            consumer.seekToBeginning(List.of(tp));
            List<byte[]> values = new ArrayList<>();
            FjordCluster.waitFor("the big record", Duration.ofSeconds(30), () -> {
                consumer.poll(Duration.ofMillis(200)).forEach(r -> values.add(r.value()));
                return !values.isEmpty();
            });
            assertEquals(fits.length, values.get(0).length);
            assertEquals(1, values.get(0)[0]);
        }
    }

    /**
     * acks=all on three nodes with min.insync.replicas=2: the leader is SIGKILLed while the
     * producer runs. Every acknowledged record is read back, and no record twice.
     */
    @Test
    void acksAllThroughLeaderKill() throws Exception {
        cluster.createTopic("durable", 1, 3, Map.of("min.insync.replicas", "2"));
        Set<String> acked = ConcurrentHashMap.newKeySet();
        int killed;
        try (Admin admin = cluster.admin()) {
            killed = admin.describeTopics(List.of("durable")).allTopicNames().get(30, TimeUnit.SECONDS)
                    .get("durable").partitions().get(0).leader().id();
        }
        try (KafkaProducer<String, String> producer = new KafkaProducer<>(producerProps(cluster))) {
            for (int i = 0; i < 4000; i++) {
                String v = Integer.toString(i);
                producer.send(new ProducerRecord<>("durable", v), (m, e) -> {
                    if (e == null) {
                        acked.add(v);
                    }
                });
                if (i == 1500) {
                    producer.flush();
                    cluster.kill(killed);
                }
            }
            producer.flush();
        }
        try {
            List<ConsumerRecord<String, String>> got = readAll(cluster, "durable", "read_uncommitted");
            Set<String> seen = new HashSet<>();
            for (ConsumerRecord<String, String> r : got) {
                assertTrue(seen.add(r.value()), "duplicate record " + r.value() + " at " + r.offset());
            }
            Set<String> lost = new HashSet<>(acked);
            lost.removeAll(seen);
            assertTrue(lost.isEmpty(), "acknowledged records lost: " + lost.size());
            assertEquals(4000, acked.size(), "every send was acknowledged after the failover");
        } finally {
            cluster.restart(killed);
        }
    }
}
