package dev.commitlog.bench.report;

import dev.commitlog.bench.sweep.CellResult;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.StringJoiner;
import java.util.function.BiFunction;
import java.util.function.IntFunction;

/**
 * A target judged row by row: the ratio of one cell's ops/s over another's at each thread count,
 * the worst row, and every row's ratio with the column it came from, for the report.
 *
 * @param worst        the lowest ratio
 * @param worstThreads the thread count of that row
 * @param rows         {@code threads: ratio label} for every row, in thread order
 */
record RowRatios(double worst, int worstThreads, List<String> rows) {

    /**
     * Ratios of {@code top} over {@code bottom} at each of {@code threads} where both ran; empty
     * when no row had both. {@code label} names the column a row compares (the best mode, say).
     */
    static Optional<RowRatios> of(List<Integer> threads, IntFunction<Optional<CellResult>> top,
                                  IntFunction<Optional<CellResult>> bottom,
                                  BiFunction<CellResult, CellResult, String> label) {
        double worst = Double.POSITIVE_INFINITY;
        int worstThreads = 0;
        List<String> rows = new ArrayList<>();
        for (int t : threads) {
            Optional<CellResult> a = top.apply(t);
            Optional<CellResult> b = bottom.apply(t);
            if (a.isEmpty() || b.isEmpty()) {
                continue;
            }
            double ratio = a.get().opsPerSec() / b.get().opsPerSec();
            if (ratio < worst) {
                worst = ratio;
                worstThreads = t;
            }
            rows.add(t + ": " + Numbers.ratio(ratio) + " " + label.apply(a.get(), b.get()));
        }
        return rows.isEmpty() ? Optional.empty() : Optional.of(new RowRatios(worst, worstThreads, List.copyOf(rows)));
    }

    /** {@code min 0.92 at 8 threads (1: 1.02 batch, 8: 0.92 group-1ms)}. */
    String describe() {
        StringJoiner all = new StringJoiner(", ", " (", ")");
        rows.forEach(all::add);
        return "min " + Numbers.ratio(worst) + " at " + worstThreads + (worstThreads == 1 ? " thread" : " threads") + all;
    }
}
