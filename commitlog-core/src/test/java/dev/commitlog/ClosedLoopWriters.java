package dev.commitlog;

import static org.junit.jupiter.api.Assertions.assertNull;

import dev.commitlog.config.SyncMode;
import dev.commitlog.metrics.CommitLogMetrics;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

/** Writers that append 100-byte records to one log in a closed loop, for a warm-up and then a measured spell. */
final class ClosedLoopWriters {
    /** What the log's metrics counted over the measured spell. */
    record Spell(CommitLogMetrics before, CommitLogMetrics after) {
        long flushes() {
            return after.flushes() - before.flushes();
        }

        double recordsPerFlush() {
            return (double) (after.recordsFlushed() - before.recordsFlushed()) / flushes();
        }
    }

    private ClosedLoopWriters() {
    }

    /**
     * Opens a {@code mode} log in {@code dir} on {@code device}, runs the writers on it (as
     * {@link #run}) and closes it; the device's counts cover the measured spell only.
     */
    static Spell runOn(Path dir, SyncMode mode, SyncTuning tuning, DelayedDevice device, int writers, long warmUpMillis,
                       long measuredMillis) throws Exception {
        CommitLogOptions options = CommitLogOptions.builder().storage(device).corruptionListener(TestLogs.NO_DAMAGE)
                .syncTuning(tuning).noJmx().build();
        try (CommitLog log = CommitLog.open(TestLogs.config(dir, mode).build(), options)) {
            return run(log, writers, warmUpMillis, measuredMillis, () -> { }, device::resetCounts);
        }
    }

    /**
     * Runs {@code writers} threads, each calling {@code think} after every append, for
     * {@code warmUpMillis} and then {@code measuredMillis}; {@code afterWarmUp} runs between the two.
     * Fails the test if any append threw.
     */
    static Spell run(CommitLog log, int writers, long warmUpMillis, long measuredMillis, Runnable think,
                     Runnable afterWarmUp) throws InterruptedException {
        AtomicReference<Throwable> problem = new AtomicReference<>();
        List<Thread> threads = new ArrayList<>();
        long end = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(warmUpMillis + measuredMillis);
        for (int t = 0; t < writers; t++) {
            byte[] record = TestLogs.payload(t, 100);
            Thread writer = new Thread(() -> {
                try {
                    while (System.nanoTime() < end) {
                        log.append(record, 0, record.length);
                        think.run();
                    }
                } catch (Throwable e) {
                    problem.compareAndSet(null, e);
                }
            }, "writer-" + t);
            writer.start();
            threads.add(writer);
        }
        Thread.sleep(warmUpMillis);
        afterWarmUp.run();
        CommitLogMetrics before = log.metrics();
        for (Thread writer : threads) {
            writer.join();
        }
        assertNull(problem.get());
        return new Spell(before, log.metrics());
    }
}
