package dev.commitlog.sync;

import dev.commitlog.instrument.MetricsRecorder;
import dev.commitlog.segment.SegmentSyncer;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.time.Duration;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Periodic mode: an append returns as soon as its record is in the segment; every
 * {@code commitlog_sync_period} the sync thread runs a flush pass
 * ({@link FlushControl#flushPass}) that makes everything appended before the pass began
 * durable, across as many segments as that takes. Passes start a period apart, and at once when a
 * pass took longer than a period or an appender blocked.
 *
 * <p>The lag is the age of the oldest acknowledged append that is not durable yet. Once it exceeds
 * {@code periodic_commitlog_sync_lag_block} (B), appends block until a flush covers their record,
 * and a warning (at most one every {@link #WARN_INTERVAL_NANOS}) says how far behind syncing is.
 * So an append is acknowledged only while every acknowledged record not yet durable was
 * acknowledged at most B before it: what a crash loses was all acknowledged within B of the oldest
 * record it loses, at any append rate. A crash loses nothing acknowledged before the last completed
 * pass began; so with sync period P, while each pass takes less than P and less than B - P, a crash
 * loses nothing acknowledged more than P plus one pass (less than B) before it.
 *
 * <p>How appenders know the lag without a lock or an allocation: {@link #oldestUnsyncedNanos} holds
 * a time no later than the acknowledgment of any acknowledged record not yet durable, or
 * {@link #NONE} when there is none. An appender reads it (one volatile load, beside the clock it
 * already reads); if it is unset, the appender sets it to its own time with one compare-and-swap,
 * which happens once per pass, not once per append. The sync thread
 * moves it forward only after a pass that reached its target ({@link #passCovered}): to the pass's
 * start if anything was appended past the new durable position (everything there was claimed after
 * the pass read its target, so acknowledged after the pass began), otherwise to unset. Over-stating
 * the age (the pass's start instead of the first append after it) only blocks earlier. The
 * alternatives cost more or promise less: a time kept per record for the pass to find costs a
 * store per append and a search per pass; a clock restarted whenever a flush completes is
 * restarted by flushes that cover a small part of the backlog, so the lag it measures stays small
 * while the backlog grows.
 *
 * <p>Assumptions and guarantees: {@link #afterAppend} is called by any appender, after its frame's
 * claim (an atomic add, a full fence) and publication; {@link #awaitWork}, {@link #flush} and
 * {@link #passCovered} run on the sync thread only, {@code passCovered} while it holds the flush
 * role. The one store that can clear the clock is a compare-and-swap (a full fence) followed by a
 * re-read of the claimed position, and an appender claims before it reads the clock, so either the
 * appender sees the clock cleared and sets its own time, or the sync thread sees its frame and sets
 * the clock back to the pass's start (Dekker's handshake). Within that handshake, and between two
 * appenders racing to set an unset clock, the clock may be later than an acknowledgment by the
 * time between two clock reads a few instructions apart.
 */
final class PeriodicPolicy implements SyncPolicy {
    private static final Logger LOG = LoggerFactory.getLogger(PeriodicPolicy.class);
    private static final long WARN_INTERVAL_NANOS = TimeUnit.SECONDS.toNanos(5);
    /** The lag clock is unset: no acknowledged append is known to be waiting for a flush. */
    private static final long NONE = Long.MIN_VALUE;
    private static final VarHandle OLDEST_UNSYNCED;

    static {
        try {
            OLDEST_UNSYNCED = MethodHandles.lookup().findVarHandle(PeriodicPolicy.class, "oldestUnsyncedNanos", long.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final long periodNanos;
    private final long lagBlockNanos;
    private final MetricsRecorder metrics;
    /** Every time this policy reads: System.nanoTime in a log; a test sets when passes fall due and how old an append is. */
    private final LongSupplier clock;
    /** The lag clock (read from {@link #clock}), or NONE; see the class comment. */
    private volatile long oldestUnsyncedNanos = NONE;
    /** When the next pass is due. Sync thread only. */
    private long nextPassNanos;
    private final AtomicLong lastWarnedNanos;
    /** Made once, so that a pass allocates nothing. */
    private final FlushControl.PassCovered onCovered = this::passCovered;

    PeriodicPolicy(Duration period, Duration lagBlock, MetricsRecorder metrics, LongSupplier clock) {
        this.periodNanos = period.toNanos();
        this.lagBlockNanos = lagBlock.toNanos();
        this.metrics = metrics;
        this.clock = clock;
        long now = clock.getAsLong();
        this.nextPassNanos = now + periodNanos;
        this.lastWarnedNanos = new AtomicLong(now - WARN_INTERVAL_NANOS);
    }

    @Override
    public void awaitWork(FlushControl control) {
        // A blocked appender's request cuts it short.
        control.parkUntil(FlushControl.Wake.REQUEST, nextPassNanos);
    }

    /** A pass; the next is due a period after this one began (at once if this one takes longer). */
    @Override
    public FlushAttempt flush(FlushControl control) {
        long started = clock.getAsLong();
        FlushAttempt attempt = control.flushPass(started, onCovered);
        if (attempt != FlushAttempt.BUSY) {
            nextPassNanos = started + periodNanos;
        } // else an inline flush held the role: pass again once it is released
        return attempt;
    }

    @Override
    public void afterFlush() {
        // the next pass is timed by awaitWork
    }

    @Override
    public void wake() {
        // nothing waits in afterFlush
    }

    @Override
    public long beforeFlush(SegmentSyncer held) {
        return 0;
    }

    @Override
    public void published(SegmentSyncer held) {
        // the lag clock moves once a whole pass is covered, not per flush
    }

    /** Moves the lag clock forward once a pass reached its target (see the class comment). Role holder. */
    private void passCovered(long startedNanos, SegmentSyncer syncer) {
        long covered = oldestUnsyncedNanos;
        long durable = syncer.durablePosition();
        if (syncer.appendedPosition() > durable) {
            // Claimed after the pass read its target: acknowledged after it began.
            if (!OLDEST_UNSYNCED.compareAndSet(this, covered, startedNanos)) {
                lowerTo(startedNanos); // the clock was unset and an appender has just set it
            }
        } else if (OLDEST_UNSYNCED.compareAndSet(this, covered, NONE) && syncer.appendedPosition() > durable) {
            // A frame claimed between the two reads: its appender may have read the old clock and set none.
            lowerTo(startedNanos);
        }
    }

    /** Sets the lag clock to {@code nanos} unless it already holds an earlier time. */
    private void lowerTo(long nanos) {
        for (;;) {
            long current = oldestUnsyncedNanos;
            if ((current != NONE && current - nanos <= 0) || OLDEST_UNSYNCED.compareAndSet(this, current, nanos)) {
                return;
            }
        }
    }

    @Override
    public void afterAppend(FlushControl control, long endPosition, Waiter waiter) {
        long now = clock.getAsLong();
        long oldest = oldestUnsyncedNanos; // volatile load, after our frame's claim (a full fence)
        if (oldest == NONE) {
            if (OLDEST_UNSYNCED.compareAndSet(this, NONE, now)) {
                return; // the first append since a pass covered everything: the lag clock starts here
            }
            oldest = oldestUnsyncedNanos; // another append, or the sync thread, set it first
        }
        if (oldest == NONE || now - oldest <= lagBlockNanos) {
            return;
        }
        metrics.lagBlocked();
        warnLagging(now - oldest, endPosition - control.durablePosition());
        control.requestFlushUpTo(endPosition); // the next pass starts as soon as the sync thread is free
        control.awaitDurable(endPosition, waiter);
    }

    /** Periodic flushes on its timer; appends that do not wait ride on the next pass. */
    @Override
    public void requestSync(FlushControl control, long position) {
    }

    private void warnLagging(long lagNanos, long behindBytes) {
        long now = clock.getAsLong();
        long last = lastWarnedNanos.get();
        if (now - last >= WARN_INTERVAL_NANOS && lastWarnedNanos.compareAndSet(last, now)) {
            LOG.warn("commit log sync is lagging: the oldest append not yet durable is up to {} ms old ({} appended past the "
                            + "durable position), past periodic_commitlog_sync_lag_block of {} ms (commitlog_sync_period {} ms); "
                            + "appends block until a flush covers them",
                    TimeUnit.NANOSECONDS.toMillis(lagNanos), size(behindBytes), TimeUnit.NANOSECONDS.toMillis(lagBlockNanos),
                    TimeUnit.NANOSECONDS.toMillis(periodNanos));
        }
    }

    private static String size(long bytes) {
        return bytes < (1 << 20) ? (bytes >> 10) + " KiB" : String.format(Locale.ROOT, "%.1f MiB", bytes / (1024.0 * 1024.0));
    }
}
