package dev.commitlog;

import static org.junit.jupiter.api.Assertions.*;

import dev.commitlog.config.CommitLogConfig;
import dev.commitlog.config.SyncMode;
import dev.commitlog.io.SimulatedDisk;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** {@code appendAsync}: completes after the covering flush, in position order, and never after a failed flush. */
class AsyncAppendTest {
    @TempDir
    Path dir;

    /** Records each completion with the durable position seen at that moment. */
    private static final class Recorder implements AppendCallback {
        final CommitLog[] log = new CommitLog[1];
        final ConcurrentLinkedQueue<long[]> durable = new ConcurrentLinkedQueue<>();
        final ConcurrentLinkedQueue<Long> failed = new ConcurrentLinkedQueue<>();
        final AtomicLong completed = new AtomicLong();

        @Override
        public void completed(long position, Throwable cause) {
            if (cause == null) {
                durable.add(new long[] {position, log[0].durablePosition()});
            } else {
                failed.add(position);
            }
            completed.incrementAndGet();
        }
    }

    @ParameterizedTest
    @EnumSource(SyncMode.class)
    void completionsFollowTheCoveringFlushInPositionOrderAcrossThreads(SyncMode mode) throws Exception {
        int threads = 4;
        int perThread = 3_000;
        Recorder recorder = new Recorder();
        try (CommitLog log = CommitLog.open(TestLogs.config(dir, mode).segmentSize(TestLogs.SMALL_SEGMENT).build())) {
            recorder.log[0] = log;
            List<Thread> submitters = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                int id = t;
                Thread submitter = new Thread(() -> {
                    for (int i = 0; i < perThread; i++) {
                        byte[] payload = TestLogs.payload(id * perThread + i, 40);
                        log.appendAsync(payload, 0, payload.length, recorder);
                    }
                });
                submitters.add(submitter);
                submitter.start();
            }
            for (Thread submitter : submitters) {
                submitter.join();
            }
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (recorder.completed.get() < threads * perThread && System.nanoTime() < deadline) {
                Thread.sleep(5);
            }
            assertEquals(threads * perThread, recorder.durable.size(), "every async append completed normally");
            assertTrue(recorder.failed.isEmpty());
            long previous = -1;
            for (long[] completion : recorder.durable) {
                assertTrue(completion[0] > previous, "completions in position order");
                assertTrue(completion[1] > completion[0], "completed only once the durable position passed the record");
                previous = completion[0];
            }
            assertEquals(threads * perThread, TestLogs.replayAll(log).size());
        }
    }

    @Test
    void noCompletionBeforeTheCoveringFlushReturns() throws Exception {
        SimulatedDisk disk = new SimulatedDisk();
        CommitLogConfig config = TestLogs.config(dir, SyncMode.ADAPTIVE).segmentSize(TestLogs.SMALL_SEGMENT).build();
        try (CommitLog log = CommitLog.open(config, disk, (f, o, p, r, a) -> { })) {
            disk.blockFlushes();
            List<CompletableFuture<Long>> futures = new ArrayList<>();
            for (int i = 0; i < 50; i++) {
                futures.add(log.appendAsync(new byte[16], 0, 16));
            }
            assertTrue(disk.awaitFlushBlocked(5_000), "a flush was asked for without anyone waiting");
            Thread.sleep(50);
            assertTrue(futures.stream().noneMatch(CompletableFuture::isDone), "nothing completes while the flush is held");
            disk.releaseFlushes();
            long last = -1;
            for (CompletableFuture<Long> future : futures) {
                long position = future.get(10, TimeUnit.SECONDS);
                assertTrue(position > last);
                last = position;
            }
            assertTrue(log.durablePosition() > last);
        }
    }

    @Test
    void aBufferAppendCompletesAfterItsFlushAndLeavesTheBufferAlone() throws Exception {
        SimulatedDisk disk = new SimulatedDisk();
        CommitLogConfig config = TestLogs.config(dir, SyncMode.BATCH).segmentSize(TestLogs.SMALL_SEGMENT).build();
        Recorder recorder = new Recorder();
        try (CommitLog log = CommitLog.open(config, disk, (f, o, p, r, a) -> { })) {
            recorder.log[0] = log;
            ByteBuffer direct = ByteBuffer.allocateDirect(64);
            direct.put(TestLogs.payload(1, 64)).position(8).limit(40); // the record is bytes 8..39
            disk.blockFlushes();
            CompletableFuture<Long> future = log.appendAsync(direct);
            long viaCallback = log.appendAsync(ByteBuffer.wrap(TestLogs.payload(2, 24)), recorder);
            assertEquals(8, direct.position(), "the buffer's position is left alone");
            assertEquals(40, direct.limit());
            assertTrue(disk.awaitFlushBlocked(5_000), "a flush was asked for without anyone waiting");
            Thread.sleep(50);
            assertFalse(future.isDone(), "no completion while the flush is held");
            assertEquals(0, recorder.completed.get(), "no callback while the flush is held");
            disk.releaseFlushes();
            long position = future.get(10, TimeUnit.SECONDS);
            assertTrue(log.durablePosition() > position);
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (recorder.completed.get() < 1 && System.nanoTime() < deadline) {
                Thread.sleep(1);
            }
            assertEquals(viaCallback, recorder.durable.peek()[0], "the callback names the record's position");
            assertTrue(recorder.durable.peek()[1] > viaCallback, "and came once the durable position passed it");
            List<TestLogs.Entry> replayed = TestLogs.replayAll(log);
            assertArrayEquals(java.util.Arrays.copyOfRange(TestLogs.payload(1, 64), 8, 40), replayed.get(0).payload());
            assertArrayEquals(TestLogs.payload(2, 24), replayed.get(1).payload());
        }
    }

    @ParameterizedTest
    @EnumSource(value = SyncMode.class, names = {"BATCH", "GROUP", "ADAPTIVE"})
    void aFailedFlushFailsEveryUncoveredAppendAndCompletesNoneAfterIt(SyncMode mode) throws Exception {
        SimulatedDisk disk = new SimulatedDisk();
        CommitLogConfig config = TestLogs.config(dir, mode).segmentSize(TestLogs.SMALL_SEGMENT).build();
        Recorder recorder = new Recorder();
        try (CommitLog log = CommitLog.open(config, disk, (f, o, p, r, a) -> { })) {
            recorder.log[0] = log;
            log.append(new byte[8], 0, 8); // one durable record before the fault
            long durableBefore = log.durablePosition();
            disk.blockFlushes();
            int submitted = 0;
            for (; submitted < 200; submitted++) {
                log.appendAsync(new byte[16], 0, 16, recorder);
            }
            assertTrue(disk.awaitFlushBlocked(5_000));
            disk.failNextFlush();
            disk.releaseFlushes();
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (recorder.completed.get() < submitted && System.nanoTime() < deadline) {
                Thread.sleep(5);
            }
            assertEquals(submitted, recorder.failed.size(), "every append the failed flush did not cover failed");
            assertTrue(recorder.durable.isEmpty(), "nothing completed normally after the failed flush");
            assertEquals(durableBefore, log.durablePosition());
            assertThrows(CommitLogFailedException.class, () -> log.appendAsync(new byte[4], 0, 4, recorder));
            CompletableFuture<Long> future = new CompletableFuture<>();
            assertThrows(CommitLogFailedException.class, () -> log.appendAsync(new byte[4], 0, 4).get());
            assertFalse(future.isDone());
        }
    }

    @Test
    void closeCompletesWhatItFlushed() throws Exception {
        List<CompletableFuture<Long>> futures = new ArrayList<>();
        try (CommitLog log = CommitLog.open(TestLogs.config(dir, SyncMode.PERIODIC).syncPeriod(java.time.Duration.ofHours(1))
                .periodicLagBlock(java.time.Duration.ofHours(2)).build())) {
            for (int i = 0; i < 100; i++) {
                futures.add(log.appendAsync(new byte[16], 0, 16));
            }
            Thread.sleep(20);
            assertTrue(futures.stream().noneMatch(CompletableFuture::isDone), "a periodic log completes on its next flush");
        }
        for (CompletableFuture<Long> future : futures) {
            assertTrue(future.isDone(), "close flushed and completed");
            future.get();
        }
    }

    /** A lambda is a callback: told (position, null) once the record is durable; one object serves every append. */
    @Test
    void aLambdaCallbackIsToldEachDurablePositionWithNoFailure() throws Exception {
        ConcurrentLinkedQueue<long[]> told = new ConcurrentLinkedQueue<>();
        CountDownLatch all = new CountDownLatch(50);
        List<Long> appended = new ArrayList<>();
        try (CommitLog log = CommitLog.open(TestLogs.config(dir, SyncMode.ADAPTIVE).build())) {
            AppendCallback callback = (position, failure) -> {
                told.add(new long[] {position, failure == null ? log.durablePosition() : -1});
                all.countDown();
            };
            for (int i = 0; i < 50; i++) {
                appended.add(log.appendAsync(new byte[16], 0, 16, callback));
            }
            assertTrue(all.await(10, TimeUnit.SECONDS));
        }
        List<Long> positions = new ArrayList<>();
        for (long[] entry : told) {
            positions.add(entry[0]);
            assertTrue(entry[1] > entry[0], "told durable at " + entry[0] + " with the durable position at " + entry[1]);
        }
        assertEquals(appended, positions);
    }

    @Test
    void aThrowingCallbackDoesNotStopLaterCompletions() throws Exception {
        CountDownLatch later = new CountDownLatch(1);
        try (CommitLog log = CommitLog.open(TestLogs.config(dir, SyncMode.BATCH).build())) {
            log.appendAsync(new byte[8], 0, 8, (position, failure) -> {
                throw new IllegalStateException("callback bug (expected in this test)");
            });
            log.appendAsync(new byte[8], 0, 8).thenRun(later::countDown);
            assertTrue(later.await(10, TimeUnit.SECONDS));
        }
    }

    @Test
    void futuresOfAFailedLogCompleteExceptionally() throws Exception {
        SimulatedDisk disk = new SimulatedDisk();
        CommitLogConfig config = TestLogs.config(dir, SyncMode.BATCH).segmentSize(TestLogs.SMALL_SEGMENT).build();
        try (CommitLog log = CommitLog.open(config, disk, (f, o, p, r, a) -> { })) {
            disk.failNextFlush();
            CompletableFuture<Long> future = log.appendAsync(new byte[8], 0, 8);
            ExecutionException e = assertThrows(ExecutionException.class, () -> future.get(10, TimeUnit.SECONDS));
            assertInstanceOf(CommitLogFailedException.class, e.getCause());
        }
    }
}
