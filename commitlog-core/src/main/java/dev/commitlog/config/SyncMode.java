package dev.commitlog.config;

/**
 * When an append becomes durable ({@code commitlog_sync}). YAML names: {@code periodic | batch | group}.
 */
public enum SyncMode {
    /**
     * Appends return at once; a background thread syncs every {@code commitlog_sync_period}. A crash
     * can lose up to one period of acknowledged appends. Writers block only when the sync falls more
     * than {@code periodic_commitlog_sync_lag_block} behind.
     */
    PERIODIC,
    /** Every append waits until a sync that covers it has finished; syncs run back to back. */
    BATCH,
    /**
     * Like batch, but the sync thread waits up to {@code commitlog_sync_group_window} to gather more
     * appends into each sync, trading latency for fewer syncs.
     */
    GROUP
}
