/**
 * What operators' tools do to a log that is not open: read-only inspection
 * ({@link dev.commitlog.repair.LogInspector}) and the explicit cut after corruption
 * ({@link dev.commitlog.repair.LogTruncator}), which keeps a backup of what it cuts. Used by
 * {@code commitlog-tools}. Internal.
 */
package dev.commitlog.repair;
