package dev.commitlog.raft;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The lowest position and the entry count that {@link PositionIndex} keeps current equal what a
 * scan of every index finds, after every step of random sequences of puts (appends, gap jumps,
 * rewrites in place, holes filled), prefix and suffix truncations, resets, replay's restores
 * (below the first index too), checkpoint bounds and a rewrite's moves.
 */
class PositionIndexTest {
    private static final long SEED = Long.getLong("commitlog.test.seed", System.nanoTime());
    private static final int SEQUENCES = 3_000;
    private static final int STEPS = 120;

    @Test
    void lowestPositionAndEntryCountMatchAScanAfterEveryStep() {
        int unorderedSteps = 0;
        for (int sequence = 0; sequence < SEQUENCES; sequence++) {
            long seed = SEED + sequence;
            Random random = new Random(seed);
            PositionIndex index = new PositionIndex();
            long position = random.nextInt(100);
            List<String> steps = new ArrayList<>();
            for (int step = 0; step < STEPS; step++) {
                position += 1 + random.nextInt(50) + index.entries(); // room for a move's positions
                steps.add(apply(index, random, position));
                check(index, () -> "seed " + seed + " after " + steps);
                if (!index.ordered()) {
                    unorderedSteps++;
                }
            }
        }
        int unordered = unorderedSteps;
        // Both paths run: the O(1) one for logs whose positions rise with the index, the rescan for the rest.
        assertTrue(unordered > SEQUENCES && unordered < SEQUENCES * STEPS / 2, () -> unordered + " steps out of order");
    }

    /** One random operation; returns what it did, for the failure message. */
    private static String apply(PositionIndex index, Random random, long position) {
        int choice = random.nextInt(100);
        long first = index.first();
        long last = index.last();
        if (choice < 45) { // append at last + 1, as Raft does
            return put(index, last + 1, position);
        } else if (choice < 50) { // a jump past the last index, leaving holes
            return put(index, last + 2 + random.nextInt(6), position);
        } else if (choice < 57 && !index.isEmpty()) { // rewrite or fill any index within the bounds
            return put(index, first + random.nextInt((int) (last - first + 1)), position);
        } else if (choice < 67) {
            long keep = first + random.nextInt((int) Math.max(1, last - first + 3));
            index.truncatePrefix(keep);
            return "truncatePrefix(" + keep + ")";
        } else if (choice < 77) {
            long keep = first - 1 + random.nextInt((int) Math.max(1, last - first + 3));
            index.truncateSuffix(keep);
            return "truncateSuffix(" + keep + ")";
        } else if (choice < 80) {
            long next = Math.max(1, last + random.nextInt(7) - 3);
            index.reset(next);
            index.put(next, position);
            return "reset(" + next + ")+put@" + position;
        } else if (choice < 83) { // a rewrite's copies: every entry to a new position, in index order
            long[] moved = new long[(int) index.entries()];
            for (int k = 0; k < moved.length; k++) {
                moved[k] = position + k;
            }
            index.moveAll(moved);
            return "moveAll(" + moved.length + " from " + position + ")";
        } else if (choice < 92) { // replay: any index, also below the first one
            long at = Math.max(0, first - 3 + random.nextInt((int) Math.max(1, last - first + 8)));
            index.restore(at, position);
            return "restore(" + at + "@" + position + ")";
        } else {
            long newFirst = Math.max(0, first - 2 + random.nextInt(5));
            long newLast = Math.max(newFirst - 1, last - 2 + random.nextInt(5));
            boolean fixed = random.nextBoolean();
            index.restoreBounds(newFirst, newLast, fixed);
            return "restoreBounds(" + newFirst + ", " + newLast + ", " + fixed + ")";
        }
    }

    private static String put(PositionIndex index, long at, long position) {
        if (index.refusal(at) != null) {
            return "refused put(" + at + ")";
        }
        index.put(at, position);
        return "put(" + at + "@" + position + ")";
    }

    private static void check(PositionIndex index, java.util.function.Supplier<String> what) {
        long lowest = Long.MAX_VALUE;
        long entries = 0;
        for (long i = index.first(); i <= index.last(); i++) {
            long position = index.get(i);
            if (position >= 0) {
                entries++;
                lowest = Math.min(lowest, position);
            }
        }
        assertEquals(lowest, index.lowestPosition(), what);
        assertEquals(entries, index.entries(), what);
    }

    @Test
    void aTruncatedIndexGivesItsSlotsBack() {
        PositionIndex index = new PositionIndex();
        for (int i = 1; i <= 100_000; i++) {
            index.put(i, 10L * i);
        }
        assertTrue(index.capacity() >= 100_000);
        index.truncatePrefix(99_991);
        assertTrue(index.capacity() <= 32, index.capacity() + " slots for 10 entries");
        assertEquals(10L * 99_991, index.lowestPosition());
        assertEquals(10L * 100_000, index.get(100_000));
        index.reset(200_000);
        assertTrue(index.capacity() <= 16);
    }

    @Test
    void aPositionNotAboveTheLastOneIsRefused() {
        PositionIndex index = new PositionIndex();
        index.put(1, 100);
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> index.put(2, 100));
        assertTrue(e.getMessage().contains("position 100") && e.getMessage().contains("highest put so far, 100"), e.getMessage());
        assertEquals(1, index.last());
    }
}
