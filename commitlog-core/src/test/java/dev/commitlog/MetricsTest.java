package dev.commitlog;

import static dev.commitlog.TestLogs.config;
import static dev.commitlog.TestLogs.payload;
import static dev.commitlog.TestLogs.segmentBytes;
import static dev.commitlog.TestLogs.waitUntil;
import static org.junit.jupiter.api.Assertions.*;

import dev.commitlog.config.CommitLogConfig;
import dev.commitlog.config.SyncMode;
import dev.commitlog.instrument.AppenderMetrics;
import dev.commitlog.io.SimulatedDisk;
import dev.commitlog.metrics.CommitLogMetrics;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Each metric of the snapshot counts what it claims to, and only that. */
class MetricsTest {
    @TempDir
    Path dir;

    @Test
    void completedAppendsCountEveryAppendAndClaimFromEveryThread() throws Exception {
        int threads = 3;
        int perThread = 500;
        try (CommitLog log = CommitLog.open(config(dir, SyncMode.BATCH).segmentSize(TestLogs.SMALL_SEGMENT).build(),
                CommitLogOptions.builder().noJmx().build())) {
            List<Thread> writers = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                writers.add(new Thread(() -> {
                    AppendClaim claim = new AppendClaim();
                    for (int i = 0; i < perThread; i++) {
                        if (i % 2 == 0) {
                            byte[] record = payload(i, 40);
                            log.append(record, 0, record.length);
                        } else {
                            log.claim(8, claim).writeLong(i);
                            claim.commit();
                        }
                    }
                }));
            }
            writers.forEach(Thread::start);
            for (Thread writer : writers) {
                writer.join();
            }
            CommitLogMetrics metrics = log.metrics();
            assertEquals(threads * perThread, metrics.completedAppends(), "counts survive their threads ending");
            // One append in SAMPLE_INTERVAL per thread is timed, starting with each thread's first.
            long sampledPerThread = (perThread + AppenderMetrics.SAMPLE_INTERVAL - 1) / AppenderMetrics.SAMPLE_INTERVAL;
            assertEquals(threads * sampledPerThread, metrics.appendLatency().count());
            assertTrue(metrics.appendLatency().min() > 0);
            assertEquals(metrics.flushes(), metrics.waitingOnFlush().count(), "every flush is timed");
            assertTrue(metrics.waitingOnCommit().count() > 0, "batch appenders wait for their flush");
            assertTrue(metrics.waitingOnCommit().count() <= threads * perThread);
            assertEquals(0, metrics.appendersWaiting());
        }
    }

    @Test
    void flushWaitIsTimedOnlyWhenAnAppenderActuallyWaits() throws Exception {
        CommitLogConfig config = CommitLogConfig.builder(dir).syncMode(SyncMode.PERIODIC).syncPeriod(Duration.ofMinutes(10))
                .periodicLagBlock(Duration.ofMinutes(20)).build();
        try (CommitLog log = CommitLog.open(config, CommitLogOptions.builder().noJmx().build())) {
            for (int i = 0; i < 1_000; i++) {
                byte[] record = payload(i, 50);
                log.append(record, 0, record.length);
            }
            assertEquals(0, log.metrics().waitingOnCommit().count(), "periodic appends return without waiting");
            log.sync();
            assertEquals(1, log.metrics().waitingOnCommit().count(), "sync() waited once for a flush");
            log.sync();
            assertEquals(1, log.metrics().waitingOnCommit().count(), "nothing new to flush: no wait");
            assertEquals(1_000, log.metrics().completedAppends());
        }
    }

    @Test
    void pendingTasksCountsAppendersWaitingForAFlushNow() throws Exception {
        SimulatedDisk disk = new SimulatedDisk();
        try (CommitLog log = CommitLog.open(config(dir, SyncMode.BATCH).build(),
                CommitLogOptions.builder().storage(disk).noJmx().build())) {
            byte[] record = payload(1, 30);
            log.append(record, 0, record.length);
            disk.blockFlushes();
            List<Thread> writers = new ArrayList<>();
            for (int t = 0; t < 3; t++) {
                Thread writer = new Thread(() -> log.append(record, 0, record.length));
                writers.add(writer);
                writer.start();
            }
            waitUntil(() -> log.metrics().appendersWaiting() == 3, "three appenders waiting");
            disk.releaseFlushes();
            for (Thread writer : writers) {
                writer.join();
            }
            assertEquals(0, log.metrics().appendersWaiting());
            assertTrue(log.metrics().waitingOnCommit().max() > 0);
        }
    }

    @Test
    void totalSizeIsTheBytesOfSegmentFilesAndEachRolloverWaitIsTimed() throws Exception {
        try (CommitLog log = CommitLog.open(config(dir, SyncMode.BATCH).segmentSize(TestLogs.SMALL_SEGMENT).build(),
                CommitLogOptions.builder().noJmx().build())) {
            long last = 0;
            for (int i = 0; i < 2_000; i++) {
                byte[] record = payload(i, 200);
                last = log.append(record, 0, record.length);
            }
            waitUntil(() -> segmentBytes(dir) == log.metrics().totalSize(), "the prepared segment is counted once written");
            long segmentsUsed = last / TestLogs.SMALL_SEGMENT + 1; // every segment has the same size
            CommitLogMetrics metrics = log.metrics();
            assertEquals(segmentsUsed - 1, metrics.waitingOnSegmentAllocation().count(), "one timed wait per rollover");
            double recorded = metrics.waitingOnSegmentAllocation().mean() * metrics.waitingOnSegmentAllocation().count();
            assertEquals(metrics.segmentWaitNanos(), recorded, metrics.segmentWaitNanos() * 0.02 + 1_000,
                    "the histogram and the counter agree (to the histogram's 1% resolution)");
            log.discardUpTo(log.durablePosition());
            assertEquals(segmentBytes(dir), log.metrics().totalSize(), "discards are subtracted");
            int spares = log.config().recycleSegments();
            assertTrue(log.metrics().totalSize() <= (3L + spares) * TestLogs.SMALL_SEGMENT, "the live segments and the spares");
        }
    }

    @Test
    void oversizeRejectionsAreCounted() throws Exception {
        try (CommitLog log = CommitLog.open(config(dir, SyncMode.BATCH).maxRecordSize(100).build(),
                CommitLogOptions.builder().noJmx().build())) {
            byte[] record = new byte[101];
            assertThrows(RecordTooLargeException.class, () -> log.append(record, 0, record.length));
            assertEquals(1, log.metrics().oversizeRejected());
            assertEquals(0, log.metrics().completedAppends());
        }
    }
}
