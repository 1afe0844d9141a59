package dev.commitlog.sync;

import com.lmax.disruptor.Sequence;
import java.lang.invoke.VarHandle;
import java.util.Arrays;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import org.jctools.queues.MpscArrayQueue;

/**
 * Appenders waiting for the durable position to pass their record, and the sync thread waking
 * exactly those a flush covered.
 *
 * <p>Assumptions and guarantees: any thread may {@link #await}; only the holder of the flush role
 * calls {@link #wakeCovered}, {@link #flushPublished} and {@link #wakeAll}. A waiter yields for up
 * to about two flushes (below), then registers in a lock-free MPSC queue and parks; it re-checks the durable
 * position and the failure flag after registering, so a wake-up can never be missed: either the
 * sync thread drains the registration after publishing the new durable position, or the waiter
 * sees that position itself. Nobody is woken early: a parked waiter is unparked only when the
 * durable position covers its target (or the log failed or closed).
 *
 * <p>Yielding before parking (RocksDB's middle phase): a waiter that yields sees the durable
 * position move by itself, so the flusher does not unpark it (a system call, about 12 us here, made
 * one waiter after another before the next flush can start) and it needs no scheduler wake-up to
 * run again. It yields for at most twice the last flush's duration, the longest a record waits when
 * flushes run back to back (the rest of the running flush, then the one that covers it), capped at
 * {@link #MAX_YIELD_NANOS} so that a slow device costs no more than a millisecond of CPU per wait.
 * Nobody yields while publications come further apart than that budget: flushes are then not
 * back to back (Group's window, Periodic's timer, an idle spell, or hundreds of parked waiters
 * whose wake-ups stretch each cycle), so a yielder would burn a core until it parks anyway;
 * measured at 128 threads, the yielders' CPU cost the parked waiters 12-32% on p99. At most
 * {@code maxYielders} waiters yield at once, since every yielder looks busy to the scheduler and
 * hundreds of them make each yield last milliseconds. And a waiter yields only while
 * at least {@code othersWaiting} others wait too: with few waiters the flusher's wake-ups cost
 * little, while yielders that fill every core delay the thread whose flush just returned (measured
 * here with 2 writers on 2 cores: 0.79-0.88 x parking). The rest park at once.
 *
 * <p>No spin before that, by default ({@code spins} is 0; {@link SyncTuning#WAIT_SPINS} sets it):
 * 200 spins cost about 6 us of CPU here and ended 0.04% of the waits they preceded, since a flush
 * takes 150-300 us and a waiter rarely arrives in its last microseconds. On 2 cores that CPU is
 * taken from the writers the last flush released: measured paired in session 17, dropping the
 * spin made Adaptive 1.13-1.29x faster at 16-256 threads (no row changed below that) and Batch
 * 1.27x at 256.
 *
 * <p>Cascaded wake-ups: unparking is a system call, and a flusher that unparks 200 waiters one by
 * one delays the next flush by as long as the flush itself. So the flusher puts the covered waiters,
 * in registration order, on a wake ring and unparks two; every waiter leaving {@link #await} unparks
 * two more from the ring, so wake-ups spread over every core in a binary tree. A ring slot is
 * claimed by CAS after it is read, and the flusher never laps a slot that is not yet claimed.
 */
final class DurabilityWaiters {
    /** The longest a waiter yields before it parks, whatever the flushes take. */
    static final long MAX_YIELD_NANOS = 1_000_000;
    /** When the registration queue is full, poll with this pause instead of parking. */
    private static final long OVERFLOW_POLL_NANOS = 20_000;

    private final Sequence durable;
    private final MpscArrayQueue<Waiter> arrivals;
    /** Registered waiters not yet covered; sync thread only. */
    private Waiter[] pending = new Waiter[64];
    private int pendingCount;
    private volatile boolean released;

    private final boolean cascade;
    /** Covered waiters not yet unparked; written by the flush-role holder, claimed by anyone. */
    private final Waiter[] wakeRing;
    private final int wakeMask;
    /** Slots below this are written; volatile store after the slot writes. */
    private volatile long wakePublished;
    /** Slots below this are claimed (their waiter unparked or being unparked). */
    private final AtomicLong wakeClaimed = new AtomicLong();

