package dev.commitlog.bench.jmh;

import dev.commitlog.AppendClaim;
import dev.commitlog.CommitLog;
import dev.commitlog.config.CommitLogConfig;
import dev.commitlog.config.SyncMode;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import net.openhft.chronicle.bytes.Bytes;
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
import org.openjdk.jmh.annotations.Threads;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Periodic-mode appends from 1 and 2 threads, through {@code append(byte[])} and through the
 * zero-copy {@code claim}. Run with {@code -prof gc}: {@code gc.alloc.rate.norm} is the bytes
 * allocated per append (the target is 0). Iterations are short because Periodic appends fill
 * 32 MiB segments at hundreds of MB/s; durable segments are discarded between iterations.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class PeriodicAppendBenchmark {

    @Param({"100"})
    public int recordBytes;

    private Path directory;
    private CommitLog log;

    /** Each thread's record and reusable claim: nothing is allocated per append by the benchmark. */
    @State(Scope.Thread)
    public static class Writer {
        byte[] record;
        final AppendClaim claim = new AppendClaim();

        @Setup(Level.Trial)
        public void setUp(PeriodicAppendBenchmark b) {
            record = new byte[b.recordBytes];
            new Random(7).nextBytes(record);
        }
    }

    @Setup(Level.Trial)
    public void open() throws IOException {
        directory = BenchDirectories.create("jmh-periodic-");
        log = CommitLog.open(CommitLogConfig.builder(directory).syncMode(SyncMode.PERIODIC).build());
    }

    /** Keeps the disk footprint bounded: segments the periodic sync already covered go. */
    @TearDown(Level.Iteration)
    public void discardDurable() throws IOException {
        log.discardUpTo(log.durablePosition());
    }

    @TearDown(Level.Trial)
    public void close() throws IOException {
        log.close();
        BenchDirectories.delete(directory);
    }

    @Benchmark
    @Threads(1)
    public long append1(Writer w) {
        return log.append(w.record, 0, w.record.length);
    }

    @Benchmark
    @Threads(2)
    public long append2(Writer w) {
        return log.append(w.record, 0, w.record.length);
    }

    @Benchmark
    @Threads(1)
    public long claim1(Writer w) {
        Bytes<?> out = log.claim(w.record.length, w.claim);
        out.write(w.record);
        return w.claim.commit();
    }
}
