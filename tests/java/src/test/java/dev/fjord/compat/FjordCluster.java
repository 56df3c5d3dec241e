package dev.fjord.compat;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.File;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import java.util.stream.Collectors;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.TopicPartitionInfo;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.requests.AbstractResponse;
import org.apache.kafka.common.requests.MetadataRequest;
import org.apache.kafka.common.requests.MetadataResponse;
import org.apache.kafka.common.requests.RequestHeader;

/**
 * Real fjord processes on 127.0.0.1: combined (broker and controller) nodes 1..n, formatted
 * with one cluster id, on ports below Linux's ephemeral range so a node restarted on its port
 * never meets a client that connected to itself. Waits poll a condition up to a bound; nothing
 * sleeps to synchronise.
 */
public final class FjordCluster implements AutoCloseable {
    /** The ports the suite gives out: clear of config/'s fixed ports and the ephemeral range. */
    private static final int PORT_LOW = 30_000;
    /** See {@link #PORT_LOW}. */
    private static final int PORT_HIGH = 32_700;
    /** Ports already given out in this JVM. */
    private static final Set<Integer> GIVEN = new HashSet<>();

    /** One node's process, properties and ports. */
    public static final class Node {
        /** Its node.id. */
        public final int id;
        /** Its directory (properties, data, log). */
        public final Path dir;
        /** Its broker (client) port. */
        public final int brokerPort;
        /** Its controller port. */
        public final int controllerPort;
        /** Its metrics endpoint's port (fjord's metrics.listener; 0 on Kafka). */
        public int metricsPort;
        /** Its process while it runs (fjord). */
        Process process;
        /** Whether it runs (Kafka's nodes, started by kafka.sh). */
        boolean up;

        Node(int id, Path dir, int brokerPort, int controllerPort) {
            this.id = id;
            this.dir = dir;
            this.brokerPort = brokerPort;
            this.controllerPort = controllerPort;
        }

        /** host:port of its broker listener. */
        public String addr() {
            return "127.0.0.1:" + brokerPort;
        }

        /** True while its process runs. */
        public boolean running() {
            return up || (process != null && process.isAlive());
        }

        /** The last lines of its log, for failure messages. */
        public String logTail() {
            try {
                List<String> lines = Files.readAllLines(dir.resolve("server.log"));
                return String.join("\n", lines.subList(Math.max(0, lines.size() - 20), lines.size()));
            } catch (IOException e) {
                return "(no log: " + e + ")";
            }
        }
    }

    private final Path root;
    private final List<Node> nodes = new ArrayList<>();
    /** True when this cluster is Apache Kafka 4.4 (tests/kafka/kafka.sh), not fjord. */
    private boolean kafka;

    /**
     * True when the suite runs against Apache Kafka 4.4 (-Dcompat.target=kafka): the same
     * scenarios, the reference's answers.
     */
    public static boolean targetIsKafka() {
        return "kafka".equals(System.getProperty("compat.target"));
    }

    /** tests/kafka/kafka.sh, which runs Apache Kafka 4.4 from its jars. */
    static String kafkaScript() {
        return new File("../kafka/kafka.sh").getAbsolutePath();
    }

    private FjordCluster(Path root) {
        this.root = root;
    }

    /** The security properties every client of this cluster connects with. */
    private final Properties security = new Properties();

    /** The fjord binary under test (-Dfjord.binary, default the debug build). */
    public static String binary() {
        String b = System.getProperty("fjord.binary");
        if (b == null || b.isBlank() || b.startsWith("${")) {
            b = "../../target/debug/fjord";
        }
        return new File(b).getAbsolutePath();
    }

