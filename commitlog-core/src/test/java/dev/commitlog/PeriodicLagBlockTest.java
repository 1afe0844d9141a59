package dev.commitlog;

import static org.junit.jupiter.api.Assertions.*;

import dev.commitlog.config.CommitLogConfig;
import dev.commitlog.config.SyncMode;
import dev.commitlog.io.SimulatedDisk;
import dev.commitlog.io.StorageLayer;
import dev.commitlog.testkit.CapturedLog;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Periodic mode's lag limit. The sustained-writer tests pace one writer at
 * {@value #SEGMENTS_PER_PERIOD} segments a sync period and look at the log several times a period: the lag
 * (how long the oldest acknowledged record that was not durable had been acknowledged) and the span
 * (how far apart the acknowledgments of the records not durable lie: what a crash then loses).
 * On a fast device, with a lag block the run never reaches, the lag must stay within one period:
 * each pass covers what was appended before it. On a device too slow to keep up, appends must
 * block so that the span stays within the lag block. Both bounds allow {@value #MARGIN_MS} ms more.
 * A sync that covers everything appended before it keeps the lag near one period (tens of ms past
 * it on a loaded machine); one that flushes a segment a period falls further behind every period,
 * by seconds within the run. So the margin only absorbs scheduling delays on a loaded 2-core
 * machine and never decides the outcome.
 */
class PeriodicLagBlockTest {
    private static final Duration PERIOD = Duration.ofMillis(100);
    private static final Duration LAG_BLOCK = Duration.ofMillis(250);
    /** A lag block the fast device's run never reaches: the lag there is the passes' doing alone. */
    private static final Duration FAR_LAG_BLOCK = Duration.ofSeconds(5);
    private static final long MARGIN_MS = 250;
    private static final int SEGMENTS_PER_PERIOD = 10;
    private static final Duration RUN = Duration.ofSeconds(3);
    private static final int RECORD_BYTES = 1000;
    private static final int SAMPLES_PER_PERIOD = 5;

    @TempDir
    Path dir;

    @Test
    void appendsBlockWhileAFlushIsHeldPastTheLagLimitAndResumeWhenItCompletes() throws Exception {
        SimulatedDisk storage = new SimulatedDisk();
        CommitLogConfig config = CommitLogConfig.builder(dir).syncMode(SyncMode.PERIODIC)
                .syncPeriod(Duration.ofMillis(50)).periodicLagBlock(Duration.ofMillis(150))
                .segmentSize(TestLogs.SMALL_SEGMENT).build();
        byte[] record = new byte[64];
        try (CommitLog log = CommitLog.open(config, storage, (f, o, p, r, a) -> { })) {
            long before = System.nanoTime();
            for (int i = 0; i < 100; i++) {
                log.append(record, 0, record.length);
            }
            // Microseconds each on the simulated disk; the bound is for the first appends' class loading on a busy machine.
            assertTrue(System.nanoTime() - before < TimeUnit.SECONDS.toNanos(1), "unblocked appends return at once");

            storage.blockFlushes();
            CompletableFuture<Long> blocked;
            try {
                int started = storage.flushCalls();
                log.append(record, 0, record.length); // gives the next flush something to do
                while (storage.flushCalls() == started) {
                    Thread.sleep(5); // wait until the sync thread is stuck inside a flush
                }
                Thread.sleep(200); // now past the 150 ms lag limit
                blocked = CompletableFuture.supplyAsync(() -> log.append(record, 0, record.length));
                assertThrows(TimeoutException.class, () -> blocked.get(300, TimeUnit.MILLISECONDS),
                        "an append while syncing lags past the limit must block");
            } finally {
                storage.releaseFlushes(); // else a failure above leaves close waiting for the held flush
            }
            long position = blocked.get(10, TimeUnit.SECONDS);
            assertTrue(log.durablePosition() > position, "the blocked append returned only once a flush covered it");
            assertTrue(log.metrics().lagBlocks() >= 1);
        }
    }

    /**
     * A fast device, and a lag block far above the period so that it never engages: every pass
     * makes what was appended before it durable, so no acknowledged record stays unsynced much
     * longer than a period, however many segments a period fills.
     */
    @Test
    @Timeout(60)
    void everyPassCoversWhatWasAppendedBeforeItSoTheLagStaysNearOnePeriod() throws Exception {
        Run run = sustainedWriter(new SimulatedDisk(), FAR_LAG_BLOCK);
        run.print("fast device");
        long worst = run.worst(AckTimeline.Sample::lagNanos);
        long bound = PERIOD.toNanos() + TimeUnit.MILLISECONDS.toNanos(MARGIN_MS);
        assertTrue(worst <= bound, () -> "an acknowledged record stayed unsynced " + millis(worst) + " ms, past the period of "
                + PERIOD.toMillis() + " ms plus " + MARGIN_MS + " ms:\n" + run.table());
        assertTrue(run.segmentsPerPeriod() >= SEGMENTS_PER_PERIOD / 2.0, () -> "the writer fell short of several segments a period: "
                + run.table());
    }

    /**
     * A device whose every flush takes 25 ms: one sync of what a period appends takes longer than
     * the lag block allows, so appends must block once the oldest unsynced one is older than the lag
     * block, and the records a crash could lose were acknowledged within the lag block of each other.
     */
    @Test
    @Timeout(60)
    void onASlowDeviceAppendsBlockSoThatUnsyncedAcknowledgmentsSpanAtMostTheLagBlock() throws Exception {
        Run run;
        String logged;
        try (CapturedLog captured = new CapturedLog()) {
            run = sustainedWriter(new DelayedDevice(25), LAG_BLOCK);
            logged = captured.text();
        }
        run.print("25 ms flushes");
        long worst = run.worst(AckTimeline.Sample::spanNanos);
        assertTrue(worst <= bound(), () -> "records acknowledged " + millis(worst) + " ms apart were unsynced at once, past the lag block of "
                + LAG_BLOCK.toMillis() + " ms plus " + MARGIN_MS + " ms:\n" + run.table());
        assertTrue(run.lagBlocks > 0, "appends never blocked, though syncing one period's appends takes longer than the lag block");
        assertTrue(logged.contains("the oldest append not yet durable is up to"), () -> "the warning says how far behind: " + logged);
        // The device syncs 2.5 segments a period at most, and appends wait for it.
        assertTrue(run.segmentsPerPeriod() >= 2, () -> "too little was appended to span segments: " + run.table());
    }

    private static long bound() {
        return LAG_BLOCK.toNanos() + TimeUnit.MILLISECONDS.toNanos(MARGIN_MS);
    }

    private static long millis(long nanos) {
        return TimeUnit.NANOSECONDS.toMillis(nanos);
    }

    /** What one sustained-writer run saw: a sample every period, and how often appends blocked. */
    private static final class Run {
        final List<AckTimeline.Sample> samples = new ArrayList<>();
        final Duration lagBlock;
        long startNanos;
        long lagBlocks;

        Run(Duration lagBlock) {
            this.lagBlock = lagBlock;
        }

        long worst(java.util.function.ToLongFunction<AckTimeline.Sample> measure) {
            return samples.stream().mapToLong(measure).max().orElse(0);
        }

        /** Segments appended per period over the run, on average. */
        double segmentsPerPeriod() {
            AckTimeline.Sample last = samples.get(samples.size() - 1);
            return (double) last.appended() / TestLogs.SMALL_SEGMENT / (RUN.toNanos() / PERIOD.toNanos());
        }

        void print(String device) {
            System.out.printf("periodic lag, %s, period %d ms, lag block %d ms, writer paced at %d segments of %d KiB a period, "
                    + "%d lag blocks:%n%s", device, PERIOD.toMillis(), lagBlock.toMillis(), SEGMENTS_PER_PERIOD,
                    TestLogs.SMALL_SEGMENT >> 10, lagBlocks, table());
        }

        /**
         * One line per period: how far appends and the durable position were at its last sample,
         * and the largest lag and span its samples saw.
         */
        String table() {
            StringBuilder table = new StringBuilder("  period ends ms   appended MiB   durable MiB   max lag ms   max span ms\n");
            long lag = 0;
            long span = 0;
            for (int i = 0; i < samples.size(); i++) {
                AckTimeline.Sample s = samples.get(i);
                lag = Math.max(lag, s.lagNanos());
                span = Math.max(span, s.spanNanos());
                if ((i + 1) % SAMPLES_PER_PERIOD == 0 || i == samples.size() - 1) {
                    table.append(String.format("  %14d  %13.2f  %12.2f  %11d  %12d%n", millis(s.atNanos() - startNanos),
                            s.appended() / 1048576.0, s.durable() / 1048576.0, millis(lag), millis(span)));
                    lag = 0;
                    span = 0;
                }
            }
            return table.toString();
        }
    }

    /** One writer paced at {@link #SEGMENTS_PER_PERIOD} segments a period for {@link #RUN}; the log sampled {@value #SAMPLES_PER_PERIOD} times a period. */
    private Run sustainedWriter(StorageLayer storage, Duration lagBlock) throws Exception {
        CommitLogConfig config = CommitLogConfig.builder(dir).syncMode(SyncMode.PERIODIC).syncPeriod(PERIOD)
                .periodicLagBlock(lagBlock).segmentSize(TestLogs.SMALL_SEGMENT).build();
        double bytesPerNano = (double) SEGMENTS_PER_PERIOD * TestLogs.SMALL_SEGMENT / PERIOD.toNanos();
        AckTimeline timeline = new AckTimeline((int) (2 * bytesPerNano * RUN.toNanos() / RECORD_BYTES));
        AtomicReference<Throwable> failure = new AtomicReference<>();
        Run run = new Run(lagBlock);
        try (CommitLog log = CommitLog.open(config, storage, TestLogs.NO_DAMAGE)) {
            run.startNanos = System.nanoTime();
            long end = run.startNanos + RUN.toNanos();
            Thread writer = new Thread(() -> {
                byte[] record = new byte[RECORD_BYTES];
                long written = 0;
                try {
                    while (System.nanoTime() < end && !timeline.full()) {
                        if (written > bytesPerNano * (System.nanoTime() - run.startNanos)) {
                            LockSupport.parkNanos(100_000); // ahead of the pace
                            continue;
                        }
                        timeline.acked(log.append(record, 0, record.length), record.length);
                        written += record.length;
                    }
                } catch (Throwable e) {
                    failure.set(e);
                }
            }, "sustained-writer");
            writer.setDaemon(true); // a writer left blocked by a broken log must not keep the JVM alive
            writer.start();
            long every = PERIOD.toNanos() / SAMPLES_PER_PERIOD; // several a period: the lag peaks just before each pass
            for (long next = run.startNanos + every; next < end; next += every) {
                LockSupport.parkNanos(next - System.nanoTime());
                run.samples.add(timeline.sample(log));
            }
            writer.join();
            run.lagBlocks = log.metrics().lagBlocks();
        }
        if (failure.get() != null) {
            throw new AssertionError("the writer failed: " + failure.get(), failure.get());
        }
        return run;
    }
}
