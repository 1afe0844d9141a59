package dev.commitlog;

import static dev.commitlog.TestLogs.NO_DAMAGE;
import static org.junit.jupiter.api.Assertions.*;

import dev.commitlog.config.CommitLogConfig;
import dev.commitlog.config.ReplayPolicy;
import dev.commitlog.config.SyncMode;
import dev.commitlog.disk.MappedStorageLayer;
import dev.commitlog.format.SegmentDescriptor;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * commitlog_recycle_segments on real files: a log that discards as it appends makes its segments
 * from the files it discarded, and the former lives' frames in those files never read as records,
 * never as damage, and never under a reader that is still on them.
 */
class SegmentRecyclingTest {
    private static final int PAYLOAD = 1000;

    @TempDir
    Path dir;

    @Test
    void aLogThatDiscardsAsItAppendsMakesItsSegmentsFromTheFilesItDiscarded() throws Exception {
        Map<Long, byte[]> appended = new TreeMap<>();
        long discardedTo;
        try (CommitLog log = open(config())) {
            discardedTo = appendAndDiscard(log, 30, appended);
            assertTrue(log.metrics().segmentsRecycled() >= 10, () -> "recycled: " + log.metrics());
            assertTrue(log.metrics().segmentsCreated() <= 4, () -> "created new: " + log.metrics());
            assertTrue(files(SegmentDescriptor.RECYCLE_SUFFIX) <= 4, "at most commitlog_recycle_segments spares");
        }
        assertReplaysWhatWasAppended(appended, discardedTo);
    }

    @Test
    void aCleanReopenOfARecycledTailFindsItsEndWithoutReportingAnything() throws Exception {
        TreeMap<Long, byte[]> appended = new TreeMap<>();
        long discardedTo;
        try (CommitLog log = open(config())) {
            discardedTo = appendAndDiscard(log, 12, appended);
            append(log, 5, appended); // a few records into a recycled segment, whose former frames follow them
        }
        long last = appended.lastKey();
        assertTrue(saltOfSegmentHolding(last) > 0, "precondition: the last records are in a recycled file");
        // Strict refuses any damage, a torn tail included: a stale frame read at the end would fail the open.
        assertReplaysWhatWasAppended(appended, discardedTo, ReplayPolicy.STRICT);
    }

    @Test
    void aFileATailerStillReadsIsDeletedNotRecycled() throws Exception {
        Map<Long, byte[]> appended = new TreeMap<>();
        try (CommitLog log = open(config())) {
            append(log, 80, appended); // into segment 1
            long firstSegmentEnd = TestLogs.SMALL_SEGMENT;
            try (LogTailer tailer = log.tailer(appended.keySet().iterator().next())) {
                List<Long> read = new ArrayList<>();
                assertEquals(3, tailer.poll((position, record) -> read.add(position), 3)); // the tailer now holds segment 0
                long durable = log.durablePosition();
                log.discardUpTo(durable);
                assertTrue(durable > firstSegmentEnd, "precondition: segment 0 is discarded");
                for (int round = 0; round < 8; round++) { // uses every spare there is, and more
                    append(log, 40, appended);
                    log.discardUpTo(log.durablePosition());
                }
                assertTrue(log.metrics().segmentsRecycled() > 0, "precondition: spares were reused meanwhile");
                Map<Long, byte[]> rest = new TreeMap<>();
                assertEquals(50, tailer.poll((position, record) -> rest.put(position, TestLogs.bytes(record)), 50)); // segment 0 holds 65
                for (Map.Entry<Long, byte[]> record : rest.entrySet()) {
                    assertTrue(record.getKey() < firstSegmentEnd);
                    assertArrayEquals(appended.get(record.getKey()), record.getValue(), "record at " + record.getKey());
                }
            }
        }
    }

