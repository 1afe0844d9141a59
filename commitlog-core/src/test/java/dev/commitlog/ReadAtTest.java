package dev.commitlog;

import static dev.commitlog.TestLogs.config;
import static dev.commitlog.TestLogs.payload;
import static org.junit.jupiter.api.Assertions.*;

import dev.commitlog.config.SyncMode;
import dev.commitlog.format.RecordDescriptor;
import dev.commitlog.format.SegmentDescriptor;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Reading single records at known positions: contents, refusals, damage, concurrent readers. */
class ReadAtTest {
    @TempDir
    Path dir;

    private static int length(int i) {
        return 1 + i * 37 % 700;
    }

    private CommitLog openSmall() throws Exception {
        return CommitLog.open(config(dir, SyncMode.BATCH).segmentSize(TestLogs.SMALL_SEGMENT).build(),
                CommitLogOptions.builder().noJmx().build());
    }

    private static long[] appendMany(CommitLog log, int count) {
        long[] positions = new long[count];
        for (int i = 0; i < count; i++) {
            byte[] record = payload(i, length(i));
            positions[i] = log.append(record, 0, record.length);
        }
        return positions;
    }

    @Test
    void returnsWhatWasAppendedAcrossRollovers() throws Exception {
        try (CommitLog log = openSmall()) {
            long[] positions = appendMany(log, 2_000);
            assertTrue(positions[positions.length - 1] > 5L * TestLogs.SMALL_SEGMENT, "the records span several segments");
            ByteBuffer into = ByteBuffer.allocate(1_000);
            for (int i = positions.length - 1; i >= 0; i -= 3) { // newest first, so segments are mapped out of order
                byte[] expected = payload(i, length(i));
                assertArrayEquals(expected, log.readAt(positions[i]), "record " + i);
                into.clear().position(5);
                assertEquals(expected.length, log.readAt(positions[i], into));
                assertEquals(5 + expected.length, into.position());
                assertArrayEquals(expected, java.util.Arrays.copyOfRange(into.array(), 5, 5 + expected.length));
                int index = i;
                List<byte[]> seen = new ArrayList<>();
                log.readAt(positions[i], (position, record) -> {
                    assertEquals(positions[index], position);
                    assertTrue(record.isReadOnly());
                    seen.add(TestLogs.bytes(record));
                });
                assertArrayEquals(expected, seen.get(0));
            }
            for (int i = 0; i < positions.length; i++) {
                assertArrayEquals(payload(i, length(i)), log.readAt(positions[i]), "record " + i);
            }
        }
    }

