package dev.commitlog.lifecycle;

/**
 * Asked to free space when the log's segment files reach {@code commitlog_total_space}: the
 * embedding node persists its state up to a position (Cassandra flushes the memtables that hold
 * data from the oldest segments), then calls {@code discardUpTo} so those segments can be deleted.
 * Registered with {@code CommitLogOptions.spaceListener}.
 *
 * <p>Assumptions and guarantees: called on the log's {@code commitlog-segment-allocator} thread,
 * first when creating one more segment would leave no room for the next (so the node has one
 * segment's worth of appends to act), then whenever the allocator has to wait for space, and again
 * every 10 seconds while it waits. Until enough space is freed, appends that need a new segment
 * block. The call must return promptly: start the persisting (e.g. submit the flush) and call
 * {@code discardUpTo} when it completes; calling {@code discardUpTo} directly from this method is
 * allowed. It must not append to the same log (the append may need the segment this thread is
 * trying to create). The same or a higher position may be asked for more than once: a position is
 * never past the log's durable position when asked (so {@code discardUpTo} accepts it), and while
 * appends wait, a higher one is asked for as the durable position moves on.
 */
@FunctionalInterface
public interface SpaceListener {
    /**
     * Persist everything below {@code position}, then call {@code discardUpTo(position)}.
     *
     * @param position the end of the oldest segments whose deletion brings the log back under its budget
     */
    void persistUpTo(long position);
}
