package dev.commitlog.sync;

import static dev.commitlog.WaitingThreads.awaitWaiting;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.commitlog.CommitLogFailedException;
import dev.commitlog.SyncTuning;
import dev.commitlog.WaitingThreads;
import dev.commitlog.sync.EngineRig.Appended;
import dev.commitlog.sync.EngineRig.Pending;
import dev.commitlog.sync.FakeDevice.Flush;
import dev.commitlog.sync.FakeDevice.Outcome;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.locks.LockSupport;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The promises every sync mode keeps, held against one {@link SyncEngine} per test over a
 * {@link FakeDevice} and a {@link FakeClock} (the contract-test style of JCTools'
 * {@code QueueSanityTest}: one subclass per mode, each adding its own promises). The device also
 * checks, on every flush of every test, that flushes run one at a time, start where the durable
 * position stands, never follow a failed one, and are not published before they return.
 *
 * <p>Periodic keeps a different promise for an append (it returns at once, and its record becomes
 * durable at the next pass); where a test depends on that, it asks {@link #appendsWait()}, and it
 * makes Periodic's appends wait by taking its fake clock past the lag block.
 *
 * <p>Nothing here passes or fails by timing: flushes are held at the device's gate until the test
 * has seen the threads it expects waiting, and waits are bounded for liveness only.
 */
@Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD) // an engine broken on purpose may never let a test thread go
abstract class SyncEngineContractTest {
    static final int RECORD = 100;

    private final List<EngineRig> rigs = new ArrayList<>();

    /** The mode's settings, as a log would hold them. */
    protected abstract SyncSettings settings();

    /**
     * Settings whose timers outlast any test (Group's window), so that only the engine's own
     * promptness can end a wait that a timer would otherwise end. The same as {@link #settings()}
     * where the mode has no such timer (Periodic's runs on the fake clock).
     */
    protected SyncSettings settingsNoTimerEnds() {
        return settings();
    }

    protected SyncTuning tuning() {
        return SyncTuning.defaults();
    }

    /** Whether an append returns only once a flush covers its record (all modes but Periodic, within its lag block). */
    protected boolean appendsWait() {
        return true;
    }

    /** Lets the time pass after which the mode flushes by itself: Periodic's period. The others flush when asked or on data. */
    protected void letAFlushFallDue(EngineRig rig) {
    }

    /**
     * Makes the appends that follow wait for a flush that covers them: Periodic's clock moves past
     * the lag block (while a pass is running, or the pass would cover everything and stop the lag
     * clock). The other modes always wait.
     */
    protected void makeAppendsWait(EngineRig rig) {
    }

    protected EngineRig open(SyncSettings settings) {
        EngineRig rig = new EngineRig(settings, tuning());
        rigs.add(rig);
        return rig;
    }

    @AfterEach
    void closeAndCheckTheFlushRules() {
        for (EngineRig rig : rigs) {
            rig.device.releaseFlushes();
            rig.device.diskFull(false);
            rig.close();
        }
        for (EngineRig rig : rigs) {
            rig.device.assertNoViolations();
        }
    }

    @Test
    void anAppendReturnsOnlyOnceAFlushThatCoversItHasCompleted() {
        EngineRig rig = open(settings());
        rig.device.holdFlushes();
        Pending first = rig.appendIn("first", RECORD);
        if (!appendsWait()) {
            Appended returned = first.get();
            assertFalse(returned.coveredOnReturn(), "Periodic returns before any flush");
            assertEquals(List.of(), rig.device.flushes(), "and flushes nothing until a pass falls due");
            letAFlushFallDue(rig);
        }
        rig.device.awaitHeld(1);
        makeAppendsWait(rig);
        Pending second = rig.appendIn("second", RECORD);
        Pending third = rig.appendIn("third", RECORD);
        List<Pending> waiting = appendsWait() ? List.of(first, second, third) : List.of(second, third);
        awaitWaiting("appenders whose records the held flush does not cover yet", waiting.stream().map(p -> p.thread).toList());
        for (Pending pending : waiting) {
            assertFalse(pending.isDone(), pending.thread.getName() + " returned while the flush was held");
        }
        assertEquals(EngineRig.FIRST_POSITION, rig.durablePosition(), "nothing is durable while the first flush is held");

        rig.device.releaseFlushes();
        for (Pending pending : waiting) {
            Appended appended = pending.get();
            assertTrue(appended.coveredOnReturn(), pending.thread.getName() + " returned before a flush covered " + appended);
        }
        assertTrue(rig.durablePosition() >= third.get().end());
    }

