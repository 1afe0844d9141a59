package dev.commitlog.sync;

import com.lmax.disruptor.Sequence;
import java.lang.invoke.VarHandle;
import java.util.Arrays;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import org.jctools.queues.MpscArrayQueue;

/**
 * Appenders waiting for the durable position to pass their record, and the flusher waking exactly
 * those a flush covered.
 *
 * <p>Assumptions and guarantees: any thread may {@link #await}; only the holder of the flush role
 * calls {@link #wakeCovered}, {@link #flushPublished} and {@link #wakeAll} (the role hands this
 * object out for them only to its holder). A waiter that does not yield registers in a lock-free
 * MPSC queue and parks; it re-checks the durable position and the release flag after
 * registering, so a wake-up can never be missed: either the flusher drains the registration after
 * publishing the new durable position, or the waiter sees that position itself. Nobody is woken
 * early: a parked waiter is unparked only when the durable position covers its target (or the log
 * failed or closed).
 *
 * <p>Yielding before parking (RocksDB's middle phase): a waiter that yields sees the durable
 * position move by itself, so the flusher does not unpark it (a system call, made one waiter after
 * another before the next flush can start) and it needs no scheduler wake-up to run again. Three
 * gates keep yielding from costing more than it saves:
 * <ul>
 *   <li>a waiter yields for at most twice the last flush's duration, the longest a record waits
 *       when flushes run back to back (the rest of the running flush, then the one that covers
 *       it), capped at {@link #MAX_YIELD_NANOS}; and nobody yields while publications come further
 *       apart than that budget: flushes are then not back to back (Group's window, Periodic's
 *       timer, an idle spell, or hundreds of parked waiters whose wake-ups stretch each cycle), so
 *       a yielder would burn a core until it parks anyway;</li>
 *   <li>at most {@code maxYielders} waiters yield at once, since every yielder looks busy to the
 *       scheduler and hundreds of them make each yield last milliseconds;</li>
 *   <li>a waiter yields only while at least {@code othersWaiting} others wait too: with few
 *       waiters the flusher's wake-ups cost little, while yielders that fill every core delay the
 *       thread whose flush just returned.</li>
 * </ul>
 * The rest park at once. A waiter never spins: a flush takes hundreds of microseconds and a waiter
 * rarely arrives in its last few, so spinning only takes a core from the writers the last flush
 * released.
 */
final class DurabilityWaiters {
    /** The longest a waiter yields before it parks, whatever the flushes take. */
    static final long MAX_YIELD_NANOS = 1_000_000;
    /** Waiters that may yield at once, per available processor; the rest park at once. */
    static final int YIELDERS_PER_CORE = 4;
    /** When the registration queue is full, poll with this pause instead of parking. */
    private static final long OVERFLOW_POLL_NANOS = 20_000;

    private final Sequence durable;
    private final MpscArrayQueue<Waiter> arrivals;
    /** Registered waiters not yet covered; role holder only. */
    private Waiter[] pending = new Waiter[64];
    private int pendingCount;
    private volatile boolean released;

    /** How many waiters may yield at once; 0: none ever does. */
    private final int maxYielders;
    private final AtomicInteger yielders = new AtomicInteger();
    /** A waiter yields only while at least this many others wait. */
    private final int othersWaiting;
    /** Waiters yielding or parked (counted only while yielding is on: nothing reads it otherwise). */
    private final AtomicInteger waiting = new AtomicInteger();
    private final long maxYieldNanos;
    /**
     * How long a waiter yields before parking: twice the last flush, capped; 0 until two flushes
     * were published, and while the last two were further apart than that.
     */
    private volatile long yieldNanos;
    /** When the last flush was published ({@link System#nanoTime}); role holder only. */
    private long lastPublishedAt;
    private boolean publishedBefore;

    /**
     * @param maxYielders   how many waiters may yield at once before parking; 0 turns yielding off
     * @param othersWaiting a waiter yields only while at least this many others wait
     * @param maxYieldNanos the longest a waiter yields ({@link #MAX_YIELD_NANOS}; tests set it long,
     *                      so that it never races the budget)
     */
    DurabilityWaiters(Sequence durable, int capacity, int maxYielders, int othersWaiting, long maxYieldNanos) {
        if (maxYielders < 0) {
            throw new IllegalArgumentException("maxYielders " + maxYielders + " is negative");
        }
        this.durable = durable;
        this.maxYielders = maxYielders;
        this.othersWaiting = othersWaiting;
        this.maxYieldNanos = maxYieldNanos;
        this.arrivals = new MpscArrayQueue<>(capacity);
    }

