package dev.commitlog.bench.pair;

import dev.commitlog.bench.sut.Appender;
import dev.commitlog.bench.sut.Contender;
import dev.commitlog.bench.sut.SystemUnderTest;
import dev.commitlog.bench.sweep.CellThreads;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicReference;

/**
 * One row of a paired comparison: both systems open at once, {@code threads} closed-loop writers,
 * and every writer appends to whichever system owns the current slice ({@link SliceSchedule}).
 * A slice's rate is the appends that started inside its measured part over that part's length,
 * the sweep's convention.
 *
 * <p>Assumptions and guarantees: the harness thread alone moves {@link #state}; a writer reads it
 * once per append (one volatile read, as in the sweep's cells) and counts into its own padded
 * array, so the hot path shares no written cache line. Each writer opens an appender on both
 * systems before any writer appends, and closes both on its own thread.
 */
final class SlicedDuel {
    /** {@link #state} while writers must stop. */
    private static final int STOP = -1;
    /** Longs between two writers' counters: 64 bytes, so no two share a cache line. */
    private static final int PAD = 8;

    private final Contender a;
    private final Contender b;
    private final int threads;
    private final DuelTiming timing;
    private final byte[] record;
    /** slice << 2 | owner << 1 | measuring, or {@link #STOP}. */
    private volatile int state;

    SlicedDuel(Contender a, Contender b, int threads, DuelTiming timing, byte[] record) {
        this.a = a;
        this.b = b;
        this.threads = threads;
        this.timing = timing;
        this.record = record;
    }

    /** Each pair's rate of one system and of the other, appends per second. */
    record Rates(int threads, double[] a, double[] b) {
    }

    Rates run(Path directory) throws IOException, InterruptedException {
        int slices = 2 * timing.pairs();
        long[][] counts = new long[threads][];
        AtomicReference<Throwable> failure = new AtomicReference<>();
        CountDownLatch ready = new CountDownLatch(threads);
        CountDownLatch start = new CountDownLatch(1);
        Thread[] writers = new Thread[threads];
        double[] seconds = new double[slices];
        state = slice(0, SliceSchedule.A, false);
        try (SystemUnderTest first = a.open(Files.createDirectory(directory.resolve("a")), record.length);
             SystemUnderTest second = b.open(Files.createDirectory(directory.resolve("b")), record.length)) {
            try {
                for (int i = 0; i < threads; i++) {
                    int index = i;
                    counts[i] = new long[PAD + slices + PAD];
                    writers[i] = new Thread(() -> write(first, second, index, counts[index], ready, start, failure),
                            "bench-duel-" + i);
                    writers[i].setDaemon(true);
                    writers[i].start();
                }
                ready.await();
                start.countDown();
                CellThreads.sleep(timing.warmup().dividedBy(2));
                state = slice(0, SliceSchedule.B, false);
                CellThreads.sleep(timing.warmup().dividedBy(2));
                for (int s = 0; s < slices && failure.get() == null; s++) {
                    int owner = SliceSchedule.owner(s);
                    state = slice(s, owner, false);
                    CellThreads.sleep(timing.settle());
                    long began = System.nanoTime();
                    state = slice(s, owner, true);
                    CellThreads.sleep(timing.slice());
                    state = slice(s, owner, false);   // appends already started still count here
                    seconds[s] = (System.nanoTime() - began) / 1e9;
                }
                state = STOP;
                CellThreads.joinAll(writers, name());
                CellThreads.rethrow(failure.get(), name());
            } finally {
                state = STOP;   // on any failure, release writers before the systems are closed
                start.countDown();
            }
        }
        return rates(counts, seconds);
    }

    private Rates rates(long[][] counts, double[] seconds) {
        double[] ra = new double[timing.pairs()];
        double[] rb = new double[timing.pairs()];
        for (int p = 0; p < timing.pairs(); p++) {
            ra[p] = rate(counts, seconds, SliceSchedule.sliceOf(p, SliceSchedule.A));
            rb[p] = rate(counts, seconds, SliceSchedule.sliceOf(p, SliceSchedule.B));
        }
        return new Rates(threads, ra, rb);
    }

    private static double rate(long[][] counts, double[] seconds, int slice) {
        long n = 0;
        for (long[] c : counts) {
            n += c[PAD + slice];
        }
        return n / seconds[slice];
    }

    private static int slice(int slice, int owner, boolean measuring) {
        return slice << 2 | owner << 1 | (measuring ? 1 : 0);
    }

    private String name() {
        return a.label() + " against " + b.label() + ", " + threads + " threads";
    }

    private void write(SystemUnderTest first, SystemUnderTest second, int index, long[] counts,
                       CountDownLatch ready, CountDownLatch start, AtomicReference<Throwable> failure) {
        Appender[] appenders = new Appender[2];
        try {
            appenders[SliceSchedule.A] = first.newAppender(index);
            appenders[SliceSchedule.B] = second.newAppender(index);
        } catch (Throwable t) {
            failure.compareAndSet(null, t);
            state = STOP;
            closeQuietly(appenders, failure);
            ready.countDown();
            return;
        }
        ready.countDown();
        try {
            start.await();
            int s;
            while ((s = state) != STOP) {   // read before the append: it must start in the slice
                appenders[(s >> 1) & 1].append(record);
                if ((s & 1) != 0) {
                    counts[PAD + (s >>> 2)]++;
                }
            }
        } catch (Throwable t) {
            failure.compareAndSet(null, t);
            state = STOP;
        } finally {
            closeQuietly(appenders, failure);
        }
    }

    private static void closeQuietly(Appender[] appenders, AtomicReference<Throwable> failure) {
        for (Appender appender : appenders) {
            if (appender == null) {
                continue;
            }
            try {
                appender.close();
            } catch (Throwable t) {
                failure.compareAndSet(null, t);
            }
        }
    }
}
