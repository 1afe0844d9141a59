package dev.commitlog;

import dev.commitlog.io.ForwardingSegmentFile;
import dev.commitlog.io.ForwardingStorageLayer;
import dev.commitlog.io.SegmentFile;
import dev.commitlog.io.SimulatedDisk;
import java.io.IOException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;

/**
 * A simulated disk whose lane flushes take {@code flushMillis} more: all at once (a device that runs
 * syncs in parallel) or, if serial, one after another. Counts the flushes that started while
 * another was still running, and those run by a log's sync thread rather than by an appender.
 */
final class DelayedDevice extends ForwardingStorageLayer {
    final boolean serial;
    final long flushMillis;
    final Object device = new Object();
    final AtomicInteger running = new AtomicInteger();
    final AtomicInteger starts = new AtomicInteger();
    final AtomicInteger overlapped = new AtomicInteger();
    final AtomicInteger bySyncThread = new AtomicInteger();

    DelayedDevice(boolean serial, long flushMillis) {
        super(new SimulatedDisk());
        this.serial = serial;
        this.flushMillis = flushMillis;
    }

    void resetCounts() {
        starts.set(0);
        overlapped.set(0);
        bySyncThread.set(0);
    }

    double syncThreadShare() {
        return (double) bySyncThread.get() / Math.max(1, starts.get());
    }

    double overlappedShare() {
        return (double) overlapped.get() / Math.max(1, starts.get());
    }

    @Override
    protected SegmentFile wrap(SegmentFile file) {
        return new DelayedFile(file);
    }

    @Override
    public String toString() {
        return (serial ? "serial" : "parallel") + " device, " + overlapped + " of " + starts + " flushes overlapped";
    }

    private final class DelayedFile extends ForwardingSegmentFile {
        DelayedFile(SegmentFile file) {
            super(file);
        }

        @Override
        public void flushHeaderAndRange(int headerLength, int from, int to, int lane) throws IOException {
            starts.incrementAndGet();
            if (Thread.currentThread().getName().startsWith("commitlog-sync-")) {
                bySyncThread.incrementAndGet();
            }
            if (running.getAndIncrement() > 0) {
                overlapped.incrementAndGet();
            }
            try {
                if (serial) {
                    synchronized (device) {
                        pause();
                        super.flushHeaderAndRange(headerLength, from, to, lane);
                    }
                } else {
                    pause();
                    super.flushHeaderAndRange(headerLength, from, to, lane);
                }
            } finally {
                running.decrementAndGet();
            }
        }
    }

    private void pause() {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(flushMillis);
        for (long left = deadline - System.nanoTime(); left > 0; left = deadline - System.nanoTime()) {
            LockSupport.parkNanos(left);
        }
    }
}
