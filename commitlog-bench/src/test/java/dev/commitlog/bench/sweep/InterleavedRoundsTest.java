package dev.commitlog.bench.sweep;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Iterator;
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
        }, DeviceGate.off(), "4 threads").cells();
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
        }, DeviceGate.off(), "1 threads").cells();
        assertEquals(List.of(0, 1, 2, 3), ran);
        assertEquals(4, row.size());
        row.forEach(c -> assertEquals(1, c.rounds()));
    }

    /** Probes 100 us around the rounds, but 500 us after round 3 of 4: rounds 3 and 4 are dropped from every column. */
    @Test
    void theDeviceGateDropsTheRoundsNextToASlowProbeFromEveryColumn() throws Exception {
        Iterator<Double> probes = List.of(100.0, 100.0, 150.0, 500.0, 100.0).iterator();
        DeviceGate gate = new DeviceGate(2, 100, probes::next);
        InterleavedRounds.Row row = InterleavedRounds.run(2, 4, (cell, round) ->
                new CellResult("commitlog", "mode" + cell, 8, 1000.0 * (cell + 1) + round, round, 2, 3, 4, 5, 6), gate, "8 threads");
        assertFalse(probes.hasNext(), "one probe before the row and one after each round");
        for (int c = 0; c < 2; c++) {
            assertEquals(List.of(1000.0 * (c + 1) + 1, 1000.0 * (c + 1) + 2), row.cells().get(c).roundOpsPerSec(),
                    "rounds 1 and 2 kept in column " + c);
        }
        assertTrue(row.gateNote().contains("8 threads: 2 of 4 rounds kept, dropped [3, 4]"), row.gateNote());
        assertTrue(row.gateNote().contains("limit 200 us"), row.gateNote());
    }

    @Test
    void aRowWithNoRoundOnAFastDeviceKeepsThemAllAndSaysSo() throws Exception {
        DeviceGate gate = new DeviceGate(2, 100, () -> 900.0);
        InterleavedRounds.Row row = InterleavedRounds.run(1, 3, (cell, round) ->
                new CellResult("commitlog", "batch", 1, 10.0 * round, 1, 2, 3, 4, 5, 6), gate, "1 threads");
        assertEquals(3, row.cells().get(0).rounds());
        assertTrue(row.gateNote().contains("no round passed, all 3 kept"), row.gateNote());
    }

    @Test
    void withTheGateOffNothingIsProbedAndEveryRoundCounts() throws Exception {
        InterleavedRounds.Row row = InterleavedRounds.run(2, 3, (cell, round) ->
                new CellResult("commitlog", "mode" + cell, 1, 10.0 * round, 1, 2, 3, 4, 5, 6), DeviceGate.off(), "1 threads");
        row.cells().forEach(c -> assertEquals(3, c.rounds()));
        assertEquals("", row.gateNote());
    }
}
