package dev.commitlog.raft;

import com.alipay.sofa.jraft.option.RaftOptions;
import dev.commitlog.Ack;
import dev.commitlog.CommitLog;

/**
 * What a group's log storage ({@link CommitLogLogStorage}) asks of the shared log it is on: the
 * storage is handed out by {@link RaftCommitLog#storage}, which implements this, and knows the
 * shared log through nothing else, so the shared log depends on its storages and never the other
 * way round.
 */
interface StorageHost {
    /** The shared commit log the group's records go to. */
    CommitLog log();

    /**
     * The acknowledgement the storage's appends ask for under {@code raftOptions}.
     *
     * @throws IllegalArgumentException if {@code raftOptions} asks for sync and the log syncs periodically
     */
    Ack ackFor(RaftOptions raftOptions);

    /**
     * Makes {@code storage} the live storage of {@code groupKey}, unless the shared log is closed or
     * something else holds the key.
     *
     * @return null when {@code storage} holds the key now; otherwise why it does not
     */
    String claim(String groupKey, Object storage);

    /** Ends {@code storage}'s hold on {@code groupKey}; nothing if it does not hold it. */
    void release(String groupKey, Object storage);

    /** The state of the group {@code groupKey} names, loading every group first if none was loaded yet. */
    GroupState group(String groupKey);

    /** After a batch ending at {@code position}: the retained-bytes check, when one is due. */
    void appended(long position);

    /** After a group's first index moved: compacts if the cut gains at least a segment. */
    void firstIndexMoved();
}
