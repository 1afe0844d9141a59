package dev.commitlog;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.commitlog.config.SyncMode;
import dev.commitlog.sync.SyncTuning;
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
    /** Writers for the overlap case: enough for flushes of more than one record. */
    private static final int OVERLAP_WRITERS = 8;

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
     * Adaptive's exception: while flushes may overlap, appenders keep flushing inline, since the
     * sync thread runs one flush at a time. With the overlap gate off (overlap always allowed, the
     * {@code adaptive-ungated4} column; OverlapTrialsTest covers when the trials allow it) and the
     * hand-off lowered to flushes of more than one record, 8 writers arriving at random on a device
     * that runs syncs in parallel still get overlapped flushes: 0.96 of them, with 0.2 on the sync
     * thread, even beside four busy loops on 2 cores. Checked: with the hand-off applied whatever
     * overlap is allowed, 0.15 overlapped and 0.88 ran on the sync thread, and this fails. (With the
     * trials on, it read 0.50 overlapped once in a full build, a trial having chosen solo flushes
     * under the load.)
     */
    @Test
    void adaptiveKeepsFlushingInlineWhileFlushesMayOverlap() throws Exception {
        String savedRecords = System.setProperty(SyncTuning.INLINE_FLUSH_RECORDS, "1");
        String savedGate = System.setProperty(SyncTuning.ADAPTIVE_OVERLAP_GATE, "false");
        DelayedDevice device = new DelayedDevice(false, FLUSH_MILLIS);
        ClosedLoopWriters.Spell measured;
        try {
            measured = run(SyncMode.ADAPTIVE, device, OVERLAP_WRITERS, WARMUP_MILLIS, ClosedLoopWriters.randomPauseUpTo(FLUSH_MILLIS));
        } finally {
            TestLogs.restoreProperty(SyncTuning.INLINE_FLUSH_RECORDS, savedRecords);
            TestLogs.restoreProperty(SyncTuning.ADAPTIVE_OVERLAP_GATE, savedGate);
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
        ClosedLoopWriters.Spell measured = ClosedLoopWriters.runOn(dir, mode, device, writers, warmUpMillis, MEASURED_MILLIS, think);
        System.out.printf("%s, %d writers, %s: %.2f on the sync thread, %.2f records per flush%n", mode, writers, device,
                device.syncThreadShare(), measured.recordsPerFlush());
        assertTrue(device.starts.get() > 50, "too few flushes to judge: " + device);
        return measured;
    }
}
