package dev.fjord.compat;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.Config;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.serialization.LongDeserializer;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.kstream.Grouped;
import org.apache.kafka.streams.kstream.KStream;
import org.apache.kafka.streams.kstream.Materialized;
import org.apache.kafka.streams.kstream.Produced;
import org.apache.kafka.streams.kstream.TimeWindows;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Kafka Streams 4.4 with exactly_once_v2 on three fjord nodes, with the classic and the streams
 * group protocol (KIP-1071: the broker assigns the tasks and creates the internal topics): a
 * repartition topic, a KTable on a compacted changelog and a windowed count. A node is
 * SIGKILLed while the application runs; every input is counted exactly once.
 */
class StreamsTest {
    private static final int INPUTS = 6000;
    private static final int GROUPS = 10;
    private static final int KEYS = 30;
    private static FjordCluster cluster;

    @BeforeAll
    static void start() {
        cluster = FjordCluster.start(3);
    }

    @AfterAll
    static void stop() {
        cluster.close();
    }

    /** Each group protocol: classic (the consumer's rebalance) and streams (KIP-1071). */
    @ParameterizedTest
    @ValueSource(strings = {"classic", "streams"})
    void exactlyOnceThroughNodeKill(String protocol) throws Exception {
        String in = "s-in-" + protocol, counts = "s-counts-" + protocol, windowed = "s-windowed-" + protocol;
        String app = "fjord-eos-" + protocol;
        cluster.createTopic(in, 4, 3);
        cluster.createTopic(counts, 2, 3);
        cluster.createTopic(windowed, 2, 3);
        StreamsBuilder builder = new StreamsBuilder();
        KStream<String, String> input = builder.stream(in);
        // Regrouped by a new key: a repartition topic, then a KTable whose store has a
        // compacted changelog.
        input.groupBy((k, v) -> "g" + (Integer.parseInt(v) % GROUPS), Grouped.as("by-group"))
                .count(Materialized.as("group-counts"))
                .toStream()
                .to(counts, Produced.with(Serdes.String(), Serdes.Long()));
        // Every input lies in one ten-minute window.
        input.groupByKey()
                .windowedBy(TimeWindows.ofSizeWithNoGrace(Duration.ofMinutes(10)))
                .count(Materialized.as("windowed-counts"))
                .toStream()
                .map((w, c) -> KeyValue.pair(w.key(), c))
                .to(windowed, Produced.with(Serdes.String(), Serdes.Long()));

        Properties p = cluster.props();
        p.put(StreamsConfig.APPLICATION_ID_CONFIG, app);
        p.put(StreamsConfig.GROUP_PROTOCOL_CONFIG, protocol);
        p.put(StreamsConfig.PROCESSING_GUARANTEE_CONFIG, StreamsConfig.EXACTLY_ONCE_V2);
        p.put(StreamsConfig.REPLICATION_FACTOR_CONFIG, 3);
        p.put(StreamsConfig.NUM_STREAM_THREADS_CONFIG, 2);
        p.put(StreamsConfig.COMMIT_INTERVAL_MS_CONFIG, 200);
        p.put(StreamsConfig.STATE_DIR_CONFIG, Files.createTempDirectory("streams-state").toString());
        p.put(StreamsConfig.DEFAULT_KEY_SERDE_CLASS_CONFIG, Serdes.StringSerde.class);
        p.put(StreamsConfig.DEFAULT_VALUE_SERDE_CLASS_CONFIG, Serdes.StringSerde.class);
        p.put(StreamsConfig.producerPrefix("delivery.timeout.ms"), 120_000);
        p.put(StreamsConfig.producerPrefix("transaction.timeout.ms"), 30_000);

        AtomicReference<Throwable> failed = new AtomicReference<>();
        try (KafkaStreams streams = new KafkaStreams(builder.build(), p)) {
            streams.setUncaughtExceptionHandler(e -> {
                // A node's death can fail a thread's transaction: replace the thread, as an
                // application does; the new one resumes from the committed offsets.
                failed.compareAndSet(null, e);
                return org.apache.kafka.streams.errors.StreamsUncaughtExceptionHandler
                        .StreamThreadExceptionResponse.REPLACE_THREAD;
            });
            streams.start();
            FjordCluster.waitFor("the application running", Duration.ofSeconds(60),
                    () -> streams.state() == KafkaStreams.State.RUNNING);
            long base = System.currentTimeMillis() / 600_000 * 600_000;
            try (KafkaProducer<String, String> producer = new KafkaProducer<>(ProducerTest.producerProps(cluster))) {
                for (int i = 0; i < INPUTS; i++) {
                    producer.send(new ProducerRecord<>(in, null, base + i % 1000, "k" + (i % KEYS),
                            Integer.toString(i)));
                    if (i == INPUTS / 3) {
                        producer.flush();
                        cluster.kill(2);
                    }
                    if (i == 2 * INPUTS / 3) {
                        producer.flush();
                        cluster.restart(2);
                    }
                }
                producer.flush();
            }
            assertTrue(failed.get() == null || streams.state().isRunningOrRebalancing(), "the application survives: " + failed.get());
            Map<String, Long> groups = new HashMap<>();
            Map<String, Long> windows = new HashMap<>();
            FjordCluster.waitFor("every input counted", Duration.ofSeconds(180), () -> {
                latest(counts, groups);
                latest(windowed, windows);
                return groups.values().stream().mapToLong(Long::longValue).sum() >= INPUTS
                        && windows.values().stream().mapToLong(Long::longValue).sum() >= INPUTS;
            });
            for (int g = 0; g < GROUPS; g++) {
                assertEquals(INPUTS / GROUPS, groups.get("g" + g), "group g" + g + " counted once each");
            }
            for (int k = 0; k < KEYS; k++) {
                assertEquals(INPUTS / KEYS, windows.get("k" + k), "key k" + k + " counted once each");
            }
        }
        try (Admin admin = cluster.admin()) {
            ConfigResource changelog = new ConfigResource(ConfigResource.Type.TOPIC, app + "-group-counts-changelog");
            Config c = admin.describeConfigs(List.of(changelog)).all().get(30, TimeUnit.SECONDS).get(changelog);
            assertEquals("compact", c.get("cleanup.policy").value());
            assertTrue(admin.listTopics().names().get(30, TimeUnit.SECONDS).contains(app + "-by-group-repartition"));
        }
    }

