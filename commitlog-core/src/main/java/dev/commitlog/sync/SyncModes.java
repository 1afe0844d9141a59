package dev.commitlog.sync;

import dev.commitlog.SyncTuning;
import dev.commitlog.instrument.MetricsRecorder;
import java.util.Objects;
import java.util.function.LongSupplier;

/** Makes the one {@link SyncPolicy} of each sync mode, with the mechanisms {@link SyncTuning} keeps. */
final class SyncModes {
    private SyncModes() {
    }

    /** The policy of {@code settings}' mode; {@code clock} times Periodic's period and lag block ({@link SyncEngine#NANO_TIME} in a log). */
    static SyncPolicy create(SyncSettings settings, SyncTuning tuning, MetricsRecorder metrics, LongSupplier clock) {
        return switch (settings.mode()) {
            case PERIODIC -> new PeriodicPolicy(Objects.requireNonNull(settings.period(), "period"),
                    Objects.requireNonNull(settings.lagBlock(), "lagBlock"), metrics, clock);
            case BATCH -> new BatchPolicy(leaderFollower(tuning), null);
            case GROUP -> new GroupPolicy(Objects.requireNonNull(settings.groupWindow(), "groupWindow"));
            case ADAPTIVE -> new BatchPolicy(leaderFollower(tuning), tuning.gather() ? new Gather() : null);
        };
    }

    private static LeaderFollower leaderFollower(SyncTuning tuning) {
        return tuning.leaderFollower() ? new LeaderFollower(tuning.inlineFlushRecords()) : null;
    }
}
