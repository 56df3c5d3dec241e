/*
 * A client telemetry receiver for the reference broker (KIP-714): Kafka 4.4 serves
 * GetTelemetrySubscriptions and PushTelemetry only when a metrics reporter providing a
 * ClientTelemetryExporter is configured (metric.reporters=dev.fjord.telemetry.Receiver). Each push's
 * payload is decoded as OpenTelemetry MetricsData, as fjord decodes it, so a payload that is
 * not one fails the push with INVALID_RECORD on both. With fjord.telemetry.out set, one line
 * per pushed metric ("<client instance id> <metric name>") is appended to that file, for the
 * tests to read what the broker received.
 */
package dev.fjord.telemetry;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.metrics.KafkaMetric;
import org.apache.kafka.common.metrics.MetricsReporter;
import org.apache.kafka.server.telemetry.ClientTelemetryExporter;
import org.apache.kafka.server.telemetry.ClientTelemetryExporterProvider;
import org.apache.kafka.shaded.io.opentelemetry.proto.metrics.v1.Metric;
import org.apache.kafka.shaded.io.opentelemetry.proto.metrics.v1.MetricsData;
import org.apache.kafka.shaded.io.opentelemetry.proto.metrics.v1.ResourceMetrics;
import org.apache.kafka.shaded.io.opentelemetry.proto.metrics.v1.ScopeMetrics;

public class Receiver implements MetricsReporter, ClientTelemetryExporterProvider {
    private volatile Path out;

    @Override
    public void configure(Map<String, ?> configs) {
        Object path = configs.get("fjord.telemetry.out");
        out = path == null ? null : Path.of(path.toString());
    }

    @Override
    public ClientTelemetryExporter clientTelemetryExporter() {
        return (context, payload) -> {
            MetricsData data;
            try {
                data = MetricsData.parseFrom(payload.data());
            } catch (Exception e) {
                throw new IllegalArgumentException("not an OTLP MetricsData payload", e);
            }
            Path file = out;
            if (file == null) {
                return;
            }
            StringBuilder lines = new StringBuilder();
            for (ResourceMetrics r : data.getResourceMetricsList()) {
                for (ScopeMetrics s : r.getScopeMetricsList()) {
                    for (Metric m : s.getMetricsList()) {
                        lines.append(payload.clientInstanceId()).append(' ').append(m.getName()).append('\n');
                    }
                }
            }
            try {
                Files.writeString(file, lines.toString(), StandardCharsets.UTF_8,
                        StandardOpenOption.CREATE, StandardOpenOption.APPEND);
            } catch (IOException e) {
                throw new RuntimeException(e);
            }
        };
    }

    @Override
    public void init(List<KafkaMetric> metrics) {}

    @Override
    public void metricChange(KafkaMetric metric) {}

    @Override
    public void metricRemoval(KafkaMetric metric) {}

    @Override
    public void close() {}
}
