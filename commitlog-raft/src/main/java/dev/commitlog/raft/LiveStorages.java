package dev.commitlog.raft;

import java.util.concurrent.ConcurrentHashMap;

/**
 * The live log storage of each group key of one shared log: at most one per key, from its
 * successful {@code init} until its {@code shutdown}. Two live storages of one key would be two
 * writers of one group's entries (two JRaft nodes given the same log URI, say), each answering its
 * own leader as if it alone held the group's log; JRaft's RocksDB storage is kept from that by
 * RocksDB's lock on its path, this is the same rule for a group in a shared log.
 *
 * <p>{@link RaftCommitLog#drop} holds the key the same way while it drops the group, so no storage
 * inits into a group being dropped. Claims are one {@code putIfAbsent} each: no lock.
 */
final class LiveStorages {
    /** What holds a key while its group is dropped. */
    static final Object DROPPING = new Object() {
        @Override
        public String toString() {
            return "a drop of its group, in progress";
        }
    };

    private final ConcurrentHashMap<String, Object> byKey = new ConcurrentHashMap<>();

    /**
     * Makes {@code storage} the live storage of {@code key}, unless another one is.
     *
     * @return null when {@code storage} holds the key now (or held it already); otherwise what holds
     *         it: the live storage, or {@link #DROPPING}
     */
    Object claim(String key, Object storage) {
        Object holder = byKey.putIfAbsent(key, storage);
        return holder == null || holder == storage ? null : holder;
    }

    /** Ends {@code storage}'s hold on {@code key}; nothing if it does not hold it. */
    void release(String key, Object storage) {
        byKey.remove(key, storage);
    }

    /** What holds {@code key} (its live storage, or {@link #DROPPING}), or null. */
    Object holder(String key) {
        return byKey.get(key);
    }
}
