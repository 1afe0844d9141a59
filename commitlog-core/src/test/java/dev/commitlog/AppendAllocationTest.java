package dev.commitlog;

import static dev.commitlog.TestLogs.config;
import static org.junit.jupiter.api.Assertions.*;

import com.sun.management.ThreadMXBean;
import dev.commitlog.config.SyncMode;
import dev.commitlog.io.SimulatedDisk;
import java.lang.management.ManagementFactory;
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

    @TempDir
    Path dir;

    @ParameterizedTest
    @EnumSource(value = SyncMode.class, names = {"PERIODIC", "BATCH"})
    void appendsAllocateNothingPerRecord(SyncMode mode) throws Exception {
        ThreadMXBean threads = (ThreadMXBean) ManagementFactory.getThreadMXBean();
        byte[] record = new byte[100];
        AppendClaim claim = new AppendClaim();
        // The simulated disk keeps batch-mode flushes cheap; the appender's path is the same.
        try (CommitLog log = CommitLog.open(config(dir, mode).segmentSize(16 << 20).build(),
                CommitLogOptions.builder().storage(new SimulatedDisk()).noJmx().build())) {
            for (int i = 0; i < WARM_UP; i++) {
                append(log, record, claim, i);
            }
            long threadId = Thread.currentThread().getId();
            long before = threads.getThreadAllocatedBytes(threadId);
            for (int i = 0; i < MEASURED; i++) {
                append(log, record, claim, i);
            }
            long allocated = threads.getThreadAllocatedBytes(threadId) - before;
            // A few KB of noise (the counter read itself, JIT activity) are tolerated; one 16-byte
            // object per append would be 320 KB.
            assertTrue(allocated < 64 * 1024, mode + ": " + allocated + " bytes allocated over " + MEASURED + " appends");
        }
    }

    private static void append(CommitLog log, byte[] record, AppendClaim claim, int i) {
        if ((i & 1) == 0) {
            log.append(record, 0, record.length);
        } else {
            log.claim(record.length, claim).write(record);
            claim.commit();
        }
    }
}
