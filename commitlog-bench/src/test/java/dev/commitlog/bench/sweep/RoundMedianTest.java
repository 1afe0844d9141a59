package dev.commitlog.bench.sweep;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The median of made-up rounds: which figure each reported value comes from is known in advance. */
class RoundMedianTest {

    @Test
    void oddRoundsReportTheMedianRoundWhole() {
        // the median round (200 ops/s) is the third to run; its latencies and flushes are reported with it
        CellResult median = RoundMedian.of(List.of(round(100, 9), round(300, 1), round(200, 5)));
        assertEquals(200, median.opsPerSec());
        assertEquals(5, median.p50Us());
        assertEquals(50, median.p99Us());
        assertEquals(500, median.p999Us());
        assertEquals(5_000, median.flushesPerSec());
        assertEquals(0.5, median.recordsPerFlush());
        assertEquals(200 * 100, median.bytesPerSec());
        assertEquals(List.of(100.0, 300.0, 200.0), median.roundOpsPerSec(), "every round, in the order it ran");
        assertEquals(3, median.rounds());
        assertEquals(100, median.opsMin());
        assertEquals(300, median.opsMax());
        assertEquals("adaptive", median.label());
        assertEquals(8, median.threads());
    }

    @Test
    void evenRoundsReportTheMeanOfTheTwoMiddleAndTheLowerMiddleRoundsOtherFigures() {
        CellResult median = RoundMedian.of(List.of(round(400, 1), round(100, 9), round(300, 2), round(200, 5)));
        assertEquals(250, median.opsPerSec(), "mean of 200 and 300");
        assertEquals(5, median.p50Us(), "from the 200 round, the lower of the two middle ones");
        assertEquals(5_000, median.flushesPerSec());
        assertEquals(250 * 100, median.bytesPerSec(), "bytes follow the median ops/s");
        assertEquals(List.of(400.0, 100.0, 300.0, 200.0), median.roundOpsPerSec());
        assertEquals(100, median.opsMin());
        assertEquals(400, median.opsMax());

        CellResult two = RoundMedian.of(List.of(round(300, 2), round(100, 9)));
        assertEquals(200, two.opsPerSec());
        assertEquals(9, two.p50Us(), "the lower middle of two rounds is the slower one");
    }

    @Test
    void oneRoundIsItself() {
        CellResult only = round(123, 4);
        assertSame(only, RoundMedian.of(List.of(only)));
        assertEquals(1, only.rounds());
        assertEquals(123, only.opsMin());
        assertEquals(123, only.opsMax());
    }

    @Test
    void roundsOfDifferentCellsAreRefused() {
        CellResult other = new CellResult("commitlog", "batch", 8, 100, 1, 2, 3, 4, 5, 6);
        assertThrows(IllegalArgumentException.class, () -> RoundMedian.of(List.of(round(100, 1), other)));
        assertThrows(IllegalArgumentException.class, () -> RoundMedian.of(List.of()));
    }

    /** One round of adaptive at 8 threads whose every other figure is derived from {@code tag}. */
    private static CellResult round(double ops, double tag) {
        return new CellResult("commitlog", "adaptive", 8, ops, tag, tag * 10, tag * 100, tag * 1000, tag / 10,
                ops * 100);
    }
}
