// Jepsen's Kafka queue workload with Kafka 4.4's Java clients: each worker is a client
// process (a producer and a consumer, or a share consumer) that sends, polls and runs
// transactions mixing both over a set of keys (key k is partition k of topic `queue`), and
// every operation goes into a history, one JSON line per invoke, ok, fail or info, with
// System.nanoTime (CLOCK_MONOTONIC, the clock the harness logs nemeses with). A client that
// fails is torn down and rebuilt as a new process; some are rebuilt at random. At the end the
// final polls read every key from the start. fjord-checker reads the history.
//
//   java -cp CLASSES:LIBS/* Workload --bootstrap H:P --history FILE --seconds N --seed S
//        --keys K --workers txn-consumer:2,txn-classic:1,idem-assign:1,share:1 [--final-only]
//
// Worker kinds: txn-consumer / txn-classic (a transactional producer whose consumer is in a
// KIP-848 / classic group with static membership, offsets committed in the transaction:
// consume-transform-produce), txn-assign (transactional, consumer assigned every key),
// idem-assign / idem-consumer (idempotent producer, consumer assigned or in a KIP-848 group
// committing offsets), share (a share consumer acknowledging explicitly).

import java.io.*;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.*;
import java.util.concurrent.*;
import java.util.concurrent.atomic.*;

import org.apache.kafka.clients.admin.*;
import org.apache.kafka.clients.consumer.*;
import org.apache.kafka.clients.producer.*;
import org.apache.kafka.common.*;
import org.apache.kafka.common.errors.*;
import org.apache.kafka.common.serialization.*;

public class Workload {
    static final String TOPIC = "queue";
    static String bootstrap;
    static int keys = 4;
    static long t0 = System.nanoTime();
    static final AtomicLong nextValue = new AtomicLong();
    static final AtomicLong nextProcess = new AtomicLong();
    static PrintWriter out;

    /** What every consumer of the workload shares: read_committed, offsets never auto-committed. */
    static Properties consumerProps() {
        Properties c = new Properties();
        c.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        c.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        c.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        return c;
    }

    /** Every key's partition. */
    static List<TopicPartition> allKeys() {
        List<TopicPartition> all = new ArrayList<>();
        for (int k = 0; k < keys; k++) all.add(new TopicPartition(TOPIC, k));
        return all;
    }

    /** One history line; times are CLOCK_MONOTONIC nanoseconds, taken under the lock. */
    static synchronized void log(long process, String type, String f, String value, String extra) {
        StringBuilder b = new StringBuilder();
        b.append("{\"process\":").append(process).append(",\"type\":\"").append(type)
         .append("\",\"f\":\"").append(f).append("\",\"time\":").append(System.nanoTime())
         .append(",\"value\":").append(value == null ? "null" : value);
        if (extra != null && !extra.isEmpty()) b.append(',').append(extra);
        b.append('}');
        out.println(b);
        out.flush();
    }

    static String quote(String s) {
        return "\"" + s.replace("\\", "\\\\").replace("\"", "\\\"") + "\"";
    }

    static String error(Throwable e) {
        Throwable c = e;
        while (c.getCause() != null && (c instanceof ExecutionException || c instanceof KafkaException && c.getCause() instanceof KafkaException)) c = c.getCause();
        StringBuilder at = new StringBuilder();
        StackTraceElement[] st = c.getStackTrace();
        for (int i = 0; i < Math.min(3, st.length); i++) at.append(i > 0 ? " < " : "").append(st[i]);
        return "\"error\":" + quote(c.getClass().getSimpleName() + ": " + String.valueOf(c.getMessage())) + ",\"at\":" + quote(at.toString());
    }

