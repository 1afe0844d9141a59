package dev.commitlog.sync;

import dev.commitlog.segment.SegmentSyncer;

/**
 * Batch and Adaptive appenders: while writers are few, an appender that finds nobody flushing runs
 * the flush itself (leader/follower, as RocksDB's write groups, with no delay), so a lone writer
 * pays no hand-off; one that finds a flush running asks the sync thread for the next one and
 * waits, so appends that arrive during a flush share the next.
 *
 * <p>Few means the last flush carried no more records than {@code inlineFlushRecords} (by default
 * the number of cores). Past that every appender hands its flush to the sync thread: an appender
 * that flushes must then also publish and wake the others before it can append again, and with
 * more writers than cores that delays the next group more than the hand-off costs.
 */
final class LeaderFollower {
    private final int inlineFlushRecords;
    /**
     * Whether appenders hand their flushes to the sync thread: decided by the role holder at each
     * publication, read by appenders (volatile, so they need no part of the syncer's state).
     */
    private volatile boolean handOff;

    LeaderFollower(int inlineFlushRecords) {
        if (inlineFlushRecords < 1) {
            throw new IllegalArgumentException("inlineFlushRecords " + inlineFlushRecords + " is below 1: leader/follower is off");
        }
        this.inlineFlushRecords = inlineFlushRecords;
    }

    /** Appender, after publishing its frame: flush inline, or hand off and wait. */
    void afterAppend(FlushControl control, long endPosition, Waiter waiter) {
        if (!handOff) {
            control.flushInlineOrWait(endPosition, waiter);
        } else {
            control.requestFlushUpTo(endPosition); // the sync thread flushes on request only
            control.awaitDurable(endPosition, waiter);
        }
    }

    /** Role holder, after publishing a flush: decides the hand-off from how many records it carried. */
    void published(SegmentSyncer syncer) {
        boolean next = syncer.lastFlushRecords() > inlineFlushRecords;
        if (next != handOff) {
            handOff = next;
        }
    }

    /** Whether appenders now hand their flushes to the sync thread; for tests. */
    boolean handsOff() {
        return handOff;
    }
}
