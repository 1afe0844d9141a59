package dev.commitlog;

import static org.junit.jupiter.api.Assertions.*;

import dev.commitlog.config.CommitLogConfig;
import dev.commitlog.config.SyncMode;
import dev.commitlog.io.SimulatedDisk;
import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class InterruptedAppenderTest {
    @TempDir
    Path dir;

    @Test
    void anInterruptedAppenderStillWaitsForItsFlushAndKeepsItsInterruptFlag() throws Exception {
        SimulatedDisk storage = new SimulatedDisk();
        CommitLogConfig config = CommitLogConfig.builder(dir).syncMode(SyncMode.BATCH).segmentSize(TestLogs.SMALL_SEGMENT).build();
        try (CommitLog log = CommitLog.open(config, storage, (f, o, p, r, a) -> { })) {
            storage.blockFlushes();
            AtomicBoolean flagAfter = new AtomicBoolean();
            Thread[] appender = new Thread[1];
            CompletableFuture<Long> append = CompletableFuture.supplyAsync(() -> {
                appender[0] = Thread.currentThread();
                long position = log.append(new byte[10], 0, 10);
                flagAfter.set(Thread.currentThread().isInterrupted());
                return position;
            });
            while (appender[0] == null || storage.flushCalls() == 0) {
                Thread.sleep(5);
            }
            appender[0].interrupt();
            Thread.sleep(100);
            assertFalse(append.isDone(), "the append waits for the held flush despite the interrupt");
            storage.releaseFlushes();
            long position = append.get(10, TimeUnit.SECONDS);
            assertTrue(log.durablePosition() > position);
            assertTrue(flagAfter.get(), "the interrupt flag is restored for the caller");
        }
    }
}
