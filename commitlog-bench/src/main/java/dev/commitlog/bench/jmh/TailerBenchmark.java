package dev.commitlog.bench.jmh;

import dev.commitlog.CommitLog;
import dev.commitlog.LogTailer;
import dev.commitlog.RecordHandler;
import dev.commitlog.config.CommitLogConfig;
import dev.commitlog.config.SyncMode;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.AuxCounters;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Tailer throughput: one operation opens a tailer at position 0 of a prebuilt log of
 * {@value #LOG_BYTES} payload bytes (64 MiB in 8 MiB segments) and polls every record, checksum
 * verified, from the page cache. The {@code records} counter is reported per second.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
public class TailerBenchmark {
    static final long LOG_BYTES = 64L << 20;
    private static final int SEGMENT_BYTES = 8 << 20;

    @Param({"100", "4096"})
    public int recordBytes;

    private Path directory;
    private CommitLog log;
    private long expectedRecords;

    /** Records tailed in the iteration: JMH reports it as a rate (records/s). */
    @State(Scope.Thread)
    @AuxCounters(AuxCounters.Type.OPERATIONS)
    public static class Tailed {
        public long records;

        @Setup(Level.Iteration)
        public void reset() {
            records = 0;
        }
    }

    /** Sums one long of each record, as a consumer that looks at every record would. */
    private static final class Summer implements RecordHandler {
        long count;
        long sum;

        @Override
        public void onRecord(long position, ByteBuffer record) {
            sum += record.getLong(record.position());
            count++;
        }
    }

    @Setup(Level.Trial)
    public void build() throws IOException {
        directory = BenchDirectories.create("jmh-tailer-");
        byte[] record = new byte[recordBytes];
        new Random(13).nextBytes(record);
        log = CommitLog.open(CommitLogConfig.builder(directory).syncMode(SyncMode.PERIODIC).segmentSize(SEGMENT_BYTES).build());
        expectedRecords = LOG_BYTES / recordBytes;
        for (long i = 0; i < expectedRecords; i++) {
            log.append(record, 0, record.length);
        }
        log.sync(); // a tailer reads below the durable position
    }

    @TearDown(Level.Trial)
    public void close() throws IOException {
        log.close();
        BenchDirectories.delete(directory);
    }

    @Benchmark
    public long tail(Tailed tailed) throws IOException {
        Summer summer = new Summer();
        try (LogTailer tailer = log.tailer(0)) {
            while (tailer.poll(summer, 4_096) > 0) {
                // until everything durable has been read
            }
        }
        if (summer.count != expectedRecords) {
            throw new IllegalStateException("tailed " + summer.count + " records, expected " + expectedRecords);
        }
        tailed.records += summer.count;
        return summer.sum;
    }
}
