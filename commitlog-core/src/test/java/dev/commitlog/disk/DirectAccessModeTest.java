package dev.commitlog.disk;

import static org.junit.jupiter.api.Assertions.*;

import dev.commitlog.config.DiskAccessMode;
import dev.commitlog.io.SegmentFile;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The production layer with {@code commitlog_disk_access_mode: direct}, on the real file system:
 * each flush leaves in the file exactly the memory's bytes up to the flushed end (header included
 * when asked), zeros from there to the end of that block, and nothing else changed, whether it
 * wrote directly or (the header with a range apart from it) through the page cache; bytes an
 * appender is still storing past the end never reach the file; a reader's mapping, made before a
 * direct write, sees it. The segment is made from a spare full of 0xEE (a former life), so a byte
 * written where it should not be shows.
 */
class DirectAccessModeTest {
    private static final int SIZE = 64 * 1024;
    private static final int HEADER = 64;
    private static final byte STALE = (byte) 0xEE;
    private static final Set<PosixFilePermission> PERMISSIONS = PosixFilePermissions.fromString("rw-------");

    @TempDir
    Path dir;

    @Test
    void eachFlushWritesTheMemoryUpToItsEndAndZerosToTheEndOfThatBlock() throws IOException {
        MappedStorageLayer storage = new MappedStorageLayer().withAccessMode(DiskAccessMode.DIRECT);
        Path path = dir.resolve("segment");
        byte[] expected = staleSpare(dir.resolve("spare"));
        try (SegmentFile file = storage.reuse(dir.resolve("spare"), path, SIZE, header(1), PERMISSIONS)) {
            ByteBuffer memory = file.buffer();
            assertEquals(0, memory.alignmentOffset(0, DirectFlushBlocks.BLOCK), "the writer memory starts on a block");
            System.arraycopy(bytes(header(1)), 0, expected, 0, HEADER);
            Arrays.fill(expected, HEADER, HEADER + 8, (byte) 0); // reuse wrote the zero word after the header
            assertFile(path, expected, "after reuse");

            // A flush inside block 0, carrying the header; an append is still storing past its end.
            fill(memory, HEADER, 200, (byte) 1);
            fill(memory, 200, 300, (byte) 7);
            file.flushHeaderAndRange(HEADER, HEADER, 200);
            copy(memory, expected, 0, 200);
            Arrays.fill(expected, 200, 4096, (byte) 0);
            assertFile(path, expected, "a flush within the first block: zeros past its end, not the append in progress");

            // Across a block boundary, from the middle of the block the last flush ended in.
            fill(memory, 200, 5000, (byte) 2);
            fill(memory, 5000, 6000, (byte) 7);
            file.flush(200, 5000);
            copy(memory, expected, 0, 5000);
            Arrays.fill(expected, 5000, 8192, (byte) 0);
            assertFile(path, expected, "a flush across a block boundary");

            // The header rides along with a range starting in block 1: one write from offset 0.
            memory.put(40, (byte) 0x41);
            fill(memory, 5000, 12000, (byte) 3);
            file.flushHeaderAndRange(HEADER, 5000, 12000);
            copy(memory, expected, 0, 12000);
            Arrays.fill(expected, 12000, 12288, (byte) 0);
            assertFile(path, expected, "the header with a range that starts in block 1");

            // The header's block and the range's blocks apart from it: the same blocks, through the page cache.
            memory.put(41, (byte) 0x42);
            fill(memory, 12000, 13000, (byte) 4);
            fill(memory, 13000, 13100, (byte) 7);
            file.flushHeaderAndRange(HEADER, 12000, 13000);
            copy(memory, expected, 0, 4096);
            copy(memory, expected, 8192, 13000);
            Arrays.fill(expected, 13000, 16384, (byte) 0);
            assertFile(path, expected, "the header's block and a range's blocks apart from it");

            // The header alone (a clean close's exact mark): its block from the memory, flushed bytes and all.
            memory.put(42, (byte) 0x43);
            file.flushHeaderAndRange(HEADER, HEADER, HEADER);
            copy(memory, expected, 0, 4096);
            assertFile(path, expected, "the header alone");

            // Direct again, over the block the page-cache flush ended in; a range ending on a block boundary, up to the file's end.
            fill(memory, 13000, SIZE, (byte) 5);
            file.flush(13000, SIZE);
            copy(memory, expected, 0, SIZE);
            assertFile(path, expected, "a direct flush after a page-cache one, to the end of the file");
        }
    }

