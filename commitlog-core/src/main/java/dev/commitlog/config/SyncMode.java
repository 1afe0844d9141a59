package dev.commitlog.config;

import java.util.Set;

/**
 * When an append becomes durable ({@code commitlog_sync}). YAML names: {@code periodic | batch | group | adaptive}.
 * Each mode names the settings it reads ({@link #settings()}): one table, which the configuration's
 * rules (a setting of another mode is refused) and the sync engine read alike.
 */
public enum SyncMode {
    /**
     * Appends return at once; a background thread syncs every {@code commitlog_sync_period}. A crash
     * can lose up to one period of acknowledged appends. Writers block only when the sync falls more
     * than {@code periodic_commitlog_sync_lag_block} behind.
     */
    PERIODIC("commitlog_sync_period", "periodic_commitlog_sync_lag_block"),
    /**
     * Every append waits until a sync that covers it has finished; syncs run back to back. An
     * appender that finds no sync in progress runs the sync itself (no hand-off to another thread).
     */
    BATCH(),
    /**
     * Like batch, but the sync thread waits up to {@code commitlog_sync_group_window} to gather more
     * appends into each sync, trading latency for fewer syncs.
     */
    GROUP("commitlog_sync_group_window"),
    /**
     * Group commit with no window to tune: an appender that is alone syncs at once, in its own
     * thread; while appenders keep arriving, each sync waits only as long as the appenders it just
     * released take to come back, and never longer than the last sync took.
     */
    ADAPTIVE();

    private final Set<String> settings;

    SyncMode(String... settings) {
        this.settings = Set.of(settings);
    }

    /** The YAML keys this mode reads besides {@code commitlog_sync}; each of them is refused with another mode. */
    public Set<String> settings() {
        return settings;
    }
}
