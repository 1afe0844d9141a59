/**
 * What the log measures: per-appender counters and HdrHistogram latency recorders written without
 * locks or allocation ({@link dev.commitlog.metrics.AppenderMetrics},
 * {@link dev.commitlog.metrics.LatencyHistogram}), gathered by
 * {@link dev.commitlog.metrics.MetricsRecorder} into a {@link dev.commitlog.metrics.CommitLogMetrics}
 * snapshot, and exposed over JMX ({@link dev.commitlog.metrics.CommitLogMXBean}).
 */
package dev.commitlog.metrics;
