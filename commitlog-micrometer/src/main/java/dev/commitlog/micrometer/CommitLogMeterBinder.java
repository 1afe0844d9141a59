package dev.commitlog.micrometer;

import dev.commitlog.CommitLog;
import dev.commitlog.metrics.CommitLogMetrics;
import dev.commitlog.metrics.LatencySnapshot;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.FunctionTimer;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tag;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.TimeGauge;
import io.micrometer.core.instrument.binder.MeterBinder;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.function.LongSupplier;
import java.util.function.Supplier;
import java.util.function.ToDoubleFunction;
import java.util.function.ToLongFunction;

/**
 * Publishes a commit log's metrics ({@link CommitLog#metrics()}, the same figures as its JMX bean)
 * to a Micrometer registry. Every meter is named {@code commitlog.*} and tagged with the log's
 * directory; see docs/operations.md for what each one means.
 *
 * <pre>{@code
 * new CommitLogMeterBinder(log).bindTo(registry);
 * }</pre>
 *
 * <p>Counters are cumulative since the log opened (Micrometer turns them into rates). The latency
 * histograms are cumulative too, so their quantile gauges describe the whole life of the log, as
 * the JMX bean's do. A scrape reads many meters at once: they share one snapshot of the metrics,
 * taken at most once per {@code maxSnapshotAgeNanos} (a snapshot copies four latency histograms).
 */
public final class CommitLogMeterBinder implements MeterBinder {
    /** The quantiles published for each latency histogram, as gauges tagged {@code quantile}. */
    private static final double[] QUANTILES = {0.5, 0.99, 0.999};
    private static final long DEFAULT_MAX_SNAPSHOT_AGE_NANOS = TimeUnit.MILLISECONDS.toNanos(500);

    private final Supplier<CommitLogMetrics> source;
    private final Iterable<Tag> tags;
    private final long maxSnapshotAgeNanos;
    private final LongSupplier nanoClock;
    private CommitLogMetrics snapshot;
    private long snapshotAt;

    /** Binds {@code log}'s metrics, tagged {@code directory=<the log directory>}. */
    public CommitLogMeterBinder(CommitLog log) {
        this(log::metrics, Tags.of("directory", log.config().directory().toString()));
    }

    /** Binds the metrics {@code source} returns (e.g. {@code log::metrics}), with {@code tags} on every meter. */
    public CommitLogMeterBinder(Supplier<CommitLogMetrics> source, Iterable<Tag> tags) {
        this(source, tags, DEFAULT_MAX_SNAPSHOT_AGE_NANOS, System::nanoTime);
    }

    CommitLogMeterBinder(Supplier<CommitLogMetrics> source, Iterable<Tag> tags, long maxSnapshotAgeNanos, LongSupplier nanoClock) {
        this.source = Objects.requireNonNull(source, "source");
        this.tags = Objects.requireNonNull(tags, "tags");
        this.maxSnapshotAgeNanos = maxSnapshotAgeNanos;
        this.nanoClock = nanoClock;
    }

