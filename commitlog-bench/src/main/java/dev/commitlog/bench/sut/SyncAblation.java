package dev.commitlog.bench.sut;

import dev.commitlog.config.CommitLogConfig;
import dev.commitlog.config.SyncMode;
import dev.commitlog.sync.SyncTuning;
import java.io.IOException;
import java.time.Duration;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.StringJoiner;
import java.util.function.UnaryOperator;

/**
 * The ablation columns ({@code --ablation}): the commit log with one of the sync mechanisms of
 * issue 5 switched off (or, for the ones off by default, on), to show what each one adds. The engine reads these switches from system
 * properties once, when a log opens ({@link SyncTuning}), so a column sets them
 * just before {@code CommitLog.open} and restores them just after: the cells run one at a time,
 * and every other log in the JVM keeps the engine's defaults. A mechanism that is configuration
 * (the durable mark's interval) is changed in the column's config instead.
 */
public enum SyncAblation {
    /** The engine before issue 5: every flush on the sync thread, which unparks every waiter itself. */
    BATCH_CLASSIC("batch-classic", SyncMode.BATCH, Map.of(Switch.INLINE_FLUSH, false, Switch.CASCADE_WAKEUPS, false)),
    /** Batch with cascaded wake-ups (off by default): the flusher wakes two, each woken waiter two more. */
    BATCH_CASCADE("batch-cascade", SyncMode.BATCH, Map.of(Switch.CASCADE_WAKEUPS, true)),
    /** Batch whose waiters park at once, instead of first yielding for up to two flushes. */
    BATCH_PARK("batch-park", SyncMode.BATCH, Map.of(Switch.YIELD_WAIT, false)),
    /** Batch whose waiters spin 200 times on the durable position before they yield or park (the engine before session 17). */
    BATCH_SPIN("batch-spin200", SyncMode.BATCH, Map.of(Switch.WAIT_SPINS, 200)),
    /** Adaptive whose waiters spin 200 times before they yield or park (the engine before session 17). */
    ADAPTIVE_SPIN("adaptive-spin200", SyncMode.ADAPTIVE, Map.of(Switch.WAIT_SPINS, 200)),
    /** Batch whose appenders flush inline whenever nobody is flushing, however many writers there are (the engine before session 17). */
    BATCH_INLINE("batch-inline", SyncMode.BATCH, Map.of(Switch.INLINE_FLUSH_RECORDS, Integer.MAX_VALUE)),
    /** Adaptive whose appenders flush inline whenever nobody is flushing (the engine before session 17). */
    ADAPTIVE_INLINE("adaptive-inline", SyncMode.ADAPTIVE, Map.of(Switch.INLINE_FLUSH_RECORDS, Integer.MAX_VALUE)),
    /** Adaptive with every flush on the sync thread: appenders never flush in their own thread. */
    ADAPTIVE_SYNC_THREAD("adaptive-syncthread", SyncMode.ADAPTIVE, Map.of(Switch.INLINE_FLUSH, false)),
    /** Adaptive claiming each flush at once, without first gathering the writers the previous flush released. */
    ADAPTIVE_NO_GATHER("adaptive-nogather", SyncMode.ADAPTIVE, Map.of(Switch.ADAPTIVE_GATHER, false)),
    /** Adaptive with one flush at a time: Batch's mechanism plus the gather, without the overlap trials. */
    ADAPTIVE_SOLO("adaptive-solo", SyncMode.ADAPTIVE, Map.of(Switch.ADAPTIVE_PIPELINE, 1)),
    /** Adaptive overlapping up to four flushes whenever the pipeline has room, however much overlap costs. */
    ADAPTIVE_UNGATED("adaptive-ungated4", SyncMode.ADAPTIVE, Map.of(Switch.ADAPTIVE_PIPELINE, 4, Switch.ADAPTIVE_OVERLAP_GATE, false)),
    /** Batch rewriting the header's durable mark with every flush (the engine before session 5), not at most once every 10 ms. */
    BATCH_EVERY_MARK("batch-mark-every-flush", SyncMode.BATCH, "commitlog_durable_mark_interval: 0ms",
            config -> config.durableMarkInterval(Duration.ZERO)),
    /** Batch rewriting the durable mark at most once a millisecond past a segment's first page (the default of sessions 5-11), not once every 10 ms. */
    BATCH_MARK_1MS("batch-mark-1ms", SyncMode.BATCH, "commitlog_durable_mark_interval: 1ms",
            config -> config.durableMarkInterval(Duration.ofMillis(1)));