    /** The active tasks an application instance runs now. */
    private static java.util.Set<String> tasks(KafkaStreams s) {
        java.util.Set<String> out = new java.util.TreeSet<>();
        s.metadataForLocalThreads().forEach(t -> t.activeTasks().forEach(m -> out.add(m.taskId().toString())));
        return out;
    }

    /**
     * A rolling restart of three instances of one application with static membership
     * (group.instance.id) and group.protocol=streams: each instance comes back to the tasks
     * it ran, and the others keep theirs while it is away.
     */
    @Test
    void rollingRestartWithStaticMembersKeepsTheTasks() throws Exception {
        String in = "s-rolling-in";
        cluster.createTopic(in, 6, 3);
        StreamsBuilder builder = new StreamsBuilder();
        builder.<String, String>stream(in).groupByKey().count(Materialized.as("rolling-counts"));
        java.util.function.IntFunction<KafkaStreams> instance = i -> {
            Properties p = cluster.props();
            p.put(StreamsConfig.APPLICATION_ID_CONFIG, "fjord-rolling");
            p.put(StreamsConfig.GROUP_PROTOCOL_CONFIG, "streams");
            p.put(StreamsConfig.consumerPrefix(ConsumerConfig.GROUP_INSTANCE_ID_CONFIG), "instance-" + i);
            try {
                p.put(StreamsConfig.STATE_DIR_CONFIG, Files.createTempDirectory("rolling-" + i).toString());
            } catch (java.io.IOException e) {
                throw new RuntimeException(e);
            }
            p.put(StreamsConfig.DEFAULT_KEY_SERDE_CLASS_CONFIG, Serdes.StringSerde.class);
            p.put(StreamsConfig.DEFAULT_VALUE_SERDE_CLASS_CONFIG, Serdes.StringSerde.class);
            p.put(StreamsConfig.REPLICATION_FACTOR_CONFIG, 3);
            KafkaStreams s = new KafkaStreams(builder.build(), p);
            s.start();
            return s;
        };
        KafkaStreams[] apps = new KafkaStreams[3];
        try {
            for (int i = 0; i < 3; i++) {
                apps[i] = instance.apply(i);
            }
            FjordCluster.waitFor("three instances sharing six tasks", Duration.ofSeconds(90), () ->
                    java.util.Arrays.stream(apps).allMatch(a -> a.state() == KafkaStreams.State.RUNNING
                            && tasks(a).size() == 2));
            for (int i = 0; i < 3; i++) {
                java.util.List<java.util.Set<String>> before = java.util.Arrays.stream(apps).map(StreamsTest::tasks).toList();
                apps[i].close(Duration.ofSeconds(30));
                for (int j = 0; j < 3; j++) {
                    if (j != i) {
                        assertEquals(before.get(j), tasks(apps[j]), "instance " + j + " keeps its tasks while " + i + " is away");
                    }
                }
                apps[i] = instance.apply(i);
                final int restarted = i;
                FjordCluster.waitFor("instance " + i + " back on its tasks", Duration.ofSeconds(90), () ->
                        apps[restarted].state() == KafkaStreams.State.RUNNING
                                && tasks(apps[restarted]).equals(before.get(restarted)));
                for (int j = 0; j < 3; j++) {
                    assertEquals(before.get(j), tasks(apps[j]), "instance " + j + " after " + i + " restarted");
                }
            }
        } finally {
            for (KafkaStreams a : apps) {
                if (a != null) {
                    a.close(Duration.ofSeconds(10));
                }
            }
        }
    }

    /** Folds the topic's committed records into key -> latest value. */
    private static void latest(String topic, Map<String, Long> into) {
        Properties p = ProducerTest.consumerProps(cluster, null, "read_committed");
        p.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, LongDeserializer.class.getName());
        p.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class.getName());
        try (KafkaConsumer<String, Long> c = new KafkaConsumer<>(p)) {
            List<TopicPartition> tps = c.partitionsFor(topic).stream()
                    .map(x -> new TopicPartition(topic, x.partition())).toList();
            c.assign(tps);
            c.seekToBeginning(tps);
            Map<TopicPartition, Long> end = c.endOffsets(tps);
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
            while (tps.stream().anyMatch(tp -> c.position(tp) < end.get(tp)) && System.nanoTime() < deadline) {
                for (ConsumerRecord<String, Long> r : c.poll(Duration.ofMillis(100))) {
                    into.put(r.key(), r.value());
                }
            }
        }
    }
}
