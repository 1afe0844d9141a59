package dev.commitlog.metrics;

/**
 * A snapshot of a log's counters and latencies, taken by {@code CommitLog.metrics()}. Counters and
 * latencies are cumulative since the log was opened, so rates come from the difference of two
 * snapshots (for latencies: {@link LatencySnapshot#since}). Names in brackets are Cassandra's metric
 * names for the same thing (see docs/operations.md). A snapshot's {@code toString()} is one line of
 * the main figures; {@code CommitLog.stats()} gives a longer report for people.
 */
public interface CommitLogMetrics {
    /** Completed flushes (each one fdatasync call that made data durable). */
    long flushes();

    /** Records made durable. */
    long recordsFlushed();

    /** Bytes of segment made durable (frames, padding and markers). */
    long bytesFlushed();

    /** Time spent inside flush calls, in nanoseconds. */
    long flushNanosTotal();

    /** The slowest flush so far, in nanoseconds. */
    long maxFlushNanos();

    /** Segment files created new (zero-filled), as opposed to recycled. */
    long segmentsCreated();

    /** Segments made from a spare file, a discarded segment kept for reuse ({@code commitlog_recycle_segments}). */
    long segmentsRecycled();

    /** Time appenders spent waiting for a new segment, in nanoseconds (WaitingOnSegmentAllocation). */
    long segmentWaitNanos();

    /** Appends refused for exceeding {@code max_record_size} (OverSizedMutations). */
    long oversizeRejected();

    /** Periodic-mode appends that blocked because syncing lagged past {@code periodic_commitlog_sync_lag_block}. */
    long lagBlocks();

    /** The log position below which everything is durable. */
    long durablePosition();

    /** Appends that returned a position (CompletedTasks). */
    long completedAppends();

    /** Appending threads waiting for a flush right now (PendingTasks). */
    int appendersWaiting();

    /**
     * Bytes of segment files in the directory, the prepared next one and the spares kept for reuse
     * included: what counts in {@code commitlog_total_space} (TotalCommitLogSize).
     */
    long totalSize();

    /** Times the space listener was asked to persist data ({@code commitlog_total_space} reached). */
    long spaceRequests();

    /** Segments the archive listener finished. */
    long segmentsArchived();

    /** Archive listener calls that threw (each is retried). */
    long archiveFailures();

    /** From the append (or claim) call to its return, one append in 64 per thread. */
    LatencySnapshot appendLatency();

    /** Appenders' waits for the flush that covers their record, only when they waited (WaitingOnCommit). */
    LatencySnapshot waitingOnCommit();

    /** Flush durations: pwrite and fdatasync (WaitingOnFlush). */
    LatencySnapshot waitingOnFlush();

    /** Appenders' waits for the next segment, including waits for space (WaitingOnSegmentAllocation). */
    LatencySnapshot waitingOnSegmentAllocation();

    /** Average records made durable by one flush: the group-commit factor. */
    default double recordsPerFlush() {
        long flushes = flushes();
        return flushes == 0 ? 0 : (double) recordsFlushed() / flushes;
    }
}
