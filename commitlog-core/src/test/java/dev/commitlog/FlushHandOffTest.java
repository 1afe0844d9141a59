package dev.commitlog;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.commitlog.config.CommitLogConfig;
import dev.commitlog.config.SyncMode;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Who flushes: a lone writer flushes in its own thread (no hand-off to pay), while more writers
 * than there are cores hand every flush to the sync thread, which then also publishes and wakes
 * them (BatchSyncService's class comment says why). Measured here on a serial 2 ms device: a
 * lone writer's flushes are all its own; with 8 Batch writers, all of them are the sync thread's,
 * and 0.86 (the followers' requests) when every appender that finds nobody flushing flushes
 * inline ({@code -Ddev.commitlog.sync.inlineFlushRecords=2147483647}).
 */
class FlushHandOffTest {
    private static final long FLUSH_MILLIS = 2;
    private static final int MANY_WRITERS = 8;
    private static final long WARMUP_MILLIS = 300;
    private static final long MEASURED_MILLIS = 700;

    @TempDir
    Path dir;

    @ParameterizedTest
    @EnumSource(value = SyncMode.class, names = {"BATCH", "ADAPTIVE"})
    void aLoneWriterFlushesItself(SyncMode mode) throws Exception {
        double share = syncThreadShare(mode, 1);
        assertTrue(share < 0.05, mode + ": share of a lone writer's flushes run by the sync thread: " + share);
    }

    /**
     * Batch only: Adaptive hands off only while its overlap trials have settled on solo flushes
     * (overlap needs appenders flushing), so its share also counts the trials' flushes. No test
     * pins that exception yet: AdaptiveOverlapChoiceTest's overlapped flushes carry 1-2 records,
     * below the hand-off, and it passes without the exception.
     */
    @Test
    void manyWritersHandTheirFlushesToTheSyncThread() throws Exception {
        double share = syncThreadShare(SyncMode.BATCH, MANY_WRITERS);
        assertTrue(share > 0.97, "share of " + MANY_WRITERS + " writers' flushes run by the sync thread: " + share);
    }

    private double syncThreadShare(SyncMode mode, int writers) throws Exception {
        DelayedDevice device = new DelayedDevice(true, FLUSH_MILLIS);
        CommitLogConfig config = TestLogs.config(dir, mode).build();
        ClosedLoopWriters.Spell measured;
        try (CommitLog log = CommitLog.open(config, device, TestLogs.NO_DAMAGE)) {
            measured = ClosedLoopWriters.run(log, writers, WARMUP_MILLIS, MEASURED_MILLIS, () -> { }, device::resetCounts);
        }
        double share = device.syncThreadShare();
        System.out.printf("%s, %d writers: %.2f of %d flushes on the sync thread, %.2f records per flush%n", mode, writers, share,
                device.starts.get(), measured.recordsPerFlush());
        assertTrue(device.starts.get() > 50, "too few flushes to judge: " + device);
        return share;
    }
}
