package dev.commitlog;

import static dev.commitlog.SimulatedPowerLossTest.record;
import static dev.commitlog.TestLogs.NO_DAMAGE;
import static dev.commitlog.TestLogs.TAIL_ONLY;
import static org.junit.jupiter.api.Assertions.*;

import dev.commitlog.config.CommitLogConfig;
import dev.commitlog.config.ReplayPolicy;
import dev.commitlog.config.SyncMode;
import dev.commitlog.io.SimulatedDisk;
import dev.commitlog.io.SlowLaneStorage;
import dev.commitlog.record.RecordDescriptor;
import dev.commitlog.sync.SyncTuning;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Pipelined flushes (Adaptive with {@code dev.commitlog.sync.adaptivePipeline=4} and the overlap
 * gate off, so flushes overlap whenever the pipeline has room) keep every promise one flush at a
 * time keeps: power loss, a failed flush, a full disk and close, each with several flushes in
 * flight. The log runs over {@link SlowLaneStorage}: each lane flush waits a random while before
 * it reaches the {@link SimulatedDisk}, which makes exactly its own bytes durable, so later ranges
 * reach the device before earlier ones (holes) and finish first. Every test also checks that
 * flushes really overlapped, so none can pass with a pipeline of one.
 */
class PipelinedFlushCrashTest {
    private static final int DEPTH = 4;
    private static final int MAX_DELAY_MICROS = 300;
    /** Crash images taken when an overtaken flush is about to reach the device, and when a flush starts while others run. */
    private static final int HOLE_IMAGES = 60;
    private static final int START_IMAGES = 40;
    private static final long SEED = Long.getLong("commitlog.test.seed", System.nanoTime());

    @TempDir
    Path dir;

    private String savedDepth;
    private String savedGate;

    @BeforeEach
    void pipelineOn() {
        savedDepth = System.setProperty(SyncTuning.ADAPTIVE_PIPELINE, Integer.toString(DEPTH));
        savedGate = System.setProperty(SyncTuning.ADAPTIVE_OVERLAP_GATE, "false");
    }

    @AfterEach
    void pipelineRestored() {
        TestLogs.restoreProperty(SyncTuning.ADAPTIVE_PIPELINE, savedDepth);
        TestLogs.restoreProperty(SyncTuning.ADAPTIVE_OVERLAP_GATE, savedGate);
    }

    private static CommitLogConfig.Builder config(Path directory) {
        return TestLogs.config(directory, SyncMode.ADAPTIVE).segmentSize(TestLogs.SMALL_SEGMENT);
    }

    /**
     * Power loss among overlapping flushes: SimulatedPowerLossTest's scenario (crash images at
     * random moments and at flush events, every acknowledged record present and byte-identical at
     * its position, nothing invented, only torn tails reported, appends resume), plus images taken
     * when a flush starts while others run and when a later range has become durable before an
     * earlier one (the hole held open a millisecond). Mixed: half the threads append asynchronously
     * (a completion acknowledges), half wait; only the waiting ones flush inline, and several
     * flushing threads are what makes flushes overlap (the sync thread alone runs one at a time).
     */
    @ParameterizedTest(name = "mixed async = {0}")
    @ValueSource(booleans = {false, true})
    void everyAcknowledgedRecordSurvivesPowerLossAmongOverlappingFlushes(boolean mixed) throws Exception {
        long seed = SEED + (mixed ? 1 : 0);
        AtomicReference<SlowLaneStorage> lanes = new AtomicReference<>();
        AtomicInteger overlappedStarts = new AtomicInteger();
        AtomicInteger startImages = new AtomicInteger();
        AtomicInteger holeImages = new AtomicInteger();
        SimulatedPowerLossTest.Scenario scenario = new SimulatedPowerLossTest.Scenario(SyncMode.ADAPTIVE, mixed, seed, dir, 120)
                .over((disk, capture) -> {
                    SlowLaneStorage slow = new SlowLaneStorage(disk, MAX_DELAY_MICROS);
                    slow.onOverlap(what -> {
                        if (what.startsWith("hole") ? holeImages.getAndIncrement() < HOLE_IMAGES
                                : overlappedStarts.incrementAndGet() % 4 == 0 && startImages.getAndIncrement() < START_IMAGES) {
                            capture.accept(what);
                        }
                    });
                    lanes.set(slow);
                    return slow;
                });
        if (mixed) {
            scenario.mixed();
        }
        SimulatedPowerLossTest.Counts counts = scenario.run();
        SlowLaneStorage slow = lanes.get();
        int holes = Math.min(HOLE_IMAGES, holeImages.get());
        int starts = Math.min(START_IMAGES, startImages.get());
        System.out.printf("pipelined power loss (mixed %s): %s; of them %d at overlapped flush starts and %d at holes; "
                        + "up to %d flushes at once, %d overlapped starts, %d flushes overtaken (seed %d)%n", mixed, counts, starts, holes,
                slow.maxRunning(), slow.overlappedStarts(), slow.holes(), seed);
        assertTrue(counts.images >= 100, () -> "too few images: " + counts);
        assertOverlapped(slow);
        assertTrue(holes >= 10, "too few images with a later range durable before an earlier one: " + holes);
        assertTrue(starts >= 10, "too few images at overlapped flush starts: " + starts);
    }

