package dev.commitlog.sync;

import java.time.Duration;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.LockSupport;
import java.util.function.LongSupplier;

/**
 * A nanosecond clock that stands still until the test moves it, for the engine's and the
 * policies' timed decisions (Periodic's period and lag block).
 *
 * <p>Moving it unparks every thread that ever read it. A thread in a timed park waits for a time it
 * computed from this clock, and parks for that long in real time; when a real clock reaches that
 * time the park ends, so when this one does, the park must end too. To the thread it is a spurious
 * wake-up, which every caller of park already allows: it re-reads the clock and parks again if its
 * time has not come. A reader registers before it reads and the test moves the time before it
 * unparks, so a thread either reads the new time or is unparked after its read (Dekker's handshake
 * over the set's CAS and the volatile time).
 */
final class FakeClock implements LongSupplier {
    private final Set<Thread> readers = ConcurrentHashMap.newKeySet();
    /** Any start will do; not 0, so that no code can mistake it for "unset". */
    private volatile long now = 1L << 40;

    @Override
    public long getAsLong() {
        readers.add(Thread.currentThread());
        return now;
    }

    /** Moves the time forward by {@code by} and wakes every reader. Test thread only. */
    void advance(Duration by) {
        if (by.isNegative()) {
            throw new IllegalArgumentException("a clock moves forward, not by " + by);
        }
        now += by.toNanos(); // one writer: the test thread
        for (Thread reader : readers) {
            LockSupport.unpark(reader);
        }
    }
}
