package dev.fjord.compat;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerGroupMetadata;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.CooperativeStickyAssignor;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.consumer.OffsetAndTimestamp;
import org.apache.kafka.clients.consumer.RangeAssignor;
import org.apache.kafka.clients.consumer.RoundRobinAssignor;
import org.apache.kafka.clients.consumer.SubscriptionPattern;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The Java consumer (kafka-clients 4.4.0): classic and consumer-protocol groups, static members, seeks, read_committed. */
class ConsumerTest {
    private static FjordCluster cluster;

    @BeforeAll
    static void start() {
        cluster = FjordCluster.start(3);
    }

    @AfterAll
    static void stop() {
        cluster.close();
    }

    /** Produces n records "0".."n-1" keyed by their number onto the topic. */
    static void produce(String topic, int n) {
        try (KafkaProducer<String, String> p = new KafkaProducer<>(ProducerTest.producerProps(cluster))) {
            for (int i = 0; i < n; i++) {
                p.send(new ProducerRecord<>(topic, Integer.toString(i), Integer.toString(i)));
            }
            p.flush();
        }
    }

    static Properties groupProps(String group, Map<String, Object> extra) {
        Properties p = ProducerTest.consumerProps(cluster, group, "read_uncommitted");
        p.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        p.putAll(extra);
        return p;
    }

    /**
     * Polls every consumer in turn until each holds an assignment, together they hold exactly
     * the topic's partitions, and none is mid-rebalance.
     */
    static void awaitBalanced(List<KafkaConsumer<String, String>> consumers, int partitions,
            Map<String, Set<String>> values) {
        FjordCluster.waitFor("a balanced group", Duration.ofSeconds(60), () -> {
            for (KafkaConsumer<String, String> c : consumers) {
                for (ConsumerRecord<String, String> r : c.poll(Duration.ofMillis(100))) {
                    values.computeIfAbsent(r.topic(), t -> ConcurrentHashMap.newKeySet()).add(r.value());
                }
            }
            List<TopicPartition> all = new ArrayList<>();
            for (KafkaConsumer<String, String> c : consumers) {
                if (c.assignment().isEmpty()) {
                    return false;
                }
                all.addAll(c.assignment());
            }
            return all.size() == partitions && new HashSet<>(all).size() == partitions;
        });
    }

    @ParameterizedTest
    @ValueSource(strings = {"range", "roundrobin", "cooperative-sticky"})
    void classicGroupAssignors(String assignor) {
        String topic = "classic-" + assignor;
        cluster.createTopic(topic, 6, 3);
        produce(topic, 600);
        String cls = switch (assignor) {
            case "range" -> RangeAssignor.class.getName();
            case "roundrobin" -> RoundRobinAssignor.class.getName();
            default -> CooperativeStickyAssignor.class.getName();
        };
        List<KafkaConsumer<String, String>> consumers = new ArrayList<>();
        Map<String, Set<String>> values = new ConcurrentHashMap<>();
        try {
            for (int i = 0; i < 3; i++) {
                KafkaConsumer<String, String> c = new KafkaConsumer<>(groupProps("g-" + assignor,
                        Map.of(ConsumerConfig.PARTITION_ASSIGNMENT_STRATEGY_CONFIG, cls)));
                c.subscribe(List.of(topic));
                consumers.add(c);
            }
            awaitBalanced(consumers, 6, values);
            for (KafkaConsumer<String, String> c : consumers) {
                assertEquals(2, c.assignment().size(), assignor + " gives each of 3 members 2 of 6: " + c.assignment());
            }
            if (assignor.equals("range")) {
                for (KafkaConsumer<String, String> c : consumers) {
                    TreeSet<Integer> ps = c.assignment().stream().map(TopicPartition::partition)
                            .collect(Collectors.toCollection(TreeSet::new));
                    assertEquals(ps.first() + 1, ps.last(), "range gives contiguous partitions: " + ps);
                }
            }
            FjordCluster.waitFor("every record", Duration.ofSeconds(60), () -> {
                for (KafkaConsumer<String, String> c : consumers) {
                    c.poll(Duration.ofMillis(100)).forEach(r -> values.computeIfAbsent(r.topic(),
                            t -> ConcurrentHashMap.newKeySet()).add(r.value()));
                }
                return values.getOrDefault(topic, Set.of()).size() == 600;
            });
        } finally {
            consumers.forEach(KafkaConsumer::close);
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"uniform", "range"})
    void consumerProtocolGroups(String assignor) {
        String topic = "kip848-" + assignor;
        cluster.createTopic(topic, 4, 3);
        produce(topic, 400);
        List<KafkaConsumer<String, String>> consumers = new ArrayList<>();
        Map<String, Set<String>> values = new ConcurrentHashMap<>();
        try {
            for (int i = 0; i < 2; i++) {
                KafkaConsumer<String, String> c = new KafkaConsumer<>(groupProps("g848-" + assignor,
                        Map.of(ConsumerConfig.GROUP_PROTOCOL_CONFIG, "consumer",
                                ConsumerConfig.GROUP_REMOTE_ASSIGNOR_CONFIG, assignor)));
                c.subscribe(List.of(topic));
                consumers.add(c);
            }
            awaitBalanced(consumers, 4, values);
            for (KafkaConsumer<String, String> c : consumers) {
                assertEquals(2, c.assignment().size(), c.assignment().toString());
            }
            FjordCluster.waitFor("every record", Duration.ofSeconds(60), () -> {
                for (KafkaConsumer<String, String> c : consumers) {
                    c.poll(Duration.ofMillis(100)).forEach(r -> values.computeIfAbsent(r.topic(),
                            t -> ConcurrentHashMap.newKeySet()).add(r.value()));
                }
                return values.getOrDefault(topic, Set.of()).size() == 400;
            });
            // A third member joins: the group moves partitions without stopping the others.
            KafkaConsumer<String, String> third = new KafkaConsumer<>(groupProps("g848-" + assignor,
                    Map.of(ConsumerConfig.GROUP_PROTOCOL_CONFIG, "consumer",
                            ConsumerConfig.GROUP_REMOTE_ASSIGNOR_CONFIG, assignor)));
            third.subscribe(List.of(topic));
            consumers.add(third);
            awaitBalanced(consumers, 4, values);
        } finally {
            consumers.forEach(KafkaConsumer::close);
        }
    }

