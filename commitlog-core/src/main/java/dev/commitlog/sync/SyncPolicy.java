package dev.commitlog.sync;

import dev.commitlog.segment.SegmentSyncer;

/**
 * What one sync mode decides, as one object ({@link SyncModes} makes it): when the sync thread
 * flushes, whether a flush is one step or a whole pass, what the flush-role holder does before a
 * flush and after publishing one, and what an appender does once its record is published. The
 * {@link SyncEngine} owns the threads, the flush role, the flush itself, failure and close, and
 * lends each policy only a {@link FlushControl} (like the Disruptor's wait strategies, which are
 * handed what they need and never call back into their host).
 *
 * <p>Every method is implemented by every mode, so what a mode does at each point is written in
 * its own class: {@link PeriodicPolicy}, {@link BatchPolicy} (Batch and Adaptive), {@link GroupPolicy}.
 */
interface SyncPolicy {
    /** Sync thread: returns when it is time to flush, or when the engine stops. */
    void awaitWork(FlushControl control);

    /** Sync thread, once {@link #awaitWork} returned: one flush ({@link FlushControl#tryFlush()}) or a pass. */
    FlushAttempt flush(FlushControl control);

    /** Sync thread, after each flush attempt that was not refused for the role. */
    void afterFlush();

    /** Cuts a wait in {@link #afterFlush} short: close, or an explicit request for a flush. */
    void wake();

    /**
     * Flush-role holder, just before it claims a flush; returns how long it waited (nanoseconds),
     * which counts as part of the flush cycle waiters yield through.
     */
    long beforeFlush(SegmentSyncer held);

    /** Flush-role holder, after it published a flush. */
    void published(SegmentSyncer held);

    /**
     * Appender, after publishing a frame that ends at {@code endPosition}: returns when the record
     * is as durable as the mode promises.
     */
    void afterAppend(FlushControl control, long endPosition, Waiter waiter);

    /** Asks for a flush covering {@code position} soon, without waiting (asynchronous appends). */
    void requestSync(FlushControl control, long position);
}
