package dev.commitlog.bench.pair;

import dev.commitlog.bench.sut.Appender;
import dev.commitlog.bench.sut.Contender;
import dev.commitlog.bench.sut.FlushCounters;
import dev.commitlog.bench.sut.SystemUnderTest;
import dev.commitlog.bench.sweep.CellResults;
import dev.commitlog.bench.sweep.CellThreads;
import dev.commitlog.bench.sweep.LogSections;
import dev.commitlog.bench.sweep.ProcessCpu;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicReference;
import org.HdrHistogram.Histogram;

/**
 * One row of a paired comparison: both systems open at once, {@code threads} closed-loop writers,
 * and every writer appends to whichever system owns the current slice ({@link SliceSchedule}).
 * A slice's rate is the appends that started inside its measured part over that part's length,
 * the sweep's convention. Each column's latencies (the appends that started in its measured slices)
 * and its flush counters over those slices give its p50, p99 and records per flush
 * ({@link ColumnFigures}). The process's CPU time over a measured part, over the appends counted in
 * it, is that slice's CPU per record: one column appends at a time, so a slice's CPU is its
 * column's (with the idle column's background threads, if it has any).
 *
 * <p>Assumptions and guarantees: the harness thread alone moves {@link #state}; a writer reads it
 * once per append (one volatile read, as in the sweep's cells), counts into its own padded array
 * and records into its own histograms, so the hot path shares no written cache line; the
 * histograms are merged after the writers are joined. Each writer opens an appender on both
 * systems before any writer appends, and closes both on its own thread. Each writer appends the
 * records in turn, starting at its own, as the sweep's writers do.
 */
public final class SlicedDuel {
    /** {@link #state} while writers must stop. */
    private static final int STOP = -1;
    /** Longs between two writers' counters: 64 bytes, so no two share a cache line. */
    private static final int PAD = 8;

    private final Contender a;
    private final Contender b;
    private final int threads;
    private final DuelTiming timing;
    /** Appended in turn, all of one length; a power of two of them, so the turn is a mask. */
    private final byte[][] records;
    /** slice << 2 | owner << 1 | measuring, or {@link #STOP}. */
    private volatile int state;

    public SlicedDuel(Contender a, Contender b, int threads, DuelTiming timing, byte[][] records) {
        LogSections.checked(records);
        this.a = a;
        this.b = b;
        this.threads = threads;
        this.timing = timing;
        this.records = records;
    }

    /**
     * Each pair's rate of one system and of the other, appends per second; each pair's CPU per
     * record of one and of the other, microseconds (NaN when the process's CPU time is not known or
     * the slice made no append); and each column's figures.
     */
    public record Rates(int threads, double[] a, double[] b, double[] aCpuUs, double[] bCpuUs,
                        ColumnFigures aFigures, ColumnFigures bFigures) {
    }

