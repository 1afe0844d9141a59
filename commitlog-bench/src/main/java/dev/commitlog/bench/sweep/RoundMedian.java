package dev.commitlog.bench.sweep;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * Folds a cell's rounds into the one result the reports show.
 *
 * <p>Throughput is the median of the rounds' ops/s; for an even count, the mean of the two middle
 * ones. Latency percentiles, flushes/s and records per flush are taken whole from one round, the
 * median-throughput round (for an even count the lower of the two middle ones), never mixed across
 * rounds: in a closed loop a round's latencies and flush counts belong to its own throughput
 * (ops/s = threads / mean latency), so a p99 from one round next to a flush count from another
 * would describe no run that happened.
 */
final class RoundMedian {

    private RoundMedian() {
    }

    /** {@code rounds}: one single-round result per round of one cell, in the order they ran. */
    static CellResult of(List<CellResult> rounds) {
        if (rounds.isEmpty()) {
            throw new IllegalArgumentException("no rounds");
        }
        CellResult first = rounds.get(0);
        for (CellResult r : rounds) {
            if (r.rounds() != 1 || !r.system().equals(first.system()) || !r.mode().equals(first.mode())
                    || r.threads() != first.threads()) {
                throw new IllegalArgumentException("not single rounds of one cell: " + rounds);
            }
        }
        if (rounds.size() == 1) {
            return first;
        }
        List<CellResult> byOps = new ArrayList<>(rounds);
        byOps.sort(Comparator.comparingDouble(CellResult::opsPerSec));   // stable: ties keep round order
        int n = byOps.size();
        CellResult middle = byOps.get((n - 1) / 2);
        double median = n % 2 == 1 ? middle.opsPerSec()
                : (byOps.get(n / 2 - 1).opsPerSec() + byOps.get(n / 2).opsPerSec()) / 2;
        CellResult fastest = byOps.get(n - 1);   // the record size, as bytes per op, from a round that appended
        double bytesPerOp = fastest.opsPerSec() > 0 ? fastest.bytesPerSec() / fastest.opsPerSec() : 0;
        return new CellResult(first.system(), first.mode(), first.threads(), median,
                middle.p50Us(), middle.p99Us(), middle.p999Us(), middle.flushesPerSec(), middle.recordsPerFlush(),
                median * bytesPerOp, rounds.stream().map(CellResult::opsPerSec).toList());
    }
}
