package dev.commitlog.bench.sweep;

/**
 * Where a cell is: warming up, measuring, or stopping. The harness thread moves it forward; the
 * writer threads (and, in an asynchronous cell, the log's completion thread) read it with one
 * volatile read per append, the only shared state they read on the hot path.
 */
final class CellPhase {
    static final int WARMUP = 0;
    static final int MEASURE = 1;
    static final int STOP = 2;

    private volatile int phase = WARMUP;

    void measure() {
        phase = MEASURE;
    }

    /** Idempotent; also how a failing writer releases the others. */
    void stop() {
        phase = STOP;
    }

    /** One volatile read: {@link #WARMUP}, {@link #MEASURE} or {@link #STOP}. */
    int now() {
        return phase;
    }

    boolean measuring() {
        return phase == MEASURE;
    }

    boolean stopped() {
        return phase == STOP;
    }
}
