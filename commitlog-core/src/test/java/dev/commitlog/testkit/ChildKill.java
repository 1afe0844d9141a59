package dev.commitlog.testkit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * The parent's side of a process-kill test ({@link KillableChild} is the child's): one life of a
 * child JVM, ended by SIGKILL. The child's stderr goes to a file (its tail is in every failure);
 * its stdout is read while it runs.
 *
 * <p>A life: start the child, wait until it prints a {@link KillableChild#READY} line, let it run
 * for the given time, check it is still alive, SIGKILL it, check it ended by the signal (exit
 * status 137). What it returns is every line the child printed whole, in order, {@code READY}
 * included; a line the kill cut (no newline yet) was never printed and is left out.
 */
public final class ChildKill {
    private static final int STDERR_TAIL = 4000;

    private ChildKill() {
    }

    /**
     * Runs one life of {@code command}.
     *
     * @param stderr      where the child's stderr goes
     * @param readyWithin how long the child may take to print {@code READY}
     * @param runMillis   how long it runs after {@code READY} before the kill
     * @param life        names this life in failure messages (e.g. "cycle 7")
     */
    public static List<String> runAndKill(List<String> command, Path stderr, Duration readyWithin, long runMillis, String life)
            throws IOException, InterruptedException {
        Process child = new ProcessBuilder(command).redirectError(stderr.toFile()).start();
        Stdout stdout = new Stdout();
        Thread reader = new Thread(() -> stdout.readAll(child.getInputStream()), "child-stdout");
        reader.start();
        try {
            assertTrue(stdout.awaitReady(readyWithin), () -> life + ": the child never became ready; stderr: " + tail(stderr));
            Thread.sleep(runMillis);
            assertTrue(child.isAlive(), () -> life + ": the child died by itself; stderr: " + tail(stderr));
        } finally {
            child.destroyForcibly(); // SIGKILL on Linux
            assertTrue(child.waitFor(30, TimeUnit.SECONDS), () -> life + ": the killed child did not exit");
            reader.join(30_000);
        }
        assertEquals(137, child.exitValue(), () -> life + ": the child exited otherwise than by SIGKILL; stderr: " + tail(stderr));
        return stdout.completeLines();
    }

    /** What the child printed, and whether a {@code READY} line was among it. */
    private static final class Stdout {
        private final StringBuilder text = new StringBuilder();
        /** Counted down at the first {@code READY} line, or when the pipe closes without one. */
        private final CountDownLatch readyOrGone = new CountDownLatch(1);
        private int unscanned;
        private boolean ready;

        void readAll(InputStream in) {
            byte[] buffer = new byte[65536];
            try (in) {
                for (int n; (n = in.read(buffer)) > 0; ) {
                    synchronized (text) {
                        text.append(new String(buffer, 0, n, StandardCharsets.US_ASCII));
                        scanForReady();
                    }
                }
            } catch (IOException e) {
                // The pipe closes when the child dies; what was read is what counts.
            } finally {
                readyOrGone.countDown();
            }
        }

        /** Looks at each complete line not looked at yet, until one is READY: each byte is scanned once. */
        private void scanForReady() {
            int newline;
            while (!ready && (newline = text.indexOf("\n", unscanned)) >= 0) {
                ready = newline - unscanned == KillableChild.READY.length()
                        && text.substring(unscanned, newline).equals(KillableChild.READY);
                unscanned = newline + 1;
            }
            if (ready) {
                readyOrGone.countDown();
            }
        }

        boolean awaitReady(Duration within) throws InterruptedException {
            readyOrGone.await(within.toMillis(), TimeUnit.MILLISECONDS);
            synchronized (text) {
                return ready;
            }
        }

        List<String> completeLines() {
            synchronized (text) {
                return text.substring(0, text.lastIndexOf("\n") + 1).lines().toList();
            }
        }
    }

    private static String tail(Path file) {
        try {
            if (!Files.exists(file)) {
                return "(none)";
            }
            String text = Files.readString(file);
            return text.substring(Math.max(0, text.length() - STDERR_TAIL));
        } catch (IOException e) {
            return "(unreadable: " + e + ")";
        }
    }
}
