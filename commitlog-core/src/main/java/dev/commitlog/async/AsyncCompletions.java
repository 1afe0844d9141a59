package dev.commitlog.async;

import dev.commitlog.CommitLogException;
import dev.commitlog.instrument.AppenderMetrics;
import dev.commitlog.sync.SyncService;
import dev.commitlog.sync.Waiter;
import java.lang.invoke.VarHandle;
import java.util.Arrays;
import java.util.concurrent.locks.LockSupport;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Completes asynchronous appends: one completion thread waits, like any appender, for the durable
 * position to pass the oldest uncompleted record, then completes every record the durable position
 * covers, across all submitting threads, in log position order.
 *
 * <p>Assumptions and guarantees:
 * <ul>
 *   <li>Each submitting thread owns one {@link CompletionRing}; its entries are in position order
 *       because one thread's appends are. The completion thread merges the rings by position. As
 *       the durable position covers a contiguous prefix of the log and every covered record's entry
 *       is in its ring before the record is published, completions across flushes are in position
 *       order too.</li>
 *   <li>No completion before the covering flush: an entry completes normally only when its end
 *       position is at or below the durable position read after the wait.</li>
 *   <li>After a failed flush, or on close, the entries the durable position does not cover fail;
 *       none is ever completed normally afterwards, since the durable position never moves again.
 *       The durable position is re-read after the failure or closing flag is seen, never before:
 *       a read from before could miss the last flush and fail records that are durable.</li>
 *   <li>Memory stays bounded under thread churn: each registration drops the rings of submitters
 *       that have ended and whose entries are all completed ({@link CompletionRing#retired}), so
 *       the rings kept are those of live submitters and of ended ones with entries still pending.
 *       A ring dropped while the completion thread iterates an older array is empty there.</li>
 *   <li>The completion thread parks when every ring is empty; a submitter unparks it after adding an
 *       entry (Dekker handshake on {@code idle}: the ring's volatile tail, a fence, the read of idle;
 *       the completion thread's volatile write of idle, then the re-read of the rings).</li>
 * </ul>
 */
public final class AsyncCompletions implements Runnable {
    private static final Logger LOG = LoggerFactory.getLogger(AsyncCompletions.class);
    /** How long a submitter whose ring is full sleeps between checks. */
    private static final long FULL_RING_PAUSE_NANOS = 20_000;

    private final SyncService sync;
    private final int ringCapacity;
    private final Thread thread;
    private final Waiter waiter;
    private volatile CompletionRing[] rings = new CompletionRing[0];
    private volatile boolean idle;
    private volatile boolean closing;
    /** The thread starts with the first submitter, so a log with no asynchronous append has none; guarded by this. */
    private boolean started;

    public AsyncCompletions(SyncService sync, int ringCapacity, String name) {
        this.sync = sync;
        this.ringCapacity = ringCapacity;
        this.thread = new Thread(this, "commitlog-completions-" + name);
        this.thread.setDaemon(true);
        this.waiter = new Waiter(thread, AppenderMetrics.unrecorded(thread));
    }

    /**
     * A new ring for the calling submitter thread, which owns it; the first one starts the
     * completion thread. Drops the rings of ended submitters with nothing left to complete.
     */
    public Submitter register() {
        CompletionRing ring = new CompletionRing(ringCapacity, Thread.currentThread());
        synchronized (this) {
            if (!started) {
                started = true;
                thread.start();
            }
            CompletionRing[] kept = new CompletionRing[rings.length + 1];
            int count = 0;
            for (CompletionRing existing : rings) {
                if (!existing.retired()) {
                    kept[count++] = existing;
                }
            }
            kept[count++] = ring;
            rings = Arrays.copyOf(kept, count);
        }
        return new Submitter(ring);
    }

    /** How many rings the completion thread scans. */
    int rings() {
        return rings.length;
    }

    /** One thread's handle for submitting; not thread-safe. */
    public final class Submitter {
        private final CompletionRing ring;

        private Submitter(CompletionRing ring) {
            this.ring = ring;
        }

        /**
         * Waits until the ring has room for one more entry: call before claiming log space, since a
         * submitter waiting with an unpublished claim would hold back the flush it waits for.
         */
        public void awaitSpace() {
            while (!ring.hasSpace()) {
                RuntimeException failure = sync.failure();
                if (failure != null) {
                    throw failure;
                }
                if (closing) {
                    throw new IllegalStateException("commit log is closed");
                }
                LockSupport.parkNanos(this, FULL_RING_PAUSE_NANOS);
            }
        }

        /**
         * Adds the entry for a record about to be published; {@code target} is an AppendCallback, a
         * CompletableFuture, or a TypedAppendCallback that is handed {@code attachment} (else null).
         */
        public void add(long position, long endPosition, Object target, Object attachment) {
            ring.add(position, endPosition, target, attachment);
            VarHandle.fullFence(); // StoreLoad: the tail before the read of idle
            if (idle) {
                LockSupport.unpark(thread);
            }
        }
    }

    @Override
    public void run() {
        for (;;) {
            long target = oldestEnd();
            if (target == Long.MAX_VALUE) {
                if (closing) {
                    return;
                }
                idle = true; // volatile write, then the re-read of the rings
                if (oldestEnd() == Long.MAX_VALUE && !closing) {
                    LockSupport.park(this);
                }
                idle = false;
                continue;
            }
            sync.await(target, waiter);
            completeCovered(sync.durablePosition());
            RuntimeException failure = sync.failure();
            if (failure != null || closing) {
                // The durable position read above may predate the flush that failed or the sync
                // service's last flush on close (both come before the flag read just now): what
                // those flushes covered is durable and must complete normally, so read it again.
                completeCovered(sync.durablePosition());
                failRemaining(failure != null ? failure : new CommitLogException("commit log closed before the record was durable"));
            }
        }
    }

    private long oldestEnd() {
        long oldest = Long.MAX_VALUE;
        for (CompletionRing ring : rings) {
            oldest = Math.min(oldest, ring.headEnd());
        }
        return oldest;
    }

    /** Completes, in position order, every entry whose record ends at or below {@code durable}. */
    private void completeCovered(long durable) {
        completeInOrder(durable, null);
    }

    private void failRemaining(Throwable failure) {
        completeInOrder(Long.MAX_VALUE, failure);
    }

    private void completeInOrder(long upTo, Throwable failure) {
        CompletionRing[] all = rings;
        for (;;) {
            CompletionRing next = null;
            long nextPosition = Long.MAX_VALUE;
            for (CompletionRing ring : all) {
                long position = ring.headPosition();
                if (position < nextPosition && ring.headEnd() <= upTo) {
                    next = ring;
                    nextPosition = position;
                }
            }
            if (next == null) {
                return;
            }
            try {
                next.completeHead(failure);
            } catch (RuntimeException | Error e) {
                LOG.error("an append callback for log position {} threw; later completions go on", nextPosition, e);
            }
        }
    }

    /**
     * Called after the sync service closed (its last flush done): completes what is durable, fails
     * the rest, and stops the thread.
     */
    public void close() {
        closing = true;
        synchronized (this) {
            if (!started) {
                started = true; // never started: nothing to complete, and nothing may start it now
                return;
            }
        }
        LockSupport.unpark(thread);
        try {
            thread.join();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
