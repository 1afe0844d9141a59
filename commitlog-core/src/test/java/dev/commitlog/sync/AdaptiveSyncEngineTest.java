package dev.commitlog.sync;

import dev.commitlog.config.CommitFailurePolicy;
import dev.commitlog.config.SyncMode;

/** Adaptive: the contract and leader/follower, with the gather before each flush. */
class AdaptiveSyncEngineTest extends LeaderFollowerSyncEngineTest {
    @Override
    protected SyncSettings settings() {
        return new SyncSettings(SyncMode.ADAPTIVE, null, null, null, CommitFailurePolicy.STOP);
    }
}
