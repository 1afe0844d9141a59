package dev.commitlog.sync;

import dev.commitlog.instrument.MetricsRecorder;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Periodic mode, both strategies in one object since both read when the last flush completed: an
 * append returns as soon as its record is in the segment; the sync thread flushes every
 * {@code commitlog_sync_period}. A crash loses at most what was appended after the last completed
 * flush. If flushing falls behind, so that the last flush completed more than
 * {@code periodic_commitlog_sync_lag_block} ago, appenders block until a flush covers their record,
 * and a warning (at most one every {@link #WARN_INTERVAL_NANOS}) says how far behind it is.
 */
final class PeriodicSync implements FlushSchedule, AppendWait {
    private static final Logger LOG = LoggerFactory.getLogger(PeriodicSync.class);
    private static final long WARN_INTERVAL_NANOS = TimeUnit.SECONDS.toNanos(5);

    private final long periodNanos;
    private final long lagBlockNanos;
    private final MetricsRecorder metrics;
    /** When the last flush pass completed (System.nanoTime); appenders compare it with now. */
    private volatile long lastFlushedNanos = System.nanoTime();
    private final AtomicLong lastWarnedNanos = new AtomicLong(System.nanoTime() - WARN_INTERVAL_NANOS);

    PeriodicSync(Duration period, Duration lagBlock, MetricsRecorder metrics) {
        this.periodNanos = period.toNanos();
        this.lagBlockNanos = lagBlock.toNanos();
        this.metrics = metrics;
    }

    @Override
    public void awaitWork(SyncEngine engine) {
        long sinceLast = System.nanoTime() - lastFlushedNanos;
        engine.awaitRequest(periodNanos - sinceLast);
    }

    @Override
    public void flushed(long nanoTime) {
        lastFlushedNanos = nanoTime;
    }

    @Override
    public void afterAppend(SyncEngine engine, long endPosition, Waiter waiter) {
        long lag = System.nanoTime() - lastFlushedNanos;
        if (lag <= lagBlockNanos) {
            return;
        }
        metrics.lagBlocked();
        warnLagging(lag);
        engine.requestFlush();
        engine.awaitDurable(endPosition, waiter);
    }

    /** Periodic flushes on its timer; appends that do not wait ride on the next periodic flush. */
    @Override
    public void requestSync(SyncEngine engine, long position) {
    }

    private void warnLagging(long lagNanos) {
        long now = System.nanoTime();
        long last = lastWarnedNanos.get();
        if (now - last >= WARN_INTERVAL_NANOS && lastWarnedNanos.compareAndSet(last, now)) {
            LOG.warn("commit log sync is lagging: the last flush completed {} ms ago, past periodic_commitlog_sync_lag_block "
                            + "of {} ms (commitlog_sync_period {} ms); appends block until a flush covers them",
                    TimeUnit.NANOSECONDS.toMillis(lagNanos), TimeUnit.NANOSECONDS.toMillis(lagBlockNanos),
                    TimeUnit.NANOSECONDS.toMillis(periodNanos));
        }
    }
}
