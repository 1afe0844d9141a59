package dev.commitlog.bench.pair;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.commitlog.bench.sut.Contender;
import dev.commitlog.bench.sut.FlushCounters;
import dev.commitlog.bench.sut.SystemUnderTest;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SlicedDuelTest {

    @TempDir
    Path tmp;

    /** A system whose every append takes {@code micros}, counting its appends and open appenders. */
    private static final class Sleeper implements Contender {
        final String name;
        final long micros;
        final AtomicInteger appends = new AtomicInteger();
        final AtomicInteger openAppenders = new AtomicInteger();
        final int failAfter;

        Sleeper(String name, long micros, int failAfter) {
            this.name = name;
            this.micros = micros;
            this.failAfter = failAfter;
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
                    return FlushCounters.UNKNOWN;
                }

                @Override
                public void close() {
                }
            };
        }
    }

    private static final DuelTiming QUICK = new DuelTiming(20, Duration.ofMillis(30), Duration.ofMillis(10), Duration.ofMillis(40));
    private static final DuelTiming LONGER_SLICES = new DuelTiming(20, Duration.ofMillis(60), Duration.ofMillis(25), Duration.ofMillis(40));

    @Test
    void aSystemWithTwentyTimesShorterAppendsReadsAboveTwo() throws Exception {
        Sleeper fast = new Sleeper("fast", 1_000, Integer.MAX_VALUE);
        Sleeper slow = new Sleeper("slow", 20_000, Integer.MAX_VALUE);
        SlicedDuel.Rates rates = new SlicedDuel(fast, slow, 2, LONGER_SLICES, new byte[8]).run(tmp);
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
    void aFailingAppendFailsTheDuelNamingIt() {
        Sleeper ok = new Sleeper("ok", 500, Integer.MAX_VALUE);
        Sleeper full = new Sleeper("full", 500, 20);
        IOException e = assertThrows(IOException.class, () -> new SlicedDuel(ok, full, 2, QUICK, new byte[8]).run(tmp));
        assertTrue(e.getMessage().contains("ok against full, 2 threads") && e.getMessage().contains("full is full"), e.getMessage());
        assertEquals(0, ok.openAppenders.get() + full.openAppenders.get(), "every appender closed");
    }
}
