package dev.commitlog.disk;

import java.io.IOException;

/**
 * How a flush's bytes go from a segment's writer memory to the same offsets of its file, before
 * the flush's {@code fdatasync}: through the page cache ({@link PageCacheRangeWriter}) or with
 * {@code O_DIRECT} ({@link DirectRangeWriter}). One thread at a time (the flusher).
 */
interface RangeWriter {
    /**
     * Writes {@code [0, headerLength)} (none when 0) and {@code [from, to)} of the memory to the file.
     *
     * @param stableEnd the end of the memory's bytes that no thread stores into while this runs:
     *                  at least {@code to}, and past it what earlier flushes (or the opening) wrote
     */
    void write(int headerLength, int from, int to, int stableEnd) throws IOException;

    /** Closes what this writer opened besides the file's channel. */
    default void close() throws IOException {
    }
}