    @Override
    public void bindTo(MeterRegistry registry) {
        counter(registry, "commitlog.appends.completed", "appends that returned a position", CommitLogMetrics::completedAppends);
        counter(registry, "commitlog.appends.oversize.rejected", "appends refused for exceeding max_record_size",
                CommitLogMetrics::oversizeRejected);
        counter(registry, "commitlog.appends.lag.blocked", "periodic-mode appends that blocked because syncing lagged",
                CommitLogMetrics::lagBlocks);
        counter(registry, "commitlog.records.flushed", "records made durable", CommitLogMetrics::recordsFlushed);
        FunctionCounter.builder("commitlog.bytes.flushed", this, binder -> binder.current().bytesFlushed())
                .description("bytes of segment made durable").baseUnit("bytes").tags(tags).register(registry);
        counter(registry, "commitlog.segments.created", "segment files created new", CommitLogMetrics::segmentsCreated);
        counter(registry, "commitlog.segments.recycled", "segments made from a spare (recycled) file", CommitLogMetrics::segmentsRecycled);
        counter(registry, "commitlog.segments.archived", "segments the archive listener finished", CommitLogMetrics::segmentsArchived);
        counter(registry, "commitlog.archive.failures", "archive listener calls that threw", CommitLogMetrics::archiveFailures);
        counter(registry, "commitlog.space.requests", "times the space listener was asked to persist data", CommitLogMetrics::spaceRequests);

        FunctionTimer.builder("commitlog.flushes", this, binder -> binder.current().flushes(),
                        binder -> binder.current().flushNanosTotal(), TimeUnit.NANOSECONDS)
                .description("flushes (each one fdatasync that made data durable) and the time spent in them")
                .tags(tags).register(registry);
        timeGauge(registry, "commitlog.flush.max", Tags.empty(), "the slowest flush so far", metrics -> metrics.maxFlushNanos());
        timeGauge(registry, "commitlog.segment.wait", Tags.empty(), "total time appenders waited for a new segment",
                metrics -> metrics.segmentWaitNanos());

        gauge(registry, "commitlog.durable.position", "the log position below which everything is durable", null,
                metrics -> metrics.durablePosition());
        gauge(registry, "commitlog.appenders.waiting", "appending threads waiting for a flush now", null,
                metrics -> metrics.appendersWaiting());
        gauge(registry, "commitlog.size", "bytes of segment files in the directory", "bytes", metrics -> metrics.totalSize());
        gauge(registry, "commitlog.records.per.flush", "average records made durable by one flush (the group-commit factor)", null,
                CommitLogMetrics::recordsPerFlush);

        latency(registry, "commitlog.append.latency", "append (or claim) call to return, one append in 64 per thread",
                CommitLogMetrics::appendLatency);
        latency(registry, "commitlog.commit.wait", "appenders' waits for the flush that covers their record",
                CommitLogMetrics::waitingOnCommit);
        latency(registry, "commitlog.flush.latency", "flush durations (pwrite and fdatasync)", CommitLogMetrics::waitingOnFlush);
        latency(registry, "commitlog.segment.allocation.wait", "appenders' waits for the next segment",
                CommitLogMetrics::waitingOnSegmentAllocation);
    }

    private void counter(MeterRegistry registry, String name, String description, ToLongFunction<CommitLogMetrics> value) {
        FunctionCounter.builder(name, this, binder -> value.applyAsLong(binder.current()))
                .description(description).tags(tags).register(registry);
    }

    private void gauge(MeterRegistry registry, String name, String description, String baseUnit, ToDoubleFunction<CommitLogMetrics> value) {
        Gauge.builder(name, this, binder -> value.applyAsDouble(binder.current()))
                .description(description).baseUnit(baseUnit).tags(tags).register(registry);
    }

    private void timeGauge(MeterRegistry registry, String name, Tags extra, String description, ToDoubleFunction<CommitLogMetrics> nanos) {
        TimeGauge.builder(name, this, TimeUnit.NANOSECONDS, binder -> nanos.applyAsDouble(binder.current()))
                .description(description).tags(tags).tags(extra).register(registry);
    }

    /** One time gauge per quantile, plus the maximum, of a cumulative nanosecond histogram. */
    private void latency(MeterRegistry registry, String name, String description, Function<CommitLogMetrics, LatencySnapshot> histogram) {
        for (double quantile : QUANTILES) {
            timeGauge(registry, name, Tags.of("quantile", Double.toString(quantile)), description,
                    metrics -> histogram.apply(metrics).valueAtPercentile(quantile * 100));
        }
        timeGauge(registry, name + ".max", Tags.empty(), description + ": the longest", metrics -> histogram.apply(metrics).max());
    }

    /** The shared snapshot, refreshed once it is older than {@link #maxSnapshotAgeNanos}. */
    synchronized CommitLogMetrics current() {
        long now = nanoClock.getAsLong();
        if (snapshot == null || now - snapshotAt >= maxSnapshotAgeNanos) {
            snapshot = source.get();
            snapshotAt = now;
        }
        return snapshot;
    }
}
