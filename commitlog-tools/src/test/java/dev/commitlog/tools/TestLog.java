package dev.commitlog.tools;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.commitlog.CommitLog;
import dev.commitlog.config.CommitLogConfig;
import dev.commitlog.config.ReplayPolicy;
import dev.commitlog.config.SyncMode;
import dev.commitlog.format.SegmentDescriptor;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.stream.Stream;

/**
 * A log written by the engine for the tool's tests: 20 records of 8,000 bytes in 64 KiB segments
 * (8 a segment: segments 0 and 1 full, 2 holding the last 4, 3 prepared empty), appended in batch
 * mode with the mark rewritten by every flush, and left as a crash right after the last
 * acknowledgment leaves it (a clean close would make the mark exact, the end of the last record),
 * so the durable mark lies on the last record: damage before it is corruption, damage to the
 * last record is a torn tail. Plus the ways to damage it.
 */
final class TestLog {
    static final int SEGMENT_SIZE = 64 * 1024;
    static final int PAYLOAD = 8000;
    static final int RECORDS = 20;
    static final int PER_SEGMENT = 8;

    final Path dir;
    final List<Long> positions;

    private TestLog(Path dir, List<Long> positions) {
        this.dir = dir;
        this.positions = positions;
    }

    static TestLog write(Path dir) throws IOException {
        List<Long> positions = new ArrayList<>();
        Path tail = dir.resolve(SegmentDescriptor.fileName((long) (RECORDS - 1) / PER_SEGMENT));
        byte[] crashed;
        try (CommitLog log = CommitLog.open(config(dir, ReplayPolicy.TOLERATE_TAIL))) {
            for (int i = 0; i < RECORDS; i++) {
                byte[] payload = payload(i);
                positions.add(log.append(payload, 0, payload.length));
            }
            awaitPreparedSegment(dir.resolve(SegmentDescriptor.fileName((long) (RECORDS - 1) / PER_SEGMENT + 1)));
            crashed = Files.readAllBytes(tail); // what was flushed (the mapping is private), the mark as the last flush left it
        }
        // The close changed only the tail's durable mark (and its CRC): put back the crash image's.
        byte[] closed = Files.readAllBytes(tail);
        assertEquals(-1, Arrays.mismatch(Arrays.copyOfRange(crashed, SegmentDescriptor.SEGMENT_HEADER_LENGTH, crashed.length),
                Arrays.copyOfRange(closed, SegmentDescriptor.SEGMENT_HEADER_LENGTH, closed.length)), "the close changed only the header");
        Files.write(tail, crashed);
        return new TestLog(dir, positions);
    }

    /**
     * The allocator prepares the segment after the tail in the background; a close before it
     * finished would leave a directory without it, and the tests read the directory's layout.
     */
    private static void awaitPreparedSegment(Path next) throws IOException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (!Files.exists(next)) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("the allocator did not prepare " + next + " within 10 s");
            }
            LockSupport.parkNanos(1_000_000);
        }
    }

    /**
     * Every flush rewrites the durable mark (by default, flushes past a segment's first page do so
     * at most once every 10 ms), so that it lies on the last record whatever the timing.
     */
    static CommitLogConfig config(Path dir, ReplayPolicy policy) {
        return CommitLogConfig.builder(dir).syncMode(SyncMode.BATCH).segmentSize(SEGMENT_SIZE).replayPolicy(policy)
                .durableMarkInterval(Duration.ZERO).build();
    }

    /** Record {@code i}'s payload: its index, then a pattern. */
    static byte[] payload(int i) {
        byte[] bytes = new byte[PAYLOAD];
        for (int b = 0; b < bytes.length; b++) {
            bytes[b] = (byte) (i * 31 + b * 7);
        }
        bytes[0] = (byte) i;
        return bytes;
    }

    long position(int record) {
        return positions.get(record);
    }

    Path segment(long id) {
        return dir.resolve(SegmentDescriptor.fileName(id));
    }

    /** Segments are created back to back from id 0, so a position's file and offset follow from the size. */
    Path segmentOf(long position) {
        return segment(position / SEGMENT_SIZE);
    }

    /** Flips every bit of the byte at {@code position} (a log position). */
    void flipByteAt(long position) throws IOException {
        try (RandomAccessFile file = new RandomAccessFile(segmentOf(position).toFile(), "rw")) {
            long offset = position % SEGMENT_SIZE;
            file.seek(offset);
            int b = file.read();
            file.seek(offset);
            file.write(~b);
        }
    }

    void cutFile(Path file, long length) throws IOException {
        try (RandomAccessFile raf = new RandomAccessFile(file.toFile(), "rw")) {
            raf.setLength(length);
        }
    }

    /** Every file's bytes by name: to show that a command changed nothing. */
    static Map<String, byte[]> contents(Path dir) throws IOException {
        Map<String, byte[]> contents = new TreeMap<>();
        try (Stream<Path> files = Files.list(dir)) {
            for (Path file : files.toList()) {
                if (Files.isRegularFile(file)) {
                    try {
                        contents.put(file.getFileName().toString(), Files.readAllBytes(file));
                    } catch (NoSuchFileException renamed) {
                        // an open log's allocator renamed its .tmp segment since the listing: not a file of the log yet
                        if (!file.getFileName().toString().endsWith(SegmentDescriptor.TEMP_SUFFIX)) {
                            throw renamed;
                        }
                    }
                }
            }
        }
        return contents;
    }

    /** Opens the log under {@code policy} and returns the positions replay delivers, checking each payload. */
    List<Long> replay(ReplayPolicy policy) throws IOException {
        List<Long> replayed = new ArrayList<>();
        try (CommitLog log = CommitLog.open(config(dir, policy))) {
            log.replay(0, (position, record) -> {
                int index = positions.indexOf(position);
                assertEquals(PAYLOAD, record.remaining());
                assertEquals((byte) index, record.get(record.position()), "record at " + position);
                replayed.add(position);
            });
        }
        return replayed;
    }
}
