package dev.commitlog;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.commitlog.config.SyncMode;
import java.nio.file.Path;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Perf tier (statistical, closed loop): Adaptive gathers, so a few writers share every flush
 * instead of splitting into two cohorts that take turns (the cohort that arrives during a flush is
 * claimed the moment it is published, and the writers it released ride on the flush after). On a
 * device whose flushes take {@link #FLUSH_MILLIS}, released writers come back within well under a
 * flush, so the gather waits for them; without it ({@code SyncTuning.withGather(false)}) flushes
 * carry about 2.3 of the 4 writers. GatherTest covers the stopping rule deterministically.
 */
@Tag("perf")
class AdaptiveGatherTest {
    private static final long FLUSH_MILLIS = 2;
    private static final int WRITERS = 4;
    private static final long WARMUP_MILLIS = 300;
    private static final long MEASURED_MILLIS = 1_000;

    @TempDir
    Path dir;

    @Test
    void fewWritersShareEveryFlush() throws Exception {
        DelayedDevice device = new DelayedDevice(FLUSH_MILLIS);
        ClosedLoopWriters.Spell measured = ClosedLoopWriters.runOn(dir, SyncMode.ADAPTIVE, SyncTuning.defaults(), device, WRITERS,
                WARMUP_MILLIS, MEASURED_MILLIS);
        double perFlush = measured.recordsPerFlush();
        System.out.printf("adaptive gather: %.2f records per flush over %d flushes, %d writers%n", perFlush, measured.flushes(), WRITERS);
        assertTrue(measured.flushes() > 100, "too few flushes to judge: " + measured.flushes());
        assertTrue(perFlush > WRITERS - 1, "records per flush with " + WRITERS + " writers: " + perFlush);
    }
}
