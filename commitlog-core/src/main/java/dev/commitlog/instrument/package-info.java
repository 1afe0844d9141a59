/**
 * How the log records its metrics: per-appender counters and HdrHistogram latency recorders written
 * without locks or allocation ({@link dev.commitlog.instrument.AppenderMetrics},
 * {@link dev.commitlog.instrument.LatencyHistogram}), gathered into snapshots by
 * {@link dev.commitlog.instrument.MetricsRecorder}, shown over JMX
 * ({@link dev.commitlog.instrument.CommitLogJmx}) and as a report
 * ({@link dev.commitlog.instrument.StatsReport}). Internal.
 */
package dev.commitlog.instrument;
