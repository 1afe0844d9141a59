package dev.commitlog.sync;

/**
 * An appender wakes the sync thread and waits for the flush that covers its record; it never
 * flushes itself (Group, and Batch without leader/follower).
 */
final class AskAndWait implements AppendWait {
    @Override
    public void afterAppend(SyncEngine engine, long endPosition, Waiter waiter) {
        engine.requestFlush(); // the sync thread flushes whatever data it finds
        engine.awaitDurable(endPosition, waiter);
    }
}
