package dev.commitlog.bench.pair;

import java.time.Duration;

/**
 * How a duel is sliced: after {@code warmup} (half on each system), {@code pairs} pairs of
 * slices, each slice a {@code settle} period (the previous system's last appends return, the next
 * one's threads arrive; not measured) and then {@code slice} measured.
 */
public record DuelTiming(int pairs, Duration slice, Duration settle, Duration warmup) {

    /**
     * 60 pairs of 200 ms slices, about 30 s per row. Measured here in an A/A duel (Batch against
     * Batch, one thread): 50 pairs of 200 ms gave an interval about 10% wide, 20 pairs of 500 ms
     * one about 20% wide; adjacent 200 ms slices still differ by up to 30% on this VM, so many
     * short pairs beat a few long ones.
     */
    public static final DuelTiming DEFAULT = new DuelTiming(60, Duration.ofMillis(200), Duration.ofMillis(50),
            Duration.ofSeconds(1));

    /** Wall time of one row, for progress lines. */
    Duration rowTime() {
        return slice.plus(settle).multipliedBy(2L * pairs).plus(warmup);
    }
}
