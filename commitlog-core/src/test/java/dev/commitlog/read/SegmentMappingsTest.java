package dev.commitlog.read;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.commitlog.CommitLog;
import dev.commitlog.CommitLogOptions;
import dev.commitlog.CorruptLogException;
import dev.commitlog.CorruptionListener.Damage;
import dev.commitlog.LogTailer;
import dev.commitlog.PositionDiscardedException;
import dev.commitlog.config.CommitLogConfig;
import dev.commitlog.config.SyncMode;
import dev.commitlog.disk.MappedStorageLayer;
import dev.commitlog.format.SegmentDescriptor;
import dev.commitlog.io.ForwardingSegmentFile;
import dev.commitlog.io.ForwardingStorageLayer;
import dev.commitlog.io.SegmentFile;
import dev.commitlog.io.StorageLayer;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The one table of read-only mappings that random reads and tailers share: a segment is mapped
 * once whoever asks first, a mapping the table drops stays mapped under its users, discarded
 * positions are refused, and after close each user maps for itself.
 */
class SegmentMappingsTest {
    private static final int SEGMENT_SIZE = 64 * 1024;
    private static final int RECORDS = 2_000;

    @TempDir
    Path dir;

    private final CountingStorage storage = new CountingStorage(new MappedStorageLayer());
    private final AtomicLong discardedBelow = new AtomicLong();
    private final List<Long> positions = new ArrayList<>();
    private SegmentMappings mappings;

    @BeforeEach
    void writeLog() throws IOException {
        try (CommitLog log = CommitLog.open(config(), CommitLogOptions.builder().noJmx().build())) {
            for (int i = 0; i < RECORDS; i++) {
                byte[] record = record(i);
                positions.add(log.append(record, 0, record.length));
            }
        }
        assertTrue(positions.get(RECORDS - 1) > 3L * SEGMENT_SIZE, "the log spans four segments");
        mappings = new SegmentMappings(storage, dir, discardedBelow::get);
    }

    @AfterEach
    void closeTable() {
        mappings.close();
    }

    private CommitLogConfig config() {
        return CommitLogConfig.builder(dir).syncMode(SyncMode.BATCH).segmentSize(SEGMENT_SIZE).build();
    }

    private static byte[] record(int i) {
        byte[] bytes = new byte[100];
        bytes[0] = (byte) i;
        bytes[99] = (byte) (i >> 8);
        return bytes;
    }

    private static long base(long segmentId) {
        return segmentId * SEGMENT_SIZE;
    }

    @Test
    void aSegmentIsMappedOnceForReadsAndTailers() throws IOException {
        SegmentMapping read = mappings.holding(positions.get(5));
        SegmentMapping tailed = mappings.segment(0, 0);
        assertSame(read, tailed, "the tailer finds the segment the read mapped");
        SegmentMapping tailedFirst = mappings.segment(1, base(1));
        SegmentMapping readAfter = mappings.holding(base(1) + SegmentDescriptor.SEGMENT_HEADER_LENGTH);
        assertSame(tailedFirst, readAfter, "the read finds the segment the tailer mapped");
        assertEquals(1, storage.mapped(0));
        assertEquals(1, storage.mapped(1));

        for (SegmentMapping mapping : List.of(read, tailed, tailedFirst, readAfter)) {
            mapping.release();
        }
        assertEquals(1, storage.mapped(0), "kept for later reads");
        mappings.close();
        assertEquals(0, storage.mapped(0));
        assertEquals(0, storage.mapped(1));
    }

    @Test
    void aMappingTheTableDropsStaysMappedUntilItsLastUserReleasesIt() throws IOException {
        SegmentMapping tailed = mappings.segment(0, 0);
        byte[] expected = new byte[100];
        tailed.buffer().get((int) (positions.get(0) + 8), expected);

        discardedBelow.set(base(1)); // discardUpTo deleted segment 0
        mappings.dropDiscarded();
        assertEquals(1, storage.mapped(0), "still mapped for the tailer on it");
        byte[] again = new byte[100];
        tailed.buffer().get((int) (positions.get(0) + 8), again);
        assertArrayEquals(expected, again);
        assertArrayEquals(record(0), again);

        tailed.release();
        assertEquals(0, storage.mapped(0), "unmapped once its last user released it");
    }

    @Test
    void discardedPositionsAreRefusedAndTheirMappingsDropped() throws IOException {
        mappings.holding(positions.get(0)).release();
        assertEquals(1, storage.mapped(0));

        discardedBelow.set(base(1));
        PositionDiscardedException read = assertThrows(PositionDiscardedException.class, () -> mappings.holding(positions.get(0)));
        assertEquals(base(1), read.oldestPosition());
        assertEquals(0, storage.mapped(0), "the discarded segment's mapping was dropped");
        PositionDiscardedException tailed = assertThrows(PositionDiscardedException.class, () -> mappings.segment(0, 0));
        assertEquals(base(1), tailed.oldestPosition());
    }

