package dev.commitlog.bench.sut;

/**
 * Cumulative flush counters as a system reports them: how many flushes it issued and how many
 * records those flushes covered. The harness takes the difference of two snapshots.
 *
 * @param flushes cumulative flushes (fsync/fdatasync/msync calls the system counts as one flush)
 * @param records cumulative records made durable by those flushes
 */
public record FlushCounters(long flushes, long records) {

    /** For systems that do not count their flushes (Chronicle Queue never flushes on append). */
    public static final FlushCounters UNKNOWN = new FlushCounters(-1, -1);

    public boolean known() {
        return flushes >= 0 && records >= 0;
    }
}