    @Test
    void aNewSegmentIsItsHeaderThenZerosWithItsPermissions() throws IOException {
        MappedStorageLayer storage = new MappedStorageLayer().withAccessMode(DiskAccessMode.DIRECT);
        Path path = dir.resolve("segment");
        int size = (1 << 20) + 3 * 4096; // a chunk of zeros and part of another
        try (SegmentFile file = storage.create(path, size, header(3), PERMISSIONS)) {
            byte[] expected = new byte[size];
            System.arraycopy(bytes(header(3)), 0, expected, 0, HEADER);
            assertFile(path, expected, "a new segment");
            assertEquals(PERMISSIONS, Files.getPosixFilePermissions(path));
            assertEquals(0, file.buffer().get(HEADER));
        }
        try (Stream<Path> files = Files.list(dir)) {
            assertEquals(List.of(path), files.toList(), "the temporary name is gone");
        }
    }

    @Test
    void aReaderMappingMadeBeforeADirectWriteSeesIt() throws IOException {
        MappedStorageLayer storage = new MappedStorageLayer().withAccessMode(DiskAccessMode.DIRECT);
        Path path = dir.resolve("segment");
        try (SegmentFile writer = storage.create(path, SIZE, header(1), PERMISSIONS);
             SegmentFile reader = storage.open(path, false)) {
            assertEquals(0, reader.buffer().get(HEADER), "the reader has faulted the first page in, as zeros");
            fill(writer.buffer(), HEADER, 5000, (byte) 9);
            writer.flush(HEADER, 5000);
            for (int i = HEADER; i < 5000; i++) {
                assertEquals(9, reader.buffer().get(i), "byte " + i + " through the mapping made before the write");
            }
            assertEquals(0, reader.buffer().get(5000));
        }
    }

    @Test
    void theAccessModeMakesALayerOfItsOwn() {
        MappedStorageLayer standard = new MappedStorageLayer();
        assertSame(standard, standard.withAccessMode(DiskAccessMode.STANDARD));
        MappedStorageLayer direct = standard.withAccessMode(DiskAccessMode.DIRECT);
        assertNotSame(standard, direct);
        assertEquals(DiskAccessMode.DIRECT, direct.accessMode());
        assertSame(direct, direct.withAccessMode(DiskAccessMode.DIRECT));
        assertEquals(DiskAccessMode.STANDARD, direct.withAccessMode(DiskAccessMode.STANDARD).accessMode());
    }

    @Test
    void aFileSystemWhoseBlockDoesNotDivide4KiBIsRefusedNamingTheSetting() throws IOException {
        for (long block : new long[] {512, 1024, 4096}) {
            DirectChannels.checkBlockSize(dir, block);
        }
        for (long block : new long[] {8192, 65536, 3000, 0}) {
            IOException e = assertThrows(IOException.class, () -> DirectChannels.checkBlockSize(dir, block));
            assertTrue(e.getMessage().contains("commitlog_disk_access_mode is direct, but the file system's block is " + block + " bytes"),
                    e.getMessage());
            assertTrue(e.getMessage().contains("set commitlog_disk_access_mode: standard"), e.getMessage());
        }
    }

    private static byte[] staleSpare(Path spare) throws IOException {
        byte[] stale = new byte[SIZE];
        Arrays.fill(stale, STALE);
        Files.write(spare, stale);
        return stale;
    }

    private static void assertFile(Path path, byte[] expected, String what) throws IOException {
        byte[] actual = Files.readAllBytes(path);
        assertEquals(expected.length, actual.length, what + ": length");
        int mismatch = Arrays.mismatch(expected, actual);
        assertEquals(-1, mismatch, () -> what + ": byte " + mismatch + " is " + actual[mismatch] + ", expected " + expected[mismatch]);
    }

    private static void fill(ByteBuffer memory, int from, int to, byte value) {
        for (int i = from; i < to; i++) {
            memory.put(i, value);
        }
    }

    private static void copy(ByteBuffer memory, byte[] into, int from, int to) {
        memory.get(from, into, from, to - from);
    }

    private static byte[] bytes(ByteBuffer buffer) {
        byte[] bytes = new byte[buffer.remaining()];
        buffer.duplicate().get(bytes);
        return bytes;
    }

    private static ByteBuffer header(int id) {
        ByteBuffer header = ByteBuffer.allocate(HEADER);
        for (int i = 0; i < HEADER; i++) {
            header.put(i, (byte) (id * 16 + i));
        }
        return header;
    }
}
