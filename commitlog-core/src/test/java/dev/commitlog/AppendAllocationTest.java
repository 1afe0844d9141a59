package dev.commitlog;

import static dev.commitlog.TestLogs.config;
import static org.junit.jupiter.api.Assertions.*;

import com.sun.management.ThreadMXBean;
import dev.commitlog.config.SyncMode;
import java.lang.management.ManagementFactory;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The append path, metrics included, allocates nothing per record: the appending thread's
 * allocated-bytes counter (HotSpot's per-thread TLAB accounting) barely moves over thousands of
 * appends once the path is warm. Segments are large enough that no rollover happens while measuring
 * (a rollover allocates a little, once per segment).
 */
class AppendAllocationTest {
    private static final int WARM_UP = 30_000;
    private static final int MEASURED = 20_000;
    /** Batch appends each wait for a real fdatasync (~0.2 ms here), so fewer of them. */
    private static final int BATCH_WARM_UP = 8_000;
    private static final int BATCH_MEASURED = 5_000;

    @TempDir
    Path dir;

    @ParameterizedTest
    @EnumSource(value = SyncMode.class, names = {"PERIODIC", "BATCH"})
    void appendsAllocateNothingPerRecord(SyncMode mode) throws Exception {
        ThreadMXBean threads = (ThreadMXBean) ManagementFactory.getThreadMXBean();
        byte[] record = new byte[100];
        AppendClaim claim = new AppendClaim();
        ByteBuffer buffer = ByteBuffer.allocateDirect(record.length);
        // The real file layer: a lone Batch appender runs each flush itself (pwrite + fdatasync),
        // so the flush path is part of the append path measured here. A simulated disk would
        // count the simulator's own bookkeeping.
        int warmUp = mode == SyncMode.BATCH ? BATCH_WARM_UP : WARM_UP;
        int measured = mode == SyncMode.BATCH ? BATCH_MEASURED : MEASURED;
        try (CommitLog log = CommitLog.open(config(dir, mode).segmentSize(16 << 20).build(),
                CommitLogOptions.builder().noJmx().build())) {
            for (int i = 0; i < warmUp; i++) {
                append(log, record, buffer, claim, i);
            }
            long threadId = Thread.currentThread().getId();
            long before = threads.getThreadAllocatedBytes(threadId);
            for (int i = 0; i < measured; i++) {
                append(log, record, buffer, claim, i);
            }
            long allocated = threads.getThreadAllocatedBytes(threadId) - before;
            // A few KB of noise (the counter read itself, JIT activity) are tolerated; one 16-byte
            // object per append would be 80 KB or more.
            assertTrue(allocated < 64 * 1024, mode + ": " + allocated + " bytes allocated over " + measured + " appends");
        }
    }

    /** Each of the three ways in, in turn: an array, a zero-copy claim, a direct buffer. */
    private static void append(CommitLog log, byte[] record, ByteBuffer buffer, AppendClaim claim, int i) {
        switch (i % 3) {
            case 0 -> log.append(record, 0, record.length);
            case 1 -> {
                log.claim(record.length, claim).write(record);
                claim.commit();
            }
            default -> log.append(buffer);
        }
    }
}
