package dev.commitlog.instrument;

import dev.commitlog.metrics.CommitLogMetrics;
import dev.commitlog.metrics.LatencySnapshot;
import java.util.Locale;
import java.util.concurrent.TimeUnit;

/**
 * The short report {@code CommitLog.stats()} prints for people, in the manner of RocksDB's
 * {@code rocksdb.stats}: what the log did since it opened, its rates, its latencies and where its
 * space is, a few aligned lines.
 */
public final class StatsReport {
    private static final double MIB = 1024.0 * 1024.0;

    private StatsReport() {
    }

    /**
     * @param title       names the log (its directory and sync mode)
     * @param uptimeNanos how long the log has been open
     * @param totalSpace  {@code commitlog_total_space} in bytes
     */
    public static String format(String title, CommitLogMetrics m, long uptimeNanos, long totalSpace) {
        double seconds = Math.max(uptimeNanos, 1) / 1e9;
        StringBuilder out = new StringBuilder();
        out.append(title).append(String.format(Locale.ROOT, ", open %.1f s%n", seconds));
        line(out, "appends", String.format(Locale.ROOT, "%,d completed (%,.0f/s), %,d appenders waiting now, %,d oversize refused, "
                + "%,d lag-blocked", m.completedAppends(), m.completedAppends() / seconds, m.appendersWaiting(), m.oversizeRejected(),
                m.lagBlocks()));
        line(out, "flushes", String.format(Locale.ROOT, "%,d (%,.0f/s), %,d records, %.1f records/flush, %s flushed, %.1f%% of the "
                        + "time flushing", m.flushes(), m.flushes() / seconds, m.recordsFlushed(), m.recordsPerFlush(),
                bytes(m.bytesFlushed()), 100.0 * m.flushNanosTotal() / Math.max(uptimeNanos, 1)));
        line(out, "append", latency(m.appendLatency()));
        line(out, "commit wait", latency(m.waitingOnCommit()));
        line(out, "flush", latency(m.waitingOnFlush()));
        line(out, "segment wait", latency(m.waitingOnSegmentAllocation()));
        line(out, "segments", String.format(Locale.ROOT, "%,d created, %,d recycled, %,d archived (%,d archive failures), %s on disk "
                        + "of %s commitlog_total_space, %,d space requests", m.segmentsCreated(), m.segmentsRecycled(), m.segmentsArchived(),
                m.archiveFailures(), bytes(m.totalSize()), bytes(totalSpace), m.spaceRequests()));
        line(out, "durable", String.format(Locale.ROOT, "up to log position %,d", m.durablePosition()));
        return out.toString();
    }

    private static void line(StringBuilder out, String label, String text) {
        out.append(String.format(Locale.ROOT, "  %-15s%s%n", label + ":", text));
    }

    private static String latency(LatencySnapshot s) {
        if (s.count() == 0) {
            return "none recorded";
        }
        return String.format(Locale.ROOT, "p50 %s  p99 %s  p99.9 %s  max %s  (%,d recorded)", duration(s.valueAtPercentile(50)),
                duration(s.valueAtPercentile(99)), duration(s.valueAtPercentile(99.9)), duration(s.max()), s.count());
    }

    /** Nanoseconds in the unit that keeps them readable. */
    static String duration(long nanos) {
        if (nanos < TimeUnit.MICROSECONDS.toNanos(1)) {
            return nanos + " ns";
        }
        if (nanos < TimeUnit.MILLISECONDS.toNanos(1)) {
            return String.format(Locale.ROOT, "%.1f us", nanos / 1e3);
        }
        if (nanos < TimeUnit.SECONDS.toNanos(1)) {
            return String.format(Locale.ROOT, "%.2f ms", nanos / 1e6);
        }
        return String.format(Locale.ROOT, "%.2f s", nanos / 1e9);
    }

    /** Bytes in KiB, MiB or GiB, whichever keeps the figure readable, one decimal. */
    static String bytes(long bytes) {
        if (bytes < 1024 * 1024) {
            return String.format(Locale.ROOT, "%.1f KiB", bytes / 1024.0);
        }
        double mib = bytes / MIB;
        return mib >= 1024 ? String.format(Locale.ROOT, "%.1f GiB", mib / 1024) : String.format(Locale.ROOT, "%.1f MiB", mib);
    }
}
