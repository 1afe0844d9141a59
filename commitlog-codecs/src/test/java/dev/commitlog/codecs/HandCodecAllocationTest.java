package dev.commitlog.codecs;

import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.management.ThreadMXBean;
import dev.commitlog.CommitLog;
import dev.commitlog.CommitLogOptions;
import dev.commitlog.codecs.example.WalRecord;
import dev.commitlog.codecs.example.WalRecordBytesCodec;
import dev.commitlog.config.CommitLogConfig;
import dev.commitlog.config.SyncMode;
import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The hand codec allocates nothing per append, for ASCII notes (its bulk path) and for non-ASCII
 * ones (char by char), measured as core's CodecAllocationTest does: the appending thread's
 * allocated-bytes counter over many appends after a warm-up.
 */
class HandCodecAllocationTest {
    private static final int WARM_UP = 30_000;
    private static final int MEASURED = 20_000;
    /** Tolerated noise; one 16-byte object per record would be 320 KB. */
    private static final long NOISE = 64 * 1024;

    @TempDir
    Path dir;

    @Test
    void appendingWalRecordsAllocatesNothingPerRecord() throws Exception {
        ThreadMXBean threads = (ThreadMXBean) ManagementFactory.getThreadMXBean();
        long threadId = Thread.currentThread().getId();
        WalRecord[] records = new WalRecord[64];
        for (int i = 0; i < records.length; i++) {
            records[i] = WalRecord.sample(i);
            if (i % 4 == 3) {
                records[i].note = "crème brûlée ☕ " + i; // not ASCII: the char-by-char path
            }
        }
        CommitLogConfig config = CommitLogConfig.builder(dir).syncMode(SyncMode.PERIODIC).segmentSize(32 << 20).build();
        try (CommitLog log = CommitLog.open(config, CommitLogOptions.builder().noJmx().build())) {
            for (int i = 0; i < WARM_UP; i++) {
                log.append(records[i & 63], WalRecordBytesCodec.INSTANCE);
            }
            long before = threads.getThreadAllocatedBytes(threadId);
            for (int i = 0; i < MEASURED; i++) {
                log.append(records[i & 63], WalRecordBytesCodec.INSTANCE);
            }
            long allocated = threads.getThreadAllocatedBytes(threadId) - before;
            assertTrue(allocated < NOISE, allocated + " bytes allocated over " + MEASURED + " hand-codec appends");
        }
    }
}
