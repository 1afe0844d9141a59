package dev.commitlog.bench.pair;

/**
 * Which system owns each slice of a duel: pairs of adjacent slices, in the order ABBA BAAB
 * repeated, so that a rate drifting during the run, and whatever one system leaves behind for the
 * next slice (dirty pages, a busy device queue), weigh on both alike.
 */
public final class SliceSchedule {
    public static final int A = 0;
    public static final int B = 1;
    private static final int[] PATTERN = {A, B, B, A, B, A, A, B};

    private SliceSchedule() {
    }

    /** The owner of slice {@code slice} (0-based); pair p is slices 2p and 2p + 1. */
    public static int owner(int slice) {
        return PATTERN[slice % PATTERN.length];
    }

    /** The slice of pair {@code pair} that {@code system} owns. */
    public static int sliceOf(int pair, int system) {
        return owner(2 * pair) == system ? 2 * pair : 2 * pair + 1;
    }
}
