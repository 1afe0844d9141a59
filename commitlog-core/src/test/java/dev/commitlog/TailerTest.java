package dev.commitlog;

import static dev.commitlog.TestLogs.config;
import static dev.commitlog.TestLogs.payload;
import static org.junit.jupiter.api.Assertions.*;

import com.sun.management.ThreadMXBean;
import dev.commitlog.config.CommitLogConfig;
import dev.commitlog.config.SyncMode;
import dev.commitlog.format.SegmentDescriptor;
import dev.commitlog.io.SimulatedDisk;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** The tailing reader: follows appends across rollovers, never past the durable position, through discards and close. */
class TailerTest {
    private static final int COUNT = 3_000;

    @TempDir
    Path dir;

    private static int length(int i) {
        return 20 + i % 400;
    }

    @ParameterizedTest
    @EnumSource(value = SyncMode.class, names = {"BATCH", "PERIODIC"})
    void followsAConcurrentAppenderAcrossRolloversAndNeverPassesTheDurablePosition(SyncMode mode) throws Exception {
        CommitLogConfig.Builder builder = config(dir, mode).segmentSize(TestLogs.SMALL_SEGMENT);
        if (mode == SyncMode.PERIODIC) {
            builder.syncPeriod(Duration.ofMillis(5));
        }
        try (CommitLog log = CommitLog.open(builder.build(), CommitLogOptions.builder().noJmx().build())) {
            long[] positions = new long[COUNT];
            CompletableFuture<Object> appender = TestLogs.inThread(() -> {
                for (int i = 0; i < COUNT; i++) {
                    byte[] record = payload(i, length(i));
                    positions[i] = log.append(record, 0, record.length);
                }
                log.sync();
                return null;
            });
            List<TestLogs.Entry> seen = new ArrayList<>();
            AtomicReference<String> beyondDurable = new AtomicReference<>();
            try (LogTailer tailer = log.tailer(0)) {
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
                while (seen.size() < COUNT && System.nanoTime() < deadline) {
                    tailer.poll((position, payload) -> {
                        // The durable position only grows, so reading it after the record was handed
                        // over still proves the record was durable when it was read.
                        long durable = log.durablePosition();
                        if (position >= durable && beyondDurable.get() == null) {
                            beyondDurable.set("record at " + position + " returned with the durable position at " + durable);
                        }
                        seen.add(new TestLogs.Entry(position, TestLogs.bytes(payload)));
                    }, 100, 50, TimeUnit.MILLISECONDS);
                }
            }
            appender.get(30, TimeUnit.SECONDS);
            assertNull(beyondDurable.get());
            assertEquals(COUNT, seen.size());
            for (int i = 0; i < COUNT; i++) {
                assertEquals(positions[i], seen.get(i).position(), "record " + i);
                assertArrayEquals(payload(i, length(i)), seen.get(i).payload(), "record " + i);
            }
            assertTrue(positions[COUNT - 1] > 10L * TestLogs.SMALL_SEGMENT, "the test crossed many segments");
        }
    }

    @Test
    void recordsInThePageCacheAreNotReturnedUntilAFlushMakesThemDurable() throws Exception {
        // The simulated disk shows unflushed bytes to readers, as a shared mapping of the page
        // cache would: only the durable position keeps them from the tailer.
        SimulatedDisk disk = new SimulatedDisk();
        CommitLogConfig config = CommitLogConfig.builder(dir).syncMode(SyncMode.PERIODIC).syncPeriod(Duration.ofMinutes(10))
                .periodicLagBlock(Duration.ofMinutes(20)).build();
        try (CommitLog log = CommitLog.open(config, CommitLogOptions.builder().storage(disk).noJmx().build());
             LogTailer tailer = log.tailer(0)) {
            for (int i = 0; i < 50; i++) {
                byte[] record = payload(i, 64);
                log.append(record, 0, record.length);
            }
            assertEquals(0, tailer.poll((position, payload) -> fail("returned a record that is not durable: " + position), 1_000));
            assertEquals(0, tailer.poll((position, payload) -> fail("not durable"), 1_000, 20, TimeUnit.MILLISECONDS));
            log.sync();
            AtomicLong count = new AtomicLong();
            assertEquals(50, tailer.poll((position, payload) -> count.incrementAndGet(), 1_000));
            assertEquals(log.durablePosition(), tailer.position());
        }
    }

