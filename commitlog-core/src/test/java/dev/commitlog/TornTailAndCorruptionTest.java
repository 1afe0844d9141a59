package dev.commitlog;

import static dev.commitlog.TestLogs.config;
import static dev.commitlog.TestLogs.payload;
import static org.junit.jupiter.api.Assertions.*;

import dev.commitlog.config.ReplayPolicy;
import dev.commitlog.config.SyncMode;
import dev.commitlog.disk.MappedStorageLayer;
import dev.commitlog.format.RecordDescriptor;
import dev.commitlog.format.SegmentDescriptor;
import dev.commitlog.segment.SegmentHeader;
import dev.commitlog.testkit.DamageReports;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The last record cut at every byte, and a bit flipped at every byte of a middle record. A Batch
 * log of ten records flushed one by one, its files taken as a crash right after the last
 * acknowledgment leaves them (a clean close would make the mark exact): the durable mark (see
 * SegmentDescriptor) then lies past the middle record, so damage there is corruption, while the
 * last record, flushed by the flush whose mark is the position before it, is the tail a crash
 * could have torn.
 */
class TornTailAndCorruptionTest {
    private static final int RECORDS = 10;
    private static final int PAYLOAD = 100;
    private static final int MIDDLE = 4;

    @TempDir
    Path dir;
    private final List<Long> positions = new ArrayList<>();
    private byte[] pristine;
    private Path segment;

    @BeforeEach
    void writeLog() throws IOException {
        segment = dir.resolve(SegmentDescriptor.fileName(0));
        try (CommitLog log = CommitLog.open(config(dir, SyncMode.BATCH).segmentSize(TestLogs.SMALL_SEGMENT).build())) {
            for (int i = 0; i < RECORDS; i++) {
                byte[] record = payload(i, PAYLOAD);
                positions.add(log.append(record, 0, record.length));
            }
            // The crash image: the file holds what was flushed (the mapping is private), the mark as the last flush left it.
            pristine = Files.readAllBytes(segment);
        }
        long mark = SegmentHeader.decode(ByteBuffer.wrap(pristine), 0, pristine.length).durableMark();
        assertTrue(mark > positions.get(MIDDLE) && mark <= positions.get(RECORDS - 1),
                "the mark lies past the middle record and not past the start of the last one: " + mark);
    }

    @Test
    void lastRecordCutAtEveryByteLosesOnlyThatRecordAndAppendsResume() throws IOException {
        int frameStart = frameOffset(RECORDS - 1);
        int frameEnd = frameStart + RecordDescriptor.alignedFrameLength(PAYLOAD);
        // Cutting inside the zero padding would leave the record whole: cut within the frame proper.
        for (int cut = frameStart; cut < frameStart + RecordDescriptor.frameLength(PAYLOAD); cut++) {
            restore();
            zero(cut, frameEnd); // only the first (cut - frameStart) bytes of the last frame persisted
            deleteLaterSegments();
            try (CommitLog log = CommitLog.open(config(dir, SyncMode.BATCH).segmentSize(TestLogs.SMALL_SEGMENT).build())) {
                List<TestLogs.Entry> replayed = TestLogs.replayAll(log);
                assertEquals(RECORDS - 1, replayed.size(), "cut at byte " + (cut - frameStart) + " of the last frame");
                byte[] next = payload(99, 33);
                long position = log.append(next, 0, next.length);
                assertEquals(positions.get(RECORDS - 1), position, "appends resume where the valid log ends");
                List<TestLogs.Entry> after = TestLogs.replayAll(log);
                assertEquals(RECORDS, after.size());
                assertArrayEquals(next, after.get(RECORDS - 1).payload());
            }
        }
    }

    @Test
    void garbageInTheTornTailIsCutOffUnderTolerateTail() throws IOException {
        int frameStart = frameOffset(RECORDS - 1);
        restore();
        flipBit(frameStart + RecordDescriptor.FRAME_HEADER_LENGTH + 5, 3);
        deleteLaterSegments();
        DamageReports reports = new DamageReports();
        try (CommitLog log = CommitLog.open(config(dir, SyncMode.BATCH).segmentSize(TestLogs.SMALL_SEGMENT).build(), new MappedStorageLayer(),
                reports)) {
            assertEquals(RECORDS - 1, TestLogs.replayAll(log).size());
        }
        assertEquals(1, reports.all().size());
        assertTrue(reports.onlyTornTails(), reports::toString);
    }

