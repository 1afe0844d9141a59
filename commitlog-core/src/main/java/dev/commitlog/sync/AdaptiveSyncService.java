package dev.commitlog.sync;

import dev.commitlog.config.CommitFailurePolicy;
import dev.commitlog.segment.SegmentSyncer;

/**
 * Adaptive mode: Batch's leader/follower flushes with no window to tune, plus two mechanisms:
 * <ul>
 *   <li>flush pipelining ({@link SyncTuning#ADAPTIVE_PIPELINE}, on by default): up to
 *       {@value SyncTuning#DEFAULT_ADAPTIVE_PIPELINE} flushes write and sync at once, but a flush
 *       may start while another runs only while short trials (two in a row to start overlapping)
 *       measure overlap as making more records durable per second than flushing alone, on this
 *       device under this load, and only if it carries no fewer records than the newest running
 *       flush, so that overlap never splits a group. Measured, the
 *       trials keep flushes alone on a disk that serialises syncs (where overlapping every flush it
 *       could lost up to 41%) and overlap them on one that runs syncs in parallel (where the trials
 *       gained up to 61% over Batch);</li>
 *   <li>the gather ({@link SyncTuning#ADAPTIVE_GATHER}, off by default: it measured within noise):
 *       before a flush that starts with none outstanding, wait for the appenders the previous flush
 *       released to come back, but only while they keep arriving and never longer than half the
 *       measured flush time (PostgreSQL's {@code commit_delay} gated by {@code commit_siblings},
 *       both measured instead of configured). A lone writer never waits: the previous flush
 *       released one record, the one being flushed.</li>
 * </ul>
 * See docs/design.md and docs/benchmarks.md.
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
        if (!gather) {
            return;
        }
        // Published since the last claim: those that arrived while the last flush ran, then those it released.
        int expected = syncer.recordsWhenPublished() + syncer.lastFlushRecords();
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
