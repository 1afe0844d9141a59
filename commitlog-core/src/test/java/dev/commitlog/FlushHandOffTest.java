package dev.commitlog;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.commitlog.config.CommitLogConfig;
import dev.commitlog.config.SyncMode;
import dev.commitlog.sync.SyncTuning;
import java.nio.file.Path;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
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
    /** Writers for the overlap case, and a warm-up long enough for two trials to choose overlap. */
    private static final int OVERLAP_WRITERS = 8;
    private static final long OVERLAP_WARMUP_MILLIS = 1_000;

    @TempDir
    Path dir;

    @ParameterizedTest
    @EnumSource(value = SyncMode.class, names = {"BATCH", "ADAPTIVE"})
    void aLoneWriterFlushesItself(SyncMode mode) throws Exception {
        double share = syncThreadShare(mode, 1);
        assertTrue(share < 0.05, mode + ": share of a lone writer's flushes run by the sync thread: " + share);
    }

    /**
     * Batch only: Adaptive hands off only while overlap is not allowed (overlap needs appenders
     * flushing), so its share also counts the trials' overlap epochs; the next test pins that.
     */
    @Test
    void manyWritersHandTheirFlushesToTheSyncThread() throws Exception {
        double share = syncThreadShare(SyncMode.BATCH, MANY_WRITERS);
        assertTrue(share > 0.97, "share of " + MANY_WRITERS + " writers' flushes run by the sync thread: " + share);
    }

    /**
     * Adaptive's exception: while its trials let flushes overlap, appenders keep flushing inline,
     * since the sync thread runs one flush at a time. On a device that runs syncs in parallel, with
     * the hand-off lowered to flushes of more than one record, writers arriving at random still get
     * overlapped flushes (AdaptiveOverlapChoiceTest's case). Checked: with the hand-off applied
     * whatever the trials allow, the trials lose overlap and this fails.
     */
    @Test
    void adaptiveKeepsFlushingInlineWhileFlushesOverlap() throws Exception {
        String saved = System.setProperty(SyncTuning.INLINE_FLUSH_RECORDS, "1");
        DelayedDevice device = new DelayedDevice(false, FLUSH_MILLIS);
        ClosedLoopWriters.Spell measured;
        try {
            measured = run(SyncMode.ADAPTIVE, device, OVERLAP_WRITERS, OVERLAP_WARMUP_MILLIS, FlushHandOffTest::think);
        } finally {
            if (saved == null) {
                System.clearProperty(SyncTuning.INLINE_FLUSH_RECORDS);
            } else {
                System.setProperty(SyncTuning.INLINE_FLUSH_RECORDS, saved);
            }
        }
        assertTrue(measured.recordsPerFlush() > 1, "flushes too small to be handed off: " + measured.recordsPerFlush());
        assertTrue(device.overlappedShare() > 0.5, "flushes that started while another ran: " + device);
        assertTrue(device.syncThreadShare() < 0.5, "share of flushes run by the sync thread: " + device.syncThreadShare());
    }

    private double syncThreadShare(SyncMode mode, int writers) throws Exception {
        DelayedDevice device = new DelayedDevice(true, FLUSH_MILLIS);
        run(mode, device, writers, WARMUP_MILLIS, () -> { });
        return device.syncThreadShare();
    }

    private ClosedLoopWriters.Spell run(SyncMode mode, DelayedDevice device, int writers, long warmUpMillis, Runnable think)
            throws Exception {
        CommitLogConfig config = TestLogs.config(dir, mode).build();
        ClosedLoopWriters.Spell measured;
        try (CommitLog log = CommitLog.open(config, device, TestLogs.NO_DAMAGE)) {
            measured = ClosedLoopWriters.run(log, writers, warmUpMillis, MEASURED_MILLIS, think, device::resetCounts);
        }
        System.out.printf("%s, %d writers, %s: %.2f on the sync thread, %.2f records per flush%n", mode, writers, device,
                device.syncThreadShare(), measured.recordsPerFlush());
        assertTrue(device.starts.get() > 50, "too few flushes to judge: " + device);
        return measured;
    }

    /** Up to one flush time between appends, at random: spread arrivals are what overlap is for (see AdaptiveOverlapChoiceTest). */
    private static void think() {
        LockSupport.parkNanos(ThreadLocalRandom.current().nextLong(TimeUnit.MILLISECONDS.toNanos(FLUSH_MILLIS)));
    }
}