    @Test
    void startsAtAPositionAndReturnsWhatReplayReturnsFromThere() throws Exception {
        try (CommitLog log = CommitLog.open(config(dir, SyncMode.BATCH).segmentSize(TestLogs.SMALL_SEGMENT).build(),
                CommitLogOptions.builder().noJmx().build())) {
            long[] positions = new long[1_000];
            for (int i = 0; i < positions.length; i++) {
                byte[] record = payload(i, length(i));
                positions[i] = log.append(record, 0, record.length);
            }
            long from = positions[617]; // a record start (a position inside a record is refused: PositionRulesTest)
            List<TestLogs.Entry> expected = TestLogs.replayFrom(log, from);
            List<TestLogs.Entry> tailed = new ArrayList<>();
            try (LogTailer tailer = log.tailer(from)) {
                while (tailer.poll((position, payload) -> tailed.add(new TestLogs.Entry(position, TestLogs.bytes(payload))), 7) > 0) {
                    assertTrue(tailed.size() <= expected.size());
                }
            }
            assertEquals(expected.size(), tailed.size());
            assertEquals(positions[617], tailed.get(0).position());
            for (int i = 0; i < expected.size(); i++) {
                assertEquals(expected.get(i).position(), tailed.get(i).position());
                assertArrayEquals(expected.get(i).payload(), tailed.get(i).payload());
            }
        }
    }

    @Test
    void aHandlerThatThrowsGetsTheSameRecordAgain() throws Exception {
        try (CommitLog log = CommitLog.open(config(dir, SyncMode.BATCH).build(), CommitLogOptions.builder().noJmx().build());
             LogTailer tailer = log.tailer(0)) {
            for (int i = 0; i < 3; i++) {
                byte[] record = payload(i, 10);
                log.append(record, 0, record.length);
            }
            List<Long> seen = new ArrayList<>();
            assertThrows(IllegalStateException.class, () -> tailer.poll((position, payload) -> {
                seen.add(position);
                if (seen.size() == 2) {
                    throw new IllegalStateException("replica unreachable");
                }
            }, 10));
            assertEquals(2, tailer.poll((position, payload) -> seen.add(position), 10));
            assertEquals(4, seen.size());
            assertEquals(seen.get(1), seen.get(2), "the record whose handler threw comes again");
            assertTrue(seen.get(0) < seen.get(1) && seen.get(2) < seen.get(3));
        }
    }

    @Test
    void aDiscardUnderTheTailerKeepsItsSegmentReadableThenSaysWhereTheLogNowStarts() throws Exception {
        try (CommitLog log = CommitLog.open(config(dir, SyncMode.BATCH).segmentSize(TestLogs.SMALL_SEGMENT).build(),
                CommitLogOptions.builder().noJmx().build())) {
            for (int i = 0; i < 200; i++) {
                byte[] record = payload(i, 100);
                log.append(record, 0, record.length);
            }
            LogTailer tailer = log.tailer(0);
            List<Long> seen = new ArrayList<>();
            assertEquals(10, tailer.poll((position, payload) -> seen.add(position), 10)); // maps segment 0
            for (int i = 200; i < 3_000; i++) {
                byte[] record = payload(i, 100);
                log.append(record, 0, record.length);
            }
            log.discardUpTo(log.durablePosition());
            assertFalse(Files.exists(dir.resolve(SegmentDescriptor.fileName(0))), "the tailer's segment was deleted");
            assertFalse(Files.exists(dir.resolve(SegmentDescriptor.fileName(1))));
            long oldest = oldestBase(log);

            // Segment 0 is still mapped: its remaining records come out whole.
            List<byte[]> rest = new ArrayList<>();
            PositionDiscardedException gone = assertThrows(PositionDiscardedException.class,
                    () -> { while (tailer.poll((position, payload) -> rest.add(TestLogs.bytes(payload)), 100) > 0) { } });
            for (int i = 0; i < rest.size(); i++) {
                assertArrayEquals(payload(10 + i, 100), rest.get(i));
            }
            assertEquals(TestLogs.SMALL_SEGMENT, gone.position(), "segment 1, the next one, is gone");
            assertEquals(oldest, gone.oldestPosition());
            assertTrue(gone.getMessage().contains("was discarded"), gone.getMessage());
            tailer.close();

            assertThrows(PositionDiscardedException.class, () -> log.tailer(5));
            try (LogTailer resumed = log.tailer(gone.oldestPosition())) {
                AtomicLong first = new AtomicLong(-1);
                assertTrue(resumed.poll((position, payload) -> first.compareAndSet(-1, position), 1_000) > 0);
                assertTrue(first.get() >= oldest);
            }
        }
    }

