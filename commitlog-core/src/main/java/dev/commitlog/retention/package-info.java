/**
 * Which segment files stay and for how long: the space budget
 * ({@link dev.commitlog.retention.SpaceLimitedStorage}, {@code commitlog_total_space}), the
 * lifecycle thread that archives complete segments and applies deferred discards
 * ({@link dev.commitlog.retention.SegmentLifecycle}), and the rule for what {@code discardUpTo} may
 * delete ({@link dev.commitlog.retention.SegmentRetention}). Internal.
 */
package dev.commitlog.retention;
