package dev.commitlog.sync;

import dev.commitlog.SyncTuning;

/** Batch in the ablation where waiters park at once instead of yielding first: the contract and leader/follower hold. */
class BatchWithoutYieldSyncEngineTest extends BatchSyncEngineTest {
    @Override
    protected SyncTuning tuning() {
        return super.tuning().withYieldBeforePark(false);
    }
}
