package dev.commitlog.sync;

import dev.commitlog.segment.SegmentSyncer;

/**
 * What the {@link SyncEngine} lends a {@link SyncPolicy}: the few operations a mode composes,
 * and nothing of the engine's state. The engine implements it; tests of a policy can too.
 */
interface FlushControl {
    /** What ends the sync thread's wait in {@link #park} and {@link #parkUntil}, besides the engine stopping. */
    enum Wake {
        /** An appender, or a caller of {@code sync()}, asked for a flush. */
        REQUEST,
        /** A request, or data published that no flush has claimed yet. */
        REQUEST_OR_DATA
    }

    /**
     * Sync thread: returns when {@code wake} holds or the engine stops. It spins briefly before it
     * parks (the wake is usually an appender, a few microseconds away).
     */
    void park(Wake wake);

    /**
     * Sync thread: returns when {@code wake} holds, when the engine stops, or once the policy's
     * clock reaches {@code deadlineNanos}. It parks at once (its caller waits for a period, not
     * for an appender). A deadline, not a timeout: a timeout would be turned into a deadline by a
     * second read of the clock, and a clock moved between the two reads (a test's) would push the
     * deadline out by the move.
     */
    void parkUntil(Wake wake, long deadlineNanos);

    /** One flush of what is published, unless another thread holds the flush role. */
    FlushAttempt tryFlush();

    /**
     * A whole pass under one hold of the role: flushes until everything appended before it began
     * is durable, then, if it got there, tells {@code covered} while still holding the role.
     */
    FlushAttempt flushPass(long startedNanos, PassCovered covered);

    /** Wakes the sync thread if it is parked (data was published). */
    void requestFlush();

    /** Asks the sync thread to flush at least up to {@code position}, and wakes it. */
    void requestFlushUpTo(long position);

    /** The leader/follower step: flush in this thread if nobody is flushing, else ask and wait. */
    void flushInlineOrWait(long endPosition, Waiter waiter);

    /** Waits until the durable position reaches {@code endPosition}; throws if flushing failed. */
    void awaitDurable(long endPosition, Waiter waiter);

    /** Everything below this log position is durable. */
    long durablePosition();

    /** Told by {@link #flushPass} when a pass reached its target, while the role is still held. */
    @FunctionalInterface
    interface PassCovered {
        void covered(long startedNanos, SegmentSyncer held);
    }
}
