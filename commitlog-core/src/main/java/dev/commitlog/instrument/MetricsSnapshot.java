package dev.commitlog.instrument;

import dev.commitlog.metrics.CommitLogMetrics;
import dev.commitlog.metrics.LatencySnapshot;
import java.util.Locale;

/** The {@link CommitLogMetrics} that {@link MetricsRecorder#snapshot} takes. */
record MetricsSnapshot(long flushes, long recordsFlushed, long bytesFlushed, long flushNanosTotal, long maxFlushNanos,
                       long segmentsCreated, long segmentsRecycled, long segmentWaitNanos, long oversizeRejected, long lagBlocks, long durablePosition,
                       long completedAppends, int appendersWaiting, long totalSize, long spaceRequests, long segmentsArchived,
                       long archiveFailures, LatencySnapshot appendLatency, LatencySnapshot waitingOnCommit,
                       LatencySnapshot waitingOnFlush, LatencySnapshot waitingOnSegmentAllocation) implements CommitLogMetrics {

    /** One line of the figures an operator looks at first. */
    @Override
    public String toString() {
        return String.format(Locale.ROOT, "CommitLogMetrics[appends=%d, flushes=%d, records/flush=%.1f, flushed=%s, durable=%d, "
                        + "size=%s, waiting=%d, commit wait p99=%.1fus, flush p99=%.1fus, lag blocks=%d, oversize=%d]",
                completedAppends, flushes, recordsPerFlush(), StatsReport.bytes(bytesFlushed), durablePosition,
                StatsReport.bytes(totalSize), appendersWaiting, waitingOnCommit.valueAtPercentile(99) / 1e3,
                waitingOnFlush.valueAtPercentile(99) / 1e3, lagBlocks, oversizeRejected);
    }
}
