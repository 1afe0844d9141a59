/** Counters of the log ({@link dev.commitlog.metrics.MetricsRecorder}) and their snapshot. */
package dev.commitlog.metrics;
