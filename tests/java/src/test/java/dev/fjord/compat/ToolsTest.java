package dev.fjord.compat;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.KafkaShareConsumer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.kstream.Materialized;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Kafka 4.4's own command-line tools (the classes behind bin/kafka-*.sh) against fjord, each
 * beside fjord's tool of the same name with the same flags: same exit code, same output once
 * ids and times are normalised. A runbook written for Kafka works on fjord with either tool.
 */
class ToolsTest {
    private static FjordCluster cluster;
    private static String bootstrap;
    /** Keeps a member in the share group tools-sg-live while the comparisons run. */
    private static final AtomicBoolean stopMember = new AtomicBoolean();
    private static Thread member;
    /** The streams application that keeps tools-streams-live Stable while the comparisons run. */
    private static KafkaStreams liveStreams;

    /** A share consumer of group on tools-a (implicit acknowledgement). */
    static KafkaShareConsumer<String, String> shareConsumer(String group) {
        Properties p = cluster.props();
        p.put(ConsumerConfig.GROUP_ID_CONFIG, group);
        p.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class.getName());
        p.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class.getName());
        KafkaShareConsumer<String, String> c = new KafkaShareConsumer<>(p);
        c.subscribe(List.of("tools-a"));
        return c;
    }

    @BeforeAll
    static void start() throws Exception {
        Assumptions.assumeFalse(FjordCluster.targetIsKafka(), "compares Kafka's tools with fjord's on fjord");
        cluster = FjordCluster.start(3);
        bootstrap = cluster.bootstrap().split(",")[0];
        cluster.createTopic("tools-a", 3, 3);
        try (KafkaProducer<String, String> p = new KafkaProducer<>(ProducerTest.producerProps(cluster))) {
            for (int i = 0; i < 30; i++) {
                p.send(new ProducerRecord<>("tools-a", i % 3, null, "r" + i));
            }
            p.flush();
        }
        Properties cp = ProducerTest.consumerProps(cluster, "tools-g", "read_uncommitted");
        try (KafkaConsumer<String, String> c = new KafkaConsumer<>(cp)) {
            c.commitSync(Map.of(new TopicPartition("tools-a", 0), new OffsetAndMetadata(4),
                    new TopicPartition("tools-a", 1), new OffsetAndMetadata(10)));
        }
        // A share group with start offsets and no members, and one with a member.
        ShareConsumerTest.cluster = cluster;
        ShareConsumerTest.newGroup("tools-sg", Map.of());
        // The console share consumers' groups (one per side) read from the beginning.
        ShareConsumerTest.newGroup("k-consoleshareconsumer", Map.of());
        ShareConsumerTest.newGroup("f-consoleshareconsumer", Map.of());
        try (KafkaShareConsumer<String, String> c = shareConsumer("tools-sg")) {
            int[] got = {0};
            FjordCluster.waitFor("tools-sg's records", Duration.ofSeconds(60), () -> {
                got[0] += c.poll(Duration.ofMillis(500)).count();
                return got[0] >= 30;
            });
            c.commitSync();
        }
        startStreamsGroups();
        KafkaShareConsumer<String, String> live = shareConsumer("tools-sg-live");
        member = new Thread(() -> {
            try (live) {
                while (!stopMember.get()) {
                    live.poll(Duration.ofMillis(200));
                }
            }
        });
        member.start();
        try (org.apache.kafka.clients.admin.Admin admin = cluster.admin()) {
            FjordCluster.waitFor("tools-sg-live to be stable", Duration.ofSeconds(60), () -> {
                try {
                    var d = admin.describeShareGroups(List.of("tools-sg-live")).all().get().get("tools-sg-live");
                    return d.groupState() == org.apache.kafka.common.GroupState.STABLE
                            && d.members().size() == 1
                            && !d.members().iterator().next().assignment().topicPartitions().isEmpty();
                } catch (Exception e) {
                    return false;
                }
            });
        }
    }

    /**
     * A Kafka Streams application (group.protocol=streams) counting tools-s by value: a
     * repartition topic and a changelog. tools-streams ran and stopped (an Empty group with
     * committed offsets); tools-streams-live runs on, every record processed and committed.
     */
    static KafkaStreams streamsApp(String app) throws Exception {
        StreamsBuilder b = new StreamsBuilder();
        b.<String, String>stream("tools-s").groupBy((k, v) -> v).count(Materialized.as("counts"));
        Properties p = cluster.props();
        p.put(StreamsConfig.APPLICATION_ID_CONFIG, app);
        p.put(StreamsConfig.GROUP_PROTOCOL_CONFIG, "streams");
        p.put(StreamsConfig.STATE_DIR_CONFIG, Files.createTempDirectory("tools-streams").toString());
        p.put(StreamsConfig.DEFAULT_KEY_SERDE_CLASS_CONFIG, Serdes.StringSerde.class);
        p.put(StreamsConfig.DEFAULT_VALUE_SERDE_CLASS_CONFIG, Serdes.StringSerde.class);
        p.put(StreamsConfig.REPLICATION_FACTOR_CONFIG, 3);
        p.put(StreamsConfig.COMMIT_INTERVAL_MS_CONFIG, 100);
        KafkaStreams s = new KafkaStreams(b.build(), p);
        s.start();
        return s;
    }

    /** Waits until app has committed the end of tools-s and of its repartition topic. */
    static void waitForCommitted(String app) {
        try (org.apache.kafka.clients.admin.Admin admin = cluster.admin()) {
            FjordCluster.waitFor(app + " caught up and committed", Duration.ofSeconds(120), () -> {
                try {
                    var committed = admin.listConsumerGroupOffsets(app).partitionsToOffsetAndMetadata().get();
                    var wanted = new java.util.HashMap<TopicPartition, org.apache.kafka.clients.admin.OffsetSpec>();
                    for (String t : List.of("tools-s", app + "-counts-repartition")) {
                        for (int i = 0; i < 3; i++) {
                            wanted.put(new TopicPartition(t, i), org.apache.kafka.clients.admin.OffsetSpec.latest());
                        }
                    }
                    var ends = admin.listOffsets(wanted).all().get();
                    return ends.entrySet().stream().allMatch(e -> committed.containsKey(e.getKey())
                            && committed.get(e.getKey()).offset() == e.getValue().offset());
                } catch (Exception e) {
                    return false;
                }
            });
        }
    }

    static void startStreamsGroups() throws Exception {
        cluster.createTopic("tools-s", 3, 3);
        try (KafkaProducer<String, String> p = new KafkaProducer<>(ProducerTest.producerProps(cluster))) {
            for (int i = 0; i < 60; i++) {
                p.send(new ProducerRecord<>("tools-s", i % 3, "k" + i, "v" + (i % 4)));
            }
            p.flush();
        }
        try (KafkaStreams done = streamsApp("tools-streams")) {
            waitForCommitted("tools-streams");
        }
        liveStreams = streamsApp("tools-streams-live");
        waitForCommitted("tools-streams-live");
        try (org.apache.kafka.clients.admin.Admin admin = cluster.admin()) {
            FjordCluster.waitFor("tools-streams-live Stable", Duration.ofSeconds(60), () -> {
                try {
                    var d = admin.describeStreamsGroups(List.of("tools-streams-live")).all().get()
                            .get("tools-streams-live");
                    return d.groupState() == org.apache.kafka.common.GroupState.STABLE;
                } catch (Exception e) {
                    return false;
                }
            });
        }
    }

    @AfterAll
    static void stop() throws InterruptedException {
        if (liveStreams != null) {
            liveStreams.close(Duration.ofSeconds(10));
        }
        stopMember.set(true);
        if (member != null) {
            member.join(30_000);
        }
        if (cluster != null) {
            cluster.close();
        }
    }

    /** What a tool printed and how it exited. */
    record Run(int exit, String out) {
    }

    /** Runs Kafka 4.4's tool class with args (through kafka.sh run, the 4.4.0 jars). */
    static Run kafkaTool(String cls, List<String> args, String stdin) throws Exception {
        List<String> cmd = new ArrayList<>(List.of(FjordCluster.kafkaScript(), "run", cls));
        cmd.addAll(args);
        return exec(cmd, stdin);
    }

    /** Runs fjord's tool with args. */
    static Run fjordTool(String tool, List<String> args, String stdin) throws Exception {
        List<String> cmd = new ArrayList<>(List.of(FjordCluster.binary(), tool));
        cmd.addAll(args);
        return exec(cmd, stdin);
    }

    static Run exec(List<String> cmd, String stdin) throws Exception {
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true);
        Process p = pb.start();
        if (stdin != null) {
            p.getOutputStream().write(stdin.getBytes(StandardCharsets.UTF_8));
        }
        p.getOutputStream().close();
        byte[] out = p.getInputStream().readAllBytes();
        if (!p.waitFor(120, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new AssertionError("timed out: " + cmd);
        }
        return new Run(p.exitValue(), new String(out, StandardCharsets.UTF_8));
    }

    /**
     * Output as a comparable list of lines: ids and times replaced, the JVM's logging noise and
     * stack traces dropped (a trace's lines, "Caused by:" and the exception class before a
     * message), blank lines and trailing blanks removed. Kafka's tools print maps in hash
     * order, so the lines are sorted.
     */
    static List<String> normalise(String out, String name, String placeholder) {
        String s = out;
        if (name != null) {
            s = s.replace(name, placeholder);
        }
        // A trace's first line repeats the message the tool printed (or hides it: below, a
        // failing fjord tool may say more than Kafka's).
        s = s.replaceAll("(?m)^java\\..*(\\n|$)", "");
        s = s.replaceAll("(?<![A-Za-z0-9_.-])[A-Za-z0-9_-]{22}(?![A-Za-z0-9_.-])", "<id>")
                .replaceAll("\\b\\d{13}\\b", "<time>")
                .replaceAll("(?:java|org)\\.[A-Za-z0-9_.$]+(?:Exception|Error): ", "");
        return s.lines()
                .filter(l -> !l.contains("SLF4J") && !l.startsWith("WARNING: ") && !l.contains("log4j"))
                .filter(l -> !l.startsWith("Caused by:") && !l.matches("\\s+at .*") && !l.matches("\\s*\\.\\.\\. \\d+ more"))
                .map(l -> l.replaceAll("[ \\t]+$", ""))
                .map(ToolsTest::sortPartitions)
                .filter(l -> !l.isEmpty())
                .sorted()
                .toList();
    }

    /** kafka-log-dirs' JSON with each dir's partitions in name order (Kafka's are in hash order). */
    static String sortPartitions(String line) {
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("\\[(\\{\"partition\"[^\\]]*)\\]").matcher(line);
        StringBuilder out = new StringBuilder();
        while (m.find()) {
            List<String> items = new ArrayList<>(Arrays.asList(m.group(1).split("(?<=\\}),(?=\\{)")));
            items.sort(null);
            m.appendReplacement(out, java.util.regex.Matcher.quoteReplacement("[" + String.join(",", items) + "]"));
        }
        m.appendTail(out);
        return out.toString();
    }

    /**
     * One comparison: the tool (Kafka's class, fjord's subcommand), its flags with {B} the
     * bootstrap server and {T} a topic (or group) name each side gets its own of.
     */
    static Arguments c(String label, String cls, String tool, String args) {
        return Arguments.of(label, cls, tool, args);
    }

    static Stream<Arguments> comparisons() {
        String topics = "org.apache.kafka.tools.TopicCommand";
        String configs = "org.apache.kafka.tools.ConfigCommand";
        String groups = "org.apache.kafka.tools.consumer.group.ConsumerGroupCommand";
        String share = "org.apache.kafka.tools.consumer.group.ShareGroupCommand";
        return Stream.concat(streamsComparisons(), Stream.of(
                c("console share consumer", "org.apache.kafka.tools.consumer.ConsoleShareConsumer",
                        "kafka-console-share-consumer",
                        "--bootstrap-server {B} --topic tools-a --group {T} --max-messages 30 --timeout-ms 30000"),
                c("share list", share, "kafka-share-groups", "--bootstrap-server {B} --list"),
                c("share list state", share, "kafka-share-groups", "--bootstrap-server {B} --list --state"),
                c("share list stable", share, "kafka-share-groups", "--bootstrap-server {B} --list --state Stable"),
                c("share describe", share, "kafka-share-groups", "--bootstrap-server {B} --describe --group tools-sg"),
                c("share describe verbose", share, "kafka-share-groups",
                        "--bootstrap-server {B} --describe --group tools-sg --offsets --verbose"),
                c("share describe members", share, "kafka-share-groups",
                        "--bootstrap-server {B} --describe --group tools-sg-live --members"),
                c("share describe members verbose", share, "kafka-share-groups",
                        "--bootstrap-server {B} --describe --group tools-sg-live --members --verbose"),
                c("share describe state", share, "kafka-share-groups",
                        "--bootstrap-server {B} --describe --group tools-sg-live --state"),
                c("share describe state verbose", share, "kafka-share-groups",
                        "--bootstrap-server {B} --describe --group tools-sg-live --state --verbose"),
                c("share describe empty members", share, "kafka-share-groups",
                        "--bootstrap-server {B} --describe --group tools-sg --members"),
                c("share describe unknown", share, "kafka-share-groups", "--bootstrap-server {B} --describe --group nope"),
                c("share reset dry-run", share, "kafka-share-groups",
                        "--bootstrap-server {B} --reset-offsets --group tools-sg --topic tools-a --to-earliest --dry-run"),
                c("share reset export", share, "kafka-share-groups",
                        "--bootstrap-server {B} --reset-offsets --group tools-sg --all-topics --to-current --dry-run --export"),
                c("share reset live group", share, "kafka-share-groups",
                        "--bootstrap-server {B} --reset-offsets --group tools-sg-live --all-topics --to-latest --execute"),
                c("share reset new group", share, "kafka-share-groups",
                        "--bootstrap-server {B} --reset-offsets --group {T} --topic tools-a:1 --to-offset 4 --execute"),
                c("share delete offsets unknown group", share, "kafka-share-groups",
                        "--bootstrap-server {B} --delete-offsets --group {T} --topic tools-a"),
                c("share delete live group", share, "kafka-share-groups", "--bootstrap-server {B} --delete --group tools-sg-live"),
                c("share delete unknown", share, "kafka-share-groups", "--bootstrap-server {B} --delete --group {T}"),
                c("topics describe", topics, "kafka-topics", "--bootstrap-server {B} --describe --topic tools-a"),
                c("topics create", topics, "kafka-topics",
                        "--bootstrap-server {B} --create --topic {T} --partitions 2 --replication-factor 3"),
                c("topics create existing", topics, "kafka-topics",
                        "--bootstrap-server {B} --create --topic tools-a --partitions 1 --replication-factor 1"),
                c("topics create bad rf", topics, "kafka-topics",
                        "--bootstrap-server {B} --create --topic {T} --partitions 1 --replication-factor 5"),
                c("topics create if-not-exists", topics, "kafka-topics",
                        "--bootstrap-server {B} --create --if-not-exists --topic tools-a --partitions 1"),
                c("topics describe unknown", topics, "kafka-topics", "--bootstrap-server {B} --describe --topic nope"),
                c("topics under-replicated", topics, "kafka-topics",
                        "--bootstrap-server {B} --describe --under-replicated-partitions"),
                c("topics at-min-isr", topics, "kafka-topics", "--bootstrap-server {B} --describe --at-min-isr-partitions"),
                c("configs describe topic", configs, "kafka-configs",
                        "--bootstrap-server {B} --describe --entity-type topics --entity-name tools-a"),
                c("configs describe topic all", configs, "kafka-configs",
                        "--bootstrap-server {B} --describe --all --entity-type topics --entity-name tools-a"),
                c("configs describe broker", configs, "kafka-configs",
                        "--bootstrap-server {B} --describe --entity-type brokers --entity-name 1"),
                c("configs alter unknown topic", configs, "kafka-configs",
                        "--bootstrap-server {B} --alter --entity-type topics --entity-name nope --add-config retention.ms=1000"),
                c("configs alter group", configs, "kafka-configs",
                        "--bootstrap-server {B} --alter --entity-type groups --entity-name {T} --add-config consumer.session.timeout.ms=50000,consumer.heartbeat.interval.ms=6000"),
                c("configs alter group out of range", configs, "kafka-configs",
                        "--bootstrap-server {B} --alter --entity-type groups --entity-name {T} --add-config consumer.session.timeout.ms=1000"),
                c("configs alter group unknown key", configs, "kafka-configs",
                        "--bootstrap-server {B} --alter --group {T} --add-config consumer.foo=1"),
                c("configs describe group all", configs, "kafka-configs",
                        "--bootstrap-server {B} --describe --all --entity-type groups --entity-name {T}"),
                c("configs describe group default", configs, "kafka-configs",
                        "--bootstrap-server {B} --describe --entity-type groups --entity-default"),
                c("configs alter client-metrics", configs, "kafka-configs",
                        "--bootstrap-server {B} --alter --entity-type client-metrics --entity-name {T}-cm --add-config metrics=org.apache.kafka.producer.,interval.ms=10000,match=[client_id=app-.*]"),
                c("configs alter client-metrics out of range", configs, "kafka-configs",
                        "--bootstrap-server {B} --alter --entity-type client-metrics --entity-name {T}-cm --add-config interval.ms=1"),
                c("configs describe client-metrics", configs, "kafka-configs",
                        "--bootstrap-server {B} --describe --entity-type client-metrics --entity-name {T}-cm"),
                c("configs describe client-metrics all", configs, "kafka-configs",
                        "--bootstrap-server {B} --describe --all --entity-type client-metrics --entity-name {T}-cm"),
                c("configs alter client-metrics default", configs, "kafka-configs",
                        "--bootstrap-server {B} --alter --entity-type client-metrics --entity-default --add-config interval.ms=1000"),
                c("configs describe client-metrics default", configs, "kafka-configs",
                        "--bootstrap-server {B} --describe --entity-type client-metrics --entity-default"),
                c("groups list", groups, "kafka-consumer-groups", "--bootstrap-server {B} --list"),
                c("groups describe", groups, "kafka-consumer-groups", "--bootstrap-server {B} --describe --group tools-g"),
                c("groups describe state", groups, "kafka-consumer-groups",
                        "--bootstrap-server {B} --describe --group tools-g --state"),
                c("groups describe members", groups, "kafka-consumer-groups",
                        "--bootstrap-server {B} --describe --group tools-g --members"),
                c("groups describe unknown", groups, "kafka-consumer-groups", "--bootstrap-server {B} --describe --group nope"),
                c("groups reset dry-run", groups, "kafka-consumer-groups",
                        "--bootstrap-server {B} --reset-offsets --group tools-g --topic tools-a --to-earliest --dry-run"),
                c("groups reset export", groups, "kafka-consumer-groups",
                        "--bootstrap-server {B} --reset-offsets --group tools-g --all-topics --to-latest --dry-run --export"),
                c("groups reset to-datetime", groups, "kafka-consumer-groups",
                        "--bootstrap-server {B} --reset-offsets --group tools-g --topic tools-a:0 --to-datetime 2020-01-01T00:00:00.000 --dry-run"),
                c("groups reset by-duration", groups, "kafka-consumer-groups",
                        "--bootstrap-server {B} --reset-offsets --group tools-g --topic tools-a --by-duration PT1H --dry-run"),
                c("groups reset shift-by", groups, "kafka-consumer-groups",
                        "--bootstrap-server {B} --reset-offsets --group tools-g --topic tools-a:0 --shift-by -2 --dry-run"),
                c("leader election preferred", "org.apache.kafka.tools.LeaderElectionCommand", "kafka-leader-election",
                        "--bootstrap-server {B} --election-type preferred --topic tools-a --partition 0"),
                c("transactions list", "org.apache.kafka.tools.TransactionsCommand", "kafka-transactions",
                        "--bootstrap-server {B} list"),
                c("transactions describe-producers", "org.apache.kafka.tools.TransactionsCommand", "kafka-transactions",
                        "--bootstrap-server {B} describe-producers --topic tools-a --partition 0"),
                c("features describe", "org.apache.kafka.tools.FeatureCommand", "kafka-features",
                        "--bootstrap-server {B} describe"),
                c("features upgrade --metadata dry run", "org.apache.kafka.tools.FeatureCommand", "kafka-features",
                        "--bootstrap-server {B} upgrade --metadata 4.4 --dry-run"),
                c("features --release-version with --feature", "org.apache.kafka.tools.FeatureCommand", "kafka-features",
                        "--bootstrap-server {B} upgrade --release-version 4.4 --feature group.version=1"),
                c("metadata-quorum status", "org.apache.kafka.tools.MetadataQuorumCommand", "kafka-metadata-quorum",
                        "--bootstrap-server {B} describe --status"),
                c("cluster id", "org.apache.kafka.tools.ClusterTool", "kafka-cluster", "cluster-id --bootstrap-server {B}"),
                c("acls list without authorizer", "org.apache.kafka.tools.AclCommand", "kafka-acls",
                        "--bootstrap-server {B} --list"),
                c("log-dirs describe", "org.apache.kafka.tools.LogDirsCommand", "kafka-log-dirs",
                        "--bootstrap-server {B} --describe --topic-list tools-a --broker-list 1")));
    }

    /** kafka-streams-groups: a live (Stable) group, a stopped (Empty) one, and groups that do not exist. */
    static Stream<Arguments> streamsComparisons() {
        String streams = "org.apache.kafka.tools.streams.StreamsGroupCommand";
        String t = "kafka-streams-groups";
        String live = "--bootstrap-server {B} --describe --group tools-streams-live";
        return Stream.of(
                c("streams list", streams, t, "--bootstrap-server {B} --list"),
                c("streams list state", streams, t, "--bootstrap-server {B} --list --state"),
                c("streams list stable", streams, t, "--bootstrap-server {B} --list --state Stable"),
                c("streams describe", streams, t, live),
                c("streams describe verbose", streams, t, live + " --offsets --verbose"),
                c("streams describe members", streams, t, live + " --members"),
                c("streams describe members verbose", streams, t, live + " --members --verbose"),
                c("streams describe state", streams, t, live + " --state"),
                c("streams describe state verbose", streams, t, live + " --state --verbose"),
                c("streams describe topology", streams, t, live + " --topology"),
                c("streams describe empty group", streams, t, "--bootstrap-server {B} --describe --group tools-streams"),
                c("streams describe empty state", streams, t,
                        "--bootstrap-server {B} --describe --group tools-streams --state"),
                c("streams describe unknown", streams, t, "--bootstrap-server {B} --describe --group {T}"),
                c("streams reset dry-run", streams, t,
                        "--bootstrap-server {B} --reset-offsets --group tools-streams --all-input-topics --to-earliest --dry-run"),
                c("streams reset export", streams, t,
                        "--bootstrap-server {B} --reset-offsets --group tools-streams --input-topic tools-s:1 --shift-by -3 --dry-run --export"),
                c("streams reset to-current", streams, t,
                        "--bootstrap-server {B} --reset-offsets --group tools-streams --all-input-topics --to-current --dry-run"),
                c("streams reset live group", streams, t,
                        "--bootstrap-server {B} --reset-offsets --group tools-streams-live --all-input-topics --to-latest --execute"),
                c("streams reset unknown topic", streams, t,
                        "--bootstrap-server {B} --reset-offsets --group tools-streams --input-topic {T} --to-latest --dry-run"),
                c("streams reset unknown group", streams, t,
                        "--bootstrap-server {B} --reset-offsets --group {T} --input-topic tools-s --to-latest --dry-run"),
                c("streams delete offsets live group", streams, t,
                        "--bootstrap-server {B} --delete-offsets --group tools-streams-live --input-topic tools-s"),
                c("streams delete offsets unknown group", streams, t,
                        "--bootstrap-server {B} --delete-offsets --group {T} --input-topic tools-s"),
                c("streams delete live group", streams, t, "--bootstrap-server {B} --delete --group tools-streams-live"),
                c("streams delete unknown", streams, t, "--bootstrap-server {B} --delete --group {T}"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("comparisons")
    void sameExitAndOutput(String label, String cls, String tool, String args) throws Exception {
        String suffix = label.replaceAll("[^a-z]", "");
        String kName = "k-" + suffix;
        String fName = "f-" + suffix;
        Run k = kafkaTool(cls, split(args, kName), null);
        Run f = fjordTool(tool, split(args, fName), null);
        List<String> kOut = normalise(k.out(), kName, "{T}");
        List<String> fOut = normalise(f.out(), fName, "{T}");
        assertEquals(k.exit(), f.exit(), label + ": exit codes\nkafka:\n" + k.out() + "\nfjord:\n" + f.out());
        if (k.exit() == 0) {
            assertEquals(String.join("\n", kOut), String.join("\n", fOut), label + ": output");
        } else {
            // A failure: every line Kafka's tool prints, fjord's prints too (fjord's may add
            // the message Kafka's leaves in its stack trace).
            assertTrue(fOut.containsAll(kOut), label + ": output\nkafka:\n" + String.join("\n", kOut)
                    + "\nfjord:\n" + String.join("\n", fOut));
        }
    }

    private static List<String> split(String args, String name) {
        return Arrays.stream(args.replace("{B}", bootstrap).replace("{T}", name).split(" ")).toList();
    }

    /**
     * kafka-streams-groups' changes, each tool on a stopped application of its own: a reset with
     * --execute, then the group's deletion with its internal topics. Same output, the offsets
     * reset, the group and its internal topics gone.
     */
    @Test
    void streamsGroupsResetAndDeletedAlike() throws Exception {
        for (String app : List.of("tools-sk", "tools-sf")) {
            try (KafkaStreams s = streamsApp(app)) {
                waitForCommitted(app);
            }
        }
        String cls = "org.apache.kafka.tools.streams.StreamsGroupCommand";
        for (String args : List.of(
                "--bootstrap-server {B} --reset-offsets --group {T} --all-input-topics --to-offset 2 --execute",
                "--bootstrap-server {B} --delete --group {T} --delete-all-internal-topics")) {
            Run k = kafkaTool(cls, split(args, "tools-sk"), null);
            Run f = fjordTool("kafka-streams-groups", split(args, "tools-sf"), null);
            assertEquals(0, k.exit(), k.out());
            assertEquals(0, f.exit(), f.out());
            assertEquals(normalise(k.out(), "tools-sk", "{T}"), normalise(f.out(), "tools-sf", "{T}"), args);
            if (args.contains("--reset-offsets")) {
                try (org.apache.kafka.clients.admin.Admin admin = cluster.admin()) {
                    for (String app : List.of("tools-sk", "tools-sf")) {
                        var offsets = admin.listConsumerGroupOffsets(app).partitionsToOffsetAndMetadata()
                                .get(30, TimeUnit.SECONDS);
                        for (int p = 0; p < 3; p++) {
                            assertEquals(2, offsets.get(new TopicPartition("tools-s", p)).offset(), app + " reset");
                        }
                    }
                }
            }
        }
        try (org.apache.kafka.clients.admin.Admin admin = cluster.admin()) {
            var names = admin.listTopics().names().get(30, TimeUnit.SECONDS);
            for (String app : List.of("tools-sk", "tools-sf")) {
                assertTrue(names.stream().noneMatch(n -> n.startsWith(app + "-")), app + "'s internal topics: " + names);
                var groups = admin.listGroups().all().get(30, TimeUnit.SECONDS);
                assertTrue(groups.stream().noneMatch(g -> g.groupId().equals(app)), app + " deleted");
            }
        }
    }

    /**
     * Kafka 4.4's `kafka-features upgrade --release-version 4.4` on fjord's static quorum
     * (controller.quorum.voters): it asks for every feature of the release, kraft.version 1
     * among them, and fjord's leader moves the voters into the metadata log as Kafka's does.
     */
    @Test
    void kafkasReleaseUpgradeMovesTheStaticQuorum() throws Exception {
        List<String> describe = List.of("--bootstrap-server", bootstrap, "describe");
        String feature = "org.apache.kafka.tools.FeatureCommand";
        Run[] up = new Run[1];
        // The voters announce themselves to the leader within seconds of its election.
        FjordCluster.waitFor("Kafka's release upgrade", Duration.ofSeconds(60), () -> {
            try {
                up[0] = kafkaTool(feature, List.of("--bootstrap-server", bootstrap, "upgrade",
                        "--release-version", "4.4"), null);
            } catch (Exception e) {
                throw new RuntimeException(e);
            }
            return up[0].exit() == 0;
        });
        assertTrue(up[0].out().contains("kraft.version was upgraded to 1."), up[0].out());
        Run k = kafkaTool(feature, describe, null);
        Run f = fjordTool("kafka-features", describe, null);
        assertEquals(0, k.exit(), k.out());
        assertEquals(normalise(k.out(), null, null), normalise(f.out(), null, null));
        assertTrue(f.out().lines().anyMatch(l -> l.startsWith("Feature: kraft.version ")
                && l.contains("FinalizedVersionLevel: 1 ")), f.out());
    }

    /** Kafka's console producer writes, fjord's console consumer reads, and the other way round. */
    @Test
    void consoleToolsInterchange() throws Exception {
        cluster.createTopic("console", 1, 3);
        Run produced = kafkaTool("org.apache.kafka.tools.ConsoleProducer",
                List.of("--bootstrap-server", bootstrap, "--topic", "console", "--property", "parse.key=true",
                        "--property", "key.separator=:"), "a:1\nb:2\n");
        assertEquals(0, produced.exit(), produced.out());
        Run produced2 = fjordTool("kafka-console-producer",
                List.of("--bootstrap-server", bootstrap, "--topic", "console", "--property", "parse.key=true",
                        "--property", "key.separator=:"), "c:3\n");
        assertEquals(0, produced2.exit(), produced2.out());
        List<String> args = List.of("--bootstrap-server", bootstrap, "--topic", "console", "--from-beginning",
                "--max-messages", "3", "--property", "print.key=true", "--property", "key.separator=:");
        Run kc = kafkaTool("org.apache.kafka.tools.consumer.ConsoleConsumer", args, null);
        Run fc = fjordTool("kafka-console-consumer", args, null);
        assertEquals(0, kc.exit(), kc.out());
        assertEquals(0, fc.exit(), fc.out());
        assertEquals(List.of("a:1", "b:2", "c:3"), records(kc.out()));
        assertEquals(records(kc.out()), records(fc.out()));
    }

    private static List<String> records(String out) {
        return out.lines().filter(l -> l.matches("[a-c]:\\d")).toList();
    }

    /** Kafka's tools fjord has no tool of its own for: they run against fjord and succeed. */
    @Test
    void kafkaOnlyTools() throws Exception {
        Run offsets = kafkaTool("org.apache.kafka.tools.GetOffsetShell",
                List.of("--bootstrap-server", bootstrap, "--topic", "tools-a"), null);
        assertEquals(0, offsets.exit(), offsets.out());
        assertEquals(List.of("tools-a:0:10", "tools-a:1:10", "tools-a:2:10"),
                offsets.out().lines().filter(l -> l.startsWith("tools-a:")).sorted().toList());

        cluster.createTopic("trimmed", 1, 3);
        try (KafkaProducer<String, String> p = new KafkaProducer<>(ProducerTest.producerProps(cluster))) {
            for (int i = 0; i < 10; i++) {
                p.send(new ProducerRecord<>("trimmed", "r" + i));
            }
            p.flush();
        }
        Path json = Files.createTempFile("delete-records", ".json");
        Files.writeString(json, "{\"partitions\":[{\"topic\":\"trimmed\",\"partition\":0,\"offset\":6}],\"version\":1}");
        Run deleted = kafkaTool("org.apache.kafka.tools.DeleteRecordsCommand",
                List.of("--bootstrap-server", bootstrap, "--offset-json-file", json.toString()), null);
        assertEquals(0, deleted.exit(), deleted.out());
        assertTrue(deleted.out().contains("partition: trimmed-0\tlow_watermark: 6"), deleted.out());

        Run perf = kafkaTool("org.apache.kafka.tools.ProducerPerformance",
                List.of("--topic", "perf", "--num-records", "5000", "--record-size", "100", "--throughput", "-1",
                        "--producer-props", "bootstrap.servers=" + bootstrap, "acks=all"), null);
        assertEquals(0, perf.exit(), perf.out());
        assertTrue(perf.out().contains("5000 records sent"), perf.out());
        Run cperf = kafkaTool("org.apache.kafka.tools.ConsumerPerformance",
                List.of("--bootstrap-server", bootstrap, "--topic", "perf", "--messages", "5000"), null);
        assertEquals(0, cperf.exit(), cperf.out());

        Run vp = kafkaTool("org.apache.kafka.tools.VerifiableProducer",
                List.of("--bootstrap-server", bootstrap, "--topic", "verifiable", "--max-messages", "200", "--acks", "-1"),
                null);
        assertEquals(0, vp.exit(), vp.out());
        assertTrue(vp.out().contains("\"sent\":200,\"acked\":200"), vp.out());
        Run vc = kafkaTool("org.apache.kafka.tools.VerifiableConsumer",
                List.of("--bootstrap-server", bootstrap, "--topic", "verifiable", "--group-id", "verifiable-g",
                        "--max-messages", "200", "--reset-policy", "earliest"), null);
        assertEquals(0, vc.exit(), vc.out());
        assertTrue(vc.out().contains("\"name\":\"shutdown_complete\""), vc.out());
        long consumed = vc.out().lines().filter(l -> l.contains("\"name\":\"records_consumed\""))
                .mapToLong(l -> Long.parseLong(l.replaceAll(".*\"count\":(\\d+).*", "$1"))).sum();
        assertEquals(200, consumed);

        // kafka-client-metrics (KIP-714): subscriptions are CLIENT_METRICS config resources.
        Run alter = kafkaTool("org.apache.kafka.tools.ClientMetricsCommand",
                List.of("--bootstrap-server", bootstrap, "--alter", "--name", "producers",
                        "--metrics", "org.apache.kafka.producer.", "--interval", "1000",
                        "--match", "client_id=app-.*"), null);
        assertEquals(0, alter.exit(), alter.out());
        Run list = kafkaTool("org.apache.kafka.tools.ClientMetricsCommand",
                List.of("--bootstrap-server", bootstrap, "--list"), null);
        assertEquals(0, list.exit(), list.out());
        assertTrue(list.out().lines().anyMatch(l -> l.trim().equals("producers")), list.out());
        Run describe = kafkaTool("org.apache.kafka.tools.ClientMetricsCommand",
                List.of("--bootstrap-server", bootstrap, "--describe", "--name", "producers"), null);
        assertEquals(0, describe.exit(), describe.out());
        assertTrue(describe.out().contains("interval.ms=1000"), describe.out());
        assertTrue(describe.out().contains("metrics=org.apache.kafka.producer."), describe.out());
        Run bad = kafkaTool("org.apache.kafka.tools.ClientMetricsCommand",
                List.of("--bootstrap-server", bootstrap, "--alter", "--name", "producers", "--interval", "5"), null);
        assertTrue(bad.exit() != 0, bad.out());
        assertTrue(bad.out().contains("interval must be between 100 and 3600000"), bad.out());
        Run delete = kafkaTool("org.apache.kafka.tools.ClientMetricsCommand",
                List.of("--bootstrap-server", bootstrap, "--delete", "--name", "producers"), null);
        assertEquals(0, delete.exit(), delete.out());
    }
}
