package dev.commitlog;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.commitlog.config.SyncMode;
import java.nio.file.Path;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Perf tier (statistical, closed loop): with more writers than there are cores, Batch hands every
 * flush to the sync thread, which then also publishes and wakes them (LeaderFollower's class
 * comment says why). On a 2 ms device with 8 Batch writers nearly all flushes are the sync
 * thread's; with {@code SyncTuning.ALWAYS_INLINE} about 0.86 are (the followers' requests).
 * LeaderFollowerTest pins the decision itself deterministically.
 */
@Tag("perf")
class FlushHandOffTest {
    private static final long FLUSH_MILLIS = 2;
    private static final int MANY_WRITERS = 8;
    private static final long WARMUP_MILLIS = 300;
    private static final long MEASURED_MILLIS = 700;

    @TempDir
    Path dir;

    @Test
    void manyWritersHandTheirFlushesToTheSyncThread() throws Exception {
        DelayedDevice device = new DelayedDevice(FLUSH_MILLIS);
        ClosedLoopWriters.Spell measured = ClosedLoopWriters.runOn(dir, SyncMode.BATCH, SyncTuning.defaults(), device, MANY_WRITERS,
                WARMUP_MILLIS, MEASURED_MILLIS);
        System.out.printf("batch, %d writers, %s: %.2f records per flush%n", MANY_WRITERS, device, measured.recordsPerFlush());
        assertTrue(device.starts.get() > 50, "too few flushes to judge: " + device);
        assertTrue(device.syncThreadShare() > 0.97, "share of " + MANY_WRITERS + " writers' flushes run by the sync thread: "
                + device.syncThreadShare());
    }
}
