package dev.commitlog.sync;

/**
 * One appending thread's handle for waiting on a flush. Each thread owns one and reuses it, so
 * waiting allocates nothing.
 */
public final class Waiter {
    final Thread thread;
    /** The log position this thread waits for; volatile because the sync thread reads it. */
    volatile long target;

    public Waiter(Thread thread) {
        this.thread = thread;
    }
}
