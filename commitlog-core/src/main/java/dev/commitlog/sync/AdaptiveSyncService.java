package dev.commitlog.sync;

import dev.commitlog.config.CommitFailurePolicy;
import dev.commitlog.segment.SegmentSyncer;

/**
 * Adaptive mode: Batch's leader/follower flushes with no window to tune, and two optional
 * mechanisms, both measured and both off by default because neither paid on the devices tested
 * (docs/design.md, docs/benchmarks.md):
 * <ul>
 *   <li>the gather ({@link SyncTuning#ADAPTIVE_GATHER}): before a flush that starts with none
 *       outstanding, wait for the appenders the previous flush released to come back, but only while
 *       they keep arriving and never longer than half the measured flush time (PostgreSQL's
 *       {@code commit_delay} gated by {@code commit_siblings}, both measured instead of configured).
 *       A lone writer never waits: the previous flush released one record, the one being flushed;</li>
 *   <li>flush pipelining ({@link SyncTuning#ADAPTIVE_PIPELINE}): up to N flushes write and sync at
 *       once while short trials measure overlapping as making more records durable per second than
 *       flushing alone, on this device and under this load.</li>
 * </ul>
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
