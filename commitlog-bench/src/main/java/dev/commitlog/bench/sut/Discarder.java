package dev.commitlog.bench.sut;

import dev.commitlog.CommitLog;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;

/**
 * The steady state of a log whose records are consumed as fast as they are appended: a background
 * thread calls {@code discardUpTo(durablePosition())} every {@link #INTERVAL_MILLIS} ms, so a
 * segment goes as soon as the sync thread has left it and the directory holds a bounded number of
 * segments however long the cell runs. A Periodic log discards only what its periodic syncs made
 * durable; nothing here syncs.
 *
 * <p>Assumptions and guarantees: {@link #close()} is called once, before the log is closed, and
 * returns after the thread has stopped; a discard that failed is rethrown there.
 */
public final class Discarder implements AutoCloseable {
    /** Far shorter than the time to fill a 32 MiB segment at any rate this machine appends. */
    public static final long INTERVAL_MILLIS = 1;
    /** For a log that keeps its records: closing it does nothing. */
    public static final Discarder NONE = new Discarder(null);

    private final CommitLog log;
    private final Thread thread;   // null for NONE
    private final AtomicReference<Throwable> failure = new AtomicReference<>();
    private volatile boolean stopped;

    private Discarder(CommitLog log) {
        this.log = log;
        this.thread = log == null ? null : new Thread(this::discardUntilStopped, "bench-discarder");
        if (thread != null) {
            thread.setDaemon(true);
        }
    }

    /** Starts discarding {@code log} in the background. */
    public static Discarder start(CommitLog log) {
        Discarder discarder = new Discarder(log);
        discarder.thread.start();
        return discarder;
    }

    private void discardUntilStopped() {
        try {
            while (!stopped) {
                log.discardUpTo(log.durablePosition());
                LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(INTERVAL_MILLIS));
            }
        } catch (Throwable t) {
            failure.set(t);
        }
    }

    @Override
    public void close() {
        if (thread == null) {
            return;
        }
        stopped = true;
        boolean interrupted = false;
        while (thread.isAlive()) {
            try {
                thread.join();
            } catch (InterruptedException e) {
                interrupted = true;   // the log must not close under a discard; the interrupt is kept
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
        Throwable t = failure.get();
        if (t != null) {
            throw new IllegalStateException("discarding failed: " + t, t);
        }
    }
}
