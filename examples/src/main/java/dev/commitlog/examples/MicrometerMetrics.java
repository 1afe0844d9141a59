package dev.commitlog.examples;

import dev.commitlog.CommitLog;
import dev.commitlog.config.CommitLogConfig;
import dev.commitlog.micrometer.CommitLogMeterBinder;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.List;

/**
 * Micrometer: {@link CommitLogMeterBinder} publishes a log's counters, gauges and latency
 * quantiles, named {@code commitlog.*} and tagged with the log directory, to any registry (here
 * Micrometer's {@link SimpleMeterRegistry}; a node would use its Prometheus or OTLP registry).
 *
 * <p>Run it: {@code java -jar examples/target/commitlog-examples.jar micrometer [DIR]} (see
 * examples/README.md).
 */
public final class MicrometerMetrics {
    static final int APPENDS = 1_000;

    private MicrometerMetrics() {
    }

    public static void main(String[] args) throws IOException {
        try (ExampleDirectory directory = ExampleDirectory.of(args, "micrometer")) {
            run(directory.path(), System.out);
        }
    }

    /** What the registry read after the appends: every meter's name, and four of the values. */
    record Published(List<String> meterNames, double appendsCompleted, double recordsFlushed, long flushes, double durablePosition) {
    }

    /** What {@link #main} does, in {@code directory}. */
    static Published run(Path directory, PrintStream out) throws IOException {
        MeterRegistry registry = new SimpleMeterRegistry();
        try (CommitLog log = CommitLog.open(CommitLogConfig.builder(directory).build())) {
            new CommitLogMeterBinder(log).bindTo(registry);
            byte[] record = new byte[100];
            for (int i = 0; i < APPENDS; i++) {
                log.append(record, 0, record.length);
            }
            Published published = new Published(
                    registry.getMeters().stream().map(meter -> meter.getId().getName()).distinct().sorted().toList(),
                    registry.get("commitlog.appends.completed").functionCounter().count(),
                    registry.get("commitlog.records.flushed").functionCounter().count(),
                    (long) registry.get("commitlog.flushes").functionTimer().count(),
                    registry.get("commitlog.durable.position").gauge().value());
            out.println(APPENDS + " appends to " + directory + "; the registry holds " + registry.getMeters().size() + " meters ("
                    + published.meterNames().size() + " names, tagged directory=" + directory + "), among them:");
            for (String name : List.of("commitlog.appends.completed", "commitlog.records.flushed", "commitlog.flushes",
                    "commitlog.records.per.flush", "commitlog.durable.position")) {
                Meter meter = registry.get(name).meter();
                out.println("  " + name + " " + meter.measure());
            }
            if (published.appendsCompleted() < APPENDS || published.recordsFlushed() < APPENDS || published.flushes() == 0) {
                throw new IllegalStateException("the meters did not count the appends: " + published);
            }
            return published;
        }
    }
}
