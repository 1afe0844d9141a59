package dev.commitlog;

import static dev.commitlog.SimulatedPowerLossTest.record;
import static dev.commitlog.TestLogs.NO_DAMAGE;
import static dev.commitlog.TestLogs.TAIL_ONLY;
import static org.junit.jupiter.api.Assertions.*;

import dev.commitlog.config.CommitLogConfig;
import dev.commitlog.config.ReplayPolicy;
import dev.commitlog.config.SyncMode;
import dev.commitlog.io.SimulatedDisk;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * A full disk at flush time (ENOSPC from the write step, possible on copy-on-write and thin
 * filesystems): the write is retried, since nothing was synced and the bytes are still mapped.
 * While the disk is full nothing new is acknowledged and appenders wait; once space is freed they
 * are acknowledged and the log replays exactly what was acknowledged, with no damage. A sync that
 * fails, even with "No space left on device", stays fatal (fsyncgate). See FailingDiskTest for a
 * full disk when a segment is created.
 */
class DiskFullWhileFlushingTest {
    private static final int WAITERS = 4;
    private static final int PER_WAITER = 3;

    @TempDir
    Path dir;

    private static CommitLogConfig.Builder config(Path directory, SyncMode mode) {
        CommitLogConfig.Builder builder = CommitLogConfig.builder(directory).syncMode(mode).segmentSize(TestLogs.SMALL_SEGMENT);
        return switch (mode) {
            case PERIODIC -> builder.syncPeriod(Duration.ofMillis(2)).periodicLagBlock(Duration.ofSeconds(30));
            case GROUP -> builder.groupWindow(Duration.ofMillis(1));
            case BATCH, ADAPTIVE -> builder;
        };
    }

    @ParameterizedTest
    @EnumSource(value = SyncMode.class, names = {"BATCH", "GROUP", "ADAPTIVE"})
    void appendersWaitWhileTheDiskIsFullAndAreAcknowledgedOnceSpaceIsFreed(SyncMode mode) throws Exception {
        SimulatedDisk disk = new SimulatedDisk();
        Path directory = Files.createDirectories(dir.resolve("live"));
        Map<Long, byte[]> acknowledged = new TreeMap<>();
        CommitLog log = CommitLog.open(config(directory, mode).build(), disk, NO_DAMAGE);
        for (int seq = 0; seq < 10; seq++) {
            byte[] bytes = record(0, seq);
            acknowledged.put(log.append(bytes, 0, bytes.length), bytes);
        }
        long durableBefore = log.durablePosition();

        disk.fillUp();
        Map<Long, byte[]> late = new ConcurrentHashMap<>();
        AtomicReference<Throwable> problem = new AtomicReference<>();
        List<Thread> waiters = startWaiters(log, late, problem);
        awaitNoSpaceFailures(disk, 3);
        Thread.sleep(300);
        assertTrue(late.isEmpty(), "nothing is acknowledged while the disk is full: " + late.keySet());
        assertNull(problem.get(), () -> "an appender failed while the disk was full: " + problem.get());
        assertEquals(durableBefore, log.durablePosition(), "the durable position stands still while the disk is full");
        for (Thread waiter : waiters) {
            assertTrue(waiter.isAlive(), "appenders wait while the disk is full");
        }

        // A power loss now: the device holds what was acknowledged, and no damage but a torn tail.
        Random random = new Random(3);
        for (SimulatedDisk.Loss loss : SimulatedDisk.Loss.values()) {
            Path reopen = Files.createDirectories(dir.resolve("full-" + loss));
            boolean clean = loss == SimulatedDisk.Loss.NONE;
            try (CommitLog reopened = CommitLog.open(config(reopen, mode).replayPolicy(clean ? ReplayPolicy.STRICT : ReplayPolicy.TOLERATE_TAIL)
                    .build(), disk.crashImage(random, loss), clean ? NO_DAMAGE : TAIL_ONLY)) {
                List<TestLogs.Entry> entries = TestLogs.replayAll(reopened);
                TestLogs.assertReplayBeginsWith(acknowledged, entries, loss.toString());
                if (clean) {
                    assertEquals(acknowledged.size(), entries.size(), "only flushed records survive");
                }
                for (TestLogs.Entry extra : entries.subList(acknowledged.size(), entries.size())) {
                    ByteBuffer b = ByteBuffer.wrap(extra.payload());
                    int thread = b.getInt();
                    assertTrue(thread >= 1 && thread <= WAITERS, loss + ": only the waiting appends may reappear");
                    assertArrayEquals(record(thread, b.getInt()), extra.payload(), loss.toString());
                }
            }
        }

        disk.freeSpace();
        for (Thread waiter : waiters) {
            waiter.join(10_000);
            assertFalse(waiter.isAlive(), "appenders are acknowledged once space is freed");
        }
        assertNull(problem.get(), () -> "an appender failed: " + problem.get());
        assertEquals(WAITERS * PER_WAITER, late.size());
        acknowledged.putAll(late);
        for (int seq = 0; seq < 10; seq++) {
            byte[] bytes = record(9, seq);
            acknowledged.put(log.append(bytes, 0, bytes.length), bytes);
        }
        TestLogs.assertReplaysExactly(acknowledged, TestLogs.replayAll(log), "live");
        log.close();
        assertReopensExactly(disk, mode, acknowledged);
    }

