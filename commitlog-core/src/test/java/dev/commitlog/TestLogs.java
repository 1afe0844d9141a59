package dev.commitlog;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.commitlog.config.CommitLogConfig;
import dev.commitlog.config.SyncMode;
import dev.commitlog.format.RecordDescriptor;
import dev.commitlog.format.SegmentDescriptor;
import dev.commitlog.segment.SegmentHeader;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.stream.Stream;

/**
 * Helpers shared by the core tests: configs for each mode, replay into a list and what it must
 * hold, telling a closed log's refusal from other failures, waiting for a condition.
 */
final class TestLogs {
    static final int SMALL_SEGMENT = 64 * 1024;
    /** Reopening reports no damage at all. */
    static final CorruptionListener NO_DAMAGE = (file, offset, position, reason, action) ->
            fail("unexpected damage report at " + file + " offset " + offset + ": " + reason);
    /** Reopening reports nothing but a torn tail (a crash image may hold one). */
    static final CorruptionListener TAIL_ONLY = new CorruptionListener() {
        @Override
        public void onCorruption(Path file, long offset, long position, CorruptionListener.Damage damage, String reason, String action) {
            assertEquals(CorruptionListener.Damage.TORN_TAIL, damage, () -> "only a torn tail may be reported, got: " + reason);
        }

        @Override
        public void onCorruption(Path file, long offset, long position, String reason, String action) {
            fail("a report without its kind of damage: " + reason);
        }
    };

    private TestLogs() {
    }


    static CommitLogConfig.Builder config(Path dir, SyncMode mode) {
        CommitLogConfig.Builder builder = CommitLogConfig.builder(dir).syncMode(mode);
        return switch (mode) {
            case PERIODIC -> builder.syncPeriod(Duration.ofMillis(20)).periodicLagBlock(Duration.ofSeconds(5));
            case GROUP -> builder.groupWindow(Duration.ofMillis(1));
            default -> builder;
        };
    }

    /**
     * Small segments and frequent flushes, so that a short run rolls over many segments and a
     * crash image catches flushes in progress: the config of the power-loss and failing-disk tests.
     */
    static CommitLogConfig smallSegmentConfig(Path dir, SyncMode mode) {
        CommitLogConfig.Builder builder = CommitLogConfig.builder(dir).syncMode(mode).segmentSize(SMALL_SEGMENT);
        return switch (mode) {
            case PERIODIC -> builder.syncPeriod(Duration.ofMillis(2)).build();
            case GROUP -> builder.groupWindow(Duration.ofMillis(1)).build();
            case BATCH, ADAPTIVE -> builder.build();
        };
    }

    record Entry(long position, byte[] payload) {
    }

    static List<Entry> replayAll(CommitLog log) throws IOException {
        return replayFrom(log, 0);
    }

    static List<Entry> replayFrom(CommitLog log, long from) throws IOException {
        List<Entry> entries = new ArrayList<>();
        log.replay(from, (position, payload) -> entries.add(new Entry(position, bytes(payload))));
        return entries;
    }

    /** A copy of a record view's bytes, from its position to its limit (the position is left alone). */
    static byte[] bytes(ByteBuffer record) {
        byte[] copy = new byte[record.remaining()];
        record.get(record.position(), copy);
        return copy;
    }

    /**
     * Replay gave exactly {@code expected} (position to payload) in position order: no record
     * lost, changed, moved or added.
     */
    static void assertReplaysExactly(Map<Long, byte[]> expected, List<Entry> replayed, String what) {
        assertReplaysExactly(inPositionOrder(expected), replayed, what);
    }

    /** Replay gave exactly {@code expected}, in that order: no record lost, changed, moved or added. */
    static void assertReplaysExactly(List<Entry> expected, List<Entry> replayed, String what) {
        assertReplayBeginsWith(expected, replayed, what);
        assertEquals(expected.size(), replayed.size(),
                () -> what + ": " + (replayed.size() - expected.size()) + " records replay after the expected ones");
    }

    /**
     * The first records replayed are exactly {@code expected} (position to payload), in position
     * order; more may follow (a crash image may hold records that were never acknowledged).
     */
    static void assertReplayBeginsWith(Map<Long, byte[]> expected, List<Entry> replayed, String what) {
        assertReplayBeginsWith(inPositionOrder(expected), replayed, what);
    }

