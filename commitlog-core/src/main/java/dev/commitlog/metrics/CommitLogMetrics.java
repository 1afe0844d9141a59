package dev.commitlog.metrics;

/**
 * A snapshot of a log's counters, taken by {@code CommitLog.metrics()}. Counters only grow, so
 * rates come from the difference of two snapshots.
 *
 * @param flushes            completed flushes (each one fdatasync call that made data durable)
 * @param recordsFlushed     records made durable
 * @param bytesFlushed       bytes of segment made durable (frames, padding and markers)
 * @param flushNanosTotal    time spent inside flush calls
 * @param maxFlushNanos      the slowest flush so far
 * @param segmentsCreated    segment files created
 * @param segmentWaitNanos   time appenders spent waiting for a new segment (WaitingOnSegmentAllocation)
 * @param oversizeRejected   appends refused for exceeding max_record_size
 * @param lagBlocks          periodic-mode appends that blocked because syncing lagged
 * @param durablePosition    the log position below which everything is durable
 */
public record CommitLogMetrics(long flushes, long recordsFlushed, long bytesFlushed, long flushNanosTotal,
                               long maxFlushNanos, long segmentsCreated, long segmentWaitNanos,
                               long oversizeRejected, long lagBlocks, long durablePosition) {

    /** Average records made durable by one flush: the group-commit factor. */
    public double recordsPerFlush() {
        return flushes == 0 ? 0 : (double) recordsFlushed / flushes;
    }
}