    public Rates run(Path directory) throws IOException, InterruptedException {
        int slices = 2 * timing.pairs();
        long[][] counts = new long[threads][];
        Histogram[][] latencies = new Histogram[threads][];
        FlushTotals flushed = new FlushTotals();
        AtomicReference<Throwable> failure = new AtomicReference<>();
        CountDownLatch ready = new CountDownLatch(threads);
        CountDownLatch start = new CountDownLatch(1);
        Thread[] writers = new Thread[threads];
        double[] seconds = new double[slices];
        long[] cpu = new long[slices];
        int recordBytes = records[0].length;
        state = slice(0, SliceSchedule.A, false);
        try (SystemUnderTest first = a.open(Files.createDirectory(directory.resolve("a")), recordBytes);
             SystemUnderTest second = b.open(Files.createDirectory(directory.resolve("b")), recordBytes)) {
            SystemUnderTest[] systems = new SystemUnderTest[2];
            systems[SliceSchedule.A] = first;
            systems[SliceSchedule.B] = second;
            try {
                for (int i = 0; i < threads; i++) {
                    int index = i;
                    counts[i] = new long[PAD + slices + PAD];
                    latencies[i] = new Histogram[] {CellResults.newHistogram(), CellResults.newHistogram()};
                    writers[i] = new Thread(() -> write(first, second, index, counts[index], latencies[index], ready, start, failure),
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
                    FlushCounters before = systems[owner].flushCounters();
                    long cpuBefore = ProcessCpu.nanos();   // beside the wall clock: both cover the same span
                    long began = System.nanoTime();
                    state = slice(s, owner, true);
                    CellThreads.sleep(timing.slice());
                    state = slice(s, owner, false);   // appends already started still count here
                    seconds[s] = (System.nanoTime() - began) / 1e9;
                    cpu[s] = ProcessCpu.between(cpuBefore, ProcessCpu.nanos());
                    flushed.add(owner, before, systems[owner].flushCounters());
                }
                state = STOP;
                CellThreads.joinAll(writers, name());
                CellThreads.rethrow(failure.get(), name());
            } finally {
                state = STOP;   // on any failure, release writers before the systems are closed
                start.countDown();
            }
        }
        return rates(counts, seconds, cpu, latencies, flushed);
    }

    private Rates rates(long[][] counts, double[] seconds, long[] cpu, Histogram[][] latencies, FlushTotals flushed) {
        double[] ra = new double[timing.pairs()];
        double[] rb = new double[timing.pairs()];
        double[] ca = new double[timing.pairs()];
        double[] cb = new double[timing.pairs()];
        long[] cpuTotal = new long[2];
        for (int p = 0; p < timing.pairs(); p++) {
            int sa = SliceSchedule.sliceOf(p, SliceSchedule.A);
            int sb = SliceSchedule.sliceOf(p, SliceSchedule.B);
            ra[p] = appends(counts, sa) / seconds[sa];
            rb[p] = appends(counts, sb) / seconds[sb];
            ca[p] = ProcessCpu.microsPerRecord(cpu[sa], appends(counts, sa));
            cb[p] = ProcessCpu.microsPerRecord(cpu[sb], appends(counts, sb));
            cpuTotal[SliceSchedule.A] = sum(cpuTotal[SliceSchedule.A], cpu[sa]);
            cpuTotal[SliceSchedule.B] = sum(cpuTotal[SliceSchedule.B], cpu[sb]);
        }
        return new Rates(threads, ra, rb, ca, cb, flushed.figures(SliceSchedule.A, latencies, cpuTotal[SliceSchedule.A]),
                flushed.figures(SliceSchedule.B, latencies, cpuTotal[SliceSchedule.B]));
    }

    /** A column's CPU over its slices so far plus one more slice's; unknown once either is. */
    private static long sum(long total, long slice) {
        return total < 0 || slice < 0 ? ProcessCpu.UNKNOWN : total + slice;
    }

    /** Each column's flushes and records over its measured slices; -1 once a snapshot was unknown. Harness thread only. */
    private static final class FlushTotals {
        private final long[] flushes = new long[2];
        private final long[] records = new long[2];

        void add(int owner, FlushCounters before, FlushCounters after) {
            if (flushes[owner] < 0 || !before.known() || !after.known()) {
                flushes[owner] = -1;
                records[owner] = -1;
                return;
            }
            flushes[owner] += after.flushes() - before.flushes();
            records[owner] += after.records() - before.records();
        }

        ColumnFigures figures(int owner, Histogram[][] latencies, long cpuNanos) {
            Histogram merged = CellResults.newHistogram();
            for (Histogram[] writer : latencies) {
                merged.add(writer[owner]);
            }
            return new ColumnFigures(merged, flushes[owner], records[owner], cpuNanos);
        }
    }

    /** The appends that started in the measured part of {@code slice}, all writers. */
    private static long appends(long[][] counts, int slice) {
        long n = 0;
        for (long[] c : counts) {
            n += c[PAD + slice];
        }
        return n;
    }

    private static int slice(int slice, int owner, boolean measuring) {
        return slice << 2 | owner << 1 | (measuring ? 1 : 0);
    }

    private String name() {
        return a.label() + " against " + b.label() + ", " + threads + " threads";
    }

    private void write(SystemUnderTest first, SystemUnderTest second, int index, long[] counts, Histogram[] latency,
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
            int turn = index;   // writers start at different records
            int mask = records.length - 1;
            while ((s = state) != STOP) {   // read before the append: it must start in the slice
                int owner = (s >> 1) & 1;
                long began = System.nanoTime();
                appenders[owner].append(records[turn++ & mask]);
                if ((s & 1) != 0) {
                    counts[PAD + (s >>> 2)]++;
                    latency[owner].recordValue(Math.min(System.nanoTime() - began, CellResults.MAX_TRACKED_NANOS));
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
