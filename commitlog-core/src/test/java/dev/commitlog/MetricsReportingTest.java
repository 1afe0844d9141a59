package dev.commitlog;

import static dev.commitlog.TestLogs.config;
import static dev.commitlog.TestLogs.payload;
import static org.junit.jupiter.api.Assertions.*;

import dev.commitlog.config.SyncMode;
import dev.commitlog.metrics.CommitLogMetrics;
import dev.commitlog.metrics.LatencySnapshot;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What the metrics show a person and a program: one line, a short report, interval latencies, the portable histogram. */
class MetricsReportingTest {
    @TempDir
    Path dir;

    private static void appendSome(CommitLog log, int count) {
        for (int i = 0; i < count; i++) {
            byte[] record = payload(i, 100);
            log.append(record, 0, record.length);
        }
    }

    @Test
    void aSnapshotPrintsAsOneShortLine() throws Exception {
        try (CommitLog log = CommitLog.open(config(dir, SyncMode.BATCH).build(), CommitLogOptions.builder().noJmx().build())) {
            appendSome(log, 200);
            String line = log.metrics().toString();
            assertFalse(line.contains("\n"), line);
            assertTrue(line.length() < 300, () -> line.length() + " characters: " + line);
            assertTrue(line.contains("appends=200"), line);
            assertTrue(line.contains("durable=" + log.durablePosition()), line);
        }
    }

    @Test
    void statsIsAShortReportOfRatesLatenciesAndSpace() throws Exception {
        CommitLog log = CommitLog.open(config(dir, SyncMode.BATCH).build(), CommitLogOptions.builder().noJmx().build());
        try {
            appendSome(log, 300);
            String stats = log.stats();
            String[] lines = stats.split("\n");
            assertTrue(lines.length >= 8 && lines.length <= 12, stats);
            assertTrue(lines[0].startsWith("commit log " + dir + " (batch), open "), stats);
            assertTrue(stats.contains("appends:       300 completed"), stats);
            assertTrue(stats.matches("(?s).*\n  flush: +p50 [0-9.]+ (us|ms) +p99 .*"), stats);
            assertTrue(stats.contains("up to log position " + String.format(java.util.Locale.ROOT, "%,d", log.durablePosition())), stats);
            log.close();
            assertTrue(log.stats().contains("appends:       300 completed"), "the final figures after close");
        } finally {
            log.close();
        }
    }

    @Test
    void latenciesOfAnIntervalAreTheDifferenceOfTwoSnapshots() throws Exception {
        try (CommitLog log = CommitLog.open(config(dir, SyncMode.BATCH).build(), CommitLogOptions.builder().noJmx().build())) {
            appendSome(log, 100);
            CommitLogMetrics earlier = log.metrics();
            appendSome(log, 100);
            CommitLogMetrics later = log.metrics();
            LatencySnapshot interval = later.waitingOnFlush().since(earlier.waitingOnFlush());
            assertEquals(later.flushes() - earlier.flushes(), interval.count(), "one flush duration per flush");
            assertTrue(interval.count() > 0);
            assertTrue(interval.valueAtPercentile(50) > 0 && interval.valueAtPercentile(50) <= interval.max());
            assertThrows(IllegalArgumentException.class, () -> earlier.waitingOnFlush().since(later.waitingOnFlush()),
                    "a later snapshot is not an earlier one");
            assertThrows(IllegalArgumentException.class, () -> interval.valueAtPercentile(101));
            assertThrows(IllegalArgumentException.class, () -> interval.valueAtPercentile(Double.NaN));
        }
    }

    @Test
    void theHistogramDecodesWithHdrHistogram() throws Exception {
        try (CommitLog log = CommitLog.open(config(dir, SyncMode.BATCH).build(), CommitLogOptions.builder().noJmx().build())) {
            appendSome(log, 100);
            LatencySnapshot flushes = log.metrics().waitingOnFlush();
            Histogram decoded = Histogram.decodeFromCompressedByteBuffer(ByteBuffer.wrap(flushes.encodedHistogram()), 0);
            assertEquals(flushes.count(), decoded.getTotalCount());
            assertEquals(flushes.max(), decoded.getMaxValue());
            assertEquals(flushes.valueAtPercentile(99), decoded.getValueAtPercentile(99));
        }
    }
}
