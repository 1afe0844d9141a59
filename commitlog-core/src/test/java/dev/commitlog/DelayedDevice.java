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
 * A simulated disk whose flushes take {@code flushMillis} more. Counts the flushes, and those run
 * by a log's sync thread rather than by an appender.
 */
final class DelayedDevice extends ForwardingStorageLayer {
    final long flushMillis;
    final AtomicInteger starts = new AtomicInteger();
    final AtomicInteger bySyncThread = new AtomicInteger();

    DelayedDevice(long flushMillis) {
        super(new SimulatedDisk());
        this.flushMillis = flushMillis;
    }

    void resetCounts() {
        starts.set(0);
        bySyncThread.set(0);
    }

    double syncThreadShare() {
        return (double) bySyncThread.get() / Math.max(1, starts.get());
    }

    @Override
    protected SegmentFile wrap(SegmentFile file) {
        return new DelayedFile(file);
    }

    @Override
    public String toString() {
        return "device with " + flushMillis + " ms flushes, " + bySyncThread + " of " + starts + " flushes by the sync thread";
    }

    private final class DelayedFile extends ForwardingSegmentFile {
        DelayedFile(SegmentFile file) {
            super(file);
        }

        @Override
        public void flushHeaderAndRange(int headerLength, int from, int to) throws IOException {
            starts.incrementAndGet();
            if (Thread.currentThread().getName().startsWith("commitlog-sync-")) {
                bySyncThread.incrementAndGet();
            }
            pause();
            super.flushHeaderAndRange(headerLength, from, to);
        }
    }

    private void pause() {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(flushMillis);
        for (long left = deadline - System.nanoTime(); left > 0; left = deadline - System.nanoTime()) {
            LockSupport.parkNanos(left);
        }
    }
}
