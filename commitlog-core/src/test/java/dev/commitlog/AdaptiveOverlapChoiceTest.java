package dev.commitlog;

import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.commitlog.config.CommitLogConfig;
import dev.commitlog.config.SyncMode;
import dev.commitlog.io.ForwardingSegmentFile;
import dev.commitlog.io.ForwardingStorageLayer;
import dev.commitlog.io.SegmentFile;
import dev.commitlog.io.SimulatedDisk;
import dev.commitlog.metrics.CommitLogMetrics;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;
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
        DelayedDevice device = new DelayedDevice(false);
        Measured measured = run(device);
        assertTrue(device.overlappedShare() > 0.5, "flushes that started while another ran: " + device);
        assertTrue(measured.overlappedFlushes() > measured.flushes() / 2, "the metrics show it: " + measured);
    }

    @Test
    void aSerialDeviceGetsFlushesOneAtATime() throws Exception {
        DelayedDevice device = new DelayedDevice(true);
        Measured measured = run(device);
        assertTrue(device.overlappedShare() < 0.25, "flushes that started while another ran: " + device);
        assertTrue(measured.overlappedFlushes() < measured.flushes() / 4, "the metrics show it: " + measured);
    }

    /** What the log's metrics counted after the warm-up (the first trials run during it, overlapping half the time). */
    private record Measured(long flushes, long overlappedFlushes) {
        static Measured between(CommitLogMetrics before, CommitLogMetrics after) {
            return new Measured(after.flushes() - before.flushes(), after.overlappedFlushes() - before.overlappedFlushes());
        }
    }

    /** Runs the writers and returns what the log's metrics counted after the warm-up. */
    private Measured run(DelayedDevice device) throws Exception {
        CommitLogConfig config = TestLogs.config(dir, SyncMode.ADAPTIVE).build();
        AtomicReference<Throwable> problem = new AtomicReference<>();
        Measured measured;
        try (CommitLog log = CommitLog.open(config, device, TestLogs.NO_DAMAGE)) {
            List<Thread> writers = new ArrayList<>();
            long end = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(WARMUP_MILLIS + MEASURED_MILLIS);
            for (int t = 0; t < WRITERS; t++) {
                byte[] record = TestLogs.payload(t, 100);
                Thread writer = new Thread(() -> {
                    try {
                        while (System.nanoTime() < end) {
                            log.append(record, 0, record.length);
                            think();
                        }
                    } catch (Throwable e) {
                        problem.compareAndSet(null, e);
                    }
                }, "writer-" + t);
                writer.start();
                writers.add(writer);
            }
            Thread.sleep(WARMUP_MILLIS);
            device.resetCounts(); // the first trials run during the warm-up
            CommitLogMetrics afterWarmUp = log.metrics();
            for (Thread writer : writers) {
                writer.join();
            }
            measured = Measured.between(afterWarmUp, log.metrics());
        }
        assertNull(problem.get());
        assertTrue(device.starts.get() > 100, "too few flushes to judge: " + device);
        System.out.println("adaptive overlap choice: " + device + "; metrics: " + measured.overlappedFlushes() + " of "
                + measured.flushes() + " flushes overlapped");
        return measured;
    }

    /**
     * Up to one flush time between appends, at random. Without it the four writers are released
     * together and come back together, one flush covers all four whether or not flushes overlap,
     * and the trials' choice on the parallel device came down to scheduling noise (a CI run on a
     * busy machine measured 40% of flushes overlapped). Spread arrivals are what overlap is for: a
     * writer that arrives during a flush starts its own instead of waiting for that one to end.
     */
    private static void think() {
        LockSupport.parkNanos(ThreadLocalRandom.current().nextLong(TimeUnit.MILLISECONDS.toNanos(FLUSH_MILLIS)));
    }

    /** Lane flushes take {@link #FLUSH_MILLIS} more: all at once, or (serial) one after another. */
    private static final class DelayedDevice extends ForwardingStorageLayer {
        final boolean serial;
        final Object device = new Object();
        final AtomicInteger running = new AtomicInteger();
        final AtomicInteger starts = new AtomicInteger();
        final AtomicInteger overlapped = new AtomicInteger();

        DelayedDevice(boolean serial) {
            super(new SimulatedDisk());
            this.serial = serial;
        }

        void resetCounts() {
            starts.set(0);
            overlapped.set(0);
        }

        double overlappedShare() {
            return (double) overlapped.get() / Math.max(1, starts.get());
        }

        @Override
        protected SegmentFile wrap(SegmentFile file) {
            return new DelayedFile(file);
        }

        @Override
        public String toString() {
            return (serial ? "serial" : "parallel") + " device, " + overlapped + " of " + starts + " flushes overlapped";
        }

        private final class DelayedFile extends ForwardingSegmentFile {
            DelayedFile(SegmentFile file) {
                super(file);
            }

            @Override
            public void flushHeaderAndRange(int headerLength, int from, int to, int lane) throws IOException {
                starts.incrementAndGet();
                if (running.getAndIncrement() > 0) {
                    overlapped.incrementAndGet();
                }
                try {
                    if (serial) {
                        synchronized (device) {
                            pause();
                            super.flushHeaderAndRange(headerLength, from, to, lane);
                        }
                    } else {
                        pause();
                        super.flushHeaderAndRange(headerLength, from, to, lane);
                    }
                } finally {
                    running.decrementAndGet();
                }
            }
        }

        private static void pause() {
            long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(FLUSH_MILLIS);
            for (long left = deadline - System.nanoTime(); left > 0; left = deadline - System.nanoTime()) {
                LockSupport.parkNanos(left);
            }
        }
    }
}
