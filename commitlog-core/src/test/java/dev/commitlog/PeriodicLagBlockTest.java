package dev.commitlog;

import static org.junit.jupiter.api.Assertions.*;

import dev.commitlog.config.CommitLogConfig;
import dev.commitlog.config.SyncMode;
import dev.commitlog.io.SimulatedDisk;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class PeriodicLagBlockTest {
    @TempDir
    Path dir;

    @Test
    void appendsBlockWhileAFlushIsHeldPastTheLagLimitAndResumeWhenItCompletes() throws Exception {
        SimulatedDisk storage = new SimulatedDisk();
        CommitLogConfig config = CommitLogConfig.builder(dir).syncMode(SyncMode.PERIODIC)
                .syncPeriod(Duration.ofMillis(50)).periodicLagBlock(Duration.ofMillis(150))
                .segmentSize(TestLogs.SMALL_SEGMENT).build();
        byte[] record = new byte[64];
        try (CommitLog log = CommitLog.open(config, storage, (f, o, p, r, a) -> { })) {
            long before = System.nanoTime();
            for (int i = 0; i < 100; i++) {
                log.append(record, 0, record.length);
            }
            assertTrue(System.nanoTime() - before < TimeUnit.MILLISECONDS.toNanos(150), "unblocked appends return at once");

            storage.blockFlushes();
            int started = storage.flushCalls();
            log.append(record, 0, record.length); // gives the next flush something to do
            while (storage.flushCalls() == started) {
                Thread.sleep(5); // wait until the sync thread is stuck inside a flush
            }
            Thread.sleep(200); // now past the 150 ms lag limit
            CompletableFuture<Long> blocked = CompletableFuture.supplyAsync(() -> log.append(record, 0, record.length));
            assertThrows(TimeoutException.class, () -> blocked.get(300, TimeUnit.MILLISECONDS),
                    "an append while syncing lags past the limit must block");
            storage.releaseFlushes();
            long position = blocked.get(10, TimeUnit.SECONDS);
            assertTrue(log.durablePosition() > position, "the blocked append returned only once a flush covered it");
            assertTrue(log.metrics().lagBlocks() >= 1);
        }
    }
}
