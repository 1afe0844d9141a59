package dev.commitlog;

import static dev.commitlog.TestLogs.config;
import static dev.commitlog.TestLogs.payload;
import static org.junit.jupiter.api.Assertions.*;

import dev.commitlog.config.SyncMode;
import dev.commitlog.disk.MappedStorageLayer;
import dev.commitlog.io.ForwardingStorageLayer;
import dev.commitlog.io.SegmentFile;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * A log that keeps appending writes every new segment through the memory of one it has finished
 * with: across dozens of segments the production layer hands out at most four buffers (the
 * segment being filled, the one prepared after it, and the two it keeps), and every record still
 * replays. Fails if sealed, flushed segments stop giving their memory back (a buffer per segment).
 */
class WriterMemoryReuseTest {
    @TempDir
    Path dir;

    @ParameterizedTest
    @EnumSource(value = SyncMode.class, names = {"BATCH", "PERIODIC"})
    void segmentsAfterTheFirstFewReuseTheMemoryOfSealedOnes(SyncMode mode) throws Exception {
        Set<ByteBuffer> buffers = Collections.newSetFromMap(new IdentityHashMap<>());
        AtomicInteger created = new AtomicInteger();
        ForwardingStorageLayer recording = new ForwardingStorageLayer(new MappedStorageLayer()) {
            @Override
            public SegmentFile create(Path path, int size, ByteBuffer header, Set<PosixFilePermission> permissions) throws IOException {
                SegmentFile file = super.create(path, size, header, permissions);
                synchronized (buffers) {
                    buffers.add(file.buffer());
                }
                created.incrementAndGet();
                return file;
            }
        };
        int count = 6_000;
        try (CommitLog log = CommitLog.open(config(dir, mode).segmentSize(TestLogs.SMALL_SEGMENT).build(),
                CommitLogOptions.builder().storage(recording).build())) {
            for (int i = 0; i < count; i++) {
                byte[] record = payload(i, 100 + i % 300);
                log.append(record, 0, record.length);
                if (mode == SyncMode.PERIODIC && i % 200 == 0) {
                    log.sync(); // Periodic's timer is far off: flush, so that sealed segments are released
                }
            }
            log.sync();
            List<TestLogs.Entry> replayed = TestLogs.replayAll(log);
            assertEquals(count, replayed.size());
            for (int i = 0; i < count; i += 97) {
                assertArrayEquals(payload(i, 100 + i % 300), replayed.get(i).payload());
            }
        }
        assertTrue(created.get() > 20, "rolled over many times: " + created.get() + " segments");
        synchronized (buffers) {
            assertTrue(buffers.size() <= 4, buffers.size() + " buffers for " + created.get() + " segments");
        }
    }
}
