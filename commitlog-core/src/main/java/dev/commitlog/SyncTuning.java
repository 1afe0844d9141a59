package dev.commitlog;

/**
 * Experimental: which of the sync engine's mechanisms a log uses, for ablation studies
 * (docs/benchmarks.md). The {@link #defaults()} are the engine; a log opened with anything else is
 * slower somewhere, which is what an ablation shows. Passed with
 * {@link CommitLogOptions.Builder#syncTuning(SyncTuning)}; never read from system properties, so
 * two logs in one JVM may differ.
 *
 * @param inlineFlushRecords leader/follower: in Batch and Adaptive, an appender that finds nobody
 *                           flushing flushes in its own thread while the last flush carried at most
 *                           this many records, and hands its flush to the sync thread past that
 *                           ({@link #NEVER_INLINE}: the sync thread runs every flush;
 *                           {@link #ALWAYS_INLINE}: no hand-off)
 * @param yieldBeforePark    waiters yield (gated) before they park, so the flusher need not unpark them
 * @param gather             Adaptive waits, before a flush, for the writers the last flush released
 */
public record SyncTuning(int inlineFlushRecords, boolean yieldBeforePark, boolean gather) {
    /** Leader/follower off: the sync thread runs every flush of Batch and Adaptive. */
    public static final int NEVER_INLINE = 0;
    /** Leader/follower without the hand-off: an appender that finds nobody flushing always flushes. */
    public static final int ALWAYS_INLINE = Integer.MAX_VALUE;

    public SyncTuning {
        if (inlineFlushRecords < 0) {
            throw new IllegalArgumentException("inlineFlushRecords " + inlineFlushRecords + " is negative");
        }
    }

    /**
     * The engine: appenders flush inline while the last flush carried no more records than there
     * are cores, waiters yield before parking, Adaptive gathers.
     */
    public static SyncTuning defaults() {
        return new SyncTuning(Runtime.getRuntime().availableProcessors(), true, true);
    }

    public SyncTuning withInlineFlushRecords(int records) {
        return new SyncTuning(records, yieldBeforePark, gather);
    }

    public SyncTuning withYieldBeforePark(boolean yield) {
        return new SyncTuning(inlineFlushRecords, yield, gather);
    }

    public SyncTuning withGather(boolean on) {
        return new SyncTuning(inlineFlushRecords, yieldBeforePark, on);
    }

    /** Whether Batch and Adaptive appenders ever flush in their own thread. */
    public boolean leaderFollower() {
        return inlineFlushRecords > NEVER_INLINE;
    }
}
