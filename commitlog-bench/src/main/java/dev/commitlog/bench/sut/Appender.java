package dev.commitlog.bench.sut;

import java.io.IOException;

/**
 * One writer thread's handle on a {@link SystemUnderTest}. Confined to the thread that created it.
 */
public interface Appender extends AutoCloseable {

    /**
     * Appends one record and returns when the system considers it appended: for a durable system,
     * when it is durable; for Periodic mode and Chronicle Queue, when it is in the page cache.
     */
    void append(byte[] record) throws IOException;

    /** Releases per-thread resources; called on the same thread, after the last append. */
    @Override
    default void close() throws IOException {
    }
}
