package dev.commitlog.raft;

import dev.commitlog.CommitLog;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps lagging groups from pinning the shared log: every sixteenth of
 * {@link RaftLogOptions#maxRetainedBytes()} appended, a check compacts, and if the oldest entry any
 * group needs lies more than half the bound below the durable end, each group whose oldest entry
 * lies there (lowest first) is rewritten forward when its live records total at most
 * {@link RaftLogOptions#maxRewriteBytes()}, and otherwise named to the
 * {@link LaggingGroupListener}; then the log is compacted again. Acting at half the bound leaves
 * the node the other half, appended meanwhile, to answer with a snapshot.
 *
 * <p>Assumptions and guarantees: storages call {@link #appended} after each batch, holding no
 * group's mutex; the check runs in the caller's thread, one at a time (a caller that finds one
 * running goes on), reads each group's lowest position under its index's read lock, and takes
 * group mutexes (to rewrite) one at a time, as the compaction does. Between checks an append costs
 * one volatile read and a comparison.
 */
final class RetentionBound {
    private static final Logger LOG = LoggerFactory.getLogger(RetentionBound.class);

    private final CommitLog log;
    private final GroupRegistry registry;
    private final GroupCompaction compaction;
    private final GroupRewrite rewrite;
    private final long maxRetainedBytes;
    private final long maxRewriteBytes;
    private final long interval;
    private final LaggingGroupListener listener;
    private final AtomicBoolean checking = new AtomicBoolean();
    /** The log position past which the next append runs a check. */
    private volatile long nextCheckAt;
    /** Checks that found groups lagging, and listener calls: for tests and figures; written by the one check running. */
    private volatile long laggingChecks;
    private volatile long listenerCalls;

    RetentionBound(CommitLog log, GroupRegistry registry, GroupCompaction compaction, GroupRewrite rewrite, RaftLogOptions options) {
        this.log = log;
        this.registry = registry;
        this.compaction = compaction;
        this.rewrite = rewrite;
        this.maxRetainedBytes = options.maxRetainedBytes();
        this.maxRewriteBytes = options.maxRewriteBytes();
        this.listener = options.laggingGroupListener();
        this.interval = Math.max(1, maxRetainedBytes / 16);
        this.nextCheckAt = maxRetainedBytes == RaftLogOptions.UNBOUNDED ? Long.MAX_VALUE : 0;
    }

    /** After a storage appended up to {@code position}: checks once the log passed the next check point. */
    void appended(long position) {
        if (position < nextCheckAt || !checking.compareAndSet(false, true)) {
            return;
        }
        try {
            nextCheckAt = position + interval;
            check();
        } catch (RuntimeException e) { // the appends that called it succeeded; the next check tries again
            LOG.warn("Raft groups on {}: the retained-bytes check failed", log.config().directory(), e);
        } finally {
            checking.set(false);
        }
    }

    /** One check (see the class doc). */
    void check() {
        compaction.compact(log.config().segmentSize());
        long end = log.durablePosition();
        long floor = end - maxRetainedBytes / 2;
        List<Lagging> lagging = new ArrayList<>();
        for (GroupState group : registry.groups()) {
            long position;
            group.lock.readLock().lock(); // not the mutex: a group's append holds that through its flush
            try {
                position = group.index().lowestPosition();
            } finally {
                group.lock.readLock().unlock();
            }
            if (position < floor) {
                lagging.add(new Lagging(group, position));
            }
        }
        if (lagging.isEmpty()) {
            return;
        }
        laggingChecks++;
        lagging.sort(Comparator.comparingLong(Lagging::lowest));
        boolean rewrote = false;
        for (Lagging each : lagging) {
            if (maxRewriteBytes > 0 && rewrite.rewrite(each.group(), maxRewriteBytes) >= 0) {
                rewrote = true;
            } else if (listener != null && !each.group().dropped()) {
                tell(each.group().key(), each.lowest(), end - each.lowest());
            }
        }
        if (rewrote) {
            compaction.compact(0);
        }
    }

    private void tell(String key, long lowestPosition, long pinnedBytes) {
        listenerCalls++;
        try {
            listener.holdingBack(key, lowestPosition, pinnedBytes);
        } catch (RuntimeException e) {
            LOG.warn("Raft groups on {}: the lagging-group listener threw for group {}", log.config().directory(), key, e);
        }
    }

    private record Lagging(GroupState group, long lowest) {
    }

    long laggingChecks() {
        return laggingChecks;
    }

    long listenerCalls() {
        return listenerCalls;
    }
}
