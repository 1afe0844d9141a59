package dev.commitlog.bench.sweep;

import dev.commitlog.bench.sut.Appender;
import dev.commitlog.bench.sut.Contender;
import dev.commitlog.bench.sut.FlushCounters;
import dev.commitlog.bench.sut.SystemUnderTest;
import java.io.IOException;
import java.nio.file.Path;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.HdrHistogram.Histogram;

/**
 * Runs one cell: {@code threads} closed-loop writers against a fresh instance of one contender.
 * Each writer appends one record, waits for the append to return, and appends the next.
 *
 * <p>Assumptions and guarantees: each writer records into its own {@link Histogram}, so the hot
 * path takes no lock and shares no written cache line; the only shared state it reads is the
 * volatile {@code phase}. Latencies are taken between consecutive returns of {@code append}
 * (one clock read per append), and counted only for appends that start inside the measured
 * window, so the count over the window's length is the throughput.
 */
final class Cell {
    private static final int WARMUP = 0;
    private static final int MEASURE = 1;
    private static final int STOP = 2;
    /** Latencies above a minute are clamped: a closed loop that stalls that long is broken anyway. */
    private static final long MAX_TRACKED_NANOS = TimeUnit.MINUTES.toNanos(1);
    /** How long writers get to return from their last append after the window closes. */
    private static final long STOP_TIMEOUT_MILLIS = 60_000;

    private final Contender contender;
    private final int threads;
    private final CellTiming timing;
    private final byte[] record;

    private volatile int phase = WARMUP;

    Cell(Contender contender, int threads, CellTiming timing, byte[] record) {
        this.contender = contender;
        this.threads = threads;
        this.timing = timing;
        this.record = record;
    }

    CellResult run(Path directory) throws IOException, InterruptedException {
        Histogram[] histograms = new Histogram[threads];
        for (int i = 0; i < threads; i++) {
            histograms[i] = new Histogram(MAX_TRACKED_NANOS, 3);   // allocated before the clock starts
        }
        AtomicReference<Throwable> failure = new AtomicReference<>();
        CountDownLatch ready = new CountDownLatch(threads);
        // Every appender exists before any thread appends: creating one can need a lock that busy
        // appenders would starve (Chronicle Queue's write lock, with 128 threads on 2 cores).
        CountDownLatch start = new CountDownLatch(1);
        Thread[] writers = new Thread[threads];

        try (SystemUnderTest sut = contender.open(directory, record.length)) {
            try {
                for (int i = 0; i < threads; i++) {
                    int index = i;
                    writers[i] = new Thread(() -> write(sut, index, histograms[index], ready, start, failure),
                            "bench-writer-" + i);
                    writers[i].setDaemon(true);
                    writers[i].start();
                }
                ready.await();
                start.countDown();
                sleep(timing.warmup().toNanos());

                FlushCounters before = sut.flushCounters();
                long measureStart = System.nanoTime();
                phase = MEASURE;
                sleep(timing.measure().toNanos());
                phase = STOP;
                long measureEnd = System.nanoTime();
                FlushCounters after = sut.flushCounters();

                joinAll(writers);
                rethrow(failure.get());
                return summarise(histograms, before, after, (measureEnd - measureStart) / 1e9);
            } finally {
                phase = STOP;   // on any failure, release writers before the system is closed
                start.countDown();
            }
        }
    }

    private void write(SystemUnderTest sut, int index, Histogram histogram, CountDownLatch ready,
                       CountDownLatch start, AtomicReference<Throwable> failure) {
        Appender appender;
        try {
            appender = sut.newAppender(index);
        } catch (Throwable t) {
            failure.compareAndSet(null, t);
            phase = STOP;
            ready.countDown();
            return;
        }
        ready.countDown();
        try (appender) {
            start.await();
            long previous = System.nanoTime();
            int now;
            while ((now = phase) != STOP) {   // volatile read: the only shared state on the hot path
                appender.append(record);
                long returned = System.nanoTime();
                if (now == MEASURE) {
                    histogram.recordValue(Math.min(returned - previous, MAX_TRACKED_NANOS));
                }
                previous = returned;
            }
        } catch (Throwable t) {
            failure.compareAndSet(null, t);
            phase = STOP;
        }
    }

    private CellResult summarise(Histogram[] histograms, FlushCounters before, FlushCounters after,
                                 double seconds) {
        Histogram all = new Histogram(MAX_TRACKED_NANOS, 3);
        for (Histogram h : histograms) {
            all.add(h);
        }
        double ops = all.getTotalCount() / seconds;
        double flushesPerSec = Double.NaN;
        double recordsPerFlush = Double.NaN;
        if (before.known() && after.known()) {
            long flushes = after.flushes() - before.flushes();
            flushesPerSec = flushes / seconds;
            if (flushes > 0) {
                recordsPerFlush = (after.records() - before.records()) / (double) flushes;
            }
        }
        return new CellResult(contender.system(), contender.mode(), threads, ops,
                micros(all, 50), micros(all, 99), micros(all, 99.9),
                flushesPerSec, recordsPerFlush, ops * record.length);
    }

    private static double micros(Histogram h, double percentile) {
        return h.getTotalCount() == 0 ? Double.NaN : h.getValueAtPercentile(percentile) / 1000.0;
    }

    private void joinAll(Thread[] writers) throws InterruptedException {
        long deadline = System.currentTimeMillis() + STOP_TIMEOUT_MILLIS;
        for (Thread w : writers) {
            w.join(Math.max(1, deadline - System.currentTimeMillis()));
            if (w.isAlive()) {
                throw new IllegalStateException(contender.label() + ", " + threads + " threads: writer "
                        + w.getName() + " still inside append " + STOP_TIMEOUT_MILLIS / 1000
                        + " s after the cell ended");
            }
        }
    }

    private static void sleep(long nanos) throws InterruptedException {
        TimeUnit.NANOSECONDS.sleep(nanos);
    }

    private void rethrow(Throwable t) throws IOException {
        if (t == null) {
            return;
        }
        if (t instanceof IOException io) {
            throw new IOException(contender.label() + ", " + threads + " threads: " + io.getMessage(), io);
        }
        throw new IllegalStateException(contender.label() + ", " + threads + " threads: " + t, t);
    }
}
