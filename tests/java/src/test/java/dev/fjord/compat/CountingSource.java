package dev.fjord.compat;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.connect.connector.Task;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.source.SourceConnector;
import org.apache.kafka.connect.source.SourceRecord;
import org.apache.kafka.connect.source.SourceTask;

/**
 * A source connector for ConnectTest: writes "line 0" .. "line 49" to its topic once, its
 * position kept in Connect's offsets topic (so a restarted task resumes, never repeats).
 */
public class CountingSource extends SourceConnector {
    /** How many records it writes. */
    public static final int RECORDS = 50;
    private Map<String, String> config;

    @Override
    public void start(Map<String, String> props) {
        config = props;
    }

    @Override
    public Class<? extends Task> taskClass() {
        return CountingTask.class;
    }

    @Override
    public List<Map<String, String>> taskConfigs(int maxTasks) {
        return List.of(config);
    }

    @Override
    public void stop() {
    }

    @Override
    public ConfigDef config() {
        return new ConfigDef().define("topic", ConfigDef.Type.STRING, ConfigDef.Importance.HIGH, "The topic");
    }

    @Override
    public String version() {
        return "1";
    }

    /** The task: the records from its stored position on, then nothing. */
    public static class CountingTask extends SourceTask {
        private String topic;
        private long next;

        @Override
        public String version() {
            return "1";
        }

        @Override
        public void start(Map<String, String> props) {
            topic = props.get("topic");
            Map<String, Object> stored = context.offsetStorageReader().offset(Map.of("source", "counting"));
            next = stored == null ? 0 : ((Number) stored.get("position")).longValue() + 1;
        }

        @Override
        public List<SourceRecord> poll() throws InterruptedException {
            if (next >= RECORDS) {
                Thread.sleep(100);
                return null;
            }
            List<SourceRecord> out = new ArrayList<>();
            for (; next < RECORDS; next++) {
                out.add(new SourceRecord(Map.of("source", "counting"), Map.of("position", next), topic, null,
                        Schema.STRING_SCHEMA, "line " + next));
            }
            return out;
        }

        @Override
        public void stop() {
        }
    }
}
