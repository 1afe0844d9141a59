package dev.commitlog;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.commitlog.config.SyncMode;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Adaptive, as built (no switches), chooses by itself whether flushes overlap: on a device that
 * runs syncs in parallel its trials settle on overlapping, and on one that runs them one at a time
 * they settle on flushing alone. Each device makes every lane flush take {@link #FLUSH_MILLIS};
 * four writers append in a closed loop with a random pause between appends, and after a warm-up the test counts which flushes started
 * while another was still running. OverlapTrialsTest covers the decision rule itself.
 */
class AdaptiveOverlapChoiceTest {
    private static final long FLUSH_MILLIS = 2;
    private static final int WRITERS = 4;
    private static final long WARMUP_MILLIS = 1_000;
    private static final long MEASURED_MILLIS = 1_000;

    @TempDir
    Path dir;

    @Test
    void aParallelDeviceGetsOverlappingFlushes() throws Exception {
        DelayedDevice device = new DelayedDevice(false, FLUSH_MILLIS);
        ClosedLoopWriters.Spell measured = run(device);
        assertTrue(device.overlappedShare() > 0.5, "flushes that started while another ran: " + device);
        assertTrue(measured.overlappedFlushes() > measured.flushes() / 2, "the metrics show it: " + measured);
    }

    @Test
    void aSerialDeviceGetsFlushesOneAtATime() throws Exception {
        DelayedDevice device = new DelayedDevice(true, FLUSH_MILLIS);
        ClosedLoopWriters.Spell measured = run(device);
        assertTrue(device.overlappedShare() < 0.25, "flushes that started while another ran: " + device);
        assertTrue(measured.overlappedFlushes() < measured.flushes() / 4, "the metrics show it: " + measured);
    }

    /** Runs the writers and returns what the log's metrics counted after the warm-up (the first trials run during it). */
    private ClosedLoopWriters.Spell run(DelayedDevice device) throws Exception {
        // Up to one flush time between appends, at random. Without it the four writers are released
        // together and come back together, one flush covers all four whether or not flushes overlap,
        // and the trials' choice on the parallel device came down to scheduling noise (a CI run on a
        // busy machine measured 40% of flushes overlapped). Spread arrivals are what overlap is for:
        // a writer that arrives during a flush starts its own instead of waiting for that one to end.
        Runnable think = ClosedLoopWriters.randomPauseUpTo(FLUSH_MILLIS);
        ClosedLoopWriters.Spell measured = ClosedLoopWriters.runOn(dir, SyncMode.ADAPTIVE, device, WRITERS, WARMUP_MILLIS,
                MEASURED_MILLIS, think);
        assertTrue(device.starts.get() > 100, "too few flushes to judge: " + device);
        System.out.println("adaptive overlap choice: " + device + "; metrics: " + measured.overlappedFlushes() + " of "
                + measured.flushes() + " flushes overlapped");
        return measured;
    }
}
