package dev.commitlog.testkit;

import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;

/**
 * The child's side of a process-kill test ({@link ChildKill} is the parent's): what it prints on
 * stdout, and how long it lives if nobody kills it.
 *
 * <p>Each line goes out with one write(2) on stdout (a file, see {@link ChildKill}), so a line the
 * parent reads was printed whole before the kill, and a line the kill cuts was never printed. A child prints what it
 * acknowledged only after the acknowledgement, so the parent may hold it to every line it read.
 * Safe to call from any thread: lines come out whole, in the order the calls took the lock.
 */
public final class KillableChild {
    /** The line a child prints once it has opened what it writes to and may be killed. */
    public static final String READY = "READY";

    private final FileOutputStream out = new FileOutputStream(FileDescriptor.out);

    /** Prints {@code line} and a newline with one write(2). */
    public void println(String line) throws IOException {
        byte[] bytes = (line + "\n").getBytes(StandardCharsets.US_ASCII);
        synchronized (out) {
            out.write(bytes); // one write(2): whole lines, in acknowledgement order
        }
    }

    /** Prints {@link #READY}. */
    public void ready() throws IOException {
        println(READY);
    }

    /**
     * Waits to be killed; a safety net ends the child (exit status 2, which the parent reports as
     * not killed) after {@code maxLifetimeMillis} if nobody does. Never returns.
     */
    public static void awaitKill(long maxLifetimeMillis) throws InterruptedException {
        Thread.sleep(maxLifetimeMillis);
        Runtime.getRuntime().halt(2);
    }
}