    /**
     * A flush fails while others are in flight. Once the failure has been thrown to an appender the
     * durable position never moves again, and no acknowledged record lies past it; no append that
     * starts after the failure was thrown returns; at most depth - 1 flushes after the failed one
     * (in log order) ever run, since none of them can be published; every acknowledged record
     * survives a power loss.
     */
    @Test
    void aFailedFlushAmongOverlappingFlushesAcknowledgesNothingAfterIt() throws Exception {
        int rounds = 8;
        int overlappedFailures = 0;
        int completedAfterFailure = 0;
        int startedBehindAfterFailure = 0;
        for (int round = 0; round < rounds; round++) {
            SimulatedDisk disk = new SimulatedDisk();
            SlowLaneStorage slow = new SlowLaneStorage(disk, MAX_DELAY_MICROS);
            AtomicReference<SlowLaneStorage.Range> failedRange = new AtomicReference<>();
            AtomicInteger startedAtFailure = new AtomicInteger();
            AtomicInteger runningAtFailure = new AtomicInteger();
            AtomicInteger completedAtFailure = new AtomicInteger();
            disk.onFlush(event -> {
                if (event.failed()) {
                    startedAtFailure.set(slow.started().size());
                    runningAtFailure.set(slow.running());
                    completedAtFailure.set(slow.completed());
                    failedRange.set(new SlowLaneStorage.Range(event.file(), event.from(), event.to()));
                }
            });
            Path directory = Files.createDirectories(dir.resolve("failure-" + round));
            CommitLog log = CommitLog.open(config(directory).build(), slow, NO_DAMAGE);
            Load load = new Load(log, 6, 100_000);
            load.awaitAcknowledged(200 + 50 * round);
            disk.failNextFlush();
            load.join();
            Thread.sleep(20);
            log.close();
            String what = "round " + round;

            assertEquals(1, disk.failedFlushes(), what);
            assertNull(load.unexpected.get(), () -> what + ": " + load.unexpected.get());
            assertTrue(load.lateAcknowledgments.isEmpty(), () -> what + ": appends that started after the failure was thrown returned: "
                    + load.lateAcknowledgments);
            for (Throwable refusal : load.refusals) {
                assertInstanceOf(CommitLogFailedException.class, refusal, what);
            }
            long durable = log.durablePosition();
            assertEquals(load.durableAtFirstRefusal.get(), durable, what + ": the durable position moved after the failure was thrown");
            List<SlowLaneStorage.Range> started = slow.started();
            List<SlowLaneStorage.Range> behind = started.stream().filter(r -> r.after(failedRange.get())).toList();
            assertTrue(behind.size() <= DEPTH - 1, what + ": " + behind.size() + " flushes after the failed " + failedRange.get()
                    + " ran, more than the pipeline has room for beside it: " + behind);
            startedBehindAfterFailure += (int) started.subList(startedAtFailure.get(), started.size()).stream()
                    .filter(r -> r.after(failedRange.get())).count();
            for (Map.Entry<Long, byte[]> acknowledged : load.acknowledged.entrySet()) {
                long end = acknowledged.getKey() + RecordDescriptor.alignedFrameLength(acknowledged.getValue().length);
                assertTrue(end <= durable, what + ": a record acknowledged at " + acknowledged.getKey() + " ends at " + end
                        + ", past " + durable + ", the durable position when the failure was thrown");
            }
            assertSurvivesPowerLoss(disk, load.acknowledged, what);
            if (runningAtFailure.get() >= 2) {
                overlappedFailures++;
            }
            completedAfterFailure += slow.completed() - completedAtFailure.get();
            assertOverlapped(slow);
        }
        System.out.printf("pipelined flush failure: %d of %d rounds failed a flush while others ran; %d flushes completed after a"
                + " failed one; %d flushes behind a failed one started after it failed%n", overlappedFailures, rounds,
                completedAfterFailure, startedBehindAfterFailure);
        assertTrue(overlappedFailures > 0, "the failed flush never ran alongside another");
    }

