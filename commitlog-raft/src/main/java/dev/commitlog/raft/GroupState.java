package dev.commitlog.raft;

import com.alipay.sofa.jraft.entity.EnumOutter.EntryType;
import java.nio.ByteBuffer;
import java.util.TreeMap;
import java.util.concurrent.locks.ReadWriteLock;
import java.util.concurrent.locks.ReentrantReadWriteLock;

/**
 * One group's live state on the shared log: its id, its index of entries and the positions of its
 * configuration entries. Built by the shared log's one replay and kept current by the group's
 * storage, so a storage inited later (or again) takes it as it is.
 *
 * <p>Threading: every mutation, and every read that must not see a half-applied one, runs under
 * {@link #mutex}, taken by the storage's writes and by {@link GroupCompaction}; the index is also
 * guarded by {@link #lock} so that readers ({@code getEntry}) never wait for a write's flush.
 */
final class GroupState {
    private static final int CONFIGURATION = EntryType.ENTRY_TYPE_CONFIGURATION_VALUE;

    final int id;
    final Object mutex = new Object();
    final ReadWriteLock lock = new ReentrantReadWriteLock();
    private String key;
    private byte[] keyBytes;
    private final PositionIndex index = new PositionIndex();
    /** Log index -> position of the configuration entries among the live ones; guarded by mutex. */
    private final TreeMap<Long, Long> configurations = new TreeMap<>();
    /**
     * Position of the group's latest GROUP or CHECKPOINT record: replay from any point at or below
     * it rebuilds the group's bounds. Guarded by mutex.
     */
    private long basePosition = -1;
    /** Entries and record bytes appended since the log was opened, counted per batch; written under mutex. */
    private volatile long appendedEntries;
    private volatile long appendedBytes;
    /** Position of the group's DROP record, or -1 while the group lives; written under mutex, read by the registry. */
    private volatile long droppedAt = -1;

    GroupState(int id) {
        this.id = id;
    }

    String key() {
        return key;
    }

    byte[] keyBytes() {
        return keyBytes;
    }

    void bind(String groupKey, long position) {
        this.key = groupKey;
        this.keyBytes = RaftRecord.keyBytes(groupKey);
        this.basePosition = position;
    }

    long basePosition() {
        return basePosition;
    }

    /** The index; read it under {@code lock}'s read lock, change it under {@code mutex} and the write lock. */
    PositionIndex index() {
        return index;
    }

    TreeMap<Long, Long> configurations() {
        return configurations;
    }

    /**
     * Replay: one record of this group, in log order. Entries are put whatever the bounds (see
     * {@link PositionIndex#restore}); truncations cut configuration positions as they cut entries.
     */
    void replay(long position, ByteBuffer record) {
        if (dropped()) {
            throw new IllegalStateException("record of kind " + RaftRecord.kind(record) + " at log position " + position
                    + " names Raft group id " + id + ", which the DROP record at " + droppedAt + " ended: no record of a dropped"
                    + " group follows its DROP");
        }
        switch (RaftRecord.kind(record)) {
            case RaftRecord.GROUP -> bind(RaftRecord.key(record), position);
            case RaftRecord.DATA, RaftRecord.DATA_CHECKSUM, RaftRecord.ENTRY -> {
                long logIndex = RaftRecord.index(record);
                index.restore(logIndex, position);
                noteEntry(logIndex, position, RaftRecord.isConfiguration(record, CONFIGURATION));
            }
            case RaftRecord.TRUNCATE_PREFIX -> truncatePrefix(RaftRecord.index(record));
            case RaftRecord.TRUNCATE_SUFFIX -> truncateSuffix(RaftRecord.index(record));
            case RaftRecord.RESET -> reset(RaftRecord.index(record), position, RaftRecord.isConfiguration(record, CONFIGURATION));
            case RaftRecord.CHECKPOINT -> {
                long first = RaftRecord.index(record);
                long last = RaftRecord.checkpointLast(record);
                index.restoreBounds(first, last, RaftRecord.checkpointFirstFixed(record));
                configurations.headMap(first).clear();
                configurations.tailMap(last, false).clear();
                bind(RaftRecord.key(record), position);
            }
            case RaftRecord.DROP -> drop(position);
            default -> throw new IllegalStateException("record of unknown kind " + RaftRecord.kind(record) + " at log position "
                    + position + " for Raft group id " + id);
        }
    }

    /** An entry put at {@code logIndex}: replaces whatever was there, configuration or not. */
    void noteEntry(long logIndex, long position, boolean configuration) {
        if (configuration) {
            configurations.put(logIndex, position);
        } else if (!configurations.isEmpty() && configurations.lastKey() >= logIndex) {
            configurations.remove(logIndex); // a rewrite at the same index replaces it (no boxing on plain appends)
        }
    }

    void truncatePrefix(long firstIndexKept) {
        index.truncatePrefix(firstIndexKept);
        configurations.headMap(firstIndexKept).clear();
    }

    void truncateSuffix(long lastIndexKept) {
        index.truncateSuffix(lastIndexKept);
        configurations.tailMap(lastIndexKept, false).clear();
    }

    void reset(long nextLogIndex, long position, boolean configuration) {
        index.reset(nextLogIndex);
        configurations.clear();
        index.put(nextLogIndex, position);
        noteEntry(nextLogIndex, position, configuration);
    }

    /**
     * The group was dropped by the DROP record at {@code position}: its entries and configurations
     * go, and so does its key (the registry forgets it; a storage of the key later gets a new group).
     */
    void drop(long position) {
        index.clear();
        configurations.clear();
        droppedAt = position;
    }

    boolean dropped() {
        return droppedAt >= 0;
    }

    /** A batch of {@code entries} records, {@code bytes} in all, appended; call under mutex. */
    void appended(int entries, long bytes) {
        appendedEntries += entries; // one writer (under mutex): a plain read-add, then a volatile store
        appendedBytes += bytes;
    }

    long appendedEntries() {
        return appendedEntries;
    }

    long appendedBytes() {
        return appendedBytes;
    }

    /** This group's figures, read under the index's read lock (never waiting for a write's flush). */
    RaftGroupStats stats(long durablePosition) {
        lock.readLock().lock();
        try {
            long lowest = index.lowestPosition();
            long pinned = lowest < durablePosition ? durablePosition - lowest : 0;
            return new RaftGroupStats(key, index.entries(), index.first(), index.last(), appendedEntries, appendedBytes, lowest, pinned,
                    System.nanoTime());
        } finally {
            lock.readLock().unlock();
        }
    }

    /** The CHECKPOINT record of the current state; call under mutex. */
    byte[] checkpoint() {
        return RaftRecord.checkpoint(id, index.first(), index.last(), index.firstFixed(), keyBytes);
    }

    void checkpointed(long position) {
        basePosition = position;
    }
}
