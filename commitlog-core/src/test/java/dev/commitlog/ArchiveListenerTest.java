package dev.commitlog;

import static dev.commitlog.TestLogs.config;
import static dev.commitlog.TestLogs.payload;
import static dev.commitlog.TestLogs.waitUntil;
import static org.junit.jupiter.api.Assertions.*;

import dev.commitlog.config.CommitLogConfig;
import dev.commitlog.config.SyncMode;
import dev.commitlog.format.SegmentDescriptor;
import dev.commitlog.lifecycle.CompletedSegment;
import dev.commitlog.testkit.CapturedLog;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The archive listener: called off the sync thread with each complete, durable segment, in order;
 * discardUpTo keeps a segment until its archiving returned; failures are logged, retried, and keep
 * the segment; segments complete at open are offered again.
 */
class ArchiveListenerTest {
    @TempDir
    Path root;

    private CommitLogConfig logConfig() throws IOException {
        return config(Files.createDirectories(root.resolve("log")), SyncMode.PERIODIC).segmentSize(TestLogs.SMALL_SEGMENT).build();
    }

    private static long[] append(CommitLog log, int from, int count) {
        long[] positions = new long[count];
        for (int i = 0; i < count; i++) {
            byte[] record = payload(from + i, 200);
            positions[i] = log.append(record, 0, record.length);
        }
        return positions;
    }

    private Path segmentFile(long id) {
        return root.resolve("log").resolve(SegmentDescriptor.fileName(id));
    }

    @Test
    void eachCompleteDurableSegmentIsArchivedInOrderOffTheSyncThreadAndTheCopiesReplay() throws Exception {
        Path archive = Files.createDirectories(root.resolve("archive"));
        List<CompletedSegment> archived = new CopyOnWriteArrayList<>();
        List<String> problems = new CopyOnWriteArrayList<>();
        CommitLog[] current = new CommitLog[1];
        CommitLogOptions options = CommitLogOptions.builder().noJmx().archiveListener(segment -> {
            if (!Thread.currentThread().getName().equals("commitlog-lifecycle")) {
                problems.add("called on " + Thread.currentThread().getName());
            }
            if (current[0].durablePosition() < segment.endPosition()) {
                problems.add(segment + " archived before it was wholly durable");
            }
            Files.copy(segment.path(), archive.resolve(segment.path().getFileName()), StandardCopyOption.REPLACE_EXISTING);
            archived.add(segment);
        }).build();
        long[] positions;
        try (CommitLog log = CommitLog.open(logConfig(), options)) {
            current[0] = log;
            positions = append(log, 0, 2_000);
            long segments = positions[positions.length - 1] / TestLogs.SMALL_SEGMENT; // complete ones
            // The metric counts a segment once its listener call returned: wait on it, not on the list.
            waitUntil(() -> log.metrics().segmentsArchived() == segments, segments + " segments archived");
            assertEquals(segments, archived.size());
        }
        assertEquals(List.of(), problems);
        for (int i = 0; i < archived.size(); i++) {
            CompletedSegment segment = archived.get(i);
            assertEquals(i, segment.id());
            assertEquals((long) i * TestLogs.SMALL_SEGMENT, segment.startPosition());
            assertEquals(segment.startPosition() + TestLogs.SMALL_SEGMENT, segment.endPosition());
        }
        // The archive is a log of its own: every record below the last archived end, intact.
        long archivedEnd = archived.get(archived.size() - 1).endPosition();
        try (CommitLog copy = CommitLog.open(config(archive, SyncMode.BATCH).segmentSize(TestLogs.SMALL_SEGMENT).build(),
                CommitLogOptions.builder().noJmx().build())) {
            List<TestLogs.Entry> replayed = TestLogs.replayAll(copy);
            int expected = 0;
            while (positions[expected] < archivedEnd) {
                expected++;
            }
            assertEquals(expected, replayed.size());
            for (int i = 0; i < expected; i++) {
                assertEquals(positions[i], replayed.get(i).position());
                assertArrayEquals(payload(i, 200), replayed.get(i).payload());
            }
        }
    }

