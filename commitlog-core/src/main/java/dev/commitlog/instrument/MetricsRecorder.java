package dev.commitlog.instrument;

import dev.commitlog.metrics.CommitLogMetrics;
import java.util.Iterator;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;

/**
 * The live counters and histograms of one log. Single-writer counters (written only by the sync
 * thread or the segment allocator) are {@link AtomicLong}s updated with ordered stores; counters
 * that appenders bump on rare paths are {@link LongAdder}s so that they never contend; what every
 * append records goes to the appending thread's own {@link AppenderMetrics}. {@link #snapshot}
 * reads them all.
 */
public final class MetricsRecorder {
    /** Stripes of the histograms appenders record into: enough that threads rarely share one. */
    private static final int STRIPES = Math.min(8, Runtime.getRuntime().availableProcessors());

    private final AtomicLong flushes = new AtomicLong();
    private final AtomicLong recordsFlushed = new AtomicLong();
    private final AtomicLong bytesFlushed = new AtomicLong();
    private final AtomicLong flushNanos = new AtomicLong();
    private final AtomicLong maxFlushNanos = new AtomicLong();
    private final AtomicLong segmentsCreated = new AtomicLong();
    private final AtomicLong segmentsRecycled = new AtomicLong();
    private final LongAdder segmentWaitNanos = new LongAdder();
    private final LongAdder oversizeRejected = new LongAdder();
    private final LongAdder lagBlocks = new LongAdder();
    private final LongAdder spaceRequests = new LongAdder();
    private final LongAdder segmentsArchived = new LongAdder();
    private final LongAdder archiveFailures = new LongAdder();

    private final LatencyHistogram appendLatency = LatencyHistogram.striped(STRIPES);
    private final LatencyHistogram waitingOnCommit = LatencyHistogram.striped(STRIPES);
    private final LatencyHistogram waitingOnFlush = LatencyHistogram.singleWriter();
    private final LatencyHistogram waitingOnSegmentAllocation = LatencyHistogram.striped(1);

    private final ConcurrentLinkedQueue<AppenderMetrics> appenders = new ConcurrentLinkedQueue<>();
    private final AtomicInteger appendersRegistered = new AtomicInteger();
    /** Registrations between two sweeps for dead threads' recorders. */
    static final int RETIRE_EVERY = 64;
    /** Appends completed by threads that have since died (folded in by snapshots). */
    private long retiredAppends;

    /**
     * A new appending thread's recorder (once per thread and log, off the per-append path): it
     * records into the histogram stripes in turn, so threads are spread evenly.
     */
    public AppenderMetrics registerAppender(Thread thread) {
        int index = appendersRegistered.getAndIncrement();
        AppenderMetrics metrics = new AppenderMetrics(thread, appendLatency.writer(index), waitingOnCommit.writer(index));
        appenders.add(metrics);
        if (index % RETIRE_EVERY == RETIRE_EVERY - 1) {
            // Without it the dead threads' recorders (and their Thread objects) would pile up until a
            // snapshot: without bound where every append comes from a new thread (a virtual thread
            // per request) and nobody reads the metrics.
            retireDeadAppenders();
        }
        return metrics;
    }

    /** Recorders held: the live appending threads' and at most {@link #RETIRE_EVERY} dead ones'. */
    int appendersHeld() {
        return appenders.size();
    }

    /** The flush-role holder only (one thread at a time; the role orders them). */
    public void flushCompleted(int records, long bytes, long nanos) {
        flushes.lazySet(flushes.get() + 1);
        recordsFlushed.lazySet(recordsFlushed.get() + records);
        bytesFlushed.lazySet(bytesFlushed.get() + bytes);
        flushNanos.lazySet(flushNanos.get() + nanos);
        if (nanos > maxFlushNanos.get()) {
            maxFlushNanos.lazySet(nanos);
        }
        waitingOnFlush.record(nanos);
    }

    public void segmentCreated() {
        segmentsCreated.incrementAndGet();
    }

    /** A spare file became a segment (commitlog_recycle_segments): no file created, nothing zero-filled on the device. */
    public void segmentRecycled() {
        segmentsRecycled.incrementAndGet();
    }

    public void waitedForSegment(long nanos) {
        segmentWaitNanos.add(nanos);
        waitingOnSegmentAllocation.record(nanos);
    }

    public void oversizeRejected() {
        oversizeRejected.increment();
    }

    public void lagBlocked() {
        lagBlocks.increment();
    }

    /** The space listener was asked to persist data so that segments can be discarded. */
    public void spaceRequested() {
        spaceRequests.increment();
    }

    public void segmentArchived() {
        segmentsArchived.increment();
    }

    public void archiveFailed() {
        archiveFailures.increment();
    }

    /** Folds the counts of recorders whose threads have died into {@link #retiredAppends} and drops the recorders. */
    private synchronized void retireDeadAppenders() {
        for (Iterator<AppenderMetrics> it = appenders.iterator(); it.hasNext(); ) {
            AppenderMetrics appender = it.next();
            if (!appender.owner.isAlive()) {
                retiredAppends += appender.appends(); // read after isAlive: a dead thread's count is final
                it.remove();
            }
        }
    }

    /**
     * @param durablePosition the log position below which everything is durable
     * @param totalSize       bytes of segment files in the log directory
     */
    public synchronized CommitLogMetrics snapshot(long durablePosition, long totalSize) {
        retireDeadAppenders();
        long completed = retiredAppends;
        int waiting = 0;
        for (AppenderMetrics appender : appenders) {
            completed += appender.appends();
            waiting += appender.waiting() ? 1 : 0;
        }
        return new MetricsSnapshot(flushes.get(), recordsFlushed.get(), bytesFlushed.get(), flushNanos.get(),
                maxFlushNanos.get(), segmentsCreated.get(), segmentsRecycled.get(), segmentWaitNanos.sum(), oversizeRejected.sum(),
                lagBlocks.sum(), durablePosition, completed, waiting, totalSize, spaceRequests.sum(),
                segmentsArchived.sum(), archiveFailures.sum(), appendLatency.snapshot(), waitingOnCommit.snapshot(),
                waitingOnFlush.snapshot(), waitingOnSegmentAllocation.snapshot());
    }
}
