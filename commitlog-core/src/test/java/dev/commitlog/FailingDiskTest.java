package dev.commitlog;

import static dev.commitlog.SimulatedPowerLossTest.record;
import static dev.commitlog.TestLogs.NO_DAMAGE;
import static dev.commitlog.TestLogs.TAIL_ONLY;
import static dev.commitlog.TestLogs.smallSegmentConfig;
import static org.junit.jupiter.api.Assertions.*;

import dev.commitlog.config.SyncMode;
import dev.commitlog.format.RecordDescriptor;
import dev.commitlog.format.SegmentDescriptor;
import dev.commitlog.io.SimulatedDisk;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Failing disks (PostgreSQL "fsyncgate"): a flush that fails fails the appends waiting on it and
 * every append after it, is never retried, and the log reopens over what the device really holds.
 * A full disk when a segment must be created refuses the append with a clear message and
 * acknowledges nothing it did not write; appends succeed again once space is back.
 */
class FailingDiskTest {

    @TempDir
    Path dir;

    @ParameterizedTest
    @EnumSource(value = SyncMode.class, names = {"BATCH", "GROUP"})
    void failedFlushFailsItsWaitersAndLaterAppendsAndIsNeverRetried(SyncMode mode) throws Exception {
        SimulatedDisk disk = new SimulatedDisk();
        List<TestLogs.Entry> acknowledged = new ArrayList<>();
        CommitLog log = CommitLog.open(smallSegmentConfig(Files.createDirectories(dir.resolve("live")), mode), disk, NO_DAMAGE);
        for (int seq = 0; seq < 10; seq++) {
            byte[] bytes = record(0, seq);
            // a fresh copy to compare with: append must not have changed the caller's bytes
            acknowledged.add(new TestLogs.Entry(log.append(bytes, 0, bytes.length), record(0, seq)));
        }
        long durableBefore = log.durablePosition();

        disk.blockFlushes();
        int waiters = 4;
        List<Thread> threads = new ArrayList<>();
        ConcurrentLinkedQueue<Object> outcomes = new ConcurrentLinkedQueue<>();
        for (int t = 1; t <= waiters; t++) {
            int thread = t;
            threads.add(new Thread(() -> {
                try {
                    byte[] bytes = record(thread, 0);
                    outcomes.add(log.append(bytes, 0, bytes.length));
                } catch (Throwable e) {
                    outcomes.add(e);
                }
            }));
        }
        threads.forEach(Thread::start);
        assertTrue(disk.awaitFlushBlocked(5_000), "a flush of the new appends started");
        WaitingThreads.awaitWaiting("an appender", threads);
        disk.failNextFlush();
        disk.releaseFlushes();
        for (Thread thread : threads) {
            thread.join(5_000);
            assertFalse(thread.isAlive(), "an appender is still waiting after the flush failed");
        }
        assertEquals(waiters, outcomes.size());
        for (Object outcome : outcomes) {
            assertInstanceOf(CommitLogFailedException.class, outcome, "an append waiting on the failed flush must fail, got " + outcome);
        }
        assertEquals(1, disk.failedFlushes());
        int flushCallsAtFailure = disk.flushCalls();
        assertEquals(durableBefore, log.durablePosition(), "the durable position does not move past a failed flush");

        long started = System.nanoTime();
        byte[] late = record(9, 0);
        assertThrows(CommitLogFailedException.class, () -> log.append(late, 0, late.length));
        assertThrows(CommitLogFailedException.class, log::sync);
        assertTrue(System.nanoTime() - started < TimeUnit.SECONDS.toNanos(1), "appends after a failure throw at once");
        Thread.sleep(50);
        log.close();
        assertEquals(flushCallsAtFailure, disk.flushCalls(), "nothing was flushed after the failed flush: it was not retried");

        // Reopen over what the device holds: the durable image, with or without unflushed sectors.
        Random random = new Random(7);
        for (SimulatedDisk.Loss loss : SimulatedDisk.Loss.values()) {
            for (int round = 0; round < 4; round++) {
                Path reopen = Files.createDirectories(dir.resolve("reopen-" + loss + "-" + round));
                try (CommitLog reopened = CommitLog.open(smallSegmentConfig(reopen, mode), disk.crashImage(random, loss), TAIL_ONLY)) {
                    List<TestLogs.Entry> entries = TestLogs.replayAll(reopened);
                    TestLogs.assertReplayBeginsWith(acknowledged, entries, loss.toString());
                    for (TestLogs.Entry extra : entries.subList(acknowledged.size(), entries.size())) {
                        ByteBuffer b = ByteBuffer.wrap(extra.payload());
                        int thread = b.getInt();
                        assertTrue(thread >= 1 && thread <= waiters, loss + ": only the failed appends may reappear");
                        assertArrayEquals(record(thread, b.getInt()), extra.payload(), loss.toString());
                    }
                    byte[] bytes = record(20, 0);
                    long position = reopened.append(bytes, 0, bytes.length);
                    reopened.sync();
                    assertArrayEquals(bytes, TestLogs.replayFrom(reopened, position).get(0).payload());
                }
            }
        }
    }

