package dev.commitlog.bench.sweep;

import java.time.Duration;

/**
 * How long each cell warms up (appending, not measured: JIT, page cache, segment allocation) and
 * then measures.
 */
public record CellTiming(Duration warmup, Duration measure) {

    /**
     * Short cells so that the default sweep (every mode, three group windows, every peer, and the
     * asynchronous section: 94 cells of about 2.8 s each) fits in about 4.5 minutes on 2 cores. Half
     * a second of warmup is enough because one JVM runs every cell: the append paths are compiled
     * during the first row, and later cells only need their threads running and their first
     * segment or file allocated before the window opens.
     */
    public static final CellTiming DEFAULT = new CellTiming(Duration.ofMillis(500), Duration.ofMillis(2000));
    /** {@code --full}: long enough for steadier figures and several Periodic syncs per cell. */
    public static final CellTiming FULL = new CellTiming(Duration.ofSeconds(5), Duration.ofSeconds(20));
}