    /** A port free on 127.0.0.1 now, below the ephemeral range, never given out twice. */
    public static synchronized int freePort() {
        for (int i = 0; i < 10_000; i++) {
            int port = ThreadLocalRandom.current().nextInt(PORT_LOW, PORT_HIGH);
            if (GIVEN.contains(port)) {
                continue;
            }
            try (ServerSocket s = new ServerSocket()) {
                s.setReuseAddress(true);
                s.bind(new InetSocketAddress("127.0.0.1", port));
            } catch (IOException e) {
                continue;
            }
            GIVEN.add(port);
            return port;
        }
        throw new IllegalStateException("no free port below the ephemeral range");
    }

    /** Starts n combined nodes with the default settings. */
    public static FjordCluster start(int n) {
        return start(n, "");
    }

    /**
     * Formats and starts n combined nodes, each with the extra properties lines, and waits
     * until every broker is registered and the cluster creates a topic.
     */
    public static FjordCluster start(int n, String extra) {
        return start(n, extra, new Properties());
    }

    /**
     * As {@link #start(int, String)}, for a cluster whose clients (this class's own admin
     * included) connect with the security properties given.
     */
    public static FjordCluster start(int n, String extra, Properties security) {
        if (targetIsKafka()) {
            return startKafka(n, extra, security);
        }
        try {
            FjordCluster c = new FjordCluster(Files.createTempDirectory("fjord-java-"));
            c.security.putAll(security);
            List<String> voters = new ArrayList<>();
            for (int id = 1; id <= n; id++) {
                Node node = new Node(id, c.root.resolve("node" + id), freePort(), freePort());
                node.metricsPort = freePort();
                c.nodes.add(node);
                voters.add(id + "@127.0.0.1:" + node.controllerPort);
            }
            int rf = Math.min(n, 3);
            String cluster = run(binary(), "random-uuid").trim();
            for (Node node : c.nodes) {
                Files.createDirectories(node.dir);
                String props = String.join("\n",
                        "node.id=" + node.id,
                        "process.roles=broker,controller",
                        "listeners=PLAINTEXT://127.0.0.1:" + node.brokerPort
                                + ",CONTROLLER://127.0.0.1:" + node.controllerPort,
                        "controller.listener.names=CONTROLLER",
                        "controller.quorum.voters=" + String.join(",", voters),
                        "log.dirs=" + node.dir.resolve("data"),
                        "metrics.listener=http://127.0.0.1:" + node.metricsPort,
                        "offsets.topic.replication.factor=" + rf,
                        "transaction.state.log.replication.factor=" + rf,
                        "transaction.state.log.min.isr=" + Math.min(rf, 2),
                        "share.coordinator.state.topic.replication.factor=" + rf,
                        "share.coordinator.state.topic.min.isr=" + Math.min(rf, 2),
                        "group.initial.rebalance.delay.ms=0",
                        extra,
                        "");
                Files.writeString(node.dir.resolve("server.properties"), props);
                run(binary(), "format", "--config", node.dir.resolve("server.properties").toString(),
                        "--cluster-id", cluster);
            }
            for (Node node : c.nodes) {
                c.launch(node);
            }
            c.awaitReady();
            return c;
        } catch (IOException e) {
            throw new RuntimeException(e);
        }
    }

