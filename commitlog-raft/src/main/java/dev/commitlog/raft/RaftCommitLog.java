package dev.commitlog.raft;

import com.alipay.sofa.jraft.option.RaftOptions;
import dev.commitlog.Ack;
import dev.commitlog.CommitLog;
import dev.commitlog.CommitLogException;
import dev.commitlog.config.CommitLogConfig;
import dev.commitlog.config.SyncMode;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.WeakHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One commit log shared by the log storages of many Raft groups: each group's records carry its
 * small group id, bound to the group key by one record (see {@link RaftRecord}), so groups never
 * see each other's entries. The first storage init loads every group's state once: from the newest
 * index checkpoint file and the records after it, or by replaying the whole log; the groups' states
 * then stay live here, so later inits replay nothing. A daemon thread writes a new checkpoint each
 * time the log has grown enough (docs/raft.md, "Startup and index checkpoints"), and
 * {@link #close()} writes a last one. The shared log outlives the storages over it: shutting a
 * storage down leaves the log open; {@link #close()} closes it.
 *
 * <p>A group key has at most one live storage at a time: from a successful {@code init} until
 * {@code shutdown} (see {@link #storage}). Once this is closed no storage over it inits again.
 *
 * <p>With {@link RaftLogOptions#maxRetainedBytes()} set, groups that fall behind are rewritten
 * forward or named to a {@link LaggingGroupListener}, so that they do not keep every segment;
 * {@link #drop} ends a group for good; {@link #groupStats()} gives each group's figures.
 */
public final class RaftCommitLog implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(RaftCommitLog.class);
    /**
     * The logs wrapped now, by identity (CommitLog keeps Object's equals). Group ids are handed out
     * by one wrapper's registry, so two wrappers of one log would give two groups the same id.
     */
    private static final Set<CommitLog> WRAPPED = Collections.synchronizedSet(Collections.newSetFromMap(new WeakHashMap<>()));

    private final CommitLog log;
    private final boolean owned;
    private final GroupRegistry groups;
    private final GroupCompaction compaction;
    private final GroupRewrite rewrite;
    private final RetentionBound bound;
    private final RaftLogOptions options;
    private final IndexCheckpoints checkpoints;
    private final CheckpointTrigger trigger;
    private final LiveStorages live = new LiveStorages();
    private final StorageHost host = new Host();
    private volatile boolean closed;

    private RaftCommitLog(CommitLog log, boolean owned, RaftLogOptions options, CheckpointFiles files, boolean trigger) {
        this.log = Objects.requireNonNull(log, "log");
        this.options = Objects.requireNonNull(options, "options");
        options.checkAgainst(log.config().segmentSize(), log.config().directory());
        if (!WRAPPED.add(log)) {
            throw new IllegalStateException("commit log " + log.config().directory() + " is already wrapped by an open"
                    + " RaftCommitLog; share that one (group ids are handed out per wrapper) or close it first");
        }
        this.owned = owned;
        this.checkpoints = new IndexCheckpoints(log, files);
        this.groups = new GroupRegistry(log, checkpoints::load);
        this.compaction = new GroupCompaction(log, groups);
        this.rewrite = new GroupRewrite(log);
        this.bound = new RetentionBound(log, groups, compaction, rewrite, options);
        this.trigger = trigger
                ? CheckpointTrigger.start(checkpoints, groups, "commitlog-raft-checkpoint-" + log.config().directory().getFileName())
                : null;
    }

    private static CheckpointFiles filesOf(CommitLog log) {
        return new DirectoryCheckpointFiles(log.config().directory(), log.config().filePermissions());
    }

    /** Opens a commit log for Raft groups, with no bound on what lagging groups keep; {@link #close()} closes it. */
    public static RaftCommitLog open(CommitLogConfig config) throws IOException {
        return open(config, RaftLogOptions.defaults());
    }

    /**
     * Opens a commit log for Raft groups, bounded as {@code options} say; {@link #close()} closes it.
     *
     * @throws IllegalArgumentException if {@code options.maxRetainedBytes()} is below
     *                                  {@link RaftLogOptions#MIN_RETAINED_SEGMENTS} segments; nothing is opened
     */
    public static RaftCommitLog open(CommitLogConfig config, RaftLogOptions options) throws IOException {
        Objects.requireNonNull(options, "options");
        options.checkAgainst(config.segmentSize(), config.directory());
        CommitLog log = CommitLog.open(config);
        try {
            return new RaftCommitLog(log, true, options, filesOf(log), true);
        } catch (RuntimeException e) {
            log.close();
            throw e;
        }
    }

    /**
     * Wraps a log the caller opened and closes itself, with no bound on what lagging groups keep;
     * {@link #close()} leaves it open.
     *
     * @throws IllegalStateException if another open {@code RaftCommitLog} wraps {@code log}
     */
    public static RaftCommitLog over(CommitLog log) {
        return over(log, RaftLogOptions.defaults());
    }

    /**
     * Wraps a log the caller opened and closes itself, bounded as {@code options} say;
     * {@link #close()} leaves it open.
     *
     * @throws IllegalStateException    if another open {@code RaftCommitLog} wraps {@code log}
     * @throws IllegalArgumentException if {@code options.maxRetainedBytes()} is below
     *                                  {@link RaftLogOptions#MIN_RETAINED_SEGMENTS} segments of {@code log}
     */
    public static RaftCommitLog over(CommitLog log, RaftLogOptions options) {
        return new RaftCommitLog(log, false, options, filesOf(Objects.requireNonNull(log, "log")), true);
    }

    /**
     * As {@link #over(CommitLog)}, keeping index checkpoints in {@code files}, and writing them only
     * when asked ({@link #checkpoint()}) and at {@link #close()}: tests choose when.
     */
    static RaftCommitLog over(CommitLog log, CheckpointFiles files) {
        return over(log, RaftLogOptions.defaults(), files);
    }

    /** As {@link #over(CommitLog, CheckpointFiles)}, bounded as {@code options} say. */
    static RaftCommitLog over(CommitLog log, RaftLogOptions options, CheckpointFiles files) {
        return new RaftCommitLog(log, false, options, files, false);
    }

    /** The checkpoint files {@link #open} and {@link #over(CommitLog)} use: in the log's directory. */
    static CheckpointFiles directoryFiles(CommitLog log) {
        return filesOf(log);
    }

    public RaftLogOptions options() {
        return options;
    }

    /**
     * A log storage for the group (or node) that {@code groupKey} names, on this log.
     *
     * <p>One storage per key is live at a time, from its successful {@code init} until its
     * {@code shutdown}: two would be two writers of one group's entries (two JRaft nodes of the
     * process given the same log URI), which JRaft's RocksDB storage cannot be either (RocksDB locks
     * its path). So this refuses a key whose storage is live; once that one is shut down, a new one
     * may be made and inited. Of two storages made before either inits, the second {@code init}
     * returns false and logs why, as {@code RocksDBLogStorage.init} does when its path is locked.
     *
     * @throws IllegalStateException    if a storage of {@code groupKey} on this log is live, or this log is closed
     * @throws IllegalArgumentException if {@code raftOptions} asks for sync and the log syncs periodically
     */
    public CommitLogLogStorage storage(String groupKey, RaftOptions raftOptions) {
        checkOpen();
        Object holder = live.holder(groupKey);
        if (holder != null) {
            throw new IllegalStateException(liveElsewhere(groupKey, holder));
        }
        return new CommitLogLogStorage(host, groupKey, raftOptions);
    }

    /** What the storages of this log ask of it (tests make a storage with it while its key is held). */
    StorageHost host() {
        return host;
    }

    /** Why a second storage of {@code groupKey} is refused while {@code holder} (a storage, or a drop) holds the key. */
    private String liveElsewhere(String groupKey, Object holder) {
        if (holder == LiveStorages.DROPPING) {
            return "Raft group key " + groupKey + " on commit log " + log.config().directory() + " is being dropped"
                    + " (RaftCommitLog.drop); init a storage of it once the drop returned, and it starts empty";
        }
        return "Raft group key " + groupKey + " already has a live log storage on commit log " + log.config().directory() + " ("
                + holder + ", inited and not shut down): a key takes one live storage at a time; give every node of the"
                + " process its own log URI, or shut the other storage down first";
    }

    /**
     * Drops the group {@code groupKey} names, for good: one DROP record, durable before this
     * returns, empties it, so its entries no longer hold the shared log's segments and a restart
     * does not bring it back. The key's binding ends: a storage of the same key inited later starts
     * an empty group. Call it when the node leaves the group (after the group's node has shut down).
     *
     * <p>The group's storage must not be live: a live storage is its node's log, and the node would
     * go on appending entries of a group the log no longer has. So this refuses, changing nothing,
     * rather than shutting the storage down under its node; shut the node down first
     * ({@code Node.shutdown} shuts its log storage down). While the drop runs, a storage of the key
     * does not init ({@code init} returns false and says why).
     *
     * @throws IllegalArgumentException if no group of {@code groupKey} is on this log (never inited, or dropped already)
     * @throws IllegalStateException    if a storage of {@code groupKey} is live, or this log is closed
     * @throws dev.commitlog.CommitLogException if the DROP record could not be made durable: the group stays as it was
     */
    public void drop(String groupKey) {
        Objects.requireNonNull(groupKey, "groupKey");
        checkOpen();
        Object holder = live.claim(groupKey, LiveStorages.DROPPING);
        if (holder != null) {
            throw new IllegalStateException("cannot drop Raft group key " + groupKey + " on commit log " + log.config().directory()
                    + ": it is held by " + holder + "; shut the group's node down first (Node.shutdown shuts its log storage"
                    + " down), then drop it");
        }
        try {
            GroupState state = groups.find(groupKey);
            if (state == null) {
                throw new IllegalArgumentException("no Raft group of key " + groupKey + " on commit log " + log.config().directory()
                        + ": a key has a group once a storage of it was inited, until it is dropped");
            }
            synchronized (state.mutex) { // no write of the group is half-way, and compaction checkpoints it before or not at all
                byte[] record = RaftRecord.drop(state.id);
                long position = log.append(record, 0, record.length, Ack.DURABLE);
                state.lock.writeLock().lock();
                try {
                    state.drop(position);
                } finally {
                    state.lock.writeLock().unlock();
                }
            }
            groups.forget(state);
        } finally {
            live.release(groupKey, LiveStorages.DROPPING);
        }
        try {
            firstIndexMoved();
        } catch (RuntimeException e) { // the drop is durable and done; the segments go at the next compaction
            LOG.warn("Raft group {} dropped; compacting the shared log {} failed, it keeps its segments", groupKey,
                    log.config().directory(), e);
        }
    }

    /** The live storage of each group key. */
    LiveStorages live() {
        return live;
    }

    private void checkOpen() {
        if (closed) {
            throw new IllegalStateException("RaftCommitLog on " + log.config().directory() + " is closed");
        }
    }

    public CommitLog log() {
        return log;
    }

    /**
     * Discards the segments of the shared log that lie wholly below the lowest position any group
     * still needs: the oldest live entry of any group. Groups whose bounds (first index kept,
     * truncations, key binding) were written below that point get a checkpoint record first,
     * durable before anything is discarded. Storages call this on their own when a prefix
     * truncation or a reset lets the cut move by a segment; call it to compact at once.
     *
     * @return the log position everything below which may be discarded
     */
    public long compact() {
        return compaction.compact(0);
    }

    /** After a group's first index moved (or a group went): compacts if the cut gains at least a segment. */
    void firstIndexMoved() {
        compaction.compact(log.config().segmentSize());
    }

    /** The state of the group {@code groupKey} names (the whole log is replayed once, on the first call). */
    GroupState group(String groupKey) {
        return groups.group(groupKey);
    }

    GroupRegistry groups() {
        return groups;
    }

    GroupCompaction compaction() {
        return compaction;
    }

    GroupRewrite rewrite() {
        return rewrite;
    }

    RetentionBound bound() {
        return bound;
    }

    IndexCheckpoints checkpoints() {
        return checkpoints;
    }

    /**
     * Writes an index checkpoint now if anything became durable since the last one (the daemon
     * thread does when one is due); returns whether it did.
     *
     * @throws IOException if the file could not be written (the previous checkpoint stays)
     */
    boolean checkpoint() throws IOException {
        return checkpoints.take(groups);
    }

    /**
     * The acknowledgement appends ask for. Raft with {@code sync} needs an entry durable before it
     * is acknowledged, which a periodic log does not promise, so that pairing is refused. Entries
     * are read back through {@link CommitLog#readAt}, which sees durable records only, so a periodic
     * log's appends (allowed when {@code sync} is off) still wait for their flush.
     *
     * @throws IllegalArgumentException if {@code raftOptions.isSync()} and the log syncs periodically
     */
    Ack ackFor(RaftOptions raftOptions) {
        if (log.config().syncMode() == SyncMode.PERIODIC) {
            if (raftOptions == null || raftOptions.isSync()) {
                throw new IllegalArgumentException("RaftOptions.sync is true but commit log " + log.config().directory()
                        + " uses commitlog_sync: periodic, which acknowledges appends before they are durable; use batch,"
                        + " group or adaptive sync, or set RaftOptions.sync to false");
            }
            return Ack.DURABLE;
        }
        return Ack.MODE;
    }

    /**
     * Every group's figures now (see {@link RaftGroupStats}), in no particular order: O(groups),
     * nothing waits for a flush. Published to Micrometer, tagged by group, by
     * {@code commitlog-micrometer}'s {@code RaftGroupMeterBinder}.
     *
     * @throws IllegalStateException if this log is closed
     */
    public List<RaftGroupStats> groupStats() {
        checkOpen();
        long durable = log.durablePosition();
        List<GroupState> all = groups.groups();
        List<RaftGroupStats> stats = new ArrayList<>(all.size());
        for (GroupState group : all) {
            stats.add(group.stats(durable));
        }
        return stats;
    }

    /**
     * The figures of the group {@code groupKey} names, or empty if no group of it is on this log
     * (never inited, or dropped).
     *
     * @throws IllegalStateException if this log is closed
     */
    public Optional<RaftGroupStats> groupStats(String groupKey) {
        Objects.requireNonNull(groupKey, "groupKey");
        checkOpen();
        GroupState group = groups.find(groupKey);
        return group == null ? Optional.empty() : Optional.of(group.stats(log.durablePosition()));
    }

    /**
     * Writes a last index checkpoint (once the groups were loaded, and unless the log was closed or
     * failed: a restart then replays only what was appended after it), and closes the shared log if
     * this opened it; storages over it no longer init. Call it after the storages over it are shut
     * down. Idempotent.
     */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        if (trigger != null) {
            trigger.stop();
        }
        try {
            if (groups.loaded()) {
                checkpoints.take(groups);
            }
        } catch (IllegalStateException | CommitLogException e) {
            LOG.debug("no index checkpoint at close of {}: {}", log.config().directory(), e.toString());
        } catch (IOException | RuntimeException e) {
            LOG.warn("writing the index checkpoint at close of {} failed; the next open starts from the previous one",
                    log.config().directory(), e);
        } finally {
            WRAPPED.remove(log);
            if (owned) {
                log.close();
            }
        }
    }

    /**
     * This log as its storages see it: kept apart so that the storages' calls stay package-private
     * (an interface's methods are public in the class that implements it).
     */
    private final class Host implements StorageHost {
        @Override
        public CommitLog log() {
            return log;
        }

        @Override
        public Ack ackFor(RaftOptions raftOptions) {
            return RaftCommitLog.this.ackFor(raftOptions);
        }

        @Override
        public String claim(String groupKey, Object storage) {
            if (closed) {
                return "the shared commit log " + log.config().directory() + " is closed (RaftCommitLog.close() was called);"
                        + " open a new RaftCommitLog and make the storage from it";
            }
            Object holder = live.claim(groupKey, storage);
            return holder == null ? null : liveElsewhere(groupKey, holder);
        }

        @Override
        public void release(String groupKey, Object storage) {
            live.release(groupKey, storage);
        }

        @Override
        public GroupState group(String groupKey) {
            return RaftCommitLog.this.group(groupKey);
        }

        @Override
        public void appended(long position) {
            bound.appended(position);
        }

        @Override
        public void firstIndexMoved() {
            RaftCommitLog.this.firstIndexMoved();
        }
    }
}
