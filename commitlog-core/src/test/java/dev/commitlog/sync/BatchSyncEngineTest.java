package dev.commitlog.sync;

import dev.commitlog.config.CommitFailurePolicy;
import dev.commitlog.config.SyncMode;

/** Batch: the contract and leader/follower. */
class BatchSyncEngineTest extends LeaderFollowerSyncEngineTest {
    @Override
    protected SyncSettings settings() {
        return new SyncSettings(SyncMode.BATCH, null, null, null, CommitFailurePolicy.STOP);
    }
}