    /** n combined Kafka 4.4 nodes through kafka.sh (node i: broker port base+10i). */
    private static FjordCluster startKafka(int n, String extra, Properties security) {
        try {
            FjordCluster c = new FjordCluster(Files.createTempDirectory("kafka-java-"));
            c.security.putAll(security);
            c.kafka = true;
            int base = kafkaBase(n);
            ProcessBuilder pb = new ProcessBuilder(kafkaScript(), "start", c.root.toString(),
                    Integer.toString(n), Integer.toString(base));
            int rf = Math.min(n, 3);
            // Kafka 4 reads OAuth endpoints only when this JVM property names them, and Kerberos's
            // settings from the krb5.conf this one names: the nodes get those of the test's JVM.
            List<String> jvm = new ArrayList<>();
            for (String property : List.of("org.apache.kafka.sasl.oauthbearer.allowed.urls", "java.security.krb5.conf")) {
                String value = System.getProperty(property);
                if (value != null) {
                    jvm.add("-D" + property + "=" + value);
                }
            }
            pb.environment().put("KAFKA_JVM_OPTS", String.join(" ", jvm));
            pb.environment().put("KAFKA_EXTRA", String.join("\n",
                    "offsets.topic.replication.factor=" + rf,
                    "transaction.state.log.replication.factor=" + rf,
                    "transaction.state.log.min.isr=" + Math.min(rf, 2),
                    "share.coordinator.state.topic.replication.factor=" + rf,
                    "share.coordinator.state.topic.min.isr=" + Math.min(rf, 2),
                    extra));
            run(pb);
            for (int id = 1; id <= n; id++) {
                Node node = new Node(id, c.root.resolve("node-" + id), base + 10 * id, base + 10 * id + 1);
                node.up = true;
                c.nodes.add(node);
            }
            c.awaitReady();
            return c;
        } catch (IOException e) {
            throw new RuntimeException(e);
        }
    }

    /** A base port for kafka.sh with every port base..base+10n+1 free. */
    private static synchronized int kafkaBase(int n) {
        for (int i = 0; i < 1000; i++) {
            int base = ThreadLocalRandom.current().nextInt(PORT_LOW / 100, (PORT_HIGH - 10 * n - 2) / 100) * 100;
            boolean free = true;
            for (int id = 1; id <= n && free; id++) {
                for (int port : new int[] {base + 10 * id, base + 10 * id + 1}) {
                    if (GIVEN.contains(port)) {
                        free = false;
                        break;
                    }
                    try (ServerSocket s = new ServerSocket()) {
                        s.setReuseAddress(true);
                        s.bind(new InetSocketAddress("127.0.0.1", port));
                    } catch (IOException e) {
                        free = false;
                        break;
                    }
                }
            }
            if (free) {
                for (int id = 1; id <= n; id++) {
                    GIVEN.add(base + 10 * id);
                    GIVEN.add(base + 10 * id + 1);
                }
                return base;
            }
        }
        throw new IllegalStateException("no free ports for Kafka");
    }

    /**
     * The first value of partition 0 of topic, read from the beginning by a consumer with
     * the client settings given (within 30 s).
     */
    public static String firstValue(Properties settings, String topic) {
        Properties cp = new Properties();
        cp.putAll(settings);
        cp.put("key.deserializer", "org.apache.kafka.common.serialization.StringDeserializer");
        cp.put("value.deserializer", "org.apache.kafka.common.serialization.StringDeserializer");
        try (org.apache.kafka.clients.consumer.KafkaConsumer<String, String> consumer =
                new org.apache.kafka.clients.consumer.KafkaConsumer<>(cp)) {
            org.apache.kafka.common.TopicPartition tp = new org.apache.kafka.common.TopicPartition(topic, 0);
            consumer.assign(List.of(tp));
            consumer.seekToBeginning(List.of(tp));
            String[] got = new String[1];
            waitFor("a record of " + topic, Duration.ofSeconds(30), () -> {
                for (org.apache.kafka.clients.consumer.ConsumerRecord<String, String> r : consumer.poll(Duration.ofMillis(200))) {
                    got[0] = got[0] == null ? r.value() : got[0];
                }
                return got[0] != null;
            });
            return got[0];
        }
    }

    /** Runs a command to completion and returns its standard output; fails on a non-zero exit. */
    static String run(String... command) throws IOException {
        return run(new ProcessBuilder(command));
    }

