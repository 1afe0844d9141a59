package dev.commitlog.sync;

import dev.commitlog.config.CommitFailurePolicy;
import dev.commitlog.segment.SegmentSyncer;

/**
 * Adaptive mode: Batch's leader/follower flushes, plus a gather step with no window to tune. Before
 * each flush the flusher waits for the appenders the previous flush released to come back, but
 * only while they keep arriving and never longer than half the measured flush time:
 * <ul>
 *   <li>a lone writer: the previous flush released one record, which is the one being flushed, so
 *       there is no wait and the writer flushes in its own thread (Batch's cost, no window's);</li>
 *   <li>many writers: each flush waits the few microseconds their wake-ups take, so a flush carries
 *       nearly every writer instead of whoever happened to be back.</li>
 * </ul>
 * The idea is PostgreSQL's {@code commit_delay} gated by {@code commit_siblings}, with the delay and
 * the sibling count measured instead of configured.
 */
public final class AdaptiveSyncService extends BatchSyncService {
    /** Give up gathering when no new record was published for this long. */
    private static final long STALL_NANOS = 20_000;
    private final boolean gather;

    public AdaptiveSyncService(SegmentSyncer syncer, CommitFailurePolicy failurePolicy) {
        this(syncer, failurePolicy, SyncTuning.fromSystemProperties());
    }

    AdaptiveSyncService(SegmentSyncer syncer, CommitFailurePolicy failurePolicy, SyncTuning tuning) {
        super(syncer, failurePolicy, "adaptive", tuning, tuning.adaptivePipeline());
        this.gather = tuning.adaptiveGather();
        syncer.gateOverlap(tuning.adaptiveOverlapGate());
    }

    /** Flush-role holder only. */
    @Override
    protected void beforeFlush() {
        int expected = syncer.lastFlushRecords();
        if (!gather || expected <= 1) {
            return;
        }
        int seen = syncer.publishedRecords();
        long started = System.nanoTime();
        long budget = syncer.lastFlushNanos() / 2;
        long lastArrival = started;
        while (seen < expected) {
            long now = System.nanoTime();
            if (now - started > budget || now - lastArrival > STALL_NANOS) {
                return;
            }
            Thread.onSpinWait(); // not yield: with hundreds of runnable appenders one yield can last milliseconds
            int published = syncer.publishedRecords();
            if (published > seen) {
                seen = published;
                lastArrival = now;
            }
        }
    }
}
