package dev.commitlog.bench.pair;

import dev.commitlog.bench.sweep.CellResults;
import dev.commitlog.bench.sweep.ProcessCpu;
import org.HdrHistogram.Histogram;

/**
 * One column's latency and grouping over all its measured slices of a row. The slices of the two
 * columns interleave, so both figures face the same disk and the same neighbours; unlike the
 * ratio, they are totals over the row and carry no interval.
 *
 * @param latency every append that started in one of the column's measured slices, merged from
 *                the writers' own histograms
 * @param flushes the flushes the column's system counted during its measured slices, or -1 if it
 *                does not count them
 * @param records the records those flushes made durable, or -1
 * @param cpuNanos the process's CPU time over the column's measured slices, or {@link ProcessCpu#UNKNOWN}
 */
record ColumnFigures(Histogram latency, long flushes, long records, long cpuNanos) {

    double p50Us() {
        return CellResults.micros(latency, 50);
    }

    double p99Us() {
        return CellResults.micros(latency, 99);
    }

    /** CPU per append over all the column's measured slices, microseconds; NaN when not measured or no append. */
    double cpuUsPerRecord() {
        return ProcessCpu.microsPerRecord(cpuNanos, latency.getTotalCount());
    }

    /** NaN when the system does not count its flushes, or made none. */
    double recordsPerFlush() {
        return flushes > 0 && records >= 0 ? records / (double) flushes : Double.NaN;
    }
}
