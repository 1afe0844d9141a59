package dev.commitlog;

import static dev.commitlog.TestLogs.config;
import static dev.commitlog.TestLogs.payload;
import static org.junit.jupiter.api.Assertions.*;

import dev.commitlog.config.SyncMode;
import dev.commitlog.format.SegmentDescriptor;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RolloverAndDiscardTest {
    @TempDir
    Path dir;

    @Test
    void recordsSpanManySegmentsAndReplayAcrossThem() throws Exception {
        int count = 5_000;
        try (CommitLog log = CommitLog.open(config(dir, SyncMode.BATCH).segmentSize(TestLogs.SMALL_SEGMENT).build())) {
            for (int i = 0; i < count; i++) {
                byte[] record = payload(i, 100 + i % 300);
                log.append(record, 0, record.length);
            }
            assertTrue(segmentFiles().size() > 20, "rolled over many times: " + segmentFiles().size());
            List<TestLogs.Entry> replayed = TestLogs.replayAll(log);
            assertEquals(count, replayed.size());
            for (int i = 0; i < count; i++) {
                assertArrayEquals(payload(i, 100 + i % 300), replayed.get(i).payload());
            }
        }
        try (CommitLog log = CommitLog.open(config(dir, SyncMode.BATCH).segmentSize(TestLogs.SMALL_SEGMENT).build())) {
            assertEquals(count, TestLogs.replayAll(log).size());
        }
    }

    @Test
    void discardDeletesOnlySegmentsWhollyBelowThePosition() throws Exception {
        try (CommitLog log = CommitLog.open(config(dir, SyncMode.BATCH).segmentSize(TestLogs.SMALL_SEGMENT).build())) {
            long middle = 0;
            for (int i = 0; i < 3_000; i++) {
                byte[] record = payload(i, 200);
                long position = log.append(record, 0, record.length);
                if (i == 1_500) {
                    middle = position;
                }
            }
            int before = segmentFiles().size();
            log.discardUpTo(middle);
            int after = segmentFiles().size();
            assertTrue(after < before, "some segments deleted: " + before + " -> " + after);
            List<TestLogs.Entry> replayed = TestLogs.replayFrom(log, middle);
            assertEquals(3_000 - 1_500, replayed.size(), "everything from the discard position still replays");
            assertEquals(middle, replayed.get(0).position());
            List<TestLogs.Entry> all = TestLogs.replayAll(log);
            assertTrue(all.get(0).position() <= middle && all.size() < 3_000);
        }
        try (CommitLog log = CommitLog.open(config(dir, SyncMode.BATCH).segmentSize(TestLogs.SMALL_SEGMENT).build())) {
            byte[] record = payload(9, 10);
            log.append(record, 0, record.length);
            List<TestLogs.Entry> all = TestLogs.replayAll(log);
            assertArrayEquals(record, all.get(all.size() - 1).payload(), "a log whose first segments were discarded reopens");
        }
    }

    private List<Path> segmentFiles() throws Exception {
        try (Stream<Path> files = Files.list(dir)) {
            return files.filter(f -> SegmentDescriptor.parseId(f.getFileName().toString()) >= 0).toList();
        }
    }
}
