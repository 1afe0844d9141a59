package dev.commitlog.instrument;

import dev.commitlog.metrics.LatencySnapshot;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.IntervalHistogramProvider;
import org.HdrHistogram.Recorder;
import org.HdrHistogram.SingleWriterRecorder;
import org.HdrHistogram.ValueRecorder;

/**
 * One latency metric, in nanoseconds: written into HdrHistogram recorders, read as a cumulative
 * histogram (everything recorded since the log opened).
 *
 * <p>Assumptions and guarantees: writers call {@code recordValue} on one of {@link #writer}'s
 * recorders: lock-free and allocation-free (HdrHistogram's {@code WriterReaderPhaser}: an atomic
 * increment on entry and exit, then the count, into arrays sized once here; values are clamped to
 * {@link #HIGHEST_NANOS} so nothing ever resizes). A {@link #singleWriter} metric must have one
 * writing thread at a time (a {@link SingleWriterRecorder}: plain count stores); a
 * {@link #striped} one any number, spread over stripes of {@link Recorder} so that threads
 * recording at once rarely share a counter. {@link #snapshot} may be called from any thread: it
 * folds each recorder's interval into the cumulative histogram under this object's monitor, which
 * writers never take.
 */
public final class LatencyHistogram {
    /** Values above this (one hour) are recorded as this: a wait that long is an outage, not a latency. */
    public static final long HIGHEST_NANOS = TimeUnit.HOURS.toNanos(1);
    /** Two significant digits: 1% resolution at every magnitude, about 35 KiB per histogram. */
    private static final int DIGITS = 2;

    private final ValueRecorder[] writers;
    private final List<IntervalHistogramProvider<Histogram>> readers;
    private final Histogram total = newHistogram();
    private final Histogram interval = newHistogram();

    private <R extends ValueRecorder & IntervalHistogramProvider<Histogram>> LatencyHistogram(List<R> recorders) {
        this.writers = recorders.toArray(new ValueRecorder[0]);
        this.readers = List.copyOf(recorders);
    }

    /** A metric that one thread at a time records (the sync thread's flush durations). */
    public static LatencyHistogram singleWriter() {
        return new LatencyHistogram(List.of(new SingleWriterRecorder(1, HIGHEST_NANOS, DIGITS)));
    }

    /** A metric that any thread records, over {@code stripes} recorders (rounded up to a power of two). */
    public static LatencyHistogram striped(int stripes) {
        int count = Integer.highestOneBit(Math.max(1, stripes) * 2 - 1);
        List<Recorder> recorders = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            recorders.add(new Recorder(1, HIGHEST_NANOS, DIGITS));
        }
        return new LatencyHistogram(recorders);
    }

    /** The recorder a writer with this index uses; a striped metric spreads indexes over its stripes. */
    ValueRecorder writer(int index) {
        return writers[index & (writers.length - 1)];
    }

    /** Records one value through the first recorder (for single-writer metrics and rare events). */
    public void record(long nanos) {
        writers[0].recordValue(clamp(nanos));
    }

    static long clamp(long nanos) {
        return Math.max(0, Math.min(nanos, HIGHEST_NANOS));
    }

    /** A copy of everything recorded so far. */
    public synchronized LatencySnapshot snapshot() {
        for (IntervalHistogramProvider<Histogram> reader : readers) {
            reader.getIntervalHistogramInto(interval);
            total.add(interval);
        }
        return new HistogramSnapshot(total.copy());
    }

    private static Histogram newHistogram() {
        return new Histogram(1, HIGHEST_NANOS, DIGITS);
    }
}
