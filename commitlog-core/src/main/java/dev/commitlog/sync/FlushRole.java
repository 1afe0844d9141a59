package dev.commitlog.sync;

import dev.commitlog.segment.SegmentSyncer;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The right to flush: at most one thread holds it, and only the holder may claim, write, sync and
 * publish a flush, or wake the waiters a flush covered. Held across the whole flush, so exactly one
 * flush runs at a time and the durable position moves flush by flush, in log order.
 *
 * <p>The holder-only state (the syncer's scan state, the waiters' pending list) is reached only
 * through {@link #syncer()} and {@link #waiters()}, which check that the calling thread holds the
 * role: a caller that does not is a bug, reported at once instead of racing a flush. Nobody blocks
 * on the role: a thread that fails to take it waits for the durable position (appenders) or parks
 * until the holder releases it (the sync thread). The CAS that takes it and the volatile store that
 * releases it order one holder's work before the next's.
 */
final class FlushRole {
    private final AtomicReference<Thread> holder = new AtomicReference<>();
    private final SegmentSyncer syncer;
    private final DurabilityWaiters waiters;

    FlushRole(SegmentSyncer syncer, DurabilityWaiters waiters) {
        this.syncer = syncer;
        this.waiters = waiters;
    }

    /** Takes the role if nobody holds it; returns whether the calling thread now holds it. */
    boolean tryAcquire() {
        return holder.get() == null && holder.compareAndSet(null, Thread.currentThread());
    }

    /** Takes the role, yielding while another thread holds it (close and failure paths only). */
    void acquire() {
        while (!tryAcquire()) {
            Thread.yield();
        }
    }

    /** Gives the role up. */
    void release() {
        checkHeld();
        holder.set(null);
    }

    /** Whether any thread holds the role now. */
    boolean isHeld() {
        return holder.get() != null;
    }

    /** The syncer, for the holder's flush steps. */
    SegmentSyncer syncer() {
        checkHeld();
        return syncer;
    }

    /** The waiters, for the holder's wake-ups. */
    DurabilityWaiters waiters() {
        checkHeld();
        return waiters;
    }

    private void checkHeld() {
        Thread current = Thread.currentThread();
        Thread held = holder.get();
        if (held != current) {
            throw new IllegalStateException(current.getName() + " used the flush role, held by "
                    + (held == null ? "nobody" : held.getName()));
        }
    }
}
