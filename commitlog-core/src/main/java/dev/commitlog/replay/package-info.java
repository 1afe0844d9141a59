/**
 * Reading the whole log back, in order: frame verification ({@code FrameScanner}), the walk that
 * tells a torn tail from corruption ({@code LogWalker}), recovery on open
 * ({@link dev.commitlog.replay.LogRecovery}), and replay to a handler
 * ({@link dev.commitlog.replay.Replayer}) with progress reports for long walks. The one rule for
 * positions callers pass in lives here too ({@link dev.commitlog.replay.LogPositions}). Internal.
 */
package dev.commitlog.replay;