    /** How many waiters may yield at once; 0: none ever does (they park after any spin). */
    private final int maxYielders;
    private final AtomicInteger yielders = new AtomicInteger();
    /** A waiter yields only while at least this many others are past their spin (if any). */
    private final int othersWaiting;
    /** Waiters past their spin (if any): yielding or parked (counted only while yielding is on). */
    private final AtomicInteger waiting = new AtomicInteger();
    private final long maxYieldNanos;
    /** How many times a waiter re-reads the durable position before it yields or parks. */
    private final int spins;
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
     */
    DurabilityWaiters(Sequence durable, int capacity, boolean cascade, int maxYielders, int othersWaiting) {
        this(durable, capacity, cascade, maxYielders, othersWaiting, SyncTuning.DEFAULT_WAIT_SPINS, MAX_YIELD_NANOS);
    }

    /**
     * As above, with the spins before yielding or parking, and the yield cap a test needs (long, so
     * that it never races the budget).
     */
    DurabilityWaiters(Sequence durable, int capacity, boolean cascade, int maxYielders, int othersWaiting, int spins,
                      long maxYieldNanos) {
        if (maxYielders < 0) {
            throw new IllegalArgumentException("maxYielders " + maxYielders + " is negative");
        }
        if (spins < 0) {
            throw new IllegalArgumentException("spins " + spins + " is negative");
        }
        this.spins = spins;
        this.durable = durable;
        this.maxYielders = maxYielders;
        this.othersWaiting = othersWaiting;
        this.maxYieldNanos = maxYieldNanos;
        this.arrivals = new MpscArrayQueue<>(capacity);
        this.cascade = cascade;
        this.wakeRing = new Waiter[Integer.highestOneBit(capacity - 1) << 1];
        this.wakeMask = wakeRing.length - 1;
    }

    /**
     * Returns when the durable position reaches {@code target}, or when {@link #wakeAll} released
     * everyone (the caller then checks why).
     */
    void await(long target, Waiter self) {
        if (durable.get() >= target || released) {
            return;
        }
        awaitCovered(target, self);
        if (cascade) {
            wakeNext();
            wakeNext();
        }
    }

    private void awaitCovered(long target, Waiter self) {
        for (int i = 0; i < spins; i++) {
            if (durable.get() >= target || released) {
                return;
            }
            Thread.onSpinWait();
        }
        if (maxYielders == 0) {
            parkUntilCovered(target, self); // yielding is off: nothing reads the count of waiters
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
        // the sync thread publishes the position with a volatile store before it drains.
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
     * Tells waiters that a flush that took {@code flushNanos} was published at {@code publishedAt}
     * ({@link System#nanoTime}), which sets how long they yield. Role holder only.
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

    /** Waiters past their spin (if any), yielding or parked; for tests. */
    int waiting() {
        return waiting.get();
    }

    /** How long a waiter yields now before parking; for tests. */
    long yieldBudgetNanos() {
        return yieldNanos;
    }

    /** Wakes every registered waiter whose target the durable position now covers. */
    void wakeCovered(long durablePosition) {
        drainArrivals();
        int kept = 0;
        long published = wakePublished;
        for (int i = 0; i < pendingCount; i++) {
            Waiter waiter = pending[i];
            if (waiter.target > durablePosition) {
                pending[kept++] = waiter;
            } else if (cascade && published - wakeClaimed.get() < wakeRing.length) {
                wakeRing[(int) published & wakeMask] = waiter;
                published++;
            } else {
                LockSupport.unpark(waiter.thread);
            }
        }
        Arrays.fill(pending, kept, pendingCount, null);
        pendingCount = kept;
        if (published != wakePublished) {
            wakePublished = published; // volatile: the slot writes before any claim of them
            wakeNext();
            wakeNext();
        }
    }

    /** Unparks the next waiter on the wake ring, if any; any thread. */
    private void wakeNext() {
        for (;;) {
            long claimed = wakeClaimed.get();
            if (claimed >= wakePublished) {
                return;
            }
            Waiter waiter = wakeRing[(int) claimed & wakeMask]; // read before the claim: see the class comment
            if (wakeClaimed.compareAndSet(claimed, claimed + 1)) {
                LockSupport.unpark(waiter.thread);
                return;
            }
        }
    }

    /** Releases every waiter, now and later (the log failed or closed). */
    void wakeAll() {
        released = true;
        while (wakeClaimed.get() < wakePublished) {
            wakeNext();
        }
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
