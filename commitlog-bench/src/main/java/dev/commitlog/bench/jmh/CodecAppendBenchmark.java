package dev.commitlog.bench.jmh;

import dev.commitlog.CommitLog;
import dev.commitlog.bench.codec.Encoding;
import dev.commitlog.codecs.example.WalRecord;
import dev.commitlog.config.CommitLogConfig;
import dev.commitlog.config.SyncMode;
import java.io.IOException;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
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
 * One thread appending WalRecords to a Periodic log (no flush wait, so the append path itself is
 * measured) through each encoding. Run with {@code -prof gc}: {@code gc.alloc.rate.norm} is the
 * bytes allocated per append (the hand codec's target is 0, as raw {@code byte[]} appends).
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class CodecAppendBenchmark {
    @Param({"raw", "hand", "protobuf", "msgpack", "kryo", "kryo-staged", "cbor", "smile", "json"})
    public String encoding;

    private Encoding chosen;
    private WalRecord[] records;
    private byte[][] raw;
    private Path directory;
    private CommitLog log;
    private int next;

    @Setup(Level.Trial)
    public void open() throws IOException {
        chosen = Encoding.named(encoding);
        records = Encoding.samples();
        raw = Encoding.rawSamples(records);
        directory = BenchDirectories.create("jmh-codec-append-");
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
    public long append() {
        return chosen.append(log, records, raw, next++ & 1023);
    }
}