    /**
     * The disk fills up while several flushes are in flight: each retries its own write, appends
     * wait, nothing is acknowledged and the durable position stands still while the disk is full,
     * a power loss then keeps everything acknowledged; once space is freed every append is
     * acknowledged and the reopened log replays exactly them, with no damage.
     */
    @Test
    void appendsWaitWhileTheDiskIsFullWithFlushesInFlightAndResumeOnceSpaceIsFreed() throws Exception {
        int perThread = 400;
        FullUnderLoad full = fullUnderLoad(perThread);
        SimulatedDisk disk = full.disk();
        SlowLaneStorage slow = full.slow();
        CommitLog log = full.log();
        Load load = full.load();
        int acknowledgedWhenFull = load.acknowledged.size();
        long durableWhenFull = log.durablePosition();
        int failuresWhenFull = disk.noSpaceFailures();
        Thread.sleep(300);
        assertEquals(acknowledgedWhenFull, load.acknowledged.size(), "nothing is acknowledged while the disk is full");
        assertEquals(durableWhenFull, log.durablePosition(), "the durable position stands still while the disk is full");
        assertTrue(disk.noSpaceFailures() > failuresWhenFull, "the writes are retried while the disk is full");
        assertTrue(load.allAlive(), "appenders wait while the disk is full");
        assertSurvivesPowerLoss(disk, load.acknowledged, "power loss while the disk is full");

        disk.freeSpace();
        load.join();
        assertNull(load.unexpected.get(), () -> "an appender failed: " + load.unexpected.get());
        assertTrue(load.refusals.isEmpty(), () -> "an append was refused: " + load.refusals);
        assertEquals(6 * perThread, load.acknowledged.size(), "every append is acknowledged once space is freed");
        log.close();
        assertOverlapped(slow);
        System.out.printf("pipelined disk full: %d flushes in flight found it full, %d write retries%n", slow.distinctFullFlushes(),
                disk.noSpaceFailures());
        Path reopen = Files.createDirectories(dir.resolve("reopen"));
        try (CommitLog reopened = CommitLog.open(config(reopen).replayPolicy(ReplayPolicy.STRICT).build(),
                disk.crashImage(new Random(1), SimulatedDisk.Loss.NONE), NO_DAMAGE)) {
            TestLogs.assertReplaysExactly(load.acknowledged, TestLogs.replayAll(reopened), "reopened after the disk was full");
        }
    }

