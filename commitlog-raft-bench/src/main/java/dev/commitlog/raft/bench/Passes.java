package dev.commitlog.raft.bench;

import dev.commitlog.bench.stats.PairedRatio;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/**
 * Every pass's measurement of one contender at one cell, in pass order. Pass {@code i} of two
 * contenders at a cell ran seconds apart (one after the other in the same sweep of the grid), which
 * is what makes their ratio a pair.
 */
record Passes(Cell cell, Contender contender, List<Measurement> runs) {
    Passes {
        runs = List.copyOf(runs);
    }

    /** The median of the passes, figure by figure ({@link Measurement#median}). */
    Measurement median() {
        return Measurement.median(runs);
    }

    /**
     * This contender's committed ops/s over {@code other}'s, pass by pass, as a median with its 95%
     * interval; passes where either failed are left out. Empty when no pass has both.
     */
    Optional<PairedRatio> over(Passes other) {
        int n = Math.min(runs.size(), other.runs.size());
        double[] a = new double[n];
        double[] b = new double[n];
        int pairs = 0;
        for (int i = 0; i < n; i++) {
            Measurement x = runs.get(i);
            Measurement y = other.runs.get(i);
            if (x.ok() && y.ok()) {
                a[pairs] = x.opsPerSec();
                b[pairs] = y.opsPerSec();
                pairs++;
            }
        }
        if (pairs == 0) {
            return Optional.empty();
        }
        return Optional.of(PairedRatio.of(Arrays.copyOf(a, pairs), Arrays.copyOf(b, pairs)));
    }
}