    /**
     * A KIP-848 subscription by regular expression is matched against every topic, internal
     * ones too: Kafka 4.4's coordinator assigns __consumer_offsets to a pattern that names it.
     */
    @Test
    void regexSubscriptionNamingAnInternalTopicIsAssignedIt() throws Exception {
        cluster.createTopic("regex-internal-t", 2, 3);
        produce("regex-internal-t", 10);
        try (KafkaConsumer<String, String> c = new KafkaConsumer<>(groupProps("g848-regex-internal",
                Map.of(ConsumerConfig.GROUP_PROTOCOL_CONFIG, "consumer")));
                Admin admin = Admin.create(cluster.props())) {
            c.subscribe(new SubscriptionPattern("__consumer_offsets|regex-internal-t"));
            // The group's coordinator exists once the consumer has an assignment, and with it
            // the offsets topic.
            FjordCluster.waitFor("a first assignment", Duration.ofSeconds(60), () -> {
                c.poll(Duration.ofMillis(100));
                return !c.assignment().isEmpty();
            });
            int offsetsPartitions = admin.describeTopics(List.of("__consumer_offsets")).allTopicNames()
                    .get(60, TimeUnit.SECONDS).get("__consumer_offsets").partitions().size();
            FjordCluster.waitFor("the pattern's topics assigned", Duration.ofSeconds(60), () -> {
                c.poll(Duration.ofMillis(100));
                return c.assignment().size() == offsetsPartitions + 2;
            });
            Set<String> topics = new HashSet<>();
            c.assignment().forEach(tp -> topics.add(tp.topic()));
            assertEquals(Set.of("__consumer_offsets", "regex-internal-t"), topics);
        }
    }