    /** Closing while the disk is full with several flushes in flight gives up: the waiters get an exception, nothing hangs. */
    @Test
    void closingWhileTheDiskIsFullWithFlushesInFlightFailsTheWaiters() throws Exception {
        FullUnderLoad full = fullUnderLoad(100_000);
        Load load = full.load();
        Map<Long, byte[]> acknowledgedWhenFull = new HashMap<>(load.acknowledged);
        long started = System.nanoTime();
        full.log().close();
        long closeMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started);
        assertTrue(closeMillis < 3_000, "close does not wait for space: " + closeMillis + " ms");
        load.join();
        assertNull(load.unexpected.get(), () -> "an appender failed oddly: " + load.unexpected.get());
        assertEquals(6, load.refusals.size(), "every waiting appender was told");
        for (Throwable refusal : load.refusals) {
            assertTrue(refusal instanceof CommitLogException || TestLogs.isClosedRefusal(refusal), () -> "unexpected refusal " + refusal);
        }
        assertEquals(acknowledgedWhenFull, load.acknowledged, "nothing was acknowledged after the disk filled up");
        assertOverlapped(full.slow());
        full.disk().freeSpace();
        assertSurvivesPowerLoss(full.disk(), load.acknowledged, "after close while full");
    }

    /**
     * A flush fails for good (EIO) while other flushes in flight wait for space. Nothing they write
     * can ever be published after that, so they must stop: the log failed, its waiting appenders
     * are told at once (not when space comes back or the log is closed), and nothing more reaches
     * the disk, as after any failed flush.
     */
    @Test
    void aFailedFlushStopsTheOtherFlushesWaitingForSpace() throws Exception {
        FullUnderLoad full = fullUnderLoad(100_000);
        SimulatedDisk disk = full.disk();
        SlowLaneStorage slow = full.slow();
        CommitLog log = full.log();
        Load load = full.load();
        try {
            Map<Long, byte[]> acknowledgedWhenFull = new HashMap<>(load.acknowledged);
            slow.failNextFlush("Input/output error"); // the next retry to reach the device
            TestLogs.waitUntil(() -> !load.refusals.isEmpty(), "the failure is thrown to an appender");
            Thread.sleep(600); // longer than the longest back-off between two retries of a full disk
            int attempts = slow.started().size();
            Thread.sleep(600);
            assertEquals(attempts, slow.started().size(), "flushes still retry a full disk after a flush failed for good");
            load.join(1_000, "still waiting for its flush after the log failed, while the disk stays full");
            assertNull(load.unexpected.get(), () -> "an appender failed oddly: " + load.unexpected.get());
            for (Throwable refusal : load.refusals) {
                assertInstanceOf(CommitLogFailedException.class, refusal);
            }
            assertEquals(acknowledgedWhenFull, load.acknowledged, "nothing was acknowledged after the disk filled up");
        } finally {
            disk.freeSpace();
            log.close();
            load.join();
        }
        assertSurvivesPowerLoss(disk, load.acknowledged, "after a failure while full");
    }

    /**
     * Close while several flushes are in flight (held on the device): close waits for them instead
     * of unmapping segments under them, publishes them and flushes what was published behind them,
     * so every appender that was waiting is acknowledged and its record is durable.
     */
    @Test
    void closeWithFlushesInFlightWaitsForThemAndLeavesEveryAcknowledgedRecordDurable() throws Exception {
        SimulatedDisk disk = new SimulatedDisk();
        SlowLaneStorage slow = new SlowLaneStorage(disk, 0);
        Path directory = Files.createDirectories(dir.resolve("close"));
        CommitLog log = CommitLog.open(config(directory).build(), slow, NO_DAMAGE);
        Map<Long, byte[]> acknowledged = new ConcurrentHashMap<>();
        for (int seq = 0; seq < 20; seq++) {
            byte[] bytes = record(9, seq);
            acknowledged.put(log.append(bytes, 0, bytes.length), bytes);
        }
        disk.blockFlushes();
        int threads = 6;
        Load load = new Load(log, threads, 100_000);
        TestLogs.waitUntil(() -> slow.running() >= 2 && load.allWaiting(), "several flushes held in flight, every appender waiting");
        Thread.sleep(20);
        int held = slow.running();
        assertTrue(load.acknowledged.isEmpty());
        AtomicBoolean closed = new AtomicBoolean();
        Thread closer = new Thread(() -> {
            log.close();
            closed.set(true);
        }, "closer");
        closer.start();
        Thread.sleep(200);
        assertFalse(closed.get(), "close returned while flushes were still writing segments it unmaps");
        assertEquals(held, slow.running(), "the held flushes are still in flight");
        disk.releaseFlushes();
        closer.join(10_000);
        assertTrue(closed.get(), "close returned once the flushes finished");
        load.join();
        assertNull(load.unexpected.get(), () -> "an appender failed: " + load.unexpected.get());
        assertEquals(threads, load.acknowledged.size(), "every appender waiting at close is acknowledged: " + load.refusals);
        assertEquals(threads, load.refusals.size());
        for (Throwable refusal : load.refusals) {
            assertTrue(TestLogs.isClosedRefusal(refusal), () -> "the next append is refused because the log is closed, not " + refusal);
        }
        acknowledged.putAll(load.acknowledged);
        assertTrue(log.durablePosition() >= load.acknowledgedEnd(), "the durable position covers every acknowledged record");
        Path reopen = Files.createDirectories(dir.resolve("reopen"));
        try (CommitLog reopened = CommitLog.open(config(reopen).replayPolicy(ReplayPolicy.STRICT).build(),
                disk.crashImage(new Random(2), SimulatedDisk.Loss.NONE), NO_DAMAGE)) {
            TestLogs.assertReplaysExactly(acknowledged, TestLogs.replayAll(reopened), "reopened after close");
        }
    }

    /** The pipeline really ran: flushes overlapped. */
    private static void assertOverlapped(SlowLaneStorage slow) {
        assertTrue(slow.maxRunning() >= 2, "flushes never overlapped: the pipeline did not run");
    }

    /** A pipelined log under load whose disk has filled up with several flushes in flight. */
    private record FullUnderLoad(SimulatedDisk disk, SlowLaneStorage slow, CommitLog log, Load load) {
    }

    /** Opens a log, starts 6 appenders of {@code perThread} records each, and fills the disk up once 300 are acknowledged. */
    private FullUnderLoad fullUnderLoad(int perThread) throws Exception {
        SimulatedDisk disk = new SimulatedDisk();
        SlowLaneStorage slow = new SlowLaneStorage(disk, MAX_DELAY_MICROS);
        CommitLog log = CommitLog.open(config(Files.createDirectories(dir.resolve("full"))).build(), slow, NO_DAMAGE);
        Load load = new Load(log, 6, perThread);
        load.awaitAcknowledged(300);
        fillUpWithFlushesInFlight(disk, slow);
        return new FullUnderLoad(disk, slow, log, load);
    }

    /**
     * Fills the disk up at a flush's write step while another flush is on its way to the device,
     * so that at least two flushes in flight find it full; waits until they have been retried.
     */
    private static void fillUpWithFlushesInFlight(SimulatedDisk disk, SlowLaneStorage slow) throws Exception {
        disk.fillUpWhen(range -> slow.pending() > 0);
        TestLogs.waitUntil(() -> slow.distinctFullFlushes() >= 2 && disk.noSpaceFailures() >= 8,
                "several flushes in flight find the disk full and retry");
        Thread.sleep(20); // a flush that wrote before the disk filled up returns within microseconds
    }

    /** Under every loss policy: each acknowledged record replays at its position, byte for byte; nothing else but records appended. */
    private void assertSurvivesPowerLoss(SimulatedDisk disk, Map<Long, byte[]> acknowledged, String what) throws Exception {
        Random random = new Random(SEED);
        for (SimulatedDisk.Loss loss : SimulatedDisk.Loss.values()) {
            Path reopen = Files.createDirectories(dir.resolve("crash-" + System.nanoTime()));
            try (CommitLog reopened = CommitLog.open(config(reopen).build(), disk.crashImage(random, loss), TAIL_ONLY)) {
                Map<Long, byte[]> replayed = new HashMap<>();
                for (TestLogs.Entry entry : TestLogs.replayAll(reopened)) {
                    ByteBuffer b = ByteBuffer.wrap(entry.payload());
                    assertArrayEquals(record(b.getInt(), b.getInt()), entry.payload(), what + ", " + loss + ": a record never appended");
                    replayed.put(entry.position(), entry.payload());
                }
                for (Map.Entry<Long, byte[]> record : acknowledged.entrySet()) {
                    assertArrayEquals(record.getValue(), replayed.get(record.getKey()), what + ", " + loss
                            + ": the record acknowledged at " + record.getKey() + " is lost or damaged");
                }
            }
        }
    }

    /**
     * Appender threads, each appending its records (thread, seq) one after another, waiting for each
     * (Adaptive: flushing it inline, or waiting for a flush that covers it), until an append throws.
     */
    private static final class Load {
        final Map<Long, byte[]> acknowledged = new ConcurrentHashMap<>();
        /** The first exception each thread got from append; it stops there. */
        final ConcurrentLinkedQueue<Throwable> refusals = new ConcurrentLinkedQueue<>();
        /** The durable position read right after the first refusal was thrown. */
        final AtomicLong durableAtFirstRefusal = new AtomicLong(-1);
        /** Appends that started after some append had been refused, and returned. */
        final ConcurrentLinkedQueue<Long> lateAcknowledgments = new ConcurrentLinkedQueue<>();
        final AtomicReference<Throwable> unexpected = new AtomicReference<>();
        private final AtomicBoolean refused = new AtomicBoolean();
        private final List<Thread> threads = new ArrayList<>();
        private final CountDownLatch started;

        Load(CommitLog log, int count, int perThread) throws InterruptedException {
            started = new CountDownLatch(count);
            for (int t = 0; t < count; t++) {
                int thread = t;
                Thread appender = new Thread(() -> append(log, thread, perThread), "appender-" + t);
                appender.setDaemon(true);
                threads.add(appender);
                appender.start();
            }
            started.await();
        }

        private void append(CommitLog log, int thread, int perThread) {
            started.countDown();
            for (int seq = 0; seq < perThread; seq++) {
                byte[] bytes = record(thread, seq);
                boolean refusedBefore = refused.get();
                long position;
                try {
                    position = log.append(bytes, 0, bytes.length);
                } catch (CommitLogException | IllegalStateException e) {
                    durableAtFirstRefusal.compareAndSet(-1, log.durablePosition());
                    refused.set(true);
                    refusals.add(e);
                    return;
                } catch (Throwable e) {
                    unexpected.compareAndSet(null, e);
                    return;
                }
                acknowledged.put(position, bytes);
                if (refusedBefore) {
                    lateAcknowledgments.add(position);
                }
            }
        }

        void awaitAcknowledged(int count) throws Exception {
            TestLogs.waitUntil(() -> acknowledged.size() >= count || !refusals.isEmpty() || unexpected.get() != null,
                    count + " acknowledged appends");
            assertNull(unexpected.get());
            assertTrue(refusals.isEmpty(), () -> "an append was refused under load: " + refusals);
        }

        boolean allAlive() {
            return threads.stream().allMatch(Thread::isAlive);
        }

        boolean allWaiting() {
            return threads.stream().allMatch(WaitingThreads::isWaiting);
        }

        long acknowledgedEnd() {
            long end = 0;
            for (Map.Entry<Long, byte[]> record : acknowledged.entrySet()) {
                end = Math.max(end, record.getKey() + RecordDescriptor.alignedFrameLength(record.getValue().length));
            }
            return end;
        }

        void join() throws InterruptedException {
            join(10_000, "is still appending");
        }

        /** Waits up to {@code millis} in all for every appender to finish; fails naming the first that did not. */
        void join(long millis, String problem) throws InterruptedException {
            long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(millis);
            for (Thread thread : threads) {
                thread.join(Math.max(1, TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime())));
                assertFalse(thread.isAlive(), () -> thread.getName() + " " + problem + ": " + stackOf(thread));
            }
        }

        private static String stackOf(Thread thread) {
            StringBuilder stack = new StringBuilder();
            for (StackTraceElement frame : thread.getStackTrace()) {
                stack.append("\n\tat ").append(frame);
            }
            return stack.toString();
        }
    }
}
