package dev.commitlog.raft;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Heap per group and per indexed entry (docs/raft.md, figures), from used-heap deltas after full
 * collections, each the median of several repetitions. Not a test: run it alone, e.g. with
 * {@code -Xmx2g -XX:+UseSerialGC} so that a collection leaves only what is reachable.
 *
 * <pre>
 * java -Xmx2g -XX:+UseSerialGC -cp ... dev.commitlog.raft.IndexMemoryProbe
 * </pre>
 */
public final class IndexMemoryProbe {
    private static final int REPEATS = 7;

    private IndexMemoryProbe() {
    }

    public static void main(String[] args) throws Exception {
        System.out.println("| what | count | bytes each (median of " + REPEATS + ") | min | max |");
        System.out.println("|---|---:|---:|---:|---:|");
        for (int groups : new int[] {10_000, 100_000}) {
            report("group, no entry (state, index, locks, registry entries, 28-byte key)", groups, () -> groups(groups));
        }
        for (int entries : new int[] {100_000, 1_000_000, 1 << 20, 1_500_000}) {
            report("indexed entry, one group", entries, () -> entries(entries, 1));
        }
        report("indexed entry, 1,000 groups of 1,000", 1_000_000, () -> entries(1_000, 1_000));
        report("indexed entry, 10,000 groups of 100", 1_000_000, () -> entries(100, 10_000));
        report("slots left after truncating 1,000,000 entries to 10", 1, () -> truncated());
    }

    private interface Measure {
        /** Builds something, returns the used-heap bytes it holds (kept reachable until measured). */
        long bytes() throws Exception;
    }

    private static void report(String what, long count, Measure measure) throws Exception {
        long[] each = new long[REPEATS];
        measure.bytes(); // warm-up: classes loaded, code compiled
        for (int r = 0; r < REPEATS; r++) {
            each[r] = measure.bytes();
        }
        Arrays.sort(each);
        System.out.printf("| %s | %,d | %.1f | %.1f | %.1f |%n", what, count, (double) each[REPEATS / 2] / count, (double) each[0] / count,
                (double) each[REPEATS - 1] / count);
    }

    static long used() throws InterruptedException {
        Runtime runtime = Runtime.getRuntime();
        long used = Long.MAX_VALUE;
        for (int i = 0; i < 4; i++) {
            System.gc();
            Thread.sleep(20);
            used = Math.min(used, runtime.totalMemory() - runtime.freeMemory());
        }
        return used;
    }

    /**
     * {@code count} groups as the registry holds them, without a log (whose own buffers would blur
     * the figure): a bound {@link GroupState} each (its index, locks, configurations map, key and
     * key bytes) in a list by id and a map by key.
     */
    private static long groups(int count) throws Exception {
        long before = used();
        List<GroupState> byId = new ArrayList<>();
        Map<String, GroupState> byKey = new HashMap<>();
        for (int i = 0; i < count; i++) {
            GroupState state = new GroupState(i + 1);
            state.bind(String.format("/data/raft/region-%08d/log", i), 64L * i);
            byId.add(state);
            byKey.put(state.key(), state);
        }
        long after = used();
        if (byKey.size() != count || byId.size() != count) {
            throw new AssertionError("groups lost");
        }
        return after - before;
    }

    /** {@code groups} indexes of {@code perGroup} entries each, appended in order. */
    private static long entries(int perGroup, int groups) throws Exception {
        long before = used();
        PositionIndex[] indexes = new PositionIndex[groups];
        long position = 0;
        for (int g = 0; g < groups; g++) {
            indexes[g] = new PositionIndex();
        }
        for (int i = 1; i <= perGroup; i++) {
            for (PositionIndex index : indexes) {
                index.put(i, position += 160);
            }
        }
        long after = used();
        long held = 0;
        for (PositionIndex index : indexes) {
            held += index.entries();
        }
        if (held != (long) perGroup * groups) {
            throw new AssertionError("entries lost");
        }
        // The empty indexes themselves are part of a group's cost: count only what the entries add.
        long empty = (long) groups * emptyIndexBytes();
        return after - before - empty;
    }

    private static long emptyIndex = -1;

    private static long emptyIndexBytes() throws InterruptedException {
        if (emptyIndex < 0) {
            int n = 100_000;
            long before = used();
            PositionIndex[] indexes = new PositionIndex[n];
            for (int i = 0; i < n; i++) {
                indexes[i] = new PositionIndex();
            }
            long after = used();
            emptyIndex = (after - before - 16L - 4L * n) / n; // minus the holding array
            if (indexes[n - 1].entries() != 0) {
                throw new AssertionError();
            }
        }
        return emptyIndex;
    }

    private static long truncated() throws InterruptedException {
        long before = used();
        PositionIndex index = new PositionIndex();
        for (int i = 1; i <= 1_000_000; i++) {
            index.put(i, 160L * i);
        }
        index.truncatePrefix(999_991);
        long after = used();
        if (index.entries() != 10) {
            throw new AssertionError();
        }
        return after - before;
    }
}