    /**
     * A flush fails at a random moment under load: once the failure has been thrown to one
     * appender, no append that starts later returns and the durable position never moves again;
     * in Batch and Group every acknowledged record lies below the durable position as it was when
     * the flush failed. Adaptive runs flushes concurrently: a flush claimed before the failure
     * (at most pipeline depth - 1 of them) may still finish, and be published if it precedes the
     * failed one, before the failing thread records the failure; nothing claimed after it runs.
     *
     * <p>The fault is armed by the appender whose acknowledgement is the round's n-th, not by a
     * timer: on a stalled or fast machine a timer let appenders use up every record first.
     */
    @ParameterizedTest
    @EnumSource(SyncMode.class)
    void flushFailingUnderLoadAcknowledgesNothingAfterIt(SyncMode mode) throws Exception {
        for (int round = 0; round < 5; round++) {
            SimulatedDisk disk = new SimulatedDisk();
            AtomicLong durableAtFailure = new AtomicLong(-1);
            AtomicInteger flushCallsAtFailure = new AtomicInteger(-1);
            AtomicBoolean failed = new AtomicBoolean();
            AtomicBoolean failureThrown = new AtomicBoolean();
            AtomicLong durableWhenThrown = new AtomicLong(-1);
            AtomicReference<CommitLog> live = new AtomicReference<>();
            disk.onFlush(event -> {
                if (event.failed()) {
                    durableAtFailure.set(live.get().durablePosition());
                    flushCallsAtFailure.set(disk.flushCalls());
                    failed.set(true);
                }
            });
            Path directory = Files.createDirectories(dir.resolve("load-" + round));
            CommitLog log = CommitLog.open(smallSegmentConfig(directory, mode), disk, NO_DAMAGE);
            live.set(log);
            int threads = 4;
            long[][] positions = new long[threads][100_000];
            int[] acked = new int[threads];
            AtomicReference<Throwable> problem = new AtomicReference<>();
            AtomicInteger acknowledged = new AtomicInteger();
            int failAfter = 10 << (2 * round); // 10, 40, 160, 640, 2,560 acknowledgements
            List<Thread> appenders = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                int thread = t;
                appenders.add(new Thread(() -> {
                    for (int seq = 0; seq < positions[thread].length; seq++) {
                        byte[] bytes = record(thread, seq);
                        boolean failedBefore = failureThrown.get();
                        try {
                            positions[thread][seq] = log.append(bytes, 0, bytes.length);
                            acked[thread] = seq + 1;
                            if (acknowledged.incrementAndGet() == failAfter) {
                                disk.failNextFlush();
                            }
                        } catch (CommitLogFailedException e) {
                            durableWhenThrown.compareAndSet(-1, log.durablePosition());
                            failureThrown.set(true);
                            return;
                        } catch (Throwable e) {
                            problem.compareAndSet(null, e);
                            return;
                        }
                        if (failedBefore) {
                            problem.compareAndSet(null, new AssertionError(mode + ": an append that started after another got CommitLogFailedException returned"));
                            return;
                        }
                    }
                    problem.compareAndSet(null, new AssertionError(mode + ": ran out of records; the flush armed after "
                            + failAfter + " acknowledgements never failed"));
                }));
            }
            appenders.forEach(Thread::start);
            for (Thread appender : appenders) {
                appender.join(10_000);
                assertFalse(appender.isAlive());
            }
            assertNull(problem.get(), () -> "round problem: " + problem.get());
            assertTrue(failed.get());
            Thread.sleep(20);
            log.close();
            long durable = log.durablePosition();
            assertEquals(durableWhenThrown.get(), durable, "the durable position moved after the failure was thrown");
            assertEquals(flushCallsAtFailure.get(), disk.flushCalls(), "a flush was issued after the failed one");
            assertEquals(durableAtFailure.get(), durable, "the durable position moved after the failure");
            if (mode != SyncMode.PERIODIC) {
                for (int t = 0; t < threads; t++) {
                    for (int seq = 0; seq < acked[t]; seq++) {
                        long end = positions[t][seq] + RecordDescriptor.alignedFrameLength(record(t, seq).length);
                        assertTrue(end <= durable, mode + ": record (" + t + ", " + seq + ") was acknowledged but ends at "
                                + end + ", past " + durable + ", the durable position when the failure was thrown");
                    }
                }
            }
            try (CommitLog reopened = CommitLog.open(smallSegmentConfig(directory, mode), disk.crashImage(new Random(round), SimulatedDisk.Loss.NONE),
                    TAIL_ONLY)) { // a frame written into a flushed page while a flush's pwrite copied it may be torn
                Set<Long> present = new HashSet<>();
                for (TestLogs.Entry entry : TestLogs.replayAll(reopened)) {
                    present.add(entry.position());
                }
                for (int t = 0; t < threads; t++) {
                    for (int seq = 0; seq < acked[t]; seq++) {
                        long end = positions[t][seq] + RecordDescriptor.alignedFrameLength(record(t, seq).length);
                        if (end <= durable) {
                            assertTrue(present.contains(positions[t][seq]), mode + ": durable record (" + t + ", " + seq + ") lost");
                        }
                    }
                }
            }
        }
    }

    @ParameterizedTest
    @EnumSource(SyncMode.class)
    void diskFullOnSegmentCreationRefusesTheAppendUntilSpaceIsBack(SyncMode mode) throws Exception {
        SimulatedDisk disk = new SimulatedDisk();
        Path directory = Files.createDirectories(dir.resolve("live"));
        List<TestLogs.Entry> acknowledged = new ArrayList<>();
        Set<String> refused = new HashSet<>();
        try (CommitLog log = CommitLog.open(smallSegmentConfig(directory, mode), disk, NO_DAMAGE)) {
            // The allocator prepares segment 1 at open; let it, then fill the disk.
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
            while (!disk.fileNames().contains(SegmentDescriptor.fileName(1)) && System.nanoTime() < deadline) {
                Thread.sleep(1);
            }
            assertTrue(disk.fileNames().contains(SegmentDescriptor.fileName(1)));
            disk.failCreates("No space left on device");

            CommitLogException full = null;
            for (int seq = 0; seq < 1_000 && full == null; seq++) {
                byte[] bytes = bigRecord(seq);
                try {
                    acknowledged.add(new TestLogs.Entry(log.append(bytes, 0, bytes.length), bytes));
                } catch (CommitLogException e) {
                    full = e;
                    refused.add(new String(bytes, 0, 12, java.nio.charset.StandardCharsets.US_ASCII));
                }
            }
            assertNotNull(full, "the disk filled up");
            assertFalse(full instanceof CommitLogFailedException, "a full disk refuses an append; it does not fail the log");
            assertTrue(full.getMessage().contains("No space left on device"), full.getMessage());
            assertTrue(full.getMessage().contains(SegmentDescriptor.fileName(2)), full.getMessage());
            assertTrue(acknowledged.size() > 64, "segments 0 and 1 were filled first");
            long durable = log.durablePosition();

            // Still full: refused again, and again nothing is written.
            for (int i = 0; i < 3; i++) {
                byte[] bytes = bigRecord(5_000 + i);
                CommitLogException again = assertThrows(CommitLogException.class, () -> log.append(bytes, 0, bytes.length));
                assertTrue(again.getMessage().contains("No space left on device"), again.getMessage());
                refused.add(new String(bytes, 0, 12, java.nio.charset.StandardCharsets.US_ASCII));
            }
            log.sync();
            assertTrue(log.durablePosition() >= durable);

            disk.clearCreateFault();
            for (int seq = 10_000; seq < 10_100; seq++) {
                byte[] bytes = bigRecord(seq);
                acknowledged.add(new TestLogs.Entry(log.append(bytes, 0, bytes.length), bytes));
            }
            log.sync();
            assertReplaysExactly(TestLogs.replayAll(log), acknowledged, refused, "live");
        }
        Random random = new Random(11);
        for (SimulatedDisk.Loss loss : SimulatedDisk.Loss.values()) {
            Path reopen = Files.createDirectories(dir.resolve("reopen-" + loss));
            try (CommitLog reopened = CommitLog.open(smallSegmentConfig(reopen, mode), disk.crashImage(random, loss), NO_DAMAGE)) {
                assertReplaysExactly(TestLogs.replayAll(reopened), acknowledged, refused, loss.toString());
            }
        }
    }

    /** Exactly the acknowledged records replay, in order, and none that was refused. */
    private static void assertReplaysExactly(List<TestLogs.Entry> entries, List<TestLogs.Entry> acknowledged, Set<String> refused,
                                             String what) {
        TestLogs.assertReplaysExactly(acknowledged, entries, what);
        for (TestLogs.Entry entry : entries) {
            String key = new String(entry.payload(), 0, 12, java.nio.charset.StandardCharsets.US_ASCII);
            assertFalse(refused.contains(key), what + ": a refused record replays: " + key);
        }
    }

    /** About 1 KiB, starting with a 12-character decimal id. */
    private static byte[] bigRecord(int seq) {
        byte[] bytes = new byte[1_000];
        byte[] id = String.format("%012d", seq).getBytes(java.nio.charset.StandardCharsets.US_ASCII);
        System.arraycopy(id, 0, bytes, 0, id.length);
        for (int i = id.length; i < bytes.length; i++) {
            bytes[i] = (byte) (seq * 13 + i);
        }
        return bytes;
    }

}
