package dev.commitlog.bench.sweep;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The order in which a row's cell rounds run, recorded by fake cells, and what the row returns. */
class InterleavedRoundsTest {

    @Test
    void everyRoundRunsTheWholeRowStartingOneColumnLater() throws Exception {
        List<String> ran = new ArrayList<>();
        List<CellResult> row = InterleavedRounds.run(3, 3, (cell, round) -> {
            ran.add("c" + cell + "r" + round);
            // column c's round r measures 100 * (c + 1) + r ops/s, so its median is round 2's
            return new CellResult("commitlog", "mode" + cell, 4, 100.0 * (cell + 1) + round, round, 2, 3, 4, 5, 6);
        });
        assertEquals(List.of("c0r1", "c1r1", "c2r1", "c1r2", "c2r2", "c0r2", "c2r3", "c0r3", "c1r3"), ran);

        assertEquals(List.of("mode0", "mode1", "mode2"), row.stream().map(CellResult::mode).toList(),
                "results in column order, whatever order the rounds ran in");
        for (int c = 0; c < 3; c++) {
            CellResult cell = row.get(c);
            double base = 100.0 * (c + 1);
            assertEquals(base + 2, cell.opsPerSec());
            assertEquals(2, cell.p50Us(), "the median round's latency");
            assertEquals(List.of(base + 1, base + 2, base + 3), cell.roundOpsPerSec(), "each cell's rounds in round order");
        }
    }

    @Test
    void oneRoundRunsTheColumnsInTheirOwnOrder() throws Exception {
        List<Integer> ran = new ArrayList<>();
        List<CellResult> row = InterleavedRounds.run(4, 1, (cell, round) -> {
            ran.add(cell);
            assertEquals(1, round);
            return new CellResult("commitlog", "mode" + cell, 1, 10, 1, 2, 3, 4, 5, 6);
        });
        assertEquals(List.of(0, 1, 2, 3), ran);
        assertEquals(4, row.size());
        row.forEach(c -> assertEquals(1, c.rounds()));
    }
}
