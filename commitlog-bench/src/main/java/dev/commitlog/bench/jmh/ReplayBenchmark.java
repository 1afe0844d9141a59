package dev.commitlog.bench.jmh;

import dev.commitlog.CommitLog;
import dev.commitlog.BytesRecordHandler;
import dev.commitlog.config.CommitLogConfig;
import dev.commitlog.config.SyncMode;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import net.openhft.chronicle.bytes.Bytes;
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
 * Replay throughput over a prebuilt log of {@value #LOG_BYTES} payload bytes (256 MiB) in records of
 * each size, read back from the page cache with every frame's CRC32C verified by the library.
 * One benchmark operation is one whole replay; the {@code payloadBytes} counter is reported per
 * second, i.e. replayed payload bytes/s (divide by 1e9 for GB/s).
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 2, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
public class ReplayBenchmark {
    static final long LOG_BYTES = 256L << 20;

    @Param({"100", "4096"})
    public int recordBytes;

    private Path directory;
    private CommitLog log;
    private long expectedBytes;

    /** Replayed payload bytes in the iteration: JMH reports it as a rate (bytes/s). */
    @State(Scope.Thread)
    @AuxCounters(AuxCounters.Type.OPERATIONS)
    public static class Replayed {
        public long payloadBytes;

        @Setup(Level.Iteration)
        public void reset() {
            payloadBytes = 0;
        }
    }

    /** Sums what the handler sees, touching every payload byte as a real consumer would. */
    private static final class Summer implements BytesRecordHandler {
        long bytes;
        long checksum;

        @Override
        public void onRecord(long position, Bytes<?> payload) {
            long from = payload.readPosition();
            long to = payload.readLimit();
            long sum = 0;
            long i = from;
            for (; i + 8 <= to; i += 8) {
                sum += payload.readLong(i);
            }
            for (; i < to; i++) {
                sum += payload.readByte(i);
            }
            checksum += sum;
            bytes += to - from;
        }
    }

    @Setup(Level.Trial)
    public void build() throws IOException {
        directory = BenchDirectories.create("jmh-replay-");
        byte[] record = new byte[recordBytes];
        new Random(3).nextBytes(record);
        log = CommitLog.open(CommitLogConfig.builder(directory).syncMode(SyncMode.PERIODIC).build());
        long records = LOG_BYTES / recordBytes;
        for (long i = 0; i < records; i++) {
            log.append(record, 0, record.length);
        }
        log.sync();   // replay reads up to the durable position: make all of it durable
        expectedBytes = records * recordBytes;
    }

    @TearDown(Level.Trial)
    public void close() throws IOException {
        log.close();
        BenchDirectories.delete(directory);
    }

    @Benchmark
    public long replay(Replayed replayed) throws IOException {
        Summer summer = new Summer();
        log.replayBytes(0, summer);
        if (summer.bytes != expectedBytes) {
            throw new IllegalStateException("replayed " + summer.bytes + " payload bytes, expected " + expectedBytes);
        }
        replayed.payloadBytes += summer.bytes;
        return summer.checksum;
    }
}
