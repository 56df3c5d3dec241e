package dev.fjord.compat;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AlterConfigOp;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.clients.consumer.AcknowledgeType;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaShareConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.TopicIdPartition;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Share groups (KIP-932) through the Java share consumer (kafka-clients 4.4.0): implicit and
 * explicit acknowledgement, release, reject, renew, the delivery-count limit, five consumers on
 * two partitions, and a SIGKILLed consumer's records coming back.
 *
 * <p>That a record is never delivered again is checked without waiting a fixed time: a marker
 * record is produced after it on the same partition, and the group reads up to the marker,
 * which a share-partition delivers only after everything before it that is still available.
 */
class ShareConsumerTest {
    static FjordCluster cluster;

    @BeforeAll
    static void start() {
        cluster = FjordCluster.start(3);
    }

    @AfterAll
    static void stop() {
        cluster.close();
    }

    /** Sets group configs (the GROUP resource, as kafka-configs --entity-type groups does). */
    static void groupConfig(String group, Map<String, String> configs) throws Exception {
        try (Admin admin = cluster.admin()) {
            List<AlterConfigOp> ops = new ArrayList<>();
            configs.forEach((k, v) -> ops.add(new AlterConfigOp(new ConfigEntry(k, v), AlterConfigOp.OpType.SET)));
            admin.incrementalAlterConfigs(Map.of(new ConfigResource(ConfigResource.Type.GROUP, group), ops))
                    .all().get(30, TimeUnit.SECONDS);
        }
    }

    /** A new group reading from the start of the log. */
    static String newGroup(String name, Map<String, String> more) throws Exception {
        Map<String, String> configs = new HashMap<>(more);
        configs.put("share.auto.offset.reset", "earliest");
        groupConfig(name, configs);
        return name;
    }