    /** The engine's waiters: yielding gated by this machine's cores, or off. */
    static DurabilityWaiters forCores(Sequence durable, boolean yieldBeforePark) {
        int cores = Runtime.getRuntime().availableProcessors();
        return new DurabilityWaiters(durable, 1 << 16, yieldBeforePark ? YIELDERS_PER_CORE * cores : 0, cores, MAX_YIELD_NANOS);
    }

    /**
     * Returns when the durable position reaches {@code target}, or when {@link #wakeAll} released
     * everyone (the caller then checks why).
     */
    void await(long target, Waiter self) {
        if (durable.get() >= target || released) {
            return;
        }
        if (maxYielders == 0) {
            parkUntilCovered(target, self);
            return;
        }
        int othersNow = waiting.getAndIncrement();
        try {
            if (othersNow < othersWaiting || !yieldUntilCovered(target)) {
                parkUntilCovered(target, self);
            }
        } finally {
            waiting.decrementAndGet();
        }
    }

    /** Registers for the flusher's wake-up and parks until covered (or released). */
    private void parkUntilCovered(long target, Waiter self) {
        self.target = target;
        boolean registered = arrivals.offer(self);
        // StoreLoad: the registration must be visible before the durable position is re-read;
        // the flusher publishes the position with a volatile store before it drains.
        VarHandle.fullFence();
        // An interrupt does not end the wait (the record is published; the caller must learn its
        // fate), but park returns at once while the flag is set: clear it, restore it on return.
        boolean interrupted = false;
        while (durable.get() < target && !released) {
            if (registered) {
                LockSupport.park(this);
            } else {
                LockSupport.parkNanos(this, OVERFLOW_POLL_NANOS);
            }
            interrupted |= Thread.interrupted();
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * Yields while the durable position is short of {@code target}, for at most the yield budget,
     * if fewer than {@code maxYielders} others are yielding; returns whether it got covered (or the
     * log released everyone).
     */
    private boolean yieldUntilCovered(long target) {
        long budget = yieldNanos;
        if (budget == 0) {
            return false;
        }
        try {
            if (yielders.incrementAndGet() > maxYielders) {
                return false;
            }
            long deadline = System.nanoTime() + budget;
            do {
                Thread.yield();
                if (durable.get() >= target || released) {
                    return true;
                }
            } while (System.nanoTime() - deadline < 0);
            return false;
        } finally {
            yielders.decrementAndGet();
        }
    }

    /**
     * Tells waiters that a flush cycle that took {@code flushNanos} was published at
     * {@code publishedAt} ({@link System#nanoTime}), which sets how long they yield. Role holder.
     */
    void flushPublished(long flushNanos, long publishedAt) {
        long budget = Math.min(maxYieldNanos, 2 * Math.max(0, flushNanos));
        if (!publishedBefore || publishedAt - lastPublishedAt > budget) {
            budget = 0; // the flushes are not back to back: a yielder would wait longer than its budget
        }
        publishedBefore = true;
        lastPublishedAt = publishedAt;
        if (budget != yieldNanos) {
            yieldNanos = budget;
        }
    }

    /** Waiters yielding right now; for tests. */
    int yielding() {
        return yielders.get();
    }

    /** Waiters yielding or parked (counted while yielding is on); for tests. */
    int waiting() {
        return waiting.get();
    }

    /** How long a waiter yields now before parking; for tests. */
    long yieldBudgetNanos() {
        return yieldNanos;
    }

    /** Unparks every registered waiter whose target the durable position now covers. Role holder. */
    void wakeCovered(long durablePosition) {
        drainArrivals();
        int kept = 0;
        for (int i = 0; i < pendingCount; i++) {
            Waiter waiter = pending[i];
            if (waiter.target > durablePosition) {
                pending[kept++] = waiter;
            } else {
                LockSupport.unpark(waiter.thread);
            }
        }
        Arrays.fill(pending, kept, pendingCount, null);
        pendingCount = kept;
    }

    /** Releases every waiter, now and later (the log failed or closed). Role holder. */
    void wakeAll() {
        released = true;
        drainArrivals();
        for (int i = 0; i < pendingCount; i++) {
            LockSupport.unpark(pending[i].thread);
        }
        Arrays.fill(pending, 0, pendingCount, null);
        pendingCount = 0;
    }

    private void drainArrivals() {
        Waiter waiter;
        while ((waiter = arrivals.poll()) != null) {
            if (pendingCount == pending.length) {
                pending = Arrays.copyOf(pending, pendingCount * 2);
            }
            pending[pendingCount++] = waiter;
        }
    }
}
