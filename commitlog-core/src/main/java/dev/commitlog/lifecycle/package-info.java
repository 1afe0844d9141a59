/**
 * The embedding node's hooks into what happens to segment files once written: a
 * {@link dev.commitlog.lifecycle.SpaceListener} asked to persist data when the log reaches
 * {@code commitlog_total_space}, and an {@link dev.commitlog.lifecycle.ArchiveListener} handed each
 * {@link dev.commitlog.lifecycle.CompletedSegment} before it may be deleted.
 */
package dev.commitlog.lifecycle;
