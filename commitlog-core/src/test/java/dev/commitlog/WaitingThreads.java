package dev.commitlog;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.concurrent.locks.LockSupport;

/**
 * Tells when a thread has reached a blocking point: parked, in {@code wait}/{@code join}, or
 * sleeping with a timeout. Tests use it to know an appender (or a closer) is really blocked before
 * they release what it waits for, so the interleaving they mean to test is the one that runs.
 * Public because tests outside {@code dev.commitlog} (the async package) need it too.
 */
public final class WaitingThreads {
    private static final Duration TIMEOUT = Duration.ofSeconds(10);

    private WaitingThreads() {
    }

    /** {@code thread} is blocked in a wait, timed or not (a state read, so true only for that instant). */
    public static boolean isWaiting(Thread thread) {
        Thread.State state = thread.getState();
        return state == Thread.State.WAITING || state == Thread.State.TIMED_WAITING;
    }

    /** Polls until {@code thread} waits; fails after 10 s naming {@code what}. */
    public static void awaitWaiting(String what, Thread thread) {
        awaitWaiting(what, List.of(thread));
    }

    /** Polls until every one of {@code threads} waits; fails after 10 s in all, naming {@code what} and the thread. */
    public static void awaitWaiting(String what, Collection<Thread> threads) {
        long deadline = System.nanoTime() + TIMEOUT.toNanos();
        for (Thread thread : threads) {
            while (!isWaiting(thread)) {
                assertTrue(System.nanoTime() < deadline,
                        () -> what + " (" + thread.getName() + ") never waited: " + thread.getState());
                LockSupport.parkNanos(100_000);
            }
        }
    }
}
