package dev.commitlog.metrics;

import javax.management.ConstructorParameters;

/**
 * The figures of one latency histogram that a JMX console shows (the attributes of a Cassandra
 * timer), in microseconds. A plain class with getters, not a record, so that the MXBean machinery
 * maps it to {@code CompositeData}.
 */
public final class LatencySummary {
    private static final double NANOS_PER_MICRO = 1_000.0;

    private final long count;
    private final double min;
    private final double mean;
    private final double p50;
    private final double p95;
    private final double p99;
    private final double p999;
    private final double max;

    @ConstructorParameters({"count", "min", "mean", "50thPercentile", "95thPercentile", "99thPercentile", "999thPercentile", "max"})
    public LatencySummary(long count, double min, double mean, double p50, double p95, double p99, double p999, double max) {
        this.count = count;
        this.min = min;
        this.mean = mean;
        this.p50 = p50;
        this.p95 = p95;
        this.p99 = p99;
        this.p999 = p999;
        this.max = max;
    }

    /** Summarises a latency snapshot in nanoseconds (all zeros when it is empty). */
    public static LatencySummary of(LatencySnapshot nanos) {
        if (nanos.count() == 0) {
            return new LatencySummary(0, 0, 0, 0, 0, 0, 0, 0);
        }
        return new LatencySummary(nanos.count(), micros(nanos.min()), nanos.mean() / NANOS_PER_MICRO,
                micros(nanos.valueAtPercentile(50)), micros(nanos.valueAtPercentile(95)),
                micros(nanos.valueAtPercentile(99)), micros(nanos.valueAtPercentile(99.9)), micros(nanos.max()));
    }

    private static double micros(long nanos) {
        return nanos / NANOS_PER_MICRO;
    }

    public long getCount() {
        return count;
    }

    public double getMin() {
        return min;
    }

    public double getMean() {
        return mean;
    }

    public double get50thPercentile() {
        return p50;
    }

    public double get95thPercentile() {
        return p95;
    }

    public double get99thPercentile() {
        return p99;
    }

    public double get999thPercentile() {
        return p999;
    }

    public double getMax() {
        return max;
    }

    /** Always "microseconds", as Cassandra's timers report. */
    public String getDurationUnit() {
        return "microseconds";
    }

    @Override
    public String toString() {
        return String.format("count=%d mean=%.1fus p50=%.1fus p99=%.1fus p99.9=%.1fus max=%.1fus", count, mean, p50, p99, p999, max);
    }
}