    @Test
    void aBufferTooSmallIsRefusedAndLeftUnchanged() throws Exception {
        try (CommitLog log = openSmall()) {
            byte[] record = payload(1, 100);
            long position = log.append(record, 0, record.length);
            ByteBuffer small = ByteBuffer.allocate(99);
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> log.readAt(position, small));
            assertTrue(e.getMessage().contains("100 bytes"), e.getMessage());
            assertEquals(0, small.position());
            assertEquals(99, small.limit());
        }
    }

    @Test
    void refusesPositionsAtOrPastTheDurablePosition() throws Exception {
        try (CommitLog log = openSmall()) {
            appendMany(log, 10);
            long durable = log.durablePosition();
            for (long position : new long[] {durable, durable + 8, Long.MAX_VALUE}) {
                IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> log.readAt(position));
                assertTrue(e.getMessage().contains(Long.toString(position)), e.getMessage());
                assertTrue(e.getMessage().contains("durable position " + durable), e.getMessage());
            }
            assertThrows(IllegalArgumentException.class, () -> log.readAt(-1));
        }
    }

    @Test
    void refusesDiscardedPositionsAndSaysWhereTheLogStarts() throws Exception {
        try (CommitLog log = openSmall()) {
            long[] positions = appendMany(log, 2_000);
            assertArrayEquals(payload(0, length(0)), log.readAt(positions[0])); // maps segment 0 before it goes
            log.discardUpTo(positions[1_500]);
            assertFalse(Files.exists(dir.resolve(SegmentDescriptor.fileName(0))), "segment 0 was deleted");
            PositionDiscardedException e = assertThrows(PositionDiscardedException.class, () -> log.readAt(positions[0]));
            assertEquals(positions[0], e.position());
            assertTrue(e.oldestPosition() > positions[0] && e.oldestPosition() <= positions[1_500], e.getMessage());
            assertTrue(positions[1] < e.oldestPosition());
            assertThrows(PositionDiscardedException.class, () -> log.readAt(positions[1]));
            assertArrayEquals(payload(1_500, length(1_500)), log.readAt(positions[1_500]));
        }
        // Discarded before this log was opened: known only from the files present.
        try (CommitLog log = openSmall()) {
            PositionDiscardedException e = assertThrows(PositionDiscardedException.class, () -> log.readAt(TestLogs.SMALL_SEGMENT));
            assertTrue(e.oldestPosition() > TestLogs.SMALL_SEGMENT);
        }
    }

    @Test
    void aPositionThatIsNotTheStartOfARecordIsTheCallersError() throws Exception {
        try (CommitLog log = openSmall()) {
            long[] positions = appendMany(log, 2_000);
            for (long position : new long[] {positions[3] + 8, positions[3] + 1, positions[0] - 8, 0}) {
                IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> log.readAt(position),
                        "position " + position);
                assertTrue(e.getMessage().contains("not the start of a record"), e.getMessage());
            }
            IllegalArgumentException inside = assertThrows(IllegalArgumentException.class, () -> log.readAt(positions[3] + 8));
            assertTrue(inside.getMessage().contains("inside the frame at log position " + positions[3]), inside.getMessage());
            // The end-of-segment marker: the last frame of segment 0 ends where it starts.
            int last = 0;
            while (positions[last + 1] < TestLogs.SMALL_SEGMENT) {
                last++;
            }
            long marker = positions[last] + RecordDescriptor.alignedFrameLength(length(last));
            IllegalArgumentException end = assertThrows(IllegalArgumentException.class, () -> log.readAt(marker));
            assertTrue(end.getMessage().contains("end-of-segment marker"), end.getMessage());
        }
    }

    @Test
    void aRecordDamagedAfterTheFlushIsCorruption() throws Exception {
        try (CommitLog log = openSmall()) {
            long[] positions = appendMany(log, 50);
            assertArrayEquals(payload(20, length(20)), log.readAt(positions[20])); // mapped before the damage
            try (FileChannel file = FileChannel.open(dir.resolve(SegmentDescriptor.fileName(0)), StandardOpenOption.WRITE)) {
                ByteBuffer flipped = ByteBuffer.wrap(new byte[] {(byte) ~payload(20, length(20))[0]});
                file.write(flipped, positions[20] + RecordDescriptor.FRAME_HEADER_LENGTH);
            }
            CorruptLogException e = assertThrows(CorruptLogException.class, () -> log.readAt(positions[20]));
            assertEquals(positions[20], e.position());
            assertTrue(e.reason().contains("checksum mismatch"), e.getMessage());
            assertArrayEquals(payload(21, length(21)), log.readAt(positions[21]), "the next record is intact");
        }
    }

    @Test
    void concurrentReadersSeeTheRightRecords() throws Exception {
        try (CommitLog log = openSmall()) {
            long[] positions = appendMany(log, 3_000);
            List<CompletableFuture<Integer>> readers = new ArrayList<>();
            for (int t = 0; t < 4; t++) {
                int seed = t;
                readers.add(TestLogs.inThread(() -> {
                    ByteBuffer into = ByteBuffer.allocate(1_000);
                    java.util.Random random = new java.util.Random(seed);
                    for (int n = 0; n < 20_000; n++) {
                        int i = random.nextInt(positions.length);
                        byte[] expected = payload(i, length(i));
                        try {
                            read(log, positions[i], expected, into, n % 2 == 0);
                        } catch (PositionDiscardedException e) {
                            assertTrue(positions[i] < e.oldestPosition() && i < 1_000, e.getMessage()); // discarded meanwhile
                        }
                    }
                    return seed;
                }));
            }
            // Discards run alongside: readers of retained records must not notice.
            log.discardUpTo(positions[1_000]);
            for (CompletableFuture<Integer> reader : readers) {
                reader.get();
            }
        }
    }

    private static void read(CommitLog log, long position, byte[] expected, ByteBuffer into, boolean copy) {
        if (copy) {
            assertArrayEquals(expected, log.readAt(position));
        } else {
            into.clear();
            assertEquals(expected.length, log.readAt(position, into));
            assertArrayEquals(expected, java.util.Arrays.copyOf(into.array(), expected.length));
        }
    }

    @Test
    void readsAfterCloseAreRefused() throws Exception {
        CommitLog log = openSmall();
        long[] positions = appendMany(log, 10);
        log.readAt(positions[0]);
        log.close();
        assertThrows(IllegalStateException.class, () -> log.readAt(positions[0]));
    }
}
