package dev.commitlog.replay;

import static org.junit.jupiter.api.Assertions.*;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** The progress lines' content and their rate limit, on a clock the test moves. */
class ReplayProgressTest {
    private static final long SECOND = TimeUnit.SECONDS.toNanos(1);

    private final CapturingLogger logger = new CapturingLogger();
    private final AtomicLong clock = new AtomicLong(1_000 * SECOND);
    private final ReplayProgress progress = new ReplayProgress(logger, "commit log replay of /log", clock::get, 5 * SECOND);

    @Test
    void reportsPercentOfBytesAndRecordsPerSecondAtMostOncePerInterval() {
        progress.start(0, 1000L << 20); // 1,000 MiB to read
        long position = 0;
        // 100 seconds of replay, one clock tick of 10 ms per 256 records, 1 MiB per 256 records.
        for (int tick = 1; tick <= 10_000; tick++) {
            clock.addAndGet(SECOND / 100);
            for (int i = 0; i < ReplayProgress.CLOCK_EVERY; i++) {
                progress.onRecord(position);
            }
            position += 1 << 20;
            if (position >= 1000L << 20) {
                break;
            }
        }
        // 1,000 ticks of 10 ms: 10 s, so two lines (at 5 s and 10 s), never more often than every 5 s.
        assertEquals(2, logger.lines.size(), String.join("\n", logger.lines));
        assertEquals("INFO commit log replay of /log: 49.9% (499.0 of 1000.0 MiB), 128000 records, 25600 records/s", logger.lines.get(0));
        assertTrue(logger.lines.get(1).startsWith("INFO commit log replay of /log: 99.9% (999.0 of 1000.0 MiB), 256000 records, 25600 records/s"),
                logger.lines.get(1));

        progress.finish(1000L << 20);
        assertEquals("INFO commit log replay of /log: done, 256000 records (1000.0 MiB) in 10000 ms, 25600 records/s, 100.0 MiB/s",
                logger.lines.get(2));
    }

    @Test
    void aWalkShorterThanTheIntervalLogsOnlyTheSummary() {
        progress.start(64, 10_064);
        for (int i = 0; i < 10 * ReplayProgress.CLOCK_EVERY; i++) {
            clock.addAndGet(SECOND / 1000);
            progress.onRecord(64 + i);
        }
        assertTrue(logger.lines.isEmpty(), String.join("\n", logger.lines));
        progress.finish(10_064);
        assertEquals(1, logger.lines.size());
        assertTrue(logger.lines.get(0).startsWith("INFO commit log replay of /log: done, 2560 records (0.0 MiB) in 2560 ms"), logger.lines.get(0));
    }

    @Test
    void aWalkThatMetNoSegmentSaysNothing() {
        progress.finish(0);
        assertTrue(logger.lines.isEmpty());
    }
}
