/**
 * What the log measures, as its users read it: a {@link dev.commitlog.metrics.CommitLogMetrics}
 * snapshot of counters and {@link dev.commitlog.metrics.LatencySnapshot}s, and the JMX bean
 * ({@link dev.commitlog.metrics.CommitLogMXBean}) with Cassandra's metric names. The recording side
 * (lock-free, allocation-free per append) is internal.
 */
package dev.commitlog.metrics;