    /** The first records replayed are exactly {@code expected}, in that order; more may follow. */
    static void assertReplayBeginsWith(List<Entry> expected, List<Entry> replayed, String what) {
        assertTrue(replayed.size() >= expected.size(),
                () -> what + ": " + (expected.size() - replayed.size()) + " expected records lost");
        for (int i = 0; i < expected.size(); i++) {
            int index = i;
            Entry want = expected.get(i);
            Entry got = replayed.get(i);
            assertEquals(want.position(), got.position(), () -> what + ": the position of record " + index);
            assertArrayEquals(want.payload(), got.payload(),
                    () -> what + ": the payload of record " + index + " at position " + want.position());
        }
    }

    private static List<Entry> inPositionOrder(Map<Long, byte[]> records) {
        return records.entrySet().stream().sorted(Map.Entry.comparingByKey())
                .map(record -> new Entry(record.getKey(), record.getValue())).toList();
    }

    /** {@code refusal} is what append throws once the log is closed, not some other failure. */
    static boolean isClosedRefusal(Throwable refusal) {
        return refusal instanceof IllegalStateException && String.valueOf(refusal.getMessage()).endsWith("is closed");
    }

    /** A deterministic payload for record {@code i}: its index, then filler, {@code length} bytes. */
    static byte[] payload(int i, int length) {
        byte[] bytes = new byte[length];
        for (int b = 0; b < length; b++) {
            bytes[b] = (byte) (i * 31 + b * 7);
        }
        return bytes;
    }

    /** Bytes of the segment files and spares in {@code dir}: what counts in commitlog_total_space. */
    static long segmentBytes(Path dir) throws IOException {
        try (Stream<Path> files = Files.list(dir)) {
            long total = 0;
            for (Path file : files.filter(f -> SegmentDescriptor.parseId(f.getFileName().toString()) >= 0
                    || SegmentDescriptor.parseRecycledId(f.getFileName().toString()) >= 0).toList()) {
                try {
                    total += Files.size(file);
                } catch (java.nio.file.NoSuchFileException e) {
                    // deleted since the listing (the lifecycle thread discards concurrently): no bytes
                }
            }
            return total;
        }
    }

    /** The durable mark in the header of segment 0, given the file's bytes. */
    static long durableMarkOfFirstSegment(byte[] segment) {
        return durableMark(segment, 0);
    }

    /** The durable mark in the header of segment {@code id}, given the file's bytes. */
    static long durableMark(byte[] segment, long id) {
        return SegmentHeader.decode(ByteBuffer.wrap(segment), id, segment.length).durableMark();
    }

    /** Flips a byte in the middle of the payload of the record at {@code position} of segment 0, on disk. */
    static void flipPayloadByte(Path segment, long position, int payloadLength) throws IOException {
        byte[] bytes = Files.readAllBytes(segment);
        bytes[(int) position + RecordDescriptor.FRAME_HEADER_LENGTH + payloadLength / 2] ^= (byte) 0x5a;
        Files.write(segment, bytes);
    }

    /** Deletes every segment file in {@code dir} but segment 0 (a crash image of one segment). */
    static void deleteSegmentsAfterTheFirst(Path dir) throws IOException {
        try (Stream<Path> files = Files.list(dir)) {
            for (Path file : files.toList()) {
                if (SegmentDescriptor.parseId(file.getFileName().toString()) > 0) {
                    Files.delete(file);
                }
            }
        }
    }

    interface Condition {
        boolean holds() throws Exception;
    }

    /** Polls {@code condition} until it holds; fails after 10 s naming {@code what}. */
    static void waitUntil(Condition condition, String what) throws Exception {
        long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        while (!condition.holds()) {
            if (System.nanoTime() > deadline) {
                fail("timed out waiting until " + what);
            }
            Thread.sleep(2);
        }
    }

    /**
     * Runs {@code task} on a new thread of its own. Tests that block (an appender waiting for space,
     * a tailer waiting for records) must not share the common fork-join pool, which has a single
     * worker on a 2-core machine.
     */
    static <T> CompletableFuture<T> inThread(Callable<T> task) {
        CompletableFuture<T> result = new CompletableFuture<>();
        Thread thread = new Thread(() -> {
            try {
                result.complete(task.call());
            } catch (Throwable e) {
                result.completeExceptionally(e);
            }
        }, "test-task");
        thread.setDaemon(true);
        thread.start();
        return result;
    }
}
