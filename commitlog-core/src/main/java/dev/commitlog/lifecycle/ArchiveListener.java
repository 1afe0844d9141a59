package dev.commitlog.lifecycle;

/**
 * Told about each segment once it is complete and durable, to copy it elsewhere (Cassandra's
 * {@code archive_command}, PostgreSQL's {@code archive_command}). Registered with
 * {@code CommitLogOptions.archiveListener}.
 *
 * <p>Assumptions and guarantees: called on the log's {@code commitlog-lifecycle} thread (never the
 * sync thread or an appender), one segment at a time, in segment order. A segment file is not
 * deleted by {@code discardUpTo} until this call has returned normally for it; a discard that
 * arrives earlier takes effect when it returns. If the call throws, the failure is logged, the
 * segment (and every later one) is kept, and the call is retried after a delay that doubles from
 * {@code CommitLogOptions.archiveRetryDelay} up to one minute, until it succeeds or the log closes.
 * Delivery is at least once: segments that were complete when the log opened are offered again
 * (a crash may have interrupted their archiving), so an archiver must tolerate a segment it has
 * already copied (copy to a name derived from the file name, overwriting).
 */
@FunctionalInterface
public interface ArchiveListener {
    /**
     * Copies the segment somewhere safe; returns only when the copy is durable there.
     *
     * @throws Exception to keep the segment and have the call retried later
     */
    void archive(CompletedSegment segment) throws Exception;
}
