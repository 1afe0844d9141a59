/**
 * The file layer, for fault injection: every file operation of the log goes through a
 * {@link dev.commitlog.io.StorageLayer} and its {@link dev.commitlog.io.SegmentFile}s, so a test can
 * give {@code CommitLogOptions.storage} a layer that loses unsynced data, tears writes or fails on
 * command. {@link dev.commitlog.io.ForwardingStorageLayer} wraps the default layer
 * ({@code CommitLogOptions.defaults().storage()}) and changes only what a test needs.
 */
package dev.commitlog.io;
