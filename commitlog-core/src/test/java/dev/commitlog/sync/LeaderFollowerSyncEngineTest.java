package dev.commitlog.sync;

import static dev.commitlog.WaitingThreads.awaitWaiting;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.commitlog.SyncTuning;
import dev.commitlog.sync.EngineRig.Pending;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Batch and Adaptive with leader/follower: a lone appender flushes inline, in its own thread; once
 * a flush carried more records than the inline limit, appenders hand their flushes to the sync
 * thread, and a flush of few records takes the next one back inline. Flushes are held at the gate,
 * so which records each flush carries is set by the test, not by timing.
 */
abstract class LeaderFollowerSyncEngineTest extends SyncEngineContractTest {
    static final int INLINE_RECORDS = 2;

    @Override
    protected SyncTuning tuning() {
        return SyncTuning.defaults().withInlineFlushRecords(INLINE_RECORDS);
    }

    @Test
    void aLoneAppenderFlushesInlineInItsOwnThread() {
        EngineRig rig = open(settings());
        for (int i = 0; i < 50; i++) {
            assertTrue(rig.append(RECORD).coveredOnReturn());
        }
        assertEquals(Collections.nCopies(50, Thread.currentThread().getName()), flushers(rig).toList());
    }

    @Test
    void aFlushOfMoreRecordsThanTheLimitHandsTheNextToTheSyncThreadAndASmallOneTakesItBack() {
        EngineRig rig = open(settings());
        rig.device.holdFlushes();
        Pending leader = rig.appendIn("leader", RECORD);
        rig.device.awaitHeld(1);
        List<Pending> followers = new ArrayList<>();
        for (int i = 0; i < INLINE_RECORDS + 1; i++) {
            followers.add(rig.appendIn("follower-" + i, RECORD));
        }
        awaitWaiting("followers behind the leader's flush", followers.stream().map(p -> p.thread).toList());
        rig.device.releaseFlushes();
        assertTrue(leader.get().coveredOnReturn());
        for (Pending follower : followers) {
            assertTrue(follower.get().coveredOnReturn());
        }
        String sync = rig.syncThread.getName();
        assertEquals(List.of("leader", sync), flushers(rig).toList(), "the followers' flush is the sync thread's");

        awaitWaiting("the sync thread, done publishing", rig.syncThread); // the hand-off is decided as it publishes
        assertTrue(rig.appendIn("after-a-big-flush", RECORD).get().coveredOnReturn());
        assertEquals(sync, last(flushers(rig).toList()), "after a flush of more records than the limit, a lone appender hands off");

        awaitWaiting("the sync thread, done publishing", rig.syncThread);
        assertTrue(rig.appendIn("after-a-small-flush", RECORD).get().coveredOnReturn());
        assertEquals("after-a-small-flush", last(flushers(rig).toList()), "after a flush of one record, it flushes inline again");
    }

    private static String last(List<String> list) {
        return list.get(list.size() - 1);
    }
}
