package dev.commitlog.sync;

import dev.commitlog.segment.SegmentSyncer;

/**
 * When the sync thread flushes: one strategy per sync mode, driven by the {@link SyncEngine}
 * (like the Disruptor's {@code WaitStrategy}: the engine owns the threads and the flush, the
 * strategy only decides when).
 */
interface FlushSchedule {
    /** Sync thread: returns when it is time to flush, or when the engine stops. */
    void awaitWork(SyncEngine engine);

    /**
     * Called by the flush-role holder just before it claims a flush; returns how long it waited
     * (nanoseconds), which counts as part of the flush cycle waiters yield through.
     */
    default long beforeFlush(SegmentSyncer syncer) {
        return 0;
    }

    /** Sync thread, after each of its flush attempts (Group waits its window here). */
    default void afterFlush() {
    }

    /** Cuts a wait in {@link #afterFlush} short: close, or an explicit request for a flush. */
    default void wake() {
    }

    /**
     * Sync thread, once {@link #awaitWork} returned: one flush attempt, which
     * {@link SyncEngine#tryFlush()} is for every mode but Periodic (a whole pass:
     * {@link SyncEngine#flushPass}).
     */
    default SyncEngine.FlushAttempt flush(SyncEngine engine) {
        return engine.tryFlush();
    }

    /**
     * Role holder: a pass that began at {@code startedNanos} made everything appended before it
     * durable; {@code syncer} is as the pass left it (see {@link SyncEngine#flushPass}).
     */
    default void passCovered(long startedNanos, SegmentSyncer syncer) {
    }
}
