package dev.commitlog.io;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;

/**
 * One segment file, mapped into memory whole. Writers store into {@link #buffer()}; nothing is
 * durable until {@link #flush} or {@link #flushHeaderAndRange} returns (and, in the production
 * layer, nothing reaches the file before that either: the mapping is copy-on-write).
 *
 * <p>Assumptions and guarantees: {@link #flush} and {@link #flushHeaderAndRange(int, int, int)} are
 * called by one thread at a time (the sync thread, or recovery before it starts); flushes of
 * disjoint ranges may run concurrently only on distinct lanes
 * ({@link #flushHeaderAndRange(int, int, int, int)}), each lane used by one thread at a time. A flush that throws has made no promise: the caller must treat
 * every byte not covered by an earlier successful flush as possibly lost, and must not retry the
 * flush and then believe it (the kernel may have dropped the dirty pages; PostgreSQL "fsyncgate").
 * The one exception is {@link NoSpaceLeftException}: the write step found the device full and the
 * sync was never attempted, so the same flush may be retried once space is freed.
 */
public interface SegmentFile extends AutoCloseable {
    /** Lanes are numbered {@code 0 .. MAX_FLUSH_LANES - 1}. */
    int MAX_FLUSH_LANES = 8;

    Path path();

    /** The file's length in bytes, which never changes while it is open: the buffer maps all of it. */
    default int size() {
        return buffer().capacity();
    }

    /** The mapped file: a direct buffer over all of it; callers use absolute offsets and never move it. */
    ByteBuffer buffer();

    /**
     * Makes bytes {@code [from, to)} durable (pwrite then fdatasync, or a synchronous msync). Returns only when
     * the device has acknowledged them.
     */
    void flush(int from, int to) throws IOException;

    /**
     * Makes bytes {@code [0, headerLength)} and {@code [from, to)} durable with one device flush:
     * the sync thread's call, which rewrites the header's durable mark and adds newly published
     * frames. The default flushes {@code [0, to)}, which covers both.
     */
    default void flushHeaderAndRange(int headerLength, int from, int to) throws IOException {
        flush(0, to);
    }

    /**
     * As {@link #flushHeaderAndRange(int, int, int)}, on flush lane {@code lane}: flushes on
     * different lanes may run at the same time (pipelined flushes), and each must learn of any
     * write-back error that could have hit its bytes, whichever lane's sync ran into it. Lane 0 is
     * the three-argument form's. The default serialises every lane on this file (correct, not
     * concurrent); the production layer gives each lane its own file descriptor.
     */
    default void flushHeaderAndRange(int headerLength, int from, int to, int lane) throws IOException {
        synchronized (this) {
            flushHeaderAndRange(headerLength, from, to);
        }
    }

    /** Unmaps the file. The caller guarantees no thread touches {@link #buffer()} afterwards. */
    @Override
    void close();
}
