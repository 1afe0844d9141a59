package dev.commitlog.sync;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.commitlog.SyncTuning;
import dev.commitlog.config.CommitFailurePolicy;
import dev.commitlog.config.SyncMode;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Batch in the ablation without leader/follower: the contract holds, and every append's flush is the sync thread's. */
class BatchWithoutLeaderFollowerSyncEngineTest extends SyncEngineContractTest {
    @Override
    protected SyncSettings settings() {
        return new SyncSettings(SyncMode.BATCH, null, null, null, CommitFailurePolicy.STOP);
    }

    @Override
    protected SyncTuning tuning() {
        return SyncTuning.defaults().withInlineFlushRecords(SyncTuning.NEVER_INLINE);
    }

    @Test
    void everyAppendIsFlushedByTheSyncThread() {
        EngineRig rig = open(settings());
        for (int i = 0; i < 20; i++) {
            assertTrue(rig.append(RECORD).coveredOnReturn());
        }
        assertEquals(List.of(rig.syncThread.getName()), flushers(rig).distinct().toList());
    }
}
