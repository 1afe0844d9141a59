package dev.commitlog.sync;

import java.time.Duration;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;

/**
 * Group mode's schedule (Cassandra's GroupCommitLogService, CASSANDRA-13530): flush when there is
 * data, then wait on a semaphore for {@code commitlog_sync_group_window}, so that more concurrent
 * appends accumulate and share the next flush. Close and an explicit request for a flush
 * ({@code sync()}, {@code Ack.DURABLE}) release the semaphore early. A lone writer pays up to one
 * window per append: that is the mode's known cost.
 */
final class GroupWindow implements FlushSchedule {
    private final long windowNanos;
    private final Semaphore window = new Semaphore(0);

    GroupWindow(Duration window) {
        this.windowNanos = window.toNanos();
    }

    @Override
    public void awaitWork(SyncEngine engine) {
        engine.awaitData();
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
}