    /** Runs a prepared command to completion and returns its output; fails on a non-zero exit. */
    static String run(ProcessBuilder pb) throws IOException {
        List<String> command = pb.command();
        Process p = pb.redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        try {
            if (p.waitFor() != 0) {
                throw new IOException(String.join(" ", command) + " failed:\n" + out);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException(e);
        }
        return out;
    }

    private void launch(Node node) throws IOException {
        ProcessBuilder pb = new ProcessBuilder(binary(), "server", "--config",
                node.dir.resolve("server.properties").toString());
        pb.environment().put("RUST_LOG", System.getenv().getOrDefault("FJORD_TEST_LOG", "info"));
        // The krb5.conf the test's JVM uses is the one fjord's GSSAPI library reads.
        String krb5 = System.getProperty("java.security.krb5.conf");
        if (krb5 != null) {
            pb.environment().put("KRB5_CONFIG", krb5);
        }
        pb.redirectErrorStream(true);
        pb.redirectOutput(ProcessBuilder.Redirect.appendTo(node.dir.resolve("server.log").toFile()));
        node.process = pb.start();
    }

    /** Waits until every running node's broker port accepts connections and is registered. */
    public void awaitReady() {
        for (Node node : nodes) {
            if (!node.running()) {
                continue;
            }
            waitFor("node " + node.id + " to listen", Duration.ofSeconds(60), () -> {
                if (node.process != null && !node.process.isAlive()) {
                    throw new IllegalStateException("node " + node.id + " exited:\n" + node.logTail());
                }
                try (Socket s = new Socket()) {
                    s.connect(new InetSocketAddress("127.0.0.1", node.brokerPort), 1000);
                    return true;
                } catch (IOException e) {
                    return false;
                }
            });
        }
        long running = nodes.stream().filter(Node::running).count();
        try (Admin admin = admin()) {
            waitFor("every running broker to register", Duration.ofSeconds(60), () -> {
                try {
                    return admin.describeCluster().nodes().get(5, TimeUnit.SECONDS).size() >= running;
                } catch (Exception e) {
                    return false;
                }
            });
        }
    }

    /** The bootstrap list of every node. */
    public String bootstrap() {
        return nodes.stream().map(Node::addr).collect(Collectors.joining(","));
    }

    /** Node id (1-based). */
    public Node node(int id) {
        return nodes.get(id - 1);
    }

    /** Every node. */
    public List<Node> nodes() {
        return nodes;
    }

    /** Client properties with bootstrap.servers set. */
    public Properties props() {
        Properties p = new Properties();
        p.putAll(security);
        p.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap());
        return p;
    }

