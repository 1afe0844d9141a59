package dev.commitlog.io;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;

/**
 * One segment file, and memory holding all of it. Writers store into {@link #buffer()}; nothing is
 * durable until {@link #flush} or {@link #flushHeaderAndRange} returns (and, in the production
 * layer, nothing reaches the file before that either: a writer's memory is not the file's page
 * cache, and a flush writes it to the file).
 *
 * <p>Assumptions and guarantees: {@link #flush} and {@link #flushHeaderAndRange} are called by one
 * thread at a time (the holder of the sync engine's flush role, or recovery before the engine
 * starts). A flush that throws has made no promise: the caller must treat
 * every byte not covered by an earlier successful flush as possibly lost, and must not retry the
 * flush and then believe it (the kernel may have dropped the dirty pages; PostgreSQL "fsyncgate").
 * The one exception is {@link NoSpaceLeftException}: the write step found the device full and the
 * sync was never attempted, so the same flush may be retried once space is freed.
 */
public interface SegmentFile extends AutoCloseable {
    Path path();

    /** The file's length in bytes, which never changes while it is open: the buffer holds all of it. */
    default int size() {
        return buffer().capacity();
    }

    /**
     * The file's bytes: a direct buffer over all of it (a read-only mapping, or a writer's memory
     * that shows the file as written plus what was stored since); callers use absolute offsets and
     * never move it.
     */
    ByteBuffer buffer();

    /**
     * Makes bytes {@code [from, to)} durable (pwrite then fdatasync, or a synchronous msync). Returns only when
     * the device has acknowledged them.
     */
    void flush(int from, int to) throws IOException;

    /**
     * Makes bytes {@code [0, headerLength)} and {@code [from, to)} durable with one device flush:
     * the flusher's call, which rewrites the header's durable mark and adds newly published
     * frames. The default flushes {@code [0, to)}, which covers both.
     */
    default void flushHeaderAndRange(int headerLength, int from, int to) throws IOException {
        flush(0, to);
    }

    /**
     * Releases the memory (unmaps it, or hands a writer's memory to the next segment). The caller
     * guarantees no thread touches {@link #buffer()} afterwards, and, for a file written through
     * it, that everything stored into it was flushed.
     */
    @Override
    void close();
}
