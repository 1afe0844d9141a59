package dev.commitlog.sync;

import dev.commitlog.config.CommitFailurePolicy;
import dev.commitlog.segment.SegmentSyncer;

/**
 * Adaptive mode: Batch's leader/follower flushes with no window to tune, plus two mechanisms:
 * <ul>
 *   <li>the gather ({@link SyncTuning#ADAPTIVE_GATHER}, on by default): before a flush that starts
 *       with none outstanding, wait for the writers the previous flush released to append again,
 *       but only while they arrive faster than the flush would serve them
 *       ({@link #keepGathering}) and never longer than the last flush took (PostgreSQL's
 *       {@code commit_delay} gated by {@code commit_siblings}, both measured instead of
 *       configured). Without it a few writers split into two cohorts that take turns, each flush
 *       carrying half of them; with it, measured paired, Adaptive made 1.24x the records per second
 *       at 4 writers and 1.20x at 8, at a lower p99. A lone writer never waits: the previous flush
 *       released one record, the one being flushed. With flush pipelining (below) it runs only
 *       while the overlap trials have chosen solo flushes, never during a trial: overlap serves
 *       writers as they arrive, and with the gather in the solo arm the trials picked solo flushes
 *       on a device that runs syncs in parallel whenever the two tied on records per second,
 *       though each record then waited for the gather too;</li>
 *   <li>flush pipelining ({@link SyncTuning#ADAPTIVE_PIPELINE}, on by default): up to
 *       {@value SyncTuning#DEFAULT_ADAPTIVE_PIPELINE} flushes write and sync at once, but a flush
 *       may start while another runs only while short trials (two in a row to start overlapping)
 *       measure overlap as making more records durable per second than flushing alone, on this
 *       device under this load, and only if it carries no fewer records than the newest running
 *       flush, so that overlap never splits a group. Measured, the
 *       trials keep flushes alone on a disk that serialises syncs (where overlapping every flush it
 *       could lost up to 41%) and overlap them on one that runs syncs in parallel (where the trials
 *       gained up to 61% over Batch).</li>
 * </ul>
 * See docs/design.md and docs/benchmarks.md.
 */
public final class AdaptiveSyncService extends BatchSyncService {
    private final boolean gather;
    /** Whether flushes may overlap at all (a pipeline deeper than one). */
    private final boolean pipelined;
    /** How long the last gather waited; role holder only. */
    private long lastGatherNanos;

    public AdaptiveSyncService(SegmentSyncer syncer, CommitFailurePolicy failurePolicy) {
        this(syncer, failurePolicy, SyncTuning.fromSystemProperties());
    }

    AdaptiveSyncService(SegmentSyncer syncer, CommitFailurePolicy failurePolicy, SyncTuning tuning) {
        super(syncer, failurePolicy, "adaptive", tuning, tuning.adaptivePipeline());
        this.gather = tuning.adaptiveGather();
        this.pipelined = tuning.adaptivePipeline() > 1;
        syncer.gateOverlap(tuning.adaptiveOverlapGate());
    }

    /**
     * Overlapped flushes need appenders flushing inline (the sync thread runs one flush at a time),
     * so flushes move to the sync thread only while overlap is not allowed: while solo flushes are
     * chosen, and in a trial's solo epochs too, so that the trial weighs solo flushes as they run
     * between trials (inline, they ran up to 1.46x slower at 4-8 writers; session 17).
     */
    @Override
    protected boolean mayHandOff() {
        return !pipelined || !syncer.overlapAllowed();
    }

    /**
     * Whether flushes run one at a time for now: no pipeline, or trials that have settled on solo
     * flushes. The gather waits for it (the hand-off only for overlap to be denied). Role holder only.
     */
    private boolean flushesAlone() {
        return !pipelined || syncer.soloChosen();
    }

    /** The gather. Flush-role holder only, with no flush outstanding. */
    @Override
    protected void beforeFlush() {
        lastGatherNanos = 0;
        if (!gather || !flushesAlone()) {
            return; // see the class comment: the trials weigh solo flushes against overlap, both ungathered
        }
        // Published since the last claim: those that arrived while the last flush ran, then those it released.
        int expected = syncer.recordsWhenPublished() + syncer.lastFlushRecords();
        int seen = syncer.publishedRecords();
        long flushNanos = syncer.lastFlushNanos();
        if (seen >= expected || seen == 0 || flushNanos <= 0) {
            return;
        }
        long started = System.nanoTime();
        long lastArrival = started;
        long now = started;
        while (seen < expected && keepGathering(flushNanos, now - started, now - lastArrival, seen)) {
            // Not a spin: on a few cores a spinning gatherer holds the core a returning writer needs.
            Thread.yield();
            now = System.nanoTime();
            int published = syncer.publishedRecords();
            if (published > seen) {
                seen = published;
                lastArrival = now;
            }
        }
        lastGatherNanos = now - started;
    }

    /**
     * Whether waiting longer for released writers still pays. The flush waits at most as long as the
     * last one took, and only while writers arrive faster than one per {@code flushNanos / records}:
     * waiting a moment longer delays each of the {@code records} already gathered by that moment,
     * while a writer that arrives within it and is let go would wait for the whole next flush. So
     * the sum of the records' waits falls only while arrivals come more often than the flush time
     * divided by the records waiting. Writers that come back from a wait they yielded through arrive
     * within tens of microseconds and are worth it; dozens that the flusher must unpark one by one
     * (about 12 us each here) are not: the device would sit idle while the CPU wakes them.
     *
     * @param flushNanos        how long the last flush took
     * @param waitedNanos       how long this gather has waited
     * @param sinceArrivalNanos how long since the last record arrived (or the gather started)
     * @param records           records the flush would carry now, at least 1
     */
    static boolean keepGathering(long flushNanos, long waitedNanos, long sinceArrivalNanos, int records) {
        return waitedNanos < flushNanos && sinceArrivalNanos <= flushNanos / records;
    }

    /** The gather's wait belongs to the flush cycle waiters yield through ({@link DurabilityWaiters#flushPublished}). */
    @Override
    protected long gatherNanos() {
        return lastGatherNanos;
    }
}
