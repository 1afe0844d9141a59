package dev.commitlog.replay;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.commitlog.config.ReplayPolicy;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
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
    private static final FuzzTally TALLY = new FuzzTally("ReplayFuzzTest");

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
            TALLY.count(run(input % 2 == 0 ? PristineLog.get() : PristineLog.recycled(), FuzzChoices.of(new Random(input)), null));
        }
    }

    @Tag("slow")
    @FuzzTest(maxExecutions = 1_000_000, maxDuration = "4h")
    void coverageGuided(FuzzedDataProvider data) {
        TALLY.count(fuzzed(data, choices -> choices.intInRange(0, 1) == 0 ? PristineLog.get() : PristineLog.recycled()));
    }

    /** One coverage-guided input: {@code pick} chooses the pristine log from the first choices, the rest damage it; under the hang watchdog. */
    static long fuzzed(FuzzedDataProvider data, Function<FuzzChoices, PristineLog> pick) {
        HangWatchdog watchdog = HangWatchdog.shared();
        try {
            FuzzChoices choices = FuzzChoices.of(data);
            return run(pick.apply(choices), choices, watchdog);
        } finally {
            watchdog.end();
        }
    }

    /**
     * One input: damages {@code pristine} as {@code choices} say, opens it under the policy they
     * pick, checks {@link ReplayProperties} and the time limit; returns the replayed records verified.
     *
     * @param watchdog the hang watchdog to arm (coverage-guided runs), or null
     */
    static long run(PristineLog pristine, FuzzChoices choices, HangWatchdog watchdog) {
        long started = System.nanoTime();
        ReplayPolicy policy = POLICIES[choices.intInRange(0, POLICIES.length - 1)];
        SegmentMutator.Mutated mutated = SegmentMutator.mutate(pristine, choices);
        if (watchdog != null) {
            watchdog.begin(mutated.applied());
        }
        long verified = ReplayProperties.check(pristine, mutated, policy);
        long elapsed = System.nanoTime() - started;
        if (elapsed > INPUT_LIMIT_NANOS) {
            throw new AssertionError("one input took " + TimeUnit.NANOSECONDS.toMillis(elapsed) + " ms (limit "
                    + TimeUnit.NANOSECONDS.toMillis(INPUT_LIMIT_NANOS) + " ms); mutations: " + mutated.applied());
        }
        return verified;
    }

    @AfterAll
    static void figures() {
        TALLY.print();
    }
}
