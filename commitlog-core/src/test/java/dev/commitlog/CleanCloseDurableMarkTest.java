package dev.commitlog;

import static dev.commitlog.TestLogs.config;
import static dev.commitlog.TestLogs.payload;
import static org.junit.jupiter.api.Assertions.*;

import dev.commitlog.config.SyncMode;
import dev.commitlog.disk.MappedStorageLayer;
import dev.commitlog.format.RecordDescriptor;
import dev.commitlog.format.SegmentDescriptor;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * A clean close writes the exact durable position as the tail segment's durable mark: damage to
 * the last record flushed, far past the segment's first 4 KiB (where the mark is rewritten at most
 * once per mark interval, and always lags its flush), is then corruption, not a torn tail. The same
 * damage in a crash image, taken from the files while the log was open, is a torn tail.
 */
class CleanCloseDurableMarkTest {
    /** 100 records of 112 bytes: the last one ends about 11 KiB into the segment. */
    private static final int RECORDS = 100;
    private static final int PAYLOAD = 100;

    @TempDir
    Path dir;
    private final List<Long> positions = new ArrayList<>();

    @ParameterizedTest
    @EnumSource(value = SyncMode.class)
    void damageToTheLastRecordOfACleanlyClosedLogIsCorruption(SyncMode mode) throws IOException {
        try (CommitLog log = open(mode)) {
            append(log); // Periodic: the close's own flush makes the last records durable
        }
        long end = positions.get(RECORDS - 1) + RecordDescriptor.alignedFrameLength(PAYLOAD);
        assertTrue(positions.get(RECORDS - 1) > 2 * 4096, "the last record lies well past the segment's first 4 KiB");
        Path segment = dir.resolve(SegmentDescriptor.fileName(0));
        long mark = TestLogs.durableMarkOfFirstSegment(Files.readAllBytes(segment));

        TestLogs.flipPayloadByte(segment, positions.get(RECORDS - 1), PAYLOAD);
        CorruptLogException e = assertThrows(CorruptLogException.class, () -> open(mode).close(),
                "damage below the exact mark refuses to open under tolerate_tail");
        assertEquals(positions.get(RECORDS - 1), e.position(), e.getMessage());
        assertEquals(positions.get(RECORDS - 1), e.offset(), "segment 0 starts at position 0: " + e.getMessage());
        assertEquals(segment, e.file());
        assertTrue(e.getMessage().contains(segment.toString()), "the message names the file: " + e.getMessage());
        assertEquals(end, mark, "the closed log's mark is its durable position, the end of the last record");
    }

    @ParameterizedTest
    @EnumSource(value = SyncMode.class, names = {"BATCH", "PERIODIC"})
    void theSameDamageInACrashImageIsATornTail(SyncMode mode) throws IOException {
        Path segment = dir.resolve(SegmentDescriptor.fileName(0));
        byte[] crashImage;
        try (CommitLog log = open(mode)) {
            append(log);
            log.sync();
            crashImage = Files.readAllBytes(segment); // what flushes wrote, nothing else (the mapping is private)
        }
        long lagging = TestLogs.durableMarkOfFirstSegment(crashImage);
        assertTrue(lagging > 0 && lagging <= positions.get(RECORDS - 1), "before close the mark lags the last record: " + lagging);
        Files.write(segment, crashImage);
        TestLogs.deleteSegmentsAfterTheFirst(dir);
        TestLogs.flipPayloadByte(segment, positions.get(RECORDS - 1), PAYLOAD);
        List<String> reports = new ArrayList<>();
        try (CommitLog log = CommitLog.open(config(dir, mode).segmentSize(TestLogs.SMALL_SEGMENT).build(), new MappedStorageLayer(),
                (file, offset, position, reason, action) -> reports.add(position + ": " + reason))) {
            assertEquals(RECORDS - 1, TestLogs.replayAll(log).size(), "the torn last record is cut off");
        }
        assertEquals(1, reports.size(), reports.toString());
        assertTrue(reports.get(0).startsWith(positions.get(RECORDS - 1) + ": torn tail"), reports.get(0));
    }

    private CommitLog open(SyncMode mode) throws IOException {
        return CommitLog.open(config(dir, mode).segmentSize(TestLogs.SMALL_SEGMENT).build());
    }

    private void append(CommitLog log) {
        for (int i = 0; i < RECORDS; i++) {
            byte[] record = payload(i, PAYLOAD);
            positions.add(log.append(record, 0, record.length));
        }
    }
}
