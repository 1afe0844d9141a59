package dev.commitlog.sync;

import dev.commitlog.segment.SegmentSyncer;

/**
 * Whether, and how, an appender waits for the flush that covers its record: one strategy per sync
 * mode, driven by the {@link SyncEngine}.
 */
interface AppendWait {
    /**
     * Appender, after publishing a frame that ends at {@code endPosition}: returns when the record
     * is as durable as the mode promises.
     */
    void afterAppend(SyncEngine engine, long endPosition, Waiter waiter);

    /** Asks for a flush covering {@code position} soon, without waiting (asynchronous appends). */
    default void requestSync(SyncEngine engine, long position) {
        engine.requestFlushUpTo(position);
    }

    /** The role holder published a flush (leader/follower decides its hand-off here). */
    default void published(SegmentSyncer syncer) {
    }
}