    @Test
    void aDiscardBeforeArchivingFinishedKeepsTheFileUntilItHas() throws Exception {
        CountDownLatch release = new CountDownLatch(1);
        CountDownLatch inside = new CountDownLatch(1);
        CommitLogOptions options = CommitLogOptions.builder().noJmx().archiveListener(segment -> {
            inside.countDown();
            release.await();
        }).build();
        try (CommitLog log = CommitLog.open(logConfig(), options)) {
            append(log, 0, 1_500);
            assertTrue(inside.await(10, TimeUnit.SECONDS), "archiving of segment 0 started");
            log.sync();
            log.discardUpTo(log.durablePosition()); // covers segments 0 to 4
            assertTrue(Files.exists(segmentFile(0)), "segment 0 is still being archived: kept");
            assertTrue(Files.exists(segmentFile(1)), "later segments wait for it too");
            release.countDown();
            waitUntil(() -> !Files.exists(segmentFile(0)) && !Files.exists(segmentFile(1)),
                    "the discard takes effect once archiving returns");
            assertTrue(Files.exists(segmentFile(log.durablePosition() / TestLogs.SMALL_SEGMENT)), "the current segment stays");
        }
    }

    @Test
    void aFailingArchiveIsLoggedRetriedAndKeepsTheSegmentUntilItSucceeds() throws Exception {
        AtomicInteger calls = new AtomicInteger();
        List<Long> archived = new CopyOnWriteArrayList<>();
        CommitLogOptions options = CommitLogOptions.builder().noJmx().archiveRetryDelay(Duration.ofMillis(20)).archiveListener(segment -> {
            if (calls.incrementAndGet() <= 3) {
                throw new IOException("archive volume not mounted");
            }
            archived.add(segment.id());
        }).build();
        try (CapturedLog captured = new CapturedLog(); CommitLog log = CommitLog.open(logConfig(), options)) {
            append(log, 0, 700); // two segments complete
            waitUntil(() -> log.metrics().archiveFailures() >= 1, "a failure");
            log.sync();
            log.discardUpTo(log.durablePosition());
            assertTrue(Files.exists(segmentFile(0)), "not archived yet: kept");
            waitUntil(() -> archived.size() >= 2, "archived after the retries");
            assertEquals(List.of(0L, 1L), archived.subList(0, 2), "the failed segment first, then in order");
            assertEquals(3, log.metrics().archiveFailures());
            waitUntil(() -> !Files.exists(segmentFile(0)), "deleted once archived");
            String text = captured.text();
            assertTrue(text.contains("commit log archiving of " + segmentFile(0) + " (log positions 0 to " + TestLogs.SMALL_SEGMENT
                    + ") failed, attempt 1"), text);
            assertTrue(text.contains("attempt 3"), text);
            assertTrue(text.contains("archive volume not mounted"), text);
            assertTrue(text.contains("retried in 40 ms"), "the delay doubles: " + text);
        }
    }

    @Test
    void segmentsCompleteAtOpenAreOfferedAgainAndCloseDoesNotWaitForRetries() throws Exception {
        CommitLogOptions failing = CommitLogOptions.builder().noJmx().archiveRetryDelay(Duration.ofSeconds(30))
                .archiveListener(segment -> {
                    throw new IOException("archive unreachable");
                }).build();
        CommitLog log = CommitLog.open(logConfig(), failing);
        append(log, 0, 1_000);
        waitUntil(() -> log.metrics().archiveFailures() == 1, "the first segment failed");
        long started = System.nanoTime();
        log.close();
        assertTrue(System.nanoTime() - started < TimeUnit.SECONDS.toNanos(5), "close does not sit out the retry delay");

        List<Long> offered = new ArrayList<>();
        CommitLogOptions recording = CommitLogOptions.builder().noJmx().archiveListener(segment -> {
            synchronized (offered) {
                offered.add(segment.id());
            }
        }).build();
        try (CommitLog reopened = CommitLog.open(logConfig(), recording)) {
            waitUntil(() -> {
                synchronized (offered) {
                    return offered.size() >= 3;
                }
            }, "the segments complete before the restart");
            synchronized (offered) {
                assertEquals(List.of(0L, 1L, 2L), offered.subList(0, 3));
            }
            assertEquals(0, reopened.metrics().archiveFailures());
        }
    }
}
