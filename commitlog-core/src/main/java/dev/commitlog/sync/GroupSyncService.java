package dev.commitlog.sync;

import dev.commitlog.config.CommitFailurePolicy;
import dev.commitlog.segment.SegmentSyncer;
import java.time.Duration;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;

/**
 * Group mode (Cassandra's GroupCommitLogService, CASSANDRA-13530): like Batch, but after each flush
 * the sync thread waits on a semaphore for {@code commitlog_sync_group_window}, so that more
 * concurrent appends accumulate and share one flush. {@link #close()} releases the semaphore
 * early, and so does a caller that asks for a flush explicitly ({@code sync()}, {@code Ack.DURABLE}).
 * A lone writer pays up to one window per append: that is the mode's known cost.
 */
public final class GroupSyncService extends AbstractSyncService {
    private final long windowNanos;
    private final Semaphore window = new Semaphore(0);

    public GroupSyncService(SegmentSyncer syncer, CommitFailurePolicy failurePolicy, Duration window) {
        super(syncer, failurePolicy, "group", SyncTuning.fromSystemProperties());
        this.windowNanos = window.toNanos();
    }

    @Override
    protected void awaitWork() {
        awaitData();
    }

    @Override
    protected void afterFlush() {
        try {
            window.tryAcquire(windowNanos, TimeUnit.NANOSECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Override
    protected void wakeFromWindow() {
        if (window.availablePermits() == 0) { // at most one early wake-up pending, however many ask
            window.release();
        }
    }

    @Override
    public void afterAppend(long endPosition, Waiter waiter) {
        requestFlush();
        awaitDurable(endPosition, waiter);
    }
}
