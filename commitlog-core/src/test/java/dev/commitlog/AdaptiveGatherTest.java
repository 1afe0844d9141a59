package dev.commitlog;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.commitlog.config.SyncMode;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Adaptive, as built, gathers: a few writers in a closed loop share every flush instead of
 * splitting into two cohorts that take turns (the cohort that arrives during a flush is claimed the
 * moment it is published, and the writers it released ride on the flush after). On a device whose
 * flushes take {@link #FLUSH_MILLIS} one at a time, released writers come back within well under a
 * flush, so the gather waits for them. Measured here: 3.6-4.0 records per flush (the gather stands
 * aside while an overlap trial runs), and 2.3-2.4 without the gather
 * ({@code -Ddev.commitlog.sync.adaptiveGather=false}).
 * AdaptiveSyncServiceTest covers the stopping rule itself.
 */
class AdaptiveGatherTest {
    private static final long FLUSH_MILLIS = 2;
    private static final int WRITERS = 4;
    private static final long WARMUP_MILLIS = 300;
    private static final long MEASURED_MILLIS = 1_000;

    @TempDir
    Path dir;

    @Test
    void fewWritersShareEveryFlush() throws Exception {
        DelayedDevice device = new DelayedDevice(true, FLUSH_MILLIS);
        ClosedLoopWriters.Spell measured = ClosedLoopWriters.runOn(dir, SyncMode.ADAPTIVE, device, WRITERS, WARMUP_MILLIS,
                MEASURED_MILLIS, () -> { });
        double perFlush = measured.recordsPerFlush();
        System.out.printf("adaptive gather: %.2f records per flush over %d flushes, %d writers%n", perFlush, measured.flushes(), WRITERS);
        assertTrue(measured.flushes() > 100, "too few flushes to judge: " + measured.flushes());
        assertTrue(perFlush > WRITERS - 1, "records per flush with " + WRITERS + " writers: " + perFlush);
    }
}
