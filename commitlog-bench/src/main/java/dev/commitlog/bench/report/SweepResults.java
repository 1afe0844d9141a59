package dev.commitlog.bench.report;

import dev.commitlog.bench.sweep.CellResult;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * Everything one sweep measured, in the order the reports show it.
 *
 * @param header        free text describing the run (date, machine, JDK, cell timing, fdatasync probe)
 * @param threads       the thread counts, one table row each
 * @param columns       the contenders, one table column each
 * @param cells         one result per (column, threads) that ran
 * @param asyncInFlight appends each submitting thread of the asynchronous section kept outstanding
 * @param asyncCells    the asynchronous section: one result per (submitting threads, mode), mode
 *                      labels ending in {@code -async}, {@code threads} the submitting threads;
 *                      empty when the section was skipped
 */
public record SweepResults(List<String> header, List<Integer> threads, List<Column> columns,
                           List<CellResult> cells, int asyncInFlight, List<CellResult> asyncCells) {

    public Optional<CellResult> cell(String label, int threadCount) {
        return cells.stream()
                .filter(c -> c.threads() == threadCount && c.label().equals(label))
                .findFirst();
    }

    public Optional<Column> column(String label) {
        return columns.stream().filter(c -> c.label().equals(label)).findFirst();
    }

    /** Every cell, the closed-loop ones first: what the CSV holds. */
    public List<CellResult> allCells() {
        return asyncCells.isEmpty() ? cells : Stream.concat(cells.stream(), asyncCells.stream()).toList();
    }
}