    /** A static member that restarts within its session timeout gets its partitions back. */
    @Test
    void staticMembership() {
        String topic = "static";
        cluster.createTopic(topic, 4, 3);
        Map<String, Set<String>> values = new ConcurrentHashMap<>();
        Map<String, Set<TopicPartition>> before = new HashMap<>();
        List<KafkaConsumer<String, String>> consumers = new ArrayList<>();
        try {
            for (String id : List.of("a", "b")) {
                KafkaConsumer<String, String> c = new KafkaConsumer<>(groupProps("g-static",
                        Map.of(ConsumerConfig.GROUP_INSTANCE_ID_CONFIG, id,
                                ConsumerConfig.SESSION_TIMEOUT_MS_CONFIG, 30_000)));
                c.subscribe(List.of(topic));
                consumers.add(c);
            }
            awaitBalanced(consumers, 4, values);
            before.put("a", Set.copyOf(consumers.get(0).assignment()));
            before.put("b", Set.copyOf(consumers.get(1).assignment()));
            int generation = consumers.get(1).groupMetadata().generationId();
            // A static member's close sends no LeaveGroup: "a" comes back as the same member.
            consumers.get(0).close();
            KafkaConsumer<String, String> again = new KafkaConsumer<>(groupProps("g-static",
                    Map.of(ConsumerConfig.GROUP_INSTANCE_ID_CONFIG, "a",
                            ConsumerConfig.SESSION_TIMEOUT_MS_CONFIG, 30_000)));
            again.subscribe(List.of(topic));
            consumers.set(0, again);
            awaitBalanced(consumers, 4, values);
            assertEquals(before.get("a"), again.assignment());
            assertEquals(before.get("b"), consumers.get(1).assignment());
            assertEquals(generation, consumers.get(1).groupMetadata().generationId(),
                    "the group did not rebalance for a returning static member");
        } finally {
            consumers.forEach(KafkaConsumer::close);
        }
    }

    @Test
    void seekOffsetsForTimesAndEnds() throws Exception {
        String topic = "seek";
        cluster.createTopic(topic, 1, 3);
        TopicPartition tp = new TopicPartition(topic, 0);
        long base = System.currentTimeMillis() - 100_000;
        try (KafkaProducer<String, String> p = new KafkaProducer<>(ProducerTest.producerProps(cluster))) {
            for (int i = 0; i < 100; i++) {
                p.send(new ProducerRecord<>(topic, 0, base + i * 1000L, null, Integer.toString(i)));
            }
            p.flush();
        }
        try (KafkaConsumer<String, String> c = new KafkaConsumer<>(ProducerTest.consumerProps(cluster, null, "read_uncommitted"))) {
            c.assign(List.of(tp));
            assertEquals(0L, c.beginningOffsets(List.of(tp)).get(tp));
            assertEquals(100L, c.endOffsets(List.of(tp)).get(tp));
            Map<TopicPartition, OffsetAndTimestamp> t = c.offsetsForTimes(Map.of(tp, base + 41_500L));
            assertEquals(42L, t.get(tp).offset());
            assertEquals(base + 42_000L, t.get(tp).timestamp());
            assertNull(c.offsetsForTimes(Map.of(tp, base + 1_000_000L)).get(tp), "no record at or after that time");
            c.seek(tp, 97);
            List<String> got = new ArrayList<>();
            FjordCluster.waitFor("the last three", Duration.ofSeconds(30), () -> {
                c.poll(Duration.ofMillis(100)).forEach(r -> got.add(r.value()));
                return got.size() >= 3;
            });
            assertEquals(List.of("97", "98", "99"), got);
            c.seekToBeginning(List.of(tp));
            assertEquals(0L, c.position(tp));
            c.seekToEnd(List.of(tp));
            assertEquals(100L, c.position(tp));
            // Past the end: auto.offset.reset=earliest moves the consumer back to the start.
            c.seek(tp, 500);
            List<String> reset = new ArrayList<>();
            FjordCluster.waitFor("a reset to the earliest offset", Duration.ofSeconds(30), () -> {
                c.poll(Duration.ofMillis(100)).forEach(r -> reset.add(r.value()));
                return !reset.isEmpty();
            });
            assertEquals("0", reset.get(0));
        }
    }

    /** Committed, aborted and plain records interleaved: read_committed sees the committed and plain ones in order. */
    @Test
    void readCommittedBesideAbortedTransactions() {
        String topic = "rc";
        cluster.createTopic(topic, 1, 3);
        Properties tp = ProducerTest.producerProps(cluster);
        tp.put(ProducerConfig.TRANSACTIONAL_ID_CONFIG, "rc-txn");
        List<String> expected = new ArrayList<>();
        try (KafkaProducer<String, String> txn = new KafkaProducer<>(tp);
                KafkaProducer<String, String> plain = new KafkaProducer<>(ProducerTest.producerProps(cluster))) {
            txn.initTransactions();
            for (int round = 0; round < 6; round++) {
                txn.beginTransaction();
                for (int i = 0; i < 10; i++) {
                    txn.send(new ProducerRecord<>(topic, "t" + round + "-" + i));
                }
                txn.flush();
                for (int i = 0; i < 3; i++) {
                    String v = "p" + round + "-" + i;
                    plain.send(new ProducerRecord<>(topic, v));
                    expected.add(v);
                }
                plain.flush();
                if (round % 3 == 1) {
                    txn.abortTransaction();
                } else {
                    txn.commitTransaction();
                    for (int i = 0; i < 10; i++) {
                        expected.add("t" + round + "-" + i);
                    }
                }
            }
        }
        List<String> got = ProducerTest.readAll(cluster, topic, "read_committed").stream()
                .map(ConsumerRecord::value).toList();
        assertEquals(new TreeSet<>(expected), new TreeSet<>(got));
        assertEquals(expected.size(), got.size());
    }

