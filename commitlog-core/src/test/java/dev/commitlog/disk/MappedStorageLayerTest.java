package dev.commitlog.disk;

import static org.junit.jupiter.api.Assertions.*;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.commitlog.io.SegmentFile;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The production file layer: writers store into memory of their own, which reaches the file only
 * through flushes and goes to the next segment, zeroed, once its file is closed; new files read
 * as zeros past their header however their space is made.
 */
class MappedStorageLayerTest {
    private static final int SIZE = 256 * 1024;
    private static final int HEADER = 64;
    private static final Set<PosixFilePermission> PERMISSIONS = PosixFilePermissions.fromString("rw-r-----");

    @TempDir
    Path dir;

    @Test
    void aNewSegmentTakesTheMemoryOfAClosedOneZeroedPastItsHeader() throws IOException {
        MappedStorageLayer storage = new MappedStorageLayer();
        SegmentFile first = storage.create(dir.resolve("a"), SIZE, header(1), PERMISSIONS);
        ByteBuffer memory = first.buffer();
        fill(memory, HEADER, 100_000, (byte) 5);
        first.flush(HEADER, 100_000);
        first.close();

        try (SegmentFile second = storage.create(dir.resolve("b"), SIZE, header(2), PERMISSIONS)) {
            assertSame(memory, second.buffer(), "the closed segment's memory is reused");
            assertEquals(header(2), second.buffer().duplicate().clear().limit(HEADER), "the new header");
            assertZeroFrom(second.buffer(), HEADER, "the reused memory");
        }
    }

    @Test
    void readersSeeWhatWasFlushedAndNothingElse() throws IOException {
        MappedStorageLayer storage = new MappedStorageLayer();
        Path path = dir.resolve("a");
        try (SegmentFile writer = storage.create(path, SIZE, header(1), PERMISSIONS)) {
            fill(writer.buffer(), HEADER, 8192, (byte) 9);
            writer.flush(HEADER, 4096);
            try (SegmentFile reader = storage.open(path, false)) {
                assertEquals(SIZE, reader.size());
                assertEquals(header(1), reader.buffer().duplicate().clear().limit(HEADER));
                for (int i = HEADER; i < 4096; i++) {
                    assertEquals(9, reader.buffer().get(i), "flushed byte " + i);
                }
                assertZeroFrom(reader.buffer(), 4096, "the file past the flushed range");
            }
        }
    }

    @Test
    void aFileOpenedForWritingShowsItsBytes() throws IOException {
        MappedStorageLayer storage = new MappedStorageLayer();
        Path path = dir.resolve("a");
        try (SegmentFile writer = storage.create(path, SIZE, header(1), PERMISSIONS)) {
            fill(writer.buffer(), HEADER, 1000, (byte) 3);
            writer.flush(HEADER, 1000);
        }
        try (SegmentFile reopened = storage.open(path, true)) {
            assertEquals(header(1), reopened.buffer().duplicate().clear().limit(HEADER));
            assertEquals(3, reopened.buffer().get(999));
            assertZeroFrom(reopened.buffer(), 1000, "past the flushed bytes");
            reopened.buffer().put(1000, (byte) 4);
            reopened.flush(1000, 1001);
        }
        try (SegmentFile reader = storage.open(path, false)) {
            assertEquals(4, reader.buffer().get(1000));
        }
    }

    /** A JVM whose direct memory limit is reached still gets its segments, written through a private mapping instead. */
    @Test
    void aSegmentIsWrittenThroughAPrivateMappingWhenDirectMemoryIsRefused() throws IOException {
        AtomicInteger attempts = new AtomicInteger();
        MappedStorageLayer storage = new MappedStorageLayer(SegmentFileSpace.ZERO_FILL, new WriterMemory(size -> {
            attempts.incrementAndGet();
            throw new OutOfMemoryError("Cannot reserve " + size + " bytes of direct buffer memory");
        }));
        Path path = dir.resolve("a");
        try (SegmentFile writer = storage.create(path, SIZE, header(1), PERMISSIONS)) {
            assertEquals(header(1), writer.buffer().duplicate().clear().limit(HEADER));
            assertZeroFrom(writer.buffer(), HEADER, "a new segment's memory");
            fill(writer.buffer(), HEADER, 500, (byte) 6);
            writer.flush(HEADER, 500);
        }
        try (SegmentFile reader = storage.open(path, false)) {
            assertEquals(6, reader.buffer().get(499));
        }
        storage.create(dir.resolve("b"), SIZE, header(2), PERMISSIONS).close();
        assertEquals(2, attempts.get(), "a mapping is not kept for the next segment");
    }

    @ParameterizedTest
    @EnumSource(SegmentFileSpace.class)
    void everyWayOfMakingSpaceGivesAFileOfZerosPastItsHeader(SegmentFileSpace space) throws IOException {
        if (space == SegmentFileSpace.FALLOCATE_COMMAND) {
            assumeTrue(Files.isExecutable(Path.of("/usr/bin/fallocate")), "needs the fallocate command");
        }
        MappedStorageLayer storage = new MappedStorageLayer(space);
        Path path = dir.resolve("a");
        storage.create(path, SIZE, header(1), PERMISSIONS).close();
        assertEquals(SIZE, Files.size(path));
        assertEquals(PERMISSIONS, Files.getPosixFilePermissions(path));
        try (SegmentFile reader = storage.open(path, false)) {
            assertEquals(header(1), reader.buffer().duplicate().clear().limit(HEADER));
            assertZeroFrom(reader.buffer(), HEADER, "a new file");
        }
        try (var files = Files.list(dir)) {
            assertEquals(1, files.count(), "no temporary file is left");
        }
    }

    private static ByteBuffer header(int id) {
        ByteBuffer header = ByteBuffer.allocate(HEADER);
        for (int i = 0; i < HEADER; i++) {
            header.put(i, (byte) (id * 31 + i | 1));
        }
        return header;
    }

    private static void fill(ByteBuffer buffer, int from, int to, byte value) {
        for (int i = from; i < to; i++) {
            buffer.put(i, value);
        }
    }

    private static void assertZeroFrom(ByteBuffer buffer, int from, String what) {
        for (int i = from; i < buffer.capacity(); i++) {
            if (buffer.get(i) != 0) {
                fail(what + ": byte " + i + " is " + buffer.get(i) + ", not zero");
            }
        }
    }
}
