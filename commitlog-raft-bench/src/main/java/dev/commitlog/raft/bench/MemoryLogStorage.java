package dev.commitlog.raft.bench;

import com.alipay.sofa.jraft.entity.LogEntry;
import com.alipay.sofa.jraft.option.LogStorageOptions;
import com.alipay.sofa.jraft.storage.LogStorage;
import java.util.ArrayList;
import java.util.List;

/**
 * The benchmark's ceiling, not a storage: JRaft's entries kept in a list, with no encoding, no
 * file and no sync. What a node reaches with it is what JRaft, its RPC and the state machine allow
 * on this machine when storage costs nothing; no durable storage can commit faster at a cell. It
 * keeps every entry (the benchmark takes no snapshots), so it is only fit for short measurements.
 *
 * <p>One lock: JRaft's log manager appends and truncates from its own thread while replicators
 * read entries from theirs.
 */
final class MemoryLogStorage implements LogStorage {
    private final List<LogEntry> entries = new ArrayList<>();
    /** The index of {@code entries.get(0)}, and of the next append when the list is empty. */
    private long firstIndex = 1;

    @Override
    public synchronized boolean init(LogStorageOptions opts) {
        return true;   // a fresh node: nothing to reload, no configuration entries
    }

    @Override
    public synchronized void shutdown() {
        entries.clear();
    }

    @Override
    public synchronized long getFirstLogIndex() {
        return firstIndex;
    }

    @Override
    public synchronized long getLastLogIndex() {
        return firstIndex + entries.size() - 1;
    }

    @Override
    public synchronized LogEntry getEntry(long index) {
        long at = index - firstIndex;
        return at >= 0 && at < entries.size() ? entries.get((int) at) : null;
    }

    @Override
    @Deprecated
    public long getTerm(long index) {
        LogEntry entry = getEntry(index);
        return entry == null ? 0 : entry.getId().getTerm();
    }

    @Override
    public boolean appendEntry(LogEntry entry) {
        return appendEntries(List.of(entry)) == 1;
    }

    @Override
    public synchronized int appendEntries(List<LogEntry> batch) {
        for (LogEntry entry : batch) {
            if (entry.getId().getIndex() != firstIndex + entries.size()) {
                throw new IllegalStateException("entry " + entry.getId().getIndex() + " does not follow "
                        + getLastLogIndex());
            }
            entries.add(entry);
        }
        return batch.size();
    }

    @Override
    public synchronized boolean truncatePrefix(long firstIndexKept) {
        long drop = Math.min(firstIndexKept - firstIndex, entries.size());
        if (drop > 0) {
            entries.subList(0, (int) drop).clear();
        }
        firstIndex = Math.max(firstIndex, firstIndexKept);
        return true;
    }

    @Override
    public synchronized boolean truncateSuffix(long lastIndexKept) {
        long keep = Math.max(0, lastIndexKept - firstIndex + 1);
        if (keep < entries.size()) {
            entries.subList((int) keep, entries.size()).clear();
        }
        return true;
    }

    @Override
    public synchronized boolean reset(long nextLogIndex) {
        entries.clear();
        firstIndex = nextLogIndex;
        return true;
    }
}
