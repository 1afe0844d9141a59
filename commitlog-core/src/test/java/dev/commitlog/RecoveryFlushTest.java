package dev.commitlog;

import static dev.commitlog.TestLogs.config;
import static dev.commitlog.TestLogs.payload;
import static org.junit.jupiter.api.Assertions.*;

import dev.commitlog.config.CommitLogConfig;
import dev.commitlog.config.SyncMode;
import dev.commitlog.io.MappedStorageLayer;
import dev.commitlog.io.SimulatedDisk;
import dev.commitlog.record.RecordDescriptor;
import dev.commitlog.segment.SegmentDescriptor;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * What recovery flushes when a log opens after a crash: it makes the recovered end the tail's
 * durable mark (so later damage to the recovered records is corruption, not a torn tail, even if
 * the log closes without a new append), and it rewrites only what follows the durable marks of
 * the segments that can hold the last records, instead of every segment whole.
 */
class RecoveryFlushTest {
    private static final int RECORDS = 100;
    private static final int PAYLOAD = 100;

    @TempDir
    Path dir;

    @ParameterizedTest
    @EnumSource(value = SyncMode.class, names = {"BATCH", "PERIODIC"})
    void recoveryMakesTheRecoveredEndTheTailsDurableMark(SyncMode mode) throws IOException {
        Path segment = dir.resolve(SegmentDescriptor.fileName(0));
        List<Long> positions = new ArrayList<>();
        byte[] crashImage;
        try (CommitLog log = open(mode)) {
            for (int i = 0; i < RECORDS; i++) {
                byte[] record = payload(i, PAYLOAD);
                positions.add(log.append(record, 0, record.length));
            }
            log.sync();
            crashImage = Files.readAllBytes(segment); // what flushes wrote (the mapping is private)
        }
        long last = positions.get(RECORDS - 1);
        long end = last + RecordDescriptor.alignedFrameLength(PAYLOAD);
        long lagging = TestLogs.durableMarkOfFirstSegment(crashImage);
        assertTrue(lagging <= last, "the crash image's mark lags the last record: " + lagging);
        Files.write(segment, crashImage);
        TestLogs.deleteSegmentsAfterTheFirst(dir);

        open(mode).close(); // recovery, and a clean close with nothing appended
        assertEquals(end, TestLogs.durableMarkOfFirstSegment(Files.readAllBytes(segment)), "the mark is the recovered end");

        TestLogs.flipPayloadByte(segment, last, PAYLOAD);
        CorruptLogException e = assertThrows(CorruptLogException.class,
                () -> CommitLog.open(config(dir, mode).segmentSize(TestLogs.SMALL_SEGMENT).build()).close(),
                "damage to a recovered record below the mark refuses to open under tolerate_tail");
        assertEquals(last, e.position(), e.getMessage());
    }

    @Test
    void recoveryRewritesOnlyTheLastTwoSegmentsFromTheirMarks() throws IOException {
        SimulatedDisk disk = new SimulatedDisk();
        CommitLogConfig config = TestLogs.smallSegmentConfig(dir, SyncMode.PERIODIC);
        byte[] record = payload(1, 1000);
        try (CommitLog log = CommitLog.open(config, disk, TestLogs.NO_DAMAGE)) {
            for (int i = 0; i < 6 * TestLogs.SMALL_SEGMENT / 1000; i++) {
                log.append(record, 0, record.length);
            }
        }
        assertTrue(disk.fileNames().size() >= 6, "a log of at least 6 segments: " + disk.fileNames());

        Map<String, List<SimulatedDisk.FlushEvent>> flushes = new TreeMap<>(); // file names sort by segment id
        AtomicBoolean opening = new AtomicBoolean(true);
        disk.onFlush(event -> {
            if (opening.get()) { // recovery flushes in the opening thread, before open returns
                flushes.computeIfAbsent(event.file(), f -> new ArrayList<>()).add(event);
            }
        });
        try (CommitLog log = CommitLog.open(config, disk, TestLogs.NO_DAMAGE)) {
            opening.set(false);
            assertEquals(6 * TestLogs.SMALL_SEGMENT / 1000, TestLogs.replayAll(log).size());
        }
        List<String> synced = new ArrayList<>(flushes.keySet());
        assertTrue(synced.size() >= 6, "recovery syncs every segment: " + synced);
        long rewritten = 0;
        for (int i = 0; i < synced.size(); i++) {
            for (SimulatedDisk.FlushEvent event : flushes.get(synced.get(i))) {
                if (i < synced.size() - 2) {
                    assertEquals(event.from(), event.to(), synced.get(i) + " is synced, not rewritten: " + event);
                }
                rewritten += event.to() - event.from();
            }
        }
        assertTrue(rewritten <= 2L * TestLogs.SMALL_SEGMENT, "recovery rewrote " + rewritten + " bytes of a "
                + synced.size() + "-segment log: " + flushes);
    }

    private CommitLog open(SyncMode mode) throws IOException {
        return CommitLog.open(config(dir, mode).segmentSize(TestLogs.SMALL_SEGMENT).build(), new MappedStorageLayer(),
                TestLogs.TAIL_ONLY);
    }
}
