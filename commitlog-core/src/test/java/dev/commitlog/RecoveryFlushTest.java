package dev.commitlog;

import static dev.commitlog.TestLogs.config;
import static dev.commitlog.TestLogs.payload;
import static org.junit.jupiter.api.Assertions.*;

import dev.commitlog.config.CommitLogConfig;
import dev.commitlog.config.SyncMode;
import dev.commitlog.disk.MappedStorageLayer;
import dev.commitlog.format.RecordDescriptor;
import dev.commitlog.format.SegmentDescriptor;
import dev.commitlog.io.SimulatedDisk;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
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
    void recoveryOfACleanlyClosedLogSyncsEverySegmentAndRewritesNothing() throws IOException {
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
        // After a clean close the tail's mark is its end, and it vouches for every segment before it.
        int tail = synced.size() - 1;
        for (int i = 0; i < tail; i++) {
            for (SimulatedDisk.FlushEvent event : flushes.get(synced.get(i))) {
                assertEquals(event.from(), event.to(), synced.get(i) + " is synced, not rewritten: " + flushes);
            }
        }
        for (SimulatedDisk.FlushEvent event : flushes.get(synced.get(tail))) {
            // The simulation reports whole pages: a flush of nothing at the end is the end's page.
            assertTrue(event.to() - event.from() <= SimulatedDisk.PAGE, "the tail is synced at its end only: " + event);
        }
    }

    /**
     * A Periodic log whose last sync spanned two segments: the segment before the tail carries a
     * mark from before that sync (its own flushes were claimed with the durable position of the
     * time), and the tail's first flush carries the position where the tail begins. Recovery of the
     * crash image takes the tail's mark as vouching for the whole segment before it, and only syncs
     * it; with its own mark alone it rewrote the segment whole.
     */
    @Test
    void theTailsMarkVouchesForTheSegmentBeforeIt() throws IOException {
        SimulatedDisk disk = new SimulatedDisk();
        CommitLogConfig config = config(dir, SyncMode.PERIODIC).segmentSize(TestLogs.SMALL_SEGMENT)
                .syncPeriod(Duration.ofSeconds(4)).build(); // no sync but the explicit one
        byte[] record = payload(1, 1000);
        int records = 5 * TestLogs.SMALL_SEGMENT / 2 / 1000;
        SimulatedDisk crashed;
        try (CommitLog log = CommitLog.open(config, disk, TestLogs.NO_DAMAGE)) {
            for (int i = 0; i < records; i++) {
                log.append(record, 0, record.length);
            }
            log.sync();
            crashed = disk.crashImage(new Random(1), SimulatedDisk.Loss.NONE);
        }
        String before = SegmentDescriptor.fileName(1);
        String tail = SegmentDescriptor.fileName(2);
        long beforeMark = markOf(crashed, before, 1);
        assertEquals(TestLogs.SMALL_SEGMENT, beforeMark, "precondition: segment 1's own mark is where it begins");
        assertEquals(2L * TestLogs.SMALL_SEGMENT, markOf(crashed, tail, 2), "precondition: the tail's mark is where it begins");

        Map<String, List<SimulatedDisk.FlushEvent>> flushes = new TreeMap<>();
        AtomicBoolean opening = new AtomicBoolean(true);
        crashed.onFlush(event -> {
            if (opening.get()) {
                flushes.computeIfAbsent(event.file(), f -> new ArrayList<>()).add(event);
            }
        });
        try (CommitLog log = CommitLog.open(config, crashed, TestLogs.NO_DAMAGE)) {
            opening.set(false);
            assertEquals(records, TestLogs.replayAll(log).size());
        }
        assertTrue(flushes.containsKey(before), "recovery syncs " + before + ": " + flushes);
        for (SimulatedDisk.FlushEvent event : flushes.get(before)) {
            assertEquals(event.from(), event.to(), before + " is synced, not rewritten: " + event);
        }
    }

    private static long markOf(SimulatedDisk disk, String fileName, long id) {
        byte[] bytes = disk.durableBytes(fileName);
        assertNotNull(bytes, fileName + " is on the device");
        return TestLogs.durableMark(bytes, id);
    }

    private CommitLog open(SyncMode mode) throws IOException {
        return CommitLog.open(config(dir, mode).segmentSize(TestLogs.SMALL_SEGMENT).build(), new MappedStorageLayer(),
                TestLogs.TAIL_ONLY);
    }
}
