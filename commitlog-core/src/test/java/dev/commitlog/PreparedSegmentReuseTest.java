package dev.commitlog;

import static dev.commitlog.TestLogs.NO_DAMAGE;
import static dev.commitlog.TestLogs.payload;
import static dev.commitlog.TestLogs.waitUntil;
import static org.junit.jupiter.api.Assertions.*;

import dev.commitlog.config.CommitLogConfig;
import dev.commitlog.config.SyncMode;
import dev.commitlog.format.SegmentDescriptor;
import dev.commitlog.io.ForwardingStorageLayer;
import dev.commitlog.io.SegmentFile;
import dev.commitlog.io.SimulatedDisk;
import dev.commitlog.io.StorageLayer;
import dev.commitlog.segment.SegmentHeader;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The segment the allocator prepared after the tail survives a reopen and is the one the log rolls
 * into: a clean reopen creates no segment (32 MiB of zeros written and synced, at the default size).
 * What makes that safe is checked here too: records an earlier life of the log left in that file, at
 * the very positions the log writes next, are voided by a new salt before the log opens (without
 * rewriting them), and a file that does not fit (another size) is replaced, not reused.
 */
class PreparedSegmentReuseTest {
    private static final int PAYLOAD = 1000;
    private static final String FIRST = SegmentDescriptor.fileName(0);
    private static final String NEXT = SegmentDescriptor.fileName(1);

    @TempDir
    Path dir;

    @Test
    void aCleanReopenRollsIntoThePreparedSegmentWithoutCreatingIt() throws Exception {
        SimulatedDisk disk = new SimulatedDisk();
        CommitLogConfig config = TestLogs.smallSegmentConfig(dir, SyncMode.BATCH);
        List<TestLogs.Entry> appended = new ArrayList<>();
        try (CommitLog log = CommitLog.open(config, disk, NO_DAMAGE)) {
            append(log, 0, 20, appended);
            waitUntil(() -> disk.fileNames().contains(NEXT), NEXT + " is prepared");
        }
        RecordingCreates recording = new RecordingCreates(disk);
        try (CommitLog log = CommitLog.open(config, recording, NO_DAMAGE)) {
            append(log, 20, 120, appended); // about 63 records fill a 64 KiB segment: this rolls over into segment 1
            TestLogs.assertReplaysExactly(appended, TestLogs.replayAll(log), "the reopened log");
        }
        assertFalse(recording.created.contains(NEXT), NEXT + " was reused, not created again: created " + recording.created);
        assertTrue(recording.created.contains(SegmentDescriptor.fileName(2)), "the segment after it was created: " + recording.created);
    }

    /**
     * An earlier life of the log reached segment 1 and was then cut back into segment 0 (damage under
     * a policy that ends the log there, or an operator's truncation): segment 1 still holds its
     * records, with no durable mark (the mark is written lazily). Reused as it is, those records
     * would be replayed after the tail's end marker once the log rolls over; zeroed in the
     * background, a crash right after the end marker's flush would bring them back. So they are
     * zeroed on the device before the log opens.
     */
    @Test
    void recordsAnEarlierLifeLeftInThePreparedSegmentAreVoidedByANewSaltBeforeTheLogOpens() throws Exception {
        CommitLogConfig config = TestLogs.smallSegmentConfig(dir, SyncMode.BATCH);
        SimulatedDisk earlier = new SimulatedDisk();
        try (CommitLog log = CommitLog.open(config, earlier, NO_DAMAGE)) {
            append(log, 1000, 1120, new ArrayList<>()); // segment 1 holds about 57 records
        }
        byte[] stale = earlier.durableBytes(NEXT);
        SegmentHeader.writeDurableMark(ByteBuffer.wrap(stale), 1, 0); // no mark, as before the first lazy one
        assertFalse(zeroPastHeader(stale), "precondition: the earlier life's segment 1 holds records");

        SimulatedDisk later = new SimulatedDisk();
        List<TestLogs.Entry> appended = new ArrayList<>();
        try (CommitLog log = CommitLog.open(config, later, NO_DAMAGE)) {
            append(log, 0, 20, appended);
            waitUntil(() -> later.fileNames().contains(NEXT), NEXT + " is prepared");
        }
        Map<String, byte[]> image = new TreeMap<>();
        image.put(FIRST, later.durableBytes(FIRST));
        image.put(NEXT, stale);
        SimulatedDisk disk = SimulatedDisk.holding(image);

        try (CommitLog log = CommitLog.open(config, disk, NO_DAMAGE)) {
            byte[] onDevice = disk.durableBytes(NEXT);
            int salt = ByteBuffer.wrap(onDevice).order(ByteOrder.LITTLE_ENDIAN).getInt(SegmentDescriptor.SALT_OFFSET);
            assertNotEquals(0, salt, NEXT + " has a new salt on the device before the first append");
            assertArrayEquals(Arrays.copyOfRange(stale, SimulatedDisk.PAGE, stale.length),
                    Arrays.copyOfRange(onDevice, SimulatedDisk.PAGE, onDevice.length), "and its records were not rewritten");
            append(log, 20, 70, appended); // a few records into segment 1, far fewer than the earlier life left there
        }
        try (CommitLog log = CommitLog.open(config, disk, NO_DAMAGE)) {
            TestLogs.assertReplaysExactly(appended, TestLogs.replayAll(log), "the log after rolling into the reused segment");
        }
    }

    @Test
    void aPreparedSegmentOfAnotherSizeIsReplacedNotReused() throws Exception {
        SimulatedDisk disk = new SimulatedDisk();
        List<TestLogs.Entry> appended = new ArrayList<>();
        try (CommitLog log = CommitLog.open(TestLogs.smallSegmentConfig(dir, SyncMode.BATCH), disk, NO_DAMAGE)) {
            append(log, 0, 20, appended);
            waitUntil(() -> disk.fileNames().contains(NEXT), NEXT + " is prepared");
        }
        int larger = 2 * TestLogs.SMALL_SEGMENT;
        CommitLogConfig resized = CommitLogConfig.builder(dir).syncMode(SyncMode.BATCH).segmentSize(larger).build();
        RecordingCreates recording = new RecordingCreates(disk);
        try (CommitLog log = CommitLog.open(resized, recording, NO_DAMAGE)) {
            append(log, 20, 120, appended); // rolls over from the 64 KiB segment 0
            TestLogs.assertReplaysExactly(appended, TestLogs.replayAll(log), "the resized log");
        }
        assertTrue(recording.created.contains(NEXT), NEXT + " was made again at the configured size: created " + recording.created);
        assertEquals(larger, disk.durableBytes(NEXT).length);
    }

    private static void append(CommitLog log, int from, int to, List<TestLogs.Entry> appended) {
        for (int i = from; i < to; i++) {
            byte[] record = payload(i, PAYLOAD);
            appended.add(new TestLogs.Entry(log.append(record, 0, record.length), record));
        }
    }

    private static boolean zeroPastHeader(byte[] segment) {
        for (int i = SegmentDescriptor.SEGMENT_HEADER_LENGTH; i < segment.length; i++) {
            if (segment[i] != 0) {
                return false;
            }
        }
        return true;
    }

    /** Records the name of every file created through it. */
    private static final class RecordingCreates extends ForwardingStorageLayer {
        final List<String> created = Collections.synchronizedList(new ArrayList<>());

        RecordingCreates(StorageLayer delegate) {
            super(delegate);
        }

        @Override
        public SegmentFile create(Path path, int size, ByteBuffer header, Set<PosixFilePermission> permissions) throws IOException {
            created.add(path.getFileName().toString());
            return super.create(path, size, header, permissions);
        }
    }
}