    public static void main(String[] args) throws Exception {
        String history = null, workers = "txn-consumer:2,idem-assign:1";
        long seconds = 30, seed = 1;
        boolean finalOnly = false;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--bootstrap" -> bootstrap = args[++i];
                case "--history" -> history = args[++i];
                case "--seconds" -> seconds = Long.parseLong(args[++i]);
                case "--seed" -> seed = Long.parseLong(args[++i]);
                case "--keys" -> keys = Integer.parseInt(args[++i]);
                case "--workers" -> workers = args[++i];
                case "--final-only" -> finalOnly = true;
                default -> throw new IllegalArgumentException("unknown argument " + args[i]);
            }
        }
        out = new PrintWriter(new OutputStreamWriter(new FileOutputStream(history, true), StandardCharsets.UTF_8));
        // Values are unique across runs appended to one history (a final-only pass reads).
        nextValue.set(seed * 1_000_000_000L);
        nextProcess.set(seed * 1_000_000L);
        if (finalOnly) {
            nextProcess.set(seed * 1_000_000L + 900_000L);
            finalPolls();
            return;
        }
        createTopic();
        long deadline = System.nanoTime() + seconds * 1_000_000_000L;
        List<Thread> threads = new ArrayList<>();
        int n = 0;
        for (String spec : workers.split(",")) {
            String[] kc = spec.split(":");
            for (int i = 0; i < Integer.parseInt(kc[1]); i++) {
                String kind = kc[0];
                int slot = n++;
                Random rnd = new Random(seed * 7919 + slot);
                Thread t = new Thread(() -> runWorker(kind, slot, rnd, deadline), kind + "-" + slot);
                t.start();
                threads.add(t);
            }
        }
        for (Thread t : threads) t.join();
        System.out.println("workload: workers done");
    }

    static void createTopic() throws Exception {
        Properties p = new Properties();
        p.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        p.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, 60000);
        try (Admin admin = Admin.create(p)) {
            NewTopic t = new NewTopic(TOPIC, keys, (short) 3).configs(Map.of("min.insync.replicas", "2"));
            try {
                admin.createTopics(List.of(t)).all().get(60, TimeUnit.SECONDS);
            } catch (ExecutionException e) {
                if (!(e.getCause() instanceof TopicExistsException)) throw e;
            }
        }
    }

    static void runWorker(String kind, int slot, Random rnd, long deadline) {
        while (System.nanoTime() < deadline) {
            Client c = null;
            try {
                c = kind.equals("share") ? new ShareClient(slot) : new QueueClient(kind, slot);
                // A client lives for a while, then is torn down and rebuilt on purpose.
                int life = 20 + rnd.nextInt(200);
                for (int i = 0; i < life && System.nanoTime() < deadline; i++) {
                    if (!c.step(rnd)) break;
                }
            } catch (Throwable e) {
                if (c != null) log(c.process, "event", "crash", null, error(e));
            } finally {
                if (c != null) c.close();
            }
        }
    }

    abstract static class Client {
        final long process = nextProcess.incrementAndGet();
        /** Runs one operation; false when the client must be rebuilt. */
        abstract boolean step(Random rnd);
        abstract void close();
    }

    static String reads(ConsumerRecords<Long, Long> recs) {
        Map<Integer, StringBuilder> by = new TreeMap<>();
        for (ConsumerRecord<Long, Long> r : recs) {
            StringBuilder b = by.computeIfAbsent(r.partition(), k -> new StringBuilder());
            if (b.length() > 0) b.append(',');
            b.append('[').append(r.offset()).append(',').append(r.value()).append(']');
        }
        StringBuilder b = new StringBuilder("[\"poll\",{");
        boolean first = true;
        for (var e : by.entrySet()) {
            if (!first) b.append(',');
            first = false;
            b.append('"').append(e.getKey()).append("\":[").append(e.getValue()).append(']');
        }
        return b.append("}]").toString();
    }

    /** A producer and a consumer: sends, polls and transactions. */
    static class QueueClient extends Client {
        final String kind;
        final boolean txn, subscribe;
        final String protocol;
        final String group;
        final String instance;
        final KafkaProducer<Long, Long> producer;
        final KafkaConsumer<Long, Long> consumer;

        QueueClient(String kind, int slot) {
            this.kind = kind;
            txn = kind.startsWith("txn");
            subscribe = kind.endsWith("consumer") || kind.endsWith("classic");
            protocol = kind.endsWith("classic") ? "classic" : "consumer";
            group = "jepsen-" + kind;
            instance = "jepsen-" + kind + "-" + slot;
            Properties p = new Properties();
            p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
            p.put(ProducerConfig.ACKS_CONFIG, "all");
            p.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
            p.put(ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG, 5000);
            p.put(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, 15000);
            p.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, 15000);
            p.put(ProducerConfig.LINGER_MS_CONFIG, 0);
            if (txn) {
                p.put(ProducerConfig.TRANSACTIONAL_ID_CONFIG, "jepsen-txn-" + slot);
                p.put(ProducerConfig.TRANSACTION_TIMEOUT_CONFIG, 15000);
            }
            producer = new KafkaProducer<>(p, new LongSerializer(), new LongSerializer());
            Properties c = consumerProps();
            c.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
            c.put(ConsumerConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, 10000);
            c.put(ConsumerConfig.REQUEST_TIMEOUT_MS_CONFIG, 5000);
            c.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, 50);
            if (subscribe) {
                c.put(ConsumerConfig.GROUP_ID_CONFIG, group);
                c.put(ConsumerConfig.GROUP_PROTOCOL_CONFIG, protocol);
                // Static membership: the member comes back as itself after a rebuild.
                c.put(ConsumerConfig.GROUP_INSTANCE_ID_CONFIG, instance);
                if (protocol.equals("classic")) c.put(ConsumerConfig.SESSION_TIMEOUT_MS_CONFIG, 10000);
            }
            consumer = new KafkaConsumer<>(c, new LongDeserializer(), new LongDeserializer());
            if (txn) {
                long at = invoke("init", "null");
                try {
                    producer.initTransactions();
                    log(process, "ok", "init", null, null);
                } catch (RuntimeException e) {
                    log(process, "info", "init", null, error(e));
                    throw e;
                }
            }
            List<TopicPartition> all = allKeys();
            if (subscribe) {
                invoke("subscribe", "[]");
                consumer.subscribe(List.of(TOPIC), new Listener());
                log(process, "ok", "subscribe", null, null);
            } else {
                invoke("assign", "[]");
                consumer.assign(all);
                consumer.seekToBeginning(all);
                log(process, "ok", "assign", null, null);
            }
        }

        long invoke(String f, String value) {
            log(process, "invoke", f, value, null);
            return System.nanoTime();
        }

        class Listener implements ConsumerRebalanceListener {
            String ev(Collection<TopicPartition> ps) {
                StringBuilder b = new StringBuilder("{\"group\":" + quote(group) + ",\"protocol\":" + quote(protocol) + ",\"instance\":" + quote(instance) + ",\"keys\":[");
                boolean first = true;
                for (TopicPartition tp : ps) {
                    if (!first) b.append(',');
                    first = false;
                    b.append(tp.partition());
                }
                int gen = -1;
                try { gen = consumer.groupMetadata().generationId(); } catch (RuntimeException ignored) { }
                return b.append("],\"generation\":").append(gen).append('}').toString();
            }
            public void onPartitionsRevoked(Collection<TopicPartition> ps) { if (!ps.isEmpty()) log(process, "event", "revoked", ev(ps), null); }
            public void onPartitionsAssigned(Collection<TopicPartition> ps) { if (!ps.isEmpty()) log(process, "event", "assigned", ev(ps), null); }
            public void onPartitionsLost(Collection<TopicPartition> ps) { if (!ps.isEmpty()) log(process, "event", "lost", ev(ps), null); }
        }

        boolean step(Random rnd) {
            int r = rnd.nextInt(10);
            if (r < 3) return poll();
            return txn ? transaction(rnd) : send(rnd);
        }

        boolean poll() {
            invoke("poll", "[[\"poll\"]]");
            try {
                ConsumerRecords<Long, Long> recs = consumer.poll(Duration.ofMillis(200));
                log(process, "ok", "poll", "[" + reads(recs) + "]", null);
                if (subscribe && !txn && !recs.isEmpty()) {
                    try {
                        long at = System.nanoTime();
                        consumer.commitSync(Duration.ofSeconds(5));
                        log(process, "event", "committed", "{\"group\":" + quote(group) + ",\"invoked\":" + at + "}", null);
                    } catch (RuntimeException e) {
                        log(process, "event", "commit-failed", null, error(e));
                        return false;
                    }
                }
                return true;
            } catch (RuntimeException e) {
                log(process, "info", "poll", null, error(e));
                return false;
            }
        }

        boolean send(Random rnd) {
            int k = rnd.nextInt(keys);
            long v = nextValue.incrementAndGet();
            invoke("send", "[[\"send\"," + k + "," + v + "]]");
            try {
                RecordMetadata m = producer.send(new ProducerRecord<>(TOPIC, k, (long) k, v)).get(20, TimeUnit.SECONDS);
                log(process, "ok", "send", "[[\"send\"," + k + ",[" + m.offset() + "," + v + "]]]", null);
                return true;
            } catch (Exception e) {
                // A send that failed may still have been written (a timeout, a lost answer).
                log(process, "info", "send", null, error(e));
                return !(e instanceof java.util.concurrent.TimeoutException);
            }
        }

        boolean transaction(Random rnd) {
            int n = 1 + rnd.nextInt(4);
            List<long[]> plan = new ArrayList<>(); // {kind 0 send / 1 poll, key, value}
            StringBuilder inv = new StringBuilder("[");
            for (int i = 0; i < n; i++) {
                if (i > 0) inv.append(',');
                if (rnd.nextInt(3) == 0) {
                    plan.add(new long[]{1, 0, 0});
                    inv.append("[\"poll\"]");
                } else {
                    int k = rnd.nextInt(keys);
                    long v = nextValue.incrementAndGet();
                    plan.add(new long[]{0, k, v});
                    inv.append("[\"send\",").append(k).append(',').append(v).append(']');
                }
            }
            inv.append(']');
            invoke("txn", inv.toString());
            List<String> done = new ArrayList<>();
            List<Future<RecordMetadata>> futures = new ArrayList<>();
            boolean begun = false;
            try {
                producer.beginTransaction();
                begun = true;
                for (long[] s : plan) {
                    if (s[0] == 0) {
                        futures.add(producer.send(new ProducerRecord<>(TOPIC, (int) s[1], s[1], s[2])));
                        done.add(null);
                    } else {
                        futures.add(null);
                        done.add(reads(consumer.poll(Duration.ofMillis(100))));
                    }
                }
                for (int i = 0; i < plan.size(); i++) {
                    long[] s = plan.get(i);
                    if (s[0] == 0) {
                        RecordMetadata m = futures.get(i).get(20, TimeUnit.SECONDS);
                        done.set(i, "[\"send\"," + s[1] + ",[" + m.offset() + "," + s[2] + "]]");
                    }
                }
                if (subscribe) {
                    Map<TopicPartition, OffsetAndMetadata> offsets = new HashMap<>();
                    for (TopicPartition tp : consumer.assignment()) offsets.put(tp, new OffsetAndMetadata(consumer.position(tp)));
                    if (!offsets.isEmpty()) producer.sendOffsetsToTransaction(offsets, consumer.groupMetadata());
                }
                long commit = System.nanoTime();
                producer.commitTransaction();
                log(process, "ok", "txn", "[" + String.join(",", done) + "]", "\"commit_time\":" + commit);
                return true;
            } catch (Exception e) {
                // Offsets known so far still say where the aborted records sit.
                for (int i = 0; i < plan.size(); i++) {
                    long[] s = plan.get(i);
                    if (s[0] == 0 && done.get(i) == null) done.set(i, "[\"send\"," + s[1] + "," + s[2] + "]");
                    if (s[0] == 1 && done.get(i) == null) done.set(i, "[\"poll\"]");
                }
                String value = "[" + String.join(",", done) + "]";
                if (!begun || isFatal(e)) {
                    log(process, "info", "txn", value, error(e));
                    return false;
                }
                try {
                    producer.abortTransaction();
                } catch (RuntimeException e2) {
                    log(process, "info", "txn", value, error(e2));
                    return false;
                }
                log(process, "fail", "txn", value, error(e));
                try {
                    rewind();
                    return true;
                } catch (RuntimeException e3) {
                    // The transaction is over; the consumer (its member gone) is rebuilt.
                    log(process, "event", "rewind-failed", null, error(e3));
                    return false;
                }
            }
        }

        /** After an abort, the consumer goes back to what the group committed. */
        void rewind() {
            log(process, "event", "seek", null, null);
            if (!subscribe) {
                consumer.seekToBeginning(consumer.assignment());
                return;
            }
            Set<TopicPartition> mine = consumer.assignment();
            Map<TopicPartition, OffsetAndMetadata> committed = consumer.committed(mine, Duration.ofSeconds(5));
            for (TopicPartition tp : mine) {
                OffsetAndMetadata o = committed.get(tp);
                if (o != null) consumer.seek(tp, o.offset());
                else consumer.seekToBeginning(List.of(tp));
            }
        }

        static boolean isFatal(Exception e) {
            Throwable c = e instanceof ExecutionException ? e.getCause() : e;
            return c instanceof ProducerFencedException || c instanceof InvalidProducerEpochException
                || c instanceof OutOfOrderSequenceException || c instanceof AuthorizationException
                || c instanceof UnsupportedVersionException || c instanceof FencedInstanceIdException
                || c instanceof org.apache.kafka.common.errors.TimeoutException || c instanceof java.util.concurrent.TimeoutException
                || c instanceof IllegalStateException;
        }

        void close() {
            log(process, "event", "close", "{\"group\":" + quote(group) + "}", null);
            try { consumer.close(Duration.ofSeconds(3)); } catch (RuntimeException ignored) { }
            try { producer.close(Duration.ofSeconds(3)); } catch (RuntimeException ignored) { }
        }
    }

    /** A share consumer (KIP-932) that acknowledges each record explicitly. */
    static class ShareClient extends Client {
        final KafkaShareConsumer<Long, Long> consumer;

        ShareClient(int slot) {
            Properties c = new Properties();
            c.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
            c.put(ConsumerConfig.GROUP_ID_CONFIG, "jepsen-share");
            c.put("share.acknowledgement.mode", "explicit");
            c.put(ConsumerConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, 10000);
            c.put(ConsumerConfig.REQUEST_TIMEOUT_MS_CONFIG, 5000);
            consumer = new KafkaShareConsumer<>(c, new LongDeserializer(), new LongDeserializer());
            consumer.subscribe(List.of(TOPIC));
        }

        boolean step(Random rnd) {
            log(process, "invoke", "share-poll", null, null);
            ConsumerRecords<Long, Long> recs;
            try {
                recs = consumer.poll(Duration.ofMillis(300));
            } catch (RuntimeException e) {
                log(process, "info", "share-poll", null, error(e));
                return false;
            }
            StringBuilder b = new StringBuilder("[");
            for (ConsumerRecord<Long, Long> r : recs) {
                if (b.length() > 1) b.append(',');
                b.append('[').append(r.partition()).append(',').append(r.offset()).append(',')
                 .append(r.value()).append(',').append(r.deliveryCount().map(Short::intValue).orElse(-1)).append(']');
                consumer.acknowledge(r, AcknowledgeType.ACCEPT);
            }
            log(process, "ok", "share-poll", b.append(']').toString(), null);
            if (recs.isEmpty()) return true;
            log(process, "invoke", "share-ack", null, null);
            try {
                Map<TopicIdPartition, Optional<KafkaException>> res = consumer.commitSync(Duration.ofSeconds(5));
                StringBuilder okb = new StringBuilder("["), failb = new StringBuilder("[");
                Set<String> why = new TreeSet<>();
                for (ConsumerRecord<Long, Long> r : recs) {
                    Optional<KafkaException> err = null;
                    for (var e : res.entrySet()) if (e.getKey().partition() == r.partition()) err = e.getValue();
                    StringBuilder t = err != null && err.isEmpty() ? okb : failb;
                    if (err != null && err.isPresent()) why.add(err.get().getClass().getSimpleName() + ": " + err.get().getMessage());
                    if (t.length() > 1) t.append(',');
                    t.append('[').append(r.partition()).append(',').append(r.offset()).append(']');
                }
                log(process, "ok", "share-ack", okb.append(']').toString(), "\"refused\":" + failb.append(']')
                    + (why.isEmpty() ? "" : ",\"why\":" + quote(String.join("; ", why))));
                return true;
            } catch (RuntimeException e) {
                log(process, "info", "share-ack", null, error(e));
                return false;
            }
        }

        void close() {
            try { consumer.close(Duration.ofSeconds(3)); } catch (RuntimeException ignored) { }
        }
    }

    /** Each key's high watermark (a read_uncommitted consumer's end offsets). */
    static Map<TopicPartition, Long> highWatermarks(List<TopicPartition> all) {
        Properties c = consumerProps();
        c.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_uncommitted");
        try (KafkaConsumer<Long, Long> k = new KafkaConsumer<>(c, new LongDeserializer(), new LongDeserializer())) {
            return k.endOffsets(all, Duration.ofSeconds(60));
        }
    }

    /** Reads every key from its start to its last stable offset, as the final polls. */
    static void finalPolls() {
        long process = nextProcess.incrementAndGet();
        Properties c = consumerProps();
        c.put(ConsumerConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, 30000);
        c.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, 500);
        try (KafkaConsumer<Long, Long> consumer = new KafkaConsumer<>(c, new LongDeserializer(), new LongDeserializer())) {
            List<TopicPartition> all = allKeys();
            log(process, "invoke", "assign", "[]", null);
            consumer.assign(all);
            consumer.seekToBeginning(all);
            log(process, "ok", "assign", null, null);
            // Wait (up to 90 s) until no transaction is open: the last stable offset, where
            // read_committed reading ends, reaches the high watermark.
            Map<TopicPartition, Long> end = consumer.endOffsets(all, Duration.ofSeconds(60));
            Map<TopicPartition, Long> hw = highWatermarks(all);
            long settle = System.nanoTime() + 90_000_000_000L;
            while (!end.equals(hw) && System.nanoTime() < settle) {
                try { Thread.sleep(1000); } catch (InterruptedException e) { break; }
                end = consumer.endOffsets(all, Duration.ofSeconds(60));
                hw = highWatermarks(all);
            }
            long deadline = System.nanoTime() + 120_000_000_000L;
            while (System.nanoTime() < deadline) {
                boolean caughtUp = true;
                for (TopicPartition tp : all) if (consumer.position(tp) < end.get(tp)) caughtUp = false;
                if (caughtUp) break;
                log(process, "invoke", "poll", "[[\"poll\"]]", "\"final\":true");
                ConsumerRecords<Long, Long> recs = consumer.poll(Duration.ofMillis(500));
                log(process, "ok", "poll", "[" + reads(recs) + "]", "\"final\":true");
            }
            StringBuilder b = new StringBuilder();
            for (TopicPartition tp : all) {
                long pos = consumer.position(tp);
                // The key was read whole, from its start to its last stable offset.
                if (pos >= end.get(tp)) log(process, "event", "final-read", "{\"key\":" + tp.partition() + ",\"end\":" + end.get(tp) + ",\"high_watermark\":" + hw.get(tp) + "}", null);
                b.append(tp.partition()).append('=').append(pos).append('/').append(end.get(tp)).append(' ');
            }
            System.out.println("workload: final polls read to " + b.toString().trim());
        }
    }
}
