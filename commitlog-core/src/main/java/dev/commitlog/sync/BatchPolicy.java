package dev.commitlog.sync;

import dev.commitlog.segment.SegmentSyncer;

/**
 * Batch and Adaptive: an append returns after a flush that covers it; flushes run back to back.
 * With {@link LeaderFollower} (the default) an appender that finds nobody flushing flushes in its
 * own thread, and the sync thread flushes only for appenders that asked (data nobody asked for
 * belongs to the appender flushing it inline); without it every appender asks the sync thread,
 * which flushes whatever it finds. Adaptive adds the {@link Gather} before each flush.
 */
final class BatchPolicy implements SyncPolicy {
    /** Null: every appender hands its flush to the sync thread (the ablation without leader/follower). */
    private final LeaderFollower leaderFollower;
    /** Null: no gather (Batch, or Adaptive's ablation). */
    private final Gather gather;

    BatchPolicy(LeaderFollower leaderFollower, Gather gather) {
        this.leaderFollower = leaderFollower;
        this.gather = gather;
    }

    @Override
    public void awaitWork(FlushControl control) {
        control.park(leaderFollower != null ? FlushControl.Wake.REQUEST : FlushControl.Wake.REQUEST_OR_DATA);
    }

    @Override
    public FlushAttempt flush(FlushControl control) {
        return control.tryFlush();
    }

    @Override
    public void afterFlush() {
        // back to back: no window
    }

    @Override
    public void wake() {
        // nothing waits in afterFlush
    }

    @Override
    public long beforeFlush(SegmentSyncer held) {
        return gather == null ? 0 : gather.gather(held);
    }

    @Override
    public void published(SegmentSyncer held) {
        if (leaderFollower != null) {
            leaderFollower.published(held);
        }
    }

    @Override
    public void afterAppend(FlushControl control, long endPosition, Waiter waiter) {
        if (leaderFollower != null) {
            leaderFollower.afterAppend(control, endPosition, waiter);
        } else {
            control.requestFlush(); // the sync thread flushes whatever data it finds
            control.awaitDurable(endPosition, waiter);
        }
    }

    @Override
    public void requestSync(FlushControl control, long position) {
        control.requestFlushUpTo(position);
    }

    /** The leader/follower decision in use, or null; for tests. */
    LeaderFollower leaderFollower() {
        return leaderFollower;
    }
}
