package dev.commitlog.instrument;

import dev.commitlog.metrics.LatencySnapshot;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.Locale;
import org.HdrHistogram.Histogram;

/** A {@link LatencySnapshot} over an HdrHistogram copy that this object owns and never changes. */
final class HistogramSnapshot implements LatencySnapshot {
    private final Histogram histogram;

    HistogramSnapshot(Histogram histogram) {
        this.histogram = histogram;
    }

    @Override
    public long count() {
        return histogram.getTotalCount();
    }

    @Override
    public long min() {
        return count() == 0 ? 0 : histogram.getMinValue();
    }

    @Override
    public double mean() {
        return count() == 0 ? 0 : histogram.getMean();
    }

    @Override
    public long valueAtPercentile(double percentile) {
        if (!(percentile >= 0 && percentile <= 100)) {
            throw new IllegalArgumentException("percentile " + percentile + " is outside 0 to 100");
        }
        return histogram.getValueAtPercentile(percentile);
    }

    @Override
    public long max() {
        return count() == 0 ? 0 : histogram.getMaxValue();
    }

    @Override
    public LatencySnapshot since(LatencySnapshot earlier) {
        if (!(earlier instanceof HistogramSnapshot older)) {
            throw new IllegalArgumentException("not a snapshot of this log's metrics: " + earlier);
        }
        Histogram difference = histogram.copy();
        try {
            difference.subtract(older.histogram);
        } catch (IllegalArgumentException | ArrayIndexOutOfBoundsException e) {
            throw new IllegalArgumentException("the earlier snapshot holds values this one does not: it is not an older snapshot "
                    + "of the same metric", e);
        }
        return new HistogramSnapshot(difference);
    }

    @Override
    public byte[] encodedHistogram() {
        ByteBuffer buffer = ByteBuffer.allocate(histogram.getNeededByteBufferCapacity());
        int length = histogram.encodeIntoCompressedByteBuffer(buffer);
        return Arrays.copyOf(buffer.array(), length);
    }

    /** {@code count=N p50=... p99=... max=...}, in microseconds. */
    @Override
    public String toString() {
        return String.format(Locale.ROOT, "count=%d p50=%.1fus p99=%.1fus p99.9=%.1fus max=%.1fus", count(),
                valueAtPercentile(50) / 1e3, valueAtPercentile(99) / 1e3, valueAtPercentile(99.9) / 1e3, max() / 1e3);
    }
}
