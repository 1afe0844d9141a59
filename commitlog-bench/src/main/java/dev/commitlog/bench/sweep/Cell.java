package dev.commitlog.bench.sweep;

import dev.commitlog.bench.device.DeviceWrites;
import dev.commitlog.bench.sut.Appender;
import dev.commitlog.bench.sut.Contender;
import dev.commitlog.bench.sut.SystemUnderTest;
import java.io.IOException;
import java.nio.file.Path;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicReference;
import org.HdrHistogram.Histogram;

/**
 * Runs one cell: {@code threads} closed-loop writers against a fresh instance of one contender.
 * Each writer appends a record, waits for the append to return, and appends the next (the records in turn).
 *
 * <p>Assumptions and guarantees: each writer records into its own {@link Histogram}, so the hot
 * path takes no lock and shares no written cache line; the only shared state it reads is the
 * volatile {@link CellPhase}. Latencies are taken between consecutive returns of {@code append}
 * (one clock read per append), and counted only for appends that start inside the measured
 * window, so the count over the window's length is the throughput.
 */
final class Cell {
    private final Contender contender;
    private final int threads;
    private final CellTiming timing;
    /** Appended in turn, all of one length; a power of two of them, so the turn is a mask. */
    private final byte[][] records;
    private final DeviceWrites device;
    private final CellPhase phase = new CellPhase();

    /**
     * {@code device} is the counter of the device under the cell. A system that returns before its
     * flush leaves its bytes to a flush after a short window, so its device bytes are not measured.
     */
    Cell(Contender contender, int threads, CellTiming timing, byte[][] records, DeviceWrites device) {
        this.contender = contender;
        this.threads = threads;
        this.timing = timing;
        this.records = LogSections.checked(records);
        this.device = contender.durable() ? device : DeviceWrites.NONE;
    }

    CellResult run(Path directory) throws IOException, InterruptedException {
        Histogram[] histograms = new Histogram[threads];
        for (int i = 0; i < threads; i++) {
            histograms[i] = CellResults.newHistogram();
        }
        AtomicReference<Throwable> failure = new AtomicReference<>();
        CountDownLatch ready = new CountDownLatch(threads);
        // Every appender exists before any thread appends: creating one can need a lock that busy
        // appenders would starve (Chronicle Queue's write lock, with 128 threads on 2 cores).
        CountDownLatch start = new CountDownLatch(1);
        Thread[] writers = new Thread[threads];

        try (SystemUnderTest sut = contender.open(directory, records[0].length)) {
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
                MeasuredWindow window = MeasuredWindow.run(timing, phase, sut::flushCounters, device);

                CellThreads.joinAll(writers, name());
                CellThreads.rethrow(failure.get(), name());
                return CellResults.summarise(contender.system(), contender.mode(), threads, histograms, window,
                        records[0].length, contender.frameBytes(records[0].length));
            } finally {
                phase.stop();   // on any failure, release writers before the system is closed
                start.countDown();
            }
        }
    }

    private String name() {
        return contender.label() + ", " + threads + " threads";
    }

    private void write(SystemUnderTest sut, int index, Histogram histogram, CountDownLatch ready,
                       CountDownLatch start, AtomicReference<Throwable> failure) {
        Appender appender;
        try {
            appender = sut.newAppender(index);
        } catch (Throwable t) {
            failure.compareAndSet(null, t);
            phase.stop();
            ready.countDown();
            return;
        }
        ready.countDown();
        try (appender) {
            start.await();
            long previous = System.nanoTime();
            int now;
            int turn = index; // writers start at different records
            int mask = records.length - 1;
            while ((now = phase.now()) != CellPhase.STOP) {   // read before the append: it must start in the window
                appender.append(records[turn++ & mask]);
                long returned = System.nanoTime();
                if (now == CellPhase.MEASURE) {
                    histogram.recordValue(Math.min(returned - previous, CellResults.MAX_TRACKED_NANOS));
                }
                previous = returned;
            }
        } catch (Throwable t) {
            failure.compareAndSet(null, t);
            phase.stop();
        }
    }
}
