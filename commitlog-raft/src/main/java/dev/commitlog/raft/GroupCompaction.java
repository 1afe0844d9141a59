package dev.commitlog.raft;

import dev.commitlog.Ack;
import dev.commitlog.CommitLog;
import java.util.List;

/**
 * Discards the shared log below the lowest position any group still needs.
 *
 * <p>A group needs its live entries (never moved: an entry's record is where it was appended) and
 * the records that set its bounds and its key binding. The cut is the lowest position of any live
 * entry, and at most the durable position read before looking at the groups: a record appended
 * later lies at or above it. Each group whose bounds and binding come from records below the cut
 * (its {@linkplain GroupState#basePosition base}) first gets a CHECKPOINT record of its current
 * state, written under its mutex so that no record of the group falls between the state read and
 * the record. All checkpoints are durable before {@link CommitLog#discardUpTo} runs.
 *
 * <p>Crash safety: before the discard, replay meets the old records and then the checkpoint,
 * which restates the bounds the old records had already built (a no-op); after it, replay builds
 * the live entries from records above the cut and the checkpoint sets the bounds. Either way the
 * group's state is the one the checkpoint saw, then later records apply as they did.
 *
 * <p>One compaction runs at a time. It takes group mutexes one at a time, never while holding
 * another, and storages never call it while holding their own, so it cannot deadlock with writes.
 */
final class GroupCompaction {
    private final CommitLog log;
    private final GroupRegistry registry;
    /** The highest cut passed to discardUpTo; guarded by this. */
    private long discardedUpTo;
    /** Checkpoint records written: for tests; guarded by this. */
    private int checkpoints;

    GroupCompaction(CommitLog log, GroupRegistry registry) {
        this.log = log;
        this.registry = registry;
    }

    /**
     * Compacts if the cut has moved at least {@code minimumGain} bytes past the last one (0: any
     * gain); returns the position discarded up to (the previous one if nothing was done).
     */
    synchronized long compact(long minimumGain) {
        long cut = lowestNeeded();
        if (cut <= discardedUpTo || cut - discardedUpTo < minimumGain) {
            return discardedUpTo;
        }
        writeCheckpoints(cut);
        log.discardUpTo(cut);
        discardedUpTo = cut;
        return cut;
    }

    /** The lowest position any group still needs (see the class doc): O(groups), each index keeps its lowest position. */
    long lowestNeeded() {
        long cut = log.durablePosition(); // first: whatever is appended from now on lies at or above it
        for (GroupState group : registry.groups()) {
            synchronized (group.mutex) { // no batch of the group is half-way between log and index
                cut = Math.min(cut, group.index().lowestPosition());
            }
        }
        return cut;
    }

    /** Checkpoints every group based below {@code cut}, then waits until they are durable. */
    void writeCheckpoints(long cut) {
        writeCheckpoints(cut, registry.groups());
    }

    /**
     * Checkpoints those of {@code groups} based below {@code cut}. A group dropped since the list
     * was taken gets none: its DROP record must stay its last (a checkpoint would bind it again).
     */
    void writeCheckpoints(long cut, List<GroupState> groups) {
        boolean wrote = false;
        for (GroupState group : groups) {
            synchronized (group.mutex) {
                if (group.basePosition() < cut && !group.dropped()) { // a dropped group's DROP is its last record
                    byte[] record = group.checkpoint();
                    group.checkpointed(log.append(record, 0, record.length, Ack.WRITTEN));
                    checkpoints++;
                    wrote = true;
                }
            }
        }
        if (wrote) {
            log.sync();
        }
    }

    synchronized int checkpoints() {
        return checkpoints;
    }
}