    @Test
    void theMissingFileOfASegmentIsADiscardThatSaysWhereTheLogStarts() throws IOException {
        Files.delete(dir.resolve(SegmentDescriptor.fileName(0))); // deleted by a discard in an earlier life of the log
        PositionDiscardedException e = assertThrows(PositionDiscardedException.class, () -> mappings.segment(0, 0));
        assertEquals(0, e.position());
        assertEquals(base(1), e.oldestPosition());
        assertThrows(PositionDiscardedException.class, () -> mappings.holding(positions.get(0)));
    }

    @Test
    void afterCloseASegmentIsMappedForItsUserAlone() throws IOException {
        mappings.close();
        IllegalStateException refused = assertThrows(IllegalStateException.class, () -> mappings.holding(positions.get(0)));
        assertTrue(refused.getMessage().contains("closed"), refused.getMessage());

        SegmentMapping first = mappings.segment(1, base(1)); // a tailer draining the closed log
        assertEquals(1, storage.mapped(1));
        first.release();
        assertEquals(0, storage.mapped(1), "the table kept nothing");
        SegmentMapping second = mappings.segment(1, base(1));
        assertNotSame(first, second);
        second.release();
        assertEquals(0, storage.mapped(1));
    }

    @Test
    void aHeaderThatDoesNotVerifyOrNamesAnotherBaseIsDamageOfItsKind() throws IOException {
        try (RandomAccessFile file = new RandomAccessFile(dir.resolve(SegmentDescriptor.fileName(1)).toFile(), "rw")) {
            file.seek(SegmentDescriptor.MAGIC_OFFSET);
            int magic = file.read();
            file.seek(SegmentDescriptor.MAGIC_OFFSET);
            file.write(magic ^ 1);
        }
        CorruptLogException header = assertThrows(CorruptLogException.class, () -> mappings.segment(1, base(1)));
        assertEquals(Damage.DAMAGED_HEADER, header.damage());
        assertTrue(header.reason().startsWith("damaged segment header: bad magic"), header.reason());

        CorruptLogException gap = assertThrows(CorruptLogException.class, () -> mappings.segment(2, base(1)));
        assertEquals(Damage.GAP, gap.damage(), gap.getMessage());
        CorruptLogException overlap = assertThrows(CorruptLogException.class, () -> mappings.segment(2, base(3)));
        assertEquals(Damage.OVERLAP, overlap.damage(), overlap.getMessage());
        assertEquals(0, storage.mapped(1));
        assertEquals(0, storage.mapped(2), "nothing stays mapped after a refusal");
    }

    @Test
    void aTailerReadsOnThroughSegmentsAfterTheLogCloses() throws IOException {
        CommitLog log = CommitLog.open(config(), CommitLogOptions.builder().noJmx().build());
        List<Long> seen = new ArrayList<>();
        try (LogTailer tailer = log.tailer(0)) {
            assertEquals(1, tailer.poll((position, record) -> seen.add(position), 1));
            log.close(); // the log's table is closed: the segments after the first are mapped by the tailer alone
            int polled;
            while ((polled = tailer.poll((position, record) -> seen.add(position), 100)) > 0) {
                assertTrue(seen.size() <= RECORDS);
            }
            assertEquals(-1, polled, "the end of the closed log");
        }
        assertEquals(positions, seen);
    }

    /** Counts the read-only handles of each segment file that are open (mapped) now. */
    private static final class CountingStorage extends ForwardingStorageLayer {
        private final Map<Long, AtomicInteger> open = new ConcurrentHashMap<>();

        CountingStorage(StorageLayer delegate) {
            super(delegate);
        }

        int mapped(long segmentId) {
            return open.computeIfAbsent(segmentId, id -> new AtomicInteger()).get();
        }

        @Override
        public SegmentFile open(Path path, boolean writable) throws IOException {
            SegmentFile file = super.open(path, writable);
            AtomicInteger count = open.computeIfAbsent(SegmentDescriptor.parseId(path.getFileName().toString()), id -> new AtomicInteger());
            count.incrementAndGet();
            return new ForwardingSegmentFile(file) {
                private boolean closed;

                @Override
                public void close() {
                    if (!closed) {
                        closed = true;
                        count.decrementAndGet();
                    }
                    super.close();
                }
            };
        }
    }
}