    @Test
    void aSpareWhoseNewHeaderAlreadyReachedTheDeviceIsStillOnlyASpare() throws Exception {
        Map<Long, byte[]> appended = new TreeMap<>();
        long discardedTo;
        try (CommitLog log = open(config())) {
            discardedTo = appendAndDiscard(log, 12, appended);
        }
        // A crash inside reuse, after the new header's sync and before the rename: the spare names a segment id it is not.
        try (Stream<Path> files = Files.list(dir)) {
            for (Path spare : files.filter(f -> f.toString().endsWith(SegmentDescriptor.RECYCLE_SUFFIX)).toList()) {
                try (var channel = java.nio.channels.FileChannel.open(spare, java.nio.file.StandardOpenOption.WRITE)) {
                    ByteBuffer header = dev.commitlog.segment.SegmentHeader.encode(1_000_000, 1L << 40, TestLogs.SMALL_SEGMENT, 7);
                    channel.write(header, 0);
                }
            }
        }
        assertReplaysWhatWasAppended(appended, discardedTo);
        Map<Long, byte[]> more = new TreeMap<>(appended);
        try (CommitLog log = open(config())) {
            discardedTo = appendAndDiscard(log, 12, more); // the spares are reused
            assertTrue(log.metrics().segmentsRecycled() > 0);
        }
        assertReplaysWhatWasAppended(more, discardedTo);
    }

    private CommitLogConfig config() {
        return CommitLogConfig.builder(dir).syncMode(SyncMode.BATCH).segmentSize(TestLogs.SMALL_SEGMENT).recycleSegments(4).build();
    }

    private static CommitLog open(CommitLogConfig config) throws IOException {
        return CommitLog.open(config, new MappedStorageLayer(), NO_DAMAGE);
    }

    /** Rounds of about two thirds of a segment of appends, each followed by a discard of everything durable. */
    private static long appendAndDiscard(CommitLog log, int rounds, Map<Long, byte[]> appended) throws IOException {
        long discardedTo = 0;
        for (int round = 0; round < rounds; round++) {
            append(log, 40, appended);
            discardedTo = log.durablePosition();
            log.discardUpTo(discardedTo);
        }
        return discardedTo;
    }

    private static void append(CommitLog log, int count, Map<Long, byte[]> appended) {
        for (int i = 0; i < count; i++) {
            byte[] record = TestLogs.payload(appended.size(), PAYLOAD);
            appended.put(log.append(record, 0, record.length), record);
        }
    }

    private void assertReplaysWhatWasAppended(Map<Long, byte[]> appended, long discardedTo) throws IOException {
        assertReplaysWhatWasAppended(appended, discardedTo, ReplayPolicy.TOLERATE_TAIL);
    }

    /** Every record at or after the discard replays as appended, and nothing replays that was not appended there. */
    private void assertReplaysWhatWasAppended(Map<Long, byte[]> appended, long discardedTo, ReplayPolicy policy) throws IOException {
        CommitLogConfig config = config().toBuilder().replayPolicy(policy).build();
        try (CommitLog log = open(config)) {
            Map<Long, byte[]> replayed = new TreeMap<>();
            log.replay(0, (position, record) -> replayed.put(position, TestLogs.bytes(record)));
            for (Map.Entry<Long, byte[]> record : replayed.entrySet()) {
                assertArrayEquals(appended.get(record.getKey()), record.getValue(), "replayed at " + record.getKey());
            }
            for (Map.Entry<Long, byte[]> record : new TreeMap<>(appended).tailMap(discardedTo).entrySet()) {
                assertArrayEquals(record.getValue(), replayed.get(record.getKey()), "acknowledged record at " + record.getKey());
            }
        }
    }

    private long files(String suffix) throws IOException {
        try (Stream<Path> files = Files.list(dir)) {
            return files.filter(f -> f.toString().endsWith(suffix)).count();
        }
    }

    /** The salt of the segment file that holds log position {@code position}. */
    private int saltOfSegmentHolding(long position) throws IOException {
        try (Stream<Path> files = Files.list(dir)) {
            for (Path file : files.filter(f -> SegmentDescriptor.parseId(f.getFileName().toString()) >= 0).toList()) {
                ByteBuffer header = ByteBuffer.wrap(Arrays.copyOf(Files.readAllBytes(file), SegmentDescriptor.SEGMENT_HEADER_LENGTH))
                        .order(ByteOrder.LITTLE_ENDIAN);
                long base = header.getLong(SegmentDescriptor.BASE_POSITION_OFFSET);
                if (base <= position && position < base + Files.size(file)) {
                    return header.getInt(SegmentDescriptor.SALT_OFFSET);
                }
            }
        }
        throw new AssertionError("no segment file holds position " + position);
    }
}
