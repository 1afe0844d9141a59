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

    /** A group's live entries as copies to append, in index order, and the bytes they take. */
    record Copies(long[] indexes, byte[][] records, long bytes) {
    }

    /**
     * Rewrites {@code group}'s live entries forward if their records total at most
     * {@code maxBytes}; returns the bytes copied, or -1 if it did nothing (too large, no entry, or
     * the group was dropped).
     */
    long rewrite(GroupState group, long maxBytes) {
        synchronized (group.mutex) {
            Copies copies = copies(group, maxBytes);
            if (copies == null) {
                return -1;
            }
            int[] configurationSlots = configurationSlots(group, copies.indexes());
            int count = copies.records().length;
            long[] moved = new long[count];
            long[] batchPositions = new long[CommitLog.MAX_BATCH];
            for (int from = 0; from < count; from += CommitLog.MAX_BATCH) {
                int n = Math.min(CommitLog.MAX_BATCH, count - from);
                log.appendBatch(Arrays.copyOfRange(copies.records(), from, from + n), batchPositions, Ack.DURABLE);
                System.arraycopy(batchPositions, 0, moved, from, n);
            }
            group.lock.writeLock().lock();
            try {
                group.index().moveAll(moved);
                int c = 0;
                for (Map.Entry<Long, Long> configuration : group.configurations().entrySet()) {
                    configuration.setValue(moved[configurationSlots[c++]]);
                }
            } finally {
                group.lock.writeLock().unlock();
            }
            synchronized (this) {
                rewrites++;
                entriesRewritten += count;
                bytesRewritten += copies.bytes();
            }
            return copies.bytes();
        }
    }

    /**
     * The copies of {@code group}'s live entries, or null if there is none, the group was dropped,
     * or they take more than {@code maxBytes}. Call under the group's mutex.
     */
    Copies copies(GroupState group, long maxBytes) {
        PositionIndex index = group.index();
        if (group.dropped() || index.entries() == 0 || index.entries() > maxBytes) { // a record takes a byte at least
            return null;
        }
        int count = Math.toIntExact(index.entries());
        byte[][] records = new byte[count][];
        long[] indexes = new long[count];
        long bytes = 0;
        int k = 0;
        for (long i = index.first(); i <= index.last(); i++) {
            long position = index.get(i);
            if (position < 0) {
                continue;
            }
            byte[] record = log.readAt(position); // the index changes only under the mutex: the record is there
            bytes += record.length;
            if (bytes > maxBytes) {
                return null;
            }
            if (record[0] == RaftRecord.RESET) {
                // The same layout. Replayed, a RESET copy would clear the group: after a crash that kept
                // it but not the copies after it, the entries after it would be gone.
                record[0] = RaftRecord.ENTRY;
            }
            records[k] = record;
            indexes[k++] = i;
        }
        return new Copies(indexes, records, bytes);
    }

    /** Where each configuration entry of {@code group} is among the copies, in the configurations' order. */
    private static int[] configurationSlots(GroupState group, long[] indexes) {
        int[] slots = new int[group.configurations().size()];
        int c = 0;
        for (long configurationIndex : group.configurations().keySet()) {
            int at = Arrays.binarySearch(indexes, configurationIndex);
            if (at < 0) {
                throw new IllegalStateException("Raft group id " + group.id + " has a configuration entry at index " + configurationIndex
                        + " that its index does not hold");
            }
            slots[c++] = at;
        }
        return slots;
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
