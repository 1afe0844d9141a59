package dev.commitlog.bench.sweep;

import dev.commitlog.bench.device.DeviceWrites;
import dev.commitlog.bench.sut.FlushCounters;
import java.util.concurrent.TimeUnit;
import org.HdrHistogram.Histogram;

/**
 * Per-thread latency histograms and the cell result made from them. Each thread (or, in an
 * asynchronous cell, each submitter's callback) records into its own histogram, so recording
 * takes no lock; the histograms are merged once, after the cell. The {@code pair} command
 * records its slices' latencies the same way.
 */
public final class CellResults {
    /** Latencies above a minute are clamped: a cell that stalls that long is broken anyway. */
    public static final long MAX_TRACKED_NANOS = TimeUnit.MINUTES.toNanos(1);

    private CellResults() {
    }

    /** Allocated before the clock starts. */
    public static Histogram newHistogram() {
        return new Histogram(MAX_TRACKED_NANOS, 3);
    }

    /**
     * The result of a measured window: every recorded latency is one append completed in the
     * window, so the merged count over the window's length is the throughput, and the count times
     * {@code recordBytes} (or {@code frameBytes}, 0 for a system whose framing is not this
     * library's) is what the device bytes are divided by, and the count alone what the window's
     * CPU time is.
     */
    static CellResult summarise(String system, String mode, int threads, Histogram[] histograms,
                                MeasuredWindow window, int recordBytes, int frameBytes) {
        double seconds = window.seconds();
        FlushCounters before = window.before();
        FlushCounters after = window.after();
        Histogram all = newHistogram();
        for (Histogram h : histograms) {
            all.add(h);
        }
        long appends = all.getTotalCount();
        double ops = appends / seconds;
        double flushesPerSec = Double.NaN;
        double recordsPerFlush = Double.NaN;
        if (before.known() && after.known()) {
            long flushes = after.flushes() - before.flushes();
            flushesPerSec = flushes / seconds;
            if (flushes > 0) {
                recordsPerFlush = (after.records() - before.records()) / (double) flushes;
            }
        }
        return new CellResult(system, mode, threads, ops, micros(all, 50), micros(all, 99), micros(all, 99.9),
                flushesPerSec, recordsPerFlush, ops * recordBytes,
                DeviceWrites.perByte(window.deviceBytes(), (double) appends * recordBytes),
                DeviceWrites.perByte(window.deviceBytes(), (double) appends * frameBytes),
                ProcessCpu.microsPerRecord(window.cpuNanos(), appends));
    }

    /** The value at {@code percentile} in microseconds; NaN for an empty histogram. */
    public static double micros(Histogram h, double percentile) {
        return h.getTotalCount() == 0 ? Double.NaN : h.getValueAtPercentile(percentile) / 1000.0;
    }
}