    @Test
    void strictPolicyRefusesATornTailWithGarbage() throws IOException {
        restore();
        flipBit(frameOffset(RECORDS - 1) + RecordDescriptor.FRAME_HEADER_LENGTH, 0);
        deleteLaterSegments();
        CorruptLogException e = assertThrows(CorruptLogException.class,
                () -> CommitLog.open(config(dir, SyncMode.BATCH).segmentSize(TestLogs.SMALL_SEGMENT).replayPolicy(ReplayPolicy.STRICT).build()).close());
        assertEquals(positions.get(RECORDS - 1), e.position());
    }

    @ParameterizedTest
    @EnumSource(ReplayPolicy.class)
    void aFlippedBitAtEveryByteOfAMiddleRecordIsDetected(ReplayPolicy policy) throws IOException {
        int frameStart = frameOffset(MIDDLE);
        int frameEnd = frameStart + RecordDescriptor.alignedFrameLength(PAYLOAD);
        for (int at = frameStart; at < frameEnd; at++) {
            restore();
            flipBit(at, at % 8);
            String where = "bit flipped at byte " + (at - frameStart) + " of the middle frame under " + policy;
            if (policy == ReplayPolicy.SKIP_CORRUPT) {
                List<Long> reported = new ArrayList<>();
                try (CommitLog log = CommitLog.open(config(dir, SyncMode.BATCH).segmentSize(TestLogs.SMALL_SEGMENT).replayPolicy(policy).build(), new MappedStorageLayer(),
                        (file, offset, position, reason, action) -> reported.add(position))) {
                    List<TestLogs.Entry> replayed = TestLogs.replayAll(log);
                    assertEquals(RECORDS - 1, replayed.size(), where);
                    assertFalse(replayed.stream().anyMatch(e -> e.position() == positions.get(MIDDLE)), where);
                    for (TestLogs.Entry entry : replayed) {
                        int index = positions.indexOf(entry.position());
                        assertArrayEquals(payload(index, PAYLOAD), entry.payload(), where);
                    }
                }
                assertTrue(reported.contains(positions.get(MIDDLE)), where + ": reported at the record's position");
            } else {
                CorruptLogException e = assertThrows(CorruptLogException.class,
                        () -> CommitLog.open(config(dir, SyncMode.BATCH).segmentSize(TestLogs.SMALL_SEGMENT).replayPolicy(policy).build()).close(), where);
                assertEquals(positions.get(MIDDLE), e.position(), where);
                assertTrue(e.getMessage().contains(segment.toString()), "the message names the file: " + e.getMessage());
            }
        }
    }

    @Test
    void aDamagedSegmentHeaderRefusesToOpenWithTheFileNamed() throws IOException {
        restore();
        flipBit(SegmentDescriptor.SEGMENT_ID_OFFSET, 1);
        CorruptLogException e = assertThrows(CorruptLogException.class, () -> CommitLog.open(config(dir, SyncMode.BATCH).segmentSize(TestLogs.SMALL_SEGMENT).build()).close());
        assertTrue(e.getMessage().contains("header"), e.getMessage());
        assertEquals(0, e.offset());
    }

    private int frameOffset(int record) {
        return (int) (positions.get(record) - 0); // segment 0 starts at log position 0
    }

    private void restore() throws IOException {
        Files.write(segment, pristine);
    }

    private void deleteLaterSegments() throws IOException {
        try (Stream<Path> files = Files.list(dir)) {
            for (Path file : files.toList()) {
                long id = SegmentDescriptor.parseId(file.getFileName().toString());
                if (id > 0) {
                    Files.delete(file);
                }
            }
        }
    }

    private void zero(int from, int to) throws IOException {
        try (FileChannel channel = FileChannel.open(segment, StandardOpenOption.WRITE)) {
            channel.write(ByteBuffer.allocate(to - from), from);
        }
    }

    private void flipBit(int offset, int bit) throws IOException {
        try (FileChannel channel = FileChannel.open(segment, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
            ByteBuffer one = ByteBuffer.allocate(1);
            channel.read(one, offset);
            one.put(0, (byte) (one.get(0) ^ (1 << bit))).rewind();
            channel.write(one, offset);
        }
    }
}
