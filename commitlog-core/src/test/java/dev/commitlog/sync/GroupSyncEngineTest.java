package dev.commitlog.sync;

import static dev.commitlog.WaitingThreads.awaitWaiting;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.commitlog.config.CommitFailurePolicy;
import dev.commitlog.config.SyncMode;
import dev.commitlog.sync.EngineRig.Appended;
import dev.commitlog.sync.EngineRig.Pending;
import dev.commitlog.sync.FakeDevice.Flush;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Group: after each flush the sync thread waits out the window, so appends that arrive meanwhile
 * share the next flush; an explicit sync and close cut the window short (the contract's
 * {@code syncUpToFlushesAtOnce} and {@code closeFlushesWhatWasPublishedAndReleasesWaiters} run
 * with a window no test outlasts). The window is a real-time wait on a semaphore, not on the fake
 * clock: a test that must not see it end sets it to an hour, and the one test that needs it to end
 * asserts only a lower bound on how long it lasted.
 */
class GroupSyncEngineTest extends SyncEngineContractTest {
    private static final Duration WINDOW = Duration.ofMillis(2);
    private static final Duration NO_TEST_OUTLASTS = Duration.ofHours(1);

    @Override
    protected SyncSettings settings() {
        return group(WINDOW);
    }

    @Override
    protected SyncSettings settingsNoTimerEnds() {
        return group(NO_TEST_OUTLASTS);
    }

    private static SyncSettings group(Duration window) {
        return new SyncSettings(SyncMode.GROUP, null, null, window, CommitFailurePolicy.STOP);
    }

    @Test
    void appendsThatArriveDuringTheWindowShareOneFlush() {
        EngineRig rig = open(group(NO_TEST_OUTLASTS));
        rig.appendIn("first", RECORD).get(); // flushed by the sync thread, which then waits out its window
        List<Pending> appenders = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            appenders.add(rig.appendIn("in-the-window-" + i, RECORD));
        }
        awaitWaiting("appenders in the window", appenders.stream().map(p -> p.thread).toList());
        assertEquals(1, rig.device.syncedRecordFlushes().size(), "nothing is flushed during the window");

        long appended = rig.appendedPosition();
        EngineRig.inThread("sync", () -> rig.syncTo(appended)).get();
        for (Pending appender : appenders) {
            assertTrue(appender.get().coveredOnReturn());
        }
        List<Flush> flushes = rig.device.syncedRecordFlushes();
        assertEquals(2, flushes.size(), "the four appends share one flush: " + flushes);
        assertEquals(flushes.get(0).to(), flushes.get(1).from());
        assertEquals(appended, flushes.get(1).to());
    }

    @Test
    void theWindowEndsByItselfAndThenTheSyncThreadFlushes() {
        Duration window = Duration.ofMillis(50);
        EngineRig rig = open(group(window));
        rig.appendIn("first", RECORD).get();
        Appended next = rig.appendIn("in-the-window", RECORD).get();
        assertTrue(next.coveredOnReturn());
        List<Flush> flushes = rig.device.syncedRecordFlushes();
        assertEquals(2, flushes.size(), flushes.toString());
        assertEquals(List.of(rig.syncThread.getName()), flushers(rig).distinct().toList(), "appenders never flush in Group");
        long gap = flushes.get(1).startedNanos() - flushes.get(0).endedNanos();
        assertTrue(gap >= window.toNanos(), "the second flush began " + gap + " ns after the first, within the window");
    }
}
