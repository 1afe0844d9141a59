package dev.commitlog.bench.sut;

import dev.commitlog.io.ForwardingSegmentFile;
import dev.commitlog.io.ForwardingStorageLayer;
import dev.commitlog.io.SegmentFile;
import dev.commitlog.io.StorageLayer;
import java.io.IOException;
import java.util.concurrent.locks.LockSupport;

/**
 * The production storage layer with a fixed extra latency after every flush: a stand-in for a
 * device whose sync is slow (network block storage), which this project's VM disk is not. Only for the sweep's
 * {@code --device-latency-us}: the real fdatasync still runs, so nothing is less durable.
 */
final class SlowFlushStorage extends ForwardingStorageLayer {
    private final long extraNanos;

    SlowFlushStorage(StorageLayer delegate, long extraNanos) {
        super(delegate);
        this.extraNanos = extraNanos;
    }

    @Override
    protected SegmentFile wrap(SegmentFile file) {
        return new SlowFile(file);
    }

    private void pause() {
        long deadline = System.nanoTime() + extraNanos;
        for (long left = extraNanos; left > 0; left = deadline - System.nanoTime()) {
            LockSupport.parkNanos(left);
        }
    }

    private final class SlowFile extends ForwardingSegmentFile {
        SlowFile(SegmentFile file) {
            super(file);
        }

        @Override
        public void flush(int from, int to) throws IOException {
            super.flush(from, to);
            pause();
        }

        @Override
        public void flushHeaderAndRange(int headerLength, int from, int to) throws IOException {
            super.flushHeaderAndRange(headerLength, from, to);
            pause();
        }
    }
}
