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
 * A flush while the device may be full. A flush whose write step found no space
 * ({@link NoSpaceLeftException}: nothing was synced, the bytes are still in the writer's memory) is
 * retried after a back-off that doubles from {@link #FIRST_DELAY_NANOS} to {@link #MAX_DELAY_NANOS};
 * meanwhile the durable position stands still (later flushes are published only after this one),
 * so nothing new is acknowledged and waiting appenders keep waiting. One error is logged when the
 * disk fills, one every {@link #LOG_INTERVAL_NANOS} while it stays full, and one line when
 * flushing resumes.
 *
 * <p>Called by the holder of the flush role (the sync thread, or an appender flushing inline,
 * which then waits out the full disk itself: it was waiting for its record anyway). Any other
 * flush failure, a failed sync above all, is thrown at once and stays fatal (see
 * {@link NoSpaceLeftException}); so is a full disk while the log is closing.
 */
final class DiskFullRetry {
    private static final Logger LOG = LoggerFactory.getLogger(SyncEngine.class);
    static final long FIRST_DELAY_NANOS = TimeUnit.MILLISECONDS.toNanos(1);
    static final long MAX_DELAY_NANOS = TimeUnit.MILLISECONDS.toNanos(500);
    static final long LOG_INTERVAL_NANOS = TimeUnit.SECONDS.toNanos(10);
    private static final long NOT_FULL = Long.MIN_VALUE;

    private final BooleanSupplier running;
    /** When the disk was found full, or NOT_FULL; the role holder's (the role orders holders). */
    private long fullSinceNanos = NOT_FULL;
    private long lastLoggedNanos;
    private long retries;

    DiskFullRetry(BooleanSupplier running) {
        this.running = running;
    }

    /** {@link SegmentSyncer#writeClaimed}, retried while the disk is full. Role holder. */
    void writeClaimed(SegmentSyncer syncer) throws IOException {
        long delayNanos = FIRST_DELAY_NANOS;
        for (;;) {
            try {
                syncer.writeClaimed();
                if (fullSinceNanos != NOT_FULL) {
                    resumed();
                }
                return;
            } catch (NoSpaceLeftException e) {
                noteFull(e, syncer.durablePosition());
                if (!running.getAsBoolean()) {
                    throw e;
                }
                LockSupport.parkNanos(this, delayNanos); // close() unparks the sync thread; appenders wake within the delay
                delayNanos = Math.min(MAX_DELAY_NANOS, delayNanos * 2);
                if (!running.getAsBoolean()) {
                    throw e;
                }
            }
        }
    }

    private void resumed() {
        if (fullSinceNanos != NOT_FULL) {
            LOG.warn("commit log flushing resumed: space was freed after {} ms ({} retries)",
                    TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - fullSinceNanos), retries);
            fullSinceNanos = NOT_FULL;
        }
    }

    private void noteFull(NoSpaceLeftException e, long durablePosition) {
        long now = System.nanoTime();
        if (fullSinceNanos == NOT_FULL) {
            fullSinceNanos = now;
            lastLoggedNanos = now;
            retries = 0;
            LOG.error("commit log flush cannot write: {}. Nothing at or after log position {} is acknowledged until space is "
                    + "freed; appends wait, and the write is retried (every {} ms at most)", e.getMessage(), durablePosition,
                    TimeUnit.NANOSECONDS.toMillis(MAX_DELAY_NANOS));
        } else {
            retries++;
            if (now - lastLoggedNanos >= LOG_INTERVAL_NANOS) {
                lastLoggedNanos = now;
                LOG.error("commit log disk still full after {} s ({} retries): {}; nothing at or after log position {} is acknowledged",
                        TimeUnit.NANOSECONDS.toSeconds(now - fullSinceNanos), retries, e.getMessage(), durablePosition);
            }
        }
    }
}
