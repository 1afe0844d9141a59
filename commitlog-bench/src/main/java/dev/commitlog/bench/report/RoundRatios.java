package dev.commitlog.bench.report;

import dev.commitlog.bench.sweep.CellResult;
import java.util.List;

/**
 * How far a ratio of two cells moves from round to round: round i of one cell over round i of the
 * other, for every i. A row's rounds interleave, so round i of both cells ran seconds apart and
 * shared whatever else the machine was doing then; pairing by round keeps that noise out of each
 * ratio, and the lowest and highest show how much one round could tip a close target.
 *
 * <p>The ratio of the two medians always lies in this range: if every a_i >= r b_i then the
 * order statistics keep it (a_(k) >= r b_(k)), and so do the medians, for odd and even counts.
 */
final class RoundRatios {

    private RoundRatios() {
    }

    /**
     * {@code " [0.91-1.04; 2 of 3 rounds >= 0.95]"}: the lowest and highest paired ratio, and how
     * many rounds' ratios reach {@code floor}; empty when a cell has a single round (nothing to
     * pair) or the two were not measured the same number of times. The verdict stays the medians';
     * the count tells a reader whether a close verdict is a coin toss on this machine.
     */
    static String range(CellResult top, CellResult bottom, double floor) {
        List<Double> a = top.roundOpsPerSec();
        List<Double> b = bottom.roundOpsPerSec();
        if (a.size() < 2 || a.size() != b.size()) {
            return "";
        }
        double min = Double.POSITIVE_INFINITY;
        double max = Double.NEGATIVE_INFINITY;
        int reaching = 0;
        for (int i = 0; i < a.size(); i++) {
            double ratio = a.get(i) / b.get(i);
            min = Math.min(min, ratio);
            max = Math.max(max, ratio);
            if (ratio >= floor) {
                reaching++;
            }
        }
        return " [" + Numbers.ratio(min) + "-" + Numbers.ratio(max) + "; " + reaching + " of " + a.size()
                + " rounds >= " + Numbers.ratio(floor) + "]";
    }
}
