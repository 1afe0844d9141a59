package dev.commitlog.sync;

import dev.commitlog.CommitLogException;
import dev.commitlog.CommitLogFailedException;
import dev.commitlog.config.CommitFailurePolicy;
import dev.commitlog.segment.SegmentSyncer;
import java.io.IOException;
import java.lang.invoke.VarHandle;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The sync thread: wait for work as the mode says, flush through the shared
 * {@link SegmentSyncer}, wake the appenders the flush covered, repeat.
 *
 * <p>Assumptions and guarantees: the sync thread is the only caller of the syncer. Appenders wake
 * it through {@link #requestFlush()}; the handshake is Dekker-style (the appender's publish, a full
 * fence, then the read of {@code parked}; the sync thread's volatile write of {@code parked}, then
 * the read of the next length word), so a request is never lost while the thread parks. After a
 * failed flush the thread stops for good: nothing is flushed or acknowledged again until the log is
 * reopened; the one exception is a write that found the disk full, which is retried
 * ({@link DiskFullRetry}).
 */
abstract class AbstractSyncService implements SyncService, Runnable {
    private static final Logger LOG = LoggerFactory.getLogger(SyncService.class);
    /** Idle spins before the sync thread parks; short, since spinning steals a core from appenders. */
    private static final int IDLE_SPINS = 100;
    private static final long CLOSE_DRAIN_NANOS = TimeUnit.SECONDS.toNanos(5);

    protected final SegmentSyncer syncer;
    protected final DurabilityWaiters waiters;
    private final CommitFailurePolicy failurePolicy;
    private final Thread thread;
    private volatile boolean running = true;
    private volatile boolean parked;
    /** The highest position a caller of syncUpTo waits for; the thread flushes until it is durable. */
    private final AtomicLong requestedPosition = new AtomicLong();
    private volatile RuntimeException failure;
    /** Flushes, retrying a write that found the disk full; every other failure is fatal. */
    private final DiskFullRetry diskFull;

    AbstractSyncService(SegmentSyncer syncer, CommitFailurePolicy failurePolicy, String name) {
        this.syncer = syncer;
        this.failurePolicy = failurePolicy;
        this.waiters = new DurabilityWaiters(syncer.durableSequence(), 1 << 16);
        this.diskFull = new DiskFullRetry(syncer, waiters, this::running);
        this.thread = new Thread(this, "commitlog-sync-" + name);
        this.thread.setDaemon(true);
    }

    @Override
    public void start() {
        thread.start();
    }

    @Override
    public final void run() {
        try {
            while (running) {
                awaitWork();
                if (!running) {
                    break;
                }
                flush();
                afterFlush();
            }
            drainOnClose();
        } catch (IOException | RuntimeException | Error e) {
            fail(e);
        }
    }

    /** Mode-specific: return when it is time to flush (or when closing). */
    protected abstract void awaitWork();

    /** Mode-specific: what to do after each flush (Group waits its window). */
    protected void afterFlush() {
    }

    protected final void flush() throws IOException {
        if (diskFull.flushOnce()) {
            waiters.wakeCovered(syncer.durablePosition());
        }
        flushed(System.nanoTime());
    }

    /** Hook for Periodic, which tracks when the last flush completed. */
    protected void flushed(long nanoTime) {
    }

    /** Parks the sync thread until data is published, a flush is requested or the log closes. */
    protected final void awaitData() {
        for (int spins = 0; running && !flushRequested() && !syncer.hasUnflushedData(); spins++) {
            if (spins < IDLE_SPINS) {
                Thread.onSpinWait();
                continue;
            }
            parked = true; // volatile write, then the volatile read of the next length word
            if (running && !flushRequested() && !syncer.hasUnflushedData()) {
                LockSupport.park(this);
            }
            parked = false;
        }
    }

    /** Parks the sync thread for up to {@code nanos}, returning early on a flush request or close. */
    protected final void awaitRequest(long nanos) {
        long deadline = System.nanoTime() + nanos;
        for (long left = nanos; running && !flushRequested() && left > 0; left = deadline - System.nanoTime()) {
            parked = true;
            if (running && !flushRequested()) {
                LockSupport.parkNanos(this, left);
            }
            parked = false;
        }
    }

    /** Whether a caller of syncUpTo waits for a position that is not durable yet. */
    protected final boolean flushRequested() {
        return requestedPosition.get() > syncer.durablePosition();
    }

    /** Called by appenders after publishing: wakes the sync thread if it is parked. */
    protected final void requestFlush() {
        VarHandle.fullFence(); // StoreLoad: our published length word before the read of parked
        if (parked) {
            LockSupport.unpark(thread);
        }
    }

    /** Waits until the durable position reaches {@code endPosition}; throws if flushing failed. */
    protected final void awaitDurable(long endPosition, Waiter waiter) {
        waiters.await(endPosition, waiter);
        if (syncer.durablePosition() < endPosition) {
            RuntimeException failed = failure;
            throw failed != null ? failed : new CommitLogException("commit log closed before position " + endPosition + " was durable");
        }
    }

    @Override
    public void syncUpTo(long position, Waiter waiter) {
        checkNotFailed();
        if (syncer.durablePosition() >= position) {
            return;
        }
        requestedPosition.accumulateAndGet(position, Math::max);
        requestFlush();
        awaitDurable(position, waiter);
    }

    @Override
    public long durablePosition() {
        return syncer.durablePosition();
    }

    @Override
    public RuntimeException failure() {
        return failure;
    }

    private void checkNotFailed() {
        RuntimeException failed = failure;
        if (failed != null) {
            throw failed;
        }
    }

    private void drainOnClose() throws IOException {
        // Appends that claimed space before close publish within microseconds; flush them too.
        long deadline = System.nanoTime() + CLOSE_DRAIN_NANOS;
        do {
            flush();
        } while (syncer.hasUnflushedData() && System.nanoTime() < deadline);
        waiters.wakeAll();
    }

    private void fail(Throwable cause) {
        long durable = syncer.durablePosition();
        String message = "commit log flush failed; nothing at or after log position " + durable
                + " is acknowledged, and the log accepts no appends until it is reopened: " + cause;
        failure = new CommitLogFailedException(message, cause);
        LOG.error(message, cause);
        waiters.wakeAll();
        if (failurePolicy == CommitFailurePolicy.DIE) {
            LOG.error("commit_failure_policy is die: halting the JVM");
            Runtime.getRuntime().halt(100);
        }
    }

    @Override
    public void close() {
        if (!running) {
            return;
        }
        running = false;
        LockSupport.unpark(thread);
        wakeFromWindow();
        try {
            thread.join();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        waiters.wakeAll();
    }

    /** Group overrides this to cut its window short on close. */
    protected void wakeFromWindow() {
    }

    protected final boolean running() {
        return running;
    }
}
