package dev.commitlog.bench.jmh;

import dev.commitlog.CommitLog;
import dev.commitlog.config.CommitLogConfig;
import dev.commitlog.config.SyncMode;
import java.io.IOException;
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
 * What opening an existing log costs: one operation is {@code CommitLog.open} and {@code close} of
 * a prebuilt, cleanly closed log of {@value #LOG_BYTES} payload bytes (256 MiB in 8 segments of
 * 32 MiB), from the page cache: recovery's walk with every checksum verified, its syncs and
 * rewrites (docs/durability.md, "Recovery makes what it finds durable"), and the next segment's
 * preallocation.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 2, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
public class OpenBenchmark {
    static final long LOG_BYTES = 256L << 20;
    private static final int RECORD_BYTES = 1000;

    private Path directory;
    private CommitLogConfig config;

    @Setup(Level.Trial)
    public void build() throws IOException {
        directory = BenchDirectories.create("jmh-open-");
        config = CommitLogConfig.builder(directory).syncMode(SyncMode.PERIODIC).build();
        byte[] record = new byte[RECORD_BYTES];
        new Random(5).nextBytes(record);
        try (CommitLog log = CommitLog.open(config)) {
            for (long i = 0; i < LOG_BYTES / RECORD_BYTES; i++) {
                log.append(record, 0, record.length);
            }
        }
    }

    @TearDown(Level.Trial)
    public void delete() throws IOException {
        BenchDirectories.delete(directory);
    }

    @Benchmark
    public long openAndClose() throws IOException {
        try (CommitLog log = CommitLog.open(config)) {
            return log.durablePosition();
        }
    }
}
