package dev.commitlog.raft;

import java.util.concurrent.ConcurrentHashMap;

/**
 * The live log storage of each group key of one shared log: at most one per key, from its
 * successful {@code init} until its {@code shutdown}. Two live storages of one key would be two
 * writers of one group's entries (two JRaft nodes given the same log URI, say), each answering its
 * own leader as if it alone held the group's log; JRaft's RocksDB storage is kept from that by
 * RocksDB's lock on its path, this is the same rule for a group in a shared log.
 *
 * <p>Claims are one {@code putIfAbsent} each: no lock.
 */
final class LiveStorages {
    private final ConcurrentHashMap<String, CommitLogLogStorage> byKey = new ConcurrentHashMap<>();

    /**
     * Makes {@code storage} the live storage of {@code key}, unless another one is.
     *
     * @return null when {@code storage} holds the key now (or held it already); otherwise the live storage that holds it
     */
    CommitLogLogStorage claim(String key, CommitLogLogStorage storage) {
        CommitLogLogStorage holder = byKey.putIfAbsent(key, storage);
        return holder == null || holder == storage ? null : holder;
    }

    /** Ends {@code storage}'s hold on {@code key}; nothing if it does not hold it. */
    void release(String key, CommitLogLogStorage storage) {
        byKey.remove(key, storage);
    }

    /** The live storage of {@code key}, or null. */
    CommitLogLogStorage holder(String key) {
        return byKey.get(key);
    }
}
