package dev.commitlog;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.commitlog.config.SyncMode;
import dev.commitlog.io.ForwardingSegmentFile;
import dev.commitlog.io.ForwardingStorageLayer;
import dev.commitlog.io.SegmentFile;
import dev.commitlog.io.SimulatedDisk;
import java.io.IOException;
import java.nio.file.Path;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.api.io.TempDir;

/**
 * Who flushes, deterministically: an appender that finds nobody flushing flushes in its own thread
 * while the last flush carried at most {@code inlineFlushRecords} records, and hands its flush to
 * the sync thread once a flush carried more (leader/follower with the hand-off). Flushes are held
 * at a gate, so which records each flush carries is fixed by the test, not by timing.
 */
class LeaderFollowerTest {
    private static final int INLINE_RECORDS = 2;
    private static final byte[] RECORD = TestLogs.payload(1, 100);

    @TempDir
    Path dir;

    @ParameterizedTest
    @EnumSource(value = SyncMode.class, names = {"BATCH", "ADAPTIVE"})
    void aLoneWriterFlushesItself(SyncMode mode) throws Exception {
        GatedDevice device = new GatedDevice();
        try (CommitLog log = open(mode, device)) {
            for (int i = 0; i < 200; i++) {
                log.append(RECORD, 0, RECORD.length);
                assertEquals(Thread.currentThread().getName(), device.lastFlusher, "flush " + i);
            }
            assertEquals(200, device.flushes.get());
        }
    }

    @ParameterizedTest
    @EnumSource(value = SyncMode.class, names = {"BATCH", "ADAPTIVE"})
    void aFlushOfMoreRecordsThanTheLimitHandsTheNextToTheSyncThreadAndASmallOneTakesItBack(SyncMode mode) throws Exception {
        GatedDevice device = new GatedDevice();
        try (CommitLog log = open(mode, device)) {
            // A leader's flush of its one record, held at the gate while three more are published.
            device.close();
            Thread leader = appendIn("leader", log);
            awaitTrue(() -> device.waiting.get() == 1, "the leader's flush reaches the gate");
            for (int i = 0; i < INLINE_RECORDS + 1; i++) {
                log.append(RECORD, 0, RECORD.length, Ack.WRITTEN); // asks the sync thread for a flush, waits for none
            }
            device.open();
            leader.join();
            awaitTrue(() -> log.metrics().recordsFlushed() == INLINE_RECORDS + 2, "the sync thread flushes the three");
            assertEquals(2, device.flushes.get());
            assertTrue(device.lastFlusher.startsWith("commitlog-sync-"), "the three were flushed by " + device.lastFlusher);
            awaitSyncThreadParked(); // done publishing: the hand-off choice is made

            // The last flush carried 3 > 2 records: a lone appender now hands its flush off.
            appendIn("after-a-big-flush", log).join();
            assertEquals(3, device.flushes.get());
            assertTrue(device.lastFlusher.startsWith("commitlog-sync-"), "handed off, yet flushed by " + device.lastFlusher);
            awaitSyncThreadParked();

            // That flush carried 1 record: the next appender flushes inline again.
            appendIn("after-a-small-flush", log).join();
            assertEquals(4, device.flushes.get());
            assertEquals("after-a-small-flush", device.lastFlusher);
        }
    }

    private CommitLog open(SyncMode mode, GatedDevice device) throws IOException {
        CommitLogOptions options = CommitLogOptions.builder().storage(device).corruptionListener(TestLogs.NO_DAMAGE).noJmx()
                .syncTuning(SyncTuning.defaults().withInlineFlushRecords(INLINE_RECORDS)).build();
        return CommitLog.open(TestLogs.config(dir, mode).build(), options);
    }

    private static Thread appendIn(String name, CommitLog log) {
        Thread thread = new Thread(() -> log.append(RECORD, 0, RECORD.length), name);
        thread.start();
        return thread;
    }

    /** The sync thread has released the flush role and waits for the next request. */
    private static void awaitSyncThreadParked() throws InterruptedException {
        awaitTrue(() -> Thread.getAllStackTraces().keySet().stream()
                .anyMatch(t -> t.getName().startsWith("commitlog-sync-") && t.getState() == Thread.State.WAITING), "the sync thread parks");
    }

    private static void awaitTrue(BooleanSupplier condition, String what) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (!condition.getAsBoolean()) {
            assertTrue(System.nanoTime() < deadline, "timed out waiting until " + what);
            Thread.sleep(1);
        }
    }

    /**
     * A simulated disk whose record flushes wait at a gate while it is closed, and which remembers
     * which thread ran the last one. Header-only syncs (the exact durable mark at close) pass and
     * are not counted.
     */
    private static final class GatedDevice extends ForwardingStorageLayer {
        final Semaphore gate = new Semaphore(Integer.MAX_VALUE);
        final AtomicInteger flushes = new AtomicInteger();
        final AtomicInteger waiting = new AtomicInteger();
        volatile String lastFlusher = "nobody";

        GatedDevice() {
            super(new SimulatedDisk());
        }

        void close() {
            gate.drainPermits();
        }

        void open() {
            gate.release(Integer.MAX_VALUE / 2);
        }

        @Override
        protected SegmentFile wrap(SegmentFile file) {
            return new ForwardingSegmentFile(file) {
                @Override
                public void flushHeaderAndRange(int headerLength, int from, int to) throws IOException {
                    if (to > from) {
                        lastFlusher = Thread.currentThread().getName();
                        flushes.incrementAndGet();
                        waiting.incrementAndGet();
                        gate.acquireUninterruptibly();
                        gate.release();
                        waiting.decrementAndGet();
                    }
                    super.flushHeaderAndRange(headerLength, from, to);
                }
            };
        }
    }
}
