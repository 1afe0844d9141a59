package dev.commitlog.raft;

import com.alipay.sofa.jraft.conf.Configuration;
import com.alipay.sofa.jraft.conf.ConfigurationEntry;
import com.alipay.sofa.jraft.conf.ConfigurationManager;
import com.alipay.sofa.jraft.entity.EnumOutter.EntryType;
import com.alipay.sofa.jraft.entity.LogEntry;
import com.alipay.sofa.jraft.entity.LogId;
import com.alipay.sofa.jraft.entity.codec.v2.LogEntryV2CodecFactory;
import com.alipay.sofa.jraft.option.LogStorageOptions;
import com.alipay.sofa.jraft.option.RaftOptions;
import com.alipay.sofa.jraft.storage.LogStorage;
import dev.commitlog.Ack;
import dev.commitlog.CommitLog;
import dev.commitlog.CommitLogException;
import dev.commitlog.PositionDiscardedException;
import java.io.UncheckedIOException;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * SOFAJRaft's {@link LogStorage} over a {@link RaftCommitLog} that many groups share.
 *
 * <p>Entries and truncations are records of the shared log (layout in {@link RaftRecord}); the
 * group's in-memory state (index from log index to log position, configuration entries) is a
 * {@link GroupState} that the shared log builds in its one replay and keeps live, so {@link #init}
 * replays nothing. Truncations are marker records, so the order of the log decides what survives
 * a restart: an entry appended after a marker is live, one before it is cut. Every mutation
 * returns once its records are durable (see {@link RaftCommitLog#ackFor}).
 *
 * <p>Mutations are serialized by the group's mutex (JRaft's log manager issues them from one
 * thread); readers take the read lock of the index only, never waiting for a flush.
 */
public final class CommitLogLogStorage implements LogStorage {
    private static final Logger LOG = LoggerFactory.getLogger(CommitLogLogStorage.class);

    private final StorageHost shared;
    private final CommitLog log;
    private final String groupKey;
    private final Ack ack;
    private volatile GroupState group;
    private EntryRecords records;
    /** One batch's positions, reused: written only under the group's mutex. */
    private final long[] positions = new long[CommitLog.MAX_BATCH];
    /** The position of the last record appended; written under the group's mutex, read after it by the same call. */
    private long lastAppended;
    private volatile boolean initialized;

    /**
     * A storage of {@code groupKey} on the shared log {@code shared}; {@link RaftCommitLog#storage}
     * makes them.
     *
     * @throws IllegalArgumentException if {@code raftOptions} asks for sync and the log syncs periodically
     */
    CommitLogLogStorage(StorageHost shared, String groupKey, RaftOptions raftOptions) {
        this.shared = Objects.requireNonNull(shared, "shared");
        this.log = shared.log();
        this.groupKey = Objects.requireNonNull(groupKey, "groupKey");
        RaftRecord.keyBytes(groupKey); // refuses an over-long key now rather than at init
        this.ack = shared.ackFor(raftOptions);
    }

    public String groupKey() {
        return groupKey;
    }

    /**
     * Loads the group's state from the shared log (replaying it if no storage did yet) and the
     * group's live configurations into {@code opts}' configuration manager; the storage is then
     * live until {@link #shutdown()}. Inited again while live, it loads the configurations again.
     *
     * <p>Returns false, logging the reason at ERROR, when the storage cannot serve, as JRaft's
     * {@code RocksDBLogStorage} does when its database does not open (JRaft then fails the node's
     * start, pointing at the log): another storage of the same group key is live on the shared log
     * (see {@link RaftCommitLog#storage}); the shared log was closed ({@link RaftCommitLog#close()});
     * or loading the groups failed. Nothing is held after a false.
     *
     * @throws NullPointerException if {@code opts} is null
     */
    @Override
    public boolean init(LogStorageOptions opts) {
        Objects.requireNonNull(opts, "opts");
        String refused = shared.claim(groupKey, this);
        if (refused != null) {
            LOG.error("Raft log storage {}: init refused: {}", groupKey, refused);
            return false;
        }
        boolean inited = false;
        try {
            inited = load(opts);
            return inited;
        } finally {
            initialized = inited; // also when loading threw
            if (!inited) {
                shared.release(groupKey, this);
            }
        }
    }

    /** The group's state and its configurations; false (logged) if the groups could not be loaded. */
    private boolean load(LogStorageOptions opts) {
        var codecs = opts.getLogEntryCodecFactory() != null ? opts.getLogEntryCodecFactory() : LogEntryV2CodecFactory.getInstance();
        GroupState state;
        try {
            state = shared.group(groupKey);
        } catch (RuntimeException e) {
            LOG.error("Raft log storage {}: loading the groups of {} failed", groupKey, log.config().directory(), e);
            return false;
        }
        ConfigurationManager confManager = opts.getConfigurationManager();
        synchronized (state.mutex) { // read under it: a rewrite (which takes it) cannot move them away meanwhile
            this.records = new EntryRecords(codecs.encoder(), codecs.decoder());
            this.group = state;
            if (confManager != null) {
                for (long position : state.configurations().values()) {
                    confManager.add(configurationOf(read(position)));
                }
            }
        }
        return true;
    }

    private static ConfigurationEntry configurationOf(LogEntry entry) {
        ConfigurationEntry conf = new ConfigurationEntry();
        conf.setId(new LogId(entry.getId().getIndex(), entry.getId().getTerm()));
        conf.setConf(new Configuration(entry.getPeers(), entry.getLearners()));
        if (entry.getOldPeers() != null) {
            conf.setOldConf(new Configuration(entry.getOldPeers(), entry.getOldLearners()));
        }
        return conf;
    }

    /** Ends this storage's use of the group: it is no longer live, so a new storage of its key may init. */
    @Override
    public void shutdown() {
        initialized = false; // the shared log and the group's state stay: other groups, and a later init, use them
        shared.release(groupKey, this);
    }

    @Override
    public long getFirstLogIndex() {
        GroupState state = group;
        if (state == null) {
            return 1;
        }
        state.lock.readLock().lock();
        try {
            return state.index().first();
        } finally {
            state.lock.readLock().unlock();
        }
    }

    @Override
    public long getLastLogIndex() {
        GroupState state = group;
        if (state == null) {
            return 0;
        }
        state.lock.readLock().lock();
        try {
            return state.index().last();
        } finally {
            state.lock.readLock().unlock();
        }
    }

    private long positionOf(long logIndex) {
        GroupState state = group;
        if (state == null) {
            return -1;
        }
        state.lock.readLock().lock();
        try {
            return state.index().get(logIndex);
        } finally {
            state.lock.readLock().unlock();
        }
    }

    /**
     * The entry at {@code logIndex}, or null. A reader racing a prefix truncation or a rewrite may
     * find the entry's segment discarded between the index lookup and the read: the entry is then
     * gone, as a truncated entry is, or was moved, and is read where the index maps it now; if the
     * index still maps it to the discarded position, the failure is real.
     */
    @Override
    public LogEntry getEntry(long logIndex) {
        long position = positionOf(logIndex);
        while (position >= 0) {
            try {
                return read(position);
            } catch (PositionDiscardedException e) {
                long now = positionOf(logIndex);
                if (now == position) {
                    throw e;
                }
                position = now;
            }
        }
        return null;
    }

    private LogEntry read(long position) {
        LogEntry[] decoded = new LogEntry[1];
        log.readAt(position, (at, record) -> decoded[0] = records.decode(record));
        LogEntry entry = decoded[0];
        if (entry == null) {
            throw new IllegalStateException("Raft log storage " + groupKey + ": the entry at log position " + position
                    + " does not decode");
        }
        if (entry.isCorrupted()) {
            throw new IllegalStateException("Raft log storage " + groupKey + ": the entry at log position " + position
                    + " fails its checksum");
        }
        return entry;
    }

    /** Reads the term from the record header; deprecated in JRaft (its log manager reads entries) but still part of the contract. */
    @Override
    @Deprecated
    public long getTerm(long logIndex) {
        long[] term = new long[1];
        long position = positionOf(logIndex);
        while (position >= 0) {
            try {
                log.readAt(position, (at, record) -> term[0] = RaftRecord.term(record));
                return term[0];
            } catch (PositionDiscardedException e) { // as getEntry: truncated, or moved by a rewrite
                long now = positionOf(logIndex);
                if (now == position) {
                    throw e;
                }
                position = now;
            }
        }
        return 0;
    }

    @Override
    public boolean appendEntry(LogEntry entry) {
        return appendEntries(List.of(entry)) == 1;
    }

    /**
     * Appends the entries in batches of up to {@link CommitLog#MAX_BATCH} records, each batch
     * durable before the index shows it. Stops at the first entry the index refuses: below the
     * first index kept, or too far past the last (see {@link PositionIndex#MAX_GAP}).
     */
    @Override
    public int appendEntries(List<LogEntry> entries) {
        if (entries == null || entries.isEmpty()) {
            return 0;
        }
        checkInitialized();
        int done = append(group, entries);
        shared.appended(lastAppended); // outside the mutex: the check may rewrite or compact other groups
        return done;
    }

    /** The records of {@code entries}, batch by batch under the group's mutex; returns how many are durable and indexed. */
    private int append(GroupState state, List<LogEntry> entries) {
        synchronized (state.mutex) {
            int done = 0;
            while (done < entries.size()) {
                int count = Math.min(CommitLog.MAX_BATCH, entries.size() - done);
                byte[][] batch = new byte[count][];
                int accepted = 0;
                long batchFirst = -1;
                long batchLast = -1;
                long batchBytes = 0;
                String refused = null;
                for (; accepted < count; accepted++) {
                    LogEntry entry = entries.get(done + accepted);
                    long logIndex = entry.getId().getIndex();
                    refused = state.index().refusal(logIndex, batchFirst, batchLast); // only this thread changes the index
                    if (refused != null) {
                        break;
                    }
                    batchFirst = batchFirst < 0 ? logIndex : Math.min(batchFirst, logIndex);
                    batchLast = Math.max(batchLast, logIndex);
                    batch[accepted] = records.entry(state.id, entry);
                    batchBytes += batch[accepted].length;
                }
                if (accepted > 0) {
                    try {
                        log.appendBatch(accepted == count ? batch : Arrays.copyOf(batch, accepted), positions, ack);
                    } catch (CommitLogException | UncheckedIOException e) {
                        // Nothing of this batch is indexed; JRaft sees a short count and reports EIO.
                        LOG.error("Raft log storage {}: appending entries from {} failed", groupKey, entries.get(done).getId(), e);
                        return done;
                    }
                    state.lock.writeLock().lock();
                    try {
                        for (int i = 0; i < accepted; i++) {
                            LogEntry entry = entries.get(done + i);
                            long logIndex = entry.getId().getIndex();
                            state.index().put(logIndex, positions[i]);
                            state.noteEntry(logIndex, positions[i], entry.getType() == EntryType.ENTRY_TYPE_CONFIGURATION);
                        }
                    } finally {
                        state.lock.writeLock().unlock();
                    }
                    state.appended(accepted, batchBytes);
                    lastAppended = positions[accepted - 1];
                    done += accepted;
                }
                if (refused != null) {
                    LOG.warn("Raft log storage {}: entry {} not appended: {}", groupKey, entries.get(done).getId(), refused);
                    return done;
                }
            }
            return done;
        }
    }

    @Override
    public boolean truncatePrefix(long firstIndexKept) {
        checkInitialized();
        GroupState state = group;
        synchronized (state.mutex) {
            if (writeMarker(RaftRecord.marker(RaftRecord.TRUNCATE_PREFIX, state.id, firstIndexKept), "truncatePrefix") < 0) {
                return false;
            }
            state.lock.writeLock().lock();
            try {
                state.truncatePrefix(firstIndexKept);
            } finally {
                state.lock.writeLock().unlock();
            }
        }
        compactAfterFirstIndexMoved();
        return true;
    }

    @Override
    public boolean truncateSuffix(long lastIndexKept) {
        checkInitialized();
        GroupState state = group;
        synchronized (state.mutex) {
            if (writeMarker(RaftRecord.marker(RaftRecord.TRUNCATE_SUFFIX, state.id, lastIndexKept), "truncateSuffix") < 0) {
                return false;
            }
            state.lock.writeLock().lock();
            try {
                state.truncateSuffix(lastIndexKept);
            } finally {
                state.lock.writeLock().unlock();
            }
            return true;
        }
    }

    /**
     * Drops every entry and keeps one at {@code nextLogIndex}: the entry that was there, or a no-op
     * of term 0 (as JRaft's RocksDB storage does). Marker and entry are one record, so a restart
     * sees both or neither.
     */
    @Override
    public boolean reset(long nextLogIndex) {
        if (nextLogIndex <= 0) {
            throw new IllegalArgumentException("Invalid next log index: " + nextLogIndex);
        }
        checkInitialized();
        GroupState state = group;
        synchronized (state.mutex) {
            LogEntry entry = getEntry(nextLogIndex);
            if (entry == null) {
                entry = new LogEntry(EntryType.ENTRY_TYPE_NO_OP);
                entry.setId(new LogId(nextLogIndex, 0));
            }
            long position = writeMarker(records.reset(state.id, entry), "reset");
            if (position < 0) {
                return false;
            }
            state.lock.writeLock().lock();
            try {
                state.reset(nextLogIndex, position, entry.getType() == EntryType.ENTRY_TYPE_CONFIGURATION);
            } finally {
                state.lock.writeLock().unlock();
            }
        }
        compactAfterFirstIndexMoved();
        return true;
    }

    /** Outside the group's mutex: the compaction takes every group's in turn. Its failure leaves the truncation done. */
    private void compactAfterFirstIndexMoved() {
        try {
            shared.firstIndexMoved();
        } catch (RuntimeException e) {
            LOG.warn("Raft log storage {}: compacting the shared log {} failed; it keeps its segments", groupKey,
                    log.config().directory(), e);
        }
    }

    /**
     * Appends a marker record and waits for it; -1 if that failed. The caller then changes no state
     * and returns false, as JRaft's RocksDB storage does on a failed write.
     */
    private long writeMarker(byte[] record, String call) {
        try {
            return log.append(record, 0, record.length, ack);
        } catch (CommitLogException | UncheckedIOException e) {
            LOG.error("Raft log storage {}: {} failed", groupKey, call, e);
            return -1;
        }
    }

    private void checkInitialized() {
        if (!initialized) {
            throw new IllegalStateException("Raft log storage " + groupKey + " is not initialized (or was shut down)");
        }
    }

    @Override
    public String toString() {
        return "CommitLogLogStorage[" + groupKey + " on " + log.config().directory() + "]";
    }

    GroupState group() {
        return group;
    }
}
