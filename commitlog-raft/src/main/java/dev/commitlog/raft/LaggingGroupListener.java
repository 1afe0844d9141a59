package dev.commitlog.raft;

/**
 * Told which Raft groups hold the shared log back: those whose oldest live entry lies more than
 * half of {@link RaftLogOptions#maxRetainedBytes()} below the durable end of the log, so that
 * every segment from there on stays. A JRaft node answers with {@code Node.snapshot(done)}: once
 * the snapshot is saved, JRaft truncates the group's log prefix and the segments below the next
 * lagging group go.
 *
 * <p>Called from whichever storage's append crossed the next check point (no lock of any group
 * held), once per lagging group and check, lowest first, for as long as the group lags: a node that
 * is already taking the group's snapshot can ignore the repeats (JRaft's {@code Node.snapshot}
 * refuses a second one while the first runs). Keep it short: hand the work to another thread, as
 * {@code Node.snapshot} does. A listener that throws is logged and the check goes on.
 */
@FunctionalInterface
public interface LaggingGroupListener {
    /**
     * @param groupKey       the group's key (its JRaft log URI)
     * @param lowestPosition the log position of the group's oldest live entry
     * @param pinnedBytes    log bytes from that position to the durable end of the log, which the
     *                       group keeps from being discarded
     */
    void holdingBack(String groupKey, long lowestPosition, long pinnedBytes);
}
