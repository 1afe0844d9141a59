package dev.commitlog.sync;

import dev.commitlog.segment.SegmentSyncer;
import java.time.Duration;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;

/**
 * Group mode (Cassandra's GroupCommitLogService, CASSANDRA-13530): the sync thread flushes when
 * there is data, then waits on a semaphore for {@code commitlog_sync_group_window}, so that more
 * concurrent appends accumulate and share the next flush; appenders ask and wait, and never flush
 * themselves. Close and an explicit request for a flush ({@code sync()}, {@code Ack.DURABLE})
 * release the semaphore early. A lone writer pays up to one window per append: that is the mode's
 * known cost.
 */
final class GroupPolicy implements SyncPolicy {
    private final long windowNanos;
    private final Semaphore window = new Semaphore(0);

    GroupPolicy(Duration window) {
        this.windowNanos = window.toNanos();
    }

    @Override
    public void awaitWork(FlushControl control) {
        control.park(FlushControl.Wake.REQUEST_OR_DATA);
    }

    @Override
    public FlushAttempt flush(FlushControl control) {
        return control.tryFlush();
    }

    @Override
    public void afterFlush() {
        try {
            window.tryAcquire(windowNanos, TimeUnit.NANOSECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public void wake() {
        if (window.availablePermits() == 0) { // at most one early wake-up pending, however many ask
            window.release();
        }
    }

    @Override
    public long beforeFlush(SegmentSyncer held) {
        return 0;
    }

    @Override
    public void published(SegmentSyncer held) {
        // no decision rides on a publication
    }

    @Override
    public void afterAppend(FlushControl control, long endPosition, Waiter waiter) {
        control.requestFlush(); // the sync thread flushes whatever data it finds
        control.awaitDurable(endPosition, waiter);
    }

    @Override
    public void requestSync(FlushControl control, long position) {
        control.requestFlushUpTo(position);
    }
}
