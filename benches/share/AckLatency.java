// The Java share consumer's acknowledgement latency, for benches/share_compare.rs: one
// KafkaShareConsumer (kafka-clients 4.4) reads `n` records in explicit mode, accepts each
// poll's records and times the commitSync that makes them durable. Prints
// "records p50_ms p99_ms". Run in source-file mode:
//   java -cp "target/kafka-4.4.0/libs/*" benches/share/AckLatency.java BOOTSTRAP TOPIC GROUP N
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Properties;
import org.apache.kafka.clients.consumer.AcknowledgeType;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaShareConsumer;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

public class AckLatency {
    public static void main(String[] args) {
        Properties p = new Properties();
        p.put("bootstrap.servers", args[0]);
        p.put("group.id", args[2]);
        p.put("share.acknowledgement.mode", "explicit");
        p.put("key.deserializer", ByteArrayDeserializer.class.getName());
        p.put("value.deserializer", ByteArrayDeserializer.class.getName());
        long n = Long.parseLong(args[3]);
        List<Long> nanos = new ArrayList<>();
        long got = 0;
        long idleSince = System.nanoTime();
        try (KafkaShareConsumer<byte[], byte[]> c = new KafkaShareConsumer<>(p)) {
            c.subscribe(List.of(args[1]));
            while (got < n && System.nanoTime() - idleSince < 30_000_000_000L) {
                int batch = 0;
                for (ConsumerRecord<byte[], byte[]> r : c.poll(Duration.ofMillis(500))) {
                    c.acknowledge(r, AcknowledgeType.ACCEPT);
                    batch++;
                }
                if (batch == 0) {
                    continue;
                }
                long t0 = System.nanoTime();
                c.commitSync();
                nanos.add(System.nanoTime() - t0);
                got += batch;
                idleSince = System.nanoTime();
            }
        }
        Collections.sort(nanos);
        double p50 = nanos.isEmpty() ? 0 : nanos.get(nanos.size() / 2) / 1e6;
        double p99 = nanos.isEmpty() ? 0 : nanos.get(Math.min(nanos.size() - 1, (int) (nanos.size() * 0.99))) / 1e6;
        System.out.printf("%d %.2f %.2f%n", got, p50, p99);
    }
}
