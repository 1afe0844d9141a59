package dev.commitlog.raft;

import java.util.Arrays;

/**
 * One group's map from log index to commit-log position: a growable array offset by the first
 * log index. {@code -1} marks an index with no entry (a gap, or one cut by a truncation).
 *
 * <p>Invariants: {@code last >= first - 1}; {@code positions[i - first]} holds index {@code i} for
 * {@code first <= i <= last}. An empty index whose first index was never set by a truncation or
 * a reset takes its first index from the first entry put (an empty log starts at 1 until then).
 * Not thread-safe: the storage guards it.
 */
final class PositionIndex {
    private long first = 1;
    private long last = 0;
    private boolean firstFixed;
    private long[] positions = new long[64];

    long first() {
        return first;
    }

    long last() {
        return last;
    }

    boolean isEmpty() {
        return last < first;
    }

    /** The position of {@code index}, or -1 if the index holds no entry. */
    long get(long index) {
        if (index < first || index > last) {
            return -1;
        }
        return positions[(int) (index - first)];
    }

    /** Whether {@link #put} accepts {@code index}: never below the first index kept. */
    boolean accepts(long index) {
        return index >= 0 && (index >= first || (isEmpty() && !firstFixed));
    }

    void put(long index, long position) {
        if (isEmpty() && !firstFixed) {
            first = index;
            last = index - 1;
        }
        if (index < first) {
            throw new IllegalArgumentException("index " + index + " is below the first index " + first);
        }
        long slot = index - first;
        if (slot >= Integer.MAX_VALUE - 8) {
            throw new IllegalArgumentException("index " + index + " is too far past the first index " + first);
        }
        ensureCapacity((int) slot + 1);
        if (index > last + 1) {
            Arrays.fill(positions, (int) (last + 1 - first), (int) slot, -1L);
        }
        positions[(int) slot] = position;
        last = Math.max(last, index);
    }

    /** Drops the entries below {@code firstIndexKept}, which becomes the first index. */
    void truncatePrefix(long firstIndexKept) {
        if (firstIndexKept <= first) {
            firstFixed = true;
            if (isEmpty()) {
                first = Math.max(first, firstIndexKept);
                last = first - 1;
            }
            return;
        }
        firstFixed = true;
        if (firstIndexKept > last) {
            first = firstIndexKept;
            last = firstIndexKept - 1;
            return;
        }
        int drop = (int) (firstIndexKept - first);
        int keep = (int) (last - firstIndexKept + 1);
        System.arraycopy(positions, drop, positions, 0, keep);
        first = firstIndexKept;
    }

    /** Drops the entries after {@code lastIndexKept}. */
    void truncateSuffix(long lastIndexKept) {
        if (lastIndexKept >= last) {
            return;
        }
        last = Math.max(lastIndexKept, first - 1);
    }

    /** Drops every entry; the next entry is {@code nextLogIndex}. */
    void reset(long nextLogIndex) {
        first = nextLogIndex;
        last = nextLogIndex - 1;
        firstFixed = true;
    }

    private void ensureCapacity(int needed) {
        if (needed > positions.length) {
            int capacity = (int) Math.min(Integer.MAX_VALUE - 8L, Math.max(needed, (long) positions.length * 2));
            positions = Arrays.copyOf(positions, capacity);
        }
    }
}
