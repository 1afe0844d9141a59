package dev.commitlog.sync;

import dev.commitlog.SyncTuning;

/** Adaptive in the ablation without the gather: the contract and leader/follower hold. */
class AdaptiveWithoutGatherSyncEngineTest extends AdaptiveSyncEngineTest {
    @Override
    protected SyncTuning tuning() {
        return super.tuning().withGather(false);
    }
}