    @Test
    void flushesCoverContiguousRangesInPositionOrderOneAtATimeAcrossSegments() throws InterruptedException {
        EngineRig rig = open(settings());
        int writers = 4;
        int perWriter = 120;
        int length = 500; // 4 x 120 frames of 512 bytes: 240 KiB, four segments of 64 KiB
        List<Pending> running = new ArrayList<>();
        List<List<Appended>> results = new ArrayList<>();
        for (int w = 0; w < writers; w++) {
            List<Appended> mine = new ArrayList<>();
            results.add(mine);
            running.add(EngineRig.inThread("writer-" + w, () -> {
                for (int i = 0; i < perWriter; i++) {
                    mine.add(rig.append(length));
                }
                return null;
            }));
        }
        while (running.stream().anyMatch(p -> !p.isDone())) {
            letAFlushFallDue(rig); // Periodic: passes while the writers append
            LockSupport.parkNanos(1_000_000);
        }
        for (Pending writer : running) {
            writer.get();
            writer.thread.join();
        }
        letAFlushFallDue(rig);
        long appended = rig.appendedPosition();
        rig.awaitDurable(appended);

        if (appendsWait()) {
            List<Appended> uncovered = results.stream().flatMap(List::stream).filter(a -> !a.coveredOnReturn()).toList();
            assertEquals(List.of(), uncovered, "appends that returned before a flush covered them");
        }
        List<Flush> flushes = rig.device.syncedRecordFlushes();
        assertTrue(rig.device.segmentsCreated() >= 4, "the appends crossed segments: " + rig.device.segmentsCreated());
        long expectedFrom = EngineRig.FIRST_POSITION;
        Flush previous = null;
        for (Flush flush : flushes) {
            boolean enteredNextSegment = previous != null && previous.to() == flush.segmentBase()
                    && flush.from() == flush.segmentBase() + EngineRig.FIRST_POSITION;
            assertTrue(flush.from() == expectedFrom || enteredNextSegment, "flush " + flush + " does not start where " + previous + " ended");
            if (previous != null) {
                assertTrue(previous.endedNanos() <= flush.startedNanos(), previous + " and " + flush + " overlapped");
                if (previous.segmentBase() != flush.segmentBase()) {
                    assertEquals(flush.segmentBase(), previous.to(), "a segment is left only once flushed to its end: " + previous);
                }
            }
            expectedFrom = flush.to();
            previous = flush;
        }
        assertEquals(appended, expectedFrom, "the flushes reach the end of the appends");
        assertEquals(appended, rig.durablePosition());
    }

    @Test
    void requestSyncLeadsToAFlushThatCoversThePosition() {
        EngineRig rig = open(settings());
        long end = rig.publish(RECORD);
        rig.engine.requestSync(end);
        if (!appendsWait()) {
            assertEquals(List.of(), rig.device.flushes(), "Periodic serves the request at its next pass, not before");
            letAFlushFallDue(rig);
        }
        rig.awaitDurable(end);
        assertTrue(rig.device.syncedUpTo() >= end, "durable at " + rig.durablePosition() + ", synced to " + rig.device.syncedUpTo());
    }

    @Test
    void aFailedFlushFailsItsWaitersAndNothingIsFlushedOrAcknowledgedAfterIt() {
        EngineRig rig = open(settings());
        rig.device.holdFlushes();
        Pending first = rig.appendIn("first", RECORD);
        if (!appendsWait()) {
            first.get();
            letAFlushFallDue(rig);
        }
        rig.device.awaitHeld(1);
        makeAppendsWait(rig);
        Pending second = rig.appendIn("second", RECORD);
        Pending third = rig.appendIn("third", RECORD);
        List<Pending> waiting = appendsWait() ? List.of(first, second, third) : List.of(second, third);
        awaitWaiting("appenders behind the flush that will fail", waiting.stream().map(p -> p.thread).toList());

        IOException eio = new IOException("fdatasync: Input/output error");
        rig.device.failHeldFlush(eio);
        RuntimeException failure = null;
        for (Pending pending : waiting) {
            Throwable thrown = pending.failure();
            assertInstanceOf(CommitLogFailedException.class, thrown, pending.thread.getName());
            assertSame(eio, thrown.getCause(), "the failure carries the device's error");
            failure = rig.engine.failure();
            assertSame(failure, thrown, "every waiter gets the failure the engine reports");
        }
        assertEquals(EngineRig.FIRST_POSITION, rig.durablePosition(), "nothing is acknowledged by a failed flush");

        Throwable later = rig.appendIn("after-the-failure", RECORD).failure();
        assertSame(failure, later, "an append after the failure gets it too");
        long published = rig.publish(RECORD);
        assertSame(failure, assertThrows(CommitLogFailedException.class, () -> rig.syncTo(published)));
        rig.engine.requestSync(published); // served by no flush, and throws nothing
        rig.close();
        List<Flush> flushes = rig.device.flushes();
        assertEquals(Outcome.FAILED, flushes.get(flushes.size() - 1).outcome(), "nothing, not even the close's mark, after " + flushes);
        assertEquals(EngineRig.FIRST_POSITION, rig.durablePosition(), "nothing is acknowledged after a failed flush");
    }

