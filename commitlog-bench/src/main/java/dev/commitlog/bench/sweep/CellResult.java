package dev.commitlog.bench.sweep;

import java.util.Collections;
import java.util.List;

/**
 * What one cell (one system, one mode, one thread count) measured. A value that was not measured
 * (flushes of a system that does not count them, records per flush when no flush happened) is
 * {@link Double#NaN} and is written as an empty CSV field.
 *
 * <p>With {@code --rounds N} a cell is measured N times; {@link RoundMedian} folds the rounds into
 * one result whose {@code opsPerSec} is their median and whose {@code roundOpsPerSec} keeps every
 * round's figure, in the order the rounds ran (round i of two cells in one row ran seconds apart,
 * so the reports pair them by index).
 *
 * @param system          {@code commitlog} or the peer's name
 * @param mode            the commit log's mode label; empty for peers
 * @param threads         closed-loop writer threads
 * @param opsPerSec       appends completed per second of the measured window, all threads
 *                        (with several rounds: the median of the rounds)
 * @param p50Us           median append latency, microseconds
 * @param p99Us           99th percentile append latency, microseconds
 * @param p999Us          99.9th percentile append latency, microseconds
 * @param flushesPerSec   the system's own flush count over the window, per second
 * @param recordsPerFlush records the system made durable per flush over the window
 * @param bytesPerSec     payload bytes appended per second (ops/s x record size)
 * @param roundOpsPerSec  every round's ops/s, round 1 first; one element for a single run
 */
public record CellResult(String system, String mode, int threads, double opsPerSec,
                         double p50Us, double p99Us, double p999Us,
                         double flushesPerSec, double recordsPerFlush, double bytesPerSec,
                         List<Double> roundOpsPerSec) {

    public CellResult {
        roundOpsPerSec = List.copyOf(roundOpsPerSec);
        if (roundOpsPerSec.isEmpty()) {
            throw new IllegalArgumentException("a cell has at least one round");
        }
    }

    /** One measurement: a cell of one round, whose only round is itself. */
    public CellResult(String system, String mode, int threads, double opsPerSec,
                      double p50Us, double p99Us, double p999Us,
                      double flushesPerSec, double recordsPerFlush, double bytesPerSec) {
        this(system, mode, threads, opsPerSec, p50Us, p99Us, p999Us, flushesPerSec, recordsPerFlush, bytesPerSec,
                List.of(opsPerSec));
    }

    /** The column this cell belongs to in the tables: the mode for the commit log, else the system. */
    public String label() {
        return mode.isEmpty() ? system : mode;
    }

    /** How many times the cell was measured. */
    public int rounds() {
        return roundOpsPerSec.size();
    }

    /** The lowest round's ops/s ({@code opsPerSec} itself for a single round). */
    public double opsMin() {
        return Collections.min(roundOpsPerSec);
    }

    /** The highest round's ops/s. */
    public double opsMax() {
        return Collections.max(roundOpsPerSec);
    }
}
