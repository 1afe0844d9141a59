package dev.commitlog.bench.pair;

import dev.commitlog.bench.stats.PairedRatio;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.commitlog.bench.sut.Contender;
import dev.commitlog.bench.sut.FlushCounters;
import dev.commitlog.bench.sut.SystemUnderTest;
import java.io.IOException;
import java.nio.file.Path;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.time.Duration;
import java.util.Arrays;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SlicedDuelTest {

    @TempDir
    Path tmp;

    /**
     * A system whose every append takes {@code micros}, counting its appends and open appenders; it
     * reports one flush per {@code recordsPerFlush} appends, or no counters if that is 0.
     */
    private static final class Sleeper implements Contender {
        final String name;
        final long micros;
        final AtomicInteger appends = new AtomicInteger();
        final AtomicInteger openAppenders = new AtomicInteger();
        final int failAfter;
        final int recordsPerFlush;
        /** The record arrays appended, by identity. */
        final Set<byte[]> seen = ConcurrentHashMap.newKeySet();
        /** Whether an append spins on its thread's CPU clock rather than sleeping. */
        boolean spin;

        Sleeper(String name, long micros, int failAfter) {
            this(name, micros, failAfter, 0);
        }

        Sleeper(String name, long micros, int failAfter, int recordsPerFlush) {
            this.name = name;
            this.micros = micros;
            this.failAfter = failAfter;
            this.recordsPerFlush = recordsPerFlush;
        }

        @Override
        public String system() {
            return name;
        }

        @Override
        public boolean durable() {
            return true;
        }

        @Override
        public SystemUnderTest open(Path directory, int recordBytes) {
            return new SystemUnderTest() {
                @Override
                public dev.commitlog.bench.sut.Appender newAppender(int threadIndex) {
                    openAppenders.incrementAndGet();
                    return new dev.commitlog.bench.sut.Appender() {
                        @Override
                        public void append(byte[] record) throws IOException {
                            if (appends.incrementAndGet() > failAfter) {
                                throw new IOException(name + " is full");
                            }
                            seen.add(record);
                            if (spin) {
                                spinFor(micros);
                                return;
                            }
                            try {
                                TimeUnit.MICROSECONDS.sleep(micros);
                            } catch (InterruptedException e) {
                                Thread.currentThread().interrupt();
                            }
                        }

                        @Override
                        public void close() {
                            openAppenders.decrementAndGet();
                        }
                    };
                }

                @Override
                public FlushCounters flushCounters() {
                    int n = appends.get();
                    return recordsPerFlush == 0 ? FlushCounters.UNKNOWN : new FlushCounters(n / recordsPerFlush, n);
                }

                @Override
                public void close() {
                }
            };
        }
    }

    private static final byte[][] ONE_RECORD = {new byte[8]};
    private static final ThreadMXBean CPU = ManagementFactory.getThreadMXBean();

    /** Spins until this thread's own CPU clock (nanoseconds, not the process clock's ticks) has counted {@code micros}. */
    private static void spinFor(long micros) {
        long start = CPU.getCurrentThreadCpuTime();
        while (CPU.getCurrentThreadCpuTime() - start < micros * 1_000) {
            Thread.onSpinWait();
        }
    }
    private static final DuelTiming QUICK = new DuelTiming(20, Duration.ofMillis(30), Duration.ofMillis(10), Duration.ofMillis(40));
    private static final DuelTiming LONGER_SLICES = new DuelTiming(20, Duration.ofMillis(60), Duration.ofMillis(25), Duration.ofMillis(40));

    @Test
    void aSystemWithTwentyTimesShorterAppendsReadsAboveTwo() throws Exception {
        Sleeper fast = new Sleeper("fast", 1_000, Integer.MAX_VALUE);
        Sleeper slow = new Sleeper("slow", 20_000, Integer.MAX_VALUE);
        SlicedDuel.Rates rates = new SlicedDuel(fast, slow, 2, LONGER_SLICES, ONE_RECORD).run(tmp);
        assertEquals(20, rates.a().length);
        PairedRatio r = PairedRatio.of(rates.a(), rates.b());
        // A sleep overshoots by about the same absolute time whatever its length, which pulls the
        // ratio toward 1: a CI machine once turned 1 ms against 4 ms into a ratio of 1.9. With 20 ms
        // against 1 ms, the ratio stays above 2 unless every sleep overshoots by more than 17 ms.
        assertTrue(r.median() > 2, "ratio " + r.median() + " [" + r.low() + ", " + r.high() + "]");
        assertEquals(PairedRatio.Reading.ABOVE, r.against(2), "interval " + r.low() + "-" + r.high());
        double counted = 0;
        for (int p = 0; p < 20; p++) {
            counted += rates.a()[p] * 0.060;
        }
        assertTrue(fast.appends.get() >= counted * 0.9, "the fast system saw " + fast.appends.get()
                + " appends; its slices counted about " + counted);
        assertEquals(0, fast.openAppenders.get() + slow.openAppenders.get(), "every appender closed");
    }

    @Test
    void eachColumnsLatencyAndRecordsPerFlushComeFromItsOwnSlices() throws Exception {
        Sleeper fast = new Sleeper("fast", 1_000, Integer.MAX_VALUE, 4);
        Sleeper slow = new Sleeper("slow", 20_000, Integer.MAX_VALUE, 0);
        SlicedDuel.Rates rates = new SlicedDuel(fast, slow, 2, LONGER_SLICES, ONE_RECORD).run(tmp);
        ColumnFigures f = rates.aFigures();
        ColumnFigures s = rates.bFigures();
        assertTrue(f.p50Us() >= 1_000 && f.p50Us() < 20_000, "fast p50 " + f.p50Us() + " us");
        assertTrue(s.p50Us() >= 20_000, "slow p50 " + s.p50Us() + " us");
        assertTrue(f.p99Us() >= f.p50Us() && s.p99Us() >= s.p50Us());
        // Only appends that started in fast's measured slices: most of fast's appends (60 of every 85 ms), never all.
        long recorded = f.latency().getTotalCount();
        assertTrue(recorded < fast.appends.get() && recorded > 0.4 * fast.appends.get(),
                recorded + " latencies recorded of " + fast.appends.get() + " appends");
        assertEquals(4.0, f.recordsPerFlush(), 0.1, "fast's counters, read around fast's slices only");
        assertTrue(Double.isNaN(s.recordsPerFlush()), "slow counts no flushes");
    }

    @Test
    void eachColumnsCpuPerRecordComesFromItsOwnSlices() throws Exception {
        Sleeper spinner = new Sleeper("spinner", 1_000, Integer.MAX_VALUE);
        spinner.spin = true;
        Sleeper sleeper = new Sleeper("sleeper", 1_000, Integer.MAX_VALUE);
        SlicedDuel.Rates rates = new SlicedDuel(spinner, sleeper, 2, LONGER_SLICES, ONE_RECORD).run(tmp);
        double spun = rates.aFigures().cpuUsPerRecord();
        double slept = rates.bFigures().cpuUsPerRecord();
        // Every spinner append costs its thread 1 ms of CPU: the process spends at least that per
        // record, less the clock's 10 ms ticks and the appends a slice cuts in two
        assertTrue(spun >= 800 && spun < 5_000, "spinner " + spun + " us of CPU per record");
        assertTrue(slept < spun / 4, "sleeper " + slept + " us of CPU per record, spinner " + spun);
        assertEquals(20, rates.aCpuUs().length);
        double sliceSum = 0;
        int measured = 0;
        for (int p = 0; p < 20; p++) {
            // a slice with no append (a stall on a busy machine) has no CPU per record; any other has one
            assertEquals(rates.a()[p] > 0, rates.aCpuUs()[p] >= 0, "pair " + p + ": spinner's slice " + rates.aCpuUs()[p]);
            assertEquals(rates.b()[p] > 0, rates.bCpuUs()[p] >= 0, "pair " + p + ": sleeper's slice " + rates.bCpuUs()[p]);
            if (rates.a()[p] > 0) {
                sliceSum += rates.aCpuUs()[p];
                measured++;
            }
        }
        assertTrue(measured >= 10 && sliceSum / measured >= 700,
                "the spinner's slices read " + sliceSum / measured + " us per record on average over " + measured);
    }

    @Test
    void writersCycleThroughTheRecordsStartingAtTheirOwn() throws Exception {
        Sleeper a = new Sleeper("a", 200, Integer.MAX_VALUE);
        Sleeper b = new Sleeper("b", 200, Integer.MAX_VALUE);
        byte[][] records = {new byte[8], new byte[8], new byte[8], new byte[8]};
        new SlicedDuel(a, b, 2, QUICK, records).run(tmp);
        assertEquals(4, a.seen.size(), "every record appended to a");
        assertEquals(4, b.seen.size(), "every record appended to b");
        assertTrue(Arrays.stream(records).allMatch(a.seen::contains));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> new SlicedDuel(a, b, 2, QUICK, new byte[][] {new byte[8], new byte[8], new byte[8]}));
        assertTrue(e.getMessage().contains("a power of two of them, all of one length"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> new SlicedDuel(a, b, 2, QUICK, new byte[][] {new byte[8], new byte[9]}));
    }

    @Test
    void aFailingAppendFailsTheDuelNamingIt() {
        Sleeper ok = new Sleeper("ok", 500, Integer.MAX_VALUE);
        Sleeper full = new Sleeper("full", 500, 20);
        IOException e = assertThrows(IOException.class, () -> new SlicedDuel(ok, full, 2, QUICK, ONE_RECORD).run(tmp));
        assertTrue(e.getMessage().contains("ok against full, 2 threads") && e.getMessage().contains("full is full"), e.getMessage());
        assertEquals(0, ok.openAppenders.get() + full.openAppenders.get(), "every appender closed");
    }
}
