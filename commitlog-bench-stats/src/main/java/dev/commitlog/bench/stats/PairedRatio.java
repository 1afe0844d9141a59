package dev.commitlog.bench.stats;

import java.util.Arrays;
import java.util.Locale;

/**
 * The ratio of two systems measured in adjacent slices, as a median of paired ratios with a
 * distribution-free 95% confidence interval.
 *
 * <p>Why this statistic: on a shared VM the rate of either system moves by tens of percent from one
 * quarter-second to the next, with the disk and the neighbours, and the two move together. A ratio
 * of two medians taken seconds apart carries all of that; the ratio of two slices a few hundred
 * milliseconds apart carries much less, and the median of many such ratios assumes nothing about
 * their distribution. The interval is the sign test's: the median lies below the k-th smallest
 * ratio, or above the k-th largest, each with probability P(Binomial(n, 1/2) &lt;= k - 1), and
 * k is the largest rank that keeps each tail at most 2.5% (n = 20: ranks 6 and 15).
 *
 * @param ratios the paired ratios (a over b), in the order the pairs ran; one whose b slice made no
 *               appends is infinite
 * @param empty  pairs left out because neither slice made an append (a stall longer than both):
 *               they say nothing about the ratio
 */
public record PairedRatio(double[] ratios, int empty) {
    /** Each tail of the interval: at most this probability that the true median lies beyond it. */
    static final double TAIL = 0.025;

    /** What the interval says about a floor. */
    public enum Reading {
        /** The whole interval is at or above the floor. */
        ABOVE("above"),
        /** The whole interval is below the floor. */
        BELOW("below"),
        /** The interval straddles the floor, or there are too few pairs for one. */
        UNRESOLVED("not resolved");

        private final String words;

        Reading(String words) {
            this.words = words;
        }

        public String words() {
            return words;
        }
    }

    public PairedRatio {
        if (ratios.length == 0) {
            throw new IllegalArgumentException("no pairs with an append");
        }
        ratios = ratios.clone();
    }

    PairedRatio(double[] ratios) {
        this(ratios, 0);
    }

    /** The ratio of each pair, {@code a[i] / b[i]}, leaving out the pairs where both are 0. */
    public static PairedRatio of(double[] a, double[] b) {
        if (a.length != b.length) {
            throw new IllegalArgumentException(a.length + " slices of one system against " + b.length + " of the other");
        }
        double[] r = new double[a.length];
        int n = 0;
        for (int i = 0; i < a.length; i++) {
            if (a[i] > 0 || b[i] > 0) {
                r[n++] = a[i] / b[i];
            }
        }
        return new PairedRatio(Arrays.copyOf(r, n), a.length - n);
    }

    public int pairs() {
        return ratios.length;
    }

    public double median() {
        return median(ratios);
    }

    /** The median of {@code values}; for an even count, the mean of the two middle ones. */
    public static double median(double[] values) {
        double[] s = values.clone();
        Arrays.sort(s);
        int n = s.length;
        return n % 2 == 1 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
    }

    /**
     * The rank k (1-based) of the interval's lower end; the upper end is rank n - k + 1. 0 when
     * even the extremes leave more than {@link #TAIL} in a tail (fewer than 6 pairs): no interval.
     */
    static int lowerRank(int n) {
        double p = Math.pow(0.5, n);   // P(X = 0)
        double below = 0;              // P(X <= k - 1)
        int k = 0;
        while (k <= n && below + p <= TAIL) {
            below += p;
            k++;
            p = p * (n - k + 1) / k;   // P(X = k) from P(X = k - 1)
        }
        return k;
    }

    /** The interval's lower end, or NaN with too few pairs. */
    public double low() {
        int k = lowerRank(ratios.length);
        return k == 0 ? Double.NaN : sorted()[k - 1];
    }

    /** The interval's upper end, or NaN with too few pairs. */
    public double high() {
        int k = lowerRank(ratios.length);
        return k == 0 ? Double.NaN : sorted()[ratios.length - k];
    }

    /** How many pairs' ratios reach {@code floor}. */
    public int reaching(double floor) {
        return (int) Arrays.stream(ratios).filter(r -> r >= floor).count();
    }

    public Reading against(double floor) {
        if (Double.isNaN(low())) {
            return Reading.UNRESOLVED;
        }
        if (low() >= floor) {
            return Reading.ABOVE;
        }
        return high() < floor ? Reading.BELOW : Reading.UNRESOLVED;
    }

    /** The interval as {@code low-high}, as the reports print it. */
    public String interval() {
        return Double.isNaN(low()) ? "- (under 6 pairs)" : format(low()) + "-" + format(high());
    }

    /** A ratio as the reports print it: three decimals, {@code inf} when the b slice made no append. */
    public static String format(double ratio) {
        if (Double.isInfinite(ratio)) {
            return "inf";
        }
        return Double.isNaN(ratio) ? "-" : String.format(Locale.ROOT, "%.3f", ratio);
    }

    private double[] sorted() {
        double[] s = ratios.clone();
        Arrays.sort(s);
        return s;
    }
}
