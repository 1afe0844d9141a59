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
     * Whether this file stores its flushes as sections (format version 3: compressed or encrypted)
     * rather than as the frames at their own offsets. The memory ({@link #buffer()}) holds the
     * plain frames either way.
     */
    default boolean sectioned() {
        return false;
    }

    /**
     * For a {@linkplain #sectioned() sectioned} file: the bytes left in the file after its last
     * section, which every further section must fit in. Unlimited for a plain file, whose flushes
     * write each byte at its own offset.
     */
    default long sectionRoom() {
        return Long.MAX_VALUE;
    }

    /**
     * For a {@linkplain #sectioned() sectioned} file open for writing: the end of the plain bytes
     * its sections hold (an offset in the segment), where its next section starts; -1 for a plain file.
     */
    default int sectionsEnd() {
        return -1;
    }

    /**
     * For a {@linkplain #sectioned() sectioned} file open for writing, the tools' cut: the plain
     * bytes from {@code offset} on leave the file, which is written and synced before this
     * returns (the section holding {@code offset} stored again with only the bytes before it, the
     * rest of the file zeroed). A plain file does nothing: its caller zeroes and flushes its bytes.
     */
    default void cutSections(int offset) throws IOException {
    }

    /**
     * For a sectioned file opened read-only: makes the memory show the plain bytes of every section
     * written so far that ends at or before {@code end}, or past it (the live segment gains sections
     * as the log flushes). Readers call it before reading below a durable position they read. A
     * plain file shows what is written through its mapping already: nothing to do.
     *
     * @throws IOException if a section is encrypted under a key the key provider does not have
     */
    default void readableTo(int end) throws IOException {
    }

    /**
     * For a sectioned file: why the plain bytes end at {@code offset}, when a section there did not
     * verify (torn, damaged, tampered, moved); null when they do not end there or the next section
     * was simply never written. Readers report it as they report a bad frame; recovery renews a
     * prepared segment for which it is not null. Null for a plain file.
     */
    default String sectionDamageAt(int offset) {
        return null;
    }

    /**
     * Releases the memory (unmaps it, or hands a writer's memory to the next segment). The caller
     * guarantees no thread touches {@link #buffer()} afterwards, and, for a file written through
     * it, that everything stored into it was flushed.
     */
    @Override
    void close();
}
