package dev.commitlog;

import static dev.commitlog.TestLogs.config;
import static org.junit.jupiter.api.Assertions.*;

import com.sun.management.ThreadMXBean;
import dev.commitlog.codec.TestCodecs;
import dev.commitlog.codec.TestCodecs.Keyed;
import dev.commitlog.codec.TestCodecs.KeyedCodec;
import dev.commitlog.codec.TypedAppendCallback;
import dev.commitlog.codec.TypedRecordHandler;
import dev.commitlog.config.SyncMode;
import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Typed appends allocate nothing per record when the codec allocates nothing: through Chronicle
 * Bytes, through a ByteBuffer with a shrinking claim, and through the staging copy; and a replay
 * that decodes into a reused instance allocates nothing per record either. Measured as
 * {@link AppendAllocationTest} does, with the appending thread's allocated-bytes counter.
 */
class CodecAllocationTest {
    private static final int WARM_UP = 30_000;
    private static final int MEASURED = 20_000;
    private static final int BATCH_WARM_UP = 8_000;
    private static final int BATCH_MEASURED = 5_000;
    /** Tolerated noise; one 16-byte object per record would be 80 KB or more. */
    private static final long NOISE = 64 * 1024;

    @TempDir
    Path dir;

    @ParameterizedTest
    @EnumSource(value = SyncMode.class, names = {"PERIODIC", "BATCH"})
    void typedAppendsAndReplayAllocateNothingPerRecord(SyncMode mode) throws Exception {
        ThreadMXBean threads = (ThreadMXBean) ManagementFactory.getThreadMXBean();
        long threadId = Thread.currentThread().getId();
        long[] pair = {1, 2};
        Keyed keyed = new Keyed();
        keyed.text.append("a key of some forty characters, ASCII...");
        KeyedCodec bounded = new KeyedCodec(true);
        KeyedCodec staged = new KeyedCodec(false);
        int warmUp = mode == SyncMode.BATCH ? BATCH_WARM_UP : WARM_UP;
        int measured = mode == SyncMode.BATCH ? BATCH_MEASURED : MEASURED;
        try (CommitLog log = CommitLog.open(config(dir, mode).segmentSize(32 << 20).build(), CommitLogOptions.builder().noJmx().build())) {
            for (int i = 0; i < warmUp; i++) {
                append(log, pair, keyed, bounded, staged, i);
            }
            long before = threads.getThreadAllocatedBytes(threadId);
            for (int i = 0; i < measured; i++) {
                append(log, pair, keyed, bounded, staged, i);
            }
            long allocated = threads.getThreadAllocatedBytes(threadId) - before;
            assertTrue(allocated < NOISE, mode + ": " + allocated + " bytes allocated over " + measured + " typed appends");

            // Replay reads durable records only; a Periodic log may not have synced yet (a warm JVM
            // appends all of them within one sync period).
            log.sync();
            long[] sum = new long[1];
            TypedRecordHandler<Keyed> handler = (position, record) -> sum[0] += record.key;
            KeyedCodec decoder = new KeyedCodec(true);
            log.replay(0, decoder, handler); // warm-up; its records: a third are LONG_PAIR frames read as Keyed, harmless here
            before = threads.getThreadAllocatedBytes(threadId);
            log.replay(0, decoder, handler);
            allocated = threads.getThreadAllocatedBytes(threadId) - before;
            long records = warmUp + measured;
            // A replay allocates a little per segment (a mapping, a view) and per call (progress, a walker): not per record.
            assertTrue(allocated < NOISE, mode + ": " + allocated + " bytes allocated replaying " + records + " records");
            assertTrue(sum[0] != 0);
        }
    }

    /**
     * An asynchronous typed append with one {@link TypedAppendCallback} object allocates nothing per
     * record on the appending thread: the record is handed back from the completion ring's slot.
     */
    @ParameterizedTest
    @EnumSource(value = SyncMode.class, names = {"PERIODIC", "BATCH"})
    void typedAsyncAppendsWithOneCallbackAllocateNothingPerRecord(SyncMode mode) throws Exception {
        ThreadMXBean threads = (ThreadMXBean) ManagementFactory.getThreadMXBean();
        long threadId = Thread.currentThread().getId();
        Keyed keyed = new Keyed();
        keyed.text.append("a key of some forty characters, ASCII...");
        KeyedCodec bounded = new KeyedCodec(true);
        AtomicLong completed = new AtomicLong();
        TypedAppendCallback<Keyed> callback = (record, position, failure) -> completed.incrementAndGet();
        try (CommitLog log = CommitLog.open(config(dir, mode).segmentSize(32 << 20).build(), CommitLogOptions.builder().noJmx().build())) {
            for (int i = 0; i < WARM_UP; i++) {
                keyed.key = i;
                log.appendAsync(keyed, bounded, callback);
            }
            long before = threads.getThreadAllocatedBytes(threadId);
            for (int i = 0; i < MEASURED; i++) {
                keyed.key = i;
                log.appendAsync(keyed, bounded, callback);
            }
            long allocated = threads.getThreadAllocatedBytes(threadId) - before;
            assertTrue(allocated < NOISE, mode + ": " + allocated + " bytes allocated over " + MEASURED + " typed asynchronous appends");
        }
        assertEquals(WARM_UP + MEASURED, completed.get(), "close completes every append");
    }

    /** Each of the three ways in, in turn: Chronicle Bytes, an in-place ByteBuffer that shrinks, a staged copy. */
    private static void append(CommitLog log, long[] pair, Keyed keyed, KeyedCodec bounded, KeyedCodec staged, int i) {
        keyed.key = i;
        switch (i % 3) {
            case 0 -> log.append(pair, TestCodecs.LONG_PAIR);
            case 1 -> log.append(keyed, bounded);
            default -> log.append(keyed, staged);
        }
    }
}
