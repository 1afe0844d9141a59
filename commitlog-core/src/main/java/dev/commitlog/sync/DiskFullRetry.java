package dev.commitlog.sync;

import dev.commitlog.io.NoSpaceLeftException;
import dev.commitlog.segment.SegmentSyncer;
import java.io.IOException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The sync thread's flush while the device may be full. A flush whose write step found no space
 * ({@link NoSpaceLeftException}: nothing was synced, the bytes are still in the mapping) is
 * retried after a back-off that doubles from {@link #FIRST_DELAY_NANOS} to {@link #MAX_DELAY_NANOS};
 * meanwhile the durable position stands still, so nothing new is acknowledged and waiting
 * appenders keep waiting. One error is logged when the disk fills, one every
 * {@link #LOG_INTERVAL_NANOS} while it stays full, and one line when flushing resumes.
 *
 * <p>Flush-role holder only: the sync thread, or an appender flushing inline, which then waits out
 * the full disk itself (it was waiting for its record anyway). Any other flush failure, a failed sync above all, is thrown at once and
 * stays fatal (see {@link NoSpaceLeftException}); so is a full disk while the log is closing.
 */
final class DiskFullRetry {
    private static final Logger LOG = LoggerFactory.getLogger(SyncService.class);
    static final long FIRST_DELAY_NANOS = TimeUnit.MILLISECONDS.toNanos(1);
    static final long MAX_DELAY_NANOS = TimeUnit.MILLISECONDS.toNanos(500);
    static final long LOG_INTERVAL_NANOS = TimeUnit.SECONDS.toNanos(10);
    private static final long NOT_FULL = Long.MIN_VALUE;

    private final SegmentSyncer syncer;
    private final DurabilityWaiters waiters;
    private final BooleanSupplier running;
    private long fullSinceNanos = NOT_FULL;
    private long delayNanos;
    private long lastLoggedNanos;
    private long retries;

    DiskFullRetry(SegmentSyncer syncer, DurabilityWaiters waiters, BooleanSupplier running) {
        this.syncer = syncer;
        this.waiters = waiters;
        this.running = running;
    }

    /** {@link SegmentSyncer#flushOnce()}, retried while the disk is full; returns whether the durable position moved. */
    boolean flushOnce() throws IOException {
        for (;;) {
            try {
                boolean moved = syncer.flushOnce();
                if (fullSinceNanos != NOT_FULL) {
                    LOG.warn("commit log flushing resumed: space was freed after {} ms ({} retries)",
                            TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - fullSinceNanos), retries);
                    fullSinceNanos = NOT_FULL;
                }
                return moved;
            } catch (NoSpaceLeftException e) {
                // Flushes before the failed one in this pass may have completed: wake their waiters.
                waiters.wakeCovered(syncer.durablePosition());
                if (!backOff(e)) {
                    throw e;
                }
            }
        }
    }

    /** Waits before the next attempt; false (at once or after the wait) if the log is closing. */
    private boolean backOff(NoSpaceLeftException e) {
        long now = System.nanoTime();
        if (fullSinceNanos == NOT_FULL) {
            fullSinceNanos = now;
            lastLoggedNanos = now;
            delayNanos = FIRST_DELAY_NANOS;
            retries = 0;
            LOG.error("commit log flush cannot write: {}. Nothing at or after log position {} is acknowledged until space is "
                    + "freed; appends wait, and the write is retried (every {} ms at most)", e.getMessage(), syncer.durablePosition(),
                    TimeUnit.NANOSECONDS.toMillis(MAX_DELAY_NANOS));
        } else if (now - lastLoggedNanos >= LOG_INTERVAL_NANOS) {
            lastLoggedNanos = now;
            LOG.error("commit log disk still full after {} s ({} retries): {}; nothing at or after log position {} is acknowledged",
                    TimeUnit.NANOSECONDS.toSeconds(now - fullSinceNanos), retries, e.getMessage(), syncer.durablePosition());
        }
        if (!running.getAsBoolean()) {
            return false;
        }
        retries++;
        LockSupport.parkNanos(this, delayNanos); // close() unparks the sync thread
        delayNanos = Math.min(MAX_DELAY_NANOS, delayNanos * 2);
        return running.getAsBoolean();
    }
}
