package dev.commitlog.bench.jmh;

import dev.commitlog.CommitLog;
import dev.commitlog.config.CommitLogConfig;
import dev.commitlog.config.SyncMode;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Random reads by position: one operation is {@code CommitLog.readAt(position, into)} of a
 * {@value #RECORD_BYTES}-byte record at a random position of a prebuilt log of {@value #LOG_BYTES}
 * payload bytes (64 MiB in 8 MiB segments), from the page cache, checksum verified. Every segment
 * is mapped during warm-up, so this measures the lookup and the verification, not the mapping.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
public class ReadAtBenchmark {
    static final long LOG_BYTES = 64L << 20;
    static final int RECORD_BYTES = 100;
    private static final int SEGMENT_BYTES = 8 << 20;

    private Path directory;
    private CommitLog log;
    private long[] positions;

    /** Each thread's buffer and its place in the walk over the positions (a fixed pseudo-random order). */
    @State(Scope.Thread)
    public static class Reader {
        final ByteBuffer into = ByteBuffer.allocateDirect(RECORD_BYTES);
        int next;
    }

    @Setup(Level.Trial)
    public void build() throws IOException {
        directory = BenchDirectories.create("jmh-readat-");
        byte[] record = new byte[RECORD_BYTES];
        new Random(7).nextBytes(record);
        log = CommitLog.open(CommitLogConfig.builder(directory).syncMode(SyncMode.PERIODIC).segmentSize(SEGMENT_BYTES).build());
        positions = new long[(int) (LOG_BYTES / RECORD_BYTES)];
        for (int i = 0; i < positions.length; i++) {
            positions[i] = log.append(record, 0, record.length);
        }
        log.sync(); // readAt reads below the durable position
        Random order = new Random(11);
        for (int i = positions.length - 1; i > 0; i--) {
            int j = order.nextInt(i + 1);
            long swap = positions[i];
            positions[i] = positions[j];
            positions[j] = swap;
        }
    }

    @TearDown(Level.Trial)
    public void close() throws IOException {
        log.close();
        BenchDirectories.delete(directory);
    }

    @Benchmark
    public int readAt(Reader reader) {
        if (reader.next == positions.length) {
            reader.next = 0;
        }
        reader.into.clear();
        return log.readAt(positions[reader.next++], reader.into);
    }
}