    @Test
    void periodicAcknowledgesAtOnceButNothingBecomesDurableWhileTheDiskIsFull() throws Exception {
        SimulatedDisk disk = new SimulatedDisk();
        Map<Long, byte[]> appended = new TreeMap<>();
        try (CommitLog log = CommitLog.open(config(Files.createDirectories(dir.resolve("live")), SyncMode.PERIODIC).build(), disk, NO_DAMAGE)) {
            for (int seq = 0; seq < 10; seq++) {
                byte[] bytes = record(0, seq);
                appended.put(log.append(bytes, 0, bytes.length), bytes);
            }
            log.sync();
            long durableBefore = log.durablePosition();
            disk.fillUp();
            for (int seq = 0; seq < 10; seq++) {
                byte[] bytes = record(1, seq);
                appended.put(log.append(bytes, 0, bytes.length), bytes);
            }
            awaitNoSpaceFailures(disk, 2); // periodic flushes are retried too
            assertEquals(durableBefore, log.durablePosition(), "nothing becomes durable while the disk is full");
            disk.freeSpace();
            log.sync();
            TestLogs.assertReplaysExactly(appended, TestLogs.replayAll(log), "live");
        }
        assertReopensExactly(disk, SyncMode.PERIODIC, appended);
    }

    /**
     * The flush that carries a segment's end marker finds the disk full. The retry must flush that
     * segment's end, not move on to the next segment: otherwise the record that rolled over would
     * be acknowledged while the end marker before it was never written, and a crash would cut the
     * log there and lose it.
     */
    @Test
    void theFlushOfAnEndMarkerIsRetriedNotSkipped() throws Exception {
        SimulatedDisk disk = new SimulatedDisk();
        disk.fillUpWhen(range -> range.to() == range.size());
        Map<Long, byte[]> acknowledged = new ConcurrentHashMap<>();
        AtomicReference<Throwable> problem = new AtomicReference<>();
        CommitLog log = CommitLog.open(config(Files.createDirectories(dir.resolve("live")), SyncMode.BATCH).build(), disk, NO_DAMAGE);
        Thread appender = new Thread(() -> {
            try {
                for (int seq = 0; seq < 200; seq++) {
                    byte[] bytes = new byte[1_000];
                    ByteBuffer.wrap(bytes).putInt(seq);
                    acknowledged.put(log.append(bytes, 0, bytes.length), bytes);
                }
            } catch (Throwable e) {
                problem.set(e);
            }
        });
        appender.start();
        awaitNoSpaceFailures(disk, 3); // the end marker's flush was attempted and retried
        Thread.sleep(200);
        assertTrue(appender.isAlive(), "the record after the rollover is not acknowledged while the end marker is not durable");
        assertTrue(log.durablePosition() <= TestLogs.SMALL_SEGMENT, "durable position " + log.durablePosition()
                + " passed the end of the first segment, whose end marker was never flushed");
        try (CommitLog reopened = CommitLog.open(config(Files.createDirectories(dir.resolve("crash")), SyncMode.BATCH).build(),
                disk.crashImage(new Random(5), SimulatedDisk.Loss.NONE), NO_DAMAGE)) {
            TestLogs.assertReplaysExactly(new TreeMap<>(acknowledged), TestLogs.replayAll(reopened), "power loss while the disk is full");
        }

        disk.freeSpace();
        appender.join(10_000);
        assertFalse(appender.isAlive());
        assertNull(problem.get(), () -> "the appender failed: " + problem.get());
        log.close();
        assertEquals(200, acknowledged.size());
        assertReopensExactly(disk, SyncMode.BATCH, new TreeMap<>(acknowledged));
    }

