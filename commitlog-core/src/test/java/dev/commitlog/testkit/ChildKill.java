package dev.commitlog.testkit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The parent's side of a process-kill test ({@link KillableChild} is the child's): one life of a
 * child JVM, ended by SIGKILL. The child's stdout and stderr go to files next to each other
 * ({@code child-N.out}, {@code child-N.err}); the tail of stderr is in every failure.
 *
 * <p>A life: start the child, wait until it prints a {@link KillableChild#READY} line, let it run
 * for the given time, check it is still alive, SIGKILL it, check it ended by the signal (exit
 * status 137). What it returns is every line the child printed whole, in order, {@code READY}
 * included; a line the kill cut (no newline yet) was never printed and is left out.
 *
 * <p>Why a file and not a pipe: the parent holds the child to every line it printed (a discard
 * line allows records to go, an acknowledgement line requires one), so it must read every line
 * that reached the kernel before the kill. A line written to a file is in the page cache once
 * write(2) returns, and the kill does not take it back. A pipe read through
 * {@code Process.getInputStream()} loses lines: when the child dies the JDK's process reaper
 * drains the pipe into a buffer of its own and closes the stream, and a reader that was behind gets
 * "Stream closed" and never sees what the pipe still held ({@code ChildKillTest} shows it).
 */
public final class ChildKill {
    private static final int STDERR_TAIL = 4000;
    private static final long READY_POLL_MILLIS = 5;

    private ChildKill() {
    }

    /**
     * Runs one life of {@code command}.
     *
     * @param stderr      where the child's stderr goes; its stdout goes to the same name with {@code .out} for {@code .err}
     * @param readyWithin how long the child may take to print {@code READY}
     * @param runMillis   how long it runs after {@code READY} before the kill
     * @param life        names this life in failure messages (e.g. "cycle 7")
     */
    public static List<String> runAndKill(List<String> command, Path stderr, Duration readyWithin, long runMillis, String life)
            throws IOException, InterruptedException {
        Path stdout = stdoutNextTo(stderr);
        Process child = new ProcessBuilder(command).redirectError(stderr.toFile()).redirectOutput(stdout.toFile()).start();
        try {
            assertTrue(awaitReady(child, stdout, readyWithin), () -> life + ": the child never became ready; stderr: " + tail(stderr));
            Thread.sleep(runMillis);
            assertTrue(child.isAlive(), () -> life + ": the child died by itself; stderr: " + tail(stderr));
        } finally {
            child.destroyForcibly(); // SIGKILL on Linux
            assertTrue(child.waitFor(30, TimeUnit.SECONDS), () -> life + ": the killed child did not exit");
        }
        assertEquals(137, child.exitValue(), () -> life + ": the child exited otherwise than by SIGKILL; stderr: " + tail(stderr));
        return completeLines(stdout);
    }

    /** {@code child-N.err} -> {@code child-N.out}. */
    private static Path stdoutNextTo(Path stderr) {
        String name = stderr.getFileName().toString();
        String stem = name.endsWith(".err") ? name.substring(0, name.length() - ".err".length()) : name;
        return stderr.resolveSibling(stem + ".out");
    }

    /** Waits until {@code stdout} holds a READY line; false if the child dies or the time runs out first. */
    private static boolean awaitReady(Process child, Path stdout, Duration within) throws IOException, InterruptedException {
        long deadline = System.nanoTime() + within.toNanos();
        while (System.nanoTime() < deadline) {
            boolean alive = child.isAlive(); // read before the file: whatever a dead child printed is there
            if (completeLines(stdout).contains(KillableChild.READY)) {
                return true;
            }
            if (!alive) {
                return false;
            }
            Thread.sleep(READY_POLL_MILLIS);
        }
        return false;
    }

    /** The lines of {@code file} that end with a newline: a last line the kill cut is left out. */
    private static List<String> completeLines(Path file) throws IOException {
        String text = new String(Files.readAllBytes(file), StandardCharsets.US_ASCII);
        return text.substring(0, text.lastIndexOf('\n') + 1).lines().toList();
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
