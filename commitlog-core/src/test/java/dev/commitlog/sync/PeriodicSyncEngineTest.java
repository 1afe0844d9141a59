package dev.commitlog.sync;

import static dev.commitlog.WaitingThreads.awaitWaiting;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.commitlog.config.CommitFailurePolicy;
import dev.commitlog.config.SyncMode;
import dev.commitlog.sync.EngineRig.Appended;
import dev.commitlog.sync.EngineRig.Pending;
import dev.commitlog.sync.FakeDevice.Flush;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Periodic: an append returns at once and becomes durable at the next pass; a pass covers
 * everything appended before it, across segments; appends block only while the oldest append not
 * yet durable is older than the lag block. The period and the lag block run on the fake clock, so
 * a pass falls due, and an append is too old, exactly when the test says.
 */
class PeriodicSyncEngineTest extends SyncEngineContractTest {
    private static final Duration PERIOD = Duration.ofSeconds(10);
    private static final Duration LAG_BLOCK = Duration.ofSeconds(15);

    @Override
    protected SyncSettings settings() {
        return new SyncSettings(SyncMode.PERIODIC, PERIOD, LAG_BLOCK, null, CommitFailurePolicy.STOP);
    }

    @Override
    protected boolean appendsWait() {
        return false;
    }

    @Override
    protected void letAFlushFallDue(EngineRig rig) {
        rig.clock.advance(PERIOD);
    }

    @Override
    protected void makeAppendsWait(EngineRig rig) {
        rig.clock.advance(LAG_BLOCK.plusNanos(1));
    }

    @Test
    void onePassCoversEverySegmentTheAppendsCrossed() {
        EngineRig rig = open(settings());
        while (rig.appendedPosition() < 3L * EngineRig.SEGMENT_SIZE + EngineRig.FIRST_POSITION) {
            assertFalse(rig.append(1000).coveredOnReturn());
        }
        assertEquals(List.of(), rig.device.flushes(), "nothing is flushed before a pass falls due");
        long appended = rig.appendedPosition();

        letAFlushFallDue(rig); // one period: one pass
        rig.awaitDurable(appended);
        List<Flush> flushes = rig.device.syncedRecordFlushes();
        assertEquals(4, flushes.size(), "one flush per segment: " + flushes);
        for (int i = 0; i < 3; i++) {
            assertEquals(flushes.get(i).segmentBase() + EngineRig.SEGMENT_SIZE, flushes.get(i).to(), "flushed to its end marker");
        }
        assertEquals(appended, flushes.get(3).to());
        assertEquals(List.of(rig.syncThread.getName()), flushers(rig).distinct().toList());
    }

    @Test
    void anAppendBlocksOnlyOnceTheOldestAppendNotYetDurableIsOlderThanTheLagBlock() {
        EngineRig rig = open(settings());
        rig.append(RECORD); // starts the lag clock
        rig.device.holdFlushes();
        letAFlushFallDue(rig);
        rig.device.awaitHeld(1); // a pass runs, and will not end while the test holds it

        rig.clock.advance(LAG_BLOCK.minus(PERIOD)); // the first append is now exactly the lag block old
        Appended atTheBlock = rig.appendIn("at-the-lag-block", RECORD).get();
        assertFalse(atTheBlock.coveredOnReturn(), "at the lag block an append still returns at once");

        rig.clock.advance(Duration.ofNanos(1));
        Pending pastTheBlock = rig.appendIn("past-the-lag-block", RECORD);
        awaitWaiting("an append past the lag block", pastTheBlock.thread);
        assertFalse(pastTheBlock.isDone());

        rig.device.releaseFlushes(); // the held pass covers the first append; the blocked one asks for the next at once
        assertTrue(pastTheBlock.get().coveredOnReturn(), "a blocked append returns once a flush covers it");
    }

    @Test
    void aPassThatCoversEverythingStopsTheLagClock() {
        EngineRig rig = open(settings());
        long first = rig.append(RECORD).end();
        letAFlushFallDue(rig);
        rig.awaitDurable(first);
        // The pass publishes the durable position before it stops the lag clock: wait until it is over.
        awaitWaiting("the sync thread, its pass over", rig.syncThread);

        rig.device.holdFlushes(); // a pass that finds the next append holds it: the append cannot be covered on return
        rig.clock.advance(LAG_BLOCK.multipliedBy(10));
        Appended next = rig.appendIn("after-everything-was-durable", RECORD).get();
        assertFalse(next.coveredOnReturn(), "the lag clock restarts at this append, so it does not block");
    }
}
