package dev.commitlog.disk;

import java.nio.ByteBuffer;
import java.util.ArrayDeque;
import java.util.IdentityHashMap;
import java.util.Map;
import java.util.function.IntFunction;
import net.openhft.chronicle.bytes.BytesStore;
import net.openhft.chronicle.core.io.IOTools;

/**
 * The memory writers store frames into: direct buffers, not mappings of the segment files. A
 * writable segment's buffer comes back here when its file is closed (the flusher has passed its
 * end marker: sealed and flushed, invariant 9) and is handed to the next segment, zeroed only
 * where it was written, so a log that keeps appending takes no page fault for its writer memory
 * once its first few segments have been filled.
 *
 * <p>Why not a mapping of the file: a private ({@code MAP_PRIVATE}) mapping copies every page on
 * its first store (a copy-on-write fault per 4 KiB, taken by whichever thread touches it first),
 * and every new segment's pages are faulted again. A fresh buffer is zeroed by the JDK
 * ({@link ByteBuffer#allocateDirect}), which faults its pages once, on the allocator's thread.
 *
 * <p>Assumptions and guarantees: {@link #release} is told the end of the bytes ever written into
 * the buffer ({@code writtenTo}); everything past it must read zero, which the file guarantees by
 * counting every store that reaches it (its header, a loaded file, each flushed range) and by the
 * rule that a writable file is closed only once nothing unflushed lies in it (with assertions on,
 * {@link #take} checks). {@link #take} returns a buffer of exactly {@code size} bytes, all zero.
 * Thread-safe: the sync thread releases, the allocator takes. At most {@link #KEPT} buffers are
 * kept; more are freed at once. The kept buffers are freed by the garbage collector with the
 * storage layer that owns this pool.
 *
 * <p>For direct writes ({@link #aligned}) each buffer starts on a block boundary: a slice of one
 * allocated a block larger, which is the one freed.
 *
 * <p>Direct buffers count against {@code -XX:MaxDirectMemorySize} (by default the maximum heap
 * size), and a log holds one for every segment not yet flushed to its end (under Periodic, up to a
 * sync period of appends). When the JVM refuses one, {@link #take} returns null and the caller
 * falls back to a private mapping of the file, which the limit does not count.
 */
public final class WriterMemory {
    /** Enough for a segment being filled, the one prepared after it, and the last one released. */
    static final int KEPT = 2;

    private record Released(ByteBuffer buffer, int writtenTo) {
    }

    /** Guarded by this. */
    private final ArrayDeque<Released> released = new ArrayDeque<>();
    /** The allocated buffer each aligned slice handed out or kept is part of: the one to free. Guarded by this. */
    private final Map<ByteBuffer, ByteBuffer> allocated = new IdentityHashMap<>();
    /** Makes a new, zeroed buffer. */
    private final IntFunction<ByteBuffer> allocate;
    /** Where buffers start: on a multiple of this many bytes from address 0 (1: anywhere). */
    private final int alignment;

    public WriterMemory() {
        this(ByteBuffer::allocateDirect); // zeroed by the JDK
    }

    /** With {@code allocate} making new buffers (a test's, to run out of memory on command). */
    WriterMemory(IntFunction<ByteBuffer> allocate) {
        this(allocate, 1);
    }

    WriterMemory(IntFunction<ByteBuffer> allocate, int alignment) {
        this.allocate = allocate;
        this.alignment = alignment;
    }

    /** Buffers that start on a {@code block}-byte boundary, for {@code O_DIRECT} writes. */
    static WriterMemory aligned(int block) {
        return new WriterMemory(ByteBuffer::allocateDirect, block);
    }

    /**
     * A zeroed buffer of {@code size} bytes: a released one if one has that size, else a new one;
     * null if the JVM's direct memory limit refuses a new one.
     */
    public ByteBuffer take(int size) {
        Released reused = takeReleased(size);
        if (reused == null) {
            try {
                return alignment == 1 ? allocate.apply(size) : alignedSlice(allocate.apply(size + alignment), size);
            } catch (OutOfMemoryError e) {
                return null; // "Cannot reserve ... bytes of direct buffer memory", after the JDK's own GC and retries
            }
        }
        ByteBuffer buffer = reused.buffer();
        BytesStore.wrap(buffer).zeroOut(0, reused.writtenTo());
        assert zeroFrom(buffer, 0) : "writer memory was written past the end it was released with";
        return buffer;
    }

    /** Takes {@code buffer} back; bytes at and past {@code writtenTo} are zero. Never blocks on I/O. */
    public void release(ByteBuffer buffer, int writtenTo) {
        Released freed = null;
        synchronized (this) {
            released.addLast(new Released(buffer, writtenTo));
            if (released.size() > KEPT) {
                freed = released.removeFirst();
            }
        }
        if (freed != null) {
            IOTools.clean(allocatedFor(freed.buffer()));
        }
    }

    private synchronized ByteBuffer alignedSlice(ByteBuffer whole, int size) {
        int misalignment = whole.alignmentOffset(0, alignment);
        ByteBuffer slice = whole.slice(misalignment == 0 ? 0 : alignment - misalignment, size);
        allocated.put(slice, whole);
        return slice;
    }

    /** The buffer to free for {@code buffer}: itself, or the one it is an aligned slice of. */
    private synchronized ByteBuffer allocatedFor(ByteBuffer buffer) {
        ByteBuffer whole = allocated.remove(buffer);
        return whole != null ? whole : buffer;
    }

    private synchronized Released takeReleased(int size) {
        for (var it = released.iterator(); it.hasNext(); ) {
            Released candidate = it.next();
            if (candidate.buffer().capacity() == size) {
                it.remove();
                return candidate;
            }
        }
        return null;
    }

    private static boolean zeroFrom(ByteBuffer buffer, int from) {
        int i = from;
        for (; i + Long.BYTES <= buffer.capacity(); i += Long.BYTES) {
            if (buffer.getLong(i) != 0) {
                return false;
            }
        }
        for (; i < buffer.capacity(); i++) {
            if (buffer.get(i) != 0) {
                return false;
            }
        }
        return true;
    }
}