    /** An Admin client on this cluster. */
    public Admin admin() {
        Properties p = props();
        p.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, 30_000);
        p.put(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, 10_000);
        return Admin.create(p);
    }

    /** Creates a topic and waits until every partition has a leader. */
    public void createTopic(String name, int partitions, int rf, Map<String, String> configs) {
        try (Admin admin = admin()) {
            admin.createTopics(List.of(new NewTopic(name, partitions, (short) rf).configs(configs)))
                    .all().get(30, TimeUnit.SECONDS);
            awaitLeaders(admin, List.of(name));
            awaitEveryBrokerKnows(name);
        } catch (Exception e) {
            throw new RuntimeException("creating " + name, e);
        }
    }

    /**
     * Waits until every running broker's own metadata has the topic with a leader for each
     * partition: each broker answers from its own image, which catches up after the
     * controller commits (on Kafka too), so a client's next request may reach one that has
     * not yet. Plaintext clusters only: a secured cluster's test waits on its own.
     */
    public void awaitEveryBrokerKnows(String topic) {
        if (!security.isEmpty()) {
            return;
        }
        for (Node n : nodes) {
            if (!n.running()) {
                continue;
            }
            waitFor("broker " + n.id + " to know " + topic, Duration.ofSeconds(30), () -> {
                try {
                    return brokerKnows(n, topic);
                } catch (IOException | RuntimeException e) {
                    return false;
                }
            });
        }
    }

    /** One Metadata request to this node alone: does it know every partition's leader? */
    private static boolean brokerKnows(Node n, String topic) throws IOException {
        short version = 12;
        RequestHeader header = new RequestHeader(ApiKeys.METADATA, version, "fjord-compat", 1);
        ByteBuffer body = new MetadataRequest.Builder(List.of(topic), false).build(version)
                .serializeWithHeader(header);
        try (Socket s = new Socket()) {
            s.connect(new InetSocketAddress("127.0.0.1", n.brokerPort), 5_000);
            s.setSoTimeout(5_000);
            DataOutputStream out = new DataOutputStream(s.getOutputStream());
            out.writeInt(body.remaining());
            out.write(body.array(), body.arrayOffset() + body.position(), body.remaining());
            out.flush();
            DataInputStream in = new DataInputStream(s.getInputStream());
            byte[] reply = new byte[in.readInt()];
            in.readFully(reply);
            MetadataResponse r = (MetadataResponse) AbstractResponse.parseResponse(ByteBuffer.wrap(reply), header);
            return r.topicMetadata().stream().anyMatch(t -> t.topic().equals(topic)
                    && t.error() == Errors.NONE && !t.partitionMetadata().isEmpty()
                    && t.partitionMetadata().stream().allMatch(p -> p.leaderId.orElse(-1) >= 0));
        }
    }

    /** Creates a topic with no configs. */
    public void createTopic(String name, int partitions, int rf) {
        createTopic(name, partitions, rf, Map.of());
    }

    /** Waits until every partition of the topics has a live leader. */
    public static void awaitLeaders(Admin admin, Collection<String> topics) {
        waitFor("leaders of " + topics, Duration.ofSeconds(60), () -> {
            try {
                Map<String, TopicDescription> d = admin.describeTopics(topics).allTopicNames()
                        .get(5, TimeUnit.SECONDS);
                return d.values().stream().flatMap(t -> t.partitions().stream())
                        .map(TopicPartitionInfo::leader).allMatch(l -> l != null && l.id() >= 0);
            } catch (Exception e) {
                return false;
            }
        });
    }

    /** SIGKILLs node id and waits for its process to end. */
    public void kill(int id) {
        Node node = node(id);
        if (kafka) {
            kafkaScript("kill", id);
            node.up = false;
            return;
        }
        if (node.process != null) {
            node.process.destroyForcibly();
            try {
                node.process.waitFor();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            node.process = null;
        }
    }

    /** Starts node id again on its data and ports, and waits until it serves. */
    public void restart(int id) {
        if (kafka) {
            kafkaScript("restart", id);
            node(id).up = true;
            awaitReady();
            return;
        }
        try {
            launch(node(id));
        } catch (IOException e) {
            throw new RuntimeException(e);
        }
        awaitReady();
    }

    /** Polls cond every 50 ms until it holds, failing after the bound. */
    public static void waitFor(String what, Duration bound, Supplier<Boolean> cond) {
        long deadline = System.nanoTime() + bound.toNanos();
        while (true) {
            if (Boolean.TRUE.equals(cond.get())) {
                return;
            }
            if (System.nanoTime() > deadline) {
                throw new AssertionError("timed out after " + bound + " waiting for " + what);
            }
            try {
                Thread.sleep(50);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new AssertionError("interrupted waiting for " + what);
            }
        }
    }

    private void kafkaScript(String verb, int id) {
        try {
            run(kafkaScript(), verb, root.toString(), Integer.toString(id));
        } catch (IOException e) {
            throw new RuntimeException(e);
        }
    }

    /** True when this cluster is Kafka 4.4. */
    public boolean isKafka() {
        return kafka;
    }

    @Override
    public void close() {
        for (Node node : nodes) {
            kill(node.id);
        }
        if (!"1".equals(System.getenv("FJORD_KEEP"))) {
            deleteTree(root.toFile());
        }
    }

    private static void deleteTree(File f) {
        File[] children = f.listFiles();
        if (children != null) {
            for (File c : children) {
                deleteTree(c);
            }
        }
        f.delete();
    }
}
