package dev.commitlog.bench.codec;

import dev.commitlog.bench.pair.SliceSchedule;

/**
 * Pairs of slices run on one thread, on system A or B in {@link SliceSchedule}'s order (ABBA BAAB),
 * each slice measuring its own rate: for work that a closed loop of writers cannot express, such as
 * submitting asynchronously and waiting for the last completion, or replaying a whole log.
 */
final class AlternatingDuel {
    /** One slice of work on {@code system} ({@link SliceSchedule#A} or {@link SliceSchedule#B}); returns its rate. */
    interface Slice {
        double run(int system) throws Exception;
    }

    /** Each pair's rate of A and of B. */
    record Rates(double[] a, double[] b) {
    }

    private AlternatingDuel() {
    }

    /** Runs {@code warmup} unmeasured slices (alternating, A first), then {@code pairs} measured pairs. */
    static Rates run(int pairs, int warmup, Slice slice) throws Exception {
        for (int w = 0; w < warmup; w++) {
            slice.run(w % 2 == 0 ? SliceSchedule.A : SliceSchedule.B);
        }
        double[] rates = new double[2 * pairs];
        for (int s = 0; s < rates.length; s++) {
            rates[s] = slice.run(SliceSchedule.owner(s));
        }
        double[] a = new double[pairs];
        double[] b = new double[pairs];
        for (int p = 0; p < pairs; p++) {
            a[p] = rates[SliceSchedule.sliceOf(p, SliceSchedule.A)];
            b[p] = rates[SliceSchedule.sliceOf(p, SliceSchedule.B)];
        }
        return new Rates(a, b);
    }
}