    /** A full disk at the sync itself (writeback found no space) is not retried: the log fails. */
    @Test
    void aSyncThatFailsWithNoSpaceIsFatal() throws Exception {
        SimulatedDisk disk = new SimulatedDisk();
        try (CommitLog log = CommitLog.open(config(Files.createDirectories(dir.resolve("live")), SyncMode.BATCH).build(), disk, NO_DAMAGE)) {
            byte[] bytes = record(0, 0);
            log.append(bytes, 0, bytes.length);
            disk.failNextFlush("No space left on device");
            CommitLogFailedException e = assertThrows(CommitLogFailedException.class, () -> log.append(bytes, 0, bytes.length));
            assertTrue(e.getMessage().contains("No space left on device"), e.getMessage());
            int flushCalls = disk.flushCalls();
            Thread.sleep(50);
            assertThrows(CommitLogFailedException.class, () -> log.append(bytes, 0, bytes.length));
            assertEquals(flushCalls, disk.flushCalls(), "a failed sync is never retried");
            assertEquals(0, disk.noSpaceFailures());
        }
    }

    /** Closing while the disk is full gives up: waiting appenders get an exception, never an acknowledgment. */
    @Test
    void closingWhileTheDiskIsFullFailsTheWaitersInsteadOfHanging() throws Exception {
        SimulatedDisk disk = new SimulatedDisk();
        Map<Long, byte[]> acknowledged = new TreeMap<>();
        CommitLog log = CommitLog.open(config(Files.createDirectories(dir.resolve("live")), SyncMode.BATCH).build(), disk, NO_DAMAGE);
        byte[] first = record(0, 0);
        acknowledged.put(log.append(first, 0, first.length), first);
        disk.fillUp();
        Map<Long, byte[]> late = new ConcurrentHashMap<>();
        AtomicReference<Throwable> problem = new AtomicReference<>();
        List<Thread> waiters = startWaiters(log, late, problem);
        awaitNoSpaceFailures(disk, 2);
        assertNull(problem.get(), () -> "an appender failed before the close: " + problem.get());
        long started = System.nanoTime();
        log.close();
        assertTrue(System.nanoTime() - started < TimeUnit.SECONDS.toNanos(3), "close does not wait for space");
        for (Thread waiter : waiters) {
            waiter.join(5_000);
            assertFalse(waiter.isAlive());
        }
        assertTrue(late.isEmpty(), "nothing was acknowledged: " + late.keySet());
        assertInstanceOf(CommitLogException.class, problem.get(), "the waiting appenders were told: " + problem.get());
        disk.freeSpace();
        assertReopensExactly(disk, SyncMode.BATCH, acknowledged);
    }

    /** Waits (up to 5 s) until flushes failed for want of space {@code count} times: the write is being retried. */
    private static void awaitNoSpaceFailures(SimulatedDisk disk, int count) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        while (disk.noSpaceFailures() < count && System.nanoTime() < deadline) {
            Thread.sleep(1);
        }
        assertTrue(disk.noSpaceFailures() >= count, "the write is retried while the disk is full: " + disk.noSpaceFailures());
    }

    /** {@value #WAITERS} threads, each appending {@value #PER_WAITER} records (thread 1..n, seq) one after another. */
    private static List<Thread> startWaiters(CommitLog log, Map<Long, byte[]> acknowledged, AtomicReference<Throwable> problem) {
        List<Thread> threads = new ArrayList<>();
        for (int t = 1; t <= WAITERS; t++) {
            int thread = t;
            Thread waiter = new Thread(() -> {
                try {
                    for (int seq = 0; seq < PER_WAITER; seq++) {
                        byte[] bytes = record(thread, seq);
                        acknowledged.put(log.append(bytes, 0, bytes.length), bytes);
                    }
                } catch (Throwable e) {
                    if (!TestLogs.isClosedRefusal(e)) {
                        problem.compareAndSet(null, e);
                    } // else this append began after close: refused, never waiting, nothing to check
                }
            }, "waiter-" + t);
            waiter.start();
            threads.add(waiter);
        }
        return threads;
    }

    /** Reopens what the device holds after a clean close, under the strict policy: exactly {@code expected}, no damage. */
    private void assertReopensExactly(SimulatedDisk disk, SyncMode mode, Map<Long, byte[]> expected) throws Exception {
        Path reopen = Files.createDirectories(dir.resolve("reopen-" + System.nanoTime()));
        try (CommitLog reopened = CommitLog.open(config(reopen, mode).replayPolicy(ReplayPolicy.STRICT).build(),
                disk.crashImage(new Random(1), SimulatedDisk.Loss.NONE), NO_DAMAGE)) {
            TestLogs.assertReplaysExactly(expected, TestLogs.replayAll(reopened), "reopened");
            byte[] bytes = record(30, 0);
            long position = reopened.append(bytes, 0, bytes.length);
            reopened.sync();
            assertArrayEquals(bytes, TestLogs.replayFrom(reopened, position).get(0).payload(), "appends work after reopening");
        }
    }
}
