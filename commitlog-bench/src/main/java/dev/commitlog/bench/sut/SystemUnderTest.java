package dev.commitlog.bench.sut;

import java.io.IOException;

/**
 * One open instance of a system being measured (the commit log in one sync mode, or a peer),
 * living in a directory of its own for the duration of one cell.
 *
 * <p>Assumptions and guarantees: the harness calls {@link #newAppender(int)} once on each writer
 * thread, uses that appender only from that thread, closes it on that thread, and calls
 * {@link #close()} once after every writer thread has finished. {@link #flushCounters()} may be
 * called from any thread at any time and must not block appenders.
 */
public interface SystemUnderTest extends AutoCloseable {

    /** Called on writer thread {@code threadIndex} (0-based) before its first append. */
    Appender newAppender(int threadIndex) throws IOException;

    /** The system's own flush counters so far, or {@link FlushCounters#UNKNOWN}. */
    FlushCounters flushCounters();

    @Override
    void close() throws IOException;
}
