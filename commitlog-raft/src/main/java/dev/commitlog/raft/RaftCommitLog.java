package dev.commitlog.raft;

import com.alipay.sofa.jraft.option.RaftOptions;
import dev.commitlog.Ack;
import dev.commitlog.CommitLog;
import dev.commitlog.config.CommitLogConfig;
import dev.commitlog.config.SyncMode;
import java.io.IOException;
import java.util.Objects;

/**
 * One commit log shared by the log storages of many Raft groups: each group's records carry its
 * group key (see {@link RaftRecord}), so groups never see each other's entries. The shared log
 * outlives the storages over it: shutting a storage down leaves the log open; {@link #close()}
 * closes it.
 */
public final class RaftCommitLog implements AutoCloseable {
    private final CommitLog log;
    private final boolean owned;

    private RaftCommitLog(CommitLog log, boolean owned) {
        this.log = Objects.requireNonNull(log, "log");
        this.owned = owned;
    }

    /** Opens a commit log for Raft groups; {@link #close()} closes it. */
    public static RaftCommitLog open(CommitLogConfig config) throws IOException {
        return new RaftCommitLog(CommitLog.open(config), true);
    }

    /** Wraps a log the caller opened and closes itself; {@link #close()} leaves it open. */
    public static RaftCommitLog over(CommitLog log) {
        return new RaftCommitLog(log, false);
    }

    /** A log storage for the group (or node) that {@code groupKey} names, on this log. */
    public CommitLogLogStorage storage(String groupKey, RaftOptions raftOptions) {
        return new CommitLogLogStorage(this, groupKey, raftOptions);
    }

    public CommitLog log() {
        return log;
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

    @Override
    public void close() {
        if (owned) {
            log.close();
        }
    }
}
