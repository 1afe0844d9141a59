package dev.commitlog.config;

/**
 * When an append becomes durable ({@code commitlog_sync}). YAML names: {@code periodic | batch | group | adaptive}.
 */
public enum SyncMode {
    /**
     * Appends return at once; a background thread syncs every {@code commitlog_sync_period}. A crash
     * can lose up to one period of acknowledged appends. Writers block only when the sync falls more
     * than {@code periodic_commitlog_sync_lag_block} behind.
     */
    PERIODIC,
    /**
     * Every append waits until a sync that covers it has finished; syncs run back to back. An
     * appender that finds no sync in progress runs the sync itself (no hand-off to another thread).
     */
    BATCH,
    /**
     * Like batch, but the sync thread waits up to {@code commitlog_sync_group_window} to gather more
     * appends into each sync, trading latency for fewer syncs.
     */
    GROUP,
    /**
     * Group commit with no window to tune: an appender that is alone syncs at once, in its own
     * thread; while appenders keep arriving, each sync waits only as long as the appenders it just
     * released take to come back, and never longer than the last sync took.
     */
    ADAPTIVE
}
