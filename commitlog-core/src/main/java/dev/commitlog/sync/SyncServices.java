package dev.commitlog.sync;

import dev.commitlog.config.CommitLogConfig;
import dev.commitlog.metrics.MetricsRecorder;
import dev.commitlog.segment.SegmentSyncer;

/** Builds the sync service that {@code commitlog_sync} names. */
public final class SyncServices {
    private SyncServices() {
    }

    public static SyncService create(CommitLogConfig config, SegmentSyncer syncer, MetricsRecorder metrics) {
        return switch (config.syncMode()) {
            case PERIODIC -> new PeriodicSyncService(syncer, config.commitFailurePolicy(), config.syncPeriod(),
                    config.periodicLagBlock(), metrics);
            case BATCH -> new BatchSyncService(syncer, config.commitFailurePolicy());
            case GROUP -> new GroupSyncService(syncer, config.commitFailurePolicy(), config.groupWindow());
            case ADAPTIVE -> new AdaptiveSyncService(syncer, config.commitFailurePolicy());
        };
    }
}
