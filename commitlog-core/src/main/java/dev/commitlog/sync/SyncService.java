package dev.commitlog.sync;

/**
 * What appenders and asynchronous completions need of the {@link SyncEngine}: to wait until their
 * record is as durable as the sync mode promises, to ask for flushes, and to learn of failure.
 */
public interface SyncService extends AutoCloseable {
    /** Starts the sync thread. */
    void start();

    /**
     * Called by an appender after publishing a frame that ends at {@code endPosition}; returns when
     * the record is as durable as the mode promises. The caller checked for an earlier failure
     * before claiming; a failure after that releases the wait and is thrown from it.
     *
     * @throws dev.commitlog.CommitLogFailedException if a flush failed before it covered the record
     */
    void afterAppend(long endPosition, Waiter waiter);

    /**
     * Returns when everything below {@code position} is durable, flushing at once: in the calling
     * thread if no flush is running, else by asking the sync thread.
     */
    void syncUpTo(long position, Waiter waiter);

    /**
     * Asks for a flush covering {@code position} soon, without waiting for it. Throws nothing: the
     * caller's record is already published, and a failure reaches it through its completion (an
     * asynchronous append) or is what it accepted by not waiting ({@code Ack.WRITTEN}).
     */
    void requestSync(long position);

    /**
     * Waits until the durable position reaches {@code position}, or flushing failed, or the log
     * closed; asks for no flush and throws nothing (the caller checks which).
     */
    void await(long position, Waiter waiter);

    /** Everything below this log position is durable. */
    long durablePosition();

    /** The failure that stopped flushing, or null. */
    RuntimeException failure();

    /** Flushes what is published, stops the sync thread and releases waiters. Idempotent. */
    @Override
    void close();
}
