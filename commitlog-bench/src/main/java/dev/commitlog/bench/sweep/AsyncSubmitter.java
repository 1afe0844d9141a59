package dev.commitlog.bench.sweep;

import dev.commitlog.AppendCallback;
import dev.commitlog.CommitLog;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.HdrHistogram.Histogram;

/**
 * One submitting thread of an asynchronous cell, and the callback of its appends: keeps up to
 * {@code inFlight} {@code appendAsync} calls outstanding and records each one's submit-to-completion
 * latency. Nothing is allocated per append: this object is the callback of every append it submits.
 *
 * <p>Assumptions and guarantees:
 * <ul>
 *   <li>{@link #submitUntilStopped} runs on the owning thread only; {@link #durable} and
 *       {@link #failed} run on the log's completion thread only, in log position order. One
 *       thread's appends take increasing positions, so the n-th completion of this callback is its
 *       n-th submission, and its submit time is {@code submitNanos[n & mask]}: no map, no boxing.</li>
 *   <li>The owner writes that slot (plain) before calling {@code appendAsync}, which publishes it
 *       to the completion thread (the log's completion ring is published with a volatile store).
 *       The owner never has more than {@code inFlight <= submitNanos.length} appends outstanding,
 *       so a slot is never overwritten before its completion has read it.</li>
 *   <li>{@code completed} and the histogram are written by the completion thread only; the owner
 *       reads the histogram only after it has seen every submission completed (volatile read),
 *       and the harness only after joining the owner.</li>
 *   <li>No lost wake-up: at the limit, the owner spins briefly, then stores {@code parked} and
 *       re-reads {@code completed} before parking; the completion thread stores {@code completed}
 *       and then reads {@code parked} (all volatile, so one of the two sees the other). Parks are
 *       bounded anyway, so a stalled log is reported rather than waited on forever.</li>
 * </ul>
 */
final class AsyncSubmitter implements AppendCallback {
    /** Spins before parking: the next completion usually comes within a burst of the completion thread. */
    private static final int SPINS = 1_000;
    private static final long PARK_NANOS = TimeUnit.MILLISECONDS.toNanos(1);
    private static final long STALL_NANOS = TimeUnit.MILLISECONDS.toNanos(CellThreads.STOP_TIMEOUT_MILLIS);

    private final int inFlight;
    private final long[] submitNanos;
    private final int mask;
    private final Histogram histogram = CellResults.newHistogram();
    private final CellPhase phase;
    private volatile Thread owner;
    private volatile long completed;   // written by the completion thread only
    private volatile boolean parked;
    private volatile Throwable failure;

    AsyncSubmitter(int inFlight, CellPhase phase) {
        this.inFlight = inFlight;
        this.submitNanos = new long[Integer.highestOneBit(Math.max(2, inFlight) - 1) << 1];
        this.mask = submitNanos.length - 1;
        this.phase = phase;
    }

    Histogram histogram() {
        return histogram;
    }

    /**
     * Submits {@code records} in turn, from the {@code first}, until the phase is stop, keeping at
     * most {@code inFlight} outstanding, then waits until every submitted append has completed.
     * Throws the first failure the log reported through {@link #failed}.
     *
     * @param records a power of two of them, as the closed-loop writers cycle through
     */
    void submitUntilStopped(CommitLog log, byte[][] records, int first) {
        owner = Thread.currentThread();
        int recordMask = records.length - 1;
        long submitted = 0;
        while (!phase.stopped() && failure == null) {
            awaitCompleted(submitted - inFlight + 1);   // fewer than inFlight outstanding after this
            submitNanos[(int) submitted & mask] = System.nanoTime();
            byte[] record = records[(int) (first + submitted) & recordMask];
            log.appendAsync(record, 0, record.length, this);
            submitted++;   // after the call: an append that threw will never complete
        }
        awaitCompleted(submitted);
        Throwable f = failure;
        if (f != null) {
            throw new IllegalStateException("an asynchronous append failed: " + f, f);
        }
    }

    private void awaitCompleted(long target) {
        long stallDeadline = 0;
        for (int spins = 0; completed < target; spins++) {
            if (spins < SPINS) {
                Thread.onSpinWait();
                continue;
            }
            long now = System.nanoTime();
            if (stallDeadline == 0) {
                stallDeadline = now + STALL_NANOS;
            } else if (now - stallDeadline > 0) {
                throw new IllegalStateException("no completion for " + STALL_NANOS / 1_000_000_000 + " s ("
                        + completed + " of " + target + " completed)");
            }
            parked = true;   // volatile store, then the re-read of completed
            if (completed < target) {
                LockSupport.parkNanos(this, PARK_NANOS);
            }
            parked = false;
        }
    }

    @Override
    public void completed(long position, Throwable cause) {
        if (cause == null) {
            durable(position);
        } else {
            failed(position, cause);
        }
    }

    private void durable(long position) {
        long n = completed;
        if (phase.measuring()) {   // completed inside the window: the count is the durable rate
            long latency = System.nanoTime() - submitNanos[(int) n & mask];
            histogram.recordValue(Math.min(latency, CellResults.MAX_TRACKED_NANOS));
        }
        complete(n);
    }

    private void failed(long position, Throwable cause) {
        if (failure == null) {
            failure = cause;
        }
        complete(completed);
    }

    private void complete(long n) {
        completed = n + 1;   // volatile store, then the read of parked
        if (parked) {
            LockSupport.unpark(owner);
        }
    }
}
