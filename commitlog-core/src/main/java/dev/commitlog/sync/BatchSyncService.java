package dev.commitlog.sync;

import dev.commitlog.config.CommitFailurePolicy;
import dev.commitlog.segment.SegmentSyncer;

/**
 * Batch mode: an append returns only after a flush that covers it, and flushes run back to back.
 * While writers are few, an appender that finds nobody flushing runs the flush itself
 * (leader/follower, as RocksDB's write groups, with no delay); one that finds a flush running asks
 * the sync thread for the next one and waits, so appends that arrive during a flush share the next.
 *
 * <p>Few means the last flush carried no more records than there are cores
 * ({@link SyncTuning#INLINE_FLUSH_RECORDS}). Past that every appender hands its flush to the sync
 * thread: an appender that flushes must then also publish and wake the others before it can
 * append again, and on 2 cores that delayed the next group more than the hand-off costs. Measured
 * paired in session 17, Adaptive flushing only on the sync thread made 1.56x the records per
 * second of always flushing inline at 8 writers, 1.11x at 16 and 1.17x at 64, but 0.83x at 1
 * writer and 0.87x at 2, where the hand-off is the whole difference.
 */
public class BatchSyncService extends AbstractSyncService {
    private final boolean inlineFlush;
    /** An appender flushes inline only while the last flush carried at most this many records. */
    private final int inlineFlushRecords;
    /**
     * Whether appenders hand their flushes to the sync thread: decided by the role holder at each
     * publication, read by appenders (volatile, so they need no part of the syncer's state).
     */
    private volatile boolean handOff;

    public BatchSyncService(SegmentSyncer syncer, CommitFailurePolicy failurePolicy) {
        this(syncer, failurePolicy, "batch", SyncTuning.fromSystemProperties());
    }

    BatchSyncService(SegmentSyncer syncer, CommitFailurePolicy failurePolicy, String name, SyncTuning tuning) {
        this(syncer, failurePolicy, name, tuning, 1);
    }

    BatchSyncService(SegmentSyncer syncer, CommitFailurePolicy failurePolicy, String name, SyncTuning tuning, int pipelineDepth) {
        super(syncer, failurePolicy, name, tuning, pipelineDepth);
        this.inlineFlushRecords = tuning.inlineFlushRecords();
        this.inlineFlush = inlineFlushRecords > 0;
    }

    @Override
    protected void awaitWork() {
        if (inlineFlush) {
            awaitRequest(); // data alone is the inline flusher's; the sync thread flushes for followers
        } else {
            awaitData();
        }
    }

    @Override
    protected void published() {
        boolean next = inlineFlush && syncer.lastFlushRecords() > inlineFlushRecords && mayHandOff();
        if (next != handOff) {
            handOff = next;
        }
    }

    /** Whether flushes may move to the sync thread now (Adaptive: not while flushes may overlap). */
    protected boolean mayHandOff() {
        return true;
    }

    @Override
    public void afterAppend(long endPosition, Waiter waiter) {
        if (!inlineFlush) {
            requestFlush(); // the sync thread flushes whatever data it finds
            awaitDurable(endPosition, waiter);
        } else if (!handOff) {
            flushInlineOrWait(endPosition, waiter);
        } else {
            requestFlushUpTo(endPosition); // the sync thread flushes on request only
            awaitDurable(endPosition, waiter);
        }
    }
}
