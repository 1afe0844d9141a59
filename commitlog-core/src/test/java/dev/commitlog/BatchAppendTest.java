package dev.commitlog;

import static dev.commitlog.TestLogs.config;
import static dev.commitlog.TestLogs.payload;
import static org.junit.jupiter.api.Assertions.*;

import dev.commitlog.config.SyncMode;
import dev.commitlog.format.RecordDescriptor;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Batch appends: positions in order, each readable, the whole batch durable on return. */
class BatchAppendTest {
    @TempDir
    Path dir;

    private static int length(int i) {
        return 1 + i * 53 % 900;
    }

    @Test
    void everyRecordIsReadableAtItsPositionAndDurableOnReturn() throws Exception {
        try (CommitLog log = CommitLog.open(config(dir, SyncMode.BATCH).segmentSize(TestLogs.SMALL_SEGMENT).build(),
                CommitLogOptions.builder().noJmx().build())) {
            int next = 0;
            long previous = -1;
            for (int batch = 0; batch < 60; batch++) {
                int size = 1 + batch * 17 % CommitLog.MAX_BATCH;
                byte[][] records = new byte[size][];
                for (int i = 0; i < size; i++) {
                    records[i] = payload(next + i, length(next + i));
                }
                long[] positions = log.appendBatch(records);
                long last = positions[size - 1];
                assertTrue(log.durablePosition() >= last + RecordDescriptor.alignedFrameLength(records[size - 1].length),
                        "the batch is durable on return");
                for (int i = 0; i < size; i++) {
                    assertTrue(positions[i] > previous, "positions ascend");
                    previous = positions[i];
                    assertArrayEquals(records[i], log.readAt(positions[i]), "record " + (next + i));
                }
                next += size;
            }
            assertTrue(previous > 3L * TestLogs.SMALL_SEGMENT, "the batches crossed rollovers");
            assertEquals(next, TestLogs.replayAll(log).size());
        }
    }

    @Test
    void aDurableAckWaitsForTheFlushEvenInAPeriodicLog() throws Exception {
        try (CommitLog log = CommitLog.open(config(dir, SyncMode.PERIODIC).syncPeriod(Duration.ofSeconds(10))
                        .periodicLagBlock(Duration.ofSeconds(30)).build(),
                CommitLogOptions.builder().noJmx().build())) {
            byte[][] records = {payload(1, 10), payload(2, 300), payload(3, 7)};
            long[] positions = new long[4];
            long last = log.appendBatch(records, positions, Ack.DURABLE);
            assertEquals(positions[2], last);
            assertTrue(log.durablePosition() >= last + RecordDescriptor.alignedFrameLength(7));
            for (int i = 0; i < records.length; i++) {
                assertArrayEquals(records[i], log.readAt(positions[i]));
            }
        }
    }

    @Test
    void refusesEmptyOversizedAndTooLargeBatchesWritingNothing() throws Exception {
        try (CommitLog log = CommitLog.open(config(dir, SyncMode.BATCH).maxRecordSize(1024).build(),
                CommitLogOptions.builder().noJmx().build())) {
            assertThrows(IllegalArgumentException.class, () -> log.appendBatch(new byte[0][]));
            assertThrows(IllegalArgumentException.class, () -> log.appendBatch(new byte[CommitLog.MAX_BATCH + 1][]));
            assertThrows(IllegalArgumentException.class, () -> log.appendBatch(new byte[][] {payload(1, 5), payload(2, 5)},
                    new long[1], Ack.MODE));
            assertThrows(RecordTooLargeException.class, () -> log.appendBatch(new byte[][] {payload(1, 5), payload(2, 2_000)}));
            assertEquals(0, TestLogs.replayAll(log).size(), "a refused batch writes nothing");
            long[] positions = log.appendBatch(new byte[][] {payload(1, 5)});
            assertEquals(1, TestLogs.replayAll(log).size());
            assertArrayEquals(payload(1, 5), log.readAt(positions[0]));
        }
    }
}
