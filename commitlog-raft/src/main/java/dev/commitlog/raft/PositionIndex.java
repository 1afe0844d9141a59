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
 *
 * <p>The lowest position of any entry is kept current, so the compaction reads it in O(1) per
 * group. Positions only rise (each entry is put at a position above every one put before: the
 * log's append order, and replay's), so the lowest entry is the oldest one left. While positions
 * also rise with the index ({@link #ordered}: every Raft log, whose appends continue at the last
 * index and whose truncations cut either end), the oldest entry is the first one from the first
 * index, and a truncation finds the next by stepping over holes only, each made once by a gap
 * fill. An entry put below a later one (a hole filled, an index rewritten in place, replay
 * restoring an index below the first) ends that order; then a truncation or rewrite that removes
 * the lowest entry scans the index once, which also finds out whether the order is back.
 */
final class PositionIndex {
    /**
     * The most missing indexes one entry may skip past the last one ({@code 8 * MAX_GAP} bytes of
     * holes). Raft appends contiguous indexes; JRaft's storage tests skip 99.
     */
    static final int MAX_GAP = 1 << 16;

    private static final long NONE = Long.MAX_VALUE;
    /** Slots of a new or emptied index: an idle group costs little; a busy one doubles from there. */
    private static final int MIN_CAPACITY = 16;

    private long first = 1;
    private long last = 0;
    private boolean firstFixed;
    private long[] positions = new long[MIN_CAPACITY];
    /** The lowest position of any entry and its index; {@link #NONE} when there is no entry. */
    private long lowest = NONE;
    private long lowestIndex;
    /** The highest position put so far: each put must be above it. */
    private long highest = -1;
    /** While a checkpoint's positions are loaded ({@link #load}): they come in index order, not log order. */
    private boolean loading;
    /** Whether the entries' positions rise with their index (see the class doc). */
    private boolean ordered = true;
    /** Indexes holding an entry (holes excluded). */
    private long entries;

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

    /**
     * A checkpoint load's put ({@link IndexCheckpointDecoder}): as {@link #restore}, but the positions
     * come in index order, which need not be the log's order (an index rewritten in place holds a
     * position above later indexes'), so the order is not checked; {@link #loaded} ends the load.
     */
    void load(long index, long position) {
        loading = true;
        restore(index, position);
    }

    /** After the last {@link #load}: the lowest position, the order and the highest position found by one scan. */
    void loaded() {
        loading = false;
        rescan();
        long high = -1;
        for (long i = first; i <= last; i++) {
            high = Math.max(high, positions[(int) (i - first)]);
        }
        highest = Math.max(highest, high);
    }

    private void set(long index, long position) {
        if (loading) {
            if (isEmpty() && !firstFixed) {
                first = index;
                last = index - 1;
            }
            long slot = index - first;
            ensureCapacity((int) slot + 1);
            if (index > last + 1) {
                Arrays.fill(positions, (int) (last + 1 - first), (int) slot, -1L);
            }
            if (index > last || positions[(int) slot] < 0) {
                entries++;
            }
            positions[(int) slot] = position;
            last = Math.max(last, index);
            return;
        }
        if (position <= highest) {
            throw new IllegalStateException("position " + position + " put at index " + index + " is not above the highest put so far, "
                    + highest + ": entries are put in the log's order");
        }
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
        boolean replaces = index <= last && positions[(int) slot] >= 0;
        boolean below = index < last; // an entry may follow: the new, highest position no longer rises with the index
        positions[(int) slot] = position;
        last = Math.max(last, index);
        highest = position;
        if (!replaces) {
            entries++;
        }
        if (lowest == NONE) {
            lowest = position;
            lowestIndex = index;
            ordered = true;
            return;
        }
        boolean wasOrdered = ordered;
        if (below) {
            ordered = false;
        }
        if (replaces && index == lowestIndex) {
            if (wasOrdered) {
                lowestFrom(index + 1);
                if (lowest == NONE) { // the entry put is the only one
                    lowest = position;
                    lowestIndex = index;
                }
            } else {
                rescan();
            }
        }
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
        entries -= entriesBetween(first, Math.min(last, firstIndexKept - 1));
        if (firstIndexKept > last) {
            first = firstIndexKept;
            last = firstIndexKept - 1;
            noEntries();
            positions = shrunk(positions, 0);
            return;
        }
        int drop = (int) (firstIndexKept - first);
        int keep = (int) (last - firstIndexKept + 1);
        long[] kept = shrunk(positions, keep);
        System.arraycopy(positions, drop, kept, 0, keep);
        positions = kept;
        first = firstIndexKept;
        if (lowest != NONE && lowestIndex < firstIndexKept) {
            if (ordered) {
                lowestFrom(firstIndexKept);
            } else {
                rescan();
            }
        }
    }

    /** Drops the entries after {@code lastIndexKept}. */
    void truncateSuffix(long lastIndexKept) {
        if (lastIndexKept >= last) {
            return;
        }
        long newLast = Math.max(lastIndexKept, first - 1);
        entries -= entriesBetween(newLast + 1, last);
        last = newLast;
        if (lowest != NONE && lowestIndex > last) {
            if (ordered) {
                noEntries(); // every entry lay at or after the lowest one
            } else {
                rescan();
            }
        }
    }

    /**
     * Moves every entry to a new position: {@code moved[k]} for the {@code k}-th entry in index
     * order, each above the one before and above every position put so far (a rewrite's copies).
     * The positions then rise with the index.
     */
    void moveAll(long[] moved) {
        if (moved.length != entries) {
            throw new IllegalArgumentException(moved.length + " positions for " + entries + " entries");
        }
        if (moved.length == 0) {
            return;
        }
        for (int k = 0; k < moved.length; k++) { // checked whole before anything changes
            long floor = k == 0 ? highest : moved[k - 1];
            if (moved[k] <= floor) {
                throw new IllegalArgumentException("moved position " + moved[k] + " is not above " + floor
                        + ": a rewrite's copies lie past everything put, in index order");
            }
        }
        int k = 0;
        for (int slot = 0, n = (int) (last - first + 1); slot < n; slot++) {
            if (positions[slot] >= 0) {
                if (k == 0) {
                    lowestIndex = first + slot;
                }
                positions[slot] = moved[k++];
            }
        }
        lowest = moved[0];
        highest = moved[moved.length - 1];
        ordered = true;
    }

    /** Drops every entry and its bounds, giving back the slots: the index of a group that was dropped. */
    void clear() {
        first = 1;
        last = 0;
        firstFixed = false;
        positions = new long[0];
        entries = 0;
        noEntries();
    }

    /** Drops every entry; the next entry is {@code nextLogIndex}. */
    void reset(long nextLogIndex) {
        positions = shrunk(positions, 0);
        first = nextLogIndex;
        last = nextLogIndex - 1;
        firstFixed = true;
        entries = 0;
        noEntries();
    }

    /**
     * Sets the bounds a checkpoint recorded, keeping the entries within them. Replay has put every
     * entry still live at the checkpoint (they all lie above the discard point), so this gives the
     * index the checkpoint saw, whatever the bounds before it.
     */
    void restoreBounds(long newFirst, long newLast, boolean newFirstFixed) {
        int size = (int) Math.max(0, newLast - newFirst + 1);
        long[] rebuilt = new long[Math.max(MIN_CAPACITY, size)];
        Arrays.fill(rebuilt, 0, size, -1L);
        for (long i = Math.max(newFirst, first); i <= Math.min(newLast, last); i++) {
            rebuilt[(int) (i - newFirst)] = positions[(int) (i - first)];
        }
        positions = rebuilt;
        first = newFirst;
        last = newLast;
        firstFixed = newFirstFixed;
        entries = entriesBetween(first, last);
        rescan(); // replay's checkpoint: replay is a pass over the log anyway
    }

    /** The lowest position of any entry, or {@code Long.MAX_VALUE} if there is none: O(1). */
    long lowestPosition() {
        return lowest;
    }

    /** How many indexes hold an entry (holes excluded). */
    long entries() {
        return entries;
    }

    /** Whether the entries' positions rise with their index now (see the class doc); for tests. */
    boolean ordered() {
        return ordered;
    }

    private void noEntries() {
        lowest = NONE;
        ordered = true;
    }

    /** Ordered: the lowest entry is the first one at or after {@code from}. */
    private void lowestFrom(long from) {
        for (long i = Math.max(from, first); i <= last; i++) {
            long position = positions[(int) (i - first)];
            if (position >= 0) {
                lowest = position;
                lowestIndex = i;
                return;
            }
        }
        noEntries();
    }

    /** The lowest entry and whether the order holds, from every slot. */
    private void rescan() {
        long low = NONE;
        long lowIndex = 0;
        long previous = -1;
        boolean rising = true;
        for (long i = first; i <= last; i++) {
            long position = positions[(int) (i - first)];
            if (position < 0) {
                continue;
            }
            if (position < low) {
                low = position;
                lowIndex = i;
            }
            rising &= position > previous;
            previous = position;
        }
        lowest = low;
        lowestIndex = lowIndex;
        ordered = rising;
    }

    /** Entries held at indexes {@code from..to} (within the bounds). */
    private long entriesBetween(long from, long to) {
        long count = 0;
        for (long i = Math.max(from, first); i <= Math.min(to, last); i++) {
            if (positions[(int) (i - first)] >= 0) {
                count++;
            }
        }
        return count;
    }

    /** Slots allocated: what the index costs in memory, 8 bytes each. */
    int capacity() {
        return positions.length;
    }

    /**
     * The array to keep {@code size} slots in: {@code array} itself, or a smaller one once it is
     * four times too large, so that a group that once held many entries does not keep their slots
     * after a snapshot truncates them.
     */
    private static long[] shrunk(long[] array, int size) {
        if (array.length > MIN_CAPACITY && size < array.length / 4) {
            return new long[Math.max(MIN_CAPACITY, size * 2)];
        }
        return array;
    }

    private void ensureCapacity(int needed) {
        if (needed > positions.length) {
            int capacity = (int) Math.min(Integer.MAX_VALUE - 8L, Math.max(needed, (long) positions.length * 2));
            positions = Arrays.copyOf(positions, capacity);
        }
    }
}
