package dev.commitlog.raft;

import dev.commitlog.Ack;
import dev.commitlog.CommitLog;
import java.util.Arrays;
import java.util.Map;

/**
 * Rewrites a group's live entries forward: copies of their records appended at the end of the
 * shared log, so that the group no longer holds the segments of the old ones.
 *
 * <p>All or nothing per group: the copies are appended (in index order, up to
 * {@link CommitLog#MAX_BATCH} per wait) and made durable before the group's index switches to
 * them, all at once under the write lock; until then readers and the compaction see the old
 * positions, so nothing is discarded from under them. Each copy is the old record byte for byte
 * (a RESET record becomes the ENTRY record of the entry it kept: same fields, so replay puts the
 * entry without clearing the group), so replay reads the same entry from either: a crash that keeps
 * any prefix of the copies restarts with the entries the group had, at old positions, new ones or
 * both, and the old records are still there because the cut never passed them. No marker record is
 * needed.
 *
 * <p>Runs under the group's mutex, so no write of the group falls between the read of its entries
 * and the switch; the group's own writes wait for the rewrite. Not on the append path: it allocates
 * a copy per entry.
 */
final class GroupRewrite {
    private final CommitLog log;
    /** Entries and bytes rewritten: for the figures and tests; guarded by this. */
    private long entriesRewritten;
    private long bytesRewritten;
    private int rewrites;

    GroupRewrite(CommitLog log) {
        this.log = log;
    }

    /**
     * Rewrites {@code group}'s live entries forward if their records total at most
     * {@code maxBytes}; returns the bytes copied, or -1 if it did nothing (too large, no entry, or
     * the group was dropped).
     */
    long rewrite(GroupState group, long maxBytes) {
        synchronized (group.mutex) {
            PositionIndex index = group.index();
            if (group.dropped() || index.entries() == 0 || index.entries() > maxBytes) { // a record takes a byte at least
                return -1;
            }
            int count = Math.toIntExact(index.entries());
            byte[][] copies = new byte[count][];
            long[] indexes = new long[count];
            long bytes = 0;
            int k = 0;
            for (long i = index.first(); i <= index.last(); i++) {
                long position = index.get(i);
                if (position < 0) {
                    continue;
                }
                byte[] record = log.readAt(position); // the index changes only under this mutex: the record is there
                bytes += record.length;
                if (bytes > maxBytes) {
                    return -1;
                }
                if (record[0] == RaftRecord.RESET) {
                    record[0] = RaftRecord.ENTRY; // the same layout; an ENTRY puts the entry, a RESET would clear the group first
                }
                copies[k] = record;
                indexes[k++] = i;
            }
            int[] configurationSlots = new int[group.configurations().size()];
            int c = 0;
            for (long configurationIndex : group.configurations().keySet()) {
                int at = Arrays.binarySearch(indexes, configurationIndex);
                if (at < 0) {
                    throw new IllegalStateException("Raft group id " + group.id + " has a configuration entry at index " + configurationIndex
                            + " that its index does not hold");
                }
                configurationSlots[c++] = at;
            }
            long[] moved = new long[count];
            long[] batchPositions = new long[CommitLog.MAX_BATCH];
            for (int from = 0; from < count; from += CommitLog.MAX_BATCH) {
                int n = Math.min(CommitLog.MAX_BATCH, count - from);
                log.appendBatch(Arrays.copyOfRange(copies, from, from + n), batchPositions, Ack.DURABLE);
                System.arraycopy(batchPositions, 0, moved, from, n);
            }
            group.lock.writeLock().lock();
            try {
                index.moveAll(moved);
                c = 0;
                for (Map.Entry<Long, Long> configuration : group.configurations().entrySet()) {
                    configuration.setValue(moved[configurationSlots[c++]]);
                }
            } finally {
                group.lock.writeLock().unlock();
            }
            synchronized (this) {
                rewrites++;
                entriesRewritten += count;
                bytesRewritten += bytes;
            }
            return bytes;
        }
    }

    synchronized int rewrites() {
        return rewrites;
    }

    synchronized long entriesRewritten() {
        return entriesRewritten;
    }

    synchronized long bytesRewritten() {
        return bytesRewritten;
    }
}
