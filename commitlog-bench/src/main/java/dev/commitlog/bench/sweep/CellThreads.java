package dev.commitlog.bench.sweep;

import java.io.IOException;
import java.util.concurrent.TimeUnit;

/** The end of a cell's threads: every one must finish in time, and the first failure is the cell's. */
public final class CellThreads {
    /** How long writers get to return from their last append (or drain) after the window closes. */
    static final long STOP_TIMEOUT_MILLIS = 60_000;

    private CellThreads() {
    }

    /** Joins every thread, failing the cell if one is still busy {@link #STOP_TIMEOUT_MILLIS} after the first join began. */
    public static void joinAll(Thread[] threads, String cell) throws InterruptedException {
        long deadline = System.currentTimeMillis() + STOP_TIMEOUT_MILLIS;
        for (Thread t : threads) {
            t.join(Math.max(1, deadline - System.currentTimeMillis()));
            if (t.isAlive()) {
                throw new IllegalStateException(cell + ": " + t.getName() + " still appending "
                        + STOP_TIMEOUT_MILLIS / 1000 + " s after the cell ended");
            }
        }
    }

    /** Rethrows a writer's failure with the cell named; an I/O failure stays an IOException. */
    public static void rethrow(Throwable t, String cell) throws IOException {
        if (t == null) {
            return;
        }
        if (t instanceof IOException io) {
            throw new IOException(cell + ": " + io.getMessage(), io);
        }
        throw new IllegalStateException(cell + ": " + t, t);
    }

    public static void sleep(java.time.Duration d) throws InterruptedException {
        TimeUnit.NANOSECONDS.sleep(d.toNanos());
    }
}