    static KafkaShareConsumer<String, String> consumer(String group, String mode) {
        Properties p = cluster.props();
        p.put(ConsumerConfig.GROUP_ID_CONFIG, group);
        p.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class.getName());
        p.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class.getName());
        p.put(ConsumerConfig.SHARE_ACKNOWLEDGEMENT_MODE_CONFIG, mode);
        return new KafkaShareConsumer<>(p);
    }

    /** Produces "prefix0".."prefix(n-1)" to one partition (or spread when partition is null). */
    static void produce(String topic, Integer partition, String prefix, int n) {
        try (KafkaProducer<String, String> p = new KafkaProducer<>(ProducerTest.producerProps(cluster))) {
            for (int i = 0; i < n; i++) {
                p.send(new ProducerRecord<>(topic, partition, Integer.toString(i), prefix + i));
            }
            p.flush();
        }
    }

    /**
     * Polls until the marker value arrives, acknowledging everything (implicitly); returns
     * every other value seen.
     */
    static List<String> readToMarker(String group, String topic, String marker) {
        List<String> seen = new ArrayList<>();
        try (KafkaShareConsumer<String, String> c = consumer(group, "implicit")) {
            c.subscribe(List.of(topic));
            AtomicBoolean found = new AtomicBoolean();
            FjordCluster.waitFor("the marker " + marker, Duration.ofSeconds(90), () -> {
                for (ConsumerRecord<String, String> r : c.poll(Duration.ofMillis(500))) {
                    if (r.value().equals(marker)) {
                        found.set(true);
                    } else {
                        seen.add(r.value());
                    }
                }
                return found.get();
            });
            c.commitSync();
        }
        return seen;
    }

    @Test
    void implicitAcknowledgementDeliversEachRecordOnce() throws Exception {
        String topic = "share-implicit";
        cluster.createTopic(topic, 1, 3);
        String group = newGroup("sg-implicit", Map.of());
        produce(topic, 0, "v", 200);
        Set<String> got = new HashSet<>();
        try (KafkaShareConsumer<String, String> c = consumer(group, "implicit")) {
            c.subscribe(List.of(topic));
            FjordCluster.waitFor("200 records", Duration.ofSeconds(90), () -> {
                for (ConsumerRecord<String, String> r : c.poll(Duration.ofMillis(500))) {
                    assertTrue(got.add(r.value()), "delivered twice: " + r.value());
                    assertEquals(Optional.of((short) 1), r.deliveryCount());
                }
                return got.size() == 200;
            });
            assertTrue(c.acquisitionLockTimeoutMs().isPresent());
            c.commitSync();
        }
        produce(topic, 0, "marker", 1);
        assertEquals(List.of(), readToMarker(group, topic, "marker0"), "acknowledged records came back");
    }

    @Test
    void releasedRecordsComeBackRejectedOnesDoNot() throws Exception {
        String topic = "share-explicit";
        cluster.createTopic(topic, 1, 3);
        String group = newGroup("sg-explicit", Map.of());
        produce(topic, 0, "v", 30);
        Map<String, Integer> deliveries = new HashMap<>();
        try (KafkaShareConsumer<String, String> c = consumer(group, "explicit")) {
            c.subscribe(List.of(topic));
            // First delivery: accept v0..v9, release v10..v19, reject v20..v29.
            // Second delivery: only v10..v19, with delivery count 2; accept them.
            FjordCluster.waitFor("every record settled", Duration.ofSeconds(90), () -> {
                for (ConsumerRecord<String, String> r : c.poll(Duration.ofMillis(500))) {
                    int n = Integer.parseInt(r.value().substring(1));
                    int count = deliveries.merge(r.value(), 1, Integer::sum);
                    assertEquals(Optional.of((short) count), r.deliveryCount(), r.value());
                    AcknowledgeType t = n < 10 || count > 1 ? AcknowledgeType.ACCEPT
                            : n < 20 ? AcknowledgeType.RELEASE : AcknowledgeType.REJECT;
                    c.acknowledge(r, t);
                }
                Map<TopicIdPartition, Optional<KafkaException>> done = c.commitSync();
                done.values().forEach(e -> assertTrue(e.isEmpty(), "acknowledgement failed: " + e));
                return deliveries.size() == 30
                        && deliveries.entrySet().stream().allMatch(e -> e.getValue()
                                == (Integer.parseInt(e.getKey().substring(1)) / 10 == 1 ? 2 : 1));
            });
        }
        produce(topic, 0, "marker", 1);
        assertEquals(List.of(), readToMarker(group, topic, "marker0"), "settled records came back");
    }

    @Test
    void aRecordReleasedUpToTheDeliveryLimitIsArchived() throws Exception {
        String topic = "share-limit";
        cluster.createTopic(topic, 1, 3);
        String group = newGroup("sg-limit", Map.of("share.delivery.count.limit", "3"));
        produce(topic, 0, "v", 1);
        List<Short> counts = new ArrayList<>();
        try (KafkaShareConsumer<String, String> c = consumer(group, "explicit")) {
            c.subscribe(List.of(topic));
            FjordCluster.waitFor("three deliveries", Duration.ofSeconds(90), () -> {
                for (ConsumerRecord<String, String> r : c.poll(Duration.ofMillis(500))) {
                    counts.add(r.deliveryCount().orElse((short) -1));
                    c.acknowledge(r, AcknowledgeType.RELEASE);
                }
                c.commitSync();
                return counts.size() >= 3;
            });
        }
        assertEquals(List.of((short) 1, (short) 2, (short) 3), counts);
        produce(topic, 0, "marker", 1);
        assertEquals(List.of(), readToMarker(group, topic, "marker0"), "delivered past the limit");
    }

    @Test
    void renewKeepsTheLockPastItsDuration() throws Exception {
        String topic = "share-renew";
        cluster.createTopic(topic, 1, 3);
        // The shortest lock Kafka's bounds allow (group.share.min.record.lock.duration.ms).
        String group = newGroup("sg-renew", Map.of("share.record.lock.duration.ms", "15000"));
        produce(topic, 0, "v", 1);
        try (KafkaShareConsumer<String, String> holder = consumer(group, "explicit");
                KafkaShareConsumer<String, String> other = consumer(group, "implicit")) {
            holder.subscribe(List.of(topic));
            other.subscribe(List.of(topic));
            List<ConsumerRecord<String, String>> held = new ArrayList<>();
            FjordCluster.waitFor("the record", Duration.ofSeconds(60), () -> {
                holder.poll(Duration.ofMillis(500)).forEach(held::add);
                return !held.isEmpty();
            });
            long acquired = System.nanoTime();
            // Renew the lock every 5 s for 25 s (past the 15 s lock); meanwhile the other
            // member must never get the record.
            while (System.nanoTime() - acquired < TimeUnit.SECONDS.toNanos(25)) {
                long renewAt = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
                while (System.nanoTime() < renewAt) {
                    for (ConsumerRecord<String, String> r : other.poll(Duration.ofMillis(250))) {
                        throw new AssertionError("a renewed record was delivered to another member: " + r);
                    }
                }
                holder.acknowledge(held.get(0), AcknowledgeType.RENEW);
                holder.commitSync().values().forEach(e -> assertTrue(e.isEmpty(), "renew failed: " + e));
                // A renewed record is handed to the application again by the next poll.
                List<ConsumerRecord<String, String>> again = new ArrayList<>();
                FjordCluster.waitFor("the renewed record", Duration.ofSeconds(30), () -> {
                    holder.poll(Duration.ofMillis(200)).forEach(again::add);
                    return !again.isEmpty();
                });
                assertEquals(List.of(held.get(0).offset()), again.stream().map(ConsumerRecord::offset).toList());
                held.set(0, again.get(0));
            }
            holder.acknowledge(held.get(0), AcknowledgeType.ACCEPT);
            holder.commitSync().values().forEach(e -> assertTrue(e.isEmpty(), "accept failed: " + e));
        }
        produce(topic, 0, "marker", 1);
        assertEquals(List.of(), readToMarker(group, topic, "marker0"));
    }

    @Test
    void fiveConsumersOnTwoPartitionsProcessEachRecordOnce() throws Exception {
        String topic = "share-five";
        cluster.createTopic(topic, 2, 3);
        String group = newGroup("sg-five", Map.of());
        int total = 4000;
        Map<String, Integer> seen = new ConcurrentHashMap<>();
        Map<Integer, Integer> byConsumer = new ConcurrentHashMap<>();
        AtomicBoolean stop = new AtomicBoolean();
        List<Thread> threads = new ArrayList<>();
        List<Throwable> failures = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            int id = i;
            Thread t = new Thread(() -> {
                try (KafkaShareConsumer<String, String> c = consumer(group, "implicit")) {
                    c.subscribe(List.of(topic));
                    while (!stop.get()) {
                        for (ConsumerRecord<String, String> r : c.poll(Duration.ofMillis(200))) {
                            seen.merge(r.value(), 1, Integer::sum);
                            byConsumer.merge(id, 1, Integer::sum);
                        }
                    }
                    c.commitSync();
                } catch (Throwable e) {
                    synchronized (failures) {
                        failures.add(e);
                    }
                }
            });
            t.start();
            threads.add(t);
        }
        try {
            // The records are produced once all five members hold assignments, so that the
            // first to join cannot take them all before the others arrive.
            try (Admin admin = cluster.admin()) {
                FjordCluster.waitFor("five assigned members", Duration.ofSeconds(60), () -> {
                    try {
                        var d = admin.describeShareGroups(List.of(group)).all().get().get(group);
                        return d.members().size() == 5
                                && d.members().stream().allMatch(m -> !m.assignment().topicPartitions().isEmpty());
                    } catch (Exception e) {
                        return false;
                    }
                });
            }
            produce(topic, null, "v", total);
            FjordCluster.waitFor(total + " records", Duration.ofSeconds(120), () -> seen.size() == total);
        } finally {
            stop.set(true);
            for (Thread t : threads) {
                t.join(60_000);
            }
        }
        assertEquals(List.of(), failures);
        List<String> twice = seen.entrySet().stream().filter(e -> e.getValue() > 1).map(Map.Entry::getKey).toList();
        assertEquals(List.of(), twice, "records processed more than once");
        assertTrue(byConsumer.size() >= 2, "the records were shared: " + byConsumer);
    }

    /** The child JVM of {@link #aKilledConsumersRecordsComeBack}: acquires, prints, hangs. */
    public static final class Hang {
        public static void main(String[] args) throws Exception {
            Properties p = new Properties();
            p.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, args[0]);
            p.put(ConsumerConfig.GROUP_ID_CONFIG, args[1]);
            p.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class.getName());
            p.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class.getName());
            p.put(ConsumerConfig.SHARE_ACKNOWLEDGEMENT_MODE_CONFIG, "explicit");
            KafkaShareConsumer<String, String> c = new KafkaShareConsumer<>(p);
            c.subscribe(List.of(args[2]));
            int got = 0;
            while (true) {
                got += c.poll(Duration.ofMillis(500)).count();
                if (got > 0) {
                    System.out.println("GOT " + got);
                    System.out.flush();
                }
            }
        }
    }

    @Test
    void aKilledConsumersRecordsComeBack() throws Exception {
        String topic = "share-killed";
        cluster.createTopic(topic, 1, 3);
        String group = newGroup("sg-killed", Map.of("share.record.lock.duration.ms", "15000"));
        produce(topic, 0, "v", 50);
        ProcessBuilder pb = new ProcessBuilder(
                System.getProperty("java.home") + "/bin/java", "-cp", System.getProperty("java.class.path"),
                Hang.class.getName(), cluster.bootstrap(), group, topic);
        pb.redirectErrorStream(true);
        Process child = pb.start();
        int held;
        try (BufferedReader out = new BufferedReader(new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8))) {
            String line;
            held = -1;
            while ((line = out.readLine()) != null) {
                if (line.startsWith("GOT ")) {
                    held = Integer.parseInt(line.substring(4).trim());
                    break;
                }
            }
            assertTrue(held > 0, "the child consumer acquired nothing");
        } finally {
            child.destroyForcibly(); // SIGKILL: it never acknowledges nor leaves
            child.waitFor(30, TimeUnit.SECONDS);
        }
        Map<String, Short> counts = new HashMap<>();
        try (KafkaShareConsumer<String, String> c = consumer(group, "implicit")) {
            c.subscribe(List.of(topic));
            FjordCluster.waitFor("every record", Duration.ofSeconds(90), () -> {
                for (ConsumerRecord<String, String> r : c.poll(Duration.ofMillis(500))) {
                    counts.put(r.value(), r.deliveryCount().orElse((short) 0));
                }
                return counts.size() == 50;
            });
            c.commitSync();
        }
        long again = counts.values().stream().filter(n -> n >= 2).count();
        assertTrue(again >= held, held + " held by the killed consumer, " + again + " delivered again: " + counts);
    }

    /**
     * KIP-1191: rejected records, and records that reach the delivery-count limit, land on the
     * group's dead-letter queue topic with Kafka's context headers and (copy enabled) the
     * original key and value; they are not delivered again.
     */
    @Test
    void deadLetterQueueGetsRejectedAndExhaustedRecords() throws Exception {
        String topic = "share-dlq";
        String dlq = "dlq.share-dlq";
        cluster.createTopic(topic, 1, 3);
        cluster.createTopic(dlq, 1, 3, Map.of("errors.deadletterqueue.group.enable", "true"));
        String group = newGroup("sg-dlq", Map.of(
                "share.delivery.count.limit", "2",
                "errors.deadletterqueue.topic.name", dlq,
                "errors.deadletterqueue.copy.record.enable", "true"));
        produce(topic, 0, "v", 10);
        Map<String, Integer> deliveries = new HashMap<>();
        try (KafkaShareConsumer<String, String> c = consumer(group, "explicit")) {
            c.subscribe(List.of(topic));
            FjordCluster.waitFor("every record settled", Duration.ofSeconds(90), () -> {
                for (ConsumerRecord<String, String> r : c.poll(Duration.ofMillis(500))) {
                    deliveries.merge(r.value(), 1, Integer::sum);
                    int n = Integer.parseInt(r.value().substring(1));
                    c.acknowledge(r, n < 5 ? AcknowledgeType.REJECT : AcknowledgeType.RELEASE);
                }
                c.commitSync();
                return deliveries.size() == 10
                        && deliveries.entrySet().stream().allMatch(e -> e.getValue()
                                == (Integer.parseInt(e.getKey().substring(1)) < 5 ? 1 : 2));
            });
        }
        Properties p = ProducerTest.consumerProps(cluster, null, "read_uncommitted");
        Map<String, Map<String, String>> letters = new HashMap<>();
        try (org.apache.kafka.clients.consumer.KafkaConsumer<String, String> c =
                new org.apache.kafka.clients.consumer.KafkaConsumer<>(p)) {
            c.assign(List.of(new org.apache.kafka.common.TopicPartition(dlq, 0)));
            c.seekToBeginning(c.assignment());
            try {
                FjordCluster.waitFor("ten dead letters", Duration.ofSeconds(60), () -> {
                    for (ConsumerRecord<String, String> r : c.poll(Duration.ofMillis(500))) {
                        Map<String, String> h = new HashMap<>();
                        r.headers().forEach(x -> h.put(x.key(), new String(x.value(), StandardCharsets.UTF_8)));
                        letters.put(r.value(), h);
                    }
                    return letters.size() >= 10;
                });
            } catch (AssertionError e) {
                StringBuilder logs = new StringBuilder();
                if (!cluster.isKafka()) {
                    for (FjordCluster.Node n : cluster.nodes()) {
                        logs.append(n.logTail());
                    }
                }
                throw new AssertionError(e.getMessage() + ": got " + letters.keySet() + "\n" + logs, e);
            }
        }
        assertEquals(10, letters.size(), letters.toString());
        for (int i = 0; i < 10; i++) {
            Map<String, String> h = letters.get("v" + i);
            assertTrue(h != null, "v" + i + " not in the DLQ: " + letters.keySet());
            assertEquals(topic, h.get("__dlq.errors.topic"));
            assertEquals("0", h.get("__dlq.errors.partition"));
            assertEquals(Integer.toString(i), h.get("__dlq.errors.offset"));
            assertEquals(group, h.get("__dlq.errors.group"));
            assertEquals(i < 5 ? "1" : "2", h.get("__dlq.errors.delivery.count"));
            assertEquals(i < 5 ? "Offset rejected by client." : "Offset delivery count exceeded the threshold.",
                    h.get("__dlq.errors.message"));
        }
        produce(topic, 0, "marker", 1);
        assertEquals(List.of(), readToMarker(group, topic, "marker0"), "dead letters delivered again");
    }

    /**
     * share.isolation.level=read_committed: records of an aborted transaction and the
     * transaction markers are never delivered; committed ones are, once committed.
     */
    @Test
    void readCommittedSkipsAbortedTransactions() throws Exception {
        String topic = "share-txn";
        cluster.createTopic(topic, 1, 3);
        String group = newGroup("sg-txn", Map.of("share.isolation.level", "read_committed"));
        Properties pp = ProducerTest.producerProps(cluster);
        pp.put(org.apache.kafka.clients.producer.ProducerConfig.TRANSACTIONAL_ID_CONFIG, "share-txn");
        try (KafkaProducer<String, String> p = new KafkaProducer<>(pp)) {
            p.initTransactions();
            for (String outcome : List.of("committed-a", "aborted", "committed-b")) {
                p.beginTransaction();
                for (int i = 0; i < 5; i++) {
                    p.send(new ProducerRecord<>(topic, 0, null, outcome + i));
                }
                if (outcome.equals("aborted")) {
                    p.abortTransaction();
                } else {
                    p.commitTransaction();
                }
            }
        }
        produce(topic, 0, "marker", 1);
        List<String> seen = readToMarker(group, topic, "marker0");
        seen.sort(null);
        List<String> expected = new ArrayList<>();
        for (String outcome : List.of("committed-a", "committed-b")) {
            for (int i = 0; i < 5; i++) {
                expected.add(outcome + i);
            }
        }
        assertEquals(expected, seen);
    }

    /** The leader of topic-partition now. */
    static int leaderOf(Admin admin, String topic, int partition) throws Exception {
        return admin.describeTopics(List.of(topic)).allTopicNames().get(30, TimeUnit.SECONDS)
                .get(topic).partitions().get(partition).leader().id();
    }

    /**
     * The share-partition's state survives its leader's and then its share coordinator's
     * SIGKILL: every record is delivered, and no record whose acknowledgement succeeded is
     * ever delivered again (the at-least-once contract allows redelivery only of what was not
     * acknowledged).
     */
    @Test
    void acknowledgedRecordsSurviveLeaderAndCoordinatorKills() throws Exception {
        String topic = "share-kills";
        cluster.createTopic(topic, 1, 3);
        String group = newGroup("sg-kills", Map.of());
        int total = 3000;
        produce(topic, 0, "v", total);
        Set<String> acked = new HashSet<>();
        Set<String> seen = new HashSet<>();
        List<String> redelivered = new ArrayList<>();
        int[] kills = {0};
        try (Admin admin = cluster.admin();
                KafkaShareConsumer<String, String> c = consumer(group, "explicit")) {
            c.subscribe(List.of(topic));
            String topicId = admin.describeTopics(List.of(topic)).allTopicNames().get().get(topic).topicId().toString();
            // The share coordinator's partition of this share-partition (Kafka's hash of its key).
            int statePartition = org.apache.kafka.common.utils.Utils.abs((group + ":" + topicId + ":0").hashCode()) % 50;
            FjordCluster.waitFor("every record", Duration.ofSeconds(240), () -> {
                List<ConsumerRecord<String, String>> batch = new ArrayList<>();
                c.poll(Duration.ofMillis(500)).forEach(batch::add);
                for (ConsumerRecord<String, String> r : batch) {
                    if (acked.contains(r.value())) {
                        redelivered.add(r.value());
                    }
                    seen.add(r.value());
                    c.acknowledge(r, AcknowledgeType.ACCEPT);
                }
                Map<TopicIdPartition, Optional<KafkaException>> done = c.commitSync();
                if (done.values().stream().allMatch(Optional::isEmpty)) {
                    batch.forEach(r -> acked.add(r.value()));
                }
                try {
                    if (kills[0] == 0 && seen.size() > total / 3) {
                        int leader = leaderOf(admin, topic, 0);
                        cluster.kill(leader);
                        kills[0] = leader;
                    } else if (kills[0] > 0 && seen.size() > 2 * total / 3) {
                        cluster.restart(kills[0]);
                        int coordinator = leaderOf(admin, "__share_group_state", statePartition);
                        cluster.kill(coordinator);
                        kills[0] = -coordinator;
                    }
                } catch (Exception e) {
                    throw new RuntimeException(e);
                }
                return seen.size() == total;
            });
        } finally {
            if (kills[0] < 0) {
                cluster.restart(-kills[0]);
            } else if (kills[0] > 0) {
                cluster.restart(kills[0]);
            }
        }
        assertEquals(List.of(), redelivered, "acknowledged records delivered again");
        produce(topic, 0, "marker", 1);
        List<String> left = readToMarker(group, topic, "marker0");
        left.removeIf(v -> !acked.contains(v));
        assertEquals(List.of(), left, "acknowledged records delivered after the kills");
    }

    static <T> Set<T> set(Collection<T> c) {
        return new HashSet<>(c);
    }
}
