/**
 * The sync engine ({@link dev.commitlog.sync.SyncEngine}): the flush role, flushing, publication
 * of the durable position and wake-ups, with one {@code FlushSchedule} (when to flush) and one
 * {@code AppendWait} (whether an appender waits) per sync mode; and how waiting appenders yield,
 * park and are woken ({@link dev.commitlog.sync.DurabilityWaiters}). Internal.
 */
package dev.commitlog.sync;
