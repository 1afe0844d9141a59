package dev.commitlog.bench.sweep;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * Runs one row's cells (one thread count, every column) for several rounds, interleaved: round 1
 * runs every cell of the row once, then round 2 runs every cell again, and so on. On a shared,
 * noisy machine a slow minute then lands on one round of every column rather than on every round
 * of one column, and round i of two columns ran seconds apart, so their ratio is a fair pair.
 * Each round starts one column later than the previous one, so no column always runs first (right
 * after the previous row, or after the collector has run the longest).
 */
final class InterleavedRounds {

    /** Measures one round of one cell of the row; {@code cell} indexes the row's columns. */
    interface CellRound {
        CellResult run(int cell, int round) throws IOException, InterruptedException;
    }

    private InterleavedRounds() {
    }

    /** A row's cells, each the median of its kept rounds, in column order, and the gate's note on the row. */
    record Row(List<CellResult> cells, String gateNote) {
    }

    /**
     * Runs {@code cells x rounds} cell rounds (rounds numbered from 1) and returns one result per
     * cell, in column order, each the {@link RoundMedian} of the rounds the {@code gate} keeps (all
     * of them when it is off). With one round the order is the columns' own.
     */
    static Row run(int cells, int rounds, CellRound cellRound, DeviceGate gate, String rowName)
            throws IOException, InterruptedException {
        List<List<CellResult>> byCell = new ArrayList<>();
        for (int c = 0; c < cells; c++) {
            byCell.add(new ArrayList<>(rounds));
        }
        double[] probesUs = new double[rounds + 1];
        probesUs[0] = gate.probe();
        for (int round = 1; round <= rounds; round++) {
            for (int k = 0; k < cells; k++) {
                int cell = (k + round - 1) % cells;   // rotated: round r starts at column r - 1
                byCell.get(cell).add(cellRound.run(cell, round));
            }
            probesUs[round] = gate.probe();
        }
        DeviceGate.Decision decision = gate.decide(rowName, probesUs);
        List<CellResult> results = new ArrayList<>(cells);
        for (List<CellResult> cell : byCell) {
            List<CellResult> kept = new ArrayList<>(decision.kept().size());
            for (int round : decision.kept()) {
                kept.add(cell.get(round - 1));
            }
            results.add(RoundMedian.of(kept));
        }
        return new Row(results, decision.note());
    }
}
