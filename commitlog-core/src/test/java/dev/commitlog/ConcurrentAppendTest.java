package dev.commitlog;

import static dev.commitlog.TestLogs.config;
import static org.junit.jupiter.api.Assertions.*;

import dev.commitlog.config.SyncMode;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** 256 appending threads: every acknowledged record replays exactly once, in position order. */
class ConcurrentAppendTest {
    private static final int THREADS = 256;
    private static final int PER_THREAD = 40;

    @TempDir
    Path dir;

    @ParameterizedTest
    @EnumSource(SyncMode.class)
    void everyRecordFromEveryThreadReplaysExactlyOnceInPositionOrder(SyncMode mode) throws Exception {
        long[][] positions = new long[THREADS][PER_THREAD];
        AtomicReference<Throwable> failure = new AtomicReference<>();
        try (CommitLog log = CommitLog.open(config(dir, mode).segmentSize(TestLogs.SMALL_SEGMENT * 4).build())) {
            CountDownLatch start = new CountDownLatch(1);
            List<Thread> threads = new ArrayList<>();
            for (int t = 0; t < THREADS; t++) {
                int thread = t;
                threads.add(new Thread(() -> {
                    try {
                        start.await();
                        byte[] record = new byte[8 + thread % 50];
                        for (int i = 0; i < PER_THREAD; i++) {
                            ByteBuffer.wrap(record).putInt(thread).putInt(i);
                            positions[thread][i] = log.append(record, 0, record.length);
                        }
                    } catch (Throwable e) {
                        failure.compareAndSet(null, e);
                    }
                }));
            }
            threads.forEach(Thread::start);
            start.countDown();
            for (Thread thread : threads) {
                thread.join();
            }
            assertNull(failure.get(), () -> "an appender failed: " + failure.get());
            if (mode != SyncMode.PERIODIC) {
                long highest = 0;
                for (long[] perThread : positions) {
                    for (long position : perThread) {
                        highest = Math.max(highest, position);
                    }
                }
                assertTrue(log.durablePosition() > highest, "every acknowledged record is below the durable position");
            }
            log.sync();

            List<TestLogs.Entry> replayed = TestLogs.replayAll(log);
            assertEquals(THREADS * PER_THREAD, replayed.size());
            Set<Long> seen = new HashSet<>();
            long previous = -1;
            int[] nextIndex = new int[THREADS];
            for (TestLogs.Entry entry : replayed) {
                assertTrue(entry.position() > previous, "replay is in position order");
                previous = entry.position();
                ByteBuffer payload = ByteBuffer.wrap(entry.payload());
                int thread = payload.getInt();
                int index = payload.getInt();
                assertTrue(seen.add(entry.position()));
                assertEquals(positions[thread][index], entry.position(), "replayed at the position append returned");
                assertEquals(nextIndex[thread]++, index, "one thread's records replay in its append order");
            }
            assertTrue(log.metrics().flushes() > 0);
            assertEquals(THREADS * PER_THREAD, log.metrics().recordsFlushed());
        }
    }
}
