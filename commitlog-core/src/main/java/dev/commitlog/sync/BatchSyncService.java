package dev.commitlog.sync;

import dev.commitlog.config.CommitFailurePolicy;
import dev.commitlog.segment.SegmentSyncer;

/**
 * Batch mode: an append returns only after a flush that covers it, and flushes run back to back.
 * An appender that finds nobody flushing runs the flush itself (leader/follower, as RocksDB's write
 * groups, with no delay); one that finds a flush running asks the sync thread for the next one and
 * waits, so appends that arrive during a flush share the next.
 */
public class BatchSyncService extends AbstractSyncService {
    private final boolean inlineFlush;

    public BatchSyncService(SegmentSyncer syncer, CommitFailurePolicy failurePolicy) {
        this(syncer, failurePolicy, "batch", SyncTuning.fromSystemProperties());
    }

    BatchSyncService(SegmentSyncer syncer, CommitFailurePolicy failurePolicy, String name, SyncTuning tuning) {
        this(syncer, failurePolicy, name, tuning, 1);
    }

    BatchSyncService(SegmentSyncer syncer, CommitFailurePolicy failurePolicy, String name, SyncTuning tuning, int pipelineDepth) {
        super(syncer, failurePolicy, name, tuning, pipelineDepth);
        this.inlineFlush = tuning.inlineFlush();
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
    public void afterAppend(long endPosition, Waiter waiter) {
        if (inlineFlush) {
            flushInlineOrWait(endPosition, waiter);
        } else {
            requestFlush();
            awaitDurable(endPosition, waiter);
        }
    }
}
