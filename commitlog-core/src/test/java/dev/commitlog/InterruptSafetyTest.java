package dev.commitlog;

import static org.junit.jupiter.api.Assertions.*;

import dev.commitlog.config.SyncMode;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.api.io.TempDir;

/**
 * In Batch and Adaptive modes an appender may run the flush itself, inside {@code pwrite} and
 * {@code fdatasync} on the segment's {@code FileChannel}. A plain {@code FileChannel} is
 * interruptible: an interrupt during I/O closes it for every thread, and the log would fail. The
 * storage layer makes its channels uninterruptible; this test interrupts appenders at random on
 * the real file layer and requires the log to stay healthy and every record to replay.
 */
class InterruptSafetyTest {
    @TempDir
    Path dir;

    @ParameterizedTest
    @EnumSource(value = SyncMode.class, names = {"BATCH", "ADAPTIVE"})
    void interruptingAppendersDuringInlineFlushesNeverFailsTheLog(SyncMode mode) throws Exception {
        int threads = 3;
        int perThread = 400;
        AtomicReference<Throwable> failure = new AtomicReference<>();
        AtomicBoolean done = new AtomicBoolean();
        try (CommitLog log = CommitLog.open(TestLogs.config(dir, mode).segmentSize(TestLogs.SMALL_SEGMENT).build())) {
            List<Thread> appenders = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                int id = t;
                Thread appender = new Thread(() -> {
                    try {
                        for (int i = 0; i < perThread; i++) {
                            byte[] payload = TestLogs.payload(id * perThread + i, 24);
                            log.append(payload, 0, payload.length);
                            Thread.interrupted(); // clear a flag set while we were not in I/O
                        }
                    } catch (Throwable e) {
                        failure.compareAndSet(null, e);
                    }
                });
                appenders.add(appender);
                appender.start();
            }
            Thread interrupter = new Thread(() -> {
                while (!done.get()) {
                    appenders.get(ThreadLocalRandom.current().nextInt(threads)).interrupt();
                    LockSupport.parkNanos(ThreadLocalRandom.current().nextInt(20_000, 200_000));
                }
            });
            interrupter.start();
            for (Thread appender : appenders) {
                appender.join(60_000);
            }
            done.set(true);
            interrupter.join();
            assertNull(failure.get(), () -> "an interrupted appender failed the log: " + failure.get());
            long position = log.append(new byte[8], 0, 8);
            assertTrue(log.durablePosition() > position, "the log still flushes");
            assertEquals(threads * perThread + 1, TestLogs.replayAll(log).size());
        }
    }
}
