package dev.commitlog.micrometer;

import dev.commitlog.raft.RaftCommitLog;
import dev.commitlog.raft.RaftGroupStats;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tag;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.binder.MeterBinder;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;
import java.util.function.Supplier;
import java.util.function.ToDoubleFunction;

/**
 * Publishes each Raft group's figures on a shared log ({@link RaftCommitLog#groupStats()}) to a
 * Micrometer registry, one set of {@code commitlog.raft.group.*} meters per group, tagged
 * {@code group=<group key>} and with the log's directory; see docs/raft.md for what each means.
 * Needs {@code commitlog-raft} on the class path (an optional dependency of this module).
 *
 * <pre>{@code
 * RaftGroupMeterBinder groups = new RaftGroupMeterBinder(raftLog);
 * groups.bindTo(registry);
 * // after groups start or are dropped (or on a timer): meters for new groups, none for dropped ones
 * groups.refresh();
 * }</pre>
 *
 * <p>Groups come and go while the registry is scraped, so meters are registered and removed by
 * {@link #refresh()} (and {@link #bindTo}), never during a scrape. A scrape's meters share one
 * snapshot of every group's figures, taken at most once per {@code maxSnapshotAgeNanos}; a group
 * gone since its meters were registered reads NaN until the next refresh removes them.
 */
public final class RaftGroupMeterBinder implements MeterBinder {
    private static final long DEFAULT_MAX_SNAPSHOT_AGE_NANOS = TimeUnit.MILLISECONDS.toNanos(500);

    private final Supplier<List<RaftGroupStats>> source;
    private final Iterable<Tag> tags;
    private final long maxSnapshotAgeNanos;
    private final LongSupplier nanoClock;
    /** The meters of each group, by key; guarded by this. */
    private final Map<String, List<Meter>> meters = new HashMap<>();
    private MeterRegistry registry;
    private Map<String, RaftGroupStats> snapshot;
    private long snapshotAt;

    /** Binds {@code raftLog}'s groups, tagged {@code directory=<the log directory>} and {@code group=<key>}. */
    public RaftGroupMeterBinder(RaftCommitLog raftLog) {
        this(raftLog::groupStats, Tags.of("directory", raftLog.log().config().directory().toString()), DEFAULT_MAX_SNAPSHOT_AGE_NANOS,
                System::nanoTime);
    }

    RaftGroupMeterBinder(Supplier<List<RaftGroupStats>> source, Iterable<Tag> tags, long maxSnapshotAgeNanos, LongSupplier nanoClock) {
        this.source = Objects.requireNonNull(source, "source");
        this.tags = Objects.requireNonNull(tags, "tags");
        this.maxSnapshotAgeNanos = maxSnapshotAgeNanos;
        this.nanoClock = nanoClock;
    }

    /**
     * Registers the meters of the groups there are now.
     *
     * @throws IllegalStateException if this binder is bound to another registry already
     */
    @Override
    public synchronized void bindTo(MeterRegistry registry) {
        if (this.registry != null && this.registry != registry) {
            throw new IllegalStateException("RaftGroupMeterBinder is bound to a registry already; make one binder per registry");
        }
        this.registry = Objects.requireNonNull(registry, "registry");
        refresh();
    }

    /**
     * Registers meters for the groups that have none yet and removes those of groups that are
     * gone (dropped). Call it after groups start or are dropped, or on a timer.
     *
     * @throws IllegalStateException if the binder is not bound yet
     */
    public synchronized void refresh() {
        if (registry == null) {
            throw new IllegalStateException("bind RaftGroupMeterBinder to a registry (bindTo) before refreshing it");
        }
        Map<String, RaftGroupStats> now = take();
        for (Iterator<Map.Entry<String, List<Meter>>> it = meters.entrySet().iterator(); it.hasNext(); ) {
            Map.Entry<String, List<Meter>> bound = it.next();
            if (!now.containsKey(bound.getKey())) {
                bound.getValue().forEach(registry::remove);
                it.remove();
            }
        }
        for (String key : now.keySet()) {
            meters.computeIfAbsent(key, this::register);
        }
    }

    private List<Meter> register(String key) {
        Tags groupTags = Tags.of(tags).and("group", key);
        List<Meter> registered = new ArrayList<>();
        registered.add(gauge(key, groupTags, "commitlog.raft.group.entries", "live entries of the group", null, RaftGroupStats::entries));
        registered.add(gauge(key, groupTags, "commitlog.raft.group.first.index", "the group's first log index", null,
                RaftGroupStats::firstIndex));
        registered.add(gauge(key, groupTags, "commitlog.raft.group.last.index", "the group's last log index", null,
                RaftGroupStats::lastIndex));
        registered.add(gauge(key, groupTags, "commitlog.raft.group.pinned", "log bytes from the group's oldest entry to the durable end",
                "bytes", RaftGroupStats::pinnedBytes));
        registered.add(FunctionCounter.builder("commitlog.raft.group.appends", this, binder -> binder.value(key, RaftGroupStats::appendedEntries))
                .description("entries the group appended (a rate: appends per second)").tags(groupTags).register(registry));
        registered.add(FunctionCounter.builder("commitlog.raft.group.appended.bytes", this,
                        binder -> binder.value(key, RaftGroupStats::appendedBytes))
                .description("record bytes the group appended").baseUnit("bytes").tags(groupTags).register(registry));
        return registered;
    }

    private Meter gauge(String key, Tags groupTags, String name, String description, String baseUnit, ToDoubleFunction<RaftGroupStats> value) {
        return Gauge.builder(name, this, binder -> binder.value(key, value)).description(description).baseUnit(baseUnit).tags(groupTags)
                .register(registry);
    }

    /** One figure of group {@code key} from the shared snapshot; NaN once the group is gone. */
    private double value(String key, ToDoubleFunction<RaftGroupStats> value) {
        RaftGroupStats stats = current().get(key);
        return stats == null ? Double.NaN : value.applyAsDouble(stats);
    }

    /** The shared snapshot, refreshed once it is older than {@link #maxSnapshotAgeNanos}. */
    synchronized Map<String, RaftGroupStats> current() {
        long now = nanoClock.getAsLong();
        if (snapshot == null || now - snapshotAt >= maxSnapshotAgeNanos) {
            take();
        }
        return snapshot;
    }

    private Map<String, RaftGroupStats> take() {
        Map<String, RaftGroupStats> byKey = new HashMap<>();
        try {
            for (RaftGroupStats stats : source.get()) {
                byKey.put(stats.groupKey(), stats);
            }
        } catch (IllegalStateException closed) { // the shared log was closed: no group has figures any more
            byKey.clear();
        }
        snapshot = byKey;
        snapshotAt = nanoClock.getAsLong();
        return byKey;
    }
}
