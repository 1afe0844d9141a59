package dev.commitlog.sync;

import dev.commitlog.instrument.AppenderMetrics;

/**
 * One appending thread's handle for waiting on a flush. Each thread owns one and reuses it, so
 * waiting allocates nothing.
 */
public final class Waiter {
    final Thread thread;
    /** Told when this thread actually waits for a flush, and for how long. */
    final AppenderMetrics metrics;
    /** The log position this thread waits for; volatile because the sync thread reads it. */
    volatile long target;

    public Waiter(Thread thread, AppenderMetrics metrics) {
        this.thread = thread;
        this.metrics = metrics;
    }
}
