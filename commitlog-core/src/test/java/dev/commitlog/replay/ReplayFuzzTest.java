package dev.commitlog.replay;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.commitlog.config.ReplayPolicy;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Fuzzed replay: damaged copies of a real log ({@link PristineLog}, damaged by
 * {@link SegmentMutator}) go through live replay, recovery and replay, and
 * {@link ReplayProperties} must hold for each.
 *
 * <ul>
 *   <li>Fast tier: {@link #seededInputs()}, a fixed sequence of seeded inputs (same mutator, choices
 *       from {@link Random}), bounded in count and time.</li>
 *   <li>Slow tier: {@link #coverageGuided}, Jazzer's coverage-guided fuzzer driving the same mutator,
 *       1,000,000 executions: {@code mvn -B verify -Pslow -pl commitlog-core} (the slow profile sets
 *       {@code JAZZER_FUZZ=1}). Without {@code JAZZER_FUZZ}, Jazzer runs it in regression mode over the
 *       inputs in {@code src/test/resources/dev/commitlog/replay/ReplayFuzzTestInputs/coverageGuided}.</li>
 * </ul>
 *
 * Hangs: every input must finish within {@link #INPUT_LIMIT_NANOS}; a loop that never returns is
 * caught by the timeouts ({@code @Timeout} here, libFuzzer's {@code -timeout} under Jazzer).
 */
class ReplayFuzzTest {
    /** Seeded inputs in the fast tier; {@code -Dcommitlog.test.fuzzInputs=N} runs more (they take about 1 ms each). */
    static final int SEEDED_INPUTS = Integer.getInteger("commitlog.test.fuzzInputs", 4_000);
    static final long INPUT_LIMIT_NANOS = TimeUnit.SECONDS.toNanos(5);
    private static final ReplayPolicy[] POLICIES = ReplayPolicy.values();
    private static final AtomicLong EXECUTIONS = new AtomicLong();
    private static final AtomicLong VERIFIED = new AtomicLong();

    static {
        // Recovery logs a line per open at INFO; a million of them would only slow the fuzzer down.
        // Must be set before LogRecovery's logger is created (slf4j-simple reads it then).
        System.setProperty("org.slf4j.simpleLogger.log.dev.commitlog.replay.LogRecovery", "warn");
    }

    /**
     * The pristine log is written by the engine before Jazzer's agent is installed (it installs
     * when the fuzz test's inputs are listed): under the agent's hooks, the engine's JCTools queue
     * fails in Jazzer's Unsafe sanitizer, and the fuzz test failed when run on its own.
     */
    @BeforeAll
    static void writePristineLog() {
        PristineLog.get();
        PristineLog.recycled();
    }

    @Test
    @Timeout(value = 120, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
    void seededInputs() {
        for (int input = 0; input < SEEDED_INPUTS; input++) {
            run(input % 2 == 0 ? PristineLog.get() : PristineLog.recycled(), FuzzChoices.of(new Random(input)));
        }
    }

    @Tag("slow")
    @FuzzTest(maxExecutions = 1_000_000, maxDuration = "4h")
    void coverageGuided(FuzzedDataProvider data) {
        HangWatchdog watchdog = Watchdog.INSTANCE;
        try {
            FuzzChoices choices = FuzzChoices.of(data);
            run(choices.intInRange(0, 1) == 0 ? PristineLog.get() : PristineLog.recycled(), choices, watchdog);
        } finally {
            watchdog.end();
        }
    }

    private static void run(PristineLog pristine, FuzzChoices choices) {
        run(pristine, choices, null);
    }

    private static void run(PristineLog pristine, FuzzChoices choices, HangWatchdog watchdog) {
        long started = System.nanoTime();
        ReplayPolicy policy = POLICIES[choices.intInRange(0, POLICIES.length - 1)];
        SegmentMutator.Mutated mutated = SegmentMutator.mutate(pristine, choices);
        if (watchdog != null) {
            watchdog.begin(mutated.applied());
        }
        VERIFIED.addAndGet(ReplayProperties.check(pristine, mutated, policy));
        EXECUTIONS.incrementAndGet();
        long elapsed = System.nanoTime() - started;
        if (elapsed > INPUT_LIMIT_NANOS) {
            throw new AssertionError("one input took " + TimeUnit.NANOSECONDS.toMillis(elapsed) + " ms (limit "
                    + TimeUnit.NANOSECONDS.toMillis(INPUT_LIMIT_NANOS) + " ms); mutations: " + mutated.applied());
        }
    }

    /** Holder: the watchdog thread starts with the first fuzzed input, never in seeded or regression runs. */
    private static final class Watchdog {
        static final HangWatchdog INSTANCE = new HangWatchdog();
    }

    @AfterAll
    static void figures() {
        System.out.printf("ReplayFuzzTest: %,d inputs executed, %,d replayed records verified%n", EXECUTIONS.get(), VERIFIED.get());
    }
}