    /**
     * A rebalance storm with exactly-once counting: members of a consume-transform-produce
     * group join and leave while records flow; each copies its input into the output inside a
     * transaction with its offsets. Every input appears exactly once in the committed output.
     */
    @Test
    void rebalanceStormExactlyOnce() throws Exception {
        String in = "storm-in";
        String out = "storm-out";
        cluster.createTopic(in, 6, 3);
        cluster.createTopic(out, 3, 3);
        int n = 3000;
        produce(in, n);
        List<Worker> workers = new ArrayList<>();
        try {
            for (int round = 0; round < 8; round++) {
                Worker w = new Worker(in, out, "storm-" + round);
                w.start();
                workers.add(w);
                if (workers.size() > 3) {
                    workers.remove(0).shutdown();
                }
                int copied = countCommitted(out);
                FjordCluster.waitFor("progress in round " + round, Duration.ofSeconds(60),
                        () -> countCommitted(out) > copied || copied == n);
            }
            FjordCluster.waitFor("every input copied", Duration.ofSeconds(120), () -> countCommitted(out) >= n);
        } finally {
            for (Worker w : workers) {
                w.shutdown();
            }
        }
        for (Worker w : workers) {
            assertNull(w.failure, "a worker failed: " + w.failure);
        }
        List<String> got = ProducerTest.readAll(cluster, out, "read_committed").stream()
                .map(ConsumerRecord::value).toList();
        Map<String, Long> counts = got.stream().collect(Collectors.groupingBy(v -> v, Collectors.counting()));
        Set<String> missing = IntStream.range(0, n).mapToObj(Integer::toString)
                .filter(v -> !counts.containsKey(v)).collect(Collectors.toSet());
        assertTrue(missing.isEmpty(), "inputs never copied: " + missing.size());
        Map<String, Long> dups = counts.entrySet().stream().filter(e -> e.getValue() > 1)
                .collect(Collectors.toMap(Map.Entry::getKey, Map.Entry::getValue));
        assertTrue(dups.isEmpty(), "inputs copied more than once: " + dups.size());
        assertEquals(n, got.size());
    }

    /**
     * kafkajs's finding 1: when a classic group's last member leaves, the group is Empty at
     * once, so an admin offset reset right after the consumer closes is accepted.
     */
    @Test
    void lastMemberLeavingEmptiesTheGroupAtOnce() throws Exception {
        String topic = "leaving";
        cluster.createTopic(topic, 1, 3);
        produce(topic, 10);
        TopicPartition tp = new TopicPartition(topic, 0);
        try (KafkaConsumer<String, String> c = new KafkaConsumer<>(groupProps("g-leaving", Map.of()))) {
            c.subscribe(List.of(topic));
            awaitAssignment(c);
            c.commitSync(Map.of(tp, new OffsetAndMetadata(5)));
        }
        try (org.apache.kafka.clients.admin.Admin admin = cluster.admin()) {
            var state = admin.describeConsumerGroups(List.of("g-leaving")).all().get(30, TimeUnit.SECONDS)
                    .get("g-leaving").groupState();
            assertEquals(org.apache.kafka.common.GroupState.EMPTY, state);
            admin.alterConsumerGroupOffsets("g-leaving", Map.of(tp, new OffsetAndMetadata(0)))
                    .all().get(30, TimeUnit.SECONDS);
        }
    }

