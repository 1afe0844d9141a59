package dev.commitlog.replay;

import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Bounds each fuzz input in time while Jazzer fuzzes: JUnit's {@code @Timeout} would also bound the
 * whole run (Jazzer issue 930), and libFuzzer's default per-input timeout is 20 minutes. If one
 * input runs past the limit, the watchdog prints its mutations and the fuzzing thread's stack, then
 * halts the JVM, failing the build, as libFuzzer does on a timeout.
 */
final class HangWatchdog {
    static final long LIMIT_NANOS = TimeUnit.SECONDS.toNanos(30);
    private static final long IDLE = Long.MIN_VALUE;

    private volatile long startedNanos = IDLE;
    private volatile List<String> mutations = List.of();
    private volatile Thread worker;

    /** The JVM's watchdog: its thread starts with the first fuzzed input, never in seeded or regression runs. */
    static HangWatchdog shared() {
        return Holder.INSTANCE;
    }

    private static final class Holder {
        static final HangWatchdog INSTANCE = new HangWatchdog();
    }

    private HangWatchdog() {
        Thread thread = new Thread(this::watch, "fuzz-hang-watchdog");
        thread.setDaemon(true);
        thread.start();
    }

    void begin(List<String> inputMutations) {
        mutations = inputMutations;
        worker = Thread.currentThread();
        startedNanos = System.nanoTime();
    }

    void end() {
        startedNanos = IDLE;
    }

    private void watch() {
        for (;;) {
            try {
                Thread.sleep(1_000);
            } catch (InterruptedException e) {
                return;
            }
            long started = startedNanos;
            if (started != IDLE && System.nanoTime() - started > LIMIT_NANOS) {
                StringBuilder report = new StringBuilder("fuzz test: one input has run for more than "
                        + TimeUnit.NANOSECONDS.toSeconds(LIMIT_NANOS) + " s (a hang); mutations: " + mutations + "\n");
                for (StackTraceElement frame : worker.getStackTrace()) {
                    report.append("\tat ").append(frame).append('\n');
                }
                System.err.print(report);
                System.err.flush();
                Runtime.getRuntime().halt(70);
            }
        }
    }
}
