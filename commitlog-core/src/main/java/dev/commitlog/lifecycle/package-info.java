/**
 * What happens to segment files after they are written: the space budget
 * ({@code commitlog_total_space}, {@link dev.commitlog.lifecycle.SpaceLimitedStorage} and the
 * embedding node's {@link dev.commitlog.lifecycle.SpaceListener}), archiving of complete segments
 * ({@link dev.commitlog.lifecycle.ArchiveListener}, run by
 * {@link dev.commitlog.lifecycle.SegmentLifecycle}), and which files {@code discardUpTo} may delete
 * ({@link dev.commitlog.lifecycle.SegmentRetention}).
 */
package dev.commitlog.lifecycle;
