package dev.commitlog.sync;

import dev.commitlog.config.CommitFailurePolicy;
import dev.commitlog.config.CommitLogConfig;
import dev.commitlog.config.SyncMode;
import java.time.Duration;

/**
 * The settings the sync engine reads, instead of the whole configuration. A setting the mode does
 * not use ({@link SyncMode#settings()}, the one table both the configuration's rules and this
 * record read) is null, so a mode can only read what its configuration was checked for.
 *
 * @param period      {@code commitlog_sync_period} (Periodic)
 * @param lagBlock    {@code periodic_commitlog_sync_lag_block} (Periodic)
 * @param groupWindow {@code commitlog_sync_group_window} (Group)
 */
public record SyncSettings(SyncMode mode, Duration period, Duration lagBlock, Duration groupWindow, CommitFailurePolicy failurePolicy) {

    /** The sync settings of {@code config}, each only if its mode uses it. */
    public static SyncSettings of(CommitLogConfig config) {
        SyncMode mode = config.syncMode();
        return new SyncSettings(mode, used(mode, "commitlog_sync_period", config.syncPeriod()),
                used(mode, "periodic_commitlog_sync_lag_block", config.periodicLagBlock()),
                used(mode, "commitlog_sync_group_window", config.groupWindow()), config.commitFailurePolicy());
    }

    private static Duration used(SyncMode mode, String key, Duration value) {
        return mode.settings().contains(key) ? value : null;
    }
}
