package dev.commitlog;

import static dev.commitlog.TestLogs.config;
import static org.junit.jupiter.api.Assertions.*;

import com.sun.management.ThreadMXBean;
import dev.commitlog.config.SyncMode;
import java.lang.management.ManagementFactory;
import java.nio.ByteBuffer;
import java.nio.ReadOnlyBufferException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What replay and the tailer hand a {@link RecordHandler}: a read-only ByteBuffer positioned at
 * the record, one view reused for every record of a segment (nothing allocated per record); and
 * the Chronicle view through {@code replayBytes}/{@code pollBytes}, with the same records.
 */
class RecordViewTest {
    private static final int RECORDS = 300;

    @TempDir
    Path dir;

    @Test
    void replayHandsOneReadOnlyBufferPositionedAtEachRecord() throws Exception {
        try (CommitLog log = CommitLog.open(config(dir, SyncMode.BATCH).build())) {
            List<Long> written = appendRecords(log);
            List<Long> seen = new ArrayList<>();
            Map<ByteBuffer, Boolean> views = new IdentityHashMap<>();
            log.replay(0, (position, record) -> {
                int index = seen.size();
                seen.add(position);
                views.put(record, true);
                assertTrue(record.isReadOnly());
                assertArrayEquals(payload(index), TestLogs.bytes(record), "record " + index);
                assertThrows(ReadOnlyBufferException.class, () -> record.put(record.position(), (byte) 1));
                record.position(record.limit()); // moving it is allowed: the next record repositions it
            });
            assertEquals(written, seen);
            assertEquals(1, views.size(), "one view for the whole segment, re-pointed at each record");
        }
    }

    @Test
    void replayBytesHandsTheSameRecordsAsChronicleBytes() throws Exception {
        try (CommitLog log = CommitLog.open(config(dir, SyncMode.BATCH).build())) {
            List<Long> written = appendRecords(log);
            List<Long> seen = new ArrayList<>();
            log.replayBytes(0, (position, payload) -> {
                assertArrayEquals(payload(seen.size()), payload.toByteArray());
                seen.add(position);
            });
            assertEquals(written, seen);
        }
    }

    @Test
    void tailerPollAndPollBytesHandTheSameRecords() throws Exception {
        try (CommitLog log = CommitLog.open(config(dir, SyncMode.BATCH).build())) {
            List<Long> written = appendRecords(log);
            List<Long> polled = new ArrayList<>();
            Map<ByteBuffer, Boolean> views = new IdentityHashMap<>();
            try (LogTailer tailer = log.tailer(0)) {
                while (tailer.poll((position, record) -> {
                    assertTrue(record.isReadOnly());
                    assertArrayEquals(payload(polled.size()), TestLogs.bytes(record));
                    views.put(record, true);
                    polled.add(position);
                }, 7) > 0) {
                    // 7 at a time: the view survives across polls within a segment
                }
            }
            assertEquals(written, polled);
            assertEquals(1, views.size());
            List<Long> polledBytes = new ArrayList<>();
            try (LogTailer tailer = log.tailer(0)) {
                while (tailer.pollBytes((position, payload) -> {
                    assertArrayEquals(payload(polledBytes.size()), payload.toByteArray());
                    polledBytes.add(position);
                }, 1_000, 10, TimeUnit.MILLISECONDS) > 0) {
                    // until the timeout passes with nothing new
                }
            }
            assertEquals(written, polledBytes);
        }
    }

    /** Thousands of records replayed cost the replaying thread no more than a few KB: nothing per record. */
    @Test
    void replayAllocatesNothingPerRecord() throws Exception {
        ThreadMXBean threads = (ThreadMXBean) ManagementFactory.getThreadMXBean();
        try (CommitLog log = CommitLog.open(config(dir, SyncMode.PERIODIC).segmentSize(16 << 20).build(),
                CommitLogOptions.builder().noJmx().build())) {
            byte[] record = new byte[64];
            for (int i = 0; i < 20_000; i++) {
                log.append(record, 0, record.length);
            }
            log.sync();
            long[] sum = new long[1];
            RecordHandler handler = (position, view) -> sum[0] += view.remaining();
            for (int i = 0; i < 5; i++) {
                log.replay(0, handler); // warm up
            }
            long id = Thread.currentThread().getId();
            long before = threads.getThreadAllocatedBytes(id);
            log.replay(0, handler);
            long allocated = threads.getThreadAllocatedBytes(id) - before;
            // One replay's fixed cost (listing, a mapping, progress) is a few KB; 16 bytes per record would be 320 KB.
            assertTrue(allocated < 64 * 1024, allocated + " bytes allocated replaying 20,000 records");
            assertEquals(6L * 20_000 * 64, sum[0]);
        }
    }

    private static List<Long> appendRecords(CommitLog log) {
        List<Long> positions = new ArrayList<>();
        for (int i = 0; i < RECORDS; i++) {
            byte[] record = payload(i);
            positions.add(log.append(record, 0, record.length));
        }
        return positions;
    }

    private static byte[] payload(int index) {
        byte[] bytes = new byte[1 + index % 50];
        for (int i = 0; i < bytes.length; i++) {
            bytes[i] = (byte) (index * 31 + i);
        }
        return bytes;
    }
}
