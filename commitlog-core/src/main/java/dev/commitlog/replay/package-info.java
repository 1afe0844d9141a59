/**
 * Reading the log back: frame verification ({@code FrameScanner}), the walk that tells a torn tail
 * from corruption ({@code LogWalker}), recovery on open ({@link dev.commitlog.replay.LogRecovery}),
 * replay to a handler ({@link dev.commitlog.replay.Replayer}), with progress reports for long walks
 * ({@code ReplayProgress}), and the live feed of durable records
 * ({@link dev.commitlog.replay.LogTailer}). For operators' tools: read-only inspection
 * ({@link dev.commitlog.replay.LogInspector}) and the explicit cut after corruption
 * ({@link dev.commitlog.replay.LogTruncator}).
 */
package dev.commitlog.replay;
