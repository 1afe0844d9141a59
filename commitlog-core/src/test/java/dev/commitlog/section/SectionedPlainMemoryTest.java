package dev.commitlog.section;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.commitlog.config.Compression;
import dev.commitlog.config.Encryption;
import dev.commitlog.format.SegmentDescriptor;
import dev.commitlog.io.NoSpaceLeftException;
import dev.commitlog.io.SegmentFile;
import dev.commitlog.io.SimulatedDisk;
import dev.commitlog.segment.SegmentHeader;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * A sectioned file's plain memory goes back to its layer when the file closes and becomes the next
 * file's, zero past the header: so a log that keeps appending allocates (and faults in) no new
 * plain memory per segment, and no frame of an earlier segment shows through in a later one, also
 * when the last flush given to it failed for want of space.
 */
class SectionedPlainMemoryTest {
    private static final int SIZE = 256 * 1024;
    private static final int HEADER = SegmentDescriptor.SEGMENT_HEADER_LENGTH;

    private final SimulatedDisk disk = new SimulatedDisk();
    private final SectionedStorageLayer layer = new SectionedStorageLayer(disk, Compression.LZ4, 0, Encryption.NONE, null);
    private final Random random = new Random(5);

    @Test
    void theNextSegmentGetsTheMemoryOfTheLastOneClosedZeroPastItsHeader() throws IOException {
        SegmentFile first = create(1);
        ByteBuffer memory = first.buffer();
        int end = fill(first, 200_000);
        first.flush(0, end);
        first.close();

        SegmentFile second = create(2);
        assertSame(memory, second.buffer(), "the plain memory is handed on, not allocated again");
        assertZeroFrom(second.buffer(), HEADER);
        assertEquals(2, second.buffer().duplicate().order(java.nio.ByteOrder.LITTLE_ENDIAN).getLong(SegmentDescriptor.SEGMENT_ID_OFFSET),
                "with the new segment's own header");
        second.close();
    }

    @Test
    void bytesOfAFlushThatFoundTheDiskFullAreZeroedBeforeTheMemoryIsReused() throws IOException {
        SegmentFile first = create(1);
        int end = fill(first, 100_000);
        first.flush(0, HEADER + 40_000);
        disk.fillUp();
        assertThrows(NoSpaceLeftException.class, () -> first.flush(HEADER + 40_000, end));
        first.close();
        disk.freeSpace();

        SegmentFile second = create(2);
        assertZeroFrom(second.buffer(), HEADER);
        int secondEnd = fill(second, 50_000);
        byte[] expected = new byte[secondEnd - HEADER];
        second.buffer().get(HEADER, expected);
        second.flush(0, secondEnd);
        second.close();
        SegmentFile read = layer.open(Path.of("log", "2.log"), false);
        read.readableTo(secondEnd);
        byte[] image = new byte[secondEnd - HEADER];
        read.buffer().get(HEADER, image);
        assertArrayEquals(expected, image);
        read.close();
    }

    private SegmentFile create(long id) throws IOException {
        return layer.create(Path.of("log", id + ".log"), SIZE, SegmentHeader.encode(id, (id - 1) * SIZE, SIZE), Set.of());
    }

    /** Writes {@code length} JSON-like bytes after the header; returns where they end. */
    private int fill(SegmentFile file, int length) {
        file.buffer().put(HEADER, Payloads.json(random, length), 0, length);
        return HEADER + length;
    }

    private static void assertZeroFrom(ByteBuffer buffer, int from) {
        for (int i = from; i < buffer.capacity(); i++) {
            if (buffer.get(i) != 0) {
                throw new AssertionError("byte " + i + " of the reused memory is " + buffer.get(i) + ", not zero");
            }
        }
    }
}
