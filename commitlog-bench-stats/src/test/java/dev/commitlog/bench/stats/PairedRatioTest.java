package dev.commitlog.bench.stats;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class PairedRatioTest {

    @Test
    void lowerRankIsTheSignTestsFromTheBinomialTable() {
        // Published sign-test ranks for a 95% interval of the median: n=6: 1, n=10: 2, n=20: 6, n=30: 10, n=60: 22.
        assertEquals(0, PairedRatio.lowerRank(5), "5 pairs: even the extremes leave 1/32 > 2.5% in a tail");
        assertEquals(1, PairedRatio.lowerRank(6));
        assertEquals(2, PairedRatio.lowerRank(10));
        assertEquals(6, PairedRatio.lowerRank(20));
        assertEquals(10, PairedRatio.lowerRank(30));
        assertEquals(22, PairedRatio.lowerRank(60));
    }

    @Test
    void eachTailOfTheIntervalHoldsAtMostTwoAndAHalfPercent() {
        for (int n = 6; n <= 200; n++) {
            int k = PairedRatio.lowerRank(n);
            double below = 0;
            double next = 0;
            for (int i = 0; i <= k; i++) {
                double p = binomial(n, i) / Math.pow(2, n);
                if (i < k) {
                    below += p;
                } else {
                    next = below + p;
                }
            }
            assertTrue(below <= PairedRatio.TAIL, "n=" + n + ": tail " + below);
            assertTrue(next > PairedRatio.TAIL, "n=" + n + ": rank " + k + " is not the largest");
        }
    }

    private static double binomial(int n, int k) {
        double c = 1;
        for (int i = 1; i <= k; i++) {
            c = c * (n - k + i) / i;
        }
        return c;
    }

    @Test
    void medianIntervalAndCountsComeFromThePairedRatios() {
        double[] a = new double[10];
        double[] b = new double[10];
        for (int i = 0; i < 10; i++) {
            a[i] = 100 * (i + 1);   // ratios 0.1 .. 1.0, shuffled by b
            b[i] = 1000;
        }
        PairedRatio r = PairedRatio.of(a, b);
        assertEquals(0.55, r.median(), 1e-12);
        assertEquals(0.2, r.low(), 1e-12, "rank 2 of 10");
        assertEquals(0.9, r.high(), 1e-12, "rank 9 of 10");
        assertEquals(3, r.reaching(0.8));
    }

    @Test
    void readingSaysWhichSideOfTheFloorTheWholeIntervalIs() {
        PairedRatio r = new PairedRatio(new double[] {0.97, 0.98, 0.99, 1.00, 1.01, 1.02, 1.03, 1.04, 1.05, 1.06});
        assertEquals(PairedRatio.Reading.ABOVE, r.against(0.95));
        assertEquals(PairedRatio.Reading.UNRESOLVED, r.against(1.00));
        assertEquals(PairedRatio.Reading.BELOW, r.against(1.06));
        assertEquals(PairedRatio.Reading.UNRESOLVED, new PairedRatio(new double[] {2, 2, 2}).against(1),
                "three pairs give no 95% interval, however far from the floor");
    }

    @Test
    void aPairWithNoAppendsInEitherSliceIsLeftOutAndCounted() {
        PairedRatio r = PairedRatio.of(new double[] {10, 0, 0, 30}, new double[] {10, 0, 5, 0});
        assertEquals(3, r.pairs());
        assertEquals(1, r.empty());
        assertEquals(1.0, r.median(), 1e-12, "ratios 1, 0 and infinity: a stalled slice still counts on its side");
    }

    @Test
    void unequalSliceCountsAreRefused() {
        assertThrows(IllegalArgumentException.class, () -> PairedRatio.of(new double[3], new double[4]));
        assertThrows(IllegalArgumentException.class, () -> new PairedRatio(new double[0]));
    }
}
