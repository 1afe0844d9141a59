package dev.commitlog;

import static dev.commitlog.TestLogs.payload;
import static dev.commitlog.TestLogs.segmentBytes;
import static org.junit.jupiter.api.Assertions.*;

import dev.commitlog.config.CommitLogConfig;
import dev.commitlog.config.SyncMode;
import dev.commitlog.testkit.CapturedLog;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * commitlog_total_space: segment files never exceed it; the space listener is asked to persist
 * data so segments can go; without help, appends block (with a warning, not repeated in a loop)
 * and resume when discardUpTo frees space.
 */
class TotalSpaceTest {
    private static final int SEGMENT = TestLogs.SMALL_SEGMENT;

    @TempDir
    Path dir;

    private CommitLogConfig budgetConfig(int segments) {
        return TestLogs.config(dir, SyncMode.PERIODIC).segmentSize(SEGMENT).totalSpace((long) segments * SEGMENT).build();
    }

    @ParameterizedTest
    @ValueSource(ints = {2, 3})
    void aListenerThatPersistsAndDiscardsKeepsTheLogWithinItsBudget(int segments) throws Exception {
        // The node persists asynchronously (a memtable flush on its own thread), then discards.
        LinkedBlockingQueue<Long> requests = new LinkedBlockingQueue<>();
        List<Long> asked = new CopyOnWriteArrayList<>();
        CommitLogOptions options = CommitLogOptions.builder().noJmx().spaceListener(position -> {
            asked.add(position);
            requests.add(position);
        }).build();
        CommitLog log = CommitLog.open(budgetConfig(segments), options);
        try {
            Thread node = new Thread(() -> {
                try {
                    for (;;) {
                        log.discardUpTo(requests.take());
                    }
                } catch (InterruptedException | UncheckedIOException | IllegalStateException e) {
                    // test over
                }
            });
            node.setDaemon(true);
            node.start();
            long budget = (long) segments * SEGMENT;
            long last = 0;
            for (int i = 0; i < 6_000; i++) {
                byte[] record = payload(i, 200);
                last = log.append(record, 0, record.length);
                if (i % 100 == 0) {
                    assertTrue(log.metrics().totalSize() <= budget, "within the budget after append " + i);
                }
            }
            node.interrupt();
            assertTrue(last > 15L * SEGMENT, "many times the budget went through the log");
            assertTrue(segmentBytes(dir) <= budget);
            assertFalse(asked.isEmpty());
            log.close(); // the allocator counts a request just before calling the listener: let it finish
            assertEquals(asked.size(), log.metrics().spaceRequests());
            for (int i = 0; i < asked.size(); i++) {
                assertEquals(0, asked.get(i) % SEGMENT, "asked up to a segment boundary: " + asked.get(i));
                assertTrue(i == 0 || asked.get(i) >= asked.get(i - 1), "positions never go back");
            }
        } finally {
            log.close(); // idempotent
        }
    }

    @Test
    void withoutHelpAppendsBlockWithOneWarningAndResumeWhenDiscardUpToFreesSpace() throws Exception {
        List<Long> asked = new CopyOnWriteArrayList<>();
        CommitLogOptions options = CommitLogOptions.builder().noJmx().spaceListener(asked::add).build();
        try (CapturedLog captured = new CapturedLog(); CommitLog log = CommitLog.open(budgetConfig(3), options)) {
            AtomicLong appended = new AtomicLong();
            CompletableFuture<Object> appender = TestLogs.inThread(() -> {
                for (int i = 0; i < 2_000; i++) { // about 7 segments: needs 4 more than fit
                    byte[] record = payload(i, 200);
                    log.append(record, 0, record.length);
                    appended.incrementAndGet();
                }
                return null;
            });
            awaitStuck(appended);
            assertFalse(appender.isDone());
            assertTrue(segmentBytes(dir) <= 3L * SEGMENT, "the disk holds no more than the budget");
            assertEquals(1, captured.count("is full"), "one warning, not one per retry");
            String warning = captured.text();
            assertTrue(warning.contains("commitlog_total_space " + 3L * SEGMENT), warning);
            // The listener is asked for the end of the oldest segment once it is wholly durable (a discard
            // past the durable position is refused): at once, or when the periodic sync gets there.
            assertTrue(warning.contains("Asked the space listener to persist up to position " + SEGMENT)
                    || warning.contains("the space listener is asked once one is"), warning);
            TestLogs.waitUntil(() -> asked.contains((long) SEGMENT), "the listener is asked for the end of the oldest segment");
            assertTrue(asked.stream().allMatch(position -> position <= log.durablePosition()), "never past the durable position");

            // The node persists late, discarding everything durable each time the allocator asks.
            CompletableFuture<Object> node = TestLogs.inThread(() -> {
                while (!appender.isDone()) {
                    log.discardUpTo(log.durablePosition());
                    Thread.sleep(5);
                }
                return null;
            });
            appender.get(30, TimeUnit.SECONDS);
            node.get(10, TimeUnit.SECONDS);
            assertEquals(2_000, appended.get());
            assertTrue(captured.text().contains("space was freed, appends resume"));
            assertTrue(log.metrics().waitingOnSegmentAllocation().max() >= TimeUnit.MILLISECONDS.toNanos(300),
                    "the blocked rollover shows in WaitingOnSegmentAllocation");
        }
    }

    @Test
    void withNoListenerTheWarningSaysWhatToDoAndCloseReleasesABlockedAppender() throws Exception {
        try (CapturedLog captured = new CapturedLog()) {
            CommitLog log = CommitLog.open(budgetConfig(2), CommitLogOptions.builder().noJmx().build());
            AtomicLong appended = new AtomicLong();
            CompletableFuture<Object> appender = TestLogs.inThread(() -> {
                for (int i = 0; i < 2_000; i++) {
                    byte[] record = payload(i, 200);
                    log.append(record, 0, record.length);
                    appended.incrementAndGet();
                }
                return null;
            });
            awaitStuck(appended);
            assertTrue(captured.text().contains("No space listener is registered: the embedding node must call discardUpTo("),
                    captured.text());
            assertFalse(appender.isDone(), "blocked on space");
            long started = System.nanoTime();
            log.close();
            assertTrue(System.nanoTime() - started < TimeUnit.SECONDS.toNanos(5), "close does not wait for space");
            ExecutionException failed = assertThrows(ExecutionException.class, () -> appender.get(5, TimeUnit.SECONDS));
            assertInstanceOf(CommitLogException.class, failed.getCause());
            assertTrue(failed.getCause().getMessage().contains("closed while appends waited for space"), failed.getCause().getMessage());
        }
        // Nothing acknowledged was lost, and the log opens again.
        try (CommitLog log = CommitLog.open(budgetConfig(2), CommitLogOptions.builder().noJmx().build())) {
            assertFalse(TestLogs.replayAll(log).isEmpty());
        }
    }

    /** Waits until the appender has made no progress for 300 ms (blocked, not slow). */
    private static void awaitStuck(AtomicLong appended) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        for (long seen = -1; ; ) {
            long now = appended.get();
            if (now == seen) {
                return;
            }
            assertTrue(System.nanoTime() < deadline, "the appender never blocked");
            seen = now;
            Thread.sleep(300);
        }
    }
}
