package dev.commitlog.replay;

import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;
import org.slf4j.Logger;

/**
 * Tells an operator how far a long walk over the log (replay, or recovery on open) has got:
 * percent of the bytes to read and records per second, through SLF4J at INFO, at most once per
 * interval, and a summary line when the caller says the walk is done. A walk shorter than the
 * interval logs only the summary.
 *
 * <p>Cost on the walk: an increment and a mask per record; the clock is read once every
 * {@value #CLOCK_EVERY} records, so replay at millions of records per second pays nothing
 * measurable. Not thread-safe: it belongs to the one thread that walks.
 */
final class ReplayProgress {
    static final long DEFAULT_INTERVAL_NANOS = TimeUnit.SECONDS.toNanos(5);
    /** A power of two: records between clock reads. */
    static final int CLOCK_EVERY = 256;
    private static final double MIB = 1024.0 * 1024.0;

    private final Logger logger;
    private final String what;
    private final LongSupplier nanoClock;
    private final long intervalNanos;
    private boolean started;
    private long fromPosition;
    private long toPosition;
    private long startNanos;
    private long lastReportNanos;
    private long records;

    /**
     * @param what          names the walk in each line, e.g. "commit log replay of /var/lib/node/commitlog"
     * @param nanoClock     {@link System#nanoTime()} outside tests
     * @param intervalNanos least time between two progress lines
     */
    ReplayProgress(Logger logger, String what, LongSupplier nanoClock, long intervalNanos) {
        this.logger = logger;
        this.what = what;
        this.nanoClock = nanoClock;
        this.intervalNanos = intervalNanos;
    }

    static ReplayProgress logging(Logger logger, String what) {
        return new ReplayProgress(logger, what, System::nanoTime, DEFAULT_INTERVAL_NANOS);
    }

    boolean started() {
        return started;
    }

    /** The walk covers log positions {@code [fromPosition, toPosition)}; the clock starts now. */
    void start(long fromPosition, long toPosition) {
        this.started = true;
        this.fromPosition = fromPosition;
        this.toPosition = Math.max(fromPosition, toPosition);
        this.startNanos = nanoClock.getAsLong();
        this.lastReportNanos = startNanos;
    }

    /** Called for each verified record, at its position. */
    void onRecord(long position) {
        if ((++records & (CLOCK_EVERY - 1)) == 0) {
            long now = nanoClock.getAsLong();
            if (now - lastReportNanos >= intervalNanos) {
                lastReportNanos = now;
                report(position, now);
            }
        }
    }

    private void report(long position, long now) {
        if (!logger.isInfoEnabled()) {
            return;
        }
        long span = toPosition - fromPosition;
        long done = Math.min(Math.max(position - fromPosition, 0), span);
        double percent = span == 0 ? 100.0 : 100.0 * done / span;
        logger.info("{}: {}% ({} of {} MiB), {} records, {} records/s", what, format("%.1f", percent), format("%.1f", done / MIB),
                format("%.1f", span / MIB), records, perSecond(records, now - startNanos));
    }

    /** Logs the summary: the walk ended at {@code endPosition}. Says nothing if the walk met no segment. */
    void finish(long endPosition) {
        finish(endPosition, records, 0);
    }

    /**
     * Logs the summary of a replay that handed {@code delivered} records to its handler: the
     * records it verified below {@code from} (in the segment that holds it) were read past, not
     * handed over, and the line says so.
     */
    void finishReplay(long endPosition, long delivered, long from) {
        finish(endPosition, delivered, from);
    }

    private void finish(long endPosition, long delivered, long from) {
        if (!started || !logger.isInfoEnabled()) {
            return;
        }
        long elapsed = nanoClock.getAsLong() - startNanos;
        long bytes = Math.min(Math.max(endPosition - fromPosition, 0), toPosition - fromPosition);
        String count = delivered == records ? records + " records"
                : delivered + " records replayed, " + (records - delivered) + " records before position " + from + " read past";
        logger.info("{}: done, {} ({} MiB) in {} ms, {} records/s, {} MiB/s", what, count, format("%.1f", bytes / MIB),
                TimeUnit.NANOSECONDS.toMillis(elapsed), perSecond(records, elapsed), format("%.1f", perSecond(bytes, elapsed) / MIB));
    }

    private static long perSecond(long count, long nanos) {
        return nanos <= 0 ? 0 : (long) (count * 1e9 / nanos);
    }

    private static String format(String pattern, double value) {
        return String.format(Locale.ROOT, pattern, value);
    }
}
