package dev.commitlog.metrics;

import org.HdrHistogram.Histogram;

/**
 * A snapshot of a log's counters and latency histograms, taken by {@code CommitLog.metrics()}.
 * Counters and histograms are cumulative since the log was opened, so rates come from the
 * difference of two snapshots (for histograms: {@code later.copy()} then {@code subtract(earlier)}).
 * Histograms are in nanoseconds, copies the caller owns. Names in brackets are Cassandra's metric
 * names for the same thing (see docs/operations.md).
 *
 * @param flushes                    completed flushes (each one fdatasync call that made data durable)
 * @param recordsFlushed             records made durable
 * @param bytesFlushed               bytes of segment made durable (frames, padding and markers)
 * @param flushNanosTotal            time spent inside flush calls
 * @param maxFlushNanos              the slowest flush so far
 * @param segmentsCreated            segment files created
 * @param segmentWaitNanos           time appenders spent waiting for a new segment (WaitingOnSegmentAllocation)
 * @param oversizeRejected           appends refused for exceeding max_record_size (OverSizedMutations)
 * @param lagBlocks                  periodic-mode appends that blocked because syncing lagged
 * @param durablePosition            the log position below which everything is durable
 * @param completedAppends           appends that returned a position (CompletedTasks)
 * @param appendersWaiting           appending threads waiting for a flush right now (PendingTasks)
 * @param totalSize                  bytes of segment files in the directory, the prepared next one included (TotalCommitLogSize)
 * @param spaceRequests              times the space listener was asked to persist data (commitlog_total_space reached)
 * @param segmentsArchived           segments the archive listener finished
 * @param archiveFailures            archive listener calls that threw (each is retried)
 * @param appendLatency              from the append (or claim) call to its return, one append in 64 per thread
 * @param waitingOnCommit            appenders' waits for the flush that covers their record, only when they waited (WaitingOnCommit)
 * @param waitingOnFlush             flush durations: pwrite and fdatasync (WaitingOnFlush)
 * @param waitingOnSegmentAllocation appenders' waits for the next segment, including waits for space (WaitingOnSegmentAllocation)
 */
public record CommitLogMetrics(long flushes, long recordsFlushed, long bytesFlushed, long flushNanosTotal,
                               long maxFlushNanos, long segmentsCreated, long segmentWaitNanos,
                               long oversizeRejected, long lagBlocks, long durablePosition,
                               long completedAppends, int appendersWaiting, long totalSize, long spaceRequests,
                               long segmentsArchived, long archiveFailures,
                               Histogram appendLatency, Histogram waitingOnCommit, Histogram waitingOnFlush,
                               Histogram waitingOnSegmentAllocation) {

    /** Average records made durable by one flush: the group-commit factor. */
    public double recordsPerFlush() {
        return flushes == 0 ? 0 : (double) recordsFlushed / flushes;
    }
}
