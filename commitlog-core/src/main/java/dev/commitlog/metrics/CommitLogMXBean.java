package dev.commitlog.metrics;

/**
 * The log's metrics over JMX, registered as {@code dev.commitlog:type=CommitLog,name="<directory>"}
 * when the log opens (see {@code CommitLogOptions.jmxName}) and unregistered when it closes. Every
 * attribute comes from one {@link CommitLogMetrics} snapshot; latencies are summaries in
 * microseconds. Cassandra's names are used where the metric is the same.
 */
public interface CommitLogMXBean {
    /** The log directory. */
    String getDirectory();

    /** Appends that returned a position since the log opened. */
    long getCompletedTasks();

    /** Appending threads waiting for a flush now. */
    int getPendingTasks();

    /** Bytes of segment files in the directory. */
    long getTotalCommitLogSize();

    /** {@code commitlog_total_space}: appends block rather than let TotalCommitLogSize pass it. */
    long getTotalSpace();

    /** Appends refused for exceeding {@code max_record_size}. */
    long getOverSizedMutations();

    /** Everything below this log position is durable. */
    long getDurablePosition();

    long getFlushes();

    long getRecordsFlushed();

    long getBytesFlushed();

    long getSegmentsCreated();

    /** Segments made from a spare file (commitlog_recycle_segments). */
    long getSegmentsRecycled();

    /** Periodic-mode appends that blocked because flushing lagged past the lag limit. */
    long getLagBlocks();

    /** Times the space listener was asked to persist data so that segments can be discarded. */
    long getSpaceRequests();

    long getSegmentsArchived();

    /** Archive listener calls that threw (the segment is kept and archiving retried). */
    long getArchiveFailures();

    /** Append (or claim) call to return, one append in 64 per thread. */
    LatencySummary getAppendLatency();

    /** Appenders' waits for the flush that covers their record. */
    LatencySummary getWaitingOnCommit();

    /** Flush durations (pwrite and fdatasync). */
    LatencySummary getWaitingOnFlush();

    /** Appenders' waits for a new segment, waits for space included. */
    LatencySummary getWaitingOnSegmentAllocation();
}
