package dev.commitlog.metrics;

import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;

/**
 * The live counters of one log. Single-writer counters (written only by the sync thread or the
 * segment allocator) are {@link AtomicLong}s updated with ordered stores; counters that appenders
 * bump are {@link LongAdder}s so that they never contend. {@link #snapshot()} reads them all.
 */
public final class MetricsRecorder {
    private final AtomicLong flushes = new AtomicLong();
    private final AtomicLong recordsFlushed = new AtomicLong();
    private final AtomicLong bytesFlushed = new AtomicLong();
    private final AtomicLong flushNanos = new AtomicLong();
    private final AtomicLong maxFlushNanos = new AtomicLong();
    private final AtomicLong segmentsCreated = new AtomicLong();
    private final LongAdder segmentWaitNanos = new LongAdder();
    private final LongAdder oversizeRejected = new LongAdder();
    private final LongAdder lagBlocks = new LongAdder();

    /** The flush-role holder only (one thread at a time; the role orders them). */
    public void flushCompleted(int records, long bytes, long nanos) {
        flushes.lazySet(flushes.get() + 1);
        recordsFlushed.lazySet(recordsFlushed.get() + records);
        bytesFlushed.lazySet(bytesFlushed.get() + bytes);
        flushNanos.lazySet(flushNanos.get() + nanos);
        if (nanos > maxFlushNanos.get()) {
            maxFlushNanos.lazySet(nanos);
        }
    }

    public void segmentCreated() {
        segmentsCreated.incrementAndGet();
    }

    public void waitedForSegment(long nanos) {
        segmentWaitNanos.add(nanos);
    }

    public void oversizeRejected() {
        oversizeRejected.increment();
    }

    public void lagBlocked() {
        lagBlocks.increment();
    }

    public CommitLogMetrics snapshot(long durablePosition) {
        return new CommitLogMetrics(flushes.get(), recordsFlushed.get(), bytesFlushed.get(), flushNanos.get(),
                maxFlushNanos.get(), segmentsCreated.get(), segmentWaitNanos.sum(), oversizeRejected.sum(),
                lagBlocks.sum(), durablePosition);
    }
}
