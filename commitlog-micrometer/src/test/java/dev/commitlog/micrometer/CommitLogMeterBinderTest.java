package dev.commitlog.micrometer;

import static org.junit.jupiter.api.Assertions.*;

import dev.commitlog.CommitLog;
import dev.commitlog.CommitLogOptions;
import dev.commitlog.config.CommitLogConfig;
import dev.commitlog.config.SyncMode;
import dev.commitlog.metrics.CommitLogMetrics;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The binder publishes the log's own figures: counts, flush time, durable position, latency quantiles. */
class CommitLogMeterBinderTest {
    private static final int RECORDS = 200;

    @TempDir
    Path dir;

    @Test
    void metersShowWhatTheLogDid() throws Exception {
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        try (CommitLog log = CommitLog.open(CommitLogConfig.builder(dir).syncMode(SyncMode.BATCH).build(),
                CommitLogOptions.builder().noJmx().build())) {
            Tags tags = Tags.of("directory", log.config().directory().toString());
            new CommitLogMeterBinder(log::metrics, tags, 0, System::nanoTime).bindTo(registry); // no caching: every read is fresh
            byte[] record = new byte[100];
            for (int i = 0; i < RECORDS; i++) {
                log.append(record, 0, record.length);
            }
            CommitLogMetrics metrics = log.metrics();

            assertEquals(RECORDS, registry.get("commitlog.appends.completed").tags(tags).functionCounter().count());
            assertEquals(metrics.recordsFlushed(), registry.get("commitlog.records.flushed").functionCounter().count());
            assertTrue(metrics.recordsFlushed() >= RECORDS);
            assertEquals(metrics.bytesFlushed(), registry.get("commitlog.bytes.flushed").functionCounter().count());
            assertEquals(metrics.flushes(), registry.get("commitlog.flushes").functionTimer().count());
            assertTrue(registry.get("commitlog.flushes").functionTimer().totalTime(TimeUnit.NANOSECONDS) > 0);
            assertEquals(log.durablePosition(), registry.get("commitlog.durable.position").gauge().value());
            assertEquals(metrics.recordsPerFlush(), registry.get("commitlog.records.per.flush").gauge().value(), 1e-9);
            assertEquals(metrics.totalSize(), registry.get("commitlog.size").gauge().value());
            double p50 = registry.get("commitlog.flush.latency").tag("quantile", "0.5").timeGauge().value(TimeUnit.NANOSECONDS);
            double max = registry.get("commitlog.flush.latency.max").timeGauge().value(TimeUnit.NANOSECONDS);
            assertTrue(p50 > 0 && p50 <= max, p50 + " / " + max);
            assertEquals(metrics.waitingOnFlush().max(), max, 1e-6 * max, "the time gauge converts through seconds: equal to rounding");
            assertTrue(registry.get("commitlog.append.latency").tag("quantile", "0.99").timeGauge().value(TimeUnit.NANOSECONDS) > 0);
            for (Meter meter : registry.getMeters()) {
                assertEquals(log.config().directory().toString(), meter.getId().getTag("directory"), meter.getId().toString());
            }
        }
    }

    @Test
    void oneScrapeTakesOneSnapshot() throws Exception {
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        AtomicInteger snapshots = new AtomicInteger();
        try (CommitLog log = CommitLog.open(CommitLogConfig.builder(dir).build(), CommitLogOptions.builder().noJmx().build())) {
            new CommitLogMeterBinder(() -> {
                snapshots.incrementAndGet();
                return log.metrics();
            }, Tags.empty(), TimeUnit.HOURS.toNanos(1), System::nanoTime).bindTo(registry);
            for (Meter meter : registry.getMeters()) {
                meter.measure().forEach(measurement -> measurement.getValue());
            }
        }
        assertTrue(registry.getMeters().size() > 20, registry.getMeters().size() + " meters");
        assertEquals(1, snapshots.get());
    }

    @Test
    void theLogConstructorTagsTheDirectory() throws Exception {
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        try (CommitLog log = CommitLog.open(CommitLogConfig.builder(dir).build(), CommitLogOptions.builder().noJmx().build())) {
            new CommitLogMeterBinder(log).bindTo(registry);
            log.append(new byte[8], 0, 8);
            assertEquals(log.config().directory().toString(),
                    registry.get("commitlog.durable.position").gauge().getId().getTag("directory"));
        }
    }
}
