package dev.commitlog.sync;

import dev.commitlog.config.CommitFailurePolicy;
import dev.commitlog.segment.SegmentSyncer;

/**
 * Batch mode: an append returns only after a flush that covers it. The sync thread flushes as soon
 * as anything is published; appends that arrive during a flush share the next one.
 */
public final class BatchSyncService extends AbstractSyncService {

    public BatchSyncService(SegmentSyncer syncer, CommitFailurePolicy failurePolicy) {
        super(syncer, failurePolicy, "batch");
    }

    @Override
    protected void awaitWork() {
        awaitData();
    }

    @Override
    public void afterAppend(long endPosition, Waiter waiter) {
        requestFlush();
        awaitDurable(endPosition, waiter);
    }
}
