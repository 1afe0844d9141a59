package dev.commitlog;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.commitlog.config.CommitLogConfig;
import dev.commitlog.config.SyncMode;
import dev.commitlog.format.SegmentDescriptor;
import dev.commitlog.segment.SegmentHeader;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * {@code commitlog_durable_mark_interval} reaches the flushes: read from the segment file while the
 * log is open, the header's mark follows every flush at 0ms and stays in the first 4 KiB for an
 * hour. Without the setting the syncer would use the 1ms default: on a device whose flushes take
 * under a millisecond the hour's test catches that, on one whose flushes take longer the 0ms
 * test does, so the pair catches it on any device. (DurableMarkIntervalTest checks the interval
 * itself, on the syncer alone.)
 */
class DurableMarkIntervalConfigTest {
    private static final int RECORDS = 200; // 112 bytes each: about 22 KiB, well past the header's page
    private static final int PAGE = 4096;

    @ParameterizedTest
    @EnumSource(value = SyncMode.class, names = {"BATCH", "ADAPTIVE"})
    void zeroRewritesTheMarkWithEveryFlush(SyncMode mode, @TempDir Path dir) throws IOException {
        CommitLogConfig config = TestLogs.config(dir, mode).durableMarkInterval(Duration.ZERO).build();
        try (CommitLog log = CommitLog.open(config)) {
            long last = appendAll(log);
            // One writer: each append is one flush, whose mark is the position durable before it.
            assertEquals(last, markInHeader(dir), "the last flush's mark is where the last record starts");
        }
    }

    @ParameterizedTest
    @EnumSource(value = SyncMode.class, names = {"BATCH", "ADAPTIVE"})
    void anHourKeepsTheMarkInTheFirstPage(SyncMode mode, @TempDir Path dir) throws IOException {
        CommitLogConfig config = TestLogs.config(dir, mode).durableMarkInterval(Duration.ofHours(1)).build();
        try (CommitLog log = CommitLog.open(config)) {
            long last = appendAll(log);
            assertTrue(last > PAGE, "records reach past the first page: " + last);
            long mark = markInHeader(dir);
            assertTrue(mark > 0 && mark < PAGE, "the mark stays where the last flush within the first page left it: " + mark);
        }
    }

    /** Appends one record at a time; returns the last one's position. */
    private static long appendAll(CommitLog log) {
        long last = -1;
        for (int i = 0; i < RECORDS; i++) {
            byte[] payload = TestLogs.payload(i, 100);
            last = log.append(payload, 0, payload.length);
        }
        return last;
    }

    /** Segment 0's durable mark as flushed (the file holds only what flushes wrote: the mapping is private). */
    private static long markInHeader(Path dir) throws IOException {
        Path file = dir.resolve(SegmentDescriptor.fileName(0));
        byte[] bytes = Files.readAllBytes(file);
        return SegmentHeader.decode(ByteBuffer.wrap(bytes), 0, bytes.length).durableMark();
    }
}
