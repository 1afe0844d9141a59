package dev.commitlog.replay;

import static org.junit.jupiter.api.Assertions.*;

import dev.commitlog.CommitLog;
import dev.commitlog.config.CommitLogConfig;
import dev.commitlog.config.ReplayPolicy;
import dev.commitlog.config.SyncMode;
import dev.commitlog.disk.MappedStorageLayer;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Replay of a real log reports its progress through the walk, and a summary. */
class ReplayerProgressTest {
    private static final int RECORDS = 5_000;
    private static final Pattern PERCENT = Pattern.compile("INFO commit log replay of .*: (\\d+\\.\\d)% \\(.*\\), (\\d+) records, \\d+ records/s");

    @TempDir
    Path dir;

    @Test
    void replayReportsRisingPercentAndASummary() throws Exception {
        long durable;
        try (CommitLog log = CommitLog.open(CommitLogConfig.builder(dir).syncMode(SyncMode.PERIODIC).segmentSize(64 * 1024).build())) {
            byte[] record = new byte[100];
            for (int i = 0; i < RECORDS; i++) {
                log.append(record, 0, record.length);
            }
            log.sync();
            durable = log.durablePosition();
        }
        CapturingLogger logger = new CapturingLogger();
        AtomicLong clock = new AtomicLong();
        // Each clock read moves time on by one interval, so every check the walk makes reports.
        Replayer replayer = new Replayer(new MappedStorageLayer(), ReplayPolicy.STRICT, (f, o, p, r, a) -> fail(r), logger,
                () -> clock.addAndGet(1_000), 1_000);
        long[] seen = {0};
        assertEquals(RECORDS, replayer.replay(dir, 0, durable, (position, bytes) -> seen[0]++));

        int reports = logger.lines.size() - 1;
        assertEquals(RECORDS / ReplayProgress.CLOCK_EVERY, reports, String.join("\n", logger.lines));
        double previous = 0;
        for (int i = 0; i < reports; i++) {
            Matcher m = PERCENT.matcher(logger.lines.get(i));
            assertTrue(m.matches(), logger.lines.get(i));
            double percent = Double.parseDouble(m.group(1));
            assertTrue(percent > previous && percent < 100, logger.lines.get(i));
            assertEquals((i + 1) * ReplayProgress.CLOCK_EVERY, Long.parseLong(m.group(2)));
            previous = percent;
        }
        assertTrue(previous > 90, "the last report is near the end: " + previous);
        assertTrue(logger.lines.get(reports).startsWith("INFO commit log replay of " + dir + ": done, " + RECORDS + " records"),
                logger.lines.get(reports));
    }

    @Test
    void theSummaryOfAReplayFromAPositionCountsWhatWasHandedOverAndWhatWasReadPast() throws Exception {
        long from;
        long durable;
        try (CommitLog log = CommitLog.open(CommitLogConfig.builder(dir).syncMode(SyncMode.BATCH).segmentSize(1024 * 1024).build())) {
            byte[] record = new byte[100];
            long[] positions = new long[RECORDS];
            for (int i = 0; i < RECORDS; i++) {
                positions[i] = log.append(record, 0, record.length);
            }
            from = positions[RECORDS - 10];
            durable = log.durablePosition();
        }
        CapturingLogger logger = new CapturingLogger();
        Replayer replayer = new Replayer(new MappedStorageLayer(), ReplayPolicy.STRICT, (f, o, p, r, a) -> fail(r), logger,
                System::nanoTime, Long.MAX_VALUE);
        long[] seen = {0};
        assertEquals(10, replayer.replay(dir, from, durable, (position, bytes) -> seen[0]++));
        assertEquals(10, seen[0]);
        String done = logger.lines.get(logger.lines.size() - 1);
        assertTrue(done.contains(": done, 10 records replayed, " + (RECORDS - 10) + " records before position " + from + " read past"), done);
    }
}