    @Test
    void aFullDiskIsRetriedAndNothingIsAcknowledgedMeanwhile() {
        EngineRig rig = open(settings());
        rig.device.diskFull(true);
        Pending first = rig.appendIn("first", RECORD);
        if (!appendsWait()) {
            first.get();
            letAFlushFallDue(rig);
        }
        rig.device.awaitNoSpaceRefusals(3);
        makeAppendsWait(rig);
        Pending second = rig.appendIn("second", RECORD);
        List<Pending> waiting = appendsWait() ? List.of(first, second) : List.of(second);
        awaitWaiting("appenders while the disk is full", waiting.stream().map(p -> p.thread).toList());
        rig.device.awaitNoSpaceRefusals(rig.device.noSpaceRefusals() + 1); // still retrying, with both waiting
        for (Pending pending : waiting) {
            assertFalse(pending.isDone(), pending.thread.getName() + " returned while the disk was full");
        }
        assertEquals(EngineRig.FIRST_POSITION, rig.durablePosition(), "nothing is acknowledged while the disk is full");
        assertNull(rig.engine.failure(), "a full disk does not fail the log");

        rig.device.diskFull(false);
        for (Pending pending : waiting) {
            assertTrue(pending.get().coveredOnReturn(), pending.thread.getName());
        }
        assertNull(rig.engine.failure());
        List<Flush> flushes = rig.device.flushes();
        Flush retried = rig.device.syncedRecordFlushes().get(0);
        List<Flush> refused = flushes.stream().filter(f -> f.outcome() == Outcome.NO_SPACE).toList();
        assertTrue(refused.stream().allMatch(f -> f.from() == retried.from() && f.to() == retried.to()),
                "the refused flush is retried as it was, " + retried + ", after " + refused);
        assertEquals(flushes.indexOf(retried), refused.size(), "the retry that synced follows the refusals: " + flushes);
    }

    @Test
    void closeFlushesWhatWasPublishedAndReleasesWaiters() {
        EngineRig rig = open(settingsNoTimerEnds());
        rig.appendIn("first", RECORD).get(); // Group's window now runs after its flush
        Pending waitingAppender = rig.appendIn("waiting-appender", RECORD); // Group: waits out the window; Batch: flushes itself
        rig.awaitTrue(() -> waitingAppender.isDone() || WaitingThreads.isWaiting(waitingAppender.thread), "the appender returns or waits");
        long published = rig.publish(RECORD);
        published = Math.max(published, rig.publish(RECORD));
        long neverPublished = Long.MAX_VALUE / 2;
        Pending waiter = EngineRig.inThread("waiter-for-a-position-never-published", () -> {
            rig.engine.await(neverPublished, rig.waiter());
            return null;
        });
        awaitWaiting("a waiter for a position nobody will publish", waiter.thread);

        rig.close();
        waiter.get();
        if (appendsWait()) {
            assertTrue(waitingAppender.get().coveredOnReturn());
        }
        assertEquals(published, rig.durablePosition(), "close flushes everything published");
        assertEquals(published, rig.device.syncedUpTo());
        List<Flush> flushes = rig.device.flushes();
        Flush last = flushes.get(flushes.size() - 1);
        assertFalse(last.carriesRecords(), "close ends with the exact durable mark, a header-only flush: " + flushes);
        assertTrue(last.headerLength() > 0, "the exact mark: " + last);
    }

    @Test
    void syncUpToFlushesAtOnce() {
        EngineRig rig = open(settingsNoTimerEnds());
        // Group's window now runs after its flush, and Periodic's clock stands still: no timer ends before the test.
        rig.appendIn("first", RECORD).get();
        long end = rig.publish(RECORD);
        Appended synced = EngineRig.inThread("alone", () -> rig.syncTo(end)).get();
        assertTrue(synced.coveredOnReturn(), "syncUpTo returned before a flush covered it");

        // With the role busy, syncUpTo asks the sync thread, which must not wait out a window or period.
        rig.device.holdFlushes();
        long heldEnd = rig.publish(RECORD);
        Pending holder = EngineRig.inThread("holder", () -> rig.syncTo(heldEnd));
        rig.device.awaitHeld(1);
        long laterEnd = rig.publish(RECORD);
        Pending asker = EngineRig.inThread("asker", () -> rig.syncTo(laterEnd));
        awaitWaiting("a caller of syncUpTo while another thread flushes", asker.thread);
        rig.device.releaseFlushes();
        assertTrue(holder.get().coveredOnReturn());
        assertTrue(asker.get().coveredOnReturn(), "syncUpTo returned before a flush covered it");
        Flush last = rig.device.syncedRecordFlushes().stream().reduce((a, b) -> b).orElseThrow();
        assertEquals(rig.syncThread.getName(), last.thread(), "the sync thread flushed for the asker: " + last);
    }

    /** The flushes of records, by the thread that ran them. */
    static Stream<String> flushers(EngineRig rig) {
        return rig.device.syncedRecordFlushes().stream().map(Flush::thread);
    }
}
