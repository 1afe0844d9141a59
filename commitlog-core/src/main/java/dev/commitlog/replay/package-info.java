/**
 * Reading the log back: frame verification ({@code FrameScanner}), the walk that tells a torn tail
 * from corruption ({@code LogWalker}), recovery on open ({@link dev.commitlog.replay.LogRecovery})
 * and replay to a handler ({@link dev.commitlog.replay.Replayer}).
 */
package dev.commitlog.replay;
