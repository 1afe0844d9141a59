/**
 * The file layer: every file operation of the log goes through
 * {@link dev.commitlog.io.StorageLayer} and {@link dev.commitlog.io.SegmentFile}, so tests can
 * substitute a layer that loses unsynced data or fails on command.
 */
package dev.commitlog.io;
