package dev.commitlog.raft;

import java.util.Arrays;

/**
 * One group's map from log index to commit-log position: a growable array offset by the first
 * log index. {@code -1} marks an index with no entry (a gap, or one cut by a truncation).
 *
 * <p>Invariants: {@code last >= first - 1}; {@code positions[i - first]} holds index {@code i} for
 * {@code first <= i <= last}; slots past {@code last} are stale and rewritten before use. An empty
 * index whose first index was never set by a truncation or a reset takes its first index from the
 * first entry put (an empty log starts at 1 until then). The array never spans more than the
 * entries put plus {@link #MAX_GAP} per jump, because {@link #put} refuses a longer jump. Not
 * thread-safe: the group state guards it.
 */
final class PositionIndex {
    /**
     * The most missing indexes one entry may skip past the last one ({@code 8 * MAX_GAP} bytes of
     * holes). Raft appends contiguous indexes; JRaft's storage tests skip 99.
     */
    static final int MAX_GAP = 1 << 16;

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

    boolean firstFixed() {
        return firstFixed;
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

    /** Why {@link #put} refuses {@code index}, or null if it accepts it. */
    String refusal(long index) {
        return refusal(index, -1, -1);
    }

    /**
     * Why {@link #put} would refuse {@code index} once the earlier entries of a batch, the lowest
     * {@code batchFirst} and the highest {@code batchLast} (both -1 for none), are put; null if it
     * would accept it. Lets a batch be checked whole before any of it is written.
     */
    String refusal(long index, long batchFirst, long batchLast) {
        boolean batchEmpty = batchFirst < 0;
        boolean takesFirst = isEmpty() && !firstFixed;
        long effectiveFirst = takesFirst ? (batchEmpty ? index : batchFirst) : first;
        if (index < 0 || index < effectiveFirst) {
            return "index " + index + " is below the first index kept " + effectiveFirst;
        }
        if (takesFirst && batchEmpty) {
            return null;
        }
        long effectiveLast = batchEmpty ? last : takesFirst ? batchLast : Math.max(last, batchLast);
        long gap = index - effectiveLast - 1;
        if (gap > MAX_GAP) {
            return "index " + index + " leaves " + gap + " missing indexes after the last index " + effectiveLast
                    + ", more than the " + MAX_GAP + " a group's index allows";
        }
        return null;
    }

    /**
     * Maps {@code index} to {@code position}.
     *
     * @throws IllegalArgumentException if {@link #refusal} names a reason
     */
    void put(long index, long position) {
        String refused = refusal(index);
        if (refused != null) {
            throw new IllegalArgumentException(refused);
        }
        set(index, position);
    }

    /**
     * Replay's put: takes any index, growing the array downwards below the first index if needed.
     * Replay after a discard starts from a group's checkpoint-free state, so its bounds may differ
     * from those the appends saw until the group's checkpoint record restores them.
     */
    void restore(long index, long position) {
        if (index >= 0 && index < first && !isEmpty()) {
            int shift = Math.toIntExact(first - index);
            int size = (int) (last - first + 1);
            long[] grown = new long[Math.max(positions.length, size + shift)];
            System.arraycopy(positions, 0, grown, shift, size);
            Arrays.fill(grown, 0, shift, -1L);
            positions = grown;
            first = index;
        }
        if (isEmpty() && index < first) {
            first = index;
            last = index - 1;
        }
        set(index, position);
    }

    private void set(long index, long position) {
        if (isEmpty() && !firstFixed) {
            first = index;
            last = index - 1;
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

    /**
     * Sets the bounds a checkpoint recorded, keeping the entries within them. Replay has put every
     * entry still live at the checkpoint (they all lie above the discard point), so this gives the
     * index the checkpoint saw, whatever the bounds before it.
     */
    void restoreBounds(long newFirst, long newLast, boolean newFirstFixed) {
        int size = (int) Math.max(0, newLast - newFirst + 1);
        long[] rebuilt = new long[Math.max(64, size)];
        Arrays.fill(rebuilt, 0, size, -1L);
        for (long i = Math.max(newFirst, first); i <= Math.min(newLast, last); i++) {
            rebuilt[(int) (i - newFirst)] = positions[(int) (i - first)];
        }
        positions = rebuilt;
        first = newFirst;
        last = newLast;
        firstFixed = newFirstFixed;
    }

    /** The lowest position of any entry, or {@code Long.MAX_VALUE} if there is none. */
    long lowestPosition() {
        long lowest = Long.MAX_VALUE;
        for (int i = 0, n = (int) (last - first + 1); i < n; i++) {
            long position = positions[i];
            if (position >= 0 && position < lowest) {
                lowest = position;
            }
        }
        return lowest;
    }

    /** Slots allocated: what the index costs in memory, 8 bytes each. */
    int capacity() {
        return positions.length;
    }

    private void ensureCapacity(int needed) {
        if (needed > positions.length) {
            int capacity = (int) Math.min(Integer.MAX_VALUE - 8L, Math.max(needed, (long) positions.length * 2));
            positions = Arrays.copyOf(positions, capacity);
        }
    }
}
