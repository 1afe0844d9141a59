/**
 * The commit log: open one with {@link dev.commitlog.CommitLog#open}, append records from any
 * number of threads (each append returns once the record is as durable as the sync mode promises,
 * or asynchronously with an {@link dev.commitlog.AppendCallback}), replay on start, follow the log
 * with a {@link dev.commitlog.LogTailer}, and discard what the node has persisted elsewhere.
 *
 * <p>The API is this package and {@code dev.commitlog.codec}, {@code dev.commitlog.config},
 * {@code dev.commitlog.io}, {@code dev.commitlog.lifecycle} and {@code dev.commitlog.metrics}
 * (see docs/compatibility.md). Every other package of the jar is internal.
 */
package dev.commitlog;
