package dev.commitlog.bench.sut;

import dev.commitlog.SyncTuning;
import dev.commitlog.config.CommitLogConfig;
import dev.commitlog.config.DiskAccessMode;
import dev.commitlog.config.SyncMode;
import dev.commitlog.disk.SegmentFileSpace;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.function.UnaryOperator;

/**
 * The ablation columns ({@code --ablation}, {@code pair}): the commit log with one sync mechanism
 * switched off, to show what it adds. An engine mechanism is switched through the experimental
 * {@link SyncTuning} the column's log is opened with (per log, so every other log in the JVM keeps
 * the defaults); one that is configuration (the durable mark's interval, segment recycling,
 * direct writes) is changed in the column's config instead; how new segment files get their space is the column's
 * file layer. docs/design.md says what each mechanism is for.
 */
public enum SyncAblation {
    /** No leader/follower: the sync thread runs every flush and unparks every waiter itself. */
    BATCH_CLASSIC("batch-classic", SyncMode.BATCH, "no leader/follower (SyncTuning inlineFlushRecords=0)",
            tuning -> tuning.withInlineFlushRecords(SyncTuning.NEVER_INLINE)),
    /** Batch whose waiters park at once, instead of first yielding (gated) for up to two flushes. */
    BATCH_PARK("batch-park", SyncMode.BATCH, "no yield before park (SyncTuning yieldBeforePark=false)",
            tuning -> tuning.withYieldBeforePark(false)),
    /** Batch whose appenders flush inline whenever nobody is flushing, however many writers there are. */
    BATCH_INLINE("batch-inline", SyncMode.BATCH, "no hand-off (SyncTuning inlineFlushRecords=ALWAYS_INLINE)",
            tuning -> tuning.withInlineFlushRecords(SyncTuning.ALWAYS_INLINE)),
    /** Adaptive whose appenders flush inline whenever nobody is flushing. */
    ADAPTIVE_INLINE("adaptive-inline", SyncMode.ADAPTIVE, "no hand-off (SyncTuning inlineFlushRecords=ALWAYS_INLINE)",
            tuning -> tuning.withInlineFlushRecords(SyncTuning.ALWAYS_INLINE)),
    /** Adaptive claiming each flush at once, without first gathering the writers the previous flush released. */
    ADAPTIVE_NO_GATHER("adaptive-nogather", SyncMode.ADAPTIVE, "no gather (SyncTuning gather=false)",
            tuning -> tuning.withGather(false)),
    /** Batch rewriting the header's durable mark with every flush, not at most once every 10 ms. */
    BATCH_EVERY_MARK("batch-mark-every-flush", SyncMode.BATCH, "commitlog_durable_mark_interval: 0ms",
            UnaryOperator.identity(), config -> config.durableMarkInterval(Duration.ZERO)),
    /** Batch deleting discarded segment files instead of making new segments from them (no recycling). */
    BATCH_NO_RECYCLE("batch-norecycle", SyncMode.BATCH, "commitlog_recycle_segments: 0",
            UnaryOperator.identity(), config -> config.recycleSegments(0)),
    /** Adaptive deleting discarded segment files. */
    ADAPTIVE_NO_RECYCLE("adaptive-norecycle", SyncMode.ADAPTIVE, "commitlog_recycle_segments: 0",
            UnaryOperator.identity(), config -> config.recycleSegments(0)),
    /** Batch whose flushes write with O_DIRECT instead of through the page cache. */
    BATCH_DIRECT("batch-direct", SyncMode.BATCH, "commitlog_disk_access_mode: direct",
            UnaryOperator.identity(), config -> config.diskAccessMode(DiskAccessMode.DIRECT)),
    /** Adaptive whose flushes write with O_DIRECT. */
    ADAPTIVE_DIRECT("adaptive-direct", SyncMode.ADAPTIVE, "commitlog_disk_access_mode: direct",
            UnaryOperator.identity(), config -> config.diskAccessMode(DiskAccessMode.DIRECT)),
    /** Batch whose new segment files are sparse (only the length set) instead of zero-filled. */
    BATCH_SPARSE("batch-sparse", SyncMode.BATCH, "sparse new segment files (MappedStorageLayer(SPARSE))", SegmentFileSpace.SPARSE),
    /** Batch whose new segment files are preallocated by the fallocate command instead of zero-filled. */
    BATCH_FALLOCATE("batch-fallocate", SyncMode.BATCH, "fallocated new segment files (MappedStorageLayer(FALLOCATE_COMMAND))",
            SegmentFileSpace.FALLOCATE_COMMAND),
    /** Batch whose new segment files get their zeros in one go, not a synced MiB at a time. */
    BATCH_UNPACED_ZEROS("batch-unpaced-zeros", SyncMode.BATCH, "zeros in one go (MappedStorageLayer(ZERO_FILL_UNPACED))",
            SegmentFileSpace.ZERO_FILL_UNPACED),
    /** Periodic whose new segment files get their zeros a synced MiB at a time, as the durable modes' do, not in one go. */
    PERIODIC_PACED_ZEROS("periodic-paced-zeros", SyncMode.PERIODIC, "zeros paced (MappedStorageLayer(ZERO_FILL))",
            SegmentFileSpace.ZERO_FILL);

    private final String label;
    private final SyncMode mode;
    /** What the column changes, for the report header. */
    private final String change;
    private final UnaryOperator<SyncTuning> tune;
    private final UnaryOperator<CommitLogConfig.Builder> configure;
    /** How new segment files get their space; null: as the engine picks by sync mode. */
    private final SegmentFileSpace space;

    SyncAblation(String label, SyncMode mode, String change, UnaryOperator<SyncTuning> tune) {
        this(label, mode, change, tune, UnaryOperator.identity(), null);
    }

    SyncAblation(String label, SyncMode mode, String change, UnaryOperator<SyncTuning> tune,
                 UnaryOperator<CommitLogConfig.Builder> configure) {
        this(label, mode, change, tune, configure, null);
    }

    SyncAblation(String label, SyncMode mode, String change, SegmentFileSpace space) {
        this(label, mode, change, UnaryOperator.identity(), UnaryOperator.identity(), space);
    }

    SyncAblation(String label, SyncMode mode, String change, UnaryOperator<SyncTuning> tune,
                 UnaryOperator<CommitLogConfig.Builder> configure, SegmentFileSpace space) {
        this.label = label;
        this.mode = mode;
        this.change = change;
        this.tune = tune;
        this.configure = configure;
        this.space = space;
    }

    /** Every column's label, in declared order. */
    public static List<String> labels() {
        return Arrays.stream(values()).map(SyncAblation::label).toList();
    }

    public String label() {
        return label;
    }

    public SyncMode mode() {
        return mode;
    }

    /** What the column changes, for the report header. */
    public String describe() {
        return change;
    }

    /** Applies this column's configuration change (none for most). */
    public CommitLogConfig.Builder configure(CommitLogConfig.Builder config) {
        return configure.apply(config);
    }

    /** How this column's new segment files get their space; null: as the engine picks by sync mode. */
    public SegmentFileSpace space() {
        return space;
    }

    /** The engine's tuning with this column's mechanism switched off. */
    public SyncTuning tuning() {
        return tune.apply(SyncTuning.defaults());
    }
}