    /**
     * kafkajs's finding 2: after DeleteRecords and an admin reset of a group's offsets to the
     * earliest, a stable OffsetFetch (read_committed) answers the offset, not
     * UNSTABLE_OFFSET_COMMIT: no transaction is open.
     */
    @Test
    void stableOffsetFetchAfterResetPastDeletedRecords() throws Exception {
        String topic = "reset-after-delete";
        cluster.createTopic(topic, 1, 3);
        produce(topic, 20);
        TopicPartition tp = new TopicPartition(topic, 0);
        try (org.apache.kafka.clients.admin.Admin admin = cluster.admin()) {
            admin.deleteRecords(Map.of(tp, org.apache.kafka.clients.admin.RecordsToDelete.beforeOffset(8)))
                    .all().get(30, TimeUnit.SECONDS);
            admin.alterConsumerGroupOffsets("g-reset", Map.of(tp, new OffsetAndMetadata(12)))
                    .all().get(30, TimeUnit.SECONDS);
            long earliest = admin.listOffsets(Map.of(tp, org.apache.kafka.clients.admin.OffsetSpec.earliest()))
                    .partitionResult(tp).get(30, TimeUnit.SECONDS).offset();
            assertEquals(8L, earliest);
            admin.alterConsumerGroupOffsets("g-reset", Map.of(tp, new OffsetAndMetadata(earliest)))
                    .all().get(30, TimeUnit.SECONDS);
            var stable = admin.listConsumerGroupOffsets("g-reset",
                    new org.apache.kafka.clients.admin.ListConsumerGroupOffsetsOptions().requireStable(true))
                    .partitionsToOffsetAndMetadata().get(30, TimeUnit.SECONDS);
            assertEquals(8L, stable.get(tp).offset());
        }
        Properties p = groupProps("g-reset", Map.of(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed"));
        try (KafkaConsumer<String, String> c = new KafkaConsumer<>(p)) {
            assertEquals(8L, c.committed(java.util.Set.of(tp)).get(tp).offset());
        }
    }

    /**
     * kafkajs's finding 3: a transactional offset commit that names the group but no member
     * (generation -1, no member id: what kafkajs and older clients send) is accepted while
     * the group has a live member.
     */
    @Test
    void transactionalCommitWithoutMemberWhileGroupIsActive() throws Exception {
        String topic = "txn-commit-no-member";
        cluster.createTopic(topic, 1, 3);
        produce(topic, 10);
        TopicPartition tp = new TopicPartition(topic, 0);
        try (KafkaConsumer<String, String> c = new KafkaConsumer<>(groupProps("g-no-member", Map.of()))) {
            c.subscribe(List.of(topic));
            awaitAssignment(c);
            Properties pp = ProducerTest.producerProps(cluster);
            pp.put(ProducerConfig.TRANSACTIONAL_ID_CONFIG, "no-member-txn");
            try (KafkaProducer<String, String> producer = new KafkaProducer<>(pp)) {
                producer.initTransactions();
                producer.beginTransaction();
                producer.send(new ProducerRecord<>(topic, "out"));
                producer.sendOffsetsToTransaction(Map.of(tp, new OffsetAndMetadata(7)),
                        new ConsumerGroupMetadata("g-no-member"));
                producer.commitTransaction();
            }
            FjordCluster.waitFor("the committed offset", Duration.ofSeconds(30),
                    () -> Long.valueOf(7L).equals(java.util.Optional.ofNullable(c.committed(java.util.Set.of(tp)).get(tp))
                            .map(OffsetAndMetadata::offset).orElse(null)));
        }
    }

    /**
     * KIP-1319: a transactional offset commit naming a generation for a group that does not
     * exist is refused; the 4.4 client reports it as a CommitFailedException, on Kafka 4.4
     * (run with -Dcompat.target=kafka) as on fjord.
     */
    @Test
    void transactionalCommitForAMissingGroupIsRefused() throws Exception {
        String topic = "txn-commit-missing-group";
        cluster.createTopic(topic, 1, 3);
        TopicPartition tp = new TopicPartition(topic, 0);
        Properties pp = ProducerTest.producerProps(cluster);
        pp.put(ProducerConfig.TRANSACTIONAL_ID_CONFIG, "missing-group-txn");
        Throwable refused = null;
        try (KafkaProducer<String, String> producer = new KafkaProducer<>(pp)) {
            producer.initTransactions();
            producer.beginTransaction();
            producer.send(new ProducerRecord<>(topic, "out"));
            try {
                producer.sendOffsetsToTransaction(Map.of(tp, new OffsetAndMetadata(1)),
                        new ConsumerGroupMetadata("no-such-group", 5, "member-1", java.util.Optional.empty()));
                producer.commitTransaction();
            } catch (Exception e) {
                refused = e;
            }
        }
        assertNotNull(refused, "the commit was accepted");
        List<String> chain = new ArrayList<>();
        for (Throwable t = refused; t != null; t = t.getCause()) {
            chain.add(t.getClass().getSimpleName());
        }
        System.out.println("missing group, TxnOffsetCommit refused with " + chain);
        assertEquals("CommitFailedException", chain.get(0), chain.toString());
    }

    /** Polls a subscribed consumer until it holds partitions. */
    static void awaitAssignment(KafkaConsumer<String, String> c) {
        FjordCluster.waitFor("an assignment", Duration.ofSeconds(60), () -> {
            c.poll(Duration.ofMillis(100));
            return !c.assignment().isEmpty();
        });
    }

    private static int countCommitted(String topic) {
        try (KafkaConsumer<String, String> c = new KafkaConsumer<>(ProducerTest.consumerProps(cluster, null, "read_committed"))) {
            List<TopicPartition> tps = c.partitionsFor(topic).stream()
                    .map(p -> new TopicPartition(topic, p.partition())).toList();
            long sum = 0;
            // The committed end minus markers is not a count: read what is there.
            c.assign(tps);
            c.seekToBeginning(tps);
            Map<TopicPartition, Long> end = c.endOffsets(tps);
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (tps.stream().anyMatch(tp -> c.position(tp) < end.get(tp)) && System.nanoTime() < deadline) {
                sum += c.poll(Duration.ofMillis(100)).count();
            }
            return (int) sum;
        }
    }

    /** One member of the storm: a consumer and a transactional producer in one thread. */
    private static final class Worker extends Thread {
        private final String in;
        private final String out;
        private final String txnId;
        private volatile boolean running = true;
        volatile Throwable failure;

        Worker(String in, String out, String txnId) {
            this.in = in;
            this.out = out;
            this.txnId = txnId;
        }

        void shutdown() throws InterruptedException {
            running = false;
            join(60_000);
        }

        @Override
        public void run() {
            Properties cp = ProducerTest.consumerProps(cluster, "storm", "read_committed");
            cp.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
            cp.put(ConsumerConfig.PARTITION_ASSIGNMENT_STRATEGY_CONFIG, CooperativeStickyAssignor.class.getName());
            cp.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, 50);
            Properties pp = ProducerTest.producerProps(cluster);
            pp.put(ProducerConfig.TRANSACTIONAL_ID_CONFIG, txnId);
            try (KafkaConsumer<String, String> c = new KafkaConsumer<>(cp);
                    KafkaProducer<String, String> p = new KafkaProducer<>(pp)) {
                p.initTransactions();
                c.subscribe(List.of(in));
                while (running) {
                    ConsumerRecords<String, String> records = c.poll(Duration.ofMillis(100));
                    if (records.isEmpty()) {
                        continue;
                    }
                    p.beginTransaction();
                    Map<TopicPartition, OffsetAndMetadata> offsets = new HashMap<>();
                    for (ConsumerRecord<String, String> r : records) {
                        p.send(new ProducerRecord<>(out, r.key(), r.value()));
                        offsets.put(new TopicPartition(r.topic(), r.partition()), new OffsetAndMetadata(r.offset() + 1));
                    }
                    ConsumerGroupMetadata meta = c.groupMetadata();
                    assertNotNull(meta);
                    try {
                        p.sendOffsetsToTransaction(offsets, meta);
                        p.commitTransaction();
                    } catch (org.apache.kafka.clients.consumer.CommitFailedException
                            | org.apache.kafka.common.errors.RebalanceInProgressException e) {
                        // The group moved on: this batch aborts; its new owner reads it again.
                        p.abortTransaction();
                        rewind(c, records.partitions());
                    }
                }
            } catch (Throwable t) {
                failure = t;
            }
        }

        private static void rewind(KafkaConsumer<String, String> c, Collection<TopicPartition> partitions) {
            Map<TopicPartition, OffsetAndMetadata> committed = c.committed(new HashSet<>(partitions));
            for (TopicPartition tp : partitions) {
                if (!c.assignment().contains(tp)) {
                    continue;
                }
                OffsetAndMetadata o = committed.get(tp);
                if (o == null) {
                    c.seekToBeginning(List.of(tp));
                } else {
                    c.seek(tp, o.offset());
                }
            }
        }
    }
}
