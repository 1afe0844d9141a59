/**
 * Sync services: when the sync thread flushes and whether appenders wait
 * ({@link dev.commitlog.sync.SyncService} and its implementations), and how waiting appenders are
 * parked and woken ({@link dev.commitlog.sync.DurabilityWaiters}).
 */
package dev.commitlog.sync;
