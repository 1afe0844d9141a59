package dev.commitlog.sync;

import static org.junit.jupiter.api.Assertions.*;

import com.lmax.disruptor.Sequence;
import dev.commitlog.instrument.AppenderMetrics;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.Test;

/**
 * How waiters wait: a waiter that yields sees the durable position pass its target by itself, with
 * nobody unparking it; one that parks needs the flusher's wake-up. Each test also runs the case
 * that must not return on its own, so it fails if yielding stopped working (the waiter would stay
 * parked) or if a parked waiter returned without being woken.
 */
class DurabilityWaitersTest {
    private static final long TARGET = 100;
    /** Long enough that a yielding waiter never runs out of budget while a test looks at it. */
    private static final long LONG_YIELD_NANOS = TimeUnit.SECONDS.toNanos(30);

    private final Sequence durable = new Sequence(0);

    @Test
    void aYieldingWaiterSeesTheDurablePositionWithoutBeingWoken() throws Exception {
        DurabilityWaiters waiters = new DurabilityWaiters(durable, 16, 4, 0, LONG_YIELD_NANOS);
        flushesBackToBack(waiters, LONG_YIELD_NANOS);
        Thread waiter = startWaiter(waiters);
        awaitTrue(() -> waiters.yielding() == 1, "the waiter yields");

        durable.set(TARGET); // no wakeCovered: only a waiter still looking at the position can return
        waiter.join(TimeUnit.SECONDS.toMillis(10));
        assertFalse(waiter.isAlive(), "a yielding waiter returned once the durable position covered it");
        assertEquals(0, waiters.yielding());
    }

    @Test
    void withYieldingOffAWaiterParksAndNeedsTheWakeUp() throws Exception {
        DurabilityWaiters waiters = new DurabilityWaiters(durable, 16, 0, 0, LONG_YIELD_NANOS);
        flushesBackToBack(waiters, LONG_YIELD_NANOS);
        Thread waiter = startWaiter(waiters);
        awaitTrue(() -> waiter.getState() == Thread.State.WAITING, "the waiter parks");
        assertEquals(0, waiters.yielding(), "nobody yields when yielding is off");

        durable.set(TARGET);
        waiter.join(200);
        assertTrue(waiter.isAlive(), "a parked waiter is not told by the position alone");
        releaseParked(waiters, waiter);
    }

    @Test
    void noWaiterYieldsBeforeTwoFlushesWerePublished() throws Exception {
        DurabilityWaiters waiters = new DurabilityWaiters(durable, 16, 4, 0, LONG_YIELD_NANOS);
        waiters.flushPublished(LONG_YIELD_NANOS, 0);
        assertEquals(0, waiters.yieldBudgetNanos(), "one flush says nothing about how far apart they come");
        Thread waiter = startWaiter(waiters);
        awaitTrue(() -> waiter.getState() == Thread.State.WAITING, "the waiter parks: the yield budget is 0");
        releaseParked(waiters, waiter);
    }

    @Test
    void noWaiterYieldsWhileFlushesComeFurtherApartThanItsBudget() throws Exception {
        DurabilityWaiters waiters = new DurabilityWaiters(durable, 16, 4, 0, LONG_YIELD_NANOS);
        waiters.flushPublished(LONG_YIELD_NANOS, 0);
        waiters.flushPublished(LONG_YIELD_NANOS, 3 * LONG_YIELD_NANOS); // published 90 s apart: over the 30 s budget
        assertEquals(0, waiters.yieldBudgetNanos());
        Thread parker = startWaiter(waiters);
        awaitTrue(() -> parker.getState() == Thread.State.WAITING, "the waiter parks at once, not after 30 s of yielding");
        assertEquals(0, waiters.yielding());

        waiters.flushPublished(LONG_YIELD_NANOS, 3 * LONG_YIELD_NANOS + LONG_YIELD_NANOS / 2); // 15 s later: back to back
        assertEquals(LONG_YIELD_NANOS, waiters.yieldBudgetNanos());
        Thread yielder = startWaiter(waiters);
        awaitTrue(() -> waiters.yielding() == 1, "once flushes come within the budget, a waiter yields");
        onlyTheYielderSeesThePosition(waiters, yielder, parker);
    }

