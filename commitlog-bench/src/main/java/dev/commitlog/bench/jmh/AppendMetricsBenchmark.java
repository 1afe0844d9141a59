package dev.commitlog.bench.jmh;

import dev.commitlog.instrument.AppenderMetrics;
import dev.commitlog.instrument.LatencyHistogram;
import dev.commitlog.instrument.MetricsRecorder;
import java.util.concurrent.TimeUnit;
import org.HdrHistogram.Recorder;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * What the append path's metrics cost per append, apart from any disk: {@code sampled} is what
 * {@code CommitLog.append} does ({@link AppenderMetrics}: count every append, time one in 64);
 * {@code timedEvery} is the alternative of timing every append (two {@code System.nanoTime()}
 * calls and a {@link Recorder} write). Compare with a Periodic append of about 0.4 us
 * ({@link PeriodicAppendBenchmark}), whose disk-bound figures are too noisy to show a few ns.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class AppendMetricsBenchmark {
    private AppenderMetrics metrics;
    private Recorder recorder;

    @Setup
    public void setUp() {
        metrics = new MetricsRecorder().registerAppender(Thread.currentThread());
        recorder = new Recorder(1, LatencyHistogram.HIGHEST_NANOS, 2);
    }

    @Benchmark
    public void sampled() {
        metrics.appendStarted();
        metrics.appendCompleted();
    }

    @Benchmark
    public void timedEvery() {
        long started = System.nanoTime();
        recorder.recordValue(System.nanoTime() - started);
    }
}