    /** The engine's switches, by the property names {@link SyncTuning} reads. */
    enum Switch {
        INLINE_FLUSH(SyncTuning.INLINE_FLUSH),
        INLINE_FLUSH_RECORDS(SyncTuning.INLINE_FLUSH_RECORDS),
        CASCADE_WAKEUPS(SyncTuning.CASCADE_WAKEUPS),
        ADAPTIVE_GATHER(SyncTuning.ADAPTIVE_GATHER),
        ADAPTIVE_PIPELINE(SyncTuning.ADAPTIVE_PIPELINE),
        ADAPTIVE_OVERLAP_GATE(SyncTuning.ADAPTIVE_OVERLAP_GATE),
        YIELD_WAIT(SyncTuning.YIELD_WAIT),
        WAIT_SPINS(SyncTuning.WAIT_SPINS);

        final String property;

        Switch(String property) {
            this.property = property;
        }
    }

    /** Opening a log, with the checked exception it may throw. */
    @FunctionalInterface
    public interface Opener<T> {
        T open() throws IOException;
    }

    private final String label;
    private final SyncMode mode;
    private final Map<Switch, Object> switches;
    /** The configuration this column changes, as YAML would say it; empty if none. */
    private final String setting;
    private final UnaryOperator<CommitLogConfig.Builder> configure;

    SyncAblation(String label, SyncMode mode, Map<Switch, Object> switches) {
        this(label, mode, switches, "", UnaryOperator.identity());
    }

    SyncAblation(String label, SyncMode mode, String setting, UnaryOperator<CommitLogConfig.Builder> configure) {
        this(label, mode, Map.of(), setting, configure);
    }

    SyncAblation(String label, SyncMode mode, Map<Switch, Object> switches, String setting,
                 UnaryOperator<CommitLogConfig.Builder> configure) {
        this.label = label;
        this.mode = mode;
        this.switches = switches;
        this.setting = setting;
        this.configure = configure;
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

    /** What the column changes, for the report header: its configuration and its switches. */
    public String describe() {
        String switched = switches.isEmpty() ? "" : properties() + " (set only while the log opens)";
        if (setting.isEmpty()) {
            return switched;
        }
        return switched.isEmpty() ? setting : setting + " and " + switched;
    }

    /** Applies this column's configuration change (none for most). */
    public CommitLogConfig.Builder configure(CommitLogConfig.Builder config) {
        return configure.apply(config);
    }

    /** The switches as {@code -D} settings, in a fixed order, for the report header. */
    public String properties() {
        StringJoiner out = new StringJoiner(" ");
        for (Switch s : Switch.values()) {
            if (switches.containsKey(s)) {
                out.add(s.property + "=" + switches.get(s).toString().toLowerCase(Locale.ROOT));
            }
        }
        return out.toString();
    }

    /**
     * Runs {@code opener} with this variant's switches set, then puts every property back as it was
     * (cleared if it was unset), whether the open succeeded or not.
     */
    public <T> T open(Opener<T> opener) throws IOException {
        Map<String, String> previous = new HashMap<>();
        switches.forEach((s, value) -> previous.put(s.property, System.setProperty(s.property, value.toString())));
        try {
            return opener.open();
        } finally {
            previous.forEach((property, value) -> {
                if (value == null) {
                    System.clearProperty(property);
                } else {
                    System.setProperty(property, value);
                }
            });
        }
    }
}
