package dev.commitlog.instrument;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import org.HdrHistogram.ValueRecorder;

/**
 * What one appending thread records for one log: its completed appends, whether it is waiting for a
 * flush now, and its share of the append-latency and flush-wait histograms. Created once per thread
 * (in the thread's append context) and registered with the {@link MetricsRecorder}, so that the
 * append path touches only this object: no shared counter, no allocation, no lock.
 *
 * <p>Assumptions and guarantees: only the owning thread calls the recording methods. The counters
 * it publishes for readers ({@link #appends}, {@link #waiting}) are written with opaque stores (a
 * plain store on x86: no fence) and read with opaque loads: a reader sees each value whole and soon,
 * never a value that was not written, and needs no ordering with anything else. The append latency
 * is measured for one append in {@link #SAMPLE_INTERVAL} (timing every append costs two
 * {@code System.nanoTime()} calls, measurable against a Periodic append: see
 * docs/operations.md); the flush wait is measured every time a thread actually waits.
 */
public final class AppenderMetrics {
    /** One append in this many is timed for the append-latency histogram (a power of two). */
    public static final int SAMPLE_INTERVAL = 64;
    private static final long NOT_TIMED = Long.MIN_VALUE;
    private static final VarHandle APPENDS;
    private static final VarHandle WAITING;

    static {
        try {
            MethodHandles.Lookup lookup = MethodHandles.lookup();
            APPENDS = lookup.findVarHandle(AppenderMetrics.class, "appends", long.class);
            WAITING = lookup.findVarHandle(AppenderMetrics.class, "waiting", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    final Thread owner;
    private final ValueRecorder appendLatency;
    private final ValueRecorder flushWait;
    /** Completed appends; opaque stores by the owner. */
    private long appends;
    /** 1 while the owner waits for a flush; opaque stores by the owner. */
    private int waiting;
    /** Owner only: when the current append started, or NOT_TIMED. */
    private long appendStarted = NOT_TIMED;
    /** Owner only: when the current flush wait started. */
    private long waitStarted;

    /** Records nothing: for threads that wait like appenders but are not (the async completion thread). */
    public static AppenderMetrics unrecorded(Thread owner) {
        return new AppenderMetrics(owner, NO_VALUES, NO_VALUES);
    }

    private static final ValueRecorder NO_VALUES = new ValueRecorder() {
        @Override
        public void recordValue(long value) {
        }

        @Override
        public void recordValueWithCount(long value, long count) {
        }

        @Override
        public void recordValueWithExpectedInterval(long value, long expectedIntervalBetweenValueSamples) {
        }

        @Override
        public void reset() {
        }
    };

    AppenderMetrics(Thread owner, ValueRecorder appendLatency, ValueRecorder flushWait) {
        this.owner = owner;
        this.appendLatency = appendLatency;
        this.flushWait = flushWait;
    }

    /** At the start of an append (or claim): times it if it is this thread's sampled one. */
    public void appendStarted() {
        appendStarted = (appends & (SAMPLE_INTERVAL - 1)) == 0 ? System.nanoTime() : NOT_TIMED;
    }

    /** When an append returns its position. */
    public void appendCompleted() {
        long started = appendStarted;
        if (started != NOT_TIMED) {
            appendLatency.recordValue(LatencyHistogram.clamp(System.nanoTime() - started));
            appendStarted = NOT_TIMED;
        }
        APPENDS.setOpaque(this, appends + 1); // opaque store: a snapshot may read it at any time
    }

    /** When the thread finds its record not yet durable and starts waiting for a flush. */
    public void flushWaitStarted() {
        waitStarted = System.nanoTime();
        WAITING.setOpaque(this, 1);
    }

    /** When that wait ends (covered, failed or closed). */
    public void flushWaitEnded() {
        WAITING.setOpaque(this, 0);
        flushWait.recordValue(LatencyHistogram.clamp(System.nanoTime() - waitStarted));
    }

    long appends() {
        return (long) APPENDS.getOpaque(this);
    }

    boolean waiting() {
        return (int) WAITING.getOpaque(this) != 0;
    }
}
