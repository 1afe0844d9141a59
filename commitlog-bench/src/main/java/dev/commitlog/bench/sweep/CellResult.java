package dev.commitlog.bench.sweep;

/**
 * What one cell (one system, one mode, one thread count) measured, once. A value that was not
 * measured (flushes of a system that does not count them, records per flush when no flush
 * happened) is {@link Double#NaN} and is written as an empty CSV field.
 *
 * @param system          {@code commitlog} or the peer's name
 * @param mode            the commit log's mode label; empty for peers
 * @param threads         closed-loop writer threads
 * @param opsPerSec       appends completed per second of the measured window, all threads
 * @param p50Us           median append latency, microseconds
 * @param p99Us           99th percentile append latency, microseconds
 * @param p999Us          99.9th percentile append latency, microseconds
 * @param flushesPerSec   the system's own flush count over the window, per second
 * @param recordsPerFlush records the system made durable per flush over the window
 * @param bytesPerSec     payload bytes appended per second (ops/s x record size)
 * @param devicePerByte   bytes the device holding the cell took in the window per payload byte
 *                        appended in it (see docs/benchmarks.md, "Device bytes")
 * @param devicePerFramedByte the same per byte of the commit log's aligned frames; NaN for peers
 * @param cpuUsPerRecord  the process's CPU time (user + system, all threads) over the window, per
 *                        append counted in it, microseconds ({@link ProcessCpu})
 */
public record CellResult(String system, String mode, int threads, double opsPerSec,
                         double p50Us, double p99Us, double p999Us,
                         double flushesPerSec, double recordsPerFlush, double bytesPerSec,
                         double devicePerByte, double devicePerFramedByte, double cpuUsPerRecord) {

    /** A cell whose CPU time was not measured. */
    public CellResult(String system, String mode, int threads, double opsPerSec,
                      double p50Us, double p99Us, double p999Us,
                      double flushesPerSec, double recordsPerFlush, double bytesPerSec,
                      double devicePerByte, double devicePerFramedByte) {
        this(system, mode, threads, opsPerSec, p50Us, p99Us, p999Us, flushesPerSec, recordsPerFlush, bytesPerSec,
                devicePerByte, devicePerFramedByte, Double.NaN);
    }

    /** The column this cell belongs to in the tables: the mode for the commit log, else the system. */
    public String label() {
        return mode.isEmpty() ? system : mode;
    }
}
