/**
 * Reading the log back: frame verification ({@code FrameScanner}), the walk that tells a torn tail
 * from corruption ({@code LogWalker}), recovery on open ({@link dev.commitlog.replay.LogRecovery}),
 * replay to a handler ({@link dev.commitlog.replay.Replayer}), and the live feed of durable records
 * ({@link dev.commitlog.replay.LogTailer}).
 */
package dev.commitlog.replay;
