package dev.commitlog;

import static org.junit.jupiter.api.Assertions.*;

import dev.commitlog.config.CommitLogConfig;
import dev.commitlog.config.SyncMode;
import dev.commitlog.io.SimulatedDisk;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** {@link Ack}: one append more durable, or less waiting, than the log's mode. */
class PerAppendAckTest {
    @TempDir
    Path dir;

    @Test
    void aDurableAppendInAPeriodicLogIsFlushedBeforeItReturns() throws Exception {
        CommitLogConfig config = CommitLogConfig.builder(dir).syncMode(SyncMode.PERIODIC).syncPeriod(Duration.ofHours(1))
                .periodicLagBlock(Duration.ofHours(2)).build();
        try (CommitLog log = CommitLog.open(config)) {
            long plain = log.append(new byte[8], 0, 8);
            assertTrue(log.durablePosition() <= plain, "a plain periodic append is not flushed (the period is an hour)");
            long durable = log.append(new byte[8], 0, 8, Ack.DURABLE);
            assertTrue(log.durablePosition() > durable, "the DURABLE append was flushed before returning");
            assertEquals(1, log.metrics().flushes() - 0, "exactly one flush, asked for by that append");
        }
    }

    @Test
    void aDurableBufferAppendInAPeriodicLogIsFlushedBeforeItReturns() throws Exception {
        CommitLogConfig config = CommitLogConfig.builder(dir).syncMode(SyncMode.PERIODIC).syncPeriod(Duration.ofHours(1))
                .periodicLagBlock(Duration.ofHours(2)).build();
        try (CommitLog log = CommitLog.open(config)) {
            long plain = log.append(ByteBuffer.wrap(new byte[8]));
            assertTrue(log.durablePosition() <= plain, "a plain periodic append is not flushed (the period is an hour)");
            ByteBuffer record = ByteBuffer.allocateDirect(8);
            long durable = log.append(record, Ack.DURABLE);
            assertTrue(log.durablePosition() > durable, "the DURABLE append was flushed before returning");
            assertEquals(0, record.position(), "the buffer's position is left alone");
            assertEquals(1, log.metrics().flushes(), "exactly one flush, asked for by that append");
        }
    }

    @Test
    @Timeout(30)
    void aDurableAppendInAGroupLogDoesNotWaitForTheWindow() throws Exception {
        CommitLogConfig config = CommitLogConfig.builder(dir).syncMode(SyncMode.GROUP).groupWindow(Duration.ofHours(1)).build();
        try (CommitLog log = CommitLog.open(config)) {
            // The sync thread flushes once, then waits out its hour-long window.
            long first = log.append(new byte[8], 0, 8);
            assertTrue(log.durablePosition() > first);
            for (int i = 0; i < 20; i++) {
                long position = log.append(new byte[8], 0, 8, Ack.DURABLE);
                assertTrue(log.durablePosition() > position);
            }
        }
    }

    @Test
    @Timeout(30)
    void aWrittenAppendInABatchLogReturnsWithoutWaitingAndIsFlushedSoonAfter() throws Exception {
        SimulatedDisk disk = new SimulatedDisk();
        CommitLogConfig config = CommitLogConfig.builder(dir).syncMode(SyncMode.BATCH).segmentSize(TestLogs.SMALL_SEGMENT).build();
        try (CommitLog log = CommitLog.open(config, disk, (f, o, p, r, a) -> { })) {
            disk.blockFlushes();
            long position = log.append(new byte[8], 0, 8, Ack.WRITTEN);
            assertTrue(disk.awaitFlushBlocked(5_000), "a flush was asked for");
            assertTrue(log.durablePosition() <= position, "returned before the flush completed");
            disk.releaseFlushes();
            while (log.durablePosition() <= position) {
                Thread.sleep(1);
            }
        }
    }
}
