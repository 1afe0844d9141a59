package dev.commitlog.raft;

/**
 * One Raft group's figures on the shared log at one moment ({@link RaftCommitLog#groupStats()}).
 * Counters are cumulative since the log was opened; take two snapshots for a rate
 * ({@link #appendsPerSecondSince}).
 *
 * @param groupKey        the group's key (its JRaft log URI)
 * @param entries         live entries (indexes from first to last that hold one)
 * @param firstIndex      the first log index ({@code LogStorage.getFirstLogIndex})
 * @param lastIndex       the last log index ({@code LogStorage.getLastLogIndex}); {@code firstIndex - 1} when empty
 * @param appendedEntries entries appended since the log was opened (replay not counted)
 * @param appendedBytes   record bytes of those entries (the storage's framing of each entry, before
 *                        the commit log's own frame); live bytes are not kept per entry
 * @param lowestPosition  the log position of the group's oldest live entry; {@code Long.MAX_VALUE} if it has none
 * @param pinnedBytes     log bytes from that position to the durable end: what this group keeps
 *                        from being discarded (0 if it has no entry)
 * @param nanoTime        {@link System#nanoTime()} when the figures were read
 */
public record RaftGroupStats(String groupKey, long entries, long firstIndex, long lastIndex, long appendedEntries,
                             long appendedBytes, long lowestPosition, long pinnedBytes, long nanoTime) {

    /**
     * Entries appended per second between {@code earlier} (the same group's) and this.
     *
     * @throws IllegalArgumentException if {@code earlier} is another group's, or not earlier
     */
    public double appendsPerSecondSince(RaftGroupStats earlier) {
        return perSecond(appendedEntries - checked(earlier).appendedEntries, earlier);
    }

    /** Record bytes appended per second between {@code earlier} (the same group's) and this. */
    public double appendedBytesPerSecondSince(RaftGroupStats earlier) {
        return perSecond(appendedBytes - checked(earlier).appendedBytes, earlier);
    }

    private RaftGroupStats checked(RaftGroupStats earlier) {
        if (!groupKey.equals(earlier.groupKey) || earlier.nanoTime > nanoTime) {
            throw new IllegalArgumentException("figures of " + earlier.groupKey + " at " + earlier.nanoTime + " are not earlier ones of "
                    + groupKey + " (at " + nanoTime + ")");
        }
        return earlier;
    }

    private double perSecond(long delta, RaftGroupStats earlier) {
        long nanos = nanoTime - earlier.nanoTime;
        return nanos == 0 ? 0 : delta * 1e9 / nanos;
    }
}
