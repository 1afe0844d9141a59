package dev.commitlog.raft;

import java.util.Random;

/**
 * The seed of the randomized multi-process tests: {@code -Dcommitlog.test.seed=N} repeats a run's
 * random choices (victims, moments, sync modes). A run says its seed before it starts, so that a
 * run that hangs or dies can be repeated too, and again beside its outcome.
 */
final class SeededRun {
    static final long SEED = Long.getLong("commitlog.test.seed", System.nanoTime());

    private SeededRun() {
    }

    /** The random choices of one run of {@code test}, after saying how to repeat them. */
    static Random random(Class<?> test) {
        System.out.printf("%s: seed %d (-Dcommitlog.test.seed=%d repeats the random choices)%n", test.getSimpleName(), SEED, SEED);
        return new Random(SEED);
    }

    /** Prints what a run did ({@code outcome}: its counts), named by {@code what}, with its seed. */
    static void report(String what, Object outcome) {
        System.out.printf("%s: %s (seed %d)%n", what, outcome, SEED);
    }
}