    @Test
    void waitersBeyondTheCapParkAtOnce() throws Exception {
        DurabilityWaiters waiters = new DurabilityWaiters(durable, 16, 1, 0, LONG_YIELD_NANOS);
        flushesBackToBack(waiters, LONG_YIELD_NANOS);
        Thread yielder = startWaiter(waiters);
        awaitTrue(() -> waiters.yielding() == 1, "the first waiter yields");
        Thread parker = startWaiter(waiters);
        awaitTrue(() -> parker.getState() == Thread.State.WAITING, "the second waiter, over the cap of 1, parks");
        assertEquals(1, waiters.yielding());

        onlyTheYielderSeesThePosition(waiters, yielder, parker);
    }

    @Test
    void aWaiterYieldsOnlyWhileEnoughOthersWait() throws Exception {
        DurabilityWaiters waiters = new DurabilityWaiters(durable, 16, 4, 1, LONG_YIELD_NANOS);
        flushesBackToBack(waiters, LONG_YIELD_NANOS);
        Thread alone = startWaiter(waiters);
        awaitTrue(() -> alone.getState() == Thread.State.WAITING, "a waiter with nobody else waiting parks");
        assertEquals(0, waiters.yielding());
        Thread second = startWaiter(waiters);
        awaitTrue(() -> waiters.yielding() == 1, "a waiter that finds one other waiting yields");
        assertEquals(2, waiters.waiting());

        onlyTheYielderSeesThePosition(waiters, second, alone);
        assertEquals(0, waiters.waiting());
    }

    @Test
    void aWaiterParksOnceItHasYieldedTwiceTheLastFlush() throws Exception {
        DurabilityWaiters waiters = new DurabilityWaiters(durable, 16, 4, 0, LONG_YIELD_NANOS);
        flushesBackToBack(waiters, TimeUnit.MILLISECONDS.toNanos(5));
        Thread waiter = startWaiter(waiters);
        awaitTrue(() -> waiter.getState() == Thread.State.WAITING, "the waiter parks after yielding about 10 ms");
        assertEquals(0, waiters.yielding());
        releaseParked(waiters, waiter);
    }

    @Test
    void theYieldBudgetIsCapped() {
        DurabilityWaiters waiters = new DurabilityWaiters(durable, 16, 4, 0, DurabilityWaiters.MAX_YIELD_NANOS);
        waiters.flushPublished(TimeUnit.SECONDS.toNanos(1), 0);
        waiters.flushPublished(TimeUnit.SECONDS.toNanos(1), 1_000);
        assertEquals(DurabilityWaiters.MAX_YIELD_NANOS, waiters.yieldBudgetNanos());
        waiters.flushPublished(200_000, 201_000);
        assertEquals(400_000, waiters.yieldBudgetNanos(), "twice the last flush");
        assertThrows(IllegalArgumentException.class, () -> new DurabilityWaiters(durable, 16, -1, 0, LONG_YIELD_NANOS));
    }

    /** Two flushes of {@code flushNanos}, published {@code flushNanos} apart: the budget is twice that, capped. */
    private static void flushesBackToBack(DurabilityWaiters waiters, long flushNanos) {
        waiters.flushPublished(flushNanos, 0);
        waiters.flushPublished(flushNanos, flushNanos);
    }

    /** The position covers both; the yielder returns by itself, the parked one only once woken. */
    private void onlyTheYielderSeesThePosition(DurabilityWaiters waiters, Thread yielder, Thread parker) throws InterruptedException {
        durable.set(TARGET);
        yielder.join(TimeUnit.SECONDS.toMillis(10));
        assertFalse(yielder.isAlive(), "the yielder saw the position");
        assertTrue(parker.isAlive(), "the parked waiter waits for its wake-up");
        releaseParked(waiters, parker);
    }

    /** The flusher's part: the position covers the target, then the covered waiters are woken. */
    private void releaseParked(DurabilityWaiters waiters, Thread parked) throws InterruptedException {
        durable.set(TARGET);
        waiters.wakeCovered(TARGET);
        parked.join(TimeUnit.SECONDS.toMillis(10));
        assertFalse(parked.isAlive(), "the wake-up released the parked waiter");
    }

    private Thread startWaiter(DurabilityWaiters waiters) {
        Thread thread = new Thread(() -> waiters.await(TARGET, new Waiter(Thread.currentThread(), AppenderMetrics.unrecorded(Thread.currentThread()))),
                "durability-waiter");
        thread.setDaemon(true);
        thread.start();
        return thread;
    }

    private static void awaitTrue(BooleanSupplier condition, String what) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (!condition.getAsBoolean()) {
            assertTrue(System.nanoTime() < deadline, "timed out waiting until " + what);
            Thread.sleep(1);
        }
    }
}
