package dev.commitlog.metrics;

/**
 * One latency distribution of a {@link CommitLogMetrics} snapshot, in nanoseconds: everything
 * recorded since the log opened. Values are kept with two significant digits (1% resolution at
 * every magnitude); a value above one hour is counted as one hour.
 *
 * <p>For the distribution over an interval, take two snapshots and subtract:
 * {@code later.since(earlier)}. The full histogram is reachable in HdrHistogram's portable encoding
 * ({@link #encodedHistogram()}), which every HdrHistogram port decodes, so that tools can merge or
 * plot it without this library exposing a third-party type.
 */
public interface LatencySnapshot {
    /** Values recorded. */
    long count();

    /** The smallest value recorded, 0 if none. */
    long min();

    /** The mean of the values recorded, 0 if none. */
    double mean();

    /**
     * The value at {@code percentile} (0 to 100; 50 is the median): at least that percentage of
     * the values recorded are at or below it. 0 if none was recorded.
     *
     * @throws IllegalArgumentException if {@code percentile} is outside 0 to 100
     */
    long valueAtPercentile(double percentile);

    /** The largest value recorded, 0 if none. */
    long max();

    /**
     * The values recorded after {@code earlier} was taken, {@code earlier} being an older snapshot
     * of the same metric of the same log.
     *
     * @throws IllegalArgumentException if {@code earlier} is not an older snapshot of this metric
     */
    LatencySnapshot since(LatencySnapshot earlier);

    /** The distribution as an HdrHistogram in its compressed portable encoding (a new array). */
    byte[] encodedHistogram();
}
