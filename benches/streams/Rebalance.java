import java.nio.file.Files;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Properties;
import java.util.Set;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.CloseOptions;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.kstream.Materialized;

/**
 * The time N Kafka Streams instances (one thread each) take to rebalance after one leaves
 * (closed with LEAVE_GROUP) and after one joins: from the close or start call until every
 * instance left is RUNNING and the tasks are owned once each (after a join, the new instance
 * among the owners). Args: bootstrap, group.protocol, instances, rounds. Prints one line per
 * round ("leave MS join MS"), then "median LEAVE JOIN".
 */
public class Rebalance {
    static final int PARTITIONS = 16;

    static KafkaStreams instance(String bootstrap, String protocol, String app, int i) throws Exception {
        StreamsBuilder b = new StreamsBuilder();
        b.<String, String>stream(app + "-in").groupByKey().count(Materialized.as("counts"));
        Properties p = new Properties();
        p.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        p.put(StreamsConfig.APPLICATION_ID_CONFIG, app);
        p.put(StreamsConfig.GROUP_PROTOCOL_CONFIG, protocol);
        p.put(StreamsConfig.STATE_DIR_CONFIG, Files.createTempDirectory("rebalance-" + i).toString());
        p.put(StreamsConfig.DEFAULT_KEY_SERDE_CLASS_CONFIG, Serdes.StringSerde.class);
        p.put(StreamsConfig.DEFAULT_VALUE_SERDE_CLASS_CONFIG, Serdes.StringSerde.class);
        p.put(StreamsConfig.REPLICATION_FACTOR_CONFIG, 1);
        KafkaStreams s = new KafkaStreams(b.build(), p);
        s.start();
        return s;
    }

    /** The active tasks each instance runs now. */
    static List<Set<String>> tasks(List<KafkaStreams> apps) {
        List<Set<String>> out = new ArrayList<>();
        for (KafkaStreams a : apps) {
            Set<String> mine = new HashSet<>();
            a.metadataForLocalThreads().forEach(t -> t.activeTasks().forEach(m -> mine.add(m.taskId().toString())));
            out.add(mine);
        }
        return out;
    }

    /** True when every app is RUNNING, the PARTITIONS tasks are owned once each, and each app has one. */
    static boolean settled(List<KafkaStreams> apps) {
        if (apps.stream().anyMatch(a -> a.state() != KafkaStreams.State.RUNNING)) {
            return false;
        }
        List<Set<String>> owned = tasks(apps);
        Set<String> all = new HashSet<>();
        int count = 0;
        for (Set<String> t : owned) {
            if (t.isEmpty()) {
                return false;
            }
            all.addAll(t);
            count += t.size();
        }
        return all.size() == PARTITIONS && count == PARTITIONS;
    }

    static long waitSettled(List<KafkaStreams> apps, long start) throws InterruptedException {
        long deadline = start + 300_000_000_000L;
        while (!settled(apps)) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("no settled assignment within 300 s: " + tasks(apps));
            }
            Thread.sleep(5);
        }
        return (System.nanoTime() - start) / 1_000_000;
    }

    public static void main(String[] args) throws Exception {
        String bootstrap = args[0], protocol = args[1];
        int n = Integer.parseInt(args[2]), rounds = Integer.parseInt(args[3]);
        String app = "rebalance-" + protocol;
        Properties ap = new Properties();
        ap.put("bootstrap.servers", bootstrap);
        try (Admin admin = Admin.create(ap)) {
            admin.createTopics(List.of(new NewTopic(app + "-in", PARTITIONS, (short) 1))).all().get();
        }
        Properties pp = new Properties();
        pp.put("bootstrap.servers", bootstrap);
        pp.put("key.serializer", StringSerializer.class.getName());
        pp.put("value.serializer", StringSerializer.class.getName());
        try (KafkaProducer<String, String> prod = new KafkaProducer<>(pp)) {
            for (int i = 0; i < 10_000; i++) {
                prod.send(new ProducerRecord<>(app + "-in", "k" + i, "v"));
            }
        }
        List<KafkaStreams> apps = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            apps.add(instance(bootstrap, protocol, app, i));
        }
        waitSettled(apps, System.nanoTime());
        List<Long> leaves = new ArrayList<>(), joins = new ArrayList<>();
        for (int r = 0; r < rounds; r++) {
            KafkaStreams gone = apps.remove(apps.size() - 1);
            long t0 = System.nanoTime();
            gone.close(CloseOptions.groupMembershipOperation(CloseOptions.GroupMembershipOperation.LEAVE_GROUP)
                    .withTimeout(Duration.ofSeconds(30)));
            long leave = waitSettled(apps, t0);
            long t1 = System.nanoTime();
            apps.add(instance(bootstrap, protocol, app, n + r));
            long join = waitSettled(apps, t1);
            System.out.println("leave " + leave + " join " + join);
            leaves.add(leave);
            joins.add(join);
        }
        for (KafkaStreams a : apps) {
            a.close(Duration.ofSeconds(10));
        }
        leaves.sort(null);
        joins.sort(null);
        System.out.println("median " + leaves.get(rounds / 2) + " " + joins.get(rounds / 2));
        System.exit(0);
    }
}
