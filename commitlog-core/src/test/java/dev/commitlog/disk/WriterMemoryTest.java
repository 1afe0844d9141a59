package dev.commitlog.disk;

import static org.junit.jupiter.api.Assertions.*;

import java.nio.ByteBuffer;
import org.junit.jupiter.api.Test;

/** The writer memory pool hands out zeroed buffers, reusing a released one zeroed only where it was written. */
class WriterMemoryTest {
    private static final int SIZE = 64 * 1024;

    @Test
    void aReleasedBufferIsReusedAndReadsZeroWhereItWasWritten() {
        WriterMemory pool = new WriterMemory();
        ByteBuffer first = pool.take(SIZE);
        for (int i = 0; i < 40_000; i++) {
            first.put(i, (byte) (i | 1));
        }
        pool.release(first, 40_000);
        ByteBuffer second = pool.take(SIZE);
        assertSame(first, second, "the released buffer is handed out again");
        for (int i = 0; i < SIZE; i++) {
            assertEquals(0, second.get(i), "byte " + i);
        }
    }

    @Test
    void aBufferOfAnotherSizeIsNotReused() {
        WriterMemory pool = new WriterMemory();
        ByteBuffer small = pool.take(SIZE);
        pool.release(small, 0);
        ByteBuffer large = pool.take(2 * SIZE);
        assertNotSame(small, large);
        assertEquals(2 * SIZE, large.capacity());
        assertSame(small, pool.take(SIZE), "still kept for a segment of its size");
    }

    @Test
    void atMostTwoBuffersAreKept() {
        WriterMemory pool = new WriterMemory();
        ByteBuffer a = pool.take(SIZE);
        ByteBuffer b = pool.take(SIZE);
        ByteBuffer c = pool.take(SIZE);
        pool.release(a, 0);
        pool.release(b, 0);
        pool.release(c, 0); // frees a, the oldest
        ByteBuffer first = pool.take(SIZE);
        ByteBuffer second = pool.take(SIZE);
        assertSame(b, first);
        assertSame(c, second);
        assertNotSame(a, pool.take(SIZE));
    }

    /** For direct writes: every buffer starts on a block, reused ones too, and one freed goes back whole (its slice cannot be freed). */
    @Test
    void anAlignedPoolHandsOutBlockAlignedBuffersAndFreesThemWhole() {
        WriterMemory pool = WriterMemory.aligned(4096);
        ByteBuffer a = pool.take(SIZE);
        ByteBuffer b = pool.take(SIZE);
        ByteBuffer c = pool.take(SIZE);
        for (ByteBuffer buffer : new ByteBuffer[] {a, b, c}) {
            assertEquals(SIZE, buffer.capacity());
            assertEquals(0, buffer.alignmentOffset(0, 4096), "starts on a 4 KiB boundary");
            assertTrue(buffer.isDirect());
        }
        a.put(SIZE - 1, (byte) 3);
        pool.release(a, SIZE);
        pool.release(b, 0);
        pool.release(c, 0); // frees a: the buffer it is a slice of
        ByteBuffer again = pool.take(SIZE);
        assertSame(b, again);
        assertEquals(0, again.alignmentOffset(0, 4096));
        assertNotSame(a, pool.take(SIZE));
    }

    /** The pool trusts the end it is told; a byte written past it would reach the next segment. Checked under assertions. */
    @Test
    void aBufferWrittenPastItsReleasedEndIsCaught() {
        WriterMemory pool = new WriterMemory();
        ByteBuffer buffer = pool.take(SIZE);
        buffer.put(SIZE - 1, (byte) 7);
        pool.release(buffer, 100);
        assertThrows(AssertionError.class, () -> pool.take(SIZE));
    }
}
