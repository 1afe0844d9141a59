package dev.commitlog.bench.report;

import dev.commitlog.bench.sweep.CellResult;
import java.util.Arrays;
import java.util.List;

/**
 * A made-up sweep of three rounds per cell: batch, group-1ms and adaptive at 1 and 8 threads, one
 * async cell. Adaptive's rounds are chosen so that pairing by round ([1.00-1.02] at 1 thread) and
 * pairing extremes (4,900 / 5,200 to 5,200 / 4,800: [0.94-1.08]) give different ranges.
 */
final class RoundsFixture {

    private RoundsFixture() {
    }

    static SweepResults results() {
        List<CellResult> cells = List.of(
                cell("batch", 1, 5_000, 5_000, 4_800, 5_200),
                cell("group-1ms", 1, 800, 800, 880, 720),
                cell("adaptive", 1, 5_100, 5_100, 4_900, 5_200),
                cell("batch", 8, 20_000, 20_000, 21_000, 19_000),
                cell("group-1ms", 8, 25_000, 25_000, 24_000, 26_000),
                cell("adaptive", 8, 23_000, 23_000, 22_000, 25_000));
        List<Column> columns = List.of(column("batch"), column("group-1ms"), column("adaptive"));
        return new SweepResults(List.of("3 rounds each"), List.of(1, 8), columns, cells, 4096,
                List.of(cell("adaptive-async", 1, 250_000, 250_000, 240_000, 260_000)));
    }

    /** A commit-log cell whose median is {@code median} and whose rounds ran in the order given. */
    private static CellResult cell(String mode, int threads, double median, double... rounds) {
        return new CellResult(Column.COMMITLOG, mode, threads, median, 1, 2, 3, 1, 1, median * 100,
                Arrays.stream(rounds).boxed().toList());
    }

    private static Column column(String label) {
        return new Column(label, Column.COMMITLOG, true, false);
    }
}