    @Test
    void aWaitingPollEndsWhenTheLogClosesAfterReturningWhatWasDurable() throws Exception {
        CommitLog log = CommitLog.open(config(dir, SyncMode.BATCH).build(), CommitLogOptions.builder().noJmx().build());
        LogTailer tailer = log.tailer(0);
        AtomicLong received = new AtomicLong();
        CompletableFuture<Integer> waiting = TestLogs.inThread(() -> {
            int last;
            do {
                last = tailer.poll((position, payload) -> received.incrementAndGet(), 10, 30, TimeUnit.SECONDS);
            } while (last > 0);
            return last;
        });
        for (int i = 0; i < 5; i++) {
            byte[] record = payload(i, 10);
            log.append(record, 0, record.length);
        }
        long started = System.nanoTime();
        log.close();
        assertEquals(-1, waiting.get(10, TimeUnit.SECONDS), "five records, then the end of the log");
        assertTrue(System.nanoTime() - started < TimeUnit.SECONDS.toNanos(5), "the waiting poll did not sit out its timeout");
        assertEquals(5, received.get());
        tailer.close();
        assertThrows(IllegalStateException.class, () -> tailer.poll((position, payload) -> { }, 1));
    }

    @Test
    void aTimedPollReturnsZeroAfterItsTimeout() throws Exception {
        try (CommitLog log = CommitLog.open(config(dir, SyncMode.BATCH).build(), CommitLogOptions.builder().noJmx().build());
             LogTailer tailer = log.tailer(log.durablePosition())) {
            long started = System.nanoTime();
            assertEquals(0, tailer.poll((position, payload) -> fail("nothing was appended"), 10, 50, TimeUnit.MILLISECONDS));
            assertTrue(System.nanoTime() - started >= TimeUnit.MILLISECONDS.toNanos(50));
        }
    }

    @Test
    void readingAllocatesNothingPerRecord() throws Exception {
        ThreadMXBean threads = (ThreadMXBean) ManagementFactory.getThreadMXBean();
        try (CommitLog log = CommitLog.open(config(dir, SyncMode.PERIODIC).segmentSize(16 << 20).build(),
                CommitLogOptions.builder().storage(new SimulatedDisk()).noJmx().build())) {
            byte[] record = new byte[100];
            for (int i = 0; i < 60_000; i++) {
                log.append(record, 0, record.length);
            }
            log.sync();
            AtomicLong sum = new AtomicLong();
            try (LogTailer tailer = log.tailer(0)) {
                tailer.poll((position, payload) -> sum.addAndGet(payload.remaining()), 30_000); // warm up
                long before = threads.getThreadAllocatedBytes(Thread.currentThread().getId());
                int read = tailer.poll((position, payload) -> sum.addAndGet(payload.remaining()), 30_000);
                long allocated = threads.getThreadAllocatedBytes(Thread.currentThread().getId()) - before;
                assertEquals(30_000, read);
                // Noise of a few KB (the counter read, JIT activity) is tolerated; one 16-byte object per
                // record would be 480 KB.
                assertTrue(allocated < 64 * 1024, allocated + " bytes allocated reading " + read + " records");
            }
            assertEquals(60_000L * 100, sum.get());
        }
    }

    private long oldestBase(CommitLog log) throws Exception {
        try (Stream<Path> files = Files.list(dir)) {
            long id = files.mapToLong(f -> SegmentDescriptor.parseId(f.getFileName().toString())).filter(i -> i >= 0).min().orElseThrow();
            return id * log.config().segmentSize();
        }
    }
}
