package dev.commitlog.bench.sweep;

import java.lang.management.ManagementFactory;
import java.lang.management.OperatingSystemMXBean;

/**
 * The process's CPU time, user plus system, over all its threads: the writers, the system's own
 * threads (a commit log's sync and flushing threads, RocksDB's), the collector and the compiler.
 * A window's CPU per record is what the system under test cost the machine per record while it
 * was the only one appending; the harness runs one cell (or one slice of a duel) at a time, so the
 * window's CPU belongs to it, idle neighbours' threads included.
 *
 * <p>Read through {@code com.sun.management.OperatingSystemMXBean#getProcessCpuTime}; on Linux
 * HotSpot counts it in clock ticks ({@code times(2)}, 10 ms), so a window shorter than a few
 * hundred milliseconds carries that step.
 */
public final class ProcessCpu {
    /** A reading or an interval that is not known (no such bean, or the JVM does not count). */
    public static final long UNKNOWN = -1;

    private static final com.sun.management.OperatingSystemMXBean BEAN = bean();

    private ProcessCpu() {
    }

    private static com.sun.management.OperatingSystemMXBean bean() {
        OperatingSystemMXBean os = ManagementFactory.getOperatingSystemMXBean();
        return os instanceof com.sun.management.OperatingSystemMXBean hotspot ? hotspot : null;
    }

    /** The process's CPU time so far, nanoseconds, or {@link #UNKNOWN}. */
    public static long nanos() {
        if (BEAN == null) {
            return UNKNOWN;
        }
        long nanos = BEAN.getProcessCpuTime();
        return nanos < 0 ? UNKNOWN : nanos;
    }

    /** CPU nanoseconds between two readings, or {@link #UNKNOWN} when either is (or time ran backwards). */
    public static long between(long before, long after) {
        return before < 0 || after < before ? UNKNOWN : after - before;
    }

    /** {@code cpuNanos} over {@code records}, in microseconds per record; NaN when unknown or no record. */
    public static double microsPerRecord(long cpuNanos, long records) {
        return cpuNanos < 0 || records <= 0 ? Double.NaN : cpuNanos / 1e3 / records;
    }
}
